/*
 * test_compact_errors.c - stream compaction given what it must refuse:
 * malformed predicates (a build error with its log, the context still
 * usable), every bad argument of every form, cl_mem and host, keys only
 * and pairs (SK_E_INVALID_ARG, count and outputs untouched), sizes whose
 * bytes overflow; and the edge cases of the pair forms without values and
 * of results that keep everything or nothing (the sweeps:
 * test_compact.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

TestSuite(compact_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

/* Buffers of n + 16 8-byte elements: keys, flags and values in and out on
 * the device (s, f, vs; d, vd) and on the host (src, flags, vals; out,
 * vout). */
static struct {
    cl_mem s, d, f, vs, vd;
    unsigned char *src, *out, *flags, *vals, *vout;
} B;

static void reserve(size_t n)
{
    cl_mem *mems[] = {&B.s, &B.d, &B.f, &B.vs, &B.vd};
    unsigned char **hosts[] = {&B.src, &B.out, &B.flags, &B.vals, &B.vout};
    for (size_t i = 0; i < 5; i++) {
        *mems[i] = skt_buf_new((n + 16) * 8);
        *hosts[i] = skt_malloc((n + 16) * 8);
    }
}

/* The buffers for n elements, n random words as keys, flags and values
 * (B.s, B.f, B.vs; B.src on the host), and a buffer one uint32 short of
 * n (the caller frees it). */
static cl_mem random_inputs(size_t n)
{
    reserve(n);
    for (size_t i = 0; i < n * 8; i++) B.src[i] = (unsigned char)skt_rand();
    skt_buf_upload(B.s, 0, B.src, n * 8);
    skt_buf_upload(B.f, 0, B.src, n * 8);
    skt_buf_upload(B.vs, 0, B.src, n * 8);
    return skt_buf_new(4 * (n - 1));
}

Test(compact_errors, malformed_predicate_gives_build_error_with_log_and_context_stays_usable)
{
    uint32_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
    size_t count = 12345;
    skt_poison(dst, sizeof dst);
    SKT_EXPECT_STATUS(sk_select_if_host(skt_ctx, SK_UINT32, "x + undefined_name(", src, dst,
                                        &count, 8),
                      SK_E_BUILD);
    cr_assert_gt(strlen(sk_context_build_log(skt_ctx)), 0, "the build log is empty");
    cr_assert_eq(count, 12345, "count was written on failure");
    cr_assert_eq(skt_find_unpoisoned(dst, sizeof dst), (size_t)-1, "dst was written on failure");
    SKT_EXPECT_STATUS(sk_partition_host(skt_ctx, SK_FLOAT32, "x % 3 == 0", src, dst, &count, 8),
                      SK_E_BUILD); /* % is not defined on float */
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "(x & 1u) == 0", src, dst, &count, 8));
    cr_assert_eq(count, 4);
    cr_assert(dst[0] == 2 && dst[1] == 4 && dst[2] == 6 && dst[3] == 8);
}

/* count is still 777, and the first 64 elements of B.out (`keys`) and
 * B.vout are still poison after `call`. */
static void expect_untouched(const char *call, size_t count, const char *keys)
{
    cr_assert_eq(count, 777, "%s wrote count", call);
    cr_assert_eq(skt_find_unpoisoned(B.out, 64 * 8), (size_t)-1, "%s wrote %s", call, keys);
    cr_assert_eq(skt_find_unpoisoned(B.vout, 64 * 8), (size_t)-1, "%s wrote values_out", call);
}

/* Asserts `call` gives SK_E_INVALID_ARG and leaves count, B.d and B.vd
 * poisoned. */
#define EXPECT_BAD_ARGS(call)                                                       \
    do {                                                                            \
        size_t count = 777;                                                         \
        skt_buf_poison(B.d, 64 * 8);                                                \
        skt_buf_poison(B.vd, 64 * 8);                                               \
        SKT_EXPECT_STATUS(call, SK_E_INVALID_ARG);                                  \
        skt_buf_download(B.d, 0, B.out, 64 * 8);                                    \
        skt_buf_download(B.vd, 0, B.vout, 64 * 8);                                  \
        expect_untouched(#call, count, "dst");                                      \
    } while (0)

/* The same for a host form writing to B.out and B.vout. */
#define EXPECT_BAD_HOST_ARGS(call)                                                  \
    do {                                                                            \
        size_t count = 777;                                                         \
        skt_poison(B.out, 64 * 8);                                                  \
        skt_poison(B.vout, 64 * 8);                                                 \
        SKT_EXPECT_STATUS(call, SK_E_INVALID_ARG);                                  \
        expect_untouched(#call, count, "keys_out");                                 \
    } while (0)

Test(compact_errors, bad_arguments_give_invalid_arg_and_leave_outputs_untouched)
{
    const size_t n = 64;
    cl_mem small = random_inputs(n);
    size_t *no_count = NULL;
    EXPECT_BAD_ARGS(sk_select_if(NULL, SK_UINT32, "1", B.s, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.s, B.d, no_count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, (sk_type)42, "1", B.s, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, NULL, B.s, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "", B.s, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", NULL, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.s, NULL, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.d, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", B.s, small, &count, n));
    EXPECT_BAD_ARGS(sk_select_if(skt_ctx, SK_UINT32, "1", small, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_partition(skt_ctx, SK_UINT32, "1", B.d, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_unique(skt_ctx, SK_UINT32, B.d, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_unique(skt_ctx, SK_UINT32, B.s, B.d, no_count, n));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, 2, B.s, B.f, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, 1, B.s, B.d, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, 1, B.s, NULL, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged(skt_ctx, SK_UINT32, 4, B.s, small, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, 3, "1", B.s, B.vs, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, 4, "1", B.s, B.vs, B.d, NULL, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, 4, "1", B.s, B.vs, B.d, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, 8, "1", B.s, B.vs, B.d, B.vs, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, 4, "1", B.s, small, B.d, B.vd, &count,
                                       n));
    EXPECT_BAD_ARGS(sk_select_if_host(skt_ctx, SK_UINT32, "1", NULL, B.out, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_host(skt_ctx, SK_UINT32, "1", B.src, NULL, &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged_host(skt_ctx, SK_UINT32, 1, B.src, NULL, B.vout, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs_host(skt_ctx, SK_UINT32, 4, "1", B.src, B.vals, B.vout,
                                            NULL, &count, n));
    skt_buf_free(small);
}

/* One of values_in / values_out NULL, value_size 2, an output that is an
 * input, a values buffer too small: every pair form, cl_mem and host. */
Test(compact_errors, bad_value_arguments_of_every_pair_form_give_invalid_arg)
{
    const size_t n = 64;
    cl_mem small = random_inputs(n);
    EXPECT_BAD_ARGS(sk_select_flagged_pairs(skt_ctx, SK_UINT32, 4, 1, B.s, NULL, B.f, B.d, B.vd,
                                            &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged_pairs(skt_ctx, SK_UINT32, 4, 1, B.s, B.vs, B.f, B.d, NULL,
                                            &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged_pairs(skt_ctx, SK_UINT32, 2, 1, B.s, B.vs, B.f, B.d, B.vd,
                                            &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged_pairs(skt_ctx, SK_UINT32, 4, 1, B.s, B.vs, B.f, B.d, B.f,
                                            &count, n));
    EXPECT_BAD_ARGS(sk_select_flagged_pairs(skt_ctx, SK_UINT32, 4, 3, B.s, B.vs, B.f, B.d, B.vd,
                                            &count, n));
    EXPECT_BAD_ARGS(sk_partition_pairs(skt_ctx, SK_UINT32, 8, "1", B.s, NULL, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_partition_pairs(skt_ctx, SK_UINT32, 8, "1", B.s, B.vs, B.d, NULL, &count, n));
    EXPECT_BAD_ARGS(sk_partition_pairs(skt_ctx, SK_UINT32, 2, "1", B.s, B.vs, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_partition_pairs(skt_ctx, SK_UINT32, 4, "1", B.s, B.vs, B.d, B.s, &count, n));
    EXPECT_BAD_ARGS(sk_partition_pairs(skt_ctx, SK_UINT32, 4, "", B.s, B.vs, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_unique_pairs(skt_ctx, SK_UINT32, 4, B.s, NULL, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_unique_pairs(skt_ctx, SK_UINT32, 4, B.s, B.vs, B.d, NULL, &count, n));
    EXPECT_BAD_ARGS(sk_unique_pairs(skt_ctx, SK_UINT32, 2, B.s, B.vs, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_unique_pairs(skt_ctx, SK_UINT32, 4, B.s, small, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_unique_pairs(skt_ctx, SK_UINT32, 4, B.s, B.vs, B.d, B.d, &count, n));
    EXPECT_BAD_ARGS(sk_unique_pairs(NULL, SK_UINT32, 4, B.s, B.vs, B.d, B.vd, &count, n));
    EXPECT_BAD_ARGS(sk_select_if_pairs(skt_ctx, SK_UINT32, 2, "1", B.s, B.vs, B.d, B.vd, &count, n));
    EXPECT_BAD_HOST_ARGS(sk_select_flagged_pairs_host(skt_ctx, SK_UINT32, 4, 1, B.src, NULL,
                                                      B.flags, B.out, B.vout, &count, n));
    EXPECT_BAD_HOST_ARGS(sk_select_flagged_pairs_host(skt_ctx, SK_UINT32, 2, 1, B.src, B.vals,
                                                      B.flags, B.out, B.vout, &count, n));
    EXPECT_BAD_HOST_ARGS(sk_select_flagged_pairs_host(skt_ctx, SK_UINT32, 4, 1, B.src, B.vals,
                                                      NULL, B.out, B.vout, &count, n));
    EXPECT_BAD_HOST_ARGS(sk_partition_pairs_host(skt_ctx, SK_UINT32, 8, "1", B.src, B.vals, B.out,
                                                 NULL, &count, n));
    EXPECT_BAD_HOST_ARGS(sk_partition_pairs_host(skt_ctx, SK_UINT32, 2, "1", B.src, B.vals, B.out,
                                                 B.vout, &count, n));
    EXPECT_BAD_HOST_ARGS(sk_unique_pairs_host(skt_ctx, SK_UINT32, 8, B.src, NULL, B.out, B.vout,
                                              &count, n));
    EXPECT_BAD_HOST_ARGS(sk_unique_pairs_host(skt_ctx, SK_UINT32, 2, B.src, B.vals, B.out, B.vout,
                                              &count, n));
    EXPECT_BAD_HOST_ARGS(sk_unique_pairs_host(skt_ctx, SK_UINT32, 4, NULL, B.vals, B.out, B.vout,
                                              &count, n));
    skt_buf_free(small);
}

/* values_in and values_out both NULL: value_size is ignored and each pair
 * form is its keys-only function. */
Test(compact_errors, pair_forms_without_values_match_the_keys_only_forms)
{
    uint32_t src[9] = {4, 4, 1, 7, 7, 7, 2, 9, 9}, got[9], want[9];
    uint8_t flags[9] = {1, 0, 0, 1, 1, 0, 0, 0, 1};
    size_t count = 0, want_count = 0;
    SKT_OK(sk_unique_pairs_host(skt_ctx, SK_UINT32, 3, src, NULL, got, NULL, &count, 9));
    SKT_OK(sk_unique_host(skt_ctx, SK_UINT32, src, want, &want_count, 9));
    cr_assert(count == want_count && memcmp(got, want, count * 4) == 0);
    SKT_OK(sk_partition_pairs_host(skt_ctx, SK_UINT32, 0, "x > 4u", src, NULL, got, NULL, &count,
                                   9));
    SKT_OK(sk_partition_host(skt_ctx, SK_UINT32, "x > 4u", src, want, &want_count, 9));
    cr_assert(count == want_count && memcmp(got, want, sizeof got) == 0);
    SKT_OK(sk_select_flagged_pairs_host(skt_ctx, SK_UINT32, 2, 1, src, NULL, flags, got, NULL,
                                        &count, 9));
    SKT_OK(sk_select_flagged_host(skt_ctx, SK_UINT32, 1, src, flags, want, &want_count, 9));
    cr_assert(count == want_count && memcmp(got, want, count * 4) == 0);
    count = 99;
    SKT_OK(sk_partition_pairs_host(skt_ctx, SK_INT64, 8, "x > 0", NULL, NULL, NULL, NULL, &count,
                                   0));
    cr_assert_eq(count, 0);
}

Test(compact_errors, size_overflow_gives_size)
{
    size_t count = 5;
    reserve(8);
    SKT_EXPECT_STATUS(sk_select_if(skt_ctx, SK_UINT64, "1", B.s, B.d, &count, SIZE_MAX / 4),
                      SK_E_SIZE);
    cr_assert_eq(count, 5);
}

Test(compact_errors, a_fully_selected_and_an_empty_result_report_n_and_zero)
{
    uint64_t src[5] = {1, 3, 5, 7, 9}, dst[5];
    size_t count = 0;
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT64, "(x & 1ul) != 0", src, dst, &count, 5));
    cr_assert_eq(count, 5);
    SKT_OK(sk_partition_host(skt_ctx, SK_UINT64, "x > 100ul", src, dst, &count, 5));
    cr_assert_eq(count, 0);
    cr_assert_eq(memcmp(dst, src, sizeof src), 0, "a partition selecting nothing keeps order");
}
