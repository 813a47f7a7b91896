/*
 * test_cli_sort_runs.c - radixsort --memory: data larger than the device
 * memory it may use is sorted in runs that fit and merged on the device
 * (apps/sort_runs.c).
 *
 * Each case sorts the same file twice, in one piece and with a --memory
 * budget of a few KiB (so tens of runs and several merge levels), and
 * expects byte-identical outputs, both the stable sort of the input (the
 * serial reference of tests/ref/ref_sort.c, values being input indices),
 * and --time's device memory within the budget. The cases cover every key
 * type, keys and pairs (4- and 8-byte values), both orders and uniform,
 * few-unique (NaNs and signed zeros among floats), all-equal, sorted and
 * reversed keys, each value of each axis at least once and with both
 * orders; --bits across runs. Then the errors: a budget too small for one
 * key and its scratch, a bad --memory.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_sort.h"
#include "scankit.h"
#include "sk_rng.h"
#include "skt_cli.h"

#include <sys/stat.h>

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-sr");
    skt_cli_require_any_device();
}

static void cli_teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(sort_runs_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 300);

#define N 20000
#define BUDGET "48K"
#define BUDGET_BYTES (48u << 10)
#define HOST "104K"

enum dist { UNIFORM, FEW, EQUAL, SORTED, REVERSED };

/* (The type's name is held, not pointed to: Criterion passes the case to
 * another process.) */
typedef struct sr_case {
    char type[8];       /* --type */
    sk_type t;
    size_t vs;          /* value bytes; 0: keys alone */
    int descending;
    enum dist dist;
} sr_case;

static const sr_case CASES[] = {
    {"uint32", SK_UINT32, 0, 0, UNIFORM},  {"int32", SK_INT32, 4, 1, FEW},
    {"float32", SK_FLOAT32, 8, 0, FEW},    {"uint64", SK_UINT64, 0, 1, SORTED},
    {"int64", SK_INT64, 4, 0, REVERSED},   {"float64", SK_FLOAT64, 8, 1, EQUAL},
    {"uint32", SK_UINT32, 4, 0, EQUAL},    {"float32", SK_FLOAT32, 0, 1, UNIFORM},
    {"float64", SK_FLOAT64, 4, 0, FEW},    {"int32", SK_INT32, 8, 1, REVERSED},
};

/* Keys of `size` bytes: the few-unique ones include -0.0, +0.0 and a
 * negative NaN of the float type of that size. */
static unsigned char *make_keys(size_t size, enum dist d, uint64_t seed)
{
    unsigned char *k = malloc(N * size);
    uint64_t pool[6], s = seed;
    for (int i = 0; i < 6; i++) pool[i] = sk_splitmix64_next(&s);
    pool[0] = size == 4 ? 0x80000000u : 0x8000000000000000ull;
    pool[1] = 0;
    pool[2] = size == 4 ? 0xffc00001u : 0xfff8000000000001ull;
    for (size_t i = 0; i < N; i++) {
        uint64_t v = sk_splitmix64_next(&s);
        if (d == FEW) v = pool[v % 6];
        if (d == EQUAL) v = pool[3];
        if (d == SORTED) v = i * 977;
        if (d == REVERSED) v = (N - i) * 977;
        memcpy(k + i * size, &v, size);
    }
    return k;
}

static unsigned char *indices(size_t vs)
{
    unsigned char *v = malloc(N * vs);
    for (size_t i = 0; i < N; i++) {
        uint64_t x = i;
        memcpy(v + i * vs, &x, vs);
    }
    return v;
}

/* How a case sorts: in one piece, within --memory (the runs kept in host
 * memory), or within --host-memory as well (most runs written to a
 * temporary file in the directory "spill"). */
enum mode { WHOLE, RUNS, SPILLED };

/* radixsort k.bin --type T [--values v.bin --values-type U] [--descending]
 * -o OUT [--values-out VOUT] [--memory BUDGET --time [--host-memory HOST
 * --temp-dir spill]]. */
static skt_cli_result sort_file(const sr_case *c, const char *out, const char *vout,
                                enum mode budget)
{
    const char *args[SKT_CLI_MAX_ARGS];
    int n = 0;
    args[n++] = "k.bin", args[n++] = "--type", args[n++] = c->type;
    args[n++] = "-o", args[n++] = out;
    if (c->vs) {
        args[n++] = "--values", args[n++] = "v.bin", args[n++] = "--values-type";
        args[n++] = c->vs == 4 ? "uint32" : "uint64";
        args[n++] = "--values-out", args[n++] = vout;
    }
    if (c->descending) args[n++] = "--descending";
    if (budget) args[n++] = "--memory", args[n++] = BUDGET, args[n++] = "--time";
    if (budget == SPILLED)
        args[n++] = "--host-memory", args[n++] = HOST, args[n++] = "--temp-dir",
        args[n++] = "spill";
    args[n] = NULL;
    return skt_cli_run("radixsort", NULL, NULL, args);
}

/* The bytes --time reports ("device memory N bytes; R runs of M, S
 * spilled, ..."): within the budget, many runs, some spilled when
 * `spilled` and none otherwise. */
static void expect_within_budget(const char *err, int spilled)
{
    const char *p = strstr(err, "device memory ");
    cr_assert_not_null(p, "no device memory in --time: %s", err);
    unsigned long long bytes = 0, runs = 0, run = 0, spills = 0;
    cr_assert_eq(sscanf(p, "device memory %llu bytes; %llu runs of %llu, %llu spilled", &bytes,
                        &runs, &run, &spills), 4, "%s", p);
    cr_assert_leq(bytes, BUDGET_BYTES, "%llu device bytes over the budget", bytes);
    cr_assert_gt(runs, 4, "%llu runs: the budget should need many", runs);
    if (spilled)
        cr_assert(spills > 0 && spills < runs, "%llu of %llu runs spilled: want some", spills,
                  runs);
    else
        cr_assert_eq(spills, 0, "%llu runs spilled without a host budget", spills);
}

/* The temporary file's directory is empty again. */
static void expect_nothing_left(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s: %s", dir, strerror(errno));
    for (struct dirent *x; (x = readdir(d));)
        cr_assert(!strcmp(x->d_name, ".") || !strcmp(x->d_name, ".."), "%s/%s was left", dir,
                  x->d_name);
    closedir(d);
}

static void expect_same_file(const char *a, const char *b)
{
    size_t la, lb;
    unsigned char *x = skt_cli_slurp(a, &la), *y = skt_cli_slurp(b, &lb);
    cr_assert(la == lb && memcmp(x, y, la) == 0, "%s and %s differ", a, b);
    free(x);
    free(y);
}

/* The written keys (and values) are the stable sort of `in`. */
static void expect_stable_sort(const sr_case *c, const unsigned char *in)
{
    size_t ks = sk_type_size(c->t), len;
    size_t *perm = malloc(N * sizeof *perm);
    skt_ref_sort_perm(c->t, in, N, c->descending, 0, 8 * (unsigned)ks, perm);
    unsigned char *keys = skt_cli_slurp("runs.bin", &len), *vals = NULL;
    cr_assert_eq(len, N * ks);
    if (c->vs) vals = skt_cli_slurp("runs.v.bin", &len);
    for (size_t i = 0; i < N; i++) {
        cr_assert_eq(memcmp(keys + i * ks, in + perm[i] * ks, ks), 0, "key %zu differs", i);
        uint64_t v = 0;
        if (vals) memcpy(&v, vals + i * c->vs, c->vs);
        cr_assert(!vals || v == perm[i], "value %zu is %llu, want %zu", i,
                  (unsigned long long)v, perm[i]);
    }
    free(perm);
    free(keys);
    free(vals);
}

ParameterizedTestParameters(sort_runs_cli, should_equal_the_sort_in_one_piece)
{
    return cr_make_param_array(sr_case, CASES, sizeof CASES / sizeof CASES[0]);
}

ParameterizedTest(sr_case *c, sort_runs_cli, should_equal_the_sort_in_one_piece)
{
    cr_log_info("%s keys, %zu-byte values, %s, distribution %d", c->type, c->vs,
                c->descending ? "descending" : "ascending", (int)c->dist);
    size_t ks = sk_type_size(c->t);
    unsigned char *in = make_keys(ks, c->dist, 0x9e3779b97f4a7c15ull + (uint64_t)c->dist);
    skt_cli_write_file("k.bin", in, N * ks);
    if (c->vs) {
        unsigned char *v = indices(c->vs);
        skt_cli_write_file("v.bin", v, N * c->vs);
        free(v);
    }
    skt_cli_result whole = sort_file(c, "whole.bin", "whole.v.bin", WHOLE);
    skt_cli_expect_success(&whole, "radixsort in one piece");
    skt_cli_result runs = sort_file(c, "runs.bin", "runs.v.bin", RUNS);
    skt_cli_expect_success(&runs, "radixsort --memory " BUDGET);
    expect_within_budget(runs.err, 0);
    expect_same_file("whole.bin", "runs.bin");
    if (c->vs) expect_same_file("whole.v.bin", "runs.v.bin");
    expect_stable_sort(c, in);
    cr_assert_eq(mkdir("spill", 0700), 0, "mkdir spill: %s", strerror(errno));
    skt_cli_result spilled = sort_file(c, "runs.bin", "runs.v.bin", SPILLED);
    skt_cli_expect_success(&spilled, "radixsort --memory " BUDGET " --host-memory " HOST);
    expect_within_budget(spilled.err, 1);
    expect_same_file("whole.bin", "runs.bin");
    if (c->vs) expect_same_file("whole.v.bin", "runs.v.bin");
    expect_nothing_left("spill");
    skt_cli_free(&whole);
    skt_cli_free(&runs);
    skt_cli_free(&spilled);
    free(in);
}

Test(sort_runs_cli, should_refuse_a_budget_too_small_for_one_key)
{
    unsigned char *in = make_keys(8, UNIFORM, 3);
    skt_cli_write_file("k.bin", in, N * 8);
    skt_cli_result r = skt_cli_runl(NULL, "radixsort", "k.bin", "--type", "uint64",
                                    "--memory", "16", "-o", "out.bin", (const char *)NULL);
    skt_cli_expect_one_line_failure(&r, "radixsort: ", "--memory 16 is too small");
    cr_assert(!skt_cli_file_exists("out.bin"), "an output was left");
    skt_cli_free(&r);
    free(in);
}

/* --bits orders the runs and their merge by those bits alone: the same
 * output as the sort in one piece, stable among keys equal there. */
Test(sort_runs_cli, should_sort_by_bits_across_runs_as_in_one_piece)
{
    unsigned char *in = make_keys(4, UNIFORM, 4);
    skt_cli_write_file("k.bin", in, N * 4);
    skt_cli_result r = skt_cli_runl(NULL, "radixsort", "k.bin", "--bits", "4:16", "--memory",
                                    BUDGET, "--time", "-o", "runs.bin", (const char *)NULL);
    skt_cli_expect_success(&r, "radixsort --bits 4:16 --memory " BUDGET);
    expect_within_budget(r.err, 0);
    skt_cli_free(&r);
    r = skt_cli_runl(NULL, "radixsort", "k.bin", "--bits", "4:16", "-o", "whole.bin",
                     (const char *)NULL);
    skt_cli_expect_success(&r, "radixsort --bits 4:16");
    skt_cli_free(&r);
    expect_same_file("whole.bin", "runs.bin");
    size_t *perm = malloc(N * sizeof *perm), len;
    skt_ref_sort_perm(SK_UINT32, in, N, 0, 4, 16, perm);
    unsigned char *out = skt_cli_slurp("runs.bin", &len);
    cr_assert_eq(len, (size_t)N * 4);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(memcmp(out + i * 4, in + perm[i] * 4, 4), 0, "key %zu differs", i);
    free(out);
    free(perm);
    free(in);
}

/* A temporary directory that cannot hold the spilled runs (missing, or a
 * file): one line naming it, exit 1, nothing left. */
Test(sort_runs_cli, should_fail_cleanly_where_runs_cannot_spill)
{
    unsigned char *in = make_keys(4, UNIFORM, 5);
    skt_cli_write_file("k.bin", in, N * 4);
    skt_cli_write_file("afile", "x", 1);
    static const char *const dirs[] = {"nosuch", "afile"};
    for (size_t i = 0; i < 2; i++) {
        skt_cli_result r = skt_cli_runl(NULL, "radixsort", "k.bin", "--memory", BUDGET,
                                        "--host-memory", HOST, "--temp-dir", dirs[i], "-o",
                                        "out.bin", (const char *)NULL);
        char want[128];
        snprintf(want, sizeof want, "cannot make a temporary file in %s", dirs[i]);
        skt_cli_expect_one_line_failure(&r, "radixsort: ", want);
        cr_assert(!skt_cli_file_exists("out.bin"), "an output was left");
        skt_cli_free(&r);
    }
    free(in);
}

Test(sort_runs_cli, should_reject_a_bad_memory_size)
{
    static const char *const bad[] = {"0", "12Q", "-5", ""};
    skt_cli_write_file("k.bin", "\1\0\0\0", 4);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        skt_cli_result r = skt_cli_runl(NULL, "radixsort", "k.bin", "--memory", bad[i],
                                        (const char *)NULL);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
}
