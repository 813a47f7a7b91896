/*
 * skt_ieee.c - float elements by their bits and random float data
 * (tests/skt_ieee.h).
 */
#include "skt_ieee.h"

#include <math.h>
#include <string.h>

#include "ref/reference.h"
#include "skt_common.h"

uint64_t skt_ieee_bits(sk_type t, const void *src, size_t i)
{
    if (t == SK_FLOAT32) {
        uint32_t b;
        memcpy(&b, (const char *)src + 4 * i, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, (const char *)src + 8 * i, 8);
    return b;
}

void skt_ieee_put_bits(sk_type t, void *dst, size_t i, uint64_t b)
{
    if (t == SK_FLOAT32) {
        uint32_t w = (uint32_t)b;
        memcpy((char *)dst + 4 * i, &w, 4);
    } else {
        memcpy((char *)dst + 8 * i, &b, 8);
    }
}

void skt_ieee_put_nan(sk_type t, void *dst, size_t i)
{
    int mant_bits = t == SK_FLOAT32 ? 23 : 52;
    uint64_t quiet = 1ull << (mant_bits - 1), payload_mask = quiet - 1;
    uint64_t payload = (skt_rand() & payload_mask) | 2u;  /* nonzero, not 0x..1 only */
    uint64_t exp = (t == SK_FLOAT32 ? 0xFFull : 0x7FFull) << mant_bits;
    uint64_t sign = (skt_rand() & 1) << (mant_bits + (t == SK_FLOAT32 ? 8 : 11));
    skt_ieee_put_bits(t, dst, i, sign | exp | (skt_rand_below(3) ? quiet : 0) | payload);
}

double skt_ieee_signed_zero(void)
{
    return skt_rand_below(2) ? 0.0 : -0.0;
}

double skt_ieee_any_inf(sk_type t)
{
    (void)t;
    return skt_rand_below(2) ? INFINITY : -INFINITY;
}

void skt_ieee_walk(sk_type t, void *dst, size_t n, unsigned nan_per_mille)
{
    double w = 0.0;
    for (size_t i = 0; i < n; i++) {
        w += skt_rand_unit() - 0.5;
        uint64_t r = skt_rand_below(1000);
        if (r < nan_per_mille) skt_ieee_put_nan(t, dst, i);
        else if (r < nan_per_mille + 20) skt_ref_set_real(t, dst, i, skt_ieee_signed_zero());
        else if (r < nan_per_mille + 30) skt_ref_set_real(t, dst, i, skt_ieee_any_inf(t));
        else skt_ref_set_real(t, dst, i, w);
    }
}

