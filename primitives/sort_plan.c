/*
 * sort_plan.c - the radix sort's entry points and host-array forms, the
 * validation of a request, and its plan: the shape, the digit width, the
 * parts and the path (sort.c builds the program and runs the passes).
 */
#include "sort.h"

/* Digit widths, the line scatter's threshold, the pair tiles and how the
 * look-back is polled come from the tuning table (tuning.c). */
/* The line scatter also counts the next pass's digits per source and
 * destination chunk (parts x parts x radix counts), which saves that
 * pass's read of the keys (2^24 keys: 86.5 ms against 96.9 with the
 * histogram pass); above this many counts (more than 32 chunks at 11
 * bits) the histogram pass stays. */
#define CPU_FUSED_MAX_COUNTS ((size_t)1 << 21)
/* The split packs counts in 16 bits: tiles stay below 2^16 keys. */
#define GPU_MAX_TILE_KEYS 65535
/* GPU shape, one sweep per digit: the look-back words hold counts in 30
 * bits, so that path takes n < 2^30 (larger sorts take the three-step
 * passes). The passes that stride over all keys (the AND/OR pass, the
 * count of every digit) take p->t.stride_groups work-groups. */
#define GPU_ONESWEEP_MAX_KEYS (((size_t)1 << 30) - 1)
/* The digit width of 8- and 16-bit keys: one pass, or two, of 256-entry
 * histograms (a wider tuned digit would take as many passes with larger
 * histograms). */
#define NARROW_KEY_RADIX_BITS 8u
/* Whether the one-sweep kernel ranks by warp vote instructions (inline
 * PTX): NVIDIA GPUs of compute capability 7.0 and up, work-groups of whole
 * warps (32 work-items). Elsewhere, and where that program does not build,
 * the portable ranking by local splits. */
static bool ranks_by_warp_match(const sk_context *ctx, size_t wg_size)
{
    return ctx->nv_warps && wg_size % 32 == 0;
}

/* ---- requests ------------------------------------------------------------ */

sk_status sk__sort_check_keys(sk_context *ctx, sk_type key_type, sk_sort_order order,
                              size_t value_size, bool pairs)
{
    if ((unsigned)key_type >= SK_KEY_TYPE_COUNT)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid key type %d", (int)key_type);
    if (order != SK_ASCENDING && order != SK_DESCENDING)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid sort order %d", (int)order);
    if (pairs && value_size != 4 && value_size != 8)
        return sk__fail(ctx, SK_E_INVALID_ARG, "value size %zu (must be 4 or 8)", value_size);
    return SK_OK;
}

sk_status sk__sort_validate(sk_context *ctx, const sort_req *r, bool pairs)
{
    sk_status st = sk__sort_check_keys(ctx, r->key_type, r->order, r->value_size, pairs);
    if (st != SK_OK) return st;
    unsigned bits = key_types[r->key_type].bits;
    if (r->begin_bit >= r->end_bit || r->end_bit > bits)
        return sk__fail(ctx, SK_E_INVALID_ARG, "bit range [%u, %u) outside [0, %u)",
                        r->begin_bit, r->end_bit, bits);
    size_t ks = sk_type_size(r->key_type);
    size_t vs = r->value_size ? r->value_size : 1;
    if (r->n > SIZE_MAX / (ks > vs ? ks : vs))
        return sk__fail(ctx, SK_E_SIZE, "%zu keys overflow size_t", r->n);
    return sk__require_fp64(ctx, r->key_type);
}

sk_status sk__sort_check_buffers(sk_context *ctx, const sort_req *r, cl_mem keys,
                                 cl_mem values, bool pairs)
{
    sk_status st = sk__check_buffer(ctx, keys, r->n * sk_type_size(r->key_type), "keys");
    if (st != SK_OK || !pairs) return st;
    st = sk__check_buffer(ctx, values, r->n * r->value_size, "values");
    if (st == SK_OK && values == keys)
        st = sk__fail(ctx, SK_E_INVALID_ARG, "keys and values are the same buffer");
    return st;
}

/* ---- planning ------------------------------------------------------------- */

/* Local memory of the GPU shape's largest user: the three-step scatter (a
 * uint per key, the split scan's 2 x wg ulongs, the digit starts) or the
 * one-sweep kernel. That one ranks by local splits (a uint per key, its
 * staging area, the splits' counters (8 x wg words, padded) and scan (2 x wg
 * words), three words per digit value) or by warp match (the keys and
 * values, a counter per warp and digit value, a scan of 2 x wg words, three
 * words per digit value). */
static size_t gpu_local_bytes(const sort_plan *p, size_t value_size)
{
    size_t wg = p->t.wg_size, items = p->t.items;
    size_t radix = (size_t)1 << p->radix_bits;
    size_t scatter = (wg * items + 4 * wg + radix) * 4;
    size_t sweep = padded_tile(wg * items) * 4 +
                   onesweep_stage_words(wg, items, p->key_size, value_size) * 32 +
                   (padded_tile(8 * wg) + 2 * wg + 3 * radix + 1) * 4;
    if (p->warp_match)
        sweep = wg * items * (p->key_size + value_size) +
                (wg / 32 * radix + 2 * wg + 3 * radix + 1) * 4;
    return scatter > sweep ? scatter : sweep;
}

/* Lowers the items per work-item until the GPU shape's local memory and
 * tile limits hold: one at a time for the sweep ranked by warp votes (it
 * takes any count), else by halves. */
void sk__sort_fit_items(sort_plan *p, const sk_context *ctx, size_t value_size)
{
    while (p->gpu && p->t.items > 1 &&
           (gpu_local_bytes(p, value_size) > ctx->local_mem_bytes ||
            p->t.wg_size * p->t.items > GPU_MAX_TILE_KEYS))
        p->t.items = p->warp_match ? p->t.items - 1 : p->t.items / 2;
}

void sk__sort_split_parts(sort_plan *p, size_t n)
{
    if (p->gpu) {
        p->chunk = p->t.wg_size * p->t.items;
        p->parts = div_up(n, p->chunk);
        p->bound_parts = p->parts < p->t.stride_groups ? p->parts : p->t.stride_groups;
        return;
    }
    size_t parts = n < p->t.cpu_serial_below ? 1 : p->t.cpu_chunks;
    if (parts > n) parts = n;
    /* Whole lines per chunk: the line scatter counts a line as one chunk's. */
    p->chunk = div_up(div_up(n, parts), CPU_LINE) * CPU_LINE;
    p->parts = div_up(n, p->chunk);
    p->bound_parts = p->parts;
}

/* CPU shape: the line scatter for sorts past the caches, on CPU devices
 * (non-temporal stores), or from SK_PARAM_CPU_SORT_LINES_FROM bytes on any
 * device when that is set; it counts the next digit where the counts stay
 * small. */
static void plan_lines(sort_plan *p, const sort_req *r)
{
    size_t bytes = r->n * (p->key_size + r->value_size);
    p->nt_lines = !p->gpu && p->t.lines_bytes != 0;
    p->lines = p->nt_lines && bytes >= p->t.lines_bytes;
    p->fused = p->lines && p->parts * p->parts <= CPU_FUSED_MAX_COUNTS >> p->radix_bits;
}

void sk__config_key(sk__str *s, sk_type key_type)
{
    sk__str_addf(s, "#define SK_KEY_T %s\n#define SK_KEY_BITS %u\n#define SK_KEY_KIND %d\n",
                 key_types[key_type].cl, key_types[key_type].bits, key_types[key_type].kind);
}

void sk__config_value_type(sk__str *s, size_t value_size)
{
    if (value_size == 4 || value_size == 8)
        sk__str_addf(s, "#define SK_VAL_T %s\n", value_size == 8 ? "ulong" : "uint");
    else
        sk__str_addf(s, "typedef struct sk_value_bytes {\n    uchar b[%zu];\n} sk_value_bytes;\n"
                        "#define SK_VAL_T sk_value_bytes\n", value_size);
}

void sk__config_tiles_keys(sk__str *s, const sk__tuning *t, bool gpu)
{
    if (gpu)
        sk__str_addf(s, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                     t->wg_size, t->items);
    else
        sk__str_addf(s, "#define SK_SHAPE_CPU 1\n");
    sk__config_blocks(s, gpu, false, NULL);
    sk__str_add_source(s, "sort_keys");
}

/* The plan of a sort of r, or (segments) of the segments' kernels, which
 * take a sweep's tile on the GPU shape whatever the scan path (no
 * look-back). */
static sort_plan plan_for(sk_context *ctx, const sort_req *r, bool segments)
{
    sort_plan p = {0};
    p.key_size = sk_type_size(r->key_type);
    p.t = sk__tuning_for(ctx, r->value_size ? SK_FAMILY_SORT_PAIRS : SK_FAMILY_SORT, p.key_size);
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    p.radix_bits = p.t.radix_bits;
    /* 8- and 16-bit keys: one or two passes of 8-bit digits. */
    if (p.key_size <= 2 && p.radix_bits > NARROW_KEY_RADIX_BITS)
        p.radix_bits = NARROW_KEY_RADIX_BITS;
    /* The bounds pass keeps two keys per work-item in local memory. */
    while (p.gpu && p.t.wg_size > 1 && 2 * p.t.wg_size * p.key_size > ctx->local_mem_bytes)
        p.t.wg_size /= 2;
    p.wide = r->n > UINT32_MAX;
    p.segments = segments && p.gpu;
    p.onesweep = p.gpu && (p.segments || (r->n <= GPU_ONESWEEP_MAX_KEYS &&
                                          p.t.scan_path != SK_SCAN_PATH_REDUCE_THEN_SCAN));
    p.sweep_all = p.onesweep && r->n < p.t.sort_skip_from;
    p.poll_volatile = p.t.poll_volatile;
    p.warp_match = p.onesweep && ranks_by_warp_match(ctx, p.t.wg_size);
    if (p.warp_match && !ctx->items_param && p.key_size == 4 && r->value_size == 4 &&
        p.t.pairs32_items)
        p.t.items = p.t.pairs32_items;
    if (p.onesweep && !ctx->items_param && r->n < p.t.sort_small_below &&
        p.t.items > p.t.sort_small_items)
        p.t.items = p.t.sort_small_items;
    sk__sort_fit_items(&p, ctx, r->value_size);
    sk__sort_split_parts(&p, r->n);
    plan_lines(&p, r);
    return p;
}

sort_plan sk__sort_plan_for(sk_context *ctx, const sort_req *r)
{
    return plan_for(ctx, r, false);
}

sort_plan sk__sort_plan_segments(sk_context *ctx, const sort_req *r)
{
    return plan_for(ctx, r, true);
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status sort_run_in_place(sk_context *ctx, const void *req, cl_mem keys, cl_mem values)
{
    return sk__sort_run(ctx, req, keys, values);
}

static sk_status sort_host(sk_context *ctx, const sort_req *r, void *keys, void *values)
{
    if (r->n < 2) return SK_OK;
    return sk__host_in_place(ctx, keys, r->n * sk_type_size(r->key_type), values,
                             r->n * r->value_size, "the keys' device copy", sort_run_in_place,
                             r);
}

/* ---- entry points ------------------------------------------------------------------ */

static sk_status sort_mem(sk_context *ctx, const sort_req *r, cl_mem keys, cl_mem values,
                          bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = sk__sort_validate(ctx, r, pairs);
    if (st == SK_OK) st = sk__sort_check_buffers(ctx, r, keys, values, pairs);
    if (st == SK_OK) st = sk__sort_run(ctx, r, keys, pairs ? values : NULL);
    return st;
}

static sk_status sort_host_checked(sk_context *ctx, const sort_req *r, void *keys,
                                   void *values, bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = sk__sort_validate(ctx, r, pairs);
    if (st != SK_OK) return st;
    if ((st = sk__check_host_arrays(ctx, r->n, keys, values, pairs, "keys")) != SK_OK) return st;
    return sort_host(ctx, r, keys, pairs ? values : NULL);
}

unsigned sk__sort_all_bits(sk_type t)
{
    return (unsigned)t < SK_KEY_TYPE_COUNT ? key_types[t].bits : 1;
}

sk_status sk_sort_keys(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                       sk_sort_order order)
{
    sort_req r = {key_type, 0, n, order, 0, sk__sort_all_bits(key_type)};
    return sort_mem(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_keys_bits(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                            sk_sort_order order, unsigned begin_bit, unsigned end_bit)
{
    sort_req r = {key_type, 0, n, order, begin_bit, end_bit};
    return sort_mem(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs(sk_context *ctx, sk_type key_type, size_t value_size, cl_mem keys,
                        cl_mem values, size_t n, sk_sort_order order)
{
    sort_req r = {key_type, value_size, n, order, 0, sk__sort_all_bits(key_type)};
    return sort_mem(ctx, &r, keys, values, true);
}

sk_status sk_sort_pairs_bits(sk_context *ctx, sk_type key_type, size_t value_size,
                             cl_mem keys, cl_mem values, size_t n, sk_sort_order order,
                             unsigned begin_bit, unsigned end_bit)
{
    sort_req r = {key_type, value_size, n, order, begin_bit, end_bit};
    return sort_mem(ctx, &r, keys, values, true);
}

sk_status sk_sort_keys_host(sk_context *ctx, sk_type key_type, void *keys, size_t n,
                            sk_sort_order order)
{
    sort_req r = {key_type, 0, n, order, 0, sk__sort_all_bits(key_type)};
    return sort_host_checked(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                             void *keys, void *values, size_t n, sk_sort_order order)
{
    sort_req r = {key_type, value_size, n, order, 0, sk__sort_all_bits(key_type)};
    return sort_host_checked(ctx, &r, keys, values, true);
}

sk_status sk_sort_keys_bits_host(sk_context *ctx, sk_type key_type, void *keys, size_t n,
                                 sk_sort_order order, unsigned begin_bit, unsigned end_bit)
{
    sort_req r = {key_type, 0, n, order, begin_bit, end_bit};
    return sort_host_checked(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs_bits_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                  void *keys, void *values, size_t n, sk_sort_order order,
                                  unsigned begin_bit, unsigned end_bit)
{
    sort_req r = {key_type, value_size, n, order, begin_bit, end_bit};
    return sort_host_checked(ctx, &r, keys, values, true);
}
