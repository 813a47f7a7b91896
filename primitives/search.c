/*
 * search.c - vectorised lower_bound and upper_bound of many needles in a
 * sorted haystack (sk_search_lower_bound, sk_search_upper_bound), and
 * their host-array forms: validate, plan, get the cached program, enqueue.
 *
 * One launch (kernels/search.cl): on the GPU shape a work-item per needle
 * searches the whole haystack; on the CPU shape a work-item per chunk of
 * needles searches each from the last needle's bound, so needles in order
 * walk the haystack once. Keys are ordered as the radix sort orders them
 * (sort.h's key table, kernels/sort_keys.cl's transform and binary
 * search, which the merge uses too): integers by value, floats in IEEE
 * totalOrder, descending as the exact reverse. Indices are uint64.
 */
#include "sort.h"

#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_STAGING_ID(search_needles_in, "search, host form: needles");

/* GPU shape: the work-group of the needles' searches (the one-item
 * kernels' 256 was 5-7% slower at 2^22-2^24 on an H200,
 * bench/results/nvidia-h200-segsort-runs/run3). */
#define SEARCH_WG 64

/* ---- requests ------------------------------------------------------------ */

typedef struct search_req {
    sk_type key_type;
    size_t nh, nn;                /* haystack keys, needles */
    sk_sort_order order;
    bool upper;                   /* upper_bound; else lower_bound */
} search_req;

static sk_status validate_req(sk_context *ctx, const search_req *r)
{
    size_t bytes = 0, ks = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__sort_check_keys(ctx, r->key_type, r->order, 0, false));
    ks = sk_type_size(r->key_type);
    SK_TRY(sk__byte_size(ctx, r->nh, ks, &bytes));
    SK_TRY(sk__byte_size(ctx, r->nn, ks, &bytes));
    SK_TRY(sk__byte_size(ctx, r->nn, sizeof(cl_ulong), &bytes));
out:
    return st;
}

/* Every buffer given and large enough; the indices overlapping neither
 * input. */
static sk_status validate_io(sk_context *ctx, const search_req *r, cl_mem hay, cl_mem needles,
                             cl_mem indices)
{
    size_t ks = sk_type_size(r->key_type), ib = r->nn * sizeof(cl_ulong);
    sk_status st = SK_OK;
    SK_TRY(sk__check_buffer(ctx, hay, r->nh * ks, "haystack"));
    SK_TRY(sk__check_buffer(ctx, needles, r->nn * ks, "needles"));
    SK_TRY(sk__check_buffer(ctx, indices, ib, "indices"));
    if (sk__buffers_overlap(indices, ib, hay, r->nh * ks))
        return sk__fail(ctx, SK_E_INVALID_ARG, "indices overlaps haystack");
    if (sk__buffers_overlap(indices, ib, needles, r->nn * ks))
        return sk__fail(ctx, SK_E_INVALID_ARG, "indices overlaps needles");
out:
    return st;
}

/* ---- planning ------------------------------------------------------------- */

/* GPU: a work-item per needle. CPU: `parts` chunks of `chunk` needles. */
typedef struct search_plan {
    sk__tuning t;
    bool gpu;
    size_t parts, chunk;
    const sk__program *prog;
} search_plan;

static search_plan plan_for(const sk_context *ctx, const search_req *r)
{
    search_plan p = {0};
    p.t = sk__tuning_for(ctx, SK_FAMILY_SEARCH, sk_type_size(r->key_type));
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    size_t chunks = r->nn < p.t.cpu_serial_below ? 1 : p.t.cpu_chunks;
    p.chunk = div_up(r->nn, chunks < r->nn ? chunks : r->nn);
    p.parts = div_up(r->nn, p.chunk);
    return p;
}

/* ---- programs ------------------------------------------------------------- */

static const char *const gpu_kernels[] = {"sk_search_needles"};
static const char *const cpu_kernels[] = {"sk_search_chunks"};

static char *search_config(const search_plan *p, const search_req *r)
{
    sk__str s = {0};
    sk__config_key(&s, r->key_type);
    sk__str_addf(&s, "#define SK_SHAPE_%s 1\n", p->gpu ? "GPU" : "CPU");
    sk__str_add_source(&s, "sort_keys");
    return sk__str_take(&s);
}

static sk_status open_program(sk_context *ctx, search_plan *p, const search_req *r)
{
    return sk__program_take(ctx, "search", search_config(p, r),
                            p->gpu ? gpu_kernels : cpu_kernels, 1, &p->prog);
}

/* ---- the search ----------------------------------------------------------- */

/* Searches validated buffers (nn > 0). */
static sk_status search_run(sk_context *ctx, const search_req *r, cl_mem hay, cl_mem needles,
                            cl_mem indices)
{
    search_plan p = plan_for(ctx, r);
    size_t ks = sk_type_size(r->key_type);
    uint64_t flip = sort_flip(r->order, ks);
    sk_status st = open_program(ctx, &p, r);
    if (st != SK_OK) return st;

    sk__args a;
    sk__args_init(&a, ctx, p.prog, 0);
    sk__arg_mem(&a, hay);
    sk__arg_mem(&a, needles);
    sk__arg_mem(&a, indices);
    sk__arg_ulong(&a, "nh", r->nh);
    sk__arg_ulong(&a, "nn", r->nn);
    if (!p.gpu) sk__arg_ulong(&a, "chunk", p.chunk);
    sk__arg_word(&a, "flip", ks, flip);
    sk__arg_uint(&a, "upper", r->upper ? 1u : 0u);
    return p.gpu ? sk__args_launch_each_by(&a, r->nn, SEARCH_WG) : sk__args_launch(&a, p.parts, 1);
}

static sk_status search_mem(sk_context *ctx, const search_req *r, cl_mem hay, cl_mem needles,
                            cl_mem indices)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r);
    if (st == SK_OK) st = validate_io(ctx, r, hay, needles, indices);
    if (st == SK_OK && r->nn) st = search_run(ctx, r, hay, needles, indices);
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status check_host(sk_context *ctx, const search_req *r, const void *hay,
                            const void *needles, const uint64_t *indices)
{
    size_t ks = sk_type_size(r->key_type);
    sk_status st = SK_OK;
    if (r->nh && !hay) return sk__fail(ctx, SK_E_INVALID_ARG, "haystack is NULL");
    if (r->nn && !needles) return sk__fail(ctx, SK_E_INVALID_ARG, "needles is NULL");
    if (r->nn && !indices) return sk__fail(ctx, SK_E_INVALID_ARG, "indices is NULL");
    SK_TRY(sk__fits_device(ctx, r->nh * ks, "the haystack's device copy"));
    SK_TRY(sk__fits_device(ctx, r->nn * ks, "the needles' device copy"));
    SK_TRY(sk__fits_device(ctx, r->nn * sizeof(cl_ulong), "the indices' device copy"));
out:
    return st;
}

static sk_status search_host(sk_context *ctx, const search_req *r, const void *hay,
                             const void *needles, uint64_t *indices)
{
    SK_ENTER(ctx);
    size_t ks = 0, ib = r->nn * sizeof(cl_ulong);
    cl_mem dh = NULL, dn = NULL, di = NULL;
    sk_status st = SK_OK;
    SK_TRY(validate_req(ctx, r));
    SK_TRY(check_host(ctx, r, hay, needles, indices));
    if (r->nn == 0) return SK_OK;
    if (r->nh == 0) { /* every needle's bound is 0 */
        memset(indices, 0, ib);
        return SK_OK;
    }
    ks = sk_type_size(r->key_type);
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, hay, r->nh, ks, &dh));
    SK_TRY(sk__stage_in(ctx, &search_needles_in, needles, r->nn, ks, &dn));
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, ib, &di));
    SK_TRY(search_run(ctx, r, dh, dn, di));
    SK_TRY(sk__download(ctx, di, 0, indices, ib));
out:
    if (st != SK_OK) clFinish(ctx->queue); /* no transfer may outlive the call */
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_search_lower_bound(sk_context *ctx, sk_type key_type, cl_mem haystack,
                                cl_mem needles, cl_mem indices, size_t n_haystack,
                                size_t n_needles, sk_sort_order order)
{
    search_req r = {key_type, n_haystack, n_needles, order, false};
    return search_mem(ctx, &r, haystack, needles, indices);
}

sk_status sk_search_upper_bound(sk_context *ctx, sk_type key_type, cl_mem haystack,
                                cl_mem needles, cl_mem indices, size_t n_haystack,
                                size_t n_needles, sk_sort_order order)
{
    search_req r = {key_type, n_haystack, n_needles, order, true};
    return search_mem(ctx, &r, haystack, needles, indices);
}

sk_status sk_search_lower_bound_host(sk_context *ctx, sk_type key_type, const void *haystack,
                                     const void *needles, uint64_t *indices, size_t n_haystack,
                                     size_t n_needles, sk_sort_order order)
{
    search_req r = {key_type, n_haystack, n_needles, order, false};
    return search_host(ctx, &r, haystack, needles, indices);
}

sk_status sk_search_upper_bound_host(sk_context *ctx, sk_type key_type, const void *haystack,
                                     const void *needles, uint64_t *indices, size_t n_haystack,
                                     size_t n_needles, sk_sort_order order)
{
    search_req r = {key_type, n_haystack, n_needles, order, true};
    return search_host(ctx, &r, haystack, needles, indices);
}
