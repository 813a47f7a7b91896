/*
 * ref_compact.c - serial references for stream compaction (see ref_compact.h).
 */
#include "ref_compact.h"
#include "reference.h"

#include <math.h>
#include <string.h>

static int is_float(sk_type t) { return t == SK_FLOAT32 || t == SK_FLOAT64; }

const char *skt_ref_pred_text(sk_type t, skt_pred p)
{
    switch (p) {
    case SKT_PRED_HALF:
        if (t == SK_FLOAT32) return "x < 0.5f";
        if (t == SK_FLOAT64) return "x < 0.5";
        return "(x & 1) != 0";
    case SKT_PRED_MOD3: return is_float(t) ? NULL : "x % 3 == 0";
    case SKT_PRED_ISNAN: return is_float(t) ? "isnan(x)" : NULL;
    }
    return NULL;
}

/* The predicate (integers: HALF or MOD3, floats: HALF or ISNAN) and `==`
 * on elements read through their real type. */
#define REF_PRED_0_(x) (p == SKT_PRED_HALF ? (x & 1) != 0 : x % 3 == 0)
#define REF_PRED_1_(x) (p == SKT_PRED_HALF ? x < 0.5f : isnan(x) != 0)
#define REF_ELEM_FNS_(suffix, value, name, bytes, cl, cl_bits, T, flt, ...)      \
    static int pred_##suffix(skt_pred p, const unsigned char *e)                 \
    {                                                                            \
        T x;                                                                     \
        memcpy(&x, e, sizeof x);                                                 \
        return REF_PRED_##flt##_(x);                                             \
    }                                                                            \
    static int equal_##suffix(const unsigned char *a, const unsigned char *b)   \
    {                                                                            \
        T x, y;                                                                  \
        memcpy(&x, a, sizeof x);                                                 \
        memcpy(&y, b, sizeof y);                                                 \
        return x == y;                                                           \
    }
SK_TYPE_MAP(REF_ELEM_FNS_)
#undef REF_ELEM_FNS_

static int pred_one(sk_type t, skt_pred p, const unsigned char *e)
{
    switch (t) {
#define REF_PRED_CASE_(suffix, ...) case SK_##suffix: return pred_##suffix(p, e);
    SK_TYPE_MAP(REF_PRED_CASE_)
#undef REF_PRED_CASE_
    default: break; /* sort key types only */
    }
    return 0;
}

/* a == b in type t (for floats +0.0 == -0.0, and NaN equals nothing). */
static int equal_one(sk_type t, const unsigned char *a, const unsigned char *b)
{
    switch (t) {
#define REF_EQUAL_CASE_(suffix, ...) case SK_##suffix: return equal_##suffix(a, b);
    SK_TYPE_MAP(REF_EQUAL_CASE_)
#undef REF_EQUAL_CASE_
    default: break; /* sort key types only */
    }
    return 0;
}

void skt_ref_pred_mask(sk_type t, skt_pred p, const void *src, size_t n, unsigned char *keep)
{
    const unsigned char *s = src;
    size_t es = skt_ref_type_size(t);
    for (size_t i = 0; i < n; i++) keep[i] = (unsigned char)pred_one(t, p, s + i * es);
}

void skt_ref_flag_mask(const void *flags, size_t flag_size, size_t n, unsigned char *keep)
{
    for (size_t i = 0; i < n; i++) keep[i] = skt_ref_uint_at(flags, flag_size, i) != 0;
}

void skt_ref_unique_mask(sk_type t, const void *src, size_t n, unsigned char *keep)
{
    const unsigned char *s = src;
    size_t es = skt_ref_type_size(t);
    for (size_t i = 0; i < n; i++)
        keep[i] = i == 0 || !equal_one(t, s + i * es, s + (i - 1) * es);
}

void skt_ref_indices(size_t n, size_t value_size, void *dst)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = i;
        memcpy(d + i * value_size, &v, value_size); /* little-endian: the low bytes */
    }
}

size_t skt_ref_select(const void *src, const unsigned char *keep, size_t n, size_t elem,
                      void *dst)
{
    const unsigned char *s = src;
    unsigned char *d = dst;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (keep[i]) {
            memcpy(d + k * elem, s + i * elem, elem);
            k++;
        }
    }
    return k;
}

size_t skt_ref_partition(const void *src, const unsigned char *keep, size_t n, size_t elem,
                         void *dst)
{
    const unsigned char *s = src;
    unsigned char *d = dst;
    size_t k = skt_ref_select(src, keep, n, elem, dst);
    size_t r = k;
    for (size_t i = 0; i < n; i++) {
        if (!keep[i]) {
            memcpy(d + r * elem, s + i * elem, elem);
            r++;
        }
    }
    return k;
}

size_t skt_ref_partition_reversed(const void *src, const unsigned char *keep, size_t n,
                                  size_t elem, void *dst)
{
    unsigned char *d = dst;
    size_t k = skt_ref_partition(src, keep, n, elem, dst);
    for (size_t i = k, j = n; i + 1 < j; i++, j--) { /* swap elements i and j - 1 */
        for (size_t b = 0; b < elem; b++) {
            unsigned char x = d[i * elem + b];
            d[i * elem + b] = d[(j - 1) * elem + b];
            d[(j - 1) * elem + b] = x;
        }
    }
    return k;
}
