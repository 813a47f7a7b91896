/*
 * test_cli_scan.c - end-to-end tests of the scan program: datagen -> scan
 * round trips of every type through raw and .npy files, checked against a
 * plain serial scan written here (exactly for integers, within the
 * rounding bound for floats, bit for bit where every partial result is
 * exact), and the running total across device passes (files, streams and
 * failures: test_cli_scan_files.c; datagen: test_cli_datagen.c).
 *
 * Each test runs in a fresh temporary directory (its "work" subdirectory is
 * the current directory), starts the built programs with posix_spawn, and
 * captures their stdout and stderr into files beside "work", so that the
 * listing of "work" shows exactly what the programs left behind. Children
 * get SCANKIT_CACHE_DIR pointing into the build tree (shared by all tests,
 * so kernels compile once) unless a test gives its own.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scankit.h"
#include "ref/reference.h"
#include "skt_cli.h"

TestSuite(scan_cli, .init = skt_cli_setup, .fini = skt_cli_dirs_close, .timeout = 120);

#define SCAN(...) skt_cli_runl(NULL, "scan", __VA_ARGS__, (const char *)NULL)


/* ------------------------------------------------------------------------ */
/* Serial reference scan                                                     */
/* ------------------------------------------------------------------------ */


static uint64_t width_mask(const skt_cli_type *t)
{
    return t->size == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * t->size)) - 1);
}

/* The value of the bits as a signed number of the type's width. */
static int int_less(const skt_cli_type *t, uint64_t a, uint64_t b)
{
    return t->is_signed ? skt_cli_as_signed(t, a) < skt_cli_as_signed(t, b) : a < b;
}

static uint64_t int_identity(const skt_cli_type *t, const char *op)
{
    uint64_t mask = width_mask(t);
    uint64_t sign = (uint64_t)1 << (8 * t->size - 1);
    if (strcmp(op, "mul") == 0)
        return 1;
    if (strcmp(op, "and") == 0)
        return mask;
    if (strcmp(op, "min") == 0)
        return t->is_signed ? sign - 1 : mask;
    if (strcmp(op, "max") == 0)
        return t->is_signed ? sign : 0;
    return 0; /* add, or, xor */
}

/* Wrapping arithmetic on the unsigned bits: no signed overflow. */
static uint64_t int_combine(const skt_cli_type *t, const char *op, uint64_t a, uint64_t b)
{
    uint64_t mask = width_mask(t);
    if (strcmp(op, "add") == 0)
        return (a + b) & mask;
    if (strcmp(op, "mul") == 0)
        return (a * b) & mask;
    if (strcmp(op, "min") == 0)
        return int_less(t, b, a) ? b : a;
    if (strcmp(op, "max") == 0)
        return int_less(t, a, b) ? b : a;
    if (strcmp(op, "and") == 0)
        return a & b;
    if (strcmp(op, "or") == 0)
        return a | b;
    return a ^ b;
}

static void check_int_scan(const skt_cli_type *t, const char *op, int exclusive,
                           const unsigned char *in, const unsigned char *out, size_t n)
{
    uint64_t acc = int_identity(t, op);
    for (size_t i = 0; i < n; i++) {
        uint64_t next = int_combine(t, op, acc, skt_cli_load_bits(in + i * t->size, t->size));
        uint64_t want = exclusive ? acc : next;
        uint64_t got = skt_cli_load_bits(out + i * t->size, t->size);
        if (got != want)
            cr_assert_fail("%s %s %s scan: element %zu of %zu is 0x%llx, expected 0x%llx",
                           exclusive ? "exclusive" : "inclusive", t->name, op, i, n,
                           (unsigned long long)got, (unsigned long long)want);
        acc = next;
    }
}

/* gamma_k = k u / (1 - k u): the bound on the relative error of k rounded
 * additions or multiplications in any order (Higham, ASNA 2nd ed., 3.1). */
static long double gamma_k(const skt_cli_type *t, size_t k)
{
    long double u = t->size == 4 ? FLT_EPSILON / 2.0L : DBL_EPSILON / 2.0L;
    return (long double)k * u / (1.0L - (long double)k * u);
}

/* min and max: bit for bit the serial fold of the library's semantics
 * (scankit.h, "Float semantics"), through the tests' reference. */
static void check_float_minmax(const skt_cli_type *t, const char *op, int exclusive,
                               const unsigned char *in, const unsigned char *out, size_t n)
{
    sk_type type = t->size == 4 ? SK_FLOAT32 : SK_FLOAT64;
    unsigned char *want = malloc(n * t->size + 1);
    cr_assert_not_null(want);
    skt_ref_scan(type, strcmp(op, "min") == 0 ? SK_OP_MIN : SK_OP_MAX, exclusive, in, want, n);
    for (size_t i = 0; i < n; i++)
        if (memcmp(out + i * t->size, want + i * t->size, t->size) != 0)
            cr_assert_fail("%s %s %s scan: element %zu of %zu is %.17Lg, expected %.17Lg",
                           exclusive ? "exclusive" : "inclusive", t->name, op, i, n,
                           skt_cli_load_float(t, out + i * t->size), skt_cli_load_float(t, want + i * t->size));
    free(want);
}

/* add and mul within gamma_k of the exact result, where k is the number of
 * operations in the prefix (any association order). The long double
 * reference adds at most k * LDBL_EPSILON relative error. With `exact`
 * (inputs whose every partial result is representable) the bound is zero.
 * (add's identity is -0.0, as the library's.) */
static void check_float_scan(const skt_cli_type *t, const char *op, int exclusive, int exact,
                             const unsigned char *in, const unsigned char *out, size_t n)
{
    int is_add = strcmp(op, "add") == 0, is_mul = strcmp(op, "mul") == 0;
    if (!is_add && !is_mul) {
        check_float_minmax(t, op, exclusive, in, out, n);
        return;
    }
    long double acc = is_add ? -0.0L : 1.0L;
    long double magnitude = is_add ? 0.0L : 1.0L; /* sum |x| or |product| */
    for (size_t i = 0; i < n; i++) {
        long double x = skt_cli_load_float(t, in + i * t->size);
        long double next = is_add ? acc + x : acc * x;
        long double next_mag = is_add ? magnitude + fabsl(x) : is_mul ? magnitude * fabsl(x)
                                                                      : 0.0L;
        size_t terms = exclusive ? i : i + 1;
        long double want = exclusive ? acc : next;
        long double mag = exclusive ? magnitude : next_mag;
        size_t ops = terms > 0 ? terms - 1 : 0;
        long double bound =
            exact ? 0.0L : (gamma_k(t, ops) + (long double)ops * LDBL_EPSILON) * mag;
        long double got = skt_cli_load_float(t, out + i * t->size);
        if (got != want && !(fabsl(got - want) <= bound))
            cr_assert_fail("%s %s %s scan: element %zu of %zu is %.17Lg, expected %.17Lg "
                           "within %.3Lg",
                           exclusive ? "exclusive" : "inclusive", t->name, op, i, n, got,
                           want, bound);
        acc = next;
        magnitude = next_mag;
    }
}

static void check_scan(const skt_cli_type *t, const char *op, int exclusive,
                       const unsigned char *in, const unsigned char *out, size_t n)
{
    if (t->is_float)
        check_float_scan(t, op, exclusive, 0, in, out, n);
    else
        check_int_scan(t, op, exclusive, in, out, n);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */
/* ------------------------------------------------------------------------ */

typedef struct scan_case {
    const skt_cli_type *type;
    const char *op;
    int exclusive;
    int npy;
    const char *count;
    const char *dist;  /* datagen --dist */
    const char *range; /* datagen --range or NULL */
    const char *chunk; /* scan --chunk or NULL */
} scan_case;

/* datagen -> scan -> compare with the serial reference. */
static void round_trip(const scan_case *c, unsigned seed)
{
    char in[64], out[64], seed_text[32];
    snprintf(in, sizeof in, "in-%u.%s", seed, c->npy ? "npy" : "bin");
    snprintf(out, sizeof out, "out-%u.%s", seed, c->npy ? "npy" : "bin");
    snprintf(seed_text, sizeof seed_text, "%u", seed);
    const char *gen[] = {"-n", c->count, "--type", c->type->name, "--dist", c->dist,
                         "--seed", seed_text, "-o", in, c->range ? "--range" : NULL,
                         c->range, NULL};
    skt_cli_result g = skt_cli_run("datagen", NULL, NULL, gen);
    skt_cli_expect_success(&g, "datagen");
    skt_cli_free(&g);
    /* raw files need --type; .npy files carry it */
    const char *scan[12] = {in, "-o", out, "--op", c->op};
    size_t k = 5;
    if (c->exclusive)
        scan[k++] = "--exclusive";
    if (!c->npy) {
        scan[k++] = "--type";
        scan[k++] = c->type->name;
    }
    if (c->chunk) {
        scan[k++] = "--chunk";
        scan[k++] = c->chunk;
    }
    scan[k] = NULL;
    skt_cli_result s = skt_cli_run("scan", NULL, NULL, scan);
    skt_cli_expect_success(&s, "scan");
    skt_cli_free(&s);
    unsigned char *in_base, *out_base;
    size_t n_in, n_out;
    unsigned char *x = skt_cli_load_elements(in, c->npy, c->type, &n_in, &in_base);
    unsigned char *y = skt_cli_load_elements(out, c->npy, c->type, &n_out, &out_base);
    cr_assert_eq(n_out, n_in, "scan wrote %zu elements for %zu", n_out, n_in);
    check_scan(c->type, c->op, c->exclusive, x, y, n_in);
    free(in_base);
    free(out_base);
}

static void run_cases(const scan_case *cases, size_t count)
{
    skt_cli_require_any_device();
    for (size_t i = 0; i < count; i++)
        round_trip(&cases[i], 1000u + (unsigned)i);
}

Test(scan_cli, should_match_a_serial_scan_for_integer_types_through_raw_files)
{
    static const scan_case cases[] = {
        {SKT_CLI_U32, "add", 0, 0, "100003", "uniform", NULL, NULL},
        {SKT_CLI_U32, "xor", 1, 0, "1000", "uniform", NULL, NULL},
        {SKT_CLI_I32, "max", 0, 0, "1000", "uniform", NULL, NULL},
        {SKT_CLI_I32, "add", 1, 0, "1000", "uniform", NULL, NULL},
        {SKT_CLI_U64, "mul", 0, 0, "1000", "uniform", "1:7", NULL},
        {SKT_CLI_I64, "min", 1, 0, "1000", "uniform", NULL, NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_match_a_serial_scan_for_integer_types_through_npy_files)
{
    static const scan_case cases[] = {
        {SKT_CLI_U32, "min", 1, 1, "1000", "uniform", NULL, NULL},
        {SKT_CLI_I32, "mul", 0, 1, "1000", "uniform", "-3:-1", NULL},
        {SKT_CLI_U64, "add", 1, 1, "4099", "uniform", NULL, NULL},
        {SKT_CLI_U64, "and", 0, 1, "1000", "entropy:1", NULL, NULL},
        {SKT_CLI_I64, "or", 0, 1, "1000", "entropy:6", NULL, NULL},
        {SKT_CLI_I64, "max", 0, 1, "1000", "few-unique", NULL, NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_match_a_serial_scan_for_float_types_within_the_rounding_bound)
{
    static const scan_case cases[] = {
        {SKT_CLI_F32, "add", 0, 1, "1000", "uniform", NULL, NULL},
        {SKT_CLI_F32, "min", 1, 0, "1000", "uniform", "-100:100", NULL},
        {SKT_CLI_F32, "mul", 1, 1, "1000", "uniform", "0.5:1.5", NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_match_a_serial_scan_for_float64_where_the_device_has_fp64)
{
    skt_cli_require_any_device();
    if (!skt_cli_default_device_has_fp64())
        cr_skip_test("the default device has no fp64");
    static const scan_case cases[] = {
        {SKT_CLI_F64, "add", 1, 1, "3000", "uniform", "-1:1", NULL},
        {SKT_CLI_F64, "max", 0, 0, "1000", "uniform", NULL, NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Floats whose every partial sum (multiples of 1/4 below 2^15) or product
 * (powers of two with a bounded exponent, signs) is exact, so the result
 * must equal the serial one bit for bit in any association order. */
static void fill_exact_floats(const skt_cli_type *t, const char *op, unsigned char *buf, size_t n)
{
    static const double factors[4] = {2.0, 0.5, -1.0, 1.0};
    uint64_t state = 12345;
    int exponent = 0;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(state >> 60);
        double v = strcmp(op, "add") == 0 ? (double)r / 4.0 : factors[r & 3];
        if (v == 2.0 && exponent >= 60)
            v = 0.5;
        if (v == 0.5 && exponent <= -60)
            v = 2.0;
        exponent += v == 2.0 ? 1 : v == 0.5 ? -1 : 0;
        if (t->size == 4) {
            float f = (float)v;
            memcpy(buf + 4 * i, &f, 4);
        } else {
            memcpy(buf + 8 * i, &v, 8);
        }
    }
}

static void exact_float_case(const skt_cli_type *t, const char *op, int exclusive)
{
    enum { N = 5000 };
    static unsigned char in[N * 8];
    fill_exact_floats(t, op, in, N);
    char shape[32];
    snprintf(shape, sizeof shape, "(%d,)", N);
    skt_cli_write_npy_fields("exact.npy", t->descr, "False", shape, in, N * t->size);
    skt_cli_result r = exclusive ? SCAN("exact.npy", "-o", "out.npy", "--op", op, "-e")
                             : SCAN("exact.npy", "-o", "out.npy", "--op", op);
    skt_cli_expect_success(&r, "scan exact.npy");
    skt_cli_free(&r);
    size_t n;
    unsigned char *base;
    unsigned char *out = skt_cli_load_elements("out.npy", 1, t, &n, &base);
    cr_assert_eq(n, N);
    check_float_scan(t, op, exclusive, 1, in, out, n);
    free(base);
}

Test(scan_cli, should_match_a_serial_float_scan_exactly_when_partial_results_are_exact)
{
    skt_cli_require_any_device();
    exact_float_case(SKT_CLI_F32, "add", 0);
    exact_float_case(SKT_CLI_F32, "mul", 1);
    if (skt_cli_default_device_has_fp64()) {
        exact_float_case(SKT_CLI_F64, "add", 1);
        exact_float_case(SKT_CLI_F64, "mul", 0);
    }
}

Test(scan_cli, should_carry_the_running_total_across_device_passes)
{
    static const scan_case cases[] = {
        {SKT_CLI_U32, "add", 0, 0, "1000", "uniform", NULL, "2"},
        {SKT_CLI_U32, "add", 1, 0, "1000", "uniform", NULL, "7"},
        {SKT_CLI_I64, "max", 1, 1, "1000", "uniform", NULL, "64"},
        {SKT_CLI_I32, "xor", 0, 1, "1000", "uniform", NULL, "999"},
        {SKT_CLI_F32, "min", 1, 1, "1000", "uniform", NULL, "10"},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_write_an_empty_output_for_an_empty_input)
{
    skt_cli_require_any_device();
    skt_cli_write_file("empty.bin", "", 0);
    skt_cli_result r = SCAN("empty.bin");
    skt_cli_expect_success(&r, "scan empty.bin");
    size_t len;
    free(skt_cli_slurp("empty.scan.bin", &len));
    cr_assert_eq(len, 0);
    skt_cli_free(&r);
}

