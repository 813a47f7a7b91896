/*
 * test_cli_progress.c - the progress line of a long phase (ak_progress):
 * with --progress and stderr a file, a read that takes over a second shows
 * "tool: reading DONE of TOTAL, RATE, T left" lines ending in a newline;
 * without --progress (stderr not a terminal) nothing shows, nor for a
 * phase shorter than a second.
 *
 * The slow read is a FIFO that a child process fills with a .npy file in
 * pieces, a pause after each, for about 1.6 s in all: the program reads the
 * header, so it knows the total, then the data as it comes.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "skt_cli.h"

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-progress");
    skt_cli_require_any_device();
}

static void cli_teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(progress_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 120);

#define N ((size_t)5 << 18) /* uint32 keys: 5 MiB */
#define PIECES 10
#define PAUSE_NS 180000000L /* after each piece: 1.8 s in all */

/* The .npy file of N uint32 keys, in a malloc'ed buffer of *len bytes. */
static unsigned char *keys_npy(size_t *len)
{
    uint32_t *keys = malloc(N * sizeof *keys);
    cr_assert_not_null(keys);
    for (size_t i = 0; i < N; i++)
        keys[i] = (uint32_t)((i * 2654435761u) ^ (i >> 7));
    unsigned char *npy = skt_cli_make_npy("<u4", "False", "(1310720,)", keys,
                                          N * sizeof *keys, len);
    free(keys);
    return npy;
}

static void write_all(int fd, const unsigned char *p, size_t len)
{
    while (len > 0) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(1);
        p += k;
        len -= (size_t)k;
    }
}

/* In a child: opens the FIFO and writes the file in PIECES pieces, pausing
 * after each. */
static pid_t feed_slowly(const char *fifo, const unsigned char *data, size_t len)
{
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid > 0)
        return pid;
    int fd = open(fifo, O_WRONLY);
    if (fd < 0)
        _exit(1);
    size_t piece = (len + PIECES - 1) / PIECES;
    for (size_t at = 0; at < len; at += piece) {
        write_all(fd, data + at, len - at < piece ? len - at : piece);
        struct timespec pause = {0, PAUSE_NS};
        nanosleep(&pause, NULL);
    }
    close(fd);
    _exit(0);
}

/* The child gone (killed if the program never opened the FIFO). */
static void reap(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
}

/* radixsort of the slow FIFO, with --progress when `progress`. */
static skt_cli_result sort_slow_input(int progress)
{
    size_t len;
    unsigned char *npy = keys_npy(&len);
    cr_assert(mkfifo("slow.npy", 0600) == 0, "mkfifo: %s", strerror(errno));
    pid_t pid = feed_slowly("slow.npy", npy, len);
    skt_cli_result r = skt_cli_runl(NULL, "radixsort", "slow.npy", "-o", "out.npy",
                                    progress ? "--progress" : NULL, NULL);
    reap(pid);
    free(npy);
    return r;
}

Test(progress_cli, a_slow_read_shows_lines_with_progress)
{
    skt_cli_result r = sort_slow_input(1);
    skt_cli_expect_success(&r, "radixsort --progress of a slow FIFO");
    cr_expect(strstr(r.err, "radixsort: reading ") != NULL, "stderr: '%s'", r.err);
    cr_expect(strstr(r.err, " MiB of 5.00 MiB, ") != NULL, "stderr: '%s'", r.err);
    cr_expect(strstr(r.err, "B/s") != NULL, "stderr: '%s'", r.err);
    cr_expect(strstr(r.err, " left\n") != NULL, "stderr: '%s'", r.err);
    cr_expect(strchr(r.err, '\r') == NULL, "a carriage return in a log: '%s'", r.err);
    cr_expect(strstr(r.err, "\033[") == NULL, "an escape sequence in a log: '%s'", r.err);
    skt_cli_free(&r);
}

Test(progress_cli, a_slow_read_shows_nothing_without_progress)
{
    skt_cli_result r = sort_slow_input(0);
    skt_cli_expect_success(&r, "radixsort of a slow FIFO");
    cr_expect_str_empty(r.err);
    skt_cli_free(&r);
}

Test(progress_cli, a_fast_run_shows_nothing)
{
    size_t len;
    unsigned char *npy = keys_npy(&len);
    skt_cli_write_file("keys.npy", npy, len);
    free(npy);
    skt_cli_result r = skt_cli_runl(NULL, "radixsort", "keys.npy", "-o", "out.npy",
                                    "--progress", NULL);
    skt_cli_expect_success(&r, "radixsort --progress of a file");
    cr_expect_str_empty(r.err);
    skt_cli_free(&r);
}
