/*
 * peer_vqsort.h - Highway's vqsort (hwy/contrib/sort) as a CPU peer of
 * scankit's sorts in bench_all: on one thread, and on every core (each
 * thread sorts a slice, then the sorted slices are merged in rounds of
 * pairwise merges, each merge split between the threads). Built from
 * bench/peer_vqsort.cpp only where Highway's headers and libhwy_contrib are
 * found; otherwise every row says unavailable.
 */
#ifndef SK_BENCH_PEER_VQSORT_H
#define SK_BENCH_PEER_VQSORT_H

#include "bench_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_vqsort bb_vqsort;

/* @return a peer that sorts on `threads` threads (0: one per core), or
 * NULL with the reason in why. */
bb_vqsort *bb_vqsort_open(unsigned threads, char *why, size_t cap);
void bb_vqsort_close(bb_vqsort *v);

/* The threads the peer sorts on (after 0 became the core count). */
unsigned bb_vqsort_threads(const bb_vqsort *v);

/* "Highway 1.0.3 vqsort" or similar. */
const char *bb_vqsort_version(void);

/* 1 when the peer sorts p's data: sort_keys (uint32 keys) and sort_pairs
 * (uint32 keys and values, packed key << 32 | value in a uint64 word and
 * sorted as such: the values are the input indices, so that order is the
 * stable one); sort_keys64 (uint64 keys) and sort_pairs64 (uint64 keys and
 * uint32 values, packed likewise in 128-bit words). */
int bb_vqsort_supports(bb_prim p);

/* Fills *im to run c on the host: a run copies (or packs) c's inputs, sorts
 * and (for pairs) unpacks into the peer's own arrays; its time is the wall
 * time of all of that. @return 0 or -1 (why). */
int bb_vqsort_impl(bb_vqsort *v, const bb_case *c, bb_impl *im, char *why, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SK_BENCH_PEER_VQSORT_H */
