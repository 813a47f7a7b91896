/*
 * bykey_tile.cl - run-length encoding and reduce by key in the GPU shape
 * (primitives/bykey.c): one pass over the keys (and values) in tiles
 * combined across work-groups by decoupled look-back.
 *
 * The host places before this text: the caller's monoid and segscan_lift.cl
 * with SK_SEG_TOTALS and SK_SEG_COUNT_T uint (sk_seg_t: a value and a head
 * count), SK_KB (the keys' same-width unsigned type), SK_BYKEY_COUNT for
 * run-length encoding (every value a 1 of the count monoid, none read;
 * totals stored as ulong), SK_SHAPE_GPU, SK_WG, SK_ITEMS (at most 32),
 * block.cl, tile.cl, lookback.cl and bykey_bits.cl; and the look-back's
 * element, one of
 *   SK_BT_CARRY  the lifted totals (SK_LB_T sk_seg_t, coded in one word by
 *                segscan_totals_codec.cl with SK_LB_WIDE): values of at
 *                most 4 bytes whose totals do not depend on the combining
 *                order, fewer than 2^30 elements;
 *   otherwise    head counts alone (SK_LB_T uint), as the compaction's
 *                kept counts: every monoid, in a fixed order.
 *
 * A work-item takes SK_ITEMS consecutive elements: their head bits
 * (bykey_bits.cl) and values in registers, folded into one lifted element
 * (the open run's value, the heads). A work-group scan of those gives each
 * work-item the run open at its first element (its value from the run's
 * head or from the tile's start) and the heads before it in the tile; the
 * look-back gives the tile's prefix. Then each work-item walks its
 * elements again: at a head it stores the head's key at that run's place
 * and, for the run that ends before it, the total.
 *
 * With SK_BT_CARRY the prefix completes every run: the work-item holding a
 * run's end (the next head, or element n - 1) stores its total, the last
 * one the number of runs. Otherwise a run that began in an earlier tile
 * leaves its part from the tile's start in pres[tile] (a tile with no head
 * the identity), and each tile its lifted total in aggs[tile]: the last
 * run's part from its head (or the whole tile's value, with no head) and
 * its head count; sk_bykey_tiles_join completes those runs. It scans the
 * records in order, in rounds of SK_BT_JOIN_ITEMS consecutive ones a
 * work-item: the inclusive result at tile t is the run open where tile
 * t + 1 starts (its value from its head, and the heads up to it). Where
 * tile t + 1 has a head, that run ends there: its total is that value
 * combined with pres[t + 1]. The last tile's result is the last run's
 * total and the number of runs. Association depends on sizes only: totals
 * round the same run to run, floats included.
 *
 * Keys steer the head bits, branches and indices; values are only
 * combined (in element order, never swapped) and stored. Nothing of n
 * elements is written but the runs' keys and totals.
 */

#ifndef SK_SEG_TOTALS
#error "bykey_tile.cl: the segment totals' lifted monoid (SK_SEG_TOTALS) comes first"
#endif

SK_DEFINE_WG_SCAN(sk_bt_wg_scan, sk_seg_t, sk_seg_combine, SK_SEG_IDENTITY)

/* The values of elements first .. first + SK_ITEMS - 1 into v (those past
 * n are never read); with SK_BYKEY_COUNT, ones. */
void sk_bt_load_values(__global const sk_val_t *vals, ulong first, ulong n, sk_val_t *v)
{
#if defined(SK_BYKEY_COUNT)
    for (uint k = 0; k < SK_ITEMS; k++) v[k] = (sk_val_t)1;
#else
    bool whole = first + SK_ITEMS <= n;
#if SK_ITEMS % 4 == 0
    /* 4-byte values of a whole run at a 16-byte aligned address */
    typedef union {
        uint4 q;
        sk_val_t a[4];
    } quad;
    if (sizeof(sk_val_t) == 4 && whole && ((ulong)(vals + first) & 15) == 0) {
        __global const uint4 *w = (__global const uint4 *)(vals + first);
        for (uint q = 0; q < SK_ITEMS / 4; q++) {
            quad u;
            u.q = w[q];
            for (uint k = 0; k < 4; k++) v[4 * q + k] = u.a[k];
        }
        return;
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++)
        if (whole || first + k < n) v[k] = vals[first + k];
#endif
}

/* Work-item j's part of the tile at base: its head bits, its values in
 * v and their fold, (the open run's value, its heads). */
sk_seg_t sk_bt_fold(__global const SK_KB *keys, __global const sk_val_t *vals, ulong base,
                    ulong n, uint *heads, sk_val_t *v)
{
    ulong first = base + get_local_id(0) * SK_ITEMS;
    bool whole = first + SK_ITEMS <= n;
    *heads = sk_bykey_head_bits(keys, first, n);
    sk_bt_load_values(vals, first, n, v);
    sk_seg_t mine = SK_SEG_IDENTITY;
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++)
        if (whole || first + k < n) mine = sk_seg_combine(mine, sk_seg(v[k], (*heads >> k) & 1));
    return mine;
}

#if defined(SK_BT_CARRY)
/* The look-back carries the lifted totals (lookback.cl with the segment
 * totals' codec, segscan_totals_codec.cl: values of at most 4 bytes whose
 * totals do not depend on the combining order, fewer than 2^30 elements):
 * the tile at base reduced by the work-group, its fallback. */
typedef sk_seg_t sk_bt_lb_t;
sk_seg_t sk_bt_tile_reduce(__global const SK_KB *keys, __global const sk_val_t *vals,
                           ulong base, ulong n, __local sk_seg_t *s, __local uint *counts)
{
    uint heads;
    sk_val_t v[SK_ITEMS];
    sk_seg_t total;
    (void)counts;
    sk_bt_wg_scan(sk_bt_fold(keys, vals, base, n, &heads, v), s, &total);
    return total;
}
#define SK_BT_LB_VALUE(total) (total)
#else
/* The look-back carries head counts: the tile at base's heads, its
 * fallback. */
typedef uint sk_bt_lb_t;
uint sk_bt_tile_reduce(__global const SK_KB *keys, __global const sk_val_t *vals, ulong base,
                       ulong n, __local sk_seg_t *s, __local uint *counts)
{
    uint total;
    (void)vals, (void)s;
    sk_wg_exclusive_sum(popcount(sk_bykey_head_bits(keys, base + get_local_id(0) * SK_ITEMS, n)),
                        counts, &total);
    return total;
}
#define SK_BT_LB_VALUE(total) ((total).c)
#endif

/* Tiles numbered in the order work-groups start (sk_lb_take_tile); see the
 * top of the file. vals is unused (the keys) with SK_BYKEY_COUNT; aggs and
 * pres with SK_BT_CARRY, count without. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_bykey_tiles(__global const SK_KB *keys, __global const sk_val_t *vals,
                    __global sk_lb_word *state, uint epoch, ulong tiles,
                    __global SK_KB *keys_out, __global sk_bykey_total_t *totals,
                    __global sk_seg_t *aggs, __global sk_val_t *pres, __global ulong *count,
                    ulong n)
{
    __local sk_seg_t s[SK_WG_SCAN_SLOTS];
    __local uint counts[SK_WG_SCAN_SLOTS];
    __local sk_lb_local l;
    __local uint slot;
    uint tile = sk_lb_take_tile(state, tiles, &slot);
    ulong first = (ulong)tile * SK_TILE + get_local_id(0) * SK_ITEMS;
    bool whole = first + SK_ITEMS <= n;
    uint heads;
    sk_val_t v[SK_ITEMS];
    sk_seg_t total;
    sk_seg_t before =
        sk_bt_wg_scan(sk_bt_fold(keys, vals, (ulong)tile * SK_TILE, n, &heads, v), s, &total);

    sk_lb_walk w = sk_lb_begin(state, epoch, tile, SK_BT_LB_VALUE(total), 1);
    for (uint p; (p = sk_lb_step(state, epoch, &w, &l)) != SK_LB_NONE;)
        sk_lb_fallback(state, epoch, &w, p,
                       sk_bt_tile_reduce(keys, vals, (ulong)p * SK_TILE, n, s, counts), &l);
    sk_bt_lb_t prefix = sk_lb_end(state, epoch, &w, &l);
#if defined(SK_BT_CARRY)
    /* the run open at the work-item's first element, from its head, and
     * every head before the element */
    sk_seg_t x = sk_seg_combine(prefix, before);
    sk_val_t acc = x.v;
    ulong c = x.c, out = 0;
#else
    /* from the tile's start, and the heads of the tile before the element */
    sk_val_t acc = before.v;
    ulong c = before.c, out = prefix;
#endif
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = first + k;
        if (!whole && i >= n) continue; /* a constant trip count keeps v in registers */
        if ((heads >> k) & 1) {
            if (c > 0)
                totals[out + c - 1] = SK_BYKEY_TOTAL(acc);
#if !defined(SK_BT_CARRY)
            else if (i > 0)
                pres[tile] = acc; /* the run began in an earlier tile */
#endif
            keys_out[out + c] = keys[i];
            c++;
            acc = v[k];
        } else {
            acc = sk_val_op(acc, v[k]);
        }
#if defined(SK_BT_CARRY)
        if (i + 1 == n) {
            totals[c - 1] = SK_BYKEY_TOTAL(acc);
            *count = c;
        }
#endif
    }
#if defined(SK_BT_CARRY)
    (void)aggs, (void)pres;
#else
    (void)count;
    if (get_local_id(0) == 0) {
        aggs[tile] = total;
        if (total.c == 0) pres[tile] = sk_val_identity(); /* read, never used, by the join */
    }
#endif
    SK_LB_AFTER_OUTPUT();
    if (get_local_id(0) == 0) sk_lb_publish_late(state, epoch, tile, 0, SK_BT_LB_VALUE(total));
}

/* Records a work-item of the join takes a round: twice a tile's items. */
#define SK_BT_JOIN_ITEMS (2 * SK_ITEMS)

/* One work-group: the runs that cross tile edges, the last run and the
 * number of runs (see the top of the file). A round's records are all
 * read before any is combined, so that their reads are in flight together. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_bykey_tiles_join(__global const sk_seg_t *aggs, __global const sk_val_t *pres,
                         __global sk_bykey_total_t *totals, __global ulong *count, ulong tiles)
{
    __local sk_seg_t s[SK_WG_SCAN_SLOTS];
    sk_seg_t carry = SK_SEG_IDENTITY; /* the records of the rounds before */
    for (ulong base = 0; base < tiles; base += SK_WG * SK_BT_JOIN_ITEMS) {
        ulong first = base + get_local_id(0) * SK_BT_JOIN_ITEMS;
        bool whole = first + SK_BT_JOIN_ITEMS <= tiles;
        sk_seg_t r[SK_BT_JOIN_ITEMS];
        sk_val_t pre[SK_BT_JOIN_ITEMS];
#pragma unroll
        for (uint k = 0; k < SK_BT_JOIN_ITEMS; k++) {
            if (whole || first + k < tiles) {
                r[k] = aggs[first + k];
                pre[k] = pres[first + k];
            }
        }
        sk_seg_t mine = SK_SEG_IDENTITY;
#pragma unroll
        for (uint k = 0; k < SK_BT_JOIN_ITEMS; k++)
            if (whole || first + k < tiles) mine = sk_seg_combine(mine, r[k]);
        sk_seg_t total;
        sk_seg_t x = sk_seg_combine(carry, sk_bt_wg_scan(mine, s, &total));
#pragma unroll
        for (uint k = 0; k < SK_BT_JOIN_ITEMS; k++) {
            ulong t = first + k;
            if (t >= tiles) continue; /* a constant trip count keeps r and pre in registers */
            if (t > 0 && r[k].c != 0)
                totals[x.c - 1] = SK_BYKEY_TOTAL(sk_val_op(x.v, pre[k]));
            x = sk_seg_combine(x, r[k]);
            if (t + 1 == tiles) {
                totals[x.c - 1] = SK_BYKEY_TOTAL(x.v);
                *count = x.c;
            }
        }
        carry = sk_seg_combine(carry, total);
    }
}
