/*
 * topk - the K smallest (or largest) keys of a file, on an OpenCL device:
 * scankit's radix selection (sk_topk_keys, _pairs, _indices).
 *
 *   topk keys.bin -k 10                  uint32; the 10 smallest to keys.topk.bin
 *   topk x.npy -k 100 --largest --sorted  largest first, type from the header
 *   topk k.bin -k 5 --values v.bin       their values to v.topk.bin too
 *   topk k.bin -k 5 --indices-out i.bin  their input indices (uint64)
 *
 * Raw or .npy (by the output's name or --format). Exit status: 0 success,
 * 1 bad input or failure (one line on stderr), 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "sort_check.h"
#include "topk_args.h"

#include <stdlib.h>

typedef struct topk_job {
    ak_array keys, values, out_keys, out_values; /* out_values: values or indices */
    size_t k;
    cl_mem bufs[4]; /* on the device: keys, values, out_keys, out_values */
} topk_job;

static int has_second(const topk_args *a) { return a->values || a->indices_out; }

/* The keys, named after INPUT; the values after FILE, or the indices. */
static void plan(ak_run *r)
{
    const topk_args *a = r->args;
    topk_job *j = r->job;
    ak_run_add_output(r, "topk", &j->out_keys, a->format);
    if (!has_second(a)) return;
    ak_output_choice c = {a->values, a->values ? a->values_out : a->indices_out, "topk", 0, 0,
                          NULL, 0};
    ak_run_add_output_as(r, &c, &j->out_values, a->values ? AK_FORMAT_AUTO : a->format);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

static int new_array(ak_run *r, ak_array *dst, ak_dtype t, ak_format f, size_t n, ak_err *e)
{
    *dst = (ak_array){t, f, n, malloc((n + 1) * ak_dtype_size(t))};
    if (!dst->data) return ak_fail(e, "out of memory for %zu elements", n);
    return ak_run_keep(r, dst, e);
}

/* INPUT's keys of one scankit type, at least K of them; the values. */
static int read_inputs(ak_run *r, ak_err *e)
{
    const topk_args *a = r->args;
    topk_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->keys, e) != 0 ||
        ak_check_sk_key_type(ak_run_input_name(r), j->keys.type, "selected", e) != 0)
        return -1;
    if (a->k > j->keys.n)
        return ak_fail(e, "%s: -k %llu exceeds its %zu keys", ak_run_input_name(r),
                       (unsigned long long)a->k, j->keys.n);
    j->k = (size_t)a->k;
    if (a->values &&
        ak_run_read_values(r, a->values, a->values_type, j->keys.n, "keys", &j->values, e) != 0)
        return -1;
    if (new_array(r, &j->out_keys, j->keys.type, j->keys.format, j->k, e) != 0) return -1;
    if (!has_second(a)) return 0;
    return new_array(r, &j->out_values, a->values ? j->values.type : AK_UINT64,
                     a->values ? j->values.format : j->keys.format, j->k, e);
}

/* ------------------------------------------------------------------------ */
/* The selection                                                             */
/* ------------------------------------------------------------------------ */

static sk_status run_topk(ak_run *r)
{
    const topk_args *a = r->args;
    const topk_job *j = r->job;
    sort_call c = sort_call_of(j->keys.type, a->largest);
    sk_topk_output out = a->sorted ? SK_TOPK_SORTED : SK_TOPK_INPUT_ORDER;
    const cl_mem *b = j->bufs;
    if (a->values)
        return sk_topk_pairs(r->ctx, c.type, ak_dtype_size(j->values.type), b[0], b[1], b[2],
                             b[3], j->keys.n, j->k, c.order, out);
    if (a->indices_out)
        return sk_topk_indices(r->ctx, c.type, b[0], b[2], b[3], j->keys.n, j->k, c.order, out);
    return sk_topk_keys(r->ctx, c.type, b[0], b[2], j->keys.n, j->k, c.order, out);
}

static int compute(ak_run *r, ak_err *e)
{
    const topk_args *a = r->args;
    topk_job *j = r->job;
    size_t ks = ak_dtype_size(j->keys.type), kb = j->k * ks;
    size_t vs = has_second(a) ? ak_dtype_size(j->out_values.type) : 0;
    if (j->k == 0) return 0;
    if (ak_run_buffer(r, j->keys.n * ks, j->keys.data, &j->bufs[0], e) != 0 ||
        (a->values &&
         ak_run_buffer(r, j->keys.n * vs, j->values.data, &j->bufs[1], e) != 0) ||
        ak_run_buffer(r, kb, NULL, &j->bufs[2], e) != 0 ||
        (vs && ak_run_buffer(r, j->k * vs, NULL, &j->bufs[3], e) != 0) ||
        ak_run_primitive(r, run_topk, e) != 0 ||
        ak_run_download(r, j->bufs[2], 0, j->out_keys.data, kb, e) != 0)
        return -1;
    return vs ? ak_run_download(r, j->bufs[3], 0, j->out_values.data, j->k * vs, e) : 0;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const topk_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu keys of %s, k %zu", j->keys.n,
             ak_dtype_name(j->keys.type), j->k);
    ak_run_note_rate(r, n, j->keys.n, "keys");
}

static const ak_program TOPK = {.cli = &topk_cli, .job_size = sizeof(topk_job),
                                .plan = plan, .read = read_inputs, .compute = compute,
                                .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&TOPK, argc, argv);
}
