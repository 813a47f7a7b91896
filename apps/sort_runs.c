/*
 * sort_runs.c - radixsort's sort within a device memory budget (see
 * sort_runs.h).
 *
 * Plan: runs of r elements such that the data buffer (a run's keys and
 * values, or a merge block's two inputs and output of r/2 elements each
 * side) and the scratch the library needs for them (measured with
 * sk_context_scratch_query_begin/_end, so exact: the context's own scratch
 * is what the measure says, and sk_context_trim() releases the sort's
 * before the merges take theirs) fit the budget together.
 * Each run is sorted on the device in turn; then merge levels join
 * neighbouring runs (the earlier one first, so that equal keys keep their
 * input order) into a second host array and back: each merge is cut into
 * blocks of at most r/3 output elements by merge path on the host (a
 * binary search on the block's diagonal finds how many come from each
 * side), and each block is one device merge. The data buffer's arrays are
 * sub-buffers made once per phase (a run's keys and values; a merge's two
 * inputs and output of r/3 elements each, keys and values): some drivers
 * take milliseconds to make one. Both phases show a progress line
 * (ak_progress): "sorting runs", bytes of the runs sorted of all, and
 * "merging", bytes merged of all times the levels.
 */
#define _POSIX_C_SOURCE 200809L

#include "sort_runs.h"

#include <stdlib.h>
#include <string.h>

/* The data buffer, and the most scratch the library's calls take. */
typedef struct dev_mem {
    cl_mem data;
    size_t data_bytes, scratch_bytes;
    size_t align;            /* sub-buffer origins: CL_DEVICE_MEM_BASE_ADDR_ALIGN */
    size_t max_alloc;        /* the device's largest buffer */
} dev_mem;

/* Where a call's arrays lie in the data buffer: up to three key arrays,
 * then as many value arrays. */
typedef struct layout {
    cl_mem keys[3], values[3];
} layout;

/* One device call, for ak_run_call(). */
typedef struct call {
    const struct runs *s;
    const layout *l;
    size_t na, nb;           /* a sort: na elements; a merge: na + nb */
    int merge;
} call;

typedef struct runs {
    ak_run *run;
    const sort_runs_job *j;
    sk_type type;
    size_t ks, vs;           /* key and value bytes; vs 0: keys alone */
    size_t run_elems, block_elems;
    dev_mem mem;
    ak_progress progress;    /* of the phase under way */
} runs;

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* The progress line of a phase of `total` bytes (see ak_progress). */
static void progress_start(runs *s, const char *what, uint64_t total)
{
    ak_progress_start(&s->progress, s->run->program->cli->tool, what, total, s->run->progress);
}

/* n elements (keys and values) done. */
static void progress_add(runs *s, size_t n)
{
    ak_progress_add(&s->progress, (uint64_t)n * (s->ks + s->vs));
}

/* ---- the data buffer's sub-buffers ------------------------------------- */

static int sub_buffer(const runs *s, size_t *at, size_t bytes, cl_mem *out, ak_err *e)
{
    cl_buffer_region region = {*at, bytes ? bytes : 1};
    cl_int err = CL_SUCCESS;
    *out = clCreateSubBuffer(s->mem.data, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                             &region, &err);
    *at = align_up(*at + region.size, s->mem.align);
    return *out ? 0 : ak_fail_cl(e, "placing an array in the device buffer", err);
}

/* Lays out `count` (1: a sort, 3: a merge) arrays of sizes n[i] elements,
 * keys first. */
static int lay_out(const runs *s, const size_t *n, int count, layout *l, ak_err *e)
{
    size_t at = 0;
    memset(l, 0, sizeof *l);
    for (int i = 0; i < count; i++)
        if (sub_buffer(s, &at, n[i] * s->ks, &l->keys[i], e) != 0) return -1;
    for (int i = 0; i < count && s->vs; i++)
        if (sub_buffer(s, &at, n[i] * s->vs, &l->values[i], e) != 0) return -1;
    return 0;
}

/* A run's keys and values, r elements each. */
static int lay_out_sort(const runs *s, size_t r, layout *l, ak_err *e)
{
    size_t n[1] = {r};
    return lay_out(s, n, 1, l, e);
}

/* A merge's inputs a and b and its output, m elements each. */
static int lay_out_merge(const runs *s, size_t m, layout *l, ak_err *e)
{
    size_t n[3] = {m, m, m};
    return lay_out(s, n, 3, l, e);
}

static void release_layout(layout *l)
{
    for (int i = 0; i < 3; i++) {
        if (l->keys[i]) clReleaseMemObject(l->keys[i]);
        if (l->values[i]) clReleaseMemObject(l->values[i]);
    }
    memset(l, 0, sizeof *l);
}

/* A merge block's output elements for runs of r. */
static size_t block_of(size_t r)
{
    return r / 3 > 0 ? r / 3 : 1;
}

/* Bytes of the data buffer for runs of r: a run (keys, values) or a merge
 * (two inputs and an output of block_of(r) each, keys and values), each
 * array padded to the alignment. */
static size_t data_bytes(const runs *s, size_t r)
{
    size_t m = block_of(r), sort = 0, merge = 0;
    size_t sort_n[1] = {r}, merge_n[3] = {m, m, m};
    for (int i = 0; i < 2; i++) {
        size_t size = i == 0 ? s->ks : s->vs;
        for (int k = 0; k < 1 && size; k++) sort += align_up(sort_n[k] * size, s->mem.align);
        for (int k = 0; k < 3 && size; k++) merge += align_up(merge_n[k] * size, s->mem.align);
    }
    return sort > merge ? sort : merge;
}

/* ---- device calls ---------------------------------------------------------- */

static sk_status do_call(ak_run *run, void *user)
{
    const call *c = user;
    const runs *s = c->s;
    const sort_runs_job *j = s->j;
    if (c->merge && s->vs)
        return sk_merge_pairs(run->ctx, s->type, s->vs, c->l->keys[0], c->l->values[0],
                              c->l->keys[1], c->l->values[1], c->l->keys[2],
                              c->l->values[2], c->na, c->nb, j->order);
    if (c->merge)
        return sk_merge_keys(run->ctx, s->type, c->l->keys[0], c->l->keys[1], c->l->keys[2],
                             c->na, c->nb, j->order);
    if (s->vs)
        return sk_sort_pairs_bits(run->ctx, s->type, s->vs, c->l->keys[0], c->l->values[0],
                                  c->na, j->order, j->bits.begin, j->bits.end);
    return sk_sort_keys_bits(run->ctx, s->type, c->l->keys[0], c->na, j->order, j->bits.begin,
                             j->bits.end);
}

/* The scratch the sort of r elements and the merge of a block of
 * block_of(r) need (the larger), measured without running either. */
static int measure_scratch(runs *s, size_t r, size_t *bytes, ak_err *e)
{
    sk_context *ctx = s->run->ctx;
    layout l = {{NULL}, {NULL}};
    sk_status st = sk_context_scratch_query_begin(ctx);
    int rc = st == SK_OK ? lay_out_sort(s, r, &l, e) : 0;
    call sort = {s, &l, r, 0, 0};
    if (rc == 0 && st == SK_OK) st = do_call(s->run, &sort);
    release_layout(&l);
    size_t m = block_of(r);
    call merge = {s, &l, m - m / 2, m / 2, 1};
    if (rc == 0 && st == SK_OK && r > 1 && (rc = lay_out_merge(s, m, &l, e)) == 0)
        st = do_call(s->run, &merge);
    release_layout(&l);
    sk_status end = sk_context_scratch_query_end(ctx, bytes);
    if (rc != 0) return -1;
    if (st == SK_OK) st = end;
    return st == SK_OK ? 0 : ak_fail_sk(e, ctx, st, ak_run_input_name(s->run));
}

static void release_mem(runs *s)
{
    ak_err ignored;
    ak_cl_release(&s->mem.data, 1, &ignored);
}

/* Tries runs of r: the data buffer, the scratch measured; *fits is 0 with
 * *need the bytes both take when they pass the budget. */
static int try_plan(runs *s, size_t r, int *fits, size_t *need, ak_err *e)
{
    size_t scratch = 0;
    s->mem.data_bytes = data_bytes(s, r);
    if (ak_cl_new_buffer(s->run->ctx, s->mem.data_bytes, &s->mem.data, e) != 0 ||
        measure_scratch(s, r, &scratch, e) != 0)
        return -1;
    *need = s->mem.data_bytes + scratch;
    *fits = *need <= s->j->budget && s->mem.data_bytes <= s->mem.max_alloc &&
            scratch <= s->mem.max_alloc;
    if (*need <= s->j->budget && !*fits) *need = s->j->budget + 1; /* a buffer too large */
    if (!*fits) {
        release_mem(s);
        return 0;
    }
    s->mem.scratch_bytes = scratch;
    return 0;
}

/* The largest runs (at most the whole input) whose data and scratch fit the
 * budget, the data buffer allocated. Its first guess: data and scratch
 * (the sort's second buffer, mostly) about the same, each at most the
 * device's largest buffer. */
static int plan(runs *s, ak_err *e)
{
    size_t n = s->j->keys->n, elem = s->ks + s->vs, budget = s->j->budget;
    size_t r = budget / (2 * elem), slack = 8 * s->mem.align;
    size_t most = s->mem.max_alloc > slack ? (s->mem.max_alloc - slack) / elem : 0;
    if (r > most) r = most;
    if (r > n) r = n;
    for (int tries = 0; r > 0 && tries < 12; tries++) {
        int fits = 0;
        size_t need = 0;
        if (try_plan(s, r, &fits, &need, e) != 0) return -1;
        if (fits) {
            s->run_elems = r;
            s->block_elems = block_of(r);
            return 0;
        }
        size_t smaller = (size_t)((double)r * ((double)budget / (double)need) * 0.97);
        r = smaller < r ? smaller : r - 1;
    }
    return ak_fail(e, "--memory %zu is too small to sort %s keys%s on the device (%zu bytes "
                   "would not hold a run of one key and the sort's scratch)",
                   budget, ak_dtype_name(s->j->keys->type), s->vs ? " and values" : "", budget);
}

/* ---- sorting the runs -------------------------------------------------------- */

static unsigned char *at(const ak_array *a, size_t i)
{
    return (unsigned char *)a->data + i * ak_dtype_size(a->type);
}

/* Sorts elements [first, first + count) in place through layout l. */
static int sort_run(runs *s, const layout *l, size_t first, size_t count, ak_err *e)
{
    const sort_runs_job *j = s->j;
    ak_run *run = s->run;
    call c = {s, l, count, 0, 0};
    int rc = ak_run_upload(run, l->keys[0], 0, at(j->keys, first), count * s->ks, e);
    if (rc == 0 && s->vs)
        rc = ak_run_upload(run, l->values[0], 0, at(j->values, first), count * s->vs, e);
    if (rc == 0) rc = ak_run_call(run, do_call, &c, e);
    if (rc == 0) rc = ak_run_download(run, l->keys[0], 0, at(j->keys, first), count * s->ks, e);
    if (rc == 0 && s->vs)
        rc = ak_run_download(run, l->values[0], 0, at(j->values, first), count * s->vs, e);
    return rc;
}

static int sort_all_runs(runs *s, sort_runs_stats *st, ak_err *e)
{
    layout l;
    size_t n = s->j->keys->n;
    int rc = lay_out_sort(s, s->run_elems, &l, e);
    progress_start(s, "sorting runs", (uint64_t)n * (s->ks + s->vs));
    for (size_t first = 0; rc == 0 && first < n; first += s->run_elems, st->runs++) {
        size_t count = min_size(s->run_elems, n - first);
        rc = sort_run(s, &l, first, count, e);
        progress_add(s, count);
    }
    ak_progress_end(&s->progress);
    release_layout(&l);
    /* the sort's scratch goes before the merges take theirs */
    sk_status trimmed = sk_context_trim(s->run->ctx);
    if (rc == 0 && trimmed != SK_OK)
        rc = ak_fail_sk(e, s->run->ctx, trimmed, ak_run_input_name(s->run));
    return rc;
}

/* ---- merging ------------------------------------------------------------------ */

/* A sorted sequence: keys (and values) [first, first + n) of two arrays. */
typedef struct seq {
    const ak_array *keys, *values;
    size_t first, n;
} seq;

/* Whether key x goes no later than key y (x from the earlier run). */
static int goes_first(const runs *s, const seq *x, size_t i, const seq *y, size_t k)
{
    uint64_t kx = sort_key_at(x->keys, x->first + i, s->j->bits);
    uint64_t ky = sort_key_at(y->keys, y->first + k, s->j->bits);
    return s->j->order == SK_DESCENDING ? kx >= ky : kx <= ky;
}

/* Merge path: how many of the first d outputs come from a. */
static size_t split(const runs *s, const seq *a, const seq *b, size_t d)
{
    size_t lo = d > b->n ? d - b->n : 0, hi = min_size(d, a->n);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (goes_first(s, a, mid, b, d - 1 - mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Copies n elements (keys and values) from src at i to dst at k. */
static void copy_elems(const runs *s, const seq *src, size_t i, const ak_array *dk,
                       const ak_array *dv, size_t k, size_t n)
{
    memcpy(at(dk, k), at(src->keys, src->first + i), n * s->ks);
    if (s->vs) memcpy(at(dv, k), at(src->values, src->first + i), n * s->vs);
}

static int upload_part(runs *s, const layout *l, int slot, const seq *q, size_t i, size_t n,
                       ak_err *e)
{
    ak_run *run = s->run;
    if (ak_run_upload(run, l->keys[slot], 0, at(q->keys, q->first + i), n * s->ks, e) != 0)
        return -1;
    return s->vs ? ak_run_upload(run, l->values[slot], 0, at(q->values, q->first + i),
                                 n * s->vs, e)
                 : 0;
}

/* The merges' destination: arrays dk/dv at `to`, through layout l. */
typedef struct merge_out {
    const ak_array *keys, *values;
    size_t to;
    const layout *l;
} merge_out;

/* Output block [o, o + len) of merging a and b into d. */
static int merge_block(runs *s, const seq *a, const seq *b, size_t o, size_t len,
                       const merge_out *d, ak_err *e)
{
    const ak_array *dk = d->keys, *dv = d->values;
    size_t to = d->to;
    size_t i0 = split(s, a, b, o), i1 = split(s, a, b, o + len);
    size_t na = i1 - i0, nb = len - na, k0 = o - i0;
    if (na == 0 || nb == 0) {
        if (na) copy_elems(s, a, i0, dk, dv, to + o, na);
        if (nb) copy_elems(s, b, k0, dk, dv, to + o, nb);
        return 0;
    }
    const layout *l = d->l;
    call c = {s, l, na, nb, 1};
    int rc = upload_part(s, l, 0, a, i0, na, e);
    if (rc == 0) rc = upload_part(s, l, 1, b, k0, nb, e);
    if (rc == 0) rc = ak_run_call(s->run, do_call, &c, e);
    if (rc == 0) rc = ak_run_download(s->run, l->keys[2], 0, at(dk, to + o), len * s->ks, e);
    if (rc == 0 && s->vs)
        rc = ak_run_download(s->run, l->values[2], 0, at(dv, to + o), len * s->vs, e);
    return rc;
}

/* One merge level: runs of `width` from (sk, sv) into (dk, dv). */
static int merge_level(runs *s, const ak_array *sk, const ak_array *sv, const ak_array *dk,
                       const ak_array *dv, size_t width, const layout *l,
                       sort_runs_stats *st, ak_err *e)
{
    size_t n = sk->n;
    for (size_t first = 0; first < n; first += 2 * width) {
        seq a = {sk, sv, first, min_size(width, n - first)};
        seq b = {sk, sv, first + a.n, min_size(width, n - first - a.n)};
        merge_out d = {dk, dv, first, l};
        if (b.n == 0) {
            copy_elems(s, &a, 0, dk, dv, first, a.n);
            progress_add(s, a.n);
            continue;
        }
        for (size_t o = 0; o < a.n + b.n; o += s->block_elems, st->merge_blocks++) {
            size_t len = min_size(s->block_elems, a.n + b.n - o);
            if (merge_block(s, &a, &b, o, len, &d, e) != 0)
                return -1;
            progress_add(s, len);
        }
    }
    return 0;
}

/* A host array like `like` (n elements; no data when like has none). */
static int twin(const ak_array *like, ak_array *out, ak_err *e)
{
    *out = *like;
    out->data = NULL;
    if (!like->data) return 0;
    size_t bytes = like->n * ak_dtype_size(like->type);
    out->data = malloc(bytes ? bytes : 1);
    return out->data ? 0 : ak_fail(e, "out of memory for the merge's second array");
}

/* The merge levels that join runs of r into one sequence of n. */
static size_t levels_of(size_t r, size_t n)
{
    size_t levels = 0;
    for (size_t width = r; width < n; width *= 2)
        levels++;
    return levels;
}

static int merge_runs(runs *s, sort_runs_stats *st, ak_err *e)
{
    const sort_runs_job *j = s->j;
    ak_array k2, v2 = {0};
    if (twin(j->keys, &k2, e) != 0) return -1;
    if (s->vs && twin(j->values, &v2, e) != 0) {
        free(k2.data);
        return -1;
    }
    const ak_array *src[2] = {j->keys, j->values}, *dst[2] = {&k2, &v2};
    layout l;
    int rc = lay_out_merge(s, s->block_elems, &l, e);
    size_t n = j->keys->n;
    progress_start(s, "merging", (uint64_t)n * (s->ks + s->vs) * levels_of(s->run_elems, n));
    for (size_t width = s->run_elems; rc == 0 && width < j->keys->n; width *= 2, st->levels++) {
        rc = merge_level(s, src[0], src[1], dst[0], dst[1], width, &l, st, e);
        const ak_array *t0 = src[0], *t1 = src[1];
        src[0] = dst[0], src[1] = dst[1], dst[0] = t0, dst[1] = t1;
    }
    ak_progress_end(&s->progress);
    release_layout(&l);
    if (rc == 0 && src[0] != j->keys) {
        memcpy(j->keys->data, k2.data, j->keys->n * s->ks);
        if (s->vs) memcpy(j->values->data, v2.data, j->keys->n * s->vs);
    }
    free(k2.data);
    free(v2.data);
    return rc;
}

/* ---- the whole ----------------------------------------------------------------- */

static int check_job(const runs *s, ak_err *e)
{
    sort_key_bits whole = sort_whole_key(s->j->keys->type);
    if (s->run_elems < s->j->keys->n &&
        (s->j->bits.begin != whole.begin || s->j->bits.end != whole.end))
        return ak_fail(e, "--bits needs the keys to fit --memory (%zu bytes) at once: the "
                       "merge of sorted runs orders by the whole key", s->j->budget);
    return 0;
}

static int device_limits(runs *s, ak_err *e)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_status st = sk_context_device(s->run->ctx, &d);
    if (st != SK_OK) return ak_fail_sk(e, s->run->ctx, st, ak_run_input_name(s->run));
    s->mem.max_alloc = (size_t)d.max_alloc_bytes;
    cl_uint bits = 0;
    cl_int err = clGetDeviceInfo(sk_context_cl_device(s->run->ctx), CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                 sizeof bits, &bits, NULL);
    if (err != CL_SUCCESS) return ak_fail_cl(e, "querying the device's buffer alignment", err);
    s->mem.align = bits >= 8 ? bits / 8 : 1;
    return 0;
}

int sort_runs(ak_run *run, const sort_runs_job *j, sort_runs_stats *stats, ak_err *e)
{
    runs s = {run, j, SK_UINT32, ak_dtype_size(j->keys->type), 0, 0, 0, {0}, {0}};
    memset(stats, 0, sizeof *stats);
    if (j->values && j->values->data) s.vs = ak_dtype_size(j->values->type);
    if (j->keys->n == 0) return 0;
    ak_dtype_to_sk(j->keys->type, &s.type);
    int rc = device_limits(&s, e);
    if (rc == 0) rc = plan(&s, e);
    if (rc == 0) rc = check_job(&s, e);
    stats->run_elems = s.run_elems;
    stats->device_bytes = s.mem.data_bytes + s.mem.scratch_bytes;
    if (rc == 0) rc = sort_all_runs(&s, stats, e);
    if (rc == 0 && stats->runs > 1) rc = merge_runs(&s, stats, e);
    release_mem(&s);
    return rc;
}
