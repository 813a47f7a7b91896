/*
 * sort_check.c - key order and multiset fingerprints for the checks of
 * radixsort and merge (see sort_check.h).
 */
#include "sort_check.h"
#include "sk_rng.h"

#include <string.h>

static uint64_t load_bits(const ak_array *a, size_t i)
{
    size_t size = ak_dtype_size(a->type);
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)a->data + i * size, size); /* little-endian host */
    return v;
}

sort_key_bits sort_whole_key(ak_dtype t)
{
    sort_key_bits b = {0, 8 * (unsigned)ak_dtype_size(t)};
    return b;
}

/* The unsigned integer whose order is the key order (IEEE totalOrder for
 * floats), restricted to `b`. */
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

sort_call sort_call_of(ak_dtype keys, int descending)
{
    sort_call c = {SK_UINT32, descending ? SK_DESCENDING : SK_ASCENDING};
    ak_dtype_to_sk(keys, &c.type);
    return c;
}

uint64_t sort_key_at(const ak_array *keys, size_t i, sort_key_bits bits)
{
    return order_key(keys->type, load_bits(keys, i), bits);
}

int sort_check_order(const ak_array *keys, int descending, sort_key_bits bits,
                     const char *prefix, ak_err *e)
{
    for (size_t i = 1; i < keys->n; i++) {
        uint64_t x = sort_key_at(keys, i - 1, bits), y = sort_key_at(keys, i, bits);
        if (descending ? x < y : x > y)
            return ak_fail(e, "%skeys %zu and %zu are out of order", prefix, i - 1, i);
    }
    return 0;
}

/* Sums of two independent mixes (splitmix64's finalizer) of each pair: O(n),
 * where sorting both arrays on the host took seconds at 2^24. */
void sort_print_add(sort_print *p, const ak_array *keys, const ak_array *values)
{
    for (size_t i = 0; i < keys->n; i++) {
        uint64_t key = load_bits(keys, i), val = values->data ? load_bits(values, i) : 0;
        uint64_t h = sk_splitmix64_mix(key ^ sk_splitmix64_mix(val + 0x9e3779b97f4a7c15ull));
        p->a += h;
        p->b += sk_splitmix64_mix(h + 0x632be59bd9b4e019ull);
    }
}

int sort_print_equal(sort_print x, sort_print y)
{
    return x.a == y.a && x.b == y.b;
}
