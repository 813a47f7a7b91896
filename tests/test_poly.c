/*
 * test_poly.c - sk_poly_eval, sk_poly_eval_points, sk_poly_horner_prefixes
 * and their host-array forms against a long double Horner reference.
 *
 * The bound is the header's: |computed - p(x)| <= gamma(2d) * sum |a_i x^i|,
 * gamma(k) = k u / (1 - k u), u = 2^-24 (float32) or 2^-53 (float64). The
 * reference itself is long double Horner, whose own error (the same bound
 * with u = LDBL_EPSILON / 2) is added, and so is the header's "plus
 * underflow": (2d + 2) times the type's smallest subnormal. Coefficients and
 * x are the values of the type (x converted as the library converts it), so
 * the reference evaluates exactly the polynomial the device does. Cases
 * where |x|^(d+1) overflows the type are skipped, as documented.
 *
 * Ill-conditioned: (x - 1)^d expanded (binomial coefficients, exact in
 * float32 for d <= 20), evaluated near 1 and at 1; the bound is relative to
 * sum |a_i x^i| ~ 2^d, so it still holds where p(x) is ~0.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

TestSuite(poly, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(poly_points, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(poly_prefixes, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(poly_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* ---- the reference ------------------------------------------------------------ */

typedef struct poly {
    sk_type t;
    size_t ncoef;
    void *a; /* ncoef elements of t */
} poly;

static long double coef(const poly *p, size_t i)
{
    return p->t == SK_FLOAT32 ? (long double)((const float *)p->a)[i]
                              : (long double)((const double *)p->a)[i];
}

/* x as the library sees it: converted to the type first. */
static long double as_type(sk_type t, double x)
{
    return t == SK_FLOAT32 ? (long double)(float)x : (long double)x;
}

typedef struct ref_value {
    long double p;   /* long double Horner */
    long double abs; /* sum |a_i| |x|^i */
} ref_value;

/* p and sum |a_i x^i| over a_hi .. a_lo (Horner from a_hi down to a_lo). */
static ref_value ref_horner_range(const poly *p, size_t lo, size_t hi, long double x)
{
    ref_value r = {0.0L, 0.0L};
    long double ax = fabsl(x);
    for (size_t i = hi + 1; i-- > lo;) {
        r.p = r.p * x + coef(p, i);
        r.abs = r.abs * ax + fabsl(coef(p, i));
    }
    return r;
}

static ref_value ref_eval(const poly *p, long double x)
{
    ref_value zero = {0.0L, 0.0L};
    return p->ncoef ? ref_horner_range(p, 0, p->ncoef - 1, x) : zero;
}

static long double gamma_k(size_t k, long double u)
{
    long double ku = (long double)k * u;
    return ku / (1.0L - ku);
}

/* The allowed error for degree d around a value with sum |a_i x^i| = abs. */
static long double bound(sk_type t, size_t d, long double abs)
{
    long double u = t == SK_FLOAT32 ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
    long double tiny = t == SK_FLOAT32 ? (long double)FLT_TRUE_MIN : (long double)DBL_TRUE_MIN;
    long double g = gamma_k(2 * d, u);
    cr_assert(g > 0 || d == 0, "degree %zu too large for a meaningful bound", d);
    return g * abs + gamma_k(2 * d + 2, LDBL_EPSILON / 2) * abs + (long double)(2 * d + 2) * tiny;
}

/* Skipped, as documented: |x|^(d+1) overflows the type. */
static int powers_overflow(sk_type t, size_t ncoef, long double x)
{
    int max_exp = t == SK_FLOAT32 ? FLT_MAX_EXP : DBL_MAX_EXP;
    return fabsl(x) > 1.0L && (long double)ncoef * log2l(fabsl(x)) >= (long double)max_exp - 1;
}

static void expect_close(double got, ref_value want, sk_type t, size_t d, const char *what)
{
    if (isnan(want.p)) {
        cr_assert(isnan(got), "%s: got %.17g, expected NaN [seed %llu]", what, got,
                  (unsigned long long)skt_seed());
        return;
    }
    long double err = fabsl((long double)got - want.p), b = bound(t, d, want.abs);
    cr_assert(err <= b, "%s: got %.17g, reference %.20Lg: error %.3Lg above the bound %.3Lg "
              "(sum |a_i x^i| = %.6Lg) [seed %llu]", what, got, want.p, err, b, want.abs,
              (unsigned long long)skt_seed());
}

/* ---- data ---------------------------------------------------------------------- */

static poly poly_new(sk_type t, size_t ncoef)
{
    poly p = {t, ncoef, skt_malloc((ncoef + 1) * sk_type_size(t))};
    return p;
}

static void set_coef(poly *p, size_t i, double v)
{
    if (p->t == SK_FLOAT32) ((float *)p->a)[i] = (float)v;
    else ((double *)p->a)[i] = v;
}

/* Uniform in [-1, 1]. */
static poly poly_random(sk_type t, size_t ncoef)
{
    poly p = poly_new(t, ncoef);
    for (size_t i = 0; i < ncoef; i++) set_coef(&p, i, 2.0 * skt_rand_unit() - 1.0);
    return p;
}

/* (x - 1)^d expanded: a_i = C(d, i) (-1)^(d - i). */
static poly poly_binomial(sk_type t, size_t d)
{
    poly p = poly_new(t, d + 1);
    double c = 1.0;
    for (size_t i = 0; i <= d; i++) {
        set_coef(&p, i, (d - i) % 2 ? -c : c);
        c = c * (double)(d - i) / (double)(i + 1);
    }
    return p;
}

static cl_mem upload_coeffs(const poly *p)
{
    size_t bytes = p->ncoef * sk_type_size(p->t);
    cl_mem m = skt_buf_new(bytes ? bytes : 1);
    if (bytes) skt_buf_upload(m, 0, p->a, bytes);
    return m;
}

static int type_usable(sk_type t)
{
    return t == SK_FLOAT32 || skt_has_fp64();
}

/* One point through sk_poly_eval, checked against the bound. */
static void check_eval(const poly *p, double x, const char *cfg)
{
    long double xt = as_type(p->t, x);
    if (powers_overflow(p->t, p->ncoef, xt)) return;
    const char *what = skt_fmt("%s ncoef=%zu x=%.17g %s", sk_type_name(p->t), p->ncoef, x, cfg);
    cl_mem c = upload_coeffs(p);
    double got = -12345.0;
    SKT_OK(sk_poly_eval(skt_ctx, p->t, c, x, &got, p->ncoef));
    skt_buf_free(c);
    expect_close(got, ref_eval(p, xt), p->t, p->ncoef ? p->ncoef - 1 : 0, what);
}

static void set_cfg(int c)
{
    skt_force_shape(c < 2 ? SK_SHAPE_CPU : SK_SHAPE_GPU);
    if (c % 2) skt_tiles_small();
    else skt_tiles_default();
}

static const char *const CFG[] = {"cpu shape", "cpu shape, small tiles", "gpu shape",
                                  "gpu shape, small tiles"};

/* ---- one point ------------------------------------------------------------------ */


/* The statement after it for each float type t the device can use. */
#define FOR_EACH_FLOAT_TYPE(t)                                                   \
    for (sk_type t = SK_FLOAT32; t <= SK_FLOAT64; t = (sk_type)(t + 1))          \
        if (type_usable(t))

Test(poly, well_conditioned_polynomials_should_meet_the_bound_in_every_configuration)
{
    static const size_t ncoefs[] = {1, 2, 3, 6, 17, 100, 1001, 4096, 65537};
    static const double fixed_x[] = {0.0, 1.0, -1.0, 0.5, -0.75, 1.5, -2.0};
    for (int c = 0; c < 4; c++) {
        set_cfg(c);
        FOR_EACH_FLOAT_TYPE(t) {
            for (size_t i = 0; i < sizeof ncoefs / sizeof ncoefs[0]; i++) {
                if (c % 2 && ncoefs[i] > 5000) continue; /* small tiles: keep it quick */
                poly p = poly_random((sk_type)t, ncoefs[i]);
                for (size_t k = 0; k < sizeof fixed_x / sizeof fixed_x[0]; k++)
                    check_eval(&p, fixed_x[k], CFG[c]);
                for (int k = 0; k < 3; k++) check_eval(&p, 2.0 * skt_rand_unit() - 1.0, CFG[c]);
                free(p.a);
            }
        }
    }
}

Test(poly, ill_conditioned_binomials_near_one_should_meet_the_bound)
{
    for (int c = 0; c < 4; c += 2) {
        set_cfg(c);
        FOR_EACH_FLOAT_TYPE(t) {
            for (size_t d = 1; d <= 20; d++) {
                poly p = poly_binomial((sk_type)t, d);
                for (int k = -4; k <= 4; k++) {
                    check_eval(&p, 1.0 + k * ldexp(1.0, -10), CFG[c]);
                    check_eval(&p, 1.0 + k * ldexp(1.0, -20), CFG[c]);
                }
                check_eval(&p, 0.9, CFG[c]);
                check_eval(&p, 1.1, CFG[c]);
                free(p.a);
            }
        }
    }
}

Test(poly, degree_zero_and_empty_polynomials_are_exact)
{
    FOR_EACH_FLOAT_TYPE(t) {
        poly p = poly_new((sk_type)t, 1);
        set_coef(&p, 0, -3.25);
        cl_mem c = upload_coeffs(&p);
        double got = 1.0;
        SKT_OK(sk_poly_eval(skt_ctx, (sk_type)t, c, 7.5, &got, 0));
        cr_assert_eq(got, 0.0, "ncoef 0 should give 0, got %g", got);
        static const double xs[] = {0.0, 1.0, -1.0, 1e30, 3.5};
        for (size_t k = 0; k < 5; k++) {
            SKT_OK(sk_poly_eval(skt_ctx, (sk_type)t, c, xs[k], &got, 1));
            cr_assert_eq(got, -3.25, "ncoef 1 at %g gave %g", xs[k], got);
        }
        skt_buf_free(c);
        free(p.a);
    }
}

Test(poly, degree_one_and_x_zero_are_exact_where_the_values_are)
{
    FOR_EACH_FLOAT_TYPE(t) {
        poly p = poly_new((sk_type)t, 2);
        set_coef(&p, 0, 3.0);
        set_coef(&p, 1, -2.0);
        cl_mem c = upload_coeffs(&p);
        double got = 0.0;
        SKT_OK(sk_poly_eval(skt_ctx, (sk_type)t, c, 0.25, &got, 2));
        cr_assert_eq(got, 2.5);
        skt_buf_free(c);
        free(p.a);
        p = poly_random((sk_type)t, 10007);
        c = upload_coeffs(&p);
        SKT_OK(sk_poly_eval(skt_ctx, (sk_type)t, c, 0.0, &got, p.ncoef));
        cr_assert_eq(got, (double)coef(&p, 0), "p(0) should be a_0");
        skt_buf_free(c);
        free(p.a);
    }
}

Test(poly, huge_degree_should_meet_the_bound)
{
    const size_t ncoef = (size_t)1 << 22;
    const double xs[] = {1.0, -1.0, 1.0 - ldexp(1.0, -20), -(1.0 - ldexp(1.0, -20)),
                         1.0 + ldexp(1.0, -23), 0.5, 0.0};
    for (int c = 0; c < 4; c += 2) {
        set_cfg(c);
        FOR_EACH_FLOAT_TYPE(t) {
            poly p = poly_random((sk_type)t, ncoef);
            for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) check_eval(&p, xs[k], CFG[c]);
            free(p.a);
        }
    }
}

Test(poly, nan_coefficients_should_give_nan)
{
    FOR_EACH_FLOAT_TYPE(t) {
        static const size_t where[] = {0, 1, 500, 4999};
        for (size_t w = 0; w < 4; w++) {
            poly p = poly_random((sk_type)t, 5000);
            set_coef(&p, where[w], NAN);
            cl_mem c = upload_coeffs(&p);
            static const double xs[] = {0.0, 1.0, -0.5};
            for (size_t k = 0; k < 3; k++) {
                double got = 0.0;
                SKT_OK(sk_poly_eval(skt_ctx, (sk_type)t, c, xs[k], &got, p.ncoef));
                cr_assert(isnan(got), "NaN at a_%zu, x=%g: got %g", where[w], xs[k], got);
            }
            skt_buf_free(c);
            free(p.a);
        }
    }
}

Test(poly, host_form_should_match_the_buffer_form)
{
    FOR_EACH_FLOAT_TYPE(t) {
        poly p = poly_random((sk_type)t, 3001);
        double got = 0.0;
        SKT_OK(sk_poly_eval_host(skt_ctx, (sk_type)t, p.a, 0.875, &got, p.ncoef));
        expect_close(got, ref_eval(&p, as_type((sk_type)t, 0.875)), (sk_type)t, p.ncoef - 1,
                     "sk_poly_eval_host");
        SKT_OK(sk_poly_eval_host(skt_ctx, (sk_type)t, NULL, 0.875, &got, 0));
        cr_assert_eq(got, 0.0);
        free(p.a);
    }
}

/* ---- many points -------------------------------------------------------------------- */

static double *random_points(size_t n, double lo, double hi)
{
    double *x = skt_malloc((n + 1) * sizeof *x);
    static const double special[] = {0.0, 1.0, -1.0, 0.5};
    for (size_t k = 0; k < n; k++)
        x[k] = k < 4 ? special[k] : lo + (hi - lo) * skt_rand_unit();
    return x;
}

/* Points (as doubles) to the type's layout, and back. */
static void *to_type(sk_type t, const double *x, size_t n)
{
    void *p = skt_malloc((n + 1) * sk_type_size(t));
    for (size_t k = 0; k < n; k++) {
        if (t == SK_FLOAT32) ((float *)p)[k] = (float)x[k];
        else ((double *)p)[k] = x[k];
    }
    return p;
}

static double elem(sk_type t, const void *p, size_t k)
{
    return t == SK_FLOAT32 ? (double)((const float *)p)[k] : ((const double *)p)[k];
}

/* values[k] = p(points[k]); in place when `same`. */
static void check_points(const poly *p, const double *x, size_t np, int same, const char *cfg)
{
    size_t es = sk_type_size(p->t), guard = 8;
    void *pts = to_type(p->t, x, np), *out = skt_malloc((np + guard) * es);
    cl_mem c = upload_coeffs(p), pm = skt_buf_new((np + guard) * es);
    cl_mem vm = same ? pm : skt_buf_new((np + guard) * es);
    skt_buf_poison(pm, (np + guard) * es);
    skt_buf_poison(vm, (np + guard) * es);
    skt_buf_upload(pm, 0, pts, np * es);
    SKT_OK(sk_poly_eval_points(skt_ctx, p->t, c, pm, vm, p->ncoef, np));
    skt_buf_download(vm, 0, out, (np + guard) * es);
    for (size_t k = 0; k < np; k++) {
        long double xt = as_type(p->t, x[k]);
        if (powers_overflow(p->t, p->ncoef, xt)) continue;
        expect_close(elem(p->t, out, k), ref_eval(p, xt), p->t, p->ncoef ? p->ncoef - 1 : 0,
                     skt_fmt("%s points: ncoef=%zu, point %zu of %zu (x=%.9g)%s %s",
                             sk_type_name(p->t), p->ncoef, k, np, x[k],
                             same ? " in place" : "", cfg));
    }
    cr_assert_eq(skt_find_unpoisoned((char *)out + np * es, guard * es), (size_t)-1,
                 "wrote past npoints");
    skt_buf_free(c);
    skt_buf_free(pm);
    if (!same) skt_buf_free(vm);
    skt_free_all(pts, out, NULL);
}

Test(poly_points, many_points_should_meet_the_bound)
{
    static const struct { size_t ncoef, np; double lo, hi; } cases[] = {
        {17, 100000, -1.0, 1.0}, {17, 3000, -4.0, 4.0}, {301, 5000, -1.0, 1.0},
        {0, 100, -1.0, 1.0},     {1, 77, -9.0, 9.0},    {2, 64, -2.0, 2.0},
        {4096, 200, -1.0, 1.0},  {65536, 70, -1.0, 1.0}};
    for (int c = 0; c < 4; c += 2) {
        set_cfg(c);
        FOR_EACH_FLOAT_TYPE(t) {
            for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                poly p = poly_random((sk_type)t, cases[i].ncoef);
                double *x = random_points(cases[i].np, cases[i].lo, cases[i].hi);
                check_points(&p, x, cases[i].np, (int)(i % 2), CFG[c]);
                skt_free_all(x, p.a, NULL);
            }
        }
    }
}

/* Above 65536 coefficients and below 64 points the library evaluates point
 * after point with the scan. */
Test(poly_points, high_degree_few_points_should_meet_the_bound)
{
    static const size_t ncoefs[] = {65537, 200003};
    static const size_t nps[] = {1, 5, 63};
    for (int c = 0; c < 4; c++) {
        set_cfg(c);
        FOR_EACH_FLOAT_TYPE(t) {
            for (size_t i = 0; i < 2; i++)
                for (size_t j = 0; j < 3; j++) {
                    if (c % 2 && (i || j == 2)) continue; /* small tiles: keep it quick */
                    poly p = poly_random((sk_type)t, ncoefs[i]);
                    double *x = random_points(nps[j], -1.0, 1.0);
                    check_points(&p, x, nps[j], (int)(j % 2), CFG[c]);
                    skt_free_all(x, p.a, NULL);
                }
        }
    }
}

Test(poly_points, nan_coefficients_and_points_should_give_nan)
{
    FOR_EACH_FLOAT_TYPE(t) {
        static const size_t ncoefs[] = {40, 70001};
        for (size_t i = 0; i < 2; i++) {
            poly p = poly_random((sk_type)t, ncoefs[i]);
            set_coef(&p, ncoefs[i] / 2, NAN);
            double *x = random_points(10, -1.0, 1.0);
            check_points(&p, x, 10, 0, "NaN coefficient"); /* expect_close wants NaN */
            free(p.a);
            p = poly_random((sk_type)t, ncoefs[i]);
            x[3] = NAN;
            size_t es = sk_type_size((sk_type)t);
            void *pts = to_type((sk_type)t, x, 10), *vals = skt_malloc(10 * es);
            SKT_OK(sk_poly_eval_points_host(skt_ctx, (sk_type)t, p.a, pts, vals, p.ncoef, 10));
            cr_assert(isnan(elem((sk_type)t, vals, 3)), "a NaN point should give NaN");
            cr_assert(!isnan(elem((sk_type)t, vals, 4)), "other points should not");
            skt_free_all(pts, vals, x, p.a, NULL);
        }
    }
}

Test(poly_points, host_form_should_meet_the_bound)
{
    FOR_EACH_FLOAT_TYPE(t) {
        poly p = poly_random((sk_type)t, 33);
        double *x = random_points(1000, -1.5, 1.5);
        void *pts = to_type((sk_type)t, x, 1000);
        SKT_OK(sk_poly_eval_points_host(skt_ctx, (sk_type)t, p.a, pts, pts, p.ncoef, 1000));
        for (size_t k = 0; k < 1000; k++)
            expect_close(elem((sk_type)t, pts, k), ref_eval(&p, as_type((sk_type)t, x[k])),
                         (sk_type)t, 32, "sk_poly_eval_points_host in place");
        SKT_OK(sk_poly_eval_points_host(skt_ctx, (sk_type)t, p.a, NULL, NULL, p.ncoef, 0));
        skt_free_all(pts, x, p.a, NULL);
    }
}

/* ---- Horner prefixes ------------------------------------------------------------------- */

/* prefixes[k] = a_d x^k + ... + a_(d-k), for every k (ncoef small) or a
 * sample of k (first, last and random ones). */
static void check_prefixes(const poly *p, double x, const char *cfg)
{
    size_t n = p->ncoef, d = n - 1, es = sk_type_size(p->t), guard = 8;
    long double xt = as_type(p->t, x);
    if (powers_overflow(p->t, n, xt)) return;
    void *out = skt_malloc((n + guard) * es);
    cl_mem c = upload_coeffs(p), pm = skt_buf_new((n + guard) * es);
    skt_buf_poison(pm, (n + guard) * es);
    SKT_OK(sk_poly_horner_prefixes(skt_ctx, p->t, c, x, pm, n));
    skt_buf_download(pm, 0, out, (n + guard) * es);
    size_t samples = n <= 5000 ? n : 64;
    for (size_t s = 0; s < samples; s++) {
        size_t k = n <= 5000 ? s : s < 8 ? s : s < 16 ? d - (s - 8) : skt_rand_below(n);
        ref_value want = ref_horner_range(p, d - k, d, xt);
        expect_close(elem(p->t, out, k), want, p->t, k,
                     skt_fmt("%s prefix %zu of ncoef=%zu at x=%.9g %s", sk_type_name(p->t), k, n,
                             x, cfg));
    }
    cr_assert_eq(skt_find_unpoisoned((char *)out + n * es, guard * es), (size_t)-1,
                 "wrote past ncoef prefixes");
    skt_buf_free(c);
    skt_buf_free(pm);
    free(out);
}

Test(poly_prefixes, every_prefix_should_meet_the_bound)
{
    static const size_t ncoefs[] = {1, 2, 9, 1000, 4999, (size_t)1 << 20};
    static const double xs[] = {0.5, -1.0, 0.999, -0.3, 1.01};
    for (int c = 0; c < 4; c++) {
        set_cfg(c);
        FOR_EACH_FLOAT_TYPE(t) {
            for (size_t i = 0; i < sizeof ncoefs / sizeof ncoefs[0]; i++) {
                if (c % 2 && ncoefs[i] > 5000) continue;
                poly p = poly_random((sk_type)t, ncoefs[i]);
                for (size_t k = 0; k < 5; k++) check_prefixes(&p, xs[k], CFG[c]);
                free(p.a);
            }
        }
    }
}

Test(poly_prefixes, a_nan_coefficient_should_poison_the_prefixes_from_it_on)
{
    poly p = poly_random(SK_FLOAT32, 3000);
    size_t d = 2999, at = 1000; /* a_1000 enters at prefix d - 1000 */
    set_coef(&p, at, NAN);
    float *out = skt_malloc(3000 * 4);
    cl_mem c = upload_coeffs(&p), pm = skt_buf_new(3000 * 4);
    SKT_OK(sk_poly_horner_prefixes(skt_ctx, SK_FLOAT32, c, 0.5, pm, 3000));
    skt_buf_download(pm, 0, out, 3000 * 4);
    for (size_t k = 0; k <= d; k++)
        cr_assert_eq(isnan(out[k]) != 0, k >= d - at, "prefix %zu: %g", k, (double)out[k]);
    skt_buf_free(c);
    skt_buf_free(pm);
    skt_free_all(out, p.a, NULL);
}

/* ---- bad arguments -------------------------------------------------------------------- */

Test(poly_errors, bad_types_and_missing_outputs_should_be_rejected_without_writing)
{
    cl_mem c = skt_buf_new(64 * 8), pm = skt_buf_new(64 * 8), vm = skt_buf_new(64 * 8);
    unsigned char out[64 * 8];
    skt_buf_poison(vm, sizeof out);
    double r = 42.0;
    static const sk_type bad[] = {SK_INT32, SK_UINT32, SK_INT64, SK_UINT64,
                                  (sk_type)SK_KEY_TYPE_COUNT};
    for (size_t b = 0; b < 5; b++) {
        SKT_EXPECT_STATUS(sk_poly_eval(skt_ctx, bad[b], c, 0.5, &r, 8), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_poly_eval_points(skt_ctx, bad[b], c, pm, vm, 8, 8),
                          SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_poly_horner_prefixes(skt_ctx, bad[b], c, 0.5, vm, 8),
                          SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_poly_eval_host(skt_ctx, bad[b], out, 0.5, &r, 8), SK_E_INVALID_ARG);
    }
    SKT_EXPECT_STATUS(sk_poly_eval(skt_ctx, SK_FLOAT32, c, 0.5, NULL, 8), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_eval(NULL, SK_FLOAT32, c, 0.5, &r, 8), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_eval(skt_ctx, SK_FLOAT32, NULL, 0.5, &r, 8), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_eval(skt_ctx, SK_FLOAT64, c, 0.5, &r, 65), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_eval_points(skt_ctx, SK_FLOAT64, c, pm, vm, 8, 65),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_eval_points(skt_ctx, SK_FLOAT32, c, pm, NULL, 8, 8),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_horner_prefixes(skt_ctx, SK_FLOAT64, c, 0.5, NULL, 8),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_poly_eval_points_host(skt_ctx, SK_FLOAT32, out, out, NULL, 8, 8),
                      SK_E_INVALID_ARG);
    cr_assert_eq(r, 42.0, "*result was written");
    skt_buf_download(vm, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "an output was written");
    if (!skt_has_fp64())
        SKT_EXPECT_STATUS(sk_poly_eval(skt_ctx, SK_FLOAT64, c, 0.5, &r, 8), SK_E_UNSUPPORTED);
    skt_buf_free(c);
    skt_buf_free(pm);
    skt_buf_free(vm);
}
