/*
 * appkit_cl.c - the OpenCL-facing parts shared by the scankit command-line
 * programs: --list-devices, opening the context, device buffers, build
 * statistics and the device lines of --time.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <stdlib.h>
#include <string.h>

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

/* The width of the name (or platform) column: its longest entry, at least
 * `minimum`. */
static int column_width(const sk_device_desc *d, size_t count, int platform, int minimum)
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
    int wn = column_width(d, count, 0, 4), wp = column_width(d, count, 1, 8);
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

/* The devices into a calloc'ed *out. @return 0, or -1 with the reason. */
static int read_device_list(sk_device_desc **out, size_t *count, ak_err *e)
{
    *out = NULL;
    sk_status st = sk_device_list(NULL, 0, count);
    if (st != SK_OK || *count == 0)
        return ak_fail(e, "no OpenCL device found");
    if (!(*out = calloc(*count, sizeof **out)))
        return ak_fail(e, "out of memory");
    (*out)[0].struct_size = sizeof **out;
    st = sk_device_list(*out, *count, count);
    if (st == SK_OK)
        return 0;
    free(*out);
    *out = NULL;
    return ak_fail_sk(e, NULL, st, "listing devices");
}

int ak_list_devices(const char *tool)
{
    ak_err e;
    size_t count = 0;
    sk_device_desc *d;
    if (read_device_list(&d, &count, &e) != 0) {
        ak_print_error(tool, e.msg);
        return AK_EXIT_FAIL;
    }
    print_device_table(d, count);
    free(d);
    return ak_finish_stdout(tool);
}

/* ------------------------------------------------------------------------ */
/* The context                                                               */
/* ------------------------------------------------------------------------ */

int ak_context_open(sk_context **ctx, const char *device, int name_env, double *ms, ak_err *e)
{
    double t0 = ak_now();
    char why[1024];
    sk_status st = sk_context_create(ctx, device, why, sizeof why);
    if (st != SK_OK) {
        const char *env = name_env ? getenv("SCANKIT_DEVICE") : NULL;
        char what[256];
        *ctx = NULL;
        if (device)
            snprintf(what, sizeof what, "--device '%s'", device);
        else if (env)
            snprintf(what, sizeof what, "SCANKIT_DEVICE='%s'", env);
        else
            snprintf(what, sizeof what, "cannot open an OpenCL device");
        return ak_fail(e, "%s: %s", what, why[0] ? why : sk_status_str(st));
    }
    *ms = ak_ms_since(t0);
    return 0;
}

int ak_fail_cl(ak_err *e, const char *what, cl_int code)
{
    return ak_fail(e, "%s failed: %s", what, sk_cl_error_name(code));
}

/* ------------------------------------------------------------------------ */
/* Device buffers                                                            */
/* ------------------------------------------------------------------------ */

int ak_cl_check_fits(const sk_context *ctx, size_t bytes, const char *name, ak_err *e)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    if (sk_context_device(ctx, &d) == SK_OK && bytes > d.max_alloc_bytes)
        return ak_fail(e, "%s: %zu bytes exceed the device's largest buffer (%llu bytes)",
                       name, bytes, (unsigned long long)d.max_alloc_bytes);
    return 0;
}

int ak_cl_upload(const sk_context *ctx, cl_mem buf, size_t offset, const void *host,
                 size_t bytes, double *ms, ak_err *e)
{
    double t0 = ak_now();
    cl_int err = clEnqueueWriteBuffer(sk_context_cl_queue(ctx), buf, CL_TRUE, offset, bytes,
                                      host, 0, NULL, NULL);
    *ms += ak_ms_since(t0);
    return err == CL_SUCCESS ? 0 : ak_fail_cl(e, "copying the input to the device", err);
}

int ak_cl_download(const sk_context *ctx, cl_mem buf, size_t offset, void *host, size_t bytes,
                   double *ms, const char *what, ak_err *e)
{
    double t0 = ak_now();
    cl_int err = clEnqueueReadBuffer(sk_context_cl_queue(ctx), buf, CL_TRUE, offset, bytes,
                                     host, 0, NULL, NULL);
    *ms += ak_ms_since(t0);
    return err == CL_SUCCESS ? 0 : ak_fail_cl(e, what, err);
}

int ak_cl_new_buffer(const sk_context *ctx, size_t bytes, cl_mem *out, ak_err *e)
{
    cl_int err = CL_SUCCESS;
    *out = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes ? bytes : 1,
                          NULL, &err);
    return *out ? 0 : ak_fail_cl(e, "allocating a device buffer", err);
}

int ak_cl_release(cl_mem *mems, size_t count, ak_err *e)
{
    cl_int failed = CL_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        cl_int rc = mems[i] ? clReleaseMemObject(mems[i]) : CL_SUCCESS;
        if (rc != CL_SUCCESS) failed = rc;
        mems[i] = NULL;
    }
    return failed == CL_SUCCESS ? 0 : ak_fail_cl(e, "releasing the device buffers", failed);
}

/* ------------------------------------------------------------------------ */
/* Build statistics and --time                                               */
/* ------------------------------------------------------------------------ */

void ak_build_stats_add_since(const sk_context *ctx, const sk_build_stats *before,
                              double elapsed_ms, sk_build_stats *build, double *compute_ms)
{
    sk_build_stats after = SK_BUILD_STATS_INIT;
    if (sk_context_build_stats(ctx, &after) != SK_OK) {
        *compute_ms += elapsed_ms;
        return;
    }
    double seconds = after.seconds - before->seconds;
    build->compiled += after.compiled - before->compiled;
    build->from_disk += after.from_disk - before->from_disk;
    build->from_memory += after.from_memory - before->from_memory;
    build->seconds += seconds;
    double rest = elapsed_ms - seconds * 1e3;
    *compute_ms += rest > 0 ? rest : 0;
}

void ak_print_device_times(double context_ms, double upload_ms, const sk_build_stats *build)
{
    ak_print_time("context:", context_ms);
    ak_print_time("upload:", upload_ms);
    fprintf(stderr, "build:    %10.3f ms  (compiled %lu, disk %lu, memory %lu)\n",
            build->seconds * 1e3, build->compiled, build->from_disk, build->from_memory);
}
