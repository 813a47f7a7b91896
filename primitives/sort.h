/*
 * sort.h - what the radix sort's two host files share:
 *
 * sort.c       programs, launches, the passes
 * sort_plan.c  entry points, host-array forms, validation, the plan
 *
 * and what the merge (merge.c), the sorted search (search.c) and the
 * radix selection (topk.c) take from it: the keys' bits by type and the
 * checks of a key type, order and value size; the digit counts of the
 * selection (histogram.c).
 */
#ifndef SK_SORT_H
#define SK_SORT_H

#include "sk_internal.h"

/* Elements per line (kernels/sort.cl: SK_LINE); CPU chunks are multiples. */
#define CPU_LINE 16

/* ---- requests ------------------------------------------------------------ */

typedef struct sort_req {
    sk_type key_type;
    size_t value_size;            /* 0: keys only */
    size_t n;
    sk_sort_order order;
    unsigned begin_bit, end_bit;
} sort_req;

/* The keys' bits by type (kernels/sort.cl: SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND). */
static const struct {
    const char *cl;               /* the key's bits as an OpenCL C type */
    unsigned bits;
    int kind;                     /* 0 unsigned, 1 signed, 2 float */
} key_types[SK_KEY_TYPE_COUNT] = {
#define SORT_KEY_TYPE_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, ...) \
    [SK_##suffix] = {cl_bits, 8 * (bytes), (is_float) ? 2 : (is_signed) ? 1 : 0},
    SK_ALL_TYPES_MAP(SORT_KEY_TYPE_)
#undef SORT_KEY_TYPE_
};

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
    bool sweep_all;               /* one sweep: every digit swept, the keys' bounds never
                                     read back (below t.sort_skip_from keys) */
    bool poll_volatile;           /* one sweep: look-back read by volatile loads */
    bool warp_match;              /* one sweep: ranking by warp match (inline PTX) */
    bool nt_lines;                /* CPU shape on a CPU device: the line scatter is built */
    bool lines;                   /* CPU shape: scatter through line buffers */
    bool fused;                   /* line scatter: counts the next pass's digits */
    bool segments;                /* GPU shape: the program of segments sorted by a
                                     work-group each (sk__sort_segments) */
    const sk__program *prog;
} sort_plan;

static inline size_t div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

/* The bits [begin, end) of a 64-bit word set (begin < end <= 64). */
static inline uint64_t range_mask(unsigned begin, unsigned end)
{
    uint64_t hi = end >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << end) - 1);
    return hi & ~(((uint64_t)1 << begin) - 1);
}

/* The `flip` of a key of key_size bytes (kernels/sort_keys.cl): all of its
 * bits for descending order, else 0. */
static inline uint64_t sort_flip(sk_sort_order order, size_t key_size)
{
    uint64_t all = key_size >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * key_size)) - 1;
    return order == SK_DESCENDING ? all : 0;
}

/* n > 0 items in tiles of wg x items (GPU), or in cpu_chunks chunks (one
 * below the serial threshold; never more chunks than items): *chunk items
 * a part, *parts parts. The merge's outputs and the selection's keys. */
static inline void split_tiles(const sk__tuning *t, bool gpu, size_t n, size_t *chunk,
                               size_t *parts)
{
    size_t chunks = n < t->cpu_serial_below ? 1 : t->cpu_chunks;
    *chunk = gpu ? t->wg_size * t->items : div_up(n, chunks < n ? chunks : n);
    *parts = div_up(n, *chunk);
}

/* Tile positions in the one-sweep kernel's local memory (kernels/sort.cl:
 * block.cl's SK_PAD, a padding word per 32). */
static inline size_t padded_tile(size_t tile) { return tile + tile / 32; }

/* ulong4 words of the one-sweep kernel's staging area: the tile's keys,
 * later its values. */
static inline size_t onesweep_stage_words(size_t wg, size_t items, size_t key_size,
                                          size_t value_size)
{
    size_t tile = padded_tile(wg * items);
    return div_up(tile * (key_size > value_size ? key_size : value_size), 32);
}

/* ---- sort_plan.c -------------------------------------------------------------- */

/* SK_E_INVALID_ARG (with detail) for a key type, order or (pairs) value
 * size that the sort, and the merge, do not take. */
sk_status sk__sort_check_keys(sk_context *ctx, sk_type key_type, sk_sort_order order,
                              size_t value_size, bool pairs);

/* SK_E_INVALID_ARG, SK_E_SIZE or SK_E_UNSUPPORTED (with detail) for a
 * request the sort does not take: key type, order, value size, bit range,
 * a size that overflows, float64 without fp64. The segmented sort
 * (segsort.c) checks its requests by it too. */
sk_status sk__sort_validate(sk_context *ctx, const sort_req *r, bool pairs);

/* The keys (and, for pairs, values) buffers given, large enough for r->n
 * and distinct. */
sk_status sk__sort_check_buffers(sk_context *ctx, const sort_req *r, cl_mem keys,
                                 cl_mem values, bool pairs);

/* The bits of a key type (1 for an invalid type, which validation refuses):
 * the end of the whole bit range. */
unsigned sk__sort_all_bits(sk_type t);
/* The key's lines of a program's configuration (kernels/sort_keys.cl:
 * SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND), which the sort, the merge, the
 * search, the selection and its digit counts share. */
void sk__config_key(sk__str *s, sk_type key_type);

/* The values' type of a configuration, SK_VAL_T, for values of
 * value_size bytes (> 0): uint, ulong, or a struct of that many bytes
 * (sk_value_bytes). Moved as bits, never converted. */
void sk__config_value_type(sk__str *s, size_t value_size);

/* The shape's lines of a program of tiles (SK_SHAPE_GPU with SK_WG and
 * SK_ITEMS from t, or SK_SHAPE_CPU), the block layer, then sort_keys.cl:
 * the end of the merge's and the selection's configurations. */
void sk__config_tiles_keys(sk__str *s, const sk__tuning *t, bool gpu);

/* The plan of a validated request on the context's device. */
sort_plan sk__sort_plan_for(sk_context *ctx, const sort_req *r);

/* The plan of sk__sort_segments for r (n: the keys of all segments): a
 * sweep's tile on the GPU shape. */
sort_plan sk__sort_plan_segments(sk_context *ctx, const sort_req *r);

/* Halves the items per work-item until the GPU shape's local memory and
 * tile limits hold. */
void sk__sort_fit_items(sort_plan *p, const sk_context *ctx, size_t value_size);

/* The parts (chunks or tiles) of n keys, and the AND/OR pass's. */
void sk__sort_split_parts(sort_plan *p, size_t n);

/* ---- sort.c ------------------------------------------------------------------- */

/* Sorts validated buffers. */
sk_status sk__sort_run(sk_context *ctx, const sort_req *r, cl_mem keys, cl_mem values);

/* Segments of keys (and values) for sk__sort_segments: spans holds
 * 2 * count ulongs, each segment's start and end in the keys, the
 * segments apart and each shorter than SK_SORT_SEGMENT_MAX; lo and hi
 * bound them all (the scratch copy covers lo .. hi). */
typedef struct sk__sort_spans {
    cl_mem spans;
    size_t count;
    uint64_t lo, hi;
} sk__sort_spans;

#define SK_SORT_SEGMENT_MAX ((size_t)1 << 30)

/* GPU shape: sorts each segment of sp by the request r (key type, values,
 * order, bit range; n: the keys of all segments) in place, a work-group
 * a segment: one read counting every digit, then a launch per digit, no
 * look-back. The other keys are not touched. */
sk_status sk__sort_segments(sk_context *ctx, const sort_req *r, const sk__sort_spans *sp,
                            cl_mem keys, cl_mem values);

/* ---- histogram.c: the radix selection's digits (topk.c) ----------------------- */

/* The bins of one digit: the keys whose order bits (kernels/sort_keys.cl:
 * sk_key_bits with flip), where sel[1] (two uint64 words of a device
 * buffer) has ones, are below sel[0] fall in bin 0; those equal to it in
 * bin 1 + ((bits >> shift) & (bins - 2)), bins - 1 a power of two; those
 * above it in none. */
typedef struct sk__digit_bins {
    cl_mem sel;
    uint64_t flip;
    unsigned shift, bins;
} sk__digit_bins;

/* The counts of every part of a digit histogram: parts rows of bins uint32
 * in rows, row p counting keys [p * chunk, min((p + 1) * chunk, n)). They
 * live in the histogram's scratch until its next call. */
typedef struct sk__digit_rows {
    cl_mem rows;
    size_t parts, chunk;
} sk__digit_rows;

/* Counts the digits of n > 0 validated keys into counts (bins uint64),
 * as sk_histogram_even() counts its bins (asynchronous), and says where
 * the parts' rows are. */
sk_status sk__histogram_digits(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                               const sk__digit_bins *d, cl_mem counts, sk__digit_rows *rows);

/* ---- merge.c: the merge's launches (kernels/merge.cl) ---------------------- */

/* One merge launch pair: the splits of every part, then the parts merged.
 * prog holds sk_merge_partition (kernel k_partition) and sk_merge_tiles
 * (GPU shape, work-groups of wg) or sk_merge_chunks (CPU shape) (k_merge),
 * and on the GPU shape sk_merge_tiles_search (k_merge_search);
 * `parts` parts of `step` outputs; width 0: a (na keys) and b (nb) merged
 * into dst; width > 0: every pair of neighbouring sorted runs of width of a
 * (na keys, a == b, step dividing 2 * width) merged into dst; ngroups > 0
 * (width 0, a == b, na keys): the merges of a round of a merge of runs,
 * described from uint64 groups_at on in `groups` (kernels/merge.cl).
 * `flip` and `mask`: the kernels' order arguments of order_size bytes
 * (the radix sort's order by the bits of mask; a caller's less takes
 * neither). av NULL: keys only, else bv and dv with it. splits holds
 * parts + 1 uint64. On the GPU shape, where parts is at most
 * search_max_parts, no partition launch: k_merge_search's work-groups find
 * their own splits (splits unused).
 * Asynchronous. */
/* The local memory of a merge tile of `tile` keys of key_size bytes (the
 * merge's, and the comparator sort's first pass): the keys and, with
 * values, each key's tile position (uint), padded as block.cl pads, and the
 * search's six counters (kernels/merge.cl's cnt, declared in both merge
 * kernels). */
static inline size_t sk__merge_tile_local_bytes(size_t tile, size_t key_size, bool values)
{
    return (tile + tile / 32 + 1) * (key_size + (values ? sizeof(cl_uint) : 0)) +
           6 * sizeof(cl_uint);
}

typedef struct sk__merge_pass {
    const sk__program *prog;
    unsigned k_partition, k_merge, k_merge_search;
    bool gpu;
    size_t wg;
    size_t parts, step;
    uint64_t na, nb, width;
    size_t order_size;
    uint64_t flip, mask;
    cl_mem a, b, av, bv, dst, dv, splits;
    cl_mem groups;                /* NULL: no groups */
    uint64_t groups_at, ngroups;
    size_t search_max_parts;
} sk__merge_pass;

sk_status sk__merge_pass_run(sk_context *ctx, const sk__merge_pass *m);

#endif /* SK_SORT_H */
