/*
 * compact.c - stream compaction on the scan: select-if, select-flagged,
 * stable partition and unique, each with or without values carried along.
 *
 * Every mode is three steps over chunks (CPU shape) or tiles (GPU shape):
 *   1. count the kept elements of every part into counts[0 .. parts), and a
 *      zero into counts[parts];
 *   2. sk_scan_exclusive over those parts + 1 counts, in place: counts[p]
 *      becomes the output offset of part p and counts[parts] the total;
 *   3. every part re-evaluates the predicate and writes its kept elements
 *      from its offset on (a partition also writes its rejected elements
 *      after all kept ones).
 * The total is then read back (the only blocking step of the cl_mem forms).
 * The GPU shape selects (not partitions) in one pass instead, the count and
 * the scan folded into the write by decoupled look-back (compact.cl).
 * Counts are uint32, or uint64 when n >= 2^32.
 */
#include "sk_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- what is being compacted ------------------------------------------------------ */

typedef enum keep_kind { KEEP_IF, KEEP_FLAGS, KEEP_UNIQUE } keep_kind;

typedef struct compact_spec {
    sk_type type;
    keep_kind keep;
    const char *predicate;      /* KEEP_IF: OpenCL C expression of x */
    size_t flag_size;           /* KEEP_FLAGS: 1 or 4 */
    size_t value_size;          /* 0: no values; else 4 or 8 */
    bool partition;             /* write the rejected elements too */
} compact_spec;

/* The buffers of one call; flags, vsrc and vdst are NULL when unused. */
typedef struct compact_io {
    cl_mem src, flags, vsrc, dst, vdst;
} compact_io;

static const char *const cl_types[SK_TYPE_COUNT] = {"int", "uint", "long",
                                                    "ulong", "float", "double"};

static sk_status validate_spec(sk_context *ctx, const compact_spec *s)
{
    if ((unsigned)s->type >= SK_TYPE_COUNT)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid element type %d", (int)s->type);
    if (s->keep == KEEP_IF && (!s->predicate || !*s->predicate))
        return sk__fail(ctx, SK_E_INVALID_ARG, "predicate is NULL or empty");
    if (s->keep == KEEP_IF && sk__check_user_code(ctx, "predicate", s->predicate) != SK_OK)
        return SK_E_INVALID_ARG;
    if (s->keep == KEEP_FLAGS && s->flag_size != 1 && s->flag_size != 4)
        return sk__fail(ctx, SK_E_INVALID_ARG, "flag_size is %zu, not 1 or 4", s->flag_size);
    if (s->value_size != 0 && s->value_size != 4 && s->value_size != 8)
        return sk__fail(ctx, SK_E_INVALID_ARG, "value_size is %zu, not 4 or 8",
                        s->value_size);
    return sk__require_fp64(ctx, s->type);
}

/* Outputs must be distinct from every other buffer of the call. */
static sk_status check_distinct(sk_context *ctx, const compact_io *io)
{
    const cl_mem ins[] = {io->src, io->flags, io->vsrc};
    for (size_t i = 0; i < 3; i++) {
        if (ins[i] && (ins[i] == io->dst || ins[i] == io->vdst))
            return sk__fail(ctx, SK_E_INVALID_ARG,
                            "an output buffer is also an input (in place is not supported)");
    }
    if (io->vdst && io->vdst == io->dst)
        return sk__fail(ctx, SK_E_INVALID_ARG, "keys and values outputs are the same buffer");
    return SK_OK;
}

static sk_status validate_io(sk_context *ctx, const compact_spec *s, const compact_io *io,
                             size_t n, size_t *count)
{
    size_t bytes = 0, flag_bytes = 0, value_bytes = 0;
    sk_status st = SK_OK;
    if (!count) return sk__fail(ctx, SK_E_INVALID_ARG, "count is NULL");
    SK_TRY(sk__byte_size(ctx, n, sk_type_size(s->type), &bytes));
    SK_TRY(sk__check_buffer(ctx, io->src, bytes, "src"));
    SK_TRY(sk__check_buffer(ctx, io->dst, bytes, "dst"));
    if (s->keep == KEEP_FLAGS) {
        SK_TRY(sk__byte_size(ctx, n, s->flag_size, &flag_bytes));
        SK_TRY(sk__check_buffer(ctx, io->flags, flag_bytes, "flags"));
    }
    if (s->value_size) {
        SK_TRY(sk__byte_size(ctx, n, s->value_size, &value_bytes));
        SK_TRY(sk__check_buffer(ctx, io->vsrc, value_bytes, "values_in"));
        SK_TRY(sk__check_buffer(ctx, io->vdst, value_bytes, "values_out"));
    }
    st = check_distinct(ctx, io);
out:
    return st;
}

/* ---- planning ---------------------------------------------------------------------- */

/* How the n elements split: `parts` chunks (CPU) or tiles (GPU) of `chunk`
 * elements, with counts of `count_size` bytes. */
typedef struct compact_plan {
    sk__tuning t;
    bool gpu;
    bool lookback;              /* GPU select in one pass (see compact.cl) */
    size_t parts, chunk;
    size_t count_size;
} compact_plan;

static size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

/* Local memory of the GPU write kernels: the tile's keys, values and keep
 * flags (padded), the work-group scan's 2 x wg counts, and the look-back
 * window with a few words (kernels/lookback.cl). */
static size_t gpu_local_bytes(const compact_spec *s, size_t wg, size_t items)
{
    size_t tile = wg * items;
    size_t padded = tile + (tile - 1) / 32;
    return padded * (sk_type_size(s->type) + s->value_size + 1) + 2 * wg * sizeof(cl_uint) +
           32 * sizeof(cl_ulong) + 16;
}

static void plan_parts(compact_plan *p, size_t n)
{
    if (p->gpu) {
        p->chunk = p->t.wg_size * p->t.items;
    } else if (n < p->t.cpu_serial_below) {
        p->chunk = n;
    } else {
        p->chunk = div_up(n, p->t.cpu_chunks);
    }
    p->parts = div_up(n, p->chunk);
}

static compact_plan plan_for(const sk_context *ctx, const compact_spec *s, size_t n)
{
    compact_plan p;
    size_t elem = sk_type_size(s->type) + s->value_size;
    p.t = sk__tuning_for(ctx, SK_FAMILY_OTHER, elem);
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    p.count_size = n > UINT32_MAX ? sizeof(cl_ulong) : sizeof(cl_uint);
    /* Look-back on uint counts; a partition needs the total before it can
     * place its first rejected element, so it keeps the three steps. The
     * single pass is a scan and takes the scan's tiles. */
    p.lookback = p.gpu && !s->partition && p.count_size == sizeof(cl_uint) &&
                 p.t.scan_path != SK_SCAN_PATH_REDUCE_THEN_SCAN;
    if (p.lookback) p.t = sk__tuning_for(ctx, SK_FAMILY_SCAN, elem);
    while (p.gpu && p.t.items > 1 &&
           gpu_local_bytes(s, p.t.wg_size, p.t.items) > ctx->local_mem_bytes)
        p.t.items /= 2;
    while (p.gpu && p.t.wg_size > 1 &&
           gpu_local_bytes(s, p.t.wg_size, p.t.items) > ctx->local_mem_bytes)
        p.t.wg_size /= 2;
    plan_parts(&p, n);
    return p;
}

/* ---- programs ---------------------------------------------------------------------- */

enum { K_COUNT, K_WRITE, K_SELECT_LOOKBACK };

static const char *const gpu_kernels[] = {"sk_compact_count_tiles", "sk_compact_write_tiles",
                                          "sk_compact_select_lookback"};
static const char *const cpu_kernels[] = {"sk_compact_count_chunks",
                                          "sk_compact_write_chunks"};

static void config_keep(sk__str *c, const compact_spec *s)
{
    switch (s->keep) {
    case KEEP_IF:
        sk__str_addf(c, "#define SK_KEEP_IF 1\nbool sk_pred(SK_T x)\n{\n    return (\n%s\n);\n}\n",
                     s->predicate);
        break;
    case KEEP_FLAGS:
        sk__str_addf(c, "#define SK_KEEP_FLAGS 1\n#define SK_FLAG_T %s\n",
                     s->flag_size == 1 ? "uchar" : "uint");
        break;
    case KEEP_UNIQUE:
        sk__str_addf(c, "#define SK_KEEP_UNIQUE 1\n");
        break;
    }
}

static char *compact_config(const compact_spec *s, const compact_plan *p, bool warps)
{
    sk__str c = {0};
    sk__str_addf(&c, SK_FP64_PRAGMA);
    sk__str_addf(&c, "#define SK_T %s\n#define SK_C %s\n", cl_types[s->type],
                 p->count_size == sizeof(cl_uint) ? "uint" : "ulong");
    if (s->value_size) sk__str_addf(&c, "#define SK_V %s\n", s->value_size == 4 ? "uint" : "ulong");
    if (p->gpu)
        sk__str_addf(&c, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                     p->t.wg_size, p->t.items);
    if (warps) sk__str_addf(&c, "#define SK_WARP_SHUFFLE 1\n%s\n", sk__source_text("warp"));
    if (p->gpu && sk_type_size(s->type) == 4)
        sk__str_addf(&c, "#define SK_T4 %s4\n", cl_types[s->type]);
    if (!p->gpu) sk__str_addf(&c, "#define SK_SHAPE_CPU 1\n");
    config_keep(&c, s);
    if (p->lookback)
        sk__str_addf(&c, "#define SK_LOOKBACK 1\n#define SK_LB_T uint\n#define SK_LB_IDENTITY 0u\n"
                         "#define sk_lb_op(a, b) ((a) + (b))\n%s\n",
                     sk__source_text("lookback"));
    if (c.failed) {
        sk__str_free(&c);
        return NULL;
    }
    return c.buf;
}

typedef struct compact_config_args {
    const compact_spec *s;
    const compact_plan *p;
} compact_config_args;

static char *make_compact_config(const void *user, bool warps)
{
    const compact_config_args *a = user;
    return compact_config(a->s, a->p, warps);
}

static sk_status get_program(sk_context *ctx, const compact_spec *s, const compact_plan *p,
                             const sk__program **out)
{
    compact_config_args args = {s, p};
    return sk__program_get_warps(ctx, "compact", p->gpu ? p->t.wg_size : 0,
                                 make_compact_config, &args,
                                 p->gpu ? gpu_kernels : cpu_kernels, p->lookback ? 3 : 2, out);
}

/* Gets the program; on the GPU shape, halves the work-group until the
 * kernels can run it (large element types on register-poor devices). */
static sk_status open_program(sk_context *ctx, const compact_spec *s, compact_plan *p,
                              size_t n, const sk__program **prog)
{
    sk_status st = get_program(ctx, s, p, prog);
    bool lowered = p->gpu;
    while (st == SK_OK && lowered) {
        st = sk__fit_wg(ctx, *prog, "compaction", &p->t.wg_size, &lowered);
        if (st != SK_OK || !lowered) break;
        plan_parts(p, n);
        st = get_program(ctx, s, p, prog);
    }
    return st;
}

/* ---- launches ---------------------------------------------------------------------- */

typedef struct compact_job {
    sk_context *ctx;
    const compact_spec *spec;
    compact_plan plan;
    const sk__program *prog;
    compact_io io;
    cl_mem counts;
    size_t n;
} compact_job;

/* Arguments 0..2 of every kernel: src, flags, vsrc (src when unused). */
static sk_status set_inputs(compact_job *j, cl_kernel k)
{
    cl_mem flags = j->io.flags ? j->io.flags : j->io.src;
    cl_mem vsrc = j->io.vsrc ? j->io.vsrc : j->io.src;
    sk_status st = sk__set_arg(j->ctx, k, 0, sizeof(cl_mem), &j->io.src);
    if (st == SK_OK) st = sk__set_arg(j->ctx, k, 1, sizeof(cl_mem), &flags);
    if (st == SK_OK) st = sk__set_arg(j->ctx, k, 2, sizeof(cl_mem), &vsrc);
    return st;
}

static sk_status set_ulong(sk_context *ctx, cl_kernel k, cl_uint i, size_t v)
{
    cl_ulong u = v;
    return sk__set_arg(ctx, k, i, sizeof u, &u);
}

static size_t local_size(const compact_job *j) { return j->plan.gpu ? j->plan.t.wg_size : 1; }

static sk_status launch_count(compact_job *j)
{
    cl_kernel k = j->prog->kernels[K_COUNT];
    sk_status st = SK_OK;
    SK_TRY(set_inputs(j, k));
    SK_TRY(sk__set_arg(j->ctx, k, 3, sizeof(cl_mem), &j->counts));
    SK_TRY(set_ulong(j->ctx, k, 4, j->n));
    if (!j->plan.gpu) SK_TRY(set_ulong(j->ctx, k, 5, j->plan.chunk));
    st = sk__launch(j->ctx, j->prog, K_COUNT, j->plan.parts * local_size(j), local_size(j),
                    "n=%zu chunk=%zu parts=%zu", j->n, j->plan.chunk, j->plan.parts);
out:
    return st;
}

static sk_status launch_write(compact_job *j)
{
    cl_kernel k = j->prog->kernels[K_WRITE];
    cl_mem vdst = j->io.vdst ? j->io.vdst : j->io.dst;
    cl_uint partition = j->spec->partition;
    cl_uint i = 6;
    sk_status st = SK_OK;
    SK_TRY(set_inputs(j, k));
    SK_TRY(sk__set_arg(j->ctx, k, 3, sizeof(cl_mem), &j->counts));
    SK_TRY(sk__set_arg(j->ctx, k, 4, sizeof(cl_mem), &j->io.dst));
    SK_TRY(sk__set_arg(j->ctx, k, 5, sizeof(cl_mem), &vdst));
    SK_TRY(set_ulong(j->ctx, k, i++, j->n));
    if (!j->plan.gpu) SK_TRY(set_ulong(j->ctx, k, i++, j->plan.chunk));
    SK_TRY(sk__set_arg(j->ctx, k, i, sizeof partition, &partition));
    st = sk__launch(j->ctx, j->prog, K_WRITE, j->plan.parts * local_size(j), local_size(j),
                    "n=%zu chunk=%zu parts=%zu partition=%u", j->n, j->plan.chunk,
                    j->plan.parts, (unsigned)partition);
out:
    return st;
}

/* One pass (plan.lookback): state words from the runtime, the total into
 * counts[0]. */
static sk_status launch_select_lookback(compact_job *j)
{
    cl_kernel k = j->prog->kernels[K_SELECT_LOOKBACK];
    cl_mem vdst = j->io.vdst ? j->io.vdst : j->io.dst;
    cl_mem state = NULL;
    cl_uint epoch = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__lookback_state(j->ctx, j->plan.parts, &state, &epoch));
    SK_TRY(set_inputs(j, k));
    SK_TRY(sk__set_arg(j->ctx, k, 3, sizeof(cl_mem), &state));
    SK_TRY(sk__set_arg(j->ctx, k, 4, sizeof epoch, &epoch));
    SK_TRY(set_ulong(j->ctx, k, 5, j->plan.parts));
    SK_TRY(sk__set_arg(j->ctx, k, 6, sizeof(cl_mem), &j->io.dst));
    SK_TRY(sk__set_arg(j->ctx, k, 7, sizeof(cl_mem), &vdst));
    SK_TRY(sk__set_arg(j->ctx, k, 8, sizeof(cl_mem), &j->counts));
    SK_TRY(set_ulong(j->ctx, k, 9, j->n));
    st = sk__launch(j->ctx, j->prog, K_SELECT_LOOKBACK, j->plan.parts * local_size(j),
                    local_size(j), "epoch=%u tiles=%zu n=%zu", (unsigned)epoch, j->plan.parts,
                    j->n);
out:
    return st;
}

/* Blocks until the total (counts[parts], or counts[0] after one pass) is
 * known. */
static sk_status read_total(compact_job *j, size_t *count)
{
    sk_status st = SK_OK;
    cl_ulong wide = 0;
    cl_uint narrow = 0;
    void *dst = j->plan.count_size == sizeof wide ? (void *)&wide : (void *)&narrow;
    size_t slot = j->plan.lookback ? 0 : j->plan.parts;
    SK_CL_TRY(j->ctx, clEnqueueReadBuffer(j->ctx->queue, j->counts, CL_TRUE,
                                          slot * j->plan.count_size,
                                          j->plan.count_size, dst, 0, NULL, NULL));
    *count = j->plan.count_size == sizeof wide ? (size_t)wide : (size_t)narrow;
out:
    return st;
}

static sk_status compact_run(sk_context *ctx, const compact_spec *s, const compact_io *io,
                             size_t n, size_t *count)
{
    sk_status st = SK_OK;
    SK_TRY(validate_spec(ctx, s));
    SK_TRY(validate_io(ctx, s, io, n, count));
    if (n == 0) {
        *count = 0;
        return SK_OK;
    }
    compact_job j = {ctx, s, plan_for(ctx, s, n), NULL, *io, NULL, n};
    SK_TRY(open_program(ctx, s, &j.plan, n, &j.prog));
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_COMPACT_A, (j.plan.parts + 1) * j.plan.count_size,
                           &j.counts));
    if (j.plan.lookback) {
        SK_TRY(launch_select_lookback(&j));
    } else {
        SK_TRY(launch_count(&j));
        SK_TRY(sk_scan_exclusive(ctx, j.plan.count_size == sizeof(cl_uint) ? SK_UINT32
                                                                            : SK_UINT64,
                                 SK_OP_ADD, j.counts, j.counts, j.plan.parts + 1));
        SK_TRY(launch_write(&j));
    }
    st = read_total(&j, count);
out:
    return st;
}

/* ---- host-array forms ------------------------------------------------------------------ */

/* Host pointers of one call; flags, vsrc and vdst NULL when unused. */
typedef struct host_io {
    const void *src, *flags, *vsrc;
    void *dst, *vdst;
} host_io;

static sk_status check_host(sk_context *ctx, const compact_spec *s, const host_io *h,
                            size_t n, size_t *count)
{
    if (!count) return sk__fail(ctx, SK_E_INVALID_ARG, "count is NULL");
    if (n == 0) return SK_OK;
    if (!h->src || !h->dst) return sk__fail(ctx, SK_E_INVALID_ARG, "src or dst is NULL");
    if (s->keep == KEEP_FLAGS && !h->flags)
        return sk__fail(ctx, SK_E_INVALID_ARG, "flags is NULL");
    if (s->value_size && (!h->vsrc || !h->vdst))
        return sk__fail(ctx, SK_E_INVALID_ARG, "values_in or values_out is NULL");
    return SK_OK;
}

static sk_status stage_all(sk_context *ctx, const compact_spec *s, const host_io *h,
                           size_t n, compact_io *io)
{
    size_t es = sk_type_size(s->type);
    sk_status st = SK_OK;
    *io = (compact_io){NULL, NULL, NULL, NULL, NULL};
    SK_TRY(sk__stage_in(ctx, SK_SLOT_HOST, h->src, n, es, &io->src));
    if (s->keep == KEEP_FLAGS) /* its own slot: values may come too */
        SK_TRY(sk__stage_in(ctx, SK_SLOT_COMPACT_COUNT, h->flags, n, s->flag_size, &io->flags));
    if (s->value_size) {
        SK_TRY(sk__stage_in(ctx, SK_SLOT_HOST_VALUES, h->vsrc, n, s->value_size, &io->vsrc));
        SK_TRY(sk__scratch_get(ctx, SK_SLOT_COMPACT_B, n * s->value_size, &io->vdst));
    }
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_HOST_OUT, n * es, &io->dst));
out:
    return st;
}

/* Copies in, runs, copies out the first `count` outputs (all n for a
 * partition). dst is written only on success. */
static sk_status compact_host(sk_context *ctx, const compact_spec *s, const host_io *h,
                              size_t n, size_t *count)
{
    compact_io io;
    size_t got = 0;
    sk_status st = SK_OK;
    SK_TRY(validate_spec(ctx, s));
    SK_TRY(check_host(ctx, s, h, n, count));
    if (n == 0) {
        *count = 0;
        return SK_OK;
    }
    SK_TRY(stage_all(ctx, s, h, n, &io));
    SK_TRY(compact_run(ctx, s, &io, n, &got));
    size_t out_n = s->partition ? n : got;
    if (out_n && s->value_size)
        SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, io.vdst, CL_FALSE, 0,
                                           out_n * s->value_size, h->vdst, 0, NULL, NULL));
    if (out_n)
        SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, io.dst, CL_TRUE, 0,
                                           out_n * sk_type_size(s->type), h->dst, 0, NULL,
                                           NULL));
    *count = got;
out:
    return st;
}

/* ---- entry points ---------------------------------------------------------------------- */

#define SK_ENTER(ctx)                                                          \
    do {                                                                       \
        if (!(ctx)) return SK_E_INVALID_ARG;                                   \
        sk__clear_error(ctx);                                                  \
    } while (0)

static compact_spec spec_if(sk_type type, const char *predicate, size_t value_size,
                            bool partition)
{
    return (compact_spec){type, KEEP_IF, predicate, 0, value_size, partition};
}

static compact_spec spec_flagged(sk_type type, size_t flag_size)
{
    return (compact_spec){type, KEEP_FLAGS, NULL, flag_size, 0, false};
}

static compact_spec spec_unique(sk_type type)
{
    return (compact_spec){type, KEEP_UNIQUE, NULL, 0, 0, false};
}

/* Pairs: values_in and values_out are both given, or both NULL (no values,
 * value_size ignored). Sets s->value_size. */
static sk_status pairs_spec(sk_context *ctx, bool has_in, bool has_out, size_t value_size,
                            compact_spec *s)
{
    if (has_in != has_out)
        return sk__fail(ctx, SK_E_INVALID_ARG, "values_in and values_out: give both or neither");
    if (has_in && value_size != 4 && value_size != 8)
        return sk__fail(ctx, SK_E_INVALID_ARG, "value_size is %zu, not 4 or 8", value_size);
    s->value_size = has_in ? value_size : 0;
    return SK_OK;
}

/* The cl_mem pair forms: s without values, plus io's value buffers. */
static sk_status run_pairs(sk_context *ctx, compact_spec s, const compact_io *io,
                           size_t value_size, size_t n, size_t *count)
{
    sk_status st = pairs_spec(ctx, io->vsrc != NULL, io->vdst != NULL, value_size, &s);
    return st == SK_OK ? compact_run(ctx, &s, io, n, count) : st;
}

/* The host pair forms, likewise. */
static sk_status host_pairs(sk_context *ctx, compact_spec s, const host_io *h,
                            size_t value_size, size_t n, size_t *count)
{
    sk_status st = pairs_spec(ctx, h->vsrc != NULL, h->vdst != NULL, value_size, &s);
    return st == SK_OK ? compact_host(ctx, &s, h, n, count) : st;
}

sk_status sk_select_if(sk_context *ctx, sk_type type, const char *predicate, cl_mem src,
                       cl_mem dst, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    compact_spec s = spec_if(type, predicate, 0, false);
    compact_io io = {src, NULL, NULL, dst, NULL};
    return compact_run(ctx, &s, &io, n, count);
}

sk_status sk_select_if_pairs(sk_context *ctx, sk_type type, const char *predicate,
                             cl_mem keys_in, cl_mem values_in, size_t value_size,
                             cl_mem keys_out, cl_mem values_out, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    compact_io io = {keys_in, NULL, values_in, keys_out, values_out};
    return run_pairs(ctx, spec_if(type, predicate, 0, false), &io, value_size, n, count);
}

sk_status sk_select_flagged(sk_context *ctx, sk_type type, cl_mem src, cl_mem flags,
                            size_t flag_size, cl_mem dst, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    compact_spec s = spec_flagged(type, flag_size);
    compact_io io = {src, flags, NULL, dst, NULL};
    return compact_run(ctx, &s, &io, n, count);
}

sk_status sk_partition(sk_context *ctx, sk_type type, const char *predicate, cl_mem src,
                       cl_mem dst, size_t n, size_t *count_selected)
{
    SK_ENTER(ctx);
    compact_spec s = spec_if(type, predicate, 0, true);
    compact_io io = {src, NULL, NULL, dst, NULL};
    return compact_run(ctx, &s, &io, n, count_selected);
}

sk_status sk_unique(sk_context *ctx, sk_type type, cl_mem src, cl_mem dst, size_t n,
                    size_t *count)
{
    SK_ENTER(ctx);
    compact_spec s = spec_unique(type);
    compact_io io = {src, NULL, NULL, dst, NULL};
    return compact_run(ctx, &s, &io, n, count);
}

sk_status sk_select_flagged_pairs(sk_context *ctx, sk_type type, cl_mem keys_in, cl_mem flags,
                                  size_t flag_size, cl_mem values_in, size_t value_size,
                                  cl_mem keys_out, cl_mem values_out, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    compact_io io = {keys_in, flags, values_in, keys_out, values_out};
    return run_pairs(ctx, spec_flagged(type, flag_size), &io, value_size, n, count);
}

sk_status sk_partition_pairs(sk_context *ctx, sk_type type, const char *predicate,
                             cl_mem keys_in, cl_mem values_in, size_t value_size,
                             cl_mem keys_out, cl_mem values_out, size_t n,
                             size_t *count_selected)
{
    SK_ENTER(ctx);
    compact_io io = {keys_in, NULL, values_in, keys_out, values_out};
    return run_pairs(ctx, spec_if(type, predicate, 0, true), &io, value_size, n,
                     count_selected);
}

sk_status sk_unique_pairs(sk_context *ctx, sk_type type, cl_mem keys_in, cl_mem values_in,
                          size_t value_size, cl_mem keys_out, cl_mem values_out, size_t n,
                          size_t *count)
{
    SK_ENTER(ctx);
    compact_io io = {keys_in, NULL, values_in, keys_out, values_out};
    return run_pairs(ctx, spec_unique(type), &io, value_size, n, count);
}

sk_status sk_select_if_host(sk_context *ctx, sk_type type, const char *predicate,
                            const void *src, void *dst, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    compact_spec s = spec_if(type, predicate, 0, false);
    host_io h = {src, NULL, NULL, dst, NULL};
    return compact_host(ctx, &s, &h, n, count);
}

sk_status sk_select_if_pairs_host(sk_context *ctx, sk_type type, const char *predicate,
                                  const void *keys_in, const void *values_in,
                                  size_t value_size, void *keys_out, void *values_out,
                                  size_t n, size_t *count)
{
    SK_ENTER(ctx);
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_if(type, predicate, 0, false), &h, value_size, n, count);
}

sk_status sk_select_flagged_host(sk_context *ctx, sk_type type, const void *src,
                                 const void *flags, size_t flag_size, void *dst, size_t n,
                                 size_t *count)
{
    SK_ENTER(ctx);
    compact_spec s = spec_flagged(type, flag_size);
    host_io h = {src, flags, NULL, dst, NULL};
    return compact_host(ctx, &s, &h, n, count);
}

sk_status sk_partition_host(sk_context *ctx, sk_type type, const char *predicate,
                            const void *src, void *dst, size_t n, size_t *count_selected)
{
    SK_ENTER(ctx);
    compact_spec s = spec_if(type, predicate, 0, true);
    host_io h = {src, NULL, NULL, dst, NULL};
    return compact_host(ctx, &s, &h, n, count_selected);
}

sk_status sk_unique_host(sk_context *ctx, sk_type type, const void *src, void *dst, size_t n,
                         size_t *count)
{
    SK_ENTER(ctx);
    compact_spec s = spec_unique(type);
    host_io h = {src, NULL, NULL, dst, NULL};
    return compact_host(ctx, &s, &h, n, count);
}

sk_status sk_select_flagged_pairs_host(sk_context *ctx, sk_type type, const void *keys_in,
                                       const void *flags, size_t flag_size,
                                       const void *values_in, size_t value_size,
                                       void *keys_out, void *values_out, size_t n,
                                       size_t *count)
{
    SK_ENTER(ctx);
    host_io h = {keys_in, flags, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_flagged(type, flag_size), &h, value_size, n, count);
}

sk_status sk_partition_pairs_host(sk_context *ctx, sk_type type, const char *predicate,
                                  const void *keys_in, const void *values_in,
                                  size_t value_size, void *keys_out, void *values_out,
                                  size_t n, size_t *count_selected)
{
    SK_ENTER(ctx);
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_if(type, predicate, 0, true), &h, value_size, n,
                      count_selected);
}

sk_status sk_unique_pairs_host(sk_context *ctx, sk_type type, const void *keys_in,
                               const void *values_in, size_t value_size, void *keys_out,
                               void *values_out, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_unique(type), &h, value_size, n, count);
}
