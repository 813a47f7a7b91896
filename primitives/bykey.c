/*
 * bykey.c - run-length encoding and the by-key reductions, on the scan,
 * the segmented scan and the compaction (no scan of their own). Heads are
 * found where a key's bits differ from the one before it, in the pass
 * that needs them where it can:
 *
 *   sk_run_length_encode, sk_reduce_by_key: GPU shape below 2^32
 *      elements, tiles whose look-back carries the runs' totals where one
 *      word holds them, else tiles that look back on their head counts
 *      alone and store every run inside them, then a scan over one record
 *      per tile for the runs crossing tile edges (one work-group's, or
 *      the lifted scan's from the tuning's size; kernels/bykey_tile.cl,
 *      bykey_tile_join_io.cl); from 2^32, one lifted scan of the segment
 *      totals' monoid (segscan_lift.cl) whose loads compare each key with
 *      the one before it and whose stores write each run's key and total
 *      at its end (kernels/bykey_lift_io.cl, in the segmented scans' own
 *      tile); CPU shape, the segmented scan's chunk totals with the keys
 *      for flags (segscan.cl's SK_BY_KEY). Keys (and values) are read by
 *      that pass alone, nothing of n elements is written; counts are ones
 *      that are never read;
 *   sk_scan_by_key_*: CPU shape, the same chunks' scan; GPU shape, and
 *      sk_unique_by_key: one map (kernels/bykey.cl) turns the keys into
 *      uint8 head flags, then the segmented scan of the values by those
 *      flags, or the keys and values selected by them (sk_select_flagged's
 *      compaction).
 *
 * Keys compare as bit patterns (the kernel reads them as their
 * same-width unsigned type), so float keys group as the radix sort
 * orders them: -0.0 apart from +0.0, each NaN bit pattern a key of its
 * own. The host-array forms copy in, run the same code, copy out.
 */
#include "compact.h"
#include "segscan.h"
#include "sk_testing.h"

#include <stdio.h>
#include <stdlib.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(bykey_flags, "by key: head flags of the runs");
SK_SCRATCH_ID(bykey_count, "run-length encoding, reduce by key: the number of runs");
SK_STAGING_ID(bykey_keys_out, "by key, host form: keys out");

static const char *const cl_bits[SK_TYPE_COUNT] = {
#define BYKEY_CL_BITS_(suffix, value, name, bytes, cl, bits, ...) [SK_##suffix] = bits,
    SK_TYPE_MAP(BYKEY_CL_BITS_)
#undef BYKEY_CL_BITS_
};

/* ---- one call ------------------------------------------------------------------------- */

typedef enum bykey_mode { BK_RLE, BK_REDUCE, BK_UNIQUE, BK_SCAN, BK_SCAN_EXCLUSIVE } bykey_mode;

/* What one call works on. m is the values' monoid (NULL for unique);
 * value_size the bytes of a value in (0: none), out_size of a value out. */
typedef struct bykey_call {
    bykey_mode mode;
    sk_type key_type;
    const sk_monoid *m;
    bool order_free;
    size_t value_size, out_size;
    cl_mem keys, vin, kout, vout;
    size_t n;
} bykey_call;

static bool is_scan(const bykey_call *c)
{
    return c->mode == BK_SCAN || c->mode == BK_SCAN_EXCLUSIVE;
}

/* ---- validation ------------------------------------------------------------------------ */

/* The key type, the value sizes and every byte size (before any buffer:
 * SK_E_SIZE wins over a small buffer). */
static sk_status check_sizes(sk_context *ctx, const bykey_call *c, size_t bytes[3])
{
    sk_status st = SK_OK;
    SK_TRY(sk__require_op_type(ctx, c->key_type));
    SK_TRY(sk__require_fp64(ctx, c->key_type));
    if (c->m) SK_TRY(sk__validate_monoid(ctx, c->m));
    SK_TRY(sk__byte_size(ctx, c->n, sk_type_size(c->key_type), &bytes[0]));
    SK_TRY(sk__byte_size(ctx, c->n, c->value_size, &bytes[1]));
    SK_TRY(sk__byte_size(ctx, c->n, c->out_size, &bytes[2]));
out:
    return st;
}

/* Outputs distinct from the inputs and from each other; a scan's values
 * out may be its values in. */
static sk_status check_distinct(sk_context *ctx, const bykey_call *c)
{
    const cl_mem ins[] = {c->keys, c->vin};
    for (size_t i = 0; i < 2; i++) {
        bool in_place = i == 1 && is_scan(c);
        if (ins[i] && (ins[i] == c->kout || (!in_place && ins[i] == c->vout)))
            return sk__fail(ctx, SK_E_INVALID_ARG, "an output buffer is also an input");
    }
    if (c->kout && c->kout == c->vout)
        return sk__fail(ctx, SK_E_INVALID_ARG, "keys and values outputs are the same buffer");
    return SK_OK;
}

static sk_status validate_call(sk_context *ctx, const bykey_call *c)
{
    size_t bytes[3] = {0, 0, 0};
    sk_status st = SK_OK;
    SK_TRY(check_sizes(ctx, c, bytes));
    SK_TRY(sk__check_buffer(ctx, c->keys, bytes[0], "keys"));
    if (c->value_size && c->mode != BK_RLE)
        SK_TRY(sk__check_buffer(ctx, c->vin, bytes[1], "values_in"));
    if (!is_scan(c)) SK_TRY(sk__check_buffer(ctx, c->kout, bytes[0], "keys_out"));
    if (c->out_size) SK_TRY(sk__check_buffer(ctx, c->vout, bytes[2], "values_out"));
    SK_TRY(check_distinct(ctx, c));
out:
    return st;
}

/* ---- the head flags ------------------------------------------------------------------- */

enum { K_HEADS, K_HEADS_CHUNKS };
static const char *const heads_kernels[] = {"sk_bykey_heads", "sk_bykey_heads_chunks"};

static size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

/* The CPU shape's chunk: all n below the serial threshold, else n split
 * into the tuning's chunks, as the compaction splits it. */
static size_t heads_chunk(const sk__tuning *t, size_t n)
{
    if (n < t->cpu_serial_below || t->cpu_chunks < 2) return n;
    return div_up(n, t->cpu_chunks);
}

/* Enqueues the head flags of the n keys of c into *flags (scratch, at
 * least one byte even for n = 0). */
static sk_status make_heads(sk_context *ctx, const bykey_call *c, cl_mem *flags)
{
    sk__tuning t = sk__tuning_for(ctx, SK_FAMILY_COMPACT, sk_type_size(c->key_type));
    bool cpu = t.shape == SK_SHAPE_CPU;
    const sk__program *prog = NULL;
    char config[32];
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &bykey_flags, c->n ? c->n : 1, flags));
    if (c->n == 0) return SK_OK;
    snprintf(config, sizeof config, "#define SK_KB %s\n", cl_bits[c->key_type]);
    SK_TRY(sk__program_get(ctx, "bykey", config, heads_kernels, 2, &prog));
    sk__args_init(&a, ctx, prog, cpu ? K_HEADS_CHUNKS : K_HEADS);
    sk__arg_mem(&a, c->keys);
    sk__arg_mem(&a, *flags);
    sk__arg_ulong(&a, "n", c->n);
    if (!cpu) return sk__args_launch_each(&a, c->n);
    size_t chunk = heads_chunk(&t, c->n);
    sk__arg_ulong(&a, "chunk", chunk);
    st = sk__args_launch(&a, div_up(c->n, chunk), 1);
out:
    return st;
}

/* ---- the operations --------------------------------------------------------------------- */

/* The keys (and, for unique, the values) at the heads into kout (vout). */
static sk_status select_heads(sk_context *ctx, const bykey_call *c, cl_mem flags,
                              size_t *kept)
{
    compact_spec s = spec_flagged(c->key_type, 1);
    bool values = c->mode == BK_UNIQUE && c->value_size;
    compact_io io = {c->keys, flags, values ? c->vin : NULL, c->kout,
                     values ? c->vout : NULL, NULL};
    s.value_size = values ? c->value_size : 0;
    return sk__compact_run(ctx, &s, &io, c->n, kept);
}

/* ---- run totals in one scan ---------------------------------------------------------- */

/* Whether the fused scan moves its tiles by the segmented scans' own tile
 * in the GPU shape (kernels/segscan_tile.cl): values (or counts) of at
 * most 4 bytes. */
static bool fused_own_tile(const bykey_call *c) { return c->m->size <= 4; }

/* The fused scan's loads and stores: kernels/bykey_lift_io.cl after the
 * key bits and, for run-length encoding, SK_BYKEY_COUNT (and, for the own
 * tile of a 4-byte value, its 16-byte tile layout). */
static char *fused_io_text(const bykey_call *c)
{
    sk__str s = {0};
    sk__str_addf(&s, "#define SK_KB %s\n%s", cl_bits[c->key_type],
                 c->mode == BK_RLE ? "#define SK_BYKEY_COUNT 1\n" : "");
    if (fused_own_tile(c) && c->m->size == 4) sk__str_add(&s, "#define SK_TILE_VEC4 1\n");
    sk__str_add_source(&s, "bykey_bits");
    sk__str_add_source(&s, "bykey_lift_io");
    return sk__str_take(&s);
}

/* The look-back codec of the fused scan's elements
 * (kernels/segscan_totals_codec.cl; run-length encoding's uint64 counts as
 * 32-bit ones): below 2^30 elements one word without epoch, the open run's
 * value and the head count; else two words per tile, the head count and
 * the value. */
static char *fused_codec_text(const bykey_call *c)
{
    sk__str s = {0};
    if (c->mode == BK_RLE) sk__str_add(&s, "#define SK_SEG_CODE_COUNTS 1\n");
    sk__str_add(&s, sk__source_text("segscan_totals_codec"));
    return sk__str_take(&s);
}

/* Whether the codec carries every prefix of the call: head counts below
 * 2^33, values of at most 4 bytes or counts below 2^32. */
static bool fused_codec_fits(const bykey_call *c)
{
    return (uint64_t)c->n < ((uint64_t)1 << 32) && (c->mode == BK_RLE || c->m->size <= 4);
}

/* Whether a prefix's head count fits the wide code's 30 bits (and the
 * test hook SK__TEST_LB_PARTS does not ask for the two words). */
static bool fused_codec_wide(const sk_context *ctx, const bykey_call *c)
{
    return (uint64_t)c->n < ((uint64_t)1 << 30) && !(ctx->test_hooks & SK__TEST_LB_PARTS);
}

/* One fused call: the call and its count of runs on the device. */
typedef struct fused_job {
    const bykey_call *c;
    cl_mem count;
} fused_job;

/* The fused scan's inputs (SK_IN_PARAMS): the keys, and the values
 * unless it counts. */
static void fused_in(sk__args *a, const void *user)
{
    const bykey_call *c = ((const fused_job *)user)->c;
    sk__arg_mem(a, c->keys);
    if (c->mode != BK_RLE) sk__arg_mem(a, c->vin);
}

/* Its outputs (SK_OUT_PARAMS). */
static void fused_out(sk__args *a, const void *user)
{
    const fused_job *j = user;
    sk__arg_mem(a, j->c->kout);
    sk__arg_mem(a, j->c->vout);
    sk__arg_mem(a, j->count);
    sk__arg_ulong(a, "sk_n", j->c->n);
}

/* The fused scan of the call through io (its loads and stores), with
 * the look-back codec where it carries every prefix. */
static sk_status fused_scan(sk_context *ctx, const bykey_call *c, const sk__scan_io *io)
{
    char *text = fused_codec_text(c);
    bool wide = fused_codec_wide(ctx, c);
    sk__lb_codec codec = {text, c->order_free, wide ? 1 : 2, wide};
    sk_status st = SK_OK;
    if (!text) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "by key configuration");
    st = sk__segreduce_lifted(ctx, c->m, io, c->n, fused_codec_fits(c) ? &codec : NULL);
    free(text);
    return st;
}

/* Whether the call takes the CPU shape (as the segmented scan decides). */
static bool cpu_shape(sk_context *ctx, const bykey_call *c)
{
    return sk__tuning_for(ctx, SK_FAMILY_SCAN, c->m->size).shape == SK_SHAPE_CPU;
}

/* The CPU shape's segmented scan job of c with its keys for flags
 * (segscan_cpu.c, kernels/segscan.cl's SK_BY_KEY): one program per
 * (monoid, key width) for the scans and the totals alike. */
static seg_job chunk_job(sk_context *ctx, const bykey_call *c)
{
    bool rle = c->mode == BK_RLE;
    return (seg_job){ctx, c->m, rle ? c->keys : c->vin, c->vout, c->n, c->keys,
                     sk_type_size(c->key_type), NULL, NULL, c->order_free, true, rle,
                     c->kout};
}

/* CPU shape: the chunk totals by key; n > 0. Blocking. */
static sk_status chunk_totals(sk_context *ctx, const bykey_call *c, size_t *runs)
{
    cl_ulong count = 0;
    seg_job j = chunk_job(ctx, c);
    sk_status st = sk__segscan_cpu_totals(&j, &count);
    if (st == SK_OK) *runs = (size_t)count;
    return st;
}

/* CPU shape: the scan by key on the chunks, no head flags; n > 0. */
static sk_status chunk_scan(sk_context *ctx, const bykey_call *c)
{
    seg_job j = chunk_job(ctx, c);
    return sk__segscan_cpu_scan(&j, c->mode == BK_SCAN_EXCLUSIVE);
}

/* The GPU shape's lifted scan of c, read back: the number of runs into
 * *runs (blocking). */
static sk_status lifted_body(sk_context *ctx, const bykey_call *c, size_t *runs)
{
    cl_ulong count = 0;
    fused_job j = {c, NULL};
    char *io = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &bykey_count, sizeof count, &j.count));
    io = fused_io_text(c);
    if (!io) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "by key configuration");
    /* The outputs are distinct from the inputs (check_distinct). */
    sk__scan_io sio = {io, fused_in, fused_out, &j, true,
                       fused_own_tile(c) ? sk__source_text("segscan_tile") : NULL};
    st = fused_scan(ctx, c, &sio);
    free(io);
    SK_TRY(st);
    SK_TRY(sk__read(ctx, j.count, true, 0, sizeof count, &count));
    *runs = (size_t)count;
out:
    return st;
}

/* ---- run totals by tiles (GPU shape) ------------------------------------------------ */

/* kernels/bykey_tile.cl: one pass over the keys (and values) in tiles
 * combined by look-back. Where a look-back word can carry the lifted
 * totals (tiles_can_carry) and the input is below the tuning's size for
 * the scan's join, the pass stores every run. Otherwise the tiles look
 * back on their head counts alone and store every run that starts and
 * ends inside them; a join over one record per tile then stores the runs
 * that cross a tile edge, and the last, with the number of runs: one
 * work-group's scan (sk_bykey_tiles_join) below that size, the library's
 * lifted scan (kernels/bykey_tile_join_io.cl) from it. Head counts in 32
 * bits: n below 2^32. */

SK_SCRATCH_ID(bykey_tile_aggs, "by key, tiles: each tile's open run and head count");
SK_SCRATCH_ID(bykey_tile_pres, "by key, tiles: each tile's part before its first head");

static const char *const tile_kernels[] = {"sk_bykey_tiles", "sk_bykey_tiles_join"};

/* How the tiles complete the runs that cross them: their look-back carries
 * the runs' totals (kernels/bykey_tile.cl's SK_BT_CARRY), or it carries
 * head counts and one work-group's kernel or the lifted scan joins. */
typedef enum tiles_join { TJ_CARRY, TJ_GROUP, TJ_SCAN } tiles_join;

/* One call by tiles: its tuning, join, tiles and scratch. */
typedef struct tiles_job {
    const bykey_call *c;
    sk__tuning t;
    tiles_join join;
    size_t tiles;
    cl_mem aggs, pres, count;
} tiles_job;

/* Whether the tiles' look-back can carry the lifted totals: one word
 * without epoch (segscan_totals_codec.cl with SK_LB_WIDE) holds a value of
 * at most 4 bytes and a head count below 2^30, and the totals must not
 * depend on the combining order, which the look-back's timing sets. */
static bool tiles_can_carry(const bykey_call *c)
{
    return c->order_free && c->m->size <= 4 && (uint64_t)c->n < ((uint64_t)1 << 30);
}

/* The join of c: as the test hook asks (sk__test_set_bykey_join), else
 * the lifted scan's from the tuning's size, below it the look-back's carry
 * where it can, else one work-group's. */
static tiles_join tiles_join_for(const sk_context *ctx, const bykey_call *c,
                                 const sk__tuning *t)
{
    if (ctx->test_bykey_join == SK__BYKEY_JOIN_GROUP) return TJ_GROUP;
    if (ctx->test_bykey_join == SK__BYKEY_JOIN_SCAN) return TJ_SCAN;
    if (c->n >= t->bykey_scan_join_from) return TJ_SCAN;
    return tiles_can_carry(c) ? TJ_CARRY : TJ_GROUP;
}

/* The look-back's element: the lifted totals in their one-word code, or
 * head counts. */
static void add_lookback_config(sk__str *s, const tiles_job *j)
{
    if (j->join != TJ_CARRY) {
        sk__str_add(s, "#define SK_LB_T uint\n#define SK_LB_IDENTITY 0u\n"
                       "#define sk_lb_op(a, b) ((a) + (b))\n");
        return;
    }
    sk__str_addf(s, "#define SK_BT_CARRY 1\n#define SK_LB_CODEC 1\n#define SK_LB_WIDE 1\n%s",
                 j->c->mode == BK_RLE ? "#define SK_SEG_CODE_COUNTS 1\n" : "");
    sk__str_add_source(s, "segscan_totals_codec");
    sk__str_add(s, "#define SK_LB_T sk_seg_t\n#define SK_LB_IDENTITY SK_SEG_IDENTITY\n"
                   "#define sk_lb_op sk_seg_combine\n");
}

/* The tiles' program's configuration: the segment totals' monoid, the
 * keys' bits and the encoding's switch, the tile, the look-back's element,
 * the GPU blocks and bykey_bits.cl. */
static char *tiles_config(const void *user, bool warps)
{
    const tiles_job *j = user;
    char *pre = sk__segtotals_preamble(j->c->m, j->c->n);
    if (!pre) return NULL;
    sk__str s = {0};
    sk__str_addf(&s, SK_FP64_PRAGMA);
    sk__str_add(&s, pre);
    free(pre);
    sk__str_addf(&s, "#define SK_KB %s\n%s", cl_bits[j->c->key_type],
                 j->c->mode == BK_RLE ? "#define SK_BYKEY_COUNT 1\n" : "");
    sk__str_addf(&s, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                 j->t.wg_size, j->t.items);
    add_lookback_config(&s, j);
    sk__config_blocks(&s, true, warps, &j->t);
    sk__str_add_source(&s, "bykey_bits");
    return sk__str_take(&s);
}

/* The tiles' program; the work-group halved until the kernel can run it
 * (large values on register-poor devices). */
static sk_status tiles_program(sk_context *ctx, tiles_job *j, const sk__program **prog)
{
    bool lowered = true;
    sk_status st = SK_OK;
    while (lowered) {
        j->tiles = div_up(j->c->n, j->t.wg_size * j->t.items);
        SK_TRY(sk__program_get_warps(ctx, "bykey_tile", j->t.wg_size, tiles_config, j,
                                     tile_kernels, 2, prog));
        SK_TRY(sk__fit_wg(ctx, *prog, "run totals by key", &j->t.wg_size, &lowered));
    }
out:
    return st;
}

/* The pass: a work-group per tile, tiles taken in the order work-groups
 * start (the look-back's first word). */
static sk_status tiles_pass(sk_context *ctx, tiles_job *j, const sk__program *prog)
{
    const bykey_call *c = j->c;
    cl_mem state = NULL;
    cl_uint epoch = 0;
    bool carry = j->join == TJ_CARRY; /* its words start from zero */
    sk_status st = carry ? sk__lookback_state_zeroed(ctx, j->tiles, &state, &epoch)
                         : sk__lookback_state(ctx, j->tiles, &state, &epoch);
    if (st != SK_OK) return st;
    sk__args a;
    sk__args_init(&a, ctx, prog, 0);
    sk__arg_mem(&a, c->keys);
    sk__arg_mem(&a, c->mode == BK_RLE ? c->keys : c->vin);
    sk__arg_mem(&a, state);
    sk__arg_uint(&a, "epoch", epoch);
    sk__arg_ulong(&a, "tiles", j->tiles);
    sk__arg_mem(&a, c->kout);
    sk__arg_mem(&a, c->vout);
    sk__arg_mem(&a, j->aggs);
    sk__arg_mem(&a, j->pres);
    sk__arg_mem(&a, j->count);
    sk__arg_ulong(&a, "n", c->n);
    return sk__args_launch(&a, j->tiles * j->t.wg_size, j->t.wg_size);
}

/* The join by one work-group of the tiles' program. */
static sk_status join_by_group(sk_context *ctx, tiles_job *j, const sk__program *prog)
{
    sk__args a;
    sk__args_init(&a, ctx, prog, 1);
    sk__arg_mem(&a, j->aggs);
    sk__arg_mem(&a, j->pres);
    sk__arg_mem(&a, j->c->vout);
    sk__arg_mem(&a, j->count);
    sk__arg_ulong(&a, "tiles", j->tiles);
    return sk__args_launch(&a, j->t.wg_size, j->t.wg_size);
}

/* The scan join's loads (SK_IN_PARAMS) and stores (SK_OUT_PARAMS). */
static void join_in(sk__args *a, const void *user)
{
    sk__arg_mem(a, ((const tiles_job *)user)->aggs);
}

static void join_out(sk__args *a, const void *user)
{
    const tiles_job *j = user;
    sk__arg_mem(a, j->pres);
    sk__arg_mem(a, j->c->vout);
    sk__arg_mem(a, j->count);
    sk__arg_ulong(a, "sk_tiles", j->tiles);
}

/* The join by the lifted scan of the tiles' records, reduce-then-scan or
 * look-back as the scan takes (a float total's association then depends
 * on sizes alone: the monoid's order_free says whether the look-back may
 * combine it). */
static sk_status join_by_scan(sk_context *ctx, tiles_job *j)
{
    sk__str s = {0};
    if (j->c->mode == BK_RLE) sk__str_add(&s, "#define SK_BYKEY_COUNT 1\n");
    sk__str_add_source(&s, "bykey_bits");
    sk__str_add_source(&s, "bykey_tile_join_io");
    char *io = sk__str_take(&s);
    if (!io) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "by key configuration");
    sk__scan_io sio = {io, join_in, join_out, j, true, NULL};
    sk_status st = sk__segreduce_lifted(ctx, j->c->m, &sio, j->tiles, NULL);
    free(io);
    return st;
}

/* GPU shape, n below 2^32 (from the tuning's size): the pass, the join
 * where the look-back does not carry the totals, the number of runs read
 * back into *runs (blocking). */
static sk_status tiles_body(sk_context *ctx, const bykey_call *c, size_t *runs)
{
    size_t elem = sk_type_size(c->key_type) + (c->mode == BK_RLE ? 0 : c->m->size);
    tiles_job j = {c, sk__tuning_for(ctx, SK_FAMILY_BYKEY_TILE, elem), TJ_CARRY, 0,
                   NULL, NULL, NULL};
    const sk__program *prog = NULL;
    cl_ulong count = 0;
    sk_status st = SK_OK;
    j.join = tiles_join_for(ctx, c, &j.t);
    if (j.t.items > 32) j.t.items = 32; /* one head bit per item in a uint */
    SK_TRY(tiles_program(ctx, &j, &prog));
    if (j.join != TJ_CARRY) { /* the carrying pass leaves no record (NULL arguments) */
        SK_TRY(sk__scratch_get(ctx, &bykey_tile_aggs,
                               j.tiles * sk__segtotals_element_size(c->m), &j.aggs));
        SK_TRY(sk__scratch_get(ctx, &bykey_tile_pres, j.tiles * c->m->size, &j.pres));
    }
    SK_TRY(sk__scratch_get(ctx, &bykey_count, sizeof count, &j.count));
    SK_TRY(tiles_pass(ctx, &j, prog));
    if (j.join == TJ_GROUP) SK_TRY(join_by_group(ctx, &j, prog));
    if (j.join == TJ_SCAN) SK_TRY(join_by_scan(ctx, &j));
    SK_TRY(sk__read(ctx, j.count, true, 0, sizeof count, &count));
    *runs = (size_t)count;
out:
    return st;
}

/* Run-length encoding (counts: ones added, never read, stored as uint64)
 * or reduce by key of the validated call c in one pass over the keys (and
 * values): keys into kout and totals into vout at each run's end, the
 * number of runs read back (blocking). GPU shape: one lifted scan, whose
 * run lengths are uint ones below 2^32 elements (a lifted element of 8
 * bytes instead of 16); CPU shape: the segmented scan's chunks. */
static sk_status fused_body(sk_context *ctx, const bykey_call *c, size_t *runs)
{
    if (c->n == 0) {
        *runs = 0;
        return SK_OK;
    }
    if (cpu_shape(ctx, c)) return chunk_totals(ctx, c, runs);
    bool narrow_counts = (uint64_t)c->n < ((uint64_t)1 << 32);
    /* The tiles look back: not where the context asks for reduce-then-scan. */
    sk__tuning t = sk__tuning_for(ctx, SK_FAMILY_BYKEY_TILE, 0);
    size_t from = ctx->test_bykey_tiles_from ? ctx->test_bykey_tiles_from : t.bykey_tiles_from;
    bool tiles = narrow_counts && c->n >= from && t.scan_path != SK_SCAN_PATH_REDUCE_THEN_SCAN;
    if (c->mode != BK_RLE || !narrow_counts)
        return tiles ? tiles_body(ctx, c, runs) : lifted_body(ctx, c, runs);
    sk__monoid_text text;
    sk_monoid counts;
    bool order_free = false;
    sk_status st = sk__monoid_of(ctx, SK_UINT32, SK_OP_ADD, &text, &counts, &order_free);
    if (st != SK_OK) return st;
    bykey_call narrow = *c;
    narrow.m = &counts;
    return tiles ? tiles_body(ctx, &narrow, runs) : lifted_body(ctx, &narrow, runs);
}

/* Validates c and runs it; *runs gets the number of runs (not for scans). */
static sk_status bykey_run(sk_context *ctx, bykey_call *c, size_t *runs)
{
    cl_mem flags = NULL;
    size_t kept = 0;
    sk_status st = SK_OK;
    if (!is_scan(c) && !runs) return sk__fail(ctx, SK_E_INVALID_ARG, "runs is NULL");
    SK_TRY(validate_call(ctx, c));
    switch (c->mode) {
    case BK_RLE:
    case BK_REDUCE: return fused_body(ctx, c, runs);
    case BK_UNIQUE:
        SK_TRY(make_heads(ctx, c, &flags));
        SK_TRY(select_heads(ctx, c, flags, &kept));
        *runs = kept;
        break;
    default:
        if (c->n && cpu_shape(ctx, c)) return chunk_scan(ctx, c);
        SK_TRY(make_heads(ctx, c, &flags));
        sk_segments seg = {flags, 1, NULL, SK_UINT32, 0};
        st = sk__segscan_run(ctx, c->m, c->order_free, c->vin, c->vout, c->n, &seg,
                             c->mode == BK_SCAN_EXCLUSIVE);
    }
out:
    return st;
}

/* ---- host-array forms ------------------------------------------------------------------ */

/* The caller's arrays of one host-form call (vin and vout NULL when unused). */
typedef struct bykey_host {
    const void *keys, *vin;
    void *kout, *vout;
} bykey_host;

static sk_status check_host(sk_context *ctx, const bykey_call *c, const bykey_host *h)
{
    if (c->n == 0) return SK_OK;
    if (!h->keys || (c->value_size && c->mode != BK_RLE && !h->vin))
        return sk__fail(ctx, SK_E_INVALID_ARG, "an input array is NULL");
    if ((!is_scan(c) && !h->kout) || (c->out_size && !h->vout))
        return sk__fail(ctx, SK_E_INVALID_ARG, "an output array is NULL");
    return SK_OK;
}

/* Every size and device copy checked before the first copy is made. */
static sk_status check_host_sizes(sk_context *ctx, const bykey_call *c, const bykey_host *h,
                                  size_t bytes[3])
{
    sk_status st = SK_OK;
    SK_TRY(check_sizes(ctx, c, bytes));
    for (size_t i = 0; i < 3; i++)
        SK_TRY(sk__fits_device(ctx, bytes[i], "a host array's device copy"));
    SK_TRY(check_host(ctx, c, h));
out:
    return st;
}

/* Device copies of the inputs, scratch for the outputs (a scan runs in
 * place on its values' copy); n > 0. */
static sk_status stage_host(sk_context *ctx, bykey_call *c, const bykey_host *h,
                            const size_t bytes[3])
{
    size_t ks = sk_type_size(c->key_type);
    sk_status st = SK_OK;
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, h->keys, c->n, ks, &c->keys));
    if (c->mode != BK_RLE && c->value_size)
        SK_TRY(sk__stage_in(ctx, &sk__scratch_host_values, h->vin, c->n, c->value_size,
                            &c->vin));
    if (is_scan(c)) {
        c->vout = c->vin;
        return SK_OK;
    }
    SK_TRY(sk__scratch_get(ctx, &bykey_keys_out, bytes[0], &c->kout));
    if (c->out_size) SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, bytes[2], &c->vout));
out:
    return st;
}

/* Copies in, runs, copies out: n values for a scan, else *runs keys and
 * values. Outputs are written only on success. */
static sk_status bykey_host_run(sk_context *ctx, bykey_call *c, const bykey_host *h,
                                size_t *runs)
{
    size_t got = c->n, bytes[3] = {0, 0, 0};
    sk_status st = SK_OK;
    if (!is_scan(c) && !runs) return sk__fail(ctx, SK_E_INVALID_ARG, "runs is NULL");
    SK_TRY(check_host_sizes(ctx, c, h, bytes));
    if (c->n == 0) {
        if (runs) *runs = 0;
        return SK_OK;
    }
    SK_TRY(stage_host(ctx, c, h, bytes));
    SK_TRY(bykey_run(ctx, c, is_scan(c) ? NULL : &got));
    if (got && c->out_size) SK_TRY(sk__download(ctx, c->vout, 0, h->vout, got * c->out_size));
    if (got && c->kout)
        SK_TRY(sk__download(ctx, c->kout, 0, h->kout, got * sk_type_size(c->key_type)));
    if (runs) *runs = got;
out:
    return st;
}

/* ---- entry points ------------------------------------------------------------------------ */

/* A call with a built-in (type, op) for its values: `body` sees `c`, a
 * bykey_call whose monoid is set, and returns the call's status. */
#define BYKEY_BUILTIN(ctx, type, op, c, body)                                  \
    do {                                                                       \
        SK_ENTER(ctx);                                                         \
        sk__monoid_text text_;                                                 \
        sk_monoid m_;                                                          \
        bool of_ = false;                                                      \
        sk_status st_ = sk__monoid_of((ctx), (type), (op), &text_, &m_, &of_); \
        if (st_ != SK_OK) return st_;                                          \
        (c).m = &m_;                                                           \
        (c).order_free = of_;                                                  \
        (c).value_size = (c).out_size = m_.size;                               \
        return body;                                                           \
    } while (0)

/* A call over a caller's monoid (validated with the call). */
static size_t monoid_size(const sk_monoid *m) { return m ? m->size : 0; }

sk_status sk_run_length_encode(sk_context *ctx, sk_type type, cl_mem src, cl_mem values_out,
                               cl_mem counts_out, size_t *runs, size_t n)
{
    bykey_call c = {BK_RLE, type, NULL, true, 0, sizeof(cl_ulong), src, NULL, values_out,
                    counts_out, n};
    BYKEY_BUILTIN(ctx, SK_UINT64, SK_OP_ADD, c, bykey_run(ctx, &c, runs));
}

sk_status sk_reduce_by_key(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                           cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                           cl_mem values_out, size_t *runs, size_t n)
{
    bykey_call c = {BK_REDUCE, key_type, NULL, false, 0, 0, keys_in, values_in, keys_out,
                    values_out, n};
    BYKEY_BUILTIN(ctx, type, op, c, bykey_run(ctx, &c, runs));
}

sk_status sk_reduce_by_key_monoid(sk_context *ctx, sk_type key_type, const sk_monoid *m,
                                  cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                  cl_mem values_out, size_t *runs, size_t n)
{
    SK_ENTER(ctx);
    bykey_call c = {BK_REDUCE, key_type, m, false, monoid_size(m), monoid_size(m), keys_in,
                    values_in, keys_out, values_out, n};
    if (!m) return sk__fail(ctx, SK_E_INVALID_ARG, "monoid is NULL");
    return bykey_run(ctx, &c, runs);
}

/* The four scan entry points: builtin or monoid, inclusive or exclusive. */
static sk_status scan_monoid(sk_context *ctx, sk_type key_type, const sk_monoid *m,
                             cl_mem keys, cl_mem values_in, cl_mem values_out, size_t n,
                             bykey_mode mode)
{
    SK_ENTER(ctx);
    bykey_call c = {mode, key_type, m, false, monoid_size(m), monoid_size(m), keys, values_in,
                    NULL, values_out, n};
    if (!m) return sk__fail(ctx, SK_E_INVALID_ARG, "monoid is NULL");
    return bykey_run(ctx, &c, NULL);
}

static sk_status scan_builtin(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                              cl_mem keys, cl_mem values_in, cl_mem values_out, size_t n,
                              bykey_mode mode)
{
    bykey_call c = {mode, key_type, NULL, false, 0, 0, keys, values_in, NULL, values_out, n};
    BYKEY_BUILTIN(ctx, type, op, c, bykey_run(ctx, &c, NULL));
}

sk_status sk_scan_by_key_inclusive(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                                   cl_mem keys, cl_mem values_in, cl_mem values_out, size_t n)
{
    return scan_builtin(ctx, key_type, type, op, keys, values_in, values_out, n, BK_SCAN);
}

sk_status sk_scan_by_key_exclusive(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                                   cl_mem keys, cl_mem values_in, cl_mem values_out, size_t n)
{
    return scan_builtin(ctx, key_type, type, op, keys, values_in, values_out, n,
                        BK_SCAN_EXCLUSIVE);
}

sk_status sk_scan_by_key_inclusive_monoid(sk_context *ctx, sk_type key_type,
                                          const sk_monoid *m, cl_mem keys, cl_mem values_in,
                                          cl_mem values_out, size_t n)
{
    return scan_monoid(ctx, key_type, m, keys, values_in, values_out, n, BK_SCAN);
}

sk_status sk_scan_by_key_exclusive_monoid(sk_context *ctx, sk_type key_type,
                                          const sk_monoid *m, cl_mem keys, cl_mem values_in,
                                          cl_mem values_out, size_t n)
{
    return scan_monoid(ctx, key_type, m, keys, values_in, values_out, n, BK_SCAN_EXCLUSIVE);
}

/* unique's values: both or neither, of 4 or 8 bytes. */
static sk_status unique_values(sk_context *ctx, bool vin, bool vout, size_t value_size,
                               size_t *size)
{
    if (vin != vout)
        return sk__fail(ctx, SK_E_INVALID_ARG, "values_in and values_out: give both or neither");
    if (vin && value_size != 4 && value_size != 8)
        return sk__fail(ctx, SK_E_INVALID_ARG, "value_size is %zu, not 4 or 8", value_size);
    *size = vin ? value_size : 0;
    return SK_OK;
}

sk_status sk_unique_by_key(sk_context *ctx, sk_type key_type, size_t value_size,
                           cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                           cl_mem values_out, size_t *runs, size_t n)
{
    SK_ENTER(ctx);
    bykey_call c = {BK_UNIQUE, key_type, NULL, false, 0, 0, keys_in, values_in, keys_out,
                    values_out, n};
    sk_status st = unique_values(ctx, values_in, values_out, value_size, &c.value_size);
    c.out_size = c.value_size;
    return st == SK_OK ? bykey_run(ctx, &c, runs) : st;
}

/* ---- host-array entry points --------------------------------------------------------------- */

sk_status sk_run_length_encode_host(sk_context *ctx, sk_type type, const void *src,
                                    void *values_out, uint64_t *counts_out, size_t *runs,
                                    size_t n)
{
    bykey_call c = {BK_RLE, type, NULL, true, 0, sizeof(cl_ulong), NULL, NULL, NULL, NULL, n};
    bykey_host h = {src, NULL, values_out, counts_out};
    BYKEY_BUILTIN(ctx, SK_UINT64, SK_OP_ADD, c, bykey_host_run(ctx, &c, &h, runs));
}

sk_status sk_reduce_by_key_host(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                                const void *keys_in, const void *values_in, void *keys_out,
                                void *values_out, size_t *runs, size_t n)
{
    bykey_call c = {BK_REDUCE, key_type, NULL, false, 0, 0, NULL, NULL, NULL, NULL, n};
    bykey_host h = {keys_in, values_in, keys_out, values_out};
    BYKEY_BUILTIN(ctx, type, op, c, bykey_host_run(ctx, &c, &h, runs));
}

/* The host forms over a caller's monoid: reduce (runs given) or a scan. */
static sk_status host_monoid(sk_context *ctx, bykey_mode mode, sk_type key_type,
                             const sk_monoid *m, const bykey_host *h, size_t *runs, size_t n)
{
    SK_ENTER(ctx);
    bykey_call c = {mode, key_type, m, false, monoid_size(m), monoid_size(m), NULL, NULL,
                    NULL, NULL, n};
    if (!m) return sk__fail(ctx, SK_E_INVALID_ARG, "monoid is NULL");
    return bykey_host_run(ctx, &c, h, runs);
}

sk_status sk_reduce_by_key_monoid_host(sk_context *ctx, sk_type key_type, const sk_monoid *m,
                                       const void *keys_in, const void *values_in,
                                       void *keys_out, void *values_out, size_t *runs,
                                       size_t n)
{
    bykey_host h = {keys_in, values_in, keys_out, values_out};
    return host_monoid(ctx, BK_REDUCE, key_type, m, &h, runs, n);
}

static sk_status scan_builtin_host(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                                   const bykey_host *h, size_t n, bykey_mode mode)
{
    bykey_call c = {mode, key_type, NULL, false, 0, 0, NULL, NULL, NULL, NULL, n};
    BYKEY_BUILTIN(ctx, type, op, c, bykey_host_run(ctx, &c, h, NULL));
}

sk_status sk_scan_by_key_inclusive_host(sk_context *ctx, sk_type key_type, sk_type type,
                                        sk_op op, const void *keys, const void *values_in,
                                        void *values_out, size_t n)
{
    bykey_host h = {keys, values_in, NULL, values_out};
    return scan_builtin_host(ctx, key_type, type, op, &h, n, BK_SCAN);
}

sk_status sk_scan_by_key_exclusive_host(sk_context *ctx, sk_type key_type, sk_type type,
                                        sk_op op, const void *keys, const void *values_in,
                                        void *values_out, size_t n)
{
    bykey_host h = {keys, values_in, NULL, values_out};
    return scan_builtin_host(ctx, key_type, type, op, &h, n, BK_SCAN_EXCLUSIVE);
}

sk_status sk_scan_by_key_inclusive_monoid_host(sk_context *ctx, sk_type key_type,
                                               const sk_monoid *m, const void *keys,
                                               const void *values_in, void *values_out,
                                               size_t n)
{
    bykey_host h = {keys, values_in, NULL, values_out};
    return host_monoid(ctx, BK_SCAN, key_type, m, &h, NULL, n);
}

sk_status sk_scan_by_key_exclusive_monoid_host(sk_context *ctx, sk_type key_type,
                                               const sk_monoid *m, const void *keys,
                                               const void *values_in, void *values_out,
                                               size_t n)
{
    bykey_host h = {keys, values_in, NULL, values_out};
    return host_monoid(ctx, BK_SCAN_EXCLUSIVE, key_type, m, &h, NULL, n);
}

sk_status sk_unique_by_key_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                const void *keys_in, const void *values_in, void *keys_out,
                                void *values_out, size_t *runs, size_t n)
{
    SK_ENTER(ctx);
    bykey_call c = {BK_UNIQUE, key_type, NULL, false, 0, 0, NULL, NULL, NULL, NULL, n};
    bykey_host h = {keys_in, values_in, keys_out, values_out};
    sk_status st = unique_values(ctx, values_in, values_out, value_size, &c.value_size);
    c.out_size = c.value_size;
    return st == SK_OK ? bykey_host_run(ctx, &c, &h, runs) : st;
}
