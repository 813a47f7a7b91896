/*
 * topk.cl - radix selection (primitives/topk.c): the k-th key of n in the
 * radix sort's order, then the k keys up to it, in two shapes.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND   the key (sort_keys.cl, which comes
 *                  before this text)
 *   SK_VALS        0 keys only, 1 values of SK_VAL_T travel with the keys,
 *                  2 the keys' input indices (ulong) are written
 *   SK_SHAPE_GPU   work-groups of SK_WG, a part (tile) of SK_WG x SK_ITEMS
 *                  keys each, a run of SK_ITEMS consecutive keys per
 *                  work-item (block.cl after SK_WG)
 *   or SK_SHAPE_CPU one work-item per part (chunk), work-group size 1
 *
 * The selection state sel (three ulong words) holds the order bits found
 * so far (sel[0], sk_key_bits with `flip`), which of them are known
 * (sel[1]) and the rank, among the keys matching them, of the k-th key
 * (sel[2], 0-based). The digit counts come from histogram.cl (SK_DIGIT);
 * sk_topk_pick narrows sel by one digit. Once every bit is known, sel[0]
 * is the k-th key's order bits (the pivot) and sel[2] + 1 how many keys
 * equal to it the k smallest take: the first ones in input order.
 *
 * The collection writes, in input order, every key before the pivot and
 * the first sel[2] + 1 keys equal to it: part counts (before, equal),
 * their exclusive scan by one work-item, then each part writes its keys.
 * parts[p] counts the keys before the pivot in part p, parts[P + p] those
 * equal to it (after the scan: in the parts before p).
 */

#ifndef SK_KEY_T
#error "topk.cl: SK_KEY_T must be defined by the host configuration"
#endif

#if SK_VALS == 1
#define SK_VALS_IN , __global const SK_VAL_T *vals
#define SK_VALS_OUT , __global SK_VAL_T *out_vals
#define SK_VALS_IN_ARG , vals
#define SK_VALS_OUT_ARG , out_vals
#define SK_PUT_VAL(p, i) (out_vals[p] = vals[i])
#elif SK_VALS == 2
#define SK_VALS_IN
#define SK_VALS_OUT , __global ulong *out_vals
#define SK_VALS_IN_ARG
#define SK_VALS_OUT_ARG , out_vals
#define SK_PUT_VAL(p, i) (out_vals[p] = (i))
#else
#define SK_VALS_IN
#define SK_VALS_OUT
#define SK_VALS_IN_ARG
#define SK_VALS_OUT_ARG
#define SK_PUT_VAL(p, i) ((void)0)
#endif

/* The state of a selection of the key of 0-based rank `rank`. */
__kernel void sk_topk_init(__global ulong *sel, ulong rank)
{
    if (get_global_id(0) != 0) return;
    sel[0] = 0;
    sel[1] = 0;
    sel[2] = rank;
}

/* Narrows sel by the digit at `shift` whose counts (bins of them) hold the
 * key of rank sel[2]: the ranks below that digit's are dropped. */
__kernel void sk_topk_pick(__global const ulong *counts, __global ulong *sel, uint shift,
                           uint bins)
{
    if (get_global_id(0) != 0) return;
    ulong r = sel[2], below = 0;
    uint d = 0;
    while (d + 1 < bins && r >= below + counts[d]) below += counts[d++];
    sel[0] |= (ulong)d << shift;
    sel[1] |= (ulong)(bins - 1) << shift;
    sel[2] = r - below;
}

/* out[0] = the pivot: the key whose order bits are sel[0]. */
__kernel void sk_topk_key(__global const ulong *sel, __global SK_KEY_T *out, SK_KEY_T flip)
{
    if (get_global_id(0) != 0) return;
    out[0] = sk_key_unbits((SK_KEY_T)sel[0], flip);
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

/* Counts the keys of keys[lo .. hi) before the pivot (*nb) and equal to it
 * (*ne). */
void sk_topk_tally(__global const SK_KEY_T *keys, ulong lo, ulong hi, SK_KEY_T piv,
                   SK_KEY_T flip, ulong *nb, ulong *ne)
{
    ulong b = 0, e = 0;
    for (ulong i = lo; i < hi; i++) {
        SK_KEY_T k = sk_key_bits(keys[i], flip);
        b += k < piv;
        e += k == piv;
    }
    *nb = b;
    *ne = e;
}

/* Writes the selected keys of keys[lo .. hi), nb keys before the pivot and
 * ne equal to it coming before them in input order, `take` equal ones
 * selected in all. */
void sk_topk_put(__global const SK_KEY_T *keys SK_VALS_IN, __global SK_KEY_T *out_keys
                 SK_VALS_OUT, ulong lo, ulong hi, SK_KEY_T piv, SK_KEY_T flip, ulong take,
                 ulong nb, ulong ne)
{
    for (ulong i = lo; i < hi; i++) {
        SK_KEY_T x = keys[i], k = sk_key_bits(x, flip);
        if (k < piv) {
            ulong p = nb + min(ne, take);
            out_keys[p] = x;
            SK_PUT_VAL(p, i);
            nb++;
        } else if (k == piv) {
            if (ne < take) {
                out_keys[nb + ne] = x;
                SK_PUT_VAL(nb + ne, i);
            }
            ne++;
        }
    }
}

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

#define SK_TILE ((ulong)SK_WG * SK_ITEMS)

/* Part g's tally: each work-item's run, summed over the work-group. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_topk_count(__global const SK_KEY_T *keys, __global const ulong *sel,
                   __global ulong *parts, ulong n, ulong np, SK_KEY_T flip)
{
    __local uint s[SK_WG_SCAN_SLOTS];
    ulong g = get_group_id(0), lo = min(g * SK_TILE + get_local_id(0) * SK_ITEMS, n);
    ulong nb, ne;
    uint tb, te;
    sk_topk_tally(keys, lo, min(lo + SK_ITEMS, n), (SK_KEY_T)sel[0], flip, &nb, &ne);
    sk_wg_exclusive_sum((uint)nb, s, &tb);
    sk_wg_exclusive_sum((uint)ne, s, &te);
    if (get_local_id(0) == 0) {
        parts[g] = tb;
        parts[np + g] = te;
    }
}

/* Part g's keys: each work-item's run from its place in the part. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_topk_scatter(__global const SK_KEY_T *keys SK_VALS_IN, __global const ulong *sel,
                     __global const ulong *parts, __global SK_KEY_T *out_keys SK_VALS_OUT,
                     ulong n, ulong np, SK_KEY_T flip)
{
    __local uint s[SK_WG_SCAN_SLOTS];
    ulong g = get_group_id(0), lo = min(g * SK_TILE + get_local_id(0) * SK_ITEMS, n);
    ulong hi = min(lo + SK_ITEMS, n), nb, ne;
    SK_KEY_T piv = (SK_KEY_T)sel[0];
    uint tb, te;
    sk_topk_tally(keys, lo, hi, piv, flip, &nb, &ne);
    ulong xb = sk_wg_exclusive_sum((uint)nb, s, &tb);
    ulong xe = sk_wg_exclusive_sum((uint)ne, s, &te);
    sk_topk_put(keys SK_VALS_IN_ARG, out_keys SK_VALS_OUT_ARG,
                lo, hi, piv, flip, sel[2] + 1, parts[g] + xb, parts[np + g] + xe);
}

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Part c's tally: keys [c * chunk, min((c + 1) * chunk, n)). */
__kernel void sk_topk_count(__global const SK_KEY_T *keys, __global const ulong *sel,
                            __global ulong *parts, ulong n, ulong np, SK_KEY_T flip,
                            ulong chunk)
{
    ulong c = get_global_id(0), lo = min(c * chunk, n), nb, ne;
    sk_topk_tally(keys, lo, min(lo + chunk, n), (SK_KEY_T)sel[0], flip, &nb, &ne);
    parts[c] = nb;
    parts[np + c] = ne;
}

/* Part c's keys, from the place the scanned counts give it. */
__kernel void sk_topk_scatter(__global const SK_KEY_T *keys SK_VALS_IN,
                              __global const ulong *sel, __global const ulong *parts,
                              __global SK_KEY_T *out_keys SK_VALS_OUT, ulong n, ulong np,
                              SK_KEY_T flip, ulong chunk)
{
    ulong c = get_global_id(0), lo = min(c * chunk, n);
    sk_topk_put(keys SK_VALS_IN_ARG, out_keys SK_VALS_OUT_ARG,
                lo, min(lo + chunk, n), (SK_KEY_T)sel[0], flip, sel[2] + 1, parts[c],
                parts[np + c]);
}

#else
#error "topk.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
