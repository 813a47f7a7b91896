/*
 * test_cli_signals.c - programs ended by a signal while they read, once
 * their outputs are open, and while they write leave nothing behind:
 * afterwards the output directory lists what it listed before and no
 * temporary file (".NAME.XXXXXX"), except what README says a SIGKILL can
 * leave. A program ends by the signal it got (a shell shows 128 + its
 * number, 141 for SIGPIPE); with SIGPIPE ignored, a closed pipe is one line
 * and exit 1. (The commit: test_cli_signals_commit.c.)
 *
 * The phases are held, not raced:
 *   reading      the input is a named pipe the test keeps open;
 *   outputs open strace delivers the signal at the last output's fchmod,
 *                once every output is open and before anything is computed;
 *   writing      stdout is a pipe (4 KiB) that nobody reads, the output is
 *                larger, another output is pending; the test waits until
 *                the pipe is full, then signals or closes its end (SIGPIPE).
 *
 * Each runs on the test directory's filesystem as it is (O_TMPFILE on ext4,
 * tmpfs, xfs, btrfs: nothing has a name before the commit) and with
 * SCANKIT_NO_TMPFILE=1, which makes the programs use named temporary files
 * as on a filesystem without O_TMPFILE. The strace tests are skipped, with
 * the reason, where strace is missing or cannot trace. The harness is
 * tests/skt_cli_signals.c.
 */
#define _GNU_SOURCE

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "skt_cli.h"
#include "skt_cli_signals.h"

TestSuite(cli_signals, .init = skt_cli_setup, .fini = skt_cli_dirs_close, .timeout = 120);

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
        skt_sig_expect_still_running(pid, what);
        skt_sig_pause_briefly();
    }
}

/* Waits until the program has read everything written to the pipe. */
static void wait_drained(int fd, pid_t pid, const char *what)
{
    int queued;
    while (ioctl(fd, FIONREAD, &queued) == 0 && queued > 0) {
        skt_sig_expect_still_running(pid, what);
        skt_sig_pause_briefly();
    }
}

static void signal_while_reading(const skt_sig_command *c, skt_sig_temp_kind kind, int sig)
{
    skt_sig_command held = skt_sig_reading_from(c, "in.fifo");
    char *before = skt_cli_listing(".");
    skt_sig_launch l = {&held, kind, -1, NULL, 0};
    pid_t pid = skt_sig_start(&l);
    int fd = open_fifo_writer("in.fifo", pid, skt_sig_describe(&held));
    cr_assert_eq(write(fd, "\1\0\0\0", 4), 4);
    wait_drained(fd, pid, skt_sig_describe(&held));
    cr_assert_eq(kill(pid, sig), 0);
    int status = skt_sig_wait_for(pid);
    close(fd);
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s while reading, %s", skt_sig_describe(&held),
             skt_sig_signal_label(sig), skt_sig_kind_name(kind));
    skt_sig_expect_ended_by(status, sig, what);
    skt_sig_leftovers none = {{NULL, NULL}, {NULL, NULL}};
    skt_sig_expect_directory(before, &none, what, NULL, 0);
    free(before);
}

Test(cli_signals, a_signal_while_the_input_is_read_leaves_the_directory_as_it_was)
{
    skt_sig_write_inputs();
    cr_assert_eq(mkfifo("in.fifo", 0600), 0, "mkfifo: %s", strerror(errno));
    static const skt_sig_command *const programs[] = {&SKT_SIG_RADIXSORT, &SKT_SIG_COMPACT,
                                                      &SKT_SIG_SCAN};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL, SIGHUP};
    for (skt_sig_temp_kind k = SKT_SIG_TEMP_AS_IS; k <= SKT_SIG_TEMP_NAMED; k++)
        for (size_t p = 0; p < SKT_SIG_COUNT(programs); p++)
            for (size_t s = 0; s < SKT_SIG_COUNT(signals); s++)
                signal_while_reading(programs[p], k, signals[s]);
}

/* ------------------------------------------------------------------------ */
/* Runs spilled to a temporary file, mid-merge                               */
/* ------------------------------------------------------------------------ */

/* radixsort within budgets that spill its runs to a file in the work
 * directory: the merge reads them back (pread), the output open. */
static const skt_sig_command SPILLING_RADIXSORT = {
    "radixsort",
    {"k.bin", "-o", "out.bin", "--memory", "24K", "--host-memory", "20K", "--temp-dir", ".",
     NULL},
    {"out.bin", NULL}};

Test(cli_signals, a_signal_mid_merge_leaves_no_spilled_run_and_only_what_sigkill_leaves)
{
    skt_sig_require_strace();
    skt_cli_require_any_device();
    skt_sig_write_inputs();
    skt_sig_reference warm = skt_sig_complete_run(&SPILLING_RADIXSORT);
    static const int signals[] = {SIGINT, SIGTERM, SIGKILL};
    for (skt_sig_temp_kind k = SKT_SIG_TEMP_AS_IS; k <= SKT_SIG_TEMP_NAMED; k++)
        for (size_t s = 0; s < SKT_SIG_COUNT(signals); s++) {
            skt_sig_injection mid_merge = {"pread64", signals[s], 3};
            skt_sig_leftovers left = skt_sig_killed_leftovers(&SPILLING_RADIXSORT, signals[s],
                                                              skt_sig_named_temps(k));
            skt_sig_signal_at(&SPILLING_RADIXSORT, k, &mid_merge,
                              "reading back its spilled runs", &left);
        }
    skt_sig_reference_free(&warm);
}

/* ------------------------------------------------------------------------ */
/* Outputs open, nothing computed yet                                        */
/* ------------------------------------------------------------------------ */

Test(cli_signals, a_signal_once_the_outputs_are_open_leaves_only_what_sigkill_leaves_of_named_files)
{
    skt_sig_require_strace();
    skt_sig_write_inputs();
    static const skt_sig_command *const programs[] = {&SKT_SIG_RADIXSORT, &SKT_SIG_COMPACT,
                                                      &SKT_SIG_SCAN};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL};
    for (skt_sig_temp_kind k = SKT_SIG_TEMP_AS_IS; k <= SKT_SIG_TEMP_NAMED; k++)
        for (size_t p = 0; p < SKT_SIG_COUNT(programs); p++)
            for (size_t s = 0; s < SKT_SIG_COUNT(signals); s++) {
                skt_sig_injection at_last_open = {"fchmod", signals[s],
                                                  (unsigned)skt_sig_file_outputs(programs[p])};
                skt_sig_leftovers left =
                    skt_sig_killed_leftovers(programs[p], signals[s], skt_sig_named_temps(k));
                skt_sig_signal_at(programs[p], k, &at_last_open, "once the outputs are open",
                                  &left);
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
        skt_sig_expect_still_running(pid, what);
        skt_sig_pause_briefly();
    }
}

/* SIGPIPE comes as it comes in a pipeline: the reader goes away. */
static void signal_while_writing(const skt_sig_command *c, skt_sig_temp_kind kind, int sig)
{
    char *before = skt_cli_listing(".");
    int fds[2], size;
    small_pipe(fds, &size);
    skt_sig_launch l = {c, kind, fds[1], NULL, 0};
    pid_t pid = skt_sig_start(&l);
    close(fds[1]);
    wait_full(fds[0], size, pid, skt_sig_describe(c));
    if (sig == SIGPIPE)
        close(fds[0]);
    else
        cr_assert_eq(kill(pid, sig), 0);
    int status = skt_sig_wait_for(pid);
    if (sig != SIGPIPE)
        close(fds[0]);
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s while writing stdout, %s", skt_sig_describe(c),
             skt_sig_signal_label(sig), skt_sig_kind_name(kind));
    skt_sig_expect_ended_by(status, sig, what);
    skt_sig_leftovers left = skt_sig_killed_leftovers(c, sig, skt_sig_named_temps(kind));
    skt_sig_expect_directory(before, &left, what, NULL, 0);
    skt_sig_remove_temps();
    free(before);
}

Test(cli_signals,
     a_signal_while_an_output_is_written_leaves_only_what_sigkill_leaves_of_named_files)
{
    skt_cli_require_any_device();
    skt_sig_write_inputs();
    skt_sig_reference warm[] = {skt_sig_complete_run(&SKT_SIG_RADIXSORT),
                                skt_sig_complete_run(&SKT_SIG_COMPACT),
                                skt_sig_complete_run(&SKT_SIG_SCAN)};
    static const skt_sig_command *const programs[] = {
        &SKT_SIG_RADIXSORT_KEYS_TO_STDOUT, &SKT_SIG_RADIXSORT_VALUES_TO_STDOUT,
        &SKT_SIG_COMPACT_TO_STDOUT, &SKT_SIG_SCAN_TO_STDOUT};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL};
    for (skt_sig_temp_kind k = SKT_SIG_TEMP_AS_IS; k <= SKT_SIG_TEMP_NAMED; k++)
        for (size_t p = 0; p < SKT_SIG_COUNT(programs); p++)
            for (size_t s = 0; s < SKT_SIG_COUNT(signals); s++)
                signal_while_writing(programs[p], k, signals[s]);
    for (size_t i = 0; i < SKT_SIG_COUNT(warm); i++)
        skt_sig_reference_free(&warm[i]);
}

/* ------------------------------------------------------------------------ */
/* SIGPIPE ignored: a closed pipe is a write error                           */
/* ------------------------------------------------------------------------ */

Test(cli_signals, with_sigpipe_ignored_a_closed_pipe_is_one_line_naming_the_reason)
{
    skt_cli_require_any_device();
    skt_sig_write_inputs();
    skt_sig_reference warm[] = {skt_sig_complete_run(&SKT_SIG_RADIXSORT),
                                skt_sig_complete_run(&SKT_SIG_COMPACT),
                                skt_sig_complete_run(&SKT_SIG_SCAN)};
    static const skt_sig_command polyeval = {
        "polyeval", {"c.bin", "--x", "0.5,1,2", NULL}, {NULL, NULL}};
    static const skt_sig_command *const programs[] = {&SKT_SIG_RADIXSORT_KEYS_TO_STDOUT,
                                                      &SKT_SIG_COMPACT_TO_STDOUT,
                                                      &SKT_SIG_SCAN_TO_STDOUT, &polyeval};
    cr_assert_neq(signal(SIGPIPE, SIG_IGN), SIG_ERR);
    for (skt_sig_temp_kind k = SKT_SIG_TEMP_AS_IS; k <= SKT_SIG_TEMP_NAMED; k++)
        for (size_t p = 0; p < SKT_SIG_COUNT(programs); p++) {
            const skt_sig_command *c = programs[p];
            char *before = skt_cli_listing(".");
            int fds[2];
            cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
            close(fds[0]);
            skt_sig_launch l = {c, k, fds[1], NULL, 1};
            pid_t pid = skt_sig_start(&l);
            close(fds[1]);
            int status = skt_sig_wait_for(pid);
            char *err = skt_sig_child_stderr(), want[128];
            snprintf(want, sizeof want, "%s: stdout: write failed: %s\n", c->tool, strerror(EPIPE));
            cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: status 0x%x: %s",
                      skt_sig_describe(c), status, err);
            cr_assert_str_eq(err, want, "%s", skt_sig_describe(c));
            skt_sig_leftovers none = {{NULL, NULL}, {NULL, NULL}};
            skt_sig_expect_directory(before, &none, skt_sig_describe(c), NULL, 0);
            free(err);
            free(before);
        }
    for (size_t i = 0; i < SKT_SIG_COUNT(warm); i++)
        skt_sig_reference_free(&warm[i]);
}
