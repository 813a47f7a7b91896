/*
 * bench_histogram - scankit's histogram of uint32 in equal bins over
 * [0, 2^32 - 1) against, in the same run and on the same data, a plain
 * serial C loop.
 *
 *   bench_histogram [--min-log2 K] [--max-log2 K] [--repeats R] [--device SPEC]
 *                   [--shape cpu|gpu] [--seed S]
 *
 * For each n = 2^min .. 2^max and 256, 4096 and 65536 bins, the counts are
 * checked against the serial loop before anything is timed; a wrong
 * result is reported as an error and not timed. Times are medians of R
 * runs after 2 warm-ups: scankit's device time is the span of one call's
 * launches (profiling events: the counting and the reduction of its rows),
 * its wall time covers the call and its wait. The serial loop bins by the
 * definition sk_histogram_even() states (x * bins / (hi - lo) in 64-bit
 * integers, a division per element, as scankit does). Exit 0 when every
 * result was right, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUPS 2
#define MAX_REPEATS 1001
#define HI 4294967295.0 /* the largest hi a uint32 range takes */
#define MAX_BINS 65536

static const size_t BINS[] = {256, 4096, MAX_BINS};

typedef bb_run_opts options;

static const ak_opt histogram_rows[] = {
    BB_RUN_ROWS_SIZES("sizes n = 2^K from K (16) ...",
                      "... to K (26; at most 40)",
                      "R timed runs per measurement (11)"),
    BB_RUN_ROW_SEED("the input seed (1)"),
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

/* 0: run; 1: --help shown; 2: bad usage. */
static int parse_options(int argc, char **argv, options *o)
{
    static const bb_run_spec spec = {"bench_histogram", histogram_rows, {0, 40, MAX_REPEATS},
                                     16, 26, 11, 1};
    return bb_run_parse_opts(&spec, argc, argv, o);
}

typedef struct bench {
    options opt;
    sk_context *ctx;
    cl_command_queue queue;
    bb_io io;                   /* host input; device input and counts */
    size_t cap;
    uint64_t want[MAX_BINS], got[MAX_BINS];
    char device_name[272];
    const char *shape_name;
} bench;

typedef struct row {
    size_t n, bins;
    double dev_ms, wall_ms, serial_ms;
    char error[160];
} row;

#define sk_fail(b, st, what) bb_sk_fail("bench_histogram", (b)->ctx, st, what)
#define cl_fail(rc, what) bb_cl_fail("bench_histogram", rc, what)

/* ---- the serial loop ------------------------------------------------------------ */

static void serial_histogram(const uint32_t *in, size_t n, size_t bins, uint64_t *counts)
{
    const uint64_t range = (uint64_t)HI;
    memset(counts, 0, bins * sizeof *counts);
    for (size_t i = 0; i < n; i++)
        if (in[i] < range) counts[(uint64_t)in[i] * bins / range]++;
}

static double serial_ms(bench *b, size_t n, size_t bins)
{
    double t[MAX_REPEATS];
    for (int i = 0; i < WARMUPS; i++) serial_histogram(b->io.in, n, bins, b->want);
    for (int i = 0; i < b->opt.repeats; i++) {
        double t0 = bb_now();
        serial_histogram(b->io.in, n, bins, b->want);
        t[i] = (bb_now() - t0) * 1e3;
    }
    return bb_median(t, b->opt.repeats);
}

/* ---- scankit ------------------------------------------------------------------------ */

static int scankit_timed(bench *b, size_t n, size_t bins, double *wall, double *dev)
{
    double t0 = bb_now(), seconds = 0;
    unsigned long launches = 0;
    sk_status st = sk_histogram_even(b->ctx, SK_UINT32, b->io.src, 0, HI, b->io.dst, n, bins);
    if (st == SK_OK) st = sk_context_finish(b->ctx);
    *wall = (bb_now() - t0) * 1e3;
    if (st == SK_OK) st = sk_context_profile_take(b->ctx, &seconds, &launches);
    if (st != SK_OK) return sk_fail(b, st, "histogram_even");
    *dev = seconds * 1e3;
    return 0;
}

static int verify(bench *b, size_t bins, row *r, const char *when)
{
    cl_int rc = clEnqueueReadBuffer(b->queue, b->io.dst, CL_TRUE, 0, bins * 8, b->got, 0, NULL,
                                    NULL);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clEnqueueReadBuffer(counts)");
    if (memcmp(b->got, b->want, bins * 8) != 0)
        snprintf(r->error, sizeof r->error, "%s: wrong counts", when);
    return 0;
}

static int scankit_ms(bench *b, size_t n, size_t bins, row *r)
{
    double wall[MAX_REPEATS], dev[MAX_REPEATS], w = 0, d = 0;
    uint32_t poison = 0xA5A5A5A5u;
    cl_int rc = clEnqueueFillBuffer(b->queue, b->io.dst, &poison, 4, 0, bins * 8, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clEnqueueFillBuffer(counts)");
    if (scankit_timed(b, n, bins, &w, &d)) return 1;
    if (verify(b, bins, r, "first run") || r->error[0]) return r->error[0] ? 0 : 1;
    for (int i = 0; i < WARMUPS; i++)
        if (scankit_timed(b, n, bins, &w, &d)) return 1;
    for (int i = 0; i < b->opt.repeats; i++)
        if (scankit_timed(b, n, bins, &wall[i], &dev[i])) return 1;
    if (verify(b, bins, r, "after the timed runs")) return 1;
    r->wall_ms = bb_median(wall, b->opt.repeats);
    r->dev_ms = bb_median(dev, b->opt.repeats);
    return 0;
}

/* ---- output -------------------------------------------------------------------------- */

static void print_header(const void *p)
{
    const bench *b = p;
    printf("scankit histogram, uint32, equal bins over [0, 2^32 - 1): %s, %s shape, seed %" PRIu64
           "\n", b->device_name, b->shape_name, b->opt.seed);
    printf("times: median of %d runs after %d warm-ups; scankit = device time of one call's "
           "launches (wall = the call and its wait);\n", b->opt.repeats, WARMUPS);
    printf("serial = the plain loop (a 64-bit division per element, as the definition says); "
           "x serial = serial time / scankit device time\n\n");
    printf("%10s %7s %11s %11s %8s %10s %9s\n", "n", "bins", "scankit ms", "wall ms", "Gelem/s",
           "serial ms", "x serial");
}

static int print_row(const row *r)
{
    if (r->error[0])
        printf("%10zu %7zu ERROR: %s\n", r->n, r->bins, r->error);
    else
        printf("%10zu %7zu %11.3f %11.3f %8.3f %10.3f %9.2f\n", r->n, r->bins, r->dev_ms,
               r->wall_ms, (double)r->n / (r->dev_ms * 1e6), r->serial_ms,
               r->serial_ms / r->dev_ms);
    fflush(stdout);
    return r->error[0] != 0;
}

/* ---- setup ------------------------------------------------------------------------------ */

static int bench_open(void *p)
{
    bench *b = p;
    if (bb_cap_log2("bench_histogram", b->opt.max_log2, &b->cap) ||
        bb_context_setup("bench_histogram", &b->ctx, b->opt.device, b->opt.shape,
                         b->device_name, sizeof b->device_name, &b->shape_name))
        return 1;
    b->queue = sk_context_cl_queue(b->ctx);
    /* the counts go to the io's output buffer: n uint32 hold MAX_BINS uint64 */
    if (b->cap < 2 * MAX_BINS) b->cap = 2 * MAX_BINS;
    return bb_io_open(&b->io, "bench_histogram", b->ctx, b->cap, b->opt.seed);
}

static int bench_close(void *p)
{
    bench *b = p;
    int bad = bb_io_close(&b->io);
    sk_context_free(b->ctx);
    return bad;
}

static int run_size(void *p, size_t n, int *wrong)
{
    bench *b = p;
    for (size_t k = 0; k < sizeof BINS / sizeof BINS[0]; k++) {
        row r = {.n = n, .bins = BINS[k]};
        r.serial_ms = serial_ms(b, n, r.bins);
        if (scankit_ms(b, n, r.bins, &r)) return 1;
        *wrong += print_row(&r);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const bb_sized prog = {"bench_histogram", bench_open, print_header, run_size,
                                  bench_close};
    static bench b;
    switch (parse_options(argc, argv, &b.opt)) {
    case 0: return bb_sized_main(&prog, &b, b.opt.min_log2, b.opt.max_log2);
    case 1: return 0; /* --help */
    default: return 2;
    }
}
