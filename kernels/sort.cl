/*
 * sort.cl - LSD radix sort, GPU shape: one sweep per digit, for sorts of
 * fewer than 2^30 keys. Built on block.cl (work-group scans, the padding
 * of tile positions) and lookback.cl (the several-counter look-back);
 * sort_keys.cl and sort_split.cl (tiles, bounds, the three-launch passes)
 * come before it. Its loads are its own rather than tile.cl's striped
 * copies: the local-split ranking reads each work-item's keys and values
 * straight in blocked order (16 bytes per access in full tiles), making
 * each key's entry and counting its digit as it goes; the warp-match
 * ranking loads warp-striped straight into registers. With
 * SK_SORT_SEGMENTS (a program of its own, sort.c's sk__sort_segments) the
 * same tiles sort segments in place, a work-group each, with no look-back.
 */

#if defined(SK_ONESWEEP)
/* ---- one sweep per digit (Onesweep: Adinets & Merrill, 2022) -------------
 *
 * sk_sort_count_digits counts every digit of the sort's bit range at once,
 * and the keys' AND and OR (which digits differ at all), in one read of the
 * keys; its last work-group scans those counts (over all digits back to
 * back) into where each digit value starts. Then one launch per
 * digit that differs: each work-group takes the next tile number from an
 * atomic counter, counts its tile's digits and publishes the counts, ranks
 * the tile's keys stably in local memory (by warp votes on NVIDIA GPUs,
 * else by local splits), finds for each digit value how many keys of
 * earlier tiles have it by decoupled look-back over the published counts,
 * and writes its keys (and values) to their places.
 *
 * The look-back is lookback.cl's with SK_RADIX counters per tile in 32-bit
 * words (status and a count below 2^30: n < 2^30 on this path), in two
 * buffers the sweeps take in turns: each sweep zeroes the other one for
 * the next (sk_os_zero), the digit count the first's. Where an earlier tile's
 * counts stay unpublished, the work-group counts that tile's digits itself
 * (sk_tile_count_digits, as the three-launch pass does) and goes on
 * (decoupled fallback, sk_os_bases). Counts and statuses steer the walk;
 * the keys' order never depends on timing. */

/* Tile positions in local memory (block.cl's padding: blocked accesses,
 * work-item lid, item k at lid * SK_ITEMS + k, conflict-free). */
#define SK_OS_TILE_WORDS SK_PAD(SK_TILE)

/* words[0 .. count) = 0 by every work-item of a launch: the look-back
 * state of each sweep is zeroed as a side job of the launch before it (the
 * digit count for the first sweep, each sweep for the next: no launch of
 * its own); the words the digit count gathers in (zero at rest), when
 * they are new, by sk_sort_zero. By kernels rather than
 * clEnqueueFillBuffer, whose stores Oclgrind's uninitialised-value check
 * does not see. */
void sk_os_zero(__global uint *words, ulong count)
{
    for (ulong i = get_global_id(0); i < count; i += get_global_size(0)) words[i] = 0;
}

__kernel void sk_sort_zero(__global uint *words, ulong count) { sk_os_zero(words, count); }

/* The split's counters: for bucket c (0..15) and work-item t, a 16-bit
 * count in word (c % 8) * SK_WG + t, half c / 8 (low, high); words padded
 * like tile positions. Counting walks a work-item's own column; the scan
 * reads eight consecutive words per work-item. */
#define SK_OS_COUNTER_WORDS SK_PAD(8 * SK_WG)

__local uint *sk_os_counter(__local uint *cnt, uint c)
{
    return cnt + SK_PAD((c & 7u) * SK_WG + get_local_id(0));
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
        v[i] = cnt[SK_PAD(lid * 8 + i)];
        sum += v[i];
    }
    uint run = sk_wg_exclusive_sum(sum, s, &total) + (total << 16);
    for (uint i = 0; i < 8; i++) {
        cnt[SK_PAD(lid * 8 + i)] = run;
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
        lp[SK_PAD((at >> shift) & 0xffffu)] = x[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The tile's entries sorted by digit, stably, into lp[]. */
void sk_os_rank(uint *x, uint mask, __local uint *lp, __local uint *cnt, __local uint *s)
{
    uint lid = get_local_id(0);
    for (uint b = 0; b < SK_RADIX_BITS && (mask >> b) != 0; b += 4) {
        if (b > 0) {
            for (uint k = 0; k < SK_ITEMS; k++) x[k] = lp[SK_PAD(lid * SK_ITEMS + k)];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        sk_os_split4(x, b, lp, cnt, s);
    }
}

/* Full tiles load their keys as 16-byte vectors where a work-item's keys
 * start at a multiple of the vector (always in a sweep; in a segment, where
 * the tile does). */
#if SK_KEY_BITS == 8
#define SK_OS_VEC_T uchar16
#define SK_OS_VEC_N 16
#elif SK_KEY_BITS == 16
#define SK_OS_VEC_T ushort8
#define SK_OS_VEC_N 8
#elif SK_KEY_BITS == 32
#define SK_OS_VEC_T uint4
#define SK_OS_VEC_N 4
#else
#define SK_OS_VEC_T ulong2
#define SK_OS_VEC_N 2
#endif
#if (SK_ITEMS % SK_OS_VEC_N) == 0
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

/* Digit counts per work-item in sk_os_scan_counts. */
#define SK_OS_COUNTS_PER ((SK_MAX_DIGITS * SK_RADIX + SK_WG - 1) / SK_WG)

/* Run by every work-group of sk_sort_count_digits once its counts are
 * added into acc[0 .. words), `digits` rows of SK_RADIX: the last
 * work-group to get there (the ticket acc[words] gives each work-group its
 * turn) takes the counts, leaving acc[0 .. words] zero again for the next
 * launch, and stores their exclusive scan, back to back, into starts[].
 * OpenCL 1.2 orders no work-group's additions before another's ticket, so
 * the last one reads the counts again until every row sums to n (each key
 * adds one to each row): the additions of work-groups that took their
 * tickets are under way, so it never waits on one that has not run. Every
 * work-group goes through the same barriers, the others with nothing to
 * read (PoCL 3.1 lost the last work-group's stores behind an early
 * return). */
void sk_os_scan_counts(__global uint *acc, __global uint *starts, uint words, uint digits,
                       uint n, __local uint *last, __local uint *tot, __local uint *s)
{
    uint lid = get_local_id(0);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) *last = atomic_inc(&acc[words]) == get_num_groups(0) - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    bool is_last = *last != 0;
    uint v[SK_OS_COUNTS_PER], sum = 0, total;
    for (;;) {
        for (uint p = lid; p < SK_MAX_DIGITS; p += SK_WG) tot[p] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < SK_OS_COUNTS_PER; k++) {
            uint i = lid * SK_OS_COUNTS_PER + k;
            v[k] = is_last && i < words ? atomic_or(&acc[i], 0u) : 0u;
            if (v[k]) atomic_add(&tot[i / SK_RADIX], v[k]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        bool whole = true;
        for (uint p = 0; p < digits; p++) whole = whole && tot[p] == n;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!is_last || whole) break;
    }
    if (is_last && lid == 0) atomic_xchg(&acc[words], 0u);
    for (uint k = 0; k < SK_OS_COUNTS_PER; k++) {
        uint i = lid * SK_OS_COUNTS_PER + k;
        if (is_last && i < words) atomic_xchg(&acc[i], 0u);
        sum += v[k];
    }
    uint run = sk_wg_exclusive_sum(sum, s, &total);
    for (uint k = 0; k < SK_OS_COUNTS_PER; k++) {
        uint i = lid * SK_OS_COUNTS_PER + k;
        if (is_last && i < words) starts[i] = run;
        run += v[k];
    }
}

/* In one read of the keys: starts[p * SK_RADIX + d] = where keys whose
 * digit p is d start, for digits p < `digits`, digit p at bits shift0 + p *
 * SK_RADIX_BITS (the last one masked by last_mask): the exclusive scan of
 * every digit's counts back to back, counted in acc[] (digits * SK_RADIX
 * words and a ticket, zero before and after the launch). And partials[2g],
 * partials[2g + 1] = the AND and the OR of the transformed keys work-group
 * g visits (which digits differ at all, so which sweeps are needed).
 * Grid-stride over 16-byte vectors of keys, then the few keys past the
 * last whole one; local counts, then global atomics, then the last
 * work-group's scan (sk_os_scan_counts). */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_count_digits(__global const SK_KEY_T *keys, __global uint *starts,
                          __global uint *acc, __global SK_KEY_T *partials, ulong n, uint digits, uint shift0,
                          uint last_mask, SK_KEY_T flip, __global uint *state,
                          ulong state_words)
{
    sk_os_zero(state, state_words);
    __local uint lh[SK_MAX_DIGITS * SK_RADIX];
    __local sk_bounds lb[SK_WG];
    __local uint ls[2 * SK_WG], ltot[SK_MAX_DIGITS], last;
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
    sk_wg_and_or(a, o, lb, partials);
    for (uint d = lid; d < digits * SK_RADIX; d += SK_WG)
        if (lh[d]) atomic_add(&acc[d], lh[d]);
    sk_os_scan_counts(acc, starts, digits * SK_RADIX, digits, (uint)n, &last, ltot, ls);
}

/* Key k of this work-item (tile position j): into lk[], its entry into
 * x[k], its digit counted in lh[]. */
void sk_os_take_key(SK_KEY_T key, uint j, uint shift, uint mask, SK_KEY_T flip,
                    __local SK_KEY_T *lk, uint *entry, __local uint *lh)
{
    uint d = sk_digit(key, flip, shift, mask);
    lk[SK_PAD(j)] = key;
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
    if (base + SK_TILE <= n && base % SK_OS_VEC_N == 0) {
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
            lk[SK_PAD(first + k)] = 0;
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
#if (SK_ITEMS % SK_OS_VVEC_N) == 0
    if (base + SK_TILE <= n && base % SK_OS_VVEC_N == 0) {
        __global const SK_OS_VVEC_T *src =
            (__global const SK_OS_VVEC_T *)(vals + base + first);
        for (uint q = 0; q < SK_ITEMS / SK_OS_VVEC_N; q++) {
            sk_os_values v;
            v.v = src[q];
            for (uint r = 0; r < SK_OS_VVEC_N; r++)
                lv[SK_PAD(first + q * SK_OS_VVEC_N + r)] = v.s[r];
        }
        return;
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++)
        if (base + first + k < n) lv[SK_PAD(first + k)] = vals[base + first + k];
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
    uint run = sk_wg_exclusive_sum(sum, s, &total);
    for (uint d = first; d < end; d++) {
        lstart[d] = run;
        run += lh[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Publishes the tile's digit counts (tile 0: as prefixes), before its
 * keys are placed, so that later tiles can go on. `unused` keys past n,
 * counted under the largest digit value `mask`, are left out. */
void sk_os_publish(__global uint *state, uint tile, uint mask, __local const uint *lh,
                   uint unused)
{
    for (uint d = get_local_id(0); d <= mask; d += SK_WG)
        sk_lb_publish_own(state, 0, tile, d, tile == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE,
                          lh[d] - (d == mask ? unused : 0u));
}

/* Every work-item, once the tile's keys and values are written: the test
 * hook's late publication of its counts (lookback.cl). */
void sk_os_publish_late(__global uint *state, uint tile, uint mask, __local const uint *lh,
                        uint unused)
{
    SK_LB_AFTER_OUTPUT();
    for (uint d = get_local_id(0); d <= mask; d += SK_WG)
        sk_lb_publish_late(state, 0, tile, d, lh[d] - (d == mask ? unused : 0u));
}

/* Digit values per work-item in the look-back. */
#define SK_OS_DIGITS_PER ((SK_RADIX + SK_WG - 1) / SK_WG)

/* lbase[d] = where the tile's keys of digit value d go, less their tile
 * position lstart[d]: the digit's start (starts[]: scanned counts of all
 * digits back to back, so digit `digit`'s values carry digit * n before
 * them) plus the keys of earlier tiles (look-back), whose sum this tile
 * then publishes as its prefix; ends with a barrier (lbase[] is then the
 * work-group's). Work-item lid walks digit values lid + i * SK_WG back
 * over the earlier tiles' counts and settles each as soon as its walk is
 * done. Where a tile's counts stay unpublished (SK_LB_SPIN_LIMIT polls),
 * the work-group counts that tile's digits itself into lf[] (SK_RADIX
 * words; decoupled fallback): each round the nearest tile some walk
 * stopped at, found by a local atomic max in *need (0: none; else the
 * tile + 1), which the kernel set to 0 after taking its tile. The round's
 * barrier is the one lbase[] needs anyway, so the common path (every walk
 * done at once) takes one barrier, as without a fallback (measured on an
 * H100: a barrier more cost the sort 4-5%, bench/NOTES-gpu.md). */
void sk_os_bases(__global const SK_KEY_T *keys, __global const uint *starts,
                 __global uint *state, uint tile, ulong n, uint digit, uint shift, uint mask,
                 SK_KEY_T flip, __local const uint *lh, __local const uint *lstart,
                 __local uint *lbase, uint unused, __local uint *lf, __local uint *need)
{
    uint lid = get_local_id(0);
    sk_lb_count walk[SK_OS_DIGITS_PER];
    uint settled[SK_OS_DIGITS_PER];
    for (uint i = 0; i < SK_OS_DIGITS_PER; i++) {
        uint d = lid + i * SK_WG;
        settled[i] = d > mask;
        if (d <= mask) sk_lb_counter_start(state, 0, tile, d, &walk[i]);
    }
    for (;;) {
        for (uint i = 0; i < SK_OS_DIGITS_PER; i++) {
            uint d = lid + i * SK_WG;
            if (settled[i]) continue;
            if (!walk[i].done) sk_lb_counter_walk(state, 0, d, &walk[i]);
            if (!walk[i].done) continue;
            uint before = walk[i].acc;
            uint count = lh[d] - (d == mask ? unused : 0u);
            if (tile > 0) sk_lb_publish_own(state, 0, tile, d, SK_LB_PREFIX, before + count);
            lbase[d] = starts[digit * SK_RADIX + d] - digit * (uint)n + before - lstart[d];
            settled[i] = 1;
        }
#if SK_LB_SPIN_LIMIT > 0
        for (uint i = 0; i < SK_OS_DIGITS_PER; i++)
            if (!settled[i]) atomic_max(need, (uint)walk[i].next + 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        uint t = *need;
        if (t == 0) return;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) *need = 0;
        t--;
        sk_tile_count_digits(keys, (ulong)t * SK_TILE, n, shift, mask, flip, lf);
        for (uint i = 0; i < SK_OS_DIGITS_PER; i++)
            if (!settled[i] && walk[i].next == (long)t)
                sk_lb_counter_fallback(state, 0, lid + i * SK_WG, lf[lid + i * SK_WG],
                                       &walk[i]);
#else
        (void)keys, (void)flip, (void)lf, (void)need;
        barrier(CLK_LOCAL_MEM_FENCE);
        return;
#endif
    }
}

/* The number of tiles of a sweep over n keys. */
ulong sk_os_tiles(ulong n) { return (n + SK_TILE - 1) / SK_TILE; }

/* sk_sort_onesweep's parameters, the same in both rankings. */
#if defined(SK_VAL_T)
#define SK_OS_VALUE_PARAMS __global const SK_VAL_T *vals, __global SK_VAL_T *vals_out,
#define SK_OS_VALUE_ARGS vals, vals_out,
#else
#define SK_OS_VALUE_PARAMS
#define SK_OS_VALUE_ARGS
#endif
/* Whether every key has the same value of this digit (its count, from
 * the scanned counts, is n): then every key stays where it is. Read alike
 * by every work-item of every work-group: a branch the whole launch takes
 * one way. */
bool sk_os_digit_constant(__global const SK_KEY_T *keys, __global const uint *starts, ulong n,
                          uint digit, uint shift, uint mask, SK_KEY_T flip)
{
    uint d = sk_digit(keys[0], flip, shift, mask);
    __global const uint *row = starts + digit * SK_RADIX; /* digit * n before each */
    uint end = d + 1 < SK_RADIX ? row[d + 1] : (digit + 1) * (uint)n;
    return end - row[d] == (uint)n;
}

/* A sweep over a constant digit: work-group g copies the keys (and values)
 * of tile g to the same places, coalesced, every load of a work-item before
 * its stores (the outputs may alias nothing, but the compiler cannot know:
 * load-store pairs in turn took 2.4 times a copy's time on an H200); no
 * tile number, no look-back (no work-group of the launch publishes or
 * waits). The next sweep's look-back words are zeroed as in every sweep. */
void sk_os_copy_tile(SK_OS_VALUE_PARAMS __global const SK_KEY_T *keys,
                     __global SK_KEY_T *keys_out, __global uint *next_state, ulong next_words,
                     ulong n)
{
    ulong first = (ulong)get_group_id(0) * SK_TILE + get_local_id(0);
    SK_KEY_T key[SK_ITEMS];
    for (uint k = 0; k < SK_ITEMS; k++)
        if (first + k * SK_WG < n) key[k] = keys[first + k * SK_WG];
#if defined(SK_VAL_T)
    SK_VAL_T v[SK_ITEMS];
    for (uint k = 0; k < SK_ITEMS; k++)
        if (first + k * SK_WG < n) v[k] = vals[first + k * SK_WG];
#endif
    for (uint k = 0; k < SK_ITEMS; k++)
        if (first + k * SK_WG < n) {
            keys_out[first + k * SK_WG] = key[k];
#if defined(SK_VAL_T)
            vals_out[first + k * SK_WG] = v[k];
#endif
        }
    sk_os_zero(next_state, next_words);
}

/* The tile's sorted values in local memory, and where they go, for the
 * helpers below (nothing for keys only). */
#if defined(SK_VAL_T)
#define SK_OS_LV_PARAM , __local SK_VAL_T *lv
#define SK_OS_LV_CPARAM , __local const SK_VAL_T *lv
#define SK_OS_LV_ARG , lv
#define SK_OS_VOUT_PARAM , __global SK_VAL_T *vals_out
#define SK_OS_VOUT_ARG , vals_out
#define SK_OS_VALUE_CPARAM , __global const SK_VAL_T *vals
#define SK_OS_VALUE_CARG , vals
#define SK_OS_V_PARAM , SK_VAL_T *v
#define SK_OS_V_CPARAM , const SK_VAL_T *v
#define SK_OS_V_ARG , v
#else
#define SK_OS_LV_PARAM
#define SK_OS_LV_CPARAM
#define SK_OS_LV_ARG
#define SK_OS_VOUT_PARAM
#define SK_OS_VOUT_ARG
#define SK_OS_VALUE_CPARAM
#define SK_OS_VALUE_CARG
#define SK_OS_V_PARAM
#define SK_OS_V_CPARAM
#define SK_OS_V_ARG
#endif

#define SK_OS_SWEEP_SIGNATURE                                                               \
    void sk_sort_onesweep(__global const SK_KEY_T *keys, __global SK_KEY_T *keys_out,       \
                          SK_OS_VALUE_PARAMS __global const uint *starts,                  \
                          __global uint *state, __global uint *next_state,               \
                          ulong next_words, ulong n, uint digit, uint shift, uint mask,  \
                          SK_KEY_T flip)

#if defined(SK_OS_WARP_MATCH)
/* ---- ranking by warp match (NVIDIA GPUs of compute capability 7.0 and up,
 * through inline PTX; the host sets SK_OS_WARP_MATCH there) ---------------
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

/* Loads this work-item's items of the tile at `base` (warp-striped, keys
 * below n; values too, whose loads go out before the ranking) and ranks
 * them within the warp (sk_os_warp_rank); returns how many are keys. */
uint sk_os_warp_load_rank(__global const SK_KEY_T *keys SK_OS_VALUE_CPARAM, ulong base,
                          ulong n, SK_KEY_T *key SK_OS_V_PARAM, uint *r, __local uint *lwc,
                          SK_KEY_T flip, uint shift, uint mask)
{
    uint lid = get_local_id(0);
    ulong first = base + (lid / 32) * 32 * SK_ITEMS + lid % 32;
    /* This work-item's items below `live` are keys; the rest, past n, take
     * the largest digit and sort behind every key. */
    uint live = n > first ? (uint)min((n - first + 31) / 32, (ulong)SK_ITEMS) : 0u;
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) key[k] = k < live ? keys[first + k * 32] : 0;
#if defined(SK_VAL_T)
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) v[k] = k < live ? vals[first + k * 32] : 0;
#endif
    /* Each warp ranks as soon as its own keys are in. */
    sk_os_warp_rank(key, live, r, lwc, flip, shift, mask);
    return live;
}

/* Puts this work-item's ranked items into lk[] (and lv[]) in the tile's
 * sorted order: rank r[k] within its warp, after the tile's keys of lower
 * digits (lstart[]) and the earlier warps' of its digit (wc[], this warp's
 * row of sk_os_warp_offsets). */
void sk_os_warp_place(const SK_KEY_T *key SK_OS_V_CPARAM, uint *r, uint live,
                      __local const uint *lstart, __local const uint *wc,
                      __local SK_KEY_T *lk SK_OS_LV_PARAM, SK_KEY_T flip, uint shift,
                      uint mask)
{
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
}

/* Writes the tile's first `valid` sorted keys (and values) of lk[] (lv[]):
 * sorted position j to out0 + lbase[its digit] + j, coalesced. */
void sk_os_warp_scatter(__local const SK_KEY_T *lk SK_OS_LV_CPARAM, __local const uint *lbase,
                        uint valid, __global SK_KEY_T *keys_out SK_OS_VOUT_PARAM, ulong out0,
                        SK_KEY_T flip, uint shift, uint mask)
{
    uint lid = get_local_id(0);
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        SK_KEY_T kj = lk[j];
        ulong at = out0 + lbase[sk_digit(kj, flip, shift, mask)] + j;
        if (j < valid) {
            keys_out[at] = kj;
#if defined(SK_VAL_T)
            vals_out[at] = lv[j];
#endif
        }
    }
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
    __local uint ls[SK_WG_SCAN_SLOTS];
    __local uint lh[SK_RADIX];
    __local uint lstart[SK_RADIX];
    __local uint lbase[SK_RADIX];
    __local uint slot;
    if (sk_os_digit_constant(keys, starts, n, digit, shift, mask, flip)) {
        sk_os_copy_tile(SK_OS_VALUE_ARGS keys, keys_out, next_state, next_words, n);
        return;
    }
    uint lid = get_local_id(0);
    for (uint i = lid; i < SK_OS_WARPS * SK_RADIX; i += SK_WG) lwc[i] = 0;
    /* (its barrier also orders the counters' zeroing before their use) */
    uint tile = sk_lb_take_tile(state, sk_os_tiles(n), &slot);
    if (lid == 0) slot = 0; /* sk_os_bases' *need */
    ulong base = (ulong)tile * SK_TILE;
    uint unused = base + SK_TILE > n ? (uint)(base + SK_TILE - n) : 0u;
    SK_KEY_T key[SK_ITEMS];
    uint r[SK_ITEMS];
#if defined(SK_VAL_T)
    SK_VAL_T v[SK_ITEMS];
#endif
    uint live = sk_os_warp_load_rank(keys SK_OS_VALUE_CARG, base, n, key SK_OS_V_ARG, r, lwc,
                                     flip, shift, mask);
    barrier(CLK_LOCAL_MEM_FENCE);
    sk_os_warp_offsets(lwc, lh);
    sk_os_publish(state, tile, mask, lh, unused);
    sk_os_digit_starts(lh, lstart, ls);
    sk_os_warp_place(key SK_OS_V_ARG, r, live, lstart, lwc + (lid / 32) * SK_RADIX,
                     lk SK_OS_LV_ARG, flip, shift, mask);
    /* (lwc is free again: the fallback's counts) */
    sk_os_bases(keys, starts, state, tile, n, digit, shift, mask, flip, lh, lstart, lbase,
                unused, lwc, &slot);
    sk_os_warp_scatter(lk SK_OS_LV_ARG, lbase, SK_TILE - unused, keys_out SK_OS_VOUT_ARG, 0,
                       flip, shift, mask);
    sk_os_publish_late(state, tile, mask, lh, unused);
    sk_os_zero(next_state, next_words);
}

#else /* ranking by local splits */

/* Writes the tile at `base` (keys below n) in its sorted order: entry j of
 * lp[] (digit | tile position << 8) to out0 + lbase[digit] + j, the keys
 * from lstage[], then the values, loaded into lstage[] in turn. */
void sk_os_split_scatter(__local const uint *lp, __local ulong4 *lstage,
                         __local const uint *lbase, ulong base, ulong n, ulong out0,
                         __global SK_KEY_T *keys_out SK_OS_VOUT_PARAM SK_OS_VALUE_CPARAM)
{
    uint lid = get_local_id(0);
    __local const SK_KEY_T *lk = (__local const SK_KEY_T *)lstage;
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        uint e = lp[SK_PAD(j)];
        if (base + (e >> 8) < n) keys_out[out0 + lbase[e & 0xffu] + j] = lk[SK_PAD(e >> 8)];
    }
#if defined(SK_VAL_T)
    barrier(CLK_LOCAL_MEM_FENCE);
    __local SK_VAL_T *lv = (__local SK_VAL_T *)lstage;
    sk_os_load_values(vals, base, n, lv);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint j = k * SK_WG + lid;
        uint e = lp[SK_PAD(j)];
        if (base + (e >> 8) < n) vals_out[out0 + lbase[e & 0xffu] + j] = lv[SK_PAD(e >> 8)];
    }
#endif
}

__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
SK_OS_SWEEP_SIGNATURE
{
    __local uint lp[SK_OS_TILE_WORDS];
    /* The tile's keys, later its values. */
    __local ulong4 lstage[SK_OS_STAGE_ULONG4];
    /* The splits' counters and scan. */
    __local uint lcnt[SK_OS_COUNTER_WORDS + SK_WG_SCAN_SLOTS];
    __local uint lh[SK_RADIX];
    __local uint lstart[SK_RADIX];
    __local uint lbase[SK_RADIX];
    __local uint slot;
#if SK_OS_COUNTER_WORDS + SK_WG_SCAN_SLOTS >= SK_RADIX
    __local uint *lf = lcnt; /* free again when the look-back falls back */
#else
    __local uint lf[SK_RADIX];
#endif
    if (sk_os_digit_constant(keys, starts, n, digit, shift, mask, flip)) {
        sk_os_copy_tile(SK_OS_VALUE_ARGS keys, keys_out, next_state, next_words, n);
        return;
    }
    uint lid = get_local_id(0);
    uint tile = sk_lb_take_tile(state, sk_os_tiles(n), &slot);
    if (lid == 0) slot = 0; /* sk_os_bases' *need */
    ulong base = (ulong)tile * SK_TILE;
    for (uint d = lid; d < SK_RADIX; d += SK_WG) lh[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local SK_KEY_T *lk = (__local SK_KEY_T *)lstage;
    uint x[SK_ITEMS];
    sk_os_load(keys, base, n, shift, mask, flip, lk, x, lh);
    barrier(CLK_LOCAL_MEM_FENCE);
    sk_os_publish(state, tile, mask, lh, 0);

    sk_os_rank(x, mask, lp, lcnt, lcnt + SK_OS_COUNTER_WORDS);
    sk_os_digit_starts(lh, lstart, lcnt + SK_OS_COUNTER_WORDS);
    sk_os_bases(keys, starts, state, tile, n, digit, shift, mask, flip, lh, lstart, lbase, 0,
                lf, &slot);
    sk_os_split_scatter(lp, lstage, lbase, base, n, 0, keys_out SK_OS_VOUT_ARG SK_OS_VALUE_CARG);
    sk_os_publish_late(state, tile, mask, lh, 0);
    sk_os_zero(next_state, next_words);
}
#endif /* SK_OS_WARP_MATCH */

#if defined(SK_SORT_SEGMENTS)
/* ---- segments sorted by a work-group each (the segmented sort's large
 * segments; a program of their own) -----------------------------------------
 *
 * spans[2 s] and spans[2 s + 1] are where segment s starts and ends in the
 * caller's keys; a buffer with an offset holds a key at its position less
 * the offset (a scratch copy of the segments: the first one's start).
 * sk_sort_seg_count counts every digit of the bit range in each segment in
 * one read and scans the counts into where each digit value starts in the
 * segment; then one launch per digit, sk_sort_seg_sweep: work-group s walks
 * segment s tile by tile, ranks each tile as the sweeps do and writes its
 * keys after those of earlier tiles with the same digit value (a running
 * position per digit value, in registers). No look-back: no work-group
 * waits for another. Segments of fewer than 2^30 keys (32-bit counts, as
 * in the sweeps). */

/* starts[(s * digits + p) * SK_RADIX + d] = the keys of segment s whose
 * digit p is below d. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_seg_count(__global const SK_KEY_T *keys, __global const ulong *spans,
                       __global uint *starts, uint digits, uint shift0, uint last_mask,
                       SK_KEY_T flip)
{
    __local uint lh[SK_MAX_DIGITS * SK_RADIX];
    __local uint lstart[SK_RADIX];
    __local uint ls[SK_WG_SCAN_SLOTS];
    uint lid = get_local_id(0);
    ulong s = get_group_id(0);
    SK_KEY_T a = 0, o = 0; /* (the bounds are not needed here) */
    for (uint d = lid; d < digits * SK_RADIX; d += SK_WG) lh[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong i = spans[2 * s] + lid; i < spans[2 * s + 1]; i += SK_WG)
        sk_os_count_key(keys[i], flip, digits, shift0, last_mask, &a, &o, lh);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = 0; p < digits; p++) {
        sk_os_digit_starts(lh + p * SK_RADIX, lstart, ls);
        for (uint d = lid; d < SK_RADIX; d += SK_WG)
            starts[(s * digits + p) * SK_RADIX + d] = lstart[d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Work-group s copies segment s from keys (positions less in_off) to
 * keys_out (less out_off), values likewise. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_seg_copy(__global const SK_KEY_T *keys, __global SK_KEY_T *keys_out,
                      SK_OS_VALUE_PARAMS __global const ulong *spans, ulong in_off,
                      ulong out_off)
{
    ulong s = get_group_id(0);
    for (ulong i = spans[2 * s] + get_local_id(0); i < spans[2 * s + 1]; i += SK_WG) {
        keys_out[i - out_off] = keys[i - in_off];
#if defined(SK_VAL_T)
        vals_out[i - out_off] = vals[i - in_off];
#endif
    }
}

/* Where segment s's keys of each digit value go next: run[i] for digit
 * value lid + i * SK_WG (below SK_RADIX), relative to the segment's start;
 * lbase[] as the scatters take it, the tile's own positions lstart[] taken
 * off. */
void sk_os_seg_bases(const uint *run, __local const uint *lstart, __local uint *lbase)
{
    for (uint i = 0; i < SK_OS_DIGITS_PER; i++) {
        uint d = get_local_id(0) + i * SK_WG;
        if (d < SK_RADIX) lbase[d] = run[i] - lstart[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The tile's counts (lh[], less `unused` keys past the segment counted
 * under digit value mask) moved onto the running positions. */
void sk_os_seg_advance(uint *run, __local const uint *lh, uint mask, uint unused)
{
    for (uint i = 0; i < SK_OS_DIGITS_PER; i++) {
        uint d = get_local_id(0) + i * SK_WG;
        if (d < SK_RADIX) run[i] += lh[d] - (d == mask ? unused : 0u);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Work-group s sorts segment s by the digit (bits >> shift) & mask (digit
 * number `digit` of `digits` in starts[]), from keys (positions less
 * in_off) to keys_out (less out_off), stably. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_sort_seg_sweep(__global const SK_KEY_T *keys, __global SK_KEY_T *keys_out,
                       SK_OS_VALUE_PARAMS __global const ulong *spans,
                       __global const uint *starts, ulong in_off, ulong out_off, uint digits,
                       uint digit, uint shift, uint mask, SK_KEY_T flip)
{
#if defined(SK_OS_WARP_MATCH)
    __local SK_KEY_T lk[SK_TILE];
#if defined(SK_VAL_T)
    __local SK_VAL_T lv[SK_TILE];
#endif
    __local uint lwc[SK_OS_WARPS * SK_RADIX];
    __local uint ls[SK_WG_SCAN_SLOTS];
#else
    __local uint lp[SK_OS_TILE_WORDS];
    __local ulong4 lstage[SK_OS_STAGE_ULONG4];
    __local uint lcnt[SK_OS_COUNTER_WORDS + SK_WG_SCAN_SLOTS];
#endif
    __local uint lh[SK_RADIX];
    __local uint lstart[SK_RADIX];
    __local uint lbase[SK_RADIX];
    uint lid = get_local_id(0);
    ulong s = get_group_id(0);
    ulong lo = spans[2 * s] - in_off, hi = spans[2 * s + 1] - in_off;
    ulong out0 = spans[2 * s] - out_off;
    __global const uint *row = starts + (s * digits + digit) * SK_RADIX;
    uint run[SK_OS_DIGITS_PER];
    for (uint i = 0; i < SK_OS_DIGITS_PER; i++)
        run[i] = lid + i * SK_WG < SK_RADIX ? row[lid + i * SK_WG] : 0u;
    for (ulong base = lo; base < hi; base += SK_TILE) {
        uint unused = base + SK_TILE > hi ? (uint)(base + SK_TILE - hi) : 0u;
#if defined(SK_OS_WARP_MATCH)
        for (uint i = lid; i < SK_OS_WARPS * SK_RADIX; i += SK_WG) lwc[i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        SK_KEY_T key[SK_ITEMS];
        uint r[SK_ITEMS];
#if defined(SK_VAL_T)
        SK_VAL_T v[SK_ITEMS];
#endif
        uint live = sk_os_warp_load_rank(keys SK_OS_VALUE_CARG, base, hi, key SK_OS_V_ARG, r,
                                         lwc, flip, shift, mask);
        barrier(CLK_LOCAL_MEM_FENCE);
        sk_os_warp_offsets(lwc, lh);
        sk_os_digit_starts(lh, lstart, ls);
        sk_os_warp_place(key SK_OS_V_ARG, r, live, lstart, lwc + (lid / 32) * SK_RADIX,
                         lk SK_OS_LV_ARG, flip, shift, mask);
        sk_os_seg_bases(run, lstart, lbase);
        sk_os_warp_scatter(lk SK_OS_LV_ARG, lbase, SK_TILE - unused, keys_out SK_OS_VOUT_ARG,
                           out0, flip, shift, mask);
        sk_os_seg_advance(run, lh, mask, unused);
#else
        for (uint d = lid; d < SK_RADIX; d += SK_WG) lh[d] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint x[SK_ITEMS];
        sk_os_load(keys, base, hi, shift, mask, flip, (__local SK_KEY_T *)lstage, x, lh);
        barrier(CLK_LOCAL_MEM_FENCE);
        sk_os_rank(x, mask, lp, lcnt, lcnt + SK_OS_COUNTER_WORDS);
        sk_os_digit_starts(lh, lstart, lcnt + SK_OS_COUNTER_WORDS);
        sk_os_seg_bases(run, lstart, lbase);
        sk_os_split_scatter(lp, lstage, lbase, base, hi, out0,
                            keys_out SK_OS_VOUT_ARG SK_OS_VALUE_CARG);
        sk_os_seg_advance(run, lh, mask, 0);
#endif
    }
}
#endif /* SK_SORT_SEGMENTS */
#endif /* SK_ONESWEEP */
