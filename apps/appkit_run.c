/*
 * appkit_run.c - the run every scankit program shares: main's dispatch,
 * the phases of a run in their order, outputs, device buffers, the
 * primitive's timing and --time (see appkit_run.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *tool_of(const ak_run *r)
{
    return r->program->cli->tool;
}

const char *ak_run_input_name(const ak_run *r)
{
    return ak_display_name(r->input, 0);
}

/* ------------------------------------------------------------------------ */
/* Outputs                                                                   */
/* ------------------------------------------------------------------------ */

void ak_run_add_output_as(ak_run *r, const ak_output_choice *choice, const ak_array *array,
                          ak_format format)
{
    if (r->n_outputs == AK_RUN_MAX_OUTPUTS)
        return;
    ak_run_output *o = &r->outputs[r->n_outputs++];
    const char *files[AK_RUN_MAX_INPUTS];
    size_t count = ak_cli_input_files(r->program->cli, r->args, files, AK_RUN_MAX_INPUTS);
    size_t others = 0;
    for (size_t i = 0; i < count; i++)
        if (files[i] != choice->input)
            o->others[others++] = files[i];
    o->choice = *choice;
    o->choice.other_inputs = o->others;
    o->choice.n_other_inputs = others;
    o->array = array;
    o->format = format;
}

void ak_run_add_output(ak_run *r, const char *tag, const ak_array *array, ak_format format)
{
    const ak_cli *cli = r->program->cli;
    ak_output_choice choice = {r->input, ak_cli_text(cli, r->args, "output"), tag,
                               ak_cli_flag(cli, r->args, "in-place"),
                               ak_cli_has(cli, "in-place"), NULL, 0};
    ak_run_add_output_as(r, &choice, array, format);
}

void ak_run_set_count(ak_run *r, size_t index, size_t count)
{
    if (index >= r->n_outputs)
        return;
    r->outputs[index].count = count;
    r->outputs[index].count_set = 1;
}

static int resolve_outputs(ak_run *r, ak_err *e)
{
    for (size_t i = 0; i < r->n_outputs; i++)
        if (ak_output_resolve(&r->outputs[i].choice, &r->outputs[i].path, e) != 0)
            return -1;
    if (r->n_outputs < 2)
        return 0;
    const char *first = r->outputs[0].path, *second = r->outputs[1].path;
    if (!first && !second)
        return ak_fail(e, "the two outputs cannot both be stdout");
    if (ak_output_paths_collide(first, second))
        return ak_fail(e, "both outputs would be written to %s", first);
    return 0;
}

static int open_outputs(ak_run *r, ak_err *e)
{
    for (size_t i = 0; i < r->n_outputs; i++) {
        if (ak_output_open(&r->outputs[i].out, r->outputs[i].path, tool_of(r), e) != 0)
            return -1;
        r->outputs[i].out.progress = r->progress;
        r->outputs[i].out.sync = ak_cli_flag(r->program->cli, r->args, "sync");
    }
    return 0;
}

int ak_run_write_arrays(ak_run *r, ak_err *e)
{
    for (size_t i = 0; i < r->n_outputs; i++) {
        ak_run_output *o = &r->outputs[i];
        size_t n = o->count_set ? o->count : o->array->n;
        ak_format f = ak_output_format(o->format, o->path, o->array->format);
        if (ak_output_write_elements(&o->out, f, o->array->type, o->array->data, n, tool_of(r),
                                     e) != 0)
            return -1;
    }
    return 0;
}

/* With two outputs, both are complete (on the disk, with --sync) before
 * either is put into place. */
static int commit_outputs(ak_run *r, ak_err *e)
{
    for (size_t i = 0; r->n_outputs > 1 && i < r->n_outputs; i++)
        if (ak_output_flush(&r->outputs[i].out, e) != 0)
            return -1;
    for (size_t i = 0; i < r->n_outputs; i++)
        if (ak_output_commit(&r->outputs[i].out, e) != 0)
            return -1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Inputs and the device                                                     */
/* ------------------------------------------------------------------------ */

int ak_run_keep(ak_run *r, ak_array *array, ak_err *e)
{
    if (r->n_arrays == AK_RUN_MAX_ARRAYS)
        return ak_fail(e, "too many arrays");
    r->arrays[r->n_arrays++] = array;
    return 0;
}

int ak_run_read(ak_run *r, const char *path, ak_dtype type, ak_dtype raw_type, ak_array *out,
                ak_err *e)
{
    ak_read_opts ro = {type, raw_type, tool_of(r), r->progress};
    if (ak_run_keep(r, out, e) != 0)
        return -1;
    return ak_array_read(path, &ro, out, e);
}

int ak_run_read_flags(ak_run *r, const char *path, size_t count, ak_array *out, ak_err *e)
{
    const char *name = ak_display_name(path, 0);
    if (ak_run_read(r, path, AK_DTYPE_NONE, AK_UINT8, out, e) != 0)
        return -1;
    ak_dtype t = out->type;
    if (t != AK_UINT8 && t != AK_UINT32 && t != AK_INT32)
        return ak_fail(e, "%s: flags must be uint8 or uint32 (or int32), not %s", name,
                       ak_dtype_name(t));
    return ak_check_count(name, out->n, "flags", count, "elements", e);
}

int ak_run_read_values(ak_run *r, const char *path, ak_dtype type, size_t count,
                       const char *of, ak_array *out, ak_err *e)
{
    const char *name = ak_display_name(path, 0);
    if (ak_run_read(r, path, type, AK_UINT32, out, e) != 0)
        return -1;
    if (ak_check_value_type(name, out->type, e) != 0)
        return -1;
    return ak_check_count(name, out->n, "values", count, of, e);
}

uint64_t ak_offset_at(const ak_array *a, size_t k)
{
    if (a->type == AK_UINT32) return ((const uint32_t *)a->data)[k];
    return ((const uint64_t *)a->data)[k];
}

/* The library checks offsets too; this check names the first bad one. */
static int check_offsets(const char *name, const ak_array *o, size_t n, ak_err *e)
{
    size_t count = o->n;
    if (count == 0 && n > 0) return ak_fail(e, "%s: no offsets for %zu elements", name, n);
    if (count && ak_offset_at(o, 0) != 0)
        return ak_fail(e, "%s: offsets[0] is %llu, not 0", name,
                       (unsigned long long)ak_offset_at(o, 0));
    for (size_t k = 1; k < count; k++) {
        uint64_t prev = ak_offset_at(o, k - 1), cur = ak_offset_at(o, k);
        if (cur < prev)
            return ak_fail(e, "%s: offsets are not sorted: offsets[%zu] = %llu is below "
                           "offsets[%zu] = %llu", name, k, (unsigned long long)cur, k - 1,
                           (unsigned long long)prev);
    }
    if (count && ak_offset_at(o, count - 1) > n)
        return ak_fail(e, "%s: offsets[%zu] = %llu is above the %zu elements", name, count - 1,
                       (unsigned long long)ak_offset_at(o, count - 1), n);
    return 0;
}

int ak_run_read_offsets(ak_run *r, const char *path, ak_dtype raw_type, size_t n,
                        ak_array *out, ak_err *e)
{
    const char *name = ak_display_name(path, 0);
    ak_dtype raw = raw_type != AK_DTYPE_NONE ? raw_type : AK_UINT32;
    if (ak_run_read(r, path, AK_DTYPE_NONE, raw, out, e) != 0)
        return -1;
    if (out->type != AK_UINT32 && out->type != AK_UINT64)
        return ak_fail(e, "%s: offsets must be uint32 or uint64, not %s", name,
                       ak_dtype_name(out->type));
    return check_offsets(name, out, n, e);
}

static int open_context(ak_run *r, ak_err *e)
{
    const char *device = ak_cli_text(r->program->cli, r->args, "device");
    return ak_context_open(&r->ctx, device, 1, &r->times.context, e);
}

int ak_run_buffer(ak_run *r, size_t bytes, const void *host, cl_mem *out, ak_err *e)
{
    *out = NULL;
    if (r->n_buffers == AK_RUN_MAX_BUFFERS)
        return ak_fail(e, "too many device buffers");
    if (ak_cl_check_fits(r->ctx, bytes, ak_run_input_name(r), e) != 0 ||
        ak_cl_new_buffer(r->ctx, bytes, out, e) != 0)
        return -1;
    r->buffers[r->n_buffers++] = *out;
    if (!host || bytes == 0)
        return 0;
    return ak_run_upload(r, *out, 0, host, bytes, e);
}

int ak_run_upload(ak_run *r, cl_mem buf, size_t offset, const void *host, size_t bytes,
                  ak_err *e)
{
    return ak_cl_upload(r->ctx, buf, offset, host, bytes, &r->times.upload, e);
}

int ak_run_download(ak_run *r, cl_mem buf, size_t offset, void *host, size_t bytes, ak_err *e)
{
    if (bytes == 0)
        return 0;
    return ak_cl_download(r->ctx, buf, offset, host, bytes, &r->times.download,
                          "copying the result from the device", e);
}

int ak_run_call(ak_run *r, ak_call_fn fn, void *user, ak_err *e)
{
    sk_build_stats before = SK_BUILD_STATS_INIT;
    sk_context_build_stats(r->ctx, &before);
    double t0 = ak_now();
    sk_status st = fn(r, user);
    if (st == SK_OK)
        st = sk_context_finish(r->ctx);
    double ms = ak_ms_since(t0);
    r->status = st;
    if (st != SK_OK)
        return ak_fail_sk(e, r->ctx, st, ak_run_input_name(r));
    ak_build_stats_add_since(r->ctx, &before, ms, &r->times.build, &r->times.compute);
    return 0;
}

/* ak_run_primitive()'s function, called through ak_run_call(). */
typedef struct primitive_call {
    ak_primitive_fn fn;
} primitive_call;

static sk_status call_primitive(ak_run *r, void *user)
{
    return ((const primitive_call *)user)->fn(r);
}

int ak_run_primitive(ak_run *r, ak_primitive_fn fn, ak_err *e)
{
    primitive_call c = {fn};
    return ak_run_call(r, call_primitive, &c, e);
}

static int release_buffers(ak_run *r, ak_err *e)
{
    int rc = ak_cl_release(r->buffers, r->n_buffers, e);
    r->n_buffers = 0;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The phases                                                                */
/* ------------------------------------------------------------------------ */

static int read_inputs(ak_run *r, ak_err *e)
{
    double t0 = ak_now();
    if (r->program->read(r, e) != 0)
        return -1;
    r->times.read += ak_ms_since(t0);
    return 0;
}

static int write_outputs(ak_run *r, ak_err *e)
{
    double t0 = ak_now();
    int rc = r->program->write ? r->program->write(r, e) : ak_run_write_arrays(r, e);
    if (rc == 0)
        rc = commit_outputs(r, e);
    r->times.write += ak_ms_since(t0);
    return rc;
}

/* The inputs are read on a thread of their own while this one opens the
 * OpenCL context: on a GPU machine creating it takes about as long as
 * reading a file of a GiB. (Not the other way round: the driver's compiler
 * may give the thread that opens the context an alternate signal stack of
 * its own, which a thread that then exits must not have.) The reader
 * touches only r->job, r->arrays and r->times.read until it is joined, and
 * takes no signal (this thread handles them all). */
typedef struct input_reader {
    ak_run *r;
    pthread_t thread;
    int started, rc;
    ak_err e;
} input_reader;

static void *reader_thread(void *arg)
{
    input_reader *in = arg;
    in->rc = read_inputs(in->r, &in->e);
    return NULL;
}

static void reader_start(input_reader *in, ak_run *r)
{
    in->r = r;
    in->rc = 0;
    in->started = ak_thread_start(&in->thread, reader_thread, in) == 0;
    if (!in->started)
        in->rc = read_inputs(r, &in->e); /* no thread: in line */
}

/* Waits for the inputs; the read's failure stands before the context's
 * (`rc`), as when one followed the other. */
static int reader_join(input_reader *in, int rc, ak_err *e)
{
    if (in->started)
        pthread_join(in->thread, NULL);
    if (in->rc != 0) {
        *e = in->e;
        return -1;
    }
    return rc;
}

/* read, and the context for a program with --device: at once. */
static int read_and_open_context(ak_run *r, ak_err *e)
{
    if (!ak_cli_has(r->program->cli, "device"))
        return read_inputs(r, e);
    ak_output_signals_install(); /* before the runtime's own (see there) */
    input_reader in;
    reader_start(&in, r);
    ak_err context_e;
    int rc = open_context(r, &context_e);
    if (rc != 0) *e = context_e;
    return reader_join(&in, rc, e);
}

static int run_phases(ak_run *r, ak_err *e)
{
    const ak_program *p = r->program;
    p->plan(r);
    if (resolve_outputs(r, e) != 0 || read_and_open_context(r, e) != 0 ||
        open_outputs(r, e) != 0)
        return -1;
    if ((p->compute && p->compute(r, e) != 0) || release_buffers(r, e) != 0 ||
        write_outputs(r, e) != 0)
        return -1;
    if (p->report)
        p->report(r);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* --time                                                                    */
/* ------------------------------------------------------------------------ */

void ak_run_note_rate(const ak_run *r, ak_time_notes *n, size_t count, const char *what)
{
    if (r->times.compute > 0)
        snprintf(n->compute, sizeof n->compute, "%.3g %s/s",
                 (double)count / (r->times.compute * 1e-3), what);
}

/* A line of --time with the program's note in parentheses, if any. */
static void print_time_noted(const char *label, double ms, const char *note)
{
    if (note[0])
        fprintf(stderr, "%-10s%10.3f ms  (%s)\n", label, ms, note);
    else
        ak_print_time(label, ms);
}

static void print_times(const ak_run *r)
{
    const ak_times *t = &r->times;
    ak_time_notes notes;
    memset(&notes, 0, sizeof notes);
    if (r->program->notes)
        r->program->notes(r, &notes);
    print_time_noted("read:", t->read, notes.read);
    ak_print_device_times(t->context, t->upload, &t->build);
    print_time_noted("compute:", t->compute, notes.compute);
    ak_print_time("download:", t->download);
    if (ak_cli_flag(r->program->cli, r->args, "check"))
        ak_print_time("check:", t->check);
    print_time_noted("write:", t->write, notes.write);
    ak_print_time("total:", ak_ms_since(t->start));
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

/* Leaves nothing behind: temporary files, buffers, the context; then
 * --time after a success, and the program's state. */
static void finish(ak_run *r, int succeeded)
{
    if (r->program->release)
        r->program->release(r);
    for (size_t i = 0; i < r->n_outputs; i++)
        ak_output_abort(&r->outputs[i].out); /* no-op after a commit */
    ak_cl_release(r->buffers, r->n_buffers, NULL); /* after a failure: the first reason stands */
    sk_context_free(r->ctx);
    r->ctx = NULL;
    if (succeeded && ak_cli_flag(r->program->cli, r->args, "time"))
        print_times(r);
    for (size_t i = 0; i < r->n_arrays; i++)
        ak_array_free(r->arrays[i]);
    for (size_t i = 0; i < r->n_outputs; i++)
        free(r->outputs[i].path);
}

static int run(const ak_program *p, const void *args, double start)
{
    ak_run r;
    ak_err e;
    memset(&r, 0, sizeof r);
    r.program = p;
    r.args = args;
    r.input = ak_cli_text(p->cli, args, NULL);
    r.times.start = start;
    r.progress = ak_cli_flag(p->cli, args, "progress") ? AK_PROGRESS_ON : AK_PROGRESS_AUTO;
    r.job = calloc(1, p->job_size ? p->job_size : 1);
    int rc = r.job ? run_phases(&r, &e) : ak_fail(&e, "out of memory");
    finish(&r, rc == 0);
    free(r.job);
    return ak_exit_status(p->cli->tool, rc, &e);
}

/* --help, --version, --list-devices, or the run. */
static int answer(const ak_program *p, const void *args, double start)
{
    const ak_cli *cli = p->cli;
    if (ak_cli_flag(cli, args, "help"))
        return ak_print_cli_help(cli);
    if (ak_cli_flag(cli, args, "version"))
        return ak_print_version(cli->tool);
    if (ak_cli_flag(cli, args, "list-devices"))
        return ak_list_devices(cli->tool);
    if (ak_require_little_endian(cli->tool) != AK_EXIT_OK)
        return AK_EXIT_FAIL;
    return run(p, args, start);
}

int ak_main(const ak_program *p, int argc, char **argv)
{
    double start = ak_now();
    void *args = calloc(1, p->cli->args_size);
    if (!args) {
        ak_print_error(p->cli->tool, "out of memory");
        return AK_EXIT_FAIL;
    }
    int rc = ak_parse_command_line(p->cli, argc, argv, args);
    if (rc == AK_EXIT_OK)
        rc = answer(p, args, start);
    if (p->cli->free_args)
        p->cli->free_args(args);
    free(args);
    return rc;
}
