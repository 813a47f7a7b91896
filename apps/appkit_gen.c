/*
 * appkit_gen.c - reproducible input data: the distributions of datagen and
 * an in-place sort for the sorted ones.
 *
 * The PRNG is sk_rng (common/sk_rng.h): xoshiro256** seeded by splitmix64.
 * Every element is produced from 64-bit outputs in a fixed order, so the
 * same seed gives the same data on every machine, whatever the block size.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Names and ranges                                                          */
/* ------------------------------------------------------------------------ */

static const char *const dist_names[] = {
    [AK_DIST_UNIFORM] = "uniform",   [AK_DIST_SORTED] = "sorted",
    [AK_DIST_REVERSED] = "reversed", [AK_DIST_EQUAL] = "equal",
    [AK_DIST_FEW_UNIQUE] = "few-unique", [AK_DIST_ENTROPY] = "entropy",
};

#define AK_DIST_COUNT (sizeof dist_names / sizeof dist_names[0])
#define ENTROPY_K_MAX 64u

const char *ak_dist_name(ak_dist d)
{
    return (unsigned)d < AK_DIST_COUNT ? dist_names[d] : "?";
}

int ak_dist_parse(const char *s, ak_dist *dist, unsigned *entropy_k)
{
    *entropy_k = 0;
    if (strncmp(s, "entropy:", 8) == 0) {
        uint64_t k;
        if (ak_parse_u64(s + 8, &k) != 0 || k < 1 || k > ENTROPY_K_MAX)
            return -1;
        *dist = AK_DIST_ENTROPY;
        *entropy_k = (unsigned)k;
        return 0;
    }
    for (unsigned d = 0; d < AK_DIST_COUNT; d++) {
        if (d != AK_DIST_ENTROPY && strcmp(s, dist_names[d]) == 0) {
            *dist = (ak_dist)d;
            return 0;
        }
    }
    return -1;
}

/* Smallest and largest value of an integer type, as the bits of .i / .u. */
static void int_type_limits(ak_dtype t, ak_value *min, ak_value *max)
{
    switch (t) {
    case AK_INT32: min->i = INT32_MIN; max->i = INT32_MAX; break;
    case AK_INT64: min->i = INT64_MIN; max->i = INT64_MAX; break;
    case AK_UINT32: min->u = 0; max->u = UINT32_MAX; break;
    case AK_UINT8: min->u = 0; max->u = UINT8_MAX; break;
    default: min->u = 0; max->u = UINT64_MAX; break;
    }
}

static int parse_bound(const char *s, ak_dtype t, ak_value *v)
{
    ak_value min, max;
    if (ak_dtype_is_float(t)) {
        double limit = t == AK_FLOAT32 ? FLT_MAX : DBL_MAX;
        return ak_parse_f64(s, &v->f) == 0 && fabs(v->f) <= limit ? 0 : -1;
    }
    int_type_limits(t, &min, &max);
    if (ak_dtype_is_signed(t))
        return ak_parse_i64(s, &v->i) == 0 && v->i >= min.i && v->i <= max.i ? 0 : -1;
    return ak_parse_u64(s, &v->u) == 0 && v->u <= max.u ? 0 : -1;
}

static int range_is_empty(ak_dtype t, ak_value lo, ak_value hi)
{
    if (t == AK_FLOAT32)
        return !((float)lo.f < (float)hi.f);
    if (t == AK_FLOAT64)
        return !(lo.f < hi.f);
    if (ak_dtype_is_signed(t))
        return lo.i > hi.i;
    return lo.u > hi.u;
}

int ak_range_parse(const char *s, ak_dtype type, ak_value *lo, ak_value *hi, ak_err *e)
{
    const char *colon = strchr(s, ':');
    char lo_text[64];
    if (!colon || (size_t)(colon - s) >= sizeof lo_text)
        return ak_fail(e, "--range '%s': expected LO:HI", s);
    memcpy(lo_text, s, (size_t)(colon - s));
    lo_text[colon - s] = '\0';
    if (parse_bound(lo_text, type, lo) != 0)
        return ak_fail(e, "--range '%s': '%s' is not a %s value", s, lo_text,
                       ak_dtype_name(type));
    if (parse_bound(colon + 1, type, hi) != 0)
        return ak_fail(e, "--range '%s': '%s' is not a %s value", s, colon + 1,
                       ak_dtype_name(type));
    if (range_is_empty(type, *lo, *hi))
        return ak_fail(e, "--range '%s' is empty for %s (integers: LO <= HI, floats: LO < HI)",
                       s, ak_dtype_name(type));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Element values as bit patterns                                            */
/* ------------------------------------------------------------------------ */

static uint64_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Integers: lo + [0, span), wrapping, so signed types work on their bits.
 * Power-of-two spans (every full-width type) take the high bits directly. */
static uint64_t uniform_int_bits(ak_gen *g)
{
    if (g->span_shift > 0)
        return g->lo_bits + (sk_rng_next(&g->rng) >> g->span_shift);
    return g->lo_bits + sk_rng_below(&g->rng, g->span);
}

static double unit_double(uint64_t x)
{
    return (double)(x >> 11) * 0x1p-53; /* [0, 1), 53 random bits */
}

static uint64_t uniform_float_bits(ak_gen *g)
{
    uint64_t x = sk_rng_next(&g->rng);
    double lo = g->spec.lo.f, hi = g->spec.hi.f;
    if (g->spec.type == AK_FLOAT32) {
        if (!g->spec.has_range)
            return float_bits((float)(x >> 40) * 0x1p-24f);
        float v = (float)(lo + unit_double(x) * (hi - lo));
        float flo = (float)lo, fhi = (float)hi;
        if (v >= fhi)
            v = nextafterf(fhi, flo);
        return float_bits(v < flo ? flo : v);
    }
    if (!g->spec.has_range)
        return double_bits(unit_double(x));
    double v = lo + unit_double(x) * (hi - lo);
    if (v >= hi)
        v = nextafter(hi, lo);
    return double_bits(v < lo ? lo : v);
}

static uint64_t uniform_bits(ak_gen *g)
{
    return g->is_float ? uniform_float_bits(g) : uniform_int_bits(g);
}

static uint64_t entropy_bits(ak_gen *g)
{
    uint64_t w = ~(uint64_t)0;
    for (unsigned k = 0; k < g->spec.entropy_k; k++)
        w &= sk_rng_next(&g->rng);
    switch (g->spec.type) {
    case AK_FLOAT32: return float_bits((float)(w >> 40) * 0x1p-24f);
    case AK_FLOAT64: return double_bits(unit_double(w));
    default: break;
    }
    return w >> (64 - 8 * ak_dtype_size(g->spec.type));
}

static uint64_t next_bits(ak_gen *g)
{
    switch (g->spec.dist) {
    case AK_DIST_EQUAL: return g->table[0];
    case AK_DIST_FEW_UNIQUE: return g->table[sk_rng_below(&g->rng, g->table_size)];
    case AK_DIST_ENTROPY: return entropy_bits(g);
    default: return uniform_bits(g);
    }
}

static void store_bits(unsigned char *buf, size_t i, size_t size, uint64_t bits)
{
    if (size == 1) {
        buf[i] = (unsigned char)bits;
    } else if (size == 4) {
        uint32_t v = (uint32_t)bits;
        memcpy(buf + i * 4, &v, 4);
    } else {
        memcpy(buf + i * 8, &bits, 8);
    }
}

/* ------------------------------------------------------------------------ */
/* Generators                                                                */
/* ------------------------------------------------------------------------ */

static int table_has(const ak_gen *g, uint64_t bits)
{
    for (unsigned i = 0; i < g->table_size; i++)
        if (g->table[i] == bits)
            return 1;
    return 0;
}

/* Up to 16 distinct values (fewer when the range holds fewer). */
static void fill_unique_table(ak_gen *g)
{
    unsigned want = 16;
    if (!g->is_float && g->span != 0 && g->span < want)
        want = (unsigned)g->span;
    g->table_size = 0;
    for (unsigned attempt = 0; attempt < 4096 && g->table_size < want; attempt++) {
        uint64_t bits = uniform_bits(g);
        if (!table_has(g, bits))
            g->table[g->table_size++] = bits;
    }
}

static void set_default_range(ak_gen_spec *s)
{
    if (s->has_range)
        return;
    if (ak_dtype_is_float(s->type)) {
        s->lo.f = 0.0;
        s->hi.f = 1.0;
        return;
    }
    int_type_limits(s->type, &s->lo, &s->hi);
}

static int check_spec(const ak_gen_spec *s, ak_err *e)
{
    if (ak_dtype_size(s->type) == 0)
        return ak_fail(e, "invalid element type");
    if ((unsigned)s->dist >= AK_DIST_COUNT)
        return ak_fail(e, "invalid distribution");
    if (s->dist == AK_DIST_ENTROPY && (s->entropy_k < 1 || s->entropy_k > ENTROPY_K_MAX))
        return ak_fail(e, "entropy:K needs 1 <= K <= %u", ENTROPY_K_MAX);
    if (s->dist == AK_DIST_ENTROPY && s->has_range)
        return ak_fail(e, "--range does not apply to entropy:K");
    if (s->has_range && range_is_empty(s->type, s->lo, s->hi))
        return ak_fail(e, "empty --range for %s", ak_dtype_name(s->type));
    return 0;
}

int ak_gen_init(ak_gen *g, const ak_gen_spec *spec, ak_err *e)
{
    if (check_spec(spec, e) != 0)
        return -1;
    memset(g, 0, sizeof *g);
    g->spec = *spec;
    set_default_range(&g->spec);
    g->is_float = ak_dtype_is_float(g->spec.type);
    if (!g->is_float) {
        int sig = ak_dtype_is_signed(g->spec.type);
        g->lo_bits = sig ? (uint64_t)g->spec.lo.i : g->spec.lo.u;
        uint64_t hi = sig ? (uint64_t)g->spec.hi.i : g->spec.hi.u;
        g->span = hi - g->lo_bits + 1; /* 0 stands for 2^64 */
        int k = sk_log2_if_power_of_two(g->span);
        g->span_shift = k > 0 ? 64 - k : 0;
    }
    sk_rng_seed(&g->rng, g->spec.seed);
    if (g->spec.dist == AK_DIST_EQUAL) {
        g->table[0] = uniform_bits(g);
        g->table_size = 1;
    } else if (g->spec.dist == AK_DIST_FEW_UNIQUE) {
        fill_unique_table(g);
    }
    return 0;
}

int ak_gen_is_streamable(const ak_gen_spec *spec)
{
    return spec->dist != AK_DIST_SORTED && spec->dist != AK_DIST_REVERSED;
}

void ak_gen_next_block(ak_gen *g, void *buf, size_t count)
{
    size_t size = ak_dtype_size(g->spec.type);
    for (size_t i = 0; i < count; i++)
        store_bits(buf, i, size, next_bits(g));
}

int ak_gen_fill(const ak_gen_spec *spec, void *buf, size_t n, ak_err *e)
{
    ak_gen g;
    if (ak_gen_init(&g, spec, e) != 0)
        return -1;
    ak_gen_next_block(&g, buf, n);
    if (!ak_gen_is_streamable(spec))
        ak_sort_elements(spec->type, buf, n, spec->dist == AK_DIST_REVERSED);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* In-place sort                                                             */
/* ------------------------------------------------------------------------ */

/* MSD radix sort on unsigned keys, one byte per level, permuting in place
 * (American flag sort), insertion sort for small buckets. */
#define AK_DEFINE_KEY_SORT(NAME, T)                                             \
    static void NAME##_small(T *a, size_t n)                                    \
    {                                                                           \
        for (size_t i = 1; i < n; i++) {                                        \
            T v = a[i];                                                         \
            size_t j = i;                                                       \
            for (; j > 0 && a[j - 1] > v; j--)                                  \
                a[j] = a[j - 1];                                                \
            a[j] = v;                                                           \
        }                                                                       \
    }                                                                           \
    static void NAME(T *a, size_t n, int shift)                                 \
    {                                                                           \
        if (n < 64) {                                                           \
            NAME##_small(a, n);                                                 \
            return;                                                             \
        }                                                                       \
        size_t count[256] = {0}, head[256], tail[256], sum = 0;                 \
        for (size_t i = 0; i < n; i++)                                          \
            count[(a[i] >> shift) & 0xff]++;                                    \
        for (unsigned b = 0; b < 256; b++) {                                    \
            head[b] = sum;                                                      \
            sum += count[b];                                                    \
            tail[b] = sum;                                                      \
        }                                                                       \
        for (unsigned b = 0; b < 256; b++) {                                    \
            while (head[b] < tail[b]) {                                         \
                T v = a[head[b]];                                               \
                unsigned d = (unsigned)(v >> shift) & 0xff;                     \
                while (d != b) {                                                \
                    T moved = a[head[d]];                                       \
                    a[head[d]++] = v;                                           \
                    v = moved;                                                  \
                    d = (unsigned)(v >> shift) & 0xff;                          \
                }                                                               \
                a[head[b]++] = v;                                               \
            }                                                                   \
        }                                                                       \
        if (shift == 0)                                                         \
            return;                                                             \
        size_t start = 0;                                                       \
        for (unsigned b = 0; b < 256; b++) {                                    \
            NAME(a + start, count[b], shift - 8);                               \
            start += count[b];                                                  \
        }                                                                       \
    }

AK_DEFINE_KEY_SORT(sort_keys8, uint8_t)
AK_DEFINE_KEY_SORT(sort_keys32, uint32_t)
AK_DEFINE_KEY_SORT(sort_keys64, uint64_t)

/* Order-preserving maps between element bits and unsigned keys: signed
 * integers flip the sign bit; floats follow IEEE totalOrder (negative values
 * have all bits inverted, non-negative ones the sign bit set). */
static uint64_t to_key(ak_dtype t, uint64_t bits, uint64_t sign)
{
    if (ak_dtype_is_float(t))
        return (bits & sign) ? ~bits & (sign | (sign - 1)) : bits | sign;
    return ak_dtype_is_signed(t) ? bits ^ sign : bits;
}

static uint64_t from_key(ak_dtype t, uint64_t key, uint64_t sign)
{
    if (ak_dtype_is_float(t))
        return (key & sign) ? key ^ sign : ~key & (sign | (sign - 1));
    return ak_dtype_is_signed(t) ? key ^ sign : key;
}

#define AK_MAP_KEYS(T, a, n, fn, type, sign)        \
    for (size_t i_ = 0; i_ < (n); i_++)             \
        (a)[i_] = (T)fn((type), (a)[i_], (sign))

#define AK_REVERSE(T, a, n)                         \
    for (size_t i_ = 0, j_ = (n); i_ + 1 < j_; i_++) { \
        T tmp_ = (a)[i_];                           \
        (a)[i_] = (a)[--j_];                        \
        (a)[j_] = tmp_;                             \
    }

/* sort_elements32 / sort_elements64: elements of 4 / 8 bytes mapped to
 * their keys, sorted as keys, mapped back, reversed for a descending order. */
#define AK_DEFINE_ELEMENT_SORT(BITS)                                              \
    static void sort_elements##BITS(ak_dtype type, uint##BITS##_t *a, size_t n,  \
                                    int descending)                              \
    {                                                                            \
        uint64_t sign = (uint64_t)1 << (BITS - 1);                               \
        AK_MAP_KEYS(uint##BITS##_t, a, n, to_key, type, sign);                   \
        sort_keys##BITS(a, n, BITS - 8);                                         \
        AK_MAP_KEYS(uint##BITS##_t, a, n, from_key, type, sign);                 \
        if (descending)                                                          \
            AK_REVERSE(uint##BITS##_t, a, n);                                    \
    }

AK_DEFINE_ELEMENT_SORT(32)
AK_DEFINE_ELEMENT_SORT(64)

void ak_sort_elements(ak_dtype type, void *data, size_t n, int descending)
{
    size_t size = ak_dtype_size(type);
    if (size == 1) {
        sort_keys8(data, n, 0);
        if (descending)
            AK_REVERSE(uint8_t, (uint8_t *)data, n);
    } else if (size == 4) {
        sort_elements32(type, data, n, descending);
    } else if (size == 8) {
        sort_elements64(type, data, n, descending);
    }
}
