/*
 * scan_check.c - serial reference scan and comparison for `scan --check`.
 */
#include "scan_check.h"

#include <float.h>
#include <math.h>
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

static uint64_t load_int(const void *p, size_t i, int bits)
{
    if (bits == 32) {
        uint32_t v;
        memcpy(&v, (const char *)p + i * 4, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, (const char *)p + i * 8, 8);
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

static long double load_float(ak_dtype type, const void *p, size_t i)
{
    if (type == AK_FLOAT32) {
        float v;
        memcpy(&v, (const char *)p + i * 4, 4);
        return v;
    }
    double v;
    memcpy(&v, (const char *)p + i * 8, 8);
    return v;
}

/* Running state of a float scan: the exact-ish value, a bound scale. */
typedef struct float_acc {
    long double value;   /* the prefix in long double */
    long double scale;   /* sum of |terms| (add) or |value| (mul) */
} float_acc;

static void float_step(sk_op op, float_acc *a, long double x)
{
    switch (op) {
    case SK_OP_ADD: a->value += x; a->scale += fabsl(x); break;
    case SK_OP_MUL: a->value *= x; a->scale = fabsl(a->value); break;
    case SK_OP_MIN: if (!isnan((double)x) && (isnan((double)a->value) || x < a->value)) a->value = x; break;
    case SK_OP_MAX: if (!isnan((double)x) && (isnan((double)a->value) || x > a->value)) a->value = x; break;
    default: break;
    }
}

static float_acc float_identity(sk_op op)
{
    float_acc a = {0, 0};
    if (op == SK_OP_MUL) a.value = a.scale = 1;
    if (op == SK_OP_MIN) a.value = INFINITY;
    if (op == SK_OP_MAX) a.value = -INFINITY;
    return a;
}

static int float_matches(ak_dtype type, sk_op op, const float_acc *a, long double got,
                         size_t terms)
{
    long double expect = type == AK_FLOAT32 ? (long double)(float)a->value
                                            : (long double)(double)a->value;
    if (isnan((double)expect) || isnan((double)got))
        return isnan((double)expect) && isnan((double)got);
    if (op == SK_OP_MIN || op == SK_OP_MAX || isinf((double)expect))
        return got == expect;
    long double u = type == AK_FLOAT32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    long double bound = 2.0L * (long double)(terms + 1) * u * a->scale;
    long double tiny = type == AK_FLOAT32 ? FLT_MIN : DBL_MIN;
    return fabsl(got - a->value) <= bound + tiny;
}

static int check_floats(ak_dtype type, sk_op op, int exclusive, const void *in,
                        const void *out, size_t n, ak_err *e)
{
    float_acc acc = float_identity(op);
    for (size_t i = 0; i < n; i++) {
        long double x = load_float(type, in, i);
        if (!exclusive) float_step(op, &acc, x);
        long double got = load_float(type, out, i);
        if (!float_matches(type, op, &acc, got, exclusive ? i : i + 1))
            return ak_fail(e, "check failed at element %zu: got %.17Lg, expected %.17Lg", i,
                           got, acc.value);
        if (exclusive) float_step(op, &acc, x);
    }
    return 0;
}

int scan_check(ak_dtype type, sk_op op, int exclusive, const void *in, const void *out,
               size_t n, ak_err *e)
{
    if (ak_dtype_is_float(type)) return check_floats(type, op, exclusive, in, out, n, e);
    return check_ints(type, op, exclusive, in, out, n, e);
}
