/*
 * histogram.cl - counts of elements per bin, in two shapes: rows of 32-bit
 * partial counts (one row per work-group or chunk), then one reduction of
 * the rows' columns into the caller's 64-bit counts (GPU shape: work-groups
 * of neighbouring bins, lanes over the rows; CPU shape: a work-item per
 * bin). No 64-bit atomics anywhere, and integer sums in any grouping give
 * the same result on every device and every run.
 *
 * The host places a configuration before this text:
 *   SK_T            element type (int, uint, long, ulong, float, double)
 *   SK_UT           the same-width unsigned type (uint or ulong)
 *   SK_IS_FLOAT     1 for float and double
 *   one of
 *   SK_EVEN         bins of equal width over [lo, hi)
 *   SK_EDGES        bins between sorted edges (bins + 1 of them)
 *   SK_DIGIT        the radix selection's digits (primitives/topk.c): SK_T
 *                   is the key's bits, sort_keys.cl comes before this text
 *   SK_SHAPE_GPU    work-groups of SK_WG, each counting a range of
 *                   elements into counters of its own, in local memory
 *                   (SK_LOCAL_BINS: atomic_inc on local counters, copied
 *                   to the group's row at the end) or straight in its row
 *                   of global memory (atomic_inc on global counters, for
 *                   more bins than local memory holds)
 *   or SK_SHAPE_CPU one work-item per contiguous chunk, work-group size 1,
 *                   plain increments in its own row
 *
 * Element x goes to bin sk_bin(x), or to none (sk_bin returns bins):
 *   SK_EVEN, integers: lo <= x < hi, bin floor((x - lo) * bins / (hi - lo))
 *     computed exactly (64 x 64 -> 128-bit product, then a division: by the
 *     host's multiplier for hi - lo where the product fits 64 bits, bit by
 *     bit where it does not);
 *   SK_EVEN, floats: lo <= x < hi (NaN never), bin
 *     min(floor((x - lo) * scale), bins - 1), scale = bins / (hi - lo) as
 *     the host rounded it to SK_T; the subtraction and the product are each
 *     rounded once in SK_T (correctly rounded in OpenCL C), so the host
 *     computes the same bins;
 *   SK_EDGES: edges[0] <= x < edges[bins] (NaN never), bin i with
 *     edges[i] <= x < edges[i + 1], by binary search;
 *   SK_DIGIT: keys whose order bits (sk_key_bits with flip), where sel[1]
 *     has ones, are below sel[0] bin 0; equal to it, bin
 *     1 + ((bits >> shift) & (bins - 2)), bins - 1 a power of two; above
 *     it, none.
 *
 * Rows hold uint counts: the host keeps each row's share of the elements
 * below 2^32.
 */

#ifndef SK_T
#error "histogram.cl: SK_T must be defined by the host configuration"
#endif

#if defined(SK_EVEN)
#define SK_BIN_PARAMS SK_T lo, SK_T hi, SK_T scale, ulong range, ulong magic, uint magic_l
#define SK_BIN_ARGS lo, hi, scale, range, magic, magic_l

#if !SK_IS_FLOAT
/* floor(p / range) for every 64-bit p, by a multiplication: magic and
 * magic_l = ceil(log2(range)) are the host's (Granlund and Montgomery,
 * "Division by invariant integers using multiplication", 1994, fig. 4.1:
 * magic = floor(2^64 (2^l - range) / range) + 1). A 64-bit division is a
 * long subroutine on GPUs; this is a multiply-high, a subtraction and two
 * shifts. */
ulong sk_hist_div(ulong p, ulong magic, uint magic_l)
{
    ulong t = mul_hi(magic, p);
    return (t + ((p - t) >> min(magic_l, 1u))) >> (magic_l > 0 ? magic_l - 1 : 0);
}

/* floor((d * bins) / range) for d < range, exactly: the 128-bit product's
 * high word is below range, so the quotient fits 64 bits; a restoring
 * division takes it bit by bit where the product does not fit 64 bits. */
ulong sk_hist_scale(ulong d, ulong bins, ulong range, ulong magic, uint magic_l)
{
    ulong plo = d * bins, phi = mul_hi(d, bins);
    if (phi == 0) return sk_hist_div(plo, magic, magic_l);
    ulong rem = phi, q = 0;
    for (int k = 63; k >= 0; k--) {
        ulong top = rem >> 63;
        rem = (rem << 1) | ((plo >> k) & 1);
        q <<= 1;
        if (top || rem >= range) {
            rem -= range;
            q |= 1;
        }
    }
    return q;
}
#endif

ulong sk_bin(SK_T x, SK_BIN_PARAMS, ulong bins)
{
    if (!(x >= lo && x < hi)) return bins;
#if SK_IS_FLOAT
    SK_T f = (x - lo) * scale;
    if (!(f < (SK_T)bins)) return bins - 1;
    return min((ulong)f, bins - 1);
#else
    return sk_hist_scale((ulong)((SK_UT)x - (SK_UT)lo), bins, range, magic, magic_l);
#endif
}

#elif defined(SK_EDGES)
#define SK_BIN_PARAMS __global const SK_T *edges
#define SK_BIN_ARGS edges

ulong sk_bin(SK_T x, SK_BIN_PARAMS, ulong bins)
{
    if (!(x >= edges[0] && x < edges[bins])) return bins;
    ulong a = 0, b = bins; /* edges[a] <= x < edges[b] */
    while (b - a > 1) {
        ulong mid = a + (b - a) / 2;
        if (edges[mid] <= x) a = mid;
        else b = mid;
    }
    return a;
}

#elif defined(SK_DIGIT)
#define SK_BIN_PARAMS __global const ulong *sel, SK_T flip, uint shift
#define SK_BIN_ARGS sel, flip, shift

ulong sk_bin(SK_T x, SK_BIN_PARAMS, ulong bins)
{
    SK_T b = sk_key_bits(x, flip), m = b & (SK_T)sel[1], p = (SK_T)sel[0];
    if (m != p) return m < p ? 0 : bins;
    return 1 + ((ulong)(b >> shift) & (bins - 2));
}

#else
#error "histogram.cl: define SK_EVEN, SK_EDGES or SK_DIGIT"
#endif

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

#if SK_WG == 1
#define SK_GLOBAL_BARRIER() ((void)0)
#else
#define SK_GLOBAL_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE)
#endif

/* Work-group g counts elements [g * chunk, min((g + 1) * chunk, n)),
 * striped over its work-items (coalesced), into counters of its own: h in
 * local memory (SK_LOCAL_BINS), copied to row g of partial at the end, or
 * row g itself. */
#if defined(SK_LOCAL_BINS)
#define SK_COUNTERS_PARAM , __local uint *h
#define SK_COUNTERS_BARRIER() SK_BARRIER()
#else
#define SK_COUNTERS_PARAM
#define SK_COUNTERS_BARRIER() SK_GLOBAL_BARRIER()
#endif

__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_histogram_tiles(__global const SK_T *src, SK_BIN_PARAMS,
                        __global uint *partial SK_COUNTERS_PARAM, ulong n, ulong bins,
                        ulong chunk)
{
    uint lid = get_local_id(0);
    ulong g = get_group_id(0);
    __global uint *row = partial + g * bins;
#if defined(SK_LOCAL_BINS)
    __local uint *c = h;
#else
    __global uint *c = row;
#endif
    for (ulong b = lid; b < bins; b += SK_WG) c[b] = 0;
    SK_COUNTERS_BARRIER();
    ulong end = min(g * chunk + chunk, n);
    for (ulong i = g * chunk + lid; i < end; i += SK_WG) {
        ulong b = sk_bin(src[i], SK_BIN_ARGS, bins);
        if (b < bins) atomic_inc(&c[b]);
    }
#if defined(SK_LOCAL_BINS)
    SK_BARRIER();
    for (ulong b = lid; b < bins; b += SK_WG) row[b] = h[b];
#endif
}

/* The rows' columns summed into counts (uint64): work-group g takes bins
 * [g * SK_HIST_COLS, (g + 1) * SK_HIST_COLS), its work-items SK_HIST_COLS
 * neighbouring bins (one 32-byte sector of a row) by SK_HIST_LANES lanes;
 * lane l sums rows l, l + SK_HIST_LANES, ..., then lane 0 adds the lanes'
 * sums. Integer sums: the grouping changes no count. */
#define SK_HIST_COLS (SK_WG < 8 ? SK_WG : 8)
#define SK_HIST_LANES (SK_WG / SK_HIST_COLS)

__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_histogram_columns(__global const uint *partial, __global ulong *counts, ulong bins,
                          ulong rows)
{
    __local ulong sums[SK_HIST_LANES * SK_HIST_COLS];
    uint lid = get_local_id(0), col = lid % SK_HIST_COLS, lane = lid / SK_HIST_COLS;
    ulong b = get_group_id(0) * SK_HIST_COLS + col;
    ulong s = 0;
    if (lane < SK_HIST_LANES && b < bins)
        for (ulong r = lane; r < rows; r += SK_HIST_LANES) s += partial[r * bins + b];
    if (lane < SK_HIST_LANES) sums[lane * SK_HIST_COLS + col] = s;
    SK_BARRIER();
    if (lane == 0 && b < bins) {
        for (uint l = 1; l < SK_HIST_LANES; l++) s += sums[l * SK_HIST_COLS + col];
        counts[b] = s;
    }
}

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Work-item c counts elements [c * chunk, min((c + 1) * chunk, n)) into
 * row c of partial, which no other work-item touches. */
__kernel void sk_histogram_chunks(__global const SK_T *src, SK_BIN_PARAMS,
                                  __global uint *partial, ulong n, ulong bins, ulong chunk)
{
    ulong c = get_global_id(0);
    __global uint *row = partial + c * bins;
    for (ulong b = 0; b < bins; b++) row[b] = 0;
    ulong end = min(c * chunk + chunk, n);
    for (ulong i = c * chunk; i < end; i++) {
        ulong b = sk_bin(src[i], SK_BIN_ARGS, bins);
        if (b < bins) row[b]++;
    }
}

/* counts[b] = the sum of rows[0 .. rows) at bin b, one work-item per bin
 * (sk__args_launch_each: ids past bins return). */
__kernel void sk_histogram_reduce(__global const uint *partial, __global ulong *counts,
                                  ulong bins, ulong rows)
{
    ulong b = get_global_id(0);
    if (b >= bins) return;
    ulong s = 0;
    for (ulong r = 0; r < rows; r++) s += partial[r * bins + b];
    counts[b] = s;
}

#else
#error "histogram.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
