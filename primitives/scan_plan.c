/*
 * scan_plan.c - the scan's plan (scan.h): which tuning a job takes, whether
 * it scans in one pass (decoupled look-back) or reduce-then-scan, and how
 * each level of the recursion splits into tiles (GPU shape) or chunks (CPU
 * shape).
 */
#include "scan.h"

static size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

/* Whether a scan with op on the tuning's shape takes the single pass;
 * `input_stays`: plain arrays, out of place (the CPU shape needs it). */
static bool takes_lookback(const scan_op *op, const sk__tuning *t, bool input_stays, size_t n)
{
    if (op->m.size > 4 && !op->lb_codec) return false;
    if (t->shape == SK_SHAPE_CPU && !input_stays) return false;
    switch (t->scan_path) {
    case SK_SCAN_PATH_LOOKBACK: return true;
    case SK_SCAN_PATH_REDUCE_THEN_SCAN: return false;
    case SK_SCAN_PATH_AUTO: break;
    }
    /* A look-back of several words per tile (the by-key totals' value and
     * count from 2^30 elements) is walked by one work-item per word: on the GPU shape
     * reduce-then-scan was 2.2-2.6x faster from 2^22 to 2^28, as fast at
     * 2^20 and half as fast below (five launches against one; H100,
     * bench/results/nvidia-h100-bykey-lb, nvidia-h100-partition-topk). */
    if (t->shape == SK_SHAPE_GPU && op->lb_counters > 1 && n >= t->multiword_lb_below)
        return false;
    /* The segment totals in one word without epoch: one pass 35-57% faster
     * to 2^20; from 2^26 the tuning table's measurement decides (H100,
     * bench/results/nvidia-h100-segtile). */
    if (t->shape == SK_SHAPE_GPU && op->lb_wide && n >= t->wide_lb_below) return false;
    return op->order_free;
}

sk__tuning sk__scan_tuning(const sk_context *ctx, const scan_op *op, job_kind kind, size_t n,
                           bool *lookback)
{
    /* Only the segmented scans' lifted elements have a size bound; their
     * single pass takes tiles of its own, and their own tile of values and
     * head bits tiles of its own on both paths. Reduces of the others take
     * tiles of their own (the same as the scan's where no row says
     * otherwise: one program for both). */
    sk__family f = op->own_tile            ? SK_FAMILY_SEG_TILE
                   : op->size_is_bound     ? SK_FAMILY_LIFTED
                   : kind == JOB_REDUCE    ? SK_FAMILY_REDUCE
                                           : SK_FAMILY_SCAN;
    sk__tuning t = sk__tuning_for(ctx, f, op->m.size);
    *lookback = kind != JOB_REDUCE && takes_lookback(op, &t, kind == JOB_SCAN_INPUT_STAYS, n);
    if (*lookback && op->size_is_bound)
        t = sk__tuning_for(ctx, op->own_tile ? SK_FAMILY_SEG_TILE_ONE_PASS
                                             : SK_FAMILY_LIFTED_ONE_PASS, op->m.size);
    return t;
}

/* CPU shape, single pass: chunks of the tuned size (or n split into the
 * chunks set by SK_PARAM_CPU_CHUNKS); one work-item below the serial
 * threshold or when one chunk holds all. */
level_split sk__scan_split_cpu_lookback(const sk__tuning *t, size_t n)
{
    level_split s = {0, n};
    if (n < t->cpu_serial_below) return s;
    size_t chunk = t->cpu_lb_chunk ? t->cpu_lb_chunk : div_up(n, t->cpu_chunks);
    size_t parts = div_up(n, chunk);
    if (parts > 1) s = (level_split){parts, chunk};
    return s;
}

/* GPU shape: tiles of wg_size x items, one work-group for all up to
 * single_max_tiles of them. CPU shape: cpu_chunks chunks of at least 2
 * elements, one work-item below the serial threshold. */
level_split sk__scan_split_level(const sk__tuning *t, size_t n)
{
    level_split s = {0, n};
    if (t->shape == SK_SHAPE_GPU) {
        size_t tile = t->wg_size * t->items;
        size_t tiles = div_up(n, tile);
        if (tiles > t->single_max_tiles) s = (level_split){tiles, tile};
        return s;
    }
    if (n < t->cpu_serial_below) return s;
    size_t chunk = div_up(n, t->cpu_chunks);
    if (chunk < 2) chunk = 2;      /* every level must shrink */
    size_t parts = div_up(n, chunk);
    if (parts > 1) s = (level_split){parts, chunk};
    return s;
}

size_t sk__scan_scratch_elems(const sk__tuning *t, size_t n)
{
    size_t total = 0;
    for (level_split s = sk__scan_split_level(t, n); s.parts;
         s = sk__scan_split_level(t, s.parts))
        total += s.parts;
    return total;
}
