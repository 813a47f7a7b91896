/*
 * tuning.c - every device-dependent choice of the library, as one table.
 *
 * A row says where it applies (a part of the platform name, a part of the
 * device name, CPU or GPU devices, a kernel family, an element size; each
 * may be "any") and sets one value. sk__tuning_for reads the rows in order
 * and takes, for each value, the first row that applies: rows for one
 * device come before rows for a vendor, which come before the rows for a
 * kernel family or a kind of device; where no row applies, the value's
 * portable default (one for every value) holds, so an unknown device gets a
 * working tuning. Each row names the measurement that chose it
 * (bench/NOTES-gpu.md, bench/NOTES-cpu.md: the section, with the bench
 * program and its arguments there). Parameters set on the context
 * (sk_context_set_param) override the table.
 *
 * This is the only place that looks at what kind of device the context
 * has (besides device.c's choice of a device and runtime.c's check that a
 * device takes the warp-level variants at all).
 */
#include "sk_internal.h"

#include <stdint.h>
#include <stdlib.h>

/* What a row sets. */
typedef enum tune_key {
    TUNE_WG,                 /* GPU shape: work-items per work-group */
    TUNE_TILE_BYTES,         /* GPU shape: bytes of a tile (items = tile / wg / element) */
    TUNE_MAX_ITEMS,          /* GPU shape: at most this many items per work-item */
    TUNE_ITEMS,              /* GPU shape: items per work-item, fixed (0: from the tile) */
    TUNE_SINGLE_MAX_TILES,   /* GPU scan: up to this many tiles, one work-group walks all */
    TUNE_STRIDE_GROUPS,      /* GPU shape: work-groups of a pass striding over all elements */
    TUNE_CPU_CHUNKS_PER_CU,  /* CPU shape: chunks per compute unit */
    TUNE_CPU_SERIAL_BELOW,   /* CPU shape: one work-item below this many elements */
    TUNE_CPU_LB_CHUNK,       /* CPU single pass: elements per chunk */
    TUNE_CPU_STREAM_BYTES,   /* CPU single pass: non-temporal stores from this output size */
    TUNE_RADIX_BITS,         /* radix sort: digit width */
    TUNE_PAIRS32_ITEMS,      /* one-sweep sort, 4-byte keys and values ranked by warp
                                votes: items per work-item (0: as keys) */
    TUNE_POLL_VOLATILE,      /* one-sweep sort: look-back words polled by volatile loads */
    TUNE_LB_SPIN,            /* GPU look-back: polls of an empty predecessor's word before
                                the work-group reduces that tile itself (0: wait) */
    TUNE_WG_SCAN_WARPS,      /* work-group scans in block.cl's warp form where the program
                                takes warp instructions (0: the portable form) */
    TUNE_LINES_BYTES,        /* CPU sort: line scatter from this many bytes of keys and
                                values (0: never) */
    TUNE_SORT_BUCKET_BYTES,  /* CPU sort with lines: buckets by the top digit sorted in the
                                caches where the largest holds at most this many bytes of
                                keys and values (0: never) */
    TUNE_PREFETCH,           /* kernels may call clang's __builtin_prefetch (1) or not (0) */
    TUNE_POINTS_SCAN_BELOW,  /* polynomial: below this many points ... */
    TUNE_POINTS_SCAN_DEGREE, /* ... and above this many coefficients, a scan per point */
    TUNE_WARPS_FROM_CC,      /* warp-level variants (inline PTX, kernels/warp.cl) from this
                                NVIDIA compute capability on (0: none) */
    TUNE_DISK_CACHE,         /* 1: scankit's on-disk program cache by default; 0: not
                                unless SCANKIT_CACHE_DIR names one (the driver keeps
                                its own) */
    TUNE_SEGSORT_CPU_TILE,   /* segmented sort, CPU shape: segments up to this many keys
                                merge sorted by one work-item (longer: large) */
    TUNE_TOPK_NARROW_TILES,  /* top-k, GPU shape: narrowing from sources of this many tiles */
    TUNE_TOPK_SORT_BELOW,    /* top-k, sorted output and ranks: a whole sort below this */
    TUNE_PARTITION_ONE_PASS_BELOW, /* GPU shape: partitions of fewer elements in one pass */
    TUNE_MULTIWORD_LB_BELOW, /* GPU shape: scans whose look-back has several words per tile
                                take it below this many elements, reduce-then-scan above */
    TUNE_SEGSORT_ALONE_FROM, /* segmented sort: large segments of at least this many keys
                                sorted alone by the device-wide sort (shorter: together,
                                in one batch) */
    TUNE_SEGSORT_GROUPS_FROM, /* segmented sort, GPU shape: large segments of the batch
                                sorted by a work-group each (no batch) where there are at
                                least this many, of at least SEGSORT_GROUP_MIN_KEYS keys
                                on average (0: never) */
    TUNE_BYKEY_TILES_FROM,   /* GPU shape: run-length encoding and reduce by key of this
                                many elements (and below 2^32) by tiles
                                (kernels/bykey_tile.cl); fewer, by one lifted pass (0:
                                tiles always) */
    TUNE_BYKEY_SCAN_JOIN_FROM, /* the tiles of this many elements and more look back on
                                head counts and join their runs by the lifted scan
                                over the tiles' records; fewer carry the runs' totals
                                in their look-back where one word holds them, else
                                one work-group joins */
    TUNE_WIDE_LB_BELOW,      /* GPU shape: scans whose look-back word has no epoch (the
                                segment totals' value and head count) take it below this
                                many elements, reduce-then-scan above */
    TUNE_SEG_TOTALS_AT_ENDS_FROM, /* segment totals by offsets without an empty segment:
                                from this many elements stored at each segment's end by
                                the totals by head flags (below: the inclusive scan into
                                scratch, then a gather) */
    TUNE_SEG_GROUPS_FROM,    /* GPU shape: segment totals by offsets whose segments
                                average at least this many elements, a work-group per
                                segment (below: the segmented scan's paths) */
    TUNE_SEG_GROUPS_CHECK_MAX, /* ... and for at most this many segments the offsets
                                checked in the same launch, every work-group reading them
                                all (more: a launch of its own before) */
    TUNE_SORT_SKIP_FROM,     /* one-sweep radix sort: from this many keys the keys' bounds
                                are read back and constant digits skipped (below: every
                                digit swept, no wait for the device) */
    TUNE_SORT_SMALL_BELOW,   /* one-sweep radix sort: below this many keys ... */
    TUNE_SORT_SMALL_ITEMS,   /* ... at most this many items per work-item (smaller tiles,
                                more work-groups) */
    TUNE_REDUCE_LAST_MIN_TILES, /* GPU shape: reduces of this many tiles ... */
    TUNE_REDUCE_LAST_MAX_TILES, /* ... to this many in one launch, the last work-group to
                                finish totalling the tiles (fewer: one work-group walks them
                                all; more: a launch per level) */
    TUNE_MERGE_SEARCH_MAX_PARTS, /* GPU shape: merge passes of at most this many parts find
                                their splits in the merge's own work-groups (more: a
                                partition launch first) */
    TUNE_KEY_COUNT
} tune_key;

enum { ANY_DEVICE = 0, CPU_DEVICE = 1, GPU_DEVICE = 2 };
#define ANY_FAMILY SK_FAMILY_COUNT

typedef struct tune_row {
    const char *vendor;      /* part of the platform name (any case); NULL: any */
    const char *device;      /* part of the device name (any case); NULL: any */
    int device_class;        /* ANY_DEVICE, CPU_DEVICE or GPU_DEVICE */
    sk_shape shape;          /* the kernels' shape; SK_SHAPE_AUTO: any */
    int family;              /* sk__family, or ANY_FAMILY */
    size_t elem_size;        /* bytes per element; 0: any */
    tune_key key;
    long value;
    const char *chosen_by;   /* the measurement behind it */
} tune_row;

/* Where the rows below were chosen. */
#define SCAN_TILES "bench/NOTES-gpu.md: Scan tiles again, with the shuffle work-group scan"
#define SEGSCAN_TILES "bench/NOTES-gpu.md: Segmented scan tiles"
#define SEG_GROUPS "bench/results/nvidia-h200-segreduce/NOTE.md (tiles)"
#define SEG_TILE "bench/NOTES-gpu.md: The segmented scan's own tile"
#define BYKEY_TILE "bench/results/nvidia-h200-bykey-tiles/NOTE.md (tiles)"
#define CPU_RADIX "primitives/sort.c history; bench/NOTES-cpu.md: Radix sort (CPU shape)"
#define CPU_SCAN "bench/bench_scan on the 2-core PoCL 3.1; no recorded table"
#define FIRST_GPU_SHAPE "first GPU shape; no recorded comparison"
#define FIRST_POLY_PLAN "first polynomial plan; no recorded comparison"

/* A family's default: any device, shape and element size. */
#define FAMILY_DEFAULT(family, key, value, chosen_by)                          \
    {NULL, NULL, ANY_DEVICE, SK_SHAPE_AUTO, family, 0, key, value, chosen_by}


static const tune_row rows[] = {
    /* ---- one device ---------------------------------------------------------- */
    /* bench_scan --min-log2 28 --max-log2 28 --wg W --items I, 4-byte
     * elements: 256 x 32 0.589 ms, 128 x 48 0.579 (one run, within the
     * spread), 128 x 64 0.623, 128 x 32 0.627, 24 and 48 items at 256 and
     * every 512-wide shape 0.74 or slower. A table rather than a tuning run
     * on first use: the tile shape fixes the association order of float
     * sums, which must stay the same run to run on one device. */
    {NULL, "H200", GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SCAN, 0, TUNE_WG, 256,
     "bench/NOTES-gpu.md: Scan tiles again, with the shuffle work-group scan"},
    {NULL, "H200", GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SCAN, 0, TUNE_TILE_BYTES, 32768,
     "bench/NOTES-gpu.md: Scan tiles again, with the shuffle work-group scan"},
    /* 256 x 32, 128 x 32, 128 x 64 and 64 x 64 at 0.98-1.00 of the copy
     * kernel (0.714 ms), 256 x 16 and 512 x 16 at 0.88. */
    {NULL, "H100", GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SCAN, 0, TUNE_WG, 256,
     "bench/NOTES-gpu.md: Scan tiles on the H100"},
    {NULL, "H100", GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SCAN, 0, TUNE_TILE_BYTES, 32768,
     "bench/NOTES-gpu.md: Scan tiles on the H100"},
    /* The reduce, which keeps nothing of its tile but one value: half the
     * scan's tile. H200, uniform uint32 (`--tile`), 256 x 16 / 256 x 32:
     * 2^20 0.0088 / 0.0102 ms, 2^22 0.0122 / 0.0132, 2^24 0.0284 /
     * 0.0303, 2^26-2^28 within 1%. Elsewhere, and for elements of other
     * sizes (not measured), the scan's tile (one program for both). */
    {NULL, "H200", GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_REDUCE, 4, TUNE_TILE_BYTES, 16384,
     "bench/results/nvidia-h200-reduce-histogram/NOTE.md (run4/tiles)"},

    /* ---- one vendor ------------------------------------------------------------ */
    /* The one-sweep look-back read by volatile 32-bit loads (a relaxed load
     * in the PTX memory model, so it sees each atomic write whole) instead
     * of atomic_or: 2^28 uniform uint32 keys sorted in 11.1 ms instead of
     * 12.3 ms on an H100. */
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0, TUNE_POLL_VOLATILE, 1,
     "bench/NOTES-gpu.md: One sweep per digit, second round (v6, volatile polls)"},
    /* The one-sweep sort's work-group scans (a tile's digit starts) by
     * Hillis-Steele in local memory rather than by shuffles. H100, 2^26
     * uniform uint32 keys, two alternated rounds: 2.08-2.09 ms with the
     * portable scan (and the sort's own tile counter), 2.18-2.19 with the
     * shuffle scan; the tile counter alone moved nothing (2.87-2.89
     * against 2.84-2.88 in the earlier build). */
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT, 0, TUNE_WG_SCAN_WARPS, 0,
     "bench/results/restructure/README.md: the sort on the block layer"},
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT_PAIRS, 0, TUNE_WG_SCAN_WARPS, 0,
     "bench/results/restructure/README.md: the sort on the block layer"},
    /* Pairs of 4-byte keys and values ranked by warp votes: 17 items, the
     * most whose keys and values fit in 48 KiB of local memory beside the
     * warp counters. H200, 2^28 uniform keys, two rounds in one command:
     * 9.87 / 9.86 ms against 10.09 / 10.11 at 16; keys alone keep 16
     * (7.24 against 7.45 at 17). */
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT_PAIRS, 0, TUNE_PAIRS32_ITEMS, 17,
     "bench/NOTES-gpu.md: Sort pairs: where the values' time goes; 17 items"},

    /* 8-byte keys below 2^19: the tile of 16 items leaves few work-groups
     * and each sweep waits on one tile's latency: 8 items there. H200,
     * uniform uint64 keys, x 8 / x 16, ms: 2^16 0.132 / 0.153, 2^18 0.135
     * / 0.152, 2^20 0.191 / 0.163. (4-byte keys at 256 x 8 against 16 or
     * 17: within the rounds' spread at 2^14-2^18, 10-21% slower at 2^20-2^22.) */
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 8, TUNE_SORT_SMALL_BELOW,
     1L << 19, "bench/results/nvidia-h200-sort-tiles-2811/NOTE.md"},
    /* 8-byte keys: a sweep over a constant digit copies twice the bytes, and
     * such keys often share their high digits (values below 2^32): on an
     * H200 the read-back's wait (about 60 us) costs less than one copy from
     * about 2^23 keys (a copy of 2^22 keys 21 us, of 2^24 keys 84 us). */
    /* 8-byte keys ranked by warp votes: 16 items (the 4-byte keys' count,
     * twice the 16 KiB tile's), pairs with 4-byte values 11 (the most that
     * fit 48 KiB of local memory; sk__sort_fit_items steps down from there
     * for wider values). H200, uniform uint64, 2^24 / 2^26 ms, two rounds:
     * keys 256 x 8 (the tile's) 1.553 / 5.817, x 12 1.276 / 4.674, x 16
     * 1.224 / 4.448; pairs x 8 2.068 / 7.859, x 11 1.873 / 7.074. */
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT, 8, TUNE_ITEMS, 16,
     "bench/results/nvidia-h200-segreduce-check/NOTE.md (64-bit sorts' tiles)"},
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT_PAIRS, 8, TUNE_ITEMS, 11,
     "bench/results/nvidia-h200-segreduce-check/NOTE.md (64-bit sorts' tiles)"},
    {NULL, NULL, ANY_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT, 8, TUNE_SORT_SKIP_FROM, 1L << 23,
     "bench/results/nvidia-h200-reduce-histogram/NOTE.md (the sort's read-back)"},
    {NULL, NULL, ANY_DEVICE, SK_SHAPE_AUTO, SK_FAMILY_SORT_PAIRS, 8, TUNE_SORT_SKIP_FROM,
     1L << 23, "bench/results/nvidia-h200-reduce-histogram/NOTE.md (the sort's read-back)"},

    /* Warp-level variants (kernels/warp.cl: shuffles, votes with .sync, which
     * need compute capability 7.0): the work-group scans and the one-pass
     * look-back by shuffles, the sort's ranking by warp votes. H200, 2^28:
     * inclusive scan 0.590 ms against 0.601 by Hillis-Steele, segmented
     * scan 2.43 against 2.54. */
    {"NVIDIA", NULL, GPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0, TUNE_WARPS_FROM_CC, 7,
     "bench/NOTES-gpu.md: Work-group scan by warp shuffles (NVIDIA)"},

    /* PoCL caches what it builds (POCL_KERNEL_CACHE, on by default): a scan
     * program it built before loads in 0.03 s. An entry of scankit's own
     * cache needs the program's binary, which PoCL makes by compiling every
     * kernel of the program: 1.3-1.5 s on top of a 0.5 s build, for a load
     * of 0.014 s instead of 0.03 later. */
    {"Portable Computing Language", NULL, ANY_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0,
     TUNE_DISK_CACHE, 0, "bench/NOTES-cpu.md: Program builds: the binary for the disk cache"},

    /* ---- a kernel family, a shape or a kind of device ------------------------ */
    /* GPU shape: a tile of about 16 KiB keeps enough loads in flight per
     * work-group while leaving local memory for several work-groups per
     * compute unit (48 KiB on NVIDIA); 256 work-items is the common sweet
     * spot of NVIDIA and AMD parts. The scan kernels, whose only other
     * local memory is one value per work-item, take 32 KiB tiles: on an
     * H200 the single-pass scan of 2^28 uint32 went from 0.82 ms (256 x 16)
     * to 0.62 ms (256 x 32); 256 x 40, 128 x 48 and 128 x 64 were slower. */
    FAMILY_DEFAULT(SK_FAMILY_SCAN, TUNE_TILE_BYTES, 32768, SCAN_TILES),
    FAMILY_DEFAULT(SK_FAMILY_SCAN, TUNE_MAX_ITEMS, 32, SCAN_TILES),
    FAMILY_DEFAULT(SK_FAMILY_REDUCE, TUNE_TILE_BYTES, 32768, SCAN_TILES),
    FAMILY_DEFAULT(SK_FAMILY_REDUCE, TUNE_MAX_ITEMS, 32, SCAN_TILES),
    /* The segmented scans' lifted (value, head) elements: small work-groups.
     * H100, sk_segscan_inclusive of 2^28 uint32 (segments of 1-2048), median
     * of 9: 64 x 8 2.13-2.14 ms, 64 x 4 2.09, 128 x 8 2.19, 128 x 16 2.19,
     * 128 x 4 2.27, 256 x 4 and 256 x 8 2.43, 256 x 5 2.53, 512 x 4 5.10. */
    FAMILY_DEFAULT(SK_FAMILY_LIFTED, TUNE_WG, 64, SEGSCAN_TILES),
    FAMILY_DEFAULT(SK_FAMILY_LIFTED, TUNE_ITEMS, 8, SEGSCAN_TILES),
    /* The same in the single pass: wider work-groups. H200, reduce-then-scan
     * at 64 x 8 taking 2.01 ms: 128 x 8 1.957 ms, 64 x 8 2.19, 256 x 4 and
     * 256 x 8 2.29, 32 x 16 2.44, 64 x 16 2.68, 512 x 4 4.40. */
    FAMILY_DEFAULT(SK_FAMILY_LIFTED_ONE_PASS, TUNE_WG, 128, SEGSCAN_TILES),
    FAMILY_DEFAULT(SK_FAMILY_LIFTED_ONE_PASS, TUNE_ITEMS, 8, SEGSCAN_TILES),
    /* The segmented scans' own tile (values and head bits, kernels/
     * segscan_tile.cl). One pass: H100, sk_segscan_inclusive of 2^28
     * uint32 by uint8 flags (segments of 1-2048), `bench_all --tile WxI`:
     * 32 x 32 1.166 ms, 64 x 24 1.306, 128 x 24 1.62, 64 x 16 and 64 x 32
     * 1.76, 32 x 16 1.94, 128 x 16 and 128 x 32 1.93-1.94, 256 x 8/16/32
     * 2.75, 512 x 8/16 6.73: one warp per tile of 1024. Reduce-then-scan
     * (the run totals by key from 2^20, with two look-back words): reduce
     * by key of 2^28 64 x 32 1.620 ms, 64 x 16 1.617, 32 x 16 1.742, 32 x
     * 32 2.656 (run-length encoding 1.498, 1.496, 1.547, 2.527); the
     * segmented scan 64 x 32 1.255, 128 x 16 1.287, 256 x 16 1.626. */
    FAMILY_DEFAULT(SK_FAMILY_SEG_TILE, TUNE_WG, 64, SEG_TILE),
    FAMILY_DEFAULT(SK_FAMILY_SEG_TILE, TUNE_ITEMS, 32, SEG_TILE),
    FAMILY_DEFAULT(SK_FAMILY_SEG_TILE_ONE_PASS, TUNE_WG, 32, SEG_TILE),
    FAMILY_DEFAULT(SK_FAMILY_SEG_TILE_ONE_PASS, TUNE_ITEMS, 32, SEG_TILE),
    /* The segmented sort's tiles of short segments (GPU shape: a tile is
     * the work-group x 4 keys). H200, segments of 1-64 keys, 2^28 uint32
     * keys (2^24): 128 4.78 ms (0.323), 64 4.86 (0.328), 256 4.94 (0.334),
     * 512 4.94 (0.333); 2^16 128 0.037 ms, 256 0.039. */
    FAMILY_DEFAULT(SK_FAMILY_SEGSORT, TUNE_WG, 128,
                   "bench/results/nvidia-h200-segsort-wg/NOTE.md"),
    /* Segment totals by a work-group per segment: one warp. H200, segments
     * of 1-2048 elements, 2^28 elements (2^24): 32 x 16 0.369 ms (0.047),
     * 64 x 16 0.385 (0.046), 64 x 8 0.413, 32 x 32 0.430, 128 x 8 0.515,
     * 128 x 4 0.638, 256 x 4 0.810 (0.072), 256 x 2 1.118. */
    FAMILY_DEFAULT(SK_FAMILY_SEG_GROUPS, TUNE_WG, 32, SEG_GROUPS),
    FAMILY_DEFAULT(SK_FAMILY_SEG_GROUPS, TUNE_ITEMS, 16, SEG_GROUPS),
    /* Run totals by key (kernels/bykey_tile.cl). H200, uint32 keys in runs of
     * 1-2048 (and uint32 values added), `bench_all --tile WxI` (which sets
     * every family's tile: the join's too), 2^24 / 2^28 ms, with the join
     * by the lifted scan: the encoding 256 x 16 0.057 / 0.511, 512 x 16
     * 0.061 / 0.509, 128 x 16 0.079 / 0.580, 256 x 32 0.076 / 0.855, 512 x
     * 8 and 256 x 8 0.072-0.080 / 0.75; reduce by key 256 x 16 0.072 /
     * 0.710, 256 x 32 0.074 / 0.708, 128 x 16 0.096 / 0.771, 512 x 8 and
     * 256 x 8 0.084-0.093 / 0.92. With the join's own kernel, whose time
     * grows with the tiles, 256 x 20 beat 256 x 16 for reduce by key at 2^28
     * (0.770 / 0.849); the look-back carrying the totals (no join) was not
     * swept. */
    FAMILY_DEFAULT(SK_FAMILY_BYKEY_TILE, TUNE_WG, 256, BYKEY_TILE),
    FAMILY_DEFAULT(SK_FAMILY_BYKEY_TILE, TUNE_ITEMS, 16, BYKEY_TILE),
    /* GPU shape, radix sort: 8-bit digits ranked by stable local splits of
     * two bits. H200, 2^28 uniform uint32: 4-bit digits with 1-bit splits
     * 39.7 ms, 4-bit with 2-bit splits 30.4, 8-bit with 1-bit splits 33.1,
     * 8-bit with 2-bit splits 23.1 (half the passes). */
    /* GPU shape, top-k with sorted output and ranks: below 2^24 keys a
     * whole sort (one launch plus one per digit) beats the selection's
     * twenty launches. H200, k = 1000, uniform uint32, selection / whole
     * sort: 2^14-2^20 0.36-0.38 / 0.077-0.085 ms, 2^21 0.357 / 0.133, 2^22
     * 0.425 / 0.256, 2^23 0.482 / 0.395, 2^24 0.590 / 0.628. */
    {NULL, NULL, ANY_DEVICE, SK_SHAPE_GPU, SK_FAMILY_TOPK, 0, TUNE_TOPK_SORT_BELOW,
     (size_t)1 << 24, "bench/results/nvidia-h200-topk-by-sort/NOTE.md"},
    {NULL, NULL, ANY_DEVICE, SK_SHAPE_GPU, ANY_FAMILY, 0, TUNE_RADIX_BITS, 8,
     "bench/NOTES-gpu.md: Second attempt (8-bit digits, 2-bit splits)"},
    /* CPU shape, radix sort: 11-bit digits for keys (three passes for 32-bit
     * keys instead of four), 8 for pairs (every digit has two streams of
     * lines). 2-core PoCL 3.1, 2^24 uniform uint32, line buffers: keys 11
     * bits 310 ms against 8 bits 372; pairs 8 bits 119 ms, 10 bits 152, 11
     * bits 135. */
    FAMILY_DEFAULT(SK_FAMILY_SORT_PAIRS, TUNE_RADIX_BITS, 8, CPU_RADIX),
    /* CPU devices: the line scatter (non-temporal stores) from 4 MiB of keys
     * and values. Kernel time of the line scatter against the plain one,
     * keys / pairs: 2^20 5.8 vs 6.8 / 7.5 vs 12.3 ms; 2^24 79-84 vs 145-148
     * / 112-121 vs 246. */
    {NULL, NULL, CPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0, TUNE_LINES_BYTES, 4L << 20,
     "bench/NOTES-cpu.md: Radix sort (CPU shape), Variants"},
    /* CPU devices: buckets by the top digit sorted inside the caches where
     * the largest holds up to 1 MiB of keys and values (2 MiB of L2 a
     * core). 2-core PoCL 3.1 (Xeon), uniform uint32, medians of 3 rounds,
     * passes / buckets to 256 KiB / to 1 MiB, ms: keys 2^22 21.4 / 17.3 /
     * 17.7, 2^24 84.7 / 63.9 / 65.5, 2^26 363 / 277 / 276; pairs 2^20 7.7
     * / 6.5 / 5.3, 2^22 29.6 / 24.1 / 24.1, 2^24 115 / (passes) / 108. */
    {NULL, NULL, CPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0, TUNE_SORT_BUCKET_BYTES, 1L << 20,
     "bench/NOTES-cpu.md: Buckets by the top digit"},
    /* PoCL on CPUs: clang's __builtin_prefetch becomes a prefetch
     * instruction (OpenCL's prefetch() compiles to nothing there). */
    {"Portable Computing Language", NULL, CPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0,
     TUNE_PREFETCH, 1, "bench/NOTES-cpu.md: Buckets by the top digit"},
    /* CPU devices (PoCL), GPU shape: every large segment sorted alone (the
     * batch sorts pairs by 8-bit digits twice). 2-core PoCL 3.1, bench_all
     * --prims segsort_large (segments of 2^16-2^17 keys), alone / batch:
     * 2^20 233 / 310 ms, 2^22 889 / 1427 ms. CPU shape: segments below
     * 2^20 keys by a work-item each (sk_segsort_radix_spans), longer ones
     * alone (the device-wide sort then has every core). */
    {NULL, NULL, CPU_DEVICE, SK_SHAPE_GPU, SK_FAMILY_SEGSORT, 0, TUNE_SEGSORT_ALONE_FROM, 1,
     "bench/NOTES-cpu.md: Segmented sort: the large segments' batch"},
    {NULL, NULL, CPU_DEVICE, SK_SHAPE_CPU, SK_FAMILY_SEGSORT, 0, TUNE_SEGSORT_ALONE_FROM,
     1L << 20, "bench/results/pocl-cpu-segsort-items/NOTE.md"},
    /* CPU devices: non-temporal scan stores slower for outputs of 2-4 MiB,
     * mixed at 8 MiB, faster from 16 MiB (1.0-1.2 against 1.4-1.6 ms at
     * 2^22 uint32). */
    {NULL, NULL, CPU_DEVICE, SK_SHAPE_AUTO, ANY_FAMILY, 0, TUNE_CPU_STREAM_BYTES, 1L << 24,
     "bench/NOTES-cpu.md: Single pass with decoupled look-back, stores by size"},
};

/* Each value's default, where no row of the table applies: any device,
 * shape, family and element size. Indexed by tune_key; every key has one
 * (sk__tuning_complete checks, and tests/test_runtime_context.c calls it). */
typedef struct tune_default {
    long value;
    const char *chosen_by;
} tune_default;

static const tune_default defaults[TUNE_KEY_COUNT] = {
    [TUNE_RADIX_BITS] = {11, CPU_RADIX}, /* the CPU shape's keys: see the rows above */
    [TUNE_WG] = {256, FIRST_GPU_SHAPE},
    [TUNE_TILE_BYTES] = {16384, FIRST_GPU_SHAPE},
    [TUNE_MAX_ITEMS] = {16, FIRST_GPU_SHAPE},
    [TUNE_ITEMS] = {0, "from the tile"},
    /* The sort's passes that stride over every key (AND/OR, digit counts):
     * 256 work-groups took 1.6 ms over 2^28 keys on an H100, too few loads
     * in flight; 1024 do not. */
    [TUNE_STRIDE_GROUPS] = {1024, "H100 measurement in the sort's history; no recorded table"},
    /* Up to 8 tiles, one work-group walking them in order beats three
     * launches. */
    [TUNE_SINGLE_MAX_TILES] = {8, FIRST_GPU_SHAPE},
    /* CPU shape (PoCL, work-group size 1): a few chunks per compute unit
     * balance the load; below 32K elements one work-item finishing the
     * whole scan beats three launches. 2-core PoCL 3.1, bench_scan. */
    [TUNE_CPU_CHUNKS_PER_CU] = {4, CPU_SCAN},
    [TUNE_CPU_SERIAL_BELOW] = {32768, CPU_SCAN},
    /* CPU single pass: chunks whose input is still in L2 (2 MiB) when
     * scanned. 2-core PoCL 3.1, 2^24 uint32: 16K elements 4.9 ms, 32K
     * 4.7-4.8, 64K 4.6, 128K 4.7-4.8, 256K 5.1. */
    [TUNE_CPU_LB_CHUNK] = {65536, "bench/NOTES-cpu.md: Single pass with decoupled look-back, "
                                  "chunk size"},
    [TUNE_CPU_STREAM_BYTES] = {0, "GPUs: never"},
    [TUNE_LINES_BYTES] = {0, "GPUs: never"},
    [TUNE_SORT_BUCKET_BYTES] = {0, "GPUs: never"},
    [TUNE_PREFETCH] = {0, "compilers without clang's __builtin_prefetch (Oclgrind has none)"},
    [TUNE_PAIRS32_ITEMS] = {0, "as keys"},
    [TUNE_WARPS_FROM_CC] = {0, "portable forms"},
    [TUNE_DISK_CACHE] = {1, "drivers that rebuild from source every time"},
    [TUNE_POLL_VOLATILE] = {0, "atomic reads: the OpenCL 1.2 model"},
    /* Decoupled fallback (kernels/lookback.cl): a GPU publishes within a
     * few hundred polls while the predecessor runs, so the bound only
     * catches one that does not (a device without forward progress for
     * started work-groups). $SCANKIT_LB_SPIN overrides it, 0 waiting
     * forever as before (bench/run_gpu.sh compares the two). */
    [TUNE_LB_SPIN] = {4096, "above the polls of a running predecessor; no recorded "
                            "measurement"},
    [TUNE_WG_SCAN_WARPS] = {1, "bench/NOTES-gpu.md: Work-group scan by warp shuffles (NVIDIA)"},
    /* Below 64 points and above 65536 coefficients the scan per point beats
     * one work-item per point (which would walk all coefficients alone). */
    [TUNE_POINTS_SCAN_BELOW] = {64, FIRST_POLY_PLAN},
    [TUNE_POINTS_SCAN_DEGREE] = {65536, FIRST_POLY_PLAN},
    /* CPU shape: a merge sort of up to 64K keys by one work-item costs less
     * than the launches and blocking reads of a large segment's sort. */
    [TUNE_SEGSORT_CPU_TILE] = {65536, "primitives/segsort.c history; no recorded table"},
    /* Large segments: a segment sorted alone costs the device-wide sort's
     * fixed part (a dozen launches, two blocking reads: about 0.2 ms on an
     * H100, sort_keys at 2^20 in bench/results/nvidia-h100-new-prims) plus
     * about 1 ns per key at 2^26 (sort_keys, 2.1 ms); in the batch a key
     * costs about twice that (two sorts of pairs, a gather and a put), so
     * the batch wins below a few million keys a segment. An estimate from
     * those results, not a measured crossing. */
    /* Narrowing reads a count back (the host waits for the queue) to save
     * later digits' reads of the whole source. $SCANKIT_TOPK_NARROW_TILES
     * overrides it (bench/run_gpu.sh compares). */
    [TUNE_TOPK_NARROW_TILES] = {8192, "bench/results/nvidia-h100-partition-topk/NOTE.md: "
                                      "narrowing 30% slower at 2^16-2^20, 40% faster at "
                                      "2^26-2^28 (tiles of 4096 keys)"},
    /* Top-k by a whole sort: never, unless a row says (measured on the GPU
     * shape only). $SCANKIT_TOPK_SORT_BELOW overrides it (the tests force
     * both paths). */
    [TUNE_TOPK_SORT_BELOW] = {0, "no measurement: the selection everywhere"},
    /* With the keys' head bits four keys a load (H100, 2^28, one pass
     * against reduce-then-scan, each at its best tile): reduce by key
     * 1.168 / 1.399 ms, run-length encoding 0.859 / 0.770, segment totals
     * 1.175 / 1.128; at 2^26 0.304 / 0.374, 0.229 / 0.218, 0.369 / 0.353:
     * one pass at every size (the wide code's counts end at 2^30). */
    [TUNE_WIDE_LB_BELOW] = {(size_t)1 << 30,
                            "bench/results/nvidia-h100-segtile/NOTE.md (one word, keys four "
                            "a load): one pass 16-19% faster for reduce by key from 2^26, "
                            "4-12% slower for the encoding and segment totals"},
    /* A work-group (one warp, tiles of 512) per segment reads each segment
     * once and stores its total, no flags, scan or gather (CUB's
     * DeviceSegmentedReduce shape): 1.6x CUB at 2^28 on an H200 for
     * segments of 1-2048 elements. Below about half a tile a segment leaves
     * most of the warp's loads idle. An estimate, not a measured crossing
     * ($SCANKIT_SEG_GROUPS_FROM overrides it; tests force it). */
    [TUNE_SEG_GROUPS_FROM] = {256, "bench/results/nvidia-h200-segreduce/NOTE.md (a "
                                   "work-group per segment; segments of 1-2048)"},
    /* The offsets' check in the work-groups' launch saves the check's launch
     * and its word's fill; each work-group reads every offset, count^2 loads
     * in all. H200, segments of 1-2048 elements, apart / in the launch (ms):
     * 64 segments 0.0273 / 0.0103, 1024 0.0269 / 0.0124, 4096 0.0320 /
     * 0.0316, 16384 0.051 / 0.304 ($SCANKIT_SEG_GROUPS_CHECK_MAX overrides
     * it; tests force both). */
    [TUNE_SORT_SMALL_BELOW] = {0, "measured on NVIDIA GPUs only (8-byte keys)"},
    [TUNE_SORT_SMALL_ITEMS] = {8, "bench/results/nvidia-h200-sort-tiles-2811/NOTE.md (the "
                                  "8-byte keys' tile before 16 items)"},
    [TUNE_SEG_GROUPS_CHECK_MAX] = {2048, "bench/results/nvidia-h200-segreduce-check/NOTE.md: "
                                         "2.2-2.7x faster to 64-1024 segments, even at 4096, "
                                         "6x slower at 16384"},
    /* On the CPU shape not measured: the GPU's crossing stands for both. */
    [TUNE_SEG_TOTALS_AT_ENDS_FROM] = {(size_t)1 << 25,
                                      "bench/results/nvidia-h100-segtile/NOTE.md (segment "
                                      "totals at ends): 15% slower to 2^20, +5% at 2^24, "
                                      "-10% at 2^26, -16% at 2^28"},
    [TUNE_MULTIWORD_LB_BELOW] = {(size_t)1 << 20,
                                 "bench/results/nvidia-h100-partition-topk/NOTE.md (by key): "
                                 "one pass 2x faster at 2^16-2^18, even at 2^20, slower above"},
    /* The one-pass partition writes every element in its pass and then
     * reverses the rejected ones: fewer launches, more traffic. */
    [TUNE_PARTITION_ONE_PASS_BELOW] = {(size_t)1 << 23,
                                       "bench/results/nvidia-h100-partition-topk/NOTE.md: one "
                                       "pass 41-65% faster to 2^22, 6% slower at 2^24"},
    /* A work-group a segment needs enough segments to fill the device (an
     * H200 has 132 multiprocessors). H200, segments of 65536-131072 keys,
     * batch / a work-group each (ms): 42 segments 0.50 / 0.89, 170
     * segments 1.37 / 1.29, 680 5.19 / 2.88, 2730 20.3 / 9.4 (1.12x CUB). */
    [TUNE_SEGSORT_GROUPS_FROM] = {128, "bench/results/nvidia-h200-segsort-groups/NOTE.md "
                                       "(crossing between 42 and 170 segments)"},
    /* Below 2^22 the tiles were no faster than the lifted pass. H200, uint32
     * keys in runs of 1-2048 (and uint32 values added), lifted / tiles with
     * the join (two launches), ms: reduce by key 2^20 0.015 / 0.023, 2^22
     * 0.029 / 0.030, 2^24 0.084 / 0.070; the encoding 2^20 0.014 / 0.022,
     * 2^22 0.026 / 0.027, 2^24 0.067 / 0.056. The tiles whose look-back
     * carries the totals (one launch) at 2^22: reduce by key 0.023, the
     * encoding 0.021, against the lifted 0.029 / 0.027; below 2^22 not
     * measured. */
    [TUNE_BYKEY_TILES_FROM] = {1L << 22, "bench/results/nvidia-h200-bykey-tiles/NOTE.md "
                                         "(crossing at about 2^22)"},
    /* H200, uint32 keys in runs of 1-2048 (and uint32 values added), the
     * look-back's carry / head counts and the lifted scan's join, ms:
     * reduce by key 2^25 0.114 / 0.124, 2^26 0.212 / 0.214, 2^27 0.412 /
     * 0.392, 2^28 0.806 / 0.748; the encoding 2^25 0.087 / 0.092, 2^26
     * 0.163 / 0.151, 2^28 0.612 / 0.510. */
    [TUNE_BYKEY_SCAN_JOIN_FROM] = {1L << 26, "bench/results/nvidia-h200-bykey-join/NOTE.md "
                                             "(crossing at about 2^26)"},
    [TUNE_SEGSORT_ALONE_FROM] = {1L << 22, "bench/results/nvidia-h100-new-prims/NOTE.md "
                                           "(sort_keys); estimate, no recorded crossing"},
    /* One launch instead of two saves a launch and the gap before it (H200,
     * uint32 add, tiles of 8192: 2^16-2^20 1.4-2.3x faster, 2^22 1.7x, 2^24
     * 7%); from 8192 tiles the last work-group's reads of every tile's total
     * cost more than that (2^26: 28% slower). Below 4 tiles one work-group
     * walking them all is faster (2 tiles: 7.8 us against 8.7; 8 tiles:
     * 15.0 against 8.7; a crossing at about 4 from those two). */
    [TUNE_REDUCE_LAST_MIN_TILES] = {4, "bench/results/nvidia-h200-reduce-histogram/NOTE.md "
                                       "(crossing estimated between 2 and 8 tiles)"},
    [TUNE_REDUCE_LAST_MAX_TILES] = {2048, "bench/results/nvidia-h200-reduce-histogram/NOTE.md"},
    /* A partition launch costs its launch and gap; the work-group's own
     * search (rounds of a probe per work-item and diagonal) costs every
     * work-group its rounds' latency and probes. H200, uint32, partition
     * launch / own search, ms: merge of keys 2^16 0.0257 / 0.0117, 2^20
     * 0.0272 / 0.0149 (256 parts), 2^22 0.0360 / 0.0336 (1024), 2^24
     * 0.0848 / 0.1150; of pairs (tiles of 2048) 2^20 0.0301 / 0.0192 (512),
     * 2^22 0.0576 / 0.0607 (2048); the comparator sort 2^20 0.258 /
     * 0.134, 2^22 0.352 / 0.336. */
    [TUNE_MERGE_SEARCH_MAX_PARTS] = {512, "bench/results/nvidia-h200-merge-tile/NOTE.md "
                                          "(run4; crossing between 512 and 2048 parts)"},
    /* The one-sweep sort's read back of the keys' bounds (which digits
     * differ) waits for the queue: on an H200 it cost 36-50 us at every size
     * from 2^22 to 2^26 (uniform keys: 2^22 0.186 ms without it, 0.227 with
     * it). A sweep over a digit every key shares copies its tile instead
     * (sort.cl, sk_os_copy_tile), so without the read-back such a digit costs
     * a copy: for 4-byte keys less than the wait below about 2^24 keys,
     * and uniform keys, the common case, gain 14-29% at 2^22-2^24 and 4% at
     * 2^26 without the wait (8-byte keys: the rows above). */
    [TUNE_SORT_SKIP_FROM] = {1L << 26, "bench/results/nvidia-h200-reduce-histogram/NOTE.md "
                                       "(the sort's read-back)"},
};

/* What a lookup is for. */
typedef struct tune_query {
    const sk_context *ctx;
    sk_shape shape;
    sk__family family;
    size_t elem_size;
} tune_query;

static bool row_applies(const tune_row *r, const tune_query *q)
{
    const sk_context *ctx = q->ctx;
    int device_class = ctx->desc.is_gpu ? GPU_DEVICE : CPU_DEVICE;
    return (!r->vendor || sk__contains_nocase(ctx->desc.platform_name, r->vendor)) &&
           (!r->device || sk__contains_nocase(ctx->desc.device_name, r->device)) &&
           (r->device_class == ANY_DEVICE || r->device_class == device_class) &&
           (r->shape == SK_SHAPE_AUTO || r->shape == q->shape) &&
           (r->family == ANY_FAMILY || r->family == (int)q->family) &&
           (r->elem_size == 0 || r->elem_size == q->elem_size);
}

/* The first row's value for key that applies, else the key's default. */
static long tune(const tune_query *q, tune_key key)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].key == key && row_applies(&rows[i], q)) return rows[i].value;
    return defaults[key].value;
}

static size_t tune_size(const tune_query *q, tune_key key)
{
    long v = tune(q, key);
    return v > 0 ? (size_t)v : 0;
}

static size_t clamp_size(size_t v, size_t lo, size_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Entry `key`: the decimal number in $`var` where it is set (at most
 * UINT32_MAX), else the table's. For the entries measured by setting them
 * from outside: the look-back's spin bound ($SCANKIT_LB_SPIN, 0: wait
 * forever), top-k's narrowing ($SCANKIT_TOPK_NARROW_TILES) and whole sort
 * ($SCANKIT_TOPK_SORT_BELOW), segment
 * totals at segment ends ($SCANKIT_SEG_TOTALS_AT_ENDS_FROM) and by a
 * work-group per segment ($SCANKIT_SEG_GROUPS_FROM, and its offsets' check in
 * the same launch, $SCANKIT_SEG_GROUPS_CHECK_MAX; tests force both), the
 * reduce in one launch ($SCANKIT_REDUCE_LAST_MAX_TILES, 0: never), the merge's
 * splits found by its own work-groups ($SCANKIT_MERGE_SEARCH_MAX_PARTS, 0:
 * never; tests force both). */
static unsigned long tune_env(const tune_query *q, const char *var, tune_key key)
{
    const char *env = getenv(var);
    if (env && *env) {
        char *end = NULL;
        unsigned long v = strtoul(env, &end, 10);
        if (*end == '\0') return v < UINT32_MAX ? v : UINT32_MAX;
    }
    return (unsigned long)tune_size(q, key);
}

/* GPU shape: the work-group and items per work-item, fitted to the
 * device's work-group limit and local memory (the tile and the work-group
 * sums). */
static void gpu_shape(const tune_query *q, sk__tuning *t)
{
    const sk_context *ctx = q->ctx;
    size_t elem_size = q->elem_size;
    size_t wg = ctx->wg_param ? (size_t)ctx->wg_param : tune_size(q, TUNE_WG);
    while (wg > ctx->max_wg_size && wg > 1) wg /= 2;
    while (wg > 1 && (wg * 2 + 2 * wg) * elem_size > ctx->local_mem_bytes) wg /= 2;
    size_t items = ctx->items_param ? (size_t)ctx->items_param : tune_size(q, TUNE_ITEMS);
    if (items == 0)
        items = clamp_size(tune_size(q, TUNE_TILE_BYTES) / (wg * elem_size), 1,
                           tune_size(q, TUNE_MAX_ITEMS));
    while (items > 1 && (wg * items * 33 / 32 + 1 + 2 * wg) * elem_size > ctx->local_mem_bytes)
        items /= 2;
    if (wg * items < 2) items = 2;   /* a tile of one element would never shrink */
    t->wg_size = wg;
    t->items = items;
}

/* CPU shape: chunks, the serial threshold, the single pass's chunks and
 * stores. */
static void cpu_shape(const tune_query *q, sk__tuning *t)
{
    const sk_context *ctx = q->ctx;
    size_t cus = ctx->desc.compute_units ? ctx->desc.compute_units : 1;
    t->cpu_chunks = ctx->chunks_param ? (size_t)ctx->chunks_param
                                      : cus * tune_size(q, TUNE_CPU_CHUNKS_PER_CU);
    t->cpu_serial_below = ctx->serial_below_param ? (size_t)ctx->serial_below_param
                                                  : tune_size(q, TUNE_CPU_SERIAL_BELOW);
    t->cpu_lb_chunk = ctx->chunks_param ? 0 : tune_size(q, TUNE_CPU_LB_CHUNK);
    t->cpu_stream_bytes = tune_size(q, TUNE_CPU_STREAM_BYTES);
}

sk__tuning sk__tuning_for(const sk_context *ctx, sk__family family, size_t elem_size)
{
    sk__tuning t;
    t.shape = ctx->shape_param;
    if (t.shape == SK_SHAPE_AUTO) t.shape = ctx->desc.is_gpu ? SK_SHAPE_GPU : SK_SHAPE_CPU;
    tune_query q = {ctx, t.shape, family, elem_size ? elem_size : 1};
    gpu_shape(&q, &t);
    cpu_shape(&q, &t);
    t.scan_path = ctx->scan_path_param;
    t.single_max_tiles = tune_size(&q, TUNE_SINGLE_MAX_TILES);
    t.stride_groups = tune_size(&q, TUNE_STRIDE_GROUPS);
    t.radix_bits = (unsigned)tune_size(&q, TUNE_RADIX_BITS);
    t.pairs32_items = tune_size(&q, TUNE_PAIRS32_ITEMS);
    t.poll_volatile = tune(&q, TUNE_POLL_VOLATILE) != 0;
    t.lb_spin = tune_env(&q, "SCANKIT_LB_SPIN", TUNE_LB_SPIN);
    t.topk_narrow_tiles = tune_env(&q, "SCANKIT_TOPK_NARROW_TILES", TUNE_TOPK_NARROW_TILES);
    t.topk_sort_below = tune_env(&q, "SCANKIT_TOPK_SORT_BELOW", TUNE_TOPK_SORT_BELOW);
    t.partition_one_pass_below =
        tune_env(&q, "SCANKIT_PARTITION_ONE_PASS_BELOW", TUNE_PARTITION_ONE_PASS_BELOW);
    t.multiword_lb_below = tune_size(&q, TUNE_MULTIWORD_LB_BELOW);
    t.wide_lb_below = tune_size(&q, TUNE_WIDE_LB_BELOW);
    t.seg_groups_from = tune_env(&q, "SCANKIT_SEG_GROUPS_FROM", TUNE_SEG_GROUPS_FROM);
    t.seg_groups_check_max =
        tune_env(&q, "SCANKIT_SEG_GROUPS_CHECK_MAX", TUNE_SEG_GROUPS_CHECK_MAX);
    t.seg_totals_at_ends_from =
        tune_env(&q, "SCANKIT_SEG_TOTALS_AT_ENDS_FROM", TUNE_SEG_TOTALS_AT_ENDS_FROM);
    t.wg_scan_warps = tune(&q, TUNE_WG_SCAN_WARPS) != 0;
    t.lines_bytes = ctx->sort_lines_param ? (size_t)ctx->sort_lines_param
                                          : tune_size(&q, TUNE_LINES_BYTES);
    t.prefetch = tune(&q, TUNE_PREFETCH) != 0;
    t.sort_bucket_bytes = ctx->sort_bucket_param ? (size_t)ctx->sort_bucket_param
                                                 : tune_size(&q, TUNE_SORT_BUCKET_BYTES);
    t.sort_skip_from = ctx->sort_skip_param ? (size_t)ctx->sort_skip_param
                                            : tune_size(&q, TUNE_SORT_SKIP_FROM);
    t.sort_small_below = tune_size(&q, TUNE_SORT_SMALL_BELOW);
    t.sort_small_items = tune_size(&q, TUNE_SORT_SMALL_ITEMS);
    t.points_scan_below = tune_size(&q, TUNE_POINTS_SCAN_BELOW);
    t.points_scan_degree = tune_size(&q, TUNE_POINTS_SCAN_DEGREE);
    t.segsort_cpu_tile = tune_size(&q, TUNE_SEGSORT_CPU_TILE);
    t.segsort_alone_from = tune_size(&q, TUNE_SEGSORT_ALONE_FROM);
    t.segsort_groups_from = tune_env(&q, "SCANKIT_SEGSORT_GROUPS_FROM", TUNE_SEGSORT_GROUPS_FROM);
    t.bykey_tiles_from = tune_env(&q, "SCANKIT_BYKEY_TILES_FROM", TUNE_BYKEY_TILES_FROM);
    t.bykey_scan_join_from =
        tune_env(&q, "SCANKIT_BYKEY_SCAN_JOIN_FROM", TUNE_BYKEY_SCAN_JOIN_FROM);
    t.reduce_last_min_tiles = tune_size(&q, TUNE_REDUCE_LAST_MIN_TILES);
    t.reduce_last_max_tiles =
        tune_env(&q, "SCANKIT_REDUCE_LAST_MAX_TILES", TUNE_REDUCE_LAST_MAX_TILES);
    t.merge_search_max_parts =
        tune_env(&q, "SCANKIT_MERGE_SEARCH_MAX_PARTS", TUNE_MERGE_SEARCH_MAX_PARTS);
    return t;
}

/* cl_nv_device_attribute_query's CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV. */
#define NV_COMPUTE_CAPABILITY_MAJOR 0x4000

bool sk__tuning_warps(const sk_context *ctx)
{
    tune_query q = {ctx, SK_SHAPE_GPU, SK_FAMILY_SCAN, 4};
    long from = tune(&q, TUNE_WARPS_FROM_CC);
    cl_uint major = 0;
    return from > 0 &&
           clGetDeviceInfo(ctx->device, NV_COMPUTE_CAPABILITY_MAJOR, sizeof major, &major,
                           NULL) == CL_SUCCESS &&
           major >= (cl_uint)from;
}

bool sk__tuning_disk_cache(const sk_context *ctx)
{
    tune_query q = {ctx, SK_SHAPE_AUTO, ANY_FAMILY, 0};
    return tune(&q, TUNE_DISK_CACHE) != 0;
}

bool sk__tuning_complete(void)
{
    for (int key = 0; key < TUNE_KEY_COUNT; key++)
        if (!defaults[key].chosen_by) return false;
    return true;
}
