/*
 * ref_sort.c - the serial radix sort reference: qsort of (key, index)
 * records with the index as the last tie-break, which makes the result
 * unique and therefore the stable sort.
 */
#include "ref_sort.h"
#include "reference.h"

#include <stdlib.h>
#include <string.h>

static unsigned key_bits(sk_type t) { return 8 * (unsigned)skt_ref_type_size(t); }

static int is_float(sk_type t) { return t == SK_FLOAT16 || t == SK_FLOAT32 || t == SK_FLOAT64; }
static int is_signed_int(sk_type t)
{
    return t == SK_INT8 || t == SK_INT16 || t == SK_INT32 || t == SK_INT64;
}

uint64_t skt_ref_key_raw(sk_type t, const void *keys, size_t i)
{
    return skt_ref_uint_at(keys, key_bits(t) / 8, i);
}

/* The two's-complement value of the key's bits. */
static int64_t as_signed(sk_type t, uint64_t raw)
{
    switch (key_bits(t)) {
    case 8: return (int8_t)(uint8_t)raw;
    case 16: return (int16_t)(uint16_t)raw;
    case 32: return (int32_t)(uint32_t)raw;
    default: {
        int64_t v;
        memcpy(&v, &raw, 8);
        return v;
    }
    }
}

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

int skt_ref_key_cmp(sk_type t, uint64_t a, uint64_t b)
{
    if (is_signed_int(t)) {
        int64_t x = as_signed(t, a), y = as_signed(t, b);
        return x < y ? -1 : x > y;
    }
    if (!is_float(t)) return cmp_u64(a, b);
    unsigned sign_at = key_bits(t) - 1;
    uint64_t mag_mask = ((uint64_t)1 << sign_at) - 1;
    int neg_a = (int)((a >> sign_at) & 1), neg_b = (int)((b >> sign_at) & 1);
    if (neg_a != neg_b) return neg_a ? -1 : 1;
    int c = cmp_u64(a & mag_mask, b & mag_mask);
    return neg_a ? -c : c;
}

uint64_t skt_ref_order_key(sk_type t, uint64_t raw)
{
    unsigned sign_at = key_bits(t) - 1;
    uint64_t sign = (uint64_t)1 << sign_at;
    uint64_t all = key_bits(t) == 64 ? ~(uint64_t)0 : ((uint64_t)1 << key_bits(t)) - 1;
    if (is_signed_int(t)) return raw ^ sign;
    if (!is_float(t)) return raw;
    return (raw & sign) ? (~raw & all) : (raw | sign);
}

typedef struct rec {
    uint64_t raw;
    size_t index;
    sk_type t;
    int descending;
    unsigned begin, end;
} rec;

static int whole_key(const rec *r) { return r->begin == 0 && r->end == key_bits(r->t); }

static uint64_t field(const rec *r)
{
    uint64_t k = skt_ref_order_key(r->t, r->raw) >> r->begin;
    unsigned w = r->end - r->begin;
    return w >= 64 ? k : k & (((uint64_t)1 << w) - 1);
}

static int cmp_rec(const void *pa, const void *pb)
{
    const rec *a = pa, *b = pb;
    int c = whole_key(a) ? skt_ref_key_cmp(a->t, a->raw, b->raw)
                         : cmp_u64(field(a), field(b));
    if (a->descending) c = -c;
    if (c) return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

void skt_ref_sort_perm(sk_type t, const void *keys, size_t n, int descending,
                       unsigned begin, unsigned end, size_t *perm)
{
    rec *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) abort();
    for (size_t i = 0; i < n; i++)
        r[i] = (rec){skt_ref_key_raw(t, keys, i), i, t, descending, begin, end};
    qsort(r, n, sizeof *r, cmp_rec);
    for (size_t i = 0; i < n; i++) perm[i] = r[i].index;
    free(r);
}

void skt_ref_gather(const void *src, size_t size, const size_t *perm, size_t n, void *dst)
{
    const unsigned char *s = src;
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) memcpy(d + i * size, s + perm[i] * size, size);
}

void skt_ref_sort_keys(sk_type t, void *keys, size_t n, int descending)
{
    size_t ks = key_bits(t) / 8;
    size_t *perm = malloc((n ? n : 1) * sizeof *perm);
    unsigned char *tmp = malloc((n ? n : 1) * ks);
    if (!perm || !tmp) abort();
    skt_ref_sort_perm(t, keys, n, descending, 0, key_bits(t), perm);
    skt_ref_gather(keys, ks, perm, n, tmp);
    memcpy(keys, tmp, n * ks);
    free(perm);
    free(tmp);
}

void skt_ref_put_key(sk_type t, void *keys, size_t i, uint64_t raw)
{
    size_t ks = key_bits(t) / 8;
    memcpy((unsigned char *)keys + i * ks, &raw, ks);
}
