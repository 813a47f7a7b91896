/*
 * skt_scan.h - the checks and size lists shared by the scan suites
 * (test_scan.c, test_scan_paths.c, test_scan_monoid.c).
 *
 * Every check poisons its output first, compares against the serial
 * reference, checks that nothing was written past n and that the input is
 * unchanged, and names in its failure message the type, op, variant, n, the
 * configuration and the seed.
 */
#ifndef SKT_SCAN_H
#define SKT_SCAN_H

#include "skt_common.h"

/* sk_scan_exclusive (excl) or sk_scan_inclusive on skt_ctx. */
sk_status skt_scan_call(sk_type t, sk_op op, int excl, cl_mem s, cl_mem d, size_t n);

/* One scan through the cl_mem form (skt_bufs), checked; `cfg` names the
 * configuration in messages. */
void skt_check_scan(sk_type t, sk_op op, int excl, size_t n, int in_place, const char *cfg);

/* One reduce through the cl_mem form, checked. */
void skt_check_reduce(sk_type t, sk_op op, size_t n, const char *cfg);

/* ---- sizes ------------------------------------------------------------------ */

typedef struct {
    size_t v[256];
    size_t count;
} skt_sizes;

/* Adds n (at most max, once). */
void skt_sizes_add(skt_sizes *l, size_t n, size_t max);
/* Adds k*tile - 1, k*tile, k*tile + 1. */
void skt_sizes_edges(skt_sizes *l, size_t tile, size_t k, size_t max);
/* 0, 1, 2, small values, primes and power-of-two edges (a tile that is a
 * power of two up to 2^14 has its first edges here even when the automatic
 * tile size cannot be read back). */
void skt_sizes_base(skt_sizes *l, size_t max);
void skt_sizes_sort(skt_sizes *l);
/* Tile edges of the configuration in force: k*tile +- 1 for a few k, and
 * tile^2, tile^3 (recursion levels) where small enough. */
void skt_sizes_tiles(skt_sizes *l, sk_shape shape, size_t max);

/* ---- tile settings ------------------------------------------------------------ */

/* The tile settings each shape is tested with. The operator only enters the
 * kernels through the combine and identity macros, so every op runs with the
 * default and the small tiles, and the medium tiles (another work-group size,
 * a CPU serial threshold) run for add only, which keeps the number of
 * programs to compile (the cost of a cold run) down. */
typedef struct {
    const char *name;
    long wg, ipt, chunks, serial_below;
    size_t max_n;
    int add_only;
} skt_tile_cfg;

#define SKT_N_TILE_CFGS 3
extern const skt_tile_cfg SKT_TILE_CFGS[SKT_N_TILE_CFGS];

void skt_tiles_apply(const skt_tile_cfg *c);

/* Applies SKT_TILE_CFGS[c] in `shape` (already forced) and returns its
 * sizes: the base sizes and the tile edges, ascending. */
skt_sizes skt_tiles_use(sk_shape shape, size_t c);

/* Configuration label, in the caller's buffer (skt_fmt's ring would be
 * reused by the checks while the label is still needed). */
typedef struct {
    char s[160];
} skt_label;

skt_label skt_cfg_name(sk_shape shape, const skt_tile_cfg *c);

/* float64 on a device without fp64: every entry point says SK_E_UNSUPPORTED
 * and leaves the output alone; then the test is skipped. Returns on a
 * device with fp64. */
void skt_skip_unless_fp64(void);

/* Starts a parameterised case: logs it, skips a float64 case on a device
 * without fp64 (skt_skip_unless_fp64), forces the case's shape unless it is
 * AUTO; returns the case's type. */
sk_type skt_scan_case_begin(const skt_case *c);

/* ---- paths --------------------------------------------------------------------- */

/* The types whose tile-edge scans test_scan_paths.c runs with the scan
 * path forced (the look-back takes no wider element; each op by one path,
 * skt_pairwise_path, the two paths meeting every type and op). AUTO's
 * choice is one of the two (it depends on the type and op only, and
 * test_scan_paths.c checks it for each), so test_scan.c's tile-edge test,
 * which leaves the path to AUTO, runs only the other types. */
#define SKT_FORCED_PATH_TYPES (SKT_BIT(SK_INT32) | SKT_BIT(SK_UINT32) | SKT_BIT(SK_FLOAT32))

/* The kernels of one scan call with the path forced (a built-in 4-byte
 * type): look-back forced, only the one-pass kernel and the single one,
 * except in place in the CPU shape (reduce-then-scan there, never the
 * one-pass kernel); reduce-then-scan forced, never the one-pass kernel. */
void skt_expect_path_taken(sk_scan_path path, sk_shape shape, int in_place,
                           const skt_launches *c, const char *what);

/* Every size for one op, inclusive and exclusive, in place and out of place
 * alternately; with a forced path, checks every call's kernels and that the
 * forced path ran at all. */
void skt_scan_sizes(sk_type t, sk_op op, sk_scan_path path, const skt_sizes *sizes,
                    const char *cfg);

/* ---- the pairwise tile-edge matrix ----------------------------------------------- */

/* The scans at the tile edges over the build-time axes type x op x GPU tile
 * setting x scan path, pairwise rather than their full product: with k =
 * op + r, where r is 0 for int32 and int64, 1 for uint32 and uint64, 2 for
 * float32 and float64, a type and op takes the GPU tile setting k % 3 of
 * SKT_TILE_CFGS and the forced path k % 2 (look-back when 0); int32 and int64
 * take and, or and xor with the setting (op + 2) % 3 too, so that within
 * each of {int32, uint32, float32} and {int64, uint64, float64} every pair
 * of type, op, GPU tile setting and path meets. (The CPU shape's tiles are
 * no part of its programs: there every op runs with the default and small
 * tiles, add with the medium ones too.) */

/* The mask of SKT_TILE_CFGS indices t and op run with in the GPU shape. */
unsigned skt_pairwise_gpu_cfgs(sk_type t, sk_op op);

/* The path t and op are forced to in the pairwise forced-path test. */
sk_scan_path skt_pairwise_path(sk_type t, sk_op op);

/* The ops of type t in one shape at every size, inclusive and exclusive,
 * in place and out of place alternately, `path` forced unless AUTO (then
 * the context's own setting stays): in the GPU shape each op with its
 * settings of skt_pairwise_gpu_cfgs, in the CPU shape with every setting
 * of SKT_TILE_CFGS (the medium tiles for add only); with a forced path,
 * only the ops whose skt_pairwise_path it is. */
void skt_scan_edges_pairwise(sk_type t, sk_shape shape, sk_scan_path path);

#endif /* SKT_SCAN_H */
