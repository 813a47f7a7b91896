/*
 * segscan_tile.cl - the segmented scans' own tile for scan.cl's GPU shape
 * (scan.cl's SK_OWN_TILE): a work-item holds its SK_ITEMS values in
 * registers and their head flags as the bits of one word, instead of
 * SK_ITEMS lifted elements of segscan_lift.cl.
 *
 * The host places this text after the block layer (block.cl, tile.cl,
 * lookback.cl), with segscan_lift.cl and an io earlier in the
 * configuration (segscan_lift_io.cl: heads from flags; bykey_lift_io.cl:
 * heads where keys change), and SK_TILE_VEC4 there where the value has 4
 * bytes. The io gives, besides scan.cl's SK_IN_* and SK_OUT_*:
 *   uint sk_io_heads(SK_IN_PARAMS, ulong first, ulong n)
 *       the head bits of elements first .. first + SK_ITEMS - 1 (bit k for
 *       element first + k; none past n; element 0 always a head);
 *   uint sk_io_head_at(SK_IN_PARAMS, ulong i)
 *       whether element i (0 < i < n) starts a segment;
 *   SK_IO_ONES (defined or not)
 *       every value is 1 and no value array is read (run lengths), else
 *       the values are sk_vals[];
 *   with SK_SEG_TOTALS (an element's head count for its segment's index):
 *   void sk_io_total(SK_IN_PARAMS, SK_OUT_PARAMS, ulong i, SK_SEG_COUNT_T c,
 *                    sk_val_t v)
 *       stores v, the total of the c-th segment, which ends at element i
 *       (and, at the last element, the number of segments);
 *   else the scan's output is sk_out[].
 * What moves where:
 *   - values go through local memory as a tile of sk_val_t (tile.cl's
 *     layout: 16 bytes per access where they are 4 bytes, and a whole tile
 *     of a 4-byte value 16 bytes per global access), where the lifted
 *     elements' tile took 8 or more bytes per element each way;
 *   - heads are read straight into registers in blocked order (a
 *     work-item's flags or keys are contiguous);
 *   - a work-item's values are combined from its last head on (the lifted
 *     combine of its elements, in the same order), the work-group scans
 *     one lifted element per work-item (block.cl), and the stores select
 *     by head bits as the lifted elements' did: results are bit for bit
 *     those of the lifted tile of the same size. Totals are stored from
 *     registers at each segment's last element.
 * Head bits steer selects, which path loads, and where totals go; values
 * never steer.
 */

#if SK_ITEMS > 32
#error "segscan_tile.cl: a work-item's head bits take one 32-bit word (SK_ITEMS <= 32)"
#endif

#define SK_OWN_TILE 1
#define SK_TILE_T sk_val_t

/* A work-item's part of a tile: values in blocked order, and bit k of
 * heads set where value k starts a segment. (An array of one, so that it
 * passes by reference as scan.cl's element arrays do.) */
typedef struct {
    sk_val_t v[SK_ITEMS];
    uint heads;
} sk_seg_tile;
typedef sk_seg_tile sk_tile_regs[1];

SK_DEFINE_TILE_IO(sk_tile, sk_val_t)

/* Loads one tile (the identity and no head past n) into x in blocked
 * order: values striped into local memory and back out blocked (or ones),
 * head bits straight from the io. */
void sk_tile_load(SK_IN_PARAMS, ulong base, ulong n, __local sk_val_t *lds, sk_tile_regs x)
{
    uint lid = get_local_id(0);
    ulong first = base + (ulong)lid * SK_ITEMS;
#if defined(SK_IO_ONES)
    for (uint k = 0; k < SK_ITEMS; k++)
        x->v[k] = first + k < n ? (sk_val_t)1 : sk_val_identity();
    (void)lds;
#else
    if (!sk_tile_copy_in(sk_vals, 0, base, n, lds)) {
        for (uint k = 0; k < SK_ITEMS; k++) {
            uint j = k * SK_WG + lid;
            ulong i = base + j;
            sk_val_t v = sk_val_identity();
            if (i < n) v = sk_vals[i];
            lds[SK_TILE_POS(j)] = v;
        }
    }
#endif
    x->heads = sk_io_heads(SK_IN_ARGS, first, n);
#if !defined(SK_IO_ONES)
    SK_BARRIER();
    sk_tile_to_blocked(lds, x->v);
#endif
}

/* The combination of a work-item's values from its last head (or its
 * first element) on, left to right. */
sk_val_t sk_seg_tile_tail(const sk_tile_regs x)
{
    sk_val_t acc = x->v[0];
    for (uint k = 1; k < SK_ITEMS; k++) {
        sk_val_t joined = sk_val_op(acc, x->v[k]);
        acc = (x->heads >> k) & 1u ? x->v[k] : joined;
    }
    return acc;
}

/* The lifted combination of a work-item's elements: that tail, and
 * whether it has a head (with SK_SEG_TOTALS, how many). (A macro: Oclgrind
 * 21.10 cannot create a kernel into which a function returning a struct
 * was inlined next to the tile's registers, the LLVM intrinsic
 * llvm.experimental.noalias.scope.decl.) */
#if defined(SK_SEG_TOTALS)
#define sk_thread_reduce(x) sk_seg(sk_seg_tile_tail(x), popcount((x)->heads))
#else
#define sk_thread_reduce(x) sk_seg(sk_seg_tile_tail(x), (x)->heads != 0)
#endif

#if defined(SK_SEG_TOTALS)

/* Stores the totals of the segments that end among this work-item's
 * elements, which start from run (the lifted combination of everything
 * before them: the open segment's value and the heads so far). An element
 * ends its segment where the next one is a head or it is the last. */
void sk_tile_store(SK_IN_PARAMS, SK_OUT_PARAMS, ulong base, ulong n, uint exclusive,
                   sk_seg_t run, const sk_tile_regs x, __local sk_val_t *lds)
{
    ulong first = base + (ulong)get_local_id(0) * SK_ITEMS;
    uint after = first + SK_ITEMS < n ? sk_io_head_at(SK_IN_ARGS, first + SK_ITEMS) : 1u;
    uint ends = (x->heads >> 1) | (after << (SK_ITEMS - 1));
    sk_val_t acc = run.v;
    SK_SEG_COUNT_T c = run.c;
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = first + k;
        uint head = (x->heads >> k) & 1u;
        sk_val_t joined = sk_val_op(acc, x->v[k]);
        acc = head ? x->v[k] : joined;
        c += head;
        if (i < n && (((ends >> k) & 1u) || i + 1 == n))
            sk_io_total(SK_IN_ARGS, SK_OUT_ARGS, i, c, acc);
    }
    SK_BARRIER();
    (void)exclusive, (void)lds;
}

#else

/* Writes a scanned tile: this work-item's elements start from run (the
 * lifted combination of everything before them); each element gets the
 * combination from its segment's head to itself, or with `exclusive` to
 * the element before it (the identity at a head). Runs of SK_TILE_RUN
 * results go to local memory as they are made, then the tile goes out
 * striped. */
void sk_tile_store(SK_IN_PARAMS, SK_OUT_PARAMS, ulong base, ulong n, uint exclusive,
                   sk_seg_t run, const sk_tile_regs x, __local sk_val_t *lds)
{
    uint lid = get_local_id(0);
    sk_val_t acc = run.v;
    for (uint k = 0; k < SK_ITEMS; k += SK_TILE_RUN) {
        sk_val_t y[SK_TILE_RUN];
        for (uint c = 0; c < SK_TILE_RUN; c++) {
            uint head = (x->heads >> (k + c)) & 1u;
            sk_val_t joined = sk_val_op(acc, x->v[k + c]);
            sk_val_t before = head ? sk_val_identity() : acc;
            acc = head ? x->v[k + c] : joined;
            y[c] = exclusive ? before : acc;
        }
        sk_tile_put(y, k, lds);
    }
    SK_BARRIER();
    if (!sk_tile_copy_out(sk_out, 0, base, n, lds)) {
        for (uint k = 0; k < SK_ITEMS; k++) {
            uint j = k * SK_WG + lid;
            ulong i = base + j;
            if (i < n) sk_out[i] = lds[SK_TILE_POS(j)];
        }
    }
    SK_BARRIER();
}

#endif /* SK_SEG_TOTALS */
