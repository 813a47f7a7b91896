/*
 * sort.c - LSD radix sort of keys, or of (key, value) pairs: validate,
 * plan, get the cached program, enqueue.
 *
 * Keys are sorted by their transformed bits (kernels/sort.cl: sign flips
 * for signed integers, IEEE totalOrder for floats, everything inverted for
 * descending order), digit by digit from the least significant end. Before
 * the passes, one kernel computes the AND and the OR of all transformed
 * keys; bits where they agree are the same in every key, so the passes
 * cover only the span of bits that differ and skip every digit inside it
 * that is constant. (On the CPU shape that kernel also counts the lowest
 * digit of the bit range, the first pass's histogram whenever the lowest
 * bit differs between keys.) Each pass:
 *   1. a digit histogram per part (a chunk on the CPU shape, a tile on the
 *      GPU shape), digit-major;
 *   2. an exclusive scan of the histograms with sk_scan_exclusive (the
 *      library's own scan: uint32 counts, uint64 from n = 2^32 on);
 *   3. a stable scatter from one buffer to the other.
 * On the GPU shape, sorts of fewer than 2^30 keys instead count every digit
 * in one read of the keys (scanned back to back with sk_scan_exclusive into
 * where each digit value starts) and then take one launch per digit
 * (Onesweep, Adinets & Merrill 2022): each tile ranks its keys in local
 * memory and finds, by decoupled look-back over the tiles' published digit
 * counts, where its keys of each digit value go (kernels/sort.cl). The
 * three-step passes stay for larger sorts and for SK_SCAN_PATH_REDUCE_THEN_SCAN.
 * The buffers alternate between the caller's and scratch, and an odd
 * number of passes ends with a copy back; keys-only sorts with an odd
 * number of passes (three or more) go through two scratch buffers instead
 * and need no copy (see pass_plan).
 */
#include "sk_internal.h"

#include <stdlib.h>
#include <string.h>

/* Digit widths of the CPU shape. Measured on the 2-core PoCL 3.1 machine
 * (Xeon, AVX-512; shared and loaded by other jobs, so variants ran
 * interleaved in one process, median of 3), 2^24 uniform uint32 keys,
 * device time, plain scatter (before the line buffers below):
 *   keys, one chunk (one core):  4 bits 412 ms, 8 bits 342 ms, 11 bits 288 ms
 *   keys, default chunks:        4 bits 226 ms, 8 bits 175 ms, 11 bits 153 ms
 *   pairs (uint32 values):       8 bits 707 ms, 9 bits 738 ms, 11 bits 827 ms
 *                                (a loaded moment: compare within the row)
 * With the line buffers (kernel time, median of 5-7): keys 11 bits 310 ms
 * against 8 bits 372 (loaded, load 3.2); pairs 8 bits 119 ms, 10 bits 152,
 * 11 bits 135 (load 0.7-0.9). 11 bits make 32-bit keys three passes
 * instead of four (64-bit: six, not eight); with values every digit has
 * two streams of lines, and 8 bits win. */
#define CPU_RADIX_BITS_KEYS 11
#define CPU_RADIX_BITS_PAIRS 8
/* CPU devices, CPU shape: sorts whose keys and values take at least this
 * many bytes scatter through line buffers written by non-temporal stores
 * (kernels/sort.cl, sk_sort_scatter_lines). Kernel time of the line scatter
 * against the plain one on the same machine, keys (11 bits) / pairs (8
 * bits): 2^18 2.1 vs 1.6 / 3.7 vs 5.2 ms; 2^19 5.4 vs 5.4 / 4.6 vs 7.1;
 * 2^20 5.8 vs 6.8 / 7.5 vs 12.3; 2^24 79-84 vs 145-148 / 112-121 vs 246
 * (load 0.6-0.9, bench/NOTES-cpu.md). The same lines written by plain stores were slower
 * than the plain scatter at every size (2^24: 186 ms). */
#define CPU_LINES_BYTES ((size_t)4 << 20)
/* Elements per line (kernels/sort.cl: SK_LINE); CPU chunks are multiples. */
#define CPU_LINE 16
/* The line scatter also counts the next pass's digits per source and
 * destination chunk (parts x parts x radix counts), which saves that
 * pass's read of the keys (2^24 keys: 86.5 ms against 96.9 with the
 * histogram pass); above this many counts (more than 32 chunks at 11
 * bits) the histogram pass stays. */
#define CPU_FUSED_MAX_COUNTS ((size_t)1 << 21)
/* Digit width of the GPU shape. Each pass ranks a tile's keys by stable
 * local splits of two digit bits each (one work-group scan of four packed
 * counts per split). Measured on an H200, 2^28 uniform uint32 keys
 * (bench/NOTES-gpu.md): 4-bit digits with 1-bit splits 39.7 ms, 4-bit
 * with 2-bit splits 30.4 ms, 8-bit with 1-bit splits 33.1 ms, 8-bit with
 * 2-bit splits 23.1 ms (half the passes, the same split work per key). */
#define GPU_RADIX_BITS 8
/* Pairs of 4-byte keys and 4-byte values ranked by warp votes take 17
 * items per work-item, the most whose keys and values fit in 48 KiB of
 * local memory beside the warp counters. H200, 2^28 uniform keys, a
 * scratch timer, two rounds in one command (bench/NOTES-gpu.md): 9.87 /
 * 9.86 ms against 10.09 / 10.11 at 16; keys alone keep 16 (7.24 against
 * 7.45 at 17). */
#define GPU_PAIRS32_ITEMS 17
/* The split packs counts in 16 bits: tiles stay below 2^16 keys. */
#define GPU_MAX_TILE_KEYS 65535
/* GPU shape, three steps per digit: work-groups of the AND/OR pass (each
 * strides over the keys; 256 took 1.6 ms over 2^28 keys on an H100, too
 * few loads in flight). */
#define GPU_BOUNDS_GROUPS 1024
/* GPU shape, one sweep per digit: the look-back words hold counts in 30
 * bits, so that path takes n < 2^30 (larger sorts take the three-step
 * passes); work-groups of the pass that counts every digit at once (and
 * finds the keys' AND and OR on the way). */
#define GPU_ONESWEEP_MAX_KEYS (((size_t)1 << 30) - 1)
#define GPU_DIGIT_HIST_GROUPS 1024
/* How the one-sweep kernel reads the look-back words of other tiles: OpenCL
 * 1.2 has no atomic load, so by default an atomic or of 0 (portable; what
 * the Oclgrind check runs). On NVIDIA GPUs by a volatile 32-bit load
 * (SK_OS_POLL_VOLATILE; a relaxed load in the PTX memory model, so it sees
 * each atomic write whole): 2^28 uniform uint32 keys sorted in 11.1 ms
 * instead of 12.3 ms on an H100 (bench/NOTES-gpu.md). */
static bool polls_volatile(const sk_context *ctx)
{
    return ctx->desc.is_gpu && strstr(ctx->desc.platform_name, "NVIDIA") != NULL;
}

/* Whether the one-sweep kernel ranks by warp vote instructions (inline
 * PTX): NVIDIA GPUs of compute capability 7.0 and up, work-groups of whole
 * warps (32 work-items). Elsewhere, and where that program does not build,
 * the portable ranking by local splits. */
static bool ranks_by_warp_match(const sk_context *ctx, size_t wg_size)
{
    return ctx->nv_warps && wg_size % 32 == 0;
}

/* ---- requests ------------------------------------------------------------ */

typedef struct sort_req {
    sk_type key_type;
    size_t value_size;            /* 0: keys only */
    size_t n;
    sk_sort_order order;
    unsigned begin_bit, end_bit;
} sort_req;

static const struct {
    const char *cl;               /* the key's bits as an OpenCL C type */
    unsigned bits;
    int kind;                     /* 0 unsigned, 1 signed, 2 float */
} key_types[SK_TYPE_COUNT] = {
    [SK_INT32] = {"uint", 32, 1},    [SK_UINT32] = {"uint", 32, 0},
    [SK_INT64] = {"ulong", 64, 1},   [SK_UINT64] = {"ulong", 64, 0},
    [SK_FLOAT32] = {"uint", 32, 2},  [SK_FLOAT64] = {"ulong", 64, 2},
};

static sk_status validate_req(sk_context *ctx, const sort_req *r, bool pairs)
{
    if ((unsigned)r->key_type >= SK_TYPE_COUNT)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid key type %d", (int)r->key_type);
    if (r->order != SK_ASCENDING && r->order != SK_DESCENDING)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid sort order %d", (int)r->order);
    if (pairs && r->value_size != 4 && r->value_size != 8)
        return sk__fail(ctx, SK_E_INVALID_ARG, "value size %zu (must be 4 or 8)",
                        r->value_size);
    unsigned bits = key_types[r->key_type].bits;
    if (r->begin_bit >= r->end_bit || r->end_bit > bits)
        return sk__fail(ctx, SK_E_INVALID_ARG, "bit range [%u, %u) outside [0, %u)",
                        r->begin_bit, r->end_bit, bits);
    size_t ks = sk_type_size(r->key_type);
    size_t vs = r->value_size ? r->value_size : 1;
    if (r->n > SIZE_MAX / (ks > vs ? ks : vs))
        return sk__fail(ctx, SK_E_INVALID_ARG, "%zu keys overflow size_t", r->n);
    return sk__require_fp64(ctx, r->key_type);
}

static sk_status validate_buffers(sk_context *ctx, const sort_req *r, cl_mem keys,
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

typedef struct sort_plan {
    sk__tuning t;
    bool gpu;
    size_t key_size;
    unsigned radix_bits;
    size_t parts;                 /* chunks (CPU) or tiles (GPU) */
    size_t chunk;                 /* keys per part */
    size_t bound_parts;           /* parts of the AND/OR pass */
    bool wide;                    /* 64-bit counts */
    bool onesweep;                /* GPU shape: one sweep per digit (else three steps) */
    bool poll_volatile;           /* one sweep: look-back read by volatile loads */
    bool warp_match;              /* one sweep: ranking by warp match (inline PTX) */
    bool nt_lines;                /* CPU shape on a CPU device: the line scatter is built */
    bool lines;                   /* CPU shape: scatter through line buffers */
    bool fused;                   /* line scatter: counts the next pass's digits */
    const sk__program *prog;
} sort_plan;

enum { K_BOUNDS, K_HIST, K_SCATTER, K_ZERO, K_COUNT_DIGITS, K_ONESWEEP };

static const char *const gpu_kernels[] = {"sk_sort_bounds_groups", "sk_sort_hist_tiles",
                                          "sk_sort_scatter_tiles", "sk_sort_zero",
                                          "sk_sort_count_digits", "sk_sort_onesweep"};
static const char *const cpu_kernels[] = {"sk_sort_bounds_chunks", "sk_sort_hist_chunks",
                                          "sk_sort_scatter_chunks", "sk_sort_fold_chunks",
                                          "sk_sort_scatter_lines"};
/* The CPU program's kernels after the first three (with nt_lines only). */
enum { K_CPU_FOLD = 3, K_CPU_SCATTER_LINES = 4 };

static size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

/* Tile positions in the one-sweep kernel's local memory (kernels/sort.cl:
 * SK_OS_PAD, a padding word per 32). */
static size_t padded_tile(size_t tile) { return tile + tile / 32; }

/* ulong4 words of the one-sweep kernel's staging area: the tile's keys,
 * later its values. */
static size_t onesweep_stage_words(size_t wg, size_t items, size_t key_size,
                                   size_t value_size)
{
    size_t tile = padded_tile(wg * items);
    return div_up(tile * (key_size > value_size ? key_size : value_size), 32);
}

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

/* Halves the items per work-item until the GPU shape's local memory and
 * tile limits hold. */
static void fit_items(sort_plan *p, const sk_context *ctx, size_t value_size)
{
    while (p->gpu && p->t.items > 1 &&
           (gpu_local_bytes(p, value_size) > ctx->local_mem_bytes ||
            p->t.wg_size * p->t.items > GPU_MAX_TILE_KEYS))
        p->t.items /= 2;
}

static void split_parts(sort_plan *p, size_t n)
{
    if (p->gpu) {
        p->chunk = p->t.wg_size * p->t.items;
        p->parts = div_up(n, p->chunk);
        p->bound_parts = p->parts < GPU_BOUNDS_GROUPS ? p->parts : GPU_BOUNDS_GROUPS;
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
static void plan_lines(sort_plan *p, const sk_context *ctx, const sort_req *r)
{
    size_t bytes = r->n * (p->key_size + r->value_size);
    size_t from = ctx->sort_lines_param ? (size_t)ctx->sort_lines_param : CPU_LINES_BYTES;
    p->nt_lines = !p->gpu && (ctx->sort_lines_param != 0 || !ctx->desc.is_gpu);
    p->lines = p->nt_lines && bytes >= from;
    p->fused = p->lines && p->parts * p->parts <= CPU_FUSED_MAX_COUNTS >> p->radix_bits;
}

static sort_plan plan_for(sk_context *ctx, const sort_req *r)
{
    sort_plan p = {0};
    p.key_size = sk_type_size(r->key_type);
    p.t = sk__tuning_for(ctx, SK_FAMILY_OTHER, p.key_size);
    p.gpu = p.t.shape == SK_SHAPE_GPU;
    p.radix_bits = p.gpu                ? GPU_RADIX_BITS
                   : r->value_size != 0 ? CPU_RADIX_BITS_PAIRS
                                        : CPU_RADIX_BITS_KEYS;
    /* The bounds pass keeps two keys per work-item in local memory. */
    while (p.gpu && p.t.wg_size > 1 && 2 * p.t.wg_size * p.key_size > ctx->local_mem_bytes)
        p.t.wg_size /= 2;
    p.wide = r->n > UINT32_MAX;
    p.onesweep = p.gpu && r->n <= GPU_ONESWEEP_MAX_KEYS &&
                 p.t.scan_path != SK_SCAN_PATH_REDUCE_THEN_SCAN;
    p.poll_volatile = polls_volatile(ctx);
    p.warp_match = p.onesweep && ranks_by_warp_match(ctx, p.t.wg_size);
    if (p.warp_match && !ctx->items_param && p.key_size == 4 && r->value_size == 4)
        p.t.items = GPU_PAIRS32_ITEMS;
    fit_items(&p, ctx, r->value_size);
    split_parts(&p, r->n);
    plan_lines(&p, ctx, r);
    return p;
}

/* ---- programs ------------------------------------------------------------- */

static char *sort_config(const sort_plan *p, const sort_req *r)
{
    sk__str s = {0};
    sk__str_addf(&s, "#define SK_KEY_T %s\n#define SK_KEY_BITS %u\n#define SK_KEY_KIND %d\n",
                 key_types[r->key_type].cl, key_types[r->key_type].bits,
                 key_types[r->key_type].kind);
    sk__str_addf(&s, "#define SK_COUNT_T %s\n#define SK_RADIX_BITS %u\n",
                 p->wide ? "ulong" : "uint", p->radix_bits);
    if (r->value_size)
        sk__str_addf(&s, "#define SK_VAL_T %s\n#define SK_VAL_BITS %zu\n",
                     r->value_size == 8 ? "ulong" : "uint", 8 * r->value_size);
    if (p->gpu)
        sk__str_addf(&s, "#define SK_SHAPE_GPU 1\n#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                     p->t.wg_size, p->t.items);
    if (p->gpu && !p->wide)
        sk__str_addf(&s, "#define SK_ONESWEEP 1\n#define SK_MAX_DIGITS %zu\n"
                         "#define SK_OS_STAGE_ULONG4 %zu\n",
                     div_up(key_types[r->key_type].bits, p->radix_bits),
                     onesweep_stage_words(p->t.wg_size, p->t.items, p->key_size, r->value_size));
    if (p->gpu && !p->wide && p->poll_volatile) sk__str_addf(&s, "#define SK_OS_POLL_VOLATILE 1\n");
    if (p->gpu && !p->wide && p->warp_match)
        sk__str_addf(&s, "#define SK_OS_WARP_MATCH 1\n%s\n", sk__source_text("warp"));
    if (!p->gpu)
        sk__str_addf(&s, "#define SK_SHAPE_CPU 1\n");
    if (p->nt_lines) sk__str_addf(&s, "#define SK_NT_LINES 1\n");
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static sk_status sort_program(sk_context *ctx, sort_plan *p, const sort_req *r)
{
    char *config = sort_config(p, r);
    if (!config) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "sort configuration");
    unsigned kernels = p->gpu && !p->wide ? 6 : p->nt_lines ? 5 : 3;
    sk_status st = sk__program_get(ctx, "sort", config, p->gpu ? gpu_kernels : cpu_kernels,
                                   kernels, &p->prog);
    free(config);
    if (st == SK_E_BUILD && p->warp_match) {
        /* A driver that takes no inline PTX: the portable ranking. */
        p->warp_match = false;
        fit_items(p, ctx, r->value_size);
        split_parts(p, r->n);
        return sort_program(ctx, p, r);
    }
    return st;
}

/* Builds (or finds) the program; on the GPU shape lowers the work-group
 * size until every kernel can run it. */
static sk_status open_program(sk_context *ctx, sort_plan *p, const sort_req *r)
{
    sk_status st = sort_program(ctx, p, r);
    bool lowered = p->gpu;
    while (st == SK_OK && lowered) {
        st = sk__fit_wg(ctx, p->prog, "sort", &p->t.wg_size, &lowered);
        if (st != SK_OK || !lowered) break;
        split_parts(p, r->n);
        st = sort_program(ctx, p, r);
    }
    return st;
}

/* ---- kernel arguments ------------------------------------------------------ */

typedef struct arg_list {
    sk_context *ctx;
    cl_kernel k;
    cl_uint next;
    sk_status st;
} arg_list;

static void arg(arg_list *a, size_t size, const void *value)
{
    if (a->st == SK_OK) a->st = sk__set_arg(a->ctx, a->k, a->next++, size, value);
}

static void arg_mem(arg_list *a, cl_mem m) { arg(a, sizeof m, &m); }

static void arg_ulong(arg_list *a, size_t v)
{
    cl_ulong u = v;
    arg(a, sizeof u, &u);
}

static void arg_uint(arg_list *a, unsigned v)
{
    cl_uint u = v;
    arg(a, sizeof u, &u);
}

/* A key-typed scalar (SK_KEY_T is uint or ulong). */
static void arg_key(arg_list *a, size_t key_size, uint64_t v)
{
    cl_uint u32 = (cl_uint)v;
    cl_ulong u64 = v;
    if (key_size == 4) arg(a, sizeof u32, &u32);
    else arg(a, sizeof u64, &u64);
}

/* ---- the sort ---------------------------------------------------------------- */

/* One pass: sort by the digit (bits >> shift) & mask. */
typedef struct pass_digit {
    unsigned shift, mask;
} pass_digit;

typedef struct sort_job {
    sk_context *ctx;
    const sort_req *r;
    sort_plan p;
    uint64_t flip;                /* XOR-ed onto transformed keys */
    cl_mem hist;
    pass_digit first;             /* CPU shape: the digit the bounds pass counts */
    cl_mem state;                 /* one sweep per digit: look-back state */
    size_t state_words;
    cl_mem aux;                   /* CPU line scatter: lines, next digit's counts */
} sort_job;

static sk_status launch(sort_job *j, unsigned kernel, size_t parts, const char *what,
                        unsigned shift, unsigned mask)
{
    size_t local = j->p.gpu ? j->p.t.wg_size : 1;
    return sk__launch(j->ctx, j->p.prog, kernel, parts * local, local,
                      "%s n=%zu parts=%zu chunk=%zu shift=%u mask=%u descending=%d", what,
                      j->r->n, parts, j->p.chunk, shift, mask, j->flip != 0);
}

/* Reads back the AND and OR of all transformed keys of `keys`. */
/* The AND and the OR over `parts` pairs of partials (AND, OR) on the device. */
static sk_status reduce_bounds(sort_job *j, cl_mem partials, size_t parts, uint64_t *and_out,
                               uint64_t *or_out)
{
    sk_context *ctx = j->ctx;
    size_t ks = j->p.key_size;
    sk_status st = SK_OK;
    unsigned char *host = malloc(2 * parts * ks);
    if (!host) SK_TRY(sk__fail(ctx, SK_E_OUT_OF_MEMORY, "sort: key bounds"));
    SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, partials, CL_TRUE, 0, 2 * parts * ks, host,
                                       0, NULL, NULL));
    uint64_t and_all = ~(uint64_t)0, or_all = 0;
    for (size_t i = 0; i < parts; i++) {
        uint64_t x = 0, y = 0;
        memcpy(&x, host + 2 * i * ks, ks); /* little-endian host and device */
        memcpy(&y, host + (2 * i + 1) * ks, ks);
        and_all &= x;
        or_all |= y;
    }
    *and_out = and_all;
    *or_out = or_all;
out:
    free(host);
    return st;
}

static sk_status key_bounds(sort_job *j, cl_mem keys, uint64_t *and_out, uint64_t *or_out)
{
    sk_context *ctx = j->ctx;
    size_t ks = j->p.key_size, parts = j->p.bound_parts;
    cl_mem partials = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SORT_AUX, 2 * parts * ks, &partials));
    arg_list a = {ctx, j->p.prog->kernels[K_BOUNDS], 0, SK_OK};
    arg_mem(&a, keys);
    arg_mem(&a, partials);
    if (!j->p.gpu) arg_mem(&a, j->hist);
    arg_ulong(&a, j->r->n);
    if (!j->p.gpu) {
        arg_ulong(&a, j->p.chunk);
        arg_ulong(&a, j->p.parts);
        arg_uint(&a, j->first.shift);
        arg_uint(&a, j->first.mask);
    }
    arg_key(&a, ks, j->flip);
    SK_TRY(a.st);
    SK_TRY(launch(j, K_BOUNDS, parts, "bounds", j->first.shift, j->first.mask));
    st = reduce_bounds(j, partials, parts, and_out, or_out);
out:
    return st;
}

/* Buffers of one pass: read from src, write to dst. */
typedef struct pass_bufs {
    cl_mem src_k, dst_k, src_v, dst_v;
} pass_bufs;

/* The arguments every scatter starts with: source and destination keys,
 * then values for pairs. */
static void arg_pass_bufs(arg_list *a, const sort_job *j, const pass_bufs *b)
{
    arg_mem(a, b->src_k);
    arg_mem(a, b->dst_k);
    if (j->r->value_size) {
        arg_mem(a, b->src_v);
        arg_mem(a, b->dst_v);
    }
}

static sk_status launch_hist(sort_job *j, cl_mem keys, unsigned shift, unsigned mask)
{
    arg_list a = {j->ctx, j->p.prog->kernels[K_HIST], 0, SK_OK};
    arg_mem(&a, keys);
    arg_mem(&a, j->hist);
    arg_ulong(&a, j->r->n);
    if (!j->p.gpu) arg_ulong(&a, j->p.chunk);
    arg_ulong(&a, j->p.parts);
    arg_uint(&a, shift);
    arg_uint(&a, mask);
    arg_key(&a, j->p.key_size, j->flip);
    if (a.st != SK_OK) return a.st;
    return launch(j, K_HIST, j->p.parts, "hist", shift, mask);
}

static sk_status launch_scatter(sort_job *j, const pass_bufs *b, unsigned shift,
                                unsigned mask)
{
    arg_list a = {j->ctx, j->p.prog->kernels[K_SCATTER], 0, SK_OK};
    arg_pass_bufs(&a, j, b);
    arg_mem(&a, j->hist);
    arg_ulong(&a, j->r->n);
    if (!j->p.gpu) arg_ulong(&a, j->p.chunk);
    arg_ulong(&a, j->p.parts);
    arg_uint(&a, shift);
    arg_uint(&a, mask);
    arg_key(&a, j->p.key_size, j->flip);
    if (a.st != SK_OK) return a.st;
    return launch(j, K_SCATTER, j->p.parts, "scatter", shift, mask);
}

/* CPU shape: the scatter through line buffers; it also counts the digit
 * `next` (mask 0: none) for the next pass. */
static sk_status launch_scatter_lines(sort_job *j, const pass_bufs *b, pass_digit pd,
                                      pass_digit next)
{
    arg_list a = {j->ctx, j->p.prog->kernels[K_CPU_SCATTER_LINES], 0, SK_OK};
    arg_pass_bufs(&a, j, b);
    arg_mem(&a, j->hist);
    arg_mem(&a, j->aux);
    arg_ulong(&a, j->r->n);
    arg_ulong(&a, j->p.chunk);
    arg_ulong(&a, j->p.parts);
    arg_uint(&a, pd.shift);
    arg_uint(&a, pd.mask);
    arg_uint(&a, next.shift);
    arg_uint(&a, next.mask);
    arg_key(&a, j->p.key_size, j->flip);
    if (a.st != SK_OK) return a.st;
    return launch(j, K_CPU_SCATTER_LINES, j->p.parts, "scatter lines", pd.shift, pd.mask);
}

/* CPU shape: the histogram from the previous line scatter's counts. */
static sk_status launch_fold(sort_job *j, pass_digit pd)
{
    arg_list a = {j->ctx, j->p.prog->kernels[K_CPU_FOLD], 0, SK_OK};
    arg_mem(&a, j->aux);
    arg_mem(&a, j->hist);
    arg_ulong(&a, j->p.parts);
    if (a.st != SK_OK) return a.st;
    return launch(j, K_CPU_FOLD, j->p.parts, "fold", pd.shift, pd.mask);
}

/* Where a pass's histogram comes from. */
typedef enum hist_source {
    HIST_READ,                    /* a histogram pass over the keys */
    HIST_READY,                   /* already in j->hist: the bounds pass counted it */
    HIST_FOLD                     /* counted by the previous pass's line scatter */
} hist_source;

/* A pass by the digit pd; its scatter counts `next` (mask 0: none). */
static sk_status run_pass(sort_job *j, const pass_bufs *b, pass_digit pd, hist_source from,
                          pass_digit next)
{
    size_t count = ((size_t)1 << j->p.radix_bits) * j->p.parts;
    sk_status st = SK_OK;
    if (from == HIST_READ) st = launch_hist(j, b->src_k, pd.shift, pd.mask);
    else if (from == HIST_FOLD) st = launch_fold(j, pd);
    if (st == SK_OK)
        st = sk_scan_exclusive(j->ctx, j->p.wide ? SK_UINT64 : SK_UINT32, SK_OP_ADD, j->hist,
                               j->hist, count);
    if (st != SK_OK) return st;
    return j->p.lines ? launch_scatter_lines(j, b, pd, next)
                      : launch_scatter(j, b, pd.shift, pd.mask);
}

/* Where pass i's histogram comes from. */
static hist_source hist_source_of(const sort_job *j, const pass_digit *passes, unsigned i)
{
    if (i > 0) return j->p.fused ? HIST_FOLD : HIST_READ;
    bool first = !j->p.gpu && passes[0].shift == j->first.shift &&
                 passes[0].mask == j->first.mask;
    return first ? HIST_READY : HIST_READ;
}

/* The digit that pass i's scatter counts for the next pass (mask 0: none). */
static pass_digit next_counted(const sort_job *j, const pass_digit *passes, unsigned i,
                               unsigned count)
{
    return j->p.fused && i + 1 < count ? passes[i + 1] : (pass_digit){0, 0};
}

/* CPU line scatter: every chunk's key and value lines, then the counts of
 * the next digit when the scatter takes them (kernels/sort.cl,
 * sk_chunk_lines). The slot held the bounds pass's partials, already read
 * back. */
static sk_status open_lines(sort_job *j)
{
    size_t radix = (size_t)1 << j->p.radix_bits, parts = j->p.parts;
    size_t bytes = parts * radix * CPU_LINE * (j->p.key_size + j->r->value_size);
    if (j->p.fused) bytes += parts * parts * radix * (j->p.wide ? 8 : 4);
    return sk__scratch_get(j->ctx, SK_SLOT_SORT_AUX, bytes, &j->aux);
}

/* ---- one sweep per digit (GPU shape) ---------------------------------------------- */

/* words[0 .. count) of `mem` = 0. */
static sk_status zero_words(sort_job *j, cl_mem mem, size_t count)
{
    size_t local = j->p.t.wg_size;
    size_t groups = div_up(count, local);
    if (groups > GPU_DIGIT_HIST_GROUPS) groups = GPU_DIGIT_HIST_GROUPS;
    arg_list a = {j->ctx, j->p.prog->kernels[K_ZERO], 0, SK_OK};
    arg_mem(&a, mem);
    arg_ulong(&a, count);
    if (a.st != SK_OK) return a.st;
    return sk__launch(j->ctx, j->p.prog, K_ZERO, groups * local, local, "zero count=%zu", count);
}

/* One sweep per digit: the digits of the bit range, from begin_bit, each
 * rb bits wide but the last. */
static unsigned sweep_digits(const sort_job *j)
{
    return (unsigned)div_up(j->r->end_bit - j->r->begin_bit, j->p.radix_bits);
}

static unsigned sweep_mask(const sort_job *j, unsigned digit)
{
    unsigned rb = j->p.radix_bits, width = j->r->end_bit - j->r->begin_bit - digit * rb;
    return (1u << (width < rb ? width : rb)) - 1;
}

/* One sweep per digit: counts every digit of the bit range and finds the
 * keys' AND and OR in one read of the keys, then scans the counts, back to
 * back, into where each digit value starts. */
static sk_status count_digits(sort_job *j, cl_mem keys, uint64_t *and_out, uint64_t *or_out)
{
    sk_context *ctx = j->ctx;
    unsigned digits = sweep_digits(j);
    size_t words = (size_t)digits << j->p.radix_bits;
    size_t groups = j->p.parts < GPU_DIGIT_HIST_GROUPS ? j->p.parts : GPU_DIGIT_HIST_GROUPS;
    cl_mem partials = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SORT_AUX, 2 * groups * j->p.key_size, &partials));
    SK_TRY(zero_words(j, j->hist, words));
    arg_list a = {ctx, j->p.prog->kernels[K_COUNT_DIGITS], 0, SK_OK};
    arg_mem(&a, keys);
    arg_mem(&a, j->hist);
    arg_mem(&a, partials);
    arg_ulong(&a, j->r->n);
    arg_uint(&a, digits);
    arg_uint(&a, j->r->begin_bit);
    arg_uint(&a, sweep_mask(j, digits - 1));
    arg_key(&a, j->p.key_size, j->flip);
    SK_TRY(a.st);
    SK_TRY(launch(j, K_COUNT_DIGITS, groups, "digit counts", j->r->begin_bit,
                  sweep_mask(j, digits - 1)));
    SK_TRY(sk_scan_exclusive(ctx, SK_UINT32, SK_OP_ADD, j->hist, j->hist, words));
    st = reduce_bounds(j, partials, groups, and_out, or_out);
out:
    return st;
}

/* One sweep: sort by digit number `digit` (counted from begin_bit). */
static sk_status run_sweep(sort_job *j, const pass_bufs *b, unsigned digit, pass_digit pd)
{
    sk_context *ctx = j->ctx;
    sk_status st = SK_OK;
    SK_TRY(zero_words(j, j->state, j->state_words));
    arg_list a = {ctx, j->p.prog->kernels[K_ONESWEEP], 0, SK_OK};
    arg_pass_bufs(&a, j, b);
    arg_mem(&a, j->hist);
    arg_mem(&a, j->state);
    arg_ulong(&a, j->r->n);
    arg_uint(&a, digit);
    arg_uint(&a, pd.shift);
    arg_uint(&a, pd.mask);
    arg_key(&a, j->p.key_size, j->flip);
    SK_TRY(a.st);
    st = launch(j, K_ONESWEEP, j->p.parts, "sweep", pd.shift, pd.mask);
out:
    return st;
}

/* The look-back state: a tile counter and a word per tile and digit value. */
static sk_status open_sweep_state(sort_job *j)
{
    j->state_words = 1 + (j->p.parts << j->p.radix_bits);
    return sk__scratch_get(j->ctx, SK_SLOT_SORT_STATE, j->state_words * sizeof(cl_uint),
                           &j->state);
}

static unsigned lowest_bit(uint64_t x)
{
    unsigned b = 0;
    while (!((x >> b) & 1)) b++;
    return b;
}

static unsigned highest_bit(uint64_t x)
{
    unsigned b = 63;
    while (!((x >> b) & 1)) b--;
    return b;
}

static uint64_t range_mask(unsigned begin, unsigned end)
{
    uint64_t hi = end >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << end) - 1);
    return hi & ~(((uint64_t)1 << begin) - 1);
}

#define MAX_PASSES 64

/* One sweep per digit: the digits (from begin_bit, as counted) with bits
 * in `diff`; the others are skipped. */
static unsigned list_sweeps(const sort_job *j, uint64_t diff, pass_digit *out)
{
    unsigned count = 0;
    for (unsigned d = 0; d < sweep_digits(j); d++) {
        pass_digit pd = {j->r->begin_bit + d * j->p.radix_bits, sweep_mask(j, d)};
        if ((diff >> pd.shift) & pd.mask) out[count++] = pd;
    }
    return count;
}

/* The passes over the bits in `diff` (bits that differ between keys), one
 * digit at a time from the lowest differing bit; constant digits skipped.
 * @return their number. */
static unsigned list_passes(const sort_job *j, uint64_t diff, pass_digit *out)
{
    unsigned count = 0, rb = j->p.radix_bits;
    unsigned lo = lowest_bit(diff), hi = highest_bit(diff) + 1;
    for (unsigned shift = lo; shift < hi; shift += rb) {
        unsigned width = hi - shift < rb ? hi - shift : rb;
        unsigned mask = (1u << width) - 1;
        if ((diff >> shift) & mask) out[count++] = (pass_digit){shift, mask};
    }
    return count;
}

/* Where each pass writes. Keys only, with an odd number of passes (three or
 * more): through two scratch buffers, the last pass into the caller's, so
 * that no copy is needed (keys, A, B, A, ..., keys). Otherwise the caller's
 * buffers and one scratch alternate, and an odd number of passes ends with
 * a copy back. */
typedef struct pass_plan {
    cl_mem keys, values;          /* the caller's */
    cl_mem tmp_k, tmp_v;          /* scratch */
    cl_mem tmp_k2;                /* second key scratch, or NULL */
} pass_plan;

static pass_bufs pass_buffers(const pass_plan *pp, unsigned i, unsigned count)
{
    if (pp->tmp_k2) {
        cl_mem src = i == 0 ? pp->keys : i % 2 ? pp->tmp_k : pp->tmp_k2;
        cl_mem dst = i + 1 == count ? pp->keys : i % 2 ? pp->tmp_k2 : pp->tmp_k;
        return (pass_bufs){src, dst, NULL, NULL};
    }
    if (i % 2 == 0) return (pass_bufs){pp->keys, pp->tmp_k, pp->values, pp->tmp_v};
    return (pass_bufs){pp->tmp_k, pp->keys, pp->tmp_v, pp->values};
}

static sk_status run_passes(sort_job *j, const pass_plan *pp, const pass_digit *passes,
                            unsigned count)
{
    sk_context *ctx = j->ctx;
    sk_status st = SK_OK;
    if (j->p.onesweep) SK_TRY(open_sweep_state(j));
    if (j->p.lines) SK_TRY(open_lines(j));
    for (unsigned i = 0; i < count && st == SK_OK; i++) {
        pass_bufs b = pass_buffers(pp, i, count);
        unsigned digit = (passes[i].shift - j->r->begin_bit) / j->p.radix_bits;
        st = j->p.onesweep ? run_sweep(j, &b, digit, passes[i])
                           : run_pass(j, &b, passes[i], hist_source_of(j, passes, i),
                                      next_counted(j, passes, i, count));
    }
    if (st != SK_OK || pp->tmp_k2 || count % 2 == 0) return st;
    SK_CL_TRY(ctx, clEnqueueCopyBuffer(ctx->queue, pp->tmp_k, pp->keys, 0, 0,
                                       j->r->n * j->p.key_size, 0, NULL, NULL));
    if (j->r->value_size)
        SK_CL_TRY(ctx, clEnqueueCopyBuffer(ctx->queue, pp->tmp_v, pp->values, 0, 0,
                                           j->r->n * j->r->value_size, 0, NULL, NULL));
out:
    return st;
}

/* Scratch for the passes: the buffers of pass_plan. */
static sk_status open_scratch(sort_job *j, unsigned count, pass_plan *pp)
{
    sk_context *ctx = j->ctx;
    const sort_req *r = j->r;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SORT_KEYS, r->n * j->p.key_size, &pp->tmp_k));
    if (r->value_size)
        SK_TRY(sk__scratch_get(ctx, SK_SLOT_SORT_VALUES, r->n * r->value_size, &pp->tmp_v));
    else if (count % 2 == 1 && count >= 3)
        SK_TRY(sk__scratch_get(ctx, SK_SLOT_SORT_VALUES, r->n * j->p.key_size, &pp->tmp_k2));
out:
    return st;
}

/* Sorts validated buffers. */
static sk_status sort_run(sk_context *ctx, const sort_req *r, cl_mem keys, cl_mem values)
{
    if (r->n < 2) return SK_OK;
    sort_job j = {ctx, r, plan_for(ctx, r), 0, NULL, {0, 0}, NULL, 0, NULL};
    j.flip = r->order == SK_DESCENDING ? ~(uint64_t)0 : 0;
    if (j.p.key_size == 4) j.flip &= 0xffffffffu;
    pass_plan pp = {keys, values, NULL, NULL, NULL};
    pass_digit passes[MAX_PASSES];
    uint64_t and_all = 0, or_all = 0;
    sk_status st = SK_OK;
    unsigned width = r->end_bit - r->begin_bit;
    j.first = (pass_digit){r->begin_bit, (1u << (width < j.p.radix_bits ? width
                                                                        : j.p.radix_bits)) - 1};
    SK_TRY(open_program(ctx, &j.p, r));
    /* Histograms: per part and digit value (three steps), or per digit and
     * digit value (one sweep per digit). */
    size_t rows = j.p.onesweep ? div_up(key_types[r->key_type].bits, j.p.radix_bits) : j.p.parts;
    SK_TRY(sk__scratch_get(ctx, SK_SLOT_SORT_HIST,
                           (rows << j.p.radix_bits) * (j.p.wide ? 8 : 4), &j.hist));
    if (j.p.onesweep)
        SK_TRY(count_digits(&j, keys, &and_all, &or_all));
    else
        SK_TRY(key_bounds(&j, keys, &and_all, &or_all));
    uint64_t diff = (and_all ^ or_all) & range_mask(r->begin_bit, r->end_bit);
    if (diff == 0) return SK_OK;  /* every key has the same bits there */
    unsigned count = j.p.onesweep ? list_sweeps(&j, diff, passes) : list_passes(&j, diff, passes);
    SK_TRY(open_scratch(&j, count, &pp));
    st = run_passes(&j, &pp, passes, count);
out:
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status stage(sk_context *ctx, sk__slot slot, const void *src, size_t bytes,
                       cl_mem *mem)
{
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, slot, bytes, mem));
    SK_CL_TRY(ctx, clEnqueueWriteBuffer(ctx->queue, *mem, CL_FALSE, 0, bytes, src, 0, NULL,
                                        NULL));
out:
    return st;
}

static sk_status sort_host(sk_context *ctx, const sort_req *r, void *keys, void *values)
{
    bool pairs = r->value_size != 0;
    size_t kb = r->n * sk_type_size(r->key_type), vb = r->n * r->value_size;
    cl_mem km = NULL, vm = NULL;
    sk_status st = SK_OK;
    if (r->n < 2) return SK_OK;
    SK_TRY(stage(ctx, SK_SLOT_HOST, keys, kb, &km));
    if (pairs) SK_TRY(stage(ctx, SK_SLOT_HOST_VALUES, values, vb, &vm));
    SK_TRY(sort_run(ctx, r, km, vm));
    if (pairs)
        SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, vm, CL_FALSE, 0, vb, values, 0, NULL,
                                           NULL));
    SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, km, CL_TRUE, 0, kb, keys, 0, NULL, NULL));
out:
    if (st != SK_OK) clFinish(ctx->queue); /* no transfer may outlive the call */
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

static sk_status sort_mem(sk_context *ctx, const sort_req *r, cl_mem keys, cl_mem values,
                          bool pairs)
{
    if (!ctx) return SK_E_INVALID_ARG;
    sk__clear_error(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st == SK_OK) st = validate_buffers(ctx, r, keys, values, pairs);
    if (st == SK_OK) st = sort_run(ctx, r, keys, pairs ? values : NULL);
    return st;
}

static sk_status sort_host_checked(sk_context *ctx, const sort_req *r, void *keys,
                                   void *values, bool pairs)
{
    if (!ctx) return SK_E_INVALID_ARG;
    sk__clear_error(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st != SK_OK) return st;
    if (r->n && !keys) return sk__fail(ctx, SK_E_INVALID_ARG, "keys is NULL");
    if (pairs && r->n && !values) return sk__fail(ctx, SK_E_INVALID_ARG, "values is NULL");
    if (pairs && r->n && keys == values)
        return sk__fail(ctx, SK_E_INVALID_ARG, "keys and values are the same array");
    return sort_host(ctx, r, keys, pairs ? values : NULL);
}

static unsigned all_bits(sk_type t)
{
    return (unsigned)t < SK_TYPE_COUNT ? key_types[t].bits : 1;
}

sk_status sk_sort_keys(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                       sk_sort_order order)
{
    sort_req r = {key_type, 0, n, order, 0, all_bits(key_type)};
    return sort_mem(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_keys_bits(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                            sk_sort_order order, unsigned begin_bit, unsigned end_bit)
{
    sort_req r = {key_type, 0, n, order, begin_bit, end_bit};
    return sort_mem(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs(sk_context *ctx, sk_type key_type, cl_mem keys, size_t value_size,
                        cl_mem values, size_t n, sk_sort_order order)
{
    sort_req r = {key_type, value_size, n, order, 0, all_bits(key_type)};
    return sort_mem(ctx, &r, keys, values, true);
}

sk_status sk_sort_pairs_bits(sk_context *ctx, sk_type key_type, cl_mem keys,
                             size_t value_size, cl_mem values, size_t n, sk_sort_order order,
                             unsigned begin_bit, unsigned end_bit)
{
    sort_req r = {key_type, value_size, n, order, begin_bit, end_bit};
    return sort_mem(ctx, &r, keys, values, true);
}

sk_status sk_sort_keys_host(sk_context *ctx, sk_type key_type, void *keys, size_t n,
                            sk_sort_order order)
{
    sort_req r = {key_type, 0, n, order, 0, all_bits(key_type)};
    return sort_host_checked(ctx, &r, keys, NULL, false);
}

sk_status sk_sort_pairs_host(sk_context *ctx, sk_type key_type, void *keys,
                             size_t value_size, void *values, size_t n, sk_sort_order order)
{
    sort_req r = {key_type, value_size, n, order, 0, all_bits(key_type)};
    return sort_host_checked(ctx, &r, keys, values, true);
}
