/*
 * ref_segscan.h - plain, serial CPU references for segmented scans and
 * segment reductions.
 *
 * Segments are described once as a head mask (one byte per element, 1 where
 * a segment starts; element 0 always starts one) or, for offsets, as the
 * offsets themselves (empty segments exist only there). Values are combined
 * left to right with the combine of reference.h (built-in types) or a
 * caller's function (custom monoids), restarting at every head.
 */
#ifndef SKT_REF_SEGSCAN_H
#define SKT_REF_SEGSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* heads[i] = i == 0 || flags[i] != 0, flags of flag_size (1 or 4) bytes. */
void skt_ref_heads_from_flags(const void *flags, size_t flag_size, size_t n,
                              unsigned char *heads);

/* heads[i] = 1 where some offset equals i (or i == 0), 0 elsewhere; offsets
 * of offset_type (SK_UINT32 or SK_UINT64), assumed valid. */
void skt_ref_heads_from_offsets(const void *offsets, sk_type offset_type, size_t count,
                                size_t n, unsigned char *heads);

/* Reads offsets[k] of offset_type as a 64-bit value. */
uint64_t skt_ref_offset_at(const void *offsets, sk_type offset_type, size_t k);

/* A custom monoid on the host: *out = *a op *b (out may alias a or b). */
typedef void (*skt_ref_combine_fn)(const void *a, const void *b, void *out);

/* The segmented scan of n elements of `elem` bytes: inclusive dst[i]
 * combines src[h..i], exclusive dst[h] = identity and dst[i] combines
 * src[h..i-1], h the head of i's segment (heads NULL: one segment). src
 * and dst may be the same. */
void skt_ref_segscan_generic(size_t elem, skt_ref_combine_fn combine, const void *identity,
                             int exclusive, const void *src, void *dst,
                             const unsigned char *heads, size_t n);

/* Segment totals by head mask: one per segment, in order. @return their
 * number (the number of heads). */
size_t skt_ref_segreduce_heads_generic(size_t elem, skt_ref_combine_fn combine,
                                       const void *identity, const void *src,
                                       const unsigned char *heads, size_t n, void *totals);

/* Segment totals by offsets: totals[s] combines src[offsets[s] ..
 * offsets[s+1]) (the last up to n); an empty segment gets the identity. */
void skt_ref_segreduce_offsets_generic(size_t elem, skt_ref_combine_fn combine,
                                       const void *identity, const void *src, size_t n,
                                       const void *offsets, sk_type offset_type,
                                       size_t count, void *totals);

/* The same for a built-in (type, op), through skt_ref_combine. */
void skt_ref_segscan(sk_type t, sk_op op, int exclusive, const void *src, void *dst,
                     const unsigned char *heads, size_t n);
size_t skt_ref_segreduce_heads(sk_type t, sk_op op, const void *src,
                               const unsigned char *heads, size_t n, void *totals);
void skt_ref_segreduce_offsets(sk_type t, sk_op op, const void *src, size_t n,
                               const void *offsets, sk_type offset_type, size_t count,
                               void *totals);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_SEGSCAN_H */
