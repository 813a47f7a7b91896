/*
 * test_transfer.c - the host-array forms' copies through the context's
 * pinned slots (primitives/transfer.c), which ordinary runs take on GPUs
 * only: here forced on any device with tiny pieces (sk__test_set_host_slots)
 * so that arrays of a few thousand elements cross many pieces and lanes.
 *
 * Each case runs host-array forms that upload and download several arrays
 * (sort keys and pairs, scan, partition with values, merge of pairs,
 * sorted search, run-length encoding) for sizes below one piece (the plain
 * copy), at one piece, just past it, at piece and lane multiples and far
 * past them, with pieces that are not a multiple of the element size, and
 * 1 to 16 lanes; results against serial references, outputs poisoned
 * first. A last case checks that the slots are made again when the piece
 * changes and freed by sk_context_trim.
 */
#include <stdlib.h>
#include <string.h>

#include "ref/ref_compact.h"
#include "ref/ref_merge.h"
#include "ref/ref_sort.h"
#include "sk_testing.h"
#include "skt_common.h"

TestSuite(transfer, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* Piece bytes and lanes of a case. */
typedef struct slots_case {
    size_t piece;
    unsigned lanes;
} slots_case;

static const slots_case CASES[] = {{1000, 1}, {1000, 3}, {4096, 16}, {999, 8}, {65536, 3}};
#define CASE_COUNT (sizeof CASES / sizeof CASES[0])

/* Element counts for a piece of `piece` bytes and elements of `es`. */
static size_t sizes_for(size_t piece, size_t es, size_t *out)
{
    size_t per = piece / es, k = 0;
    const size_t fixed[] = {0, 1, 2, 3 * 1000 + 7, 65537};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) out[k++] = fixed[i];
    out[k++] = per, out[k++] = per + 1, out[k++] = 2 * per, out[k++] = 8 * per + 3;
    out[k++] = 17 * per - 1;
    return k;
}
#define SIZES_MAX 16

static void use_slots(const slots_case *c)
{
    cr_assert_eq(sk__test_set_host_slots(skt_ctx, c->piece, c->lanes), SK_OK);
}

static void fill_keys(sk_type t, void *keys, size_t n)
{
    size_t ks = sk_type_size(t);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = skt_random_key(t);
        memcpy((unsigned char *)keys + i * ks, &v, ks); /* little-endian */
    }
}

static void check_sort(const slots_case *c, sk_type t, size_t vs, size_t n)
{
    size_t ks = sk_type_size(t);
    unsigned char *keys = skt_malloc(n * ks + 1), *vals = skt_malloc(n * vs + 1);
    unsigned char *want_k = skt_malloc(n * ks + 1), *want_v = skt_malloc(n * vs + 1);
    unsigned char *in_v = skt_malloc(n * vs + 1);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    fill_keys(t, keys, n);
    skt_ref_indices(n, vs, in_v);
    memcpy(vals, in_v, n * vs);
    unsigned bits = 8 * (unsigned)ks;
    skt_ref_sort_perm(t, keys, n, 0, 0, bits, perm);
    skt_ref_gather(keys, ks, perm, n, want_k);
    skt_ref_gather(in_v, vs, perm, n, want_v);
    sk_status st = vs ? sk_sort_pairs_host(skt_ctx, t, vs, keys, vals, n, SK_ASCENDING)
                      : sk_sort_keys_host(skt_ctx, t, keys, n, SK_ASCENDING);
    cr_assert_eq(st, SK_OK, "sort n=%zu piece=%zu lanes=%u seed=%llu: %s", n, c->piece,
                 c->lanes, (unsigned long long)skt_seed(), sk_context_error_detail(skt_ctx));
    cr_assert(memcmp(keys, want_k, n * ks) == 0, "sort keys n=%zu piece=%zu lanes=%u seed=%llu",
              n, c->piece, c->lanes, (unsigned long long)skt_seed());
    cr_assert(memcmp(vals, want_v, n * vs) == 0,
              "sort values n=%zu piece=%zu lanes=%u seed=%llu", n, c->piece, c->lanes,
              (unsigned long long)skt_seed());
    skt_free_all(keys, vals, want_k, want_v, in_v, perm, NULL);
}

static void run_sorts(const slots_case *c)
{
    size_t sizes[SIZES_MAX];
    use_slots(c);
    size_t k = sizes_for(c->piece, 4, sizes);
    for (size_t i = 0; i < k; i++) check_sort(c, SK_UINT32, 0, sizes[i]);
    k = sizes_for(c->piece, 8, sizes);
    for (size_t i = 0; i < k; i++) check_sort(c, SK_UINT64, 4, sizes[i]);
    for (size_t i = 0; i < k; i++) check_sort(c, SK_INT32, 8, sizes[i]);
}

static void check_scan(const slots_case *c, size_t n)
{
    uint32_t *src = skt_malloc(n * 4 + 4), *dst = skt_malloc(n * 4 + 4);
    uint32_t *want = skt_malloc(n * 4 + 4);
    skt_fill(SK_UINT32, SK_OP_ADD, src, n);
    skt_ref_scan(SK_UINT32, SK_OP_ADD, 0, src, want, n);
    skt_poison(dst, n * 4);
    sk_status st = sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, src, dst, n);
    cr_assert_eq(st, SK_OK, "scan n=%zu: %s", n, sk_context_error_detail(skt_ctx));
    cr_assert(memcmp(dst, want, n * 4) == 0, "scan n=%zu piece=%zu lanes=%u seed=%llu", n,
              c->piece, c->lanes, (unsigned long long)skt_seed());
    skt_free_all(src, dst, want, NULL);
}

static void check_partition(const slots_case *c, size_t n)
{
    uint32_t *src = skt_malloc(n * 4 + 4), *dst = skt_malloc(n * 4 + 4);
    uint32_t *want = skt_malloc(n * 4 + 4), *want_v = skt_malloc(n * 8 + 8);
    uint64_t *vals = skt_malloc(n * 8 + 8), *vdst = skt_malloc(n * 8 + 8);
    unsigned char *keep = skt_malloc(n + 1);
    fill_keys(SK_UINT32, src, n);
    skt_ref_indices(n, 8, vals);
    skt_ref_pred_mask(SK_UINT32, SKT_PRED_HALF, src, n, keep);
    size_t kept = skt_ref_partition(src, keep, n, 4, want);
    skt_ref_partition(vals, keep, n, 8, want_v);
    skt_poison(dst, n * 4);
    skt_poison(vdst, n * 8);
    size_t got = n + 1;
    sk_status st = sk_partition_pairs_host(skt_ctx, SK_UINT32, 8,
                                           skt_ref_pred_text(SK_UINT32, SKT_PRED_HALF), src,
                                           vals, dst, vdst, &got, n);
    cr_assert_eq(st, SK_OK, "partition n=%zu: %s", n, sk_context_error_detail(skt_ctx));
    cr_assert_eq(got, kept, "partition count n=%zu seed=%llu", n,
                 (unsigned long long)skt_seed());
    cr_assert(memcmp(dst, want, n * 4) == 0 && memcmp(vdst, want_v, n * 8) == 0,
              "partition n=%zu piece=%zu lanes=%u seed=%llu", n, c->piece, c->lanes,
              (unsigned long long)skt_seed());
    skt_free_all(src, dst, want, want_v, vals, vdst, keep, NULL);
}

/* a and b: n/2 and n - n/2 sorted keys with their positions as values. */
static void check_merge(const slots_case *c, size_t n)
{
    size_t na = n / 2, nb = n - na;
    uint32_t *k = skt_malloc(n * 4 + 4), *v = skt_malloc(n * 4 + 4);
    uint32_t *dk = skt_malloc(n * 4 + 4), *dv = skt_malloc(n * 4 + 4);
    size_t *origin = skt_malloc((n + 1) * sizeof *origin);
    for (size_t i = 0; i < n; i++) k[i] = (uint32_t)skt_rand_below(n / 4 + 2), v[i] = (uint32_t)i;
    cr_assert_eq(sk_sort_keys_host(skt_ctx, SK_UINT32, k, na, SK_ASCENDING), SK_OK);
    cr_assert_eq(sk_sort_keys_host(skt_ctx, SK_UINT32, k + na, nb, SK_ASCENDING), SK_OK);
    skt_ref_merge_origin(SK_UINT32, k, na, k + na, nb, 0, origin);
    skt_poison(dk, n * 4);
    skt_poison(dv, n * 4);
    sk_status st = sk_merge_pairs_host(skt_ctx, SK_UINT32, 4, k, v, k + na, v + na, dk, dv, na,
                                       nb, SK_ASCENDING);
    cr_assert_eq(st, SK_OK, "merge n=%zu: %s", n, sk_context_error_detail(skt_ctx));
    for (size_t i = 0; i < n; i++)
        cr_assert(dk[i] == k[origin[i]] && dv[i] == v[origin[i]],
                  "merge n=%zu at %zu piece=%zu lanes=%u seed=%llu", n, i, c->piece, c->lanes,
                  (unsigned long long)skt_seed());
    skt_free_all(k, v, dk, dv, origin, NULL);
}

/* n sorted uint32 keys searched for n needles (lower bound): indices of
 * 8 bytes come back. */
static void check_search(const slots_case *c, size_t n)
{
    uint32_t *hay = skt_malloc(n * 4 + 4), *needles = skt_malloc(n * 4 + 4);
    uint64_t *got = skt_malloc(n * 8 + 8);
    for (size_t i = 0; i < n; i++) {
        hay[i] = (uint32_t)skt_rand_below(2 * n + 2);
        needles[i] = (uint32_t)skt_rand_below(2 * n + 3);
    }
    cr_assert_eq(sk_sort_keys_host(skt_ctx, SK_UINT32, hay, n, SK_ASCENDING), SK_OK);
    skt_poison(got, n * 8);
    sk_status st = sk_search_lower_bound_host(skt_ctx, SK_UINT32, hay, needles, got, n, n,
                                              SK_ASCENDING);
    cr_assert_eq(st, SK_OK, "search n=%zu: %s", n, sk_context_error_detail(skt_ctx));
    for (size_t i = 0; i < n; i++) { /* the lower bound: the first key not below */
        uint64_t at = got[i];
        cr_assert(at <= n && (at == n || hay[at] >= needles[i]) &&
                      (at == 0 || hay[at - 1] < needles[i]),
                  "search n=%zu needle %zu -> %llu piece=%zu lanes=%u seed=%llu", n, i,
                  (unsigned long long)at, c->piece, c->lanes, (unsigned long long)skt_seed());
    }
    skt_free_all(hay, needles, got, NULL);
}

/* Runs of 1..8 equal uint32, encoded: values and uint64 counts. */
static void check_rle(const slots_case *c, size_t n)
{
    uint32_t *src = skt_malloc(n * 4 + 4), *vals = skt_malloc(n * 4 + 4);
    uint64_t *counts = skt_malloc(n * 8 + 8);
    for (size_t i = 0; i < n;) {
        size_t len = 1 + (size_t)skt_rand_below(8);
        uint32_t v = (uint32_t)skt_rand();
        for (size_t j = 0; j < len && i < n; j++) src[i++] = v;
    }
    skt_poison(vals, n * 4);
    skt_poison(counts, n * 8);
    size_t runs = n + 1;
    sk_status st = sk_run_length_encode_host(skt_ctx, SK_UINT32, src, vals, counts, &runs, n);
    cr_assert_eq(st, SK_OK, "rle n=%zu: %s", n, sk_context_error_detail(skt_ctx));
    size_t at = 0, k = 0;
    for (; at < n; k++) { /* the serial encoding, run by run */
        size_t len = 1;
        while (at + len < n && src[at + len] == src[at]) len++;
        cr_assert(k < runs && vals[k] == src[at] && counts[k] == len,
                  "rle n=%zu run %zu piece=%zu lanes=%u seed=%llu", n, k, c->piece, c->lanes,
                  (unsigned long long)skt_seed());
        at += len;
    }
    cr_assert_eq(runs, k, "rle n=%zu: %zu runs, want %zu seed=%llu", n, runs, k,
                 (unsigned long long)skt_seed());
    skt_free_all(src, vals, counts, NULL);
}

static void run_others(const slots_case *c)
{
    size_t sizes[SIZES_MAX];
    use_slots(c);
    size_t k = sizes_for(c->piece, 4, sizes);
    for (size_t i = 0; i < k; i++) {
        check_scan(c, sizes[i]);
        check_partition(c, sizes[i]);
        check_merge(c, sizes[i]);
        check_search(c, sizes[i]);
        check_rle(c, sizes[i]);
    }
}

ParameterizedTestParameters(transfer, should_sort_through_pinned_pieces)
{
    return cr_make_param_array(slots_case, (void *)CASES, CASE_COUNT);
}

ParameterizedTest(const slots_case *c, transfer, should_sort_through_pinned_pieces)
{
    run_sorts(c);
}

ParameterizedTestParameters(transfer, should_run_the_other_host_forms_through_pinned_pieces)
{
    return cr_make_param_array(slots_case, (void *)CASES, CASE_COUNT);
}

ParameterizedTest(const slots_case *c, transfer,
                  should_run_the_other_host_forms_through_pinned_pieces)
{
    run_others(c);
}

/* Changing the piece or the lanes between calls makes the slots again;
 * sk_context_trim frees them, and the next call makes them anew. */
Test(transfer, should_make_the_slots_again_when_the_pieces_change_and_after_trim)
{
    const slots_case a = {1000, 2}, b = {3000, 5};
    check_sort(&a, SK_UINT32, 4, 5000);
    use_slots(&a);
    check_sort(&a, SK_UINT32, 4, 5000);
    use_slots(&b);
    check_sort(&b, SK_UINT32, 4, 5000);
    cr_assert_eq(sk_context_trim(skt_ctx), SK_OK);
    check_sort(&b, SK_UINT32, 4, 5000);
    cr_assert_eq(sk__test_set_host_slots(skt_ctx, 1000, 0), SK_E_INVALID_ARG);
    cr_assert_eq(sk__test_set_host_slots(skt_ctx, 1000, 17), SK_E_INVALID_ARG);
    cr_assert_eq(sk__test_set_host_slots(NULL, 1000, 1), SK_E_INVALID_ARG);
    cr_assert_eq(sk__test_set_host_slots(skt_ctx, 0, 0), SK_OK);
    check_sort(&b, SK_UINT32, 0, 5000); /* the plain copy again on this device */
}
