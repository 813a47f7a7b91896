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

#include "appkit.h"
#include "scan_args.h"
#include "scan_check.h"

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = SCAN_TOOL;

/* Milliseconds of each phase, for --time. */
typedef struct scan_times {
    double start;
    double read, context, upload, compute, download, write;
    sk_build_stats build;
} scan_times;

typedef struct scan_job {
    const scan_args *args;
    scan_times times;
    char *out_path; /* NULL: stdout */
    unsigned long passes; /* device passes (more than 1 for large inputs) */
    ak_array data;
    void *input_copy; /* --check: the input as read */
    sk_context *ctx;
    ak_output out;
} scan_job;

/* ------------------------------------------------------------------------ */
/* --list-devices                                                            */
/* ------------------------------------------------------------------------ */

static void format_bytes(uint64_t bytes, char *buf, size_t cap)
{
    if (bytes >= ((uint64_t)1 << 30))
        snprintf(buf, cap, "%.1f GiB", (double)bytes / (double)((uint64_t)1 << 30));
    else
        snprintf(buf, cap, "%.0f MiB", (double)bytes / (double)((uint64_t)1 << 20));
}

static int name_width(const sk_device_desc *d, size_t count, int platform, int minimum)
{
    int w = minimum;
    for (size_t i = 0; i < count; i++) {
        int len = (int)strlen(platform ? d[i].platform_name : d[i].device_name);
        if (len > w)
            w = len;
    }
    return w;
}

static void print_device_table(const sk_device_desc *d, size_t count)
{
    int wn = name_width(d, count, 0, 4), wp = name_width(d, count, 1, 8);
    printf("%-6s %-4s %-*s %-*s %-4s %s\n", "index", "type", wn, "name", wp, "platform",
           "fp64", "memory");
    for (size_t i = 0; i < count; i++) {
        char index[32], mem[32];
        snprintf(index, sizeof index, "%u:%u", d[i].platform_index, d[i].device_index);
        format_bytes(d[i].global_mem_bytes, mem, sizeof mem);
        printf("%-6s %-4s %-*s %-*s %-4s %s\n", index, d[i].is_gpu ? "gpu" : "cpu", wn,
               d[i].device_name, wp, d[i].platform_name, d[i].has_fp64 ? "yes" : "no", mem);
    }
}

static int list_devices(void)
{
    ak_err e;
    size_t count = 0;
    sk_status st = sk_device_list(NULL, 0, &count);
    if (st != SK_OK || count == 0) {
        ak_print_error(TOOL, "no OpenCL device found");
        return AK_EXIT_FAIL;
    }
    sk_device_desc *d = calloc(count, sizeof *d);
    if (!d) {
        ak_print_error(TOOL, "out of memory");
        return AK_EXIT_FAIL;
    }
    st = sk_device_list(d, count, &count);
    if (st != SK_OK) {
        ak_fail_sk(&e, NULL, st, "listing devices");
        ak_print_error(TOOL, e.msg);
        free(d);
        return AK_EXIT_FAIL;
    }
    print_device_table(d, count);
    free(d);
    return ak_finish_stdout(TOOL);
}

/* ------------------------------------------------------------------------ */
/* The scan                                                                  */
/* ------------------------------------------------------------------------ */

static int read_input(scan_job *j, ak_err *e)
{
    ak_read_opts ro = {j->args->type, AK_UINT32, TOOL};
    double t0 = ak_now();
    if (ak_array_read(j->args->input, &ro, &j->data, e) != 0)
        return -1;
    j->times.read = ak_ms_since(t0);
    const char *name = ak_display_name(j->args->input, 0);
    return ak_check_scan_type(name, j->data.type, j->args->op, e);
}

static int open_context(scan_job *j, ak_err *e)
{
    return ak_context_open(&j->ctx, j->args->device, 1, &j->times.context, e);
}

/* Elements per device pass: all of them when the device's largest buffer
 * holds them (and --chunk allows), else as many as it holds. */
static int pass_capacity(scan_job *j, size_t *capacity, ak_err *e)
{
    size_t size = ak_dtype_size(j->data.type);
    size_t cap = j->data.n;
    sk_device_desc d;
    if (sk_context_device(j->ctx, &d) == SK_OK && d.max_alloc_bytes / size < cap)
        cap = (size_t)(d.max_alloc_bytes / size);
    if (j->args->chunk && j->args->chunk < cap)
        cap = j->args->chunk;
    if (cap < 2 && cap < j->data.n)
        return ak_fail(e, "the device cannot hold two elements of %s in one buffer",
                       ak_dtype_name(j->data.type));
    *capacity = cap;
    return 0;
}

static int upload(scan_job *j, cl_mem buf, size_t offset, const void *src, size_t bytes,
                  ak_err *e)
{
    return ak_cl_upload(j->ctx, buf, offset, src, bytes, &j->times.upload, e);
}

static int download(scan_job *j, cl_mem buf, size_t offset, void *dst, size_t bytes,
                    ak_err *e)
{
    return ak_cl_download(j->ctx, buf, offset, dst, bytes, &j->times.download,
                          "copying the result from the device", e);
}

/* Scans the first m elements of buf in place. An exclusive scan that hands
 * a running total to the next pass reduces the pass first (into carry). */
static int run_kernels(scan_job *j, cl_mem buf, size_t m, void *carry, ak_err *e)
{
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    sk_op op = j->args->op;
    double t0 = ak_now();
    sk_status st = SK_OK;
    if (j->args->exclusive && carry)
        st = sk_reduce(j->ctx, t, op, buf, m, carry);
    if (st == SK_OK)
        st = j->args->exclusive ? sk_scan_exclusive(j->ctx, t, op, buf, buf, m)
                                : sk_scan_inclusive(j->ctx, t, op, buf, buf, m);
    if (st == SK_OK)
        st = sk_context_finish(j->ctx);
    j->times.compute += ak_ms_since(t0);
    if (st != SK_OK)
        return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    return 0;
}

/* One pass over data[start, start+len): the buffer holds the running total
 * of the elements before `start` (when carry_in) followed by those elements,
 * so scanning it continues the scan of the previous passes. carry_out (NULL
 * on the last pass) receives the total up to start+len-1. */
static int scan_pass(scan_job *j, cl_mem buf, size_t start, size_t len,
                     const void *carry_in, void *carry_out, ak_err *e)
{
    size_t size = ak_dtype_size(j->data.type);
    size_t lead = carry_in ? 1 : 0;
    unsigned char *host = (unsigned char *)j->data.data + start * size;
    if (carry_in && upload(j, buf, 0, carry_in, size, e) != 0)
        return -1;
    if (upload(j, buf, lead * size, host, len * size, e) != 0 ||
        run_kernels(j, buf, len + lead, carry_out, e) != 0 ||
        download(j, buf, lead * size, host, len * size, e) != 0)
        return -1;
    if (carry_out && !j->args->exclusive)
        memcpy(carry_out, host + (len - 1) * size, size);
    return 0;
}

/* The scan in passes of at most `capacity` elements through one buffer. */
static int scan_passes(scan_job *j, cl_mem buf, size_t capacity, ak_err *e)
{
    size_t n = j->data.n, size = ak_dtype_size(j->data.type);
    unsigned char carry_in[8], carry_out[8];
    size_t lead = 0; /* 1 once a running total is carried */
    for (size_t start = 0; start < n;) {
        size_t room = capacity - lead;
        size_t len = n - start < room ? n - start : room;
        int last = start + len == n;
        if (scan_pass(j, buf, start, len, lead ? carry_in : NULL, last ? NULL : carry_out,
                      e) != 0)
            return -1;
        if (!last)
            memcpy(carry_in, carry_out, size);
        lead = 1;
        start += len;
        j->passes++;
    }
    return 0;
}

static int scan_on_device(scan_job *j, ak_err *e)
{
    size_t capacity = 0;
    if (j->data.n == 0)
        return 0;
    if (pass_capacity(j, &capacity, e) != 0)
        return -1;
    cl_int err;
    cl_mem buf = clCreateBuffer(sk_context_cl_context(j->ctx), CL_MEM_READ_WRITE,
                                capacity * ak_dtype_size(j->data.type), NULL, &err);
    if (!buf)
        return ak_fail_cl(e, "allocating the device buffer", err);
    sk_build_stats before;
    sk_context_build_stats(j->ctx, &before);
    int rc = scan_passes(j, buf, capacity, e);
    if (rc == 0)
        ak_build_stats_since(j->ctx, &before, &j->times.build, &j->times.compute);
    cl_int released = clReleaseMemObject(buf);
    if (rc == 0 && released != CL_SUCCESS)
        rc = ak_fail_cl(e, "releasing the device buffer", released);
    return rc;
}

static int write_output(scan_job *j, ak_err *e)
{
    double t0 = ak_now();
    ak_format f = ak_output_format(j->args->format, j->out_path, j->data.format);
    int rc = ak_output_write_elements(&j->out, f, j->data.type, j->data.data, j->data.n, TOOL, e);
    if (rc == 0)
        rc = ak_output_commit(&j->out, e);
    j->times.write = ak_ms_since(t0);
    return rc;
}

static void print_times(const scan_job *j)
{
    const scan_times *t = &j->times;
    double compute_s = t->compute * 1e-3;
    fprintf(stderr, "read:     %10.3f ms  (%zu elements of %s)\n", t->read, j->data.n,
            ak_dtype_name(j->data.type));
    ak_print_device_times(t->context, t->upload, &t->build);
    if (compute_s > 0)
        fprintf(stderr, "compute:  %10.3f ms  (%.3g elements/s, %lu pass%s)\n", t->compute,
                (double)j->data.n / compute_s, j->passes, j->passes == 1 ? "" : "es");
    else
        ak_print_time("compute:", t->compute);
    ak_print_time("download:", t->download);
    ak_print_time("write:", t->write);
    ak_print_time("total:", ak_ms_since(t->start));
}

/* --check needs the input after the scan has replaced it. */
static int keep_input(scan_job *j, ak_err *e)
{
    size_t bytes = j->data.n * ak_dtype_size(j->data.type);
    if (!j->args->check || bytes == 0)
        return 0;
    j->input_copy = malloc(bytes);
    if (!j->input_copy)
        return ak_fail(e, "out of memory keeping a copy of the input for --check");
    memcpy(j->input_copy, j->data.data, bytes);
    return 0;
}

static int check_result(scan_job *j, ak_err *e)
{
    if (!j->args->check)
        return 0;
    if (j->data.n && scan_check(j->data.type, j->args->op, j->args->exclusive,
                                j->input_copy, j->data.data, j->data.n, e) != 0)
        return -1;
    fprintf(stderr, "check: ok (%zu elements match a serial %s %s scan)\n", j->data.n,
            j->args->exclusive ? "exclusive" : "inclusive", sk_op_name(j->args->op));
    return 0;
}

static int run_steps(scan_job *j, ak_err *e)
{
    ak_output_choice choice = {j->args->input, j->args->output, TOOL, j->args->in_place, 1,
                               NULL, 0};
    if (ak_output_resolve(&choice, &j->out_path, e) != 0)
        return -1;
    if (read_input(j, e) != 0)
        return -1;
    if (ak_output_open(&j->out, j->out_path, TOOL, e) != 0)
        return -1;
    if (keep_input(j, e) != 0 || open_context(j, e) != 0 || scan_on_device(j, e) != 0 ||
        check_result(j, e) != 0)
        return -1;
    return write_output(j, e);
}

static int run(const scan_args *a, double start)
{
    scan_job j;
    memset(&j, 0, sizeof j);
    j.args = a;
    j.times.start = start;
    ak_err e;
    int rc = run_steps(&j, &e);
    ak_output_abort(&j.out); /* no-op after a commit */
    sk_context_free(j.ctx);
    if (rc == 0 && a->time)
        print_times(&j);
    ak_array_free(&j.data);
    free(j.input_copy);
    free(j.out_path);
    return ak_exit_status(TOOL, rc, &e);
}

int main(int argc, char **argv)
{
    double start = ak_now();
    scan_args a;
    int rc = scan_parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK)
        return rc;
    if (a.help) return scan_print_help();
    if (a.version) return ak_print_version(TOOL);
    if (a.list_devices)
        return list_devices();
    return run(&a, start);
}
