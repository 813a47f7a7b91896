/*
 * test_scan.c - sk_scan_inclusive/exclusive, sk_reduce and their host-array
 * and custom-monoid forms against the serial references in tests/ref/.
 *
 * Every type x op x {inclusive, exclusive} x {CPU shape, GPU shape} (the GPU
 * shape also runs on CPU devices: both must be correct everywhere), at sizes
 * 0, 1, 2, tile edges k*tile-1, k*tile, k*tile+1, primes and ~2^22, with the
 * default tiles and with forced small tiles (many work-groups and several
 * recursion levels at small n), in place and out of place. Outputs are
 * poisoned before every run and checked past n; inputs are checked unchanged.
 *
 * Float data is chosen so that the exact result is representable whatever the
 * association (see skt_fill), so floats are compared exactly; the rounding
 * case (random non-integer data) is covered by the determinism test and an
 * a-priori error bound.
 *
 * Both shapes have two ways to combine tiles or chunks (SK_PARAM_SCAN_PATH):
 * every 4-byte type x op runs at the tile edges with the path forced to
 * look-back and forced to reduce-then-scan, a launch count per call showing
 * the forced path was taken (the CPU shape's look-back reads predecessor
 * chunks' input, so in-place scans keep reduce-then-scan there); AUTO's
 * choice is checked against the header for every type x op. The CPU shape's
 * look-back never waits for a predecessor: it reduces an unpublished one
 * itself. Test hooks (sk__test_set_hooks, primitives/sk_testing.h) force that
 * fallback: every predecessor read as unpublished, and chunks handed out
 * last first.
 * Float add and mul by look-back combine in an order that depends on timing;
 * the data above keeps every association exact, so they are compared exactly
 * too, and a noisy float add by look-back is held to the same a-priori bound
 * as the other shapes. SK_PARAM_SCAN_PATH and $SCANKIT_SCAN_PATH are checked
 * in the scan_path suite.
 *
 * Float min/max are IEEE minimum/maximum (a NaN result is the left-most
 * NaN); the elements are compared by value here (NaN equals NaN, +0 equals
 * -0): test_ieee.c pins signed zeros and NaN bits bit for bit.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"
#include "sk_testing.h"

TestSuite(scan, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(reduce, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(scan_host, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(scan_monoid, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(scan_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(scan_path, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

#define GUARD 16 /* elements after n that must stay poisoned */
#define LARGE_N ((size_t)1 << 22)

static const char *const OP_NAMES[SK_OP_COUNT] = {"add", "mul", "min", "max",
                                                   "and", "or",  "xor"};

/* ---- buffers reused by the checks of one test ------------------------------- */

static struct {
    size_t cap_bytes;
    cl_mem s, d;
    unsigned char *h_src, *h_ref, *h_out;
} B;

static void reserve(size_t bytes)
{
    if (bytes <= B.cap_bytes)
        return;
    skt_buf_free(B.s);
    skt_buf_free(B.d);
    free(B.h_src);
    free(B.h_ref);
    free(B.h_out);
    B.cap_bytes = bytes;
    B.s = skt_buf_new(bytes);
    B.d = skt_buf_new(bytes);
    B.h_src = skt_malloc(bytes);
    B.h_ref = skt_malloc(bytes);
    B.h_out = skt_malloc(bytes);
}

static sk_status scan_mem(sk_type t, sk_op op, int excl, cl_mem s, cl_mem d, size_t n)
{
    return excl ? sk_scan_exclusive(skt_ctx, t, op, s, d, n)
                : sk_scan_inclusive(skt_ctx, t, op, s, d, n);
}

static sk_status scan_host(sk_type t, sk_op op, int excl, const void *s, void *d, size_t n)
{
    return excl ? sk_scan_exclusive_host(skt_ctx, t, op, s, d, n)
                : sk_scan_inclusive_host(skt_ctx, t, op, s, d, n);
}

/* One scan through the cl_mem form, checked against the reference. */
static void check_scan(sk_type t, sk_op op, int excl, size_t n, int in_place,
                       const char *cfg)
{
    size_t es = skt_ref_type_size(t);
    size_t span = (n + GUARD) * es;
    const char *what = skt_fmt("%s %s %s n=%zu %s%s", sk_type_name(t), OP_NAMES[op],
                               excl ? "exclusive" : "inclusive", n, cfg,
                               in_place ? " in place" : "");
    reserve(span);
    skt_fill(t, op, B.h_src, n);
    skt_ref_scan(t, op, excl, B.h_src, B.h_ref, n);

    cl_mem dst = in_place ? B.s : B.d;
    skt_buf_upload(B.s, 0, B.h_src, n * es);
    if (in_place) {
        unsigned char p = SKT_POISON_BYTE;
        skt_buf_fill(B.s, &p, 1, n * es, GUARD * es);
    } else {
        skt_buf_poison(B.d, span);
    }

    sk_status st = scan_mem(t, op, excl, B.s, dst, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());

    skt_buf_download(dst, 0, B.h_out, span);
    skt_expect_elems(t, B.h_out, B.h_ref, n, what);
    size_t bad = skt_find_unpoisoned(B.h_out + n * es, GUARD * es);
    cr_assert_eq(bad, (size_t)-1, "%s: wrote past n (byte %zu after the end) [seed %llu]",
                 what, bad, (unsigned long long)skt_seed());
    if (!in_place) {
        skt_buf_download(B.s, 0, B.h_out, n * es);
        cr_assert_eq(memcmp(B.h_out, B.h_src, n * es), 0,
                     "%s: the input buffer was modified [seed %llu]", what,
                     (unsigned long long)skt_seed());
    }
}

/* One reduce through the cl_mem form, checked against the reference. */
static void check_reduce(sk_type t, sk_op op, size_t n, const char *cfg)
{
    size_t es = skt_ref_type_size(t);
    const char *what = skt_fmt("reduce %s %s n=%zu %s", sk_type_name(t), OP_NAMES[op], n, cfg);
    unsigned char want[8], got[16];
    reserve((n + 1) * es);
    skt_fill(t, op, B.h_src, n);
    skt_ref_reduce(t, op, B.h_src, n, want);
    skt_buf_upload(B.s, 0, B.h_src, n * es);
    skt_poison(got, sizeof got);

    sk_status st = sk_reduce(skt_ctx, t, op, B.s, n, got);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_expect_elems(t, got, want, 1, what);
    cr_assert_eq(skt_find_unpoisoned(got + es, sizeof got - es), (size_t)-1,
                 "%s: wrote more than one element to *result", what);
}

/* ---- sizes ------------------------------------------------------------------------- */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    size_t v[256];
    size_t count;
} size_list;

static void add_size(size_list *l, size_t n, size_t max)
{
    if (n > max || l->count == sizeof l->v / sizeof l->v[0])
        return;
    for (size_t i = 0; i < l->count; i++)
        if (l->v[i] == n)
            return;
    l->v[l->count++] = n;
}

static void add_edges(size_list *l, size_t tile, size_t k, size_t max)
{
    if (tile == 0 || tile > max)
        return;
    add_size(l, k * tile - 1, max);
    add_size(l, k * tile, max);
    add_size(l, k * tile + 1, max);
}

/* 0, 1, 2, small values, primes and power-of-two edges (a tile that is a power
 * of two up to 2^14 has its first edges here even when the automatic tile
 * size cannot be read back). */
static void base_sizes(size_list *l, size_t max)
{
    static const size_t fixed[] = {0,    1,    2,    3,    4,    5,     6,     7,    11,
                                   13,   31,   37,   97,   101,  251,   509,   1021, 2039,
                                   3001, 4093, 7919, 10007, 65521, 100003, 131071, 262147};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        add_size(l, fixed[i], max);
    for (size_t p = 8; p <= ((size_t)1 << 14); p *= 2)
        add_edges(l, p, 1, max);
    for (size_t p = 8; p <= ((size_t)1 << 12); p *= 8)
        add_edges(l, p, 3, max);
}

static void sort_sizes(size_list *l) { qsort(l->v, l->count, sizeof l->v[0], cmp_size); }

/* Tile edges of the configuration in force: k*tile +- 1 for a few k, and
 * tile^2, tile^3 (recursion levels) where small enough. */
static void tile_sizes(size_list *l, sk_shape shape, size_t max)
{
    if (shape == SK_SHAPE_GPU) {
        size_t wg = (size_t)skt_get_param(SK_PARAM_WG_SIZE);
        size_t ipt = (size_t)skt_get_param(SK_PARAM_ITEMS_PER_THREAD);
        size_t tile = wg * ipt; /* 0 when automatic: not readable */
        static const size_t ks[] = {1, 2, 3, 5};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            add_edges(l, tile, ks[i], max);
        if (tile && tile <= max / tile) {
            add_edges(l, tile * tile, 1, max);
            add_edges(l, tile * tile + tile, 1, max);
            if (tile * tile <= max / tile)
                add_edges(l, tile * tile * tile, 1, max);
        }
        if (wg)
            add_edges(l, wg, 1, max);
    } else {
        size_t chunks = (size_t)skt_get_param(SK_PARAM_CPU_CHUNKS);
        size_t serial = (size_t)skt_get_param(SK_PARAM_CPU_SERIAL_BELOW);
        if (serial)
            add_edges(l, serial, 1, max);
        static const size_t ks[] = {1, 2, 3, 10, 100};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            add_edges(l, chunks, ks[i], max);
    }
}

/* The tile settings each shape is tested with. The operator only enters the
 * kernels through the combine and identity macros, so every op runs with the
 * default and the small tiles, and the medium tiles (another work-group size,
 * a CPU serial threshold) run for add only, which keeps the number of
 * programs to compile (the cost of a cold run) down. */
typedef struct {
    const char *name;
    long wg, ipt, chunks, serial_below;
    size_t max_n;
    int add_only;
} tile_cfg;

static const tile_cfg TILE_CFGS[] = {
    {"default tiles", 0, 0, 0, 0, 270000, 0},
    {"small tiles (wg 4 x 2, 3 chunks)", 4, 2, 3, 1, 70000, 0},
    {"medium tiles (wg 64 x 4, 7 chunks, serial below 100)", 64, 4, 7, 100, 270000, 1},
};
#define N_TILE_CFGS (sizeof TILE_CFGS / sizeof TILE_CFGS[0])

static void apply_tiles(const tile_cfg *c)
{
    skt_tiles_set(c->wg, c->ipt, c->chunks, c->serial_below);
}

/* Configuration label, in the caller's buffer (skt_fmt's ring would be
 * reused by the checks while the label is still needed). */
typedef struct {
    char s[160];
} label;

static label cfg_name(sk_shape shape, const tile_cfg *c)
{
    label l;
    snprintf(l.s, sizeof l.s, "%s shape, %s", skt_shape_name(shape), c->name);
    return l;
}

/* float64 on a device without fp64: every entry point says SK_E_UNSUPPORTED
 * and leaves the output alone; then the test is skipped. */
static void skip_unless_fp64(void)
{
    if (skt_has_fp64())
        return;
    cl_mem s = skt_buf_new(64 * 8), d = skt_buf_new(64 * 8);
    unsigned char out[64 * 8], res[8];
    skt_buf_poison(d, sizeof out);
    skt_poison(res, sizeof res);
    SKT_EXPECT_STATUS(sk_scan_inclusive(skt_ctx, SK_FLOAT64, SK_OP_ADD, s, d, 64),
                      SK_E_UNSUPPORTED);
    SKT_EXPECT_STATUS(sk_scan_exclusive(skt_ctx, SK_FLOAT64, SK_OP_ADD, s, d, 64),
                      SK_E_UNSUPPORTED);
    SKT_EXPECT_STATUS(sk_reduce(skt_ctx, SK_FLOAT64, SK_OP_ADD, s, 64, res),
                      SK_E_UNSUPPORTED);
    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1);
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);
    skt_buf_free(s);
    skt_buf_free(d);
    cr_skip_test("device has no fp64 (SK_E_UNSUPPORTED checked)");
}

/* ---- launches by path ------------------------------------------------------------ */

/* The kernels of one scan call with the path forced (a built-in 4-byte
 * type): look-back forced, only the one-pass kernel and the single one,
 * except in place in the CPU shape (reduce-then-scan there, never the
 * one-pass kernel); reduce-then-scan forced, never the one-pass kernel. */
static void expect_path_taken(sk_scan_path path, sk_shape shape, int in_place,
                              const skt_launches *c, const char *what)
{
    int one_pass = path == SK_SCAN_PATH_LOOKBACK && !(shape == SK_SHAPE_CPU && in_place);
    if (one_pass)
        cr_assert_eq(c->other, 0ul, "%s: %lu launches of reduce-then-scan kernels", what,
                     c->other);
    else if (path != SK_SCAN_PATH_AUTO)
        cr_assert_eq(c->lookback, 0ul, "%s: %lu look-back launches", what, c->lookback);
}

/* Every size for one op, inclusive and exclusive, in place and out of place
 * alternately; with a forced path, checks every call's kernels and that the
 * forced path ran at all. */
static void scan_sizes(sk_type t, sk_op op, sk_scan_path path, const size_list *sizes,
                       const char *cfg)
{
    sk_shape shape = (sk_shape)skt_get_param(SK_PARAM_SHAPE);
    skt_launches all = {0};
    for (int excl = 0; excl < 2; excl++)
        for (size_t i = 0; i < sizes->count; i++) {
            int in_place = (int)((i + excl) & 1);
            skt_launches c = {0};
            skt_count_launches(&c);
            check_scan(t, op, excl, sizes->v[i], in_place, cfg);
            skt_count_launches(NULL);
            expect_path_taken(path, shape, in_place, &c,
                              skt_fmt("%s %s n=%zu, %s%s", sk_type_name(t), OP_NAMES[op],
                                      sizes->v[i], cfg, in_place ? ", in place" : ""));
            all.lookback += c.lookback;
            all.other += c.other;
        }
    const char *what = skt_fmt("%s %s, %s", sk_type_name(t), OP_NAMES[op], cfg);
    if (path == SK_SCAN_PATH_LOOKBACK)
        cr_assert_gt(all.lookback, 0ul, "%s: the look-back kernel never ran", what);
    else if (path == SK_SCAN_PATH_REDUCE_THEN_SCAN)
        cr_assert_gt(all.other, 0ul, "%s: no reduce-then-scan launch", what);
}

/* Every op of type t, inclusive and exclusive, every tile setting, every size,
 * in place and out of place alternately, in one shape; `path` forced unless
 * AUTO (then the context's own setting stays). */
static void scan_edges_on(sk_type t, sk_shape shape, sk_scan_path path)
{
    if (t == SK_FLOAT64)
        skip_unless_fp64();
    skt_force_shape(shape);
    if (path != SK_SCAN_PATH_AUTO)
        skt_force_scan_path(path);
    for (size_t c = 0; c < N_TILE_CFGS; c++) {
        apply_tiles(&TILE_CFGS[c]);
        size_list sizes = {.count = 0};
        base_sizes(&sizes, TILE_CFGS[c].max_n);
        tile_sizes(&sizes, shape, TILE_CFGS[c].max_n);
        sort_sizes(&sizes);
        label cfg = cfg_name(shape, &TILE_CFGS[c]);
        if (path != SK_SCAN_PATH_AUTO)
            snprintf(cfg.s + strlen(cfg.s), sizeof cfg.s - strlen(cfg.s), ", %s forced",
                     skt_scan_path_name(path));
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported(t, (sk_op)op))
                continue;
            if (TILE_CFGS[c].add_only && op != SK_OP_ADD)
                continue;
            scan_sizes(t, (sk_op)op, path, &sizes, cfg.s);
        }
    }
    if (path != SK_SCAN_PATH_AUTO)
        skt_force_scan_path(SK_SCAN_PATH_AUTO);
}

static void scan_edges(sk_type t, sk_shape shape) { scan_edges_on(t, shape, SK_SCAN_PATH_AUTO); }

#define SCAN_EDGE_TESTS(tname, T)                                                   \
    Test(scan, tname##_scans_should_match_reference_at_tile_edges_in_cpu_shape)     \
    {                                                                               \
        scan_edges(T, SK_SHAPE_CPU);                                                \
    }                                                                               \
    Test(scan, tname##_scans_should_match_reference_at_tile_edges_in_gpu_shape)     \
    {                                                                               \
        scan_edges(T, SK_SHAPE_GPU);                                                \
    }

SCAN_EDGE_TESTS(int32, SK_INT32)
SCAN_EDGE_TESTS(uint32, SK_UINT32)
SCAN_EDGE_TESTS(int64, SK_INT64)
SCAN_EDGE_TESTS(uint64, SK_UINT64)
SCAN_EDGE_TESTS(float32, SK_FLOAT32)
SCAN_EDGE_TESTS(float64, SK_FLOAT64)

/* Each shape with the scan path forced each way (4-byte types: the
 * look-back takes no wider element), at the same sizes and tiles. Float add
 * and mul by look-back are still compared exactly, and that is the right
 * bound, not a lucky one: skt_fill makes every sub-range sum a multiple of
 * 1/4 of magnitude at most 2^22 (24 significant bits) and every sub-range
 * product +-2^e with |e| <= 120, all exact in float32, so every association
 * the look-back can take yields exactly the serial reference. Rounded sums
 * are held to an a-priori bound below (lookback_sum_bound). */
#define SCAN_PATH_TESTS(tname, T)                                                      \
    Test(scan, tname##_scans_should_match_reference_at_tile_edges_by_lookback)         \
    {                                                                                  \
        scan_edges_on(T, SK_SHAPE_GPU, SK_SCAN_PATH_LOOKBACK);                         \
    }                                                                                  \
    Test(scan, tname##_scans_should_match_reference_at_tile_edges_by_reduce_then_scan) \
    {                                                                                  \
        scan_edges_on(T, SK_SHAPE_GPU, SK_SCAN_PATH_REDUCE_THEN_SCAN);                 \
    }                                                                                  \
    Test(scan, tname##_scans_should_match_reference_at_chunk_edges_by_lookback_in_cpu_shape) \
    {                                                                                  \
        scan_edges_on(T, SK_SHAPE_CPU, SK_SCAN_PATH_LOOKBACK);                         \
    }                                                                                  \
    Test(scan, tname##_scans_should_match_reference_at_chunk_edges_by_reduce_then_scan_in_cpu_shape) \
    {                                                                                  \
        scan_edges_on(T, SK_SHAPE_CPU, SK_SCAN_PATH_REDUCE_THEN_SCAN);                 \
    }

SCAN_PATH_TESTS(int32, SK_INT32)
SCAN_PATH_TESTS(uint32, SK_UINT32)
SCAN_PATH_TESTS(float32, SK_FLOAT32)

/* scankit.h: AUTO takes the look-back where the result cannot depend on the
 * combining order (integer operators, float min and max) for elements of at
 * most 4 bytes, reduce-then-scan otherwise. */
static int auto_takes_lookback(sk_type t, sk_op op)
{
    if (skt_ref_type_size(t) > 4)
        return 0;
    return t != SK_FLOAT32 || op == SK_OP_MIN || op == SK_OP_MAX;
}

/* AUTO in one shape for every type x op: the look-back exactly where
 * auto_takes_lookback says, and in the CPU shape never in place. */
static void auto_path(sk_shape shape)
{
    /* 300007 elements span dozens of default GPU tiles (a default scan tile
     * holds at most 32 KiB) and several default CPU chunks: past the single
     * work-group or work-item. */
    const size_t n = 300007;
    int fp64 = skt_has_fp64();
    skt_force_shape(shape);
    skt_force_scan_path(SK_SCAN_PATH_AUTO);
    skt_tiles_default();
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !fp64)
            continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op))
                continue;
            for (int in_place = 0; in_place < 2; in_place++) {
                skt_launches c = {0};
                skt_count_launches(&c);
                check_scan((sk_type)t, (sk_op)op, op & 1, n, in_place,
                           skt_fmt("%s shape, auto path", skt_shape_name(shape)));
                skt_count_launches(NULL);
                int want = auto_takes_lookback((sk_type)t, (sk_op)op) &&
                           !(shape == SK_SHAPE_CPU && in_place);
                cr_assert_eq(c.lookback > 0, want,
                             "%s %s n=%zu, %s shape%s: AUTO %s the look-back (%lu launches)",
                             sk_type_name(t), OP_NAMES[op], n, skt_shape_name(shape),
                             in_place ? ", in place" : "", want ? "did not take" : "took",
                             c.lookback);
            }
        }
    }
}

Test(scan, auto_scan_path_should_take_lookback_exactly_where_the_order_cannot_matter)
{
    auto_path(SK_SHAPE_GPU);
}

Test(scan, auto_scan_path_should_take_lookback_exactly_where_the_order_cannot_matter_in_cpu_shape)
{
    auto_path(SK_SHAPE_CPU);
}

/* The CPU shape's look-back with its fallback forced by a test hook
 * (sk_testing.h) on the fixture's context, the path forced to look-back,
 * uint32 and int32 (every op) and float32 min at chunk edges with 3 and 64
 * chunks up to 70000 elements and 1000 chunks up to 5000 (chunks of one
 * element at small n; with every predecessor reduced again a scan costs
 * chunks / 2 times a plain one), no serial path, inclusive and exclusive,
 * out of place (the one pass) and in place (reduce-then-scan) alternately. */
static void cpu_lookback_forced_fallback(unsigned hooks)
{
    static const struct {
        long chunks;
        size_t max_n;
    } cfgs[] = {{3, 70000}, {64, 70000}, {1000, 5000}};
    SKT_OK(sk__test_set_hooks(skt_ctx, hooks));
    skt_force_shape(SK_SHAPE_CPU);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        size_t chunks = (size_t)cfgs[k].chunks, max_n = cfgs[k].max_n;
        skt_tiles_set(0, 0, cfgs[k].chunks, 1);
        size_list sizes = {.count = 0};
        base_sizes(&sizes, max_n);
        static const size_t ks[] = {1, 2, 3, 10};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            add_edges(&sizes, chunks, ks[i], max_n);
        sort_sizes(&sizes);
        label cfg;
        snprintf(cfg.s, sizeof cfg.s, "cpu shape, %zu chunks, look-back forced, hook %s",
                 chunks, sk__test_hook_name(hooks));
        for (int op = 0; op < SK_OP_COUNT; op++) {
            scan_sizes(SK_UINT32, (sk_op)op, SK_SCAN_PATH_LOOKBACK, &sizes, cfg.s);
            scan_sizes(SK_INT32, (sk_op)op, SK_SCAN_PATH_LOOKBACK, &sizes, cfg.s);
        }
        scan_sizes(SK_FLOAT32, SK_OP_MIN, SK_SCAN_PATH_LOOKBACK, &sizes, cfg.s);
    }
    SKT_OK(sk__test_set_hooks(skt_ctx, 0));
}

/* The CPU shape's look-back past the size from which it writes with
 * non-temporal stores (outputs of 16 MiB and more, primitives/tuning.c):
 * with the default chunks and with 7 chunks (chunk starts not 16-byte
 * aligned, so each chunk's 4-lane stores start after a scalar head), 4-byte
 * types with the 4-lane scan (uint32 add, int32 max, float32 min) and
 * without it (float32 add: one element at a time), inclusive and exclusive,
 * out of place; the trace shows the non-temporal stores were asked for (on
 * CPU devices: the only ones that get them). */
Test(scan, cpu_lookback_should_match_reference_past_the_streaming_store_size)
{
    static const struct {
        sk_type t;
        sk_op op;
    } cases[] = {{SK_UINT32, SK_OP_ADD}, {SK_INT32, SK_OP_MAX}, {SK_FLOAT32, SK_OP_MIN},
                 {SK_FLOAT32, SK_OP_ADD}};
    static const long chunk_counts[] = {0, 7};
    const size_t n = ((size_t)1 << 23) + 4099;
    sk_device_desc dev;
    SKT_OK(sk_context_device(skt_ctx, &dev));
    const unsigned long want_streamed = dev.is_gpu ? 0 : 1;
    skt_force_shape(SK_SHAPE_CPU);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    for (size_t k = 0; k < sizeof chunk_counts / sizeof chunk_counts[0]; k++) {
        skt_tiles_set(0, 0, chunk_counts[k], 0);
        label cfg;
        snprintf(cfg.s, sizeof cfg.s, "cpu shape, %s chunks, look-back forced",
                 chunk_counts[k] ? "7" : "default");
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            for (int excl = 0; excl < 2; excl++) {
                skt_launches c = {0};
                skt_count_launches(&c);
                check_scan(cases[i].t, cases[i].op, excl, n, 0, cfg.s);
                skt_count_launches(NULL);
                const char *what = skt_fmt("%s %s n=%zu, %s", sk_type_name(cases[i].t),
                                           OP_NAMES[cases[i].op], n, cfg.s);
                expect_path_taken(SK_SCAN_PATH_LOOKBACK, SK_SHAPE_CPU, 0, &c, what);
                cr_assert_eq(c.lookback, 1ul, "%s: %lu look-back launches", what, c.lookback);
                cr_assert_eq(c.streamed, want_streamed, "%s: %lu launches with non-temporal "
                             "stores on a %s device", what, c.streamed, dev.is_gpu ? "GPU" : "CPU");
            }
    }
}

Test(scan, cpu_lookback_should_match_reference_when_every_predecessor_is_reduced_again)
{
    cpu_lookback_forced_fallback(SK__TEST_LB_REDUCE_ALL);
}

Test(scan, cpu_lookback_should_match_reference_when_chunks_are_taken_last_first)
{
    cpu_lookback_forced_fallback(SK__TEST_LB_REVERSE_CHUNKS);
}

/* ~2^22 elements: every type x op, inclusive and exclusive, default tiles. */
static void scan_large(sk_shape shape, int in_place)
{
    int fp64 = skt_has_fp64();
    skt_force_shape(shape);
    skt_tiles_default();
    const label cfg = cfg_name(shape, &TILE_CFGS[0]);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !fp64)
            continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op))
                continue;
            /* Not exactly 2^22: a ragged last tile. */
            size_t n = LARGE_N + 1 + (size_t)skt_rand_below(4096);
            check_scan((sk_type)t, (sk_op)op, (t + op) & 1, n, in_place, cfg.s);
            check_scan((sk_type)t, (sk_op)op, !((t + op) & 1), n, !in_place, cfg.s);
        }
    }
}

Test(scan, every_type_and_op_should_match_reference_at_4M_elements_in_cpu_shape)
{
    scan_large(SK_SHAPE_CPU, 0);
}

Test(scan, every_type_and_op_should_match_reference_at_4M_elements_in_gpu_shape)
{
    scan_large(SK_SHAPE_GPU, 1);
}

/* Extreme tile settings: one-item tiles (a scan must still make progress),
 * two-item tiles (log2(n) recursion levels), more CPU chunks than elements. */
static void scan_extreme_tiles(sk_shape shape, long wg, long ipt, long chunks, long serial,
                               size_t max_n, int reduce)
{
    skt_force_shape(shape);
    skt_tiles_set(wg, ipt, chunks, serial);
    label cfg;
    snprintf(cfg.s, sizeof cfg.s, "%s shape, wg %ld x %ld, %ld chunks, serial below %ld",
             skt_shape_name(shape), wg, ipt, chunks, serial);
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                   63, 64, 65, 100, 127, 128, 129, 1000, 1023, 1024, 1025,
                                   4097, 65535, 65536, 65537, 100000};
    static const sk_type types[] = {SK_UINT32, SK_INT64, SK_FLOAT32};
    static const sk_op ops[] = {SK_OP_ADD, SK_OP_MIN, SK_OP_MUL};
    for (size_t k = 0; k < 3; k++) {
        if (reduce) {
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                if (sizes[i] <= max_n)
                    check_reduce(types[k], ops[k], sizes[i], cfg.s);
            continue;
        }
        for (int excl = 0; excl < 2; excl++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                if (sizes[i] <= max_n)
                    check_scan(types[k], ops[k], excl, sizes[i], (int)(i & 1), cfg.s);
    }
}

Test(scan, should_match_reference_with_one_item_tiles_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 1, 1, 0, 0, 5000, 0);
}

Test(scan, should_match_reference_with_two_item_tiles_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 2, 1, 0, 0, 100000, 0);
}

Test(scan, should_match_reference_with_largest_work_groups_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 1024, 64, 0, 0, 100000, 0);
}

Test(scan, should_match_reference_with_non_power_of_two_items_per_thread_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 8, 7, 0, 0, 100000, 0);
    scan_extreme_tiles(SK_SHAPE_GPU, 32, 3, 0, 0, 100000, 0);
}

Test(scan, should_match_reference_with_more_chunks_than_elements_in_cpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_CPU, 0, 0, 4096, 1, 100000, 0);
}

Test(scan, should_match_reference_with_one_chunk_in_cpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_CPU, 0, 0, 1, 1, 100000, 0);
}

Test(scan, should_match_reference_when_the_serial_path_covers_everything_in_cpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_CPU, 0, 0, 0, 1L << 20, 100000, 0);
}

Test(reduce, should_match_reference_with_one_item_tiles_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 1, 1, 0, 0, 5000, 1);
}

Test(reduce, should_match_reference_with_two_item_tiles_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 2, 1, 0, 0, 100000, 1);
}

Test(reduce, should_match_reference_with_largest_work_groups_in_gpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_GPU, 1024, 64, 0, 0, 100000, 1);
}

Test(reduce, should_match_reference_with_more_chunks_than_elements_in_cpu_shape)
{
    scan_extreme_tiles(SK_SHAPE_CPU, 0, 0, 4096, 1, 100000, 1);
}

/* ---- determinism ------------------------------------------------------------------ */

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

static void determinism(sk_type t, sk_shape shape, int small)
{
    if (t == SK_FLOAT64)
        skip_unless_fp64();
    size_t n = 3000017, es = skt_ref_type_size(t), bytes = n * es;
    unsigned char *src = skt_malloc(bytes), *r1 = skt_malloc(bytes), *r2 = skt_malloc(bytes),
                  *r3 = skt_malloc(bytes), *ref = skt_malloc(bytes);
    skt_fill_float_noisy(t, src, n);
    if (small) {
        n = 200003;
        bytes = n * es;
    }
    const char *what = skt_fmt("%s add on noisy data, %s shape%s", sk_type_name(t),
                               skt_shape_name(shape), small ? ", small tiles" : "");

    for (int excl = 0; excl < 2; excl++) {
        skt_force_shape(shape);
        if (small)
            skt_tiles_small();
        cl_mem s = skt_buf_new(bytes), d = skt_buf_new(bytes);
        skt_buf_upload(s, 0, src, bytes);
        skt_buf_poison(d, bytes);
        SKT_OK(scan_mem(t, SK_OP_ADD, excl, s, d, n));
        skt_buf_download(d, 0, r1, bytes);
        skt_buf_poison(d, bytes);
        SKT_OK(scan_mem(t, SK_OP_ADD, excl, s, d, n));
        skt_buf_download(d, 0, r2, bytes);
        skt_buf_free(s);
        skt_buf_free(d);

        /* A fresh context on the same device and shape. */
        sk_context *ctx1 = skt_ctx, *ctx2 = NULL;
        SKT_OK(sk_context_create(&ctx2, NULL));
        skt_ctx = ctx2;
        skt_force_shape(shape);
        if (small)
            skt_tiles_small();
        s = skt_buf_new(bytes);
        d = skt_buf_new(bytes);
        skt_buf_upload(s, 0, src, bytes);
        skt_buf_poison(d, bytes);
        SKT_OK(scan_mem(t, SK_OP_ADD, excl, s, d, n));
        skt_buf_download(d, 0, r3, bytes);
        skt_buf_free(s);
        skt_buf_free(d);
        sk_context_free(ctx2);
        skt_ctx = ctx1;

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

Test(scan, float32_add_should_be_bit_identical_run_to_run_in_cpu_shape)
{
    determinism(SK_FLOAT32, SK_SHAPE_CPU, 0);
}
Test(scan, float32_add_should_be_bit_identical_run_to_run_in_gpu_shape)
{
    determinism(SK_FLOAT32, SK_SHAPE_GPU, 0);
}
Test(scan, float32_add_should_be_bit_identical_run_to_run_with_small_tiles)
{
    determinism(SK_FLOAT32, SK_SHAPE_GPU, 1);
    determinism(SK_FLOAT32, SK_SHAPE_CPU, 1);
}
Test(scan, float64_add_should_be_bit_identical_run_to_run_in_both_shapes)
{
    determinism(SK_FLOAT64, SK_SHAPE_CPU, 0);
    determinism(SK_FLOAT64, SK_SHAPE_GPU, 0);
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
            SKT_OK(scan_mem(t, SK_OP_ADD, excl, s, d, n));
            skt_count_launches(NULL);
            expect_path_taken(SK_SCAN_PATH_LOOKBACK, shape, 0, &c, what);
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

Test(scan, float32_add_by_lookback_should_stay_within_the_summation_error_bound)
{
    lookback_sum_bound(SK_FLOAT32, SK_SHAPE_GPU, 0);
    lookback_sum_bound(SK_FLOAT32, SK_SHAPE_GPU, 1);
}

Test(scan, float32_add_by_lookback_should_stay_within_the_summation_error_bound_in_cpu_shape)
{
    lookback_sum_bound(SK_FLOAT32, SK_SHAPE_CPU, 0);
    lookback_sum_bound(SK_FLOAT32, SK_SHAPE_CPU, 1);
}

/* ---- reduce ----------------------------------------------------------------------- */

/* Every type x op with one tile setting (large n with the default tiles). */
static void reduce_all(sk_shape shape, size_t c)
{
    int fp64 = skt_has_fp64();
    skt_force_shape(shape);
    apply_tiles(&TILE_CFGS[c]);
    size_list sizes = {.count = 0};
    base_sizes(&sizes, TILE_CFGS[c].max_n);
    tile_sizes(&sizes, shape, TILE_CFGS[c].max_n);
    sort_sizes(&sizes);
    const label cfg = cfg_name(shape, &TILE_CFGS[c]);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !fp64)
            continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op))
                continue;
            if (TILE_CFGS[c].add_only && op != SK_OP_ADD)
                continue;
            /* every other size keeps the number of launches in check */
            for (size_t i = (size_t)(t + op) & 1; i < sizes.count; i += 2)
                check_reduce((sk_type)t, (sk_op)op, sizes.v[i], cfg.s);
            check_reduce((sk_type)t, (sk_op)op, 0, cfg.s);
            check_reduce((sk_type)t, (sk_op)op, 1, cfg.s);
            if (c == 0)
                check_reduce((sk_type)t, (sk_op)op, LARGE_N + 3, cfg.s);
        }
    }
}

Test(reduce, every_type_and_op_should_match_reference_in_cpu_shape)
{
    reduce_all(SK_SHAPE_CPU, 0);
}

Test(reduce, every_type_and_op_should_match_reference_in_cpu_shape_with_small_tiles)
{
    reduce_all(SK_SHAPE_CPU, 1);
    reduce_all(SK_SHAPE_CPU, 2);
}

Test(reduce, every_type_and_op_should_match_reference_in_gpu_shape)
{
    reduce_all(SK_SHAPE_GPU, 0);
}

Test(reduce, every_type_and_op_should_match_reference_in_gpu_shape_with_small_tiles)
{
    reduce_all(SK_SHAPE_GPU, 1);
    reduce_all(SK_SHAPE_GPU, 2);
}

Test(reduce, should_return_the_identity_for_zero_elements)
{
    int fp64 = skt_has_fp64();
    cl_mem s = skt_buf_new(64);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !fp64)
            continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op))
                continue;
            unsigned char want[8], got[8];
            skt_ref_identity((sk_type)t, (sk_op)op, want);
            skt_poison(got, sizeof got);
            SKT_OK(sk_reduce(skt_ctx, (sk_type)t, (sk_op)op, s, 0, got));
            skt_expect_elems((sk_type)t, got, want, 1,
                             skt_fmt("reduce %s %s n=0", sk_type_name(t), OP_NAMES[op]));
            skt_poison(got, sizeof got);
            SKT_OK(sk_reduce_host(skt_ctx, (sk_type)t, (sk_op)op, got /* unused */, 0, got));
            skt_expect_elems((sk_type)t, got, want, 1,
                             skt_fmt("reduce_host %s %s n=0", sk_type_name(t), OP_NAMES[op]));
        }
    }
    skt_buf_free(s);
}

Test(scan, exclusive_scans_should_start_with_the_identity_of_each_op)
{
    /* Pins identity(op): add 0 (-0.0 for floats, whose sign test_ieee.c pins),
     * mul 1, min the largest value (+inf for floats), max the smallest (-inf),
     * and all ones, or/xor 0. */
    int fp64 = skt_has_fp64();
    cl_mem s = skt_buf_new(8 * 8), d = skt_buf_new(8 * 8);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !fp64)
            continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op))
                continue;
            size_t es = skt_ref_type_size((sk_type)t);
            unsigned char in[8 * 8], want[8 * 8], got[8 * 8];
            skt_fill((sk_type)t, (sk_op)op, in, 5);
            skt_ref_scan((sk_type)t, (sk_op)op, 1, in, want, 5);
            skt_buf_upload(s, 0, in, 5 * es);
            skt_buf_poison(d, 5 * es);
            SKT_OK(sk_scan_exclusive(skt_ctx, (sk_type)t, (sk_op)op, s, d, 5));
            skt_buf_download(d, 0, got, 5 * es);
            skt_expect_elems((sk_type)t, got, want, 5,
                             skt_fmt("exclusive %s %s n=5", sk_type_name(t), OP_NAMES[op]));
        }
    }
    skt_buf_free(s);
    skt_buf_free(d);
}

/* ---- host-array forms ------------------------------------------------------------------ */

static void host_forms(sk_shape shape)
{
    static const size_t sizes[] = {0, 1, 2, 3, 1000, 4097, 65537, 300007};
    int fp64 = skt_has_fp64();
    skt_force_shape(shape);
    size_t maxn = 300007 + GUARD;
    unsigned char *src = skt_malloc(maxn * 8), *ref = skt_malloc(maxn * 8),
                  *out = skt_malloc(maxn * 8), *keep = skt_malloc(maxn * 8);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !fp64)
            continue;
        size_t es = skt_ref_type_size((sk_type)t);
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op))
                continue;
            for (int excl = 0; excl < 2; excl++) {
                for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                    size_t n = sizes[i];
                    const char *what =
                        skt_fmt("host %s %s %s n=%zu %s shape", sk_type_name(t), OP_NAMES[op],
                                excl ? "exclusive" : "inclusive", n, skt_shape_name(shape));
                    skt_fill((sk_type)t, (sk_op)op, src, n);
                    skt_ref_scan((sk_type)t, (sk_op)op, excl, src, ref, n);
                    memcpy(keep, src, n * es);

                    /* out of place */
                    skt_poison(out, (n + GUARD) * es);
                    SKT_OK(scan_host((sk_type)t, (sk_op)op, excl, src, out, n));
                    skt_expect_elems((sk_type)t, out, ref, n, what);
                    cr_assert_eq(skt_find_unpoisoned(out + n * es, GUARD * es), (size_t)-1,
                                 "%s: wrote past n", what);
                    cr_assert_eq(memcmp(src, keep, n * es), 0, "%s: modified src", what);

                    /* in place: dst == src */
                    skt_poison(src + n * es, GUARD * es);
                    SKT_OK(scan_host((sk_type)t, (sk_op)op, excl, src, src, n));
                    skt_expect_elems((sk_type)t, src, ref, n, skt_fmt("%s in place", what));
                    cr_assert_eq(skt_find_unpoisoned(src + n * es, GUARD * es), (size_t)-1,
                                 "%s in place: wrote past n", what);
                }
            }
            /* reduce_host */
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                size_t n = sizes[i];
                unsigned char want[8], got[16];
                skt_fill((sk_type)t, (sk_op)op, src, n);
                skt_ref_reduce((sk_type)t, (sk_op)op, src, n, want);
                skt_poison(got, sizeof got);
                SKT_OK(sk_reduce_host(skt_ctx, (sk_type)t, (sk_op)op, src, n, got));
                skt_expect_elems((sk_type)t, got, want, 1,
                                 skt_fmt("reduce_host %s %s n=%zu %s shape", sk_type_name(t),
                                         OP_NAMES[op], n, skt_shape_name(shape)));
                cr_assert_eq(skt_find_unpoisoned(got + es, sizeof got - es), (size_t)-1);
            }
        }
    }
    free(src);
    free(ref);
    free(out);
    free(keep);
}

Test(scan_host, every_type_and_op_should_match_reference_in_cpu_shape)
{
    host_forms(SK_SHAPE_CPU);
}

Test(scan_host, every_type_and_op_should_match_reference_in_gpu_shape)
{
    host_forms(SK_SHAPE_GPU);
}

/* ---- custom monoids --------------------------------------------------------------------- */

/* MONO_MAT2_LINES: the matrices with identity and combine over several
 * lines (skt_monoid_mat2_lines). */
typedef enum { MONO_MAT2, MONO_MAT2_LINES, MONO_AFFINE } mono_kind;

static const sk_monoid *mono_of(mono_kind k)
{
    switch (k) {
    case MONO_MAT2: return skt_monoid_mat2();
    case MONO_MAT2_LINES: return skt_monoid_mat2_lines();
    case MONO_AFFINE: break;
    }
    return skt_monoid_affine();
}

static void fill_mono(mono_kind k, void *dst, size_t n)
{
    if (k == MONO_AFFINE)
        skt_fill_affine(dst, n);
    else
        skt_fill_mat2(dst, n);
}

static void ref_mono(mono_kind k, int excl, const void *src, void *dst, size_t n)
{
    if (k == MONO_AFFINE)
        skt_ref_affine_scan(excl, src, dst, n);
    else
        skt_ref_mat2_scan(excl, src, dst, n);
}

static void ref_mono_reduce(mono_kind k, const void *src, size_t n, void *out)
{
    if (k == MONO_AFFINE) {
        skt_affine r = skt_ref_affine_reduce(src, n);
        memcpy(out, &r, sizeof r);
    } else {
        skt_mat2 r = skt_ref_mat2_reduce(src, n);
        memcpy(out, &r, sizeof r);
    }
}

static void check_mono(mono_kind k, int excl, size_t n, int in_place, const char *cfg)
{
    const sk_monoid *m = mono_of(k);
    size_t es = m->size, span = (n + GUARD) * es;
    const char *what = skt_fmt("monoid %s %s n=%zu %s%s", m->type,
                               excl ? "exclusive" : "inclusive", n, cfg,
                               in_place ? " in place" : "");
    reserve(span);
    fill_mono(k, B.h_src, n);
    ref_mono(k, excl, B.h_src, B.h_ref, n);
    skt_buf_upload(B.s, 0, B.h_src, n * es);
    cl_mem dst = in_place ? B.s : B.d;
    if (in_place) {
        unsigned char p = SKT_POISON_BYTE;
        skt_buf_fill(B.s, &p, 1, n * es, GUARD * es);
    } else {
        skt_buf_poison(B.d, span);
    }
    sk_status st = excl ? sk_scan_exclusive_monoid(skt_ctx, m, B.s, dst, n)
                        : sk_scan_inclusive_monoid(skt_ctx, m, B.s, dst, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(dst, 0, B.h_out, span);
    skt_expect_bytes(B.h_out, B.h_ref, n, es, what);
    cr_assert_eq(skt_find_unpoisoned(B.h_out + n * es, GUARD * es), (size_t)-1,
                 "%s: wrote past n [seed %llu]", what, (unsigned long long)skt_seed());
    if (!in_place) {
        skt_buf_download(B.s, 0, B.h_out, n * es);
        cr_assert_eq(memcmp(B.h_out, B.h_src, n * es), 0, "%s: input modified", what);
    }

    /* reduce of the same input */
    if (!in_place) {
        unsigned char want[16], got[32];
        ref_mono_reduce(k, B.h_src, n, want);
        skt_poison(got, sizeof got);
        st = sk_reduce_monoid(skt_ctx, m, B.s, n, got);
        cr_assert_eq(st, SK_OK, "reduce %s -> %s (%s)", what, sk_status_name(st),
                     sk_context_error_detail(skt_ctx));
        skt_expect_bytes(got, want, 1, es, skt_fmt("reduce %s", what));
        cr_assert_eq(skt_find_unpoisoned(got + es, sizeof got - es), (size_t)-1,
                     "reduce %s: wrote past the result", what);
    }
}

static void monoid_edges(mono_kind k, sk_shape shape)
{
    skt_force_shape(shape);
    for (size_t c = 0; c < N_TILE_CFGS; c++) {
        apply_tiles(&TILE_CFGS[c]);
        size_list sizes = {.count = 0};
        base_sizes(&sizes, TILE_CFGS[c].max_n);
        tile_sizes(&sizes, shape, TILE_CFGS[c].max_n);
        sort_sizes(&sizes);
        const label cfg = cfg_name(shape, &TILE_CFGS[c]);
        for (int excl = 0; excl < 2; excl++)
            for (size_t i = 0; i < sizes.count; i++)
                check_mono(k, excl, sizes.v[i], (int)((i + excl) & 1), cfg.s);
    }
    skt_tiles_default();
    check_mono(k, 0, ((size_t)1 << 21) + 17, 0, cfg_name(shape, &TILE_CFGS[0]).s);
    check_mono(k, 1, ((size_t)1 << 21) + 17, 1, cfg_name(shape, &TILE_CFGS[0]).s);
}

Test(scan_monoid, matrix_product_should_match_reference_in_cpu_shape)
{
    monoid_edges(MONO_MAT2, SK_SHAPE_CPU);
}
Test(scan_monoid, matrix_product_should_match_reference_in_gpu_shape)
{
    monoid_edges(MONO_MAT2, SK_SHAPE_GPU);
}
Test(scan_monoid, struct_affine_maps_should_match_reference_in_cpu_shape)
{
    monoid_edges(MONO_AFFINE, SK_SHAPE_CPU);
}
Test(scan_monoid, struct_affine_maps_should_match_reference_in_gpu_shape)
{
    monoid_edges(MONO_AFFINE, SK_SHAPE_GPU);
}

/* Identity and combine over several lines with // comments: they build,
 * and scan and reduce as the one-line matrix monoid does, in every program
 * (single work-group or work-item, tiles or chunks, several levels). */
Test(scan_monoid, expressions_over_several_lines_should_match_reference_in_both_shapes)
{
    static const size_t sizes[] = {1, 1000, 65537, 270000};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (size_t c = 0; c < 2; c++) {
            apply_tiles(&TILE_CFGS[c]);
            const label cfg = cfg_name((sk_shape)shape, &TILE_CFGS[c]);
            for (int excl = 0; excl < 2; excl++)
                for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                    if (sizes[i] <= TILE_CFGS[c].max_n)
                        check_mono(MONO_MAT2_LINES, excl, sizes[i], (int)((i + excl) & 1),
                                   cfg.s);
        }
    }
    skt_tiles_default();
}

Test(scan_monoid, host_forms_should_match_reference)
{
    static const size_t sizes[] = {0, 1, 2, 1000, 65537};
    skt_mat2 *src = skt_malloc(70000 * sizeof *src), *ref = skt_malloc(70000 * sizeof *ref),
             *out = skt_malloc((70000 + GUARD) * sizeof *out);
    const sk_monoid *m = skt_monoid_mat2();
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (int excl = 0; excl < 2; excl++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                size_t n = sizes[i];
                const char *what = skt_fmt("monoid host %s n=%zu %s shape",
                                           excl ? "exclusive" : "inclusive", n,
                                           skt_shape_name((sk_shape)shape));
                skt_fill_mat2(src, n);
                skt_ref_mat2_scan(excl, src, ref, n);
                skt_poison(out, (n + GUARD) * sizeof *out);
                SKT_OK(excl ? sk_scan_exclusive_monoid_host(skt_ctx, m, src, out, n)
                            : sk_scan_inclusive_monoid_host(skt_ctx, m, src, out, n));
                skt_expect_bytes(out, ref, n, sizeof *out, what);
                cr_assert_eq(skt_find_unpoisoned(out + n, GUARD * sizeof *out), (size_t)-1,
                             "%s: wrote past n", what);
                skt_mat2 want = skt_ref_mat2_reduce(src, n), got;
                SKT_OK(sk_reduce_monoid_host(skt_ctx, m, src, n, &got));
                skt_expect_bytes(&got, &want, 1, sizeof got, skt_fmt("reduce %s", what));
                /* in place */
                SKT_OK(excl ? sk_scan_exclusive_monoid_host(skt_ctx, m, src, src, n)
                            : sk_scan_inclusive_monoid_host(skt_ctx, m, src, src, n));
                skt_expect_bytes(src, ref, n, sizeof *out, skt_fmt("%s in place", what));
            }
    }
    free(src);
    free(ref);
    free(out);
}

Test(scan_monoid, reduce_of_zero_elements_should_be_the_identity)
{
    cl_mem s = skt_buf_new(64);
    skt_mat2 got, want = skt_ref_mat2_identity();
    skt_poison(&got, sizeof got);
    SKT_OK(sk_reduce_monoid(skt_ctx, skt_monoid_mat2(), s, 0, &got));
    skt_expect_bytes(&got, &want, 1, sizeof got, "mat2 reduce n=0");
    skt_affine ga, wa = skt_ref_affine_identity();
    skt_poison(&ga, sizeof ga);
    SKT_OK(sk_reduce_monoid(skt_ctx, skt_monoid_affine(), s, 0, &ga));
    skt_expect_bytes(&ga, &wa, 1, sizeof ga, "affine reduce n=0");
    skt_buf_free(s);
}

/* A working check that the context is still usable: a uint32 add scan. */
static void expect_context_still_works(const char *after)
{
    skt_tiles_default();
    label cfg;
    snprintf(cfg.s, sizeof cfg.s, "after %s", after);
    check_scan(SK_UINT32, SK_OP_ADD, 0, 10007, 0, cfg.s);
    check_mono(MONO_MAT2, 1, 1001, 0, cfg.s);
}

Test(scan_monoid, syntax_error_should_give_build_error_with_a_log_and_keep_the_context_usable)
{
    sk_monoid bad = *skt_monoid_mat2();
    bad.combine = "skt_mat2_mul(a, b) +* ;";
    cl_mem s = skt_buf_new(100 * 16), d = skt_buf_new(100 * 16);
    unsigned char out[100 * 16], res[32];
    skt_buf_poison(d, sizeof out);
    skt_poison(res, sizeof res);

    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &bad, s, d, 100), SK_E_BUILD);
    const char *log = sk_context_build_log(skt_ctx);
    cr_assert_not_null(log);
    cr_assert_gt(strlen(log), 0, "build log is empty after SK_E_BUILD");
    cr_assert_gt(strlen(sk_context_error_detail(skt_ctx)), 0,
                 "error detail is empty after SK_E_BUILD");
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid(skt_ctx, &bad, s, d, 100), SK_E_BUILD);
    SKT_EXPECT_STATUS(sk_reduce_monoid(skt_ctx, &bad, s, 100, res), SK_E_BUILD);

    /* An undefined function in the identity, a bad preamble. */
    sk_monoid bad2 = *skt_monoid_mat2();
    bad2.identity = "no_such_function_xyz()";
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &bad2, s, d, 100), SK_E_BUILD);
    cr_assert_gt(strlen(sk_context_build_log(skt_ctx)), 0);
    sk_monoid bad3 = *skt_monoid_mat2();
    bad3.preamble = "this is not OpenCL C";
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &bad3, s, d, 100), SK_E_BUILD);
    cr_assert_gt(strlen(sk_context_build_log(skt_ctx)), 0);

    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1,
                 "a failed build wrote to the output buffer");
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1,
                 "a failed build wrote to the reduce result");
    skt_buf_free(s);
    skt_buf_free(d);

    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        expect_context_still_works("a failed build");
    }
}

Test(scan_monoid, size_that_disagrees_with_the_device_should_give_build_error)
{
    cl_mem s = skt_buf_new(100 * 16), d = skt_buf_new(100 * 16);
    unsigned char out[100 * 16];
    skt_buf_poison(d, sizeof out);

    sk_monoid m = *skt_monoid_interval(); /* int2: 8 bytes */
    m.size = 4;
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &m, s, d, 100), SK_E_BUILD);
    m.size = 16;
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid(skt_ctx, &m, s, d, 100), SK_E_BUILD);

    /* int3 is 16 bytes in OpenCL C, 12 would be the naive host guess. */
    sk_monoid m3 = {"int3", 12, "(int3)(0, 0, 0)", "a + b", NULL};
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &m3, s, d, 100), SK_E_BUILD);

    sk_monoid aff = *skt_monoid_affine(); /* 12-byte struct */
    aff.size = 16;
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &aff, s, d, 100), SK_E_BUILD);
    unsigned char res[32];
    SKT_EXPECT_STATUS(sk_reduce_monoid(skt_ctx, &aff, s, 100, res), SK_E_BUILD);

    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1,
                 "a size mismatch wrote to the output buffer");
    skt_buf_free(s);
    skt_buf_free(d);
    expect_context_still_works("a size mismatch");
}

/* ---- errors ------------------------------------------------------------------------------- */

#define BAD_N 100

/* dst (BAD_N uint32s) must still be poisoned. */
static void expect_untouched(cl_mem d, const char *after)
{
    unsigned char out[BAD_N * 8];
    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1,
                 "the output buffer was written by a call that failed (%s)", after);
}

Test(scan_errors, bad_arguments_should_give_invalid_arg_and_leave_the_output_untouched)
{
    cl_mem s = skt_buf_new(BAD_N * 8), d = skt_buf_new(BAD_N * 8);
    unsigned char in[BAD_N * 8];
    skt_fill(SK_UINT32, SK_OP_ADD, in, BAD_N * 2);
    skt_buf_upload(s, 0, in, sizeof in);
    skt_buf_poison(d, BAD_N * 8);
    sk_context *c = skt_ctx;
    const sk_type bad_types[] = {(sk_type)-1, (sk_type)SK_TYPE_COUNT, (sk_type)1000};
    const sk_op bad_ops[] = {(sk_op)-1, (sk_op)SK_OP_COUNT, (sk_op)1000};

    for (int excl = 0; excl < 2; excl++) {
#define SCAN(ctx_, t_, op_, s_, d_, n_)                                                     \
    (excl ? sk_scan_exclusive(ctx_, t_, op_, s_, d_, n_) : sk_scan_inclusive(ctx_, t_, op_, s_, d_, n_))
        SKT_EXPECT_STATUS(SCAN(NULL, SK_UINT32, SK_OP_ADD, s, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, NULL, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, s, NULL, 10), SK_E_INVALID_ARG);
        for (int i = 0; i < 3; i++) {
            SKT_EXPECT_STATUS(SCAN(c, bad_types[i], SK_OP_ADD, s, d, 10), SK_E_INVALID_ARG);
            SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, bad_ops[i], s, d, 10), SK_E_INVALID_ARG);
        }
        /* n larger than either buffer (both hold BAD_N * 8 bytes). */
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, s, d, BAD_N * 2 + 1), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT64, SK_OP_ADD, s, d, BAD_N + 1), SK_E_INVALID_ARG);
        cl_mem small = skt_buf_new(8 * 4);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, small, d, 9), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, s, small, 9), SK_E_INVALID_ARG);
        skt_buf_free(small);
#undef SCAN
    }
    expect_untouched(d, "scan with bad arguments");

    /* reduce */
    unsigned char res[16];
    skt_poison(res, sizeof res);
    SKT_EXPECT_STATUS(sk_reduce(NULL, SK_UINT32, SK_OP_ADD, s, 10, res), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, SK_OP_ADD, NULL, 10, res), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, SK_OP_ADD, s, 10, NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, (sk_type)-1, SK_OP_ADD, s, 10, res), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, (sk_op)SK_OP_COUNT, s, 10, res),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, SK_OP_ADD, s, BAD_N * 2 + 1, res),
                      SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1,
                 "reduce wrote *result on failure");

    /* host forms */
    unsigned char hin[BAD_N * 4], hout[BAD_N * 4];
    skt_fill(SK_UINT32, SK_OP_ADD, hin, BAD_N);
    skt_poison(hout, sizeof hout);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(NULL, SK_UINT32, SK_OP_ADD, hin, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT32, SK_OP_ADD, NULL, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_host(c, SK_UINT32, SK_OP_ADD, hin, NULL, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_host(c, (sk_type)99, SK_OP_ADD, hin, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT32, (sk_op)99, hin, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_host(c, SK_UINT32, SK_OP_ADD, NULL, BAD_N, res),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_host(c, SK_UINT32, SK_OP_ADD, hin, BAD_N, NULL),
                      SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(hout, sizeof hout), (size_t)-1,
                 "a host-form scan wrote dst on failure");
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);

    /* The error detail says something; a later good call clears it. */
    SKT_EXPECT_STATUS(sk_scan_inclusive(c, (sk_type)-1, SK_OP_ADD, s, d, 10),
                      SK_E_INVALID_ARG);
    cr_assert_gt(strlen(sk_context_error_detail(c)), 0,
                 "no error detail after SK_E_INVALID_ARG");
    cr_assert_eq(sk_context_cl_error(c), CL_SUCCESS,
                 "cl_error is set after a non-OpenCL failure");
    expect_untouched(d, "scan with bad arguments");
    skt_buf_free(s);
    skt_buf_free(d);
    expect_context_still_works("bad arguments");
    cr_assert_str_eq(sk_context_error_detail(c), "", "error detail not cleared by success");
}

/* n whose byte size overflows size_t: the header promises SK_E_SIZE. It must
 * never wrap into a small byte count that passes the buffer-size check. */
Test(scan_errors, n_whose_byte_size_overflows_should_give_size)
{
    cl_mem s = skt_buf_new(BAD_N * 16), d = skt_buf_new(BAD_N * 16);
    skt_buf_poison(d, BAD_N * 8);
    sk_context *c = skt_ctx;
    const size_t huge8 = SIZE_MAX / 8 + 2; /* huge8 * 8 wraps to 8 */
    unsigned char res[16], hin[64], hout[64];
    memset(hin, 0, sizeof hin);
    skt_poison(res, sizeof res);
    skt_poison(hout, sizeof hout);
    SKT_EXPECT_STATUS(sk_scan_inclusive(c, SK_UINT64, SK_OP_ADD, s, d, huge8), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_exclusive(c, SK_UINT64, SK_OP_ADD, s, d, huge8), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_inclusive(c, SK_UINT32, SK_OP_ADD, s, d, SIZE_MAX), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT64, SK_OP_ADD, s, huge8, res), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(c, skt_monoid_mat2(), s, d, SIZE_MAX / 16 + 2),
                      SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT64, SK_OP_ADD, hin, hout, huge8),
                      SK_E_SIZE);
    expect_untouched(d, "n * size overflows");
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);
    cr_assert_eq(skt_find_unpoisoned(hout, sizeof hout), (size_t)-1);
    skt_buf_free(s);
    skt_buf_free(d);
}

Test(scan_errors, bad_monoids_should_give_invalid_arg_and_leave_the_output_untouched)
{
    cl_mem s = skt_buf_new(BAD_N * 16), d = skt_buf_new(BAD_N * 16);
    skt_buf_poison(d, BAD_N * 8);
    sk_context *c = skt_ctx;
    const sk_monoid good = *skt_monoid_mat2();
    sk_monoid m;
    unsigned char res[32];
    skt_poison(res, sizeof res);

    for (int excl = 0; excl < 2; excl++) {
#define MSCAN(ctx_, m_, s_, d_, n_)                                                         \
    (excl ? sk_scan_exclusive_monoid(ctx_, m_, s_, d_, n_)                                 \
          : sk_scan_inclusive_monoid(ctx_, m_, s_, d_, n_))
        SKT_EXPECT_STATUS(MSCAN(NULL, &good, s, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(MSCAN(c, NULL, s, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(MSCAN(c, &good, NULL, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(MSCAN(c, &good, s, NULL, 10), SK_E_INVALID_ARG);
        m = good; m.type = NULL;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        m = good; m.identity = NULL;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        m = good; m.combine = NULL;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        m = good; m.size = 0;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        /* buffers hold BAD_N 16-byte elements */
        SKT_EXPECT_STATUS(MSCAN(c, &good, s, d, BAD_N + 1), SK_E_INVALID_ARG);
#undef MSCAN
    }
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, NULL, s, 10, res), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &good, s, 10, NULL), SK_E_INVALID_ARG);
    m = good; m.size = 0;
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &m, s, 10, res), SK_E_INVALID_ARG);
    m = good; m.combine = NULL;
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &m, s, 10, res), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &good, s, BAD_N + 1, res), SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);

    unsigned char hin[BAD_N * 16], hout[BAD_N * 16];
    skt_poison(hout, sizeof hout);
    memset(hin, 0, sizeof hin);
    m = good; m.identity = NULL;
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid_host(c, &m, hin, hout, BAD_N), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid_host(c, &good, NULL, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid_host(c, &good, hin, NULL, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_monoid_host(c, &good, NULL, BAD_N, res), SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(hout, sizeof hout), (size_t)-1);

    expect_untouched(d, "monoid scan with bad arguments");
    skt_buf_free(s);
    skt_buf_free(d);
    expect_context_still_works("bad monoid arguments");
}

Test(scan_errors, bitwise_ops_on_floats_should_be_unsupported)
{
    cl_mem s = skt_buf_new(BAD_N * 8), d = skt_buf_new(BAD_N * 8);
    skt_buf_poison(d, BAD_N * 8);
    unsigned char res[16], hin[BAD_N * 8], hout[BAD_N * 8];
    memset(hin, 0, sizeof hin);
    skt_poison(res, sizeof res);
    skt_poison(hout, sizeof hout);
    const sk_type ft[] = {SK_FLOAT32, SK_FLOAT64};
    const sk_op bops[] = {SK_OP_AND, SK_OP_OR, SK_OP_XOR};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
                SKT_EXPECT_STATUS(sk_scan_inclusive(skt_ctx, ft[i], bops[j], s, d, 10),
                                  SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(sk_scan_exclusive(skt_ctx, ft[i], bops[j], s, d, 10),
                                  SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(sk_reduce(skt_ctx, ft[i], bops[j], s, 10, res),
                                  SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(
                    sk_scan_inclusive_host(skt_ctx, ft[i], bops[j], hin, hout, 10),
                    SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(
                    sk_scan_exclusive_host(skt_ctx, ft[i], bops[j], hin, hout, 10),
                    SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(sk_reduce_host(skt_ctx, ft[i], bops[j], hin, 10, res),
                                  SK_E_UNSUPPORTED);
            }
    }
    expect_untouched(d, "bitwise op on floats");
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);
    cr_assert_eq(skt_find_unpoisoned(hout, sizeof hout), (size_t)-1);
    skt_buf_free(s);
    skt_buf_free(d);
}

Test(scan_errors, float64_without_fp64_should_be_unsupported_else_work)
{
    /* On a device with fp64 this checks a float64 scan works; without, it
     * checks SK_E_UNSUPPORTED everywhere and skips. */
    skip_unless_fp64();
    check_scan(SK_FLOAT64, SK_OP_ADD, 0, 1000, 0, "fp64 device");
}

Test(scan, zero_elements_should_succeed_and_write_nothing)
{
    cl_mem s = skt_buf_new(64), d = skt_buf_new(64);
    unsigned char out[64];
    skt_buf_poison(d, sizeof out);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, 0));
        SKT_OK(sk_scan_exclusive(skt_ctx, SK_FLOAT32, SK_OP_MIN, s, d, 0));
        SKT_OK(sk_scan_exclusive_monoid(skt_ctx, skt_monoid_mat2(), s, d, 0));
        SKT_OK(sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, out, out, 0));
    }
    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "n = 0 wrote output");
    skt_buf_free(s);
    skt_buf_free(d);
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
    SKT_OK(sk_context_create(&c, NULL));
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
