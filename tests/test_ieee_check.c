/*
 * test_ieee_check.c - the check behind `scan --check` (apps/scan_check.c):
 * device scans of every float type and op pass it and one corrupted
 * element fails it with one line naming the element; signed zeros and the
 * NaNs of sums are pinned; after a product or a sum that may leave the
 * range anything passes, before it the rounding bound holds; and
 * `scan --op mul --check` of 1,000,003 sorted float32, whose products
 * overflow in some associations and not in others, passes. (The float
 * semantics of the primitives: test_ieee.c.)
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/reference.h"
#include "scan_check.h"
#include "skt_cli.h"
#include "skt_common.h"
#include "skt_ieee.h"

TestSuite(ieee_check, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* The device scan of n elements of src into out (default tiles and path). */
static void device_scan(sk_type t, sk_op op, int excl, const void *src, void *out, size_t n)
{
    SKT_OK(excl ? sk_scan_exclusive_host(skt_ctx, t, op, src, out, n)
                : sk_scan_inclusive_host(skt_ctx, t, op, src, out, n));
}

static int check(sk_type t, sk_op op, int excl, const void *in, const void *out, size_t n,
                 ak_err *e)
{
    memset(e->msg, 0, sizeof e->msg);
    return scan_check((ak_dtype)t, op, excl, in, out, n, e);
}

static void expect_check_ok(sk_type t, sk_op op, int excl, const void *in, const void *out,
                            size_t n, const char *what)
{
    ak_err e;
    cr_assert_eq(check(t, op, excl, in, out, n, &e), 0, "%s: the check failed: %s [seed %llu]",
                 what, e.msg, (unsigned long long)skt_seed());
}

static void expect_check_fails(sk_type t, sk_op op, int excl, const void *in, const void *out,
                               size_t n, size_t at, const char *what)
{
    ak_err e;
    cr_assert_eq(check(t, op, excl, in, out, n, &e), -1,
                 "%s: a corrupted element %zu passed the check [seed %llu]", what, at,
                 (unsigned long long)skt_seed());
    char want[64];
    snprintf(want, sizeof want, "element %zu:", at);
    cr_assert(strstr(e.msg, want) && !strchr(e.msg, '\n'),
              "%s: expected one line naming %s, got \"%s\"", what, want, e.msg);
}

/* Random data for op: noisy sums, products of 2^[-1/2, 1/2) (the
 * exponent walks a few dozen at most: no run leaves the range), min/max
 * walks with NaNs. */
static void check_data(sk_type t, sk_op op, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double u = skt_rand_unit();
        skt_ref_set_real(t, dst, i, op == SK_OP_ADD ? 2 * u - 1 : exp2(u - 0.5));
    }
    if (op == SK_OP_MIN || op == SK_OP_MAX) skt_ieee_walk(t, dst, n, 20);
}

/* Changes element `at` of out into something the rule does not allow:
 * beyond the rounding bound for add and mul, another bit pattern for min
 * and max (the lowest bit: another NaN payload, a neighbour, or a NaN for
 * an infinity). */
static void corrupt(sk_type t, sk_op op, void *out, size_t at)
{
    double v = skt_ref_real_at(t, out, at);
    if (op == SK_OP_ADD) skt_ref_set_real(t, out, at, v + 1.0);
    else if (op == SK_OP_MUL) skt_ref_set_real(t, out, at, v * (1.0 + 0x1p-10));
    else skt_ieee_put_bits(t, out, at, skt_ieee_bits(t, out, at) ^ 1u);
}

Test(ieee_check, should_accept_device_scans_and_reject_one_corrupted_element)
{
    enum { N = 3001 };
    unsigned char *in = skt_malloc(N * 8), *out = skt_malloc(N * 8);
    for (int t = SK_FLOAT32; t <= SK_FLOAT64; t++) {
        if (t == SK_FLOAT64 && !skt_has_fp64()) continue;
        for (int op = SK_OP_ADD; op <= SK_OP_MAX; op++) {
            for (int excl = 0; excl < 2; excl++) {
                const char *what = skt_fmt("%s %s %s", sk_type_name(t), sk_op_name(op),
                                           excl ? "exclusive" : "inclusive");
                check_data((sk_type)t, (sk_op)op, in, N);
                device_scan((sk_type)t, (sk_op)op, excl, in, out, N);
                expect_check_ok((sk_type)t, (sk_op)op, excl, in, out, N, what);
                size_t at = 1 + skt_rand_below(N - 1);
                corrupt((sk_type)t, (sk_op)op, out, at);
                expect_check_fails((sk_type)t, (sk_op)op, excl, in, out, N, at, what);
            }
        }
    }
    free(in);
    free(out);
}

/* Signed zeros and the NaNs of add are pinned: -0.0 only where every
 * term is -0.0, NaN once +inf and -inf (or a NaN) are in the prefix. */
Test(ieee_check, should_pin_signed_zeros_and_nans_of_sums)
{
    float in[6] = {-0.0f, -0.0f, 0.0f, INFINITY, -INFINITY, 1.0f};
    float out[6];
    device_scan(SK_FLOAT32, SK_OP_ADD, 0, in, out, 6);
    expect_check_ok(SK_FLOAT32, SK_OP_ADD, 0, in, out, 6, "signed zeros, inf - inf");
    cr_assert(signbit(out[1]) && out[1] == 0 && !signbit(out[2]) && isnan(out[5]),
              "scan of -0, -0, +0, inf, -inf, 1 gave %g %g %g ... %g", (double)out[0],
              (double)out[1], (double)out[2], (double)out[5]);
    float bad[6];
    memcpy(bad, out, sizeof bad);
    bad[1] = 0.0f;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, bad, 6, 1, "+0.0 for -0.0 + -0.0");
    memcpy(bad, out, sizeof bad);
    bad[2] = -0.0f;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, bad, 6, 2, "-0.0 for -0.0 + +0.0");
    memcpy(bad, out, sizeof bad);
    bad[4] = INFINITY;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, bad, 6, 4, "inf for inf - inf");
}

/* Products: where the prefix holds a run whose product leaves the normal
 * range anything passes; before it the relative bound holds. */
Test(ieee_check, should_accept_anything_only_after_a_product_leaves_the_range)
{
    enum { N = 64 };
    float in[N], out[N];
    for (size_t i = 0; i < N; i++) in[i] = i < 10 ? 1.5f : 0x1p40f; /* 1.5^10, then 2^40 runs */
    device_scan(SK_FLOAT32, SK_OP_MUL, 0, in, out, N);
    expect_check_ok(SK_FLOAT32, SK_OP_MUL, 0, in, out, N, "2^40 run");
    unsigned char marks[N];
    skt_ref_mul_hazards(SK_FLOAT32, in, NULL, N, marks);
    cr_assert(!marks[11] && marks[N - 1], "the run should leave the range between 12 and 64");
    float bad[N];
    memcpy(bad, out, sizeof bad);
    bad[5] *= 1.001f;
    expect_check_fails(SK_FLOAT32, SK_OP_MUL, 0, in, bad, N, 5, "product before the overflow");
    memcpy(bad, out, sizeof bad);
    bad[N - 1] = 42.0f;
    expect_check_ok(SK_FLOAT32, SK_OP_MUL, 0, in, bad, N, "anything after the overflow");
}

/* A sum that may overflow in some association passes whatever it gives. */
Test(ieee_check, should_accept_anything_once_a_sum_may_overflow)
{
    float in[4] = {1.0f, FLT_MAX / 2, FLT_MAX, -FLT_MAX};
    float out[4] = {1.0f, FLT_MAX / 2, INFINITY, 7.0f};
    expect_check_ok(SK_FLOAT32, SK_OP_ADD, 0, in, out, 4, "overflowing sum");
    out[1] = 0.0f;
    expect_check_fails(SK_FLOAT32, SK_OP_ADD, 0, in, out, 4, 1, "before the overflow");
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* 1,000,003 sorted float32 (no zeros, no NaNs): their products overflow to
 * inf serially and to NaN (inf * 0) in other associations. */
Test(ieee_check, scan_mul_check_of_a_million_sorted_float32_should_pass)
{
    enum { N = 1000003 };
    skt_cli_require_any_device();
    float *in = skt_malloc(N * sizeof *in);
    for (size_t i = 0; i < N; i++) {
        float v = (float)(skt_rand_unit() * 2e4 - 1e4);
        in[i] = v == 0 ? 1.0f : v;
    }
    qsort(in, N, sizeof *in, cmp_float);
    skt_cli_dirs_open("skt-ieee");
    skt_cli_write_npy("sorted.npy", "<f4", in, N, 4);
    const char *args[] = {"sorted.npy", "--op", "mul", "--check", "-o", "out.npy", NULL};
    skt_cli_result r = skt_cli_run("scan", NULL, NULL, args);
    skt_cli_expect_success(&r, "scan sorted.npy --op mul --check");
    cr_assert(strstr(r.err, "check: ok"), "no \"check: ok\" on stderr: %s", r.err);
    skt_cli_free(&r);
    skt_cli_dirs_close();
    free(in);
}

