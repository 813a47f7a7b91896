/*
 * test_segscan.c - sk_segscan_inclusive/exclusive, sk_segreduce, their
 * custom-monoid and host-array forms against the serial references in
 * tests/ref/ref_segscan.c.
 *
 * Segments come four ways: uint8 and uint32 head flags, uint32 and uint64
 * offsets (with empty segments: repeated offsets, and offsets equal to n).
 * Every type x op x {inclusive, exclusive} runs in four configurations: CPU
 * and GPU shape, each with default tiles and with small tiles (GPU
 * work-group 4 x 2 items, CPU 3 chunks, no serial path), each way of giving
 * segments in both shapes and in a default and a small-tile one, at sizes
 * from 0 to ~140000 with segment lengths from 1 to the whole array. Outputs
 * are poisoned before every run and checked past n; inputs are checked
 * unchanged.
 *
 * The interval-of-summations test of VERIFY.md restarted at segment heads:
 * in[k] = (k, k), expected inclusive out[k] = (h, k) and exclusive out[h] =
 * identity, out[k] = (h, k - 1), h the head of k's segment; every n in
 * 0..600 and a few larger n, random heads, both shapes, both tile settings,
 * in place and out of place, by flags and by offsets.
 *
 * Float min/max: segments may start with a NaN (IEEE minimum/maximum, a
 * NaN result is the left-most NaN: every element from it to the segment's
 * end is NaN); test_ieee.c pins NaN bits and signed zeros bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_segscan.h"
#include "skt_common.h"

TestSuite(segscan, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segscan_shapes, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segscan_interval, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segreduce, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segscan_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(segscan_host, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

#define GUARD 16 /* elements after the output that must stay poisoned */

static const char *const OP_NAMES[SK_OP_COUNT] = {"add", "mul", "min", "max",
                                                   "and", "or",  "xor"};

/* ---- segmentations --------------------------------------------------------------- */

typedef enum seg_kind { FLAGS8, FLAGS32, OFFS32, OFFS64 } seg_kind;

static const char *const KIND_NAMES[] = {"uint8 flags", "uint32 flags", "uint32 offsets",
                                         "uint64 offsets"};

/* A segmentation of n elements, on the host: the head mask (the reference's
 * view) and the flags or offsets the library gets. */
typedef struct segm {
    seg_kind kind;
    size_t n;
    unsigned char *heads;
    void *desc;      /* flags (n) or offsets (count) */
    size_t count;    /* offsets */
    size_t segments; /* segments the library must report */
} segm;

static int is_offsets(seg_kind k) { return k == OFFS32 || k == OFFS64; }

static void put_offset(segm *s, size_t k, uint64_t v)
{
    if (s->kind == OFFS32) ((uint32_t *)s->desc)[k] = (uint32_t)v;
    else ((uint64_t *)s->desc)[k] = v;
}

/* Flags: nonzero (random bits, high bits too) at heads, 0 elsewhere; flag 0
 * is random (element 0 starts a segment anyway). */
static void make_flags(segm *s)
{
    size_t fs = s->kind == FLAGS8 ? 1 : 4;
    s->desc = skt_malloc(s->n * fs + 1);
    for (size_t i = 0; i < s->n; i++) {
        uint32_t r = (uint32_t)skt_rand();
        uint32_t f = (s->heads[i] || (i == 0 && (r & 1))) ? (r >> 1) | (fs == 1 ? 1u : 0x100u) : 0;
        if (fs == 1) ((uint8_t *)s->desc)[i] = (uint8_t)(f ? (f & 0xFF) | 1u : 0);
        else ((uint32_t *)s->desc)[i] = f;
    }
    s->segments = 0;
    for (size_t i = 0; i < s->n; i++) s->segments += s->heads[i];
}

/* Offsets: one per head, some repeated (empty segments), and sometimes n
 * itself at the end (an empty last segment). `empties` scales how many. */
static void make_offsets(segm *s, int empties)
{
    size_t cap = 2 * s->n + 8, count = 0;
    s->desc = skt_malloc(cap * 8);
    for (size_t i = 0; i < s->n; i++) {
        if (!s->heads[i]) continue;
        put_offset(s, count++, i);
        while (empties && count + 4 < cap && skt_rand_below(4) == 0) put_offset(s, count++, i);
    }
    if (s->n == 0 && (empties || skt_rand_below(2))) put_offset(s, count++, 0);
    while (empties && count + 1 < cap && skt_rand_below(2) == 0) put_offset(s, count++, s->n);
    s->count = count;
    s->segments = count;
}

static void segm_init(segm *s, seg_kind kind, size_t n, unsigned char *heads, int empties)
{
    s->kind = kind;
    s->n = n;
    s->heads = heads;
    s->count = 0;
    if (n) heads[0] = 1;
    if (is_offsets(kind)) make_offsets(s, empties);
    else make_flags(s);
}

static void segm_free(segm *s)
{
    free(s->heads);
    free(s->desc);
    s->heads = NULL;
    s->desc = NULL;
}

/* Head masks. */
static unsigned char *heads_random(size_t n, size_t avg_len)
{
    unsigned char *h = skt_malloc(n + 1);
    for (size_t i = 0; i < n; i++) h[i] = avg_len <= 1 || skt_rand_below(avg_len) == 0;
    return h;
}

static unsigned char *heads_every(size_t n, size_t len)
{
    unsigned char *h = skt_malloc(n + 1);
    for (size_t i = 0; i < n; i++) h[i] = i % len == 0;
    return h;
}

static void segm_random(segm *s, seg_kind kind, size_t n, size_t avg_len)
{
    segm_init(s, kind, n, heads_random(n, avg_len), 1);
}

/* ---- device buffers, reused --------------------------------------------------------- */

static struct {
    size_t cap;
    cl_mem src, dst, desc;
    unsigned char *h_src, *h_ref, *h_out;
} B;

static void reserve(size_t bytes)
{
    if (bytes <= B.cap) return;
    skt_buf_free(B.src);
    skt_buf_free(B.dst);
    skt_buf_free(B.desc);
    free(B.h_src);
    free(B.h_ref);
    free(B.h_out);
    B.cap = bytes;
    B.src = skt_buf_new(bytes);
    B.dst = skt_buf_new(bytes);
    B.desc = skt_buf_new(bytes);
    B.h_src = skt_malloc(bytes);
    B.h_ref = skt_malloc(bytes);
    B.h_out = skt_malloc(bytes);
}

static size_t desc_bytes(const segm *s)
{
    switch (s->kind) {
    case FLAGS8: return s->n;
    case FLAGS32: return s->n * 4;
    case OFFS32: return s->count * 4;
    case OFFS64: return s->count * 8;
    }
    return 0;
}

/* Uploads the segmentation into B.desc and describes it. */
static sk_segments segments_of(const segm *s)
{
    sk_segments d = {NULL, 0, NULL, SK_UINT32, 0};
    if (desc_bytes(s)) skt_buf_upload(B.desc, 0, s->desc, desc_bytes(s));
    if (is_offsets(s->kind)) {
        d.offsets = B.desc;
        d.offset_type = s->kind == OFFS32 ? SK_UINT32 : SK_UINT64;
        d.count = s->count;
    } else {
        d.flags = B.desc;
        d.flag_size = s->kind == FLAGS8 ? 1 : 4;
    }
    return d;
}

static sk_segments_host segments_host_of(const segm *s)
{
    sk_segments_host d = {NULL, 0, NULL, SK_UINT32, 0};
    if (is_offsets(s->kind)) {
        d.offsets = s->desc;
        d.offset_type = s->kind == OFFS32 ? SK_UINT32 : SK_UINT64;
        d.count = s->count;
    } else {
        d.flags = s->desc;
        d.flag_size = s->kind == FLAGS8 ? 1 : 4;
    }
    return d;
}

/* ---- configurations ---------------------------------------------------------------- */

typedef enum cfg { CPU_DEFAULT, CPU_SMALL, GPU_DEFAULT, GPU_SMALL } cfg;

static const char *const CFG_NAMES[] = {"cpu shape, default tiles", "cpu shape, small tiles",
                                        "gpu shape, default tiles", "gpu shape, small tiles"};

static void apply_cfg(cfg c)
{
    skt_force_shape(c == CPU_DEFAULT || c == CPU_SMALL ? SK_SHAPE_CPU : SK_SHAPE_GPU);
    if (c == CPU_SMALL || c == GPU_SMALL) skt_tiles_small();
    else skt_tiles_default();
}

/* ---- one built-in segmented scan, checked ---------------------------------------------- */

static sk_status segscan_mem(sk_type t, sk_op op, int excl, cl_mem s, cl_mem d, size_t n,
                             const sk_segments *seg)
{
    return excl ? sk_segscan_exclusive(skt_ctx, t, op, s, d, n, seg)
                : sk_segscan_inclusive(skt_ctx, t, op, s, d, n, seg);
}

static void check_segscan(sk_type t, sk_op op, int excl, const segm *s, int in_place,
                          const char *cfg_name)
{
    size_t n = s->n, es = skt_ref_type_size(t), span = (n + GUARD) * es;
    const char *what = skt_fmt("%s %s %s n=%zu, %s (%zu segments), %s%s", sk_type_name(t),
                               OP_NAMES[op], excl ? "exclusive" : "inclusive", n,
                               KIND_NAMES[s->kind], s->segments, cfg_name,
                               in_place ? ", in place" : "");
    reserve(span + desc_bytes(s) + 8);
    skt_fill(t, op, B.h_src, n);
    skt_ref_segscan(t, op, excl, B.h_src, B.h_ref, s->heads, n);
    sk_segments seg = segments_of(s);
    cl_mem dst = in_place ? B.src : B.dst;
    skt_buf_poison(B.src, span);
    skt_buf_upload(B.src, 0, B.h_src, n * es);
    if (!in_place) skt_buf_poison(B.dst, span);

    sk_status st = segscan_mem(t, op, excl, B.src, dst, n, &seg);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(dst, 0, B.h_out, span);
    skt_expect_elems(t, B.h_out, B.h_ref, n, what);
    cr_assert_eq(skt_find_unpoisoned(B.h_out + n * es, GUARD * es), (size_t)-1,
                 "%s: wrote past n [seed %llu]", what, (unsigned long long)skt_seed());
    if (!in_place) {
        skt_buf_download(B.src, 0, B.h_out, n * es);
        cr_assert_eq(memcmp(B.h_out, B.h_src, n * es), 0, "%s: the input was modified [seed %llu]",
                     what, (unsigned long long)skt_seed());
    }
}

/* ---- every type x op x inclusive/exclusive, per configuration and kind ------------------- */

static const size_t MATRIX_SIZES[] = {0, 1, 2, 9, 100, 1031, 4099, 33333, 140001};
static const size_t MATRIX_AVG[] = {3, 1, 2, 4, 1000000, 37, 8, 200, 5000};

static void matrix(cfg c, seg_kind kind, int excl)
{
    apply_cfg(c);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op)) continue;
            for (size_t i = 0; i < sizeof MATRIX_SIZES / sizeof MATRIX_SIZES[0]; i++) {
                segm s;
                segm_random(&s, kind, MATRIX_SIZES[i], MATRIX_AVG[i]);
                check_segscan((sk_type)t, (sk_op)op, excl, &s, (int)((i + excl) % 3 == 0),
                              CFG_NAMES[c]);
                segm_free(&s);
            }
        }
    }
}

#define MATRIX_TEST(cname, c, kname, k)                                                   \
    Test(segscan, inclusive_every_type_and_op_should_match_the_reference_##cname##_##kname) \
    {                                                                                     \
        matrix(c, k, 0);                                                                  \
    }                                                                                     \
    Test(segscan, exclusive_every_type_and_op_should_match_the_reference_##cname##_##kname) \
    {                                                                                     \
        matrix(c, k, 1);                                                                  \
    }

/* Each way of giving segments in both shapes, with default and with small
 * tiles (pairwise rather than every combination: the way segments are given
 * decides only how heads are read, the configuration only how the scan is
 * tiled, and every distinct configuration is a kernel build, which is most
 * of this suite's time on PoCL). Offsets become uint8 head flags. */
MATRIX_TEST(cpu_default, CPU_DEFAULT, u8_flags, FLAGS8)
MATRIX_TEST(cpu_default, CPU_DEFAULT, u32_offsets, OFFS32)
MATRIX_TEST(cpu_small_tiles, CPU_SMALL, u32_flags, FLAGS32)
MATRIX_TEST(cpu_small_tiles, CPU_SMALL, u64_offsets, OFFS64)
MATRIX_TEST(gpu_default, GPU_DEFAULT, u32_flags, FLAGS32)
MATRIX_TEST(gpu_default, GPU_DEFAULT, u64_offsets, OFFS64)
MATRIX_TEST(gpu_small_tiles, GPU_SMALL, u8_flags, FLAGS8)
MATRIX_TEST(gpu_small_tiles, GPU_SMALL, u32_offsets, OFFS32)

/* ---- segment shapes ------------------------------------------------------------------- */

#define SHAPES_N 120000

/* Fixed segment lengths around power-of-two tiles, one segment, every
 * element its own segment, and (offsets) runs of empty segments. */
static void segment_shapes(cfg c, seg_kind kind, int excl)
{
    static const size_t lens[] = {1,   2,   7,    8,    9,    16,   63,   64,    65,
                                  255, 256, 257,  1023, 1024, 1025, 4096, 50000, SHAPES_N};
    static const struct { sk_type t; sk_op op; } pairs[] = {
        {SK_UINT32, SK_OP_ADD}, {SK_INT64, SK_OP_MAX}, {SK_FLOAT32, SK_OP_ADD}};
    apply_cfg(c);
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
        for (size_t p = 0; p < 3; p++) {
            segm s;
            segm_init(&s, kind, SHAPES_N, heads_every(SHAPES_N, lens[l]), (int)(p & 1));
            check_segscan(pairs[p].t, pairs[p].op, excl, &s, (int)(l & 1), CFG_NAMES[c]);
            segm_free(&s);
        }
}

#define SHAPES_TEST(cname, c, kname, k)                                                    \
    Test(segscan_shapes, segments_of_every_length_should_scan_inclusive_##cname##_##kname) \
    {                                                                                      \
        segment_shapes(c, k, 0);                                                           \
    }                                                                                      \
    Test(segscan_shapes, segments_of_every_length_should_scan_exclusive_##cname##_##kname) \
    {                                                                                      \
        segment_shapes(c, k, 1);                                                           \
    }

SHAPES_TEST(cpu_default, CPU_DEFAULT, u8_flags, FLAGS8)
SHAPES_TEST(cpu_small_tiles, CPU_SMALL, u32_flags, FLAGS32)
SHAPES_TEST(gpu_default, GPU_DEFAULT, u32_offsets, OFFS32)
SHAPES_TEST(gpu_small_tiles, GPU_SMALL, u64_offsets, OFFS64)
SHAPES_TEST(cpu_small_tiles, CPU_SMALL, u64_offsets, OFFS64)
SHAPES_TEST(gpu_small_tiles, GPU_SMALL, u8_flags, FLAGS8)

/* Offsets only: many empty segments, leading and trailing, and a segmentation
 * that is nothing but empty segments for n = 0. */
static void empty_runs(int excl)
{
    for (int c = 0; c < 4; c++) {
        apply_cfg((cfg)c);
        static const size_t ns[] = {0, 1, 5, 77, 3001};
        for (size_t i = 0; i < 5; i++) {
            size_t n = ns[i];
            segm s = {OFFS64, n, heads_random(n, 5), NULL, 0, 0};
            if (n) s.heads[0] = 1;
            s.desc = skt_malloc((4 * n + 16) * 8);
            for (int k = 0; k < 3; k++) put_offset(&s, s.count++, 0);
            for (size_t j = 1; j < n; j++)
                for (int k = 0; s.heads[j] && k < 3; k++) put_offset(&s, s.count++, j);
            for (int k = 0; k < 3; k++) put_offset(&s, s.count++, n);
            s.segments = s.count;
            check_segscan(SK_INT32, SK_OP_ADD, excl, &s, (int)(i & 1), CFG_NAMES[c]);
            segm_free(&s);
        }
    }
}

Test(segscan_shapes, runs_of_empty_segments_should_not_disturb_the_inclusive_scan)
{
    empty_runs(0);
}

Test(segscan_shapes, runs_of_empty_segments_should_not_disturb_the_exclusive_scan)
{
    empty_runs(1);
}

/* ---- custom non-commutative monoid: 2x2 matrices ------------------------------------------ */

static void mat2_combine(const void *a, const void *b, void *out)
{
    skt_mat2 x, y, r;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    r = skt_ref_mat2_mul(x, y);
    memcpy(out, &r, sizeof r);
}

/* The matrix monoid, or with `lines` the same written over several lines
 * (skt_monoid_mat2_lines). */
static const sk_monoid *mat2_monoid(int lines)
{
    return lines ? skt_monoid_mat2_lines() : skt_monoid_mat2();
}

static void check_mat2(int lines, int excl, const segm *s, const char *cfg_name)
{
    size_t n = s->n, es = sizeof(skt_mat2), span = (n + GUARD) * es;
    skt_mat2 id = skt_ref_mat2_identity();
    const char *what = skt_fmt("mat2%s %s n=%zu, %s, %s", lines ? " over several lines" : "",
                               excl ? "exclusive" : "inclusive", n, KIND_NAMES[s->kind],
                               cfg_name);
    reserve(span + desc_bytes(s) + 8);
    skt_fill_mat2((skt_mat2 *)B.h_src, n);
    skt_ref_segscan_generic(es, mat2_combine, &id, excl, B.h_src, B.h_ref, s->heads, n);
    sk_segments seg = segments_of(s);
    skt_buf_upload(B.src, 0, B.h_src, n * es);
    skt_buf_poison(B.dst, span);
    const sk_monoid *m = mat2_monoid(lines);
    sk_status st = excl ? sk_segscan_exclusive_monoid(skt_ctx, m, B.src, B.dst, n, &seg)
                        : sk_segscan_inclusive_monoid(skt_ctx, m, B.src, B.dst, n, &seg);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(B.dst, 0, B.h_out, span);
    skt_expect_bytes(B.h_out, B.h_ref, n, es, what);
    cr_assert_eq(skt_find_unpoisoned(B.h_out + n * es, GUARD * es), (size_t)-1,
                 "%s: wrote past n [seed %llu]", what, (unsigned long long)skt_seed());
}

/* Sizes of the matrix scans, with the average segment length at each. */
static const size_t MAT2_NS[] = {0, 1, 3, 8, 17, 500, 4097, 60001};
static const size_t MAT2_AVG[] = {1, 1, 2, 3, 8, 1, 40, 700};
/* Fewer of them for the same monoid over several lines. */
static const size_t MAT2_LINES_NS[] = {1, 17, 4097};
static const size_t MAT2_LINES_AVG[] = {1, 3, 40};

/* check_mat2 in every configuration and segment kind at `count` sizes. */
static void mat2_all(int lines, int excl, const size_t *ns, const size_t *avg, size_t count)
{
    for (int c = 0; c < 4; c++) {
        apply_cfg((cfg)c);
        for (int k = 0; k < 4; k++)
            for (size_t i = 0; i < count; i++) {
                segm s;
                segm_random(&s, (seg_kind)k, ns[i], avg[i]);
                check_mat2(lines, excl, &s, CFG_NAMES[c]);
                segm_free(&s);
            }
    }
}

Test(segscan, inclusive_matrix_monoid_should_match_the_reference_in_every_configuration)
{
    mat2_all(0, 0, MAT2_NS, MAT2_AVG, sizeof MAT2_NS / sizeof MAT2_NS[0]);
}

Test(segscan, exclusive_matrix_monoid_should_match_the_reference_in_every_configuration)
{
    mat2_all(0, 1, MAT2_NS, MAT2_AVG, sizeof MAT2_NS / sizeof MAT2_NS[0]);
}

/* Identity and combine over several lines with // comments: they build
 * into every segmented-scan program (both shapes, flags and offsets) and
 * scan as the one-line monoid does. */
Test(segscan, matrix_monoid_over_several_lines_should_match_the_reference_in_every_configuration)
{
    for (int excl = 0; excl < 2; excl++)
        mat2_all(1, excl, MAT2_LINES_NS, MAT2_LINES_AVG,
                 sizeof MAT2_LINES_NS / sizeof MAT2_LINES_NS[0]);
}

/* ---- the interval-of-summations test, restarted at heads ----------------------------------- */

typedef skt_interval iv;

static const iv IV_TOP = {SKT_IV_TOP_I, SKT_IV_TOP_I};

/* (h, k) inclusive; identity at a head and (h, k - 1) elsewhere exclusive. */
static iv iv_expected(int excl, size_t h, size_t k)
{
    iv r = {(int32_t)h, (int32_t)(excl ? k - 1 : k)};
    if (excl && k == h) r.i = r.j = SKT_IV_IDENTITY_I;
    return r;
}

/* First index whose interval is wrong (or not top past n), or (size_t)-1. */
static size_t iv_check(const iv *out, const unsigned char *heads, size_t n, int excl)
{
    size_t h = 0;
    for (size_t k = 0; k < n; k++) {
        if (heads[k]) h = k;
        iv want = iv_expected(excl, h, k);
        if (out[k].i != want.i || out[k].j != want.j) return k;
    }
    for (size_t k = n; k < n + GUARD; k++)
        if (out[k].i != IV_TOP.i || out[k].j != IV_TOP.j) return k;
    return (size_t)-1;
}

static void iv_fail(const iv *out, const unsigned char *heads, size_t n, size_t k,
                    const char *what)
{
    size_t h = 0;
    for (size_t i = 0; i <= k && i < n; i++)
        if (heads[i]) h = i;
    iv want = k < n ? iv_expected(0, h, k) : IV_TOP;
    cr_assert_fail("%s: out[%zu] = (%d, %d); inclusive would be (%d, %d), segment head %zu%s "
                   "[seed %llu]", what, k, out[k].i, out[k].j, want.i, want.j, h,
                   k >= n ? " (written past n)" : "", (unsigned long long)skt_seed());
}

/* Scans B.h_src's n intervals (then GUARD tops) of `size` bytes with the
 * interval monoid m, segmented by s, and downloads them with the GUARD
 * elements after them into B.h_out. */
static void iv_scan(const sk_monoid *m, size_t size, const void *top, const segm *s, int excl,
                    int in_place, const char *what)
{
    size_t span = (s->n + GUARD) * size;
    sk_segments seg = segments_of(s);
    cl_mem dst = in_place ? B.src : B.dst;
    skt_buf_upload(B.src, 0, B.h_src, span);
    if (!in_place) skt_buf_fill(B.dst, top, size, 0, span);
    sk_status st = excl ? sk_segscan_exclusive_monoid(skt_ctx, m, B.src, dst, s->n, &seg)
                        : sk_segscan_inclusive_monoid(skt_ctx, m, B.src, dst, s->n, &seg);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(dst, 0, B.h_out, span);
}

static void iv_run(const segm *s, int excl, int in_place, const char *cfg_name)
{
    size_t n = s->n;
    const char *what = skt_fmt("interval %s n=%zu, %s, %s%s", excl ? "exclusive" : "inclusive",
                               n, KIND_NAMES[s->kind], cfg_name, in_place ? ", in place" : "");
    iv *host = (iv *)B.h_src;
    for (size_t k = 0; k < n; k++) host[k] = (iv){(int32_t)k, (int32_t)k};
    for (size_t k = n; k < n + GUARD; k++) host[k] = IV_TOP;
    iv_scan(skt_monoid_interval(), sizeof(iv), &IV_TOP, s, excl, in_place, what);
    iv *out = (iv *)B.h_out;
    size_t bad = iv_check(out, s->heads, n, excl);
    if (bad != (size_t)-1) iv_fail(out, s->heads, n, bad, what);
}

typedef void (*iv_runner)(const segm *s, int excl, int in_place, const char *cfg_name);

/* run at every n up to `up_to`, then at the `nlarge` sizes of large[]
 * (ascending), by uint8 flags and by uint64 offsets, out of place and in
 * place (both every time, or taking turns). */
static void interval_cases(cfg c, int excl, size_t up_to, const size_t *large, size_t nlarge,
                           iv_runner run, int both_in_place)
{
    reserve((2 * large[nlarge - 1] + GUARD) * 8); /* offsets: up to 2n + 8 of 8 bytes */
    for (size_t i = 0; i <= up_to + nlarge; i++) {
        size_t n = i <= up_to ? i : large[i - up_to - 1];
        size_t avg = 1 + (size_t)skt_rand_below(i % 3 == 0 ? 4 : 64);
        for (int k = 0; k < 4; k += 3) { /* uint8 flags, uint64 offsets */
            segm s;
            segm_random(&s, (seg_kind)k, n, avg);
            for (int in_place = both_in_place ? 0 : (int)(i % 2); in_place < 2;
                 in_place += both_in_place ? 1 : 2)
                run(&s, excl, in_place, CFG_NAMES[c]);
            segm_free(&s);
        }
    }
}

static void interval_sizes(cfg c, int excl)
{
    static const size_t large[] = {4096, 65537, 1000003};
    apply_cfg(c);
    interval_cases(c, excl, 600, large, 3, iv_run, 1);
}

Test(segscan_interval, every_n_up_to_600_inclusive_should_restart_intervals_at_heads_cpu_default)
{
    interval_sizes(CPU_DEFAULT, 0);
}

Test(segscan_interval, every_n_up_to_600_exclusive_should_restart_intervals_at_heads_cpu_default)
{
    interval_sizes(CPU_DEFAULT, 1);
}

Test(segscan_interval, every_n_up_to_600_inclusive_should_restart_intervals_at_heads_cpu_small_tiles)
{
    interval_sizes(CPU_SMALL, 0);
}

Test(segscan_interval, every_n_up_to_600_exclusive_should_restart_intervals_at_heads_cpu_small_tiles)
{
    interval_sizes(CPU_SMALL, 1);
}

Test(segscan_interval, every_n_up_to_600_inclusive_should_restart_intervals_at_heads_gpu_default)
{
    interval_sizes(GPU_DEFAULT, 0);
}

Test(segscan_interval, every_n_up_to_600_exclusive_should_restart_intervals_at_heads_gpu_default)
{
    interval_sizes(GPU_DEFAULT, 1);
}

Test(segscan_interval, every_n_up_to_600_inclusive_should_restart_intervals_at_heads_gpu_small_tiles)
{
    interval_sizes(GPU_SMALL, 0);
}

Test(segscan_interval, every_n_up_to_600_exclusive_should_restart_intervals_at_heads_gpu_small_tiles)
{
    interval_sizes(GPU_SMALL, 1);
}

/* ---- the one-pass (look-back) segmented scan ------------------------------------------------ */

/* On the GPU shape a value of at most 4 bytes and its head flag travel in
 * one look-back word (kernels/lookback.cl, SK_LB_CODEC). 16-bit intervals
 * (4 bytes, n <= 65533) put the interval test through that path: asked for
 * with SK_SCAN_PATH_LOOKBACK, as the monoid is not order-free. */
typedef struct iv16 {
    uint16_t i, j;
} iv16;

static const iv16 IV16_TOP = {SKT_IV16_TOP, SKT_IV16_TOP};

static void iv16_run(const segm *s, int excl, int in_place, const char *cfg_name)
{
    size_t n = s->n;
    const char *what = skt_fmt("16-bit interval %s n=%zu, %s, %s, look-back%s",
                               excl ? "exclusive" : "inclusive", n, KIND_NAMES[s->kind],
                               cfg_name, in_place ? ", in place" : "");
    iv16 *host = (iv16 *)B.h_src;
    for (size_t k = 0; k < n; k++) host[k] = (iv16){(uint16_t)k, (uint16_t)k};
    for (size_t k = n; k < n + GUARD; k++) host[k] = IV16_TOP;
    iv_scan(skt_monoid_interval16(), sizeof(iv16), &IV16_TOP, s, excl, in_place, what);
    iv16 *out = (iv16 *)B.h_out;
    size_t h = 0;
    for (size_t k = 0; k < n + GUARD; k++) {
        if (k < n && s->heads[k]) h = k;
        iv16 want = IV16_TOP;
        if (k < n && excl && k == h) want = (iv16){SKT_IV16_IDENTITY, SKT_IV16_IDENTITY};
        else if (k < n) want = (iv16){(uint16_t)h, (uint16_t)(excl ? k - 1 : k)};
        if (out[k].i != want.i || out[k].j != want.j)
            cr_assert_fail("%s: out[%zu] = (%u, %u), want (%u, %u), segment head %zu%s "
                           "[seed %llu]", what, k, out[k].i, out[k].j, want.i, want.j, h,
                           k >= n ? " (written past n)" : "", (unsigned long long)skt_seed());
    }
}

static void interval16_lookback(cfg c, int excl)
{
    static const size_t large[] = {4096, 65533};
    apply_cfg(c);
    cr_assert_eq(sk_context_set_param(skt_ctx, SK_PARAM_SCAN_PATH, SK_SCAN_PATH_LOOKBACK), SK_OK);
    skt_launches count = {0};
    skt_count_launches(&count);
    interval_cases(c, excl, 300, large, 2, iv16_run, 0);
    skt_count_launches(NULL);
    cr_assert_gt(count.lookback, 0ul, "%s: the look-back kernel never ran", CFG_NAMES[c]);
}

Test(segscan_interval, every_n_up_to_300_inclusive_should_restart_16_bit_intervals_in_one_pass)
{
    interval16_lookback(GPU_DEFAULT, 0);
}

Test(segscan_interval, every_n_up_to_300_exclusive_should_restart_16_bit_intervals_in_one_pass)
{
    interval16_lookback(GPU_DEFAULT, 1);
}

Test(segscan_interval, every_n_up_to_300_should_restart_16_bit_intervals_in_one_pass_small_tiles)
{
    interval16_lookback(GPU_SMALL, (int)(skt_seed() % 2));
}

/* Look-back launches of one checked inclusive segmented scan of n elements. */
static unsigned long lookback_launches(sk_type t, sk_op op, size_t n)
{
    segm s;
    segm_random(&s, FLAGS8, n, 50);
    skt_launches count = {0};
    skt_count_launches(&count);
    check_segscan(t, op, 0, &s, 0, CFG_NAMES[GPU_DEFAULT]);
    skt_count_launches(NULL);
    segm_free(&s);
    return count.lookback;
}

Test(segscan_interval, gpu_shape_should_take_one_pass_only_for_order_free_values_of_4_bytes)
{
    apply_cfg(GPU_DEFAULT);
    size_t n = 200000;
    cr_assert_gt(lookback_launches(SK_UINT32, SK_OP_ADD, n), 0ul, "uint32 add: no look-back");
    cr_assert_gt(lookback_launches(SK_FLOAT32, SK_OP_MAX, n), 0ul, "float32 max: no look-back");
    cr_assert_eq(lookback_launches(SK_FLOAT32, SK_OP_ADD, n), 0ul,
                 "float32 add took the look-back (its sums would depend on timing)");
    cr_assert_eq(lookback_launches(SK_UINT64, SK_OP_ADD, n), 0ul,
                 "uint64 add took the look-back (it does not fit the word)");
}

/* ---- segment totals ------------------------------------------------------------------------ */

/* totals: s->segments elements, checked; what lies after them stays poison;
 * *segments is the number of segments. */
static void check_segreduce(sk_type t, sk_op op, const segm *s, const char *cfg_name)
{
    size_t n = s->n, es = skt_ref_type_size(t);
    size_t cap = is_offsets(s->kind) ? s->count : n; /* the documented capacity */
    size_t span = (cap + GUARD) * es;
    const char *what = skt_fmt("segreduce %s %s n=%zu, %s (%zu segments), %s", sk_type_name(t),
                               OP_NAMES[op], n, KIND_NAMES[s->kind], s->segments, cfg_name);
    reserve((n + s->count + GUARD) * es + desc_bytes(s) + 8);
    skt_fill(t, op, B.h_src, n);
    if (is_offsets(s->kind))
        skt_ref_segreduce_offsets(t, op, B.h_src, n, s->desc,
                                  s->kind == OFFS32 ? SK_UINT32 : SK_UINT64, s->count, B.h_ref);
    else
        cr_assert_eq(skt_ref_segreduce_heads(t, op, B.h_src, s->heads, n, B.h_ref), s->segments);
    sk_segments seg = segments_of(s);
    skt_buf_upload(B.src, 0, B.h_src, n * es);
    skt_buf_poison(B.dst, span);
    size_t got = (size_t)-7;
    sk_status st = sk_segreduce(skt_ctx, t, op, B.src, n, &seg, B.dst, &got);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    cr_assert_eq(got, s->segments, "%s: %zu segments reported [seed %llu]", what, got,
                 (unsigned long long)skt_seed());
    skt_buf_download(B.dst, 0, B.h_out, span);
    skt_expect_elems(t, B.h_out, B.h_ref, got, what);
    cr_assert_eq(skt_find_unpoisoned(B.h_out + got * es, span - got * es), (size_t)-1,
                 "%s: wrote past the totals [seed %llu]", what, (unsigned long long)skt_seed());
}

static void segreduce_all(cfg c, seg_kind kind)
{
    static const size_t ns[] = {0, 1, 2, 33, 1000, 9001, 100003};
    static const size_t avg[] = {1, 1, 1, 4, 1, 60, 3000};
    apply_cfg(c);
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        for (int op = 0; op < SK_OP_COUNT; op++) {
            if (!skt_ref_supported((sk_type)t, (sk_op)op)) continue;
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                segm s;
                segm_random(&s, kind, ns[i], avg[i]);
                check_segreduce((sk_type)t, (sk_op)op, &s, CFG_NAMES[c]);
                segm_free(&s);
            }
        }
    }
}

Test(segreduce, every_type_and_op_should_total_each_segment_cpu_default_u8_flags)
{
    segreduce_all(CPU_DEFAULT, FLAGS8);
}

Test(segreduce, every_type_and_op_should_total_each_segment_cpu_default_u32_offsets)
{
    segreduce_all(CPU_DEFAULT, OFFS32);
}

Test(segreduce, every_type_and_op_should_total_each_segment_gpu_default_u32_flags)
{
    segreduce_all(GPU_DEFAULT, FLAGS32);
}

Test(segreduce, every_type_and_op_should_total_each_segment_gpu_default_u64_offsets)
{
    segreduce_all(GPU_DEFAULT, OFFS64);
}

static void segreduce_small(int first_cfg)
{
    static const size_t ns[] = {0, 1, 7, 8, 9, 100, 3001, 40000};
    for (int c = first_cfg; c < first_cfg + 2; c++) {
        apply_cfg((cfg)c);
        for (int k = 0; k < 4; k++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                segm s;
                segm_random(&s, (seg_kind)k, ns[i], 1 + i * 3);
                check_segreduce(SK_UINT32, SK_OP_ADD, &s, CFG_NAMES[c]);
                check_segreduce(skt_has_fp64() ? SK_FLOAT64 : SK_INT64, SK_OP_MIN, &s,
                                CFG_NAMES[c]);
                segm_free(&s);
            }
    }
}

Test(segreduce, small_tiles_and_empty_segments_should_total_correctly_in_cpu_shape)
{
    segreduce_small(CPU_DEFAULT);
}

Test(segreduce, small_tiles_and_empty_segments_should_total_correctly_in_gpu_shape)
{
    segreduce_small(GPU_DEFAULT);
}

/* Empty segments (offsets only) get the identity of the operator. */
Test(segreduce, empty_segments_should_get_the_identity)
{
    uint32_t src[4] = {5, 6, 7, 8};
    uint32_t off[6] = {0, 0, 2, 2, 4, 4};
    uint32_t want_add[6] = {0, 11, 0, 15, 0, 0};
    uint32_t got[8];
    size_t count = 0;
    sk_segments_host seg = {NULL, 0, off, SK_UINT32, 6};
    for (int c = 0; c < 4; c++) {
        apply_cfg((cfg)c);
        skt_poison(got, sizeof got);
        SKT_OK(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, src, 4, &seg, got, &count));
        cr_assert_eq(count, 6);
        cr_assert_eq(memcmp(got, want_add, sizeof want_add), 0, "%s", CFG_NAMES[c]);
        cr_assert_eq(skt_find_unpoisoned(got + 6, 8), (size_t)-1);
        SKT_OK(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_MIN, src, 4, &seg, got, &count));
        uint32_t want_min[6] = {0xFFFFFFFFu, 5, 0xFFFFFFFFu, 7, 0xFFFFFFFFu, 0xFFFFFFFFu};
        cr_assert_eq(memcmp(got, want_min, sizeof want_min), 0, "%s", CFG_NAMES[c]);
    }
}

static void check_mat2_reduce(int lines, const segm *s, const char *cfg_name)
{
    size_t n = s->n, es = sizeof(skt_mat2);
    size_t cap = is_offsets(s->kind) ? s->count : n, span = (cap + GUARD) * es;
    skt_mat2 id = skt_ref_mat2_identity();
    const char *what = skt_fmt("mat2%s segreduce n=%zu, %s, %s",
                               lines ? " over several lines" : "", n, KIND_NAMES[s->kind],
                               cfg_name);
    reserve((n + s->count + GUARD) * es + desc_bytes(s) + 8);
    skt_fill_mat2((skt_mat2 *)B.h_src, n);
    if (is_offsets(s->kind))
        skt_ref_segreduce_offsets_generic(es, mat2_combine, &id, B.h_src, n, s->desc,
                                          s->kind == OFFS32 ? SK_UINT32 : SK_UINT64, s->count,
                                          B.h_ref);
    else
        skt_ref_segreduce_heads_generic(es, mat2_combine, &id, B.h_src, s->heads, n, B.h_ref);
    sk_segments seg = segments_of(s);
    skt_buf_upload(B.src, 0, B.h_src, n * es);
    skt_buf_poison(B.dst, span);
    size_t got = (size_t)-7;
    SKT_OK(sk_segreduce_monoid(skt_ctx, mat2_monoid(lines), B.src, n, &seg, B.dst, &got));
    cr_assert_eq(got, s->segments, "%s: %zu segments reported", what, got);
    skt_buf_download(B.dst, 0, B.h_out, span);
    skt_expect_bytes(B.h_out, B.h_ref, got, es, what);
    cr_assert_eq(skt_find_unpoisoned(B.h_out + got * es, span - got * es), (size_t)-1,
                 "%s: wrote past the totals [seed %llu]", what, (unsigned long long)skt_seed());
}

static void mat2_reduce_all(int lines, int first_kind)
{
    static const size_t ns[] = {0, 1, 9, 250, 5003};
    for (int c = 0; c < 4; c++) {
        apply_cfg((cfg)c);
        for (int k = first_kind; k < first_kind + 2; k++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                segm s;
                segm_random(&s, (seg_kind)k, ns[i], 1 + i * 7);
                check_mat2_reduce(lines, &s, CFG_NAMES[c]);
                segm_free(&s);
            }
    }
}

Test(segreduce, matrix_monoid_should_total_each_segment_in_order_by_flags)
{
    mat2_reduce_all(0, FLAGS8);
}

Test(segreduce, matrix_monoid_should_total_each_segment_in_order_by_offsets)
{
    mat2_reduce_all(0, OFFS32);
}

/* The same totals with identity and combine over several lines. */
Test(segreduce, matrix_monoid_over_several_lines_should_total_each_segment_by_flags)
{
    mat2_reduce_all(1, FLAGS8);
}

Test(segreduce, matrix_monoid_over_several_lines_should_total_each_segment_by_offsets)
{
    mat2_reduce_all(1, OFFS32);
}

/* ---- bad arguments: SK_E_INVALID_ARG, outputs untouched ------------------------------------- */

#define BAD_N 64

typedef struct bad_env {
    cl_mem src, dst, flags, offs, tiny;
    uint32_t in[BAD_N];
} bad_env;

static void bad_open(bad_env *e)
{
    for (int i = 0; i < BAD_N; i++) e->in[i] = (uint32_t)i + 1;
    e->src = skt_buf_new(BAD_N * 4);
    e->dst = skt_buf_new(BAD_N * 4 * 2);
    e->flags = skt_buf_new(BAD_N * 4);
    e->offs = skt_buf_new(BAD_N * 8);
    e->tiny = skt_buf_new(4);
    skt_buf_upload(e->src, 0, e->in, sizeof e->in);
    skt_buf_poison(e->dst, BAD_N * 8);
    unsigned char f[BAD_N * 4] = {0};
    skt_buf_upload(e->flags, 0, f, sizeof f);
}

static void bad_close(bad_env *e)
{
    cl_mem m[] = {e->src, e->dst, e->flags, e->offs, e->tiny};
    for (int i = 0; i < 5; i++) skt_buf_free(m[i]);
}

/* Every entry point rejects `seg` for n elements, and nothing is written. */
static void expect_rejected(bad_env *e, const sk_segments *seg, size_t n, cl_mem src,
                            cl_mem dst, const char *what)
{
    unsigned char out[BAD_N * 8], in[BAD_N * 4];
    size_t count = 12345;
    for (int excl = 0; excl < 2; excl++) {
        sk_status st = segscan_mem(SK_UINT32, SK_OP_ADD, excl, src, dst, n, seg);
        cr_assert_eq(st, SK_E_INVALID_ARG, "%s, %s: %s", what, excl ? "exclusive" : "inclusive",
                     sk_status_name(st));
        cr_assert_neq(sk_context_error_detail(skt_ctx)[0], 0, "%s: no error detail", what);
    }
    sk_status st = sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, src, n, seg, dst, &count);
    cr_assert_eq(st, SK_E_INVALID_ARG, "%s, segreduce: %s", what, sk_status_name(st));
    cr_assert_eq(count, 12345, "%s: *segments was written", what);
    skt_buf_download(e->dst, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "%s: the output was written",
                 what);
    skt_buf_download(e->src, 0, in, sizeof e->in);
    cr_assert_eq(memcmp(in, e->in, sizeof e->in), 0, "%s: the input was written", what);
}

static sk_segments offsets_seg(bad_env *e, const void *off, sk_type t, size_t count)
{
    skt_buf_upload(e->offs, 0, off, count * sk_type_size(t));
    return (sk_segments){NULL, 0, e->offs, t, count};
}

Test(segscan_errors, bad_offsets_should_be_rejected_without_writing)
{
    bad_env e;
    bad_open(&e);
    for (int c = 0; c < 4; c += 2) {
        apply_cfg((cfg)c);
        uint32_t unsorted[4] = {0, 10, 5, 20}, nonzero[3] = {1, 5, 9}, above[3] = {0, 5, 65};
        uint64_t unsorted64[3] = {0, 40, 39}, above64[2] = {0, ((uint64_t)1 << 32) + 3};
        sk_segments s = offsets_seg(&e, unsorted, SK_UINT32, 4);
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "offsets not sorted");
        s = offsets_seg(&e, nonzero, SK_UINT32, 3);
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "offsets[0] != 0");
        s = offsets_seg(&e, above, SK_UINT32, 3);
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "an offset above n");
        s = offsets_seg(&e, unsorted64, SK_UINT64, 3);
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "uint64 offsets not sorted");
        s = offsets_seg(&e, above64, SK_UINT64, 2);
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "a uint64 offset above 2^32");
        s = offsets_seg(&e, above, SK_UINT32, 0);
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "no offsets for n > 0");
        s = offsets_seg(&e, above, SK_UINT32, 3);
        s.offset_type = SK_INT32;
        expect_rejected(&e, &s, BAD_N, e.src, e.dst, "offset_type int32");
    }
    bad_close(&e);
}

Test(segscan_errors, bad_segment_descriptions_and_small_buffers_should_be_rejected)
{
    bad_env e;
    bad_open(&e);
    uint32_t good[2] = {0, 5};
    sk_segments both = offsets_seg(&e, good, SK_UINT32, 2);
    both.flags = e.flags;
    both.flag_size = 1;
    expect_rejected(&e, &both, BAD_N, e.src, e.dst, "both flags and offsets");
    sk_segments neither = {NULL, 1, NULL, SK_UINT32, 2};
    expect_rejected(&e, &neither, BAD_N, e.src, e.dst, "neither flags nor offsets");
    for (size_t fs = 0; fs < 9; fs++) {
        if (fs == 1 || fs == 4) continue;
        sk_segments f = {e.flags, fs, NULL, SK_UINT32, 0};
        expect_rejected(&e, &f, BAD_N, e.src, e.dst, skt_fmt("flag_size %zu", fs));
    }
    sk_segments f4 = {e.flags, 4, NULL, SK_UINT32, 0};
    sk_segments tiny_flags = {e.tiny, 1, NULL, SK_UINT32, 0};
    sk_segments tiny_offs = {NULL, 0, e.tiny, SK_UINT64, 2};
    expect_rejected(&e, &tiny_flags, BAD_N, e.src, e.dst, "flags buffer too small");
    expect_rejected(&e, &tiny_offs, BAD_N, e.src, e.dst, "offsets buffer too small");
    expect_rejected(&e, &f4, BAD_N, e.tiny, e.dst, "src buffer too small");
    expect_rejected(&e, &f4, BAD_N, NULL, e.dst, "src NULL");
    expect_rejected(&e, NULL, BAD_N, e.src, e.dst, "segments NULL");
    bad_close(&e);
}

Test(segscan_errors, small_or_missing_outputs_and_bad_types_should_be_rejected)
{
    bad_env e;
    bad_open(&e);
    sk_segments f1 = {e.flags, 1, NULL, SK_UINT32, 0};
    cl_mem half = skt_buf_new(BAD_N * 2);
    skt_buf_poison(half, BAD_N * 2);
    for (int excl = 0; excl < 2; excl++) {
        SKT_EXPECT_STATUS(segscan_mem(SK_UINT32, SK_OP_ADD, excl, e.src, half, BAD_N, &f1),
                          SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(segscan_mem(SK_UINT32, SK_OP_ADD, excl, e.src, NULL, BAD_N, &f1),
                          SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(segscan_mem((sk_type)17, SK_OP_ADD, excl, e.src, e.dst, BAD_N, &f1),
                          SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(segscan_mem(SK_UINT32, (sk_op)9, excl, e.src, e.dst, BAD_N, &f1),
                          SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(segscan_mem(SK_FLOAT32, SK_OP_XOR, excl, e.src, e.dst, BAD_N, &f1),
                          SK_E_UNSUPPORTED);
        SKT_EXPECT_STATUS(sk_segscan_inclusive(NULL, SK_UINT32, SK_OP_ADD, e.src, e.dst, BAD_N,
                                               &f1), SK_E_INVALID_ARG);
    }
    size_t count = 99;
    /* Totals by flags need room for n; by offsets for count. */
    SKT_EXPECT_STATUS(sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, e.src, BAD_N, &f1, half,
                                   &count), SK_E_INVALID_ARG);
    uint32_t off[40] = {0};
    sk_segments o = offsets_seg(&e, off, SK_UINT32, 40);
    SKT_EXPECT_STATUS(sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, e.src, BAD_N, &o, e.tiny,
                                   &count), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, e.src, BAD_N, &o, NULL,
                                   &count), SK_E_INVALID_ARG);
    cr_assert_eq(count, 99);
    sk_monoid broken = *skt_monoid_mat2();
    broken.combine = NULL;
    SKT_EXPECT_STATUS(sk_segscan_inclusive_monoid(skt_ctx, &broken, e.src, e.dst, 4, &f1),
                      SK_E_INVALID_ARG);
    unsigned char out[BAD_N * 8];
    skt_buf_download(e.dst, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "an output was written");
    skt_buf_download(half, 0, out, BAD_N * 2);
    cr_assert_eq(skt_find_unpoisoned(out, BAD_N * 2), (size_t)-1, "a small output was written");
    skt_buf_free(half);
    bad_close(&e);
}

/* Host forms: the same checks, and the host output stays as it was. */
Test(segscan_errors, host_forms_should_reject_bad_segments_without_writing)
{
    uint32_t in[BAD_N], out[BAD_N * 2];
    unsigned char flags[BAD_N] = {0};
    uint32_t unsorted[3] = {0, 9, 3};
    for (int i = 0; i < BAD_N; i++) in[i] = (uint32_t)i;
    skt_poison(out, sizeof out);
    sk_segments_host bad[] = {
        {NULL, 0, unsorted, SK_UINT32, 3}, {flags, 2, NULL, SK_UINT32, 0},
        {flags, 1, unsorted, SK_UINT32, 3}, {NULL, 1, NULL, SK_UINT32, 0},
        {NULL, 0, unsorted, SK_INT64, 3}};
    size_t count = 7;
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        SKT_EXPECT_STATUS(sk_segscan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, out, BAD_N,
                                                    &bad[b]), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_segscan_exclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, out, BAD_N,
                                                    &bad[b]), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, BAD_N, &bad[b],
                                            out, &count), SK_E_INVALID_ARG);
    }
    sk_segments_host ok = {flags, 1, NULL, SK_UINT32, 0};
    SKT_EXPECT_STATUS(sk_segscan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, NULL, BAD_N,
                                                &ok), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, BAD_N, &ok, NULL,
                                        &count), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_segscan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, out, BAD_N,
                                                NULL), SK_E_INVALID_ARG);
    cr_assert_eq(count, 7);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "the output was written");
}

/* ---- host forms ---------------------------------------------------------------------------- */

static void check_host(sk_type t, sk_op op, const segm *s, int excl, int in_place)
{
    size_t n = s->n, es = skt_ref_type_size(t);
    const char *what = skt_fmt("host %s %s %s n=%zu, %s%s", sk_type_name(t), OP_NAMES[op],
                               excl ? "exclusive" : "inclusive", n, KIND_NAMES[s->kind],
                               in_place ? ", in place" : "");
    unsigned char *src = skt_malloc((n + GUARD) * es), *out = skt_malloc((n + GUARD) * es);
    unsigned char *want = skt_malloc((n + 1) * es);
    skt_fill(t, op, src, n);
    skt_ref_segscan(t, op, excl, src, want, s->heads, n);
    sk_segments_host h = segments_host_of(s);
    unsigned char *dst = in_place ? src : out;
    skt_poison(out, (n + GUARD) * es);
    sk_status st = excl ? sk_segscan_exclusive_host(skt_ctx, t, op, src, dst, n, &h)
                        : sk_segscan_inclusive_host(skt_ctx, t, op, src, dst, n, &h);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s)", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx));
    skt_expect_elems(t, dst, want, n, what);
    if (!in_place)
        cr_assert_eq(skt_find_unpoisoned(out + n * es, GUARD * es), (size_t)-1,
                     "%s: wrote past n", what);
    free(src);
    free(out);
    free(want);
}

Test(segscan_host, host_forms_should_match_the_reference)
{
    static const size_t ns[] = {0, 1, 50, 2047, 30011};
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < 5; i++) {
            segm s;
            segm_random(&s, (seg_kind)k, ns[i], 1 + i * i * 5);
            for (int excl = 0; excl < 2; excl++) {
                check_host(SK_INT32, SK_OP_ADD, &s, excl, excl);
                check_host(SK_UINT64, SK_OP_MAX, &s, excl, !excl);
            }
            size_t cap = is_offsets(s.kind) ? s.count : s.n, got = 0;
            int64_t *src = skt_malloc((s.n + 1) * 8), *tot = skt_malloc((cap + GUARD) * 8);
            int64_t *want = skt_malloc((cap + 1) * 8);
            skt_fill(SK_INT64, SK_OP_ADD, src, s.n);
            if (is_offsets(s.kind))
                skt_ref_segreduce_offsets(SK_INT64, SK_OP_ADD, src, s.n, s.desc,
                                          s.kind == OFFS32 ? SK_UINT32 : SK_UINT64, s.count, want);
            else
                skt_ref_segreduce_heads(SK_INT64, SK_OP_ADD, src, s.heads, s.n, want);
            skt_poison(tot, (cap + GUARD) * 8);
            sk_segments_host h = segments_host_of(&s);
            SKT_OK(sk_segreduce_host(skt_ctx, SK_INT64, SK_OP_ADD, src, s.n, &h, tot, &got));
            cr_assert_eq(got, s.segments);
            skt_expect_elems(SK_INT64, tot, want, got, "host segreduce");
            cr_assert_eq(skt_find_unpoisoned(tot + got, (cap + GUARD - got) * 8), (size_t)-1,
                         "host segreduce wrote past the totals");
            free(src);
            free(tot);
            free(want);
            segm_free(&s);
        }
}
