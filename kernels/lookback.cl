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
 *   SK_LB_WIDE       (64-bit words) no epoch: the value (or code) takes 62
 *                    bits, and the host zeroes the words before every
 *                    launch (the segment totals' value and 30-bit head
 *                    count in one word, so that their walk is the
 *                    one-counter walk)
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
 * and, for the GPU shape, SK_LB_SPIN_LIMIT (primitives/program.c sets it
 * from the tuning table, $SCANKIT_LB_SPIN overriding): the polls of an
 * empty word before the work-group stops waiting for it (decoupled
 * fallback, below); 0 waits forever.
 *
 * The state buffer: its first word hands out tile numbers in the order
 * work-groups start (sk_lb_take_tile), so a work-group only ever waits for
 * tiles that running (or finished) work-groups own, whatever order the
 * device starts them in; the taker of the last number sets the counter
 * back to 0 for the next launch. Word 1 + t * SK_LB_COUNTERS + c
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
 * Two walks back in the GPU shape, both here:
 *   - one counter per tile (sk_lb_begin, sk_lb_step, sk_lb_fallback,
 *     sk_lb_end): a window of SK_LB_WINDOW work-items reads the
 *     SK_LB_WINDOW tiles before this one at once (each polling while its
 *     tile is empty) and combines them from the nearest back to the first
 *     PREFIX (by warp votes and shuffles with SK_WARP_SHUFFLE); the window
 *     moves back if there was none;
 *   - several counters per tile (sk_lb_counter_start, _walk, _fallback):
 *     one work-item per counter walks back over that counter's words,
 *     SK_LB_DEPTH at a time; with SK_LB_PARTS the counters are the parts
 *     of one value (sk_lb_parts_begin, _step, _fallback, _end), each
 *     decoded by its own codec (sk_lb_value_counter).
 * The CPU shape (work-group size 1) never waits: its walk lives in scan.cl,
 * which can reduce a chunk: an empty predecessor is reduced by the reader
 * itself, and offered (sk_lb_offer) to later readers as that chunk's
 * AGGREGATE. A work-item waiting for another would spin for a whole time
 * slice whenever the other's thread is descheduled on a loaded CPU.
 *
 * Decoupled fallback (Smith, Levien, Owens, "Decoupled Fallback: A
 * Portable Single-Pass GPU Scan", SPAA 2025): OpenCL does not promise that
 * a started work-group keeps running while another spins, so on some
 * devices waiting for a predecessor can hang. In the GPU shape a walk that
 * has polled an empty word SK_LB_SPIN_LIMIT times stops there; the whole
 * work-group then reduces that tile's input itself, with the family's own
 * tile reduction (the scan's tile reduce, the compaction's kept count, the
 * sort's digit counts), and settles the word (sk_lb_settle): a
 * compare-exchange publishes the result as the tile's AGGREGATE if the
 * word is still empty, else the walk takes what the owner (or another
 * reader) published meanwhile, the same value; then the walk goes on
 * before that tile. The owner's own writes are exchanges and always win.
 * Which tile is reduced, and when, depends on statuses and poll counts
 * only; control flow stays uniform across each work-group around its
 * barriers. The fallback reads other tiles' input, so it runs only where
 * no output overwrites any input (sk_lb_begin's input_stays: a scan out of
 * place, the compaction, the sort's sweeps); a scan in place waits for
 * its predecessors as before (the test hook keeps its totals published).
 * A value in parts (SK_LB_PARTS: the one-pass run-length encoding and
 * reduction by key) falls back part by part, but with the whole tile
 * reduced by the family's reduction (the scan's tile reduce of the segment
 * totals), whose parts each settle their own counter (sk_lb_parts_step).
 * The test hook SK_LB_WITHHOLD (below) makes chosen tiles keep their
 * totals to themselves, so the fallback runs for sure.
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
#if defined(SK_LB_WIDE)
#define SK_LB_VALUE_BITS 62
#else
#define SK_LB_VALUE_BITS 33
#endif
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
#if defined(SK_LB_WIDE)
    (void)epoch;
    return ((ulong)status << SK_LB_VALUE_BITS) | (SK_LB_ENCODE(v, c) & SK_LB_VALUE_MASK);
#else
    return ((ulong)epoch << (SK_LB_VALUE_BITS + 2)) | ((ulong)status << SK_LB_VALUE_BITS) |
           (SK_LB_ENCODE(v, c) & SK_LB_VALUE_MASK);
#endif
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
#if defined(SK_LB_WIDE)
    (void)epoch;
    return (uint)(word >> SK_LB_VALUE_BITS);
#else
    return (word >> (SK_LB_VALUE_BITS + 2)) == epoch ? (uint)(word >> SK_LB_VALUE_BITS) & 3u
                                                     : SK_LB_EMPTY;
#endif
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

/* ---- the test hook SK_LB_WITHHOLD (sk_testing.h) ----------------------------
 * Tiles 1, 4, 7, ... never publish anything; tiles 2, 5, 8, ... publish
 * their AGGREGATE only once their output is written (sk_lb_publish_late),
 * never a PREFIX: their successors find their words empty and must fall
 * back, reading those tiles' input. Where that input may be the output (a
 * scan in place: sk_lb_begin's input_stays 0), withheld tiles still
 * publish their AGGREGATE first and keep only their PREFIX. Needs a spin
 * bound (the successors would wait forever). */
#if defined(SK_LB_WITHHOLD)
#if SK_LB_SPIN_LIMIT == 0
#error "lookback.cl: SK_LB_WITHHOLD needs SK_LB_SPIN_LIMIT above 0"
#endif
#define SK_LB_HOLDS(tile) ((tile) % 3 != 0)
#define SK_LB_LATE(tile) ((tile) % 3 == 2)
#else
#define SK_LB_HOLDS(tile) 0
#define SK_LB_LATE(tile) 0
#endif

/* Counter c of `tile` published as status/v, unless the hook withholds it. */
void sk_lb_publish_own(__global sk_lb_word *state, uint epoch, uint tile, uint c, uint status,
                       SK_LB_T v)
{
    if (!SK_LB_HOLDS(tile)) sk_lb_publish(state, epoch, tile, c, status, v);
}

/* Where the hook makes `tile` publish late: counter c's AGGREGATE v, by
 * the caller once the tile's output is written (SK_LB_AFTER_OUTPUT). */
void sk_lb_publish_late(__global sk_lb_word *state, uint epoch, uint tile, uint c, SK_LB_T v)
{
    if (SK_LB_LATE(tile)) sk_lb_publish(state, epoch, tile, c, SK_LB_AGGREGATE, v);
}

/* Every work-item, after its stores of the tile's output: under the hook,
 * a barrier after which the whole tile's output is written. */
#if defined(SK_LB_WITHHOLD) && SK_WG > 1
#define SK_LB_AFTER_OUTPUT() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#else
#define SK_LB_AFTER_OUTPUT() ((void)0)
#endif

/* The word `seen` of counter c of tile t, read empty: offers v as the
 * tile's AGGREGATE (sk_lb_offer) and returns what the word holds then:
 * the offer, or what the owner (or another reader's offer) put there
 * first, the same value. */
sk_lb_word sk_lb_settle(__global sk_lb_word *state, uint epoch, uint t, uint c, sk_lb_word seen,
                        SK_LB_T v)
{
    sk_lb_word mine = sk_lb_pack_counter(epoch, SK_LB_AGGREGATE, v, c);
    sk_lb_word old = sk_lb_cas(sk_lb_word_of(state, t, c), seen, mine);
    return old == seen ? mine : old;
}

/* No tile to reduce: the walk is done (sk_lb_step, sk_lb_parts_step). */
#define SK_LB_NONE 0xffffffffu

/* How many words sk_lb_counter_walk reads at once past the nearest: the
 * tiles a walk passes per round trip to memory, which bounds how fast the
 * one-pass run totals by key (two counters per tile) move through their
 * tiles (bench/NOTES-gpu.md: Reduce by key and run-length encoding: the
 * look-back of a value in parts). $SCANKIT_KERNEL_DEFINES may set another
 * for a measurement (bench/run_gpu.sh bykey-lb). */
#ifndef SK_LB_DEPTH
#define SK_LB_DEPTH 8
#endif

/* One counter's walk back (several counters per tile, one work-item per
 * counter): the tiles from `next` + 1 to the walker's predecessor combined
 * into acc; done once a PREFIX was combined. */
typedef struct sk_lb_count {
    long next;
    SK_LB_T acc;
    uint done;
} sk_lb_count;

/* Counter c's walk from `tile` on, into *s: reads the nearest word
 * (usually a PREFIX already, which ends it). In place, not returned: see
 * SK_LB_PARTS above (an sk_lb_count of a value in parts is that large). */
void sk_lb_counter_start(__global sk_lb_word *state, uint epoch, uint tile, uint c,
                         sk_lb_count *s)
{
    s->next = (long)tile - 1;
    s->acc = SK_LB_IDENTITY;
    s->done = tile == 0;
    if (s->done) return;
    sk_lb_word w0 = sk_lb_read(state + 1 + (ulong)s->next * SK_LB_COUNTERS + c);
    uint s0 = sk_lb_status(epoch, w0);
    if (s0 != SK_LB_EMPTY) {
        s->acc = sk_lb_value_counter(w0, c);
        s->done = s0 == SK_LB_PREFIX;
        s->next--;
    }
}

/* Walks counter c back, by one work-item: SK_LB_DEPTH words at once,
 * combined from the nearest back, read again from the first that was still
 * empty (its tile has started: its number was taken before this one),
 * until a PREFIX is combined or (SK_LB_SPIN_LIMIT above 0) tile `next`
 * stayed empty for that many reads in a row: then the work-group reduces
 * it (sk_lb_counter_fallback). The words are addressed as 64-bit offsets
 * into the counter's column: through sk_lb_word_of's 32-bit tile number
 * the walk made the one-sweep sort of 2^24 keys 1.6x slower on an H100
 * (bench/results/restructure/README.md). */
void sk_lb_counter_walk(__global sk_lb_word *state, uint epoch, uint c, sk_lb_count *s)
{
    /* Counter c of tile t is column[t * SK_LB_COUNTERS]. */
    __global sk_lb_word *column = state + 1 + c;
#if SK_LB_SPIN_LIMIT > 0
    uint polls = 0;
#endif
    while (!s->done) {
        long next = s->next;
        sk_lb_word w[SK_LB_DEPTH];
        for (uint i = 0; i < SK_LB_DEPTH; i++)
            w[i] = next >= (long)i ? sk_lb_read(column + (next - (long)i) * SK_LB_COUNTERS)
                                   : sk_lb_pack_counter(epoch, SK_LB_PREFIX, SK_LB_IDENTITY, c);
        SK_LB_T acc = s->acc;
        uint i = 0, done = 0;
        for (; i < SK_LB_DEPTH && !done && sk_lb_status(epoch, w[i]) != SK_LB_EMPTY; i++) {
            acc = sk_lb_op(sk_lb_value_counter(w[i], c), acc);
            done = sk_lb_status(epoch, w[i]) == SK_LB_PREFIX;
        }
        s->acc = acc;
        s->done = done;
        s->next = next - (long)i;
#if SK_LB_SPIN_LIMIT > 0
        polls = i == 0 ? polls + 1 : 0;
        if (polls == SK_LB_SPIN_LIMIT) return;
#endif
    }
}

/* Counter c's walk stopped at tile s->next, whose count of counter c the
 * work-group has found itself (v): settles the word and goes past it. */
void sk_lb_counter_fallback(__global sk_lb_word *state, uint epoch, uint c, SK_LB_T v,
                            sk_lb_count *s)
{
    uint t = (uint)s->next;
    sk_lb_word w = sk_lb_read(sk_lb_word_of(state, t, c));
    if (sk_lb_status(epoch, w) == SK_LB_EMPTY) w = sk_lb_settle(state, epoch, t, c, w, v);
    s->acc = sk_lb_op(sk_lb_value_counter(w, c), s->acc);
    s->done = sk_lb_status(epoch, w) == SK_LB_PREFIX;
    s->next--;
}

#if SK_LB_COUNTERS == 1
/* ---- one counter per tile: the work-group's walk ----------------------------
 * A family finds its tile's exclusive prefix as
 *
 *     sk_lb_walk w = sk_lb_begin(state, epoch, tile, total, input_stays);
 *     for (uint t; (t = sk_lb_step(state, epoch, &w, &l)) != SK_LB_NONE;)
 *         sk_lb_fallback(state, epoch, &w, t, <tile t reduced>, &l);
 *     prefix = sk_lb_end(state, epoch, &w, &l);
 *
 * every work-item alike (barriers): sk_lb_step walks back until a PREFIX
 * (SK_LB_NONE) or a tile whose word stayed empty for SK_LB_SPIN_LIMIT
 * polls, which the whole work-group then reduces (the family's own tile
 * reduction) and hands to sk_lb_fallback. With SK_LB_SPIN_LIMIT 0 the walk
 * waits for every word and sk_lb_step never returns a tile. */

/* The look-back's local memory. */
typedef struct sk_lb_local {
    sk_lb_word win[SK_LB_WINDOW];  /* portable walk: the window's words */
    SK_LB_T carry;                 /* the prefix, for every work-item */
    uint need;                     /* the tile to reduce, or SK_LB_NONE */
    uint count;                    /* portable walk: the window's words combined */
    uint done;                     /* a PREFIX was combined */
} sk_lb_local;

/* The walk's state, alike in every work-item but acc (work-item 0's, and
 * with SK_LB_WALK_BY_WARP the first warp's). */
typedef struct sk_lb_walk {
    long end;      /* the tiles before `end` are still to combine */
    SK_LB_T acc;   /* tiles end .. this one's predecessor, combined */
    uint done;     /* a PREFIX was combined */
    uint stops;    /* the walk may stop waiting (sk_lb_begin's input_stays) */
    uint tile;     /* this tile */
    SK_LB_T total; /* this tile's total */
    uint ended;    /* sk_lb_step published the prefix and l->carry (below) */
} sk_lb_walk;

/* Work-item 0 once the walk is done: publishes this tile's inclusive
 * prefix and leaves the exclusive one in l->carry for every work-item. */
void sk_lb_publish_prefix(__global sk_lb_word *state, uint epoch, const sk_lb_walk *w,
                          __local sk_lb_local *l)
{
    if (w->tile != 0)
        sk_lb_publish_own(state, epoch, w->tile, 0, SK_LB_PREFIX, sk_lb_op(w->acc, w->total));
    l->carry = w->acc;
}

/* Work-item lid < SK_LB_WINDOW: the word of tile `end - 1 - lid` once it
 * is not empty, or (SK_LB_SPIN_LIMIT above 0, and `stops`) still empty
 * after that many polls; tiles before 0 read as a PREFIX of the identity. */
sk_lb_word sk_lb_wait_word(__global sk_lb_word *state, uint epoch, long end, uint lid,
                           uint stops)
{
    long j = end - 1 - (long)lid;
    if (j < 0) return sk_lb_pack(epoch, SK_LB_PREFIX, SK_LB_IDENTITY);
    sk_lb_word w;
#if SK_LB_SPIN_LIMIT > 0
    uint polls = 0;
    do {
        w = sk_lb_read(sk_lb_word_of(state, (uint)j, 0));
    } while (sk_lb_status(epoch, w) == SK_LB_EMPTY && (!stops || ++polls < SK_LB_SPIN_LIMIT));
#else
    (void)stops;
    do {
        w = sk_lb_read(sk_lb_word_of(state, (uint)j, 0));
    } while (sk_lb_status(epoch, w) == SK_LB_EMPTY);
#endif
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

/* The walk by the first warp: lane k waits for the word of the tile k
 * places before w->end, a vote finds the nearest PREFIX (or empty word),
 * shuffles combine the words before it (and the PREFIX), and the window
 * moves back while there is neither. Returns the tile whose word stayed
 * empty, or SK_LB_NONE once a PREFIX is combined. */
uint sk_lb_warp_walk(__global sk_lb_word *state, uint epoch, sk_lb_walk *w)
{
    uint lid = get_local_id(0);
    while (!w->done) {
        sk_lb_word word = sk_lb_wait_word(state, epoch, w->end, lid, w->stops);
        uint status = sk_lb_status(epoch, word);
        uint prefixes = sk_warp_ballot(status == SK_LB_PREFIX);
#if SK_LB_SPIN_LIMIT > 0
        uint empties = sk_warp_ballot(status == SK_LB_EMPTY);
#else
        uint empties = 0;
#endif
        /* The nearest lane that stops the walk (32: none); its word is
         * combined if it is a PREFIX, not if it is empty. */
        uint stops = prefixes | empties;
        uint first = stops ? 31u - clz(stops & (0u - stops)) : 32u;
        uint done = first < 32 && ((prefixes >> first) & 1u);
        uint take = first + done;
        if (take > 0) {
            SK_LB_T part = sk_lb_warp_combine(sk_lb_value(word), take - 1);
            part = sk_lb_decode(sk_lb_warp_code(sk_lb_encode(part), 0, 1));
            w->acc = sk_lb_op(part, w->acc);
        }
        w->end -= take;
        w->done = done;
        if (!done && take < 32) return (uint)(w->end - 1);
    }
    return SK_LB_NONE;
}

/* Every work-item: the first warp walks, the others learn where it
 * stopped (a barrier only where a fallback can happen). A walk that is
 * done publishes the prefix before that barrier, which then serves
 * sk_lb_end too: the common path takes no more barriers than without a
 * fallback (measured on an H100: the extra barrier cost 1-5% of every
 * single-pass primitive, bench/NOTES-gpu.md). */
uint sk_lb_step(__global sk_lb_word *state, uint epoch, sk_lb_walk *w, __local sk_lb_local *l)
{
    uint lid = get_local_id(0);
    uint need = SK_LB_NONE;
    if (lid < 32) need = sk_lb_warp_walk(state, epoch, w);
#if SK_LB_SPIN_LIMIT > 0
    if (lid == 0) {
        l->need = need;
        if (need == SK_LB_NONE) sk_lb_publish_prefix(state, epoch, w, l);
    }
    SK_BARRIER();
    need = l->need;
    if (need != SK_LB_NONE) w->end = (long)need + 1;
    else w->ended = 1;
#else
    (void)l;
#endif
    return need;
}
#define SK_LB_WALK_BY_WARP 1
#else
/* The window's walk, portable, by every work-item: the window's
 * work-items wait for their words into l->win, work-item 0 combines them
 * from the nearest back to the first PREFIX (or empty word), and the
 * window moves back while there was neither. Returns the tile whose word
 * stayed empty, or SK_LB_NONE once a PREFIX is combined; a walk done here
 * has published the prefix (before the window's last barrier, which then
 * serves sk_lb_end). */
uint sk_lb_step(__global sk_lb_word *state, uint epoch, sk_lb_walk *w, __local sk_lb_local *l)
{
    uint lid = get_local_id(0);
    while (!w->done) {
        if (lid < SK_LB_WINDOW)
            l->win[lid] = sk_lb_wait_word(state, epoch, w->end, lid, w->stops);
        SK_BARRIER();
        if (lid == 0) {
            SK_LB_T acc = w->acc;
            uint k = 0, done = 0;
            for (; k < SK_LB_WINDOW && !done; k++) {
                uint status = sk_lb_status(epoch, l->win[k]);
                if (status == SK_LB_EMPTY) break;
                acc = sk_lb_op(sk_lb_value(l->win[k]), acc);
                done = status == SK_LB_PREFIX;
            }
            w->acc = acc;
            l->count = k;
            l->done = done;
            if (done) sk_lb_publish_prefix(state, epoch, w, l);
        }
        SK_BARRIER();
        uint take = l->count;
        w->done = l->done;
        w->ended = w->done;
        w->end -= take;
        if (!w->done && take < SK_LB_WINDOW) return (uint)(w->end - 1);
    }
    return SK_LB_NONE;
}
#endif

/* Publishes this tile's total (tile 0: as its PREFIX) and starts the
 * walk. input_stays: no tile's output overwrites any tile's input; else
 * (a scan in place) the walk waits for every predecessor as before the
 * fallback: reading a tile's input that its owner overwrites would be a
 * race by the OpenCL memory model, whatever the order in time. */
sk_lb_walk sk_lb_begin(__global sk_lb_word *state, uint epoch, uint tile, SK_LB_T total,
                       uint input_stays)
{
    if (get_local_id(0) == 0) {
        if (!SK_LB_HOLDS(tile) || !input_stays)
            sk_lb_publish(state, epoch, tile, 0, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE,
                          total);
    }
    sk_lb_walk w = {tile, SK_LB_IDENTITY, tile == 0, input_stays, tile, total, 0};
    return w;
}

/* Every work-item: tile t (sk_lb_step's) reduced by the work-group is v;
 * work-item 0 settles t's word (sk_lb_settle) and combines what it holds,
 * and the walk goes on before t. */
void sk_lb_fallback(__global sk_lb_word *state, uint epoch, sk_lb_walk *w, uint t, SK_LB_T v,
                    __local sk_lb_local *l)
{
    if (get_local_id(0) == 0) {
        sk_lb_word word = sk_lb_read(sk_lb_word_of(state, t, 0));
        if (sk_lb_status(epoch, word) == SK_LB_EMPTY)
            word = sk_lb_settle(state, epoch, t, 0, word, v);
        w->acc = sk_lb_op(sk_lb_value(word), w->acc);
        l->done = sk_lb_status(epoch, word) == SK_LB_PREFIX;
    }
    SK_BARRIER();
    w->done = l->done;
    w->end = t;
}

/* Publishes this tile's inclusive prefix (unless sk_lb_step did; the tile
 * and its total are the walk's, from sk_lb_begin); every work-item gets
 * the exclusive prefix. */
SK_LB_T sk_lb_end(__global sk_lb_word *state, uint epoch, sk_lb_walk *w,
                  __local sk_lb_local *l)
{
    if (!w->ended) {
        if (get_local_id(0) == 0) sk_lb_publish_prefix(state, epoch, w, l);
        SK_BARRIER();
    }
    SK_LB_T prefix = l->carry;
    SK_BARRIER();
    return prefix;
}

#endif /* SK_LB_COUNTERS == 1 */

#if defined(SK_LB_PARTS)
/* ---- a value in parts: the work-group's walk --------------------------------
 * A value of SK_LB_COUNTERS parts (counter p of a tile carries part p)
 * finds its tile's exclusive prefix as the one-counter walk does:
 *
 *     sk_lb_count p;
 *     sk_lb_parts_begin(state, epoch, tile, total, input_stays, &p, &l);
 *     for (uint t; (t = sk_lb_parts_step(state, epoch, input_stays, &p, &l)) != SK_LB_NONE;)
 *         sk_lb_parts_fallback(state, epoch, t, <tile t reduced>, &p);
 *     prefix = sk_lb_parts_end(state, epoch, tile, total, &p, &l);
 *
 * every work-item alike (barriers). Work-item p < SK_LB_COUNTERS walks
 * part p back over its own counters (sk_lb_counter_start, _walk), so the
 * walks may end at different tiles. Each round the work-group reduces the
 * nearest tile that some part's walk stopped at (SK_LB_SPIN_LIMIT polls of
 * an empty word), the whole value with the family's tile reduction, and
 * every part whose walk stopped there settles its own part of it
 * (sk_lb_counter_fallback, by counter p's codec); the walks go on until
 * each has combined a PREFIX. Without input_stays the walks wait. */

/* The walk's local memory for a value in parts. */
typedef struct sk_lb_parts_local {
    SK_LB_T parts[SK_LB_COUNTERS];  /* the prefix's parts, joined in parts[0] */
    uint need;                      /* the nearest tile a walk stopped at + 1, or 0 */
} sk_lb_parts_local;

/* Publishes this tile's total, part p by work-item p (tile 0: as its
 * PREFIX), and starts part p's walk in *p (a finished walk elsewhere). */
void sk_lb_parts_begin(__global sk_lb_word *state, uint epoch, uint tile, SK_LB_T total,
                       uint input_stays, sk_lb_count *p, __local sk_lb_parts_local *l)
{
    uint lid = get_local_id(0);
    if (lid == 0) l->need = 0;
    if (lid < SK_LB_COUNTERS) {
        if (!SK_LB_HOLDS(tile) || !input_stays)
            sk_lb_publish(state, epoch, tile, lid, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE,
                          total);
        sk_lb_counter_start(state, epoch, tile, lid, p);
    } else {
        p->next = -1;
        p->acc = SK_LB_IDENTITY;
        p->done = 1;
    }
    SK_BARRIER();
}

/* Every work-item: walks each part on (without input_stays until its
 * PREFIX); returns the nearest tile some walk stopped at, for the
 * work-group to reduce, or SK_LB_NONE once every walk is done. */
uint sk_lb_parts_step(__global sk_lb_word *state, uint epoch, uint input_stays,
                      sk_lb_count *p, __local sk_lb_parts_local *l)
{
    uint lid = get_local_id(0);
    if (lid < SK_LB_COUNTERS) {
        do {
            sk_lb_counter_walk(state, epoch, lid, p);
        } while (!p->done && !input_stays);
#if SK_LB_SPIN_LIMIT > 0
        if (!p->done) atomic_max(&l->need, (uint)p->next + 1);
#endif
    }
    SK_BARRIER();
    uint need = l->need;
    SK_BARRIER();
    if (need == 0) return SK_LB_NONE;
    if (lid == 0) l->need = 0;
    SK_BARRIER();
    return need - 1;
}

/* Every work-item: tile t (sk_lb_parts_step's) reduced by the work-group
 * is v; each part whose walk stopped at t settles its word there and goes
 * on before t. */
void sk_lb_parts_fallback(__global sk_lb_word *state, uint epoch, uint t, SK_LB_T v,
                          sk_lb_count *p)
{
    uint lid = get_local_id(0);
    if (lid < SK_LB_COUNTERS && !p->done && p->next == (long)t)
        sk_lb_counter_fallback(state, epoch, lid, v, p);
}

/* Publishes part p of this tile's inclusive prefix by work-item p; every
 * work-item gets the exclusive prefix joined from its parts. */
SK_LB_T sk_lb_parts_end(__global sk_lb_word *state, uint epoch, uint tile, SK_LB_T total,
                        sk_lb_count *p, __local sk_lb_parts_local *l)
{
    uint lid = get_local_id(0);
    if (lid < SK_LB_COUNTERS) {
        if (tile != 0)
            sk_lb_publish_own(state, epoch, tile, lid, SK_LB_PREFIX, sk_lb_op(p->acc, total));
        l->parts[lid] = p->acc;
    }
    SK_BARRIER();
    if (lid == 0) sk_lb_join_parts(l->parts);
    SK_BARRIER();
    SK_LB_T prefix = l->parts[0];
    SK_BARRIER();
    return prefix;
}
#endif
#endif /* SK_SHAPE_GPU */
