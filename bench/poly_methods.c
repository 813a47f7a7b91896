/*
 * poly_methods - the two ways to evaluate a polynomial of high degree at
 * one point on the scan, compared for accuracy and speed in one run:
 *
 *   affine   what sk_poly_eval does: Horner's rule as the reduction of the
 *            affine maps r -> r x + a_i (one pass over the coefficients);
 *   powers   an exclusive multiplicative scan of x (x^0 .. x^d), then
 *            a_i * x^i summed (scan, a product pass, a reduction).
 *
 * Errors are measured against a long double Horner reference and given in
 * units of the bound gamma(2d) * sum |a_i x^i| (so <= 1 is within the
 * bound); times are device times from profiling events, medians.
 *
 *   poly_methods [--log2 K] [--repeats R] [--device SPEC]
 */
#define _POSIX_C_SOURCE 200809L
#include <scankit.h>

#include "bench_common.h"
#include "sk_rng.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char product_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void product(__global const double *a, __global double *p, ulong n)\n"
    "{ ulong i = get_global_id(0); if (i < n) p[i] = a[i] * p[i]; }\n";

typedef struct bench {
    sk_context *ctx;
    cl_context cl;
    cl_command_queue q;
    cl_kernel product;
    size_t n;
    cl_mem a, tmp;
} bench;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static int die(const char *what, sk_context *ctx, sk_status st)
{
    fprintf(stderr, "poly_methods: %s: %s %s\n", what, sk_status_str(st),
            ctx ? sk_context_error_detail(ctx) : "");
    exit(1);
}

/* p(x) by the powers method; *seconds gets its device time. */
static double eval_powers(bench *b, double x, double *seconds)
{
    double t_scan = 0, t_red = 0, result = 0;
    unsigned long launches = 0;
    cl_event ev;
    cl_int rc = clEnqueueFillBuffer(b->q, b->tmp, &x, sizeof x, 0, b->n * sizeof x, 0, NULL, NULL);
    if (rc != CL_SUCCESS) die("fill", NULL, SK_E_CL);
    sk_status st = sk_scan_exclusive(b->ctx, SK_FLOAT64, SK_OP_MUL, b->tmp, b->tmp, b->n);
    if (st != SK_OK) die("multiplicative scan", b->ctx, st);
    sk_context_profile_take(b->ctx, &t_scan, &launches);
    cl_ulong n = b->n;
    size_t global = (b->n + 255) / 256 * 256;
    clSetKernelArg(b->product, 0, sizeof b->a, &b->a);
    clSetKernelArg(b->product, 1, sizeof b->tmp, &b->tmp);
    clSetKernelArg(b->product, 2, sizeof n, &n);
    if (clEnqueueNDRangeKernel(b->q, b->product, 1, NULL, &global, NULL, 0, NULL, &ev) !=
        CL_SUCCESS)
        die("product kernel", NULL, SK_E_CL);
    clWaitForEvents(1, &ev);
    cl_ulong s = 0, e = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    clReleaseEvent(ev);
    st = sk_reduce(b->ctx, SK_FLOAT64, SK_OP_ADD, b->tmp, &result, b->n);
    if (st != SK_OK) die("reduce", b->ctx, st);
    sk_context_profile_take(b->ctx, &t_red, &launches);
    *seconds = t_scan + (double)(e - s) * 1e-9 + t_red;
    return result;
}

static double eval_affine(bench *b, double x, double *seconds)
{
    double result = 0;
    unsigned long launches = 0;
    sk_status st = sk_poly_eval(b->ctx, SK_FLOAT64, b->a, x, &result, b->n);
    if (st != SK_OK) die("sk_poly_eval", b->ctx, st);
    sk_context_profile_take(b->ctx, seconds, &launches);
    return result;
}

/* Reference and bound in long double. */
static void reference(const double *a, size_t n, double x, long double *p, long double *bound)
{
    long double r = 0, s = 0, ax = 1, u = DBL_EPSILON / 2;
    for (size_t i = n; i-- > 0;) r = r * x + a[i];
    for (size_t i = 0; i < n; i++, ax *= fabsl((long double)x)) s += fabsl((long double)a[i]) * ax;
    long double k = 2.0L * (long double)(n ? n - 1 : 0);
    *p = r;
    *bound = k * u / (1 - k * u) * s;
}

static void run_case(bench *b, const char *name, const double *a, double x, int repeats)
{
    cl_int rc = clEnqueueWriteBuffer(b->q, b->a, CL_TRUE, 0, b->n * sizeof *a, a, 0, NULL, NULL);
    if (rc != CL_SUCCESS) die("upload", NULL, SK_E_CL);
    long double ref, bound;
    reference(a, b->n, x, &ref, &bound);
    double t_aff[64], t_pow[64], v_aff = 0, v_pow = 0;
    for (int r = 0; r < repeats; r++) {
        v_aff = eval_affine(b, x, &t_aff[r]);
        v_pow = eval_powers(b, x, &t_pow[r]);
    }
    printf("%-28s %10zu %8g %14.6Lg %10.3f %10.3f %10.3f %10.3f\n", name, b->n - 1, x,
           ref, (double)(fabsl(v_aff - ref) / bound), (double)(fabsl(v_pow - ref) / bound),
           median(t_aff, repeats) * 1e3, median(t_pow, repeats) * 1e3);
}

static void open_bench(bench *b, size_t n, const char *device)
{
    sk_status st = sk_context_create(&b->ctx, device, NULL, 0);
    if (st != SK_OK) die("opening a device", NULL, st);
    sk_context_set_param(b->ctx, SK_PARAM_PROFILE, 1);
    b->cl = sk_context_cl_context(b->ctx);
    b->q = sk_context_cl_queue(b->ctx);
    b->n = n;
    cl_int rc;
    const char *src = product_src;
    cl_program p = clCreateProgramWithSource(b->cl, 1, &src, NULL, &rc);
    cl_device_id dev = sk_context_cl_device(b->ctx);
    if (rc != CL_SUCCESS || clBuildProgram(p, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
        die("building the product kernel", NULL, SK_E_BUILD);
    b->product = clCreateKernel(p, "product", &rc);
    clReleaseProgram(p);
    b->a = clCreateBuffer(b->cl, CL_MEM_READ_WRITE, n * sizeof(double), NULL, &rc);
    b->tmp = clCreateBuffer(b->cl, CL_MEM_READ_WRITE, n * sizeof(double), NULL, &rc);
    if (!b->product || !b->a || !b->tmp) die("allocating", NULL, SK_E_OUT_OF_MEMORY);
}

/* The command line as read: the shared options first. */
typedef struct poly_args {
    bb_run_args run;
    uint64_t log2;
} poly_args;

static const ak_opt poly_rows[] = {
    {"log2", 0, AK_OPT_U64, offsetof(poly_args, log2), "K",
     "2^K coefficients (22; from 5 to 40)", NULL, 0},
    BB_RUN_ROW_REPEATS("R timed runs per case (7; at most 64)"),
    BB_RUN_ROW_DEVICE,
    BB_RUN_ROW_HELP,
    AK_OPT_TABLE_END,
};

static void poly_defaults(void *args)
{
    poly_args *a = args;
    a->log2 = 22;
    a->run.repeats = 7;
}

static int poly_check(void *args, ak_err *e)
{
    poly_args *a = args;
    if (a->log2 < 5 || a->log2 > 40) return ak_fail(e, "--log2 must be from 5 to 40");
    if (a->run.repeats < 1 || a->run.repeats > 64)
        return ak_fail(e, "--repeats must be from 1 to 64");
    return 0;
}

static const ak_cli poly_cli = {"poly_methods", "poly_methods [OPTION]...", poly_rows,
                                sizeof(poly_args), poly_defaults, poly_check, NULL};

int main(int argc, char **argv)
{
    poly_args args;
    int parsed = bb_run_parse(&poly_cli, argc, argv, &args);
    if (parsed) return parsed == 1 ? 0 : 2;
    int log2n = (int)args.log2, repeats = (int)args.run.repeats;
    const char *device = args.run.device;
    size_t n = (size_t)1 << log2n;
    bench b;
    open_bench(&b, n, device);
    double *a = malloc(n * sizeof *a);
    if (!a) die("host memory", NULL, SK_E_OUT_OF_MEMORY);
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_context_device(b.ctx, &d);
    printf("polynomial evaluation at one point, float64, %s; error in units of the bound "
           "gamma(2d) sum|a_i x^i|; device ms, median of %d\n", d.device_name, repeats);
    printf("%-28s %10s %8s %14s %10s %10s %10s %10s\n", "case", "degree", "x", "p(x)",
           "err affine", "err powers", "ms affine", "ms powers");
    sk_rng rng;
    sk_rng_seed(&rng, 12345);
    for (size_t i = 0; i < n; i++)
        a[i] = sk_rng_unit(&rng) - 0.5;
    run_case(&b, "random a_i in [-0.5, 0.5)", a, 0.9999, repeats);
    run_case(&b, "random a_i in [-0.5, 0.5)", a, -0.99999, repeats);
    /* (x - 1)^20 expanded: binomial coefficients of alternating sign. */
    memset(a, 0, n * sizeof *a);
    for (int k = 0, c = 1; k <= 20; k++) {
        a[k] = (20 - k) % 2 ? -(double)c : (double)c;
        c = c * (20 - k) / (k + 1);
    }
    b.n = 21;
    run_case(&b, "(x - 1)^20 expanded", a, 1.05, repeats);
    run_case(&b, "(x - 1)^20 expanded", a, 0.999, repeats);
    free(a);
    sk_context_free(b.ctx);
    return 0;
}
