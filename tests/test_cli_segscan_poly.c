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
#include "skt_common.h"

#ifndef SKT_APP_DIR
#error "SKT_APP_DIR must name the directory of the built programs"
#endif

extern char **environ;

/* ---- per-test directories ---------------------------------------------------------- */

static char root_dir[4096]; /* captures live here         */
static char work_dir[4200]; /* current directory, outputs */

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *ent;
        while (d && (ent = readdir(d)) != NULL) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
            char child[4400];
            snprintf(child, sizeof child, "%s/%s", path, ent->d_name);
            remove_tree(child);
        }
        if (d) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void setup(void)
{
    skt_setup();
    const char *tmp = getenv("TMPDIR");
    snprintf(root_dir, sizeof root_dir, "%s/skt-segpoly-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(root_dir), "mkdtemp: %s", strerror(errno));
    snprintf(work_dir, sizeof work_dir, "%s/work", root_dir);
    cr_assert_eq(mkdir(work_dir, 0755), 0);
    cr_assert_eq(chdir(work_dir), 0);
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0) cr_skip_test("no OpenCL device");
}

static void teardown(void)
{
    if (chdir("/") == 0 && root_dir[0]) remove_tree(root_dir);
}

TestSuite(segscan_cli, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(polyeval_cli, .init = setup, .fini = teardown, .timeout = 120);

/* ---- files ----------------------------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, used = 0, k;
    unsigned char *buf = skt_malloc(cap + 1);
    while ((k = fread(buf + used, 1, cap - used, fp)) > 0) {
        used += k;
        if (used == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            cr_assert_not_null(buf);
        }
    }
    fclose(fp);
    buf[used] = 0;
    *len = used;
    return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp, "cannot create %s", path);
    cr_assert_eq(fwrite(data, 1, len, fp), len);
    cr_assert_eq(fclose(fp), 0);
}

/* A 1-D little-endian .npy v1.0 file. */
static void write_npy(const char *path, const char *descr, const void *data, size_t n,
                      size_t elem)
{
    char header[128];
    int len = snprintf(header, sizeof header,
                       "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }", descr, n);
    size_t padded = (10 + (size_t)len + 1 + 63) / 64 * 64;
    unsigned char *buf = skt_malloc(padded + n * elem);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((padded - 10) & 0xFF);
    buf[9] = (unsigned char)((padded - 10) >> 8);
    memcpy(buf + 10, header, (size_t)len);
    memset(buf + 10 + len, ' ', padded - 10 - (size_t)len - 1);
    buf[padded - 1] = '\n';
    memcpy(buf + padded, data, n * elem);
    write_file(path, buf, padded + n * elem);
    free(buf);
}

/* Compares a raw file, or the data of a .npy file, with `want`. */
static void expect_file(const char *path, int npy, const void *want, size_t bytes)
{
    size_t len = 0;
    unsigned char *got = slurp(path, &len), *data = got;
    if (npy) {
        cr_assert(len >= 10 && memcmp(got, "\x93NUMPY", 6) == 0, "%s is not a .npy file", path);
        size_t hl = 10 + (size_t)got[8] + ((size_t)got[9] << 8);
        data = got + hl;
        len -= hl;
    }
    cr_assert_eq(len, bytes, "%s holds %zu bytes of data, expected %zu", path, len, bytes);
    cr_assert_eq(memcmp(data, want, bytes), 0, "%s differs from the reference", path);
    free(got);
}

/* Number of entries in the current directory. */
static size_t entries(void)
{
    size_t n = 0;
    DIR *d = opendir(".");
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL) n += strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..");
    if (d) closedir(d);
    return n;
}

/* ---- running a program ---------------------------------------------------------------------- */

typedef struct run_result {
    int code;
    char *out, *err;
    size_t out_len;
} run_result;

static char **child_env(char *cache)
{
    size_t n = 0, k = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 2, sizeof *env);
    cr_assert_not_null(env);
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "SCANKIT_", 8) != 0 || !strncmp(environ[i], "SCANKIT_DEVICE=", 15))
            env[k++] = environ[i];
    env[k] = cache;
    return env;
}

/* Runs `tool` with args (NULL-terminated), stdin from stdin_path or /dev/null. */
static run_result run_tool(const char *tool, const char *stdin_path, const char *const *args)
{
    char out_path[4300], err_path[4300], prog[4200], cache[4300];
    char *argv[40];
    int argc = 0;
    snprintf(prog, sizeof prog, "%s/%s", SKT_APP_DIR, tool);
    argv[argc++] = prog;
    while (*args && argc < 39) argv[argc++] = (char *)*args++;
    argv[argc] = NULL;
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", root_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", root_dir);
    snprintf(cache, sizeof cache, "SCANKIT_CACHE_DIR=%s/cli-test-cache", SKT_BINARY_DIR);
    char **env = child_env(cache);
    posix_spawn_file_actions_t fa;
    cr_assert_eq(posix_spawn_file_actions_init(&fa), 0);
    posix_spawn_file_actions_addopen(&fa, 0, stdin_path ? stdin_path : "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int rc = posix_spawn(&pid, prog, &fa, NULL, argv, env);
    cr_assert_eq(rc, 0, "cannot start %s: %s", prog, strerror(rc));
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    run_result r;
    size_t err_len;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = (char *)slurp(out_path, &r.out_len);
    r.err = (char *)slurp(err_path, &err_len);
    return r;
}

#define SEGSCAN(...) run_tool("segscan", NULL, (const char *const[]){__VA_ARGS__, NULL})
#define POLYEVAL(...) run_tool("polyeval", NULL, (const char *const[]){__VA_ARGS__, NULL})

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

static void expect_ok(const run_result *r)
{
    cr_assert_eq(r->code, 0, "exit %d, stderr: %s", r->code, r->err);
}

/* The last line of stderr (a compiler may print diagnostics before it). */
static const char *last_line(const char *s)
{
    size_t len = strlen(s);
    while (len && s[len - 1] == '\n') len--;
    while (len && s[len - 1] != '\n') len--;
    return s + len;
}

static void expect_failure(const run_result *r, const char *tool, int code, const char *needle)
{
    cr_assert_eq(r->code, code, "expected exit %d, got %d; stderr: %s", code, r->code, r->err);
    const char *line = last_line(r->err);
    if (code == 1) {
        size_t tl = strlen(tool);
        cr_assert(!strncmp(line, tool, tl) && line[tl] == ':', "last line should start '%s: ': %s",
                  tool, r->err);
        cr_assert_not_null(strstr(line, needle), "last line should mention '%s': %s", needle,
                           r->err);
    } else {
        cr_assert_not_null(strstr(r->err, "usage:"), "no usage on stderr: %s", r->err);
        cr_assert_not_null(strstr(r->err, needle), "stderr should mention '%s': %s", needle,
                           r->err);
    }
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
    write_file("data.bin", data, sizeof data);
    write_file("heads.bin", flags, sizeof flags);
    skt_ref_heads_from_flags(flags, 1, N, heads);
    skt_ref_segscan(SK_UINT32, SK_OP_ADD, 0, data, want, heads, N);
    run_result r = SEGSCAN("data.bin", "--flags", "heads.bin");
    expect_ok(&r);
    expect_file("data.segscan.bin", 0, want, sizeof want);
    run_free(&r);
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
    write_npy("d.npy", "<i8", data, N, 8);
    write_npy("o.npy", "<u8", off, count, 8);
    skt_ref_heads_from_offsets(off, SK_UINT64, count, N, heads);
    skt_ref_segscan(SK_INT64, SK_OP_MAX, 1, data, want, heads, N);
    run_result r = SEGSCAN("d.npy", "--offsets", "o.npy", "--op", "max", "--exclusive");
    expect_ok(&r);
    expect_file("d.segscan.npy", 1, want, sizeof want);
    run_free(&r);
}

Test(segscan_cli, reduce_writes_one_total_per_segment)
{
    uint32_t data[N], want[N + 8], off[N + 8];
    unsigned char flags[N], heads[N];
    random_u32(data, N);
    random_heads(flags, N, 100);
    write_file("data.bin", data, sizeof data);
    write_npy("f.npy", "|u1", flags, N, 1);
    skt_ref_heads_from_flags(flags, 1, N, heads);
    size_t k = skt_ref_segreduce_heads(SK_UINT32, SK_OP_XOR, data, heads, N, want);
    run_result r = SEGSCAN("data.bin", "--flags", "f.npy", "--reduce", "--op", "xor");
    expect_ok(&r);
    expect_file("data.segreduce.bin", 0, want, k * 4);
    run_free(&r);

    /* raw uint32 offsets with empty segments: one total each, identity for empties */
    size_t count = 0;
    for (size_t i = 0; i < N; i += 1 + skt_rand_below(500)) {
        off[count++] = (uint32_t)i;
        if (skt_rand_below(3) == 0) off[count++] = (uint32_t)i;
    }
    off[count++] = N;
    write_file("off.bin", off, count * 4);
    skt_ref_segreduce_offsets(SK_UINT32, SK_OP_ADD, data, N, off, SK_UINT32, count, want);
    r = SEGSCAN("data.bin", "--offsets", "off.bin", "--reduce", "-o", "tot.bin");
    expect_ok(&r);
    expect_file("tot.bin", 0, want, count * 4);
    run_free(&r);
}

Test(segscan_cli, raw_uint64_offsets_and_stdin_to_stdout)
{
    float data[6] = {1, 2, 3, 4, 5, 6}, want[6] = {1, 3, 3, 4, 9, 15};
    uint64_t off[3] = {0, 2, 3};
    write_file("d.bin", data, sizeof data);
    write_file("o.bin", off, sizeof off);
    run_result r = run_tool("segscan", "d.bin",
                            (const char *const[]){"-", "--type", "float32", "--offsets", "o.bin",
                                                  "--offsets-type", "uint64", NULL});
    expect_ok(&r);
    cr_assert_eq(r.out_len, sizeof want);
    cr_assert_eq(memcmp(r.out, want, sizeof want), 0);
    run_free(&r);
    write_file("empty.bin", "", 0);
    r = SEGSCAN("empty.bin", "--flags", "empty.bin", "-o", "e.out");
    expect_ok(&r);
    expect_file("e.out", 0, "", 0);
    run_free(&r);
}

Test(segscan_cli, bad_segment_files_fail_with_one_line_and_leave_no_output)
{
    uint32_t data[8] = {0};
    unsigned char flags[7] = {1};
    write_file("d.bin", data, sizeof data);
    write_file("f.bin", flags, sizeof flags);
    static const struct { uint32_t off[3]; const char *needle; } bad[] = {
        {{0, 5, 3}, "not sorted"}, {{1, 3, 5}, "offsets[0]"}, {{0, 3, 9}, "above"}};
    run_result r = SEGSCAN("d.bin", "--flags", "f.bin");
    expect_failure(&r, "segscan", 1, "7 flags for 8 elements");
    cr_assert_eq(last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
    cr_assert_eq(entries(), 2, "an output was left behind");
    run_free(&r);
    for (size_t b = 0; b < 3; b++) {
        write_file("o.bin", bad[b].off, sizeof bad[b].off);
        r = SEGSCAN("d.bin", "--offsets", "o.bin", "-o", "out.bin");
        expect_failure(&r, "segscan", 1, bad[b].needle);
        cr_assert_eq(last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
        cr_assert_eq(entries(), 3, "an output was left behind");
        run_free(&r);
    }
    write_npy("f.npy", "<i8", data, 8, 8);
    r = SEGSCAN("d.bin", "--flags", "f.npy");
    expect_failure(&r, "segscan", 1, "flags must be uint8 or uint32");
    run_free(&r);
    write_file("odd.bin", data, 6);
    r = SEGSCAN("d.bin", "--offsets", "odd.bin");
    expect_failure(&r, "segscan", 1, "odd.bin");
    run_free(&r);
    cr_assert_eq(entries(), 5, "an output was left behind");
}

Test(segscan_cli, usage_errors_exit_2)
{
    write_file("d.bin", "\0\0\0\0", 4);
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
        run_result r = run_tool("segscan", NULL, cases[c]);
        expect_failure(&r, "segscan", 2, needles[c]);
        run_free(&r);
    }
    run_result r = SEGSCAN("--help");
    expect_ok(&r);
    cr_assert_not_null(strstr(r.out, "--offsets"));
    run_free(&r);
    r = SEGSCAN("--version");
    expect_ok(&r);
    cr_assert_not_null(strstr(r.out, sk_version_string()));
    run_free(&r);
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
    write_npy("c.npy", "<f8", a, 21, 8);
    double want[4] = {horner(a, 21, 0.5), horner(a, 21, -2), horner(a, 21, 1.5), a[0]};
    run_result r = POLYEVAL("c.npy", "--x", "0.5,-2,1.5,0");
    expect_printed(&r, want, 4);
    run_free(&r);
    r = POLYEVAL("c.npy", "--x", "-2");
    expect_printed(&r, want + 1, 1);
    run_free(&r);
    float f[6] = {1, -3, 3, -1, 0.5f, 2};
    write_file("c32.bin", f, sizeof f);
    double fa[6] = {1, -3, 3, -1, 0.5, 2}, fw[2] = {horner(fa, 6, 0.5), horner(fa, 6, -1)};
    r = POLYEVAL("c32.bin", "--x", "0.5,-1");
    expect_printed(&r, fw, 2);
    run_free(&r);
    r = POLYEVAL("c32.bin", "--x", "0.25", "-o", "v.npy");
    expect_ok(&r);
    float one = (float)horner(fa, 6, 0.25);
    expect_file("v.npy", 1, &one, 4);
    run_free(&r);
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
    write_file("c.bin", a, sizeof a);
    write_npy("x.npy", "<f8", x, NP, 8);
    run_result r = POLYEVAL("c.bin", "--type", "float64", "--points", "x.npy", "-o", "y.npy");
    expect_ok(&r);
    expect_file("y.npy", 1, want, sizeof want);
    run_free(&r);
    write_file("x.bin", x, sizeof x);
    r = POLYEVAL("c.bin", "-t", "f64", "--points", "x.bin", "-o", "y.bin");
    expect_ok(&r);
    expect_file("y.bin", 0, want, sizeof want);
    run_free(&r);
    r = POLYEVAL("c.bin", "-t", "f64", "--points", "x.bin");
    expect_printed(&r, want, NP);
    run_free(&r);
    r = POLYEVAL("c.bin", "-t", "f64", "--points", "x.bin", "-o", "-");
    expect_ok(&r);
    cr_assert_eq(r.out_len, sizeof want);
    cr_assert_eq(memcmp(r.out, want, sizeof want), 0);
    run_free(&r);
}

Test(polyeval_cli, empty_coefficients_give_zero)
{
    write_file("c.bin", "", 0);
    double zero[2] = {0, 0};
    run_result r = POLYEVAL("c.bin", "--x", "3,4");
    expect_printed(&r, zero, 2);
    run_free(&r);
}

Test(polyeval_cli, bad_inputs_exit_1_and_usage_errors_exit_2)
{
    int32_t ints[4] = {1, 2, 3, 4};
    double a[3] = {1, 2, 3};
    float xs[2] = {1, 2};
    write_npy("i.npy", "<i4", ints, 4, 4);
    write_npy("c.npy", "<f8", a, 3, 8);
    write_npy("x32.npy", "<f4", xs, 2, 4);
    write_file("odd.bin", a, 6);
    run_result r = POLYEVAL("i.npy", "--x", "1");
    expect_failure(&r, "polyeval", 1, "int32");
    run_free(&r);
    r = POLYEVAL("c.npy", "--points", "x32.npy", "-o", "y.npy");
    expect_failure(&r, "polyeval", 1, "x32.npy");
    cr_assert_eq(last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
    run_free(&r);
    r = POLYEVAL("odd.bin", "--x", "1");
    expect_failure(&r, "polyeval", 1, "odd.bin");
    run_free(&r);
    r = POLYEVAL("missing.bin", "--x", "1");
    expect_failure(&r, "polyeval", 1, "missing.bin");
    run_free(&r);
    cr_assert_eq(entries(), 4, "an output was left behind");
    static const char *const cases[][6] = {
        {"c.npy", NULL}, {"c.npy", "--x", "1", "--points", "x32.npy", NULL},
        {"c.npy", "--x", "1,,2", NULL}, {"c.npy", "--x", "abc", NULL},
        {"c.npy", "--x", "1", "--type", "int32", NULL}, {"--x", "1", NULL}};
    static const char *const needles[] = {"exactly one", "exactly one", "--x", "abc",
                                          "int32", "missing COEFFS"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        r = run_tool("polyeval", NULL, cases[c]);
        expect_failure(&r, "polyeval", 2, needles[c]);
        run_free(&r);
    }
    r = POLYEVAL("--help");
    expect_ok(&r);
    cr_assert_not_null(strstr(r.out, "--points"));
    run_free(&r);
}
