/*
 * segscan.cl - the small kernels around the segmented scan. The scan
 * itself is scan.cl over the lifted (value, head flag) monoid; these
 * turn segment offsets into head flags, check offsets, and gather one
 * total per segment.
 *
 * The host configuration defines SK_OFF_T (uint or ulong) and, for
 * sk_seg_gather_totals, SK_T and SK_IDENTITY.
 */

#ifndef SK_OFF_T
#error "segscan.cl: SK_OFF_T must be defined by the host configuration"
#endif

/* *bad gets a nonzero bit when offsets are not a valid segmentation of n
 * elements: offsets[0] == 0, non-decreasing, none above n. */
__kernel void sk_seg_check_offsets(__global const SK_OFF_T *offsets, ulong count, ulong n,
                                   volatile __global int *bad)
{
    ulong k = get_global_id(0);
    if (k >= count) return;
    ulong o = offsets[k];
    int wrong = (k == 0 && o != 0) || (k > 0 && o < (ulong)offsets[k - 1]) || o > n;
    if (wrong) atomic_or(bad, 1);
}

/* flags[offsets[k]] = 1 for every segment start below n (flags zeroed
 * before). Of equal offsets (empty segments) only the last one writes, so
 * no two work-items write the same byte. */
__kernel void sk_seg_offsets_to_flags(__global const SK_OFF_T *offsets, ulong count, ulong n,
                                      __global uchar *flags)
{
    ulong k = get_global_id(0);
    if (k >= count) return;
    ulong o = offsets[k];
    if (o < n && (k + 1 == count || (ulong)offsets[k + 1] != o)) flags[o] = 1;
}

#ifdef SK_T
/* totals[s] = the inclusive segmented scan at the last element of segment
 * s, or the identity for an empty segment. */
__kernel void sk_seg_gather_totals(__global const SK_T *inclusive,
                                   __global const SK_OFF_T *offsets, ulong count, ulong n,
                                   __global SK_T *totals)
{
    ulong s = get_global_id(0);
    if (s >= count) return;
    ulong begin = offsets[s];
    ulong end = s + 1 < count ? (ulong)offsets[s + 1] : n;
    totals[s] = end > begin ? inclusive[end - 1] : SK_IDENTITY;
}
#endif
