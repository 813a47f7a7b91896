/*
 * merge - merges two sorted files of keys (optionally with a file of values
 * beside each) on an OpenCL device: scankit's stable merge, A's keys first
 * among equal ones.
 *
 *   merge a.bin b.bin                        uint32 keys to a.merged.bin
 *   merge a.npy b.npy --descending --check   type from the .npy headers
 *   merge a.bin b.bin --values va.bin vb.bin va.merged.bin too
 *
 * The inputs are checked to be sorted before the merge (the merge of
 * unsorted keys is unspecified). Exit status: 0 success, 1 bad input or
 * failure (one line on stderr), 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "merge_args.h"
#include "sort_check.h"
#include "sort_memio.h"

#include <stdlib.h>
#include <string.h>

typedef struct merge_job {
    ak_array a, b, va, vb; /* the inputs                         */
    ak_array keys, values; /* the output                         */
    cl_mem kbufs[3], vbufs[3]; /* on the device: A, B, the output */
    sk_stream_stats stats;     /* --memory: what the stream sort did */
} merge_job;

static int has_values(const ak_run *r)
{
    return ((const merge_args *)r->args)->values[0] != NULL;
}

/* The keys, and with --values the values beside them. */
static void plan(ak_run *r)
{
    const merge_args *a = r->args;
    merge_job *j = r->job;
    ak_run_add_output(r, "merged", &j->keys, AK_FORMAT_AUTO);
    if (!has_values(r))
        return;
    ak_output_choice values = {a->values[0], a->values_out, "merged", 0, 0, NULL, 0};
    ak_run_add_output_as(r, &values, &j->values, AK_FORMAT_AUTO);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

static const char *name_of(const char *path)
{
    return ak_display_name(path, 0);
}

static const char *format_name(ak_format f)
{
    return f == AK_FORMAT_NPY ? ".npy" : "raw";
}

/* The second file of a pair (B, or VB) is of the first's layout and type. */
static int check_alike(const char *const paths[2], const ak_array *x, const ak_array *y,
                       const char *pair, ak_err *e)
{
    const char *first = name_of(paths[0]), *second = name_of(paths[1]);
    if (y->format != x->format)
        return ak_fail(e, "%s: a %s file where %s is %s (%s must be of one format)", second,
                       format_name(y->format), first, format_name(x->format), pair);
    if (y->type != x->type)
        return ak_fail(e, "%s: %s elements where %s has %s (%s must be of one type)", second,
                       ak_dtype_name(y->type), first, ak_dtype_name(x->type), pair);
    return 0;
}

/* A and B: of one scankit type and layout (a raw B is read as A's type),
 * each sorted (the merge of unsorted keys is unspecified). */
static int read_keys(ak_run *r, ak_err *e)
{
    const merge_args *a = r->args;
    merge_job *j = r->job;
    if (ak_run_read(r, a->inputs[0], a->type, AK_UINT32, &j->a, e) != 0 ||
        ak_check_sk_key_type(name_of(a->inputs[0]), j->a.type, "merged", e) != 0 ||
        ak_run_read(r, a->inputs[1], a->type, j->a.type, &j->b, e) != 0 ||
        check_alike(a->inputs, &j->a, &j->b, "A and B", e) != 0)
        return -1;
    if (sort_check_input(a->inputs[0], &j->a, a->descending, e) != 0)
        return -1;
    return sort_check_input(a->inputs[1], &j->b, a->descending, e);
}

/* VA and VB: one value per key of A and of B, of one type and layout. */
static int read_values(ak_run *r, ak_err *e)
{
    const merge_args *a = r->args;
    merge_job *j = r->job;
    char of_a[4200], of_b[4200];
    snprintf(of_a, sizeof of_a, "keys in %s", name_of(a->inputs[0]));
    snprintf(of_b, sizeof of_b, "keys in %s", name_of(a->inputs[1]));
    if (ak_run_read_values(r, a->values[0], a->values_type, j->a.n, of_a, &j->va, e) != 0 ||
        ak_run_read_values(r, a->values[1], a->values_type, j->b.n, of_b, &j->vb, e) != 0)
        return -1;
    return check_alike(a->values, &j->va, &j->vb, "VA and VB", e);
}

static int read_inputs(ak_run *r, ak_err *e)
{
    if (read_keys(r, e) != 0)
        return -1;
    return has_values(r) ? read_values(r, e) : 0;
}

/* ------------------------------------------------------------------------ */
/* The merge                                                                 */
/* ------------------------------------------------------------------------ */

static size_t bytes_of(const ak_array *a)
{
    return a->n * ak_dtype_size(a->type);
}

/* *out: room for the elements of x followed by those of y, in x's type and
 * layout; freed at the end of the run. */
static int new_union(ak_run *r, const ak_array *x, const ak_array *y, ak_array *out, ak_err *e)
{
    *out = *x;
    out->n = x->n + y->n;
    out->data = NULL;
    if (ak_run_keep(r, out, e) != 0)
        return -1;
    out->data = malloc(bytes_of(out) ? bytes_of(out) : 1);
    return out->data ? 0 : ak_fail(e, "out of memory");
}

static sk_status run_merge(ak_run *r)
{
    const merge_job *j = r->job;
    sort_call c = sort_call_of(j->a.type, ((const merge_args *)r->args)->descending);
    const cl_mem *k = j->kbufs, *v = j->vbufs;
    if (!has_values(r))
        return sk_merge_keys(r->ctx, c.type, k[0], k[1], k[2], j->a.n, j->b.n, c.order);
    return sk_merge_pairs(r->ctx, c.type, ak_dtype_size(j->va.type), k[0], v[0], k[1], v[1],
                          k[2], v[2], j->a.n, j->b.n, c.order);
}

/* Device buffers: x and y uploaded, room for their union. */
static int buffers_for(ak_run *r, const ak_array *x, const ak_array *y, cl_mem bufs[3],
                       ak_err *e)
{
    if (ak_run_buffer(r, bytes_of(x), x->data, &bufs[0], e) != 0 ||
        ak_run_buffer(r, bytes_of(y), y->data, &bufs[1], e) != 0)
        return -1;
    return ak_run_buffer(r, bytes_of(x) + bytes_of(y), NULL, &bufs[2], e);
}

/* --memory: A followed by B through the stream sort, whose stable sort of
 * them is their stable merge, within the budget. */
static sk_status run_stream_merge(ak_run *r, void *user)
{
    const merge_args *a = r->args;
    merge_job *j = r->job;
    sk_stream_stats *st = user;
    sort_memio k = {{&j->a, &j->b}, &j->keys, 0, 0}, v = {{&j->va, &j->vb}, &j->values, 0, 0};
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    o.device_bytes = a->memory;
    sort_call c = sort_call_of(j->a.type, a->descending);
    sk_reader kr = sort_memio_reader(&k), vr = sort_memio_reader(&v);
    sk_writer kw = sort_memio_writer(&k), vw = sort_memio_writer(&v);
    if (has_values(r))
        return sk_sort_pairs_stream(r->ctx, c.type, ak_dtype_size(j->va.type), kr, vr, kw, vw,
                                    c.order, &o, st);
    return sk_sort_keys_stream(r->ctx, c.type, kr, kw, c.order, &o, st);
}

static int merge_within_memory(ak_run *r, ak_err *e)
{
    const merge_args *a = r->args;
    merge_job *j = r->job;
    j->stats = (sk_stream_stats)SK_STREAM_STATS_INIT;
    if (ak_run_call(r, run_stream_merge, &j->stats, e) == 0) return 0;
    if (r->status != SK_E_SIZE) return -1;
    return ak_fail(e, "--memory %zu is too small to merge %s and %s: %s", a->memory,
                   name_of(a->inputs[0]), name_of(a->inputs[1]),
                   sk_context_error_detail(r->ctx));
}

static int merge_on_device(ak_run *r, ak_err *e)
{
    merge_job *j = r->job;
    int values = has_values(r);
    if (new_union(r, &j->a, &j->b, &j->keys, e) != 0 ||
        (values && new_union(r, &j->va, &j->vb, &j->values, e) != 0))
        return -1;
    if (j->keys.n == 0)
        return 0;
    if (((const merge_args *)r->args)->memory)
        return merge_within_memory(r, e);
    if (buffers_for(r, &j->a, &j->b, j->kbufs, e) != 0 ||
        (values && buffers_for(r, &j->va, &j->vb, j->vbufs, e) != 0))
        return -1;
    if (ak_run_primitive(r, run_merge, e) != 0 ||
        ak_run_download(r, j->kbufs[2], 0, j->keys.data, bytes_of(&j->keys), e) != 0)
        return -1;
    return values ? ak_run_download(r, j->vbufs[2], 0, j->values.data, bytes_of(&j->values), e)
                  : 0;
}

/* ------------------------------------------------------------------------ */
/* --check                                                                   */
/* ------------------------------------------------------------------------ */

/* The output is sorted and holds the (key, value) pairs of A and of B, bit
 * for bit. */
static int check_merged(const ak_run *r, ak_err *e)
{
    const merge_job *j = r->job;
    int descending = ((const merge_args *)r->args)->descending;
    if (sort_check_order(&j->keys, descending, sort_whole_key(j->keys.type),
                         "check: FAILED: ", e) != 0)
        return -1;
    sort_print want = {0, 0}, got = {0, 0};
    sort_print_add(&want, &j->a, &j->va);
    sort_print_add(&want, &j->b, &j->vb);
    sort_print_add(&got, &j->keys, &j->values);
    if (!sort_print_equal(want, got))
        return ak_fail(e, "check: FAILED: the output is not the union of the inputs");
    return 0;
}

static int merge_and_check(ak_run *r, ak_err *e)
{
    const merge_job *j = r->job;
    if (merge_on_device(r, e) != 0)
        return -1;
    if (!((const merge_args *)r->args)->check)
        return 0;
    double t0 = ak_now();
    int rc = check_merged(r, e);
    r->times.check = ak_ms_since(t0);
    if (rc == 0)
        fprintf(stderr, "check: ok (%zu keys merged)\n", j->keys.n);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const merge_job *j = r->job;
    char values[64] = "";
    if (has_values(r))
        snprintf(values, sizeof values, ", values of %s", ak_dtype_name(j->va.type));
    snprintf(n->read, sizeof n->read, "%zu + %zu keys of %s%s", j->a.n, j->b.n,
             ak_dtype_name(j->a.type), values);
    ak_run_note_rate(r, n, j->keys.n, "keys");
    if (!((const merge_args *)r->args)->memory) return;
    size_t used = strlen(n->compute);
    snprintf(n->compute + used, sizeof n->compute - used,
             "%sdevice memory %llu bytes; %llu runs, %llu merge blocks", used ? "; " : "",
             (unsigned long long)j->stats.device_bytes, (unsigned long long)j->stats.runs,
             (unsigned long long)j->stats.merge_blocks);
}

static const ak_program MERGE = {.cli = &merge_cli, .job_size = sizeof(merge_job),
                                 .plan = plan, .read = read_inputs,
                                 .compute = merge_and_check, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&MERGE, argc, argv);
}
