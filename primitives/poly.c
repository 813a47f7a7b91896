/*
 * poly.c - polynomial evaluation on scankit's scan.
 *
 * One point, any degree: Horner's rule r <- r x + a_i (i = d .. 0) is a
 * composition of affine maps, and composition is associative:
 *     (m1, c1) then (m2, c2) = (m1 m2, c1 m2 + c2).
 * Element i of the lifted sequence is (x, a_(d-i)); its reduction is
 * (x^(d+1), p(x)) and its inclusive scan gives every Horner prefix. Both
 * run on the scan kernels through sk__reduce_lifted / sk__scan_lifted, the
 * monoid and its loads in kernels/poly_affine.cl and poly_affine_io.cl.
 * On the CPU shape the reduction is a chunk's map per work-item (Horner
 * over the chunk, its power of x by squaring: poly.cl) combined here in
 * order: the scan's chunks would carry x^k element by element, which for
 * |x| < 1 sinks into denormals over a long chunk.
 *
 * Many points: one work-item per point with plain Horner (poly.cl), which
 * is the right algorithm once there are enough points to fill the device;
 * with few points of high degree, point after point through the scan.
 */
#include "sk_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct poly_job {
    sk_context *ctx;
    sk_type type;
    const char *cl;           /* "float" or "double" */
    size_t size;              /* bytes per coefficient */
    cl_mem coeffs;
    size_t ncoef;
    cl_mem out;               /* Horner prefixes, when scanning */
    double x;                 /* the point (rounded to float for float32) */
} poly_job;

/* Checks that `mem` (called `name`) holds n elements of the job's type. */
static sk_status check_elems(const poly_job *j, cl_mem mem, size_t n, const char *name)
{
    size_t bytes = 0;
    sk_status st = sk__byte_size(j->ctx, n, j->size, &bytes);
    return st == SK_OK ? sk__check_buffer(j->ctx, mem, bytes, name) : st;
}

/* The start of every cl_mem form: a context (its last error cleared), a
 * floating-point type the device takes and the coefficients' buffer. */
static sk_status job_open(sk_context *ctx, sk_type type, cl_mem coeffs, size_t ncoef,
                          poly_job *j)
{
    SK_ENTER(ctx);
    sk_status st = SK_OK;
    if (type != SK_FLOAT32 && type != SK_FLOAT64) {
        /* a sort key type: unsupported; any other: not a polynomial's */
        st = sk__require_op_type(ctx, type);
        return st != SK_OK ? st
                           : sk__fail(ctx, SK_E_INVALID_ARG, "polynomials need float32 or float64");
    }
    st = sk__require_fp64(ctx, type);
    if (st != SK_OK) return st;
    *j = (poly_job){ctx, type, type == SK_FLOAT32 ? "float" : "double", sk_type_size(type),
                    coeffs, ncoef, NULL, 0.0};
    return check_elems(j, coeffs, ncoef, "coeffs");
}

/* ---- one point: the affine-map monoid ------------------------------------------ */

/* The lifted scan's input arguments (poly_affine_io.cl's SK_IN_PARAMS). */
static void set_in(sk__args *a, const void *user)
{
    const poly_job *j = user;
    sk__arg_mem(a, j->coeffs);
    sk__arg_ulong(a, "sk_last", j->ncoef - 1);
    sk__arg_real(a, "sk_x", j->size, j->x);
}

/* Its output argument, the Horner prefixes (SK_OUT_PARAMS). */
static void set_out(sk__args *a, const void *user)
{
    sk__arg_mem(a, ((const poly_job *)user)->out);
}

/* The affine-map monoid of the job's type (kernels/poly_affine.cl) over
 * its coefficients at j->x (kernels/poly_affine_io.cl): with j->out, every
 * Horner prefix into j->out (asynchronous); else the reduction, whose c is
 * p(x), into *result (blocking). ncoef > 0. */
static sk_status affine_scan(poly_job *j, double *result)
{
    sk__str pre = {0};
    sk__str_addf(&pre, "#define SK_POLY_T %s\n#define SK_POLY_T2 %s2\n", j->cl, j->cl);
    sk__str_add(&pre, sk__source_text("poly_affine"));
    if (pre.failed) {
        sk__str_free(&pre);
        return sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "polynomial configuration");
    }
    sk_monoid m = {"SK_POLY_T2", 2 * j->size, "SK_AFFINE_IDENTITY", "SK_AFFINE_THEN(a, b)",
                   pre.buf};
    sk__scan_io sio = {sk__source_text("poly_affine_io"), set_in, j->out ? set_out : NULL, j,
                       false, NULL};
    union { float f[2]; double d[2]; } r;
    sk_status st = j->out ? sk__scan_lifted(j->ctx, &m, &sio, j->ncoef, false, NULL)
                          : sk__reduce_lifted(j->ctx, &m, &sio, j->ncoef, &r);
    if (st == SK_OK && !j->out) *result = j->type == SK_FLOAT32 ? (double)r.f[1] : r.d[1];
    sk__str_free(&pre);
    return st;
}

/* The kernels of poly.cl, one program per type. */
enum { K_HORNER_POINTS, K_HORNER_CHUNKS };
static const char *const poly_kernels[] = {"sk_poly_horner_points", "sk_poly_horner_chunks"};

SK_SCRATCH_ID(poly_parts, "polynomial: the chunks' affine maps");

static sk_status poly_program(poly_job *j, const sk__program **prog)
{
    char config[128];
    snprintf(config, sizeof config, SK_FP64_PRAGMA "#define SK_T %s\n", j->cl);
    return sk__program_get(j->ctx, "poly", config, poly_kernels, 2, prog);
}

/* (m1, c1) then (m2, c2) = (m1 m2, c1 m2 + c2), in the job's type: on the
 * host what kernels/poly_affine.cl's SK_AFFINE_THEN is on the device. */
static void affine_then(const poly_job *j, double *m, double *c, double m2, double c2)
{
    if (j->type == SK_FLOAT32) {
        float fm = (float)*m * (float)m2, fc = (float)*c * (float)m2;
        *m = fm;
        *c = (float)(fc + (float)c2);
    } else {
        double pc = *c * m2;
        *m *= m2;
        *c = pc + c2;
    }
}

/* The affine maps of the chunks that sk_poly_horner_chunks wrote, `parts`
 * pairs (x^len, Horner value) of the job's type in host memory, combined
 * in order; *result is p(x). */
static double combine_chunks(const poly_job *j, const unsigned char *host, size_t parts)
{
    double m = 1.0, c = 0.0;
    for (size_t p = 0; p < 2 * parts; p += 2) {
        double m2, c2;
        if (j->type == SK_FLOAT32) {
            float f[2];
            memcpy(f, host + p * 4, sizeof f);
            m2 = f[0];
            c2 = f[1];
        } else {
            memcpy(&m2, host + p * 8, 8);
            memcpy(&c2, host + (p + 1) * 8, 8);
        }
        affine_then(j, &m, &c, m2, c2);
    }
    return c;
}

/* One point on the CPU shape: Horner by chunks (sk_poly_horner_chunks, a
 * chunk per work-item as the CPU shape's scans split), the chunks' maps
 * read back and combined in order. It runs the affine scan's reduction
 * with each chunk's power taken by squaring instead of element by element
 * (the running power is what underflows into denormals; kernels/poly.cl). */
static sk_status eval_one_chunks(poly_job *j, const sk__tuning *t, double *result)
{
    sk_context *ctx = j->ctx;
    size_t parts = t->cpu_chunks ? t->cpu_chunks : 1;
    if (parts > j->ncoef) parts = j->ncoef;
    size_t chunk = (j->ncoef + parts - 1) / parts;
    parts = (j->ncoef + chunk - 1) / chunk;
    const sk__program *prog = NULL;
    cl_mem mem = NULL;
    unsigned char *host = malloc(2 * parts * j->size);
    sk_status st = SK_OK;
    if (!host) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "polynomial: %zu chunks", parts);
    SK_TRY(poly_program(j, &prog));
    SK_TRY(sk__scratch_get(ctx, &poly_parts, 2 * parts * j->size, &mem));
    sk__args a;
    sk__args_init(&a, ctx, prog, K_HORNER_CHUNKS);
    sk__arg_mem(&a, j->coeffs);
    sk__arg_ulong(&a, "last", j->ncoef - 1);
    sk__arg_real(&a, "x", j->size, j->x);
    sk__arg_mem(&a, mem);
    sk__arg_ulong(&a, "n", j->ncoef);
    sk__arg_ulong(&a, "chunk", chunk);
    SK_TRY(sk__args_launch(&a, parts, 1));
    SK_TRY(sk__read(ctx, mem, true, 0, 2 * parts * j->size, host));
    *result = combine_chunks(j, host, parts);
out:
    free(host);
    return st;
}

static sk_status eval_one(poly_job *j, double x, double *result)
{
    if (j->ncoef == 0) {
        *result = 0.0;
        return SK_OK;
    }
    j->x = x;
    sk__tuning t = sk__tuning_for(j->ctx, SK_FAMILY_SCAN, 2 * j->size);
    if (t.shape == SK_SHAPE_CPU) return eval_one_chunks(j, &t, result);
    return affine_scan(j, result);
}

/* ---- many points ------------------------------------------------------------------ */

static sk_status eval_points_horner(poly_job *j, cl_mem points, cl_mem values,
                                    size_t npoints)
{
    const sk__program *prog = NULL;
    sk_status st = poly_program(j, &prog);
    if (st != SK_OK) return st;
    sk__args a;
    sk__args_init(&a, j->ctx, prog, K_HORNER_POINTS);
    sk__arg_mem(&a, j->coeffs);
    sk__arg_ulong(&a, "ncoef", j->ncoef);
    sk__arg_mem(&a, points);
    sk__arg_mem(&a, values);
    sk__arg_ulong(&a, "npoints", npoints);
    return sk__args_launch_each(&a, npoints);
}

/* Few points of high degree: the scan per point, through host memory. */
static sk_status eval_points_scan(poly_job *j, cl_mem points, cl_mem values, size_t npoints)
{
    sk_context *ctx = j->ctx;
    size_t bytes = npoints * j->size;
    unsigned char *buf = malloc(bytes);
    sk_status st = SK_OK;
    if (!buf) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "%zu points", npoints);
    SK_TRY(sk__read(ctx, points, true, 0, bytes, buf));
    for (size_t k = 0; k < npoints && st == SK_OK; k++) {
        double x, r = 0;
        if (j->type == SK_FLOAT32) {
            float f;
            memcpy(&f, buf + k * 4, 4);
            x = f;
        } else {
            memcpy(&x, buf + k * 8, 8);
        }
        st = eval_one(j, x, &r);
        if (j->type == SK_FLOAT32) {
            float f = (float)r;
            memcpy(buf + k * 4, &f, 4);
        } else {
            memcpy(buf + k * 8, &r, 8);
        }
    }
    if (st == SK_OK) st = sk__write(ctx, values, true, 0, bytes, buf);
out:
    free(buf);
    return st;
}

/* ---- entry points ---------------------------------------------------------------- */

sk_status sk_poly_eval(sk_context *ctx, sk_type type, cl_mem coeffs, double x, double *result,
                       size_t ncoef)
{
    poly_job j;
    sk_status st = job_open(ctx, type, coeffs, ncoef, &j);
    if (st != SK_OK) return st;
    if (!result) return sk__fail(ctx, SK_E_INVALID_ARG, "result is NULL");
    return eval_one(&j, x, result);
}

sk_status sk_poly_eval_points(sk_context *ctx, sk_type type, cl_mem coeffs, cl_mem points,
                              cl_mem values, size_t ncoef, size_t npoints)
{
    poly_job j;
    sk_status st = SK_OK;
    SK_TRY(job_open(ctx, type, coeffs, ncoef, &j));
    SK_TRY(check_elems(&j, points, npoints, "points"));
    SK_TRY(check_elems(&j, values, npoints, "values"));
    if (npoints == 0) return SK_OK;
    /* Few points of a long polynomial: a scan per point, rather than one
     * work-item per point walking every coefficient alone (tuning.c). */
    sk__tuning t = sk__tuning_for(ctx, SK_FAMILY_POLY, j.size);
    if (npoints < t.points_scan_below && ncoef > t.points_scan_degree)
        st = eval_points_scan(&j, points, values, npoints);
    else
        st = eval_points_horner(&j, points, values, npoints);
out:
    return st;
}

sk_status sk_poly_horner_prefixes(sk_context *ctx, sk_type type, cl_mem coeffs, double x,
                                  cl_mem prefixes, size_t ncoef)
{
    poly_job j;
    sk_status st = SK_OK;
    SK_TRY(job_open(ctx, type, coeffs, ncoef, &j));
    SK_TRY(check_elems(&j, prefixes, ncoef, "prefixes"));
    if (ncoef == 0) return SK_OK;
    j.x = x;
    j.out = prefixes;
    st = affine_scan(&j, NULL);
out:
    return st;
}

/* ---- host-array forms ------------------------------------------------------------- */

sk_status sk_poly_eval_host(sk_context *ctx, sk_type type, const void *coeffs, double x,
                            double *result, size_t ncoef)
{
    if (!ctx) return SK_E_INVALID_ARG;
    size_t bytes = 0;
    cl_mem c = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, ncoef, sk_type_size(type), &bytes));
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, coeffs, bytes, 1, &c));
    st = sk_poly_eval(ctx, type, c, x, result, ncoef);
out:
    return st;
}

sk_status sk_poly_eval_points_host(sk_context *ctx, sk_type type, const void *coeffs,
                                   const void *points, void *values, size_t ncoef,
                                   size_t npoints)
{
    if (!ctx) return SK_E_INVALID_ARG;
    size_t cbytes = 0, pbytes = 0;
    cl_mem c = NULL, p = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, ncoef, sk_type_size(type), &cbytes));
    SK_TRY(sk__byte_size(ctx, npoints, sk_type_size(type), &pbytes));
    if (npoints && !values) return sk__fail(ctx, SK_E_INVALID_ARG, "values is NULL");
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, coeffs, cbytes, 1, &c));
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host_values, points, pbytes, 1, &p));
    SK_TRY(sk_poly_eval_points(ctx, type, c, p, p, ncoef, npoints));
    if (pbytes) SK_TRY(sk__download(ctx, p, 0, values, pbytes));
out:
    return st;
}

sk_status sk_poly_horner_prefixes_host(sk_context *ctx, sk_type type, const void *coeffs,
                                       double x, void *prefixes, size_t ncoef)
{
    if (!ctx) return SK_E_INVALID_ARG;
    size_t bytes = 0;
    cl_mem c = NULL, out_mem = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, ncoef, sk_type_size(type), &bytes));
    if (ncoef && !prefixes) return sk__fail(ctx, SK_E_INVALID_ARG, "prefixes is NULL");
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, coeffs, bytes, 1, &c));
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, bytes, &out_mem));
    SK_TRY(sk_poly_horner_prefixes(ctx, type, c, x, out_mem, ncoef));
    if (bytes) SK_TRY(sk__download(ctx, out_mem, 0, prefixes, bytes));
out:
    return st;
}
