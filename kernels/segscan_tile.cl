/*
 * segscan_tile.cl - the segmented scan's own tile for scan.cl's GPU shape
 * (scan.cl's SK_OWN_TILE): a work-item holds its SK_ITEMS values in
 * registers and their head flags as the bits of one word, instead of
 * SK_ITEMS lifted (value, flag) elements of segscan_lift.cl.
 *
 * The host places this text after the block layer (block.cl, tile.cl,
 * lookback.cl), with segscan_lift.cl (not SK_SEG_TOTALS) and
 * segscan_lift_io.cl earlier in the configuration, and SK_TILE_VEC4 there
 * where the value has 4 bytes. What moves where:
 *   - values go through local memory as a tile of sk_val_t (tile.cl's
 *     layout: 16 bytes per access where they are 4 bytes, and a whole tile
 *     of a 4-byte value 16 bytes per global access), the lifted elements'
 *     tile took 8 or more bytes per element each way;
 *   - flags are read straight into registers in blocked order (a
 *     work-item's flags are contiguous: SK_ITEMS bytes or words, in 32-bit
 *     words where the tile is whole and the array 4-byte aligned);
 *   - a work-item's values are combined from its last head on (the lifted
 *     combine of its elements, in the same order), the work-group scans
 *     one lifted element per work-item (block.cl), and the stores select
 *     by head bits as the lifted elements' did: results are bit for bit
 *     those of the lifted tile of the same size.
 * Head bits steer selects and which path loads; values never steer.
 */

#if defined(SK_SEG_TOTALS)
#error "segscan_tile.cl: segment totals keep the lifted tile"
#endif
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

/* The head bits of elements first .. first + SK_ITEMS - 1 (none past n;
 * element 0 is a head whatever its flag). Whole runs of uchar flags at a
 * 4-byte aligned address are read four to a word. */
uint sk_seg_tile_heads(__global const SK_FLAG_T *flags, ulong first, ulong n)
{
    uint heads = (uint)(first == 0);
    bool whole = first + SK_ITEMS <= n;
#if SK_ITEMS % 4 == 0
    const bool bytes = sizeof(SK_FLAG_T) == 1;
    if (bytes && whole && ((ulong)(flags + first) & 3) == 0) {
        __global const uint *w = (__global const uint *)(flags + first);
        for (uint q = 0; q < SK_ITEMS / 4; q++) {
            uint word = w[q];
            for (uint b = 0; b < 4; b++)
                heads |= (uint)(((word >> (8 * b)) & 0xffu) != 0) << (4 * q + b);
        }
        return heads;
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++)
        if (whole || first + k < n) heads |= (uint)(flags[first + k] != 0) << k;
    return heads;
}

/* Loads one tile (the identity and no head past n) into x in blocked
 * order: values striped into local memory and back out blocked, head bits
 * straight from the flags. */
void sk_tile_load(SK_IN_PARAMS, ulong base, ulong n, __local sk_val_t *lds, sk_tile_regs x)
{
    uint lid = get_local_id(0);
    if (!sk_tile_copy_in(sk_vals, 0, base, n, lds)) {
        for (uint k = 0; k < SK_ITEMS; k++) {
            uint j = k * SK_WG + lid;
            ulong i = base + j;
            sk_val_t v = sk_val_identity();
            if (i < n) v = sk_vals[i];
            lds[SK_TILE_POS(j)] = v;
        }
    }
    x->heads = sk_seg_tile_heads(sk_flags, base + (ulong)lid * SK_ITEMS, n);
    SK_BARRIER();
    sk_tile_to_blocked(lds, x->v);
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

/* The lifted combination of a work-item's elements: that tail, and whether
 * it has a head. (A macro: Oclgrind 21.10 cannot create a kernel into
 * which a function returning a struct was inlined next to the tile's
 * registers, llvm.experimental.noalias.scope.decl.) */
#define sk_thread_reduce(x) sk_seg(sk_seg_tile_tail(x), (x)->heads != 0)

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
