/*
 * appkit_cl.c - the OpenCL-facing parts shared by the scankit command-line
 * programs: --list-devices, opening the context, device buffers, build
 * statistics and the device lines of --time.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* --list-devices                                                            */
/* ------------------------------------------------------------------------ */

static void print_device_rows(const sk_device_desc *d, size_t count)
{
    printf("%-6s %-4s %-4s %s\n", "index", "type", "fp64", "name (platform)");
    for (size_t i = 0; i < count; i++) {
        char index[32];
        snprintf(index, sizeof index, "%u:%u", d[i].platform_index, d[i].device_index);
        printf("%-6s %-4s %-4s %s (%s)\n", index, d[i].is_gpu ? "gpu" : "cpu",
               d[i].has_fp64 ? "yes" : "no", d[i].device_name, d[i].platform_name);
    }
}

int ak_list_devices(const char *tool)
{
    size_t count = 0;
    sk_device_desc *d = NULL;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0) {
        ak_print_error(tool, "no OpenCL device found");
        return AK_EXIT_FAIL;
    }
    if (!(d = calloc(count, sizeof *d)) || sk_device_list(d, count, &count) != SK_OK) {
        free(d);
        ak_print_error(tool, "listing devices failed");
        return AK_EXIT_FAIL;
    }
    print_device_rows(d, count);
    free(d);
    return ak_finish_stdout(tool);
}

/* ------------------------------------------------------------------------ */
/* The context                                                               */
/* ------------------------------------------------------------------------ */

int ak_context_open(sk_context **ctx, const char *device, int name_env, double *ms, ak_err *e)
{
    double t0 = ak_now();
    sk_status st = sk_context_create(ctx, device);
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
        return ak_fail_sk(e, NULL, st, what);
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
    sk_device_desc d;
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

int ak_cl_new_buffer(const sk_context *ctx, size_t bytes, const void *host, double *upload_ms,
                     cl_mem *out, ak_err *e)
{
    cl_int err = CL_SUCCESS;
    *out = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes ? bytes : 1,
                          NULL, &err);
    if (!*out) return ak_fail_cl(e, "allocating a device buffer", err);
    if (!host || bytes == 0) return 0;
    return ak_cl_upload(ctx, *out, 0, host, bytes, upload_ms, e);
}

int ak_cl_release(cl_mem *const *mems, size_t count, ak_err *e)
{
    cl_int failed = CL_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        cl_int rc = *mems[i] ? clReleaseMemObject(*mems[i]) : CL_SUCCESS;
        if (rc != CL_SUCCESS) failed = rc;
        *mems[i] = NULL;
    }
    return failed == CL_SUCCESS ? 0 : ak_fail_cl(e, "releasing the device buffers", failed);
}

/* ------------------------------------------------------------------------ */
/* Build statistics and --time                                               */
/* ------------------------------------------------------------------------ */

void ak_build_stats_since(const sk_context *ctx, const sk_build_stats *before,
                          sk_build_stats *build, double *compute_ms)
{
    sk_build_stats after;
    if (sk_context_build_stats(ctx, &after) != SK_OK) return;
    build->compiled = after.compiled - before->compiled;
    build->from_disk = after.from_disk - before->from_disk;
    build->from_memory = after.from_memory - before->from_memory;
    build->seconds = after.seconds - before->seconds;
    double rest = *compute_ms - build->seconds * 1e3;
    *compute_ms = rest > 0 ? rest : 0;
}

void ak_print_device_times(double context_ms, double upload_ms, const sk_build_stats *build)
{
    ak_print_time("context:", context_ms);
    ak_print_time("upload:", upload_ms);
    fprintf(stderr, "build:    %10.3f ms  (compiled %lu, disk %lu, memory %lu)\n",
            build->seconds * 1e3, build->compiled, build->from_disk, build->from_memory);
}
