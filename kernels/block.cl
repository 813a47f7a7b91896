/*
 * block.cl - the work-group layer under the GPU-shape kernels: barriers,
 * local-memory layout, and the one work-group scan and reduce that scan.cl,
 * compact.cl, sort_split.cl and sort.cl (and through scan.cl the segmented
 * scan and the polynomial) are built on.
 * Appended to a GPU-shape program's configuration after SK_WG (work-group
 * size) and, where the device takes them, warp.cl with SK_WARP_SHUFFLE
 * (primitives/program.c: sk__config_blocks).
 *
 * Layers, as in CUB's warp -> block -> device: warp.cl holds the warp
 * instructions, this file what one work-group does together (scan and
 * reduce one value per work-item, in a warp-level form and a portable
 * form), tile.cl (appended after it) how a work-group moves a tile between
 * global memory, local memory and registers, lookback.cl how tiles find
 * their prefix across work-groups, and the family files (scan.cl, ...) the
 * tiles' work and the kernels.
 *
 * The scans and reductions here take an operator and never swap its
 * operands; which operands combine depends on positions only, never on a
 * value, so kernels built on them keep the interval-of-summations proof.
 */

#ifndef SK_WG
#error "block.cl: SK_WG must be defined by the host configuration"
#endif

/* A work-group of one work-item needs no barriers (and PoCL 3.1 aborts
 * compiling some barrier loops at that size). */
#if SK_WG == 1
#define SK_BARRIER() ((void)0)
#else
#define SK_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#endif

/* Tile positions in local memory with one padding slot every 32 elements:
 * a work-item's run of consecutive positions (blocked order) then falls in
 * distinct banks across the work-group. SK_PADDED(n): slots for n. (tile.cl
 * lays tiles out this way unless they take its 16-byte slots; sort.cl
 * also pads its entries and counters so.) */
#define SK_PAD(i) ((i) + ((i) >> 5))
#define SK_PADDED(n) (SK_PAD((n) - 1) + 1)

/* The local memory (elements of T) a work-group scan or reduce needs. */
#define SK_WG_SCAN_SLOTS (2 * SK_WG)

/* SK_DEFINE_WG_SCAN(NAME, T, OP, IDENTITY) defines
 *   T NAME(T v, __local T *s, T *total)
 * the exclusive scan of one T per work-item in local-id order under OP (a
 * function or function-like macro of two T): work-item i gets
 * v_0 OP ... OP v_(i-1) (IDENTITY for i = 0), *total the combination of
 * all, in every work-item. s holds SK_WG_SCAN_SLOTS elements; every
 * work-item must call it; it ends with a barrier, so s may be reused.
 *
 * Portable form: Hillis-Steele, log2(SK_WG) steps, each combining a value
 * with the one d places to its left, double buffered in s (half the
 * barriers of an up-sweep and down-sweep, which is what bounds a tile's
 * time on GPUs: bench/NOTES-gpu.md).
 *
 * Warp form (SK_WARP_SHUFFLE, work-groups of whole warps): warps of 32
 * work-items in local-id order scan their values by shuffles, word by word
 * (log2(32) steps, no barrier); the warps' totals meet in local memory
 * (one barrier) and each work-item combines the totals of the warps before
 * its own, in order. */
/* SK_BLOCK_WARPS: this program takes the warp forms (SK_BLOCK_PORTABLE,
 * set by the host from the tuning table, keeps the portable forms in a
 * program that has the warp instructions for other uses). */
#if defined(SK_WARP_SHUFFLE) && SK_WG % 32 == 0 && !defined(SK_BLOCK_PORTABLE)
#define SK_BLOCK_WARPS 1
#endif

#if defined(SK_BLOCK_WARPS)
#define SK_DEFINE_WG_SCAN(NAME, T, OP, IDENTITY)                                   \
    typedef union NAME##_words {                                                   \
        T v;                                                                       \
        uint w[(sizeof(T) + 3) / 4];                                               \
    } NAME##_words;                                                                \
    /* v of the lane `delta` below (this lane's own in lanes below delta). */      \
    T NAME##_up(T v, uint delta)                                                   \
    {                                                                              \
        NAME##_words in, out;                                                      \
        in.v = v;                                                                  \
        for (uint i = 0; i < (sizeof(T) + 3) / 4; i++)                             \
            out.w[i] = sk_warp_up(in.w[i], delta);                                 \
        return out.v;                                                              \
    }                                                                              \
    T NAME(T v, __local T *s, T *total)                                            \
    {                                                                              \
        uint lid = get_local_id(0), lane = lid % 32, warp = lid / 32;              \
        T x = v;                                                                   \
        for (uint d = 1; d < 32; d <<= 1) {                                        \
            T y = NAME##_up(x, d);                                                 \
            if (lane >= d) x = OP(y, x);                                           \
        }                                                                          \
        T below = NAME##_up(x, 1);                                                 \
        if (lane == 31) s[warp] = x;                                               \
        SK_BARRIER();                                                              \
        T before = IDENTITY, all = IDENTITY;                                       \
        for (uint w = 0; w < SK_WG / 32; w++) {                                    \
            if (w == warp) before = all;                                           \
            all = OP(all, s[w]);                                                   \
        }                                                                          \
        *total = all;                                                              \
        SK_BARRIER();                                                              \
        return lane == 0 ? before : OP(before, below);                             \
    }
#else
#define SK_DEFINE_WG_SCAN(NAME, T, OP, IDENTITY)                                   \
    T NAME(T v, __local T *s, T *total)                                            \
    {                                                                              \
        uint lid = get_local_id(0);                                                \
        uint in = 0;                                                               \
        s[lid] = v;                                                                \
        SK_BARRIER();                                                              \
        for (uint d = 1; d < SK_WG; d <<= 1) {                                     \
            T x = s[in * SK_WG + lid];                                             \
            if (lid >= d) x = OP(s[in * SK_WG + lid - d], x);                      \
            s[(1 - in) * SK_WG + lid] = x;                                         \
            in = 1 - in;                                                           \
            SK_BARRIER();                                                          \
        }                                                                          \
        *total = s[in * SK_WG + SK_WG - 1];                                        \
        T r = lid > 0 ? s[in * SK_WG + lid - 1] : (T)(IDENTITY);                   \
        SK_BARRIER();                                                              \
        return r;                                                                  \
    }
#endif

/* SK_DEFINE_WG_REDUCE(NAME, T, OP) defines
 *   T NAME(T v, __local T *s)
 * the combination v_0 OP ... OP v_(SK_WG-1) of one T per work-item, in
 * local-id order, returned to every work-item: a Blelloch up-sweep in s
 * (SK_WG elements; SK_WG a power of two), then a barrier, so s may be
 * reused. */
#define SK_DEFINE_WG_REDUCE(NAME, T, OP)                                           \
    T NAME(T v, __local T *s)                                                      \
    {                                                                              \
        uint lid = get_local_id(0);                                                \
        s[lid] = v;                                                                \
        SK_BARRIER();                                                              \
        for (uint d = 1; d < SK_WG; d <<= 1) {                                     \
            uint i = (lid + 1) * 2 * d - 1;                                        \
            if (i < SK_WG) s[i] = OP(s[i - d], s[i]);                              \
            SK_BARRIER();                                                          \
        }                                                                          \
        T total = s[SK_WG - 1];                                                    \
        SK_BARRIER();                                                              \
        return total;                                                              \
    }

/* The instance the counting kernels share (compaction's keep counts, the
 * sort's digit counters): sums of uint. */
#define sk_add(a, b) ((a) + (b))
SK_DEFINE_WG_SCAN(sk_wg_exclusive_sum, uint, sk_add, 0u)
