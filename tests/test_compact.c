/*
 * test_compact.c - stream compaction (select-if, select-flagged, partition,
 * unique, each also with values carried along) and their host-array forms
 * against the serial references in tests/ref/ref_compact.c (bad arguments:
 * test_compact_errors.c).
 *
 * Every mode x every type x {CPU shape, GPU shape} (the GPU shape also runs
 * on CPU devices), with forced small tiles (GPU 4 x 2 items, CPU 3 chunks and
 * no serial path: a few dozen elements span many tiles) and with the default
 * tiles (in the GPU shape pairwise, below); sizes 0, 1, 2, tile edges +-1, primes and ~2^21; keep patterns
 * none, all, random half, and runs of kept / dropped elements whose lengths
 * straddle tile edges. Outputs are poisoned before every run: select modes
 * must leave everything from *count on untouched, a partition everything
 * from n on; inputs must come back unchanged. The pair forms of every mode
 * carry the original indices as values, so the values out show that each
 * followed its key and that the order is stable.
 *
 * Each sweep is a parameterised test, one case per key type x shape x size
 * class (small tiles; default tiles, up to ~2^21); a failure names the
 * mode, type, size, keep pattern, tiles, shape and seed. Each mode, type,
 * flag or value size, shape and GPU tile setting is a program of its own to
 * compile, so in the GPU shape the size classes (each with its tiles and
 * its sizes) are pairwise with mode and type rather than their product:
 * each type runs one class per mode, (type + rot) % 2, rot alternating from
 * mode to mode, so that every mode meets both classes and every type both
 * classes (keep_pairwise_gpu_classes); the values tests likewise pair mode,
 * key, value size and class (VALUES_TEST). The CPU shape, whose tiles are
 * no part of its programs, runs every class of every case, and every type x
 * mode runs in both shapes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_compact.h"
#include "skt_common.h"

TestSuite(compact, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(compact_host, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 16 /* elements after the written part that must stay poisoned */
#define LARGE_N (((size_t)1 << 21) + 3)

/* LARGE_N, or in the sanitizer pass's lighter matrix (skt_light) 2^17 + 3:
 * past the CPU serial threshold and dozens of default GPU tiles, as the
 * default sizes are; no decision of compaction's plan on the host depends
 * on n above that (64-bit counts start at 2^32 elements). */
static size_t large_n(void) { return skt_light_cap(LARGE_N, ((size_t)1 << 17) + 3); }

/* ---- modes and keep patterns ------------------------------------------------------ */

typedef enum mode { M_SELECT, M_PARTITION, M_FLAGGED, M_UNIQUE, M_PAIRS, M_REVERSED } mode;

static const char *const MODE_NAMES[] = {"select_if",       "partition", "select_flagged",
                                         "unique",          "select_if_pairs",
                                         "partition_reversed"};

typedef enum pattern { P_NONE, P_ALL, P_RANDOM, P_RUNS } pattern;

static const char *const PATTERN_NAMES[] = {"none kept", "all kept", "random half",
                                            "runs"};

/* One run: mode, type, flag or value size (0 when unused), n, pattern. */
typedef struct run_case {
    mode m;
    sk_type t;
    size_t aux_size;          /* flags: 1 or 4; pairs: value size 4 or 8 */
    size_t n;
    pattern p;
    size_t run_unit;          /* P_RUNS: run lengths around multiples of this */
    const char *cfg;
    size_t value_size;        /* values as indices, any mode but M_PAIRS: 0, 4 or 8 */
} run_case;

/* Bytes of each carried value, 0 when the run carries none. */
static size_t values_size(const run_case *c)
{
    return c->m == M_PAIRS ? c->aux_size : c->value_size;
}

/* ---- buffers reused by the runs of one test ------------------------------------------ */

static struct {
    size_t cap;               /* elements */
    cl_mem s, d, f, vs, vd;
    unsigned char *src, *out, *ref, *flags, *keep, *intent, *vals, *vout, *vref;
} B;

static void reserve(size_t n)
{
    n += GUARD;
    if (n <= B.cap) return;
    cl_mem *mems[] = {&B.s, &B.d, &B.f, &B.vs, &B.vd};
    unsigned char **hosts[] = {&B.src, &B.out, &B.ref, &B.flags, &B.keep,
                               &B.intent, &B.vals, &B.vout, &B.vref};
    for (size_t i = 0; i < 5; i++) {
        skt_buf_free(*mems[i]);
        *mems[i] = skt_buf_new(n * 8);
    }
    for (size_t i = 0; i < 9; i++) {
        free(*hosts[i]);
        *hosts[i] = skt_malloc(n * 8);
    }
    B.cap = n;
}

/* intent[i]: whether element i should be kept (0/1), by pattern. */
static void make_intent(pattern p, size_t n, size_t unit, unsigned char *intent)
{
    size_t i = 0;
    unsigned char v = (unsigned char)(skt_rand() & 1);
    while (i < n) {
        size_t len = 1;
        if (p == P_RUNS) {
            static const long deltas[] = {-1, 0, 1, 2};
            long l = (long)(unit * (1 + skt_rand_below(3))) + deltas[skt_rand_below(4)];
            len = skt_rand_below(4) == 0 ? 1 + skt_rand_below(3) : (size_t)(l > 0 ? l : 1);
        }
        for (size_t k = 0; k < len && i < n; k++, i++) {
            intent[i] = p == P_NONE ? 0 : p == P_ALL ? 1 : p == P_RANDOM ? skt_rand() & 1 : v;
        }
        v ^= 1;
    }
}

/* ---- input data --------------------------------------------------------------------- */

static void put_elem(sk_type t, unsigned char *dst, size_t i, uint64_t bits, double f)
{
    size_t es = skt_ref_type_size(t);
    if (t == SK_FLOAT32) {
        float x = (float)f;
        memcpy(dst + i * 4, &x, 4);
    } else if (t == SK_FLOAT64) {
        memcpy(dst + i * 8, &f, 8);
    } else {
        memcpy(dst + i * es, &bits, es); /* little-endian: the low bytes */
    }
}

/* A float that SKT_PRED_HALF (x < 0.5) keeps or rejects, with +-0, -inf,
 * +inf and NaN mixed in. */
static double half_float(int keep)
{
    uint64_t r = skt_rand_below(32);
    if (keep) return r == 0 ? -0.0 : r == 1 ? -INFINITY : r == 2 ? 0.0 : skt_rand_unit() * 2.5 - 2.0;
    return r == 0 ? NAN : r == 1 ? INFINITY : 0.5 + skt_rand_unit() * 3.0;
}

/* Data whose SKT_PRED_HALF result follows intent. */
static void fill_half(sk_type t, const unsigned char *intent, size_t n, unsigned char *dst)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = (skt_rand() & ~(uint64_t)1) | intent[i];
        put_elem(t, dst, i, bits, half_float(intent[i]));
    }
}

/* Data with runs of equal values: intent 0 repeats the previous element's
 * bytes (so a NaN repeated is still kept), intent 1 picks a new value
 * (floats from a small set with +-0, +-inf and NaN). */
static void fill_runs(sk_type t, const unsigned char *intent, size_t n, unsigned char *dst)
{
    static const double floats[] = {0.0, -0.0, 1.0, 2.5, NAN, INFINITY, -INFINITY, -3.25};
    size_t es = skt_ref_type_size(t);
    uint64_t prev = skt_rand();
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && !intent[i]) {
            memcpy(dst + i * es, dst + (i - 1) * es, es);
            continue;
        }
        prev += 1 + skt_rand_below(3);
        put_elem(t, dst, i, prev, floats[skt_rand_below(8)]);
    }
}

static void fill_random(unsigned char *dst, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++) dst[i] = (unsigned char)skt_rand();
}

/* Flags following intent; kept flags are any non-zero value (for 4-byte
 * flags often with a zero low byte). */
static void fill_flags(const unsigned char *intent, size_t n, size_t fs, unsigned char *dst)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v = 0;
        if (intent[i]) v = fs == 1 ? 1 + (uint32_t)skt_rand_below(255)
                                   : (uint32_t)(skt_rand_below(3) == 0 ? 0x100u << skt_rand_below(24)
                                                                       : 1 + skt_rand_below(0xFFFFFFFEu));
        if (fs == 1) dst[i] = (unsigned char)v;
        else memcpy(dst + i * 4, &v, 4);
    }
}

/* The expected outputs of mode m for the elements (or values) in of elem
 * bytes, by B.keep: returns the number kept. */
static size_t reference(mode m, const void *in, size_t n, size_t elem, void *out)
{
    if (m == M_PARTITION) return skt_ref_partition(in, B.keep, n, elem, out);
    if (m == M_REVERSED) return skt_ref_partition_reversed(in, B.keep, n, elem, out);
    return skt_ref_select(in, B.keep, n, elem, out);
}

/* Inputs of c, and the expected outputs: returns the expected count and
 * sets *written to how many outputs the call writes. */
static size_t prepare(const run_case *c, size_t *written)
{
    size_t es = skt_ref_type_size(c->t), n = c->n;
    make_intent(c->p, n, c->run_unit, B.intent);
    if (c->m == M_UNIQUE) fill_runs(c->t, B.intent, n, B.src);
    else if (c->m == M_FLAGGED) fill_random(B.src, n * es);
    else fill_half(c->t, B.intent, n, B.src);

    if (c->m == M_FLAGGED) {
        fill_flags(B.intent, n, c->aux_size, B.flags);
        skt_ref_flag_mask(B.flags, c->aux_size, n, B.keep);
    } else if (c->m == M_UNIQUE) {
        skt_ref_unique_mask(c->t, B.src, n, B.keep);
    } else {
        skt_ref_pred_mask(c->t, SKT_PRED_HALF, B.src, n, B.keep);
    }
    size_t vs = values_size(c);
    if (c->m == M_PAIRS) fill_random(B.vals, n * vs);
    else if (vs) skt_ref_indices(n, vs, B.vals);
    if (vs) reference(c->m, B.vals, n, vs, B.vref);
    size_t want = reference(c->m, B.src, n, es, B.ref);
    *written = c->m == M_PARTITION || c->m == M_REVERSED ? n : want;
    return want;
}

/* ---- one run through the cl_mem forms ---------------------------------------------------- */

/* The pair form of c's mode, with index values. */
static sk_status call_mem_pairs(const run_case *c, const char *pred, size_t *count)
{
    size_t vs = c->value_size, n = c->n;
    switch (c->m) {
    case M_SELECT:
        return sk_select_if_pairs(skt_ctx, c->t, vs, pred, B.s, B.vs, B.d, B.vd, count, n);
    case M_PARTITION:
        return sk_partition_pairs(skt_ctx, c->t, vs, pred, B.s, B.vs, B.d, B.vd, count, n);
    case M_REVERSED:
        return sk_partition_reversed_pairs(skt_ctx, c->t, vs, pred, B.s, B.vs, B.d, B.vd, count,
                                           n);
    case M_FLAGGED:
        return sk_select_flagged_pairs(skt_ctx, c->t, vs, c->aux_size, B.s, B.vs, B.f, B.d, B.vd,
                                       count, n);
    case M_UNIQUE: return sk_unique_pairs(skt_ctx, c->t, vs, B.s, B.vs, B.d, B.vd, count, n);
    case M_PAIRS: break;
    }
    return SK_E_INVALID_ARG;
}

static sk_status call_mem(const run_case *c, size_t *count)
{
    const char *pred = skt_ref_pred_text(c->t, SKT_PRED_HALF);
    if (c->value_size) return call_mem_pairs(c, pred, count);
    switch (c->m) {
    case M_SELECT: return sk_select_if(skt_ctx, c->t, pred, B.s, B.d, count, c->n);
    case M_PARTITION: return sk_partition(skt_ctx, c->t, pred, B.s, B.d, count, c->n);
    case M_REVERSED: return sk_partition_reversed(skt_ctx, c->t, pred, B.s, B.d, count, c->n);
    case M_FLAGGED:
        return sk_select_flagged(skt_ctx, c->t, c->aux_size, B.s, B.f, B.d, count, c->n);
    case M_UNIQUE: return sk_unique(skt_ctx, c->t, B.s, B.d, count, c->n);
    case M_PAIRS:
        return sk_select_if_pairs(skt_ctx, c->t, c->aux_size, pred, B.s, B.vs, B.d, B.vd, count,
                                  c->n);
    }
    return SK_E_INVALID_ARG;
}

static const char *describe(const run_case *c)
{
    return skt_fmt("%s %s%s%s n=%zu %s %s shape %s", MODE_NAMES[c->m], sk_type_name(c->t),
                   c->aux_size ? skt_fmt(" aux=%zu", c->aux_size) : "",
                   c->value_size ? skt_fmt(" values=%zu", c->value_size) : "", c->n,
                   PATTERN_NAMES[c->p], c->cfg,
                   skt_shape_name((sk_shape)skt_get_param(SK_PARAM_SHAPE)));
}

static void expect_poisoned_from(const unsigned char *p, size_t from, size_t to, size_t elem,
                                 const char *what)
{
    size_t bad = skt_find_unpoisoned(p + from * elem, (to - from) * elem);
    cr_assert_eq(bad, (size_t)-1,
                 "%s: wrote outside its output (element %zu, %zu written) [seed %llu]",
                 what, from + bad / elem, from, (unsigned long long)skt_seed());
}

static void upload_inputs(const run_case *c)
{
    size_t es = skt_ref_type_size(c->t), n = c->n;
    skt_buf_upload(B.s, 0, B.src, n * es);
    size_t vs = values_size(c);
    if (c->m == M_FLAGGED) skt_buf_upload(B.f, 0, B.flags, n * c->aux_size);
    if (vs) {
        skt_buf_upload(B.vs, 0, B.vals, n * vs);
        skt_buf_poison(B.vd, (n + GUARD) * vs);
    }
    skt_buf_poison(B.d, (n + GUARD) * es);
}

static void check_outputs(const run_case *c, size_t written, const char *what)
{
    size_t es = skt_ref_type_size(c->t), n = c->n, vs = values_size(c);
    skt_buf_download(B.d, 0, B.out, (n + GUARD) * es);
    skt_expect_bytes(B.out, B.ref, written, es, what);
    expect_poisoned_from(B.out, written, n + GUARD, es, what);
    if (vs) {
        skt_buf_download(B.vd, 0, B.vout, (n + GUARD) * vs);
        skt_expect_bytes(B.vout, B.vref, written, vs, skt_fmt("%s values", what));
        expect_poisoned_from(B.vout, written, n + GUARD, vs, what);
        skt_buf_download(B.vs, 0, B.vout, n * vs);
        cr_assert_eq(memcmp(B.vout, B.vals, n * vs), 0,
                     "%s: the input values were modified [seed %llu]", what,
                     (unsigned long long)skt_seed());
    }
    skt_buf_download(B.s, 0, B.out, n * es);
    cr_assert_eq(memcmp(B.out, B.src, n * es), 0, "%s: the input was modified [seed %llu]",
                 what, (unsigned long long)skt_seed());
}

static void check_case(const run_case *c)
{
    const char *what = describe(c);
    size_t written = 0, got = (size_t)-7;
    reserve(c->n);
    size_t want = prepare(c, &written);
    upload_inputs(c);
    sk_status st = call_mem(c, &got);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    cr_assert_eq(got, want, "%s: count %zu, expected %zu [seed %llu]", what, got, want,
                 (unsigned long long)skt_seed());
    check_outputs(c, written, what);
}

/* ---- sizes and configurations ------------------------------------------------------------- */

static const size_t SMALL_SIZES[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25,
                                     31, 63, 64, 65, 97, 127, 257, 1009};
static const size_t DEFAULT_SIZES[] = {1, 2, 1023, 1024, 1025, 2047, 2048, 2049,
                                       4095, 4096, 4097, 8193, 32767, 32768, 32769,
                                       100003};
static const size_t PAIR_DEFAULT_SIZES[] = {1, 2047, 4097, 32769, 100003};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The size classes of a case: every pattern at every small-tile size;
 * random and runs at the default-tile sizes, then (`large`) one large
 * random run. */
enum size_class { SC_SMALL, SC_DEFAULT, SC_COUNT };

/* One case of mode m (aux: flag or pair value size, vs: index values
 * carried along) in p's type, shape and size class; `sizes` are the
 * default-tile sizes. */
static void sweep(const skt_param *p, mode m, size_t aux, size_t vs, const size_t *sizes,
                  size_t count, int large)
{
    skt_params_need_type(p);
    skt_force_shape(p->shape);
    if (p->size_class == SC_SMALL) {
        skt_tiles_small();
        for (size_t i = 0; i < COUNT_OF(SMALL_SIZES); i++)
            for (int pt = P_NONE; pt <= P_RUNS; pt++)
                check_case(&(run_case){m, p->type, aux, SMALL_SIZES[i], (pattern)pt, 8,
                                       "small tiles", vs});
        return;
    }
    skt_tiles_default();
    for (size_t i = 0; i < count; i++)
        for (int pt = P_RANDOM; pt <= P_RUNS; pt++)
            check_case(&(run_case){m, p->type, aux, sizes[i], (pattern)pt, 2048,
                                   "default tiles", vs});
    if (large)
        check_case(&(run_case){m, p->type, aux, large_n(), P_RANDOM, 0, "default tiles", vs});
}

/* Drops the GPU-shape cases whose size class (their tile setting, a
 * program of its own) is not (type + rot) % 2: within one test each type
 * then runs one GPU class and both classes run, and over the tests (rot
 * differing) every type meets both classes. */
static void keep_pairwise_gpu_classes(skt_params *ps, int rot)
{
    size_t k = 0;
    for (size_t i = 0; i < ps->n; i++)
        if (ps->v[i].shape != SK_SHAPE_GPU || ps->v[i].size_class == (ps->v[i].type + rot) % 2)
            ps->v[k++] = ps->v[i];
    ps->n = k;
}

/* A parameterised test of mode m with aux over `types` (NULL: every type)
 * x both shapes x every size class, the GPU shape's pairwise (rot: see
 * keep_pairwise_gpu_classes). */
#define SWEEP_TEST(name, m, aux, types, ntypes, rot)                                         \
    ParameterizedTestParameters(compact, name)                                               \
    {                                                                                        \
        skt_params ps = {0};                                                                 \
        skt_params_add(&ps, types, ntypes, SC_COUNT, m, (int)(aux));                         \
        keep_pairwise_gpu_classes(&ps, rot);                                                 \
        return skt_params_done(&ps);                                                         \
    }                                                                                        \
    ParameterizedTest(const skt_param *p, compact, name)                                     \
    {                                                                                        \
        sweep(p, (mode)p->mode, (size_t)p->variant, 0, DEFAULT_SIZES, COUNT_OF(DEFAULT_SIZES), \
              1);                                                                            \
    }

SWEEP_TEST(select_if_matches_reference_for_every_type_and_shape, M_SELECT, 0, NULL, 0, 0)
SWEEP_TEST(partition_matches_reference_for_every_type_and_shape, M_PARTITION, 0, NULL, 0, 1)
/* The reversed partition runs the stable one's programs (the kernels'
 * `partition` argument): two types of each width suffice. */
static const sk_type REVERSED_KEYS[] = {SK_INT32, SK_FLOAT32, SK_UINT64, SK_FLOAT64};
SWEEP_TEST(partition_reversed_matches_reference_in_both_shapes, M_REVERSED, 0, REVERSED_KEYS,
           COUNT_OF(REVERSED_KEYS), 0)
SWEEP_TEST(select_flagged_with_uint8_flags_matches_reference_in_both_shapes, M_FLAGGED, 1,
           NULL, 0, 0)
SWEEP_TEST(select_flagged_with_uint32_flags_matches_reference_in_both_shapes, M_FLAGGED, 4,
           NULL, 0, 1)
SWEEP_TEST(unique_matches_reference_for_every_type_and_shape, M_UNIQUE, 0, NULL, 0, 0)
SWEEP_TEST(select_if_pairs_carries_8_byte_values_for_every_key_type, M_PAIRS, 8, NULL, 0, 1)

/* GPU shape: partitions below the tuning table's size take the one pass
 * (look-back, the rejected elements reversed after, or left reversed),
 * larger ones the three steps; reduce-then-scan forced takes the three
 * steps at test sizes. Both partitions, keys and pairs with index values,
 * every small-tile size and pattern. */
Test(compact, gpu_partitions_in_three_steps_match_reference)
{
    static const mode modes[] = {M_PARTITION, M_REVERSED};
    skt_force_shape(SK_SHAPE_GPU);
    skt_force_scan_path(SK_SCAN_PATH_REDUCE_THEN_SCAN);
    skt_tiles_small();
    for (size_t m = 0; m < COUNT_OF(modes); m++)
        for (size_t vs = 0; vs <= 8; vs += 8)
            for (size_t i = 0; i < COUNT_OF(SMALL_SIZES); i++)
                for (int pt = P_NONE; pt <= P_RUNS; pt++)
                    check_case(&(run_case){modes[m], SK_INT32, 0, SMALL_SIZES[i], (pattern)pt,
                                           8, "small tiles, three steps", vs});
}

static const sk_type PAIRS4_KEYS[] = {SK_UINT32, SK_FLOAT32, SK_INT64};
SWEEP_TEST(select_if_pairs_carries_4_byte_values, M_PAIRS, 4, PAIRS4_KEYS,
           COUNT_OF(PAIRS4_KEYS), 0)

/* ---- values carried along in every mode ------------------------------------------------ */

/* Mode m with index values of 4 and 8 bytes in both shapes, under a 4-byte
 * and an 8-byte key type, small and default tiles (flagged: uint8 flags
 * with 4-byte values, uint32 flags with 8-byte ones). Key, value size and
 * GPU size class are each a program of their own, so mode (j) x key (k: 0
 * the 4-byte one) x value size x class is pairwise: key k takes the value
 * size (k + j) % 2 (0: 4 bytes, 1: 8) in both shapes, in the CPU shape with
 * both classes, in the GPU shape with the class (k + j / 2) % 2, so that
 * every mode meets both keys, both value sizes and both classes, and every
 * key, value size and class meet each other. */
#define VALUES_TEST(name, m, j, key4, key8)                                                  \
    ParameterizedTestParameters(compact, name)                                               \
    {                                                                                        \
        static const sk_type keys[] = {key4, key8};                                          \
        skt_params ps = {0};                                                                 \
        skt_params_add(&ps, keys, 2, SC_COUNT, m, 0);                                        \
        size_t kept = 0;                                                                     \
        for (size_t i = 0; i < ps.n; i++) {                                                  \
            int k = ps.v[i].type != (int)(key4);                                             \
            if (ps.v[i].shape != SK_SHAPE_GPU || ps.v[i].size_class == (k + (j) / 2) % 2)    \
                ps.v[kept++] = ps.v[i];                                                      \
        }                                                                                    \
        ps.n = kept;                                                                         \
        return skt_params_done(&ps);                                                         \
    }                                                                                        \
    ParameterizedTest(const skt_param *p, compact, name)                                     \
    {                                                                                        \
        int k = p->type != (int)(key4);                                                      \
        size_t vs = (k + (j)) % 2 ? 8 : 4;                                                   \
        sweep(p, m, m != M_FLAGGED ? 0 : vs == 4 ? 1 : 4, vs, PAIR_DEFAULT_SIZES,            \
              COUNT_OF(PAIR_DEFAULT_SIZES), 0);                                              \
    }

VALUES_TEST(select_if_pairs_carry_index_values_of_4_and_8_bytes_in_both_shapes, M_SELECT, 0,
            SK_INT32, SK_FLOAT64)
VALUES_TEST(select_flagged_pairs_carry_index_values_of_4_and_8_bytes_in_both_shapes, M_FLAGGED,
            1, SK_FLOAT32, SK_UINT64)
VALUES_TEST(partition_pairs_move_every_index_value_with_its_key_in_both_shapes, M_PARTITION, 2,
            SK_FLOAT32, SK_INT64)
VALUES_TEST(unique_pairs_keep_the_index_of_the_first_of_each_run_in_both_shapes, M_UNIQUE, 3,
            SK_FLOAT32, SK_UINT64)
VALUES_TEST(partition_reversed_pairs_move_every_index_value_with_its_key_in_both_shapes,
            M_REVERSED, 1, SK_UINT32, SK_FLOAT64)

/* ---- other predicates ------------------------------------------------------------------ */

/* x % 3 == 0 on integers (negative values included), isnan(x) on floats. */
static void check_other_predicate(sk_type t, size_t n)
{
    skt_pred p = (t == SK_FLOAT32 || t == SK_FLOAT64) ? SKT_PRED_ISNAN : SKT_PRED_MOD3;
    size_t es = skt_ref_type_size(t), got = 0;
    const char *what = skt_fmt("%s %s n=%zu, small tiles, shape %s", skt_ref_pred_text(t, p),
                               sk_type_name(t), n,
                               skt_shape_name((sk_shape)skt_get_param(SK_PARAM_SHAPE)));
    reserve(n);
    for (size_t i = 0; i < n; i++) {
        int64_t v = (int64_t)skt_rand_below(2001) - 1000;
        double f = skt_rand_below(3) == 0 ? NAN : (double)v / 8;
        put_elem(t, B.src, i, (uint64_t)v, f);
    }
    skt_ref_pred_mask(t, p, B.src, n, B.keep);
    size_t want = skt_ref_select(B.src, B.keep, n, es, B.ref);
    skt_buf_upload(B.s, 0, B.src, n * es);
    skt_buf_poison(B.d, (n + GUARD) * es);
    SKT_OK(sk_select_if(skt_ctx, t, skt_ref_pred_text(t, p), B.s, B.d, &got, n));
    cr_assert_eq(got, want, "%s: count %zu, expected %zu [seed %llu]", what, got, want,
                 (unsigned long long)skt_seed());
    skt_buf_download(B.d, 0, B.out, (n + GUARD) * es);
    skt_expect_bytes(B.out, B.ref, want, es, what);
    expect_poisoned_from(B.out, want, n + GUARD, es, what);
}

ParameterizedTestParameters(compact, select_if_evaluates_modulo_and_isnan_predicates_in_both_shapes)
{
    skt_params ps = {0};
    skt_params_add(&ps, NULL, 0, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, compact,
                  select_if_evaluates_modulo_and_isnan_predicates_in_both_shapes)
{
    static const size_t sizes[] = {1, 17, 1000, 40000};
    skt_params_need_type(p);
    skt_force_shape(p->shape);
    skt_tiles_small();
    for (size_t i = 0; i < COUNT_OF(sizes); i++)
        check_other_predicate(p->type, sizes[i]);
}

Test(compact, select_if_builds_a_predicate_once_per_context)
{
    sk_build_stats before = SK_BUILD_STATS_INIT, after = SK_BUILD_STATS_INIT;
    uint32_t src[64], dst[64];
    size_t count = 0;
    for (uint32_t i = 0; i < 64; i++) src[i] = i;
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x > 40u", src, dst, &count, 64));
    SKT_OK(sk_context_build_stats(skt_ctx, &before));
    for (int k = 0; k < 3; k++)
        SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x > 40u", src, dst, &count, 64));
    SKT_OK(sk_context_build_stats(skt_ctx, &after));
    cr_assert_eq(count, 23);
    cr_assert_eq(after.compiled + after.from_disk, before.compiled + before.from_disk,
                 "the same predicate was built again");
}

/* ---- host-array forms --------------------------------------------------------------------- */

/* The host pair form of c's mode (index values). */
static sk_status call_host_pairs(const run_case *c, const char *pred, const void *src,
                                 const void *vsrc, void *dst, void *vdst, size_t *count)
{
    size_t vs = c->value_size, n = c->n;
    switch (c->m) {
    case M_SELECT:
        return sk_select_if_pairs_host(skt_ctx, c->t, vs, pred, src, vsrc, dst, vdst, count, n);
    case M_PARTITION:
        return sk_partition_pairs_host(skt_ctx, c->t, vs, pred, src, vsrc, dst, vdst, count, n);
    case M_REVERSED:
        return sk_partition_reversed_pairs_host(skt_ctx, c->t, vs, pred, src, vsrc, dst, vdst,
                                                count, n);
    case M_FLAGGED:
        return sk_select_flagged_pairs_host(skt_ctx, c->t, vs, c->aux_size, src, vsrc, B.flags,
                                            dst, vdst, count, n);
    case M_UNIQUE:
        return sk_unique_pairs_host(skt_ctx, c->t, vs, src, vsrc, dst, vdst, count, n);
    case M_PAIRS: break;
    }
    return SK_E_INVALID_ARG;
}

static sk_status call_host(const run_case *c, const void *src, const void *vsrc, void *dst,
                           void *vdst, size_t *count)
{
    const char *pred = skt_ref_pred_text(c->t, SKT_PRED_HALF);
    if (c->value_size) return call_host_pairs(c, pred, src, vsrc, dst, vdst, count);
    switch (c->m) {
    case M_SELECT: return sk_select_if_host(skt_ctx, c->t, pred, src, dst, count, c->n);
    case M_PARTITION: return sk_partition_host(skt_ctx, c->t, pred, src, dst, count, c->n);
    case M_REVERSED:
        return sk_partition_reversed_host(skt_ctx, c->t, pred, src, dst, count, c->n);
    case M_FLAGGED:
        return sk_select_flagged_host(skt_ctx, c->t, c->aux_size, src, B.flags, dst, count, c->n);
    case M_UNIQUE: return sk_unique_host(skt_ctx, c->t, src, dst, count, c->n);
    case M_PAIRS:
        return sk_select_if_pairs_host(skt_ctx, c->t, c->aux_size, pred, src, vsrc, dst, vdst,
                                       count, c->n);
    }
    return SK_E_INVALID_ARG;
}

/* Poisons n + GUARD elements of out, or (in place) copies n from in first. */
static void ready_output(unsigned char *out, const unsigned char *in, size_t n, size_t elem,
                         int in_place)
{
    if (in_place) memcpy(out, in, n * elem);
    skt_poison(out + (in_place ? n * elem : 0), (in_place ? GUARD : n + GUARD) * elem);
}

/* The host form writes exactly the produced part of dst (and values_out);
 * in place, keys_out is keys_in and values_out is values_in. */
static void check_host_case(const run_case *c, int in_place)
{
    size_t es = skt_ref_type_size(c->t), vs = values_size(c), written = 0, got = (size_t)-7;
    const char *what = skt_fmt("host %s%s", describe(c), in_place ? " in place" : "");
    reserve(c->n);
    size_t want = prepare(c, &written);
    ready_output(B.out, B.src, c->n, es, in_place);
    ready_output(B.vout, B.vals, c->n, vs ? vs : 8, in_place && vs);
    SKT_OK(call_host(c, in_place ? B.out : B.src, in_place ? B.vout : B.vals, B.out, B.vout,
                     &got));
    cr_assert_eq(got, want, "%s: count %zu, expected %zu [seed %llu]", what, got, want,
                 (unsigned long long)skt_seed());
    skt_expect_bytes(B.out, B.ref, written, es, what);
    if (!in_place) expect_poisoned_from(B.out, written, c->n + GUARD, es, what);
    if (vs) {
        skt_expect_bytes(B.vout, B.vref, written, vs, skt_fmt("%s values", what));
        if (!in_place) expect_poisoned_from(B.vout, written, c->n + GUARD, vs, what);
    }
}

/* The modes of the host forms: keys only, pairs, and index values. */
static const struct host_mode {
    mode m;
    size_t aux, vs;
} HOST_MODES[] = {{M_SELECT, 0, 0},    {M_PARTITION, 0, 0}, {M_FLAGGED, 1, 0}, {M_FLAGGED, 4, 0},
                  {M_UNIQUE, 0, 0},    {M_PAIRS, 4, 0},     {M_PAIRS, 8, 0},   {M_SELECT, 0, 4},
                  {M_PARTITION, 0, 8}, {M_FLAGGED, 1, 8},   {M_FLAGGED, 4, 4}, {M_UNIQUE, 0, 4},
                  {M_PARTITION, 0, 4}, {M_UNIQUE, 0, 8},   {M_REVERSED, 0, 0}, {M_REVERSED, 0, 8}};

/* One case per host mode x shape, int32 keys. */
ParameterizedTestParameters(compact_host,
                            host_forms_match_reference_and_write_only_the_produced_part)
{
    static const sk_type int32[] = {SK_INT32};
    skt_params ps = {0};
    for (int k = 0; k < (int)COUNT_OF(HOST_MODES); k++)
        skt_params_add(&ps, int32, 1, 1, k, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, compact_host,
                  host_forms_match_reference_and_write_only_the_produced_part)
{
    static const size_t sizes[] = {0, 1, 9, 100, 5000};
    const struct host_mode *h = &HOST_MODES[p->mode];
    skt_force_shape(p->shape);
    skt_tiles_small();
    for (size_t i = 0; i < COUNT_OF(sizes); i++)
        check_host_case(&(run_case){h->m, p->type, h->aux, sizes[i], P_RANDOM, 0, "small tiles",
                                    h->vs}, 0);
}

Test(compact_host, host_forms_accept_dst_equal_to_src)
{
    static const mode modes[] = {M_SELECT, M_PARTITION, M_UNIQUE, M_REVERSED};
    for (size_t k = 0; k < COUNT_OF(modes); k++) {
        check_host_case(&(run_case){modes[k], SK_FLOAT32, 0, 777, P_RUNS, 8, "default", 0}, 1);
        check_host_case(&(run_case){modes[k], SK_FLOAT32, 0, 777, P_RUNS, 8, "default", 8}, 1);
    }
    check_host_case(&(run_case){M_FLAGGED, SK_INT64, 4, 777, P_RUNS, 8, "default", 4}, 1);
}

Test(compact_host, zero_elements_write_count_zero_and_accept_null_arrays)
{
    size_t count = 99;
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x > 1u", NULL, NULL, &count, 0));
    cr_assert_eq(count, 0);
    count = 99;
    SKT_OK(sk_unique_host(skt_ctx, SK_INT64, NULL, NULL, &count, 0));
    cr_assert_eq(count, 0);
    count = 99;
    SKT_OK(sk_select_flagged_host(skt_ctx, SK_FLOAT32, 1, NULL, NULL, NULL, &count, 0));
    cr_assert_eq(count, 0);
}
