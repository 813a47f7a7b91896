/*
 * test_scan.c - sk_scan_inclusive/exclusive, sk_reduce and their host-array
 * forms against the serial references in tests/ref/, with the scan path the
 * context picks. test_scan_paths.c forces each path and checks AUTO's
 * choice, determinism and the error bound of rounded sums;
 * test_scan_monoid.c has the custom monoids and the errors.
 *
 * Every type x op x {inclusive, exclusive} x {CPU shape, GPU shape} (the GPU
 * shape also runs on CPU devices: both must be correct everywhere), at sizes
 * 0, 1, 2, tile edges k*tile-1, k*tile, k*tile+1, primes and ~2^22, in place
 * and out of place, with the default, small (many work-groups and several
 * recursion levels at small n) and medium tiles (the tile edges of the
 * 4-byte types with each scan path forced: test_scan_paths.c). Each type,
 * op, shape and GPU tile setting is a program of its own to compile, so the
 * tile edges and reduce cover type x op x GPU tile setting pairwise, not
 * their product: every type x op runs in each shape, in the GPU shape with
 * its tile settings of skt_pairwise_gpu_cfgs (skt_scan.h: every type x
 * setting and op x setting pair meets; reduce_gpu_cfgs for the reduce of
 * the 4-byte types) at every size of each, in the CPU
 * shape, whose tiles are no part of its programs, with the default and
 * small tiles (the medium ones for add) as before. At ~2^22 (default
 * tiles) every type x op runs in the CPU shape, and in the GPU shape those
 * whose settings of skt_pairwise_gpu_cfgs include the default tiles (their
 * programs): every type there meets some of its ops and every op some of
 * the types (integers add, max, and, xor or min, or; floats mul), each
 * type on the path AUTO takes for it, over 512 tiles: the look-back with
 * the 4-byte integers, reduce-then-scan with the others. Why not every
 * type x op: a program of the GPU shape differs from type to type and op
 * to op only in the element and the operator it is given, which the tile
 * edges check in every type x op's own settings, and the host forms below
 * with every type x op's default-tile program up to 300007 elements (37
 * tiles of 4-byte elements, 74 of 8-byte ones); what ~2^22 adds, 512 or
 * 1024 tiles (and a grid past PoCL's 65535
 * work-items, for which PoCL compiles each kernel once more), is no part
 * of the type or the operator. The scan's structure at default tiles and
 * large n (levels, tile count) is the same for every monoid, and
 * test_interval.c proves reduce-then-scan's for every monoid at random n
 * up to 2^24 in the GPU shape with default tiles (the interval-of-
 * summations test, VERIFY.md); the look-back, outside that proof, runs
 * here over 512 tiles with int32 and uint32 (six ops between them). The
 * extreme tile settings run with uint32 add, int64 min and float32 mul.
 * Inclusive and
 * exclusive, in place and out of place run for every type x op at run time
 * (one program). Outputs are
 * poisoned before every run and checked past n; inputs are checked unchanged.
 * Each type x shape is a case of its own (Criterion's parameterised
 * tests): a failing case names itself in its messages and hides no other
 * case.
 *
 * Float data is chosen so that the exact result is representable whatever the
 * association (see skt_fill), so floats are compared exactly; the rounding
 * case (random non-integer data) is covered by the determinism test and an
 * a-priori error bound (test_scan_paths.c).
 *
 * Float min/max are IEEE minimum/maximum (a NaN result is the left-most
 * NaN); the elements are compared by value here (NaN equals NaN, +0 equals
 * -0): test_ieee.c pins signed zeros and NaN bits bit for bit.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_scan.h"

TestSuite(scan, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(reduce, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(scan_host, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);

#define LARGE_N ((size_t)1 << 22)

/* ~2^22, or in the sanitizer pass's lighter matrix (skt_light) 300007:
 * already dozens of default GPU tiles and several default CPU chunks, the
 * plan of 2^22 (the same levels, scratch and path) on the host. The one
 * host decision only 2^22 takes here, non-temporal stores in the CPU
 * shape's look-back from 16 MiB of output, is test_scan_paths.c's
 * streaming test, which that pass runs at full size. */
static size_t large_n(void) { return skt_light_cap(LARGE_N, 300007); }

/* ---- tile edges ---------------------------------------------------------------------- */

/* One case per type x shape: every op at every size of its tile settings,
 * inclusive and exclusive, in place and out of place alternately; in the
 * GPU shape each op with its settings of skt_pairwise_gpu_cfgs, in the CPU
 * shape with every setting (SKT_TILE_CFGS: the medium tiles for add only).
 * The types of
 * SKT_FORCED_PATH_TYPES run these very scans in test_scan_paths.c, once
 * with each path forced (AUTO's among them): not again here. */
static int keep_auto_edges(const skt_case *c)
{
    return !(SKT_FORCED_PATH_TYPES & SKT_BIT(c->type));
}

ParameterizedTestParameters(scan, scans_should_match_reference_at_tile_edges)
{
    return skt_cases(SKT_TYPE_SHAPE_AXES, keep_auto_edges);
}

ParameterizedTest(skt_case *c, scan, scans_should_match_reference_at_tile_edges)
{
    skt_scan_edges_pairwise(skt_scan_case_begin(c), c->shape, SK_SCAN_PATH_AUTO);
}

/* ~2^22 elements: one case per type x shape, inclusive and exclusive (one
 * in place, in the GPU shape the other), default tiles; every op in the
 * CPU shape, in the GPU shape the ops that meet the default tiles in
 * skt_pairwise_gpu_cfgs (see the top). */
ParameterizedTestParameters(scan, scans_should_match_reference_at_4M_elements)
{
    return skt_cases(SKT_TYPE_SHAPE_AXES, NULL);
}

ParameterizedTest(skt_case *c, scan, scans_should_match_reference_at_4M_elements)
{
    sk_type t = skt_scan_case_begin(c);
    int in_place = c->shape == SK_SHAPE_GPU;
    skt_tiles_default();
    const skt_label cfg = skt_cfg_name(c->shape, &SKT_TILE_CFGS[0]);
    SKT_EACH_OP(t, op) {
        if (c->shape == SK_SHAPE_GPU && !(skt_pairwise_gpu_cfgs(t, (sk_op)op) & SKT_BIT(0)))
            continue;
        /* Not exactly 2^22: a ragged last tile. */
        size_t n = large_n() + 1 + (size_t)skt_rand_below(4096);
        skt_check_scan(t, (sk_op)op, (t + op) & 1, n, in_place, cfg.s);
        skt_check_scan(t, (sk_op)op, !((t + op) & 1), n, !in_place, cfg.s);
    }
}

/* ---- extreme tile settings ------------------------------------------------------------ */

/* One-item tiles (a scan must still make progress), two-item tiles (log2(n)
 * recursion levels), the largest work-groups, items per thread that are not
 * powers of two, more CPU chunks than elements, one chunk, a serial path
 * that covers everything; `reduce`: sk_reduce runs with it too. */
static const struct {
    sk_shape shape;
    long wg, ipt, chunks, serial;
    size_t max_n;
    int reduce;
} EXTREME[] = {
    {SK_SHAPE_GPU, 1, 1, 0, 0, 5000, 1},        {SK_SHAPE_GPU, 2, 1, 0, 0, 100000, 1},
    {SK_SHAPE_GPU, 1024, 64, 0, 0, 100000, 1},  {SK_SHAPE_GPU, 8, 7, 0, 0, 100000, 0},
    {SK_SHAPE_GPU, 32, 3, 0, 0, 100000, 0},     {SK_SHAPE_CPU, 0, 0, 4096, 1, 100000, 1},
    {SK_SHAPE_CPU, 0, 0, 1, 1, 100000, 0},      {SK_SHAPE_CPU, 0, 0, 0, 1L << 20, 100000, 0},
};
#define N_EXTREME ((int)(sizeof EXTREME / sizeof EXTREME[0]))

static const size_t EXTREME_SIZES[] = {0,   1,   2,    3,    4,    5,    7,     8,     9,
                                       15,  16,  17,   31,   32,   33,   63,    64,    65,
                                       100, 127, 128,  129,  1000, 1023, 1024,  1025,  4097,
                                       65535, 65536, 65537, 100000};

/* uint32 add, int64 min and float32 mul with each row (size_class: the row;
 * the shape is the row's). */
static const sk_type EXTREME_TYPES[] = {SK_UINT32, SK_INT64, SK_FLOAT32};
static const sk_op EXTREME_OPS[] = {SK_OP_ADD, SK_OP_MIN, SK_OP_MUL};

static int keep_extreme(const skt_case *c) { return EXTREME[c->size_class].shape == c->shape; }

static int keep_extreme_reduce(const skt_case *c)
{
    return keep_extreme(c) && EXTREME[c->size_class].reduce;
}

#define EXTREME_AXES ((skt_axes){.shapes = SKT_BOTH_SHAPES, .classes = N_EXTREME})

/* Applies the case's row, then for each type and op every size up to the
 * row's max_n: scans inclusive and exclusive (in place every other size),
 * or reduces. */
static void extreme_tiles(const skt_case *c, int reduce)
{
    long wg = EXTREME[c->size_class].wg, ipt = EXTREME[c->size_class].ipt;
    long chunks = EXTREME[c->size_class].chunks, serial = EXTREME[c->size_class].serial;
    skt_case_begin(c);
    skt_force_shape(c->shape);
    skt_tiles_set(wg, ipt, chunks, serial);
    skt_label cfg;
    snprintf(cfg.s, sizeof cfg.s, "%s shape, wg %ld x %ld, %ld chunks, serial below %ld",
             skt_shape_name(c->shape), wg, ipt, chunks, serial);
    for (size_t k = 0; k < 3; k++)
        for (int excl = 0; excl < (reduce ? 1 : 2); excl++)
            for (size_t i = 0; i < sizeof EXTREME_SIZES / sizeof EXTREME_SIZES[0]; i++) {
                if (EXTREME_SIZES[i] > EXTREME[c->size_class].max_n)
                    continue;
                if (reduce)
                    skt_check_reduce(EXTREME_TYPES[k], EXTREME_OPS[k], EXTREME_SIZES[i], cfg.s);
                else
                    skt_check_scan(EXTREME_TYPES[k], EXTREME_OPS[k], excl, EXTREME_SIZES[i],
                                   (int)(i & 1), cfg.s);
            }
}

ParameterizedTestParameters(scan, scans_should_match_reference_with_extreme_tile_settings)
{
    return skt_cases(EXTREME_AXES, keep_extreme);
}

ParameterizedTest(skt_case *c, scan, scans_should_match_reference_with_extreme_tile_settings)
{
    extreme_tiles(c, 0);
}

ParameterizedTestParameters(reduce, should_match_reference_with_extreme_tile_settings)
{
    return skt_cases(EXTREME_AXES, keep_extreme_reduce);
}

ParameterizedTest(skt_case *c, reduce, should_match_reference_with_extreme_tile_settings)
{
    extreme_tiles(c, 1);
}

/* ---- reduce ------------------------------------------------------------------------------ */

/* The GPU tile settings (mask of SKT_TILE_CFGS indices) of t and op in the
 * reduce test: those of skt_pairwise_gpu_cfgs, with which int64, uint64 and
 * float64 already meet every op with every setting; int32, uint32 and
 * float32 meet each setting once more, min with the small tiles, max with
 * the medium ones, every other op with the default ones. */
static unsigned reduce_gpu_cfgs(sk_type t, sk_op op)
{
    if (!(SKT_FORCED_PATH_TYPES & SKT_BIT(t)))
        return skt_pairwise_gpu_cfgs(t, op);
    return SKT_BIT(op == SK_OP_MIN ? 1 : op == SK_OP_MAX ? 2 : 0);
}

/* One op of t at every other size of its tile settings, 0, 1 and (default
 * tiles) ~2^22: in the GPU shape the settings of reduce_gpu_cfgs, in the
 * CPU shape every setting (the medium tiles for add only). */
static void reduce_edges(sk_type t, sk_op op, sk_shape shape)
{
    for (size_t k = 0; k < SKT_N_TILE_CFGS; k++) {
        if (shape == SK_SHAPE_GPU ? !(reduce_gpu_cfgs(t, op) & SKT_BIT(k))
                                  : SKT_TILE_CFGS[k].add_only && op != SK_OP_ADD)
            continue;
        skt_sizes sizes = skt_tiles_use(shape, k);
        const skt_label cfg = skt_cfg_name(shape, &SKT_TILE_CFGS[k]);
        /* every other size keeps the number of launches in check */
        for (size_t i = (size_t)(t + op) & 1; i < sizes.count; i += 2)
            skt_check_reduce(t, op, sizes.v[i], cfg.s);
        skt_check_reduce(t, op, 0, cfg.s);
        skt_check_reduce(t, op, 1, cfg.s);
        if (k == 0)
            skt_check_reduce(t, op, large_n() + 3, cfg.s);
    }
}

/* One case per type x shape, every op of the type. */
ParameterizedTestParameters(reduce, should_match_reference_at_tile_edges)
{
    return skt_cases(SKT_TYPE_SHAPE_AXES, NULL);
}

ParameterizedTest(skt_case *c, reduce, should_match_reference_at_tile_edges)
{
    sk_type t = skt_scan_case_begin(c);
    SKT_EACH_OP(t, op)
        reduce_edges(t, (sk_op)op, c->shape);
}

/* ---- the reduce in one launch ---------------------------------------------------------------- */

/* sk_reduce of n elements of t by op on the fixture's context, its launches
 * counted, into got. */
static unsigned long reduce_launches(sk_type t, sk_op op, size_t n, void *got)
{
    skt_launches l = {0};
    skt_count_launches(&l);
    sk_status st = sk_reduce(skt_ctx, t, op, skt_bufs.src, got, n);
    skt_count_launches(NULL);
    cr_assert_eq(st, SK_OK, "reduce %s %s n=%zu -> %s (%s) [seed %llu]", sk_type_name(t),
                 sk_op_name(op), n, sk_status_name(st), sk_context_error_detail(skt_ctx),
                 (unsigned long long)skt_seed());
    return l.total;
}

/* GPU shape, default tiles: a reduce of a few tiles or more (4 by default:
 * 20000 elements are 5 or more default tiles) is one launch (the last
 * work-group to finish totals the tiles) up to
 * $SCANKIT_REDUCE_LAST_MAX_TILES tiles; with it 0, more tiles than one
 * work-group walks take two launches. Both give the reference's sum
 * exactly (skt_fill's data: every association exact, floats too), and the
 * one launch gives the same bits call after call on rounded float sums. */
Test(reduce, a_reduce_of_tiles_is_one_launch_on_the_gpu_shape)
{
    static const sk_type types[] = {SK_FLOAT32, SK_FLOAT64, SK_UINT32, SK_INT64};
    static const size_t sizes[] = {20000, 300007, 1u << 20}; /* 20000: a few tiles */
    skt_force_shape(SK_SHAPE_GPU);
    skt_tiles_default();
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        sk_type t = types[i];
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        int is_float = t == SK_FLOAT32 || t == SK_FLOAT64;
        size_t es = skt_ref_type_size(t);
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            size_t n = sizes[j];
            const char *what = skt_fmt("%s add n=%zu", sk_type_name(t), n);
            unsigned char one[8], two[8], want[8], again[8];
            skt_bufs_reserve(n * es);
            skt_fill(t, SK_OP_ADD, skt_bufs.h_src, n);
            skt_ref_reduce(t, SK_OP_ADD, skt_bufs.h_src, n, want);
            skt_buf_upload(skt_bufs.src, 0, skt_bufs.h_src, n * es);
            skt_poison(one, sizeof one);
            skt_poison(two, sizeof two);
            unsetenv("SCANKIT_REDUCE_LAST_MAX_TILES");
            unsigned long l1 = reduce_launches(t, SK_OP_ADD, n, one);
            setenv("SCANKIT_REDUCE_LAST_MAX_TILES", "0", 1);
            unsigned long l2 = reduce_launches(t, SK_OP_ADD, n, two);
            unsetenv("SCANKIT_REDUCE_LAST_MAX_TILES");
            cr_assert_eq(l1, 1ul, "%s: %lu launches in one-launch form", what, l1);
            if (n > 20000) cr_assert_eq(l2, 2ul, "%s: %lu launches with it off", what, l2);
            skt_expect_elems(t, one, want, 1, skt_fmt("%s, one launch", what));
            skt_expect_elems(t, two, want, 1, skt_fmt("%s, two launches", what));
            if (!is_float) continue;
            skt_fill_float_noisy(t, skt_bufs.h_src, n);
            skt_buf_upload(skt_bufs.src, 0, skt_bufs.h_src, n * es);
            reduce_launches(t, SK_OP_ADD, n, one);
            for (int k = 0; k < 3; k++) {
                skt_poison(again, sizeof again);
                reduce_launches(t, SK_OP_ADD, n, again);
                cr_assert(memcmp(one, again, es) == 0, "%s, rounded sums: call %d differs", what,
                          k + 2);
            }
        }
    }
}

/* ---- identities ---------------------------------------------------------------------------- */

static void reduce_identity(sk_type t, sk_op op, cl_mem s)
{
    unsigned char want[8], got[8];
    skt_ref_identity(t, op, want);
    skt_poison(got, sizeof got);
    SKT_OK(sk_reduce(skt_ctx, t, op, s, got, 0));
    skt_expect_elems(t, got, want, 1,
                     skt_fmt("reduce %s %s n=0", sk_type_name(t), sk_op_name(op)));
    skt_poison(got, sizeof got);
    SKT_OK(sk_reduce_host(skt_ctx, t, op, got /* unused */, got, 0));
    skt_expect_elems(t, got, want, 1,
                     skt_fmt("reduce_host %s %s n=0", sk_type_name(t), sk_op_name(op)));
}

static void exclusive_identity(sk_type t, sk_op op, cl_mem s, cl_mem d)
{
    size_t es = skt_ref_type_size(t);
    unsigned char in[8 * 8], want[8 * 8], got[8 * 8];
    skt_fill(t, op, in, 5);
    skt_ref_scan(t, op, 1, in, want, 5);
    skt_buf_upload(s, 0, in, 5 * es);
    skt_buf_poison(d, 5 * es);
    SKT_OK(sk_scan_exclusive(skt_ctx, t, op, s, d, 5));
    skt_buf_download(d, 0, got, 5 * es);
    skt_expect_elems(t, got, want, 5,
                     skt_fmt("exclusive %s %s n=5", sk_type_name(t), sk_op_name(op)));
}

/* One case per type, every op of it (a few elements each). */
ParameterizedTestParameters(reduce, should_return_the_identity_for_zero_elements)
{
    return skt_cases((skt_axes){.types = SKT_ALL_TYPES}, NULL);
}

ParameterizedTest(skt_case *c, reduce, should_return_the_identity_for_zero_elements)
{
    sk_type t = skt_scan_case_begin(c);
    cl_mem s = skt_buf_new(64);
    SKT_EACH_OP(t, op)
        reduce_identity(t, (sk_op)op, s);
    skt_buf_free(s);
}

/* Pins identity(op): add 0 (-0.0 for floats, whose sign test_ieee.c pins),
 * mul 1, min the largest value (+inf for floats), max the smallest (-inf),
 * and all ones, or/xor 0. */
ParameterizedTestParameters(scan, exclusive_scans_should_start_with_the_identity_of_each_op)
{
    return skt_cases((skt_axes){.types = SKT_ALL_TYPES}, NULL);
}

ParameterizedTest(skt_case *c, scan, exclusive_scans_should_start_with_the_identity_of_each_op)
{
    sk_type t = skt_scan_case_begin(c);
    cl_mem s = skt_buf_new(8 * 8), d = skt_buf_new(8 * 8);
    SKT_EACH_OP(t, op)
        exclusive_identity(t, (sk_op)op, s, d);
    skt_buf_free(s);
    skt_buf_free(d);
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

/* ---- host-array forms ------------------------------------------------------------------ */

static sk_status scan_host(sk_type t, sk_op op, int excl, const void *s, void *d, size_t n)
{
    return excl ? sk_scan_exclusive_host(skt_ctx, t, op, s, d, n)
                : sk_scan_inclusive_host(skt_ctx, t, op, s, d, n);
}

/* One type and op in one shape: scans inclusive and exclusive, out of place
 * and in place, and reduce_host, at a few sizes; the arrays hold maxn
 * elements of 8 bytes. */
static void host_forms(sk_type t, sk_op op, sk_shape shape, unsigned char *src,
                       unsigned char *ref, unsigned char *out, unsigned char *keep)
{
    static const size_t sizes[] = {0, 1, 2, 3, 1000, 4097, 65537, 300007};
    size_t es = skt_ref_type_size(t);
    for (int excl = 0; excl < 2; excl++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t n = sizes[i];
            const char *what =
                skt_fmt("host %s %s %s n=%zu %s shape", sk_type_name(t), sk_op_name(op),
                        excl ? "exclusive" : "inclusive", n, skt_shape_name(shape));
            skt_fill(t, op, src, n);
            skt_ref_scan(t, op, excl, src, ref, n);
            memcpy(keep, src, n * es);

            /* out of place */
            skt_poison(out, (n + SKT_GUARD) * es);
            SKT_OK(scan_host(t, op, excl, src, out, n));
            skt_expect_elems(t, out, ref, n, what);
            cr_assert_eq(skt_find_unpoisoned(out + n * es, SKT_GUARD * es), (size_t)-1,
                         "%s: wrote past n", what);
            cr_assert_eq(memcmp(src, keep, n * es), 0, "%s: modified src", what);

            /* in place: dst == src */
            skt_poison(src + n * es, SKT_GUARD * es);
            SKT_OK(scan_host(t, op, excl, src, src, n));
            skt_expect_elems(t, src, ref, n, skt_fmt("%s in place", what));
            cr_assert_eq(skt_find_unpoisoned(src + n * es, SKT_GUARD * es), (size_t)-1,
                         "%s in place: wrote past n", what);
        }
    }
    /* reduce_host */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        unsigned char want[8], got[16];
        skt_fill(t, op, src, n);
        skt_ref_reduce(t, op, src, n, want);
        skt_poison(got, sizeof got);
        SKT_OK(sk_reduce_host(skt_ctx, t, op, src, got, n));
        skt_expect_elems(t, got, want, 1,
                         skt_fmt("reduce_host %s %s n=%zu %s shape", sk_type_name(t),
                                 sk_op_name(op), n, skt_shape_name(shape)));
        cr_assert_eq(skt_find_unpoisoned(got + es, sizeof got - es), (size_t)-1);
    }
}

/* One case per type x shape, every op of the type. */
ParameterizedTestParameters(scan_host, every_op_should_match_reference)
{
    return skt_cases(SKT_TYPE_SHAPE_AXES, NULL);
}

ParameterizedTest(skt_case *c, scan_host, every_op_should_match_reference)
{
    sk_type t = skt_scan_case_begin(c);
    size_t maxn = 300007 + SKT_GUARD;
    unsigned char *src = skt_malloc(maxn * 8), *ref = skt_malloc(maxn * 8),
                  *out = skt_malloc(maxn * 8), *keep = skt_malloc(maxn * 8);
    SKT_EACH_OP(t, op)
        host_forms(t, (sk_op)op, c->shape, src, ref, out, keep);
    free(src);
    free(ref);
    free(out);
    free(keep);
}
