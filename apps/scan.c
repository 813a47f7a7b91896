/*
 * scan - prefix scan of a file of elements on an OpenCL device.
 *
 *   scan data.bin                 inclusive sum, uint32, to data.scan.bin
 *   scan data.npy --op max -e     exclusive max, type from the .npy header
 *   datagen -n 1M -o - | scan - > out.bin
 *
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "scan_args.h"
#include "scan_check.h"

#include <stdlib.h>
#include <string.h>

typedef struct scan_job {
    ak_array data;
    ak_array input;       /* --check: the input as read */
    unsigned long passes; /* device passes (more than 1 for large inputs) */
    /* the pass being scanned: its buffer, its elements, the running total */
    cl_mem buf;
    size_t pass_len;
    void *carry;
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

/* Elements per device pass: all of them when the device's largest buffer
 * holds them (and --chunk allows), else as many as it holds. */
static int pass_capacity(const ak_run *r, size_t *capacity, ak_err *e)
{
    const scan_args *a = r->args;
    const scan_job *j = r->job;
    size_t size = ak_dtype_size(j->data.type);
    size_t cap = j->data.n;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    if (sk_context_device(r->ctx, &d) == SK_OK && d.max_alloc_bytes / size < cap)
        cap = (size_t)(d.max_alloc_bytes / size);
    if (a->chunk && a->chunk < cap)
        cap = a->chunk;
    if (cap < 2 && cap < j->data.n)
        return ak_fail(e, "the device cannot hold two elements of %s in one buffer",
                       ak_dtype_name(j->data.type));
    *capacity = cap;
    return 0;
}

/* Scans the first pass_len elements of the pass buffer in place. An
 * exclusive scan that hands a running total to the next pass reduces the
 * pass first (into carry). */
static sk_status scan_kernels(ak_run *r)
{
    const scan_args *a = r->args;
    scan_job *j = r->job;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    sk_status st = SK_OK;
    if (a->exclusive && j->carry)
        st = sk_reduce(r->ctx, t, a->op, j->buf, j->carry, j->pass_len);
    if (st != SK_OK)
        return st;
    return a->exclusive ? sk_scan_exclusive(r->ctx, t, a->op, j->buf, j->buf, j->pass_len)
                        : sk_scan_inclusive(r->ctx, t, a->op, j->buf, j->buf, j->pass_len);
}

/* One pass over data[start, start+len): the buffer holds the running total
 * of the elements before `start` (when carry_in) followed by those elements,
 * so scanning it continues the scan of the previous passes. carry_out (NULL
 * on the last pass) receives the total up to start+len-1. */
static int scan_pass(ak_run *r, size_t start, size_t len, const void *carry_in,
                     void *carry_out, ak_err *e)
{
    scan_job *j = r->job;
    size_t size = ak_dtype_size(j->data.type);
    size_t lead = carry_in ? 1 : 0;
    unsigned char *host = (unsigned char *)j->data.data + start * size;
    if (carry_in && ak_run_upload(r, j->buf, 0, carry_in, size, e) != 0)
        return -1;
    j->pass_len = len + lead;
    j->carry = carry_out;
    if (ak_run_upload(r, j->buf, lead * size, host, len * size, e) != 0 ||
        ak_run_primitive(r, scan_kernels, e) != 0 ||
        ak_run_download(r, j->buf, lead * size, host, len * size, e) != 0)
        return -1;
    if (carry_out && !((const scan_args *)r->args)->exclusive)
        memcpy(carry_out, host + (len - 1) * size, size);
    return 0;
}

/* The scan in passes of at most `capacity` elements through one buffer. */
static int scan_passes(ak_run *r, size_t capacity, ak_err *e)
{
    scan_job *j = r->job;
    size_t n = j->data.n, size = ak_dtype_size(j->data.type);
    unsigned char carry_in[8], carry_out[8];
    size_t lead = 0; /* 1 once a running total is carried */
    for (size_t start = 0; start < n;) {
        size_t room = capacity - lead;
        size_t len = n - start < room ? n - start : room;
        int last = start + len == n;
        if (scan_pass(r, start, len, lead ? carry_in : NULL, last ? NULL : carry_out, e) != 0)
            return -1;
        if (!last)
            memcpy(carry_in, carry_out, size);
        lead = 1;
        start += len;
        j->passes++;
    }
    return 0;
}

static int scan_on_device(ak_run *r, ak_err *e)
{
    scan_job *j = r->job;
    size_t capacity = 0;
    if (j->data.n == 0)
        return 0;
    if (pass_capacity(r, &capacity, e) != 0 ||
        ak_run_buffer(r, capacity * ak_dtype_size(j->data.type), NULL, &j->buf, e) != 0)
        return -1;
    return scan_passes(r, capacity, e);
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
    if (r->times.compute > 0)
        snprintf(n->compute, sizeof n->compute, "%.3g elements/s, %lu pass%s",
                 (double)j->data.n / (r->times.compute * 1e-3), j->passes,
                 j->passes == 1 ? "" : "es");
}

static const ak_program SCAN = {.cli = &scan_cli, .job_size = sizeof(scan_job), .plan = plan,
                                .read = read_input, .compute = compute, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&SCAN, argc, argv);
}
