/*
 * test_histogram.c - sk_histogram_even/_edges and their host-array forms,
 * against the serial reference in tests/ref/ref_histogram.c.
 *
 * One case per element type x shape x size class (small tiles: many
 * work-groups or chunks at small sizes; default tiles: sizes around the
 * default tiles and chunks, up to 300000). Each size runs every bin count
 * of BINS, equal bins and edges, the cl_mem and host forms taking turns,
 * over inputs that take turns too: random values around the range (some
 * below, some above, some raw bits of the whole type), all in one bin,
 * and the boundaries (lo, hi, one below each, the type's extremes; for
 * floats NaN, +-inf, +-0). Edges are sorted random values with
 * duplicates (empty bins). Counts are poisoned past bins and must stay so.
 */
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_histogram.h"
#include "skt_common.h"

TestSuite(histogram, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(histogram_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 4 /* counts after bins that must stay poisoned */
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const size_t BINS[] = {1, 2, 7, 256, 1000, 65536};

/* The range of the equal bins per type: wide ones for the integers, so
 * that the exact division matters (a width that bins do not divide). */
static void range_of(sk_type t, double *lo, double *hi)
{
    switch (t) {
    case SK_INT32: *lo = -2000000000.0, *hi = 2000000007.0; break;
    case SK_UINT32: *lo = 10.0, *hi = 4000000001.0; break;
    case SK_INT64: *lo = -0x1p62, *hi = 0x1p62 + 12288.0; break;
    case SK_UINT64: *lo = 1000.0, *hi = 18000000000000000000.0; break;
    default: *lo = -2.5, *hi = 7.25; break;
    }
}

typedef enum input_kind { IN_RANDOM, IN_ONE_BIN, IN_BOUNDARIES, IN_COUNT } input_kind;
static const char *const INPUT_NAMES[IN_COUNT] = {"random", "all in one bin", "boundaries"};

/* A value in [lo - w/8, hi + w/8) within the type's range, as a double
 * (rounded for the 64-bit integers: any value will do). */
static double around(sk_type t, double lo, double hi)
{
    double w = hi - lo, v = lo - w / 8 + skt_rand_unit() * (w * 1.25);
    switch (t) {
    case SK_INT32: return floor(fmin(fmax(v, -2147483648.0), 2147483647.0));
    case SK_UINT32: return floor(fmin(fmax(v, 0.0), 4294967295.0));
    case SK_INT64: return floor(fmin(fmax(v, -0x1p63), 0x1p63 - 1024.0));
    case SK_UINT64: return floor(fmin(fmax(v, 0.0), 0x1p64 - 2048.0));
    default: return v;
    }
}

/* The type's boundary values near lo and hi, and its extremes. */
static double boundary(sk_type t, double lo, double hi, size_t k)
{
    bool fl = t == SK_FLOAT32 || t == SK_FLOAT64;
    double step = fl ? (t == SK_FLOAT32 ? 0x1p-20 : 0x1p-49) : 1.0;
    const double common[] = {lo, hi, lo - step, hi - step, lo + step};
    if (k % 8 < COUNT_OF(common)) return common[k % 8];
    if (fl) {
        const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -NAN};
        return special[k % COUNT_OF(special)];
    }
    return k % 2 ? 0.0 : (t == SK_INT32 ? -2147483648.0 : t == SK_INT64 ? -0x1p63 : 0.0);
}

static void fill(sk_type t, input_kind in, void *dst, size_t n, double lo, double hi)
{
    double one = floor(lo / 2 + hi / 2); /* a bin in the middle */
    if (t == SK_FLOAT32 || t == SK_FLOAT64) one = lo / 3 + hi / 3 * 2;
    for (size_t i = 0; i < n; i++) {
        if (in == IN_ONE_BIN) {
            skt_ref_put_double(t, dst, i, one);
        } else if (in == IN_BOUNDARIES && skt_rand_below(2)) {
            skt_ref_put_double(t, dst, i, boundary(t, lo, hi, skt_rand()));
        } else if (skt_rand_below(16) == 0 && t != SK_FLOAT32 && t != SK_FLOAT64) {
            uint64_t raw = skt_rand(); /* the whole type */
            memcpy((char *)dst + i * sk_type_size(t), &raw, sk_type_size(t));
        } else {
            skt_ref_put_double(t, dst, i, around(t, lo, hi));
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* bins + 1 sorted edges within [lo, hi] (every fifth a duplicate). */
static void make_edges(sk_type t, void *edges, size_t bins, double lo, double hi)
{
    double *v = skt_malloc((bins + 1) * sizeof *v);
    for (size_t i = 0; i <= bins; i++)
        v[i] = i && skt_rand_below(5) == 0 ? v[i - 1] : around(t, lo, hi);
    for (size_t i = 0; i <= bins; i++) v[i] = fmin(fmax(v[i], lo), hi);
    qsort(v, bins + 1, sizeof *v, cmp_double);
    for (size_t i = 0; i <= bins; i++) skt_ref_put_double(t, edges, i, v[i]);
    free(v);
}

/* ---- one call -------------------------------------------------------------------------- */

typedef struct hcall {
    sk_type t;
    bool edges, host;
    size_t n, bins;
    double lo, hi;
    const void *src, *edge_values;
} hcall;

/* Runs c, returns the counts (bins + GUARD, poisoned past bins unless the
 * call wrote there); st gets the status. */
static uint64_t *run_call(const hcall *c, sk_status *st)
{
    size_t es = sk_type_size(c->t), cbytes = (c->bins + GUARD) * sizeof(uint64_t);
    uint64_t *counts = skt_malloc(cbytes);
    skt_poison(counts, cbytes);
    if (c->host) {
        *st = c->edges ? sk_histogram_edges_host(skt_ctx, c->t, c->src, c->edge_values, counts,
                                                 c->n, c->bins)
                       : sk_histogram_even_host(skt_ctx, c->t, c->src, c->lo, c->hi, counts,
                                                c->n, c->bins);
        return counts;
    }
    cl_mem src = skt_buf_new(c->n ? c->n * es : 1);
    cl_mem edges = skt_buf_new((c->bins + 1) * es);
    cl_mem out = skt_buf_new(cbytes);
    if (c->n) skt_buf_upload(src, 0, c->src, c->n * es);
    if (c->edges) skt_buf_upload(edges, 0, c->edge_values, (c->bins + 1) * es);
    skt_buf_poison(out, cbytes);
    *st = c->edges ? sk_histogram_edges(skt_ctx, c->t, src, edges, out, c->n, c->bins)
                   : sk_histogram_even(skt_ctx, c->t, src, c->lo, c->hi, out, c->n, c->bins);
    skt_finish();
    skt_buf_download(out, 0, counts, cbytes);
    skt_buf_free(src);
    skt_buf_free(edges);
    skt_buf_free(out);
    return counts;
}

static void check_call(const hcall *c, const char *what)
{
    uint64_t *want = skt_malloc(c->bins * sizeof *want);
    if (c->edges) skt_ref_histogram_edges(c->t, c->src, c->n, c->edge_values, c->bins, want);
    else skt_ref_histogram_even(c->t, c->src, c->n, c->lo, c->hi, c->bins, want);
    sk_status st;
    uint64_t *got = run_call(c, &st);
    cr_assert_eq(st, SK_OK, "%s: %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_expect_elems(SK_UINT64, got, want, c->bins, what);
    cr_assert_eq(skt_find_unpoisoned(got + c->bins, GUARD * sizeof *got), (size_t)-1,
                 "%s: counts written past bins [seed %llu]", what,
                 (unsigned long long)skt_seed());
    uint64_t sum = 0;
    for (size_t b = 0; b < c->bins; b++) sum += got[b];
    cr_assert(sum <= c->n, "%s: more counted than elements", what);
    free(want);
    free(got);
}

/* Every bin count, both forms, at size n (the inputs taking turns with k). */
static void check_size(sk_type t, size_t n, size_t k)
{
    size_t es = sk_type_size(t);
    double lo, hi;
    range_of(t, &lo, &hi);
    void *src = skt_malloc(n * es + 1);
    for (size_t bi = 0; bi < COUNT_OF(BINS); bi++) {
        size_t bins = BINS[bi];
        input_kind in = (input_kind)((k + bi) % IN_COUNT);
        void *edges = skt_malloc((bins + 1) * es);
        fill(t, in, src, n, lo, hi);
        make_edges(t, edges, bins, lo, hi);
        for (int form = 0; form < 2; form++) {
            hcall c = {t, form == 1, (k + bi + form) % 2 == 1, n, bins, lo, hi, src, edges};
            check_call(&c, skt_fmt("%s %s%s, %s, n=%zu bins=%zu", sk_type_name(t),
                                   c.edges ? "edges" : "even", c.host ? " host" : "",
                                   INPUT_NAMES[in], n, bins));
        }
        free(edges);
    }
    free(src);
}

enum { SC_SMALL, SC_DEFAULT, SC_COUNT };

ParameterizedTestParameters(histogram, counts_match_the_reference_for_every_type_and_shape)
{
    skt_params ps = {0};
    skt_params_add(&ps, NULL, 0, SC_COUNT, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, histogram,
                  counts_match_the_reference_for_every_type_and_shape)
{
    static const size_t small[] = {0, 1, 2, 7, 8, 9, 16, 17, 100, 1001};
    static const size_t large[] = {0, 1, 255, 256, 257, 4095, 4096, 4097, 100003, 300000};
    skt_params_need_type(p);
    skt_force_shape(p->shape);
    if (p->size_class == SC_SMALL) skt_tiles_small();
    const size_t *sizes = p->size_class == SC_SMALL ? small : large;
    for (size_t i = 0; i < COUNT_OF(small); i++) check_size(p->type, sizes[i], i);
}

/* All elements in one bin of many: every work-item's increments meet. */
ParameterizedTestParameters(histogram, one_bin_under_contention_counts_every_element)
{
    skt_params ps = {0};
    const sk_type types[] = {SK_UINT32, SK_FLOAT64};
    skt_params_add(&ps, types, 2, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, histogram, one_bin_under_contention_counts_every_element)
{
    size_t n = 1u << 20, es = sk_type_size(p->type);
    skt_params_need_type(p);
    skt_force_shape(p->shape);
    void *src = skt_malloc(n * es);
    for (size_t i = 0; i < n; i++) skt_ref_put_double(p->type, src, i, 42.0);
    uint64_t counts[64];
    SKT_OK(sk_histogram_even_host(skt_ctx, p->type, src, 0, 64, counts, n, 64));
    for (size_t b = 0; b < 64; b++)
        cr_assert_eq(counts[b], b == 42 ? n : 0, "bin %zu: %llu", b,
                     (unsigned long long)counts[b]);
    free(src);
}

/* ---- which counters ------------------------------------------------------------------ */

typedef struct seen {
    int local, global;
} seen;

static void note_launch(const sk_launch_record *r, void *user)
{
    seen *s = user;
    if (strcmp(r->kernel, "sk_histogram_tiles") != 0) return;
    if (strstr(r->options, "SK_LOCAL_BINS")) s->local++;
    else s->global++;
}

/* GPU shape: a few bins count in local memory, more bins than local
 * memory holds in global memory; both against the reference. */
Test(histogram, gpu_shape_takes_local_counters_where_they_fit_and_global_ones_beyond)
{
    const size_t n = 20000, big = (size_t)1 << 22; /* 16 MiB of counters */
    const double lo = 0, hi = 4294967295.0;
    seen s = {0, 0};
    skt_force_shape(SK_SHAPE_GPU);
    uint32_t *src = skt_malloc(n * sizeof *src);
    for (size_t i = 0; i < n; i++) src[i] = (uint32_t)skt_rand();
    SKT_OK(sk_context_set_trace(skt_ctx, note_launch, &s));
    hcall c = {SK_UINT32, false, true, n, 7, lo, hi, src, NULL};
    check_call(&c, "uint32 even, 7 bins, gpu shape");
    cr_assert(s.local == 1 && s.global == 0, "7 bins: %d local, %d global launches", s.local,
              s.global);
    c.bins = big;
    check_call(&c, "uint32 even, 2^22 bins, gpu shape");
    cr_assert(s.local == 1 && s.global == 1, "2^22 bins: %d local, %d global launches",
              s.local, s.global);
    SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
    free(src);
}

/* Edges with duplicates: the bins between equal edges stay empty, and an
 * element equal to a repeated edge goes to the bin after the last copy. */
Test(histogram, equal_edges_make_empty_bins)
{
    const int32_t edges[] = {0, 10, 10, 10, 20, 30, 30};
    const int32_t src[] = {-1, 0, 9, 10, 10, 19, 20, 29, 30, 31};
    uint64_t counts[6];
    const uint64_t want[6] = {2, 0, 0, 3, 2, 0};
    SKT_OK(sk_histogram_edges_host(skt_ctx, SK_INT32, src, edges, counts, 10, 6));
    skt_expect_elems(SK_UINT64, counts, want, 6, "int32 edges with duplicates");
}

/* Floats: NaN and infinities are in no bin of a finite range; hi itself is
 * in none, the largest float below hi in the last. */
Test(histogram, float_specials_and_hi_are_in_no_bin)
{
    const float src[] = {NAN, -NAN, INFINITY, -INFINITY, 1.0f, 0x1.fffffep0f, 2.0f, 0.0f, -0.0f};
    uint64_t counts[4];
    const uint64_t want[4] = {2, 0, 1, 1};
    SKT_OK(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, 0.0, 2.0, counts, 9, 4));
    skt_expect_elems(SK_UINT64, counts, want, 4, "float32 specials over [0, 2)");
    const float e[] = {-INFINITY, 0.0f, INFINITY};
    const uint64_t want_e[2] = {1, 5};
    SKT_OK(sk_histogram_edges_host(skt_ctx, SK_FLOAT32, src, e, counts, 9, 2));
    skt_expect_elems(SK_UINT64, counts, want_e, 2, "float32 specials, infinite edges");
}

/* Integers over the whole type: the exact division, no float rounding. */
Test(histogram, int64_over_the_whole_type_bins_exactly)
{
    const int64_t src[] = {INT64_MIN, -1, 0, 1, INT64_MAX - 2048, 4611686018427387903};
    uint64_t counts[3], want[3];
    const double lo = -0x1p63, hi = 0x1p63 - 1024.0;
    SKT_OK(sk_histogram_even_host(skt_ctx, SK_INT64, src, lo, hi, counts, 6, 3));
    skt_ref_histogram_even(SK_INT64, src, 6, lo, hi, 3, want);
    skt_expect_elems(SK_UINT64, counts, want, 3, "int64 over the whole type");
    cr_assert_eq(want[0] + want[1] + want[2], 6, "every element is in [lo, hi)");
}

/* Integer bins divide by hi - lo as a multiplication where (x - lo) * bins
 * fits 64 bits (a reciprocal of the range), bit by bit where it does not:
 * ranges of every shape (1, powers of two, one either side of them, the
 * widest of the type), each with values at every bin's edges and random
 * ones around the range, against the reference's plain division. */
typedef struct range_case {
    sk_type t;
    double lo, hi;
    size_t bins;
} range_case;

static void fill_range_case(const range_case *rc, uint64_t *v, size_t n)
{
    uint64_t lo = (uint64_t)rc->lo, w = (uint64_t)rc->hi - lo;
    uint64_t top = rc->t == SK_UINT32 ? UINT32_MAX : UINT64_MAX;
    size_t i = 0;
    for (size_t b = 0; b <= rc->bins && i + 3 <= n / 2; b++) { /* each bin's first value */
        uint64_t at = lo + (uint64_t)((double)w * (double)b / (double)rc->bins);
        v[i++] = at, v[i++] = at - (at > 0), v[i++] = at + (at < top);
    }
    for (; i < n; i++) {
        uint64_t r = skt_rand();
        v[i] = skt_rand_below(2) ? lo + (w > 1 ? r % w : 0) : r & top;
    }
}

ParameterizedTestParameters(histogram, integer_ranges_of_every_shape_bin_exactly)
{
    skt_params ps = {0};
    const sk_type types[] = {SK_UINT32, SK_UINT64};
    skt_params_add(&ps, types, 2, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, histogram, integer_ranges_of_every_shape_bin_exactly)
{
    const range_case cases[] = {
        {SK_UINT32, 0, 1, 1},          {SK_UINT32, 7, 9, 2},
        {SK_UINT32, 5, 8, 7},          {SK_UINT32, 0, 65536, 256},
        {SK_UINT32, 3, 2147483651.0, 1000}, {SK_UINT32, 0, 2147483649.0, 3},
        {SK_UINT32, 0, 4294967295.0, 256},  {SK_UINT32, 1, 4294967295.0, 4095},
        {SK_UINT64, 0, 1000, 7},       {SK_UINT64, 0x1p40, 0x1p40 + 0x1p33 + 1, 999},
        {SK_UINT64, 0, 0x1p63, 256},   {SK_UINT64, 1, 0x1p63 + 2048, 3},
        {SK_UINT64, 0, 0x1p64 - 2048, 65537},
    };
    const size_t n = 4096;
    skt_params_need_type(p);
    skt_force_shape(p->shape);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const range_case *rc = &cases[k];
        if (rc->t != (sk_type)p->type) continue;
        uint64_t v[4096];
        void *src = skt_malloc(n * sk_type_size(rc->t));
        fill_range_case(rc, v, n);
        for (size_t i = 0; i < n; i++) /* the low bytes: a little-endian host */
            memcpy((char *)src + i * sk_type_size(rc->t), &v[i], sk_type_size(rc->t));
        char what[96];
        snprintf(what, sizeof what, "%s over [%.17g, %.17g), %zu bins", sk_type_name(rc->t),
                 rc->lo, rc->hi, rc->bins);
        hcall c = {rc->t, false, k % 2 == 0, n, rc->bins, rc->lo, rc->hi, src, NULL};
        check_call(&c, what);
        free(src);
    }
}

/* ---- errors --------------------------------------------------------------------------- */

Test(histogram_errors, bad_arguments_give_statuses_and_leave_counts_alone)
{
    const float src[4] = {0, 1, 2, 3};
    const float unsorted[3] = {0, 2, 1}, nan_edge[3] = {0, NAN, 2};
    const int32_t isrc[4] = {0, 1, 2, 3};
    uint64_t counts[4];
    skt_poison(counts, sizeof counts);
    SKT_EXPECT_STATUS(sk_histogram_even_host(NULL, SK_FLOAT32, src, 0, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, 0, 1, counts, 4, 0),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, 1, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, 2, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, NAN, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, -3e38, 3e38, counts, 4, 2),
                      SK_E_INVALID_ARG); /* hi - lo overflows float */
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_INT32, isrc, 0.5, 3, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_UINT32, isrc, -1, 3, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_INT32, isrc, 0, 0x1p31, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, (sk_type)99, src, 0, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, NULL, 0, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even_host(skt_ctx, SK_FLOAT32, src, 0, 1, NULL, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_edges_host(skt_ctx, SK_FLOAT32, src, unsorted, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_edges_host(skt_ctx, SK_FLOAT32, src, nan_edge, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_edges_host(skt_ctx, SK_FLOAT32, src, NULL, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_edges_host(skt_ctx, SK_FLOAT32, src, unsorted, counts, 4,
                                              SIZE_MAX),
                      SK_E_SIZE); /* bins' byte size overflows */
    cr_assert_eq(skt_find_unpoisoned(counts, sizeof counts), (size_t)-1,
                 "a refused call wrote counts");
}

Test(histogram_errors, bad_buffers_are_refused_and_left_alone)
{
    cl_mem src = skt_buf_new(16), small = skt_buf_new(8), counts = skt_buf_new(32);
    cl_mem edges = skt_buf_new(12);
    const float unsorted[3] = {0, 2, 1};
    skt_buf_upload(edges, 0, unsorted, sizeof unsorted);
    skt_buf_poison(counts, 32);
    skt_buf_poison(small, 8);
    SKT_EXPECT_STATUS(sk_histogram_even(skt_ctx, SK_FLOAT32, NULL, 0, 1, counts, 4, 2),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_histogram_even(skt_ctx, SK_FLOAT32, src, 0, 1, small, 4, 2),
                      SK_E_INVALID_ARG); /* counts smaller than 2 uint64 */
    SKT_EXPECT_STATUS(sk_histogram_even(skt_ctx, SK_FLOAT32, small, 0, 1, counts, 4, 2),
                      SK_E_INVALID_ARG); /* src smaller than 4 floats */
    SKT_EXPECT_STATUS(sk_histogram_even(skt_ctx, SK_FLOAT32, src, 0, 1, src, 4, 2),
                      SK_E_INVALID_ARG); /* counts is src */
    SKT_EXPECT_STATUS(sk_histogram_edges(skt_ctx, SK_FLOAT32, src, edges, counts, 4, 2),
                      SK_E_INVALID_ARG); /* unsorted */
    SKT_EXPECT_STATUS(sk_histogram_edges(skt_ctx, SK_FLOAT32, src, edges, counts, 4, 3),
                      SK_E_INVALID_ARG); /* edges smaller than 4 floats */
    SKT_EXPECT_STATUS(sk_histogram_edges(skt_ctx, SK_FLOAT32, src, edges, edges, 4, 1),
                      SK_E_INVALID_ARG); /* counts is edges */
    unsigned char back[32];
    skt_buf_download(counts, 0, back, 32);
    cr_assert_eq(skt_find_unpoisoned(back, 32), (size_t)-1, "a refused call wrote counts");
    skt_buf_download(small, 0, back, 8);
    cr_assert_eq(skt_find_unpoisoned(back, 8), (size_t)-1, "a refused call wrote counts");
    skt_buf_free(src);
    skt_buf_free(small);
    skt_buf_free(counts);
    skt_buf_free(edges);
}
