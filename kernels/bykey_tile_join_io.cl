/*
 * bykey_tile_join_io.cl - the join of bykey_tile.cl's tiles by the lifted
 * scan (primitives/bykey.c, from the tuning's size): scan.cl's level-0
 * SK_IN_* / SK_LOAD and SK_OUT_* / SK_STORE over the segment totals'
 * monoid (segscan_lift.cl with SK_SEG_TOTALS and SK_SEG_COUNT_T uint,
 * then SK_BYKEY_COUNT for run-length encoding and bykey_bits.cl, placed
 * before this text), whose element t is tile t's lifted total, aggs[t]:
 * the value of its last run from that run's head (of the whole tile, with
 * no head) and its head count.
 *
 * The inclusive result r at tile t is the run open where tile t + 1
 * starts: r.v its value from its head, r.c the heads up to it, its own
 * included. Where tile t + 1 has a head, that run ends there: its total is
 * r.v combined with pres[t + 1] (the part of tile t + 1 before its first
 * head), stored at r.c - 1. The last tile's result is the last run's
 * total and, in r.c, the number of runs. Head counts steer the branches
 * and indices; values are only combined and stored.
 */

#define SK_IN_PARAMS __global const sk_seg_t *sk_aggs
#define SK_IN_ARGS sk_aggs
#define SK_LOAD(i) sk_aggs[i]

void sk_bykey_join_store(ulong t, sk_seg_t r, __global const sk_seg_t *aggs,
                         __global const sk_val_t *pres, __global sk_bykey_total_t *totals,
                         __global ulong *count, ulong tiles)
{
    if (t + 1 == tiles) {
        totals[r.c - 1] = SK_BYKEY_TOTAL(r.v);
        *count = r.c;
    } else if (aggs[t + 1].c != 0) {
        totals[r.c - 1] = SK_BYKEY_TOTAL(sk_val_op(r.v, pres[t + 1]));
    }
}

#define SK_OUT_PARAMS                                                                   \
    __global const sk_val_t *sk_pres, __global sk_bykey_total_t *sk_totals,            \
        __global ulong *sk_count, ulong sk_tiles
#define SK_OUT_ARGS sk_pres, sk_totals, sk_count, sk_tiles
#define SK_STORE(i, r) \
    sk_bykey_join_store((i), (r), sk_aggs, sk_pres, sk_totals, sk_count, sk_tiles)
