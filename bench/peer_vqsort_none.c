/*
 * peer_vqsort_none.c - the vqsort peer where Highway's sort was not found
 * at build time: every vqsort row is "unavailable".
 */
#include "peer_vqsort.h"

#include <stdio.h>

bb_vqsort *bb_vqsort_open(unsigned threads, char *why, size_t cap)
{
    (void)threads;
    snprintf(why, cap, "not built: Highway's hwy/contrib/sort/vqsort.h or libhwy_contrib "
                       "was not found at configure time");
    return NULL;
}

void bb_vqsort_close(bb_vqsort *v)
{
    (void)v;
}

unsigned bb_vqsort_threads(const bb_vqsort *v)
{
    (void)v;
    return 0;
}

const char *bb_vqsort_version(void)
{
    return "Highway vqsort (not built)";
}

int bb_vqsort_supports(bb_prim p)
{
    return p == BB_SORT_KEYS || p == BB_SORT_PAIRS || bb_is_keys64(p);
}

int bb_vqsort_impl(bb_vqsort *v, const bb_case *c, bb_impl *im, char *why, size_t cap)
{
    (void)v;
    (void)c;
    (void)im;
    snprintf(why, cap, "Highway vqsort was not built");
    return -1;
}
