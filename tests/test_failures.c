/*
 * test_failures.c - failures injected under the library, each answered by a
 * clear status with nothing half-done: a host array larger than the
 * device's largest buffer gives SK_E_SIZE before any allocation, with a
 * detail and no OpenCL error, leaves the output untouched, and the context
 * still computes correct results afterwards. (The programs' reader:
 * test_failures_reader.c; the programs: test_cli_failures.c.)
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "skt_common.h"

/* ------------------------------------------------------------------------ */
/* A device allocation over the limit                                        */
/* ------------------------------------------------------------------------ */

TestSuite(device_limits, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

/* The call was refused before any allocation: the detail names the limit,
 * and no OpenCL call failed. */
static void expect_refused_over_the_limit(const char *call)
{
    cr_assert_eq(sk_context_cl_error(skt_ctx), CL_SUCCESS, "%s: OpenCL error %s", call,
                 sk_cl_error_name(sk_context_cl_error(skt_ctx)));
    const char *detail = sk_context_error_detail(skt_ctx);
    cr_assert_not_null(strstr(detail, "largest buffer"), "%s: detail '%s'", call, detail);
}

/* A small inclusive sum, checked against a serial loop. */
static void expect_context_computes(void)
{
    enum { N = 10007 };
    static uint32_t in[N], out[N];
    skt_fill(SK_UINT32, SK_OP_ADD, in, N);
    SKT_OK(sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, out, N));
    uint32_t sum = 0;
    for (size_t i = 0; i < N; i++) {
        sum += in[i];
        cr_assert_eq(out[i], sum, "element %zu after the failed allocation", i);
    }
}

Test(device_limits,
     a_host_array_over_the_largest_buffer_should_give_size_and_leave_the_context_usable)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &d));
    if (d.max_alloc_bytes >= SIZE_MAX / 2)
        cr_skip_test("the device's largest buffer is beyond this host's address space");
    size_t n = (size_t)(d.max_alloc_bytes / 4) + 1; /* one uint32 too many */
    uint32_t *big = skt_map_zeros(n * 4);

    uint32_t total = 0xA5A5A5A5u;
    SKT_EXPECT_STATUS(sk_reduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, big, &total, n),
                      SK_E_SIZE);
    cr_assert_eq(total, 0xA5A5A5A5u, "the failed reduce wrote its result");
    expect_refused_over_the_limit("sk_reduce_host");

    SKT_EXPECT_STATUS(sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, big, big, n),
                      SK_E_SIZE);
    expect_refused_over_the_limit("sk_scan_inclusive_host");
    cr_assert(big[0] == 0 && big[n / 2] == 0 && big[n - 1] == 0,
              "the failed scan wrote to its output");
    skt_unmap(big, n * 4);

    expect_context_computes();
}
