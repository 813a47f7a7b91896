/*
 * segsort.cl - the segmented sort's kernels: keys (and values) sorted
 * within segments given by offsets, stably, in the radix sort's order.
 * sort_keys.cl (the configuration of the key, the key order) comes before
 * it.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND   the key (sort_keys.cl)
 *   SK_OFF_T       uint or ulong: the offsets
 *   SK_VAL_T       uint or ulong when values travel with the keys
 *   SK_SEG_INSERT  segments of at most this many keys: insertion sort
 *                  (SK_SEG_GPU_INSERT on the GPU shape)
 *   SK_SEG_SLICE_WIDTH  GPU shape: work-items of a slice (sk_segsort_small)
 *   SK_SEG_TILE    the longest segment the GPU shape's tile kernel (local
 *                  memory) or the CPU shape's merge sort takes
 *   SK_SEG_BATCH   the batch's program (below) instead of a shape's, with
 *   SK_IDX_T       uint or ulong: places and segment numbers in the batch
 *   or SK_SHAPE_GPU a work-item per segment classifies it (SK_WG work-items
 *                  per work-group of the tile kernel, SK_ITEMS keys each)
 *   or SK_SHAPE_CPU one work-item per chunk of segments
 *
 * Segment s of `count` is keys[offsets[s] .. offsets[s + 1]), the last
 * ending at n. Keys are ordered by (sk_key_bits(k, flip) & range): `flip`
 * all ones for descending, `range` the bits [begin_bit, end_bit); equal
 * keys keep their order. A segment longer than `big` (at most SK_SEG_TILE)
 * is appended to `large` as its (start, end), counted by counters[1]; on
 * the GPU shape a segment between the two bounds is appended by its start
 * and end to `small` (counted by counters[2]) when a slice of a work-group
 * holds it (SK_SEG_SLICE_KEYS keys), else to `mid` (counters[0]).

 * The batch (both shapes): the large segments sorted together by the
 * radix sort (segsort.c). Their keys lie back to back in the batch, in the
 * order of `table`: segment s starts at table[2s] in the batch and at
 * table[2s + 1] in keys; table[2 * segs] is the batch's length m.
 */

#ifndef SK_KEY_T
#error "segsort.cl: SK_KEY_T must be defined by the host configuration"
#endif

#ifdef SK_VAL_T
#define SK_SEG_VALS , __global SK_VAL_T *vals
#define SK_SEG_TMP_VALS , __global SK_VAL_T *tmp_v
#define SK_SEG_PASS_VALS , vals
#else
#define SK_SEG_VALS
#define SK_SEG_TMP_VALS
#define SK_SEG_PASS_VALS
#endif

/* The bits a key is ordered by within the bit range. */
SK_KEY_T sk_seg_bits(SK_KEY_T k, SK_KEY_T flip, SK_KEY_T range)
{
    return sk_key_bits(k, flip) & range;
}

/* The end of segment s. */
ulong sk_seg_end(__global const SK_OFF_T *offsets, ulong s, ulong count, ulong n)
{
    return s + 1 < count ? (ulong)offsets[s + 1] : n;
}

/* Stable insertion sort of keys[lo .. hi) (and values) in place. */
void sk_seg_insertion(__global SK_KEY_T *keys SK_SEG_VALS, ulong lo, ulong hi, SK_KEY_T flip,
                      SK_KEY_T range)
{
    for (ulong i = lo + 1; i < hi; i++) {
        SK_KEY_T x = keys[i], xb = sk_seg_bits(x, flip, range);
#ifdef SK_VAL_T
        SK_VAL_T v = vals[i];
#endif
        ulong j = i;
        while (j > lo && xb < sk_seg_bits(keys[j - 1], flip, range)) {
            keys[j] = keys[j - 1];
#ifdef SK_VAL_T
            vals[j] = vals[j - 1];
#endif
            j--;
        }
        keys[j] = x;
#ifdef SK_VAL_T
        vals[j] = v;
#endif
    }
}

/* Appends [lo, hi) to a list counted by *counter. */
void sk_seg_append(__global ulong *list, volatile __global uint *counter, ulong lo, ulong hi)
{
    uint at = atomic_inc(counter);
    list[2 * (ulong)at] = lo;
    list[2 * (ulong)at + 1] = hi;
}

/* ======================================================================= */
#if defined(SK_SEG_BATCH)
/* The batch of large segments: a program of its own (either shape), built
 * only where a batch runs; the key's bits alone matter (SK_KEY_T), and
 * SK_OFF_T is ulong. */

/* The segment of place e of the batch: the last s with table[2s] <= e. */
ulong sk_seg_find(__global const ulong *table, ulong segs, ulong e)
{
    ulong lo = 0, hi = segs;      /* table[2 lo] <= e < table[2 hi] */
    while (hi - lo > 1) {
        ulong mid = lo + (hi - lo) / 2;
        if (table[2 * mid] <= e) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* Where place e of the batch, in segment s, lies in keys. */
ulong sk_seg_home(__global const ulong *table, ulong s, ulong e)
{
    return table[2 * s + 1] + (e - table[2 * s]);
}

/* Work-item e: the key of place e of the batch into bk, and beside it in
 * tag its segment (keys only) or its place e (by_place: pairs). */
__kernel void sk_segsort_gather(__global const SK_KEY_T *keys, __global const ulong *table,
                                __global SK_KEY_T *bk, __global SK_IDX_T *tag, ulong segs,
                                ulong m, uint by_place)
{
    ulong e = get_global_id(0);
    if (e >= m) return;
    ulong s = sk_seg_find(table, segs, e);
    bk[e] = keys[sk_seg_home(table, s, e)];
    tag[e] = (SK_IDX_T)(by_place ? e : s);
}

/* Work-item e: the batch, sorted by segment (seg[e], place e's segment),
 * back into keys (and values). */
__kernel void sk_segsort_put(__global SK_KEY_T *keys SK_SEG_VALS, __global const SK_IDX_T *seg,
                             __global const SK_KEY_T *bk
#ifdef SK_VAL_T
                             , __global const SK_VAL_T *bv
#endif
                             , __global const ulong *table, ulong m)
{
    ulong e = get_global_id(0);
    if (e >= m) return;
    ulong home = sk_seg_home(table, (ulong)seg[e], e);
    keys[home] = bk[e];
#ifdef SK_VAL_T
    vals[home] = bv[e];
#endif
}

#ifdef SK_VAL_T
/* Work-item e: seg[e] = the segment of place[e]. */
__kernel void sk_segsort_segs(__global const SK_IDX_T *place, __global SK_IDX_T *seg,
                              __global const ulong *table, ulong segs, ulong m)
{
    ulong e = get_global_id(0);
    if (e >= m) return;
    seg[e] = (SK_IDX_T)sk_seg_find(table, segs, (ulong)place[e]);
}

/* Work-item e: the key and value whose place in the batch was place[e]
 * (in segment seg[e]) into bk[e] and bv[e]. */
__kernel void sk_segsort_pick(__global const SK_KEY_T *keys, __global const SK_VAL_T *vals,
                              __global const SK_IDX_T *seg, __global const SK_IDX_T *place,
                              __global SK_KEY_T *bk, __global SK_VAL_T *bv,
                              __global const ulong *table, ulong m)
{
    ulong e = get_global_id(0);
    if (e >= m) return;
    ulong from = sk_seg_home(table, (ulong)seg[e], (ulong)place[e]);
    bk[e] = keys[from];
    bv[e] = vals[from];
}
#endif

/* ======================================================================= */
#elif defined(SK_SHAPE_GPU)

/* A slice: SK_SEG_SLICE work-items (SK_SEG_SLICE_WIDTH, the host's, or the
 * work-group where it is smaller) of a work-group that sort a segment of
 * up to SK_SEG_SLICE_KEYS keys of their own (sk_segsort_small), so that
 * a work-group sorts SK_WG / SK_SEG_SLICE short segments at once. */
#define SK_SEG_SLICE (SK_WG < SK_SEG_SLICE_WIDTH ? SK_WG : SK_SEG_SLICE_WIDTH)
#define SK_SEG_SLICES (SK_WG / SK_SEG_SLICE)
#define SK_SEG_SLICE_KEYS (SK_SEG_SLICE * SK_ITEMS)
#if SK_WG % SK_SEG_SLICE != 0 /* (work-group sizes are powers of two) */
#error "segsort.cl: a work-group must hold whole slices"
#endif

/* Work-item s: segment s sorted by insertion when short, else listed
 * (small, mid or large). */
__kernel void sk_segsort_classify(__global SK_KEY_T *keys SK_SEG_VALS,
                                  __global const SK_OFF_T *offsets, __global ulong *mid,
                                  __global ulong *large, __global ulong *small,
                                  volatile __global uint *counters, ulong count, ulong n,
                                  ulong big, SK_KEY_T flip, SK_KEY_T range)
{
    ulong s = get_global_id(0);
    if (s >= count) return;
    ulong lo = offsets[s], hi = sk_seg_end(offsets, s, count, n);
    ulong len = hi - lo;
    if (len <= SK_SEG_GPU_INSERT)
        sk_seg_insertion(keys SK_SEG_PASS_VALS, lo, hi, flip, range);
    else if (len <= big && len <= SK_SEG_SLICE_KEYS)
        sk_seg_append(small, counters + 2, lo, hi);
    else if (len <= big)
        sk_seg_append(mid, counters, lo, hi);
    else
        sk_seg_append(large, counters + 1, lo, hi);
}

/* The segment [lo, lo + len) of up to SK_ITEMS x `width` keys sorted by
 * the `width` work-items of ids `lid` in local memory `bits`: each key's
 * place is the number of keys before it, smaller, or equal and earlier
 * (stable). Every read of the segment precedes the work-group's barrier
 * (which every work-item of the work-group reaches), every write follows
 * it, so the sort is in place. */
void sk_seg_rank_sort(__global SK_KEY_T *keys SK_SEG_VALS, ulong lo, uint len, uint lid,
                      uint width, __local SK_KEY_T *bits, SK_KEY_T flip, SK_KEY_T range)
{
    SK_KEY_T k[SK_ITEMS];
#ifdef SK_VAL_T
    SK_VAL_T v[SK_ITEMS];
#endif
    for (uint t = 0; t < SK_ITEMS; t++) {
        uint i = t * width + lid;
        if (i >= len) break;
        k[t] = keys[lo + i];
#ifdef SK_VAL_T
        v[t] = vals[lo + i];
#endif
        bits[i] = sk_seg_bits(k[t], flip, range);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint t = 0; t < SK_ITEMS; t++) {
        uint i = t * width + lid, r = 0;
        if (i >= len) break;
        SK_KEY_T b = bits[i];
        for (uint j = 0; j < len; j++) r += bits[j] < b || (bits[j] == b && j < i);
        keys[lo + r] = k[t];
#ifdef SK_VAL_T
        vals[lo + r] = v[t];
#endif
    }
}

/* Work-group g: the segments small[g x SK_SEG_SLICES ...] (of `smalls`),
 * one a slice, each in its slice's part of local memory. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_segsort_small(__global SK_KEY_T *keys SK_SEG_VALS, __global const ulong *small,
                      ulong smalls, SK_KEY_T flip, SK_KEY_T range)
{
    __local SK_KEY_T bits[SK_SEG_SLICES * SK_SEG_SLICE_KEYS];
    uint lid = get_local_id(0), slice = lid / SK_SEG_SLICE;
    ulong g = get_group_id(0) * SK_SEG_SLICES + slice, lo = 0;
    uint len = 0;
    if (g < smalls) {
        lo = small[2 * g];
        len = (uint)(small[2 * g + 1] - lo);
    }
    sk_seg_rank_sort(keys SK_SEG_PASS_VALS, lo, len, lid % SK_SEG_SLICE, SK_SEG_SLICE,
                     bits + slice * SK_SEG_SLICE_KEYS, flip, range);
}

/* Work-group g: the segment mid[g], at most a tile, in local memory
 * (sk_seg_rank_sort). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_segsort_tiles(__global SK_KEY_T *keys SK_SEG_VALS, __global const ulong *mid,
                      SK_KEY_T flip, SK_KEY_T range)
{
    __local SK_KEY_T bits[SK_SEG_TILE];
    ulong g = get_group_id(0), lo = mid[2 * g];
    uint len = (uint)(mid[2 * g + 1] - lo);
    sk_seg_rank_sort(keys SK_SEG_PASS_VALS, lo, len, get_local_id(0), SK_WG, bits, flip,
                     range);
}

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

#ifdef SK_VAL_T
#define SK_SEG_VAL_PAIR , __global const SK_VAL_T *vsrc, __global SK_VAL_T *vdst
#define SK_SEG_MOVE_VAL(o, from) (vdst[o] = vsrc[from])
#else
#define SK_SEG_VAL_PAIR
#define SK_SEG_MOVE_VAL(o, from) ((void)0)
#endif

/* Merges the sorted runs ksrc[a .. m) and ksrc[m .. b) into kdst[a .. b),
 * the left run first among equal keys. Every load is within the runs
 * (a < m <= b), and each store takes a key just loaded. */
void sk_seg_merge(__global const SK_KEY_T *ksrc, __global SK_KEY_T *kdst SK_SEG_VAL_PAIR,
                  ulong a, ulong m, ulong b, SK_KEY_T flip, SK_KEY_T range)
{
    ulong i = a, j = m;
    for (ulong o = a; o < b; o++) {
        SK_KEY_T x = ksrc[min(i, m - 1)], y = ksrc[min(j, b - 1)];
        if (j < b && (i >= m || sk_seg_bits(y, flip, range) < sk_seg_bits(x, flip, range))) {
            kdst[o] = y;
            SK_SEG_MOVE_VAL(o, j);
            j++;
        } else {
            kdst[o] = x;
            SK_SEG_MOVE_VAL(o, i);
            i++;
        }
    }
}

#ifdef SK_VAL_T
#define SK_SEG_MERGE_VALS(from_tmp) , (from_tmp) ? tmp_v : vals, (from_tmp) ? vals : tmp_v
#else
#define SK_SEG_MERGE_VALS(from_tmp)
#endif

/* Stable merge sort of keys[lo .. hi) through tmp_k[lo .. hi): insertion
 * sorted runs of SK_SEG_INSERT keys, then merges of runs twice as long,
 * back and forth. */
void sk_seg_merge_sort(__global SK_KEY_T *keys SK_SEG_VALS, __global SK_KEY_T *tmp_k
                       SK_SEG_TMP_VALS, ulong lo, ulong hi, SK_KEY_T flip, SK_KEY_T range)
{
    for (ulong a = lo; a < hi; a += SK_SEG_INSERT)
        sk_seg_insertion(keys SK_SEG_PASS_VALS, a, min(a + SK_SEG_INSERT, hi), flip, range);
    bool in_tmp = false;
    for (ulong w = SK_SEG_INSERT; w < hi - lo; w *= 2) {
        __global SK_KEY_T *src = in_tmp ? tmp_k : keys, *dst = in_tmp ? keys : tmp_k;
        for (ulong a = lo; a < hi; a += 2 * w)
            sk_seg_merge(src, dst SK_SEG_MERGE_VALS(in_tmp), a, min(a + w, hi),
                         min(a + 2 * w, hi), flip, range);
        in_tmp = !in_tmp;
    }
    for (ulong i = lo; in_tmp && i < hi; i++) {
        keys[i] = tmp_k[i];
#ifdef SK_VAL_T
        vals[i] = tmp_v[i];
#endif
    }
}

/* Work-item c: segments [c * chunk, min((c + 1) * chunk, count)), each by
 * insertion when short, by merge sort up to a tile, else listed. */
__kernel void sk_segsort_chunks(__global SK_KEY_T *keys SK_SEG_VALS, __global SK_KEY_T *tmp_k
                                SK_SEG_TMP_VALS, __global const SK_OFF_T *offsets,
                                __global ulong *large, volatile __global uint *counters,
                                ulong count, ulong n, ulong chunk, ulong big,
                                SK_KEY_T flip, SK_KEY_T range)
{
    ulong c = get_global_id(0);
    ulong end = min(c * chunk + chunk, count);
    for (ulong s = c * chunk; s < end; s++) {
        ulong lo = offsets[s], hi = sk_seg_end(offsets, s, count, n);
        if (hi - lo <= SK_SEG_INSERT)
            sk_seg_insertion(keys SK_SEG_PASS_VALS, lo, hi, flip, range);
        else if (hi - lo <= big)
            sk_seg_merge_sort(keys SK_SEG_PASS_VALS, tmp_k
#ifdef SK_VAL_T
                              , tmp_v
#endif
                              , lo, hi, flip, range);
        else
            sk_seg_append(large, counters + 1, lo, hi);
    }
}

#else
#error "segsort.cl: define SK_SEG_BATCH, SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
