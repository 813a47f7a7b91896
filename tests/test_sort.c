/*
 * test_sort.c - sk_sort_keys/_pairs, their bit-range and host-array forms,
 * against the serial reference in tests/ref/ref_sort.c.
 *
 * Values are the keys' original indices (as 4- or 8-byte integers), so the
 * values after a sort spell out the permutation the library chose: every
 * check compares it with the reference's stable permutation, which pins
 * stability. Keys are compared bit for bit (NaN payloads and -0.0 included).
 *
 * Every key type x {keys, 4-byte values, 8-byte values} x {ascending,
 * descending} x {CPU shape, GPU shape}, with small tiles (many parts at small
 * n), wg 8 x 3 and default tiles, at sizes 0, 1, 2, tile edges k*tile +- 1
 * and primes, over the distributions uniform, sorted, reversed, all equal,
 * few unique and entropy-reduced (AND of 1..4 random words); the GPU shape
 * both by one sweep per digit (the default) and by three-step passes
 * (reduce-then-scan path); float specials (+-0, +-inf, NaNs of both signs
 * and several payloads, denormals); bit ranges; a large case (~2^21); host
 * forms; bad arguments. Buffers are poisoned past n and must stay so.
 * Each key type, value size, shape, GPU tile setting and GPU pass kind is a
 * program of its own to compile, so in the GPU shape key type x value size
 * x tile setting is pairwise, not the full product (gpu_cfg: each key type
 * x value size with one setting, every type x setting and value size x
 * setting pair meeting; the specials, bit ranges and host forms use the
 * same setting for a type and value size); the three-step passes likewise
 * (three_step_matrix). The CPU shape, whose tiles are no part of its
 * programs, runs every value size with every setting. Both orders and every
 * size run for each type x value size in each shape. The 8- and 16-bit key
 * types take one value size per shape and one GPU tile setting each
 * (NARROW: a program per type and shape), pairwise across the types.
 * The GPU shape's one sweep per digit skips constant digits (the keys'
 * bounds read back) with the small tiles and sweeps every digit (the
 * default below 2^26 keys) with the others: a host decision
 * (SK_PARAM_GPU_SORT_SKIP_FROM), no program of its own. Keys with constant
 * digits (all equal, top bits shared, one digit varying) sort both ways
 * against the reference, their launches are counted, and a sort that
 * sweeps every digit must return while a user event holds the queue shut.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_sort.h"
#include "skt_common.h"

TestSuite(sort, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 600);
TestSuite(sort_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 8 /* elements after n that must stay poisoned */

/* ---- distributions ---------------------------------------------------------- */

typedef enum dist {
    D_UNIFORM, D_SORTED, D_REVERSED, D_EQUAL, D_FEW_UNIQUE, D_ENTROPY, D_SPECIALS, D_COUNT
} dist;

static const char *const DIST_NAMES[D_COUNT] = {"uniform", "sorted",  "reversed", "equal",
                                                "few-unique", "entropy", "specials"};

static size_t key_size(sk_type t) { return sk_type_size(t); }

static void put_key(sk_type t, void *keys, size_t i, uint64_t raw)
{
    skt_ref_put_key(t, keys, i, raw);
}

/* The 8- and 16-bit key types (SK_KEY_TYPE_MAP). */
static int is_narrow(sk_type t) { return key_size(t) <= 2; }

/* Float bit patterns every float test mixes in. */
static uint64_t special_f32(size_t k)
{
    static const uint32_t s[] = {
        0x00000000u, 0x80000000u,             /* +-0 */
        0x7f800000u, 0xff800000u,             /* +-inf */
        0x7fc00000u, 0xffc00000u,             /* quiet NaNs */
        0x7fc00001u, 0xffc12345u, 0x7fffffffu, 0xffffffffu,
        0x7f800001u, 0xff800001u, 0x7fa00000u, /* signalling NaNs */
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* denormals */
        0x00800000u, 0x80800000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu,
    };
    return s[k % (sizeof s / sizeof s[0])];
}

static uint64_t special_f16(size_t k)
{
    static const uint16_t s[] = {
        0x0000u, 0x8000u,                     /* +-0 */
        0x7c00u, 0xfc00u,                     /* +-inf */
        0x7e00u, 0xfe00u,                     /* quiet NaNs */
        0x7e01u, 0xfe2au, 0x7fffu, 0xffffu,   /* quiet NaNs with payloads */
        0x7c01u, 0xfc01u, 0x7d00u,            /* signalling NaNs */
        0x0001u, 0x8001u, 0x03ffu, 0x83ffu,   /* subnormals */
        0x0400u, 0x8400u, 0x3c00u, 0xbc00u, 0x7bffu, 0xfbffu,
    };
    return s[k % (sizeof s / sizeof s[0])];
}

static uint64_t special_f64(size_t k)
{
    static const uint64_t s[] = {
        0x0000000000000000ull, 0x8000000000000000ull,
        0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff8000000000000ull, 0xfff8000000000000ull,
        0x7ff8000000000001ull, 0xfff8000123456789ull, 0x7fffffffffffffffull,
        0xffffffffffffffffull, 0x7ff0000000000001ull, 0xfff0000000000001ull,
        0x0000000000000001ull, 0x8000000000000001ull, 0x000fffffffffffffull,
        0x800fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull,
        0xbff0000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
    };
    return s[k % (sizeof s / sizeof s[0])];
}

/* A random key: raw bits for integers; for floats mostly finite values of
 * both signs and all magnitudes, with specials mixed in. */
static uint64_t random_key(sk_type t)
{
    uint64_t r = skt_rand();
    if (t == SK_FLOAT32 && skt_rand_below(8) == 0) return special_f32(skt_rand_below(64));
    if (t == SK_FLOAT64 && skt_rand_below(8) == 0) return special_f64(skt_rand_below(64));
    if (t == SK_FLOAT16 && skt_rand_below(8) == 0) return special_f16(skt_rand_below(64));
    return r >> (64 - 8 * key_size(t));
}

static int cmp_keys_t;
static int cmp_raw(const void *a, const void *b)
{
    return skt_ref_key_cmp((sk_type)cmp_keys_t, *(const uint64_t *)a, *(const uint64_t *)b);
}

static void fill_keys(sk_type t, dist d, void *keys, size_t n)
{
    uint64_t few[5], equal = random_key(t);
    unsigned k = 1 + (unsigned)skt_rand_below(4);
    for (int i = 0; i < 5; i++) few[i] = random_key(t);
    uint64_t *raw = skt_malloc((n ? n : 1) * sizeof *raw);
    for (size_t i = 0; i < n; i++) {
        switch (d) {
        case D_EQUAL: raw[i] = equal; break;
        case D_FEW_UNIQUE: raw[i] = few[skt_rand_below(5)]; break;
        case D_ENTROPY: {
            uint64_t w = ~(uint64_t)0;
            for (unsigned j = 0; j < k; j++) w &= skt_rand();
            raw[i] = w >> (64 - 8 * key_size(t));
            break;
        }
        case D_SPECIALS:
            raw[i] = t == SK_FLOAT32 ? special_f32(skt_rand_below(64))
                   : t == SK_FLOAT64 ? special_f64(skt_rand_below(64))
                   : t == SK_FLOAT16 ? special_f16(skt_rand_below(64))
                                     : random_key(t);
            break;
        default: raw[i] = random_key(t); break;
        }
    }
    if (d == D_SORTED || d == D_REVERSED) {
        cmp_keys_t = (int)t;
        qsort(raw, n, sizeof *raw, cmp_raw);
        if (d == D_REVERSED)
            for (size_t i = 0; i < n / 2; i++) {
                uint64_t x = raw[i];
                raw[i] = raw[n - 1 - i];
                raw[n - 1 - i] = x;
            }
    }
    for (size_t i = 0; i < n; i++) put_key(t, keys, i, raw[i]);
    free(raw);
}

/* ---- one checked sort -------------------------------------------------------- */

typedef struct sort_case {
    sk_type t;
    size_t vs;              /* 0, 4 or 8 */
    int descending;
    unsigned begin, end;    /* end 0: the whole key */
    size_t n;
    dist d;
    const char *cfg;
} sort_case;

static unsigned bits_of(sk_type t) { return 8 * (unsigned)key_size(t); }

static const char *case_name(const sort_case *c)
{
    return skt_fmt("%s keys, %zu-byte values, %s, bits [%u, %u), n=%zu, %s, %s",
                   sk_type_name(c->t), c->vs, c->descending ? "descending" : "ascending",
                   c->begin, c->end ? c->end : bits_of(c->t), c->n, DIST_NAMES[c->d], c->cfg);
}

static sk_status run_sort(const sort_case *c, cl_mem k, cl_mem v)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (c->end == 0)
        return c->vs ? sk_sort_pairs(skt_ctx, c->t, c->vs, k, v, c->n, o)
                     : sk_sort_keys(skt_ctx, c->t, k, c->n, o);
    return c->vs ? sk_sort_pairs_bits(skt_ctx, c->t, c->vs, k, v, c->n, o, c->begin, c->end)
                 : sk_sort_keys_bits(skt_ctx, c->t, k, c->n, o, c->begin, c->end);
}

static void put_indices(void *vals, size_t vs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (vs == 4) {
            uint32_t x = (uint32_t)i;
            memcpy((unsigned char *)vals + 4 * i, &x, 4);
        } else {
            uint64_t x = i;
            memcpy((unsigned char *)vals + 8 * i, &x, 8);
        }
    }
}

static void expect_guard(const unsigned char *p, size_t bytes, const char *what,
                         const char *which)
{
    size_t bad = skt_find_unpoisoned(p, bytes);
    cr_assert_eq(bad, (size_t)-1, "%s: %s written past n (byte %zu) [seed %llu]", what, which,
                 bad, (unsigned long long)skt_seed());
}

static void expect_perm(const sort_case *c, const unsigned char *vals, const size_t *perm,
                        const char *what)
{
    for (size_t i = 0; i < c->n; i++) {
        uint64_t got = 0;
        memcpy(&got, vals + i * c->vs, c->vs);
        if (got != perm[i])
            cr_assert_fail("%s: value %zu is %llu, want %zu (stability or permutation) "
                           "[seed %llu]", what, i, (unsigned long long)got, perm[i],
                           (unsigned long long)skt_seed());
    }
}

static void expect_keys(const sort_case *c, const unsigned char *got, const unsigned char *want,
                        const char *what)
{
    size_t ks = key_size(c->t);
    for (size_t i = 0; i < c->n; i++)
        if (memcmp(got + i * ks, want + i * ks, ks) != 0)
            cr_assert_fail("%s: key %zu is 0x%llx, want 0x%llx [seed %llu]", what, i,
                           (unsigned long long)skt_ref_key_raw(c->t, got, i),
                           (unsigned long long)skt_ref_key_raw(c->t, want, i),
                           (unsigned long long)skt_seed());
}

/* run_sort while a user event holds the context's queue shut: the call
 * must return before anything it enqueued has run (one that waits for the
 * device inside would wait forever, and the test's timeout fails it). */
static sk_status run_sort_gated(const sort_case *c, cl_mem k, cl_mem v)
{
    cl_int err = CL_SUCCESS;
    skt_finish();
    cl_event gate = clCreateUserEvent(sk_context_cl_context(skt_ctx), &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateUserEvent -> %s", sk_cl_error_name(err));
    err = clEnqueueBarrierWithWaitList(sk_context_cl_queue(skt_ctx), 1, &gate, NULL);
    cr_assert_eq(err, CL_SUCCESS, "clEnqueueBarrierWithWaitList -> %s", sk_cl_error_name(err));
    sk_status st = run_sort(c, k, v);
    err = clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    cr_assert_eq(err, CL_SUCCESS, "clSetUserEventStatus -> %s", sk_cl_error_name(err));
    return st;
}

/* Sorts `keys` (c->n of them) through the cl_mem form, behind a shut gate
 * where `gated` (run_sort_gated), and checks all. */
static void check_keys_gated(const sort_case *c, const void *keys, int gated)
{
    size_t ks = key_size(c->t), n = c->n, vs = c->vs ? c->vs : 8;
    const char *what = case_name(c);
    unsigned char *hk = skt_malloc((n + GUARD) * ks), *hv = skt_malloc((n + GUARD) * vs);
    unsigned char *want = skt_malloc((n + 1) * ks);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    cl_mem k = skt_buf_new((n + GUARD) * ks), v = skt_buf_new((n + GUARD) * vs);
    skt_poison(hk, (n + GUARD) * ks);
    skt_poison(hv, (n + GUARD) * vs);
    memcpy(hk, keys, n * ks);
    put_indices(hv, vs, n);
    skt_buf_upload(k, 0, hk, (n + GUARD) * ks);
    skt_buf_upload(v, 0, hv, (n + GUARD) * vs);

    sk_status st = gated ? run_sort_gated(c, k, v) : run_sort(c, k, v);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(k, 0, hk, (n + GUARD) * ks);
    skt_buf_download(v, 0, hv, (n + GUARD) * vs);

    skt_ref_sort_perm(c->t, keys, n, c->descending, c->begin, c->end ? c->end : bits_of(c->t),
                      perm);
    skt_ref_gather(keys, ks, perm, n, want);
    expect_keys(c, hk, want, what);
    expect_guard(hk + n * ks, GUARD * ks, what, "keys");
    if (c->vs) expect_perm(c, hv, perm, what);
    expect_guard(hv + n * vs, GUARD * vs, what, "values");
    skt_buf_free(k);
    skt_buf_free(v);
    free(hk);
    free(hv);
    free(want);
    free(perm);
}

static void check_keys(const sort_case *c, const void *keys) { check_keys_gated(c, keys, 0); }

static void check_case(const sort_case *c)
{
    void *keys = skt_malloc((c->n + 1) * key_size(c->t));
    fill_keys(c->t, c->d, keys, c->n);
    check_keys(c, keys);
    free(keys);
}

/* ---- the matrix ---------------------------------------------------------------- */

static int type_available(sk_type t) { return t != SK_FLOAT64 || skt_has_fp64(); }

/* Sizes around `tile` (k*tile +- 1) plus the small fixed ones. */
static size_t sizes_for(size_t tile, size_t *out, size_t cap)
{
    static const size_t fixed[] = {0, 1, 2, 3, 5, 13, 97, 257, 1021};
    static const size_t ks[] = {1, 2, 3, 7};
    size_t m = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && m < cap; i++) out[m++] = fixed[i];
    for (size_t i = 0; i < sizeof ks / sizeof ks[0] && m + 3 <= cap; i++) {
        out[m++] = ks[i] * tile - 1;
        out[m++] = ks[i] * tile;
        out[m++] = ks[i] * tile + 1;
    }
    return m;
}

/* The GPU shape's tile settings (a program each): 0 small (4 x 2 keys),
 * 1 wg 8 x 3, 2 default. Key type x value size x GPU setting is pairwise:
 * key type t with values of VSS[v] takes the setting (t + v) % 3, so every
 * type meets every setting (over its three value sizes) and every value size
 * every setting (over the types). */
static const size_t VSS[] = {0, 4, 8};

/* The 8- and 16-bit keys take one value size per shape and one GPU tile
 * setting each (a program per type and shape), pairwise over the types:
 * 8-bit keys meet values of 4 and 8 bytes in the CPU shape, none and 8 in
 * the GPU shape; 16-bit keys every value size in both; every setting
 * meets 16-bit keys, and 8-bit keys the small and default tiles (the
 * default tiles load whole vectors of keys). */
typedef struct narrow_plan {
    sk_type t;
    size_t cpu_vs, gpu_vs;
    unsigned gpu_cfg;
} narrow_plan;

static const narrow_plan NARROW[] = {
    {SK_UINT8, 8, 0, 2}, {SK_INT8, 4, 8, 0}, {SK_UINT16, 0, 4, 1},
    {SK_INT16, 8, 0, 2}, {SK_FLOAT16, 4, 8, 0},
};

static const narrow_plan *narrow_of(sk_type t)
{
    for (size_t i = 0; i < sizeof NARROW / sizeof NARROW[0]; i++)
        if (NARROW[i].t == t) return &NARROW[i];
    cr_assert_fail("%s is no narrow key type", sk_type_name(t));
    return NULL;
}

/* The value size of a narrow key type in a shape. */
static size_t narrow_vs(sk_shape shape, sk_type t)
{
    return shape == SK_SHAPE_GPU ? narrow_of(t)->gpu_vs : narrow_of(t)->cpu_vs;
}

static unsigned vs_index(size_t vs) { return vs == 0 ? 0u : vs == 4 ? 1u : 2u; }

static unsigned gpu_cfg(sk_type t, size_t vs)
{
    if (is_narrow(t)) return narrow_of(t)->gpu_cfg;
    return ((unsigned)t + vs_index(vs)) % 3u;
}

static void gpu_tiles(unsigned cfg)
{
    if (cfg == 0) skt_tiles_set(4, 2, 3, 1);
    else if (cfg == 1) skt_tiles_set(8, 3, 5, 1);
    else skt_tiles_default();
}

/* Every value size (of the mask: bit v for VSS[v]) and order at every size,
 * cycling the distributions. */
static void sweep(sk_type t, const size_t *sizes, size_t count, const char *cfg, unsigned vmask)
{
    const size_t *vss = VSS;
    unsigned rot = (unsigned)skt_rand_below(D_COUNT);
    for (size_t s = 0; s < count; s++)
        for (size_t v = 0; v < 3; v++)
            for (int desc = 0; desc < 2; desc++) {
                if (!(vmask & (1u << v))) continue;
                dist d = (dist)((rot + s * 6 + v * 2 + (size_t)desc) % D_COUNT);
                sort_case c = {t, vss[v], desc, 0, 0, sizes[s], d, cfg};
                check_case(&c);
            }
}

/* The value sizes (mask of VSS indices) that run with tile setting cfg:
 * in the GPU shape those of gpu_cfg, in the CPU shape (whose tiles are no
 * part of its programs) all. */
static unsigned vmask_for(sk_shape shape, sk_type t, unsigned cfg)
{
    if (is_narrow(t))
        return shape != SK_SHAPE_GPU || narrow_of(t)->gpu_cfg == cfg
                   ? 1u << vs_index(narrow_vs(shape, t))
                   : 0u;
    unsigned m = 0;
    for (unsigned v = 0; v < 3; v++)
        if (shape != SK_SHAPE_GPU || gpu_cfg(t, VSS[v]) == cfg) m |= 1u << v;
    return m;
}

static void matrix(sk_shape shape, sk_type t)
{
    if (!type_available(t)) cr_skip_test("float64 needs fp64");
    size_t sizes[32], m;
    skt_force_shape(shape);
    /* Small tiles: GPU tile of 4 x 2 keys; CPU 3 chunks from n = 1 on. The
     * GPU shape skips constant digits here (from one key on), and sweeps
     * every digit (below 2^22 keys, the default) with the other tiles. */
    gpu_tiles(0);
    skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, 1);
    m = sizes_for(shape == SK_SHAPE_GPU ? 8 : 3, sizes, 32);
    sweep(t, sizes, m, skt_fmt("%s shape, small tiles", skt_shape_name(shape)),
          vmask_for(shape, t, 0));
    skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, 0);
    gpu_tiles(1);
    m = sizes_for(shape == SK_SHAPE_GPU ? 24 : 5, sizes, 32);
    sweep(t, sizes, m, skt_fmt("%s shape, wg 8 x 3 / 5 chunks", skt_shape_name(shape)),
          vmask_for(shape, t, 1));
    /* Default tiles: the GPU tile (wg 256, up to 16 keys each) and the CPU
     * shape's serial threshold (32768) and chunking above it. */
    gpu_tiles(2);
    static const size_t big_gpu[] = {2047, 2048, 2049, 4095, 4096, 4097, 10007};
    static const size_t big_cpu[] = {32767, 32768, 32769, 65521};
    if (shape == SK_SHAPE_GPU)
        sweep(t, big_gpu, sizeof big_gpu / sizeof big_gpu[0], "gpu shape, default tiles",
              vmask_for(shape, t, 2));
    else
        sweep(t, big_cpu, sizeof big_cpu / sizeof big_cpu[0], "cpu shape, default tiles",
              vmask_for(shape, t, 2));
}

#define MATRIX_TESTS(tname, type)                                                           \
    Test(sort, tname##_should_match_reference_in_cpu_shape) { matrix(SK_SHAPE_CPU, type); } \
    Test(sort, tname##_should_match_reference_in_gpu_shape) { matrix(SK_SHAPE_GPU, type); }

/* The GPU shape's three-step passes (per-tile histograms, their scan,
 * a scatter): what SK_SCAN_PATH_REDUCE_THEN_SCAN selects, and what sorts of
 * 2^30 keys or more take. The matrix above runs the default, one sweep per
 * digit; here a 4-byte and an 8-byte key type (k = 0, 1) with the small
 * tiles and wg 8 x 3, key type x value size x setting pairwise: VSS[v]
 * with the small tiles where (k + v) is even, wg 8 x 3 where odd, so each
 * type and each value size meets both settings. */
static void three_step_matrix(sk_type t, unsigned k)
{
    if (!type_available(t)) cr_skip_test("float64 needs fp64");
    size_t sizes[32], m;
    unsigned even = k % 2 ? 2u : 5u; /* VSS indices v with (k + v) even */
    skt_force_shape(SK_SHAPE_GPU);
    skt_force_scan_path(SK_SCAN_PATH_REDUCE_THEN_SCAN);
    skt_tiles_set(4, 2, 3, 1);
    m = sizes_for(8, sizes, 32);
    sweep(t, sizes, m, "gpu shape, three steps, small tiles", even);
    skt_tiles_set(8, 3, 5, 1);
    m = sizes_for(24, sizes, 32);
    sweep(t, sizes, m, "gpu shape, three steps, wg 8 x 3", 7u & ~even);
}

Test(sort, int32_should_match_reference_in_gpu_shape_three_step_passes)
{
    three_step_matrix(SK_INT32, 0);
}

Test(sort, float64_should_match_reference_in_gpu_shape_three_step_passes)
{
    three_step_matrix(SK_FLOAT64, 1);
}

/* A 16-bit key type's three-step passes: its GPU value size, small tiles. */
Test(sort, uint16_should_match_reference_in_gpu_shape_three_step_passes)
{
    size_t sizes[32], m = sizes_for(8, sizes, 32);
    skt_force_shape(SK_SHAPE_GPU);
    skt_force_scan_path(SK_SCAN_PATH_REDUCE_THEN_SCAN);
    skt_tiles_set(4, 2, 3, 1);
    sweep(SK_UINT16, sizes, m, "gpu shape, three steps, small tiles",
          1u << vs_index(narrow_vs(SK_SHAPE_GPU, SK_UINT16)));
}

MATRIX_TESTS(uint32, SK_UINT32)
MATRIX_TESTS(int32, SK_INT32)
MATRIX_TESTS(float32, SK_FLOAT32)
MATRIX_TESTS(uint64, SK_UINT64)
MATRIX_TESTS(int64, SK_INT64)
MATRIX_TESTS(float64, SK_FLOAT64)
MATRIX_TESTS(uint8, SK_UINT8)
MATRIX_TESTS(int8, SK_INT8)
MATRIX_TESTS(uint16, SK_UINT16)
MATRIX_TESTS(int16, SK_INT16)
MATRIX_TESTS(float16, SK_FLOAT16)

/* ---- float specials ------------------------------------------------------------ */

static void specials(sk_shape shape)
{
    static const sk_type ts[] = {SK_FLOAT32, SK_FLOAT64, SK_FLOAT16};
    skt_force_shape(shape);
    skt_tiles_set(4, 2, 3, 1);
    for (size_t i = 0; i < 3; i++) {
        if (!type_available(ts[i])) continue;
        size_t vs = is_narrow(ts[i]) ? narrow_vs(shape, ts[i]) : 4;
        if (shape == SK_SHAPE_GPU) gpu_tiles(gpu_cfg(ts[i], vs));
        static const size_t ns[] = {23, 100, 1000, 3001};
        for (size_t j = 0; j < 4; j++)
            for (int desc = 0; desc < 2; desc++) {
                sort_case c = {ts[i], vs, desc, 0, 0, ns[j], D_SPECIALS, "specials"};
                check_case(&c);
            }
    }
}

Test(sort, float_specials_should_sort_in_total_order_in_cpu_shape) { specials(SK_SHAPE_CPU); }
Test(sort, float_specials_should_sort_in_total_order_in_gpu_shape) { specials(SK_SHAPE_GPU); }

Test(sort, float_total_order_should_be_exactly_as_documented)
{
    /* -NaN < -inf < -1 < -denormal < -0 < +0 < +denormal < 1 < +inf < +NaN */
    const float want[] = {-NAN, -INFINITY, -1.0f, -1e-45f, -0.0f, 0.0f, 1e-45f, 1.0f,
                          INFINITY, NAN};
    const size_t n = sizeof want / sizeof want[0];
    float keys[10];
    for (size_t i = 0; i < n; i++) keys[i] = want[(i * 7 + 3) % n];
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_FLOAT32, keys, n, SK_ASCENDING));
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(memcmp(&keys[i], &want[i], 4), 0, "position %zu: %g, want %g", i,
                     (double)keys[i], (double)want[i]);
    cr_assert(signbit(keys[0]) && isnan(keys[0]), "-NaN must come first");
}

Test(sort, float16_total_order_should_be_exactly_as_documented)
{
    /* -NaN (payload 0x2a) < -NaN < -inf < -1 < -subnormal < -0 < +0 <
     * +subnormal (smallest, largest) < 1 < largest finite < +inf < +NaN <
     * +NaN (payload 0x3ff): IEEE binary16 bit patterns. */
    const uint16_t want[] = {0xfe2au, 0xfe00u, 0xfc00u, 0xbc00u, 0x8001u, 0x8000u, 0x0000u,
                             0x0001u, 0x03ffu, 0x3c00u, 0x7bffu, 0x7c00u, 0x7e00u, 0x7fffu};
    const size_t n = sizeof want / sizeof want[0];
    uint16_t keys[14];
    uint32_t vals[14];
    for (int desc = 0; desc < 2; desc++) {
        for (size_t i = 0; i < n; i++) {
            keys[i] = want[(i * 5 + 3) % n];
            vals[i] = (uint32_t)i;
        }
        skt_force_shape(SK_SHAPE_CPU);
        SKT_OK(sk_sort_pairs_host(skt_ctx, SK_FLOAT16, narrow_vs(SK_SHAPE_CPU, SK_FLOAT16),
                                  keys, vals, n, desc ? SK_DESCENDING : SK_ASCENDING));
        for (size_t i = 0; i < n; i++) {
            uint16_t w = want[desc ? n - 1 - i : i];
            cr_assert_eq(keys[i], w, "%s position %zu: 0x%04x, want 0x%04x",
                         desc ? "descending" : "ascending", i, keys[i], w);
        }
    }
}

/* ---- bit ranges ------------------------------------------------------------------- */

static void bit_ranges(sk_shape shape)
{
    static const sk_type ts[] = {SK_UINT32, SK_INT32, SK_FLOAT32, SK_UINT64, SK_INT64,
                                 SK_FLOAT64, SK_UINT8, SK_INT8, SK_UINT16, SK_INT16,
                                 SK_FLOAT16};
    skt_force_shape(shape);
    skt_tiles_set(4, 2, 3, 1);
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        if (!type_available(ts[i])) continue;
        unsigned bits = bits_of(ts[i]);
        unsigned ranges[][2] = {{0, 1}, {3, bits < 11 ? bits : 11}, {bits - 1, bits}, {0, bits},
                                {5, bits}, {bits / 2 - 3, bits / 2 + 6 < bits ? bits / 2 + 6 : bits},
                                {0, 0}};
        ranges[6][0] = (unsigned)skt_rand_below(bits);
        ranges[6][1] = ranges[6][0] + 1 + (unsigned)skt_rand_below(bits - ranges[6][0]);
        for (size_t r = 0; r < 7; r++)
            for (int desc = 0; desc < 2; desc++) {
                dist d = (dist)((r + (size_t)desc) % D_COUNT);
                size_t vs = (r + (size_t)desc) % 3 == 0 ? 0 : 4 * (1 + (r % 2));
                if (is_narrow(ts[i])) vs = narrow_vs(shape, ts[i]);
                if (shape == SK_SHAPE_GPU) gpu_tiles(gpu_cfg(ts[i], vs));
                sort_case c = {ts[i], vs, desc, ranges[r][0], ranges[r][1],
                               200 + skt_rand_below(400), d, "bit range"};
                check_case(&c);
            }
    }
}

Test(sort, bit_ranges_should_sort_by_those_bits_stably_in_cpu_shape) { bit_ranges(SK_SHAPE_CPU); }
Test(sort, bit_ranges_should_sort_by_those_bits_stably_in_gpu_shape) { bit_ranges(SK_SHAPE_GPU); }

/* ---- large ------------------------------------------------------------------------ */

Test(sort, large_inputs_should_match_reference_in_cpu_shape, .timeout = 600)
{
    skt_force_shape(SK_SHAPE_CPU);
    size_t n = ((size_t)1 << 21) + 1 + skt_rand_below(1000);
    sort_case a = {SK_UINT32, 4, 0, 0, 0, n, D_UNIFORM, "cpu shape, default tiles"};
    check_case(&a);
    sort_case b = {SK_FLOAT64, 8, 1, 0, 0, n, D_UNIFORM, "cpu shape, default tiles"};
    if (type_available(SK_FLOAT64)) check_case(&b);
    sort_case c = {SK_INT32, 0, 0, 0, 0, n, D_ENTROPY, "cpu shape, default tiles"};
    check_case(&c);
    /* 8- and 16-bit keys through the line scatter (past its threshold). */
    sort_case d = {SK_UINT8, narrow_vs(SK_SHAPE_CPU, SK_UINT8), 1, 0, 0, n, D_UNIFORM,
                   "cpu shape, default tiles"};
    check_case(&d);
    sort_case e = {SK_INT16, narrow_vs(SK_SHAPE_CPU, SK_INT16), 0, 0, 0, n, D_ENTROPY,
                   "cpu shape, default tiles"};
    check_case(&e);
}

/* Pairs whose keys vary in an odd number of digits (three or more): the
 * CPU shape passes them through two scratch buffers each for keys and
 * values, ending in the caller's, with no copy back. 24 varying bits of
 * uint32 keys are three 8-bit digits, 40 of uint64 keys five; the large
 * case goes through the line scatter (from 4 MiB of keys and values). */
static void odd_passes_case(sk_type t, size_t vs, unsigned varying, int desc, size_t n)
{
    size_t ks = key_size(t);
    unsigned char *keys = skt_malloc((n + 1) * ks);
    uint64_t mask = ((uint64_t)1 << varying) - 1;
    for (size_t i = 0; i < n; i++)
        put_key(t, keys, i, (skt_rand() & mask) | (0x5a5a5a5a5a5a5a5aull & ~mask));
    sort_case c = {t, vs, desc, 0, 0, n, D_UNIFORM, "cpu shape, odd pass count"};
    check_keys(&c, keys);
    free(keys);
}

Test(sort, pairs_with_an_odd_number_of_passes_should_match_reference_in_cpu_shape,
     .timeout = 600)
{
    skt_force_shape(SK_SHAPE_CPU);
    odd_passes_case(SK_UINT32, 4, 24, 0, 4999);
    odd_passes_case(SK_UINT32, 4, 24, 1, ((size_t)1 << 19) + 1 + skt_rand_below(1000));
    odd_passes_case(SK_UINT64, 8, 40, 1, 3001);
}

/* ---- buckets by the top digit (CPU shape) ------------------------------------- */

static void count_bucket_launch(const sk_launch_record *rec, void *user)
{
    if (strcmp(rec->kernel, "sk_sort_buckets") == 0) ++*(unsigned long *)user;
}

/* Keys whose `varying` low bits are random and the rest a fixed pattern
 * (varying 0: fill_keys' distribution d), sorted with the line scatter
 * forced and buckets of up to `bucket_bytes`; checked against the
 * reference; returns the launches of the buckets' kernel. */
static unsigned long bucket_case(sort_case c, unsigned varying, long bucket_bytes)
{
    size_t ks = key_size(c.t);
    unsigned char *keys = skt_malloc((c.n + 1) * ks);
    if (varying == 0) fill_keys(c.t, c.d, keys, c.n);
    uint64_t mask = varying >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << varying) - 1;
    for (size_t i = 0; varying && i < c.n; i++)
        put_key(c.t, keys, i, (skt_rand() & mask) | (0x5a5a5a5a5a5a5a5aull & ~mask));
    unsigned long launches = 0;
    skt_set_param(SK_PARAM_CPU_SORT_BUCKET_BYTES, bucket_bytes);
    SKT_OK(sk_context_set_trace(skt_ctx, count_bucket_launch, &launches));
    check_keys(&c, keys);
    SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
    free(keys);
    return launches;
}

/* The CPU shape's line scatter over more than two digits' bits sorts by
 * buckets of the top differing digit, each sorted below it inside the
 * caches, where the largest bucket fits the bound: 4- and 8-byte keys,
 * keys and pairs (8-bit digits: 24 bits below the top digit, two passes
 * of the buckets' 12), top digits of several widths (by n), both
 * orders, bit ranges, keys whose top bits are shared (the top differing
 * digit is not the one the bounds pass counts: a histogram pass of its
 * own), few unique keys (ties within buckets), tile and line edges; each against the reference, with its launches of
 * the buckets' kernel counted. A bound of one byte never takes them; a
 * bound the ties overflow counts the buckets, then sorts by the passes.
 * On a GPU device (the CPU shape forced there) they are never taken: every
 * case sorts by the passes. */
Test(sort, buckets_by_the_top_digit_should_match_reference_in_cpu_shape, .timeout = 600)
{
    sk_device_desc desc = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &desc));
    const unsigned long one = desc.is_gpu ? 0 : 1; /* the kernel's launches where taken */
    skt_force_shape(SK_SHAPE_CPU);
    skt_set_param(SK_PARAM_CPU_SORT_LINES_FROM, 1);
    skt_set_param(SK_PARAM_CPU_CHUNKS, 5);
    skt_set_param(SK_PARAM_CPU_SERIAL_BELOW, 1);
    const char *cfg = "cpu shape, line scatter forced, 5 chunks";
    size_t big = 40000 + skt_rand_below(1000);
    const sort_case taken[] = {
        {SK_UINT32, 0, 0, 0, 0, big, D_UNIFORM, cfg},
        {SK_INT32, 4, 1, 0, 0, big, D_UNIFORM, cfg},
        {SK_FLOAT32, 8, 0, 0, 0, big, D_SPECIALS, cfg},
        {SK_UINT64, 0, 1, 0, 0, big, D_UNIFORM, cfg},
        {SK_INT64, 4, 0, 0, 0, 4097, D_UNIFORM, cfg},
        {SK_UINT32, 4, 0, 3, 29, big, D_UNIFORM, cfg},
        {SK_UINT32, 0, 1, 0, 0, 2049, D_UNIFORM, cfg},
        {SK_UINT32, 0, 0, 0, 0, 16 * 5 + 1, D_UNIFORM, cfg},
        /* enough keys for a wider digit than the smallest (buckets of
         * about 2^12 keys each) */
        {SK_UINT32, 0, 1, 0, 0, ((size_t)1 << 21) + 3, D_UNIFORM, cfg},
    };
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        unsigned long runs = bucket_case(taken[i], 0, 1L << 20);
        cr_expect_eq(runs, one, "%s: %lu launches of the buckets' kernel, expected %lu",
                     case_name(&taken[i]), runs, one);
        cr_expect_eq(bucket_case(taken[i], 0, 1), 0, "%s: buckets taken with a bound of 1",
                     case_name(&taken[i]));
    }
    if (type_available(SK_FLOAT64)) {
        sort_case f = {SK_FLOAT64, 4, 1, 0, 0, big, D_SPECIALS, cfg};
        cr_expect_eq(bucket_case(f, 0, 1L << 20), one, "%s: buckets taken %s", case_name(&f),
                     one ? "not" : "on a GPU");
    }
    /* The top differing digit below the range's top digit. */
    sort_case low = {SK_UINT32, 4, 1, 0, 0, big, D_UNIFORM, cfg};
    cr_expect_eq(bucket_case(low, 27, 1L << 20), one, "%s (27 low bits differ)",
                 case_name(&low));
    sort_case low64 = {SK_UINT64, 0, 0, 0, 0, big, D_UNIFORM, cfg};
    cr_expect_eq(bucket_case(low64, 40, 1L << 20), one, "%s (40 low bits differ)",
                 case_name(&low64));
    /* Ties: few unique keys fill a few buckets; within 1 MiB they sort
     * there, past 256 bytes by the passes. */
    sort_case few = {SK_UINT32, 4, 0, 0, 0, big, D_FEW_UNIQUE, cfg};
    unsigned long runs = bucket_case(few, 0, 1L << 20);
    cr_expect(runs <= one, "%s: %lu launches", case_name(&few), runs);
    cr_expect_eq(bucket_case(few, 0, 256), 0, "%s: a bucket past the bound taken",
                 case_name(&few));
    /* Too few differing bits (two digits or less): the passes. */
    sort_case low_keys = {SK_UINT32, 0, 0, 0, 0, big, D_UNIFORM, cfg};
    cr_expect_eq(bucket_case(low_keys, 22, 1L << 20), 0, "%s (22 low bits differ)",
                 case_name(&low_keys));
}

Test(sort, large_inputs_should_match_reference_in_gpu_shape, .timeout = 600)
{
    skt_force_shape(SK_SHAPE_GPU);
    size_t n = ((size_t)1 << 21) + 1 + skt_rand_below(1000);
    sort_case a = {SK_UINT32, 4, 1, 0, 0, n, D_UNIFORM, "gpu shape, default tiles"};
    check_case(&a);
    /* 8- and 16-bit keys with the default tiles (their GPU setting). */
    sort_case b = {SK_UINT8, narrow_vs(SK_SHAPE_GPU, SK_UINT8), 0, 0, 0, n, D_UNIFORM,
                   "gpu shape, default tiles"};
    check_case(&b);
    sort_case c = {SK_INT16, narrow_vs(SK_SHAPE_GPU, SK_INT16), 1, 0, 0, n, D_UNIFORM,
                   "gpu shape, default tiles"};
    check_case(&c);
}

/* ---- skipped passes ------------------------------------------------------------------ */

static unsigned long launches_for(const uint32_t *src, size_t n)
{
    uint32_t *keys = skt_malloc(n * 4);
    memcpy(keys, src, n * 4);
    double secs = 0;
    unsigned long launches = 0;
    skt_set_param(SK_PARAM_PROFILE, 1);
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, NULL));
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_UINT32, keys, n, SK_ASCENDING));
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    for (size_t i = 1; i < n; i++) cr_assert_leq(keys[i - 1], keys[i]);
    free(keys);
    return launches;
}

Test(sort, digits_that_are_the_same_in_every_key_should_be_skipped)
{
    skt_force_shape(SK_SHAPE_CPU);
    const size_t n = 5000;
    uint32_t *k = skt_malloc(n * 4);
    for (size_t i = 0; i < n; i++) k[i] = 0xdeadbeefu;
    unsigned long equal = launches_for(k, n);
    for (size_t i = 0; i < n; i++) k[i] = (uint32_t)skt_rand();
    unsigned long uniform = launches_for(k, n);
    for (size_t i = 0; i < n; i++) k[i] = (uint32_t)(skt_rand_below(256) << 24) | 0x1234u;
    unsigned long top_byte = launches_for(k, n);
    /* bounds pass; then per pass a histogram, its scan (one launch at this
     * size) and a scatter. One varying byte fits one digit of either width.
     * With bit 0 varying, the CPU shape's bounds pass already counted the
     * first digit: one histogram launch fewer. */
    cr_assert_eq(equal, 1, "all-equal keys: %lu launches, want only the bounds pass", equal);
    cr_assert_eq(top_byte, 4, "one varying byte: %lu launches, want one pass (4)", top_byte);
    cr_assert(uniform > 2 * top_byte && uniform % 3 == 0,
              "uniform keys: %lu launches, want several whole passes", uniform);
    free(k);
}

/* ---- GPU shape: constant digits swept or skipped -------------------------------------- */

/* Keys whose bits outside low | top are the same in every key: low as
 * given, top as the top bits of a 64-bit key (shifted down for narrower
 * keys). */
typedef struct const_pattern {
    const char *name;
    uint64_t low, top;
} const_pattern;

static const const_pattern PATTERNS[] = {
    {"all equal", 0, 0},
    {"top 16 bits shared", 0, 0x0000ffffffffffffull},
    {"only the top digit varying", 0, 0xff00000000000000ull},
    {"only bits 8-15 varying", 0xff00u, 0},
    {"bit 3 and the top bit varying", 0x8u, 0x8000000000000000ull},
};
#define PATTERN_COUNT (sizeof PATTERNS / sizeof PATTERNS[0])

static void fill_pattern(sk_type t, const const_pattern *p, void *keys, size_t n)
{
    unsigned drop = 64 - bits_of(t);
    uint64_t vary = p->low | p->top >> drop, fixed = 0x5a5a5a5a5a5a5a5aull >> drop;
    for (size_t i = 0; i < n; i++) put_key(t, keys, i, (skt_rand() & vary) | (fixed & ~vary));
}

/* Keys with constant digits in the GPU shape, each sorted with every digit
 * swept (the default below 2^26 keys: a sweep over a constant digit copies
 * its tiles) and with constant digits skipped
 * (SK_PARAM_GPU_SORT_SKIP_FROM 1), keys and pairs, both orders, against
 * the reference. Each type and value size takes its matrix tile setting
 * (gpu_cfg): no program of its own. */
static void constant_digits(sk_type t, size_t vs)
{
    static const size_t ns[] = {2, 97, 4095, 4097, 10007};
    skt_force_shape(SK_SHAPE_GPU);
    gpu_tiles(gpu_cfg(t, vs));
    size_t ks = key_size(t), nmax = 10007;
    void *keys = skt_malloc(nmax * ks);
    for (size_t i = 0; i < PATTERN_COUNT; i++)
        for (int k = 0; k < 4; k++) {
            int desc = k % 2, skip = k / 2;
            size_t n = ns[(i + (size_t)k) % (sizeof ns / sizeof ns[0])];
            fill_pattern(t, &PATTERNS[i], keys, n);
            skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, skip);
            sort_case c = {t, vs, desc, 0, 0, n, D_UNIFORM,
                           skt_fmt("gpu shape, %s, %s", PATTERNS[i].name,
                                   skip ? "constant digits skipped" : "every digit swept")};
            check_keys(&c, keys);
        }
    free(keys);
}

Test(sort, constant_digits_should_sort_alike_swept_or_skipped_in_gpu_shape)
{
    /* pairwise: each type with two value sizes, each value size twice */
    constant_digits(SK_UINT32, 0);
    constant_digits(SK_UINT32, 4);
    constant_digits(SK_INT64, 8);
    constant_digits(SK_INT64, 0);
    constant_digits(SK_FLOAT32, 8);
    constant_digits(SK_FLOAT32, 4);
}

/* Bit ranges of three digits: keys alone pass through two scratch
 * buffers, pairs end with a copy back; every digit swept. */
Test(sort, three_digit_bit_ranges_should_sort_with_every_digit_swept_in_gpu_shape)
{
    skt_force_shape(SK_SHAPE_GPU);
    static const size_t vss[] = {0, 4};
    for (size_t v = 0; v < 2; v++) {
        gpu_tiles(gpu_cfg(SK_UINT32, vss[v]));
        for (int desc = 0; desc < 2; desc++) {
            sort_case c = {SK_UINT32, vss[v], desc, 4, 28, 5003, (dist)(D_UNIFORM + desc * 5),
                           "gpu shape, bits [4, 28)"};
            check_case(&c);
        }
    }
}

/* Launches of sk_sort_keys for uint32 keys: the digit count's one (count
 * and scan) and a sweep per digit that varies, or per digit when every
 * digit is swept; the first sort after the scratch is made again zeroes
 * the words the digit count gathers in first, later ones find them zero. */
Test(sort, gpu_shape_should_sweep_every_digit_below_the_skip_threshold_and_skip_above)
{
    const size_t n = 5000;
    skt_force_shape(SK_SHAPE_GPU);
    gpu_tiles(gpu_cfg(SK_UINT32, 0));
    static const unsigned varying[PATTERN_COUNT] = {0, 2, 1, 1, 2};
    uint32_t *k = skt_malloc(n * 4);
    fill_pattern(SK_UINT32, &PATTERNS[0], k, n);
    skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, 1);
    SKT_OK(sk_context_trim(skt_ctx));
    unsigned long first = launches_for(k, n), base = launches_for(k, n);
    cr_assert_eq(first, 2, "%s, first sort: %lu launches, want the zeroing's and the digit "
                 "count's", PATTERNS[0].name, first);
    cr_assert_eq(base, 1, "%s: %lu launches, want the digit count's 1", PATTERNS[0].name, base);
    for (size_t i = 0; i < PATTERN_COUNT; i++) {
        fill_pattern(SK_UINT32, &PATTERNS[i], k, n);
        skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, 1);
        unsigned long skipped = launches_for(k, n);
        skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, (long)n + 1);
        unsigned long swept = launches_for(k, n);
        skt_set_param(SK_PARAM_GPU_SORT_SKIP_FROM, (long)n);
        unsigned long at = launches_for(k, n);
        cr_assert_eq(skipped, base + varying[i], "%s, skipping: %lu launches, want %lu",
                     PATTERNS[i].name, skipped, base + varying[i]);
        cr_assert_eq(swept, base + 4, "%s, below the threshold: %lu launches, want %lu",
                     PATTERNS[i].name, swept, base + 4);
        cr_assert_eq(at, skipped, "%s, n at the threshold: %lu launches, want %lu (skipping)",
                     PATTERNS[i].name, at, skipped);
    }
    free(k);
}

/* Below the threshold the call never waits for the device: behind a shut
 * gate on its queue it returns, and the results are right once the gate
 * opens. */
Test(sort, gpu_shape_sorts_below_the_skip_threshold_should_return_while_the_queue_is_held,
     .timeout = 120)
{
    skt_force_shape(SK_SHAPE_GPU);
    static const size_t vss[] = {0, 4};
    void *keys = skt_malloc(4097 * 4);
    for (size_t v = 0; v < 2; v++) {
        gpu_tiles(gpu_cfg(SK_UINT32, vss[v]));
        for (size_t i = 0; i < PATTERN_COUNT; i++) {
            size_t n = i % 2 ? 4097 : 1021;
            fill_pattern(SK_UINT32, &PATTERNS[i], keys, n);
            sort_case c = {SK_UINT32, vss[v], (int)(i % 2), 0, 0, n, D_UNIFORM,
                           skt_fmt("gpu shape, behind a shut gate, %s", PATTERNS[i].name)};
            check_keys(&c, keys); /* builds the programs, outside the gate */
            check_keys_gated(&c, keys, 1);
        }
    }
    free(keys);
}

/* ---- host forms -------------------------------------------------------------------------- */

static void host_case(sk_shape shape, sk_type t, size_t vs, int desc, size_t n)
{
    size_t ks = key_size(t);
    unsigned char *keys = skt_malloc((n + 1) * ks), *orig = skt_malloc((n + 1) * ks);
    unsigned char *want = skt_malloc((n + 1) * ks), *vals = skt_malloc((n + 1) * 8);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    skt_force_shape(shape);
    gpu_tiles(shape == SK_SHAPE_GPU ? gpu_cfg(t, vs) : 2);
    fill_keys(t, D_FEW_UNIQUE, orig, n);
    memcpy(keys, orig, n * ks);
    put_indices(vals, vs ? vs : 8, n);
    sk_sort_order o = desc ? SK_DESCENDING : SK_ASCENDING;
    if (vs) SKT_OK(sk_sort_pairs_host(skt_ctx, t, vs, keys, vals, n, o));
    else SKT_OK(sk_sort_keys_host(skt_ctx, t, keys, n, o));
    skt_ref_sort_perm(t, orig, n, desc, 0, bits_of(t), perm);
    skt_ref_gather(orig, ks, perm, n, want);
    sort_case c = {t, vs, desc, 0, 0, n, D_FEW_UNIQUE, "host form"};
    expect_keys(&c, keys, want, case_name(&c));
    if (vs) expect_perm(&c, vals, perm, case_name(&c));
    free(keys);
    free(orig);
    free(want);
    free(vals);
    free(perm);
}

Test(sort, host_forms_should_match_reference)
{
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < SK_KEY_TYPE_COUNT; t++) {
            if (!type_available((sk_type)t)) continue;
            sk_shape shape = s ? SK_SHAPE_GPU : SK_SHAPE_CPU;
            if (is_narrow((sk_type)t)) {
                size_t vs = narrow_vs(shape, (sk_type)t);
                host_case(shape, (sk_type)t, vs, t % 2, 1 + skt_rand_below(3000));
                host_case(shape, (sk_type)t, vs, 1 - t % 2, 40000 + skt_rand_below(3000));
                continue;
            }
            host_case(shape, (sk_type)t, 0, t % 2, 1 + skt_rand_below(3000));
            host_case(shape, (sk_type)t, 4, 1 - t % 2, 1 + skt_rand_below(3000));
            host_case(shape, (sk_type)t, 8, t % 2, 40000 + skt_rand_below(3000));
        }
}

Test(sort, zero_and_one_keys_should_be_accepted_with_null_host_arrays_for_zero)
{
    uint32_t one = 7, val = 9;
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_UINT32, NULL, 0, SK_ASCENDING));
    SKT_OK(sk_sort_pairs_host(skt_ctx, SK_UINT32, 4, NULL, NULL, 0, SK_DESCENDING));
    SKT_OK(sk_sort_pairs_host(skt_ctx, SK_UINT32, 4, &one, &val, 1, SK_DESCENDING));
    cr_assert_eq(one, 7);
    cr_assert_eq(val, 9);
}

Test(sort, repeated_calls_should_reuse_scratch_and_stay_correct)
{
    /* Large, then small, then large again: scratch from a bigger call must
     * not leak into a smaller one. */
    static const size_t ns[] = {70000, 300, 5, 70001, 1};
    for (size_t i = 0; i < 5; i++) {
        sort_case c = {SK_UINT64, 4, (int)(i % 2), 0, 0, ns[i], D_UNIFORM, "reuse"};
        check_case(&c);
    }
}

/* ---- errors ----------------------------------------------------------------------------- */

static void expect_unchanged(cl_mem m, const unsigned char *want, size_t bytes,
                             const char *what)
{
    unsigned char *got = skt_malloc(bytes);
    skt_buf_download(m, 0, got, bytes);
    cr_assert_eq(memcmp(got, want, bytes), 0, "%s: the buffer was modified", what);
    free(got);
}

Test(sort_errors, bad_arguments_should_give_invalid_arg_and_leave_outputs_untouched)
{
    const size_t n = 64;
    sk_context *c = skt_ctx;
    uint64_t hk[64], hv[64];
    for (size_t i = 0; i < n; i++) {
        hk[i] = skt_rand();
        hv[i] = i;
    }
    cl_mem k = skt_buf_new(n * 8), v = skt_buf_new(n * 8), small = skt_buf_new(n * 4 - 4);
    skt_buf_upload(k, 0, hk, n * 8);
    skt_buf_upload(v, 0, hv, n * 8);
    const sk_sort_order A = SK_ASCENDING;
    SKT_EXPECT_STATUS(sk_sort_keys(NULL, SK_UINT32, k, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, SK_UINT32, NULL, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, (sk_type)17, k, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, (sk_type)-1, k, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, SK_UINT32, k, n, (sk_sort_order)2), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, SK_UINT64, k, n + 1, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, SK_UINT32, small, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, SK_UINT64, k, SIZE_MAX / 8 + 2, A), SK_E_SIZE);
    static const size_t bad_vs[] = {0, 1, 2, 3, 5, 16};
    for (size_t i = 0; i < sizeof bad_vs / sizeof bad_vs[0]; i++)
        SKT_EXPECT_STATUS(sk_sort_pairs(c, SK_UINT32, bad_vs[i], k, v, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs(c, SK_UINT32, 4, k, NULL, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs(c, SK_UINT32, 4, k, small, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs(c, SK_UINT32, 4, k, k, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs(c, SK_UINT64, 8, k, v, n + 1, A), SK_E_INVALID_ARG);
    static const unsigned bad_bits[][2] = {{0, 0}, {5, 5}, {6, 5}, {0, 33}, {32, 33}, {40, 64}};
    for (size_t i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; i++) {
        SKT_EXPECT_STATUS(sk_sort_keys_bits(c, SK_UINT32, k, n, A, bad_bits[i][0],
                                            bad_bits[i][1]), SK_E_INVALID_ARG);
        SKT_EXPECT_STATUS(sk_sort_pairs_bits(c, SK_FLOAT32, 8, k, v, n, A, bad_bits[i][0],
                                             bad_bits[i][1]), SK_E_INVALID_ARG);
    }
    SKT_EXPECT_STATUS(sk_sort_keys_bits(c, SK_UINT64, k, n, A, 0, 65), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_bits(c, SK_INT64, k, n, A, 64, 64), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_bits(c, SK_UINT8, k, n, A, 0, 9), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_bits(c, SK_INT8, k, n, A, 8, 8), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_bits(c, SK_FLOAT16, 4, k, v, n, A, 0, 17),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys(c, SK_UINT16, small, 4 * n, A), SK_E_INVALID_ARG);
    expect_unchanged(k, (const unsigned char *)hk, n * 8, "keys after bad calls");
    expect_unchanged(v, (const unsigned char *)hv, n * 8, "values after bad calls");

    uint64_t ck[64], cv[64];
    memcpy(ck, hk, sizeof ck);
    memcpy(cv, hv, sizeof cv);
    SKT_EXPECT_STATUS(sk_sort_keys_host(NULL, SK_UINT32, ck, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_host(c, SK_UINT32, NULL, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_host(c, (sk_type)SK_KEY_TYPE_COUNT, ck, n, A),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_host(c, SK_UINT32, 4, ck, NULL, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_host(c, SK_UINT32, 6, ck, cv, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_host(c, SK_UINT32, 4, ck, ck, n, A), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_host(c, SK_UINT32, 4, ck, cv, n, (sk_sort_order)7),
                      SK_E_INVALID_ARG);
    cr_assert_eq(memcmp(ck, hk, sizeof ck), 0, "host keys modified by a bad call");
    cr_assert_eq(memcmp(cv, hv, sizeof cv), 0, "host values modified by a bad call");
    skt_buf_free(k);
    skt_buf_free(v);
    skt_buf_free(small);
}

Test(sort_errors, float64_keys_should_be_unsupported_without_fp64)
{
    if (skt_has_fp64()) cr_skip_test("the device has fp64");
    cl_mem k = skt_buf_new(64);
    SKT_EXPECT_STATUS(sk_sort_keys(skt_ctx, SK_FLOAT64, k, 8, SK_ASCENDING), SK_E_UNSUPPORTED);
    skt_buf_free(k);
}
