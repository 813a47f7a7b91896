/*
 * bench_sort - scankit's radix sort (sk_sort_keys, sk_sort_pairs on uint32
 * keys, uint32 values; for uniform keys also uint16 and uint8 keys) against,
 * in the same run and on the same data: a serial C LSD radix sort (8-bit
 * digits, all four histograms in one read, constant digits skipped: the
 * narrow keys' high digits too, though it reads them as uint32 words) and
 * qsort (of the keys as uint32 words).
 *
 *   bench_sort [--min-log2 K] [--max-log2 K] [--repeats R] [--device SPEC]
 *              [--shape cpu|gpu] [--seed S] [--qsort-max-log2 K]
 *
 * Inputs: uniform random keys, and entropy-reduced keys (AND of 2 random
 * words: each bit is 1 with probability 1/4). Values are the indices.
 * For each n = 2^min .. 2^max every scankit result is compared with the
 * serial radix sort's (both stable, so keys and values must be identical)
 * and the serial result is checked sorted; a wrong result is reported as an
 * error and not timed. Times are medians of R runs after one warm-up.
 * scankit's device time runs from a marker enqueued before the call to one
 * enqueued after it (profiling events: every command of the sort, the copy
 * back after an odd number of passes included; the upload of the unsorted
 * input before each run is not); its kernel time is the span of the call's
 * launches (SK_PARAM_PROFILE, sk_context_profile_take); the baselines' is
 * wall time on one core. scankit's runs and the serial radix sort's
 * alternate (one each per repeat), so that load from other programs on a
 * shared machine hits both alike; qsort runs after them, at most 3 times,
 * and only up to n = 2^K of --qsort-max-log2 (24, as in bench_all: it is
 * slow; "-" in its columns above that).
 * Exit 0 when every result was right, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"
#include "sk_rng.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPEATS 101
#define PROG "bench_sort"
#define QSORT_MAX_REPEATS 3

/* ---- options ---------------------------------------------------------------- */

typedef struct options {
    int min_log2, max_log2, repeats, qsort_max_log2;
    const char *device, *shape;
    uint64_t seed;
} options;

/* The command line as read: the shared options first. */
typedef struct sort_args {
    bb_run_args run;
    uint64_t qsort_max_log2;
} sort_args;

static const ak_opt sort_rows[] = {
    BB_RUN_ROWS_SIZES("sizes n = 2^K from K (16; at least 1) ...",
                      "... to K (24; at most 32)",
                      "R timed runs per measurement (5)"),
    BB_RUN_ROW_SEED("the input seed (42)"),
    {"qsort-max-log2", 0, AK_OPT_U64, offsetof(sort_args, qsort_max_log2), "K",
     "the qsort baseline only up to 2^K (24): it is slow", NULL, 0},
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void sort_defaults(void *args)
{
    sort_args *a = args;
    bb_run_defaults(&a->run, 16, 24, 5, 42);
    a->qsort_max_log2 = 24;
}

static int sort_check(void *args, ak_err *e)
{
    static const bb_run_limits limits = {1, 32, MAX_REPEATS};
    sort_args *a = args;
    if (bb_run_check(&a->run, &limits, e)) return -1;
    if (a->qsort_max_log2 > 40) return ak_fail(e, "--qsort-max-log2 must be from 0 to 40");
    return 0;
}

/* 0: run; 1: --help shown; 2: bad usage. */
static int parse_options(int argc, char **argv, options *o)
{
    const ak_cli cli = {"bench_sort", "bench_sort [OPTION]...", sort_rows, sizeof(sort_args),
                        sort_defaults, sort_check, NULL};
    sort_args a;
    int rc = bb_run_parse(&cli, argc, argv, &a);
    if (rc) return rc;
    *o = (options){(int)a.run.min_log2, (int)a.run.max_log2, (int)a.run.repeats,
                   (int)a.qsort_max_log2, a.run.device, a.run.shape, a.run.seed};
    return 0;
}

/* ---- timing --------------------------------------------------------------------- */

/* ---- data ----------------------------------------------------------------------- */

/* Keys of `bytes` bytes: AND of `words` random words (1 = uniform), their
 * top bits. */
static void fill_keys(uint32_t *k, size_t n, int words, size_t bytes, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ~(uint64_t)0;
        for (int j = 0; j < words; j++) w &= sk_splitmix64_next(&s);
        k[i] = (uint32_t)(w >> (64 - 8 * bytes));
    }
}

/* ---- baselines ------------------------------------------------------------------- */

/* Serial LSD radix sort, 8-bit digits; v may be NULL (keys only). */
static void lsd_sort(uint32_t *k, uint32_t *v, uint32_t *tk, uint32_t *tv, size_t n)
{
    size_t count[4][256] = {{0}};
    for (size_t i = 0; i < n; i++)
        for (int p = 0; p < 4; p++) count[p][(k[i] >> (8 * p)) & 255]++;
    uint32_t *sk = k, *sv = v, *dk = tk, *dv = tv;
    for (int p = 0; p < 4; p++) {
        unsigned shift = 8 * (unsigned)p;
        if (n == 0 || count[p][(sk[0] >> shift) & 255] == n) continue;
        size_t sum = 0;
        for (int d = 0; d < 256; d++) {
            size_t c = count[p][d];
            count[p][d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t dst = count[p][(sk[i] >> shift) & 255]++;
            dk[dst] = sk[i];
            if (v) dv[dst] = sv[i];
        }
        uint32_t *t = sk; sk = dk; dk = t;
        t = sv; sv = dv; dv = t;
    }
    if (sk != k) {
        memcpy(k, sk, n * sizeof *k);
        if (v) memcpy(v, sv, n * sizeof *v);
    }
}

typedef struct kv {
    uint32_t k, v;
} kv;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Stable through the value (the index) as tie-break. */
static int cmp_kv(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* ---- the benchmark ---------------------------------------------------------------- */

typedef struct bench {
    options o;
    sk_context *ctx;
    cl_command_queue q;
    cl_mem dk, dv;
    uint32_t *in, *idx, *ref_k, *ref_v, *work_k, *work_v, *tmp_k, *tmp_v;
    kv *pairs;
    size_t cap;
    size_t ks;                /* key bytes on the device: 4, 2 or 1 */
    unsigned char *packed;    /* the keys as the device holds them */
} bench;

/* The device's key type of ks bytes. */
static sk_type key_type_of(size_t ks)
{
    return ks == 1 ? SK_UINT8 : ks == 2 ? SK_UINT16 : SK_UINT32;
}

/* b->packed = the n keys of b->in at b->ks bytes each (little-endian). */
static void pack_keys(bench *b, size_t n)
{
    for (size_t i = 0; i < n; i++) memcpy(b->packed + i * b->ks, &b->in[i], b->ks);
}

/* b->work_k = the n keys of b->packed, widened. */
static void unpack_keys(bench *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t k = 0;
        memcpy(&k, b->packed + i * b->ks, b->ks);
        b->work_k[i] = k;
    }
}

static int fail_sk(bench *b, sk_status st, const char *what)
{
    fprintf(stderr, "bench_sort: %s: %s (%s)\n", what, sk_status_name(st),
            b->ctx ? sk_context_error_detail(b->ctx) : "");
    return -1;
}

static int fail_cl(cl_int rc, const char *what)
{
    fprintf(stderr, "bench_sort: %s: %s\n", what, sk_cl_error_name(rc));
    return -1;
}

/* One run of the serial radix sort on a fresh copy of the input. */
static double lsd_once_ms(bench *b, size_t n, bool pairs)
{
    memcpy(b->work_k, b->in, n * 4);
    memcpy(b->work_v, b->idx, n * 4);
    double t0 = (bb_now() * 1e3);
    lsd_sort(b->work_k, pairs ? b->work_v : NULL, b->tmp_k, b->tmp_v, n);
    return (bb_now() * 1e3) - t0;
}

static double qsort_ms(bench *b, size_t n, bool pairs)
{
    double t[QSORT_MAX_REPEATS];
    int reps = b->o.repeats < QSORT_MAX_REPEATS ? b->o.repeats : QSORT_MAX_REPEATS;
    for (int r = 0; r < reps; r++) {
        memcpy(b->work_k, b->in, n * 4);
        for (size_t i = 0; pairs && i < n; i++) b->pairs[i] = (kv){b->in[i], (uint32_t)i};
        double t0 = (bb_now() * 1e3);
        if (pairs) qsort(b->pairs, n, sizeof *b->pairs, cmp_kv);
        else qsort(b->work_k, n, 4, cmp_u32);
        t[r] = (bb_now() * 1e3) - t0;
    }
    for (size_t i = 1; i < n; i++)
        if ((pairs ? b->pairs[i - 1].k > b->pairs[i].k : b->work_k[i - 1] > b->work_k[i]))
            return -1;
    return bb_median(t, reps);
}

static int upload(bench *b, size_t n, bool pairs)
{
    pack_keys(b, n);
    cl_int rc =
        clEnqueueWriteBuffer(b->q, b->dk, CL_FALSE, 0, n * b->ks, b->packed, 0, NULL, NULL);
    if (rc == CL_SUCCESS && pairs)
        rc = clEnqueueWriteBuffer(b->q, b->dv, CL_FALSE, 0, n * 4, b->idx, 0, NULL, NULL);
    if (rc == CL_SUCCESS) rc = clFinish(b->q);
    return rc == CL_SUCCESS ? 0 : fail_cl(rc, "upload");
}


/* One scankit sort of the input: device milliseconds from a marker before
 * the call to one after it (every command of the sort, the copy back after
 * an odd number of passes included), kernel milliseconds (the launches'
 * span from sk_context_profile_take) and wall milliseconds (call + finish). */
static int sk_run(bench *b, size_t n, bool pairs, double *dev, double *kern, double *wall)
{
    cl_event m0 = NULL, m1 = NULL;
    double secs = 0;
    if (upload(b, n, pairs) != 0 || bb_marker(PROG, b->q, &m0) != 0) return -1;
    double t0 = (bb_now() * 1e3);
    sk_type t = key_type_of(b->ks);
    sk_status st = pairs ? sk_sort_pairs(b->ctx, t, 4, b->dk, b->dv, n, SK_ASCENDING)
                         : sk_sort_keys(b->ctx, t, b->dk, n, SK_ASCENDING);
    int rc = st == SK_OK ? bb_marker(PROG, b->q, &m1) : -1;
    if (st == SK_OK) st = sk_context_finish(b->ctx);
    *wall = (bb_now() * 1e3) - t0;
    if (st == SK_OK) st = sk_context_profile_take(b->ctx, &secs, NULL);
    if (st != SK_OK) rc = fail_sk(b, st, pairs ? "sk_sort_pairs" : "sk_sort_keys");
    if (rc == 0) rc = bb_marker_span_ms(PROG, m0, m1, dev);
    *kern = secs * 1e3;
    clReleaseEvent(m0);
    if (m1) clReleaseEvent(m1);
    return rc;
}

/* Compares the device result with the serial radix sort's. */
static int sk_check(bench *b, size_t n, bool pairs)
{
    cl_int rc =
        clEnqueueReadBuffer(b->q, b->dk, CL_TRUE, 0, n * b->ks, b->packed, 0, NULL, NULL);
    if (rc == CL_SUCCESS) unpack_keys(b, n);
    if (rc == CL_SUCCESS && pairs)
        rc = clEnqueueReadBuffer(b->q, b->dv, CL_TRUE, 0, n * 4, b->work_v, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return fail_cl(rc, "download");
    for (size_t i = 0; i < n; i++)
        if (b->work_k[i] != b->ref_k[i] || (pairs && b->work_v[i] != b->ref_v[i])) {
            fprintf(stderr, "bench_sort: WRONG %s result at n=%zu, index %zu\n",
                    pairs ? "sort_pairs" : "sort_keys", n, i);
            return -1;
        }
    return 0;
}

typedef struct row {
    const char *dist, *what;
    size_t n;
    double dev, kern, wall, lsd, qs;
} row;

/* qs < 0: qsort not run at this size. */
static void print_row(const row *r)
{
    printf("| %-9s | %-9s | %9zu | %8.2f | %8.2f | %8.2f | %7.1f | %8.2f |", r->dist, r->what,
           r->n, r->dev, r->kern, r->wall, (double)r->n / r->dev * 1e-3, r->lsd);
    if (r->qs < 0) printf(" %9s |", "-");
    else printf(" %9.2f |", r->qs);
    printf(" %5.2fx |", r->lsd / r->dev);
    if (r->qs < 0) printf(" %7s |\n", "-");
    else printf(" %6.1fx |\n", r->qs / r->dev);
    fflush(stdout);
}

/* scankit and the serial radix sort alternate run by run, so that a
 * change in the machine's load hits both alike. */
static int measure(bench *b, size_t n, bool pairs, row *r)
{
    double dev[MAX_REPEATS], kern[MAX_REPEATS], wall[MAX_REPEATS], lsd[MAX_REPEATS];
    double d0, k0, w0;
    if (sk_run(b, n, pairs, &d0, &k0, &w0) != 0 || sk_check(b, n, pairs) != 0) return -1;
    for (int i = 0; i < b->o.repeats; i++) {
        if (sk_run(b, n, pairs, &dev[i], &kern[i], &wall[i]) != 0) return -1;
        lsd[i] = lsd_once_ms(b, n, pairs);
    }
    if (sk_check(b, n, pairs) != 0) return -1;
    r->dev = bb_median(dev, b->o.repeats);
    r->kern = bb_median(kern, b->o.repeats);
    r->wall = bb_median(wall, b->o.repeats);
    r->lsd = bb_median(lsd, b->o.repeats);
    r->qs = -1;
    if (n > (size_t)1 << b->o.qsort_max_log2) return 0;
    r->qs = qsort_ms(b, n, pairs);
    if (r->qs < 0) {
        fprintf(stderr, "bench_sort: qsort baseline unsorted at n=%zu\n", n);
        return -1;
    }
    return 0;
}

/* Input, reference result (serial radix sort, checked sorted). */
static int prepare(bench *b, size_t n, int words)
{
    fill_keys(b->in, n, words, b->ks, b->o.seed + n);
    for (size_t i = 0; i < n; i++) b->idx[i] = (uint32_t)i;
    memcpy(b->ref_k, b->in, n * 4);
    memcpy(b->ref_v, b->idx, n * 4);
    lsd_sort(b->ref_k, b->ref_v, b->tmp_k, b->tmp_v, n);
    for (size_t i = 1; i < n; i++)
        if (b->ref_k[i - 1] > b->ref_k[i] ||
            (b->ref_k[i - 1] == b->ref_k[i] && b->ref_v[i - 1] > b->ref_v[i])) {
            fprintf(stderr, "bench_sort: serial radix sort wrong at n=%zu\n", n);
            return -1;
        }
    return 0;
}

static int open_all(bench *b)
{
    size_t n = (size_t)1 << b->o.max_log2;
    const char *what = NULL;
    sk_status st = bb_context_open(&b->ctx, b->o.device, b->o.shape, &what);
    if (st != SK_OK) return fail_sk(b, st, what);
    b->q = sk_context_cl_queue(b->ctx);
    cl_int rc = CL_SUCCESS;
    b->dk = clCreateBuffer(sk_context_cl_context(b->ctx), CL_MEM_READ_WRITE, n * 4, NULL, &rc);
    if (rc == CL_SUCCESS)
        b->dv = clCreateBuffer(sk_context_cl_context(b->ctx), CL_MEM_READ_WRITE, n * 4, NULL,
                               &rc);
    if (rc != CL_SUCCESS) return fail_cl(rc, "clCreateBuffer");
    uint32_t **arrays[] = {&b->in, &b->idx, &b->ref_k, &b->ref_v, &b->work_k, &b->work_v,
                           &b->tmp_k, &b->tmp_v};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (!(*arrays[i] = malloc(n * 4))) return fail_sk(b, SK_E_OUT_OF_MEMORY, "malloc");
    if (!(b->packed = malloc(n * 4))) return fail_sk(b, SK_E_OUT_OF_MEMORY, "malloc");
    if (!(b->pairs = malloc(n * sizeof *b->pairs)))
        return fail_sk(b, SK_E_OUT_OF_MEMORY, "malloc");
    b->cap = n;
    return 0;
}

static void close_all(bench *b)
{
    if (b->dk) clReleaseMemObject(b->dk);
    if (b->dv) clReleaseMemObject(b->dv);
    sk_context_free(b->ctx);
    free(b->in); free(b->idx); free(b->ref_k); free(b->ref_v);
    free(b->work_k); free(b->work_v); free(b->tmp_k); free(b->tmp_v);
    free(b->pairs);
    free(b->packed);
}

static void print_header(bench *b)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    long shape = 0;
    sk_context_device(b->ctx, &d);
    sk_context_get_param(b->ctx, SK_PARAM_SHAPE, &shape);
    printf("device: %s (%s), %s shape, %u compute units; median of %d after a warm-up\n",
           d.device_name, d.platform_name, shape == SK_SHAPE_GPU ? "gpu" : "cpu",
           d.compute_units, b->o.repeats);
    printf("uint32 keys, or u16 / u8 (pairs: + uint32 values). scankit in ms: device = marker to marker "
           "on the queue\n(all commands of the call), kernels = span of its launches, wall = "
           "call + finish.\nBaselines: wall ms on one host core. Ratios = baseline / device."
           "\n\n");
    printf("| dist      | what      |         n |   device |  kernels |     wall | Mkeys/s |"
           "  LSD ms |  qsort ms | vs LSD | vs qsort |\n");
    printf("|-----------|-----------|-----------|----------|----------|----------|---------|"
           "----------|-----------|--------|----------|\n");
}

int main(int argc, char **argv)
{
    bench b = {0};
    int rc = parse_options(argc, argv, &b.o);
    if (rc) return rc == 1 ? 0 : 2;
    if (open_all(&b) != 0) {
        close_all(&b);
        return 1;
    }
    print_header(&b);
    /* uint32 keys of both distributions, then uniform uint16 and uint8 keys. */
    static const struct {
        const char *name, *keys, *pairs;
        int words;
        size_t ks;
    } rows[] = {{"uniform", "keys", "pairs", 1, 4},
                {"entropy:2", "keys", "pairs", 2, 4},
                {"uniform", "u16 keys", "u16 pairs", 1, 2},
                {"uniform", "u8 keys", "u8 pairs", 1, 1}};
    int wrong = 0;
    for (size_t d = 0; d < sizeof rows / sizeof rows[0]; d++)
        for (int k = b.o.min_log2; k <= b.o.max_log2; k++) {
            size_t n = (size_t)1 << k;
            b.ks = rows[d].ks;
            if (prepare(&b, n, rows[d].words) != 0) {
                wrong = 1;
                continue;
            }
            for (int p = 0; p < 2; p++) {
                row r = {rows[d].name, p ? rows[d].pairs : rows[d].keys, n, 0, 0, 0, 0, 0};
                if (measure(&b, n, p == 1, &r) != 0) wrong = 1;
                else print_row(&r);
            }
        }
    close_all(&b);
    return wrong;
}
