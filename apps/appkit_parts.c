/*
 * appkit_parts.c - threads that take no signal (ak_thread_start), and a
 * range cut into parts, each run on a thread of its own (ak_run_parts):
 * the checks of radixsort and merge (sort_check.c), the reads of large
 * file ranges (ak_read_at); the read-ahead (appkit_stream.c) and the
 * input reader of every program (appkit_run.c) start their threads here.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include "appkit.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

unsigned ak_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1u : (unsigned)c;
}

int ak_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the new thread starts with these */
    int rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc == 0 ? 0 : -1;
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
    for (unsigned k = 1; k < t; k++)
        started[k] = ak_thread_start(&threads[k], part_thread, &calls[k]) == 0;
    part_thread(&calls[0]);
    for (unsigned k = 1; k < t; k++) {
        if (started[k]) pthread_join(threads[k], NULL);
        else part_thread(&calls[k]);
    }
    return t;
}
