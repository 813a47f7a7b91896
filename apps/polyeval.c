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

#include "appkit.h"
#include "polyeval_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char TOOL[] = POLYEVAL_TOOL;

typedef struct poly_times {
    double start;
    double read, context, upload, compute, download, write;
    sk_build_stats build; /* during the computation */
} poly_times;

typedef struct poly_job {
    const poly_args *args;
    poly_times times;
    ak_array coeffs, points; /* points: from --points or --x, then the values */
    char *out_path;          /* -o: NULL for stdout */
    sk_context *ctx;
    cl_mem cmem, pmem;
    ak_output out;
} poly_job;

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
static int points_from_xs(poly_job *j, ak_err *e)
{
    size_t n = j->args->nx, es = ak_dtype_size(j->coeffs.type);
    j->points = (ak_array){j->coeffs.type, AK_FORMAT_RAW, n, malloc(n * es)};
    if (!j->points.data) return ak_fail(e, "out of memory");
    for (size_t k = 0; k < n; k++) {
        if (j->coeffs.type == AK_FLOAT32) ((float *)j->points.data)[k] = (float)j->args->xs[k];
        else ((double *)j->points.data)[k] = j->args->xs[k];
    }
    return 0;
}

static int read_inputs(poly_job *j, ak_err *e)
{
    const poly_args *a = j->args;
    ak_read_opts ro = {a->type, AK_FLOAT32, TOOL};
    double t0 = ak_now();
    if (ak_array_read(a->input, &ro, &j->coeffs, e) != 0 ||
        need_float(a->input, j->coeffs.type, e) != 0)
        return -1;
    if (a->x_text) {
        if (points_from_xs(j, e) != 0) return -1;
    } else {
        ak_read_opts po = {AK_DTYPE_NONE, j->coeffs.type, TOOL};
        if (ak_array_read(a->points, &po, &j->points, e) != 0) return -1;
        if (j->points.type != j->coeffs.type)
            return ak_fail(e, "%s: the points are %s, the coefficients %s",
                           ak_display_name(a->points, 0), ak_dtype_name(j->points.type),
                           ak_dtype_name(j->coeffs.type));
    }
    j->times.read = ak_ms_since(t0);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static int open_context(poly_job *j, ak_err *e)
{
    return ak_context_open(&j->ctx, j->args->device, 1, &j->times.context, e);
}

/* A device buffer holding `a` (at least 1 byte). */
static int upload_array(poly_job *j, const ak_array *a, cl_mem *out, ak_err *e)
{
    return ak_cl_new_buffer(j->ctx, a->n * ak_dtype_size(a->type), a->data, &j->times.upload,
                            out, e);
}

/* One point through sk_poly_eval; the value replaces the point. */
static sk_status eval_one(poly_job *j, sk_type t)
{
    double x = t == SK_FLOAT32 ? (double)((float *)j->points.data)[0]
                               : ((double *)j->points.data)[0];
    double r = 0;
    sk_status st = sk_poly_eval(j->ctx, t, j->cmem, j->coeffs.n, x, &r);
    if (t == SK_FLOAT32) ((float *)j->points.data)[0] = (float)r;
    else ((double *)j->points.data)[0] = r;
    return st;
}

static int download_values(poly_job *j, ak_err *e)
{
    size_t bytes = j->points.n * ak_dtype_size(j->points.type);
    return ak_cl_download(j->ctx, j->pmem, 0, j->points.data, bytes, &j->times.download,
                          "copying the values from the device", e);
}

static int evaluate(poly_job *j, ak_err *e)
{
    sk_type t;
    size_t np = j->points.n;
    ak_dtype_to_sk(j->coeffs.type, &t);
    if (np == 0) return 0;
    if (upload_array(j, &j->coeffs, &j->cmem, e) != 0) return -1;
    if (np > 1 && upload_array(j, &j->points, &j->pmem, e) != 0) return -1;
    sk_build_stats before;
    sk_context_build_stats(j->ctx, &before);
    double t0 = ak_now();
    sk_status st = np == 1 ? eval_one(j, t)
                           : sk_poly_eval_points(j->ctx, t, j->cmem, j->coeffs.n, j->pmem,
                                                 j->pmem, np);
    if (st == SK_OK) st = sk_context_finish(j->ctx);
    j->times.compute = ak_ms_since(t0);
    if (st != SK_OK) return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    ak_build_stats_since(j->ctx, &before, &j->times.build, &j->times.compute);
    return np > 1 ? download_values(j, e) : 0;
}

static int release_buffers(poly_job *j, ak_err *e)
{
    cl_mem *mems[] = {&j->cmem, &j->pmem};
    return ak_cl_release(mems, 2, e);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

/* -o: refuses to overwrite COEFFS or the points file. */
static int resolve_output(poly_job *j, ak_err *e)
{
    const poly_args *a = j->args;
    if (!a->output) return 0;
    ak_output_choice c = {a->input, a->output, TOOL, 0, 0, &a->points, 1};
    return ak_output_resolve(&c, &j->out_path, e);
}

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

static int write_values(poly_job *j, ak_err *e)
{
    double t0 = ak_now();
    int rc;
    if (!j->args->output) {
        rc = print_values(j, e);
    } else {
        ak_format f = ak_output_format(AK_FORMAT_AUTO, j->out_path, j->points.format);
        rc = ak_output_write_elements(&j->out, f, j->points.type, j->points.data, j->points.n,
                                      NULL, e);
        if (rc == 0) rc = ak_output_commit(&j->out, e);
    }
    j->times.write = ak_ms_since(t0);
    return rc;
}

static void print_times(const poly_job *j)
{
    const poly_times *t = &j->times;
    fprintf(stderr, "read:     %10.3f ms  (%zu coefficients, %zu points, %s)\n", t->read,
            j->coeffs.n, j->points.n, ak_dtype_name(j->coeffs.type));
    ak_print_device_times(t->context, t->upload, &t->build);
    ak_print_time("compute:", t->compute);
    ak_print_time("download:", t->download);
    ak_print_time("write:", t->write);
    ak_print_time("total:", ak_ms_since(t->start));
}

static int run_steps(poly_job *j, ak_err *e)
{
    if (resolve_output(j, e) != 0 || read_inputs(j, e) != 0) return -1;
    if (j->args->output && ak_output_open(&j->out, j->out_path, TOOL, e) != 0) return -1;
    if (open_context(j, e) != 0 || evaluate(j, e) != 0 || release_buffers(j, e) != 0)
        return -1;
    return write_values(j, e);
}

static int run(const poly_args *a, double start)
{
    poly_job j;
    ak_err e;
    memset(&j, 0, sizeof j);
    j.args = a;
    j.times.start = start;
    int rc = run_steps(&j, &e);
    ak_output_abort(&j.out); /* no-op after a commit */
    release_buffers(&j, NULL);
    sk_context_free(j.ctx);
    if (rc == 0 && a->time) print_times(&j);
    ak_array_free(&j.coeffs);
    ak_array_free(&j.points);
    free(j.out_path);
    return ak_exit_status(TOOL, rc, &e);
}

/* --help, --version, --list-devices, or the evaluation. */
static int dispatch(const poly_args *a, double start)
{
    if (a->help) return polyeval_print_help();
    if (a->version) return ak_print_version(TOOL);
    if (a->list_devices) return ak_list_devices(TOOL);
    if (ak_require_little_endian(TOOL) != AK_EXIT_OK) return AK_EXIT_FAIL;
    return run(a, start);
}

int main(int argc, char **argv)
{
    double start = ak_now();
    poly_args a;
    int rc = polyeval_parse_args(argc, argv, &a);
    if (rc == AK_EXIT_OK) rc = dispatch(&a, start);
    polyeval_args_free(&a);
    return rc;
}
