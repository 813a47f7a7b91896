/*
 * huge_compact - shows that compaction is correct past 2^32 elements
 * (64-bit counts and offsets): sk_select_if and sk_partition with the
 * predicate "(x & 1u) != 0" over N (default 2^32 + 5) uint32 elements,
 * checked element by element on the host against the same generated input.
 *
 *   huge_compact [N] [--device SPEC]
 *
 * Needs about 8N bytes of device memory (two buffers of 4N) and 8N bytes of
 * host memory. Prints the device times and the check results; exit 0 only
 * if every count and element matched, 2 on bad usage (--help lists the
 * options).
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "huge_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fail(what, ctx, st) bb_sk_fail("huge_compact", ctx, st, what)

static const ak_opt huge_compact_rows[] = {
    HUGE_ROWS("select and partition N uint32 (2^32 + 5)")};

/* Walks the input once: the kept elements must come first in `got`, then
 * (partition) the rejected ones after `kept`. @return mismatches. */
static uint64_t check(const uint32_t *got, size_t n, size_t kept, int partition)
{
    uint64_t bad = 0;
    size_t o = 0, r = kept;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = input_at(i);
        if (x & 1u) bad += got[o++] != x;
        else if (partition) bad += got[r++] != x;
    }
    return bad + (o != kept);
}

static int run(sk_context *ctx, cl_mem src, cl_mem dst, uint32_t *host, size_t n,
               int partition)
{
    size_t count = 0;
    double secs = 0;
    sk_status st = partition
                       ? sk_partition(ctx, SK_UINT32, "(x & 1u) != 0", src, dst, &count, n)
                       : sk_select_if(ctx, SK_UINT32, "(x & 1u) != 0", src, dst, &count, n);
    if (st == SK_OK) st = sk_context_profile_take(ctx, &secs, NULL);
    if (st != SK_OK) return fail(partition ? "sk_partition" : "sk_select_if", ctx, st);
    size_t m = partition ? n : count;
    cl_int rc = clEnqueueReadBuffer(sk_context_cl_queue(ctx), dst, CL_TRUE, 0, m * 4, host, 0,
                                    NULL, NULL);
    if (rc != CL_SUCCESS) return fail("reading the result", ctx, SK_E_CL);
    uint64_t bad = check(host, n, count, partition);
    printf("huge_compact: %s n=%zu: selected %zu, %.3f ms device, %s (%" PRIu64 " mismatches)\n",
           partition ? "partition" : "select_if", n, count, secs * 1e3, bad ? "WRONG" : "correct",
           bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    huge_args a;
    int parsed = huge_parse("huge_compact", huge_compact_rows, argc, argv, &a);
    if (parsed) return parsed == 1 ? 0 : 2;
    size_t n = (size_t)a.n;
    sk_context *ctx = NULL;
    if (huge_open("huge_compact", &a, &ctx)) return 1;
    uint32_t *host = malloc(n * 4);
    cl_int rc = CL_SUCCESS, rc2 = CL_SUCCESS;
    cl_mem src = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE, n * 4, NULL, &rc);
    cl_mem dst = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE, n * 4, NULL, &rc2);
    if (!host || rc != CL_SUCCESS || rc2 != CL_SUCCESS) {
        fprintf(stderr, "huge_compact: cannot allocate 2 x %zu bytes\n", n * 4);
        return 1;
    }
    for (size_t i = 0; i < n; i++) host[i] = input_at(i);
    rc = clEnqueueWriteBuffer(sk_context_cl_queue(ctx), src, CL_TRUE, 0, n * 4, host, 0, NULL,
                              NULL);
    int failed = rc != CL_SUCCESS ? fail("uploading", ctx, SK_E_CL) : 0;
    if (!failed) failed = run(ctx, src, dst, host, n, 0);
    if (!failed) failed = run(ctx, src, dst, host, n, 1);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    sk_context_free(ctx);
    free(host);
    return failed;
}
