/*
 * lookback.cl - tiles combined in one pass by decoupled look-back
 * (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
 * Look-back", 2016), with one counter per tile (the scan's total, the
 * compaction's kept count) or several (the radix sort's count of every
 * digit value). Appended to the configuration of a program that defines
 * the shape, block.cl in the GPU shape, and the monoid of the counters:
 * SK_LB_T, SK_LB_IDENTITY and sk_lb_op(a, b); optionally
 *   SK_LB_COUNTERS   counters per tile (default 1)
 *   SK_LB_WORD_BITS  64 (default) or 32, the word format below
 *   SK_LB_CODEC      an SK_LB_T of more than 4 bytes that carries at most
 *                    33 bits: ulong sk_lb_encode(SK_LB_T) and SK_LB_T
 *                    sk_lb_decode(ulong) between it and those bits (a
 *                    segmented scan's value and head flag)
 *   SK_LB_PARTS      (64-bit words, with SK_LB_COUNTERS parts) an SK_LB_T
 *                    of more than 33 bits whose part p (of at most 33 bits)
 *                    is a monoid of its own, combined by sk_lb_op on
 *                    decoded parts: counter p of a tile carries part p,
 *                    ulong sk_lb_encode_part(SK_LB_T, uint p) and SK_LB_T
 *                    sk_lb_decode_part(ulong, uint p) between them, and
 *                    void sk_lb_join_parts(__local SK_LB_T *parts) puts
 *                    a value together from its decoded parts in parts[0]
 *                    (segment totals: the head count, and the value with
 *                    its flag). In place, not returned: Oclgrind 21.10
 *                    cannot create the kernel when a returned struct of
 *                    16 bytes or more is inlined there (the LLVM intrinsic
 *                    llvm.experimental.noalias.scope.decl).
 *   SK_LB_POLL_VOLATILE  (32-bit words) waiting reads are volatile loads
 *                    rather than atomics: one aligned 32-bit access, which
 *                    sees each atomic write whole on NVIDIA GPUs, though
 *                    the OpenCL 1.2 model (and Oclgrind's race check) calls
 *                    it a race with the writes; the tuning table sets it.
 *
 * The state buffer: its first word hands out tile numbers in the order
 * work-groups start (sk_lb_take_tile), so a work-group only ever waits for
 * tiles that running (or finished) work-groups own: no deadlock, whatever
 * order the device starts them in; the taker of the last number sets the
 * counter back to 0 for the next launch. Word 1 + t * SK_LB_COUNTERS + c
 * is counter c of tile t: a status above a value, written at once by one
 * atomic exchange so that a reader never sees a status without its value:
 *   SK_LB_EMPTY      nothing published yet
 *   SK_LB_AGGREGATE  the value is the combination of tile t alone
 *   SK_LB_PREFIX     the value is the combination of tiles 0 .. t
 * Word formats:
 *   64 bits  the launch's epoch (29 bits), the status (2), a value of
 *            SK_LB_T (33 bits: its 4 bytes, or its code). A word of another
 *            epoch (an earlier launch's) counts as empty: the host gives
 *            every launch a new epoch, so the words need no clearing
 *            between launches (the host zeroes them when the buffer is new
 *            and when the epochs wrap). SK_LB_T of at most 4 bytes.
 *   32 bits  the status (2 bits) and a count below 2^30 (SK_LB_T uint);
 *            the host zeroes the words before every launch: half the
 *            traffic, for tiles with hundreds of counters.
 *
 * Two walks back, both here:
 *   - one counter per tile (sk_lb_exclusive_prefix): a window of
 *     SK_LB_WINDOW work-items reads the SK_LB_WINDOW tiles before this one
 *     at once (each waiting while its tile is empty) and combines them from
 *     the nearest back to the first PREFIX (by warp votes and shuffles
 *     with SK_WARP_SHUFFLE); the window moves back if there was none;
 *   - several counters per tile (sk_lb_counter_prefix): one work-item per
 *     counter walks back over that counter's words, SK_LB_DEPTH at a time.
 * The CPU shape (work-group size 1) never waits: its walk lives in scan.cl,
 * which can reduce a chunk: an empty predecessor is reduced by the reader
 * itself, and offered (sk_lb_offer) to later readers as that chunk's
 * AGGREGATE. A work-item waiting for another would spin for a whole time
 * slice whenever the other's thread is descheduled on a loaded CPU.
 *
 * Statuses steer the walk; values never steer anything. The combining
 * order depends on which predecessors had published their prefix, so
 * operators whose result depends on association (float add) round
 * differently run to run.
 */
#ifndef SK_LB_COUNTERS
#define SK_LB_COUNTERS 1
#endif
#ifndef SK_LB_WORD_BITS
#define SK_LB_WORD_BITS 64
#endif

#define SK_LB_EMPTY 0u
#define SK_LB_AGGREGATE 1u
#define SK_LB_PREFIX 2u

#if SK_LB_WORD_BITS == 64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef ulong sk_lb_word;
#define SK_LB_VALUE_BITS 33
#if !defined(SK_LB_CODEC) && !defined(SK_LB_PARTS)
typedef char sk_lookback_needs_4_byte_values[(sizeof(SK_LB_T) <= 4) ? 1 : -1];

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
#define SK_LB_VALUE_MASK ((1ul << SK_LB_VALUE_BITS) - 1)

/* Counter c's code of v, and the value of counter c's code. */
#if defined(SK_LB_PARTS)
#define SK_LB_ENCODE(v, c) sk_lb_encode_part((v), (c))
#define SK_LB_DECODE(code, c) sk_lb_decode_part((code), (c))
#else
#define SK_LB_ENCODE(v, c) sk_lb_encode(v)
#define SK_LB_DECODE(code, c) sk_lb_decode(code)
#endif

/* The word of counter c holding v. */
sk_lb_word sk_lb_pack_counter(uint epoch, uint status, SK_LB_T v, uint c)
{
    (void)c;
    return ((ulong)epoch << (SK_LB_VALUE_BITS + 2)) | ((ulong)status << SK_LB_VALUE_BITS) |
           (SK_LB_ENCODE(v, c) & SK_LB_VALUE_MASK);
}

SK_LB_T sk_lb_value_counter(sk_lb_word word, uint c)
{
    (void)c;
    return SK_LB_DECODE(word & SK_LB_VALUE_MASK, c);
}

sk_lb_word sk_lb_pack(uint epoch, uint status, SK_LB_T v)
{
    return sk_lb_pack_counter(epoch, status, v, 0);
}

SK_LB_T sk_lb_value(sk_lb_word word) { return sk_lb_value_counter(word, 0); }

uint sk_lb_status(uint epoch, sk_lb_word word)
{
    return (word >> (SK_LB_VALUE_BITS + 2)) == epoch ? (uint)(word >> SK_LB_VALUE_BITS) & 3u
                                                     : SK_LB_EMPTY;
}

/* A word's current value: an atomic or of 0 (OpenCL 1.2 has no atomic
 * load). */
sk_lb_word sk_lb_read(__global sk_lb_word *word) { return atom_or(word, 0ul); }

sk_lb_word sk_lb_swap(__global sk_lb_word *word, sk_lb_word w) { return atom_xchg(word, w); }

sk_lb_word sk_lb_inc(__global sk_lb_word *word) { return atom_inc(word); }

sk_lb_word sk_lb_cas(__global sk_lb_word *word, sk_lb_word seen, sk_lb_word w)
{
    return atom_cmpxchg(word, seen, w);
}

#elif SK_LB_WORD_BITS == 32
typedef uint sk_lb_word;
#define SK_LB_VALUE_BITS 30
#define SK_LB_VALUE_MASK ((1u << SK_LB_VALUE_BITS) - 1)

sk_lb_word sk_lb_pack(uint epoch, uint status, uint v)
{
    (void)epoch;
    return (status << SK_LB_VALUE_BITS) | (v & SK_LB_VALUE_MASK);
}

uint sk_lb_value(sk_lb_word word) { return word & SK_LB_VALUE_MASK; }

sk_lb_word sk_lb_pack_counter(uint epoch, uint status, uint v, uint c)
{
    (void)c;
    return sk_lb_pack(epoch, status, v);
}

uint sk_lb_value_counter(sk_lb_word word, uint c)
{
    (void)c;
    return sk_lb_value(word);
}

uint sk_lb_status(uint epoch, sk_lb_word word)
{
    (void)epoch;
    return word >> SK_LB_VALUE_BITS;
}

sk_lb_word sk_lb_read(__global sk_lb_word *word)
{
#if defined(SK_LB_POLL_VOLATILE)
    return *(volatile __global uint *)word;
#else
    return atomic_or(word, 0u);
#endif
}

sk_lb_word sk_lb_swap(__global sk_lb_word *word, sk_lb_word w) { return atomic_xchg(word, w); }

sk_lb_word sk_lb_inc(__global sk_lb_word *word) { return atomic_inc(word); }

sk_lb_word sk_lb_cas(__global sk_lb_word *word, sk_lb_word seen, sk_lb_word w)
{
    return atomic_cmpxchg(word, seen, w);
}
#else
#error "lookback.cl: SK_LB_WORD_BITS must be 64 or 32"
#endif

/* Counter c of tile t. */
__global sk_lb_word *sk_lb_word_of(__global sk_lb_word *state, uint t, uint c)
{
    return state + 1 + (ulong)t * SK_LB_COUNTERS + c;
}

void sk_lb_publish(__global sk_lb_word *state, uint epoch, uint tile, uint c, uint status,
                   SK_LB_T v)
{
    sk_lb_swap(sk_lb_word_of(state, tile, c), sk_lb_pack_counter(epoch, status, v, c));
}

/* Publishes v as counter c of tile's AGGREGATE unless its word has
 * changed since a reader saw it empty (`seen`): the owner's own words
 * always win. */
void sk_lb_offer(__global sk_lb_word *state, uint epoch, uint tile, uint c, sk_lb_word seen,
                 SK_LB_T v)
{
    sk_lb_cas(sk_lb_word_of(state, tile, c), seen,
              sk_lb_pack_counter(epoch, SK_LB_AGGREGATE, v, c));
}

/* The next tile number; the taker of the last of `tiles` resets the
 * counter. One work-item. */
uint sk_lb_next_tile(__global sk_lb_word *state, ulong tiles)
{
    uint t = (uint)sk_lb_inc(state);
    if (t == tiles - 1) sk_lb_swap(state, 0);
    return t;
}

#if defined(SK_SHAPE_GPU)
#if SK_WG < 32
#define SK_LB_WINDOW SK_WG
#else
#define SK_LB_WINDOW 32
#endif

/* The next tile number, the same for every work-item of the work-group. */
uint sk_lb_take_tile(__global sk_lb_word *state, ulong tiles, __local uint *slot)
{
    if (get_local_id(0) == 0) *slot = sk_lb_next_tile(state, tiles);
    SK_BARRIER();
    uint tile = *slot;
    SK_BARRIER();
    return tile;
}

/* How many words sk_lb_counter_prefix reads at once past the nearest. */
#define SK_LB_DEPTH 8

/* Counter c of every tile before `tile` combined, by one work-item: reads
 * the nearest word first (usually a PREFIX already), then SK_LB_DEPTH
 * words at once, combines them from the nearest back, and reads again
 * from the first that was still empty (its tile has started: its number
 * was taken before this one). The words are addressed as 64-bit offsets
 * into the counter's column: through sk_lb_word_of's 32-bit tile number
 * the walk made the one-sweep sort of 2^24 keys 1.6x slower on an H100
 * (bench/results/restructure/README.md). */
SK_LB_T sk_lb_counter_prefix(__global sk_lb_word *state, uint epoch, uint tile, uint c)
{
    /* Counter c of tile t is column[t * SK_LB_COUNTERS]. */
    __global sk_lb_word *column = state + 1 + c;
    SK_LB_T acc = SK_LB_IDENTITY;
    long next = (long)tile - 1;
    if (next < 0) return acc;
    sk_lb_word w0 = sk_lb_read(column + next * SK_LB_COUNTERS);
    uint s0 = sk_lb_status(epoch, w0);
    if (s0 == SK_LB_PREFIX) return sk_lb_value_counter(w0, c);
    if (s0 != SK_LB_EMPTY) {
        acc = sk_lb_value_counter(w0, c);
        next--;
    }
    while (next >= 0) {
        sk_lb_word w[SK_LB_DEPTH];
        for (uint i = 0; i < SK_LB_DEPTH; i++)
            w[i] = next >= (long)i ? sk_lb_read(column + (next - (long)i) * SK_LB_COUNTERS)
                                   : sk_lb_pack_counter(epoch, SK_LB_PREFIX, SK_LB_IDENTITY, c);
        for (uint i = 0; i < SK_LB_DEPTH && sk_lb_status(epoch, w[i]) != SK_LB_EMPTY;
             i++, next--) {
            acc = sk_lb_op(sk_lb_value_counter(w[i], c), acc);
            if (sk_lb_status(epoch, w[i]) == SK_LB_PREFIX) return acc;
        }
    }
    return acc;
}

#if SK_LB_COUNTERS == 1
/* Work-item lid < SK_LB_WINDOW: the word of tile `end - 1 - lid`, once it
 * is not empty (tiles before 0 read as a PREFIX of the identity). */
sk_lb_word sk_lb_wait_word(__global sk_lb_word *state, uint epoch, long end, uint lid)
{
    long j = end - 1 - (long)lid;
    if (j < 0) return sk_lb_pack(epoch, SK_LB_PREFIX, SK_LB_IDENTITY);
    sk_lb_word w;
    do {
        w = sk_lb_read(sk_lb_word_of(state, (uint)j, 0));
    } while (sk_lb_status(epoch, w) == SK_LB_EMPTY);
    return w;
}

#if defined(SK_BLOCK_WARPS) && SK_LB_WORD_BITS == 64
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

/* The window's walk by the first warp: lane k waits for the word of the
 * tile k places before the window's end, a vote finds the nearest PREFIX,
 * shuffles combine the words up to it, and the window moves back while
 * there is none. Lane 0 gets the combination of every tile before `tile`. */
SK_LB_T sk_lb_window_walk(__global sk_lb_word *state, uint epoch, uint tile,
                          __local sk_lb_word *win, __local SK_LB_T *carry, __local uint *done)
{
    (void)win;
    (void)carry;
    (void)done;
    uint lid = get_local_id(0);
    SK_LB_T acc = SK_LB_IDENTITY;
    uint found = tile == 0;
    for (long end = tile; !found; end -= 32) {
        sk_lb_word w = sk_lb_wait_word(state, epoch, end, lid);
        uint prefixes = sk_warp_ballot(sk_lb_status(epoch, w) == SK_LB_PREFIX);
        found = prefixes != 0;
        uint first = found ? 31u - clz(prefixes & (0u - prefixes)) : 31u;
        SK_LB_T part = sk_lb_warp_combine(sk_lb_value(w), first);
        part = sk_lb_decode(sk_lb_warp_code(sk_lb_encode(part), 0, 1));
        acc = sk_lb_op(part, acc);
    }
    return acc;
}
#define SK_LB_WALK_BY_WARP 1
#else
/* The window's walk, portable: the window's work-items wait for their
 * words into win[], work-item 0 combines them from the nearest back to the
 * first PREFIX into *carry, and the window moves back while there was none
 * (*done, in local memory: every work-item loops alike). Every work-item
 * must call it (barriers); work-item 0 gets the combination of every tile
 * before `tile`. */
SK_LB_T sk_lb_window_walk(__global sk_lb_word *state, uint epoch, uint tile,
                          __local sk_lb_word *win, __local SK_LB_T *carry, __local uint *done)
{
    uint lid = get_local_id(0);
    if (lid == 0) {
        *carry = SK_LB_IDENTITY;
        *done = tile == 0;
    }
    SK_BARRIER();
    for (long end = tile; !*done; end -= SK_LB_WINDOW) {
        if (lid < SK_LB_WINDOW) win[lid] = sk_lb_wait_word(state, epoch, end, lid);
        SK_BARRIER();
        if (lid == 0) {
            SK_LB_T acc = *carry;
            uint found = 0;
            for (uint k = 0; k < SK_LB_WINDOW && !found; k++) {
                acc = sk_lb_op(sk_lb_value(win[k]), acc);
                found = sk_lb_status(epoch, win[k]) == SK_LB_PREFIX;
            }
            *carry = acc;
            *done = found;
        }
        SK_BARRIER();
    }
    /* Only work-item 0 reads it: the caller's work-item 0 writes it next. */
    return lid == 0 ? *carry : SK_LB_IDENTITY;
}
#endif

/* Publishes this tile's total, finds the combination of every tile before
 * it, publishes the tile's inclusive prefix; every work-item gets the
 * exclusive prefix. win (SK_LB_WINDOW words), carry and done are local
 * scratch. */
SK_LB_T sk_lb_exclusive_prefix(__global sk_lb_word *state, uint epoch, uint tile,
                               SK_LB_T total, __local sk_lb_word *win, __local SK_LB_T *carry,
                               __local uint *done)
{
    uint lid = get_local_id(0);
    if (lid == 0)
        sk_lb_publish(state, epoch, tile, 0, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE, total);
#if defined(SK_LB_WALK_BY_WARP)
    SK_LB_T acc = SK_LB_IDENTITY;
    if (lid < 32) acc = sk_lb_window_walk(state, epoch, tile, win, carry, done);
#else
    SK_LB_T acc = sk_lb_window_walk(state, epoch, tile, win, carry, done);
#endif
    if (lid == 0) {
        if (tile != 0) sk_lb_publish(state, epoch, tile, 0, SK_LB_PREFIX, sk_lb_op(acc, total));
        *carry = acc;
    }
    SK_BARRIER();
    SK_LB_T prefix = *carry;
    SK_BARRIER();
    return prefix;
}

#endif /* SK_LB_COUNTERS == 1 */

#if defined(SK_LB_PARTS)
/* sk_lb_exclusive_prefix for a value in SK_LB_COUNTERS parts: work-item p
 * publishes part p of the tile's total, walks back over part p's counters
 * (sk_lb_counter_prefix) and publishes part p of the tile's inclusive
 * prefix; every work-item gets the exclusive prefix joined from its parts
 * (parts: SK_LB_COUNTERS values of local scratch). Each part's walk goes
 * back only as far as its own counters need: the walks may end at
 * different tiles. */
SK_LB_T sk_lb_parts_exclusive_prefix(__global sk_lb_word *state, uint epoch, uint tile,
                                     SK_LB_T total, __local SK_LB_T *parts)
{
    uint lid = get_local_id(0);
    if (lid < SK_LB_COUNTERS) {
        sk_lb_publish(state, epoch, tile, lid, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE,
                      total);
        SK_LB_T before = sk_lb_counter_prefix(state, epoch, tile, lid);
        if (tile != 0)
            sk_lb_publish(state, epoch, tile, lid, SK_LB_PREFIX, sk_lb_op(before, total));
        parts[lid] = before;
    }
    SK_BARRIER();
    if (lid == 0) sk_lb_join_parts(parts);
    SK_BARRIER();
    SK_LB_T prefix = parts[0];
    SK_BARRIER();
    return prefix;
}
#endif
#endif /* SK_SHAPE_GPU */
