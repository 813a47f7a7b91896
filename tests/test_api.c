/*
 * test_api.c - the primitives' forms the 1.0 API added, against CPU
 * references: the _devcount compaction forms (count buffer, bad arguments,
 * nothing blocks) and the new host forms (sort_*_bits, segscan/segreduce
 * _monoid, poly_horner_prefixes). Outputs are poisoned before every call;
 * data come from the logged seed. (test_api_context.c: the rest of 1.0.)
 *
 * These check the forms, not every element type (the primitives' suites
 * do), and each type, shape and path is a program of its own, so the
 * build-time axes are pairwise: the eight _devcount modes each in both
 * shapes and by both scan paths, the type (uint32, int64, float32, float64)
 * rotating so that each type meets both shapes, both paths, and modes with
 * and without values, the flags of 1 and 4 bytes each meeting both shapes
 * and both flagged modes; the bit-range sorts on uint32, int64 and float32 keys
 * (4- and 8-byte, unsigned, signed and float key transforms), each in both
 * shapes; the monoid segmented scans for each monoid x segment kind, the
 * shape alternating so that each monoid and each kind meets both shapes.
 * Every case runs all of its sizes, bit ranges, orders and refusals.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_compact.h"
#include "ref/ref_segscan.h"
#include "ref/ref_sort.h"
#include "skt_common.h"

/* after criterion.h, whose Test() it would otherwise leave undefined */
#include <criterion/parameterized.h>

TestSuite(devcount, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(host_forms, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

static const uint64_t POISON64 = 0xA5A5A5A5A5A5A5A5ull;

#define REFUSED(call) SKT_EXPECT_STATUS(call, SK_E_INVALID_ARG)

/* ---- _devcount compaction ------------------------------------------------------ */

/* Pair modes are the odd ones. */
typedef enum cmode {
    CM_SELECT_IF, CM_SELECT_IF_PAIRS, CM_FLAGGED, CM_FLAGGED_PAIRS,
    CM_PARTITION, CM_PARTITION_PAIRS, CM_UNIQUE, CM_UNIQUE_PAIRS, CM_COUNT
} cmode;

static const char *const CM_NAMES[] = {
    "select_if", "select_if_pairs", "select_flagged", "select_flagged_pairs",
    "partition", "partition_pairs", "unique", "unique_pairs"};

static int cm_pairs(cmode m) { return (int)m & 1; }
static int cm_flagged(cmode m) { return m == CM_FLAGGED || m == CM_FLAGGED_PAIRS; }
static int cm_partition(cmode m) { return m == CM_PARTITION || m == CM_PARTITION_PAIRS; }

typedef struct cbufs { cl_mem kin, vin, flags, kout, vout; } cbufs;

/* The host-count form (dev == 0, count into *hc) or the _devcount form
 * (count into dc) of mode m; KV: keys and values in, keys and values out. */
#define DC(f, ...) \
    (dev ? f##_devcount(skt_ctx, __VA_ARGS__, dc, n) : f(skt_ctx, __VA_ARGS__, hc, n))
#define KV b->kin, b->vin, b->kout, b->vout
static sk_status run_cm(cmode m, sk_type t, size_t vs, size_t fs, const cbufs *b, int dev,
                        size_t *hc, cl_mem dc, size_t n)
{
    const char *p = skt_ref_pred_text(t, SKT_PRED_HALF);
    switch (m) {
    case CM_SELECT_IF: return DC(sk_select_if, t, p, b->kin, b->kout);
    case CM_SELECT_IF_PAIRS: return DC(sk_select_if_pairs, t, vs, p, KV);
    case CM_FLAGGED: return DC(sk_select_flagged, t, fs, b->kin, b->flags, b->kout);
    case CM_FLAGGED_PAIRS:
        return DC(sk_select_flagged_pairs, t, vs, fs, b->kin, b->vin, b->flags, b->kout, b->vout);
    case CM_PARTITION: return DC(sk_partition, t, p, b->kin, b->kout);
    case CM_PARTITION_PAIRS: return DC(sk_partition_pairs, t, vs, p, KV);
    case CM_UNIQUE: return DC(sk_unique, t, b->kin, b->kout);
    case CM_UNIQUE_PAIRS: return DC(sk_unique_pairs, t, vs, KV);
    default: return SK_E_INVALID_ARG;
    }
}

/* Keys with runs of equal values (for unique), both predicate outcomes,
 * and for floats +-0, NaN and inf. */
static void gen_keys(sk_type t, void *k, size_t n)
{
    size_t es = sk_type_size(t);
    static const double fv[] = {0.0, -0.0, 0.25, 1.0, NAN, 0.5, -INFINITY, 3.0};
    for (size_t i = 0; i < n; i++) {
        uint64_t r = skt_rand_below(10), v = r < 7 ? r / 3 : skt_rand();
        if (t == SK_FLOAT32 || t == SK_FLOAT64)
            skt_ref_set_real(t, k, i, r < 8 ? fv[r] : skt_rand_unit() * 4.0 - 2.0);
        else memcpy((char *)k + i * es, &v, es); /* little-endian low bytes */
    }
}

static void gen_flags(void *f, size_t fs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v = skt_rand_below(2) ? 0u : fs == 4 ? 1u << skt_rand_below(32)
                                                      : 1u + (uint32_t)skt_rand_below(255);
        if (fs == 4) memcpy((char *)f + 4 * i, &v, 4);
        else ((unsigned char *)f)[i] = (unsigned char)v;
    }
}

static cbufs cbufs_new(size_t n, size_t es, size_t vs, size_t fs)
{
    return (cbufs){skt_buf_new(n * es), skt_buf_new(n * vs), skt_buf_new(n * fs),
                   skt_buf_new(n * es), skt_buf_new(n * vs)};
}

static void cbufs_free(cbufs *b)
{
    skt_buf_free(b->kin); skt_buf_free(b->vin); skt_buf_free(b->flags);
    skt_buf_free(b->kout); skt_buf_free(b->vout);
}

static void ref_keep(cmode m, sk_type t, const void *keys, const void *flags, size_t fs,
                     size_t n, unsigned char *keep)
{
    if (cm_flagged(m)) skt_ref_flag_mask(flags, fs, n, keep);
    else if (m == CM_UNIQUE || m == CM_UNIQUE_PAIRS) skt_ref_unique_mask(t, keys, n, keep);
    else skt_ref_pred_mask(t, SKT_PRED_HALF, keys, n, keep);
}

typedef struct dc_case { cmode m; sk_type t; sk_shape shape; sk_scan_path path; } dc_case;

ParameterizedTestParameters(devcount, count_and_outputs_should_match_the_host_count_form)
{
    /* mode x shape, the type rotating, (mode + shape) % 4, and the scan path,
     * (mode / 4 + shape) % 2: each mode in both shapes and by both paths,
     * each type in both shapes, by both paths, with and without values;
     * the flag size alternates likewise (below). */
    static dc_case cs[CM_COUNT * 2];
    static const sk_type ts[] = {SK_UINT32, SK_INT64, SK_FLOAT32, SK_FLOAT64};
    for (int k = 0; k < CM_COUNT * 2; k++) {
        const int m = k / 2, s = 1 + k % 2;
        cs[k] = (dc_case){(cmode)m, ts[(m + s) % 4], (sk_shape)s,
                          (sk_scan_path)(SK_SCAN_PATH_REDUCE_THEN_SCAN + (m / 4 + s) % 2)};
    }
    return cr_make_param_array(dc_case, cs, CM_COUNT * 2);
}

/* A refused call; its count buffer must come back as `before`. */
static void expect_refused(const char *what, cl_mem cnt, size_t bytes, sk_status st,
                           const void *before)
{
    cr_assert_eq(st, SK_E_INVALID_ARG, "%s -> %s, expected E_INVALID_ARG", what,
                 sk_status_name(st));
    unsigned char *after = skt_malloc(bytes);
    skt_buf_download(cnt, 0, after, bytes);
    cr_assert(memcmp(after, before, bytes) == 0, "%s: the count buffer was written", what);
    free(after);
}

ParameterizedTest(dc_case *c, devcount, count_and_outputs_should_match_the_host_count_form)
{
    const char *name = skt_fmt("%s %s %s shape %s", CM_NAMES[c->m], sk_type_name(c->t),
                               skt_shape_name(c->shape), skt_scan_path_name(c->path));
    cr_log_info("case: %s", name);
    if (c->t == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("%s: no fp64", name);
    skt_force_shape(c->shape);
    const sk_type t = c->t;
    /* flags of 1 and 4 bytes each in both shapes and for both flagged modes */
    const size_t es = sk_type_size(t), vs = es, fs = ((int)c->m + (int)c->shape) % 2 ? 1 : 4;
    static const size_t sizes[] = {0, 1, 1023, 1024, 1025, 70000};
    const size_t nmax = 70000;
    cbufs b = cbufs_new(nmax, es, vs, fs);
    cl_mem cnt = skt_buf_new(16);
    unsigned char *keys = skt_malloc(nmax * (4 * es + 4 * vs + fs + 1));
    unsigned char *wk = keys + nmax * es, *ak = wk + nmax * es, *bk = ak + nmax * es;
    unsigned char *vals = bk + nmax * es, *wv = vals + nmax * vs, *av = wv + nmax * vs;
    unsigned char *bv = av + nmax * vs, *flags = bv + nmax * vs, *keep = flags + nmax * fs;
    const int part = cm_partition(c->m);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si];
        gen_keys(t, keys, n);
        gen_flags(flags, fs, n);
        skt_ref_indices(n, vs, vals);
        skt_buf_upload(b.kin, 0, keys, n * es);
        skt_buf_upload(b.vin, 0, vals, n * vs);
        skt_buf_upload(b.flags, 0, flags, n * fs);
        ref_keep(c->m, t, keys, flags, fs, n, keep);
        size_t want = part ? skt_ref_partition(keys, keep, n, es, wk)
                           : skt_ref_select(keys, keep, n, es, wk);
        (part ? skt_ref_partition : skt_ref_select)(vals, keep, n, vs, wv);
        const size_t written = part ? n : want;
        {
            const int path = (int)c->path;
            skt_force_scan_path((sk_scan_path)path);
            const char *what = skt_fmt("%s, n %zu, %s", name, n,
                                       skt_scan_path_name((sk_scan_path)path));
            size_t hc = (size_t)-1;
            for (int dev = 0; dev <= 1; dev++) {
                unsigned char *gk = dev ? bk : ak, *gv = dev ? bv : av;
                skt_buf_poison(b.kout, nmax * es);
                skt_buf_poison(b.vout, nmax * vs);
                skt_buf_poison(cnt, 16);
                skt_finish();
                /* the _devcount form returns before anything waits for the queue */
                SKT_OK(run_cm(c->m, t, vs, fs, &b, dev, &hc, cnt, n));
                skt_finish();
                skt_buf_download(b.kout, 0, gk, n * es);
                skt_buf_download(b.vout, 0, gv, n * vs);
                const char *form = dev ? "devcount" : "host count";
                skt_expect_bytes(gk, wk, written, es, skt_fmt("%s: keys (%s)", what, form));
                cr_assert_eq(skt_find_unpoisoned(gk + written * es, (n - written) * es),
                             (size_t)-1, "%s: keys written past the count (%s)", what, form);
                if (!cm_pairs(c->m)) continue;
                skt_expect_bytes(gv, wv, written, vs, skt_fmt("%s: values (%s)", what, form));
                cr_assert_eq(skt_find_unpoisoned(gv + written * vs, (n - written) * vs),
                             (size_t)-1, "%s: values written past the count (%s)", what, form);
            }
            uint64_t dc[2];
            skt_buf_download(cnt, 0, dc, sizeof dc);
            cr_assert_eq(hc, want, "%s: host count %zu, reference %zu [seed %llu]", what, hc,
                         want, (unsigned long long)skt_seed());
            cr_assert_eq(dc[0], (uint64_t)want, "%s: device count %llu (0x%016llx), reference "
                         "%zu [seed %llu]", what, (unsigned long long)dc[0],
                         (unsigned long long)dc[0], want, (unsigned long long)skt_seed());
            cr_assert_eq(dc[1], POISON64, "%s: bytes 8..15 of the count buffer written", what);
        }
    }
    /* Bad arguments: refused before anything is enqueued, count untouched. */
    const size_t n = 1025;
    unsigned char before[16];
    memset(before, SKT_POISON_BYTE, sizeof before);
    skt_buf_poison(cnt, 16);
    skt_buf_poison(b.kout, nmax * es);
    REFUSED(run_cm(c->m, t, vs, fs, &b, 1, NULL, NULL, n));
    expect_refused(skt_fmt("%s: n == 0, NULL count", name), cnt, 16,
                   run_cm(c->m, t, vs, fs, &b, 1, NULL, NULL, 0), before);
    cl_mem small = skt_buf_new(4);
    skt_buf_poison(small, 4);
    expect_refused(skt_fmt("%s: a 4-byte count buffer", name), small, 4,
                   run_cm(c->m, t, vs, fs, &b, 1, NULL, small, n), before);
    skt_buf_free(small);
    cl_mem aliases[] = {b.kin, b.kout, b.flags, b.vin, b.vout};
    static const char *const alias_names[] = {"keys in", "keys out", "flags", "values in",
                                              "values out"};
    for (int a = 0; a < 5; a++) {
        if ((a == 2 && !cm_flagged(c->m)) || (a >= 3 && !cm_pairs(c->m))) continue;
        size_t bytes = (a == 2 ? fs : a >= 3 ? vs : es) * n;
        unsigned char *snap = skt_malloc(bytes);
        skt_buf_download(aliases[a], 0, snap, bytes);
        expect_refused(skt_fmt("%s: count == %s", name, alias_names[a]), aliases[a], bytes,
                       run_cm(c->m, t, vs, fs, &b, 1, NULL, aliases[a], n), snap);
        free(snap);
    }
    skt_buf_download(b.kout, 0, ak, nmax * es);
    cr_assert_eq(skt_find_unpoisoned(ak, nmax * es), (size_t)-1,
                 "%s: a refused call wrote the keys out", name);
    free(keys); cbufs_free(&b); skt_buf_free(cnt);
}

/* The queue is held shut by a user event while each _devcount form is
 * called: the call must return (a blocking read would wait forever), and a
 * second queue still sees the poisoned count until the gate opens. */
Test(devcount, should_return_while_the_queue_is_held)
{
    const size_t n = 70000, fs = 4;
    cl_int err;
    cl_context clc = sk_context_cl_context(skt_ctx);
    cl_command_queue q2 = clCreateCommandQueue(clc, sk_context_cl_device(skt_ctx), 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cbufs b = cbufs_new(n, 4, 4, fs);
    cl_mem cnt = skt_buf_new(16);
    uint32_t *keys = skt_malloc(n * 4), *flags = skt_malloc(n * fs);
    gen_keys(SK_UINT32, keys, n);
    gen_flags(flags, fs, n);
    skt_buf_upload(b.kin, 0, keys, n * 4);
    skt_buf_upload(b.vin, 0, keys, n * 4);
    skt_buf_upload(b.flags, 0, flags, n * fs);
    for (int m = 0; m < CM_COUNT; m++) {
        size_t hc = 0; /* checked against the reference by devcount::forms */
        SKT_OK(run_cm((cmode)m, SK_UINT32, 4, fs, &b, 0, &hc, NULL, n)); /* builds programs */
        skt_buf_poison(cnt, 16);
        skt_finish();
        cl_event gate = clCreateUserEvent(clc, &err);
        cr_assert_eq(err, CL_SUCCESS);
        cr_assert_eq(clEnqueueBarrierWithWaitList(sk_context_cl_queue(skt_ctx), 1, &gate, NULL),
                     CL_SUCCESS);
        sk_status st = run_cm((cmode)m, SK_UINT32, 4, fs, &b, 1, NULL, cnt, n);
        uint64_t seen[2] = {0, 0}, dc[2];
        err = clEnqueueReadBuffer(q2, cnt, CL_TRUE, 0, 16, seen, 0, NULL, NULL);
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
        cr_assert(st == SK_OK && err == CL_SUCCESS, "%s_devcount behind a closed gate -> %s "
                  "(read on a second queue: %s)", CM_NAMES[m], sk_status_name(st),
                  sk_cl_error_name(err));
        cr_assert_eq(seen[0], POISON64, "%s_devcount: count written before its queue ran",
                     CM_NAMES[m]);
        skt_finish();
        skt_buf_download(cnt, 0, dc, sizeof dc);
        cr_assert_eq(dc[0], (uint64_t)hc, "%s_devcount: count %llu, host count form %zu "
                     "[seed %llu]", CM_NAMES[m], (unsigned long long)dc[0], hc,
                     (unsigned long long)skt_seed());
    }
    clReleaseCommandQueue(q2);
    free(keys); free(flags); cbufs_free(&b); skt_buf_free(cnt);
}

/* ---- new host forms: sorts by a bit range ------------------------------------------- */

ParameterizedTestParameters(host_forms, bit_range_sorts_should_match_a_stable_sort)
{
    /* the key transforms: unsigned 4-byte, signed 8-byte, float 4-byte keys
     * (test_sort.c has every type) */
    static sk_type ts[] = {SK_UINT32, SK_INT64, SK_FLOAT32};
    return cr_make_param_array(sk_type, ts, sizeof ts / sizeof ts[0]);
}

ParameterizedTest(sk_type *tp, host_forms, bit_range_sorts_should_match_a_stable_sort)
{
    const sk_type t = *tp;
    cr_log_info("case: sort_keys_bits_host, sort_pairs_bits_host on %s", sk_type_name(t));
    if (t == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("%s: no fp64", sk_type_name(t));
    const unsigned bits = 8u * (unsigned)sk_type_size(t);
    const size_t es = sk_type_size(t), vs = es == 4 ? 8 : 4, nmax = 70001;
    static const size_t sizes[] = {0, 1, 1025, 70001};
    const unsigned ranges[][2] = {{0, bits}, {3, 11}, {bits - 8, bits}, {5, 6}};
    size_t *perm = skt_malloc(nmax * (sizeof *perm + 4 * es + 4 * vs));
    unsigned char *keys = (unsigned char *)(perm + nmax), *wk = keys + nmax * es;
    unsigned char *hk = wk + nmax * es, *mk = hk + nmax * es, *vals = mk + nmax * es;
    unsigned char *wv = vals + nmax * vs, *hv = wv + nmax * vs, *mv = hv + nmax * vs;
    cl_mem bk = skt_buf_new(nmax * es), bv = skt_buf_new(nmax * vs);
    for (int k = 0; k < 2 * 4 * 4 * 2; k++) { /* shape x size x bit range x order */
        const sk_shape shape = (sk_shape)(1 + k / 32);
        const size_t n = sizes[k / 8 % 4];
        const unsigned lo = ranges[k / 2 % 4][0], hi = ranges[k / 2 % 4][1];
        const sk_sort_order o = (sk_sort_order)(k % 2);
        const char *what = skt_fmt("%s, %s shape, n %zu, bits [%u, %u), %s", sk_type_name(t),
                                   skt_shape_name(shape), n, lo, hi, o ? "down" : "up");
        skt_force_shape(shape);
        for (size_t i = 0; i < n; i++) memcpy(keys + i * es, (uint64_t[1]){skt_rand()}, es);
        skt_ref_indices(n, vs, vals);
        skt_ref_sort_perm(t, keys, n, o, lo, hi, perm);
        skt_ref_gather(keys, es, perm, n, wk);
        skt_ref_gather(vals, vs, perm, n, wv);
        /* host forms against the reference */
        memcpy(hk, keys, n * es);
        SKT_OK(sk_sort_keys_bits_host(skt_ctx, t, hk, n, o, lo, hi));
        skt_expect_bytes(hk, wk, n, es, skt_fmt("%s: sort_keys_bits_host", what));
        memcpy(hk, keys, n * es);
        memcpy(hv, vals, n * vs);
        SKT_OK(sk_sort_pairs_bits_host(skt_ctx, t, vs, hk, hv, n, o, lo, hi));
        skt_expect_bytes(hk, wk, n, es, skt_fmt("%s: sort_pairs_bits_host keys", what));
        skt_expect_bytes(hv, wv, n, vs, skt_fmt("%s: sort_pairs_bits_host values", what));
        /* cl_mem forms against the host forms */
        skt_buf_upload(bk, 0, keys, n * es);
        SKT_OK(sk_sort_keys_bits(skt_ctx, t, bk, n, o, lo, hi));
        skt_buf_download(bk, 0, mk, n * es);
        skt_expect_bytes(mk, hk, n, es, skt_fmt("%s: sort_keys_bits", what));
        skt_buf_upload(bk, 0, keys, n * es);
        skt_buf_upload(bv, 0, vals, n * vs);
        SKT_OK(sk_sort_pairs_bits(skt_ctx, t, vs, bk, bv, n, o, lo, hi));
        skt_buf_download(bk, 0, mk, n * es);
        skt_buf_download(bv, 0, mv, n * vs);
        skt_expect_bytes(mk, hk, n, es, skt_fmt("%s: sort_pairs_bits keys", what));
        skt_expect_bytes(mv, hv, n, vs, skt_fmt("%s: sort_pairs_bits values", what));
    }
    /* Refused: NULL arrays, an empty or reversed bit range; arrays untouched. */
    const size_t n = 100;
    skt_poison(hk, n * es);
    skt_poison(hv, n * vs);
    REFUSED(sk_sort_keys_bits_host(skt_ctx, t, NULL, n, SK_ASCENDING, 0, bits));
    REFUSED(sk_sort_pairs_bits_host(skt_ctx, t, vs, hk, NULL, n, SK_ASCENDING, 0, bits));
    REFUSED(sk_sort_pairs_bits_host(skt_ctx, t, vs, NULL, hv, n, SK_ASCENDING, 0, bits));
    REFUSED(sk_sort_keys_bits_host(skt_ctx, t, hk, n, SK_ASCENDING, 4, 4));
    REFUSED(sk_sort_keys_bits_host(skt_ctx, t, hk, n, SK_ASCENDING, 0, bits + 1));
    REFUSED(sk_sort_pairs_bits_host(skt_ctx, t, vs, hk, hv, n, SK_ASCENDING, 9, 3));
    REFUSED(sk_sort_pairs_bits_host(skt_ctx, t, 2, hk, hv, n, SK_ASCENDING, 0, bits));
    REFUSED(sk_sort_keys_bits_host(NULL, t, hk, n, SK_ASCENDING, 0, bits));
    cr_assert_eq(skt_find_unpoisoned(hk, n * es), (size_t)-1, "%s: refused sort wrote keys",
                 sk_type_name(t));
    cr_assert_eq(skt_find_unpoisoned(hv, n * vs), (size_t)-1, "%s: refused sort wrote values",
                 sk_type_name(t));
    free(perm); skt_buf_free(bk); skt_buf_free(bv);
}

/* ---- new host forms: segmented scans over a caller's monoid --------------------------- */

/* Affine maps x -> m x + c on uint32, (m1, c1) then (m2, c2). */
static const sk_monoid AFFINE2 = {
    .type = "uint2", .size = 8, .identity = "(uint2)(1u, 0u)",
    .combine = "(uint2)(a.x * b.x, a.y * b.x + b.y)", .preamble = NULL};

static void affine2_ref(const void *a, const void *b, void *out)
{
    uint32_t x[2], y[2];
    memcpy(x, a, 8);
    memcpy(y, b, 8);
    memcpy(out, (uint32_t[2]){x[0] * y[0], x[1] * y[0] + y[1]}, 8);
}

static void mat2_ref(const void *a, const void *b, void *out)
{
    skt_mat2 r = skt_ref_mat2_mul(*(const skt_mat2 *)a, *(const skt_mat2 *)b);
    memcpy(out, &r, sizeof r);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* monoid 0: 2x2 matrices (uint4), 1: affine maps (uint2); kind 0: uint8 flags,
 * 1: uint32 flags, 2: uint32 offsets, 3: uint64 offsets */
typedef struct seg_case { int monoid, kind; sk_shape shape; } seg_case;

ParameterizedTestParameters(host_forms, monoid_segmented_scans_should_match_the_reference)
{
    /* monoid x segment kind, the shape alternating, (monoid + kind) % 2:
     * each monoid and each kind in both shapes */
    static seg_case cs[2 * 4];
    for (int k = 0; k < 8; k++)
        cs[k] = (seg_case){k / 4, k % 4, (sk_shape)(1 + (k / 4 + k % 4) % 2)};
    return cr_make_param_array(seg_case, cs, 8);
}

ParameterizedTest(seg_case *c, host_forms, monoid_segmented_scans_should_match_the_reference)
{
    static const char *const kinds[] = {"uint8 flags", "uint32 flags", "uint32 offsets",
                                        "uint64 offsets"};
    const sk_monoid *m = c->monoid ? &AFFINE2 : skt_monoid_mat2();
    skt_ref_combine_fn comb = c->monoid ? affine2_ref : mat2_ref;
    const char *name = skt_fmt("%s, %s, %s shape", c->monoid ? "affine uint2" : "mat2 uint4",
                               kinds[c->kind], skt_shape_name(c->shape));
    cr_log_info("case: segscan/segreduce monoid host forms, %s", name);
    skt_force_shape(c->shape);
    const size_t es = m->size, nmax = 70001;
    const int flagged = c->kind < 2;
    const sk_type ot = c->kind == 2 ? SK_UINT32 : SK_UINT64;
    const size_t fs = c->kind == 0 ? 1 : 4, os = sk_type_size(ot);
    unsigned char ident[16];
    if (c->monoid) { uint32_t id[2] = {1, 0}; memcpy(ident, id, 8); }
    else { skt_mat2 id = skt_ref_mat2_identity(); memcpy(ident, &id, 16); }
    uint64_t *off64 = skt_malloc((nmax + 1) * 16 + (4 * nmax + 4) * es + 5 * nmax);
    unsigned char *offs = (unsigned char *)(off64 + nmax + 1), *src = offs + (nmax + 1) * 8;
    unsigned char *want = src + nmax * es, *got = want + nmax * es, *gotm = got + (nmax + 4) * es;
    unsigned char *flags = gotm + nmax * es, *heads = flags + 4 * nmax;
    cl_mem bsrc = skt_buf_new(nmax * es), bdst = skt_buf_new(nmax * es);
    cl_mem bseg = skt_buf_new((nmax + 1) * 8);
    static const size_t sizes[] = {0, 1, 1000, 70001};
    for (size_t si = 0; si < 4; si++) {
        const size_t n = sizes[si];
        const char *what = skt_fmt("%s, n %zu", name, n);
        for (size_t i = 0; c->monoid && i < n; i++) /* odd factors: never collapses */
            memcpy(src + i * es, (uint64_t[1]){skt_rand() | 1u}, 8);
        if (!c->monoid) skt_fill_mat2((skt_mat2 *)(void *)src, n);
        size_t count = 0;
        if (flagged) {
            for (size_t i = 0; i < n; i++) {
                uint32_t f = skt_rand_below(40) ? 0u : fs == 4 ? 1u << skt_rand_below(32) : 7u;
                if (fs == 4) memcpy(flags + 4 * i, &f, 4);
                else flags[i] = (unsigned char)f;
            }
            skt_ref_heads_from_flags(flags, fs, n, heads);
        } else {
            count = 1 + (size_t)skt_rand_below(n / 30 + 3);
            off64[0] = 0;
            for (size_t k = 1; k < count; k++) off64[k] = skt_rand_below(n + 1);
            qsort(off64 + 1, count - 1, 8, cmp_u64);
            for (size_t k = 0; k < count; k++)
                memcpy(offs + os * k, os == 4 ? (void *)(uint32_t[1]){(uint32_t)off64[k]}
                                              : (void *)&off64[k], os);
            skt_ref_heads_from_offsets(offs, ot, count, n, heads);
        }
        sk_segments_host hs = {flagged ? flags : NULL, flagged ? fs : 0,
                               flagged ? NULL : offs, ot, count};
        sk_segments ds = {flagged ? bseg : NULL, flagged ? fs : 0, flagged ? NULL : bseg, ot,
                          count};
        skt_buf_upload(bsrc, 0, src, n * es);
        skt_buf_upload(bseg, 0, flagged ? flags : offs, flagged ? n * fs : count * os);
        static const char *const ops[] = {"segscan_inclusive", "segscan_exclusive", "segreduce"};
        for (int op = 0; op < 3; op++) { /* host and cl_mem forms against the reference */
            const char *w = skt_fmt("%s: %s_monoid", what, ops[op]);
            size_t nseg = count, hsegs = (size_t)-1, msegs = (size_t)-1;
            if (op < 2) skt_ref_segscan_generic(es, comb, ident, op, src, want, heads, n);
            else if (flagged)
                nseg = skt_ref_segreduce_heads_generic(es, comb, ident, src, heads, n, want);
            else skt_ref_segreduce_offsets_generic(es, comb, ident, src, n, offs, ot, count, want);
            skt_poison(got, (nmax + 4) * es);
            skt_buf_poison(bdst, nmax * es);
            SKT_OK(op == 0 ? sk_segscan_inclusive_monoid_host(skt_ctx, m, src, &hs, got, n)
                   : op == 1 ? sk_segscan_exclusive_monoid_host(skt_ctx, m, src, &hs, got, n)
                   : sk_segreduce_monoid_host(skt_ctx, m, src, &hs, got, &hsegs, n));
            SKT_OK(op == 0 ? sk_segscan_inclusive_monoid(skt_ctx, m, bsrc, &ds, bdst, n)
                   : op == 1 ? sk_segscan_exclusive_monoid(skt_ctx, m, bsrc, &ds, bdst, n)
                   : sk_segreduce_monoid(skt_ctx, m, bsrc, &ds, bdst, &msegs, n));
            const size_t outs = op < 2 ? n : nseg;
            cr_assert(op < 2 || (hsegs == nseg && msegs == nseg), "%s: %zu segments (host form), "
                      "%zu (cl_mem form), reference %zu", w, hsegs, msegs, nseg);
            skt_buf_download(bdst, 0, gotm, outs * es);
            skt_expect_bytes(got, want, outs, es, skt_fmt("%s_host", w));
            skt_expect_bytes(gotm, want, outs, es, w);
            cr_assert_eq(skt_find_unpoisoned(got + outs * es, 4 * es), (size_t)-1,
                         "%s_host wrote past its output", w);
        }
        if (n == 1000) { /* NULL monoid, inputs or outputs are refused, outputs untouched */
            size_t sg = 12345;
            skt_poison(got, n * es);
            REFUSED(sk_segscan_inclusive_monoid_host(skt_ctx, NULL, src, &hs, got, n));
            REFUSED(sk_segscan_exclusive_monoid_host(skt_ctx, NULL, src, &hs, got, n));
            REFUSED(sk_segreduce_monoid_host(skt_ctx, NULL, src, &hs, got, &sg, n));
            REFUSED(sk_segscan_inclusive_monoid_host(skt_ctx, m, src, &hs, NULL, n));
            REFUSED(sk_segscan_exclusive_monoid_host(skt_ctx, m, src, &hs, NULL, n));
            REFUSED(sk_segreduce_monoid_host(skt_ctx, m, src, &hs, NULL, &sg, n));
            REFUSED(sk_segscan_inclusive_monoid_host(skt_ctx, m, NULL, &hs, got, n));
            REFUSED(sk_segscan_inclusive_monoid_host(skt_ctx, m, src, NULL, got, n));
            REFUSED(sk_segreduce_monoid_host(skt_ctx, m, src, NULL, got, &sg, n));
            cr_assert_eq(sg, 12345, "%s: a refused segreduce wrote *segments", what);
            cr_assert_eq(skt_find_unpoisoned(got, n * es), (size_t)-1,
                         "%s: a refused call wrote its output", what);
        }
    }
    free(off64); skt_buf_free(bsrc); skt_buf_free(bdst); skt_buf_free(bseg);
}

/* ---- new host forms: Horner prefixes ------------------------------------------------- */

Test(host_forms, horner_prefixes_should_match_the_cl_mem_form_bit_for_bit)
{
    static const size_t sizes[] = {0, 1, 5, 1000, 70001};
    const size_t nmax = 70001;
    double *coef = skt_malloc((3 * nmax + 4) * 8), *host = coef + nmax, *mem = host + nmax + 4;
    cl_mem bc = skt_buf_new(nmax * 8), bp = skt_buf_new(nmax * 8);
    for (int k = 0; k < 2 * 2 * 5 * 4; k++) { /* type x shape x ncoef x point */
        const sk_type t = k < 40 ? SK_FLOAT32 : SK_FLOAT64;
        if (t == SK_FLOAT64 && !skt_has_fp64()) break;
        const sk_shape shape = (sk_shape)(1 + k / 20 % 2);
        const size_t es = sk_type_size(t), n = sizes[k / 4 % 5];
        const double u = t == SK_FLOAT32 ? 0x1.0p-24 : 0x1.0p-53;
        const double xs[] = {0.5, -0.9, 1.0, skt_rand_unit() * 2.0 - 1.0};
        const double x = t == SK_FLOAT32 ? (double)(float)xs[k % 4] : xs[k % 4];
        const char *what = skt_fmt("%s, %s shape, ncoef %zu, x %.9g", sk_type_name(t),
                                   skt_shape_name(shape), n, x);
        skt_force_shape(shape);
        for (size_t i = 0; i < n; i++) skt_ref_set_real(t, coef, i, skt_rand_unit() * 2.0 - 1.0);
        skt_poison(host, (n + 4) * es);
        SKT_OK(sk_poly_horner_prefixes_host(skt_ctx, t, coef, x, host, n));
        cr_assert_eq(skt_find_unpoisoned((char *)host + n * es, 4 * es), (size_t)-1,
                     "%s: horner_prefixes_host wrote past ncoef", what);
        skt_buf_upload(bc, 0, coef, n * es);
        skt_buf_poison(bp, nmax * es);
        SKT_OK(sk_poly_horner_prefixes(skt_ctx, t, bc, x, bp, n));
        skt_buf_download(bp, 0, mem, n * es);
        skt_expect_bytes(host, mem, n, es, skt_fmt("%s: host form against the cl_mem form", what));
        /* CPU Horner: prefixes[j] = a_d x^j + ... + a_(d-j), within gamma(2(j+1)) */
        long double h = 0.0L, mag = 0.0L;
        for (size_t j = 0; j < n; j++) {
            double a = skt_ref_real_at(t, coef, n - 1 - j), v = skt_ref_real_at(t, host, j);
            h = h * x + a;
            mag = mag * fabs(x) + fabs(a);
            double g = 2.0 * (double)(j + 1) * u, bound = g / (1.0 - g) * (double)mag;
            cr_assert(fabs(v - (double)h) <= bound + 1e-300, "%s: prefix %zu is %.17g, Horner "
                      "gives %.17g (bound %.3g) [seed %llu]", what, j, v, (double)h, bound,
                      (unsigned long long)skt_seed());
        }
    }
    /* Refused: NULL coefficients or prefixes with ncoef > 0, a bad type. */
    skt_poison(host, 64);
    REFUSED(sk_poly_horner_prefixes_host(skt_ctx, SK_FLOAT32, coef, 0.5, NULL, 16));
    REFUSED(sk_poly_horner_prefixes_host(skt_ctx, SK_FLOAT32, NULL, 0.5, host, 16));
    REFUSED(sk_poly_horner_prefixes_host(NULL, SK_FLOAT32, coef, 0.5, host, 16));
    REFUSED(sk_poly_horner_prefixes_host(skt_ctx, SK_INT32, coef, 0.5, host, 16));
    cr_assert_eq(skt_find_unpoisoned(host, 64), (size_t)-1, "a refused call wrote prefixes");
    SKT_OK(sk_poly_horner_prefixes_host(skt_ctx, SK_FLOAT32, NULL, 0.5, NULL, 0));
    free(coef); skt_buf_free(bc); skt_buf_free(bp);
}
