/*
 * test_scan_monoid.c - the custom-monoid scans and reduces
 * (sk_scan_*_monoid, sk_reduce_monoid and their host forms) against the
 * serial references, and the errors of every scan entry point.
 *
 * Custom monoids: 2x2 matrices modulo 2^32 (not commutative), a struct of
 * affine maps, the matrices with identity and combine over several lines;
 * each shape x tile setting of test_scan.c (and ~2^21 elements) is a case
 * of its own. Errors: bad arguments and monoids give SK_E_INVALID_ARG,
 * overflowing sizes SK_E_SIZE, bitwise ops on floats and float64 without
 * fp64 SK_E_UNSUPPORTED, a monoid that does not compile SK_E_BUILD with a
 * log; none of them writes an output, and the context stays usable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_scan.h"

TestSuite(scan_monoid, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(scan_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* ---- custom monoids --------------------------------------------------------------------- */

/* MONO_MAT2_LINES: the matrices with identity and combine over several
 * lines (skt_monoid_mat2_lines). */
typedef enum { MONO_MAT2, MONO_MAT2_LINES, MONO_AFFINE } mono_kind;

static const sk_monoid *mono_of(mono_kind k)
{
    switch (k) {
    case MONO_MAT2: return skt_monoid_mat2();
    case MONO_MAT2_LINES: return skt_monoid_mat2_lines();
    case MONO_AFFINE: break;
    }
    return skt_monoid_affine();
}

static void fill_mono(mono_kind k, void *dst, size_t n)
{
    if (k == MONO_AFFINE)
        skt_fill_affine(dst, n);
    else
        skt_fill_mat2(dst, n);
}

static void ref_mono(mono_kind k, int excl, const void *src, void *dst, size_t n)
{
    if (k == MONO_AFFINE)
        skt_ref_affine_scan(excl, src, dst, n);
    else
        skt_ref_mat2_scan(excl, src, dst, n);
}

static void ref_mono_reduce(mono_kind k, const void *src, size_t n, void *out)
{
    if (k == MONO_AFFINE) {
        skt_affine r = skt_ref_affine_reduce(src, n);
        memcpy(out, &r, sizeof r);
    } else {
        skt_mat2 r = skt_ref_mat2_reduce(src, n);
        memcpy(out, &r, sizeof r);
    }
}

static void check_mono(mono_kind k, int excl, size_t n, int in_place, const char *cfg)
{
    const sk_monoid *m = mono_of(k);
    size_t es = m->size, span = (n + SKT_GUARD) * es;
    const char *what = skt_fmt("monoid %s %s n=%zu %s%s", m->type,
                               excl ? "exclusive" : "inclusive", n, cfg,
                               in_place ? " in place" : "");
    skt_bufs_reserve(span);
    fill_mono(k, skt_bufs.h_src, n);
    ref_mono(k, excl, skt_bufs.h_src, skt_bufs.h_ref, n);
    skt_buf_upload(skt_bufs.src, 0, skt_bufs.h_src, n * es);
    cl_mem dst = in_place ? skt_bufs.src : skt_bufs.dst;
    if (in_place) {
        unsigned char p = SKT_POISON_BYTE;
        skt_buf_fill(skt_bufs.src, &p, 1, n * es, SKT_GUARD * es);
    } else {
        skt_buf_poison(skt_bufs.dst, span);
    }
    sk_status st = excl ? sk_scan_exclusive_monoid(skt_ctx, m, skt_bufs.src, dst, n)
                        : sk_scan_inclusive_monoid(skt_ctx, m, skt_bufs.src, dst, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(dst, 0, skt_bufs.h_out, span);
    skt_expect_bytes(skt_bufs.h_out, skt_bufs.h_ref, n, es, what);
    cr_assert_eq(skt_find_unpoisoned(skt_bufs.h_out + n * es, SKT_GUARD * es), (size_t)-1,
                 "%s: wrote past n [seed %llu]", what, (unsigned long long)skt_seed());
    if (!in_place) {
        skt_buf_download(skt_bufs.src, 0, skt_bufs.h_out, n * es);
        cr_assert_eq(memcmp(skt_bufs.h_out, skt_bufs.h_src, n * es), 0, "%s: input modified", what);
    }

    /* reduce of the same input */
    if (!in_place) {
        unsigned char want[16], got[32];
        ref_mono_reduce(k, skt_bufs.h_src, n, want);
        skt_poison(got, sizeof got);
        st = sk_reduce_monoid(skt_ctx, m, skt_bufs.src, got, n);
        cr_assert_eq(st, SK_OK, "reduce %s -> %s (%s)", what, sk_status_name(st),
                     sk_context_error_detail(skt_ctx));
        skt_expect_bytes(got, want, 1, es, skt_fmt("reduce %s", what));
        cr_assert_eq(skt_find_unpoisoned(got + es, sizeof got - es), (size_t)-1,
                     "reduce %s: wrote past the result", what);
    }
}

/* One shape, tile setting c of SKT_TILE_CFGS at its every size (inclusive
 * and exclusive, in place and out of place alternately), or (c ==
 * SKT_N_TILE_CFGS) ~2^21 elements with the default tiles. */
static void monoid_edges(mono_kind k, sk_shape shape, size_t c)
{
    skt_force_shape(shape);
    if (c == SKT_N_TILE_CFGS) {
        skt_tiles_default();
        check_mono(k, 0, ((size_t)1 << 21) + 17, 0, skt_cfg_name(shape, &SKT_TILE_CFGS[0]).s);
        check_mono(k, 1, ((size_t)1 << 21) + 17, 1, skt_cfg_name(shape, &SKT_TILE_CFGS[0]).s);
        return;
    }
    skt_sizes sizes = skt_tiles_use(shape, c);
    const skt_label cfg = skt_cfg_name(shape, &SKT_TILE_CFGS[c]);
    for (int excl = 0; excl < 2; excl++)
        for (size_t i = 0; i < sizes.count; i++)
            check_mono(k, excl, sizes.v[i], (int)((i + excl) & 1), cfg.s);
}

#define MONOID_AXES ((skt_axes){.shapes = SKT_BOTH_SHAPES, .classes = SKT_N_TILE_CFGS + 1})

ParameterizedTestParameters(scan_monoid, matrix_product_should_match_reference)
{
    return skt_cases(MONOID_AXES, NULL);
}

ParameterizedTest(skt_case *c, scan_monoid, matrix_product_should_match_reference)
{
    skt_case_begin(c);
    monoid_edges(MONO_MAT2, c->shape, (size_t)c->size_class);
}

ParameterizedTestParameters(scan_monoid, struct_affine_maps_should_match_reference)
{
    return skt_cases(MONOID_AXES, NULL);
}

ParameterizedTest(skt_case *c, scan_monoid, struct_affine_maps_should_match_reference)
{
    skt_case_begin(c);
    monoid_edges(MONO_AFFINE, c->shape, (size_t)c->size_class);
}

/* Identity and combine over several lines with // comments: they build,
 * and scan and reduce as the one-line matrix monoid does, in every program
 * (single work-group or work-item, tiles or chunks, several levels): each
 * shape with the default and the small tiles. */
ParameterizedTestParameters(scan_monoid, expressions_over_several_lines_should_match_reference_in_both_shapes)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES, .classes = 2}, NULL);
}

ParameterizedTest(skt_case *c, scan_monoid, expressions_over_several_lines_should_match_reference_in_both_shapes)
{
    static const size_t sizes[] = {1, 1000, 65537, 270000};
    size_t k = (size_t)c->size_class;
    skt_case_begin(c);
    skt_force_shape(c->shape);
    skt_tiles_apply(&SKT_TILE_CFGS[k]);
    const skt_label cfg = skt_cfg_name(c->shape, &SKT_TILE_CFGS[k]);
    for (int excl = 0; excl < 2; excl++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            if (sizes[i] <= SKT_TILE_CFGS[k].max_n)
                check_mono(MONO_MAT2_LINES, excl, sizes[i], (int)((i + excl) & 1), cfg.s);
    skt_tiles_default();
}

ParameterizedTestParameters(scan_monoid, host_forms_should_match_reference)
{
    return skt_cases((skt_axes){.shapes = SKT_BOTH_SHAPES}, NULL);
}

ParameterizedTest(skt_case *c, scan_monoid, host_forms_should_match_reference)
{
    static const size_t sizes[] = {0, 1, 2, 1000, 65537};
    skt_mat2 *src = skt_malloc(70000 * sizeof *src), *ref = skt_malloc(70000 * sizeof *ref),
             *out = skt_malloc((70000 + SKT_GUARD) * sizeof *out);
    const sk_monoid *m = skt_monoid_mat2();
    skt_case_begin(c);
    skt_force_shape(c->shape);
    for (int excl = 0; excl < 2; excl++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t n = sizes[i];
            const char *what = skt_fmt("monoid host %s n=%zu %s shape",
                                       excl ? "exclusive" : "inclusive", n,
                                       skt_shape_name(c->shape));
            skt_fill_mat2(src, n);
            skt_ref_mat2_scan(excl, src, ref, n);
            skt_poison(out, (n + SKT_GUARD) * sizeof *out);
            SKT_OK(excl ? sk_scan_exclusive_monoid_host(skt_ctx, m, src, out, n)
                        : sk_scan_inclusive_monoid_host(skt_ctx, m, src, out, n));
            skt_expect_bytes(out, ref, n, sizeof *out, what);
            cr_assert_eq(skt_find_unpoisoned(out + n, SKT_GUARD * sizeof *out), (size_t)-1,
                         "%s: wrote past n", what);
            skt_mat2 want = skt_ref_mat2_reduce(src, n), got;
            SKT_OK(sk_reduce_monoid_host(skt_ctx, m, src, &got, n));
            skt_expect_bytes(&got, &want, 1, sizeof got, skt_fmt("reduce %s", what));
            /* in place */
            SKT_OK(excl ? sk_scan_exclusive_monoid_host(skt_ctx, m, src, src, n)
                        : sk_scan_inclusive_monoid_host(skt_ctx, m, src, src, n));
            skt_expect_bytes(src, ref, n, sizeof *out, skt_fmt("%s in place", what));
        }
    free(src);
    free(ref);
    free(out);
}

Test(scan_monoid, reduce_of_zero_elements_should_be_the_identity)
{
    cl_mem s = skt_buf_new(64);
    skt_mat2 got, want = skt_ref_mat2_identity();
    skt_poison(&got, sizeof got);
    SKT_OK(sk_reduce_monoid(skt_ctx, skt_monoid_mat2(), s, &got, 0));
    skt_expect_bytes(&got, &want, 1, sizeof got, "mat2 reduce n=0");
    skt_affine ga, wa = skt_ref_affine_identity();
    skt_poison(&ga, sizeof ga);
    SKT_OK(sk_reduce_monoid(skt_ctx, skt_monoid_affine(), s, &ga, 0));
    skt_expect_bytes(&ga, &wa, 1, sizeof ga, "affine reduce n=0");
    skt_buf_free(s);
}

/* A working check that the context is still usable: a uint32 add scan. */
static void expect_context_still_works(const char *after)
{
    skt_tiles_default();
    skt_label cfg;
    snprintf(cfg.s, sizeof cfg.s, "after %s", after);
    skt_check_scan(SK_UINT32, SK_OP_ADD, 0, 10007, 0, cfg.s);
    check_mono(MONO_MAT2, 1, 1001, 0, cfg.s);
}

Test(scan_monoid, syntax_error_should_give_build_error_with_a_log_and_keep_the_context_usable)
{
    sk_monoid bad = *skt_monoid_mat2();
    bad.combine = "skt_mat2_mul(a, b) +* ;";
    cl_mem s = skt_buf_new(100 * 16), d = skt_buf_new(100 * 16);
    unsigned char out[100 * 16], res[32];
    skt_buf_poison(d, sizeof out);
    skt_poison(res, sizeof res);

    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &bad, s, d, 100), SK_E_BUILD);
    const char *log = sk_context_build_log(skt_ctx);
    cr_assert_not_null(log);
    cr_assert_gt(strlen(log), 0, "build log is empty after SK_E_BUILD");
    cr_assert_gt(strlen(sk_context_error_detail(skt_ctx)), 0,
                 "error detail is empty after SK_E_BUILD");
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid(skt_ctx, &bad, s, d, 100), SK_E_BUILD);
    SKT_EXPECT_STATUS(sk_reduce_monoid(skt_ctx, &bad, s, res, 100), SK_E_BUILD);

    /* An undefined function in the identity, a bad preamble. */
    sk_monoid bad2 = *skt_monoid_mat2();
    bad2.identity = "no_such_function_xyz()";
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &bad2, s, d, 100), SK_E_BUILD);
    cr_assert_gt(strlen(sk_context_build_log(skt_ctx)), 0);
    sk_monoid bad3 = *skt_monoid_mat2();
    bad3.preamble = "this is not OpenCL C";
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &bad3, s, d, 100), SK_E_BUILD);
    cr_assert_gt(strlen(sk_context_build_log(skt_ctx)), 0);

    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1,
                 "a failed build wrote to the output buffer");
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1,
                 "a failed build wrote to the reduce result");
    skt_buf_free(s);
    skt_buf_free(d);

    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        expect_context_still_works("a failed build");
    }
}

Test(scan_monoid, size_that_disagrees_with_the_device_should_give_build_error)
{
    cl_mem s = skt_buf_new(100 * 16), d = skt_buf_new(100 * 16);
    unsigned char out[100 * 16];
    skt_buf_poison(d, sizeof out);

    sk_monoid m = *skt_monoid_interval(); /* int2: 8 bytes */
    m.size = 4;
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &m, s, d, 100), SK_E_BUILD);
    m.size = 16;
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid(skt_ctx, &m, s, d, 100), SK_E_BUILD);

    /* int3 is 16 bytes in OpenCL C, 12 would be the naive host guess. */
    sk_monoid m3 = {"int3", 12, "(int3)(0, 0, 0)", "a + b", NULL};
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &m3, s, d, 100), SK_E_BUILD);

    sk_monoid aff = *skt_monoid_affine(); /* 12-byte struct */
    aff.size = 16;
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(skt_ctx, &aff, s, d, 100), SK_E_BUILD);
    unsigned char res[32];
    SKT_EXPECT_STATUS(sk_reduce_monoid(skt_ctx, &aff, s, res, 100), SK_E_BUILD);

    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1,
                 "a size mismatch wrote to the output buffer");
    skt_buf_free(s);
    skt_buf_free(d);
    expect_context_still_works("a size mismatch");
}

/* ---- errors ------------------------------------------------------------------------------- */

#define BAD_N 100

/* dst (BAD_N uint32s) must still be poisoned. */
static void expect_untouched(cl_mem d, const char *after)
{
    unsigned char out[BAD_N * 8];
    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1,
                 "the output buffer was written by a call that failed (%s)", after);
}

/* expect_untouched, the reduce result `res` and the host output `hout` still
 * poisoned too; then frees s and d. */
static void expect_none_written(cl_mem s, cl_mem d, const void *res, size_t res_bytes,
                                const void *hout, size_t hout_bytes, const char *after)
{
    expect_untouched(d, after);
    cr_assert_eq(skt_find_unpoisoned(res, res_bytes), (size_t)-1, "%s: wrote *result", after);
    cr_assert_eq(skt_find_unpoisoned(hout, hout_bytes), (size_t)-1, "%s: wrote dst", after);
    skt_buf_free(s);
    skt_buf_free(d);
}

Test(scan_errors, bad_arguments_should_give_invalid_arg_and_leave_the_output_untouched)
{
    cl_mem s = skt_buf_new(BAD_N * 8), d = skt_buf_new(BAD_N * 8);
    unsigned char in[BAD_N * 8];
    skt_fill(SK_UINT32, SK_OP_ADD, in, BAD_N * 2);
    skt_buf_upload(s, 0, in, sizeof in);
    skt_buf_poison(d, BAD_N * 8);
    sk_context *c = skt_ctx;
    const sk_type bad_types[] = {(sk_type)-1, (sk_type)SK_KEY_TYPE_COUNT, (sk_type)1000};
    const sk_op bad_ops[] = {(sk_op)-1, (sk_op)SK_OP_COUNT, (sk_op)1000};

    for (int excl = 0; excl < 2; excl++) {
#define SCAN(ctx_, t_, op_, s_, d_, n_)                                                     \
    (excl ? sk_scan_exclusive(ctx_, t_, op_, s_, d_, n_) : sk_scan_inclusive(ctx_, t_, op_, s_, d_, n_))
        SKT_EXPECT_STATUS(SCAN(NULL, SK_UINT32, SK_OP_ADD, s, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, NULL, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, s, NULL, 10), SK_E_INVALID_ARG);
        for (int i = 0; i < 3; i++) {
            SKT_EXPECT_STATUS(SCAN(c, bad_types[i], SK_OP_ADD, s, d, 10), SK_E_INVALID_ARG);
            SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, bad_ops[i], s, d, 10), SK_E_INVALID_ARG);
        }
        /* n larger than either buffer (both hold BAD_N * 8 bytes). */
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, s, d, BAD_N * 2 + 1), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT64, SK_OP_ADD, s, d, BAD_N + 1), SK_E_INVALID_ARG);
        cl_mem small = skt_buf_new(8 * 4);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, small, d, 9), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(SCAN(c, SK_UINT32, SK_OP_ADD, s, small, 9), SK_E_INVALID_ARG);
        skt_buf_free(small);
#undef SCAN
    }
    expect_untouched(d, "scan with bad arguments");

    /* reduce */
    unsigned char res[16];
    skt_poison(res, sizeof res);
    SKT_EXPECT_STATUS(sk_reduce(NULL, SK_UINT32, SK_OP_ADD, s, res, 10), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, SK_OP_ADD, NULL, res, 10), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, SK_OP_ADD, s, NULL, 10), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, (sk_type)-1, SK_OP_ADD, s, res, 10), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, (sk_op)SK_OP_COUNT, s, res, 10),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT32, SK_OP_ADD, s, res, BAD_N * 2 + 1),
                      SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1,
                 "reduce wrote *result on failure");

    /* host forms */
    unsigned char hin[BAD_N * 4], hout[BAD_N * 4];
    skt_fill(SK_UINT32, SK_OP_ADD, hin, BAD_N);
    skt_poison(hout, sizeof hout);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(NULL, SK_UINT32, SK_OP_ADD, hin, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT32, SK_OP_ADD, NULL, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_host(c, SK_UINT32, SK_OP_ADD, hin, NULL, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_host(c, (sk_type)99, SK_OP_ADD, hin, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT32, (sk_op)99, hin, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_host(c, SK_UINT32, SK_OP_ADD, NULL, res, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_host(c, SK_UINT32, SK_OP_ADD, hin, NULL, BAD_N),
                      SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(hout, sizeof hout), (size_t)-1,
                 "a host-form scan wrote dst on failure");
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);

    /* The error detail says something; a later good call clears it. */
    SKT_EXPECT_STATUS(sk_scan_inclusive(c, (sk_type)-1, SK_OP_ADD, s, d, 10),
                      SK_E_INVALID_ARG);
    cr_assert_gt(strlen(sk_context_error_detail(c)), 0,
                 "no error detail after SK_E_INVALID_ARG");
    cr_assert_eq(sk_context_cl_error(c), CL_SUCCESS,
                 "cl_error is set after a non-OpenCL failure");
    expect_untouched(d, "scan with bad arguments");
    skt_buf_free(s);
    skt_buf_free(d);
    expect_context_still_works("bad arguments");
    cr_assert_str_eq(sk_context_error_detail(c), "", "error detail not cleared by success");
}

/* n whose byte size overflows size_t: the header promises SK_E_SIZE. It must
 * never wrap into a small byte count that passes the buffer-size check. */
Test(scan_errors, n_whose_byte_size_overflows_should_give_size)
{
    cl_mem s = skt_buf_new(BAD_N * 16), d = skt_buf_new(BAD_N * 16);
    skt_buf_poison(d, BAD_N * 8);
    sk_context *c = skt_ctx;
    const size_t huge8 = SIZE_MAX / 8 + 2; /* huge8 * 8 wraps to 8 */
    unsigned char res[16], hin[64], hout[64];
    memset(hin, 0, sizeof hin);
    skt_poison(res, sizeof res);
    skt_poison(hout, sizeof hout);
    SKT_EXPECT_STATUS(sk_scan_inclusive(c, SK_UINT64, SK_OP_ADD, s, d, huge8), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_exclusive(c, SK_UINT64, SK_OP_ADD, s, d, huge8), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_inclusive(c, SK_UINT32, SK_OP_ADD, s, d, SIZE_MAX), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_reduce(c, SK_UINT64, SK_OP_ADD, s, res, huge8), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid(c, skt_monoid_mat2(), s, d, SIZE_MAX / 16 + 2),
                      SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT64, SK_OP_ADD, hin, hout, huge8),
                      SK_E_SIZE);
    expect_none_written(s, d, res, sizeof res, hout, sizeof hout, "n * size overflows");
}

Test(scan_errors, bad_monoids_should_give_invalid_arg_and_leave_the_output_untouched)
{
    cl_mem s = skt_buf_new(BAD_N * 16), d = skt_buf_new(BAD_N * 16);
    skt_buf_poison(d, BAD_N * 8);
    sk_context *c = skt_ctx;
    const sk_monoid good = *skt_monoid_mat2();
    sk_monoid m;
    unsigned char res[32];
    skt_poison(res, sizeof res);

    for (int excl = 0; excl < 2; excl++) {
#define MSCAN(ctx_, m_, s_, d_, n_)                                                         \
    (excl ? sk_scan_exclusive_monoid(ctx_, m_, s_, d_, n_)                                 \
          : sk_scan_inclusive_monoid(ctx_, m_, s_, d_, n_))
        SKT_EXPECT_STATUS(MSCAN(NULL, &good, s, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(MSCAN(c, NULL, s, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(MSCAN(c, &good, NULL, d, 10), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(MSCAN(c, &good, s, NULL, 10), SK_E_INVALID_ARG);
        m = good; m.type = NULL;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        m = good; m.identity = NULL;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        m = good; m.combine = NULL;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        m = good; m.size = 0;
        SKT_EXPECT_STATUS(MSCAN(c, &m, s, d, 10), SK_E_INVALID_ARG);
        /* buffers hold BAD_N 16-byte elements */
        SKT_EXPECT_STATUS(MSCAN(c, &good, s, d, BAD_N + 1), SK_E_INVALID_ARG);
#undef MSCAN
    }
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, NULL, s, res, 10), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &good, s, NULL, 10), SK_E_INVALID_ARG);
    m = good; m.size = 0;
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &m, s, res, 10), SK_E_INVALID_ARG);
    m = good; m.combine = NULL;
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &m, s, res, 10), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_monoid(c, &good, s, res, BAD_N + 1), SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);

    unsigned char hin[BAD_N * 16], hout[BAD_N * 16];
    skt_poison(hout, sizeof hout);
    memset(hin, 0, sizeof hin);
    m = good; m.identity = NULL;
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid_host(c, &m, hin, hout, BAD_N), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid_host(c, &good, NULL, hout, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_exclusive_monoid_host(c, &good, hin, NULL, BAD_N),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_monoid_host(c, &good, NULL, res, BAD_N), SK_E_INVALID_ARG);
    cr_assert_eq(skt_find_unpoisoned(hout, sizeof hout), (size_t)-1);

    expect_untouched(d, "monoid scan with bad arguments");
    skt_buf_free(s);
    skt_buf_free(d);
    expect_context_still_works("bad monoid arguments");
}

Test(scan_errors, bitwise_ops_on_floats_should_be_unsupported)
{
    cl_mem s = skt_buf_new(BAD_N * 8), d = skt_buf_new(BAD_N * 8);
    skt_buf_poison(d, BAD_N * 8);
    unsigned char res[16], hin[BAD_N * 8], hout[BAD_N * 8];
    memset(hin, 0, sizeof hin);
    skt_poison(res, sizeof res);
    skt_poison(hout, sizeof hout);
    const sk_type ft[] = {SK_FLOAT32, SK_FLOAT64};
    const sk_op bops[] = {SK_OP_AND, SK_OP_OR, SK_OP_XOR};
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
                SKT_EXPECT_STATUS(sk_scan_inclusive(skt_ctx, ft[i], bops[j], s, d, 10),
                                  SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(sk_scan_exclusive(skt_ctx, ft[i], bops[j], s, d, 10),
                                  SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(sk_reduce(skt_ctx, ft[i], bops[j], s, res, 10),
                                  SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(
                    sk_scan_inclusive_host(skt_ctx, ft[i], bops[j], hin, hout, 10),
                    SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(
                    sk_scan_exclusive_host(skt_ctx, ft[i], bops[j], hin, hout, 10),
                    SK_E_UNSUPPORTED);
                SKT_EXPECT_STATUS(sk_reduce_host(skt_ctx, ft[i], bops[j], hin, res, 10),
                                  SK_E_UNSUPPORTED);
            }
    }
    expect_none_written(s, d, res, sizeof res, hout, sizeof hout, "bitwise op on floats");
}

Test(scan_errors, float64_without_fp64_should_be_unsupported_else_work)
{
    /* On a device with fp64 this checks a float64 scan works; without, it
     * checks SK_E_UNSUPPORTED everywhere and skips. */
    skt_skip_unless_fp64();
    skt_check_scan(SK_FLOAT64, SK_OP_ADD, 0, 1000, 0, "fp64 device");
}
