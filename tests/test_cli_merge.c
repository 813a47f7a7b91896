/*
 * test_cli_merge.c - end-to-end tests of the merge program.
 *
 * Each test runs in a fresh temporary directory ("work" is the current
 * directory; captured stdout/stderr live beside it, so the listing of "work"
 * shows exactly what the program left behind). Results are checked against
 * the serial reference of tests/ref/ref_merge.c; the values are the
 * positions of the keys in A followed by B, so they show the order every
 * key came from, and with it the stability.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_merge.h"
#include "ref/ref_sort.h"
#include "scankit.h"
#include "sk_rng.h"
#include "skt_cli.h"

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-merge");
    skt_cli_require_any_device();
}

TestSuite(merge_cli, .init = cli_setup, .fini = skt_cli_dirs_close, .timeout = 180);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MERGE(...) skt_cli_runl(NULL, "merge", __VA_ARGS__, (const char *)NULL)

/* ---- data ------------------------------------------------------------------------ */

static uint64_t rng_state = 0x13198a2e03707344ull;

static uint64_t rnd(void)
{
    return sk_splitmix64_next(&rng_state);
}

/* Bit patterns that are corner cases of the float types (and, as integers,
 * the sign bit, zero and a few more): -0, +0, a NaN of each sign, both
 * infinities, -1 and 1. */
static const uint64_t SPECIAL32[] = {0x80000000u, 0, 0x7fc00000u, 0xffc00001u,
                                     0xff800000u, 0x7f800000u, 0xbf800000u, 0x3f800000u};
static const uint64_t SPECIAL64[] = {
    0x8000000000000000ull, 0, 0x7ff8000000000000ull, 0xfff8000000000001ull,
    0xfff0000000000000ull, 0x7ff0000000000000ull, 0xbff0000000000000ull, 0x3ff0000000000000ull};

/* A key: half of them from the corner cases and 8 random values fixed per
 * run (so that A and B share keys), the rest random. */
static uint64_t draw_key(size_t size, const uint64_t *pool)
{
    unsigned pick = (unsigned)(rnd() % 32);
    if (pick < 8) return size == 4 ? SPECIAL32[pick] : SPECIAL64[pick];
    if (pick < 16) return pool[pick - 8];
    return rnd();
}

/* n keys of type t, sorted ascending or descending. */
static unsigned char *sorted_keys(sk_type t, size_t n, int desc, const uint64_t *pool)
{
    size_t size = sk_type_size(t);
    unsigned char *raw = malloc(n * size + 1), *out = malloc(n * size + 1);
    size_t *perm = malloc((n + 1) * sizeof *perm);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = draw_key(size, pool);
        memcpy(raw + i * size, &v, size);
    }
    skt_ref_sort_perm(t, raw, n, desc, 0, 8 * (unsigned)size, perm);
    skt_ref_gather(raw, size, perm, n, out);
    free(raw);
    free(perm);
    return out;
}

/* The values first, first + 1, ...: n of `size` bytes. */
static unsigned char *positions(size_t first, size_t n, size_t size)
{
    unsigned char *v = malloc(n * size + 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = first + i;
        memcpy(v + i * size, &x, size);
    }
    return v;
}

/* Two sorted inputs of one type. */
typedef struct inputs {
    sk_type t;
    int desc;
    size_t na, nb;
    unsigned char *a, *b;
} inputs;

static inputs make_inputs(sk_type t, size_t na, size_t nb, int desc)
{
    uint64_t pool[8];
    for (int i = 0; i < 8; i++) pool[i] = rnd();
    inputs in = {t, desc, na, nb, sorted_keys(t, na, desc, pool), sorted_keys(t, nb, desc, pool)};
    return in;
}

static void free_inputs(inputs *in)
{
    free(in->a);
    free(in->b);
}

/* A and B as raw files (npy: .npy files of their dtype). */
static void write_inputs(const inputs *in, const char *a, const char *b, int npy)
{
    size_t size = sk_type_size(in->t);
    if (npy) {
        skt_cli_write_npy(a, skt_cli_types[in->t].descr, in->a, in->na, size);
        skt_cli_write_npy(b, skt_cli_types[in->t].descr, in->b, in->nb, size);
    } else {
        skt_cli_write_file(a, in->a, in->na * size);
        skt_cli_write_file(b, in->b, in->nb * size);
    }
}

/* VA and VB: the positions of the keys in A followed by B, as `vt`. */
static void write_values(const inputs *in, const char *va, const char *vb, int npy, sk_type vt)
{
    size_t vs = sk_type_size(vt);
    unsigned char *x = positions(0, in->na, vs), *y = positions(in->na, in->nb, vs);
    if (npy) {
        skt_cli_write_npy(va, skt_cli_types[vt].descr, x, in->na, vs);
        skt_cli_write_npy(vb, skt_cli_types[vt].descr, y, in->nb, vs);
    } else {
        skt_cli_write_file(va, x, in->na * vs);
        skt_cli_write_file(vb, y, in->nb * vs);
    }
    free(x);
    free(y);
}

/* ---- checks ----------------------------------------------------------------------- */

/* The keys file (and, unless vals is NULL, the values file of `vs`-byte
 * positions) holds the stable merge of the inputs. */
static void expect_merged(const inputs *in, const char *keys, const char *vals, int npy,
                          size_t vs)
{
    size_t ks = sk_type_size(in->t), n = in->na + in->nb;
    size_t *origin = malloc((n + 1) * sizeof *origin);
    unsigned char *want = malloc(n * ks + 1), *want_v = malloc(n * vs + 1);
    skt_ref_merge_origin(in->t, in->a, in->na, in->b, in->nb, in->desc, origin);
    for (size_t k = 0; k < n; k++) {
        size_t o = origin[k];
        memcpy(want + k * ks, o < in->na ? in->a + o * ks : in->b + (o - in->na) * ks, ks);
        memcpy(want_v + k * vs, &(uint64_t){o}, vs);
    }
    skt_cli_expect_file(keys, npy, want, n * ks);
    if (vals) skt_cli_expect_file(vals, npy, want_v, n * vs);
    free(origin);
    free(want);
    free(want_v);
}

/* The .npy file at path has the dtype of t and n elements. */
static void expect_npy_of(const char *path, sk_type t, size_t n)
{
    size_t got = 0;
    unsigned char *base = NULL;
    skt_cli_load_elements(path, 1, &skt_cli_types[t], &got, &base);
    cr_assert_eq(got, n, "%s: %zu elements, want %zu", path, got, n);
    free(base);
}

static void expect_listing(const char *want)
{
    char *got = skt_cli_listing(".");
    cr_assert_str_eq(got, want);
    free(got);
}

static void expect_failure(skt_cli_result r, const char *needle)
{
    skt_cli_expect_one_line_failure(&r, "merge: ", needle);
    skt_cli_free(&r);
}

static void expect_success(skt_cli_result r, const char *what)
{
    skt_cli_expect_success(&r, what);
    skt_cli_free(&r);
}

/* ---- keys ------------------------------------------------------------------------- */

static const sk_type KEY_TYPES[] = {SK_UINT32, SK_INT32, SK_FLOAT32,
                                    SK_UINT64, SK_INT64, SK_FLOAT64};

Test(merge_cli, should_merge_keys_of_every_type_in_both_orders)
{
    for (size_t i = 0; i < COUNT(KEY_TYPES); i++) {
        for (int desc = 0; desc < 2; desc++) {
            sk_type t = KEY_TYPES[i];
            inputs in = make_inputs(t, 3001 + 7 * i, 2500 - 5 * i, desc);
            write_inputs(&in, "a.bin", "b.bin", 0);
            skt_cli_result r = MERGE("a.bin", "b.bin", "--type", skt_cli_types[t].name,
                                     desc ? "--descending" : "--check", "-o", "m.bin");
            cr_assert_eq(r.code, 0, "%s desc %d: exit %d: %s", skt_cli_types[t].name, desc,
                         r.code, r.err);
            skt_cli_free(&r);
            expect_merged(&in, "m.bin", NULL, 0, 0);
            free_inputs(&in);
        }
    }
}

Test(merge_cli, should_write_next_to_a_with_merged_before_the_extension)
{
    inputs in = make_inputs(SK_UINT32, 1000, 999, 0);
    write_inputs(&in, "a.bin", "b.bin", 0);
    write_values(&in, "va.bin", "vb.bin", 0, SK_UINT32);
    skt_cli_result r = MERGE("a.bin", "b.bin", "--values", "va.bin", "vb.bin", "--check");
    cr_assert_not_null(strstr(r.err, "check: ok (1999 keys merged)"), "stderr: %s", r.err);
    expect_success(r, "merge a.bin b.bin --values va.bin vb.bin --check");
    expect_merged(&in, "a.merged.bin", "va.merged.bin", 0, 4);
    expect_listing("a.bin\na.merged.bin\nb.bin\nva.bin\nva.merged.bin\nvb.bin\n");
    free_inputs(&in);
}

Test(merge_cli, should_read_a_from_stdin_and_write_stdout)
{
    inputs in = make_inputs(SK_INT32, 700, 300, 0);
    write_inputs(&in, "a.bin", "b.bin", 0);
    skt_cli_opts o = {"a.bin", NULL};
    skt_cli_result r =
        skt_cli_runl(&o, "merge", "-", "b.bin", "--type", "int32", (const char *)NULL);
    cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
    skt_cli_write_file("out.bin", r.out, r.out_len);
    skt_cli_free(&r);
    expect_merged(&in, "out.bin", NULL, 0, 0);
    free_inputs(&in);
}

/* ---- pairs ------------------------------------------------------------------------ */

Test(merge_cli, should_move_values_with_float_keys_into_named_outputs)
{
    for (int desc = 0; desc < 2; desc++) {
        inputs in = make_inputs(SK_FLOAT32, 4000, 3333, desc);
        write_inputs(&in, "a.bin", "b.bin", 0);
        write_values(&in, "va.bin", "vb.bin", 0, SK_UINT64);
        skt_cli_result r = MERGE("a.bin", "b.bin", "-t", "float32", "--values", "va.bin",
                                 "vb.bin", "--values-type", "uint64", "-o", "k.out",
                                 "--values-out", "v.out", desc ? "-r" : "--check");
        expect_success(r, "float32 pairs");
        expect_merged(&in, "k.out", "v.out", 0, 8);
        free_inputs(&in);
    }
}

/* --memory: A followed by B through the stream sort within the budget (many
 * runs and merge blocks): the stable merge, keys and values, both orders;
 * a budget too small for one key is one line. */
Test(merge_cli, should_merge_within_memory_as_in_one_piece)
{
    static const sk_type types[2] = {SK_INT64, SK_FLOAT32};
    for (int desc = 0; desc < 2; desc++) {
        inputs in = make_inputs(types[desc], 30000, 17001, desc);
        write_inputs(&in, "a.npy", "b.npy", 1);
        write_values(&in, "va.npy", "vb.npy", 1, SK_UINT32);
        skt_cli_result r = MERGE("a.npy", "b.npy", "--values", "va.npy", "vb.npy", "-o",
                                 "k.npy", "--values-out", "v.npy", "--memory", "48K", "--time",
                                 desc ? "-r" : "--check");
        cr_assert(strstr(r.err, "device memory ") && strstr(r.err, " runs, "),
                  "no runs in --time: %s", r.err);
        expect_success(r, "merge --memory 48K");
        expect_merged(&in, "k.npy", "v.npy", 1, 4);
        free_inputs(&in);
    }
    expect_failure(MERGE("a.npy", "b.npy", "-r", "--memory", "16", "-o", "x.npy"),
                   "--memory 16 is too small to merge a.npy and b.npy");
}

/* Equal keys everywhere: the merge is A's elements, then B's, each in its
 * own order. */
Test(merge_cli, should_keep_the_values_of_a_first_among_equal_keys)
{
    static const char *const orders[] = {"--check", "--descending"};
    for (size_t i = 0; i < COUNT(orders); i++) {
        inputs in = {SK_FLOAT64, (int)i, 1500, 1200, malloc(1500 * 8), malloc(1200 * 8)};
        for (size_t k = 0; k < in.na + in.nb; k++)
            memcpy(k < in.na ? in.a + k * 8 : in.b + (k - in.na) * 8, &(double){-2.5}, 8);
        write_inputs(&in, "a.npy", "b.npy", 1);
        write_values(&in, "va.npy", "vb.npy", 1, SK_INT64);
        expect_success(MERGE("a.npy", "b.npy", "--values", "va.npy", "vb.npy", orders[i]),
                       "all equal");
        unsigned char *want = positions(0, in.na + in.nb, 8);
        skt_cli_expect_file("va.merged.npy", 1, want, (in.na + in.nb) * 8);
        expect_merged(&in, "a.merged.npy", "va.merged.npy", 1, 8);
        free(want);
        free_inputs(&in);
    }
}

Test(merge_cli, should_keep_npy_in_npy_out_with_the_dtype_of_the_inputs)
{
    inputs in = make_inputs(SK_INT64, 2048, 4096, 1);
    write_inputs(&in, "a.npy", "b.npy", 1);
    write_values(&in, "va.npy", "vb.npy", 1, SK_UINT32);
    expect_success(MERGE("a.npy", "b.npy", "--values", "va.npy", "vb.npy", "-r", "--check"),
                   "npy");
    expect_npy_of("a.merged.npy", SK_INT64, 6144);
    expect_npy_of("va.merged.npy", SK_UINT32, 6144);
    expect_merged(&in, "a.merged.npy", "va.merged.npy", 1, 4);
    free_inputs(&in);
}

/* 8- and 16-bit keys: uint8 .npy files (dtype |u1 kept) with uint32
 * values, raw float16 keys by --type, descending. */
Test(merge_cli, should_merge_8_and_16_bit_keys_from_npy_and_raw_files)
{
    inputs in = make_inputs(SK_UINT8, 3001, 2500, 0);
    write_inputs(&in, "a.npy", "b.npy", 1);
    write_values(&in, "va.npy", "vb.npy", 1, SK_UINT32);
    expect_success(MERGE("a.npy", "b.npy", "--values", "va.npy", "vb.npy", "--check"), "uint8");
    expect_npy_of("a.merged.npy", SK_UINT8, 5501);
    expect_merged(&in, "a.merged.npy", "va.merged.npy", 1, 4);
    free_inputs(&in);
    inputs f = make_inputs(SK_FLOAT16, 2000, 3001, 1);
    write_inputs(&f, "a.bin", "b.bin", 0);
    expect_success(MERGE("a.bin", "b.bin", "--type", "float16", "--descending", "-o", "m.bin"),
                   "float16");
    expect_merged(&f, "m.bin", NULL, 0, 0);
    free_inputs(&f);
}

Test(merge_cli, should_merge_with_one_side_or_both_empty)
{
    static const size_t sizes[][2] = {{0, 777}, {777, 0}, {0, 0}};
    for (size_t i = 0; i < COUNT(sizes); i++) {
        inputs in = make_inputs(SK_UINT64, sizes[i][0], sizes[i][1], 0);
        write_inputs(&in, "a.bin", "b.bin", 0);
        write_values(&in, "va.bin", "vb.bin", 0, SK_UINT32);
        expect_success(MERGE("a.bin", "b.bin", "--type", "uint64", "--values", "va.bin",
                             "vb.bin", "--check"),
                       "an empty side");
        expect_merged(&in, "a.merged.bin", "va.merged.bin", 0, 4);
        free_inputs(&in);
    }
}

/* ---- failures --------------------------------------------------------------------- */

static const uint32_t UP[4] = {1, 2, 2, 9}, DOWN[4] = {9, 2, 2, 1};
static const uint32_t BAD[4] = {1, 5, 3, 9};

static void write_small_files(void)
{
    skt_cli_write_file("up.bin", UP, sizeof UP);
    skt_cli_write_file("down.bin", DOWN, sizeof DOWN);
    skt_cli_write_file("bad.bin", BAD, sizeof BAD);
    skt_cli_write_file("v3.bin", UP, 12);
    skt_cli_write_npy("up.npy", "<u4", UP, 4, 4);
    skt_cli_write_npy("up64.npy", "<u8", (uint64_t[4]){1, 2, 2, 9}, 4, 8);
    skt_cli_write_npy("u8.npy", "|u1", "\1\2\3\4", 4, 1);
}

#define SMALL_FILES "bad.bin\ndown.bin\nu8.npy\nup.bin\nup.npy\nup64.npy\nv3.bin\n"

Test(merge_cli, should_refuse_unsorted_inputs_naming_the_file_and_index)
{
    write_small_files();
    expect_failure(MERGE("bad.bin", "up.bin"),
                   "bad.bin: not sorted in ascending order: keys 1 and 2 are out of order");
    expect_failure(MERGE("up.bin", "bad.bin", "--values", "down.bin", "down.bin"),
                   "bad.bin: not sorted in ascending order: keys 1 and 2 are out of order");
    expect_failure(MERGE("down.bin", "up.bin", "--descending"),
                   "up.bin: not sorted in descending order: keys 0 and 1 are out of order");
    expect_failure(MERGE("up.bin", "down.bin"), "down.bin: not sorted in ascending order");
    expect_listing(SMALL_FILES);
}

/* Over 2^20 keys the order check splits over the host's CPUs (apps/
 * sort_check.c): keys made smaller than every other at the middle (a part
 * boundary for 2 and 4 CPUs) and at the last are named as the first pair
 * out of order, the lower of two; --check passes the sorted ones. (Every
 * split, whatever the host: tests/test_sort_check.c.) */
Test(merge_cli, should_name_the_first_pair_out_of_order_in_a_large_input)
{
    const size_t n = ((size_t)1 << 20) + 4099, at[3] = {n / 2, n - 1, n / 2};
    uint32_t *big = malloc(n * sizeof *big);
    for (size_t i = 0; i < n; i++) big[i] = 2 * (uint32_t)i + 1;
    write_small_files();
    skt_cli_write_file("big.bin", big, n * sizeof *big);
    expect_success(MERGE("big.bin", "up.bin", "--check", "-o", "m.bin"), "a large input");
    for (int k = 0; k < 3; k++) {
        big[at[k]] = 0;
        if (k == 2) big[n - 1] = 0; /* both: the middle one is named */
        skt_cli_write_file("big.bin", big, n * sizeof *big);
        char want[128];
        snprintf(want, sizeof want,
                 "big.bin: not sorted in ascending order: keys %zu and %zu are out of order",
                 at[k] - 1, at[k]);
        expect_failure(MERGE("up.bin", "big.bin"), want);
        big[at[k]] = 2 * (uint32_t)at[k] + 1;
        big[n - 1] = 2 * (uint32_t)(n - 1) + 1;
    }
    free(big);
}

Test(merge_cli, should_refuse_inputs_that_disagree_or_do_not_fit)
{
    write_small_files();
    expect_failure(MERGE("up.npy", "up64.npy"),
                   "up64.npy: uint64 elements where up.npy has uint32 (A and B must be of "
                   "one type)");
    expect_failure(MERGE("up.npy", "up.bin"), "up.bin: a raw file where up.npy is .npy");
    expect_failure(MERGE("up.bin", "up.bin", "--values", "down.bin", "v3.bin"),
                   "v3.bin: 3 values for 4 keys in up.bin");
    expect_failure(MERGE("up.bin", "up.bin", "--values", "up.npy", "up64.npy"),
                   "up64.npy: uint64 elements where up.npy has uint32 (VA and VB");
    expect_failure(MERGE("up.bin", "up.bin", "--values", "u8.npy", "u8.npy"),
                   "values must be of 4 or 8 bytes");
    expect_listing(SMALL_FILES);
}

Test(merge_cli, should_name_a_missing_file)
{
    write_small_files();
    expect_failure(MERGE("missing.bin", "up.bin"), "missing.bin");
    expect_failure(MERGE("up.bin", "missing.bin"), "missing.bin");
    expect_failure(MERGE("up.bin", "up.bin", "--values", "down.bin", "missing.bin"),
                   "missing.bin");
    expect_failure(MERGE("up.bin", "down.bin", "-r", "-o", "up.bin"), "up.bin");
    expect_listing(SMALL_FILES);
}

Test(merge_cli, should_exit_2_on_usage_errors)
{
    write_small_files();
    const char *const cases[][6] = {
        {"up.bin"},
        {"up.bin", "up.bin", "up.bin"},
        {"up.bin", "up.bin", "--values", "up.bin"},
        {"-", "-"},
        {"up.bin", "up.bin", "--values", "-", "-"},
        {"up.bin", "up.bin", "--values-out", "v.bin"},
        {"up.bin", "up.bin", "--type", "int128"},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        const char *args[7] = {0};
        memcpy(args, cases[i], sizeof cases[i]);
        skt_cli_result r = skt_cli_run("merge", NULL, NULL, args);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
    expect_listing(SMALL_FILES);
}
