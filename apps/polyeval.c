/*
 * polyeval - evaluates a polynomial given by a file of coefficients at one
 * or many points on an OpenCL device.
 *
 *   polyeval coeffs.bin --x 0.5                  p(0.5) on stdout
 *   polyeval coeffs.npy --x -1,0,1 --type float64
 *   polyeval coeffs.bin --points xs.bin -o ys.bin
 *   polyeval coeffs.bin --points xs.bin -o ys.bin --memory 64M   in chunks
 *
 * COEFFS holds a_0 .. a_d: p(x) = a_0 + a_1 x + ... + a_d x^d.
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "chunks.h"
#include "polyeval_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct poly_job {
    ak_array coeffs, points; /* points: from --points or --x, then the values */
    cl_mem cmem, pmem;
    chunks chunks;           /* the points, chunk by chunk */
    size_t dev_len;          /* points of the call */
    int measuring;           /* the call is measured: no value to keep */
} poly_job;

/* With -o the values go to a file; without, they are printed. */
static void plan(ak_run *r)
{
    poly_job *j = r->job;
    if (((const poly_args *)r->args)->output)
        ak_run_add_output(r, POLYEVAL_TOOL, &j->points, AK_FORMAT_AUTO);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

static int need_float(const char *path, ak_dtype t, ak_err *e)
{
    if (ak_dtype_is_float(t)) return 0;
    return ak_fail(e, "%s: element type %s cannot be evaluated (use float32 or float64)",
                   ak_display_name(path, 0), ak_dtype_name(t));
}

/* The --x values as an array of the coefficients' type. */
static int points_from_xs(ak_run *r, ak_err *e)
{
    const poly_args *a = r->args;
    poly_job *j = r->job;
    size_t n = a->nx, es = ak_dtype_size(j->coeffs.type);
    j->points = (ak_array){j->coeffs.type, AK_FORMAT_RAW, n, malloc(n * es)};
    if (ak_run_keep(r, &j->points, e) != 0) return -1;
    if (!j->points.data) return ak_fail(e, "out of memory");
    for (size_t k = 0; k < n; k++) {
        if (j->coeffs.type == AK_FLOAT32) ((float *)j->points.data)[k] = (float)a->xs[k];
        else ((double *)j->points.data)[k] = a->xs[k];
    }
    return 0;
}

static int read_points(ak_run *r, ak_err *e)
{
    const char *path = ((const poly_args *)r->args)->points;
    poly_job *j = r->job;
    if (ak_run_read(r, path, AK_DTYPE_NONE, j->coeffs.type, &j->points, e) != 0)
        return -1;
    if (j->points.type != j->coeffs.type)
        return ak_fail(e, "%s: the points are %s, the coefficients %s", ak_display_name(path, 0),
                       ak_dtype_name(j->points.type), ak_dtype_name(j->coeffs.type));
    return 0;
}

static int read_inputs(ak_run *r, ak_err *e)
{
    const poly_args *a = r->args;
    poly_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_FLOAT32, &j->coeffs, e) != 0 ||
        need_float(a->input, j->coeffs.type, e) != 0)
        return -1;
    return a->x_text ? points_from_xs(r, e) : read_points(r, e);
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static size_t bytes_of(const ak_array *a)
{
    return a->n * ak_dtype_size(a->type);
}

/* The coefficients stay on the device; the points go in chunks (one
 * point alone, none). */
static int poly_buffers(chunks *c, size_t elems, ak_err *e)
{
    poly_job *j = c->run->job;
    if (chunks_buffer(c, bytes_of(&j->coeffs), &j->cmem, e) != 0)
        return -1;
    if (j->points.n < 2)
        return 0;
    return chunks_buffer(c, elems * ak_dtype_size(j->points.type), &j->pmem, e);
}

/* One point through sk_poly_eval (the value replaces the point), several
 * through sk_poly_eval_points (dev_len of them, a chunk). */
static sk_status evaluate(ak_run *r, void *user)
{
    poly_job *j = user;
    sk_type t;
    ak_dtype_to_sk(j->coeffs.type, &t);
    if (j->points.n > 1)
        return sk_poly_eval_points(r->ctx, t, j->cmem, j->pmem, j->pmem, j->coeffs.n,
                                   j->dev_len);
    double x = t == SK_FLOAT32 ? (double)((float *)j->points.data)[0]
                               : ((double *)j->points.data)[0];
    double v = 0;
    sk_status st = sk_poly_eval(r->ctx, t, j->cmem, x, &v, j->coeffs.n);
    if (j->measuring) return st;
    if (t == SK_FLOAT32) ((float *)j->points.data)[0] = (float)v;
    else ((double *)j->points.data)[0] = v;
    return st;
}

static sk_status poly_measure(chunks *c, size_t elems)
{
    poly_job *j = c->run->job;
    j->dev_len = elems;
    j->measuring = 1;
    sk_status st = evaluate(c->run, j);
    j->measuring = 0;
    return st;
}

/* Points [first, first + count) to values. */
static int poly_chunk(chunks *c, size_t first, size_t count, ak_err *e)
{
    ak_run *r = c->run;
    poly_job *j = r->job;
    size_t ps = ak_dtype_size(j->points.type);
    unsigned char *host = (unsigned char *)j->points.data + first * ps;
    if (first == 0 && j->coeffs.n &&
        ak_run_upload(r, j->cmem, 0, j->coeffs.data, bytes_of(&j->coeffs), e) != 0)
        return -1;
    j->dev_len = count;
    if (j->points.n < 2) return ak_run_call(r, evaluate, j, e);
    if (ak_run_upload(r, j->pmem, 0, host, count * ps, e) != 0 ||
        ak_run_call(r, evaluate, j, e) != 0)
        return -1;
    return ak_run_download(r, j->pmem, 0, host, count * ps, e);
}

static const chunk_ops POLY_CHUNKS = {poly_buffers, poly_measure, poly_chunk, NULL};

static int compute(ak_run *r, ak_err *e)
{
    poly_job *j = r->job;
    chunk_job cj = {&POLY_CHUNKS, j, j->points.n, ak_dtype_size(j->points.type), "evaluating",
                    ((const poly_args *)r->args)->memory, 0};
    return chunks_run(r, &cj, ak_dtype_name(j->points.type), &j->chunks, e);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

static int print_value(const poly_job *j, size_t k)
{
    if (j->points.type == AK_FLOAT32) return printf("%.9g\n", (double)((float *)j->points.data)[k]);
    return printf("%.17g\n", ((double *)j->points.data)[k]);
}

/* One value per line; a failure is "stdout: write failed: <reason>", as
 * every program says it. */
static int print_values(const poly_job *j, ak_err *e)
{
    int err = 0;
    for (size_t k = 0; k < j->points.n && !err; k++) {
        errno = 0;
        if (print_value(j, k) < 0) err = errno ? errno : EIO;
    }
    errno = 0;
    if (fflush(stdout) != 0 && !err) err = errno ? errno : EIO;
    if (err || ferror(stdout))
        return ak_fail(e, "stdout: write failed: %s", strerror(err ? err : EIO));
    return 0;
}

static int write_values(ak_run *r, ak_err *e)
{
    return r->n_outputs ? ak_run_write_arrays(r, e) : print_values(r->job, e);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const poly_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu coefficients, %zu points, %s", j->coeffs.n,
             j->points.n, ak_dtype_name(j->coeffs.type));
    ak_run_note_rate(r, n, j->points.n, "points");
    chunks_note(&j->chunks, n->compute, sizeof n->compute);
}

static const ak_program POLYEVAL = {.cli = &polyeval_cli, .job_size = sizeof(poly_job),
                                    .plan = plan, .read = read_inputs, .compute = compute,
                                    .write = write_values, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&POLYEVAL, argc, argv);
}
