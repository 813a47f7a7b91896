/*
 * sort_split.cl - LSD radix sort, GPU shape, the parts every GPU sort
 * program has: tiles of SK_WG x SK_ITEMS keys per work-group, the keys'
 * AND and OR (which digits differ at all), and the three launches per
 * digit that sorts of 2^30 keys and more take (tile histograms, their
 * scan on the host side, a scatter of each tile ranked by stable local
 * splits). Built on block.cl (its tiles' size SK_TILE from tile.cl);
 * sort_keys.cl (the configuration, the key order) comes before it, sort.cl
 * (one sweep per digit) after it; sort_cpu.cl is the CPU shape.
 */

#if !defined(SK_SHAPE_GPU)
#error "sort_split.cl: the GPU shape's file (SK_SHAPE_GPU)"
#endif

/* The AND and the OR of transformed keys, combined as one value. */
typedef struct sk_bounds {
    SK_KEY_T a, o;
} sk_bounds;

sk_bounds sk_bounds_op(sk_bounds x, sk_bounds y)
{
    sk_bounds r;
    r.a = x.a & y.a;
    r.o = x.o | y.o;
    return r;
}

SK_DEFINE_WG_REDUCE(sk_wg_bounds, sk_bounds, sk_bounds_op)

/* partials[2g], partials[2g + 1] = the AND and the OR of every work-item's
 * a and o in work-group g. */
void sk_wg_and_or(SK_KEY_T a, SK_KEY_T o, __local sk_bounds *lb, __global SK_KEY_T *partials)
{
    sk_bounds b;
    b.a = a;
    b.o = o;
    b = sk_wg_bounds(b, lb);
    if (get_local_id(0) == 0) {
        partials[2 * get_group_id(0)] = b.a;
        partials[2 * get_group_id(0) + 1] = b.o;
    }
}

/* partials[2g] = AND, partials[2g+1] = OR of the transformed keys that
 * work-group g's work-items visit (stride: the whole launch). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_bounds_groups(__global const SK_KEY_T *keys, __global SK_KEY_T *partials,
                           ulong n, SK_KEY_T flip)
{
    __local sk_bounds lb[SK_WG];
    SK_KEY_T a = ~(SK_KEY_T)0, o = 0;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        SK_KEY_T b = sk_key_bits(keys[i], flip);
        a &= b;
        o |= b;
    }
    sk_wg_and_or(a, o, lb, partials);
}

/* lh[d] = keys of digit d in the tile at base (local atomics), for every
 * work-item (the one-sweep sort's fallback counts a predecessor tile so). */
void sk_tile_count_digits(__global const SK_KEY_T *keys, ulong base, ulong n, uint shift,
                          uint mask, SK_KEY_T flip, __local uint *lh)
{
    uint lid = get_local_id(0);
    for (uint d = lid; d < SK_RADIX; d += SK_WG) lh[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = base + k * SK_WG + lid;
        if (i < n) atomic_inc(&lh[sk_digit(keys[i], flip, shift, mask)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* hist[d * tiles + tile] = keys of digit d in the tile (local atomics). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_hist_tiles(__global const SK_KEY_T *keys, __global SK_COUNT_T *hist, ulong n,
                        ulong tiles, uint shift, uint mask, SK_KEY_T flip)
{
    __local uint lh[SK_RADIX];
    uint lid = get_local_id(0);
    ulong tile = get_group_id(0);
    sk_tile_count_digits(keys, tile * SK_TILE, n, shift, mask, flip, lh);
    for (uint d = lid; d < SK_RADIX; d += SK_WG) hist[d * tiles + tile] = lh[d];
}

/* The split's work-group scan of four packed counts (block.cl). */
SK_DEFINE_WG_SCAN(sk_wg_exclusive_ulong, ulong, sk_add, 0ul)

/* One stable split of the tile by the two bits b, b + 1 of the digit (four
 * buckets). x[] holds this work-item's entries (digit | tile index << 8) at
 * tile positions lid * SK_ITEMS + k; afterwards x[] holds the entries now
 * at those positions, ordered by the two bits, each bucket in its old
 * order. The four bucket counts of a work-item travel packed in one ulong,
 * 16 bits each (the host keeps tiles below 2^16 keys), so one work-group
 * scan places all four buckets. */
void sk_tile_split2(uint *x, uint b, __local uint *lp, __local ulong *s)
{
    uint lid = get_local_id(0);
    ulong counts = 0;
    for (uint k = 0; k < SK_ITEMS; k++) counts += 1ul << (16 * ((x[k] >> b) & 3u));
    ulong total;
    ulong pos = sk_wg_exclusive_ulong(counts, s, &total);
    ulong c0 = total & 0xffffu, c1 = (total >> 16) & 0xffffu, c2 = (total >> 32) & 0xffffu;
    pos += (c0 << 16) + ((c0 + c1) << 32) + ((c0 + c1 + c2) << 48);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint c = 16 * ((x[k] >> b) & 3u);
        lp[(uint)(pos >> c) & 0xffffu] = x[k];
        pos += 1ul << c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) x[k] = lp[lid * SK_ITEMS + k];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Sorts the tile's (digit, index) entries by digit, stably, into lp[]. Past
 * n, entries get the largest digit: they stay behind every real key. */
void sk_tile_rank(__global const SK_KEY_T *keys, ulong base, ulong n, uint shift,
                  uint mask, SK_KEY_T flip, __local uint *lp, __local ulong *s)
{
    uint lid = get_local_id(0);
    uint x[SK_ITEMS];
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = lid * SK_ITEMS + k;
        ulong i = base + j;
        uint d = i < n ? sk_digit(keys[i], flip, shift, mask) : mask;
        x[k] = d | (j << 8);
    }
    for (uint b = 0; b < SK_RADIX_BITS && (mask >> b) != 0; b += 2) sk_tile_split2(x, b, lp, s);
    for (uint k = 0; k < SK_ITEMS; k++) lp[lid * SK_ITEMS + k] = x[k];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Moves every key (and value) of the tile to its place: where the tile's
 * keys of its digit start (the scanned histogram) plus its rank among them. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_scatter_tiles(__global const SK_KEY_T *keys, __global SK_KEY_T *keys_out,
#if defined(SK_VAL_T)
                           __global const SK_VAL_T *vals, __global SK_VAL_T *vals_out,
#endif
                           __global const SK_COUNT_T *hist, ulong n, ulong tiles,
                           uint shift, uint mask, SK_KEY_T flip)
{
    __local uint lp[SK_TILE];
    __local ulong s[SK_WG_SCAN_SLOTS];
    __local uint start[SK_RADIX];
    uint lid = get_local_id(0);
    ulong tile = get_group_id(0);
    ulong base = tile * SK_TILE;
    sk_tile_rank(keys, base, n, shift, mask, flip, lp, s);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        uint d = lp[j] & 0xffu;
        if (j == 0 || (lp[j - 1] & 0xffu) != d) start[d] = j;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        uint e = lp[j];
        ulong i = base + (e >> 8);
        if (i >= n) continue;
        uint d = e & 0xffu;
        ulong dst = (ulong)hist[d * tiles + tile] + (j - start[d]);
        keys_out[dst] = keys[i];
#if defined(SK_VAL_T)
        vals_out[dst] = vals[i];
#endif
    }
}
