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

typedef bb_run_opts options;

static const ak_opt compact_rows[] = {
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
    static const bb_run_spec spec = {"bench_compact", compact_rows, {0, 40, MAX_REPEATS}, 16, 26, 11, 1};
    return bb_run_parse_opts(&spec, argc, argv, o);
}

/* ---- time and statistics ------------------------------------------------------- */

/* ---- state ------------------------------------------------------------------------ */

typedef enum bench_op { OP_SELECT, OP_PARTITION } bench_op;

static const char *const op_names[] = {"select_if", "partition"};

typedef struct bench {
    options opt;
    sk_context *ctx;
    cl_command_queue queue;
    bb_io io;                   /* host: input, serial result, device result */
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

/* Failures, said as "bench_compact: WHAT: ERROR". */
#define cl_fail(rc, what) bb_cl_fail("bench_compact", rc, what)
#define sk_fail(b, st, what) bb_sk_fail("bench_compact", (b)->ctx, st, what)

/* ---- the serial loops --------------------------------------------------------------- */

static size_t serial_select(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i] & 1u) out[k++] = in[i];
    return k;
}

/* The number of elements the predicate keeps (odd values). */
static size_t count_kept(const uint32_t *in, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) kept += in[i] & 1u;
    return kept;
}

static size_t serial_partition(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t kept = count_kept(in, n), o = 0, r = kept;
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
    size_t kept = count_kept(in, n), o = 0, r = kept;
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

/* Median ms of a serial loop; leaves the plain loop's result in b->io.want
 * (the branchless one writes b->io.got, and must agree). */
static double serial_ms(bench *b, bench_op op, bool branchless, size_t n, size_t *kept)
{
    double t[MAX_REPEATS];
    uint32_t *out = branchless ? b->io.got : b->io.want;
    for (int i = 0; i < WARMUPS; i++) *kept = serial_run(op, branchless, b->io.in, out, n);
    for (int i = 0; i < b->opt.repeats; i++) {
        double t0 = bb_now();
        *kept = serial_run(op, branchless, b->io.in, out, n);
        t[i] = (bb_now() - t0) * 1e3;
    }
    return bb_median(t, b->opt.repeats);
}

/* ---- scankit ------------------------------------------------------------------------ */

static sk_status scankit_call(bench *b, bench_op op, size_t n, size_t *count)
{
    if (op == OP_SELECT)
        return sk_select_if(b->ctx, SK_UINT32, PREDICATE, b->io.src, b->io.dst, count, n);
    return sk_partition(b->ctx, SK_UINT32, PREDICATE, b->io.src, b->io.dst, count, n);
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
    cl_int rc = m ? clEnqueueReadBuffer(b->queue, b->io.dst, CL_TRUE, 0, m * 4, b->io.got, 0, NULL,
                                        NULL)
                  : CL_SUCCESS;
    if (rc != CL_SUCCESS) return cl_fail(rc, "clEnqueueReadBuffer(dst)");
    if (memcmp(b->io.got, b->io.want, m * 4) != 0)
        snprintf(r->error, sizeof r->error, "%s: wrong output", when);
    return 0;
}

static int scankit_ms(bench *b, bench_op op, size_t n, row *r)
{
    double wall[MAX_REPEATS], dev[MAX_REPEATS], w = 0, d = 0;
    size_t count = 0;
    uint32_t poison = 0xA5A5A5A5u;
    cl_int rc = clEnqueueFillBuffer(b->queue, b->io.dst, &poison, 4, 0, n * 4, 0, NULL, NULL);
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

static void print_header(const void *p)
{
    const bench *b = p;
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

/* Prints r (flushed: rows come as they are measured); @return 1 for a
 * wrong result. */
static int print_row(const row *r)
{
    if (r->error[0])
        printf("%-10s %10zu ERROR: %s\n", op_names[r->op], r->n, r->error);
    else
        printf("%-10s %10zu %9zu %11.3f %11.3f %8.3f %10.3f %9.2f %9.3f %13.2f\n",
               op_names[r->op], r->n, r->kept, r->dev_ms, r->wall_ms,
               (double)r->n / (r->dev_ms * 1e6), r->serial_ms, r->serial_ms / r->dev_ms,
               r->branchless_ms, r->branchless_ms / r->dev_ms);
    fflush(stdout);
    return r->error[0] != 0;
}

/* ---- setup ------------------------------------------------------------------------------ */

static int bench_open(void *p)
{
    bench *b = p;
    if (bb_cap_log2("bench_compact", b->opt.max_log2, &b->cap) ||
        bb_context_setup("bench_compact", &b->ctx, b->opt.device, b->opt.shape, b->device_name,
                         sizeof b->device_name, &b->shape_name))
        return 1;
    b->queue = sk_context_cl_queue(b->ctx);
    return bb_io_open(&b->io, "bench_compact", b->ctx, b->cap, b->opt.seed);
}

static int bench_close(void *p)
{
    bench *b = p;
    int bad = bb_io_close(&b->io);
    sk_context_free(b->ctx);
    return bad;
}

/* ---- main ------------------------------------------------------------------------------ */

static int run_size(void *p, size_t n, int *wrong)
{
    bench *b = p;
    for (int op = OP_SELECT; op <= OP_PARTITION; op++) {
        row r = {.op = (bench_op)op, .n = n};
        size_t kept2 = 0;
        r.branchless_ms = serial_ms(b, r.op, true, n, &kept2);
        r.serial_ms = serial_ms(b, r.op, false, n, &r.kept);
        if (kept2 != r.kept || memcmp(b->io.got, b->io.want, (op == OP_SELECT ? r.kept : n) * 4))
            snprintf(r.error, sizeof r.error, "the two serial loops disagree");
        else if (scankit_ms(b, r.op, n, &r)) return 1;
        *wrong += print_row(&r);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const bb_sized prog = {"bench_compact", bench_open, print_header, run_size, bench_close};
    static bench b;
    switch (parse_options(argc, argv, &b.opt)) {
    case 0: return bb_sized_main(&prog, &b, b.opt.min_log2, b.opt.max_log2);
    case 1: return 0; /* --help */
    default: return 2;
    }
}
