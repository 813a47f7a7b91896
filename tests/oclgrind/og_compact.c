/*
 * og_compact.c - runs every compaction kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * through tests/oclgrind/run.sh --scan-kernels (the same two passes as
 * og_driver, and the same options). Each configuration forces a kernel
 * shape and a tiny tile or chunk count, so a few dozen elements span many
 * work-groups or chunks; for each size it runs select-if (uint32), select-if
 * with 8-byte values, partition and reversed partition (int32, with and
 * without values), select-flagged with uint8 and with
 * uint32 flags (float32 elements) and unique (uint32 with runs), and checks
 * counts and outputs against tests/ref/ref_compact.c, with outputs poisoned
 * beforehand and checked untouched past what each call may write. Exit
 * status: 0 when all results are right, 1 on a wrong result or a failing
 * call, 2 on bad usage.
 *
 *   og_compact [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * --cpu-builtin skips, or runs only, the CPU-shape configurations: the
 * offsets come from sk_scan_exclusive with uint32 add, whose CPU-shape
 * kernels carry the 8-wide code that Oclgrind 21.10's --uninitialized plugin
 * crashes on (see og_driver.c), so run.sh checks that part without it.
 *
 * As in og_driver, each configuration gets its own context (wrapping the
 * same OpenCL objects) whose first call needs the most scratch (the largest
 * size, with values: see og_mode), so that no grow-only scratch buffer is
 * released and re-created inside a configuration (Oclgrind 21.10 then
 * reports false uninitialised reads).
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "sk_testing.h"
#include "../ref/ref_compact.h"

#include <stdio.h>
#include <string.h>

/* Tiles of 8 and 32 elements: 203 elements are 26 and 7 work-groups. The
 * CPU configurations split into 3 and 7 chunks (and one work-item for the
 * default threshold). Default GPU tiles on Oclgrind hold 4096 uint32. */
static const og_config configs[] = {
    OG_SMALL_TILE_CONFIGS(203, 31, 4500),
    /* The three steps (count, scan, write), which the GPU shape takes for
     * large partitions (and every mode with reduce-then-scan asked). */
    {"gpu wg=8 items=4, three steps", SK_SHAPE_GPU, .wg = 8, .items = 4, .sizes = {203, 31},
     .path = SK_SCAN_PATH_REDUCE_THEN_SCAN},
    /* Tiles withhold their kept counts: the one pass's fallback counts
     * them (selects and partitions alike). */
    {"gpu wg=4 items=2, tiles withheld", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {100},
     .hooks = SK__TEST_LB_WITHHOLD},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* ---- the cases ----------------------------------------------------------------- */

/* Pairs first: with default tiles their tiles are the smallest (values take
 * local memory too), so they need the most scratch for the counts. Each
 * *_PAIRS mode is its keys-only mode with 8-byte values carried along. */
typedef enum og_mode {
    PAIRS,
    PARTITION_PAIRS,
    REVERSED_PAIRS,
    FLAGGED_PAIRS,
    UNIQUE_PAIRS,
    SELECT,
    PARTITION,
    REVERSED,
    FLAGGED8,
    FLAGGED32,
    UNIQUE
} og_mode;

static const char *const mode_names[] = {
    "select_if_pairs uint32+u64",    "partition_pairs int32+u64",
    "partition_reversed_pairs int32+u64", "select_flagged_pairs u8+u64",
    "unique_pairs uint32+u64",       "select_if uint32",
    "partition int32",               "partition_reversed int32",
    "select_flagged u8 flags",       "select_flagged u32 flags",
    "unique uint32"};

#define MODE_COUNT 11

/* The keys-only mode a mode runs on its keys. */
static og_mode key_mode(og_mode m)
{
    switch (m) {
    case PAIRS: return SELECT;
    case PARTITION_PAIRS: return PARTITION;
    case REVERSED_PAIRS: return REVERSED;
    case FLAGGED_PAIRS: return FLAGGED8;
    case UNIQUE_PAIRS: return UNIQUE;
    default: return m;
    }
}

static bool has_values(og_mode m) { return key_mode(m) != m; }

typedef struct og_state {
    og_harness *h;
    sk_context *ctx;
    cl_mem src, flags, vsrc, dst, vdst;
    unsigned char *in, *fl, *vin, *out, *vout, *want, *vwant, *keep;
    size_t cap;                /* elements */
} og_state;

static sk_type mode_type(og_mode m)
{
    m = key_mode(m);
    if (m == PARTITION || m == REVERSED) return SK_INT32;
    return m == FLAGGED8 || m == FLAGGED32 ? SK_FLOAT32 : SK_UINT32;
}

/* Inputs: random words (runs of repeats for unique); flags about half set. */
static void fill(og_state *g, og_mode m, size_t n)
{
    m = key_mode(m);
    uint32_t *x = (uint32_t *)g->in;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = og_rng(g->h);
        x[i] = m == UNIQUE && i && (r & 3) ? x[i - 1] : (uint32_t)(r >> 32);
        if (m == FLAGGED8) g->fl[i] = (unsigned char)((r >> 8) & 1 ? r : 0);
        if (m == FLAGGED32) ((uint32_t *)g->fl)[i] = (r >> 8) & 1 ? 0x100u : 0u;
        ((uint64_t *)g->vin)[i] = og_rng(g->h);
    }
}

/* The expected outputs; returns the expected count. */
static size_t expect(og_state *g, og_mode m, size_t n)
{
    m = key_mode(m);
    if (m == FLAGGED8 || m == FLAGGED32) skt_ref_flag_mask(g->fl, m == FLAGGED8 ? 1 : 4, n, g->keep);
    else if (m == UNIQUE) skt_ref_unique_mask(SK_UINT32, g->in, n, g->keep);
    else skt_ref_pred_mask(mode_type(m), SKT_PRED_HALF, g->in, n, g->keep);
    if (m == PARTITION) {
        skt_ref_partition(g->vin, g->keep, n, 8, g->vwant);
        return skt_ref_partition(g->in, g->keep, n, 4, g->want);
    }
    if (m == REVERSED) {
        skt_ref_partition_reversed(g->vin, g->keep, n, 8, g->vwant);
        return skt_ref_partition_reversed(g->in, g->keep, n, 4, g->want);
    }
    skt_ref_select(g->vin, g->keep, n, 8, g->vwant);
    return skt_ref_select(g->in, g->keep, n, 4, g->want);
}

static sk_status call(og_state *g, og_mode m, size_t n, size_t *count)
{
    const char *pred = skt_ref_pred_text(mode_type(m), SKT_PRED_HALF);
    switch (m) {
    case SELECT: return sk_select_if(g->ctx, SK_UINT32, pred, g->src, g->dst, count, n);
    case PAIRS:
        return sk_select_if_pairs(g->ctx, SK_UINT32, 8, pred, g->src, g->vsrc, g->dst, g->vdst,
                                  count, n);
    case PARTITION: return sk_partition(g->ctx, SK_INT32, pred, g->src, g->dst, count, n);
    case REVERSED:
        return sk_partition_reversed(g->ctx, SK_INT32, pred, g->src, g->dst, count, n);
    case FLAGGED8:
    case FLAGGED32:
        return sk_select_flagged(g->ctx, SK_FLOAT32, m == FLAGGED8 ? 1 : 4, g->src, g->flags,
                                 g->dst, count, n);
    case UNIQUE: return sk_unique(g->ctx, SK_UINT32, g->src, g->dst, count, n);
    case PARTITION_PAIRS:
        return sk_partition_pairs(g->ctx, SK_INT32, 8, pred, g->src, g->vsrc, g->dst, g->vdst,
                                  count, n);
    case REVERSED_PAIRS:
        return sk_partition_reversed_pairs(g->ctx, SK_INT32, 8, pred, g->src, g->vsrc, g->dst,
                                           g->vdst, count, n);
    case FLAGGED_PAIRS:
        return sk_select_flagged_pairs(g->ctx, SK_FLOAT32, 8, 1, g->src, g->vsrc, g->flags, g->dst,
                                       g->vdst, count, n);
    case UNIQUE_PAIRS:
        return sk_unique_pairs(g->ctx, SK_UINT32, 8, g->src, g->vsrc, g->dst, g->vdst, count, n);
    }
    return SK_E_INVALID_ARG;
}

/* ---- one run ------------------------------------------------------------------------ */

/* Uploads inputs and poisoned outputs, runs, reads the outputs back. */
static int run_device(og_state *g, og_mode m, size_t n, size_t *count)
{
    memset(g->out, OG_POISON, n * 4);
    memset(g->vout, OG_POISON, n * 8);
    if (!og_write(g->h, g->src, g->in, n * 4) || !og_write(g->h, g->flags, g->fl, n * 4) ||
        !og_write(g->h, g->vsrc, g->vin, n * 8) || !og_write(g->h, g->dst, g->out, n * 4) ||
        !og_write(g->h, g->vdst, g->vout, n * 8))
        return 0;
    sk_status st = call(g, m, n, count);
    if (st != SK_OK) {
        fprintf(stderr, "og_compact: %s n=%zu failed: %s (%s)\n", mode_names[m], n,
                sk_status_name(st), sk_context_error_detail(g->ctx));
        return 0;
    }
    return og_read(g->h, g->dst, g->out, n * 4) && og_read(g->h, g->vdst, g->vout, n * 8);
}

static int check_one(og_state *g, const og_config *c, og_mode m, size_t n)
{
    size_t count = (size_t)-1;
    fill(g, m, n);
    size_t want = expect(g, m, n);
    size_t written = key_mode(m) == PARTITION || key_mode(m) == REVERSED ? n : want;
    size_t values_written = has_values(m) ? written : 0;
    const char *why = NULL;
    if (!run_device(g, m, n, &count)) why = "the call failed";
    else if (count != want) why = "wrong count";
    else if (memcmp(g->out, g->want, written * 4) != 0) why = "wrong elements";
    else if (!og_all_poison(g->out + written * 4, (n - written) * 4)) why = "wrote past the count";
    else if (memcmp(g->vout, g->vwant, values_written * 8) != 0) why = "wrong values";
    else if (!og_all_poison(g->vout + values_written * 8, (n - values_written) * 8))
        why = "wrote values it should not";
    if (!why) return 1;
    fprintf(stderr, "og_compact: FAIL %s, %s, n=%zu: %s (count %zu, expected %zu)\n", c->name,
            mode_names[m], n, why, count, want);
    return 0;
}

/* ---- configurations ------------------------------------------------------------------ */

static int run_config(og_state *g, const og_config *c)
{
    int failures = 0;
    bool cpu = c->shape == SK_SHAPE_CPU;
    if (g->h->select != OG_ALL && (g->h->select == OG_ONLY_CPU_BUILTIN) != cpu) return 0;
    if (!(g->ctx = og_open(g->h, c))) return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (int m = 0; m < MODE_COUNT; m++) failures += !check_one(g, c, (og_mode)m, c->sizes[s]);
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    int failures = 0;
    g.h = h;
    g.cap = og_largest_size(configs, CONFIG_COUNT);
    unsigned char **hosts[] = {&g.in, &g.fl, &g.vin, &g.out, &g.vout, &g.want, &g.vwant, &g.keep};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++)
        if (!(*hosts[i] = og_host(h, g.cap * 8))) return 1;
    if (!(g.src = og_buffer(h, g.cap * 4)) || !(g.flags = og_buffer(h, g.cap * 4)) ||
        !(g.vsrc = og_buffer(h, g.cap * 8)) || !(g.dst = og_buffer(h, g.cap * 4)) ||
        !(g.vdst = og_buffer(h, g.cap * 8)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++) failures += run_config(&g, &configs[c]);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_compact", NULL, NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
