/*
 * lookback.cl - tiles combined in one pass by decoupled look-back
 * (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
 * Look-back", 2016). Appended to the configuration of a program that
 * defines the shape and the monoid of the tile totals: SK_LB_T (at most
 * 4 bytes), SK_LB_IDENTITY and sk_lb_op(a, b); the GPU shape also SK_WG.
 * A larger SK_LB_T that carries at most 33 bits defines SK_LB_CODEC and
 * ulong sk_lb_encode(SK_LB_T) / SK_LB_T sk_lb_decode(ulong) between it and
 * those bits (a segmented scan's value and head flag).
 *
 * state[0] hands out tile numbers in the order work-groups start, so a
 * work-group only ever waits for tiles that running (or finished)
 * work-groups own: no deadlock, whatever order the device starts them in.
 * The work-group that takes the last tile number sets state[0]
 * back to 0 for the next launch (every number has been taken by then).
 * state[1 + t] is tile t's word: the launch's epoch (29 bits) and a status
 * (2 bits) above a value of SK_LB_T (33 bits: its 4 bytes, or its code),
 * written at once by one 64-bit atomic exchange so that a reader never sees
 * a status without its value:
 *   SK_LB_AGGREGATE  the value is the combination of tile t alone
 *   SK_LB_PREFIX     the value is the combination of tiles 0 .. t
 * and a word of another epoch (an earlier launch's) counts as empty. The
 * host gives every launch a new epoch, so the words need no clearing
 * between launches (the host zeroes them when the buffer is new and when
 * the epochs wrap).
 *
 * GPU shape: a tile's exclusive prefix is found by a window of SK_LB_WINDOW
 * work-items reading the SK_LB_WINDOW tiles before it at once (each waiting
 * while its tile is empty); work-item 0 then combines them from the nearest
 * back to the first PREFIX, and the window moves back if there was none.
 *
 * CPU shape (work-group size 1): nothing ever waits. The walk back lives in
 * scan.cl, which can reduce a chunk: an empty predecessor is reduced by the
 * reader itself, and offered (sk_lb_offer) to later readers as that
 * chunk's AGGREGATE. A work-item waiting for another would spin for a whole
 * time slice whenever the other's thread is descheduled on a loaded CPU.
 *
 * Statuses steer the walk; values never steer anything. The combining
 * order depends on which predecessors had published their prefix, so
 * operators whose result depends on association (float add) round
 * differently run to run.
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#if !defined(SK_LB_CODEC)
typedef char sk_lookback_needs_4_byte_values[(sizeof(SK_LB_T) <= 4) ? 1 : -1];
#endif

#define SK_LB_EMPTY 0ul
#define SK_LB_AGGREGATE 1ul
#define SK_LB_PREFIX 2ul

#if defined(SK_SHAPE_GPU)
#if SK_WG == 1
#define SK_LB_BARRIER() ((void)0)
#else
#define SK_LB_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#endif

#if SK_WG < 32
#define SK_LB_WINDOW SK_WG
#else
#define SK_LB_WINDOW 32
#endif
#endif

#define SK_LB_VALUE_BITS 33
#define SK_LB_VALUE_MASK ((1ul << SK_LB_VALUE_BITS) - 1)

#if !defined(SK_LB_CODEC)
typedef union sk_lb_bits {
    SK_LB_T v;
    uint u;
} sk_lb_bits;

ulong sk_lb_encode(SK_LB_T v)
{
    sk_lb_bits b;
    b.u = 0;
    b.v = v;
    return b.u;
}

SK_LB_T sk_lb_decode(ulong code)
{
    sk_lb_bits b;
    b.u = (uint)code;
    return b.v;
}
#endif

ulong sk_lb_pack(uint epoch, ulong status, SK_LB_T v)
{
    return ((ulong)epoch << (SK_LB_VALUE_BITS + 2)) | (status << SK_LB_VALUE_BITS) |
           (sk_lb_encode(v) & SK_LB_VALUE_MASK);
}

SK_LB_T sk_lb_value(ulong word) { return sk_lb_decode(word & SK_LB_VALUE_MASK); }

ulong sk_lb_status(uint epoch, ulong word)
{
    return (word >> (SK_LB_VALUE_BITS + 2)) == epoch ? (word >> SK_LB_VALUE_BITS) & 3ul
                                                     : SK_LB_EMPTY;
}

/* Reads a tile's word: an atomic or of 0 (OpenCL 1.2 has no atomic load). */
ulong sk_lb_read(__global ulong *word) { return atom_or(word, 0ul); }

void sk_lb_publish(__global ulong *state, uint epoch, uint tile, ulong status, SK_LB_T v)
{
    atom_xchg(state + 1 + tile, sk_lb_pack(epoch, status, v));
}

/* Publishes v as tile's AGGREGATE unless its word has changed since a
 * reader saw it empty (`seen`): the owner's own words always win. */
void sk_lb_offer(__global ulong *state, uint epoch, uint tile, ulong seen, SK_LB_T v)
{
    atom_cmpxchg(state + 1 + tile, seen, sk_lb_pack(epoch, SK_LB_AGGREGATE, v));
}

#if defined(SK_SHAPE_GPU)
/* The next tile number, the same for every work-item of the work-group;
 * the taker of the last one resets the counter. */
uint sk_lb_take_tile(__global ulong *state, ulong tiles, __local uint *slot)
{
    if (get_local_id(0) == 0) {
        ulong t = atom_inc(state);
        if (t == tiles - 1) atom_xchg(state, 0ul);
        *slot = (uint)t;
    }
    SK_LB_BARRIER();
    uint tile = *slot;
    SK_LB_BARRIER();
    return tile;
}

/* Work-item lid < SK_LB_WINDOW: the word of tile `end - 1 - lid`, once it
 * is not empty (tiles before 0 read as a PREFIX of the identity). */
ulong sk_lb_wait_word(__global ulong *state, uint epoch, long end, uint lid)
{
    long j = end - 1 - (long)lid;
    if (j < 0) return sk_lb_pack(epoch, SK_LB_PREFIX, SK_LB_IDENTITY);
    ulong w;
    do {
        w = sk_lb_read(state + 1 + j);
    } while (sk_lb_status(epoch, w) == SK_LB_EMPTY);
    return w;
}

#if defined(SK_WARP_SHUFFLE) && !defined(SK_PORTABLE_LOOKBACK) && SK_WG % 32 == 0
/* A value's code from the lane `delta` above this one (lane 0's with
 * `from_lane0`), one shuffle per 32 bits it has. */
ulong sk_lb_warp_code(ulong code, uint delta, uint from_lane0)
{
    uint lo = from_lane0 ? sk_warp_idx((uint)code, 0) : sk_warp_down((uint)code, delta);
#if defined(SK_LB_CODEC)
    uint hi = from_lane0 ? sk_warp_idx((uint)(code >> 32), 0)
                         : sk_warp_down((uint)(code >> 32), delta);
    return ((ulong)hi << 32) | lo;
#else
    return lo;
#endif
}

/* v of the lanes first .. 0 of this warp (lanes above `first` give the
 * identity) combined in tile order: lane k holds the tile k places before
 * the window's end, so the highest lane's value comes first. Lane 0 gets
 * the result. */
SK_LB_T sk_lb_warp_combine(SK_LB_T v, uint first)
{
    uint lane = get_local_id(0) % 32;
    SK_LB_T x = lane <= first ? v : SK_LB_IDENTITY;
    for (uint d = 1; d < 32; d <<= 1) {
        SK_LB_T y = sk_lb_decode(sk_lb_warp_code(sk_lb_encode(x), d, 0));
        if (lane + d < 32) x = sk_lb_op(y, x);
    }
    return x;
}

/* Publishes this tile's total, finds the combination of every tile before
 * it, publishes the tile's inclusive prefix; every work-item gets the
 * exclusive prefix. The first warp alone looks back: lane k waits for the
 * word of the tile k places before the window's end, a vote finds the
 * nearest PREFIX, shuffles combine the words up to it, and the window moves
 * back while there is none; one barrier hands the prefix to the other
 * warps. carry is local scratch (win and done are not used). */
SK_LB_T sk_lb_exclusive_prefix(__global ulong *state, uint epoch, uint tile,
                               SK_LB_T total, __local ulong *win, __local SK_LB_T *carry,
                               __local uint *done)
{
    (void)win;
    (void)done;
    uint lid = get_local_id(0);
    if (lid < 32) {
        if (lid == 0)
            sk_lb_publish(state, epoch, tile, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE, total);
        SK_LB_T acc = SK_LB_IDENTITY;
        uint found = tile == 0;
        for (long end = tile; !found; end -= 32) {
            ulong w = sk_lb_wait_word(state, epoch, end, lid);
            uint prefixes = sk_warp_ballot(sk_lb_status(epoch, w) == SK_LB_PREFIX);
            found = prefixes != 0;
            uint first = found ? 31u - clz(prefixes & (0u - prefixes)) : 31u;
            SK_LB_T part = sk_lb_warp_combine(sk_lb_value(w), first);
            part = sk_lb_decode(sk_lb_warp_code(sk_lb_encode(part), 0, 1));
            acc = sk_lb_op(part, acc);
        }
        if (lid == 0) {
            if (tile != 0) sk_lb_publish(state, epoch, tile, SK_LB_PREFIX, sk_lb_op(acc, total));
            *carry = acc;
        }
    }
    SK_LB_BARRIER();
    SK_LB_T prefix = *carry;
    SK_LB_BARRIER();
    return prefix;
}
#else
/* Publishes this tile's total, finds the combination of every tile before
 * it, publishes the tile's inclusive prefix; every work-item gets the
 * exclusive prefix. win, carry and done are local scratch. */
SK_LB_T sk_lb_exclusive_prefix(__global ulong *state, uint epoch, uint tile,
                               SK_LB_T total, __local ulong *win, __local SK_LB_T *carry,
                               __local uint *done)
{
    uint lid = get_local_id(0);
    if (lid == 0) {
        sk_lb_publish(state, epoch, tile, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE, total);
        *carry = SK_LB_IDENTITY;
        *done = tile == 0;
    }
    SK_LB_BARRIER();
    for (long end = tile; !*done; end -= SK_LB_WINDOW) {
        if (lid < SK_LB_WINDOW) win[lid] = sk_lb_wait_word(state, epoch, end, lid);
        SK_LB_BARRIER();
        if (lid == 0) {
            SK_LB_T acc = *carry;
            uint found = 0;
            for (uint k = 0; k < SK_LB_WINDOW && !found; k++) {
                acc = sk_lb_op(sk_lb_value(win[k]), acc);
                found = sk_lb_status(epoch, win[k]) == SK_LB_PREFIX;
            }
            *carry = acc;
            *done = found;
            if (found) sk_lb_publish(state, epoch, tile, SK_LB_PREFIX, sk_lb_op(acc, total));
        }
        SK_LB_BARRIER();
    }
    SK_LB_T prefix = *carry;
    SK_LB_BARRIER();
    return prefix;
}
#endif
#else /* the CPU shape: one work-item per work-group */

/* The next chunk number; the taker of the last one resets the counter. */
uint sk_lb_take_chunk(__global ulong *state, ulong chunks)
{
    ulong t = atom_inc(state);
    if (t == chunks - 1) atom_xchg(state, 0ul);
    return (uint)t;
}
#endif
