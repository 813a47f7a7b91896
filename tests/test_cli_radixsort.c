/*
 * test_cli_radixsort.c - end-to-end tests of the radixsort program.
 *
 * Each test runs in a fresh temporary directory ("work" is the current
 * directory; captured stdout/stderr live beside it, so the listing of "work"
 * shows exactly what the program left behind). Results are checked against
 * the serial reference of tests/ref/ref_sort.c, through the values (the
 * input indices) where stability matters.
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

#include "ref/ref_sort.h"
#include "scankit.h"

extern char **environ;

static char root_dir[4096];
static char work_dir[4200];

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *ent;
        while (d && (ent = readdir(d)) != NULL) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
            char child[8400];
            snprintf(child, sizeof child, "%s/%s", path, ent->d_name);
            remove_tree(child);
        }
        if (d) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void cli_setup(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root_dir, sizeof root_dir, "%s/skt-rs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(root_dir), "mkdtemp: %s", strerror(errno));
    snprintf(work_dir, sizeof work_dir, "%s/work", root_dir);
    cr_assert_eq(mkdir(work_dir, 0755), 0);
    cr_assert_eq(chdir(work_dir), 0);
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0) cr_skip_test("no OpenCL device");
}

static void cli_teardown(void)
{
    if (chdir("/") == 0 && root_dir[0]) remove_tree(root_dir);
}

TestSuite(radixsort_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 120);

/* ---- files -------------------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, used = 0, k;
    unsigned char *buf = malloc(cap + 1);
    cr_assert_not_null(buf);
    while ((k = fread(buf + used, 1, cap - used, fp)) > 0) {
        used += k;
        if (used == cap) {
            buf = realloc(buf, (cap *= 2) + 1);
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
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(data, 1, len, fp), len);
    cr_assert_eq(fclose(fp), 0);
}

/* A .npy v1.0 file: header for `descr` and n elements, then the data. */
static void write_npy(const char *path, const char *descr, const void *data, size_t n,
                      size_t size)
{
    char dict[256];
    int len = snprintf(dict, sizeof dict,
                       "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }", descr, n);
    size_t total = 10 + (size_t)len + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)len + pad + 1;
    unsigned char *buf = malloc(10 + hlen + n * size);
    cr_assert_not_null(buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, dict, (size_t)len);
    memset(buf + 10 + len, ' ', pad);
    buf[10 + hlen - 1] = '\n';
    memcpy(buf + 10 + hlen, data, n * size);
    write_file(path, buf, 10 + hlen + n * size);
    free(buf);
}

/* The data of a .npy file written by the program (after its header). */
static unsigned char *npy_data(const char *path, size_t *len)
{
    size_t all;
    unsigned char *b = slurp(path, &all);
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
    char *names[64];
    size_t count = 0;
    DIR *d = opendir(".");
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL && count < 64)
        if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, ".."))
            names[count++] = strdup(ent->d_name);
    if (d) closedir(d);
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    out[0] = 0;
    for (size_t i = 0; i < count; i++) {
        strcat(out, names[i]);
        strcat(out, i + 1 < count ? " " : "");
        free(names[i]);
    }
    return out;
}

/* ---- running ------------------------------------------------------------------- */

typedef struct run_result {
    int code;
    char *out, *err;
    size_t out_len;
} run_result;

static run_result run_argv(char *const argv[])
{
    char out_path[4300], err_path[4300], cache[4400];
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", root_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", root_dir);
    snprintf(cache, sizeof cache, "SCANKIT_CACHE_DIR=%s/cli-test-cache", SKT_BINARY_DIR);
    size_t n = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 2, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "SCANKIT_CACHE_DIR=", 18) && strncmp(environ[i], "SCANKIT_LOG=", 12) &&
            strncmp(environ[i], "SCANKIT_TRACE=", 14))
            env[k++] = environ[i];
    env[k++] = cache;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, env);
    cr_assert_eq(rc, 0, "cannot start %s: %s", argv[0], strerror(rc));
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    run_result r;
    size_t len;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = (char *)slurp(out_path, &r.out_len);
    r.err = (char *)slurp(err_path, &len);
    return r;
}

static run_result run_rs(const char *first, ...)
{
    char path[4200];
    char *argv[34];
    int argc = 0;
    snprintf(path, sizeof path, "%s/radixsort", SKT_APP_DIR);
    argv[argc++] = path;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 33; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    return run_argv(argv);
}

#define RS(...) run_rs(__VA_ARGS__, (const char *)NULL)

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

static void expect_success(const run_result *r, const char *what)
{
    cr_assert_eq(r->code, 0, "%s: exit %d, stderr: %s", what, r->code, r->err);
}

static void expect_one_line_failure(const run_result *r, const char *needle)
{
    cr_assert_eq(r->code, 1, "expected exit 1, got %d; stderr: %s", r->code, r->err);
    size_t len = strlen(r->err), lines = 0;
    for (const char *c = r->err; *c; c++) lines += *c == '\n';
    cr_assert(len > 0 && r->err[len - 1] == '\n' && lines == 1,
              "expected exactly one line on stderr, got: [%s]", r->err);
    cr_assert_eq(strncmp(r->err, "radixsort: ", 11), 0, "stderr: %s", r->err);
    if (needle) cr_assert_not_null(strstr(r->err, needle), "want '%s' in: %s", needle, r->err);
}

static void expect_usage_error(const run_result *r)
{
    cr_assert_eq(r->code, 2, "expected exit 2, got %d; stderr: %s", r->code, r->err);
    cr_assert_not_null(strstr(r->err, "usage:"), "no usage line: %s", r->err);
}

/* ---- data and checks ------------------------------------------------------------ */

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
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
    write_file("keys.bin", in, n * 4);
    run_result r = RS("keys.bin");
    expect_success(&r, "radixsort keys.bin");
    size_t len;
    unsigned char *out = slurp("keys.sorted.bin", &len);
    cr_assert_eq(len, n * 4);
    expect_sorted(SK_UINT32, in, n, 0, 0, 32, out, NULL, 0);
    cr_assert_str_eq(listing(), "keys.bin keys.sorted.bin");
    run_free(&r);
    free(in);
    free(out);
}

Test(radixsort_cli, should_keep_npy_in_npy_out_and_check_descending_int64)
{
    const size_t n = 30001;
    unsigned char *in = random_keys(n, 8, 1);
    write_npy("k.npy", "<i8", in, n, 8);
    run_result r = RS("k.npy", "--descending", "--check");
    expect_success(&r, "radixsort k.npy --descending --check");
    char want[64];
    snprintf(want, sizeof want, "check: ok (%zu keys sorted)", n);
    cr_assert_not_null(strstr(r.err, want), "stderr: %s", r.err);
    size_t len;
    unsigned char *out = npy_data("k.sorted.npy", &len);
    cr_assert_eq(len, n * 8);
    expect_sorted(SK_INT64, in, n, 1, 0, 64, out, NULL, 0);
    run_free(&r);
    free(in);
    free(out);
}

Test(radixsort_cli, should_move_values_with_float_keys_stably)
{
    const size_t n = 20000;
    unsigned char *in = random_keys(n, 4, 1), *vals = indices(n, 8);
    write_file("k.bin", in, n * 4);
    write_npy("v.npy", "<u8", vals, n, 8);
    run_result r = RS("k.bin", "--type", "float32", "--values", "v.npy", "--check", "-o",
                      "out.bin");
    expect_success(&r, "pairs");
    size_t kl, vl;
    unsigned char *ko = slurp("out.bin", &kl), *vo = npy_data("v.sorted.npy", &vl);
    cr_assert_eq(kl, n * 4);
    cr_assert_eq(vl, n * 8);
    expect_sorted(SK_FLOAT32, in, n, 0, 0, 32, ko, vo, 8);
    run_free(&r);
    free(in);
    free(vals);
    free(ko);
    free(vo);
}

Test(radixsort_cli, should_sort_by_a_bit_range_with_raw_values_out)
{
    const size_t n = 10007;
    unsigned char *in = random_keys(n, 4, 0), *vals = indices(n, 4);
    write_file("k.bin", in, n * 4);
    write_file("v.bin", vals, n * 4);
    run_result r = RS("k.bin", "--bits", "8:16", "--values", "v.bin", "--values-out",
                      "vo.bin", "--descending", "--check");
    expect_success(&r, "bits");
    size_t kl, vl;
    unsigned char *ko = slurp("k.sorted.bin", &kl), *vo = slurp("vo.bin", &vl);
    expect_sorted(SK_UINT32, in, n, 1, 8, 16, ko, vo, 4);
    cr_assert_str_eq(listing(), "k.bin k.sorted.bin v.bin vo.bin");
    run_free(&r);
    free(in);
    free(vals);
    free(ko);
    free(vo);
}

Test(radixsort_cli, should_write_an_empty_output_for_an_empty_input)
{
    write_file("e.bin", "", 0);
    run_result r = RS("e.bin", "--check");
    expect_success(&r, "empty");
    size_t len;
    free(slurp("e.sorted.bin", &len));
    cr_assert_eq(len, 0);
    run_free(&r);
}

Test(radixsort_cli, should_fail_with_one_line_and_no_output_on_bad_files)
{
    unsigned char *k = random_keys(100, 4, 0);
    write_file("odd.bin", k, 10); /* not a multiple of 4 bytes */
    write_file("k.bin", k, 400);
    write_file("v99.bin", k, 396);
    write_npy("half.npy", "<f2", k, 100, 2);
    write_npy("u8.npy", "|u1", k, 100, 1);
    run_result r = RS("odd.bin");
    expect_one_line_failure(&r, "odd.bin");
    run_free(&r);
    r = RS("k.bin", "--values", "v99.bin");
    expect_one_line_failure(&r, "99 values for 100 keys");
    run_free(&r);
    r = RS("half.npy");
    expect_one_line_failure(&r, "half.npy");
    run_free(&r);
    r = RS("u8.npy");
    expect_one_line_failure(&r, "u8.npy");
    run_free(&r);
    r = RS("k.bin", "--values", "u8.npy");
    expect_one_line_failure(&r, "u8.npy");
    run_free(&r);
    r = RS("missing.bin");
    expect_one_line_failure(&r, "missing.bin");
    run_free(&r);
    r = RS("k.bin", "--bits", "0:40");
    expect_one_line_failure(&r, "--bits");
    run_free(&r);
    cr_assert_str_eq(listing(), "half.npy k.bin odd.bin u8.npy v99.bin");
    free(k);
}

Test(radixsort_cli, should_exit_2_on_usage_errors)
{
    write_file("k.bin", "\1\0\0\0", 4);
    const char *const cases[][4] = {
        {NULL}, {"k.bin", "--type", "complex"}, {"k.bin", "--bits", "5:3"},
        {"k.bin", "--bits", "x"}, {"k.bin", "--values-type", "uint32"}, {"k.bin", "--frob"},
        {"k.bin", "k.bin"}, {"k.bin", "--values-out", "v.bin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_rs(cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL);
        expect_usage_error(&r);
        run_free(&r);
    }
    cr_assert_str_eq(listing(), "k.bin");
}

Test(radixsort_cli, should_not_overwrite_the_input_without_in_place)
{
    write_file("k.bin", "\3\0\0\0\1\0\0\0", 8);
    run_result r = RS("k.bin", "-o", "k.bin");
    expect_one_line_failure(&r, NULL);
    run_free(&r);
    r = RS("k.bin", "--in-place");
    expect_success(&r, "--in-place");
    size_t len;
    unsigned char *out = slurp("k.bin", &len);
    cr_assert_eq(memcmp(out, "\1\0\0\0\3\0\0\0", 8), 0);
    free(out);
    run_free(&r);
}

Test(radixsort_cli, should_print_help_and_version)
{
    run_result r = RS("--help");
    expect_success(&r, "--help");
    cr_assert_not_null(strstr(r.out, "usage: radixsort"));
    run_free(&r);
    r = RS("--version");
    expect_success(&r, "--version");
    cr_assert_not_null(strstr(r.out, sk_version_string()));
    run_free(&r);
}
