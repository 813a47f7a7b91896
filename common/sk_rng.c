/*
 * sk_rng.c - splitmix64 and xoshiro256** (see sk_rng.h).
 */
#include "sk_rng.h"

static uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sk_splitmix64_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t sk_splitmix64_next(uint64_t *state)
{
    return sk_splitmix64_mix(*state += 0x9e3779b97f4a7c15u);
}

void sk_rng_seed(sk_rng *r, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = sk_splitmix64_next(&state);
}

uint64_t sk_rng_next(sk_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl64(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

int sk_log2_if_power_of_two(uint64_t v)
{
    if (v == 0 || (v & (v - 1)) != 0)
        return -1;
    int k = 0;
    while (v >>= 1)
        k++;
    return k;
}

uint64_t sk_rng_below(sk_rng *r, uint64_t bound)
{
    if (bound == 0)
        return sk_rng_next(r);
    int k = sk_log2_if_power_of_two(bound);
    if (k == 0)
        return 0;
    if (k > 0)
        return sk_rng_next(r) >> (64 - k); /* the high bits */
    uint64_t threshold = (0 - bound) % bound; /* 2^64 mod bound */
    for (;;) {
        uint64_t x = sk_rng_next(r);
        if (x >= threshold)
            return x % bound;
    }
}

double sk_rng_unit(sk_rng *r)
{
    return (double)(sk_rng_next(r) >> 11) * 0x1.0p-53;
}
