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
    "  -d, --device SPEC   OpenCL device: 'P:D' indices, an index N, or part of\n"
    "                      the platform/device name (default $SCANKIT_DEVICE, else\n"
    "                      the first GPU, else the first device)\n"
    "      --list-devices  list the OpenCL devices and exit\n"
    "      --time          print a time breakdown to stderr\n"
    "  -h, --help          show this help and exit\n"
    "  -V, --version       show the version and exit\n"
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

static int usage_error(const char *msg)
{
    return ak_print_usage_error(TOOL, USAGE, msg);
}

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

static int take_option(poly_args *a, int id, const char *value, ak_err *e)
{
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

static int check_args(const poly_args *a, ak_err *e)
{
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing COEFFS");
    if (!a->x_text == !a->points) return ak_fail(e, "give exactly one of --x and --points");
    if (a->points && ak_path_is_stdio(a->points) && ak_path_is_stdio(a->input))
        return ak_fail(e, "COEFFS and --points cannot both be stdin");
    return 0;
}

/* @return AK_EXIT_OK, or AK_EXIT_USAGE after printing the reason. */
static int parse_args(int argc, char **argv, poly_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = AK_DTYPE_NONE;
    ak_args it;
    ak_err e;
    ak_args_init(&it, argc, argv);
    int id;
    while ((id = ak_args_next(&it, OPTIONS, &e)) != AK_ARGS_END) {
        if (id == AK_ARGS_ERROR) return usage_error(e.msg);
        if (id == AK_ARGS_OPERAND) {
            if (a->input) return usage_error("more than one COEFFS given");
            a->input = it.value;
        } else if (take_option(a, id, it.value, &e) != 0) {
            return usage_error(e.msg);
        }
    }
    if (check_args(a, &e) != 0) return usage_error(e.msg);
    return AK_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* --list-devices                                                            */
/* ------------------------------------------------------------------------ */

static int list_devices(void)
{
    size_t count = 0;
    sk_device_desc *d = NULL;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0) {
        ak_print_error(TOOL, "no OpenCL device found");
        return AK_EXIT_FAIL;
    }
    if (!(d = calloc(count, sizeof *d)) || sk_device_list(d, count, &count) != SK_OK) {
        free(d);
        ak_print_error(TOOL, "listing devices failed");
        return AK_EXIT_FAIL;
    }
    printf("%-6s %-4s %-4s %s\n", "index", "type", "fp64", "name (platform)");
    for (size_t i = 0; i < count; i++) {
        char index[32];
        snprintf(index, sizeof index, "%u:%u", d[i].platform_index, d[i].device_index);
        printf("%-6s %-4s %-4s %s (%s)\n", index, d[i].is_gpu ? "gpu" : "cpu",
               d[i].has_fp64 ? "yes" : "no", d[i].device_name, d[i].platform_name);
    }
    free(d);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        ak_print_error(TOOL, "stdout: write failed");
        return AK_EXIT_FAIL;
    }
    return AK_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

static double ms_since(double t0)
{
    return (ak_now() - t0) * 1e3;
}

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
    j->times.read = ms_since(t0);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static int open_context(poly_job *j, ak_err *e)
{
    double t0 = ak_now();
    sk_status st = sk_context_create(&j->ctx, j->args->device);
    if (st != SK_OK) {
        const char *env = getenv("SCANKIT_DEVICE");
        char what[256];
        j->ctx = NULL;
        if (j->args->device && j->args->device[0])
            snprintf(what, sizeof what, "--device '%s'", j->args->device);
        else if (env && env[0])
            snprintf(what, sizeof what, "SCANKIT_DEVICE='%s'", env);
        else
            snprintf(what, sizeof what, "cannot open an OpenCL device");
        return ak_fail_sk(e, NULL, st, what);
    }
    j->times.context = ms_since(t0);
    return 0;
}

static int fail_cl(ak_err *e, const char *what, cl_int code)
{
    return ak_fail(e, "%s failed: %s", what, sk_cl_error_name(code));
}

/* A device buffer holding `a` (at least 1 byte). */
static int upload_array(poly_job *j, const ak_array *a, cl_mem *out, ak_err *e)
{
    size_t bytes = a->n * ak_dtype_size(a->type);
    cl_int err = CL_SUCCESS;
    *out = clCreateBuffer(sk_context_cl_context(j->ctx), CL_MEM_READ_WRITE, bytes ? bytes : 1,
                          NULL, &err);
    if (!*out) return fail_cl(e, "allocating a device buffer", err);
    if (bytes == 0) return 0;
    double t0 = ak_now();
    err = clEnqueueWriteBuffer(sk_context_cl_queue(j->ctx), *out, CL_TRUE, 0, bytes, a->data, 0,
                               NULL, NULL);
    j->times.upload += ms_since(t0);
    return err == CL_SUCCESS ? 0 : fail_cl(e, "copying the input to the device", err);
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
    double t0 = ak_now();
    cl_int err = clEnqueueReadBuffer(sk_context_cl_queue(j->ctx), j->pmem, CL_TRUE, 0, bytes,
                                     j->points.data, 0, NULL, NULL);
    j->times.download = ms_since(t0);
    return err == CL_SUCCESS ? 0 : fail_cl(e, "copying the values from the device", err);
}

/* Kernel builds during the computation, and the computation without them. */
static void record_build_stats(poly_job *j, const sk_build_stats *before)
{
    sk_build_stats after;
    if (sk_context_build_stats(j->ctx, &after) != SK_OK) return;
    j->times.build.compiled = after.compiled - before->compiled;
    j->times.build.from_disk = after.from_disk - before->from_disk;
    j->times.build.from_memory = after.from_memory - before->from_memory;
    j->times.build.seconds = after.seconds - before->seconds;
    double rest = j->times.compute - j->times.build.seconds * 1e3;
    j->times.compute = rest > 0 ? rest : 0;
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
    j->times.compute = ms_since(t0);
    if (st != SK_OK) return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    record_build_stats(j, &before);
    return np > 1 ? download_values(j, e) : 0;
}

static int release_buffers(poly_job *j, ak_err *e)
{
    cl_mem *mems[] = {&j->cmem, &j->pmem};
    cl_int failed = CL_SUCCESS;
    for (size_t i = 0; i < 2; i++) {
        cl_int rc = *mems[i] ? clReleaseMemObject(*mems[i]) : CL_SUCCESS;
        if (rc != CL_SUCCESS) failed = rc;
        *mems[i] = NULL;
    }
    return failed == CL_SUCCESS ? 0 : fail_cl(e, "releasing the device buffers", failed);
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
        ak_format f = j->points.format;
        if (j->out_path && ak_format_of_path(j->out_path) == AK_FORMAT_NPY) f = AK_FORMAT_NPY;
        size_t bytes = j->points.n * ak_dtype_size(j->points.type);
        rc = ak_output_write_header(&j->out, f, j->points.type, j->points.n, e);
        if (rc == 0) rc = ak_output_write(&j->out, j->points.data, bytes, NULL, e);
        if (rc == 0) rc = ak_output_commit(&j->out, e);
    }
    j->times.write = ms_since(t0);
    return rc;
}

static void print_times(const poly_job *j)
{
    const poly_times *t = &j->times;
    fprintf(stderr, "read:     %10.3f ms  (%zu coefficients, %zu points, %s)\n", t->read,
            j->coeffs.n, j->points.n, ak_dtype_name(j->coeffs.type));
    fprintf(stderr, "context:  %10.3f ms\n", t->context);
    fprintf(stderr, "upload:   %10.3f ms\n", t->upload);
    fprintf(stderr, "build:    %10.3f ms  (compiled %lu, disk %lu, memory %lu)\n",
            t->build.seconds * 1e3, t->build.compiled, t->build.from_disk,
            t->build.from_memory);
    fprintf(stderr, "compute:  %10.3f ms\n", t->compute);
    fprintf(stderr, "download: %10.3f ms\n", t->download);
    fprintf(stderr, "write:    %10.3f ms\n", t->write);
    fprintf(stderr, "total:    %10.3f ms\n", ms_since(t->start));
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
    if (rc != 0) {
        ak_print_error(TOOL, e.msg);
        return AK_EXIT_FAIL;
    }
    return AK_EXIT_OK;
}

int main(int argc, char **argv)
{
    double start = ak_now();
    poly_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc == AK_EXIT_OK && a.help) {
        printf("usage: %s\n\n%s", USAGE, HELP);
        rc = fflush(stdout) == 0 ? AK_EXIT_OK : AK_EXIT_FAIL;
    } else if (rc == AK_EXIT_OK && a.version) {
        printf("%s (scankit) %s\n", TOOL, sk_version_string());
        rc = fflush(stdout) == 0 ? AK_EXIT_OK : AK_EXIT_FAIL;
    } else if (rc == AK_EXIT_OK && a.list_devices) {
        rc = list_devices();
    } else if (rc == AK_EXIT_OK && !ak_host_is_little_endian()) {
        ak_print_error(TOOL, "this program runs on little-endian hosts only");
        rc = AK_EXIT_FAIL;
    } else if (rc == AK_EXIT_OK) {
        rc = run(&a, start);
    }
    free(a.xs);
    return rc;
}
