/*
 * og_sort.c - runs every radix sort kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh): each configuration forces a kernel shape and a
 * tiny tile (or a few chunks), so a few dozen keys already span several
 * work-groups. For each size it sorts keys and (key, value) pairs of several
 * key types, both orders, and a bit range, and checks every result against
 * tests/ref/ref_sort.c (values are the input indices, so stability is
 * checked too). Exit status: 0 when all results are right, 1 on a wrong
 * result or a failing call, 2 on bad usage.
 *
 *   og_sort [--expect-oclgrind] [--seed S] [--shape cpu|gpu|all] [--hook NAME]...
 *
 * --expect-oclgrind fails unless the only device visible is Oclgrind's and
 * no program came from the on-disk binary cache. --shape selects the
 * configurations: the CPU shape's histogram scan is scankit's uint32 add
 * scan, whose 8-wide vector code crashes Oclgrind 21.10's --uninitialized
 * plugin (see og_driver.c), so run.sh checks the CPU shape without it.
 * --hook sets a test hook (primitives/sk_testing.h) on every configuration's
 * context: `--hook poll-volatile` polls the one-sweep look-back by volatile
 * loads, as the library does on NVIDIA GPUs.
 *
 * As in og_driver.c (Oclgrind's shadow memory keeps the size of a released
 * buffer whose slot a later buffer reuses): the test buffers are made once
 * at the largest size, each configuration gets its own context whose first
 * sort needs the most scratch (8-byte keys and values at the largest size),
 * and all contexts stay open until every kernel has run.
 */
#define _POSIX_C_SOURCE 200809L
#include "scankit.h"
#include "sk_testing.h"
#include "../ref/ref_sort.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_N 160

typedef struct og_config {
    const char *name;
    sk_shape shape;
    long wg, items, chunks, serial_below;   /* 0 = automatic */
    sk_scan_path path;                       /* GPU shape: one sweep per digit or three steps */
    long lines_from;                         /* CPU shape: SK_PARAM_CPU_SORT_LINES_FROM */
    size_t sizes[4];                         /* largest first, 0 ends */
} og_config;

/* GPU tiles of 8 and 24 keys (up to 20 and 7 work-groups), sorted by one
 * sweep per digit (look-back: the default) and by three steps per digit
 * (reduce-then-scan); CPU 3 chunks from n = 1 on, and the default (one
 * work-item below 32768 keys). */
static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, 4, 2, 0, 0, SK_SCAN_PATH_AUTO, 0, {MAX_N, 37, 9, 1}},
    {"gpu wg=8 items=3", SK_SHAPE_GPU, 8, 3, 0, 0, SK_SCAN_PATH_AUTO, 0, {150, 24}},
    {"gpu wg=4 items=2 three steps", SK_SHAPE_GPU, 4, 2, 0, 0, SK_SCAN_PATH_REDUCE_THEN_SCAN, 0,
     {MAX_N, 37}},
    {"gpu wg=8 items=3 three steps", SK_SHAPE_GPU, 8, 3, 0, 0, SK_SCAN_PATH_REDUCE_THEN_SCAN, 0,
     {150}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, 0, 0, 3, 1, SK_SCAN_PATH_AUTO, 0,
     {MAX_N, 10, 2}},
    {"cpu default", SK_SHAPE_CPU, 0, 0, 0, 0, SK_SCAN_PATH_AUTO, 0, {100}},
    /* The line scatter of large sorts on CPU devices, forced at every size. */
    {"cpu chunks=3 line scatter", SK_SHAPE_CPU, 0, 0, 3, 1, SK_SCAN_PATH_AUTO, 1,
     {MAX_N, 37, 2}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* One sort; the first needs the most scratch. */
typedef struct og_case {
    sk_type t;
    size_t vs;               /* 0: keys only */
    int descending;
    unsigned begin, end;     /* end 0: whole key */
} og_case;

static const og_case cases[] = {
    {SK_UINT64, 8, 0, 0, 0}, {SK_FLOAT64, 4, 1, 0, 0}, {SK_INT64, 0, 1, 0, 0},
    {SK_FLOAT32, 4, 1, 0, 0}, {SK_INT32, 8, 0, 0, 0}, {SK_UINT32, 0, 0, 0, 0},
    {SK_UINT32, 4, 1, 3, 12},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct og_state {
    bool expect_oclgrind;
    uint64_t seed, rng;
    const char *shape;       /* "cpu", "gpu" or "all" */
    unsigned hooks;          /* --hook: test hooks (sk_testing.h) */
    sk_context *ctx[CONFIG_COUNT];
    cl_mem keys, vals;
    unsigned char in[MAX_N * 8], out[MAX_N * 8], vout[MAX_N * 8], vin[MAX_N * 8];
    size_t perm[MAX_N];
} og_state;

static uint64_t rnd(og_state *g)
{
    uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static bool sk_ok(sk_context *ctx, sk_status st, const char *what)
{
    if (st == SK_OK) return true;
    fprintf(stderr, "og_sort: %s: %s (%s)\n", what, sk_status_name(st),
            ctx ? sk_context_error_detail(ctx) : "");
    return false;
}

static bool cl_ok(cl_int rc, const char *what)
{
    if (rc == CL_SUCCESS) return true;
    fprintf(stderr, "og_sort: %s: %s\n", what, sk_cl_error_name(rc));
    return false;
}

/* Keys with ties (a small pool) and float specials in the pool. */
static void fill(og_state *g, const og_case *c, size_t n)
{
    size_t ks = sk_type_size(c->t);
    uint64_t pool[6] = {rnd(g), rnd(g), rnd(g), 0, ks == 4 ? 0x80000000u : 1ull << 63,
                        ks == 4 ? 0xffc00001u : 0xfff8000000000001ull};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = rnd(g) % 3 ? rnd(g) : pool[rnd(g) % 6];
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
    cl_command_queue q = sk_context_cl_queue(ctx);
    snprintf(what, sizeof what, "%s: %s keys, %zu-byte values, %s, n=%zu", cfg,
             sk_type_name(c->t), c->vs, c->descending ? "descending" : "ascending", n);
    fill(g, c, n);
    if (!cl_ok(clEnqueueWriteBuffer(q, g->keys, CL_TRUE, 0, n * ks, g->in, 0, NULL, NULL),
               "upload") ||
        !cl_ok(clEnqueueWriteBuffer(q, g->vals, CL_TRUE, 0, n * vs, g->vin, 0, NULL, NULL),
               "upload") ||
        !sk_ok(ctx, sort(ctx, c, g->keys, g->vals, n), what) ||
        !cl_ok(clEnqueueReadBuffer(q, g->keys, CL_TRUE, 0, n * ks, g->out, 0, NULL, NULL),
               "download") ||
        !cl_ok(clEnqueueReadBuffer(q, g->vals, CL_TRUE, 0, n * vs, g->vout, 0, NULL, NULL),
               "download"))
        return 1;
    return verify(g, c, n, what);
}

static bool selected(const og_state *g, const og_config *c)
{
    if (!strcmp(g->shape, "all")) return true;
    return !strcmp(g->shape, "cpu") == (c->shape == SK_SHAPE_CPU);
}

/* Configuration ci on its own context, wrapping base's OpenCL objects. */
static int run_config(og_state *g, sk_context *base, size_t ci, bool fp64)
{
    const og_config *c = &configs[ci];
    sk_context *ctx = NULL;
    if (!sk_ok(NULL, sk_context_wrap(&ctx, sk_context_cl_context(base),
                                     sk_context_cl_device(base), sk_context_cl_queue(base)),
               "sk_context_wrap"))
        return 1;
    g->ctx[ci] = ctx;
    if (!sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_SHAPE, c->shape), "shape") ||
        !sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_WG_SIZE, c->wg), "wg") ||
        !sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_ITEMS_PER_THREAD, c->items), "items") ||
        !sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_CPU_CHUNKS, c->chunks), "chunks") ||
        !sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_SCAN_PATH, c->path), "path") ||
        !sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_CPU_SORT_LINES_FROM, c->lines_from),
               "lines_from") ||
        !sk_ok(ctx, sk_context_set_param(ctx, SK_PARAM_CPU_SERIAL_BELOW, c->serial_below),
               "serial_below") ||
        !sk_ok(ctx, sk__test_set_hooks(ctx, g->hooks), "hooks"))
        return 1;
    int failures = 0;
    for (size_t s = 0; s < 4 && c->sizes[s]; s++)
        for (size_t k = 0; k < CASE_COUNT; k++)
            if (fp64 || cases[k].t != SK_FLOAT64)
                failures += run_case(g, ctx, &cases[k], c->sizes[s], c->name);
    printf("og_sort: %s: %s\n", c->name, failures ? "FAILED" : "ok");
    return failures;
}

static int check_oclgrind(const og_state *g)
{
    size_t count = 0;
    unsigned long from_disk = 0;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_device_list(NULL, 0, &count);
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        sk_build_stats b = SK_BUILD_STATS_INIT;
        if (g->ctx[c] && sk_context_build_stats(g->ctx[c], &b) == SK_OK)
            from_disk += b.from_disk;
        if (g->ctx[c]) sk_context_device(g->ctx[c], &d);
    }
    if (count == 1 && strstr(d.platform_name, "Oclgrind") && from_disk == 0) return 0;
    fprintf(stderr, "og_sort: not on Oclgrind alone: %zu device(s), platform \"%s\", %lu "
                    "program(s) from the disk cache\n", count, d.platform_name, from_disk);
    return 1;
}

static int parse_args(int argc, char **argv, og_state *g)
{
    g->seed = (uint64_t)time(NULL);
    g->shape = "all";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--expect-oclgrind")) g->expect_oclgrind = true;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            g->seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--shape") && i + 1 < argc &&
                 (!strcmp(argv[i + 1], "cpu") || !strcmp(argv[i + 1], "gpu") ||
                  !strcmp(argv[i + 1], "all")))
            g->shape = argv[++i];
        else if (!strcmp(argv[i], "--hook") && i + 1 < argc &&
                 sk__test_hook_from_name(argv[i + 1]))
            g->hooks |= sk__test_hook_from_name(argv[++i]);
        else return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static og_state g;
    if (!parse_args(argc, argv, &g)) {
        fprintf(stderr, "usage: og_sort [--expect-oclgrind] [--seed S] [--shape cpu|gpu|all] "
                        "[--hook NAME]...\n");
        return 2;
    }
    g.rng = g.seed;
    sk_context *base = NULL;
    if (!sk_ok(NULL, sk_context_create(&base, NULL, NULL, 0), "sk_context_create")) return 1;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_context_device(base, &d);
    printf("og_sort: device \"%s\" (%s), seed %" PRIu64 "\n", d.device_name, d.platform_name,
           g.seed);
    for (unsigned h = 1; h && h <= g.hooks; h <<= 1)
        if (g.hooks & h) printf("og_sort: test hook %s\n", sk__test_hook_name(h));
    cl_int rc = CL_SUCCESS;
    cl_context cl = sk_context_cl_context(base);
    g.keys = clCreateBuffer(cl, CL_MEM_READ_WRITE, MAX_N * 8, NULL, &rc);
    int failures = !cl_ok(rc, "clCreateBuffer");
    if (!failures) g.vals = clCreateBuffer(cl, CL_MEM_READ_WRITE, MAX_N * 8, NULL, &rc);
    failures += !cl_ok(rc, "clCreateBuffer");
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        if (selected(&g, &configs[c])) failures += run_config(&g, base, c, d.has_fp64 != 0);
    if (g.expect_oclgrind) failures += check_oclgrind(&g);
    for (size_t c = 0; c < CONFIG_COUNT; c++) sk_context_free(g.ctx[c]);
    if (g.keys) clReleaseMemObject(g.keys);
    if (g.vals) clReleaseMemObject(g.vals);
    sk_context_free(base);
    printf("og_sort: %s\n", failures ? "FAILED" : "all results correct");
    return failures ? 1 : 0;
}
