/*
 * skt_cli_signals.c - the harness of the signal tests (tests/skt_cli_signals.h).
 */
#define _GNU_SOURCE

#include "skt_cli_signals.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "skt_cli.h"

extern char **environ;

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */
/* ------------------------------------------------------------------------ */

const skt_sig_command SKT_SIG_RADIXSORT = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "out.bin", "--values-out", "vals.bin", NULL},
    {"out.bin", "vals.bin"}};
const skt_sig_command SKT_SIG_COMPACT = {"compact",
                                         {"k.bin", "--if", "x % 2 == 0", "--values", "v.bin", "-o",
                                          "out.bin", "--values-out", "vals.bin", NULL},
                                         {"out.bin", "vals.bin"}};
const skt_sig_command SKT_SIG_SCAN = {"scan", {"k.bin", "-o", "out.bin", NULL}, {"out.bin", NULL}};

/* Writing to stdout while another output is pending (or finished). */
const skt_sig_command SKT_SIG_RADIXSORT_KEYS_TO_STDOUT = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "-", "--values-out", "vals.bin", NULL},
    {"vals.bin", NULL}};
const skt_sig_command SKT_SIG_RADIXSORT_VALUES_TO_STDOUT = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "out.bin", "--values-out", "-", NULL},
    {"out.bin", NULL}};
const skt_sig_command SKT_SIG_COMPACT_TO_STDOUT = {"compact",
                                                   {"k.bin", "--if", "x % 2 == 0", "--values",
                                                    "v.bin", "-o", "-", "--values-out", "vals.bin",
                                                    NULL},
                                                   {"vals.bin", NULL}};
const skt_sig_command SKT_SIG_SCAN_TO_STDOUT = {"scan", {"k.bin", "-o", "-", NULL}, {NULL, NULL}};

size_t skt_sig_file_outputs(const skt_sig_command *c)
{
    return (size_t)(c->outputs[0] != NULL) + (c->outputs[1] != NULL);
}

/* `c` reading its first operand (k.bin) from `input`. */
skt_sig_command skt_sig_reading_from(const skt_sig_command *c, const char *input)
{
    skt_sig_command r = *c;
    r.args[0] = input;
    return r;
}

const char *skt_sig_describe(const skt_sig_command *c)
{
    return skt_cli_describe(c->tool, c->args);
}

/* k.bin and v.bin: SKT_SIG_N_KEYS uint32 keys and values; c.bin: 3 float32
 * coefficients. */
void skt_sig_write_inputs(void)
{
    static uint32_t keys[SKT_SIG_N_KEYS], values[SKT_SIG_N_KEYS];
    uint32_t x = 12345;
    for (size_t i = 0; i < SKT_SIG_N_KEYS; i++) {
        x = x * 1664525u + 1013904223u;
        keys[i] = x;
        values[i] = (uint32_t)i;
    }
    static const float coeffs[3] = {1.0f, 2.0f, 3.0f};
    skt_cli_write_file("k.bin", keys, sizeof keys);
    skt_cli_write_file("v.bin", values, sizeof values);
    skt_cli_write_file("c.bin", coeffs, sizeof coeffs);
}

/* ------------------------------------------------------------------------ */
/* Starting a program                                                        */
/* ------------------------------------------------------------------------ */

const char *skt_sig_kind_name(skt_sig_temp_kind k)
{
    return k == SKT_SIG_TEMP_NAMED ? "named temporary files"
                                   : "temporary files as the filesystem has them";
}

static char strace_path[4096];

/* The programs' own program cache (a named one: used on every device), the
 * warm-up runs' (skt_sig_complete_run) as the signalled runs'. */
#define SKT_SIG_PROGRAM_CACHE SKT_BINARY_DIR "/cli-test-cache"

/* The environment of the programs: the test's without SCANKIT_* (but
 * SCANKIT_DEVICE), the CLI tests' kernel cache, the temporary-file switch,
 * and no leak check under strace (LeakSanitizer cannot trace a traced
 * process; a traced run ends by a signal anyway). */
static char **child_env(const skt_sig_launch *l, char *cache, char *asan)
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 4, sizeof *env);
    cr_assert_not_null(env);
    const char *asan_now = getenv("ASAN_OPTIONS");
    snprintf(asan, 4096, "ASAN_OPTIONS=%s%sdetect_leaks=0", asan_now ? asan_now : "",
             asan_now && *asan_now ? ":" : "");
    for (size_t i = 0; i < n; i++) {
        int scankit = (strncmp(environ[i], "SCANKIT_", 8) == 0 &&
                       strncmp(environ[i], "SCANKIT_DEVICE=", 15) != 0) ||
                      strncmp(environ[i], "XDG_CACHE_HOME=", 15) == 0;
        int replaced = l->inject && strncmp(environ[i], "ASAN_OPTIONS=", 13) == 0;
        if (!scankit && !replaced)
            env[k++] = environ[i];
    }
    /* scankit's own program cache, so that a run after the warm-up loads
     * binaries: no compiler writes (PoCL's cache renames its files) that
     * would be counted with the program's own renames and writes */
    skt_cli_cache_env(SKT_SIG_PROGRAM_CACHE, cache, 4400);
    env[k++] = cache;
    if (l->kind == SKT_SIG_TEMP_NAMED)
        env[k++] = "SCANKIT_NO_TMPFILE=1";
    if (l->inject)
        env[k++] = asan;
    env[k] = NULL;
    return env;
}

/* strace -f -qq -o /dev/null -e trace=S -e inject=S:signal=N:when=W, then
 * the program; returns the number of arguments put into argv. */
static int strace_prefix(const skt_sig_injection *in, char *argv[], char *trace, char *inject)
{
    snprintf(trace, 256, "trace=%s", in->syscalls);
    snprintf(inject, 256, "inject=%s:signal=%d:when=%u", in->syscalls, in->signal, in->when);
    char *prefix[] = {strace_path, "-f", "-qq", "-o", "/dev/null", "-e", trace, "-e", inject};
    memcpy(argv, prefix, sizeof prefix);
    return (int)SKT_SIG_COUNT(prefix);
}

static void set_child_signals(posix_spawnattr_t *attr, int keep_sigpipe_ignored)
{
    static const int defaults[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    sigset_t dfl, none;
    sigemptyset(&dfl);
    sigemptyset(&none);
    for (size_t i = 0; i < SKT_SIG_COUNT(defaults); i++)
        if (!(keep_sigpipe_ignored && defaults[i] == SIGPIPE))
            sigaddset(&dfl, defaults[i]);
    cr_assert_eq(posix_spawnattr_init(attr), 0);
    cr_assert_eq(posix_spawnattr_setsigdefault(attr, &dfl), 0);
    cr_assert_eq(posix_spawnattr_setsigmask(attr, &none), 0);
    cr_assert_eq(posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK), 0);
}

static void set_child_files(posix_spawn_file_actions_t *fa, int stdout_fd)
{
    char out[4300], err[4300];
    snprintf(out, sizeof out, "%s/stdout.txt", skt_cli_root);
    snprintf(err, sizeof err, "%s/stderr.txt", skt_cli_root);
    cr_assert_eq(posix_spawn_file_actions_init(fa), 0);
    cr_assert_eq(posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0), 0);
    if (stdout_fd >= 0)
        cr_assert_eq(posix_spawn_file_actions_adddup2(fa, stdout_fd, 1), 0);
    else
        cr_assert_eq(
            posix_spawn_file_actions_addopen(fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644), 0);
    cr_assert_eq(posix_spawn_file_actions_addopen(fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644),
                 0);
}

pid_t skt_sig_start(const skt_sig_launch *l)
{
    char prog[4200], trace[256], inject[256], cache[4400], asan[4096];
    char *argv[SKT_SIG_MAX_ARGS + 16];
    int argc = l->inject ? strace_prefix(l->inject, argv, trace, inject) : 0;
    snprintf(prog, sizeof prog, "%s/%s", SKT_APP_DIR, l->cmd->tool);
    argv[argc++] = prog;
    for (size_t i = 0; l->cmd->args[i]; i++)
        argv[argc++] = (char *)l->cmd->args[i];
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    set_child_files(&fa, l->stdout_fd);
    set_child_signals(&attr, l->keep_sigpipe_ignored);
    char **env = child_env(l, cache, asan);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv, env);
    cr_assert_eq(rc, 0, "cannot start %s: %s", argv[0], strerror(rc));
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(env);
    return pid;
}

int skt_sig_wait_for(pid_t pid)
{
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid, "waitpid: %s", strerror(errno));
    return status;
}

/* What the program (or strace) wrote on stderr; free() it. */
char *skt_sig_child_stderr(void)
{
    char path[4300];
    size_t len;
    snprintf(path, sizeof path, "%s/stderr.txt", skt_cli_root);
    return (char *)skt_cli_slurp(path, &len);
}

/* Fails the test when `pid` has ended (it should be held in a phase). */
void skt_sig_expect_still_running(pid_t pid, const char *what)
{
    int status;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
        char *err = skt_sig_child_stderr();
        cr_assert_fail("%s ended before the signal (status 0x%x): %s", what, status, err);
    }
}

void skt_sig_pause_briefly(void)
{
    usleep(1000);
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                    */
/* ------------------------------------------------------------------------ */

const char *skt_sig_signal_label(int sig)
{
    static char text[32];
    snprintf(text, sizeof text, "%s (%d)", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", sig);
    return text;
}

/* Ended by `sig`, with nothing on stderr. */
void skt_sig_expect_ended_by(int status, int sig, const char *what)
{
    char *err = skt_sig_child_stderr();
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == sig,
              "%s: expected the end by SIG%s, got %s %d; stderr: %s", what,
              skt_sig_signal_label(sig), WIFSIGNALED(status) ? "signal" : "exit",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), err);
    cr_assert_str_empty(err, "%s: wrote on stderr: %s", what, err);
    free(err);
}

/* 1 for ".BASE.XXXXXX", the name of a temporary file of the output BASE. */
static int is_temp_of(const char *name, size_t len, const char *base)
{
    size_t n = strlen(base);
    if (len != n + 8 || name[0] != '.' || strncmp(name + 1, base, n) != 0 || name[n + 1] != '.')
        return 0;
    for (size_t i = n + 2; i < len; i++)
        if (!isalnum((unsigned char)name[i]))
            return 0;
    return 1;
}

/* The listing without the temporary files of `bases` (each found once at
 * most is counted in found[]); the kept name of the first is in temp0. */
static char *without_temps(const char *listing, const char *const bases[2], int found[2],
                           char *temp0, size_t cap)
{
    char *out = calloc(strlen(listing) + 1, 1);
    cr_assert_not_null(out);
    found[0] = found[1] = 0;
    for (const char *line = listing; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = (size_t)(end - line);
        int which = -1;
        for (int b = 0; b < 2; b++)
            if (bases[b] && is_temp_of(line, len, bases[b]))
                which = b;
        if (which < 0)
            strncat(out, line, len + 1);
        else if (found[which]++ == 0 && which == 0)
            snprintf(temp0, cap, "%.*s", (int)len, line);
        line = end + 1;
    }
    return out;
}

/* `listing` with `name` added where it is not yet (kept sorted). */
static char *with_name(char *listing, const char *name)
{
    char line[256];
    snprintf(line, sizeof line, "%s\n", name);
    size_t len = strlen(line);
    for (char *p = listing; *p; p = strchr(p, '\n') + 1) {
        if (strncmp(p, line, len) == 0)
            return listing;
        if (strcmp(p, line) > 0) {
            char *out = malloc(strlen(listing) + len + 1);
            cr_assert_not_null(out);
            snprintf(out, strlen(listing) + len + 1, "%.*s%s%s", (int)(p - listing), listing, line,
                     p);
            free(listing);
            return out;
        }
    }
    listing = realloc(listing, strlen(listing) + len + 1);
    cr_assert_not_null(listing);
    strcat(listing, line);
    return listing;
}

/* The directory lists `before`, plus what `left` allows, nothing else. The
 * first temporary file's name goes to temp0 (when cap > 0). */
void skt_sig_expect_directory(const char *before, const skt_sig_leftovers *left, const char *what,
                              char *temp0, size_t cap)
{
    char *want = strdup(before), *after = skt_cli_listing("."), name0[256] = "";
    cr_assert_not_null(want);
    for (int i = 0; i < 2; i++)
        if (left->placed[i])
            want = with_name(want, left->placed[i]);
    int found[2];
    char *rest = without_temps(after, left->temps, found, name0, sizeof name0);
    cr_assert_str_eq(rest, want, "%s: the directory holds\n%s\nexpected\n%s", what, after, want);
    for (int i = 0; i < 2; i++)
        if (left->temps[i])
            cr_assert_eq(found[i], 1, "%s: expected one temporary file of %s, found %d:\n%s", what,
                         left->temps[i], found[i], after);
    if (cap)
        snprintf(temp0, cap, "%s", name0);
    free(want);
    free(after);
    free(rest);
}

/* Removes what a run left of temporary files (the work directory holds
 * no other name that starts with '.'), so that the next run starts clean. */
void skt_sig_remove_temps(void)
{
    char *names = skt_cli_listing(".");
    for (char *line = names, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        *end = '\0';
        if (line[0] == '.')
            cr_assert_eq(unlink(line), 0, "unlink %s: %s", line, strerror(errno));
    }
    free(names);
}

/* What SIGKILL leaves of the outputs of `c` that were open: nothing where
 * the temporary files are unnamed, each one's named file where not. */
skt_sig_leftovers skt_sig_killed_leftovers(const skt_sig_command *c, int sig, int named)
{
    skt_sig_leftovers left = {{NULL, NULL}, {NULL, NULL}};
    if (sig == SIGKILL && named) {
        left.temps[0] = c->outputs[0];
        left.temps[1] = c->outputs[1];
    }
    return left;
}

/* 1 when the work directory's filesystem makes unnamed temporary files (and
 * /proc can name them): the programs then do too. */
int skt_sig_unnamed_temps_here(void)
{
    int fd = open(".", O_TMPFILE | O_WRONLY, 0600);
    if (fd < 0)
        return 0;
    char link[64];
    struct stat st;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    int ok = stat(link, &st) == 0;
    close(fd);
    return ok;
}

int skt_sig_named_temps(skt_sig_temp_kind k)
{
    return k == SKT_SIG_TEMP_NAMED || !skt_sig_unnamed_temps_here();
}

/* ------------------------------------------------------------------------ */
/* strace and the skt_sig_reference outputs                                          */
/* ------------------------------------------------------------------------ */

/* Skips the test, saying why, where strace is missing or cannot trace. */
void skt_sig_require_strace(void)
{
    const char *path = getenv("PATH");
    char *dirs = strdup(path ? path : "/usr/bin:/bin");
    strace_path[0] = '\0';
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(strace_path, sizeof strace_path, "%s/strace", d);
        if (access(strace_path, X_OK) == 0)
            break;
        strace_path[0] = '\0';
    }
    free(dirs);
    if (!strace_path[0])
        cr_skip_test("strace is not installed (scripts/setup.sh installs it): the signals at "
                     "a given system call cannot be delivered");
    char *argv[] = {strace_path, "-qq", "-o", "/dev/null", "true", NULL};
    pid_t pid;
    int status;
    if (posix_spawnp(&pid, "strace", NULL, NULL, argv, environ) != 0 ||
        waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        cr_skip_test("strace cannot trace here (ptrace refused?)");
}

skt_sig_reference skt_sig_complete_run(const skt_sig_command *c)
{
    skt_cli_result r = skt_cli_run(c->tool, NULL, SKT_SIG_PROGRAM_CACHE, c->args);
    skt_cli_expect_success(&r, skt_sig_describe(c));
    skt_cli_free(&r);
    skt_sig_reference ref = {{NULL, NULL}, {0, 0}};
    for (int i = 0; i < 2; i++) {
        if (!c->outputs[i])
            continue;
        ref.data[i] = skt_cli_slurp(c->outputs[i], &ref.len[i]);
        cr_assert_eq(unlink(c->outputs[i]), 0);
    }
    return ref;
}

void skt_sig_reference_free(skt_sig_reference *ref)
{
    free(ref->data[0]);
    free(ref->data[1]);
}

void skt_sig_expect_content(const char *path, const void *want, size_t len, const char *what)
{
    size_t got_len;
    unsigned char *got = skt_cli_slurp(path, &got_len);
    cr_assert(got_len == len && memcmp(got, want, len) == 0, "%s: %s holds %zu other bytes", what,
              path, got_len);
    free(got);
}

void skt_sig_signal_at(const skt_sig_command *c, skt_sig_temp_kind kind,
                       const skt_sig_injection *in, const char *phase,
                       const skt_sig_leftovers *left)
{
    char *before = skt_cli_listing(".");
    skt_sig_launch l = {c, kind, -1, in, 0};
    int status = skt_sig_wait_for(skt_sig_start(&l));
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s %s, %s", skt_sig_describe(c),
             skt_sig_signal_label(in->signal), phase, skt_sig_kind_name(kind));
    skt_sig_expect_ended_by(status, in->signal, what);
    skt_sig_expect_directory(before, left, what, NULL, 0);
    skt_sig_remove_temps();
    free(before);
}
