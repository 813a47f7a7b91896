/*
 * sort.c - LSD radix sort of keys, or of (key, value) pairs: validate,
 * plan, get the cached program, enqueue.
 *
 * Keys are sorted by their transformed bits (kernels/sort.cl: sign flips
 * for signed integers, IEEE totalOrder for floats, everything inverted for
 * descending order), digit by digit from the least significant end. Before
 * the passes, one kernel computes the AND and the OR of all transformed
 * keys; bits where they agree are the same in every key, so the passes
 * cover only the span of bits that differ and skip every digit inside it
 * that is constant. (On the CPU shape that kernel also counts the lowest
 * digit of the bit range, the first pass's histogram whenever the lowest
 * bit differs between keys.) Each pass:
 *   1. a digit histogram per part (a chunk on the CPU shape, a tile on the
 *      GPU shape), digit-major;
 *   2. an exclusive scan of the histograms with sk__scan_counts (the
 *      library's own scan: uint32 counts, uint64 from n = 2^32 on);
 *   3. a stable scatter from one buffer to the other.
 * On the GPU shape, sorts of fewer than 2^30 keys instead count every digit
 * in one read of the keys (scanned back to back, by the counting launch's
 * last work-group, into where each digit value starts) and then take one
 * launch per digit (Onesweep, Adinets & Merrill 2022): each tile ranks its
 * keys in local memory and finds, by decoupled look-back over the tiles'
 * published digit counts, where its keys of each digit value go
 * (kernels/sort.cl). Below
 * the tuning's sort_skip_from keys (SK_PARAM_GPU_SORT_SKIP_FROM) the AND
 * and OR are not read back: every digit of the bit range takes its sweep
 * (one over a constant digit is a stable identity, so the result is the
 * same) and the call never waits for the device. The three-step passes
 * stay for larger sorts and for SK_SCAN_PATH_REDUCE_THEN_SCAN.
 * On the CPU shape with the line scatter, keys whose differing bits span
 * more than two digits go instead by buckets of their top differing digit
 * (the bounds pass counts the range's top digit in place of the lowest):
 * one line scatter puts every bucket in place, then sk_sort_buckets sorts
 * each bucket by the bits below that digit inside the caches, two
 * crossings of memory for all of those bits (run_buckets), where the
 * largest bucket fits the tuning's bound.
 * The buffers alternate between the caller's and scratch, and an odd
 * number of passes ends with a copy back; keys-only sorts (and pairs on the
 * CPU shape) with an odd number of passes (three or more) go through two
 * scratch buffers instead and need no copy (see pass_plan).
 *
 * The entry points, the host-array forms, validation and the plan are in
 * sort_plan.c (sort.h).
 */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(sort_aux, "sort: key bounds, line buffers");
SK_SCRATCH_ID(sort_state, "sort: look-back state");
SK_SCRATCH_ID(sort_state2, "sort: look-back state of the next sweep");
SK_SCRATCH_ID(sort_seg_starts, "sort: each segment's digit starts (segments)");
SK_SCRATCH_ID(sort_keys, "sort: keys ping-pong");
SK_SCRATCH_ID(sort_values, "sort: values ping-pong");
SK_SCRATCH_ID(sort_keys2, "sort: second keys scratch (pairs, odd pass count)");
SK_SCRATCH_ID(sort_values2, "sort: second values scratch (odd pass count)");
SK_SCRATCH_ID(sort_hist, "sort: digit histograms");
SK_SCRATCH_ID(sort_top_hist, "sort: the top digit's histograms (buckets)");
SK_SCRATCH_ID(sort_buckets, "sort: the buckets' regions");

/* The buckets' digit: at least this many bits (kernels/sort_cpu.cl:
 * SK_BUCKET_MIN_TOP), more while evenly spread keys leave at least
 * BUCKET_KEYS a bucket. */
#define BUCKET_MIN_TOP 8u
#define BUCKET_KEYS ((size_t)1 << 12)

/* ---- programs ------------------------------------------------------------- */

enum { K_BOUNDS, K_HIST, K_SCATTER, K_ZERO, K_COUNT_DIGITS, K_ONESWEEP };

static const char *const gpu_kernels[] = {"sk_sort_bounds_groups", "sk_sort_hist_tiles",
                                          "sk_sort_scatter_tiles", "sk_sort_zero",
                                          "sk_sort_count_digits", "sk_sort_onesweep"};
static const char *const cpu_kernels[] = {"sk_sort_bounds_chunks", "sk_sort_hist_chunks",
                                          "sk_sort_scatter_chunks", "sk_sort_fold_chunks",
                                          "sk_sort_scatter_lines", "sk_sort_buckets"};
/* The segments' program (sk__sort_segments). */
enum { K_SEG_COUNT, K_SEG_SWEEP, K_SEG_COPY };
static const char *const seg_kernels[] = {"sk_sort_seg_count", "sk_sort_seg_sweep",
                                          "sk_sort_seg_copy"};
/* The CPU program's kernels after the first three (with nt_lines only). */
enum { K_CPU_FOLD = 3, K_CPU_SCATTER_LINES = 4, K_CPU_BUCKETS = 5 };

static char *sort_config(const sort_plan *p, const sort_req *r)
{
    sk__str s = {0};
    sk__config_key(&s, r->key_type);
    sk__str_addf(&s, "#define SK_COUNT_T %s\n#define SK_RADIX_BITS %u\n",
                 p->wide ? "ulong" : "uint", p->radix_bits);
    if (r->value_size)
        sk__str_addf(&s, "#define SK_VAL_T %s\n#define SK_VAL_BITS %zu\n",
                     r->value_size == 8 ? "ulong" : "uint", 8 * r->value_size);
    if (p->gpu)
        sk__str_addf(&s, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                     p->t.wg_size, p->t.items);
    if (p->segments) sk__str_addf(&s, "#define SK_SORT_SEGMENTS 1\n");
    if (p->gpu && !p->wide)
        sk__str_addf(&s, "#define SK_ONESWEEP 1\n#define SK_MAX_DIGITS %zu\n"
                         "#define SK_OS_STAGE_ULONG4 %zu\n",
                     div_up(key_types[r->key_type].bits, p->radix_bits),
                     onesweep_stage_words(p->t.wg_size, p->t.items, p->key_size, r->value_size));
    bool onesweep = p->gpu && !p->wide;
    if (onesweep)
        sk__str_addf(&s, "#define SK_LB_T uint\n#define SK_LB_IDENTITY 0u\n"
                         "#define sk_lb_op(a, b) ((a) + (b))\n#define SK_LB_WORD_BITS 32\n"
                         "#define SK_LB_COUNTERS (1u << SK_RADIX_BITS)\n");
    if (onesweep && p->poll_volatile) sk__str_addf(&s, "#define SK_LB_POLL_VOLATILE 1\n");
    if (onesweep && p->warp_match) sk__str_addf(&s, "#define SK_OS_WARP_MATCH 1\n");
    if (p->gpu && !p->t.wg_scan_warps) sk__str_addf(&s, "#define SK_BLOCK_PORTABLE 1\n");
    if (!p->gpu)
        sk__str_addf(&s, "#define SK_SHAPE_CPU 1\n");
    if (p->nt_lines) sk__str_addf(&s, "#define SK_NT_LINES 1\n");
    if (p->nt_lines && p->t.prefetch)
        sk__str_addf(&s, "#define SK_PREFETCH 1\n");
    sk__config_blocks(&s, p->gpu, onesweep && p->warp_match, onesweep ? &p->t : NULL);
    sk__str_add_source(&s, "sort_keys");
    if (p->gpu) sk__str_add_source(&s, "sort_split");
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static sk_status sort_program(sk_context *ctx, sort_plan *p, const sort_req *r)
{
    unsigned kernels = p->segments ? 3 : p->gpu && !p->wide ? 6 : p->nt_lines ? 6 : 3;
    const char *const *names = p->segments ? seg_kernels : p->gpu ? gpu_kernels : cpu_kernels;
    sk_status st = sk__program_take(ctx, p->gpu ? "sort" : "sort_cpu", sort_config(p, r), names,
                                    kernels, &p->prog);
    if (st == SK_E_BUILD && p->warp_match) {
        /* A driver that takes no inline PTX: the portable ranking. */
        p->warp_match = false;
        sk__sort_fit_items(p, ctx, r->value_size);
        sk__sort_split_parts(p, r->n);
        return sort_program(ctx, p, r);
    }
    return st;
}

/* Builds (or finds) the program; on the GPU shape lowers the work-group
 * size until every kernel can run it. */
static sk_status open_program(sk_context *ctx, sort_plan *p, const sort_req *r)
{
    sk_status st = sort_program(ctx, p, r);
    bool lowered = p->gpu;
    while (st == SK_OK && lowered) {
        st = sk__fit_wg(ctx, p->prog, "sort", &p->t.wg_size, &lowered);
        if (st != SK_OK || !lowered) break;
        sk__sort_split_parts(p, r->n);
        st = sort_program(ctx, p, r);
    }
    return st;
}

/* ---- the sort ---------------------------------------------------------------- */

/* One pass: sort by the digit (bits >> shift) & mask. */
typedef struct pass_digit {
    unsigned shift, mask;
} pass_digit;

typedef struct sort_job {
    sk_context *ctx;
    const sort_req *r;
    sort_plan p;
    uint64_t flip;                /* XOR-ed onto transformed keys */
    cl_mem hist;
    pass_digit first;             /* CPU shape: the digit the bounds pass counts */
    pass_digit top;               /* CPU shape: the top digit it counts too (mask 0: none) */
    cl_mem top_hist;              /* ... into these histograms */
    cl_mem state[2];              /* one sweep per digit: look-back state, */
    size_t state_words;           /* the sweeps taking turns */
    cl_mem aux;                   /* CPU line scatter: lines, next digit's counts */
} sort_job;

/* Launches the kernel whose arguments `a` holds over `parts` work-groups
 * (GPU shape) or work-items. */
static sk_status launch(const sort_job *j, sk__args *a, size_t parts)
{
    size_t local = j->p.gpu ? j->p.t.wg_size : 1;
    return sk__args_launch(a, parts * local, local);
}

/* Bounds that say every bit differs between keys: every pass runs. */
static void every_bit_differs(uint64_t *and_out, uint64_t *or_out)
{
    *and_out = 0;
    *or_out = ~(uint64_t)0;
}

/* The AND and the OR over `parts` pairs of partials (AND, OR) on the device. */
static sk_status reduce_bounds(sort_job *j, cl_mem partials, size_t parts, uint64_t *and_out,
                               uint64_t *or_out)
{
    sk_context *ctx = j->ctx;
    size_t ks = j->p.key_size;
    sk_status st = SK_OK;
    unsigned char *host = malloc(2 * parts * ks);
    if (!host) SK_TRY(sk__fail(ctx, SK_E_OUT_OF_MEMORY, "sort: key bounds"));
    SK_TRY(sk__read(ctx, partials, true, 0, 2 * parts * ks, host));
    uint64_t and_all = ~(uint64_t)0, or_all = 0;
    for (size_t i = 0; i < parts; i++) {
        uint64_t x = 0, y = 0;
        memcpy(&x, host + 2 * i * ks, ks); /* little-endian host and device */
        memcpy(&y, host + (2 * i + 1) * ks, ks);
        and_all &= x;
        or_all |= y;
    }
    *and_out = and_all;
    *or_out = or_all;
    /* Measuring: every bit differs, so every pass and its scratch counts. */
    if (sk__measuring(ctx)) every_bit_differs(and_out, or_out);
out:
    free(host);
    return st;
}

static sk_status key_bounds(sort_job *j, cl_mem keys, uint64_t *and_out, uint64_t *or_out)
{
    sk_context *ctx = j->ctx;
    size_t ks = j->p.key_size, parts = j->p.bound_parts;
    cl_mem partials = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &sort_aux, 2 * parts * ks, &partials));
    sk__args a;
    sk__args_init(&a, ctx, j->p.prog, K_BOUNDS);
    sk__arg_mem(&a, keys);
    sk__arg_mem(&a, partials);
    if (!j->p.gpu) sk__arg_mem(&a, j->hist);
    sk__arg_ulong(&a, "n", j->r->n);
    if (!j->p.gpu) {
        sk__arg_ulong(&a, "chunk", j->p.chunk);
        sk__arg_ulong(&a, "parts", j->p.parts);
        sk__arg_uint(&a, "shift", j->first.shift);
        sk__arg_uint(&a, "mask", j->first.mask);
    }
    sk__arg_word(&a, "flip", ks, j->flip);
    if (!j->p.gpu) {
        sk__arg_mem(&a, j->top.mask ? j->top_hist : j->hist);
        sk__arg_uint(&a, "top_shift", j->top.shift);
        sk__arg_uint(&a, "top_mask", j->top.mask);
    }
    SK_TRY(launch(j, &a, parts));
    st = reduce_bounds(j, partials, parts, and_out, or_out);
out:
    return st;
}

/* Buffers of one pass: read from src, write to dst. */
typedef struct pass_bufs {
    cl_mem src_k, dst_k, src_v, dst_v;
} pass_bufs;

/* The arguments every scatter starts with: source and destination keys,
 * then values for pairs. */
static void arg_pass_bufs(sk__args *a, const sort_job *j, const pass_bufs *b)
{
    sk__arg_mem(a, b->src_k);
    sk__arg_mem(a, b->dst_k);
    if (j->r->value_size) {
        sk__arg_mem(a, b->src_v);
        sk__arg_mem(a, b->dst_v);
    }
}

/* The histogram (K_HIST: the source keys) or plain scatter (K_SCATTER:
 * every buffer of b) of the pass by the digit pd, into or from `hist`. */
static sk_status launch_pass(sort_job *j, unsigned kernel, const pass_bufs *b, pass_digit pd,
                             cl_mem hist)
{
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, kernel);
    if (kernel == K_HIST) sk__arg_mem(&a, b->src_k);
    else arg_pass_bufs(&a, j, b);
    sk__arg_mem(&a, hist);
    sk__arg_ulong(&a, "n", j->r->n);
    if (!j->p.gpu) sk__arg_ulong(&a, "chunk", j->p.chunk);
    sk__arg_ulong(&a, "parts", j->p.parts);
    sk__arg_uint(&a, "shift", pd.shift);
    sk__arg_uint(&a, "mask", pd.mask);
    sk__arg_word(&a, "flip", j->p.key_size, j->flip);
    return launch(j, &a, j->p.parts);
}

/* CPU shape: the scatter through line buffers by the scanned `hist`; it
 * also counts the digit `next` (mask 0: none) for the next pass. */
static sk_status launch_scatter_lines(sort_job *j, const pass_bufs *b, pass_digit pd,
                                      pass_digit next, cl_mem hist)
{
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_CPU_SCATTER_LINES);
    arg_pass_bufs(&a, j, b);
    sk__arg_mem(&a, hist);
    sk__arg_mem(&a, j->aux);
    sk__arg_ulong(&a, "n", j->r->n);
    sk__arg_ulong(&a, "chunk", j->p.chunk);
    sk__arg_ulong(&a, "parts", j->p.parts);
    sk__arg_uint(&a, "shift", pd.shift);
    sk__arg_uint(&a, "mask", pd.mask);
    sk__arg_uint(&a, "next_shift", next.shift);
    sk__arg_uint(&a, "next_mask", next.mask);
    sk__arg_word(&a, "flip", j->p.key_size, j->flip);
    return launch(j, &a, j->p.parts);
}

/* CPU shape: the histogram from the previous line scatter's counts. */
static sk_status launch_fold(sort_job *j)
{
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_CPU_FOLD);
    sk__arg_mem(&a, j->aux);
    sk__arg_mem(&a, j->hist);
    sk__arg_ulong(&a, "parts", j->p.parts);
    return launch(j, &a, j->p.parts);
}

/* Where a pass's histogram comes from. */
typedef enum hist_source {
    HIST_READ,                    /* a histogram pass over the keys */
    HIST_READY,                   /* already in j->hist: the bounds pass counted it */
    HIST_FOLD                     /* counted by the previous pass's line scatter */
} hist_source;

/* A pass by the digit pd; its scatter counts `next` (mask 0: none). */
static sk_status run_pass(sort_job *j, const pass_bufs *b, pass_digit pd, hist_source from,
                          pass_digit next)
{
    size_t count = ((size_t)1 << j->p.radix_bits) * j->p.parts;
    sk_status st = SK_OK;
    if (from == HIST_READ) st = launch_pass(j, K_HIST, b, pd, j->hist);
    else if (from == HIST_FOLD) st = launch_fold(j);
    if (st == SK_OK)
        st = sk__scan_counts(j->ctx, j->p.wide ? SK_UINT64 : SK_UINT32, j->hist, count);
    if (st != SK_OK) return st;
    return j->p.lines ? launch_scatter_lines(j, b, pd, next, j->hist)
                      : launch_pass(j, K_SCATTER, b, pd, j->hist);
}

/* Where pass i's histogram comes from. */
static hist_source hist_source_of(const sort_job *j, const pass_digit *passes, unsigned i)
{
    if (i > 0) return j->p.fused ? HIST_FOLD : HIST_READ;
    bool first = !j->p.gpu && passes[0].shift == j->first.shift &&
                 passes[0].mask == j->first.mask;
    return first ? HIST_READY : HIST_READ;
}

/* The digit that pass i's scatter counts for the next pass (mask 0: none). */
static pass_digit next_counted(const sort_job *j, const pass_digit *passes, unsigned i,
                               unsigned count)
{
    return j->p.fused && i + 1 < count ? passes[i + 1] : (pass_digit){0, 0};
}

/* CPU line scatter: every chunk's key and value lines, then the counts of
 * the next digit when the scatter takes them (kernels/sort.cl,
 * sk_chunk_lines). The slot held the bounds pass's partials, already read
 * back. */
static sk_status open_lines(sort_job *j)
{
    size_t radix = (size_t)1 << j->p.radix_bits, parts = j->p.parts;
    size_t bytes = parts * radix * CPU_LINE * (j->p.key_size + j->r->value_size);
    if (j->p.fused) bytes += parts * parts * radix * (j->p.wide ? 8 : 4);
    return sk__scratch_get(j->ctx, &sort_aux, bytes, &j->aux);
}

/* ---- one sweep per digit (GPU shape) ---------------------------------------------- */

/* words[0 .. count) of `mem` = 0. */
static sk_status zero_words(sort_job *j, cl_mem mem, size_t count)
{
    size_t local = j->p.t.wg_size;
    size_t groups = div_up(count, local);
    if (groups > j->p.t.stride_groups) groups = j->p.t.stride_groups;
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_ZERO);
    sk__arg_mem(&a, mem);
    sk__arg_ulong(&a, "count", count);
    return sk__args_launch(&a, groups * local, local);
}

/* The words the digit count gathers in, zero (sk__zero_at_rest): zeroed
 * here only where they may hold anything. Sized for the widest keys
 * whatever these keys are, so that a sort of wider keys after narrower
 * ones never makes them grow (a buffer made again at the address of the
 * one it replaced had Oclgrind report its zeroed words uninitialised). */
static sk_status open_digit_counters(sort_job *j, size_t words, cl_mem *acc)
{
    size_t widest = (div_up(64, j->p.radix_bits) << j->p.radix_bits) + 1, dirty = 0;
    sk_status st = SK_OK;
    if (words < widest) words = widest;
    SK_TRY(sk__zero_at_rest(j->ctx, words * sizeof(cl_uint), acc, &dirty));
    if (dirty) {
        SK_TRY(zero_words(j, *acc, dirty / sizeof(cl_uint)));
        sk__zero_at_rest_zeroed(j->ctx);
    }
out:
    return st;
}

/* One sweep per digit: the digits of the bit range, from begin_bit, each
 * rb bits wide but the last. */
static unsigned sweep_digits(const sort_job *j)
{
    return (unsigned)div_up(j->r->end_bit - j->r->begin_bit, j->p.radix_bits);
}

static unsigned sweep_mask(const sort_job *j, unsigned digit)
{
    unsigned rb = j->p.radix_bits, width = j->r->end_bit - j->r->begin_bit - digit * rb;
    return (1u << (width < rb ? width : rb)) - 1;
}

/* The look-back state of two sweeps: a tile counter and a word per tile
 * and digit value each. */
static sk_status open_sweep_state(sort_job *j)
{
    sk_status st = SK_OK;
    size_t bytes = (1 + (j->p.parts << j->p.radix_bits)) * sizeof(cl_uint);
    j->state_words = bytes / sizeof(cl_uint);
    SK_TRY(sk__scratch_get(j->ctx, &sort_state, bytes, &j->state[0]));
    SK_TRY(sk__scratch_get(j->ctx, &sort_state2, bytes, &j->state[1]));
out:
    return st;
}

/* One sweep per digit: counts every digit of the bit range and finds the
 * keys' AND and OR in one launch, one read of the keys. The counts gather
 * in words that are zero at rest (sk__zero_at_rest); the launch's last
 * work-group (a ticket word after the counts says which) takes them,
 * leaving the words zero, and scans them, back to back, into where each
 * digit value starts. The AND and OR are read back unless every digit is
 * to be swept (sweep_all): then nothing waits for the device, and every
 * bit counts as differing. */
static sk_status count_digits(sort_job *j, cl_mem keys, uint64_t *and_out, uint64_t *or_out)
{
    sk_context *ctx = j->ctx;
    unsigned digits = sweep_digits(j);
    size_t words = (size_t)digits << j->p.radix_bits;
    size_t groups = j->p.parts < j->p.t.stride_groups ? j->p.parts : j->p.t.stride_groups;
    cl_mem partials = NULL, acc = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &sort_aux, 2 * groups * j->p.key_size, &partials));
    SK_TRY(open_sweep_state(j));
    SK_TRY(open_digit_counters(j, words + 1, &acc));
    sk__args a;
    sk__args_init(&a, ctx, j->p.prog, K_COUNT_DIGITS);
    sk__arg_mem(&a, keys);
    sk__arg_mem(&a, j->hist);
    sk__arg_mem(&a, acc);
    sk__arg_mem(&a, partials);
    sk__arg_ulong(&a, "n", j->r->n);
    sk__arg_uint(&a, "digits", digits);
    sk__arg_uint(&a, "shift0", j->r->begin_bit);
    sk__arg_uint(&a, "last_mask", sweep_mask(j, digits - 1));
    sk__arg_word(&a, "flip", j->p.key_size, j->flip);
    sk__arg_mem(&a, j->state[0]);
    sk__arg_ulong(&a, "state_words", j->state_words);
    SK_TRY(launch(j, &a, groups));
    if (j->p.sweep_all) every_bit_differs(and_out, or_out);
    else st = reduce_bounds(j, partials, groups, and_out, or_out);
out:
    return st;
}

/* Sweep number i of the sort: sort by digit number `digit` (counted from
 * begin_bit). Its look-back state, state[i % 2], starts zeroed (by the
 * digit count for the first sweep); it zeroes the other's for the next
 * sweep (none after the last): no launch of its own for the zeroing. */
static sk_status run_sweep(sort_job *j, const pass_bufs *b, unsigned digit, pass_digit pd,
                           unsigned i, bool last)
{
    sk_context *ctx = j->ctx;
    sk__args a;
    sk__args_init(&a, ctx, j->p.prog, K_ONESWEEP);
    arg_pass_bufs(&a, j, b);
    sk__arg_mem(&a, j->hist);
    sk__arg_mem(&a, j->state[i % 2]);
    sk__arg_mem(&a, j->state[(i + 1) % 2]);
    sk__arg_ulong(&a, "next_words", last ? 0 : j->state_words);
    sk__arg_ulong(&a, "n", j->r->n);
    sk__arg_uint(&a, "digit", digit);
    sk__arg_uint(&a, "shift", pd.shift);
    sk__arg_uint(&a, "mask", pd.mask);
    sk__arg_word(&a, "flip", j->p.key_size, j->flip);
    return launch(j, &a, j->p.parts);
}


static unsigned lowest_bit(uint64_t x)
{
    unsigned b = 0;
    while (!((x >> b) & 1)) b++;
    return b;
}

static unsigned highest_bit(uint64_t x)
{
    unsigned b = 63;
    while (!((x >> b) & 1)) b--;
    return b;
}

#define MAX_PASSES 64

/* One sweep per digit: the digits (from begin_bit, as counted) with bits
 * in `diff`; the others are skipped. */
static unsigned list_sweeps(const sort_job *j, uint64_t diff, pass_digit *out)
{
    unsigned count = 0;
    for (unsigned d = 0; d < sweep_digits(j); d++) {
        pass_digit pd = {j->r->begin_bit + d * j->p.radix_bits, sweep_mask(j, d)};
        if ((diff >> pd.shift) & pd.mask) out[count++] = pd;
    }
    return count;
}

/* The passes over the bits in `diff` (bits that differ between keys), one
 * digit at a time from the lowest differing bit; constant digits skipped.
 * @return their number. */
static unsigned list_passes(const sort_job *j, uint64_t diff, pass_digit *out)
{
    unsigned count = 0, rb = j->p.radix_bits;
    unsigned lo = lowest_bit(diff), hi = highest_bit(diff) + 1;
    for (unsigned shift = lo; shift < hi; shift += rb) {
        unsigned width = hi - shift < rb ? hi - shift : rb;
        unsigned mask = (1u << width) - 1;
        if ((diff >> shift) & mask) out[count++] = (pass_digit){shift, mask};
    }
    return count;
}

/* Where each pass writes. Keys only (any shape) or pairs (CPU shape), with
 * an odd number of passes (three or more): through two scratch buffers, the
 * last pass into the caller's, so that no copy is needed (keys, A, B, A,
 * ..., keys; values likewise). Otherwise the caller's buffers and one
 * scratch alternate, and an odd number of passes ends with a copy back. */
typedef struct pass_plan {
    cl_mem keys, values;          /* the caller's */
    cl_mem tmp_k, tmp_v;          /* scratch */
    cl_mem tmp_k2, tmp_v2;        /* second scratch, or NULL (tmp_v2: pairs only) */
} pass_plan;

/* Pass i of count through the caller's buffer `own` and the scratch a, b. */
static void three_way(cl_mem own, cl_mem a, cl_mem b, unsigned i, unsigned count, cl_mem *src,
                      cl_mem *dst)
{
    *src = i == 0 ? own : i % 2 ? a : b;
    *dst = i + 1 == count ? own : i % 2 ? b : a;
}

static pass_bufs pass_buffers(const pass_plan *pp, unsigned i, unsigned count)
{
    if (pp->tmp_k2) {
        pass_bufs b = {NULL, NULL, NULL, NULL};
        three_way(pp->keys, pp->tmp_k, pp->tmp_k2, i, count, &b.src_k, &b.dst_k);
        if (pp->tmp_v2)
            three_way(pp->values, pp->tmp_v, pp->tmp_v2, i, count, &b.src_v, &b.dst_v);
        return b;
    }
    if (i % 2 == 0) return (pass_bufs){pp->keys, pp->tmp_k, pp->values, pp->tmp_v};
    return (pass_bufs){pp->tmp_k, pp->keys, pp->tmp_v, pp->values};
}

static sk_status run_passes(sort_job *j, const pass_plan *pp, const pass_digit *passes,
                            unsigned count)
{
    sk_context *ctx = j->ctx;
    sk_status st = SK_OK;
    if (j->p.lines) SK_TRY(open_lines(j));
    for (unsigned i = 0; i < count && st == SK_OK; i++) {
        pass_bufs b = pass_buffers(pp, i, count);
        unsigned digit = (passes[i].shift - j->r->begin_bit) / j->p.radix_bits;
        st = j->p.onesweep ? run_sweep(j, &b, digit, passes[i], i, i + 1 == count)
                           : run_pass(j, &b, passes[i], hist_source_of(j, passes, i),
                                      next_counted(j, passes, i, count));
    }
    if (st != SK_OK || pp->tmp_k2 || count % 2 == 0) return st;
    SK_TRY(sk__copy(ctx, pp->tmp_k, 0, pp->keys, 0, j->r->n * j->p.key_size));
    if (j->r->value_size)
        SK_TRY(sk__copy(ctx, pp->tmp_v, 0, pp->values, 0, j->r->n * j->r->value_size));
out:
    return st;
}

/* Scratch for the passes: the buffers of pass_plan. */
static sk_status open_scratch(sort_job *j, unsigned count, pass_plan *pp)
{
    sk_context *ctx = j->ctx;
    const sort_req *r = j->r;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &sort_keys, r->n * j->p.key_size, &pp->tmp_k));
    /* Second buffers take turns with the first so that an odd count of
     * passes ends in the keys' buffer without a copy; only where every
     * digit's pass makes an odd count too, so that measuring (every pass
     * counts) sizes what a sort takes, and a sort never takes more (a
     * stream sort's device budget, the caller's scratch). Otherwise an odd
     * count ends with a copy. Pairs take them on the CPU shape only (twice
     * the scratch; on a GPU the memory is the scarcer). */
    unsigned every = (r->end_bit - r->begin_bit + j->p.radix_bits - 1) / j->p.radix_bits;
    bool odd = count % 2 == 1 && every % 2 == 1;
    bool second = odd && count >= 3 && (!r->value_size || !j->p.gpu);
    if (r->value_size)
        SK_TRY(sk__scratch_get(ctx, &sort_values, r->n * r->value_size, &pp->tmp_v));
    if (second && !r->value_size)
        SK_TRY(sk__scratch_get(ctx, &sort_values, r->n * j->p.key_size, &pp->tmp_k2));
    if (second && r->value_size) {
        SK_TRY(sk__scratch_get(ctx, &sort_keys2, r->n * j->p.key_size, &pp->tmp_k2));
        SK_TRY(sk__scratch_get(ctx, &sort_values2, r->n * r->value_size, &pp->tmp_v2));
    }
out:
    return st;
}

/* ---- CPU shape: buckets by the top digit ------------------------------------ */

/* The width of the buckets' digit (kernels/sort_cpu.cl: SK_BUCKET_MIN_TOP
 * to the digit width): buckets of about 2^12 keys where evenly spread,
 * whose passes' counts (2^12 at most a pass) the keys outnumber. */
static unsigned bucket_bits(const sort_job *j)
{
    unsigned m = BUCKET_MIN_TOP;
    while (m < j->p.radix_bits && (j->r->n >> (m + 1)) >= BUCKET_KEYS) m++;
    return m;
}

/* Whether the passes may go by buckets (sk_sort_buckets, kernels/sort_cpu.cl):
 * a device that is not a GPU (the kernel keeps every pass's counts, 2-5 x
 * 4096 words, in a work-item's private memory, which the CPU's caches
 * hold; NVIDIA's OpenCL on an H200 ran it with wrong results at 2 x 4096
 * words and right ones at 3 x 256, and a GPU gains nothing from it), the
 * line scatter, more than two digits' bits (two passes stay
 * least-significant first: the buckets' own pass costs about one), and
 * buckets of evenly spread keys within half the size allowed (else the
 * largest would hardly ever fit, and the bounds pass had better count the
 * first pass's digit). */
static bool buckets_possible(const sort_job *j, unsigned bits)
{
    size_t even = (j->r->n >> bucket_bits(j)) * (j->p.key_size + j->r->value_size);
    return !j->ctx->desc.is_gpu && j->p.lines && bits > 2 * j->p.radix_bits &&
           even <= j->p.t.sort_bucket_bytes / 2;
}

/* The buckets' histograms, and the bit range's top digit for the bounds
 * pass to count into them (where the top differing digit usually is)
 * instead of the lowest. */
static sk_status open_top_digit(sort_job *j)
{
    const sort_req *r = j->r;
    unsigned m = bucket_bits(j);
    /* Rows of every digit value the kernels count (SK_RADIX), those past
     * the buckets' 2^m zero. */
    size_t bytes = ((size_t)j->p.parts << j->p.radix_bits) * (j->p.wide ? 8 : 4);
    j->top = (pass_digit){0, 0};
    if (!buckets_possible(j, r->end_bit - r->begin_bit)) return SK_OK;
    sk_status st = sk__scratch_get(j->ctx, &sort_top_hist, bytes, &j->top_hist);
    if (st != SK_OK) return st;
    j->top = (pass_digit){r->end_bit - m, (1u << m) - 1};
    j->first = (pass_digit){0, 0};  /* not counted: the passes read their first digit */
    return SK_OK;
}

/* The most keys of one digit value in `buckets` x parts histograms (digit
 * major, not yet scanned). */
static sk_status largest_bucket(sort_job *j, cl_mem hist, size_t buckets, uint64_t *largest)
{
    size_t parts = j->p.parts, cs = j->p.wide ? 8 : 4;
    sk_status st = SK_OK;
    unsigned char *host = malloc(buckets * parts * cs);
    if (!host) SK_TRY(sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "sort: bucket sizes"));
    SK_TRY(sk__read(j->ctx, hist, true, 0, buckets * parts * cs, host));
    *largest = 0;
    for (size_t d = 0; d < buckets; d++) {
        uint64_t sum = 0;
        for (size_t c = 0; c < parts; c++) {
            uint64_t x = 0;
            memcpy(&x, host + (d * parts + c) * cs, cs); /* little-endian host and device */
            sum += x;
        }
        if (sum > *largest) *largest = sum;
    }
out:
    free(host);
    return st;
}

/* sk_sort_buckets: the buckets of the scanned histograms `starts` (the
 * top digit's), sorted by bits [lo, hi) from b's sources into its
 * destinations through `regions` of `region` keys (and values) each. */
static sk_status launch_buckets(sort_job *j, const pass_bufs *b, cl_mem starts, cl_mem regions,
                                uint64_t region, unsigned lo, unsigned hi)
{
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_CPU_BUCKETS);
    arg_pass_bufs(&a, j, b);
    sk__arg_mem(&a, starts);
    sk__arg_mem(&a, regions);
    sk__arg_ulong(&a, "n", j->r->n);
    sk__arg_ulong(&a, "parts", j->p.parts);
    sk__arg_ulong(&a, "buckets", (size_t)1 << bucket_bits(j));
    sk__arg_ulong(&a, "region", region);
    sk__arg_uint(&a, "lo", lo);
    sk__arg_uint(&a, "hi", hi);
    sk__arg_word(&a, "flip", j->p.key_size, j->flip);
    return launch(j, &a, j->p.parts);
}

/* The top differing digit's buckets, each sorted by the bits below it
 * inside the caches: its histograms (the bounds pass's where it counted
 * that digit, else a pass of their own), a line scatter into scratch, then
 * sk_sort_buckets back into the caller's buffers; two crossings of memory
 * for the bits below the top digit where the passes take two each. Taken
 * (*taken) only where the largest bucket's keys and values fit in
 * t.sort_bucket_bytes; else nothing is written and the passes run. A
 * measuring context takes the regions at their most and then the passes'
 * scratch as well. */
static sk_status run_buckets(sort_job *j, uint64_t diff, cl_mem keys, cl_mem values,
                             bool *taken)
{
    sk_context *ctx = j->ctx;
    const sort_req *r = j->r;
    size_t parts = j->p.parts, es = j->p.key_size + r->value_size;
    unsigned hi = highest_bit(diff) + 1, lo = lowest_bit(diff), m = bucket_bits(j);
    pass_digit top = {hi - m, (1u << m) - 1};
    size_t buckets = (size_t)1 << m, most = j->p.t.sort_bucket_bytes / es;
    cl_mem top_hist = j->top_hist, regions = NULL, tmp_k = NULL, tmp_v = NULL;
    uint64_t largest = 0;
    sk_status st = SK_OK;
    *taken = false;
    if (most > r->n) most = r->n;
    if (most > UINT32_MAX) most = UINT32_MAX; /* the kernel counts a bucket in 32 bits */
    pass_bufs from = {keys, NULL, values, NULL};
    if (top.shift != j->top.shift || top.mask != j->top.mask)
        SK_TRY(launch_pass(j, K_HIST, &from, top, top_hist));
    SK_TRY(largest_bucket(j, top_hist, buckets, &largest));
    if (sk__measuring(ctx)) largest = most;
    if (largest == 0 || largest > most) return SK_OK;
    SK_TRY(sk__scratch_get(ctx, &sort_buckets, 2 * parts * largest * es, &regions));
    if (sk__measuring(ctx)) return SK_OK;
    SK_TRY(sk__scan_counts(ctx, j->p.wide ? SK_UINT64 : SK_UINT32, top_hist, buckets * parts));
    SK_TRY(sk__scratch_get(ctx, &sort_keys, r->n * j->p.key_size, &tmp_k));
    if (r->value_size)
        SK_TRY(sk__scratch_get(ctx, &sort_values, r->n * r->value_size, &tmp_v));
    SK_TRY(open_lines(j));
    pass_bufs b = {keys, tmp_k, values, tmp_v};
    SK_TRY(launch_scatter_lines(j, &b, top, (pass_digit){0, 0}, top_hist));
    pass_bufs back = {tmp_k, keys, tmp_v, values};
    SK_TRY(launch_buckets(j, &back, top_hist, regions, largest, lo, top.shift));
    *taken = true;
out:
    return st;
}

/* Sorts validated buffers. */
sk_status sk__sort_run(sk_context *ctx, const sort_req *r, cl_mem keys, cl_mem values)
{
    if (r->n < 2) return SK_OK;
    sort_job j = {ctx, r, sk__sort_plan_for(ctx, r), 0, NULL, {0, 0}, {0, 0}, NULL,
                  {NULL, NULL}, 0, NULL};
    j.flip = sort_flip(r->order, j.p.key_size);
    pass_plan pp = {keys, values, NULL, NULL, NULL, NULL};
    pass_digit passes[MAX_PASSES];
    uint64_t and_all = 0, or_all = 0;
    sk_status st = SK_OK;
    unsigned width = r->end_bit - r->begin_bit;
    j.first = (pass_digit){r->begin_bit, (1u << (width < j.p.radix_bits ? width
                                                                        : j.p.radix_bits)) - 1};
    SK_TRY(open_program(ctx, &j.p, r));
    /* Histograms: per part and digit value (three steps), or per digit and
     * digit value (one sweep per digit). */
    size_t rows = j.p.onesweep ? div_up(key_types[r->key_type].bits, j.p.radix_bits) : j.p.parts;
    SK_TRY(sk__scratch_get(ctx, &sort_hist,
                           (rows << j.p.radix_bits) * (j.p.wide ? 8 : 4), &j.hist));
    if (!j.p.gpu) SK_TRY(open_top_digit(&j));
    if (j.p.onesweep)
        SK_TRY(count_digits(&j, keys, &and_all, &or_all));
    else
        SK_TRY(key_bounds(&j, keys, &and_all, &or_all));
    uint64_t diff = (and_all ^ or_all) & range_mask(r->begin_bit, r->end_bit);
    if (diff == 0) return SK_OK;  /* every key has the same bits there */
    unsigned count = j.p.onesweep ? list_sweeps(&j, diff, passes) : list_passes(&j, diff, passes);
    if (j.top.mask && buckets_possible(&j, highest_bit(diff) + 1 - lowest_bit(diff))) {
        bool taken = false;
        SK_TRY(run_buckets(&j, diff, keys, values, &taken));
        if (taken) return SK_OK;
    }
    SK_TRY(open_scratch(&j, count, &pp));
    st = run_passes(&j, &pp, passes, count);
out:
    return st;
}

/* ---- segments, a work-group each -------------------------------------------- */

/* The segments' launch of kernel k: keys and values from src (positions
 * less src_off) to dst (less dst_off), then the spans; the sweep and copy
 * take the offsets after them. */
static void seg_args(sk__args *a, const sort_job *j, unsigned k, const pass_bufs *b,
                     const sk__sort_spans *sp)
{
    sk__args_init(a, j->ctx, j->p.prog, k);
    arg_pass_bufs(a, j, b);
    sk__arg_mem(a, sp->spans);
}

/* Every digit of every segment counted in one read (sk_sort_seg_count)
 * into starts: digits x radix counters a segment. */
static sk_status seg_count(sort_job *j, const sk__sort_spans *sp, cl_mem keys, cl_mem starts,
                           unsigned digits)
{
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_SEG_COUNT);
    sk__arg_mem(&a, keys);
    sk__arg_mem(&a, sp->spans);
    sk__arg_mem(&a, starts);
    sk__arg_uint(&a, "digits", digits);
    sk__arg_uint(&a, "shift0", j->r->begin_bit);
    sk__arg_uint(&a, "last_mask", sweep_mask(j, digits - 1));
    sk__arg_word(&a, "flip", j->p.key_size, j->flip);
    return launch(j, &a, sp->count);
}

/* A sweep per digit, digit i from the keys (even i) or the copy (odd i)
 * to the other (own: keys and values in place, tk and tv the copy); an odd
 * digit count ends with the copy put back. */
static sk_status seg_sweeps(sort_job *j, const sk__sort_spans *sp, const pass_bufs *own,
                            cl_mem starts, unsigned digits)
{
    const sort_req *r = j->r;
    size_t ks = j->p.key_size;
    pass_bufs copy = {own->dst_k, own->src_k, own->dst_v, own->src_v};
    sk__args a;
    sk_status st = SK_OK;
    for (unsigned i = 0; i < digits; i++) {
        bool even = i % 2 == 0;
        seg_args(&a, j, K_SEG_SWEEP, even ? own : &copy, sp);
        sk__arg_mem(&a, starts);
        sk__arg_ulong(&a, "in_off", even ? 0 : sp->lo);
        sk__arg_ulong(&a, "out_off", even ? sp->lo : 0);
        sk__arg_uint(&a, "digits", digits);
        sk__arg_uint(&a, "digit", i);
        sk__arg_uint(&a, "shift", r->begin_bit + i * j->p.radix_bits);
        sk__arg_uint(&a, "mask", sweep_mask(j, i));
        sk__arg_word(&a, "flip", ks, j->flip);
        SK_TRY(launch(j, &a, sp->count));
    }
    if (digits % 2) { /* the last digit ended in the copy */
        seg_args(&a, j, K_SEG_COPY, &copy, sp);
        sk__arg_ulong(&a, "in_off", sp->lo);
        sk__arg_ulong(&a, "out_off", 0);
        SK_TRY(launch(j, &a, sp->count));
    }
out:
    return st;
}

sk_status sk__sort_segments(sk_context *ctx, const sort_req *r, const sk__sort_spans *sp,
                            cl_mem keys, cl_mem values)
{
    sort_req planned = *r;
    if (planned.n >= SK_SORT_SEGMENT_MAX) planned.n = SK_SORT_SEGMENT_MAX - 1; /* a sweep's tile */
    sort_job j = {ctx, r, sk__sort_plan_segments(ctx, &planned), 0, NULL, {0, 0}, {0, 0}, NULL,
                  {NULL, NULL}, 0, NULL};
    size_t ks = j.p.key_size, vs = r->value_size, span = (size_t)(sp->hi - sp->lo);
    cl_mem starts = NULL, tk = NULL, tv = NULL;
    sk_status st = SK_OK;
    if (!j.p.segments) return sk__fail(ctx, SK_E_INVALID_ARG, "sort: segments need the GPU shape");
    if (sp->count == 0) return SK_OK;
    j.flip = sort_flip(r->order, ks);
    SK_TRY(open_program(ctx, &j.p, &planned));
    unsigned digits = sweep_digits(&j);
    SK_TRY(sk__scratch_get(ctx, &sort_seg_starts,
                           (sp->count * digits << j.p.radix_bits) * sizeof(cl_uint), &starts));
    SK_TRY(sk__scratch_get(ctx, &sort_keys, span * ks, &tk));
    if (vs) SK_TRY(sk__scratch_get(ctx, &sort_values, span * vs, &tv));
    SK_TRY(seg_count(&j, sp, keys, starts, digits));
    pass_bufs own = {keys, tk, values, tv};
    st = seg_sweeps(&j, sp, &own, starts, digits);
out:
    return st;
}
