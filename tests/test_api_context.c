/*
 * test_api_context.c - the 1.0 additions around the context:
 * sk_param_bounds, sk_context_trim, the sized structs (struct_size),
 * sk_context_create's reason, the version. (test_api.c: the new forms of
 * the primitives.)
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skt_common.h"

TestSuite(params, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);
TestSuite(trim, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(struct_size, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);
TestSuite(context_create, .init = skt_setup, .timeout = 120);
TestSuite(version);

#define REFUSED(call) SKT_EXPECT_STATUS(call, SK_E_INVALID_ARG)

/* ---- sk_param_bounds ------------------------------------------------------------------ */

static void expect_param_refused(sk_param p, long v)
{
    long before = skt_get_param(p);
    REFUSED(sk_context_set_param(skt_ctx, p, v));
    cr_assert_eq(skt_get_param(p), before, "param %d: refused value %ld changed it", (int)p, v);
}

Test(params, every_bound_should_be_taken_and_every_value_past_it_refused)
{
    static const sk_param ps[] = {SK_PARAM_SHAPE, SK_PARAM_PROFILE, SK_PARAM_SCAN_PATH,
        SK_PARAM_PROGRAM_CACHE, SK_PARAM_WG_SIZE, SK_PARAM_ITEMS_PER_THREAD,
        SK_PARAM_CPU_CHUNKS, SK_PARAM_CPU_SERIAL_BELOW, SK_PARAM_CPU_SORT_LINES_FROM,
        SK_PARAM_DISK_CACHE, SK_PARAM_GPU_SORT_SKIP_FROM, SK_PARAM_MERGE_RUNS_ROUNDS,
        SK_PARAM_CPU_SORT_BUCKET_BYTES};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        const sk_param p = ps[i];
        long lo = -7, hi = -7;
        SKT_OK(sk_param_bounds(skt_ctx, p, &lo, &hi));
        cr_log_info("param %d: [%ld, %ld]", (int)p, lo, hi);
        cr_assert(lo >= 0 && lo <= hi, "param %d: bounds [%ld, %ld]", (int)p, lo, hi);
        for (long v = lo; p == SK_PARAM_WG_SIZE && v <= hi; v *= 2) /* lo is 1 */
            SKT_OK(sk_context_set_param(skt_ctx, p, v));
        SKT_OK(sk_context_set_param(skt_ctx, p, lo));
        cr_assert(lo == 0 || skt_get_param(p) == lo, "param %d: min %ld does not read back",
                  (int)p, lo);
        SKT_OK(sk_context_set_param(skt_ctx, p, hi));
        cr_assert_eq(skt_get_param(p), hi, "param %d: max %ld does not read back", (int)p, hi);
        for (long v = 1; v < lo; v += (lo - 1) / 4 + 1) expect_param_refused(p, v);
        if (lo - 1 > 0) expect_param_refused(p, lo - 1);
        expect_param_refused(p, -1);
        expect_param_refused(p, LONG_MIN);
        if (hi < LONG_MAX) { expect_param_refused(p, hi + 1); expect_param_refused(p, LONG_MAX); }
        if (p == SK_PARAM_WG_SIZE && hi >= 4) /* not powers of two */
            for (long v = 3; v < hi; v = v * 2 + 1) expect_param_refused(p, v);
        SKT_OK(sk_context_set_param(skt_ctx, p, 0));
        cr_assert(p == SK_PARAM_SHAPE || skt_get_param(p) == 0, "param %d: 0 does not read back",
                  (int)p);
    }
    long lo, hi, v;
    static const int unknown[] = {0, 14, 12345, -1};
    for (size_t i = 0; i < 4; i++) {
        REFUSED(sk_context_set_param(skt_ctx, (sk_param)unknown[i], 0));
        REFUSED(sk_context_get_param(skt_ctx, (sk_param)unknown[i], &v));
        REFUSED(sk_param_bounds(skt_ctx, (sk_param)unknown[i], &lo, &hi));
    }
    REFUSED(sk_param_bounds(NULL, SK_PARAM_SHAPE, &lo, &hi));
    REFUSED(sk_param_bounds(skt_ctx, SK_PARAM_SHAPE, NULL, &hi));
    REFUSED(sk_param_bounds(skt_ctx, SK_PARAM_SHAPE, &lo, NULL));
    REFUSED(sk_context_get_param(skt_ctx, SK_PARAM_SHAPE, NULL));
    REFUSED(sk_context_get_param(NULL, SK_PARAM_SHAPE, &v));
    REFUSED(sk_context_set_param(NULL, SK_PARAM_SHAPE, 0));
}

/* ---- sk_context_trim ------------------------------------------------------------------ */

/* A few primitives on src; their results (4n + 1 words) in out. */
static void trim_work(const uint32_t *src, uint32_t *out, size_t n)
{
    size_t cnt = 0;
    SKT_OK(sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, src, out, n));
    SKT_OK(sk_select_if_host(skt_ctx, SK_UINT32, "x % 3 == 0", src, out + n, &cnt, n));
    out[4 * n] = (uint32_t)cnt;
    memcpy(out + 2 * n, src, n * 4);
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_UINT32, out + 2 * n, n, SK_DESCENDING));
    SKT_OK(sk_scan_exclusive_monoid_host(skt_ctx, skt_monoid_affine(), src, out + 3 * n, n / 3));
}

/* With the disk cache on (SK_PARAM_DISK_CACHE 1, in the directory
 * SCANKIT_CACHE_DIR names or the default one) and off (2). */
static void trim_check(int disk)
{
    const size_t n = 5000;
    /* a directory SCANKIT_CACHE_DIR names at creation is used either way */
    unsetenv("SCANKIT_CACHE_DIR");
    skt_ctx_close();
    skt_ctx_open();
    SKT_OK(sk_context_set_param(skt_ctx, SK_PARAM_DISK_CACHE, disk ? 1 : 2));
    uint32_t *src = skt_malloc((9 * n + 2) * 4), *r1 = src + n, *r2 = r1 + 4 * n + 1;
    skt_fill(SK_UINT32, SK_OP_ADD, src, n);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    skt_poison(r1, (4 * n + 1) * 4);
    trim_work(src, r1, n);
    for (int round = 0; round < 2; round++) {
        sk_build_stats s1 = SK_BUILD_STATS_INIT, s2 = SK_BUILD_STATS_INIT;
        SKT_OK(sk_context_build_stats(skt_ctx, &s1));
        SKT_OK(sk_context_trim(skt_ctx));
        if (round) SKT_OK(sk_context_trim(skt_ctx)); /* twice in a row */
        cr_assert_eq(skt_get_param(SK_PARAM_SCAN_PATH), SK_SCAN_PATH_LOOKBACK,
                     "trim reset a parameter");
        skt_poison(r2, (4 * n + 1) * 4);
        trim_work(src, r2, n);
        skt_expect_bytes(r2, r1, 4 * n + 1, 4, skt_fmt("round %d: results after trim", round));
        SKT_OK(sk_context_build_stats(skt_ctx, &s2));
        /* the disk cache holds what trim released; without it all is compiled again */
        cr_assert(disk ? s2.compiled == s1.compiled && s2.from_disk > s1.from_disk
                       : s2.compiled > s1.compiled, "round %d, disk cache %s: compiled %lu -> %lu, "
                  "from disk %lu -> %lu", round, disk ? "on" : "off", s1.compiled, s2.compiled,
                  s1.from_disk, s2.from_disk);
    }
    free(src);
}

Test(trim, should_keep_results_and_load_programs_from_disk)
{
    trim_check(1);
}

Test(trim, should_keep_results_and_compile_again_without_a_disk_cache)
{
    trim_check(0);
    REFUSED(sk_context_trim(NULL));
}

/* ---- struct_size ---------------------------------------------------------------------- */

static void expect_fill(const void *p, size_t n, const char *what)
{
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(((const unsigned char *)p)[k], 0x5A, "%s: byte %zu written", what, k);
}

typedef struct big_desc { sk_device_desc d; unsigned char extra[40]; } big_desc;
typedef struct big_stats { sk_build_stats s; unsigned char extra[40]; } big_stats;

static void expect_desc_eq(const sk_device_desc *a, const sk_device_desc *b, const char *what)
{
    cr_assert(a->platform_index == b->platform_index && a->device_index == b->device_index &&
              !strcmp(a->platform_name, b->platform_name) && !strcmp(a->device_name, b->device_name)
              && !strcmp(a->device_version, b->device_version) && a->is_gpu == b->is_gpu &&
              !strcmp(a->driver_version, b->driver_version) && a->has_fp64 == b->has_fp64 &&
              a->compute_units == b->compute_units && a->global_mem_bytes == b->global_mem_bytes
              && a->max_alloc_bytes == b->max_alloc_bytes, "%s: description differs", what);
}

Test(struct_size, device_desc_should_fill_what_fits_and_refuse_less_than_1_0)
{
    sk_device_desc ref = SK_DEVICE_DESC_INIT, sm, snap;
    SKT_OK(sk_context_device(skt_ctx, &ref));
    cr_assert(ref.struct_size == sizeof ref && ref.device_name[0] && ref.max_alloc_bytes);
    big_desc big;
    memset(&big, 0x5A, sizeof big);
    big.d.struct_size = sizeof big;
    SKT_OK(sk_context_device(skt_ctx, &big.d));
    expect_desc_eq(&big.d, &ref, "a larger struct");
    cr_assert_eq(big.d.struct_size, sizeof big, "struct_size changed");
    expect_fill(big.extra, sizeof big.extra, "past sk_device_desc");
    static const size_t smalls[] = {0, sizeof(size_t), offsetof(sk_device_desc, max_alloc_bytes)};
    for (size_t i = 0; i < 3; i++) {
        memset(&sm, 0x5A, sizeof sm);
        sm.struct_size = smalls[i];
        snap = sm;
        REFUSED(sk_context_device(skt_ctx, &sm));
        cr_assert(memcmp(&sm, &snap, sizeof sm) == 0, "struct_size %zu: struct written", smalls[i]);
        size_t c = 0;
        REFUSED(sk_device_list(&sm, 1, &c));
        cr_assert(memcmp(&sm, &snap, sizeof sm) == 0, "list, struct_size %zu: written", smalls[i]);
    }
    size_t cnt = 0, c2 = 0, c3 = 0;
    SKT_OK(sk_device_list(NULL, 0, &cnt));
    cr_assert_geq(cnt, 1);
    sk_device_desc *plain = skt_malloc(cnt * sizeof *plain);
    plain[0].struct_size = sizeof *plain;
    SKT_OK(sk_device_list(plain, cnt, &c2));
    big_desc *bl = skt_malloc((cnt + 1) * sizeof *bl);
    memset(bl, 0x5A, (cnt + 1) * sizeof *bl);
    bl[0].d.struct_size = sizeof *bl;
    SKT_OK(sk_device_list(&bl[0].d, cnt, &c3));
    cr_assert(c2 == cnt && c3 == cnt, "device counts %zu, %zu, %zu", cnt, c2, c3);
    for (size_t i = 0; i < cnt; i++) {
        expect_desc_eq(&bl[i].d, &plain[i], skt_fmt("device_list entry %zu", i));
        cr_assert_eq(bl[i].d.struct_size, sizeof *bl, "entry %zu: struct_size", i);
        expect_fill(bl[i].extra, sizeof bl[i].extra, skt_fmt("past entry %zu", i));
    }
    expect_fill(&bl[cnt], sizeof *bl, "the entry past capacity");
    free(plain); free(bl);
}

static void trace_size(const sk_launch_record *rec, void *user)
{
    ((unsigned long *)user)[0]++;
    ((unsigned long *)user)[1] += rec->struct_size != sizeof(sk_launch_record);
}

Test(struct_size, build_stats_and_trace_records_should_carry_their_size)
{
    uint32_t v[64] = {0}, r;
    unsigned long c[2] = {0, 0};
    SKT_OK(sk_context_set_trace(skt_ctx, trace_size, c));
    SKT_OK(sk_reduce_host(skt_ctx, SK_UINT32, SK_OP_ADD, v, &r, 64));
    SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
    cr_assert(c[0] > 0 && c[1] == 0, "%lu launches, %lu with a wrong struct_size", c[0], c[1]);
    sk_build_stats ref = SK_BUILD_STATS_INIT, sm, snap;
    SKT_OK(sk_context_build_stats(skt_ctx, &ref));
    cr_assert_eq(ref.struct_size, sizeof ref);
    cr_assert_gt(ref.compiled + ref.from_disk, 0);
    big_stats big;
    memset(&big, 0x5A, sizeof big);
    big.s.struct_size = sizeof big;
    SKT_OK(sk_context_build_stats(skt_ctx, &big.s));
    cr_assert(big.s.compiled == ref.compiled && big.s.from_disk == ref.from_disk &&
              big.s.from_memory == ref.from_memory && big.s.seconds == ref.seconds,
              "a larger struct: counters differ");
    expect_fill(big.extra, sizeof big.extra, "past sk_build_stats");
    cr_assert_eq(big.s.struct_size, sizeof big, "struct_size changed from %zu to %zu",
                 sizeof big, big.s.struct_size);
    memset(&sm, 0x5A, sizeof sm);
    sm.struct_size = sizeof sm - 1;
    snap = sm;
    REFUSED(sk_context_build_stats(skt_ctx, &sm));
    cr_assert(memcmp(&sm, &snap, sizeof sm) == 0, "a refused call wrote the struct");
    REFUSED(sk_context_build_stats(skt_ctx, NULL));
    REFUSED(sk_context_build_stats(NULL, &ref));
}

/* ---- sk_context_create's reason -------------------------------------------------------- */

Test(context_create, should_say_why_no_device_matched)
{
    const char *spec = "no-such-device-xyz";
    sk_device_desc first = SK_DEVICE_DESC_INIT;
    size_t cnt = 0;
    if (sk_device_list(&first, 1, &cnt) != SK_OK || cnt == 0) cr_skip_test("no OpenCL device");
    char why[4096], full[4096], tiny[32];
    sk_context *c = (sk_context *)(void *)&cnt; /* not NULL: must come back NULL */
    memset(why, 0x5A, sizeof why);
    SKT_EXPECT_STATUS(sk_context_create(&c, spec, why, sizeof why), SK_E_NO_DEVICE);
    cr_assert_null(c);
    cr_assert_not_null(memchr(why, 0, sizeof why), "reason not NUL-terminated");
    cr_log_info("reason: %s", why);
    cr_assert(strstr(why, spec), "reason \"%s\" does not name the spec", why);
    cr_assert(strstr(why, first.device_name), "reason \"%s\" does not list \"%s\"", why,
              first.device_name);
    strcpy(full, why);
    for (size_t size = 1; size <= 8; size += 7) {
        memset(tiny, 0x5A, sizeof tiny);
        SKT_EXPECT_STATUS(sk_context_create(&c, spec, tiny, size), SK_E_NO_DEVICE);
        cr_assert(strlen(tiny) == size - 1 && !strncmp(tiny, full, size - 1),
                  "why_size %zu: got \"%s\"", size, tiny);
        expect_fill(tiny + size, sizeof tiny - size, skt_fmt("why_size %zu", size));
    }
    SKT_EXPECT_STATUS(sk_context_create(&c, spec, NULL, 0), SK_E_NO_DEVICE);
    SKT_EXPECT_STATUS(sk_context_create(&c, spec, NULL, 100), SK_E_NO_DEVICE);
    SKT_EXPECT_STATUS(sk_context_create(&c, "", why, sizeof why), SK_E_NO_DEVICE);
    cr_assert_null(c);
    REFUSED(sk_context_create(NULL, NULL, why, sizeof why));
    static const char *const oks[] = {NULL, "0"};
    for (int i = 0; i < 2; i++) {
        memset(why, 0x5A, sizeof why);
        SKT_EXPECT_STATUS(sk_context_create(&c, oks[i], why, sizeof why), SK_OK);
        cr_assert_not_null(c);
        cr_assert_eq(why[0], '\0', "success with spec %s left a reason", oks[i] ? oks[i] : "NULL");
        sk_context_free(c);
    }
}

Test(version, should_be_1_0_0)
{
    cr_assert_eq(SK_VERSION_NUMBER, 10000);
    cr_assert_eq(sk_version_number(), SK_VERSION_NUMBER);
    cr_assert_str_eq(sk_version_string(), "1.0.0");
}
