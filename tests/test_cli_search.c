/*
 * test_cli_search.c - the search program end to end.
 *
 * Each test runs in a fresh temporary directory (the current directory
 * while it runs), starts the built programs, and checks the indices search
 * writes against the serial reference of tests/ref/ref_search.c.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_search.h"
#include "ref/ref_sort.h"
#include "skt_cli.h"
#include "skt_common.h"

static void setup(void)
{
    skt_setup();
    skt_cli_dirs_open("skt-search");
    skt_cli_require_any_device();
}

static void teardown(void) { skt_cli_dirs_close(); }

TestSuite(search_cli, .init = setup, .fini = teardown, .timeout = 120);

#define SEARCH(...) skt_cli_run("search", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})

#define NH 3001
#define NN 1002

/* n random keys of t (skt_random_key: float specials among them), and
 * every third needle one of the haystack's keys. */
static unsigned char *random_keys(sk_type t, size_t n, const unsigned char *from, size_t nfrom)
{
    size_t ks = sk_type_size(t);
    unsigned char *p = skt_malloc(n * ks + 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = from && i % 3 == 0 ? skt_ref_key_raw(t, from, skt_rand_below(nfrom))
                                       : skt_random_key(t);
        skt_ref_put_key(t, p, i, v);
    }
    return p;
}

Test(search_cli, every_type_and_order_matches_the_reference_through_npy_files)
{
    for (int t = 0; t < SK_KEY_TYPE_COUNT; t++) { /* the 8- and 16-bit keys too */
        size_t ks = sk_type_size((sk_type)t);
        int desc = t % 2, upper = t / 2 % 2;
        unsigned char *hay = random_keys((sk_type)t, NH, NULL, 0);
        skt_ref_sort_keys((sk_type)t, hay, NH, desc);
        unsigned char *needles = random_keys((sk_type)t, NN, hay, NH);
        uint64_t *want = skt_malloc(NN * sizeof *want);
        skt_ref_search((sk_type)t, hay, NH, needles, NN, desc, upper, want);
        skt_cli_write_npy("hay.npy", skt_cli_types[t].descr, hay, NH, ks);
        skt_cli_write_npy("q.npy", skt_cli_types[t].descr, needles, NN, ks);
        const char *args[7] = {"hay.npy", "q.npy", "-o", "out.npy"};
        size_t k = 4;
        if (desc) args[k++] = "-r";
        if (upper) args[k++] = "--upper";
        args[k] = NULL;
        skt_cli_result r = skt_cli_run("search", NULL, NULL, args);
        skt_cli_expect_success(&r, skt_cli_describe("search", args));
        skt_cli_expect_file("out.npy", 1, want, NN * sizeof *want);
        skt_cli_free(&r);
        skt_free_all(hay, needles, want, NULL);
    }
}

/* The haystack radixsort writes: every needle's lower bound holds its key,
 * and upper - lower is its count (float32 keys with NaNs and signed
 * zeros); the outputs go beside the needles. */
Test(search_cli, radixsort_output_is_a_haystack)
{
    unsigned char *keys = random_keys(SK_FLOAT32, NH, NULL, 0);
    unsigned char *needles = random_keys(SK_FLOAT32, NN, keys, NH);
    skt_cli_write_file("keys.bin", keys, NH * 4);
    skt_cli_write_file("q.bin", needles, NN * 4);
    const char *const sort_args[] = {"keys.bin", "--type", "float32", NULL};
    skt_cli_result r = skt_cli_run("radixsort", NULL, NULL, sort_args);
    skt_cli_expect_success(&r, "radixsort keys.bin --type float32");
    skt_cli_free(&r);
    size_t len = 0;
    unsigned char *sorted = skt_cli_slurp("keys.sorted.bin", &len);
    cr_assert_eq(len, NH * 4);
    uint64_t *lower = skt_malloc(NN * 8), *upper = skt_malloc(NN * 8);
    skt_ref_search(SK_FLOAT32, sorted, NH, needles, NN, 0, 0, lower);
    skt_ref_search(SK_FLOAT32, sorted, NH, needles, NN, 0, 1, upper);
    r = SEARCH("keys.sorted.bin", "q.bin", "--type", "float32");
    skt_cli_expect_success(&r, "search keys.sorted.bin q.bin");
    skt_cli_expect_file("q.lower.bin", 0, lower, NN * 8);
    skt_cli_free(&r);
    r = SEARCH("keys.sorted.bin", "q.bin", "-t", "float32", "-u");
    skt_cli_expect_success(&r, "search keys.sorted.bin q.bin -u");
    skt_cli_expect_file("q.upper.bin", 0, upper, NN * 8);
    skt_cli_free(&r);
    for (size_t i = 0; i < NN; i++) {
        size_t copies = 0;
        for (size_t k = 0; k < NH; k++) copies += !memcmp(keys + 4 * k, needles + 4 * i, 4);
        cr_assert(upper[i] - lower[i] == copies &&
                      (!copies || !memcmp(sorted + 4 * lower[i], needles + 4 * i, 4)),
                  "needle %zu: bounds [%llu, %llu), %zu copies [seed %llu]", i,
                  (unsigned long long)lower[i], (unsigned long long)upper[i], copies,
                  (unsigned long long)skt_seed());
    }
    skt_free_all(keys, needles, sorted, lower, upper, NULL);
}

Test(search_cli, empty_needles_and_an_empty_haystack)
{
    const uint32_t hay[3] = {1, 5, 9}, needles[2] = {5, 0};
    skt_cli_write_file("hay.bin", hay, sizeof hay);
    skt_cli_write_file("none.bin", "", 0);
    skt_cli_write_file("q.bin", needles, sizeof needles);
    skt_cli_result r = SEARCH("hay.bin", "none.bin");
    skt_cli_expect_success(&r, "search hay.bin none.bin");
    skt_cli_expect_file("none.lower.bin", 0, "", 0);
    skt_cli_free(&r);
    const uint64_t zeros[2] = {0, 0};
    r = SEARCH("none.bin", "q.bin", "--upper");
    skt_cli_expect_success(&r, "search none.bin q.bin --upper");
    skt_cli_expect_file("q.upper.bin", 0, zeros, sizeof zeros);
    skt_cli_free(&r);
}

Test(search_cli, an_unsorted_haystack_or_keys_of_two_types_fail_with_no_output)
{
    const uint32_t unsorted[4] = {1, 7, 3, 9}, needles[2] = {5, 0};
    const int64_t wide[2] = {1, 2};
    skt_cli_write_file("hay.bin", unsorted, sizeof unsorted);
    skt_cli_write_file("q.bin", needles, sizeof needles);
    skt_cli_write_npy("hay.npy", skt_cli_types[SK_UINT32].descr, needles, 2, 4);
    skt_cli_write_npy("q64.npy", skt_cli_types[SK_INT64].descr, wide, 2, 8);
    skt_cli_result r = SEARCH("hay.bin", "q.bin");
    skt_cli_expect_one_line_failure(&r, "search: ", "hay.bin: not sorted in ascending order");
    skt_cli_free(&r);
    r = SEARCH("hay.bin", "q.bin", "--descending");
    skt_cli_expect_one_line_failure(&r, "search: ", "not sorted in descending order");
    skt_cli_free(&r);
    r = SEARCH("hay.npy", "q64.npy", "-o", "out.npy");
    skt_cli_expect_one_line_failure(&r, "search: ", "q64.npy: int64 elements where hay.npy");
    skt_cli_free(&r);
    r = SEARCH("hay.bin");
    skt_cli_expect_usage_error(&r);
    skt_cli_free(&r);
    cr_assert(!skt_cli_file_exists("q.lower.bin") && !skt_cli_file_exists("out.npy"),
              "a failed run left an output");
}
