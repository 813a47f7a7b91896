/*
 * planted_race.c - a kernel with a deliberate local-memory data race.
 *
 * Every work-item writes its own local slot and reads its neighbour's with
 * no barrier in between, so Oclgrind's race detector must report it. `run.sh --self-test` runs this program to show
 * that the check fails on a report. The program itself succeeds whenever
 * the OpenCL calls do: the race does not change its exit status.
 */
#include "scankit.h"

#include <stdio.h>
#include <stdlib.h>

#define WG 16

/* Work-item i writes slot[i], then reads slot[i + 1] written by another
 * work-item: a read-write race on local memory (no barrier in between). */
static const char *source =
    "__kernel void planted_race(__global uint *out)\n"
    "{\n"
    "    __local uint slot[WG];\n"
    "    uint lid = (uint)get_local_id(0);\n"
    "    slot[lid] = lid;\n"
    "    out[get_global_id(0)] = slot[(lid + 1) % WG];\n"
    "}\n";

static int cl_check(cl_int rc, const char *what)
{
    if (rc == CL_SUCCESS) return 0;
    fprintf(stderr, "planted_race: %s failed: %s\n", what, sk_cl_error_name(rc));
    return 1;
}

static int run_kernel(cl_context cl, cl_device_id dev, cl_command_queue q)
{
    cl_int rc = CL_SUCCESS;
    int bad = 0;
    cl_program prog = clCreateProgramWithSource(cl, 1, &source, NULL, &rc);
    if (cl_check(rc, "clCreateProgramWithSource")) return 1;
    cl_kernel k = NULL;
    cl_mem out = NULL;
    bad = cl_check(clBuildProgram(prog, 1, &dev, "-DWG=16", NULL, NULL), "clBuildProgram");
    if (!bad) {
        k = clCreateKernel(prog, "planted_race", &rc);
        bad = cl_check(rc, "clCreateKernel");
    }
    if (!bad) {
        out = clCreateBuffer(cl, CL_MEM_WRITE_ONLY, 2 * WG * sizeof(cl_uint), NULL, &rc);
        bad = cl_check(rc, "clCreateBuffer");
    }
    if (!bad) bad = cl_check(clSetKernelArg(k, 0, sizeof out, &out), "clSetKernelArg");
    size_t global = 2 * WG, local = WG;
    if (!bad)
        bad = cl_check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                       "clEnqueueNDRangeKernel");
    if (!bad) bad = cl_check(clFinish(q), "clFinish");
    if (out) bad |= cl_check(clReleaseMemObject(out), "clReleaseMemObject");
    if (k) bad |= cl_check(clReleaseKernel(k), "clReleaseKernel");
    bad |= cl_check(clReleaseProgram(prog), "clReleaseProgram");
    return bad;
}

int main(void)
{
    sk_context *ctx = NULL;
    sk_status st = sk_context_create(&ctx, NULL, NULL, 0);
    if (st != SK_OK) {
        fprintf(stderr, "planted_race: no OpenCL device: %s\n", sk_status_str(st));
        return 1;
    }
    int bad = run_kernel(sk_context_cl_context(ctx), sk_context_cl_device(ctx),
                         sk_context_cl_queue(ctx));
    sk_context_free(ctx);
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
