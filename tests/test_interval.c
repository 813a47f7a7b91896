/*
 * test_interval.c - the interval-of-summations test of VERIFY.md (Chong,
 * Donaldson, Ketema, POPL 2014) for every scan variant.
 *
 * The monoid: intervals (i, j) standing for in_i + ... + in_j, the identity
 * and top, encoded as int2 with identity (-1, -1) and top (-2, -2):
 *   1 + x = x + 1 = x;  T + x = x + T = T;
 *   (i1, j1) + (i2, j2) = (i1, j2) if j1 + 1 == i2, T otherwise.
 * Input in[k] = (k, k); outputs are poisoned with T. Expected: inclusive
 * out[k] = (0, k); exclusive out[0] = identity, out[k] = (0, k - 1). A swapped
 * operand, a dropped or doubled element or a wrong order ends in T or in a
 * wrong interval. For a kernel that is generic in the element type, race free
 * and synchronised by barriers only, passing at n proves the scan correct at n
 * for every monoid.
 *
 * Covered: every n in 0..4096 and 20 random n up to 2^24 (drawn from the
 * printed seed), both shapes, inclusive and exclusive, in place and out of
 * place, default tiles and forced small tiles (GPU work-group 4 x 2 items,
 * CPU 3 chunks, no serial path) so that small n spans many work-groups and
 * several recursion levels; and sk_reduce_monoid, which must give (0, n-1).
 *
 * int2 holds indices below 2^31: n >= 2^31 would need a long2 encoding (same
 * combine on long2, identity (-1,-1), top (-2,-2)); not needed at these sizes
 * (2^31 int2 elements would be 16 GiB, beyond the test devices).
 *
 * Speed: the n = 0..4096 scans of one variant are enqueued back to back, each
 * into its own sub-buffer of one big output buffer (each n is still its own
 * scan call), then read back once and checked. Every region is followed by at
 * least PAD elements of T that must stay T (writes past n).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

TestSuite(interval, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);

#define SMALL_MAX 4096      /* every n in 0..SMALL_MAX */
#define LARGE_MAX ((size_t)1 << 24)
#define N_LARGE 20
#define PAD 16              /* elements after n that must stay top */

typedef skt_interval iv;

static const iv TOP = {SKT_IV_TOP_I, SKT_IV_TOP_I};

static iv expected(int excl, size_t k)
{
    iv r;
    if (excl && k == 0) {
        r.i = r.j = SKT_IV_IDENTITY_I;
    } else {
        r.i = 0;
        r.j = (int32_t)(excl ? k - 1 : k);
    }
    return r;
}

static int iv_eq(iv a, iv b) { return a.i == b.i && a.j == b.j; }

static sk_status scan_iv(int excl, cl_mem s, cl_mem d, size_t n)
{
    const sk_monoid *m = skt_monoid_interval();
    return excl ? sk_scan_exclusive_monoid(skt_ctx, m, s, d, n)
                : sk_scan_inclusive_monoid(skt_ctx, m, s, d, n);
}

static void apply_variant(sk_shape shape, int small)
{
    skt_force_shape(shape);
    if (small)
        skt_tiles_small();
    else
        skt_tiles_default();
}

static const char *variant_name(sk_shape shape, int small, int excl, int in_place)
{
    return skt_fmt("%s shape, %s tiles, %s, %s", skt_shape_name(shape),
                   small ? "small (wg 4 x 2, 3 chunks)" : "default",
                   excl ? "exclusive" : "inclusive", in_place ? "in place" : "out of place");
}

/* Checks out[0..n) against the expected intervals and out[n..len) for top.
 * Returns the first bad index, or (size_t)-1. */
static size_t check_region(const iv *out, size_t n, size_t len, int excl)
{
    for (size_t k = 0; k < n; k++)
        if (!iv_eq(out[k], expected(excl, k)))
            return k;
    for (size_t k = n; k < len; k++)
        if (!iv_eq(out[k], TOP))
            return k;
    return (size_t)-1;
}

/* Input intervals (k, k) for k in [0, n). */
static void fill_input(iv *p, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        p[k].i = (int32_t)k;
        p[k].j = (int32_t)k;
    }
}

static size_t base_align_bytes(void)
{
    cl_uint bits = 0;
    cl_int err = clGetDeviceInfo(sk_context_cl_device(skt_ctx), CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                 sizeof bits, &bits, NULL);
    cr_assert_eq(err, CL_SUCCESS);
    size_t bytes = bits / 8;
    return bytes < sizeof(iv) ? sizeof(iv) : bytes;
}

/* ---- every n in 0..SMALL_MAX, batched -------------------------------------------- */

typedef struct {
    size_t off[SMALL_MAX + 1]; /* element offset of region n */
    size_t len[SMALL_MAX + 1]; /* elements in region n (>= n + PAD) */
    size_t total;
    cl_mem big, big_init, in;
    cl_mem sub[SMALL_MAX + 1];
    iv *host;
} batch;

static batch *batch_new(void)
{
    batch *b = skt_malloc(sizeof *b);
    memset(b, 0, sizeof *b);
    size_t align = base_align_bytes() / sizeof(iv); /* elements */
    size_t off = 0;
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        size_t len = (n + PAD + align - 1) / align * align;
        b->off[n] = off;
        b->len[n] = len;
        off += len;
    }
    b->total = off;
    size_t bytes = b->total * sizeof(iv);
    b->big = skt_buf_new(bytes);
    b->big_init = skt_buf_new(bytes);
    b->in = skt_buf_new(SMALL_MAX * sizeof(iv));
    b->host = skt_malloc(bytes);

    /* In-place layout: each region holds (k, k) then top. */
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        fill_input(b->host + b->off[n], n);
        for (size_t k = n; k < b->len[n]; k++)
            b->host[b->off[n] + k] = TOP;
    }
    skt_buf_upload(b->big_init, 0, b->host, bytes);
    fill_input(b->host, SMALL_MAX);
    skt_buf_upload(b->in, 0, b->host, SMALL_MAX * sizeof(iv));

    for (size_t n = 0; n <= SMALL_MAX; n++) {
        cl_buffer_region r = {b->off[n] * sizeof(iv), b->len[n] * sizeof(iv)};
        cl_int err = CL_SUCCESS;
        b->sub[n] = clCreateSubBuffer(b->big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                      &r, &err);
        cr_assert_eq(err, CL_SUCCESS, "clCreateSubBuffer(n=%zu) -> %s", n,
                     sk_cl_error_name(err));
    }
    return b;
}

static void batch_free(batch *b)
{
    for (size_t n = 0; n <= SMALL_MAX; n++)
        skt_buf_free(b->sub[n]);
    skt_buf_free(b->big);
    skt_buf_free(b->big_init);
    skt_buf_free(b->in);
    free(b->host);
    free(b);
}

static void run_small(batch *b, sk_shape shape, int small, int excl, int in_place)
{
    const char *what = variant_name(shape, small, excl, in_place);
    size_t bytes = b->total * sizeof(iv);
    cl_command_queue q = sk_context_cl_queue(skt_ctx);

    if (in_place) {
        cl_int err = clEnqueueCopyBuffer(q, b->big_init, b->big, 0, 0, bytes, 0, NULL, NULL);
        cr_assert_eq(err, CL_SUCCESS, "clEnqueueCopyBuffer -> %s", sk_cl_error_name(err));
    } else {
        skt_buf_fill(b->big, &TOP, sizeof TOP, 0, bytes);
    }
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        cl_mem src = in_place ? b->sub[n] : b->in;
        sk_status st = scan_iv(excl, src, b->sub[n], n);
        cr_assert_eq(st, SK_OK, "%s n=%zu -> %s (%s) [seed %llu]", what, n, sk_status_name(st),
                     sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    }
    skt_buf_download(b->big, 0, b->host, bytes);

    size_t nbad = 0, first_n = 0, first_k = 0;
    for (size_t n = 0; n <= SMALL_MAX; n++) {
        size_t k = check_region(b->host + b->off[n], n, b->len[n], excl);
        if (k != (size_t)-1) {
            if (nbad++ == 0) {
                first_n = n;
                first_k = k;
            }
        }
    }
    if (nbad) {
        iv got = b->host[b->off[first_n] + first_k];
        iv want = first_k < first_n ? expected(excl, first_k) : TOP;
        cr_assert_fail("%s: %zu of %d sizes wrong; first n=%zu: out[%zu] = (%d, %d), "
                       "expected (%d, %d)%s [seed %llu]",
                       what, nbad, SMALL_MAX + 1, first_n, first_k, got.i, got.j, want.i,
                       want.j, first_k >= first_n ? " (written past n)" : "",
                       (unsigned long long)skt_seed());
    }
    if (!in_place) {
        iv *in = skt_malloc(SMALL_MAX * sizeof(iv));
        skt_buf_download(b->in, 0, in, SMALL_MAX * sizeof(iv));
        for (size_t k = 0; k < SMALL_MAX; k++)
            cr_assert(in[k].i == (int32_t)k && in[k].j == (int32_t)k,
                      "%s: input element %zu modified", what, k);
        free(in);
    }
}

static void every_small_n(sk_shape shape, int small)
{
    batch *b = batch_new();
    apply_variant(shape, small);
    for (int excl = 0; excl < 2; excl++)
        for (int in_place = 0; in_place < 2; in_place++)
            run_small(b, shape, small, excl, in_place);
    batch_free(b);
}

Test(interval, every_n_up_to_4096_should_scan_to_contiguous_intervals_in_cpu_shape)
{
    every_small_n(SK_SHAPE_CPU, 0);
}

Test(interval, every_n_up_to_4096_should_scan_to_contiguous_intervals_in_cpu_shape_with_small_tiles)
{
    every_small_n(SK_SHAPE_CPU, 1);
}

Test(interval, every_n_up_to_4096_should_scan_to_contiguous_intervals_in_gpu_shape)
{
    every_small_n(SK_SHAPE_GPU, 0);
}

Test(interval, every_n_up_to_4096_should_scan_to_contiguous_intervals_in_gpu_shape_with_small_tiles)
{
    every_small_n(SK_SHAPE_GPU, 1);
}

/* ---- reduce: (0, n-1), identity for n = 0 ------------------------------------------ */

Test(interval, every_n_up_to_4096_should_reduce_to_the_whole_interval)
{
    iv *in = skt_malloc(SMALL_MAX * sizeof(iv));
    fill_input(in, SMALL_MAX);
    cl_mem s = skt_buf_new(SMALL_MAX * sizeof(iv));
    skt_buf_upload(s, 0, in, SMALL_MAX * sizeof(iv));
    free(in);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++)
        for (int small = 0; small < 2; small++) {
            apply_variant((sk_shape)shape, small);
            const char *what = skt_fmt("reduce, %s shape, %s tiles", skt_shape_name((sk_shape)shape),
                                       small ? "small" : "default");
            for (size_t n = 0; n <= SMALL_MAX; n++) {
                iv got[2] = {TOP, TOP};
                sk_status st = sk_reduce_monoid(skt_ctx, skt_monoid_interval(), s, n, got);
                cr_assert_eq(st, SK_OK, "%s n=%zu -> %s (%s)", what, n, sk_status_name(st),
                             sk_context_error_detail(skt_ctx));
                iv want = n ? (iv){0, (int32_t)n - 1} : (iv){-1, -1};
                cr_assert(iv_eq(got[0], want), "%s n=%zu: (%d, %d), expected (%d, %d)", what, n,
                          got[0].i, got[0].j, want.i, want.j);
                cr_assert(iv_eq(got[1], TOP), "%s n=%zu: wrote past *result", what, n);
            }
        }
    skt_buf_free(s);
}

/* ---- 20 random n up to 2^24 ---------------------------------------------------------- */

static void random_large_n(sk_shape shape, int small)
{
    size_t ns[N_LARGE];
    for (int i = 0; i < N_LARGE; i++) {
        if (i % 2 == 0) {
            ns[i] = 1 + (size_t)skt_rand_below(LARGE_MAX); /* uniform */
        } else {                                           /* log-uniform in [2^12, 2^24] */
            double e = 12.0 + 12.0 * skt_rand_unit();
            ns[i] = (size_t)(exp2(e));
        }
    }
    ns[0] = LARGE_MAX; /* the largest, exactly */

    iv *host = skt_malloc((LARGE_MAX + PAD) * sizeof(iv));
    fill_input(host, LARGE_MAX);
    cl_mem in = skt_buf_new(LARGE_MAX * sizeof(iv));
    cl_mem out = skt_buf_new((LARGE_MAX + PAD) * sizeof(iv));
    skt_buf_upload(in, 0, host, LARGE_MAX * sizeof(iv));
    cl_command_queue q = sk_context_cl_queue(skt_ctx);

    apply_variant(shape, small);
    for (int i = 0; i < N_LARGE; i++) {
        size_t n = ns[i];
        for (int excl = 0; excl < 2; excl++)
            for (int in_place = 0; in_place < 2; in_place++) {
                const char *what = variant_name(shape, small, excl, in_place);
                if (in_place) {
                    cl_int err = clEnqueueCopyBuffer(q, in, out, 0, 0, n * sizeof(iv), 0,
                                                     NULL, NULL);
                    cr_assert_eq(err, CL_SUCCESS);
                    skt_buf_fill(out, &TOP, sizeof TOP, n * sizeof(iv), PAD * sizeof(iv));
                } else {
                    skt_buf_fill(out, &TOP, sizeof TOP, 0, (n + PAD) * sizeof(iv));
                }
                sk_status st = scan_iv(excl, in_place ? out : in, out, n);
                cr_assert_eq(st, SK_OK, "%s n=%zu -> %s (%s) [seed %llu]", what, n,
                             sk_status_name(st), sk_context_error_detail(skt_ctx),
                             (unsigned long long)skt_seed());
                skt_buf_download(out, 0, host, (n + PAD) * sizeof(iv));
                size_t k = check_region(host, n, n + PAD, excl);
                if (k != (size_t)-1) {
                    iv want = k < n ? expected(excl, k) : TOP;
                    cr_assert_fail("%s n=%zu: out[%zu] = (%d, %d), expected (%d, %d) [seed %llu]",
                                   what, n, k, host[k].i, host[k].j, want.i, want.j,
                                   (unsigned long long)skt_seed());
                }
            }
    }
    /* The input of the out-of-place scans is unchanged. */
    skt_buf_download(in, 0, host, LARGE_MAX * sizeof(iv));
    for (size_t k = 0; k < LARGE_MAX; k++)
        cr_assert(host[k].i == (int32_t)k && host[k].j == (int32_t)k,
                  "input element %zu modified by an out-of-place scan", k);
    skt_buf_free(in);
    skt_buf_free(out);
    free(host);
}

Test(interval, random_n_up_to_2_pow_24_should_scan_to_contiguous_intervals_in_cpu_shape)
{
    random_large_n(SK_SHAPE_CPU, 0);
}

Test(interval, random_n_up_to_2_pow_24_should_scan_to_contiguous_intervals_in_cpu_shape_with_small_tiles)
{
    random_large_n(SK_SHAPE_CPU, 1);
}

Test(interval, random_n_up_to_2_pow_24_should_scan_to_contiguous_intervals_in_gpu_shape)
{
    random_large_n(SK_SHAPE_GPU, 0);
}

Test(interval, random_n_up_to_2_pow_24_should_scan_to_contiguous_intervals_in_gpu_shape_with_small_tiles)
{
    random_large_n(SK_SHAPE_GPU, 1);
}
