/*
 * huge_search - shows that the sorted search is correct past 2^32 keys
 * (64-bit indices): sk_search_lower_bound and sk_search_upper_bound of
 * needles in a haystack of N (default 2^32 + 5) uint32 keys, key i being
 * i / 2, in both kernel shapes. Every key comes twice (the last maybe
 * once), so the bounds of x are known without a reference: lower 2x and
 * upper 2x + 2, both at most N. The needles reach past 2^31, so their
 * indices past 2^32.
 *
 *   huge_search [N] [--device SPEC]
 *
 * Needs about 4N bytes of device memory and as much host memory. Prints
 * the device times and the check results; exit 0 only if every index
 * matched, 2 on bad usage (--help lists the options).
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "huge_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fail(what, ctx, st) bb_sk_fail("huge_search", ctx, st, what)

/* Needles: the ends, the middle, past the last key, and random keys. */
#define NEEDLES 4096

static const ak_opt huge_search_rows[] = {
    HUGE_ROWS("search a haystack of N uint32 keys i / 2 (2^32 + 5)")};

/* The bound of x among keys i / 2, i < n. */
static uint64_t bound_of(uint64_t x, size_t n, int upper)
{
    uint64_t b = 2 * x + (upper ? 2 : 0);
    return b < n ? b : n;
}

static void make_needles(uint32_t *needles, size_t n)
{
    uint64_t last = (n - 1) / 2, state = 7;
    const uint64_t fixed[] = {0, 1, last / 2, last - 1, last, last + 1, UINT32_MAX, 1u << 31};
    for (size_t i = 0; i < NEEDLES; i++)
        needles[i] = (uint32_t)(i < sizeof fixed / sizeof fixed[0]
                                    ? fixed[i]
                                    : sk_splitmix64_next(&state) % (last + 2));
}

/* One search in `shape`, checked against bound_of. */
static int run(sk_context *ctx, cl_mem hay, cl_mem needles, cl_mem out, const uint32_t *nd,
               uint64_t *got, size_t n, sk_shape shape, int upper)
{
    double secs = 0;
    sk_status st = sk_context_set_param(ctx, SK_PARAM_SHAPE, shape);
    if (st == SK_OK)
        st = upper ? sk_search_upper_bound(ctx, SK_UINT32, hay, needles, out, n, NEEDLES,
                                           SK_ASCENDING)
                   : sk_search_lower_bound(ctx, SK_UINT32, hay, needles, out, n, NEEDLES,
                                           SK_ASCENDING);
    if (st == SK_OK) st = sk_context_profile_take(ctx, &secs, NULL);
    if (st != SK_OK)
        return fail(upper ? "sk_search_upper_bound" : "sk_search_lower_bound", ctx, st);
    cl_int rc = clEnqueueReadBuffer(sk_context_cl_queue(ctx), out, CL_TRUE, 0, NEEDLES * 8, got,
                                    0, NULL, NULL);
    if (rc != CL_SUCCESS) return fail("reading the indices", ctx, SK_E_CL);
    uint64_t bad = 0, past = 0;
    for (size_t i = 0; i < NEEDLES; i++) {
        bad += got[i] != bound_of(nd[i], n, upper);
        past += got[i] > UINT32_MAX;
    }
    printf("huge_search: %s shape, %s n=%zu: %d needles (%" PRIu64 " indices past 2^32), "
           "%.3f ms device, %s (%" PRIu64 " mismatches)\n",
           shape == SK_SHAPE_GPU ? "gpu" : "cpu", upper ? "upper_bound" : "lower_bound", n,
           NEEDLES, past, secs * 1e3, bad ? "WRONG" : "correct", bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    huge_args a;
    int parsed = huge_parse("huge_search", huge_search_rows, argc, argv, &a);
    if (parsed) return parsed == 1 ? 0 : 2;
    size_t n = (size_t)a.n;
    if (a.n > (uint64_t)1 << 33) {
        fprintf(stderr, "huge_search: N is at most 2^33 (keys i / 2 are uint32)\n");
        return 2;
    }
    sk_context *ctx = NULL;
    if (huge_open("huge_search", &a, &ctx)) return 1;
    uint32_t *host = malloc(n * 4), nd[NEEDLES];
    uint64_t got[NEEDLES];
    cl_int rc[3] = {CL_SUCCESS, CL_SUCCESS, CL_SUCCESS};
    cl_context cl = sk_context_cl_context(ctx);
    cl_mem hay = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * 4, NULL, &rc[0]);
    cl_mem needles = clCreateBuffer(cl, CL_MEM_READ_WRITE, NEEDLES * 4, NULL, &rc[1]);
    cl_mem out = clCreateBuffer(cl, CL_MEM_READ_WRITE, NEEDLES * 8, NULL, &rc[2]);
    if (!host || rc[0] != CL_SUCCESS || rc[1] != CL_SUCCESS || rc[2] != CL_SUCCESS) {
        fprintf(stderr, "huge_search: cannot allocate %zu bytes\n", n * 4);
        return 1;
    }
    for (size_t i = 0; i < n; i++) host[i] = (uint32_t)(i / 2);
    make_needles(nd, n);
    cl_command_queue q = sk_context_cl_queue(ctx);
    int failed = clEnqueueWriteBuffer(q, hay, CL_TRUE, 0, n * 4, host, 0, NULL, NULL) ||
                 clEnqueueWriteBuffer(q, needles, CL_TRUE, 0, sizeof nd, nd, 0, NULL, NULL);
    if (failed) fail("uploading", ctx, SK_E_CL);
    for (int s = 0; s < 2 && !failed; s++)
        for (int upper = 0; upper < 2 && !failed; upper++)
            failed = run(ctx, hay, needles, out, nd, got, n, s ? SK_SHAPE_CPU : SK_SHAPE_GPU,
                         upper);
    clReleaseMemObject(hay);
    clReleaseMemObject(needles);
    clReleaseMemObject(out);
    sk_context_free(ctx);
    free(host);
    return failed;
}
