/*
 * test_search.c - sk_search_lower_bound/_upper_bound and their host-array
 * forms, against the serial search in tests/ref/ref_search.c (which
 * compares values in IEEE totalOrder, not the library's bit transform).
 *
 * One case per key type x shape runs every size of two classes: small
 * sizes with small CPU chunks (3 chunks from one needle on, so a few
 * needles already span several work-items), then sizes around the
 * default chunks (one work-item below 32768 needles, chunks above) up to
 * 65537 keys. Each size runs lower and upper bound, ascending and
 * descending, over needles drawn at random (float keys mixing in NaNs of
 * both signs, +-0 and +-inf), drawn from the haystack (exact hits on
 * duplicates), sorted (the CPU shape's walk from one bound to the next)
 * and beyond every key at both ends; haystacks of random keys, few unique
 * keys and all keys equal take turns, and so do the cl_mem and host
 * forms. Indices are poisoned past n_needles and must stay so; inputs
 * must come back unchanged. Small cases are checked against the bound by
 * counting (how many keys go before the needle), larger ones against the
 * serial binary search. Written-out cases pin duplicates, the ends, IEEE
 * specials, agreement with the radix sort, each forced shape launching
 * its own kernel (traced with its scalars) and every status.
 */
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_search.h"
#include "ref/ref_sort.h"
#include "skt_common.h"

TestSuite(search, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(search_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 8 /* indices after n_needles that must stay poisoned */
#define COUNT_OF(x) (sizeof(x) / sizeof((x)[0]))
/* Below this many key comparisons the reference counts. */
#define COUNT_REF_MAX 4000000u

/* ---- inputs ------------------------------------------------------------------- */

typedef enum hay_kind { HAY_RANDOM, HAY_FEW_UNIQUE, HAY_EQUAL, HAY_COUNT } hay_kind;
static const char *const HAY_NAMES[HAY_COUNT] = {"random", "few unique", "all equal"};

typedef enum needle_kind { ND_RANDOM, ND_FROM_HAY, ND_SORTED, ND_OUTSIDE, ND_COUNT } needle_kind;
static const char *const NEEDLE_NAMES[ND_COUNT] = {"random", "from the haystack", "sorted",
                                                   "beyond both ends"};

/* The first and last keys of type t in ascending order: the smallest
 * integer, or -NaN with every payload bit (totalOrder's least); the
 * largest, or +NaN with every payload bit. */
static uint64_t key_extreme(sk_type t, bool last)
{
    unsigned bits = 8 * (unsigned)sk_type_size(t);
    uint64_t all = bits == 64 ? ~(uint64_t)0 : (1ull << bits) - 1, sign = 1ull << (bits - 1);
    switch (t) {
    case SK_UINT8:
    case SK_UINT16:
    case SK_UINT32:
    case SK_UINT64: return last ? all : 0;
    case SK_INT8:
    case SK_INT16:
    case SK_INT32:
    case SK_INT64: return last ? all ^ sign : sign;
    default: return last ? all ^ sign : all;
    }
}

/* nh keys of kind k, in ascending order. */
static void make_haystack(sk_type t, hay_kind k, void *hay, size_t nh)
{
    uint64_t few[3] = {skt_random_key(t), skt_random_key(t), skt_random_key(t)};
    for (size_t i = 0; i < nh; i++)
        skt_ref_put_key(t, hay, i, k == HAY_EQUAL        ? few[0]
                                   : k == HAY_FEW_UNIQUE ? few[skt_rand_below(3)]
                                                         : skt_random_key(t));
    skt_ref_sort_keys(t, hay, nh, 0);
}

/* dst = the ascending keys src, or (descending) their reverse, which is
 * the descending order: keys equal in the order are equal bits. */
static void put_in_order(sk_type t, const unsigned char *src, size_t n, int descending,
                         unsigned char *dst)
{
    size_t ks = sk_type_size(t);
    for (size_t i = 0; i < n; i++)
        memcpy(dst + i * ks, src + (descending ? n - 1 - i : i) * ks, ks);
}

static void make_needles(sk_type t, needle_kind k, int descending, const void *hay, size_t nh,
                         void *needles, size_t nn)
{
    for (size_t i = 0; i < nn; i++) {
        uint64_t raw = skt_random_key(t);
        if ((k == ND_FROM_HAY || (k == ND_SORTED && i % 2)) && nh)
            raw = skt_ref_key_raw(t, hay, skt_rand_below(nh));
        if (k == ND_OUTSIDE) raw = key_extreme(t, skt_rand_below(2));
        skt_ref_put_key(t, needles, i, raw);
    }
    if (k == ND_SORTED) skt_ref_sort_keys(t, needles, nn, descending);
}

/* ---- one checked search ------------------------------------------------------------ */

typedef struct search_case {
    sk_type t;
    int descending, upper;
    size_t nh, nn;
    hay_kind hay;
    needle_kind needles;
    bool host;
    const char *cfg;
    const unsigned char *ascending; /* the haystack's keys in ascending order */
} search_case;

static const char *case_name(const search_case *c)
{
    return skt_fmt("%s %s_bound%s, %s, nh=%zu nn=%zu, %s haystack, %s needles, %s",
                   sk_type_name(c->t), c->upper ? "upper" : "lower", c->host ? " host" : "",
                   c->descending ? "descending" : "ascending", c->nh, c->nn,
                   HAY_NAMES[c->hay], NEEDLE_NAMES[c->needles], c->cfg);
}

/* What the search must give: the count of keys before each needle (small
 * cases) or the serial binary search. */
static void expected(const search_case *c, const void *hay, const void *needles, uint64_t *want)
{
    if ((double)c->nh * (double)c->nn > COUNT_REF_MAX) {
        skt_ref_search(c->t, hay, c->nh, needles, c->nn, c->descending, c->upper, want);
        return;
    }
    for (size_t i = 0; i < c->nn; i++)
        want[i] = skt_ref_search_count(c->t, hay, c->nh, skt_ref_key_raw(c->t, needles, i),
                                       c->descending, c->upper);
}

static sk_status run_host(const search_case *c, const void *hay, const void *needles,
                          uint64_t *got)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    return c->upper ? sk_search_upper_bound_host(skt_ctx, c->t, hay, needles, got, c->nh, c->nn, o)
                    : sk_search_lower_bound_host(skt_ctx, c->t, hay, needles, got, c->nh, c->nn, o);
}

/* got[0 .. nn + GUARD): the cl_mem form's indices, poisoned before the
 * call; the inputs checked unchanged after it. */
static sk_status run_mem(const search_case *c, const void *hay, const void *needles,
                         uint64_t *got, const char *what)
{
    size_t ks = sk_type_size(c->t);
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    cl_mem h = skt_buf_guarded(hay, c->nh, ks, GUARD);
    cl_mem n = skt_buf_guarded(needles, c->nn, ks, GUARD);
    cl_mem out = skt_buf_new((c->nn + GUARD) * sizeof *got);
    skt_buf_poison(out, (c->nn + GUARD) * sizeof *got);
    sk_status st = c->upper ? sk_search_upper_bound(skt_ctx, c->t, h, n, out, c->nh, c->nn, o)
                            : sk_search_lower_bound(skt_ctx, c->t, h, n, out, c->nh, c->nn, o);
    skt_buf_download(out, 0, got, (c->nn + GUARD) * sizeof *got);
    skt_expect_guarded(h, hay, c->nh, ks, GUARD, what, "the haystack");
    skt_expect_guarded(n, needles, c->nn, ks, GUARD, what, "the needles");
    skt_buf_free(h);
    skt_buf_free(n);
    skt_buf_free(out);
    return st;
}

static void check_case(const search_case *c)
{
    size_t ks = sk_type_size(c->t);
    const char *what = case_name(c);
    unsigned char *hay = skt_malloc((c->nh + 1) * ks), *needles = skt_malloc((c->nn + 1) * ks);
    uint64_t *want = skt_malloc((c->nn + 1) * sizeof *want);
    uint64_t *got = skt_malloc((c->nn + GUARD) * sizeof *got);
    put_in_order(c->t, c->ascending, c->nh, c->descending, hay);
    make_needles(c->t, c->needles, c->descending, hay, c->nh, needles, c->nn);
    expected(c, hay, needles, want);
    skt_poison(got, (c->nn + GUARD) * sizeof *got);
    sk_status st = c->host ? run_host(c, hay, needles, got) : run_mem(c, hay, needles, got, what);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    for (size_t i = 0; i < c->nn; i++)
        if (got[i] != want[i])
            cr_assert_fail("%s: indices[%zu] = %llu, want %llu (needle 0x%llx) [seed %llu]", what,
                           i, (unsigned long long)got[i], (unsigned long long)want[i],
                           (unsigned long long)skt_ref_key_raw(c->t, needles, i),
                           (unsigned long long)skt_seed());
    cr_assert_eq(skt_find_unpoisoned(got + c->nn, GUARD * sizeof *got), (size_t)-1,
                 "%s: indices written past n_needles [seed %llu]", what,
                 (unsigned long long)skt_seed());
    skt_free_all(hay, needles, want, got, NULL);
}

/* ---- the matrix ------------------------------------------------------------------ */

typedef struct size_pair {
    size_t nh, nn;
} size_pair;

/* Small chunks (3 from one needle on): empty sides, one key, sizes
 * spanning a few chunks. */
static const size_pair small_sizes[] = {
    {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 7}, {7, 1}, {2, 3}, {17, 40}, {100, 33}, {255, 256},
};

/* Default chunks: one work-item below 32768 needles, chunks above. */
static const size_pair default_sizes[] = {
    {4096, 4097}, {1, 33000}, {20000, 32769}, {65537, 3000},
};

/* Lower and upper bound, both orders, every needle kind at every size;
 * the haystack kind (each made once a size) and the form take turns. */
static void sweep(sk_type t, const size_pair *sizes, size_t count, const char *cfg)
{
    unsigned rot = (unsigned)skt_rand_below(HAY_COUNT);
    for (size_t s = 0; s < count; s++) {
        unsigned char *hays[HAY_COUNT];
        for (int h = 0; h < HAY_COUNT; h++) {
            hays[h] = skt_malloc(sizes[s].nh * sk_type_size(t) + 1);
            make_haystack(t, (hay_kind)h, hays[h], sizes[s].nh);
        }
        for (int desc = 0; desc < 2; desc++)
            for (int upper = 0; upper < 2; upper++)
                for (unsigned k = 0; k < ND_COUNT; k++) {
                    hay_kind h = (hay_kind)((rot + s + k + (unsigned)desc) % HAY_COUNT);
                    search_case c = {t,      desc, upper, sizes[s].nh, sizes[s].nn, h,
                                     (needle_kind)k, (k + (unsigned)upper + s) % 2 == 1, cfg,
                                     hays[h]};
                    check_case(&c);
                }
        for (int h = 0; h < HAY_COUNT; h++) free(hays[h]);
    }
}

ParameterizedTestParameters(search, should_match_the_serial_search)
{
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, NULL, 0, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, search, should_match_the_serial_search)
{
    sk_type t = (sk_type)p->type;
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_tiles_set(4, 2, 3, 1);
    sweep(t, small_sizes, COUNT_OF(small_sizes), skt_fmt("%s, small chunks", skt_params_name(p)));
    skt_tiles_default();
    sweep(t, default_sizes, COUNT_OF(default_sizes),
          skt_fmt("%s, default chunks", skt_params_name(p)));
}

/* 8- and 16-bit keys (an 8-bit, a 16-bit integer and float16), both
 * shapes, small chunks. */
ParameterizedTestParameters(search, narrow_keys_should_match_the_serial_search)
{
    static const sk_type types[] = {SK_UINT8, SK_INT16, SK_FLOAT16};
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, types, COUNT_OF(types), 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, search, narrow_keys_should_match_the_serial_search)
{
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_tiles_set(4, 2, 3, 1);
    sweep((sk_type)p->type, small_sizes, COUNT_OF(small_sizes),
          skt_fmt("%s, small chunks", skt_params_name(p)));
}

/* ---- cases written out --------------------------------------------------------------- */

/* lower and upper bound of every needle, host form, in both shapes. */
static void expect_bounds(sk_type t, const void *hay, size_t nh, const void *needles, size_t nn,
                          sk_sort_order o, const uint64_t *lower, const uint64_t *upper,
                          const char *what)
{
    uint64_t got[16];
    cr_assert(nn <= COUNT_OF(got));
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        SKT_OK(sk_search_lower_bound_host(skt_ctx, t, hay, needles, got, nh, nn, o));
        skt_expect_elems(SK_UINT64, got, lower, nn,
                         skt_fmt("%s, lower_bound, %s shape", what,
                                 skt_shape_name((sk_shape)shape)));
        SKT_OK(sk_search_upper_bound_host(skt_ctx, t, hay, needles, got, nh, nn, o));
        skt_expect_elems(SK_UINT64, got, upper, nn,
                         skt_fmt("%s, upper_bound, %s shape", what,
                                 skt_shape_name((sk_shape)shape)));
    }
}

/* Duplicates: lower_bound stops before a run of equal keys, upper_bound
 * after it; a needle between runs, below and above all. */
Test(search, duplicates_separate_lower_from_upper_bound)
{
    const uint32_t asc[] = {1, 2, 2, 2, 3, 7, 7}, desc[] = {7, 7, 3, 2, 2, 2, 1};
    const uint32_t needles[] = {2, 7, 0, 9, 5, 1, 3};
    const uint64_t lo_a[] = {1, 5, 0, 7, 5, 0, 4}, up_a[] = {4, 7, 0, 7, 5, 1, 5};
    const uint64_t lo_d[] = {3, 0, 7, 0, 2, 6, 2}, up_d[] = {6, 2, 7, 0, 2, 7, 3};
    expect_bounds(SK_UINT32, asc, 7, needles, 7, SK_ASCENDING, lo_a, up_a, "uint32 ascending");
    expect_bounds(SK_UINT32, desc, 7, needles, 7, SK_DESCENDING, lo_d, up_d, "uint32 descending");
}

/* Signed integers by value across the sign, the extremes beyond every key. */
Test(search, needles_beyond_every_key_go_to_the_ends)
{
    const int64_t hay[] = {-5, -1, 0, 3, 3, 40};
    const int64_t needles[] = {INT64_MIN, INT64_MAX, -1, 3, -6, 41};
    const uint64_t lower[] = {0, 6, 1, 3, 0, 6}, upper[] = {0, 6, 2, 5, 0, 6};
    expect_bounds(SK_INT64, hay, 6, needles, 6, SK_ASCENDING, lower, upper, "int64");
    const int32_t hay32[] = {-7, -7};
    const int32_t n32[] = {INT32_MIN, INT32_MAX, -7};
    const uint64_t lo32[] = {0, 2, 0}, up32[] = {0, 2, 2};
    expect_bounds(SK_INT32, hay32, 2, n32, 3, SK_ASCENDING, lo32, up32, "int32");
}

/* IEEE specials in totalOrder: -NaN < -inf < -1 < -0 < +0 < 1 < inf <
 * NaN, compared as bits (a NaN of another payload is another key). */
Test(search, float_specials_follow_total_order)
{
    const uint32_t hay[] = {0xffc00000u, 0xff800000u, 0xbf800000u, 0x80000000u,
                            0x00000000u, 0x3f800000u, 0x7f800000u, 0x7fc00000u};
    /* -0, +0, +NaN, -NaN, +NaN with a larger payload, -NaN with a larger
     * payload, -inf, 0.5 */
    const uint32_t needles[] = {0x80000000u, 0x00000000u, 0x7fc00000u, 0xffc00000u,
                                0x7fc00001u, 0xffc00001u, 0xff800000u, 0x3f000000u};
    const uint64_t lower[] = {3, 4, 7, 0, 8, 0, 1, 5}, upper[] = {4, 5, 8, 1, 8, 0, 2, 5};
    expect_bounds(SK_FLOAT32, hay, 8, needles, 8, SK_ASCENDING, lower, upper, "float32");
    /* descending: the exact reverse */
    uint32_t rev[8];
    for (size_t i = 0; i < 8; i++) rev[i] = hay[7 - i];
    uint64_t lower_d[8], upper_d[8];
    for (size_t i = 0; i < 8; i++) {
        lower_d[i] = 8 - upper[i];
        upper_d[i] = 8 - lower[i];
    }
    expect_bounds(SK_FLOAT32, rev, 8, needles, 8, SK_DESCENDING, lower_d, upper_d,
                  "float32 descending");
    const double dhay[] = {-INFINITY, -0.0, 0.0, INFINITY, NAN};
    const double dneedles[] = {-0.0, 0.0, NAN, -NAN, 1e308};
    const uint64_t dlower[] = {1, 2, 4, 0, 3}, dupper[] = {2, 3, 5, 0, 3};
    expect_bounds(SK_FLOAT64, dhay, 5, dneedles, 5, SK_ASCENDING, dlower, dupper, "float64");
}

/* Searching what the radix sort gave: lower_bound finds each key's first
 * copy, upper_bound - lower_bound is its count (float keys, NaNs and
 * signed zeros among them, both orders). */
Test(search, agrees_with_the_radix_sort)
{
    const size_t n = 3000;
    uint32_t *keys = skt_malloc(n * sizeof *keys), *sorted = skt_malloc(n * sizeof *sorted);
    uint64_t *lower = skt_malloc(n * sizeof *lower), *upper = skt_malloc(n * sizeof *upper);
    for (size_t i = 0; i < n; i++)
        keys[i] = i % 3 == 0 && i ? keys[skt_rand_below(i)] : (uint32_t)skt_random_key(SK_FLOAT32);
    for (int desc = 0; desc < 2; desc++) {
        sk_sort_order o = desc ? SK_DESCENDING : SK_ASCENDING;
        memcpy(sorted, keys, n * sizeof *keys);
        SKT_OK(sk_sort_keys_host(skt_ctx, SK_FLOAT32, sorted, n, o));
        SKT_OK(sk_search_lower_bound_host(skt_ctx, SK_FLOAT32, sorted, keys, lower, n, n, o));
        SKT_OK(sk_search_upper_bound_host(skt_ctx, SK_FLOAT32, sorted, keys, upper, n, n, o));
        for (size_t i = 0; i < n; i++) {
            size_t copies = 0;
            for (size_t j = 0; j < n; j++) copies += keys[j] == keys[i];
            cr_assert(lower[i] < n && sorted[lower[i]] == keys[i] &&
                          upper[i] - lower[i] == copies,
                      "%s: key 0x%08x: bounds [%llu, %llu), %zu copies [seed %llu]",
                      desc ? "descending" : "ascending", keys[i], (unsigned long long)lower[i],
                      (unsigned long long)upper[i], copies, (unsigned long long)skt_seed());
        }
    }
    skt_free_all(keys, sorted, lower, upper, NULL);
}

/* ---- launches ---------------------------------------------------------------------- */

typedef struct traced {
    int launches;
    char kernel[64], scalars[256];
    size_t global, local;
} traced;

static void note_launch(const sk_launch_record *r, void *user)
{
    traced *t = user;
    t->launches++;
    snprintf(t->kernel, sizeof t->kernel, "%s", r->kernel);
    snprintf(t->scalars, sizeof t->scalars, "%s", r->scalars);
    t->global = r->global_size;
    t->local = r->local_size;
}

/* One launch per call, of the forced shape's kernel (a work-item per
 * needle, or chunks of work-group size 1), traced with its scalars. */
Test(search, each_shape_launches_its_kernel_once_and_traces_it)
{
    const int32_t hay[5] = {9, 4, 0, 0, -3}, needles[40] = {0}; /* descending */
    uint64_t idx[40];
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        traced t = {0};
        skt_force_shape((sk_shape)shape);
        skt_tiles_set(4, 2, 3, 1);
        SKT_OK(sk_context_set_trace(skt_ctx, note_launch, &t));
        SKT_OK(sk_search_upper_bound_host(skt_ctx, SK_INT32, hay, needles, idx, 5, 40,
                                          SK_DESCENDING));
        SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
        bool gpu = shape == SK_SHAPE_GPU;
        cr_assert_eq(t.launches, 1, "%s shape: %d launches", skt_shape_name((sk_shape)shape),
                     t.launches);
        cr_assert_str_eq(t.kernel, gpu ? "sk_search_needles" : "sk_search_chunks");
        cr_assert(gpu ? t.global >= 40 && t.global % t.local == 0 : t.global == 3 && t.local == 1,
                  "%s shape: global %zu, local %zu", skt_shape_name((sk_shape)shape), t.global,
                  t.local);
        cr_assert(strstr(t.scalars, "nh=5") && strstr(t.scalars, "nn=40") &&
                      strstr(t.scalars, "upper=1") &&
                      (gpu || strstr(t.scalars, "chunk=14")),
                  "%s shape: scalars '%s'", skt_shape_name((sk_shape)shape), t.scalars);
        for (size_t i = 0; i < 40; i++)
            cr_assert_eq(idx[i], 4, "indices[%zu] = %llu", i, (unsigned long long)idx[i]);
    }
}

/* ---- bad arguments ------------------------------------------------------------------ */

Test(search_errors, bad_arguments_should_be_refused_and_leave_indices_untouched)
{
    cl_mem h = skt_buf_new(64), n = skt_buf_new(64), out = skt_buf_new(128);
    cl_mem small = skt_buf_new(64);
    skt_buf_poison(out, 128);
    skt_buf_poison(small, 64);
    skt_finish();
    const sk_status bad = SK_E_INVALID_ARG;
    const sk_sort_order A = SK_ASCENDING;
    SKT_EXPECT_STATUS(sk_search_lower_bound(NULL, SK_UINT32, h, n, out, 4, 4, A), bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound(skt_ctx, (sk_type)99, h, n, out, 4, 4, A), bad);
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT32, h, n, out, 4, 4,
                                            (sk_sort_order)2), bad);
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT32, NULL, n, out, 0, 4, A), bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound(skt_ctx, SK_UINT32, h, NULL, out, 4, 0, A), bad);
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT32, h, n, NULL, 4, 4, A), bad);
    /* buffers smaller than their keys, or than n_needles indices */
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT32, h, n, out, 17, 4, A), bad);
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT64, h, n, out, 4, 9, A), bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound(skt_ctx, SK_UINT32, h, n, small, 4, 16, A), bad);
    /* indices overlapping an input */
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT32, out, n, out, 4, 4, A), bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound(skt_ctx, SK_UINT32, h, out, out, 4, 4, A), bad);
    /* byte sizes overflowing size_t */
    SKT_EXPECT_STATUS(sk_search_lower_bound(skt_ctx, SK_UINT64, h, n, out, SIZE_MAX / 4, 4, A),
                      SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_search_upper_bound(skt_ctx, SK_UINT32, h, n, out, 4, SIZE_MAX / 6, A),
                      SK_E_SIZE);
    unsigned char got[128];
    skt_buf_download(out, 0, got, sizeof got);
    cr_assert_eq(skt_find_unpoisoned(got, sizeof got), (size_t)-1, "a refused call wrote indices");
    skt_buf_download(small, 0, got, 64);
    cr_assert_eq(skt_find_unpoisoned(got, 64), (size_t)-1, "a refused call wrote indices");
    /* the haystack may be the needles */
    const uint32_t keys[4] = {1, 3, 3, 8};
    uint64_t idx[4], want[4] = {0, 1, 1, 3};
    skt_buf_upload(h, 0, keys, sizeof keys);
    SKT_OK(sk_search_lower_bound(skt_ctx, SK_UINT32, h, h, out, 4, 4, A));
    skt_buf_download(out, 0, idx, sizeof idx);
    skt_expect_elems(SK_UINT64, idx, want, 4, "haystack as needles");
    skt_buf_free(h);
    skt_buf_free(n);
    skt_buf_free(out);
    skt_buf_free(small);
}

Test(search_errors, host_forms_refuse_null_arrays_and_take_them_where_empty)
{
    const uint32_t hay[3] = {1, 2, 3}, needles[2] = {2, 9};
    uint64_t idx[4];
    skt_poison(idx, sizeof idx);
    const sk_status bad = SK_E_INVALID_ARG;
    const sk_sort_order A = SK_ASCENDING;
    SKT_EXPECT_STATUS(sk_search_lower_bound_host(NULL, SK_UINT32, hay, needles, idx, 3, 2, A),
                      bad);
    SKT_EXPECT_STATUS(sk_search_lower_bound_host(skt_ctx, SK_UINT32, NULL, needles, idx, 3, 2, A),
                      bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound_host(skt_ctx, SK_UINT32, hay, NULL, idx, 3, 2, A),
                      bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound_host(skt_ctx, SK_UINT32, hay, needles, NULL, 3, 2, A),
                      bad);
    SKT_EXPECT_STATUS(sk_search_upper_bound_host(skt_ctx, SK_FLOAT64, hay, needles, idx, 3, 2,
                                                 (sk_sort_order)7), bad);
    SKT_EXPECT_STATUS(sk_search_lower_bound_host(skt_ctx, SK_UINT64, hay, needles, idx,
                                                 SIZE_MAX / 8 + 1, 2, A), SK_E_SIZE);
    cr_assert_eq(skt_find_unpoisoned(idx, sizeof idx), (size_t)-1, "a refused call wrote indices");
    /* no needles: nothing written, NULLs fine; no haystack: every index 0 */
    SKT_OK(sk_search_lower_bound_host(skt_ctx, SK_UINT32, NULL, NULL, NULL, 0, 0, A));
    SKT_OK(sk_search_upper_bound_host(skt_ctx, SK_UINT32, hay, NULL, NULL, 3, 0, A));
    cr_assert_eq(skt_find_unpoisoned(idx, sizeof idx), (size_t)-1, "no needles wrote indices");
    SKT_OK(sk_search_upper_bound_host(skt_ctx, SK_UINT32, NULL, needles, idx, 0, 2, A));
    cr_assert(idx[0] == 0 && idx[1] == 0, "an empty haystack: indices %llu %llu",
              (unsigned long long)idx[0], (unsigned long long)idx[1]);
    cr_assert_eq(skt_find_unpoisoned(idx + 2, 2 * sizeof *idx), (size_t)-1,
                 "indices written past n_needles");
}

/* A host form whose device copy would exceed the device's largest buffer:
 * SK_E_SIZE before any copy; the arrays are address space only. */
Test(search_errors, host_arrays_over_the_largest_buffer_should_give_size_untouched)
{
    sk_device_desc dev = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &dev));
    uint64_t over = dev.max_alloc_bytes / 8 + 1; /* indices one past it */
    if (over >= SIZE_MAX / 16) cr_skip_test("the largest buffer exceeds the address space");
    size_t n = (size_t)over;
    void *keys = skt_map_zeros(8 * n), *idx = skt_map_zeros(8 * n);
    SKT_EXPECT_STATUS(sk_search_lower_bound_host(skt_ctx, SK_UINT32, keys, keys, idx, 4, n,
                                                 SK_ASCENDING), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_search_upper_bound_host(skt_ctx, SK_UINT64, keys, keys, idx, n, 4,
                                                 SK_ASCENDING), SK_E_SIZE);
    cr_assert_eq(sk_context_cl_error(skt_ctx), CL_SUCCESS, "an OpenCL call failed");
    cr_assert_eq(skt_pages_touched(keys, 8 * n) + skt_pages_touched(idx, 8 * n), 0,
                 "an array was touched before refusing");
    skt_unmap(keys, 8 * n);
    skt_unmap(idx, 8 * n);
}
