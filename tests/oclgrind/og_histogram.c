/*
 * og_histogram.c - runs every histogram kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh, plain form: every check on both shapes; the
 * histogram runs no scan). Each configuration forces a kernel shape and a
 * tiny tile (or a few chunks), so a few dozen elements already span
 * several work-groups. For each size it counts several element types into
 * equal bins and between edges, with few bins (local counters on the GPU
 * shape) and more bins than Oclgrind's local memory holds (global
 * counters), and checks every result against tests/ref/ref_histogram.c;
 * the counts must stay poisoned past bins. Exit status: 0 when all results
 * are right, 1 on a wrong result or a failing call, 2 on bad usage.
 *
 *   og_histogram [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * The histogram has no part that --cpu-builtin names: every configuration
 * runs whatever it says. As in og_merge.c, the buffers are made once, each
 * configuration's first call needs the most scratch, and all contexts stay
 * open until every kernel has run.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "../ref/ref_histogram.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 150
#define MAX_BINS 9000 /* 36000 bytes of counters: more than 32 KiB of local memory */
#define GUARD 4

static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 37, 1}},
    {"gpu wg=8 items=3", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {100}},
    /* the rows' reduction with lanes: 8 bins by 4 lanes, 5 rows at MAX_N */
    {"gpu wg=32 items=1", SK_SHAPE_GPU, .wg = 32, .items = 1, .sizes = {MAX_N, 41}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 10, 2}},
    {"cpu default", SK_SHAPE_CPU, .sizes = {100}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

typedef struct og_case {
    sk_type t;
    int edges;
    size_t bins;
    double lo, hi;
} og_case;

/* The most bins first: the first call of a context takes the most scratch
 * (and, Oclgrind being slow, only at each configuration's first size). */
static const og_case cases[] = {
    {SK_INT64, 1, MAX_BINS, 0, 0},  {SK_INT32, 0, 7, -50, 50},
    {SK_FLOAT32, 1, 5, 0, 0},       {SK_UINT64, 0, 3, 10, 1e19},
    {SK_FLOAT64, 0, 4, -1.5, 2.25}, {SK_UINT32, 0, 1, 0, 4294967295.0},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct og_state {
    og_harness *h;
    cl_mem src, edges, counts;
    unsigned char in[MAX_N * 8], edge_values[(MAX_BINS + 1) * 8];
    uint64_t out[MAX_BINS + GUARD], want[MAX_BINS];
} og_state;

/* Elements from a small pool around the range (and past it); edges
 * 0, 1, 1, 2, ... (pairs of equal edges: empty bins). */
static void fill(og_state *g, const og_case *c, size_t n)
{
    int fl = c->t == SK_FLOAT32 || c->t == SK_FLOAT64;
    double lo = c->edges ? 0 : c->lo, hi = c->edges ? (double)c->bins / 2 : c->hi;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = og_rng(g->h);
        double v = lo + (hi - lo) * (double)(r % 1000) / 900.0;
        if (r % 7 == 0) v = lo;
        if (fl && r % 11 == 0) v = -1.0 / 0.0;
        if (!fl && v < 0 && (c->t == SK_UINT32 || c->t == SK_UINT64)) v = 0;
        if (c->t == SK_UINT32 && v > 4294967295.0) v = 4294967295.0;
        skt_ref_put_double(c->t, g->in, i, v);
    }
    if (c->edges)
        for (size_t i = 0; i <= c->bins; i++)
            skt_ref_put_double(c->t, g->edge_values, i, (double)((i + 1) / 2));
}

static sk_status count(sk_context *ctx, og_state *g, const og_case *c, size_t n)
{
    if (c->edges) return sk_histogram_edges(ctx, c->t, g->src, g->edges, g->counts, n, c->bins);
    return sk_histogram_even(ctx, c->t, g->src, c->lo, c->hi, g->counts, n, c->bins);
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, size_t n, const char *cfg)
{
    char what[160];
    size_t es = sk_type_size(c->t), cbytes = (c->bins + GUARD) * sizeof(uint64_t);
    snprintf(what, sizeof what, "%s: %s %s, %zu bins, n=%zu", cfg, sk_type_name(c->t),
             c->edges ? "edges" : "even", c->bins, n);
    fill(g, c, n);
    memset(g->out, OG_POISON, cbytes);
    if (!og_write(g->h, g->src, g->in, n * es) ||
        !og_write(g->h, g->edges, g->edge_values, (c->bins + 1) * es) ||
        !og_write(g->h, g->counts, g->out, cbytes) ||
        !og_sk_ok(g->h, ctx, count(ctx, g, c, n), what) ||
        !og_read(g->h, g->counts, g->out, cbytes))
        return 1;
    if (c->edges) skt_ref_histogram_edges(c->t, g->in, n, g->edge_values, c->bins, g->want);
    else skt_ref_histogram_even(c->t, g->in, n, c->lo, c->hi, c->bins, g->want);
    int bad = memcmp(g->out, g->want, c->bins * sizeof(uint64_t)) != 0 ||
              !og_all_poison(g->out + c->bins, GUARD * sizeof(uint64_t));
    if (bad) fprintf(stderr, "og_histogram: WRONG %s (counts, or past bins)\n", what);
    return bad;
}

static int run_config(og_state *g, const og_config *c, bool fp64)
{
    int failures = 0;
    sk_context *ctx = og_open(g->h, c);
    if (!ctx) return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (size_t k = 0; k < CASE_COUNT; k++)
            if ((fp64 || cases[k].t != SK_FLOAT64) && (s == 0 || cases[k].bins < MAX_BINS))
                failures += run_case(g, ctx, &cases[k], c->sizes[s], c->name);
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int failures = 0;
    g.h = h;
    if (!og_sk_ok(h, h->base, sk_context_device(h->base, &d), "sk_context_device") ||
        !(g.src = og_buffer(h, MAX_N * 8)) || !(g.edges = og_buffer(h, (MAX_BINS + 1) * 8)) ||
        !(g.counts = og_buffer(h, (MAX_BINS + GUARD) * 8)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c], d.has_fp64 != 0);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_histogram", "", NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
