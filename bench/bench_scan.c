/*
 * bench_scan - scankit's uint32 add scan (inclusive, exclusive) and reduce
 * against, in the same run and on the same data: a plain serial C loop and
 * a plain OpenCL copy kernel on the same device and buffers.
 *
 *   bench_scan [--min-log2 K] [--max-log2 K] [--repeats R] [--device SPEC]
 *              [--shape cpu|gpu] [--path auto|reduce-then-scan|lookback]
 *              [--wg N] [--items N] [--seed S] [--csv FILE]
 *
 * For each n = 2^min .. 2^max: every result is checked against the serial
 * loop before anything is timed (a wrong result is reported as an error
 * and not timed). Times are medians of R runs after 2 warm-ups: scankit's
 * device time is the span of one call's launches (profiling events), its
 * wall time covers the call plus sk_context_finish; the copy kernel is
 * timed by its profiling event, in four forms (one element per work-item,
 * 16 contiguous elements per work-item, one uint4 per work-item, and the
 * driver's clEnqueueCopyBuffer), the fastest one reported. The header
 * shows the load average where /proc/loadavg can be read (the machine may
 * be shared: read ratios, not absolutes, under load).
 * Exit 0 when every result was right, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"
#include "sk_rng.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUPS 2
#define MAX_REPEATS 1001
#define COPY_CHUNK 16

/* ---- options ------------------------------------------------------------------ */

typedef struct options {
    int min_log2, max_log2, repeats;
    const char *device, *shape, *csv;
    long path, wg, items;          /* scankit parameters; 0: automatic */
    uint64_t seed;
} options;

/* The command line as read: the shared options first. */
typedef struct scan_args {
    bb_run_args run;
    const char *path;
    uint64_t wg, items;
} scan_args;

static const ak_opt scan_rows[] = {
    BB_RUN_ROWS_SIZES("sizes n = 2^K from K (16) ...",
                      "... to K (26; at most 40)",
                      "R timed runs per measurement (11)"),
    {"path", 0, AK_OPT_TEXT, offsetof(scan_args, path), "auto|reduce-then-scan|lookback",
     "the scan path (both shapes; default: tuned)", NULL, 0},
    {"wg", 0, AK_OPT_U64, offsetof(scan_args, wg), "N",
     "the GPU shape's work-group size, 1 to 1024 (default: tuned)", NULL, 0},
    {"items", 0, AK_OPT_U64, offsetof(scan_args, items), "N",
     "the GPU shape's items per work-item, 1 to 64 (default: tuned)", NULL, 0},
    BB_RUN_ROW_SEED("the input seed (default: the time)"),
    BB_RUN_ROW_CSV("also write the rows there as CSV"),
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void scan_defaults(void *args)
{
    scan_args *a = args;
    bb_run_defaults(&a->run, 16, 26, 11, (uint64_t)time(NULL));
    a->wg = a->items = UINT64_MAX;
}

/* *out = v, 0 when not given (UINT64_MAX); fails outside [1, hi]. */
static int tile_param(const char *name, uint64_t v, uint64_t hi, long *out, ak_err *e)
{
    *out = 0;
    if (v == UINT64_MAX) return 0;
    if (v < 1 || v > hi) return ak_fail(e, "--%s must be from 1 to %d", name, (int)hi);
    *out = (long)v;
    return 0;
}

static int path_param(const char *s, long *out, ak_err *e)
{
    if (!s || !strcmp(s, "auto")) *out = SK_SCAN_PATH_AUTO;
    else if (!strcmp(s, "reduce-then-scan")) *out = SK_SCAN_PATH_REDUCE_THEN_SCAN;
    else if (!strcmp(s, "lookback")) *out = SK_SCAN_PATH_LOOKBACK;
    else return ak_fail(e, "--path must be auto, reduce-then-scan or lookback, not '%s'", s);
    return 0;
}

static int scan_check(void *args, ak_err *e)
{
    static const bb_run_limits limits = {0, 40, MAX_REPEATS};
    scan_args *a = args;
    long v;
    return bb_run_check(&a->run, &limits, e) || path_param(a->path, &v, e) ||
                   tile_param("wg", a->wg, 1024, &v, e) || tile_param("items", a->items, 64, &v, e)
               ? -1
               : 0;
}

/* 0: run; 1: --help shown; 2: bad usage. */
static int parse_options(int argc, char **argv, options *o)
{
    const ak_cli cli = {"bench_scan", "bench_scan [OPTION]...", scan_rows, sizeof(scan_args),
                        scan_defaults, scan_check, NULL};
    scan_args a;
    ak_err e;
    int rc = bb_run_parse(&cli, argc, argv, &a);
    if (rc) return rc;
    *o = (options){(int)a.run.min_log2, (int)a.run.max_log2, (int)a.run.repeats,
                   a.run.device, a.run.shape, a.run.csv, 0, 0, 0, a.run.seed};
    path_param(a.path, &o->path, &e);
    tile_param("wg", a.wg, 1024, &o->wg, &e);
    tile_param("items", a.items, 64, &o->items, &e);
    return 0;
}

/* ---- time and statistics ------------------------------------------------------- */

/* ---- the benchmark state --------------------------------------------------------- */

typedef enum bench_op { OP_INCLUSIVE, OP_EXCLUSIVE, OP_REDUCE } bench_op;

static const char *const op_names[] = {"inclusive", "exclusive", "reduce"};

typedef struct bench {
    options opt;
    sk_context *ctx;
    cl_command_queue queue;
    cl_program copy_prog;
    cl_kernel copy1, copy16, copy4;
    bb_io io;                   /* host: input, serial result, device result */
    size_t cap;                 /* elements in every buffer above */
    FILE *csv;
    char device_name[272];   /* "device (platform)" */
    const char *shape_name;
} bench;

/* One row of the table; the scankit times are valid only when error is "". */
typedef struct row {
    bench_op op;
    size_t n;
    double dev_ms, wall_ms, serial_ms, copy_ms;
    const char *copy_kernel;
    unsigned long launches;
    char error[160];
} row;

/* Failures, said as "bench_scan: WHAT: ERROR". */
#define cl_fail(rc, what) bb_cl_fail("bench_scan", rc, what)
#define sk_fail(b, st, what) bb_sk_fail("bench_scan", (b)->ctx, st, what)

/* ---- the copy kernels ---------------------------------------------------------------- */

static const char *copy_source =
    "__kernel void bench_copy1(__global const uint *src, __global uint *dst, ulong n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n) dst[i] = src[i];\n"
    "}\n"
    "__kernel void bench_copy16(__global const uint *src, __global uint *dst, ulong n)\n"
    "{\n"
    "    ulong begin = (ulong)get_global_id(0) * 16;\n"
    "    ulong end = min(begin + 16, n);\n"
    "    for (ulong i = begin; i < end; i++) dst[i] = src[i];\n"
    "}\n"
    "__kernel void bench_copy4(__global const uint *src, __global uint *dst, ulong n)\n"
    "{\n"
    "    ulong i = (ulong)get_global_id(0) * 4;\n"
    "    if (i + 4 <= n) vstore4(vload4(0, src + i), 0, dst + i);\n"
    "    else for (; i < n; i++) dst[i] = src[i];\n"
    "}\n";

static void print_build_log(bench *b)
{
    char log[4096] = "";
    cl_device_id dev = sk_context_cl_device(b->ctx);
    if (clGetProgramBuildInfo(b->copy_prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
                              NULL) == CL_SUCCESS)
        fprintf(stderr, "%s\n", log);
}

static int copy_open(bench *b)
{
    cl_int rc = CL_SUCCESS;
    cl_device_id dev = sk_context_cl_device(b->ctx);
    b->copy_prog = clCreateProgramWithSource(sk_context_cl_context(b->ctx), 1, &copy_source,
                                             NULL, &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clCreateProgramWithSource(copy)");
    rc = clBuildProgram(b->copy_prog, 1, &dev, "", NULL, NULL);
    if (rc != CL_SUCCESS) {
        print_build_log(b);
        return cl_fail(rc, "clBuildProgram(copy)");
    }
    b->copy1 = clCreateKernel(b->copy_prog, "bench_copy1", &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clCreateKernel(bench_copy1)");
    b->copy16 = clCreateKernel(b->copy_prog, "bench_copy16", &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clCreateKernel(bench_copy16)");
    b->copy4 = clCreateKernel(b->copy_prog, "bench_copy4", &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clCreateKernel(bench_copy4)");
    return 0;
}

/* Enqueues copy kernel k over n elements, or clEnqueueCopyBuffer when k is
 * NULL. */
static cl_int copy_enqueue(bench *b, cl_kernel k, size_t n, cl_event *ev)
{
    if (!k)
        return clEnqueueCopyBuffer(b->queue, b->io.src, b->io.dst, 0, 0, n * sizeof(uint32_t), 0,
                                   NULL, ev);
    cl_ulong un = n;
    size_t per = k == b->copy16 ? COPY_CHUNK : k == b->copy4 ? 4 : 1;
    size_t global = (n + per - 1) / per;
    cl_int rc = clSetKernelArg(k, 0, sizeof b->io.src, &b->io.src);
    if (rc == CL_SUCCESS) rc = clSetKernelArg(k, 1, sizeof b->io.dst, &b->io.dst);
    if (rc == CL_SUCCESS) rc = clSetKernelArg(k, 2, sizeof un, &un);
    if (rc == CL_SUCCESS) rc = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, NULL, 0,
                                                      NULL, ev);
    return rc;
}

/* One copy over n elements (see copy_enqueue); *ms gets its device time. */
static int copy_launch(bench *b, cl_kernel k, size_t n, double *ms)
{
    cl_ulong start = 0, end = 0;
    cl_event ev = NULL;
    cl_int rc = copy_enqueue(b, k, n, &ev);
    if (rc != CL_SUCCESS) return cl_fail(rc, "enqueueing a copy");
    rc = clWaitForEvents(1, &ev);
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    cl_int rel = clReleaseEvent(ev);
    if (rc != CL_SUCCESS) return cl_fail(rc, "copy kernel profiling");
    if (rel != CL_SUCCESS) return cl_fail(rel, "clReleaseEvent");
    *ms = (double)(end - start) * 1e-6;
    return 0;
}

/* ---- device buffers ------------------------------------------------------------------ */

static int poison_dst(bench *b, size_t n)
{
    const cl_uint pattern = 0xA5A5A5A5u;
    cl_int rc = clEnqueueFillBuffer(b->queue, b->io.dst, &pattern, sizeof pattern, 0,
                                    n * sizeof(uint32_t), 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_fail(rc, "clEnqueueFillBuffer");
}

static int read_dst(bench *b, size_t n)
{
    cl_int rc = clEnqueueReadBuffer(b->queue, b->io.dst, CL_TRUE, 0, n * sizeof(uint32_t),
                                    b->io.got, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_fail(rc, "clEnqueueReadBuffer");
}

/* Index of the first of n elements where got and want differ, or n. */
static size_t first_mismatch(const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) return i;
    return n;
}

/* ---- the three measurements ------------------------------------------------------- */

/* Serial loop for op over in[0..n) into want[] (want[0] for reduce). */
static void serial_run(bench_op op, const uint32_t *in, uint32_t *want, size_t n)
{
    uint32_t acc = 0;
    if (op == OP_INCLUSIVE) {
        for (size_t i = 0; i < n; i++) want[i] = acc += in[i];
    } else if (op == OP_EXCLUSIVE) {
        for (size_t i = 0; i < n; i++) {
            want[i] = acc;
            acc += in[i];
        }
    } else {
        for (size_t i = 0; i < n; i++) acc += in[i];
        *(volatile uint32_t *)want = acc;
    }
}

/* Median wall time of the serial loop; leaves its result in b->io.want. */
static double serial_ms(bench *b, bench_op op, size_t n)
{
    double t[MAX_REPEATS];
    serial_run(op, b->io.in, b->io.want, n);   /* warm-up: pages and caches */
    for (int r = 0; r < b->opt.repeats; r++) {
        double t0 = bb_now();
        serial_run(op, b->io.in, b->io.want, n);
        t[r] = (bb_now() - t0) * 1e3;
    }
    return bb_median(t, b->opt.repeats);
}

/* Checks one copy kernel, then times it: median device ms, or -1 when its
 * result was wrong. */
static int copy_kernel_ms(bench *b, cl_kernel k, size_t n, double *ms)
{
    double t[MAX_REPEATS], dummy = 0;
    if (poison_dst(b, n) || copy_launch(b, k, n, &dummy) || read_dst(b, n)) return 1;
    if (first_mismatch(b->io.got, b->io.in, n) != n) {
        *ms = -1;
        return 0;
    }
    for (int r = 0; r < WARMUPS; r++)
        if (copy_launch(b, k, n, &dummy)) return 1;
    for (int r = 0; r < b->opt.repeats; r++)
        if (copy_launch(b, k, n, &t[r])) return 1;
    *ms = bb_median(t, b->opt.repeats);
    return 0;
}

/* The fastest correct copy's median time into r->copy_ms. */
static int copy_ms(bench *b, size_t n, row *r)
{
    const cl_kernel kernels[] = {b->copy1, b->copy16, b->copy4, NULL};
    static const char *const names[] = {"copy1", "copy16", "copy4", "copybuffer"};
    r->copy_ms = -1;
    r->copy_kernel = "wrong";
    for (int i = 0; i < 4; i++) {
        double ms = -1;
        if (copy_kernel_ms(b, kernels[i], n, &ms)) return 1;
        if (ms >= 0 && (r->copy_ms < 0 || ms < r->copy_ms)) {
            r->copy_ms = ms;
            r->copy_kernel = names[i];
        }
    }
    return 0;
}

/* One scankit call of op on src[0..n); reduce's result goes to b->io.got[0]. */
static sk_status scankit_call(bench *b, bench_op op, size_t n)
{
    if (op == OP_INCLUSIVE)
        return sk_scan_inclusive(b->ctx, SK_UINT32, SK_OP_ADD, b->io.src, b->io.dst, n);
    if (op == OP_EXCLUSIVE)
        return sk_scan_exclusive(b->ctx, SK_UINT32, SK_OP_ADD, b->io.src, b->io.dst, n);
    return sk_reduce(b->ctx, SK_UINT32, SK_OP_ADD, b->io.src, b->io.got, n);
}

/* One timed call: wall ms (call + finish) and device ms (its launches). */
static int scankit_timed(bench *b, bench_op op, size_t n, double *wall, double *dev,
                         unsigned long *launches)
{
    double t0 = bb_now(), seconds = 0;
    sk_status st = scankit_call(b, op, n);
    if (st == SK_OK) st = sk_context_finish(b->ctx);
    *wall = (bb_now() - t0) * 1e3;
    if (st == SK_OK) st = sk_context_profile_take(b->ctx, &seconds, launches);
    if (st != SK_OK) return sk_fail(b, st, op_names[op]);
    *dev = seconds * 1e3;
    return 0;
}

/* Runs op once on a poisoned output and compares with the serial result in
 * b->io.want; a mismatch goes to r->error. */
static int scankit_check(bench *b, bench_op op, size_t n, row *r)
{
    double wall = 0, dev = 0;
    size_t count = op == OP_REDUCE ? 1 : n;
    if (op != OP_REDUCE && poison_dst(b, n)) return 1;
    if (scankit_timed(b, op, n, &wall, &dev, &r->launches)) return 1;
    if (op != OP_REDUCE && read_dst(b, n)) return 1;
    size_t bad = first_mismatch(b->io.got, b->io.want, count);
    if (bad != count)
        snprintf(r->error, sizeof r->error, "wrong result at [%zu]: %" PRIu32 ", want %" PRIu32,
                 bad, b->io.got[bad], b->io.want[bad]);
    return 0;
}

/* Checks, then times op: medians of device and wall ms; checks the last
 * timed result again. */
static int scankit_ms(bench *b, bench_op op, size_t n, row *r)
{
    double wall[MAX_REPEATS], dev[MAX_REPEATS], w = 0, d = 0;
    if (scankit_check(b, op, n, r)) return 1;
    if (r->error[0]) return 0;   /* reported, never timed */
    for (int i = 0; i < WARMUPS; i++)
        if (scankit_timed(b, op, n, &w, &d, &r->launches)) return 1;
    for (int i = 0; i < b->opt.repeats; i++)
        if (scankit_timed(b, op, n, &wall[i], &dev[i], &r->launches)) return 1;
    size_t count = op == OP_REDUCE ? 1 : n;
    if (op != OP_REDUCE && read_dst(b, n)) return 1;
    if (first_mismatch(b->io.got, b->io.want, count) != count) {
        snprintf(r->error, sizeof r->error, "wrong result after the timed runs");
        return 0;
    }
    r->wall_ms = bb_median(wall, b->opt.repeats);
    r->dev_ms = bb_median(dev, b->opt.repeats);
    return 0;
}

/* ---- output ------------------------------------------------------------------------- */

/* "load average 1.23 0.98 0.50" from /proc/loadavg, or "" where it cannot be read. */
static void load_average(char *out, size_t len)
{
    double l1 = 0, l5 = 0, l15 = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    out[0] = '\0';
    if (!f) return;
    if (fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        snprintf(out, len, "load average %.2f %.2f %.2f", l1, l5, l15);
    fclose(f);
}

static void print_header(const void *p)
{
    const bench *b = p;
    static const char *const paths[] = {"auto", "reduce-then-scan", "lookback"};
    char load[64];
    load_average(load, sizeof load);
    printf("scankit scan, uint32 add: %s, %s shape, seed %" PRIu64 "%s%s\n", b->device_name,
           b->shape_name, b->opt.seed, load[0] ? "; " : "", load);
    printf("scan path %s, work-group %ld, items %ld (0: tuned)\n", paths[b->opt.path],
           b->opt.wg, b->opt.items);
    printf("times: median of %d runs after %d warm-ups; scankit = device time of one call's "
           "launches (wall = call + finish);\n",
           b->opt.repeats, WARMUPS);
    printf("x serial = serial / scankit (above 1: faster than the serial loop); "
           "of copy = copy / scankit (1 = copy speed)\n\n");
    printf("%-9s %10s %11s %11s %8s %10s %9s %9s %8s\n", "op", "n", "scankit ms", "wall ms",
           "Gelem/s", "serial ms", "copy ms", "x serial", "of copy");
}

static void print_row(const row *r)
{
    if (r->error[0]) {
        printf("%-9s %10zu ERROR: %s\n", op_names[r->op], r->n, r->error);
        return;
    }
    printf("%-9s %10zu %11.3f %11.3f %8.3f %10.3f %9.3f %9.2f %8.2f\n", op_names[r->op], r->n,
           r->dev_ms, r->wall_ms, (double)r->n / (r->dev_ms * 1e6), r->serial_ms, r->copy_ms,
           r->serial_ms / r->dev_ms, r->copy_ms / r->dev_ms);
}

static void csv_header(bench *b)
{
    fprintf(b->csv, "device,shape,seed,op,n,repeats,scankit_device_ms,scankit_wall_ms,"
                    "gelem_per_s,launches,serial_ms,copy_ms,copy_kernel,ratio_vs_serial,"
                    "fraction_of_copy,error\n");
}

static void csv_row(bench *b, const row *r)
{
    const char *dev = b->device_name;
    fprintf(b->csv, "\"%s\",%s,%" PRIu64 ",%s,%zu,%d,", dev, b->shape_name, b->opt.seed,
            op_names[r->op], r->n, b->opt.repeats);
    if (r->error[0]) {
        fprintf(b->csv, ",,,,%.6f,%.6f,%s,,,\"%s\"\n", r->serial_ms, r->copy_ms,
                r->copy_kernel, r->error);
        return;
    }
    fprintf(b->csv, "%.6f,%.6f,%.6f,%lu,%.6f,%.6f,%s,%.4f,%.4f,\n", r->dev_ms, r->wall_ms,
            (double)r->n / (r->dev_ms * 1e6), r->launches, r->serial_ms, r->copy_ms,
            r->copy_kernel, r->serial_ms / r->dev_ms, r->copy_ms / r->dev_ms);
}

/* ---- setup ---------------------------------------------------------------------------- */

/* The device with the options' shape and scan parameters. */
static int context_open(bench *b)
{
    sk_status st = SK_OK;
    if (bb_context_setup("bench_scan", &b->ctx, b->opt.device, b->opt.shape, b->device_name,
                         sizeof b->device_name, &b->shape_name))
        return 1;
    if (b->opt.path) st = sk_context_set_param(b->ctx, SK_PARAM_SCAN_PATH, b->opt.path);
    if (st == SK_OK && b->opt.wg) st = sk_context_set_param(b->ctx, SK_PARAM_WG_SIZE, b->opt.wg);
    if (st == SK_OK && b->opt.items)
        st = sk_context_set_param(b->ctx, SK_PARAM_ITEMS_PER_THREAD, b->opt.items);
    if (st != SK_OK) return sk_fail(b, st, "configuring the context");
    b->queue = sk_context_cl_queue(b->ctx);
    return 0;
}

static int bench_open(void *p)
{
    bench *b = p;
    if (bb_cap_log2("bench_scan", b->opt.max_log2, &b->cap) || context_open(b) ||
        bb_io_open(&b->io, "bench_scan", b->ctx, b->cap, b->opt.seed) || copy_open(b))
        return 1;
    if (b->opt.csv && !(b->csv = fopen(b->opt.csv, "w"))) {
        fprintf(stderr, "bench_scan: cannot write %s: %s\n", b->opt.csv, strerror(errno));
        return 1;
    }
    if (b->csv) csv_header(b);
    return 0;
}

/* Releases everything; 1 when a release or the CSV file failed. */
static int bench_close(void *p)
{
    bench *b = p;
    int bad = bb_io_close(&b->io);
    if (b->copy1 && clReleaseKernel(b->copy1) != CL_SUCCESS) bad = 1;
    if (b->copy16 && clReleaseKernel(b->copy16) != CL_SUCCESS) bad = 1;
    if (b->copy4 && clReleaseKernel(b->copy4) != CL_SUCCESS) bad = 1;
    if (b->copy_prog && clReleaseProgram(b->copy_prog) != CL_SUCCESS) bad = 1;
    if (b->csv && fclose(b->csv) != 0) bad = 1;
    sk_context_free(b->ctx);
    return bad;
}

/* ---- main ------------------------------------------------------------------------------ */

/* All rows of one n; *wrong counts results that were wrong. */
static int run_size(void *p, size_t n, int *wrong)
{
    bench *b = p;
    row copy = {0};
    if (copy_ms(b, n, &copy)) return 1;
    for (int op = OP_INCLUSIVE; op <= OP_REDUCE; op++) {
        row r = {.op = (bench_op)op, .n = n, .copy_ms = copy.copy_ms,
                 .copy_kernel = copy.copy_kernel};
        r.serial_ms = serial_ms(b, r.op, n);
        if (copy.copy_ms < 0) snprintf(r.error, sizeof r.error, "the copy kernel was wrong");
        else if (scankit_ms(b, r.op, n, &r)) return 1;
        *wrong += r.error[0] != 0;
        print_row(&r);
        if (b->csv) csv_row(b, &r);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const bb_sized prog = {"bench_scan", bench_open, print_header, run_size, bench_close};
    static bench b;
    int rc = parse_options(argc, argv, &b.opt);
    return rc ? (rc == 1 ? 0 : 2) : bb_sized_main(&prog, &b, b.opt.min_log2, b.opt.max_log2);
}
