/*
 * bench_all - every scankit primitive against its peers, in one run, on the
 * same data: scankit on one OpenCL device (device time from profiling
 * events, and the end-to-end time of the host-array form), a serial C
 * baseline on one host core, and Boost.Compute on the same device, context
 * and queue (where it was found at build time). CUB runs in its own program,
 * bench_cub, on the same generated data; bench/run_all.sh merges the two.
 *
 *   bench_all [--quick] [--min-log2 K] [--max-log2 K] [--step 1|2]
 *             [--budget SECONDS] [--repeats R] [--device SPEC] [--csv FILE] ...
 *
 * For every size, distribution and primitive, every implementation's result
 * is checked against the serial reference on poisoned outputs before it is
 * timed, and again after the timed runs; a wrong result is written as
 * status "wrong" without a time. One CSV row per (primitive, n,
 * distribution, implementation). Progress goes to stderr.
 * Exit 0 when no result was wrong and nothing failed, 1 otherwise, 2 on bad
 * usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"
#include "peer_boost.h"
#include "peer_vqsort.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xA5A5A5A5u
#define MAX_SIZES 64

/* ---- state ------------------------------------------------------------------------------ */

typedef struct bench {
    bb_opts opt;
    sk_context *ctx;
    cl_context clctx;
    cl_command_queue queue;
    sk_device_desc desc;
    char device[300], driver[300], cpu[300], cc[120], slug[64];
    bb_devbufs d;
    size_t dev_n;              /* elements the device buffers hold            */
    /* what the device buffers hold now: keys from keys_src, of keys_dist,
     * in a case of inputs of checksum keys_sum (keys_src's halves are
     * sorted for a merge, the first only for a search) */
    const uint32_t *keys_src;
    char keys_dist[16];
    uint64_t keys_sum;
    int keys_up, values_up, segs_up, coeffs_up;
    uint64_t keys64_sum;       /* the 64-bit keys of the case of this checksum */
    int keys64_up;
    int sort_segs_up;          /* the segmented sort's offsets are in d.offsets, of this prim */
    /* host read-back and serial outputs */
    uint32_t *got, *got2, *ser, *ser2, *ser_tmp;
    /* uint64 read-back: rle's lengths (host-array form), the histogram's
     * counts, the 64-bit sorts' keys; max(n, BB_HIST_BINS) */
    uint64_t *got64;
    uint64_t *ser64, *ser_tmp64; /* the serial out64 and 64-bit sorts' scratch */
    /* rle's lengths, the histogram's counts (cl_mem form): max(n,
     * BB_HIST_BINS) uint64 */
    cl_mem counts64;
    size_t host_n;
    bb_boost *boost;
    char boost_why[200];
    bb_vqsort *vqsort[2];      /* Highway's vqsort: one thread, every core    */
    char vqsort_why[200];
    int sk_unavailable[BB_PRIM_COUNT];
    char sk_unavailable_why[BB_PRIM_COUNT][256];
    FILE *csv;
    int wrong, errors;
} bench;

/* ---- scankit on cl_mem ----------------------------------------------------------------- */

typedef struct sk_state {
    bench *b;
    size_t count;
    uint32_t scalar;
    double poly;
    sk_status last;
} sk_state;

static int sk_why(sk_state *s, sk_status st, const char *what, char *why, size_t cap)
{
    s->last = st;
    snprintf(why, cap, "%s: %s (%s)", what, sk_status_str(st),
             sk_context_error_detail(s->b->ctx));
    return -1;
}

static int cl_why(cl_int rc, const char *what, char *why, size_t cap)
{
    snprintf(why, cap, "%s: %s", what, sk_cl_error_name(rc));
    return -1;
}

static int fill_u32(bench *b, cl_mem m, size_t n, char *why, size_t cap)
{
    if (!n) return 0;
    const cl_uint pattern = POISON;
    cl_int rc = clEnqueueFillBuffer(b->queue, m, &pattern, sizeof pattern, 0,
                                    n * sizeof(uint32_t), 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_why(rc, "clEnqueueFillBuffer", why, cap);
}

static int copy_bytes(bench *b, cl_mem from, cl_mem to, size_t bytes, char *why, size_t cap)
{
    if (!bytes) return 0;
    cl_int rc = clEnqueueCopyBuffer(b->queue, from, to, 0, 0, bytes, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_why(rc, "clEnqueueCopyBuffer", why, cap);
}

static int read_bytes(bench *b, cl_mem from, void *to, size_t bytes, char *why, size_t cap)
{
    if (!bytes) return 0;
    cl_int rc = clEnqueueReadBuffer(b->queue, from, CL_TRUE, 0, bytes, to, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_why(rc, "clEnqueueReadBuffer", why, cap);
}

static int read_u32(bench *b, cl_mem from, uint32_t *to, size_t n, char *why, size_t cap)
{
    return read_bytes(b, from, to, n * sizeof(uint32_t), why, cap);
}

/* rle's uint64 lengths, narrowed into got2 for the check. */
static int read_lengths(bench *b, size_t runs, char *why, size_t cap)
{
    cl_int rc = runs ? clEnqueueReadBuffer(b->queue, b->counts64, CL_TRUE, 0, runs * 8,
                                           b->got64, 0, NULL, NULL)
                     : CL_SUCCESS;
    if (rc != CL_SUCCESS) return cl_why(rc, "clEnqueueReadBuffer", why, cap);
    for (size_t i = 0; i < runs; i++) b->got2[i] = (uint32_t)b->got64[i];
    return 0;
}

static int sk_reset(void *self, const bb_case *c, int poison, char *why, size_t cap)
{
    sk_state *s = self;
    bench *b = s->b;
    double dummy = 0;
    /* nothing of a reset may count as the next run's time */
    cl_int rc = clFinish(b->queue);
    if (rc != CL_SUCCESS) return cl_why(rc, "clFinish", why, cap);
    if (bb_sorts_in_place(c->prim)) {
        int wide = bb_is_keys64(c->prim);
        if (copy_bytes(b, wide ? b->d.keys64 : b->d.keys, wide ? b->d.work_k64 : b->d.work_k,
                       c->n * (wide ? 8 : 4), why, cap))
            return -1;
        if (bb_is_pairs_sort(c->prim) &&
            copy_bytes(b, b->d.values, b->d.work_v, c->n * 4, why, cap))
            return -1;
    } else if (poison) {
        if (fill_u32(b, b->d.out, c->n, why, cap)) return -1;
        if (c->prim == BB_MERGE_PAIRS && fill_u32(b, b->d.out2, c->n, why, cap)) return -1;
        if (c->prim == BB_HISTOGRAM && fill_u32(b, b->counts64, 2 * BB_HIST_BINS, why, cap))
            return -1;
    }
    s->count = (size_t)-1;
    s->scalar = POISON;
    s->poly = -12345.0;
    rc = clFinish(b->queue);
    if (rc != CL_SUCCESS) return cl_why(rc, "clFinish", why, cap);
    sk_context_profile_take(b->ctx, &dummy, NULL);
    return 0;
}

/* sort_less's comparator: uint32 keys by BB_LESS. */
static const sk_comparator less_u32 = {"uint", sizeof(uint32_t), BB_LESS, NULL};

/* c->prim through scankit's device forms (SFX empty) or host-array forms
 * (SFX _host): KEYS in, OUT out, SK (uint32) or SK64 (uint64) and SV sorted
 * in place, KEYS with VALUES and KEYS_B with VALUES_B merged into OUT and
 * OUT2, FLAGS, OFFSETS, IDS and COEFFS the segments (IDS the by-key
 * primitives' keys) and coefficients, C64 rle's lengths or the histogram's
 * counts, KEYS_B searched in KEYS with the uint64 indices into IDX; ctx, s,
 * seg and st in scope. */
#define SK_DISPATCH(SFX, KEYS, OUT, SK, SK64, SV, KEYS_B, VALUES, VALUES_B, OUT2, FLAGS,      \
                    OFFSETS, IDS, C64, COEFFS, IDX)                                      \
    switch (c->prim) {                                                                   \
    case BB_SCAN_INCLUSIVE:                                                              \
        st = sk_scan_inclusive##SFX(ctx, SK_UINT32, SK_OP_ADD, KEYS, OUT, c->n);          \
        break;                                                                           \
    case BB_SCAN_EXCLUSIVE:                                                              \
        st = sk_scan_exclusive##SFX(ctx, SK_UINT32, SK_OP_ADD, KEYS, OUT, c->n);          \
        break;                                                                           \
    case BB_REDUCE:                                                                      \
        st = sk_reduce##SFX(ctx, SK_UINT32, SK_OP_ADD, KEYS, &s->scalar, c->n);           \
        break;                                                                           \
    case BB_SELECT_IF:                                                                   \
        st = sk_select_if##SFX(ctx, SK_UINT32, BB_PREDICATE, KEYS, OUT, &s->count, c->n); \
        break;                                                                           \
    case BB_PARTITION:                                                                   \
        st = sk_partition##SFX(ctx, SK_UINT32, BB_PREDICATE, KEYS, OUT, &s->count, c->n); \
        break;                                                                           \
    case BB_PARTITION_REVERSED:                                                          \
        st = sk_partition_reversed##SFX(ctx, SK_UINT32, BB_PREDICATE, KEYS, OUT, &s->count, \
                                        c->n);                                           \
        break;                                                                           \
    case BB_SORT_KEYS:                                                                   \
        st = sk_sort_keys##SFX(ctx, SK_UINT32, SK, c->n, SK_ASCENDING);                   \
        break;                                                                           \
    case BB_SORT_PAIRS:                                                                  \
        st = sk_sort_pairs##SFX(ctx, SK_UINT32, sizeof(uint32_t), SK, SV, c->n,           \
                                SK_ASCENDING);                                           \
        break;                                                                           \
    case BB_MERGE_KEYS:                                                                  \
        st = sk_merge_keys##SFX(ctx, SK_UINT32, KEYS, KEYS_B, OUT, c->na, c->n - c->na,   \
                                SK_ASCENDING);                                           \
        break;                                                                           \
    case BB_MERGE_PAIRS:                                                                 \
        st = sk_merge_pairs##SFX(ctx, SK_UINT32, sizeof(uint32_t), KEYS, VALUES, KEYS_B,  \
                                 VALUES_B, OUT, OUT2, c->na, c->n - c->na, SK_ASCENDING); \
        break;                                                                           \
    case BB_SEGSCAN:                                                                     \
        seg.flags = FLAGS;                                                               \
        seg.flag_size = 1;                                                               \
        st = sk_segscan_inclusive##SFX(ctx, SK_UINT32, SK_OP_ADD, KEYS, &seg, OUT, c->n); \
        break;                                                                           \
    case BB_SEGREDUCE:                                                                   \
        seg.offsets = OFFSETS;                                                           \
        seg.offset_type = SK_UINT32;                                                     \
        seg.count = c->nseg;                                                             \
        st = sk_segreduce##SFX(ctx, SK_UINT32, SK_OP_ADD, KEYS, &seg, OUT, &s->count,     \
                               c->n);                                                    \
        break;                                                                           \
    case BB_POLY:                                                                        \
        st = sk_poly_eval##SFX(ctx, SK_FLOAT64, COEFFS, c->x, &s->poly, c->n);            \
        break;                                                                           \
    case BB_LOWER_BOUND:                                                                 \
    case BB_LOWER_BOUND_SORTED:                                                          \
        st = sk_search_lower_bound##SFX(ctx, SK_UINT32, KEYS, KEYS_B, IDX, c->na,         \
                                        c->n - c->na, SK_ASCENDING);                     \
        break;                                                                           \
    case BB_REDUCE_BY_KEY:                                                               \
        st = sk_reduce_by_key##SFX(ctx, SK_UINT32, SK_UINT32, SK_OP_ADD, IDS, KEYS, OUT2, \
                                   OUT, &s->count, c->n);                                \
        break;                                                                           \
    case BB_RLE:                                                                         \
        st = sk_run_length_encode##SFX(ctx, SK_UINT32, IDS, OUT, C64, &s->count, c->n);   \
        break;                                                                           \
    case BB_SEGSORT_SMALL:                                                               \
    case BB_SEGSORT_LARGE:                                                               \
        seg.offsets = OFFSETS;                                                           \
        seg.offset_type = SK_UINT32;                                                     \
        seg.count = c->nseg;                                                             \
        st = sk_segsort_keys##SFX(ctx, SK_UINT32, SK, &seg, c->n, SK_ASCENDING);          \
        break;                                                                           \
    case BB_TOPK:                                                                        \
        st = sk_topk_keys##SFX(ctx, SK_UINT32, KEYS, OUT, c->n, bb_topk_k(c->n),          \
                               SK_ASCENDING, SK_TOPK_SORTED);                            \
        break;                                                                           \
    case BB_SORT_LESS:                                                                   \
        st = sk_sort_by_less##SFX(ctx, &less_u32, SK, c->n);                             \
        break;                                                                           \
    case BB_HISTOGRAM:                                                                   \
        st = sk_histogram_even##SFX(ctx, SK_UINT32, KEYS, 0, BB_HIST_HI, C64, c->n,       \
                                    BB_HIST_BINS);                                       \
        break;                                                                           \
    case BB_SORT_KEYS64:                                                                 \
        st = sk_sort_keys##SFX(ctx, SK_UINT64, SK64, c->n, SK_ASCENDING);                 \
        break;                                                                           \
    case BB_SORT_PAIRS64:                                                                \
        st = sk_sort_pairs##SFX(ctx, SK_UINT64, sizeof(uint32_t), SK64, SV, c->n,         \
                                SK_ASCENDING);                                           \
        break;                                                                           \
    default:                                                                             \
        break;                                                                           \
    }

static int sk_run(void *self, const bb_case *c, double *ms, char *why, size_t cap)
{
    sk_state *s = self;
    bench *b = s->b;
    sk_context *ctx = b->ctx;
    const bb_devbufs *d = &b->d;
    sk_status st = SK_OK;
    sk_segments seg;
    memset(&seg, 0, sizeof seg);
    SK_DISPATCH(, d->keys, d->out, d->work_k, d->work_k64, d->work_v, d->keys_b, d->values,
                d->values_b, d->out2, d->flags, d->offsets, d->seg_ids, b->counts64, d->coeffs,
                d->out)
    if (st != SK_OK) return sk_why(s, st, bb_prim_name(c->prim), why, cap);
    double seconds = 0;
    st = sk_context_profile_take(ctx, &seconds, NULL);
    if (st != SK_OK) return sk_why(s, st, "sk_context_profile_take", why, cap);
    *ms = seconds * 1e3;
    return 0;
}

static int sk_fetch(void *self, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    sk_state *s = self;
    bench *b = s->b;
    size_t n = c->n;
    r->count = s->count;
    r->scalar = s->scalar;
    r->poly = s->poly;
    r->out = b->got;
    r->out2 = b->got2;
    r->out64 = b->got64;
    switch (c->prim) {
    case BB_SCAN_INCLUSIVE:
    case BB_SCAN_EXCLUSIVE:
    case BB_SEGSCAN:
    case BB_PARTITION:
    case BB_PARTITION_REVERSED:
    case BB_MERGE_KEYS:
        return read_u32(b, b->d.out, b->got, n, why, cap);
    case BB_MERGE_PAIRS:
        return read_u32(b, b->d.out, b->got, n, why, cap) ||
               read_u32(b, b->d.out2, b->got2, n, why, cap);
    case BB_SELECT_IF:
        return read_u32(b, b->d.out, b->got, s->count <= n ? s->count : 0, why, cap);
    case BB_SEGREDUCE:
        return read_u32(b, b->d.out, b->got, s->count <= n ? s->count : 0, why, cap);
    case BB_REDUCE_BY_KEY:
        return read_u32(b, b->d.out, b->got, s->count <= n ? s->count : 0, why, cap) ||
               read_u32(b, b->d.out2, b->got2, s->count <= n ? s->count : 0, why, cap);
    case BB_RLE:
        return read_u32(b, b->d.out, b->got, s->count <= n ? s->count : 0, why, cap) ||
               read_lengths(b, s->count <= n ? s->count : 0, why, cap);
    case BB_SORT_KEYS:
    case BB_SORT_LESS:
    case BB_SEGSORT_SMALL:
    case BB_SEGSORT_LARGE:
        return read_u32(b, b->d.work_k, b->got, n, why, cap);
    case BB_TOPK:
        return read_u32(b, b->d.out, b->got, bb_topk_k(n), why, cap);
    case BB_SORT_PAIRS:
        return read_u32(b, b->d.work_k, b->got, n, why, cap) ||
               read_u32(b, b->d.work_v, b->got2, n, why, cap);
    case BB_HISTOGRAM:
        return read_bytes(b, b->counts64, b->got64, BB_HIST_BINS * 8, why, cap);
    case BB_SORT_KEYS64:
        return read_bytes(b, b->d.work_k64, b->got64, n * 8, why, cap);
    case BB_SORT_PAIRS64:
        return read_bytes(b, b->d.work_k64, b->got64, n * 8, why, cap) ||
               read_u32(b, b->d.work_v, b->got2, n, why, cap);
    case BB_LOWER_BOUND:
    case BB_LOWER_BOUND_SORTED: /* n - na uint64 indices: 2 (n - na) words of out */
        r->out = b->got2;
        return read_u32(b, b->d.out, b->got, 2 * (n - c->na), why, cap) ||
               bb_narrow_indices((const uint64_t *)(void *)b->got, n - c->na, b->got2, why,
                                 cap);
    default:
        return 0;
    }
}

/* ---- scankit's host-array forms (end to end: copies in and out included) -------------------- */

/* The results a run must overwrite, poisoned; @return 0. */
static int reset_results(size_t *count, uint32_t *scalar, double *poly)
{
    *count = (size_t)-1;
    *scalar = POISON;
    *poly = -12345.0;
    return 0;
}

static int host_reset(void *self, const bb_case *c, int poison, char *why, size_t cap)
{
    sk_state *s = self;
    bench *b = s->b;
    (void)why;
    (void)cap;
    if (bb_is_keys64(c->prim))
        memcpy(b->got64, c->keys64, c->n * sizeof(uint64_t));
    else if (bb_sorts_in_place(c->prim))
        memcpy(b->got, c->keys, c->n * sizeof(uint32_t));
    if (bb_is_pairs_sort(c->prim)) memcpy(b->got2, c->values, c->n * sizeof(uint32_t));
    if (!bb_sorts_in_place(c->prim) && poison) {
        memset(b->got, 0xA5, c->n * sizeof(uint32_t));
        memset(b->got2, 0xA5, c->n * sizeof(uint32_t));
        memset(b->got64, 0xA5, BB_HIST_BINS * sizeof(uint64_t));
    }
    return reset_results(&s->count, &s->scalar, &s->poly);
}

static int host_run(void *self, const bb_case *c, double *ms, char *why, size_t cap)
{
    sk_state *s = self;
    bench *b = s->b;
    sk_context *ctx = b->ctx;
    sk_status st = SK_OK;
    sk_segments_host seg;
    memset(&seg, 0, sizeof seg);
    double t0 = bb_now();
    SK_DISPATCH(_host, c->keys, b->got, b->got, b->got64, b->got2, c->keys + c->na, c->values,
                c->values + c->na, b->got2, c->flags, c->offsets, c->seg_ids, b->got64,
                c->coeffs, (uint64_t *)(void *)b->got)
    *ms = (bb_now() - t0) * 1e3;
    double dummy = 0;
    sk_context_profile_take(ctx, &dummy, NULL); /* drop the launches' record */
    if (st != SK_OK) return sk_why(s, st, bb_prim_name(c->prim), why, cap);
    return 0;
}

static int host_fetch(void *self, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    sk_state *s = self;
    (void)why, (void)cap;
    if (c->prim == BB_RLE)
        for (size_t i = 0; i < s->count && i < c->n; i++)
            s->b->got2[i] = (uint32_t)s->b->got64[i];
    *r = (bb_result){s->b->got, s->b->got2, s->count, s->scalar, s->poly, s->b->got64};
    if (c->prim != BB_LOWER_BOUND && c->prim != BB_LOWER_BOUND_SORTED) return 0;
    r->out = s->b->got2; /* the uint64 indices in got, narrowed */
    return bb_narrow_indices((const uint64_t *)(void *)s->b->got, c->n - c->na, s->b->got2, why,
                             cap);
}

/* ---- the serial baselines -------------------------------------------------------------------- */

typedef struct serial_state {
    bench *b;
    bb_serial variant;
    size_t count;
    uint32_t scalar;
    double poly;
} serial_state;

static int serial_reset(void *self, const bb_case *c, int poison, char *why, size_t cap)
{
    serial_state *s = self;
    (void)why;
    (void)cap;
    if (poison) {
        memset(s->b->ser, 0xA5, c->n * sizeof(uint32_t));
        memset(s->b->ser2, 0xA5, c->n * sizeof(uint32_t));
        if (bb_has_out64(c->prim))
            memset(s->b->ser64, 0xA5,
                   (bb_is_keys64(c->prim) ? c->n : BB_HIST_BINS) * sizeof(uint64_t));
    }
    return reset_results(&s->count, &s->scalar, &s->poly);
}

static int serial_run(void *self, const bb_case *c, double *ms, char *why, size_t cap)
{
    serial_state *s = self;
    (void)why;
    (void)cap;
    double t0 = bb_now();
    bb_serial_run(c, s->variant, s->b->ser, s->b->ser2, s->b->ser64, s->b->ser_tmp,
                  s->b->ser_tmp64, &s->count, &s->scalar, &s->poly);
    *ms = (bb_now() - t0) * 1e3;
    return 0;
}

static int serial_fetch(void *self, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    serial_state *s = self;
    (void)c, (void)why, (void)cap;
    *r = (bb_result){s->b->ser, s->b->ser2, s->count, s->scalar, s->poly, s->b->ser64};
    return 0;
}

/* ---- device and host buffers ------------------------------------------------------------------ */

static void devbufs_release(bench *b)
{
    cl_mem *m[] = {&b->d.keys, &b->d.values, &b->d.keys_b, &b->d.values_b, &b->d.flags,
                   &b->d.offsets, &b->d.seg_ids, &b->d.coeffs, &b->d.out, &b->d.out2,
                   &b->d.work_k, &b->d.work_v, &b->d.keys64, &b->d.work_k64, &b->counts64};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (*m[i] && clReleaseMemObject(*m[i]) != CL_SUCCESS) b->errors++;
        *m[i] = NULL;
    }
    b->dev_n = 0;
    b->keys_up = b->values_up = b->segs_up = b->coeffs_up = b->sort_segs_up = 0;
    b->keys64_up = 0;
}

/* Device buffers for n elements (out one word more: the n - n / 2 uint64
 * indices of a search; the 64-bit sorts' only where they run); 0 or -1
 * (why). */
static int devbufs_alloc(bench *b, size_t n, char *why, size_t cap)
{
    devbufs_release(b);
    size_t m = n ? n : 1, u = m * sizeof(uint32_t);
    size_t u64 = (b->opt.prim_mask & BB_KEYS64_MASK ? m : 1) * sizeof(uint64_t);
    size_t c64 = (m > BB_HIST_BINS ? m : BB_HIST_BINS) * sizeof(uint64_t);
    struct { cl_mem *mem; size_t bytes; const char *name; } list[] = {
        {&b->d.keys, u, "keys"},       {&b->d.values, u, "values"},
        {&b->d.keys_b, u, "keys_b"},   {&b->d.values_b, u, "values_b"},
        {&b->d.flags, m, "flags"},     {&b->d.offsets, u + 4, "offsets"},
        {&b->d.seg_ids, u, "seg_ids"}, {&b->d.coeffs, m * sizeof(double), "coeffs"},
        {&b->d.out, u + 4, "out"},     {&b->d.out2, u, "out2"},
        {&b->d.work_k, u, "work_k"},   {&b->d.work_v, u, "work_v"},
        {&b->d.keys64, u64, "keys64"}, {&b->d.work_k64, u64, "work_k64"},
        {&b->counts64, c64, "counts64"}};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        cl_int rc = CL_SUCCESS;
        *list[i].mem = clCreateBuffer(b->clctx, CL_MEM_READ_WRITE, list[i].bytes, NULL, &rc);
        if (rc != CL_SUCCESS) {
            snprintf(why, cap, "clCreateBuffer(%s, %zu bytes): %s", list[i].name,
                     list[i].bytes, sk_cl_error_name(rc));
            devbufs_release(b);
            return -1;
        }
    }
    b->d.cap = n;
    b->dev_n = n;
    return 0;
}

static int upload(bench *b, cl_mem to, const void *from, size_t bytes, char *why, size_t cap)
{
    if (!bytes) return 0;
    cl_int rc = clEnqueueWriteBuffer(b->queue, to, CL_TRUE, 0, bytes, from, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_why(rc, "clEnqueueWriteBuffer", why, cap);
}

/* Makes the device buffers hold c's inputs. */
static int upload_case(bench *b, const bb_case *c, char *why, size_t cap)
{
    size_t n = c->n, nb = n - c->na;
    /* the generated keys, or (merges) the same with each half sorted */
    if (c->keys &&
        (!b->keys_up || b->keys_src != c->keys || strcmp(b->keys_dist, c->dist.name) ||
         b->keys_sum != c->checksum)) {
        if (upload(b, b->d.keys, c->keys, n * 4, why, cap) ||
            upload(b, b->d.keys_b, c->keys + c->na, nb * 4, why, cap))
            return -1;
        b->keys_src = c->keys;
        b->keys_sum = c->checksum;
        snprintf(b->keys_dist, sizeof b->keys_dist, "%s", c->dist.name);
        b->keys_up = 1;
    }
    if (c->keys64 && (!b->keys64_up || b->keys64_sum != c->checksum)) {
        if (upload(b, b->d.keys64, c->keys64, n * 8, why, cap)) return -1;
        b->keys64_sum = c->checksum;
        b->keys64_up = 1;
    }
    if (c->values && !b->values_up) {
        if (upload(b, b->d.values, c->values, n * 4, why, cap) ||
            upload(b, b->d.values_b, c->values + c->na, nb * 4, why, cap))
            return -1;
        b->values_up = 1;
    }
    if (c->flags && !b->segs_up) {
        if (upload(b, b->d.flags, c->flags, n, why, cap) ||
            upload(b, b->d.offsets, c->offsets, (c->nseg + 1) * 4, why, cap) ||
            upload(b, b->d.seg_ids, c->seg_ids, n * 4, why, cap))
            return -1;
        b->segs_up = 1;
        b->sort_segs_up = 0;
    }
    if (bb_is_segsort(c->prim) && b->sort_segs_up != (int)c->prim) {
        if (upload(b, b->d.offsets, c->offsets, (c->nseg + 1) * 4, why, cap)) return -1;
        b->sort_segs_up = (int)c->prim;
        b->segs_up = 0;
    }
    if (c->coeffs && !b->coeffs_up) {
        if (upload(b, b->d.coeffs, c->coeffs, n * sizeof(double), why, cap)) return -1;
        b->coeffs_up = 1;
    }
    return 0;
}

static void host_release(bench *b)
{
    void *arrays[] = {b->got, b->got2, b->ser, b->ser2, b->ser_tmp, b->got64, b->ser64,
                      b->ser_tmp64};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    b->got = b->got2 = b->ser = b->ser2 = b->ser_tmp = NULL;
    b->got64 = b->ser64 = b->ser_tmp64 = NULL;
    b->host_n = 0;
}

static int host_alloc(bench *b, size_t n)
{
    host_release(b);
    size_t m = n ? n : 1;
    b->got = malloc((m + 1) * 4); /* as d.out */
    b->got2 = malloc(m * 4);
    b->ser = malloc(m * 4);
    b->ser2 = malloc(m * 4);
    b->ser_tmp = malloc(2 * m * 4);
    /* uint64: max(n, BB_HIST_BINS), or the histogram's counts alone where
     * no 64-bit sort runs */
    size_t w = m > BB_HIST_BINS ? m : BB_HIST_BINS;
    int sorts64 = (b->opt.prim_mask & BB_KEYS64_MASK) != 0;
    b->got64 = malloc(w * 8);
    b->ser64 = malloc((sorts64 ? w : BB_HIST_BINS) * 8);
    b->ser_tmp64 = malloc((sorts64 ? 2 * m : 1) * 8);
    if (!b->got || !b->got2 || !b->ser || !b->ser2 || !b->ser_tmp || !b->got64 || !b->ser64 ||
        !b->ser_tmp64) {
        host_release(b);
        return -1;
    }
    b->host_n = n;
    return 0;
}

/* ---- one case ---------------------------------------------------------------------------------- */

static void progress(const bb_case *c, const char *impl, const bb_measure *m)
{
    if (m->status == BB_OK)
        fprintf(stderr, "  %-14s 2^%-2d %-11s %-13s %10.3f ms %8.3f Gelem/s\n",
                bb_prim_name(c->prim), (int)(63 - __builtin_clzll((unsigned long long)c->n)),
                c->dist.name, impl, m->ms, (double)c->n / (m->ms * 1e6));
    else
        fprintf(stderr, "  %-14s 2^%-2d %-11s %-13s %s: %s\n", bb_prim_name(c->prim),
                (int)(63 - __builtin_clzll((unsigned long long)c->n)), c->dist.name, impl,
                bb_status_name(m->status), m->detail);
}

static void record(bench *b, const bb_case *c, const char *impl, const char *device,
                   const char *driver, const bb_measure *m, double scankit_ms)
{
    bb_csv_row(b->csv, c, impl, device, driver, m, scankit_ms);
    progress(c, impl, m);
    if (m->status == BB_WRONG) b->wrong++;
    if (m->status == BB_ERROR) b->errors++;
}

/* Highway's vqsort on the host: one thread ("vqsort"), every core
 * ("vqsort_mt"). */
static void run_vqsort(bench *b, const bb_case *c, double sk_ms)
{
    static const char *const names[2] = {"vqsort", "vqsort_mt"};
    if (!bb_vqsort_supports(c->prim)) return;
    for (int i = 0; i < 2; i++) {
        bb_measure m;
        char why[200] = "", device[340];
        memset(&m, 0, sizeof m);
        /* the host CPU's name without bb_host_cpu's " (serial, 1 thread)" */
        size_t len = strcspn(b->cpu, "(");
        while (len && b->cpu[len - 1] == ' ') len--;
        snprintf(device, sizeof device, "%.*s (%u thread(s))", (int)len, b->cpu,
                 bb_vqsort_threads(b->vqsort[i]));
        bb_impl vi;
        if (!b->vqsort[i]) {
            m.status = BB_UNAVAILABLE;
            snprintf(m.detail, sizeof m.detail, "%s", b->vqsort_why);
        } else if (c->n > (size_t)1 << b->opt.serial_max_log2) {
            m.status = BB_SKIPPED;
            snprintf(m.detail, sizeof m.detail, "host peers run up to 2^%d "
                     "(--serial-max-log2)", b->opt.serial_max_log2);
        } else if (bb_vqsort_impl(b->vqsort[i], c, &vi, why, sizeof why)) {
            m.status = BB_ERROR;
            snprintf(m.detail, sizeof m.detail, "%s", why);
        } else {
            bb_measure_run(&b->opt, &vi, c, &m);
        }
        record(b, c, names[i], device, bb_vqsort_version(), &m, sk_ms);
    }
}

static void run_case(bench *b, const bb_case *c)
{
    bb_measure m;
    char why[200] = "";
    double sk_ms = 0;

    /* scankit, device time */
    sk_state ss = {b, 0, 0, 0, SK_OK};
    bb_impl sk = {&ss, sk_reset, sk_run, sk_fetch, 0};
    if (b->sk_unavailable[c->prim]) {
        memset(&m, 0, sizeof m);
        m.status = BB_UNAVAILABLE;
        snprintf(m.detail, sizeof m.detail, "%s", b->sk_unavailable_why[c->prim]);
        record(b, c, "scankit", b->device, b->driver, &m, 0);
    } else if (upload_case(b, c, why, sizeof why)) {
        memset(&m, 0, sizeof m);
        m.status = BB_ERROR;
        snprintf(m.detail, sizeof m.detail, "%s", why);
        record(b, c, "scankit", b->device, b->driver, &m, 0);
        return;
    } else {
        bb_measure_run(&b->opt, &sk, c, &m);
        if (m.status == BB_ERROR && ss.last == SK_E_UNSUPPORTED) {
            /* e.g. float64 without fp64: not an error of scankit */
            m.status = BB_UNAVAILABLE;
            b->sk_unavailable[c->prim] = 1;
            snprintf(b->sk_unavailable_why[c->prim], sizeof b->sk_unavailable_why[0], "%s",
                     m.detail);
        }
        if (m.status == BB_OK) sk_ms = m.ms;
        record(b, c, "scankit", b->device, b->driver, &m, sk_ms);

        /* scankit, host arrays in and out */
        if (!b->opt.no_host && m.status != BB_UNAVAILABLE) {
            bb_impl host = {&ss, host_reset, host_run, host_fetch, 0};
            bb_measure hm;
            bb_measure_run(&b->opt, &host, c, &hm);
            record(b, c, "scankit_host", b->device, b->driver, &hm, sk_ms);
        }
    }

    /* serial baselines */
    serial_state sr = {b, BB_SERIAL_LOOP, 0, 0, 0};
    bb_impl ser = {&sr, serial_reset, serial_run, serial_fetch, 0};
    int sorting = bb_sorts_in_place(c->prim);
    if (c->n > (size_t)1 << b->opt.serial_max_log2) {
        memset(&m, 0, sizeof m);
        m.status = BB_SKIPPED;
        snprintf(m.detail, sizeof m.detail, "serial baselines run up to 2^%d "
                 "(--serial-max-log2)", b->opt.serial_max_log2);
    } else {
        bb_measure_run(&b->opt, &ser, c, &m);
    }
    record(b, c, sorting ? "serial_radix" : "serial", b->cpu, b->cc, &m, sk_ms);
    if (sorting && c->n > (size_t)1 << b->opt.qsort_max_log2) {
        memset(&m, 0, sizeof m);
        m.status = BB_SKIPPED;
        snprintf(m.detail, sizeof m.detail, "qsort is run up to 2^%d (--qsort-max-log2)",
                 b->opt.qsort_max_log2);
        record(b, c, "serial_qsort", b->cpu, b->cc, &m, sk_ms);
    } else if (sorting) {
        sr.variant = BB_SERIAL_QSORT;
        bb_measure_run(&b->opt, &ser, c, &m);
        record(b, c, "serial_qsort", b->cpu, b->cc, &m, sk_ms);
    }

    run_vqsort(b, c, sk_ms);

    /* Boost.Compute */
    if (!bb_boost_supports(c->prim)) return;
    char bdriver[400];
    snprintf(bdriver, sizeof bdriver, "%s; OpenCL driver %s", bb_boost_version(),
             b->desc.driver_version);
    memset(&m, 0, sizeof m);
    if (!b->boost) {
        m.status = BB_UNAVAILABLE;
        snprintf(m.detail, sizeof m.detail, "%s", b->boost_why);
    } else {
        bb_impl bi;
        if (upload_case(b, c, why, sizeof why) ||
            bb_boost_impl(b->boost, &b->d, c, &bi, why, sizeof why)) {
            m.status = BB_ERROR;
            snprintf(m.detail, sizeof m.detail, "%s", why);
        } else {
            bb_measure_run(&b->opt, &bi, c, &m);
        }
    }
    record(b, c, "boost_compute", b->device, bdriver, &m, sk_ms);
}

/* ---- setup ------------------------------------------------------------------------------------- */

/* --tile WxI: the GPU shape's work-group size and items per work-item. */
static sk_status set_tile(sk_context *ctx, const char *tile)
{
    long wg = 0, items = 0;
    if (sscanf(tile, "%ldx%ld", &wg, &items) != 2) return SK_E_INVALID_ARG;
    sk_status st = sk_context_set_param(ctx, SK_PARAM_WG_SIZE, wg);
    return st == SK_OK ? sk_context_set_param(ctx, SK_PARAM_ITEMS_PER_THREAD, items) : st;
}

static int open_context(bench *b)
{
    sk_status st = sk_context_create(&b->ctx, b->opt.device, NULL, 0);
    if (st != SK_OK) {
        fprintf(stderr, "bench_all: opening the device: %s (%s)\n", sk_status_str(st),
                b->ctx ? sk_context_error_detail(b->ctx) : "no device matches");
        return -1;
    }
    long shape = 0;
    if (b->opt.shape)
        st = sk_context_set_param(b->ctx, SK_PARAM_SHAPE,
                                  !strcmp(b->opt.shape, "cpu") ? SK_SHAPE_CPU : SK_SHAPE_GPU);
    if (st == SK_OK) st = sk_context_set_param(b->ctx, SK_PARAM_PROFILE, 1);
    if (st == SK_OK && b->opt.tile) st = set_tile(b->ctx, b->opt.tile);
    if (st == SK_OK && b->opt.chunks)
        st = sk_context_set_param(b->ctx, SK_PARAM_CPU_CHUNKS, strtol(b->opt.chunks, NULL, 10));
    if (st == SK_OK && b->opt.sort_skip_from)
        st = sk_context_set_param(b->ctx, SK_PARAM_GPU_SORT_SKIP_FROM,
                                  strtol(b->opt.sort_skip_from, NULL, 10));
    if (st == SK_OK && b->opt.sort_bucket_bytes)
        st = sk_context_set_param(b->ctx, SK_PARAM_CPU_SORT_BUCKET_BYTES,
                                  strtol(b->opt.sort_bucket_bytes, NULL, 10));
    if (st == SK_OK) st = sk_context_get_param(b->ctx, SK_PARAM_SHAPE, &shape);
    b->desc.struct_size = sizeof b->desc;
    if (st == SK_OK) st = sk_context_device(b->ctx, &b->desc);
    if (st != SK_OK) {
        fprintf(stderr, "bench_all: configuring the context: %s (%s)\n", sk_status_str(st),
                sk_context_error_detail(b->ctx));
        return -1;
    }
    b->clctx = sk_context_cl_context(b->ctx);
    b->queue = sk_context_cl_queue(b->ctx);
    snprintf(b->device, sizeof b->device, "%s (%s)", b->desc.device_name,
             b->desc.platform_name);
    snprintf(b->driver, sizeof b->driver, "scankit %s %s shape; OpenCL driver %s",
             sk_version_string(), shape == SK_SHAPE_CPU ? "cpu" : "gpu",
             b->desc.driver_version);
    /* results folder name: the platform for PoCL (its device names carry the
     * CPU model), the device otherwise */
    char lower[300];
    bb_slug(b->desc.platform_name, lower, sizeof lower);
    if (strstr(lower, "portable-computing-language") || strstr(lower, "pocl"))
        snprintf(b->slug, sizeof b->slug, "pocl-%s", b->desc.is_gpu ? "gpu" : "cpu");
    else
        bb_slug(b->desc.device_name, b->slug, sizeof b->slug);
    bb_host_cpu(b->cpu, sizeof b->cpu);
#if defined(__clang__)
    snprintf(b->cc, sizeof b->cc, "clang %s -O2", __clang_version__);
#elif defined(__GNUC__)
    snprintf(b->cc, sizeof b->cc, "gcc %s", __VERSION__);
#else
    snprintf(b->cc, sizeof b->cc, "C compiler");
#endif
    return 0;
}

/* A tiny call of every primitive: those whose API fails are "unavailable". */
static void probe(bench *b)
{
    bb_inputs in;
    bb_dist u = {AK_DIST_UNIFORM, 1, "uniform"};
    char why[200];
    if (bb_inputs_alloc(&in, 1000, b->opt.seed) || host_alloc(b, 1000) ||
        devbufs_alloc(b, 1000, why, sizeof why)) {
        bb_inputs_free(&in);
        return;
    }
    for (int p = 0; p < BB_PRIM_COUNT; p++) {
        bb_case c;
        if (!(b->opt.prim_mask & (1u << p))) continue;
        if (bb_case_prepare(&c, &in, (bb_prim)p, &u, why, sizeof why)) continue;
        sk_state ss = {b, 0, 0, 0, SK_OK};
        double ms = 0;
        bb_result r;
        memset(&r, 0, sizeof r);
        if (upload_case(b, &c, why, sizeof why) || sk_reset(&ss, &c, 1, why, sizeof why))
            continue;
        if (sk_run(&ss, &c, &ms, why, sizeof why) == 0) continue;
        if (ss.last == SK_E_UNSUPPORTED || ss.last == SK_E_INVALID_ARG ||
            ss.last == SK_E_BUILD) {
            b->sk_unavailable[p] = 1;
            snprintf(b->sk_unavailable_why[p], sizeof b->sk_unavailable_why[0], "%s", why);
            fprintf(stderr, "bench_all: scankit %s is unavailable: %s\n",
                    bb_prim_name((bb_prim)p), why);
        }
    }
    bb_inputs_free(&in);
}

/* Device bytes one size needs: the buffers above, scankit's scratch and a
 * peer's temporaries (a sort of pairs: about 16 bytes an element; of
 * uint64 keys about 24, and their two buffers 16 more). */
static uint64_t device_bytes(size_t n, unsigned prim_mask)
{
    return (uint64_t)n * (prim_mask & BB_KEYS64_MASK ? 102u : 78u) + (64u << 20);
}

int main(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof b);
    int rc = bb_opts_parse(&b.opt, argc, argv, "bench_all", 1);
    if (rc) return rc == 1 ? 0 : 2;
    if (open_context(&b)) return 1;
    if (b.opt.print_slug) {
        printf("%s\n", b.slug);
        sk_context_free(b.ctx);
        return 0;
    }
    if (b.opt.no_boost) snprintf(b.boost_why, sizeof b.boost_why, "left out (--no-boost)");
    else b.boost = bb_boost_open(b.clctx, b.queue, b.boost_why, sizeof b.boost_why);
    if (!b.boost) fprintf(stderr, "bench_all: Boost.Compute: %s\n", b.boost_why);
    for (int i = 0; i < 2; i++)
        if (!(b.vqsort[i] = bb_vqsort_open(i ? 0 : 1, b.vqsort_why, sizeof b.vqsort_why)))
            break;
    if (!b.vqsort[1]) fprintf(stderr, "bench_all: vqsort: %s\n", b.vqsort_why);

    if (!b.opt.csv || !strcmp(b.opt.csv, "-")) b.csv = stdout;
    else if (!(b.csv = fopen(b.opt.csv, "w"))) {
        fprintf(stderr, "bench_all: cannot write %s: %s\n", b.opt.csv, strerror(errno));
        return 1;
    }
    bb_csv_header(b.csv);
    fprintf(stderr, "bench_all: %s; %s; serial on %s; seed %" PRIu64 "; %d repeats at most, "
                    "%d warm-ups\n",
            b.device, b.driver, b.cpu, b.opt.seed, b.opt.repeats, b.opt.warmups);
    probe(&b);

    int log2s[MAX_SIZES];
    int nsizes = bb_sizes(&b.opt, log2s, MAX_SIZES);
    double t_start = bb_now(), last_size_s = 0;
    size_t last_n = 0;
    uint64_t host_mem = bb_host_memory();
    for (int si = 0; si < nsizes; si++) {
        size_t n = (size_t)1 << log2s[si];
        double elapsed = bb_now() - t_start;
        double predicted = last_n ? last_size_s * (double)n / (double)last_n : 0;
        if (b.opt.budget_s > 0 && elapsed + predicted > b.opt.budget_s) {
            fprintf(stderr, "bench_all: budget: %.0f s spent, 2^%d would take about %.0f s "
                            "more; skipping 2^%d and above\n",
                    elapsed, log2s[si], predicted, log2s[si]);
            break;
        }
        if (device_bytes(n, b.opt.prim_mask) > b.desc.global_mem_bytes ||
            (uint64_t)n * sizeof(double) > b.desc.max_alloc_bytes) {
            fprintf(stderr, "bench_all: 2^%d elements need more device memory than %s has; "
                            "stopping there\n", log2s[si], b.desc.device_name);
            break;
        }
        if (host_mem && bb_host_bytes(n, b.opt.prim_mask) > host_mem * 3 / 4) {
            fprintf(stderr, "bench_all: 2^%d elements need more host memory than there is; "
                            "stopping there\n", log2s[si]);
            break;
        }
        double t_size = bb_now();
        char why[200];
        bb_inputs in;
        if (bb_inputs_alloc(&in, n, b.opt.seed) || host_alloc(&b, n)) {
            fprintf(stderr, "bench_all: out of host memory at 2^%d\n", log2s[si]);
            bb_inputs_free(&in);
            break;
        }
        if (devbufs_alloc(&b, n, why, sizeof why)) {
            fprintf(stderr, "bench_all: 2^%d: %s; stopping there\n", log2s[si], why);
            bb_inputs_free(&in);
            break;
        }
        fprintf(stderr, "bench_all: n = 2^%d\n", log2s[si]);
        /* distribution-major, so that each input is generated once per size */
        static const char *const order[] = {"uniform", "entropy:2", "entropy:3", "entropy:4",
                                            "sorted", "reversed", "equal", "few-unique"};
        for (size_t di = 0; di < sizeof order / sizeof order[0]; di++) {
            for (int p = 0; p < BB_PRIM_COUNT; p++) {
                bb_dist dists[BB_MAX_DISTS];
                size_t nd = bb_prim_dists((bb_prim)p, dists);
                if (!(b.opt.prim_mask & (1u << p))) continue;
                for (size_t k = 0; k < nd; k++) {
                    bb_case c;
                    if (strcmp(dists[k].name, order[di]) || !bb_dist_selected(&b.opt, &dists[k]))
                        continue;
                    if (bb_case_prepare(&c, &in, (bb_prim)p, &dists[k], why, sizeof why)) {
                        fprintf(stderr, "bench_all: %s: %s\n", bb_prim_name((bb_prim)p), why);
                        b.errors++;
                        continue;
                    }
                    run_case(&b, &c);
                }
            }
        }
        bb_inputs_free(&in);
        last_size_s = bb_now() - t_size;
        last_n = n;
    }
    devbufs_release(&b);
    host_release(&b);
    bb_boost_close(b.boost);
    bb_vqsort_close(b.vqsort[0]);
    bb_vqsort_close(b.vqsort[1]);
    sk_context_free(b.ctx);
    if (b.csv != stdout && fclose(b.csv) != 0) b.errors++;
    fprintf(stderr, "bench_all: %.1f s; %d wrong result(s), %d error(s)\n", bb_now() - t_start,
            b.wrong, b.errors);
    return b.wrong || b.errors ? 1 : 0;
}
