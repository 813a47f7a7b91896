/*
 * og_compact.c - runs every compaction kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * through tests/oclgrind/run.sh --scan-kernels (the same two passes as
 * og_driver, and the same options). Each configuration forces a kernel
 * shape and a tiny tile or chunk count, so a few dozen elements span many
 * work-groups or chunks; for each size it runs select-if (uint32), select-if
 * with 8-byte values, partition (int32), select-flagged with uint8 and with
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
#include "scankit.h"
#include "../ref/ref_compact.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 5
#define POISON 0xA5

typedef struct og_config {
    const char *name;
    sk_shape shape;
    long wg, items;            /* GPU shape; 0 = automatic */
    long chunks, serial_below; /* CPU shape; 0 = automatic */
    size_t sizes[MAX_SIZES];   /* largest first; 0 ends the list */
} og_config;

/* Tiles of 8 and 32 elements: 203 elements are 26 and 7 work-groups. The
 * CPU configurations split into 3 and 7 chunks (and one work-item for the
 * default threshold). Default GPU tiles on Oclgrind hold 4096 uint32. */
static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, 4, 2, 0, 0, {203, 64, 17, 1}},
    {"gpu wg=8 items=4", SK_SHAPE_GPU, 8, 4, 0, 0, {203, 31}},
    {"gpu default tiles", SK_SHAPE_GPU, 0, 0, 0, 0, {4500}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, 0, 0, 3, 1, {203, 50, 2, 1}},
    {"cpu chunks=7 serial_below=1", SK_SHAPE_CPU, 0, 0, 7, 1, {99}},
    {"cpu default chunks", SK_SHAPE_CPU, 0, 0, 0, 0, {300}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* ---- the cases ----------------------------------------------------------------- */

/* Pairs first: with default tiles their tiles are the smallest (values take
 * local memory too), so they need the most scratch for the counts. Each
 * *_PAIRS mode is its keys-only mode with 8-byte values carried along. */
typedef enum og_mode {
    PAIRS,
    PARTITION_PAIRS,
    FLAGGED_PAIRS,
    UNIQUE_PAIRS,
    SELECT,
    PARTITION,
    FLAGGED8,
    FLAGGED32,
    UNIQUE
} og_mode;

static const char *const mode_names[] = {
    "select_if_pairs uint32+u64", "partition_pairs int32+u64", "select_flagged_pairs u8+u64",
    "unique_pairs uint32+u64",    "select_if uint32",          "partition int32",
    "select_flagged u8 flags",    "select_flagged u32 flags",  "unique uint32"};

#define MODE_COUNT 9

/* The keys-only mode a mode runs on its keys. */
static og_mode key_mode(og_mode m)
{
    switch (m) {
    case PAIRS: return SELECT;
    case PARTITION_PAIRS: return PARTITION;
    case FLAGGED_PAIRS: return FLAGGED8;
    case UNIQUE_PAIRS: return UNIQUE;
    default: return m;
    }
}

static bool has_values(og_mode m) { return key_mode(m) != m; }

typedef struct og_state {
    bool expect_oclgrind;
    uint64_t seed, rng;
    int select;                /* 0 all, 1 skip CPU configurations, 2 only them */
    sk_context *base, *per_config[CONFIG_COUNT], *ctx;
    cl_mem src, flags, vsrc, dst, vdst;
    unsigned char *in, *fl, *vin, *out, *vout, *want, *vwant, *keep;
    size_t cap;                /* elements */
} og_state;

static uint64_t rng_next(og_state *g)
{
    uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static sk_type mode_type(og_mode m)
{
    m = key_mode(m);
    return m == PARTITION ? SK_INT32 : (m == FLAGGED8 || m == FLAGGED32) ? SK_FLOAT32 : SK_UINT32;
}

/* Inputs: random words (runs of repeats for unique); flags about half set. */
static void fill(og_state *g, og_mode m, size_t n)
{
    m = key_mode(m);
    uint32_t *x = (uint32_t *)g->in;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rng_next(g);
        x[i] = m == UNIQUE && i && (r & 3) ? x[i - 1] : (uint32_t)(r >> 32);
        if (m == FLAGGED8) g->fl[i] = (unsigned char)((r >> 8) & 1 ? r : 0);
        if (m == FLAGGED32) ((uint32_t *)g->fl)[i] = (r >> 8) & 1 ? 0x100u : 0u;
        ((uint64_t *)g->vin)[i] = rng_next(g);
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
    case FLAGGED8:
    case FLAGGED32:
        return sk_select_flagged(g->ctx, SK_FLOAT32, m == FLAGGED8 ? 1 : 4, g->src, g->flags,
                                 g->dst, count, n);
    case UNIQUE: return sk_unique(g->ctx, SK_UINT32, g->src, g->dst, count, n);
    case PARTITION_PAIRS:
        return sk_partition_pairs(g->ctx, SK_INT32, 8, pred, g->src, g->vsrc, g->dst, g->vdst,
                                  count, n);
    case FLAGGED_PAIRS:
        return sk_select_flagged_pairs(g->ctx, SK_FLOAT32, 8, 1, g->src, g->vsrc, g->flags, g->dst,
                                       g->vdst, count, n);
    case UNIQUE_PAIRS:
        return sk_unique_pairs(g->ctx, SK_UINT32, 8, g->src, g->vsrc, g->dst, g->vdst, count, n);
    }
    return SK_E_INVALID_ARG;
}

/* ---- device I/O ------------------------------------------------------------------- */

static int cl_ok(cl_int rc, const char *what)
{
    if (rc == CL_SUCCESS) return 1;
    fprintf(stderr, "og_compact: %s failed: %s\n", what, sk_cl_error_name(rc));
    return 0;
}

static int write_buf(og_state *g, cl_mem m, const void *p, size_t bytes)
{
    return cl_ok(clEnqueueWriteBuffer(sk_context_cl_queue(g->base), m, CL_TRUE, 0, bytes, p, 0,
                                      NULL, NULL), "clEnqueueWriteBuffer");
}

static int read_buf(og_state *g, cl_mem m, void *p, size_t bytes)
{
    return cl_ok(clEnqueueReadBuffer(sk_context_cl_queue(g->base), m, CL_TRUE, 0, bytes, p, 0,
                                     NULL, NULL), "clEnqueueReadBuffer");
}

/* Uploads inputs and poisoned outputs, runs, reads the outputs back. */
static int run_device(og_state *g, og_mode m, size_t n, size_t *count)
{
    memset(g->out, POISON, n * 4);
    memset(g->vout, POISON, n * 8);
    if (!write_buf(g, g->src, g->in, n * 4) || !write_buf(g, g->flags, g->fl, n * 4) ||
        !write_buf(g, g->vsrc, g->vin, n * 8) || !write_buf(g, g->dst, g->out, n * 4) ||
        !write_buf(g, g->vdst, g->vout, n * 8))
        return 0;
    sk_status st = call(g, m, n, count);
    if (st != SK_OK) {
        fprintf(stderr, "og_compact: %s n=%zu failed: %s (%s)\n", mode_names[m], n,
                sk_status_name(st), sk_context_error_detail(g->ctx));
        return 0;
    }
    return read_buf(g, g->dst, g->out, n * 4) && read_buf(g, g->vdst, g->vout, n * 8);
}

static bool all_poison(const unsigned char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != POISON) return false;
    return true;
}

static int check_one(og_state *g, const og_config *c, og_mode m, size_t n)
{
    size_t count = (size_t)-1;
    fill(g, m, n);
    size_t want = expect(g, m, n);
    size_t written = key_mode(m) == PARTITION ? n : want;
    size_t values_written = has_values(m) ? written : 0;
    const char *why = NULL;
    if (!run_device(g, m, n, &count)) why = "the call failed";
    else if (count != want) why = "wrong count";
    else if (memcmp(g->out, g->want, written * 4) != 0) why = "wrong elements";
    else if (!all_poison(g->out + written * 4, (n - written) * 4)) why = "wrote past the count";
    else if (memcmp(g->vout, g->vwant, values_written * 8) != 0) why = "wrong values";
    else if (!all_poison(g->vout + values_written * 8, (n - values_written) * 8))
        why = "wrote values it should not";
    if (!why) return 1;
    fprintf(stderr, "og_compact: FAIL %s, %s, n=%zu: %s (count %zu, expected %zu)\n", c->name,
            mode_names[m], n, why, count, want);
    return 0;
}

/* ---- configurations ------------------------------------------------------------------ */

static int sk_ok(const sk_context *ctx, sk_status st, const char *what)
{
    if (st == SK_OK) return 1;
    fprintf(stderr, "og_compact: %s failed: %s (%s)\n", what, sk_status_name(st),
            ctx ? sk_context_error_detail(ctx) : "no context");
    return 0;
}

static int open_config(og_state *g, size_t index)
{
    static const sk_param params[] = {SK_PARAM_SHAPE, SK_PARAM_WG_SIZE,
                                      SK_PARAM_ITEMS_PER_THREAD, SK_PARAM_CPU_CHUNKS,
                                      SK_PARAM_CPU_SERIAL_BELOW};
    const og_config *c = &configs[index];
    const long values[] = {c->shape, c->wg, c->items, c->chunks, c->serial_below};
    sk_status st = sk_context_wrap(&g->per_config[index], sk_context_cl_context(g->base),
                                   sk_context_cl_device(g->base),
                                   sk_context_cl_queue(g->base));
    if (!sk_ok(g->base, st, "sk_context_wrap")) return 0;
    g->ctx = g->per_config[index];
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if (!sk_ok(g->ctx, sk_context_set_param(g->ctx, params[i], values[i]), "set_param"))
            return 0;
    return 1;
}

static bool selected(const og_state *g, const og_config *c)
{
    bool cpu = c->shape == SK_SHAPE_CPU;
    return g->select == 0 || (g->select == 2) == cpu;
}

static int run_config(og_state *g, size_t index)
{
    const og_config *c = &configs[index];
    int failures = 0;
    if (!selected(g, c)) return 0;
    if (!open_config(g, index)) return 1;
    for (size_t s = 0; s < MAX_SIZES && c->sizes[s]; s++)
        for (int m = 0; m < MODE_COUNT; m++) failures += !check_one(g, c, (og_mode)m, c->sizes[s]);
    printf("og_compact: %-30s %s\n", c->name, failures ? "FAILED" : "ok");
    return failures;
}

/* ---- setup --------------------------------------------------------------------------- */

static int new_buf(og_state *g, size_t bytes, cl_mem *out)
{
    cl_int rc = CL_SUCCESS;
    *out = clCreateBuffer(sk_context_cl_context(g->base), CL_MEM_READ_WRITE, bytes, NULL, &rc);
    return cl_ok(rc, "clCreateBuffer");
}

static int state_open(og_state *g)
{
    for (size_t c = 0; c < CONFIG_COUNT; c++)
        if (configs[c].sizes[0] > g->cap) g->cap = configs[c].sizes[0];
    unsigned char **hosts[] = {&g->in, &g->fl, &g->vin, &g->out, &g->vout, &g->want,
                               &g->vwant, &g->keep};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        if (!(*hosts[i] = malloc(g->cap * 8))) {
            fprintf(stderr, "og_compact: out of memory\n");
            return 0;
        }
    }
    return new_buf(g, g->cap * 4, &g->src) && new_buf(g, g->cap * 4, &g->flags) &&
           new_buf(g, g->cap * 8, &g->vsrc) && new_buf(g, g->cap * 4, &g->dst) &&
           new_buf(g, g->cap * 8, &g->vdst);
}

static int state_close(og_state *g)
{
    int ok = 1;
    for (size_t c = 0; c < CONFIG_COUNT; c++) sk_context_free(g->per_config[c]);
    cl_mem mems[] = {g->src, g->flags, g->vsrc, g->dst, g->vdst};
    for (size_t i = 0; i < 5; i++)
        if (mems[i]) ok &= cl_ok(clReleaseMemObject(mems[i]), "clReleaseMemObject");
    unsigned char *hosts[] = {g->in, g->fl, g->vin, g->out, g->vout, g->want, g->vwant, g->keep};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) free(hosts[i]);
    sk_context_free(g->base);
    return ok;
}

/* Under the oclgrind wrapper, Oclgrind's device must be the only one, and
 * every program must have been compiled from source. */
static int check_oclgrind(const og_state *g)
{
    size_t count = 0;
    unsigned long from_disk = 0;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    if (!sk_ok(g->base, sk_device_list(NULL, 0, &count), "sk_device_list") ||
        !sk_ok(g->base, sk_context_device(g->base, &d), "sk_context_device"))
        return 0;
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        sk_build_stats b = SK_BUILD_STATS_INIT;
        if (g->per_config[c] && sk_context_build_stats(g->per_config[c], &b) == SK_OK)
            from_disk += b.from_disk;
    }
    if (count == 1 && strstr(d.platform_name, "Oclgrind") && from_disk == 0) return 1;
    fprintf(stderr, "og_compact: not running on Oclgrind alone: %zu device(s), platform \"%s\", "
                    "%lu program(s) from the disk cache\n", count, d.platform_name, from_disk);
    return 0;
}

static int parse_args(int argc, char **argv, og_state *g)
{
    g->seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect-oclgrind") == 0) {
            g->expect_oclgrind = true;
        } else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0) {
            char *end = NULL;
            g->seed = strtoull(argv[++i], &end, 0);
            if (!end || *end) return 0;
        } else if (i + 1 < argc && strcmp(argv[i], "--cpu-builtin") == 0) {
            i++;
            if (strcmp(argv[i], "skip") == 0) g->select = 1;
            else if (strcmp(argv[i], "only") == 0) g->select = 2;
            else return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    og_state g;
    memset(&g, 0, sizeof g);
    if (!parse_args(argc, argv, &g)) {
        fprintf(stderr, "usage: og_compact [--expect-oclgrind] [--seed S] "
                        "[--cpu-builtin skip|only]\n");
        return 2;
    }
    g.rng = g.seed;
    if (!sk_ok(NULL, sk_context_create(&g.base, NULL, NULL, 0), "sk_context_create")) return 1;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int failures = 0;
    if (sk_context_device(g.base, &d) == SK_OK)
        printf("og_compact: device \"%s\" (%s), seed %" PRIu64 "\n", d.device_name,
               d.platform_name, g.seed);
    if (!state_open(&g)) failures++;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++) failures += run_config(&g, c);
    if (g.expect_oclgrind) failures += !check_oclgrind(&g);
    failures += !state_close(&g);
    printf("og_compact: %s\n", failures ? "FAILED" : "all results correct");
    return failures ? 1 : 0;
}
