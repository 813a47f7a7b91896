/*
 * ref_sortby.h - a plain serial reference for the comparator sort and the
 * sort by fields: a stable sort of element indices by a C comparator.
 */
#ifndef SKT_REF_SORTBY_H
#define SKT_REF_SORTBY_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether element a goes strictly before element b. */
typedef bool (*skt_ref_less_fn)(const void *a, const void *b);

/* perm[0 .. n) = the input positions of the n elements (of `size` bytes)
 * of `elems` in stably sorted order by `less`: a top-down merge sort of
 * positions that takes the left run's element unless the right run's is
 * strictly before it, so equal elements keep their input order. */
void skt_ref_stable_sort_perm(const void *elems, size_t n, size_t size, skt_ref_less_fn less,
                              size_t *perm);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_SORTBY_H */
