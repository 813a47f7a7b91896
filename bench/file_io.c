/*
 * file_io.c - how fast a process moves a file's bytes between the page
 * cache and its own memory, by each way a program could: one thread's
 * read(2)/write(2), several threads' pread/pwrite at offsets, and a
 * shared mapping of the output filled by several threads. The whole
 * program (radixsort) reads its input and writes its output this way, so
 * this says what the floor of those two phases is on a machine.
 *
 *   file_io [--bytes SIZE] [--threads T] [--dir DIR] [--repeats R]
 *
 * The input is a file of SIZE bytes written first (and read once, so it is
 * in the page cache); each row is the median of R runs, in GB/s (10^9
 * bytes a second). Reads go into fresh memory (first touched by the read,
 * as a program's staging is) and into memory touched before; writes come
 * from memory touched before and go to a new file each time (removed
 * after, so its dirty pages are dropped, not written back, as hyperfine's
 * `--prepare 'rm -f out'` leaves them). Each thread moves one contiguous
 * part of the file (1/T of it): threads that all fault pages of the same
 * few MiB at once are serialised by the kernel, much slower (see
 * bench/results/nvidia-h100-whole-2711/NOTE.md).
 */
#define _GNU_SOURCE

#include "bench_time.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PIECE ((size_t)16 << 20)
#define MAX_THREADS 64
#define MAX_REPEATS 32

typedef struct job {
    int fd;
    unsigned char *mem;   /* the process's memory */
    unsigned char *map;   /* the file mapped (the mapping modes) */
    size_t bytes;
    int threads, index, writing, populate;
    int err;
} job;

static void die(const char *what)
{
    fprintf(stderr, "file_io: %s: %s\n", what, strerror(errno));
    exit(1);
}

static unsigned char *fresh(size_t bytes, int huge)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) die("mmap");
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
#else
    (void)huge;
#endif
    return p;
}

/* Pieces i = index, index + threads, ... of the job, by pread/pwrite or
 * by a copy to or from the mapping. */
static void *run_part(void *arg)
{
    job *j = arg;
    size_t per = (j->bytes + (size_t)j->threads - 1) / (size_t)j->threads;
    size_t from = (size_t)j->index * per, to = from + per < j->bytes ? from + per : j->bytes;
    if (j->map) {
#ifdef MADV_POPULATE_WRITE
        if (j->populate && to > from &&
            madvise(j->map + from, to - from, MADV_POPULATE_WRITE) != 0)
            j->err = errno;
#endif
        for (size_t at = from; at < to; at += PIECE) {
            size_t len = to - at < PIECE ? to - at : PIECE;
            if (j->writing) memcpy(j->map + at, j->mem + at, len);
            else memcpy(j->mem + at, j->map + at, len);
        }
        return NULL;
    }
    for (size_t at = from; at < to && !j->err;) {
        size_t len = to - at < PIECE ? to - at : PIECE;
        ssize_t n = j->writing ? pwrite(j->fd, j->mem + at, len, (off_t)at)
                               : pread(j->fd, j->mem + at, len, (off_t)at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) j->err = n < 0 ? errno : EIO;
        else at += (size_t)n;
    }
    return NULL;
}

static void run_threads(int fd, unsigned char *mem, unsigned char *map, size_t bytes,
                        int threads, int writing, int populate)
{
    pthread_t t[MAX_THREADS];
    job j[MAX_THREADS];
    for (int i = 0; i < threads; i++) {
        j[i] = (job){fd, mem, map, bytes, threads, i, writing, populate, 0};
        if (pthread_create(&t[i], NULL, run_part, &j[i]) != 0) die("pthread_create");
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        if (j[i].err) errno = j[i].err, die(writing ? "write" : "read");
    }
}

typedef enum { READ, READ_TOUCHED, WRITE, WRITE_MAP, WRITE_MAP_POPULATE, COPY_RANGE } mode;

static const char *const mode_name[] = {
    "pread into fresh memory (huge pages)", "pread into touched memory",
    "pwrite to a new file", "memcpy into a shared mapping (fallocate)",
    "the same after MADV_POPULATE_WRITE", "copy_file_range (cp's way)"};

/* One timed run of mode m with t threads, in seconds. */
static double once(mode m, int t, const char *in, const char *out, size_t bytes,
                   unsigned char *touched)
{
    double t0 = bb_now(), t1;
    if (m == READ || m == READ_TOUCHED) {
        int fd = open(in, O_RDONLY);
        if (fd < 0) die(in);
        unsigned char *mem = m == READ ? fresh(bytes, 1) : touched;
        t0 = bb_now();
        run_threads(fd, mem, NULL, bytes, t, 0, 0);
        t1 = bb_now();
        if (m == READ) munmap(mem, bytes);
        close(fd);
        return t1 - t0;
    }
    int fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) die(out);
    if (m == COPY_RANGE) {
        int src = open(in, O_RDONLY);
        if (src < 0) die(in);
        for (size_t done = 0; done < bytes;) {
            ssize_t n = copy_file_range(src, NULL, fd, NULL, bytes - done, 0);
            if (n <= 0) die("copy_file_range");
            done += (size_t)n;
        }
        close(src);
    } else if (m == WRITE) {
        run_threads(fd, touched, NULL, bytes, t, 1, 0);
    } else {
        int rc = posix_fallocate(fd, 0, (off_t)bytes);
        if (rc != 0) errno = rc, die("posix_fallocate");
        unsigned char *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) die("mmap of the output");
        run_threads(fd, touched, map, bytes, t, 1, m == WRITE_MAP_POPULATE);
        munmap(map, bytes);
    }
    if (close(fd) != 0) die("close");
    t1 = bb_now();
    unlink(out);
    return t1 - t0;
}

static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end == 'K') v <<= 10;
    else if (*end == 'M') v <<= 20;
    else if (*end == 'G') v <<= 30;
    return (size_t)v;
}

int main(int argc, char **argv)
{
    size_t bytes = (size_t)1 << 30;
    int threads = 8, repeats = 3;
    const char *dir = ".";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--bytes")) bytes = parse_size(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dir")) dir = argv[i + 1];
        else if (!strcmp(argv[i], "--repeats")) repeats = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: file_io [--bytes SIZE] [--threads T] [--dir DIR] "
                            "[--repeats R]\n");
            return 2;
        }
    }
    if (bytes == 0 || threads < 1 || threads > MAX_THREADS || repeats < 1 ||
        repeats > MAX_REPEATS) {
        fprintf(stderr, "file_io: bad --bytes, --threads (1-%d) or --repeats (1-%d)\n",
                MAX_THREADS, MAX_REPEATS);
        return 2;
    }
    char in[4096], out[4096];
    snprintf(in, sizeof in, "%s/file_io.in", dir);
    snprintf(out, sizeof out, "%s/file_io.out", dir);
    unsigned char *touched = fresh(bytes, 1);
    for (size_t i = 0; i < bytes; i++) touched[i] = (unsigned char)(i * 2654435761u >> 13);
    int fd = open(in, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) die(in);
    run_threads(fd, touched, NULL, bytes, 1, 1, 0);
    if (fsync(fd) != 0) die("fsync"); /* clean in the page cache, as an input is */
    close(fd);
    once(READ_TOUCHED, 1, in, out, bytes, touched); /* into the page cache */

    printf("%zu bytes, %d repeats (median), GB/s; %s\n\n", bytes, repeats, dir);
    printf("| way | 1 thread | %d threads |\n| --- | ---: | ---: |\n", threads);
    for (mode m = READ; m <= COPY_RANGE; m++) {
        printf("| %s |", mode_name[m]);
        for (int pass = 0; pass < 2; pass++) {
            int t = pass ? threads : 1;
            if (m == COPY_RANGE && pass) {
                printf(" |");
                continue;
            }
            double s[MAX_REPEATS];
            for (int r = 0; r < repeats; r++) s[r] = once(m, t, in, out, bytes, touched);
            printf(" %.2f |", (double)bytes / bb_median(s, repeats) / 1e9);
            fflush(stdout);
        }
        printf("\n");
    }
    unlink(in);
    return 0;
}
