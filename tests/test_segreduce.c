/*
 * test_segreduce.c - sk_segreduce and its custom-monoid form (the total of
 * each segment), the host-array forms of the segmented scans and totals,
 * and the errors of every segmented entry point, against the serial
 * references in tests/ref/ref_segscan.c (test_segscan.c has the scans).
 *
 * Totals: each type x op x shape x way of giving segments (x tile
 * setting) is a program of its own, so the build-time axes are covered
 * pairwise, not as their product: every type x op is totalled with
 * default tiles in one shape by one way (SEGREDUCE_PLAN), every type and
 * every op meets both shapes and every way, every way both shapes (a test
 * checks the plan). Small tiles and the matrix monoid in order run every
 * configuration and every way, empty segments (offsets: the identity)
 * every configuration, taking turns as each test says; the totals past
 * the segment count stay poisoned. Errors: bad offsets, bad segment
 * descriptions, small or missing buffers and bad types give
 * SK_E_INVALID_ARG (or SK_E_UNSUPPORTED) without writing anything.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_segscan.h"
#include "skt_segscan.h"

TestSuite(segreduce, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(segscan_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(segscan_host, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* ---- segment totals ------------------------------------------------------------------------ */

/* totals: s->segments elements, checked; what lies after them stays poison;
 * *segments is the number of segments. */
static void check_segreduce(sk_type t, sk_op op, const segm *s, const char *cfg_name)
{
    skt_scratch *b = &skt_bufs;
    size_t n = s->n, es = skt_ref_type_size(t);
    size_t cap = is_offsets(s->kind) ? s->count : n; /* the documented capacity */
    size_t span = (cap + SKT_GUARD) * es;
    const char *what = skt_fmt("segreduce %s %s n=%zu, %s (%zu segments), %s", sk_type_name(t),
                               sk_op_name(op), n, KIND_NAMES[s->kind], s->segments, cfg_name);
    skt_bufs_reserve((n + s->count + SKT_GUARD) * es + desc_bytes(s) + 8);
    skt_fill(t, op, b->h_src, n);
    if (is_offsets(s->kind))
        skt_ref_segreduce_offsets(t, op, b->h_src, n, s->desc,
                                  s->kind == OFFS32 ? SK_UINT32 : SK_UINT64, s->count, b->h_ref);
    else
        cr_assert_eq(skt_ref_segreduce_heads(t, op, b->h_src, s->heads, n, b->h_ref), s->segments);
    sk_segments seg = segments_of(s);
    skt_buf_upload(b->src, 0, b->h_src, n * es);
    skt_buf_poison(b->dst, span);
    size_t got = (size_t)-7;
    sk_status st = sk_segreduce(skt_ctx, t, op, b->src, &seg, b->dst, &got, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    cr_assert_eq(got, s->segments, "%s: %zu segments reported [seed %llu]", what, got,
                 (unsigned long long)skt_seed());
    skt_buf_download(b->dst, 0, b->h_out, span);
    skt_expect_elems(t, b->h_out, b->h_ref, got, what);
    cr_assert_eq(skt_find_unpoisoned(b->h_out + got * es, span - got * es), (size_t)-1,
                 "%s: wrote past the totals [seed %llu]", what, (unsigned long long)skt_seed());
}

/* Where each type x op is totalled, with default tiles: its shape and way
 * of giving segments (pairwise over the build-time axes, see the header).
 * Every type and every op meets both shapes and every way; every way meets
 * both shapes. Each (type, op) is a program of its own in either shape
 * (the GPU shape's two), and each (type, identity, offset type) an offsets
 * program: the plan takes the fewest, sharing those that the tests below
 * build (uint32 add, float64 min, int32 add, int64 add, uint64 max). */
typedef struct segreduce_plan {
    unsigned char kind; /* seg_kind */
    unsigned char gpu;  /* the GPU shape, else the CPU shape */
} segreduce_plan;

#define C(k) {k, 0}
#define G(k) {k, 1}
static const segreduce_plan SEGREDUCE_PLAN[SK_TYPE_COUNT][SK_OP_COUNT] = {
    /* add, mul, min, max, and, or, xor */
    [SK_INT32] = {C(OFFS64), C(FLAGS32), G(FLAGS8), C(FLAGS32), C(OFFS32), C(FLAGS8), C(FLAGS32)},
    [SK_UINT32] = {G(OFFS32), C(FLAGS32), C(OFFS32), C(FLAGS8), G(FLAGS32), G(OFFS64), G(FLAGS8)},
    [SK_INT64] = {G(OFFS32), G(FLAGS8), C(FLAGS32), G(FLAGS32), G(OFFS64), G(FLAGS32), C(OFFS64)},
    [SK_UINT64] = {C(OFFS32), G(FLAGS32), G(FLAGS8), C(OFFS64), C(FLAGS8), C(OFFS32), G(OFFS32)},
    [SK_FLOAT32] = {C(FLAGS8), C(OFFS64), C(FLAGS32), G(OFFS32)},
    [SK_FLOAT64] = {C(FLAGS32), C(OFFS32), G(OFFS64), G(FLAGS8)},
};
#undef C
#undef G

/* One case per type x shape: the ops the plan totals in that shape. */
ParameterizedTestParameters(segreduce, every_type_and_op_should_total_each_segment)
{
    return skt_cases(SKT_TYPE_SHAPE_AXES, NULL);
}

ParameterizedTest(skt_case *c, segreduce, every_type_and_op_should_total_each_segment)
{
    static const size_t ns[] = {0, 1, 2, 33, 1000, 9001, 100003};
    static const size_t avg[] = {1, 1, 1, 4, 1, 60, 3000};
    sk_type t = (sk_type)c->type;
    cfg k = case_cfg(c);
    skt_case_begin(c);
    if (t == SK_FLOAT64 && !skt_has_fp64())
        cr_skip_test("device has no fp64");
    apply_cfg(k);
    SKT_EACH_OP(t, op) {
        segreduce_plan p = SEGREDUCE_PLAN[t][op];
        if (p.gpu != (k == GPU_DEFAULT)) continue;
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            segm s;
            segm_random(&s, (seg_kind)p.kind, ns[i], avg[i]);
            check_segreduce(t, (sk_op)op, &s, CFG_NAMES[k]);
            segm_free(&s);
        }
    }
}

/* The plan above is what the header says. */
Test(segreduce, totals_plan_should_cover_every_pair)
{
    unsigned type_kind[SK_TYPE_COUNT] = {0}, op_kind[SK_OP_COUNT] = {0};
    unsigned type_shape[SK_TYPE_COUNT] = {0}, op_shape[SK_OP_COUNT] = {0}, kind_shape[4] = {0};
    for (int t = 0; t < SK_TYPE_COUNT; t++)
        SKT_EACH_OP((sk_type)t, op) {
            segreduce_plan p = SEGREDUCE_PLAN[t][op];
            cr_assert_lt(p.kind, 4u);
            type_kind[t] |= SKT_BIT(p.kind);
            op_kind[op] |= SKT_BIT(p.kind);
            type_shape[t] |= SKT_BIT(p.gpu);
            op_shape[op] |= SKT_BIT(p.gpu);
            kind_shape[p.kind] |= SKT_BIT(p.gpu);
        }
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        cr_assert_eq(type_kind[t], 15u, "%s: not every way of giving segments",
                     sk_type_name((sk_type)t));
        cr_assert_eq(type_shape[t], 3u, "%s: not both shapes", sk_type_name((sk_type)t));
    }
    for (int op = 0; op < SK_OP_COUNT; op++) {
        cr_assert_eq(op_kind[op], 15u, "%s: not every way of giving segments",
                     sk_op_name((sk_op)op));
        cr_assert_eq(op_shape[op], 3u, "%s: not both shapes", sk_op_name((sk_op)op));
    }
    for (int k = 0; k < 4; k++)
        cr_assert_eq(kind_shape[k], 3u, "%s: not both shapes", KIND_NAMES[k]);
}

/* One case per configuration, uint32 add and float64 (or int64) min at
 * small sizes, one of them by flags (uint8 and uint32), the other by
 * offsets (uint32 and uint64), taking turns: each configuration meets
 * every way of giving segments, each of the two every configuration and
 * every way. */
ParameterizedTestParameters(segreduce, small_tiles_and_empty_segments_should_total_correctly)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES, .classes = 2}, NULL);
}

ParameterizedTest(skt_case *c, segreduce, small_tiles_and_empty_segments_should_total_correctly)
{
    static const size_t ns[] = {0, 1, 7, 8, 9, 100, 3001, 40000};
    cfg k = case_cfg(c);
    int add_offsets = k == CPU_SMALL || k == GPU_SMALL; /* uint32 add by offsets */
    sk_type min_type = skt_has_fp64() ? SK_FLOAT64 : SK_INT64;
    skt_case_begin(c);
    apply_cfg(k);
    for (int kind = 0; kind < 4; kind++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            segm s;
            segm_random(&s, (seg_kind)kind, ns[i], 1 + i * 3);
            if (is_offsets((seg_kind)kind) == add_offsets)
                check_segreduce(SK_UINT32, SK_OP_ADD, &s, CFG_NAMES[k]);
            else
                check_segreduce(min_type, SK_OP_MIN, &s, CFG_NAMES[k]);
            segm_free(&s);
        }
}

/* Totals by offsets stored at each segment's end (the totals by the head
 * flags derived from the offsets), which the library takes for offsets
 * without an empty segment from a size the tuning table sets (2^25):
 * forced from 1 element here ($SCANKIT_SEG_TOTALS_AT_ENDS_FROM, this
 * test's process only), uint32 add and float64 (or int64) min by uint32
 * and uint64 offsets, no segment empty, in every configuration; and with
 * empty segments, which keep the gather. */
ParameterizedTestParameters(segreduce, totals_by_offsets_stored_at_segment_ends)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES, .classes = 2}, NULL);
}

ParameterizedTest(skt_case *c, segreduce, totals_by_offsets_stored_at_segment_ends)
{
    static const size_t ns[] = {1, 2, 7, 8, 9, 100, 3001, 40000};
    cr_assert_eq(setenv("SCANKIT_SEG_TOTALS_AT_ENDS_FROM", "1", 1), 0);
    cfg k = case_cfg(c);
    sk_type min_type = skt_has_fp64() ? SK_FLOAT64 : SK_INT64;
    skt_case_begin(c);
    apply_cfg(k);
    for (int kind = OFFS32; kind <= OFFS64; kind++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (int empties = 0; empties < 2; empties++) {
                segm s;
                segm_init(&s, (seg_kind)kind, ns[i], heads_random(ns[i], 1 + i * 5), empties);
                check_segreduce(SK_UINT32, SK_OP_ADD, &s, CFG_NAMES[k]);
                check_segreduce(min_type, SK_OP_MIN, &s, CFG_NAMES[k]);
                segm_free(&s);
            }
}

/* Empty segments (offsets only) get the identity of the operator; a case
 * per shape, both tile settings: on the CPU shape add and min in each (one
 * program for both settings), on the GPU shape add with default tiles and
 * min with small tiles (a program each). */
ParameterizedTestParameters(segreduce, empty_segments_should_get_the_identity)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES}, NULL);
}

ParameterizedTest(skt_case *c, segreduce, empty_segments_should_get_the_identity)
{
    uint32_t src[4] = {5, 6, 7, 8};
    uint32_t off[6] = {0, 0, 2, 2, 4, 4};
    uint32_t want_add[6] = {0, 11, 0, 15, 0, 0};
    uint32_t want_min[6] = {0xFFFFFFFFu, 5, 0xFFFFFFFFu, 7, 0xFFFFFFFFu, 0xFFFFFFFFu};
    uint32_t got[8];
    size_t count = 0;
    sk_segments_host seg = {NULL, 0, off, SK_UINT32, 6};
    skt_case_begin(c);
    for (int tiles = 0; tiles < 2; tiles++) {
        cfg k = (cfg)(case_cfg(c) + tiles);
        apply_cfg(k);
        int gpu = k == GPU_DEFAULT || k == GPU_SMALL;
        if (!gpu || tiles == 0) {
            skt_poison(got, sizeof got);
            SKT_OK(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, src, &seg, got, &count, 4));
            cr_assert_eq(count, 6);
            cr_assert_eq(memcmp(got, want_add, sizeof want_add), 0, "%s", CFG_NAMES[k]);
            cr_assert_eq(skt_find_unpoisoned(got + 6, 8), (size_t)-1);
        }
        if (!gpu || tiles == 1) {
            skt_poison(got, sizeof got);
            count = 0;
            SKT_OK(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_MIN, src, &seg, got, &count, 4));
            cr_assert_eq(count, 6);
            cr_assert_eq(memcmp(got, want_min, sizeof want_min), 0, "%s", CFG_NAMES[k]);
            cr_assert_eq(skt_find_unpoisoned(got + 6, 8), (size_t)-1);
        }
    }
}

static void check_mat2_reduce(int lines, const segm *s, const char *cfg_name)
{
    skt_scratch *b = &skt_bufs;
    size_t n = s->n, es = sizeof(skt_mat2);
    size_t cap = is_offsets(s->kind) ? s->count : n, span = (cap + SKT_GUARD) * es;
    skt_mat2 id = skt_ref_mat2_identity();
    const char *what = skt_fmt("mat2%s segreduce n=%zu, %s, %s",
                               lines ? " over several lines" : "", n, KIND_NAMES[s->kind],
                               cfg_name);
    skt_bufs_reserve((n + s->count + SKT_GUARD) * es + desc_bytes(s) + 8);
    skt_fill_mat2((skt_mat2 *)b->h_src, n);
    if (is_offsets(s->kind))
        skt_ref_segreduce_offsets_generic(es, mat2_combine, &id, b->h_src, n, s->desc,
                                          s->kind == OFFS32 ? SK_UINT32 : SK_UINT64, s->count,
                                          b->h_ref);
    else
        skt_ref_segreduce_heads_generic(es, mat2_combine, &id, b->h_src, s->heads, n, b->h_ref);
    sk_segments seg = segments_of(s);
    skt_buf_upload(b->src, 0, b->h_src, n * es);
    skt_buf_poison(b->dst, span);
    size_t got = (size_t)-7;
    SKT_OK(sk_segreduce_monoid(skt_ctx, mat2_monoid(lines), b->src, &seg, b->dst, &got, n));
    cr_assert_eq(got, s->segments, "%s: %zu segments reported", what, got);
    skt_buf_download(b->dst, 0, b->h_out, span);
    skt_expect_bytes(b->h_out, b->h_ref, got, es, what);
    cr_assert_eq(skt_find_unpoisoned(b->h_out + got * es, span - got * es), (size_t)-1,
                 "%s: wrote past the totals [seed %llu]", what, (unsigned long long)skt_seed());
}

/* One case per shape: the two ways of giving segments from first_kind,
 * with default and small tiles on the CPU shape (one program for both),
 * with one of them on the GPU shape (a program each): default tiles by
 * flags and small tiles by offsets for the one-line monoid, the other way
 * round for the monoid over several lines. */
static void mat2_reduce_sizes(const skt_case *c, int lines, seg_kind first_kind)
{
    static const size_t ns[] = {0, 1, 9, 250, 5003};
    skt_case_begin(c);
    for (int tiles = 0; tiles < 2; tiles++) {
        cfg k = (cfg)(case_cfg(c) + tiles);
        if (c->shape == SK_SHAPE_GPU && tiles != (is_offsets(first_kind) != lines))
            continue;
        apply_cfg(k);
        for (int kind = first_kind; kind < (int)first_kind + 2; kind++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                segm s;
                segm_random(&s, (seg_kind)kind, ns[i], 1 + i * 7);
                check_mat2_reduce(lines, &s, CFG_NAMES[k]);
                segm_free(&s);
            }
    }
}

/* One case per shape x way of giving segments (variant 0: uint8 and uint32
 * flags; 1: uint32 and uint64 offsets). */
#define MAT2_REDUCE_AXES ((skt_axes){.shapes = SKT_BOTH_SHAPES, .variants = 2})

ParameterizedTestParameters(segreduce, matrix_monoid_should_total_each_segment_in_order)
{
    return skt_cases(MAT2_REDUCE_AXES, NULL);
}

ParameterizedTest(skt_case *c, segreduce, matrix_monoid_should_total_each_segment_in_order)
{
    mat2_reduce_sizes(c, 0, c->variant ? OFFS32 : FLAGS8);
}

/* The same totals with identity and combine over several lines. */
ParameterizedTestParameters(segreduce, matrix_monoid_over_several_lines_should_total_each_segment)
{
    return skt_cases(MAT2_REDUCE_AXES, NULL);
}

ParameterizedTest(skt_case *c, segreduce, matrix_monoid_over_several_lines_should_total_each_segment)
{
    mat2_reduce_sizes(c, 1, c->variant ? OFFS32 : FLAGS8);
}

/* Segment totals by a work-group per segment (the GPU shape's path for
 * segments that average the tuning's length or more), forced for every
 * segment here ($SCANKIT_SEG_GROUPS_FROM=1, this test's process only):
 * default and small tiles, uint32 add by uint32 offsets and float64 (or
 * int64) min by uint64 offsets over random segments (empty ones too),
 * segments of one tile less, one tile and one more of the default tiles
 * (32 x 16), and the 2x2 matrix product (operands never swapped); the
 * random segments with the offsets checked in the work-groups' launch and
 * by a launch of their own ($SCANKIT_SEG_GROUPS_CHECK_MAX unset, 0). */
ParameterizedTestParameters(segreduce, totals_by_a_work_group_per_segment)
{
    return skt_cases((skt_axes){.shapes = SKT_BIT(SK_SHAPE_GPU), .classes = 2}, NULL);
}

ParameterizedTest(skt_case *c, segreduce, totals_by_a_work_group_per_segment)
{
    static const size_t ns[] = {1, 2, 7, 1000, 3001, 40000};
    static const size_t avg[] = {1, 2, 3, 100, 1000, 3000};
    static const size_t edges[] = {511, 512, 513};
    cr_assert_eq(setenv("SCANKIT_SEG_GROUPS_FROM", "1", 1), 0);
    cfg k = case_cfg(c);
    sk_type min_type = skt_has_fp64() ? SK_FLOAT64 : SK_INT64;
    skt_case_begin(c);
    apply_cfg(k);
    for (size_t i = 0; i < 2 * (sizeof ns / sizeof ns[0]); i++) {
        cr_assert_eq(i % 2 ? setenv("SCANKIT_SEG_GROUPS_CHECK_MAX", "0", 1)
                           : unsetenv("SCANKIT_SEG_GROUPS_CHECK_MAX"), 0);
        segm s;
        segm_random(&s, OFFS32, ns[i / 2], avg[i / 2]);
        check_segreduce(SK_UINT32, SK_OP_ADD, &s, CFG_NAMES[k]);
        check_mat2_reduce(0, &s, CFG_NAMES[k]);
        segm_free(&s);
        segm_random(&s, OFFS64, ns[i / 2], avg[i / 2]);
        check_segreduce(min_type, SK_OP_MIN, &s, CFG_NAMES[k]);
        segm_free(&s);
    }
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        segm s;
        segm_init(&s, OFFS32, 5 * edges[i] + 3, heads_every(5 * edges[i] + 3, edges[i]), 0);
        check_segreduce(SK_UINT32, SK_OP_ADD, &s, CFG_NAMES[k]);
        check_mat2_reduce(0, &s, CFG_NAMES[k]);
        segm_free(&s);
    }
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
    sk_status st = sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, src, seg, dst, &count, n);
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

/* Every kind of bad offsets rejected by every entry point. */
static void expect_bad_offsets_rejected(bad_env *e)
{
    uint32_t unsorted[4] = {0, 10, 5, 20}, nonzero[3] = {1, 5, 9}, above[3] = {0, 5, 65};
    uint64_t unsorted64[3] = {0, 40, 39}, above64[2] = {0, ((uint64_t)1 << 32) + 3};
    sk_segments s = offsets_seg(e, unsorted, SK_UINT32, 4);
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "offsets not sorted");
    s = offsets_seg(e, nonzero, SK_UINT32, 3);
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "offsets[0] != 0");
    s = offsets_seg(e, above, SK_UINT32, 3);
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "an offset above n");
    s = offsets_seg(e, unsorted64, SK_UINT64, 3);
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "uint64 offsets not sorted");
    s = offsets_seg(e, above64, SK_UINT64, 2);
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "a uint64 offset above 2^32");
    s = offsets_seg(e, above, SK_UINT32, 0);
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "no offsets for n > 0");
    s = offsets_seg(e, above, SK_UINT32, 3);
    s.offset_type = SK_INT32;
    expect_rejected(e, &s, BAD_N, e->src, e->dst, "offset_type int32");
}

/* Each shape, default tiles; segment totals every way: below the size
 * where they go to segment ends the offsets' verdict is read after the
 * gather was enqueued (which must then store nothing), from it before
 * ($SCANKIT_SEG_TOTALS_AT_ENDS_FROM), and (GPU shape) by a work-group per
 * segment, read after that kernel ($SCANKIT_SEG_GROUPS_FROM; this test's
 * process only), checked in that kernel's launch or by one of its own
 * before ($SCANKIT_SEG_GROUPS_CHECK_MAX=0). */
ParameterizedTestParameters(segscan_errors, bad_offsets_should_be_rejected_without_writing)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES}, NULL);
}

ParameterizedTest(skt_case *c, segscan_errors, bad_offsets_should_be_rejected_without_writing)
{
    bad_env e;
    skt_case_begin(c);
    bad_open(&e);
    apply_cfg(case_cfg(c));
    for (int path = 0; path < 4; path++) {
        cr_assert_eq(unsetenv("SCANKIT_SEG_TOTALS_AT_ENDS_FROM"), 0);
        cr_assert_eq(unsetenv("SCANKIT_SEG_GROUPS_FROM"), 0);
        cr_assert_eq(unsetenv("SCANKIT_SEG_GROUPS_CHECK_MAX"), 0);
        if (path == 1) cr_assert_eq(setenv("SCANKIT_SEG_TOTALS_AT_ENDS_FROM", "1", 1), 0);
        if (path >= 2) cr_assert_eq(setenv("SCANKIT_SEG_GROUPS_FROM", "1", 1), 0);
        if (path == 3) cr_assert_eq(setenv("SCANKIT_SEG_GROUPS_CHECK_MAX", "0", 1), 0);
        expect_bad_offsets_rejected(&e);
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
        SKT_EXPECT_STATUS(sk_segscan_inclusive(NULL, SK_UINT32, SK_OP_ADD, e.src, &f1, e.dst,
                                               BAD_N), SK_E_INVALID_ARG);
    }
    size_t count = 99;
    /* Totals by flags need room for n; by offsets for count. */
    SKT_EXPECT_STATUS(sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, e.src, &f1, half, &count, BAD_N), SK_E_INVALID_ARG);
    uint32_t off[40] = {0};
    sk_segments o = offsets_seg(&e, off, SK_UINT32, 40);
    SKT_EXPECT_STATUS(sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, e.src, &o, e.tiny, &count, BAD_N), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_segreduce(skt_ctx, SK_UINT32, SK_OP_ADD, e.src, &o, NULL, &count, BAD_N), SK_E_INVALID_ARG);
    cr_assert_eq(count, 99);
    sk_monoid broken = *skt_monoid_mat2();
    broken.combine = NULL;
    SKT_EXPECT_STATUS(sk_segscan_inclusive_monoid(skt_ctx, &broken, e.src, &f1, e.dst, 4),
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
        SKT_EXPECT_STATUS(sk_segscan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, &bad[b],
                                                    out, BAD_N), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_segscan_exclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, &bad[b],
                                                    out, BAD_N), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, &bad[b], out,
                                            &count, BAD_N), SK_E_INVALID_ARG);
    }
    sk_segments_host ok = {flags, 1, NULL, SK_UINT32, 0};
    SKT_EXPECT_STATUS(sk_segscan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, &ok, NULL,
                                                BAD_N), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_segreduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, &ok, NULL, &count,
                                        BAD_N), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_segscan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, NULL, out,
                                                BAD_N), SK_E_INVALID_ARG);
    cr_assert_eq(count, 7);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "the output was written");
}

/* ---- host forms ---------------------------------------------------------------------------- */

static void check_host(sk_type t, sk_op op, const segm *s, int excl, int in_place)
{
    size_t n = s->n, es = skt_ref_type_size(t);
    const char *what = skt_fmt("host %s %s %s n=%zu, %s%s", sk_type_name(t), sk_op_name(op),
                               excl ? "exclusive" : "inclusive", n, KIND_NAMES[s->kind],
                               in_place ? ", in place" : "");
    unsigned char *src = skt_malloc((n + SKT_GUARD) * es), *out = skt_malloc((n + SKT_GUARD) * es);
    unsigned char *want = skt_malloc((n + 1) * es);
    skt_fill(t, op, src, n);
    skt_ref_segscan(t, op, excl, src, want, s->heads, n);
    sk_segments_host h = segments_host_of(s);
    unsigned char *dst = in_place ? src : out;
    skt_poison(out, (n + SKT_GUARD) * es);
    sk_status st = excl ? sk_segscan_exclusive_host(skt_ctx, t, op, src, &h, dst, n)
                        : sk_segscan_inclusive_host(skt_ctx, t, op, src, &h, dst, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s)", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx));
    skt_expect_elems(t, dst, want, n, what);
    if (!in_place)
        cr_assert_eq(skt_find_unpoisoned(out + n * es, SKT_GUARD * es), (size_t)-1,
                     "%s: wrote past n", what);
    free(src);
    free(out);
    free(want);
}

/* One case per way of giving segments, at every size: int32 add and uint64
 * max scans (inclusive and exclusive, in place and out of place) and int64
 * add totals. */
static void host_forms(seg_kind kind, size_t i)
{
    static const size_t ns[] = {0, 1, 50, 2047, 30011};
    segm s;
    segm_random(&s, kind, ns[i], 1 + i * i * 5);
    for (int excl = 0; excl < 2; excl++) {
        check_host(SK_INT32, SK_OP_ADD, &s, excl, excl);
        check_host(SK_UINT64, SK_OP_MAX, &s, excl, !excl);
    }
    size_t cap = is_offsets(s.kind) ? s.count : s.n, got = 0;
    int64_t *src = skt_malloc((s.n + 1) * 8), *tot = skt_malloc((cap + SKT_GUARD) * 8);
    int64_t *want = skt_malloc((cap + 1) * 8);
    skt_fill(SK_INT64, SK_OP_ADD, src, s.n);
    if (is_offsets(s.kind))
        skt_ref_segreduce_offsets(SK_INT64, SK_OP_ADD, src, s.n, s.desc,
                                  s.kind == OFFS32 ? SK_UINT32 : SK_UINT64, s.count, want);
    else
        skt_ref_segreduce_heads(SK_INT64, SK_OP_ADD, src, s.heads, s.n, want);
    skt_poison(tot, (cap + SKT_GUARD) * 8);
    sk_segments_host h = segments_host_of(&s);
    SKT_OK(sk_segreduce_host(skt_ctx, SK_INT64, SK_OP_ADD, src, &h, tot, &got, s.n));
    cr_assert_eq(got, s.segments);
    skt_expect_elems(SK_INT64, tot, want, got, "host segreduce");
    cr_assert_eq(skt_find_unpoisoned(tot + got, (cap + SKT_GUARD - got) * 8), (size_t)-1,
                 "host segreduce wrote past the totals");
    free(src);
    free(tot);
    free(want);
    segm_free(&s);
}

ParameterizedTestParameters(segscan_host, host_forms_should_match_the_reference)
{
    return skt_cases((skt_axes){.variants = 4}, NULL);
}

ParameterizedTest(skt_case *c, segscan_host, host_forms_should_match_the_reference)
{
    skt_case_begin(c);
    for (size_t i = 0; i < 5; i++)
        host_forms((seg_kind)c->variant, i);
}
