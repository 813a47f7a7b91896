/*
 * skt_common.h - helpers shared by the scankit Criterion tests.
 *
 * Criterion forks one process per test, so each test opens its own context in
 * the suite's .init (skt_ctx_open) and frees it in .fini (skt_ctx_close).
 * Every test process draws its random data from one seed, logged with
 * cr_log_info (visible with --verbose) and repeated in every failure message
 * made by these helpers; SKT_SEED=<seed> reproduces a run.
 */
#ifndef SKT_COMMON_H
#define SKT_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/parameterized.h>

#include "scankit.h"
#include "sk_rng.h"
#include "ref/reference.h"

/* ---- context --------------------------------------------------------------- */

/* The context of the running test (NULL outside .init/.fini). */
extern sk_context *skt_ctx;

/* Suite hooks: skt_ctx_open seeds the PRNG, points the program cache at the
 * build tree (unless SCANKIT_CACHE_DIR is set), opens skt_ctx on the default
 * device ($SCANKIT_DEVICE, else first GPU, else first device) and skips the
 * test when there is none. skt_ctx_close frees it. */
void skt_ctx_open(void);
void skt_ctx_close(void);

/* Seeds the PRNG and sets up the environment without opening a context, for
 * suites whose tests create their own contexts. */
void skt_setup(void);

/* A new context on the device `spec` names (NULL: the default device);
 * skips the test when spec is NULL and there is no device, fails it on
 * any other error. The caller frees it. */
sk_context *skt_ctx_new(const char *spec);

/* skt_ctx_new(NULL) with its disk cache on whatever the device
 * (SK_PARAM_DISK_CACHE 1): in the directory SCANKIT_CACHE_DIR names, or
 * the default one. */
sk_context *skt_ctx_new_disk_cache(void);

/* A uint32 inclusive scan with op of n random elements on ctx through the
 * host form, checked against the reference. */
void skt_check_small_scan(sk_context *ctx, size_t n, sk_op op);

/* 1 if skt_ctx's device has double precision. */
int skt_has_fp64(void);

/* ---- seeded PRNG (sk_rng: xoshiro256**, seeded through splitmix64) -------- */

uint64_t skt_seed(void);
void skt_reseed(uint64_t seed);
uint64_t skt_rand(void);
uint64_t skt_rand_below(uint64_t bound); /* uniform in [0, bound), bound > 0 */
double skt_rand_unit(void);              /* uniform in [0, 1) */

/* ---- random input data --------------------------------------------------- */

/* Fills dst with n random elements suited to (t, op):
 *   integers: add/xor full-range words; mul odd words (products never
 *   collapse to 0); and/or mostly all-ones/all-zeros with a few bits cleared/
 *   set, so prefixes keep changing over the whole array; min/max a random
 *   walk across zero (and across the sign bit for unsigned), with rare
 *   full-range outliers;
 *   floats: add uses multiples of 1/4 small enough that every partial sum of
 *   every sub-range is exact (result independent of association); mul uses
 *   {1, -1, 2, 0.5} with the exponent kept in a band so no sub-range product
 *   overflows or underflows; min/max a random walk with +-0, rare +-inf
 *   and about two NaNs per array mixed in (a NaN makes every later prefix
 *   NaN). */
void skt_fill(sk_type t, sk_op op, void *dst, size_t n);

/* A random key of type t as its bits: integers uniform over their bits;
 * floats mostly random bits (all exponents, NaNs among them), a quarter of
 * the time one of +-0, +-inf, NaN, -NaN, +-1 or a NaN with a payload of
 * either sign. */
uint64_t skt_random_key(sk_type t);

/* Random non-integer floats in [-1, 1] (sums are rounded: use for the
 * determinism and error-bound checks only). */
void skt_fill_float_noisy(sk_type t, void *dst, size_t n);

/* ---- poison ---------------------------------------------------------------- */

#define SKT_POISON_BYTE 0xA5

void skt_poison(void *p, size_t bytes);
/* Index of the first byte that is not poison, or (size_t)-1 if all are. */
size_t skt_find_unpoisoned(const void *p, size_t bytes);

/* ---- address space --------------------------------------------------------- */

/* `bytes` of zeros as address space only (MAP_NORESERVE): no page is
 * committed until it is touched, so an array larger than any device buffer
 * costs nothing. Skips the test when the space cannot be reserved. */
void *skt_map_zeros(size_t bytes);
void skt_unmap(void *p, size_t bytes);
/* How many pages of a skt_map_zeros array have been read or written. */
size_t skt_pages_touched(void *p, size_t bytes);

/* ---- buffers on skt_ctx ---------------------------------------------------- */

cl_mem skt_buf_new(size_t bytes);               /* asserts; bytes may be 0 */
void skt_buf_free(cl_mem m);                    /* NULL-safe */
/* free() of every argument up to a NULL. */
void skt_free_all(void *p, ...);
void skt_buf_upload(cl_mem m, size_t offset, const void *src, size_t bytes);
void skt_buf_download(cl_mem m, size_t offset, void *dst, size_t bytes);
void skt_buf_poison(cl_mem m, size_t bytes);    /* first `bytes` := 0xA5 */
void skt_buf_fill(cl_mem m, const void *pattern, size_t pattern_size,
                  size_t offset, size_t bytes); /* clEnqueueFillBuffer */
/* A new buffer holding the n elements of `size` bytes at src, then `guard`
 * poisoned elements. */
cl_mem skt_buf_guarded(const void *src, size_t n, size_t size, size_t guard);
/* The first n elements of m equal src and the `guard` after them are
 * still poisoned; else fails the test naming `what` and `which`. */
void skt_expect_guarded(cl_mem m, const void *src, size_t n, size_t size, size_t guard,
                        const char *what, const char *which);
void skt_finish(void);

/* Host allocations that fail the test instead of returning NULL. */
void *skt_malloc(size_t bytes);

/* ---- shapes and tiles ------------------------------------------------------ */

void skt_set_param(sk_param p, long v);         /* asserts SK_OK */
long skt_get_param(sk_param p);                 /* asserts SK_OK */
void skt_force_shape(sk_shape s);               /* SK_SHAPE_CPU or _GPU */

/* All tile parameters back to automatic (0). */
void skt_tiles_default(void);
/* Small tiles so that small n spans many work-groups and several recursion
 * levels: GPU work-group 4 x 2 items (tile 8), CPU 3 chunks, no serial path. */
void skt_tiles_small(void);
/* Explicit tiles: GPU wg x ipt, CPU chunks and serial threshold. */
void skt_tiles_set(long wg, long ipt, long chunks, long serial_below);
/* The GPU shape's merge passes: true, every pass's splits by a partition
 * launch ($SCANKIT_MERGE_SEARCH_MAX_PARTS=0); false, the tuning's choice
 * (passes of few parts: each tile searches its own). */
void skt_merge_partition_launch(bool on);

const char *skt_shape_name(sk_shape s);
const char *skt_scan_path_name(sk_scan_path p);

/* Sets SK_PARAM_SCAN_PATH and checks that it reads back. */
void skt_force_scan_path(sk_scan_path p);

/* ---- comparisons ---------------------------------------------------------- */

/* Element-wise comparison of n elements of built-in type t: integers exactly,
 * floats by value (NaN equals NaN; +0 equals -0). On mismatch fails the test
 * with `what`, the index, both values, the mismatch count and the seed. */
void skt_expect_elems(sk_type t, const void *got, const void *want, size_t n,
                      const char *what);

/* Byte-wise comparison of n elements of `elem` bytes (custom monoids). */
void skt_expect_bytes(const void *got, const void *want, size_t n, size_t elem,
                      const char *what);

/* Formats one element of type t into buf. */
const char *skt_fmt_elem(sk_type t, const void *p, char *buf, size_t cap);

/* printf into a static rotating buffer (for `what` strings). */
const char *skt_fmt(const char *fmt, ...);

/* Asserts that `call` returns SK_OK; the message has the context's detail
 * and the seed. */
#define SKT_OK(call)                                                              \
    do {                                                                          \
        sk_status skt_st_ = (call);                                               \
        cr_assert_eq(skt_st_, SK_OK, "%s -> %s (%s) [seed %llu]", #call,          \
                     sk_status_name(skt_st_),                                     \
                     skt_ctx ? sk_context_error_detail(skt_ctx) : "",             \
                     (unsigned long long)skt_seed());                             \
    } while (0)

/* Asserts that `call` returns `expected`. */
#define SKT_EXPECT_STATUS(call, expected)                                         \
    do {                                                                          \
        sk_status skt_st_ = (call);                                               \
        cr_assert_eq(skt_st_, (expected), "%s -> %s, expected %s [seed %llu]",    \
                     #call, sk_status_name(skt_st_), sk_status_name(expected),    \
                     (unsigned long long)skt_seed());                             \
    } while (0)

/* ---- custom monoids used by several test files ---------------------------- */

/* 2x2 uint matrices modulo 2^32 as "uint4" (16 bytes), combine through a
 * helper function defined in the preamble; matches skt_ref_mat2_*. */
const sk_monoid *skt_monoid_mat2(void);
/* The same monoid with its identity and combine written over several
 * lines, each line ending in a // comment. */
const sk_monoid *skt_monoid_mat2_lines(void);
/* Affine maps with a length counter, a struct typedef'd in the preamble
 * (12 bytes); matches skt_ref_affine_*. */
const sk_monoid *skt_monoid_affine(void);
/* The interval-of-summations monoid of VERIFY.md on "int2". */
const sk_monoid *skt_monoid_interval(void);
/* The same monoid on "ushort2" (4 bytes, so the GPU shape's look-back path
 * can take it): identity and top are the two largest values, so indices
 * must be below SKT_IV16_TOP (n <= 65534). */
#define SKT_IV16_IDENTITY 0xFFFFu
#define SKT_IV16_TOP 0xFFFEu
const sk_monoid *skt_monoid_interval16(void);

/* Random 2x2 matrices with odd determinant (invertible mod 2^32, so long
 * products never collapse to zero). */
void skt_fill_mat2(skt_mat2 *dst, size_t n);
void skt_fill_affine(skt_affine *dst, size_t n);

/* ---- scratch buffers reused by the checks of one test ---------------------- */

/* Elements after an output that must stay poisoned. */
#define SKT_GUARD 16

/* Three device buffers and three host arrays of `cap` bytes each, kept for
 * the test process (Criterion runs each test in its own). */
typedef struct {
    size_t cap;
    cl_mem src, dst, aux;
    unsigned char *h_src, *h_ref, *h_out;
} skt_scratch;

extern skt_scratch skt_bufs;

/* Grows every buffer of skt_bufs to at least `bytes` (contents lost). */
void skt_bufs_reserve(size_t bytes);

/* ---- parameterised tests ----------------------------------------------------- */

/* One case of a parameterised test (plain data: Criterion hands it to the
 * test process). The fields a test does not vary keep the values below. */
typedef struct skt_case {
    int type;          /* sk_type, or -1 */
    int op;            /* sk_op, or -1 */
    sk_shape shape;    /* SK_SHAPE_AUTO when not varied */
    sk_scan_path path; /* SK_SCAN_PATH_AUTO when not varied */
    int size_class;    /* what the test makes of it (a tile setting, a size list) */
    int variant;       /* anything else the test varies (a segment kind, a hook) */
    int exclusive;     /* 0 inclusive, 1 exclusive */
    int mode;          /* what the suite runs (a compaction mode, an operator) */
} skt_case;

#define SKT_BIT(x) (1u << (x))
#define SKT_ALL_TYPES ((1u << SK_TYPE_COUNT) - 1u)
#define SKT_BOTH_SHAPES (SKT_BIT(SK_SHAPE_CPU) | SKT_BIT(SK_SHAPE_GPU))

/* The axes of a parameterised test; a zero field is an axis not varied. */
typedef struct skt_axes {
    unsigned types;  /* SKT_BIT(sk_type) mask */
    unsigned shapes; /* SKT_BIT(sk_shape) mask */
    unsigned paths;  /* SKT_BIT(sk_scan_path) mask */
    int per_op;      /* one case per op the reference supports for the type */
    int classes;     /* size classes 0 .. classes - 1 */
    int variants;    /* variants 0 .. variants - 1 */
    int both_scans;  /* an inclusive and an exclusive case */
} skt_axes;

/* Every type x shape. */
#define SKT_TYPE_SHAPE_AXES ((skt_axes){.types = SKT_ALL_TYPES, .shapes = SKT_BOTH_SHAPES})

/* Every case of type x shape x path x size class x op x variant x
 * inclusive/exclusive that `keep` accepts (NULL: every case), in Criterion's
 * shared memory: return it from ParameterizedTestParameters. */
struct criterion_test_params skt_cases(skt_axes axes, int (*keep)(const skt_case *c));

/* "int32 add exclusive, cpu shape, look-back path, size class 1, variant 2"
 * (type, op, shape and path only where set; skt_fmt's buffer). */
const char *skt_case_name(const skt_case *c);

/* Logs the case and the seed (cr_log_info, visible with --verbose). */
void skt_case_begin(const skt_case *c);

/* The first op after `op` (-1: the first op) that the reference supports
 * for t, or -1; SKT_EACH_OP(t, op) { ... } walks them. */
int skt_next_op(sk_type t, int op);
#define SKT_EACH_OP(t, op)                                                            \
    for (int op = skt_next_op((t), -1); op >= 0; op = skt_next_op((t), op))

/* ---- parameterised tests -------------------------------------------------- */

/* One case of a Criterion parameterised test: an element type, a shape, a
 * size class, and the suite's own mode and variant (each a number the
 * suite gives a meaning; 0 where it has none). */
/* The same cases built from lists rather than masks: skt_params_add
 * appends, skt_params_done hands them to Criterion as skt_cases does. */
typedef skt_case skt_param;

/* The cases of one parameterised test, built up by skt_params_add. */
typedef struct skt_params {
    skt_case *v;
    size_t n;
} skt_params;

/* Adds one case for each type of types[0 .. ntypes) (types NULL: every
 * row of SK_TYPE_MAP) x shape (CPU, GPU) x size class 0 .. nsizes - 1,
 * each with mode and variant (op and path not varied). */
void skt_params_add(skt_params *ps, const sk_type *types, size_t ntypes, int nsizes, int mode,
                    int variant);
/* The cases as the value of ParameterizedTestParameters (Criterion frees
 * them). */
struct criterion_test_params skt_params_done(skt_params *ps);
/* "float32, gpu shape": p's type and shape, for messages. */
const char *skt_params_name(const skt_case *p);
/* Skips the test when p's type is float64 and skt_ctx's device has no
 * double precision. */
void skt_params_need_type(const skt_case *p);

/* ---- launch counts --------------------------------------------------------- */

/* Kernel launches on skt_ctx, counted by name through the trace callback. */
typedef struct {
    unsigned long total;
    unsigned long lookback;        /* sk_scan_lookback: the one-pass scan (either shape) */
    unsigned long single;          /* one work-group or work-item walks all the input:
                                      sk_scan_single, or the CPU shape's sk_scan_chunks
                                      with one work-item */
    unsigned long other;           /* every other launch (reduce-then-scan, ...) */
    unsigned long streamed;        /* launches asking for non-temporal stores */
} skt_launches;

/* Adds the launches on skt_ctx to *c (zero it first) until called with NULL. */
void skt_count_launches(skt_launches *c);

/* Wall-clock seconds (monotonic). */
double skt_now(void);

/* ---- the lighter matrix of the sanitizer pass ---------------------------------- */

/* 1 when $SKT_LIGHT is "1", as scripts/test.sh's sanitizer pass sets it:
 * there the host code runs under AddressSanitizer, and a suite may cap a
 * size where a larger one takes no host code path that the capped one (or
 * another test of that pass, named at the cap) does not. Every type, op,
 * shape, tile setting, scan path and way of giving segments still runs;
 * each cap says why it loses nothing. The kernels' own checks at the full
 * sizes are the normal pass's. */
int skt_light(void);
/* n, or at most cap when skt_light(). */
size_t skt_light_cap(size_t n, size_t cap);

#endif /* SKT_COMMON_H */
