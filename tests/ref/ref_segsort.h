/*
 * ref_segsort.h - a plain serial reference for the segmented sort tests:
 * each segment sorted on its own by the radix sort's reference
 * (ref_sort.h: values in totalOrder, stable).
 */
#ifndef SKT_REF_SEGSORT_H
#define SKT_REF_SEGSORT_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

/* perm[0..n) = the input positions of the keys after sorting each segment
 * [offsets[s], offsets[s + 1]) (the last one ending at n) stably, as
 * skt_ref_sort_perm sorts. */
void skt_ref_segsort_perm(sk_type t, const void *keys, size_t n, const uint64_t *offsets,
                          size_t count, int descending, unsigned begin, unsigned end,
                          size_t *perm);

#endif /* SKT_REF_SEGSORT_H */
