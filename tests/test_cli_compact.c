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
#include "skt_common.h"

#ifndef SKT_APP_DIR
#error "SKT_APP_DIR must name the directory of the built programs"
#endif

extern char **environ;

/* ---- per-test directories ------------------------------------------------------ */

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
            if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) continue;
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
    snprintf(root_dir, sizeof root_dir, "%s/skt-compact-XXXXXX", tmp && *tmp ? tmp : "/tmp");
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

TestSuite(compact_cli, .init = setup, .fini = teardown, .timeout = 120);

/* ---- files ------------------------------------------------------------------------ */

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
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
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

/* The data part of a .npy file (its header length from bytes 8-9). */
static unsigned char *npy_data(const unsigned char *file, size_t len, size_t *data_len)
{
    cr_assert(len >= 10 && memcmp(file, "\x93NUMPY", 6) == 0, "not a .npy file");
    size_t hl = 10 + (size_t)file[8] + ((size_t)file[9] << 8);
    *data_len = len - hl;
    return (unsigned char *)file + hl;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Number of entries in the current directory. */
static size_t entries(void)
{
    size_t n = 0;
    DIR *d = opendir(".");
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL)
        n += strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0;
    if (d) closedir(d);
    return n;
}

/* ---- running the program ------------------------------------------------------------ */

typedef struct run_result {
    int code;
    char *out, *err;
    size_t out_len;
} run_result;

static void add_redirect(posix_spawn_file_actions_t *fa, int fd, const char *path, int flags)
{
    cr_assert_eq(posix_spawn_file_actions_addopen(fa, fd, path, flags, 0644), 0);
}

/* Runs compact with args (NULL-terminated), stdin from stdin_path or /dev/null. */
static run_result run_compact(const char *stdin_path, const char *const *args)
{
    char out_path[4300], err_path[4300], prog[4200], cache[4300];
    char *argv[40];
    int argc = 0;
    snprintf(prog, sizeof prog, "%s/compact", SKT_APP_DIR);
    argv[argc++] = prog;
    while (*args && argc < 39) argv[argc++] = (char *)*args++;
    argv[argc] = NULL;
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", root_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", root_dir);
    snprintf(cache, sizeof cache, "SCANKIT_CACHE_DIR=%s/cli-test-cache", SKT_BINARY_DIR);
    size_t n = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 2, sizeof *env);
    cr_assert_not_null(env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "SCANKIT_", 8) != 0 || !strncmp(environ[i], "SCANKIT_DEVICE=", 15))
            env[k++] = environ[i];
    env[k++] = cache;
    posix_spawn_file_actions_t fa;
    cr_assert_eq(posix_spawn_file_actions_init(&fa), 0);
    add_redirect(&fa, 0, stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    add_redirect(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC);
    add_redirect(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC);
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

#define COMPACT(...) run_compact(NULL, (const char *const[]){__VA_ARGS__, NULL})

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

static void expect_selected(const run_result *r, size_t k, size_t n)
{
    cr_assert_eq(r->code, 0, "exit %d, stderr: %s", r->code, r->err);
    char want[96];
    snprintf(want, sizeof want, "selected %zu of %zu\n", k, n);
    cr_assert_not_null(strstr(r->err, want), "stderr should say '%s': %s", want, r->err);
}

/* The last line of stderr (the compiler may print diagnostics before it). */
static const char *last_line(const char *s)
{
    size_t len = strlen(s);
    while (len && s[len - 1] == '\n') len--;
    while (len && s[len - 1] != '\n') len--;
    return s + len;
}

static void expect_failure(const run_result *r, int code, const char *needle)
{
    cr_assert_eq(r->code, code, "expected exit %d, got %d; stderr: %s", code, r->code, r->err);
    const char *line = last_line(r->err);
    if (code == 1) {
        cr_assert_eq(strncmp(line, "compact: ", 9), 0, "last line should start 'compact: ': %s",
                     r->err);
        cr_assert_not_null(strstr(line, needle), "last line should mention '%s': %s", needle,
                           r->err);
    } else {
        cr_assert_not_null(strstr(r->err, "usage:"), "no usage on stderr: %s", r->err);
        cr_assert_not_null(strstr(r->err, needle), "stderr should mention '%s': %s", needle,
                           r->err);
    }
}

static void expect_file(const char *path, int npy, const void *want, size_t bytes)
{
    size_t len = 0, data_len = 0;
    unsigned char *got = slurp(path, &len);
    unsigned char *data = npy ? npy_data(got, len, &data_len) : got;
    if (!npy) data_len = len;
    cr_assert_eq(data_len, bytes, "%s holds %zu bytes of data, expected %zu", path, data_len,
                 bytes);
    cr_assert_eq(memcmp(data, want, bytes), 0, "%s differs from the reference", path);
    free(got);
}

/* ---- data ------------------------------------------------------------------------------ */

#define N 5003

static const char *const NPY_DESCR[SK_TYPE_COUNT] = {"<i4", "<u4", "<i8", "<u8", "<f4", "<f8"};

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
    write_file("data.bin", data, N * 4);
    skt_ref_pred_mask(SK_UINT32, SKT_PRED_HALF, data, N, keep);
    size_t k = skt_ref_select(data, keep, N, 4, want);
    run_result r = COMPACT("data.bin", "--if", "(x & 1) != 0");
    expect_selected(&r, k, N);
    expect_file("data.compact.bin", 0, want, k * 4);
    run_free(&r);
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
        write_npy("in.npy", NPY_DESCR[t], data, N, es);
        for (size_t i = 0; i < N; i++) flags[i] = (unsigned char)(skt_rand_below(3) == 0 ? 0 : skt_rand());
        write_npy("flags.npy", "|u1", flags, N, 1);
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
            expect_file("out.npy", 1, want, (m == 1 ? N : k) * es);
            run_free(&r);
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
    write_file("k.bin", data, N * 8);
    write_file("v.bin", vals, N * 8);
    write_npy("f.npy", "<u4", flags, N, 4);
    skt_ref_flag_mask(flags, 4, N, keep);
    size_t k = skt_ref_select(data, keep, N, 8, want);
    run_result r = COMPACT("k.bin", "--type", "int64", "--flags", "f.npy", "-o", "kf.bin");
    expect_selected(&r, k, N);
    expect_file("kf.bin", 0, want, k * 8);
    run_free(&r);
    skt_ref_select(vals, keep, N, 8, vwant);
    r = COMPACT("k.bin", "--type", "int64", "--flags", "f.npy", "-o", "kf.bin", "--values",
                "v.bin", "--values-type", "int64", "--values-out", "vf.bin");
    expect_selected(&r, k, N);
    expect_file("kf.bin", 0, want, k * 8);
    expect_file("vf.bin", 0, vwant, k * 8);
    run_free(&r);

    skt_ref_pred_mask(SK_INT64, SKT_PRED_HALF, data, N, keep);
    k = skt_ref_select(data, keep, N, 8, want);
    skt_ref_select(vals, keep, N, 8, vwant);
    r = COMPACT("k.bin", "-t", "int64", "--if", "(x & 1) != 0", "--values", "v.bin",
                "--values-type", "uint64");
    expect_selected(&r, k, N);
    expect_file("k.compact.bin", 0, want, k * 8);
    expect_file("v.compact.bin", 0, vwant, k * 8);
    run_free(&r);
    free(data);
    free(vals);
    free(want);
    free(vwant);
}

/* Values are the original indices: where each lands shows the order. */
Test(compact_cli, values_follow_the_keys_through_a_partition)
{
    unsigned char *data = make_data(SK_FLOAT32, N), *want = skt_malloc(N * 4);
    unsigned char *vals = skt_malloc(N * 8), *vwant = skt_malloc(N * 8), keep[N];
    skt_ref_indices(N, 8, vals);
    write_file("k.bin", data, N * 4);
    write_npy("idx.npy", "<u8", vals, N, 8);
    skt_ref_pred_mask(SK_FLOAT32, SKT_PRED_HALF, data, N, keep);
    size_t k = skt_ref_partition(data, keep, N, 4, want);
    skt_ref_partition(vals, keep, N, 8, vwant);
    run_result r = COMPACT("k.bin", "-t", "float32", "--partition", "x < 0.5f", "--values",
                           "idx.npy", "-o", "p.bin", "--values-out", "pidx.npy");
    expect_selected(&r, k, N);
    expect_file("p.bin", 0, want, N * 4);
    expect_file("pidx.npy", 1, vwant, N * 8);
    run_free(&r);
    free(data);
    free(want);
    free(vals);
    free(vwant);
}

Test(compact_cli, unique_keeps_the_value_of_the_first_of_each_run)
{
    unsigned char *data = make_data(SK_INT64, N), *want = skt_malloc(N * 8);
    unsigned char *vals = skt_malloc(N * 4), *vwant = skt_malloc(N * 4), keep[N];
    skt_ref_indices(N, 4, vals);
    write_npy("k.npy", "<i8", data, N, 8);
    write_file("idx.bin", vals, N * 4);
    skt_ref_unique_mask(SK_INT64, data, N, keep);
    size_t k = skt_ref_select(data, keep, N, 8, want);
    skt_ref_select(vals, keep, N, 4, vwant);
    cr_assert_lt(k, N, "the data should hold runs");
    run_result r = COMPACT("k.npy", "--unique", "--values", "idx.bin", "--values-type",
                           "uint32");
    expect_selected(&r, k, N);
    expect_file("k.compact.npy", 1, want, k * 8);
    expect_file("idx.compact.bin", 0, vwant, k * 4);
    run_free(&r);
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
    write_file("d.bin", data, sizeof data);
    write_file("f.bin", flags, sizeof flags);
    write_file("v9.bin", vals, sizeof vals);
    write_file("v7.bin", vals, 7 * 4);
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
            cr_assert_eq(last_line(r.err), r.err, "%s: more than one line on stderr: %s",
                         modes[m][0], r.err);
            cr_assert_eq(r.out_len, 0, "%s: wrote to stdout", modes[m][0]);
            cr_assert_eq(entries(), 4, "%s: an output was left behind", modes[m][0]);
            run_free(&r);
        }
    }
}

Test(compact_cli, stdin_goes_to_stdout_and_empty_input_gives_empty_output)
{
    uint32_t data[6] = {5, 5, 7, 7, 7, 1}, want[3] = {5, 7, 1};
    write_file("in.bin", data, sizeof data);
    run_result r = run_compact("in.bin", (const char *const[]){"-", "--unique", NULL});
    expect_selected(&r, 3, 6);
    cr_assert_eq(r.out_len, sizeof want);
    cr_assert_eq(memcmp(r.out, want, sizeof want), 0);
    run_free(&r);
    write_file("empty.bin", "", 0);
    r = COMPACT("empty.bin", "--if", "x > 3u");
    expect_selected(&r, 0, 0);
    expect_file("empty.compact.bin", 0, "", 0);
    run_free(&r);
}

Test(compact_cli, flags_of_the_wrong_length_fail_with_one_line_and_no_output)
{
    uint32_t data[8] = {0};
    unsigned char flags[7] = {1};
    write_file("d.bin", data, sizeof data);
    write_file("f.bin", flags, sizeof flags);
    run_result r = COMPACT("d.bin", "--flags", "f.bin");
    expect_failure(&r, 1, "7 flags for 8 elements");
    cr_assert_eq(last_line(r.err), r.err, "more than one line on stderr: %s", r.err);
    cr_assert_eq(entries(), 2, "an output was left behind");
    run_free(&r);
    r = COMPACT("d.bin", "--if", "1", "--values", "f.bin", "--values-type", "uint8");
    expect_failure(&r, 2, "--values-type");
    run_free(&r);
    write_file("v.bin", data, 4 * 7);
    r = COMPACT("d.bin", "--if", "1", "--values", "v.bin");
    expect_failure(&r, 1, "7 values for 8 elements");
    run_free(&r);
}

Test(compact_cli, a_malformed_expression_fails_cleanly)
{
    uint32_t data[4] = {1, 2, 3, 4};
    write_file("d.bin", data, sizeof data);
    run_result r = COMPACT("d.bin", "--if", "x +* (");
    expect_failure(&r, 1, "does not compile");
    cr_assert(!file_exists("d.compact.bin"), "an output was left behind");
    run_free(&r);
    r = COMPACT("d.bin", "--partition", "x % 3 == 0", "-t", "float32");
    expect_failure(&r, 1, "does not compile");
    run_free(&r);
}

Test(compact_cli, bad_input_files_fail_with_exit_1)
{
    write_file("odd.bin", "12345", 5);
    run_result r = COMPACT("odd.bin", "--unique");
    expect_failure(&r, 1, "odd.bin");
    run_free(&r);
    r = COMPACT("missing.bin", "--unique");
    expect_failure(&r, 1, "missing.bin");
    run_free(&r);
}

Test(compact_cli, usage_errors_exit_2)
{
    write_file("d.bin", "1234", 4);
    run_result r = COMPACT("d.bin");
    expect_failure(&r, 2, "one of");
    run_free(&r);
    r = COMPACT("d.bin", "--unique", "--if", "1");
    expect_failure(&r, 2, "only one");
    run_free(&r);
    r = COMPACT("d.bin", "--unique", "--values-out", "v.bin");
    expect_failure(&r, 2, "need --values");
    run_free(&r);
    r = COMPACT("d.bin", "--unique", "--type", "uint8");
    expect_failure(&r, 2, "--type");
    run_free(&r);
    r = COMPACT("d.bin", "--bogus");
    expect_failure(&r, 2, "bogus");
    run_free(&r);
    r = COMPACT("--if", "1");
    expect_failure(&r, 2, "missing INPUT");
    run_free(&r);
    cr_assert(!file_exists("d.compact.bin"));
}

Test(compact_cli, help_and_version_exit_0)
{
    run_result r = COMPACT("--help");
    cr_assert_eq(r.code, 0);
    cr_assert_not_null(strstr(r.out, "--partition"));
    cr_assert_not_null(strstr(r.out, "in every mode"), "--values: every mode");
    run_free(&r);
    r = COMPACT("--version");
    cr_assert_eq(r.code, 0);
    cr_assert_not_null(strstr(r.out, sk_version_string()));
    run_free(&r);
}
