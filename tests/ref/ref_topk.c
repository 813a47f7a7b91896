/*
 * ref_topk.c - the serial top-k: a stable sort of every key, its first k.
 */
#include "ref_topk.h"

#include <stdlib.h>

#include "ref_sort.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void skt_ref_topk(sk_type t, const void *keys, size_t n, size_t k, int descending, int sorted,
                  uint64_t *idx)
{
    size_t *perm = malloc((n ? n : 1) * sizeof *perm);
    if (!perm) abort();
    unsigned bits = 8 * (unsigned)sk_type_size(t);
    skt_ref_sort_perm(t, keys, n, descending, 0, bits, perm);
    for (size_t i = 0; i < k; i++) idx[i] = perm[i];
    if (!sorted) qsort(idx, k, sizeof *idx, cmp_u64);
    free(perm);
}
