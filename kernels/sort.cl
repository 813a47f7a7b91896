/*
 * sort.cl - LSD radix sort passes, in two shapes.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T       uint or ulong: the key's bits (keys are never converted)
 *   SK_KEY_BITS    32 or 64
 *   SK_KEY_KIND    0 unsigned, 1 signed integer, 2 IEEE float
 *   SK_COUNT_T     uint, or ulong when n may reach 2^32
 *   SK_RADIX_BITS  digit width (GPU shape: at most 8); SK_RADIX = 1 << SK_RADIX_BITS
 *   SK_VAL_T       uint or ulong when values travel with the keys (pairs)
 *   SK_SHAPE_GPU   tiles of SK_WG x SK_ITEMS keys per work-group
 *   or SK_SHAPE_CPU one work-item per contiguous chunk, work-group size 1
 *
 * Keys are ordered by their transformed bits (sk_key_bits): unsigned keys
 * as they are, signed keys with the sign bit flipped, floats in IEEE
 * totalOrder (all bits flipped when the sign is set, else the sign bit), and
 * `flip` (all ones for descending, else 0) XOR-ed on top. One pass sorts by
 * the digit (bits >> shift) & mask. Histograms are digit-major: the count of
 * digit d in part p (chunk or tile) of P parts is hist[d * P + p], so that
 * after an exclusive scan hist[d * P + p] is where part p's keys of digit d
 * go. Every pass is stable, so the whole sort is.
 */

#ifndef SK_KEY_T
#error "sort.cl: SK_KEY_T must be defined by the host configuration"
#endif

#define SK_RADIX (1u << SK_RADIX_BITS)
#define SK_SIGN ((SK_KEY_T)1 << (SK_KEY_BITS - 1))

/* The bits a key is ordered by (see the top of the file). */
SK_KEY_T sk_key_bits(SK_KEY_T k, SK_KEY_T flip)
{
#if SK_KEY_KIND == 1
    k ^= SK_SIGN;
#elif SK_KEY_KIND == 2
    /* Sign set: all ones (flip every bit); sign clear: the sign bit. */
    SK_KEY_T m = ((SK_KEY_T)0 - (k >> (SK_KEY_BITS - 1))) | SK_SIGN;
    k ^= m;
#endif
    return k ^ flip;
}

uint sk_digit(SK_KEY_T k, SK_KEY_T flip, uint shift, uint mask)
{
    return (uint)(sk_key_bits(k, flip) >> shift) & mask;
}

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

#define SK_TILE (SK_WG * SK_ITEMS)

/* partials[2g] = AND, partials[2g+1] = OR of the transformed keys that
 * work-group g's work-items visit (stride: the whole launch). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_bounds_groups(__global const SK_KEY_T *keys, __global SK_KEY_T *partials,
                           ulong n, SK_KEY_T flip)
{
    __local SK_KEY_T la[SK_WG];
    __local SK_KEY_T lo[SK_WG];
    uint lid = get_local_id(0);
    SK_KEY_T a = ~(SK_KEY_T)0, o = 0;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        SK_KEY_T b = sk_key_bits(keys[i], flip);
        a &= b;
        o |= b;
    }
    la[lid] = a;
    lo[lid] = o;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = SK_WG / 2; d > 0; d >>= 1) {
        if (lid < d) {
            la[lid] &= la[lid + d];
            lo[lid] |= lo[lid + d];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partials[2 * get_group_id(0)] = la[0];
        partials[2 * get_group_id(0) + 1] = lo[0];
    }
}

/* hist[d * tiles + tile] = keys of digit d in the tile (local atomics). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_hist_tiles(__global const SK_KEY_T *keys, __global SK_COUNT_T *hist, ulong n,
                        ulong tiles, uint shift, uint mask, SK_KEY_T flip)
{
    __local uint lh[SK_RADIX];
    uint lid = get_local_id(0);
    ulong tile = get_group_id(0);
    ulong base = tile * SK_TILE;
    for (uint d = lid; d < SK_RADIX; d += SK_WG) lh[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = base + k * SK_WG + lid;
        if (i < n) atomic_inc(&lh[sk_digit(keys[i], flip, shift, mask)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < SK_RADIX; d += SK_WG) hist[d * tiles + tile] = lh[d];
}

/* Exclusive scan of one ulong per work-item through s[2 * SK_WG]
 * (Hillis-Steele, double-buffered); *total gets the sum of all. */
ulong sk_wg_exclusive_ulong(ulong v, __local ulong *s, ulong *total)
{
    uint lid = get_local_id(0);
    uint in = 0;
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < SK_WG; d <<= 1) {
        ulong add = lid >= d ? s[in * SK_WG + lid - d] : 0;
        s[(1 - in) * SK_WG + lid] = s[in * SK_WG + lid] + add;
        in = 1 - in;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    ulong inclusive = s[in * SK_WG + lid];
    *total = s[in * SK_WG + SK_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    return inclusive - v;
}

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
    __local ulong s[2 * SK_WG];
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

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Work-item c owns keys [c * chunk, min((c + 1) * chunk, n)). Histograms
 * are private arrays: no local memory, no atomics. */

/* AND and OR of the chunk's transformed keys (partials[2c], [2c+1]), and
 * its histogram of the digit at (shift, mask), which the host uses for the
 * first pass when that digit turns out to be the first one sorted. */
__kernel void sk_sort_bounds_chunks(__global const SK_KEY_T *keys, __global SK_KEY_T *partials,
                                    __global SK_COUNT_T *hist, ulong n, ulong chunk,
                                    ulong parts, uint shift, uint mask, SK_KEY_T flip)
{
    ulong c = get_global_id(0);
    ulong end = min((c + 1) * chunk, n);
    SK_KEY_T a = ~(SK_KEY_T)0, o = 0;
    SK_COUNT_T h[SK_RADIX];
    for (uint d = 0; d < SK_RADIX; d++) h[d] = 0;
    for (ulong i = c * chunk; i < end; i++) {
        SK_KEY_T b = sk_key_bits(keys[i], flip);
        a &= b;
        o |= b;
        h[(uint)(b >> shift) & mask]++;
    }
    partials[2 * c] = a;
    partials[2 * c + 1] = o;
    for (uint d = 0; d < SK_RADIX; d++) hist[d * parts + c] = h[d];
}

__kernel void sk_sort_hist_chunks(__global const SK_KEY_T *keys, __global SK_COUNT_T *hist,
                                  ulong n, ulong chunk, ulong parts, uint shift, uint mask,
                                  SK_KEY_T flip)
{
    ulong c = get_global_id(0);
    ulong end = min((c + 1) * chunk, n);
    SK_COUNT_T h[SK_RADIX];
    for (uint d = 0; d < SK_RADIX; d++) h[d] = 0;
    for (ulong i = c * chunk; i < end; i++) h[sk_digit(keys[i], flip, shift, mask)]++;
    for (uint d = 0; d < SK_RADIX; d++) hist[d * parts + c] = h[d];
}

/* Walks the chunk in order, so keys of one digit keep their order. */
__kernel void sk_sort_scatter_chunks(__global const SK_KEY_T *keys, __global SK_KEY_T *keys_out,
#if defined(SK_VAL_T)
                                     __global const SK_VAL_T *vals, __global SK_VAL_T *vals_out,
#endif
                                     __global const SK_COUNT_T *hist, ulong n, ulong chunk,
                                     ulong parts, uint shift, uint mask, SK_KEY_T flip)
{
    ulong c = get_global_id(0);
    ulong end = min((c + 1) * chunk, n);
    SK_COUNT_T off[SK_RADIX];
    for (uint d = 0; d < SK_RADIX; d++) off[d] = hist[d * parts + c];
    for (ulong i = c * chunk; i < end; i++) {
        SK_KEY_T k = keys[i];
        SK_COUNT_T dst = off[sk_digit(k, flip, shift, mask)]++;
        keys_out[dst] = k;
#if defined(SK_VAL_T)
        vals_out[dst] = vals[i];
#endif
    }
}

#else
#error "sort.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
