/*
 * test_determinism.c - the same input gives bit-identical output run to run
 * on one device and shape, floats included (the README's promise: the
 * association order is fixed).
 *
 * Covered: float32 and float64 scan (add, inclusive and exclusive) and
 * reduce on random non-integer data, where the rounding depends on the
 * association order; segmented scan (by flags and by offsets) and segment
 * totals of floats; polynomial evaluation at one point, at many points and
 * every Horner prefix; radix sort of float keys with values (duplicates,
 * +-0 and NaNs, so stability shows); compaction (select-if, flagged,
 * partition and unique, with values).
 *
 * Each check runs RUNS times on one input, each time into a freshly
 * poisoned output, the last time on a fresh context, and compares every
 * output with the first byte for byte (memcmp). Every run must have written
 * every element it promises (no poison left). Four configurations: CPU and
 * GPU shape (forced), each with the default tiles at a size spanning many
 * tiles and chunks, and with small tiles (GPU tile of 8, 3 CPU chunks) so
 * the tile totals are scanned through several recursion levels.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

TestSuite(determinism, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

#define RUNS 4 /* the last one on a fresh context */

/* ---- configurations --------------------------------------------------------------- */

typedef struct det_cfg {
    sk_shape shape;
    int small_tiles;
    size_t n; /* default tiles: many GPU tiles, past the CPU serial threshold */
} det_cfg;

static const det_cfg CFGS[] = {
    {SK_SHAPE_CPU, 0, 150001},
    {SK_SHAPE_GPU, 0, 150001},
    {SK_SHAPE_CPU, 1, 30011},
    {SK_SHAPE_GPU, 1, 30011},
};
#define NCFGS (sizeof CFGS / sizeof CFGS[0])

static void apply_cfg(const det_cfg *cfg)
{
    skt_force_shape(cfg->shape);
    if (cfg->small_tiles)
        skt_tiles_small();
    else
        skt_tiles_default();
}

static const char *cfg_name(const det_cfg *cfg)
{
    return skt_fmt("%s shape, %s tiles, n=%zu", skt_shape_name(cfg->shape),
                   cfg->small_tiles ? "small" : "default", cfg->n);
}

/* The float types the device runs. */
static size_t float_types(sk_type out[2])
{
    size_t k = 0;
    out[k++] = SK_FLOAT32;
    if (skt_has_fp64())
        out[k++] = SK_FLOAT64;
    else
        cr_log_info("no fp64: float64 left out");
    return k;
}

/* The statement after it for every configuration CFGS[c] and every float
 * type t the device has. */
#define FOR_FLOAT_CASES(c, t)                                                    \
    sk_type float_types_[2], t;                                                  \
    size_t float_count_ = float_types(float_types_);                             \
    for (size_t c = 0; c < NCFGS; c++)                                           \
        for (size_t k_ = 0; k_ < float_count_ && (t = float_types_[k_], 1); k_++)

/* ---- the harness ---------------------------------------------------------------- */

/* One run: reads its inputs from `job`, writes its result into `out`
 * (out_bytes, poisoned by the caller) and checks what it wrote. */
typedef void (*run_fn)(const void *job, unsigned char *out, const char *what);

static void run_on_fresh_context(const det_cfg *cfg, run_fn run, const void *job,
                                 unsigned char *out, const char *what)
{
    sk_context *mine = skt_ctx, *fresh = NULL;
    SKT_OK(sk_context_create(&fresh, NULL, NULL, 0));
    skt_ctx = fresh;
    apply_cfg(cfg);
    run(job, out, what);
    sk_context_free(fresh);
    skt_ctx = mine;
}

static void expect_same_bytes(const unsigned char *got, const unsigned char *first,
                              size_t bytes, const char *what, int run)
{
    if (memcmp(got, first, bytes) == 0)
        return;
    size_t i = 0;
    while (got[i] == first[i])
        i++;
    cr_assert_fail("%s: run %d differs from run 0 at byte %zu of %zu "
                   "(0x%02x, run 0 0x%02x) [seed %llu]",
                   what, run, i, bytes, got[i], first[i], (unsigned long long)skt_seed());
}

/* Runs `run` RUNS times under cfg and expects bit-identical outputs. */
static void expect_identical_runs(const det_cfg *cfg, run_fn run, const void *job,
                                  size_t out_bytes, const char *what)
{
    unsigned char *first = skt_malloc(out_bytes), *out = skt_malloc(out_bytes);
    apply_cfg(cfg);
    for (int r = 0; r < RUNS; r++) {
        unsigned char *dst = r == 0 ? first : out;
        skt_poison(dst, out_bytes);
        if (r == RUNS - 1)
            run_on_fresh_context(cfg, run, job, dst, what);
        else
            run(job, dst, what);
        if (r > 0)
            expect_same_bytes(out, first, out_bytes, what, r);
    }
    free(first);
    free(out);
}

/* Every one of the n elements of `elem` bytes at p was written. */
static void expect_written(const void *p, size_t n, size_t elem, const char *what)
{
    unsigned char poison[8];
    skt_poison(poison, sizeof poison);
    for (size_t i = 0; i < n; i++)
        cr_assert(memcmp((const unsigned char *)p + i * elem, poison, elem) != 0,
                  "%s: element %zu of %zu was not written [seed %llu]", what, i, n,
                  (unsigned long long)skt_seed());
}

/* Reads n elements of es bytes of `result` into out, frees it and the other
 * buffers (up to a NULL), and expects the n elements written. */
static void collect(unsigned char *out, size_t n, size_t es, const char *what, cl_mem result,
                    ...)
{
    va_list more;
    skt_buf_download(result, 0, out, n * es);
    skt_buf_free(result);
    va_start(more, result);
    for (cl_mem m = va_arg(more, cl_mem); m; m = va_arg(more, cl_mem)) skt_buf_free(m);
    va_end(more);
    expect_written(out, n, es, what);
}

/* A device buffer holding `bytes` of `src`. */
static cl_mem buf_with(const void *src, size_t bytes)
{
    cl_mem m = skt_buf_new(bytes);
    skt_buf_upload(m, 0, src, bytes);
    return m;
}

/* A device buffer of `bytes`, poisoned. */
static cl_mem buf_poisoned(size_t bytes)
{
    cl_mem m = skt_buf_new(bytes);
    skt_buf_poison(m, bytes);
    return m;
}

/* ---- input data ------------------------------------------------------------------ */

/* Random non-integer floats in [-1, 1]: sums round. */
static void *noisy(sk_type t, size_t n)
{
    void *p = skt_malloc(n * sk_type_size(t));
    skt_fill_float_noisy(t, p, n);
    return p;
}

/* n uint8 head flags, a head every 1..2*mean elements on average. */
static unsigned char *random_heads(size_t n, uint64_t mean)
{
    unsigned char *f = skt_malloc(n);
    for (size_t i = 0; i < n; i++)
        f[i] = skt_rand_below(mean) == 0;
    return f;
}

/* ---- scan and reduce ----------------------------------------------------------- */

typedef struct scan_job {
    sk_type t;
    int exclusive;
    size_t n;
    const void *src;
} scan_job;

static void run_scan(const void *arg, unsigned char *out, const char *what)
{
    const scan_job *j = arg;
    size_t es = sk_type_size(j->t), bytes = j->n * es;
    cl_mem s = buf_with(j->src, bytes), d = buf_poisoned(bytes);
    if (j->exclusive)
        SKT_OK(sk_scan_exclusive(skt_ctx, j->t, SK_OP_ADD, s, d, j->n));
    else
        SKT_OK(sk_scan_inclusive(skt_ctx, j->t, SK_OP_ADD, s, d, j->n));
    collect(out, j->n, es, what, d, s, NULL);
}

static void run_reduce(const void *arg, unsigned char *out, const char *what)
{
    const scan_job *j = arg;
    size_t es = sk_type_size(j->t);
    cl_mem s = buf_with(j->src, j->n * es);
    SKT_OK(sk_reduce(skt_ctx, j->t, SK_OP_ADD, s, out, j->n));
    skt_buf_free(s);
    expect_written(out, 1, es, what);
}

Test(determinism, float_scans_and_reductions_should_be_bit_identical_run_to_run)
{
    FOR_FLOAT_CASES(c, t) {
        size_t n = CFGS[c].n, es = sk_type_size(t);
        void *src = noisy(t, n);
        scan_job j = {.t = t, .n = n, .src = src};
        for (j.exclusive = 0; j.exclusive < 2; j.exclusive++)
            expect_identical_runs(&CFGS[c], run_scan, &j, n * es,
                                  skt_fmt("%s %s add scan, %s", sk_type_name(j.t),
                                          j.exclusive ? "exclusive" : "inclusive",
                                          cfg_name(&CFGS[c])));
        expect_identical_runs(&CFGS[c], run_reduce, &j, es,
                              skt_fmt("%s add reduce, %s", sk_type_name(j.t),
                                      cfg_name(&CFGS[c])));
        free(src);
    }
}

/* ---- segmented scan ------------------------------------------------------------ */

typedef enum seg_mode {
    SEG_INCLUSIVE_BY_FLAGS,
    SEG_EXCLUSIVE_BY_OFFSETS,
    SEG_TOTALS
} seg_mode;

typedef struct seg_job {
    sk_type t;
    seg_mode mode;
    size_t n;
    const void *src;
    const unsigned char *flags; /* n uint8 head flags */
    const uint64_t *offsets;    /* the same heads as start offsets */
    size_t count;               /* number of segments */
} seg_job;

static void run_segscan(const void *arg, unsigned char *out, const char *what)
{
    const seg_job *j = arg;
    size_t es = sk_type_size(j->t), bytes = j->n * es;
    cl_mem s = buf_with(j->src, bytes), d = buf_poisoned(bytes), desc;
    sk_segments seg = {0};
    if (j->mode == SEG_EXCLUSIVE_BY_OFFSETS) {
        desc = buf_with(j->offsets, j->count * sizeof *j->offsets);
        seg = (sk_segments){.offsets = desc, .offset_type = SK_UINT64, .count = j->count};
        SKT_OK(sk_segscan_exclusive(skt_ctx, j->t, SK_OP_ADD, s, &seg, d, j->n));
    } else {
        desc = buf_with(j->flags, j->n);
        seg = (sk_segments){.flags = desc, .flag_size = 1};
        SKT_OK(sk_segscan_inclusive(skt_ctx, j->t, SK_OP_ADD, s, &seg, d, j->n));
    }
    collect(out, j->n, es, what, d, s, desc, NULL);
}

static void run_segreduce(const void *arg, unsigned char *out, const char *what)
{
    const seg_job *j = arg;
    size_t es = sk_type_size(j->t), segments = 0;
    cl_mem s = buf_with(j->src, j->n * es), flags = buf_with(j->flags, j->n);
    cl_mem totals = buf_poisoned(j->n * es);
    sk_segments seg = {.flags = flags, .flag_size = 1};
    SKT_OK(sk_segreduce(skt_ctx, j->t, SK_OP_ADD, s, &seg, totals, &segments, j->n));
    cr_assert_eq(segments, j->count, "%s: %zu segments, expected %zu", what, segments,
                 j->count);
    skt_buf_download(totals, 0, out, j->n * es);
    skt_buf_free(s);
    skt_buf_free(flags);
    skt_buf_free(totals);
    expect_written(out, segments, es, what);
}

/* Start offsets of the heads in flags (flags[0] counts as a head). */
static uint64_t *offsets_of(const unsigned char *flags, size_t n, size_t *count)
{
    uint64_t *off = skt_malloc((n + 1) * sizeof *off);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || flags[i])
            off[k++] = i;
    *count = k;
    return off;
}

static const char *const SEG_MODE_NAMES[] = {"inclusive segmented scan by flags",
                                             "exclusive segmented scan by offsets",
                                             "segment totals by flags"};

Test(determinism, float_segmented_scans_should_be_bit_identical_run_to_run)
{
    FOR_FLOAT_CASES(c, t) {
        size_t n = CFGS[c].n, es = sk_type_size(t);
        void *src = noisy(t, n);
        unsigned char *flags = random_heads(n, 700);
        seg_job j = {.t = t, .n = n, .src = src, .flags = flags};
        uint64_t *offsets = offsets_of(flags, n, &j.count);
        j.offsets = offsets;
        for (int m = 0; m < 3; m++) {
            j.mode = (seg_mode)m;
            expect_identical_runs(&CFGS[c], m == SEG_TOTALS ? run_segreduce : run_segscan,
                                  &j, n * es,
                                  skt_fmt("%s add %s, %s", sk_type_name(j.t),
                                          SEG_MODE_NAMES[m], cfg_name(&CFGS[c])));
        }
        free(src);
        free(flags);
        free(offsets);
    }
}

/* ---- polynomial evaluation ------------------------------------------------------- */

typedef struct poly_job {
    sk_type t;
    size_t ncoef;
    const void *coeffs;
    double x;             /* one point, and the Horner prefixes */
    size_t npoints;
    const void *points;
} poly_job;

static void run_poly_one_point(const void *arg, unsigned char *out, const char *what)
{
    const poly_job *j = arg;
    cl_mem a = buf_with(j->coeffs, j->ncoef * sk_type_size(j->t));
    double result;
    skt_poison(&result, sizeof result);
    SKT_OK(sk_poly_eval(skt_ctx, j->t, a, j->x, &result, j->ncoef));
    skt_buf_free(a);
    memcpy(out, &result, sizeof result);
    expect_written(out, 1, sizeof result, what);
}

static void run_poly_prefixes(const void *arg, unsigned char *out, const char *what)
{
    const poly_job *j = arg;
    size_t es = sk_type_size(j->t), bytes = j->ncoef * es;
    cl_mem a = buf_with(j->coeffs, bytes), pre = buf_poisoned(bytes);
    SKT_OK(sk_poly_horner_prefixes(skt_ctx, j->t, a, j->x, pre, j->ncoef));
    collect(out, j->ncoef, es, what, pre, a, NULL);
}

static void run_poly_points(const void *arg, unsigned char *out, const char *what)
{
    const poly_job *j = arg;
    size_t es = sk_type_size(j->t), bytes = j->npoints * es;
    cl_mem a = buf_with(j->coeffs, j->ncoef * es), x = buf_with(j->points, bytes);
    cl_mem y = buf_poisoned(bytes);
    SKT_OK(sk_poly_eval_points(skt_ctx, j->t, a, x, y, j->ncoef, j->npoints));
    collect(out, j->npoints, es, what, y, a, x, NULL);
}

/* Points in [-1, 1] (noisy data), so no power overflows. */
static void poly_checks(const det_cfg *cfg, sk_type t)
{
    size_t es = sk_type_size(t), n = cfg->n;
    void *coeffs = noisy(t, n), *points = noisy(t, n);
    const char *type = sk_type_name(t), *cn = cfg_name(cfg);
    poly_job high = {.t = t, .ncoef = n, .coeffs = coeffs, .x = -0.99987, .npoints = 3,
                     .points = points};
    expect_identical_runs(cfg, run_poly_one_point, &high, sizeof(double),
                          skt_fmt("%s polynomial of degree %zu at one point, %s", type,
                                  n - 1, cn));
    expect_identical_runs(cfg, run_poly_prefixes, &high, n * es,
                          skt_fmt("%s Horner prefixes of degree %zu, %s", type, n - 1, cn));
    expect_identical_runs(cfg, run_poly_points, &high, high.npoints * es,
                          skt_fmt("%s polynomial of degree %zu at %zu points, %s", type,
                                  n - 1, high.npoints, cn));
    poly_job low = {.t = t, .ncoef = 17, .coeffs = coeffs, .npoints = n, .points = points};
    expect_identical_runs(cfg, run_poly_points, &low, n * es,
                          skt_fmt("%s polynomial of degree 16 at %zu points, %s", type, n,
                                  cn));
    free(coeffs);
    free(points);
}

Test(determinism, polynomial_evaluation_should_be_bit_identical_run_to_run)
{
    FOR_FLOAT_CASES(c, t)
        poly_checks(&CFGS[c], t);
}

/* ---- radix sort ------------------------------------------------------------------ */

typedef struct sort_job {
    sk_type t;
    sk_sort_order order;
    size_t n;
    const void *keys;
    size_t value_size;
    const void *values;
} sort_job;

/* out: the sorted keys, then the values. */
static void run_sort_pairs(const void *arg, unsigned char *out, const char *what)
{
    const sort_job *j = arg;
    size_t kb = j->n * sk_type_size(j->t), vb = j->n * j->value_size;
    cl_mem keys = buf_with(j->keys, kb), values = buf_with(j->values, vb);
    SKT_OK(sk_sort_pairs(skt_ctx, j->t, j->value_size, keys, values, j->n, j->order));
    skt_buf_download(keys, 0, out, kb);
    skt_buf_download(values, 0, out + kb, vb);
    skt_buf_free(keys);
    skt_buf_free(values);
    expect_written(out, j->n, sk_type_size(j->t), what);
    expect_written(out + kb, j->n, j->value_size, what);
}

/* Noisy keys with repeats, +-0 and NaNs of both signs: equal keys whose
 * values must keep their order. */
static void *sort_keys_with_ties(sk_type t, size_t n)
{
    size_t es = sk_type_size(t);
    unsigned char *k = noisy(t, n);
    for (size_t i = 0; i < n; i++) {
        double v;
        switch (skt_rand_below(8)) {
        case 0: v = (double)skt_rand_below(16) / 8.0; break; /* few unique */
        case 1: v = skt_rand_below(2) ? 0.0 : -0.0; break;
        case 2: v = skt_rand_below(2) ? NAN : -NAN; break;
        default: continue;
        }
        if (t == SK_FLOAT32) {
            float f = (float)v;
            memcpy(k + i * es, &f, es);
        } else {
            memcpy(k + i * es, &v, es);
        }
    }
    return k;
}

/* Values: the keys' original indices, as value_size-byte integers. */
static void *index_values(size_t n, size_t value_size)
{
    unsigned char *v = skt_malloc(n * value_size);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = i;
        if (value_size == 4) {
            uint32_t w = (uint32_t)x;
            memcpy(v + 4 * i, &w, 4);
        } else {
            memcpy(v + 8 * i, &x, 8);
        }
    }
    return v;
}

Test(determinism, float_key_sorts_with_values_should_be_bit_identical_run_to_run)
{
    FOR_FLOAT_CASES(c, t) {
        size_t n = CFGS[c].n, vs = sk_type_size(t);
        void *keys = sort_keys_with_ties(t, n), *values = index_values(n, vs);
        sort_job j = {.t = t, .n = n, .keys = keys, .value_size = vs,
                      .values = values};
        for (int o = 0; o < 2; o++) {
            j.order = o ? SK_DESCENDING : SK_ASCENDING;
            expect_identical_runs(&CFGS[c], run_sort_pairs, &j, n * (vs + vs),
                                  skt_fmt("%s keys with %zu-byte values, %s, %s",
                                          sk_type_name(j.t), vs,
                                          o ? "descending" : "ascending",
                                          cfg_name(&CFGS[c])));
        }
        free(keys);
        free(values);
    }
}

/* ---- compaction ------------------------------------------------------------------ */

typedef enum compact_mode { SELECT_IF, SELECT_FLAGGED, PARTITION, UNIQUE } compact_mode;

static const char *const COMPACT_NAMES[] = {
    [SELECT_IF] = "select-if",
    [SELECT_FLAGGED] = "select-flagged",
    [PARTITION] = "partition",
    [UNIQUE] = "unique",
};

typedef struct compact_job {
    compact_mode mode;
    size_t n;
    const float *keys;
    const unsigned char *flags;
    const uint32_t *values;
} compact_job;

static sk_status compact_call(const compact_job *j, cl_mem k_in, cl_mem flags, cl_mem v_in,
                              cl_mem k_out, cl_mem v_out, size_t *count)
{
    const char *pred = "x > 0.25f";
    switch (j->mode) {
    case SELECT_IF:
        return sk_select_if_pairs(skt_ctx, SK_FLOAT32, 4, pred, k_in, v_in, k_out, v_out, count,
                                  j->n);
    case SELECT_FLAGGED:
        return sk_select_flagged_pairs(skt_ctx, SK_FLOAT32, 4, 1, k_in, v_in, flags, k_out, v_out,
                                       count, j->n);
    case PARTITION:
        return sk_partition_pairs(skt_ctx, SK_FLOAT32, 4, pred, k_in, v_in, k_out, v_out, count,
                                  j->n);
    case UNIQUE:
        return sk_unique_pairs(skt_ctx, SK_FLOAT32, 4, k_in, v_in, k_out, v_out, count, j->n);
    }
    return SK_E_INVALID_ARG;
}

/* out: the count, then the kept keys, then their values (the unwritten
 * rest stays poisoned and must stay so). */
static void run_compact(const void *arg, unsigned char *out, const char *what)
{
    const compact_job *j = arg;
    size_t bytes = j->n * 4, count = SIZE_MAX;
    cl_mem k_in = buf_with(j->keys, bytes), v_in = buf_with(j->values, bytes);
    cl_mem flags = buf_with(j->flags, j->n);
    cl_mem k_out = buf_poisoned(bytes), v_out = buf_poisoned(bytes);
    SKT_OK(compact_call(j, k_in, flags, v_in, k_out, v_out, &count));
    cr_assert_leq(count, j->n, "%s: count %zu for %zu elements", what, count, j->n);
    memcpy(out, &count, sizeof count);
    skt_buf_download(k_out, 0, out + sizeof count, bytes);
    skt_buf_download(v_out, 0, out + sizeof count + bytes, bytes);
    cl_mem all[] = {k_in, v_in, flags, k_out, v_out};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        skt_buf_free(all[i]);
    size_t written = j->mode == PARTITION ? j->n : count;
    expect_written(out + sizeof count, written, 4, what);
    expect_written(out + sizeof count + bytes, written, 4, what);
}

/* Noisy keys in runs of equal values (so unique drops some). */
static float *keys_in_runs(size_t n)
{
    float *k = skt_malloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++)
        k[i] = (i > 0 && skt_rand_below(3) == 0) ? k[i - 1]
                                                  : (float)(skt_rand_unit() * 2.0 - 1.0);
    return k;
}

Test(determinism, compaction_should_be_bit_identical_run_to_run)
{
    for (size_t c = 0; c < NCFGS; c++) {
        size_t n = CFGS[c].n;
        float *keys = keys_in_runs(n);
        unsigned char *flags = random_heads(n, 2);
        uint32_t *values = index_values(n, 4);
        compact_job j = {.n = n, .keys = keys, .flags = flags, .values = values};
        for (int m = 0; m < 4; m++) {
            j.mode = (compact_mode)m;
            expect_identical_runs(&CFGS[c], run_compact, &j, sizeof(size_t) + 8 * n,
                                  skt_fmt("float32 %s with values, %s", COMPACT_NAMES[m],
                                          cfg_name(&CFGS[c])));
        }
        free(keys);
        free(flags);
        free(values);
    }
}
