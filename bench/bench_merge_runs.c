/*
 * bench_merge_runs - scankit's merge of P sorted runs by rounds
 * (sk_merge_runs_keys, sk_merge_runs_pairs with SK_PARAM_MERGE_RUNS_ROUNDS
 * at 64, so that the rounds run for every P) against its radix sort of the
 * same n keys (sk_sort_keys, sk_sort_pairs), in the same run and on the
 * same data: uint32 keys, uint32 values.
 *
 *   bench_merge_runs [--min-log2 K] [--max-log2 K] [--runs LIST]
 *                    [--repeats R] [--device SPEC] [--shape cpu|gpu]
 *                    [--seed S]
 *
 * Input of each n = 2^min .. 2^max and each P of --runs: n uniform random
 * keys (the same for every P at that n) cut into P runs one after another,
 * of n / P keys each and one more for the first n % P of them, each run
 * sorted on the host (the serial radix sort of bench_common); the values
 * are the indices 0, 1, ..., n-1 of that concatenation. Both calls get
 * the same concatenation and must give its stable sort: the keys and the
 * values identical to the serial radix sort's, which is checked sorted
 * and stable itself. Each call's first run is checked before anything is
 * timed (a wrong result is reported as an error and not timed); it is
 * also the warm-up. Times are medians of R runs: device time from a
 * marker enqueued before the call to one enqueued after it (profiling
 * events: every command of the call); the upload of the input into the
 * keys (and values) buffer before each run is not timed. The merge's runs
 * and the sort's alternate (one each per repeat), so that load from other
 * programs on a shared machine hits both alike. The merge takes
 * ceil(log2 P) rounds, each a pass over the keys (and values).
 * Exit 0 when every result was right, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#ifndef SCANKIT_EXPERIMENTAL
#define SCANKIT_EXPERIMENTAL 1
#endif
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "bench_merge_runs"
#define MAX_REPEATS 101
#define MAX_RUN_COUNTS 32          /* values of --runs      */
#define MAX_RUNS 65536             /* the largest P         */
#define ROUNDS_ALWAYS 64           /* SK_PARAM_MERGE_RUNS_ROUNDS: merge in rounds for any P */

#define cl_fail(rc, what) bb_cl_fail(PROG, rc, what)
#define sk_fail(b, st, what) bb_sk_fail(PROG, (b)->ctx, st, what)

/* ---- options ---------------------------------------------------------------- */

typedef struct options {
    int min_log2, max_log2, repeats;
    const char *device, *shape;
    uint64_t seed;
    size_t runs[MAX_RUN_COUNTS];
    size_t nruns;
} options;

/* The command line as read: the shared options first; --runs parsed into
 * counts by the check hook. */
typedef struct merge_args {
    bb_run_args run;
    const char *runs;
    size_t counts[MAX_RUN_COUNTS];
    size_t ncounts;
} merge_args;

static const ak_opt merge_rows[] = {
    BB_RUN_ROWS_SIZES("sizes n = 2^K from K (20; at least 1) ...",
                      "... to K (24; at most 31)",
                      "R timed runs per measurement (5)"),
    {"runs", 0, AK_OPT_TEXT, offsetof(merge_args, runs), "LIST",
     "comma list of run counts P, each 1..65536\n(2,4,8,16,32,64)", NULL, 0},
    BB_RUN_ROW_SEED("the input seed (42)"),
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void merge_defaults(void *args)
{
    merge_args *a = args;
    bb_run_defaults(&a->run, 20, 24, 5, 42);
    a->runs = "2,4,8,16,32,64";
}

/* a->runs into a->counts. */
static int parse_runs(merge_args *a, ak_err *e)
{
    char buf[512];
    if (strlen(a->runs) >= sizeof buf) return ak_fail(e, "--runs is too long");
    strcpy(buf, a->runs);
    a->ncounts = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long v = 0;
        if (!bb_parse_long(t, 1, MAX_RUNS, &v))
            return ak_fail(e, "--runs: '%s' is not a run count from 1 to %d", t, MAX_RUNS);
        if (a->ncounts == MAX_RUN_COUNTS)
            return ak_fail(e, "--runs: at most %d counts", MAX_RUN_COUNTS);
        a->counts[a->ncounts++] = (size_t)v;
    }
    return a->ncounts ? 0 : ak_fail(e, "--runs needs at least one count");
}

static int merge_check(void *args, ak_err *e)
{
    static const bb_run_limits limits = {1, 31, MAX_REPEATS};
    merge_args *a = args;
    if (bb_run_check(&a->run, &limits, e)) return -1;
    return parse_runs(a, e);
}

/* 0: run; 1: --help shown; 2: bad usage. */
static int parse_options(int argc, char **argv, options *o)
{
    const ak_cli cli = {PROG, PROG " [OPTION]...", merge_rows, sizeof(merge_args),
                        merge_defaults, merge_check, NULL};
    merge_args a;
    int rc = bb_run_parse(&cli, argc, argv, &a);
    if (rc) return rc;
    *o = (options){(int)a.run.min_log2, (int)a.run.max_log2, (int)a.run.repeats,
                   a.run.device, a.run.shape, a.run.seed, {0}, a.ncounts};
    memcpy(o->runs, a.counts, a.ncounts * sizeof a.counts[0]);
    return 0;
}

/* ---- the benchmark ---------------------------------------------------------------- */

typedef struct bench {
    options o;
    sk_context *ctx;
    cl_command_queue q;
    cl_mem dk, dv;
    uint32_t *in, *idx, *ref_k, *ref_v, *got_k, *got_v, *tmp; /* tmp: 2n */
    size_t *lens;                                             /* the runs' lengths */
} bench;

/* The case bb_check compares a result with: the reference of n keys (and
 * values). */
static bb_case ref_case(const bench *b, size_t n, bool pairs)
{
    bb_case c = {0};
    c.prim = pairs ? BB_SORT_PAIRS : BB_SORT_KEYS;
    c.n = n;
    c.keys = b->in;
    c.values = b->idx;
    c.ref_out = b->ref_k;
    c.ref_out2 = b->ref_v;
    return c;
}

/* ceil(log2 p): the merge's rounds. */
static int rounds_of(size_t p)
{
    int r = 0;
    while (((size_t)1 << r) < p) r++;
    return r;
}

/* p runs of n / p keys, the first n % p one longer. */
static void split_runs(size_t *lens, size_t n, size_t p)
{
    for (size_t r = 0; r < p; r++) lens[r] = n / p + (r < n % p);
}

/* b->in = n random keys (from the seed and n) cut into p runs, each
 * sorted; random keys go through got_k. */
static void make_input(bench *b, size_t n, size_t p)
{
    bb_case c = {0};
    c.prim = BB_SORT_KEYS;
    split_runs(b->lens, n, p);
    bb_fill_random(b->got_k, n, b->o.seed + n);
    for (size_t r = 0, off = 0; r < p; off += b->lens[r++]) {
        c.keys = b->got_k + off;
        c.n = b->lens[r];
        bb_serial_run(&c, BB_SERIAL_LOOP, b->in + off, NULL, NULL, b->tmp, NULL, NULL, NULL,
                      NULL);
    }
}

/* Input and reference result (serial radix sort of the concatenation,
 * checked sorted and stable). */
static int prepare(bench *b, size_t n, size_t p)
{
    make_input(b, n, p);
    bb_case c = ref_case(b, n, true);
    bb_serial_run(&c, BB_SERIAL_LOOP, b->ref_k, b->ref_v, NULL, b->tmp, NULL, NULL, NULL, NULL);
    for (size_t i = 1; i < n; i++)
        if (b->ref_k[i - 1] > b->ref_k[i] ||
            (b->ref_k[i - 1] == b->ref_k[i] && b->ref_v[i - 1] > b->ref_v[i])) {
            fprintf(stderr, PROG ": serial radix sort wrong at n=%zu, index %zu\n", n, i);
            return -1;
        }
    return 0;
}

/* The input into the device buffers (before each run, untimed). */
static int upload(bench *b, size_t n, bool pairs)
{
    cl_int rc = clEnqueueWriteBuffer(b->q, b->dk, CL_FALSE, 0, n * 4, b->in, 0, NULL, NULL);
    if (rc == CL_SUCCESS && pairs)
        rc = clEnqueueWriteBuffer(b->q, b->dv, CL_FALSE, 0, n * 4, b->idx, 0, NULL, NULL);
    if (rc == CL_SUCCESS) rc = clFinish(b->q);
    return rc == CL_SUCCESS ? 0 : cl_fail(rc, "upload");
}


static const char *call_name(bool merge, bool pairs)
{
    if (merge) return pairs ? "sk_merge_runs_pairs" : "sk_merge_runs_keys";
    return pairs ? "sk_sort_pairs" : "sk_sort_keys";
}

/* The measured call on the device buffers: the merge of the p runs of
 * b->lens, or the radix sort. */
static sk_status call(bench *b, size_t n, size_t p, bool merge, bool pairs)
{
    if (merge && pairs)
        return sk_merge_runs_pairs(b->ctx, SK_UINT32, 4, b->dk, b->dv, n, b->lens, p,
                                   SK_ASCENDING, 0, 32);
    if (merge)
        return sk_merge_runs_keys(b->ctx, SK_UINT32, b->dk, n, b->lens, p, SK_ASCENDING, 0, 32);
    if (pairs) return sk_sort_pairs(b->ctx, SK_UINT32, 4, b->dk, b->dv, n, SK_ASCENDING);
    return sk_sort_keys(b->ctx, SK_UINT32, b->dk, n, SK_ASCENDING);
}

/* One run on a fresh upload of the input: device ms, marker to marker.
 * The launch record profiling keeps is taken (and dropped) each time. */
static int run_once(bench *b, size_t n, size_t p, bool merge, bool pairs, double *ms)
{
    cl_event m0 = NULL, m1 = NULL;
    double secs = 0;
    if (upload(b, n, pairs) != 0 || bb_marker(PROG, b->q, &m0) != 0) return -1;
    sk_status st = call(b, n, p, merge, pairs);
    int rc = st == SK_OK ? bb_marker(PROG, b->q, &m1) : -1;
    if (st == SK_OK) st = sk_context_finish(b->ctx);
    if (st == SK_OK) st = sk_context_profile_take(b->ctx, &secs, NULL);
    if (st != SK_OK) rc = sk_fail(b, st, call_name(merge, pairs));
    if (rc == 0) rc = bb_marker_span_ms(PROG, m0, m1, ms);
    clReleaseEvent(m0);
    if (m1) clReleaseEvent(m1);
    return rc;
}

/* Compares the device result with the reference. */
static int check(bench *b, size_t n, size_t p, bool merge, bool pairs)
{
    cl_int rc = clEnqueueReadBuffer(b->q, b->dk, CL_TRUE, 0, n * 4, b->got_k, 0, NULL, NULL);
    if (rc == CL_SUCCESS && pairs)
        rc = clEnqueueReadBuffer(b->q, b->dv, CL_TRUE, 0, n * 4, b->got_v, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return cl_fail(rc, "download");
    bb_case c = ref_case(b, n, pairs);
    bb_result r = {b->got_k, b->got_v, 0, 0, 0.0, NULL};
    char why[256];
    if (!bb_check(&c, &r, 0, why, sizeof why)) return 0;
    fprintf(stderr, PROG ": WRONG %s result at n=%zu, P=%zu: %s\n", call_name(merge, pairs), n,
            p, why);
    return -1;
}

/* Medians of the merge's and the sort's device ms; each call's first run
 * (the warm-up) is checked, then they alternate run by run. */
static int measure(bench *b, size_t n, size_t p, bool pairs, double *merge_ms, double *sort_ms)
{
    double t[2][MAX_REPEATS], w = 0;
    for (int m = 1; m >= 0; m--)
        if (run_once(b, n, p, m, pairs, &w) != 0 || check(b, n, p, m, pairs) != 0) return -1;
    for (int i = 0; i < b->o.repeats; i++)
        for (int m = 1; m >= 0; m--)
            if (run_once(b, n, p, m, pairs, &t[m][i]) != 0) return -1;
    *merge_ms = bb_median(t[1], b->o.repeats);
    *sort_ms = bb_median(t[0], b->o.repeats);
    return 0;
}

/* ---- setup and output --------------------------------------------------------------- */

static size_t max_runs(const options *o)
{
    size_t m = 1;
    for (size_t i = 0; i < o->nruns; i++)
        if (o->runs[i] > m) m = o->runs[i];
    return m;
}

static int open_buffers(bench *b, size_t n)
{
    cl_int rc = CL_SUCCESS;
    cl_context cl = sk_context_cl_context(b->ctx);
    b->dk = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * 4, NULL, &rc);
    if (rc == CL_SUCCESS) b->dv = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * 4, NULL, &rc);
    return rc == CL_SUCCESS ? 0 : cl_fail(rc, "clCreateBuffer");
}

static int open_host(bench *b, size_t n)
{
    uint32_t **arrays[] = {&b->in, &b->idx, &b->ref_k, &b->ref_v, &b->got_k, &b->got_v};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (!(*arrays[i] = malloc(n * 4))) return sk_fail(b, SK_E_OUT_OF_MEMORY, "malloc");
    b->tmp = malloc(2 * n * 4);
    b->lens = malloc(max_runs(&b->o) * sizeof *b->lens);
    if (!b->tmp || !b->lens) return sk_fail(b, SK_E_OUT_OF_MEMORY, "malloc");
    for (size_t i = 0; i < n; i++) b->idx[i] = (uint32_t)i;
    return 0;
}

/* Context (merging in rounds for every P), buffers and host arrays for the
 * largest n; "DEVICE (PLATFORM)" into name and the shape into *shape. */
static int open_all(bench *b, char *name, size_t cap, const char **shape)
{
    size_t n = 0;
    if (bb_cap_log2(PROG, b->o.max_log2, &n) ||
        bb_context_setup(PROG, &b->ctx, b->o.device, b->o.shape, name, cap, shape))
        return -1;
    b->q = sk_context_cl_queue(b->ctx);
    sk_status st = sk_context_set_param(b->ctx, SK_PARAM_MERGE_RUNS_ROUNDS, ROUNDS_ALWAYS);
    if (st != SK_OK) return sk_fail(b, st, "setting SK_PARAM_MERGE_RUNS_ROUNDS");
    return open_buffers(b, n) || open_host(b, n) ? -1 : 0;
}

static void close_all(bench *b)
{
    if (b->dk) clReleaseMemObject(b->dk);
    if (b->dv) clReleaseMemObject(b->dv);
    sk_context_free(b->ctx);
    free(b->in); free(b->idx); free(b->ref_k); free(b->ref_v);
    free(b->got_k); free(b->got_v); free(b->tmp);
    free(b->lens);
}

static void print_header(bench *b, const char *name, const char *shape, int argc, char **argv)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_context_device(b->ctx, &d);
    printf("device: %s, driver %s, %s shape, %u compute units; median of %d after a warm-up\n",
           name, d.driver_version, shape, d.compute_units, b->o.repeats);
    printf("command:");
    for (int i = 0; i < argc; i++) printf(" %s", argv[i]);
    printf("\nuint32 keys (pairs: + uint32 values), uniform, seed %llu, in P sorted runs. "
           "Device ms, marker to marker\non the queue (all commands of the call); "
           "merge = sk_merge_runs_* in rounds, sort = sk_sort_*.\n\n",
           (unsigned long long)b->o.seed);
    printf("|         n |     P | rounds | keys merge ms | keys sort ms | sort/merge |"
           " pairs merge ms | pairs sort ms | sort/merge |\n");
    printf("|-----------|-------|--------|---------------|--------------|------------|"
           "----------------|---------------|------------|\n");
}

static void print_row(size_t n, size_t p, const double ms[4])
{
    printf("| %9zu | %5zu | %6d | %13.3f | %12.3f | %9.2fx | %14.3f | %13.3f | %9.2fx |\n", n,
           p, rounds_of(p), ms[0], ms[1], ms[1] / ms[0], ms[2], ms[3], ms[3] / ms[2]);
    fflush(stdout);
}

/* One row: keys, then pairs, on the same input. */
static int run_case(bench *b, size_t n, size_t p)
{
    double ms[4];
    if (prepare(b, n, p) != 0 || measure(b, n, p, false, &ms[0], &ms[1]) != 0 ||
        measure(b, n, p, true, &ms[2], &ms[3]) != 0)
        return -1;
    print_row(n, p, ms);
    return 0;
}

int main(int argc, char **argv)
{
    bench b = {0};
    char name[300];
    const char *shape = NULL;
    int rc = parse_options(argc, argv, &b.o);
    if (rc) return rc == 1 ? 0 : 2;
    if (open_all(&b, name, sizeof name, &shape) != 0) {
        close_all(&b);
        return 1;
    }
    print_header(&b, name, shape, argc, argv);
    int failed = 0;
    for (int k = b.o.min_log2; k <= b.o.max_log2; k++)
        for (size_t i = 0; i < b.o.nruns; i++)
            if (run_case(&b, (size_t)1 << k, b.o.runs[i]) != 0) failed = 1;
    close_all(&b);
    return failed;
}
