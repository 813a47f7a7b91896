/*
 * segscan_lift_io.cl - where the lifted scan of segscan_lift.cl reads its
 * elements and writes its results: scan.cl's level-0 SK_IN_* / SK_LOAD
 * and SK_OUT_* / SK_STORE. The host places SK_FLAG_T (uchar or uint) and,
 * for an exclusive scan, SK_SEG_EXCLUSIVE before this text.
 *
 * Element i is (sk_vals[i], head flag), element 0 always a head. Results:
 *   inclusive         sk_out[i] = v;
 *   SK_SEG_EXCLUSIVE  sk_out[i] = the identity at a head, else v;
 *   SK_SEG_TOTALS     the last element of each segment stores its total at
 *                     sk_totals[c - 1], the last element the number of
 *                     segments at *sk_count.
 * Flags and head counts steer selects, branches and the index of a total;
 * values are only stored. sk_io_* serve segscan_tile.cl's own tile.
 */

#define SK_HEAD(i) ((uint)((i) == 0 || sk_flags[i] != 0))
#define SK_IN_PARAMS __global const sk_val_t *sk_vals, __global const SK_FLAG_T *sk_flags
#define SK_IN_ARGS sk_vals, sk_flags
#define SK_LOAD(i) sk_seg(sk_vals[i], SK_HEAD(i))

#if defined(SK_SHAPE_GPU)
/* For segscan_tile.cl: the head bits of elements first .. first +
 * SK_ITEMS - 1 (none past n; element 0 a head whatever its flag); whole
 * runs of uchar flags at a 4-byte aligned address are read four to a
 * word. */
uint sk_io_heads(SK_IN_PARAMS, ulong first, ulong n)
{
    uint heads = (uint)(first == 0);
    bool whole = first + SK_ITEMS <= n;
#if SK_ITEMS % 4 == 0
    const bool bytes = sizeof(SK_FLAG_T) == 1;
    if (bytes && whole && ((ulong)(sk_flags + first) & 3) == 0) {
        __global const uint *w = (__global const uint *)(sk_flags + first);
        for (uint q = 0; q < SK_ITEMS / 4; q++) {
            uint word = w[q];
            for (uint b = 0; b < 4; b++)
                heads |= (uint)(((word >> (8 * b)) & 0xffu) != 0) << (4 * q + b);
        }
        return heads;
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++)
        if (whole || first + k < n) heads |= (uint)(sk_flags[first + k] != 0) << k;
    (void)sk_vals;
    return heads;
}

/* Whether element i (0 < i < n) starts a segment. */
uint sk_io_head_at(SK_IN_PARAMS, ulong i)
{
    (void)sk_vals;
    return sk_flags[i] != 0;
}
#endif

#ifdef SK_SEG_TOTALS

void sk_seg_store_total(ulong i, sk_seg_t r, __global const SK_FLAG_T *sk_flags,
    __global sk_val_t *totals, __global ulong *count, ulong n)
{
    if (i + 1 == n || sk_flags[i + 1] != 0) totals[r.c - 1] = r.v;
    if (i + 1 == n) *count = r.c;
}

#define SK_OUT_PARAMS __global sk_val_t *sk_totals, __global ulong *sk_count, ulong sk_n
#define SK_OUT_ARGS sk_totals, sk_count, sk_n
#define SK_STORE(i, r) sk_seg_store_total((i), (r), sk_flags, sk_totals, sk_count, sk_n)

#if defined(SK_SHAPE_GPU)
/* For segscan_tile.cl: segment c (from 1) ends at element i with total v. */
void sk_io_total(SK_IN_PARAMS, SK_OUT_PARAMS, ulong i, SK_SEG_COUNT_T c, sk_val_t v)
{
    sk_totals[c - 1] = v;
    if (i + 1 == sk_n) *sk_count = c;
    (void)sk_vals, (void)sk_flags;
}
#endif

#else

#define SK_OUT_PARAMS __global sk_val_t *sk_out
#define SK_OUT_ARGS sk_out
#ifdef SK_SEG_EXCLUSIVE
#define SK_STORE(i, r) (sk_out[i] = SK_HEAD(i) ? sk_val_identity() : (r).v)
#else
#define SK_STORE(i, r) (sk_out[i] = (r).v)
#endif

#endif /* SK_SEG_TOTALS */
