/*
 * og_bykey.c - runs the by-key primitives' kernels at small sizes, for
 * Oclgrind: run-length encoding and reduce by key (GPU shape: the tiles
 * of kernels/bykey_tile.cl and the join's scan over their records, by one
 * work-group or by the library's lifted scan (bykey_tile_join_io.cl); and
 * kernels/bykey_lift_io.cl in scan.cl, by reduce-then-scan and by the
 * single pass with two look-back counters per tile,
 * segscan_totals_codec.cl, at wg=8 x 4 over ten tiles: one work-group
 * alone walks up to eight;
 * CPU shape: segscan.cl's chunk totals by key), and the head flags kernel
 * (kernels/bykey.cl) with the segmented-scan and compaction kernels under
 * the scans and unique by key.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * through tests/oclgrind/run.sh --scan-kernels (the same two passes as
 * og_compact). Each configuration forces a kernel shape and a tiny tile
 * or chunk count, so a few dozen elements span many work-groups or
 * chunks; for each size it runs the run-length encoding (uint32 keys),
 * reduce by key (int64 keys, uint32 add), both scans by key (float32 keys
 * with signed zeros and NaNs, int32 add) and unique by key (uint64 keys,
 * 8-byte values), and checks them against tests/ref/ref_bykey.c and
 * ref_segscan.c, outputs poisoned beforehand and untouched past the runs.
 * Exit status: 0 when all results are right, 1 on a wrong result or a
 * failing call, 2 on bad usage.
 *
 *   og_bykey [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * --cpu-builtin skips, or runs only, what Oclgrind 21.10's --uninitialized
 * plugin cannot check: the CPU shape's unique by key (its compaction
 * offsets come from the uint32 add scan's 8-wide code, see og_compact.c)
 * and the GPU shape's encoding in the lifted pass (struct padding, see
 * runs_here). The GPU shape's totals by key take the tiles
 * (kernels/bykey_tile.cl and its join) from 2^22 elements to 2^32, else the
 * lifted pass (either asked for here by sk__test_set_bykey_tiles_from),
 * which takes
 * reduce-then-scan from 2^20 keys (asked for at wg=4 x 2 here) and the
 * fused single pass below: at wg=8 x 4. Both run once more with the test
 * hook withhold (primitives/sk_testing.h): tiles keep their totals to
 * themselves, so the work-groups after them count (tiles) or reduce
 * (lifted, both look-back words) those tiles themselves (decoupled
 * fallback). The largest size runs first in each
 * configuration, so no grow-only scratch buffer is re-created inside one.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "sk_testing.h"
#include "../ref/ref_bykey.h"
#include "../ref/ref_segscan.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 300
#define GUARD 4

/* A configuration, and whether the encoding and the reduction take the
 * lifted pass (sk__test_set_bykey_tiles_from) rather than the tiles. */
typedef struct bykey_config {
    og_config c;
    bool lifted;
    sk__bykey_join join; /* how the tiles join their runs (sk__test_set_bykey_join) */
} bykey_config;

static const bykey_config configs[] = {
    {{"gpu wg=4 items=2, lifted, reduce-then-scan", SK_SHAPE_GPU, .wg = 4, .items = 2,
      .sizes = {60, 17, 1}, .path = SK_SCAN_PATH_REDUCE_THEN_SCAN},
     .lifted = true},
    /* The lifted pass takes reduce-then-scan for large inputs, the single
     * pass for small ones (both asked for here, whatever the size). */
    {{"gpu wg=8 items=4, lifted, single pass", SK_SHAPE_GPU, .wg = 8, .items = 4,
      .sizes = {MAX_N, 45}, .path = SK_SCAN_PATH_LOOKBACK},
     .lifted = true},
    /* The tiles (below 2^32 elements): the pass's look-back on the runs'
     * totals (integer values), or on head counts and then the join: one
     * work-group's scan over the tiles' records (at wg=4 x 2, in several
     * rounds of 16), or the library's lifted scan over them. */
    {{"gpu wg=8 items=4, tiles", SK_SHAPE_GPU, .wg = 8, .items = 4, .sizes = {MAX_N, 45, 1}},
     .lifted = false},
    {{"gpu wg=4 items=2, tiles", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 17}},
     .lifted = false},
    {{"gpu wg=8 items=4, tiles joined", SK_SHAPE_GPU, .wg = 8, .items = 4,
      .sizes = {MAX_N, 45, 1}},
     .join = SK__BYKEY_JOIN_GROUP},
    {{"gpu wg=4 items=2, tiles joined", SK_SHAPE_GPU, .wg = 4, .items = 2,
      .sizes = {MAX_N, 17}},
     .join = SK__BYKEY_JOIN_GROUP},
    {{"gpu wg=8 items=4, tiles joined by the scan", SK_SHAPE_GPU, .wg = 8, .items = 4,
      .sizes = {MAX_N, 45, 1}},
     .join = SK__BYKEY_JOIN_SCAN},
    {{"gpu wg=4 items=2, tiles joined by the scan", SK_SHAPE_GPU, .wg = 4, .items = 2,
      .sizes = {MAX_N, 17}},
     .join = SK__BYKEY_JOIN_SCAN},
    {{"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
      .sizes = {60, 2, 1}},
     .lifted = false},
    {{"cpu default chunks", SK_SHAPE_CPU, .sizes = {40}}, .lifted = false},
    /* Tiles withhold their totals: the work-groups after them reduce
     * (or count the heads of) those tiles themselves (the encoding and the reduction only: the
     * other kernels' fallbacks run in og_driver and og_compact) ... */
    {{"gpu wg=8 items=4, tiles, tiles withheld", SK_SHAPE_GPU, .wg = 8, .items = 4,
      .sizes = {MAX_N}, .hooks = SK__TEST_LB_WITHHOLD},
     .lifted = false},
    {{"gpu wg=8 items=4, tiles joined, tiles withheld", SK_SHAPE_GPU, .wg = 8, .items = 4,
      .sizes = {MAX_N}, .hooks = SK__TEST_LB_WITHHOLD},
     .join = SK__BYKEY_JOIN_GROUP},
    /* ... or, in the lifted pass, reduce them (both look-back words) ... */
    {{"gpu wg=8 items=4, lifted, tiles withheld", SK_SHAPE_GPU, .wg = 8, .items = 4,
      .sizes = {MAX_N}, .path = SK_SCAN_PATH_LOOKBACK, .hooks = SK__TEST_LB_WITHHOLD},
     .lifted = true},
    /* ... the same with the totals' two look-back words per tile (the
     * codec from 2^30 elements: SK__TEST_LB_PARTS). */
    {{"gpu wg=8 items=4, lifted, two look-back words, tiles withheld", SK_SHAPE_GPU, .wg = 8,
      .items = 4, .sizes = {MAX_N}, .path = SK_SCAN_PATH_LOOKBACK,
      .hooks = SK__TEST_LB_WITHHOLD | SK__TEST_LB_PARTS},
     .lifted = true},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

typedef enum og_op { RLE, REDUCE, SCAN, SCAN_EXCL, UNIQUE, OP_COUNT } og_op;
static const char *const op_names[OP_COUNT] = {
    "run_length_encode uint32", "reduce_by_key int64 keys, uint32 add",
    "scan_by_key_inclusive float32 keys, int32 add",
    "scan_by_key_exclusive float32 keys, int32 add", "unique_by_key uint64 keys, u64 values"};
static const sk_type key_types[OP_COUNT] = {SK_UINT32, SK_INT64, SK_FLOAT32, SK_FLOAT32,
                                            SK_UINT64};

typedef struct og_state {
    og_harness *h;
    sk_context *ctx;
    cl_mem keys, vals, kout, vout;
    unsigned char k[MAX_N * 8], v[MAX_N * 8];
    unsigned char ko[(MAX_N + GUARD) * 8], vo[(MAX_N + GUARD) * 8];
    unsigned char kw[MAX_N * 8], vw[MAX_N * 8], heads[MAX_N];
} og_state;

/* Keys in runs drawn from a pool of four (float32: +0, -0, a NaN, 1). */
static void fill(og_state *g, sk_type kt, size_t n)
{
    static const uint32_t fpool[4] = {0x00000000u, 0x80000000u, 0x7fc00000u, 0x3f800000u};
    size_t ks = sk_type_size(kt);
    uint64_t key = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = og_rng(g->h);
        if (i == 0 || r % 3 == 0) key = kt == SK_FLOAT32 ? fpool[(r >> 8) % 4] : (r >> 8) % 4;
        memcpy(g->k + i * ks, &key, ks);
        int32_t v = (int32_t)(og_rng(g->h) % 1000) - 500;
        uint64_t w = og_rng(g->h);
        if (kt == SK_UINT64) memcpy(g->v + i * 8, &w, 8);
        else memcpy(g->v + i * 4, &v, 4);
    }
}

static sk_status call(og_state *g, og_op op, size_t n, size_t *runs)
{
    sk_context *c = g->ctx;
    switch (op) {
    case RLE: return sk_run_length_encode(c, SK_UINT32, g->keys, g->kout, g->vout, runs, n);
    case REDUCE:
        return sk_reduce_by_key(c, SK_INT64, SK_UINT32, SK_OP_ADD, g->keys, g->vals, g->kout,
                                g->vout, runs, n);
    case SCAN:
        return sk_scan_by_key_inclusive(c, SK_FLOAT32, SK_INT32, SK_OP_ADD, g->keys, g->vals,
                                        g->vout, n);
    case SCAN_EXCL:
        return sk_scan_by_key_exclusive(c, SK_FLOAT32, SK_INT32, SK_OP_ADD, g->keys, g->vals,
                                        g->vout, n);
    default:
        return sk_unique_by_key(c, SK_UINT64, 8, g->keys, g->vals, g->kout, g->vout, runs, n);
    }
}

/* The reference: *runs keys into kw and values into vw (n values for the
 * scans); @return the bytes of a value out. */
static size_t reference(og_state *g, og_op op, size_t n, size_t *runs)
{
    size_t ks = sk_type_size(key_types[op]);
    *runs = skt_ref_key_heads(ks, g->k, n, g->heads);
    switch (op) {
    case RLE: skt_ref_run_length_encode(ks, g->k, n, g->kw, (uint64_t *)(void *)g->vw);
        return 8;
    case REDUCE:
        skt_ref_unique_by_key(ks, 0, g->k, NULL, n, g->kw, NULL);
        skt_ref_segreduce_heads(SK_UINT32, SK_OP_ADD, g->v, g->heads, n, g->vw);
        return 4;
    case SCAN:
    case SCAN_EXCL:
        skt_ref_segscan(SK_INT32, SK_OP_ADD, op == SCAN_EXCL, g->v, g->vw, g->heads, n);
        *runs = n;
        return 4;
    default: skt_ref_unique_by_key(ks, 8, g->k, g->v, n, g->kw, g->vw); return 8;
    }
}

static int run_case(og_state *g, og_op op, size_t n, const char *cfg)
{
    char what[200];
    size_t ks = sk_type_size(key_types[op]), runs = 0, want = 0, bytes = (MAX_N + GUARD) * 8;
    bool scan = op == SCAN || op == SCAN_EXCL;
    snprintf(what, sizeof what, "%s: %s, n=%zu", cfg, op_names[op], n);
    fill(g, key_types[op], n);
    size_t vs = reference(g, op, n, &want);
    memset(g->ko, OG_POISON, bytes);
    memset(g->vo, OG_POISON, bytes);
    if (!og_write(g->h, g->keys, g->k, n * ks) || !og_write(g->h, g->vals, g->v, n * 8) ||
        !og_write(g->h, g->kout, g->ko, bytes) || !og_write(g->h, g->vout, g->vo, bytes) ||
        !og_sk_ok(g->h, g->ctx, call(g, op, n, &runs), what) ||
        !og_read(g->h, g->kout, g->ko, bytes) || !og_read(g->h, g->vout, g->vo, bytes))
        return 1;
    if (scan) runs = n;
    int bad = runs != want || memcmp(g->vo, g->vw, runs * vs) != 0 ||
              !og_all_poison(g->vo + runs * vs, bytes - runs * vs) ||
              (!scan && memcmp(g->ko, g->kw, runs * ks) != 0) ||
              !og_all_poison(g->ko + (scan ? 0 : runs * ks), bytes - (scan ? 0 : runs * ks));
    if (bad) fprintf(stderr, "og_bykey: WRONG %s (%zu runs, %zu expected)\n", what, runs, want);
    return bad;
}

/* Whether op runs in this pass. The second pass (--cpu-builtin only, no
 * --uninitialized) takes the CPU shape's unique by key (it counts through
 * the uint32 add scan's 8-wide code that plugin crashes on), and the GPU
 * shape's encoding in the lifted pass: its segment totals of uint64 ones
 * carry 4 bytes of struct padding (a ulong value, a uint flag, a ulong
 * count) that the work-group scan moves through local memory, and the
 * plugin reports those never-read bytes. Oclgrind 21.10 loads the GPU
 * shape's segment-totals kernels at wg=8 x 4 only (og_segscan.c says
 * why), so the encoding and the reduction run on the GPU shape there. */
static bool runs_here(const og_harness *h, const bykey_config *b, og_op op)
{
    const og_config *c = &b->c;
    bool gpu = c->shape == SK_SHAPE_GPU, totals = op == RLE || op == REDUCE;
    bool second = gpu ? op == RLE && b->lifted : op == UNIQUE;
    if (h->select != OG_ALL && (h->select == OG_ONLY_CPU_BUILTIN) != second) return false;
    if (c->hooks & SK__TEST_LB_WITHHOLD) return totals;
    return true;
}

static int run_config(og_state *g, const bykey_config *b)
{
    const og_config *c = &b->c;
    int failures = 0;
    if (!(g->ctx = og_open(g->h, c))) return 1;
    if (!og_sk_ok(g->h, g->ctx,
                  sk__test_set_bykey_tiles_from(g->ctx, b->lifted ? SIZE_MAX : 1),
                  "sk__test_set_bykey_tiles_from") ||
        !og_sk_ok(g->h, g->ctx, sk__test_set_bykey_join(g->ctx, b->join),
                  "sk__test_set_bykey_join"))
        return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (int op = 0; op < OP_COUNT; op++)
            if (runs_here(g->h, b, (og_op)op))
                failures += run_case(g, (og_op)op, c->sizes[s], c->name);
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    int failures = 0;
    size_t bytes = (MAX_N + GUARD) * 8;
    g.h = h;
    if (!(g.keys = og_buffer(h, MAX_N * 8)) || !(g.vals = og_buffer(h, MAX_N * 8)) ||
        !(g.kout = og_buffer(h, bytes)) || !(g.vout = og_buffer(h, bytes)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++) failures += run_config(&g, &configs[c]);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_bykey", "", NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
