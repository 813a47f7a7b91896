/*
 * compact.cl - stream compaction (select-if, select-flagged, unique,
 * stable partition) in two shapes, on offsets from scankit's scan.
 *
 * The host places a configuration before this text:
 *   SK_T            element type (uint, int, ulong, long, float, double)
 *   SK_C            count / offset type: uint, or ulong when n >= 2^32
 *   one of
 *   SK_KEEP_IF      keep x where sk_pred(x) holds (the host defines sk_pred
 *                   from the caller's expression)
 *   SK_KEEP_FLAGS   keep element i where flags[i] != 0; SK_FLAG_T is uchar
 *                   or uint
 *   SK_KEEP_UNIQUE  keep element i where i == 0 or src[i] != src[i - 1]
 *   SK_V            with values: the value type (uint or ulong), carried
 *                   along with the kept keys
 *   SK_SHAPE_GPU    tiles of SK_WG x SK_ITEMS elements per work-group
 *   or SK_SHAPE_CPU one work-item per contiguous chunk, work-group size 1
 *
 * Every kernel takes the same leading arguments (src, flags, vsrc); flags
 * and vsrc are unused unless SK_KEEP_FLAGS / SK_V say otherwise (the host
 * then passes src for them).
 *
 * Three launches and the scan: count the kept elements of every chunk or
 * tile (plus a zero after the last), exclusive-scan those counts on the host
 * side with sk_scan_exclusive (which leaves the total in the extra slot),
 * then every chunk or tile re-evaluates the predicate and writes its kept
 * elements from its offset on; a partition writes its rejected elements
 * from total + (rejected before it) on (`partition` 1: sk_partition), or
 * from n - 1 - (rejected before it) backwards (`partition` 2:
 * sk_partition_reversed). No flag array goes through global memory.
 *
 * With SK_LOOKBACK (and lookback.cl in the configuration) the GPU shape
 * also selects in one pass, the count and the scan folded into the write
 * kernel by decoupled look-back, and partitions in two: the pass writes
 * the rejected elements from the end backwards (the total is not known
 * before the last tile), then sk_compact_reverse_tail puts them back in
 * order (a reversed partition stops after the pass).
 *
 * The GPU shape is built on block.cl (sk_wg_exclusive_sum, the keep counts'
 * scan) and tile.cl (SK_TILE, the tile's layout in local memory). It moves
 * its tiles itself: the load keeps each element's keep flag beside it, the
 * blocked read takes keys, values and flags in one loop that counts the
 * kept ones, the writes send each element to its own place.
 */

#ifndef SK_T
#error "compact.cl: SK_T must be defined by the host configuration"
#endif
#ifndef SK_C
#error "compact.cl: SK_C must be defined by the host configuration"
#endif

#ifndef SK_FLAG_T
#define SK_FLAG_T uchar
#endif

#if defined(SK_V)
#define SK_HAS_V 1
#else
#define SK_V uint
#endif

#define SK_PARAMS                                                              \
    __global const SK_T *src, __global const SK_FLAG_T *flags,                 \
        __global const SK_V *vsrc

/* 1 when element i (whose value is x) is kept, else 0. */
#if defined(SK_KEEP_IF)
#define SK_KEEP(x, i) ((uint)(sk_pred(x) ? 1 : 0))
#elif defined(SK_KEEP_FLAGS)
#define SK_KEEP(x, i) ((uint)(flags[i] != 0))
#elif defined(SK_KEEP_UNIQUE)
#define SK_KEEP(x, i) ((uint)((i) == 0 || (x) != src[(i) - 1]))
#else
#error "compact.cl: define SK_KEEP_IF, SK_KEEP_FLAGS or SK_KEEP_UNIQUE"
#endif

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

/* The kept elements of the tile at base, in every work-item (s: the
 * work-group scan's slots). */
uint sk_tile_count(SK_PARAMS, ulong base, ulong n, __local uint *s)
{
    uint lid = get_local_id(0);
    uint kept = 0;
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = base + k * SK_WG + lid;
        if (i < n) kept += SK_KEEP(src[i], i);
    }
    uint total;
    sk_wg_exclusive_sum(kept, s, &total);
    return total;
}

/* counts[tile] = kept elements of the tile; group 0 also zeroes
 * counts[tiles], the slot the exclusive scan turns into the total. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_compact_count_tiles(SK_PARAMS, __global SK_C *counts, ulong n)
{
    __local uint s[SK_WG_SCAN_SLOTS];
    uint lid = get_local_id(0);
    ulong tile = get_group_id(0);
    uint total = sk_tile_count(src, flags, vsrc, tile * SK_TILE, n, s);
    if (lid == 0) {
        counts[tile] = total;
        if (tile == 0) counts[get_num_groups(0)] = 0;
    }
}

/* A tile in local memory, in tile.cl's layout: its keys, keep flags and
 * values at tile positions, and the work-group scan's slots. The layout
 * is block.cl's padding (the host sets no SK_TILE_VEC4 here): the load
 * stores element by element, each with its keep flag, so that the tile's
 * keys are read from global memory once. */
typedef struct sk_tile_mem {
    SK_T k[SK_TILE_LDS];
#if defined(SK_HAS_V)
    SK_V v[SK_TILE_LDS];
#endif
    uint s[SK_WG_SCAN_SLOTS];
    uchar f[SK_TILE_LDS];
} sk_tile_mem;

/* Element j of the tile (global index i, value x) into local memory. */
void sk_tile_put(SK_PARAMS, uint j, ulong i, SK_T x, __local sk_tile_mem *t)
{
    t->k[SK_TILE_POS(j)] = x;
    t->f[SK_TILE_POS(j)] = (uchar)SK_KEEP(x, i);
#if defined(SK_HAS_V)
    t->v[SK_TILE_POS(j)] = vsrc[i];
#endif
}

/* With SK_T4 (the host defines it, the 4-wide vector of a 4-byte SK_T), a
 * full tile's keys are read 16 bytes per access, striped; false for other
 * tiles. Which loop runs depends on sizes only. */
bool sk_tile_load_vec(SK_PARAMS, ulong base, ulong n, __local sk_tile_mem *t)
{
#if defined(SK_T4) && (SK_ITEMS % 4) == 0
    if (base + SK_TILE > n) return false;
    __global const SK_T4 *v = (__global const SK_T4 *)(src + base);
    uint lid = get_local_id(0);
    for (uint k = 0; k < SK_ITEMS / 4; k++) {
        uint j = k * SK_WG + lid;
        SK_T4 q = v[j];
        ulong i = base + 4 * j;
        sk_tile_put(src, flags, vsrc, 4 * j, i, q.x, t);
        sk_tile_put(src, flags, vsrc, 4 * j + 1, i + 1, q.y, t);
        sk_tile_put(src, flags, vsrc, 4 * j + 2, i + 2, q.z, t);
        sk_tile_put(src, flags, vsrc, 4 * j + 3, i + 3, q.w, t);
    }
    SK_BARRIER();
    return true;
#else
    return false;
#endif
}

/* Loads the tile striped (coalesced) into local memory with its keep flags
 * (0 past n). */
void sk_tile_load(SK_PARAMS, ulong base, ulong n, __local sk_tile_mem *t)
{
    uint lid = get_local_id(0);
    if (sk_tile_load_vec(src, flags, vsrc, base, n, t)) return;
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        ulong i = base + j;
        SK_T x = 0;
        uchar f = 0;
        if (i < n) {
            x = src[i];
            f = (uchar)SK_KEEP(x, i);
        }
        t->k[SK_TILE_POS(j)] = x;
        t->f[SK_TILE_POS(j)] = f;
#if defined(SK_HAS_V)
        t->v[SK_TILE_POS(j)] = i < n ? vsrc[i] : 0;
#endif
    }
    SK_BARRIER();
}

/* Rearranges the loaded tile in local memory: kept elements first, in
 * order, then (partition) the rejected ones, in order. Each work-item takes
 * SK_ITEMS consecutive elements (tile.cl: blocked order); a work-group
 * scan of their keep counts gives where they go. Returns the tile's kept
 * count. */
uint sk_tile_rearrange(__local sk_tile_mem *t, uint partition)
{
    uint first = get_local_id(0) * SK_ITEMS;
    SK_T x[SK_ITEMS];
    SK_V v[SK_ITEMS];
    uint f[SK_ITEMS];
    uint mine = 0;
    for (uint k = 0; k < SK_ITEMS; k++) {
        x[k] = t->k[SK_TILE_POS(first + k)];
#if defined(SK_HAS_V)
        v[k] = t->v[SK_TILE_POS(first + k)];
#endif
        f[k] = t->f[SK_TILE_POS(first + k)];
        mine += f[k];
    }
    uint kept;
    uint kp = sk_wg_exclusive_sum(mine, t->s, &kept); /* barriers: all reads done */
    uint rp = kept + first - kp;
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint to = f[k] ? kp : rp;
        if (f[k] || partition) {
            t->k[SK_TILE_POS(to)] = x[k];
#if defined(SK_HAS_V)
            t->v[SK_TILE_POS(to)] = v[k];
#endif
        }
        kp += f[k];
        rp += 1 - f[k];
    }
    SK_BARRIER();
    return kept;
}

/* Writes the rearranged tile striped (coalesced): its first `kept`
 * elements from out on; with partition, the rest of its len elements,
 * element j at rejected_base + j (partition 1) or rejected_base - j
 * (partition 2: backwards). */
void sk_tile_write(__local const sk_tile_mem *t, uint kept, ulong out, uint partition,
                   ulong rejected_base, ulong len, __global SK_T *dst, __global SK_V *vdst)
{
    uint lid = get_local_id(0);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        ulong to = j < kept ? out + j : partition == 2 ? rejected_base - j : rejected_base + j;
        if (j < kept || (partition && j < len)) {
            dst[to] = t->k[SK_TILE_POS(j)];
#if defined(SK_HAS_V)
            vdst[to] = t->v[SK_TILE_POS(j)];
#endif
        }
    }
}

/* Writes every tile's kept elements from offsets[tile] on; with partition
 * 1, its rejected ones from total + (rejected before the tile) on, total
 * being offsets[tiles]; with partition 2, from n - 1 - (rejected before the
 * tile) backwards. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_compact_write_tiles(SK_PARAMS, __global const SK_C *offsets, __global SK_T *dst,
                            __global SK_V *vdst, ulong n, uint partition)
{
    __local sk_tile_mem t;
    ulong tile = get_group_id(0);
    ulong base = tile * SK_TILE;
    sk_tile_load(src, flags, vsrc, base, n, &t);
    uint kept = sk_tile_rearrange(&t, partition);
    ulong out = offsets[tile];
    /* rejected before the tile: base - out; its j-th element (j >= kept) is
     * rejected element base - out + j - kept */
    ulong rejected_base = partition == 2 ? n - 1 - (base - out) + kept
                                         : (ulong)offsets[get_num_groups(0)] + (base - out) - kept;
    sk_tile_write(&t, kept, out, partition, rejected_base, min((ulong)SK_TILE, n - base), dst,
                  vdst);
}

#if defined(SK_LOOKBACK)
/* Select in one pass: tiles numbered in the order work-groups start; each
 * publishes its kept count and finds its output offset from its
 * predecessors' by decoupled look-back (lookback.cl, on uint counts),
 * counting a predecessor's kept elements itself where its count stays
 * unpublished (decoupled fallback; outputs are never inputs here). The
 * last tile writes the total kept to *total. With partition (1 or 2),
 * each tile's rejected elements go from the end backwards: the r-th
 * rejected element of the input to dst[n - 1 - r] (for partition 1,
 * sk_compact_reverse_tail then reverses dst[total, n)). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_compact_select_lookback(SK_PARAMS, __global sk_lb_word *state, uint epoch, ulong tiles,
                                __global SK_T *dst, __global SK_V *vdst,
                                __global SK_C *total, ulong n, uint partition)
{
    __local sk_tile_mem t;
    __local sk_lb_local l;
    __local uint slot;
    uint tile = sk_lb_take_tile(state, tiles, &slot);
    ulong base = (ulong)tile * SK_TILE;
    sk_tile_load(src, flags, vsrc, base, n, &t);
    uint kept = sk_tile_rearrange(&t, partition);
    sk_lb_walk w = sk_lb_begin(state, epoch, tile, kept, 1);
    for (uint p; (p = sk_lb_step(state, epoch, &w, &l)) != SK_LB_NONE;)
        sk_lb_fallback(state, epoch, &w, p,
                       sk_tile_count(src, flags, vsrc, (ulong)p * SK_TILE, n, t.s), &l);
    ulong out = sk_lb_end(state, epoch, &w, &l);
    if (get_local_id(0) == 0 && tile == tiles - 1) *total = (SK_C)(out + kept);
    /* rejected before the tile: base - out; its j-th element (j >= kept) is
     * rejected element base - out + j - kept */
    ulong last = n - 1 - (base - out) + kept;
    sk_tile_write(&t, kept, out, partition ? 2 : 0, last, min((ulong)SK_TILE, n - base), dst,
                  vdst);
    SK_LB_AFTER_OUTPUT();
    if (get_local_id(0) == 0) sk_lb_publish_late(state, epoch, tile, 0, kept);
}

/* Reverses dst[*total, n) (and vdst's) in place: the rejected elements of
 * a one-pass partition back in input order. Work-items stride over the
 * pairs to swap. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_compact_reverse_tail(__global SK_T *dst, __global SK_V *vdst,
                             __global const SK_C *total, ulong n)
{
    ulong first = (ulong)total[0], swaps = (n - first) / 2;
    for (ulong i = get_global_id(0); i < swaps; i += get_global_size(0)) {
        ulong a = first + i, b = n - 1 - i;
        SK_T x = dst[a];
        dst[a] = dst[b];
        dst[b] = x;
#if defined(SK_HAS_V)
        SK_V v = vdst[a];
        vdst[a] = vdst[b];
        vdst[b] = v;
#endif
    }
}
#endif

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Work-item c owns elements [c * chunk, min((c + 1) * chunk, n)). */

/* counts[c] = kept elements of chunk c; work-item 0 also zeroes
 * counts[chunks], the slot the exclusive scan turns into the total. */
__kernel void sk_compact_count_chunks(SK_PARAMS, __global SK_C *counts, ulong n,
                                      ulong chunk)
{
    ulong c = get_global_id(0);
    ulong i = c * chunk;
    ulong end = min(i + chunk, n);
    SK_C kept = 0;
    for (; i < end; i++) kept += SK_KEEP(src[i], i);
    counts[c] = kept;
    if (c == 0) counts[get_global_size(0)] = 0;
}

/* Select: chunk c writes its kept elements to [offsets[c], offsets[c + 1]).
 * Every element is stored at the next free slot and the slot advances only
 * when it is kept (no branch on the predicate); a rejected element's store
 * is overwritten by the next kept one, and the loop ends as soon as the
 * chunk's last kept element is stored, so no store leaves the range. */
void sk_select_chunk(SK_PARAMS, __global SK_T *dst, __global SK_V *vdst, ulong i,
                     SK_C o, SK_C end_o)
{
#if !defined(SK_HAS_V)
    /* Four at a time while four stores cannot pass end_o: the slots depend
     * on the running count only once per group. */
    for (; end_o - o >= 4; i += 4) {
        SK_T x0 = src[i], x1 = src[i + 1], x2 = src[i + 2], x3 = src[i + 3];
        SK_C k0 = SK_KEEP(x0, i), k1 = SK_KEEP(x1, i + 1), k2 = SK_KEEP(x2, i + 2);
        SK_C k3 = SK_KEEP(x3, i + 3);
        dst[o] = x0;
        dst[o + k0] = x1;
        dst[o + k0 + k1] = x2;
        dst[o + k0 + k1 + k2] = x3;
        o += k0 + k1 + k2 + k3;
    }
#endif
    for (; o < end_o; i++) {
        SK_T x = src[i];
        dst[o] = x;
#if defined(SK_HAS_V)
        vdst[o] = vsrc[i];
#endif
        o += SK_KEEP(x, i);
    }
}

/* Partition: kept elements from o on, rejected ones from r on (partition
 * 1) or from r backwards (partition 2), one store each. */
void sk_partition_chunk(SK_PARAMS, __global SK_T *dst, __global SK_V *vdst, ulong i,
                        ulong end, SK_C o, SK_C r, uint partition)
{
    SK_C step = partition == 2 ? (SK_C)-1 : (SK_C)1; /* added modulo 2^bits */
    for (; i < end; i++) {
        SK_T x = src[i];
        SK_C f = SK_KEEP(x, i);
        SK_C to = f ? o : r;
        dst[to] = x;
#if defined(SK_HAS_V)
        vdst[to] = vsrc[i];
#endif
        o += f;
        r += (1 - f) * step;
    }
}

__kernel void sk_compact_write_chunks(SK_PARAMS, __global const SK_C *offsets,
                                      __global SK_T *dst, __global SK_V *vdst, ulong n,
                                      ulong chunk, uint partition)
{
    ulong c = get_global_id(0);
    ulong i = c * chunk;
    ulong end = min(i + chunk, n);
    SK_C o = offsets[c];
    if (partition) {
        /* rejected before the chunk: i - o */
        SK_C r = partition == 2 ? (SK_C)(n - 1 - (i - o))
                                : offsets[get_global_size(0)] + (SK_C)(i - o);
        sk_partition_chunk(src, flags, vsrc, dst, vdst, i, end, o, r, partition);
    } else {
        sk_select_chunk(src, flags, vsrc, dst, vdst, i, o, offsets[c + 1]);
    }
}

#else
#error "compact.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
