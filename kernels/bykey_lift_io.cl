/*
 * bykey_lift_io.cl - run-length encoding and reduce by key in one lifted
 * scan (primitives/bykey.c): scan.cl's level-0 SK_IN_* / SK_LOAD and
 * SK_OUT_* / SK_STORE over the segment totals' monoid (segscan_lift.cl
 * with SK_SEG_TOTALS: an element is (v, c), its value and the runs
 * started up to it, its own included). The host places SK_KB (the keys'
 * same-width unsigned type, uint or ulong) and, for run-length encoding,
 * SK_BYKEY_COUNT, then bykey_bits.cl, before this text.
 *
 * Element i is (values[i], head), or (1, head) with SK_BYKEY_COUNT (no
 * values read); head is 1 where i == 0 or key i's bits differ from key
 * i - 1's, so a tile or chunk finds its first head against the key before
 * it, and its open run is completed by the carry into its successor. The
 * last element of each run stores the run's key and total at index c - 1
 * (c, the runs started up to it, is the count of heads before the run plus
 * one), the last element of all the number of runs at *count. Keys steer
 * the flags, branches and indices; values are only combined and stored.
 * This replaces the head flags map, the segment totals and the compaction
 * of the keys (three passes over n) by one scan.
 */

#ifndef SK_KB
#error "bykey_lift_io.cl: SK_KB must be set by the host"
#endif
#ifndef SK_SEG_TOTALS
#error "bykey_lift_io.cl: the segment totals' lifted monoid (SK_SEG_TOTALS) comes first"
#endif

#define SK_BYKEY_HEAD(i) ((uint)((i) == 0 || sk_keys[i] != sk_keys[(i) - 1]))

#if defined(SK_BYKEY_COUNT)
#define SK_IN_PARAMS __global const SK_KB *sk_keys
#define SK_IN_ARGS sk_keys
#define SK_LOAD(i) sk_seg((sk_val_t)1, SK_BYKEY_HEAD(i))
#else
#define SK_IN_PARAMS __global const SK_KB *sk_keys, __global const sk_val_t *sk_vals
#define SK_IN_ARGS sk_keys, sk_vals
#define SK_LOAD(i) sk_seg(sk_vals[i], SK_BYKEY_HEAD(i))
#endif

#if defined(SK_BYKEY_COUNT)
#define SK_IO_ONES 1
#endif

#if defined(SK_SHAPE_GPU)
/* For segscan_tile.cl: the head bits of elements first .. first +
 * SK_ITEMS - 1 (none past n), each key against the one before it
 * (bykey_bits.cl, placed before this text). */
uint sk_io_heads(SK_IN_PARAMS, ulong first, ulong n)
{
    return sk_bykey_head_bits(sk_keys, first, n);
}

/* Whether element i (0 < i < n) starts a run. */
uint sk_io_head_at(SK_IN_PARAMS, ulong i) { return sk_keys[i] != sk_keys[i - 1]; }
#endif

/* Element i's result r: at a run's last element its key and total. */
void sk_bykey_store(ulong i, sk_seg_t r, __global const SK_KB *keys, __global SK_KB *keys_out,
                    __global sk_bykey_total_t *totals, __global ulong *count, ulong n)
{
    uint last = i + 1 == n;
    if (last || keys[i + 1] != keys[i]) {
        keys_out[r.c - 1] = keys[i];
        totals[r.c - 1] = SK_BYKEY_TOTAL(r.v);
    }
    if (last) *count = r.c;
}

#define SK_OUT_PARAMS                                                                   \
    __global SK_KB *sk_keys_out, __global sk_bykey_total_t *sk_totals,                  \
        __global ulong *sk_count, ulong sk_n
#define SK_OUT_ARGS sk_keys_out, sk_totals, sk_count, sk_n
#define SK_STORE(i, r) \
    sk_bykey_store((i), (r), sk_keys, sk_keys_out, sk_totals, sk_count, sk_n)

#if defined(SK_SHAPE_GPU)
/* For segscan_tile.cl: run c (from 1) ends at element i with total v. */
void sk_io_total(SK_IN_PARAMS, SK_OUT_PARAMS, ulong i, SK_SEG_COUNT_T c, sk_val_t v)
{
    sk_keys_out[c - 1] = sk_keys[i];
    sk_totals[c - 1] = SK_BYKEY_TOTAL(v);
    if (i + 1 == sk_n) *sk_count = c;
}
#endif
