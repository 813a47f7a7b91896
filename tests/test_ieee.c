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
 * The check behind `scan --check` (apps/scan_check.c) is tested on device
 * outputs (accepted), on corrupted ones (rejected, one line), and through
 * `scan --op mul --check` of 1,000,003 sorted float32, whose products
 * overflow in some associations and not in others.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_segscan.h"
#include "skt_cli.h"
#include "skt_common.h"

#ifdef SKT_HAVE_SCAN_CHECK
#include "scan_check.h"
#endif

TestSuite(ieee, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(ieee_check, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

#define N_MANY 203 /* many tiles (GPU 4 x 2) and three chunks of 68 (CPU) */
#define GUARD 4    /* elements after each output that must stay poisoned */

static const char *const OP_NAMES[SK_OP_COUNT] = {"add", "mul", "min", "max",
                                                   "and", "or",  "xor"};

/* ---- elements by their bits --------------------------------------------------------- */

static size_t esize(sk_type t) { return skt_ref_type_size(t); }

static void put(sk_type t, void *dst, size_t i, double v) { skt_ref_set_real(t, dst, i, v); }
static double get(sk_type t, const void *src, size_t i) { return skt_ref_real_at(t, src, i); }

static uint64_t bits_of(sk_type t, const void *src, size_t i)
{
    if (t == SK_FLOAT32) {
        uint32_t b;
        memcpy(&b, (const char *)src + 4 * i, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, (const char *)src + 8 * i, 8);
    return b;
}

static void put_bits(sk_type t, void *dst, size_t i, uint64_t b)
{
    if (t == SK_FLOAT32) {
        uint32_t w = (uint32_t)b;
        memcpy((char *)dst + 4 * i, &w, 4);
    } else {
        memcpy((char *)dst + 8 * i, &b, 8);
    }
}

/* A NaN with a random payload and sign, quiet or signalling (never the
 * canonical NaN a device would make). */
static void put_nan(sk_type t, void *dst, size_t i)
{
    int mant_bits = t == SK_FLOAT32 ? 23 : 52;
    uint64_t quiet = 1ull << (mant_bits - 1), payload_mask = quiet - 1;
    uint64_t payload = (skt_rand() & payload_mask) | 2u;  /* nonzero, not 0x..1 only */
    uint64_t exp = (t == SK_FLOAT32 ? 0xFFull : 0x7FFull) << mant_bits;
    uint64_t sign = (skt_rand() & 1) << (mant_bits + (t == SK_FLOAT32 ? 8 : 11));
    put_bits(t, dst, i, sign | exp | (skt_rand_below(3) ? quiet : 0) | payload);
}

/* A denormal: a random multiple (1 .. 1000) of the smallest one, either sign. */
static double denormal(sk_type t)
{
    double tiny = t == SK_FLOAT32 ? 0x1p-149 : 0x1p-1074;
    double v = (double)(1 + skt_rand_below(1000)) * tiny;
    return skt_rand_below(2) ? v : -v;
}

static double signed_zero(void) { return skt_rand_below(2) ? 0.0 : -0.0; }

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
            if (isnan(v)) put_nan(t, dst, i);
            else put(t, dst, i, v);
        } else {
            put(t, dst, i, skt_rand_below(5) ? (double)skt_rand_below(201) - 100.0
                                             : signed_zero());
        }
    }
}

static double plus_inf(sk_type t) { (void)t; return INFINITY; }
static double any_inf(sk_type t) { (void)t; return skt_rand_below(2) ? INFINITY : -INFINITY; }
static double a_nan(sk_type t) { (void)t; return NAN; }

static void gen_one_signed_infinities(sk_type t, void *dst, size_t n)
{
    gen_ints_with(t, dst, n, 30, plus_inf);
}

static void gen_both_infinities(sk_type t, void *dst, size_t n)
{
    gen_ints_with(t, dst, n, 30, any_inf);
}

static void gen_rare_nans(sk_type t, void *dst, size_t n) { gen_ints_with(t, dst, n, 20, a_nan); }

/* Denormals and zeros (every sum of them exact), with now and then the
 * smallest normal number for min/max. */
static void gen_denormals_and(sk_type t, void *dst, size_t n, int min_normals)
{
    double min_normal = t == SK_FLOAT32 ? FLT_MIN : DBL_MIN;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = skt_rand_below(10);
        double v = r == 0 ? signed_zero() : r == 1 && min_normals ? min_normal : denormal(t);
        put(t, dst, i, skt_rand_below(2) ? v : -v);
    }
}

static void gen_denormals(sk_type t, void *dst, size_t n) { gen_denormals_and(t, dst, n, 0); }

static void gen_denormals_and_normals(sk_type t, void *dst, size_t n)
{
    gen_denormals_and(t, dst, n, 1);
}

/* A random walk with +-0, +-inf now and then (min/max). */
static void gen_walk(sk_type t, void *dst, size_t n, unsigned nan_per_mille)
{
    double w = 0.0;
    for (size_t i = 0; i < n; i++) {
        w += skt_rand_unit() - 0.5;
        uint64_t r = skt_rand_below(1000);
        if (r < nan_per_mille) put_nan(t, dst, i);
        else if (r < nan_per_mille + 20) put(t, dst, i, signed_zero());
        else if (r < nan_per_mille + 30) put(t, dst, i, any_inf(t));
        else put(t, dst, i, w);
    }
}

static void gen_walk_infinities(sk_type t, void *dst, size_t n) { gen_walk(t, dst, n, 0); }
static void gen_nans_here_and_there(sk_type t, void *dst, size_t n) { gen_walk(t, dst, n, 100); }

static void gen_nan_first(sk_type t, void *dst, size_t n)
{
    gen_walk(t, dst, n, 0);
    put_nan(t, dst, 0);
}

static void gen_nan_last(sk_type t, void *dst, size_t n)
{
    gen_walk(t, dst, n, 0);
    put_nan(t, dst, n - 1);
}

static void gen_nan_in_the_middle(sk_type t, void *dst, size_t n)
{
    gen_walk(t, dst, n, 0);
    put_nan(t, dst, n / 2);
}

static void gen_nans_everywhere(sk_type t, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) put_nan(t, dst, i);
}

/* Two NaNs a few places apart in each CPU chunk (68 elements), in different
 * vector lanes whichever way the lanes split the chunk: a reduce whose
 * lanes took every eighth element would meet the later one first. */
static void gen_nans_across_lanes(sk_type t, void *dst, size_t n)
{
    static const size_t at[] = {9, 16, 68 + 17, 68 + 24, 136 + 41, 136 + 48};
    gen_walk(t, dst, n, 0);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        if (at[k] < n) put_nan(t, dst, at[k]);
}

/* +-1, +-2, +-0.5 with now and then +-0, +-inf or a NaN. */
static void gen_mul_specials(sk_type t, void *dst, size_t n)
{
    static const double pool[] = {1.0, -1.0, 2.0, -2.0, 0.5, -0.5};
    for (size_t i = 0; i < n; i++) {
        uint64_t r = skt_rand_below(100);
        if (r < 2) put_nan(t, dst, i);
        else if (r < 5) put(t, dst, i, signed_zero());
        else if (r < 8) put(t, dst, i, any_inf(t));
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
    if (bits_of(x->t, got, i) == bits_of(x->t, want, i)) return 1;
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
    run_status(sk_reduce(skt_ctx, x.t, x.op, B.src, n, got), x.what);
    unsigned char free_at = x.op == SK_OP_MUL && n ? B.h[n - 1] : 0;
    expect_elems(&x, got, B.want, &free_at, 1);
    cr_assert_eq(skt_find_unpoisoned(got + esize(x.t), sizeof got - esize(x.t)), (size_t)-1,
                 "%s: wrote past *result", x.what);
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
        run_status(excl ? sk_segscan_exclusive(skt_ctx, x.t, x.op, B.src, B.dst, n, &seg)
                        : sk_segscan_inclusive(skt_ctx, x.t, x.op, B.src, B.dst, n, &seg),
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
    run_status(sk_segreduce(skt_ctx, x.t, x.op, B.src, n, &seg, B.dst, &got_count), x.what);
    cr_assert_eq(got_count, want_count, "%s: %zu segments, expected %zu", x.what, got_count,
                 want_count);
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

typedef struct cfg {
    sk_shape shape;
    sk_scan_path path;
} cfg;

static const cfg CFGS[] = {
    {SK_SHAPE_CPU, SK_SCAN_PATH_REDUCE_THEN_SCAN},
    {SK_SHAPE_CPU, SK_SCAN_PATH_LOOKBACK},
    {SK_SHAPE_GPU, SK_SCAN_PATH_REDUCE_THEN_SCAN},
    {SK_SHAPE_GPU, SK_SCAN_PATH_LOOKBACK},
};

/* Every case of `cases` for op, both float types, every configuration,
 * n = 1 and N_MANY, each with fresh random data and segments. */
static void run_cases(sk_op op, const ieee_case *cases, size_t ncases)
{
    static const size_t sizes[] = {1, N_MANY};
    reserve(N_MANY);
    unsigned char *src = skt_malloc(N_MANY * 8);
    skt_tiles_small();
    for (int t = SK_FLOAT32; t <= SK_FLOAT64; t++) {
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        for (size_t c = 0; c < sizeof CFGS / sizeof CFGS[0]; c++) {
            skt_force_shape(CFGS[c].shape);
            skt_force_scan_path(CFGS[c].path);
            for (size_t k = 0; k < ncases; k++) {
                if (cases[k].needs_denormals && !device_has_denormals((sk_type)t)) {
                    cr_log_warn("%s: the device flushes denormals; skipped", cases[k].name);
                    continue;
                }
                for (size_t s = 0; s < 2; s++) {
                    segm g;
                    char label[256];
                    snprintf(label, sizeof label, "%s %s, %s, n=%zu, %s shape, %s",
                             sk_type_name(t), OP_NAMES[op], cases[k].name, sizes[s],
                             skt_shape_name(CFGS[c].shape), skt_scan_path_name(CFGS[c].path));
                    segm_make(&g, sizes[s]);
                    cases[k].gen((sk_type)t, src, sizes[s]);
                    run_all((sk_type)t, op, src, &g, label);
                    segm_free(&g);
                }
            }
        }
    }
    sk_build_stats bs;
    SKT_OK(sk_context_build_stats(skt_ctx, &bs));
    cr_log_info("programs: %lu compiled, %lu from disk", bs.compiled, bs.from_disk);
    free(src);
}

#define CASES(a) (a), sizeof(a) / sizeof((a)[0])

Test(ieee, add_should_keep_signed_zeros_infinities_nans_and_denormals_as_the_serial_sum)
{
    run_cases(SK_OP_ADD, CASES(ADD_CASES));
}

Test(ieee, mul_should_match_the_serial_product_wherever_no_run_leaves_the_normal_range)
{
    run_cases(SK_OP_MUL, CASES(MUL_CASES));
}

Test(ieee, min_should_be_ieee_minimum_with_the_leftmost_nan_bit_for_bit)
{
    run_cases(SK_OP_MIN, CASES(MINMAX_CASES));
}

Test(ieee, max_should_be_ieee_maximum_with_the_leftmost_nan_bit_for_bit)
{
    run_cases(SK_OP_MAX, CASES(MINMAX_CASES));
}

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
            SKT_OK(sk_reduce(skt_ctx, (sk_type)t, (sk_op)op, s, 0, got));
            expect x = {(sk_type)t, (sk_op)op,
                        skt_fmt("reduce of nothing, %s %s", sk_type_name(t), OP_NAMES[op])};
            expect_elems(&x, got, want, NULL, 1);
        }
    }
    skt_buf_free(s);
}

/* ---- the check behind scan --check -------------------------------------------------------- */

#ifdef SKT_HAVE_SCAN_CHECK

/* The device scan of n elements of src into out (default tiles and path). */
static void device_scan(sk_type t, sk_op op, int excl, const void *src, void *out, size_t n)
{
    SKT_OK(excl ? sk_scan_exclusive_host(skt_ctx, t, op, src, out, n)
                : sk_scan_inclusive_host(skt_ctx, t, op, src, out, n));
}

static int check(sk_type t, sk_op op, int excl, const void *in, const void *out, size_t n,
                 ak_err *e)
{
    memset(e->msg, 0, sizeof e->msg);
    return scan_check((ak_dtype)t, op, excl, in, out, n, e);
}

static void expect_check_ok(sk_type t, sk_op op, int excl, const void *in, const void *out,
                            size_t n, const char *what)
{
    ak_err e;
    cr_assert_eq(check(t, op, excl, in, out, n, &e), 0, "%s: the check failed: %s [seed %llu]",
                 what, e.msg, (unsigned long long)skt_seed());
}

static void expect_check_fails(sk_type t, sk_op op, int excl, const void *in, const void *out,
                               size_t n, size_t at, const char *what)
{
    ak_err e;
    cr_assert_eq(check(t, op, excl, in, out, n, &e), -1,
                 "%s: a corrupted element %zu passed the check [seed %llu]", what, at,
                 (unsigned long long)skt_seed());
    char want[64];
    snprintf(want, sizeof want, "element %zu:", at);
    cr_assert(strstr(e.msg, want) && !strchr(e.msg, '\n'),
              "%s: expected one line naming %s, got \"%s\"", what, want, e.msg);
}

/* Random data for op: noisy sums, products of 2^[-1/2, 1/2) (the
 * exponent walks a few dozen at most: no run leaves the range), min/max
 * walks with NaNs. */
static void check_data(sk_type t, sk_op op, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double u = skt_rand_unit();
        put(t, dst, i, op == SK_OP_ADD ? 2 * u - 1 : exp2(u - 0.5));
    }
    if (op == SK_OP_MIN || op == SK_OP_MAX) gen_walk(t, dst, n, 20);
}

/* Changes element `at` of out into something the rule does not allow:
 * beyond the rounding bound for add and mul, another bit pattern for min
 * and max (the lowest bit: another NaN payload, a neighbour, or a NaN for
 * an infinity). */
static void corrupt(sk_type t, sk_op op, void *out, size_t at)
{
    double v = get(t, out, at);
    if (op == SK_OP_ADD) put(t, out, at, v + 1.0);
    else if (op == SK_OP_MUL) put(t, out, at, v * (1.0 + 0x1p-10));
    else put_bits(t, out, at, bits_of(t, out, at) ^ 1u);
}

Test(ieee_check, should_accept_device_scans_and_reject_one_corrupted_element)
{
    enum { N = 3001 };
    unsigned char *in = skt_malloc(N * 8), *out = skt_malloc(N * 8);
    for (int t = SK_FLOAT32; t <= SK_FLOAT64; t++) {
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        for (int op = SK_OP_ADD; op <= SK_OP_MAX; op++) {
            for (int excl = 0; excl < 2; excl++) {
                const char *what = skt_fmt("%s %s %s", sk_type_name(t), OP_NAMES[op],
                                           excl ? "exclusive" : "inclusive");
                check_data((sk_type)t, (sk_op)op, in, N);
                device_scan((sk_type)t, (sk_op)op, excl, in, out, N);
                expect_check_ok((sk_type)t, (sk_op)op, excl, in, out, N, what);
                size_t at = 1 + skt_rand_below(N - 1);
                corrupt((sk_type)t, (sk_op)op, out, at);
                expect_check_fails((sk_type)t, (sk_op)op, excl, in, out, N, at, what);
            }
        }
    }
    free(in);
    free(out);
}

/* Signed zeros and the NaNs of add are pinned: -0.0 only where every
 * term is -0.0, NaN once +inf and -inf (or a NaN) are in the prefix. */
Test(ieee_check, should_pin_signed_zeros_and_nans_of_sums)
{
    float in[6] = {-0.0f, -0.0f, 0.0f, INFINITY, -INFINITY, 1.0f};
    float out[6];
    device_scan(SK_FLOAT32, SK_OP_ADD, 0, in, out, 6);
    expect_check_ok(SK_FLOAT32, SK_OP_ADD, 0, in, out, 6, "signed zeros, inf - inf");
    cr_assert(signbit(out[1]) && out[1] == 0 && !signbit(out[2]) && isnan(out[5]),
              "scan of -0, -0, +0, inf, -inf, 1 gave %g %g %g ... %g", (double)out[0],
              (double)out[1], (double)out[2], (double)out[5]);
    float bad[6];
    memcpy(bad, out, sizeof bad);
    bad[1] = 0.0f;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, bad, 6, 1, "+0.0 for -0.0 + -0.0");
    memcpy(bad, out, sizeof bad);
    bad[2] = -0.0f;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, bad, 6, 2, "-0.0 for -0.0 + +0.0");
    memcpy(bad, out, sizeof bad);
    bad[4] = INFINITY;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, bad, 6, 4, "inf for inf - inf");
}

/* Products: where the prefix holds a run whose product leaves the normal
 * range anything passes; before it the relative bound holds. */
Test(ieee_check, should_accept_anything_only_after_a_product_leaves_the_range)
{
    enum { N = 64 };
    float in[N], out[N];
    for (size_t i = 0; i < N; i++) in[i] = i < 10 ? 1.5f : 0x1p40f; /* 1.5^10, then 2^40 runs */
    device_scan(SK_FLOAT32, SK_OP_MUL, 0, in, out, N);
    expect_check_ok(SK_FLOAT32, SK_OP_MUL, 0, in, out, N, "2^40 run");
    unsigned char marks[N];
    skt_ref_mul_hazards(SK_FLOAT32, in, NULL, N, marks);
    cr_assert(!marks[11] && marks[N - 1], "the run should leave the range between 12 and 64");
    float bad[N];
    memcpy(bad, out, sizeof bad);
    bad[5] *= 1.001f;
    expect_check_fails(SK_FLOAT32, SK_OP_MUL, 0, in, bad, N, 5, "product before the overflow");
    memcpy(bad, out, sizeof bad);
    bad[N - 1] = 42.0f;
    expect_check_ok(SK_FLOAT32, SK_OP_MUL, 0, in, bad, N, "anything after the overflow");
}

/* A sum that may overflow in some association passes whatever it gives. */
Test(ieee_check, should_accept_anything_once_a_sum_may_overflow)
{
    float in[4] = {1.0f, FLT_MAX / 2, FLT_MAX, -FLT_MAX};
    float out[4] = {1.0f, FLT_MAX / 2, INFINITY, 7.0f};
    expect_check_ok(SK_FLOAT32, SK_OP_ADD, 0, in, out, 4, "overflowing sum");
    out[1] = 0.0f;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, out, 4, 1, "before the overflow");
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* 1,000,003 sorted float32 (no zeros, no NaNs): their products overflow to
 * inf serially and to NaN (inf * 0) in other associations. */
Test(ieee_check, scan_mul_check_of_a_million_sorted_float32_should_pass)
{
    enum { N = 1000003 };
    skt_cli_require_any_device();
    float *in = skt_malloc(N * sizeof *in);
    for (size_t i = 0; i < N; i++) {
        float v = (float)(skt_rand_unit() * 2e4 - 1e4);
        in[i] = v == 0 ? 1.0f : v;
    }
    qsort(in, N, sizeof *in, cmp_float);
    skt_cli_dirs_open("skt-ieee");
    skt_cli_write_npy("sorted.npy", "<f4", in, N, 4);
    const char *args[] = {"sorted.npy", "--op", "mul", "--check", "-o", "out.npy", NULL};
    skt_cli_result r = skt_cli_run("scan", NULL, NULL, args);
    skt_cli_expect_success(&r, "scan sorted.npy --op mul --check");
    cr_assert(strstr(r.err, "check: ok"), "no \"check: ok\" on stderr: %s", r.err);
    skt_cli_free(&r);
    skt_cli_dirs_close();
    free(in);
}

#endif /* SKT_HAVE_SCAN_CHECK */
