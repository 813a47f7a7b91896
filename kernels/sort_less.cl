/*
 * sort_less.cl - the comparator sort's first pass: a stable merge sort of
 * every tile (GPU shape) or chunk (CPU shape) of keys of a caller's type in
 * a caller's order. The passes after it merge neighbouring sorted runs
 * with merge.cl's kernels (width > 0), which the configuration places
 * before this text, with sort_keys.cl (SK_KEY_LESS: the caller's order)
 * before that.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T       the caller's type; sk_less(a, b) its strict weak order
 *   SK_KEY_LESS    (sort_keys.cl, then merge.cl)
 *   SK_VAL_T       the values' type when values travel with the keys
 *   SK_SHAPE_GPU   tiles of SK_WG x SK_ITEMS keys per work-group (after
 *                  block.cl and tile.cl)
 *   or SK_SHAPE_CPU one work-item per chunk, work-group size 1
 *
 * Stable: a key moves before an earlier one only when it is strictly
 * before it (sk_key_before), in the runs' sorts and in every merge, which
 * takes its first run's key first among equal keys.
 */

#ifndef SK_KEY_LESS
#error "sort_less.cl: SK_KEY_LESS must be defined by the host configuration"
#endif

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

#if defined(SK_HAS_VAL)
#define SK_LESS_VAL_PARAMS , __global const SK_VAL_T *vsrc, __global SK_VAL_T *vdst
#else
#define SK_LESS_VAL_PARAMS
#endif

/* Sorts key[0 .. m) (m <= SK_ITEMS) and their tags from[] alike: odd-even
 * transposition, SK_ITEMS rounds of neighbours swapped where the second
 * is strictly before the first (so equal keys keep their order). */
void sk_less_sort_items(SK_KEY_T *key, uint *from, uint m)
{
    for (uint r = 0; r < SK_ITEMS; r++) {
        for (uint k = r & 1; k + 1 < m; k += 2) {
            if (sk_key_before(key[k + 1], key[k], 0u)) {
                SK_KEY_T x = key[k];
                uint f = from[k];
                key[k] = key[k + 1];
                from[k] = from[k + 1];
                key[k + 1] = x;
                from[k + 1] = f;
            }
        }
    }
}

/* Work-group g sorts keys [g * SK_TILE, min((g + 1) * SK_TILE, n)) of src
 * into the same places of dst (and the values alike): each work-item
 * sorts its SK_ITEMS keys (blocked) in registers, then runs twice as long
 * merge in local memory (merge.cl's sk_merge_local: each work-item merges
 * its SK_ITEMS outputs of its pair of runs) until one run is the tile.
 * With values, local memory keeps each key's tile position in src, and the
 * values are read where it says. src and dst must differ. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_less_tiles(__global const SK_KEY_T *src, __global SK_KEY_T *dst SK_LESS_VAL_PARAMS,
                        ulong n)
{
    __local SK_KEY_T lk[SK_TILE_LDS];
#if defined(SK_HAS_VAL)
    __local uint ls[SK_TILE_LDS];
#endif
    uint lid = get_local_id(0);
    ulong base = get_group_id(0) * (ulong)SK_TILE;
    uint count = (uint)min((ulong)SK_TILE, n - base);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint t = k * SK_WG + lid;
        if (t < count) lk[SK_TILE_POS(t)] = src[base + t];
    }
    SK_BARRIER();

    /* this work-item's outputs: tile positions [d, d + m) */
    uint d = min(lid * (uint)SK_ITEMS, count), m = min((uint)SK_ITEMS, count - d);
    SK_KEY_T key[SK_ITEMS];
    uint from[SK_ITEMS];
    for (uint k = 0; k < m; k++) {
        key[k] = lk[SK_TILE_POS(d + k)];
        from[k] = d + k;
    }
    sk_less_sort_items(key, from, m);
    SK_BARRIER();
    for (uint k = 0; k < m; k++) {
        lk[SK_TILE_POS(d + k)] = key[k];
#if defined(SK_HAS_VAL)
        ls[SK_TILE_POS(d + k)] = from[k];
#endif
    }
    SK_BARRIER();

    /* count is the same in every work-item: every one meets every barrier */
    for (uint w = SK_ITEMS; w < count; w *= 2) {
        uint s0 = d - d % (2 * w);
        uint ta = min(w, count - s0);
        uint tb = min(w, count - s0 - ta);
        sk_merge_local(lk, s0, ta, tb, d - s0, key, from, 0u, 0u);
#if defined(SK_HAS_VAL)
        for (uint k = 0; k < m; k++) from[k] = ls[SK_TILE_POS(from[k])];
#endif
        SK_BARRIER();
        for (uint k = 0; k < m; k++) {
            lk[SK_TILE_POS(d + k)] = key[k];
#if defined(SK_HAS_VAL)
            ls[SK_TILE_POS(d + k)] = from[k];
#endif
        }
        SK_BARRIER();
    }

    for (uint k = 0; k < SK_ITEMS; k++) {
        uint t = k * SK_WG + lid;
        if (t >= count) continue;
        dst[base + t] = lk[SK_TILE_POS(t)];
#if defined(SK_HAS_VAL)
        vdst[base + t] = vsrc[base + ls[SK_TILE_POS(t)]];
#endif
    }
}

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Runs of this many keys are sorted by insertion before the merges: 16
 * and 32 within the noise, 64 slower (bench/NOTES-cpu.md: Comparator sort
 * against the radix sort, runs). */
#define SK_LESS_RUN 16

#if defined(SK_HAS_VAL)
#define SK_LESS_VAL_PARAMS , __global SK_VAL_T *vsrc, __global SK_VAL_T *vdst
#define SK_LESS_ONE_VAL_PARAM , __global SK_VAL_T *v
#define SK_LESS_VALS(v) , v
#else
#define SK_LESS_VAL_PARAMS
#define SK_LESS_ONE_VAL_PARAM
#define SK_LESS_VALS(v)
#endif

/* Stable insertion sort of k[lo .. hi) (and v alike) in place. */
void sk_less_insertion(__global SK_KEY_T *k SK_LESS_ONE_VAL_PARAM, ulong lo, ulong hi)
{
    for (ulong i = lo + 1; i < hi; i++) {
        SK_KEY_T x = k[i];
#if defined(SK_HAS_VAL)
        SK_VAL_T y = v[i];
#endif
        ulong j = i;
        for (; j > lo && sk_key_before(x, k[j - 1], 0u); j--) {
            k[j] = k[j - 1];
#if defined(SK_HAS_VAL)
            v[j] = v[j - 1];
#endif
        }
        k[j] = x;
#if defined(SK_HAS_VAL)
        v[j] = y;
#endif
    }
}

/* Work-item c sorts keys [c * chunk, min((c + 1) * chunk, n)) of src into
 * the same places of dst (and the values alike), using src's as scratch:
 * insertion-sorted runs of SK_LESS_RUN, then merges of neighbouring runs
 * (merge.cl's sk_merge_serial) back and forth, started in src or in dst
 * so that the last merge writes dst. src and dst must differ. */
__kernel void sk_sort_less_chunks(__global SK_KEY_T *src, __global SK_KEY_T *dst
                                  SK_LESS_VAL_PARAMS, ulong n, ulong chunk)
{
    ulong lo = get_global_id(0) * chunk, hi = min(lo + chunk, n);
    uint merges = 0;
    for (ulong w = SK_LESS_RUN; w < hi - lo; w *= 2) merges++;
    bool in_src = merges % 2 == 1;
    if (!in_src) {
        for (ulong i = lo; i < hi; i++) {
            dst[i] = src[i];
#if defined(SK_HAS_VAL)
            vdst[i] = vsrc[i];
#endif
        }
    }
    for (ulong r = lo; r < hi; r += SK_LESS_RUN)
        sk_less_insertion(in_src ? src : dst SK_LESS_VALS(in_src ? vsrc : vdst), r,
                          min(r + SK_LESS_RUN, hi));
    for (ulong w = SK_LESS_RUN; w < hi - lo; w *= 2) {
        __global SK_KEY_T *from = in_src ? src : dst, *to = in_src ? dst : src;
#if defined(SK_HAS_VAL)
        __global SK_VAL_T *vfrom = in_src ? vsrc : vdst, *vto = in_src ? vdst : vsrc;
#endif
        for (ulong a = lo; a < hi; a += 2 * w) {
            ulong mid = min(a + w, hi), b = min(a + 2 * w, hi);
            sk_merge_serial(from, a, mid, from, mid, b, to, a SK_SERIAL_VALS(vfrom, vfrom, vto),
                            0u, 0u);
        }
        in_src = !in_src;
    }
}

#else
#error "sort_less.cl: define SK_SHAPE_CPU or SK_SHAPE_GPU"
#endif
