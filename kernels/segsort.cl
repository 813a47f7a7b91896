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
 *   SK_SEG_INSERT  CPU shape: segments of at most this many keys (and the
 *                  merge sort's first runs) by insertion sort
 *   SK_SEG_TILE    the longest segment the GPU shape's tile kernel (local
 *                  memory) or the CPU shape's merge sort takes
 *   SK_SEG_BATCH   the batch's program (below) instead of a shape's, with
 *   SK_IDX_T       uint or ulong: places and segment numbers in the batch
 *   or SK_SHAPE_GPU a work-group per tile of SK_SEG_TILE keys (SK_WG
 *                  work-items, SK_ITEMS keys each) sorts the segments that
 *                  start in it
 *   or SK_SHAPE_CPU one work-item per chunk of segments
 *
 * Segment s of `count` is keys[offsets[s] .. offsets[s + 1]), the last
 * ending at n. Keys are ordered by (sk_key_bits(k, flip) & range): `flip`
 * all ones for descending, `range` the bits [begin_bit, end_bit); equal
 * keys keep their order. A segment longer than `big` (at most SK_SEG_TILE)
 * is appended to `large` as its (start, end), counted by counters[1].
 * counters[0] is the offsets' check (segscan.cl's sk_seg_check_offsets,
 * enqueued before): where its bit 0 is set every kernel returns at once,
 * so that keys and values stay as they were.

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

/* By places (pairs, and keys narrower than the 4-byte places, which cannot
 * ride as values of the radix sort): */

/* Work-item e: seg[e] = the segment of place[e]. */
__kernel void sk_segsort_segs(__global const SK_IDX_T *place, __global SK_IDX_T *seg,
                              __global const ulong *table, ulong segs, ulong m)
{
    ulong e = get_global_id(0);
    if (e >= m) return;
    seg[e] = (SK_IDX_T)sk_seg_find(table, segs, (ulong)place[e]);
}

/* Work-item e: the key (and value) whose place in the batch was place[e]
 * (in segment seg[e]) into bk[e] (and bv[e]). */
__kernel void sk_segsort_pick(__global const SK_KEY_T *keys,
#ifdef SK_VAL_T
                              __global const SK_VAL_T *vals,
#endif
                              __global const SK_IDX_T *seg, __global const SK_IDX_T *place,
                              __global SK_KEY_T *bk,
#ifdef SK_VAL_T
                              __global SK_VAL_T *bv,
#endif
                              __global const ulong *table, ulong m)
{
    ulong e = get_global_id(0);
    if (e >= m) return;
    ulong from = sk_seg_home(table, (ulong)seg[e], (ulong)place[e]);
    bk[e] = keys[from];
#ifdef SK_VAL_T
    bv[e] = vals[from];
#endif
}

/* ======================================================================= */
#elif defined(SK_SHAPE_GPU)

/* The GPU shape sorts every segment of up to `big` keys (at most a tile,
 * SK_SEG_TILE = SK_WG x SK_ITEMS keys) by the work-group of the tile of
 * keys it starts in: work-group t takes the segments starting in [t x
 * SK_SEG_TILE, (t + 1) x SK_SEG_TILE), which end before (t + 2) x
 * SK_SEG_TILE, so a window of two tiles holds them all. No list of short
 * segments: the tiles' first segments (`first`) are found by a binary
 * search each, and each key's segment by a search among its tile's
 * segment starts, copied to local memory (faster than searching the
 * offsets, bench/results/nvidia-h200-segsort-wide). */
#define SK_SEG_SPAN_ITEMS (2 * SK_ITEMS)

/* What the tile ranks by, in local memory. Keys of up to 32 bits: a word
 * for every window place, (its segment's window start) << 48 | (its bits)
 * << 16 | (its place), all distinct; a place outside the tile's short
 * segments is a segment of its own (its start its place, bits 0). Over a
 * span of places that starts at or before a key's segment and holds it,
 * every word before the segment is below the key's and every word after
 * it above, so the key's place is the span's start plus the number of
 * words below its own there (stable, one comparison a word): the segment
 * rounded out to pairs of words is read a pair at a time
 * (bench/results/nvidia-h200-segsort-wide). Wider keys: the bits alone,
 * ties broken by the place, over the segment. */
#if SK_KEY_BITS <= 32
#define SK_SEG_WORDS 1
#define SK_SEG_LOCAL_T ulong
#define SK_SEG_WORD(k, w, start) \
    ((ulong)(start) << 48 | (ulong)sk_seg_bits(k, flip, range) << 16 | (w))
#else
#define SK_SEG_LOCAL_T SK_KEY_T
#define SK_SEG_BEFORE(x, j, b, w) ((x) < (b) || ((x) == (b) && (j) < (w)))
#endif
#if 2 * SK_SEG_TILE > 0xffff
#error "segsort.cl: window places must fit 16 bits"
#endif

/* The first segment s in [lo, hi) with offsets[s] > p (hi if none). */
ulong sk_seg_after(__global const SK_OFF_T *offsets, ulong lo, ulong hi, ulong p)
{
    while (lo < hi) {
        ulong mid = lo + (hi - lo) / 2;
        if ((ulong)offsets[mid] <= p) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The first segment s in [lo, hi) with offsets[s] >= p (hi if none). */
ulong sk_seg_from(__global const SK_OFF_T *offsets, ulong lo, ulong hi, ulong p)
{
    return p == 0 ? lo : sk_seg_after(offsets, lo, hi, p - 1);
}

/* Work-item i: first[i] = the first segment starting at or after tile i
 * (i <= tiles), and segment i (i < count) listed in `large` when longer
 * than `big`. Nothing when the offsets' check failed (counters[0] bit 0). */
__kernel void sk_segsort_classify(__global const SK_OFF_T *offsets, __global ulong *first,
                                  __global ulong *large, volatile __global uint *counters,
                                  ulong count, ulong n, ulong big, ulong tiles)
{
    ulong i = get_global_id(0);
    if (counters[0] & 1) return;
    if (i <= tiles) first[i] = sk_seg_from(offsets, 0, count, i * SK_SEG_TILE);
    if (i >= count) return;
    ulong lo = offsets[i], hi = sk_seg_end(offsets, i, count, n);
    if (hi - lo > big) sk_seg_append(large, counters + 1, lo, hi);
}

/* The segment of window place w: the last q < m with starts[q] <= w
 * (starts[0] <= w, m > 0). */
uint sk_seg_local_find(__local const uint *starts, uint m, uint w)
{
    uint a = 0, b = m;            /* starts[a] <= w; w < starts[b] unless b == m */
    while (b - a > 1) {
        uint mid = (a + b) / 2;
        if (starts[mid] <= w) a = mid;
        else b = mid;
    }
    return a;
}

/* The place of word b (window place w) in its sorted segment [lo, hi):
 * lo plus the number of the segment's words before it. */
uint sk_seg_rank_in(__local const SK_SEG_LOCAL_T *order, uint lo, uint hi, SK_SEG_LOCAL_T b,
                    uint w)
{
#ifdef SK_SEG_WORDS
    /* rounded out to pairs: a word before the segment is below b, one after
     * it above (the segment's start on top) */
    __local const ulong2 *pairs = (__local const ulong2 *)order;
    uint r = lo & ~1u;
#pragma unroll 4
    for (uint j = lo / 2; j < (hi + 1) / 2; j++) r += (pairs[j].s0 < b) + (pairs[j].s1 < b);
#else
    uint r = lo;
#pragma unroll 4
    for (uint j = lo; j < hi; j++) r += SK_SEG_BEFORE(order[j], j, b, w);
#endif
    return r;
}

/* Tile t: every segment of up to `big` keys that starts in it, sorted in
 * local memory `order` by the work-group. starts[q] is the window place of
 * the tile's q-th segment. Window place w is key t x SK_SEG_TILE + w; a
 * work-item holds places u x SK_WG + lid. Each key's place in its segment
 * is the number of the segment's keys before it, smaller, or equal and
 * earlier (stable), counted (sk_seg_rank_in). Every read of the window
 * precedes the barrier, every write follows it, and no other work-group
 * reads or writes these keys, so the sort is in place. */
void sk_seg_tile(__global SK_KEY_T *keys SK_SEG_VALS, __global const SK_OFF_T *offsets,
                 __global const ulong *first, ulong t, ulong count, ulong n, ulong big,
                 SK_KEY_T flip, SK_KEY_T range, __local SK_SEG_LOCAL_T *order,
                 __local uint *starts)
{
    uint lid = get_local_id(0);
    ulong base = t * SK_SEG_TILE, s0 = first[t], s1 = first[t + 1];
    uint m = (uint)(s1 - s0);     /* at most SK_SEG_TILE */
    for (uint q = lid; q < m; q += SK_WG) starts[q] = (uint)(offsets[s0 + q] - base);
    /* The keys of the tile's segments: [from, to) */
    ulong from = s0 < s1 ? (ulong)offsets[s0] : base;
    ulong to = s0 < s1 ? sk_seg_end(offsets, s1 - 1, count, n) : base;
    barrier(CLK_LOCAL_MEM_FENCE);
    SK_KEY_T k[SK_SEG_SPAN_ITEMS];
#ifdef SK_VAL_T
    SK_VAL_T v[SK_SEG_SPAN_ITEMS];
#endif
    /* the key's segment [lo, hi) in the window as lo | hi << 16 (0: no
     * key): one register, not two (fewer registers measured faster) */
    uint span[SK_SEG_SPAN_ITEMS];
    for (uint u = 0; u < SK_SEG_SPAN_ITEMS; u++) {
        uint w = u * SK_WG + lid;
        ulong p = base + w;
        span[u] = 0;
#ifdef SK_SEG_WORDS
        ulong word = (ulong)w << 48 | w; /* a segment of its own */
#endif
        if (p >= from && p < to) {
            uint q = sk_seg_local_find(starts, m, w);
            ulong a = base + starts[q], b = q + 1 < m ? base + starts[q + 1] : to;
            if (b - a <= big) {
                span[u] = (uint)(a - base) | (uint)(b - base) << 16;
                k[u] = keys[p];
#ifdef SK_VAL_T
                v[u] = vals[p];
#endif
#ifdef SK_SEG_WORDS
                word = SK_SEG_WORD(k[u], w, a - base);
#else
                order[w] = sk_seg_bits(k[u], flip, range);
#endif
            }
        }
#ifdef SK_SEG_WORDS
        order[w] = word;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint u = 0; u < SK_SEG_SPAN_ITEMS; u++) {
        uint w = u * SK_WG + lid, lo = span[u] & 0xffff, hi = span[u] >> 16;
        if (lo == hi) continue;
        uint r = sk_seg_rank_in(order, lo, hi, order[w], w);
        keys[base + r] = k[u];
#ifdef SK_VAL_T
        vals[base + r] = v[u];
#endif
    }
}

/* Work-group t: tile t (a work-group for each tile measured faster for
 * short segments on an H200 than fewer work-groups taking tiles in turns,
 * bench/results/nvidia-h200-segsort-tiles). Nothing when the offsets' check
 * failed. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_segsort_tiles(__global SK_KEY_T *keys SK_SEG_VALS, __global const SK_OFF_T *offsets,
                      __global const ulong *first, volatile __global const uint *counters,
                      ulong count, ulong n, ulong big, SK_KEY_T flip, SK_KEY_T range)
{
#ifdef SK_SEG_WORDS
    __local ulong2 pairs[SK_SEG_TILE]; /* aligned for the pairs' reads */
    __local ulong *order = (__local ulong *)pairs;
#else
    __local SK_SEG_LOCAL_T order[2 * SK_SEG_TILE];
#endif
    __local uint starts[SK_SEG_TILE];
    if (counters[0] & 1) return; /* the same for the whole work-group */
    sk_seg_tile(keys SK_SEG_PASS_VALS, offsets, first, get_group_id(0), count, n, big, flip,
                range, order, starts);
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
    if (counters[0] & 1) return; /* the offsets' check failed */
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

/* The digits of the LSD radix sort of keys [lo, hi) by 8-bit digits of
 * their order bits, every digit's counts in one read: at[p * 256 + d]. */
#define SK_SEG_DIGITS ((SK_KEY_BITS + 7) / 8)

void sk_seg_radix_counts(__global const SK_KEY_T *keys, ulong lo, ulong hi, SK_KEY_T flip,
                         SK_KEY_T range, uint *at)
{
    for (uint d = 0; d < SK_SEG_DIGITS * 256; d++) at[d] = 0;
    for (ulong i = lo; i < hi; i++) {
        SK_KEY_T b = sk_seg_bits(keys[i], flip, range);
        for (uint p = 0; p < SK_SEG_DIGITS; p++) at[p * 256 + ((uint)(b >> (8 * p)) & 0xffu)]++;
    }
}

/* One stable pass by digit p from ksrc (positions less so) to kdst (less
 * dof), at[] its counts; false, moving nothing, when every key of the
 * segment has the same digit there. Segments of fewer than 2^32 keys. */
bool sk_seg_radix_pass(__global const SK_KEY_T *ksrc, __global SK_KEY_T *kdst SK_SEG_VAL_PAIR,
                       ulong so, ulong dof, ulong lo, ulong hi, uint p, uint *at,
                       SK_KEY_T flip, SK_KEY_T range)
{
    uint len = (uint)(hi - lo), run = 0;
    for (uint d = 0; d < 256; d++) {
        uint c = at[d];
        if (c == len) return false;
        at[d] = run;
        run += c;
    }
    for (ulong i = lo; i < hi; i++) {
        SK_KEY_T x = ksrc[i - so];
        ulong o = lo + at[(uint)(sk_seg_bits(x, flip, range) >> (8 * p)) & 0xffu]++;
        kdst[o - dof] = x;
        SK_SEG_MOVE_VAL(o - dof, i - so);
    }
    return true;
}

#ifdef SK_VAL_T
#define SK_SEG_VARGS(a, b) , a, b
#else
#define SK_SEG_VARGS(a, b)
#endif

/* CPU devices' large segments, a work-item each in turn: work-item w sorts
 * spans w, w + P, ... (each spans[2s] .. spans[2s + 1] in keys) by an LSD
 * radix sort of 8-bit digits through tmp_k (positions less off), stably:
 * one read counting every digit, then a pass per digit; digits that every
 * key of a segment shares are skipped, and keys (and values) end in place.
 * A core sorts a segment at a serial sort's pace, with no launch per
 * pass. */
__kernel void sk_segsort_radix_spans(__global SK_KEY_T *keys SK_SEG_VALS, __global SK_KEY_T *tmp_k
                                     SK_SEG_TMP_VALS, __global const ulong *spans, ulong count,
                                     ulong off, SK_KEY_T flip, SK_KEY_T range)
{
    for (ulong s = get_global_id(0); s < count; s += get_global_size(0)) {
        ulong lo = spans[2 * s], hi = spans[2 * s + 1];
        uint at[SK_SEG_DIGITS * 256];
        bool in_tmp = false;
        sk_seg_radix_counts(keys, lo, hi, flip, range, at);
        for (uint p = 0; p < SK_SEG_DIGITS; p++) {
            bool moved = in_tmp ? sk_seg_radix_pass(tmp_k, keys SK_SEG_VARGS(tmp_v, vals), off, 0,
                                                    lo, hi, p, at + p * 256, flip, range)
                                : sk_seg_radix_pass(keys, tmp_k SK_SEG_VARGS(vals, tmp_v), 0, off,
                                                    lo, hi, p, at + p * 256, flip, range);
            in_tmp = in_tmp != moved;
        }
        for (ulong i = lo; in_tmp && i < hi; i++) {
            keys[i] = tmp_k[i - off];
#ifdef SK_VAL_T
            vals[i] = tmp_v[i - off];
#endif
        }
    }
}

#else
#error "segsort.cl: define SK_SEG_BATCH, SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
