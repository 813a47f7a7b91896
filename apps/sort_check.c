/*
 * sort_check.c - key order and multiset fingerprints for the checks of
 * radixsort and merge (see sort_check.h).
 *
 * Both checks run at memory speed: one loop per key width whose order key
 * is a branch-free transform of the bits (so that the compiler vectorises
 * the order test), and arrays of SPLIT_MIN_ELEMENTS or more split over
 * threads, one part each. The order check takes the lowest index that any
 * part reports (each part also checks the pair across its end); the
 * fingerprints are sums, which add up across parts exactly.
 */
#define _POSIX_C_SOURCE 200809L

#include "sort_check.h"

#include <string.h>

/* The most parts an array splits into, and the fewest elements that split
 * (below, the calling thread does it all: a thread costs more than it
 * saves). */
#define SPLIT_MAX_PARTS AK_MAX_PARTS
#define SPLIT_MIN_ELEMENTS ((size_t)1 << 20)

/* The inner loops in versions for wider vectors, the CPU's picked at load
 * time (GCC on x86-64 with glibc's ifunc; x86-64-v4 has AVX-512, v3
 * AVX2): the fingerprint's 64-bit multiplies vectorise with AVX-512 (AVX2
 * emulates them), where the baseline's SSE2 leaves them scalar and
 * compute-bound. Fingerprint of 2^28 uint32 keys on one core of an AMD
 * EPYC: 0.62 s baseline, 0.44 s AVX2, 0.17 s AVX-512; order 0.11 s, 0.05 s
 * with AVX-512. */
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__clang__) && __GNUC__ >= 12
#define VECTOR_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
#ifndef VECTOR_CLONES
#define VECTOR_CLONES
#endif

/* Elements per block of the inner loops: a block is tested as a whole and
 * searched for the first pair only when it holds one. */
#define BLOCK 2048

static unsigned g_parts;                      /* 0: the online CPUs */
static size_t g_min_elements = SPLIT_MIN_ELEMENTS;

void sort_check_split(unsigned parts, size_t min_elements)
{
    g_parts = parts;
    g_min_elements = min_elements ? min_elements : SPLIT_MIN_ELEMENTS;
}

/* ------------------------------------------------------------------------ */
/* Parts on threads                                                          */
/* ------------------------------------------------------------------------ */

/* fn(ctx, k, lo, hi) for each part [lo, hi) of [0, n) (sort_check_split()
 * says how many): ak_run_parts(). @return the number of parts. */
static unsigned run_parts(size_t n, ak_part_fn fn, void *ctx)
{
    unsigned t = 1;
    if (n >= g_min_elements && n >= 2) {
        t = g_parts ? g_parts : ak_cores();
        if (t > SPLIT_MAX_PARTS) t = SPLIT_MAX_PARTS;
        if (n < t) t = (unsigned)n;
    }
    return ak_run_parts(n, t, fn, ctx);
}

/* ------------------------------------------------------------------------ */
/* Order keys                                                                */
/* ------------------------------------------------------------------------ */

sort_key_bits sort_whole_key(ak_dtype t)
{
    sort_key_bits b = {0, 8 * (unsigned)ak_dtype_size(t)};
    return b;
}

sort_call sort_call_of(ak_dtype keys, int descending)
{
    sort_call c = {SK_UINT32, descending ? SK_DESCENDING : SK_ASCENDING};
    ak_dtype_to_sk_key(keys, &c.type);
    return c;
}

/* The order key as a transform of the key's bits x, the same for every
 * width: k = ((x ^ flip ^ (neg & ~sign when float)) >> shift) & mask,
 * then ^ mask for descending order (which makes it an ascending one).
 * flip is the sign bit for signed integers and floats (negative integers
 * first; positive floats above negative ones), the float term turns the
 * bits of a negative float around (IEEE totalOrder). */
typedef struct order_map {
    uint64_t flip, float_mask, mask, invert;
    unsigned shift;
} order_map;

static order_map order_map_of(ak_dtype t, sort_key_bits b, int descending)
{
    unsigned bits = 8 * (unsigned)ak_dtype_size(t), w = b.end - b.begin;
    order_map m = {0, 0, w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1, 0, b.begin};
    if (ak_dtype_is_float(t) || ak_dtype_is_signed(t)) m.flip = (uint64_t)1 << (bits - 1);
    if (ak_dtype_is_float(t)) m.float_mask = ~(uint64_t)0;
    if (descending) m.invert = m.mask;
    return m;
}

/* The order key of x, of type T of W bits (after the usual promotions of
 * narrow types, T casts keep every step in W bits). */
#define ORDER_KEY(T, W, x, fl, flip, sh, mask, inv)                                     \
    ((T)(((T)((T)((x) ^ (flip) ^ ((fl) & (T)((T)(0u - (T)((x) >> ((W) - 1))) >> 1))) >>  \
              (sh)) &                                                                   \
          (mask)) ^                                                                     \
         (inv)))

/* The first i in (from, to) with keys i - 1 and i out of order (by the map),
 * else `to`. The block's test has no branch and no early exit, so that the
 * compiler vectorises it; only a block that fails is searched. */
#define DEFINE_FIRST_DISORDER(NAME, T, W)                                               \
    VECTOR_CLONES static size_t NAME(const void *data, size_t from, size_t to,          \
                                     const order_map *m)                                \
    {                                                                                   \
        const T *p = data;                                                              \
        const T fl = (T)m->float_mask, flip = (T)m->flip, mask = (T)m->mask;            \
        const T inv = (T)m->invert;                                                     \
        const unsigned sh = m->shift;                                                   \
        for (size_t i = from + 1; i < to;) {                                            \
            size_t end = to - i > BLOCK ? i + BLOCK : to;                               \
            unsigned bad = 0;                                                           \
            for (size_t k = i; k < end; k++)                                            \
                bad |= ORDER_KEY(T, W, p[k - 1], fl, flip, sh, mask, inv) >             \
                       ORDER_KEY(T, W, p[k], fl, flip, sh, mask, inv);                  \
            if (bad)                                                                    \
                for (size_t k = i; k < end; k++)                                        \
                    if (ORDER_KEY(T, W, p[k - 1], fl, flip, sh, mask, inv) >            \
                        ORDER_KEY(T, W, p[k], fl, flip, sh, mask, inv))                 \
                        return k;                                                       \
            i = end;                                                                    \
        }                                                                               \
        return to;                                                                      \
    }

DEFINE_FIRST_DISORDER(first_disorder_8, uint8_t, 8)
DEFINE_FIRST_DISORDER(first_disorder_16, uint16_t, 16)
DEFINE_FIRST_DISORDER(first_disorder_32, uint32_t, 32)
DEFINE_FIRST_DISORDER(first_disorder_64, uint64_t, 64)

typedef size_t (*first_disorder_fn)(const void *, size_t, size_t, const order_map *);

static first_disorder_fn first_disorder_for(size_t size)
{
    switch (size) {
    case 1: return first_disorder_8;
    case 2: return first_disorder_16;
    case 8: return first_disorder_64;
    default: return first_disorder_32;
    }
}

static uint64_t load_bits(const ak_array *a, size_t i)
{
    size_t size = ak_dtype_size(a->type);
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)a->data + i * size, size); /* little-endian host */
    return v;
}

/* The order key of raw bits, one at a time (order_map's transform). */
static uint64_t order_key(ak_dtype t, uint64_t raw, sort_key_bits b)
{
    unsigned bits = 8 * (unsigned)ak_dtype_size(t);
    uint64_t sign = (uint64_t)1 << (bits - 1);
    uint64_t all = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    uint64_t k = raw;
    if (ak_dtype_is_float(t)) k = (raw & sign) ? (~raw & all) : (raw | sign);
    else if (ak_dtype_is_signed(t)) k = raw ^ sign;
    k >>= b.begin;
    unsigned w = b.end - b.begin;
    return w >= 64 ? k : k & (((uint64_t)1 << w) - 1);
}

uint64_t sort_key_at(const ak_array *keys, size_t i, sort_key_bits bits)
{
    return order_key(keys->type, load_bits(keys, i), bits);
}

/* ------------------------------------------------------------------------ */
/* The order check                                                           */
/* ------------------------------------------------------------------------ */

typedef struct order_job {
    const void *data;
    size_t n;
    first_disorder_fn first;
    order_map map;
    size_t found[SPLIT_MAX_PARTS]; /* each part's first, else n */
} order_job;

/* The pairs whose first key is in [lo, hi): the last one crosses into the
 * next part. */
static void order_part(void *ctx, unsigned part, size_t lo, size_t hi)
{
    order_job *j = ctx;
    size_t to = hi < j->n ? hi + 1 : j->n;
    size_t i = j->first(j->data, lo, to, &j->map);
    j->found[part] = i < to ? i : j->n;
}

/* The first i in (0, n) with keys i - 1 and i out of order, else n. */
static size_t first_disorder(const ak_array *keys, int descending, sort_key_bits bits)
{
    if (keys->n < 2)
        return keys->n;
    order_job j = {keys->data, keys->n, first_disorder_for(ak_dtype_size(keys->type)),
                   order_map_of(keys->type, bits, descending), {0}};
    unsigned parts = run_parts(keys->n, order_part, &j);
    size_t first = keys->n;
    for (unsigned k = 0; k < parts; k++)
        if (j.found[k] < first) first = j.found[k];
    return first;
}

sort_order_check sort_check_order_start(int descending, sort_key_bits bits, const char *prefix)
{
    sort_order_check c = {descending, bits, prefix, 0, 0};
    return c;
}

int sort_check_order_next(sort_order_check *c, const ak_array *chunk, ak_err *e)
{
    if (chunk->n == 0)
        return 0;
    uint64_t head = sort_key_at(chunk, 0, c->bits);
    if (c->seen > 0 && (c->descending ? c->last < head : c->last > head))
        return ak_fail(e, "%skeys %zu and %zu are out of order", c->prefix, c->seen - 1, c->seen);
    size_t i = first_disorder(chunk, c->descending, c->bits);
    if (i < chunk->n)
        return ak_fail(e, "%skeys %zu and %zu are out of order", c->prefix, c->seen + i - 1,
                       c->seen + i);
    c->last = sort_key_at(chunk, chunk->n - 1, c->bits);
    c->seen += chunk->n;
    return 0;
}

int sort_check_order(const ak_array *keys, int descending, sort_key_bits bits,
                     const char *prefix, ak_err *e)
{
    sort_order_check c = sort_check_order_start(descending, bits, prefix);
    return sort_check_order_next(&c, keys, e);
}

int sort_check_input(const char *path, const ak_array *keys, int descending, ak_err *e)
{
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s: not sorted in %s order: ", ak_display_name(path, 0),
             descending ? "descending" : "ascending");
    return sort_check_order(keys, descending, sort_whole_key(keys->type), prefix, e);
}

/* ------------------------------------------------------------------------ */
/* Fingerprints                                                              */
/* ------------------------------------------------------------------------ */

/* sk_splitmix64_mix() (common/sk_rng.c), here where the loops can inline it. */
static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* out[0, m): the bits of elements [at, at + m) of a, zero-extended. */
static void widen(const ak_array *a, size_t at, size_t m, uint64_t *out)
{
    size_t size = ak_dtype_size(a->type);
    const unsigned char *p = (const unsigned char *)a->data + at * size;
    switch (size) {
    case 1: for (size_t i = 0; i < m; i++) out[i] = p[i]; break;
    case 2: {
        const uint16_t *q = (const uint16_t *)(const void *)p;
        for (size_t i = 0; i < m; i++) out[i] = q[i];
        break;
    }
    case 4: {
        const uint32_t *q = (const uint32_t *)(const void *)p;
        for (size_t i = 0; i < m; i++) out[i] = q[i];
        break;
    }
    case 8: memcpy(out, p, m * 8); break;
    default:
        for (size_t i = 0; i < m; i++) out[i] = load_bits(a, at + i);
    }
}

/* *a and *b plus the mixes of the pairs (k[i], v[i]) (v NULL: no values). */
VECTOR_CLONES
static void mix_sums(const uint64_t *k, const uint64_t *v, size_t m, uint64_t *a, uint64_t *b)
{
    uint64_t sa = *a, sb = *b;
    const uint64_t no_value = mix64(0x9e3779b97f4a7c15ull);
    if (v) {
        for (size_t i = 0; i < m; i++) {
            uint64_t h = mix64(k[i] ^ mix64(v[i] + 0x9e3779b97f4a7c15ull));
            sa += h;
            sb += mix64(h + 0x632be59bd9b4e019ull);
        }
    } else {
        for (size_t i = 0; i < m; i++) {
            uint64_t h = mix64(k[i] ^ no_value);
            sa += h;
            sb += mix64(h + 0x632be59bd9b4e019ull);
        }
    }
    *a = sa, *b = sb;
}

typedef struct print_job {
    const ak_array *keys, *values;
    sort_print sums[SPLIT_MAX_PARTS];
} print_job;

/* Sums of two independent mixes (splitmix64's finalizer) of each pair: O(n),
 * where sorting both arrays on the host took seconds at 2^24. */
static void print_part(void *ctx, unsigned part, size_t lo, size_t hi)
{
    print_job *j = ctx;
    uint64_t k[BLOCK], v[BLOCK], a = 0, b = 0;
    for (size_t at = lo; at < hi;) {
        size_t m = hi - at < BLOCK ? hi - at : BLOCK;
        widen(j->keys, at, m, k);
        if (j->values->data) widen(j->values, at, m, v);
        mix_sums(k, j->values->data ? v : NULL, m, &a, &b);
        at += m;
    }
    j->sums[part] = (sort_print){a, b};
}

void sort_print_add(sort_print *p, const ak_array *keys, const ak_array *values)
{
    print_job j = {keys, values, {{0, 0}}};
    unsigned parts = run_parts(keys->n, print_part, &j);
    for (unsigned k = 0; k < parts; k++) {
        p->a += j.sums[k].a;
        p->b += j.sums[k].b;
    }
}

int sort_print_equal(sort_print x, sort_print y)
{
    return x.a == y.a && x.b == y.b;
}
