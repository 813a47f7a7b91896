/*
 * test_user_code.c - OpenCL C text from the caller (compaction predicates,
 * custom monoids): over SK_USER_CODE_MAX_BYTES it is refused before anything
 * is compiled; at the limit, even nested as deeply as its length allows, it
 * compiles without taking the process down; and a failed build's reason
 * reaches the caller whole, however long.
 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

TestSuite(user_code, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);

/* "<prefix><fill x count><suffix>", malloc'd. */
static char *repeat(const char *prefix, char fill, size_t count, const char *suffix)
{
    size_t a = strlen(prefix), b = strlen(suffix);
    char *s = skt_malloc(a + count + b + 1);
    memcpy(s, prefix, a);
    memset(s + a, fill, count);
    memcpy(s + a + count, suffix, b + 1);
    return s;
}

static unsigned long compiled_so_far(void)
{
    sk_build_stats s = SK_BUILD_STATS_INIT;
    SKT_OK(sk_context_build_stats(skt_ctx, &s));
    return s.compiled;
}

Test(user_code, a_predicate_over_the_limit_is_refused_before_compiling)
{
    uint32_t in[4] = {1, 2, 3, 4}, out[4];
    /* "x" followed by spaces: harmless text, only its length is wrong */
    char *pred = repeat("x", ' ', SK_USER_CODE_MAX_BYTES, "");
    cr_assert_eq(strlen(pred), (size_t)SK_USER_CODE_MAX_BYTES + 1);
    unsigned long before = compiled_so_far();
    size_t count = 77;
    SKT_EXPECT_STATUS(sk_select_if_host(skt_ctx, SK_UINT32, pred, in, out, &count, 4),
                      SK_E_INVALID_ARG);
    cr_assert_eq(count, 77, "the count was written on failure");
    SKT_EXPECT_STATUS(sk_partition_host(skt_ctx, SK_UINT32, pred, in, out, &count, 4),
                      SK_E_INVALID_ARG);
    cr_assert(strstr(sk_context_error_detail(skt_ctx), "65536"),
              "the detail does not name the limit: %s", sk_context_error_detail(skt_ctx));
    cr_assert_eq(compiled_so_far(), before, "something was compiled for refused text");
    free(pred);
}

Test(user_code, every_monoid_field_over_the_limit_is_refused_before_compiling)
{
    char *big = repeat("", ' ', SK_USER_CODE_MAX_BYTES + 1, "");
    char *type = repeat("uint", ' ', SK_USER_CODE_MAX_BYTES, "");
    char *identity = repeat("0u", ' ', SK_USER_CODE_MAX_BYTES, "");
    char *combine = repeat("a + b", ' ', SK_USER_CODE_MAX_BYTES, "");
    const sk_monoid variants[] = {
        {type, 4, "0u", "a + b", NULL},
        {"uint", 4, identity, "a + b", NULL},
        {"uint", 4, "0u", combine, NULL},
        {"uint", 4, "0u", "a + b", big},
    };
    uint32_t in[3] = {1, 2, 3}, out[3] = {9, 9, 9};
    unsigned long before = compiled_so_far();
    for (size_t i = 0; i < 4; i++) {
        SKT_EXPECT_STATUS(sk_scan_inclusive_monoid_host(skt_ctx, &variants[i], in, out, 3),
                          SK_E_INVALID_ARG);
        cr_assert_eq(out[0], 9, "output written for refused monoid %zu", i);
    }
    cr_assert_eq(compiled_so_far(), before, "something was compiled for refused text");
    free(big);
    free(type);
    free(identity);
    free(combine);
}

/* 64 KiB of unary operators nest 65,000 levels deep: the compiler recurses
 * over them, which overflowed an 8 MiB stack with less. An even number of
 * '~' is the identity, so the predicate keeps the even elements. */
Test(user_code, a_predicate_nested_as_deep_as_the_limit_allows_compiles)
{
    const char *tail = "x % 2 == 0";
    size_t tildes = SK_USER_CODE_MAX_BYTES - strlen(tail);
    cr_assert_eq(tildes % 2, 0);
    char *pred = repeat("", '~', tildes, tail);
    cr_assert_eq(strlen(pred), (size_t)SK_USER_CODE_MAX_BYTES);
    size_t n = 1001, count = 0;
    uint32_t *in = skt_malloc(n * 4), *out = skt_malloc(n * 4), *want = skt_malloc(n * 4);
    size_t want_count = 0;
    for (size_t i = 0; i < n; i++) {
        in[i] = (uint32_t)skt_rand();
        if (in[i] % 2 == 0) want[want_count++] = in[i];
    }
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, pred, in, out, &count, n));
    cr_assert_eq(count, want_count);
    skt_expect_elems(SK_UINT32, out, want, count, "select_if through 65526 '~'");
    free(pred);
    free(in);
    free(out);
    free(want);
}

/* The compiler's reason names the undeclared identifier; 3000 characters of
 * it must come through whole (the detail once held 512 bytes). */
Test(user_code, a_long_build_failure_reason_reaches_the_caller_whole)
{
    char *name = repeat("undeclared_", 'q', 3000, "_end");
    char *combine = NULL;
    cr_assert_neq(asprintf(&combine, "a + b + %s", name), -1);
    const sk_monoid m = {"uint", 4, "0u", combine, NULL};
    uint32_t in[3] = {1, 2, 3}, out[3];
    SKT_EXPECT_STATUS(sk_scan_inclusive_monoid_host(skt_ctx, &m, in, out, 3), SK_E_BUILD);
    const char *detail = sk_context_error_detail(skt_ctx);
    cr_assert(strstr(detail, name), "the reason was cut (%zu bytes): %.200s...",
              strlen(detail), detail);
    cr_assert(strstr(sk_context_build_log(skt_ctx), name), "the build log lacks the reason");
    cr_assert_null(strchr(detail, '\n'), "the detail is more than one line");
    /* and the context still computes */
    SKT_OK(sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, in, out, 3));
    cr_assert_eq(out[2], 6);
    free(name);
    free(combine);
}
