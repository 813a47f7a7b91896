/*
 * appkit_parts.c - a range cut into parts, each run on a thread of its
 * own (see ak_run_parts in appkit.h): the checks of radixsort and merge
 * (sort_check.c) and the reads of large file ranges (ak_read_at).
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

unsigned ak_cores(void)
{
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1u : (unsigned)c;
}

size_t ak_part_start(size_t n, unsigned parts, unsigned k)
{
    return k * (n / parts) + k * (n % parts) / parts;
}

typedef struct part_call {
    ak_part_fn fn;
    void *ctx;
    unsigned part;
    size_t lo, hi;
} part_call;

static void *part_thread(void *arg)
{
    part_call *c = arg;
    c->fn(c->ctx, c->part, c->lo, c->hi);
    return NULL;
}

unsigned ak_run_parts(size_t n, unsigned parts, ak_part_fn fn, void *ctx)
{
    unsigned t = parts < 1 ? 1 : parts > AK_MAX_PARTS ? AK_MAX_PARTS : parts;
    part_call calls[AK_MAX_PARTS];
    pthread_t threads[AK_MAX_PARTS];
    int started[AK_MAX_PARTS] = {0};
    for (unsigned k = 0; k < t; k++)
        calls[k] = (part_call){fn, ctx, k, ak_part_start(n, t, k), ak_part_start(n, t, k + 1)};
    if (t > 1) {
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old); /* the new threads start with these */
        for (unsigned k = 1; k < t; k++)
            started[k] = pthread_create(&threads[k], NULL, part_thread, &calls[k]) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    part_thread(&calls[0]);
    for (unsigned k = 1; k < t; k++) {
        if (started[k]) pthread_join(threads[k], NULL);
        else part_thread(&calls[k]);
    }
    return t;
}
