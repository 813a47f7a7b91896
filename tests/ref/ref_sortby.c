/*
 * ref_sortby.c - the stable sort of element positions by a C comparator
 * (ref_sortby.h).
 */
#include "ref_sortby.h"

#include <stdlib.h>

typedef struct by_less {
    const unsigned char *elems;
    size_t size;
    skt_ref_less_fn less;
} by_less;

static const void *at(const by_less *b, size_t i) { return b->elems + i * b->size; }

/* Sorts p[0 .. n) through tmp[0 .. n). */
static void merge_sort(const by_less *b, size_t *p, size_t *tmp, size_t n)
{
    if (n < 2) return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    merge_sort(b, p, tmp, h);
    merge_sort(b, p + h, tmp, n - h);
    while (i < h && j < n) {
        if (b->less(at(b, p[j]), at(b, p[i])))
            tmp[k++] = p[j++];
        else
            tmp[k++] = p[i++];
    }
    while (i < h) tmp[k++] = p[i++];
    while (j < n) tmp[k++] = p[j++];
    for (k = 0; k < n; k++) p[k] = tmp[k];
}

void skt_ref_stable_sort_perm(const void *elems, size_t n, size_t size, skt_ref_less_fn less,
                              size_t *perm)
{
    by_less b = {elems, size, less};
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) abort();
    for (size_t i = 0; i < n; i++) perm[i] = i;
    merge_sort(&b, perm, tmp, n);
    free(tmp);
}
