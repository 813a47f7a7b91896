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
 * so results are deterministic. Run-length encoding and reduce by key take
 * the totals with keys for flags (seg_job's by_key): no head flags array.
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
    char defines[128];
    snprintf(defines, sizeof defines, "#define SK_FLAG_T %s\n%s%s", seg_flag_type(j),
             j->by_key ? "#define SK_BY_KEY 1\n" : "",
             j->count_ones ? "#define SK_BY_KEY_COUNT 1\n" : "");
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
static void arg_elems(sk__args *a, const seg_job *j, const fast_plan *p, cl_mem out)
{
    sk__arg_mem(a, j->src);
    sk__arg_mem(a, j->flags);
    if (out) sk__arg_mem(a, out);
    sk__arg_mem(a, p->part);
}

/* Every chunk's tail segment combined (and its heads counted) into the
 * chunk partials. */
static sk_status launch_tails(seg_job *j, const fast_plan *p, bool count_heads)
{
    sk__args a;
    sk__args_init(&a, j->ctx, p->prog, K_TAILS);
    arg_elems(&a, j, p, NULL);
    sk__arg_mem(&a, p->part);
    sk__arg_ulong(&a, "pc_off", p->cnt_off);
    sk__arg_ulong(&a, "n", j->n);
    sk__arg_ulong(&a, "chunk", p->chunk);
    sk__arg_uint(&a, "count_heads", count_heads);
    return sk__args_launch(&a, p->chunks, 1);
}

/* Chunk partials, then their exclusive scan: the seeds (more than one chunk). */
static sk_status fast_seeds(seg_job *j, const fast_plan *p, bool count_heads)
{
    sk_status st = launch_tails(j, p, count_heads);
    if (st != SK_OK) return st;
    sk__args a;
    sk__args_init(&a, j->ctx, p->prog, K_SEEDS);
    sk__arg_mem(&a, p->part);
    sk__arg_mem(&a, p->part);
    sk__arg_ulong(&a, "pc_off", p->cnt_off);
    sk__arg_ulong(&a, "chunks", p->chunks);
    return sk__args_launch(&a, 1, 1);
}

/* Plans the job, turns the chunk partials into seeds (more than one
 * chunk) and starts kernel k's arguments (src, flags, j->dst, pv). */
static sk_status fast_prepare(seg_job *j, unsigned k, bool count_heads, fast_plan *p,
                              sk__args *a)
{
    sk_status st = SK_OK;
    SK_TRY(fast_plan_open(j, p));
    if (p->chunks > 1) SK_TRY(fast_seeds(j, p, count_heads));
    sk__args_init(a, j->ctx, p->prog, k);
    arg_elems(a, j, p, j->dst);
out:
    return st;
}

sk_status sk__segscan_cpu_scan(seg_job *j, bool exclusive)
{
    fast_plan p;
    sk__args a;
    sk_status st = fast_prepare(j, K_SCAN, false, &p, &a);
    if (st != SK_OK) return st;
    sk__arg_ulong(&a, "n", j->n);
    sk__arg_ulong(&a, "chunk", p.chunk);
    sk__arg_uint(&a, "exclusive", exclusive);
    sk__arg_uint(&a, "has_seeds", p.chunks > 1);
    return sk__args_launch(&a, p.chunks, 1);
}

sk_status sk__segscan_cpu_totals(seg_job *j, cl_ulong *count)
{
    sk_context *ctx = j->ctx;
    fast_plan p;
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(fast_prepare(j, K_TOTALS, true, &p, &a));
    sk__arg_mem(&a, p.part);
    sk__arg_ulong(&a, "pc_off", p.cnt_off);
    sk__arg_ulong(&a, "n", j->n);
    sk__arg_ulong(&a, "chunk", p.chunk);
    sk__arg_uint(&a, "has_seeds", p.chunks > 1);
    if (j->by_key) sk__arg_mem(&a, j->keys_out);
    SK_TRY(sk__args_launch(&a, p.chunks, 1));
    SK_TRY(sk__read(ctx, p.part, true, (p.cnt_off + p.chunks) * sizeof *count, sizeof *count,
                    count));
out:
    return st;
}

/* ---- segment totals by offsets ---------------------------------------------------- */

SK_SCRATCH_ID(seg_offset_parts, "segment totals by offsets, CPU shape: the chunks' parts");

enum { K_OFFSET_CHUNKS, K_OFFSET_CARRY };
static const char *const offset_kernels[] = {"sk_seg_offsets_chunks", "sk_seg_offsets_carry"};

sk_status sk__segscan_cpu_offset_totals(seg_job *j, cl_mem bad)
{
    sk__tuning t = sk__tuning_for(j->ctx, SK_FAMILY_SCAN, j->m->size);
    size_t chunk = j->n, size = j->m->size;
    if (j->n >= t.cpu_serial_below) chunk = div_up(j->n, t.cpu_chunks ? t.cpu_chunks : 1);
    size_t chunks = div_up(j->n, chunk), pc_off = div_up(2 * chunks * size, sizeof(cl_ulong));
    const char *defines = j->seg->offset_type == SK_UINT32
                              ? "#define SK_OFF_T uint\n#define SK_SEG_OFFSET_CHUNKS 1\n"
                              : "#define SK_OFF_T ulong\n#define SK_SEG_OFFSET_CHUNKS 1\n";
    const sk__program *prog = NULL;
    cl_mem parts = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__segscan_program(j, true, defines, offset_kernels, 2, &prog));
    SK_TRY(sk__scratch_get(j->ctx, &seg_offset_parts, (pc_off + 2 * chunks) * sizeof(cl_ulong),
                           &parts));
    sk__args a;
    sk__args_init(&a, j->ctx, prog, K_OFFSET_CHUNKS);
    sk__arg_mem(&a, j->src);
    sk__arg_mem(&a, j->seg->offsets);
    sk__arg_ulong(&a, "count", j->seg->count);
    sk__arg_ulong(&a, "n", j->n);
    sk__arg_mem(&a, j->dst);
    sk__arg_mem(&a, bad);
    sk__arg_mem(&a, parts);
    sk__arg_mem(&a, parts);
    sk__arg_ulong(&a, "pc_off", pc_off);
    sk__arg_ulong(&a, "chunk", chunk);
    sk__arg_ulong(&a, "chunks", chunks);
    SK_TRY(sk__args_launch(&a, chunks, 1));
    if (chunks < 2) return SK_OK;
    sk__args_init(&a, j->ctx, prog, K_OFFSET_CARRY);
    sk__arg_mem(&a, parts);
    sk__arg_mem(&a, parts);
    sk__arg_ulong(&a, "pc_off", pc_off);
    sk__arg_ulong(&a, "chunks", chunks);
    sk__arg_ulong(&a, "count", j->seg->count);
    sk__arg_mem(&a, j->dst);
    sk__arg_mem(&a, bad);
    st = sk__args_launch(&a, chunks, 1);
out:
    return st;
}
