/*
 * compact.c - stream compaction on the scan: select-if, select-flagged,
 * stable partition and unique, each with or without values carried along.
 *
 * Every mode is three steps over chunks (CPU shape) or tiles (GPU shape):
 *   1. count the kept elements of every part into counts[0 .. parts), and a
 *      zero into counts[parts];
 *   2. an exclusive scan (sk__scan_counts) over those parts + 1 counts, in place: counts[p]
 *      becomes the output offset of part p and counts[parts] the total;
 *   3. every part re-evaluates the predicate and writes its kept elements
 *      from its offset on (a partition also writes its rejected elements
 *      after all kept ones).
 * The total is then read back (the only blocking step of the cl_mem forms).
 * The GPU shape selects in one pass instead, the count and the scan folded
 * into the write by decoupled look-back (compact.cl), and partitions below
 * a tuned size in two: that pass with the rejected elements written from
 * the end backwards, then their reversal.
 * Counts are uint32, or uint64 when n >= 2^32. The host-array forms are in
 * compact_host.c (compact.h).
 */
#include "compact.h"

#include <stdlib.h>
#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(compact_counts, "compaction: counts and offsets");

/* ---- what is being compacted ------------------------------------------------------ */

static const char *const cl_types[SK_TYPE_COUNT] = {
#define COMPACT_CL_TYPE_(suffix, value, name, bytes, cl, ...) [SK_##suffix] = cl,
    SK_TYPE_MAP(COMPACT_CL_TYPE_)
#undef COMPACT_CL_TYPE_
};

sk_status sk__compact_validate_spec(sk_context *ctx, const compact_spec *s)
{
    sk_status st0 = sk__require_op_type(ctx, s->type);
    if (st0 != SK_OK) return st0;
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
                             size_t n)
{
    size_t bytes = 0, flag_bytes = 0, value_bytes = 0;
    sk_status st = SK_OK;
    /* every size before any buffer: SK_E_SIZE wins over a small buffer */
    SK_TRY(sk__byte_size(ctx, n, sk_type_size(s->type), &bytes));
    SK_TRY(sk__byte_size(ctx, n, s->flag_size, &flag_bytes));
    SK_TRY(sk__byte_size(ctx, n, s->value_size, &value_bytes));
    SK_TRY(sk__check_buffer(ctx, io->src, bytes, "src"));
    SK_TRY(sk__check_buffer(ctx, io->dst, bytes, "dst"));
    if (s->keep == KEEP_FLAGS) SK_TRY(sk__check_buffer(ctx, io->flags, flag_bytes, "flags"));
    if (s->value_size) {
        SK_TRY(sk__check_buffer(ctx, io->vsrc, value_bytes, "values_in"));
        SK_TRY(sk__check_buffer(ctx, io->vdst, value_bytes, "values_out"));
    }
    SK_TRY(check_distinct(ctx, io));
    if (io->count) {
        SK_TRY(sk__check_buffer(ctx, io->count, sizeof(cl_ulong), "count"));
        const cl_mem others[] = {io->src, io->flags, io->vsrc, io->dst, io->vdst};
        for (size_t i = 0; i < 5; i++)
            if (others[i] == io->count)
                return sk__fail(ctx, SK_E_INVALID_ARG, "count is also another argument");
    }
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
    p.t = sk__tuning_for(ctx, SK_FAMILY_COMPACT, elem);
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    p.count_size = n > UINT32_MAX ? sizeof(cl_ulong) : sizeof(cl_uint);
    /* Look-back on uint counts. A partition places its rejected elements
     * backwards from the end, then (stable) reverses them (it needs no total
     * first): for a stable one fewer launches for more traffic, so only below
     * the tuning table's size. The single pass is a scan and takes the
     * scan's tiles. */
    p.lookback = p.gpu && p.count_size == sizeof(cl_uint) &&
                 p.t.scan_path != SK_SCAN_PATH_REDUCE_THEN_SCAN &&
                 (s->partition != PART_STABLE || n < p.t.partition_one_pass_below);
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

enum { K_COUNT, K_WRITE, K_SELECT_LOOKBACK, K_REVERSE_TAIL };

static const char *const gpu_kernels[] = {"sk_compact_count_tiles", "sk_compact_write_tiles",
                                          "sk_compact_select_lookback",
                                          "sk_compact_reverse_tail"};
static const char *const cpu_kernels[] = {"sk_compact_count_chunks",
                                          "sk_compact_write_chunks"};

static void config_keep(sk__str *c, const compact_spec *s)
{
    switch (s->keep) {
    case KEEP_IF:
        sk__str_addf(c, "#define SK_KEEP_IF 1\n");
        sk__config_function(c, "bool sk_pred(SK_T x)", s->predicate);
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
    if (p->gpu && sk_type_size(s->type) == 4)
        sk__str_addf(&c, "#define SK_T4 %s4\n", cl_types[s->type]);
    if (!p->gpu) sk__str_addf(&c, "#define SK_SHAPE_CPU 1\n");
    config_keep(&c, s);
    if (p->lookback)
        sk__str_addf(&c, "#define SK_LOOKBACK 1\n#define SK_LB_T uint\n#define SK_LB_IDENTITY 0u\n"
                         "#define sk_lb_op(a, b) ((a) + (b))\n");
    sk__config_blocks(&c, p->gpu, warps, p->lookback ? &p->t : NULL);
    return sk__str_take(&c);
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
                                 p->gpu ? gpu_kernels : cpu_kernels, p->lookback ? 4 : 2, out);
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

/* The leading arguments of every kernel: src, flags, vsrc (src when
 * unused). */
static void args_begin(sk__args *a, compact_job *j, unsigned kernel)
{
    sk__args_init(a, j->ctx, j->prog, kernel);
    sk__arg_mem(a, j->io.src);
    sk__arg_mem(a, j->io.flags ? j->io.flags : j->io.src);
    sk__arg_mem(a, j->io.vsrc ? j->io.vsrc : j->io.src);
}

static sk_status args_launch(sk__args *a, const compact_job *j)
{
    size_t local = j->plan.gpu ? j->plan.t.wg_size : 1;
    return sk__args_launch(a, j->plan.parts * local, local);
}

static sk_status launch_count(compact_job *j)
{
    sk__args a;
    args_begin(&a, j, K_COUNT);
    sk__arg_mem(&a, j->counts);
    sk__arg_ulong(&a, "n", j->n);
    if (!j->plan.gpu) sk__arg_ulong(&a, "chunk", j->plan.chunk);
    return args_launch(&a, j);
}

static sk_status launch_write(compact_job *j)
{
    sk__args a;
    args_begin(&a, j, K_WRITE);
    sk__arg_mem(&a, j->counts);
    sk__arg_mem(&a, j->io.dst);
    sk__arg_mem(&a, j->io.vdst ? j->io.vdst : j->io.dst);
    sk__arg_ulong(&a, "n", j->n);
    if (!j->plan.gpu) sk__arg_ulong(&a, "chunk", j->plan.chunk);
    sk__arg_uint(&a, "partition", j->spec->partition);
    return args_launch(&a, j);
}

/* One pass (plan.lookback): state words from the runtime, the total into
 * counts[0]; a stable partition's reversal of its rejected elements after
 * it. */
static sk_status launch_select_lookback(compact_job *j)
{
    cl_mem state = NULL;
    cl_uint epoch = 0;
    sk_status st = sk__lookback_state(j->ctx, j->plan.parts, &state, &epoch);
    if (st != SK_OK) return st;
    sk__args a;
    args_begin(&a, j, K_SELECT_LOOKBACK);
    sk__arg_mem(&a, state);
    sk__arg_uint(&a, "epoch", epoch);
    sk__arg_ulong(&a, "tiles", j->plan.parts);
    sk__arg_mem(&a, j->io.dst);
    sk__arg_mem(&a, j->io.vdst ? j->io.vdst : j->io.dst);
    sk__arg_mem(&a, j->counts);
    sk__arg_ulong(&a, "n", j->n);
    sk__arg_uint(&a, "partition", j->spec->partition);
    st = args_launch(&a, j);
    if (st != SK_OK || j->spec->partition != PART_STABLE) return st;
    sk__args r;
    sk__args_init(&r, j->ctx, j->prog, K_REVERSE_TAIL);
    sk__arg_mem(&r, j->io.dst);
    sk__arg_mem(&r, j->io.vdst ? j->io.vdst : j->io.dst);
    sk__arg_mem(&r, j->counts);
    sk__arg_ulong(&r, "n", j->n);
    return args_launch(&r, j); /* as many work-groups as tiles, striding */
}

/* The slot of counts that holds the total: counts[parts], or counts[0]
 * after one pass. */
static size_t total_slot(const compact_job *j) { return j->plan.lookback ? 0 : j->plan.parts; }

/* Blocks until the total is known. */
static sk_status read_total(compact_job *j, size_t *count)
{
    sk_status st = SK_OK;
    cl_ulong wide = 0;
    cl_uint narrow = 0;
    void *dst = j->plan.count_size == sizeof wide ? (void *)&wide : (void *)&narrow;
    SK_TRY(sk__read(j->ctx, j->counts, true, total_slot(j) * j->plan.count_size,
                    j->plan.count_size, dst));
    *count = j->plan.count_size == sizeof wide ? (size_t)wide : (size_t)narrow;
out:
    return st;
}

/* Enqueues the total's copy into io.count as one uint64: a 4-byte count
 * goes to the low-order half, the other half is zeroed. */
static sk_status copy_total(compact_job *j)
{
    sk_context *ctx = j->ctx;
    sk_status st = SK_OK;
    size_t cs = j->plan.count_size;
    size_t low = ctx->little_endian || cs == sizeof(cl_ulong) ? 0 : sizeof(cl_ulong) - cs;
    if (sk__measuring(ctx)) return SK_OK;
    if (cs < sizeof(cl_ulong)) {
        const cl_uint zero = 0;
        SK_CL_TRY(ctx, clEnqueueFillBuffer(ctx->queue, j->io.count, &zero, sizeof zero,
                                           low ? 0 : cs, sizeof zero, 0, NULL, NULL));
    }
    SK_TRY(sk__copy(ctx, j->counts, total_slot(j) * cs, j->io.count, low, cs));
out:
    return st;
}

/* Validates s and the buffers of io and enqueues the compaction of n > 0
 * elements; j->counts then holds the total (total_slot). */
static sk_status compact_enqueue(sk_context *ctx, const compact_spec *s, const compact_io *io,
                                 size_t n, compact_job *j)
{
    sk_status st = SK_OK;
    *j = (compact_job){ctx, s, plan_for(ctx, s, n), NULL, *io, NULL, n};
    SK_TRY(open_program(ctx, s, &j->plan, n, &j->prog));
    SK_TRY(sk__scratch_get(ctx, &compact_counts, (j->plan.parts + 1) * j->plan.count_size,
                           &j->counts));
    if (j->plan.lookback) {
        SK_TRY(launch_select_lookback(j));
    } else {
        SK_TRY(launch_count(j));
        SK_TRY(sk__scan_counts(ctx, j->plan.count_size == sizeof(cl_uint) ? SK_UINT32
                                                                           : SK_UINT64,
                               j->counts, j->plan.parts + 1));
        SK_TRY(launch_write(j));
    }
out:
    return st;
}

sk_status sk__compact_run(sk_context *ctx, const compact_spec *s, const compact_io *io,
                         size_t n, size_t *count)
{
    sk_status st = SK_OK;
    compact_job j;
    SK_TRY(sk__compact_validate_spec(ctx, s));
    if (!count && !io->count) return sk__fail(ctx, SK_E_INVALID_ARG, "count is NULL");
    SK_TRY(validate_io(ctx, s, io, n));
    if (n == 0) {
        if (count) *count = 0;
        return io->count ? sk__fill_zero(ctx, io->count, sizeof(cl_ulong)) : SK_OK;
    }
    SK_TRY(compact_enqueue(ctx, s, io, n, &j));
    st = io->count ? copy_total(&j) : read_total(&j, count);
out:
    return st;
}

/* ---- entry points ---------------------------------------------------------------------- */

sk_status sk__compact_enter_pairs(sk_context *ctx, const void *values_in,
                                  const void *values_out, size_t value_size, compact_spec *s)
{
    SK_ENTER(ctx);
    if (!values_in != !values_out)
        return sk__fail(ctx, SK_E_INVALID_ARG, "values_in and values_out: give both or neither");
    if (values_in && value_size != 4 && value_size != 8)
        return sk__fail(ctx, SK_E_INVALID_ARG, "value_size is %zu, not 4 or 8", value_size);
    s->value_size = values_in ? value_size : 0;
    return SK_OK;
}

/* The cl_mem pair forms: s without values, plus io's value buffers. */
static sk_status run_pairs(sk_context *ctx, compact_spec s, const compact_io *io,
                           size_t value_size, size_t n, size_t *count)
{
    sk_status st = sk__compact_enter_pairs(ctx, io->vsrc, io->vdst, value_size, &s);
    return st == SK_OK ? sk__compact_run(ctx, &s, io, n, count) : st;
}

/* The cl_mem forms without values (flags NULL but for the flagged forms);
 * the count goes to *count or, for the _devcount forms, to count_mem. */
static sk_status run_keys(sk_context *ctx, compact_spec s, cl_mem src, cl_mem flags,
                          cl_mem dst, cl_mem count_mem, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    compact_io io = {src, flags, NULL, dst, NULL, count_mem};
    return sk__compact_run(ctx, &s, &io, n, count);
}

/* The _devcount forms: their count buffer must be given (NULL would read
 * as "the count goes to the host"). */
static sk_status run_keys_devcount(sk_context *ctx, compact_spec s, cl_mem src, cl_mem flags,
                                   cl_mem dst, cl_mem count, size_t n)
{
    if (ctx && !count) return sk__fail(ctx, SK_E_INVALID_ARG, "count is NULL");
    return run_keys(ctx, s, src, flags, dst, count, n, NULL);
}

static sk_status run_pairs_devcount(sk_context *ctx, compact_spec s, const compact_io *io,
                                    size_t value_size, size_t n)
{
    if (ctx && !io->count) return sk__fail(ctx, SK_E_INVALID_ARG, "count is NULL");
    return run_pairs(ctx, s, io, value_size, n, NULL);
}

/* The predicate's pair forms: select (PART_NONE) or a partition, the
 * count to *count or, for the _devcount forms, to count_mem. */
static sk_status run_if_pairs(sk_context *ctx, partition_kind partition, sk_type key_type,
                              size_t value_size, const char *predicate, const cl_mem kv[4],
                              cl_mem count_mem, size_t *count, size_t n)
{
    compact_io io = {kv[0], NULL, kv[1], kv[2], kv[3], count_mem};
    return run_pairs(ctx, spec_if(key_type, predicate, 0, partition), &io, value_size, n,
                     count);
}

sk_status sk_select_if(sk_context *ctx, sk_type type, const char *predicate, cl_mem src,
                       cl_mem dst, size_t *count, size_t n)
{
    return run_keys(ctx, spec_if(type, predicate, 0, PART_NONE), src, NULL, dst, NULL, n,
                    count);
}

/* The predicate's pair forms, select and partition alike: COUNT is the
 * count's parameter, size_t * or (_devcount) cl_mem. */
#define IF_PAIRS_FORM(name, partition, COUNT, count_mem, count_ptr)                        \
    sk_status name(sk_context *ctx, sk_type key_type, size_t value_size,                   \
                   const char *predicate, cl_mem keys_in, cl_mem values_in,                \
                   cl_mem keys_out, cl_mem values_out, COUNT count, size_t n)              \
    {                                                                                      \
        const cl_mem kv[4] = {keys_in, values_in, keys_out, values_out};                  \
        return run_if_pairs(ctx, partition, key_type, value_size, predicate, kv,          \
                            count_mem, count_ptr, n);                                      \
    }

IF_PAIRS_FORM(sk_select_if_pairs, PART_NONE, size_t *, NULL, count)
IF_PAIRS_FORM(sk_partition_pairs, PART_STABLE, size_t *, NULL, count)
IF_PAIRS_FORM(sk_partition_reversed_pairs, PART_REVERSED, size_t *, NULL, count)
IF_PAIRS_FORM(sk_select_if_pairs_devcount, PART_NONE, cl_mem, count, NULL)
IF_PAIRS_FORM(sk_partition_pairs_devcount, PART_STABLE, cl_mem, count, NULL)
IF_PAIRS_FORM(sk_partition_reversed_pairs_devcount, PART_REVERSED, cl_mem, count, NULL)

sk_status sk_select_flagged(sk_context *ctx, sk_type type, size_t flag_size, cl_mem src,
                            cl_mem flags, cl_mem dst, size_t *count, size_t n)
{
    return run_keys(ctx, spec_flagged(type, flag_size), src, flags, dst, NULL, n, count);
}

sk_status sk_select_flagged_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                  size_t flag_size, cl_mem keys_in, cl_mem values_in,
                                  cl_mem flags, cl_mem keys_out, cl_mem values_out,
                                  size_t *count, size_t n)
{
    compact_io io = {keys_in, flags, values_in, keys_out, values_out, NULL};
    return run_pairs(ctx, spec_flagged(key_type, flag_size), &io, value_size, n, count);
}

sk_status sk_partition(sk_context *ctx, sk_type type, const char *predicate, cl_mem src,
                       cl_mem dst, size_t *count_selected, size_t n)
{
    return run_keys(ctx, spec_if(type, predicate, 0, PART_STABLE), src, NULL, dst, NULL, n,
                    count_selected);
}

sk_status sk_partition_reversed(sk_context *ctx, sk_type type, const char *predicate,
                                cl_mem src, cl_mem dst, size_t *count_selected, size_t n)
{
    return run_keys(ctx, spec_if(type, predicate, 0, PART_REVERSED), src, NULL, dst, NULL, n,
                    count_selected);
}

sk_status sk_unique(sk_context *ctx, sk_type type, cl_mem src, cl_mem dst, size_t *count,
                    size_t n)
{
    return run_keys(ctx, spec_unique(type), src, NULL, dst, NULL, n, count);
}

sk_status sk_unique_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                          cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                          cl_mem values_out, size_t *count, size_t n)
{
    compact_io io = {keys_in, NULL, values_in, keys_out, values_out, NULL};
    return run_pairs(ctx, spec_unique(key_type), &io, value_size, n, count);
}

/* ---- device-count forms ---------------------------------------------------------------- */

sk_status sk_select_if_devcount(sk_context *ctx, sk_type type, const char *predicate,
                                cl_mem src, cl_mem dst, cl_mem count, size_t n)
{
    return run_keys_devcount(ctx, spec_if(type, predicate, 0, PART_NONE), src, NULL, dst, count,
                             n);
}

sk_status sk_select_flagged_devcount(sk_context *ctx, sk_type type, size_t flag_size,
                                     cl_mem src, cl_mem flags, cl_mem dst, cl_mem count,
                                     size_t n)
{
    return run_keys_devcount(ctx, spec_flagged(type, flag_size), src, flags, dst, count, n);
}

sk_status sk_select_flagged_pairs_devcount(sk_context *ctx, sk_type key_type,
                                           size_t value_size, size_t flag_size,
                                           cl_mem keys_in, cl_mem values_in, cl_mem flags,
                                           cl_mem keys_out, cl_mem values_out, cl_mem count,
                                           size_t n)
{
    compact_io io = {keys_in, flags, values_in, keys_out, values_out, count};
    return run_pairs_devcount(ctx, spec_flagged(key_type, flag_size), &io, value_size, n);
}

sk_status sk_partition_devcount(sk_context *ctx, sk_type type, const char *predicate,
                                cl_mem src, cl_mem dst, cl_mem count_selected, size_t n)
{
    return run_keys_devcount(ctx, spec_if(type, predicate, 0, PART_STABLE), src, NULL, dst,
                             count_selected, n);
}

sk_status sk_partition_reversed_devcount(sk_context *ctx, sk_type type,
                                         const char *predicate, cl_mem src, cl_mem dst,
                                         cl_mem count_selected, size_t n)
{
    return run_keys_devcount(ctx, spec_if(type, predicate, 0, PART_REVERSED), src, NULL, dst,
                             count_selected, n);
}

sk_status sk_unique_devcount(sk_context *ctx, sk_type type, cl_mem src, cl_mem dst,
                             cl_mem count, size_t n)
{
    return run_keys_devcount(ctx, spec_unique(type), src, NULL, dst, count, n);
}

sk_status sk_unique_pairs_devcount(sk_context *ctx, sk_type key_type, size_t value_size,
                                   cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                   cl_mem values_out, cl_mem count, size_t n)
{
    compact_io io = {keys_in, NULL, values_in, keys_out, values_out, count};
    return run_pairs_devcount(ctx, spec_unique(key_type), &io, value_size, n);
}
