/*
 * bykey_tile.cl - run-length encoding and reduce by key in the GPU shape
 * (primitives/bykey.c): one pass over the keys (and values) in tiles whose
 * head counts, and nothing else, are combined across work-groups by
 * decoupled look-back, as the compaction's kept counts are; the runs that
 * cross tiles are then joined by one work-group's scan over one record per
 * tile (sk_bykey_tiles_join).
 *
 * The host places before this text: the caller's monoid and segscan_lift.cl
 * with SK_SEG_TOTALS and SK_SEG_COUNT_T uint (sk_seg_t: a value and a head
 * count), SK_KB (the keys' same-width unsigned type), SK_BYKEY_COUNT for
 * run-length encoding (every value a 1 of the count monoid, none read;
 * totals stored as ulong), SK_SHAPE_GPU, SK_WG, SK_ITEMS (at most 32),
 * SK_LB_T uint with its add, block.cl, tile.cl, lookback.cl and
 * bykey_bits.cl.
 *
 * A work-item takes SK_ITEMS consecutive elements: their head bits
 * (bykey_bits.cl) and values in registers, folded into one lifted element
 * (the open run's value, the heads). A work-group scan of those gives each
 * work-item the run open at its first element (its value from the run's
 * head or from the tile's start) and the heads before it in the tile; the
 * look-back on the tile's head count gives the heads before the tile. Then
 * each work-item walks its elements again: at a head it stores the head's
 * key at that run's place and, for the run that ends before it, the total
 * when the run started inside the tile, or else the part from the tile's
 * start (the run started in an earlier tile: pres[tile]; a tile with no
 * head leaves the identity there). Each tile leaves
 * its lifted total in aggs[tile]: the last run's part from its head (or
 * the whole tile's value, with no head) and its head count.
 *
 * The join scans those records in order, in rounds of SK_BT_JOIN_ITEMS
 * consecutive ones a work-item: the inclusive result at tile t is the run open where tile t + 1 starts (its
 * value from its head, and the heads up to it). Where tile t + 1 has a
 * head, that run ends there: its total is that value combined with
 * pres[t + 1]. The last tile's result is the last run's total and the
 * number of runs. Association depends on sizes only: totals round the same
 * run to run, floats included.
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

/* The heads of the tile at base, in every work-item (s: the work-group
 * scan's slots): the look-back's fallback for a tile whose count stays
 * unpublished. */
uint sk_bt_tile_heads(__global const SK_KB *keys, ulong base, ulong n, __local uint *s)
{
    uint mine = popcount(sk_bykey_head_bits(keys, base + get_local_id(0) * SK_ITEMS, n));
    uint total;
    sk_wg_exclusive_sum(mine, s, &total);
    return total;
}

/* Tiles numbered in the order work-groups start (sk_lb_take_tile); see the
 * top of the file. vals is unused (the keys) with SK_BYKEY_COUNT. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_bykey_tiles(__global const SK_KB *keys, __global const sk_val_t *vals,
                    __global sk_lb_word *state, uint epoch, ulong tiles,
                    __global SK_KB *keys_out, __global sk_bykey_total_t *totals,
                    __global sk_seg_t *aggs, __global sk_val_t *pres, ulong n)
{
    __local sk_seg_t s[SK_WG_SCAN_SLOTS];
    __local uint counts[SK_WG_SCAN_SLOTS];
    __local sk_lb_local l;
    __local uint slot;
    uint tile = sk_lb_take_tile(state, tiles, &slot);
    ulong first = (ulong)tile * SK_TILE + get_local_id(0) * SK_ITEMS;
    bool whole = first + SK_ITEMS <= n;
    uint heads = sk_bykey_head_bits(keys, first, n);
    sk_val_t v[SK_ITEMS];
    sk_bt_load_values(vals, first, n, v);

    sk_seg_t mine = SK_SEG_IDENTITY;
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++)
        if (whole || first + k < n) mine = sk_seg_combine(mine, sk_seg(v[k], (heads >> k) & 1));
    sk_seg_t total;
    sk_seg_t before = sk_bt_wg_scan(mine, s, &total);

    sk_lb_walk w = sk_lb_begin(state, epoch, tile, total.c, 1);
    for (uint p; (p = sk_lb_step(state, epoch, &w, &l)) != SK_LB_NONE;)
        sk_lb_fallback(state, epoch, &w, p,
                       sk_bt_tile_heads(keys, (ulong)p * SK_TILE, n, counts), &l);
    ulong out = sk_lb_end(state, epoch, &w, &l);

    sk_val_t acc = before.v;
    uint c = before.c; /* heads of the tile before the element */
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = first + k;
        if (!whole && i >= n) continue; /* a constant trip count keeps v in registers */
        if ((heads >> k) & 1) {
            if (c > 0)
                totals[out + c - 1] = SK_BYKEY_TOTAL(acc);
            else if (i > 0)
                pres[tile] = acc;
            keys_out[out + c] = keys[i];
            c++;
            acc = v[k];
        } else {
            acc = sk_val_op(acc, v[k]);
        }
    }
    if (get_local_id(0) == 0) {
        aggs[tile] = total;
        if (total.c == 0) pres[tile] = sk_val_identity(); /* read, never used, by the join */
    }
    SK_LB_AFTER_OUTPUT();
    if (get_local_id(0) == 0) sk_lb_publish_late(state, epoch, tile, 0, total.c);
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
