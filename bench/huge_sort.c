/*
 * huge_sort - correctness of sk_sort_keys past 2^32 keys (64-bit counts and
 * indices in the kernels). Needs about 2 x 16 GiB of device memory and
 * 2 x 16 GiB of host memory at the default size.
 *
 *   huge_sort [--n N] [--device SPEC] [--shape cpu|gpu] [--descending]
 *
 * Keys are uint32 from a mixing function of the index; the result is
 * checked sorted and, through an order-independent checksum (sum and xor of
 * a second mix of every key, and the count), a permutation of the input.
 * Exit 0 when right, 1 when wrong or on failure, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "sk_rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct sums {
    uint64_t add, xor_;
} sums;

static sums checksum(const uint32_t *k, size_t n)
{
    sums s = {0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t h = sk_splitmix64_mix(k[i] + 0x9e3779b97f4a7c15ull);
        s.add += h;
        s.xor_ ^= h;
    }
    return s;
}

static int fail(sk_context *ctx, sk_status st, const char *what)
{
    fprintf(stderr, "huge_sort: %s: %s (%s)\n", what, sk_status_name(st),
            ctx ? sk_context_error_detail(ctx) : "");
    return 1;
}

/* The command line as read: the shared options first. */
typedef struct huge_sort_args {
    bb_run_args run;
    uint64_t n;
    int descending;
} huge_sort_args;

static const ak_opt huge_sort_rows[] = {
    {"n", 0, AK_OPT_U64, offsetof(huge_sort_args, n), "N", "sort N keys (2^32 + 4099)", NULL, 0},
    BB_RUN_ROW_DEVICE,
    BB_RUN_ROW_SHAPE,
    {"descending", 0, AK_OPT_FLAG, offsetof(huge_sort_args, descending), NULL,
     "sort in descending order", NULL, 0},
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void huge_sort_defaults(void *args)
{
    ((huge_sort_args *)args)->n = ((uint64_t)1 << 32) + 4099;
}

static int huge_sort_check(void *args, ak_err *e)
{
    huge_sort_args *a = args;
    if (a->n > SIZE_MAX / 4) return ak_fail(e, "--n is too large");
    return bb_shape_check(a->run.shape, e);
}

static size_t first_unsorted(const uint32_t *k, size_t n, int desc)
{
    for (size_t i = 1; i < n; i++)
        if (desc ? k[i - 1] < k[i] : k[i - 1] > k[i]) return i;
    return 0;
}

int main(int argc, char **argv)
{
    const ak_cli cli = {"huge_sort", "huge_sort [OPTION]...", huge_sort_rows,
                        sizeof(huge_sort_args), huge_sort_defaults, huge_sort_check, NULL};
    huge_sort_args a;
    int parsed = bb_run_parse(&cli, argc, argv, &a);
    if (parsed) return parsed == 1 ? 0 : 2;
    size_t n = (size_t)a.n;
    int desc = a.descending;
    sk_context *ctx = NULL;
    const char *what = NULL;
    sk_status st = bb_context_open(&ctx, a.run.device, a.run.shape, &what);
    if (st != SK_OK) return fail(ctx, st, what);
    uint32_t *k = malloc(n * sizeof *k);
    if (!k) return fail(ctx, SK_E_OUT_OF_MEMORY, "malloc");
    for (size_t i = 0; i < n; i++) k[i] = (uint32_t)(sk_splitmix64_mix(i) >> 32);
    sums before = checksum(k, n);
    cl_int rc = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE, n * 4, NULL, &rc);
    if (rc == CL_SUCCESS)
        rc = clEnqueueWriteBuffer(sk_context_cl_queue(ctx), buf, CL_TRUE, 0, n * 4, k, 0, NULL,
                                  NULL);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "huge_sort: upload: %s\n", sk_cl_error_name(rc));
        return 1;
    }
    memset(k, 0xa5, n * 4);
    double t0 = now_s();
    st = sk_sort_keys(ctx, SK_UINT32, buf, n, desc ? SK_DESCENDING : SK_ASCENDING);
    if (st == SK_OK) st = sk_context_finish(ctx);
    double secs = now_s() - t0;
    if (st != SK_OK) return fail(ctx, st, "sk_sort_keys");
    rc = clEnqueueReadBuffer(sk_context_cl_queue(ctx), buf, CL_TRUE, 0, n * 4, k, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "huge_sort: download: %s\n", sk_cl_error_name(rc));
        return 1;
    }
    size_t bad = first_unsorted(k, n, desc);
    sums after = checksum(k, n);
    int ok = bad == 0 && after.add == before.add && after.xor_ == before.xor_;
    printf("huge_sort: %zu uint32 keys (%s), %.3f s (build included): %s", n,
           desc ? "descending" : "ascending", secs, ok ? "correct\n" : "WRONG");
    if (!ok) printf(" (first unsorted index %zu, checksum %s)\n", bad,
                    after.add == before.add && after.xor_ == before.xor_ ? "equal" : "differs");
    clReleaseMemObject(buf);
    free(k);
    sk_context_free(ctx);
    return ok ? 0 : 1;
}
