/*
 * segscan.c - segmented scan and segment reductions.
 *
 * GPU shape (and the reference behaviour): scans of a lifted monoid on
 * scankit's scan (no second scan implementation), in one pass where a
 * value of at most 4 bytes and its head flag fit a look-back word (not the
 * totals by flags, whose head count does not). An element becomes
 * (v, f): its value and whether it starts a segment. (v1, f1) + (v2, f2) =
 * (f2 ? v2 : v1 op v2, f1 | f2) is associative and not commutative; its
 * inclusive scan carries the segmented scan in v. Segment totals add a
 * count of heads, (v, f, c): c - 1 is the segment an element belongs to,
 * so the last element of each segment stores its total at totals[c - 1].
 *
 * CPU shape (segscan.cl): the lifted scan's full reduce
 * pass over structs is not needed. Chunks as scan.cl's CPU shape has them;
 * per chunk only its tail segment is combined, right to left (from the end
 * back to its last head), plus its head count for totals; one work-item
 * scans those few partials (lifted, exclusive) into seeds; one pass then
 * scans every chunk from its seed, or stores each segment's running total
 * at its segment index (totals). Below cpu_serial_below a single chunk
 * needs only that pass. Within a segment the association order differs
 * from the GPU shape's but is fixed, so results are deterministic.
 *
 * Either way the flag steers a select, a loop bound or a total's index, an
 * element value never does, so the interval-of-summations test restarted
 * at heads covers it. Offsets become head flags first (segscan.cl), after a
 * check on the device; totals by offsets gather from the inclusive scan.
 */
#include "sk_internal.h"

#include <stdlib.h>
#include <string.h>

/* What one call works on, after validation: flags are the caller's or
 * derived from offsets (then uint8). */
typedef struct seg_job {
    sk_context *ctx;
    const sk_monoid *m;
    cl_mem src, dst;          /* dst: scan output, or totals */
    size_t n;
    cl_mem flags;
    size_t flag_size;
    cl_mem count;             /* totals by flags: the number of segments */
    const sk_segments *seg;
    bool order_free;          /* results never depend on the combining order */
} seg_job;

enum seg_mode { SEG_INCLUSIVE, SEG_EXCLUSIVE, SEG_TOTALS };

/* ---- the lifted monoid and its loads and stores ---------------------------------- */

static char *lifted_preamble(const sk_monoid *m, bool with_count)
{
    sk__str s = {0};
    if (m->preamble) sk__str_addf(&s, "%s\n", m->preamble);
    sk__str_addf(&s,
                 "typedef %s sk_val_t;\n"
                 "sk_val_t sk_val_op(sk_val_t a, sk_val_t b) { return (%s); }\n"
                 "sk_val_t sk_val_identity(void) { return (%s); }\n"
                 "typedef struct { sk_val_t v; uint f; %s } sk_seg_t;\n",
                 m->type, m->combine, m->identity, with_count ? "ulong c;" : "");
    sk__str_addf(&s,
                 "sk_seg_t sk_seg(sk_val_t v, uint f)\n"
                 "{ sk_seg_t r; r.v = v; r.f = f; %s return r; }\n"
                 "sk_seg_t sk_seg_combine(sk_seg_t a, sk_seg_t b)\n"
                 "{ sk_seg_t r; r.f = a.f | b.f; r.v = b.f ? b.v : sk_val_op(a.v, b.v); %s "
                 "return r; }\n",
                 with_count ? "r.c = f;" : "", with_count ? "r.c = a.c + b.c;" : "");
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static char *io_text(size_t flag_size, enum seg_mode mode)
{
    const char *ft = flag_size == 1 ? "uchar" : "uint";
    sk__str s = {0};
    sk__str_addf(&s,
                 "#define SK_HEAD(i) ((uint)((i) == 0 || sk_flags[i] != 0))\n"
                 "#define SK_IN_PARAMS __global const sk_val_t *sk_vals, "
                 "__global const %s *sk_flags\n"
                 "#define SK_IN_ARGS sk_vals, sk_flags\n"
                 "#define SK_LOAD(i) sk_seg(sk_vals[i], SK_HEAD(i))\n", ft);
    if (mode == SEG_TOTALS) {
        sk__str_addf(&s,
                     "void sk_seg_store_total(ulong i, sk_seg_t r, __global const %s *sk_flags,\n"
                     "    __global sk_val_t *totals, __global ulong *count, ulong n)\n"
                     "{\n"
                     "    if (i + 1 == n || sk_flags[i + 1] != 0) totals[r.c - 1] = r.v;\n"
                     "    if (i + 1 == n) *count = r.c;\n"
                     "}\n"
                     "#define SK_OUT_PARAMS __global sk_val_t *sk_totals, "
                     "__global ulong *sk_count, ulong sk_n\n"
                     "#define SK_OUT_ARGS sk_totals, sk_count, sk_n\n"
                     "#define SK_STORE(i, r) sk_seg_store_total((i), (r), sk_flags, sk_totals, "
                     "sk_count, sk_n)\n", ft);
    } else {
        sk__str_addf(&s, "#define SK_OUT_PARAMS __global sk_val_t *sk_out\n"
                         "#define SK_OUT_ARGS sk_out\n");
        if (mode == SEG_EXCLUSIVE)
            sk__str_addf(&s, "#define SK_STORE(i, r) (sk_out[i] = SK_HEAD(i) ? "
                             "sk_val_identity() : (r).v)\n");
        else
            sk__str_addf(&s, "#define SK_STORE(i, r) (sk_out[i] = (r).v)\n");
    }
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static sk_status set_mem(sk_context *ctx, cl_kernel k, cl_uint *arg, cl_mem m)
{
    return sk__set_arg(ctx, k, (*arg)++, sizeof m, &m);
}

static sk_status set_in(sk_context *ctx, cl_kernel k, cl_uint *arg, const void *user)
{
    const seg_job *j = user;
    sk_status st = set_mem(ctx, k, arg, j->src);
    return st == SK_OK ? set_mem(ctx, k, arg, j->flags) : st;
}

static sk_status set_out_scan(sk_context *ctx, cl_kernel k, cl_uint *arg, const void *user)
{
    return set_mem(ctx, k, arg, ((const seg_job *)user)->dst);
}

static sk_status set_out_totals(sk_context *ctx, cl_kernel k, cl_uint *arg, const void *user)
{
    const seg_job *j = user;
    cl_ulong n = j->n;
    sk_status st = set_mem(ctx, k, arg, j->dst);
    if (st == SK_OK) st = set_mem(ctx, k, arg, j->count);
    if (st == SK_OK) st = sk__set_arg(ctx, k, (*arg)++, sizeof n, &n);
    return st;
}

/* A value of at most 4 bytes and its head flag in the 33 bits of a
 * look-back word (kernels/lookback.cl); the totals' head count does not
 * fit. */
static const char seg_lb_codec[] =
    "typedef char sk_seg_code_fits[(sizeof(sk_val_t) <= 4) ? 1 : -1];\n"
    "typedef union { sk_val_t v; uint u; } sk_seg_bits;\n"
    "ulong sk_lb_encode(sk_seg_t x)\n"
    "{ sk_seg_bits b; b.u = 0; b.v = x.v; return b.u | ((ulong)(x.f != 0) << 32); }\n"
    "sk_seg_t sk_lb_decode(ulong c)\n"
    "{ sk_seg_bits b; b.u = (uint)c; return sk_seg(b.v, (uint)(c >> 32)); }\n";

/* The lifted scan of the job's elements in `mode`. */
static sk_status lifted_scan(seg_job *j, enum seg_mode mode)
{
    bool totals = mode == SEG_TOTALS;
    char *pre = lifted_preamble(j->m, totals);
    char *io = io_text(j->flag_size, mode);
    sk_status st = SK_OK;
    if (!pre || !io) {
        st = sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segmented scan configuration");
    } else {
        /* sizeof(sk_seg_t) <= 2 * size + 16 whatever the value's alignment. */
        sk_monoid lifted = {"sk_seg_t", 2 * j->m->size + 16, "sk_seg(sk_val_identity(), 0)",
                            "sk_seg_combine(a, b)", pre};
        sk__scan_io sio = {io, set_in, totals ? set_out_totals : set_out_scan, j};
        sk__lb_codec codec = {seg_lb_codec, j->order_free};
        bool coded = !totals && j->m->size <= 4;
        st = sk__scan_lifted(j->ctx, &lifted, &sio, j->n, mode == SEG_EXCLUSIVE,
                             coded ? &codec : NULL);
    }
    free(pre);
    free(io);
    return st;
}

/* ---- the CPU shape: chunk partials of the tail segments, then one pass ------------ */

enum { K_TAILS, K_SEEDS, K_SCAN, K_TOTALS };
static const char *const fast_kernels[] = {"sk_seg_chunk_tails", "sk_seg_chunk_seeds",
                                           "sk_seg_chunk_scan", "sk_seg_chunk_totals"};

/* How the fast path splits a job: `chunks` chunks of `chunk` elements; the
 * chunk partials (values) at the start of scratch slot C, the head counts
 * (ulong, chunks + 1 of them) from ulong index cnt_off on. */
typedef struct fast_plan {
    const sk__program *prog;
    size_t chunks, chunk;
    cl_mem part;
    cl_ulong cnt_off;
} fast_plan;

static bool use_fast_path(const seg_job *j)
{
    return sk__tuning_for(j->ctx, SK_FAMILY_SCAN, j->m->size).shape == SK_SHAPE_CPU;
}

static size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

static sk_status fast_program(seg_job *j, const sk__program **prog)
{
    sk__str s = {0};
    const sk_monoid *m = j->m;
    sk__str_addf(&s, SK_FP64_PRAGMA);
    if (m->preamble) sk__str_addf(&s, "%s\n", m->preamble);
    sk__str_addf(&s, "#define SK_FLAG_T %s\n#define SK_T %s\n#define SK_T_SIZE %zu\n"
                     "#define SK_IDENTITY (%s)\nSK_T sk_op(SK_T a, SK_T b) { return (%s); }\n",
                 j->flag_size == 1 ? "uchar" : "uint", m->type, m->size, m->identity,
                 m->combine);
    if (s.failed) {
        sk__str_free(&s);
        return sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segmented scan configuration");
    }
    sk_status st = sk__program_get(j->ctx, "segscan", s.buf, fast_kernels, 4, prog);
    sk__str_free(&s);
    return st;
}

/* Chunks as scan.cl's CPU shape has them (n > 0): one below the serial
 * threshold, else cpu_chunks of at least 2 elements; and their scratch. */
static sk_status fast_plan_open(seg_job *j, fast_plan *p)
{
    sk__tuning t = sk__tuning_for(j->ctx, SK_FAMILY_SCAN, j->m->size);
    size_t chunk = j->n;
    if (j->n >= t.cpu_serial_below) {
        chunk = div_up(j->n, t.cpu_chunks ? t.cpu_chunks : 1);
        if (chunk < 2) chunk = 2;
    }
    p->chunk = chunk;
    p->chunks = div_up(j->n, chunk);
    p->cnt_off = div_up(p->chunks * j->m->size, sizeof(cl_ulong));
    sk_status st = fast_program(j, &p->prog);
    if (st != SK_OK) return st;
    return sk__scratch_get(j->ctx, SK_SLOT_SEGSCAN_C,
                           (p->cnt_off + p->chunks + 1) * sizeof(cl_ulong), &p->part);
}

/* Arguments (src, flags, out, pv) shared by the kernels that read elements. */
static sk_status set_elems(const seg_job *j, const fast_plan *p, cl_kernel k, cl_uint *arg,
                           cl_mem out)
{
    sk_status st = SK_OK;
    SK_TRY(set_mem(j->ctx, k, arg, j->src));
    SK_TRY(set_mem(j->ctx, k, arg, j->flags));
    if (out) SK_TRY(set_mem(j->ctx, k, arg, out));
    st = set_mem(j->ctx, k, arg, p->part);
out:
    return st;
}

static sk_status set_ulongs(sk_context *ctx, cl_kernel k, cl_uint *arg, cl_ulong a, cl_ulong b)
{
    sk_status st = sk__set_arg(ctx, k, (*arg)++, sizeof a, &a);
    return st == SK_OK ? sk__set_arg(ctx, k, (*arg)++, sizeof b, &b) : st;
}

static sk_status set_ulong(sk_context *ctx, cl_kernel k, cl_uint *arg, cl_ulong v)
{
    return sk__set_arg(ctx, k, (*arg)++, sizeof v, &v);
}

static sk_status set_uint(sk_context *ctx, cl_kernel k, cl_uint *arg, cl_uint v)
{
    return sk__set_arg(ctx, k, (*arg)++, sizeof v, &v);
}

/* Chunk partials, then their exclusive scan: the seeds (more than one chunk). */
static sk_status fast_seeds(seg_job *j, const fast_plan *p, bool count_heads)
{
    sk_context *ctx = j->ctx;
    cl_kernel tails = p->prog->kernels[K_TAILS], seeds = p->prog->kernels[K_SEEDS];
    cl_uint arg = 0;
    sk_status st = SK_OK;
    SK_TRY(set_elems(j, p, tails, &arg, NULL));
    SK_TRY(set_mem(ctx, tails, &arg, p->part));
    SK_TRY(set_ulongs(ctx, tails, &arg, p->cnt_off, j->n));
    SK_TRY(set_ulong(ctx, tails, &arg, p->chunk));
    SK_TRY(set_uint(ctx, tails, &arg, count_heads));
    SK_TRY(sk__launch(ctx, p->prog, K_TAILS, p->chunks, 1, "n=%zu chunk=%zu count_heads=%d",
                      j->n, p->chunk, (int)count_heads));
    arg = 0;
    SK_TRY(set_mem(ctx, seeds, &arg, p->part));
    SK_TRY(set_mem(ctx, seeds, &arg, p->part));
    SK_TRY(set_ulongs(ctx, seeds, &arg, p->cnt_off, p->chunks));
    st = sk__launch(ctx, p->prog, K_SEEDS, 1, 1, "chunks=%zu", p->chunks);
out:
    return st;
}

/* The segmented scan of the job into j->dst (n > 0). */
static sk_status fast_scan(seg_job *j, bool exclusive)
{
    sk_context *ctx = j->ctx;
    fast_plan p;
    cl_uint arg = 0;
    sk_status st = SK_OK;
    SK_TRY(fast_plan_open(j, &p));
    if (p.chunks > 1) SK_TRY(fast_seeds(j, &p, false));
    cl_kernel k = p.prog->kernels[K_SCAN];
    SK_TRY(set_elems(j, &p, k, &arg, j->dst));
    SK_TRY(set_ulongs(ctx, k, &arg, j->n, p.chunk));
    SK_TRY(set_uint(ctx, k, &arg, exclusive));
    SK_TRY(set_uint(ctx, k, &arg, p.chunks > 1));
    st = sk__launch(ctx, p.prog, K_SCAN, p.chunks, 1, "n=%zu chunk=%zu exclusive=%d", j->n,
                    p.chunk, (int)exclusive);
out:
    return st;
}

/* Segment totals by flags into j->dst; *count the number of segments
 * (blocking; n > 0). */
static sk_status fast_totals(seg_job *j, cl_ulong *count)
{
    sk_context *ctx = j->ctx;
    fast_plan p;
    cl_uint arg = 0;
    sk_status st = SK_OK;
    SK_TRY(fast_plan_open(j, &p));
    if (p.chunks > 1) SK_TRY(fast_seeds(j, &p, true));
    cl_kernel k = p.prog->kernels[K_TOTALS];
    SK_TRY(set_elems(j, &p, k, &arg, j->dst));
    SK_TRY(set_mem(ctx, k, &arg, p.part));
    SK_TRY(set_ulongs(ctx, k, &arg, p.cnt_off, j->n));
    SK_TRY(set_ulong(ctx, k, &arg, p.chunk));
    SK_TRY(set_uint(ctx, k, &arg, p.chunks > 1));
    SK_TRY(sk__launch(ctx, p.prog, K_TOTALS, p.chunks, 1, "n=%zu chunk=%zu", j->n, p.chunk));
    SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, p.part, CL_TRUE,
                                       (p.cnt_off + p.chunks) * sizeof *count, sizeof *count,
                                       count, 0, NULL, NULL));
out:
    return st;
}

/* The segmented scan in `mode` (not totals) by the path the shape takes. */
static sk_status seg_scan(seg_job *j, enum seg_mode mode)
{
    if (use_fast_path(j)) return fast_scan(j, mode == SEG_EXCLUSIVE);
    return lifted_scan(j, mode);
}

/* ---- offsets ------------------------------------------------------------------------ */

enum { K_CHECK_OFFSETS, K_OFFSETS_TO_FLAGS, K_GATHER_TOTALS };
static const char *const seg_kernels[] = {"sk_seg_check_offsets", "sk_seg_offsets_to_flags",
                                          "sk_seg_gather_totals"};

static sk_status seg_program(seg_job *j, const sk__program **prog)
{
    sk__str s = {0};
    const sk_monoid *m = j->m;
    sk__str_addf(&s, SK_FP64_PRAGMA);
    if (m->preamble) sk__str_addf(&s, "%s\n", m->preamble);
    sk__str_addf(&s, "#define SK_OFF_T %s\n#define SK_T %s\n#define SK_IDENTITY (%s)\n",
                 j->seg->offset_type == SK_UINT32 ? "uint" : "ulong", m->type, m->identity);
    if (s.failed) {
        sk__str_free(&s);
        return sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segment kernels configuration");
    }
    sk_status st = sk__program_get(j->ctx, "segscan", s.buf, seg_kernels, 3, prog);
    sk__str_free(&s);
    return st;
}

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

/* Launches kernel k over `count` work-items: (offsets, count, n, extra). */
static sk_status launch_offsets(seg_job *j, const sk__program *prog, unsigned k, cl_mem extra)
{
    sk_context *ctx = j->ctx;
    cl_kernel kern = prog->kernels[k];
    cl_ulong count = j->seg->count, n = j->n;
    cl_uint arg = 0;
    sk_status st = SK_OK;
    if (count == 0) return SK_OK;
    SK_TRY(set_mem(ctx, kern, &arg, j->seg->offsets));
    SK_TRY(sk__set_arg(ctx, kern, arg++, sizeof count, &count));
    SK_TRY(sk__set_arg(ctx, kern, arg++, sizeof n, &n));
    SK_TRY(set_mem(ctx, kern, &arg, extra));
    st = sk__launch(ctx, prog, k, round_up(j->seg->count, 64), 0, "count=%zu n=%zu",
                    j->seg->count, j->n);
out:
    return st;
}

/* Checks the offsets on the device (blocking read of one int). */
static sk_status check_offsets(seg_job *j, const sk__program *prog)
{
    sk_context *ctx = j->ctx;
    cl_mem bad_mem = NULL;
    cl_int bad = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SEGSCAN_C, sizeof bad, &bad_mem));
    SK_CL_TRY(ctx, clEnqueueWriteBuffer(ctx->queue, bad_mem, CL_FALSE, 0, sizeof bad, &bad, 0,
                                        NULL, NULL));
    SK_TRY(launch_offsets(j, prog, K_CHECK_OFFSETS, bad_mem));
    SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, bad_mem, CL_TRUE, 0, sizeof bad, &bad, 0,
                                       NULL, NULL));
    if (bad)
        st = sk__fail(ctx, SK_E_INVALID_ARG, "offsets are not a segmentation of %zu elements "
                      "(offsets[0] must be 0, non-decreasing, none above n)", j->n);
out:
    return st;
}

/* Derives uint8 head flags from the offsets, which must check out first. */
static sk_status offsets_to_flags(seg_job *j, const sk__program *prog)
{
    sk_context *ctx = j->ctx;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SEGSCAN_B, j->n, &j->flags));
    j->flag_size = 1;
    SK_TRY(sk__fill_zero(ctx, j->flags, j->n));
    SK_TRY(launch_offsets(j, prog, K_OFFSETS_TO_FLAGS, j->flags));
out:
    return st;
}

/* totals[s] for every segment from the inclusive scan in `inclusive`. */
static sk_status gather_totals(seg_job *j, const sk__program *prog, cl_mem inclusive)
{
    sk_context *ctx = j->ctx;
    cl_kernel kern = prog->kernels[K_GATHER_TOTALS];
    cl_ulong count = j->seg->count, n = j->n;
    cl_uint arg = 0;
    sk_status st = SK_OK;
    SK_TRY(set_mem(ctx, kern, &arg, inclusive));
    SK_TRY(set_mem(ctx, kern, &arg, j->seg->offsets));
    SK_TRY(sk__set_arg(ctx, kern, arg++, sizeof count, &count));
    SK_TRY(sk__set_arg(ctx, kern, arg++, sizeof n, &n));
    SK_TRY(set_mem(ctx, kern, &arg, j->dst));
    st = sk__launch(ctx, prog, K_GATHER_TOTALS, round_up(j->seg->count, 64), 0,
                    "count=%zu n=%zu", j->seg->count, j->n);
out:
    return st;
}

/* ---- validation ---------------------------------------------------------------------- */

static sk_status validate_segments(sk_context *ctx, const sk_segments *seg, size_t n)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    if (!seg) return sk__fail(ctx, SK_E_INVALID_ARG, "segments are NULL");
    if (!seg->flags == !seg->offsets)
        return sk__fail(ctx, SK_E_INVALID_ARG, "give exactly one of flags and offsets");
    if (seg->flags) {
        if (seg->flag_size != 1 && seg->flag_size != 4)
            return sk__fail(ctx, SK_E_INVALID_ARG, "flag_size %zu: use 1 or 4", seg->flag_size);
        SK_TRY(sk__byte_size(ctx, n, seg->flag_size, &bytes));
        return sk__check_buffer(ctx, seg->flags, bytes, "flags");
    }
    if (seg->offset_type != SK_UINT32 && seg->offset_type != SK_UINT64)
        return sk__fail(ctx, SK_E_INVALID_ARG, "offset_type must be uint32 or uint64");
    if (n > 0 && seg->count == 0)
        return sk__fail(ctx, SK_E_INVALID_ARG, "no segment offsets for %zu elements", n);
    SK_TRY(sk__byte_size(ctx, seg->count, sk_type_size(seg->offset_type), &bytes));
    st = sk__check_buffer(ctx, seg->offsets, bytes, "offsets");
out:
    return st;
}

/* Validates a call and fills the job (flags still the caller's). */
static sk_status job_open(sk_context *ctx, const sk_monoid *m, bool order_free, cl_mem src,
                          cl_mem dst, size_t dst_elems, size_t n, const sk_segments *seg,
                          seg_job *j)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__validate_monoid(ctx, m));
    SK_TRY(validate_segments(ctx, seg, n));
    SK_TRY(sk__byte_size(ctx, n, m->size, &bytes));
    SK_TRY(sk__check_buffer(ctx, src, bytes, "src"));
    SK_TRY(sk__byte_size(ctx, dst_elems, m->size, &bytes));
    SK_TRY(sk__check_buffer(ctx, dst, bytes ? bytes : 1, "dst"));
    *j = (seg_job){ctx, m, src, dst, n, seg->flags, seg->flag_size, NULL, seg, order_free};
out:
    return st;
}

/* ---- the operations ---------------------------------------------------------------------- */

static sk_status segscan_run(sk_context *ctx, const sk_monoid *m, bool order_free,
                             cl_mem src, cl_mem dst, size_t n, const sk_segments *seg,
                             bool exclusive)
{
    seg_job j;
    const sk__program *prog = NULL;
    sk_status st = SK_OK;
    SK_TRY(job_open(ctx, m, order_free, src, dst, n, n, seg, &j));
    if (seg->offsets) {
        SK_TRY(seg_program(&j, &prog));
        SK_TRY(check_offsets(&j, prog));
        if (n == 0) return SK_OK;
        SK_TRY(offsets_to_flags(&j, prog));
    }
    if (n == 0) return SK_OK;
    st = seg_scan(&j, exclusive ? SEG_EXCLUSIVE : SEG_INCLUSIVE);
out:
    return st;
}

/* Totals by head flags: one lifted scan that counts heads. */
static sk_status totals_by_flags(seg_job *j, size_t *segments)
{
    sk_context *ctx = j->ctx;
    cl_ulong count = 0;
    sk_status st = SK_OK;
    if (j->n && use_fast_path(j)) {
        SK_TRY(fast_totals(j, &count));
        if (segments) *segments = (size_t)count;
        return SK_OK;
    }
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SEGSCAN_C, sizeof count, &j->count));
    if (j->n) SK_TRY(lifted_scan(j, SEG_TOTALS));
    if (j->n)
        SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, j->count, CL_TRUE, 0, sizeof count,
                                           &count, 0, NULL, NULL));
    if (segments) *segments = (size_t)count;
out:
    return st;
}

/* Totals by offsets: the inclusive segmented scan into scratch, then one
 * gather per segment (empty segments get the identity). */
static sk_status totals_by_offsets(seg_job *j, size_t *segments)
{
    sk_context *ctx = j->ctx;
    const sk__program *prog = NULL;
    cl_mem totals = j->dst, inclusive = NULL;
    sk_status st = SK_OK;
    SK_TRY(seg_program(j, &prog));
    SK_TRY(check_offsets(j, prog));
    if (j->n) {
        SK_TRY(offsets_to_flags(j, prog));
        SK_TRY(sk__scratch_get(ctx, SK_SLOT_SEGSCAN_A, j->n * j->m->size, &inclusive));
        j->dst = inclusive;
        st = seg_scan(j, SEG_INCLUSIVE);
        j->dst = totals;
        SK_TRY(st);
    }
    if (j->seg->count) SK_TRY(gather_totals(j, prog, inclusive ? inclusive : totals));
    SK_CL_TRY(ctx, clFinish(ctx->queue));
    if (segments) *segments = j->seg->count;
out:
    return st;
}

static sk_status segreduce_run(sk_context *ctx, const sk_monoid *m, bool order_free,
                               cl_mem src, size_t n, const sk_segments *seg, cl_mem totals,
                               size_t *segments)
{
    seg_job j;
    sk_status st = SK_OK;
    size_t capacity = seg && seg->offsets ? seg->count : n;
    SK_TRY(job_open(ctx, m, order_free, src, totals, capacity, n, seg, &j));
    st = seg->offsets ? totals_by_offsets(&j, segments) : totals_by_flags(&j, segments);
out:
    return st;
}

/* ---- entry points ------------------------------------------------------------------------ */

#define SK_SEG_BUILTIN(ctx, type, oper, call)                                  \
    do {                                                                       \
        if (!(ctx)) return SK_E_INVALID_ARG;                                   \
        sk__clear_error(ctx);                                                  \
        sk__monoid_text text_;                                                 \
        sk_monoid m_;                                                          \
        bool order_free = false;                                               \
        sk_status st_ = sk__monoid_of((ctx), (type), (oper), &text_, &m_,      \
                                      &order_free);                            \
        if (st_ != SK_OK) return st_;                                          \
        const sk_monoid *m = &m_;                                              \
        return call;                                                           \
    } while (0)

#define SK_SEG_MONOID(ctx, call)                                               \
    do {                                                                       \
        if (!(ctx)) return SK_E_INVALID_ARG;                                   \
        sk__clear_error(ctx);                                                  \
        const bool order_free = false;                                         \
        return call;                                                           \
    } while (0)

sk_status sk_segscan_inclusive(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                               cl_mem dst, size_t n, const sk_segments *seg)
{
    SK_SEG_BUILTIN(ctx, type, op, segscan_run(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                               cl_mem dst, size_t n, const sk_segments *seg)
{
    SK_SEG_BUILTIN(ctx, type, op, segscan_run(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segscan_inclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                      cl_mem dst, size_t n, const sk_segments *seg)
{
    SK_SEG_MONOID(ctx, segscan_run(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                      cl_mem dst, size_t n, const sk_segments *seg)
{
    SK_SEG_MONOID(ctx, segscan_run(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segreduce(sk_context *ctx, sk_type type, sk_op op, cl_mem src, size_t n,
                       const sk_segments *seg, cl_mem totals, size_t *segments)
{
    SK_SEG_BUILTIN(ctx, type, op,
                   segreduce_run(ctx, m, order_free, src, n, seg, totals, segments));
}

sk_status sk_segreduce_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src, size_t n,
                              const sk_segments *seg, cl_mem totals, size_t *segments)
{
    SK_SEG_MONOID(ctx, segreduce_run(ctx, m, order_free, src, n, seg, totals, segments));
}

/* ---- host-array forms ---------------------------------------------------------------------- */

/* The device-side segments for host segments: flags or offsets uploaded. */
static sk_status upload_segments(sk_context *ctx, const sk_segments_host *h, size_t n,
                                 sk_segments *d)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    if (!h) return sk__fail(ctx, SK_E_INVALID_ARG, "segments are NULL");
    *d = (sk_segments){NULL, h->flag_size, NULL, h->offset_type, h->count};
    if (!h->flags == !h->offsets)
        return sk__fail(ctx, SK_E_INVALID_ARG, "give exactly one of flags and offsets");
    if (h->flags) {
        if (h->flag_size != 1 && h->flag_size != 4)
            return sk__fail(ctx, SK_E_INVALID_ARG, "flag_size %zu: use 1 or 4", h->flag_size);
        SK_TRY(sk__byte_size(ctx, n, h->flag_size, &bytes));
        return sk__stage_in(ctx, SK_SLOT_HOST_VALUES, h->flags, bytes, 1, &d->flags);
    }
    if (h->offset_type != SK_UINT32 && h->offset_type != SK_UINT64)
        return sk__fail(ctx, SK_E_INVALID_ARG, "offset_type must be uint32 or uint64");
    SK_TRY(sk__byte_size(ctx, h->count, sk_type_size(h->offset_type), &bytes));
    st = sk__stage_in(ctx, SK_SLOT_HOST_VALUES, h->offsets, bytes, 1, &d->offsets);
out:
    return st;
}

static sk_status segscan_host(sk_context *ctx, const sk_monoid *m, bool order_free,
                              const void *src, void *dst, size_t n, const sk_segments_host *h,
                              bool exclusive)
{
    sk_segments seg;
    cl_mem in = NULL;
    size_t bytes = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, n, m->size, &bytes));
    if (n && !dst) return sk__fail(ctx, SK_E_INVALID_ARG, "dst is NULL");
    SK_TRY(upload_segments(ctx, h, n, &seg));
    SK_TRY(sk__stage_in(ctx, SK_SLOT_HOST, src, bytes, 1, &in));
    SK_TRY(segscan_run(ctx, m, order_free, in, in, n, &seg, exclusive));
    if (bytes)
        SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, in, CL_TRUE, 0, bytes, dst, 0, NULL,
                                           NULL));
out:
    return st;
}

static sk_status segreduce_host(sk_context *ctx, const sk_monoid *m, bool order_free,
                                const void *src, size_t n, const sk_segments_host *h, void *totals,
                                size_t *segments)
{
    sk_segments seg;
    cl_mem in = NULL, out_mem = NULL;
    size_t bytes = 0, got = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, n, m->size, &bytes));
    if (!totals) return sk__fail(ctx, SK_E_INVALID_ARG, "totals is NULL");
    SK_TRY(upload_segments(ctx, h, n, &seg));
    SK_TRY(sk__stage_in(ctx, SK_SLOT_HOST, src, bytes, 1, &in));
    size_t capacity = seg.offsets ? seg.count : n;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_HOST_OUT, (capacity ? capacity : 1) * m->size,
                           &out_mem));
    SK_TRY(segreduce_run(ctx, m, order_free, in, n, &seg, out_mem, &got));
    if (got)
        SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, out_mem, CL_TRUE, 0, got * m->size,
                                           totals, 0, NULL, NULL));
    if (segments) *segments = got;
out:
    return st;
}

sk_status sk_segscan_inclusive_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                                    void *dst, size_t n, const sk_segments_host *seg)
{
    SK_SEG_BUILTIN(ctx, type, op, segscan_host(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                                    void *dst, size_t n, const sk_segments_host *seg)
{
    SK_SEG_BUILTIN(ctx, type, op, segscan_host(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segreduce_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                            size_t n, const sk_segments_host *seg, void *totals,
                            size_t *segments)
{
    SK_SEG_BUILTIN(ctx, type, op,
                   segreduce_host(ctx, m, order_free, src, n, seg, totals, segments));
}
