/*
 * test_cli_radixsort.c - end-to-end tests of the radixsort program.
 *
 * Each test runs in a fresh temporary directory ("work" is the current
 * directory; captured stdout/stderr live beside it, so the listing of "work"
 * shows exactly what the program left behind). Results are checked against
 * the serial reference of tests/ref/ref_sort.c (ref_segsort.c with
 * --segments), through the values (the input indices) where stability
 * matters.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ref/ref_segsort.h"
#include "ref/ref_sort.h"
#include "scankit.h"
#include "sk_rng.h"
#include "skt_cli.h"

extern char **environ;

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-rs");
    skt_cli_require_any_device();
}

static void cli_teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(radixsort_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 120);

/* ---- files -------------------------------------------------------------------- */

/* The data of a .npy file written by the program (after its header). */
static unsigned char *npy_data(const char *path, size_t *len)
{
    size_t all;
    unsigned char *b = skt_cli_slurp(path, &all);
    cr_assert(all >= 10 && memcmp(b, "\x93NUMPY", 6) == 0, "%s is not a .npy file", path);
    size_t hlen = b[8] | (size_t)b[9] << 8;
    cr_assert(all >= 10 + hlen);
    *len = all - 10 - hlen;
    memmove(b, b + 10 + hlen, *len);
    return b;
}

/* The sorted names in the work directory, space-separated. */
static char *listing(void)
{
    static char out[4096];
    char *names = skt_cli_listing(".");
    size_t len = strlen(names);
    if (len) names[len - 1] = '\0'; /* the last name's newline */
    for (char *c = names; *c; c++)
        if (*c == '\n') *c = ' ';
    snprintf(out, sizeof out, "%s", names);
    free(names);
    return out;
}

/* ---- running ------------------------------------------------------------------- */

typedef skt_cli_result run_result;

static run_result run_rs(const char *first, ...)
{
    const char *args[33];
    int argc = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 32; a = va_arg(ap, const char *))
        args[argc++] = a;
    va_end(ap);
    args[argc] = NULL;
    return skt_cli_run("radixsort", NULL, NULL, args);
}

#define RS(...) run_rs(__VA_ARGS__, (const char *)NULL)

static void expect_one_line_failure(const run_result *r, const char *needle)
{
    skt_cli_expect_one_line_failure(r, "radixsort: ", needle);
}

/* ---- data and checks ------------------------------------------------------------ */

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
    return sk_splitmix64_next(&rng_state);
}

/* n random keys of `size` bytes with few distinct values (ties matter). */
static unsigned char *random_keys(size_t n, size_t size, int few)
{
    unsigned char *k = malloc(n * size + 1);
    uint64_t pool[7];
    for (int i = 0; i < 7; i++) pool[i] = rnd();
    pool[0] = 0x8000000000000000ull; /* -0.0 for float64 */
    pool[1] = size == 4 ? 0x80000000u : 0;
    pool[2] = size == 4 ? 0xffc00001u : 0xfff8000000000001ull; /* a negative NaN */
    for (size_t i = 0; i < n; i++) {
        uint64_t v = few ? pool[rnd() % 7] : rnd();
        memcpy(k + i * size, &v, size);
    }
    return k;
}

static unsigned char *indices(size_t n, size_t size)
{
    unsigned char *v = malloc(n * size + 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = i;
        memcpy(v + i * size, &x, size);
    }
    return v;
}

/* Expects `keys`/`vals` (as written) to be the stable sort of `in`. */
static void expect_sorted(sk_type t, const unsigned char *in, size_t n, int desc,
                          unsigned b, unsigned e, const unsigned char *keys,
                          const unsigned char *vals, size_t vs)
{
    size_t ks = sk_type_size(t);
    size_t *perm = malloc((n + 1) * sizeof *perm);
    skt_ref_sort_perm(t, in, n, desc, b, e, perm);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(memcmp(keys + i * ks, in + perm[i] * ks, ks), 0, "key %zu differs", i);
        if (vals) {
            uint64_t v = 0;
            memcpy(&v, vals + i * vs, vs);
            cr_assert_eq(v, perm[i], "value %zu is %llu, want %zu", i, (unsigned long long)v,
                         perm[i]);
        }
    }
    free(perm);
}

/* ---- tests ----------------------------------------------------------------------- */

Test(radixsort_cli, should_sort_raw_uint32_keys_into_the_default_output)
{
    const size_t n = 50000;
    unsigned char *in = random_keys(n, 4, 0);
    skt_cli_write_file("keys.bin", in, n * 4);
    run_result r = RS("keys.bin");
    skt_cli_expect_success(&r, "radixsort keys.bin");
    size_t len;
    unsigned char *out = skt_cli_slurp("keys.sorted.bin", &len);
    cr_assert_eq(len, n * 4);
    expect_sorted(SK_UINT32, in, n, 0, 0, 32, out, NULL, 0);
    cr_assert_str_eq(listing(), "keys.bin keys.sorted.bin");
    skt_cli_free(&r);
    free(in);
    free(out);
}

Test(radixsort_cli, should_keep_npy_in_npy_out_and_check_descending_int64)
{
    const size_t n = 30001;
    unsigned char *in = random_keys(n, 8, 1);
    skt_cli_write_npy("k.npy", "<i8", in, n, 8);
    run_result r = RS("k.npy", "--descending", "--check");
    skt_cli_expect_success(&r, "radixsort k.npy --descending --check");
    char want[64];
    snprintf(want, sizeof want, "check: ok (%zu keys sorted)", n);
    cr_assert_not_null(strstr(r.err, want), "stderr: %s", r.err);
    size_t len;
    unsigned char *out = npy_data("k.sorted.npy", &len);
    cr_assert_eq(len, n * 8);
    expect_sorted(SK_INT64, in, n, 1, 0, 64, out, NULL, 0);
    skt_cli_free(&r);
    free(in);
    free(out);
}

Test(radixsort_cli, should_move_values_with_float_keys_stably)
{
    const size_t n = 20000;
    unsigned char *in = random_keys(n, 4, 1), *vals = indices(n, 8);
    skt_cli_write_file("k.bin", in, n * 4);
    skt_cli_write_npy("v.npy", "<u8", vals, n, 8);
    run_result r = RS("k.bin", "--type", "float32", "--values", "v.npy", "--check", "-o",
                      "out.bin");
    skt_cli_expect_success(&r, "pairs");
    size_t kl, vl;
    unsigned char *ko = skt_cli_slurp("out.bin", &kl), *vo = npy_data("v.sorted.npy", &vl);
    cr_assert_eq(kl, n * 4);
    cr_assert_eq(vl, n * 8);
    expect_sorted(SK_FLOAT32, in, n, 0, 0, 32, ko, vo, 8);
    skt_cli_free(&r);
    free(in);
    free(vals);
    free(ko);
    free(vo);
}

Test(radixsort_cli, should_sort_by_a_bit_range_with_raw_values_out)
{
    const size_t n = 10007;
    unsigned char *in = random_keys(n, 4, 0), *vals = indices(n, 4);
    skt_cli_write_file("k.bin", in, n * 4);
    skt_cli_write_file("v.bin", vals, n * 4);
    run_result r = RS("k.bin", "--bits", "8:16", "--values", "v.bin", "--values-out",
                      "vo.bin", "--descending", "--check");
    skt_cli_expect_success(&r, "bits");
    size_t kl, vl;
    unsigned char *ko = skt_cli_slurp("k.sorted.bin", &kl), *vo = skt_cli_slurp("vo.bin", &vl);
    expect_sorted(SK_UINT32, in, n, 1, 8, 16, ko, vo, 4);
    cr_assert_str_eq(listing(), "k.bin k.sorted.bin v.bin vo.bin");
    skt_cli_free(&r);
    free(in);
    free(vals);
    free(ko);
    free(vo);
}

/* The descr of a .npy file's header. */
static void expect_npy_descr(const char *path, const char *descr)
{
    size_t len;
    unsigned char *b = skt_cli_slurp(path, &len);
    char want[32];
    snprintf(want, sizeof want, "'descr': '%s'", descr);
    cr_assert(len > 10 && strstr((const char *)b + 10, want), "%s: no %s in its header", path,
              want);
    free(b);
}

/* The 8- and 16-bit keys, raw (--type) and .npy (the dtype from its
 * header, written back the same), each with the value size, order and
 * bit range the library's tests build its program with (tests/test_sort.c:
 * NARROW, the CPU shape), so no new program; float16 keys mix in +-0,
 * +-inf, NaNs with payloads and subnormals. */
Test(radixsort_cli, should_sort_8_and_16_bit_keys_raw_and_npy_stably)
{
    static const struct {
        sk_type t;
        const char *name, *descr; /* descr NULL: a raw file and --type */
        size_t vs;
        int desc;
        unsigned b, e;
    } cases[] = {
        {SK_UINT8, "uint8", NULL, 8, 0, 0, 8},      {SK_INT8, "int8", "|i1", 4, 1, 0, 8},
        {SK_UINT16, "u16", NULL, 0, 0, 3, 11},      {SK_INT16, "int16", "<i2", 8, 1, 0, 16},
        {SK_FLOAT16, "float16", "<f2", 4, 0, 0, 16},
    };
    static const uint16_t half_specials[] = {0x0000u, 0x8000u, 0x7c00u, 0xfc00u, 0x7e01u,
                                             0xfe2au, 0x7c01u, 0x0001u, 0x83ffu};
    const size_t n = 20011;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t ks = sk_type_size(cases[c].t), vs = cases[c].vs;
        unsigned char *in = random_keys(n, ks, c % 2), *vals = indices(n, vs ? vs : 4);
        if (cases[c].t == SK_FLOAT16)
            for (size_t i = 0; i < n; i += 7)
                memcpy(in + 2 * i, &half_specials[i % 9], 2);
        const char *kf = cases[c].descr ? "k.npy" : "k.bin";
        const char *ko = cases[c].descr ? "k.sorted.npy" : "k.sorted.bin";
        if (cases[c].descr) skt_cli_write_npy(kf, cases[c].descr, in, n, ks);
        else skt_cli_write_file(kf, in, n * ks);
        skt_cli_write_npy("v.npy", vs == 8 ? "<u8" : "<u4", vals, n, vs ? vs : 4);
        char bits[32];
        snprintf(bits, sizeof bits, "%u:%u", cases[c].b, cases[c].e);
        const char *args[16] = {kf, "--check", "--bits", bits};
        int argc = 4;
        if (!cases[c].descr) args[argc++] = "--type", args[argc++] = cases[c].name;
        if (cases[c].desc) args[argc++] = "--descending";
        if (vs) args[argc++] = "--values", args[argc++] = "v.npy";
        args[argc] = NULL;
        run_result r = skt_cli_run("radixsort", NULL, NULL, args);
        skt_cli_expect_success(&r, skt_cli_describe("radixsort", args));
        size_t kl, vl = 0;
        unsigned char *k = cases[c].descr ? npy_data(ko, &kl) : skt_cli_slurp(ko, &kl);
        unsigned char *v = vs ? npy_data("v.sorted.npy", &vl) : NULL;
        cr_assert_eq(kl, n * ks, "%s: %zu bytes of keys", cases[c].name, kl);
        cr_assert_eq(vl, vs ? n * vs : 0, "%s: %zu bytes of values", cases[c].name, vl);
        if (cases[c].descr) expect_npy_descr(ko, cases[c].descr);
        expect_sorted(cases[c].t, in, n, cases[c].desc, cases[c].b, cases[c].e, k, v, vs);
        skt_cli_free(&r);
        unlink(kf);
        unlink(ko);
        unlink("v.npy");
        unlink("v.sorted.npy");
        free(in);
        free(vals);
        free(k);
        free(v);
    }
}

Test(radixsort_cli, should_refuse_a_bit_range_past_an_8_bit_key)
{
    unsigned char in[3] = {3, 1, 2};
    skt_cli_write_file("k.bin", in, 3);
    run_result r = RS("k.bin", "--type", "uint8", "--bits", "0:9");
    cr_assert_eq(r.code, 2, "exit %d", r.code);
    cr_assert_not_null(strstr(r.err, "exceeds the 8 bits of uint8"), "stderr: %s", r.err);
    cr_assert_str_eq(listing(), "k.bin");
    skt_cli_free(&r);
}

Test(radixsort_cli, should_write_an_empty_output_for_an_empty_input)
{
    skt_cli_write_file("e.bin", "", 0);
    run_result r = RS("e.bin", "--check");
    skt_cli_expect_success(&r, "empty");
    size_t len;
    free(skt_cli_slurp("e.sorted.bin", &len));
    cr_assert_eq(len, 0);
    skt_cli_free(&r);
}

Test(radixsort_cli, should_fail_with_one_line_and_no_output_on_bad_files)
{
    unsigned char *k = random_keys(100, 4, 0);
    skt_cli_write_file("odd.bin", k, 10); /* not a multiple of 4 bytes */
    skt_cli_write_file("k.bin", k, 400);
    skt_cli_write_file("v99.bin", k, 396);
    skt_cli_write_npy("cplx.npy", "<c8", k, 50, 8); /* complex: no key type */
    skt_cli_write_npy("u8.npy", "|u1", k, 100, 1);
    run_result r = RS("odd.bin");
    expect_one_line_failure(&r, "odd.bin");
    skt_cli_free(&r);
    r = RS("k.bin", "--values", "v99.bin");
    expect_one_line_failure(&r, "99 values for 100 keys");
    skt_cli_free(&r);
    r = RS("cplx.npy");
    expect_one_line_failure(&r, "cplx.npy: unsupported .npy dtype '<c8'");
    skt_cli_free(&r);
    r = RS("k.bin", "--values", "u8.npy");
    expect_one_line_failure(&r, "u8.npy");
    skt_cli_free(&r);
    r = RS("missing.bin");
    expect_one_line_failure(&r, "missing.bin");
    skt_cli_free(&r);
    r = RS("k.bin", "--bits", "0:40");
    expect_one_line_failure(&r, "--bits");
    skt_cli_free(&r);
    cr_assert_str_eq(listing(), "cplx.npy k.bin odd.bin u8.npy v99.bin");
    free(k);
}

Test(radixsort_cli, should_exit_2_on_usage_errors)
{
    skt_cli_write_file("k.bin", "\1\0\0\0", 4);
    const char *const cases[][4] = {
        {NULL}, {"k.bin", "--type", "complex"}, {"k.bin", "--bits", "5:3"},
        {"k.bin", "--bits", "x"}, {"k.bin", "--values-type", "uint32"}, {"k.bin", "--frob"},
        {"k.bin", "k.bin"}, {"k.bin", "--values-out", "v.bin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_rs(cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
    cr_assert_str_eq(listing(), "k.bin");
}

Test(radixsort_cli, should_not_overwrite_the_input_without_in_place)
{
    skt_cli_write_file("k.bin", "\3\0\0\0\1\0\0\0", 8);
    run_result r = RS("k.bin", "-o", "k.bin");
    expect_one_line_failure(&r, NULL);
    skt_cli_free(&r);
    r = RS("k.bin", "--in-place");
    skt_cli_expect_success(&r, "--in-place");
    size_t len;
    unsigned char *out = skt_cli_slurp("k.bin", &len);
    cr_assert_eq(memcmp(out, "\1\0\0\0\3\0\0\0", 8), 0);
    free(out);
    skt_cli_free(&r);
}

Test(radixsort_cli, should_print_help_and_version)
{
    run_result r = RS("--help");
    skt_cli_expect_success(&r, "--help");
    cr_assert_not_null(strstr(r.out, "usage: radixsort"));
    skt_cli_free(&r);
    r = RS("--version");
    skt_cli_expect_success(&r, "--version");
    cr_assert_not_null(strstr(r.out, sk_version_string()));
    skt_cli_free(&r);
}

/* Over 2^20 keys --check splits over the host's CPUs (apps/sort_check.c). */
Test(radixsort_cli, should_check_a_sort_of_more_keys_than_one_part_takes)
{
    const size_t n = ((size_t)1 << 20) + 3;
    unsigned char *in = random_keys(n, 4, 0), *vals = indices(n, 4);
    skt_cli_write_file("k.bin", in, n * 4);
    skt_cli_write_file("v.bin", vals, n * 4);
    run_result r = RS("k.bin", "--type", "int32", "--values", "v.bin", "--check");
    skt_cli_expect_success(&r, "radixsort k.bin --type int32 --values v.bin --check");
    char want[64];
    snprintf(want, sizeof want, "check: ok (%zu keys sorted)", n);
    cr_assert_not_null(strstr(r.err, want), "stderr: %s", r.err);
    size_t kl, vl;
    unsigned char *ko = skt_cli_slurp("k.sorted.bin", &kl);
    unsigned char *vo = skt_cli_slurp("v.sorted.bin", &vl);
    cr_assert_eq(kl, n * 4);
    cr_assert_eq(vl, n * 4);
    expect_sorted(SK_INT32, in, n, 0, 0, 32, ko, vo, 4);
    skt_cli_free(&r);
    free(in);
    free(vals);
    free(ko);
    free(vo);
}

/* Files of more than the read ahead (two blocks of 8 MiB here,
 * SCANKIT_READ_AHEAD): the reading threads fill their ring first, then read
 * each request straight into the sort's buffer in parts at once
 * (apps/appkit_stream.c); a .npy key file (a header before the data) and
 * raw values, both past the switch, and the last request short (the end
 * of the data within it). */
Test(radixsort_cli, should_sort_files_read_ahead_then_read_straight_into_the_sort)
{
    cr_assert_eq(setenv("SCANKIT_READ_AHEAD", "1", 1), 0);
    const size_t n = ((size_t)5 << 20) + 1001;
    unsigned char *in = random_keys(n, 4, 0), *vals = indices(n, 8);
    skt_cli_write_npy("k.npy", "<u4", in, n, 4);
    skt_cli_write_file("v.bin", vals, n * 8);
    run_result r = RS("k.npy", "--values", "v.bin", "--values-type", "uint64", "--descending");
    skt_cli_expect_success(&r, "radixsort k.npy --values v.bin --values-type uint64 --descending");
    size_t kl, vl;
    unsigned char *ko = npy_data("k.sorted.npy", &kl);
    unsigned char *vo = skt_cli_slurp("v.sorted.bin", &vl);
    cr_assert_eq(kl, n * 4);
    cr_assert_eq(vl, n * 8);
    expect_sorted(SK_UINT32, in, n, 1, 0, 32, ko, vo, 8);
    skt_cli_free(&r);
    free(in);
    free(vals);
    free(ko);
    free(vo);
}

/* ---- --segments ------------------------------------------------------------------ */

/* Offsets (as uint64) of random segments over n keys: empty ones, short
 * ones and one of 3000 keys; *count of them. */
static uint64_t *random_offsets(size_t n, size_t *count)
{
    uint64_t *o = malloc((n + 2) * sizeof *o);
    size_t c = 0, at = 0;
    while (at < n) {
        size_t len = c == 3 ? 3000 : rnd() % 40;
        o[c++] = at;
        at += len < n - at ? len : n - at;
    }
    *count = c;
    return o;
}

/* Offsets of `size` bytes each. */
static unsigned char *offsets_as(const uint64_t *o, size_t count, size_t size)
{
    unsigned char *b = malloc(count * size + 1);
    for (size_t i = 0; i < count; i++) memcpy(b + i * size, &o[i], size);
    return b;
}

/* Expects `keys`/`vals` to be each segment's stable sort of `in`. */
static void expect_segments_sorted(sk_type t, const unsigned char *in, size_t n,
                                   const uint64_t *offs, size_t count, int desc,
                                   const unsigned char *keys, const unsigned char *vals,
                                   size_t vs)
{
    size_t ks = sk_type_size(t);
    size_t *perm = malloc((n + 1) * sizeof *perm);
    skt_ref_segsort_perm(t, in, n, offs, count, desc, 0, 8 * (unsigned)ks, perm);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(memcmp(keys + i * ks, in + perm[i] * ks, ks), 0, "key %zu differs", i);
        uint64_t v = 0;
        if (vals) memcpy(&v, vals + i * vs, vs);
        cr_assert(!vals || v == perm[i], "value %zu is %llu, want %zu", i,
                  (unsigned long long)v, perm[i]);
    }
    free(perm);
}

Test(radixsort_cli, should_sort_within_raw_uint64_segments_with_values_stably)
{
    const size_t n = 12000;
    size_t count = 0;
    uint64_t *offs = random_offsets(n, &count);
    unsigned char *in = random_keys(n, 4, 1), *vals = indices(n, 4);
    unsigned char *o8 = offsets_as(offs, count, 8);
    skt_cli_write_file("k.bin", in, n * 4);
    skt_cli_write_file("v.bin", vals, n * 4);
    skt_cli_write_file("o.bin", o8, count * 8);
    run_result r = RS("k.bin", "--type", "int32", "--values", "v.bin", "--segments", "o.bin",
                      "--offsets-type", "uint64", "--descending", "--check", "-o", "out.bin");
    skt_cli_expect_success(&r, "segments, pairs");
    cr_assert(strstr(r.err, "check: ok"), "stderr: %s", r.err);
    size_t kl, vl;
    unsigned char *ko = skt_cli_slurp("out.bin", &kl), *vo = skt_cli_slurp("v.sorted.bin", &vl);
    cr_assert_eq(kl, n * 4);
    cr_assert_eq(vl, n * 4);
    expect_segments_sorted(SK_INT32, in, n, offs, count, 1, ko, vo, 4);
    skt_cli_free(&r);
    free(offs), free(in), free(vals), free(o8), free(ko), free(vo);
}

Test(radixsort_cli, should_sort_within_npy_uint32_segments)
{
    const size_t n = 5000;
    size_t count = 0;
    uint64_t *offs = random_offsets(n, &count);
    unsigned char *in = random_keys(n, 8, 0), *o4 = offsets_as(offs, count, 4);
    skt_cli_write_npy("k.npy", "<f8", in, n, 8);
    skt_cli_write_npy("o.npy", "<u4", o4, count, 4);
    run_result r = RS("k.npy", "--segments", "o.npy");
    skt_cli_expect_success(&r, "segments from .npy");
    size_t kl;
    unsigned char *ko = npy_data("k.sorted.npy", &kl);
    cr_assert_eq(kl, n * 8);
    expect_segments_sorted(SK_FLOAT64, in, n, offs, count, 0, ko, NULL, 0);
    skt_cli_free(&r);
    free(offs), free(in), free(o4), free(ko);
}

Test(radixsort_cli, should_refuse_bad_segments_and_their_misuse)
{
    const uint32_t keys[4] = {4, 3, 2, 1}, unsorted[3] = {0, 3, 1}, above[2] = {0, 5};
    const uint8_t bytes[2] = {0, 1};
    skt_cli_write_file("k.bin", keys, sizeof keys);
    skt_cli_write_file("u.bin", unsorted, sizeof unsorted);
    skt_cli_write_file("a.bin", above, sizeof above);
    skt_cli_write_npy("b.npy", "|u1", bytes, 2, 1);
    run_result r = RS("k.bin", "--segments", "u.bin");
    expect_one_line_failure(&r, "offsets are not sorted");
    skt_cli_free(&r);
    r = RS("k.bin", "--segments", "a.bin");
    expect_one_line_failure(&r, "is above the 4 elements");
    skt_cli_free(&r);
    r = RS("k.bin", "--segments", "b.npy");
    expect_one_line_failure(&r, "offsets must be uint32 or uint64");
    skt_cli_free(&r);
    r = RS("k.bin", "--segments", "u.bin", "--memory", "1M");
    skt_cli_expect_usage_error(&r);
    cr_assert(strstr(r.err, "in one piece"), "stderr: %s", r.err);
    skt_cli_free(&r);
    r = RS("k.bin", "--offsets-type", "uint64");
    skt_cli_expect_usage_error(&r);
    skt_cli_free(&r);
    cr_assert_str_eq(listing(), "a.bin b.npy k.bin u.bin");
}
