/*
 * test_cli_segscan_poly.c - the segscan and polyeval programs end to end.
 *
 * Each test runs in a fresh temporary directory (the current directory while
 * it runs), starts a built program with posix_spawn, captures stdout and
 * stderr into files beside that directory, and checks the outputs against
 * the serial references (tests/ref/ref_segscan.c; for polynomials, data
 * whose values are exact in any evaluation order). Children get
 * SCANKIT_CACHE_DIR pointing into the build tree, so kernels compile once.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ref/ref_segscan.h"
#include "skt_cli.h"
#include "skt_common.h"

#ifndef SKT_APP_DIR
#error "SKT_APP_DIR must name the directory of the built programs"
#endif

extern char **environ;

/* ---- per-test directories ---------------------------------------------------------- */

static void setup(void)
{
    skt_setup();
    skt_cli_dirs_open("skt-segpoly");
    skt_cli_require_any_device();
}

static void teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(segscan_cli, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(polyeval_cli, .init = setup, .fini = teardown, .timeout = 120);

/* ---- running a program ---------------------------------------------------------------------- */

typedef skt_cli_result run_result;

#define SEGSCAN(...) skt_cli_run("segscan", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})
#define POLYEVAL(...) skt_cli_run("polyeval", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})

static void expect_ok(const run_result *r)
{
    cr_assert_eq(r->code, 0, "exit %d, stderr: %s", r->code, r->err);
}

static void expect_failure(const run_result *r, const char *tool, int code, const char *needle)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s:", tool);
    skt_cli_expect_failure(r, prefix, code, needle);
}

/* ---- segscan ------------------------------------------------------------------------------- */

#define N 4099

static void random_u32(uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) v[i] = (uint32_t)skt_rand();
}

static void random_heads(unsigned char *flags, size_t n, size_t avg)
{
    for (size_t i = 0; i < n; i++) flags[i] = skt_rand_below(avg) == 0 ? (unsigned char)(1 + skt_rand_below(255)) : 0;
}

Test(segscan_cli, flags_give_the_segmented_sum_beside_a_raw_input)
{
    uint32_t data[N], want[N];
    unsigned char flags[N], heads[N];
    random_u32(data, N);
    random_heads(flags, N, 40);
    skt_cli_write_file("data.bin", data, sizeof data);
    skt_cli_write_file("heads.bin", flags, sizeof flags);
    skt_ref_heads_from_flags(flags, 1, N, heads);
    skt_ref_segscan(SK_UINT32, SK_OP_ADD, 0, data, want, heads, N);
    run_result r = SEGSCAN("data.bin", "--flags", "heads.bin");
    expect_ok(&r);
    skt_cli_expect_file("data.segscan.bin", 0, want, sizeof want);
    skt_cli_free(&r);
}

Test(segscan_cli, npy_offsets_give_an_exclusive_max_scan_of_int64)
{
    int64_t data[N], want[N];
    uint64_t off[N + 4];
    unsigned char heads[N];
    size_t count = 0;
    for (size_t i = 0; i < N; i++) data[i] = (int64_t)skt_rand();
    off[count++] = 0;
    off[count++] = 0; /* an empty segment */
    for (size_t i = 1; i < N; i++)
        if (skt_rand_below(30) == 0) off[count++] = i;
    off[count++] = N;
    skt_cli_write_npy("d.npy", "<i8", data, N, 8);
    skt_cli_write_npy("o.npy", "<u8", off, count, 8);
    skt_ref_heads_from_offsets(off, SK_UINT64, count, N, heads);
    skt_ref_segscan(SK_INT64, SK_OP_MAX, 1, data, want, heads, N);
    run_result r = SEGSCAN("d.npy", "--offsets", "o.npy", "--op", "max", "--exclusive");
    expect_ok(&r);
    skt_cli_expect_file("d.segscan.npy", 1, want, sizeof want);
    skt_cli_free(&r);
}

Test(segscan_cli, reduce_writes_one_total_per_segment)
{
    uint32_t data[N], want[N + 8], off[N + 8];
    unsigned char flags[N], heads[N];
    random_u32(data, N);
    random_heads(flags, N, 100);
    skt_cli_write_file("data.bin", data, sizeof data);
    skt_cli_write_npy("f.npy", "|u1", flags, N, 1);
    skt_ref_heads_from_flags(flags, 1, N, heads);
    size_t k = skt_ref_segreduce_heads(SK_UINT32, SK_OP_XOR, data, heads, N, want);
    run_result r = SEGSCAN("data.bin", "--flags", "f.npy", "--reduce", "--op", "xor");
    expect_ok(&r);
    skt_cli_expect_file("data.segreduce.bin", 0, want, k * 4);
    skt_cli_free(&r);

    /* raw uint32 offsets with empty segments: one total each, identity for empties */
    size_t count = 0;
    for (size_t i = 0; i < N; i += 1 + skt_rand_below(500)) {
        off[count++] = (uint32_t)i;
        if (skt_rand_below(3) == 0) off[count++] = (uint32_t)i;
    }
    off[count++] = N;
    skt_cli_write_file("off.bin", off, count * 4);
    skt_ref_segreduce_offsets(SK_UINT32, SK_OP_ADD, data, N, off, SK_UINT32, count, want);
    r = SEGSCAN("data.bin", "--offsets", "off.bin", "--reduce", "-o", "tot.bin");
    expect_ok(&r);
    skt_cli_expect_file("tot.bin", 0, want, count * 4);
    skt_cli_free(&r);
}

Test(segscan_cli, raw_uint64_offsets_and_stdin_to_stdout)
{
    float data[6] = {1, 2, 3, 4, 5, 6}, want[6] = {1, 3, 3, 4, 9, 15};
    uint64_t off[3] = {0, 2, 3};
    skt_cli_write_file("d.bin", data, sizeof data);
    skt_cli_write_file("o.bin", off, sizeof off);
    run_result r = skt_cli_run("segscan", "d.bin", NULL,
                            (const char *const[]){"-", "--type", "float32", "--offsets", "o.bin",
                                                  "--offsets-type", "uint64", NULL});
    expect_ok(&r);
    cr_assert_eq(r.out_len, sizeof want);
    cr_assert_eq(memcmp(r.out, want, sizeof want), 0);
    skt_cli_free(&r);
    skt_cli_write_file("empty.bin", "", 0);
    r = SEGSCAN("empty.bin", "--flags", "empty.bin", "-o", "e.out");
    expect_ok(&r);
    skt_cli_expect_file("e.out", 0, "", 0);
    skt_cli_free(&r);
}

Test(segscan_cli, bad_segment_files_fail_with_one_line_and_leave_no_output)
{
    uint32_t data[8] = {0};
    unsigned char flags[7] = {1};
    skt_cli_write_file("d.bin", data, sizeof data);
    skt_cli_write_file("f.bin", flags, sizeof flags);
    static const struct { uint32_t off[3]; const char *needle; } bad[] = {
        {{0, 5, 3}, "not sorted"}, {{1, 3, 5}, "offsets[0]"}, {{0, 3, 9}, "above"}};
    run_result r = SEGSCAN("d.bin", "--flags", "f.bin");
    expect_failure(&r, "segscan", 1, "7 flags for 8 elements");
    cr_assert_eq(skt_cli_last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
    cr_assert_eq(skt_cli_entries(), 2, "an output was left behind");
    skt_cli_free(&r);
    for (size_t b = 0; b < 3; b++) {
        skt_cli_write_file("o.bin", bad[b].off, sizeof bad[b].off);
        r = SEGSCAN("d.bin", "--offsets", "o.bin", "-o", "out.bin");
        expect_failure(&r, "segscan", 1, bad[b].needle);
        cr_assert_eq(skt_cli_last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
        cr_assert_eq(skt_cli_entries(), 3, "an output was left behind");
        skt_cli_free(&r);
    }
    int64_t flags64[8] = {0}; /* 8 int64 flags: the right count, a wrong type */
    skt_cli_write_npy("f.npy", "<i8", flags64, 8, sizeof flags64[0]);
    r = SEGSCAN("d.bin", "--flags", "f.npy");
    expect_failure(&r, "segscan", 1, "flags must be uint8 or uint32");
    skt_cli_free(&r);
    skt_cli_write_file("odd.bin", data, 6);
    r = SEGSCAN("d.bin", "--offsets", "odd.bin");
    expect_failure(&r, "segscan", 1, "odd.bin");
    skt_cli_free(&r);
    cr_assert_eq(skt_cli_entries(), 5, "an output was left behind");
}

Test(segscan_cli, usage_errors_exit_2)
{
    skt_cli_write_file("d.bin", "\0\0\0\0", 4);
    static const char *const cases[][8] = {
        {"d.bin", NULL},
        {"d.bin", "--flags", "d.bin", "--offsets", "d.bin", NULL},
        {"d.bin", "--flags", "d.bin", "--offsets-type", "uint64", NULL},
        {"d.bin", "--offsets", "d.bin", "--offsets-type", "int16", NULL},
        {"d.bin", "--flags", "d.bin", "--op", "pow", NULL},
        {"d.bin", "--flags", "d.bin", "--exclusive", "--reduce", NULL},
        {"--flags", "d.bin", NULL},
        {"d.bin", "--flags", "d.bin", "--type", "float32", "--op", "xor", NULL}};
    static const char *const needles[] = {"exactly one", "exactly one", "--offsets-type",
                                          "int16", "pow", "--reduce", "missing INPUT", "xor"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run_result r = skt_cli_run("segscan", NULL, NULL, cases[c]);
        expect_failure(&r, "segscan", 2, needles[c]);
        skt_cli_free(&r);
    }
    run_result r = SEGSCAN("--help");
    expect_ok(&r);
    cr_assert_not_null(strstr(r.out, "--offsets"));
    skt_cli_free(&r);
    r = SEGSCAN("--version");
    expect_ok(&r);
    cr_assert_not_null(strstr(r.out, sk_version_string()));
    skt_cli_free(&r);
}

/* ---- polyeval ---------------------------------------------------------------------------- */

/* Small integer coefficients and dyadic points: every value below is exact
 * in float64 (and in float32 for the float32 cases), in any order. */
static double horner(const double *a, size_t n, double x)
{
    double r = 0;
    for (size_t i = n; i-- > 0;) r = r * x + a[i];
    return r;
}

static void int_coeffs(double *a, size_t n)
{
    for (size_t i = 0; i < n; i++) a[i] = (double)((int)skt_rand_below(17) - 8);
}

/* The values printed one per line. */
static void expect_printed(const run_result *r, const double *want, size_t n)
{
    expect_ok(r);
    const char *p = r->out;
    for (size_t k = 0; k < n; k++) {
        char *end = NULL;
        double v = strtod(p, &end);
        cr_assert(end != p && *end == '\n', "line %zu is not a number: %s", k, r->out);
        cr_assert_eq(v, want[k], "value %zu: printed %.17g, expected %.17g", k, v, want[k]);
        p = end + 1;
    }
    cr_assert_eq(*p, 0, "more lines than values: %s", r->out);
}

Test(polyeval_cli, x_values_are_printed_one_per_line)
{
    double a[21];
    int_coeffs(a, 21);
    skt_cli_write_npy("c.npy", "<f8", a, 21, 8);
    double want[4] = {horner(a, 21, 0.5), horner(a, 21, -2), horner(a, 21, 1.5), a[0]};
    run_result r = POLYEVAL("c.npy", "--x", "0.5,-2,1.5,0");
    expect_printed(&r, want, 4);
    skt_cli_free(&r);
    r = POLYEVAL("c.npy", "--x", "-2");
    expect_printed(&r, want + 1, 1);
    skt_cli_free(&r);
    float f[6] = {1, -3, 3, -1, 0.5f, 2};
    skt_cli_write_file("c32.bin", f, sizeof f);
    double fa[6] = {1, -3, 3, -1, 0.5, 2}, fw[2] = {horner(fa, 6, 0.5), horner(fa, 6, -1)};
    r = POLYEVAL("c32.bin", "--x", "0.5,-1");
    expect_printed(&r, fw, 2);
    skt_cli_free(&r);
    r = POLYEVAL("c32.bin", "--x", "0.25", "-o", "v.npy");
    expect_ok(&r);
    float one = (float)horner(fa, 6, 0.25);
    skt_cli_expect_file("v.npy", 1, &one, 4);
    skt_cli_free(&r);
}

Test(polyeval_cli, points_files_give_values_files)
{
    enum { NP = 3000 };
    double a[9], x[NP], want[NP];
    int_coeffs(a, 9);
    for (size_t k = 0; k < NP; k++) {
        x[k] = (double)((int)skt_rand_below(33) - 16) / 8.0; /* 3 fraction bits, |x| <= 2 */
        want[k] = horner(a, 9, x[k]);
    }
    skt_cli_write_file("c.bin", a, sizeof a);
    skt_cli_write_npy("x.npy", "<f8", x, NP, 8);
    run_result r = POLYEVAL("c.bin", "--type", "float64", "--points", "x.npy", "-o", "y.npy");
    expect_ok(&r);
    skt_cli_expect_file("y.npy", 1, want, sizeof want);
    skt_cli_free(&r);
    skt_cli_write_file("x.bin", x, sizeof x);
    r = POLYEVAL("c.bin", "-t", "f64", "--points", "x.bin", "-o", "y.bin");
    expect_ok(&r);
    skt_cli_expect_file("y.bin", 0, want, sizeof want);
    skt_cli_free(&r);
    r = POLYEVAL("c.bin", "-t", "f64", "--points", "x.bin");
    expect_printed(&r, want, NP);
    skt_cli_free(&r);
    r = POLYEVAL("c.bin", "-t", "f64", "--points", "x.bin", "-o", "-");
    expect_ok(&r);
    cr_assert_eq(r.out_len, sizeof want);
    cr_assert_eq(memcmp(r.out, want, sizeof want), 0);
    skt_cli_free(&r);
}

Test(polyeval_cli, empty_coefficients_give_zero)
{
    skt_cli_write_file("c.bin", "", 0);
    double zero[2] = {0, 0};
    run_result r = POLYEVAL("c.bin", "--x", "3,4");
    expect_printed(&r, zero, 2);
    skt_cli_free(&r);
}

Test(polyeval_cli, bad_inputs_exit_1_and_usage_errors_exit_2)
{
    int32_t ints[4] = {1, 2, 3, 4};
    double a[3] = {1, 2, 3};
    float xs[2] = {1, 2};
    skt_cli_write_npy("i.npy", "<i4", ints, 4, 4);
    skt_cli_write_npy("c.npy", "<f8", a, 3, 8);
    skt_cli_write_npy("x32.npy", "<f4", xs, 2, 4);
    skt_cli_write_file("odd.bin", a, 6);
    run_result r = POLYEVAL("i.npy", "--x", "1");
    expect_failure(&r, "polyeval", 1, "int32");
    skt_cli_free(&r);
    r = POLYEVAL("c.npy", "--points", "x32.npy", "-o", "y.npy");
    expect_failure(&r, "polyeval", 1, "x32.npy");
    cr_assert_eq(skt_cli_last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
    skt_cli_free(&r);
    r = POLYEVAL("odd.bin", "--x", "1");
    expect_failure(&r, "polyeval", 1, "odd.bin");
    skt_cli_free(&r);
    r = POLYEVAL("missing.bin", "--x", "1");
    expect_failure(&r, "polyeval", 1, "missing.bin");
    skt_cli_free(&r);
    cr_assert_eq(skt_cli_entries(), 4, "an output was left behind");
    static const char *const cases[][6] = {
        {"c.npy", NULL}, {"c.npy", "--x", "1", "--points", "x32.npy", NULL},
        {"c.npy", "--x", "1,,2", NULL}, {"c.npy", "--x", "abc", NULL},
        {"c.npy", "--x", "1", "--type", "int32", NULL}, {"--x", "1", NULL}};
    static const char *const needles[] = {"exactly one", "exactly one", "--x", "abc",
                                          "int32", "missing COEFFS"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        r = skt_cli_run("polyeval", NULL, NULL, cases[c]);
        expect_failure(&r, "polyeval", 2, needles[c]);
        skt_cli_free(&r);
    }
    r = POLYEVAL("--help");
    expect_ok(&r);
    cr_assert_not_null(strstr(r.out, "--points"));
    skt_cli_free(&r);
}

/* The help promises decimal numbers: hex, infinities, NaNs and white space
 * are usage errors, whatever strtod() would make of them. */
Test(polyeval_cli, x_values_are_decimal_numbers_only)
{
    double a[3] = {1, 2, 3};
    skt_cli_write_npy("c.npy", "<f8", a, 3, 8);
    static const char *const refused[] = {"0x10", "0X1p4", "inf", "-Infinity", "nan",
                                          " 1",   "1e",    ".",   "1e999"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "bad --x value '%s'", refused[i]);
        run_result r = POLYEVAL("c.npy", "--x", refused[i]);
        expect_failure(&r, "polyeval", 2, needle);
        skt_cli_free(&r);
    }
    cr_assert_eq(skt_cli_entries(), 1, "an output was left behind");
    double want[4] = {horner(a, 3, 16), horner(a, 3, 0.5), horner(a, 3, -2000), horner(a, 3, 5)};
    run_result r = POLYEVAL("c.npy", "--x", "16,.5,-2e3,+5.");
    expect_printed(&r, want, 4);
    skt_cli_free(&r);
}
