/*
 * test_cli_topk.c - the topk program end to end.
 *
 * Each test runs in a fresh temporary directory (the current directory
 * while it runs), starts the built program, and checks what topk writes
 * against the serial reference of tests/ref/ref_topk.c.
 *
 * The program runs the library's default shape (the CPU shape on CPU
 * devices), whose top-k programs are one per key type and form (keys,
 * indices, 4- or 8-byte values). test_topk.c checks those kernels; here
 * each key type and option reaches them through the program, in a form
 * test_topk.c's plan (TOPK_PLAN) builds in the CPU shape, so that this
 * test, which runs in the sanitizer pass only, compiles few programs of
 * its own: --indices-out with the key types whose CPU-shape row has the
 * indices form (uint32, float64, int8, float16), keys alone with the
 * others (uint8 and int16, in no row of the plan, are this suite's: their
 * keys programs only), and --values with int32 keys and uint32 values.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_sort.h"
#include "ref/ref_topk.h"
#include "skt_cli.h"
#include "skt_common.h"

static void setup(void)
{
    skt_setup();
    skt_cli_dirs_open("skt-topk");
    skt_cli_require_any_device();
}

static void teardown(void) { skt_cli_dirs_close(); }

TestSuite(topk_cli, .init = setup, .fini = teardown, .timeout = 120);

#define N 2001

/* n keys of t: skt_random_key (float specials among them) or, for every
 * other type, few unique (ties at the k-th key). */
static unsigned char *random_keys(sk_type t, size_t n)
{
    uint64_t few[3] = {skt_random_key(t), skt_random_key(t), skt_random_key(t)};
    unsigned char *p = skt_malloc(n * sk_type_size(t) + 1);
    for (size_t i = 0; i < n; i++)
        skt_ref_put_key(t, p, i, t % 2 ? few[skt_rand_below(3)] : skt_random_key(t));
    return p;
}

/* Whether key type t runs with --indices-out: the types whose CPU-shape
 * row of test_topk.c's TOPK_PLAN has the indices form (see the top). */
static int with_indices(sk_type t)
{
    return t == SK_UINT32 || t == SK_FLOAT64 || t == SK_INT8 || t == SK_FLOAT16;
}

Test(topk_cli, every_type_and_order_matches_the_reference_through_npy_files)
{
    for (int t = 0; t < SK_KEY_TYPE_COUNT; t++) { /* the 8- and 16-bit keys too */
        size_t ks = sk_type_size((sk_type)t), k = 1 + skt_rand_below(N);
        int largest = t % 2, sorted = t / 2 % 2, indices = with_indices((sk_type)t);
        unsigned char *keys = random_keys((sk_type)t, N), *want = skt_malloc(k * ks);
        uint64_t *idx = skt_malloc(k * sizeof *idx);
        skt_ref_topk((sk_type)t, keys, N, k, largest, sorted, idx);
        for (size_t i = 0; i < k; i++) memcpy(want + i * ks, keys + idx[i] * ks, ks);
        skt_cli_write_npy("keys.npy", skt_cli_types[t].descr, keys, N, ks);
        char kt[32];
        snprintf(kt, sizeof kt, "%zu", k);
        const char *args[10] = {"keys.npy", "-k", kt};
        size_t a = 3;
        if (indices) args[a++] = "--indices-out", args[a++] = "idx.npy";
        if (largest) args[a++] = "--largest";
        if (sorted) args[a++] = "--sorted";
        args[a] = NULL;
        remove("idx.npy"); /* an earlier type's */
        skt_cli_result r = skt_cli_run("topk", NULL, NULL, args);
        skt_cli_expect_success(&r, skt_cli_describe("topk", args));
        skt_cli_expect_file("keys.topk.npy", 1, want, k * ks);
        if (indices) skt_cli_expect_file("idx.npy", 1, idx, k * sizeof *idx);
        else cr_assert(!skt_cli_file_exists("idx.npy"), "no --indices-out, yet idx.npy");
        skt_cli_free(&r);
        skt_free_all(keys, want, idx, NULL);
    }
}

/* Raw files, --type, values beside the keys: both outputs named after
 * their inputs; k = 0 writes empty files. */
Test(topk_cli, values_follow_their_keys_to_default_names)
{
    const int32_t keys[] = {4, -2, 9, -2, 0, 9, 7};
    const uint32_t vals[] = {40, 41, 42, 43, 44, 45, 46};
    skt_cli_write_file("k.bin", keys, sizeof keys);
    skt_cli_write_file("v.bin", vals, sizeof vals);
    const char *const args[] = {"k.bin", "--type", "int32", "-k", "3", "--largest", "--sorted",
                                "--values", "v.bin", "--values-type", "uint32", NULL};
    skt_cli_result r = skt_cli_run("topk", NULL, NULL, args);
    skt_cli_expect_success(&r, skt_cli_describe("topk", args));
    const int32_t wk[] = {9, 9, 7};
    const uint32_t wv[] = {42, 45, 46};
    skt_cli_expect_file("k.topk.bin", 0, wk, sizeof wk);
    skt_cli_expect_file("v.topk.bin", 0, wv, sizeof wv);
    skt_cli_free(&r);
    const char *const none[] = {"k.bin", "-t", "int32", "-k", "0", "-o", "empty.bin", NULL};
    r = skt_cli_run("topk", NULL, NULL, none);
    skt_cli_expect_success(&r, skt_cli_describe("topk", none));
    skt_cli_expect_file("empty.bin", 0, wk, 0);
    skt_cli_free(&r);
}

Test(topk_cli, refuses_bad_counts_and_option_mixes)
{
    const uint32_t keys[] = {3, 1, 2};
    skt_cli_write_file("k.bin", keys, sizeof keys);
    skt_cli_write_file("odd.bin", keys, 5);
    skt_cli_result r = skt_cli_run("topk", NULL, NULL, (const char *const[]){"k.bin", "-k", "4", NULL});
    skt_cli_expect_one_line_failure(&r, "topk: ", "-k 4 exceeds its 3 keys");
    skt_cli_free(&r);
    r = skt_cli_run("topk", NULL, NULL, (const char *const[]){"odd.bin", "-k", "1", NULL});
    skt_cli_expect_failure(&r, "topk: ", 1, "odd.bin");
    skt_cli_free(&r);
    r = skt_cli_run("topk", NULL, NULL, (const char *const[]){"k.bin", NULL});
    skt_cli_expect_failure(&r, "topk: ", 2, "-k K is required");
    skt_cli_free(&r);
    r = skt_cli_run("topk", NULL, NULL,
                    (const char *const[]){"k.bin", "-k", "1", "--values", "k.bin",
                                          "--indices-out", "i.bin", NULL});
    skt_cli_expect_failure(&r, "topk: ", 2, "do not go together");
    skt_cli_free(&r);
    cr_assert(!skt_cli_file_exists("k.topk.bin") && !skt_cli_file_exists("odd.topk.bin"),
              "a failed run left an output");
}
