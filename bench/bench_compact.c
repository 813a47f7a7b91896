/*
 * bench_compact - scankit's select-if and partition on uint32 with the
 * predicate "(x & 1u) != 0" (about half kept, at random) against, in the
 * same run and on the same data, a plain serial C loop.
 *
 *   bench_compact [--min-log2 K] [--max-log2 K] [--repeats R] [--device SPEC]
 *                 [--shape cpu|gpu] [--seed S]
 *
 * For each n = 2^min .. 2^max, every result (count and output) is checked
 * against the serial loop before anything is timed; a wrong result is
 * reported as an error and not timed. Times are medians of R runs after 2
 * warm-ups: scankit's device time is the span of one call's launches
 * (profiling events: count, scan of the counts, write), its wall time covers
 * the call (which blocks to read the count). The serial loops are the plain
 * ones: `if (x & 1) dst[k++] = x`, and for the partition a counting pass and
 * then two cursors; and, as a harder baseline, the same loops without a
 * branch on the predicate (`dst[k] = x; k += x & 1`). Exit 0 when every result was right, 1 otherwise, 2 on
 * bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"
#include "sk_rng.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUPS 2
#define MAX_REPEATS 1001
#define PREDICATE "(x & 1u) != 0"

/* ---- options ------------------------------------------------------------------ */

typedef struct options {
    int min_log2, max_log2, repeats;
    const char *device, *shape;
    uint64_t seed;
} options;

static const ak_opt compact_rows[] = {
    BB_RUN_ROW_MIN_LOG2("sizes n = 2^K from K (16) ..."),
    BB_RUN_ROW_MAX_LOG2("... to K (26; at most 40)"),
    BB_RUN_ROW_REPEATS("R timed runs per measurement (11)"),
    BB_RUN_ROW_DEVICE,
    BB_RUN_ROW_SHAPE,
    BB_RUN_ROW_SEED("the input seed (1)"),
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void compact_defaults(void *args)
{
    bb_run_defaults(args, 16, 26, 11, 1);
}

static int compact_check(void *args, ak_err *e)
{
    static const bb_run_limits limits = {0, 40, MAX_REPEATS};
    return bb_run_check(args, &limits, e);
}

/* 0: run; 1: --help shown; 2: bad usage. */
static int parse_options(int argc, char **argv, options *o)
{
    const ak_cli cli = {"bench_compact", "bench_compact [OPTION]...", compact_rows, sizeof(bb_run_args),
                        compact_defaults, compact_check, NULL};
    bb_run_args a;
    int rc = bb_run_parse(&cli, argc, argv, &a);
    if (rc) return rc;
    *o = (options){(int)a.min_log2, (int)a.max_log2, (int)a.repeats, a.device, a.shape, a.seed};
    return 0;
}

/* ---- time and statistics ------------------------------------------------------- */

/* ---- state ------------------------------------------------------------------------ */

typedef enum bench_op { OP_SELECT, OP_PARTITION } bench_op;

static const char *const op_names[] = {"select_if", "partition"};

typedef struct bench {
    options opt;
    sk_context *ctx;
    cl_command_queue queue;
    cl_mem src, dst;
    uint32_t *in, *want, *got;
    size_t cap;
    char device_name[272];
    const char *shape_name;
} bench;

typedef struct row {
    bench_op op;
    size_t n, kept;
    double dev_ms, wall_ms, serial_ms, branchless_ms;
    unsigned long launches;
    char error[160];
} row;

static int cl_fail(cl_int rc, const char *what)
{
    fprintf(stderr, "bench_compact: %s: %s\n", what, sk_cl_error_name(rc));
    return 1;
}

static int sk_fail(const bench *b, sk_status st, const char *what)
{
    fprintf(stderr, "bench_compact: %s: %s (%s)\n", what, sk_status_str(st),
            b->ctx ? sk_context_error_detail(b->ctx) : "");
    return 1;
}

/* ---- the serial loops --------------------------------------------------------------- */

static size_t serial_select(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i] & 1u) out[k++] = in[i];
    return k;
}

static size_t serial_partition(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) kept += in[i] & 1u;
    size_t o = 0, r = kept;
    for (size_t i = 0; i < n; i++) {
        if (in[i] & 1u) out[o++] = in[i];
        else out[r++] = in[i];
    }
    return kept;
}

/* The same without a branch on the predicate: every element is stored, the
 * cursor advances only for kept ones (partition: a conditional index). */
static size_t branchless_select(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k] = in[i];
        k += in[i] & 1u;
    }
    return k;
}

static size_t branchless_partition(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) kept += in[i] & 1u;
    size_t o = 0, r = kept;
    for (size_t i = 0; i < n; i++) {
        size_t f = in[i] & 1u;
        out[f ? o : r] = in[i];
        o += f;
        r += 1 - f;
    }
    return kept;
}

static size_t serial_run(bench_op op, bool branchless, const uint32_t *in, uint32_t *out,
                         size_t n)
{
    if (branchless)
        return op == OP_SELECT ? branchless_select(in, out, n) : branchless_partition(in, out, n);
    return op == OP_SELECT ? serial_select(in, out, n) : serial_partition(in, out, n);
}

/* Median ms of a serial loop; leaves the plain loop's result in b->want
 * (the branchless one writes b->got, and must agree). */
static double serial_ms(bench *b, bench_op op, bool branchless, size_t n, size_t *kept)
{
    double t[MAX_REPEATS];
    uint32_t *out = branchless ? b->got : b->want;
    for (int i = 0; i < WARMUPS; i++) *kept = serial_run(op, branchless, b->in, out, n);
    for (int i = 0; i < b->opt.repeats; i++) {
        double t0 = bb_now();
        *kept = serial_run(op, branchless, b->in, out, n);
        t[i] = (bb_now() - t0) * 1e3;
    }
    return bb_median(t, b->opt.repeats);
}

/* ---- scankit ------------------------------------------------------------------------ */

static sk_status scankit_call(bench *b, bench_op op, size_t n, size_t *count)
{
    if (op == OP_SELECT)
        return sk_select_if(b->ctx, SK_UINT32, PREDICATE, b->src, b->dst, count, n);
    return sk_partition(b->ctx, SK_UINT32, PREDICATE, b->src, b->dst, count, n);
}

static int scankit_timed(bench *b, bench_op op, size_t n, size_t *count, double *wall,
                         double *dev, unsigned long *launches)
{
    double t0 = bb_now(), seconds = 0;
    sk_status st = scankit_call(b, op, n, count);
    *wall = (bb_now() - t0) * 1e3;
    if (st == SK_OK) st = sk_context_profile_take(b->ctx, &seconds, launches);
    if (st != SK_OK) return sk_fail(b, st, op_names[op]);
    *dev = seconds * 1e3;
    return 0;
}

/* Compares count and the written part of dst with the serial result. */
static int verify(bench *b, bench_op op, size_t n, size_t count, row *r, const char *when)
{
    size_t m = op == OP_PARTITION ? n : r->kept;
    if (count != r->kept) {
        snprintf(r->error, sizeof r->error, "%s: count %zu, want %zu", when, count, r->kept);
        return 0;
    }
    cl_int rc = m ? clEnqueueReadBuffer(b->queue, b->dst, CL_TRUE, 0, m * 4, b->got, 0, NULL,
                                        NULL)
                  : CL_SUCCESS;
    if (rc != CL_SUCCESS) return cl_fail(rc, "clEnqueueReadBuffer(dst)");
    if (memcmp(b->got, b->want, m * 4) != 0)
        snprintf(r->error, sizeof r->error, "%s: wrong output", when);
    return 0;
}

static int scankit_ms(bench *b, bench_op op, size_t n, row *r)
{
    double wall[MAX_REPEATS], dev[MAX_REPEATS], w = 0, d = 0;
    size_t count = 0;
    uint32_t poison = 0xA5A5A5A5u;
    cl_int rc = clEnqueueFillBuffer(b->queue, b->dst, &poison, 4, 0, n * 4, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clEnqueueFillBuffer(dst)");
    if (scankit_timed(b, op, n, &count, &w, &d, &r->launches)) return 1;
    if (verify(b, op, n, count, r, "first run") || r->error[0]) return r->error[0] ? 0 : 1;
    for (int i = 0; i < WARMUPS; i++)
        if (scankit_timed(b, op, n, &count, &w, &d, &r->launches)) return 1;
    for (int i = 0; i < b->opt.repeats; i++)
        if (scankit_timed(b, op, n, &count, &wall[i], &dev[i], &r->launches)) return 1;
    if (verify(b, op, n, count, r, "after the timed runs")) return 1;
    r->wall_ms = bb_median(wall, b->opt.repeats);
    r->dev_ms = bb_median(dev, b->opt.repeats);
    return 0;
}

/* ---- output -------------------------------------------------------------------------- */

static void print_header(const bench *b)
{
    printf("scankit compaction, uint32, predicate \"%s\": %s, %s shape, seed %" PRIu64 "\n",
           PREDICATE, b->device_name, b->shape_name, b->opt.seed);
    printf("times: median of %d runs after %d warm-ups; scankit = device time of one call's "
           "launches (wall = the blocking call);\n", b->opt.repeats, WARMUPS);
    printf("serial = the plain loop (a branch per element); branchless = the same loop storing "
           "every element and advancing on kept ones;\n");
    printf("x serial, x branchless = that loop's time / scankit device time (above 1: scankit "
           "is faster)\n\n");
    printf("%-10s %10s %9s %11s %11s %8s %10s %9s %9s %13s\n", "op", "n", "kept", "scankit ms",
           "wall ms", "Gelem/s", "serial ms", "x serial", "branchl ms", "x branchless");
}

static void print_row(const row *r)
{
    if (r->error[0]) {
        printf("%-10s %10zu ERROR: %s\n", op_names[r->op], r->n, r->error);
        return;
    }
    printf("%-10s %10zu %9zu %11.3f %11.3f %8.3f %10.3f %9.2f %9.3f %13.2f\n",
           op_names[r->op], r->n, r->kept, r->dev_ms, r->wall_ms,
           (double)r->n / (r->dev_ms * 1e6), r->serial_ms, r->serial_ms / r->dev_ms,
           r->branchless_ms, r->branchless_ms / r->dev_ms);
}

/* ---- setup ------------------------------------------------------------------------------ */

static int context_open(bench *b)
{
    const char *what = NULL;
    sk_status st = bb_context_open(&b->ctx, b->opt.device, b->opt.shape, &what);
    if (st != SK_OK) return sk_fail(b, st, what);
    st = bb_context_describe(b->ctx, b->device_name, sizeof b->device_name, &b->shape_name);
    if (st != SK_OK) return sk_fail(b, st, "configuring the context");
    b->queue = sk_context_cl_queue(b->ctx);
    return 0;
}

static int bench_open(bench *b)
{
    cl_int rc = CL_SUCCESS;
    if (b->opt.max_log2 >= (int)(sizeof(size_t) * 8 - 3)) {
        fprintf(stderr, "bench_compact: 2^%d elements do not fit in memory\n", b->opt.max_log2);
        return 1;
    }
    b->cap = (size_t)1 << b->opt.max_log2;
    size_t bytes = b->cap * sizeof(uint32_t);
    if (context_open(b)) return 1;
    b->in = malloc(bytes);
    b->want = malloc(bytes);
    b->got = malloc(bytes);
    if (!b->in || !b->want || !b->got) {
        fprintf(stderr, "bench_compact: out of host memory (3 x %zu bytes)\n", bytes);
        return 1;
    }
    bb_fill_random(b->in, b->cap, b->opt.seed);
    cl_context cl = sk_context_cl_context(b->ctx);
    b->src = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clCreateBuffer(src)");
    b->dst = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "clCreateBuffer(dst)");
    rc = clEnqueueWriteBuffer(b->queue, b->src, CL_TRUE, 0, bytes, b->in, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : cl_fail(rc, "clEnqueueWriteBuffer(src)");
}

static int bench_close(bench *b)
{
    int bad = 0;
    cl_mem mems[] = {b->src, b->dst};
    for (int i = 0; i < 2; i++)
        if (mems[i] && clReleaseMemObject(mems[i]) != CL_SUCCESS) bad = 1;
    sk_context_free(b->ctx);
    free(b->in);
    free(b->want);
    free(b->got);
    return bad;
}

/* ---- main ------------------------------------------------------------------------------ */

static int run_size(bench *b, size_t n, int *wrong)
{
    for (int op = OP_SELECT; op <= OP_PARTITION; op++) {
        row r = {.op = (bench_op)op, .n = n};
        size_t kept2 = 0;
        r.branchless_ms = serial_ms(b, r.op, true, n, &kept2);
        r.serial_ms = serial_ms(b, r.op, false, n, &r.kept);
        if (kept2 != r.kept || memcmp(b->got, b->want, (op == OP_SELECT ? r.kept : n) * 4))
            snprintf(r.error, sizeof r.error, "the two serial loops disagree");
        else if (scankit_ms(b, r.op, n, &r)) return 1;
        *wrong += r.error[0] != 0;
        print_row(&r);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench b = {0};
    int rc = parse_options(argc, argv, &b.opt);
    if (rc) return rc == 1 ? 0 : 2;
    int wrong = 0, failed = bench_open(&b);
    if (!failed) print_header(&b);
    for (int k = b.opt.min_log2; !failed && k <= b.opt.max_log2; k++)
        failed = run_size(&b, (size_t)1 << k, &wrong);
    failed |= bench_close(&b);
    if (wrong) fprintf(stderr, "bench_compact: %d wrong result(s)\n", wrong);
    return failed || wrong ? 1 : 0;
}
