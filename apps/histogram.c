/*
 * histogram - counts of the elements of a file in bins, on an OpenCL device.
 *
 *   histogram data.bin --bins 256 --range 0:4294967296   to data.hist.bin
 *   histogram x.npy --bins 10 --range -1:1 -o counts.npy
 *   histogram x.npy --edges edges.npy                     bins between edges
 *   histogram big.bin --bins 64 --range 0:1e6 --memory 64M   in chunks
 *
 * The counts are uint64, raw or .npy. Prints "counted K of N" on stderr.
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "chunks.h"
#include "histogram_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct histogram_job {
    ak_array data, edges, counts;
    size_t bins;
    uint64_t *part;             /* one chunk's counts */
    cl_mem src, edges_mem, counts_mem;
    chunks chunks;
    size_t dev_len;             /* the call's elements */
    size_t counted;
} histogram_job;

static void plan(ak_run *r)
{
    const histogram_args *a = r->args;
    histogram_job *j = r->job;
    ak_run_add_output(r, "hist", &j->counts, a->format);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

static int read_inputs(ak_run *r, ak_err *e)
{
    const histogram_args *a = r->args;
    histogram_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->data, e) != 0 ||
        ak_check_sk_type(ak_run_input_name(r), j->data.type, "counted", e) != 0)
        return -1;
    j->bins = (size_t)a->bins;
    if (a->edges) {
        if (ak_run_read(r, a->edges, j->data.type, j->data.type, &j->edges, e) != 0)
            return -1;
        if (j->edges.n < 2)
            return ak_fail(e, "%s: %zu edges; at least 2 are needed (one bin)", a->edges,
                           j->edges.n);
        j->bins = j->edges.n - 1;
    }
    j->counts = (ak_array){AK_UINT64, j->data.format, j->bins,
                           calloc(j->bins + 1, sizeof(uint64_t))};
    j->part = malloc((j->bins + 1) * sizeof(uint64_t));
    if (!j->counts.data || !j->part) {
        free(j->part);
        j->part = NULL;
        return ak_fail(e, "out of memory for %zu counts", j->bins);
    }
    return ak_run_keep(r, &j->counts, e);
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static sk_status run_primitive(ak_run *r, void *user)
{
    const histogram_args *a = r->args;
    histogram_job *j = user;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    if (a->edges)
        return sk_histogram_edges(r->ctx, t, j->src, j->edges_mem, j->counts_mem, j->dev_len,
                                  j->bins);
    return sk_histogram_even(r->ctx, t, j->src, a->lo, a->hi, j->counts_mem, j->dev_len,
                             j->bins);
}

/* No elements: the arguments checked all the same (host form, n = 0). */
static sk_status run_empty(ak_run *r, void *user)
{
    const histogram_args *a = r->args;
    histogram_job *j = user;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    if (a->edges)
        return sk_histogram_edges_host(r->ctx, t, NULL, j->edges.data, j->counts.data, 0,
                                       j->bins);
    return sk_histogram_even_host(r->ctx, t, NULL, a->lo, a->hi, j->counts.data, 0, j->bins);
}

static int histogram_buffers(chunks *c, size_t elems, ak_err *e)
{
    ak_run *r = c->run;
    histogram_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type);
    if (chunks_buffer(c, elems * es, &j->src, e) != 0 ||
        chunks_buffer(c, j->bins * sizeof(uint64_t), &j->counts_mem, e) != 0)
        return -1;
    j->edges_mem = NULL;
    return j->edges.data ? chunks_buffer(c, j->edges.n * es, &j->edges_mem, e) : 0;
}

static sk_status histogram_measure(chunks *c, size_t elems)
{
    histogram_job *j = c->run->job;
    j->dev_len = elems;
    return run_primitive(c->run, j);
}

/* Elements [first, first + count) counted; the counts added to the
 * totals. */
static int histogram_chunk(chunks *c, size_t first, size_t count, ak_err *e)
{
    ak_run *r = c->run;
    histogram_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type);
    uint64_t *total = j->counts.data;
    j->dev_len = count;
    if ((c->count == 0 && j->edges.data &&
         ak_run_upload(r, j->edges_mem, 0, j->edges.data, j->edges.n * es, e) != 0) ||
        ak_run_upload(r, j->src, 0, (unsigned char *)j->data.data + first * es, count * es,
                      e) != 0 ||
        ak_run_call(r, run_primitive, j, e) != 0 ||
        ak_run_download(r, j->counts_mem, 0, j->part, j->bins * sizeof(uint64_t), e) != 0)
        return -1;
    for (size_t b = 0; b < j->bins; b++) {
        total[b] += j->part[b];
        j->counted += j->part[b];
    }
    return 0;
}

static const chunk_ops HISTOGRAM_CHUNKS = {histogram_buffers, histogram_measure,
                                           histogram_chunk, NULL};

static int compute(ak_run *r, ak_err *e)
{
    const histogram_args *a = r->args;
    histogram_job *j = r->job;
    if (j->data.n == 0) return ak_run_call(r, run_empty, j, e);
    chunk_job cj = {&HISTOGRAM_CHUNKS, j, j->data.n, ak_dtype_size(j->data.type), "counting",
                    a->memory, 0};
    return chunks_run(r, &cj, ak_dtype_name(j->data.type), &j->chunks, e);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void report(const ak_run *r)
{
    const histogram_job *j = r->job;
    fprintf(stderr, "counted %zu of %zu\n", j->counted, j->data.n);
}

static void notes(const ak_run *r, ak_time_notes *n)
{
    const histogram_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu elements of %s", j->data.n,
             ak_dtype_name(j->data.type));
    ak_run_note_rate(r, n, j->data.n, "elements");
    chunks_note(&j->chunks, n->compute, sizeof n->compute);
}

static void release(ak_run *r)
{
    histogram_job *j = r->job;
    free(j->part);
    j->part = NULL;
}

static const ak_program HISTOGRAM = {.cli = &histogram_cli,
                                     .job_size = sizeof(histogram_job),
                                     .plan = plan,
                                     .read = read_inputs,
                                     .compute = compute,
                                     .report = report,
                                     .notes = notes,
                                     .release = release};

int main(int argc, char **argv)
{
    return ak_main(&HISTOGRAM, argc, argv);
}
