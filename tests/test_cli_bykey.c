/*
 * test_cli_bykey.c - compact --rle and segscan --keys end to end.
 *
 * Each test runs in a fresh temporary directory (the current directory
 * while it runs), starts the built programs, and checks what they write
 * against the serial references of tests/ref/ref_bykey.c and
 * ref_segscan.c: raw and .npy files, every key type, the default output
 * names, and the runs in chunks (--memory) byte for byte as in one piece.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_bykey.h"
#include "ref/ref_segscan.h"
#include "skt_cli.h"
#include "skt_common.h"

static void setup(void)
{
    skt_setup();
    skt_cli_dirs_open("skt-bykey");
    skt_cli_require_any_device();
}

static void teardown(void) { skt_cli_dirs_close(); }

TestSuite(bykey_cli, .init = setup, .fini = teardown, .timeout = 180);

#define COMPACT(...) \
    skt_cli_run("compact", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})
#define SEGSCAN(...) \
    skt_cli_run("segscan", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})

#define N 6007

/* n keys of t in runs (random lengths) drawn from a pool of six random
 * keys, float specials among them. */
static unsigned char *make_keys(sk_type t, size_t n)
{
    size_t ks = skt_ref_type_size(t);
    unsigned char *p = skt_malloc(n * ks + 1);
    uint64_t pool[6], cur = 0;
    for (size_t k = 0; k < 6; k++) pool[k] = skt_random_key(t);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || skt_rand_below(5) == 0) cur = pool[skt_rand_below(6)];
        memcpy(p + i * ks, &cur, ks);
    }
    return p;
}

static void expect_runs_line(const skt_cli_result *r, size_t runs, size_t n)
{
    char want[96];
    cr_assert_eq(r->code, 0, "exit %d, stderr: %s", r->code, r->err);
    snprintf(want, sizeof want, "%zu runs in %zu elements\n", runs, n);
    cr_assert_not_null(strstr(r->err, want), "stderr should say '%s': %s", want, r->err);
}

Test(bykey_cli, rle_of_a_raw_file_writes_values_and_counts_beside_it)
{
    unsigned char *keys = make_keys(SK_UINT32, N);
    uint32_t *values = skt_malloc(N * 4);
    uint64_t *counts = skt_malloc(N * 8);
    size_t runs = skt_ref_run_length_encode(4, keys, N, values, counts);
    skt_cli_write_file("d.bin", keys, N * 4);
    skt_cli_result r = COMPACT("d.bin", "--rle");
    expect_runs_line(&r, runs, N);
    skt_cli_expect_file("d.compact.bin", 0, values, runs * 4);
    skt_cli_expect_file("d.counts.bin", 0, counts, runs * 8);
    skt_cli_free(&r);
    skt_free_all(keys, values, counts, NULL);
}

/* Every key type through .npy, in one piece and in chunks whose runs
 * meet across the chunks' edges (all-equal runs of 40). */
Test(bykey_cli, rle_of_every_type_matches_the_reference_in_one_piece_and_in_chunks)
{
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !skt_cli_default_device_has_fp64()) continue;
        size_t ks = skt_ref_type_size((sk_type)t);
        unsigned char *keys = make_keys((sk_type)t, N), *values = skt_malloc(N * ks);
        for (size_t i = N / 2; i < N / 2 + 40 * ks; i++) keys[i] = keys[N / 2];
        uint64_t *counts = skt_malloc(N * 8);
        size_t runs = skt_ref_run_length_encode(ks, keys, N, values, counts);
        skt_cli_write_npy("k.npy", skt_cli_types[t].descr, keys, N, ks);
        skt_cli_result r = COMPACT("k.npy", "--rle", "-o", "v.npy", "--counts-out", "c.npy");
        expect_runs_line(&r, runs, N);
        skt_cli_expect_file("v.npy", 1, values, runs * ks);
        skt_cli_expect_file("c.npy", 1, counts, runs * 8);
        skt_cli_free(&r);
        r = COMPACT("k.npy", "--rle", "--memory", "8K", "--time");
        expect_runs_line(&r, runs, N);
        cr_assert_not_null(strstr(r.err, "chunks of"), "%s: not in chunks: %s",
                           skt_cli_types[t].name, r.err);
        skt_cli_expect_file("k.compact.npy", 1, values, runs * ks);
        skt_cli_expect_file("k.counts.npy", 1, counts, runs * 8);
        skt_cli_free(&r);
        skt_free_all(keys, values, counts, NULL);
    }
}

/* segscan --keys: the scans and the totals with the keys, raw (keys of
 * another type than the values) and .npy, in one piece and in chunks. */
static void check_keys_run(sk_type kt, sk_type vt, sk_op op, int mode, int npy)
{
    size_t ks = skt_ref_type_size(kt), vs = skt_ref_type_size(vt);
    unsigned char *keys = make_keys(kt, N), *heads = skt_malloc(N);
    unsigned char *vals = skt_malloc(N * vs), *want = skt_malloc(N * vs);
    unsigned char *want_k = skt_malloc(N * ks);
    skt_fill(vt, op, vals, N);
    size_t runs = skt_ref_key_heads(ks, keys, N, heads), out_n = N;
    if (mode == 2) {
        out_n = skt_ref_segreduce_heads(vt, op, vals, heads, N, want);
        skt_ref_unique_by_key(ks, 0, keys, NULL, N, want_k, NULL);
    } else {
        skt_ref_segscan(vt, op, mode, vals, want, heads, N);
    }
    cr_assert_eq(mode == 2 ? out_n : runs, runs);
    const char *ext = npy ? ".npy" : ".bin", *tag = mode == 2 ? "segreduce" : "segscan";
    char kin[16], vin[16], out[32], kout[32];
    snprintf(kin, sizeof kin, "k%s", ext);
    snprintf(vin, sizeof vin, "v%s", ext);
    snprintf(out, sizeof out, "v.%s%s", tag, ext);
    snprintf(kout, sizeof kout, "k.%s%s", tag, ext);
    if (npy) {
        skt_cli_write_npy(kin, skt_cli_types[kt].descr, keys, N, ks);
        skt_cli_write_npy(vin, skt_cli_types[vt].descr, vals, N, vs);
    } else {
        skt_cli_write_file(kin, keys, N * ks);
        skt_cli_write_file(vin, vals, N * vs);
    }
    for (int chunked = 0; chunked < 2; chunked++) {
        const char *args[14] = {vin, "--keys", kin, "--op", sk_op_name(op)};
        size_t a = 5;
        if (!npy) {
            args[a++] = "--type", args[a++] = skt_cli_types[vt].name;
            args[a++] = "--keys-type", args[a++] = skt_cli_types[kt].name;
        }
        if (mode == 1) args[a++] = "--exclusive";
        if (mode == 2) args[a++] = "--reduce";
        if (chunked) args[a++] = "--memory", args[a++] = "16K";
        skt_cli_result r = skt_cli_run("segscan", NULL, NULL, args);
        skt_cli_expect_success(&r, skt_cli_describe("segscan", args));
        skt_cli_expect_file(out, npy, want, out_n * vs);
        if (mode == 2) skt_cli_expect_file(kout, npy, want_k, runs * ks);
        skt_cli_free(&r);
        remove(out);
        remove(kout);
    }
    skt_free_all(keys, heads, vals, want, want_k, NULL);
}

Test(bykey_cli, segscan_by_keys_scans_and_reduces_as_the_reference)
{
    check_keys_run(SK_FLOAT32, SK_INT64, SK_OP_ADD, 0, 1);
    check_keys_run(SK_UINT64, SK_UINT32, SK_OP_MAX, 1, 0);
    check_keys_run(SK_INT32, SK_FLOAT32, SK_OP_MIN, 2, 1);
    check_keys_run(SK_UINT32, SK_UINT32, SK_OP_ADD, 2, 0);
    if (skt_cli_default_device_has_fp64()) check_keys_run(SK_FLOAT64, SK_INT32, SK_OP_XOR, 2, 1);
}

Test(bykey_cli, bad_keys_and_option_mixes_fail_with_no_output)
{
    const uint32_t data[4] = {1, 1, 2, 3}, keys[3] = {0, 0, 1};
    skt_cli_write_file("d.bin", data, sizeof data);
    skt_cli_write_file("k.bin", keys, sizeof keys);
    skt_cli_result r = SEGSCAN("d.bin", "--keys", "k.bin");
    skt_cli_expect_one_line_failure(&r, "segscan: ", "3 keys for 4 elements");
    skt_cli_free(&r);
    r = SEGSCAN("d.bin", "--keys", "d.bin", "--keys-out", "x.bin");
    skt_cli_expect_usage_error(&r); /* --keys-out without --reduce */
    skt_cli_free(&r);
    r = SEGSCAN("d.bin", "--keys", "d.bin", "--flags", "k.bin");
    skt_cli_expect_usage_error(&r);
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--counts-out", "c.bin", "--unique");
    skt_cli_expect_usage_error(&r);
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--rle", "--values", "k.bin");
    skt_cli_expect_usage_error(&r);
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--rle", "--counts-out", "d.bin");
    skt_cli_expect_failure(&r, "compact: ", 1, "input");
    skt_cli_free(&r);
    cr_assert(!skt_cli_file_exists("d.segscan.bin") && !skt_cli_file_exists("d.compact.bin") &&
                  !skt_cli_file_exists("x.bin") && !skt_cli_file_exists("c.bin"),
              "a failed run left an output");
}
