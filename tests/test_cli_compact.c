/*
 * test_cli_compact.c - the compact program end to end.
 *
 * Each test runs in a fresh temporary directory (the current directory while
 * it runs), starts the built program with posix_spawn, captures stdout and
 * stderr into files beside that directory, and checks the outputs against
 * the serial references of tests/ref/ref_compact.c. Children get
 * SCANKIT_CACHE_DIR pointing into the build tree, so kernels compile once.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ref/ref_compact.h"
#include "skt_cli.h"
#include "skt_common.h"

#ifndef SKT_APP_DIR
#error "SKT_APP_DIR must name the directory of the built programs"
#endif

extern char **environ;

/* ---- per-test directories ------------------------------------------------------ */

static void setup(void)
{
    skt_setup();
    skt_cli_dirs_open("skt-compact");
    skt_cli_require_any_device();
}

static void teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(compact_cli, .init = setup, .fini = teardown, .timeout = 120);

/* ---- running the program ------------------------------------------------------------ */

typedef skt_cli_result run_result;

#define COMPACT(...) skt_cli_run("compact", NULL, NULL, (const char *const[]){__VA_ARGS__, NULL})

static void expect_selected(const run_result *r, size_t k, size_t n)
{
    cr_assert_eq(r->code, 0, "exit %d, stderr: %s", r->code, r->err);
    char want[96];
    snprintf(want, sizeof want, "selected %zu of %zu\n", k, n);
    cr_assert_not_null(strstr(r->err, want), "stderr should say '%s': %s", want, r->err);
}

static void expect_failure(const run_result *r, int code, const char *needle)
{
    skt_cli_expect_failure(r, "compact: ", code, needle);
}

/* ---- data ------------------------------------------------------------------------------ */

#define N 5003

/* n random elements of t, about half of them kept by SKT_PRED_HALF, with
 * runs of repeats. */
static unsigned char *make_data(sk_type t, size_t n)
{
    size_t es = skt_ref_type_size(t);
    unsigned char *p = skt_malloc(n * es + 1);
    for (size_t i = 0; i < n; i++) {
        if (i && skt_rand_below(4) == 0) {
            memcpy(p + i * es, p + (i - 1) * es, es);
        } else if (t == SK_FLOAT32) {
            float f = (float)skt_rand_unit();
            memcpy(p + i * 4, &f, 4);
        } else if (t == SK_FLOAT64) {
            double d = skt_rand_unit();
            memcpy(p + i * 8, &d, 8);
        } else {
            uint64_t v = skt_rand();
            memcpy(p + i * es, &v, es);
        }
    }
    return p;
}

/* ---- tests ----------------------------------------------------------------------------- */

Test(compact_cli, select_if_writes_the_kept_elements_beside_a_raw_input)
{
    unsigned char *data = make_data(SK_UINT32, N), *want = skt_malloc(N * 4);
    unsigned char keep[N];
    skt_cli_write_file("data.bin", data, N * 4);
    skt_ref_pred_mask(SK_UINT32, SKT_PRED_HALF, data, N, keep);
    size_t k = skt_ref_select(data, keep, N, 4, want);
    run_result r = COMPACT("data.bin", "--if", "(x & 1) != 0");
    expect_selected(&r, k, N);
    skt_cli_expect_file("data.compact.bin", 0, want, k * 4);
    skt_cli_free(&r);
    free(data);
    free(want);
}

Test(compact_cli, every_mode_matches_the_reference_for_every_type_through_npy_files)
{
    static const char *const modes[] = {"--if", "--partition", "--unique", "--flags"};
    unsigned char keep[N], flags[N];
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
        size_t es = skt_ref_type_size((sk_type)t);
        unsigned char *data = make_data((sk_type)t, N), *want = skt_malloc(N * es);
        skt_cli_write_npy("in.npy", skt_cli_types[t].descr, data, N, es);
        for (size_t i = 0; i < N; i++) flags[i] = (unsigned char)(skt_rand_below(3) == 0 ? 0 : skt_rand());
        skt_cli_write_npy("flags.npy", "|u1", flags, N, 1);
        for (size_t m = 0; m < 4; m++) {
            const char *arg = m == 3 ? "flags.npy" : skt_ref_pred_text((sk_type)t, SKT_PRED_HALF);
            if (m == 2) skt_ref_unique_mask((sk_type)t, data, N, keep);
            else if (m == 3) skt_ref_flag_mask(flags, 1, N, keep);
            else skt_ref_pred_mask((sk_type)t, SKT_PRED_HALF, data, N, keep);
            size_t k = m == 1 ? skt_ref_partition(data, keep, N, es, want)
                              : skt_ref_select(data, keep, N, es, want);
            run_result r = m == 2 ? COMPACT("in.npy", "--unique", "-o", "out.npy")
                                  : COMPACT("in.npy", modes[m], arg, "-o", "out.npy");
            expect_selected(&r, k, N);
            skt_cli_expect_file("out.npy", 1, want, (m == 1 ? N : k) * es);
            skt_cli_free(&r);
        }
        free(data);
        free(want);
    }
}

Test(compact_cli, uint32_flags_and_values_are_carried)
{
    unsigned char *data = make_data(SK_INT64, N), *vals = make_data(SK_UINT64, N);
    unsigned char *want = skt_malloc(N * 8), *vwant = skt_malloc(N * 8), keep[N];
    uint32_t flags[N];
    for (size_t i = 0; i < N; i++) flags[i] = skt_rand_below(2) ? 0x100u : 0u;
    skt_cli_write_file("k.bin", data, N * 8);
    skt_cli_write_file("v.bin", vals, N * 8);
    skt_cli_write_npy("f.npy", "<u4", flags, N, 4);
    skt_ref_flag_mask(flags, 4, N, keep);
    size_t k = skt_ref_select(data, keep, N, 8, want);
    run_result r = COMPACT("k.bin", "--type", "int64", "--flags", "f.npy", "-o", "kf.bin");
    expect_selected(&r, k, N);
    skt_cli_expect_file("kf.bin", 0, want, k * 8);
    skt_cli_free(&r);
    skt_ref_select(vals, keep, N, 8, vwant);
    r = COMPACT("k.bin", "--type", "int64", "--flags", "f.npy", "-o", "kf.bin", "--values",
                "v.bin", "--values-type", "int64", "--values-out", "vf.bin");
    expect_selected(&r, k, N);
    skt_cli_expect_file("kf.bin", 0, want, k * 8);
    skt_cli_expect_file("vf.bin", 0, vwant, k * 8);
    skt_cli_free(&r);

    skt_ref_pred_mask(SK_INT64, SKT_PRED_HALF, data, N, keep);
    k = skt_ref_select(data, keep, N, 8, want);
    skt_ref_select(vals, keep, N, 8, vwant);
    r = COMPACT("k.bin", "-t", "int64", "--if", "(x & 1) != 0", "--values", "v.bin",
                "--values-type", "uint64");
    expect_selected(&r, k, N);
    skt_cli_expect_file("k.compact.bin", 0, want, k * 8);
    skt_cli_expect_file("v.compact.bin", 0, vwant, k * 8);
    skt_cli_free(&r);
    free(data);
    free(vals);
    free(want);
    free(vwant);
}

/* A partition with index values: where each value lands shows the
 * order. `reversed`: --partition-reversed (the rejected from the last to
 * the first) on int64 keys with raw uint32 values, else --partition on
 * float32 keys with .npy uint64 values. */
static void check_partition_values(int reversed)
{
    sk_type kt = reversed ? SK_INT64 : SK_FLOAT32;
    size_t ks = reversed ? 8 : 4, vs = reversed ? 4 : 8;
    size_t (*ref)(const void *, const unsigned char *, size_t, size_t, void *) =
        reversed ? skt_ref_partition_reversed : skt_ref_partition;
    const char *vin = reversed ? "idx.bin" : "idx.npy", *vout = reversed ? "pidx.bin" : "pidx.npy";
    unsigned char *data = make_data(kt, N), *want = skt_malloc(N * ks);
    unsigned char *vals = skt_malloc(N * vs), *vwant = skt_malloc(N * vs), keep[N];
    skt_ref_indices(N, vs, vals);
    skt_cli_write_file("k.bin", data, N * ks);
    if (reversed) skt_cli_write_file(vin, vals, N * vs);
    else skt_cli_write_npy(vin, "<u8", vals, N, vs);
    skt_ref_pred_mask(kt, SKT_PRED_HALF, data, N, keep);
    size_t k = ref(data, keep, N, ks, want);
    ref(vals, keep, N, vs, vwant);
    run_result r = COMPACT("k.bin", "-t", reversed ? "int64" : "float32",
                           reversed ? "--partition-reversed" : "--partition",
                           skt_ref_pred_text(kt, SKT_PRED_HALF), "--values", vin, "-o", "p.bin",
                           "--values-out", vout);
    expect_selected(&r, k, N);
    skt_cli_expect_file("p.bin", 0, want, N * ks);
    skt_cli_expect_file(vout, !reversed, vwant, N * vs);
    skt_cli_free(&r);
    free(data);
    free(want);
    free(vals);
    free(vwant);
}

Test(compact_cli, values_follow_the_keys_through_a_partition)
{
    check_partition_values(0);
}

Test(compact_cli, values_follow_the_keys_through_a_reversed_partition)
{
    check_partition_values(1);
}

Test(compact_cli, unique_keeps_the_value_of_the_first_of_each_run)
{
    unsigned char *data = make_data(SK_INT64, N), *want = skt_malloc(N * 8);
    unsigned char *vals = skt_malloc(N * 4), *vwant = skt_malloc(N * 4), keep[N];
    skt_ref_indices(N, 4, vals);
    skt_cli_write_npy("k.npy", "<i8", data, N, 8);
    skt_cli_write_file("idx.bin", vals, N * 4);
    skt_ref_unique_mask(SK_INT64, data, N, keep);
    size_t k = skt_ref_select(data, keep, N, 8, want);
    skt_ref_select(vals, keep, N, 4, vwant);
    cr_assert_lt(k, N, "the data should hold runs");
    run_result r = COMPACT("k.npy", "--unique", "--values", "idx.bin", "--values-type",
                           "uint32");
    expect_selected(&r, k, N);
    skt_cli_expect_file("k.compact.npy", 1, want, k * 8);
    skt_cli_expect_file("idx.compact.bin", 0, vwant, k * 4);
    skt_cli_free(&r);
    free(data);
    free(want);
    free(vals);
    free(vwant);
}

/* In every mode a values file of another length is one line, exit 1, and
 * nothing written. */
Test(compact_cli, values_of_the_wrong_length_fail_in_every_mode_with_no_output)
{
    uint32_t data[8] = {3, 3, 1, 2, 2, 2, 9, 4}, vals[9] = {0};
    unsigned char flags[8] = {1, 0, 1, 1, 0, 0, 1, 0};
    skt_cli_write_file("d.bin", data, sizeof data);
    skt_cli_write_file("f.bin", flags, sizeof flags);
    skt_cli_write_file("v9.bin", vals, sizeof vals);
    skt_cli_write_file("v7.bin", vals, 7 * 4);
    const char *const modes[][2] = {
        {"--if", "x > 2u"}, {"--flags", "f.bin"}, {"--partition", "x > 2u"}, {"--unique", NULL},
    };
    for (size_t m = 0; m < 4; m++) {
        for (int longer = 0; longer <= 1; longer++) {
            const char *v = longer ? "v9.bin" : "v7.bin";
            const char *arg = modes[m][1];
            run_result r = arg ? COMPACT("d.bin", modes[m][0], arg, "--values", v)
                               : COMPACT("d.bin", modes[m][0], "--values", v);
            expect_failure(&r, 1, longer ? "9 values for 8" : "7 values for 8");
            cr_assert_eq(skt_cli_last_line(r.err), r.err, "%s: more than one line on stderr: %s",
                         modes[m][0], r.err);
            cr_assert_eq(r.out_len, 0, "%s: wrote to stdout", modes[m][0]);
            cr_assert_eq(skt_cli_entries(), 4, "%s: an output was left behind", modes[m][0]);
            skt_cli_free(&r);
        }
    }
}

Test(compact_cli, stdin_goes_to_stdout_and_empty_input_gives_empty_output)
{
    uint32_t data[6] = {5, 5, 7, 7, 7, 1}, want[3] = {5, 7, 1};
    skt_cli_write_file("in.bin", data, sizeof data);
    run_result r =
        skt_cli_run("compact", "in.bin", NULL, (const char *const[]){"-", "--unique", NULL});
    expect_selected(&r, 3, 6);
    cr_assert_eq(r.out_len, sizeof want);
    cr_assert_eq(memcmp(r.out, want, sizeof want), 0);
    skt_cli_free(&r);
    skt_cli_write_file("empty.bin", "", 0);
    r = COMPACT("empty.bin", "--if", "x > 3u");
    expect_selected(&r, 0, 0);
    skt_cli_expect_file("empty.compact.bin", 0, "", 0);
    skt_cli_free(&r);
}

Test(compact_cli, flags_of_the_wrong_length_fail_with_one_line_and_no_output)
{
    uint32_t data[8] = {0};
    unsigned char flags[7] = {1};
    skt_cli_write_file("d.bin", data, sizeof data);
    skt_cli_write_file("f.bin", flags, sizeof flags);
    run_result r = COMPACT("d.bin", "--flags", "f.bin");
    expect_failure(&r, 1, "7 flags for 8 elements");
    cr_assert_eq(skt_cli_last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
    cr_assert_eq(skt_cli_entries(), 2, "an output was left behind");
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--if", "1", "--values", "f.bin", "--values-type", "uint8");
    expect_failure(&r, 2, "--values-type");
    skt_cli_free(&r);
    skt_cli_write_file("v.bin", data, 4 * 7);
    r = COMPACT("d.bin", "--if", "1", "--values", "v.bin");
    expect_failure(&r, 1, "7 values for 8 elements");
    skt_cli_free(&r);
}

Test(compact_cli, a_malformed_expression_fails_cleanly)
{
    uint32_t data[4] = {1, 2, 3, 4};
    skt_cli_write_file("d.bin", data, sizeof data);
    run_result r = COMPACT("d.bin", "--if", "x +* (");
    expect_failure(&r, 1, "does not compile");
    cr_assert(!skt_cli_file_exists("d.compact.bin"), "an output was left behind");
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--partition", "x % 3 == 0", "-t", "float32");
    expect_failure(&r, 1, "does not compile");
    skt_cli_free(&r);
}

/* 100 KB of expression: refused by its length, in one line naming the
 * limit, before any compiler sees it; nothing left in the directory. */
Test(compact_cli, an_expression_over_the_length_limit_is_one_line_and_leaves_nothing)
{
    uint32_t data[4] = {1, 2, 3, 4};
    skt_cli_write_file("d.bin", data, sizeof data);
    size_t terms = 25000, len = 1 + terms * 4 + 4;
    char *expr = skt_malloc(len + 1);
    strcpy(expr, "x");
    for (size_t i = 0; i < terms; i++) strcat(expr + 1 + 4 * i, " + 1");
    strcat(expr, " > 0");
    size_t before = skt_cli_entries();
    run_result r = COMPACT("d.bin", "--if", expr, "-o", "kept.bin");
    expect_failure(&r, 1, "longer than 65536 bytes");
    cr_assert_eq(skt_cli_entries(), before, "the failed run left files:\n%s",
                 skt_cli_listing("."));
    skt_cli_free(&r);
    free(expr);
}

/* A compiler reason after a long expression is not cut off: the echoed
 * expression is shortened instead. */
Test(compact_cli, a_long_expression_that_does_not_compile_keeps_the_compilers_reason)
{
    uint32_t data[4] = {1, 2, 3, 4};
    skt_cli_write_file("d.bin", data, sizeof data);
    size_t pad = 2000;
    char *expr = skt_malloc(pad + 64);
    memset(expr, ' ', pad);
    strcpy(expr + pad, "x > no_such_name_anywhere");
    run_result r = COMPACT("d.bin", "--if", expr);
    expect_failure(&r, 1, "no_such_name_anywhere");
    cr_assert(strstr(skt_cli_last_line(r.err), "does not compile"), "%s", r.err);
    skt_cli_free(&r);
    free(expr);
}

Test(compact_cli, bad_input_files_fail_with_exit_1)
{
    skt_cli_write_file("odd.bin", "12345", 5);
    run_result r = COMPACT("odd.bin", "--unique");
    expect_failure(&r, 1, "odd.bin");
    skt_cli_free(&r);
    r = COMPACT("missing.bin", "--unique");
    expect_failure(&r, 1, "missing.bin");
    skt_cli_free(&r);
}

Test(compact_cli, usage_errors_exit_2)
{
    skt_cli_write_file("d.bin", "1234", 4);
    run_result r = COMPACT("d.bin");
    expect_failure(&r, 2, "one of");
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--unique", "--if", "1");
    expect_failure(&r, 2, "exactly one");
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--unique", "--values-out", "v.bin");
    expect_failure(&r, 2, "need --values");
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--unique", "--type", "uint8");
    expect_failure(&r, 2, "--type");
    skt_cli_free(&r);
    r = COMPACT("d.bin", "--bogus");
    expect_failure(&r, 2, "bogus");
    skt_cli_free(&r);
    r = COMPACT("--if", "1");
    expect_failure(&r, 2, "missing INPUT");
    skt_cli_free(&r);
    cr_assert(!skt_cli_file_exists("d.compact.bin"));
}

Test(compact_cli, help_and_version_exit_0)
{
    run_result r = COMPACT("--help");
    cr_assert_eq(r.code, 0);
    cr_assert_not_null(strstr(r.out, "--partition"));
    cr_assert_not_null(strstr(r.out, "in every mode"), "--values: every mode");
    skt_cli_free(&r);
    r = COMPACT("--version");
    cr_assert_eq(r.code, 0);
    cr_assert_not_null(strstr(r.out, sk_version_string()));
    skt_cli_free(&r);
}
