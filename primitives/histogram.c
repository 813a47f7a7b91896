/*
 * histogram.c - counts of elements per bin: bins of equal width over
 * [lo, hi) (sk_histogram_even) or between the caller's sorted edges
 * (sk_histogram_edges), each with its host-array form.
 *
 * Two launches (kernels/histogram.cl): every work-group (GPU shape) or
 * chunk (CPU shape) counts its range of elements into a row of 32-bit
 * counters of its own in scratch memory (through local-memory counters
 * where they fit, else global atomics on the row; plain increments on the
 * CPU shape), then the rows' columns are summed into the caller's uint64
 * counts: on the GPU shape by work-groups of a few neighbouring bins whose
 * work-items take every so many rows (a load of a row's 32-byte sector per
 * row a lane visits), on the CPU shape by one work-item per bin. No 64-bit
 * atomics: every device takes it, and integer sums in any grouping give
 * the same counts on every device and run.
 *
 * The radix selection (topk.c) counts its digits here too
 * (sk__histogram_digits): bins of the keys' digits, in the sort's key order,
 * and it reads the partial rows too, as its parts' counts.
 *
 * The rows take at most HIST_ROWS_BYTES of scratch where that allows a
 * row per part; fewer parts take more elements each, and no row counts
 * 2^32 elements or more.
 */
#include "sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(hist_rows, "histogram: partial counts");
SK_STAGING_ID(hist_edges_in, "histogram, host form: edges");

/* The partial rows' scratch budget: a row per work-group or chunk while
 * the rows fit it (1024 work-groups of 4096 bins, 64 chunks of 262144). */
#define HIST_ROWS_BYTES ((size_t)16 << 20)

/* GPU shape: the bins a work-group of the rows' reduction sums (a 32-byte
 * sector of a row; histogram.cl's SK_HIST_COLS). */
#define HIST_COLS(wg) ((wg) < 8 ? (wg) : 8)

/* The most elements one row counts (its counters are 32-bit). */
#define HIST_ROW_MAX ((size_t)UINT32_MAX)

/* ---- what is counted ------------------------------------------------------------ */

typedef struct hist_req {
    sk_type type;
    bool edges;                  /* edges form; else even bins or digits */
    const sk__digit_bins *digits; /* the radix selection's digits */
    size_t n, bins;
    /* even bins, as the kernel takes them: lo and hi as the element's bits
     * (integers) or value (floats), the floats' scale, the integers' range */
    double lo, hi, scale;
    uint64_t lo_bits, hi_bits, range;
    uint64_t magic;              /* division by range as a multiplication */
    unsigned magic_l;            /* (histogram.cl, sk_hist_div) */
} hist_req;

/* floor(hi * 2^64 / d) for hi < d: a restoring division, bit by bit. */
static uint64_t div_shifted(uint64_t hi, uint64_t d)
{
    uint64_t rem = hi, q = 0;
    for (int k = 63; k >= 0; k--) {
        uint64_t top = rem >> 63;
        rem <<= 1;
        q <<= 1;
        if (top || rem >= d) {
            rem -= d;
            q |= 1;
        }
    }
    return q;
}

/* The multiplier and l = ceil(log2 d) that divide by d >= 1 in
 * histogram.cl's sk_hist_div: magic = floor(2^64 (2^l - d) / d) + 1, which
 * fits 64 bits because 2^l - d < d. */
static void divisor_magic(uint64_t d, uint64_t *magic, unsigned *l)
{
    unsigned bits = 0;
    while (bits < 64 && ((uint64_t)1 << bits) < d) bits++;
    uint64_t excess = (bits == 64 ? 0 : (uint64_t)1 << bits) - d; /* 2^l - d, mod 2^64 */
    *magic = div_shifted(excess, d) + 1;
    *l = bits;
}

static const char *const cl_types[SK_TYPE_COUNT] = {
#define HIST_CL_TYPE_(suffix, value, name, bytes, cl, ...) [SK_##suffix] = cl,
    SK_TYPE_MAP(HIST_CL_TYPE_)
#undef HIST_CL_TYPE_
};

/* Every key type's: the radix selection's digits take the sort keys. */
static const char *const cl_bits[SK_KEY_TYPE_COUNT] = {
#define HIST_CL_BITS_(suffix, value, name, bytes, cl, bits, ...) [SK_##suffix] = bits,
    SK_ALL_TYPES_MAP(HIST_CL_BITS_)
#undef HIST_CL_BITS_
};

/* Integer bounds: whole numbers within the type. */
static bool int_bound_ok(sk_type t, double v)
{
    if (v != floor(v)) return false; /* NaN and infinities too */
    switch (t) {
    case SK_INT32: return v >= -2147483648.0 && v <= 2147483647.0;
    case SK_UINT32: return v >= 0 && v <= 4294967295.0;
    case SK_INT64: return v >= -0x1p63 && v < 0x1p63;
    default: return v >= 0 && v < 0x1p64; /* SK_UINT64 */
    }
}

static uint64_t int_bits(sk_type t, double v)
{
    if (t == SK_INT32 || t == SK_INT64) return (uint64_t)(int64_t)v;
    return (uint64_t)v;
}

/* Fills r's even-bin fields from lo and hi, or refuses them. */
static sk_status even_bounds(sk_context *ctx, hist_req *r)
{
    if (isnan(r->lo) || isnan(r->hi))
        return sk__fail(ctx, SK_E_INVALID_ARG, "lo or hi is NaN");
    if (r->type == SK_FLOAT32) {
        float lo = (float)r->lo, hi = (float)r->hi;
        float width = hi - lo, scale = (float)r->bins / width;
        if (!(lo < hi) || !isfinite(width) || !isfinite(scale))
            return sk__fail(ctx, SK_E_INVALID_ARG,
                            "lo %g, hi %g: as float32 they need lo < hi, and hi - lo and "
                            "bins / (hi - lo) finite", r->lo, r->hi);
        r->lo = lo;
        r->hi = hi;
        r->scale = scale;
    } else if (r->type == SK_FLOAT64) {
        double width = r->hi - r->lo, scale = (double)r->bins / width;
        if (!(r->lo < r->hi) || !isfinite(width) || !isfinite(scale))
            return sk__fail(ctx, SK_E_INVALID_ARG,
                            "lo %g, hi %g: they need lo < hi, and hi - lo and bins / (hi - "
                            "lo) finite", r->lo, r->hi);
        r->scale = scale;
    } else {
        if (!int_bound_ok(r->type, r->lo) || !int_bound_ok(r->type, r->hi) || !(r->lo < r->hi))
            return sk__fail(ctx, SK_E_INVALID_ARG,
                            "lo %g, hi %g: for %s they must be whole numbers of the type, "
                            "lo < hi", r->lo, r->hi, sk_type_name(r->type));
        r->lo_bits = int_bits(r->type, r->lo);
        r->hi_bits = int_bits(r->type, r->hi);
        r->range = r->hi_bits - r->lo_bits;
        if (sk_type_size(r->type) == 4) r->range &= 0xffffffffu;
        divisor_magic(r->range, &r->magic, &r->magic_l);
    }
    return SK_OK;
}

static sk_status validate_req(sk_context *ctx, hist_req *r)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    sk_status st0 = sk__require_op_type(ctx, r->type);
    if (st0 != SK_OK) return st0;
    if (r->bins == 0) return sk__fail(ctx, SK_E_INVALID_ARG, "bins is 0");
    SK_TRY(sk__byte_size(ctx, r->n, sk_type_size(r->type), &bytes));
    SK_TRY(sk__byte_size(ctx, r->bins, sizeof(cl_ulong), &bytes));
    if (r->edges && r->bins == SIZE_MAX)
        return sk__fail(ctx, SK_E_INVALID_ARG, "bins + 1 edges overflow size_t");
    if (r->edges) SK_TRY(sk__byte_size(ctx, r->bins + 1, sk_type_size(r->type), &bytes));
    SK_TRY(sk__require_fp64(ctx, r->type));
    if (!r->edges) SK_TRY(even_bounds(ctx, r));
out:
    return st;
}

/* SK_E_INVALID_ARG unless edges[0 .. count) are in non-decreasing order
 * with no NaN. */
static sk_status check_edges(sk_context *ctx, sk_type t, const void *edges, size_t count)
{
    size_t es = sk_type_size(t);
    const unsigned char *p = edges;
    for (size_t i = 0; i < count; i++) {
        bool nan = false, down = false;
        switch (t) {
#define HIST_CHECK_(suffix, value, name, bytes, cl, bits, c_type, is_float, ...)          \
    case SK_##suffix: {                                                                    \
        c_type a, b;                                                                       \
        memcpy(&b, p + i * es, sizeof b);                                                  \
        nan = is_float && isnan((double)b);                                                \
        if (i > 0) {                                                                       \
            memcpy(&a, p + (i - 1) * es, sizeof a);                                        \
            down = !nan && !(a <= b);                                                      \
        }                                                                                  \
        break;                                                                             \
    }
            SK_TYPE_MAP(HIST_CHECK_)
#undef HIST_CHECK_
        default: break; /* sort key types only: refused before */
        }
        if (nan) return sk__fail(ctx, SK_E_INVALID_ARG, "edges[%zu] is NaN", i);
        if (down)
            return sk__fail(ctx, SK_E_INVALID_ARG, "edges[%zu] is below edges[%zu]", i, i - 1);
    }
    return SK_OK;
}

/* ---- planning ---------------------------------------------------------------------- */

typedef struct hist_plan {
    sk__tuning t;
    bool gpu;
    bool local_bins;             /* GPU: counters in local memory */
    size_t parts, chunk;         /* rows, and the elements each counts */
    const sk__program *prog;
} hist_plan;

static void plan_parts(hist_plan *p, const hist_req *r)
{
    size_t unit = p->gpu ? p->t.wg_size * p->t.items : 1;
    size_t want = p->gpu ? div_up(r->n, unit) : r->n < p->t.cpu_serial_below ? 1 : p->t.cpu_chunks;
    if (p->gpu && want > p->t.stride_groups && p->t.stride_groups) want = p->t.stride_groups;
    size_t fit = HIST_ROWS_BYTES / sizeof(cl_uint) / r->bins;
    if (want > fit) want = fit;
    if (want < div_up(r->n, HIST_ROW_MAX - unit)) want = div_up(r->n, HIST_ROW_MAX - unit);
    if (want < 1) want = 1;
    p->chunk = div_up(div_up(r->n, want), unit) * unit;
    p->parts = div_up(r->n, p->chunk);
}

static hist_plan plan_for(const sk_context *ctx, const hist_req *r)
{
    hist_plan p = {0};
    p.t = sk__tuning_for(ctx, SK_FAMILY_HISTOGRAM, sk_type_size(r->type));
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    /* local counters where they fit, with 1 KiB of local memory left over */
    p.local_bins = p.gpu && ctx->local_mem_bytes > 1024 &&
                   r->bins <= (ctx->local_mem_bytes - 1024) / sizeof(cl_uint);
    plan_parts(&p, r);
    return p;
}

/* ---- programs ---------------------------------------------------------------------- */

enum { K_COUNT, K_REDUCE };

static const char *const gpu_kernels[] = {"sk_histogram_tiles", "sk_histogram_columns"};
static const char *const cpu_kernels[] = {"sk_histogram_chunks", "sk_histogram_reduce"};

static char *hist_config(const hist_plan *p, const hist_req *r)
{
    sk__str c = {0};
    sk__str_addf(&c, SK_FP64_PRAGMA);
    if (r->digits) {
        sk__str_addf(&c, "#define SK_T %s\n#define SK_UT %s\n#define SK_IS_FLOAT 0\n"
                     "#define SK_DIGIT 1\n", cl_bits[r->type], cl_bits[r->type]);
        sk__config_key(&c, r->type);
        sk__str_add_source(&c, "sort_keys");
    } else
        sk__str_addf(&c, "#define SK_T %s\n#define SK_UT %s\n#define SK_IS_FLOAT %d\n"
                     "#define %s 1\n", cl_types[r->type], cl_bits[r->type],
                     sk__type_is_float(r->type) ? 1 : 0, r->edges ? "SK_EDGES" : "SK_EVEN");
    if (p->gpu)
        sk__str_addf(&c, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                     p->t.wg_size, p->t.items);
    else
        sk__str_addf(&c, "#define SK_SHAPE_CPU 1\n");
    if (p->local_bins) sk__str_addf(&c, "#define SK_LOCAL_BINS 1\n");
    sk__config_blocks(&c, p->gpu, false, NULL);
    return sk__str_take(&c);
}

static sk_status hist_program(sk_context *ctx, hist_plan *p, const hist_req *r)
{
    return sk__program_take(ctx, "histogram", hist_config(p, r),
                            p->gpu ? gpu_kernels : cpu_kernels, 2, &p->prog);
}

/* Builds (or finds) the program; on the GPU shape, where its kernels
 * cannot run the planned work-group, builds it again at the size they can. */
static sk_status open_program(sk_context *ctx, hist_plan *p, const hist_req *r)
{
    bool lowered = false;
    sk_status st = hist_program(ctx, p, r);
    if (st == SK_OK && p->gpu) st = sk__fit_wg(ctx, p->prog, "histogram", &p->t.wg_size, &lowered);
    if (st != SK_OK || !lowered) return st;
    plan_parts(p, r);
    return hist_program(ctx, p, r);
}

/* ---- the histogram ----------------------------------------------------------------- */

static void args_bins(sk__args *a, const hist_req *r, cl_mem edges)
{
    size_t es = sk_type_size(r->type);
    if (r->edges) {
        sk__arg_mem(a, edges);
        return;
    }
    if (r->digits) {
        sk__arg_mem(a, r->digits->sel);
        sk__arg_word(a, "flip", es, r->digits->flip);
        sk__arg_uint(a, "shift", r->digits->shift);
        return;
    }
    if (sk__type_is_float(r->type)) {
        sk__arg_real(a, "lo", es, r->lo);
        sk__arg_real(a, "hi", es, r->hi);
        sk__arg_real(a, "scale", es, r->scale);
    } else {
        sk__arg_word(a, "lo", es, r->lo_bits);
        sk__arg_word(a, "hi", es, r->hi_bits);
        sk__arg_word(a, "scale", es, 0);
    }
    sk__arg_ulong(a, "range", r->range);
    sk__arg_ulong(a, "magic", r->magic);
    sk__arg_uint(a, "magic_l", r->magic_l);
}

/* Counts validated buffers (n > 0) into counts. */
static sk_status hist_run(sk_context *ctx, const hist_req *r, cl_mem src, cl_mem edges,
                          cl_mem counts, sk__digit_rows *out_rows)
{
    hist_plan p = plan_for(ctx, r);
    cl_mem rows = NULL;
    sk_status st = SK_OK;
    SK_TRY(open_program(ctx, &p, r));
    SK_TRY(sk__scratch_get(ctx, &hist_rows, p.parts * r->bins * sizeof(cl_uint), &rows));

    size_t local = p.gpu ? p.t.wg_size : 1;
    sk__args a;
    sk__args_init(&a, ctx, p.prog, K_COUNT);
    sk__arg_mem(&a, src);
    args_bins(&a, r, edges);
    sk__arg_mem(&a, rows);
    if (p.local_bins) sk__arg_local(&a, r->bins * sizeof(cl_uint));
    sk__arg_ulong(&a, "n", r->n);
    sk__arg_ulong(&a, "bins", r->bins);
    sk__arg_ulong(&a, "chunk", p.chunk);
    SK_TRY(sk__args_launch(&a, p.parts * local, local));

    sk__args_init(&a, ctx, p.prog, K_REDUCE);
    sk__arg_mem(&a, rows);
    sk__arg_mem(&a, counts);
    sk__arg_ulong(&a, "bins", r->bins);
    sk__arg_ulong(&a, "rows", p.parts);
    if (p.gpu) /* work-groups of HIST_COLS(wg) bins (histogram.cl: SK_HIST_COLS) */
        st = sk__args_launch(&a, div_up(r->bins, HIST_COLS(p.t.wg_size)) * local, local);
    else
        st = sk__args_launch_each(&a, r->bins);
    if (out_rows) *out_rows = (sk__digit_rows){rows, p.parts, p.chunk};
out:
    return st;
}

static sk_status validate_io(sk_context *ctx, const hist_req *r, cl_mem src, cl_mem edges,
                             cl_mem counts)
{
    size_t es = sk_type_size(r->type);
    sk_status st = SK_OK;
    SK_TRY(sk__check_buffer(ctx, src, r->n * es, "src"));
    if (r->edges) SK_TRY(sk__check_buffer(ctx, edges, (r->bins + 1) * es, "edges"));
    SK_TRY(sk__check_buffer(ctx, counts, r->bins * sizeof(cl_ulong), "counts"));
    if (counts == src || (r->edges && counts == edges))
        return sk__fail(ctx, SK_E_INVALID_ARG, "counts is also an input");
out:
    return st;
}

/* Reads the edges back (blocking) and checks their order. */
static sk_status check_edges_mem(sk_context *ctx, const hist_req *r, cl_mem edges)
{
    size_t bytes = (r->bins + 1) * sk_type_size(r->type);
    void *host = calloc(1, bytes);
    if (!host) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "a host copy of the edges");
    sk_status st = sk__read(ctx, edges, true, 0, bytes, host);
    if (st == SK_OK) st = check_edges(ctx, r->type, host, r->bins + 1);
    free(host);
    return st;
}

static sk_status hist_mem(sk_context *ctx, hist_req *r, cl_mem src, cl_mem edges,
                          cl_mem counts)
{
    SK_ENTER(ctx);
    sk_status st = SK_OK;
    SK_TRY(validate_req(ctx, r));
    SK_TRY(validate_io(ctx, r, src, edges, counts));
    if (r->edges) SK_TRY(check_edges_mem(ctx, r, edges));
    if (r->n == 0) return sk__fill_zero(ctx, counts, r->bins * sizeof(cl_ulong));
    st = hist_run(ctx, r, src, edges, counts, NULL);
out:
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status hist_host(sk_context *ctx, hist_req *r, const void *src, const void *edges,
                           uint64_t *counts)
{
    SK_ENTER(ctx);
    size_t es = 0;
    cl_mem dsrc = NULL, dedges = NULL, dcounts = NULL;
    sk_status st = SK_OK;
    SK_TRY(validate_req(ctx, r));
    es = sk_type_size(r->type);
    if (!counts) return sk__fail(ctx, SK_E_INVALID_ARG, "counts is NULL");
    if (r->n && !src) return sk__fail(ctx, SK_E_INVALID_ARG, "src is NULL");
    if (r->edges && !edges) return sk__fail(ctx, SK_E_INVALID_ARG, "edges is NULL");
    /* every size before the edges are read */
    if (r->n) {
        SK_TRY(sk__fits_device(ctx, r->n * es, "a host array's device copy"));
        SK_TRY(sk__fits_device(ctx, r->bins * sizeof(cl_ulong), "the counts' device copy"));
        if (r->edges) SK_TRY(sk__fits_device(ctx, (r->bins + 1) * es, "the edges' device copy"));
    }
    if (r->edges) SK_TRY(check_edges(ctx, r->type, edges, r->bins + 1));
    if (r->n == 0) {
        memset(counts, 0, r->bins * sizeof *counts);
        return SK_OK;
    }
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, src, r->n, es, &dsrc));
    if (r->edges) SK_TRY(sk__stage_in(ctx, &hist_edges_in, edges, r->bins + 1, es, &dedges));
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, r->bins * sizeof(cl_ulong), &dcounts));
    SK_TRY(hist_run(ctx, r, dsrc, dedges, dcounts, NULL));
    SK_TRY(sk__read(ctx, dcounts, true, 0, r->bins * sizeof(cl_ulong), counts));
out:
    if (st != SK_OK && ctx) clFinish(ctx->queue); /* no transfer may outlive the call */
    return st;
}

/* ---- the radix selection's digits ------------------------------------------------- */

sk_status sk__histogram_digits(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                               const sk__digit_bins *d, cl_mem counts, sk__digit_rows *rows)
{
    hist_req r = {.type = key_type, .digits = d, .n = n, .bins = d->bins};
    return hist_run(ctx, &r, keys, NULL, counts, rows);
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_histogram_even(sk_context *ctx, sk_type type, cl_mem src, double lo, double hi,
                            cl_mem counts, size_t n, size_t bins)
{
    hist_req r = {.type = type, .n = n, .bins = bins, .lo = lo, .hi = hi};
    return hist_mem(ctx, &r, src, NULL, counts);
}

sk_status sk_histogram_edges(sk_context *ctx, sk_type type, cl_mem src, cl_mem edges,
                             cl_mem counts, size_t n, size_t bins)
{
    hist_req r = {.type = type, .edges = true, .n = n, .bins = bins};
    return hist_mem(ctx, &r, src, edges, counts);
}

sk_status sk_histogram_even_host(sk_context *ctx, sk_type type, const void *src, double lo,
                                 double hi, uint64_t *counts, size_t n, size_t bins)
{
    hist_req r = {.type = type, .n = n, .bins = bins, .lo = lo, .hi = hi};
    return hist_host(ctx, &r, src, NULL, counts);
}

sk_status sk_histogram_edges_host(sk_context *ctx, sk_type type, const void *src,
                                  const void *edges, uint64_t *counts, size_t n, size_t bins)
{
    hist_req r = {.type = type, .edges = true, .n = n, .bins = bins};
    return hist_host(ctx, &r, src, edges, counts);
}
