/*
 * og_topk.c - runs every top-k kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh, plain form: every check on both shapes). Each
 * configuration forces a kernel shape (GPU tiles of 4 x 2 keys, 3 CPU
 * chunks from one key on, or the default CPU chunks), so a few dozen keys
 * already span several parts, and the largest size (80 keys: eight GPU
 * tiles) narrows to candidates in both shapes where k is small. For each size it selects k = 1, n / 2 and n
 * keys of every key type, both orders, keys only, with indices or with
 * values (the selection's kernels, the histogram's digit kernels, the
 * narrowing's and the collection's), and the key of rank k - 1 (sk_select_nth); keys from a
 * small pool (ties at the k-th key; float specials in it) or at random.
 * Every result is checked against tests/ref/ref_topk.c; outputs must stay
 * poisoned past k. Exit status: 0 when all results are right, 1 on a wrong
 * result or a failing call, 2 on bad usage.
 *
 *   og_topk [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * The selection has no part that --cpu-builtin names: every
 * configuration runs whatever it says. The sorted forms add the radix
 * sort of the k selected, whose kernels og_sort checks (run.sh
 * --sort-kernels: its CPU shape crashes Oclgrind 21.10's --uninitialized
 * plugin), so none runs here. The selection is forced at every size of
 * those configurations ($SCANKIT_TOPK_SORT_BELOW=0); then one GPU
 * configuration takes sorted outputs and ranks by a whole sort of a
 * numbered copy of the keys ($SCANKIT_TOPK_SORT_BELOW set high: the copy
 * and numbering and the gather of the first k, with the sort's GPU
 * kernels), its 8-byte keys first: a scratch buffer replaced by a larger
 * one (scratch growing from case to case) makes Oclgrind 21.10 report the
 * sort's reads of the copy as uninitialised (every result right; none
 * when the runtime never frees a buffer it replaces: its deferred release
 * of the old buffer marks the new one, at the same address,
 * uninitialised), so in that configuration the first call takes the most
 * scratch.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "../ref/ref_topk.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 80
#define GUARD 4

static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 9, 1}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 10, 2}},
    {"cpu default", SK_SHAPE_CPU, .sizes = {MAX_N}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* Sorted output and ranks by a whole sort (GPU shape): the copy and
 * numbering of the keys, the radix sort, the gather of the first k. */
static const og_config whole_sort_config = {
    "gpu wg=4 items=2, sorted by a whole sort", SK_SHAPE_GPU, .wg = 4, .items = 2,
    .sizes = {MAX_N, 9}};

typedef enum og_form { OG_KEYS, OG_INDICES, OG_VALUES } og_form;

typedef struct og_case {
    sk_type t;
    int descending;
    og_form form;
} og_case;

static const og_case cases[] = {
    {SK_UINT32, 0, OG_KEYS},  {SK_FLOAT32, 1, OG_INDICES}, {SK_INT32, 0, OG_VALUES},
    {SK_FLOAT64, 1, OG_KEYS}, {SK_UINT64, 1, OG_VALUES},   {SK_INT64, 0, OG_INDICES},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct og_state {
    og_harness *h;
    cl_mem keys, values, out_keys, out_values;
    unsigned char in[MAX_N * 8], vin[MAX_N * 8];
    unsigned char got[(MAX_N + GUARD) * 8], gotv[(MAX_N + GUARD) * 8];
    unsigned char want[MAX_N * 8], wantv[MAX_N * 8];
    uint64_t idx[MAX_N];
} og_state;

/* n keys from a small pool (ties; float specials in it) or at random. */
static void make_keys(og_state *g, sk_type t, size_t n)
{
    size_t ks = sk_type_size(t);
    uint64_t pool[4] = {og_rng(g->h), 0, ks == 4 ? 0x80000000u : 1ull << 63,
                        ks == 4 ? 0xffc00001u : 0xfff8000000000001ull};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = og_rng(g->h) % 2 ? og_rng(g->h) : pool[og_rng(g->h) % 4];
        memcpy(g->in + i * ks, &v, ks);
    }
}

static sk_status select_k(sk_context *ctx, og_state *g, const og_case *c, size_t n, size_t k,
                          int sorted)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    const sk_topk_output out = sorted ? SK_TOPK_SORTED : SK_TOPK_INPUT_ORDER;
    if (c->form == OG_INDICES)
        return sk_topk_indices(ctx, c->t, g->keys, g->out_keys, g->out_values, n, k, o, out);
    if (c->form == OG_VALUES)
        return sk_topk_pairs(ctx, c->t, 4, g->keys, g->values, g->out_keys, g->out_values, n,
                             k, o, out);
    return sk_topk_keys(ctx, c->t, g->keys, g->out_keys, n, k, o, out);
}

/* The reference's keys, and indices or values, of the k selected, in
 * input order or sorted. */
static void expected(og_state *g, const og_case *c, size_t n, size_t k, int sorted)
{
    size_t ks = sk_type_size(c->t);
    skt_ref_topk(c->t, g->in, n, k, c->descending, sorted, g->idx);
    for (size_t i = 0; i < k; i++) {
        memcpy(g->want + i * ks, g->in + g->idx[i] * ks, ks);
        if (c->form == OG_INDICES) memcpy(g->wantv + i * 8, &g->idx[i], 8);
        if (c->form == OG_VALUES) memcpy(g->wantv + i * 4, g->vin + g->idx[i] * 4, 4);
    }
}

/* The key of rank k - 1 by sk_select_nth, against the reference's. */
static int check_nth(og_state *g, sk_context *ctx, const og_case *c, size_t n, size_t k,
                     const char *what)
{
    size_t ks = sk_type_size(c->t);
    unsigned char key[8];
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (!og_sk_ok(g->h, ctx, sk_select_nth(ctx, c->t, g->keys, g->out_keys, n, k - 1, o), what) ||
        !og_read(g->h, g->out_keys, key, ks))
        return 1;
    skt_ref_topk(c->t, g->in, n, k, c->descending, 1, g->idx);
    int bad = memcmp(key, g->in + g->idx[k - 1] * ks, ks) != 0;
    if (bad) fprintf(stderr, "og_topk: WRONG %s (select_nth)\n", what);
    return bad;
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, size_t n, size_t k,
                    int sorted, const char *cfg)
{
    char what[160];
    size_t ks = sk_type_size(c->t), vs = c->form == OG_VALUES ? 4 : 8;
    snprintf(what, sizeof what, "%s: %s top-%zu of %zu, %s%s", cfg, sk_type_name(c->t), k, n,
             c->descending ? "largest" : "smallest",
             c->form == OG_KEYS ? "" : c->form == OG_INDICES ? ", indices" : ", values");
    make_keys(g, c->t, n);
    for (size_t i = 0; i < n * 4; i++) g->vin[i] = (unsigned char)og_rng(g->h);
    memset(g->got, OG_POISON, sizeof g->got);
    memset(g->gotv, OG_POISON, sizeof g->gotv);
    if (!og_write(g->h, g->keys, g->in, n * ks) || !og_write(g->h, g->values, g->vin, n * 4) ||
        !og_write(g->h, g->out_keys, g->got, (k + GUARD) * ks) ||
        !og_write(g->h, g->out_values, g->gotv, (k + GUARD) * vs) ||
        !og_sk_ok(g->h, ctx, select_k(ctx, g, c, n, k, sorted), what) ||
        !og_read(g->h, g->out_keys, g->got, (k + GUARD) * ks) ||
        !og_read(g->h, g->out_values, g->gotv, (k + GUARD) * vs))
        return 1;
    expected(g, c, n, k, sorted);
    int bad = memcmp(g->got, g->want, k * ks) != 0 ||
              !og_all_poison(g->got + k * ks, GUARD * ks) ||
              (c->form != OG_KEYS && (memcmp(g->gotv, g->wantv, k * vs) != 0 ||
                                      !og_all_poison(g->gotv + k * vs, GUARD * vs)));
    if (bad) fprintf(stderr, "og_topk: WRONG %s (outputs, or past k)\n", what);
    return bad + check_nth(g, ctx, c, n, k, what);
}

/* Every case at each size; `sorted`: sorted output, the cases of 8-byte
 * keys first (the first call takes the most scratch, so that no scratch
 * buffer is replaced: see the top). */
static int run_config(og_state *g, const og_config *c, int sorted)
{
    int failures = 0;
    sk_context *ctx = og_open(g->h, c);
    if (!ctx) return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++) {
        size_t n = c->sizes[s], ks_[3] = {1, n / 2 ? n / 2 : 1, n};
        for (size_t j = 0; j < CASE_COUNT; j++) {
            size_t i = sorted ? CASE_COUNT - 1 - j : j;
            failures += run_case(g, ctx, &cases[i], n, ks_[(i + s) % 3], sorted, c->name);
        }
    }
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    int failures = 0;
    size_t bytes = (MAX_N + GUARD) * 8;
    g.h = h;
    if (!(g.keys = og_buffer(h, bytes)) || !(g.values = og_buffer(h, bytes)) ||
        !(g.out_keys = og_buffer(h, bytes)) || !(g.out_values = og_buffer(h, bytes)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c], 0);
    /* sorted outputs and ranks below this many keys by a whole sort */
    if (!failures && setenv("SCANKIT_TOPK_SORT_BELOW", "1000000", 1) == 0) {
        failures += run_config(&g, &whole_sort_config, 1);
        setenv("SCANKIT_TOPK_SORT_BELOW", "0", 1);
    }
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_topk", "", NULL, run_all};
    if (setenv("SCANKIT_TOPK_SORT_BELOW", "0", 1) != 0) return 2;
    return og_main(&def, NULL, argc, argv);
}
