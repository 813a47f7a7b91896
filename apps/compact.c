/*
 * compact - stream compaction of a file of elements on an OpenCL device.
 *
 *   compact data.bin --if 'x % 3 == 0'          to data.compact.bin
 *   compact data.npy --flags keep.npy -o kept.npy
 *   compact data.bin --partition 'x > 100u'     selected first, then the rest
 *   compact data.bin --partition-reversed 'x > 100u'   the rest from the last
 *   compact sorted.bin --unique -o -
 *   compact keys.bin --if 'x < 10u' --values vals.bin --values-type uint64
 *   compact keys.bin --unique --values vals.bin --values-out firsts.bin
 *   compact big.bin --if 'x > 7u' --memory 64M   in chunks within 64 MiB
 *   compact data.bin --rle --counts-out n.bin   each run's element, its length
 *
 * Prints "selected K of N" on stderr ("K runs in N elements" for --rle).
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "chunks.h"
#include "compact_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct compact_job {
    ak_array data, flags, values;
    ak_array counts;                        /* --rle: the runs' lengths */
    size_t count;                           /* selected (so far) */
    cl_mem src, flags_mem, vsrc, dst, vdst; /* NULL when unused */
    cl_mem cdst;                            /* --rle: the lengths */
    chunks chunks;                          /* the device's part */
    size_t dev_len, dev_count;              /* the call's elements, selected */
    unsigned char last[8];                  /* --unique: the element before */
    ak_array rejected, vrejected;           /* a partition in chunks: the */
    size_t n_rejected;                      /* rejected, kept until the end
                                               (reversed: at the arrays' end) */
} compact_job;

/* The elements, and with --values the values beside them. */
static void plan(ak_run *r)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    ak_run_add_output(r, COMPACT_TOOL, &j->data, a->format);
    if (a->mode == MODE_RLE) {
        ak_output_choice counts = {a->input, a->counts_out, "counts", 0, 0, NULL, 0};
        ak_run_add_output_as(r, &counts, &j->counts, a->format);
    }
    if (!a->values)
        return;
    ak_output_choice values = {a->values, a->values_out, COMPACT_TOOL, 0, 0, NULL, 0};
    ak_run_add_output_as(r, &values, &j->values, a->format);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

static int read_inputs(ak_run *r, ak_err *e)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->data, e) != 0 ||
        ak_check_sk_type(ak_run_input_name(r), j->data.type, "compacted", e) != 0)
        return -1;
    if (a->mode == MODE_FLAGS && ak_run_read_flags(r, a->flags, j->data.n, &j->flags, e) != 0)
        return -1;
    if (a->mode == MODE_RLE) {
        j->counts = (ak_array){AK_UINT64, j->data.format, j->data.n,
                               malloc(j->data.n * sizeof(uint64_t) + 1)};
        if (!j->counts.data) return ak_fail(e, "out of memory for the run lengths");
        return ak_run_keep(r, &j->counts, e);
    }
    if (!a->values)
        return 0;
    return ak_run_read_values(r, a->values, a->values_type, j->data.n, "elements", &j->values, e);
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static size_t value_size(const ak_run *r)
{
    const compact_job *j = r->job;
    return ((const compact_args *)r->args)->values ? ak_dtype_size(j->values.type) : 0;
}

/* With several chunks, --unique puts the element before a chunk in front
 * of it (a lead): it is kept, as a first element always is, and dropped,
 * and the chunk's first element is compared with it. */
static size_t lead_of(const chunks *c, size_t first)
{
    return c->several && first > 0 && ((const compact_args *)c->run->args)->mode == MODE_UNIQUE;
}

static int compact_buffers(chunks *c, size_t elems, ak_err *e)
{
    ak_run *r = c->run;
    const compact_args *a = r->args;
    compact_job *j = r->job;
    size_t cap = elems + lead_of(c, 1), es = ak_dtype_size(j->data.type), vs = value_size(r);
    if (chunks_buffer(c, cap * es, &j->src, e) != 0 || chunks_buffer(c, cap * es, &j->dst, e) != 0)
        return -1;
    if (a->mode == MODE_FLAGS &&
        chunks_buffer(c, cap * ak_dtype_size(j->flags.type), &j->flags_mem, e) != 0)
        return -1;
    if (a->mode == MODE_RLE) return chunks_buffer(c, cap * sizeof(uint64_t), &j->cdst, e);
    if (!vs)
        return 0;
    if (chunks_buffer(c, cap * vs, &j->vsrc, e) != 0)
        return -1;
    return chunks_buffer(c, cap * vs, &j->vdst, e);
}

/* The pair forms throughout: without --values, vsrc and vdst are NULL and
 * each is its keys-only primitive. */
static sk_status run_primitive(ak_run *r, void *user)
{
    const compact_args *a = r->args;
    compact_job *j = user;
    size_t n = j->dev_len, vs = value_size(r);
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    switch (a->mode) {
    case MODE_IF:
        return sk_select_if_pairs(r->ctx, t, vs, a->expr, j->src, j->vsrc, j->dst, j->vdst,
                                  &j->dev_count, n);
    case MODE_FLAGS:
        return sk_select_flagged_pairs(r->ctx, t, vs, ak_dtype_size(j->flags.type), j->src,
                                       j->vsrc, j->flags_mem, j->dst, j->vdst, &j->dev_count, n);
    case MODE_PARTITION:
        return sk_partition_pairs(r->ctx, t, vs, a->expr, j->src, j->vsrc, j->dst, j->vdst,
                                  &j->dev_count, n);
    case MODE_PARTITION_REVERSED:
        return sk_partition_reversed_pairs(r->ctx, t, vs, a->expr, j->src, j->vsrc, j->dst,
                                           j->vdst, &j->dev_count, n);
    case MODE_UNIQUE:
        return sk_unique_pairs(r->ctx, t, vs, j->src, j->vsrc, j->dst, j->vdst, &j->dev_count, n);
    case MODE_RLE:
        return sk_run_length_encode(r->ctx, t, j->src, j->dst, j->cdst, &j->dev_count, n);
    case MODE_NONE: break;
    }
    return SK_E_INVALID_ARG;
}

/* An expression that does not compile is named, cut when long so that the
 * compiler's reason fits. */
static int fail_expression(const ak_run *r, ak_err *e)
{
    const char *expr = ((const compact_args *)r->args)->expr;
    const compact_job *j = r->job;
    size_t len = strlen(expr);
    return ak_fail(e, "the expression '%.*s%s' does not compile for %s: %s",
                   len > 60 ? 48 : (int)len, expr, len > 60 ? "..." : "",
                   ak_dtype_name(j->data.type), sk_context_error_detail(r->ctx));
}

static sk_status compact_measure(chunks *c, size_t elems)
{
    compact_job *j = c->run->job;
    j->dev_len = lead_of(c, 1) + elems;
    return run_primitive(c->run, j);
}

/* Elements [first, first + count) (and their flags, values) to the device. */
static int upload_chunk(chunks *c, size_t first, size_t count, size_t lead, ak_err *e)
{
    ak_run *r = c->run;
    compact_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), vs = value_size(r);
    size_t fs = j->flags.data ? ak_dtype_size(j->flags.type) : 0;
    const unsigned char *x = j->data.data;
    if ((lead && ak_run_upload(r, j->src, 0, j->last, es, e) != 0) ||
        ak_run_upload(r, j->src, lead * es, x + first * es, count * es, e) != 0)
        return -1;
    if (fs && ak_run_upload(r, j->flags_mem, 0, (unsigned char *)j->flags.data + first * fs,
                            count * fs, e) != 0)
        return -1;
    if (vs && ak_run_upload(r, j->vsrc, lead * vs, (unsigned char *)j->values.data + first * vs,
                            count * vs, e) != 0)
        return -1;
    memcpy(j->last, x + (first + count - 1) * es, es);
    return 0;
}

/* `count` results from dst (and vdst) at `from` to the host arrays `to`
 * and `vto` at element `at`. */
static int download_part(ak_run *r, size_t from, ak_array *to, ak_array *vto, size_t at,
                         size_t count, ak_err *e)
{
    compact_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), vs = value_size(r);
    if (ak_run_download(r, j->dst, from * es, (unsigned char *)to->data + at * es, count * es,
                        e) != 0)
        return -1;
    return vs ? ak_run_download(r, j->vdst, from * vs, (unsigned char *)vto->data + at * vs,
                                count * vs, e)
              : 0;
}

/* A host array like `like` of n elements, freed at the end of the run. */
static int host_array(ak_run *r, const ak_array *like, size_t n, ak_array *out, ak_err *e)
{
    *out = (ak_array){like->type, like->format, n, malloc(n * ak_dtype_size(like->type) + 1)};
    if (!out->data) return ak_fail(e, "out of memory for the rejected elements");
    return ak_run_keep(r, out, e);
}

/* Whether the partition puts its rejected elements in reverse order. */
static int reversed(const ak_run *r)
{
    return ((const compact_args *)r->args)->mode == MODE_PARTITION_REVERSED;
}

/* A partition's chunk: the selected go after those selected before, the
 * rejected after those rejected before (reversed: the chunk's, already
 * reversed, before those rejected before, from the arrays' end), kept
 * apart until the end. */
static int download_partition(chunks *c, size_t count, ak_err *e)
{
    ak_run *r = c->run;
    compact_job *j = r->job;
    if (!c->several) return download_part(r, 0, &j->data, &j->values, 0, count, e);
    if (!j->rejected.data && (host_array(r, &j->data, j->data.n, &j->rejected, e) != 0 ||
                              (value_size(r) &&
                               host_array(r, &j->values, j->data.n, &j->vrejected, e) != 0)))
        return -1;
    size_t out = count - j->dev_count;
    size_t at = reversed(r) ? j->data.n - j->n_rejected - out : j->n_rejected;
    if (download_part(r, 0, &j->data, &j->values, j->count, j->dev_count, e) != 0 ||
        download_part(r, j->dev_count, &j->rejected, &j->vrejected, at, out, e) != 0)
        return -1;
    j->n_rejected += out;
    return 0;
}

/* --rle: a chunk's runs after those before; where its first run goes on
 * with the last run before (the same bits), their lengths join. */
static int download_runs(ak_run *r, ak_err *e)
{
    compact_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), at = j->count, runs = j->dev_count;
    unsigned char *v = (unsigned char *)j->data.data + at * es;
    uint64_t *k = (uint64_t *)j->counts.data + at;
    if (download_part(r, 0, &j->data, &j->values, at, runs, e) != 0 ||
        ak_run_download(r, j->cdst, 0, k, runs * sizeof *k, e) != 0)
        return -1;
    if (at && runs && memcmp(v - es, v, es) == 0) {
        k[-1] += k[0];
        memmove(v, v + es, (runs - 1) * es);
        memmove(k, k + 1, (runs - 1) * sizeof *k);
        runs--;
    }
    j->count += runs;
    return 0;
}

/* Results go back over the input arrays, behind the chunk (only their
 * first part is used). */
static int compact_chunk(chunks *c, size_t first, size_t count, ak_err *e)
{
    ak_run *r = c->run;
    compact_job *j = r->job;
    size_t lead = lead_of(c, first);
    cmode mode = ((const compact_args *)r->args)->mode;
    j->dev_len = lead + count;
    if (upload_chunk(c, first, count, lead, e) != 0 || ak_run_call(r, run_primitive, j, e) != 0)
        return -1;
    if (mode == MODE_RLE) return download_runs(r, e);
    int rc = mode == MODE_PARTITION || mode == MODE_PARTITION_REVERSED
                 ? download_partition(c, count, e)
                 : download_part(r, lead, &j->data, &j->values, j->count, j->dev_count - lead, e);
    j->count += j->dev_count - lead;
    return rc;
}

/* A measured call that failed: an expression that does not compile is
 * named. */
static int compact_fail(chunks *c, sk_status st, ak_err *e)
{
    if (st == SK_E_BUILD) return fail_expression(c->run, e);
    return ak_fail_sk(e, c->run->ctx, st, ak_run_input_name(c->run));
}

static const chunk_ops COMPACT_CHUNKS = {compact_buffers, compact_measure, compact_chunk,
                                         compact_fail};

/* A partition in chunks: the rejected after all the selected (reversed:
 * they fill the end of their arrays). */
static void join_rejected(ak_run *r)
{
    compact_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), vs = value_size(r);
    size_t from = reversed(r) ? j->data.n - j->n_rejected : 0;
    if (!j->rejected.data) return;
    memcpy((unsigned char *)j->data.data + j->count * es,
           (unsigned char *)j->rejected.data + from * es, j->n_rejected * es);
    if (vs)
        memcpy((unsigned char *)j->values.data + j->count * vs,
               (unsigned char *)j->vrejected.data + from * vs, j->n_rejected * vs);
}

static int compute(ak_run *r, ak_err *e)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type);
    chunk_job cj = {&COMPACT_CHUNKS, j, j->data.n, es + value_size(r), "compacting",
                    a->memory, 0};
    if (chunks_run(r, &cj, ak_dtype_name(j->data.type), &j->chunks, e) != 0)
        return -1;
    join_rejected(r);
    /* a partition writes every element, the other modes the kept ones */
    size_t m = a->mode == MODE_PARTITION || a->mode == MODE_PARTITION_REVERSED ? j->data.n
                                                                               : j->count;
    for (size_t i = 0; i < r->n_outputs; i++)
        ak_run_set_count(r, i, m);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void report(const ak_run *r)
{
    const compact_job *j = r->job;
    if (((const compact_args *)r->args)->mode == MODE_RLE)
        fprintf(stderr, "%zu runs in %zu elements\n", j->count, j->data.n);
    else
        fprintf(stderr, "selected %zu of %zu\n", j->count, j->data.n);
}

static void notes(const ak_run *r, ak_time_notes *n)
{
    const compact_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu elements of %s", j->data.n,
             ak_dtype_name(j->data.type));
    ak_run_note_rate(r, n, j->data.n, "elements");
    chunks_note(&j->chunks, n->compute, sizeof n->compute);
}

static const ak_program COMPACT = {.cli = &compact_cli, .job_size = sizeof(compact_job),
                                   .plan = plan, .read = read_inputs, .compute = compute,
                                   .report = report, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&COMPACT, argc, argv);
}
