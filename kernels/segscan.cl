/*
 * segscan.cl - the kernels of the segmented scan besides scan.cl.
 *
 * The host configuration holds the caller's monoid: its preamble, then
 * SK_VAL_T, SK_VAL_IDENTITY and SK_VAL_COMBINE (an expression of a and b).
 *
 * With SK_OFF_T (uint or ulong): turn segment offsets into head flags,
 * check offsets, and gather one total per segment; with SK_SEG_GROUPS too
 * (and the GPU blocks), each segment's total by a work-group of its own;
 * with SK_SEG_OFFSET_CHUNKS instead (CPU shape), segment totals by
 * chunks of elements.
 *
 * With SK_FLAG_T (uchar or uint): the CPU shape's segmented scan, one work-item per chunk of
 * `chunk` elements (with SK_BY_KEY the "flags" are keys, SK_FLAG_T their
 * same-width unsigned type, uint or ulong: a segment starts where a key's
 * bits differ from the one before it, and the totals kernel also stores
 * each segment's key at its index in keys_out; with SK_BY_KEY_COUNT too,
 * every element's value is 1 and src is never read: run-length encoding
 * and reduce by key, primitives/bykey.c):
 *   sk_seg_chunk_tails   per chunk, its tail segment's combination (from
 *                        the chunk's last head, or its start, to its end),
 *                        whether it has a head, or how many heads it has;
 *   sk_seg_chunk_seeds   one work-item: exclusive scan of those partials
 *                        (the lifted monoid) and of the head counts;
 *   sk_seg_chunk_scan    the segmented scan of each chunk from its seed;
 *   sk_seg_chunk_totals  each segment's total (its running combination
 *                        stored at its index, the last store wins).
 * Element values are only loaded, combined with sk_op, selected by head
 * flags and stored; flags alone steer selects, loop bounds and the index of
 * a total, so the interval-of-summations test covers these kernels.
 */

#if !defined(SK_OFF_T) && !defined(SK_FLAG_T)
#error "segscan.cl: define SK_OFF_T or SK_FLAG_T in the host configuration"
#endif

#ifdef SK_OFF_T

/* *bad gets bit 0 when offsets are not a valid segmentation of n
 * elements: offsets[0] == 0, non-decreasing, none above n; bit 1 when a
 * segment is empty (its offset equals the next one, or n for the last). */
__kernel void sk_seg_check_offsets(__global const SK_OFF_T *offsets, ulong count, ulong n,
                                   volatile __global int *bad)
{
    ulong k = get_global_id(0);
    if (k >= count) return;
    ulong o = offsets[k];
    ulong end = k + 1 < count ? (ulong)offsets[k + 1] : n;
    int wrong = (k == 0 && o != 0) || (k > 0 && o < (ulong)offsets[k - 1]) || o > n;
    int empty = end == o;
    if (wrong || empty) atomic_or(bad, wrong | (empty << 1));
}

/* flags[offsets[k]] = 1 for every segment start below n (flags zeroed
 * before). Of equal offsets (empty segments) only the last one writes, so
 * no two work-items write the same byte. */
__kernel void sk_seg_offsets_to_flags(__global const SK_OFF_T *offsets, ulong count, ulong n,
                                      __global uchar *flags)
{
    ulong k = get_global_id(0);
    if (k >= count) return;
    ulong o = offsets[k];
    if (o < n && (k + 1 == count || (ulong)offsets[k + 1] != o)) flags[o] = 1;
}

/* totals[s] = the inclusive segmented scan at the last element of segment
 * s, or the identity for an empty segment; nothing when the offsets'
 * check failed (*bad bit 0: sk_seg_check_offsets ran before). */
__kernel void sk_seg_gather_totals(__global const SK_VAL_T *inclusive,
                                   __global const SK_OFF_T *offsets, ulong count, ulong n,
                                   __global SK_VAL_T *totals, __global const int *bad)
{
    ulong s = get_global_id(0);
    if (s >= count || (*bad & 1)) return;
    ulong begin = offsets[s];
    ulong end = s + 1 < count ? (ulong)offsets[s + 1] : n;
    totals[s] = end > begin ? inclusive[end - 1] : SK_VAL_IDENTITY;
}

#endif /* SK_OFF_T */

#ifdef SK_FLAG_T

/* The caller's operator (never swapped). */
SK_VAL_T sk_op(SK_VAL_T a, SK_VAL_T b) { return SK_VAL_COMBINE; }

/* Element i starts a segment (element 0 always does). The loops over a
 * chunk take element 0 apart and test only the flag (by key, element 0's
 * flag is 0 and is never tested against a key before it). Element i's
 * value is SK_SRC(i). */
#if defined(SK_BY_KEY)
#define SK_FLAG(i) ((i) != 0 && flags[i] != flags[(i) - 1])
#define SK_HEAD(i) ((uint)((i) == 0 || flags[i] != flags[(i) - 1]))
#define SK_KEYS_OUT_PARAM , __global SK_FLAG_T *keys_out
#define SK_STORE_KEY(s, i) (keys_out[s] = flags[i])
#else
#define SK_FLAG(i) (flags[i] != 0)
#define SK_HEAD(i) ((uint)(((i) == 0) | (flags[i] != 0)))
#define SK_KEYS_OUT_PARAM
#define SK_STORE_KEY(s, i) ((void)0)
#endif
#if defined(SK_BY_KEY_COUNT)
#define SK_SRC(i) ((SK_VAL_T)1)
#else
#define SK_SRC(i) src[i]
#endif

/* Heads in [i, end), in blocks whose count fits a uint (the compiler
 * vectorizes the inner loop; explicit vector loads would keep Oclgrind's
 * --uninitialized plugin from checking this kernel). */
ulong sk_seg_count_heads(__global const SK_FLAG_T *flags, ulong i, ulong end)
{
    ulong count = (i == 0) & !SK_FLAG(0);
    while (i < end) {
        ulong stop = i + min(end - i, (ulong)1 << 30);
        uint part = 0;
        for (; i < stop; i++) part += SK_FLAG(i);
        count += part;
    }
    return count;
}

/* pv[c]: the combination of chunk c's tail segment, from its last head (or
 * the chunk's start) to its end, combined right to left so that the order of
 * operands holds. pc[pc_off + c]: the number of heads in the chunk when
 * count_heads, else 1 if it has one. */
__kernel void sk_seg_chunk_tails(__global const SK_VAL_T *src, __global const SK_FLAG_T *flags,
                                 __global SK_VAL_T *pv, __global ulong *pc, ulong pc_off,
                                 ulong n, ulong chunk, uint count_heads)
{
    ulong c = get_global_id(0);
    ulong begin = c * chunk;
    ulong end = min(begin + chunk, n);
    ulong i = end - 1;
    SK_VAL_T acc = SK_SRC(i);
    uint found = SK_HEAD(i);
    while (!found && i > begin) {
        i--;
        acc = sk_op(SK_SRC(i), acc);
        found = SK_HEAD(i);
    }
    pv[c] = acc;
    pc[pc_off + c] = count_heads ? sk_seg_count_heads(flags, begin, end) : (ulong)found;
}

/* One work-item: pv[c] becomes the segmented combination of everything
 * before chunk c (chunk 0: the identity, never used, as element 0 is a
 * head) and pc[pc_off + c] the heads before it. */
__kernel void sk_seg_chunk_seeds(__global SK_VAL_T *pv, __global ulong *pc, ulong pc_off,
                                 ulong chunks)
{
    SK_VAL_T acc = pv[0];
    ulong heads = pc[pc_off];
    pv[0] = SK_VAL_IDENTITY;
    pc[pc_off] = 0;
    for (ulong c = 1; c < chunks; c++) {
        SK_VAL_T v = pv[c];
        ulong k = pc[pc_off + c];
        pv[c] = acc;
        pc[pc_off + c] = heads;
        SK_VAL_T joined = sk_op(acc, v);
        acc = k ? v : joined;
        heads += k;
    }
}

/* The segmented scan of elements [i, end) from acc: each element gets the
 * combination from its segment's head to itself, or with `exclusive` to
 * the element before it (the identity at a head). */
void sk_seg_scan_run(__global const SK_VAL_T *src, __global const SK_FLAG_T *flags,
                     __global SK_VAL_T *dst, ulong i, ulong end, SK_VAL_T acc, uint exclusive)
{
    if (i == 0) {
        acc = src[0];
        dst[0] = exclusive ? SK_VAL_IDENTITY : acc;
        i = 1;
    }
    for (; i < end; i++) {
        SK_VAL_T x = src[i];
        int h = SK_FLAG(i);
        SK_VAL_T joined = sk_op(acc, x);
        SK_VAL_T before = h ? SK_VAL_IDENTITY : acc;
        acc = h ? x : joined;
        dst[i] = exclusive ? before : acc;
    }
}

/* Segmented scan of chunk c from its seed pv[c] (the identity without
 * seeds). src may be dst: each element is read before it is written. */
__kernel void sk_seg_chunk_scan(__global const SK_VAL_T *src, __global const SK_FLAG_T *flags,
                                __global SK_VAL_T *dst, __global const SK_VAL_T *pv, ulong n,
                                ulong chunk, uint exclusive, uint has_seeds)
{
    ulong c = get_global_id(0);
    ulong begin = c * chunk;
    ulong end = min(begin + chunk, n);
    SK_VAL_T acc = SK_VAL_IDENTITY;
    if (has_seeds) acc = pv[c];
    /* (a constant argument: each form compiles to a loop of its own) */
    if (exclusive)
        sk_seg_scan_run(src, flags, dst, begin, end, acc, 1);
    else
        sk_seg_scan_run(src, flags, dst, begin, end, acc, 0);
}

/* totals[s] = the combination of segment s, and its key, stored where the
 * segment ends (before the next head, or at the end of the chunk's part):
 * head flags steer the stores, values are only combined. A chunk
 * stores nothing for a segment that continues into the next chunk (its
 * elements from the last head on): that chunk stores it. The last chunk
 * stores the number of segments at pc[pc_off + c + 1]. */
__kernel void sk_seg_chunk_totals(__global const SK_VAL_T *src, __global const SK_FLAG_T *flags,
                                  __global SK_VAL_T *totals, __global const SK_VAL_T *pv,
                                  __global ulong *pc, ulong pc_off, ulong n, ulong chunk,
                                  uint has_seeds SK_KEYS_OUT_PARAM)
{
    ulong c = get_global_id(0);
    ulong i = c * chunk;
    ulong end = min(i + chunk, n);
    ulong stop = end;
    if (end < n && !SK_HEAD(end)) {
        /* the chunk's last segment goes on: stop at its head (or the start) */
        do stop--;
        while (stop > i && !SK_HEAD(stop));
    }
    SK_VAL_T acc = SK_VAL_IDENTITY;
    ulong seg = 0;             /* heads up to and including i, of all chunks */
    if (has_seeds) {
        acc = pv[c];
        seg = pc[pc_off + c];
    }
    bool any = i < stop; /* the part [i, stop) holds an element */
    if (i == 0 && stop > 0) {
        acc = SK_SRC(0);
        seg = 1;
        i = 1;
    }
    for (; i < stop; i++) {
        SK_VAL_T x = SK_SRC(i);
        if (SK_FLAG(i)) { /* the segment before ends at i - 1 */
            totals[seg - 1] = acc;
            SK_STORE_KEY(seg - 1, i - 1);
            seg++;
            acc = x;
        } else {
            acc = sk_op(acc, x);
        }
    }
    if (any) {
        totals[seg - 1] = acc;
        SK_STORE_KEY(seg - 1, stop - 1);
    }
    if (end == n) pc[pc_off + c + 1] = seg;
}

#endif /* SK_FLAG_T */

#if defined(SK_SEG_OFFSET_CHUNKS)
/* ---- segment totals by offsets, CPU shape ---------------------------------
 * With SK_OFF_T and SK_VAL_COMBINE: a work-item per chunk of `chunk`
 * elements (chunks of elements, not of segments: a long segment is shared
 * out) stores the total of every segment that starts and ends in its chunk,
 * each one combination in order; the chunk's elements before its first
 * segment start (the end of a segment begun before it) go to pv[c], and
 * where its last segment goes on past the chunk, that segment's elements in
 * the chunk to pv[chunks + c]. Then a work-item per such chunk combines
 * its part with the next chunks' first parts, up to the chunk where the
 * segment ends. Offsets steer loop bounds and indices only; values are
 * only loaded, combined in order and stored. Nothing when the offsets'
 * check failed (*bad bit 0: sk_seg_check_offsets ran before). */

SK_VAL_T sk_op(SK_VAL_T a, SK_VAL_T b) { return SK_VAL_COMBINE; }

/* acc, then src[a .. b), combined in order. */
SK_VAL_T sk_seg_fold(__global const SK_VAL_T *src, ulong a, ulong b, SK_VAL_T acc)
{
    for (ulong i = a; i < b; i++) acc = sk_op(acc, src[i]);
    return acc;
}

/* The first segment s with offsets[s] >= p (count if none). */
ulong sk_seg_first_at(__global const SK_OFF_T *offsets, ulong count, ulong p)
{
    ulong lo = 0, hi = count;
    while (lo < hi) {
        ulong mid = lo + (hi - lo) / 2;
        if ((ulong)offsets[mid] < p) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Chunk c (n > 0): the totals of its segments but a last one that goes on;
 * pc[pc_off + c] = its first segment (the first starting at or after the
 * chunk's start), pc[pc_off + chunks + c] = 1 + the segment that goes on
 * past it (0: none). The last chunk also gives the empty segments at n the
 * identity. */
__kernel void sk_seg_offsets_chunks(__global const SK_VAL_T *src,
                                    __global const SK_OFF_T *offsets, ulong count, ulong n,
                                    __global SK_VAL_T *totals, __global const int *bad,
                                    __global SK_VAL_T *pv, __global ulong *pc, ulong pc_off,
                                    ulong chunk, ulong chunks)
{
    ulong c = get_global_id(0);
    if (c >= chunks || (*bad & 1)) return;
    ulong a = c * chunk, b = min(a + chunk, n);
    ulong s = sk_seg_first_at(offsets, count, a);
    pc[pc_off + c] = s;
    pv[c] = sk_seg_fold(src, a, s < count ? min((ulong)offsets[s], b) : b, SK_VAL_IDENTITY);
    SK_VAL_T part = SK_VAL_IDENTITY;
    ulong goes_on = 0;
    for (; s < count && (ulong)offsets[s] < b; s++) {
        ulong lo = offsets[s], hi = s + 1 < count ? (ulong)offsets[s + 1] : n;
        if (hi > b) { /* only the chunk's last segment can */
            part = sk_seg_fold(src, lo, b, SK_VAL_IDENTITY);
            goes_on = s + 1;
            break;
        }
        totals[s] = sk_seg_fold(src, lo, hi, SK_VAL_IDENTITY);
    }
    pv[chunks + c] = part;
    pc[pc_off + chunks + c] = goes_on;
    if (b == n)
        for (; s < count; s++) totals[s] = SK_VAL_IDENTITY; /* empty, at n */
}

/* Chunk c's last segment where it goes on: its part, then the first parts
 * of the chunks after it up to the first that has a segment start (where
 * it ends) or the last. */
__kernel void sk_seg_offsets_carry(__global const SK_VAL_T *pv, __global const ulong *pc,
                                   ulong pc_off, ulong chunks, ulong count,
                                   __global SK_VAL_T *totals, __global const int *bad)
{
    ulong c = get_global_id(0);
    if (c >= chunks || (*bad & 1)) return;
    ulong goes_on = pc[pc_off + chunks + c];
    if (goes_on == 0) return;
    SK_VAL_T acc = pv[chunks + c];
    for (ulong d = c + 1; d < chunks; d++) {
        acc = sk_op(acc, pv[d]);
        if (pc[pc_off + d] < (d + 1 < chunks ? pc[pc_off + d + 1] : count)) break;
    }
    totals[goes_on - 1] = acc;
}
#endif /* SK_SEG_OFFSET_CHUNKS */

#if defined(SK_SEG_GROUPS)
/* ---- segment totals by a work-group per segment (GPU shape) ----------------
 * With SK_OFF_T, SK_VAL_COMBINE and the GPU blocks (block.cl, tile.cl:
 * SK_WG, SK_ITEMS): work-group g totals segments g, g + groups, ... Each
 * tile of a segment's elements goes into local memory striped (coalesced),
 * each work-item combines its SK_ITEMS elements in blocked order, the
 * work-group combines the work-items' results in local-id order, and the
 * tiles' results combine in order: a fixed association that depends on
 * positions only, and operands never swap. Past the segment's end a tile
 * holds the identity. */

SK_VAL_T sk_op(SK_VAL_T a, SK_VAL_T b) { return SK_VAL_COMBINE; }
SK_DEFINE_WG_REDUCE(sk_seg_wg_reduce, SK_VAL_T, sk_op)
SK_DEFINE_TILE_IO(sk_seg_tile, SK_VAL_T)

/* The combination of src[lo .. hi), in order. */
SK_VAL_T sk_seg_group_total(__global const SK_VAL_T *src, ulong lo, ulong hi,
                            __local SK_VAL_T *lds, __local SK_VAL_T *s)
{
    uint lid = get_local_id(0);
    SK_VAL_T acc = SK_VAL_IDENTITY;
    for (ulong base = lo; base < hi; base += SK_TILE) {
        for (uint k = 0; k < SK_ITEMS; k++) {
            uint j = k * SK_WG + lid;
            SK_VAL_T v = SK_VAL_IDENTITY;
            if (base + j < hi) v = src[base + j];
            lds[SK_TILE_POS(j)] = v;
        }
        SK_BARRIER();
        SK_VAL_T x[SK_ITEMS];
        sk_seg_tile_to_blocked(lds, x);
        SK_VAL_T part = x[0];
        for (uint k = 1; k < SK_ITEMS; k++) part = sk_op(part, x[k]);
        /* (its barriers also keep the next tile's stores after these reads) */
        acc = sk_op(acc, sk_seg_wg_reduce(part, s));
    }
    return acc;
}

/* Whether the offsets are not a segmentation of n elements (sk_seg_check_offsets'
 * bit 0), from every work-item of the work-group: each reads a stripe of them
 * and the work-group ORs the findings. */
uint sk_seg_or(uint a, uint b) { return a | b; }
SK_DEFINE_WG_REDUCE(sk_seg_wg_or, uint, sk_seg_or)

uint sk_seg_offsets_wrong(__global const SK_OFF_T *offsets, ulong count, ulong n,
                          __local uint *s)
{
    uint wrong = 0;
    for (ulong k = get_local_id(0); k < count; k += SK_WG) {
        ulong o = offsets[k];
        ulong before = k > 0 ? (ulong)offsets[k - 1] : 0;
        wrong |= (uint)(o < before || o > n || (k == 0 && o != 0));
    }
    return sk_seg_wg_or(wrong, s);
}

/* totals[s] for every segment s; nothing when the offsets are not a
 * segmentation. With `check` every work-group checks all the offsets
 * itself and work-group 0 stores the verdict in *bad (1 or 0: no zeroing
 * needed before); without, sk_seg_check_offsets ran before and *bad bit 0
 * is its verdict. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_seg_reduce_groups(__global const SK_VAL_T *src, __global const SK_OFF_T *offsets,
                          ulong count, ulong n, __global SK_VAL_T *totals,
                          __global int *bad, uint check)
{
    __local SK_VAL_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_VAL_T s[SK_WG];
    __local uint flags[SK_WG];
    uint wrong;
    if (check) {
        wrong = sk_seg_offsets_wrong(offsets, count, n, flags);
        if (get_group_id(0) == 0 && get_local_id(0) == 0) *bad = (int)wrong;
    } else {
        wrong = (uint)(*bad & 1);
    }
    if (wrong) return; /* the same for the whole work-group */
    for (ulong seg = get_group_id(0); seg < count; seg += get_num_groups(0)) {
        ulong lo = offsets[seg];
        ulong hi = seg + 1 < count ? (ulong)offsets[seg + 1] : n;
        SK_VAL_T total = sk_seg_group_total(src, lo, hi, lds, s);
        if (get_local_id(0) == 0) totals[seg] = total;
    }
}
#endif /* SK_SEG_GROUPS */
