/*
 * ref_compact.h - plain, serial CPU references for stream compaction.
 *
 * A keep mask (one byte per element, 0 or 1) is computed from the data by
 * an obviously-correct loop, then the outputs are built from the mask:
 *   select     the kept elements in input order;
 *   partition  the kept elements, then the rejected ones, both in order;
 *   partition reversed  the kept elements in order, then the rejected ones
 *              from the last to the first;
 *   unique     keep i when i == 0 or src[i] != src[i - 1] with the type's
 *              C `==` (for floats +0.0 == -0.0, and NaN equals nothing).
 * Elements are handled as opaque bytes except where a predicate looks at
 * them.
 */
#ifndef SKT_REF_COMPACT_H
#define SKT_REF_COMPACT_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Predicates the tests use, each with an OpenCL C text and a C twin. */
typedef enum skt_pred {
    SKT_PRED_HALF,  /* integers: (x & 1) != 0;  floats: x < 0.5 */
    SKT_PRED_MOD3,  /* integers only: x % 3 == 0 (C and OpenCL truncate alike) */
    SKT_PRED_ISNAN  /* floats only: isnan(x) */
} skt_pred;

/* The OpenCL C expression of p for type t (NULL where p does not apply). */
const char *skt_ref_pred_text(sk_type t, skt_pred p);

/* keep[i] = p(src[i]) for n elements of type t. */
void skt_ref_pred_mask(sk_type t, skt_pred p, const void *src, size_t n,
                       unsigned char *keep);

/* keep[i] = flags[i] != 0, flags of flag_size (1 or 4) bytes. */
void skt_ref_flag_mask(const void *flags, size_t flag_size, size_t n, unsigned char *keep);

/* keep[i] = i == 0 || !(src[i] == src[i - 1]) in type t. */
void skt_ref_unique_mask(sk_type t, const void *src, size_t n, unsigned char *keep);

/* dst[i] = i, for n little-endian values of value_size (4 or 8) bytes: the
 * values the pair tests carry, so that their order shows where each went. */
void skt_ref_indices(size_t n, size_t value_size, void *dst);

/* dst gets the kept elements (elem bytes each) in order. @return their number. */
size_t skt_ref_select(const void *src, const unsigned char *keep, size_t n, size_t elem,
                      void *dst);

/* dst gets the kept elements then the rejected ones (n in all), both in
 * order. @return the number kept. */
size_t skt_ref_partition(const void *src, const unsigned char *keep, size_t n, size_t elem,
                         void *dst);

/* dst gets the kept elements in order, then the rejected ones from the
 * last to the first (n in all). @return the number kept. */
size_t skt_ref_partition_reversed(const void *src, const unsigned char *keep, size_t n,
                                  size_t elem, void *dst);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_COMPACT_H */
