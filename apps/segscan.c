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

#include "appkit_run.h"
#include "segscan_args.h"

#include <stdlib.h>

typedef struct seg_job {
    ak_array data, seg;  /* seg: the flags or the offsets */
    size_t out_count;    /* elements written: n, or the number of segments */
    cl_mem src, segmem, dst;
} seg_job;

/* The scan, or with --reduce the totals. */
static void plan(ak_run *r)
{
    seg_job *j = r->job;
    const char *tag = ((const seg_args *)r->args)->reduce ? "segreduce" : SEGSCAN_TOOL;
    ak_run_add_output(r, tag, &j->data, AK_FORMAT_AUTO);
}

/* ------------------------------------------------------------------------ */
/* Reading and checking                                                      */
/* ------------------------------------------------------------------------ */

static uint64_t offset_at(const ak_array *a, size_t k)
{
    if (a->type == AK_UINT32) return ((const uint32_t *)a->data)[k];
    return ((const uint64_t *)a->data)[k];
}

/* The library checks offsets too; this check names the first bad one. */
static int check_offsets(const ak_run *r, ak_err *e)
{
    const char *name = ak_display_name(((const seg_args *)r->args)->offsets, 0);
    const seg_job *j = r->job;
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

static int read_offsets(ak_run *r, ak_err *e)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
    ak_dtype raw = a->offsets_type != AK_DTYPE_NONE ? a->offsets_type : AK_UINT32;
    if (ak_run_read(r, a->offsets, AK_DTYPE_NONE, raw, &j->seg, e) != 0)
        return -1;
    if (j->seg.type != AK_UINT32 && j->seg.type != AK_UINT64)
        return ak_fail(e, "%s: offsets must be uint32 or uint64, not %s",
                       ak_display_name(a->offsets, 0), ak_dtype_name(j->seg.type));
    return check_offsets(r, e);
}

static int read_inputs(ak_run *r, ak_err *e)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->data, e) != 0 ||
        ak_check_scan_type(ak_run_input_name(r), j->data.type, a->op, e) != 0)
        return -1;
    if (a->flags)
        return ak_run_read_flags(r, a->flags, j->data.n, &j->seg, e);
    return read_offsets(r, e);
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

/* Totals need one element per segment: n at most for flags. */
static size_t dst_elements(const ak_run *r)
{
    const seg_args *a = r->args;
    const seg_job *j = r->job;
    return a->reduce && a->offsets ? j->seg.n : j->data.n;
}

static int upload_all(ak_run *r, ak_err *e)
{
    seg_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type);
    if (ak_run_buffer(r, j->data.n * es, j->data.data, &j->src, e) != 0 ||
        ak_run_buffer(r, j->seg.n * ak_dtype_size(j->seg.type), j->seg.data, &j->segmem, e) != 0)
        return -1;
    if (!((const seg_args *)r->args)->reduce)
        return 0;
    return ak_run_buffer(r, dst_elements(r) * es, NULL, &j->dst, e);
}

static sk_status run_primitive(ak_run *r)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
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
    if (a->reduce) return sk_segreduce(r->ctx, t, a->op, j->src, &seg, j->dst, &j->out_count, n);
    if (a->exclusive) return sk_segscan_exclusive(r->ctx, t, a->op, j->src, &seg, j->src, n);
    return sk_segscan_inclusive(r->ctx, t, a->op, j->src, &seg, j->src, n);
}

/* The result goes back over the input array (totals are never more). */
static int compute(ak_run *r, ak_err *e)
{
    int reduce = ((const seg_args *)r->args)->reduce;
    seg_job *j = r->job;
    if (upload_all(r, e) != 0 || ak_run_primitive(r, run_primitive, e) != 0)
        return -1;
    ak_run_set_count(r, 0, j->out_count);
    size_t bytes = j->out_count * ak_dtype_size(j->data.type);
    if (j->out_count > j->data.n) {
        void *grown = realloc(j->data.data, bytes);
        if (!grown) return ak_fail(e, "out of memory for %zu totals", j->out_count);
        j->data.data = grown;
    }
    return ak_run_download(r, reduce ? j->dst : j->src, 0, j->data.data, bytes, e);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const seg_job *j = r->job;
    int flags = ((const seg_args *)r->args)->flags != NULL;
    snprintf(n->read, sizeof n->read, "%zu elements of %s, %zu %s", j->data.n,
             ak_dtype_name(j->data.type), j->seg.n, flags ? "flags" : "offsets");
    snprintf(n->write, sizeof n->write, "%zu elements", j->out_count);
}

static const ak_program SEGSCAN = {.cli = &segscan_cli, .job_size = sizeof(seg_job),
                                   .plan = plan, .read = read_inputs, .compute = compute,
                                   .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&SEGSCAN, argc, argv);
}
