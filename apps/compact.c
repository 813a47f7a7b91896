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
    AK_HELP_DEVICE
    AK_HELP_TIME_HELP_VERSION
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

static int take_option(void *args, int id, const char *value, ak_err *e)
{
    compact_args *a = args;
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

static int check_args(const void *args, ak_err *e)
{
    const compact_args *a = args;
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

static const ak_cli CLI = {TOOL, USAGE, OPTIONS, "INPUT"};

/* @return AK_EXIT_OK, or AK_EXIT_USAGE after printing the reason. */
static int parse_args(int argc, char **argv, compact_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = a->values_type = AK_DTYPE_NONE;
    a->format = AK_FORMAT_AUTO;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

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
    j->times.read = ak_ms_since(t0);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static int open_context(compact_job *j, ak_err *e)
{
    return ak_context_open(&j->ctx, j->args->device, 1, &j->times.context, e);
}

/* A device buffer of `bytes` (at least 1), filled from `host` when given. */
static int new_buffer(compact_job *j, size_t bytes, const void *host, cl_mem *out, ak_err *e)
{
    if (ak_cl_check_fits(j->ctx, bytes, ak_display_name(j->args->input, 0), e) != 0) return -1;
    return ak_cl_new_buffer(j->ctx, bytes, host, &j->times.upload, out, e);
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

static int compute(compact_job *j, ak_err *e)
{
    sk_build_stats before;
    sk_context_build_stats(j->ctx, &before);
    double t0 = ak_now();
    sk_status st = run_primitive(j);
    if (st == SK_OK) st = sk_context_finish(j->ctx);
    j->times.compute = ak_ms_since(t0);
    if (st != SK_OK) {
        if (st == SK_E_BUILD)
            return ak_fail(e, "the expression '%s' does not compile for %s: %s", j->args->expr,
                           ak_dtype_name(j->data.type), sk_context_error_detail(j->ctx));
        return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    }
    ak_build_stats_since(j->ctx, &before, &j->times.build, &j->times.compute);
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
    return ak_cl_download(j->ctx, buf, 0, host, bytes, &j->times.download,
                          "copying the result from the device", e);
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
    return ak_cl_release(mems, sizeof mems / sizeof mems[0], e);
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

static int write_array(compact_job *j, ak_output *o, const char *path, const ak_array *a,
                       ak_err *e)
{
    ak_format f = ak_output_format(j->args->format, path, a->format);
    return ak_output_write_elements(o, f, a->type, a->data, output_count(j), TOOL, e);
}

static int write_outputs(compact_job *j, ak_err *e)
{
    double t0 = ak_now();
    if (write_array(j, &j->out, j->out_path, &j->data, e) != 0) return -1;
    if (j->args->values && write_array(j, &j->vout, j->values_path, &j->values, e) != 0)
        return -1;
    if (ak_output_commit(&j->out, e) != 0) return -1;
    if (j->args->values && ak_output_commit(&j->vout, e) != 0) return -1;
    j->times.write = ak_ms_since(t0);
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
    ak_print_device_times(t->context, t->upload, &t->build);
    ak_print_time("compute:", t->compute);
    ak_print_time("download:", t->download);
    ak_print_time("write:", t->write);
    ak_print_time("total:", ak_ms_since(t->start));
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
    return ak_exit_status(TOOL, rc, &e);
}

int main(int argc, char **argv)
{
    double start = ak_now();
    compact_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK) return rc;
    if (a.help) return ak_print_help(USAGE, HELP);
    if (a.version) return ak_print_version(TOOL);
    if (a.list_devices) return ak_list_devices(TOOL);
    if (ak_require_little_endian(TOOL) != AK_EXIT_OK) return AK_EXIT_FAIL;
    return run(&a, start);
}
