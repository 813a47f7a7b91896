/*
 * og_search.c - runs every sorted-search kernel at small sizes, for
 * Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh, plain form: every check on both shapes; the
 * search runs no scan). Each configuration forces a kernel shape (and, on
 * the CPU shape, a few chunks from one needle on, or the default), so a
 * few dozen needles already span several work-groups or work-items. For
 * each size it searches lower and upper bounds of several key types, both
 * orders, with needles in no order and in order (the CPU shape's walk
 * from one bound to the next), the haystack empty, of one key and
 * larger, and checks every result against tests/ref/ref_search.c; the
 * indices must stay poisoned past the needles. Exit status: 0 when all
 * results are right, 1 on a wrong result or a failing call, 2 on bad
 * usage.
 *
 *   og_search [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * The search has no part that --cpu-builtin names: every configuration
 * runs whatever it says. As in og_merge.c, the buffers are made once at
 * the largest size and all contexts stay open until every kernel has run
 * (the search takes no scratch).
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "../ref/ref_search.h"
#include "../ref/ref_sort.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 120
#define GUARD 4

/* Sizes are needle counts; the haystack takes each of HAY_SIZES. */
static const og_config configs[] = {
    {"gpu", SK_SHAPE_GPU, .sizes = {MAX_N, 9, 1}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 10, 2}},
    {"cpu default", SK_SHAPE_CPU, .sizes = {50}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

static const size_t HAY_SIZES[] = {MAX_N, 37, 1, 0};

typedef struct og_case {
    sk_type t;
    int descending, upper, sorted_needles;
} og_case;

static const og_case cases[] = {
    {SK_UINT64, 0, 0, 1}, {SK_FLOAT32, 1, 1, 0}, {SK_INT32, 0, 1, 1},
    {SK_FLOAT64, 1, 0, 1}, {SK_UINT32, 1, 0, 0}, {SK_INT64, 0, 1, 0},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct og_state {
    og_harness *h;
    cl_mem hay, needles, out;
    unsigned char hin[MAX_N * 8], nin[MAX_N * 8], raw[MAX_N * 8];
    uint64_t got[MAX_N + GUARD], want[MAX_N];
} og_state;

/* n keys from a small pool (ties; float specials in it) or at random,
 * sorted into dst when `sorted`. */
static void keys(og_state *g, const og_case *c, unsigned char *dst, size_t n, int sorted)
{
    size_t ks = sk_type_size(c->t), perm[MAX_N];
    uint64_t pool[5] = {og_rng(g->h), og_rng(g->h), 0, ks == 4 ? 0x80000000u : 1ull << 63,
                        ks == 4 ? 0xffc00001u : 0xfff8000000000001ull};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = og_rng(g->h) % 3 ? og_rng(g->h) : pool[og_rng(g->h) % 5];
        memcpy((sorted ? g->raw : dst) + i * ks, &v, ks);
    }
    if (!sorted) return;
    skt_ref_sort_perm(c->t, g->raw, n, c->descending, 0, 8 * (unsigned)ks, perm);
    skt_ref_gather(g->raw, ks, perm, n, dst);
}

static sk_status search(sk_context *ctx, og_state *g, const og_case *c, size_t nh, size_t nn)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (c->upper) return sk_search_upper_bound(ctx, c->t, g->hay, g->needles, g->out, nh, nn, o);
    return sk_search_lower_bound(ctx, c->t, g->hay, g->needles, g->out, nh, nn, o);
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, size_t nh, size_t nn,
                    const char *cfg)
{
    char what[160];
    size_t ks = sk_type_size(c->t), ob = (nn + GUARD) * sizeof(uint64_t);
    snprintf(what, sizeof what, "%s: %s %s_bound, %s, nh=%zu nn=%zu%s", cfg, sk_type_name(c->t),
             c->upper ? "upper" : "lower", c->descending ? "descending" : "ascending", nh, nn,
             c->sorted_needles ? ", needles in order" : "");
    keys(g, c, g->hin, nh, 1);
    keys(g, c, g->nin, nn, c->sorted_needles);
    memset(g->got, OG_POISON, ob);
    if (!og_write(g->h, g->hay, g->hin, nh * ks) || !og_write(g->h, g->needles, g->nin, nn * ks) ||
        !og_write(g->h, g->out, g->got, ob) || !og_sk_ok(g->h, ctx, search(ctx, g, c, nh, nn), what) ||
        !og_read(g->h, g->out, g->got, ob))
        return 1;
    skt_ref_search(c->t, g->hin, nh, g->nin, nn, c->descending, c->upper, g->want);
    int bad = memcmp(g->got, g->want, nn * sizeof(uint64_t)) != 0 ||
              !og_all_poison(g->got + nn, GUARD * sizeof(uint64_t));
    if (bad) fprintf(stderr, "og_search: WRONG %s (indices, or past the needles)\n", what);
    return bad;
}

static int run_config(og_state *g, const og_config *c)
{
    int failures = 0;
    sk_context *ctx = og_open(g->h, c);
    if (!ctx) return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (size_t k = 0; k < CASE_COUNT; k++)
            for (size_t hs = 0; hs < sizeof HAY_SIZES / sizeof HAY_SIZES[0]; hs++)
                failures += run_case(g, ctx, &cases[k], HAY_SIZES[hs], c->sizes[s], c->name);
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    int failures = 0;
    size_t bytes = (MAX_N + GUARD) * 8;
    g.h = h;
    if (!(g.hay = og_buffer(h, bytes)) || !(g.needles = og_buffer(h, bytes)) ||
        !(g.out = og_buffer(h, bytes)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c]);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_search", "", NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
