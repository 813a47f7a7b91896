/*
 * skt_cli.c - helpers shared by the end-to-end CLI tests; see skt_cli.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "skt_cli.h"

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

#include <criterion/criterion.h>

#include "scankit.h"
#include "ref/reference.h"

#ifndef SKT_APP_DIR
#error "SKT_APP_DIR must name the directory of the built programs"
#endif
#ifndef SKT_BINARY_DIR
#error "SKT_BINARY_DIR must name the build tree"
#endif

extern char **environ;

char skt_cli_root[4096];
char skt_cli_work[4200];

const skt_cli_type skt_cli_types[SK_KEY_TYPE_COUNT] = {
#define SKT_CLI_TYPE_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, ...) \
    [SK_##suffix] = {name,                                                                     \
                     {(bytes) == 1 ? '|' : '<', (is_float) ? 'f' : (is_signed) ? 'i' : 'u',    \
                      (char)('0' + (bytes))},                                                  \
                     bytes, is_float, is_signed},
    SK_ALL_TYPES_MAP(SKT_CLI_TYPE_)
#undef SKT_CLI_TYPE_
};

void skt_cli_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    chmod(path, 0700);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *ent;
        while ((ent = readdir(d)) != NULL) {
            if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) continue;
            char child[8400];
            snprintf(child, sizeof child, "%s/%s", path, ent->d_name);
            skt_cli_remove_tree(child);
        }
        closedir(d);
    }
    rmdir(path);
}

char *skt_cli_make_tmpdir(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    char name[256];
    snprintf(name, sizeof name, "%s-XXXXXX", prefix);
    char *dir = skt_cli_path_in(tmp && *tmp ? tmp : "/tmp", name);
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s: %s", dir, strerror(errno));
    return dir;
}

char *skt_cli_path_in(const char *dir, const char *name)
{
    size_t size = strlen(dir) + strlen(name) + 2;
    char *p = malloc(size);
    cr_assert_not_null(p);
    snprintf(p, size, "%s/%s", dir, name);
    return p;
}

void skt_cli_dirs_open(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(skt_cli_root, sizeof skt_cli_root, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
             prefix);
    cr_assert_not_null(mkdtemp(skt_cli_root), "mkdtemp: %s", strerror(errno));
    snprintf(skt_cli_work, sizeof skt_cli_work, "%s/work", skt_cli_root);
    cr_assert_eq(mkdir(skt_cli_work, 0755), 0, "mkdir %s: %s", skt_cli_work, strerror(errno));
    cr_assert_eq(chdir(skt_cli_work), 0, "chdir %s: %s", skt_cli_work, strerror(errno));
}

void skt_cli_setup(void)
{
    skt_cli_dirs_open("skt-cli");
}

void skt_cli_dirs_close(void)
{
    if (chdir("/") == 0 && skt_cli_root[0]) skt_cli_remove_tree(skt_cli_root);
}

void skt_cli_require_any_device(void)
{
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0) cr_skip_test("no OpenCL device");
}

unsigned char *skt_cli_slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, used = 0, k;
    unsigned char *buf = malloc(cap + 1);
    cr_assert_not_null(buf);
    while ((k = fread(buf + used, 1, cap - used, fp)) > 0) {
        used += k;
        if (used == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            cr_assert_not_null(buf);
        }
    }
    cr_assert(!ferror(fp), "read error on %s", path);
    fclose(fp);
    buf[used] = 0; /* so text files can be used as strings */
    *len = used;
    return buf;
}

void skt_cli_write_file(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp, "cannot create %s: %s", path, strerror(errno));
    cr_assert_eq(fwrite(data, 1, len, fp), len);
    cr_assert_eq(fclose(fp), 0);
}

unsigned char *skt_cli_make_npy(const char *descr, const char *fortran, const char *shape,
                                const void *data, size_t data_len, size_t *len)
{
    char dict[256];
    int dlen = snprintf(dict, sizeof dict,
                        "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                        fortran, shape);
    size_t header = ((size_t)10 + (size_t)dlen + 1 + 63) / 64 * 64;
    unsigned char *buf = malloc(header + data_len);
    cr_assert_not_null(buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((header - 10) & 0xff);
    buf[9] = (unsigned char)((header - 10) >> 8);
    memcpy(buf + 10, dict, (size_t)dlen);
    memset(buf + 10 + dlen, ' ', header - 10 - (size_t)dlen);
    buf[header - 1] = '\n';
    if (data_len) memcpy(buf + header, data, data_len);
    *len = header + data_len;
    return buf;
}

void skt_cli_write_npy_fields(const char *path, const char *descr, const char *fortran,
                              const char *shape, const void *data, size_t data_len)
{
    size_t len;
    unsigned char *buf = skt_cli_make_npy(descr, fortran, shape, data, data_len, &len);
    skt_cli_write_file(path, buf, len);
    free(buf);
}

void skt_cli_write_npy(const char *path, const char *descr, const void *data, size_t n,
                       size_t elem)
{
    char shape[32];
    snprintf(shape, sizeof shape, "(%zu,)", n);
    skt_cli_write_npy_fields(path, descr, "False", shape, data, n * elem);
}

unsigned char *skt_cli_load_elements(const char *path, int is_npy, const skt_cli_type *t,
                                     size_t *n, unsigned char **base)
{
    size_t len;
    unsigned char *buf = skt_cli_slurp(path, &len);
    size_t offset = 0;
    if (is_npy) {
        cr_assert(len >= 10 && memcmp(buf, "\x93NUMPY", 6) == 0, "%s: no .npy magic", path);
        cr_assert(buf[6] == 1 || buf[6] == 2, "%s: .npy version %u", path, buf[6]);
        offset = buf[6] == 1 ? 10u + (buf[8] | (size_t)buf[9] << 8)
                             : 12u + (buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16);
        cr_assert_leq(offset, len, "%s: header longer than the file", path);
        char want[64];
        snprintf(want, sizeof want, "'descr': '%s'", t->descr);
        char saved = (char)buf[offset - 1];
        buf[offset - 1] = 0;
        cr_assert_not_null(strstr((char *)buf + 10, want), "%s: header %s lacks %s", path,
                           (char *)buf + 10, want);
        char shape[64];
        snprintf(shape, sizeof shape, "'shape': (%zu,)", (len - offset) / t->size);
        cr_assert_not_null(strstr((char *)buf + 10, shape), "%s: header %s lacks %s", path,
                           (char *)buf + 10, shape);
        buf[offset - 1] = (unsigned char)saved;
    }
    cr_assert_eq((len - offset) % t->size, 0, "%s: %zu data bytes", path, len - offset);
    *n = (len - offset) / t->size;
    *base = buf;
    return buf + offset;
}

uint64_t skt_cli_load_bits(const unsigned char *p, size_t size)
{
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

int64_t skt_cli_as_signed(const skt_cli_type *t, uint64_t bits)
{
    uint64_t sign = (uint64_t)1 << (8 * t->size - 1);
    uint64_t magnitude = bits & (sign - 1);
    return (bits & sign) ? (int64_t)magnitude - (int64_t)(sign - 1) - 1 : (int64_t)magnitude;
}

long double skt_cli_load_float(const skt_cli_type *t, const unsigned char *p)
{
    return skt_ref_real_at(t->size == 4 ? SK_FLOAT32 : SK_FLOAT64, p, 0);
}

int skt_cli_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

size_t skt_cli_entries(void)
{
    return skt_cli_entries_in(".");
}

size_t skt_cli_entries_in(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL)
        n += strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0;
    if (d) closedir(d);
    return n;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *skt_cli_listing(const char *dir)
{
    char *names[256];
    size_t count = 0, total = 1;
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL && count < 256) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) continue;
        names[count] = strdup(ent->d_name);
        cr_assert_not_null(names[count]);
        total += strlen(ent->d_name) + 1;
        count++;
    }
    closedir(d);
    qsort(names, count, sizeof names[0], cmp_names);
    char *out = malloc(total);
    cr_assert_not_null(out);
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        strcat(out, names[i]);
        strcat(out, "\n");
        free(names[i]);
    }
    return out;
}

size_t skt_cli_count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

const char *skt_cli_last_line(const char *s)
{
    size_t len = strlen(s);
    while (len && s[len - 1] == '\n') len--;
    while (len && s[len - 1] != '\n') len--;
    return s + len;
}

/* The SCANKIT_* variables a program is run with: the device, and the
 * switches the tests set to take a program down a path it takes only on
 * other hosts or at other sizes. */
static int passed_on(const char *entry)
{
    static const char *const kept[] = {"SCANKIT_DEVICE=", "SCANKIT_READ_AHEAD=",
                                       "SCANKIT_NO_TMPFILE=", "SCANKIT_READ_PARTS_FROM="};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (strncmp(entry, kept[i], strlen(kept[i])) == 0) return 1;
    return 0;
}

/* The test's environment, SCANKIT_* dropped but those passed on, plus
 * `cache` (a SCANKIT_CACHE_DIR= or XDG_CACHE_HOME= entry, which replaces
 * the test's). free() the array only. */
static char **child_env(char *cache)
{
    size_t n = 0, k = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 2, sizeof *env);
    cr_assert_not_null(env);
    for (size_t i = 0; i < n; i++)
        if ((strncmp(environ[i], "SCANKIT_", 8) != 0 || passed_on(environ[i])) &&
            strncmp(environ[i], "XDG_CACHE_HOME=", 15) != 0)
            env[k++] = environ[i];
    env[k++] = cache;
    env[k] = NULL;
    return env;
}

void skt_cli_cache_env(const char *cache_dir, char *entry, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (cache_dir)
        snprintf(entry, size, "SCANKIT_CACHE_DIR=%s", cache_dir);
    else
        snprintf(entry, size, "XDG_CACHE_HOME=%s", xdg && *xdg ? xdg : SKT_TEST_CACHE_HOME);
}

static void add_redirect(posix_spawn_file_actions_t *fa, int fd, const char *path, int flags)
{
    cr_assert_eq(posix_spawn_file_actions_addopen(fa, fd, path, flags, 0644), 0);
}

skt_cli_result skt_cli_run_argv(const char *stdin_path, const char *cache_dir,
                                char *const argv[])
{
    char out_path[4300], err_path[4300], cache[4400];
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", skt_cli_root);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", skt_cli_root);
    skt_cli_cache_env(cache_dir, cache, sizeof cache);
    posix_spawn_file_actions_t fa;
    cr_assert_eq(posix_spawn_file_actions_init(&fa), 0);
    add_redirect(&fa, 0, stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    add_redirect(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC);
    add_redirect(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC);
    char **env = child_env(cache);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, env);
    cr_assert_eq(rc, 0, "cannot start %s: %s (were the apps built?)", argv[0], strerror(rc));
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    skt_cli_result r;
    size_t err_len;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = (char *)skt_cli_slurp(out_path, &r.out_len);
    r.err = (char *)skt_cli_slurp(err_path, &err_len);
    return r;
}

skt_cli_result skt_cli_run(const char *tool, const char *stdin_path, const char *cache_dir,
                           const char *const *args)
{
    char prog[4200];
    char *argv[SKT_CLI_MAX_ARGS + 2];
    int argc = 0;
    snprintf(prog, sizeof prog, "%s/%s", SKT_APP_DIR, tool);
    argv[argc++] = prog;
    for (; *args; args++) {
        cr_assert_lt(argc, SKT_CLI_MAX_ARGS + 1, "too many arguments for %s", tool);
        argv[argc++] = (char *)*args;
    }
    argv[argc] = NULL;
    return skt_cli_run_argv(stdin_path, cache_dir, argv);
}

skt_cli_result skt_cli_runl(const skt_cli_opts *o, const char *tool, ...)
{
    const char *args[SKT_CLI_MAX_ARGS + 1];
    size_t n = 0;
    va_list ap;
    va_start(ap, tool);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL) {
        cr_assert_lt(n, (size_t)SKT_CLI_MAX_ARGS, "too many arguments for %s", tool);
        args[n++] = a;
    }
    va_end(ap);
    args[n] = NULL;
    return skt_cli_run(tool, o ? o->stdin_path : NULL, o ? o->cache_dir : NULL, args);
}

void skt_cli_free(skt_cli_result *r)
{
    free(r->out);
    free(r->err);
}

void skt_cli_expect_success(const skt_cli_result *r, const char *what)
{
    cr_assert_eq(r->code, 0, "%s: exit %d, stderr: %s", what, r->code, r->err);
}

void skt_cli_expect_one_line_failure(const skt_cli_result *r, const char *prefix,
                                     const char *needle)
{
    cr_assert_eq(r->code, 1, "expected exit 1, got %d; stderr: %s", r->code, r->err);
    size_t len = strlen(r->err);
    cr_assert(len > 0 && r->err[len - 1] == '\n' && skt_cli_count_lines(r->err) == 1,
              "expected exactly one line on stderr, got: [%s]", r->err);
    cr_assert_eq(strncmp(r->err, prefix, strlen(prefix)), 0, "stderr should start with %s: %s",
                 prefix, r->err);
    if (needle)
        cr_assert_not_null(strstr(r->err, needle), "stderr should mention '%s': %s", needle,
                           r->err);
}

void skt_cli_expect_usage_error(const skt_cli_result *r)
{
    cr_assert_eq(r->code, 2, "expected exit 2, got %d; stderr: %s", r->code, r->err);
    cr_assert_not_null(strstr(r->err, "usage:"), "no usage line on stderr: %s", r->err);
}

void skt_cli_expect_failure(const skt_cli_result *r, const char *prefix, int code,
                            const char *needle)
{
    cr_assert_eq(r->code, code, "expected exit %d, got %d; stderr: %s", code, r->code, r->err);
    const char *line = skt_cli_last_line(r->err);
    if (code == 1) {
        cr_assert_eq(strncmp(line, prefix, strlen(prefix)), 0,
                     "last line should start '%s': %s", prefix, r->err);
        cr_assert_not_null(strstr(line, needle), "last line should mention '%s': %s", needle,
                           r->err);
    } else {
        cr_assert_not_null(strstr(r->err, "usage:"), "no usage on stderr: %s", r->err);
        cr_assert_not_null(strstr(r->err, needle), "stderr should mention '%s': %s", needle,
                           r->err);
    }
}

void skt_cli_expect_file(const char *path, int npy, const void *want, size_t bytes)
{
    size_t len = 0;
    unsigned char *got = skt_cli_slurp(path, &len), *data = got;
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

const char *skt_cli_describe(const char *tool, const char *const *args)
{
    static char text[512];
    size_t used = (size_t)snprintf(text, sizeof text, "%s", tool);
    for (size_t i = 0; args[i] && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " %s", args[i]);
    return text;
}

int skt_cli_default_device_has_fp64(void)
{
    sk_context *ctx = NULL;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int has_fp64 = sk_context_create(&ctx, NULL, NULL, 0) == SK_OK &&
                   sk_context_device(ctx, &d) == SK_OK && d.has_fp64;
    sk_context_free(ctx);
    return has_fp64;
}
