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
#include "compact_args.h"

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = COMPACT_TOOL;

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
        if (st == SK_E_BUILD) {
            /* a long expression is cut so that the compiler's reason fits */
            size_t len = strlen(j->args->expr);
            return ak_fail(e, "the expression '%.*s%s' does not compile for %s: %s",
                           len > 60 ? 48 : (int)len, j->args->expr, len > 60 ? "..." : "",
                           ak_dtype_name(j->data.type), sk_context_error_detail(j->ctx));
        }
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
    /* Both written out before either is renamed into place. */
    if (ak_output_flush(&j->out, e) != 0) return -1;
    if (j->args->values && ak_output_flush(&j->vout, e) != 0) return -1;
    if (ak_output_commit(&j->out, e) != 0) return -1;
    if (j->args->values && ak_output_commit(&j->vout, e) != 0) return -1;
    j->times.write = ak_ms_since(t0);
    return 0;
}

static int resolve_paths(compact_job *j, ak_err *e)
{
    const compact_args *a = j->args;
    const char *flags = a->mode == MODE_FLAGS ? a->flags : NULL;
    const char *const others[] = {flags, a->values};
    ak_output_choice choice = {a->input, a->output, TOOL, a->in_place, 1, others, 2};
    if (ak_output_resolve(&choice, &j->out_path, e) != 0) return -1;
    if (!a->values) return 0;
    const char *const vothers[] = {a->input, flags};
    ak_output_choice vchoice = {a->values, a->values_out, TOOL, 0, 0, vothers, 2};
    if (ak_output_resolve(&vchoice, &j->values_path, e) != 0) return -1;
    if (!j->out_path && !j->values_path)
        return ak_fail(e, "the output and the values output cannot both be stdout");
    if (ak_output_paths_collide(j->out_path, j->values_path))
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
    int rc = compact_parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK) return rc;
    if (a.help) return compact_print_help();
    if (a.version) return ak_print_version(TOOL);
    if (a.list_devices) return ak_list_devices(TOOL);
    if (ak_require_little_endian(TOOL) != AK_EXIT_OK) return AK_EXIT_FAIL;
    return run(&a, start);
}
