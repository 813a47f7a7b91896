/*
 * polyeval - evaluates a polynomial given by a file of coefficients at one
 * or many points on an OpenCL device.
 *
 *   polyeval coeffs.bin --x 0.5                  p(0.5) on stdout
 *   polyeval coeffs.npy --x -1,0,1 --type float64
 *   polyeval coeffs.bin --points xs.bin -o ys.bin
 *
 * COEFFS holds a_0 .. a_d: p(x) = a_0 + a_1 x + ... + a_d x^d.
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "polyeval_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct poly_job {
    ak_array coeffs, points; /* points: from --points or --x, then the values */
    cl_mem cmem, pmem;
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

/* One point through sk_poly_eval (the value replaces the point), several
 * through sk_poly_eval_points. */
static sk_status evaluate(ak_run *r)
{
    poly_job *j = r->job;
    sk_type t;
    ak_dtype_to_sk(j->coeffs.type, &t);
    if (j->points.n > 1)
        return sk_poly_eval_points(r->ctx, t, j->cmem, j->pmem, j->pmem, j->coeffs.n,
                                   j->points.n);
    double x = t == SK_FLOAT32 ? (double)((float *)j->points.data)[0]
                               : ((double *)j->points.data)[0];
    double v = 0;
    sk_status st = sk_poly_eval(r->ctx, t, j->cmem, x, &v, j->coeffs.n);
    if (t == SK_FLOAT32) ((float *)j->points.data)[0] = (float)v;
    else ((double *)j->points.data)[0] = v;
    return st;
}

static int compute(ak_run *r, ak_err *e)
{
    poly_job *j = r->job;
    size_t np = j->points.n;
    if (np == 0) return 0;
    if (ak_run_buffer(r, bytes_of(&j->coeffs), j->coeffs.data, &j->cmem, e) != 0 ||
        (np > 1 && ak_run_buffer(r, bytes_of(&j->points), j->points.data, &j->pmem, e) != 0) ||
        ak_run_primitive(r, evaluate, e) != 0)
        return -1;
    return np > 1 ? ak_run_download(r, j->pmem, 0, j->points.data, bytes_of(&j->points), e) : 0;
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
}

static const ak_program POLYEVAL = {.cli = &polyeval_cli, .job_size = sizeof(poly_job),
                                    .plan = plan, .read = read_inputs, .compute = compute,
                                    .write = write_values, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&POLYEVAL, argc, argv);
}
