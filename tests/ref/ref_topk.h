/*
 * ref_topk.h - a plain serial reference for the top-k tests.
 *
 * By the definition: a stable sort of (key, input index) in ref_sort.h's
 * order (integers by value, floats in IEEE totalOrder compared on values,
 * descending its reverse), then its first k; in input order, those k
 * input indices in increasing order.
 */
#ifndef SKT_REF_TOPK_H
#define SKT_REF_TOPK_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* idx[0 .. k): the input indices of the k first keys of keys[0 .. n) (k
 * <= n) in the stable order, in that order (sorted 1) or in increasing
 * index order (sorted 0). */
void skt_ref_topk(sk_type t, const void *keys, size_t n, size_t k, int descending, int sorted,
                  uint64_t *idx);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_TOPK_H */
