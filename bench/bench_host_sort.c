/*
 * bench_host_sort - the host-array sort (sk_sort_keys_host,
 * sk_sort_pairs_host: host array in, host array out) against the limit
 * that pinned memory sets on the same device, in the same run, on the same
 * data (uint32 keys from bb_fill_random, uint32 values = indices):
 *
 *   pinned    the keys (and values) copied from pinned host memory
 *             (CL_MEM_ALLOC_HOST_PTR, mapped) to a device buffer, sorted
 *             there (sk_sort_keys / sk_sort_pairs), copied back into pinned
 *             memory: each step blocking and timed on its own; their sum is
 *             the limit a host-array form can reach;
 *   pageable  the same three steps from and to malloc'ed memory (what the
 *             host forms did before they went through pinned slots);
 *   host      the host-array form's call, whole.
 *
 *   bench_host_sort [--min-log2 K] [--max-log2 K] [--repeats R]
 *                   [--device SPEC] [--shape cpu|gpu] [--seed S]
 *
 * Times are wall-clock milliseconds, medians of R runs after one warm-up;
 * the three ways alternate within each repeat, so load on a shared machine
 * hits them alike. "limit/host" is the fraction of the pinned limit the
 * host form reaches (1.0: as fast as the limit). Every host-form result is
 * checked (sorted, stable, the input's keys and values): exit 1 when one
 * is wrong or a step fails, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "bench_time.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEATS 51
#define PROG "bench_host_sort"

enum { UP, SORT, DOWN, STEPS };

/* One size and form: the input, the arrays each way uses. */
typedef struct hcase {
    sk_context *ctx;
    size_t n;
    int pairs;
    uint32_t *keys, *vals;         /* the input */
    uint32_t *hk, *hv;             /* the host form's arrays, and the pageable way's */
    cl_mem pin_k, pin_v;           /* pinned host memory */
    uint32_t *pk, *pv;             /* mapped */
    cl_mem dk, dv;                 /* device buffers */
} hcase;

static int cl_fail(cl_int rc, const char *what) { return bb_cl_fail(PROG, rc, what); }

static cl_mem buffer(sk_context *ctx, cl_mem_flags flags, size_t bytes, cl_int *rc)
{
    return clCreateBuffer(sk_context_cl_context(ctx), flags, bytes, NULL, rc);
}

static int pinned_open(hcase *c, cl_mem *m, uint32_t **p)
{
    cl_int rc = CL_SUCCESS;
    *m = buffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, c->n * 4, &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "pinned buffer");
    *p = clEnqueueMapBuffer(sk_context_cl_queue(c->ctx), *m, CL_TRUE,
                            CL_MAP_READ | CL_MAP_WRITE, 0, c->n * 4, 0, NULL, NULL, &rc);
    return rc == CL_SUCCESS ? 0 : cl_fail(rc, "map of the pinned buffer");
}

static int case_open(hcase *c)
{
    cl_int rc = CL_SUCCESS;
    size_t b = c->n * 4;
    c->keys = malloc(b), c->vals = malloc(b), c->hk = malloc(b), c->hv = malloc(b);
    if (!c->keys || !c->vals || !c->hk || !c->hv) return bb_sk_fail(PROG, c->ctx,
                                                                    SK_E_OUT_OF_MEMORY, "malloc");
    for (size_t i = 0; i < c->n; i++) c->vals[i] = (uint32_t)i;
    c->dk = buffer(c->ctx, CL_MEM_READ_WRITE, b, &rc);
    if (rc == CL_SUCCESS) c->dv = buffer(c->ctx, CL_MEM_READ_WRITE, b, &rc);
    if (rc != CL_SUCCESS) return cl_fail(rc, "device buffer");
    return pinned_open(c, &c->pin_k, &c->pk) || pinned_open(c, &c->pin_v, &c->pv);
}

static void case_close(hcase *c)
{
    cl_command_queue q = sk_context_cl_queue(c->ctx);
    if (c->pk) clEnqueueUnmapMemObject(q, c->pin_k, c->pk, 0, NULL, NULL);
    if (c->pv) clEnqueueUnmapMemObject(q, c->pin_v, c->pv, 0, NULL, NULL);
    clFinish(q);
    cl_mem mems[] = {c->pin_k, c->pin_v, c->dk, c->dv};
    for (size_t i = 0; i < 4; i++)
        if (mems[i]) clReleaseMemObject(mems[i]);
    free(c->keys), free(c->vals), free(c->hk), free(c->hv);
}

/* The three blocking steps from and to (k, v), each timed into t. */
static int three_steps(hcase *c, uint32_t *k, uint32_t *v, double t[STEPS])
{
    cl_command_queue q = sk_context_cl_queue(c->ctx);
    size_t b = c->n * 4;
    double t0 = bb_now();
    cl_int rc = clEnqueueWriteBuffer(q, c->dk, CL_TRUE, 0, b, k, 0, NULL, NULL);
    if (rc == CL_SUCCESS && c->pairs)
        rc = clEnqueueWriteBuffer(q, c->dv, CL_TRUE, 0, b, v, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return cl_fail(rc, "upload");
    double t1 = bb_now();
    sk_status st = c->pairs ? sk_sort_pairs(c->ctx, SK_UINT32, 4, c->dk, c->dv, c->n,
                                            SK_ASCENDING)
                            : sk_sort_keys(c->ctx, SK_UINT32, c->dk, c->n, SK_ASCENDING);
    if (st == SK_OK) st = sk_context_finish(c->ctx);
    if (st != SK_OK) return bb_sk_fail(PROG, c->ctx, st, "device sort");
    double t2 = bb_now();
    rc = clEnqueueReadBuffer(q, c->dk, CL_TRUE, 0, b, k, 0, NULL, NULL);
    if (rc == CL_SUCCESS && c->pairs)
        rc = clEnqueueReadBuffer(q, c->dv, CL_TRUE, 0, b, v, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return cl_fail(rc, "download");
    t[UP] = t1 - t0, t[SORT] = t2 - t1, t[DOWN] = bb_now() - t2;
    return 0;
}

static int host_call(hcase *c, double *t)
{
    memcpy(c->hk, c->keys, c->n * 4);
    memcpy(c->hv, c->vals, c->n * 4);
    double t0 = bb_now();
    sk_status st = c->pairs ? sk_sort_pairs_host(c->ctx, SK_UINT32, 4, c->hk, c->hv, c->n,
                                                 SK_ASCENDING)
                            : sk_sort_keys_host(c->ctx, SK_UINT32, c->hk, c->n, SK_ASCENDING);
    *t = bb_now() - t0;
    return st == SK_OK ? 0 : bb_sk_fail(PROG, c->ctx, st, "host-array sort");
}

/* Sorted, stable, and a permutation of the input (values are indices: each
 * once, with its key). Keys only: sorted, and the input's multiset by an
 * order-independent checksum. */
static int host_result_right(const hcase *c)
{
    uint64_t want = 0, got = 0;
    for (size_t i = 0; i < c->n; i++) {
        want += c->keys[i] * 0x9e3779b97f4a7c15ull ^ c->keys[i];
        got += c->hk[i] * 0x9e3779b97f4a7c15ull ^ c->hk[i];
        if (i && c->hk[i - 1] > c->hk[i]) return 0;
    }
    if (!c->pairs) return want == got;
    unsigned char *seen = calloc(c->n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; ok && i < c->n; i++) {
        uint32_t v = c->hv[i];
        ok = v < c->n && !seen[v] && c->keys[v] == c->hk[i] &&
             (i == 0 || c->hk[i - 1] != c->hk[i] || c->hv[i - 1] < v);
        if (ok) seen[v] = 1;
    }
    free(seen);
    return ok;
}

/* One repeat: the pinned way, the pageable way, the host form. */
static int one_repeat(hcase *c, double pin[STEPS], double page[STEPS], double *host)
{
    memcpy(c->pk, c->keys, c->n * 4), memcpy(c->pv, c->vals, c->n * 4);
    if (three_steps(c, c->pk, c->pv, pin)) return 1;
    memcpy(c->hk, c->keys, c->n * 4), memcpy(c->hv, c->vals, c->n * 4);
    if (three_steps(c, c->hk, c->hv, page)) return 1;
    return host_call(c, host);
}

static double sum3(const double t[STEPS]) { return t[UP] + t[SORT] + t[DOWN]; }

static int measure(hcase *c, int repeats)
{
    double pin[STEPS][MAX_REPEATS], page[MAX_REPEATS], host[MAX_REPEATS], t[2][STEPS];
    if (one_repeat(c, t[0], t[1], &host[0])) return 1; /* warm-up */
    if (!host_result_right(c)) {
        fprintf(stderr, PROG ": n=%zu %s: WRONG host-array result\n", c->n,
                c->pairs ? "pairs" : "keys");
        return 1;
    }
    for (int r = 0; r < repeats; r++) {
        if (one_repeat(c, t[0], t[1], &host[r])) return 1;
        for (int s = 0; s < STEPS; s++) pin[s][r] = t[0][s];
        page[r] = sum3(t[1]);
    }
    double med[STEPS];
    for (int s = 0; s < STEPS; s++) med[s] = bb_median(pin[s], repeats) * 1e3;
    double limit = sum3(med), pg = bb_median(page, repeats) * 1e3;
    double h = bb_median(host, repeats) * 1e3;
    printf("| %zu | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", c->n,
           c->pairs ? "pairs" : "keys", med[UP], med[SORT], med[DOWN], limit, pg, h, limit / h);
    fflush(stdout);
    return 0;
}

typedef struct host_sort_args {
    bb_run_args run;
} host_sort_args;

static const ak_opt rows[] = {
    BB_RUN_ROWS_SIZES("sizes n = 2^K from K (20) ...", "... to K (28; at most 30)",
                      "R timed runs per measurement (5)"),
    BB_RUN_ROW_SEED("the input seed (42)"),
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void defaults(void *args) { bb_run_defaults(args, 20, 28, 5, 42); }

static int check(void *args, ak_err *e)
{
    static const bb_run_limits limits = {1, 30, MAX_REPEATS};
    return bb_run_check(args, &limits, e);
}

static int run_size(sk_context *ctx, const host_sort_args *a, size_t n)
{
    int bad = 0;
    for (int pairs = 0; pairs < 2 && !bad; pairs++) {
        hcase c = {.ctx = ctx, .n = n, .pairs = pairs};
        bad = case_open(&c);
        if (!bad) bb_fill_random(c.keys, n, a->run.seed), bad = measure(&c, (int)a->run.repeats);
        case_close(&c);
    }
    return bad;
}

int main(int argc, char **argv)
{
    const ak_cli cli = {PROG, PROG " [OPTION]...", rows, sizeof(host_sort_args), defaults,
                        check, NULL};
    host_sort_args a;
    int parsed = bb_run_parse(&cli, argc, argv, &a);
    if (parsed) return parsed == 1 ? 0 : 2;
    sk_context *ctx = NULL;
    char name[256];
    const char *shape = NULL;
    if (bb_context_setup(PROG, &ctx, a.run.device, a.run.shape, name, sizeof name, &shape))
        return 1;
    printf("%s, %s shape, uint32 keys (+ uint32 values), wall ms, medians of %d\n\n", name,
           shape, (int)a.run.repeats);
    printf("| n | form | pinned up | sort | pinned down | limit | pageable | host form | "
           "limit/host |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    int bad = 0;
    for (int k = (int)a.run.min_log2; k <= (int)a.run.max_log2 && !bad; k++) {
        size_t n = 0;
        bad = bb_cap_log2(PROG, k, &n) || run_size(ctx, &a, n);
    }
    sk_context_free(ctx);
    return bad;
}
