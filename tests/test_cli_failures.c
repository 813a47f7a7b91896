/*
 * test_cli_failures.c - failures injected around every program (scan,
 * compact, radixsort, segscan, polyeval, datagen), each answered by exactly
 * one line on stderr and exit 1, with nothing left behind: no output, no
 * temporary file, every input as it was.
 *
 *   an unknown SCANKIT_DEVICE, a directory where a file should be (input,
 *   output, stdin), an output that names one of the program's inputs, a
 *   missing input of any kind, a directory where no file can be created,
 *   a full device, a kernel that fails to build after the output was
 *   opened, input that arrives through a named pipe, and a damaged
 *   program cache.
 *
 * The single-program cases of test_cli*.c are not repeated here; these run
 * across programs and inputs. Each test runs in a fresh directory (see
 * skt_cli.h), whose listing shows what a program left.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scankit.h"
#include "skt_cli.h"

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-clifail");
}

TestSuite(cli_failures, .init = cli_setup, .fini = skt_cli_dirs_close, .timeout = 180);

/* ------------------------------------------------------------------------ */
/* Inputs and checks                                                         */
/* ------------------------------------------------------------------------ */

static const uint32_t DATA[4] = {3, 1, 4, 1};
static const unsigned char HEADS[4] = {1, 0, 1, 0};
static const uint32_t STARTS[2] = {0, 2};
static const float COEFFS[3] = {1.0f, 2.0f, 3.0f};
static const float POINTS[2] = {0.5f, -1.0f};

/* d.bin (4 uint32), v.bin (4 uint32 values), h.u8 (4 head flags), o.bin
 * (2 uint32 offsets), c.bin (3 float32 coefficients), p.bin (2 points). */
static void write_inputs(void)
{
    skt_cli_write_file("d.bin", DATA, sizeof DATA);
    skt_cli_write_file("v.bin", DATA, sizeof DATA);
    skt_cli_write_file("h.u8", HEADS, sizeof HEADS);
    skt_cli_write_file("o.bin", STARTS, sizeof STARTS);
    skt_cli_write_file("c.bin", COEFFS, sizeof COEFFS);
    skt_cli_write_file("p.bin", POINTS, sizeof POINTS);
}

/* The inputs are all there, unchanged. */
static void expect_inputs_unchanged(const char *what)
{
    static const struct {
        const char *path;
        const void *data;
        size_t len;
    } files[] = {
        {"d.bin", DATA, sizeof DATA},   {"v.bin", DATA, sizeof DATA},
        {"h.u8", HEADS, sizeof HEADS},  {"o.bin", STARTS, sizeof STARTS},
        {"c.bin", COEFFS, sizeof COEFFS}, {"p.bin", POINTS, sizeof POINTS},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        unsigned char *got = skt_cli_slurp(files[i].path, &len);
        cr_assert(len == files[i].len && memcmp(got, files[i].data, len) == 0,
                  "%s: %s was changed", what, files[i].path);
        free(got);
    }
}

#define MAX_ARGS 16

/* A command line: the program, then its arguments up to a NULL. */
typedef struct command {
    const char *tool;
    const char *args[MAX_ARGS + 1];
} command;

static const char *describe(const command *c) { return skt_cli_describe(c->tool, c->args); }

/* Runs `c` (stdin from stdin_path, NULL: /dev/null) and expects exit 1,
 * one line "<tool>: ...<needle>...", nothing on stdout, the inputs as they
 * were and the working directory as it was. */
static void expect_clean_failure(const command *c, const char *stdin_path, const char *needle)
{
    char *before = skt_cli_listing(".");
    skt_cli_result r = skt_cli_run(c->tool, stdin_path, NULL, c->args);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: ", c->tool);
    cr_assert_eq(r.code, 1, "%s: exit %d, stderr: %s", describe(c), r.code, r.err);
    skt_cli_expect_one_line_failure(&r, prefix, needle);
    cr_assert_eq(r.out_len, 0, "%s: wrote to stdout", describe(c));
    char *after = skt_cli_listing(".");
    cr_assert_str_eq(after, before, "%s: the directory changed", describe(c));
    expect_inputs_unchanged(describe(c));
    skt_cli_free(&r);
    free(before);
    free(after);
}

static void expect_all_fail_cleanly(const command *cases, size_t count, const char *needle)
{
    for (size_t i = 0; i < count; i++)
        expect_clean_failure(&cases[i], NULL, needle);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void require_device(void)
{
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0)
        cr_skip_test("no OpenCL device");
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

Test(cli_failures, an_unknown_scankit_device_is_one_line_naming_it_in_every_device_program)
{
    write_inputs();
    setenv("SCANKIT_DEVICE", "no-such-device-anywhere", 1);
    static const command cases[] = {
        {"scan", {"d.bin", NULL}},
        {"compact", {"d.bin", "--unique", NULL}},
        {"radixsort", {"d.bin", "--values", "v.bin", NULL}},
        {"segscan", {"d.bin", "--flags", "h.u8", NULL}},
        {"polyeval", {"c.bin", "--points", "p.bin", "-o", "y.bin", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "SCANKIT_DEVICE='no-such-device-anywhere'");
}

/* The OpenCL compiler may print its own diagnostics first: the program's
 * line is the last one. */
Test(cli_failures, a_kernel_that_fails_to_build_after_the_output_was_opened_leaves_no_temporary_file)
{
    require_device();
    write_inputs();
    static const command cases[] = {
        {"compact", {"d.bin", "--if", "x +* (", NULL}},
        {"compact", {"d.bin", "--partition", "no_such_function(x)", "--values", "v.bin", NULL}},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        skt_cli_result r = skt_cli_run(cases[i].tool, NULL, NULL, cases[i].args);
        skt_cli_expect_failure(&r, "compact: ", 1, "does not compile");
        char *names = skt_cli_listing(".");
        cr_assert_str_eq(names, "c.bin\nd.bin\nh.u8\no.bin\np.bin\nv.bin\n", "%s left: %s",
                         describe(&cases[i]), names);
        free(names);
        skt_cli_free(&r);
    }
}

/* ------------------------------------------------------------------------ */
/* A damaged program cache                                                   */
/* ------------------------------------------------------------------------ */

static const command CACHED_RUNS[] = {
    {"scan", {"d.bin", "-o", "s.out", NULL}},
    {"compact", {"d.bin", "--unique", "-o", "u.out", NULL}},
    {"radixsort", {"d.bin", "--values", "v.bin", "-o", "r.out", "--values-out", "rv.out", NULL}},
    {"segscan", {"d.bin", "--flags", "h.u8", "-o", "g.out", NULL}},
    {"polyeval", {"c.bin", "--points", "p.bin", "-o", "y.out", NULL}},
};
static const char *const CACHED_OUTPUTS[] = {"s.out", "u.out", "r.out", "rv.out", "g.out",
                                             "y.out"};

/* Runs every program with the cache in `cache`; each must succeed. */
static void run_cached(const char *cache, const char *what)
{
    for (size_t i = 0; i < COUNT(CACHED_RUNS); i++) {
        skt_cli_result r = skt_cli_run(CACHED_RUNS[i].tool, NULL, cache, CACHED_RUNS[i].args);
        cr_assert_eq(r.code, 0, "%s, %s: exit %d: %s", what, describe(&CACHED_RUNS[i]), r.code,
                     r.err);
        skt_cli_free(&r);
    }
}

/* Applies `damage` to every regular file in `dir`; how many it found. */
static size_t damage_entries(const char *dir, void (*damage)(const char *path, off_t size))
{
    char *names = skt_cli_listing(dir);
    size_t n = 0;
    for (char *name = strtok(names, "\n"); name; name = strtok(NULL, "\n")) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        damage(path, st.st_size);
        n++;
    }
    free(names);
    return n;
}

static void halve(const char *path, off_t size)
{
    cr_assert_eq(truncate(path, size / 2), 0, "truncate %s", path);
}

static void into_fifo(const char *path, off_t size)
{
    (void)size;
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(mkfifo(path, 0644), 0, "mkfifo %s", path);
}

/* Every device program after its cache entries were cut in half, then
 * replaced by FIFOs: exit 0, the same outputs, nothing else left. */
Test(cli_failures, a_damaged_program_cache_gives_the_same_answers_in_every_device_program)
{
    require_device();
    write_inputs();
    char cache[] = "/tmp/skt-clifail-cache-XXXXXX";
    cr_assert_not_null(mkdtemp(cache));
    run_cached(cache, "a fresh cache");
    size_t bytes[COUNT(CACHED_OUTPUTS)];
    unsigned char *first[COUNT(CACHED_OUTPUTS)];
    for (size_t i = 0; i < COUNT(CACHED_OUTPUTS); i++)
        first[i] = skt_cli_slurp(CACHED_OUTPUTS[i], &bytes[i]);
    char *listing = skt_cli_listing(".");

    void (*damages[])(const char *, off_t) = {halve, into_fifo};
    const char *names[] = {"entries cut in half", "entries replaced by FIFOs"};
    for (size_t d = 0; d < COUNT(damages); d++) {
        for (size_t i = 0; i < COUNT(CACHED_OUTPUTS); i++) remove(CACHED_OUTPUTS[i]);
        cr_assert_gt(damage_entries(cache, damages[d]), 0, "no cache entry to damage");
        run_cached(cache, names[d]);
        for (size_t i = 0; i < COUNT(CACHED_OUTPUTS); i++)
            skt_cli_expect_file(CACHED_OUTPUTS[i], 0, first[i], bytes[i]);
        char *now = skt_cli_listing(".");
        cr_assert_str_eq(now, listing, "%s: the directory holds other files", names[d]);
        free(now);
    }
    for (size_t i = 0; i < COUNT(CACHED_OUTPUTS); i++) free(first[i]);
    free(listing);
    skt_cli_remove_tree(cache);
}

/* ------------------------------------------------------------------------ */
/* Directories where files should be                                         */
/* ------------------------------------------------------------------------ */

Test(cli_failures, a_directory_given_as_any_input_is_one_line_and_exit_1)
{
    write_inputs();
    cr_assert_eq(mkdir("dir", 0755), 0);
    static const command cases[] = {
        {"scan", {"dir", NULL}},
        {"compact", {"dir", "--unique", NULL}},
        {"compact", {"d.bin", "--flags", "dir", NULL}},
        {"compact", {"d.bin", "--unique", "--values", "dir", NULL}},
        {"radixsort", {"dir", NULL}},
        {"radixsort", {"d.bin", "--values", "dir", NULL}},
        {"segscan", {"dir", "--flags", "h.u8", NULL}},
        {"segscan", {"d.bin", "--offsets", "dir", NULL}},
        {"polyeval", {"dir", "--x", "1", NULL}},
        {"polyeval", {"c.bin", "--points", "dir", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "dir: is a directory");
}

Test(cli_failures, a_directory_on_stdin_is_one_line_and_exit_1)
{
    write_inputs();
    cr_assert_eq(mkdir("dir", 0755), 0);
    static const command cases[] = {
        {"scan", {"-", NULL}},
        {"compact", {"-", "--unique", NULL}},
        {"radixsort", {"-", NULL}},
        {"segscan", {"d.bin", "--flags", "-", NULL}},
        {"polyeval", {"-", "--x", "1", NULL}},
    };
    for (size_t i = 0; i < COUNT(cases); i++)
        expect_clean_failure(&cases[i], "dir", "stdin: is a directory");
}

Test(cli_failures, a_directory_given_as_any_output_is_one_line_and_exit_1)
{
    write_inputs();
    cr_assert_eq(mkdir("dir", 0755), 0);
    static const command cases[] = {
        {"scan", {"d.bin", "-o", "dir", NULL}},
        {"compact", {"d.bin", "--unique", "-o", "dir", NULL}},
        {"compact", {"d.bin", "--unique", "--values", "v.bin", "--values-out", "dir", NULL}},
        {"radixsort", {"d.bin", "-o", "dir", NULL}},
        {"radixsort", {"d.bin", "--values", "v.bin", "--values-out", "dir", NULL}},
        {"segscan", {"d.bin", "--flags", "h.u8", "-o", "dir", NULL}},
        {"polyeval", {"c.bin", "--x", "1", "-o", "dir", NULL}},
        {"datagen", {"-n", "10", "-o", "dir", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "dir: is a directory");
}

/* ------------------------------------------------------------------------ */
/* Outputs that would replace an input                                       */
/* ------------------------------------------------------------------------ */

Test(cli_failures, an_output_naming_any_other_input_is_refused_even_in_place)
{
    write_inputs();
    static const command cases[] = {
        {"compact", {"d.bin", "--unique", "--values", "v.bin", "--values-out", "d.bin", NULL}},
        {"compact", {"d.bin", "--if", "1", "--values", "v.bin", "-o", "v.bin", NULL}},
        {"compact", {"d.bin", "--flags", "h.u8", "-o", "./h.u8", "--in-place", NULL}},
        {"radixsort", {"d.bin", "--values", "v.bin", "--values-out", "d.bin", NULL}},
        {"radixsort", {"d.bin", "--values", "v.bin", "-o", "v.bin", "--in-place", NULL}},
        {"segscan", {"d.bin", "--flags", "h.u8", "-o", "h.u8", NULL}},
        {"segscan", {"d.bin", "--offsets", "o.bin", "-o", "./o.bin", NULL}},
        {"polyeval", {"c.bin", "--points", "p.bin", "-o", "p.bin", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "is one of the input files");
}

Test(cli_failures, an_output_naming_its_input_points_to_in_place_only_where_it_exists)
{
    write_inputs();
    static const command with_option[] = {
        {"scan", {"d.bin", "-o", "./d.bin", NULL}},
        {"compact", {"d.bin", "--unique", "-o", "d.bin", NULL}},
        {"radixsort", {"d.bin", "--values", "v.bin", "--values-out", "v.bin", NULL}},
    };
    static const command without_option[] = {
        {"segscan", {"d.bin", "--flags", "h.u8", "-o", "d.bin", NULL}},
        {"polyeval", {"c.bin", "--x", "1", "-o", "c.bin", NULL}},
        {"compact", {"d.bin", "--unique", "--values", "v.bin", "--values-out", "v.bin", NULL}},
    };
    expect_all_fail_cleanly(with_option, COUNT(with_option),
                            "is the input file; use --in-place to overwrite it");
    expect_all_fail_cleanly(without_option, COUNT(without_option),
                            "is the input file; write the output elsewhere");
}

Test(cli_failures, two_outputs_naming_one_file_are_refused_however_spelt)
{
    write_inputs();
    static const command compact = {
        "compact", {"d.bin", "--unique", "--values", "v.bin", "-o", "out.bin", "--values-out",
                    "./out.bin", NULL}};
    static const command radixsort = {
        "radixsort", {"d.bin", "--values", "v.bin", "-o", "out.bin", "--values-out",
                      "../work/out.bin", NULL}};
    expect_clean_failure(&compact, NULL, "both outputs would be written to out.bin");
    expect_clean_failure(&radixsort, NULL, "both outputs would be written to out.bin");
}

/* ------------------------------------------------------------------------ */
/* Missing inputs, unwritable places, full devices                           */
/* ------------------------------------------------------------------------ */

Test(cli_failures, a_missing_input_of_any_kind_is_one_line_naming_it)
{
    write_inputs();
    static const command cases[] = {
        {"compact", {"d.bin", "--flags", "missing", NULL}},
        {"compact", {"d.bin", "--unique", "--values", "missing", NULL}},
        {"radixsort", {"d.bin", "--values", "missing", NULL}},
        {"segscan", {"missing", "--flags", "h.u8", NULL}},
        {"segscan", {"d.bin", "--offsets", "missing", NULL}},
        {"polyeval", {"missing", "--x", "1", NULL}},
        {"polyeval", {"c.bin", "--points", "missing", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "missing: cannot open: No such file");
}

/* /proc takes no new files, whoever asks (root included, for whom the
 * permission bits of a directory mean nothing). */
Test(cli_failures, a_directory_that_takes_no_new_file_is_one_line_in_every_program)
{
    struct stat st;
    if (stat("/proc/self", &st) != 0)
        cr_skip_test("no /proc");
    write_inputs();
    static const command cases[] = {
        {"scan", {"d.bin", "-o", "/proc/scankit-out.bin", NULL}},
        {"compact", {"d.bin", "--unique", "-o", "/proc/scankit-out.bin", NULL}},
        {"radixsort", {"d.bin", "-o", "/proc/scankit-out.bin", NULL}},
        {"segscan", {"d.bin", "--flags", "h.u8", "-o", "/proc/scankit-out.bin", NULL}},
        {"polyeval", {"c.bin", "--x", "1", "-o", "/proc/scankit-out.bin", NULL}},
        {"datagen", {"-n", "10", "-o", "/proc/scankit-out.bin", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "cannot create a file in '/proc'");
}

Test(cli_failures, a_full_device_is_one_line_and_exit_1_in_every_program)
{
    require_device();
    if (access("/dev/full", W_OK) != 0)
        cr_skip_test("no writable /dev/full");
    write_inputs();
    static const command cases[] = {
        {"compact", {"d.bin", "--unique", "-o", "/dev/full", NULL}},
        {"compact", {"d.bin", "--unique", "--values", "v.bin", "--values-out", "/dev/full", NULL}},
        {"radixsort", {"d.bin", "-o", "/dev/full", NULL}},
        {"radixsort", {"d.bin", "--values", "v.bin", "--values-out", "/dev/full", NULL}},
        {"segscan", {"d.bin", "--flags", "h.u8", "-o", "/dev/full", NULL}},
        {"polyeval", {"c.bin", "--points", "p.bin", "-o", "/dev/full", NULL}},
    };
    expect_all_fail_cleanly(cases, COUNT(cases), "No space left on device");
}

/* --help, --version and --list-devices write to stdout too: a full one is
 * the same one line with its reason as any other failed write. */
Test(cli_failures, help_version_and_device_list_on_a_full_stdout_are_one_line_with_the_reason)
{
    static const char *const tools[] = {"scan",    "compact",  "radixsort", "merge",
                                        "segscan", "polyeval", "datagen"};
    static const char *const options[] = {"--help", "--version", "--list-devices"};
    for (size_t t = 0; t < COUNT(tools); t++) {
        for (size_t o = 0; o < COUNT(options); o++) {
            if (o == 2 && strcmp(tools[t], "datagen") == 0) continue; /* no device */
            char cmd[4400], prefix[64];
            snprintf(cmd, sizeof cmd, "exec %s/%s %s > /dev/full", SKT_APP_DIR, tools[t],
                     options[o]);
            char *argv[] = {"/bin/sh", "-c", cmd, NULL};
            skt_cli_result r = skt_cli_run_argv(NULL, NULL, argv);
            snprintf(prefix, sizeof prefix, "%s: ", tools[t]);
            cr_assert_eq(r.code, 1, "%s: exit %d: %s", cmd, r.code, r.err);
            skt_cli_expect_one_line_failure(&r, prefix,
                                            "stdout: write failed: No space left on device");
            skt_cli_free(&r);
        }
    }
}

/* A disk that fills up in the middle of a regular file: under a file size
 * limit (inherited by the programs, with SIGXFSZ ignored so that the write
 * fails with EFBIG instead of killing them) every write past 1 KiB fails,
 * after the temporary file beside the output was created. */
Test(cli_failures, a_write_that_fails_midway_leaves_no_partial_or_temporary_file)
{
    require_device();
    uint32_t big[1000] = {0};
    float coeffs[1000] = {0};
    unsigned char heads[1000] = {1};
    skt_cli_write_file("big.bin", big, sizeof big);
    skt_cli_write_file("heads.u8", heads, sizeof heads);
    skt_cli_write_file("coeffs.bin", coeffs, sizeof coeffs);
    static const command cases[] = {
        {"scan", {"big.bin", "-o", "out.bin", NULL}},
        {"compact", {"big.bin", "--if", "1", "-o", "out.bin", NULL}},
        {"compact", {"big.bin", "--if", "1", "-o", "/dev/null", "--values", "big.bin",
                     "--values-out", "vals.bin", NULL}},
        {"radixsort", {"big.bin", "-o", "out.bin", NULL}},
        /* runs spilled to a file in the work directory: that write fails */
        {"radixsort", {"big.bin", "--memory", "256K", "--host-memory", "4K", "--temp-dir", ".",
                       "-o", "out.bin", NULL}},
        {"segscan", {"big.bin", "--flags", "heads.u8", "-o", "out.bin", NULL}},
        {"polyeval", {"big.bin", "--points", "coeffs.bin", "-o", "out.bin", "-t", "float32",
                      NULL}},
        {"datagen", {"-n", "1000", "-o", "out.bin", NULL}},
    };
    /* Once without the limit, so that the kernels are in scankit's program
     * cache (named, so used on every device): the limited runs load their
     * binaries, where a compiler (PoCL, building from its own cache) would
     * write files of its own. */
    const char *cache = SKT_BINARY_DIR "/cli-test-cache";
    for (size_t i = 0; i < COUNT(cases); i++) {
        skt_cli_result r = skt_cli_run(cases[i].tool, NULL, cache, cases[i].args);
        skt_cli_expect_success(&r, describe(&cases[i]));
        skt_cli_free(&r);
        unlink("out.bin");
        unlink("vals.bin");
    }
    char *before = skt_cli_listing(".");
    cr_assert_neq(signal(SIGXFSZ, SIG_IGN), SIG_ERR);
    struct rlimit limit = {1024, 1024};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &limit), 0, "setrlimit: %s", strerror(errno));
    for (size_t i = 0; i < COUNT(cases); i++) {
        skt_cli_result r = skt_cli_run(cases[i].tool, NULL, cache, cases[i].args);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "%s: ", cases[i].tool);
        skt_cli_expect_one_line_failure(&r, prefix, "File too large");
        char *after = skt_cli_listing(".");
        cr_assert_str_eq(after, before, "%s left:\n%s", describe(&cases[i]), after);
        free(after);
        skt_cli_free(&r);
    }
    free(before);
}

/* ------------------------------------------------------------------------ */
/* Named pipes                                                               */
/* ------------------------------------------------------------------------ */

/* A child writes data[0, len) into the new named pipe `path` and closes it. */
static pid_t feed_fifo(const char *path, const void *data, size_t len)
{
    cr_assert_eq(mkfifo(path, 0600), 0, "mkfifo: %s", strerror(errno));
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(path, O_WRONLY);
        int ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;
        _exit(ok && close(fd) == 0 ? 0 : 1);
    }
    return pid;
}

static void expect_fed(pid_t pid)
{
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the pipe's writer failed");
}

Test(cli_failures, a_named_pipe_input_is_read_whole_and_a_short_one_is_refused)
{
    require_device();
    pid_t pid = feed_fifo("in.pipe", DATA, sizeof DATA);
    skt_cli_result r = skt_cli_run("scan", NULL, NULL,
                                   (const char *const[]){"in.pipe", "-o", "out.bin", NULL});
    expect_fed(pid);
    skt_cli_expect_success(&r, "scan in.pipe");
    const uint32_t sums[4] = {3, 4, 8, 9};
    skt_cli_expect_file("out.bin", 0, sums, sizeof sums);
    skt_cli_free(&r);

    pid = feed_fifo("short.pipe", DATA, sizeof DATA - 1);
    r = skt_cli_run("scan", NULL, NULL,
                    (const char *const[]){"short.pipe", "-o", "short.bin", NULL});
    expect_fed(pid);
    skt_cli_expect_one_line_failure(&r, "scan: ", "size 15 is not a multiple of 4");
    cr_assert(!skt_cli_file_exists("short.bin"), "an output was left behind");
    skt_cli_free(&r);
}
