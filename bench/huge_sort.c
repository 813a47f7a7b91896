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

static int parse(int argc, char **argv, size_t *n, const char **dev, const char **shape,
                 int *desc)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--descending")) *desc = 1;
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) *n = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) *dev = argv[++i];
        else if (!strcmp(argv[i], "--shape") && i + 1 < argc) *shape = argv[++i];
        else return 0;
    }
    return 1;
}

static size_t first_unsorted(const uint32_t *k, size_t n, int desc)
{
    for (size_t i = 1; i < n; i++)
        if (desc ? k[i - 1] < k[i] : k[i - 1] > k[i]) return i;
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = ((size_t)1 << 32) + 4099;
    const char *dev = NULL, *shape = NULL;
    int desc = 0;
    if (!parse(argc, argv, &n, &dev, &shape, &desc)) {
        fprintf(stderr, "usage: huge_sort [--n N] [--device SPEC] [--shape cpu|gpu] "
                        "[--descending]\n");
        return 2;
    }
    sk_context *ctx = NULL;
    sk_status st = sk_context_create(&ctx, dev);
    if (st != SK_OK) return fail(NULL, st, "sk_context_create");
    if (shape)
        sk_context_set_param(ctx, SK_PARAM_SHAPE, !strcmp(shape, "cpu") ? SK_SHAPE_CPU : SK_SHAPE_GPU);
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
