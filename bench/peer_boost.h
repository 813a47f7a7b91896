/*
 * peer_boost.h - Boost.Compute as a peer of scankit in bench_all, on the
 * same OpenCL context, queue and device buffers (bench/peer_boost.cpp,
 * built only where Boost.Compute's headers are found).
 */
#ifndef SK_BENCH_PEER_BOOST_H
#define SK_BENCH_PEER_BOOST_H

#include "bench_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device buffers of one size, owned by bench_all. Inputs are uploaded
 * before a case runs; the rest are outputs and work buffers. */
typedef struct bb_devbufs {
    size_t cap;          /* elements every buffer holds                        */
    cl_mem keys;         /* the case's keys (read only)                        */
    cl_mem values;       /* 0, 1, ..., n-1 (read only)                          */
    cl_mem keys_b;       /* keys[na, n): a merge's second input (read only)    */
    cl_mem values_b;     /* values[na, n) (read only)                          */
    cl_mem flags;        /* uint8 head flags                                   */
    cl_mem offsets;      /* uint32, nseg + 1                                   */
    cl_mem seg_ids;      /* uint32 segment index of each element               */
    cl_mem coeffs;       /* float64                                            */
    cl_mem out, out2;    /* outputs, n uint32 each                             */
    cl_mem work_k, work_v; /* in-place work (sorts, partitions)                 */
    cl_mem keys64;       /* the 64-bit sorts' uint64 keys (read only)          */
    cl_mem work_k64;     /* their in-place work                                */
} bb_devbufs;

typedef struct bb_boost bb_boost;

/* @return a peer on ctx/queue, or NULL with the reason in why. */
bb_boost *bb_boost_open(cl_context ctx, cl_command_queue queue, char *why, size_t cap);
void bb_boost_close(bb_boost *b);

/* "Boost.Compute 1.74" or similar. */
const char *bb_boost_version(void);

/* 1 when Boost.Compute has an algorithm for p. */
int bb_boost_supports(bb_prim p);

/* Fills *im to run c on the buffers in d (which hold c's inputs), reading
 * results back into host memory of the peer. @return 0 or -1 (why). */
int bb_boost_impl(bb_boost *b, const bb_devbufs *d, const bb_case *c, bb_impl *im,
                  char *why, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SK_BENCH_PEER_BOOST_H */
