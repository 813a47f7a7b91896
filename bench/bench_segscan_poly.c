/*
 * bench_segscan_poly - scankit's segmented scan and polynomial evaluation
 * against a serial C loop on the same data, in the same run.
 *
 *   bench_segscan_poly [--min-log2 K] [--max-log2 K] [--repeats R]
 *                      [--device SPEC] [--shape cpu|gpu] [--seed S] [--csv FILE]
 *
 * For each n = 2^min .. 2^max (default 16 .. 24):
 *   segscan/L   inclusive uint32 add segmented scan, uint8 head flags with
 *               random heads of average segment length L = 4, 64, 4096;
 *               serial: one branch-free loop that restarts the sum at
 *               every head;
 *   poly_one    float64 polynomial of degree n - 1 at one point
 *               (sk_poly_eval); serial: Horner;
 *   poly_points float64 polynomial of degree 16 at n points
 *               (sk_poly_eval_points); serial: Horner per point.
 * Every scankit result is checked against the serial one before anything is
 * timed (exactly for the scan; for polynomials within the header's bound
 * gamma(2d) * sum |a_i x^i| plus the serial Horner's own, computed in long
 * double): a wrong result is reported as an error and not timed. Times are
 * medians of R runs after 2 warm-ups: scankit's is device time, the span of
 * one call's launches from profiling events (SK_PARAM_PROFILE); sk_poly_eval
 * blocks, and its launches are recorded all the same. Exit 0 when every
 * result was right, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"
#include "sk_rng.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUPS 2
#define MAX_REPEATS 101
#define POINTS_DEGREE 16
#define POLY_X 0.9999999

/* ---- options ------------------------------------------------------------------ */

typedef bb_run_opts options;

static const ak_opt segscan_poly_rows[] = {
    BB_RUN_ROWS_SIZES("sizes n = 2^K from K (16; at least 1) ...",
                      "... to K (24; at most 32)",
                      "R timed runs per measurement (7)"),
    BB_RUN_ROW_SEED("the input seed (default: the time)"),
    BB_RUN_ROW_CSV("also write the rows there as CSV"),
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static const bb_run_spec segscan_poly_spec = {"bench_segscan_poly", segscan_poly_rows,
                                              {1, 32, MAX_REPEATS}, 16, 24, 7, 0};

/* ---- time, statistics, random data ------------------------------------------------- */

/* Uniform in [-1, 1). */
static double rng_unit(uint64_t *s)
{
    return (double)(sk_splitmix64_next(s) >> 11) * 0x1p-52 - 1.0;
}

/* ---- state ---------------------------------------------------------------------------- */

typedef struct bench {
    options opt;
    sk_context *ctx;
    cl_command_queue queue;
    size_t cap;
    cl_mem a, b, flags;            /* device: input, output, flags */
    void *in, *want, *got;         /* host, cap * 8 bytes each */
    unsigned char *hflags;
    uint64_t rng;
    size_t seg_len; /* average segment length of the segscan rows */
    FILE *csv;
} bench;

typedef struct row {
    char name[32];
    size_t n;
    double dev_ms, serial_ms;
    unsigned long launches;
    char error[200];
} row;

static int cl_check(cl_int rc, const char *what)
{
    if (rc == CL_SUCCESS) return 0;
    fprintf(stderr, "bench_segscan_poly: %s: %s\n", what, sk_cl_error_name(rc));
    return 1;
}

static int upload(bench *b, cl_mem m, const void *p, size_t bytes)
{
    return cl_check(clEnqueueWriteBuffer(b->queue, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL),
                    "clEnqueueWriteBuffer");
}

static int download(bench *b, cl_mem m, void *p, size_t bytes)
{
    return cl_check(clEnqueueReadBuffer(b->queue, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL),
                    "clEnqueueReadBuffer");
}

/* Median device ms of `call` (after warm-ups); -1 and r->error on failure. */
typedef sk_status (*bench_call)(bench *b, size_t n, double *out);

static int time_device(bench *b, bench_call call, size_t n, row *r)
{
    double t[MAX_REPEATS], secs = 0, scratch = 0;
    for (int k = -WARMUPS; k < b->opt.repeats; k++) {
        sk_status st = call(b, n, &scratch);
        if (st == SK_OK) st = sk_context_profile_take(b->ctx, &secs, &r->launches);
        if (st != SK_OK) {
            snprintf(r->error, sizeof r->error, "%s (%s)", sk_status_str(st),
                     sk_context_error_detail(b->ctx));
            return 1;
        }
        if (k >= 0) t[k] = secs * 1e3;
    }
    r->dev_ms = bb_median(t, b->opt.repeats);
    return 0;
}

typedef void (*serial_fn)(bench *b, size_t n);

static void time_serial(bench *b, serial_fn fn, size_t n, row *r)
{
    double t[MAX_REPEATS];
    fn(b, n); /* warm-up; leaves the result in want */
    for (int k = 0; k < b->opt.repeats; k++) {
        double t0 = bb_now();
        fn(b, n);
        t[k] = (bb_now() - t0) * 1e3;
    }
    r->serial_ms = bb_median(t, b->opt.repeats);
}

/* ---- segmented scan -------------------------------------------------------------------- */

static void serial_segscan(bench *b, size_t n)
{
    const uint32_t *in = b->in;
    uint32_t *out = b->want, acc = 0;
    const unsigned char *f = b->hflags;
    for (size_t i = 0; i < n; i++) { /* branch-free: heads do not mispredict */
        acc = (acc & ((uint32_t)(f[i] != 0) - 1u)) + in[i];
        out[i] = acc;
    }
}

static sk_status device_segscan(bench *b, size_t n, double *unused)
{
    (void)unused;
    sk_segments seg = {b->flags, 1, NULL, SK_UINT32, 0};
    return sk_segscan_inclusive(b->ctx, SK_UINT32, SK_OP_ADD, b->a, &seg, b->b, n);
}

static int segscan_data(bench *b, size_t n)
{
    uint32_t *in = b->in;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = sk_splitmix64_next(&b->rng);
        in[i] = (uint32_t)r;
        b->hflags[i] = i == 0 || (r >> 32) % b->seg_len == 0;
    }
    return upload(b, b->a, in, n * 4) || upload(b, b->flags, b->hflags, n);
}

static void segscan_row(bench *b, size_t n, row *r)
{
    double unused = 0;
    if (segscan_data(b, n)) {
        snprintf(r->error, sizeof r->error, "upload failed");
        return;
    }
    serial_segscan(b, n);
    sk_status st = device_segscan(b, n, &unused);
    if (st == SK_OK) st = sk_context_finish(b->ctx);
    if (st != SK_OK || download(b, b->b, b->got, n * 4)) {
        snprintf(r->error, sizeof r->error, "%s (%s)", sk_status_str(st),
                 sk_context_error_detail(b->ctx));
        return;
    }
    sk_context_profile_take(b->ctx, &unused, NULL);
    for (size_t i = 0; i < n; i++)
        if (((uint32_t *)b->got)[i] != ((uint32_t *)b->want)[i]) {
            snprintf(r->error, sizeof r->error, "wrong result at %zu", i);
            return;
        }
    if (time_device(b, device_segscan, n, r)) return;
    time_serial(b, serial_segscan, n, r);
}

/* ---- polynomials ------------------------------------------------------------------------ */

static double horner(const double *a, size_t ncoef, double x)
{
    double r = 0.0;
    for (size_t i = ncoef; i-- > 0;) r = r * x + a[i];
    return r;
}

/* Whether got is within the header's bound of p(x) (long double reference,
 * whose own error is added). */
static bool within_bound(const double *a, size_t ncoef, double x, double got)
{
    long double p = 0, s = 0, ax = fabsl((long double)x);
    for (size_t i = ncoef; i-- > 0;) {
        p = p * x + a[i];
        s = s * ax + fabsl((long double)a[i]);
    }
    long double k = 2.0L * (long double)(ncoef - 1), u = 0x1p-53L, ul = LDBL_EPSILON / 2;
    long double bound = (k * u / (1 - k * u) + (k + 2) * ul / (1 - (k + 2) * ul)) * s +
                        (k + 2) * DBL_TRUE_MIN;
    return fabsl((long double)got - p) <= bound;
}

static void serial_poly_one(bench *b, size_t n)
{
    *(volatile double *)b->want = horner(b->in, n, POLY_X);
}

static sk_status device_poly_one(bench *b, size_t n, double *out)
{
    return sk_poly_eval(b->ctx, SK_FLOAT64, b->a, POLY_X, out, n);
}

static void serial_poly_points(bench *b, size_t n)
{
    const double *x = b->in;
    double *y = b->want, *a = (double *)b->in + b->cap; /* coefficients after the points */
    for (size_t k = 0; k < n; k++) y[k] = horner(a, POINTS_DEGREE + 1, x[k]);
}

static sk_status device_poly_points(bench *b, size_t n, double *unused)
{
    (void)unused;
    return sk_poly_eval_points(b->ctx, SK_FLOAT64, b->flags, b->a, b->b, POINTS_DEGREE + 1, n);
}

static void poly_one_row(bench *b, size_t n, row *r)
{
    double *a = b->in, got = 0;
    for (size_t i = 0; i < n; i++) a[i] = rng_unit(&b->rng);
    if (upload(b, b->a, a, n * 8)) {
        snprintf(r->error, sizeof r->error, "upload failed");
        return;
    }
    double unused = 0;
    sk_status st = device_poly_one(b, n, &got);
    sk_context_profile_take(b->ctx, &unused, NULL);
    if (st != SK_OK) {
        snprintf(r->error, sizeof r->error, "%s (%s)", sk_status_str(st),
                 sk_context_error_detail(b->ctx));
        return;
    }
    if (!within_bound(a, n, POLY_X, got) || !within_bound(a, n, POLY_X, horner(a, n, POLY_X))) {
        snprintf(r->error, sizeof r->error, "p(x) = %.17g is outside the bound", got);
        return;
    }
    if (time_device(b, device_poly_one, n, r)) return;
    time_serial(b, serial_poly_one, n, r);
}

static void poly_points_row(bench *b, size_t n, row *r)
{
    double *x = b->in, *a = (double *)b->in + b->cap;
    for (size_t k = 0; k < n; k++) x[k] = 1.25 * rng_unit(&b->rng);
    for (size_t i = 0; i <= POINTS_DEGREE; i++) a[i] = rng_unit(&b->rng);
    if (upload(b, b->a, x, n * 8) || upload(b, b->flags, a, (POINTS_DEGREE + 1) * 8)) {
        snprintf(r->error, sizeof r->error, "upload failed");
        return;
    }
    double unused = 0;
    sk_status st = device_poly_points(b, n, &unused);
    if (st == SK_OK) st = sk_context_finish(b->ctx);
    sk_context_profile_take(b->ctx, &unused, NULL);
    if (st != SK_OK || download(b, b->b, b->got, n * 8)) {
        snprintf(r->error, sizeof r->error, "%s (%s)", sk_status_str(st),
                 sk_context_error_detail(b->ctx));
        return;
    }
    for (size_t k = 0; k < n; k++)
        if (!within_bound(a, POINTS_DEGREE + 1, x[k], ((double *)b->got)[k])) {
            snprintf(r->error, sizeof r->error, "point %zu: outside the bound", k);
            return;
        }
    if (time_device(b, device_poly_points, n, r)) return;
    time_serial(b, serial_poly_points, n, r);
}

/* ---- output and main ---------------------------------------------------------------------- */

static void print_row(bench *b, const row *r)
{
    if (r->error[0]) {
        printf("| %-12s | %9zu | ERROR: %s |\n", r->name, r->n, r->error);
        return;
    }
    printf("| %-12s | %9zu | %11.3f | %10.3f | %6.2fx | %8lu |\n", r->name, r->n, r->dev_ms,
           r->serial_ms, r->serial_ms / r->dev_ms, r->launches);
    fflush(stdout);
    if (b->csv)
        fprintf(b->csv, "%s,%zu,%.6f,%.6f,%.4f,%lu\n", r->name, r->n, r->dev_ms, r->serial_ms,
                r->serial_ms / r->dev_ms, r->launches);
}

static int run_size(bench *b, size_t n)
{
    static const size_t lens[] = {4, 64, 4096};
    int errors = 0;
    for (int k = 0; k < 5; k++) {
        row r;
        memset(&r, 0, sizeof r);
        r.n = n;
        if (k < 3) {
            b->seg_len = lens[k];
            snprintf(r.name, sizeof r.name, "segscan/%zu", lens[k]);
            segscan_row(b, n, &r);
        } else if (k == 3) {
            snprintf(r.name, sizeof r.name, "poly_one");
            poly_one_row(b, n, &r);
        } else {
            snprintf(r.name, sizeof r.name, "poly_points");
            poly_points_row(b, n, &r);
        }
        print_row(b, &r);
        errors += r.error[0] != 0;
    }
    return errors;
}

static int new_buf(bench *b, size_t bytes, cl_mem *m)
{
    cl_int rc = CL_SUCCESS;
    *m = clCreateBuffer(sk_context_cl_context(b->ctx), CL_MEM_READ_WRITE, bytes, NULL, &rc);
    return cl_check(rc, "clCreateBuffer");
}

static int bench_open(bench *b)
{
    const char *what = NULL;
    sk_status st = bb_context_open(&b->ctx, b->opt.device, b->opt.shape, &what);
    if (st != SK_OK) {
        fprintf(stderr, "bench_segscan_poly: %s: %s\n", what, sk_status_str(st));
        return 1;
    }
    b->queue = sk_context_cl_queue(b->ctx);
    b->cap = (size_t)1 << b->opt.max_log2;
    size_t bytes = b->cap * 8 + (POINTS_DEGREE + 1) * 8;
    b->in = malloc(bytes);
    b->want = malloc(bytes);
    b->got = malloc(bytes);
    b->hflags = malloc(b->cap);
    b->rng = b->opt.seed;
    if (!b->in || !b->want || !b->got || !b->hflags) {
        fprintf(stderr, "bench_segscan_poly: out of memory\n");
        return 1;
    }
    return new_buf(b, b->cap * 8, &b->a) || new_buf(b, b->cap * 8, &b->b) ||
           new_buf(b, b->cap > 256 ? b->cap : 256, &b->flags);
}

static void bench_close(bench *b)
{
    cl_mem m[] = {b->a, b->b, b->flags};
    for (int i = 0; i < 3; i++)
        if (m[i]) clReleaseMemObject(m[i]);
    sk_context_free(b->ctx);
    free(b->in);
    free(b->want);
    free(b->got);
    free(b->hflags);
    if (b->csv) fclose(b->csv);
}

static void print_header(bench *b)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    long shape = 0;
    sk_context_device(b->ctx, &d);
    sk_context_get_param(b->ctx, SK_PARAM_SHAPE, &shape);
    printf("device: %s (%s), %s shape; seed %" PRIu64 "; median of %d after %d warm-ups\n\n",
           d.device_name, d.platform_name, shape == SK_SHAPE_CPU ? "cpu" : "gpu", b->opt.seed,
           b->opt.repeats, WARMUPS);
    printf("| %-12s | %9s | %11s | %10s | %7s | %8s |\n", "primitive", "n", "scankit ms",
           "serial ms", "ratio", "launches");
    printf("|--------------|-----------|-------------|------------|---------|----------|\n");
    if (b->csv) fprintf(b->csv, "primitive,n,scankit_device_ms,serial_ms,ratio,launches\n");
}

int main(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof b);
    int rc = bb_run_parse_opts(&segscan_poly_spec, argc, argv, &b.opt);
    if (rc) return rc == 1 ? 0 : 2;
    if (b.opt.csv && !(b.csv = fopen(b.opt.csv, "w"))) {
        fprintf(stderr, "bench_segscan_poly: cannot write %s\n", b.opt.csv);
        return 1;
    }
    int errors = 0;
    if (bench_open(&b)) {
        bench_close(&b);
        return 1;
    }
    print_header(&b);
    for (int k = b.opt.min_log2; k <= b.opt.max_log2; k++) errors += run_size(&b, (size_t)1 << k);
    bench_close(&b);
    if (errors) fprintf(stderr, "bench_segscan_poly: %d wrong or failed result(s)\n", errors);
    return errors ? 1 : 0;
}
