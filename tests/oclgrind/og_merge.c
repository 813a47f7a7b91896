/*
 * og_merge.c - runs every merge kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh, plain form: every check on both shapes; the
 * merge runs no scan, so none of the CPU shape's 8-wide scan code that
 * Oclgrind 21.10's --uninitialized plugin crashes on). Each configuration
 * forces a kernel shape and a tiny tile (or a few chunks), so a few dozen
 * keys already span several work-groups. For each size it merges keys and
 * (key, value) pairs of several key types, both orders, with the outputs
 * split between the inputs several ways (one side empty too), and checks
 * every result against tests/ref/ref_merge.c: values are the elements'
 * origins, so stability is checked too, and the outputs must stay poisoned
 * past na + nb. Then the merge of runs (sk_merge_runs_keys/_pairs) on
 * contexts of its own, in place, merging in rounds whatever the number of
 * runs: 2, 3, 5 and 7 runs, some empty or one holding all, by whole keys
 * and by bit ranges, checked against the stable sort of the keys by those
 * bits (tests/ref/ref_sort.c; values are positions) and poisoned past n.
 * Exit status: 0 when all results are right, 1 on a wrong result or a
 * failing call, 2 on bad usage.
 *
 *   og_merge [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * The merge has no part that --cpu-builtin names: every configuration
 * runs whatever it says.
 *
 * As in og_sort.c: the test buffers are made once at the largest size,
 * each configuration gets its own context whose first merge needs the most
 * scratch (the largest size), and all contexts stay open until every
 * kernel has run.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "../ref/ref_merge.h"
#include "../ref/ref_sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 150
#define GUARD 4

/* GPU tiles of 8 and 24 outputs (up to 19 and 7 work-groups); CPU 3 chunks
 * from one output on, and the default (one work-item below 32768). */
static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 37, 9, 1}},
    {"gpu wg=8 items=3", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {100, 24}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 10, 2}},
    {"cpu default", SK_SHAPE_CPU, .sizes = {100}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* The GPU shape's tiles find their own splits where the parts are few (every
 * size here); this one runs with every merge's splits by the partition
 * launch instead ($SCANKIT_MERGE_SEARCH_MAX_PARTS=0). */
static const og_config partition_config = {"gpu wg=8 items=3, partition launch", SK_SHAPE_GPU,
                                           .wg = 8, .items = 3, .sizes = {100, 24}};

typedef struct og_case {
    sk_type t;
    size_t vs;               /* 0: keys only */
    int descending;
} og_case;

static const og_case cases[] = {
    {SK_UINT64, 8, 0}, {SK_FLOAT32, 4, 1}, {SK_INT32, 0, 0}, {SK_FLOAT64, 0, 1},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct og_state {
    og_harness *h;
    cl_mem a, b, va, vb, d, vd;
    unsigned char in[MAX_N * 8], vin[MAX_N * 8], out[(MAX_N + GUARD) * 8],
        vout[(MAX_N + GUARD) * 8];
    size_t origin[MAX_N];
} og_state;

/* raw[0 .. n): keys of type t with ties (a small pool, float specials in
 * it). */
static void random_keys(og_state *g, sk_type t, unsigned char *raw, size_t n)
{
    size_t ks = sk_type_size(t);
    uint64_t pool[5] = {og_rng(g->h), og_rng(g->h), 0, ks == 4 ? 0x80000000u : 1ull << 63,
                        ks == 4 ? 0xffc00001u : 0xfff8000000000001ull};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = og_rng(g->h) % 3 ? og_rng(g->h) : pool[og_rng(g->h) % 5];
        memcpy(raw + i * ks, &v, ks);
    }
}

/* in[0 .. na) and in[na .. n), each sorted: random_keys; vin the
 * elements' positions in `in`. */
static void fill(og_state *g, const og_case *c, size_t na, size_t n)
{
    size_t ks = sk_type_size(c->t);
    unsigned char raw[MAX_N * 8];
    size_t perm[MAX_N];
    random_keys(g, c->t, raw, n);
    for (int side = 0; side < 2; side++) {
        size_t off = side ? na : 0, m = side ? n - na : na;
        skt_ref_sort_perm(c->t, raw + off * ks, m, c->descending, 0, 8 * (unsigned)ks, perm);
        skt_ref_gather(raw + off * ks, ks, perm, m, g->in + off * ks);
    }
    size_t vs = c->vs ? c->vs : 8;
    for (size_t i = 0; i < n; i++) {
        uint64_t idx = i;
        memcpy(g->vin + i * vs, &idx, vs);
    }
}

static sk_status merge(sk_context *ctx, og_state *g, const og_case *c, size_t na, size_t nb)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (c->vs)
        return sk_merge_pairs(ctx, c->t, c->vs, g->a, g->va, g->b, g->vb, g->d, g->vd, na, nb,
                              o);
    return sk_merge_keys(ctx, c->t, g->a, g->b, g->d, na, nb, o);
}

/* The n keys of type t (and values of vs bytes) that g->origin gives from
 * g->in, then the guards; `past` names the end of the output. */
static int verify_origin(og_state *g, sk_type t, size_t vs, size_t n, const char *what,
                         const char *past)
{
    size_t ks = sk_type_size(t);
    unsigned char want[MAX_N * 8];
    skt_ref_gather(g->in, ks, g->origin, n, want);
    int bad = memcmp(g->out, want, n * ks) != 0 || !og_all_poison(g->out + n * ks, GUARD * ks);
    for (size_t k = 0; vs && k < n; k++) {
        uint64_t v = 0;
        memcpy(&v, g->vout + k * vs, vs);
        bad |= v != g->origin[k];
    }
    if (vs) bad |= !og_all_poison(g->vout + n * vs, GUARD * vs);
    if (bad) fprintf(stderr, "og_merge: WRONG %s (keys, values or past %s)\n", what, past);
    return bad;
}

/* The keys and values the reference's origins give, then the guards. */
static int verify(og_state *g, const og_case *c, size_t na, size_t n, const char *what)
{
    size_t ks = sk_type_size(c->t);
    skt_ref_merge_origin(c->t, g->in, na, g->in + na * ks, n - na, c->descending, g->origin);
    return verify_origin(g, c->t, c->vs, n, what, "na + nb");
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, size_t na, size_t n,
                    const char *cfg)
{
    char what[160];
    size_t ks = sk_type_size(c->t), vs = c->vs ? c->vs : 8, nb = n - na;
    snprintf(what, sizeof what, "%s: %s keys, %zu-byte values, %s, na=%zu nb=%zu", cfg,
             sk_type_name(c->t), c->vs, c->descending ? "descending" : "ascending", na, nb);
    fill(g, c, na, n);
    memset(g->out, OG_POISON, sizeof g->out);
    memset(g->vout, OG_POISON, sizeof g->vout);
    if (!og_write(g->h, g->a, g->in, na * ks) || !og_write(g->h, g->b, g->in + na * ks, nb * ks) ||
        !og_write(g->h, g->va, g->vin, na * vs) ||
        !og_write(g->h, g->vb, g->vin + na * vs, nb * vs) ||
        !og_write(g->h, g->d, g->out, (n + GUARD) * ks) ||
        !og_write(g->h, g->vd, g->vout, (n + GUARD) * vs) ||
        !og_sk_ok(g->h, ctx, merge(ctx, g, c, na, nb), what) ||
        !og_read(g->h, g->d, g->out, (n + GUARD) * ks) ||
        !og_read(g->h, g->vd, g->vout, (n + GUARD) * vs))
        return 1;
    return verify(g, c, na, n, what);
}

/* Every case at every size, the outputs split between the inputs as a
 * third and the rest, half and half, all from a, all from b. */
static int run_config(og_state *g, const og_config *c, bool fp64)
{
    int failures = 0;
    sk_context *ctx = og_open(g->h, c);
    if (!ctx) return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++) {
        size_t n = c->sizes[s];
        const size_t splits[] = {n / 3, n / 2, n, 0};
        for (size_t k = 0; k < CASE_COUNT; k++)
            for (size_t p = 0; p < sizeof splits / sizeof splits[0]; p++)
                if (fp64 || cases[k].t != SK_FLOAT64)
                    failures += run_case(g, ctx, &cases[k], splits[p], n, c->name);
    }
    return og_config_done(g->h, c, failures);
}

/* ---- the merge of runs (sk_merge_runs_keys/_pairs) ------------------------------ */

#define RUNS_MAX 7

/* Contexts of their own, merging in rounds whatever the runs
 * (SK_PARAM_MERGE_RUNS_ROUNDS 64; the radix sort has og_sort.c): GPU tiles
 * of 8 and 24 keys, CPU 3 chunks from one key on. */
static const og_config runs_configs[] = {
    {"runs: gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 29}},
    {"runs: gpu wg=8 items=3", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {97}},
    {"runs: cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 23}},
};

#define RUNS_CONFIG_COUNT (sizeof runs_configs / sizeof runs_configs[0])

/* Run lengths as thousandths of n, the last run taking the rest. The
 * first has the most runs: with the first case, the most scratch. */
typedef struct og_layout {
    const char *name;
    size_t runs;
    unsigned share[RUNS_MAX];
} og_layout;

static const og_layout layouts[] = {
    {"7 runs, two empty", 7, {150, 0, 200, 100, 250, 0}},
    {"3 runs, one empty", 3, {333, 0}},
    {"2 runs", 2, {500}},
    {"5 runs, one holding all", 5, {0, 1000}},
};

#define LAYOUT_COUNT (sizeof layouts / sizeof layouts[0])

typedef struct og_runs_case {
    sk_type t;
    size_t vs;               /* 0: keys only */
    int descending;
    unsigned begin, end;     /* end 0: the whole key */
} og_runs_case;

/* The first needs the most scratch (8-byte keys and values). */
static const og_runs_case runs_cases[] = {
    {SK_UINT64, 8, 0, 0, 0}, {SK_FLOAT32, 4, 1, 4, 20}, {SK_INT32, 0, 0, 31, 32},
    {SK_FLOAT64, 0, 1, 0, 0},
};

#define RUNS_CASE_COUNT (sizeof runs_cases / sizeof runs_cases[0])

static unsigned runs_end(const og_runs_case *c)
{
    return c->end ? c->end : 8 * (unsigned)sk_type_size(c->t);
}

static void layout_lengths(const og_layout *l, size_t n, size_t *len)
{
    size_t used = 0;
    for (size_t r = 0; r + 1 < l->runs; r++) used += len[r] = n * l->share[r] / 1000;
    len[l->runs - 1] = n - used;
}

/* in[0 .. n): random_keys, each run sorted by the reference in c's order
 * and bits; vin the elements' positions. */
static void fill_runs(og_state *g, const og_runs_case *c, const size_t *len, size_t runs,
                      size_t n)
{
    size_t ks = sk_type_size(c->t), vs = c->vs ? c->vs : 8;
    unsigned char raw[MAX_N * 8];
    size_t perm[MAX_N];
    random_keys(g, c->t, raw, n);
    for (size_t r = 0, at = 0; r < runs; at += len[r], r++) {
        skt_ref_sort_perm(c->t, raw + at * ks, len[r], c->descending, c->begin, runs_end(c),
                          perm);
        skt_ref_gather(raw + at * ks, ks, perm, len[r], g->in + at * ks);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t idx = i;
        memcpy(g->vin + i * vs, &idx, vs);
    }
}

static sk_status merge_runs(sk_context *ctx, og_state *g, const og_runs_case *c, size_t n,
                            const size_t *len, size_t runs)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (c->vs)
        return sk_merge_runs_pairs(ctx, c->t, c->vs, g->d, g->vd, n, len, runs, o, c->begin,
                                   runs_end(c));
    return sk_merge_runs_keys(ctx, c->t, g->d, n, len, runs, o, c->begin, runs_end(c));
}

/* The stable sort of in[0 .. n) by c's bits (keys, and positions as
 * values), then the guards. */
static int verify_runs(og_state *g, const og_runs_case *c, size_t n, const char *what)
{
    skt_ref_sort_perm(c->t, g->in, n, c->descending, c->begin, runs_end(c), g->origin);
    return verify_origin(g, c->t, c->vs, n, what, "n");
}

/* Merges the runs in place in d (and vd), poisoned past n. */
static int run_runs_case(og_state *g, sk_context *ctx, const og_runs_case *c,
                         const og_layout *l, size_t n, const char *cfg)
{
    char what[200];
    size_t ks = sk_type_size(c->t), vs = c->vs ? c->vs : 8, len[RUNS_MAX];
    snprintf(what, sizeof what, "%s: %s keys, %zu-byte values, %s, bits [%u, %u), n=%zu, %s",
             cfg, sk_type_name(c->t), c->vs, c->descending ? "descending" : "ascending",
             c->begin, runs_end(c), n, l->name);
    layout_lengths(l, n, len);
    fill_runs(g, c, len, l->runs, n);
    memset(g->out, OG_POISON, sizeof g->out);
    memset(g->vout, OG_POISON, sizeof g->vout);
    memcpy(g->out, g->in, n * ks);
    memcpy(g->vout, g->vin, n * vs);
    if (!og_write(g->h, g->d, g->out, (n + GUARD) * ks) ||
        !og_write(g->h, g->vd, g->vout, (n + GUARD) * vs) ||
        !og_sk_ok(g->h, ctx, merge_runs(ctx, g, c, n, len, l->runs), what) ||
        !og_read(g->h, g->d, g->out, (n + GUARD) * ks) ||
        !og_read(g->h, g->vd, g->vout, (n + GUARD) * vs))
        return 1;
    return verify_runs(g, c, n, what);
}

/* Every case at every size with every layout (the first case with the
 * layout of the most runs first). */
static int run_runs_config(og_state *g, const og_config *c, bool fp64)
{
    int failures = 0;
    sk_context *ctx = og_open(g->h, c);
    if (!ctx || !og_sk_ok(g->h, ctx, sk_context_set_param(ctx, SK_PARAM_MERGE_RUNS_ROUNDS, 64),
                          "set_param"))
        return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (size_t k = 0; k < RUNS_CASE_COUNT; k++)
            for (size_t p = 0; p < LAYOUT_COUNT; p++) {
                const og_layout *l = &layouts[p];
                if (fp64 || runs_cases[k].t != SK_FLOAT64)
                    failures += run_runs_case(g, ctx, &runs_cases[k], l, c->sizes[s], c->name);
            }
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int failures = 0;
    size_t bytes = (MAX_N + GUARD) * 8;
    g.h = h;
    if (!og_sk_ok(h, h->base, sk_context_device(h->base, &d), "sk_context_device") ||
        !(g.a = og_buffer(h, bytes)) || !(g.b = og_buffer(h, bytes)) ||
        !(g.va = og_buffer(h, bytes)) || !(g.vb = og_buffer(h, bytes)) ||
        !(g.d = og_buffer(h, bytes)) || !(g.vd = og_buffer(h, bytes)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c], d.has_fp64 != 0);
    if (!failures) {
        setenv("SCANKIT_MERGE_SEARCH_MAX_PARTS", "0", 1);
        failures += run_config(&g, &partition_config, d.has_fp64 != 0);
        unsetenv("SCANKIT_MERGE_SEARCH_MAX_PARTS");
    }
    for (size_t c = 0; c < RUNS_CONFIG_COUNT && !failures; c++)
        failures += run_runs_config(&g, &runs_configs[c], d.has_fp64 != 0);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_merge", "", NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
