/*
 * test_failures_reader.c - failures injected under the programs' file
 * reader (apps/appkit_file.c: ak_array_read and ak_array_read_stream, which
 * every program reads its inputs through), each answered by one clear
 * message and an empty array:
 *
 *   element files that shrink or grow between the moment they are measured
 *   and the moment they are read, data that arrives through a named pipe
 *   (read to its end, then checked like a file), and .npy headers whose
 *   shape the data cannot match.
 *
 * Each test runs in a fresh directory (skt_cli.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "appkit.h"
#include "skt_cli.h"
#include "skt_common.h"

static void reader_setup(void)
{
    skt_cli_dirs_open("skt-reader");
}

TestSuite(reader, .init = reader_setup, .fini = skt_cli_dirs_close, .timeout = 60);

static const ak_read_opts U32 = {AK_DTYPE_NONE, AK_UINT32, NULL, AK_PROGRESS_AUTO};

/* n uint32 values i * 7 + 1. */
static uint32_t *u32_sequence(size_t n)
{
    uint32_t *v = skt_malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint32_t)(i * 7 + 1);
    return v;
}

/* Opens `path` and measures it, as ak_array_read() does before reading. */
static ak_source open_measured(const char *path, ak_format format)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "%s: %s", path, strerror(errno));
    struct stat st;
    cr_assert_eq(fstat(fileno(fp), &st), 0);
    ak_source src = {fp, path, format, (uint64_t)st.st_size};
    return src;
}

/* data.bin and data.npy with the n values v, each opened and measured. */
static void write_and_measure(const uint32_t *v, size_t n, ak_source *raw, ak_source *npy)
{
    skt_cli_write_file("data.bin", v, n * 4);
    skt_cli_write_npy("data.npy", "<u4", v, n, 4);
    *raw = open_measured("data.bin", AK_FORMAT_RAW);
    *npy = open_measured("data.npy", AK_FORMAT_NPY);
}

static void append(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "ab");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(data, 1, len, fp), len);
    cr_assert_eq(fclose(fp), 0);
}

/* Reads the measured source and expects a failure with exactly `msg`. */
static void expect_read_failure(ak_source *src, const char *msg)
{
    ak_array a;
    ak_err e;
    cr_assert_eq(ak_array_read_stream(src, &U32, &a, &e), -1, "%s: read succeeded", src->name);
    cr_assert_str_eq(e.msg, msg);
    cr_assert(a.data == NULL && a.n == 0, "%s: a failed read returned data", src->name);
    fclose(src->fp);
}

Test(reader, a_file_that_shrinks_after_it_was_measured_is_an_error_not_a_short_array)
{
    uint32_t *v = u32_sequence(100);
    ak_source raw, npy;
    write_and_measure(v, 100, &raw, &npy);
    cr_assert_eq(truncate("data.bin", 200), 0);
    cr_assert_eq(truncate("data.npy", 300), 0); /* the header stays whole */
    expect_read_failure(&raw, "data.bin: file shrank while being read");
    expect_read_failure(&npy, "data.npy: file shrank while being read");
    free(v);
}

Test(reader, a_file_that_grows_after_it_was_measured_is_an_error_not_a_truncation)
{
    uint32_t *v = u32_sequence(100);
    ak_source raw, npy;
    write_and_measure(v, 100, &raw, &npy);
    append("data.bin", v, 4);
    append("data.npy", v, 4);
    expect_read_failure(&raw, "data.bin: file grew while being read");
    expect_read_failure(&npy, "data.npy: file grew while being read");

    /* Measured empty, then a .npy file appears in it: the header alone is
     * more than the measured size. */
    skt_cli_write_file("late.npy", "", 0);
    ak_source late = open_measured("late.npy", AK_FORMAT_NPY);
    skt_cli_write_npy("late.npy", "<u4", v, 100, 4);
    expect_read_failure(&late, "late.npy: file grew while being read");
    free(v);
}

Test(reader, an_unchanged_file_reads_back_exactly)
{
    uint32_t *v = u32_sequence(1000);
    skt_cli_write_file("data.bin", v, 4000);
    skt_cli_write_npy("data.npy", "<u4", v, 1000, 4);
    const char *paths[] = {"data.bin", "data.npy"};
    for (size_t i = 0; i < 2; i++) {
        ak_array a;
        ak_err e;
        cr_assert_eq(ak_array_read(paths[i], &U32, &a, &e), 0, "%s: %s", paths[i], e.msg);
        cr_assert_eq(a.n, 1000, "%s", paths[i]);
        cr_assert_eq(a.type, AK_UINT32, "%s", paths[i]);
        cr_assert_eq(memcmp(a.data, v, 4000), 0, "%s: wrong data", paths[i]);
        ak_array_free(&a);
    }
    free(v);
}

/* Writes `len` bytes of `data` into the named pipe `path` from a child
 * process, in pieces with pauses, then closes it. @return the child. */
static pid_t feed_fifo(const char *path, const void *data, size_t len)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
    if (pid != 0)
        return pid;
    int fd = open(path, O_WRONLY);
    const char *p = data;
    for (size_t done = 0, piece = len / 3 + 1; fd >= 0 && done < len; done += piece) {
        size_t k = len - done < piece ? len - done : piece;
        if (write(fd, p + done, k) != (ssize_t)k)
            _exit(1);
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
    _exit(fd >= 0 && close(fd) == 0 ? 0 : 1);
}

static void expect_fed(pid_t pid)
{
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the writer failed");
}

/* Reads the pipe `path` (fed with data[0, len)) with ak_array_read(). */
static int read_fifo(const char *path, const void *data, size_t len, ak_array *a, ak_err *e)
{
    cr_assert_eq(mkfifo(path, 0600), 0, "mkfifo: %s", strerror(errno));
    pid_t pid = feed_fifo(path, data, len);
    int rc = ak_array_read(path, &U32, a, e);
    expect_fed(pid);
    return rc;
}

Test(reader, a_named_pipe_is_read_to_its_end_then_checked_like_a_file)
{
    enum { N = 300000 }; /* past the first 64 KiB buffer of a pipe read */
    uint32_t *v = u32_sequence(N);
    ak_array a;
    ak_err e;
    cr_assert_eq(read_fifo("pipe.bin", v, 4u * N, &a, &e), 0, "%s", e.msg);
    cr_assert_eq(a.n, N);
    cr_assert_eq(memcmp(a.data, v, 4u * N), 0, "the pipe's data came back wrong");
    ak_array_free(&a);

    cr_assert_eq(read_fifo("odd.bin", v, 4u * N - 2, &a, &e), -1);
    cr_assert_str_eq(e.msg, "odd.bin: size 1199998 is not a multiple of 4 (uint32)");
    cr_assert(a.data == NULL && a.n == 0);
    free(v);
}

Test(reader, a_named_pipe_that_stops_inside_npy_data_is_truncated)
{
    uint32_t *v = u32_sequence(100);
    skt_cli_write_npy("whole.npy", "<u4", v, 100, 4);
    size_t len;
    unsigned char *bytes = skt_cli_slurp("whole.npy", &len);
    ak_array a;
    ak_err e;
    cr_assert_eq(read_fifo("pipe.npy", bytes, len - 6, &a, &e), -1);
    cr_assert_str_eq(e.msg, "pipe.npy: truncated .npy data: 394 bytes for 100 elements of uint32");
    cr_assert(a.data == NULL && a.n == 0);
    free(bytes);
    free(v);
}

/* A .npy v1.0 file whose header says `shape`, followed by data[0, len). */
static void write_npy_claiming(const char *path, const char *shape, const void *data,
                               size_t len)
{
    skt_cli_write_npy_fields(path, "<u4", "False", shape, data, len);
}

Test(reader, an_npy_shape_that_the_data_cannot_match_fails_before_allocating_it)
{
    uint32_t v[4] = {1, 2, 3, 4};
    write_npy_claiming("huge.npy", "(4611686018427387904,)", v, sizeof v);
    write_npy_claiming("most.npy", "(18446744073709551615,)", v, sizeof v);
    write_npy_claiming("more.npy", "(1000000,)", v, sizeof v);
    const char *paths[] = {"huge.npy", "most.npy", "more.npy"};
    const char *msgs[] = {
        "huge.npy: .npy shape (4611686018427387904,) is too large",
        "most.npy: .npy shape (18446744073709551615,) is too large",
        "more.npy: truncated .npy data: 16 bytes for 1000000 elements of uint32",
    };
    for (size_t i = 0; i < 3; i++) {
        ak_array a;
        ak_err e;
        cr_assert_eq(ak_array_read(paths[i], &U32, &a, &e), -1, "%s was read", paths[i]);
        cr_assert_str_eq(e.msg, msgs[i]);
        cr_assert(a.data == NULL && a.n == 0);
    }
}

/* ---- reads at an offset (ak_read_at), in one piece and in parts ---- */

/* Reads `len` bytes at `at` of `path` into a fresh buffer, with reads of
 * `parts_from` bytes or more cut into parts on threads ("" for the
 * default: from 64 MiB). @return ak_read_at's. */
static int read_at(const char *path, unsigned char *buf, size_t len, uint64_t at,
                   const char *parts_from, ak_err *e)
{
    cr_assert_eq(setenv("SCANKIT_READ_PARTS_FROM", parts_from, 1), 0);
    int fd = open(path, O_RDONLY);
    cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
    int rc = ak_read_at(fd, buf, len, at, path, e);
    close(fd);
    return rc;
}

Test(reader, a_read_at_an_offset_in_parts_or_whole_gets_every_byte_or_says_what_is_missing)
{
    const size_t n = 100003, at = 17, len = n - at;
    unsigned char *data = skt_malloc(n), *got = skt_malloc(n);
    for (size_t i = 0; i < n; i++) data[i] = (unsigned char)(i * 2654435761u >> 11);
    skt_cli_write_file("d.bin", data, n);
    /* one part (the default: from 64 MiB); as many as the cores, at most
     * eight, each at least 1000 bytes or 1; two (where there are two cores) */
    static const char *const from[] = {"", "1000", "1", "40000"};
    for (size_t f = 0; f < sizeof from / sizeof *from; f++) {
        ak_err e;
        memset(got, 0xA5, n);
        cr_assert_eq(read_at("d.bin", got, len, at, from[f], &e), 0, "from %s: %s", from[f],
                     e.msg);
        cr_assert_eq(memcmp(got, data + at, len), 0, "from '%s': the bytes differ", from[f]);
        /* 1000 bytes asked past the end: the file ends 1000 bytes early */
        cr_assert_eq(read_at("d.bin", got, len, at + 1000, from[f], &e), -1);
        cr_assert_str_eq(e.msg, "d.bin: ends 1000 bytes early (it changed while being read?)",
                         "from '%s'", from[f]);
        /* the whole read past the end: every byte missing */
        cr_assert_eq(read_at("d.bin", got, 5000, n, from[f], &e), -1);
        cr_assert_str_eq(e.msg, "d.bin: ends 5000 bytes early (it changed while being read?)",
                         "from '%s'", from[f]);
        /* a directory: the read fails with its reason */
        cr_assert_eq(read_at(".", got, 5000, 0, from[f], &e), -1);
        cr_assert_str_eq(e.msg, ".: read failed: Is a directory", "from '%s'", from[f]);
    }
    free(data);
    free(got);
}
