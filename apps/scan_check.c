/*
 * scan_check.c - serial reference scan and comparison for `scan --check`.
 *
 * Integers must match exactly. Floats are held to scankit.h's float
 * semantics: min and max bit for bit (IEEE minimum / maximum, a NaN result
 * the left-most NaN input); add and mul exactly where the rule pins the
 * result (NaN, infinities, zeros and their signs) and within the rounding
 * bound elsewhere; where some association may overflow or underflow (add:
 * the sum of |x| reaches the largest finite value; mul: a contiguous run of
 * the inputs has a product outside the normal range) any value passes, at
 * that position and every later one. The references never overflow: sums
 * in long double with compensation, products as (mantissa, exponent).
 */
#include "scan_check.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Integer operators on the unsigned representation (add and mul wrap). */
static uint64_t int_op(sk_op op, uint64_t a, uint64_t b, int is_signed, int bits)
{
    uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    if (bits == 32) {
        sa = (int32_t)(uint32_t)a;
        sb = (int32_t)(uint32_t)b;
    }
    switch (op) {
    case SK_OP_ADD: return (a + b) & mask;
    case SK_OP_MUL: return (a * b) & mask;
    case SK_OP_MIN: return (is_signed ? sa < sb : a < b) ? a : b;
    case SK_OP_MAX: return (is_signed ? sa > sb : a > b) ? a : b;
    case SK_OP_AND: return a & b;
    case SK_OP_OR: return a | b;
    case SK_OP_XOR: return a ^ b;
    }
    return 0;
}

static uint64_t int_identity(sk_op op, int is_signed, int bits)
{
    uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    switch (op) {
    case SK_OP_MUL: return 1;
    case SK_OP_MIN: return is_signed ? mask >> 1 : mask;
    case SK_OP_MAX: return is_signed ? (mask >> 1) + 1 : 0;
    case SK_OP_AND: return mask;
    default: return 0;
    }
}

/* Element i of `bits` bits, zero-extended (the host is little-endian). */
static uint64_t load_int(const void *p, size_t i, int bits)
{
    size_t size = (size_t)bits / 8;
    uint64_t v = 0;
    memcpy(&v, (const char *)p + i * size, size);
    return v;
}

static int check_ints(ak_dtype type, sk_op op, int exclusive, const void *in,
                      const void *out, size_t n, ak_err *e)
{
    int bits = (int)ak_dtype_size(type) * 8;
    int is_signed = type == AK_INT32 || type == AK_INT64;
    uint64_t acc = int_identity(op, is_signed, bits);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = load_int(in, i, bits);
        if (!exclusive) acc = int_op(op, acc, x, is_signed, bits);
        uint64_t got = load_int(out, i, bits);
        if (got != acc)
            return ak_fail(e, "check failed at element %zu: got %llu, expected %llu", i,
                           (unsigned long long)got, (unsigned long long)acc);
        if (exclusive) acc = int_op(op, acc, x, is_signed, bits);
    }
    return 0;
}

/* ---- floats: the element type ------------------------------------------------------ */

typedef struct ftype {
    bool f32;
    long double u;           /* unit roundoff */
    long double max;         /* largest finite value */
    long double min_normal;  /* smallest normal value */
} ftype;

static ftype ftype_of(ak_dtype type)
{
    if (type == AK_FLOAT32) return (ftype){true, FLT_EPSILON / 2.0L, FLT_MAX, FLT_MIN};
    return (ftype){false, DBL_EPSILON / 2.0L, DBL_MAX, DBL_MIN};
}

static long double load_float(const ftype *ft, const void *p, size_t i)
{
    if (ft->f32) {
        float v;
        memcpy(&v, (const char *)p + i * 4, 4);
        return v;
    }
    double v;
    memcpy(&v, (const char *)p + i * 8, 8);
    return v;
}

static uint64_t load_bits(const ftype *ft, const void *p, size_t i)
{
    return load_int(p, i, ft->f32 ? 32 : 64);
}

static long double value_of_bits(const ftype *ft, uint64_t bits)
{
    uint32_t b32 = (uint32_t)bits;
    return ft->f32 ? load_float(ft, &b32, 0) : load_float(ft, &bits, 0);
}

/* (1 + u)^k - 1: the relative error of k roundings in any association
 * (gamma_k = k u / (1 - k u) bounds it while k u < 1). */
static long double rounding(long double u, size_t k)
{
    return expm1l((long double)k * log1pl(u));
}

/* ---- min and max: bit for bit -------------------------------------------------------- */

/* IEEE minimum / maximum; a NaN result is the left-most NaN operand. */
#define CHECK_MINMAX(T, name)                                                  \
    static T name(sk_op op, T a, T b)                                          \
    {                                                                          \
        if (isnan(a)) return a;                                                \
        if (isnan(b)) return b;                                                \
        if (a == b) return (signbit(a) != 0) == (op == SK_OP_MIN) ? a : b;      \
        return (a < b) == (op == SK_OP_MIN) ? a : b;                           \
    }
CHECK_MINMAX(float, minmax_f32)
CHECK_MINMAX(double, minmax_f64)

/* a op b on the bits of two elements. */
static uint64_t minmax_bits(const ftype *ft, sk_op op, uint64_t a, uint64_t b)
{
    if (ft->f32) {
        uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b, r32;
        float x, y, r;
        memcpy(&x, &a32, 4);
        memcpy(&y, &b32, 4);
        r = minmax_f32(op, x, y);
        memcpy(&r32, &r, 4);
        return r32;
    }
    double x, y, r;
    uint64_t r64;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    r = minmax_f64(op, x, y);
    memcpy(&r64, &r, 8);
    return r64;
}

static int check_minmax(const ftype *ft, sk_op op, int exclusive, const void *in,
                        const void *out, size_t n, ak_err *e)
{
    double id = op == SK_OP_MIN ? INFINITY : -INFINITY;
    float id32 = (float)id;
    uint64_t acc = 0;
    memcpy(&acc, ft->f32 ? (const void *)&id32 : (const void *)&id, ft->f32 ? 4 : 8);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = load_bits(ft, in, i);
        if (!exclusive) acc = minmax_bits(ft, op, acc, x);
        uint64_t got = load_bits(ft, out, i);
        if (got != acc)
            return ak_fail(e, "check failed at element %zu: got bits 0x%llx, expected bits "
                           "0x%llx (%.17Lg)", i, (unsigned long long)got,
                           (unsigned long long)acc, value_of_bits(ft, acc));
        if (exclusive) acc = minmax_bits(ft, op, acc, x);
    }
    return 0;
}

/* ---- add ------------------------------------------------------------------------------------ */

/* The sum of the terms so far: specials by flag, the finite part in long
 * double with Neumaier's compensation, and the sum of magnitudes. */
typedef struct add_state {
    size_t terms;
    bool nan, pinf, ninf, all_neg_zero;
    long double sum, comp, mag;
} add_state;

static void add_step(add_state *s, long double x)
{
    s->terms++;
    s->all_neg_zero = s->all_neg_zero && x == 0 && signbit(x);
    if (isnan(x)) s->nan = true;
    else if (isinf(x)) x > 0 ? (s->pinf = true) : (s->ninf = true);
    if (!isfinite(x)) return;
    long double t = s->sum + x;
    s->comp += fabsl(s->sum) >= fabsl(x) ? (s->sum - t) + x : (x - t) + s->sum;
    s->sum = t;
    s->mag += fabsl(x);
}

/* What the rule allows for a prefix in state s: 1 if `got` fits. *want and
 * *bound describe it for the message. */
static int add_fits(const ftype *ft, const add_state *s, long double got, long double *want,
                    long double *bound)
{
    long double ref_u = LDBL_EPSILON / 2.0L;
    long double err = rounding(ft->u, s->terms ? s->terms - 1 : 0) +
                      rounding(ref_u, s->terms + 2);
    *want = s->sum + s->comp;
    *bound = 0;
    if (s->nan || (s->pinf && s->ninf)) return *want = NAN, isnan(got);
    if (s->mag * (1 + err) >= ft->max) return 1; /* some association may overflow */
    if (s->pinf || s->ninf) return *want = s->pinf ? INFINITY : -INFINITY, got == *want;
    if (s->mag == 0) /* zeros only: -0.0 exactly when every term is -0.0 */
        return *want = s->all_neg_zero ? -0.0L : 0.0L,
               got == 0 && (signbit(got) != 0) == s->all_neg_zero;
    /* Devices that flush denormals may lose up to the smallest normal value
     * in each operation. */
    *bound = err * s->mag + (long double)s->terms * ft->min_normal;
    return isfinite(got) && fabsl(got - *want) <= *bound;
}

static int check_add(const ftype *ft, int exclusive, const void *in, const void *out, size_t n,
                     ak_err *e)
{
    add_state s = {0, false, false, false, true, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        long double x = load_float(ft, in, i), want, bound;
        if (!exclusive) add_step(&s, x);
        long double got = load_float(ft, out, i);
        if (!add_fits(ft, &s, got, &want, &bound))
            return ak_fail(e, "check failed at element %zu: got %.17Lg, expected %.17Lg "
                           "within %.3Lg", i, got, want, bound);
        if (exclusive) add_step(&s, x);
    }
    return 0;
}

/* ---- mul -------------------------------------------------------------------------------- */

/* A positive or negative number m * 2^e with 0.5 <= |m| < 1 (or m == 0):
 * products of any length without overflow. */
typedef struct xnum {
    long double m;
    long long e;
} xnum;

static xnum xnum_of(long double x)
{
    int e = 0;
    long double m = frexpl(x, &e);
    return (xnum){m, e};
}

static xnum xnum_mul(xnum a, xnum b)
{
    xnum r = xnum_of(a.m * b.m);
    r.e += a.e + b.e;
    return r;
}

/* |a| < |b|, both nonzero. */
static bool xnum_less(xnum a, xnum b)
{
    return a.e != b.e ? a.e < b.e : fabsl(a.m) < fabsl(b.m);
}

static long double xnum_value(xnum a)
{
    return a.e > LDBL_MAX_EXP ? copysignl(INFINITY, a.m) : ldexpl(a.m, (int)a.e);
}

/* The product of the terms so far: specials by flag, the sign of all
 * terms, the finite nonzero part, and (Kadane) the largest and smallest
 * magnitudes of products of runs of finite nonzero terms ending here. */
typedef struct mul_state {
    size_t terms;
    bool nan, zero, inf, negative, hazard;
    xnum prod, hi, lo;
} mul_state;

/* Whether a run product of magnitude hi or lo, rounded in up to `terms`
 * operations, may leave the normal range. */
static bool leaves_range(const ftype *ft, const mul_state *s)
{
    size_t k = s->terms - 1;
    long double grow = 1 + rounding(ft->u, k), shrink = expl((long double)k * log1pl(-ft->u));
    if (!isfinite(grow) || shrink == 0) return true;
    xnum up = xnum_of(grow), down = xnum_of(shrink);
    return !xnum_less(xnum_mul(s->hi, up), xnum_of(ft->max)) ||
           xnum_less(xnum_mul(s->lo, down), xnum_of(ft->min_normal));
}

static void mul_step(const ftype *ft, mul_state *s, long double x)
{
    xnum one = xnum_of(1);
    s->terms++;
    s->negative ^= signbit(x) != 0;
    if (isnan(x) || x == 0 || isinf(x)) {
        s->nan |= isnan(x) != 0;
        s->zero |= x == 0;
        s->inf |= isinf(x) != 0;
        s->hi = s->lo = one;
        return;
    }
    xnum ax = xnum_of(fabsl(x));
    s->prod = xnum_mul(s->prod, xnum_of(x));
    s->hi = xnum_mul(ax, xnum_less(s->hi, one) ? one : s->hi);
    s->lo = xnum_mul(ax, xnum_less(s->lo, one) ? s->lo : one);
    s->hazard = s->hazard || leaves_range(ft, s);
}

static int mul_fits(const ftype *ft, const mul_state *s, long double got, long double *want,
                    long double *bound)
{
    long double sign = s->negative ? -1.0L : 1.0L;
    *want = xnum_value(s->prod);
    *bound = 0;
    if (s->nan || (s->zero && s->inf)) return *want = NAN, isnan(got);
    if (s->hazard) return 1;
    if (s->zero) return *want = copysignl(0.0L, sign), got == 0 && signbit(got) == signbit(sign);
    if (s->inf) return *want = copysignl(INFINITY, sign), got == *want;
    long double ref_u = LDBL_EPSILON / 2.0L;
    *bound = (rounding(ft->u, s->terms ? s->terms - 1 : 0) + rounding(ref_u, 2 * s->terms)) *
             fabsl(*want);
    return isfinite(got) && signbit(got) == signbit(sign) && fabsl(got - *want) <= *bound;
}

static int check_mul(const ftype *ft, int exclusive, const void *in, const void *out, size_t n,
                     ak_err *e)
{
    xnum one = xnum_of(1);
    mul_state s = {0, false, false, false, false, false, one, one, one};
    for (size_t i = 0; i < n; i++) {
        long double x = load_float(ft, in, i), want, bound;
        if (!exclusive) mul_step(ft, &s, x);
        long double got = load_float(ft, out, i);
        if (!mul_fits(ft, &s, got, &want, &bound))
            return ak_fail(e, "check failed at element %zu: got %.17Lg, expected %.17Lg "
                           "within %.3Lg", i, got, want, bound);
        if (exclusive) mul_step(ft, &s, x);
    }
    return 0;
}

int scan_check(ak_dtype type, sk_op op, int exclusive, const void *in, const void *out,
               size_t n, ak_err *e)
{
    if (!ak_dtype_is_float(type)) return check_ints(type, op, exclusive, in, out, n, e);
    ftype ft = ftype_of(type);
    switch (op) {
    case SK_OP_ADD: return check_add(&ft, exclusive, in, out, n, e);
    case SK_OP_MUL: return check_mul(&ft, exclusive, in, out, n, e);
    default: return check_minmax(&ft, op, exclusive, in, out, n, e);
    }
}
