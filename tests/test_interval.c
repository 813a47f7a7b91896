/*
 * test_interval.c - the interval-of-summations test of VERIFY.md (Chong,
 * Donaldson, Ketema, POPL 2014) for every scan variant.
 *
 * The monoid: intervals (i, j) standing for in_i + ... + in_j, the identity
 * and top:
 *   1 + x = x + 1 = x;  T + x = x + T = T;
 *   (i1, j1) + (i2, j2) = (i1, j2) if j1 + 1 == i2, T otherwise.
 * Input in[k] = (k, k); outputs are poisoned with T. Expected: inclusive
 * out[k] = (0, k); exclusive out[0] = identity, out[k] = (0, k - 1). A swapped
 * operand, a dropped or doubled element or a wrong order ends in T or in a
 * wrong interval. For a kernel that is generic in the element type, race free
 * and synchronised by barriers only, passing at n proves the scan correct at n
 * for every monoid.
 *
 * Two encodings of the same monoid, described by an `encoding` (element size,
 * monoid, encode and decode of (i, j)); the host checks decoded values only:
 *   int2     identity (-1, -1), top (-2, -2); indices below 2^31 (n >= 2^31
 *            would need a long2 encoding with the same combine; not needed at
 *            these sizes: 2^31 int2 elements would be 16 GiB).
 *   ushort2  identity (0xFFFF, 0xFFFF), top (0xFFFE, 0xFFFE); indices below
 *            0xFFFE, so n <= 65534. 4 bytes: small enough for the GPU
 *            shape's one-pass look-back scan (kernels/lookback.cl), which
 *            int2 never reaches.
 *
 * Covered, int2 (the scan path left at AUTO: reduce-then-scan for a custom
 * monoid): every n in 0..4096 and 20 random n up to 2^24 (drawn from the
 * printed seed), both shapes, inclusive and exclusive, in place and out of
 * place, default tiles and forced small tiles (GPU work-group 4 x 2 items,
 * CPU 3 chunks, no serial path) so that small n spans many work-groups and
 * several recursion levels; and sk_reduce_monoid, which must give (0, n-1)
 * (in the GPU shape, with the small tiles from n = 25, the reduce in one
 * launch, whose last work-group folds the tiles' totals in a fixed
 * association, so the proof covers it; once more with it off,
 * $SCANKIT_REDUCE_LAST_MAX_TILES=0: one work-group, or a launch per level).
 *
 * Covered, ushort2, GPU shape with SK_PARAM_SCAN_PATH forced to LOOKBACK:
 * every n in 0..4096 and 20 random n up to 65534, inclusive and exclusive, in
 * place and out of place, with four tile settings:
 *   small tiles   wg 4 x 2: up to 8192 tiles, look-back windows of 4 tiles;
 *   wg 64 x 1     a full window of 32 tiles, read by half the work-group;
 *   wg 1 x 8      a window of one tile, which moves back whenever the tile
 *                 before has not found its prefix yet. With wider windows
 *                 that takes more work-groups in flight than a 2-core CPU
 *                 device runs, so only this setting carries a prefix across
 *                 windows there (dropping that carry fails only this one);
 *   wg 32 x 4     whole warps: on NVIDIA GPUs the warp-shuffle work-group
 *                 scan and the one-warp look-back (kernels/warp.cl); and,
 *                 like wg 1 x 8, items a multiple of 4, so full tiles move
 *                 16 bytes per access (the layout default tiles of 4-byte
 *                 elements take).
 * Not with the default tiles: a default scan tile holds thousands of 4-byte
 * elements and up to 8 tiles take the single work-group kernel, so few or
 * none of the n this encoding holds would reach the look-back (test_scan.c
 * takes it there with built-in types). A launch count checks that these
 * scans really ran the look-back kernel and nothing but it and the single
 * work-group kernel. Once more with the path forced to REDUCE_THEN_SCAN
 * (every n, small tiles and wg 32 x 4), so that the encoding itself is
 * shown right on the proved path, and that path in its 16-byte layout.
 *
 * Covered, ushort2, CPU shape with SK_PARAM_SCAN_PATH forced to LOOKBACK
 * (that pass reads predecessor chunks' input, so it runs out of place only;
 * the in-place scans of these variants take reduce-then-scan): every n in
 * 0..4096 and 20 random n up to 65534, with 3 chunks, with 1000 chunks (one
 * element each up to n = 1000: chunks often find a predecessor unpublished
 * and reduce it themselves, as often as timing has it), and with that
 * fallback forced by test hooks (sk__test_set_hooks,
 * primitives/sk_testing.h): reduce-all reads every predecessor as
 * unpublished, reverse-chunks hands chunks out last first (64 chunks for
 * both). Once more with reduce-then-scan forced (3 chunks).
 *
 * The look-back path is tested by this, not proved: tiles pass values
 * through flags and atomics, and which predecessors a tile combines depends
 * on timing, so a run shows one interleaving of many. The one-test proof of
 * VERIFY.md applies to the reduce-then-scan path only.
 *
 * Speed: the n = 0..4096 scans of one variant are enqueued back to back, each
 * into its own sub-buffer of one big output buffer (each n is still its own
 * scan call), then read back once and checked. Every region is followed by at
 * least PAD elements of T that must stay T (writes past n).
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"
#include "sk_testing.h"

TestSuite(interval, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);

#define SMALL_MAX 4096      /* every n in 0..SMALL_MAX */
#define LARGE_MAX ((size_t)1 << 24)
#define N_LARGE 20
#define PAD 16              /* elements after n that must stay top */
#define MAX_ELEM 8          /* bytes in an element of the widest encoding */

/* A decoded element: (i, j), identity (-1, -1) or top (-2, -2). */
typedef skt_interval iv;

static const iv TOP = {SKT_IV_TOP_I, SKT_IV_TOP_I};
static const iv IDENTITY = {SKT_IV_IDENTITY_I, SKT_IV_IDENTITY_I};

/* ---- encodings -------------------------------------------------------------------- */

typedef struct {
    const char *name;
    size_t size;                      /* bytes per element */
    size_t max_n;                     /* the largest n whose indices it holds */
    const sk_monoid *(*monoid)(void);
    void (*put)(void *p, iv v);       /* encodes v at p */
    iv (*get)(const void *p);         /* decodes the element at p */
} encoding;

static void put_int2(void *p, iv v) { memcpy(p, &v, sizeof v); }

static iv get_int2(const void *p)
{
    iv v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint16_t to_u16(int32_t x)
{
    return x == SKT_IV_IDENTITY_I ? SKT_IV16_IDENTITY
           : x == SKT_IV_TOP_I    ? SKT_IV16_TOP
                                  : (uint16_t)x;
}

/* One-to-one: a half-identity such as (0xFFFF, 5) decodes to (-1, 5), which
 * no check accepts. */
static int32_t from_u16(uint16_t x)
{
    return x == SKT_IV16_IDENTITY ? SKT_IV_IDENTITY_I
           : x == SKT_IV16_TOP    ? SKT_IV_TOP_I
                                  : (int32_t)x;
}

static void put_ushort2(void *p, iv v)
{
    uint16_t w[2] = {to_u16(v.i), to_u16(v.j)};
    memcpy(p, w, sizeof w);
}

static iv get_ushort2(const void *p)
{
    uint16_t w[2];
    memcpy(w, p, sizeof w);
    return (iv){from_u16(w[0]), from_u16(w[1])};
}

static const encoding INT2 = {"int2", 8, (size_t)INT32_MAX, skt_monoid_interval, put_int2,
                              get_int2};
static const encoding USHORT2 = {"ushort2", 4, SKT_IV16_TOP, skt_monoid_interval16,
                                 put_ushort2, get_ushort2};

static void *elem_at(const encoding *e, void *base, size_t k)
{
    return (char *)base + k * e->size;
}

static iv elem_get(const encoding *e, const void *base, size_t k)
{
    return e->get((const char *)base + k * e->size);
}

/* ---- expected values ------------------------------------------------------------------ */

static iv expected(int excl, size_t k)
{
    if (excl && k == 0)
        return IDENTITY;
    return (iv){0, (int32_t)(excl ? k - 1 : k)};
}

static int iv_eq(iv a, iv b) { return a.i == b.i && a.j == b.j; }

/* Checks out[0..n) against the expected intervals and out[n..len) for top.
 * Returns the first bad index, or (size_t)-1. */
static size_t check_region(const encoding *e, const void *out, size_t n, size_t len, int excl)
{
    for (size_t k = 0; k < n; k++)
        if (!iv_eq(elem_get(e, out, k), expected(excl, k)))
            return k;
    for (size_t k = n; k < len; k++)
        if (!iv_eq(elem_get(e, out, k), TOP))
            return k;
    return (size_t)-1;
}

/* Input intervals (k, k) for k in [0, n). */
static void fill_input(const encoding *e, void *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        e->put(elem_at(e, p, k), (iv){(int32_t)k, (int32_t)k});
}

static void fill_top(const encoding *e, void *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        e->put(elem_at(e, p, k), TOP);
}

/* Device buffer elements [from, from + count) := top. */
static void buf_fill_top(const encoding *e, cl_mem m, size_t from, size_t count)
{
    unsigned char top[MAX_ELEM];
    e->put(top, TOP);
    skt_buf_fill(m, top, e->size, from * e->size, count * e->size);
}

/* The first n elements of the device buffer `in` must still be (k, k). */
static void expect_input_kept(const encoding *e, cl_mem in, size_t n, const char *what)
{
    void *host = skt_malloc(n * e->size);
    skt_buf_download(in, 0, host, n * e->size);
    for (size_t k = 0; k < n; k++) {
        iv v = elem_get(e, host, k);
        cr_assert(v.i == (int32_t)k && v.j == (int32_t)k,
                  "%s: input element %zu modified by an out-of-place scan", what, k);
    }
    free(host);
}

/* ---- variants ---------------------------------------------------------------------- */

typedef enum {
    TILES_DEFAULT,
    TILES_SMALL, /* GPU wg 4 x 2 (look-back window of 4), CPU 3 chunks, no serial path */
    TILES_WG64,  /* GPU wg 64 x 1 (look-back window of 32, half the work-group) */
    TILES_WG1,   /* GPU wg 1 x 8 (window of 1 tile: see the top of the file) */
    TILES_WG32,  /* GPU wg 32 x 4 (whole warps, 16-byte tile moves) */
    TILES_CPU_64,  /* CPU 64 chunks, no serial path */
    TILES_CPU_1000 /* CPU 1000 chunks, no serial path */
} tiles;

typedef struct {
    const encoding *enc;
    sk_shape shape;
    tiles tiles;
    sk_scan_path path;
    unsigned hooks;        /* test hooks (sk_testing.h); 0: none */
} variant;

static const char *tiles_name(tiles t)
{
    switch (t) {
    case TILES_DEFAULT: return "default tiles";
    case TILES_SMALL: return "small tiles (wg 4 x 2, 3 chunks)";
    case TILES_WG64: return "tiles of wg 64 x 1";
    case TILES_WG1: return "tiles of wg 1 x 8";
    case TILES_WG32: return "tiles of wg 32 x 4";
    case TILES_CPU_64: return "64 chunks";
    case TILES_CPU_1000: return "1000 chunks";
    }
    return "?";
}

/* Shape, tiles, scan path and test hooks of v on skt_ctx (the path and the
 * hooks are set every time, AUTO and none included, so no setting survives
 * from another variant). */
static void apply_variant(const variant *v)
{
    skt_force_shape(v->shape);
    if (v->tiles == TILES_SMALL)
        skt_tiles_small();
    else if (v->tiles == TILES_WG64)
        skt_tiles_set(64, 1, 0, 0);
    else if (v->tiles == TILES_WG1)
        skt_tiles_set(1, 8, 0, 0);
    else if (v->tiles == TILES_WG32)
        skt_tiles_set(32, 4, 0, 0);
    else if (v->tiles == TILES_CPU_64)
        skt_tiles_set(0, 0, 64, 1);
    else if (v->tiles == TILES_CPU_1000)
        skt_tiles_set(0, 0, 1000, 1);
    else
        skt_tiles_default();
    skt_force_scan_path(v->path);
    SKT_OK(sk__test_set_hooks(skt_ctx, v->hooks));
}

static const char *variant_label(const variant *v)
{
    return skt_fmt("%s, %s shape, %s, %s%s%s", v->enc->name, skt_shape_name(v->shape),
                   tiles_name(v->tiles), skt_scan_path_name(v->path),
                   v->hooks ? ", hook " : "", v->hooks ? sk__test_hook_name(v->hooks) : "");
}

static const char *variant_name(const variant *v, int excl, int in_place)
{
    return skt_fmt("%s, %s, %s", variant_label(v), excl ? "exclusive" : "inclusive",
                   in_place ? "in place" : "out of place");
}

static sk_status scan_iv(const variant *v, int excl, cl_mem s, cl_mem d, size_t n)
{
    const sk_monoid *m = v->enc->monoid();
    return excl ? sk_scan_exclusive_monoid(skt_ctx, m, s, d, n)
                : sk_scan_inclusive_monoid(skt_ctx, m, s, d, n);
}

static void expect_scan_ok(sk_status st, const char *what, size_t n)
{
    cr_assert_eq(st, SK_OK, "%s n=%zu -> %s (%s) [seed %llu]", what, n, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
}

/* ---- launches by kind ---------------------------------------------------------------- */

/* The kernels the scans of v launched (c[0] out of place, c[1] in place).
 * Forced look-back on a 4-byte encoding: only the look-back kernel and the
 * single one, except in place in the CPU shape (reduce-then-scan there,
 * never the look-back), and the look-back kernel at least once when
 * `spans_tiles` (explicit tiles: the largest n spans 64 tiles or more).
 * Otherwise never the look-back kernel (AUTO takes reduce-then-scan for a
 * custom monoid, and int2 is too wide for the look-back), and with
 * reduce-then-scan forced, its kernels when `spans_tiles`. */
static void expect_kernels(const variant *v, const skt_launches c[2], int spans_tiles)
{
    const char *what = variant_label(v);
    int lookback = v->path == SK_SCAN_PATH_LOOKBACK && v->enc->size <= 4;
    if (!lookback) {
        unsigned long lb = c[0].lookback + c[1].lookback;
        cr_assert_eq(lb, 0ul, "%s: %lu look-back launches", what, lb);
        if (v->path == SK_SCAN_PATH_REDUCE_THEN_SCAN && spans_tiles)
            cr_assert_gt(c[0].other + c[1].other, 0ul, "%s: no reduce-then-scan launch", what);
        return;
    }
    int cpu = v->shape == SK_SHAPE_CPU;
    for (int in_place = 0; in_place < 2; in_place++) {
        const char *w = skt_fmt("%s, %s", what, in_place ? "in place" : "out of place");
        if (cpu && in_place)
            cr_assert_eq(c[1].lookback, 0ul, "%s: %lu look-back launches", w, c[1].lookback);
        else
            cr_assert_eq(c[in_place].other, 0ul,
                         "%s: %lu launches of other kernels (reduce-then-scan)", w,
                         c[in_place].other);
    }
    if (spans_tiles)
        cr_assert_gt(c[0].lookback, 0ul, "%s: the look-back kernel never ran", what);
}

static size_t base_align_bytes(const encoding *e)
{
    cl_uint bits = 0;
    cl_int err = clGetDeviceInfo(sk_context_cl_device(skt_ctx), CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                 sizeof bits, &bits, NULL);
    cr_assert_eq(err, CL_SUCCESS);
    size_t bytes = bits / 8;
    return bytes < e->size ? e->size : bytes;
}

/* ---- every n in 0..SMALL_MAX, batched -------------------------------------------- */

typedef struct {
    const encoding *enc;
    size_t off[SMALL_MAX + 1]; /* element offset of region n */
    size_t len[SMALL_MAX + 1]; /* elements in region n (>= n + PAD) */
    size_t total;
    cl_mem big, big_init, in;
    cl_mem sub[SMALL_MAX + 1];
    unsigned char *host;
} batch;

static void batch_layout(batch *b)
{
    size_t align = base_align_bytes(b->enc) / b->enc->size; /* elements */
    size_t off = 0;
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        size_t len = (n + PAD + align - 1) / align * align;
        b->off[n] = off;
        b->len[n] = len;
        off += len;
    }
    b->total = off;
}

static void batch_sub_buffers(batch *b)
{
    size_t es = b->enc->size;
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        cl_buffer_region r = {b->off[n] * es, b->len[n] * es};
        cl_int err = CL_SUCCESS;
        b->sub[n] = clCreateSubBuffer(b->big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                      &r, &err);
        cr_assert_eq(err, CL_SUCCESS, "clCreateSubBuffer(n=%zu) -> %s", n,
                     sk_cl_error_name(err));
    }
}

static batch *batch_new(const encoding *e)
{
    batch *b = skt_malloc(sizeof *b);
    memset(b, 0, sizeof *b);
    b->enc = e;
    batch_layout(b);
    size_t bytes = b->total * e->size;
    b->big = skt_buf_new(bytes);
    b->big_init = skt_buf_new(bytes);
    b->in = skt_buf_new(SMALL_MAX * e->size);
    b->host = skt_malloc(bytes);

    /* In-place layout: each region holds (k, k) then top. */
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        void *region = elem_at(e, b->host, b->off[n]);
        fill_input(e, region, n);
        fill_top(e, elem_at(e, region, n), b->len[n] - n);
    }
    skt_buf_upload(b->big_init, 0, b->host, bytes);
    fill_input(e, b->host, SMALL_MAX);
    skt_buf_upload(b->in, 0, b->host, SMALL_MAX * e->size);
    batch_sub_buffers(b);
    return b;
}

static void batch_free(batch *b)
{
    for (size_t n = 0; n <= SMALL_MAX; n++)
        skt_buf_free(b->sub[n]);
    skt_buf_free(b->big);
    skt_buf_free(b->big_init);
    skt_buf_free(b->in);
    free(b->host);
    free(b);
}

/* Checks every region of the downloaded batch; fails on the first bad n. */
static void batch_check(const batch *b, int excl, const char *what)
{
    const encoding *e = b->enc;
    size_t nbad = 0, first_n = 0, first_k = 0;
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        size_t k = check_region(e, elem_at(e, b->host, b->off[n]), n, b->len[n], excl);
        if (k != (size_t)-1 && nbad++ == 0) {
            first_n = n;
            first_k = k;
        }
    }
    if (!nbad)
        return;
    iv got = elem_get(e, b->host, b->off[first_n] + first_k);
    iv want = first_k < first_n ? expected(excl, first_k) : TOP;
    cr_assert_fail("%s: %zu of %d sizes wrong; first n=%zu: out[%zu] = (%d, %d), "
                   "expected (%d, %d)%s [seed %llu]",
                   what, nbad, SMALL_MAX + 1, first_n, first_k, got.i, got.j, want.i, want.j,
                   first_k >= first_n ? " (written past n)" : "",
                   (unsigned long long)skt_seed());
}

static void run_small(batch *b, const variant *v, int excl, int in_place)
{
    const char *what = variant_name(v, excl, in_place);
    size_t bytes = b->total * b->enc->size;
    cl_command_queue q = sk_context_cl_queue(skt_ctx);

    if (in_place) {
        cl_int err = clEnqueueCopyBuffer(q, b->big_init, b->big, 0, 0, bytes, 0, NULL, NULL);
        cr_assert_eq(err, CL_SUCCESS, "clEnqueueCopyBuffer -> %s", sk_cl_error_name(err));
    } else {
        buf_fill_top(b->enc, b->big, 0, b->total);
    }
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        cl_mem src = in_place ? b->sub[n] : b->in;
        expect_scan_ok(scan_iv(v, excl, src, b->sub[n], n), what, n);
    }
    skt_buf_download(b->big, 0, b->host, bytes);
    batch_check(b, excl, what);
    if (!in_place)
        expect_input_kept(b->enc, b->in, SMALL_MAX, what);
}

static void every_small_n(const variant *v)
{
    batch *b = batch_new(v->enc);
    skt_launches launches[2] = {{0}, {0}};
    apply_variant(v);
    /* In place the withheld tiles publish their totals (sk_testing.h): the
     * paths of the test without the hook, so out of place only. */
    int places = v->hooks & SK__TEST_LB_WITHHOLD ? 1 : 2;
    for (int excl = 0; excl < 2; excl++)
        for (int in_place = 0; in_place < places; in_place++) {
            skt_count_launches(&launches[in_place]);
            run_small(b, v, excl, in_place);
            skt_count_launches(NULL);
        }
    expect_kernels(v, launches, v->tiles != TILES_DEFAULT);
    batch_free(b);
}

/* Test(interval, every_n_up_to_4096_should_NAME): every_small_n on the
 * variant {encoding, shape, tiles, path, hooks}. */
#define SMALL_N_TEST(NAME, ...)                                                  \
    Test(interval, every_n_up_to_4096_should_##NAME)                             \
    {                                                                            \
        every_small_n(&(variant){__VA_ARGS__});                                  \
    }

SMALL_N_TEST(scan_to_contiguous_intervals_in_cpu_shape,
             &INT2, SK_SHAPE_CPU, TILES_DEFAULT, SK_SCAN_PATH_AUTO, 0)

SMALL_N_TEST(scan_to_contiguous_intervals_in_cpu_shape_with_small_tiles,
             &INT2, SK_SHAPE_CPU, TILES_SMALL, SK_SCAN_PATH_AUTO, 0)

SMALL_N_TEST(scan_to_contiguous_intervals_in_gpu_shape,
             &INT2, SK_SHAPE_GPU, TILES_DEFAULT, SK_SCAN_PATH_AUTO, 0)

SMALL_N_TEST(scan_to_contiguous_intervals_in_gpu_shape_with_small_tiles,
             &INT2, SK_SHAPE_GPU, TILES_SMALL, SK_SCAN_PATH_AUTO, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_with_small_tiles,
             &USHORT2, SK_SHAPE_GPU, TILES_SMALL, SK_SCAN_PATH_LOOKBACK, 0)

/* Decoupled fallback: tiles withhold their totals (sk_testing.h), the
 * work-groups after them reduce those tiles themselves after a few polls
 * ($SCANKIT_LB_SPIN). */
Test(interval, every_n_up_to_4096_should_scan_16_bit_intervals_by_lookback_with_small_tiles_when_tiles_withhold_their_totals)
{
    cr_assert_eq(setenv("SCANKIT_LB_SPIN", "16", 1), 0);
    every_small_n(&(variant){&USHORT2, SK_SHAPE_GPU, TILES_SMALL, SK_SCAN_PATH_LOOKBACK,
                             SK__TEST_LB_WITHHOLD});
}

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_with_64_item_work_groups,
             &USHORT2, SK_SHAPE_GPU, TILES_WG64, SK_SCAN_PATH_LOOKBACK, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_with_one_item_work_groups,
             &USHORT2, SK_SHAPE_GPU, TILES_WG1, SK_SCAN_PATH_LOOKBACK, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_with_32_item_work_groups,
             &USHORT2, SK_SHAPE_GPU, TILES_WG32, SK_SCAN_PATH_LOOKBACK, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_reduce_then_scan_with_32_item_work_groups,
             &USHORT2, SK_SHAPE_GPU, TILES_WG32, SK_SCAN_PATH_REDUCE_THEN_SCAN, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_reduce_then_scan_with_small_tiles,
             &USHORT2, SK_SHAPE_GPU, TILES_SMALL, SK_SCAN_PATH_REDUCE_THEN_SCAN, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_in_cpu_shape_with_3_chunks,
             &USHORT2, SK_SHAPE_CPU, TILES_SMALL, SK_SCAN_PATH_LOOKBACK, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_in_cpu_shape_with_1000_chunks,
             &USHORT2, SK_SHAPE_CPU, TILES_CPU_1000, SK_SCAN_PATH_LOOKBACK, 0)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_in_cpu_shape_reducing_every_predecessor_again,
             &USHORT2, SK_SHAPE_CPU, TILES_CPU_64, SK_SCAN_PATH_LOOKBACK, SK__TEST_LB_REDUCE_ALL)

SMALL_N_TEST(scan_16_bit_intervals_by_lookback_in_cpu_shape_taking_chunks_last_first,
             &USHORT2, SK_SHAPE_CPU, TILES_CPU_64, SK_SCAN_PATH_LOOKBACK, SK__TEST_LB_REVERSE_CHUNKS)

SMALL_N_TEST(scan_16_bit_intervals_by_reduce_then_scan_in_cpu_shape_with_3_chunks,
             &USHORT2, SK_SHAPE_CPU, TILES_SMALL, SK_SCAN_PATH_REDUCE_THEN_SCAN, 0)

/* ---- reduce: (0, n-1), identity for n = 0 ------------------------------------------ */

Test(interval, every_n_up_to_4096_should_reduce_to_the_whole_interval)
{
    iv *in = skt_malloc(SMALL_MAX * sizeof(iv));
    fill_input(&INT2, in, SMALL_MAX);
    cl_mem s = skt_buf_new(SMALL_MAX * sizeof(iv));
    skt_buf_upload(s, 0, in, SMALL_MAX * sizeof(iv));
    free(in);
    for (int form = 0; form < 3; form++)
        for (int small = 0; small < 2; small++) {
            /* form 0: CPU shape; 1: GPU shape; 2: GPU shape, no one-launch reduce */
            variant v = {&INT2, form ? SK_SHAPE_GPU : SK_SHAPE_CPU,
                         small ? TILES_SMALL : TILES_DEFAULT, SK_SCAN_PATH_AUTO, 0};
            apply_variant(&v);
            if (form == 2) setenv("SCANKIT_REDUCE_LAST_MAX_TILES", "0", 1);
            const char *what = skt_fmt("reduce, %s shape, %s%s", skt_shape_name(v.shape),
                                       tiles_name(v.tiles), form == 2 ? ", not in one launch" : "");
            for (size_t n = 0; n <= SMALL_MAX; n++) {
                iv got[2] = {TOP, TOP};
                sk_status st = sk_reduce_monoid(skt_ctx, skt_monoid_interval(), s, got, n);
                cr_assert_eq(st, SK_OK, "%s n=%zu -> %s (%s)", what, n, sk_status_name(st),
                             sk_context_error_detail(skt_ctx));
                iv want = n ? (iv){0, (int32_t)n - 1} : IDENTITY;
                cr_assert(iv_eq(got[0], want), "%s n=%zu: (%d, %d), expected (%d, %d)", what, n,
                          got[0].i, got[0].j, want.i, want.j);
                cr_assert(iv_eq(got[1], TOP), "%s n=%zu: wrote past *result", what, n);
            }
            unsetenv("SCANKIT_REDUCE_LAST_MAX_TILES");
        }
    skt_buf_free(s);
}

/* ---- 20 random n up to max_n ---------------------------------------------------------- */

/* Half uniform in [1, max_n], half log-uniform in [2^12, max_n]; the first
 * is max_n exactly. */
static void draw_sizes(size_t *ns, size_t max_n)
{
    double top = log2((double)max_n);
    for (int i = 0; i < N_LARGE; i++) {
        if (i % 2 == 0)
            ns[i] = 1 + (size_t)skt_rand_below(max_n);
        else
            ns[i] = (size_t)exp2(12.0 + (top - 12.0) * skt_rand_unit());
    }
    ns[0] = max_n;
}

typedef struct {
    cl_mem in, out;
    void *host;
} large_bufs;

/* One scan of n elements of `in` into `out` (a copy of `in` when in place),
 * checked with PAD elements of top after it. */
static void run_large(large_bufs *lb, const variant *v, size_t n, int excl, int in_place)
{
    const encoding *e = v->enc;
    const char *what = variant_name(v, excl, in_place);
    if (in_place) {
        cl_int err = clEnqueueCopyBuffer(sk_context_cl_queue(skt_ctx), lb->in, lb->out, 0, 0,
                                         n * e->size, 0, NULL, NULL);
        cr_assert_eq(err, CL_SUCCESS);
        buf_fill_top(e, lb->out, n, PAD);
    } else {
        buf_fill_top(e, lb->out, 0, n + PAD);
    }
    expect_scan_ok(scan_iv(v, excl, in_place ? lb->out : lb->in, lb->out, n), what, n);
    skt_buf_download(lb->out, 0, lb->host, (n + PAD) * e->size);
    size_t k = check_region(e, lb->host, n, n + PAD, excl);
    if (k == (size_t)-1)
        return;
    iv got = elem_get(e, lb->host, k);
    iv want = k < n ? expected(excl, k) : TOP;
    cr_assert_fail("%s n=%zu: out[%zu] = (%d, %d), expected (%d, %d) [seed %llu]", what, n, k,
                   got.i, got.j, want.i, want.j, (unsigned long long)skt_seed());
}

static void random_large_n(const variant *v, size_t max_n)
{
    const encoding *e = v->enc;
    cr_assert_leq(max_n, e->max_n);
    size_t ns[N_LARGE];
    draw_sizes(ns, max_n);

    large_bufs lb = {skt_buf_new(max_n * e->size), skt_buf_new((max_n + PAD) * e->size),
                     skt_malloc((max_n + PAD) * e->size)};
    fill_input(e, lb.host, max_n);
    skt_buf_upload(lb.in, 0, lb.host, max_n * e->size);

    skt_launches launches[2] = {{0}, {0}};
    apply_variant(v);
    for (int i = 0; i < N_LARGE; i++)
        for (int excl = 0; excl < 2; excl++)
            for (int in_place = 0; in_place < 2; in_place++) {
                skt_count_launches(&launches[in_place]);
                run_large(&lb, v, ns[i], excl, in_place);
                skt_count_launches(NULL);
            }
    expect_kernels(v, launches, v->tiles != TILES_DEFAULT);
    expect_input_kept(e, lb.in, max_n, variant_label(v));
    skt_buf_free(lb.in);
    skt_buf_free(lb.out);
    free(lb.host);
}

/* Test(interval, random_n_NAME): random_large_n up to MAX_N on the variant
 * {encoding, shape, tiles, path, hooks}. */
#define LARGE_N_TEST(NAME, MAX_N, ...)                                           \
    Test(interval, random_n_##NAME)                                              \
    {                                                                            \
        random_large_n(&(variant){__VA_ARGS__}, MAX_N);                          \
    }

LARGE_N_TEST(up_to_2_pow_24_should_scan_to_contiguous_intervals_in_cpu_shape, LARGE_MAX, &INT2, SK_SHAPE_CPU, TILES_DEFAULT, SK_SCAN_PATH_AUTO, 0)

LARGE_N_TEST(up_to_2_pow_24_should_scan_to_contiguous_intervals_in_cpu_shape_with_small_tiles, LARGE_MAX, &INT2, SK_SHAPE_CPU, TILES_SMALL, SK_SCAN_PATH_AUTO, 0)

LARGE_N_TEST(up_to_2_pow_24_should_scan_to_contiguous_intervals_in_gpu_shape, LARGE_MAX, &INT2, SK_SHAPE_GPU, TILES_DEFAULT, SK_SCAN_PATH_AUTO, 0)

LARGE_N_TEST(up_to_2_pow_24_should_scan_to_contiguous_intervals_in_gpu_shape_with_small_tiles, LARGE_MAX, &INT2, SK_SHAPE_GPU, TILES_SMALL, SK_SCAN_PATH_AUTO, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_with_one_item_work_groups, USHORT2.max_n, &USHORT2, SK_SHAPE_GPU, TILES_WG1, SK_SCAN_PATH_LOOKBACK, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_with_small_tiles, USHORT2.max_n, &USHORT2, SK_SHAPE_GPU, TILES_SMALL, SK_SCAN_PATH_LOOKBACK, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_with_64_item_work_groups, USHORT2.max_n, &USHORT2, SK_SHAPE_GPU, TILES_WG64, SK_SCAN_PATH_LOOKBACK, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_with_32_item_work_groups, USHORT2.max_n, &USHORT2, SK_SHAPE_GPU, TILES_WG32, SK_SCAN_PATH_LOOKBACK, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_in_cpu_shape_with_3_chunks, USHORT2.max_n, &USHORT2, SK_SHAPE_CPU, TILES_SMALL, SK_SCAN_PATH_LOOKBACK, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_in_cpu_shape_with_1000_chunks, USHORT2.max_n, &USHORT2, SK_SHAPE_CPU, TILES_CPU_1000, SK_SCAN_PATH_LOOKBACK, 0)

LARGE_N_TEST(up_to_65534_should_scan_16_bit_intervals_by_lookback_in_cpu_shape_reducing_every_predecessor_again, USHORT2.max_n, &USHORT2, SK_SHAPE_CPU, TILES_CPU_64, SK_SCAN_PATH_LOOKBACK, SK__TEST_LB_REDUCE_ALL)
