/*
 * og_segscan.c - runs every segmented-scan and polynomial kernel at small
 * sizes, for Oclgrind.
 *
 * Meant to run under Oclgrind through tests/oclgrind/run.sh --scan-kernels,
 * whose two passes pass --cpu-builtin skip and --cpu-builtin only (below). Each configuration forces a
 * kernel shape and a tiny tile or chunk count, so a few hundred elements
 * span many work-groups or chunks. Cases: uint32 add segmented scans,
 * inclusive and exclusive, by uint8 and uint32 flags and by uint32 and
 * uint64 offsets (with empty segments); segment totals by flags and by
 * offsets (by offsets both through the segmented scan and by a work-group
 * per segment, $SCANKIT_SEG_GROUPS_FROM set around that call, its offsets
 * checked in its launch or apart, $SCANKIT_SEG_GROUPS_CHECK_MAX=0); float32 polynomial evaluation at one point, at many points and
 * every Horner prefix (integer coefficients at x in {-1, 0, 1}, so every
 * value is exact). Results are checked against tests/ref/ref_segscan.c and a
 * serial Horner loop, outputs poisoned beforehand and checked untouched past
 * what each call may write. Exit status: 0 when all results are right, 1 on
 * a wrong result or a failing call, 2 on bad usage.
 *
 *   og_segscan [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *              [--case TEXT]
 *
 * --case runs only the cases whose name contains TEXT (e.g. "poly").
 * --cpu-builtin (the option name run.sh --scan-kernels passes) splits the
 * cases by what Oclgrind 21.10's --uninitialized plugin can check: "skip"
 * runs the segmented cases by flags, which it checks cleanly; "only" runs
 * the others, which run.sh then checks for races and API errors without
 * that plugin, because it misreports them (both reproduced with ten-line
 * programs and no scankit code):
 *   - offsets: the head flags derived from offsets start as a buffer
 *     zeroed by clEnqueueFillBuffer, which the plugin does not count as a
 *     write, so every later read of a flag is "uninitialized";
 *   - polynomials: the float2 (m, c) pairs are stored as <x, poison> and
 *     then completed, which the plugin reports as an uninitialized store.
 * Every result is checked in both passes.
 *
 * As in og_driver.c, each (configuration, case) gets its own context
 * wrapping the same OpenCL objects, runs its largest size first and stays
 * open to the end, so that no grow-only scratch buffer is released and
 * re-created (Oclgrind 21.10 then reports false uninitialised reads).
 * The CPU configurations use no built-in scan operator (the lifted monoids
 * are custom), so the 8-wide code that crashes that plugin is not reached.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "../ref/ref_segscan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 8

static const og_config configs[] = {OG_SMALL_TILE_CONFIGS(150, 31, 700)};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

typedef enum og_case {
    INCL_F8, EXCL_F32, INCL_O32, EXCL_O64, EXCL_F8, REDUCE_F8, REDUCE_O32, REDUCE_GROUPS,
    REDUCE_GROUPS_APART, POLY_EVAL, POLY_POINTS, POLY_PREFIXES
} og_case;

#define CASE_COUNT 12

static const char *const case_names[] = {
    "segscan incl u8 flags",  "segscan excl u32 flags",  "segscan incl u32 offsets",
    "segscan excl u64 offsets", "segscan excl u8 flags", "segreduce u8 flags",
    "segreduce u32 offsets",  "segreduce u32 offsets by groups",
    "segreduce u32 offsets by groups, checked apart", "poly_eval",
    "poly_eval_points",       "poly_horner_prefixes"};

typedef struct og_state {
    og_harness *h;
    const char *only; /* --case */
    cl_mem src, desc, dst;
    uint32_t *in, *out, *want;
    unsigned char *heads, *descbuf;
    size_t cap, count; /* cap: elements; count: offsets */
} og_state;

/* ---- segmentations and inputs -------------------------------------------------------- */

static bool is_offsets(og_case c)
{
    return c == INCL_O32 || c == EXCL_O64 || c == REDUCE_O32 || c == REDUCE_GROUPS ||
           c == REDUCE_GROUPS_APART;
}

static sk_type offset_type(og_case c) { return c == EXCL_O64 ? SK_UINT64 : SK_UINT32; }

static size_t flag_size(og_case c) { return c == EXCL_F32 ? 4 : 1; }

/* Random heads (about 1 in 5) as flags, or as offsets with empty segments. */
static void make_segments(og_state *g, og_case c, size_t n)
{
    g->count = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = og_rng(g->h);
        g->heads[i] = i == 0 || r % 5 == 0;
        g->in[i] = (uint32_t)(r >> 32);
        if (!is_offsets(c)) {
            uint32_t f = g->heads[i] ? (uint32_t)(r >> 8) | 1u : 0u;
            if (flag_size(c) == 1) g->descbuf[i] = (unsigned char)f;
            else memcpy(g->descbuf + 4 * i, &f, 4);
            continue;
        }
        for (int k = 0; g->heads[i] && k < 1 + (int)(r >> 60) % 2; k++) {
            if (offset_type(c) == SK_UINT32) ((uint32_t *)g->descbuf)[g->count++] = (uint32_t)i;
            else ((uint64_t *)g->descbuf)[g->count++] = i;
        }
    }
    if (is_offsets(c) && offset_type(c) == SK_UINT32) ((uint32_t *)g->descbuf)[g->count++] = (uint32_t)n;
    else if (is_offsets(c)) ((uint64_t *)g->descbuf)[g->count++] = n;
}

static size_t desc_bytes(const og_state *g, og_case c, size_t n)
{
    return is_offsets(c) ? g->count * sk_type_size(offset_type(c)) : n * flag_size(c);
}

static sk_segments segments(const og_state *g, og_case c)
{
    if (is_offsets(c)) return (sk_segments){NULL, 0, g->desc, offset_type(c), g->count};
    return (sk_segments){g->desc, flag_size(c), NULL, SK_UINT32, 0};
}

/* ---- the segmented cases ---------------------------------------------------------------- */

/* Expected output and its length (elements). */
static size_t seg_expect(og_state *g, og_case c, size_t n)
{
    if (c == REDUCE_F8) return skt_ref_segreduce_heads(SK_UINT32, SK_OP_ADD, g->in, g->heads, n, g->want);
    if (c == REDUCE_O32 || c == REDUCE_GROUPS || c == REDUCE_GROUPS_APART) {
        skt_ref_segreduce_offsets(SK_UINT32, SK_OP_ADD, g->in, n, g->descbuf, SK_UINT32, g->count,
                                  g->want);
        return g->count;
    }
    int excl = c == EXCL_F32 || c == EXCL_O64 || c == EXCL_F8;
    skt_ref_segscan(SK_UINT32, SK_OP_ADD, excl, g->in, g->want, g->heads, n);
    return n;
}

static sk_status seg_call(og_state *g, sk_context *ctx, og_case c, size_t n, size_t *segs)
{
    sk_segments s = segments(g, c);
    switch (c) {
    case INCL_F8:
    case INCL_O32: return sk_segscan_inclusive(ctx, SK_UINT32, SK_OP_ADD, g->src, &s, g->dst, n);
    case EXCL_F32:
    case EXCL_O64:
    case EXCL_F8: return sk_segscan_exclusive(ctx, SK_UINT32, SK_OP_ADD, g->src, &s, g->dst, n);
    case REDUCE_GROUPS:
    case REDUCE_GROUPS_APART: {
        setenv("SCANKIT_SEG_GROUPS_FROM", "1", 1);
        if (c == REDUCE_GROUPS_APART) setenv("SCANKIT_SEG_GROUPS_CHECK_MAX", "0", 1);
        sk_status st = sk_segreduce(ctx, SK_UINT32, SK_OP_ADD, g->src, &s, g->dst, segs, n);
        unsetenv("SCANKIT_SEG_GROUPS_FROM");
        unsetenv("SCANKIT_SEG_GROUPS_CHECK_MAX");
        return st;
    }
    default: return sk_segreduce(ctx, SK_UINT32, SK_OP_ADD, g->src, &s, g->dst, segs, n);
    }
}

static const char *seg_check(og_state *g, sk_context *ctx, og_case c, size_t n)
{
    size_t segs = 0, cap = 2 * g->cap + GUARD;
    make_segments(g, c, n);
    size_t want = seg_expect(g, c, n);
    memset(g->out, OG_POISON, cap * 4);
    if (!og_write(g->h, g->src, g->in, n * 4) || !og_write(g->h, g->desc, g->descbuf, desc_bytes(g, c, n)) ||
        !og_write(g->h, g->dst, g->out, cap * 4))
        return "uploading failed";
    sk_status st = seg_call(g, ctx, c, n, &segs);
    if (st != SK_OK) {
        fprintf(stderr, "og_segscan: %s\n", sk_context_error_detail(ctx));
        return sk_status_name(st);
    }
    if (!og_read(g->h, g->dst, g->out, cap * 4)) return "reading back failed";
    if ((c == REDUCE_F8 || c == REDUCE_O32 || c == REDUCE_GROUPS || c == REDUCE_GROUPS_APART) &&
        segs != want)
        return "wrong segment count";
    if (memcmp(g->out, g->want, want * 4) != 0) return "wrong elements";
    if (!og_all_poison(g->out + want, (cap - want) * 4)) return "wrote past the output";
    return NULL;
}

/* ---- the polynomial cases ------------------------------------------------------------------ */

static const float XS[3] = {-1.0f, 0.0f, 1.0f};

/* Integer coefficients in [-8, 8] into g->in (as floats). */
static void make_coeffs(og_state *g, size_t n)
{
    float *a = (float *)g->in;
    for (size_t i = 0; i < n; i++) a[i] = (float)((int)(og_rng(g->h) % 17) - 8);
}

static float horner_prefix(const float *a, size_t d, size_t k, float x)
{
    float r = 0.0f;
    for (size_t i = 0; i <= k; i++) r = r * x + a[d - i];
    return r;
}

static const char *poly_eval_check(og_state *g, sk_context *ctx, size_t n)
{
    const float *a = (const float *)g->in;
    for (size_t k = 0; k < 3; k++) {
        double r = 12345.0;
        sk_status st = sk_poly_eval(ctx, SK_FLOAT32, g->src, XS[k], &r, n);
        if (st != SK_OK) return sk_status_name(st);
        if (r != (double)horner_prefix(a, n - 1, n - 1, XS[k])) return "wrong value";
    }
    return NULL;
}

/* n points cycling through XS; in place when n is odd. */
static const char *poly_points_check(og_state *g, sk_context *ctx, size_t n)
{
    const float *a = (const float *)g->in;
    float *pts = (float *)g->want, *vals = (float *)g->out;
    size_t ncoef = 1 + n % 37, cap = 2 * g->cap + GUARD;
    cl_mem dst = n % 2 ? g->desc : g->dst; /* in place for odd n */
    for (size_t k = 0; k < n; k++) pts[k] = XS[k % 3];
    memset(vals, OG_POISON, cap * 4);
    if (!og_write(g->h, dst, vals, cap * 4) || !og_write(g->h, g->desc, pts, n * 4))
        return "uploading failed";
    sk_status st = sk_poly_eval_points(ctx, SK_FLOAT32, g->src, g->desc, dst, ncoef, n);
    if (st != SK_OK) return sk_status_name(st);
    if (!og_read(g->h, dst, vals, cap * 4)) return "reading back failed";
    for (size_t k = 0; k < n; k++)
        if (vals[k] != horner_prefix(a, ncoef - 1, ncoef - 1, XS[k % 3])) return "wrong value";
    return og_all_poison(vals + n, (cap - n) * 4) ? NULL : "wrote past the values";
}

static const char *poly_prefixes_check(og_state *g, sk_context *ctx, size_t n)
{
    const float *a = (const float *)g->in;
    float *out = (float *)g->out;
    size_t cap = 2 * g->cap + GUARD;
    for (size_t x = 0; x < 3; x++) {
        memset(out, OG_POISON, cap * 4);
        if (!og_write(g->h, g->dst, out, cap * 4)) return "uploading failed";
        sk_status st = sk_poly_horner_prefixes(ctx, SK_FLOAT32, g->src, XS[x], g->dst, n);
        if (st != SK_OK) return sk_status_name(st);
        if (!og_read(g->h, g->dst, out, cap * 4)) return "reading back failed";
        for (size_t k = 0; k < n; k++)
            if (out[k] != horner_prefix(a, n - 1, k, XS[x])) return "wrong prefix";
        if (!og_all_poison(out + n, (cap - n) * 4)) return "wrote past the prefixes";
    }
    return NULL;
}

static const char *poly_check(og_state *g, sk_context *ctx, og_case c, size_t n)
{
    make_coeffs(g, n);
    if (!og_write(g->h, g->src, g->in, n * 4)) return "uploading failed";
    if (c == POLY_EVAL) return poly_eval_check(g, ctx, n);
    if (c == POLY_POINTS) return poly_points_check(g, ctx, n);
    return poly_prefixes_check(g, ctx, n);
}

/* ---- configurations ------------------------------------------------------------------------ */

/* Oclgrind 21.10 cannot create the GPU-shape segment-totals kernels at some
 * tile sizes: its interpreter lacks the LLVM intrinsic
 * llvm.experimental.noalias.scope.decl that its own compiler emits when it
 * inlines the 24-byte lifted struct there ("Undefined external function",
 * then CL_INVALID_KERNEL_NAME). PoCL and NVIDIA build and run them, and the
 * tests check their results; under Oclgrind the wg=8 x 4 configuration,
 * which it can load, covers the same kernels. */
static bool oclgrind_cannot_load(const og_config *cf, og_case c)
{
    return c == REDUCE_F8 && cf->shape == SK_SHAPE_GPU && !(cf->wg == 8 && cf->items == 4);
}

/* Each case on its own context: --cpu-builtin skip runs the segmented cases
 * by flags, only the others. */
static int run_config(og_state *g, const og_config *cf)
{
    og_select sel = g->h->select;
    int failures = 0;
    for (int c = 0; c < CASE_COUNT; c++) {
        if (g->only && !strstr(case_names[c], g->only)) continue;
        bool plain = !is_offsets((og_case)c) && c < POLY_EVAL;
        if ((sel == OG_SKIP_CPU_BUILTIN && !plain) || (sel == OG_ONLY_CPU_BUILTIN && plain))
            continue;
        if (oclgrind_cannot_load(cf, (og_case)c)) continue;
        sk_context *ctx = og_open(g->h, cf);
        if (!ctx) return failures + 1;
        for (size_t s = 0; s < OG_MAX_SIZES && cf->sizes[s]; s++) {
            size_t n = cf->sizes[s];
            const char *why = c >= POLY_EVAL ? poly_check(g, ctx, (og_case)c, n)
                                             : seg_check(g, ctx, (og_case)c, n);
            if (!why) continue;
            fprintf(stderr, "og_segscan: FAIL %s, %s, n=%zu: %s (seed %" PRIu64 ")\n", cf->name,
                    case_names[c], n, why, g->h->seed);
            failures++;
        }
    }
    return og_config_done(g->h, cf, failures);
}

static int run_all(og_harness *h)
{
    og_state *g = h->user;
    int failures = 0;
    g->h = h;
    g->cap = og_largest_size(configs, CONFIG_COUNT);
    size_t bytes = (2 * g->cap + 2 * GUARD) * 8;
    if (!(g->in = og_host(h, bytes)) || !(g->out = og_host(h, bytes)) ||
        !(g->want = og_host(h, bytes)) || !(g->heads = og_host(h, bytes)) ||
        !(g->descbuf = og_host(h, bytes)) || !(g->src = og_buffer(h, bytes)) ||
        !(g->desc = og_buffer(h, bytes)) || !(g->dst = og_buffer(h, bytes)))
        return 1;
    for (size_t c = 0; c < CONFIG_COUNT; c++) failures += run_config(g, &configs[c]);
    return failures;
}

static og_state state;

static int option(og_harness *h, const char *name, const char *value)
{
    (void)h;
    if (strcmp(name, "--case") != 0) return 0;
    state.only = value;
    return 1;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_segscan", " [--case TEXT]", option, run_all};
    return og_main(&def, &state, argc, argv);
}
