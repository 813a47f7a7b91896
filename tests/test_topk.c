/*
 * test_topk.c - sk_topk_keys/_pairs/_indices, sk_select_nth and their
 * host-array forms, against the serial reference in tests/ref/ref_topk.c
 * (a stable sort of every key by value in IEEE totalOrder, then its first
 * k; not the library's bit transform).
 *
 * One case per key type (int32, uint32, float32, int64, uint64, float64,
 * int8, uint16, float16) x shape runs sizes 0, 1, 2, 3, 9, 25, 100 and
 * 4097, 33001 (past the default GPU tile of 256 x 16 keys and the CPU
 * shape's one work-item of 32768). At every size each key kind (random:
 * for floats raw bits, so NaNs of both signs, and +-0, +-inf mixed in; all
 * equal; sorted; reversed; few unique, so ties at the k-th key) meets k =
 * 0, 1, a third of n, n - 1 and n (the two large sizes: one of the first
 * three by turns); the order (smallest or largest), the output (input
 * order or sorted) and cl_mem or host take turns. Outputs are poisoned
 * past k and must stay so; inputs must come back unchanged;
 * sk_select_nth_host gives the k-th key of each host case.
 *
 * Each key type x form (keys; indices; 4- or 8-byte values) x shape x GPU
 * tile setting is a program PoCL compiles (with the digit histogram's, and
 * the radix sort's for sorted output), so the build-time axes are covered
 * pairwise, not as their product (TOPK_PLAN, checked by
 * plan_should_cover_every_pair). Every type runs in both shapes, with the
 * keys form (whose program the host cases' sk_select_nth_host builds
 * anyway) and one more form (int8: all three others in each shape, being
 * the only 8-bit type; float16 in the CPU shape and uint16 on the GPU: two,
 * the 16-bit types sharing three forms). In the CPU shape, whose programs
 * do not hold the tile setting, every type runs the small sizes with small
 * tiles (3 chunks) and the large ones with the default chunks. In the GPU
 * shape each type takes one tile setting, small (4 x 2 keys) or default,
 * and runs every size in it; int8 takes both (small sizes with small
 * tiles, large with default), so every key width meets both GPU settings,
 * and so does every key kind (uint, int, float). Why not every type x GPU
 * setting: a key type is its width and kind (SK_KEY_BITS x SK_KEY_KIND),
 * and the setting acts on each of them apart, not on their product: the
 * tile holds SK_WG x SK_ITEMS keys of the width, the kind only picks the
 * bit transform applied to each key wherever it is loaded; and every type
 * meets both tile settings in the CPU shape (3 chunks or the default
 * ones). Every form meets every key width in both shapes, and both GPU
 * settings.
 * The tile settings are test_sort.c's small and default ones, and the
 * radix sorts of sorted output are mostly its programs: on the GPU those
 * of uint32 and float32 keys with 8-byte values (or indices), int64 with
 * 4-byte values, int8 and float16 with 8-byte values, all with small
 * tiles, and with default tiles uint64 with 8-byte values and float64
 * keys; in the CPU shape every 32- and 64-bit type's, int8 and float16
 * with 4-byte values and uint16 keys.
 *
 * The narrowing case runs keys shaped for each of its outcomes (narrowed
 * at the first digit, later, never) in both shapes with small tiles at k
 * on tile edges, and checks from the launches that it narrowed where it
 * should. Written-out cases pin which equal keys are taken (by indices, or
 * by values that are the input indices), IEEE specials, the launches of
 * each shape and every status, in both shapes with small tiles (or the
 * type's GPU setting): programs of the plan.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
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

/* Forms as masks of the plan. */
#define FK SKT_BIT(F_KEYS)
#define FI SKT_BIT(F_INDICES)
#define F4 SKT_BIT(F_VALUES4)
#define F8 SKT_BIT(F_VALUES8)
#define F_ALL (FK | FI | F4 | F8)

/* Where each key type runs (pairwise over the build-time axes, see the
 * header): beside the keys form (the selection alone, which every host
 * case builds anyway for sk_select_nth_host), the forms of its CPU shape
 * (a program per form for both tile settings: there they are run-time
 * chunk counts) and of its GPU shape with small and with default tiles (a
 * program per form and setting; 0: the type does not run that setting).
 * Every type runs in both shapes; the GPU shape in one setting (int8: both,
 * the only 8-bit type), which runs every size there. Every form meets
 * every key width in each shape, and each GPU setting; every key kind and
 * every key width of two types or more meets both GPU settings. */
typedef struct topk_plan_row {
    sk_type t;
    unsigned cpu, gpu_small, gpu_default; /* masks of forms besides the keys */
} topk_plan_row;

static const topk_plan_row TOPK_PLAN[] = {
    {SK_INT32, F4, 0, F4},        {SK_UINT32, FI, F8, 0},     {SK_FLOAT32, F8, FI, 0},
    {SK_INT64, F4, F4, 0},        {SK_UINT64, F8, 0, F8},     {SK_FLOAT64, FI, 0, FI},
    {SK_INT8, FI | F4 | F8, F8, FI | F4}, {SK_UINT16, F8, 0, FI | F4}, {SK_FLOAT16, FI | F4, F8, 0},
};

static const topk_plan_row *plan_of(sk_type t)
{
    for (size_t i = 0; i < COUNT_OF(TOPK_PLAN); i++)
        if (TOPK_PLAN[i].t == t) return &TOPK_PLAN[i];
    cr_assert_fail("%s has no row in the plan", sk_type_name(t));
    return NULL;
}

/* The GPU setting of type t that runs the sizes of `small` tiles: that
 * one where the plan has both, else the one it has. */
static bool plan_gpu_small(sk_type t, bool small)
{
    const topk_plan_row *r = plan_of(t);
    return r->gpu_small && r->gpu_default ? small : r->gpu_small != 0;
}

/* The forms (keys included) of type t in a shape and tile setting. */
static unsigned plan_forms(sk_type t, sk_shape shape, bool small)
{
    const topk_plan_row *r = plan_of(t);
    return FK | (shape != SK_SHAPE_GPU ? r->cpu : small ? r->gpu_small : r->gpu_default);
}

/* Forces the shape and the plan's tiles of type t for the sizes of `small`
 * tiles; the setting it chose. */
static bool plan_apply(sk_type t, sk_shape shape, bool small)
{
    bool s = shape == SK_SHAPE_GPU ? plan_gpu_small(t, small) : small;
    skt_force_shape(shape);
    if (s) skt_tiles_small();
    else skt_tiles_default();
    return s;
}

/* The form of turn `turn` among those of mask forms (by turns). */
static form form_of(unsigned forms, unsigned turn)
{
    unsigned count = 0, pick;
    for (int f = 0; f < F_COUNT; f++) count += (forms >> f) & 1u;
    cr_assert(count > 0, "no form in the plan");
    pick = turn % count;
    for (int f = 0; f < F_COUNT; f++)
        if ((forms >> f) & 1u && pick-- == 0) return (form)f;
    return F_KEYS;
}

/* Small tiles (4 x 2 keys) and 3 CPU chunks. */
static const size_t small_sizes[] = {0, 1, 2, 3, 9, 25, 100};
/* Past the default tile (256 x 16 keys on the GPU shape) and the CPU
 * shape's one work-item (32768 keys). */
static const size_t default_sizes[] = {4097, 33001};

/* Every key kind at k = 1, n / 3, n, 0, n - 1 (large sizes: one of the
 * first three by turns); order, output, form (among the plan's) and cl_mem
 * or host take turns. The turns start from the key type, not from the
 * seed, and the forms come from the plan: which programs a run builds is
 * then the same in every run, so the sanitizer pass finds them all in the
 * normal pass's cache and compiles nothing. */
static void sweep(sk_type t, const size_t *sizes, size_t count, bool large, unsigned forms,
                  const char *cfg)
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
                               (key_kind)kind, form_of(forms, turn / 4), (turn / 3) % 2 == 1,
                               cfg};
                check_case(&c, keys);
            }
        }
        free(keys);
    }
}

/* One case per key type of the plan x shape. */
static struct criterion_test_params plan_params(void)
{
    sk_type types[COUNT_OF(TOPK_PLAN)];
    for (size_t i = 0; i < COUNT_OF(TOPK_PLAN); i++) types[i] = TOPK_PLAN[i].t;
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, types, COUNT_OF(types), 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTestParameters(topk, should_match_the_stable_sort_reference) { return plan_params(); }

/* The plan's sweeps for p: the small sizes at the plan's tiles, then the
 * first `large` default sizes at default tiles, with $SCANKIT_TOPK_SORT_BELOW
 * set to sort_below (each test runs in a process of its own). */
static void plan_sweeps(const skt_param *p, const char *sort_below, size_t large,
                        const char *how)
{
    sk_type t = (sk_type)p->type;
    skt_case_begin(p);
    cr_assert_eq(setenv("SCANKIT_TOPK_SORT_BELOW", sort_below, 1), 0);
    bool s = plan_apply(t, p->shape, true);
    sweep(t, small_sizes, COUNT_OF(small_sizes), false, plan_forms(t, p->shape, s),
          skt_fmt("%s, %s tiles%s", skt_params_name(p), s ? "small" : "default", how));
    s = plan_apply(t, p->shape, false);
    sweep(t, default_sizes, large, true, plan_forms(t, p->shape, s),
          skt_fmt("%s, %s tiles%s", skt_params_name(p), s ? "small" : "default", how));
}

/* The selection at every size (small sorted outputs and ranks go by a
 * whole sort by default on the GPU shape: the next test). */
ParameterizedTest(const skt_param *p, topk, should_match_the_stable_sort_reference)
{
    plan_sweeps(p, "0", COUNT_OF(default_sizes), "");
}

/* The same cases by a whole sort wherever the output is sorted or a rank
 * is asked for (input order keeps the selection), in both shapes: the
 * small sizes and the first default size. */
ParameterizedTestParameters(topk, by_a_whole_sort_should_match_the_stable_sort_reference)
{
    return plan_params();
}

ParameterizedTest(const skt_param *p, topk, by_a_whole_sort_should_match_the_stable_sort_reference)
{
    plan_sweeps(p, "4294967295", 1, ", by a whole sort");
}

/* 0 unsigned, 1 signed, 2 float: SK_KEY_KIND. */
static int key_kind_of(sk_type t)
{
    return t == SK_FLOAT16 || t == SK_FLOAT32 || t == SK_FLOAT64 ? 2
           : t == SK_INT8 || t == SK_INT16 || t == SK_INT32 || t == SK_INT64 ? 1
                                                                             : 0;
}

static unsigned width_index(sk_type t)
{
    size_t ks = sk_type_size(t);
    return ks == 1 ? 0u : ks == 2 ? 1u : ks == 4 ? 2u : 3u;
}

/* The plan is what the header says: every type in both shapes; every
 * form meets every key width in each shape and each GPU setting; every key
 * kind, and every key width of two types or more, meets both GPU
 * settings. */
Test(topk, plan_should_cover_every_pair)
{
    unsigned cpu[4] = {0}, gpu[2][4] = {{0}}, kind_gpu[3] = {0}, width_gpu[4] = {0};
    unsigned width_types[4] = {0};
    const unsigned all = FI | F4 | F8;
    for (size_t i = 0; i < COUNT_OF(TOPK_PLAN); i++) {
        const topk_plan_row *r = &TOPK_PLAN[i];
        unsigned w = width_index(r->t), g = 0;
        cr_assert(r->cpu && (r->gpu_small || r->gpu_default), "%s: not in both shapes",
                  sk_type_name(r->t));
        cr_assert(((r->cpu | r->gpu_small | r->gpu_default) & ~all) == 0, "%s: no such form",
                  sk_type_name(r->t));
        cpu[w] |= r->cpu;
        gpu[0][w] |= r->gpu_small;
        gpu[1][w] |= r->gpu_default;
        if (r->gpu_small) g |= 1u;
        if (r->gpu_default) g |= 2u;
        kind_gpu[key_kind_of(r->t)] |= g;
        width_gpu[w] |= g;
        width_types[w]++;
    }
    for (unsigned w = 0; w < 4; w++) {
        cr_assert_eq(cpu[w], all, "%d-bit keys: not every form in the CPU shape", 8 << w);
        cr_assert_eq(gpu[0][w] | gpu[1][w], all, "%d-bit keys: not every form on the GPU",
                     8 << w);
        cr_assert(width_types[w] < 2 || width_gpu[w] == 3u,
                  "%d-bit keys: not both GPU settings", 8 << w);
    }
    for (int s = 0; s < 2; s++)
        cr_assert_eq(gpu[s][0] | gpu[s][1] | gpu[s][2] | gpu[s][3], all,
                     "not every form with %s GPU tiles", s ? "default" : "small");
    for (int k = 0; k < 3; k++)
        cr_assert_eq(kind_gpu[k], 3u, "key kind %d: not both GPU settings", k);
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
    /* the GPU shape narrows from 8 tiles here (the tuning table's default
     * is for tiles of 4096 keys); each test runs in a process of its own */
    cr_assert_eq(setenv("SCANKIT_TOPK_NARROW_TILES", "8", 1), 0);
    cr_assert_eq(setenv("SCANKIT_TOPK_SORT_BELOW", "0", 1), 0);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        for (int kind = 0; kind < N_COUNT; kind++) {
            sk_type t = kind == N_NANS ? SK_FLOAT32 : SK_UINT32;
            int narrowings = 0;
            cr_assert(plan_apply(t, (sk_shape)shape, true), "%s: no small tiles",
                      sk_type_name(t));
            for (size_t i = 0; i < n; i++) keys[i] = narrow_key((narrow_kind)kind, i);
            SKT_OK(sk_context_set_trace(skt_ctx, count_narrowings, &narrowings));
            for (size_t j = 0; j < COUNT_OF(ks_); j++, turn++) {
                const char *cfg = skt_fmt("%s shape, small tiles, %s",
                                          skt_shape_name((sk_shape)shape), NARROW_NAMES[kind]);
                topk_case c = {t, n, ks_[j], (int)(turn % 2), (int)(turn / 2 % 2), K_RANDOM,
                               form_of(plan_forms(t, (sk_shape)shape, true), turn / 4),
                               (turn / 3) % 2 == 1, cfg};
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

/* ---- cases written out --------------------------------------------------------------- */

/* The plan's first form of type t in a shape besides the keys. */
static form plan_carrier(sk_type t, sk_shape shape, bool small)
{
    unsigned forms = plan_forms(t, shape, small) & ~FK;
    return form_of(forms, 0);
}

/* keys and input indices of a host call of type t's plan in both shapes
 * (small tiles, or the GPU setting the plan has): the indices form, or
 * values of 4 or 8 bytes that are the input indices. */
static void expect_topk(sk_type t, const void *keys, size_t n, size_t k, sk_sort_order o,
                        sk_topk_output out, const void *want_keys, const uint64_t *want_idx,
                        const char *what)
{
    size_t ks = sk_type_size(t);
    unsigned char got[16 * 8], vals[16 * 8], got_v[16 * 8];
    uint64_t idx[16];
    cr_assert(k <= 16 && n <= 16);
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        const char *w = skt_fmt("%s, %s shape", what, skt_shape_name((sk_shape)shape));
        bool small = plan_apply(t, (sk_shape)shape, true);
        form f = plan_carrier(t, (sk_shape)shape, small);
        size_t vs = value_size(f);
        for (size_t i = 0; i < n; i++) {
            uint64_t v = i;
            memcpy(vals + i * vs, &v, vs); /* little-endian: the low bytes */
        }
        if (f == F_INDICES) SKT_OK(sk_topk_indices_host(skt_ctx, t, keys, got, idx, n, k, o, out));
        else {
            SKT_OK(sk_topk_pairs_host(skt_ctx, t, vs, keys, vals, got, got_v, n, k, o, out));
            for (size_t i = 0; i < k; i++) {
                idx[i] = 0;
                memcpy(&idx[i], got_v + i * vs, vs);
            }
        }
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
 * tile, or one work-item per chunk), traced with its scalars (uint32 keys
 * with small tiles, as the plan runs them); the
 * selection takes four digit passes for 32-bit keys, no sort in input
 * order. */
Test(topk, each_shape_collects_with_its_launch_and_traces_it)
{
    uint32_t keys[50], out[10];
    for (uint32_t i = 0; i < 50; i++) keys[i] = 50 - i;
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        traced t = {0};
        bool gpu = shape == SK_SHAPE_GPU;
        cr_assert(plan_apply(SK_UINT32, (sk_shape)shape, true), "uint32: no small tiles");
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

/* Which path a call took: selection picks digits, the whole sort copies
 * and numbers the keys and gathers (indices out). */
typedef struct paths {
    int picks, numbers, gathers;
} paths;

static void note_path(const sk_launch_record *r, void *user)
{
    paths *p = user;
    p->picks += strcmp(r->kernel, "sk_topk_pick") == 0;
    p->numbers += strcmp(r->kernel, "sk_topk_number") == 0;
    p->gathers += strcmp(r->kernel, "sk_topk_gather") == 0;
}

static const uint32_t *desc_keys;

/* Descending keys, equal ones by index: the stable sort's order. */
static int by_desc_key(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (desc_keys[i] != desc_keys[j]) return desc_keys[i] > desc_keys[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* The GPU shape's defaults: sorted top-k of a small source by a whole sort,
 * input order by the selection; $SCANKIT_TOPK_SORT_BELOW=0 takes the
 * selection for both. The CPU shape selects. Same results every way. */
Test(topk, small_sorted_outputs_take_a_whole_sort_on_the_gpu_shape)
{
    enum { N = 3000, K = 40 };
    uint32_t keys[N], out[K], want[K];
    uint64_t idx[K];
    uint32_t order[N];
    for (uint32_t i = 0; i < N; i++) keys[i] = (i * 2654435761u) % 1000u;
    for (uint32_t i = 0; i < N; i++) order[i] = i;
    desc_keys = keys;
    qsort(order, N, sizeof *order, by_desc_key);
    for (int j = 0; j < K; j++) want[j] = keys[order[j]];
    for (int shape = SK_SHAPE_CPU; shape <= SK_SHAPE_GPU; shape++) {
        skt_force_shape((sk_shape)shape);
        for (int sel = 0; sel < 2; sel++) {
            if (sel) cr_assert_eq(setenv("SCANKIT_TOPK_SORT_BELOW", "0", 1), 0);
            for (int sorted = 0; sorted < 2; sorted++) {
                paths pt = {0, 0, 0};
                sk_topk_output o = sorted ? SK_TOPK_SORTED : SK_TOPK_INPUT_ORDER;
                SKT_OK(sk_context_set_trace(skt_ctx, note_path, &pt));
                SKT_OK(sk_topk_indices_host(skt_ctx, SK_UINT32, keys, out, idx, N, K,
                                            SK_DESCENDING, o));
                SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
                bool whole = shape == SK_SHAPE_GPU && sorted && !sel;
                cr_assert(whole ? pt.picks == 0 && pt.numbers == 1 && pt.gathers == 1
                                : pt.picks == 4 && pt.numbers == 0 && pt.gathers == 0,
                          "%s shape, %s, %s: %d picks, %d numberings, %d gathers",
                          skt_shape_name((sk_shape)shape), sorted ? "sorted" : "input order",
                          sel ? "selection forced" : "defaults", pt.picks, pt.numbers,
                          pt.gathers);
                for (int j = 0; j < K; j++) cr_assert_eq(out[j], keys[idx[j]]);
                for (int j = 0; j < K && sorted; j++)
                    cr_assert(out[j] == want[j] && idx[j] == order[j], "sorted item %d", j);
            }
        }
        cr_assert_eq(unsetenv("SCANKIT_TOPK_SORT_BELOW"), 0);
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
