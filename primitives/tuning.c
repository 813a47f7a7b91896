/*
 * tuning.c - launch shapes per (device class, device name, kernel family,
 * element size).
 *
 * The only place that looks at what kind of device the context has. Each
 * number says where it came from; parameters set on the context override.
 */
#include "sk_internal.h"

/* GPU shape: a tile of about 16 KiB of elements keeps enough loads in flight
 * per work-group while leaving local memory for several work-groups per
 * compute unit (48 KiB on NVIDIA). 256 work-items is the common sweet spot
 * of NVIDIA and AMD parts. The scan kernels, whose only other local memory
 * is one value per work-item, take 32 KiB tiles: on an H200 the single-pass
 * scan of 2^28 uint32 went from 0.82 ms (256 x 16) to 0.62 ms (256 x 32);
 * 256 x 40, 128 x 48 and 128 x 64 were slower (bench/NOTES-gpu.md). */
#define GPU_WG 256
#define GPU_TILE_BYTES 16384
#define GPU_MAX_ITEMS 16
#define GPU_SCAN_TILE_BYTES 32768
#define GPU_SCAN_MAX_ITEMS 32

/* GPU shape, the segmented scans' lifted (value, head) elements: small
 * work-groups. H100, sk_segscan_inclusive of 2^28 uint32 (segments of
 * 1-2048), wall time of one call, median of 9 (bench/NOTES-gpu.md,
 * "Segmented scan tiles"): 64 x 8 2.13-2.14 ms, 64 x 4 2.09, 128 x 8 2.19,
 * 128 x 16 2.19, 128 x 4 2.27, 256 x 4 and 256 x 8 2.43, the 32 KiB rule's
 * 256 x 5 2.53, 512 x 4 5.10. */
#define GPU_LIFTED_WG 64
#define GPU_LIFTED_ITEMS 8

/* The same in the single pass (decoupled look-back): wider work-groups.
 * H200, the same timer (device time, median of 9), reduce-then-scan at 64
 * x 8 taking 2.01 ms: 128 x 8 1.957 ms, 64 x 8 2.19, 256 x 4 and 256 x 8
 * 2.29, 32 x 16 2.44, 64 x 16 2.68, 512 x 4 4.40 (16 items at 128 or 256
 * are cut to 8 by the local memory rule below: the same times). */
#define GPU_LIFTED_ONE_PASS_WG 128
#define GPU_LIFTED_ONE_PASS_ITEMS 8

/* GPU scan tiles of the devices they were measured on, by a part of the
 * device name (any case); the first match wins, other GPUs take the
 * defaults above. bench_scan --min-log2 28 --max-log2 28 --wg W --items I,
 * 4-byte elements (bench/NOTES-gpu.md, "Scan tiles again" and "Scan tiles
 * on the H100"). Both measured devices prefer the defaults, which were
 * chosen on the H200. A table rather than a tuning run on first use: the
 * tile shape fixes the association order of float sums, which must stay
 * the same run to run on one device, whatever a noisy timing would pick. */
typedef struct gpu_scan_tiles {
    const char *name_part;
    size_t wg;
    size_t tile_bytes;
} gpu_scan_tiles;

static const gpu_scan_tiles gpu_scan_table[] = {
    /* 256 x 32 0.589 ms, 128 x 48 0.579 (one run, within the spread),
     * 128 x 64 0.623, 128 x 32 0.627, 24 and 48 items at 256 and every
     * 512-wide shape 0.74 or slower. */
    {"H200", 256, 32768},
    /* 256 x 32, 128 x 32, 128 x 64 and 64 x 64 at 0.98-1.00 of the copy
     * kernel (0.714 ms), 256 x 16 and 512 x 16 at 0.88. */
    {"H100", 256, 32768},
};

/* The measured scan tiles of this device, or NULL. */
static const gpu_scan_tiles *measured_scan_tiles(const sk_context *ctx)
{
    for (size_t i = 0; i < sizeof gpu_scan_table / sizeof gpu_scan_table[0]; i++)
        if (sk__contains_nocase(ctx->desc.device_name, gpu_scan_table[i].name_part))
            return &gpu_scan_table[i];
    return NULL;
}

/* CPU shape (PoCL, work-group size 1): a few chunks per compute unit balance
 * the load; below 32K elements one work-item finishing the whole scan beats
 * three launches. Measured on a 2-core PoCL 3.1 with bench/bench_scan. */
#define CPU_CHUNKS_PER_CU 4
#define CPU_SERIAL_BELOW 32768

/* CPU shape, single pass (look-back): chunks small enough that a chunk
 * reduced from memory is still in the core's L2 (2 MiB on the development
 * machine) when it is scanned, many enough per compute unit that a
 * descheduled work-item holds up little. 2-core PoCL 3.1, 2^24 uint32:
 * 16K elements 4.9 ms, 32K 4.7-4.8, 64K 4.6, 128K 4.7-4.8, 256K 5.1
 * (bench/NOTES-cpu.md). */
#define CPU_LB_CHUNK 65536

/* CPU shape, single pass: outputs of this many bytes and more are written
 * with non-temporal stores (CPU devices only). Same machine: slower for
 * outputs of 2-4 MiB, mixed at 8 MiB, faster from 16 MiB (1.0-1.2 against
 * 1.4-1.6 ms at 2^22 uint32). */
#define CPU_STREAM_BYTES ((size_t)1 << 24)

static size_t clamp_size(size_t v, size_t lo, size_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

sk__tuning sk__tuning_for(const sk_context *ctx, sk__family family, size_t elem_size)
{
    bool scan = family == SK_FAMILY_SCAN;
    const gpu_scan_tiles *measured = scan ? measured_scan_tiles(ctx) : NULL;
    size_t tile_bytes = measured ? measured->tile_bytes
                        : scan   ? GPU_SCAN_TILE_BYTES
                                 : GPU_TILE_BYTES;
    size_t max_items = scan ? GPU_SCAN_MAX_ITEMS : GPU_MAX_ITEMS;
    sk__tuning t;
    t.shape = ctx->shape_param;
    if (t.shape == SK_SHAPE_AUTO) t.shape = ctx->desc.is_gpu ? SK_SHAPE_GPU : SK_SHAPE_CPU;
    if (elem_size == 0) elem_size = 1;

    bool lifted = family == SK_FAMILY_LIFTED;
    bool lifted_one_pass = family == SK_FAMILY_LIFTED_ONE_PASS;
    size_t wg = ctx->wg_param     ? (size_t)ctx->wg_param
                : measured        ? measured->wg
                : lifted          ? GPU_LIFTED_WG
                : lifted_one_pass ? GPU_LIFTED_ONE_PASS_WG
                                  : GPU_WG;
    while (wg > ctx->max_wg_size && wg > 1) wg /= 2;
    /* The tile and the work-group sums must fit in local memory. */
    while (wg > 1 && (wg * 2 + 2 * wg) * elem_size > ctx->local_mem_bytes) wg /= 2;
    size_t items = ctx->items_param  ? (size_t)ctx->items_param
                   : lifted          ? GPU_LIFTED_ITEMS
                   : lifted_one_pass ? GPU_LIFTED_ONE_PASS_ITEMS
                                     : clamp_size(tile_bytes / (wg * elem_size), 1, max_items);
    while (items > 1 && (wg * items * 33 / 32 + 1 + 2 * wg) * elem_size > ctx->local_mem_bytes)
        items /= 2;
    if (wg * items < 2) items = 2;   /* a tile of one element would never shrink */
    t.wg_size = wg;
    t.items = items;

    size_t cus = ctx->desc.compute_units ? ctx->desc.compute_units : 1;
    t.cpu_chunks = ctx->chunks_param ? (size_t)ctx->chunks_param : cus * CPU_CHUNKS_PER_CU;
    t.cpu_serial_below = ctx->serial_below_param ? (size_t)ctx->serial_below_param
                                                 : CPU_SERIAL_BELOW;
    t.cpu_lb_chunk = ctx->chunks_param ? 0 : CPU_LB_CHUNK;
    t.cpu_stream_bytes = ctx->desc.is_gpu ? 0 : CPU_STREAM_BYTES;
    t.scan_path = ctx->scan_path_param;
    return t;
}
