/*
 * og_driver.c - runs every scan kernel at small sizes, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh): each configuration below forces a kernel shape
 * and a tiny tile, so a few dozen elements already span several
 * work-groups and every level of the reduce-then-scan recursion. For each
 * size it runs reduce, inclusive scan, exclusive scan (out of place and in
 * place) over the interval monoid of VERIFY.md (int2, not commutative) and
 * over uint32 add and float32 min (IEEE minimum, the left-most NaN: not
 * commutative), and checks every result bit for bit. The configurations that force
 * the single-pass look-back scan run only the 4-byte families: uint32 add
 * and the same interval monoid on 16 bits (ushort2), which the look-back
 * takes. In the CPU shape that pass runs out of place only (in place keeps
 * reduce-then-scan); Oclgrind runs work-groups one after another, so with
 * chunks in order every predecessor has published when a chunk looks back,
 * and the configuration that hands chunks out last first (the test hook
 * reverse-chunks, primitives/sk_testing.h) makes the first chunk reduce
 * every predecessor itself: both branches of the walk run.
 * Exit status: 0 when all results are right, 1 on a wrong result or a
 * failing call, 2 on bad usage.
 *
 *   og_driver [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * --expect-oclgrind fails unless the only device visible is Oclgrind's and
 * no program came from the on-disk binary cache (run.sh passes it).
 * --cpu-builtin skips, or runs only, the CPU shape with the built-in
 * operator (uint32 add), whose 8-wide vector path compiles to shufflevector
 * instructions with undefined mask lanes: Oclgrind 21.10's --uninitialized
 * plugin crashes on those (segfault), so run.sh checks that part without it.
 *
 * Order matters under Oclgrind 21.10: its --uninitialized shadow memory
 * keeps the size of a released buffer when a later buffer reuses its slot,
 * so writes past that old size stay "uninitialized" and every later read of
 * them is reported (a false positive: release a 4-byte buffer, create a
 * 116-byte one, write it all with one kernel, read it with another). The
 * library's scratch buffer is grow-only and released when it grows, so each
 * configuration gets its own context (sharing the OpenCL context, queue and
 * buffers) whose first call is the one needing the most scratch: reduce
 * (one extra element), at the largest size, of the widest element type.
 * All contexts stay open until every kernel has run.
 */
#define _POSIX_C_SOURCE 200809L
#include "scankit.h"
#include "sk_testing.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- configurations --------------------------------------------------------- */

#define MAX_SIZES 5

/* One forced launch shape and the sizes it runs at (0 ends the list). */
typedef struct og_config {
    const char *name;
    sk_shape shape;
    long wg, items;            /* GPU shape; 0 = automatic */
    long chunks, serial_below; /* CPU shape; 0 = automatic */
    size_t sizes[MAX_SIZES];
    sk_scan_path path;         /* SK_SCAN_PATH_LOOKBACK: 4-byte families only */
    unsigned hooks;            /* test hooks (sk_testing.h); 0: none */
} og_config;

/* Sizes largest first (see the top of the file). Tiles of 8, 16 and 32
 * elements: one work-group up to 8 tiles, one per tile above; 700 recurses
 * twice (88 tiles, then 11). Items a multiple of 4 take the 16-byte
 * local-memory layout of 4-byte elements across work-groups. The small CPU configuration splits every level
 * into 3 chunks down to 2 elements.
 * Default tiles on Oclgrind: 4096 elements for uint32 (18433 is 5 tiles: one
 * work-group), 2048 for int2 (10 tiles: one work-group per tile, padded
 * local memory); default CPU chunks: one work-item below 32768 elements,
 * 4 chunks per compute unit above (uint32 add out of place takes the
 * look-back's 64K-element chunks instead: one work-item at these sizes). */
static const og_config configs[] = {
    {"gpu wg=4 items=2", SK_SHAPE_GPU, 4, 2, 0, 0, {700, 200, 37, 1}, SK_SCAN_PATH_AUTO, 0},
    {"gpu wg=8 items=2", SK_SHAPE_GPU, 8, 2, 0, 0, {333, 100}, SK_SCAN_PATH_AUTO, 0},
    {"gpu wg=8 items=4", SK_SHAPE_GPU, 8, 4, 0, 0, {333, 100}, SK_SCAN_PATH_AUTO, 0},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, 0, 0, 3, 1, {333, 50, 2, 1},
     SK_SCAN_PATH_AUTO, 0},
    {"gpu default tiles", SK_SHAPE_GPU, 0, 0, 0, 0, {18433}, SK_SCAN_PATH_AUTO, 0},
    {"cpu default chunks", SK_SHAPE_CPU, 0, 0, 0, 0, {40000, 5000}, SK_SCAN_PATH_AUTO, 0},
    {"cpu look-back chunks=3", SK_SHAPE_CPU, 0, 0, 3, 1, {333, 50, 2, 1},
     SK_SCAN_PATH_LOOKBACK, 0},
    {"cpu look-back chunks=40", SK_SHAPE_CPU, 0, 0, 40, 1, {333, 37}, SK_SCAN_PATH_LOOKBACK,
     0},
    {"cpu look-back chunks=40, last first", SK_SHAPE_CPU, 0, 0, 40, 1, {333, 37},
     SK_SCAN_PATH_LOOKBACK, SK__TEST_LB_REVERSE_CHUNKS},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* ---- the element families ------------------------------------------------------ */

/* Reduce first: it needs the most scratch. */
typedef enum variant { V_REDUCE, V_INCLUSIVE, V_EXCLUSIVE, V_EXCLUSIVE_IN_PLACE } variant;

static const char *const variant_names[] = {"reduce", "inclusive", "exclusive",
                                            "exclusive in place"};

#define VARIANT_COUNT 4

/* The interval-of-summations monoid (VERIFY.md): (i, j) stands for
 * in_i + ... + in_j, (-1, -1) is the identity, (-2, -2) is "not an interval". */
static const sk_monoid interval_monoid = {
    "int2", sizeof(cl_int2), "(int2)(-1, -1)", "og_interval(a, b)",
    "int2 og_interval(int2 a, int2 b)\n"
    "{\n"
    "    if (a.x == -1) return b;\n"
    "    if (b.x == -1) return a;\n"
    "    if (a.x == -2 || b.x == -2 || a.y + 1 != b.x) return (int2)(-2, -2);\n"
    "    return (int2)(a.x, b.y);\n"
    "}\n"};

static uint64_t rng_state;

static uint32_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* How one family fills inputs, poisons outputs, computes the expected
 * result (n elements, or 1 for reduce) and calls the library. */
typedef struct family {
    const char *name;
    bool builtin;              /* a built-in operator (vector path on the CPU) */
    size_t size;
    void (*fill)(void *in, size_t n);
    void (*poison)(void *out, size_t n);
    void (*expect)(const void *in, void *out, size_t n, variant v);
    sk_status (*scan)(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive);
    sk_status (*reduce)(sk_context *ctx, cl_mem src, size_t n, void *result);
} family;

static void u32_fill(void *in, size_t n)
{
    uint32_t *p = in;
    for (size_t i = 0; i < n; i++) p[i] = rng_next();
}

static void u32_poison(void *out, size_t n) { memset(out, 0xA5, n * sizeof(uint32_t)); }

static void u32_expect(const void *in, void *out, size_t n, variant v)
{
    const uint32_t *x = in;
    uint32_t *y = out;
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t next = acc + x[i];
        if (v != V_REDUCE) y[i] = v == V_INCLUSIVE ? next : acc;
        acc = next;
    }
    if (v == V_REDUCE) y[0] = acc;
}

static sk_status u32_scan(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive)
{
    return exclusive ? sk_scan_exclusive(ctx, SK_UINT32, SK_OP_ADD, src, dst, n)
                     : sk_scan_inclusive(ctx, SK_UINT32, SK_OP_ADD, src, dst, n);
}

static sk_status u32_reduce(sk_context *ctx, cl_mem src, size_t n, void *result)
{
    return sk_reduce(ctx, SK_UINT32, SK_OP_ADD, src, result, n);
}

/* float32 min: IEEE minimum with the left-most NaN (scankit.h's float
 * semantics), whose CPU-shape vector reduce keeps each lane's operands in
 * order through a transpose. Inputs: small integers, signed zeros and a
 * rare NaN with its own payload, compared bit for bit. */
static float f32_min(float a, float b)
{
    if (isnan(a)) return a;
    if (isnan(b)) return b;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}

static void f32_fill(void *in, size_t n)
{
    float *p = in;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rng_next(), bits = 0x7fc00000u | (r >> 10);
        if (r % 97 == 0) memcpy(&p[i], &bits, sizeof bits);
        else if (r % 13 == 0) p[i] = (r & 64) ? -0.0f : 0.0f;
        else p[i] = (float)((int)(r % 2001) - 1000);
    }
}

static void f32_poison(void *out, size_t n) { memset(out, 0xA5, n * sizeof(float)); }

static void f32_expect(const void *in, void *out, size_t n, variant v)
{
    const float *x = in;
    float *y = out, acc = INFINITY;
    for (size_t i = 0; i < n; i++) {
        float next = f32_min(acc, x[i]);
        if (v != V_REDUCE) y[i] = v == V_INCLUSIVE ? next : acc;
        acc = next;
    }
    if (v == V_REDUCE) y[0] = acc;
}

static sk_status f32_scan(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive)
{
    return exclusive ? sk_scan_exclusive(ctx, SK_FLOAT32, SK_OP_MIN, src, dst, n)
                     : sk_scan_inclusive(ctx, SK_FLOAT32, SK_OP_MIN, src, dst, n);
}

static sk_status f32_reduce(sk_context *ctx, cl_mem src, size_t n, void *result)
{
    return sk_reduce(ctx, SK_FLOAT32, SK_OP_MIN, src, result, n);
}

static cl_int2 iv(cl_int i, cl_int j)
{
    cl_int2 r;
    r.s[0] = i;
    r.s[1] = j;
    return r;
}

static void iv_fill(void *in, size_t n)
{
    cl_int2 *p = in;
    for (size_t k = 0; k < n; k++) p[k] = iv((cl_int)k, (cl_int)k);
}

static void iv_poison(void *out, size_t n)
{
    cl_int2 *p = out;
    for (size_t k = 0; k < n; k++) p[k] = iv(-2, -2);
}

static void iv_expect(const void *in, void *out, size_t n, variant v)
{
    (void)in;
    cl_int2 *y = out;
    if (v == V_REDUCE) {
        y[0] = iv(0, (cl_int)n - 1);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        if (v == V_INCLUSIVE) y[k] = iv(0, (cl_int)k);
        else y[k] = k == 0 ? iv(-1, -1) : iv(0, (cl_int)k - 1);
    }
}

static sk_status iv_scan(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive)
{
    return exclusive ? sk_scan_exclusive_monoid(ctx, &interval_monoid, src, dst, n)
                     : sk_scan_inclusive_monoid(ctx, &interval_monoid, src, dst, n);
}

static sk_status iv_reduce(sk_context *ctx, cl_mem src, size_t n, void *result)
{
    return sk_reduce_monoid(ctx, &interval_monoid, src, result, n);
}

/* The same monoid on 16 bits: (0xFFFF, 0xFFFF) is the identity, (0xFFFE,
 * 0xFFFE) is top, indices below 0xFFFE; 4 bytes, so the look-back takes it. */
static const sk_monoid interval16_monoid = {
    "ushort2", sizeof(cl_ushort2), "(ushort2)(0xFFFF, 0xFFFF)", "og_interval16(a, b)",
    "ushort2 og_interval16(ushort2 a, ushort2 b)\n"
    "{\n"
    "    if (a.x == 0xFFFF) return b;\n"
    "    if (b.x == 0xFFFF) return a;\n"
    "    if (a.x == 0xFFFE || b.x == 0xFFFE || a.y + 1 != b.x)\n"
    "        return (ushort2)(0xFFFE, 0xFFFE);\n"
    "    return (ushort2)(a.x, b.y);\n"
    "}\n"};

static cl_ushort2 iv16(cl_ushort i, cl_ushort j)
{
    cl_ushort2 r;
    r.s[0] = i;
    r.s[1] = j;
    return r;
}

static void iv16_fill(void *in, size_t n)
{
    cl_ushort2 *p = in;
    for (size_t k = 0; k < n; k++) p[k] = iv16((cl_ushort)k, (cl_ushort)k);
}

static void iv16_poison(void *out, size_t n)
{
    cl_ushort2 *p = out;
    for (size_t k = 0; k < n; k++) p[k] = iv16(0xFFFE, 0xFFFE);
}

static void iv16_expect(const void *in, void *out, size_t n, variant v)
{
    (void)in;
    cl_ushort2 *y = out;
    if (v == V_REDUCE) {
        y[0] = iv16(0, (cl_ushort)(n - 1));
        return;
    }
    for (size_t k = 0; k < n; k++) {
        if (v == V_INCLUSIVE) y[k] = iv16(0, (cl_ushort)k);
        else y[k] = k == 0 ? iv16(0xFFFF, 0xFFFF) : iv16(0, (cl_ushort)(k - 1));
    }
}

static sk_status iv16_scan(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive)
{
    return exclusive ? sk_scan_exclusive_monoid(ctx, &interval16_monoid, src, dst, n)
                     : sk_scan_inclusive_monoid(ctx, &interval16_monoid, src, dst, n);
}

static sk_status iv16_reduce(sk_context *ctx, cl_mem src, size_t n, void *result)
{
    return sk_reduce_monoid(ctx, &interval16_monoid, src, result, n);
}

/* The wider type first: it needs the most scratch. */
static const family families[] = {
    {"int2 interval", false, sizeof(cl_int2), iv_fill, iv_poison, iv_expect, iv_scan, iv_reduce},
    {"ushort2 interval", false, sizeof(cl_ushort2), iv16_fill, iv16_poison, iv16_expect,
     iv16_scan, iv16_reduce},
    {"uint32 add", true, sizeof(uint32_t), u32_fill, u32_poison, u32_expect, u32_scan, u32_reduce},
    {"float32 min", true, sizeof(float), f32_fill, f32_poison, f32_expect, f32_scan, f32_reduce},
};

#define FAMILY_COUNT (sizeof families / sizeof families[0])

/* ---- options -------------------------------------------------------------------- */

typedef enum og_select { SEL_ALL, SEL_SKIP_CPU_BUILTIN, SEL_ONLY_CPU_BUILTIN } og_select;

typedef struct og_options {
    bool expect_oclgrind;
    uint64_t seed;
    og_select select;
} og_options;

/* One "--name value" option; 0 for an unknown name or a bad value. */
static int parse_pair(og_options *o, const char *name, const char *value)
{
    char *end = NULL;
    if (strcmp(name, "--seed") == 0) {
        o->seed = strtoull(value, &end, 0);
        return end && *end == '\0';
    }
    if (strcmp(name, "--cpu-builtin") != 0) return 0;
    if (strcmp(value, "skip") == 0) o->select = SEL_SKIP_CPU_BUILTIN;
    else if (strcmp(value, "only") == 0) o->select = SEL_ONLY_CPU_BUILTIN;
    else return 0;
    return 1;
}

static int parse_args(int argc, char **argv, og_options *o)
{
    *o = (og_options){false, (uint64_t)time(NULL), SEL_ALL};
    int i = 1;
    while (i < argc) {
        if (strcmp(argv[i], "--expect-oclgrind") == 0) {
            o->expect_oclgrind = true;
            i += 1;
        } else if (i + 1 < argc && parse_pair(o, argv[i], argv[i + 1])) {
            i += 2;
        } else {
            return 0;
        }
    }
    return 1;
}

/* The look-back configurations run the 4-byte families, the others the
 * rest (the 16-bit interval adds nothing to int2 on reduce-then-scan). */
static bool selected(og_select sel, const og_config *c, const family *f)
{
    bool lookback = c->path == SK_SCAN_PATH_LOOKBACK;
    if (lookback ? f->size > 4 : f->size == sizeof(cl_ushort2) && !f->builtin) return false;
    bool cpu_builtin = c->shape == SK_SHAPE_CPU && f->builtin;
    return sel == SEL_ALL || (sel == SEL_ONLY_CPU_BUILTIN) == cpu_builtin;
}

/* ---- one run ---------------------------------------------------------------------- */

/* The device's context (`base`), one context per configuration wrapping the
 * same OpenCL objects, the one in use (`ctx`), two device buffers and host
 * staging, all of `cap` bytes. */
typedef struct og_state {
    og_options opt;
    sk_context *base;
    sk_context *per_config[CONFIG_COUNT];
    sk_context *ctx;
    cl_mem src, dst;
    void *in, *out, *want;
    size_t cap;
} og_state;

static int cl_ok(cl_int rc, const char *what)
{
    if (rc == CL_SUCCESS) return 1;
    fprintf(stderr, "og_driver: %s failed: %s\n", what, sk_cl_error_name(rc));
    return 0;
}

static int sk_ok(const sk_context *ctx, sk_status st, const char *what)
{
    if (st == SK_OK) return 1;
    fprintf(stderr, "og_driver: %s failed: %s (%s)\n", what, sk_status_name(st),
            ctx ? sk_context_error_detail(ctx) : "no context");
    return 0;
}

static int write_buf(og_state *g, cl_mem m, const void *p, size_t bytes)
{
    cl_command_queue q = sk_context_cl_queue(g->base);
    return cl_ok(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL),
                 "clEnqueueWriteBuffer");
}

static int read_buf(og_state *g, cl_mem m, void *p, size_t bytes)
{
    cl_command_queue q = sk_context_cl_queue(g->base);
    return cl_ok(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL),
                 "clEnqueueReadBuffer");
}

/* Uploads the input (and the poisoned output), runs variant v on the device
 * and leaves the result in g->out. */
static int run_device(og_state *g, const family *f, size_t n, variant v)
{
    size_t bytes = n * f->size;
    if (!write_buf(g, g->src, g->in, bytes)) return 0;
    if (v == V_REDUCE) return sk_ok(g->ctx, f->reduce(g->ctx, g->src, n, g->out), "reduce");
    cl_mem dst = v == V_EXCLUSIVE_IN_PLACE ? g->src : g->dst;
    if (dst == g->dst && !write_buf(g, g->dst, g->out, bytes)) return 0;
    if (!sk_ok(g->ctx, f->scan(g->ctx, g->src, dst, n, v != V_INCLUSIVE), "scan")) return 0;
    return read_buf(g, dst, g->out, bytes);
}

/* Index of the first element where a and b differ, or n. */
static size_t first_difference(const void *a, const void *b, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)a + i * size, (const char *)b + i * size, size) != 0)
            return i;
    return n;
}

static int check_one(og_state *g, const og_config *c, const family *f, size_t n, variant v)
{
    size_t count = v == V_REDUCE ? 1 : n;
    f->fill(g->in, n);
    f->poison(g->out, n);
    f->expect(g->in, g->want, n, v);
    int ok = run_device(g, f, n, v);
    size_t bad = ok ? first_difference(g->out, g->want, count, f->size) : 0;
    if (ok && bad == count) return 1;
    fprintf(stderr, "og_driver: FAIL %s, %s, %s, n=%zu", c->name, f->name,
            variant_names[v], n);
    if (ok) fprintf(stderr, ": first wrong element at index %zu", bad);
    fputc('\n', stderr);
    return 0;
}

/* ---- configurations ------------------------------------------------------------- */

/* Opens the configuration's own context on the base context's objects. */
static int open_config(og_state *g, size_t index)
{
    static const sk_param params[] = {SK_PARAM_SHAPE, SK_PARAM_WG_SIZE,
                                      SK_PARAM_ITEMS_PER_THREAD, SK_PARAM_CPU_CHUNKS,
                                      SK_PARAM_CPU_SERIAL_BELOW, SK_PARAM_SCAN_PATH};
    const og_config *c = &configs[index];
    const long values[] = {c->shape, c->wg,           c->items,
                           c->chunks, c->serial_below, c->path};
    sk_status st = sk_context_wrap(&g->per_config[index], sk_context_cl_context(g->base),
                                   sk_context_cl_device(g->base),
                                   sk_context_cl_queue(g->base));
    if (!sk_ok(g->base, st, "sk_context_wrap")) return 0;
    g->ctx = g->per_config[index];
    if (!sk_ok(g->ctx, sk__test_set_hooks(g->ctx, c->hooks), "sk__test_set_hooks")) return 0;
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if (!sk_ok(g->ctx, sk_context_set_param(g->ctx, params[i], values[i]), "set_param"))
            return 0;
    return 1;
}

static int run_config(og_state *g, size_t index)
{
    const og_config *c = &configs[index];
    int failures = 0, runs = 0;
    for (size_t f = 0; f < FAMILY_COUNT; f++) runs += selected(g->opt.select, c, &families[f]);
    if (runs == 0) return 0;
    if (!open_config(g, index)) return 1;
    for (size_t s = 0; s < MAX_SIZES && c->sizes[s]; s++) {
        for (size_t f = 0; f < FAMILY_COUNT; f++) {
            if (!selected(g->opt.select, c, &families[f])) continue;
            for (int v = 0; v < VARIANT_COUNT; v++)
                failures += !check_one(g, c, &families[f], c->sizes[s], (variant)v);
        }
    }
    printf("og_driver: %-38s %s\n", c->name, failures ? "FAILED" : "ok");
    return failures;
}

/* ---- setup ------------------------------------------------------------------------ */

static size_t largest_bytes(void)
{
    size_t most = 0;
    for (size_t c = 0; c < CONFIG_COUNT; c++)
        for (size_t s = 0; s < MAX_SIZES; s++)
            if (configs[c].sizes[s] > most) most = configs[c].sizes[s];
    return most * sizeof(cl_int2);
}

static int state_open(og_state *g)
{
    cl_int rc = CL_SUCCESS;
    g->cap = largest_bytes();
    g->in = malloc(g->cap);
    g->out = malloc(g->cap);
    g->want = malloc(g->cap);
    if (!g->in || !g->out || !g->want) {
        fprintf(stderr, "og_driver: out of memory\n");
        return 0;
    }
    cl_context cl = sk_context_cl_context(g->base);
    g->src = clCreateBuffer(cl, CL_MEM_READ_WRITE, g->cap, NULL, &rc);
    if (!cl_ok(rc, "clCreateBuffer")) return 0;
    g->dst = clCreateBuffer(cl, CL_MEM_READ_WRITE, g->cap, NULL, &rc);
    return cl_ok(rc, "clCreateBuffer");
}

static int state_close(og_state *g)
{
    int ok = 1;
    for (size_t c = 0; c < CONFIG_COUNT; c++) sk_context_free(g->per_config[c]);
    if (g->src) ok &= cl_ok(clReleaseMemObject(g->src), "clReleaseMemObject");
    if (g->dst) ok &= cl_ok(clReleaseMemObject(g->dst), "clReleaseMemObject");
    free(g->in);
    free(g->out);
    free(g->want);
    sk_context_free(g->base);
    return ok;
}

/* Programs loaded from the on-disk cache, over all contexts. */
static int count_from_disk(const og_state *g, unsigned long *total)
{
    *total = 0;
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        sk_build_stats b = SK_BUILD_STATS_INIT;
        if (!g->per_config[c]) continue;
        if (!sk_ok(g->per_config[c], sk_context_build_stats(g->per_config[c], &b),
                   "sk_context_build_stats"))
            return 0;
        *total += b.from_disk;
    }
    return 1;
}

/* Under the oclgrind wrapper, Oclgrind's device must be the only one, and
 * every program must have been compiled from source (for the analysis). */
static int check_oclgrind(const og_state *g)
{
    size_t count = 0;
    unsigned long from_disk = 0;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    if (!sk_ok(g->base, sk_device_list(NULL, 0, &count), "sk_device_list")) return 0;
    if (!sk_ok(g->base, sk_context_device(g->base, &d), "sk_context_device")) return 0;
    if (!count_from_disk(g, &from_disk)) return 0;
    if (count == 1 && strstr(d.platform_name, "Oclgrind") && from_disk == 0) return 1;
    fprintf(stderr,
            "og_driver: not running on Oclgrind alone: %zu device(s), platform \"%s\", "
            "%lu program(s) from the disk cache\n",
            count, d.platform_name, from_disk);
    return 0;
}

static int run_all(og_state *g)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int failures = 0;
    if (!sk_ok(g->base, sk_context_device(g->base, &d), "sk_context_device")) return 1;
    printf("og_driver: device \"%s\" (%s), seed %" PRIu64 "\n", d.device_name,
           d.platform_name, g->opt.seed);
    if (!state_open(g)) return 1;
    for (size_t c = 0; c < CONFIG_COUNT; c++) failures += run_config(g, c);
    if (g->opt.expect_oclgrind) failures += !check_oclgrind(g);
    return failures;
}

int main(int argc, char **argv)
{
    og_state g = {0};
    if (!parse_args(argc, argv, &g.opt)) {
        fprintf(stderr, "usage: og_driver [--expect-oclgrind] [--seed S] "
                        "[--cpu-builtin skip|only]\n");
        return 2;
    }
    rng_state = g.opt.seed;
    sk_status st = sk_context_create(&g.base, NULL, NULL, 0);
    if (st != SK_OK) {
        fprintf(stderr, "og_driver: no device: %s\n", sk_status_str(st));
        return 1;
    }
    int failures = run_all(&g);
    failures += !state_close(&g);
    printf("og_driver: %s\n", failures ? "FAILED" : "all results correct");
    return failures ? 1 : 0;
}
