/*
 * test_ieee.c - the float semantics of scankit.h ("Float semantics") in
 * every float primitive: inclusive and exclusive scans, reduce, segmented
 * scans (inclusive and exclusive, by head flags and by offsets) and
 * segment totals (by flags and by offsets with empty segments), float32
 * and float64, both shapes and both scan paths with small tiles, at n = 1
 * and at a length that spans many tiles and chunks.
 *
 *   - add: the identity is -0.0, so signed zeros come out as the serial sum
 *     gives them; +inf and -inf make NaN; denormals add exactly;
 *   - min, max: IEEE minimum / maximum, -0.0 < +0.0, and a NaN operand
 *     makes the result the left-most NaN operand, bit for bit (payload,
 *     sign, quiet or signalling), wherever NaNs fall and whatever the
 *     association; infinities and denormals exact;
 *   - mul: signs, zeros, infinities and NaNs as the serial product gives
 *     them; products of powers of two equal the serial product bit for bit
 *     except where the prefix holds a run whose product leaves the normal
 *     range (tests/ref: skt_ref_mul_hazards), where anything is allowed.
 * Inputs are chosen so that every result the rule pins is exact; they are
 * compared bit for bit with the serial left fold of tests/ref/ (a NaN that
 * an add or mul makes only as a NaN: its bits are the hardware's). The
 * identities are pinned bit for bit through the exclusive scans, empty
 * segments and the reduce of nothing.
 *
 * Each op is a parameterised test, one case per float type x shape x size
 * class (n = 1, many tiles), each on both scan paths; a failure names the
 * type, op, input, n, shape, path and seed. (The check behind
 * `scan --check`: test_ieee_check.c.)
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_segscan.h"
#include "skt_common.h"
#include "skt_ieee.h"

TestSuite(ieee, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

#define N_MANY 203 /* many tiles (GPU 4 x 2) and three chunks of 68 (CPU) */
#define GUARD 4    /* elements after each output that must stay poisoned */

/* ---- elements by their bits --------------------------------------------------------- */

static size_t esize(sk_type t) { return skt_ref_type_size(t); }

static void put(sk_type t, void *dst, size_t i, double v) { skt_ref_set_real(t, dst, i, v); }
static double get(sk_type t, const void *src, size_t i) { return skt_ref_real_at(t, src, i); }

/* A denormal: a random multiple (1 .. 1000) of the smallest one, either sign. */
static double denormal(sk_type t)
{
    double tiny = t == SK_FLOAT32 ? 0x1p-149 : 0x1p-1074;
    double v = (double)(1 + skt_rand_below(1000)) * tiny;
    return skt_rand_below(2) ? v : -v;
}

/* ---- inputs ------------------------------------------------------------------------------ */

typedef void (*gen_fn)(sk_type t, void *dst, size_t n);

typedef struct ieee_case {
    const char *name;
    gen_fn gen;
    int needs_denormals;
} ieee_case;

static void gen_negative_zeros(sk_type t, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) put(t, dst, i, -0.0);
}

/* Mostly -0.0, so that some segments hold -0.0 only. */
static void gen_signed_zeros(sk_type t, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) put(t, dst, i, skt_rand_below(8) ? -0.0 : 0.0);
}

/* Small integers (every sum exact) and zeros, with `special` now and then. */
static void gen_ints_with(sk_type t, void *dst, size_t n, unsigned per_mille,
                          double (*special)(sk_type t))
{
    for (size_t i = 0; i < n; i++) {
        if (skt_rand_below(1000) < per_mille) {
            double v = special(t);
            if (isnan(v)) skt_ieee_put_nan(t, dst, i);
            else put(t, dst, i, v);
        } else {
            put(t, dst, i, skt_rand_below(5) ? (double)skt_rand_below(201) - 100.0
                                             : skt_ieee_signed_zero());
        }
    }
}

static double plus_inf(sk_type t) { (void)t; return INFINITY; }
static double a_nan(sk_type t) { (void)t; return NAN; }

static void gen_one_signed_infinities(sk_type t, void *dst, size_t n)
{
    gen_ints_with(t, dst, n, 30, plus_inf);
}

static void gen_both_infinities(sk_type t, void *dst, size_t n)
{
    gen_ints_with(t, dst, n, 30, skt_ieee_any_inf);
}

static void gen_rare_nans(sk_type t, void *dst, size_t n) { gen_ints_with(t, dst, n, 20, a_nan); }

/* Denormals and zeros (every sum of them exact), with now and then the
 * smallest normal number for min/max. */
static void gen_denormals_and(sk_type t, void *dst, size_t n, int min_normals)
{
    double min_normal = t == SK_FLOAT32 ? FLT_MIN : DBL_MIN;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = skt_rand_below(10);
        double v = r == 0                  ? skt_ieee_signed_zero()
                   : r == 1 && min_normals ? min_normal
                                           : denormal(t);
        put(t, dst, i, skt_rand_below(2) ? v : -v);
    }
}

static void gen_denormals(sk_type t, void *dst, size_t n) { gen_denormals_and(t, dst, n, 0); }

static void gen_denormals_and_normals(sk_type t, void *dst, size_t n)
{
    gen_denormals_and(t, dst, n, 1);
}

static void gen_walk_infinities(sk_type t, void *dst, size_t n) { skt_ieee_walk(t, dst, n, 0); }
static void gen_nans_here_and_there(sk_type t, void *dst, size_t n)
{
    skt_ieee_walk(t, dst, n, 100);
}

static void gen_nan_first(sk_type t, void *dst, size_t n)
{
    skt_ieee_walk(t, dst, n, 0);
    skt_ieee_put_nan(t, dst, 0);
}

static void gen_nan_last(sk_type t, void *dst, size_t n)
{
    skt_ieee_walk(t, dst, n, 0);
    skt_ieee_put_nan(t, dst, n - 1);
}

static void gen_nan_in_the_middle(sk_type t, void *dst, size_t n)
{
    skt_ieee_walk(t, dst, n, 0);
    skt_ieee_put_nan(t, dst, n / 2);
}

static void gen_nans_everywhere(sk_type t, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) skt_ieee_put_nan(t, dst, i);
}

/* Two NaNs a few places apart in each CPU chunk (68 elements), in different
 * vector lanes whichever way the lanes split the chunk: a reduce whose
 * lanes took every eighth element would meet the later one first. */
static void gen_nans_across_lanes(sk_type t, void *dst, size_t n)
{
    static const size_t at[] = {9, 16, 68 + 17, 68 + 24, 136 + 41, 136 + 48};
    skt_ieee_walk(t, dst, n, 0);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        if (at[k] < n) skt_ieee_put_nan(t, dst, at[k]);
}

/* +-1, +-2, +-0.5 with now and then +-0, +-inf or a NaN. */
static void gen_mul_specials(sk_type t, void *dst, size_t n)
{
    static const double pool[] = {1.0, -1.0, 2.0, -2.0, 0.5, -0.5};
    for (size_t i = 0; i < n; i++) {
        uint64_t r = skt_rand_below(100);
        if (r < 2) skt_ieee_put_nan(t, dst, i);
        else if (r < 5) put(t, dst, i, skt_ieee_signed_zero());
        else if (r < 8) put(t, dst, i, skt_ieee_any_inf(t));
        else put(t, dst, i, pool[skt_rand_below(6)]);
    }
}

/* Powers of two +-2^e, e uniform in [-E, E]: every run's product is exact
 * or leaves the normal range within a few dozen elements. */
static void gen_mul_overflow(sk_type t, void *dst, size_t n)
{
    long e_max = t == SK_FLOAT32 ? 40 : 300;
    for (size_t i = 0; i < n; i++) {
        long e = (long)skt_rand_below((uint64_t)(2 * e_max + 1)) - e_max;
        double v = ldexp(1.0, (int)e);
        put(t, dst, i, skt_rand_below(2) ? v : -v);
    }
}

static const ieee_case ADD_CASES[] = {
    {"all -0.0", gen_negative_zeros, 0},
    {"signed zeros", gen_signed_zeros, 0},
    {"+inf among integers", gen_one_signed_infinities, 0},
    {"+inf and -inf among integers", gen_both_infinities, 0},
    {"NaNs among integers", gen_rare_nans, 0},
    {"NaNs everywhere", gen_nans_everywhere, 0},
    {"denormals", gen_denormals, 1},
};

static const ieee_case MUL_CASES[] = {
    {"signs, zeros, infinities, NaNs", gen_mul_specials, 0},
    {"overflowing and underflowing powers of two", gen_mul_overflow, 0},
    {"all -0.0", gen_negative_zeros, 0},
};

static const ieee_case MINMAX_CASES[] = {
    {"signed zeros", gen_signed_zeros, 0},
    {"a NaN first", gen_nan_first, 0},
    {"a NaN last", gen_nan_last, 0},
    {"a NaN in the middle", gen_nan_in_the_middle, 0},
    {"NaNs everywhere", gen_nans_everywhere, 0},
    {"NaNs here and there", gen_nans_here_and_there, 0},
    {"NaNs across vector lanes", gen_nans_across_lanes, 0},
    {"infinities", gen_walk_infinities, 0},
    {"denormals", gen_denormals_and_normals, 1},
};

/* ---- segmentations ------------------------------------------------------------------ */

/* A segmentation of n elements: heads (the reference's view), uint8 flags
 * (heads, with a random flag at element 0) and uint32 offsets (one per head,
 * some repeated, sometimes n at the end: empty segments). */
typedef struct segm {
    size_t n;
    unsigned char *heads, *flags, *one; /* one: a single segment */
    uint32_t *offsets;
    size_t count;
    unsigned char *offset_heads;
} segm;

static void segm_make(segm *s, size_t n)
{
    s->n = n;
    s->heads = skt_malloc(n);
    s->flags = skt_malloc(n);
    s->one = skt_malloc(n);
    s->offset_heads = skt_malloc(n);
    s->offsets = skt_malloc((2 * n + 4) * sizeof *s->offsets);
    s->count = 0;
    for (size_t i = 0; i < n; i++) {
        s->heads[i] = i == 0 || skt_rand_below(12) == 0;
        s->flags[i] = (unsigned char)(s->heads[i] && i ? 1 + skt_rand_below(255)
                                                       : i == 0 ? skt_rand_below(2) : 0);
        s->one[i] = i == 0;
        if (!s->heads[i]) continue;
        s->offsets[s->count++] = (uint32_t)i;
        if (skt_rand_below(4) == 0) s->offsets[s->count++] = (uint32_t)i;
    }
    if (n == 1 || skt_rand_below(2)) s->offsets[s->count++] = (uint32_t)n;
    skt_ref_heads_from_offsets(s->offsets, SK_UINT32, s->count, n, s->offset_heads);
}

static void segm_free(segm *s)
{
    free(s->heads);
    free(s->flags);
    free(s->one);
    free(s->offset_heads);
    free(s->offsets);
}

/* ---- comparison under the rule ---------------------------------------------------------- */

/* What one run is checked against: the serial result `want` and the
 * positions where anything is allowed (`free_at`, may be NULL). */
typedef struct expect {
    sk_type t;
    sk_op op;
    const char *what;
} expect;

/* Bit for bit; a NaN of add or mul only as a NaN. */
static int same(const expect *x, const void *got, const void *want, size_t i)
{
    if (skt_ieee_bits(x->t, got, i) == skt_ieee_bits(x->t, want, i)) return 1;
    int arith = x->op == SK_OP_ADD || x->op == SK_OP_MUL;
    return arith && isnan(get(x->t, got, i)) && isnan(get(x->t, want, i));
}

static void expect_elems(const expect *x, const void *got, const void *want,
                         const unsigned char *free_at, size_t count)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < count; i++) {
        if ((free_at && free_at[i]) || same(x, got, want, i)) continue;
        if (bad++ == 0) first = i;
    }
    if (bad == 0) return;
    char gb[64], wb[64];
    cr_assert_fail("%s: %zu of %zu differ; first at [%zu]: got %s, expected %s [seed %llu]",
                   x->what, bad, count, first,
                   skt_fmt_elem(x->t, (const char *)got + first * esize(x->t), gb, sizeof gb),
                   skt_fmt_elem(x->t, (const char *)want + first * esize(x->t), wb, sizeof wb),
                   (unsigned long long)skt_seed());
}

/* The "anything" marks of one output kind from the inclusive marks `h`
 * (per element, restarting at `heads`). */
static void exclusive_marks(const unsigned char *h, const unsigned char *heads, size_t n,
                            unsigned char *out)
{
    for (size_t i = 0; i < n; i++) out[i] = heads[i] ? 0 : h[i - 1];
}

static size_t total_marks(const unsigned char *h, const unsigned char *heads, size_t n,
                          unsigned char *out)
{
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
        if (heads[i] && i) s++;
        out[s] = h[i];
    }
    return n ? s + 1 : 0;
}

static void offset_total_marks(const unsigned char *h, const segm *g, unsigned char *out)
{
    for (size_t k = 0; k < g->count; k++) {
        uint32_t lo = g->offsets[k], hi = k + 1 < g->count ? g->offsets[k + 1] : (uint32_t)g->n;
        out[k] = hi > lo ? h[hi - 1] : 0;
    }
}

/* ---- device runs ----------------------------------------------------------------------- */

static struct {
    size_t cap;
    cl_mem src, dst, flags, offsets;
    unsigned char *out, *want, *marks, *h;
} B;

static void reserve(size_t n)
{
    if (n <= B.cap) return;
    skt_buf_free(B.src);
    skt_buf_free(B.dst);
    skt_buf_free(B.flags);
    skt_buf_free(B.offsets);
    free(B.out);
    free(B.want);
    free(B.marks);
    free(B.h);
    B.cap = n;
    size_t bytes = (2 * n + GUARD + 4) * 8;
    B.src = skt_buf_new(bytes);
    B.dst = skt_buf_new(bytes);
    B.flags = skt_buf_new(bytes);
    B.offsets = skt_buf_new(bytes);
    B.out = skt_malloc(bytes);
    B.want = skt_malloc(bytes);
    B.marks = skt_malloc(2 * n + 4);
    B.h = skt_malloc(2 * n + 4);
}

/* Downloads `count` outputs (and the guard after them) and checks them. */
static void check_out(const expect *x, size_t count, const unsigned char *marks)
{
    size_t es = esize(x->t);
    skt_buf_download(B.dst, 0, B.out, (count + GUARD) * es);
    expect_elems(x, B.out, B.want, marks, count);
    cr_assert_eq(skt_find_unpoisoned(B.out + count * es, GUARD * es), (size_t)-1,
                 "%s: wrote past the output [seed %llu]", x->what,
                 (unsigned long long)skt_seed());
}

static void poison_dst(size_t count, sk_type t) { skt_buf_poison(B.dst, (count + GUARD) * esize(t)); }

static void run_status(sk_status st, const char *what)
{
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
}

static void run_scans(const expect *x0, const void *src, const segm *g)
{
    size_t n = g->n;
    skt_ref_mul_hazards(x0->t, src, NULL, n, B.h);
    for (int excl = 0; excl < 2; excl++) {
        expect x = *x0;
        x.what = skt_fmt("%s scan, %s", excl ? "exclusive" : "inclusive", x0->what);
        skt_ref_scan(x.t, x.op, excl, src, B.want, n);
        poison_dst(n, x.t);
        run_status(excl ? sk_scan_exclusive(skt_ctx, x.t, x.op, B.src, B.dst, n)
                        : sk_scan_inclusive(skt_ctx, x.t, x.op, B.src, B.dst, n), x.what);
        if (excl) exclusive_marks(B.h, g->one, n, B.marks);
        check_out(&x, n, x.op == SK_OP_MUL ? (excl ? B.marks : B.h) : NULL);
    }
}

static void run_reduce(const expect *x0, const void *src, size_t n)
{
    expect x = *x0;
    unsigned char got[16];
    x.what = skt_fmt("reduce %s", x0->what);
    skt_ref_reduce(x.t, x.op, src, n, B.want);
    skt_poison(got, sizeof got);
    run_status(sk_reduce(skt_ctx, x.t, x.op, B.src, got, n), x.what);
    unsigned char free_at = x.op == SK_OP_MUL && n ? B.h[n - 1] : 0;
    expect_elems(&x, got, B.want, &free_at, 1);
    cr_assert_eq(skt_find_unpoisoned(got + esize(x.t), sizeof got - esize(x.t)), (size_t)-1,
                 "%s: wrote past *result [seed %llu]", x.what, (unsigned long long)skt_seed());
}

/* Segmented scans by flags (heads) or by offsets (offset_heads). */
static void run_segscans(const expect *x0, const void *src, const segm *g, int by_offsets)
{
    size_t n = g->n;
    const unsigned char *heads = by_offsets ? g->offset_heads : g->heads;
    sk_segments seg = {NULL, 1, NULL, SK_UINT32, 0};
    if (by_offsets) seg.offsets = B.offsets, seg.count = g->count;
    else seg.flags = B.flags;
    skt_ref_mul_hazards(x0->t, src, heads, n, B.h);
    for (int excl = 0; excl < 2; excl++) {
        expect x = *x0;
        x.what = skt_fmt("%s segmented scan by %s, %s", excl ? "exclusive" : "inclusive",
                         by_offsets ? "offsets" : "flags", x0->what);
        skt_ref_segscan(x.t, x.op, excl, src, B.want, heads, n);
        poison_dst(n, x.t);
        run_status(excl ? sk_segscan_exclusive(skt_ctx, x.t, x.op, B.src, &seg, B.dst, n)
                        : sk_segscan_inclusive(skt_ctx, x.t, x.op, B.src, &seg, B.dst, n),
                   x.what);
        if (excl) exclusive_marks(B.h, heads, n, B.marks);
        check_out(&x, n, x.op == SK_OP_MUL ? (excl ? B.marks : B.h) : NULL);
    }
}

static void run_segreduce(const expect *x0, const void *src, const segm *g, int by_offsets)
{
    size_t n = g->n, want_count = 0, got_count = 0;
    expect x = *x0;
    x.what = skt_fmt("segment totals by %s, %s", by_offsets ? "offsets" : "flags", x0->what);
    sk_segments seg = {NULL, 1, NULL, SK_UINT32, 0};
    const unsigned char *heads = by_offsets ? g->offset_heads : g->heads;
    skt_ref_mul_hazards(x.t, src, heads, n, B.h);
    if (by_offsets) {
        seg.offsets = B.offsets, seg.count = g->count;
        want_count = g->count;
        skt_ref_segreduce_offsets(x.t, x.op, src, n, g->offsets, SK_UINT32, g->count, B.want);
        offset_total_marks(B.h, g, B.marks);
    } else {
        seg.flags = B.flags;
        want_count = skt_ref_segreduce_heads(x.t, x.op, src, g->heads, n, B.want);
        total_marks(B.h, g->heads, n, B.marks);
    }
    poison_dst(by_offsets ? g->count : n, x.t);
    run_status(sk_segreduce(skt_ctx, x.t, x.op, B.src, &seg, B.dst, &got_count, n), x.what);
    cr_assert_eq(got_count, want_count, "%s: %zu segments, expected %zu [seed %llu]", x.what,
                 got_count, want_count, (unsigned long long)skt_seed());
    check_out(&x, want_count, x.op == SK_OP_MUL ? B.marks : NULL);
}

/* Every float primitive on one input. */
static void run_all(sk_type t, sk_op op, const void *src, const segm *g, const char *label)
{
    size_t n = g->n;
    skt_buf_upload(B.src, 0, src, n * esize(t));
    skt_buf_upload(B.flags, 0, g->flags, n);
    skt_buf_upload(B.offsets, 0, g->offsets, g->count * sizeof *g->offsets);
    expect x = {t, op, label};
    run_scans(&x, src, g);
    run_reduce(&x, src, n);
    for (int by_offsets = 0; by_offsets < 2; by_offsets++) {
        run_segscans(&x, src, g, by_offsets);
        run_segreduce(&x, src, g, by_offsets);
    }
}

/* ---- configurations --------------------------------------------------------------------- */

static int device_has_denormals(sk_type t)
{
    cl_device_fp_config cfg = 0;
    cl_int err = clGetDeviceInfo(sk_context_cl_device(skt_ctx),
                                 t == SK_FLOAT32 ? CL_DEVICE_SINGLE_FP_CONFIG
                                                 : CL_DEVICE_DOUBLE_FP_CONFIG,
                                 sizeof cfg, &cfg, NULL);
    return err == CL_SUCCESS && (cfg & CL_FP_DENORM);
}

/* The size classes of a case: one element, and N_MANY. */
static const size_t SIZES[] = {1, N_MANY};

/* Every case of `cases` for p's op (its mode), float type, shape and size
 * class, on both scan paths, each with fresh random data and segments. */
static void run_cases(const skt_param *p, const ieee_case *cases, size_t ncases)
{
    static const sk_scan_path paths[] = {SK_SCAN_PATH_REDUCE_THEN_SCAN, SK_SCAN_PATH_LOOKBACK};
    sk_op op = (sk_op)p->mode;
    size_t n = SIZES[p->size_class];
    skt_params_need_type(p);
    reserve(N_MANY);
    unsigned char *src = skt_malloc(N_MANY * 8);
    skt_tiles_small();
    skt_force_shape(p->shape);
    for (size_t c = 0; c < sizeof paths / sizeof paths[0]; c++) {
        skt_force_scan_path(paths[c]);
        for (size_t k = 0; k < ncases; k++) {
            if (cases[k].needs_denormals && !device_has_denormals(p->type)) {
                cr_log_warn("%s: the device flushes denormals; skipped", cases[k].name);
                continue;
            }
            segm g;
            char label[256];
            snprintf(label, sizeof label, "%s %s, %s, n=%zu, %s shape, %s",
                     sk_type_name(p->type), sk_op_name(op), cases[k].name, n,
                     skt_shape_name(p->shape), skt_scan_path_name(paths[c]));
            segm_make(&g, n);
            cases[k].gen(p->type, src, n);
            run_all(p->type, op, src, &g, label);
            segm_free(&g);
        }
    }
    sk_build_stats bs = SK_BUILD_STATS_INIT;
    SKT_OK(sk_context_build_stats(skt_ctx, &bs));
    cr_log_info("programs: %lu compiled, %lu from disk", bs.compiled, bs.from_disk);
    free(src);
}

/* A parameterised test of op over `cases`: one case per float type x
 * shape x size class. */
#define IEEE_TEST(name, op, cases)                                                           \
    ParameterizedTestParameters(ieee, name)                                                  \
    {                                                                                        \
        static const sk_type floats[] = {SK_FLOAT32, SK_FLOAT64};                            \
        skt_params ps = {0};                                                                 \
        skt_params_add(&ps, floats, 2, 2, op, 0);                                            \
        return skt_params_done(&ps);                                                         \
    }                                                                                        \
    ParameterizedTest(const skt_param *p, ieee, name)                                        \
    {                                                                                        \
        run_cases(p, cases, sizeof(cases) / sizeof((cases)[0]));                             \
    }

IEEE_TEST(add_should_keep_signed_zeros_infinities_nans_and_denormals_as_the_serial_sum,
          SK_OP_ADD, ADD_CASES)
IEEE_TEST(mul_should_match_the_serial_product_wherever_no_run_leaves_the_normal_range,
          SK_OP_MUL, MUL_CASES)
IEEE_TEST(min_should_be_ieee_minimum_with_the_leftmost_nan_bit_for_bit, SK_OP_MIN,
          MINMAX_CASES)
IEEE_TEST(max_should_be_ieee_maximum_with_the_leftmost_nan_bit_for_bit, SK_OP_MAX,
          MINMAX_CASES)

/* The identities themselves, bit for bit: add -0.0, mul 1, min +inf, max
 * -inf (reduce of nothing; the exclusive scan's first element is checked
 * by every exclusive run above). */
Test(ieee, reduce_of_nothing_should_be_the_identity_bit_for_bit)
{
    static const double ids[] = {-0.0, 1.0, INFINITY, -INFINITY};
    cl_mem s = skt_buf_new(16);
    for (int t = SK_FLOAT32; t <= SK_FLOAT64; t++) {
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        for (int op = SK_OP_ADD; op <= SK_OP_MAX; op++) {
            unsigned char got[8], want[8];
            put((sk_type)t, want, 0, ids[op]);
            skt_poison(got, sizeof got);
            SKT_OK(sk_reduce(skt_ctx, (sk_type)t, (sk_op)op, s, got, 0));
            expect x = {(sk_type)t, (sk_op)op,
                        skt_fmt("reduce of nothing, %s %s", sk_type_name(t), sk_op_name(op))};
            expect_elems(&x, got, want, NULL, 1);
        }
    }
    skt_buf_free(s);
}
