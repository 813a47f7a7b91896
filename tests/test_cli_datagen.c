/*
 * test_cli_datagen.c - end-to-end tests of the datagen program: the same
 * file for the same seed, xoshiro256** seeded by splitmix64, raw and .npy,
 * stdout, every distribution, usage errors and a full device (scan:
 * test_cli_scan.c, test_cli_scan_files.c).
 *
 * Each test runs in a fresh temporary directory whose "work" subdirectory
 * is the current directory (tests/skt_cli.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk_rng.h"

#include "scankit.h"
#include "skt_cli.h"

TestSuite(datagen_cli, .init = skt_cli_setup, .fini = skt_cli_dirs_close, .timeout = 60);

#define DATAGEN(...) skt_cli_runl(NULL, "datagen", __VA_ARGS__, (const char *)NULL)

/* ------------------------------------------------------------------------ */
/* datagen                                                                   */
/* ------------------------------------------------------------------------ */

static unsigned char *generate(const char *path, const skt_cli_type *t, size_t *n,
                               unsigned char **base, const char *a1, const char *a2,
                               const char *a3, const char *a4)
{
    skt_cli_result r = skt_cli_runl(NULL, "datagen", "-o", path, "--type", t->name, a1, a2, a3, a4,
                            (const char *)NULL);
    skt_cli_expect_success(&r, "datagen");
    cr_assert_str_eq(r.err, "", "datagen should be quiet: %s", r.err);
    skt_cli_free(&r);
    size_t len = strlen(path);
    int npy = len > 4 && strcmp(path + len - 4, ".npy") == 0;
    return skt_cli_load_elements(path, npy, t, n, base);
}

Test(datagen_cli, should_write_the_same_file_for_the_same_seed)
{
    skt_cli_result a = DATAGEN("-n", "1000", "--seed", "7", "-o", "a.bin");
    skt_cli_result b = DATAGEN("-n", "1000", "--seed", "7", "-o", "b.bin");
    skt_cli_result c = DATAGEN("-n", "1000", "--seed", "8", "-o", "c.bin");
    skt_cli_expect_success(&a, "a");
    skt_cli_expect_success(&b, "b");
    skt_cli_expect_success(&c, "c");
    size_t la, lb, lc;
    unsigned char *fa = skt_cli_slurp("a.bin", &la), *fb = skt_cli_slurp("b.bin", &lb),
                  *fc = skt_cli_slurp("c.bin", &lc);
    cr_assert_eq(la, 4000);
    cr_assert(la == lb && memcmp(fa, fb, la) == 0, "same seed, different files");
    cr_assert(la == lc && memcmp(fa, fc, la) != 0, "different seeds, same file");
    free(fa);
    free(fb);
    free(fc);
    skt_cli_free(&a);
    skt_cli_free(&b);
    skt_cli_free(&c);
}

Test(datagen_cli, should_draw_uniform_uint64_straight_from_xoshiro256_seeded_by_splitmix64)
{
    uint64_t sm = 0;
    cr_assert_eq(sk_splitmix64_next(&sm), 0xe220a8397b1dcdafu, "splitmix64 known answer");
    /* the first outputs of xoshiro256** as published by Blackman and Vigna,
       its state filled by splitmix64 from 42 */
    static const uint64_t known[3] = {0x15780b2e0c2ec716u, 0x6104d9866d113a7eu,
                                      0xae17533239e499a1u};
    size_t n;
    unsigned char *base;
    unsigned char *data = generate("x.bin", SKT_CLI_U64, &n, &base, "-n", "16", "--seed", "42");
    sk_rng rng;
    sk_rng_seed(&rng, 42);
    for (size_t i = 0; i < n; i++) {
        uint64_t want = sk_rng_next(&rng);
        if (i < 3)
            cr_assert_eq(want, known[i], "xoshiro256** known answer %zu", i);
        cr_assert_eq(skt_cli_load_bits(data + 8 * i, 8), want, "element %zu", i);
    }
    free(base);
}

Test(datagen_cli, should_write_the_same_elements_as_raw_and_npy)
{
    size_t n_raw, n_npy;
    unsigned char *b1, *b2;
    unsigned char *raw = generate("x.bin", SKT_CLI_F64, &n_raw, &b1, "-n", "2K", "--seed", "3");
    unsigned char *npy = generate("x.npy", SKT_CLI_F64, &n_npy, &b2, "-n", "2K", "--seed", "3");
    cr_assert_eq(n_raw, 2048);
    cr_assert_eq(n_npy, 2048);
    cr_assert_eq(memcmp(raw, npy, 2048 * 8), 0);
    for (size_t i = 0; i < n_raw; i++) {
        double v;
        memcpy(&v, raw + 8 * i, 8);
        cr_assert(v >= 0.0 && v < 1.0, "float64 default range is [0, 1): %g", v);
    }
    free(b1);
    free(b2);
}

Test(datagen_cli, should_write_to_stdout_for_dash)
{
    skt_cli_result r = DATAGEN("-n", "100", "--seed", "5", "-o", "-");
    skt_cli_expect_success(&r, "datagen -o -");
    skt_cli_result f = DATAGEN("-n", "100", "--seed", "5", "-o", "f.bin");
    size_t len;
    unsigned char *file = skt_cli_slurp("f.bin", &len);
    cr_assert_eq(r.out_len, 400);
    cr_assert_eq(memcmp(r.out, file, 400), 0);
    free(file);
    skt_cli_free(&r);
    skt_cli_free(&f);
}

Test(datagen_cli, should_sort_ascending_and_descending)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("s.bin", SKT_CLI_I32, &n, &base, "-n", "5000", "--dist", "sorted");
    for (size_t i = 1; i < n; i++)
        cr_assert_leq(skt_cli_as_signed(SKT_CLI_I32, skt_cli_load_bits(d + 4 * (i - 1), 4)),
                      skt_cli_as_signed(SKT_CLI_I32, skt_cli_load_bits(d + 4 * i, 4)), "sorted at %zu", i);
    free(base);
    d = generate("r.npy", SKT_CLI_F32, &n, &base, "-n", "5000", "--dist", "reversed");
    for (size_t i = 1; i < n; i++)
        cr_assert_geq(skt_cli_load_float(SKT_CLI_F32, d + 4 * (i - 1)), skt_cli_load_float(SKT_CLI_F32, d + 4 * i),
                      "reversed at %zu", i);
    free(base);
}

Test(datagen_cli, should_keep_values_inside_the_range)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("i.bin", SKT_CLI_I64, &n, &base, "-n", "3000", "--range", "-5:5");
    int seen_lo = 0, seen_hi = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v = skt_cli_as_signed(SKT_CLI_I64, skt_cli_load_bits(d + 8 * i, 8));
        cr_assert(v >= -5 && v <= 5, "element %zu = %lld", i, (long long)v);
        seen_lo |= v == -5;
        seen_hi |= v == 5;
    }
    cr_assert(seen_lo && seen_hi, "both ends of an inclusive range should appear");
    free(base);
    d = generate("f.bin", SKT_CLI_F32, &n, &base, "-n", "3000", "--range", "2:3");
    for (size_t i = 0; i < n; i++) {
        long double v = skt_cli_load_float(SKT_CLI_F32, d + 4 * i);
        cr_assert(v >= 2.0L && v < 3.0L, "element %zu = %Lg", i, v);
    }
    free(base);
}

Test(datagen_cli, should_make_equal_and_few_unique_values)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("e.bin", SKT_CLI_U32, &n, &base, "-n", "1000", "--dist", "equal");
    for (size_t i = 1; i < n; i++)
        cr_assert_eq(skt_cli_load_bits(d + 4 * i, 4), skt_cli_load_bits(d, 4));
    free(base);
    d = generate("u.bin", SKT_CLI_U64, &n, &base, "-n", "4000", "--dist", "few-unique");
    uint64_t seen[16] = {0};
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = skt_cli_load_bits(d + 8 * i, 8);
        size_t k = 0;
        while (k < distinct && seen[k] != v)
            k++;
        if (k == distinct) {
            cr_assert_lt(distinct, 16, "more than 16 distinct values");
            seen[distinct++] = v;
        }
    }
    cr_assert_eq(distinct, 16);
    free(base);
}

Test(datagen_cli, should_reduce_entropy_by_anding_k_words)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("h.bin", SKT_CLI_U32, &n, &base, "-n", "4096", "--dist",
                                "entropy:4");
    unsigned long ones = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = skt_cli_load_bits(d + 4 * i, 4);
        for (; v; v &= v - 1)
            ones++;
    }
    /* 131072 bits, each set with probability 1/16: 8192 expected, sd ~88 */
    cr_assert(ones > 7600 && ones < 8800, "%lu bits set of 131072", ones);
    free(base);
}

Test(datagen_cli, should_exit_2_on_usage_errors)
{
    const char *cases[][10] = {
        {"-o", "x.bin", NULL},                               /* no -n */
        {"-n", "10", NULL},                                  /* no -o */
        {"-n", "12X", "-o", "x.bin", NULL},                  /* bad count */
        {"-n", "-4", "-o", "x.bin", NULL},                   /* negative count */
        {"-n", "10", "-o", "x.bin", "stray", NULL},          /* operand */
        {"-n", "10", "--dist", "zipf", "-o", "x.bin", NULL}, /* bad dist */
        {"-n", "10", "--dist", "entropy:0", "-o", "x.bin", NULL},
        {"-n", "10", "--range", "9:1", "-o", "x.bin", NULL}, /* empty range */
        {"-n", "10", "--type", "int3", "-o", "x.bin", NULL}, /* bad type */
        {"-n", "10", "--dist", "entropy:3", "--range", "1:2", "-o", "x.bin", NULL},
        {"-n", "10", "--seed", "-1", "-o", "x.bin", NULL},   /* bad seed */
        {"-n", "10", "-o", NULL},                            /* missing argument */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        skt_cli_result r = skt_cli_run("datagen", NULL, NULL, cases[i]);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "");
    free(names);
}

Test(datagen_cli, should_fail_cleanly_on_a_full_device)
{
    if (!skt_cli_file_exists("/dev/full"))
        cr_skip_test("no /dev/full");
    skt_cli_result r = DATAGEN("-n", "1M", "-o", "/dev/full");
    skt_cli_expect_one_line_failure(&r, "datagen: ", "No space left");
    skt_cli_free(&r);
}
