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
#endif /* SK_NT_LINES */
