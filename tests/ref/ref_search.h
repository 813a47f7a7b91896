/*
 * ref_search.h - a plain serial reference for the sorted search tests.
 *
 * lower_bound and upper_bound by the definition, one needle at a time, in
 * ref_sort.h's order (integers by value, floats in IEEE totalOrder,
 * compared on values, not through the library's bit transform;
 * descending its reverse): a binary search of a sorted haystack for the
 * first position whose key is not before the needle (lower) or after it
 * (upper).
 */
#ifndef SKT_REF_SEARCH_H
#define SKT_REF_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* indices[i] for i < nn: the bound of needles[i] in hay[0 .. nh), which
 * is sorted (ascending, or descending); upper 0: the first p with hay[p]
 * not before the needle, upper 1: the first p with hay[p] after it; nh
 * where there is none. */
void skt_ref_search(sk_type t, const void *hay, size_t nh, const void *needles, size_t nn,
                    int descending, int upper, uint64_t *indices);

/* The same bound by counting: how many of hay[0 .. nh) go before the
 * needle (lower) or not after it (upper), which for a sorted haystack is
 * the bound. O(nh) a needle: for small cases. */
uint64_t skt_ref_search_count(sk_type t, const void *hay, size_t nh, uint64_t needle_raw,
                              int descending, int upper);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_SEARCH_H */
