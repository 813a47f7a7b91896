/*
 * ref_merge.h - a plain serial reference for the merge tests.
 *
 * The stable merge of two sequences sorted in one order (ref_sort.h's:
 * integers by value, floats in IEEE totalOrder; descending its reverse),
 * one element at a time: the next element of b goes first only when its
 * key is strictly before the next element of a.
 */
#ifndef SKT_REF_MERGE_H
#define SKT_REF_MERGE_H

#include <stddef.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* origin[k] for k < na + nb: where the k-th merged element comes from, as
 * a position in a followed by b (i < na: a[i]; na + j: b[j]). */
void skt_ref_merge_origin(sk_type t, const void *a, size_t na, const void *b, size_t nb,
                          int descending, size_t *origin);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_MERGE_H */
