/*
 * test_scan_paths.c - the two ways each shape combines tiles or chunks
 * (SK_PARAM_SCAN_PATH), and the rounded float sums of each.
 *
 * Every 4-byte type x op runs at the tile edges of test_scan.c with the path
 * forced, in each shape (a case per type x shape x path), a launch count
 * per call showing the forced path was taken. Each type, op, shape, path and
 * GPU tile setting is a program of its own to compile, so these cover type x
 * op x path x GPU tile setting pairwise, not their product: in each shape
 * every type x op runs by one forced path (skt_pairwise_path), in the GPU
 * shape with its settings of skt_pairwise_gpu_cfgs, in the CPU shape (whose
 * tiles are no part of its programs) with every setting, so that every pair
 * of type, op, path and GPU setting meets (skt_scan.h), at every size,
 * inclusive and exclusive, in place and out of place (the CPU shape's look-back
 * reads predecessor chunks' input, so in-place scans keep reduce-then-scan
 * there); AUTO's choice is checked against the header for every type x op
 * x shape (a case per type x shape). The
 * CPU shape's look-back never waits for a predecessor: it reduces an
 * unpublished one itself. Test hooks (sk__test_set_hooks,
 * primitives/sk_testing.h) force that fallback: every predecessor read as
 * unpublished, and chunks handed out last first; a hook is compiled into
 * the program, so type x op x hook is pairwise (each int32 and uint32 op
 * with one hook, each type and op meeting both, float32 min with both).
 * Float add and mul by look-back combine in an order that depends on timing;
 * the data of skt_fill keeps every association exact, so they are compared
 * exactly too, and a noisy float add by look-back is held to the same
 * a-priori bound as the other shapes. Float add by reduce-then-scan is bit
 * identical run to run and context to context. SK_PARAM_SCAN_PATH and
 * $SCANKIT_SCAN_PATH are checked in the scan_path suite.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk_testing.h"
#include "skt_scan.h"

TestSuite(scan, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(scan_path, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* ---- forced paths ------------------------------------------------------------------- */
/* Each 4-byte type x shape with the scan path forced each way (the
 * look-back takes no wider element), the ops whose skt_pairwise_path the
 * case's path is, with the tile settings and sizes of test_scan.c (in the
 * GPU shape those of skt_pairwise_gpu_cfgs). Float add and mul by look-back are still compared exactly,
 * and that is the right bound, not a lucky one: skt_fill makes every
 * sub-range sum a multiple of 1/4 of magnitude at most 2^22 (24 significant
 * bits) and every sub-range product +-2^e with |e| <= 120, all exact in
 * float32, so every association the look-back can take yields exactly the
 * serial reference. Rounded sums are held to an a-priori bound below
 * (lookback_sum_bound). */
ParameterizedTestParameters(scan, scans_should_match_reference_at_tile_edges_by_a_forced_path)
{
    return skt_cases((skt_axes){.types = SKT_FORCED_PATH_TYPES,
                                .shapes = SKT_BOTH_SHAPES,
                                .paths = SKT_BIT(SK_SCAN_PATH_LOOKBACK) |
                                         SKT_BIT(SK_SCAN_PATH_REDUCE_THEN_SCAN)},
                     NULL);
}

ParameterizedTest(skt_case *c, scan, scans_should_match_reference_at_tile_edges_by_a_forced_path)
{
    skt_scan_edges_pairwise(skt_scan_case_begin(c), c->shape, c->path);
}

/* scankit.h: AUTO takes the look-back where the result cannot depend on the
 * combining order (integer operators, float min and max) for elements of at
 * most 4 bytes, reduce-then-scan otherwise. */
static int auto_takes_lookback(sk_type t, sk_op op)
{
    if (skt_ref_type_size(t) > 4)
        return 0;
    return t != SK_FLOAT32 || op == SK_OP_MIN || op == SK_OP_MAX;
}

/* AUTO for one type and op in the case's shape: the look-back exactly where
 * auto_takes_lookback says, and in the CPU shape never in place. */
static void auto_path(sk_type t, sk_op op, sk_shape shape)
{
    /* 300007 elements span dozens of default GPU tiles (a default scan tile
     * holds at most 32 KiB) and several default CPU chunks: past the single
     * work-group or work-item. */
    const size_t n = 300007;
    for (int in_place = 0; in_place < 2; in_place++) {
        skt_launches l = {0};
        skt_count_launches(&l);
        skt_check_scan(t, op, op & 1, n, in_place,
                       skt_fmt("%s shape, auto path", skt_shape_name(shape)));
        skt_count_launches(NULL);
        int want = auto_takes_lookback(t, op) && !(shape == SK_SHAPE_CPU && in_place);
        cr_assert_eq(l.lookback > 0, want,
                     "%s %s n=%zu, %s shape%s: AUTO %s the look-back (%lu launches)",
                     sk_type_name(t), sk_op_name(op), n, skt_shape_name(shape),
                     in_place ? ", in place" : "", want ? "did not take" : "took", l.lookback);
    }
}

/* One case per type x shape, every op of the type. */
ParameterizedTestParameters(scan, auto_scan_path_should_take_lookback_exactly_where_the_order_cannot_matter)
{
    return skt_cases(SKT_TYPE_SHAPE_AXES, NULL);
}

ParameterizedTest(skt_case *c, scan, auto_scan_path_should_take_lookback_exactly_where_the_order_cannot_matter)
{
    sk_type t = skt_scan_case_begin(c);
    skt_force_scan_path(SK_SCAN_PATH_AUTO);
    skt_tiles_default();
    SKT_EACH_OP(t, op)
        auto_path(t, (sk_op)op, c->shape);
}

/* ---- the CPU shape's look-back ---------------------------------------------------------- */

/* The CPU shape's look-back with its fallback forced by a test hook
 * (sk_testing.h) on the fixture's context, the path forced to look-back,
 * uint32 and int32 (every op) and float32 min at chunk edges with 3 and 64
 * chunks up to 70000 elements and 1000 chunks up to 5000 (chunks of one
 * element at small n; with every predecessor reduced again a scan costs
 * chunks / 2 times a plain one), no serial path, inclusive and exclusive,
 * out of place (the one pass) and in place (reduce-then-scan) alternately;
 * one case per type x op x hook, pairwise (keep_fallback_first). */
static const struct {
    long chunks;
    size_t max_n;
} FALLBACK_CFGS[] = {{3, 70000}, {64, 70000}, {1000, 5000}};

static int keep_fallback(const skt_case *c)
{
    return c->type != SK_FLOAT32 || c->op == SK_OP_MIN;
}

/* A hook is a define of the program, so type x op x hook is pairwise: int32
 * and uint32 take each op with one hook, (op + type) even the first, odd
 * the second, so that each type and each op meets both hooks; float32 min
 * takes both. */
static int keep_fallback_first(const skt_case *c)
{
    return keep_fallback(c) && (c->type == SK_FLOAT32 || (c->op + c->type) % 2 == 0);
}

static int keep_fallback_second(const skt_case *c)
{
    return keep_fallback(c) && (c->type == SK_FLOAT32 || (c->op + c->type) % 2 == 1);
}

static struct criterion_test_params fallback_cases(int (*keep)(const skt_case *c))
{
    return skt_cases((skt_axes){.types = SKT_BIT(SK_UINT32) | SKT_BIT(SK_INT32) |
                                         SKT_BIT(SK_FLOAT32),
                                .shapes = SKT_BIT(SK_SHAPE_CPU),
                                .paths = SKT_BIT(SK_SCAN_PATH_LOOKBACK), .per_op = 1},
                     keep);
}

static void cpu_lookback_forced_fallback(const skt_case *c, unsigned hooks)
{
    skt_case_begin(c);
    SKT_OK(sk__test_set_hooks(skt_ctx, hooks));
    skt_force_shape(SK_SHAPE_CPU);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    for (size_t k = 0; k < sizeof FALLBACK_CFGS / sizeof FALLBACK_CFGS[0]; k++) {
        size_t chunks = (size_t)FALLBACK_CFGS[k].chunks, max_n = FALLBACK_CFGS[k].max_n;
        skt_tiles_set(0, 0, FALLBACK_CFGS[k].chunks, 1);
        skt_sizes sizes = {.count = 0};
        skt_sizes_base(&sizes, max_n);
        static const size_t ks[] = {1, 2, 3, 10};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            skt_sizes_edges(&sizes, chunks, ks[i], max_n);
        skt_sizes_sort(&sizes);
        skt_label cfg;
        snprintf(cfg.s, sizeof cfg.s, "cpu shape, %zu chunks, look-back forced, hook %s",
                 chunks, sk__test_hook_name(hooks));
        skt_scan_sizes((sk_type)c->type, (sk_op)c->op, SK_SCAN_PATH_LOOKBACK, &sizes, cfg.s);
    }
    SKT_OK(sk__test_set_hooks(skt_ctx, 0));
}

ParameterizedTestParameters(scan, cpu_lookback_should_match_reference_when_every_predecessor_is_reduced_again)
{
    return fallback_cases(keep_fallback_first);
}

ParameterizedTest(skt_case *c, scan, cpu_lookback_should_match_reference_when_every_predecessor_is_reduced_again)
{
    cpu_lookback_forced_fallback(c, SK__TEST_LB_REDUCE_ALL);
}

ParameterizedTestParameters(scan, cpu_lookback_should_match_reference_when_chunks_are_taken_last_first)
{
    return fallback_cases(keep_fallback_second);
}

ParameterizedTest(skt_case *c, scan, cpu_lookback_should_match_reference_when_chunks_are_taken_last_first)
{
    cpu_lookback_forced_fallback(c, SK__TEST_LB_REVERSE_CHUNKS);
}

/* The CPU shape's look-back past the size from which it writes with
 * non-temporal stores (outputs of 16 MiB and more, primitives/tuning.c):
 * with the default chunks and with 7 chunks (size class 1: chunk starts
 * not 16-byte aligned, so each chunk's 4-lane stores start after a scalar
 * head), 4-byte types with the 4-lane scan (uint32 add, int32 max, float32
 * min) and without it (float32 add: one element at a time), inclusive and
 * exclusive, out of place; the trace shows the non-temporal stores were
 * asked for (on CPU devices: the only ones that get them). */
static const long STREAM_CHUNKS[] = {0, 7};

static int keep_streaming(const skt_case *c)
{
    /* The sanitizer pass's lighter matrix (skt_light): uint32 add alone,
     * in both chunk settings. The host takes the same path for every type
     * and op here (one look-back launch asking for non-temporal stores);
     * what differs is the kernel, which the normal pass checks. */
    if (skt_light()) return c->type == SK_UINT32 && c->op == SK_OP_ADD;
    switch (c->type) {
    case SK_UINT32: return c->op == SK_OP_ADD;
    case SK_INT32: return c->op == SK_OP_MAX;
    default: return c->op == SK_OP_MIN || c->op == SK_OP_ADD;
    }
}

ParameterizedTestParameters(scan, cpu_lookback_should_match_reference_past_the_streaming_store_size)
{
    return skt_cases((skt_axes){.types = SKT_BIT(SK_UINT32) | SKT_BIT(SK_INT32) |
                                         SKT_BIT(SK_FLOAT32),
                                .shapes = SKT_BIT(SK_SHAPE_CPU),
                                .paths = SKT_BIT(SK_SCAN_PATH_LOOKBACK), .per_op = 1,
                                .classes = 2},
                     keep_streaming);
}

ParameterizedTest(skt_case *c, scan, cpu_lookback_should_match_reference_past_the_streaming_store_size)
{
    const size_t n = ((size_t)1 << 23) + 4099;
    sk_type t = (sk_type)c->type;
    sk_op op = (sk_op)c->op;
    long chunks = STREAM_CHUNKS[c->size_class];
    skt_case_begin(c);
    sk_device_desc dev = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &dev));
    const unsigned long want_streamed = dev.is_gpu ? 0 : 1;
    skt_force_shape(SK_SHAPE_CPU);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    skt_tiles_set(0, 0, chunks, 0);
    skt_label cfg;
    snprintf(cfg.s, sizeof cfg.s, "cpu shape, %s chunks, look-back forced",
             chunks ? "7" : "default");
    for (int excl = 0; excl < 2; excl++) {
        skt_launches l = {0};
        skt_count_launches(&l);
        skt_check_scan(t, op, excl, n, 0, cfg.s);
        skt_count_launches(NULL);
        const char *what =
            skt_fmt("%s %s n=%zu, %s", sk_type_name(t), sk_op_name(op), n, cfg.s);
        skt_expect_path_taken(SK_SCAN_PATH_LOOKBACK, SK_SHAPE_CPU, 0, &l, what);
        cr_assert_eq(l.lookback, 1ul, "%s: %lu look-back launches", what, l.lookback);
        cr_assert_eq(l.streamed, want_streamed, "%s: %lu launches with non-temporal "
                     "stores on a %s device", what, l.streamed, dev.is_gpu ? "GPU" : "CPU");
    }
}

/* ---- float add on noisy data ------------------------------------------------------ */

/* a-priori bound for two summations of m+1 terms in any order:
 * |got - ref| <= 2 * gamma_m * sum |x|, gamma_m = m u / (1 - m u). */
static void check_sum_bound(sk_type t, int excl, const void *src, const void *got,
                            const void *ref, size_t n, const char *what)
{
    double u = t == SK_FLOAT32 ? 0x1.0p-24 : 0x1.0p-53;
    double abs_sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x, g, r;
        if (t == SK_FLOAT32) {
            x = ((const float *)src)[i];
            g = ((const float *)got)[i];
            r = ((const float *)ref)[i];
        } else {
            x = ((const double *)src)[i];
            g = ((const double *)got)[i];
            r = ((const double *)ref)[i];
        }
        if (!excl)
            abs_sum += fabs(x);
        double m = (double)i + 1.0;
        double gamma = m * u / (1.0 - m * u);
        double bound = 2.0 * gamma * abs_sum;
        cr_assert(fabs(g - r) <= bound,
                  "%s: [%zu] = %.17g, reference %.17g, beyond the bound %.3g [seed %llu]",
                  what, i, g, r, bound, (unsigned long long)skt_seed());
        if (excl)
            abs_sum += fabs(x);
    }
}

/* On context ctx (then the fixture's again): shape forced, small tiles if
 * asked, the add scan of src (n elements) once into each of outs[0 ..
 * runs - 1], each into a freshly poisoned buffer. */
static void add_runs(sk_context *ctx, sk_type t, sk_shape shape, int small, int excl,
                     const void *src, size_t n, unsigned char **outs, int runs)
{
    sk_context *fixture = skt_ctx;
    size_t bytes = n * skt_ref_type_size(t);
    skt_ctx = ctx;
    skt_force_shape(shape);
    if (small)
        skt_tiles_small();
    cl_mem s = skt_buf_new(bytes), d = skt_buf_new(bytes);
    skt_buf_upload(s, 0, src, bytes);
    for (int r = 0; r < runs; r++) {
        skt_buf_poison(d, bytes);
        SKT_OK(skt_scan_call(t, SK_OP_ADD, excl, s, d, n));
        skt_buf_download(d, 0, outs[r], bytes);
    }
    skt_buf_free(s);
    skt_buf_free(d);
    skt_ctx = fixture;
}

static void determinism(sk_type t, sk_shape shape, int small)
{
    if (t == SK_FLOAT64)
        skt_skip_unless_fp64();
    size_t n = 3000017, es = skt_ref_type_size(t), bytes = n * es;
    unsigned char *src = skt_malloc(bytes), *r1 = skt_malloc(bytes), *r2 = skt_malloc(bytes),
                  *r3 = skt_malloc(bytes), *ref = skt_malloc(bytes);
    skt_fill_float_noisy(t, src, n);
    if (small)
        n = 200003;
    const char *what = skt_fmt("%s add on noisy data, %s shape%s", sk_type_name(t),
                               skt_shape_name(shape), small ? ", small tiles" : "");

    for (int excl = 0; excl < 2; excl++) {
        /* Two runs, then one on a fresh context on the same device and shape. */
        unsigned char *runs[] = {r1, r2};
        add_runs(skt_ctx, t, shape, small, excl, src, n, runs, 2);
        sk_context *ctx2 = NULL;
        SKT_OK(sk_context_create(&ctx2, NULL, NULL, 0));
        add_runs(ctx2, t, shape, small, excl, src, n, &r3, 1);
        sk_context_free(ctx2);

        const char *w = skt_fmt("%s %s", what, excl ? "exclusive" : "inclusive");
        skt_expect_bytes(r2, r1, n, es, skt_fmt("%s: run 2 vs run 1", w));
        skt_expect_bytes(r3, r1, n, es, skt_fmt("%s: a second context vs run 1", w));
        skt_ref_scan(t, SK_OP_ADD, excl, src, ref, n);
        check_sum_bound(t, excl, src, r1, ref, n, w);
    }
    free(src);
    free(r1);
    free(r2);
    free(r3);
    free(ref);
}

/* float32 and float64 add by reduce-then-scan, each shape, default and small
 * tiles: bit identical run to run and on a second context, and within the
 * a-priori bound of the serial sum. */
ParameterizedTestParameters(scan, float_add_should_be_bit_identical_run_to_run)
{
    return skt_cases((skt_axes){.types = SKT_BIT(SK_FLOAT32) | SKT_BIT(SK_FLOAT64),
                                .shapes = SKT_BOTH_SHAPES, .classes = 2},
                     NULL);
}

ParameterizedTest(skt_case *c, scan, float_add_should_be_bit_identical_run_to_run)
{
    skt_case_begin(c);
    determinism((sk_type)c->type, c->shape, c->size_class);
}

/* Float add by look-back on noisy data. Which predecessors a tile combines
 * depends on timing, so runs may round differently and bit identity is not
 * asked for; but each output is still an association of the same terms, and
 * the bound of check_sum_bound holds for any association: the device's sum
 * and the serial reference are each within gamma_{m-1} * sum |x| of the
 * exact sum of m terms, whatever tree combined them (Higham, "Accuracy and
 * Stability of Numerical Algorithms", ch. 4), so within twice that of each
 * other: the same bound as for the reduce-then-scan path, not a wider one.
 * Two runs, both checked. */
static void lookback_sum_bound(sk_type t, sk_shape shape, int small)
{
    size_t n = small ? 200003 : 1000003, es = skt_ref_type_size(t), bytes = n * es;
    unsigned char *src = skt_malloc(bytes), *got = skt_malloc(bytes), *ref = skt_malloc(bytes);
    skt_fill_float_noisy(t, src, n);
    skt_force_shape(shape);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    if (small)
        skt_tiles_small();
    else
        skt_tiles_default();
    cl_mem s = skt_buf_new(bytes), d = skt_buf_new(bytes);
    skt_buf_upload(s, 0, src, bytes);
    for (int excl = 0; excl < 2; excl++) {
        skt_ref_scan(t, SK_OP_ADD, excl, src, ref, n);
        for (int run = 1; run <= 2; run++) {
            const char *what = skt_fmt("%s add on noisy data, %s shape%s, look-back forced, "
                                       "%s, run %d", sk_type_name(t), skt_shape_name(shape),
                                       small ? ", small tiles" : "",
                                       excl ? "exclusive" : "inclusive", run);
            skt_launches c = {0};
            skt_buf_poison(d, bytes);
            skt_count_launches(&c);
            SKT_OK(skt_scan_call(t, SK_OP_ADD, excl, s, d, n));
            skt_count_launches(NULL);
            skt_expect_path_taken(SK_SCAN_PATH_LOOKBACK, shape, 0, &c, what);
            cr_assert_gt(c.lookback, 0ul, "%s: the look-back kernel never ran", what);
            skt_buf_download(d, 0, got, bytes);
            check_sum_bound(t, excl, src, got, ref, n, what);
        }
    }
    skt_force_scan_path(SK_SCAN_PATH_AUTO);
    skt_buf_free(s);
    skt_buf_free(d);
    free(src);
    free(got);
    free(ref);
}

ParameterizedTestParameters(scan, float32_add_by_lookback_should_stay_within_the_summation_error_bound)
{
    return skt_cases((skt_axes){.types = SKT_BIT(SK_FLOAT32), .shapes = SKT_BOTH_SHAPES,
                                .paths = SKT_BIT(SK_SCAN_PATH_LOOKBACK), .classes = 2},
                     NULL);
}

ParameterizedTest(skt_case *c, scan, float32_add_by_lookback_should_stay_within_the_summation_error_bound)
{
    skt_case_begin(c);
    lookback_sum_bound((sk_type)c->type, c->shape, c->size_class);
}

/* ---- the scan path ------------------------------------------------------------------------ */

Test(scan_path, param_should_reject_bad_values_and_read_back_good_ones)
{
    static const long good[] = {SK_SCAN_PATH_LOOKBACK, SK_SCAN_PATH_REDUCE_THEN_SCAN,
                                SK_SCAN_PATH_AUTO};
    static const long bad[] = {-1, 3, 100, LONG_MAX, LONG_MIN};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
            skt_force_scan_path((sk_scan_path)good[i]);
            for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
                SKT_EXPECT_STATUS(sk_context_set_param(skt_ctx, SK_PARAM_SCAN_PATH, bad[j]),
                                  SK_E_INVALID_ARG);
                cr_assert_eq(skt_get_param(SK_PARAM_SCAN_PATH), good[i],
                             "SK_PARAM_SCAN_PATH = %ld was rejected but changed the path",
                             bad[j]);
            }
        }
    }
}

/* A context opened with $SCANKIT_SCAN_PATH = value (NULL: unset). */
static sk_context *open_with_path_env(const char *value)
{
    if (value)
        setenv("SCANKIT_SCAN_PATH", value, 1);
    else
        unsetenv("SCANKIT_SCAN_PATH");
    sk_context *c = NULL;
    SKT_OK(sk_context_create(&c, NULL, NULL, 0));
    unsetenv("SCANKIT_SCAN_PATH");
    return c;
}

/* An inclusive add scan of type t on context c (GPU shape, small tiles,
 * 1001 elements: 126 tiles), checked; returns its look-back launches. */
static unsigned long lookback_launches_on(sk_context *c, sk_type t)
{
    enum { N = 1001 };
    unsigned char src[N * 4], want[N * 4], got[N * 4];
    sk_context *fixture = skt_ctx;
    skt_ctx = c;
    skt_force_shape(SK_SHAPE_GPU);
    skt_tiles_small();
    skt_fill(t, SK_OP_ADD, src, N);
    skt_ref_scan(t, SK_OP_ADD, 0, src, want, N);
    skt_launches l = {0};
    skt_count_launches(&l);
    SKT_OK(sk_scan_inclusive_host(c, t, SK_OP_ADD, src, got, N));
    skt_count_launches(NULL);
    skt_expect_elems(t, got, want, N,
                     skt_fmt("%s add, path from the environment", sk_type_name(t)));
    skt_ctx = fixture;
    return l.lookback;
}

/* The variable sets the starting path: it reads back, and it decides the
 * kernels (float32 add takes the look-back only when asked for, uint32 add
 * unless reduce-then-scan is asked for). */
static void expect_env_path(const char *value, sk_scan_path want)
{
    sk_context *c = open_with_path_env(value);
    long v = -1;
    SKT_EXPECT_STATUS(sk_context_get_param(c, SK_PARAM_SCAN_PATH, &v), SK_OK);
    cr_assert_eq(v, (long)want, "SCANKIT_SCAN_PATH=%s gave path %ld", value ? value : "(unset)",
                 v);
    unsigned long f = lookback_launches_on(c, SK_FLOAT32), u = lookback_launches_on(c, SK_UINT32);
    sk_context_free(c);
    cr_assert_eq(f > 0, want == SK_SCAN_PATH_LOOKBACK,
                 "SCANKIT_SCAN_PATH=%s: float32 add made %lu look-back launches",
                 value ? value : "(unset)", f);
    cr_assert_eq(u > 0, want != SK_SCAN_PATH_REDUCE_THEN_SCAN,
                 "SCANKIT_SCAN_PATH=%s: uint32 add made %lu look-back launches",
                 value ? value : "(unset)", u);
}

Test(scan_path, scankit_scan_path_should_set_the_path_at_context_creation)
{
    expect_env_path(NULL, SK_SCAN_PATH_AUTO);
    expect_env_path("auto", SK_SCAN_PATH_AUTO);
    expect_env_path("reduce-then-scan", SK_SCAN_PATH_REDUCE_THEN_SCAN);
    expect_env_path("lookback", SK_SCAN_PATH_LOOKBACK);
}
