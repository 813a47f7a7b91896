/*
 * ref_segscan.c - serial references for segmented scans and segment totals.
 * See ref_segscan.h.
 */
#include "ref_segscan.h"
#include "reference.h"

#include <string.h>

void skt_ref_heads_from_flags(const void *flags, size_t flag_size, size_t n,
                              unsigned char *heads)
{
    for (size_t i = 0; i < n; i++)
        heads[i] = (unsigned char)(i == 0 || skt_ref_uint_at(flags, flag_size, i) != 0);
}

uint64_t skt_ref_offset_at(const void *offsets, sk_type offset_type, size_t k)
{
    return skt_ref_uint_at(offsets, skt_ref_type_size(offset_type), k);
}

void skt_ref_heads_from_offsets(const void *offsets, sk_type offset_type, size_t count,
                                size_t n, unsigned char *heads)
{
    memset(heads, 0, n);
    if (n) heads[0] = 1;
    for (size_t k = 0; k < count; k++) {
        uint64_t o = skt_ref_offset_at(offsets, offset_type, k);
        if (o < n) heads[o] = 1;
    }
}

void skt_ref_segscan_generic(size_t elem, skt_ref_combine_fn combine, const void *identity,
                             int exclusive, const void *src, void *dst,
                             const unsigned char *heads, size_t n)
{
    const unsigned char *s = src;
    unsigned char *d = dst;
    unsigned char acc[64], x[64];
    for (size_t i = 0; i < n; i++) {
        memcpy(x, s + i * elem, elem); /* before dst[i] is written (in place) */
        if (heads ? heads[i] : i == 0) memcpy(acc, identity, elem);
        if (exclusive) {
            memcpy(d + i * elem, acc, elem);
            combine(acc, x, acc);
        } else {
            combine(acc, x, acc);
            memcpy(d + i * elem, acc, elem);
        }
    }
}

size_t skt_ref_segreduce_heads_generic(size_t elem, skt_ref_combine_fn combine,
                                       const void *identity, const void *src,
                                       const unsigned char *heads, size_t n, void *totals)
{
    const unsigned char *s = src;
    unsigned char *t = totals;
    unsigned char acc[64];
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (heads[i]) {
            if (count) memcpy(t + (count - 1) * elem, acc, elem);
            memcpy(acc, identity, elem);
            count++;
        }
        combine(acc, s + i * elem, acc);
    }
    if (count) memcpy(t + (count - 1) * elem, acc, elem);
    return count;
}

void skt_ref_segreduce_offsets_generic(size_t elem, skt_ref_combine_fn combine,
                                       const void *identity, const void *src, size_t n,
                                       const void *offsets, sk_type offset_type,
                                       size_t count, void *totals)
{
    const unsigned char *s = src;
    unsigned char *t = totals;
    unsigned char acc[64];
    for (size_t k = 0; k < count; k++) {
        uint64_t lo = skt_ref_offset_at(offsets, offset_type, k);
        uint64_t hi = k + 1 < count ? skt_ref_offset_at(offsets, offset_type, k + 1) : n;
        memcpy(acc, identity, elem);
        for (uint64_t i = lo; i < hi; i++) combine(acc, s + i * elem, acc);
        memcpy(t + k * elem, acc, elem);
    }
}

/* ---- built-in types: the generic forms with skt_ref_combine ------------------ */

static sk_type cur_type;
static sk_op cur_op;

static void builtin_combine(const void *a, const void *b, void *out)
{
    skt_ref_combine(cur_type, cur_op, a, b, out);
}

void skt_ref_segscan(sk_type t, sk_op op, int exclusive, const void *src, void *dst,
                     const unsigned char *heads, size_t n)
{
    unsigned char id[8];
    cur_type = t;
    cur_op = op;
    skt_ref_identity(t, op, id);
    skt_ref_segscan_generic(skt_ref_type_size(t), builtin_combine, id, exclusive, src, dst,
                            heads, n);
}

size_t skt_ref_segreduce_heads(sk_type t, sk_op op, const void *src,
                               const unsigned char *heads, size_t n, void *totals)
{
    unsigned char id[8];
    cur_type = t;
    cur_op = op;
    skt_ref_identity(t, op, id);
    return skt_ref_segreduce_heads_generic(skt_ref_type_size(t), builtin_combine, id, src,
                                           heads, n, totals);
}

void skt_ref_segreduce_offsets(sk_type t, sk_op op, const void *src, size_t n,
                               const void *offsets, sk_type offset_type, size_t count,
                               void *totals)
{
    unsigned char id[8];
    cur_type = t;
    cur_op = op;
    skt_ref_identity(t, op, id);
    skt_ref_segreduce_offsets_generic(skt_ref_type_size(t), builtin_combine, id, src, n,
                                      offsets, offset_type, count, totals);
}
