/*
 * test_segscan.c - sk_segscan_inclusive/exclusive and their custom-monoid
 * forms against the serial references in tests/ref/ref_segscan.c;
 * test_segreduce.c has the segment totals (sk_segreduce), the host-array
 * forms and the errors.
 *
 * Segments come four ways: uint8 and uint32 head flags, uint32 and uint64
 * offsets (with empty segments: repeated offsets, and offsets equal to n).
 * Each type x op x shape x tile setting x way x inclusive/exclusive that
 * differs in its #defines is a program PoCL compiles, so the build-time
 * axes are covered pairwise, not as their product: every type x op runs in
 * both shapes by one way of giving segments (MATRIX_PLAN); on the CPU
 * shape with default and small tiles (GPU work-group 4 x 2 items, CPU 3
 * chunks, no serial path), inclusive and exclusive, which are switches at
 * run time there; on the GPU shape in one tile setting, inclusive or
 * exclusive. Every type and every op meets every way, both tile settings
 * and both scans in each shape, every way meets both tile settings and
 * both scans, as do the tile settings each other (a test checks the plan).
 * Sizes from 0 to ~140000 (each size in every case), segment lengths from
 * 1 to the whole array; each type x configuration a case of its own
 * (Criterion's parameterised tests). The segment shapes and the matrix
 * monoid take the same approach, each with its own plan below; the runs of
 * empty segments and the interval tests run every configuration and scan.
 * Outputs are poisoned before every run and checked past n; inputs are
 * checked unchanged.
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_segscan.h"
#include "skt_segscan.h"

TestSuite(segscan, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segscan_shapes, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segscan_interval, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);

/* The four configurations: shape x tile setting (size_class: 0 default,
 * 1 small tiles). */
#define CFG_AXES .shapes = SKT_BOTH_SHAPES, .classes = 2

/* ---- every type x op x inclusive/exclusive, per configuration and kind ------------------- */

static const size_t MATRIX_SIZES[] = {0, 1, 2, 9, 100, 1031, 4099, 33333, 140001};
static const size_t MATRIX_AVG[] = {3, 1, 2, 4, 1000000, 37, 8, 200, 5000};

/* The largest size of the matrix with small tiles. 33333 elements are
 * already 4167 GPU tiles of 8 (by reduce-then-scan their totals go through
 * five levels, as 140001's do; by the look-back each tile has thousands of
 * predecessors) and 3 CPU chunks of 11111. 140001 adds no level and no
 * path, only 17501 work-groups of 4 (a grid of 70004 work-items: past
 * PoCL's 65535, so PoCL compiles every kernel it runs once more, for the
 * large grid) and CPU chunks of 46667 scanned the same way. The default
 * tiles run every size, except in the sanitizer pass's lighter matrix
 * (skt_light): there they stop at 33333 too, past every threshold of the
 * plan on the host (the CPU serial threshold, more GPU tiles than one
 * work-group walks), while segscan_interval's 65537 and 1000003 take the
 * plan of large n in every configuration, in that pass as well. */
#define MATRIX_SMALL_TILES_MAX 33333

/* Where each type x op runs (pairwise over the build-time axes, see the
 * header): its way of giving segments, in both CPU configurations
 * inclusive and exclusive (the CPU shape's program is the same for both
 * tile settings and both scans: they are switches at run time), and on the
 * GPU shape in one tile setting, inclusive or exclusive (there each of
 * them is a program of its own). Every type and every op meets each way,
 * each tile setting and each scan; every way meets each tile setting and
 * each scan on the GPU shape; each ((type, op), offset type) pair shares
 * its offsets program (no combine in it, only the identity) with the
 * others of that identity where it can. The GPU entries of uint32 add,
 * float32 max, float32 add and uint64 add are the default tiles inclusive
 * by uint8 flags (or offsets, which become uint8 flags), the programs the
 * look-back test below builds; uint32 add, float32 add and int64 max go by
 * offsets, as segscan_shapes does with their default tiles. */
typedef struct matrix_plan {
    unsigned char kind;  /* seg_kind */
    unsigned char small; /* GPU shape: small tiles */
    unsigned char excl;  /* GPU shape: exclusive */
} matrix_plan;

/* P(way, GPU tile setting: Default or Small, GPU scan: Inclusive or
 * Exclusive); the ops in sk_op's order (add, mul, min, max, and, or, xor). */
#define P(k, tiles, scan) {k, tiles, scan}
#define D 0
#define S 1
#define I 0
#define E 1
static const matrix_plan MATRIX_PLAN[SK_TYPE_COUNT][SK_OP_COUNT] = {
    [SK_INT32] = {P(FLAGS8, S, E), P(FLAGS8, S, I), P(OFFS64, D, E), P(FLAGS8, S, E),
                  P(FLAGS32, S, E), P(FLAGS8, D, I), P(OFFS32, D, E)},
    [SK_UINT32] = {P(OFFS32, D, I), P(FLAGS32, D, E), P(FLAGS8, D, I), P(FLAGS32, S, I),
                   P(OFFS64, S, E), P(OFFS32, S, I), P(FLAGS32, D, I)},
    [SK_INT64] = {P(FLAGS32, S, E), P(FLAGS32, S, E), P(FLAGS8, S, E), P(OFFS64, D, E),
                  P(OFFS32, S, I), P(FLAGS32, S, I), P(FLAGS8, D, E)},
    [SK_UINT64] = {P(OFFS64, D, I), P(FLAGS32, D, E), P(OFFS32, S, I), P(FLAGS8, S, I),
                   P(FLAGS8, D, I), P(OFFS64, D, E), P(OFFS64, S, E)},
    [SK_FLOAT32] = {P(OFFS64, D, I), P(OFFS32, S, E), P(FLAGS32, S, E), P(FLAGS8, D, I)},
    [SK_FLOAT64] = {P(FLAGS8, S, I), P(OFFS64, S, I), P(FLAGS32, S, E), P(OFFS32, D, E)},
};
#undef P
#undef D
#undef S
#undef I
#undef E

static void matrix_run(const skt_case *c, sk_op op, seg_kind kind, int excl)
{
    sk_type t = (sk_type)c->type;
    int small = case_cfg(c) == CPU_SMALL || case_cfg(c) == GPU_SMALL;
    size_t max_n = small || skt_light() ? MATRIX_SMALL_TILES_MAX : SIZE_MAX;
    for (size_t i = 0; i < sizeof MATRIX_SIZES / sizeof MATRIX_SIZES[0]; i++) {
        if (MATRIX_SIZES[i] > max_n)
            continue;
        segm s;
        segm_random(&s, kind, MATRIX_SIZES[i], MATRIX_AVG[i]);
        check_segscan(t, op, excl, &s, (int)((i + (size_t)excl) % 3 == 0),
                      CFG_NAMES[case_cfg(c)]);
        segm_free(&s);
    }
}

/* One case per type x configuration: every op of the type by its way of
 * giving segments, inclusive and exclusive (CPU shape), or the ops whose
 * GPU entry is this tile setting, in their scan (GPU shape). */
ParameterizedTestParameters(segscan, every_type_and_op_should_match_the_reference)
{
    return skt_cases((skt_axes){.types = SKT_ALL_TYPES, CFG_AXES}, NULL);
}

ParameterizedTest(skt_case *c, segscan, every_type_and_op_should_match_the_reference)
{
    skt_case_begin(c);
    if (c->type == SK_FLOAT64 && !skt_has_fp64())
        cr_skip_test("device has no fp64");
    cfg k = case_cfg(c);
    apply_cfg(k);
    SKT_EACH_OP((sk_type)c->type, op) {
        matrix_plan p = MATRIX_PLAN[c->type][op];
        if (k == CPU_DEFAULT || k == CPU_SMALL)
            for (int excl = 0; excl < 2; excl++)
                matrix_run(c, (sk_op)op, (seg_kind)p.kind, excl);
        else if (p.small == (k == GPU_SMALL))
            matrix_run(c, (sk_op)op, (seg_kind)p.kind, p.excl);
    }
}

/* The plan above is what the header says: every (type, op) in it, and
 * every pair of values of two axes meets. */
Test(segscan, matrix_plan_should_cover_every_pair)
{
    unsigned type_kind[SK_TYPE_COUNT] = {0}, op_kind[SK_OP_COUNT] = {0};
    unsigned type_gpu[SK_TYPE_COUNT] = {0}, op_gpu[SK_OP_COUNT] = {0};
    unsigned kind_gpu[4] = {0}, gpu = 0;
    for (int t = 0; t < SK_TYPE_COUNT; t++)
        SKT_EACH_OP((sk_type)t, op) {
            matrix_plan p = MATRIX_PLAN[t][op];
            unsigned g = SKT_BIT(p.small) | SKT_BIT(2 + p.excl);
            cr_assert_lt(p.kind, 4u);
            type_kind[t] |= SKT_BIT(p.kind);
            op_kind[op] |= SKT_BIT(p.kind);
            type_gpu[t] |= g;
            op_gpu[op] |= g;
            kind_gpu[p.kind] |= g;
            gpu |= SKT_BIT(p.small * 2 + p.excl);
        }
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        const char *name = sk_type_name((sk_type)t);
        cr_assert_eq(type_kind[t], 15u, "%s: not every way of giving segments", name);
        cr_assert_eq(type_gpu[t], 15u, "%s: not both tile settings and scans", name);
    }
    for (int op = 0; op < SK_OP_COUNT; op++) {
        const char *name = sk_op_name((sk_op)op);
        cr_assert_eq(op_kind[op], 15u, "%s: not every way of giving segments", name);
        cr_assert_eq(op_gpu[op], 15u, "%s: not both tile settings and scans", name);
    }
    for (int k = 0; k < 4; k++)
        cr_assert_eq(kind_gpu[k], 15u, "%s: not both tile settings and scans", KIND_NAMES[k]);
    cr_assert_eq(gpu, 15u, "not every tile setting with both scans");
}

/* ---- segment shapes ------------------------------------------------------------------- */

#define SHAPES_N 120000

/* Fixed segment lengths around power-of-two tiles, one segment, every
 * element its own segment, and (offsets, with int64 max) runs of empty
 * segments; one case per uint32 add, int64 max and float32 add x
 * configuration. The CPU shape by uint8 flags with default tiles, by
 * uint32 flags and uint64 offsets with small tiles, inclusive and
 * exclusive (one program for both tile settings and both scans). The GPU
 * shape by uint32 offsets with default tiles, by uint64 offsets and uint8
 * flags with small tiles, in one scan each as below: every tile setting
 * and every way meets both scans, and so does each of the three (their
 * default-tile programs are the matrix's). */
typedef struct shapes_run {
    signed char kind; /* seg_kind, -1: none */
    signed char excl; /* -1: inclusive and exclusive */
} shapes_run;

typedef struct shapes_plan {
    sk_type type;
    sk_op op;
    shapes_run runs[4][2]; /* per configuration */
} shapes_plan;

static const shapes_plan SHAPES_PLAN[] = {
    {SK_UINT32, SK_OP_ADD,
     {[CPU_DEFAULT] = {{FLAGS8, -1}, {-1, 0}},
      [CPU_SMALL] = {{FLAGS32, -1}, {OFFS64, -1}},
      [GPU_DEFAULT] = {{OFFS32, 0}, {-1, 0}},
      [GPU_SMALL] = {{OFFS64, 1}, {FLAGS8, 1}}}},
    {SK_INT64, SK_OP_MAX,
     {[CPU_DEFAULT] = {{FLAGS8, -1}, {-1, 0}},
      [CPU_SMALL] = {{FLAGS32, -1}, {OFFS64, -1}},
      [GPU_DEFAULT] = {{OFFS32, 1}, {-1, 0}},
      [GPU_SMALL] = {{OFFS64, 0}, {FLAGS8, 0}}}},
    {SK_FLOAT32, SK_OP_ADD,
     {[CPU_DEFAULT] = {{FLAGS8, -1}, {-1, 0}},
      [CPU_SMALL] = {{FLAGS32, -1}, {OFFS64, -1}},
      [GPU_DEFAULT] = {{OFFS32, 0}, {-1, 0}},
      [GPU_SMALL] = {{OFFS64, 1}, {FLAGS8, 1}}}},
};

static const shapes_plan *shapes_plan_of(const skt_case *c)
{
    for (size_t i = 0; i < sizeof SHAPES_PLAN / sizeof SHAPES_PLAN[0]; i++)
        if ((int)SHAPES_PLAN[i].type == c->type && (int)SHAPES_PLAN[i].op == c->op)
            return &SHAPES_PLAN[i];
    return NULL;
}

static int keep_shapes(const skt_case *c) { return shapes_plan_of(c) != NULL; }

static void segment_shapes(const skt_case *c, seg_kind kind, int excl)
{
    static const size_t lens[] = {1,   2,   7,    8,    9,    16,   63,   64,    65,
                                  255, 256, 257,  1023, 1024, 1025, 4096, 50000, SHAPES_N};
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        segm s;
        segm_init(&s, kind, SHAPES_N, heads_every(SHAPES_N, lens[l]), c->type == SK_INT64);
        check_segscan((sk_type)c->type, (sk_op)c->op, excl, &s, (int)(l & 1),
                      CFG_NAMES[case_cfg(c)]);
        segm_free(&s);
    }
}

ParameterizedTestParameters(segscan_shapes, segments_of_every_length_should_scan)
{
    return skt_cases((skt_axes){.types = SKT_BIT(SK_UINT32) | SKT_BIT(SK_INT64) |
                                         SKT_BIT(SK_FLOAT32),
                                .per_op = 1, CFG_AXES},
                     keep_shapes);
}

ParameterizedTest(skt_case *c, segscan_shapes, segments_of_every_length_should_scan)
{
    skt_case_begin(c);
    apply_cfg(case_cfg(c));
    const shapes_plan *p = shapes_plan_of(c);
    cr_assert(p != NULL);
    for (int r = 0; r < 2; r++) {
        shapes_run run = p->runs[case_cfg(c)][r];
        for (int excl = 0; run.kind >= 0 && excl < 2; excl++)
            if (run.excl < 0 || run.excl == excl)
                segment_shapes(c, (seg_kind)run.kind, excl);
    }
}

/* Offsets only: many empty segments, leading and trailing, and a segmentation
 * that is nothing but empty segments for n = 0; one case per shape, with
 * default and small tiles, inclusive and exclusive. */
static void empty_runs(cfg k, int excl)
{
    static const size_t ns[] = {0, 1, 5, 77, 3001};
    apply_cfg(k);
    for (size_t i = 0; i < 5; i++) {
        size_t n = ns[i];
        segm s = {OFFS64, n, heads_random(n, 5), NULL, 0, 0};
        if (n) s.heads[0] = 1;
        s.desc = skt_malloc((4 * n + 16) * 8);
        for (int j = 0; j < 3; j++) put_offset(&s, s.count++, 0);
        for (size_t j = 1; j < n; j++)
            for (int r = 0; s.heads[j] && r < 3; r++) put_offset(&s, s.count++, j);
        for (int j = 0; j < 3; j++) put_offset(&s, s.count++, n);
        s.segments = s.count;
        check_segscan(SK_INT32, SK_OP_ADD, excl, &s, (int)(i & 1), CFG_NAMES[k]);
        segm_free(&s);
    }
}

ParameterizedTestParameters(segscan_shapes, runs_of_empty_segments_should_not_disturb_the_scan)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES}, NULL);
}

ParameterizedTest(skt_case *c, segscan_shapes, runs_of_empty_segments_should_not_disturb_the_scan)
{
    skt_case_begin(c);
    for (int tiles = 0; tiles < 2; tiles++)
        for (int excl = 0; excl < 2; excl++)
            empty_runs((cfg)(case_cfg(c) + tiles), excl);
}

/* ---- custom non-commutative monoid: 2x2 matrices ------------------------------------------ */

static void check_mat2(int lines, int excl, const segm *s, const char *cfg_name)
{
    skt_scratch *b = &skt_bufs;
    size_t n = s->n, es = sizeof(skt_mat2), span = (n + SKT_GUARD) * es;
    skt_mat2 id = skt_ref_mat2_identity();
    const char *what = skt_fmt("mat2%s %s n=%zu, %s, %s", lines ? " over several lines" : "",
                               excl ? "exclusive" : "inclusive", n, KIND_NAMES[s->kind],
                               cfg_name);
    skt_bufs_reserve(span + desc_bytes(s) + 8);
    skt_fill_mat2((skt_mat2 *)b->h_src, n);
    skt_ref_segscan_generic(es, mat2_combine, &id, excl, b->h_src, b->h_ref, s->heads, n);
    sk_segments seg = segments_of(s);
    skt_buf_upload(b->src, 0, b->h_src, n * es);
    skt_buf_poison(b->dst, span);
    const sk_monoid *m = mat2_monoid(lines);
    sk_status st = excl ? sk_segscan_exclusive_monoid(skt_ctx, m, b->src, &seg, b->dst, n)
                        : sk_segscan_inclusive_monoid(skt_ctx, m, b->src, &seg, b->dst, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(b->dst, 0, b->h_out, span);
    skt_expect_bytes(b->h_out, b->h_ref, n, es, what);
    cr_assert_eq(skt_find_unpoisoned(b->h_out + n * es, SKT_GUARD * es), (size_t)-1,
                 "%s: wrote past n [seed %llu]", what, (unsigned long long)skt_seed());
}

/* Sizes of the matrix scans, with the average segment length at each. */
static const size_t MAT2_NS[] = {0, 1, 3, 8, 17, 500, 4097, 60001};
static const size_t MAT2_AVG[] = {1, 1, 2, 3, 8, 1, 40, 700};
/* Fewer of them for the same monoid over several lines. */
static const size_t MAT2_LINES_NS[] = {1, 17, 4097};
static const size_t MAT2_LINES_AVG[] = {1, 3, 40};

/* The GPU shape's scans of the matrix monoid: each is a program per tile
 * setting, flag width (offsets become uint8 flags) and scan. The one-line
 * monoid by uint8 flags and offsets inclusive with default tiles, by
 * uint32 flags exclusive with small tiles; over several lines by uint32
 * flags inclusive and the others exclusive with default tiles, the others
 * inclusive with small tiles. Each monoid meets every way, both tile
 * settings and both scans; every way meets both tile settings and both
 * scans, and the tile settings both scans. */
static int mat2_gpu_runs(int lines, cfg k, seg_kind kind, int excl)
{
    int small = k == GPU_SMALL, wide = kind == FLAGS32;
    if (!lines) return small ? wide && excl : !wide && !excl;
    return small ? !wide && !excl : wide ? !excl : excl;
}

/* One case per configuration: every way of giving segments at `count`
 * sizes, on the CPU shape inclusive and exclusive (one program for both),
 * on the GPU shape as mat2_gpu_runs says. */
static void mat2_sizes(const skt_case *c, int lines, const size_t *ns, const size_t *avg,
                       size_t count)
{
    cfg k = case_cfg(c);
    skt_case_begin(c);
    apply_cfg(k);
    int gpu = k == GPU_DEFAULT || k == GPU_SMALL;
    for (int kind = 0; kind < 4; kind++)
        for (int excl = 0; excl < 2; excl++) {
            if (gpu && !mat2_gpu_runs(lines, k, (seg_kind)kind, excl))
                continue;
            for (size_t i = 0; i < count; i++) {
                segm s;
                segm_random(&s, (seg_kind)kind, ns[i], avg[i]);
                check_mat2(lines, excl, &s, CFG_NAMES[k]);
                segm_free(&s);
            }
        }
}

ParameterizedTestParameters(segscan, matrix_monoid_should_match_the_reference_in_every_configuration)
{
    return skt_cases((skt_axes){CFG_AXES}, NULL);
}

ParameterizedTest(skt_case *c, segscan, matrix_monoid_should_match_the_reference_in_every_configuration)
{
    mat2_sizes(c, 0, MAT2_NS, MAT2_AVG, sizeof MAT2_NS / sizeof MAT2_NS[0]);
}

/* Identity and combine over several lines with // comments: they build
 * into every segmented-scan program (both shapes, flags and offsets) and
 * scan as the one-line monoid does. */
ParameterizedTestParameters(segscan, matrix_monoid_over_several_lines_should_match_the_reference_in_every_configuration)
{
    return skt_cases((skt_axes){CFG_AXES}, NULL);
}

ParameterizedTest(skt_case *c, segscan, matrix_monoid_over_several_lines_should_match_the_reference_in_every_configuration)
{
    mat2_sizes(c, 1, MAT2_LINES_NS, MAT2_LINES_AVG,
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
    for (size_t k = n; k < n + SKT_GUARD; k++)
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

/* Scans skt_bufs.h_src's n intervals (then SKT_GUARD tops) of `size` bytes with the
 * interval monoid m, segmented by s, and downloads them with the SKT_GUARD
 * elements after them into skt_bufs.h_out. */
static void iv_scan(const sk_monoid *m, size_t size, const void *top, const segm *s, int excl,
                    int in_place, const char *what)
{
    size_t span = (s->n + SKT_GUARD) * size;
    sk_segments seg = segments_of(s);
    cl_mem dst = in_place ? skt_bufs.src : skt_bufs.dst;
    skt_buf_upload(skt_bufs.src, 0, skt_bufs.h_src, span);
    if (!in_place) skt_buf_fill(skt_bufs.dst, top, size, 0, span);
    sk_status st = excl ? sk_segscan_exclusive_monoid(skt_ctx, m, skt_bufs.src, &seg, dst, s->n)
                        : sk_segscan_inclusive_monoid(skt_ctx, m, skt_bufs.src, &seg, dst, s->n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(dst, 0, skt_bufs.h_out, span);
}

static void iv_run(const segm *s, int excl, int in_place, const char *cfg_name)
{
    size_t n = s->n;
    const char *what = skt_fmt("interval %s n=%zu, %s, %s%s", excl ? "exclusive" : "inclusive",
                               n, KIND_NAMES[s->kind], cfg_name, in_place ? ", in place" : "");
    iv *host = (iv *)skt_bufs.h_src;
    for (size_t k = 0; k < n; k++) host[k] = (iv){(int32_t)k, (int32_t)k};
    for (size_t k = n; k < n + SKT_GUARD; k++) host[k] = IV_TOP;
    iv_scan(skt_monoid_interval(), sizeof(iv), &IV_TOP, s, excl, in_place, what);
    iv *out = (iv *)skt_bufs.h_out;
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
    /* offsets: up to 2n + 8 of 8 bytes */
    skt_bufs_reserve((2 * large[nlarge - 1] + SKT_GUARD) * 8);
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

/* Each configuration, inclusive and exclusive. */
ParameterizedTestParameters(segscan_interval, every_n_up_to_600_should_restart_intervals_at_heads)
{
    return skt_cases((skt_axes){CFG_AXES, .both_scans = 1}, NULL);
}

ParameterizedTest(skt_case *c, segscan_interval, every_n_up_to_600_should_restart_intervals_at_heads)
{
    static const size_t large[] = {4096, 65537, 1000003};
    cfg k = case_cfg(c);
    skt_case_begin(c);
    apply_cfg(k);
    interval_cases(k, c->exclusive, 600, large, 3, iv_run, 1);
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
    iv16 *host = (iv16 *)skt_bufs.h_src;
    for (size_t k = 0; k < n; k++) host[k] = (iv16){(uint16_t)k, (uint16_t)k};
    for (size_t k = n; k < n + SKT_GUARD; k++) host[k] = IV16_TOP;
    iv_scan(skt_monoid_interval16(), sizeof(iv16), &IV16_TOP, s, excl, in_place, what);
    iv16 *out = (iv16 *)skt_bufs.h_out;
    size_t h = 0;
    for (size_t k = 0; k < n + SKT_GUARD; k++) {
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

/* The GPU shape with default and small tiles, inclusive and exclusive. */
ParameterizedTestParameters(segscan_interval, every_n_up_to_300_should_restart_16_bit_intervals_in_one_pass)
{
    return skt_cases((skt_axes){.shapes = SKT_BIT(SK_SHAPE_GPU),
                                .paths = SKT_BIT(SK_SCAN_PATH_LOOKBACK), .classes = 2,
                                .both_scans = 1},
                     NULL);
}

ParameterizedTest(skt_case *c, segscan_interval, every_n_up_to_300_should_restart_16_bit_intervals_in_one_pass)
{
    static const size_t large[] = {4096, 65533};
    cfg k = case_cfg(c);
    skt_case_begin(c);
    apply_cfg(k);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    skt_launches count = {0};
    skt_count_launches(&count);
    interval_cases(k, c->exclusive, 300, large, 2, iv16_run, 0);
    skt_count_launches(NULL);
    cr_assert_gt(count.lookback, 0ul, "%s: the look-back kernel never ran", CFG_NAMES[k]);
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
