/*
 * reference.c - plain, serial CPU references for the scankit tests.
 * See reference.h for the semantics pinned here.
 */
#include "reference.h"
#include "ref_segscan.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

int skt_ref_supported(sk_type t, sk_op op)
{
    if ((int)t < 0 || (int)t >= SK_TYPE_COUNT || (int)op < 0 || (int)op >= SK_OP_COUNT)
        return 0;
    if (t == SK_FLOAT32 || t == SK_FLOAT64)
        return op == SK_OP_ADD || op == SK_OP_MUL || op == SK_OP_MIN || op == SK_OP_MAX;
    return 1;
}

size_t skt_ref_type_size(sk_type t)
{
    switch (t) {
#define REF_TYPE_SIZE_(suffix, value, name, bytes, cl, cl_bits, c_type, ...) \
    case SK_##suffix: return sizeof(c_type);
    SK_ALL_TYPES_MAP(REF_TYPE_SIZE_)
#undef REF_TYPE_SIZE_
    }
    return 0;
}

/* ---- the built-in operators, once for every row of SK_TYPE_MAP ------------- */

/* The unsigned type of an integer type's width, in which add and mul wrap. */
#define REF_UNSIGNED_4 uint32_t
#define REF_UNSIGNED_8 uint64_t

/* Integers (is_float 0): add and mul modulo 2^bits, computed in the unsigned
 * type U (no signed overflow in C); min, max and the bitwise ops as they are. */
#define REF_COMBINE_0_(T, U)                                        \
    switch (op) {                                                   \
    case SK_OP_ADD: return (T)((U)a + (U)b);                        \
    case SK_OP_MUL: return (T)((U)a * (U)b);                        \
    case SK_OP_MIN: return a < b ? a : b;                           \
    case SK_OP_MAX: return a > b ? a : b;                           \
    case SK_OP_AND: return a & b;                                   \
    case SK_OP_OR: return a | b;                                    \
    case SK_OP_XOR: return a ^ b;                                   \
    }                                                               \
    return 0;

/* Floats (is_float 1): add and mul as C evaluates them; min and max IEEE
 * minimum and maximum: the left-most NaN operand as it is, else the smaller
 * (larger) operand with -0.0 < +0.0. No bitwise ops. */
#define REF_COMBINE_1_(T, U)                                        \
    switch (op) {                                                   \
    case SK_OP_ADD: return a + b;                                   \
    case SK_OP_MUL: return a * b;                                   \
    case SK_OP_MIN:                                                 \
    case SK_OP_MAX:                                                 \
        if (isnan(a)) return a;                                     \
        if (isnan(b)) return b;                                     \
        if (a == b) return (signbit(a) != 0) == (op == SK_OP_MIN) ? a : b; \
        return (a < b) == (op == SK_OP_MIN) ? a : b;                \
    default: break;                                                 \
    }                                                               \
    return NAN;

/* Identities: add 0, mul 1, min the largest value, max the smallest, and
 * all ones, or and xor 0 (U's all ones is -1 in a signed T). */
#define REF_IDENTITY_0_(T, U, is_signed)                            \
    switch (op) {                                                   \
    case SK_OP_MUL: return 1;                                       \
    case SK_OP_MIN: return (T)(is_signed ? (U)-1 >> 1 : (U)-1);     \
    case SK_OP_MAX: return (T)(is_signed ? ~((U)-1 >> 1) : 0);      \
    case SK_OP_AND: return (T)(U)-1;                                \
    default: return 0;                                              \
    }

/* Floats: add -0.0 (-0.0 + -0.0 is -0.0), mul 1, min +inf, max -inf. */
#define REF_IDENTITY_1_(T, U, is_signed)                            \
    switch (op) {                                                   \
    case SK_OP_MUL: return 1;                                       \
    case SK_OP_MIN: return INFINITY;                                \
    case SK_OP_MAX: return -INFINITY;                               \
    default: return -(T)0;                                          \
    }

/* ref_combine_SUFFIX and ref_identity_SUFFIX for one row. */
#define REF_TYPE_FNS_(suffix, value, name, bytes, cl, cl_bits, T, is_float, is_signed, ...) \
    static T ref_combine_##suffix(sk_op op, T a, T b)               \
    {                                                               \
        REF_COMBINE_##is_float##_(T, REF_UNSIGNED_##bytes)          \
    }                                                               \
    static T ref_identity_##suffix(sk_op op)                        \
    {                                                               \
        REF_IDENTITY_##is_float##_(T, REF_UNSIGNED_##bytes, is_signed) \
    }
SK_TYPE_MAP(REF_TYPE_FNS_)
#undef REF_TYPE_FNS_

void skt_ref_identity(sk_type t, sk_op op, void *out)
{
    switch (t) {
#define REF_IDENTITY_CASE_(suffix, value, name, bytes, cl, cl_bits, T, ...) \
    case SK_##suffix: {                                             \
        T v = ref_identity_##suffix(op);                            \
        memcpy(out, &v, sizeof v);                                  \
        return;                                                     \
    }
    SK_TYPE_MAP(REF_IDENTITY_CASE_)
#undef REF_IDENTITY_CASE_
    default: break; /* sort key types only */
    }
}

void skt_ref_combine(sk_type t, sk_op op, const void *a, const void *b, void *out)
{
    switch (t) {
#define REF_COMBINE_CASE_(suffix, value, name, bytes, cl, cl_bits, T, ...) \
    case SK_##suffix: {                                             \
        T x, y, r;                                                  \
        memcpy(&x, a, sizeof x);                                    \
        memcpy(&y, b, sizeof y);                                    \
        r = ref_combine_##suffix(op, x, y);                         \
        memcpy(out, &r, sizeof r);                                  \
        return;                                                     \
    }
    SK_TYPE_MAP(REF_COMBINE_CASE_)
#undef REF_COMBINE_CASE_
    default: break; /* sort key types only */
    }
}

/* The scans: one accumulator, left to right. Reading src[i] before writing
 * dst[i] keeps them correct in place. */
void skt_ref_scan(sk_type t, sk_op op, int exclusive, const void *src, void *dst,
                  size_t n)
{
    size_t es = skt_ref_type_size(t);
    const unsigned char *s = src;
    unsigned char *d = dst;
    unsigned char acc[8], x[8];

    skt_ref_identity(t, op, acc);
    for (size_t i = 0; i < n; i++) {
        memcpy(x, s + i * es, es);
        if (exclusive) {
            memcpy(d + i * es, acc, es);
            skt_ref_combine(t, op, acc, x, acc);
        } else if (i == 0) {
            /* dst[0] = src[0]: no operation is applied to the first element. */
            memcpy(acc, x, es);
            memcpy(d, acc, es);
        } else {
            skt_ref_combine(t, op, acc, x, acc);
            memcpy(d + i * es, acc, es);
        }
    }
}

void skt_ref_reduce(sk_type t, sk_op op, const void *src, size_t n, void *result)
{
    size_t es = skt_ref_type_size(t);
    const unsigned char *s = src;
    unsigned char acc[8];

    skt_ref_identity(t, op, acc);
    for (size_t i = 0; i < n; i++) {
        if (i == 0)
            memcpy(acc, s, es);
        else
            skt_ref_combine(t, op, acc, s + i * es, acc);
    }
    memcpy(result, acc, es);
}

/* ---- float products: runs that leave the normal range ------------------------ */

double skt_ref_real_at(sk_type t, const void *src, size_t i)
{
    const char *p = (const char *)src + skt_ref_type_size(t) * i;
    float f;
    double d;
    if (t == SK_FLOAT32) return memcpy(&f, p, sizeof f), (double)f;
    return memcpy(&d, p, sizeof d), d;
}

void skt_ref_set_real(sk_type t, void *dst, size_t i, double v)
{
    char *p = (char *)dst + skt_ref_type_size(t) * i;
    float f = t == SK_FLOAT32 ? (float)v : 0.0f;
    if (t == SK_FLOAT32) memcpy(p, &f, sizeof f);
    else memcpy(p, &v, sizeof v);
}

uint64_t skt_ref_uint_at(const void *src, size_t size, size_t i)
{
    const unsigned char *p = (const unsigned char *)src + size * i;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (size) {
    case 1: return *p;
    case 2: return memcpy(&u16, p, sizeof u16), u16;
    case 4: return memcpy(&u32, p, sizeof u32), u32;
    default: return memcpy(&u64, p, sizeof u64), u64;
    }
}

/* Kadane on exponents: hi and lo are the largest and smallest exponent sums
 * of the runs of finite nonzero elements that end at the current one. */
void skt_ref_mul_hazards(sk_type t, const void *src, const unsigned char *heads, size_t n,
                         unsigned char *marks)
{
    long emax = t == SK_FLOAT32 ? FLT_MAX_EXP - 1 : DBL_MAX_EXP - 1;
    long emin = t == SK_FLOAT32 ? FLT_MIN_EXP - 1 : DBL_MIN_EXP - 1;
    long hi = 0, lo = 0;
    int hazard = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || (heads && heads[i])) hazard = 0, hi = lo = 0;
        double x = skt_ref_real_at(t, src, i);
        if (x == 0 || isinf(x) || isnan(x)) {
            hi = lo = 0;
        } else {
            long e = ilogb(x);
            hi = e + (hi > 0 ? hi : 0);
            lo = e + (lo < 0 ? lo : 0);
            hazard |= hi > emax || lo < emin;
        }
        marks[i] = (unsigned char)hazard;
    }
}

/* ---- 2x2 matrices modulo 2^32 ------------------------------------------------ */

skt_mat2 skt_ref_mat2_identity(void)
{
    skt_mat2 r = {1u, 0u, 0u, 1u};
    return r;
}

skt_mat2 skt_ref_mat2_mul(skt_mat2 x, skt_mat2 y)
{
    skt_mat2 r;
    r.a = x.a * y.a + x.b * y.c;
    r.b = x.a * y.b + x.b * y.d;
    r.c = x.c * y.a + x.d * y.c;
    r.d = x.c * y.b + x.d * y.d;
    return r;
}

/* ---- affine maps with a length counter --------------------------------------- */

skt_affine skt_ref_affine_identity(void)
{
    skt_affine r = {1u, 0u, 0u};
    return r;
}

skt_affine skt_ref_affine_combine(skt_affine x, skt_affine y)
{
    skt_affine r;
    r.m = x.m * y.m;
    r.c = x.c * y.m + y.c;
    r.len = x.len + y.len;
    return r;
}

/* ---- the interval-of-summations monoid (VERIFY.md) ---------------------------- */

skt_interval skt_ref_interval_identity(void)
{
    skt_interval r = {SKT_IV_IDENTITY_I, SKT_IV_IDENTITY_I};
    return r;
}

skt_interval skt_ref_interval_top(void)
{
    skt_interval r = {SKT_IV_TOP_I, SKT_IV_TOP_I};
    return r;
}

skt_interval skt_ref_interval_combine(skt_interval x, skt_interval y)
{
    if (x.i == SKT_IV_IDENTITY_I)
        return y;
    if (y.i == SKT_IV_IDENTITY_I)
        return x;
    if (x.i == SKT_IV_TOP_I || y.i == SKT_IV_TOP_I)
        return skt_ref_interval_top();
    if (x.j + 1 == y.i) {
        skt_interval r = {x.i, y.j};
        return r;
    }
    return skt_ref_interval_top();
}

/* ---- the test monoids' scans and reduces ----------------------------------- */

/* For monoid T of prefix P: P_bytes (COMBINE on elements as bytes, for
 * skt_ref_segscan_generic), skt_ref_P_scan (one segment) and
 * skt_ref_P_reduce (one accumulator from the identity, left to right). */
#define REF_MONOID_FNS_(T, P, COMBINE)                                              \
    static void P##_bytes(const void *a, const void *b, void *out)                   \
    {                                                                                \
        T x, y, r;                                                                   \
        memcpy(&x, a, sizeof x);                                                     \
        memcpy(&y, b, sizeof y);                                                     \
        r = COMBINE(x, y);                                                           \
        memcpy(out, &r, sizeof r);                                                   \
    }                                                                                \
    void skt_ref_##P##_scan(int exclusive, const T *src, T *dst, size_t n)           \
    {                                                                                \
        T id = skt_ref_##P##_identity();                                             \
        skt_ref_segscan_generic(sizeof(T), P##_bytes, &id, exclusive, src, dst, NULL, n); \
    }                                                                                \
    T skt_ref_##P##_reduce(const T *src, size_t n)                                   \
    {                                                                                \
        T acc = skt_ref_##P##_identity();                                            \
        for (size_t i = 0; i < n; i++) acc = COMBINE(acc, src[i]);                   \
        return acc;                                                                  \
    }

REF_MONOID_FNS_(skt_mat2, mat2, skt_ref_mat2_mul)
REF_MONOID_FNS_(skt_affine, affine, skt_ref_affine_combine)
REF_MONOID_FNS_(skt_interval, interval, skt_ref_interval_combine)
