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
 * every predecessor itself: both branches of the walk run. In the GPU
 * shape the hook withhold makes tiles keep their totals to themselves, so
 * that the work-groups after them reduce those tiles (decoupled fallback;
 * in place the withheld tiles keep only their prefixes, as their
 * successors would read overwritten input).
 * Exit status: 0 when all results are right, 1 on a wrong result or a
 * failing call, 2 on bad usage.
 *
 *   og_driver [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * The options are og_harness.h's (the harness all four drivers share).
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
#include "og_harness.h"
#include "sk_testing.h"
#include "../ref/reference.h"

#include <stdio.h>
#include <string.h>

/* ---- configurations --------------------------------------------------------- */

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
    {"gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {700, 200, 37, 1}},
    {"gpu wg=8 items=2", SK_SHAPE_GPU, .wg = 8, .items = 2, .sizes = {333, 100}},
    {"gpu wg=8 items=4", SK_SHAPE_GPU, .wg = 8, .items = 4, .sizes = {333, 100}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {333, 50, 2, 1}},
    {"gpu default tiles", SK_SHAPE_GPU, .sizes = {18433}},
    {"cpu default chunks", SK_SHAPE_CPU, .sizes = {40000, 5000}},
    /* SK_SCAN_PATH_LOOKBACK: the 4-byte families only */
    {"cpu look-back chunks=3", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {333, 50, 2, 1}, .path = SK_SCAN_PATH_LOOKBACK},
    {"cpu look-back chunks=40", SK_SHAPE_CPU, .chunks = 40, .serial_below = 1,
     .sizes = {333, 37}, .path = SK_SCAN_PATH_LOOKBACK},
    {"cpu look-back chunks=40, last first", SK_SHAPE_CPU, .chunks = 40, .serial_below = 1,
     .sizes = {333, 37}, .path = SK_SCAN_PATH_LOOKBACK, .hooks = SK__TEST_LB_REVERSE_CHUNKS},
    /* Tiles withhold their totals: the GPU shape's fallback reduces them. */
    {"gpu look-back wg=4 items=2, tiles withheld", SK_SHAPE_GPU, .wg = 4, .items = 2,
     .sizes = {100}, .path = SK_SCAN_PATH_LOOKBACK, .hooks = SK__TEST_LB_WITHHOLD},
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

static uint32_t rng_next(og_harness *h) { return (uint32_t)(og_rng(h) >> 32); }

/* How one family fills inputs, poisons outputs, computes the expected
 * result (n elements, or 1 for reduce) and calls the library. */
typedef struct family {
    const char *name;
    bool builtin;              /* a built-in operator (vector path on the CPU) */
    size_t size;
    void (*fill)(og_harness *h, void *in, size_t n);
    void (*poison)(void *out, size_t n);
    void (*expect)(const void *in, void *out, size_t n, variant v);
    sk_status (*scan)(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive);
    sk_status (*reduce)(sk_context *ctx, cl_mem src, size_t n, void *result);
} family;

/* One built-in family: (TYPE, OP), expected results from the CPU reference
 * (tests/ref/reference.c), outputs poisoned with OG_POISON. */
#define OG_BUILTIN_FAMILY(P, TYPE, OP)                                               \
    static void P##_poison(void *out, size_t n)                                      \
    {                                                                                \
        memset(out, OG_POISON, n * skt_ref_type_size(TYPE));                          \
    }                                                                                \
    static void P##_expect(const void *in, void *out, size_t n, variant v)           \
    {                                                                                \
        if (v == V_REDUCE) skt_ref_reduce(TYPE, OP, in, n, out);                     \
        else skt_ref_scan(TYPE, OP, v != V_INCLUSIVE, in, out, n);                   \
    }                                                                                \
    static sk_status P##_scan(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive) \
    {                                                                                \
        return exclusive ? sk_scan_exclusive(ctx, TYPE, OP, src, dst, n)             \
                         : sk_scan_inclusive(ctx, TYPE, OP, src, dst, n);            \
    }                                                                                \
    static sk_status P##_reduce(sk_context *ctx, cl_mem src, size_t n, void *result) \
    {                                                                                \
        return sk_reduce(ctx, TYPE, OP, src, result, n);                             \
    }

/* uint32 add: random words. */
OG_BUILTIN_FAMILY(u32, SK_UINT32, SK_OP_ADD)

static void u32_fill(og_harness *h, void *in, size_t n)
{
    uint32_t *p = in;
    for (size_t i = 0; i < n; i++) p[i] = rng_next(h);
}

/* float32 min: IEEE minimum with the left-most NaN (scankit.h's float
 * semantics), whose CPU-shape vector reduce keeps each lane's operands in
 * order through a transpose. Inputs: small integers, signed zeros and a
 * rare NaN with its own payload, compared bit for bit. */
OG_BUILTIN_FAMILY(f32, SK_FLOAT32, SK_OP_MIN)

static void f32_fill(og_harness *h, void *in, size_t n)
{
    float *p = in;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rng_next(h), bits = 0x7fc00000u | (r >> 10);
        if (r % 97 == 0) memcpy(&p[i], &bits, sizeof bits);
        else if (r % 13 == 0) p[i] = (r & 64) ? -0.0f : 0.0f;
        else p[i] = (float)((int)(r % 2001) - 1000);
    }
}

/* One interval family: the device type T of lanes L, its monoid, the
 * identity ID and top TOP index. Inputs (k, k); the expected results need
 * no input. */
#define OG_INTERVAL_FAMILY(P, T, L, MONOID, ID, TOP)                                  \
    static T P(L i, L j)                                                             \
    {                                                                                \
        T r;                                                                         \
        r.s[0] = i;                                                                  \
        r.s[1] = j;                                                                  \
        return r;                                                                    \
    }                                                                                \
    static void P##_fill(og_harness *h, void *in, size_t n)                          \
    {                                                                                \
        T *p = in;                                                                   \
        (void)h;                                                                     \
        for (size_t k = 0; k < n; k++) p[k] = P((L)k, (L)k);                          \
    }                                                                                \
    static void P##_poison(void *out, size_t n)                                      \
    {                                                                                \
        T *p = out;                                                                  \
        for (size_t k = 0; k < n; k++) p[k] = P(TOP, TOP);                            \
    }                                                                                \
    static void P##_expect(const void *in, void *out, size_t n, variant v)           \
    {                                                                                \
        T *y = out;                                                                  \
        (void)in;                                                                    \
        if (v == V_REDUCE) {                                                         \
            y[0] = P(0, (L)(n - 1));                                                 \
            return;                                                                  \
        }                                                                            \
        for (size_t k = 0; k < n; k++) {                                             \
            if (v == V_INCLUSIVE) y[k] = P(0, (L)k);                                 \
            else y[k] = k == 0 ? P(ID, ID) : P(0, (L)(k - 1));                       \
        }                                                                            \
    }                                                                                \
    static sk_status P##_scan(sk_context *ctx, cl_mem src, cl_mem dst, size_t n, bool exclusive) \
    {                                                                                \
        return exclusive ? sk_scan_exclusive_monoid(ctx, &MONOID, src, dst, n)       \
                         : sk_scan_inclusive_monoid(ctx, &MONOID, src, dst, n);      \
    }                                                                                \
    static sk_status P##_reduce(sk_context *ctx, cl_mem src, size_t n, void *result) \
    {                                                                                \
        return sk_reduce_monoid(ctx, &MONOID, src, result, n);                       \
    }

OG_INTERVAL_FAMILY(iv, cl_int2, cl_int, interval_monoid, -1, -2)

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

OG_INTERVAL_FAMILY(iv16, cl_ushort2, cl_ushort, interval16_monoid, 0xFFFF, 0xFFFE)

/* The wider type first: it needs the most scratch. */
static const family families[] = {
    {"int2 interval", false, sizeof(cl_int2), iv_fill, iv_poison, iv_expect, iv_scan, iv_reduce},
    {"ushort2 interval", false, sizeof(cl_ushort2), iv16_fill, iv16_poison, iv16_expect,
     iv16_scan, iv16_reduce},
    {"uint32 add", true, sizeof(uint32_t), u32_fill, u32_poison, u32_expect, u32_scan, u32_reduce},
    {"float32 min", true, sizeof(float), f32_fill, f32_poison, f32_expect, f32_scan, f32_reduce},
};

#define FAMILY_COUNT (sizeof families / sizeof families[0])

/* The look-back configurations run the 4-byte families, the others the
 * rest (the 16-bit interval adds nothing to int2 on reduce-then-scan). */
static bool selected(og_select sel, const og_config *c, const family *f)
{
    bool lookback = c->path == SK_SCAN_PATH_LOOKBACK;
    if (lookback ? f->size > 4 : f->size == sizeof(cl_ushort2) && !f->builtin) return false;
    bool cpu_builtin = c->shape == SK_SHAPE_CPU && f->builtin;
    return sel == OG_ALL || (sel == OG_ONLY_CPU_BUILTIN) == cpu_builtin;
}

/* ---- one run ---------------------------------------------------------------------- */

/* The configuration's context (`ctx`), two device buffers and host staging,
 * all of `cap` bytes. */
typedef struct og_state {
    og_harness *h;
    sk_context *ctx;
    cl_mem src, dst;
    void *in, *out, *want;
    size_t cap;
} og_state;

/* Uploads the input (and the poisoned output), runs variant v on the device
 * and leaves the result in g->out. */
static int run_device(og_state *g, const family *f, size_t n, variant v)
{
    size_t bytes = n * f->size;
    if (!og_write(g->h, g->src, g->in, bytes)) return 0;
    if (v == V_REDUCE)
        return og_sk_ok(g->h, g->ctx, f->reduce(g->ctx, g->src, n, g->out), "reduce");
    cl_mem dst = v == V_EXCLUSIVE_IN_PLACE ? g->src : g->dst;
    if (dst == g->dst && !og_write(g->h, g->dst, g->out, bytes)) return 0;
    if (!og_sk_ok(g->h, g->ctx, f->scan(g->ctx, g->src, dst, n, v != V_INCLUSIVE), "scan"))
        return 0;
    return og_read(g->h, dst, g->out, bytes);
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
    f->fill(g->h, g->in, n);
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

static int run_config(og_state *g, const og_config *c)
{
    int failures = 0, runs = 0;
    for (size_t f = 0; f < FAMILY_COUNT; f++) runs += selected(g->h->select, c, &families[f]);
    if (runs == 0) return 0;
    if (!(g->ctx = og_open(g->h, c))) return 1;
    for (size_t s = 0; s < OG_MAX_SIZES && c->sizes[s]; s++) {
        for (size_t f = 0; f < FAMILY_COUNT; f++) {
            if (!selected(g->h->select, c, &families[f])) continue;
            for (int v = 0; v < VARIANT_COUNT; v++)
                failures += !check_one(g, c, &families[f], c->sizes[s], (variant)v);
        }
    }
    return og_config_done(g->h, c, failures);
}

static int run_all(og_harness *h)
{
    og_state g = {h, NULL, NULL, NULL, NULL, NULL, NULL, 0};
    int failures = 0;
    g.cap = og_largest_size(configs, CONFIG_COUNT) * sizeof(cl_int2);
    if (!(g.in = og_host(h, g.cap)) || !(g.out = og_host(h, g.cap)) ||
        !(g.want = og_host(h, g.cap)) || !(g.src = og_buffer(h, g.cap)) ||
        !(g.dst = og_buffer(h, g.cap)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT; c++) failures += run_config(&g, &configs[c]);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_driver", NULL, NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
