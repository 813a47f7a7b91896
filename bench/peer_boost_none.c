/*
 * peer_boost_none.c - the Boost.Compute peer where Boost.Compute's headers
 * were not found at build time: every Boost row is "unavailable".
 */
#include "peer_boost.h"

#include <stdio.h>

bb_boost *bb_boost_open(cl_context ctx, cl_command_queue queue, char *why, size_t cap)
{
    (void)ctx;
    (void)queue;
    snprintf(why, cap, "not built: Boost.Compute headers were not found at configure time");
    return NULL;
}

void bb_boost_close(bb_boost *b)
{
    (void)b;
}

const char *bb_boost_version(void)
{
    return "Boost.Compute (not built)";
}

int bb_boost_supports(bb_prim p)
{
    return p != BB_SEGSCAN && p != BB_MERGE_PAIRS && p != BB_POLY && p != BB_LOWER_BOUND &&
           p != BB_LOWER_BOUND_SORTED && p != BB_RLE && !bb_is_segsort(p) && p != BB_TOPK &&
           p != BB_HISTOGRAM && p != BB_PARTITION_REVERSED && (unsigned)p < BB_PRIM_COUNT;
}

int bb_boost_impl(bb_boost *b, const bb_devbufs *d, const bb_case *c, bb_impl *im, char *why,
                  size_t cap)
{
    (void)b;
    (void)d;
    (void)c;
    (void)im;
    snprintf(why, cap, "Boost.Compute was not built");
    return -1;
}
