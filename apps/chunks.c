/*
 * chunks.c - a program's elements through the device in chunks within a
 * device memory budget (see chunks.h).
 *
 * Plan: first every element at once; while the program's buffers and the
 * scratch its calls take (measured, not guessed) pass the budget, chunks
 * shrink: in proportion after the first try, then along the line through
 * the last two tries (the bytes grow about linearly with the chunk), 3%
 * under, at least one element less each try. A buffer over the device's
 * largest makes the budget, when none was given, that size. The buffers
 * of the plan that fits are the ones the chunks use.
 */
#define _POSIX_C_SOURCE 200809L

#include "chunks.h"

#include <stdint.h>
#include <string.h>

#define PLAN_TRIES 24

static void release_buffers(chunks *c)
{
    ak_cl_release(c->mem, c->n_mem, NULL);
    c->n_mem = 0;
    c->data_bytes = 0;
}

int chunks_buffer(chunks *c, size_t bytes, cl_mem *out, ak_err *e)
{
    if (c->n_mem == CHUNKS_MAX_BUFFERS)
        return ak_fail(e, "more than %d device buffers for the chunks", CHUNKS_MAX_BUFFERS);
    if (bytes > c->max_alloc) {
        c->too_large = 1;
        return ak_fail(e, "%s: %zu bytes exceed the device's largest buffer (%zu bytes)",
                       ak_run_input_name(c->run), bytes, c->max_alloc);
    }
    if (ak_cl_new_buffer(c->run->ctx, bytes, out, e) != 0)
        return -1;
    c->mem[c->n_mem++] = *out;
    c->data_bytes += bytes ? bytes : 1;
    return 0;
}

/* The failure of the measured calls, while the context still has its
 * detail. */
static int fail_measure(chunks *c, sk_status st, ak_err *e)
{
    c->run->status = st;
    if (c->job->ops->fail) return c->job->ops->fail(c, st, e);
    return ak_fail_sk(e, c->run->ctx, st, ak_run_input_name(c->run));
}

/* c->scratch_bytes: the scratch the calls of a chunk of `elems` take. The
 * kernels they build count as build time, the rest as compute time. */
static int measure_scratch(chunks *c, size_t elems, ak_err *e)
{
    ak_run *run = c->run;
    sk_build_stats before = SK_BUILD_STATS_INIT;
    sk_context_build_stats(run->ctx, &before);
    double t0 = ak_now();
    sk_status st = sk_context_scratch_query_begin(run->ctx);
    if (st != SK_OK) return fail_measure(c, st, e);
    st = c->job->ops->measure(c, elems);
    int rc = st == SK_OK ? 0 : fail_measure(c, st, e);
    sk_status end = sk_context_scratch_query_end(run->ctx, &c->scratch_bytes);
    if (rc == 0 && end != SK_OK) rc = fail_measure(c, end, e);
    ak_build_stats_add_since(run->ctx, &before, ak_ms_since(t0), &run->times.build,
                             &run->times.compute);
    return rc;
}

/* Chunks of `elems`: their buffers and scratch; *need is the bytes both
 * take (SIZE_MAX and c->too_large for a buffer or scratch over the
 * device's largest). */
static int try_plan(chunks *c, size_t elems, size_t *need, ak_err *e)
{
    release_buffers(c);
    c->too_large = 0;
    c->several = elems < c->job->n;
    if (c->job->ops->buffers(c, elems, e) != 0) {
        *need = SIZE_MAX;
        return c->too_large ? 0 : -1;
    }
    if (measure_scratch(c, elems, e) != 0)
        return -1;
    c->too_large = c->scratch_bytes > c->max_alloc;
    *need = c->too_large ? SIZE_MAX : c->data_bytes + c->scratch_bytes;
    return 0;
}

static int fail_too_small(const chunks *c, const char *type_name, size_t budget, ak_err *e)
{
    const char *what = c->job->what;
    if (c->job->budget)
        return ak_fail(e, "--memory %zu is too small for %s %s elements on the device (%zu "
                       "bytes would not hold one element and the library's scratch)",
                       budget, what, type_name, budget);
    return ak_fail(e, "the device's largest buffer (%zu bytes) is too small for %s %s elements",
                   c->max_alloc, what, type_name);
}

/* A try of chunks of `elems` that needed `need` bytes. */
typedef struct plan_try {
    size_t elems, need;
} plan_try;

/* The next chunks to try after `now` (and `before`, the try before it, or
 * zeros) passed the budget: along the line through both tries when it
 * has one (the bytes that do not grow with the chunk, the coefficients,
 * make a proportional guess creep), else in proportion; 3% under, at
 * least one element less. */
static size_t next_guess(plan_try before, plan_try now, size_t budget)
{
    double guess = now.need == SIZE_MAX ? 0.5 * (double)now.elems
                                        : (double)now.elems * (double)budget / (double)now.need;
    if (before.elems > now.elems && before.need != SIZE_MAX && now.need != SIZE_MAX &&
        before.need > now.need) {
        double slope = (double)(before.need - now.need) / (double)(before.elems - now.elems);
        guess = (double)now.elems - ((double)now.need - (double)budget) / slope;
    }
    size_t smaller = guess > 0 ? (size_t)(guess * 0.97) : 0;
    return smaller < now.elems ? smaller : now.elems - 1;
}

/* The largest chunks (at most every element) that fit the budget, their
 * buffers made. */
static int plan(chunks *c, const char *type_name, ak_err *e)
{
    size_t budget = c->job->budget ? c->job->budget : SIZE_MAX;
    plan_try before = {0, 0}, now = {c->job->n, 0};
    if (c->job->most && c->job->most < now.elems) now.elems = c->job->most;
    for (int tries = 0; now.elems > 0 && tries < PLAN_TRIES; tries++) {
        if (try_plan(c, now.elems, &now.need, e) != 0) return -1;
        if (!c->too_large && now.need <= budget) {
            c->elems = now.elems;
            c->device_bytes = now.need;
            return 0;
        }
        if (c->too_large && !c->job->budget) budget = c->max_alloc;
        size_t next = next_guess(before, now, budget);
        /* a line only through tries of chunks: the whole input in one piece
         * takes other buffers (in place, no carry) */
        before = c->several ? now : (plan_try){0, 0};
        now.elems = next;
    }
    release_buffers(c);
    return fail_too_small(c, type_name, budget, e);
}

static int run_all(chunks *c, ak_err *e)
{
    const chunk_job *j = c->job;
    int rc = 0;
    ak_progress_start(&c->progress, c->run->program->cli->tool, j->what,
                      (uint64_t)j->n * j->elem_bytes, c->run->progress);
    for (size_t first = 0; rc == 0 && first < j->n; first += c->elems, c->count++) {
        size_t count = j->n - first < c->elems ? j->n - first : c->elems;
        rc = j->ops->chunk(c, first, count, e);
        ak_progress_add(&c->progress, (uint64_t)count * j->elem_bytes);
    }
    ak_progress_end(&c->progress);
    return rc;
}

int chunks_run(ak_run *run, const chunk_job *j, const char *type_name, chunks *c, ak_err *e)
{
    memset(c, 0, sizeof *c);
    c->run = run;
    c->job = j;
    if (j->n == 0) return 0;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_status st = sk_context_device(run->ctx, &d);
    if (st != SK_OK) return ak_fail_sk(e, run->ctx, st, ak_run_input_name(run));
    c->max_alloc = d.max_alloc_bytes > SIZE_MAX ? SIZE_MAX : (size_t)d.max_alloc_bytes;
    int rc = plan(c, type_name, e);
    if (rc == 0) rc = run_all(c, e);
    release_buffers(c);
    return rc;
}

void chunks_note(const chunks *c, char *buf, size_t size)
{
    size_t used = strlen(buf);
    if (c->count == 0 || used >= size) return;
    snprintf(buf + used, size - used, "%sdevice memory %zu bytes; %zu chunk%s of %zu",
             used ? "; " : "", c->device_bytes, c->count,
             c->count == 1 ? "" : "s", c->elems);
}
