/*
 * sort_cpu.cl - LSD radix sort passes, CPU shape: one work-item per
 * contiguous chunk, work-group size 1. sort_keys.cl (the configuration,
 * the key order) comes before it; sort.cl is the GPU shape.
 */

#if !defined(SK_SHAPE_CPU)
#error "sort_cpu.cl: the CPU shape's file (SK_SHAPE_CPU)"
#endif

/* Work-item c owns keys [c * chunk, min((c + 1) * chunk, n)). Histograms
 * are private arrays: no local memory, no atomics. */

/* AND and OR of the chunk's transformed keys (partials[2c], [2c+1]), and
 * its histogram of one digit: with top_mask, the digit at (top_shift,
 * top_mask) into top_hist, the buckets' when that digit is the top
 * differing one (sk_sort_buckets); else the digit at (shift, mask) into
 * hist, which the host uses for the first pass when that digit turns out
 * to be the first one sorted. */
__kernel void sk_sort_bounds_chunks(__global const SK_KEY_T *keys, __global SK_KEY_T *partials,
                                    __global SK_COUNT_T *hist, ulong n, ulong chunk,
                                    ulong parts, uint shift, uint mask, SK_KEY_T flip,
                                    __global SK_COUNT_T *top_hist, uint top_shift,
                                    uint top_mask)
{
    ulong c = get_global_id(0);
    ulong end = min((c + 1) * chunk, n);
    SK_KEY_T a = ~(SK_KEY_T)0, o = 0;
    SK_COUNT_T h[SK_RADIX];
    __global SK_COUNT_T *out = top_mask ? top_hist : hist;
    if (top_mask) {
        shift = top_shift;
        mask = top_mask;
    }
    for (uint d = 0; d < SK_RADIX; d++) h[d] = 0;
    for (ulong i = c * chunk; i < end; i++) {
        SK_KEY_T b = sk_key_bits(keys[i], flip);
        a &= b;
        o |= b;
        h[(uint)(b >> shift) & mask]++;
    }
    partials[2 * c] = a;
    partials[2 * c + 1] = o;
    for (uint d = 0; d < SK_RADIX; d++) out[d * parts + c] = h[d];
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
 * from an aligned base) by non-temporal stores of 64 bytes (16 and 32 for
 * 8- and 16-bit keys). */
void sk_put_line_uchar(__global const uchar *line, __global uchar *dst)
{
    __builtin_nontemporal_store(vload16(0, line), (__global uchar16 *)dst);
}

void sk_put_line_ushort(__global const ushort *line, __global ushort *dst)
{
    __builtin_nontemporal_store(vload16(0, line), (__global ushort16 *)dst);
}

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

/* ---- buckets by the top digit, each sorted inside the caches ---------------
 *
 * After a line scatter by the top differing digit (sk_sort_scatter_lines
 * into src), every bucket of keys sharing that digit is sorted by the bits
 * below it, [lo, hi), by stable passes of at most SK_BUCKET_BITS bits
 * between two regions of the work-item's part of aux (each `region` keys,
 * then values, long), and goes out to dst once, by non-temporal stores
 * where whole lines allow. The buckets fit in the caches (the host takes
 * this path only when the largest does), so a key crosses memory twice
 * here where the least-significant passes it replaces crossed it twice a
 * pass. Bucket d is [starts[d * parts], starts[(d + 1) * parts]) of the
 * scanned histogram (the last ends at n); work-item c of w takes the
 * buckets that start in its share of the places. */

#define SK_BUCKET_BITS 12
#define SK_BUCKET_RADIX (1u << SK_BUCKET_BITS)
/* The most passes below the top digit: the key's bits but the narrowest
 * top digit's, SK_BUCKET_MIN_TOP (primitives/sort.c: BUCKET_MIN_TOP) (at
 * least one, so that the arrays have a size). */
#define SK_BUCKET_MIN_TOP 8
#define SK_BUCKET_MAX_PASSES_ \
    (SK_KEY_BITS - SK_BUCKET_MIN_TOP + SK_BUCKET_BITS - 1) / SK_BUCKET_BITS
#define SK_BUCKET_MAX_PASSES (SK_BUCKET_MAX_PASSES_ > 0 ? SK_BUCKET_MAX_PASSES_ : 1)

/* The passes of every bucket: pass p by the digit at (shift[p], mask[p]),
 * from bit lo up, the first (hi - lo) % passes one bit wider. */
typedef struct sk_bucket_digits {
    uint passes;
    uint shift[SK_BUCKET_MAX_PASSES], mask[SK_BUCKET_MAX_PASSES];
} sk_bucket_digits;

sk_bucket_digits sk_bucket_digits_of(uint lo, uint hi)
{
    sk_bucket_digits g;
    uint bits = hi - lo;
    g.passes = (bits + SK_BUCKET_BITS - 1) / SK_BUCKET_BITS;
    for (uint p = 0, shift = lo; p < g.passes; p++) {
        uint width = bits / g.passes + (p < bits % g.passes);
        g.shift[p] = shift;
        g.mask[p] = (1u << width) - 1;
        shift += width;
    }
    return g;
}

/* Where work-item c's share of n places starts: shares of n / w, the
 * first n % w one longer. */
ulong sk_share_start(ulong n, ulong c, ulong w)
{
    return c * (n / w) + min(c, n % w);
}

ulong sk_bucket_start(__global const SK_COUNT_T *starts, ulong d, ulong buckets, ulong parts,
                      ulong n)
{
    return d < buckets ? (ulong)starts[d * parts] : n;
}

/* The first bucket that starts at or after place `at` (buckets: none). */
ulong sk_first_bucket_from(__global const SK_COUNT_T *starts, ulong buckets, ulong parts,
                           ulong n, ulong at)
{
    ulong lo = 0, hi = buckets;
    while (lo < hi) {
        ulong mid = lo + (hi - lo) / 2;
        if (sk_bucket_start(starts, mid, buckets, parts, n) < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Counts of every pass's digit over a bucket's s keys, in one read:
 * counts[p * SK_BUCKET_RADIX + d], turned into where each digit value
 * starts. */
void sk_bucket_counts(__global const SK_KEY_T *restrict src, uint s, sk_bucket_digits g,
                      SK_KEY_T flip, uint *counts)
{
    for (uint d = 0; d < g.passes * SK_BUCKET_RADIX; d++) counts[d] = 0;
    for (uint i = 0; i < s; i++) {
        SK_KEY_T b = sk_key_bits(src[i], flip);
#pragma unroll
        for (uint p = 0; p < SK_BUCKET_MAX_PASSES; p++)
            if (p < g.passes)
                counts[p * SK_BUCKET_RADIX + ((uint)(b >> g.shift[p]) & g.mask[p])]++;
    }
    for (uint p = 0; p < g.passes; p++) {
        uint sum = 0;
        for (uint d = 0; d <= g.mask[p]; d++) {
            uint c = counts[p * SK_BUCKET_RADIX + d];
            counts[p * SK_BUCKET_RADIX + d] = sum;
            sum += c;
        }
    }
}

/* The next bucket's keys (and values) that a pass asks for ahead: n of
 * them from keys. */
typedef struct sk_bucket_ahead {
    __global const SK_KEY_T *keys;
#if defined(SK_VAL_T)
    __global const SK_VAL_T *vals;
#endif
    uint n;
} sk_bucket_ahead;

/* One stable pass over s keys (and values) from src to dst by the digit
 * at (shift, mask), whose values start at off[]. With SK_PREFETCH (clang's
 * __builtin_prefetch, which the host defines where the compiler takes it)
 * every 16 keys it asks for the next 16 of `ahead`, the next bucket's, to
 * be on their way from memory by the time that bucket is counted. */
void sk_bucket_pass(__global const SK_KEY_T *restrict src, __global SK_KEY_T *restrict dst,
#if defined(SK_VAL_T)
                    __global const SK_VAL_T *restrict vsrc, __global SK_VAL_T *restrict vdst,
#endif
                    uint s, uint shift, uint mask, SK_KEY_T flip, uint *off,
                    sk_bucket_ahead ahead)
{
    for (uint i = 0; i < s; i++) {
#if defined(SK_PREFETCH)
        if ((i & 15) == 0 && i < ahead.n) {
            __builtin_prefetch(ahead.keys + i);
#if defined(SK_VAL_T)
            __builtin_prefetch(ahead.vals + i);
#endif
        }
#endif
        SK_KEY_T k = src[i];
        uint p = off[sk_digit(k, flip, shift, mask)]++;
        dst[p] = k;
#if defined(SK_VAL_T)
        vdst[p] = vsrc[i];
#endif
    }
}

/* from[0 .. e - b) to to[b .. e): whole aligned lines by non-temporal
 * stores, the ends one by one. */
#define SK_DEFINE_BUCKET_PUT(name, T, put_line)                                         \
    void name(__global const T *restrict from, __global T *restrict to, ulong b, ulong e) \
    {                                                                                   \
        ulong q = b;                                                                    \
        for (; q < e && (q & (SK_LINE - 1)); q++) to[q] = from[q - b];                  \
        for (; q + SK_LINE <= e; q += SK_LINE) put_line(from + (q - b), to + q);        \
        for (; q < e; q++) to[q] = from[q - b];                                         \
    }
SK_DEFINE_BUCKET_PUT(sk_bucket_put_keys, SK_KEY_T, sk_put_key_line)
#if defined(SK_VAL_T)
SK_DEFINE_BUCKET_PUT(sk_bucket_put_vals, SK_VAL_T, sk_put_val_line)
#endif

/* The two regions of a work-item: keys at keys[0 .. region) and
 * [region .. 2 * region), values likewise. */
typedef struct sk_bucket_regions {
    __global SK_KEY_T *keys;
#if defined(SK_VAL_T)
    __global SK_VAL_T *vals;
#endif
    ulong region;
} sk_bucket_regions;

/* Bucket [b, e) of src (and vsrc) sorted into dst (and vdst), through the
 * regions; the bucket after it, [e, next), asked for ahead. Inlined: a
 * call keeps its arguments in memory, where the inner loops reload them. */
__attribute__((always_inline)) void sk_sort_bucket(__global const SK_KEY_T *restrict src, __global SK_KEY_T *restrict dst,
#if defined(SK_VAL_T)
                    __global const SK_VAL_T *restrict vsrc, __global SK_VAL_T *restrict vdst,
#endif
                    sk_bucket_regions rg, sk_bucket_digits g, ulong b, ulong e,
                    ulong next, SK_KEY_T flip, uint *counts)
{
    uint s = (uint)(e - b);
    __global const SK_KEY_T *k = src + b;
#if defined(SK_VAL_T)
    __global const SK_VAL_T *v = vsrc + b;
#endif
    if (s > 1) sk_bucket_counts(k, s, g, flip, counts);
    for (uint p = 0; s > 1 && p < g.passes; p++) {
        /* Pass p asks for the next bucket's keys from p * s on. */
        ulong from = min(e + (ulong)p * s, next);
        sk_bucket_ahead ahead;
        ahead.keys = src + from;
        ahead.n = (uint)min(next - from, (ulong)s);
        __global SK_KEY_T *kd = rg.keys + (p % 2) * rg.region;
#if defined(SK_VAL_T)
        ahead.vals = vsrc + from;
        __global SK_VAL_T *vd = rg.vals + (p % 2) * rg.region;
        sk_bucket_pass(k, kd, v, vd, s, g.shift[p], g.mask[p], flip,
                       counts + p * SK_BUCKET_RADIX, ahead);
        v = vd;
#else
        sk_bucket_pass(k, kd, s, g.shift[p], g.mask[p], flip, counts + p * SK_BUCKET_RADIX,
                       ahead);
#endif
        k = kd;
    }
    sk_bucket_put_keys(k, dst, b, e);
#if defined(SK_VAL_T)
    sk_bucket_put_vals(v, vdst, b, e);
#endif
}

__kernel void sk_sort_buckets(__global const SK_KEY_T *restrict src,
                              __global SK_KEY_T *restrict dst,
#if defined(SK_VAL_T)
                              __global const SK_VAL_T *restrict vsrc,
                              __global SK_VAL_T *restrict vdst,
#endif
                              __global const SK_COUNT_T *restrict starts,
                              __global SK_KEY_T *restrict aux, ulong n, ulong parts,
                              ulong buckets, ulong region, uint lo, uint hi, SK_KEY_T flip)
{
    ulong c = get_global_id(0), w = get_global_size(0);
    ulong first = sk_first_bucket_from(starts, buckets, parts, n, sk_share_start(n, c, w));
    ulong last = sk_first_bucket_from(starts, buckets, parts, n, sk_share_start(n, c + 1, w));
    sk_bucket_regions rg;
    rg.keys = aux + c * 2 * region;
#if defined(SK_VAL_T)
    rg.vals = (__global SK_VAL_T *)(aux + w * 2 * region) + c * 2 * region;
#endif
    rg.region = region;
    sk_bucket_digits g = sk_bucket_digits_of(lo, hi);
    uint counts[SK_BUCKET_MAX_PASSES * SK_BUCKET_RADIX];
    for (ulong d = first; d < last; d++) {
        ulong b = sk_bucket_start(starts, d, buckets, parts, n);
        ulong e = sk_bucket_start(starts, d + 1, buckets, parts, n);
        ulong next = d + 1 < last ? sk_bucket_start(starts, d + 2, buckets, parts, n) : e;
#if defined(SK_VAL_T)
        sk_sort_bucket(src, dst, vsrc, vdst, rg, g, b, e, next, flip, counts);
#else
        sk_sort_bucket(src, dst, rg, g, b, e, next, flip, counts);
#endif
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}
#endif /* SK_NT_LINES */
