/*
 * ref_segsort.c - the segmented sort's reference: a loop over segments,
 * each sorted by skt_ref_sort_perm.
 */
#include "ref_segsort.h"

#include "ref_sort.h"

void skt_ref_segsort_perm(sk_type t, const void *keys, size_t n, const uint64_t *offsets,
                          size_t count, int descending, unsigned begin, unsigned end,
                          size_t *perm)
{
    const unsigned char *k = keys;
    size_t ks = sk_type_size(t);
    for (size_t s = 0; s < count; s++) {
        size_t lo = (size_t)offsets[s], hi = s + 1 < count ? (size_t)offsets[s + 1] : n;
        skt_ref_sort_perm(t, k + lo * ks, hi - lo, descending, begin, end, perm + lo);
        for (size_t i = lo; i < hi; i++) perm[i] += lo;
    }
}
