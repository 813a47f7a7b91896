/*
 * segscan_cpu.c - the segmented scan's CPU shape (kernels/segscan.cl).
 *
 * The lifted scan's full reduce pass over structs is not needed. Chunks as
 * scan.cl's CPU shape has them; per chunk only its tail segment is
 * combined, right to left (from the end back to its last head), plus its
 * head count for totals; one work-item scans those few partials (lifted,
 * exclusive) into seeds; one pass then scans every chunk from its seed, or
 * stores each segment's running total at its segment index (totals).
 * Below cpu_serial_below a single chunk needs only that pass. Within a
 * segment the association order differs from the GPU shape's but is fixed,
 * so results are deterministic.
 */
#include "segscan.h"

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

static size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

static sk_status fast_program(seg_job *j, const sk__program **prog)
{
    char defines[64];
    snprintf(defines, sizeof defines, "#define SK_FLAG_T %s\n#define SK_VAL_SIZE %zu\n",
             seg_flag_type(j), j->m->size);
    return sk__segscan_program(j, true, defines, fast_kernels, 4, prog);
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
    return sk__scratch_get(j->ctx, &sk__seg_small,
                           (p->cnt_off + p->chunks + 1) * sizeof(cl_ulong), &p->part);
}

/* Arguments (src, flags, out, pv) shared by the kernels that read elements. */
static sk_status set_elems(const seg_job *j, const fast_plan *p, cl_kernel k, cl_uint *arg,
                           cl_mem out)
{
    sk_status st = SK_OK;
    SK_TRY(seg_set_mem(j->ctx, k, arg, j->src));
    SK_TRY(seg_set_mem(j->ctx, k, arg, j->flags));
    if (out) SK_TRY(seg_set_mem(j->ctx, k, arg, out));
    st = seg_set_mem(j->ctx, k, arg, p->part);
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
    SK_TRY(seg_set_mem(ctx, tails, &arg, p->part));
    SK_TRY(set_ulongs(ctx, tails, &arg, p->cnt_off, j->n));
    SK_TRY(set_ulong(ctx, tails, &arg, p->chunk));
    SK_TRY(set_uint(ctx, tails, &arg, count_heads));
    SK_TRY(sk__launch(ctx, p->prog, K_TAILS, p->chunks, 1, "n=%zu chunk=%zu count_heads=%d",
                      j->n, p->chunk, (int)count_heads));
    arg = 0;
    SK_TRY(seg_set_mem(ctx, seeds, &arg, p->part));
    SK_TRY(seg_set_mem(ctx, seeds, &arg, p->part));
    SK_TRY(set_ulongs(ctx, seeds, &arg, p->cnt_off, p->chunks));
    st = sk__launch(ctx, p->prog, K_SEEDS, 1, 1, "chunks=%zu", p->chunks);
out:
    return st;
}

/* A launch of the scan or totals kernel: the plan, the kernel and its
 * next argument. */
typedef struct fast_call {
    fast_plan p;
    cl_kernel k;
    cl_uint arg;
} fast_call;

/* Plans the job, turns the chunk partials into seeds (more than one
 * chunk) and sets kernel k's first arguments (src, flags, j->dst, pv). */
static sk_status fast_prepare(seg_job *j, unsigned k, bool count_heads, fast_call *c)
{
    sk_status st = SK_OK;
    SK_TRY(fast_plan_open(j, &c->p));
    if (c->p.chunks > 1) SK_TRY(fast_seeds(j, &c->p, count_heads));
    c->k = c->p.prog->kernels[k];
    c->arg = 0;
    st = set_elems(j, &c->p, c->k, &c->arg, j->dst);
out:
    return st;
}

sk_status sk__segscan_cpu_scan(seg_job *j, bool exclusive)
{
    sk_context *ctx = j->ctx;
    fast_call c;
    sk_status st = SK_OK;
    SK_TRY(fast_prepare(j, K_SCAN, false, &c));
    SK_TRY(set_ulongs(ctx, c.k, &c.arg, j->n, c.p.chunk));
    SK_TRY(set_uint(ctx, c.k, &c.arg, exclusive));
    SK_TRY(set_uint(ctx, c.k, &c.arg, c.p.chunks > 1));
    st = sk__launch(ctx, c.p.prog, K_SCAN, c.p.chunks, 1, "n=%zu chunk=%zu exclusive=%d", j->n,
                    c.p.chunk, (int)exclusive);
out:
    return st;
}

sk_status sk__segscan_cpu_totals(seg_job *j, cl_ulong *count)
{
    sk_context *ctx = j->ctx;
    fast_call c;
    sk_status st = SK_OK;
    SK_TRY(fast_prepare(j, K_TOTALS, true, &c));
    SK_TRY(seg_set_mem(ctx, c.k, &c.arg, c.p.part));
    SK_TRY(set_ulongs(ctx, c.k, &c.arg, c.p.cnt_off, j->n));
    SK_TRY(set_ulong(ctx, c.k, &c.arg, c.p.chunk));
    SK_TRY(set_uint(ctx, c.k, &c.arg, c.p.chunks > 1));
    SK_TRY(sk__launch(ctx, c.p.prog, K_TOTALS, c.p.chunks, 1, "n=%zu chunk=%zu", j->n,
                      c.p.chunk));
    SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, c.p.part, CL_TRUE,
                                       (c.p.cnt_off + c.p.chunks) * sizeof *count,
                                       sizeof *count, count, 0, NULL, NULL));
out:
    return st;
}
