/*
 * search.cl - vectorised lower_bound / upper_bound: for each needle x of
 * needles[0 .. nn), the index in the sorted haystack hay[0 .. nh) where x
 * would go, in two shapes. sort_keys.cl (the configuration of the key, the
 * key order, the binary search) comes before it; keys are compared as the
 * radix sort and the merge compare them.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND   the key (sort_keys.cl)
 *   SK_SHAPE_GPU   one work-item per needle
 *   or SK_SHAPE_CPU one work-item per chunk of needles, work-group size 1
 *
 * Order: keys by their transformed bits (sk_key_bits with `flip`: all ones
 * for descending). With upper 0 (lower_bound) the bound of x is the first
 * i with hay[i] not before x; with upper 1 (upper_bound) the first i with
 * x before hay[i]; nh where there is none. Either is a partition point of
 * a sorted haystack. A haystack that is not sorted gives some index in
 * [0, nh] for every needle, and every read stays within hay[0 .. nh).
 */

#ifndef SK_KEY_T
#error "search.cl: SK_KEY_T must be defined by the host configuration"
#endif

/* Whether haystack key h is at or past the bound of needle x. */
bool sk_search_past(SK_KEY_T h, SK_KEY_T x, SK_KEY_T flip, uint upper)
{
    return upper ? sk_key_before(x, h, flip) : !sk_key_before(h, x, flip);
}

#define SK_SEARCH_PAST(i) sk_search_past(hay[i], x, flip, upper)

/* The bound of x within hay[lo .. hi), where it is known to lie in
 * [lo, hi]. */
ulong sk_search_between(__global const SK_KEY_T *hay, ulong lo, ulong hi, SK_KEY_T x,
                        SK_KEY_T flip, uint upper)
{
    SK_PARTITION_POINT(ulong, lo, hi, SK_SEARCH_PAST(mid_));
    return lo;
}

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

/* Work-item i: needle i, a binary search over the whole haystack. */
__kernel void sk_search_needles(__global const SK_KEY_T *hay, __global const SK_KEY_T *needles,
                                __global ulong *out, ulong nh, ulong nn, SK_KEY_T flip,
                                uint upper)
{
    ulong i = get_global_id(0);
    if (i >= nn) return;
    out[i] = sk_search_between(hay, 0, nh, needles[i], flip, upper);
}

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* The last gallop step (sk_search_gallop): past it, a binary search of
 * the rest. bench/NOTES-cpu.md: Sorted search. */
#define SK_SEARCH_GALLOP 8

/* The bound of x where it is at or past `from` (x not before the previous
 * needle, whose bound `from` was): probes from, from + 1, from + 3,
 * from + 7, from + 15 until one is past x, then a binary search below
 * that probe, or of the rest of the haystack when none was. Needles in
 * order walk the haystack forward from one bound to the next; a needle
 * far from the last costs five probes more than a binary search. */
ulong sk_search_gallop(__global const SK_KEY_T *hay, ulong from, ulong nh, SK_KEY_T x,
                       SK_KEY_T flip, uint upper)
{
    ulong lo = from, hi = from, step = 1;
    while (hi < nh && !SK_SEARCH_PAST(hi)) {
        lo = hi + 1;
        if (step > SK_SEARCH_GALLOP) {
            hi = nh;
            break;
        }
        hi += min(step, nh - hi);
        step <<= 1;
    }
    return sk_search_between(hay, lo, hi, x, flip, upper);
}

/* Work-item c: needles [c * chunk, min((c + 1) * chunk, nn)), in order;
 * each after the first starts from the previous needle's bound (at or
 * past it: sk_search_gallop; before it: a binary search below it). */
__kernel void sk_search_chunks(__global const SK_KEY_T *hay, __global const SK_KEY_T *needles,
                               __global ulong *out, ulong nh, ulong nn, ulong chunk,
                               SK_KEY_T flip, uint upper)
{
    ulong c = get_global_id(0);
    ulong i = c * chunk, end = min(i + chunk, nn);
    if (i >= end) return;
    SK_KEY_T prev = needles[i];
    ulong bound = sk_search_between(hay, 0, nh, prev, flip, upper);
    out[i] = bound;
    for (i++; i < end; i++) {
        SK_KEY_T x = needles[i];
        bound = sk_key_before(x, prev, flip) ? sk_search_between(hay, 0, bound, x, flip, upper)
                                             : sk_search_gallop(hay, bound, nh, x, flip, upper);
        out[i] = bound;
        prev = x;
    }
}

#else
#error "search.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
