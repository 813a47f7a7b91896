/*
 * topk.c - the k first keys in the radix sort's order (sk_topk_keys,
 * sk_topk_pairs, sk_topk_indices) and the key of one rank
 * (sk_select_nth), with their host-array forms, by radix selection rather
 * than a sort.
 *
 * Selection (kernels/topk.cl): per 8-bit digit from the top, the digits of
 * the source's keys still matching the order bits found so far are
 * counted (the histogram's privatised counters, histogram.c:
 * sk__histogram_digits, which also counts the keys below those bits) and
 * one work-item picks the digit holding the wanted rank; after the last
 * digit the k-th key (the pivot) is known, all on the device.
 *
 * Narrowing: the source is first the input. After a digit, where the
 * source is large (the tuning table's), the count of its keys at most the
 * bits found so far is read back; where that is at most an eighth of the
 * source (TOPK_NARROW_SHRINK), those keys (the candidates: every key of
 * the k smallest is one) are written with their input indices, in input
 * order, into scratch, and they become the source of the later digits.
 * The histogram's rows (one per part) give every part's offsets, so
 * narrowing reads the source once. Uniform keys thus read the input twice
 * (the first digit, one narrowing) and about n / 256 candidates after;
 * keys that no digit splits (all equal, a few unique) never narrow and
 * take the passes of a plain radix selection.
 *
 * Collection: from the last digit's rows, every part of the source writes
 * its keys before the pivot and the first equal ones (lowest input index)
 * up to k, in input order. The sorted forms then sort the k selected by
 * the radix sort (sort.c), which is stable, so equal keys stay in input
 * order. Keys are ordered as the sort orders them (sort.h,
 * kernels/sort_keys.cl).
 *
 * Small sources (the tuning table's topk_sort_below; GPU shape) with
 * sorted output, and ranks, are sorted whole instead (topk_by_sort): the
 * same keys in the same order, in fewer launches.
 */
#include "sort.h"

#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(topk_sel, "topk: selection state");
SK_SCRATCH_ID(topk_counts, "topk: digit counts");
SK_SCRATCH_ID(topk_parts, "topk: part counts");
SK_SCRATCH_ID(topk_cand_keys_a, "topk: candidate keys");
SK_SCRATCH_ID(topk_cand_idx_a, "topk: candidates' input indices");
SK_SCRATCH_ID(topk_cand_keys_b, "topk: candidate keys, second set");
SK_SCRATCH_ID(topk_cand_idx_b, "topk: candidates' input indices, second set");
SK_SCRATCH_ID(topk_all_keys, "topk by a sort: every key");
SK_SCRATCH_ID(topk_all_idx, "topk by a sort: every key's input index");
SK_STAGING_ID(topk_values_out, "topk, host form: selected values");

/* Digit width of the selection: 256 bins, four passes for 32-bit keys. */
#define TOPK_DIGIT_BITS 8u


/* A narrowing keeps at most 1 / TOPK_NARROW_SHRINK of its source, in
 * scratch of that size whatever the keys (scratch that grew with the data
 * would be reallocated from call to call); where more keys are left, the
 * next digit tries again. */
#define TOPK_NARROW_SHRINK 8u

/* ---- requests ------------------------------------------------------------ */

typedef enum topk_vals { VALS_NONE, VALS_GIVEN, VALS_INDICES } topk_vals;

typedef struct topk_req {
    sk_type key_type;
    topk_vals vals;
    size_t value_size;            /* bytes per output value (indices: 8) */
    size_t n, k;                  /* nth: k is the rank, one key comes out */
    sk_sort_order order;
    sk_topk_output output;
    bool nth;
} topk_req;

typedef struct topk_io {
    cl_mem keys, values, out_keys, out_values;
} topk_io;

static size_t out_count(const topk_req *r) { return r->nth ? 1 : r->k; }

static sk_status validate_req(sk_context *ctx, const topk_req *r)
{
    size_t bytes = 0, ks = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__sort_check_keys(ctx, r->key_type, r->order, r->value_size,
                               r->vals == VALS_GIVEN));
    if (r->output != SK_TOPK_INPUT_ORDER && r->output != SK_TOPK_SORTED)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid output order %d", (int)r->output);
    if (r->nth && r->k >= r->n)
        return sk__fail(ctx, SK_E_INVALID_ARG, "rank k %zu is not below n %zu", r->k, r->n);
    if (r->k > r->n)
        return sk__fail(ctx, SK_E_INVALID_ARG, "k %zu exceeds n %zu", r->k, r->n);
    ks = sk_type_size(r->key_type);
    SK_TRY(sk__byte_size(ctx, r->n, ks, &bytes));
    if (r->vals == VALS_GIVEN) SK_TRY(sk__byte_size(ctx, r->n, r->value_size, &bytes));
    if (r->vals != VALS_NONE) SK_TRY(sk__byte_size(ctx, r->k, r->value_size, &bytes));
out:
    return st;
}

/* SK_E_INVALID_ARG where an output overlaps an input or the other output. */
static sk_status check_apart(sk_context *ctx, const topk_req *r, const topk_io *io)
{
    size_t ks = sk_type_size(r->key_type), kb = out_count(r) * ks;
    size_t vb = r->k * r->value_size, nb = r->n * ks, nvb = r->n * r->value_size;
    if (sk__buffers_overlap(io->out_keys, kb, io->keys, nb))
        return sk__fail(ctx, SK_E_INVALID_ARG, "out_keys overlaps keys");
    if (r->vals == VALS_NONE) return SK_OK;
    if (sk__buffers_overlap(io->out_values, vb, io->keys, nb) ||
        sk__buffers_overlap(io->out_values, vb, io->out_keys, kb))
        return sk__fail(ctx, SK_E_INVALID_ARG, "out_values overlaps keys or out_keys");
    if (r->vals == VALS_GIVEN && (sk__buffers_overlap(io->out_keys, kb, io->values, nvb) ||
                                  sk__buffers_overlap(io->out_values, vb, io->values, nvb)))
        return sk__fail(ctx, SK_E_INVALID_ARG, "an output overlaps values");
    return SK_OK;
}

/* Every buffer given and large enough; no output overlapping another
 * buffer. */
static sk_status validate_io(sk_context *ctx, const topk_req *r, const topk_io *io)
{
    size_t ks = sk_type_size(r->key_type);
    sk_status st = SK_OK;
    SK_TRY(sk__check_buffer(ctx, io->keys, r->n * ks, "keys"));
    SK_TRY(sk__check_buffer(ctx, io->out_keys, out_count(r) * ks, "out_keys"));
    if (r->vals == VALS_GIVEN)
        SK_TRY(sk__check_buffer(ctx, io->values, r->n * r->value_size, "values"));
    if (r->vals != VALS_NONE)
        SK_TRY(sk__check_buffer(ctx, io->out_values, r->k * r->value_size, "out_values"));
    st = check_apart(ctx, r, io);
out:
    return st;
}

/* ---- planning ------------------------------------------------------------- */

/* GPU: a work-group per part of the histogram's, walking it in tiles of
 * wg x items keys; CPU: a work-item per part. */
typedef struct topk_plan {
    sk__tuning t;
    bool gpu;
    uint64_t flip;
    size_t narrow_min;            /* narrowing from sources this large */
    const sk__program *prog;
} topk_plan;

static topk_plan plan_for(const sk_context *ctx, const topk_req *r)
{
    topk_plan p = {0};
    size_t ks = sk_type_size(r->key_type);
    p.t = sk__tuning_for(ctx, SK_FAMILY_TOPK, ks);
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    if (p.gpu && p.t.items == 0) p.t.items = 16;
    p.flip = sort_flip(r->order, ks);
    /* Narrowing is tried on sources of at least the tuning table's count
     * of GPU tiles, or twice the CPU shape's one-work-item size (32768 keys
     * each by default): below, its read back (a wait for the queue) costs
     * more than the passes it saves. */
    p.narrow_min = p.gpu ? p.t.topk_narrow_tiles * p.t.wg_size * p.t.items
                         : 2 * p.t.cpu_serial_below;
    return p;
}

/* ---- programs ------------------------------------------------------------- */

enum { K_INIT, K_PICK, K_KEY, K_PARTS, K_SPINE, K_NARROW, K_SCATTER, K_NUMBER, K_GATHER,
       K_COUNT_ };

static const char *const kernels[] = {"sk_topk_init",    "sk_topk_pick",   "sk_topk_key",
                                      "sk_topk_parts",   "sk_topk_spine",  "sk_topk_narrow",
                                      "sk_topk_scatter", "sk_topk_number", "sk_topk_gather"};

static char *topk_config(const topk_plan *p, const topk_req *r)
{
    sk__str s = {0};
    sk__config_key(&s, r->key_type);
    sk__str_addf(&s, "#define SK_VALS %d\n#define SK_VAL_T %s\n", (int)r->vals,
                 r->value_size == 4 ? "uint" : "ulong");
    sk__config_tiles_keys(&s, &p->t, p->gpu);
    return sk__str_take(&s);
}

/* Builds (or finds) the program; on the GPU shape, where its kernels
 * cannot run the planned work-group, builds it again at the size they can. */
static sk_status open_program(sk_context *ctx, topk_plan *p, const topk_req *r)
{
    bool lowered = false;
    sk_status st = sk__program_take(ctx, "topk", topk_config(p, r), kernels, K_COUNT_, &p->prog);
    if (st == SK_OK && p->gpu) st = sk__fit_wg(ctx, p->prog, "topk", &p->t.wg_size, &lowered);
    if (st != SK_OK || !lowered) return st;
    return sk__program_take(ctx, "topk", topk_config(p, r), kernels, K_COUNT_, &p->prog);
}

/* ---- sources ---------------------------------------------------------------- */

/* The keys a pass reads: the input (idx NULL) or candidates a narrowing
 * wrote (keys with their input indices, in input order) into scratch
 * buffers of one of two slots. */
typedef struct topk_src {
    cl_mem keys, idx;
    size_t n;
    unsigned slot;
} topk_src;

static const sk__scratch_id *const cand_keys[2] = {&topk_cand_keys_a, &topk_cand_keys_b};
static const sk__scratch_id *const cand_idx[2] = {&topk_cand_idx_a, &topk_cand_idx_b};

/* ---- selection -------------------------------------------------------------- */

/* One launch of a single-work-item kernel: init, pick or key. */
static sk_status launch_one(sk__args *a) { return sk__args_launch_each(a, 1); }

/* Counts the digit at `shift` of the source's keys matching sel (the
 * histogram's kernels, histogram.c) and narrows sel by the digit holding
 * the wanted rank. */
static sk_status pick_digit(sk_context *ctx, const topk_plan *p, const topk_req *r,
                            const topk_src *src, cl_mem sel, unsigned shift,
                            sk__digit_rows *rows)
{
    unsigned digits = 1u << TOPK_DIGIT_BITS;
    cl_mem counts = NULL;
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &topk_counts, (digits + 1) * sizeof(cl_ulong), &counts));
    sk__digit_bins d = {sel, p->flip, shift, digits + 1};
    SK_TRY(sk__histogram_digits(ctx, r->key_type, src->keys, src->n, &d, counts, rows));
    sk__args_init(&a, ctx, p->prog, K_PICK);
    sk__arg_mem(&a, counts);
    sk__arg_mem(&a, sel);
    sk__arg_uint(&a, "shift", shift);
    sk__arg_uint(&a, "digits", digits);
    st = launch_one(&a);
out:
    return st;
}

/* ---- writing parts ----------------------------------------------------------- */

/* parts: every part's counts of keys below and equal to sel's prefix, from
 * the rows, then their exclusive scans. */
static sk_status part_offsets(sk_context *ctx, const topk_plan *p, const sk__digit_rows *rows,
                              cl_mem sel, cl_mem *parts)
{
    size_t local = p->gpu ? p->t.wg_size : 1;
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &topk_parts, 2 * rows->parts * sizeof(cl_ulong), parts));
    sk__args_init(&a, ctx, p->prog, K_PARTS);
    sk__arg_mem(&a, rows->rows);
    sk__arg_mem(&a, sel);
    sk__arg_mem(&a, *parts);
    sk__arg_ulong(&a, "np", rows->parts);
    sk__arg_ulong(&a, "bins", (1u << TOPK_DIGIT_BITS) + 1);
    SK_TRY(sk__args_launch(&a, rows->parts * local, local));
    sk__args_init(&a, ctx, p->prog, K_SPINE);
    sk__arg_mem(&a, *parts);
    sk__arg_ulong(&a, "np", rows->parts);
    st = sk__args_launch(&a, local, local);
out:
    return st;
}

static void args_source(sk__args *a, const topk_src *src)
{
    sk__arg_mem(a, src->keys);
    sk__arg_mem(a, src->idx ? src->idx : src->keys); /* not read unless indexed */
    sk__arg_uint(a, "indexed", src->idx != NULL);
}

static sk_status launch_parts(sk__args *a, const topk_plan *p, const topk_req *r,
                              const topk_src *src, const sk__digit_rows *rows)
{
    size_t local = p->gpu ? p->t.wg_size : 1;
    sk__arg_ulong(a, "n", src->n);
    sk__arg_ulong(a, "np", rows->parts);
    sk__arg_ulong(a, "chunk", rows->chunk);
    sk__arg_word(a, "flip", sk_type_size(r->key_type), p->flip);
    return sk__args_launch(a, rows->parts * local, local);
}

/* While measuring scratch (nothing is read back): what narrowings of the
 * input take, in the order they take it (the first slot's room, the part
 * counts, the second slot's room). */
static sk_status measure_narrowing(sk_context *ctx, const topk_req *r,
                                   const sk__digit_rows *rows)
{
    size_t ks = sk_type_size(r->key_type), m = r->n / TOPK_NARROW_SHRINK;
    cl_mem mem = NULL;
    sk_status st = SK_OK;
    for (unsigned slot = 0; slot < 2; slot++, m /= TOPK_NARROW_SHRINK) {
        SK_TRY(sk__scratch_get(ctx, cand_keys[slot], m * ks, &mem));
        SK_TRY(sk__scratch_get(ctx, cand_idx[slot], m * sizeof(cl_ulong), &mem));
        if (slot == 0)
            SK_TRY(sk__scratch_get(ctx, &topk_parts, 2 * rows->parts * sizeof(cl_ulong), &mem));
    }
out:
    return st;
}

/* Where the next digits pay for it, replaces the source by its keys at
 * most sel's prefix (read back: how many), when that shrinks it at least
 * TOPK_NARROW_SHRINK times. */
static sk_status narrow(sk_context *ctx, const topk_plan *p, const topk_req *r, topk_src *src,
                        cl_mem sel, const sk__digit_rows *rows)
{
    cl_ulong counted[2] = {0, 0};
    cl_mem parts = NULL, keys = NULL, idx = NULL;
    unsigned slot = src->idx ? 1 - src->slot : 0;
    sk__args a;
    sk_status st = SK_OK;
    if (src->n < p->narrow_min || src->n < 2) return SK_OK;
    if (sk__measuring(ctx)) return measure_narrowing(ctx, r, rows);
    SK_TRY(sk__read(ctx, sel, true, 3 * sizeof(cl_ulong), sizeof counted, counted));
    size_t m = (size_t)(counted[0] + counted[1]), room = src->n / TOPK_NARROW_SHRINK;
    if (m > room) return SK_OK;
    SK_TRY(sk__scratch_get(ctx, cand_keys[slot], room * sk_type_size(r->key_type), &keys));
    SK_TRY(sk__scratch_get(ctx, cand_idx[slot], room * sizeof(cl_ulong), &idx));
    SK_TRY(part_offsets(ctx, p, rows, sel, &parts));
    sk__args_init(&a, ctx, p->prog, K_NARROW);
    args_source(&a, src);
    sk__arg_mem(&a, sel);
    sk__arg_mem(&a, parts);
    sk__arg_mem(&a, keys);
    sk__arg_mem(&a, idx);
    SK_TRY(launch_parts(&a, p, r, src, rows));
    *src = (topk_src){keys, idx, m, slot};
out:
    return st;
}

/* Narrows sel, digit by digit from the top, to the key of rank `rank`,
 * narrowing the source where that pays; rows: the last digit's. */
static sk_status select_rank(sk_context *ctx, const topk_plan *p, const topk_req *r,
                             topk_src *src, cl_mem sel, size_t rank, sk__digit_rows *rows)
{
    unsigned bits = key_types[r->key_type].bits;
    sk__args a;
    sk_status st = SK_OK;
    sk__args_init(&a, ctx, p->prog, K_INIT);
    sk__arg_mem(&a, sel);
    sk__arg_ulong(&a, "rank", rank);
    SK_TRY(launch_one(&a));
    for (unsigned shift = bits; shift > 0;) {
        shift -= TOPK_DIGIT_BITS;
        SK_TRY(pick_digit(ctx, p, r, src, sel, shift, rows));
        if (shift > 0) SK_TRY(narrow(ctx, p, r, src, sel, rows));
    }
out:
    return st;
}

/* ---- collection ------------------------------------------------------------- */

/* Writes the source's keys before the pivot and the first equal ones up to
 * k, in input order, to the outputs. */
static sk_status collect(sk_context *ctx, const topk_plan *p, const topk_req *r,
                         const topk_io *io, const topk_src *src, cl_mem sel,
                         const sk__digit_rows *rows)
{
    cl_mem parts = NULL;
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(part_offsets(ctx, p, rows, sel, &parts));
    sk__args_init(&a, ctx, p->prog, K_SCATTER);
    args_source(&a, src);
    if (r->vals == VALS_GIVEN) sk__arg_mem(&a, io->values);
    sk__arg_mem(&a, sel);
    sk__arg_mem(&a, parts);
    sk__arg_mem(&a, io->out_keys);
    if (r->vals != VALS_NONE) sk__arg_mem(&a, io->out_values);
    st = launch_parts(&a, p, r, src, rows);
out:
    return st;
}

/* ---- the selection ------------------------------------------------------------ */

/* Sorts the k selected (in input order) by the radix sort: stable. */
static sk_status sort_selected(sk_context *ctx, const topk_req *r, const topk_io *io)
{
    sort_req s = {r->key_type, r->vals == VALS_NONE ? 0 : r->value_size, r->k, r->order, 0,
                  key_types[r->key_type].bits};
    return sk__sort_run(ctx, &s, io->out_keys, r->vals == VALS_NONE ? NULL : io->out_values);
}

/* ---- small sources: a whole sort ------------------------------------------------ */

/* Sorted output or a rank from fewer keys than the tuning table's (and
 * below 2^32, the indices' width): the sort of every key, with its input
 * index where values come out, then the first k (or the k-th): one launch
 * plus one per digit for the sort where the selection takes about twenty.
 * The sort is stable, so equal keys come out in input order, as the
 * selection's do. */
static bool by_sort(const topk_plan *p, const topk_req *r)
{
    return (r->nth || r->output == SK_TOPK_SORTED) && r->n < p->t.topk_sort_below &&
           (uint64_t)r->n < ((uint64_t)1 << 32);
}

static sk_status topk_by_sort(sk_context *ctx, const topk_plan *p, const topk_req *r,
                              const topk_io *io)
{
    size_t ks = sk_type_size(r->key_type);
    bool vals = r->vals != VALS_NONE && !r->nth;
    cl_mem keys = NULL, idx = NULL;
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &topk_all_keys, r->n * ks, &keys));
    if (vals) SK_TRY(sk__scratch_get(ctx, &topk_all_idx, r->n * sizeof(cl_uint), &idx));
    sk__args_init(&a, ctx, p->prog, K_NUMBER);
    sk__arg_mem(&a, io->keys);
    sk__arg_mem(&a, keys);
    sk__arg_mem(&a, idx);
    sk__arg_ulong(&a, "n", r->n);
    SK_TRY(sk__args_launch_each(&a, r->n));
    sort_req s = {r->key_type, vals ? sizeof(cl_uint) : 0, r->n, r->order, 0,
                  key_types[r->key_type].bits};
    SK_TRY(sk__sort_run(ctx, &s, keys, idx));
    if (r->nth) return sk__copy(ctx, keys, r->k * ks, io->out_keys, 0, ks);
    SK_TRY(sk__copy(ctx, keys, 0, io->out_keys, 0, r->k * ks));
    if (!vals) return SK_OK;
    sk__args_init(&a, ctx, p->prog, K_GATHER);
    sk__arg_mem(&a, idx);
    if (r->vals == VALS_GIVEN) sk__arg_mem(&a, io->values);
    sk__arg_mem(&a, io->out_values);
    sk__arg_ulong(&a, "k", r->k);
    st = sk__args_launch_each(&a, r->k);
out:
    return st;
}

/* Selects from validated buffers (k > 0, or nth). */
static sk_status topk_run(sk_context *ctx, const topk_req *r, const topk_io *io)
{
    topk_plan p = plan_for(ctx, r);
    topk_src src = {io->keys, NULL, r->n, 0};
    sk__digit_rows rows = {0};
    cl_mem sel = NULL;
    sk__args a;
    sk_status st = SK_OK;
    SK_TRY(open_program(ctx, &p, r));
    if (by_sort(&p, r)) return topk_by_sort(ctx, &p, r, io);
    SK_TRY(sk__scratch_get(ctx, &topk_sel, 6 * sizeof(cl_ulong), &sel));
    SK_TRY(select_rank(ctx, &p, r, &src, sel, r->nth ? r->k : r->k - 1, &rows));
    if (r->nth) {
        sk__args_init(&a, ctx, p.prog, K_KEY);
        sk__arg_mem(&a, sel);
        sk__arg_mem(&a, io->out_keys);
        sk__arg_word(&a, "flip", sk_type_size(r->key_type), p.flip);
        return launch_one(&a);
    }
    SK_TRY(collect(ctx, &p, r, io, &src, sel, &rows));
    if (r->output == SK_TOPK_SORTED) st = sort_selected(ctx, r, io);
out:
    return st;
}

static sk_status topk_mem(sk_context *ctx, const topk_req *r, const topk_io *io)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r);
    if (st == SK_OK) st = validate_io(ctx, r, io);
    if (st == SK_OK && (r->k || r->nth)) st = topk_run(ctx, r, io);
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

typedef struct topk_host_io {
    const void *keys, *values;
    void *out_keys, *out_values;
} topk_host_io;

static sk_status check_host(sk_context *ctx, const topk_req *r, const topk_host_io *h)
{
    size_t ks = sk_type_size(r->key_type), nk = out_count(r);
    sk_status st = SK_OK;
    if (r->n && !h->keys) return sk__fail(ctx, SK_E_INVALID_ARG, "keys is NULL");
    if (r->vals == VALS_GIVEN && r->n && !h->values)
        return sk__fail(ctx, SK_E_INVALID_ARG, "values is NULL");
    if (nk && !h->out_keys) return sk__fail(ctx, SK_E_INVALID_ARG, "out_keys is NULL");
    if (r->vals != VALS_NONE && r->k && !h->out_values)
        return sk__fail(ctx, SK_E_INVALID_ARG, "out_values is NULL");
    SK_TRY(sk__fits_device(ctx, r->n * ks, "the keys' device copy"));
    if (r->vals == VALS_GIVEN)
        SK_TRY(sk__fits_device(ctx, r->n * r->value_size, "the values' device copy"));
    SK_TRY(sk__fits_device(ctx, nk * ks, "the selected keys' device copy"));
    SK_TRY(sk__fits_device(ctx, r->k * r->value_size, "the selected values' device copy"));
out:
    return st;
}

static sk_status topk_host(sk_context *ctx, const topk_req *r, const topk_host_io *h)
{
    SK_ENTER(ctx);
    size_t ks = 0;
    topk_io io = {0};
    sk_status st = SK_OK;
    SK_TRY(validate_req(ctx, r));
    SK_TRY(check_host(ctx, r, h));
    if (r->k == 0 && !r->nth) return SK_OK;
    ks = sk_type_size(r->key_type);
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, h->keys, r->n, ks, &io.keys));
    if (r->vals == VALS_GIVEN)
        SK_TRY(sk__stage_in(ctx, &sk__scratch_host_values, h->values, r->n, r->value_size,
                            &io.values));
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, out_count(r) * ks, &io.out_keys));
    if (r->vals != VALS_NONE)
        SK_TRY(sk__scratch_get(ctx, &topk_values_out, r->k * r->value_size, &io.out_values));
    SK_TRY(topk_run(ctx, r, &io));
    if (r->vals != VALS_NONE)
        SK_TRY(sk__download(ctx, io.out_values, 0, h->out_values, r->k * r->value_size));
    SK_TRY(sk__download(ctx, io.out_keys, 0, h->out_keys, out_count(r) * ks));
out:
    if (st != SK_OK) clFinish(ctx->queue); /* no transfer may outlive the call */
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

static topk_req req(sk_type key_type, topk_vals vals, size_t value_size, size_t n, size_t k,
                    sk_sort_order order, sk_topk_output output)
{
    return (topk_req){key_type, vals, value_size, n, k, order, output, false};
}

sk_status sk_topk_keys(sk_context *ctx, sk_type key_type, cl_mem keys, cl_mem out_keys,
                       size_t n, size_t k, sk_sort_order order, sk_topk_output output)
{
    topk_req r = req(key_type, VALS_NONE, 0, n, k, order, output);
    topk_io io = {keys, NULL, out_keys, NULL};
    return topk_mem(ctx, &r, &io);
}

sk_status sk_topk_pairs(sk_context *ctx, sk_type key_type, size_t value_size, cl_mem keys,
                        cl_mem values, cl_mem out_keys, cl_mem out_values, size_t n, size_t k,
                        sk_sort_order order, sk_topk_output output)
{
    topk_req r = req(key_type, VALS_GIVEN, value_size, n, k, order, output);
    topk_io io = {keys, values, out_keys, out_values};
    return topk_mem(ctx, &r, &io);
}

sk_status sk_topk_indices(sk_context *ctx, sk_type key_type, cl_mem keys, cl_mem out_keys,
                          cl_mem out_indices, size_t n, size_t k, sk_sort_order order,
                          sk_topk_output output)
{
    topk_req r = req(key_type, VALS_INDICES, sizeof(cl_ulong), n, k, order, output);
    topk_io io = {keys, NULL, out_keys, out_indices};
    return topk_mem(ctx, &r, &io);
}

sk_status sk_select_nth(sk_context *ctx, sk_type key_type, cl_mem keys, cl_mem out_key,
                        size_t n, size_t k, sk_sort_order order)
{
    topk_req r = req(key_type, VALS_NONE, 0, n, k, order, SK_TOPK_INPUT_ORDER);
    topk_io io = {keys, NULL, out_key, NULL};
    r.nth = true;
    return topk_mem(ctx, &r, &io);
}

sk_status sk_topk_keys_host(sk_context *ctx, sk_type key_type, const void *keys,
                            void *out_keys, size_t n, size_t k, sk_sort_order order,
                            sk_topk_output output)
{
    topk_req r = req(key_type, VALS_NONE, 0, n, k, order, output);
    topk_host_io h = {keys, NULL, out_keys, NULL};
    return topk_host(ctx, &r, &h);
}

sk_status sk_topk_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                             const void *keys, const void *values, void *out_keys,
                             void *out_values, size_t n, size_t k, sk_sort_order order,
                             sk_topk_output output)
{
    topk_req r = req(key_type, VALS_GIVEN, value_size, n, k, order, output);
    topk_host_io h = {keys, values, out_keys, out_values};
    return topk_host(ctx, &r, &h);
}

sk_status sk_topk_indices_host(sk_context *ctx, sk_type key_type, const void *keys,
                               void *out_keys, uint64_t *out_indices, size_t n, size_t k,
                               sk_sort_order order, sk_topk_output output)
{
    topk_req r = req(key_type, VALS_INDICES, sizeof(cl_ulong), n, k, order, output);
    topk_host_io h = {keys, NULL, out_keys, out_indices};
    return topk_host(ctx, &r, &h);
}

sk_status sk_select_nth_host(sk_context *ctx, sk_type key_type, const void *keys,
                             void *out_key, size_t n, size_t k, sk_sort_order order)
{
    topk_req r = req(key_type, VALS_NONE, 0, n, k, order, SK_TOPK_INPUT_ORDER);
    topk_host_io h = {keys, NULL, out_key, NULL};
    r.nth = true;
    return topk_host(ctx, &r, &h);
}
