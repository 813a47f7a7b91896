/*
 * sk_rng.h - the one seeded PRNG of the tree: the programs in apps/, the
 * benchmarks in bench/ and the tests in tests/ all draw from it, so that a
 * seed means the same data everywhere.
 *
 *   splitmix64    a 64-bit state advanced by the golden-ratio increment and
 *                 finalized (S. Vigna); also the seeding of xoshiro.
 *   xoshiro256**  1.0 (D. Blackman, S. Vigna, "Scrambled linear
 *                 pseudorandom number generators", ACM TOMS 2021), its
 *                 256-bit state filled by splitmix64 from a 64-bit seed.
 *
 * Same seed, same sequence on every platform.
 */
#ifndef SK_RNG_H
#define SK_RNG_H

#include <stdint.h>

/*! sk_splitmix64_next() : advances *state and returns its next output. */
uint64_t sk_splitmix64_next(uint64_t *state);

/*! sk_splitmix64_mix() : the splitmix64 finalizer alone, a 64-bit hash
 *  (sk_splitmix64_next() is it applied to the advanced state). */
uint64_t sk_splitmix64_mix(uint64_t z);

/*! sk_rng : a xoshiro256** state. */
typedef struct sk_rng {
    uint64_t s[4];
} sk_rng;

/*! sk_rng_seed() : the state from four splitmix64 outputs of `seed`. */
void sk_rng_seed(sk_rng *r, uint64_t seed);

/*! sk_rng_next() : the next 64-bit output. */
uint64_t sk_rng_next(sk_rng *r);

/*! sk_rng_below() : uniform in [0, bound) without modulo bias: the high bits
 *  for a power of two, else rejection of the lowest 2^64 mod bound values.
 *  bound 0 means 2^64 (the raw output). */
uint64_t sk_rng_below(sk_rng *r, uint64_t bound);

/*! sk_log2_if_power_of_two() : k for v == 2^k, else -1 (0 included); for
 *  callers that draw below a fixed bound often and shift by 64 - k as
 *  sk_rng_below() does. */
int sk_log2_if_power_of_two(uint64_t v);

/*! sk_rng_unit() : uniform in [0, 1), the top 53 bits of one output. */
double sk_rng_unit(sk_rng *r);

#endif /* SK_RNG_H */
