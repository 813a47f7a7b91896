/*
 * segsort.c - the segmented sort: keys, or (key, value) pairs, sorted
 * stably within segments given by offsets (sk_segments, as the segmented
 * scan takes them), in the radix sort's order (sort.h's key table,
 * kernels/sort_keys.cl's transform): every key type, ascending or
 * descending, an optional bit range.
 *
 * Segments up to a tile are sorted where they lie (kernels/segsort.cl):
 *   GPU shape: a work-group per tile of keys (wg x items) sorts, in local
 *              memory, every such segment that starts in its tile, found
 *              by binary searches of the offsets (the tiles' first
 *              segments by a pass over the segments, which also lists the
 *              large ones): no per-segment list, no atomics for them;
 *   CPU shape: a work-item per chunk of segments sorts those up to
 *              SEG_INSERT keys by insertion, those up to segsort_cpu_tile
 *              keys (tuning.c) by a merge sort through scratch, and lists
 *              the others;
 * and segments longer than that (large) are read back and sorted by the
 * device-wide radix sort (sort.c), in a number of launches that does not
 * depend on how many there are:
 *   the batch: the large segments' keys gathered back to back, each with
 *     its segment number (keys) or its place in the batch (pairs); one
 *     stable sort of these pairs by the key (order, bit range); then one
 *     stable sort by the segment number (its bits only), which keeps the
 *     keys' order within each segment; then every key (and value, picked
 *     by its place) put back where its segment lies;
 *   by groups (GPU shape, instead of the batch where there are at least
 *     segsort_groups_from large segments averaging SEGSORT_GROUP_MIN_KEYS
 *     or more): each sorted in place by a work-group of its own, one
 *     counting read and a launch per digit (sort.c, sk__sort_segments);
 *   by work-items (CPU shape, instead of the batch): each segment sorted
 *     in place by one work-item, an LSD radix sort through a scratch copy
 *     of the segments' span (sk_segsort_radix_spans), one launch;
 *   alone: a segment of at least segsort_alone_from keys, or on the GPU
 *     shape the only large one, sorted by itself, on the caller's buffers
 *     at offset 0, else on a scratch copy.
 * The batch's kernels are a program of their own (by the key's and the
 * value's widths), built only where a batch runs.
 * The offsets' check is enqueued first and its verdict read back with the
 * large segments' count after the short segments' kernels, which do
 * nothing where the check failed: one wait per call, none between the
 * launches. Reading the large segments' list blocks too.
 */
#include "segscan.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(segsort_keys, "segmented sort: keys (merges, large segments)");
SK_SCRATCH_ID(segsort_values, "segmented sort: values (merges, large segments)");
SK_SCRATCH_ID(segsort_tags, "segmented sort: the batch's segment numbers or places");
SK_SCRATCH_ID(segsort_segs, "segmented sort: the batch's segment numbers (pairs)");
SK_SCRATCH_ID(segsort_table, "segmented sort: the batch's segments");
SK_SCRATCH_ID(segsort_counts, "segmented sort: the offsets' check, large segments' count");
SK_SCRATCH_ID(segsort_first, "segmented sort: each tile's first segment");
SK_SCRATCH_ID(segsort_large, "segmented sort: segments past a tile");
SK_STAGING_ID(segsort_offsets_in, "segmented sort, host form: offsets");

/* CPU shape: segments of at most this many keys by insertion sort. */
#define SEG_INSERT 16
/* GPU shape: keys of a work-group's tile (a work-item places each of its
 * keys by counting its segment's keys before it); the work-group's window
 * holds two tiles. */
#define GPU_SEG_ITEMS 4

/* ---- requests ------------------------------------------------------------ */

typedef struct segsort_req {
    sort_req sort;                /* key type, values, n, order, bit range */
    const sk_segments *seg;
} segsort_req;

static sk_status validate_req(sk_context *ctx, const segsort_req *r, bool pairs)
{
    sk_status st = sk__sort_validate(ctx, &r->sort, pairs);
    if (st != SK_OK) return st;
    if (r->seg && r->seg->flags)
        return sk__fail(ctx, SK_E_INVALID_ARG, "the segmented sort takes offsets, not flags");
    return SK_OK;
}

/* ---- planning ------------------------------------------------------------- */

typedef struct segsort_plan {
    sk__tuning t;
    bool gpu;
    size_t tile;                  /* longest segment the shape's kernels can sort */
    size_t big;                   /* longest segment they do sort (at most tile) */
    size_t alone_from;            /* large segments this long are sorted alone */
    size_t idx_size;              /* bytes of a place or segment number in the batch */
    size_t parts, chunk;          /* CPU shape: chunks of segments */
    const sk__program *prog;
} segsort_plan;

static segsort_plan plan_for(const sk_context *ctx, const segsort_req *r)
{
    segsort_plan p = {0};
    size_t count = r->seg->count;
    p.t = sk__tuning_for(ctx, SK_FAMILY_SEGSORT, sk_type_size(r->sort.key_type));
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    /* the tile's local memory (segsort.cl): an 8-byte word a window place
     * (what it ranks by) and a 4-byte segment start a tile place */
    while (p.gpu && p.t.wg_size > 1 &&
           p.t.wg_size * GPU_SEG_ITEMS * (2 * 8 + 4) > ctx->local_mem_bytes)
        p.t.wg_size /= 2;
    p.tile = p.gpu ? p.t.wg_size * GPU_SEG_ITEMS : p.t.segsort_cpu_tile;
    p.alone_from = ctx->test_segsort_alone ? ctx->test_segsort_alone : p.t.segsort_alone_from;
    p.idx_size = r->sort.n > UINT32_MAX ? 8 : 4;
    size_t chunks = r->sort.n < p.t.cpu_serial_below ? 1 : p.t.cpu_chunks;
    p.chunk = div_up(count, chunks < count ? chunks : count);
    p.parts = div_up(count, p.chunk);
    return p;
}

/* ---- programs ------------------------------------------------------------- */

enum { K_CLASSIFY, K_TILES };
static const char *const gpu_kernels[] = {"sk_segsort_classify", "sk_segsort_tiles"};
enum { K_CHUNKS, K_RADIX_SPANS };
static const char *const cpu_kernels[] = {"sk_segsort_chunks", "sk_segsort_radix_spans"};
/* The batch's program (either shape); the last two for pairs only. */
enum { K_GATHER, K_PUT, K_SEGS, K_PICK };
static const char *const batch_kernels[] = {"sk_segsort_gather", "sk_segsort_put",
                                            "sk_segsort_segs", "sk_segsort_pick"};

static char *segsort_config(const segsort_plan *p, const segsort_req *r)
{
    const sort_req *s = &r->sort;
    sk__str c = {0};
    sk__str_addf(&c, "#define SK_KEY_T %s\n#define SK_KEY_BITS %u\n#define SK_KEY_KIND %d\n",
                 key_types[s->key_type].cl, key_types[s->key_type].bits,
                 key_types[s->key_type].kind);
    sk__str_addf(&c, "#define SK_OFF_T %s\n", r->seg->offset_type == SK_UINT32 ? "uint" : "ulong");
    if (s->value_size) sk__str_addf(&c, "#define SK_VAL_T %s\n", s->value_size == 8 ? "ulong" : "uint");
    sk__str_addf(&c, "#define SK_SEG_INSERT %d\n#define SK_SEG_TILE %zu\n", SEG_INSERT,
                 p->tile);
    if (p->gpu)
        sk__str_addf(&c, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %d\n",
                     p->t.wg_size, GPU_SEG_ITEMS);
    else
        sk__str_addf(&c, "#define SK_SHAPE_CPU 1\n");
    sk__str_add_source(&c, "sort_keys");
    return sk__str_take(&c);
}

/* Whether the batch carries places rather than segment numbers beside the
 * keys: for pairs, and for keys narrower than 4 bytes, which cannot ride
 * the sort by segment as its values (the radix sort's are 4 or 8 bytes). */
static bool batch_by_place(const segsort_req *r)
{
    return r->sort.value_size != 0 || sk_type_size(r->sort.key_type) < 4;
}

/* The batch's program: by the key's and the value's widths alone (one
 * program for every key type of a width: keys move as their bits), the
 * same for both shapes. */
static sk_status open_batch_program(sk_context *ctx, const segsort_plan *p,
                                    const segsort_req *r, const sk__program **prog)
{
    static const char *const bits_type[9] = {[1] = "uchar", [2] = "ushort", [4] = "uint",
                                              [8] = "ulong"};
    size_t ks = sk_type_size(r->sort.key_type), vs = r->sort.value_size;
    sk__str c = {0};
    sk__str_addf(&c, "#define SK_KEY_T %s\n#define SK_KEY_BITS %zu\n#define SK_KEY_KIND 0\n",
                 bits_type[ks], 8 * ks);
    sk__str_addf(&c, "#define SK_OFF_T ulong\n#define SK_SEG_INSERT %d\n", SEG_INSERT);
    if (vs) sk__str_addf(&c, "#define SK_VAL_T %s\n", vs == 8 ? "ulong" : "uint");
    sk__str_addf(&c, "#define SK_SEG_BATCH 1\n#define SK_IDX_T %s\n",
                 p->idx_size == 8 ? "ulong" : "uint");
    sk__str_add_source(&c, "sort_keys");
    return sk__program_take(ctx, "segsort", sk__str_take(&c), batch_kernels,
                            batch_by_place(r) ? 4 : 2, prog);
}

/* Builds (or finds) the program; on the GPU shape lowers the work-group
 * size until its kernels can run it. */
static sk_status open_program(sk_context *ctx, segsort_plan *p, const segsort_req *r)
{
    bool lowered = p->gpu;
    sk_status st = SK_OK;
    do {
        p->tile = p->gpu ? p->t.wg_size * GPU_SEG_ITEMS : p->t.segsort_cpu_tile;
        st = sk__program_take(ctx, "segsort", segsort_config(p, r),
                              p->gpu ? gpu_kernels : cpu_kernels, 2, &p->prog);
        if (st == SK_OK && lowered) st = sk__fit_wg(ctx, p->prog, "segsort", &p->t.wg_size,
                                                    &lowered);
    } while (st == SK_OK && lowered);
    size_t test_big = ctx->test_segsort_big;
    p->big = test_big && test_big < p->tile ? test_big : p->tile;
    return st;
}

/* ---- the sort ---------------------------------------------------------------- */

typedef struct segsort_job {
    sk_context *ctx;
    const segsort_req *r;
    segsort_plan p;
    uint64_t flip, range;         /* descending; the bit range's mask */
    cl_mem keys, values;
    cl_mem counts;                /* the offsets' check, the large segments' count */
    cl_mem large, first;          /* large segments (start, end); GPU: tiles' first segments */
    size_t large_cap;             /* the large list's capacity, in segments */
    size_t tiles;                 /* GPU shape: tiles of keys */
} segsort_job;

/* The check's word and the count (zeroed), the offsets' check enqueued,
 * and the lists. */
static sk_status open_lists(segsort_job *j)
{
    sk_context *ctx = j->ctx;
    size_t n = j->r->sort.n, count = j->r->seg->count;
    static const cl_uint zero[2] = {0, 0}; /* static: the write does not wait */
    sk_status st = SK_OK;
    j->large_cap = n / (j->p.big + 1);
    if (j->large_cap > count) j->large_cap = count;
    j->tiles = div_up(n, j->p.tile);
    SK_TRY(sk__scratch_get(ctx, &segsort_counts, sizeof zero, &j->counts));
    /* written, not filled: Oclgrind takes a filled counter for
     * uninitialised at the atomic increment */
    SK_TRY(sk__write(ctx, j->counts, false, 0, sizeof zero, zero));
    if (count) SK_TRY(sk__segments_check_offsets_into(ctx, j->r->seg, n, j->counts));
    SK_TRY(sk__scratch_get(ctx, &segsort_large, (j->large_cap + 1) * 2 * sizeof(cl_ulong),
                           &j->large));
    if (j->p.gpu)
        SK_TRY(sk__scratch_get(ctx, &segsort_first, (j->tiles + 1) * sizeof(cl_ulong),
                               &j->first));
out:
    return st;
}

/* The scratch copies of keys and values: n of each (CPU shape: merges),
 * or `len` for one large segment. */
static sk_status open_copies(segsort_job *j, size_t len, cl_mem *tk, cl_mem *tv)
{
    const sort_req *s = &j->r->sort;
    sk_status st = sk__scratch_get(j->ctx, &segsort_keys, len * sk_type_size(s->key_type), tk);
    if (st == SK_OK && s->value_size)
        st = sk__scratch_get(j->ctx, &segsort_values, len * s->value_size, tv);
    return st;
}

/* GPU shape: the tiles' first segments, the large segments listed. */
static sk_status run_classify(segsort_job *j)
{
    size_t count = j->r->seg->count;
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_CLASSIFY);
    sk__arg_mem(&a, j->r->seg->offsets);
    sk__arg_mem(&a, j->first);
    sk__arg_mem(&a, j->large);
    sk__arg_mem(&a, j->counts);
    sk__arg_ulong(&a, "count", count);
    sk__arg_ulong(&a, "n", j->r->sort.n);
    sk__arg_ulong(&a, "big", j->p.big);
    sk__arg_ulong(&a, "tiles", j->tiles);
    return sk__args_launch_each(&a, count > j->tiles ? count : j->tiles + 1);
}

/* GPU shape: a work-group per tile sorts the segments up to `big` keys
 * that start in it. */
static sk_status run_tiles(segsort_job *j)
{
    size_t ks = sk_type_size(j->r->sort.key_type), wg = j->p.t.wg_size;
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_TILES);
    sk__arg_mem(&a, j->keys);
    if (j->r->sort.value_size) sk__arg_mem(&a, j->values);
    sk__arg_mem(&a, j->r->seg->offsets);
    sk__arg_mem(&a, j->first);
    sk__arg_mem(&a, j->counts);
    sk__arg_ulong(&a, "count", j->r->seg->count);
    sk__arg_ulong(&a, "n", j->r->sort.n);
    sk__arg_ulong(&a, "big", j->p.big);
    sk__arg_word(&a, "flip", ks, j->flip);
    sk__arg_word(&a, "range", ks, j->range);
    return sk__args_launch(&a, j->tiles * wg, wg);
}

/* CPU shape: a work-item per chunk of segments sorts those up to `big`
 * keys, the others listed. */
static sk_status run_chunks(segsort_job *j)
{
    const segsort_req *r = j->r;
    size_t ks = sk_type_size(r->sort.key_type);
    cl_mem tk = NULL, tv = NULL;
    sk_status st = SK_OK;
    SK_TRY(open_copies(j, r->sort.n, &tk, &tv));
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_CHUNKS);
    sk__arg_mem(&a, j->keys);
    if (r->sort.value_size) sk__arg_mem(&a, j->values);
    sk__arg_mem(&a, tk);
    if (r->sort.value_size) sk__arg_mem(&a, tv);
    sk__arg_mem(&a, r->seg->offsets);
    sk__arg_mem(&a, j->large);
    sk__arg_mem(&a, j->counts);
    sk__arg_ulong(&a, "count", r->seg->count);
    sk__arg_ulong(&a, "n", r->sort.n);
    sk__arg_ulong(&a, "chunk", j->p.chunk);
    sk__arg_ulong(&a, "big", j->p.big);
    sk__arg_word(&a, "flip", ks, j->flip);
    sk__arg_word(&a, "range", ks, j->range);
    st = sk__args_launch(&a, j->p.parts, 1);
out:
    return st;
}

/* One segment [lo, hi) past a tile by the device-wide radix sort: on the
 * caller's buffers at offset 0, else on a scratch copy. */
static sk_status sort_large(segsort_job *j, uint64_t lo, uint64_t hi)
{
    sk_context *ctx = j->ctx;
    sort_req s = j->r->sort;
    size_t ks = sk_type_size(s.key_type), vs = s.value_size;
    cl_mem tk = NULL, tv = NULL;
    sk_status st = SK_OK;
    s.n = (size_t)(hi - lo);
    if (lo == 0) return sk__sort_run(ctx, &s, j->keys, j->values);
    SK_TRY(open_copies(j, s.n, &tk, &tv));
    SK_TRY(sk__copy(ctx, j->keys, lo * ks, tk, 0, s.n * ks));
    if (vs) SK_TRY(sk__copy(ctx, j->values, lo * vs, tv, 0, s.n * vs));
    SK_TRY(sk__sort_run(ctx, &s, tk, tv));
    SK_TRY(sk__copy(ctx, tk, 0, j->keys, lo * ks, s.n * ks));
    if (vs) SK_TRY(sk__copy(ctx, tv, 0, j->values, lo * vs, s.n * vs));
out:
    return st;
}

/* ---- large segments ------------------------------------------------------------ */

/* A large segment: keys[lo .. hi). */
typedef struct seg_span {
    cl_ulong lo, hi;
} seg_span;

static int span_cmp(const void *a, const void *b)
{
    cl_ulong x = ((const seg_span *)a)->lo, y = ((const seg_span *)b)->lo;
    return (x > y) - (x < y);
}

/* The batch of large segments on the device. */
typedef struct seg_batch {
    size_t segs, m;               /* segments; keys, back to back */
    cl_mem table;                 /* per segment: start in the batch, start in keys; then m */
    cl_mem keys, tags;            /* keys; segment numbers (keys) or places (pairs) */
    cl_mem segs_of, values;       /* pairs: segment numbers, values */
    const sk__program *prog;      /* the batch's program */
} seg_batch;

/* The batch's table of `segs` spans, written to the device (blocking). */
static sk_status open_table(segsort_job *j, const seg_span *spans, seg_batch *b)
{
    size_t bytes = 2 * (b->segs + 1) * sizeof(cl_ulong);
    cl_ulong *table = malloc(bytes);
    sk_status st = SK_OK;
    if (!table) return sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segmented sort: the batch");
    b->m = 0;
    for (size_t s = 0; s < b->segs; s++) {
        table[2 * s] = b->m;
        table[2 * s + 1] = spans[s].lo;
        b->m += (size_t)(spans[s].hi - spans[s].lo);
    }
    table[2 * b->segs] = b->m;
    table[2 * b->segs + 1] = 0;
    SK_TRY(sk__scratch_get(j->ctx, &segsort_table, bytes, &b->table));
    st = sk__write(j->ctx, b->table, true, 0, bytes, table);
out:
    free(table);
    return st;
}

/* The batch's kernel k over its m places; the arguments `mems` (NULL
 * entries skipped), then the segment count (with_segs), then m, then for
 * the gather whether it tags places (pairs) rather than segments. */
static sk_status launch_batch(segsort_job *j, const seg_batch *b, unsigned k,
                              const cl_mem *mems, unsigned count, bool with_segs)
{
    sk__args a;
    sk__args_init(&a, j->ctx, b->prog, k);
    for (unsigned i = 0; i < count; i++)
        if (mems[i]) sk__arg_mem(&a, mems[i]);
    if (with_segs) sk__arg_ulong(&a, "segs", b->segs);
    sk__arg_ulong(&a, "m", b->m);
    if (k == K_GATHER) sk__arg_uint(&a, "by_place", batch_by_place(j->r));
    return sk__args_launch_each(&a, b->m);
}

/* The bits of the segment numbers 0 .. segs - 1 (segs >= 2). */
static unsigned seg_bits(size_t segs)
{
    unsigned bits = 0;
    while (bits < 64 && ((uint64_t)(segs - 1) >> bits)) bits++;
    return bits;
}

/* The batch of keys only: sorted by key with its segment numbers, then
 * the numbers (with the keys) by themselves, then put back. */
static sk_status sort_batch_keys(segsort_job *j, seg_batch *b, sort_req by_key)
{
    sk_type it = j->p.idx_size == 8 ? SK_UINT64 : SK_UINT32;
    sort_req by_seg = {it, sk_type_size(by_key.key_type), b->m, SK_ASCENDING, 0,
                       seg_bits(b->segs)};
    sk_status st = SK_OK;
    SK_TRY(sk__sort_run(j->ctx, &by_key, b->keys, b->tags));
    SK_TRY(sk__sort_run(j->ctx, &by_seg, b->tags, b->keys));
    st = launch_batch(j, b, K_PUT, (cl_mem[]){j->keys, b->tags, b->keys, b->table}, 4, false);
out:
    return st;
}

/* The batch by places (pairs, narrow keys): sorted by key with its
 * places, the places' segment numbers found, the places sorted by them,
 * then every key (and value) picked by its place and put back. */
static sk_status sort_batch_places(segsort_job *j, seg_batch *b, sort_req by_key)
{
    sk_context *ctx = j->ctx;
    size_t is = j->p.idx_size, vs = j->r->sort.value_size;
    sk_type it = is == 8 ? SK_UINT64 : SK_UINT32;
    sort_req by_seg = {it, is, b->m, SK_ASCENDING, 0, seg_bits(b->segs)};
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &segsort_segs, b->m * is, &b->segs_of));
    if (vs) SK_TRY(sk__scratch_get(ctx, &segsort_values, b->m * vs, &b->values));
    SK_TRY(sk__sort_run(ctx, &by_key, b->keys, b->tags));
    SK_TRY(launch_batch(j, b, K_SEGS, (cl_mem[]){b->tags, b->segs_of, b->table}, 3, true));
    SK_TRY(sk__sort_run(ctx, &by_seg, b->segs_of, b->tags));
    SK_TRY(launch_batch(j, b, K_PICK,
                        (cl_mem[]){j->keys, j->values, b->segs_of, b->tags, b->keys, b->values,
                                   b->table},
                        7, false));
    st = launch_batch(j, b, K_PUT,
                      (cl_mem[]){j->keys, j->values, b->segs_of, b->keys, b->values, b->table},
                      6, false);
out:
    return st;
}

/* The large segments `spans` (at least two, by start) sorted together. */
static sk_status run_batch(segsort_job *j, const seg_span *spans, size_t segs)
{
    sk_context *ctx = j->ctx;
    const sort_req *s = &j->r->sort;
    seg_batch b = {segs, 0, NULL, NULL, NULL, NULL, NULL, NULL};
    sort_req by_key = {s->key_type, j->p.idx_size, 0, s->order, s->begin_bit, s->end_bit};
    sk_status st = SK_OK;
    SK_TRY(open_batch_program(ctx, &j->p, j->r, &b.prog));
    SK_TRY(open_table(j, spans, &b));
    by_key.n = b.m;
    SK_TRY(sk__scratch_get(ctx, &segsort_keys, b.m * sk_type_size(s->key_type), &b.keys));
    SK_TRY(sk__scratch_get(ctx, &segsort_tags, b.m * j->p.idx_size, &b.tags));
    SK_TRY(launch_batch(j, &b, K_GATHER, (cl_mem[]){j->keys, b.table, b.keys, b.tags}, 4, true));
    st = batch_by_place(j->r) ? sort_batch_places(j, &b, by_key) : sort_batch_keys(j, &b, by_key);
out:
    return st;
}

/* GPU shape: the batch's segments are sorted by a work-group each (see
 * sk__sort_segments) where there are at least segsort_groups_from of them
 * and they average at least this many keys: shorter ones would take more
 * for their digit starts (4 bytes per digit value and digit) than for
 * their keys. */
#define SEGSORT_GROUP_MIN_KEYS 4096

/* The least average length of the segments by a work-group each. */
static size_t group_min_keys(const segsort_job *j)
{
    size_t test = j->ctx->test_segsort_group_min;
    return test ? test : SEGSORT_GROUP_MIN_KEYS;
}

static bool by_groups(const segsort_job *j, const seg_span *spans, size_t segs)
{
    size_t test = j->ctx->test_segsort_groups_from, keys = 0;
    size_t from = test ? test : j->p.t.segsort_groups_from;
    if (!j->p.gpu || from == 0 || segs < from) return false;
    for (size_t s = 0; s < segs; s++) {
        if (spans[s].hi - spans[s].lo >= SK_SORT_SEGMENT_MAX) return false;
        keys += (size_t)(spans[s].hi - spans[s].lo);
    }
    return keys >= segs * group_min_keys(j);
}

/* The large segments `spans` (by start) sorted by a work-group each, in
 * place: the spans written to the device (blocking), then
 * sk__sort_segments. */
static sk_status run_groups(segsort_job *j, const seg_span *spans, size_t segs)
{
    const sort_req *s = &j->r->sort;
    sk__sort_spans sp = {NULL, segs, spans[0].lo, spans[segs - 1].hi};
    sort_req r = *s;
    sk_status st = SK_OK;
    r.n = 0;
    for (size_t i = 0; i < segs; i++) r.n += (size_t)(spans[i].hi - spans[i].lo);
    SK_TRY(sk__scratch_get(j->ctx, &segsort_table, segs * sizeof *spans, &sp.spans));
    SK_TRY(sk__write(j->ctx, sp.spans, true, 0, segs * sizeof *spans, spans));
    st = sk__sort_segments(j->ctx, &r, &sp, j->keys, j->values);
out:
    return st;
}

/* CPU shape: the large segments `spans` (by start) sorted by a work-item
 * each in turn (sk_segsort_radix_spans, a radix sort through a copy of
 * their span of keys): the spans written to the device (blocking), then
 * one launch over the shape's chunks. */
static sk_status run_items(segsort_job *j, const seg_span *spans, size_t segs)
{
    const sort_req *s = &j->r->sort;
    size_t ks = sk_type_size(s->key_type), span = (size_t)(spans[segs - 1].hi - spans[0].lo);
    size_t items = segs < j->p.t.cpu_chunks ? segs : j->p.t.cpu_chunks;
    cl_mem table = NULL, tk = NULL, tv = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(j->ctx, &segsort_table, segs * sizeof *spans, &table));
    SK_TRY(sk__write(j->ctx, table, true, 0, segs * sizeof *spans, spans));
    SK_TRY(open_copies(j, span, &tk, &tv));
    sk__args a;
    sk__args_init(&a, j->ctx, j->p.prog, K_RADIX_SPANS);
    sk__arg_mem(&a, j->keys);
    if (s->value_size) sk__arg_mem(&a, j->values);
    sk__arg_mem(&a, tk);
    if (s->value_size) sk__arg_mem(&a, tv);
    sk__arg_mem(&a, table);
    sk__arg_ulong(&a, "count", segs);
    sk__arg_ulong(&a, "off", spans[0].lo);
    sk__arg_word(&a, "flip", ks, j->flip);
    sk__arg_word(&a, "range", ks, j->range);
    st = sk__args_launch(&a, items ? items : 1, 1);
out:
    return st;
}

static int span_longer(const void *a, const void *b)
{
    const seg_span *x = a, *y = b;
    cl_ulong lx = x->hi - x->lo, ly = y->hi - y->lo;
    return (lx < ly) - (lx > ly);
}

/* Every listed large segment, read back (blocking): the long ones sorted
 * alone, the others in one batch (alone too when only one). The batch
 * goes first and the others longest first, so that on the caller's
 * scratch no region is carved larger than measure_large carves it. */
static sk_status run_large(segsort_job *j, size_t larges)
{
    sk_status st = SK_OK;
    size_t batched = 0, longs = 0, alone = 0;
    seg_span *spans = malloc(2 * larges * sizeof *spans), *rest = spans + larges;
    if (!spans) return sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segmented sort: large segments");
    SK_TRY(sk__read(j->ctx, j->large, true, 0, larges * sizeof *spans, spans));
    qsort(spans, larges, sizeof *spans, span_cmp); /* the batch in the keys' order */
    for (size_t i = 0; i < larges; i++) { /* batched ones to the front, the others behind */
        if (spans[i].hi - spans[i].lo < j->p.alone_from) spans[batched++] = spans[i];
        else rest[longs++] = spans[i];
    }
    memcpy(spans + batched, rest, longs * sizeof *spans);
    bool by_items = !j->p.gpu && batched > 0;
    if (by_items) SK_TRY(run_items(j, spans, batched));
    else if (batched > 1 && by_groups(j, spans, batched)) SK_TRY(run_groups(j, spans, batched));
    else if (batched > 1) SK_TRY(run_batch(j, spans, batched));
    /* (on the GPU shape a lone batched one is sorted alone too) */
    alone = by_items || batched != 1 ? batched : 0;
    qsort(spans + alone, larges - alone, sizeof *spans, span_longer);
    for (size_t i = alone; i < larges; i++) SK_TRY(sort_large(j, spans[i].lo, spans[i].hi));
out:
    free(spans);
    return st;
}

/* spans[0 .. segs) = n keys in segs segments of about equal length. */
static void even_spans(seg_span *spans, size_t segs, size_t n)
{
    for (size_t s = 0; s < segs; s++)
        spans[s] = (seg_span){s * (n / segs), s + 1 < segs ? (s + 1) * (n / segs) : n};
}

/* Measuring scratch (the list reads as empty): the most that large
 * segments can take, a batch of all n keys in as many segments as can be
 * large (its table), the same keys by a work-group each in as many
 * segments as that takes, then a segment sorted alone on a copy. */
static sk_status measure_large(segsort_job *j)
{
    size_t n = j->r->sort.n, segs = j->large_cap, groups = n / group_min_keys(j);
    sk_status st = SK_OK;
    seg_span *spans = NULL;
    if (segs >= 2) {
        if (!(spans = malloc(segs * sizeof *spans)))
            return sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segmented sort: large segments");
        even_spans(spans, segs, n);
        SK_TRY(j->p.gpu ? run_batch(j, spans, segs) : run_items(j, spans, segs));
        if (groups > segs) groups = segs;
        even_spans(spans, groups, n);
        if (groups >= 2 && by_groups(j, spans, groups)) SK_TRY(run_groups(j, spans, groups));
    }
    if (segs >= 1) st = sort_large(j, 1, n);
out:
    free(spans);
    return st;
}

/* Sorts validated buffers: the offsets' check, the kernels of the shape
 * (which do nothing where the check fails), one read of the check's
 * verdict and the large segments' count, then the large segments. */
static sk_status segsort_run(sk_context *ctx, const segsort_req *r, cl_mem keys, cl_mem values)
{
    const sort_req *s = &r->sort;
    size_t ks = sk_type_size(s->key_type);
    cl_uint counts[2] = {0, 0};
    sk_status st = SK_OK;
    segsort_job j = {ctx, r, plan_for(ctx, r), 0, 0, keys, values, NULL, NULL, NULL, 0, 0};
    j.flip = sort_flip(s->order, ks);
    j.range = range_mask(s->begin_bit, s->end_bit);
    SK_TRY(open_program(ctx, &j.p, r));
    SK_TRY(open_lists(&j));
    if (s->n >= 2 && j.p.gpu) {
        SK_TRY(run_classify(&j));
        SK_TRY(run_tiles(&j));
    } else if (s->n >= 2) {
        SK_TRY(run_chunks(&j));
    }
    SK_TRY(sk__read(ctx, j.counts, true, 0, sizeof counts, counts));
    SK_TRY(sk__segments_offsets_verdict(ctx, (cl_int)counts[0], s->n));
    if (counts[1] > j.large_cap)
        SK_TRY(sk__fail(ctx, SK_E_CL, "segmented sort: %u large segments, room for %zu",
                        counts[1], j.large_cap));
    if (counts[1]) SK_TRY(run_large(&j, counts[1]));
    else if (sk__measuring(ctx) && s->n >= 2) SK_TRY(measure_large(&j));
out:
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

/* Validates the request's segments, then sorts (the offsets checked on the
 * device on the way). */
static sk_status segsort_checked(sk_context *ctx, const segsort_req *r, cl_mem keys,
                                 cl_mem values)
{
    sk_status st = sk__segments_validate(ctx, r->seg, r->sort.n);
    if (st == SK_OK && (r->seg->count || r->sort.n >= 2)) st = segsort_run(ctx, r, keys, values);
    return st;
}

static sk_status segsort_mem(sk_context *ctx, const segsort_req *r, cl_mem keys, cl_mem values)
{
    SK_ENTER(ctx);
    bool pairs = r->sort.value_size != 0;
    sk_status st = validate_req(ctx, r, pairs);
    if (st == SK_OK) st = sk__sort_check_buffers(ctx, &r->sort, keys, values, pairs);
    if (st == SK_OK) st = segsort_checked(ctx, r, keys, values);
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status check_host(sk_context *ctx, const sort_req *s, const void *keys,
                            const void *values, const sk_segments_host *h)
{
    bool pairs = s->value_size != 0;
    sk_status st = SK_OK;
    if (!h) return sk__fail(ctx, SK_E_INVALID_ARG, "segments are NULL");
    if (h->flags) return sk__fail(ctx, SK_E_INVALID_ARG, "the segmented sort takes offsets, not flags");
    SK_TRY(sk__check_host_arrays(ctx, s->n, keys, values, pairs, "keys"));
    SK_TRY(sk__fits_device(ctx, s->n * sk_type_size(s->key_type), "the keys' device copy"));
    SK_TRY(sk__fits_device(ctx, s->n * s->value_size, "the values' device copy"));
out:
    return st;
}

static sk_status segsort_in_place(sk_context *ctx, const void *req, cl_mem keys, cl_mem values)
{
    return segsort_checked(ctx, req, keys, values);
}

static sk_status segsort_host(sk_context *ctx, const sort_req *s, void *keys, void *values,
                              const sk_segments_host *h)
{
    SK_ENTER(ctx);
    bool pairs = s->value_size != 0;
    size_t kb = s->n * sk_type_size(s->key_type), vb = s->n * s->value_size;
    sk_segments seg = {0};
    segsort_req r = {*s, &seg};
    sk_status st = SK_OK;
    SK_TRY(validate_req(ctx, &r, pairs));
    SK_TRY(check_host(ctx, s, keys, values, h));
    SK_TRY(sk__segments_upload(ctx, h, s->n, &segsort_offsets_in, &seg));
    if (s->n < 2) return segsort_checked(ctx, &r, NULL, NULL); /* the offsets still checked */
    st = sk__host_in_place(ctx, keys, kb, values, vb, "the keys' device copy",
                           segsort_in_place, &r);
out:
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_segsort_keys(sk_context *ctx, sk_type key_type, cl_mem keys,
                          const sk_segments *seg, size_t n, sk_sort_order order)
{
    segsort_req r = {{key_type, 0, n, order, 0, sk__sort_all_bits(key_type)}, seg};
    return segsort_mem(ctx, &r, keys, NULL);
}

sk_status sk_segsort_pairs(sk_context *ctx, sk_type key_type, size_t value_size, cl_mem keys,
                           cl_mem values, const sk_segments *seg, size_t n,
                           sk_sort_order order)
{
    segsort_req r = {{key_type, value_size, n, order, 0, sk__sort_all_bits(key_type)}, seg};
    return segsort_mem(ctx, &r, keys, values);
}

sk_status sk_segsort_keys_bits(sk_context *ctx, sk_type key_type, cl_mem keys,
                               const sk_segments *seg, size_t n, sk_sort_order order,
                               unsigned begin_bit, unsigned end_bit)
{
    segsort_req r = {{key_type, 0, n, order, begin_bit, end_bit}, seg};
    return segsort_mem(ctx, &r, keys, NULL);
}

sk_status sk_segsort_pairs_bits(sk_context *ctx, sk_type key_type, size_t value_size,
                                cl_mem keys, cl_mem values, const sk_segments *seg, size_t n,
                                sk_sort_order order, unsigned begin_bit, unsigned end_bit)
{
    segsort_req r = {{key_type, value_size, n, order, begin_bit, end_bit}, seg};
    return segsort_mem(ctx, &r, keys, values);
}

sk_status sk_segsort_keys_host(sk_context *ctx, sk_type key_type, void *keys,
                               const sk_segments_host *seg, size_t n, sk_sort_order order)
{
    sort_req s = {key_type, 0, n, order, 0, sk__sort_all_bits(key_type)};
    return segsort_host(ctx, &s, keys, NULL, seg);
}

sk_status sk_segsort_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                void *keys, void *values, const sk_segments_host *seg,
                                size_t n, sk_sort_order order)
{
    sort_req s = {key_type, value_size, n, order, 0, sk__sort_all_bits(key_type)};
    return segsort_host(ctx, &s, keys, values, seg);
}

sk_status sk_segsort_keys_bits_host(sk_context *ctx, sk_type key_type, void *keys,
                                    const sk_segments_host *seg, size_t n, sk_sort_order order,
                                    unsigned begin_bit, unsigned end_bit)
{
    sort_req s = {key_type, 0, n, order, begin_bit, end_bit};
    return segsort_host(ctx, &s, keys, NULL, seg);
}

sk_status sk_segsort_pairs_bits_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                     void *keys, void *values, const sk_segments_host *seg,
                                     size_t n, sk_sort_order order, unsigned begin_bit,
                                     unsigned end_bit)
{
    sort_req s = {key_type, value_size, n, order, begin_bit, end_bit};
    return segsort_host(ctx, &s, keys, values, seg);
}
