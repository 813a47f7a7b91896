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

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = "polyeval";
static const char USAGE[] =
    "polyeval COEFFS (--x VALUE[,VALUE...] | --points FILE) [-o OUTPUT]\n"
    "                [--type float32|float64] [--device SPEC] [--list-devices]\n"
    "                [--time] [--help] [--version]";

static const char HELP[] =
    "Evaluates p(x) = a_0 + a_1 x + ... + a_d x^d on an OpenCL device.\n"
    "\n"
    "  COEFFS              the coefficients a_0 .. a_d in that order: raw\n"
    "                      little-endian floats, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin. An empty file is\n"
    "                      the zero polynomial\n"
    "      --x VALUES      the points, comma-separated decimal numbers\n"
    "      --points FILE   the points, a file of the coefficients' type (raw or\n"
    "                      .npy)\n"
    "  -o, --output FILE   write the values as a file ('-' is stdout): .npy when\n"
    "                      FILE ends in .npy or the points file is .npy, raw\n"
    "                      otherwise. Written to a temporary file and renamed.\n"
    "                      Without -o the values are printed on stdout, one per\n"
    "                      line (%.17g for float64, %.9g for float32)\n"
    "  -t, --type TYPE     float32 (default for raw files) or float64; must agree\n"
    "                      with the dtype of .npy files\n"
    AK_HELP_DEVICE
    AK_HELP_TIME_HELP_VERSION
    "\n"
    "One point: Horner's rule as a parallel scan over the coefficients (any\n"
    "degree). Several points: one device work-item per point. The error is at\n"
    "most gamma(2d) * sum |a_i x^i| (see scankit.h) unless |x|^(d+1) overflows.\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1,
    OPT_TYPE,
    OPT_X,
    OPT_POINTS,
    OPT_DEVICE,
    OPT_LIST_DEVICES,
    OPT_TIME,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"x", 'x', 1, OPT_X},
    {"points", 0, 1, OPT_POINTS},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

typedef struct poly_args {
    const char *input, *output, *device, *x_text, *points;
    ak_dtype type; /* AK_DTYPE_NONE unless --type */
    double *xs;    /* --x values */
    size_t nx;
    int time, list_devices, help, version;
} poly_args;

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
/* Command line                                                              */
/* ------------------------------------------------------------------------ */

/* Parses "v1,v2,..." into a->xs. */
static int parse_xs(poly_args *a, const char *text, ak_err *e)
{
    size_t cap = 1;
    for (const char *c = text; *c; c++) cap += *c == ',';
    free(a->xs);
    a->nx = 0;
    if (!(a->xs = malloc(cap * sizeof *a->xs))) return ak_fail(e, "out of memory");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char buf[128];
        if (len == 0 || len >= sizeof buf) return ak_fail(e, "bad --x value in '%s'", text);
        memcpy(buf, p, len);
        buf[len] = 0;
        if (ak_parse_f64(buf, &a->xs[a->nx]) != 0)
            return ak_fail(e, "bad --x value '%s' (a finite number)", buf);
        a->nx++;
        if (!comma) return 0;
        p = comma + 1;
    }
}

static int take_option(void *args, int id, const char *value, ak_err *e)
{
    poly_args *a = args;
    switch (id) {
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_DEVICE: a->device = value; return 0;
    case OPT_POINTS: a->points = value; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_X: a->x_text = value; return parse_xs(a, value, e);
    case OPT_TYPE:
        if (ak_dtype_parse(value, &a->type) != 0 || !ak_dtype_is_float(a->type))
            return ak_fail(e, "unknown --type '%s' (use float32 or float64)", value);
        return 0;
    default: return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_args(const void *args, ak_err *e)
{
    const poly_args *a = args;
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing COEFFS");
    if (!a->x_text == !a->points) return ak_fail(e, "give exactly one of --x and --points");
    if (a->points && ak_path_is_stdio(a->points) && ak_path_is_stdio(a->input))
        return ak_fail(e, "COEFFS and --points cannot both be stdin");
    return 0;
}

static const ak_cli CLI = {TOOL, USAGE, OPTIONS, "COEFFS"};

/* @return AK_EXIT_OK, or AK_EXIT_USAGE after printing the reason. */
static int parse_args(int argc, char **argv, poly_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = AK_DTYPE_NONE;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
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
    ak_output_choice c = {a->input, a->output, TOOL, 0};
    if (ak_output_resolve(&c, &j->out_path, e) != 0) return -1;
    if (!a->points || !j->out_path) return 0;
    char *again = NULL;
    ak_output_choice p = {a->points, a->output, TOOL, 0};
    int rc = ak_output_resolve(&p, &again, e);
    free(again);
    return rc;
}

static int print_values(const poly_job *j, ak_err *e)
{
    for (size_t k = 0; k < j->points.n; k++) {
        if (j->points.type == AK_FLOAT32) printf("%.9g\n", (double)((float *)j->points.data)[k]);
        else printf("%.17g\n", ((double *)j->points.data)[k]);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) return ak_fail(e, "stdout: write failed");
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
    if (a->help) return ak_print_help(USAGE, HELP);
    if (a->version) return ak_print_version(TOOL);
    if (a->list_devices) return ak_list_devices(TOOL);
    if (ak_require_little_endian(TOOL) != AK_EXIT_OK) return AK_EXIT_FAIL;
    return run(a, start);
}

int main(int argc, char **argv)
{
    double start = ak_now();
    poly_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc == AK_EXIT_OK) rc = dispatch(&a, start);
    free(a.xs);
    return rc;
}
