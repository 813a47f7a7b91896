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
 * passes take too). On the GPU shape a pass of few parts (the tuning's
 * merge_search_max_parts) is one launch: sk_merge_tiles_search's
 * work-groups search their own splits. Keys are ordered as the radix
 * sort orders them (sort.h's key table, kernels/sort_keys.cl's transform):
 * integers by value, floats in IEEE totalOrder, descending as the exact
 * reverse.
 */
#include "sort.h"

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(merge_splits, "merge: split points");
SK_STAGING_ID(merge_b_keys, "merge, host form: second keys");
SK_STAGING_ID(merge_b_values, "merge, host form: second values");
SK_STAGING_ID(merge_values_out, "merge, host form: values out");
SK_SCRATCH_ID(merge_runs_keys, "merge of runs: keys ping-pong");
SK_SCRATCH_ID(merge_runs_values, "merge of runs: values ping-pong");
SK_SCRATCH_ID(merge_runs_groups, "merge of runs: the merges of every round");

/* ---- requests ------------------------------------------------------------ */

typedef struct merge_req {
    sk_type key_type;
    size_t value_size;            /* 0: keys only */
    size_t na, nb;
    sk_sort_order order;
    unsigned begin_bit, end_bit;  /* the bits keys are ordered by; end 0: all */
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

/* Local memory of the GPU merge's tile. */
static size_t gpu_local_bytes(const merge_plan *p, size_t value_size)
{
    return sk__merge_tile_local_bytes(p->t.wg_size * p->t.items, p->key_size, value_size != 0);
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

enum { K_PARTITION, K_MERGE, K_MERGE_SEARCH };

static const char *const gpu_kernels[] = {"sk_merge_partition", "sk_merge_tiles",
                                          "sk_merge_tiles_search"};
static const char *const cpu_kernels[] = {"sk_merge_partition", "sk_merge_chunks"};

/* The kernels' `mask`: the bits keys are ordered by (end 0: all). */
static uint64_t order_mask(const merge_req *r)
{
    return r->end_bit ? range_mask(r->begin_bit, r->end_bit) : ~(uint64_t)0;
}

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
                            p->gpu ? gpu_kernels : cpu_kernels, p->gpu ? 3 : 2, &p->prog);
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

/* The kernels' groups, groups_at and ngroups: without groups, the splits
 * stand in for the buffer (not read where ngroups is 0). */
static void add_groups(sk__args *a, const sk__merge_pass *m)
{
    sk__arg_mem(a, m->groups ? m->groups : m->splits);
    sk__arg_ulong(a, "groups_at", m->groups_at);
    sk__arg_ulong(a, "ngroups", m->groups ? m->ngroups : 0);
}

/* The partition launch: the splits of every part boundary. */
static sk_status partition_run(sk_context *ctx, const sk__merge_pass *m, size_t local)
{
    sk__args a;
    sk__args_init(&a, ctx, m->prog, m->k_partition);
    sk__arg_mem(&a, m->a);
    sk__arg_mem(&a, m->b);
    sk__arg_mem(&a, m->splits);
    sk__arg_ulong(&a, "na", m->na);
    sk__arg_ulong(&a, "nb", m->nb);
    sk__arg_ulong(&a, "width", m->width);
    add_groups(&a, m);
    sk__arg_ulong(&a, "step", m->step);
    sk__arg_ulong(&a, "parts", m->parts);
    sk__arg_word(&a, "flip", m->order_size, m->flip);
    sk__arg_word(&a, "mask", m->order_size, m->mask);
    return sk__args_launch(&a, div_up(m->parts + 1, local) * local, local);
}

sk_status sk__merge_pass_run(sk_context *ctx, const sk__merge_pass *m)
{
    size_t local = m->gpu ? m->wg : 1;
    bool search_in_tiles = m->gpu && m->parts <= m->search_max_parts;
    sk_status st = search_in_tiles ? SK_OK : partition_run(ctx, m, local);
    if (st != SK_OK) return st;

    sk__args a;
    sk__args_init(&a, ctx, m->prog, search_in_tiles ? m->k_merge_search : m->k_merge);
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
    add_groups(&a, m);
    if (!m->gpu) sk__arg_ulong(&a, "chunk", m->step);
    sk__arg_word(&a, "flip", m->order_size, m->flip);
    sk__arg_word(&a, "mask", m->order_size, m->mask);
    return sk__args_launch(&a, m->parts * local, local);
}

/* Merges validated buffers. */
static sk_status merge_run(sk_context *ctx, const merge_req *r, const merge_io *io)
{
    size_t n = r->na + r->nb;
    if (n == 0) return SK_OK;
    merge_plan p = plan_for(ctx, r);
    cl_mem splits = NULL;
    sk_status st = SK_OK;
    SK_TRY(open_program(ctx, &p, r));
    SK_TRY(sk__scratch_get(ctx, &merge_splits, (p.parts + 1) * sizeof(cl_ulong), &splits));
    sk__merge_pass m = {.prog = p.prog, .k_partition = K_PARTITION, .k_merge = K_MERGE,
                        .k_merge_search = K_MERGE_SEARCH,
                        .gpu = p.gpu, .wg = p.t.wg_size, .parts = p.parts, .step = p.chunk,
                        .na = r->na, .nb = r->nb, .order_size = p.key_size,
                        .flip = sort_flip(r->order, p.key_size), .mask = order_mask(r),
                        .a = io->ak, .b = io->bk, .av = r->value_size ? io->av : NULL,
                        .bv = io->bv, .dst = io->dk, .dv = io->dv, .splits = splits,
                        .search_max_parts = p.t.merge_search_max_parts};
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

/* ---- the merge of runs -------------------------------------------------------- */

/* Runs of keys (and values) one after another, each sorted, merged in
 * rounds: each round merges neighbouring runs (runs 2g and 2g + 1, a last
 * odd one alone: a copy), all of a round's merges in one launch pair, so
 * ceil(log2(runs)) rounds, the runs without elements left out. */
typedef struct runs_req {
    sort_req sort;                /* key type, value size, n, order, bit range */
    const size_t *lengths;
    size_t runs;
} runs_req;

static sk_status validate_runs(sk_context *ctx, const runs_req *r, bool pairs)
{
    sk_status st = sk__sort_validate(ctx, &r->sort, pairs);
    if (st != SK_OK) return st;
    if (r->runs && !r->lengths) return sk__fail(ctx, SK_E_INVALID_ARG, "run_lengths is NULL");
    size_t sum = 0;
    for (size_t i = 0; i < r->runs; i++) {
        if (r->lengths[i] > SIZE_MAX - sum)
            return sk__fail(ctx, SK_E_INVALID_ARG, "the run lengths overflow size_t");
        sum += r->lengths[i];
    }
    if (sum != r->sort.n)
        return sk__fail(ctx, SK_E_INVALID_ARG, "the run lengths sum to %zu, not to n = %zu", sum,
                        r->sort.n);
    return SK_OK;
}

/* The runs with elements: *count of them, starting at bounds[0 .. *count)
 * (bounds[*count] = n). NULL: out of memory. */
static uint64_t *run_bounds(const runs_req *r, size_t *count)
{
    uint64_t *b = malloc((r->runs + 1) * sizeof *b);
    size_t c = 0, at = 0;
    if (!b) return NULL;
    for (size_t i = 0; i < r->runs; i++) {
        if (r->lengths[i]) b[c++] = at;
        at += r->lengths[i];
    }
    b[c] = at;
    *count = c;
    return b;
}

static size_t rounds_for(size_t runs)
{
    size_t rounds = 0;
    while (((size_t)1 << rounds) < runs) rounds++;
    return rounds;
}

/* The rounds' merges, one round after another in desc (kernels/merge.cl:
 * first[], start[], mid[] of a round's groups): at[k], groups[k] and
 * parts[k] say where round k's words start, how many merges and parts it
 * has. bounds (count runs) is halved as the rounds merge its runs. */
typedef struct runs_rounds {
    uint64_t *desc;
    size_t words, rounds, max_parts;
    size_t at[SK_MERGE_RUNS_MAX_ROUNDS], groups[SK_MERGE_RUNS_MAX_ROUNDS];
    size_t parts[SK_MERGE_RUNS_MAX_ROUNDS];
} runs_rounds;

/* Round k's merges of the count runs of bounds into d->desc at d->words;
 * bounds then holds the merged runs (count halved, rounded up). */
static void plan_round(runs_rounds *d, size_t k, uint64_t *bounds, size_t *count, size_t step)
{
    size_t g_count = div_up(*count, 2);
    uint64_t *first = d->desc + d->words, *start = first + g_count + 1;
    uint64_t *mid = start + g_count + 1;
    uint64_t parts = 0;
    for (size_t g = 0; g < g_count; g++) {
        size_t a = 2 * g, b = a + 1 < *count ? a + 1 : *count;
        size_t e = a + 2 < *count ? a + 2 : *count;
        first[g] = parts;
        start[g] = bounds[a];
        mid[g] = bounds[b];
        parts += div_up(bounds[e] - bounds[a], step);
    }
    first[g_count] = parts;
    start[g_count] = bounds[*count];
    d->at[k] = d->words;
    d->groups[k] = g_count;
    d->parts[k] = parts;
    d->words += 3 * g_count + 2;
    if (parts > d->max_parts) d->max_parts = parts;
    for (size_t g = 0; g <= g_count; g++) bounds[g] = start[g];
    *count = g_count;
}

/* Every round of the merge of the count runs of bounds. */
static sk_status plan_rounds(sk_context *ctx, runs_rounds *d, uint64_t *bounds, size_t count,
                             size_t step)
{
    size_t words = 0;
    d->rounds = rounds_for(count);
    for (size_t c = count; c > 1; c = div_up(c, 2)) /* a round of c runs */
        words += 3 * div_up(c, 2) + 2;
    d->desc = malloc(words * sizeof *d->desc);
    if (!d->desc) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "the merge of runs' plan");
    for (size_t k = 0; k < d->rounds; k++) plan_round(d, k, bounds, &count, step);
    return SK_OK;
}

/* The most rounds of merges (SK_PARAM_MERGE_RUNS_ROUNDS): by default the
 * radix sort's passes over the bit range, each of which reads and writes
 * the keys as a round does (bench/results/nvidia-h100x2-2811-merge-mpi:
 * on an H100 and on PoCL the rounds beat the sort up to that count). */
static size_t most_rounds(sk_context *ctx, const sort_req *r)
{
    size_t most = (size_t)ctx->merge_rounds_param;
    if (!most) most = div_up(r->end_bit - r->begin_bit, sk__sort_plan_for(ctx, r).radix_bits);
    return most < SK_MERGE_RUNS_MAX_ROUNDS ? most : SK_MERGE_RUNS_MAX_ROUNDS;
}

/* The rounds, between the caller's buffers and the scratch, the result
 * copied back where it ends in the scratch. */
static sk_status merge_rounds(sk_context *ctx, const runs_req *r, const merge_plan *p,
                              const runs_rounds *d, cl_mem keys, cl_mem values)
{
    size_t kb = r->sort.n * p->key_size, vb = r->sort.n * r->sort.value_size;
    cl_mem io[4] = {keys, values, NULL, NULL}, splits = NULL, groups = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &merge_runs_keys, kb, &io[2]));
    if (vb) SK_TRY(sk__scratch_get(ctx, &merge_runs_values, vb, &io[3]));
    SK_TRY(sk__scratch_get(ctx, &merge_splits, (d->max_parts + 1) * sizeof(cl_ulong), &splits));
    SK_TRY(sk__scratch_get(ctx, &merge_runs_groups, d->words * sizeof(cl_ulong), &groups));
    /* the one blocking step: the plan, read by every round */
    SK_TRY(sk__write(ctx, groups, true, 0, d->words * sizeof(cl_ulong), d->desc));
    for (size_t k = 0; k < d->rounds; k++) {
        size_t from = 2 * (k % 2), to = 2 - from; /* io: keys, values; scratch keys, values */
        sk__merge_pass m = {.prog = p->prog, .k_partition = K_PARTITION, .k_merge = K_MERGE,
                            .k_merge_search = K_MERGE_SEARCH, .gpu = p->gpu,
                            .wg = p->t.wg_size, .parts = d->parts[k],
                            .step = p->chunk, .na = r->sort.n, .order_size = p->key_size,
                            .flip = sort_flip(r->sort.order, p->key_size),
                            .mask = range_mask(r->sort.begin_bit, r->sort.end_bit),
                            .a = io[from], .b = io[from], .av = vb ? io[from + 1] : NULL,
                            .bv = io[from + 1], .dst = io[to], .dv = io[to + 1],
                            .splits = splits, .groups = groups, .groups_at = d->at[k],
                            .ngroups = d->groups[k],
                            .search_max_parts = p->t.merge_search_max_parts};
        SK_TRY(sk__merge_pass_run(ctx, &m));
    }
    if (d->rounds % 2) {
        SK_TRY(sk__copy(ctx, io[2], 0, keys, 0, kb));
        if (vb) SK_TRY(sk__copy(ctx, io[3], 0, values, 0, vb));
    }
out:
    return st;
}

/* Merges (or, past the sort's passes, sorts) validated buffers. */
static sk_status runs_run(sk_context *ctx, const void *req, cl_mem keys, cl_mem values)
{
    const runs_req *r = req;
    size_t count = 0;
    uint64_t *bounds = run_bounds(r, &count);
    if (!bounds) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "the merge of runs' bounds");
    runs_rounds d = {0};
    sk_status st = SK_OK;
    if (count < 2) goto out; /* in order already */
    if (rounds_for(count) > most_rounds(ctx, &r->sort)) {
        st = sk__sort_run(ctx, &r->sort, keys, values);
        goto out;
    }
    merge_req mr = {r->sort.key_type, r->sort.value_size, r->sort.n, 0, r->sort.order,
                    r->sort.begin_bit, r->sort.end_bit};
    merge_plan p = plan_for(ctx, &mr);
    SK_TRY(open_program(ctx, &p, &mr)); /* the parts' size is final from here */
    SK_TRY(plan_rounds(ctx, &d, bounds, count, p.chunk));
    st = merge_rounds(ctx, r, &p, &d, keys, values);
out:
    free(d.desc);
    free(bounds);
    return st;
}

static sk_status runs_mem(sk_context *ctx, const runs_req *r, cl_mem keys, cl_mem values,
                          bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_runs(ctx, r, pairs);
    if (st == SK_OK) st = sk__sort_check_buffers(ctx, &r->sort, keys, values, pairs);
    if (st == SK_OK) st = runs_run(ctx, r, keys, pairs ? values : NULL);
    return st;
}

static sk_status runs_host(sk_context *ctx, const runs_req *r, void *keys, void *values,
                           bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_runs(ctx, r, pairs);
    if (st != SK_OK) return st;
    if ((st = sk__check_host_arrays(ctx, r->sort.n, keys, values, pairs, "keys")) != SK_OK)
        return st;
    size_t kb = r->sort.n * sk_type_size(r->sort.key_type), vb = r->sort.n * r->sort.value_size;
    size_t with_elements = 0;
    for (size_t i = 0; i < r->runs && with_elements < 2; i++) with_elements += r->lengths[i] != 0;
    if (with_elements < 2) { /* in order already: no copies, the same refusals */
        st = sk__fits_device(ctx, kb, "the keys' device copy");
        return st == SK_OK ? sk__fits_device(ctx, vb, "the values' device copy") : st;
    }
    return sk__host_in_place(ctx, keys, kb, pairs ? values : NULL, vb, "the keys' device copy",
                             runs_run, r);
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_merge_keys(sk_context *ctx, sk_type key_type, cl_mem a_keys, cl_mem b_keys,
                        cl_mem dst_keys, size_t na, size_t nb, sk_sort_order order)
{
    merge_req r = {key_type, 0, na, nb, order, 0, 0};
    merge_io io = {a_keys, NULL, b_keys, NULL, dst_keys, NULL};
    return merge_mem(ctx, &r, &io, false);
}

sk_status sk_merge_pairs(sk_context *ctx, sk_type key_type, size_t value_size, cl_mem a_keys,
                         cl_mem a_values, cl_mem b_keys, cl_mem b_values, cl_mem dst_keys,
                         cl_mem dst_values, size_t na, size_t nb, sk_sort_order order)
{
    merge_req r = {key_type, value_size, na, nb, order, 0, 0};
    merge_io io = {a_keys, a_values, b_keys, b_values, dst_keys, dst_values};
    return merge_mem(ctx, &r, &io, true);
}

sk_status sk_merge_keys_host(sk_context *ctx, sk_type key_type, const void *a_keys,
                             const void *b_keys, void *dst_keys, size_t na, size_t nb,
                             sk_sort_order order)
{
    merge_req r = {key_type, 0, na, nb, order, 0, 0};
    merge_host h = {a_keys, NULL, b_keys, NULL, dst_keys, NULL};
    return merge_host_run(ctx, &r, &h, false);
}

sk_status sk_merge_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                              const void *a_keys, const void *a_values, const void *b_keys,
                              const void *b_values, void *dst_keys, void *dst_values,
                              size_t na, size_t nb, sk_sort_order order)
{
    merge_req r = {key_type, value_size, na, nb, order, 0, 0};
    merge_host h = {a_keys, a_values, b_keys, b_values, dst_keys, dst_values};
    return merge_host_run(ctx, &r, &h, true);
}

sk_status sk_merge_runs_keys(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                             const size_t *run_lengths, size_t runs, sk_sort_order order,
                             unsigned begin_bit, unsigned end_bit)
{
    runs_req r = {{key_type, 0, n, order, begin_bit, end_bit}, run_lengths, runs};
    return runs_mem(ctx, &r, keys, NULL, false);
}

sk_status sk_merge_runs_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                              cl_mem keys, cl_mem values, size_t n, const size_t *run_lengths,
                              size_t runs, sk_sort_order order, unsigned begin_bit,
                              unsigned end_bit)
{
    runs_req r = {{key_type, value_size, n, order, begin_bit, end_bit}, run_lengths, runs};
    return runs_mem(ctx, &r, keys, values, true);
}

sk_status sk_merge_runs_keys_host(sk_context *ctx, sk_type key_type, void *keys, size_t n,
                                  const size_t *run_lengths, size_t runs, sk_sort_order order,
                                  unsigned begin_bit, unsigned end_bit)
{
    runs_req r = {{key_type, 0, n, order, begin_bit, end_bit}, run_lengths, runs};
    return runs_host(ctx, &r, keys, NULL, false);
}

sk_status sk_merge_runs_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                   void *keys, void *values, size_t n,
                                   const size_t *run_lengths, size_t runs,
                                   sk_sort_order order, unsigned begin_bit, unsigned end_bit)
{
    runs_req r = {{key_type, value_size, n, order, begin_bit, end_bit}, run_lengths, runs};
    return runs_host(ctx, &r, keys, values, true);
}
