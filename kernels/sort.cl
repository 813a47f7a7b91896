/*
 * sort.cl - LSD radix sort passes, in two shapes.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T       uint or ulong: the key's bits (keys are never converted)
 *   SK_KEY_BITS    32 or 64
 *   SK_KEY_KIND    0 unsigned, 1 signed integer, 2 IEEE float
 *   SK_COUNT_T     uint, or ulong when n may reach 2^32
 *   SK_RADIX_BITS  digit width (GPU shape: at most 8); SK_RADIX = 1 << SK_RADIX_BITS
 *   SK_VAL_T       uint or ulong when values travel with the keys (pairs),
 *   SK_VAL_BITS    32 or 64 with it
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

/* partials[2g], partials[2g + 1] = the AND and the OR of every work-item's
 * a and o in work-group g. */
void sk_wg_and_or(SK_KEY_T a, SK_KEY_T o, __local SK_KEY_T *la, __local SK_KEY_T *lo,
                  __global SK_KEY_T *partials)
{
    uint lid = get_local_id(0);
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

/* partials[2g] = AND, partials[2g+1] = OR of the transformed keys that
 * work-group g's work-items visit (stride: the whole launch). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_bounds_groups(__global const SK_KEY_T *keys, __global SK_KEY_T *partials,
                           ulong n, SK_KEY_T flip)
{
    __local SK_KEY_T la[SK_WG];
    __local SK_KEY_T lo[SK_WG];
    SK_KEY_T a = ~(SK_KEY_T)0, o = 0;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        SK_KEY_T b = sk_key_bits(keys[i], flip);
        a &= b;
        o |= b;
    }
    sk_wg_and_or(a, o, la, lo, partials);
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

/* Exclusive scans of one T per work-item through s[2 * SK_WG]
 * (Hillis-Steele, double-buffered); *total gets the sum of all. One body
 * for the two types used: ulong (the three-step split) and uint (the
 * one-sweep counters). */
#define SK_DEFINE_WG_EXCLUSIVE(T)                                              \
    T sk_wg_exclusive_##T(T v, __local T *s, T *total)                         \
    {                                                                          \
        uint lid = get_local_id(0);                                            \
        uint in = 0;                                                           \
        s[lid] = v;                                                            \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        for (uint d = 1; d < SK_WG; d <<= 1) {                                 \
            T add = lid >= d ? s[in * SK_WG + lid - d] : (T)0;                 \
            s[(1 - in) * SK_WG + lid] = s[in * SK_WG + lid] + add;             \
            in = 1 - in;                                                       \
            barrier(CLK_LOCAL_MEM_FENCE);                                      \
        }                                                                      \
        T inclusive = s[in * SK_WG + lid];                                     \
        *total = s[in * SK_WG + SK_WG - 1];                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        return inclusive - v;                                                  \
    }
SK_DEFINE_WG_EXCLUSIVE(ulong)
SK_DEFINE_WG_EXCLUSIVE(uint)

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

#if defined(SK_ONESWEEP)
/* ---- one sweep per digit (Onesweep: Adinets & Merrill, 2022) -------------
 *
 * sk_sort_count_digits counts every digit of the sort's bit range at once,
 * and the keys' AND and OR (which digits differ at all), in one read of the
 * keys; the host scans those counts (sk_scan_exclusive over all digits
 * back to back) into where each digit value starts. Then one launch per
 * digit that differs: each work-group takes the next tile number from an
 * atomic counter, counts its tile's digits and publishes the counts, ranks
 * the tile's keys stably in local memory (by warp votes on NVIDIA GPUs,
 * else by local splits), finds for each digit value how many keys of
 * earlier tiles have it by decoupled look-back over the published counts,
 * and writes its keys (and values) to their places.
 *
 * state[0] is the tile counter; state[1 + t * SK_RADIX + d] is tile t's word
 * for digit value d: 0 while empty, else a status in the two high bits and a
 * count in the low 30 (n < 2^30 on this path):
 *   SK_OS_AGGREGATE  keys of digit d in tile t
 *   SK_OS_PREFIX     keys of digit d in tiles 0 .. t
 * The host zeroes the state (sk_sort_zero) before every launch. Counts and
 * statuses steer the walk; the keys' order never depends on timing. */

#define SK_OS_AGGREGATE 0x40000000u
#define SK_OS_PREFIX 0x80000000u
#define SK_OS_COUNT(w) ((w) & 0x3fffffffu)
/* Tile positions in local memory, one padding word per 32 against bank
 * conflicts of the blocked accesses (work-item lid, item k: lid * SK_ITEMS + k). */
#define SK_OS_PAD(j) ((j) + ((j) >> 5))
#define SK_OS_TILE_WORDS SK_OS_PAD(SK_TILE)

/* words[0 .. count) = 0: the digit counts and the look-back state start
 * from zero (a kernel rather than clEnqueueFillBuffer, whose stores
 * Oclgrind's uninitialised-value check does not see). */
__kernel void sk_sort_zero(__global uint *words, ulong count)
{
    for (ulong i = get_global_id(0); i < count; i += get_global_size(0)) words[i] = 0;
}

/* The split's counters: for bucket c (0..15) and work-item t, a 16-bit
 * count in word (c % 8) * SK_WG + t, half c / 8 (low, high); words padded
 * like tile positions. Counting walks a work-item's own column; the scan
 * reads eight consecutive words per work-item. */
#define SK_OS_COUNTER_WORDS SK_OS_PAD(8 * SK_WG)

__local uint *sk_os_counter(__local uint *cnt, uint c)
{
    return cnt + SK_OS_PAD((c & 7u) * SK_WG + get_local_id(0));
}

/* Turns the counters into where each (bucket, work-item) run starts: an
 * exclusive scan of the words in order (raked, eight per work-item). The
 * low halves then hold the positions of buckets 0..7 (the counts stay
 * below 2^16, so they never carry into the high half); the high halves,
 * buckets 8..15, need the low halves' total on top. */
void sk_os_scan_counters(__local uint *cnt, __local uint *s)
{
    uint lid = get_local_id(0);
    uint v[8], sum = 0, total;
    for (uint i = 0; i < 8; i++) {
        v[i] = cnt[SK_OS_PAD(lid * 8 + i)];
        sum += v[i];
    }
    uint run = sk_wg_exclusive_uint(sum, s, &total) + (total << 16);
    for (uint i = 0; i < 8; i++) {
        cnt[SK_OS_PAD(lid * 8 + i)] = run;
        run += v[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* One stable split of the tile by the four digit bits b .. b + 3 (sixteen
 * buckets): x[] holds this work-item's entries (digit | tile index << 8),
 * in tile order at positions lid * SK_ITEMS + k; afterwards lp[] holds all
 * entries ordered by those bits, each bucket in its old order. */
void sk_os_split4(const uint *x, uint b, __local uint *lp, __local uint *cnt, __local uint *s)
{
    for (uint w = 0; w < 8; w++) *sk_os_counter(cnt, w) = 0;
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint c = (x[k] >> b) & 15u;
        *sk_os_counter(cnt, c) += 1u << ((c >> 3) * 16);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    sk_os_scan_counters(cnt, s);
    /* The counters now say where this work-item's next entry of each bucket
     * goes: place the entries in order, moving the counter on. */
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint c = (x[k] >> b) & 15u;
        __local uint *w = sk_os_counter(cnt, c);
        uint shift = (c >> 3) * 16, at = *w;
        *w = at + (1u << shift);
        lp[SK_OS_PAD((at >> shift) & 0xffffu)] = x[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The tile's entries sorted by digit, stably, into lp[]. */
void sk_os_rank(uint *x, uint mask, __local uint *lp, __local uint *cnt, __local uint *s)
{
    uint lid = get_local_id(0);
    for (uint b = 0; b < SK_RADIX_BITS && (mask >> b) != 0; b += 4) {
        if (b > 0) {
            for (uint k = 0; k < SK_ITEMS; k++) x[k] = lp[SK_OS_PAD(lid * SK_ITEMS + k)];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        sk_os_split4(x, b, lp, cnt, s);
    }
}

/* Reads a look-back word: an atomic or of 0 (OpenCL 1.2 has no atomic
 * load), or with SK_OS_POLL_VOLATILE (the host sets it on NVIDIA GPUs) a
 * volatile load: one aligned 32-bit access, which sees each atomic write
 * whole there, though the OpenCL 1.2 model (and Oclgrind's race check)
 * calls it a race with the writes. */
uint sk_os_read(__global uint *word)
{
#if defined(SK_OS_POLL_VOLATILE)
    return *(volatile __global uint *)word;
#else
    return atomic_or(word, 0u);
#endif
}

#ifndef SK_OS_LOOK_BACK_DEPTH
#define SK_OS_LOOK_BACK_DEPTH 8
#endif

/* Walks back from tile `tile` over the words of digit value d until a
 * PREFIX: the keys of digit d in all earlier tiles. Reads the nearest
 * word first (usually a PREFIX already), then SK_OS_LOOK_BACK_DEPTH words
 * at once, adds them from the nearest back, and reads again from the
 * first that was still empty (its tile has started: its number was taken
 * before this one). */
uint sk_os_look_back(__global uint *state, uint tile, uint d)
{
    uint before = 0;
    long next = (long)tile - 1;
    if (next < 0) return 0;
    uint w0 = sk_os_read(state + 1 + (ulong)next * SK_RADIX + d);
    if (w0 & SK_OS_PREFIX) return SK_OS_COUNT(w0);
    if (w0 != 0) {
        before = SK_OS_COUNT(w0);
        next--;
    }
    while (next >= 0) {
        uint w[SK_OS_LOOK_BACK_DEPTH];
        for (uint i = 0; i < SK_OS_LOOK_BACK_DEPTH; i++)
            w[i] = next >= (long)i ? sk_os_read(state + 1 + (ulong)(next - i) * SK_RADIX + d)
                                   : SK_OS_PREFIX;
        for (uint i = 0; i < SK_OS_LOOK_BACK_DEPTH && w[i] != 0; i++, next--) {
            before += SK_OS_COUNT(w[i]);
            if (w[i] & SK_OS_PREFIX) return before;
        }
    }
    return before;
}

/* The next tile number, the same for every work-item. */
uint sk_os_take_tile(__global uint *state, __local uint *slot)
{
    if (get_local_id(0) == 0) *slot = atomic_inc(state);
    barrier(CLK_LOCAL_MEM_FENCE);
    return *slot;
}

/* Full tiles load their keys as 16-byte vectors (a work-item's keys are
 * consecutive and start at a multiple of the vector), unless
 * SK_OS_SCALAR_LOADS. */
#if SK_KEY_BITS == 32
#define SK_OS_VEC_T uint4
#define SK_OS_VEC_N 4
#else
#define SK_OS_VEC_T ulong2
#define SK_OS_VEC_N 2
#endif
#if (SK_ITEMS % SK_OS_VEC_N) == 0 && !defined(SK_OS_SCALAR_LOADS)
#define SK_OS_VEC_LOADS 1
#endif

typedef union sk_os_keys {
    SK_OS_VEC_T v;
    SK_KEY_T s[SK_OS_VEC_N];
} sk_os_keys;

/* One key of sk_sort_count_digits: into the AND and OR, each of its digits
 * counted in lh[]. */
void sk_os_count_key(SK_KEY_T key, SK_KEY_T flip, uint digits, uint shift0, uint last_mask,
                     SK_KEY_T *a, SK_KEY_T *o, __local uint *lh)
{
    SK_KEY_T b = sk_key_bits(key, flip);
    *a &= b;
    *o |= b;
    for (uint p = 0; p < digits; p++) {
        uint mask = p + 1 < digits ? SK_RADIX - 1 : last_mask;
        uint d = (uint)(b >> (shift0 + p * SK_RADIX_BITS)) & mask;
        atomic_inc(&lh[p * SK_RADIX + d]);
    }
}

/* In one read of the keys: counts[p * SK_RADIX + d] += keys whose digit p
 * is d, for digits p < `digits`, digit p at bits shift0 + p * SK_RADIX_BITS
 * (the last one masked by last_mask), and partials[2g], partials[2g + 1] =
 * the AND and the OR of the transformed keys work-group g visits (which
 * digits differ at all, so which sweeps are needed). Grid-stride over
 * 16-byte vectors of keys, then the few keys past the last whole one;
 * local counts, then global atomics. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_count_digits(__global const SK_KEY_T *keys, __global uint *counts,
                          __global SK_KEY_T *partials, ulong n, uint digits, uint shift0,
                          uint last_mask, SK_KEY_T flip)
{
    __local uint lh[SK_MAX_DIGITS * SK_RADIX];
    __local SK_KEY_T la[SK_WG];
    __local SK_KEY_T lo[SK_WG];
    uint lid = get_local_id(0);
    for (uint d = lid; d < digits * SK_RADIX; d += SK_WG) lh[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    SK_KEY_T a = ~(SK_KEY_T)0, o = 0;
    ulong whole = n / SK_OS_VEC_N;
    __global const SK_OS_VEC_T *vkeys = (__global const SK_OS_VEC_T *)keys;
    for (ulong q = get_global_id(0); q < whole; q += get_global_size(0)) {
        sk_os_keys v;
        v.v = vkeys[q];
        for (uint r = 0; r < SK_OS_VEC_N; r++)
            sk_os_count_key(v.s[r], flip, digits, shift0, last_mask, &a, &o, lh);
    }
    for (ulong i = whole * SK_OS_VEC_N + get_global_id(0); i < n; i += get_global_size(0))
        sk_os_count_key(keys[i], flip, digits, shift0, last_mask, &a, &o, lh);
    sk_wg_and_or(a, o, la, lo, partials);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < digits * SK_RADIX; d += SK_WG)
        if (lh[d]) atomic_add(&counts[d], lh[d]);
}

/* Key k of this work-item (tile position j): into lk[], its entry into
 * x[k], its digit counted in lh[]. */
void sk_os_take_key(SK_KEY_T key, uint j, uint shift, uint mask, SK_KEY_T flip,
                    __local SK_KEY_T *lk, uint *entry, __local uint *lh)
{
    uint d = sk_digit(key, flip, shift, mask);
    lk[SK_OS_PAD(j)] = key;
    *entry = d | (j << 8);
    atomic_inc(&lh[d]);
}

/* Loads this work-item's keys (tile positions lid * SK_ITEMS + k) into
 * lk[], makes their entries and counts the tile's digits into lh[]. Past n:
 * entries with the largest digit, not counted (they sort behind every real
 * key). */
void sk_os_load(__global const SK_KEY_T *keys, ulong base, ulong n, uint shift, uint mask,
                SK_KEY_T flip, __local SK_KEY_T *lk, uint *x, __local uint *lh)
{
    uint first = get_local_id(0) * SK_ITEMS;
#if defined(SK_OS_VEC_LOADS)
    if (base + SK_TILE <= n) {
        __global const SK_OS_VEC_T *src = (__global const SK_OS_VEC_T *)(keys + base + first);
        for (uint q = 0; q < SK_ITEMS / SK_OS_VEC_N; q++) {
            sk_os_keys v;
            v.v = src[q];
            for (uint r = 0; r < SK_OS_VEC_N; r++) {
                uint k = q * SK_OS_VEC_N + r;
                sk_os_take_key(v.s[r], first + k, shift, mask, flip, lk, &x[k], lh);
            }
        }
        return;
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = base + first + k;
        if (i < n) {
            sk_os_take_key(keys[i], first + k, shift, mask, flip, lk, &x[k], lh);
        } else {
            lk[SK_OS_PAD(first + k)] = 0;
            x[k] = mask | ((first + k) << 8);
        }
    }
}

#if defined(SK_VAL_T)
/* Values move as the keys do: 16-byte vectors in full tiles. */
#if SK_VAL_BITS == 32
#define SK_OS_VVEC_T uint4
#define SK_OS_VVEC_N 4
#else
#define SK_OS_VVEC_T ulong2
#define SK_OS_VVEC_N 2
#endif

typedef union sk_os_values {
    SK_OS_VVEC_T v;
    SK_VAL_T s[SK_OS_VVEC_N];
} sk_os_values;

/* This work-item's values (tile positions lid * SK_ITEMS + k) into lv[]. */
void sk_os_load_values(__global const SK_VAL_T *vals, ulong base, ulong n,
                       __local SK_VAL_T *lv)
{
    uint first = get_local_id(0) * SK_ITEMS;
#if (SK_ITEMS % SK_OS_VVEC_N) == 0 && !defined(SK_OS_SCALAR_LOADS)
    if (base + SK_TILE <= n) {
        __global const SK_OS_VVEC_T *src =
            (__global const SK_OS_VVEC_T *)(vals + base + first);
        for (uint q = 0; q < SK_ITEMS / SK_OS_VVEC_N; q++) {
            sk_os_values v;
            v.v = src[q];
            for (uint r = 0; r < SK_OS_VVEC_N; r++)
                lv[SK_OS_PAD(first + q * SK_OS_VVEC_N + r)] = v.s[r];
        }
        return;
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++)
        if (base + first + k < n) lv[SK_OS_PAD(first + k)] = vals[base + first + k];
}
#endif

/* lstart[d] = the tile's keys of digits below d: an exclusive scan of
 * lh[], each work-item summing a run of digit values. */
void sk_os_digit_starts(__local const uint *lh, __local uint *lstart, __local uint *s)
{
    const uint per = (SK_RADIX + SK_WG - 1) / SK_WG;
    uint first = min((uint)get_local_id(0) * per, (uint)SK_RADIX);
    uint end = min(first + per, (uint)SK_RADIX);
    uint sum = 0, total;
    for (uint d = first; d < end; d++) sum += lh[d];
    uint run = sk_wg_exclusive_uint(sum, s, &total);
    for (uint d = first; d < end; d++) {
        lstart[d] = run;
        run += lh[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Publishes the tile's digit counts (tile 0: as prefixes), before its
 * keys are placed, so that later tiles can go on. `unused` keys past n,
 * counted under the largest digit value `mask`, are left out. */
void sk_os_publish(__global uint *mine, uint tile, uint mask, __local const uint *lh,
                   uint unused)
{
    for (uint d = get_local_id(0); d <= mask; d += SK_WG)
        atomic_xchg(mine + d, (tile == 0 ? SK_OS_PREFIX : SK_OS_AGGREGATE) |
                                  (lh[d] - (d == mask ? unused : 0u)));
}

/* lbase[d] = where the tile's keys of digit value d go, less their tile
 * position lstart[d]: the digit's start (starts[]: scanned counts of all
 * digits back to back, so digit `digit`'s values carry digit * n before
 * them) plus the keys of earlier tiles (look-back), whose sum this tile
 * then publishes as its prefix. */
void sk_os_bases(__global const uint *starts, __global uint *state, uint tile, ulong n,
                 uint digit, uint mask, __local const uint *lh, __local const uint *lstart,
                 __local uint *lbase, uint unused)
{
    __global uint *mine = state + 1 + (ulong)tile * SK_RADIX;
    for (uint d = get_local_id(0); d <= mask; d += SK_WG) {
        uint before = sk_os_look_back(state, tile, d);
        uint count = lh[d] - (d == mask ? unused : 0u);
        if (tile > 0) atomic_xchg(mine + d, SK_OS_PREFIX | (before + count));
        lbase[d] = starts[digit * SK_RADIX + d] - digit * (uint)n + before - lstart[d];
    }
}

/* sk_sort_onesweep's parameters, the same in both rankings. */
#if defined(SK_VAL_T)
#define SK_OS_VALUE_PARAMS __global const SK_VAL_T *vals, __global SK_VAL_T *vals_out,
#else
#define SK_OS_VALUE_PARAMS
#endif
#define SK_OS_SWEEP_SIGNATURE                                                               \
    void sk_sort_onesweep(__global const SK_KEY_T *keys, __global SK_KEY_T *keys_out,       \
                          SK_OS_VALUE_PARAMS __global const uint *starts,                  \
                          __global uint *state, ulong n, uint digit, uint shift, uint mask, \
                          SK_KEY_T flip)

#if defined(SK_OS_WARP_MATCH) && !defined(SK_OS_SPLIT_RANK)
/* ---- ranking by warp match (NVIDIA GPUs of compute capability 7.0 and up,
 * through inline PTX; the host sets SK_OS_WARP_MATCH there, and
 * SK_OS_SPLIT_RANK takes the portable ranking instead) -------------
 *
 * Warps of 32 work-items, in order of local id. Warp w holds tile positions
 * w * 32 * SK_ITEMS .. + 32 * SK_ITEMS, its item k at lane l being position
 * w * 32 * SK_ITEMS + k * 32 + l (warp-striped: every load a contiguous
 * 128 bytes). The warp ranks its items k = 0, 1, ... in turn: the lanes
 * with the same digit find each other (a vote per digit bit), the lowest
 * of them adds their number to the warp's counter of that digit, and each
 * lane's rank is the counter's old value plus the matching lanes below it. A scan over the
 * warps' counters, digit by digit, then a scan over the digits give every
 * key its place in the tile, in the order of the tile's positions within a
 * digit: stable. */
#define SK_OS_WARPS (SK_WG / 32)
#if SK_WG % 32 != 0
#error "sort.cl: ranking by warp match needs work-groups of whole warps"
#endif

/* The lanes of this warp whose digit is d: a vote per digit bit (the
 * match.any instruction measured slower: bench/NOTES-gpu.md). */
uint sk_os_match_peers(uint d)
{
    uint peers = 0xffffffffu;
#pragma unroll
    for (uint b = 0; b < SK_RADIX_BITS; b++) {
        uint lanes = sk_warp_ballot((d >> b) & 1u);
        peers &= (d >> b) & 1u ? lanes : ~lanes;
    }
    return peers;
}

/* Ranks this work-item's items within its warp: r[k] = items with the
 * digit of item k (key[k]'s below `live`, else the largest) before it in
 * the warp's order, counted in lwc[warp * SK_RADIX + digit]. */
void sk_os_warp_rank(const SK_KEY_T *key, uint live, uint *r, __local uint *lwc,
                     SK_KEY_T flip, uint shift, uint mask)
{
    uint below = sk_warp_lanes_below();
    __local uint *wc = lwc + (get_local_id(0) / 32) * SK_RADIX;
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint d = k < live ? sk_digit(key[k], flip, shift, mask) : mask;
        uint peers = sk_os_match_peers(d);
        uint first = 31u - clz(peers & (0u - peers));
        uint old = 0;
        if ((peers & below) == 0) old = atomic_add(&wc[d], popcount(peers));
        r[k] = sk_warp_idx(old, first) + popcount(peers & below);
    }
}

/* Turns the warps' counters into where each warp's keys of a digit start
 * among the tile's keys of that digit; lh[d] = the tile's count of d. */
void sk_os_warp_offsets(__local uint *lwc, __local uint *lh)
{
    for (uint d = get_local_id(0); d < SK_RADIX; d += SK_WG) {
        uint sum = 0;
        for (uint w = 0; w < SK_OS_WARPS; w++) {
            uint c = lwc[w * SK_RADIX + d];
            lwc[w * SK_RADIX + d] = sum;
            sum += c;
        }
        lh[d] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
SK_OS_SWEEP_SIGNATURE
{
    /* The tile's keys and values in their sorted order. */
    __local SK_KEY_T lk[SK_TILE];
#if defined(SK_VAL_T)
    __local SK_VAL_T lv[SK_TILE];
#endif
    __local uint lwc[SK_OS_WARPS * SK_RADIX];
    __local uint ls[2 * SK_WG];
    __local uint lh[SK_RADIX];
    __local uint lstart[SK_RADIX];
    __local uint lbase[SK_RADIX];
    __local uint slot;
    uint lid = get_local_id(0);
    for (uint i = lid; i < SK_OS_WARPS * SK_RADIX; i += SK_WG) lwc[i] = 0;
    /* (its barrier also orders the counters' zeroing before their use) */
    uint tile = sk_os_take_tile(state, &slot);
    ulong base = (ulong)tile * SK_TILE;
    ulong first = base + (lid / 32) * 32 * SK_ITEMS + lid % 32;
    uint unused = base + SK_TILE > n ? (uint)(base + SK_TILE - n) : 0u;

    /* This work-item's items below `live` are keys; the rest, past n, take
     * the largest digit and sort behind every key. */
    uint live = n > first ? (uint)min((n - first + 31) / 32, (ulong)SK_ITEMS) : 0u;
    SK_KEY_T key[SK_ITEMS];
    uint r[SK_ITEMS];
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) key[k] = k < live ? keys[first + k * 32] : 0;
#if defined(SK_VAL_T)
    /* The values' loads go out now and arrive during the ranking. */
    SK_VAL_T v[SK_ITEMS];
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) v[k] = k < live ? vals[first + k * 32] : 0;
#endif
    /* Each warp ranks as soon as its own keys are in. */
    sk_os_warp_rank(key, live, r, lwc, flip, shift, mask);
    barrier(CLK_LOCAL_MEM_FENCE);
    sk_os_warp_offsets(lwc, lh);
    sk_os_publish(state + 1 + (ulong)tile * SK_RADIX, tile, mask, lh, unused);
    sk_os_digit_starts(lh, lstart, ls);

    __local uint *wc = lwc + (lid / 32) * SK_RADIX;
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint d = k < live ? sk_digit(key[k], flip, shift, mask) : mask;
        r[k] += lstart[d] + wc[d];
        lk[r[k]] = key[k];
    }
#if defined(SK_VAL_T)
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) lv[r[k]] = v[k];
#endif
    sk_os_bases(starts, state, tile, n, digit, mask, lh, lstart, lbase, unused);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint valid = SK_TILE - unused;
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        SK_KEY_T kj = lk[j];
        uint at = lbase[sk_digit(kj, flip, shift, mask)] + j;
        if (j < valid) {
            keys_out[at] = kj;
#if defined(SK_VAL_T)
            vals_out[at] = lv[j];
#endif
        }
    }
}

#else /* ranking by local splits */

__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
SK_OS_SWEEP_SIGNATURE
{
    __local uint lp[SK_OS_TILE_WORDS];
    /* The tile's keys, later its values. */
    __local ulong4 lstage[SK_OS_STAGE_ULONG4];
    /* The splits' counters and scan. */
    __local uint lcnt[SK_OS_COUNTER_WORDS + 2 * SK_WG];
    __local uint lh[SK_RADIX];
    __local uint lstart[SK_RADIX];
    __local uint lbase[SK_RADIX];
    __local uint slot;
    uint lid = get_local_id(0);
    uint tile = sk_os_take_tile(state, &slot);
    ulong base = (ulong)tile * SK_TILE;
    for (uint d = lid; d < SK_RADIX; d += SK_WG) lh[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local SK_KEY_T *lk = (__local SK_KEY_T *)lstage;
    uint x[SK_ITEMS];
    sk_os_load(keys, base, n, shift, mask, flip, lk, x, lh);
    barrier(CLK_LOCAL_MEM_FENCE);
    sk_os_publish(state + 1 + (ulong)tile * SK_RADIX, tile, mask, lh, 0);

    sk_os_rank(x, mask, lp, lcnt, lcnt + SK_OS_COUNTER_WORDS);
    sk_os_digit_starts(lh, lstart, lcnt + SK_OS_COUNTER_WORDS);
    sk_os_bases(starts, state, tile, n, digit, mask, lh, lstart, lbase, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        uint e = lp[SK_OS_PAD(j)];
        if (base + (e >> 8) < n) keys_out[lbase[e & 0xffu] + j] = lk[SK_OS_PAD(e >> 8)];
    }
#if defined(SK_VAL_T)
    barrier(CLK_LOCAL_MEM_FENCE);
    __local SK_VAL_T *lv = (__local SK_VAL_T *)lstage;
    sk_os_load_values(vals, base, n, lv);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        uint e = lp[SK_OS_PAD(j)];
        if (base + (e >> 8) < n) vals_out[lbase[e & 0xffu] + j] = lv[SK_OS_PAD(e >> 8)];
    }
#endif
}
#endif /* SK_OS_WARP_MATCH */
#endif /* SK_ONESWEEP */

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
#if defined(SK_NT_LINES)
/* Scatter through line buffers, for sorts larger than the caches (the host
 * defines SK_NT_LINES on CPU devices, which have non-temporal stores, and
 * picks this kernel by size). Each work-item keeps, per digit value, one
 * line of SK_LINE keys (and values) in its part of the aux buffer; a key
 * goes to its line at the slot of its destination place, and a full line
 * goes out as whole cache lines by non-temporal stores: no read of the
 * destination line first (write-allocate), and one store per 16 keys in
 * the random stream instead of 16 (plain stores to 2048 digit streams
 * touch 2048 pages, more than the second-level TLB holds). On the 2-core
 * PoCL machine the three scatters of 2^24 uint32 keys took 58 ms instead
 * of 105 (bench/NOTES-cpu.md); the same lines flushed by plain stores were
 * slower than the plain scatter. Lines
 * are aligned in index space: buffers are aligned to at least 128 bytes
 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN is at least long16's size), so a place
 * that is a multiple of SK_LINE starts a cache line. A destination line
 * that another chunk (or digit) shares, at the ends of this chunk's run of
 * a digit, is written place by place.
 *
 * The same kernel counts, for every key it writes, the next pass's digit
 * (at nshift, nmask; nmask 0: no next pass, or counted by a separate
 * pass) per destination chunk, so that the next pass needs no histogram
 * read of the keys: the host makes `chunk` a multiple of SK_LINE, so a
 * line never straddles two chunks and is counted with one division. */
#define SK_LINE 16
#define SK_CAT_(a, b) a##b
#define SK_CAT(a, b) SK_CAT_(a, b)

/* The SK_LINE elements at `line` to `dst` (a multiple of SK_LINE places
 * from an aligned base) by non-temporal stores of 64 bytes. */
void sk_put_line_uint(__global const uint *line, __global uint *dst)
{
    __builtin_nontemporal_store(vload16(0, line), (__global uint16 *)dst);
}

void sk_put_line_ulong(__global const ulong *line, __global ulong *dst)
{
    __builtin_nontemporal_store(vload8(0, line), (__global ulong8 *)dst);
    __builtin_nontemporal_store(vload8(1, line), (__global ulong8 *)dst + 1);
}

#define sk_put_key_line SK_CAT(sk_put_line_, SK_KEY_T)
#if defined(SK_VAL_T)
#define sk_put_val_line SK_CAT(sk_put_line_, SK_VAL_T)
#define SK_VALS_PARAM , __global SK_VAL_T *restrict vals_out
#define SK_VALS_ARG , vals_out
#else
#define SK_VALS_PARAM
#define SK_VALS_ARG
#endif

/* A work-item's part of the aux buffer. The buffer holds every chunk's key
 * lines (SK_RADIX x SK_LINE keys each), then every chunk's value lines, then
 * (when the scatter counts the next digit) every chunk's counts (parts x
 * parts x SK_RADIX: source chunk, destination chunk, digit value). */
typedef struct sk_lines {
    __global SK_KEY_T *keys;
#if defined(SK_VAL_T)
    __global SK_VAL_T *vals;
#endif
    __global SK_COUNT_T *counts;  /* parts x SK_RADIX: destination chunk, digit */
} sk_lines;

/* Where the counts start in the aux buffer. */
__global SK_COUNT_T *sk_aux_counts(__global SK_KEY_T *aux, ulong parts)
{
    __global SK_KEY_T *end = aux + parts * SK_RADIX * SK_LINE;
#if defined(SK_VAL_T)
    end = (__global SK_KEY_T *)((__global SK_VAL_T *)end + parts * SK_RADIX * SK_LINE);
#endif
    return (__global SK_COUNT_T *)end;
}

sk_lines sk_chunk_lines(__global SK_KEY_T *aux, ulong c, ulong parts)
{
    sk_lines l;
    l.keys = aux + c * SK_RADIX * SK_LINE;
#if defined(SK_VAL_T)
    l.vals = (__global SK_VAL_T *)(aux + parts * SK_RADIX * SK_LINE) + c * SK_RADIX * SK_LINE;
#endif
    l.counts = sk_aux_counts(aux, parts) + c * parts * SK_RADIX;
    return l;
}

/* Places [from, to) of digit d's line (one line, shared with another
 * chunk or digit, or the unfilled end of a run) one by one. */
void sk_put_places(sk_lines l, uint d, SK_COUNT_T from, SK_COUNT_T to,
                   __global SK_KEY_T *restrict keys_out SK_VALS_PARAM, ulong chunk,
                   uint nshift, uint nmask, SK_KEY_T flip)
{
    __global SK_COUNT_T *h = l.counts + (from / chunk) * SK_RADIX;
    for (SK_COUNT_T q = from; q < to; q++) {
        uint slot = d * SK_LINE + (uint)(q & (SK_LINE - 1));
        SK_KEY_T k = l.keys[slot];
        keys_out[q] = k;
#if defined(SK_VAL_T)
        vals_out[q] = l.vals[slot];
#endif
        if (nmask) h[sk_digit(k, flip, nshift, nmask)]++;
    }
}

/* Digit d's full line, which starts at place `line`, by non-temporal
 * stores; counts its keys' next digit. */
void sk_put_full_line(sk_lines l, uint d, SK_COUNT_T line,
                      __global SK_KEY_T *restrict keys_out SK_VALS_PARAM, ulong chunk,
                      uint nshift, uint nmask, SK_KEY_T flip)
{
    __global const SK_KEY_T *lk = l.keys + d * SK_LINE;
    sk_put_key_line(lk, keys_out + line);
#if defined(SK_VAL_T)
    sk_put_val_line(l.vals + d * SK_LINE, vals_out + line);
#endif
    if (!nmask) return;
    __global SK_COUNT_T *h = l.counts + (line / chunk) * SK_RADIX;
    for (uint q = 0; q < SK_LINE; q++) h[sk_digit(lk[q], flip, nshift, nmask)]++;
}

/* Walks the chunk in order, so keys of one digit keep their order. */
__kernel void sk_sort_scatter_lines(__global const SK_KEY_T *restrict keys,
                                    __global SK_KEY_T *restrict keys_out,
#if defined(SK_VAL_T)
                                    __global const SK_VAL_T *restrict vals,
                                    __global SK_VAL_T *restrict vals_out,
#endif
                                    __global const SK_COUNT_T *restrict hist,
                                    __global SK_KEY_T *restrict aux, ulong n, ulong chunk,
                                    ulong parts, uint shift, uint mask, uint nshift,
                                    uint nmask, SK_KEY_T flip)
{
    ulong c = get_global_id(0);
    ulong end = min((c + 1) * chunk, n);
    sk_lines l = sk_chunk_lines(aux, c, parts);
    SK_COUNT_T off[SK_RADIX], start[SK_RADIX];
    for (uint d = 0; d < SK_RADIX; d++) start[d] = off[d] = hist[d * parts + c];
    if (nmask)
        for (ulong j = 0; j < parts * SK_RADIX; j++) l.counts[j] = 0;
    for (ulong i = c * chunk; i < end; i++) {
        SK_KEY_T k = keys[i];
        uint d = sk_digit(k, flip, shift, mask);
        SK_COUNT_T p = off[d]++;
        uint slot = (uint)(p & (SK_LINE - 1));
        l.keys[d * SK_LINE + slot] = k;
#if defined(SK_VAL_T)
        l.vals[d * SK_LINE + slot] = vals[i];
#endif
        if (slot != SK_LINE - 1) continue;
        SK_COUNT_T line = p - (SK_LINE - 1);
        if (line < start[d])
            sk_put_places(l, d, start[d], p + 1, keys_out SK_VALS_ARG, chunk, nshift, nmask,
                          flip);
        else
            sk_put_full_line(l, d, line, keys_out SK_VALS_ARG, chunk, nshift, nmask, flip);
    }
    for (uint d = 0; d < SK_RADIX; d++) {
        SK_COUNT_T e = off[d], b = max(start[d], e & ~(SK_COUNT_T)(SK_LINE - 1));
        if (b < e) sk_put_places(l, d, b, e, keys_out SK_VALS_ARG, chunk, nshift, nmask, flip);
    }
    /* Non-temporal stores are weakly ordered: fence them in. */
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}

/* The next pass's histogram from the scatter's counts: hist[d * parts + c]
 * = the sum over source chunks s of counts[(s * parts + c) * SK_RADIX + d]. */
__kernel void sk_sort_fold_chunks(__global SK_KEY_T *aux, __global SK_COUNT_T *hist, ulong parts)
{
    ulong c = get_global_id(0);
    __global const SK_COUNT_T *counts = sk_aux_counts(aux, parts);
    for (uint d = 0; d < SK_RADIX; d++) {
        SK_COUNT_T sum = 0;
        for (ulong s = 0; s < parts; s++) sum += counts[(s * parts + c) * SK_RADIX + d];
        hist[d * parts + c] = sum;
    }
}
#endif /* SK_NT_LINES */

#else
#error "sort.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
