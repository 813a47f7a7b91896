/*
 * merge.c - stable merge of two sorted sequences (keys, or keys with
 * values) by merge path: validate, plan, get the cached program, enqueue;
 * and the host-array forms.
 *
 * Two launches (kernels/merge.cl): sk_merge_partition finds, for every
 * boundary between parts (chunks on the CPU shape, tiles on the GPU shape),
 * by a binary search along that output diagonal, how many of the outputs
 * before it come from the first input; then every part merges exactly its
 * share of the outputs (sk__merge_pass_run, which the comparator sort's
 * passes take too). Keys are ordered as the radix sort orders them
 * (sort.h's key table, kernels/sort_keys.cl's transform): integers by
 * value, floats in IEEE totalOrder, descending as the exact reverse.
 */
#include "sort.h"

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(merge_splits, "merge: split points");
SK_STAGING_ID(merge_b_keys, "merge, host form: second keys");
SK_STAGING_ID(merge_b_values, "merge, host form: second values");
SK_STAGING_ID(merge_values_out, "merge, host form: values out");

/* ---- requests ------------------------------------------------------------ */

typedef struct merge_req {
    sk_type key_type;
    size_t value_size;            /* 0: keys only */
    size_t na, nb;
    sk_sort_order order;
} merge_req;

/* The buffers of one call (or the host arrays' device copies); the value
 * buffers are NULL for keys only. */
typedef struct merge_io {
    cl_mem ak, av, bk, bv, dk, dv;
} merge_io;

static sk_status validate_req(sk_context *ctx, const merge_req *r, bool pairs)
{
    size_t bytes = 0, ks = sk_type_size(r->key_type);
    sk_status st = SK_OK;
    SK_TRY(sk__sort_check_keys(ctx, r->key_type, r->order, r->value_size, pairs));
    if (r->na > SIZE_MAX - r->nb)
        return sk__fail(ctx, SK_E_SIZE, "%zu + %zu keys overflow size_t", r->na, r->nb);
    SK_TRY(sk__byte_size(ctx, r->na + r->nb, ks, &bytes));
    SK_TRY(sk__byte_size(ctx, r->na + r->nb, r->value_size, &bytes));
out:
    return st;
}

/* Every buffer given and large enough; neither output overlapping any
 * other buffer of the call. */
static sk_status validate_io(sk_context *ctx, const merge_req *r, const merge_io *io)
{
    size_t ks = sk_type_size(r->key_type), vs = r->value_size, n = r->na + r->nb;
    const cl_mem mems[] = {io->ak, io->bk, io->dk, io->av, io->bv, io->dv};
    const size_t bytes[] = {r->na * ks, r->nb * ks, n * ks, r->na * vs, r->nb * vs, n * vs};
    static const char *const names[] = {"a_keys", "b_keys", "dst_keys",
                                        "a_values", "b_values", "dst_values"};
    size_t count = vs ? 6 : 3; /* the keys' three, then the values' */
    sk_status st = SK_OK;
    for (size_t i = 0; i < count && st == SK_OK; i++)
        st = sk__check_buffer(ctx, mems[i], bytes[i], names[i]);
    for (size_t o = 2; o < count && st == SK_OK; o += 3) /* dst_keys, dst_values */
        for (size_t i = 0; i < count && st == SK_OK; i++)
            if (i != o && sk__buffers_overlap(mems[o], bytes[o], mems[i], bytes[i]))
                st = sk__fail(ctx, SK_E_INVALID_ARG, "%s overlaps %s (the merge does not run "
                              "in place)", names[o], names[i]);
    return st;
}

/* ---- planning ------------------------------------------------------------- */

/* Outputs split into `parts` chunks (CPU) or tiles (GPU) of `chunk`. */
typedef struct merge_plan {
    sk__tuning t;
    bool gpu;
    size_t key_size;
    size_t parts, chunk;
    const sk__program *prog;
} merge_plan;

/* Local memory of the GPU merge: the tile's keys and, with values, each
 * output's tile position (uint), padded as block.cl pads. */
static size_t gpu_local_bytes(const merge_plan *p, size_t value_size)
{
    size_t tile = p->t.wg_size * p->t.items;
    return (tile + tile / 32 + 1) * (p->key_size + (value_size ? sizeof(cl_uint) : 0));
}

/* n > 0 outputs in tiles (GPU), or in cpu_chunks chunks (one below the
 * serial threshold; never more chunks than outputs). */
static void split_parts(merge_plan *p, size_t n)
{
    split_tiles(&p->t, p->gpu, n, &p->chunk, &p->parts);
}

static merge_plan plan_for(const sk_context *ctx, const merge_req *r)
{
    merge_plan p = {0};
    p.key_size = sk_type_size(r->key_type);
    p.t = sk__tuning_for(ctx, SK_FAMILY_MERGE,
                         p.key_size + (r->value_size ? sizeof(cl_uint) : 0));
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    while (p.gpu && p.t.items > 1 && gpu_local_bytes(&p, r->value_size) > ctx->local_mem_bytes)
        p.t.items /= 2;
    while (p.gpu && p.t.wg_size > 1 &&
           gpu_local_bytes(&p, r->value_size) > ctx->local_mem_bytes)
        p.t.wg_size /= 2;
    split_parts(&p, r->na + r->nb);
    return p;
}

/* ---- programs ------------------------------------------------------------- */

enum { K_PARTITION, K_MERGE };

static const char *const gpu_kernels[] = {"sk_merge_partition", "sk_merge_tiles"};
static const char *const cpu_kernels[] = {"sk_merge_partition", "sk_merge_chunks"};

static char *merge_config(const merge_plan *p, const merge_req *r)
{
    sk__str s = {0};
    sk__config_key(&s, r->key_type);
    if (r->value_size) sk__config_value_type(&s, r->value_size);
    sk__config_tiles_keys(&s, &p->t, p->gpu);
    return sk__str_take(&s);
}

static sk_status merge_program(sk_context *ctx, merge_plan *p, const merge_req *r)
{
    return sk__program_take(ctx, "merge", merge_config(p, r),
                            p->gpu ? gpu_kernels : cpu_kernels, 2, &p->prog);
}

/* Builds (or finds) the program; on the GPU shape, where a kernel cannot
 * run the planned work-group, builds it again at the size both can. */
static sk_status open_program(sk_context *ctx, merge_plan *p, const merge_req *r)
{
    bool lowered = false;
    sk_status st = merge_program(ctx, p, r);
    if (st == SK_OK && p->gpu) st = sk__fit_wg(ctx, p->prog, "merge", &p->t.wg_size, &lowered);
    if (st != SK_OK || !lowered) return st;
    split_parts(p, r->na + r->nb);
    return merge_program(ctx, p, r);
}

/* ---- the merge ---------------------------------------------------------------- */

sk_status sk__merge_pass_run(sk_context *ctx, const sk__merge_pass *m)
{
    size_t local = m->gpu ? m->wg : 1;
    sk__args a;
    sk__args_init(&a, ctx, m->prog, m->k_partition);
    sk__arg_mem(&a, m->a);
    sk__arg_mem(&a, m->b);
    sk__arg_mem(&a, m->splits);
    sk__arg_ulong(&a, "na", m->na);
    sk__arg_ulong(&a, "nb", m->nb);
    sk__arg_ulong(&a, "width", m->width);
    sk__arg_ulong(&a, "step", m->step);
    sk__arg_ulong(&a, "parts", m->parts);
    sk__arg_word(&a, "flip", m->order_size, m->flip);
    sk_status st = sk__args_launch(&a, div_up(m->parts + 1, local) * local, local);
    if (st != SK_OK) return st;

    sk__args_init(&a, ctx, m->prog, m->k_merge);
    sk__arg_mem(&a, m->a);
    sk__arg_mem(&a, m->b);
    if (m->av) {
        sk__arg_mem(&a, m->av);
        sk__arg_mem(&a, m->bv);
    }
    sk__arg_mem(&a, m->splits);
    sk__arg_mem(&a, m->dst);
    if (m->av) sk__arg_mem(&a, m->dv);
    sk__arg_ulong(&a, "na", m->na);
    sk__arg_ulong(&a, "nb", m->nb);
    sk__arg_ulong(&a, "width", m->width);
    if (!m->gpu) sk__arg_ulong(&a, "chunk", m->step);
    sk__arg_word(&a, "flip", m->order_size, m->flip);
    return sk__args_launch(&a, m->parts * local, local);
}

/* Merges validated buffers. */
static sk_status merge_run(sk_context *ctx, const merge_req *r, const merge_io *io)
{
    size_t n = r->na + r->nb;
    if (n == 0) return SK_OK;
    merge_plan p = plan_for(ctx, r);
    uint64_t flip = sort_flip(r->order, p.key_size);
    cl_mem splits = NULL;
    sk_status st = SK_OK;
    SK_TRY(open_program(ctx, &p, r));
    SK_TRY(sk__scratch_get(ctx, &merge_splits, (p.parts + 1) * sizeof(cl_ulong), &splits));
    sk__merge_pass m = {p.prog, K_PARTITION, K_MERGE, p.gpu, p.t.wg_size, p.parts, p.chunk,
                        r->na, r->nb, 0, p.key_size, flip,
                        io->ak, io->bk, r->value_size ? io->av : NULL, io->bv, io->dk, io->dv,
                        splits};
    st = sk__merge_pass_run(ctx, &m);
out:
    return st;
}

static sk_status merge_mem(sk_context *ctx, const merge_req *r, const merge_io *io, bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st == SK_OK) st = validate_io(ctx, r, io);
    if (st == SK_OK) st = merge_run(ctx, r, io);
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

/* Host arrays of one call; the value arrays NULL for keys only. */
typedef struct merge_host {
    const void *ak, *av, *bk, *bv;
    void *dk, *dv;
} merge_host;

static sk_status check_host(sk_context *ctx, const merge_req *r, const merge_host *h)
{
    size_t n = r->na + r->nb;
    const void *arrays[] = {h->ak, h->bk, h->dk, h->av, h->bv, h->dv};
    const size_t counts[] = {r->na, r->nb, n, r->na, r->nb, n};
    static const char *const names[] = {"a_keys", "b_keys", "dst_keys",
                                        "a_values", "b_values", "dst_values"};
    size_t count = r->value_size ? 6 : 3;
    for (size_t i = 0; i < count; i++)
        if (counts[i] && !arrays[i]) return sk__fail(ctx, SK_E_INVALID_ARG, "%s is NULL", names[i]);
    if (r->value_size && n && h->dk == h->dv)
        return sk__fail(ctx, SK_E_INVALID_ARG, "dst_keys and dst_values are the same array");
    size_t ks = sk_type_size(r->key_type), vs = r->value_size;
    const size_t copies[] = {r->na * ks, r->nb * ks, n * ks, r->na * vs, r->nb * vs, n * vs};
    sk_status st = SK_OK;
    for (size_t i = 0; i < count && st == SK_OK; i++)
        st = sk__fits_device(ctx, copies[i], "a host array's device copy");
    return st;
}

static sk_status merge_host_run(sk_context *ctx, const merge_req *r, const merge_host *h,
                                bool pairs)
{
    SK_ENTER(ctx);
    size_t n = r->na + r->nb, ks = 0, vs = r->value_size;
    merge_io io = {NULL, NULL, NULL, NULL, NULL, NULL};
    sk_status st = SK_OK;
    SK_TRY(validate_req(ctx, r, pairs));
    SK_TRY(check_host(ctx, r, h));
    if (n == 0) return SK_OK;
    ks = sk_type_size(r->key_type);
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, h->ak, r->na, ks, &io.ak));
    SK_TRY(sk__stage_in(ctx, &merge_b_keys, h->bk, r->nb, ks, &io.bk));
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, n * ks, &io.dk));
    if (vs) {
        SK_TRY(sk__stage_in(ctx, &sk__scratch_host_values, h->av, r->na, vs, &io.av));
        SK_TRY(sk__stage_in(ctx, &merge_b_values, h->bv, r->nb, vs, &io.bv));
        SK_TRY(sk__scratch_get(ctx, &merge_values_out, n * vs, &io.dv));
    }
    SK_TRY(merge_run(ctx, r, &io));
    if (vs) SK_TRY(sk__download(ctx, io.dv, 0, h->dv, n * vs));
    SK_TRY(sk__download(ctx, io.dk, 0, h->dk, n * ks));
out:
    if (st != SK_OK) clFinish(ctx->queue); /* no transfer may outlive the call */
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_merge_keys(sk_context *ctx, sk_type key_type, cl_mem a_keys, cl_mem b_keys,
                        cl_mem dst_keys, size_t na, size_t nb, sk_sort_order order)
{
    merge_req r = {key_type, 0, na, nb, order};
    merge_io io = {a_keys, NULL, b_keys, NULL, dst_keys, NULL};
    return merge_mem(ctx, &r, &io, false);
}

sk_status sk_merge_pairs(sk_context *ctx, sk_type key_type, size_t value_size, cl_mem a_keys,
                         cl_mem a_values, cl_mem b_keys, cl_mem b_values, cl_mem dst_keys,
                         cl_mem dst_values, size_t na, size_t nb, sk_sort_order order)
{
    merge_req r = {key_type, value_size, na, nb, order};
    merge_io io = {a_keys, a_values, b_keys, b_values, dst_keys, dst_values};
    return merge_mem(ctx, &r, &io, true);
}

sk_status sk_merge_keys_host(sk_context *ctx, sk_type key_type, const void *a_keys,
                             const void *b_keys, void *dst_keys, size_t na, size_t nb,
                             sk_sort_order order)
{
    merge_req r = {key_type, 0, na, nb, order};
    merge_host h = {a_keys, NULL, b_keys, NULL, dst_keys, NULL};
    return merge_host_run(ctx, &r, &h, false);
}

sk_status sk_merge_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                              const void *a_keys, const void *a_values, const void *b_keys,
                              const void *b_values, void *dst_keys, void *dst_values,
                              size_t na, size_t nb, sk_sort_order order)
{
    merge_req r = {key_type, value_size, na, nb, order};
    merge_host h = {a_keys, a_values, b_keys, b_values, dst_keys, dst_values};
    return merge_host_run(ctx, &r, &h, true);
}
