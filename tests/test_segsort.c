/*
 * test_segsort.c - sk_segsort_keys/_pairs (and _bits, _host), against the
 * serial reference in tests/ref/ref_segsort.c: each segment sorted on its
 * own by the radix sort's reference (values in IEEE totalOrder, stable).
 *
 * Every case runs in both shapes. Segmentations: one segment, all of one
 * key, many tiny segments with empty ones among them, and mixes of tiny,
 * tile-sized and longer segments (past the GPU shape's tile of work-group
 * x 4 keys, and in one case past the CPU shape's tile of 65536 keys, so
 * each bin's method runs). Keys are random over every key type (floats
 * mixing in NaNs of both signs, +-0 and +-inf) or few unique; pairs carry
 * their input index, so a stable order is checked exactly. Offsets are
 * uint32 and uint64 in turn, the cl_mem and host forms in turn; guard
 * elements past n are poisoned and must stay so.
 *
 * The large segments' batch (all of them sorted together by two radix
 * sorts) runs on the GPU shape wherever two or more segments are large,
 * the CPU shape sorts them by a work-item each (a radix sort per segment);
 * the bounds forced low (sk__test_set_segsort_bounds: kernel arguments
 * only, no program of its own) make small inputs take them, beside the
 * bins and the segments sorted alone.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_segsort.h"
#include "ref/ref_sort.h"
#include "sk_testing.h"
#include "skt_common.h"

TestSuite(segsort, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(segsort_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 8

/* ---- inputs -------------------------------------------------------------------- */

/* SEG_MIX: segments of up to 1116 keys (past a GPU tile of 256 x 4 only
 * for work-groups of 256 and up); SEG_MIX_LARGE: and a tenth of 1025 to
 * 4024 keys, past the GPU shape's tile (each such case builds the radix
 * sort's programs too, so only some take it). */
/* SEG_EDGES: lengths of 0, 1 and one off or on a power of two from 16 to
 * 1024, so that across many tiles segments end at, just before and just
 * after a tile's edge (any power-of-two tile), some past a GPU tile. */
/* SEG_GROUPS: mostly tiny segments, some up to 120 keys (short for every
 * GPU tile of 128 keys and up), and large ones of 4600 to 8599 keys: long
 * enough, whatever the draw, to be sorted by a work-group each
 * (segsort.c's SEGSORT_GROUP_MIN_KEYS). */
typedef enum seg_kind {
    SEG_ONE, SEG_SINGLES, SEG_TINY, SEG_MIX, SEG_MIX_LARGE, SEG_EDGES, SEG_GROUPS
} seg_kind;

/* Appends a segment of `len` keys at *n; grows offsets. */
static void add_segment(uint64_t *offsets, size_t *count, size_t *n, size_t len)
{
    offsets[(*count)++] = *n;
    *n += len;
}

/* Offsets of kind k for about `target` keys (at most target + max segment);
 * *n their total. offsets must hold target + 2 entries. */
static size_t make_offsets(seg_kind k, size_t target, uint64_t *offsets, size_t *n)
{
    size_t count = 0;
    *n = 0;
    if (k == SEG_ONE) {
        add_segment(offsets, &count, n, target);
        return count;
    }
    while (*n < target) {
        size_t r = skt_rand_below(100), len = 1;
        if (k == SEG_TINY) len = skt_rand_below(20); /* empties among them */
        if (k == SEG_MIX || k == SEG_MIX_LARGE)
            len = r < 60 ? skt_rand_below(17) : 17 + skt_rand_below(1000);
        if (k == SEG_MIX_LARGE && r >= 90) len = 1025 + skt_rand_below(3000);
        if (k == SEG_GROUPS)
            len = r < 70 ? skt_rand_below(17)
                  : r < 80 ? 17 + skt_rand_below(104) : 4600 + skt_rand_below(4000);
        if (k == SEG_EDGES)
            len = r < 10 ? r % 2 : ((size_t)16 << skt_rand_below(7)) + skt_rand_below(3) - 1;
        if (*n + len > target) len = target - *n;
        add_segment(offsets, &count, n, len);
    }
    if (k == SEG_TINY) add_segment(offsets, &count, n, 0); /* an empty last segment */
    return count;
}

static void make_keys(sk_type t, void *keys, size_t n, int few)
{
    uint64_t pool[3] = {skt_random_key(t), skt_random_key(t), skt_random_key(t)};
    for (size_t i = 0; i < n; i++)
        skt_ref_put_key(t, keys, i, few ? pool[few == 2 ? 0 : skt_rand_below(3)]
                                        : skt_random_key(t));
}

/* ---- one case ------------------------------------------------------------------- */

typedef struct seg_case {
    sk_type type;
    size_t n, count;
    const uint64_t *offsets;
    sk_type offset_type;
    size_t value_size;            /* 0: keys only; values are indices */
    int descending;
    unsigned begin, end;          /* end 0: every bit */
    bool host;
    int few;                      /* 1: few unique keys; 2: all of one key */
} seg_case;

/* The offsets as offset_type. */
static void *offsets_as(const seg_case *c)
{
    size_t os = sk_type_size(c->offset_type);
    unsigned char *o = skt_malloc(c->count * os + 1);
    for (size_t s = 0; s < c->count; s++) skt_ref_put_key(c->offset_type, o, s, c->offsets[s]);
    return o;
}

static sk_status call_mem(const seg_case *c, cl_mem k, cl_mem v, const sk_segments *seg)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (c->end && c->value_size)
        return sk_segsort_pairs_bits(skt_ctx, c->type, c->value_size, k, v, seg, c->n, o,
                                     c->begin, c->end);
    if (c->end) return sk_segsort_keys_bits(skt_ctx, c->type, k, seg, c->n, o, c->begin, c->end);
    if (c->value_size) return sk_segsort_pairs(skt_ctx, c->type, c->value_size, k, v, seg, c->n, o);
    return sk_segsort_keys(skt_ctx, c->type, k, seg, c->n, o);
}

/* Sorts keys (and values) in place by the cl_mem form; guards checked. */
static void run_mem(const seg_case *c, void *keys, void *vals, const void *want_k,
                    const void *want_v, const char *what)
{
    size_t ks = sk_type_size(c->type), vs = c->value_size;
    void *offs = offsets_as(c);
    cl_mem k = skt_buf_guarded(keys, c->n, ks, GUARD);
    cl_mem v = vs ? skt_buf_guarded(vals, c->n, vs, GUARD) : NULL;
    cl_mem o = skt_buf_new(c->count * sk_type_size(c->offset_type));
    if (c->count) skt_buf_upload(o, 0, offs, c->count * sk_type_size(c->offset_type));
    sk_segments seg = {NULL, 0, o, c->offset_type, c->count};
    SKT_OK(call_mem(c, k, v, &seg));
    skt_expect_guarded(k, want_k, c->n, ks, GUARD, what, "keys");
    if (vs) skt_expect_guarded(v, want_v, c->n, vs, GUARD, what, "values");
    skt_buf_free(k);
    skt_buf_free(v);
    skt_buf_free(o);
    free(offs);
}

/* The same through the host form, arrays with poisoned guards. */
static void run_host(const seg_case *c, void *keys, void *vals, const void *want_k,
                     const void *want_v, const char *what)
{
    size_t ks = sk_type_size(c->type), vs = c->value_size;
    void *offs = offsets_as(c);
    unsigned char *k = skt_malloc((c->n + GUARD) * ks), *v = skt_malloc((c->n + GUARD) * 8);
    memcpy(k, keys, c->n * ks);
    skt_poison(k + c->n * ks, GUARD * ks);
    if (vs) memcpy(v, vals, c->n * vs);
    skt_poison(v + c->n * vs, GUARD * vs);
    sk_segments_host seg = {NULL, 0, offs, c->offset_type, c->count};
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (vs) SKT_OK(sk_segsort_pairs_host(skt_ctx, c->type, vs, k, v, &seg, c->n, o));
    else SKT_OK(sk_segsort_keys_host(skt_ctx, c->type, k, &seg, c->n, o));
    skt_expect_bytes(k, want_k, c->n, ks, skt_fmt("%s, keys", what));
    cr_assert_eq(skt_find_unpoisoned(k + c->n * ks, GUARD * ks), (size_t)-1,
                 "%s: keys written past n [seed %llu]", what, (unsigned long long)skt_seed());
    if (vs) skt_expect_bytes(v, want_v, c->n, vs, skt_fmt("%s, values", what));
    cr_assert_eq(skt_find_unpoisoned(v + c->n * vs, GUARD * vs), (size_t)-1,
                 "%s: values written past n [seed %llu]", what, (unsigned long long)skt_seed());
    free(k);
    free(v);
    free(offs);
}

/* Draws keys (values: their indices), sorts them and checks the result
 * against the reference. */
static void check_case(const seg_case *c, const char *what)
{
    size_t ks = sk_type_size(c->type), vs = c->value_size, n = c->n;
    unsigned char *keys = skt_malloc(n * ks + 1), *vals = skt_malloc(n * 8 + 1);
    unsigned char *want_k = skt_malloc(n * ks + 1), *want_v = skt_malloc(n * 8 + 1);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    make_keys(c->type, keys, n, c->few);
    for (size_t i = 0; i < n; i++) skt_ref_put_key(vs == 8 ? SK_UINT64 : SK_UINT32, vals, i, i);
    unsigned end = c->end ? c->end : (unsigned)(8 * ks);
    skt_ref_segsort_perm(c->type, keys, n, c->offsets, c->count, c->descending, c->begin, end,
                         perm);
    skt_ref_gather(keys, ks, perm, n, want_k);
    if (vs) skt_ref_gather(vals, vs, perm, n, want_v);
    const char *full = skt_fmt("%s: %s, n %zu, %zu segments, offsets %s, %s%s", what,
                               sk_type_name(c->type), n, c->count, sk_type_name(c->offset_type),
                               c->descending ? "descending" : "ascending",
                               vs ? (vs == 8 ? ", 8-byte values" : ", 4-byte values") : "");
    if (c->host) run_host(c, keys, vals, want_k, want_v, full);
    else run_mem(c, keys, vals, want_k, want_v, full);
    skt_free_all(keys, vals, want_k, want_v, perm, NULL);
}

/* check_case in both shapes. */
static void check_shapes(const seg_case *c, const char *what)
{
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        check_case(c, skt_fmt("%s, %s shape", what, skt_shape_name((sk_shape)shape)));
    }
}

/* A case of kind k over about `target` keys, in one shape or (AUTO) both. */
static void check_kind_in(seg_case c, seg_kind k, size_t target, const char *what,
                          sk_shape shape)
{
    uint64_t *offs = skt_malloc((target + 2) * sizeof *offs);
    c.count = make_offsets(k, target, offs, &c.n);
    c.offsets = offs;
    if (shape == SK_SHAPE_AUTO) {
        check_shapes(&c, what);
    } else {
        skt_force_shape(shape);
        check_case(&c, skt_fmt("%s, %s shape", what, skt_shape_name(shape)));
    }
    free(offs);
}

static void check_kind(seg_case c, seg_kind k, size_t target, const char *what)
{
    check_kind_in(c, k, target, what, SK_SHAPE_AUTO);
}

static bool type_runs(sk_type t) { return t != SK_FLOAT64 || skt_has_fp64(); }

/* ---- every key type and segmentation ---------------------------------------------- */

Test(segsort, keys_of_every_type_match_the_reference_in_every_segmentation)
{
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (!type_runs((sk_type)t)) continue;
        sk_type ot = t % 2 ? SK_UINT64 : SK_UINT32;
        seg_case c = {(sk_type)t, 0, 0, NULL, ot, 0, t % 3 == 1, 0, 0, t % 2 == 0, false};
        bool large = t == SK_FLOAT32; /* the radix sort's programs: one type here */
        check_kind(c, large ? SEG_MIX_LARGE : SEG_MIX, 6000, "mix of segment lengths");
        c.descending = !c.descending;
        c.host = !c.host;
        check_kind(c, SEG_TINY, 700, "tiny segments, empty ones among them");
    }
}

Test(segsort, pairs_keep_equal_keys_in_input_order)
{
    /* 4-byte values with uint32 offsets, 8-byte values with uint64 ones
     * (each a program of its own per shape: kept few for cold builds) */
    const sk_type types[] = {SK_UINT32, SK_FLOAT64};
    for (size_t i = 0; i < 2; i++) {
        if (!type_runs(types[i])) continue;
        for (int d = 0; d < 2; d++) {
            seg_case c = {types[i], 0, 0, NULL, i % 2 ? SK_UINT64 : SK_UINT32, i % 2 ? 8 : 4,
                          d, 0, 0, d == 1, true};
            check_kind(c, i == 0 ? SEG_MIX_LARGE : SEG_MIX, 5000, "pairs, few unique keys");
            c.few = false;
            check_kind(c, SEG_TINY, 500, "pairs, tiny segments");
        }
    }
}

/* Many tiles of keys, segments ending at and around their edges. */
Test(segsort, segments_at_tile_edges_match_the_reference)
{
    seg_case c = {SK_UINT32, 0, 0, NULL, SK_UINT32, 0, 0, 0, 0, false, false};
    check_kind(c, SEG_EDGES, 30000, "segments around tile edges");
    c = (seg_case){SK_UINT32, 0, 0, NULL, SK_UINT64, 4, 1, 0, 0, true, true};
    check_kind(c, SEG_EDGES, 20000, "pairs, segments around tile edges");
}

/* n = 0 (no segment, one empty segment), 1, all segments of one key, one
 * segment covering everything (the radix sort on the caller's buffers),
 * empty segments first, between and last. */
Test(segsort, edge_segmentations_match_the_reference)
{
    uint64_t zero[3] = {0, 0, 0}, *offs = skt_malloc(4002 * sizeof *offs);
    seg_case c = {SK_UINT32, 0, 0, zero, SK_UINT32, 4, 0, 0, 0, false, false};
    check_shapes(&c, "n 0, no segment");
    c.count = 1;
    check_shapes(&c, "n 0, one empty segment");
    c.host = true;
    check_shapes(&c, "n 0, host form");
    c.n = 1;
    c.count = 3;
    check_shapes(&c, "n 1 after two empty segments");
    c.host = false;
    c.count = make_offsets(SEG_SINGLES, 300, offs, &c.n);
    c.offsets = offs;
    check_shapes(&c, "all segments of one key");
    c.count = make_offsets(SEG_ONE, 4000, offs, &c.n);
    check_shapes(&c, "one segment");
    c.descending = 1;
    c.count = make_offsets(SEG_ONE, 20, offs, &c.n);
    check_shapes(&c, "one segment of 20");
    uint64_t gaps[] = {0, 0, 5, 5, 5, 40, 1500, 1500};
    c = (seg_case){SK_FLOAT64, 1500, 8, gaps, SK_UINT64, 8, 0, 0, 0, true, false};
    if (type_runs(c.type)) check_shapes(&c, "empty segments first, between and last");
    free(offs);
}

/* Segments past the CPU shape's tile (65536 keys) take the device-wide
 * sort there, at offset 0 and elsewhere. */
Test(segsort, segments_past_the_cpu_tile_match_the_reference)
{
    uint64_t offs[] = {0, 70000, 70009, 70009, 70100, 140200};
    seg_case c = {SK_UINT32, 140300, 6, offs, SK_UINT32, 4, 0, 0, 0, false, false};
    check_shapes(&c, "segments of 70000 keys");
}

Test(segsort, bit_ranges_order_by_their_bits_only)
{
    seg_case c = {SK_UINT32, 0, 0, NULL, SK_UINT32, 4, 0, 4, 12, false, false};
    check_kind(c, SEG_MIX_LARGE, 4000, "uint32 bits [4, 12)");
    c = (seg_case){SK_FLOAT64, 0, 0, NULL, SK_UINT64, 0, 1, 40, 64, false, false};
    if (type_runs(c.type)) check_kind(c, SEG_MIX, 4000, "float64 bits [40, 64), descending");
}

/* The 8- and 16-bit keys: each type once (a program per type and shape),
 * keys and pairs, both offset types, both orders, a bit range. */
Test(segsort, narrow_keys_match_the_reference)
{
    seg_case c = {SK_UINT8, 0, 0, NULL, SK_UINT32, 0, 0, 0, 0, false, true};
    check_kind(c, SEG_MIX, 3000, "uint8 keys, few unique");
    c = (seg_case){SK_INT8, 0, 0, NULL, SK_UINT64, 8, 1, 0, 0, true, false};
    check_kind(c, SEG_TINY, 700, "int8 pairs, tiny segments");
    c = (seg_case){SK_INT16, 0, 0, NULL, SK_UINT64, 4, 1, 0, 0, false, false};
    check_kind(c, SEG_MIX, 3000, "int16 pairs");
    c = (seg_case){SK_FLOAT16, 0, 0, NULL, SK_UINT32, 0, 0, 0, 0, true, false};
    check_kind(c, SEG_MIX, 3000, "float16 keys");
    c = (seg_case){SK_UINT16, 0, 0, NULL, SK_UINT32, 0, 1, 3, 13, false, false};
    check_kind(c, SEG_MIX, 3000, "uint16 bits [3, 13), descending");
}

/* ---- the large segments' batch ---------------------------------------------------- */

/* Segments past `big` keys are large, those of `alone` keys and more
 * sorted alone (NEVER: none; CPU devices are tuned to sort every large
 * segment alone); the rest of the large ones in the batch. */
#define NEVER SIZE_MAX
static void force_bounds(size_t big, size_t alone)
{
    SKT_OK(sk__test_set_segsort_bounds(skt_ctx, big, alone));
}

/* Narrow keys through the large segments' batch (segments past 64 keys
 * large, none sorted alone): the batch gathers and puts back keys of their
 * own width, 1 and 2 bytes, keys alone and pairs. */
Test(segsort, narrow_keys_in_the_batch_match_the_reference)
{
    force_bounds(64, NEVER);
    seg_case c = {SK_UINT8, 0, 0, NULL, SK_UINT32, 0, 0, 0, 0, false, true};
    check_kind(c, SEG_MIX, 3000, "uint8 keys, few unique, batch");
    c = (seg_case){SK_INT16, 0, 0, NULL, SK_UINT64, 4, 1, 0, 0, false, false};
    check_kind(c, SEG_MIX, 3000, "int16 pairs, descending, batch");
    c = (seg_case){SK_FLOAT16, 0, 0, NULL, SK_UINT32, 8, 0, 0, 0, true, false};
    check_kind(c, SEG_MIX, 3000, "float16 pairs of 8-byte values, batch");
}

/* Keys only (the batch carries segment numbers) and pairs (it carries
 * places), uint32 keys as the other cases build their sorts, and float64
 * pairs (GPU shape) and keys (CPU shape) for 64-bit keys; segments past 64 keys large, so the mixes hold
 * tiny, tile and large segments, with empty ones among them. */
Test(segsort, large_segments_sorted_together_match_the_reference)
{
    force_bounds(64, NEVER);
    seg_case c = {SK_UINT32, 0, 0, NULL, SK_UINT64, 0, 0, 0, 0, false, 0};
    check_kind(c, SEG_MIX, 6000, "batch, keys, mix of segment lengths");
    c.descending = 1;
    c.host = true;
    check_kind(c, SEG_MIX_LARGE, 9000, "batch, keys, with longer segments");
    c = (seg_case){SK_UINT32, 0, 0, NULL, SK_UINT32, 4, 0, 0, 0, false, 1};
    check_kind(c, SEG_MIX, 6000, "batch, pairs, few unique keys");
    c.few = 2;
    c.descending = 1;
    check_kind(c, SEG_MIX, 3000, "batch, pairs, all of one key");
    c = (seg_case){SK_UINT32, 0, 0, NULL, SK_UINT32, 4, 0, 4, 12, false, 0};
    check_kind(c, SEG_MIX, 4000, "batch, pairs, bits [4, 12)");
    /* 64-bit keys: their sorts' programs in one shape each */
    c = (seg_case){SK_FLOAT64, 0, 0, NULL, SK_UINT64, 8, 1, 0, 0, false, 1};
    if (type_runs(c.type)) check_kind_in(c, SEG_MIX, 3000, "batch, float64 pairs", SK_SHAPE_GPU);
    c.value_size = 0; /* the keys carried as the segment sort's values */
    c.few = 0;
    if (type_runs(c.type)) check_kind_in(c, SEG_MIX, 3000, "batch, float64 keys", SK_SHAPE_CPU);
    force_bounds(0, 0);
}

/* Segments of 17 to 19 keys large among empty and tiny ones (the batch's
 * table with many entries), one segment holding every key (sorted alone,
 * in place), and a mix where the longest large segments are sorted alone
 * and the others together. */
Test(segsort, large_segments_in_every_arrangement_match_the_reference)
{
    seg_case c = {SK_UINT32, 0, 0, NULL, SK_UINT32, 4, 0, 0, 0, false, 0};
    force_bounds(16, NEVER);
    check_kind(c, SEG_TINY, 3000, "batch, tiny and empty segments");
    force_bounds(64, NEVER);
    check_kind(c, SEG_ONE, 3000, "one large segment");
    force_bounds(64, 500);
    c.descending = 1;
    check_kind(c, SEG_MIX, 8000, "batch and alone");
    force_bounds(0, 0);
}

/* The batch's segments sorted by a work-group each (GPU shape; from two
 * such segments, SCANKIT_SEGSORT_GROUPS_FROM): an even and an odd number
 * of digit passes (the odd one ends with a copy back), keys and pairs of
 * 4- and 8-byte values, narrow, 64-bit and float keys, a bit range, few
 * and one unique key, both offset types and both forms. */
Test(segsort, large_segments_by_a_work_group_each_match_the_reference)
{
    cr_assert_eq(setenv("SCANKIT_SEGSORT_GROUPS_FROM", "2", 1), 0);
    force_bounds(1024, NEVER);
    seg_case c = {SK_UINT32, 0, 0, NULL, SK_UINT64, 0, 0, 0, 0, false, 0};
    check_kind_in(c, SEG_GROUPS, 40000, "groups, uint32 keys", SK_SHAPE_GPU);
    c = (seg_case){SK_UINT32, 0, 0, NULL, SK_UINT32, 4, 1, 0, 0, true, 1};
    check_kind_in(c, SEG_GROUPS, 40000, "groups, pairs, few unique keys", SK_SHAPE_GPU);
    c = (seg_case){SK_UINT32, 0, 0, NULL, SK_UINT32, 4, 0, 4, 28, false, 0};
    check_kind_in(c, SEG_GROUPS, 30000, "groups, pairs, bits [4, 28)", SK_SHAPE_GPU);
    c = (seg_case){SK_UINT8, 0, 0, NULL, SK_UINT64, 0, 1, 0, 0, true, 2};
    check_kind_in(c, SEG_GROUPS, 30000, "groups, uint8 keys, all of one key", SK_SHAPE_GPU);
    c = (seg_case){SK_INT16, 0, 0, NULL, SK_UINT32, 8, 0, 0, 0, false, 0};
    check_kind_in(c, SEG_GROUPS, 30000, "groups, int16 pairs of 8-byte values", SK_SHAPE_GPU);
    c = (seg_case){SK_FLOAT64, 0, 0, NULL, SK_UINT64, 8, 1, 0, 0, false, 0};
    if (type_runs(c.type))
        check_kind_in(c, SEG_GROUPS, 30000, "groups, float64 pairs", SK_SHAPE_GPU);
    c = (seg_case){SK_FLOAT32, 0, 0, NULL, SK_UINT32, 0, 0, 0, 0, false, 0};
    check_kind_in(c, SEG_GROUPS, 30000, "groups, float32 keys", SK_SHAPE_GPU);
    /* tiles of 32 x 2 keys: a hundred and more to a segment */
    skt_tiles_set(32, 2, 0, 0);
    c = (seg_case){SK_UINT32, 0, 0, NULL, SK_UINT64, 4, 0, 0, 0, false, 0};
    check_kind_in(c, SEG_GROUPS, 30000, "groups, pairs, tiles of 64 keys", SK_SHAPE_GPU);
    skt_tiles_default();
    force_bounds(0, 0);
    cr_assert_eq(unsetenv("SCANKIT_SEGSORT_GROUPS_FROM"), 0);
}

/* ---- launches ----------------------------------------------------------------------- */

typedef struct traced {
    int launches;
    char kernels[2048];
} traced;

static void note_launch(const sk_launch_record *r, void *user)
{
    traced *t = user;
    t->launches++;
    size_t len = strlen(t->kernels);
    snprintf(t->kernels + len, sizeof t->kernels - len, "%s ", r->kernel);
}

/* Short segments only: the offsets' check, then the shape's kernels (GPU:
 * the tiles' first segments, then the tiles), nothing else; traced. */
Test(segsort, short_segments_take_the_shapes_kernels_only_traced)
{
    uint32_t keys[6] = {3, 1, 2, 9, 8, 7}, offs[3] = {0, 3, 3};
    const uint32_t want[6] = {1, 2, 3, 7, 8, 9};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        traced t = {0};
        uint32_t k[6];
        memcpy(k, keys, sizeof k);
        skt_force_shape((sk_shape)shape);
        sk_segments_host seg = {NULL, 0, offs, SK_UINT32, 3};
        SKT_OK(sk_context_set_trace(skt_ctx, note_launch, &t));
        SKT_OK(sk_segsort_keys_host(skt_ctx, SK_UINT32, k, &seg, 6, SK_ASCENDING));
        SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
        const char *want_launches = shape == SK_SHAPE_GPU
                                        ? "sk_seg_check_offsets sk_segsort_classify sk_segsort_tiles "
                                        : "sk_seg_check_offsets sk_segsort_chunks ";
        cr_assert_str_eq(t.kernels, want_launches, "%s shape: launches '%s'",
                         skt_shape_name((sk_shape)shape), t.kernels);
        skt_expect_elems(SK_UINT32, k, want, 6, "traced sort");
    }
}

/* The large segments' launches: as many for 40 of them as for 4 (after a
 * first call, which may zero the radix sort's counting words once: sort.c,
 * open_digit_counters); the GPU shape's batch gathers and puts back, the
 * CPU shape sorts them by a work-item each, no batch. */
Test(segsort, large_segments_take_as_many_launches_however_many_there_are_traced)
{
    force_bounds(64, NEVER);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        int launches[2] = {0, 0};
        skt_force_shape((sk_shape)shape);
        for (int i = -1; i < 2; i++) {
            size_t count = i > 0 ? 40 : 4, n = 100 * count;
            uint32_t *k = skt_malloc(n * sizeof *k), *want = skt_malloc(n * sizeof *want);
            uint32_t offs[40];
            uint64_t offs64[40];
            size_t perm[4000];
            for (size_t s = 0; s < count; s++) offs64[s] = offs[s] = (uint32_t)(100 * s);
            make_keys(SK_UINT32, k, n, 0);
            skt_ref_segsort_perm(SK_UINT32, k, n, offs64, count, 0, 0, 32, perm);
            skt_ref_gather(k, 4, perm, n, want);
            traced t = {0};
            sk_segments_host seg = {NULL, 0, offs, SK_UINT32, count};
            SKT_OK(sk_context_set_trace(skt_ctx, note_launch, &t));
            SKT_OK(sk_segsort_keys_host(skt_ctx, SK_UINT32, k, &seg, n, SK_ASCENDING));
            SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
            if (i >= 0) launches[i] = t.launches;
            bool batch = strstr(t.kernels, "sk_segsort_gather") && strstr(t.kernels, "sk_segsort_put");
            bool items = strstr(t.kernels, "sk_segsort_radix_spans") != NULL;
            cr_assert(shape == SK_SHAPE_GPU ? batch && !items : items && !batch,
                      "%s shape: launches '%s'", skt_shape_name((sk_shape)shape), t.kernels);
            skt_expect_elems(SK_UINT32, k, want, n, "traced batch");
            skt_free_all(k, want, NULL);
        }
        cr_assert_eq(launches[0], launches[1], "%s shape: %d launches for 4 segments, %d for 40",
                     skt_shape_name((sk_shape)shape), launches[0], launches[1]);
    }
    force_bounds(0, 0);
}

/* Three large segments of 5000 keys (and tiny ones): by a work-group
 * each where SCANKIT_SEGSORT_GROUPS_FROM allows it (the count, the digits'
 * sweeps, no batch), else by the batch; traced, both right. */
Test(segsort, large_segments_by_a_work_group_each_take_no_batch_traced)
{
    uint32_t offs[6] = {0, 5000, 5003, 10003, 10003, 15003};
    uint64_t offs64[6];
    size_t n = 15010, *perm = skt_malloc(n * sizeof *perm);
    uint32_t *k = skt_malloc(n * sizeof *k), *want = skt_malloc(n * sizeof *want);
    for (size_t s = 0; s < 6; s++) offs64[s] = offs[s];
    skt_force_shape(SK_SHAPE_GPU);
    for (int groups = 0; groups < 2; groups++) {
        cr_assert_eq(setenv("SCANKIT_SEGSORT_GROUPS_FROM", groups ? "3" : "0", 1), 0);
        force_bounds(1024, NEVER);
        make_keys(SK_UINT32, k, n, 0);
        skt_ref_segsort_perm(SK_UINT32, k, n, offs64, 6, 1, 0, 32, perm);
        skt_ref_gather(k, 4, perm, n, want);
        traced t = {0};
        sk_segments_host seg = {NULL, 0, offs, SK_UINT32, 6};
        SKT_OK(sk_context_set_trace(skt_ctx, note_launch, &t));
        SKT_OK(sk_segsort_keys_host(skt_ctx, SK_UINT32, k, &seg, n, SK_DESCENDING));
        SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
        bool sweeps = strstr(t.kernels, "sk_sort_seg_count") && strstr(t.kernels, "sk_sort_seg_sweep");
        bool batch = strstr(t.kernels, "sk_segsort_gather") != NULL;
        cr_assert(groups ? sweeps && !batch : batch && !sweeps, "groups %s: launches '%s'",
                  groups ? "on" : "off", t.kernels);
        skt_expect_elems(SK_UINT32, k, want, n, groups ? "by groups" : "by the batch");
    }
    force_bounds(0, 0);
    cr_assert_eq(unsetenv("SCANKIT_SEGSORT_GROUPS_FROM"), 0);
    skt_free_all(k, want, perm, NULL);
}

/* The segments by a work-group each run in the measured scratch too
 * (their digit starts, the keys' and values' copy). */
Test(segsort, large_segments_by_a_work_group_each_run_in_the_measured_scratch)
{
    uint32_t offs[4] = {0, 5000, 5001, 10001};
    uint64_t offs64[4] = {0, 5000, 5001, 10001};
    size_t n = 15001, need = 0, *perm = skt_malloc(n * sizeof *perm);
    uint32_t *k = skt_malloc(n * sizeof *k), *want = skt_malloc(n * sizeof *want);
    uint32_t *v = skt_malloc(n * sizeof *v), *want_v = skt_malloc(n * sizeof *want_v);
    cr_assert_eq(setenv("SCANKIT_SEGSORT_GROUPS_FROM", "2", 1), 0);
    skt_force_shape(SK_SHAPE_GPU);
    force_bounds(1024, NEVER);
    make_keys(SK_UINT32, k, n, 0);
    for (size_t i = 0; i < n; i++) v[i] = (uint32_t)i;
    skt_ref_segsort_perm(SK_UINT32, k, n, offs64, 4, 0, 0, 32, perm);
    skt_ref_gather(k, 4, perm, n, want);
    skt_ref_gather(v, 4, perm, n, want_v);
    cl_mem kb = skt_buf_guarded(k, n, 4, GUARD), vb = skt_buf_guarded(v, n, 4, GUARD);
    cl_mem ob = skt_buf_new(sizeof offs);
    skt_buf_upload(ob, 0, offs, sizeof offs);
    sk_segments seg = {NULL, 0, ob, SK_UINT32, 4};
    SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
    SKT_OK(sk_context_trim(skt_ctx));
    SKT_OK(sk_context_scratch_query_begin(skt_ctx));
    SKT_OK(sk_segsort_pairs(skt_ctx, SK_UINT32, 4, kb, vb, &seg, n, SK_ASCENDING));
    SKT_OK(sk_context_scratch_query_end(skt_ctx, &need));
    cl_mem scratch = skt_buf_new(need);
    SKT_OK(sk_context_set_scratch(skt_ctx, scratch, need));
    SKT_OK(sk_segsort_pairs(skt_ctx, SK_UINT32, 4, kb, vb, &seg, n, SK_ASCENDING));
    cr_assert_eq(sk__test_own_scratch_bytes(skt_ctx), 0,
                 "own scratch past the measured %zu bytes", need);
    skt_expect_guarded(kb, want, n, 4, GUARD, "measured scratch, groups", "keys");
    skt_expect_guarded(vb, want_v, n, 4, GUARD, "measured scratch, groups", "values");
    SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
    force_bounds(0, 0);
    cr_assert_eq(unsetenv("SCANKIT_SEGSORT_GROUPS_FROM"), 0);
    skt_buf_free(scratch);
    skt_buf_free(kb);
    skt_buf_free(vb);
    skt_buf_free(ob);
    skt_free_all(k, want, v, want_v, perm, NULL);
}

/* The batch's scratch and its sorts' are measured: a call on the caller's
 * scratch of the measured size allocates none of the context's own. */
Test(segsort, large_segments_run_in_the_measured_scratch)
{
    force_bounds(64, NEVER);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        size_t n = 4000, need = 0;
        uint32_t *k = skt_malloc(n * sizeof *k), *want = skt_malloc(n * sizeof *want);
        uint32_t offs[40];
        uint64_t offs64[40];
        size_t perm[4000];
        skt_force_shape((sk_shape)shape);
        for (size_t s = 0; s < 40; s++) offs64[s] = offs[s] = (uint32_t)(100 * s);
        make_keys(SK_UINT32, k, n, 0);
        skt_ref_segsort_perm(SK_UINT32, k, n, offs64, 40, 0, 0, 32, perm);
        skt_ref_gather(k, 4, perm, n, want);
        cl_mem kb = skt_buf_guarded(k, n, 4, GUARD), ob = skt_buf_new(sizeof offs);
        skt_buf_upload(ob, 0, offs, sizeof offs);
        sk_segments seg = {NULL, 0, ob, SK_UINT32, 40};
        SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
        SKT_OK(sk_context_trim(skt_ctx));
        SKT_OK(sk_context_scratch_query_begin(skt_ctx));
        SKT_OK(sk_segsort_keys(skt_ctx, SK_UINT32, kb, &seg, n, SK_ASCENDING));
        SKT_OK(sk_context_scratch_query_end(skt_ctx, &need));
        cl_mem scratch = skt_buf_new(need);
        SKT_OK(sk_context_set_scratch(skt_ctx, scratch, need));
        SKT_OK(sk_segsort_keys(skt_ctx, SK_UINT32, kb, &seg, n, SK_ASCENDING));
        cr_assert_eq(sk__test_own_scratch_bytes(skt_ctx), 0,
                     "%s shape: own scratch past the measured %zu bytes",
                     skt_shape_name((sk_shape)shape), need);
        skt_expect_guarded(kb, want, n, 4, GUARD, "measured scratch", "keys");
        SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
        skt_buf_free(scratch);
        skt_buf_free(kb);
        skt_buf_free(ob);
        skt_free_all(k, want, NULL);
    }
    force_bounds(0, 0);
}

/* ---- bad arguments ------------------------------------------------------------------ */

Test(segsort_errors, bad_arguments_are_refused_and_keys_left_untouched)
{
    uint32_t good[2] = {0, 2}, bad_offs[2] = {1, 2};
    cl_mem k = skt_buf_new(64), v = skt_buf_new(64), o = skt_buf_new(8), ob = skt_buf_new(8);
    cl_mem fl = skt_buf_new(16);
    skt_buf_upload(o, 0, good, 8);
    skt_buf_upload(ob, 0, bad_offs, 8);
    skt_buf_poison(k, 64);
    skt_finish();
    const sk_status bad = SK_E_INVALID_ARG;
    const sk_sort_order A = SK_ASCENDING;
    sk_segments seg = {NULL, 0, o, SK_UINT32, 2}, wrong = {NULL, 0, ob, SK_UINT32, 2};
    sk_segments flags = {fl, 1, NULL, SK_UINT32, 0}, type = {NULL, 0, o, SK_INT32, 2};
    SKT_EXPECT_STATUS(sk_segsort_keys(NULL, SK_UINT32, k, &seg, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, SK_UINT32, k, NULL, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, (sk_type)99, k, &seg, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, SK_UINT32, k, &seg, 4, (sk_sort_order)2), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, SK_UINT32, k, &flags, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, SK_UINT32, k, &type, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, SK_UINT32, k, &wrong, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys(skt_ctx, SK_UINT32, k, &seg, 17, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_pairs(skt_ctx, SK_UINT32, 3, k, v, &seg, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_pairs(skt_ctx, SK_UINT32, 4, k, k, &seg, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys_bits(skt_ctx, SK_UINT32, k, &seg, 4, A, 8, 8), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys_bits(skt_ctx, SK_UINT32, k, &seg, 4, A, 0, 33), bad);
    SKT_EXPECT_STATUS(sk_segsort_keys_host(skt_ctx, SK_UINT32, NULL, NULL, 4, A), bad);
    sk_segments_host hs = {NULL, 0, bad_offs, SK_UINT32, 2};
    uint32_t hk[4] = {4, 3, 2, 1};
    SKT_EXPECT_STATUS(sk_segsort_keys_host(skt_ctx, SK_UINT32, hk, &hs, 4, A), bad);
    sk_segments_host hg = {NULL, 0, good, SK_UINT32, 2};
    SKT_EXPECT_STATUS(sk_segsort_keys_host(skt_ctx, SK_UINT32, NULL, &hg, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_pairs_host(skt_ctx, SK_UINT32, 4, hk, NULL, &hg, 4, A), bad);
    SKT_EXPECT_STATUS(sk_segsort_pairs_host(skt_ctx, SK_UINT32, 4, hk, hk, &hg, 4, A), bad);
    cr_assert(hk[0] == 4 && hk[3] == 1, "host keys changed on a refused call");
    unsigned char back[64];
    skt_buf_download(k, 0, back, 64);
    cr_assert_eq(skt_find_unpoisoned(back, 64), (size_t)-1, "keys changed on a refused call");
    skt_buf_free(k);
    skt_buf_free(v);
    skt_buf_free(o);
    skt_buf_free(ob);
    skt_buf_free(fl);
}

/* Offsets that are not a segmentation, in both shapes, keys and pairs:
 * refused, and keys and values left as they were, although on the GPU
 * shape the sort's kernels are enqueued before the check's verdict is
 * read back (they must do nothing). Each refused call follows a good one
 * of the same size, so that the context's scratch holds a plan of real
 * segments that a kernel ignoring the verdict would carry out. */
Test(segsort_errors, bad_offsets_leave_keys_and_values_untouched_in_both_shapes)
{
    enum { N = 40 };
    const uint32_t offs[][3] = {{1, 5, 20}, {0, 20, 5}, {0, 5, 41}};
    uint32_t keys[N], vals[N];
    for (uint32_t i = 0; i < N; i++) keys[i] = vals[i] = (N - i) * 2654435761u;
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (size_t c = 0; c < sizeof offs / sizeof offs[0]; c++) {
            for (int pairs = 0; pairs < 2; pairs++) {
                cl_mem k = skt_buf_new(sizeof keys), v = skt_buf_new(sizeof vals);
                cl_mem o = skt_buf_new(sizeof offs[c]);
                skt_buf_upload(k, 0, keys, sizeof keys);
                skt_buf_upload(v, 0, vals, sizeof vals);
                const uint32_t good[3] = {0, 5, 20};
                cl_mem g = skt_buf_new(sizeof good), gk = skt_buf_new(sizeof keys);
                skt_buf_upload(g, 0, good, sizeof good);
                skt_buf_upload(gk, 0, keys, sizeof keys);
                sk_segments gseg = {NULL, 0, g, SK_UINT32, 3};
                SKT_OK(sk_segsort_keys(skt_ctx, SK_UINT32, gk, &gseg, N, SK_ASCENDING));
                skt_buf_free(g);
                skt_buf_free(gk);
                skt_buf_upload(o, 0, offs[c], sizeof offs[c]);
                sk_segments seg = {NULL, 0, o, SK_UINT32, 3};
                sk_status st = pairs ? sk_segsort_pairs(skt_ctx, SK_UINT32, 4, k, v, &seg, N,
                                                        SK_ASCENDING)
                                     : sk_segsort_keys(skt_ctx, SK_UINT32, k, &seg, N,
                                                       SK_ASCENDING);
                SKT_EXPECT_STATUS(st, SK_E_INVALID_ARG);
                uint32_t kb[N], vb[N];
                skt_buf_download(k, 0, kb, sizeof kb);
                skt_buf_download(v, 0, vb, sizeof vb);
                cr_assert(memcmp(kb, keys, sizeof kb) == 0 && memcmp(vb, vals, sizeof vb) == 0,
                          "%s shape, offsets %u %u %u, %s: changed on a refused call",
                          skt_shape_name((sk_shape)shape), offs[c][0], offs[c][1], offs[c][2],
                          pairs ? "pairs" : "keys");
                skt_buf_free(k);
                skt_buf_free(v);
                skt_buf_free(o);
            }
        }
    }
}
