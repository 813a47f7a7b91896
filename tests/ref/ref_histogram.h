/*
 * ref_histogram.h - a plain serial reference for the histogram tests.
 *
 * Each element in turn: its bin by the rule scankit.h states (equal bins:
 * integers by 128-bit integer arithmetic, floats rounded to the element
 * type at each step; edges: the last edge at or below it, found by a
 * binary search), then that bin's count incremented.
 */
#ifndef SKT_REF_HISTOGRAM_H
#define SKT_REF_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* counts[0 .. bins) of src[0 .. n) over bins of equal width in [lo, hi)
 * (lo and hi valid for t, as sk_histogram_even() takes them). */
void skt_ref_histogram_even(sk_type t, const void *src, size_t n, double lo, double hi,
                            size_t bins, uint64_t *counts);

/* counts[0 .. bins) of src[0 .. n) between edges[0 .. bins] (sorted). */
void skt_ref_histogram_edges(sk_type t, const void *src, size_t n, const void *edges,
                             size_t bins, uint64_t *counts);

/* dst[i] = v converted to t (v within t's range), for building inputs and
 * edges from doubles. */
void skt_ref_put_double(sk_type t, void *dst, size_t i, double v);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_HISTOGRAM_H */
