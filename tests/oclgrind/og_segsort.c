/*
 * og_segsort.c - runs every segmented-sort kernel at small sizes, for
 * Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh, plain form). Each configuration forces a kernel
 * shape: on the GPU shape work-groups of 8 (tiles of 32 keys), so random
 * segments of 0 to 32 keys are sorted by the tile they start in, across
 * five tiles, and work-groups of 64 (a tile of 256 keys) with segments of
 * up to 160 keys, which reach into the next tile; on the CPU shape a few
 * chunks of segments (insertion and merge sort). Segments past a tile go to the radix sort,
 * whose kernels og_sort checks (run.sh --sort-kernels); one more
 * configuration per shape makes segments past 16 keys large
 * (sk__test_set_segsort_bounds), so that on the GPU shape the large
 * segments' batch runs (its gather, put, segment and pick kernels, around
 * two radix sorts) on four cases (with 1- and 2-byte keys too, which the
 * batch moves at their own width), and on the CPU shape their sort by a
 * work-item each (sk_segsort_radix_spans). The GPU one takes og_sort's tile of 8 x 3 keys. A
 * configuration of that tile sorts its large segments by a work-group
 * each instead (sk__test_set_segsort_groups; the radix sort's segment
 * kernels, every case). Several key types, both orders, keys alone
 * and pairs (values: the input indices), uint32 and uint64 offsets; each
 * result is checked against tests/ref/ref_segsort.c and the elements past
 * n must stay poisoned. Exit status: 0 when all results are right, 1 on a
 * wrong result or a failing call, 2 on bad usage.
 *
 *   og_segsort [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * --cpu-builtin names the GPU shape's batch configuration (run.sh
 * --scan-kernels runs it without --uninitialized): for most seeds that
 * plugin of Oclgrind 21.10 reports reads of the batch's
 * scratch that the batch's own kernels wrote just before, in the sort's
 * digit count, the segment kernel and the put, even with the gather
 * writing constants (the results are right): a report not yet
 * understood.
 *
 * The CPU shape runs the 4-byte key cases only (narrow keys there only in
 * test_segsort): with 8-byte keys
 * Oclgrind 21.10's --uninitialized reports the merge sort's copy back
 * from scratch (values it has just merged there; the results are right),
 * a report not yet understood.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "sk_testing.h"
#include "../ref/ref_segsort.h"
#include "../ref/ref_sort.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 160
#define GUARD 4

static const og_config configs[] = {
    {"gpu wg=8", SK_SHAPE_GPU, .wg = 8, .sizes = {MAX_N, 7}},
    /* Segments of up to MAX_N keys in tiles of 256 (LONG_SEGMENTS_CONFIG). */
    {"gpu wg=64, segments up to 160 keys", SK_SHAPE_GPU, .wg = 64, .sizes = {MAX_N}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 1}},
    /* Large segments (past BATCH_BIG keys, up to MAX_N) by a work-group
     * each (GROUPS_CONFIG): the radix sort's tile of 8 x 3 keys, so up to
     * seven tiles a segment. */
    {"gpu wg=8 items=3, groups", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {MAX_N}},
    {"gpu wg=8 items=3, batch", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {MAX_N}},
    {"cpu chunks=3 serial_below=1, large", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N}},
};

/* Configurations from this one on force segments past BATCH_BIG keys to
 * the large segments' paths (GPU: the batch; CPU: a work-item each), on
 * the first BATCH_CASES cases. */
#define FIRST_BATCH_CONFIG 4
#define GROUPS_CONFIG 3
/* This configuration's segments (and GROUPS_CONFIG's) are of 0 to MAX_N
 * keys, the others' of 0 to 32. */
#define LONG_SEGMENTS_CONFIG 1
#define BATCH_BIG 16
#define BATCH_CASES 4

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

typedef struct og_case {
    sk_type t;
    size_t value_size;
    int descending;
    sk_type offsets;
} og_case;

static const og_case cases[] = {
    {SK_UINT32, 0, 0, SK_UINT32}, {SK_FLOAT32, 4, 1, SK_UINT64},
    {SK_UINT8, 0, 1, SK_UINT32},  {SK_INT16, 4, 0, SK_UINT64},
    {SK_INT64, 8, 0, SK_UINT32},  {SK_FLOAT64, 0, 1, SK_UINT64},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct og_state {
    og_harness *h;
    cl_mem keys, values, offsets;
    unsigned char kin[MAX_N * 8], vin[MAX_N * 8], oin[MAX_N * 8];
    unsigned char kout[(MAX_N + GUARD) * 8], vout[(MAX_N + GUARD) * 8];
    unsigned char kwant[MAX_N * 8], vwant[MAX_N * 8];
    uint64_t offs[MAX_N + 1];
    size_t perm[MAX_N];
} og_state;

/* Random segments of 0 to `most` keys over n; @return their count. */
static size_t segments(og_state *g, const og_case *c, size_t n, size_t most)
{
    size_t count = 0, at = 0, os = sk_type_size(c->offsets);
    do {
        size_t len = (size_t)(og_rng(g->h) % (most + 1));
        g->offs[count] = at;
        memcpy(g->oin + count * os, &g->offs[count], os);
        count++;
        at += len < n - at ? len : n - at;
    } while (at < n);
    return count;
}

/* n keys from a small pool (ties; float specials in it) or at random; the
 * values are the indices. */
static void fill(og_state *g, const og_case *c, size_t n)
{
    size_t ks = sk_type_size(c->t), vs = c->value_size;
    uint64_t pool[4] = {og_rng(g->h), 0, ks == 4 ? 0x80000000u : 1ull << 63,
                        ks == 4 ? 0xffc00001u : 0xfff8000000000001ull};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = og_rng(g->h) % 2 ? og_rng(g->h) : pool[og_rng(g->h) % 4], x = i;
        memcpy(g->kin + i * ks, &v, ks);
        if (vs) memcpy(g->vin + i * vs, &x, vs);
    }
}

static sk_status segsort(sk_context *ctx, og_state *g, const og_case *c, size_t n,
                         size_t count)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    sk_segments seg = {NULL, 0, g->offsets, c->offsets, count};
    if (c->value_size)
        return sk_segsort_pairs(ctx, c->t, c->value_size, g->keys, g->values, &seg, n, o);
    return sk_segsort_keys(ctx, c->t, g->keys, &seg, n, o);
}

/* Uploads the case's data with poisoned guards. */
static int upload(og_state *g, const og_case *c, size_t n, size_t count)
{
    size_t ks = sk_type_size(c->t), vs = c->value_size ? c->value_size : 1;
    memcpy(g->kout, g->kin, n * ks);
    memset(g->kout + n * ks, OG_POISON, GUARD * ks);
    memcpy(g->vout, g->vin, n * vs);
    memset(g->vout + n * vs, OG_POISON, GUARD * vs);
    return og_write(g->h, g->keys, g->kout, (n + GUARD) * ks) &&
           og_write(g->h, g->values, g->vout, (n + GUARD) * vs) &&
           og_write(g->h, g->offsets, g->oin, count * sk_type_size(c->offsets));
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, size_t n, const char *cfg,
                    size_t most)
{
    char what[160];
    size_t ks = sk_type_size(c->t), vs = c->value_size ? c->value_size : 1;
    size_t count = segments(g, c, n, most);
    snprintf(what, sizeof what, "%s: %s %s, n=%zu, %zu segments%s", cfg, sk_type_name(c->t),
             c->descending ? "descending" : "ascending", n, count,
             c->value_size ? ", pairs" : "");
    fill(g, c, n);
    if (!upload(g, c, n, count) || !og_sk_ok(g->h, ctx, segsort(ctx, g, c, n, count), what) ||
        !og_read(g->h, g->keys, g->kout, (n + GUARD) * ks) ||
        !og_read(g->h, g->values, g->vout, (n + GUARD) * vs))
        return 1;
    skt_ref_segsort_perm(c->t, g->kin, n, g->offs, count, c->descending, 0, 8 * (unsigned)ks,
                         g->perm);
    skt_ref_gather(g->kin, ks, g->perm, n, g->kwant);
    if (c->value_size) skt_ref_gather(g->vin, vs, g->perm, n, g->vwant);
    int bad = memcmp(g->kout, g->kwant, n * ks) != 0 ||
              (c->value_size && memcmp(g->vout, g->vwant, n * vs) != 0) ||
              !og_all_poison(g->kout + n * ks, GUARD * ks) ||
              !og_all_poison(g->vout + n * vs, GUARD * vs);
    if (bad) fprintf(stderr, "og_segsort: WRONG %s (keys, values, or past n)\n", what);
    return bad;
}

/* One sort of MAX_N one-key segments: the lists (the tiles' first
 * segments and the large segments, scratch sized by n) are made at their
 * largest for every case after it. Oclgrind 21.10 reports the entries of a
 * list made again larger between two calls as uninitialised where the
 * kernel after the one that wrote them reads them, though they hold what
 * it wrote (read back from the host: the right bounds, and every result
 * right), so the lists are not made again within a configuration. */
static int make_lists_once(og_state *g, sk_context *ctx)
{
    uint32_t *o = (uint32_t *)g->oin;
    for (size_t i = 0; i < MAX_N; i++) o[i] = (uint32_t)i;
    memset(g->kout, 0, MAX_N * 4);
    sk_segments seg = {NULL, 0, g->offsets, SK_UINT32, MAX_N};
    return og_write(g->h, g->keys, g->kout, MAX_N * 4) &&
           og_write(g->h, g->offsets, g->oin, MAX_N * 4) &&
           og_sk_ok(g->h, ctx, sk_segsort_keys(ctx, SK_UINT32, g->keys, &seg, MAX_N,
                                               SK_ASCENDING),
                    "one-key segments");
}

/* GROUPS_CONFIG: sorts whose scratch is the largest any case takes there,
 * for the reason above, 8-byte keys and values: by a work-group a segment
 * the most large segments (the digit starts, the copies), then one large
 * segment of all keys but the first, which is sorted alone (where a case
 * has only one large segment) on a copy. */
static int make_groups_once(og_state *g, sk_context *ctx)
{
    uint32_t *o = (uint32_t *)g->oin;
    size_t count = 0;
    /* as many segments past BATCH_BIG keys as MAX_N holds, the last to MAX_N */
    for (size_t at = 0; at + 2 * (BATCH_BIG + 1) <= MAX_N; at += BATCH_BIG + 1)
        o[count++] = (uint32_t)at;
    memset(g->kout, 0, MAX_N * 8);
    sk_segments seg = {NULL, 0, g->offsets, SK_UINT32, count};
    if (!og_write(g->h, g->keys, g->kout, MAX_N * 8) ||
        !og_write(g->h, g->values, g->kout, MAX_N * 8) ||
        !og_write(g->h, g->offsets, g->oin, count * 4) ||
        !og_sk_ok(g->h, ctx, sk_segsort_pairs(ctx, SK_INT64, 8, g->keys, g->values, &seg,
                                              MAX_N, SK_ASCENDING),
                  "segments of the most large ones"))
        return 0;
    o[0] = 0;
    o[1] = 1;
    seg.count = 2;
    return og_write(g->h, g->offsets, g->oin, 2 * 4) &&
           og_sk_ok(g->h, ctx, sk_segsort_pairs(ctx, SK_INT64, 8, g->keys, g->values, &seg,
                                                MAX_N, SK_ASCENDING),
                    "one large segment past the first key");
}

static int run_config(og_state *g, const og_config *c)
{
    int failures = 0;
    bool batch = c - configs >= FIRST_BATCH_CONFIG;
    bool builtin = batch && c->shape == SK_SHAPE_GPU; /* the CPU shape's takes no radix sort */
    og_select sel = g->h->select;
    if ((sel == OG_SKIP_CPU_BUILTIN && builtin) || (sel == OG_ONLY_CPU_BUILTIN && !builtin))
        return 0;
    sk_context *ctx = og_open(g->h, c);
    if (!ctx) return 1;
    bool groups = c - configs == GROUPS_CONFIG;
    if ((batch || groups) && sk__test_set_segsort_bounds(ctx, BATCH_BIG, SIZE_MAX) != SK_OK)
        return 1;
    if (groups && sk__test_set_segsort_groups(ctx, 2, 1) != SK_OK) return 1;
    if (!make_lists_once(g, ctx) || (groups && !make_groups_once(g, ctx))) return 1;
    bool long_segments = c - configs == LONG_SEGMENTS_CONFIG || groups;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (size_t k = 0; k < (batch ? BATCH_CASES : CASE_COUNT); k++)
            if (c->shape == SK_SHAPE_GPU || sk_type_size(cases[k].t) == 4)
                failures += run_case(g, ctx, &cases[k], c->sizes[s], c->name,
                                     long_segments ? MAX_N : 32);
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    int failures = 0;
    size_t bytes = (MAX_N + GUARD) * 8;
    g.h = h;
    if (!(g.keys = og_buffer(h, bytes)) || !(g.values = og_buffer(h, bytes)) ||
        !(g.offsets = og_buffer(h, bytes)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c]);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_segsort", "", NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
