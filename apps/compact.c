/*
 * compact - stream compaction of a file of elements on an OpenCL device.
 *
 *   compact data.bin --if 'x % 3 == 0'          to data.compact.bin
 *   compact data.npy --flags keep.npy -o kept.npy
 *   compact data.bin --partition 'x > 100u'     selected first, then the rest
 *   compact sorted.bin --unique -o -
 *   compact keys.bin --if 'x < 10u' --values vals.bin --values-type uint64
 *   compact keys.bin --unique --values vals.bin --values-out firsts.bin
 *
 * Prints "selected K of N" on stderr. Exit status: 0 success, 1 bad input
 * or failure (one line on stderr), 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "compact_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct compact_job {
    ak_array data, flags, values;
    size_t count;                           /* selected */
    cl_mem src, flags_mem, vsrc, dst, vdst; /* NULL when unused */
} compact_job;

/* The elements, and with --values the values beside them. */
static void plan(ak_run *r)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    ak_run_add_output(r, COMPACT_TOOL, &j->data, a->format);
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
    if (!a->values)
        return 0;
    return ak_run_read_values(r, a->values, a->values_type, j->data.n, "elements", &j->values, e);
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static int upload_all(ak_run *r, ak_err *e)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    size_t n = j->data.n, es = ak_dtype_size(j->data.type);
    if (ak_run_buffer(r, n * es, j->data.data, &j->src, e) != 0 ||
        ak_run_buffer(r, n * es, NULL, &j->dst, e) != 0)
        return -1;
    if (a->mode == MODE_FLAGS &&
        ak_run_buffer(r, n * ak_dtype_size(j->flags.type), j->flags.data, &j->flags_mem, e) != 0)
        return -1;
    if (!a->values)
        return 0;
    size_t vs = ak_dtype_size(j->values.type);
    if (ak_run_buffer(r, n * vs, j->values.data, &j->vsrc, e) != 0)
        return -1;
    return ak_run_buffer(r, n * vs, NULL, &j->vdst, e);
}

/* The pair forms throughout: without --values, vsrc and vdst are NULL and
 * each is its keys-only primitive. */
static sk_status run_primitive(ak_run *r)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    size_t n = j->data.n, vs = a->values ? ak_dtype_size(j->values.type) : 0;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    switch (a->mode) {
    case MODE_IF:
        return sk_select_if_pairs(r->ctx, t, vs, a->expr, j->src, j->vsrc, j->dst, j->vdst,
                                  &j->count, n);
    case MODE_FLAGS:
        return sk_select_flagged_pairs(r->ctx, t, vs, ak_dtype_size(j->flags.type), j->src,
                                       j->vsrc, j->flags_mem, j->dst, j->vdst, &j->count, n);
    case MODE_PARTITION:
        return sk_partition_pairs(r->ctx, t, vs, a->expr, j->src, j->vsrc, j->dst, j->vdst,
                                  &j->count, n);
    case MODE_UNIQUE:
        return sk_unique_pairs(r->ctx, t, vs, j->src, j->vsrc, j->dst, j->vdst, &j->count, n);
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

/* Results go back over the input arrays (only their first part is used). */
static int compute(ak_run *r, ak_err *e)
{
    const compact_args *a = r->args;
    compact_job *j = r->job;
    if (upload_all(r, e) != 0)
        return -1;
    if (ak_run_primitive(r, run_primitive, e) != 0)
        return r->status == SK_E_BUILD ? fail_expression(r, e) : -1;
    /* a partition writes every element, the other modes the kept ones */
    size_t m = a->mode == MODE_PARTITION ? j->data.n : j->count;
    for (size_t i = 0; i < r->n_outputs; i++)
        ak_run_set_count(r, i, m);
    if (ak_run_download(r, j->dst, 0, j->data.data, m * ak_dtype_size(j->data.type), e) != 0)
        return -1;
    if (!a->values)
        return 0;
    return ak_run_download(r, j->vdst, 0, j->values.data, m * ak_dtype_size(j->values.type), e);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void report(const ak_run *r)
{
    const compact_job *j = r->job;
    fprintf(stderr, "selected %zu of %zu\n", j->count, j->data.n);
}

static void notes(const ak_run *r, ak_time_notes *n)
{
    const compact_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu elements of %s", j->data.n,
             ak_dtype_name(j->data.type));
}

static const ak_program COMPACT = {.cli = &compact_cli, .job_size = sizeof(compact_job),
                                   .plan = plan, .read = read_inputs, .compute = compute,
                                   .report = report, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&COMPACT, argc, argv);
}
