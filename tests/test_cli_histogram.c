/*
 * test_cli_histogram.c - the histogram program end to end.
 *
 * Each test runs in a fresh temporary directory (the current directory
 * while it runs), starts the built program, and checks the counts it
 * writes against the serial reference of tests/ref/ref_histogram.c.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_histogram.h"
#include "skt_cli.h"
#include "skt_common.h"

static void setup(void)
{
    skt_setup();
    skt_cli_dirs_open("skt-histogram");
    skt_cli_require_any_device();
}

static void teardown(void) { skt_cli_dirs_close(); }

TestSuite(histogram_cli, .init = setup, .fini = teardown, .timeout = 120);

#define HISTOGRAM(...) \
    skt_cli_run("histogram", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})

#define N 5003

static void expect_counted(const skt_cli_result *r, const uint64_t *counts, size_t bins,
                           size_t n)
{
    size_t k = 0;
    for (size_t b = 0; b < bins; b++) k += (size_t)counts[b];
    cr_assert_eq(r->code, 0, "exit %d, stderr: %s", r->code, r->err);
    char want[96];
    snprintf(want, sizeof want, "counted %zu of %zu\n", k, n);
    cr_assert_not_null(strstr(r->err, want), "stderr should say '%s': %s", want, r->err);
}

/* n random elements of t: floats in [-1, 2), integers over the type. */
static unsigned char *make_data(sk_type t, size_t n)
{
    size_t es = skt_ref_type_size(t);
    unsigned char *p = skt_malloc(n * es + 1);
    for (size_t i = 0; i < n; i++) {
        if (t == SK_FLOAT32) {
            float f = (float)(skt_rand_unit() * 3 - 1);
            memcpy(p + i * 4, &f, 4);
        } else if (t == SK_FLOAT64) {
            double d = skt_rand_unit() * 3 - 1;
            memcpy(p + i * 8, &d, 8);
        } else {
            uint64_t v = skt_rand();
            memcpy(p + i * es, &v, es);
        }
    }
    return p;
}

Test(histogram_cli, equal_bins_of_a_raw_input_go_beside_it)
{
    unsigned char *data = make_data(SK_UINT32, N);
    uint64_t want[10];
    skt_cli_write_file("data.bin", data, N * 4);
    skt_ref_histogram_even(SK_UINT32, data, N, 1000, 3000000000.0, 10, want);
    skt_cli_result r = HISTOGRAM("data.bin", "--bins", "10", "--range", "1000:3000000000");
    expect_counted(&r, want, 10, N);
    skt_cli_expect_file("data.hist.bin", 0, want, sizeof want);
    skt_cli_free(&r);
    free(data);
}

Test(histogram_cli, every_type_matches_the_reference_through_npy_files_and_in_chunks)
{
    static const char *const ranges[SK_TYPE_COUNT] = {
        [SK_INT32] = "-1000000000:1000000000", [SK_UINT32] = "0:4000000000",
        [SK_INT64] = "-4611686018427387904:4611686018427387904",
        [SK_UINT64] = "0:9223372036854775808", [SK_FLOAT32] = "-0.5:1.5",
        [SK_FLOAT64] = "-0.5:1.5"};
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        if (t == SK_FLOAT64 && !skt_cli_default_device_has_fp64()) continue;
        size_t es = skt_ref_type_size((sk_type)t);
        unsigned char *data = make_data((sk_type)t, N);
        uint64_t want[7];
        const char *colon = strchr(ranges[t], ':');
        double lo = strtod(ranges[t], NULL), hi = strtod(colon + 1, NULL);
        skt_cli_write_npy("in.npy", skt_cli_types[t].descr, data, N, es);
        skt_ref_histogram_even((sk_type)t, data, N, lo, hi, 7, want);
        skt_cli_result r = HISTOGRAM("in.npy", "--bins", "7", "--range", ranges[t]);
        expect_counted(&r, want, 7, N);
        skt_cli_expect_file("in.hist.npy", 1, want, sizeof want);
        skt_cli_free(&r);
        r = HISTOGRAM("in.npy", "--bins", "7", "--range", ranges[t], "--memory", "16K", "-o",
                      "chunked.npy");
        expect_counted(&r, want, 7, N);
        skt_cli_expect_file("chunked.npy", 1, want, sizeof want);
        skt_cli_free(&r);
        free(data);
    }
}

Test(histogram_cli, edges_from_a_file_of_the_input_type)
{
    unsigned char *data = make_data(SK_FLOAT32, N);
    const float edges[5] = {-1.0f, 0.0f, 0.25f, 0.25f, 1.0f};
    uint64_t want[4];
    skt_cli_write_npy("x.npy", skt_cli_types[SK_FLOAT32].descr, data, N, 4);
    skt_cli_write_npy("edges.npy", skt_cli_types[SK_FLOAT32].descr, edges, 5, 4);
    skt_ref_histogram_edges(SK_FLOAT32, data, N, edges, 4, want);
    skt_cli_result r = HISTOGRAM("x.npy", "--edges", "edges.npy", "-o", "counts.npy");
    expect_counted(&r, want, 4, N);
    skt_cli_expect_file("counts.npy", 1, want, sizeof want);
    skt_cli_free(&r);
    free(data);
}

Test(histogram_cli, bad_bins_and_edges_fail_with_no_output)
{
    const uint32_t data[4] = {1, 2, 3, 4}, unsorted[3] = {0, 5, 2};
    skt_cli_write_file("data.bin", data, sizeof data);
    skt_cli_write_file("edges.bin", unsorted, sizeof unsorted);
    skt_cli_result r = HISTOGRAM("data.bin", "--bins", "4");
    skt_cli_expect_usage_error(&r); /* --range missing */
    skt_cli_free(&r);
    r = HISTOGRAM("data.bin", "--bins", "4", "--range", "5:1");
    skt_cli_expect_usage_error(&r);
    skt_cli_free(&r);
    r = HISTOGRAM("data.bin", "--bins", "4", "--range", "0.5:10");
    skt_cli_expect_one_line_failure(&r, "histogram: ", "whole numbers");
    skt_cli_free(&r);
    r = HISTOGRAM("data.bin", "--edges", "edges.bin");
    skt_cli_expect_one_line_failure(&r, "histogram: ", "edges[2]");
    skt_cli_free(&r);
    cr_assert(!skt_cli_file_exists("data.hist.bin"), "a failed run left an output");
}
