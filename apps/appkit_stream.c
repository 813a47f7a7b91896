/*
 * appkit_stream.c - an element file read ahead on a thread of its own
 * (see ak_prefetch in appkit.h).
 *
 * The thread fills blocks of BLOCK_BYTES from the file and queues them,
 * holding at most the limit's worth at once (a block the reader has
 * emptied is filled again); the reader takes bytes from the front of the
 * queue. The thread takes no signal: it starts with all of them blocked.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_BYTES ((size_t)8 << 20)
#define STEP_FROM_PIPE ((size_t)256 << 10)

typedef struct block {
    struct block *next;
    size_t len;
    unsigned char data[];
} block;

struct ak_prefetch {
    ak_data *d;
    pthread_t thread;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    block *head, *tail;      /* filled, in file order */
    block *spare;            /* emptied, to fill again */
    size_t held, limit;      /* bytes of blocks made, and the most */
    size_t step;             /* bytes a block takes at once */
    int ended, failed, stop; /* the thread's state */
    int err;                 /* errno of a failed read */
    size_t head_off;         /* bytes of the head block taken */
    size_t prefix_off;
    uint64_t total;          /* data bytes handed out */
};

/* A block to fill: a spare one, a new one within the limit, or (waiting)
 * one the reader empties; NULL when told to stop or out of memory. */
static block *block_to_fill(ak_prefetch *p)
{
    for (;;) {
        if (p->stop) return NULL;
        if (p->spare) {
            block *b = p->spare;
            p->spare = b->next;
            return b;
        }
        if (p->held + BLOCK_BYTES <= p->limit || !p->held) {
            block *b = malloc(sizeof *b + BLOCK_BYTES);
            if (b) p->held += BLOCK_BYTES;
            return b;
        }
        pthread_cond_wait(&p->cv, &p->mu);
    }
}

static void *fill_thread(void *arg)
{
    ak_prefetch *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->ended && !p->failed) {
        block *b = block_to_fill(p);
        if (!b) {
            p->failed = !p->stop;
            p->err = ENOMEM;
            break;
        }
        pthread_mutex_unlock(&p->mu);
        errno = 0;
        size_t got = fread(b->data, 1, p->step, p->d->fp);
        int err = ferror(p->d->fp) ? (errno ? errno : EIO) : 0;
        pthread_mutex_lock(&p->mu);
        b->len = got;
        b->next = NULL;
        if (got) {
            if (p->tail) p->tail->next = b;
            else p->head = b;
            p->tail = b;
        } else {
            b->next = p->spare;
            p->spare = b;
        }
        if (err) p->failed = 1, p->err = err;
        else if (got < p->step) p->ended = 1;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int ak_prefetch_start(ak_prefetch **out, ak_data *d, size_t limit, ak_err *e)
{
    ak_prefetch *p = calloc(1, sizeof *p);
    *out = p;
    if (!p) return ak_fail(e, "%s: out of memory", d->name);
    p->d = d;
    p->limit = limit;
    /* fread waits for the whole step: from a pipe, less at a time, so that
     * what comes is taken as it comes */
    p->step = d->bytes == AK_SIZE_UNKNOWN ? STEP_FROM_PIPE : BLOCK_BYTES;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread starts with these */
    p->started = pthread_create(&p->thread, NULL, fill_thread, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return p->started ? 0 : ak_fail(e, "%s: cannot start a reading thread", d->name);
}

/* Takes up to `bytes` from the queue's front into buf (the lock held). */
static size_t take(ak_prefetch *p, unsigned char *buf, size_t bytes)
{
    block *b = p->head;
    size_t n = b->len - p->head_off < bytes ? b->len - p->head_off : bytes;
    memcpy(buf, b->data + p->head_off, n);
    p->head_off += n;
    if (p->head_off == b->len) {
        p->head = b->next;
        if (!p->head) p->tail = NULL;
        b->next = p->spare;
        p->spare = b;
        p->head_off = 0;
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
    pthread_mutex_lock(&p->mu);
    while (!p->head && !p->ended && !p->failed)
        pthread_cond_wait(&p->cv, &p->mu);
    size_t n = p->head && bytes ? take(p, buf, bytes) : 0;
    int failed = !p->head && p->failed, err = p->err;
    pthread_mutex_unlock(&p->mu);
    p->total += n;
    if (n || !bytes) return (long long)n;
    if (failed) {
        errno = err;
        return err == ENOMEM ? ak_fail(e, "%s: out of memory", d->name) : ak_data_fail_read(d, e);
    }
    return ak_data_check_end(d, p->total, e) == 0 ? 0 : -1;
}

void ak_prefetch_stop(ak_prefetch *p)
{
    if (!p) return;
    if (p->started) {
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
    }
    for (int list = 0; list < 2; list++)
        for (block *b = list ? p->spare : p->head, *next; b; b = next) {
            next = b->next;
            free(b);
        }
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
