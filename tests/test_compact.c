/*
 * test_compact.c - stream compaction (select-if, select-if pairs,
 * select-flagged, partition, unique) and their host-array forms against the
 * serial references in tests/ref/ref_compact.c.
 *
 * Every mode x every type x {CPU shape, GPU shape} (the GPU shape also runs
 * on CPU devices), with forced small tiles (GPU 4 x 2 items, CPU 3 chunks and
 * no serial path: a few dozen elements span many tiles) and with the default
 * tiles; sizes 0, 1, 2, tile edges +-1, primes and ~2^21; keep patterns
 * none, all, random half, and runs of kept / dropped elements whose lengths
 * straddle tile edges. Outputs are poisoned before every run: select modes
 * must leave everything from *count on untouched, a partition everything
 * from n on; inputs must come back unchanged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_compact.h"
#include "skt_common.h"

TestSuite(compact, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(compact_host, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);
TestSuite(compact_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 16 /* elements after the written part that must stay poisoned */
#define LARGE_N (((size_t)1 << 21) + 3)

static const char *const TYPE_NAMES[SK_TYPE_COUNT] = {"int32",   "uint32",  "int64",
                                                       "uint64",  "float32", "float64"};

/* ---- modes and keep patterns ------------------------------------------------------ */

typedef enum mode { M_SELECT, M_PARTITION, M_FLAGGED, M_UNIQUE, M_PAIRS } mode;

static const char *const MODE_NAMES[] = {"select_if", "partition", "select_flagged",
                                         "unique", "select_if_pairs"};

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
} run_case;

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
    if (c->m == M_PAIRS) {
        fill_random(B.vals, n * c->aux_size);
        skt_ref_select(B.vals, B.keep, n, c->aux_size, B.vref);
    }
    size_t want = c->m == M_PARTITION ? skt_ref_partition(B.src, B.keep, n, es, B.ref)
                                      : skt_ref_select(B.src, B.keep, n, es, B.ref);
    *written = c->m == M_PARTITION ? n : want;
    return want;
}

/* ---- one run through the cl_mem forms ---------------------------------------------------- */

static sk_status call_mem(const run_case *c, size_t *count)
{
    const char *pred = skt_ref_pred_text(c->t, SKT_PRED_HALF);
    switch (c->m) {
    case M_SELECT: return sk_select_if(skt_ctx, c->t, pred, B.s, B.d, c->n, count);
    case M_PARTITION: return sk_partition(skt_ctx, c->t, pred, B.s, B.d, c->n, count);
    case M_FLAGGED:
        return sk_select_flagged(skt_ctx, c->t, B.s, B.f, c->aux_size, B.d, c->n, count);
    case M_UNIQUE: return sk_unique(skt_ctx, c->t, B.s, B.d, c->n, count);
    case M_PAIRS:
        return sk_select_if_pairs(skt_ctx, c->t, pred, B.s, B.vs, c->aux_size, B.d, B.vd,
                                  c->n, count);
    }
    return SK_E_INVALID_ARG;
}

static const char *describe(const run_case *c)
{
    return skt_fmt("%s %s%s n=%zu %s %s shape %s", MODE_NAMES[c->m], TYPE_NAMES[c->t],
                   c->aux_size ? skt_fmt(" aux=%zu", c->aux_size) : "", c->n,
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
    if (c->m == M_FLAGGED) skt_buf_upload(B.f, 0, B.flags, n * c->aux_size);
    if (c->m == M_PAIRS) {
        skt_buf_upload(B.vs, 0, B.vals, n * c->aux_size);
        skt_buf_poison(B.vd, (n + GUARD) * c->aux_size);
    }
    skt_buf_poison(B.d, (n + GUARD) * es);
}

static void check_outputs(const run_case *c, size_t written, const char *what)
{
    size_t es = skt_ref_type_size(c->t), n = c->n;
    skt_buf_download(B.d, 0, B.out, (n + GUARD) * es);
    skt_expect_bytes(B.out, B.ref, written, es, what);
    expect_poisoned_from(B.out, written, n + GUARD, es, what);
    if (c->m == M_PAIRS) {
        skt_buf_download(B.vd, 0, B.vout, (n + GUARD) * c->aux_size);
        skt_expect_bytes(B.vout, B.vref, written, c->aux_size, skt_fmt("%s values", what));
        expect_poisoned_from(B.vout, written, n + GUARD, c->aux_size, what);
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

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Every pattern at every small-tile size, then random and runs at the
 * default tiles, then one large random run. */
static void sweep(mode m, sk_type t, size_t aux, sk_shape shape)
{
    if (t == SK_FLOAT64 && !skt_has_fp64()) return;
    skt_force_shape(shape);
    skt_tiles_small();
    for (size_t i = 0; i < COUNT_OF(SMALL_SIZES); i++)
        for (int p = P_NONE; p <= P_RUNS; p++)
            check_case(&(run_case){m, t, aux, SMALL_SIZES[i], (pattern)p, 8, "small tiles"});
    skt_tiles_default();
    for (size_t i = 0; i < COUNT_OF(DEFAULT_SIZES); i++)
        for (int p = P_RANDOM; p <= P_RUNS; p++)
            check_case(&(run_case){m, t, aux, DEFAULT_SIZES[i], (pattern)p, 2048,
                                   "default tiles"});
    check_case(&(run_case){m, t, aux, LARGE_N, P_RANDOM, 0, "default tiles"});
}

static void sweep_types(mode m, size_t aux, sk_shape shape)
{
    for (int t = 0; t < SK_TYPE_COUNT; t++) sweep(m, (sk_type)t, aux, shape);
}

Test(compact, select_if_matches_reference_for_every_type_in_cpu_shape)
{
    sweep_types(M_SELECT, 0, SK_SHAPE_CPU);
}

Test(compact, select_if_matches_reference_for_every_type_in_gpu_shape)
{
    sweep_types(M_SELECT, 0, SK_SHAPE_GPU);
}

Test(compact, partition_matches_reference_for_every_type_in_cpu_shape)
{
    sweep_types(M_PARTITION, 0, SK_SHAPE_CPU);
}

Test(compact, partition_matches_reference_for_every_type_in_gpu_shape)
{
    sweep_types(M_PARTITION, 0, SK_SHAPE_GPU);
}

Test(compact, select_flagged_with_uint8_flags_matches_reference_in_both_shapes)
{
    sweep_types(M_FLAGGED, 1, SK_SHAPE_CPU);
    sweep_types(M_FLAGGED, 1, SK_SHAPE_GPU);
}

Test(compact, select_flagged_with_uint32_flags_matches_reference_in_both_shapes)
{
    sweep_types(M_FLAGGED, 4, SK_SHAPE_CPU);
    sweep_types(M_FLAGGED, 4, SK_SHAPE_GPU);
}

Test(compact, unique_matches_reference_for_every_type_in_cpu_shape)
{
    sweep_types(M_UNIQUE, 0, SK_SHAPE_CPU);
}

Test(compact, unique_matches_reference_for_every_type_in_gpu_shape)
{
    sweep_types(M_UNIQUE, 0, SK_SHAPE_GPU);
}

Test(compact, select_if_pairs_carries_8_byte_values_for_every_key_type)
{
    sweep_types(M_PAIRS, 8, SK_SHAPE_CPU);
    sweep_types(M_PAIRS, 8, SK_SHAPE_GPU);
}

Test(compact, select_if_pairs_carries_4_byte_values)
{
    static const sk_type keys[] = {SK_UINT32, SK_FLOAT32, SK_INT64};
    for (size_t i = 0; i < COUNT_OF(keys); i++) {
        sweep(M_PAIRS, keys[i], 4, SK_SHAPE_CPU);
        sweep(M_PAIRS, keys[i], 4, SK_SHAPE_GPU);
    }
}

/* ---- other predicates ------------------------------------------------------------------ */

/* x % 3 == 0 on integers (negative values included), isnan(x) on floats. */
static void check_other_predicate(sk_type t, size_t n)
{
    skt_pred p = (t == SK_FLOAT32 || t == SK_FLOAT64) ? SKT_PRED_ISNAN : SKT_PRED_MOD3;
    size_t es = skt_ref_type_size(t), got = 0;
    const char *what = skt_fmt("%s %s n=%zu", skt_ref_pred_text(t, p), TYPE_NAMES[t], n);
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
    SKT_OK(sk_select_if(skt_ctx, t, skt_ref_pred_text(t, p), B.s, B.d, n, &got));
    cr_assert_eq(got, want, "%s: count %zu, expected %zu", what, got, want);
    skt_buf_download(B.d, 0, B.out, (n + GUARD) * es);
    skt_expect_bytes(B.out, B.ref, want, es, what);
    expect_poisoned_from(B.out, want, n + GUARD, es, what);
}

Test(compact, select_if_evaluates_modulo_and_isnan_predicates_in_both_shapes)
{
    static const size_t sizes[] = {1, 17, 1000, 40000};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        skt_tiles_small();
        for (int t = 0; t < SK_TYPE_COUNT; t++) {
            if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
            for (size_t i = 0; i < COUNT_OF(sizes); i++)
                check_other_predicate((sk_type)t, sizes[i]);
        }
    }
}

Test(compact, select_if_builds_a_predicate_once_per_context)
{
    sk_build_stats before, after;
    uint32_t src[64], dst[64];
    size_t count = 0;
    for (uint32_t i = 0; i < 64; i++) src[i] = i;
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x > 40u", src, dst, 64, &count));
    SKT_OK(sk_context_build_stats(skt_ctx, &before));
    for (int k = 0; k < 3; k++)
        SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x > 40u", src, dst, 64, &count));
    SKT_OK(sk_context_build_stats(skt_ctx, &after));
    cr_assert_eq(count, 23);
    cr_assert_eq(after.compiled + after.from_disk, before.compiled + before.from_disk,
                 "the same predicate was built again");
}

/* ---- host-array forms --------------------------------------------------------------------- */

static sk_status call_host(const run_case *c, const void *src, void *dst, void *vdst,
                           size_t *count)
{
    const char *pred = skt_ref_pred_text(c->t, SKT_PRED_HALF);
    switch (c->m) {
    case M_SELECT: return sk_select_if_host(skt_ctx, c->t, pred, src, dst, c->n, count);
    case M_PARTITION: return sk_partition_host(skt_ctx, c->t, pred, src, dst, c->n, count);
    case M_FLAGGED:
        return sk_select_flagged_host(skt_ctx, c->t, src, B.flags, c->aux_size, dst, c->n,
                                      count);
    case M_UNIQUE: return sk_unique_host(skt_ctx, c->t, src, dst, c->n, count);
    case M_PAIRS:
        return sk_select_if_pairs_host(skt_ctx, c->t, pred, src, B.vals, c->aux_size, dst,
                                       vdst, c->n, count);
    }
    return SK_E_INVALID_ARG;
}

/* The host form writes exactly the produced part of dst (and values_out). */
static void check_host_case(const run_case *c, int in_place)
{
    size_t es = skt_ref_type_size(c->t), written = 0, got = (size_t)-7;
    const char *what = skt_fmt("host %s%s", describe(c), in_place ? " in place" : "");
    reserve(c->n);
    size_t want = prepare(c, &written);
    unsigned char *dst = B.out;
    if (in_place) {
        memcpy(B.out, B.src, c->n * es);
        skt_poison(B.out + c->n * es, GUARD * es);
    } else {
        skt_poison(B.out, (c->n + GUARD) * es);
    }
    skt_poison(B.vout, (c->n + GUARD) * 8);
    SKT_OK(call_host(c, in_place ? B.out : B.src, dst, B.vout, &got));
    cr_assert_eq(got, want, "%s: count %zu, expected %zu", what, got, want);
    skt_expect_bytes(dst, B.ref, written, es, what);
    if (!in_place) expect_poisoned_from(dst, written, c->n + GUARD, es, what);
    if (c->m == M_PAIRS) {
        skt_expect_bytes(B.vout, B.vref, written, c->aux_size, what);
        expect_poisoned_from(B.vout, written, c->n + GUARD, c->aux_size, what);
    }
}

Test(compact_host, host_forms_match_reference_and_write_only_the_produced_part)
{
    static const size_t sizes[] = {0, 1, 9, 100, 5000};
    static const struct { mode m; size_t aux; } modes[] = {
        {M_SELECT, 0}, {M_PARTITION, 0}, {M_FLAGGED, 1}, {M_FLAGGED, 4}, {M_UNIQUE, 0},
        {M_PAIRS, 4}, {M_PAIRS, 8}};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        skt_tiles_small();
        for (size_t k = 0; k < COUNT_OF(modes); k++)
            for (size_t i = 0; i < COUNT_OF(sizes); i++)
                check_host_case(&(run_case){modes[k].m, SK_INT32, modes[k].aux, sizes[i],
                                            P_RANDOM, 0, "small tiles"}, 0);
    }
}

Test(compact_host, host_forms_accept_dst_equal_to_src)
{
    static const mode modes[] = {M_SELECT, M_PARTITION, M_UNIQUE};
    for (size_t k = 0; k < COUNT_OF(modes); k++)
        check_host_case(&(run_case){modes[k], SK_FLOAT32, 0, 777, P_RUNS, 8, "default"}, 1);
}

Test(compact_host, zero_elements_write_count_zero_and_accept_null_arrays)
{
    size_t count = 99;
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x > 1u", NULL, NULL, 0, &count));
    cr_assert_eq(count, 0);
    count = 99;
    SKT_OK(sk_unique_host(skt_ctx, SK_INT64, NULL, NULL, 0, &count));
    cr_assert_eq(count, 0);
    count = 99;
    SKT_OK(sk_select_flagged_host(skt_ctx, SK_FLOAT32, NULL, NULL, 1, NULL, 0, &count));
    cr_assert_eq(count, 0);
}

/* ---- errors ---------------------------------------------------------------------------------- */

Test(compact_errors, malformed_predicate_gives_build_error_with_log_and_context_stays_usable)
{
    uint32_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
    size_t count = 12345;
    skt_poison(dst, sizeof dst);
    SKT_EXPECT_STATUS(sk_select_if_host(skt_ctx, SK_UINT32, "x + undefined_name(", src, dst,
                                        8, &count),
                      SK_E_BUILD);
    cr_assert_gt(strlen(sk_context_build_log(skt_ctx)), 0, "the build log is empty");
    cr_assert_eq(count, 12345, "count was written on failure");
    cr_assert_eq(skt_find_unpoisoned(dst, sizeof dst), (size_t)-1, "dst was written on failure");
    SKT_EXPECT_STATUS(sk_partition_host(skt_ctx, SK_FLOAT32, "x % 3 == 0", src, dst, 8, &count),
                      SK_E_BUILD); /* % is not defined on float */
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "(x & 1u) == 0", src, dst, 8, &count));
    cr_assert_eq(count, 4);
    cr_assert(dst[0] == 2 && dst[1] == 4 && dst[2] == 6 && dst[3] == 8);
}

/* Asserts `call` gives SK_E_INVALID_ARG and leaves count and B.d poisoned. */
#define EXPECT_BAD_ARGS(call)                                                       \
    do {                                                                            \
        size_t count = 777;                                                         \
        skt_buf_poison(B.d, 64 * 8);                                                \
        SKT_EXPECT_STATUS(call, SK_E_INVALID_ARG);                                  \
        cr_assert_eq(count, 777, "%s wrote count", #call);                          \
        skt_buf_download(B.d, 0, B.out, 64 * 8);                                    \
        cr_assert_eq(skt_find_unpoisoned(B.out, 64 * 8), (size_t)-1,                \
                     "%s wrote dst", #call);                                        \
    } while (0)

Test(compact_errors, bad_arguments_give_invalid_arg_and_leave_outputs_untouched)
{
    const size_t n = 64;
    reserve(n);
    cl_mem small = skt_buf_new(4 * (n - 1));
    fill_random(B.src, n * 8);
    skt_buf_upload(B.s, 0, B.src, n * 8);
    skt_buf_upload(B.f, 0, B.src, n * 8);
    size_t *no_count = NULL;
    EXPECT_BAD_ARGS(sk_select_if(NULL, SK_UINT32, "1", B.s, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.s, B.d, n, no_count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, (sk_type)42, "1", B.s, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, NULL, B.s, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "", B.s, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", NULL, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.s, NULL, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.d, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.s, small, n, &count));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", small, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_partition(skt_ctx, SK_UINT32, "1", B.d, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_unique(skt_ctx, SK_UINT32, B.d, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_unique(skt_ctx, SK_UINT32, B.s, B.d, n, no_count));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, B.s, B.f, 2, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, B.s, B.d, 1, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, B.s, NULL, 1, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, B.s, small, 4, B.d, n, &count));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, "1", B.s, B.vs, 3, B.d, B.vd, n,
                                       &count));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, "1", B.s, B.vs, 4, B.d, NULL, n,
                                       &count));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, "1", B.s, B.vs, 4, B.d, B.d, n,
                                       &count));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, "1", B.s, B.vs, 8, B.d, B.vs, n,
                                       &count));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, "1", B.s, small, 4, B.d, B.vd, n,
                                       &count));
    EXPECT_BAD_ARGS(sk_select_if_host(skt_ctx, SK_UINT32, "1", NULL, B.out, n, &count));
    EXPECT_BAD_ARGS(sk_select_if_host(skt_ctx, SK_UINT32, "1", B.src, NULL, n, &count));
    EXPECT_BAD_ARGS(sk_select_flagged_host(skt_ctx, SK_UINT32, B.src, NULL, 1, B.vout, n,
                                           &count));
    EXPECT_BAD_ARGS(sk_select_if_pairs_host(skt_ctx, SK_UINT32, "1", B.src, B.vals, 4,
                                            B.vout, NULL, n, &count));
    skt_buf_free(small);
}

Test(compact_errors, size_overflow_gives_invalid_arg)
{
    size_t count = 5;
    reserve(8);
    SKT_EXPECT_STATUS(sk_select_if(skt_ctx, SK_UINT64, "1", B.s, B.d, SIZE_MAX / 4, &count),
                      SK_E_INVALID_ARG);
    cr_assert_eq(count, 5);
}

Test(compact_errors, a_fully_selected_and_an_empty_result_report_n_and_zero)
{
    uint64_t src[5] = {1, 3, 5, 7, 9}, dst[5];
    size_t count = 0;
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT64, "(x & 1ul) != 0", src, dst, 5, &count));
    cr_assert_eq(count, 5);
    SKT_OK(sk_partition_host(skt_ctx, SK_UINT64, "x > 100ul", src, dst, 5, &count));
    cr_assert_eq(count, 0);
    cr_assert_eq(memcmp(dst, src, sizeof src), 0, "a partition selecting nothing keeps order");
}
