/*
 * test_topk.c - sk_topk_keys/_pairs/_indices, sk_select_nth and their
 * host-array forms, against the serial reference in tests/ref/ref_topk.c
 * (a stable sort of every key by value in IEEE totalOrder, then its first
 * k; not the library's bit transform).
 *
 * One case per key type x shape runs sizes with small tiles and chunks
 * (work-groups of 4 x 2 keys, 3 CPU chunks: a few keys already span
 * several parts) and sizes around the default tile and chunks. At every
 * size each key kind (random: for floats raw bits, so NaNs of both signs,
 * and +-0, +-inf mixed in; all equal; sorted; reversed; few unique, so
 * ties at the k-th key) meets k = 0, 1, a third of n, n - 1 and n; the
 * order (smallest or largest), the output (input order or sorted), the
 * form (keys, indices; for uint32 and float64 keys also 4- or 8-byte
 * values) and cl_mem or host take turns. Outputs are poisoned past k and
 * must stay so; inputs must come back unchanged; sk_select_nth_host gives
 * the k-th key of each host case. The narrowing case runs keys shaped for
 * each of its outcomes (narrowed at the first digit, later, never) in both
 * shapes at k on tile edges, and checks from the launches that it
 * narrowed where it should. Written-out cases pin which equal keys are
 * taken, IEEE specials, the launches of each shape and every status.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_sort.h"
#include "ref/ref_topk.h"
#include "skt_common.h"

TestSuite(topk, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(topk_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 8 /* output elements after k that must stay poisoned */
#define COUNT_OF(x) (sizeof(x) / sizeof((x)[0]))

/* ---- inputs ------------------------------------------------------------------- */

typedef enum key_kind { K_RANDOM, K_EQUAL, K_SORTED, K_REVERSED, K_FEW, K_COUNT } key_kind;
static const char *const KIND_NAMES[K_COUNT] = {"random", "all equal", "sorted", "reversed",
                                                "few unique"};

typedef enum form { F_KEYS, F_INDICES, F_VALUES4, F_VALUES8, F_COUNT } form;
static const char *const FORM_NAMES[F_COUNT] = {"keys", "indices", "4-byte values",
                                                "8-byte values"};

static void make_keys(sk_type t, key_kind k, void *keys, size_t n)
{
    uint64_t few[3] = {skt_random_key(t), skt_random_key(t), skt_random_key(t)};
    for (size_t i = 0; i < n; i++)
        skt_ref_put_key(t, keys, i, k == K_EQUAL ? few[0]
                                    : k == K_FEW ? few[skt_rand_below(3)]
                                                 : skt_random_key(t));
    if (k == K_SORTED || k == K_REVERSED) skt_ref_sort_keys(t, keys, n, k == K_REVERSED);
}

/* ---- one checked selection ---------------------------------------------------------- */

typedef struct topk_case {
    sk_type t;
    size_t n, k;
    int descending, sorted;
    key_kind kind;
    form form;
    bool host;
    const char *cfg;
} topk_case;

static size_t value_size(form f) { return f == F_VALUES4 ? 4 : f == F_KEYS ? 0 : 8; }

static const char *case_name(const topk_case *c)
{
    return skt_fmt("%s top-%zu of %zu, %s, %s, %s keys, %s%s, %s", sk_type_name(c->t), c->k,
                   c->n, c->descending ? "largest" : "smallest",
                   c->sorted ? "sorted" : "input order", KIND_NAMES[c->kind],
                   FORM_NAMES[c->form], c->host ? ", host" : "", c->cfg);
}

/* The call of case c on host arrays. */
static sk_status call_host(const topk_case *c, const void *keys, const void *vals,
                           void *out_keys, void *out_vals)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    sk_topk_output out = c->sorted ? SK_TOPK_SORTED : SK_TOPK_INPUT_ORDER;
    switch (c->form) {
    case F_KEYS: return sk_topk_keys_host(skt_ctx, c->t, keys, out_keys, c->n, c->k, o, out);
    case F_INDICES:
        return sk_topk_indices_host(skt_ctx, c->t, keys, out_keys, out_vals, c->n, c->k, o,
                                    out);
    default:
        return sk_topk_pairs_host(skt_ctx, c->t, value_size(c->form), keys, vals, out_keys,
                                  out_vals, c->n, c->k, o, out);
    }
}

/* The call of case c on buffers. */
static sk_status call_mem(const topk_case *c, cl_mem keys, cl_mem vals, cl_mem out_keys,
                          cl_mem out_vals)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    sk_topk_output out = c->sorted ? SK_TOPK_SORTED : SK_TOPK_INPUT_ORDER;
    switch (c->form) {
    case F_KEYS: return sk_topk_keys(skt_ctx, c->t, keys, out_keys, c->n, c->k, o, out);
    case F_INDICES:
        return sk_topk_indices(skt_ctx, c->t, keys, out_keys, out_vals, c->n, c->k, o, out);
    default:
        return sk_topk_pairs(skt_ctx, c->t, value_size(c->form), keys, vals, out_keys,
                             out_vals, c->n, c->k, o, out);
    }
}

/* got_keys and got_vals ((k + GUARD) elements, poisoned by the caller):
 * the cl_mem form's outputs; the inputs checked unchanged after it. */
static sk_status run_mem(const topk_case *c, const void *keys, const void *vals,
                         void *got_keys, void *got_vals, const char *what)
{
    size_t ks = sk_type_size(c->t), vs = value_size(c->form);
    cl_mem dk = skt_buf_guarded(keys, c->n, ks, GUARD);
    cl_mem dv = c->form >= F_VALUES4 ? skt_buf_guarded(vals, c->n, vs, GUARD) : NULL;
    cl_mem ok = skt_buf_new((c->k + GUARD) * ks), ov = NULL;
    skt_buf_upload(ok, 0, got_keys, (c->k + GUARD) * ks);
    if (vs) {
        ov = skt_buf_new((c->k + GUARD) * vs);
        skt_buf_upload(ov, 0, got_vals, (c->k + GUARD) * vs);
    }
    sk_status st = call_mem(c, dk, dv, ok, ov);
    skt_buf_download(ok, 0, got_keys, (c->k + GUARD) * ks);
    if (vs) skt_buf_download(ov, 0, got_vals, (c->k + GUARD) * vs);
    skt_expect_guarded(dk, keys, c->n, ks, GUARD, what, "the keys");
    if (dv) skt_expect_guarded(dv, vals, c->n, vs, GUARD, what, "the values");
    skt_buf_free(dk);
    skt_buf_free(dv);
    skt_buf_free(ok);
    skt_buf_free(ov);
    return st;
}

/* want_keys / want_vals = the inputs at the reference's indices. */
static void expected(const topk_case *c, const void *keys, const void *vals,
                     const uint64_t *idx, void *want_keys, void *want_vals)
{
    size_t ks = sk_type_size(c->t), vs = value_size(c->form);
    for (size_t i = 0; i < c->k; i++) {
        memcpy((unsigned char *)want_keys + i * ks, (const unsigned char *)keys + idx[i] * ks,
               ks);
        if (c->form == F_INDICES) memcpy((unsigned char *)want_vals + i * 8, &idx[i], 8);
        if (c->form >= F_VALUES4)
            memcpy((unsigned char *)want_vals + i * vs,
                   (const unsigned char *)vals + idx[i] * vs, vs);
    }
}

/* The key of rank k - 1: what sk_select_nth_host gives. */
static void check_nth(const topk_case *c, const void *keys, const char *what)
{
    if (c->k == 0 || !c->host) return;
    size_t ks = sk_type_size(c->t);
    uint64_t *idx = skt_malloc(c->k * sizeof *idx), got = 0, want = 0;
    skt_ref_topk(c->t, keys, c->n, c->k, c->descending, 1, idx);
    memcpy(&want, (const unsigned char *)keys + idx[c->k - 1] * ks, ks);
    uint64_t low = ks == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * ks)) - 1;
    skt_poison(&got, sizeof got);
    got &= ~low; /* the key's bytes zero, the rest stays poisoned */
    SKT_OK(sk_select_nth_host(skt_ctx, c->t, keys, &got, c->n, c->k - 1,
                              c->descending ? SK_DESCENDING : SK_ASCENDING));
    if (ks < 8) {
        uint64_t poison;
        skt_poison(&poison, sizeof poison);
        cr_assert_eq(got & ~low, poison & ~low, "%s: select_nth wrote past its key [seed %llu]",
                     what, (unsigned long long)skt_seed());
        got &= low;
    }
    cr_assert_eq(got, want, "%s: select_nth rank %zu = 0x%llx, want 0x%llx [seed %llu]", what,
                 c->k - 1, (unsigned long long)got, (unsigned long long)want,
                 (unsigned long long)skt_seed());
    free(idx);
}

static void check_case(const topk_case *c, const void *keys)
{
    size_t ks = sk_type_size(c->t), vs = value_size(c->form), vsz = vs ? vs : 1;
    const char *what = case_name(c);
    unsigned char *vals = skt_malloc((c->n + 1) * vsz);
    unsigned char *got_k = skt_malloc((c->k + GUARD) * ks), *got_v = skt_malloc((c->k + GUARD) * vsz);
    unsigned char *want_k = skt_malloc((c->k + 1) * ks), *want_v = skt_malloc((c->k + 1) * vsz);
    uint64_t *idx = skt_malloc((c->k + 1) * sizeof *idx);
    for (size_t i = 0; i < c->n * vsz; i++) vals[i] = (unsigned char)skt_rand();
    skt_ref_topk(c->t, keys, c->n, c->k, c->descending, c->sorted, idx);
    expected(c, keys, vals, idx, want_k, want_v);
    skt_poison(got_k, (c->k + GUARD) * ks);
    skt_poison(got_v, (c->k + GUARD) * vsz);
    sk_status st = c->host ? call_host(c, keys, vals, got_k, got_v)
                           : run_mem(c, keys, vals, got_k, got_v, what);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_expect_bytes(got_k, want_k, c->k, ks, skt_fmt("%s, keys [seed %llu]", what,
                                                     (unsigned long long)skt_seed()));
    if (vs)
        skt_expect_bytes(got_v, want_v, c->k, vs, skt_fmt("%s, values [seed %llu]", what,
                                                         (unsigned long long)skt_seed()));
    if (!c->host) {
        cr_assert_eq(skt_find_unpoisoned(got_k + c->k * ks, GUARD * ks), (size_t)-1,
                     "%s: keys written past k [seed %llu]", what,
                     (unsigned long long)skt_seed());
        if (vs)
            cr_assert_eq(skt_find_unpoisoned(got_v + c->k * vs, GUARD * vs), (size_t)-1,
                         "%s: values written past k [seed %llu]", what,
                         (unsigned long long)skt_seed());
    }
    check_nth(c, keys, what);
    skt_free_all(vals, got_k, got_v, want_k, want_v, idx, NULL);
}

/* ---- the matrix ------------------------------------------------------------------ */

/* The form of turn `turn`: keys or indices for every key type; values of
 * 4 and 8 bytes too for uint32 and float64 (fewer programs to build). */
static form form_of(sk_type t, unsigned turn)
{
    return t == SK_UINT32 || t == SK_FLOAT64 ? (form)(turn % F_COUNT) : (form)(turn % 2);
}

/* Small tiles (4 x 2 keys) and 3 CPU chunks. */
static const size_t small_sizes[] = {0, 1, 2, 3, 9, 25, 100};
/* Past the default tile (256 x 16 keys on the GPU shape) and the CPU
 * shape's one work-item (32768 keys). */
static const size_t default_sizes[] = {4097, 33001};

/* Every key kind at k = 1, n / 3, n, 0, n - 1 (large sizes: one of the
 * first three by turns); order, output, form and cl_mem or host take
 * turns. The turns start from the key type, not from the seed: which
 * programs a run builds (forms and outputs of each type) is then the same
 * in every run, so the sanitizer pass finds them all in the normal pass's
 * cache and compiles nothing. */
static void sweep(sk_type t, const size_t *sizes, size_t count, bool large, const char *cfg)
{
    unsigned turn = 3u * (unsigned)t;
    for (size_t s = 0; s < count; s++) {
        size_t n = sizes[s], ks_[5] = {1, n / 3, n, 0, n ? n - 1 : 0};
        unsigned char *keys = skt_malloc((n + 1) * sk_type_size(t));
        for (int kind = 0; kind < K_COUNT; kind++) {
            make_keys(t, (key_kind)kind, keys, n);
            for (size_t j = 0; j < (large ? 1u : 5u); j++, turn++) {
                size_t k = ks_[large ? (kind + s) % 3 : j];
                if (k > n) k = n; /* k = 1 of n = 0 */
                topk_case c = {t,        n,      k,    (int)(turn % 2), (int)(turn / 2 % 2),
                               (key_kind)kind, form_of(t, turn / 4), (turn / 3) % 2 == 1,
                               cfg};
                check_case(&c, keys);
            }
        }
        free(keys);
    }
}

ParameterizedTestParameters(topk, should_match_the_stable_sort_reference)
{
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, NULL, 0, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, topk, should_match_the_stable_sort_reference)
{
    sk_type t = (sk_type)p->type;
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_tiles_set(4, 2, 3, 1);
    sweep(t, small_sizes, COUNT_OF(small_sizes), false, skt_fmt("%s, small tiles", skt_params_name(p)));
    skt_tiles_default();
    sweep(t, default_sizes, COUNT_OF(default_sizes), true,
          skt_fmt("%s, default tiles", skt_params_name(p)));
}

/* ---- narrowing ------------------------------------------------------------------ */

/* Keys for the narrowing cases: spread over every digit; spread only in
 * the low 16 bits (the first digits narrow nothing); two values apart in
 * the last digit only (nothing narrows until the end); all equal (the
 * pivot's bin holds every key); half the keys in one first-digit bin;
 * float32 bits, half of them NaNs of both signs (a quarter of the keys in
 * each end bin of the first digit) with their payloads spread. */
typedef enum narrow_kind { N_SPREAD, N_LOW16, N_LAST_DIGIT, N_EQUAL, N_HALF, N_NANS,
                           N_COUNT } narrow_kind;
static const char *const NARROW_NAMES[N_COUNT] = {
    "spread", "low 16 bits", "apart in the last digit", "all equal", "half in one bin", "NaNs"};

static uint32_t narrow_key(narrow_kind kind, size_t i)
{
    uint32_t r = (uint32_t)skt_rand();
    switch (kind) {
    case N_SPREAD: return r;
    case N_LOW16: return r & 0xffffu;
    case N_LAST_DIGIT: return 0x12345600u | (r & 1u);
    case N_EQUAL: return 0x80000000u;
    case N_HALF: return i % 2 ? 0x42000000u | (r & 0xffffffu) : r;
    default: return i % 2 ? r : (r & 0x80000000u) | 0x7f800000u | ((r & 0x7fffffu) | 1u);
    }
}

static void count_narrowings(const sk_launch_record *r, void *user)
{
    if (strcmp(r->kernel, "sk_topk_narrow") == 0) ++*(int *)user;
}

/* Sources large enough to narrow in both shapes (small tiles: from 64 keys
 * on the GPU shape, 2 on the CPU shape), at every narrowing outcome: k at
 * the ends, at tile edges (tiles of 8 keys) and in the middle; forms,
 * orders and outputs by turns, all of them among the programs the uint32
 * and float32 sweeps build. */
Test(topk, narrowing_keeps_every_semantic_at_every_outcome)
{
    const size_t n = 3001, ks_[] = {0, 1, 7, 8, 9, n / 2, n - 1, n};
    uint32_t *keys = skt_malloc(n * sizeof *keys);
    unsigned turn = 0;
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        skt_tiles_small();
        for (int kind = 0; kind < N_COUNT; kind++) {
            sk_type t = kind == N_NANS ? SK_FLOAT32 : SK_UINT32;
            int narrowings = 0;
            for (size_t i = 0; i < n; i++) keys[i] = narrow_key((narrow_kind)kind, i);
            SKT_OK(sk_context_set_trace(skt_ctx, count_narrowings, &narrowings));
            for (size_t j = 0; j < COUNT_OF(ks_); j++, turn++) {
                const char *cfg = skt_fmt("%s shape, small tiles, %s",
                                          skt_shape_name((sk_shape)shape), NARROW_NAMES[kind]);
                topk_case c = {t, n, ks_[j], (int)(turn % 2), (int)(turn / 2 % 2), K_RANDOM,
                               form_of(t, turn / 4), (turn / 3) % 2 == 1, cfg};
                check_case(&c, keys);
            }
            SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
            /* what shrinks narrows; what never shrinks before the last digit never does */
            bool shrinks = kind != N_EQUAL && kind != N_LAST_DIGIT;
            cr_assert(shrinks ? narrowings > 0 : narrowings == 0,
                      "%s shape, %s keys: %d narrowings", skt_shape_name((sk_shape)shape),
                      NARROW_NAMES[kind], narrowings);
        }
    }
    free(keys);
}

/* 8- and 16-bit keys, small tiles and sizes: an 8-bit integer in the CPU
 * shape (and the default tiles at 33001 keys), a 16-bit one in the GPU
 * shape, float16 in both (the programs of each type and shape add up). */
ParameterizedTestParameters(topk, narrow_keys_should_match_the_stable_sort_reference)
{
    static const sk_type types[] = {SK_INT8, SK_UINT16, SK_FLOAT16};
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, types, COUNT_OF(types), 1, 0, 0);
    size_t kept = 0;
    for (size_t i = 0; i < ps.n; i++) {
        sk_type t = (sk_type)ps.v[i].type;
        bool gpu = ps.v[i].shape == SK_SHAPE_GPU;
        if (t == SK_FLOAT16 || gpu == (t == SK_UINT16)) ps.v[kept++] = ps.v[i];
    }
    ps.n = kept;
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, topk, narrow_keys_should_match_the_stable_sort_reference)
{
    static const size_t large[] = {33001};
    sk_type t = (sk_type)p->type;
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_tiles_set(4, 2, 3, 1);
    sweep(t, small_sizes, COUNT_OF(small_sizes), false,
          skt_fmt("%s, small tiles", skt_params_name(p)));
    if (t != SK_INT8) return;
    skt_tiles_default(); /* (in the CPU shape) */
    sweep(t, large, COUNT_OF(large), true, skt_fmt("%s, default tiles", skt_params_name(p)));
}

/* ---- cases written out --------------------------------------------------------------- */

/* keys and indices of the host indices form, both shapes, small tiles. */
static void expect_topk(sk_type t, const void *keys, size_t n, size_t k, sk_sort_order o,
                        sk_topk_output out, const void *want_keys, const uint64_t *want_idx,
                        const char *what)
{
    size_t ks = sk_type_size(t);
    unsigned char got[16 * 8];
    uint64_t idx[16];
    cr_assert(k <= 16);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        const char *w = skt_fmt("%s, %s shape", what, skt_shape_name((sk_shape)shape));
        skt_force_shape((sk_shape)shape);
        skt_tiles_set(4, 2, 3, 1);
        SKT_OK(sk_topk_indices_host(skt_ctx, t, keys, got, idx, n, k, o, out));
        skt_expect_bytes(got, want_keys, k, ks, w);
        skt_expect_elems(SK_UINT64, idx, want_idx, k, w);
    }
}

/* Ties at the k-th key: the equal keys of lowest input index are taken,
 * in input order or (sorted) after the keys before them. */
Test(topk, ties_at_the_kth_key_take_the_lowest_indices)
{
    const uint32_t keys[] = {5, 3, 5, 1, 5, 5, 0, 9, 5};
    const uint32_t in5[] = {5, 3, 5, 1, 0}, so5[] = {0, 1, 3, 5, 5}, so4[] = {0, 1, 3, 5};
    const uint64_t ii5[] = {0, 1, 2, 3, 6}, is5[] = {6, 3, 1, 0, 2}, is4[] = {6, 3, 1, 0};
    expect_topk(SK_UINT32, keys, 9, 5, SK_ASCENDING, SK_TOPK_INPUT_ORDER, in5, ii5,
                "smallest 5, input order");
    expect_topk(SK_UINT32, keys, 9, 5, SK_ASCENDING, SK_TOPK_SORTED, so5, is5,
                "smallest 5, sorted");
    expect_topk(SK_UINT32, keys, 9, 4, SK_ASCENDING, SK_TOPK_SORTED, so4, is4,
                "smallest 4, sorted");
    const uint32_t li3[] = {5, 5, 9}, ls3[] = {9, 5, 5};
    const uint64_t ili3[] = {0, 2, 7}, ils3[] = {7, 0, 2};
    expect_topk(SK_UINT32, keys, 9, 3, SK_DESCENDING, SK_TOPK_INPUT_ORDER, li3, ili3,
                "largest 3, input order");
    expect_topk(SK_UINT32, keys, 9, 3, SK_DESCENDING, SK_TOPK_SORTED, ls3, ils3,
                "largest 3, sorted");
}

/* IEEE specials in totalOrder: -NaN < -inf < -1 < -0 < +0 < 1 < inf <
 * NaN, compared as bits. */
Test(topk, float_specials_follow_total_order)
{
    /* +NaN, -NaN, +0, -0, +inf, -inf, 1, -1 */
    const uint32_t keys[] = {0x7fc00000u, 0xffc00000u, 0x00000000u, 0x80000000u,
                             0x7f800000u, 0xff800000u, 0x3f800000u, 0xbf800000u};
    const uint32_t small[] = {0xffc00000u, 0xff800000u, 0xbf800000u, 0x80000000u};
    const uint64_t is[] = {1, 5, 7, 3};
    expect_topk(SK_FLOAT32, keys, 8, 4, SK_ASCENDING, SK_TOPK_SORTED, small, is,
                "float32 smallest 4");
    const uint32_t large[] = {0x7fc00000u, 0x7f800000u, 0x3f800000u, 0x00000000u};
    const uint64_t il[] = {0, 4, 6, 2};
    expect_topk(SK_FLOAT32, keys, 8, 4, SK_DESCENDING, SK_TOPK_SORTED, large, il,
                "float32 largest 4");
    const double dk[] = {NAN, -0.0, 0.0, -NAN, INFINITY, -INFINITY};
    const double ds[] = {-NAN, -INFINITY, -0.0};
    const uint64_t ids[] = {3, 5, 1};
    expect_topk(SK_FLOAT64, dk, 6, 3, SK_ASCENDING, SK_TOPK_SORTED, ds, ids,
                "float64 smallest 3");
    double nth = 1;
    SKT_OK(sk_select_nth_host(skt_ctx, SK_FLOAT64, dk, &nth, 6, 3, SK_ASCENDING));
    cr_assert(nth == 0.0 && !signbit(nth), "rank 3 of the float64 keys is +0, not %g", nth);
}

/* Integers by value across the sign, the extremes included. */
Test(topk, signed_keys_order_by_value)
{
    const int64_t keys[] = {3, INT64_MIN, -1, INT64_MAX, 0, -1};
    const int64_t want[] = {INT64_MIN, -1, -1};
    const uint64_t idx[] = {1, 2, 5};
    expect_topk(SK_INT64, keys, 6, 3, SK_ASCENDING, SK_TOPK_SORTED, want, idx, "int64");
    const int32_t k32[] = {-7, 7, INT32_MIN, INT32_MAX};
    const int32_t w32[] = {INT32_MAX, 7};
    const uint64_t i32[] = {3, 1};
    expect_topk(SK_INT32, k32, 4, 2, SK_DESCENDING, SK_TOPK_SORTED, w32, i32, "int32");
}

/* ---- launches ---------------------------------------------------------------------- */

typedef struct traced {
    int count, scatter;
    size_t scatter_global, scatter_local;
    char scalars[256];
} traced;

static void note_launch(const sk_launch_record *r, void *user)
{
    traced *t = user;
    t->count++;
    if (strcmp(r->kernel, "sk_topk_scatter") != 0) return;
    t->scatter++;
    t->scatter_global = r->global_size;
    t->scatter_local = r->local_size;
    snprintf(t->scalars, sizeof t->scalars, "%s", r->scalars);
}

/* Each forced shape collects with its own launch (work-groups of the
 * tile, or one work-item per chunk), traced with its scalars; the
 * selection takes four digit passes for 32-bit keys, no sort in input
 * order. */
Test(topk, each_shape_collects_with_its_launch_and_traces_it)
{
    uint32_t keys[50], out[10];
    for (uint32_t i = 0; i < 50; i++) keys[i] = 50 - i;
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        traced t = {0};
        bool gpu = shape == SK_SHAPE_GPU;
        skt_force_shape((sk_shape)shape);
        skt_tiles_set(4, 2, 3, 1);
        SKT_OK(sk_context_set_trace(skt_ctx, note_launch, &t));
        SKT_OK(sk_topk_keys_host(skt_ctx, SK_UINT32, keys, out, 50, 10, SK_ASCENDING,
                                 SK_TOPK_INPUT_ORDER));
        SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
        /* init, 4 x (digit rows, their sum, pick), part counts, spine, scatter */
        cr_assert_eq(t.count, 16, "%s shape: %d launches", skt_shape_name((sk_shape)shape),
                     t.count);
        cr_assert_eq(t.scatter, 1);
        cr_assert(gpu ? t.scatter_local == 4 && t.scatter_global == 7 * 4
                      : t.scatter_local == 1 && t.scatter_global == 3,
                  "%s shape: global %zu, local %zu", skt_shape_name((sk_shape)shape),
                  t.scatter_global, t.scatter_local);
        cr_assert(strstr(t.scalars, "n=50") && (gpu || strstr(t.scalars, "chunk=17")),
                  "scalars '%s'", t.scalars);
        for (uint32_t i = 0; i < 10; i++) cr_assert_eq(out[i], 10 - i);
    }
}

/* ---- statuses ------------------------------------------------------------------------ */

Test(topk_errors, rejects_bad_arguments_and_leaves_outputs_alone)
{
    uint32_t keys[4] = {4, 3, 2, 1}, out[4] = {7, 7, 7, 7};
    uint64_t idx[4] = {7, 7, 7, 7};
    const sk_sort_order A = SK_ASCENDING;
    const sk_topk_output I = SK_TOPK_INPUT_ORDER;
    cr_assert_eq(sk_topk_keys_host(NULL, SK_UINT32, keys, out, 4, 2, A, I), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys_host(skt_ctx, SK_UINT32, keys, out, 4, 5, A, I), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys_host(skt_ctx, (sk_type)99, keys, out, 4, 2, A, I),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys_host(skt_ctx, SK_UINT32, keys, out, 4, 2, (sk_sort_order)7, I),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys_host(skt_ctx, SK_UINT32, keys, out, 4, 2, A, (sk_topk_output)2),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys_host(skt_ctx, SK_UINT32, NULL, out, 4, 2, A, I), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys_host(skt_ctx, SK_UINT32, keys, NULL, 4, 2, A, I), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_indices_host(skt_ctx, SK_UINT32, keys, out, NULL, 4, 2, A, I),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_pairs_host(skt_ctx, SK_UINT32, 2, keys, keys, out, out, 4, 2, A, I),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_select_nth_host(skt_ctx, SK_UINT32, keys, out, 4, 4, A), SK_E_INVALID_ARG);
    cr_assert_eq(sk_select_nth_host(skt_ctx, SK_UINT32, keys, out, 0, 0, A), SK_E_INVALID_ARG);
    for (int i = 0; i < 4; i++) cr_assert(out[i] == 7 && idx[i] == 7, "output %d written", i);
    /* n 0, k 0: nothing, NULL arrays allowed */
    SKT_OK(sk_topk_keys_host(skt_ctx, SK_UINT32, NULL, NULL, 0, 0, A, I));
    SKT_OK(sk_topk_indices_host(skt_ctx, SK_UINT32, keys, NULL, NULL, 4, 0, A, I));
}

Test(topk_errors, rejects_small_and_overlapping_buffers)
{
    uint32_t keys[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    cl_mem k = skt_buf_guarded(keys, 8, 4, 0), small = skt_buf_new(8), out = skt_buf_new(32);
    cl_mem idx = skt_buf_new(64);
    const sk_sort_order A = SK_ASCENDING;
    const sk_topk_output S = SK_TOPK_SORTED;
    cr_assert_eq(sk_topk_keys(skt_ctx, SK_UINT32, k, small, 8, 4, A, S), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys(skt_ctx, SK_UINT32, small, out, 8, 4, A, S), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys(skt_ctx, SK_UINT32, k, k, 8, 4, A, S), SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_indices(skt_ctx, SK_UINT32, k, out, small, 8, 4, A, S),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_indices(skt_ctx, SK_UINT32, k, out, out, 8, 4, A, S),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_topk_keys(skt_ctx, SK_UINT32, k, NULL, 8, 4, A, S), SK_E_INVALID_ARG);
    cr_assert_eq(sk_select_nth(skt_ctx, SK_UINT32, k, k, 8, 4, A), SK_E_INVALID_ARG);
    SKT_OK(sk_topk_indices(skt_ctx, SK_UINT32, k, out, idx, 8, 4, A, S));
    uint32_t got[4];
    uint64_t gi[4];
    skt_buf_download(out, 0, got, sizeof got);
    skt_buf_download(idx, 0, gi, sizeof gi);
    for (uint32_t i = 0; i < 4; i++) cr_assert(got[i] == i + 1 && gi[i] == 7 - i);
    skt_buf_free(k);
    skt_buf_free(small);
    skt_buf_free(out);
    skt_buf_free(idx);
}
