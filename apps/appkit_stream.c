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
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK_BYTES ((size_t)8 << 20)
#define STEP_FROM_PIPE ((size_t)256 << 10)
#define MAX_THREADS 4

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

/* A pipe is read in order by one thread: it claims a block only when it
 * is free to read it next. */
static void *fill_thread(void *arg)
{
    ak_prefetch *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        uint64_t b = p->next_fill;
        slot *s = &p->slots[b % p->n_slots];
        while (!p->stop && b < p->end_block && s->state != SLOT_EMPTY)
            pthread_cond_wait(&p->cv, &p->mu), b = p->next_fill,
                                               s = &p->slots[b % p->n_slots];
        if (p->stop || b >= p->end_block) break;
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
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the threads start with these */
    for (; p->started < count; p->started++)
        if (pthread_create(&p->threads[p->started], NULL, fill_thread, p) != 0) break;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
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
    p->n_slots = limit / BLOCK_BYTES > 2 ? limit / BLOCK_BYTES : 2;
    if (!(p->slots = calloc(p->n_slots, sizeof *p->slots)))
        return ak_fail(e, "%s: out of memory", d->name);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = p->fd < 0 ? 1 : cores > MAX_THREADS ? MAX_THREADS : cores > 1 ? (int)cores : 1;
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
