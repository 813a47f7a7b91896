/*
 * og_sort.c - runs every radix sort kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh): each configuration forces a kernel shape and a
 * tiny tile (or a few chunks), so a few dozen keys already span several
 * work-groups. For each size it sorts keys and (key, value) pairs of several
 * key types, both orders, and a bit range (the 8- and 16-bit keys at one
 * small size per shape), and checks every result against
 * tests/ref/ref_sort.c (values are the input indices, so stability is
 * checked too); once with keys below 2^10, whose high digits every key
 * shares. Exit status: 0 when all results are right, 1 on a wrong
 * result or a failing call, 2 on bad usage.
 *
 *   og_sort [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *           [--shape cpu|gpu|all] [--hook NAME]...
 *
 * The shared options are og_harness.h's. --shape selects the
 * configurations (gpu, cpu: as --cpu-builtin skip, only): the CPU shape's
 * histogram scan is scankit's uint32 add scan, whose 8-wide vector code
 * crashes Oclgrind 21.10's --uninitialized plugin (see og_driver.c), so
 * run.sh checks the CPU shape without it.
 * --hook sets a test hook (primitives/sk_testing.h) on every configuration's
 * context: `--hook poll-volatile` polls the one-sweep look-back by volatile
 * loads, as the library does on NVIDIA GPUs (and leaves out the three-step
 * configurations, which have no look-back).
 *
 * As in og_driver.c (Oclgrind's shadow memory keeps the size of a released
 * buffer whose slot a later buffer reuses): the test buffers are made once
 * at the largest size, each configuration gets its own context whose first
 * sort needs the most scratch (8-byte keys and values at the largest size),
 * and all contexts stay open until every kernel has run.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "sk_testing.h"
#include "../ref/ref_sort.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 160

/* GPU tiles of 8 and 24 keys (up to 20 and 7 work-groups), sorted by one
 * sweep per digit (look-back: the default) and by three steps per digit
 * (reduce-then-scan); CPU 3 chunks from n = 1 on, and the default (one
 * work-item below 32768 keys). */
static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 37, 9, 1}},
    {"gpu wg=8 items=3", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {150, 24}},
    {"gpu wg=4 items=2 three steps", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {MAX_N, 37},
     .path = SK_SCAN_PATH_REDUCE_THEN_SCAN},
    {"gpu wg=8 items=3 three steps", SK_SHAPE_GPU, .wg = 8, .items = 3, .sizes = {150},
     .path = SK_SCAN_PATH_REDUCE_THEN_SCAN},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 10, 2}},
    {"cpu default", SK_SHAPE_CPU, .sizes = {100}},
    /* The line scatter of large sorts on CPU devices, forced at every size:
     * digit by digit from the lowest, and by buckets of the top digit
     * (sk_sort_buckets) where they hold up to 1 MiB, or 24 bytes (a bucket
     * of more keys, from the pool's ties, sends the sort to the passes
     * after the buckets' count). */
    {"cpu chunks=3 line scatter", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 37, 2}, .lines_from = 1, .bucket_bytes = 1},
    {"cpu chunks=3 buckets", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N, 37, 2}, .lines_from = 1, .bucket_bytes = 1 << 20},
    {"cpu chunks=3 small buckets", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {MAX_N}, .lines_from = 1, .bucket_bytes = 24},
    /* Tiles withhold their digit counts: the one sweep's fallback counts
     * them. 61 keys: 8 tiles, the last partial, five of them withholding
     * (lookback.cl: SK_LB_HOLDS), so walks fall back over one and two
     * tiles in a row; each fallback recounts a tile under the
     * interpreter (160 keys, 20 tiles, took half the GPU pass's time). */
    {"gpu wg=4 items=2, tiles withheld", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {61},
     .hooks = SK__TEST_LB_WITHHOLD},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* One sort; the first needs the most scratch. */
typedef struct og_case {
    sk_type t;
    size_t vs;               /* 0: keys only */
    int descending;
    unsigned begin, end;     /* end 0: whole key */
    int small;               /* keys below 2^10: the high digits the same for every key
                                (a sweep over a constant digit copies its tile) */
} og_case;

static const og_case cases[] = {
    {SK_UINT64, 8, 0, 0, 0, 0}, {SK_FLOAT64, 4, 1, 0, 0, 0}, {SK_INT64, 0, 1, 0, 0, 0},
    {SK_FLOAT32, 4, 1, 0, 0, 0}, {SK_INT32, 8, 0, 0, 0, 0}, {SK_UINT32, 0, 0, 0, 0, 0},
    {SK_UINT32, 4, 1, 3, 27, 0}, /* three 8-bit digits of pairs: an odd pass count */
    {SK_UINT32, 4, 0, 0, 0, 1},  /* small keys */
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

/* The 8- and 16-bit keys: at one small size per shape (NARROW_N), in the
 * first GPU configuration (one sweep per digit) and in the CPU line
 * scatter's. */
static const og_case narrow_cases[] = {
    {SK_UINT8, 8, 0, 0, 0, 0}, {SK_INT16, 4, 1, 0, 0, 0}, {SK_FLOAT16, 0, 0, 3, 12, 0},
};

#define NARROW_N 37

typedef struct og_state {
    og_harness *h;
    cl_mem keys, vals;
    unsigned char in[MAX_N * 8], out[MAX_N * 8], vout[MAX_N * 8], vin[MAX_N * 8];
    size_t perm[MAX_N];
} og_state;

static uint64_t rnd(og_state *g) { return og_rng(g->h); }

/* Keys with ties (a small pool) and float specials in the pool. */
static void fill(og_state *g, const og_case *c, size_t n)
{
    size_t ks = sk_type_size(c->t);
    uint64_t pool[6] = {rnd(g), rnd(g), rnd(g), 0, ks == 4 ? 0x80000000u : 1ull << 63,
                        ks == 4 ? 0xffc00001u : 0xfff8000000000001ull};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = rnd(g) % 3 ? rnd(g) : pool[rnd(g) % 6];
        if (c->small) v &= 0x3ff;
        memcpy(g->in + i * ks, &v, ks);
        uint64_t idx = i;
        memcpy(g->vin + i * (c->vs ? c->vs : 8), &idx, c->vs ? c->vs : 8);
    }
}

static sk_status sort(sk_context *ctx, const og_case *c, cl_mem k, cl_mem v, size_t n)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    unsigned end = c->end ? c->end : 8 * (unsigned)sk_type_size(c->t);
    if (c->vs) return sk_sort_pairs_bits(ctx, c->t, c->vs, k, v, n, o, c->begin, end);
    return sk_sort_keys_bits(ctx, c->t, k, n, o, c->begin, end);
}

static int verify(og_state *g, const og_case *c, size_t n, const char *what)
{
    size_t ks = sk_type_size(c->t);
    skt_ref_sort_perm(c->t, g->in, n, c->descending, c->begin,
                      c->end ? c->end : 8 * (unsigned)ks, g->perm);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        if (c->vs) memcpy(&v, g->vout + i * c->vs, c->vs);
        if (memcmp(g->out + i * ks, g->in + g->perm[i] * ks, ks) != 0 ||
            (c->vs && v != g->perm[i])) {
            fprintf(stderr, "og_sort: WRONG %s at position %zu\n", what, i);
            return 1;
        }
    }
    return 0;
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, size_t n,
                    const char *cfg)
{
    char what[160];
    size_t ks = sk_type_size(c->t), vs = c->vs ? c->vs : 8;
    snprintf(what, sizeof what, "%s: %s keys, %zu-byte values, %s, n=%zu", cfg,
             sk_type_name(c->t), c->vs, c->descending ? "descending" : "ascending", n);
    fill(g, c, n);
    if (!og_write(g->h, g->keys, g->in, n * ks) || !og_write(g->h, g->vals, g->vin, n * vs) ||
        !og_sk_ok(g->h, ctx, sort(ctx, c, g->keys, g->vals, n), what) ||
        !og_read(g->h, g->keys, g->out, n * ks) || !og_read(g->h, g->vals, g->vout, n * vs))
        return 1;
    return verify(g, c, n, what);
}

/* --cpu-builtin or --shape: the CPU shape's histogram scan is the uint32
 * add scan. With --hook poll-volatile the three-step configurations are
 * left out: only the one sweep reads the look-back (kernels/sort.cl, under
 * SK_ONESWEEP), so they would run the very kernels that the pass without
 * the hook has already checked. */
static int run_config(og_state *g, const og_config *c, bool fp64)
{
    bool cpu = c->shape == SK_SHAPE_CPU;
    if (g->h->select != OG_ALL && (g->h->select == OG_ONLY_CPU_BUILTIN) != cpu) return 0;
    if ((g->h->hooks & SK__TEST_LB_POLL_VOLATILE) && c->path == SK_SCAN_PATH_REDUCE_THEN_SCAN) {
        printf("%s: %-38s left out (no look-back to poll)\n", g->h->def->name, c->name);
        return 0;
    }
    sk_context *ctx = og_open(g->h, c);
    if (!ctx) return 1;
    int failures = 0;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++)
        for (size_t k = 0; k < CASE_COUNT; k++)
            if (fp64 || cases[k].t != SK_FLOAT64)
                failures += run_case(g, ctx, &cases[k], c->sizes[s], c->name);
    if (c == &configs[0] || c->lines_from)
        for (size_t k = 0; k < sizeof narrow_cases / sizeof narrow_cases[0]; k++)
            failures += run_case(g, ctx, &narrow_cases[k], NARROW_N, c->name);
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int failures = 0;
    g.h = h;
    if (!og_sk_ok(h, h->base, sk_context_device(h->base, &d), "sk_context_device") ||
        !(g.keys = og_buffer(h, MAX_N * 8)) || !(g.vals = og_buffer(h, MAX_N * 8)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c], d.has_fp64 != 0);
    return failures;
}

/* --shape cpu|gpu|all (as --cpu-builtin only|skip and neither) and
 * --hook NAME (on every configuration's context). */
static int option(og_harness *h, const char *name, const char *value)
{
    if (strcmp(name, "--shape") == 0) {
        if (strcmp(value, "cpu") == 0) h->select = OG_ONLY_CPU_BUILTIN;
        else if (strcmp(value, "gpu") == 0) h->select = OG_SKIP_CPU_BUILTIN;
        else if (strcmp(value, "all") == 0) h->select = OG_ALL;
        else return 0;
        return 1;
    }
    if (strcmp(name, "--hook") != 0 || !sk__test_hook_from_name(value)) return 0;
    h->hooks |= sk__test_hook_from_name(value);
    return 1;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_sort", " [--shape cpu|gpu|all] [--hook NAME]...",
                                      option, run_all};
    return og_main(&def, NULL, argc, argv);
}
