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

#include "appkit.h"

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = "compact";
static const char USAGE[] =
    "compact INPUT [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
    "               (--if EXPR | --flags FILE | --partition EXPR | --unique)\n"
    "               [--values FILE --values-type T [--values-out FILE]]\n"
    "               [--in-place] [--format raw|npy] [--device SPEC] [--list-devices]\n"
    "               [--time] [--help] [--version]";

static const char HELP[] =
    "Keeps the elements of a file that satisfy a condition, in order, on an OpenCL\n"
    "device. Exactly one mode:\n"
    "\n"
    "      --if EXPR       keep the elements x for which the OpenCL C expression\n"
    "                      EXPR holds, e.g. 'x % 3 == 0', 'isnan(x)', 'x > 0.5f'\n"
    "      --flags FILE    keep element i where FILE's flag i is not 0; FILE holds\n"
    "                      one flag per element: raw uint8, or .npy of uint8 or\n"
    "                      uint32\n"
    "      --partition EXPR\n"
    "                      write every element: those for which EXPR holds first,\n"
    "                      then the others, both in input order\n"
    "      --unique        drop each element equal to its predecessor (floats\n"
    "                      compare with ==: -0.0 equals 0.0, NaN equals nothing)\n"
    "\n"
    "  INPUT               raw little-endian elements, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin\n"
    "  -o, --output FILE   where to write; '-' is stdout. Default: INPUT with\n"
    "                      '.compact' before its extension, stdout when INPUT is\n"
    "                      '-'. Written to a temporary file and renamed.\n"
    "  -t, --type TYPE     element type of a raw file (default uint32); must agree\n"
    "                      with the dtype of a .npy file\n"
    "      --values FILE   values carried along with the elements, in every mode:\n"
    "                      value i goes where element i goes (--unique keeps the\n"
    "                      value of the first element of each run); as many as\n"
    "                      INPUT has, of 4 or 8 bytes\n"
    "      --values-type T element type of a raw values file (default uint32)\n"
    "      --values-out FILE\n"
    "                      where the values go (default: FILE with '.compact'\n"
    "                      before its extension)\n"
    "      --in-place      allow the output to replace INPUT\n"
    "      --format FMT    output layout, raw or npy (default: as the input, npy\n"
    "                      when OUTPUT ends in .npy)\n"
    "  -d, --device SPEC   OpenCL device: 'P:D' indices, an index N, or part of\n"
    "                      the platform/device name (default $SCANKIT_DEVICE, else\n"
    "                      the first GPU, else the first device)\n"
    "      --list-devices  list the OpenCL devices and exit\n"
    "      --time          print a time breakdown to stderr\n"
    "  -h, --help          show this help and exit\n"
    "  -V, --version       show the version and exit\n"
    "\n"
    "Prints 'selected K of N' on stderr. The data must fit in one device buffer.\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1,
    OPT_TYPE,
    OPT_IF,
    OPT_FLAGS,
    OPT_PARTITION,
    OPT_UNIQUE,
    OPT_VALUES,
    OPT_VALUES_TYPE,
    OPT_VALUES_OUT,
    OPT_IN_PLACE,
    OPT_FORMAT,
    OPT_DEVICE,
    OPT_LIST_DEVICES,
    OPT_TIME,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"if", 0, 1, OPT_IF},
    {"flags", 0, 1, OPT_FLAGS},
    {"partition", 0, 1, OPT_PARTITION},
    {"unique", 0, 0, OPT_UNIQUE},
    {"values", 0, 1, OPT_VALUES},
    {"values-type", 0, 1, OPT_VALUES_TYPE},
    {"values-out", 0, 1, OPT_VALUES_OUT},
    {"in-place", 0, 0, OPT_IN_PLACE},
    {"format", 0, 1, OPT_FORMAT},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

typedef enum cmode { MODE_NONE, MODE_IF, MODE_FLAGS, MODE_PARTITION, MODE_UNIQUE } cmode;

typedef struct compact_args {
    const char *input, *output, *device;
    cmode mode;
    int modes_given;
    const char *expr;        /* --if / --partition */
    const char *flags;       /* --flags FILE */
    const char *values, *values_out;
    ak_dtype type, values_type;
    ak_format format;
    int in_place, time, list_devices, help, version;
} compact_args;

/* Milliseconds of each phase, for --time. */
typedef struct compact_times {
    double start;
    double read, context, upload, compute, download, write;
    sk_build_stats build;
} compact_times;

typedef struct compact_job {
    const compact_args *args;
    compact_times times;
    char *out_path, *values_path;  /* NULL: stdout */
    ak_array data, flags, values;
    size_t count;                  /* selected */
    sk_context *ctx;
    cl_mem src, flags_mem, vsrc, dst, vdst; /* NULL when unused */
    ak_output out, vout;
} compact_job;

/* ------------------------------------------------------------------------ */
/* Command line                                                              */
/* ------------------------------------------------------------------------ */

static int usage_error(const char *msg)
{
    return ak_print_usage_error(TOOL, USAGE, msg);
}

static int set_mode(compact_args *a, cmode m, const char *expr)
{
    a->mode = m;
    a->modes_given++;
    if (m == MODE_IF || m == MODE_PARTITION) a->expr = expr;
    if (m == MODE_FLAGS) a->flags = expr;
    return 0;
}

static int parse_type(const char *value, const char *what, ak_dtype *out, ak_err *e)
{
    if (ak_dtype_parse(value, out) != 0 || *out == AK_UINT8)
        return ak_fail(e, "unknown %s '%s' (use %s)", what, value, AK_SK_TYPE_NAMES);
    return 0;
}

static int take_option(compact_args *a, int id, const char *value, ak_err *e)
{
    switch (id) {
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_DEVICE: a->device = value; return 0;
    case OPT_IF: return set_mode(a, MODE_IF, value);
    case OPT_FLAGS: return set_mode(a, MODE_FLAGS, value);
    case OPT_PARTITION: return set_mode(a, MODE_PARTITION, value);
    case OPT_UNIQUE: return set_mode(a, MODE_UNIQUE, NULL);
    case OPT_VALUES: a->values = value; return 0;
    case OPT_VALUES_OUT: a->values_out = value; return 0;
    case OPT_IN_PLACE: a->in_place = 1; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_TYPE: return parse_type(value, "--type", &a->type, e);
    case OPT_VALUES_TYPE: return parse_type(value, "--values-type", &a->values_type, e);
    case OPT_FORMAT:
        if (ak_format_parse(value, &a->format) != 0)
            return ak_fail(e, "unknown --format '%s' (use raw or npy)", value);
        return 0;
    default:
        return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_values_args(const compact_args *a, ak_err *e)
{
    if (!a->values) {
        if (a->values_type != AK_DTYPE_NONE || a->values_out)
            return ak_fail(e, "--values-type and --values-out need --values");
        return 0;
    }
    if (ak_path_is_stdio(a->values) && ak_path_is_stdio(a->input))
        return ak_fail(e, "INPUT and --values cannot both be stdin");
    if (ak_path_is_stdio(a->values) && !a->values_out)
        return ak_fail(e, "--values from stdin needs --values-out");
    if (a->values_out && a->output && !ak_path_is_stdio(a->output) &&
        strcmp(a->values_out, a->output) == 0)
        return ak_fail(e, "--values-out and --output name the same file");
    if (a->values_out && a->output && ak_path_is_stdio(a->values_out) &&
        ak_path_is_stdio(a->output))
        return ak_fail(e, "--values-out and --output cannot both be stdout");
    return 0;
}

static int check_args(const compact_args *a, ak_err *e)
{
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing INPUT");
    if (a->modes_given == 0)
        return ak_fail(e, "give one of --if, --flags, --partition, --unique");
    if (a->modes_given > 1)
        return ak_fail(e, "give only one of --if, --flags, --partition, --unique");
    if ((a->mode == MODE_IF || a->mode == MODE_PARTITION) && !*a->expr)
        return ak_fail(e, "the expression is empty");
    if (a->mode == MODE_FLAGS && ak_path_is_stdio(a->flags) && ak_path_is_stdio(a->input))
        return ak_fail(e, "INPUT and --flags cannot both be stdin");
    if (a->in_place && ak_path_is_stdio(a->input))
        return ak_fail(e, "--in-place needs an input file, not stdin");
    return check_values_args(a, e);
}

/* @return AK_EXIT_OK, or AK_EXIT_USAGE after printing the reason. */
static int parse_args(int argc, char **argv, compact_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = a->values_type = AK_DTYPE_NONE;
    a->format = AK_FORMAT_AUTO;
    ak_args it;
    ak_err e;
    ak_args_init(&it, argc, argv);
    int id;
    while ((id = ak_args_next(&it, OPTIONS, &e)) != AK_ARGS_END) {
        if (id == AK_ARGS_ERROR) return usage_error(e.msg);
        if (id == AK_ARGS_OPERAND) {
            if (a->input) return usage_error("more than one INPUT given");
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

static int read_flags(compact_job *j, ak_err *e)
{
    const char *path = j->args->flags;
    ak_read_opts ro = {AK_DTYPE_NONE, AK_UINT8, TOOL};
    if (ak_array_read(path, &ro, &j->flags, e) != 0) return -1;
    ak_dtype t = j->flags.type;
    if (t != AK_UINT8 && t != AK_UINT32 && t != AK_INT32)
        return ak_fail(e, "%s: flags must be uint8 or (u)int32, not %s",
                       ak_display_name(path, 0), ak_dtype_name(t));
    if (j->flags.n != j->data.n)
        return ak_fail(e, "%s: %zu flags for %zu elements", ak_display_name(path, 0),
                       j->flags.n, j->data.n);
    return 0;
}

static int read_values(compact_job *j, ak_err *e)
{
    const char *path = j->args->values;
    ak_read_opts ro = {j->args->values_type, AK_UINT32, TOOL};
    if (ak_array_read(path, &ro, &j->values, e) != 0) return -1;
    size_t vs = ak_dtype_size(j->values.type);
    if (vs != 4 && vs != 8)
        return ak_fail(e, "%s: values must be of 4 or 8 bytes, not %s",
                       ak_display_name(path, 0), ak_dtype_name(j->values.type));
    if (j->values.n != j->data.n)
        return ak_fail(e, "%s: %zu values for %zu elements", ak_display_name(path, 0),
                       j->values.n, j->data.n);
    return 0;
}

static int read_inputs(compact_job *j, ak_err *e)
{
    ak_read_opts ro = {j->args->type, AK_UINT32, TOOL};
    double t0 = ak_now();
    if (ak_array_read(j->args->input, &ro, &j->data, e) != 0) return -1;
    sk_type t;
    if (ak_dtype_to_sk(j->data.type, &t) != 0)
        return ak_fail(e, "%s: element type %s cannot be compacted (use %s)",
                       ak_display_name(j->args->input, 0), ak_dtype_name(j->data.type),
                       AK_SK_TYPE_NAMES);
    if (j->args->mode == MODE_FLAGS && read_flags(j, e) != 0) return -1;
    if (j->args->values && read_values(j, e) != 0) return -1;
    j->times.read = ms_since(t0);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static int open_context(compact_job *j, ak_err *e)
{
    double t0 = ak_now();
    sk_status st = sk_context_create(&j->ctx, j->args->device);
    if (st != SK_OK) {
        j->ctx = NULL;
        const char *env = getenv("SCANKIT_DEVICE");
        char what[256];
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

/* A device buffer of `bytes` (at least 1), filled from `host` when given. */
static int new_buffer(compact_job *j, size_t bytes, const void *host, cl_mem *out, ak_err *e)
{
    cl_int err = CL_SUCCESS;
    sk_device_desc d;
    if (sk_context_device(j->ctx, &d) == SK_OK && bytes > d.max_alloc_bytes)
        return ak_fail(e, "%s: %zu bytes exceed the device's largest buffer (%llu bytes)",
                       ak_display_name(j->args->input, 0), bytes,
                       (unsigned long long)d.max_alloc_bytes);
    *out = clCreateBuffer(sk_context_cl_context(j->ctx), CL_MEM_READ_WRITE,
                          bytes ? bytes : 1, NULL, &err);
    if (!*out) return fail_cl(e, "allocating a device buffer", err);
    if (!host || bytes == 0) return 0;
    double t0 = ak_now();
    err = clEnqueueWriteBuffer(sk_context_cl_queue(j->ctx), *out, CL_TRUE, 0, bytes, host, 0,
                               NULL, NULL);
    j->times.upload += ms_since(t0);
    return err == CL_SUCCESS ? 0 : fail_cl(e, "copying the input to the device", err);
}

static int upload_all(compact_job *j, ak_err *e)
{
    size_t n = j->data.n, es = ak_dtype_size(j->data.type);
    if (new_buffer(j, n * es, j->data.data, &j->src, e) != 0 ||
        new_buffer(j, n * es, NULL, &j->dst, e) != 0)
        return -1;
    if (j->args->mode == MODE_FLAGS &&
        new_buffer(j, n * ak_dtype_size(j->flags.type), j->flags.data, &j->flags_mem, e) != 0)
        return -1;
    if (!j->args->values) return 0;
    size_t vs = ak_dtype_size(j->values.type);
    if (new_buffer(j, n * vs, j->values.data, &j->vsrc, e) != 0) return -1;
    return new_buffer(j, n * vs, NULL, &j->vdst, e);
}

/* The pair forms throughout: without --values, vsrc and vdst are NULL and
 * each is its keys-only primitive. */
static sk_status run_primitive(compact_job *j)
{
    const compact_args *a = j->args;
    size_t n = j->data.n, vs = a->values ? ak_dtype_size(j->values.type) : 0;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    switch (a->mode) {
    case MODE_IF:
        return sk_select_if_pairs(j->ctx, t, a->expr, j->src, j->vsrc, vs, j->dst, j->vdst, n,
                                  &j->count);
    case MODE_FLAGS:
        return sk_select_flagged_pairs(j->ctx, t, j->src, j->flags_mem,
                                       ak_dtype_size(j->flags.type), j->vsrc, vs, j->dst,
                                       j->vdst, n, &j->count);
    case MODE_PARTITION:
        return sk_partition_pairs(j->ctx, t, a->expr, j->src, j->vsrc, vs, j->dst, j->vdst, n,
                                  &j->count);
    case MODE_UNIQUE:
        return sk_unique_pairs(j->ctx, t, j->src, j->vsrc, vs, j->dst, j->vdst, n, &j->count);
    case MODE_NONE: break;
    }
    return SK_E_INVALID_ARG;
}

static void record_build_stats(compact_job *j, const sk_build_stats *before)
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

static int compute(compact_job *j, ak_err *e)
{
    sk_build_stats before;
    sk_context_build_stats(j->ctx, &before);
    double t0 = ak_now();
    sk_status st = run_primitive(j);
    if (st == SK_OK) st = sk_context_finish(j->ctx);
    j->times.compute = ms_since(t0);
    if (st != SK_OK) {
        if (st == SK_E_BUILD)
            return ak_fail(e, "the expression '%s' does not compile for %s: %s", j->args->expr,
                           ak_dtype_name(j->data.type), sk_context_error_detail(j->ctx));
        return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    }
    record_build_stats(j, &before);
    return 0;
}

/* Elements of output: the kept ones, or all of them for a partition. */
static size_t output_count(const compact_job *j)
{
    return j->args->mode == MODE_PARTITION ? j->data.n : j->count;
}

static int download(compact_job *j, cl_mem buf, void *host, size_t bytes, ak_err *e)
{
    if (bytes == 0) return 0;
    double t0 = ak_now();
    cl_int err = clEnqueueReadBuffer(sk_context_cl_queue(j->ctx), buf, CL_TRUE, 0, bytes,
                                     host, 0, NULL, NULL);
    j->times.download += ms_since(t0);
    return err == CL_SUCCESS ? 0 : fail_cl(e, "copying the result from the device", err);
}

/* Results go back over the input arrays (only their first part is used). */
static int compact_on_device(compact_job *j, ak_err *e)
{
    if (upload_all(j, e) != 0 || compute(j, e) != 0) return -1;
    size_t m = output_count(j);
    if (download(j, j->dst, j->data.data, m * ak_dtype_size(j->data.type), e) != 0) return -1;
    if (j->args->values)
        return download(j, j->vdst, j->values.data, m * ak_dtype_size(j->values.type), e);
    return 0;
}

/* Releases the device buffers (each once). @return 0, or -1 with a reason. */
static int release_buffers(compact_job *j, ak_err *e)
{
    cl_mem *mems[] = {&j->src, &j->flags_mem, &j->vsrc, &j->dst, &j->vdst};
    cl_int failed = CL_SUCCESS;
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++) {
        cl_int rc = *mems[i] ? clReleaseMemObject(*mems[i]) : CL_SUCCESS;
        if (rc != CL_SUCCESS) failed = rc;
        *mems[i] = NULL;
    }
    return failed == CL_SUCCESS ? 0 : fail_cl(e, "releasing the device buffers", failed);
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

static ak_format format_for(const compact_job *j, const char *path, ak_format input)
{
    if (j->args->format != AK_FORMAT_AUTO) return j->args->format;
    if (path && ak_format_of_path(path) == AK_FORMAT_NPY) return AK_FORMAT_NPY;
    return input;
}

static int write_array(compact_job *j, ak_output *o, const char *path, const ak_array *a,
                       ak_err *e)
{
    size_t m = output_count(j);
    size_t bytes = m * ak_dtype_size(a->type);
    ak_progress p;
    ak_progress_start(&p, TOOL, "writing", bytes);
    int rc = ak_output_write_header(o, format_for(j, path, a->format), a->type, m, e);
    if (rc == 0) rc = ak_output_write(o, a->data, bytes, &p, e);
    ak_progress_end(&p);
    return rc;
}

static int write_outputs(compact_job *j, ak_err *e)
{
    double t0 = ak_now();
    if (write_array(j, &j->out, j->out_path, &j->data, e) != 0) return -1;
    if (j->args->values && write_array(j, &j->vout, j->values_path, &j->values, e) != 0)
        return -1;
    if (ak_output_commit(&j->out, e) != 0) return -1;
    if (j->args->values && ak_output_commit(&j->vout, e) != 0) return -1;
    j->times.write = ms_since(t0);
    return 0;
}

static int resolve_paths(compact_job *j, ak_err *e)
{
    const compact_args *a = j->args;
    ak_output_choice choice = {a->input, a->output, TOOL, a->in_place};
    if (ak_output_resolve(&choice, &j->out_path, e) != 0) return -1;
    if (!a->values) return 0;
    ak_output_choice vchoice = {a->values, a->values_out, TOOL, 0};
    if (ak_output_resolve(&vchoice, &j->values_path, e) != 0) return -1;
    if (!j->out_path && !j->values_path)
        return ak_fail(e, "the output and the values output cannot both be stdout");
    if (j->out_path && j->values_path && strcmp(j->out_path, j->values_path) == 0)
        return ak_fail(e, "the output and the values output are the same file");
    return 0;
}

static int open_outputs(compact_job *j, ak_err *e)
{
    if (ak_output_open(&j->out, j->out_path, TOOL, e) != 0) return -1;
    if (j->args->values && ak_output_open(&j->vout, j->values_path, TOOL, e) != 0) return -1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void print_times(const compact_job *j)
{
    const compact_times *t = &j->times;
    fprintf(stderr, "read:     %10.3f ms  (%zu elements of %s)\n", t->read, j->data.n,
            ak_dtype_name(j->data.type));
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

static int run_steps(compact_job *j, ak_err *e)
{
    if (resolve_paths(j, e) != 0 || read_inputs(j, e) != 0 || open_outputs(j, e) != 0)
        return -1;
    if (open_context(j, e) != 0 || compact_on_device(j, e) != 0) return -1;
    if (release_buffers(j, e) != 0 || write_outputs(j, e) != 0) return -1;
    fprintf(stderr, "selected %zu of %zu\n", j->count, j->data.n);
    return 0;
}

static int run(const compact_args *a, double start)
{
    compact_job j;
    memset(&j, 0, sizeof j);
    j.args = a;
    j.times.start = start;
    ak_err e;
    int rc = run_steps(&j, &e);
    ak_output_abort(&j.out); /* no-op after a commit */
    ak_output_abort(&j.vout);
    release_buffers(&j, NULL); /* after a failure: the first reason stands */
    sk_context_free(j.ctx);
    if (rc == 0 && a->time) print_times(&j);
    ak_array_free(&j.data);
    ak_array_free(&j.flags);
    ak_array_free(&j.values);
    free(j.out_path);
    free(j.values_path);
    if (rc != 0) {
        ak_print_error(TOOL, e.msg);
        return AK_EXIT_FAIL;
    }
    return AK_EXIT_OK;
}

int main(int argc, char **argv)
{
    double start = ak_now();
    compact_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK) return rc;
    if (a.help) {
        printf("usage: %s\n\n%s", USAGE, HELP);
        return fflush(stdout) == 0 ? AK_EXIT_OK : AK_EXIT_FAIL;
    }
    if (a.version) {
        printf("%s (scankit) %s\n", TOOL, sk_version_string());
        return fflush(stdout) == 0 ? AK_EXIT_OK : AK_EXIT_FAIL;
    }
    if (a.list_devices) return list_devices();
    if (!ak_host_is_little_endian()) {
        ak_print_error(TOOL, "this program runs on little-endian hosts only");
        return AK_EXIT_FAIL;
    }
    return run(&a, start);
}
