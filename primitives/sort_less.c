/*
 * sort_less.c - the comparator sort: keys of a caller's type (sk_comparator:
 * an OpenCL C type and a less expression), or keys with values of any
 * size, sorted stably by a merge sort: validate, plan, get the cached
 * program, enqueue; and the host-array forms.
 *
 * One program per (type, less, preamble, value size, shape): the caller's
 * order (kernels/sort_keys.cl with SK_KEY_LESS), the merge's kernels
 * (kernels/merge.cl) and the first pass (kernels/sort_less.cl). The first
 * pass sorts every tile (GPU shape) or chunk (CPU shape); then each pass
 * merges neighbouring sorted runs, twice as long each time, by the merge's
 * own launches (sk__merge_pass_run with a run width), until one run holds
 * all n keys. The passes go back and forth between the caller's buffers and
 * scratch; where their count is even the keys are first copied to the
 * scratch, so that the last pass writes the caller's buffers.
 */
#include "sort.h"

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(less_keys, "comparator sort: keys ping-pong");
SK_SCRATCH_ID(less_values, "comparator sort: values ping-pong");
SK_SCRATCH_ID(less_splits, "comparator sort: split points");

/* ---- requests ------------------------------------------------------------ */

typedef struct less_req {
    const sk_comparator *cmp;
    size_t value_size;            /* 0: keys only */
    size_t n;
} less_req;

static sk_status validate_comparator(sk_context *ctx, const sk_comparator *c)
{
    if (!c) return sk__fail(ctx, SK_E_INVALID_ARG, "comparator is NULL");
    if (!c->type || !*c->type || !c->less || !*c->less)
        return sk__fail(ctx, SK_E_INVALID_ARG, "comparator needs a type and a less expression");
    if (c->size == 0) return sk__fail(ctx, SK_E_INVALID_ARG, "comparator size is 0");
    const char *texts[] = {c->type, c->less, c->preamble};
    const char *what[] = {"comparator's type", "comparator's less", "comparator's preamble"};
    for (int i = 0; i < 3; i++)
        if (sk__check_user_code(ctx, what[i], texts[i]) != SK_OK) return SK_E_INVALID_ARG;
    return SK_OK;
}

static sk_status validate_req(sk_context *ctx, const less_req *r, bool pairs)
{
    sk_status st = validate_comparator(ctx, r->cmp);
    if (st != SK_OK) return st;
    if (pairs && r->value_size == 0) return sk__fail(ctx, SK_E_INVALID_ARG, "value size 0");
    size_t ks = r->cmp->size, vs = r->value_size;
    if (r->n > SIZE_MAX / ks || (vs && r->n > SIZE_MAX / vs))
        return sk__fail(ctx, SK_E_SIZE, "%zu elements overflow size_t", r->n);
    return SK_OK;
}

static sk_status check_buffers(sk_context *ctx, const less_req *r, cl_mem keys, cl_mem values)
{
    size_t kb = r->n * r->cmp->size, vb = r->n * r->value_size;
    sk_status st = sk__check_buffer(ctx, keys, kb, "keys");
    if (st != SK_OK || !r->value_size) return st;
    st = sk__check_buffer(ctx, values, vb, "values");
    if (st == SK_OK && sk__buffers_overlap(keys, kb, values, vb))
        st = sk__fail(ctx, SK_E_INVALID_ARG, "keys and values overlap");
    return st;
}

/* ---- planning ------------------------------------------------------------- */

/* Sorted first as `parts` tiles (GPU) or chunks (CPU) of `chunk` keys,
 * then `passes` merges of runs twice as long each. */
typedef struct less_plan {
    sk__tuning t;
    bool gpu;
    size_t parts, chunk;
    unsigned passes;
    const sk__program *prog;
} less_plan;

/* Local memory of the GPU shape's tile. */
static size_t gpu_local_bytes(const less_plan *p, const less_req *r)
{
    return sk__merge_tile_local_bytes(p->t.wg_size * p->t.items, r->cmp->size,
                                      r->value_size != 0);
}

static void split_parts(less_plan *p, size_t n)
{
    split_tiles(&p->t, p->gpu, n, &p->chunk, &p->parts);
    p->passes = 0;
    for (size_t w = p->chunk; w < n; w *= 2) p->passes++;
}

static less_plan plan_for(const sk_context *ctx, const less_req *r)
{
    less_plan p = {0};
    p.t = sk__tuning_for(ctx, SK_FAMILY_MERGE_SORT,
                         r->cmp->size + (r->value_size ? sizeof(cl_uint) : 0));
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    while (p.gpu && p.t.items > 1 && gpu_local_bytes(&p, r) > ctx->local_mem_bytes)
        p.t.items /= 2;
    while (p.gpu && p.t.wg_size > 1 && gpu_local_bytes(&p, r) > ctx->local_mem_bytes)
        p.t.wg_size /= 2;
    split_parts(&p, r->n);
    return p;
}

/* ---- programs ------------------------------------------------------------- */

enum { K_PARTITION, K_MERGE, K_FIRST, K_MERGE_SEARCH };

static const char *const gpu_kernels[] = {"sk_merge_partition", "sk_merge_tiles",
                                          "sk_sort_less_tiles", "sk_merge_tiles_search"};
static const char *const cpu_kernels[] = {"sk_merge_partition", "sk_merge_chunks",
                                          "sk_sort_less_chunks"};

/* The caller's preamble, type and less (a function of its own, after a
 * check that the type has the caller's size), the values, the shape, the
 * order (sort_keys.cl) and the merge (merge.cl); sort_less.cl follows. */
static char *less_config(const less_plan *p, const less_req *r)
{
    const sk_comparator *c = r->cmp;
    sk__str s = {0};
    sk__str_addf(&s, SK_FP64_PRAGMA);
    if (c->preamble) {
        sk__str_add(&s, c->preamble);
        sk__str_add(&s, "\n");
    }
    sk__str_addf(&s, "#define SK_KEY_T %s\n", c->type);
    sk__str_addf(&s, "typedef char sk_key_size_must_match_host"
                     "[(sizeof(SK_KEY_T) == %zu) ? 1 : -1];\n", c->size);
    sk__config_function(&s, "bool sk_less(SK_KEY_T a, SK_KEY_T b)", c->less);
    sk__str_addf(&s, "#define SK_KEY_LESS 1\n");
    if (r->value_size) sk__config_value_type(&s, r->value_size);
    sk__config_tiles_keys(&s, &p->t, p->gpu);
    sk__str_add_source(&s, "merge");
    return sk__str_take(&s);
}

static sk_status less_program(sk_context *ctx, less_plan *p, const less_req *r)
{
    return sk__program_take(ctx, "sort_less", less_config(p, r),
                            p->gpu ? gpu_kernels : cpu_kernels, p->gpu ? 4 : 3, &p->prog);
}

/* Builds (or finds) the program; on the GPU shape, where a kernel cannot
 * run the planned work-group, builds it again at the size all can. */
static sk_status open_program(sk_context *ctx, less_plan *p, const less_req *r)
{
    bool lowered = false;
    sk_status st = less_program(ctx, p, r);
    if (st == SK_OK && p->gpu)
        st = sk__fit_wg(ctx, p->prog, "comparator sort", &p->t.wg_size, &lowered);
    if (st != SK_OK || !lowered) return st;
    split_parts(p, r->n);
    return less_program(ctx, p, r);
}

/* ---- the sort ---------------------------------------------------------------- */

/* The keys (and values) of one step: read from k, v; written to k2, v2. */
typedef struct less_bufs {
    cl_mem k, v, k2, v2;
} less_bufs;

/* Every tile or chunk of b->k sorted into b->k2 (values alike). */
static sk_status run_first(sk_context *ctx, const less_plan *p, const less_req *r,
                           const less_bufs *b)
{
    size_t local = p->gpu ? p->t.wg_size : 1;
    sk__args a;
    sk__args_init(&a, ctx, p->prog, K_FIRST);
    sk__arg_mem(&a, b->k);
    sk__arg_mem(&a, b->k2);
    if (r->value_size) {
        sk__arg_mem(&a, b->v);
        sk__arg_mem(&a, b->v2);
    }
    sk__arg_ulong(&a, "n", r->n);
    if (!p->gpu) sk__arg_ulong(&a, "chunk", p->chunk);
    return sk__args_launch(&a, p->parts * local, local);
}

/* The next step's buffers: its output is this one's input. */
static less_bufs swapped(less_bufs b)
{
    return (less_bufs){b.k2, b.v2, b.k, b.v};
}

/* Sorts validated buffers. */
static sk_status less_run(sk_context *ctx, const less_req *r, cl_mem keys, cl_mem values)
{
    if (r->n < 2) return SK_OK;
    less_plan p = plan_for(ctx, r);
    size_t kb = r->n * r->cmp->size, vb = r->n * r->value_size;
    less_bufs b = {keys, values, NULL, NULL};
    cl_mem splits = NULL;
    sk_status st = SK_OK;
    if (p.gpu && gpu_local_bytes(&p, r) > ctx->local_mem_bytes)
        return sk__fail(ctx, SK_E_UNSUPPORTED, "a %zu-byte element does not fit the device's "
                        "local memory (GPU shape)", r->cmp->size);
    SK_TRY(open_program(ctx, &p, r));
    SK_TRY(sk__scratch_get(ctx, &less_keys, kb, &b.k2));
    if (vb) SK_TRY(sk__scratch_get(ctx, &less_values, vb, &b.v2));
    if (p.passes) SK_TRY(sk__scratch_get(ctx, &less_splits, (p.parts + 1) * sizeof(cl_ulong),
                                         &splits));
    if (p.passes % 2 == 0) { /* then the first step writes the caller's buffers */
        SK_TRY(sk__copy(ctx, keys, 0, b.k2, 0, kb));
        if (vb) SK_TRY(sk__copy(ctx, values, 0, b.v2, 0, vb));
        b = swapped(b);
    }
    SK_TRY(run_first(ctx, &p, r, &b));
    for (size_t w = p.chunk; w < r->n; w *= 2) {
        b = swapped(b);
        sk__merge_pass m = {.prog = p.prog, .k_partition = K_PARTITION, .k_merge = K_MERGE,
                            .k_merge_search = K_MERGE_SEARCH,
                            .gpu = p.gpu, .wg = p.t.wg_size, .parts = p.parts,
                            .step = p.chunk, .na = r->n, .width = w,
                            .order_size = sizeof(cl_uint), .a = b.k, .b = b.k, .av = b.v,
                            .bv = b.v, .dst = b.k2, .dv = b.v2, .splits = splits,
                            .search_max_parts = p.t.merge_search_max_parts};
        SK_TRY(sk__merge_pass_run(ctx, &m));
    }
out:
    return st;
}

static sk_status less_mem(sk_context *ctx, const less_req *r, cl_mem keys, cl_mem values,
                          bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st == SK_OK) st = check_buffers(ctx, r, keys, values);
    if (st == SK_OK) st = less_run(ctx, r, keys, values);
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status less_run_in_place(sk_context *ctx, const void *req, cl_mem keys, cl_mem values)
{
    return less_run(ctx, req, keys, values);
}

static sk_status less_host(sk_context *ctx, const less_req *r, void *keys, void *values,
                           bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st != SK_OK) return st;
    if ((st = sk__check_host_arrays(ctx, r->n, keys, values, pairs, "keys")) != SK_OK) return st;
    if (r->n < 2) return SK_OK;
    return sk__host_in_place(ctx, keys, r->n * r->cmp->size, values, r->n * r->value_size,
                             "the keys' device copy", less_run_in_place, r);
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_sort_by_less(sk_context *ctx, const sk_comparator *cmp, cl_mem keys, size_t n)
{
    less_req r = {cmp, 0, n};
    return less_mem(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs_by_less(sk_context *ctx, const sk_comparator *cmp, size_t value_size,
                                cl_mem keys, cl_mem values, size_t n)
{
    less_req r = {cmp, value_size, n};
    return less_mem(ctx, &r, keys, values, true);
}

sk_status sk_sort_by_less_host(sk_context *ctx, const sk_comparator *cmp, void *keys, size_t n)
{
    less_req r = {cmp, 0, n};
    return less_host(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs_by_less_host(sk_context *ctx, const sk_comparator *cmp,
                                     size_t value_size, void *keys, void *values, size_t n)
{
    less_req r = {cmp, value_size, n};
    return less_host(ctx, &r, keys, values, true);
}
