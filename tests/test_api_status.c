/*
 * test_api_status.c - every status scankit.h documents, provoked in every
 * form of every primitive family (cl_mem, _devcount, _monoid, _host): a
 * NULL context and an invalid element type (SK_E_INVALID_ARG), n whose
 * byte size overflows size_t and a host array over the device's largest
 * buffer (SK_E_SIZE), float64 on a device without fp64 (SK_E_UNSUPPORTED;
 * skipped where the device has fp64), a predicate, monoid, comparator or
 * field key that does not compile (SK_E_BUILD), no OpenCL platform at all (SK_E_NO_DEVICE), and the
 * bad arguments of the sorts' bit-range forms, the segmented scans, the
 * polynomials and the compaction's host and device-count forms that the
 * suites of each primitive leave out. Every refused call leaves every
 * output as it was: buffers, host arrays, counts and results are poisoned
 * before each call and checked after it.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

static void status_open(void);
static void status_close(void);

TestSuite(api_status, .init = status_open, .fini = status_close, .timeout = 120);
TestSuite(api_status_no_platform, .init = skt_setup, .timeout = 60);

/* Outputs hold BYTES (N elements of up to 16 bytes), inputs twice that, so
 * that an n one past what an output holds still fits the inputs. */
#define N 64
#define BYTES (N * 16)
#define OVER_OUT(es) (BYTES / (es) + 1)

static const sk_sort_order A = SK_ASCENDING;
static const char *const PRED = "x > 1.0f";

/* Buffers and host arrays of the running test: inputs (zeros; flags all
 * set; offsets all 0, a valid segmentation) and outputs (poisoned before
 * each call). */
static struct {
    cl_mem in, flags, offs, out, vout, cnt;
    unsigned char hin[2 * BYTES], hflags[BYTES], hout[BYTES], hvout[BYTES], res[32];
    uint32_t hoffs[N];
    size_t count;
    double result;
} F;

static void status_open(void)
{
    skt_ctx_open();
    F.in = skt_buf_new(2 * BYTES);
    F.flags = skt_buf_new(BYTES);
    F.offs = skt_buf_new(BYTES);
    F.out = skt_buf_new(BYTES);
    F.vout = skt_buf_new(BYTES);
    F.cnt = skt_buf_new(BYTES);
    memset(F.hflags, 1, sizeof F.hflags);
    skt_buf_upload(F.in, 0, F.hin, sizeof F.hin);
    skt_buf_upload(F.flags, 0, F.hflags, sizeof F.hflags);
    skt_buf_upload(F.offs, 0, F.hin, BYTES);
}

static void status_close(void)
{
    cl_mem all[] = {F.in, F.flags, F.offs, F.out, F.vout, F.cnt};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) skt_buf_free(all[i]);
    skt_ctx_close();
}

static void poison_outputs(void)
{
    skt_buf_poison(F.out, BYTES);
    skt_buf_poison(F.vout, BYTES);
    skt_buf_poison(F.cnt, BYTES);
    skt_poison(F.hout, sizeof F.hout);
    skt_poison(F.hvout, sizeof F.hvout);
    skt_poison(F.res, sizeof F.res);
    skt_poison(&F.count, sizeof F.count);
    skt_poison(&F.result, sizeof F.result);
}

static void expect_outputs_untouched(const char *call)
{
    unsigned char got[BYTES];
    const cl_mem bufs[] = {F.out, F.vout, F.cnt};
    static const char *const buf_names[] = {"dst", "values_out", "the count buffer"};
    for (size_t i = 0; i < 3; i++) {
        skt_buf_download(bufs[i], 0, got, BYTES);
        cr_assert_eq(skt_find_unpoisoned(got, BYTES), (size_t)-1, "%s wrote %s", call,
                     buf_names[i]);
    }
    const void *host[] = {F.hout, F.hvout, F.res, &F.count, &F.result};
    const size_t sizes[] = {sizeof F.hout, sizeof F.hvout, sizeof F.res, sizeof F.count,
                            sizeof F.result};
    static const char *const host_names[] = {"dst", "values_out", "*result", "*count",
                                             "*result (poly)"};
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(skt_find_unpoisoned(host[i], sizes[i]), (size_t)-1, "%s wrote %s", call,
                     host_names[i]);
}

/* `call` gives `want` and writes no output. */
#define REFUSED(call, want)                                                                 \
    do {                                                                                    \
        poison_outputs();                                                                   \
        SKT_EXPECT_STATUS(call, want);                                                      \
        expect_outputs_untouched(#call);                                                    \
    } while (0)

/* ---- every form of every family ------------------------------------------------------ */

/* What a form takes besides the context and n. */
#define HOST 1u   /* host arrays */
#define TYPED 2u  /* an sk_type */
#define MONOID 4u /* an sk_monoid */
#define PREDICATE 8u
#define SEGMENTED 16u
#define BITS 32u /* keys compared as bits: float64 needs no fp64 */
#define USER 64u /* a caller's type: an sk_comparator or an sk_field_order */
#define KEYS 128u /* sort keys: the 8- and 16-bit key types too */

/* The arguments that vary; the buffers are F's. */
typedef struct form_args {
    sk_context *c;
    sk_type t;
    const sk_monoid *m;
    const char *p;
    const sk_comparator *cmp;
    const sk_field_order *by;
    size_t n;
    const void *hi, *hf; /* host input and flags */
    void *ho, *hv;       /* host output and values out */
    sk_segments seg;
    sk_segments_host hseg;
} form_args;

/* The cl_mem forms read F.in (keys, values, coefficients and points) and
 * F.flags, and write F.out, F.vout and F.cnt; the sorts sort F.out and
 * F.vout in place. */
#define FORMS(X)                                                                             \
    X(scan_inclusive, TYPED, sk_scan_inclusive(c, t, SK_OP_ADD, F.in, F.out, n))             \
    X(scan_exclusive, TYPED, sk_scan_exclusive(c, t, SK_OP_ADD, F.in, F.out, n))             \
    X(reduce, TYPED, sk_reduce(c, t, SK_OP_ADD, F.in, F.res, n))                             \
    X(scan_inclusive_monoid, MONOID, sk_scan_inclusive_monoid(c, m, F.in, F.out, n))         \
    X(scan_exclusive_monoid, MONOID, sk_scan_exclusive_monoid(c, m, F.in, F.out, n))         \
    X(reduce_monoid, MONOID, sk_reduce_monoid(c, m, F.in, F.res, n))                         \
    X(scan_inclusive_host, HOST | TYPED, sk_scan_inclusive_host(c, t, SK_OP_ADD, hi, ho, n)) \
    X(scan_exclusive_host, HOST | TYPED, sk_scan_exclusive_host(c, t, SK_OP_ADD, hi, ho, n)) \
    X(reduce_host, HOST | TYPED, sk_reduce_host(c, t, SK_OP_ADD, hi, F.res, n))              \
    X(scan_inclusive_monoid_host, HOST | MONOID, sk_scan_inclusive_monoid_host(c, m, hi, ho, n)) \
    X(scan_exclusive_monoid_host, HOST | MONOID, sk_scan_exclusive_monoid_host(c, m, hi, ho, n)) \
    X(reduce_monoid_host, HOST | MONOID, sk_reduce_monoid_host(c, m, hi, F.res, n))          \
    X(select_if, TYPED | PREDICATE, sk_select_if(c, t, p, F.in, F.out, &F.count, n))         \
    X(select_if_pairs, TYPED | PREDICATE,                                                    \
      sk_select_if_pairs(c, t, 4, p, F.in, F.in, F.out, F.vout, &F.count, n))                \
    X(select_flagged, TYPED, sk_select_flagged(c, t, 1, F.in, F.flags, F.out, &F.count, n))  \
    X(select_flagged_pairs, TYPED,                                                           \
      sk_select_flagged_pairs(c, t, 4, 1, F.in, F.in, F.flags, F.out, F.vout, &F.count, n))  \
    X(partition, TYPED | PREDICATE, sk_partition(c, t, p, F.in, F.out, &F.count, n))         \
    X(partition_pairs, TYPED | PREDICATE,                                                    \
      sk_partition_pairs(c, t, 4, p, F.in, F.in, F.out, F.vout, &F.count, n))                \
    X(partition_reversed, TYPED | PREDICATE,                                                 \
      sk_partition_reversed(c, t, p, F.in, F.out, &F.count, n))                              \
    X(partition_reversed_pairs, TYPED | PREDICATE,                                           \
      sk_partition_reversed_pairs(c, t, 4, p, F.in, F.in, F.out, F.vout, &F.count, n))       \
    X(unique, TYPED, sk_unique(c, t, F.in, F.out, &F.count, n))                              \
    X(unique_pairs, TYPED, sk_unique_pairs(c, t, 4, F.in, F.in, F.out, F.vout, &F.count, n)) \
    X(select_if_devcount, TYPED | PREDICATE,                                                 \
      sk_select_if_devcount(c, t, p, F.in, F.out, F.cnt, n))                                 \
    X(select_if_pairs_devcount, TYPED | PREDICATE,                                           \
      sk_select_if_pairs_devcount(c, t, 4, p, F.in, F.in, F.out, F.vout, F.cnt, n))          \
    X(select_flagged_devcount, TYPED,                                                        \
      sk_select_flagged_devcount(c, t, 1, F.in, F.flags, F.out, F.cnt, n))                   \
    X(select_flagged_pairs_devcount, TYPED,                                                  \
      sk_select_flagged_pairs_devcount(c, t, 4, 1, F.in, F.in, F.flags, F.out, F.vout, F.cnt, n)) \
    X(partition_devcount, TYPED | PREDICATE,                                                 \
      sk_partition_devcount(c, t, p, F.in, F.out, F.cnt, n))                                 \
    X(partition_pairs_devcount, TYPED | PREDICATE,                                           \
      sk_partition_pairs_devcount(c, t, 4, p, F.in, F.in, F.out, F.vout, F.cnt, n))          \
    X(partition_reversed_devcount, TYPED | PREDICATE,                                        \
      sk_partition_reversed_devcount(c, t, p, F.in, F.out, F.cnt, n))                        \
    X(partition_reversed_pairs_devcount, TYPED | PREDICATE,                                  \
      sk_partition_reversed_pairs_devcount(c, t, 4, p, F.in, F.in, F.out, F.vout, F.cnt, n)) \
    X(unique_devcount, TYPED, sk_unique_devcount(c, t, F.in, F.out, F.cnt, n))               \
    X(unique_pairs_devcount, TYPED,                                                          \
      sk_unique_pairs_devcount(c, t, 4, F.in, F.in, F.out, F.vout, F.cnt, n))                \
    X(select_if_host, HOST | TYPED | PREDICATE, sk_select_if_host(c, t, p, hi, ho, &F.count, n)) \
    X(select_if_pairs_host, HOST | TYPED | PREDICATE,                                        \
      sk_select_if_pairs_host(c, t, 4, p, hi, hi, ho, hv, &F.count, n))                      \
    X(select_flagged_host, HOST | TYPED, sk_select_flagged_host(c, t, 1, hi, hf, ho, &F.count, n)) \
    X(select_flagged_pairs_host, HOST | TYPED,                                               \
      sk_select_flagged_pairs_host(c, t, 4, 1, hi, hi, hf, ho, hv, &F.count, n))             \
    X(partition_host, HOST | TYPED | PREDICATE, sk_partition_host(c, t, p, hi, ho, &F.count, n)) \
    X(partition_pairs_host, HOST | TYPED | PREDICATE,                                        \
      sk_partition_pairs_host(c, t, 4, p, hi, hi, ho, hv, &F.count, n))                      \
    X(partition_reversed_host, HOST | TYPED | PREDICATE,                                     \
      sk_partition_reversed_host(c, t, p, hi, ho, &F.count, n))                              \
    X(partition_reversed_pairs_host, HOST | TYPED | PREDICATE,                               \
      sk_partition_reversed_pairs_host(c, t, 4, p, hi, hi, ho, hv, &F.count, n))             \
    X(unique_host, HOST | TYPED, sk_unique_host(c, t, hi, ho, &F.count, n))                  \
    X(unique_pairs_host, HOST | TYPED, sk_unique_pairs_host(c, t, 4, hi, hi, ho, hv, &F.count, n)) \
    X(sort_keys, KEYS | TYPED, sk_sort_keys(c, t, F.out, n, A))                                     \
    X(sort_pairs, KEYS | TYPED, sk_sort_pairs(c, t, 4, F.out, F.vout, n, A))                        \
    X(sort_keys_bits, KEYS | TYPED, sk_sort_keys_bits(c, t, F.out, n, A, 0, 8))                     \
    X(sort_pairs_bits, KEYS | TYPED, sk_sort_pairs_bits(c, t, 4, F.out, F.vout, n, A, 0, 8))        \
    X(sort_keys_host, KEYS | HOST | TYPED, sk_sort_keys_host(c, t, ho, n, A))                       \
    X(sort_pairs_host, KEYS | HOST | TYPED, sk_sort_pairs_host(c, t, 4, ho, hv, n, A))              \
    X(sort_keys_bits_host, KEYS | HOST | TYPED, sk_sort_keys_bits_host(c, t, ho, n, A, 0, 8))       \
    X(sort_pairs_bits_host, KEYS | HOST | TYPED, sk_sort_pairs_bits_host(c, t, 4, ho, hv, n, A, 0, 8)) \
    X(segscan_inclusive, SEGMENTED | TYPED,                                                  \
      sk_segscan_inclusive(c, t, SK_OP_ADD, F.in, sg, F.out, n))                             \
    X(segscan_exclusive, SEGMENTED | TYPED,                                                  \
      sk_segscan_exclusive(c, t, SK_OP_ADD, F.in, sg, F.out, n))                             \
    X(segreduce, SEGMENTED | TYPED, sk_segreduce(c, t, SK_OP_ADD, F.in, sg, F.out, &F.count, n)) \
    X(segscan_inclusive_monoid, SEGMENTED | MONOID,                                          \
      sk_segscan_inclusive_monoid(c, m, F.in, sg, F.out, n))                                 \
    X(segscan_exclusive_monoid, SEGMENTED | MONOID,                                          \
      sk_segscan_exclusive_monoid(c, m, F.in, sg, F.out, n))                                 \
    X(segreduce_monoid, SEGMENTED | MONOID,                                                  \
      sk_segreduce_monoid(c, m, F.in, sg, F.out, &F.count, n))                               \
    X(segscan_inclusive_host, SEGMENTED | HOST | TYPED,                                      \
      sk_segscan_inclusive_host(c, t, SK_OP_ADD, hi, hs, ho, n))                             \
    X(segscan_exclusive_host, SEGMENTED | HOST | TYPED,                                      \
      sk_segscan_exclusive_host(c, t, SK_OP_ADD, hi, hs, ho, n))                             \
    X(segreduce_host, SEGMENTED | HOST | TYPED,                                              \
      sk_segreduce_host(c, t, SK_OP_ADD, hi, hs, ho, &F.count, n))                           \
    X(segscan_inclusive_monoid_host, SEGMENTED | HOST | MONOID,                              \
      sk_segscan_inclusive_monoid_host(c, m, hi, hs, ho, n))                                 \
    X(segscan_exclusive_monoid_host, SEGMENTED | HOST | MONOID,                              \
      sk_segscan_exclusive_monoid_host(c, m, hi, hs, ho, n))                                 \
    X(segreduce_monoid_host, SEGMENTED | HOST | MONOID,                                      \
      sk_segreduce_monoid_host(c, m, hi, hs, ho, &F.count, n))                               \
    X(poly_eval, TYPED, sk_poly_eval(c, t, F.in, 0.5, &F.result, n))                         \
    X(poly_eval_points, TYPED, sk_poly_eval_points(c, t, F.in, F.in, F.out, n, n))           \
    X(poly_horner_prefixes, TYPED, sk_poly_horner_prefixes(c, t, F.in, 0.5, F.out, n))       \
    X(poly_eval_host, HOST | TYPED, sk_poly_eval_host(c, t, hi, 0.5, &F.result, n))          \
    X(poly_eval_points_host, HOST | TYPED, sk_poly_eval_points_host(c, t, hi, hi, ho, n, n)) \
    X(poly_horner_prefixes_host, HOST | TYPED, sk_poly_horner_prefixes_host(c, t, hi, 0.5, ho, n)) \
    X(histogram_even, TYPED, sk_histogram_even(c, t, F.in, 0.0, 1.0, F.out, n, 4))           \
    X(histogram_edges, TYPED, sk_histogram_edges(c, t, F.in, F.in, F.out, n, 4))             \
    X(histogram_even_host, HOST | TYPED, sk_histogram_even_host(c, t, hi, 0.0, 1.0, ho, n, 4)) \
    X(histogram_edges_host, HOST | TYPED, sk_histogram_edges_host(c, t, hi, hi, ho, n, 4))   \
    X(run_length_encode, TYPED, sk_run_length_encode(c, t, F.in, F.out, F.vout, &F.count, n)) \
    X(reduce_by_key, TYPED,                                                                  \
      sk_reduce_by_key(c, t, t, SK_OP_ADD, F.in, F.in, F.out, F.vout, &F.count, n))          \
    X(reduce_by_key_monoid, MONOID,                                                          \
      sk_reduce_by_key_monoid(c, SK_UINT32, m, F.in, F.in, F.out, F.vout, &F.count, n))      \
    X(scan_by_key_inclusive, TYPED,                                                          \
      sk_scan_by_key_inclusive(c, t, t, SK_OP_ADD, F.in, F.in, F.out, n))                    \
    X(scan_by_key_exclusive, TYPED,                                                          \
      sk_scan_by_key_exclusive(c, t, t, SK_OP_ADD, F.in, F.in, F.out, n))                    \
    X(scan_by_key_inclusive_monoid, MONOID,                                                  \
      sk_scan_by_key_inclusive_monoid(c, SK_UINT32, m, F.in, F.in, F.out, n))                \
    X(scan_by_key_exclusive_monoid, MONOID,                                                  \
      sk_scan_by_key_exclusive_monoid(c, SK_UINT32, m, F.in, F.in, F.out, n))                \
    X(unique_by_key, TYPED, sk_unique_by_key(c, t, 4, F.in, F.in, F.out, F.vout, &F.count, n)) \
    X(run_length_encode_host, HOST | TYPED,                                                  \
      sk_run_length_encode_host(c, t, hi, ho, hv, &F.count, n))                              \
    X(reduce_by_key_host, HOST | TYPED,                                                      \
      sk_reduce_by_key_host(c, t, t, SK_OP_ADD, hi, hi, ho, hv, &F.count, n))                \
    X(reduce_by_key_monoid_host, HOST | MONOID,                                              \
      sk_reduce_by_key_monoid_host(c, SK_UINT32, m, hi, hi, ho, hv, &F.count, n))            \
    X(scan_by_key_inclusive_host, HOST | TYPED,                                              \
      sk_scan_by_key_inclusive_host(c, t, t, SK_OP_ADD, hi, hi, ho, n))                      \
    X(scan_by_key_exclusive_host, HOST | TYPED,                                              \
      sk_scan_by_key_exclusive_host(c, t, t, SK_OP_ADD, hi, hi, ho, n))                      \
    X(scan_by_key_inclusive_monoid_host, HOST | MONOID,                                      \
      sk_scan_by_key_inclusive_monoid_host(c, SK_UINT32, m, hi, hi, ho, n))                  \
    X(scan_by_key_exclusive_monoid_host, HOST | MONOID,                                      \
      sk_scan_by_key_exclusive_monoid_host(c, SK_UINT32, m, hi, hi, ho, n))                  \
    X(unique_by_key_host, HOST | TYPED,                                                      \
      sk_unique_by_key_host(c, t, 4, hi, hi, ho, hv, &F.count, n))                           \
    X(merge_keys, KEYS | TYPED | BITS, sk_merge_keys(c, t, F.in, F.in, F.out, n, n, A))              \
    X(merge_pairs, KEYS | TYPED | BITS,                                                             \
      sk_merge_pairs(c, t, 4, F.in, F.in, F.in, F.in, F.out, F.vout, n, n, A))               \
    X(merge_keys_host, KEYS | HOST | TYPED | BITS, sk_merge_keys_host(c, t, hi, hi, ho, n, n, A))   \
    X(merge_pairs_host, KEYS | HOST | TYPED | BITS,                                                 \
      sk_merge_pairs_host(c, t, 4, hi, hi, hi, hi, ho, hv, n, n, A))                         \
    X(search_lower_bound, KEYS | TYPED | BITS, sk_search_lower_bound(c, t, F.in, F.in, F.out, n, n, A)) \
    X(search_upper_bound, KEYS | TYPED | BITS, sk_search_upper_bound(c, t, F.in, F.in, F.out, n, n, A)) \
    X(search_lower_bound_host, KEYS | HOST | TYPED | BITS,                                          \
      sk_search_lower_bound_host(c, t, hi, hi, ho, n, n, A))                                 \
    X(search_upper_bound_host, KEYS | HOST | TYPED | BITS,                                          \
      sk_search_upper_bound_host(c, t, hi, hi, ho, n, n, A))                                 \
    X(sort_by_less, USER, sk_sort_by_less(c, cmp, F.out, n))                                  \
    X(sort_pairs_by_less, USER, sk_sort_pairs_by_less(c, cmp, 4, F.out, F.vout, n))           \
    X(sort_by_less_host, HOST | USER, sk_sort_by_less_host(c, cmp, ho, n))                    \
    X(sort_pairs_by_less_host, HOST | USER, sk_sort_pairs_by_less_host(c, cmp, 4, ho, hv, n)) \
    X(sort_by_fields, USER, sk_sort_by_fields(c, by, F.out, n))                               \
    X(sort_pairs_by_fields, USER, sk_sort_pairs_by_fields(c, by, 4, F.out, F.vout, n))        \
    X(sort_by_fields_host, HOST | USER, sk_sort_by_fields_host(c, by, ho, n))                 \
    X(sort_pairs_by_fields_host, HOST | USER,                                                 \
      sk_sort_pairs_by_fields_host(c, by, 4, ho, hv, n))                                      \
    X(segsort_keys, KEYS | SEGMENTED | TYPED, sk_segsort_keys(c, t, F.out, sg, n, A))               \
    X(segsort_pairs, KEYS | SEGMENTED | TYPED, sk_segsort_pairs(c, t, 4, F.out, F.vout, sg, n, A))  \
    X(segsort_keys_bits, KEYS | SEGMENTED | TYPED, sk_segsort_keys_bits(c, t, F.out, sg, n, A, 0, 8)) \
    X(segsort_pairs_bits, KEYS | SEGMENTED | TYPED,                                                 \
      sk_segsort_pairs_bits(c, t, 4, F.out, F.vout, sg, n, A, 0, 8))                         \
    X(segsort_keys_host, KEYS | SEGMENTED | HOST | TYPED, sk_segsort_keys_host(c, t, ho, hs, n, A)) \
    X(segsort_pairs_host, KEYS | SEGMENTED | HOST | TYPED,                                          \
      sk_segsort_pairs_host(c, t, 4, ho, hv, hs, n, A))                                      \
    X(segsort_keys_bits_host, KEYS | SEGMENTED | HOST | TYPED,                                      \
      sk_segsort_keys_bits_host(c, t, ho, hs, n, A, 0, 8))                                   \
    X(segsort_pairs_bits_host, KEYS | SEGMENTED | HOST | TYPED,                                     \
      sk_segsort_pairs_bits_host(c, t, 4, ho, hv, hs, n, A, 0, 8))

enum {
#define FORM_ENUM_(name, kinds, call) FORM_##name,
    FORMS(FORM_ENUM_)
#undef FORM_ENUM_
    FORM_COUNT
};

static const char *const FORM_NAMES[] = {
#define FORM_NAME_(name, kinds, call) "sk_" #name,
    FORMS(FORM_NAME_)
#undef FORM_NAME_
};

static const unsigned FORM_KINDS[] = {
#define FORM_KINDS_(name, kinds, call) kinds,
    FORMS(FORM_KINDS_)
#undef FORM_KINDS_
};

static sk_status call_form(int form, const form_args *a)
{
    sk_context *c = a->c;
    sk_type t = a->t;
    const sk_monoid *m = a->m;
    const char *p = a->p;
    const sk_comparator *cmp = a->cmp;
    const sk_field_order *by = a->by;
    size_t n = a->n;
    const void *hi = a->hi, *hf = a->hf;
    void *ho = a->ho, *hv = a->hv;
    const sk_segments *sg = &a->seg;
    const sk_segments_host *hs = &a->hseg;
    switch (form) {
#define FORM_CASE_(name, kinds, call) \
    case FORM_##name: return call;
        FORMS(FORM_CASE_)
#undef FORM_CASE_
    }
    return SK_E_INVALID_ARG;
}

/* The comparator and field order of the USER forms: floats by value. */
static const sk_comparator FLOAT_LESS = {"float", 4, "a < b", NULL};
static const sk_sort_field FLOAT_FIELD = {"x", SK_FLOAT32, SK_ASCENDING};
static const sk_field_order BY_FLOAT = {"float", 4, NULL, &FLOAT_FIELD, 1};

/* The arguments of a call every form accepts: float32 (or mat2 for the
 * monoid forms, floats by value for the USER forms), N elements, segments
 * by one offset (0). */
static form_args good_args(void)
{
    return (form_args){skt_ctx, SK_FLOAT32, skt_monoid_mat2(), PRED, &FLOAT_LESS, &BY_FLOAT, N,
                       F.hin, F.hflags, F.hout, F.hvout,
                       (sk_segments){NULL, 0, F.offs, SK_UINT32, 1},
                       (sk_segments_host){NULL, 0, F.hoffs, SK_UINT32, 1}};
}

/* Every form of all the kinds `need` and none of `none` gives `want` for
 * a's arguments and writes no output; `why` names the arguments in
 * messages. */
static void expect_forms(unsigned need, unsigned none, const form_args *a, sk_status want,
                         const char *why)
{
    for (int f = 0; f < FORM_COUNT; f++) {
        if ((FORM_KINDS[f] & need) != need || (FORM_KINDS[f] & none)) continue;
        poison_outputs();
        sk_status st = call_form(f, a);
        cr_assert_eq(st, want, "%s with %s -> %s (%s), expected %s [seed %llu]", FORM_NAMES[f],
                     why, sk_status_name(st), a->c ? sk_context_error_detail(a->c) : "",
                     sk_status_name(want), (unsigned long long)skt_seed());
        if (want == SK_E_BUILD)
            cr_assert_gt(strlen(sk_context_build_log(a->c)), 0, "%s: no build log",
                         FORM_NAMES[f]);
        expect_outputs_untouched(FORM_NAMES[f]);
    }
}

Test(api_status, every_form_should_refuse_a_null_context_with_invalid_arg)
{
    form_args a = good_args();
    a.c = NULL;
    expect_forms(0, 0, &a, SK_E_INVALID_ARG, "a NULL context");
}

Test(api_status, every_typed_form_should_refuse_an_invalid_type_with_invalid_arg)
{
    form_args a = good_args();
    const sk_type bad[] = {(sk_type)-1, (sk_type)SK_KEY_TYPE_COUNT, (sk_type)42};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        a.t = bad[i];
        expect_forms(TYPED, 0, &a, SK_E_INVALID_ARG, skt_fmt("type %d", (int)bad[i]));
    }
}

/* The 8- and 16-bit key types (SK_KEY_TYPE_MAP) are sort keys only: every
 * form that computes with its elements refuses them. */
Test(api_status, every_typed_form_but_the_sorts_should_refuse_a_key_only_type_as_unsupported)
{
    form_args a = good_args();
    for (int t = SK_TYPE_COUNT; t < SK_KEY_TYPE_COUNT; t++) {
        a.t = (sk_type)t;
        expect_forms(TYPED, KEYS, &a, SK_E_UNSUPPORTED, sk_type_name(a.t));
    }
}

/* The check comes before any allocation or transfer: the buffers and host
 * arrays are F's small ones. */
Test(api_status, every_form_should_give_size_for_n_whose_byte_size_overflows)
{
    form_args a = good_args();
    const size_t wraps[] = {SIZE_MAX / 4 + 2, SIZE_MAX / 2 + 1, SIZE_MAX};
    a.hseg = (sk_segments_host){F.hflags, 1, NULL, SK_UINT32, 0};
    for (size_t i = 0; i < sizeof wraps / sizeof wraps[0]; i++) {
        a.n = wraps[i];
        expect_forms(0, 0, &a, SK_E_SIZE, skt_fmt("n = %zu (float32, mat2)", a.n));
    }
    /* by flags of 4 bytes, whose byte size overflows as well */
    a.n = SIZE_MAX / 4 + 2;
    a.seg = (sk_segments){F.flags, 4, NULL, SK_UINT32, 0};
    expect_forms(SEGMENTED, HOST, &a, SK_E_SIZE, "n = SIZE_MAX / 4 + 2, flags of 4 bytes");
    /* by flags of 1 byte, whose byte size does not overflow: the values' does */
    a.seg = (sk_segments){F.flags, 1, NULL, SK_UINT32, 0};
    expect_forms(SEGMENTED, HOST, &a, SK_E_SIZE, "n = SIZE_MAX / 4 + 2, flags of 1 byte");
    /* the values alone (8 bytes beside 4-byte keys) */
    size_t nv = SIZE_MAX / 8 + 1;
    REFUSED(sk_select_if_pairs(skt_ctx, SK_FLOAT32, 8, PRED, F.in, F.in, F.out, F.vout,
                               &F.count, nv), SK_E_SIZE);
    REFUSED(sk_select_flagged_pairs(skt_ctx, SK_FLOAT32, 8, 1, F.in, F.in, F.flags, F.out,
                                    F.vout, &F.count, nv), SK_E_SIZE);
    REFUSED(sk_partition_pairs_devcount(skt_ctx, SK_FLOAT32, 8, PRED, F.in, F.in, F.out, F.vout,
                                        F.cnt, nv), SK_E_SIZE);
    REFUSED(sk_unique_pairs(skt_ctx, SK_FLOAT32, 8, F.in, F.in, F.out, F.vout, &F.count, nv),
            SK_E_SIZE);
    REFUSED(sk_sort_pairs(skt_ctx, SK_FLOAT32, 8, F.out, F.vout, nv, A), SK_E_SIZE);
    /* the points alone */
    REFUSED(sk_poly_eval_points(skt_ctx, SK_FLOAT32, F.in, F.in, F.out, 8, SIZE_MAX / 4 + 2),
            SK_E_SIZE);
    REFUSED(sk_poly_eval_points_host(skt_ctx, SK_FLOAT32, F.hin, F.hin, F.hout, 8,
                                     SIZE_MAX / 4 + 2),
            SK_E_SIZE);
}

/* Host forms: the device copy of an array one element over the device's
 * largest buffer is refused before anything is allocated or read. The
 * arrays are address space only; the outputs must not have a page
 * touched. */
Test(api_status, every_host_form_should_give_size_for_an_array_over_the_largest_buffer)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &d));
    if (d.max_alloc_bytes >= SIZE_MAX / 4)
        cr_skip_test("the device's largest buffer is beyond this host's address space");
    size_t n = (size_t)(d.max_alloc_bytes / 4) + 1, bytes = n * 4;
    void *in = skt_map_zeros(bytes), *out = skt_map_zeros(bytes), *vout = skt_map_zeros(bytes);
    form_args a = good_args();
    a.n = n;
    a.m = skt_monoid_interval16(); /* 4 bytes, as float32 */
    a.hi = a.hf = in;
    a.ho = out;
    a.hv = vout;
    expect_forms(HOST, 0, &a, SK_E_SIZE, skt_fmt("n = %zu (%zu bytes)", n, bytes));
    cr_assert_eq(sk_context_cl_error(skt_ctx), CL_SUCCESS, "an OpenCL call failed");
    cr_assert_eq(skt_pages_touched(out, bytes), 0, "a host form touched its output");
    cr_assert_eq(skt_pages_touched(vout, bytes), 0, "a host form touched its values output");
    /* the values' copy alone over it (8 bytes beside 4-byte keys): refused
     * before the keys are copied */
    size_t nv = (size_t)(d.max_alloc_bytes / 8) + 1;
    REFUSED(sk_select_if_pairs_host(skt_ctx, SK_FLOAT32, 8, PRED, in, in, out, vout, &F.count,
                                    nv), SK_E_SIZE);
    REFUSED(sk_sort_pairs_host(skt_ctx, SK_FLOAT32, 8, out, vout, nv, A), SK_E_SIZE);
    cr_assert_eq(skt_pages_touched(out, bytes), 0, "a pair form touched its keys");
    cr_assert_eq(skt_pages_touched(in, bytes), 0, "a form read an input before refusing");
    skt_unmap(in, bytes);
    skt_unmap(out, bytes);
    skt_unmap(vout, bytes);
    skt_check_small_scan(skt_ctx, 1000, SK_OP_ADD);
}

Test(api_status, every_typed_form_should_give_unsupported_for_float64_without_fp64)
{
    if (skt_has_fp64())
        cr_skip_test("the device has fp64 (float64 runs in each primitive's suite)");
    form_args a = good_args();
    a.t = SK_FLOAT64;
    a.p = "x > 1.0";
    expect_forms(TYPED, BITS, &a, SK_E_UNSUPPORTED, "float64");
}

/* A predicate or monoid that does not compile: SK_E_BUILD with a log,
 * nothing written, and the context computes afterwards. A failed build is
 * not cached, so each call compiles (half a second on PoCL): the cl_mem
 * forms, whose programs the host forms run, and the segmented host forms
 * (the others: test_compact_errors.c, test_scan_monoid.c). */
Test(api_status, every_predicate_and_monoid_form_should_give_build_for_code_that_does_not_compile)
{
    sk_monoid bad = *skt_monoid_mat2(), wrong_size = *skt_monoid_interval();
    bad.combine = "skt_mat2_mul(a, b) +* ;";
    wrong_size.size = 4; /* int2: 8 bytes on the device */
    form_args a = good_args();
    a.m = &bad;
    a.p = "x +* (";
    a.seg = (sk_segments){F.flags, 1, NULL, SK_UINT32, 0};
    a.hseg = (sk_segments_host){F.hflags, 1, NULL, SK_UINT32, 0};
    expect_forms(PREDICATE, HOST, &a, SK_E_BUILD, "a predicate that does not compile");
    expect_forms(MONOID, HOST, &a, SK_E_BUILD, "a monoid that does not compile");
    expect_forms(SEGMENTED | MONOID | HOST, 0, &a, SK_E_BUILD, "a monoid that does not compile");
    const sk_comparator bad_less = {"float", 4, "a <> b", NULL};
    const sk_sort_field bad_field = {"x.nosuchfield", SK_FLOAT32, SK_ASCENDING};
    const sk_field_order bad_by = {"float", 4, NULL, &bad_field, 1};
    a.cmp = &bad_less;
    a.by = &bad_by;
    expect_forms(USER, HOST, &a, SK_E_BUILD, "a comparator or field key that does not compile");
    a.m = &wrong_size; /* the scans: test_scan_monoid.c */
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (int by_offsets = 0; by_offsets < 2; by_offsets++) {
            a.seg = by_offsets ? (sk_segments){NULL, 0, F.offs, SK_UINT32, 1}
                               : (sk_segments){F.flags, 1, NULL, SK_UINT32, 0};
            a.hseg = by_offsets ? (sk_segments_host){NULL, 0, F.hoffs, SK_UINT32, 1}
                                : (sk_segments_host){F.hflags, 1, NULL, SK_UINT32, 0};
            expect_forms(SEGMENTED | MONOID, 0, &a, SK_E_BUILD,
                         skt_fmt("a monoid size the device disagrees with, %s shape, by %s",
                                 skt_shape_name((sk_shape)shape),
                                 by_offsets ? "offsets" : "flags"));
        }
    }
    skt_check_small_scan(skt_ctx, 1000, SK_OP_ADD);
}

/* ---- the remaining bad arguments, family by family ------------------------------------ */

Test(api_status, sort_bit_range_and_host_forms_should_refuse_bad_arguments)
{
    sk_context *c = skt_ctx;
    const sk_status E = SK_E_INVALID_ARG;
    static const unsigned bad_bits[][2] = {{8, 8}, {9, 8}, {0, 33}, {32, 40}};
    for (size_t i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; i++) {
        unsigned b = bad_bits[i][0], e = bad_bits[i][1];
        REFUSED(sk_sort_keys_bits_host(c, SK_UINT32, F.hout, N, A, b, e), E);
        REFUSED(sk_sort_pairs_bits_host(c, SK_FLOAT32, 8, F.hout, F.hvout, N, A, b, e), E);
    }
    REFUSED(sk_sort_pairs_bits_host(c, SK_UINT64, 8, F.hout, F.hvout, N, A, 0, 65), E);
    REFUSED(sk_sort_pairs_bits_host(c, SK_UINT32, 2, F.hout, F.hvout, N, A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits_host(c, SK_UINT32, 4, F.hout, F.hout, N, A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits_host(c, SK_UINT32, 4, F.hout, NULL, N, A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits_host(c, SK_UINT32, 4, NULL, F.hvout, N, A, 0, 8), E);
    REFUSED(sk_sort_keys_bits_host(c, SK_UINT32, NULL, N, A, 0, 8), E);
    REFUSED(sk_sort_keys_bits_host(c, SK_UINT32, F.hout, N, (sk_sort_order)2, 0, 8), E);
    REFUSED(sk_sort_pairs_host(c, SK_UINT32, 4, NULL, F.hvout, N, A), E);
    REFUSED(sk_sort_keys_bits(c, SK_UINT32, NULL, N, A, 0, 8), E);
    REFUSED(sk_sort_keys_bits(c, SK_UINT32, F.out, N, (sk_sort_order)-1, 0, 8), E);
    REFUSED(sk_sort_keys_bits(c, SK_UINT32, F.out, OVER_OUT(4), A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits(c, SK_UINT32, 4, F.out, F.out, N, A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits(c, SK_UINT32, 4, F.out, NULL, N, A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits(c, SK_UINT64, 8, F.out, F.vout, OVER_OUT(8), A, 0, 8), E);
    REFUSED(sk_sort_pairs_bits(c, SK_UINT32, 16, F.out, F.vout, N, A, 0, 8), E);
    REFUSED(sk_sort_pairs(c, SK_UINT32, 4, NULL, F.vout, N, A), E);
}

Test(api_status, segmented_forms_should_refuse_bad_monoids_operators_and_arrays)
{
    sk_context *c = skt_ctx;
    const sk_status E = SK_E_INVALID_ARG;
    const sk_monoid *mat2 = skt_monoid_mat2();
    sk_monoid no_size = *mat2, no_identity = *mat2;
    no_size.size = 0;
    no_identity.identity = NULL;
    sk_segments sg = {F.flags, 1, NULL, SK_UINT32, 0};
    sk_segments_host hs = {F.hflags, 1, NULL, SK_UINT32, 0};
    REFUSED(sk_segscan_exclusive_monoid(c, NULL, F.in, &sg, F.out, N), E);
    REFUSED(sk_segscan_exclusive_monoid(c, &no_size, F.in, &sg, F.out, N), E);
    REFUSED(sk_segreduce_monoid(c, &no_identity, F.in, &sg, F.out, &F.count, N), E);
    REFUSED(sk_segreduce_monoid(c, NULL, F.in, &sg, F.out, &F.count, N), E);
    REFUSED(sk_segreduce_monoid(c, mat2, F.in, &sg, F.out, &F.count, OVER_OUT(16)), E);
    REFUSED(sk_segscan_inclusive_monoid_host(c, &no_size, F.hin, &hs, F.hout, N), E);
    REFUSED(sk_segscan_exclusive_monoid_host(c, NULL, F.hin, &hs, F.hout, N), E);
    REFUSED(sk_segscan_exclusive_monoid_host(c, mat2, F.hin, &hs, NULL, N), E);
    REFUSED(sk_segreduce_monoid_host(c, &no_identity, F.hin, &hs, F.hout, &F.count, N), E);
    REFUSED(sk_segreduce_monoid_host(c, mat2, F.hin, &hs, NULL, &F.count, N), E);
    REFUSED(sk_segreduce_monoid_host(c, mat2, F.hin, NULL, F.hout, &F.count, N), E);
    REFUSED(sk_segscan_inclusive_host(c, SK_UINT32, SK_OP_ADD, NULL, &hs, F.hout, N), E);
    REFUSED(sk_segreduce(c, SK_UINT32, (sk_op)9, F.in, &sg, F.out, &F.count, N), E);
    REFUSED(sk_segscan_exclusive_host(c, SK_UINT32, (sk_op)-1, F.hin, &hs, F.hout, N), E);
    REFUSED(sk_segreduce_host(c, SK_UINT32, (sk_op)SK_OP_COUNT, F.hin, &hs, F.hout, &F.count, N),
            E);
    REFUSED(sk_segscan_exclusive(c, SK_UINT32, SK_OP_ADD, F.in, &sg, F.out, OVER_OUT(4)), E);
}

Test(api_status, segmented_forms_should_give_unsupported_for_bitwise_operators_on_floats)
{
    sk_context *c = skt_ctx;
    const sk_status U = SK_E_UNSUPPORTED;
    sk_segments sg = {F.flags, 1, NULL, SK_UINT32, 0};
    sk_segments_host hs = {F.hflags, 1, NULL, SK_UINT32, 0};
    for (int op = SK_OP_AND; op <= SK_OP_XOR; op++) {
        REFUSED(sk_segreduce(c, SK_FLOAT32, (sk_op)op, F.in, &sg, F.out, &F.count, N), U);
        REFUSED(sk_segscan_inclusive_host(c, SK_FLOAT32, (sk_op)op, F.hin, &hs, F.hout, N), U);
        REFUSED(sk_segscan_exclusive_host(c, SK_FLOAT64, (sk_op)op, F.hin, &hs, F.hout, N), U);
        REFUSED(sk_segreduce_host(c, SK_FLOAT32, (sk_op)op, F.hin, &hs, F.hout, &F.count, N), U);
    }
}

Test(api_status, poly_forms_should_refuse_small_buffers_and_missing_arrays)
{
    sk_context *c = skt_ctx;
    const sk_status E = SK_E_INVALID_ARG;
    const sk_type T = SK_FLOAT32;
    REFUSED(sk_poly_horner_prefixes(c, T, F.in, 0.5, F.out, OVER_OUT(4)), E);
    REFUSED(sk_poly_horner_prefixes(c, T, NULL, 0.5, F.out, 8), E);
    REFUSED(sk_poly_eval_points(c, T, F.in, F.in, F.out, 8, OVER_OUT(4)), E);
    REFUSED(sk_poly_eval_points(c, T, F.in, NULL, F.out, 8, 8), E);
    REFUSED(sk_poly_eval_points(c, T, F.in, F.in, F.out, 2 * BYTES / 4 + 1, 8), E);
    REFUSED(sk_poly_eval_host(c, T, F.hin, 0.5, NULL, 8), E);
    REFUSED(sk_poly_eval_host(c, T, NULL, 0.5, &F.result, 8), E);
    REFUSED(sk_poly_eval_points_host(c, T, F.hin, NULL, F.hout, 8, 8), E);
    REFUSED(sk_poly_eval_points_host(c, T, NULL, F.hin, F.hout, 8, 8), E);
    REFUSED(sk_poly_horner_prefixes_host(c, T, F.hin, 0.5, NULL, 8), E);
    REFUSED(sk_poly_horner_prefixes_host(c, T, NULL, 0.5, F.hout, 8), E);
    REFUSED(sk_poly_horner_prefixes_host(c, SK_INT64, F.hin, 0.5, F.hout, 8), E);
    REFUSED(sk_poly_eval_points_host(c, SK_UINT32, F.hin, F.hin, F.hout, 8, 8), E);
}

Test(api_status, compaction_host_and_devcount_forms_should_refuse_bad_arguments)
{
    sk_context *c = skt_ctx;
    const sk_status E = SK_E_INVALID_ARG;
    const sk_type T = SK_UINT32;
    const char *p = "x > 1u";
    REFUSED(sk_select_if_host(c, T, p, F.hin, F.hout, NULL, N), E);
    REFUSED(sk_partition_host(c, T, NULL, F.hin, F.hout, &F.count, N), E);
    REFUSED(sk_partition_pairs_host(c, T, 4, "", F.hin, F.hin, F.hout, F.hvout, &F.count, N), E);
    REFUSED(sk_select_flagged_host(c, T, 3, F.hin, F.hflags, F.hout, &F.count, N), E);
    REFUSED(sk_select_flagged_host(c, T, 1, F.hin, NULL, F.hout, &F.count, N), E);
    REFUSED(sk_unique_host(c, T, F.hin, NULL, &F.count, N), E);
    REFUSED(sk_unique_pairs_host(c, T, 4, F.hin, F.hin, F.hout, NULL, &F.count, N), E);
    REFUSED(sk_select_if_devcount(c, T, NULL, F.in, F.out, F.cnt, N), E);
    REFUSED(sk_partition_devcount(c, T, "", F.in, F.out, F.cnt, N), E);
    REFUSED(sk_select_flagged_devcount(c, T, 2, F.in, F.flags, F.out, F.cnt, N), E);
    REFUSED(sk_select_flagged_devcount(c, T, 1, F.in, NULL, F.out, F.cnt, N), E);
    REFUSED(sk_select_flagged_pairs_devcount(c, T, 3, 1, F.in, F.in, F.flags, F.out, F.vout,
                                             F.cnt, N),
            E);
    REFUSED(sk_select_if_pairs_devcount(c, T, 4, p, F.in, NULL, F.out, F.vout, F.cnt, N), E);
    REFUSED(sk_partition_pairs_devcount(c, T, 4, p, F.in, F.in, F.out, F.out, F.cnt, N), E);
    REFUSED(sk_unique_pairs_devcount(c, T, 4, F.in, F.in, F.out, F.in, F.cnt, N), E);
    REFUSED(sk_unique_devcount(c, T, F.in, F.out, F.cnt, OVER_OUT(4)), E);
    REFUSED(sk_select_if_devcount(c, T, p, F.in, NULL, F.cnt, N), E);
}

/* ---- no OpenCL platform --------------------------------------------------------------- */

/* The ICD loader reads its vendor list at the process's first OpenCL call
 * (Criterion runs each test in a new process): a list that does not exist
 * leaves it with no platform. */
Test(api_status_no_platform, list_and_create_should_give_no_device_without_any_platform)
{
    setenv("OCL_ICD_VENDORS", "/nonexistent/scankit-no-icd", 1);
    size_t count = 77;
    sk_status st = sk_device_list(NULL, 0, &count);
    if (st == SK_OK)
        cr_skip_test("the ICD loader found %zu devices without a vendor list", count);
    cr_assert_eq(st, SK_E_NO_DEVICE, "sk_device_list -> %s", sk_status_name(st));
    cr_assert_eq(count, 0, "*count is %zu, not 0", count);
    sk_device_desc d[2] = {SK_DEVICE_DESC_INIT, SK_DEVICE_DESC_INIT};
    count = 77;
    SKT_EXPECT_STATUS(sk_device_list(d, 2, &count), SK_E_NO_DEVICE);
    cr_assert_eq(count, 0);
    const char *specs[] = {NULL, "0", "0:0", "cpu"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        sk_context *ctx = (sk_context *)&count; /* any non-NULL value */
        char why[256];
        skt_poison(why, sizeof why);
        SKT_EXPECT_STATUS(sk_context_create(&ctx, specs[i], why, sizeof why), SK_E_NO_DEVICE);
        cr_assert_null(ctx, "*ctx is not NULL after SK_E_NO_DEVICE");
        cr_assert(memchr(why, 0, sizeof why) != NULL && why[0] != 0, "why is empty");
    }
}
