/*
 * test_cli_signals.c - programs ended by a signal at each phase of a run
 * leave nothing behind: afterwards the output directory lists what it
 * listed before, plus the outputs a run had put into place when the signal
 * came, and no temporary file (".NAME.XXXXXX"), except what README says a
 * SIGKILL can leave. A program ends by the signal it got (a shell shows
 * 128 + its number, 141 for SIGPIPE); with SIGPIPE ignored, a closed pipe
 * is one line and exit 1.
 *
 * The phases are held, not raced:
 *   reading      the input is a named pipe the test keeps open;
 *   outputs open strace delivers the signal at the last output's fchmod,
 *                once every output is open and before anything is computed;
 *   writing      stdout is a pipe (4 KiB) that nobody reads, the output is
 *                larger, another output is pending; the test waits until
 *                the pipe is full, then signals or closes its end (SIGPIPE);
 *   committing   strace delivers the signal at the first fsync (everything
 *                written, nothing in place) and at the link or rename that
 *                puts the first output into place.
 *
 * Each runs on the test directory's filesystem as it is (O_TMPFILE on ext4,
 * tmpfs, xfs, btrfs: nothing has a name before the commit) and with
 * SCANKIT_NO_TMPFILE=1, which makes the programs use named temporary files
 * as on a filesystem without O_TMPFILE. The strace tests are skipped, with
 * the reason, where strace is missing or cannot trace.
 */
#define _GNU_SOURCE

#include <criterion/criterion.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "skt_cli.h"

extern char **environ;

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-clisig");
}

TestSuite(cli_signals, .init = cli_setup, .fini = skt_cli_dirs_close, .timeout = 120);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS 12
#define N_KEYS 8192 /* 32 KiB of keys: more than the 4 KiB pipe holds */

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */
/* ------------------------------------------------------------------------ */

/* A program, its arguments, and the outputs it writes to files, in the
 * order it puts them into place. */
typedef struct command {
    const char *tool;
    const char *args[MAX_ARGS + 1];
    const char *outputs[2];
} command;

static const command RADIXSORT = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "out.bin", "--values-out", "vals.bin", NULL},
    {"out.bin", "vals.bin"}};
static const command COMPACT = {
    "compact",
    {"k.bin", "--if", "x % 2 == 0", "--values", "v.bin", "-o", "out.bin", "--values-out",
     "vals.bin", NULL},
    {"out.bin", "vals.bin"}};
static const command SCAN = {"scan", {"k.bin", "-o", "out.bin", NULL}, {"out.bin", NULL}};

/* Writing to stdout while another output is pending (or finished). */
static const command RADIXSORT_KEYS_TO_STDOUT = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "-", "--values-out", "vals.bin", NULL},
    {"vals.bin", NULL}};
static const command RADIXSORT_VALUES_TO_STDOUT = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "out.bin", "--values-out", "-", NULL},
    {"out.bin", NULL}};
static const command COMPACT_TO_STDOUT = {
    "compact",
    {"k.bin", "--if", "x % 2 == 0", "--values", "v.bin", "-o", "-", "--values-out", "vals.bin",
     NULL},
    {"vals.bin", NULL}};
static const command SCAN_TO_STDOUT = {"scan", {"k.bin", "-o", "-", NULL}, {NULL, NULL}};

static size_t file_outputs(const command *c)
{
    return (size_t)(c->outputs[0] != NULL) + (c->outputs[1] != NULL);
}

/* `c` reading its first operand (k.bin) from `input`. */
static command reading_from(const command *c, const char *input)
{
    command r = *c;
    r.args[0] = input;
    return r;
}

static const char *describe(const command *c) { return skt_cli_describe(c->tool, c->args); }

/* k.bin and v.bin: N_KEYS uint32 keys and values; c.bin: 3 float32
 * coefficients. */
static void write_inputs(void)
{
    static uint32_t keys[N_KEYS], values[N_KEYS];
    uint32_t x = 12345;
    for (size_t i = 0; i < N_KEYS; i++) {
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

typedef enum temp_kind {
    TEMP_AS_IS, /* what the filesystem offers                        */
    TEMP_NAMED  /* SCANKIT_NO_TMPFILE=1: named, as without O_TMPFILE */
} temp_kind;

static const char *kind_name(temp_kind k)
{
    return k == TEMP_NAMED ? "named temporary files" : "temporary files as the filesystem has them";
}

/* A signal strace delivers when the program enters a system call. */
typedef struct injection {
    const char *syscalls; /* strace's syscall set, e.g. "fsync" */
    int signal;
    unsigned when;        /* at the when-th call */
} injection;

typedef struct launch {
    const command *cmd;
    temp_kind kind;
    int stdout_fd;             /* -1: a file beside the work directory      */
    const injection *inject;   /* NULL: not traced                          */
    int keep_sigpipe_ignored;  /* the test ignores SIGPIPE: so does the child */
} launch;

static char strace_path[4096];

/* The environment of the programs: the test's without SCANKIT_* (but
 * SCANKIT_DEVICE), the CLI tests' kernel cache, the temporary-file switch,
 * and no leak check under strace (LeakSanitizer cannot trace a traced
 * process; a traced run ends by a signal anyway). */
static char **child_env(const launch *l, char *cache, char *asan)
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
        int scankit = strncmp(environ[i], "SCANKIT_", 8) == 0 &&
                      strncmp(environ[i], "SCANKIT_DEVICE=", 15) != 0;
        int replaced = l->inject && strncmp(environ[i], "ASAN_OPTIONS=", 13) == 0;
        if (!scankit && !replaced)
            env[k++] = environ[i];
    }
    snprintf(cache, 4400, "SCANKIT_CACHE_DIR=%s/cli-test-cache", SKT_BINARY_DIR);
    env[k++] = cache;
    if (l->kind == TEMP_NAMED)
        env[k++] = "SCANKIT_NO_TMPFILE=1";
    if (l->inject)
        env[k++] = asan;
    env[k] = NULL;
    return env;
}

/* strace -f -qq -o /dev/null -e trace=S -e inject=S:signal=N:when=W, then
 * the program; returns the number of arguments put into argv. */
static int strace_prefix(const injection *in, char *argv[], char *trace, char *inject)
{
    snprintf(trace, 256, "trace=%s", in->syscalls);
    snprintf(inject, 256, "inject=%s:signal=%d:when=%u", in->syscalls, in->signal, in->when);
    char *prefix[] = {strace_path, "-f", "-qq", "-o", "/dev/null", "-e", trace, "-e", inject};
    memcpy(argv, prefix, sizeof prefix);
    return (int)COUNT(prefix);
}

static void set_child_signals(posix_spawnattr_t *attr, int keep_sigpipe_ignored)
{
    static const int defaults[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    sigset_t dfl, none;
    sigemptyset(&dfl);
    sigemptyset(&none);
    for (size_t i = 0; i < COUNT(defaults); i++)
        if (!(keep_sigpipe_ignored && defaults[i] == SIGPIPE))
            sigaddset(&dfl, defaults[i]);
    cr_assert_eq(posix_spawnattr_init(attr), 0);
    cr_assert_eq(posix_spawnattr_setsigdefault(attr, &dfl), 0);
    cr_assert_eq(posix_spawnattr_setsigmask(attr, &none), 0);
    cr_assert_eq(posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK),
                 0);
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
        cr_assert_eq(posix_spawn_file_actions_addopen(fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC,
                                                      0644), 0);
    cr_assert_eq(posix_spawn_file_actions_addopen(fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC,
                                                  0644), 0);
}

static pid_t start(const launch *l)
{
    char prog[4200], trace[256], inject[256], cache[4400], asan[4096];
    char *argv[MAX_ARGS + 16];
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

static int wait_for(pid_t pid)
{
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid, "waitpid: %s", strerror(errno));
    return status;
}

/* What the program (or strace) wrote on stderr; free() it. */
static char *child_stderr(void)
{
    char path[4300];
    size_t len;
    snprintf(path, sizeof path, "%s/stderr.txt", skt_cli_root);
    return (char *)skt_cli_slurp(path, &len);
}

/* Fails the test when `pid` has ended (it should be held in a phase). */
static void expect_still_running(pid_t pid, const char *what)
{
    int status;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
        char *err = child_stderr();
        cr_assert_fail("%s ended before the signal (status 0x%x): %s", what, status, err);
    }
}

static void pause_briefly(void)
{
    usleep(1000);
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                    */
/* ------------------------------------------------------------------------ */

static const char *signal_label(int sig)
{
    static char text[32];
    snprintf(text, sizeof text, "%s (%d)", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", sig);
    return text;
}

/* Ended by `sig`, with nothing on stderr. */
static void expect_ended_by(int status, int sig, const char *what)
{
    char *err = child_stderr();
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == sig,
              "%s: expected the end by SIG%s, got %s %d; stderr: %s", what, signal_label(sig),
              WIFSIGNALED(status) ? "signal" : "exit",
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
            snprintf(out, strlen(listing) + len + 1, "%.*s%s%s", (int)(p - listing), listing,
                     line, p);
            free(listing);
            return out;
        }
    }
    listing = realloc(listing, strlen(listing) + len + 1);
    cr_assert_not_null(listing);
    strcat(listing, line);
    return listing;
}

/* What a run may leave: the outputs it put into place (added to the
 * listing where new) and, for each output in `temps`, one temporary file. */
typedef struct leftovers {
    const char *placed[2];
    const char *temps[2];
} leftovers;

/* The directory lists `before`, plus what `left` allows, nothing else. The
 * first temporary file's name goes to temp0 (when cap > 0). */
static void expect_directory(const char *before, const leftovers *left, const char *what,
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
            cr_assert_eq(found[i], 1, "%s: expected one temporary file of %s, found %d:\n%s",
                         what, left->temps[i], found[i], after);
    if (cap)
        snprintf(temp0, cap, "%s", name0);
    free(want);
    free(after);
    free(rest);
}

/* Removes what a run left of temporary files (the work directory holds
 * no other name that starts with '.'), so that the next run starts clean. */
static void remove_temps(void)
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
static leftovers killed_leftovers(const command *c, int sig, int named)
{
    leftovers left = {{NULL, NULL}, {NULL, NULL}};
    if (sig == SIGKILL && named) {
        left.temps[0] = c->outputs[0];
        left.temps[1] = c->outputs[1];
    }
    return left;
}

/* 1 when the work directory's filesystem makes unnamed temporary files (and
 * /proc can name them): the programs then do too. */
static int unnamed_temps_here(void)
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

static int named_temps(temp_kind k)
{
    return k == TEMP_NAMED || !unnamed_temps_here();
}

/* ------------------------------------------------------------------------ */
/* strace and the reference outputs                                          */
/* ------------------------------------------------------------------------ */

/* Skips the test, saying why, where strace is missing or cannot trace. */
static void require_strace(void)
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

/* The outputs of a complete run of `c`, kept in memory and removed from
 * the directory (which also puts the kernels into the program cache, so
 * that the traced runs make the same system calls as any later run). */
typedef struct reference {
    unsigned char *data[2];
    size_t len[2];
} reference;

static reference complete_run(const command *c)
{
    skt_cli_result r = skt_cli_run(c->tool, NULL, NULL, c->args);
    skt_cli_expect_success(&r, describe(c));
    skt_cli_free(&r);
    reference ref = {{NULL, NULL}, {0, 0}};
    for (int i = 0; i < 2; i++) {
        if (!c->outputs[i])
            continue;
        ref.data[i] = skt_cli_slurp(c->outputs[i], &ref.len[i]);
        cr_assert_eq(unlink(c->outputs[i]), 0);
    }
    return ref;
}

static void reference_free(reference *ref)
{
    free(ref->data[0]);
    free(ref->data[1]);
}

static void expect_content(const char *path, const void *want, size_t len, const char *what)
{
    size_t got_len;
    unsigned char *got = skt_cli_slurp(path, &got_len);
    cr_assert(got_len == len && memcmp(got, want, len) == 0, "%s: %s holds %zu other bytes", what,
              path, got_len);
    free(got);
}

/* ------------------------------------------------------------------------ */
/* Reading: the input is a named pipe the test keeps open                    */
/* ------------------------------------------------------------------------ */

/* Opens the pipe's writing end once the program has opened its reading
 * end. */
static int open_fifo_writer(const char *path, pid_t pid, const char *what)
{
    for (;;) {
        int fd = open(path, O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            return fd;
        cr_assert_eq(errno, ENXIO, "open %s: %s", path, strerror(errno));
        expect_still_running(pid, what);
        pause_briefly();
    }
}

/* Waits until the program has read everything written to the pipe. */
static void wait_drained(int fd, pid_t pid, const char *what)
{
    int queued;
    while (ioctl(fd, FIONREAD, &queued) == 0 && queued > 0) {
        expect_still_running(pid, what);
        pause_briefly();
    }
}

static void signal_while_reading(const command *c, temp_kind kind, int sig)
{
    command held = reading_from(c, "in.fifo");
    char *before = skt_cli_listing(".");
    launch l = {&held, kind, -1, NULL, 0};
    pid_t pid = start(&l);
    int fd = open_fifo_writer("in.fifo", pid, describe(&held));
    cr_assert_eq(write(fd, "\1\0\0\0", 4), 4);
    wait_drained(fd, pid, describe(&held));
    cr_assert_eq(kill(pid, sig), 0);
    int status = wait_for(pid);
    close(fd);
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s while reading, %s", describe(&held),
             signal_label(sig), kind_name(kind));
    expect_ended_by(status, sig, what);
    leftovers none = {{NULL, NULL}, {NULL, NULL}};
    expect_directory(before, &none, what, NULL, 0);
    free(before);
}

Test(cli_signals, a_signal_while_the_input_is_read_leaves_the_directory_as_it_was)
{
    write_inputs();
    cr_assert_eq(mkfifo("in.fifo", 0600), 0, "mkfifo: %s", strerror(errno));
    static const command *const programs[] = {&RADIXSORT, &COMPACT, &SCAN};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL, SIGHUP};
    for (temp_kind k = TEMP_AS_IS; k <= TEMP_NAMED; k++)
        for (size_t p = 0; p < COUNT(programs); p++)
            for (size_t s = 0; s < COUNT(signals); s++)
                signal_while_reading(programs[p], k, signals[s]);
}

/* ------------------------------------------------------------------------ */
/* Outputs open, nothing computed yet                                        */
/* ------------------------------------------------------------------------ */

static void signal_at(const command *c, temp_kind kind, const injection *in, const char *phase,
                      const leftovers *left)
{
    char *before = skt_cli_listing(".");
    launch l = {c, kind, -1, in, 0};
    int status = wait_for(start(&l));
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s %s, %s", describe(c), signal_label(in->signal), phase,
             kind_name(kind));
    expect_ended_by(status, in->signal, what);
    expect_directory(before, left, what, NULL, 0);
    remove_temps();
    free(before);
}

Test(cli_signals, a_signal_once_the_outputs_are_open_leaves_only_what_sigkill_leaves_of_named_files)
{
    require_strace();
    write_inputs();
    static const command *const programs[] = {&RADIXSORT, &COMPACT, &SCAN};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL};
    for (temp_kind k = TEMP_AS_IS; k <= TEMP_NAMED; k++)
        for (size_t p = 0; p < COUNT(programs); p++)
            for (size_t s = 0; s < COUNT(signals); s++) {
                injection at_last_open = {"fchmod", signals[s],
                                          (unsigned)file_outputs(programs[p])};
                leftovers left = killed_leftovers(programs[p], signals[s], named_temps(k));
                signal_at(programs[p], k, &at_last_open, "once the outputs are open", &left);
            }
}

/* ------------------------------------------------------------------------ */
/* Writing: stdout is a full pipe, another output pending                    */
/* ------------------------------------------------------------------------ */

/* A pipe of one page; *size is what it holds. */
static void small_pipe(int fds[2], int *size)
{
    cr_assert_eq(pipe2(fds, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
    fcntl(fds[0], F_SETPIPE_SZ, 4096);
    *size = fcntl(fds[0], F_GETPIPE_SZ);
    cr_assert_gt(*size, 0, "F_GETPIPE_SZ: %s", strerror(errno));
}

/* Waits until the program has filled the pipe: it is then inside a write
 * to stdout that cannot end, every output open. */
static void wait_full(int fd, int size, pid_t pid, const char *what)
{
    int queued;
    while (ioctl(fd, FIONREAD, &queued) == 0 && queued < size) {
        expect_still_running(pid, what);
        pause_briefly();
    }
}

/* SIGPIPE comes as it comes in a pipeline: the reader goes away. */
static void signal_while_writing(const command *c, temp_kind kind, int sig)
{
    char *before = skt_cli_listing(".");
    int fds[2], size;
    small_pipe(fds, &size);
    launch l = {c, kind, fds[1], NULL, 0};
    pid_t pid = start(&l);
    close(fds[1]);
    wait_full(fds[0], size, pid, describe(c));
    if (sig == SIGPIPE)
        close(fds[0]);
    else
        cr_assert_eq(kill(pid, sig), 0);
    int status = wait_for(pid);
    if (sig != SIGPIPE)
        close(fds[0]);
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s while writing stdout, %s", describe(c),
             signal_label(sig), kind_name(kind));
    expect_ended_by(status, sig, what);
    leftovers left = killed_leftovers(c, sig, named_temps(kind));
    expect_directory(before, &left, what, NULL, 0);
    remove_temps();
    free(before);
}

Test(cli_signals, a_signal_while_an_output_is_written_leaves_only_what_sigkill_leaves_of_named_files)
{
    skt_cli_require_any_device();
    write_inputs();
    reference warm[] = {complete_run(&RADIXSORT), complete_run(&COMPACT), complete_run(&SCAN)};
    static const command *const programs[] = {&RADIXSORT_KEYS_TO_STDOUT,
                                              &RADIXSORT_VALUES_TO_STDOUT, &COMPACT_TO_STDOUT,
                                              &SCAN_TO_STDOUT};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL};
    for (temp_kind k = TEMP_AS_IS; k <= TEMP_NAMED; k++)
        for (size_t p = 0; p < COUNT(programs); p++)
            for (size_t s = 0; s < COUNT(signals); s++)
                signal_while_writing(programs[p], k, signals[s]);
    for (size_t i = 0; i < COUNT(warm); i++)
        reference_free(&warm[i]);
}

/* ------------------------------------------------------------------------ */
/* Committing                                                                */
/* ------------------------------------------------------------------------ */

Test(cli_signals, a_signal_just_before_the_commit_leaves_only_what_sigkill_leaves_of_named_files)
{
    require_strace();
    skt_cli_require_any_device();
    write_inputs();
    static const command *const programs[] = {&RADIXSORT, &COMPACT, &SCAN};
    reference warm[] = {complete_run(&RADIXSORT), complete_run(&COMPACT), complete_run(&SCAN)};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL};
    for (temp_kind k = TEMP_AS_IS; k <= TEMP_NAMED; k++)
        for (size_t s = 0; s < COUNT(signals); s++) {
            const command *c = programs[(s + k) % COUNT(programs)];
            injection at_first_sync = {"fsync", signals[s], 1};
            leftovers left = killed_leftovers(c, signals[s], named_temps(k));
            signal_at(c, k, &at_first_sync, "with every output written", &left);
        }
    for (size_t i = 0; i < COUNT(warm); i++)
        reference_free(&warm[i]);
}

static void write_old_outputs(void)
{
    skt_cli_write_file("out.bin", "old!", 4);
    skt_cli_write_file("vals.bin", "old!", 4);
}

/* radixsort with out.bin and vals.bin there, a signal at one of the first
 * output's system calls; `placed`: out.bin is new afterwards, `temps`: one
 * temporary file of out.bin (and of vals.bin, `temps` 2) is left holding
 * the new output. vals.bin is old in every case. */
static void signal_in_the_commit(temp_kind kind, injection in, int placed, int temps,
                                 const reference *ref)
{
    write_old_outputs();
    char *before = skt_cli_listing(".");
    launch l = {&RADIXSORT, kind, -1, &in, 0};
    int status = wait_for(start(&l));
    char what[640], temp0[256];
    snprintf(what, sizeof what, "%s, SIG%s at %s call %u, %s", describe(&RADIXSORT),
             signal_label(in.signal), in.syscalls, in.when, kind_name(kind));
    expect_ended_by(status, in.signal, what);
    leftovers left = {{NULL, NULL}, {temps ? "out.bin" : NULL, temps == 2 ? "vals.bin" : NULL}};
    expect_directory(before, &left, what, temp0, sizeof temp0);
    if (placed)
        expect_content("out.bin", ref->data[0], ref->len[0], what);
    else
        expect_content("out.bin", "old!", 4, what);
    expect_content("vals.bin", "old!", 4, what);
    if (temps)
        expect_content(temp0, ref->data[0], ref->len[0], what);
    remove_temps();
    free(before);
}

/* The same where the outputs do not exist yet: an unnamed file is linked
 * to its name directly; `placed`: out.bin is there afterwards. */
static void signal_at_a_first_link(int sig, int placed, const reference *ref)
{
    unlink("out.bin");
    unlink("vals.bin");
    char *before = skt_cli_listing(".");
    injection in = {"linkat", sig, 1};
    launch l = {&RADIXSORT, TEMP_AS_IS, -1, &in, 0};
    int status = wait_for(start(&l));
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s at the link of a new output", describe(&RADIXSORT),
             signal_label(sig));
    expect_ended_by(status, sig, what);
    leftovers left = {{placed ? "out.bin" : NULL, NULL}, {NULL, NULL}};
    expect_directory(before, &left, what, NULL, 0);
    if (placed)
        expect_content("out.bin", ref->data[0], ref->len[0], what);
    free(before);
}

/* Between the link of an unnamed file under a hidden name and its rename
 * over the destination (and during a named file's rename), a caught signal
 * waits until the output is in place, then ends the program: the first
 * output is new, the second old, no temporary file. SIGKILL there leaves the
 * hidden name, holding the complete new output (README says so); on the
 * named path it leaves both named files. */
Test(cli_signals, a_signal_in_the_commit_lets_the_output_in_hand_finish_and_sigkill_leaves_it_whole)
{
    require_strace();
    skt_cli_require_any_device();
    write_inputs();
    reference ref = complete_run(&RADIXSORT);
    static const char renames[] = "?rename,?renameat,?renameat2";
    signal_in_the_commit(TEMP_NAMED, (injection){renames, SIGPIPE, 1}, 1, 0, &ref);
    signal_in_the_commit(TEMP_NAMED, (injection){renames, SIGKILL, 1}, 0, 2, &ref);
    if (!unnamed_temps_here()) {
        cr_log_warn("no O_TMPFILE in %s: the unnamed files' commit is not checked", skt_cli_work);
        reference_free(&ref);
        return;
    }
    /* Link 1 to out.bin fails (it exists), link 2 makes the hidden name. */
    signal_in_the_commit(TEMP_AS_IS, (injection){"linkat", SIGINT, 1}, 1, 0, &ref);
    signal_in_the_commit(TEMP_AS_IS, (injection){"linkat", SIGKILL, 1}, 0, 0, &ref);
    signal_in_the_commit(TEMP_AS_IS, (injection){"linkat", SIGTERM, 2}, 1, 0, &ref);
    signal_in_the_commit(TEMP_AS_IS, (injection){renames, SIGPIPE, 1}, 1, 0, &ref);
    signal_in_the_commit(TEMP_AS_IS, (injection){renames, SIGKILL, 1}, 0, 1, &ref);
    signal_at_a_first_link(SIGHUP, 1, &ref);
    signal_at_a_first_link(SIGKILL, 0, &ref);
    reference_free(&ref);
}

/* ------------------------------------------------------------------------ */
/* SIGPIPE ignored: a closed pipe is a write error                           */
/* ------------------------------------------------------------------------ */

Test(cli_signals, with_sigpipe_ignored_a_closed_pipe_is_one_line_naming_the_reason)
{
    skt_cli_require_any_device();
    write_inputs();
    reference warm[] = {complete_run(&RADIXSORT), complete_run(&COMPACT), complete_run(&SCAN)};
    static const command polyeval = {"polyeval", {"c.bin", "--x", "0.5,1,2", NULL}, {NULL, NULL}};
    static const command *const programs[] = {&RADIXSORT_KEYS_TO_STDOUT, &COMPACT_TO_STDOUT,
                                              &SCAN_TO_STDOUT, &polyeval};
    cr_assert_neq(signal(SIGPIPE, SIG_IGN), SIG_ERR);
    for (temp_kind k = TEMP_AS_IS; k <= TEMP_NAMED; k++)
        for (size_t p = 0; p < COUNT(programs); p++) {
            const command *c = programs[p];
            char *before = skt_cli_listing(".");
            int fds[2];
            cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
            close(fds[0]);
            launch l = {c, k, fds[1], NULL, 1};
            pid_t pid = start(&l);
            close(fds[1]);
            int status = wait_for(pid);
            char *err = child_stderr(), want[128];
            snprintf(want, sizeof want, "%s: stdout: write failed: %s\n", c->tool,
                     strerror(EPIPE));
            cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: status 0x%x: %s",
                      describe(c), status, err);
            cr_assert_str_eq(err, want, "%s", describe(c));
            leftovers none = {{NULL, NULL}, {NULL, NULL}};
            expect_directory(before, &none, describe(c), NULL, 0);
            free(err);
            free(before);
        }
    for (size_t i = 0; i < COUNT(warm); i++)
        reference_free(&warm[i]);
}
