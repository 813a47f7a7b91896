/*
 * segscan - segmented prefix scan (or segment totals) of a file of elements
 * on an OpenCL device.
 *
 *   segscan data.bin --flags heads.bin            inclusive sums restarting at
 *                                                 every flagged element
 *   segscan data.npy --offsets starts.npy -e      exclusive, segments by offsets
 *   segscan data.bin --flags heads.bin --reduce   one total per segment
 *   segscan big.bin --flags h.u8 --memory 64M     in chunks within 64 MiB, the
 *                                                 open segment carried
 *   segscan v.bin --keys k.bin --reduce           one total per run of equal
 *                                                 keys, the keys to k.segreduce.bin
 *
 * By --keys, the library's by-key primitives run on the whole; in chunks,
 * heads are made on the host from the keys (as from flags and offsets),
 * and so are --reduce's keys, one per head.
 *
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "chunks.h"
#include "segscan_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct seg_job {
    ak_array data, seg;  /* seg: the flags, the offsets or the keys */
    ak_array keys_out;   /* --keys --reduce: each segment's key */
    size_t out_count;    /* elements written: n, or the number of segments */
    size_t keys_count;   /* keys written */
    cl_mem src, segmem, dst, kout;
    chunks chunks;       /* the device's part */
    size_t dev_len, dev_count; /* the call's elements, its totals */
    ak_array heads;      /* in chunks: a chunk's head flags (uint8) */
    size_t next_offset;  /* in chunks: the first offset not yet marked */
    unsigned char carry[8];    /* the open segment's total so far */
    unsigned char identity[8]; /* of op, for empty segments */
} seg_job;

/* The scan, or with --reduce the totals. */
static void plan(ak_run *r)
{
    seg_job *j = r->job;
    const seg_args *a = r->args;
    const char *tag = a->reduce ? "segreduce" : SEGSCAN_TOOL;
    ak_run_add_output(r, tag, &j->data, AK_FORMAT_AUTO);
    if (!a->keys || !a->reduce) return;
    ak_output_choice keys = {a->keys, a->keys_out, "segreduce", 0, 0, NULL, 0};
    ak_run_add_output_as(r, &keys, &j->keys_out, AK_FORMAT_AUTO);
}

static int by_keys(const ak_run *r)
{
    return ((const seg_args *)r->args)->keys != NULL;
}

/* ------------------------------------------------------------------------ */
/* Reading and checking                                                      */
/* ------------------------------------------------------------------------ */

/* One key per element, of any element type; --reduce's keys out in their
 * type and layout. */
static int read_keys(ak_run *r, ak_err *e)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
    const char *name = ak_display_name(a->keys, 0);
    if (ak_run_read(r, a->keys, a->keys_type, AK_UINT32, &j->seg, e) != 0 ||
        ak_check_sk_type(name, j->seg.type, "used as keys", e) != 0)
        return -1;
    if (j->seg.n != j->data.n)
        return ak_fail(e, "%s: %zu keys for %zu elements", name, j->seg.n, j->data.n);
    if (!a->reduce) return 0;
    size_t ks = ak_dtype_size(j->seg.type);
    j->keys_out = (ak_array){j->seg.type, j->seg.format, j->seg.n, malloc(j->seg.n * ks + 1)};
    if (!j->keys_out.data) return ak_fail(e, "out of memory for the keys out");
    return ak_run_keep(r, &j->keys_out, e);
}

static int read_inputs(ak_run *r, ak_err *e)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->data, e) != 0 ||
        ak_check_scan_type(ak_run_input_name(r), j->data.type, a->op, e) != 0)
        return -1;
    if (a->flags)
        return ak_run_read_flags(r, a->flags, j->data.n, &j->seg, e);
    if (a->keys) return read_keys(r, e);
    return ak_run_read_offsets(r, a->offsets, a->offsets_type, j->data.n, &j->seg, e);
}

/* ------------------------------------------------------------------------ */
/* The device                                                                */
/* ------------------------------------------------------------------------ */

/* Totals need one element per segment: n at most for flags. */
static size_t dst_elements(const ak_run *r)
{
    const seg_args *a = r->args;
    const seg_job *j = r->job;
    return a->reduce && a->offsets ? j->seg.n : j->data.n;
}

/* With several chunks, each but the first follows the open segment's
 * total so far (a lead element, a head), and an exclusive scan ends in
 * one more element (a trail, no head), where the total through the chunk
 * lands. Segments are then head flags (uint8) made on the host from the
 * flags or the offsets, chunk by chunk. */
static size_t lead_of(const chunks *c, size_t first)
{
    return c->several && first > 0;
}

static size_t trail_of(const chunks *c)
{
    const seg_args *a = c->run->args;
    return c->several && a->exclusive && !a->reduce;
}

/* In one piece, the buffers of the whole; in chunks, a chunk's elements,
 * heads and totals with the lead and the trail. */
static int seg_buffers(chunks *c, size_t elems, ak_err *e)
{
    ak_run *r = c->run;
    seg_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), cap = elems + lead_of(c, 1) + trail_of(c);
    size_t seg_bytes = c->several ? cap : j->seg.n * ak_dtype_size(j->seg.type);
    size_t dst = c->several ? cap : dst_elements(r);
    if (chunks_buffer(c, cap * es, &j->src, e) != 0 ||
        chunks_buffer(c, seg_bytes, &j->segmem, e) != 0)
        return -1;
    if (!((const seg_args *)r->args)->reduce)
        return 0;
    if (by_keys(r) && !c->several &&
        chunks_buffer(c, seg_bytes ? seg_bytes : 1, &j->kout, e) != 0)
        return -1;
    return chunks_buffer(c, dst * es, &j->dst, e);
}

static sk_segments segments_of(const ak_run *r)
{
    const seg_job *j = r->job;
    sk_segments seg = {NULL, 0, NULL, SK_UINT32, 0};
    if (j->chunks.several || ((const seg_args *)r->args)->flags) {
        seg.flags = j->segmem;
        seg.flag_size = j->chunks.several ? 1 : ak_dtype_size(j->seg.type);
    } else {
        seg.offsets = j->segmem;
        seg.offset_type = j->seg.type == AK_UINT64 ? SK_UINT64 : SK_UINT32;
        seg.count = j->seg.n;
    }
    return seg;
}

/* By keys in one piece: the library's by-key primitives. */
static sk_status run_by_keys(ak_run *r, seg_job *j, sk_type t)
{
    const seg_args *a = r->args;
    size_t n = j->dev_len;
    sk_type kt;
    ak_dtype_to_sk(j->seg.type, &kt);
    if (a->reduce)
        return sk_reduce_by_key(r->ctx, kt, t, a->op, j->segmem, j->src, j->kout, j->dst,
                                &j->dev_count, n);
    if (a->exclusive)
        return sk_scan_by_key_exclusive(r->ctx, kt, t, a->op, j->segmem, j->src, j->src, n);
    return sk_scan_by_key_inclusive(r->ctx, kt, t, a->op, j->segmem, j->src, j->src, n);
}

static sk_status run_primitive(ak_run *r, void *user)
{
    const seg_args *a = r->args;
    seg_job *j = user;
    size_t n = j->dev_len;
    sk_type t;
    sk_segments seg = segments_of(r);
    ak_dtype_to_sk(j->data.type, &t);
    j->dev_count = n;
    if (by_keys(r) && !j->chunks.several) return run_by_keys(r, j, t);
    if (a->reduce) return sk_segreduce(r->ctx, t, a->op, j->src, &seg, j->dst, &j->dev_count, n);
    if (a->exclusive) return sk_segscan_exclusive(r->ctx, t, a->op, j->src, &seg, j->src, n);
    return sk_segscan_inclusive(r->ctx, t, a->op, j->src, &seg, j->src, n);
}

static sk_status seg_measure(chunks *c, size_t elems)
{
    seg_job *j = c->run->job;
    j->dev_len = lead_of(c, 1) + elems + trail_of(c);
    return run_primitive(c->run, j);
}

/* The result of the whole, back over the input array (totals are never
 * more, but for offsets). */
static int whole(ak_run *r, ak_err *e)
{
    seg_job *j = r->job;
    size_t n = j->data.n, es = ak_dtype_size(j->data.type);
    int reduce = ((const seg_args *)r->args)->reduce;
    j->dev_len = n;
    if (ak_run_upload(r, j->src, 0, j->data.data, n * es, e) != 0 ||
        ak_run_upload(r, j->segmem, 0, j->seg.data, j->seg.n * ak_dtype_size(j->seg.type),
                      e) != 0 ||
        ak_run_call(r, run_primitive, j, e) != 0)
        return -1;
    j->out_count = j->dev_count;
    size_t bytes = j->out_count * es;
    if (j->out_count > n) {
        void *grown = realloc(j->data.data, bytes);
        if (!grown) return ak_fail(e, "out of memory for %zu totals", j->out_count);
        j->data.data = grown;
    }
    if (reduce && by_keys(r)) {
        j->keys_count = j->out_count;
        if (ak_run_download(r, j->kout, 0, j->keys_out.data,
                            j->keys_count * ak_dtype_size(j->seg.type), e) != 0)
            return -1;
    }
    return ak_run_download(r, reduce ? j->dst : j->src, 0, j->data.data, bytes, e);
}

/* By keys in chunks: h[i] = 1 where element first + i starts a run (its
 * key's bits differ from the key before, or it is element 0); with
 * --reduce each such key goes to the keys out. */
static void mark_key_heads(ak_run *r, size_t first, size_t count, unsigned char *h)
{
    seg_job *j = r->job;
    size_t ks = ak_dtype_size(j->seg.type);
    const unsigned char *k = j->seg.data;
    int reduce = ((const seg_args *)r->args)->reduce;
    for (size_t i = 0, g = first; i < count; i++, g++) {
        h[i] = g == 0 || memcmp(k + g * ks, k + (g - 1) * ks, ks) != 0;
        if (h[i] && reduce)
            memcpy((unsigned char *)j->keys_out.data + j->keys_count++ * ks, k + g * ks, ks);
    }
}

/* The heads of elements [first, first + count) from the flags, the
 * offsets or the keys, after the lead's (a head) and before the trail's
 * (none). */
static void mark_heads(chunks *c, size_t first, size_t count, size_t lead)
{
    seg_job *j = c->run->job;
    unsigned char *h = j->heads.data;
    memset(h, 0, lead + count + trail_of(c));
    h[0] = 1;
    if (by_keys(c->run)) {
        mark_key_heads(c->run, first, count, h + lead);
        return;
    }
    if (((const seg_args *)c->run->args)->flags) {
        size_t fs = ak_dtype_size(j->seg.type);
        const unsigned char *f = (const unsigned char *)j->seg.data + first * fs;
        for (size_t i = 0; i < count; i++)
            h[lead + i] |= fs == 1 ? f[i] != 0 : ((const uint32_t *)(const void *)f)[i] != 0;
        return;
    }
    for (; j->next_offset < j->seg.n && ak_offset_at(&j->seg, j->next_offset) < first + count;
         j->next_offset++)
        h[lead + ak_offset_at(&j->seg, j->next_offset) - first] = 1;
}

/* j->identity: the identity of op (sk_reduce() of nothing; `any` is a
 * buffer for it to name). */
static int get_identity(ak_run *r, cl_mem any, ak_err *e)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
    sk_type t;
    ak_dtype_to_sk(j->data.type, &t);
    sk_status st = sk_reduce(r->ctx, t, a->op, any, j->identity, 0);
    return st == SK_OK ? 0 : ak_fail_sk(e, r->ctx, st, ak_run_input_name(r));
}

/* The first chunk: the host's head flags, and the identity that empty
 * segments (offsets) get. */
static int chunks_begin(chunks *c, ak_err *e)
{
    ak_run *r = c->run;
    const seg_args *a = r->args;
    seg_job *j = r->job;
    size_t cap = c->elems + lead_of(c, 1) + trail_of(c);
    j->heads = (ak_array){AK_UINT8, AK_FORMAT_RAW, cap, malloc(cap)};
    if (!j->heads.data) return ak_fail(e, "out of memory for the head flags");
    if (ak_run_keep(r, &j->heads, e) != 0) return -1;
    return a->reduce && a->offsets ? get_identity(r, j->src, e) : 0;
}

/* A chunk's totals: all but the open last one (all, for the last chunk)
 * follow the totals before; the last is carried. */
static int chunk_totals(chunks *c, int last, ak_err *e)
{
    ak_run *r = c->run;
    seg_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), done = last ? j->dev_count : j->dev_count - 1;
    unsigned char *out = (unsigned char *)j->data.data + j->out_count * es;
    if (ak_run_download(r, j->dst, 0, out, done * es, e) != 0) return -1;
    j->out_count += done;
    return last ? 0 : ak_run_download(r, j->dst, done * es, j->carry, es, e);
}

/* A chunk's scan, back over its input; the total through it is carried. */
static int chunk_scan(chunks *c, size_t first, size_t count, size_t lead, ak_err *e)
{
    ak_run *r = c->run;
    seg_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type);
    unsigned char *host = (unsigned char *)j->data.data + first * es;
    if (ak_run_download(r, j->src, lead * es, host, count * es, e) != 0) return -1;
    j->out_count = first + count;
    if (trail_of(c)) return ak_run_download(r, j->src, (lead + count) * es, j->carry, es, e);
    memcpy(j->carry, host + (count - 1) * es, es);
    return 0;
}

static int seg_chunk(chunks *c, size_t first, size_t count, ak_err *e)
{
    ak_run *r = c->run;
    seg_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type), lead = lead_of(c, first);
    if (!c->several) return whole(r, e);
    if (first == 0 && chunks_begin(c, e) != 0) return -1;
    mark_heads(c, first, count, lead);
    j->dev_len = lead + count + trail_of(c);
    if ((lead && ak_run_upload(r, j->src, 0, j->carry, es, e) != 0) ||
        ak_run_upload(r, j->src, lead * es, (unsigned char *)j->data.data + first * es,
                      count * es, e) != 0 ||
        ak_run_upload(r, j->segmem, 0, j->heads.data, j->dev_len, e) != 0 ||
        ak_run_call(r, run_primitive, j, e) != 0)
        return -1;
    if (((const seg_args *)r->args)->reduce)
        return chunk_totals(c, first + count == j->data.n, e);
    return chunk_scan(c, first, count, lead, e);
}

static const chunk_ops SEG_CHUNKS = {seg_buffers, seg_measure, seg_chunk, NULL};

/* Totals by offsets in chunks are those of the segments that hold
 * elements: spread over all seg.n, the identity in the empty ones (all of
 * them when there are no elements). */
static int spread_totals(ak_run *r, ak_err *e)
{
    seg_job *j = r->job;
    size_t count = j->seg.n, n = j->data.n, es = ak_dtype_size(j->data.type);
    if (j->out_count == count) return 0;
    if (n == 0 && (ak_run_buffer(r, es, NULL, &j->src, e) != 0 || get_identity(r, j->src, e) != 0))
        return -1;
    if (count > n) {
        void *grown = realloc(j->data.data, count * es);
        if (!grown) return ak_fail(e, "out of memory for %zu totals", count);
        j->data.data = grown;
    }
    unsigned char *t = j->data.data;
    for (size_t k = count, i = j->out_count; k-- > 0;) {
        uint64_t end = k + 1 < count ? ak_offset_at(&j->seg, k + 1) : n;
        memmove(t + k * es, ak_offset_at(&j->seg, k) < end ? t + --i * es : j->identity, es);
    }
    j->out_count = count;
    return 0;
}

static int compute(ak_run *r, ak_err *e)
{
    const seg_args *a = r->args;
    seg_job *j = r->job;
    size_t es = ak_dtype_size(j->data.type);
    chunk_job cj = {&SEG_CHUNKS, j, j->data.n, es, a->reduce ? "reducing" : "scanning",
                    a->memory, 0};
    if (chunks_run(r, &cj, ak_dtype_name(j->data.type), &j->chunks, e) != 0)
        return -1;
    if (a->reduce && a->offsets && (j->chunks.several || j->data.n == 0) &&
        spread_totals(r, e) != 0)
        return -1;
    ak_run_set_count(r, 0, j->out_count);
    if (a->keys && a->reduce) ak_run_set_count(r, 1, j->keys_count);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const seg_job *j = r->job;
    const seg_args *a = r->args;
    snprintf(n->read, sizeof n->read, "%zu elements of %s, %zu %s", j->data.n,
             ak_dtype_name(j->data.type), j->seg.n,
             a->flags ? "flags" : a->keys ? "keys" : "offsets");
    snprintf(n->write, sizeof n->write, "%zu elements", j->out_count);
    ak_run_note_rate(r, n, j->data.n, "elements");
    chunks_note(&j->chunks, n->compute, sizeof n->compute);
}

static const ak_program SEGSCAN = {.cli = &segscan_cli, .job_size = sizeof(seg_job),
                                   .plan = plan, .read = read_inputs, .compute = compute,
                                   .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&SEGSCAN, argc, argv);
}
