/*
 * ref_sort.h - a plain serial reference for the radix sort tests.
 *
 * The order is defined here directly on values, not through the bit
 * transform the library uses: integers by value; floats in IEEE 754
 * totalOrder (a negative sign before a positive one; among positives the
 * larger magnitude bits are larger, NaNs last; among negatives the reverse).
 * A bit range [begin, end) orders by that field of the "order key": the
 * unsigned integer whose numeric order is the order above (documented in
 * scankit.h for sk_sort_keys_bits).
 */
#ifndef SKT_REF_SORT_H
#define SKT_REF_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Key bits of element i of `keys` (type t), zero-extended. */
uint64_t skt_ref_key_raw(sk_type t, const void *keys, size_t i);

/* The order key of a raw key (see the top of the file). */
uint64_t skt_ref_order_key(sk_type t, uint64_t raw);

/* <0, 0, >0 as a orders before, with, after b in ascending totalOrder. */
int skt_ref_key_cmp(sk_type t, uint64_t raw_a, uint64_t raw_b);

/* perm[0..n) = the input positions of the stably sorted keys: ascending or
 * descending by the whole key (begin == 0 && end == key bits) or by bits
 * [begin, end) of the order key; ties keep input order. */
void skt_ref_sort_perm(sk_type t, const void *keys, size_t n, int descending,
                       unsigned begin, unsigned end, size_t *perm);

/* Gathers n elements of `size` bytes: dst[i] = src[perm[i]]. */
void skt_ref_gather(const void *src, size_t size, const size_t *perm, size_t n, void *dst);

/* Sorts keys[0 .. n) in place, stably, by the whole key (the order of
 * skt_ref_sort_perm). */
void skt_ref_sort_keys(sk_type t, void *keys, size_t n, int descending);

/* Stores the low bytes of raw as element i of `keys` (type t). */
void skt_ref_put_key(sk_type t, void *keys, size_t i, uint64_t raw);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_SORT_H */
