/*
 * scan.c - inclusive / exclusive scan and reduce over built-in and custom
 * monoids: validate, plan, get the cached program, enqueue.
 *
 * Reduce-then-scan, recursive on the tile (or chunk) totals:
 *   level 0: reduce every tile of src into partials[0 .. tiles)
 *   level 1: exclusive scan of partials, in place (the same algorithm)
 *   level 0: scan every tile of src into dst, seeded with partials[tile]
 * Small inputs take a single work-group (GPU shape) or a single work-item
 * (CPU shape) that walks the whole input in order.
 *
 * Either shape can instead scan in one pass with decoupled look-back
 * (kernels/lookback.cl) where the monoid fits in 4 bytes (or, as the
 * segmented scans' value and head flag, in 33 bits): by default for
 * operators whose result does not depend on the combining order, on request
 * (SK_PARAM_SCAN_PATH) for the others. The CPU shape's pass reduces a
 * predecessor chunk itself rather than wait for it, so it reads other
 * chunks' input: it takes plain arrays out of place only (in place, and
 * the lifted scans of other primitives, keep reduce-then-scan). A reduce
 * reads its input once already and keeps its path.
 */
#include "scan.h"

#include <stdlib.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(scan_partials, "scan: partials of every level");

/* ---- built-in monoids ---------------------------------------------------------- */

typedef sk__monoid_text builtin_text;

/* A built-in (type, operator) as the kernels are built for it: its monoid
 * (monoid.c) and, where they are exact, its vector forms. */
static sk_status builtin_monoid(sk_context *ctx, sk_type t, sk_op op, builtin_text *buf,
                                scan_op *out)
{
    bool exact = false;
    sk_status st = sk__monoid_of(ctx, t, op, buf, &out->m, &exact);
    if (st != SK_OK) return st;
    /* The lane-wise reduce and scan regroup operands, which is exact only
     * where the operator is associative (sk__monoid_of's order_free):
     * integers, and float min/max. Float add and mul keep the in-order
     * loops (regrouped float products can overflow where the in-order ones
     * do not). Float min/max do not commute (which NaN a NaN result is), so
     * their lane-wise reduce keeps the order (scan.cl). */
    out->vec_type = exact ? buf->vec_type : NULL;
    out->vec_combine = exact ? buf->vec_combine : NULL;
    out->vec4_type = exact ? buf->vec4_type : NULL;
    out->vec4_combine = exact ? buf->vec4_combine : NULL;
    out->size_is_bound = false;
    out->order_free = exact;
    out->commutes = !sk__type_is_float(t);
    out->builtin_type = true;
    out->lb_codec = NULL;
    out->lb_counters = 0;
    out->lb_wide = false;
    out->own_tile = false;
    return SK_OK;
}

/* ---- programs ------------------------------------------------------------------ */

enum { K_GPU_REDUCE_TILES, K_GPU_REDUCE_SINGLE, K_GPU_SCAN_TILES, K_GPU_SCAN_SINGLE,
       K_GPU_REDUCE_LAST, K_GPU_SCAN_LOOKBACK };
enum { K_CPU_REDUCE_CHUNKS, K_CPU_SCAN_CHUNKS, K_CPU_SCAN_LOOKBACK };

static const char *const gpu_kernels[] = {"sk_reduce_tiles", "sk_reduce_single",
                                          "sk_scan_tiles", "sk_scan_single",
                                          "sk_reduce_last", "sk_scan_lookback"};
static const char *const cpu_kernels[] = {"sk_reduce_chunks", "sk_scan_chunks",
                                          "sk_scan_lookback"};

/* The configuration text placed before scan.cl: the monoid, the shape, the
 * level-0 input/output when it is not a plain array (io), the shape's
 * blocks (with `warps` the warp-level work-group scan and look-back), with
 * `lookback` the single-pass kernel's look-back functions, and the io's own
 * tile where it has one. */
static char *scan_config(const scan_op *op, const sk__scan_io *io, const sk__tuning *t,
                         bool warps, bool lookback)
{
    const sk_monoid *m = &op->m;
    sk__str s = {0};
    sk__str_addf(&s, SK_FP64_PRAGMA);
    if (m->preamble) {
        sk__str_add(&s, m->preamble);
        sk__str_add(&s, "\n");
    }
    sk__str_addf(&s, "#define SK_T %s\n", m->type);
    sk__config_function(&s, "SK_T sk_identity(void)", m->identity);
    sk__str_addf(&s, "#define SK_IDENTITY sk_identity()\n");
    if (op->size_is_bound)
        sk__str_addf(&s, "#define SK_T_SIZE sizeof(SK_T)\n");
    else
        sk__str_addf(&s, "#define SK_T_SIZE %zu\n", m->size);
    sk__config_function(&s, "SK_T sk_op(SK_T a, SK_T b)", m->combine);
    if (t->shape == SK_SHAPE_GPU)
        sk__str_addf(&s, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                     t->wg_size, t->items);
    if (t->shape == SK_SHAPE_GPU && m->size == 4 && !op->size_is_bound)
        sk__str_addf(&s, "#define SK_TILE_VEC4 1\n");
    if (t->shape != SK_SHAPE_GPU) sk__str_addf(&s, "#define SK_SHAPE_CPU 1\n");
    if (t->shape == SK_SHAPE_CPU && op->vec_type && !io)
        sk__str_addf(&s, "#define SK_V %s\nSK_V sk_opv(SK_V a, SK_V b) { return (%s); }\n"
                         "#define SK_V4 %s\nSK_V4 sk_opv4(SK_V4 a, SK_V4 b) { return (%s); }\n",
                     op->vec_type, op->vec_combine, op->vec4_type, op->vec4_combine);
    if (t->shape == SK_SHAPE_CPU && op->vec_type && !io && op->commutes)
        sk__str_addf(&s, "#define SK_V_COMMUTES 1\n");
    if (t->shape == SK_SHAPE_CPU && op->builtin_type && !io && t->cpu_stream_bytes)
        sk__str_addf(&s, "#define SK_NT_STORES 1\n");
    if (io) {
        sk__str_add(&s, io->text);
        sk__str_add(&s, "\n");
    }
    if (lookback && op->lb_codec) {
        sk__str_add(&s, op->lb_wide ? "#define SK_LB_CODEC 1\n#define SK_LB_WIDE 1\n"
                                    : "#define SK_LB_CODEC 1\n");
        sk__str_add(&s, op->lb_codec);
        sk__str_add(&s, "\n");
    }
    if (lookback)
        sk__str_addf(&s, "#define SK_LOOKBACK 1\n#define SK_LB_T SK_T\n"
                         "#define SK_LB_IDENTITY SK_IDENTITY\n#define sk_lb_op sk_op\n");
    sk__config_blocks(&s, t->shape == SK_SHAPE_GPU, warps, lookback ? t : NULL);
    if (io && io->tile && t->shape == SK_SHAPE_GPU) {
        sk__str_add(&s, io->tile);
        sk__str_add(&s, "\n");
    }
    return sk__str_take(&s);
}

typedef struct scan_config_args {
    const scan_op *op;
    const sk__scan_io *io;
    const sk__tuning *t;
    bool lookback;
} scan_config_args;

static char *make_scan_config(const void *user, bool warps)
{
    const scan_config_args *a = user;
    return scan_config(a->op, a->io, a->t, warps, a->lookback);
}

static sk_status scan_program(sk_context *ctx, const scan_op *op, const sk__scan_io *io,
                              const sk__tuning *t, bool lookback, const sk__program **out)
{
    bool gpu = t->shape == SK_SHAPE_GPU;
    scan_config_args args = {op, io, t, lookback};
    return sk__program_get_warps(ctx, "scan", gpu ? t->wg_size : 0, make_scan_config, &args,
                                 gpu ? gpu_kernels : cpu_kernels, (gpu ? 5 : 2) + lookback, out);
}

/* A buffer and an element offset into it. */
typedef struct span {
    cl_mem mem;
    cl_ulong off;
} span;

/* Level 0 reads and writes through `io` (plain arrays when io is NULL)
 * with program `top`; the levels above work on plain arrays of partials
 * with program `plain` (the same as top when io is NULL). */
typedef struct scan_job {
    sk_context *ctx;
    const sk__program *top;
    const sk__program *plain;
    const sk__scan_io *io;
    const sk__tuning *t;
    size_t elem_size;         /* bytes per element */
    bool lookback;            /* level 0 scans in one pass */
    size_t lb_counters;       /* look-back words per tile */
    bool lb_wide;             /* words without epoch, zeroed before each launch */
    span scratch;             /* free scratch from here on */
    bool input_stays;         /* no output overwrites the input (the GPU one pass
                                 may reduce other tiles' input itself) */
} scan_job;

/* ---- kernel arguments ------------------------------------------------------------ */

static void arg_span(sk__args *a, const char *off_name, span s)
{
    sk__arg_mem(a, s.mem);
    sk__arg_ulong(a, off_name, s.off);
}

/* The input of a level: level 0 through the job's io, if any. */
static void arg_input(sk__args *a, const scan_job *job, unsigned level, span s)
{
    if (level == 0 && job->io) job->io->set_in(a, job->io->user);
    else arg_span(a, "src_off", s);
}

static void arg_output(sk__args *a, const scan_job *job, unsigned level, span s)
{
    if (level == 0 && job->io && job->io->set_out) job->io->set_out(a, job->io->user);
    else arg_span(a, "dst_off", s);
}

/* ---- the recursion ------------------------------------------------------------------- */

typedef enum level_op { LEVEL_REDUCE, LEVEL_SCAN } level_op;
typedef enum level_form { FORM_GPU_SINGLE, FORM_GPU_TILES, FORM_CPU_CHUNKS } level_form;

/* The kernel of a level's reduce or scan in each form. */
static const unsigned level_kernels[2][3] = {
    [LEVEL_REDUCE] = {K_GPU_REDUCE_SINGLE, K_GPU_REDUCE_TILES, K_CPU_REDUCE_CHUNKS},
    [LEVEL_SCAN] = {K_GPU_SCAN_SINGLE, K_GPU_SCAN_TILES, K_CPU_SCAN_CHUNKS},
};

/* Starts the arguments of the kernel that reduces or scans `level`, split
 * as s, with the level's input. */
static void level_args(sk__args *a, const scan_job *job, level_op op, unsigned level, span src,
                       level_split s)
{
    level_form form = job->t->shape != SK_SHAPE_GPU ? FORM_CPU_CHUNKS
                      : s.parts                     ? FORM_GPU_TILES
                                                    : FORM_GPU_SINGLE;
    unsigned k = level_kernels[op][form];
    sk__args_init(a, job->ctx, level ? job->plain : job->top, k);
    arg_input(a, job, level, src);
}

/* Launches one work-group (GPU shape) or work-item (CPU shape) per part of
 * s, or one alone when s is single. */
static sk_status level_launch(sk__args *a, const scan_job *job, level_split s)
{
    size_t local = job->t->shape == SK_SHAPE_GPU ? job->t->wg_size : 1;
    return sk__args_launch(a, s.parts ? s.parts * local : local, local);
}

/* Scans n elements of src into dst at `level`, split as s; every tile or
 * chunk starts from its seed in `seeds` (none when seeds.mem is NULL; the
 * GPU shape's single work-group takes no seeds). */
static sk_status launch_scan(scan_job *job, unsigned level, span src, span dst, span seeds,
                             size_t n, level_split s, bool exclusive)
{
    bool gpu = job->t->shape == SK_SHAPE_GPU;
    bool single = s.parts == 0;
    sk__args a;
    level_args(&a, job, LEVEL_SCAN, level, src, s);
    arg_output(&a, job, level, dst);
    if (!(gpu && single)) arg_span(&a, "seeds_off", seeds);
    sk__arg_ulong(&a, "n", n);
    if (!gpu) sk__arg_ulong(&a, "chunk", s.chunk);
    sk__arg_uint(&a, "exclusive", exclusive);
    if (!(gpu && single)) sk__arg_uint(&a, "has_seeds", seeds.mem != NULL);
    return level_launch(&a, job, s);
}

/* Reduces n elements of src at `level` into partials (one per part of s),
 * or into `partials` itself when s is single. */
static sk_status launch_reduce(scan_job *job, unsigned level, span src, span partials,
                               size_t n, level_split s)
{
    bool gpu = job->t->shape == SK_SHAPE_GPU;
    sk__args a;
    level_args(&a, job, LEVEL_REDUCE, level, src, s);
    arg_span(&a, "partials_off", partials);
    sk__arg_ulong(&a, "n", n);
    if (!gpu) sk__arg_ulong(&a, "chunk", s.chunk);
    return level_launch(&a, job, s);
}

/* The single pass over the tiles or chunks of s (level 0). */
static sk_status launch_lookback(scan_job *job, span src, span dst, size_t n, level_split s,
                                 bool exclusive)
{
    bool gpu = job->t->shape == SK_SHAPE_GPU;
    /* CPU shape: non-temporal stores for outputs far past the caches (where
     * the configuration has them; the kernel ignores the flag otherwise). */
    size_t stream_bytes = job->t->cpu_stream_bytes;
    bool stream = !gpu && stream_bytes && n >= stream_bytes / job->elem_size;
    cl_mem state = NULL;
    cl_uint epoch = 0;
    sk_status st = job->lb_wide
                       ? sk__lookback_state_zeroed(job->ctx, s.parts, &state, &epoch)
                       : sk__lookback_state(job->ctx, s.parts * job->lb_counters, &state, &epoch);
    if (st != SK_OK) return st;
    sk__args a;
    sk__args_init(&a, job->ctx, job->top, gpu ? K_GPU_SCAN_LOOKBACK : K_CPU_SCAN_LOOKBACK);
    arg_input(&a, job, 0, src);
    arg_output(&a, job, 0, dst);
    sk__arg_mem(&a, state);
    sk__arg_uint(&a, "epoch", epoch);
    sk__arg_ulong(&a, "tiles", s.parts);
    sk__arg_ulong(&a, "n", n);
    if (!gpu) sk__arg_ulong(&a, "chunk", s.chunk);
    sk__arg_uint(&a, "exclusive", exclusive);
    if (!gpu) sk__arg_uint(&a, "stream", stream);
    if (gpu) sk__arg_uint(&a, "input_stays", job->input_stays);
    return level_launch(&a, job, s);
}

static sk_status scan_levels(scan_job *job, unsigned level, span src, span dst, size_t n,
                             bool exclusive)
{
    bool one_pass = level == 0 && job->lookback;
    level_split s = one_pass && job->t->shape == SK_SHAPE_CPU
                        ? sk__scan_split_cpu_lookback(job->t, n)
                        : sk__scan_split_level(job->t, n);
    if (s.parts && one_pass) return launch_lookback(job, src, dst, n, s, exclusive);
    if (s.parts == 0)
        return launch_scan(job, level, src, dst, (span){NULL, 0}, n, s, exclusive);
    span partials = job->scratch;
    job->scratch.off += s.parts;
    sk_status st = launch_reduce(job, level, src, partials, n, s);
    if (st == SK_OK) st = scan_levels(job, level + 1, partials, partials, s.parts, true);
    if (st == SK_OK) st = launch_scan(job, level, src, dst, partials, n, s, exclusive);
    job->scratch.off -= s.parts;
    return st;
}

/* GPU shape: reduces n elements of src at `level`, split as s, into
 * result in one launch (the last work-group to finish totals the tiles). */
static sk_status launch_reduce_last(scan_job *job, unsigned level, span src, span result,
                                    size_t n, level_split s)
{
    size_t pieces = (job->elem_size + 3) / 4; /* scan.cl: SK_PIECES */
    cl_mem state = NULL;
    cl_uint epoch = 0;
    sk_status st = sk__lookback_state(job->ctx, s.parts * pieces, &state, &epoch);
    if (st != SK_OK) return st;
    sk__args a;
    sk__args_init(&a, job->ctx, level ? job->plain : job->top, K_GPU_REDUCE_LAST);
    arg_input(&a, job, level, src);
    sk__arg_mem(&a, state);
    sk__arg_uint(&a, "epoch", epoch);
    arg_span(&a, "result_off", result);
    sk__arg_ulong(&a, "n", n);
    return level_launch(&a, job, s);
}

/* GPU shape: n elements in tiles, reduced in one launch within the tuned
 * numbers of tiles (parts 0: not in one launch). */
static level_split reduce_one_launch_split(const scan_job *job, size_t n)
{
    const sk__tuning *t = job->t;
    size_t tile = t->wg_size * t->items;
    size_t tiles = n / tile + (n % tile != 0);
    level_split s = {0, n};
    if (t->shape == SK_SHAPE_GPU && tiles >= 2 && tiles >= t->reduce_last_min_tiles &&
        tiles <= t->reduce_last_max_tiles)
        s = (level_split){tiles, tile};
    return s;
}

static sk_status reduce_levels(scan_job *job, unsigned level, span src, size_t n,
                               span result)
{
    level_split one = reduce_one_launch_split(job, n);
    if (one.parts) return launch_reduce_last(job, level, src, result, n, one);
    level_split s = sk__scan_split_level(job->t, n);
    if (s.parts == 0) return launch_reduce(job, level, src, result, n, s);
    span partials = job->scratch;
    job->scratch.off += s.parts;
    sk_status st = launch_reduce(job, level, src, partials, n, s);
    if (st == SK_OK) st = reduce_levels(job, level + 1, partials, s.parts, result);
    job->scratch.off -= s.parts;
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

/* Builds the job's programs. GPU shape: a large element type can leave a
 * kernel unable to run a work-group of the tuned size (registers); halve
 * it until every kernel of both programs fits. */
static sk_status job_programs(scan_job *job, const scan_op *op, sk__tuning *t)
{
    sk_context *ctx = job->ctx;
    for (;;) {
        sk_status st = scan_program(ctx, op, job->io, t, job->lookback, &job->top);
        if (st == SK_OK)
            st = job->io || job->lookback ? scan_program(ctx, op, NULL, t, false, &job->plain)
                                          : (job->plain = job->top, SK_OK);
        if (st != SK_OK || t->shape != SK_SHAPE_GPU) return st;
        bool lowered = false, lowered_plain = false;
        SK_TRY(sk__fit_wg(ctx, job->top, "scan", &t->wg_size, &lowered));
        SK_TRY(sk__fit_wg(ctx, job->plain, "scan", &t->wg_size, &lowered_plain));
        if (!lowered && !lowered_plain) return SK_OK;
        if (t->wg_size * t->items < 2) t->items = 2;
    out:
        if (st != SK_OK) return st;
    }
}

/* Gets the programs and enough scratch for n elements plus `extra`. */
static sk_status job_open(sk_context *ctx, const scan_op *op, const sk__scan_io *io,
                          size_t n, size_t extra, job_kind kind, sk__tuning *t, scan_job *job)
{
    bool lookback = false;
    *t = sk__scan_tuning(ctx, op, kind, n, &lookback);
    size_t counters = op->lb_counters ? op->lb_counters : 1;
    *job = (scan_job){ctx,      NULL,     NULL,     io,          t,    op->m.size,
                      lookback, counters, op->lb_wide, {NULL, 0}, false};
    sk_status st = job_programs(job, op, t);
    if (st != SK_OK) return st;
    size_t elems = sk__scan_scratch_elems(t, n) + extra;
    return sk__scratch_get(ctx, &scan_partials, elems * op->m.size,
                           &job->scratch.mem);
}

/* Scans n elements after the buffers were validated (n > 0). */
static sk_status scan_go(sk_context *ctx, const scan_op *op, const sk__scan_io *io,
                         span src, span dst, size_t n, bool exclusive)
{
    sk__tuning t;
    scan_job job;
    job_kind kind = !io && src.mem != dst.mem ? JOB_SCAN_INPUT_STAYS : JOB_SCAN;
    sk_status st = job_open(ctx, op, io, n, 0, kind, &t, &job);
    job.input_stays = io ? io->input_stays : src.mem != dst.mem;
    if (st == SK_OK) st = scan_levels(&job, 0, src, dst, n, exclusive);
    return st;
}

/* Reduces n elements into host memory after validation. */
static sk_status reduce_go(sk_context *ctx, const scan_op *op, const sk__scan_io *io,
                           span src, size_t n, void *result)
{
    sk__tuning t;
    scan_job job;
    sk_status st = SK_OK;
    SK_TRY(job_open(ctx, op, io, n, 1, JOB_REDUCE, &t, &job));
    /* The result sits after the scratch the levels use. */
    span res = {job.scratch.mem, sk__scan_scratch_elems(&t, n)};
    SK_TRY(reduce_levels(&job, 0, src, n, res));
    SK_TRY(sk__read(ctx, res.mem, true, res.off * op->m.size, op->m.size, result));
out:
    return st;
}

static sk_status scan_run(sk_context *ctx, const scan_op *op, cl_mem src, cl_mem dst,
                          size_t n, bool exclusive)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, n, op->m.size, &bytes));
    SK_TRY(sk__check_buffer(ctx, src, bytes, "src"));
    SK_TRY(sk__check_buffer(ctx, dst, bytes, "dst"));
    if (n == 0) return SK_OK;
    st = scan_go(ctx, op, NULL, (span){src, 0}, (span){dst, 0}, n, exclusive);
out:
    return st;
}

static sk_status reduce_run(sk_context *ctx, const scan_op *op, cl_mem src, size_t n,
                            void *result)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    if (!result) return sk__fail(ctx, SK_E_INVALID_ARG, "result is NULL");
    SK_TRY(sk__byte_size(ctx, n, op->m.size, &bytes));
    SK_TRY(sk__check_buffer(ctx, src, bytes, "src"));
    st = reduce_go(ctx, op, NULL, (span){src, 0}, n, result);
out:
    return st;
}

/* ---- for the primitives built on the scan (sk_internal.h) --------------------------- */

sk_status sk__scan_counts(sk_context *ctx, sk_type type, cl_mem counts, size_t n)
{
    builtin_text text;
    scan_op op;
    sk_status st = builtin_monoid(ctx, type, SK_OP_ADD, &text, &op);
    if (st != SK_OK || n == 0) return st;
    return scan_go(ctx, &op, NULL, (span){counts, 0}, (span){counts, 0}, n, true);
}

sk_status sk__scan_lifted(sk_context *ctx, const sk_monoid *m, const sk__scan_io *io,
                          size_t n, bool exclusive, const sk__lb_codec *codec)
{
    if (n == 0) return SK_OK;
    const scan_op op = {*m, NULL, NULL, NULL, NULL, true, codec && codec->order_free, false,
                        false, codec ? codec->text : NULL, codec ? codec->counters : 0,
                        codec && codec->wide, io && io->tile};
    return scan_go(ctx, &op, io, (span){NULL, 0}, (span){NULL, 0}, n, exclusive);
}

sk_status sk__reduce_lifted(sk_context *ctx, const sk_monoid *m, const sk__scan_io *io,
                            size_t n, void *result)
{
    const scan_op op = {*m, NULL, NULL, NULL, NULL, false, false, false, false, NULL, 0,
                        false, io && io->tile};
    return reduce_go(ctx, &op, io, (span){NULL, 0}, n, result);
}

/* ---- host-array forms ------------------------------------------------------------------ */

static sk_status scan_host(sk_context *ctx, const scan_op *op, const void *src, void *dst,
                           size_t n, bool exclusive)
{
    sk_status st = SK_OK;
    cl_mem mem = NULL;
    if (n && !dst) return sk__fail(ctx, SK_E_INVALID_ARG, "dst is NULL");
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, src, n, op->m.size, &mem));
    if (n == 0) return SK_OK;
    SK_TRY(scan_run(ctx, op, mem, mem, n, exclusive));
    SK_TRY(sk__download(ctx, mem, 0, dst, n * op->m.size));
out:
    return st;
}

static sk_status reduce_host(sk_context *ctx, const scan_op *op, const void *src, size_t n,
                             void *result)
{
    sk_status st = SK_OK;
    cl_mem mem = NULL;
    if (!result) return sk__fail(ctx, SK_E_INVALID_ARG, "result is NULL");
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, src, n, op->m.size, &mem));
    SK_TRY(reduce_run(ctx, op, mem, n, result));
out:
    return st;
}

/* ---- entry points: resolve the operator, then one of the runners ---------------------- */

/* `call` sees `op`, a validated scan_op for a caller's monoid. */
#define SK_WITH_MONOID(ctx, monoid, call)                                      \
    do {                                                                       \
        SK_ENTER(ctx);                                                         \
        sk_status st_ = sk__validate_monoid((ctx), (monoid));                  \
        if (st_ != SK_OK) return st_;                                          \
        const scan_op op_ = {*(monoid), NULL, NULL, NULL, NULL, false, false, false, false, \
                             NULL, 0, false, false};                           \
        const scan_op *op = &op_;                                              \
        return call;                                                           \
    } while (0)

/* `call` sees `op`, the scan_op of a built-in (type, operator). */
#define SK_WITH_BUILTIN(ctx, type, oper, call)                                 \
    do {                                                                       \
        SK_ENTER(ctx);                                                         \
        builtin_text text_;                                                    \
        scan_op op_;                                                           \
        sk_status st_ = builtin_monoid((ctx), (type), (oper), &text_, &op_);   \
        if (st_ != SK_OK) return st_;                                          \
        const scan_op *op = &op_;                                              \
        return call;                                                           \
    } while (0)

sk_status sk_scan_inclusive(sk_context *ctx, sk_type type, sk_op oper, cl_mem src,
                            cl_mem dst, size_t n)
{
    SK_WITH_BUILTIN(ctx, type, oper, scan_run(ctx, op, src, dst, n, false));
}

sk_status sk_scan_exclusive(sk_context *ctx, sk_type type, sk_op oper, cl_mem src,
                            cl_mem dst, size_t n)
{
    SK_WITH_BUILTIN(ctx, type, oper, scan_run(ctx, op, src, dst, n, true));
}

sk_status sk_reduce(sk_context *ctx, sk_type type, sk_op oper, cl_mem src, void *result,
                    size_t n)
{
    SK_WITH_BUILTIN(ctx, type, oper, reduce_run(ctx, op, src, n, result));
}

sk_status sk_scan_inclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                   cl_mem dst, size_t n)
{
    SK_WITH_MONOID(ctx, m, scan_run(ctx, op, src, dst, n, false));
}

sk_status sk_scan_exclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                   cl_mem dst, size_t n)
{
    SK_WITH_MONOID(ctx, m, scan_run(ctx, op, src, dst, n, true));
}

sk_status sk_reduce_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src, void *result,
                           size_t n)
{
    SK_WITH_MONOID(ctx, m, reduce_run(ctx, op, src, n, result));
}

sk_status sk_scan_inclusive_host(sk_context *ctx, sk_type type, sk_op oper, const void *src,
                                 void *dst, size_t n)
{
    SK_WITH_BUILTIN(ctx, type, oper, scan_host(ctx, op, src, dst, n, false));
}

sk_status sk_scan_exclusive_host(sk_context *ctx, sk_type type, sk_op oper, const void *src,
                                 void *dst, size_t n)
{
    SK_WITH_BUILTIN(ctx, type, oper, scan_host(ctx, op, src, dst, n, true));
}

sk_status sk_reduce_host(sk_context *ctx, sk_type type, sk_op oper, const void *src,
                         void *result, size_t n)
{
    SK_WITH_BUILTIN(ctx, type, oper, reduce_host(ctx, op, src, n, result));
}

sk_status sk_scan_inclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                        const void *src, void *dst, size_t n)
{
    SK_WITH_MONOID(ctx, m, scan_host(ctx, op, src, dst, n, false));
}

sk_status sk_scan_exclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                        const void *src, void *dst, size_t n)
{
    SK_WITH_MONOID(ctx, m, scan_host(ctx, op, src, dst, n, true));
}

sk_status sk_reduce_monoid_host(sk_context *ctx, const sk_monoid *m, const void *src,
                                void *result, size_t n)
{
    SK_WITH_MONOID(ctx, m, reduce_host(ctx, op, src, n, result));
}
