/*
 * ref_compact.c - serial references for stream compaction (see ref_compact.h).
 */
#include "ref_compact.h"

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

/* The predicate on one element, read through its real type. */
static int pred_one(sk_type t, skt_pred p, const unsigned char *e)
{
    int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f; double d;
    switch (t) {
    case SK_INT32: memcpy(&i32, e, 4); return p == SKT_PRED_HALF ? (i32 & 1) != 0 : i32 % 3 == 0;
    case SK_UINT32: memcpy(&u32, e, 4); return p == SKT_PRED_HALF ? (u32 & 1) != 0 : u32 % 3 == 0;
    case SK_INT64: memcpy(&i64, e, 8); return p == SKT_PRED_HALF ? (i64 & 1) != 0 : i64 % 3 == 0;
    case SK_UINT64: memcpy(&u64, e, 8); return p == SKT_PRED_HALF ? (u64 & 1) != 0 : u64 % 3 == 0;
    case SK_FLOAT32: memcpy(&f, e, 4); return p == SKT_PRED_HALF ? f < 0.5f : isnan(f);
    case SK_FLOAT64: memcpy(&d, e, 8); return p == SKT_PRED_HALF ? d < 0.5 : isnan(d);
    }
    return 0;
}

static size_t type_size(sk_type t) { return t == SK_INT32 || t == SK_UINT32 || t == SK_FLOAT32 ? 4 : 8; }

void skt_ref_pred_mask(sk_type t, skt_pred p, const void *src, size_t n, unsigned char *keep)
{
    const unsigned char *s = src;
    size_t es = type_size(t);
    for (size_t i = 0; i < n; i++) keep[i] = (unsigned char)pred_one(t, p, s + i * es);
}

void skt_ref_flag_mask(const void *flags, size_t flag_size, size_t n, unsigned char *keep)
{
    const unsigned char *f = flags;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = 0;
        if (flag_size == 1) v = f[i];
        else memcpy(&v, f + i * 4, 4);
        keep[i] = v != 0;
    }
}

/* a == b in type t. */
static int equal_one(sk_type t, const unsigned char *a, const unsigned char *b)
{
    float fa, fb;
    double da, db;
    switch (t) {
    case SK_FLOAT32: memcpy(&fa, a, 4); memcpy(&fb, b, 4); return fa == fb;
    case SK_FLOAT64: memcpy(&da, a, 8); memcpy(&db, b, 8); return da == db;
    default: return memcmp(a, b, type_size(t)) == 0;
    }
}

void skt_ref_unique_mask(sk_type t, const void *src, size_t n, unsigned char *keep)
{
    const unsigned char *s = src;
    size_t es = type_size(t);
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
