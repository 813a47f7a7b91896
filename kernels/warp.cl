/*
 * warp.cl - warp-level operations of NVIDIA GPUs of compute capability 7.0
 * and up, by inline PTX (NVIDIA's OpenCL 1.2 offers no sub-group
 * functions). The host appends this file to a program's configuration
 * where the device takes them (primitives/runtime.c: has_nv_warps) and
 * the work-group size is a multiple of 32; it then also defines
 * SK_WARP_SHUFFLE. A warp is 32 work-items of consecutive local ids
 * starting at a multiple of 32; its lanes are numbered by local id % 32.
 * Every function here must be reached by all 32 lanes of the warp at once.
 */

/* SK_DEFINE_WARP_SHUFFLE(NAME, MODE, C) defines uint NAME(uint v, uint b),
 * the shfl.sync instruction of mode MODE (up, down, idx) with clamp value
 * C: v of the lane that MODE and b name (PTX ISA: shfl.sync). */
#define SK_DEFINE_WARP_SHUFFLE(NAME, MODE, C)                                      \
    uint NAME(uint v, uint b)                                                      \
    {                                                                              \
        uint r;                                                                    \
        __asm__ __volatile__("shfl.sync." #MODE ".b32 %0, %1, %2, " #C ", 0xffffffff;" \
                             : "=r"(r)                                             \
                             : "r"(v), "r"(b));                                    \
        return r;                                                                  \
    }

/* sk_warp_up(v, delta): v of the lane `delta` below this one (this lane's
 * own v in lanes below delta). */
SK_DEFINE_WARP_SHUFFLE(sk_warp_up, up, 0)
/* sk_warp_down(v, delta): v of the lane `delta` above this one (this
 * lane's own v in lanes whose lane + delta is past 31). */
SK_DEFINE_WARP_SHUFFLE(sk_warp_down, down, 0x1f)
/* sk_warp_idx(v, lane): v of lane `lane`. */
SK_DEFINE_WARP_SHUFFLE(sk_warp_idx, idx, 0x1f)

/* The lanes voting true (vote != 0), one bit per lane. */
uint sk_warp_ballot(uint vote)
{
    uint lanes;
    __asm__ __volatile__("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
                         "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
                         : "=r"(lanes)
                         : "r"(vote));
    return lanes;
}

/* The lanes below this one, one bit per lane. */
uint sk_warp_lanes_below(void)
{
    uint m;
    __asm__ __volatile__("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}
