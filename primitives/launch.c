/*
 * launch.c - the one way a kernel is launched: its arguments set in order
 * through an argument list (sk__args) that names every scalar for the
 * trace and checks the count against the kernel, the launch itself with
 * tracing and profiling, and fitting a GPU-shape work-group to what the
 * built kernels can run.
 */
#include "sk_internal.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

void sk__args_init(sk__args *a, sk_context *ctx, const sk__program *prog, unsigned kernel)
{
    *a = (sk__args){.ctx = ctx, .prog = prog, .kernel = kernel, .k = prog->kernels[kernel]};
}

static void arg_set(sk__args *a, size_t size, const void *value)
{
    if (a->st != SK_OK) return;
    cl_int rc = clSetKernelArg(a->k, a->next, size, value);
    if (rc != CL_SUCCESS) {
        a->st = sk__fail_cl(a->ctx, rc, "clSetKernelArg");
        return;
    }
    a->next++;
}

/* Records "name=value" for the trace (only while a trace is installed). */
static void arg_trace(sk__args *a, const char *name, unsigned long long v)
{
    if (a->ctx->trace_fn) sk__str_addf(&a->scalars, "%s%s=%llu", a->scalars.len ? " " : "", name, v);
}

/* The same for a floating-point scalar, with the digits that give its
 * value back (`digits`: FLT_DECIMAL_DIG or DBL_DECIMAL_DIG). */
static void arg_trace_real(sk__args *a, const char *name, int digits, double v)
{
    if (a->ctx->trace_fn)
        sk__str_addf(&a->scalars, "%s%s=%.*g", a->scalars.len ? " " : "", name, digits, v);
}

void sk__arg_mem(sk__args *a, cl_mem m) { arg_set(a, sizeof m, &m); }

void sk__arg_ulong(sk__args *a, const char *name, uint64_t v)
{
    cl_ulong u = v;
    arg_set(a, sizeof u, &u);
    arg_trace(a, name, v);
}

void sk__arg_uint(sk__args *a, const char *name, unsigned v)
{
    cl_uint u = v;
    arg_set(a, sizeof u, &u);
    arg_trace(a, name, v);
}

void sk__arg_word(sk__args *a, const char *name, size_t size, uint64_t v)
{
    if (size == sizeof(cl_uchar)) {
        cl_uchar u = (cl_uchar)v;
        arg_set(a, sizeof u, &u);
        arg_trace(a, name, u);
    } else if (size == sizeof(cl_ushort)) {
        cl_ushort u = (cl_ushort)v;
        arg_set(a, sizeof u, &u);
        arg_trace(a, name, u);
    } else if (size == sizeof(cl_uint))
        sk__arg_uint(a, name, (unsigned)v);
    else
        sk__arg_ulong(a, name, v);
}

void sk__arg_real(sk__args *a, const char *name, size_t size, double v)
{
    if (size == sizeof(cl_float)) {
        cl_float f = (cl_float)v;
        arg_set(a, sizeof f, &f);
        arg_trace_real(a, name, FLT_DECIMAL_DIG, f);
        return;
    }
    cl_double d = v;
    arg_set(a, sizeof d, &d);
    arg_trace_real(a, name, DBL_DECIMAL_DIG, d);
}

void sk__arg_local(sk__args *a, size_t bytes) { arg_set(a, bytes, NULL); }

/* Enqueues the kernel with its arguments set, after the trace callback;
 * profiled when the context profiles. */
static sk_status launch(sk_context *ctx, const sk__program *prog, unsigned kernel, size_t global,
                       size_t local, const char *scalars)
{
    if (ctx->measuring) return SK_OK; /* nothing runs while measuring scratch */
    if (ctx->trace_fn) {
        sk_launch_record r = {sizeof r, prog->kernel_names[kernel], prog->source->name,
                              prog->config, global, local, scalars ? scalars : ""};
        ctx->trace_fn(&r, ctx->trace_user);
    }
    cl_event ev = NULL;
    cl_int rc = clEnqueueNDRangeKernel(ctx->queue, prog->kernels[kernel], 1, NULL, &global,
                                       local ? &local : NULL, 0, NULL,
                                       ctx->profile ? &ev : NULL);
    if (rc != CL_SUCCESS) {
        ctx->last_cl_error = rc;
        return sk__fail(ctx,
                        rc == CL_OUT_OF_RESOURCES || rc == CL_MEM_OBJECT_ALLOCATION_FAILURE
                            ? SK_E_OUT_OF_MEMORY : SK_E_CL,
                        "clEnqueueNDRangeKernel failed: %s (%d) launching %s (global %zu, "
                        "local %zu)", sk_cl_error_name(rc), (int)rc,
                        prog->kernel_names[kernel], global, local);
    }
    return ctx->profile ? sk__profile_record(ctx, ev) : SK_OK;
}

sk_status sk__args_launch(sk__args *a, size_t global, size_t local)
{
    sk_status st = a->st;
    const sk__program *prog = a->prog;
    if (st == SK_OK && a->next != prog->arg_counts[a->kernel]) {
        a->ctx->last_cl_error = CL_INVALID_KERNEL_ARGS;
        st = sk__fail(a->ctx, SK_E_CL, "%s: %u arguments set, the kernel takes %u",
                      prog->kernel_names[a->kernel], (unsigned)a->next,
                      (unsigned)prog->arg_counts[a->kernel]);
    }
    if (st == SK_OK) st = launch(a->ctx, prog, a->kernel, global, local, a->scalars.buf);
    sk__str_free(&a->scalars);
    return st;
}

/* The work-group of sk__args_launch_each: eight warps on a GPU (64
 * before: the offsets' check over 2^23 segments took 85 us on an H200,
 * 36 us at 256, the work-groups' starts bounding it;
 * bench/results/nvidia-h200-segsort-runs), many SIMD widths on a CPU. */
#define EACH_WG 256

sk_status sk__args_launch_each_by(sk__args *a, size_t count, size_t wg)
{
    size_t local = wg;
    while (local > a->ctx->max_wg_size && local > 1) local /= 2;
    return sk__args_launch(a, (count + local - 1) / local * local, local);
}

sk_status sk__args_launch_each(sk__args *a, size_t count)
{
    return sk__args_launch_each_by(a, count, EACH_WG);
}

sk_status sk__program_max_wg(sk_context *ctx, const sk__program *prog, size_t *fits)
{
    *fits = SIZE_MAX;
    for (unsigned k = 0; k < prog->kernel_count; k++) {
        size_t wg = 0;
        cl_int rc = clGetKernelWorkGroupInfo(prog->kernels[k], ctx->device,
                                             CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
        if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clGetKernelWorkGroupInfo");
        if (wg < *fits) *fits = wg;
    }
    return SK_OK;
}

sk_status sk__fit_wg(sk_context *ctx, const sk__program *prog, const char *what, size_t *wg,
                     bool *lowered)
{
    size_t fits = 0;
    *lowered = false;
    sk_status st = sk__program_max_wg(ctx, prog, &fits);
    if (st != SK_OK || fits >= *wg) return st;
    if (*wg == 1)
        return sk__fail(ctx, SK_E_UNSUPPORTED, "%s kernels cannot run on %s", what,
                        ctx->desc.device_name);
    while (*wg > fits && *wg > 1) *wg /= 2;
    sk__log(ctx, "%s: work-group size lowered to %zu", what, *wg);
    *lowered = true;
    return SK_OK;
}
