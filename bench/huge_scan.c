/*
 * huge_scan - shows that the scan is correct past 2^32 elements: an
 * in-place inclusive uint32 add scan of N (default 2^32 + 5) elements,
 * checked element by element on the host against a serial scan of the
 * same generated input.
 *
 *   huge_scan [N] [--device SPEC]
 *
 * Needs about 4N bytes of device memory in one buffer and 4N bytes of host
 * memory. Prints the device time and the check result; exit 0 only if
 * every element matched, 2 on bad usage (--help lists the options).
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "huge_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define fail(what, ctx, st) bb_sk_fail("huge_scan", ctx, st, what)

static const ak_opt huge_scan_rows[] = {HUGE_ROWS("scan N uint32 in place (2^32 + 5)")};

int main(int argc, char **argv)
{
    huge_args a;
    int parsed = huge_parse("huge_scan", huge_scan_rows, argc, argv, &a);
    if (parsed) return parsed == 1 ? 0 : 2;
    uint64_t n = a.n;
    sk_context *ctx = NULL;
    sk_status st = sk_context_create(&ctx, a.run.device, NULL, 0);
    if (st != SK_OK) return fail("opening a device", NULL, st);
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_context_device(ctx, &d);
    printf("device: %s (%s), n = %" PRIu64 " uint32 (%.2f GiB), in place\n", d.device_name,
           d.platform_name, n, (double)n * 4 / (1 << 30));
    uint32_t *host = malloc(n * sizeof *host);
    if (!host) return fail("host allocation", ctx, SK_E_OUT_OF_MEMORY);
    for (uint64_t i = 0; i < n; i++) host[i] = input_at(i);
    cl_int rc = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE, n * 4, NULL, &rc);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "huge_scan: clCreateBuffer(%" PRIu64 " bytes): %s\n", n * 4,
                sk_cl_error_name(rc));
        return 1;
    }
    cl_command_queue q = sk_context_cl_queue(ctx);
    if (clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, n * 4, host, 0, NULL, NULL) != CL_SUCCESS)
        return fail("upload", ctx, SK_E_CL);
    sk_context_set_param(ctx, SK_PARAM_PROFILE, 1);
    double t0 = now_seconds();
    st = sk_scan_inclusive(ctx, SK_UINT32, SK_OP_ADD, buf, buf, n);
    if (st == SK_OK) st = sk_context_finish(ctx);
    double wall = now_seconds() - t0, dev = 0;
    if (st != SK_OK) return fail("scan", ctx, st);
    unsigned long launches = 0;
    sk_context_profile_take(ctx, &dev, &launches);
    memset(host, 0xA5, n * 4);
    if (clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 4, host, 0, NULL, NULL) != CL_SUCCESS)
        return fail("download", ctx, SK_E_CL);
    uint32_t acc = 0;
    uint64_t bad = 0, first_bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        acc += input_at(i);
        if (host[i] != acc && bad++ == 0) first_bad = i;
    }
    printf("scan: %.3f ms device (%lu launches, incl. program build: %.3f ms wall)\n",
           dev * 1e3, launches, wall * 1e3);
    printf("last element [%" PRIu64 "] = %" PRIu32 ", expected %" PRIu32 "\n", n - 1,
           host[n - 1], acc);
    if (bad) printf("check: FAILED, %" PRIu64 " mismatches, first at %" PRIu64 "\n", bad, first_bad);
    else printf("check: all %" PRIu64 " elements match the serial scan\n", n);
    clReleaseMemObject(buf);
    free(host);
    sk_context_free(ctx);
    return bad ? 1 : 0;
}
