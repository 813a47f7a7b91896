/*
 * scan - prefix scan of a file of elements on an OpenCL device.
 *
 *   scan data.bin                 inclusive sum, uint32, to data.scan.bin
 *   scan data.npy --op max -e     exclusive max, type from the .npy header
 *   datagen -n 1M -o - | scan - > out.bin
 *   scan big.bin --memory 64M     in chunks within 64 MiB of device memory
 *
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "chunks.h"
#include "scan_args.h"
#include "scan_check.h"

#include <stdlib.h>
#include <string.h>

typedef struct scan_job {
    ak_array data;
    ak_array input;       /* --check: the input as read */
    chunks chunks;        /* the device's part, chunk by chunk */
    cl_mem buf;           /* a chunk, with its carried elements */
    size_t dev_len;       /* elements of buf the call scans */
    unsigned char carry[8]; /* the total through the last chunk */
} scan_job;

static void plan(ak_run *r)
{
    scan_job *j = r->job;
    ak_run_add_output(r, SCAN_TOOL, &j->data, ((const scan_args *)r->args)->format);
}

static int read_input(ak_run *r, ak_err *e)
{
    const scan_args *a = r->args;
    scan_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->data, e) != 0)
        return -1;
    return ak_check_scan_type(ak_run_input_name(r), j->data.type, a->op, e);
}

/* ------------------------------------------------------------------------ */
/* The device, chunk by chunk                                                */
/* ------------------------------------------------------------------------ */

/* With several chunks, each but the first follows the total of the
 * elements before it (a lead element), and an exclusive scan ends in one
 * more element (a trail), where the total through the chunk lands: an
 * inclusive scan of [total, x...] continues the scan before the chunk, an
 * exclusive scan of [total, x..., trail] too, one element later. */
static size_t lead_of(const chunks *c, size_t first)
{
    return c->several && first > 0;
}

static size_t trail_of(const ak_run *r, const chunks *c)
{
    return c->several && ((const scan_args *)r->args)->exclusive;
}

static int scan_buffers(chunks *c, size_t elems, ak_err *e)
{
    scan_job *j = c->job->user;
    size_t slots = lead_of(c, 1) + trail_of(c->run, c);
    return chunks_buffer(c, (elems + slots) * ak_dtype_size(j->data.type), &j->buf, e);
}

/* Scans the first dev_len elements of buf in place. */
static sk_status scan_call(ak_run *r, void *user)
{
    const scan_args *a = r->args;
    scan_job *j = user;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    return a->exclusive ? sk_scan_exclusive(r->ctx, t, a->op, j->buf, j->buf, j->dev_len)
                        : sk_scan_inclusive(r->ctx, t, a->op, j->buf, j->buf, j->dev_len);
}

static sk_status scan_measure(chunks *c, size_t elems)
{
    scan_job *j = c->job->user;
    j->dev_len = lead_of(c, 1) + elems + trail_of(c->run, c);
    return scan_call(c->run, j);
}

/* Elements [first, first + count), after the carried total; the total
 * through them is carried on. */
static int scan_chunk(chunks *c, size_t first, size_t count, ak_err *e)
{
    ak_run *r = c->run;
    scan_job *j = c->job->user;
    size_t size = ak_dtype_size(j->data.type), lead = lead_of(c, first);
    unsigned char *host = (unsigned char *)j->data.data + first * size;
    if (lead && ak_run_upload(r, j->buf, 0, j->carry, size, e) != 0)
        return -1;
    j->dev_len = lead + count + trail_of(r, c);
    if (ak_run_upload(r, j->buf, lead * size, host, count * size, e) != 0 ||
        ak_run_call(r, scan_call, j, e) != 0 ||
        ak_run_download(r, j->buf, lead * size, host, count * size, e) != 0)
        return -1;
    if (!c->several)
        return 0;
    if (trail_of(r, c))
        return ak_run_download(r, j->buf, (lead + count) * size, j->carry, size, e);
    memcpy(j->carry, host + (count - 1) * size, size);
    return 0;
}

static const chunk_ops SCAN_CHUNKS = {scan_buffers, scan_measure, scan_chunk, NULL};

static int scan_on_device(ak_run *r, ak_err *e)
{
    const scan_args *a = r->args;
    scan_job *j = r->job;
    size_t size = ak_dtype_size(j->data.type);
    chunk_job cj = {&SCAN_CHUNKS, j, j->data.n, size, "scanning", a->memory, a->chunk};
    return chunks_run(r, &cj, ak_dtype_name(j->data.type), &j->chunks, e);
}

/* --check needs the input after the scan has replaced it. */
static int keep_input(ak_run *r, ak_err *e)
{
    scan_job *j = r->job;
    size_t bytes = j->data.n * ak_dtype_size(j->data.type);
    if (bytes == 0)
        return 0;
    j->input = j->data;
    j->input.data = malloc(bytes);
    if (!j->input.data || ak_run_keep(r, &j->input, e) != 0) {
        free(j->input.data);
        j->input.data = NULL;
        return ak_fail(e, "out of memory keeping a copy of the input for --check");
    }
    memcpy(j->input.data, j->data.data, bytes);
    return 0;
}

static int check_result(ak_run *r, ak_err *e)
{
    const scan_args *a = r->args;
    const scan_job *j = r->job;
    double t0 = ak_now();
    if (j->data.n && scan_check(j->data.type, a->op, a->exclusive, j->input.data, j->data.data,
                                j->data.n, e) != 0)
        return -1;
    r->times.check = ak_ms_since(t0);
    fprintf(stderr, "check: ok (%zu elements match a serial %s %s scan)\n", j->data.n,
            a->exclusive ? "exclusive" : "inclusive", sk_op_name(a->op));
    return 0;
}

static int compute(ak_run *r, ak_err *e)
{
    int check = ((const scan_args *)r->args)->check;
    if ((check && keep_input(r, e) != 0) || scan_on_device(r, e) != 0)
        return -1;
    return check ? check_result(r, e) : 0;
}

static void notes(const ak_run *r, ak_time_notes *n)
{
    const scan_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu elements of %s", j->data.n,
             ak_dtype_name(j->data.type));
    ak_run_note_rate(r, n, j->data.n, "elements");
    chunks_note(&j->chunks, n->compute, sizeof n->compute);
}

static const ak_program SCAN = {.cli = &scan_cli, .job_size = sizeof(scan_job), .plan = plan,
                                .read = read_input, .compute = compute, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&SCAN, argc, argv);
}
