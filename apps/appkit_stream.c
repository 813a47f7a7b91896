/*
 * appkit_stream.c - an element file read ahead on threads of its own (see
 * ak_prefetch in appkit.h).
 *
 * The data is read in blocks into a ring of slots, at most the limit's
 * worth; the reader takes the blocks in file order, each slot free again
 * once it is taken. A regular file is read by several threads at once,
 * each block with pread(2) at its offset (one thread copies from the page
 * cache at about half the rate two do); a pipe by one thread, in file
 * order, a piece at a time (fread waits for a whole request, so what comes
 * is taken as it comes). The threads take no signal: they start with all
 * of them blocked.
 *
 * Once the reader asks for large pieces (DIRECT_BYTES or more) of a
 * regular file, the threads read ahead no further: the reader takes what
 * the ring holds, then each request is read by the threads straight into
 * the reader's buffer, in parts at once (no copy from a slot, and the
 * buffer's first touch shared among them).
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK_BYTES ((size_t)8 << 20)
#define DIRECT_BYTES ((size_t)1 << 20)
#define DIRECT_PART ((size_t)1 << 20) /* the smallest part of a direct read */
#define STEP_FROM_PIPE ((size_t)256 << 10)
/* Reading threads, at most: on the H100 machine (16 cores) pread from the
 * page cache into fresh memory moves 2.9 GB/s on one thread and 14.8 on
 * eight (bench/file_io, 16 GiB); radixsort's read phase of 16 GiB took
 * 1.25-1.46 s with eight, 2.2-2.8 s with four
 * (bench/results/nvidia-h100-whole-2711). */
#define MAX_THREADS 8

enum { SLOT_EMPTY, SLOT_FILLING, SLOT_FULL };

typedef struct slot {
    unsigned char *data;   /* BLOCK_BYTES, made when first filled */
    size_t len;
    uint64_t block;        /* which block of the data it holds */
    int state;
    int err;               /* errno of a failed read of it */
} slot;

struct ak_prefetch {
    ak_data *d;
    int fd;                /* a regular file: read at offsets; else -1 */
    uint64_t base;         /* the file offset of the data after the prefix */
    pthread_t threads[MAX_THREADS];
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot *slots;
    size_t n_slots;
    uint64_t next_fill;    /* the next block a thread takes */
    uint64_t next_take;    /* the next block the reader takes */
    uint64_t end_block;    /* the first block past the end (UINT64_MAX: not seen) */
    size_t step;           /* bytes a block holds */
    int stop;
    size_t taken_off;      /* bytes of block next_take already taken */
    size_t prefix_off;
    uint64_t total;        /* data bytes handed out */
    /* direct reads (a regular file) */
    int direct;            /* 1: no more read ahead; 2: the ring is taken */
    uint64_t direct_at;    /* the next data byte (after the prefix) to read */
    int direct_ended;      /* a direct read came short: the data ended */
    unsigned char *job;    /* the request being read: buffer, length, parts */
    size_t job_len, job_part, job_parts, job_next, job_done;
    size_t job_got;        /* bytes up to the first short part (job_len: none) */
    int job_err;
};

/* Fills block b into slot s (the lock not held): at its offset, or from
 * the stream in order. */
static void fill(ak_prefetch *p, slot *s, uint64_t b)
{
    s->err = 0;
    s->len = 0;
    if (!s->data && !(s->data = malloc(BLOCK_BYTES))) {
        s->err = ENOMEM;
        return;
    }
    if (p->fd < 0) {
        errno = 0;
        s->len = fread(s->data, 1, p->step, p->d->fp);
        if (ferror(p->d->fp)) s->err = errno ? errno : EIO;
        return;
    }
    off_t at = (off_t)(p->base + b * p->step);
    while (s->len < p->step) {
        ssize_t n = pread(p->fd, s->data + s->len, p->step - s->len, at + (off_t)s->len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) s->err = errno;
        if (n <= 0) break;
        s->len += (size_t)n;
    }
}

/* Reads part i of the direct request (the lock not held). */
static void read_part(ak_prefetch *p, size_t i)
{
    size_t from = i * p->job_part, want = p->job_len - from < p->job_part ? p->job_len - from
                                                                          : p->job_part;
    off_t at = (off_t)(p->base + p->direct_at + from);
    size_t got = 0;
    int err = 0;
    while (got < want) {
        ssize_t n = pread(p->fd, p->job + from + got, want - got, at + (off_t)got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) err = errno;
        if (n <= 0) break;
        got += (size_t)n;
    }
    pthread_mutex_lock(&p->mu);
    if (err && !p->job_err) p->job_err = err;
    if (got < want && from + got < p->job_got) p->job_got = from + got;
    if (++p->job_done == p->job_parts) pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* A pipe is read in order by one thread: it claims a block only when it
 * is free to read it next. Once the reads are direct, the threads read the
 * parts of each request instead. */
static void *fill_thread(void *arg)
{
    ak_prefetch *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        uint64_t b = p->next_fill;
        slot *s = &p->slots[b % p->n_slots];
        while (!p->stop && !p->direct && b < p->end_block && s->state != SLOT_EMPTY)
            pthread_cond_wait(&p->cv, &p->mu), b = p->next_fill,
                                               s = &p->slots[b % p->n_slots];
        if (p->stop) break;
        if (p->direct) {
            if (p->job_next < p->job_parts) {
                size_t i = p->job_next++;
                pthread_mutex_unlock(&p->mu);
                read_part(p, i);
                pthread_mutex_lock(&p->mu);
            } else {
                pthread_cond_wait(&p->cv, &p->mu);
            }
            continue;
        }
        if (b >= p->end_block) break;
        s->state = SLOT_FILLING;
        s->block = b;
        p->next_fill++;
        pthread_mutex_unlock(&p->mu);
        fill(p, s, b);
        pthread_mutex_lock(&p->mu);
        s->state = SLOT_FULL;
        if ((s->len < p->step || s->err) && b < p->end_block) p->end_block = b + 1;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The offset of the data after the prefix, for a regular file: -1 where
 * it cannot be read at offsets. */
static int regular_fd(ak_data *d, uint64_t *base)
{
    if (d->bytes == AK_SIZE_UNKNOWN) return -1;
    off_t at = ftello(d->fp);
    if (at < 0) return -1;
    *base = (uint64_t)at;
    return fileno(d->fp);
}

static int start_threads(ak_prefetch *p, int count)
{
    for (; p->started < count; p->started++)
        if (ak_thread_start(&p->threads[p->started], fill_thread, p) != 0) break;
    return p->started > 0 ? 0 : -1;
}

int ak_prefetch_start(ak_prefetch **out, ak_data *d, size_t limit, ak_err *e)
{
    ak_prefetch *p = calloc(1, sizeof *p);
    *out = p;
    if (!p) return ak_fail(e, "%s: out of memory", d->name);
    p->d = d;
    p->end_block = UINT64_MAX;
    p->fd = regular_fd(d, &p->base);
    p->step = p->fd < 0 ? STEP_FROM_PIPE : BLOCK_BYTES;
    const char *ahead = getenv("SCANKIT_READ_AHEAD"); /* a switch for the tests */
    if (ahead && *ahead) limit = (size_t)strtoull(ahead, NULL, 10);
    p->n_slots = limit / BLOCK_BYTES > 2 ? limit / BLOCK_BYTES : 2;
    if (!(p->slots = calloc(p->n_slots, sizeof *p->slots)))
        return ak_fail(e, "%s: out of memory", d->name);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    unsigned cores = ak_cores();
    int threads = p->fd < 0 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
    return start_threads(p, threads) == 0 ? 0
                                          : ak_fail(e, "%s: cannot start a reading thread", d->name);
}

/* Takes up to `bytes` of the next block into buf (the lock held, the block
 * full). */
static size_t take(ak_prefetch *p, slot *s, unsigned char *buf, size_t bytes)
{
    size_t n = s->len - p->taken_off < bytes ? s->len - p->taken_off : bytes;
    memcpy(buf, s->data + p->taken_off, n);
    p->taken_off += n;
    if (p->taken_off == s->len && !(s->len == 0 && p->next_take + 1 >= p->end_block)) {
        s->state = SLOT_EMPTY;
        p->next_take++;
        p->taken_off = 0;
        pthread_cond_broadcast(&p->cv);
    }
    return n;
}

/* Whether the reads are direct now: asked for (a large request of a
 * regular file: the threads claim no more blocks), and the ring taken
 * (the lock held). */
static int reading_direct(ak_prefetch *p, size_t bytes)
{
    if (p->direct == 2) return 1;
    if (p->fd < 0 || p->end_block != UINT64_MAX) return 0; /* a pipe, or the end in the ring */
    if (!p->direct && bytes >= DIRECT_BYTES) {
        p->direct = 1;
        pthread_cond_broadcast(&p->cv);
    }
    if (p->direct && p->next_take == p->next_fill && p->taken_off == 0) {
        p->direct = 2;
        p->direct_at = p->next_take * p->step;
    }
    return p->direct == 2;
}

/* Up to `bytes` of the data read by the threads straight into buf, in
 * parts at once (the lock held, and held again on return): the bytes
 * read, or -1 with errno set. */
static long long read_direct(ak_prefetch *p, void *buf, size_t bytes)
{
    if (p->direct_ended || !bytes) return 0;
    size_t parts = (bytes + DIRECT_PART - 1) / DIRECT_PART;
    if (parts > (size_t)p->started) parts = (size_t)p->started;
    p->job = buf;
    p->job_len = bytes;
    p->job_part = (bytes + parts - 1) / parts;
    p->job_parts = parts;
    p->job_next = p->job_done = 0;
    p->job_got = bytes;
    p->job_err = 0;
    pthread_cond_broadcast(&p->cv);
    while (p->job_done < p->job_parts) pthread_cond_wait(&p->cv, &p->mu);
    size_t got = p->job_got;
    int err = p->job_err;
    p->job = NULL;
    p->job_parts = p->job_next = p->job_done = 0;
    if (err) {
        errno = err;
        return -1;
    }
    p->direct_at += got;
    p->direct_ended = got < bytes;
    return (long long)got;
}

long long ak_prefetch_read(ak_prefetch *p, void *buf, size_t bytes, ak_err *e)
{
    ak_data *d = p->d;
    if (p->prefix_off < d->prefix_len && bytes) {
        size_t n = d->prefix_len - p->prefix_off < bytes ? d->prefix_len - p->prefix_off : bytes;
        memcpy(buf, d->prefix + p->prefix_off, n);
        p->prefix_off += n;
        p->total += n;
        return (long long)n;
    }
    size_t n = 0;
    int err = 0;
    pthread_mutex_lock(&p->mu);
    if (reading_direct(p, bytes)) {
        long long got = read_direct(p, buf, bytes);
        pthread_mutex_unlock(&p->mu);
        if (got < 0) return ak_data_fail_read(d, e);
        p->total += (uint64_t)got;
        if (got || !bytes) return got;
        return ak_data_check_end(d, p->total, e) == 0 ? 0 : -1;
    }
    while (bytes && !n && !err && p->next_take < p->end_block) {
        slot *s = &p->slots[p->next_take % p->n_slots];
        while (s->state != SLOT_FULL || s->block != p->next_take)
            pthread_cond_wait(&p->cv, &p->mu);
        err = s->err;
        if (!err) n = take(p, s, buf, bytes);
        if (!err && !n && s->len == 0) break; /* the end, at a block's start */
    }
    pthread_mutex_unlock(&p->mu);
    p->total += n;
    if (n || !bytes) return (long long)n;
    if (err) {
        errno = err;
        return err == ENOMEM ? ak_fail(e, "%s: out of memory", d->name) : ak_data_fail_read(d, e);
    }
    return ak_data_check_end(d, p->total, e) == 0 ? 0 : -1;
}

void ak_prefetch_stop(ak_prefetch *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    int waiting_on_a_pipe = p->fd < 0 && p->end_block == UINT64_MAX;
    pthread_mutex_unlock(&p->mu);
    /* a pipe may never send more: its thread is cancelled where it waits */
    for (int i = 0; waiting_on_a_pipe && i < p->started; i++) pthread_cancel(p->threads[i]);
    for (int i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
    for (size_t i = 0; p->slots && i < p->n_slots; i++) free(p->slots[i].data);
    free(p->slots);
    if (p->slots) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
    }
    free(p);
}
