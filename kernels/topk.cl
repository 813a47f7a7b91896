/*
 * topk.cl - radix selection (primitives/topk.c): the k-th key of n in the
 * radix sort's order, then the k keys up to it, in two shapes.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND   the key (sort_keys.cl, which comes
 *                  before this text)
 *   SK_VALS        0 keys only, 1 values of SK_VAL_T travel with the keys,
 *                  2 the keys' input indices (ulong) are written
 *   SK_SHAPE_GPU   work-groups of SK_WG, each walking a part in tiles of
 *                  SK_WG x SK_ITEMS keys, a run of SK_ITEMS consecutive
 *                  keys per work-item (block.cl after SK_WG)
 *   or SK_SHAPE_CPU one work-item per part, work-group size 1
 *
 * The selection state sel (six ulong words):
 *   sel[0]  the order bits found so far (sk_key_bits with `flip`): the
 *           prefix
 *   sel[1]  which bits of sel[0] are known: the mask
 *   sel[2]  the rank (0-based) of the wanted key among the keys whose
 *           masked bits are at most the prefix; it never changes, since
 *           narrowing keeps every key below the prefix
 *   sel[3]  how many keys' masked bits are below the prefix
 *   sel[4]  how many keys' masked bits equal the prefix
 *   sel[5]  the digit last picked
 * The digit counts come from histogram.cl (SK_DIGIT): bin 0 counts the
 * keys below the prefix, bin 1 + v those equal to it with digit v; every
 * part of the histogram left its own row of such counts. sk_topk_pick
 * narrows sel by one digit. Once every bit is known, sel[0] is the k-th
 * key's order bits (the pivot), and the k smallest take every key below
 * it and the first sel[2] - sel[3] + 1 keys equal to it, in input order.
 *
 * The keys taken from a source (the input, or candidates an earlier
 * narrowing wrote with their input indices, still in input order) are
 * written part by part, in the histogram's parts: part counts from the
 * rows (sk_topk_parts: parts[p] the keys of part p below the prefix,
 * parts[P + p] those equal to it), their exclusive scans (sk_topk_spine),
 * then every part writes its keys from its offsets (sk_topk_narrow: every
 * key at most the prefix, with its input index, into candidates;
 * sk_topk_scatter: the k selected into the outputs).
 *
 * Small sources with sorted output instead sort all their keys (with their
 * input indices where values come out) by the radix sort and take the
 * first k (sk_topk_number, sk_topk_gather).
 */

#ifndef SK_KEY_T
#error "topk.cl: SK_KEY_T must be defined by the host configuration"
#endif

#if SK_VALS == 1
#define SK_VALS_IN , __global const SK_VAL_T *vals
#define SK_VALS_OUT , __global SK_VAL_T *out_vals
#define SK_VALS_IN_ARG , vals
#define SK_VALS_OUT_ARG , out_vals
#define SK_VALS_NONE_IN , (__global const SK_VAL_T *)0
#define SK_VALS_NONE_OUT , (__global SK_VAL_T *)0
#define SK_PUT_VAL(p, j) (out_vals[p] = vals[j])
#elif SK_VALS == 2
#define SK_VALS_IN
#define SK_VALS_OUT , __global ulong *out_vals
#define SK_VALS_IN_ARG
#define SK_VALS_OUT_ARG , out_vals
#define SK_VALS_NONE_IN
#define SK_VALS_NONE_OUT , (__global ulong *)0
#define SK_PUT_VAL(p, j) (out_vals[p] = (j))
#else
#define SK_VALS_IN
#define SK_VALS_OUT
#define SK_VALS_IN_ARG
#define SK_VALS_OUT_ARG
#define SK_VALS_NONE_IN
#define SK_VALS_NONE_OUT
#define SK_PUT_VAL(p, j) ((void)0)
#endif

/* The state of a selection of the key of 0-based rank `rank`. */
__kernel void sk_topk_init(__global ulong *sel, ulong rank)
{
    if (get_global_id(0) != 0) return;
    for (int w = 0; w < 6; w++) sel[w] = 0;
    sel[2] = rank;
}

/* Narrows sel by the digit at `shift` (digits values: a power of two)
 * whose counts (1 + digits bins, bin 0 the keys below the prefix) hold the
 * key of rank sel[2]. */
__kernel void sk_topk_pick(__global const ulong *counts, __global ulong *sel, uint shift,
                           uint digits)
{
    if (get_global_id(0) != 0) return;
    ulong r = sel[2], below = counts[0];
    uint d = 0;
    while (d + 1 < digits && r >= below + counts[1 + d]) below += counts[1 + d++];
    sel[0] |= (ulong)d << shift;
    sel[1] |= (ulong)(digits - 1) << shift;
    sel[3] = below;
    sel[4] = counts[1 + d];
    sel[5] = d;
}

/* out[0] = the pivot: the key whose order bits are sel[0]. */
__kernel void sk_topk_key(__global const ulong *sel, __global SK_KEY_T *out, SK_KEY_T flip)
{
    if (get_global_id(0) != 0) return;
    out[0] = sk_key_unbits((SK_KEY_T)sel[0], flip);
}

/* Counts the keys of keys[lo .. hi) whose masked bits are below the
 * prefix (*nb) and equal to it (*ne). */
void sk_topk_tally(__global const SK_KEY_T *keys, ulong lo, ulong hi, SK_KEY_T mask,
                   SK_KEY_T piv, SK_KEY_T flip, uint *nb, uint *ne)
{
    uint b = 0, e = 0;
    for (ulong i = lo; i < hi; i++) {
        SK_KEY_T k = sk_key_bits(keys[i], flip) & mask;
        b += k < piv;
        e += k == piv;
    }
    *nb = b;
    *ne = e;
}

/* Writes the taken keys of keys[lo .. hi): every key whose masked bits are
 * below the prefix and the first `take` equal to it, nb keys below and ne
 * equal coming before them in input order. A key's input index is
 * idx[i] where `indexed`, else i; out_idx (narrowing) receives it, or the
 * outputs of SK_VALS take it. */
void sk_topk_put(__global const SK_KEY_T *keys, __global const ulong *idx, uint indexed
                 SK_VALS_IN, __global SK_KEY_T *out_keys, __global ulong *out_idx
                 SK_VALS_OUT, ulong lo, ulong hi, SK_KEY_T mask, SK_KEY_T piv, SK_KEY_T flip,
                 ulong take, ulong nb, ulong ne)
{
    for (ulong i = lo; i < hi; i++) {
        SK_KEY_T x = keys[i], k = sk_key_bits(x, flip) & mask;
        ulong p;
        if (k < piv) p = nb++ + min(ne, take);
        else if (k == piv && ne < take) p = nb + ne++;
        else {
            ne += k == piv;
            continue;
        }
        ulong j = indexed ? idx[i] : i;
        out_keys[p] = x;
        if (out_idx) out_idx[p] = j;
        else SK_PUT_VAL(p, j);
    }
}

/* How many equal keys the k smallest take: all of them while narrowing. */
ulong sk_topk_take(__global const ulong *sel, uint narrow)
{
    return narrow ? ULONG_MAX : sel[2] - sel[3] + 1;
}

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

#define SK_TILE ((ulong)SK_WG * SK_ITEMS)

SK_DEFINE_WG_SCAN(sk_topk_wg_scan, ulong, sk_add, 0ul)

/* Part g's counts from its histogram row: one work-group per part. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_topk_parts(__global const uint *rows, __global const ulong *sel,
                   __global ulong *parts, ulong np, ulong bins)
{
    __local uint s[SK_WG_SCAN_SLOTS];
    ulong g = get_group_id(0), d = sel[5];
    __global const uint *row = rows + g * bins;
    uint b = 0, total;
    for (ulong j = get_local_id(0); j <= d; j += SK_WG) b += row[j];
    sk_wg_exclusive_sum(b, s, &total);
    if (get_local_id(0) == 0) {
        parts[g] = total;
        parts[np + g] = row[1 + d];
    }
}

/* The exclusive scans of parts[0 .. np) and parts[np .. 2 np), in place,
 * by one work-group. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_topk_spine(__global ulong *parts, ulong np)
{
    __local ulong s[SK_WG_SCAN_SLOTS];
    ulong cb = 0, ce = 0;
    for (ulong p0 = 0; p0 < np; p0 += SK_WG) {
        ulong p = p0 + get_local_id(0), tb, te;
        ulong vb = p < np ? parts[p] : 0, ve = p < np ? parts[np + p] : 0;
        ulong xb = sk_topk_wg_scan(vb, s, &tb), xe = sk_topk_wg_scan(ve, s, &te);
        if (p < np) {
            parts[p] = cb + xb;
            parts[np + p] = ce + xe;
        }
        cb += tb;
        ce += te;
    }
}

/* Part g's taken keys, tile by tile: each work-item's run from its place. */
void sk_topk_put_part(__global const SK_KEY_T *keys, __global const ulong *idx, uint indexed
                      SK_VALS_IN, __global const ulong *sel, __global const ulong *parts,
                      __global SK_KEY_T *out_keys, __global ulong *out_idx SK_VALS_OUT,
                      ulong n, ulong np, ulong chunk, SK_KEY_T flip, uint narrow,
                      __local uint *s)
{
    ulong g = get_group_id(0), end = min(g * chunk + chunk, n);
    ulong nb = parts[g], ne = parts[np + g], take = sk_topk_take(sel, narrow);
    SK_KEY_T mask = (SK_KEY_T)sel[1], piv = (SK_KEY_T)sel[0];
    for (ulong base = g * chunk; base < end; base += SK_TILE) {
        ulong lo = min(base + get_local_id(0) * SK_ITEMS, end), hi = min(lo + SK_ITEMS, end);
        uint b, e, tb, te;
        sk_topk_tally(keys, lo, hi, mask, piv, flip, &b, &e);
        ulong xb = sk_wg_exclusive_sum(b, s, &tb), xe = sk_wg_exclusive_sum(e, s, &te);
        sk_topk_put(keys, idx, indexed SK_VALS_IN_ARG, out_keys, out_idx SK_VALS_OUT_ARG,
                    lo, hi, mask, piv, flip, take, nb + xb, ne + xe);
        nb += tb;
        ne += te;
    }
}

#define SK_TOPK_PART_ATTR __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
#define SK_TOPK_PART_SLOTS SK_WG_SCAN_SLOTS

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Part c's counts from its histogram row. */
__kernel void sk_topk_parts(__global const uint *rows, __global const ulong *sel,
                            __global ulong *parts, ulong np, ulong bins)
{
    ulong c = get_global_id(0), d = sel[5], b = 0;
    __global const uint *row = rows + c * bins;
    for (ulong j = 0; j <= d; j++) b += row[j];
    parts[c] = b;
    parts[np + c] = row[1 + d];
}

/* The exclusive scans of parts[0 .. np) and parts[np .. 2 np), in place. */
__kernel void sk_topk_spine(__global ulong *parts, ulong np)
{
    if (get_global_id(0) != 0) return;
    ulong b = 0, e = 0;
    for (ulong p = 0; p < np; p++) {
        ulong cb = parts[p], ce = parts[np + p];
        parts[p] = b;
        parts[np + p] = e;
        b += cb;
        e += ce;
    }
}

/* Part c's taken keys: keys [c * chunk, min((c + 1) * chunk, n)). */
void sk_topk_put_part(__global const SK_KEY_T *keys, __global const ulong *idx, uint indexed
                      SK_VALS_IN, __global const ulong *sel, __global const ulong *parts,
                      __global SK_KEY_T *out_keys, __global ulong *out_idx SK_VALS_OUT,
                      ulong n, ulong np, ulong chunk, SK_KEY_T flip, uint narrow,
                      __local uint *s)
{
    ulong c = get_global_id(0), lo = min(c * chunk, n);
    (void)s;
    sk_topk_put(keys, idx, indexed SK_VALS_IN_ARG, out_keys, out_idx SK_VALS_OUT_ARG, lo,
                min(lo + chunk, n), (SK_KEY_T)sel[1], (SK_KEY_T)sel[0], flip,
                sk_topk_take(sel, narrow), parts[c], parts[np + c]);
}

#define SK_TOPK_PART_ATTR
#define SK_TOPK_PART_SLOTS 1

#else
#error "topk.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif

/* Narrowing: every key of the source whose masked bits are at most the
 * prefix, with its input index, into the candidates, in input order. */
__kernel SK_TOPK_PART_ATTR
void sk_topk_narrow(__global const SK_KEY_T *keys, __global const ulong *idx, uint indexed,
                    __global const ulong *sel, __global const ulong *parts,
                    __global SK_KEY_T *out_keys, __global ulong *out_idx, ulong n, ulong np,
                    ulong chunk, SK_KEY_T flip)
{
    __local uint s[SK_TOPK_PART_SLOTS];
    sk_topk_put_part(keys, idx, indexed SK_VALS_NONE_IN, sel, parts, out_keys,
                     out_idx SK_VALS_NONE_OUT, n, np, chunk, flip, 1, s);
}

/* The k selected of the source, in input order, into the outputs. */
__kernel SK_TOPK_PART_ATTR
void sk_topk_scatter(__global const SK_KEY_T *keys, __global const ulong *idx, uint indexed
                     SK_VALS_IN, __global const ulong *sel, __global const ulong *parts,
                     __global SK_KEY_T *out_keys SK_VALS_OUT, ulong n, ulong np, ulong chunk,
                     SK_KEY_T flip)
{
    __local uint s[SK_TOPK_PART_SLOTS];
    sk_topk_put_part(keys, idx, indexed SK_VALS_IN_ARG, sel, parts, out_keys,
                     (__global ulong *)0 SK_VALS_OUT_ARG, n, np, chunk, flip, 0, s);
}

/* ---- top-k by a whole sort (topk.c: small sources, sorted output) --------- */

/* all[i] = keys[i] and, where idx is given, idx[i] = i (the keys' input
 * indices, the values the sort carries), i < n (one work-item each). By a
 * kernel rather than clEnqueueCopyBuffer, whose stores Oclgrind's
 * uninitialised-value check does not see. */
__kernel void sk_topk_number(__global const SK_KEY_T *keys, __global SK_KEY_T *all,
                             __global uint *idx, ulong n)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    all[i] = keys[i];
    if (idx) idx[i] = (uint)i;
}

/* out_vals[j] = the value (SK_VALS 1) or input index (SK_VALS 2) of the
 * j-th key after the sort, whose input index is idx[j], j < k (one
 * work-item each). */
__kernel void sk_topk_gather(__global const uint *idx SK_VALS_IN SK_VALS_OUT, ulong k)
{
    ulong j = get_global_id(0);
    if (j < k) SK_PUT_VAL(j, idx[j]);
}
