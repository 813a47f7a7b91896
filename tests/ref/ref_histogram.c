/*
 * ref_histogram.c - the serial histogram reference (ref_histogram.h).
 */
#include "ref_histogram.h"

#include <string.h>

/* The bin of x over [lo, hi) in `bins` equal bins, or bins for none. */
#define EVEN_INT(c_type, ut)                                                            \
    static size_t even_##c_type(c_type x, c_type lo, c_type hi, size_t bins)            \
    {                                                                                   \
        if (x < lo || x >= hi) return bins;                                             \
        unsigned __int128 d = (ut)((ut)x - (ut)lo), w = (ut)((ut)hi - (ut)lo);          \
        return (size_t)(d * bins / w);                                                  \
    }
EVEN_INT(int32_t, uint32_t)
EVEN_INT(uint32_t, uint32_t)
EVEN_INT(int64_t, uint64_t)
EVEN_INT(uint64_t, uint64_t)

#define EVEN_FLOAT(c_type)                                                              \
    static size_t even_##c_type(c_type x, c_type lo, c_type hi, size_t bins)            \
    {                                                                                   \
        if (!(x >= lo && x < hi)) return bins; /* NaN: no bin */                        \
        c_type width = hi - lo;                                                         \
        c_type scale = (c_type)bins / width;                                            \
        c_type d = x - lo;                                                              \
        c_type f = d * scale;                                                           \
        if (!(f < (c_type)bins)) return bins - 1;                                       \
        size_t b = (size_t)f;                                                           \
        return b < bins - 1 ? b : bins - 1;                                             \
    }
EVEN_FLOAT(float)
EVEN_FLOAT(double)

void skt_ref_histogram_even(sk_type t, const void *src, size_t n, double lo, double hi,
                            size_t bins, uint64_t *counts)
{
    memset(counts, 0, bins * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        size_t b = bins;
        switch (t) {
#define EVEN_CASE_(suffix, value, name, bytes, cl, bits, c_type, ...)                     \
    case SK_##suffix: {                                                                 \
        c_type x;                                                                       \
        memcpy(&x, (const char *)src + i * sizeof x, sizeof x);                         \
        b = even_##c_type(x, (c_type)lo, (c_type)hi, bins);                             \
        break;                                                                          \
    }
            SK_TYPE_MAP(EVEN_CASE_)
#undef EVEN_CASE_
        default: break; /* sort key types only */
        }
        if (b < bins) counts[b]++;
    }
}

void skt_ref_histogram_edges(sk_type t, const void *src, size_t n, const void *edges,
                             size_t bins, uint64_t *counts)
{
    memset(counts, 0, bins * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        size_t above = 0; /* edges at or below x: the first edge above x */
        switch (t) {
#define EDGES_CASE_(suffix, value, name, bytes, cl, bits, c_type, ...)                    \
    case SK_##suffix: {                                                                 \
        const c_type *e = edges;                                                        \
        c_type x;                                                                       \
        memcpy(&x, (const char *)src + i * sizeof x, sizeof x);                         \
        size_t a = 0, b = bins + 1;                                                     \
        while (a < b) {                                                                 \
            size_t mid = a + (b - a) / 2;                                               \
            if (e[mid] <= x) a = mid + 1;                                               \
            else b = mid;                                                               \
        }                                                                               \
        above = a; /* NaN: no edge at or below it, so 0 */                             \
        break;                                                                          \
    }
            SK_TYPE_MAP(EDGES_CASE_)
#undef EDGES_CASE_
        default: break; /* sort key types only */
        }
        if (above >= 1 && above <= bins) counts[above - 1]++;
    }
}

void skt_ref_put_double(sk_type t, void *dst, size_t i, double v)
{
    switch (t) {
#define PUT_CASE_(suffix, value, name, bytes, cl, bits, c_type, ...)                       \
    case SK_##suffix: {                                                                 \
        c_type x = (c_type)v;                                                           \
        memcpy((char *)dst + i * sizeof x, &x, sizeof x);                               \
        break;                                                                          \
    }
        SK_TYPE_MAP(PUT_CASE_)
#undef PUT_CASE_
    default: break; /* sort key types only */
    }
}
