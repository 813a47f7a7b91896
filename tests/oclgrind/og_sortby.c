/*
 * og_sortby.c - runs every kernel of the comparator sort and of the sort
 * by fields at one small size per shape, for Oclgrind.
 *
 * Meant to run under `oclgrind --data-races --uninitialized --check-api`
 * (tests/oclgrind/run.sh, plain form: every check on both shapes). Each
 * configuration forces a kernel shape and a tiny tile (or three chunks),
 * so that 100 keys span several work-groups and several merge passes (GPU:
 * 9 tiles of 12, four passes; CPU: three chunks, two passes, the keys
 * copied to scratch first). Comparator sorts: uint32 descending (keys
 * only), a (major, minor) struct with ties (8-byte values) and char[12]
 * strings (12-byte values); the sort by fields sorts the struct by both
 * fields (4-byte values) in the GPU configuration only: its own kernels
 * take no shape, and the radix sort's CPU shape runs the scan's 8-wide
 * code that Oclgrind 21.10's --uninitialized plugin crashes on (og_sort
 * checks that shape without it). Every result is checked against
 * tests/ref/ref_sortby.c: values are the elements' positions, so
 * stability is checked too, and the guards past n must stay poisoned.
 * Exit status: 0 when all results are right, 1 on a wrong result or a
 * failing call, 2 on bad usage.
 *
 *   og_sortby [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]
 *
 * The sorts have no part that --cpu-builtin names: every configuration
 * runs whatever it says.
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "../ref/ref_sortby.h"

#include <stdio.h>
#include <string.h>

#define N 100
#define GUARD 4
#define MAX_ELEM 12

static const og_config configs[] = {
    {"gpu wg=4 items=3", SK_SHAPE_GPU, .wg = 4, .items = 3, .sizes = {N}},
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,
     .sizes = {N}},
};

#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* ---- the element types and their orders --------------------------------------- */

typedef struct mm {
    int32_t major;
    float minor;
} mm;

static bool less_uint_desc(const void *a, const void *b)
{
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return x > y;
}

static bool less_mm(const void *a, const void *b)
{
    mm x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return x.major < y.major || (x.major == y.major && x.minor < y.minor);
}

static bool less_name(const void *a, const void *b) { return memcmp(a, b, 12) < 0; }

static const char MM_PREAMBLE[] = "typedef struct og_mm { int major; float minor; } og_mm;\n";

static const sk_comparator CMP_UINT_DESC = {"uint", 4, "a > b", NULL};
static const sk_comparator CMP_MM = {
    "og_mm", sizeof(mm), "a.major < b.major || (a.major == b.major && a.minor < b.minor)",
    MM_PREAMBLE};
static const sk_comparator CMP_NAME = {
    "og_name", 12, "og_name_less(a, b)",
    "typedef struct og_name { uchar c[12]; } og_name;\n"
    "bool og_name_less(og_name a, og_name b)\n{\n"
    "    for (int i = 0; i < 12; i++)\n"
    "        if (a.c[i] != b.c[i]) return a.c[i] < b.c[i];\n"
    "    return false;\n}\n"};

static const sk_sort_field MM_FIELDS[] = {{"x.major", SK_INT32, SK_ASCENDING},
                                          {"x.minor", SK_FLOAT32, SK_ASCENDING}};
static const sk_field_order BY_MM = {"og_mm", sizeof(mm), MM_PREAMBLE, MM_FIELDS, 2};

typedef struct og_case {
    const char *name;
    const sk_comparator *cmp;     /* NULL: the sort by fields (BY_MM) */
    skt_ref_less_fn less;
    size_t es, vs;                /* element and value bytes (vs 0: keys only) */
} og_case;

static const og_case cases[] = {
    {"uint32 descending", &CMP_UINT_DESC, less_uint_desc, 4, 0},
    {"(major, minor)", &CMP_MM, less_mm, sizeof(mm), 8},
    {"char[12]", &CMP_NAME, less_name, 12, 12},
    {"(major, minor) by fields", NULL, less_mm, sizeof(mm), 4},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

/* ---- one sort --------------------------------------------------------------------- */

typedef struct og_state {
    og_harness *h;
    cl_mem k, v;
    unsigned char in[N * MAX_ELEM], vin[N * MAX_ELEM];
    unsigned char out[(N + GUARD) * MAX_ELEM], vout[(N + GUARD) * MAX_ELEM];
    size_t perm[N];
} og_state;

/* Random elements with ties: majors and minors from a few, names of 0 to
 * 3 bytes of 'a', 'b', 0xE9; values the positions. */
static void fill(og_state *g, const og_case *c)
{
    static const float minors[3] = {-1.5f, 0.25f, 8.0f};
    static const unsigned char letters[3] = {'a', 'b', 0xE9};
    memset(g->in, 0, sizeof g->in);
    for (size_t i = 0; i < N; i++) {
        unsigned char *e = g->in + i * c->es;
        if (c->es == 4) {
            uint32_t x = (uint32_t)og_rng(g->h) % 7 * 0x2aaaaaabu;
            memcpy(e, &x, 4);
        } else if (c->es == sizeof(mm)) {
            mm x = {(int32_t)(og_rng(g->h) % 5) - 2, minors[og_rng(g->h) % 3]};
            memcpy(e, &x, sizeof x);
        } else {
            size_t len = og_rng(g->h) % 4;
            for (size_t j = 0; j < len; j++) e[j] = letters[og_rng(g->h) % 3];
        }
        uint64_t pos[2] = {i, ~(uint64_t)i};
        if (c->vs) memcpy(g->vin + i * c->vs, pos, c->vs);
    }
}

static sk_status sort(sk_context *ctx, og_state *g, const og_case *c)
{
    if (!c->cmp) return sk_sort_pairs_by_fields(ctx, &BY_MM, c->vs, g->k, g->v, N);
    if (c->vs) return sk_sort_pairs_by_less(ctx, c->cmp, c->vs, g->k, g->v, N);
    return sk_sort_by_less(ctx, c->cmp, g->k, N);
}

/* The keys and values the reference's permutation gives, then the guards. */
static int verify(og_state *g, const og_case *c, const char *what)
{
    int bad = 0;
    skt_ref_stable_sort_perm(g->in, N, c->es, c->less, g->perm);
    for (size_t i = 0; i < N; i++) {
        bad |= memcmp(g->out + i * c->es, g->in + g->perm[i] * c->es, c->es) != 0;
        if (c->vs) bad |= memcmp(g->vout + i * c->vs, g->vin + g->perm[i] * c->vs, c->vs) != 0;
    }
    bad |= !og_all_poison(g->out + N * c->es, GUARD * c->es);
    if (c->vs) bad |= !og_all_poison(g->vout + N * c->vs, GUARD * c->vs);
    if (bad) fprintf(stderr, "og_sortby: WRONG %s (keys, values or past n)\n", what);
    return bad;
}

static int run_case(og_state *g, sk_context *ctx, const og_case *c, const char *cfg)
{
    char what[160];
    size_t vs = c->vs ? c->vs : 4;
    snprintf(what, sizeof what, "%s: %s, %zu-byte values, n=%d", cfg, c->name, c->vs, N);
    fill(g, c);
    memcpy(g->out, g->in, N * c->es);
    memset(g->out + N * c->es, OG_POISON, GUARD * c->es);
    memcpy(g->vout, g->vin, N * vs);
    memset(g->vout + N * vs, OG_POISON, GUARD * vs);
    if (!og_write(g->h, g->k, g->out, (N + GUARD) * c->es) ||
        !og_write(g->h, g->v, g->vout, (N + GUARD) * vs) ||
        !og_sk_ok(g->h, ctx, sort(ctx, g, c), what) ||
        !og_read(g->h, g->k, g->out, (N + GUARD) * c->es) ||
        !og_read(g->h, g->v, g->vout, (N + GUARD) * vs))
        return 1;
    return verify(g, c, what);
}

static int run_config(og_state *g, const og_config *cfg)
{
    int failures = 0;
    sk_context *ctx = og_open(g->h, cfg);
    if (!ctx) return 1;
    for (size_t k = 0; k < CASE_COUNT; k++)
        if (cases[k].cmp || cfg->shape == SK_SHAPE_GPU)
            failures += run_case(g, ctx, &cases[k], cfg->name);
    return og_config_done(g->h, cfg, failures);
}

static int run_all(og_harness *h)
{
    static og_state g;
    int failures = 0;
    size_t bytes = (N + GUARD) * MAX_ELEM;
    g.h = h;
    if (!(g.k = og_buffer(h, bytes)) || !(g.v = og_buffer(h, bytes))) return 1;
    for (size_t c = 0; c < CONFIG_COUNT && !failures; c++)
        failures += run_config(&g, &configs[c]);
    return failures;
}

int main(int argc, char **argv)
{
    static const og_driver_def def = {"og_sortby", "", NULL, run_all};
    return og_main(&def, NULL, argc, argv);
}
