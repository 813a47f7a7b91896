/*
 * bykey.cl - the head flags of runs of equal keys, for run-length encoding
 * and the by-key reductions (primitives/bykey.c): flags[i] = 1 where
 * i == 0 or key i differs from key i - 1, else 0. The host defines SK_KB,
 * the keys' same-width unsigned type (uint or ulong): keys are compared as
 * bit patterns, so float keys are equal exactly when their bits are (-0.0
 * and +0.0 differ; a NaN equals a NaN of the same bits).
 *
 * This is a map, not a scan: the comparison makes a flag, and the flags
 * then steer the segmented scan's selects and the compaction, as the
 * caller's own flags would.
 *   sk_bykey_heads         GPU shape: one element per work-item
 *   sk_bykey_heads_chunks  CPU shape: a contiguous chunk per work-item
 */
#ifndef SK_KB
#error "bykey.cl: SK_KB must be set by the host"
#endif

/* The flag of element i (i < n). */
static inline uchar sk_bykey_head(__global const SK_KB *keys, ulong i)
{
    return (uchar)(i == 0 || keys[i] != keys[i - 1]);
}

__kernel void sk_bykey_heads(__global const SK_KB *keys, __global uchar *flags, ulong n)
{
    ulong i = get_global_id(0);
    if (i < n) flags[i] = sk_bykey_head(keys, i);
}

__kernel void sk_bykey_heads_chunks(__global const SK_KB *keys, __global uchar *flags,
                                    ulong n, ulong chunk)
{
    ulong begin = get_global_id(0) * chunk;
    ulong end = min(n, begin + chunk);
    for (ulong i = begin; i < end; i++) flags[i] = sk_bykey_head(keys, i);
}
