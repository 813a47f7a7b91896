/*
 * chunks.h - a program's elements through the device in chunks that fit a
 * device memory budget (--memory), the program carrying its state (a
 * running total, an open segment, an output offset) from one chunk to the
 * next. scan, compact, segscan and polyeval share it.
 *
 * The program gives three steps (chunk_ops): its device buffers for chunks
 * of E elements, made with chunks_buffer(); the library calls one chunk of
 * E elements makes, which chunks_run() measures in the library's scratch
 * query mode (sk_context_scratch_query_begin/_end: nothing runs); and the
 * run of one chunk (uploads, the call through ak_run_call(), downloads,
 * the carry). chunks_run() picks E: every element at once when the buffers
 * for them, with the measured scratch, fit the budget (without --memory:
 * when each buffer fits the device's largest), else the largest E that
 * fits (without --memory: within the size of the device's largest buffer),
 * so the program's peak device allocation stays within the budget. Then
 * it runs the chunks in order under one progress line.
 */
#ifndef SK_CHUNKS_H
#define SK_CHUNKS_H

#include "appkit_run.h"

#define CHUNKS_MAX_BUFFERS 6

struct chunks;

/*! chunk_ops : a program's steps; each returns 0, or -1 with the reason in
 *  *e (measure: a status). c->job->user is the program's state. */
typedef struct chunk_ops {
    /* Device buffers (chunks_buffer) for chunks of `elems` elements; more
     * than one chunk when c->several, so room for carried elements. */
    int (*buffers)(struct chunks *c, size_t elems, ak_err *e);
    /* Enqueues the library calls of the largest chunk of `elems`. */
    sk_status (*measure)(struct chunks *c, size_t elems);
    /* Elements [first, first + count) through the device. */
    int (*chunk)(struct chunks *c, size_t first, size_t count, ak_err *e);
    /* The reason of a measured call's status st (NULL: the status and the
     * context's detail, as ak_run_call() says it). */
    int (*fail)(struct chunks *c, sk_status st, ak_err *e);
} chunk_ops;

/*! chunk_job : what to run in chunks. */
typedef struct chunk_job {
    const chunk_ops *ops;
    void *user;          /* the program's state, for its steps            */
    size_t n;            /* elements in all                               */
    size_t elem_bytes;   /* host bytes per element, for the progress line */
    const char *what;    /* the progress line's phase: "scanning"         */
    size_t budget;       /* --memory; 0: the device's largest buffer      */
    size_t most;         /* most elements per chunk; 0: no limit          */
} chunk_job;

/*! chunks : a run in chunks; the program's steps read and write it. */
typedef struct chunks {
    ak_run *run;
    const chunk_job *job;
    size_t elems;        /* elements per chunk (the last may have fewer)  */
    int several;         /* more than one chunk                           */
    size_t count;        /* chunks run                                    */
    size_t data_bytes;   /* the buffers of chunks_buffer()                */
    size_t scratch_bytes;/* the library's scratch, measured               */
    size_t device_bytes; /* both, as planned (for --time)                 */
    size_t max_alloc;    /* the device's largest buffer                   */
    int too_large;       /* a buffer asked for is over max_alloc          */
    cl_mem mem[CHUNKS_MAX_BUFFERS];
    size_t n_mem;
    ak_progress progress;
} chunks;

/*! chunks_run() : runs j's n elements through the device in chunks
 *  (see above), filling *c (its buffers released at the end; stats stay).
 *  n == 0 runs nothing. The failure of a library call sets run->status.
 *  @return 0, or -1 ("--memory N is too small for one element of T and
 *  the <tool>'s scratch (M bytes)", a device failure, the program's). */
int chunks_run(ak_run *run, const chunk_job *j, const char *type_name, chunks *c, ak_err *e);

/*! chunks_buffer() : a device buffer of `bytes` (at least 1) for the
 *  chunks, released by chunks_run(). A size over the device's largest
 *  buffer fails (c->too_large) so that chunks_run() plans smaller chunks.
 *  @return 0 or -1. */
int chunks_buffer(chunks *c, size_t bytes, cl_mem *out, ak_err *e);

/*! chunks_note() : appends to the --time note `buf` (of `size` bytes)
 *  "device memory N bytes; K chunk(s) of E", "; " first when it is not
 *  empty; nothing before a run. */
void chunks_note(const chunks *c, char *buf, size_t size);

#endif /* SK_CHUNKS_H */
