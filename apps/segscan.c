/*
 * segscan - segmented prefix scan (or segment totals) of a file of elements
 * on an OpenCL device.
 *
 *   segscan data.bin --flags heads.bin            inclusive sums restarting at
 *                                                 every flagged element
 *   segscan data.npy --offsets starts.npy -e      exclusive, segments by offsets
 *   segscan data.bin --flags heads.bin --reduce   one total per segment
 *
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"
#include "segscan_args.h"

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = SEGSCAN_TOOL;

typedef struct seg_times {
    double start;
    double read, context, upload, compute, download, write;
    sk_build_stats build; /* during the computation */
} seg_times;

typedef struct seg_job {
    const seg_args *args;
    seg_times times;
    char *out_path;      /* NULL: stdout */
    ak_array data, seg;  /* seg: the flags or the offsets */
    size_t out_count;    /* elements written: n, or the number of segments */
    sk_context *ctx;
    cl_mem src, segmem, dst;
    ak_output out;
} seg_job;

/* ------------------------------------------------------------------------ */
/* Reading and checking                                                      */
/* ------------------------------------------------------------------------ */

static int read_flags(seg_job *j, ak_err *e)
{
    const char *path = j->args->flags, *name = ak_display_name(path, 0);
    ak_read_opts ro = {AK_DTYPE_NONE, AK_UINT8, TOOL};
    if (ak_array_read(path, &ro, &j->seg, e) != 0) return -1;
    ak_dtype t = j->seg.type;
    if (t != AK_UINT8 && t != AK_UINT32)
        return ak_fail(e, "%s: flags must be uint8 or uint32, not %s", name, ak_dtype_name(t));
    if (j->seg.n != j->data.n)
        return ak_fail(e, "%s: %zu flags for %zu elements", name, j->seg.n, j->data.n);
    return 0;
}

static uint64_t offset_at(const ak_array *a, size_t k)
{
    if (a->type == AK_UINT32) return ((const uint32_t *)a->data)[k];
    return ((const uint64_t *)a->data)[k];
}

/* The library checks offsets too; this check names the first bad one. */
static int check_offsets(const seg_job *j, ak_err *e)
{
    const char *name = ak_display_name(j->args->offsets, 0);
    size_t n = j->data.n, count = j->seg.n;
    if (count == 0 && n > 0) return ak_fail(e, "%s: no offsets for %zu elements", name, n);
    if (count && offset_at(&j->seg, 0) != 0)
        return ak_fail(e, "%s: offsets[0] is %llu, not 0", name,
                       (unsigned long long)offset_at(&j->seg, 0));
    for (size_t k = 1; k < count; k++) {
        uint64_t prev = offset_at(&j->seg, k - 1), cur = offset_at(&j->seg, k);
        if (cur < prev)
            return ak_fail(e, "%s: offsets are not sorted: offsets[%zu] = %llu is below "
                           "offsets[%zu] = %llu", name, k, (unsigned long long)cur, k - 1,
                           (unsigned long long)prev);
    }
    if (count && offset_at(&j->seg, count - 1) > n)
        return ak_fail(e, "%s: offsets[%zu] = %llu is above the %zu elements", name, count - 1,
                       (unsigned long long)offset_at(&j->seg, count - 1), n);
    return 0;
}

static int read_offsets(seg_job *j, ak_err *e)
{
    const char *path = j->args->offsets;
    ak_dtype raw = j->args->offsets_type != AK_DTYPE_NONE ? j->args->offsets_type : AK_UINT32;
    ak_read_opts ro = {AK_DTYPE_NONE, raw, TOOL};
    if (ak_array_read(path, &ro, &j->seg, e) != 0) return -1;
    if (j->seg.type != AK_UINT32 && j->seg.type != AK_UINT64)
        return ak_fail(e, "%s: offsets must be uint32 or uint64, not %s",
                       ak_display_name(path, 0), ak_dtype_name(j->seg.type));
    return check_offsets(j, e);
}

static int read_inputs(seg_job *j, ak_err *e)
{
    ak_read_opts ro = {j->args->type, AK_UINT32, TOOL};
    const char *name = ak_display_name(j->args->input, 0);
    double t0 = ak_now();
    if (ak_array_read(j->args->input, &ro, &j->data, e) != 0 ||
        ak_check_scan_type(name, j->data.type, j->args->op, e) != 0)
        return -1;
    if ((j->args->flags ? read_flags(j, e) : read_offsets(j, e)) != 0) return -1;
    j->times.read = ak_ms_since(t0);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

static int open_context(seg_job *j, ak_err *e)
{
    return ak_context_open(&j->ctx, j->args->device, 1, &j->times.context, e);
}

/* A device buffer of `bytes` (at least 1), filled from `host` when given. */
static int new_buffer(seg_job *j, size_t bytes, const void *host, cl_mem *out, ak_err *e)
{
    if (ak_cl_check_fits(j->ctx, bytes, ak_display_name(j->args->input, 0), e) != 0) return -1;
    return ak_cl_new_buffer(j->ctx, bytes, host, &j->times.upload, out, e);
}

/* Totals need one element per segment: n at most for flags. */
static size_t dst_elements(const seg_job *j)
{
    return j->args->reduce && j->args->offsets ? j->seg.n : j->data.n;
}

static int upload_all(seg_job *j, ak_err *e)
{
    size_t es = ak_dtype_size(j->data.type);
    if (new_buffer(j, j->data.n * es, j->data.data, &j->src, e) != 0 ||
        new_buffer(j, j->seg.n * ak_dtype_size(j->seg.type), j->seg.data, &j->segmem, e) != 0)
        return -1;
    if (!j->args->reduce) return 0;
    return new_buffer(j, dst_elements(j) * es, NULL, &j->dst, e);
}

static sk_status run_primitive(seg_job *j)
{
    const seg_args *a = j->args;
    size_t n = j->data.n;
    sk_type t;
    sk_segments seg = {NULL, 0, NULL, SK_UINT32, 0};
    ak_dtype_to_sk(j->data.type, &t);
    if (a->flags) {
        seg.flags = j->segmem;
        seg.flag_size = ak_dtype_size(j->seg.type);
    } else {
        seg.offsets = j->segmem;
        seg.offset_type = j->seg.type == AK_UINT64 ? SK_UINT64 : SK_UINT32;
        seg.count = j->seg.n;
    }
    j->out_count = n;
    if (a->reduce) return sk_segreduce(j->ctx, t, a->op, j->src, n, &seg, j->dst, &j->out_count);
    if (a->exclusive) return sk_segscan_exclusive(j->ctx, t, a->op, j->src, j->src, n, &seg);
    return sk_segscan_inclusive(j->ctx, t, a->op, j->src, j->src, n, &seg);
}

static int compute(seg_job *j, ak_err *e)
{
    sk_build_stats before;
    sk_context_build_stats(j->ctx, &before);
    double t0 = ak_now();
    sk_status st = run_primitive(j);
    if (st == SK_OK) st = sk_context_finish(j->ctx);
    j->times.compute = ak_ms_since(t0);
    if (st != SK_OK) return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    ak_build_stats_since(j->ctx, &before, &j->times.build, &j->times.compute);
    return 0;
}

/* The result goes back over the input array (totals are never more). */
static int segscan_on_device(seg_job *j, ak_err *e)
{
    if (upload_all(j, e) != 0 || compute(j, e) != 0) return -1;
    size_t bytes = j->out_count * ak_dtype_size(j->data.type);
    if (bytes == 0) return 0;
    if (j->out_count > j->data.n) {
        void *grown = realloc(j->data.data, bytes);
        if (!grown) return ak_fail(e, "out of memory for %zu totals", j->out_count);
        j->data.data = grown;
    }
    return ak_cl_download(j->ctx, j->args->reduce ? j->dst : j->src, 0, j->data.data, bytes,
                          &j->times.download, "copying the result from the device", e);
}

/* Releases the device buffers (each once). @return 0, or -1 with a reason. */
static int release_buffers(seg_job *j, ak_err *e)
{
    cl_mem *mems[] = {&j->src, &j->segmem, &j->dst};
    return ak_cl_release(mems, 3, e);
}

/* ------------------------------------------------------------------------ */
/* Writing and main                                                          */
/* ------------------------------------------------------------------------ */

static int write_output(seg_job *j, ak_err *e)
{
    double t0 = ak_now();
    ak_format f = ak_output_format(AK_FORMAT_AUTO, j->out_path, j->data.format);
    int rc = ak_output_write_elements(&j->out, f, j->data.type, j->data.data, j->out_count,
                                      TOOL, e);
    if (rc == 0) rc = ak_output_commit(&j->out, e);
    j->times.write = ak_ms_since(t0);
    return rc;
}

static void print_times(const seg_job *j)
{
    const seg_times *t = &j->times;
    fprintf(stderr, "read:     %10.3f ms  (%zu elements of %s, %zu %s)\n", t->read, j->data.n,
            ak_dtype_name(j->data.type), j->seg.n, j->args->flags ? "flags" : "offsets");
    ak_print_device_times(t->context, t->upload, &t->build);
    ak_print_time("compute:", t->compute);
    ak_print_time("download:", t->download);
    fprintf(stderr, "write:    %10.3f ms  (%zu elements)\n", t->write, j->out_count);
    ak_print_time("total:", ak_ms_since(t->start));
}

static int run_steps(seg_job *j, ak_err *e)
{
    const char *tool = j->args->reduce ? "segreduce" : TOOL;
    const char *const segments[] = {j->args->flags, j->args->offsets};
    ak_output_choice choice = {j->args->input, j->args->output, tool, 0, 0, segments, 2};
    if (ak_output_resolve(&choice, &j->out_path, e) != 0 || read_inputs(j, e) != 0 ||
        ak_output_open(&j->out, j->out_path, TOOL, e) != 0)
        return -1;
    if (open_context(j, e) != 0 || segscan_on_device(j, e) != 0 || release_buffers(j, e) != 0)
        return -1;
    return write_output(j, e);
}

static int run(const seg_args *a, double start)
{
    seg_job j;
    ak_err e;
    memset(&j, 0, sizeof j);
    j.args = a;
    j.times.start = start;
    int rc = run_steps(&j, &e);
    ak_output_abort(&j.out); /* no-op after a commit */
    release_buffers(&j, NULL);
    sk_context_free(j.ctx);
    if (rc == 0 && a->time) print_times(&j);
    ak_array_free(&j.data);
    ak_array_free(&j.seg);
    free(j.out_path);
    return ak_exit_status(TOOL, rc, &e);
}

int main(int argc, char **argv)
{
    double start = ak_now();
    seg_args a;
    int rc = segscan_parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK) return rc;
    if (a.help) return segscan_print_help();
    if (a.version) return ak_print_version(TOOL);
    if (a.list_devices) return ak_list_devices(TOOL);
    if (ak_require_little_endian(TOOL) != AK_EXIT_OK) return AK_EXIT_FAIL;
    return run(&a, start);
}
