/*
 * test_bykey.c - sk_run_length_encode, sk_reduce_by_key, sk_scan_by_key_*
 * and sk_unique_by_key (cl_mem and host forms, built-in operators and a
 * custom monoid) against the serial references of tests/ref/ref_bykey.c
 * and tests/ref/ref_segscan.c.
 *
 * One case per key type x shape x size class (small tiles: many chunks or
 * work-groups at small sizes; default tiles: sizes around the default
 * tiles and chunks, and a large n). At each size every operation runs on
 * keys of one distribution (taking turns: runs of random length, few
 * unique, all equal, all distinct, alternating; float keys drawn with
 * +-0, +-inf and NaNs of either sign and several payloads among them),
 * the cl_mem and host forms taking turns, scans in place now and then.
 * With default tiles and in one shape (the key types take turns) each key
 * type's values are of another type and operator, so every value type
 * meets the by-key path; elsewhere they are uint32 added, and with small
 * tiles unique by key takes the keys alone (each configuration of a
 * primitive below is a program of its own, compiled once: unique by key's
 * are the compaction suite's own; the encoding's and the reduction's are
 * one per key width and value kind, which on the CPU shape the scans by
 * key share). Keys are compared bit for bit; the outputs past the runs
 * stay poisoned. The scans by key also run VERIFY.md's
 * interval-of-summations test, restarted at every run; runs laid against
 * the tile edges check the encoding and the reduction in both shapes. The
 * GPU shape's encoding and reduction take its paths in turns, size by
 * size (sk__test_set_bykey_tiles_from, sk__test_set_bykey_join): the
 * lifted pass, and the tiles, whose look-back carries the runs' totals
 * (integer values) or whose join, by one work-group or by the lifted
 * scan, completes the runs crossing them.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_bykey.h"
#include "ref/ref_segscan.h"
#include "sk_testing.h"
#include "skt_segscan.h"

TestSuite(bykey, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(bykey_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD SKT_GUARD
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- keys ---------------------------------------------------------------------------------- */

typedef enum key_dist { D_RUNS, D_FEW, D_EQUAL, D_DISTINCT, D_ALTERNATING, D_COUNT } key_dist;
static const char *const DIST_NAMES[D_COUNT] = {"random runs", "few unique", "all equal",
                                                "all distinct", "alternating"};

/* Key i of n distinct bit patterns of `size` bytes (an odd multiplier is
 * a bijection of the words). */
static uint64_t distinct_bits(size_t i, size_t size, uint64_t salt)
{
    uint64_t v = (uint64_t)i * 0x9E3779B97F4A7C15ull + salt;
    return size == 4 ? (uint32_t)((uint32_t)i * 2654435761u + (uint32_t)salt) : v;
}

static void make_keys(sk_type t, key_dist d, void *dst, size_t n)
{
    size_t ks = sk_type_size(t);
    uint64_t pool[5], salt = skt_rand();
    for (size_t p = 0; p < 5; p++) pool[p] = skt_random_key(t);
    if (pool[1] == pool[0]) pool[1] = ~pool[0];
    uint64_t cur = pool[0];
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = pool[0];
        if (d == D_DISTINCT) bits = distinct_bits(i, ks, salt);
        else if (d == D_ALTERNATING) bits = pool[i % 2];
        else if (d == D_FEW) bits = pool[skt_rand_below(3)];
        else if (d == D_RUNS && skt_rand_below(6) == 0) cur = pool[skt_rand_below(5)];
        if (d == D_RUNS) bits = cur;
        memcpy((char *)dst + i * ks, &bits, ks); /* little-endian hosts */
    }
}

/* Each key type's values with default tiles: another type and operator
 * (see the header). With small tiles every key type's values are uint32
 * added: those programs are the segmented scan suites' own, and each
 * (type, operator, tile) program of its own costs a compile. */
typedef struct value_kind {
    sk_type type;
    sk_op op;
} value_kind;

static value_kind values_for(sk_type key_type)
{
    static const value_kind v[SK_TYPE_COUNT] = {
        [SK_INT32] = {SK_FLOAT32, SK_OP_ADD}, [SK_UINT32] = {SK_UINT32, SK_OP_ADD},
        [SK_INT64] = {SK_INT64, SK_OP_MAX},   [SK_UINT64] = {SK_FLOAT64, SK_OP_MIN},
        [SK_FLOAT32] = {SK_INT32, SK_OP_XOR}, [SK_FLOAT64] = {SK_UINT64, SK_OP_MUL},
    };
    return v[key_type];
}

/* ---- device buffers --------------------------------------------------------------------- */

static cl_mem up(const void *p, size_t bytes)
{
    cl_mem m = skt_buf_new(bytes ? bytes : 1);
    if (bytes) skt_buf_upload(m, 0, p, bytes);
    return m;
}

static cl_mem poisoned(size_t bytes)
{
    cl_mem m = skt_buf_new(bytes);
    skt_buf_poison(m, bytes);
    return m;
}

/* The buffer's first `bytes` into a new host array; the buffer is freed. */
static unsigned char *down(cl_mem m, size_t bytes)
{
    unsigned char *h = skt_malloc(bytes);
    skt_finish();
    skt_buf_download(m, 0, h, bytes);
    skt_buf_free(m);
    return h;
}

static unsigned char *poisoned_host(size_t bytes)
{
    unsigned char *h = skt_malloc(bytes);
    skt_poison(h, bytes);
    return h;
}

/* got[0 .. used) must be what was expected (by `cmp`), the rest of its
 * `total` bytes still poison. */
static void expect_out(const unsigned char *got, size_t used, size_t total, const char *what)
{
    cr_assert_eq(skt_find_unpoisoned(got + used, total - used), (size_t)-1,
                 "%s: written past the output [seed %llu]", what,
                 (unsigned long long)skt_seed());
}

static void expect_runs(size_t got, size_t want, const char *what)
{
    cr_assert_eq(got, want, "%s: %zu runs, expected %zu [seed %llu]", what, got, want,
                 (unsigned long long)skt_seed());
}

/* ---- one operation at one size ------------------------------------------------------------- */

typedef struct bk_input {
    sk_type kt;
    value_kind vk;
    size_t n;
    const void *keys;
    const unsigned char *heads;
    size_t runs;
    bool host, in_place;
    const char *what;
} bk_input;

static void check_rle(const bk_input *in)
{
    size_t ks = sk_type_size(in->kt), n = in->n, cap = n + GUARD;
    void *want_v = skt_malloc(n * ks + 1);
    uint64_t *want_c = skt_malloc(n * 8 + 8);
    size_t want = skt_ref_run_length_encode(ks, in->keys, n, want_v, want_c), runs = 0;
    unsigned char *vals, *counts;
    const char *what = skt_fmt("%s, run-length encode", in->what);
    if (in->host) {
        vals = poisoned_host(cap * ks);
        counts = poisoned_host(cap * 8);
        SKT_OK(sk_run_length_encode_host(skt_ctx, in->kt, in->keys, vals, (uint64_t *)counts,
                                         &runs, n));
    } else {
        cl_mem src = up(in->keys, n * ks), v = poisoned(cap * ks), c = poisoned(cap * 8);
        SKT_OK(sk_run_length_encode(skt_ctx, in->kt, src, v, c, &runs, n));
        vals = down(v, cap * ks);
        counts = down(c, cap * 8);
        skt_buf_free(src);
    }
    expect_runs(runs, want, what);
    skt_expect_bytes(vals, want_v, runs, ks, what);
    skt_expect_elems(SK_UINT64, counts, want_c, runs, what);
    expect_out(vals, runs * ks, cap * ks, what);
    expect_out(counts, runs * 8, cap * 8, what);
    skt_free_all(want_v, want_c, vals, counts, NULL);
}

/* A reduce or unique call in the form in->host says: host arrays, or
 * buffers (cl_mem) through the same pointers. vs: the values' bytes. */
typedef sk_status (*pair_call)(const bk_input *in, size_t vs, void *k, void *v, void *ko,
                               void *vo, size_t *runs);

static sk_status call_reduce(const bk_input *in, size_t vs, void *k, void *v, void *ko,
                             void *vo, size_t *runs)
{
    value_kind vk = in->vk;
    (void)vs;
    if (in->host)
        return sk_reduce_by_key_host(skt_ctx, in->kt, vk.type, vk.op, k, v, ko, vo, runs, in->n);
    return sk_reduce_by_key(skt_ctx, in->kt, vk.type, vk.op, (cl_mem)k, (cl_mem)v, (cl_mem)ko,
                            (cl_mem)vo, runs, in->n);
}

/* vs 0: the keys alone (no values). */
static sk_status call_unique(const bk_input *in, size_t vs, void *k, void *v, void *ko,
                             void *vo, size_t *runs)
{
    if (vs == 0) v = vo = NULL;
    if (in->host) return sk_unique_by_key_host(skt_ctx, in->kt, vs, k, v, ko, vo, runs, in->n);
    return sk_unique_by_key(skt_ctx, in->kt, vs, (cl_mem)k, (cl_mem)v, (cl_mem)ko, (cl_mem)vo,
                            runs, in->n);
}

/* Runs `call` on the keys and `values` (vs bytes each) into outputs of
 * n + GUARD elements, poisoned; checks the runs, the keys bit for bit and
 * the values (by value as vt where vt >= 0, else bit for bit), and that
 * nothing past the runs was written. */
static void check_pairs(const bk_input *in, pair_call call, void *values, size_t vs, int vt,
                        const void *want_k, const void *want_v, size_t want, const char *what)
{
    size_t ks = sk_type_size(in->kt), n = in->n, cap = n + GUARD, runs = 0;
    unsigned char *ko, *vo;
    if (in->host) {
        ko = poisoned_host(cap * ks);
        vo = poisoned_host(cap * vs);
        SKT_OK(call(in, vs, (void *)in->keys, values, ko, vo, &runs));
    } else {
        cl_mem k = up(in->keys, n * ks), v = up(values, n * vs);
        cl_mem kb = poisoned(cap * ks), vb = poisoned(cap * vs);
        SKT_OK(call(in, vs, k, v, kb, vb, &runs));
        ko = down(kb, cap * ks);
        vo = down(vb, cap * vs);
        skt_buf_free(k);
        skt_buf_free(v);
    }
    expect_runs(runs, want, what);
    skt_expect_bytes(ko, want_k, runs, ks, what);
    if (vt >= 0) skt_expect_elems((sk_type)vt, vo, want_v, runs, what);
    else skt_expect_bytes(vo, want_v, runs, vs, what);
    expect_out(ko, runs * ks, cap * ks, what);
    expect_out(vo, runs * vs, cap * vs, what);
    skt_free_all(ko, vo, NULL);
}

static void check_reduce(const bk_input *in, void *values)
{
    value_kind vk = in->vk;
    size_t ks = sk_type_size(in->kt), vs = sk_type_size(vk.type), n = in->n;
    void *want_k = skt_malloc(n * ks + 1), *want_v = skt_malloc(n * vs + 1);
    size_t want = skt_ref_unique_by_key(ks, 0, in->keys, NULL, n, want_k, NULL);
    expect_runs(skt_ref_segreduce_heads(vk.type, vk.op, values, in->heads, n, want_v), want,
                "the references");
    check_pairs(in, call_reduce, values, vs, (int)vk.type, want_k, want_v, want,
                skt_fmt("%s, reduce by key (%s %s)", in->what, sk_type_name(vk.type),
                        sk_op_name(vk.op)));
    skt_free_all(want_k, want_v, NULL);
}

static void check_scan(const bk_input *in, const void *values, int excl)
{
    value_kind vk = in->vk;
    size_t ks = sk_type_size(in->kt), vs = sk_type_size(vk.type), n = in->n, cap = n + GUARD;
    void *want = skt_malloc(n * vs + 1);
    skt_ref_segscan(vk.type, vk.op, excl, values, want, in->heads, n);
    const char *what = skt_fmt("%s, scan by key %s (%s %s)%s", in->what,
                               excl ? "exclusive" : "inclusive", sk_type_name(vk.type),
                               sk_op_name(vk.op), in->in_place ? " in place" : "");
    unsigned char *out;
    if (in->host) {
        out = poisoned_host(cap * vs);
        SKT_OK((excl ? sk_scan_by_key_exclusive_host : sk_scan_by_key_inclusive_host)(
            skt_ctx, in->kt, vk.type, vk.op, in->keys, values, out, n));
    } else {
        cl_mem k = up(in->keys, n * ks), v = poisoned(cap * vs);
        if (n) skt_buf_upload(v, 0, values, n * vs);
        cl_mem o = in->in_place ? v : poisoned(cap * vs);
        SKT_OK((excl ? sk_scan_by_key_exclusive : sk_scan_by_key_inclusive)(
            skt_ctx, in->kt, vk.type, vk.op, k, v, o, n));
        out = down(o, cap * vs);
        if (!in->in_place) skt_buf_free(v);
        skt_buf_free(k);
    }
    skt_expect_elems(vk.type, out, want, n, what);
    expect_out(out, n * vs, cap * vs, what);
    skt_free_all(want, out, NULL);
}

static void check_unique(const bk_input *in, size_t vs)
{
    size_t ks = sk_type_size(in->kt), n = in->n;
    unsigned char *values = skt_malloc(n * vs + 1);
    for (size_t i = 0; i < n * vs; i++) values[i] = (unsigned char)skt_rand();
    void *want_k = skt_malloc(n * ks + 1), *want_v = skt_malloc(n * vs + 1);
    size_t want = skt_ref_unique_by_key(ks, vs, in->keys, values, n, want_k, want_v);
    check_pairs(in, call_unique, values, vs, -1, want_k, want_v, want,
                skt_fmt("%s, unique by key (%zu-byte values)", in->what, vs));
    skt_free_all(values, want_k, want_v, NULL);
}

/* Every operation at size n over keys of distribution d, values of vk;
 * unique by key with values unless keys_only. */
static void check_size(sk_type kt, value_kind vk, size_t n, key_dist d, size_t k,
                       bool keys_only)
{
    size_t ks = sk_type_size(kt);
    void *keys = skt_malloc(n * ks + 1);
    void *values = skt_malloc(n * sk_type_size(vk.type) + 1);
    unsigned char *heads = skt_malloc(n + 1);
    make_keys(kt, d, keys, n);
    skt_fill(vk.type, vk.op, values, n);
    size_t runs = skt_ref_key_heads(ks, keys, n, heads);
    char name[160];
    snprintf(name, sizeof name, "%s keys, %s, n=%zu (%zu runs)", sk_type_name(kt),
             DIST_NAMES[d], n, runs);
    bk_input in = {kt, vk, n, keys, heads, runs, k % 2 == 1, k % 3 == 0, name};
    check_rle(&in);
    check_reduce(&in, values);
    check_scan(&in, values, (int)(k % 2));
    in.host = !in.host;
    check_scan(&in, values, (int)(k % 2 == 0));
    check_unique(&in, keys_only ? 0 : ks == 4 ? 8 : 4);
    skt_free_all(keys, values, heads, NULL);
}

enum { SC_SMALL, SC_DEFAULT, SC_COUNT };

/* The join the i-th size's tiles take (every other size is by tiles):
 * as tuned (at test sizes the look-back's carry where it can), by one
 * work-group, by the lifted scan. */
static sk__bykey_join join_in_turn(size_t i)
{
    static const sk__bykey_join joins[] = {SK__BYKEY_JOIN_TUNED, SK__BYKEY_JOIN_GROUP,
                                           SK__BYKEY_JOIN_SCAN};
    return joins[i / 2 % 3];
}

ParameterizedTestParameters(bykey, every_operation_matches_the_reference_for_every_key_type)
{
    skt_params ps = {0};
    skt_params_add(&ps, NULL, 0, SC_COUNT, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, bykey,
                  every_operation_matches_the_reference_for_every_key_type)
{
    static const size_t small[] = {0, 1, 2, 3, 7, 8, 9, 16, 17, 31, 101, 1009};
    static const size_t large[] = {0, 1, 255, 256, 257, 4095, 4096, 4097, 65537, 100003,
                                   (1u << 18) + 3, 1000003};
    const value_kind u32_add = {SK_UINT32, SK_OP_ADD};
    /* a key type's own values in one shape (the types take turns), so
     * every value kind meets the by-key path and both shapes meet several */
    bool own = p->size_class == SC_DEFAULT && (p->type + (p->shape == SK_SHAPE_GPU)) % 2 == 0;
    value_kind vk = own ? values_for((sk_type)p->type) : u32_add;
    skt_params_need_type(p);
    if (vk.type == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("values of float64 need fp64");
    skt_force_shape(p->shape);
    if (p->size_class == SC_SMALL) skt_tiles_small();
    const size_t *sizes = p->size_class == SC_SMALL ? small : large;
    for (size_t i = 0; i < COUNT_OF(small); i++) {
        /* the GPU shape's encoding and reduction lifted and by tiles in turns,
         * the tiles' runs carried by their look-back or joined after */
        SKT_OK(sk__test_set_bykey_tiles_from(skt_ctx, i % 2 ? 1 : SIZE_MAX));
        SKT_OK(sk__test_set_bykey_join(skt_ctx, join_in_turn(i)));
        check_size((sk_type)p->type, vk, sizes[i], (key_dist)((i + p->type) % D_COUNT), i,
                   p->size_class == SC_SMALL);
    }
}

/* ---- runs placed against the tiles ------------------------------------------------------- */

/* Run layouts against tiles of 8 elements (small tiles: GPU shape 4 x 2,
 * single pass past a few tiles; CPU shape 3 chunks): runs of exactly a
 * tile, a tile less one and a tile plus one (every offset of a run's end
 * within a tile), every run of length 1, one run over everything, and one
 * run over many tiles between runs of length 1. */
typedef enum edge_layout { E_TILE, E_TILE_LESS, E_TILE_MORE, E_ONES, E_ONE_RUN, E_MIDDLE,
                           E_COUNT } edge_layout;
static const char *const EDGE_NAMES[E_COUNT] = {
    "runs of a tile", "runs of a tile less one", "runs of a tile plus one", "runs of one",
    "one run", "one long run between runs of one"};

static uint32_t edge_key(edge_layout e, size_t i, size_t n)
{
    switch (e) {
    case E_TILE: return (uint32_t)(i / 8);
    case E_TILE_LESS: return (uint32_t)(i / 7);
    case E_TILE_MORE: return (uint32_t)(i / 9);
    case E_ONES: return (uint32_t)i;
    case E_ONE_RUN: return 7;
    default: return i < 5 || i + 5 >= n ? (uint32_t)i : (uint32_t)n;
    }
}

ParameterizedTestParameters(bykey, runs_against_tile_edges_encode_and_reduce_as_the_reference)
{
    skt_params ps = {0};
    const sk_type types[] = {SK_UINT32};
    skt_params_add(&ps, types, 1, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, bykey,
                  runs_against_tile_edges_encode_and_reduce_as_the_reference)
{
    static const size_t sizes[] = {0, 1, 7, 8, 9, 63, 64, 65, 71, 72, 73, 1000, 1001};
    const value_kind u32_add = {SK_UINT32, SK_OP_ADD};
    skt_force_shape(p->shape);
    skt_tiles_small();
    for (size_t s = 0; s < COUNT_OF(sizes); s++) {
        SKT_OK(sk__test_set_bykey_tiles_from(skt_ctx, s % 2 ? 1 : SIZE_MAX));
        SKT_OK(sk__test_set_bykey_join(skt_ctx, join_in_turn(s)));
        for (int e = 0; e < E_COUNT; e++) {
            size_t n = sizes[s];
            uint32_t *keys = skt_malloc(n * 4 + 4), *values = skt_malloc(n * 4 + 4);
            unsigned char *heads = skt_malloc(n + 1);
            for (size_t i = 0; i < n; i++) keys[i] = edge_key((edge_layout)e, i, n);
            skt_fill(SK_UINT32, SK_OP_ADD, values, n);
            size_t runs = skt_ref_key_heads(4, keys, n, heads);
            const char *name = skt_fmt("%s, n=%zu (%zu runs)", EDGE_NAMES[e], n, runs);
            bk_input in = {SK_UINT32, u32_add, n, keys, heads, runs, (s + e) % 2 == 1, false,
                           name};
            check_rle(&in);
            check_reduce(&in, values);
            skt_free_all(keys, values, heads, NULL);
        }
    }
}

/* ---- the GPU shape's tiles and the scan path ------------------------------------------- */

static void count_tiles(const sk_launch_record *rec, void *user)
{
    if (strcmp(rec->kernel, "sk_bykey_tiles") == 0) ++*(unsigned long *)user;
}

/* The tiles look back: a context that asks for reduce-then-scan gets the
 * lifted scan instead, with the same runs. */
Test(bykey, reduce_then_scan_leaves_the_tiles_out)
{
    const size_t n = 5000;
    uint32_t *keys = skt_malloc(n * 4), *values = skt_malloc(n * 4);
    unsigned char *heads = skt_malloc(n);
    for (size_t i = 0; i < n; i++) keys[i] = (uint32_t)(i / 37 + (skt_rand() % 5 == 0));
    skt_fill(SK_UINT32, SK_OP_ADD, values, n);
    size_t runs = skt_ref_key_heads(4, keys, n, heads);
    const value_kind u32_add = {SK_UINT32, SK_OP_ADD};
    skt_force_shape(SK_SHAPE_GPU);
    SKT_OK(sk__test_set_bykey_tiles_from(skt_ctx, 1));
    for (int rts = 0; rts <= 1; rts++) {
        skt_force_scan_path(rts ? SK_SCAN_PATH_REDUCE_THEN_SCAN : SK_SCAN_PATH_AUTO);
        unsigned long tiles = 0;
        SKT_OK(sk_context_set_trace(skt_ctx, count_tiles, &tiles));
        bk_input in = {SK_UINT32, u32_add, n, keys, heads, runs, rts == 1, false,
                       rts ? "reduce-then-scan" : "scan path as tuned"};
        check_rle(&in);
        check_reduce(&in, values);
        SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
        if (rts)
            cr_assert_eq(tiles, 0ul, "reduce-then-scan: sk_bykey_tiles ran %lu times", tiles);
        else
            cr_assert_eq(tiles, 2ul, "as tuned: sk_bykey_tiles ran %lu times, not 2", tiles);
    }
    skt_free_all(keys, values, heads, NULL);
}

/* ---- float keys: equal by bit pattern ---------------------------------------------------- */

/* -0.0 and +0.0 are two keys; NaNs of one bit pattern are one key, NaNs
 * of another sign or payload others; infinities equal themselves. */
Test(bykey, float_keys_are_equal_exactly_when_their_bits_are)
{
    const uint32_t qnan = 0x7fc00000u, nnan = 0xffc00000u, pnan = 0x7fc00001u;
    const uint32_t bits[] = {0x00000000u, 0x80000000u, 0x80000000u, qnan, qnan, nnan,
                             pnan, 0x7f800000u, 0x7f800000u, 0x3f800000u, 0x00000000u};
    const size_t n = COUNT_OF(bits);
    const uint32_t want_v[] = {0x00000000u, 0x80000000u, qnan, nnan, pnan, 0x7f800000u,
                               0x3f800000u, 0x00000000u};
    const uint64_t want_c[] = {1, 2, 2, 1, 1, 2, 1, 1};
    float keys[COUNT_OF(bits)], vals[COUNT_OF(bits)];
    uint32_t got_v[COUNT_OF(bits)];
    uint64_t got_c[COUNT_OF(bits)];
    memcpy(keys, bits, sizeof keys);
    size_t runs = 0;
    SKT_OK(sk_run_length_encode_host(skt_ctx, SK_FLOAT32, keys, got_v, got_c, &runs, n));
    expect_runs(runs, COUNT_OF(want_v), "float32 specials");
    skt_expect_bytes(got_v, want_v, runs, 4, "float32 specials: the values, bit for bit");
    skt_expect_elems(SK_UINT64, got_c, want_c, runs, "float32 specials: the counts");
    for (size_t i = 0; i < n; i++) vals[i] = 1.0f;
    float sums[COUNT_OF(bits)], kout[COUNT_OF(bits)];
    const float want_s[] = {1, 2, 2, 1, 1, 2, 1, 1};
    SKT_OK(sk_reduce_by_key_host(skt_ctx, SK_FLOAT32, SK_FLOAT32, SK_OP_ADD, keys, vals, kout,
                                 sums, &runs, n));
    expect_runs(runs, COUNT_OF(want_s), "float32 specials, reduce by key");
    skt_expect_elems(SK_FLOAT32, sums, want_s, runs, "float32 specials, reduce by key");
    skt_expect_bytes(kout, want_v, runs, 4, "float32 specials, reduce by key: the keys");
}

/* float64 keys through the sort then the encoding: one run per distinct
 * bit pattern, the radix sort's grouping. */
Test(bykey, sorted_float64_keys_give_one_run_per_bit_pattern)
{
    if (!skt_has_fp64()) cr_skip_test("no fp64");
    const size_t n = 5000;
    double *keys = skt_malloc(n * 8), *vals = skt_malloc(n * 8);
    const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.5};
    for (size_t i = 0; i < n; i++) keys[i] = special[skt_rand_below(COUNT_OF(special))];
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_FLOAT64, keys, n, SK_ASCENDING));
    uint64_t *counts = skt_malloc(n * 8), total = 0;
    size_t runs = 0;
    SKT_OK(sk_run_length_encode_host(skt_ctx, SK_FLOAT64, keys, vals, counts, &runs, n));
    unsigned char *heads = skt_malloc(n);
    expect_runs(runs, skt_ref_key_heads(8, keys, n, heads), "sorted float64 specials");
    cr_assert_leq(runs, COUNT_OF(special), "more runs than distinct keys");
    for (size_t r = 0; r < runs; r++) total += counts[r];
    cr_assert_eq(total, n, "the counts add up to %llu, not n", (unsigned long long)total);
    skt_free_all(keys, vals, counts, heads, NULL);
}

/* ---- a custom monoid: 2x2 matrix products, not commutative ---------------------------------- */

ParameterizedTestParameters(bykey, matrix_monoid_reduces_and_scans_each_run_in_order)
{
    skt_params ps = {0};
    const sk_type types[] = {SK_UINT64};
    skt_params_add(&ps, types, 1, 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, bykey, matrix_monoid_reduces_and_scans_each_run_in_order)
{
    const size_t n = 3001, es = sizeof(skt_mat2);
    skt_force_shape(p->shape);
    skt_tiles_small();
    uint64_t *keys = skt_malloc(n * 8), *kout = skt_malloc(n * 8);
    skt_mat2 *v = skt_malloc(n * es), *want = skt_malloc(n * es), *got = skt_malloc(n * es);
    unsigned char *heads = skt_malloc(n);
    skt_mat2 id = skt_ref_mat2_identity();
    make_keys(SK_UINT64, D_RUNS, keys, n);
    skt_fill_mat2(v, n);
    skt_ref_key_heads(8, keys, n, heads);
    for (int excl = 0; excl < 2; excl++) {
        skt_ref_segscan_generic(es, mat2_combine, &id, excl, v, want, heads, n);
        SKT_OK((excl ? sk_scan_by_key_exclusive_monoid_host : sk_scan_by_key_inclusive_monoid_host)(
            skt_ctx, SK_UINT64, skt_monoid_mat2(), keys, v, got, n));
        skt_expect_bytes(got, want, n, es, excl ? "mat2 exclusive scan by key"
                                                 : "mat2 inclusive scan by key");
    }
    size_t runs = 0;
    size_t nref = skt_ref_segreduce_heads_generic(es, mat2_combine, &id, v, heads, n, want);
    SKT_OK(sk_reduce_by_key_monoid_host(skt_ctx, SK_UINT64, skt_monoid_mat2(), keys, v, kout,
                                        got, &runs, n));
    expect_runs(runs, nref, "mat2 reduce by key");
    skt_expect_bytes(got, want, runs, es, "mat2 reduce by key");
    skt_free_all(keys, kout, v, want, got, heads, NULL);
}

/* ---- the interval-of-summations test restarted at every run ----------------------------- */

/* VERIFY.md's test through the scans by key: in[k] = (k, k), keys in
 * runs; out[k] must be (h, k) inclusive and (h, k - 1) exclusive (the
 * identity at h), h the first element of k's run. A dropped, repeated,
 * swapped or misordered operand, or a run restarted in the wrong place,
 * ends in another interval or in top. Every n to 300 on small tiles,
 * then a few past the default tiles, both shapes. */
ParameterizedTestParameters(bykey, interval_of_summations_restarts_at_every_run)
{
    skt_params ps = {0};
    const sk_type types[] = {SK_UINT32};
    skt_params_add(&ps, types, 1, 1, 0, 0);
    return skt_params_done(&ps);
}

static void check_intervals(size_t n, int excl)
{
    skt_interval *in = skt_malloc(n * sizeof *in + 1), *out = skt_malloc(n * sizeof *out + 1);
    uint32_t *keys = skt_malloc(n * 4 + 1);
    make_keys(SK_UINT32, D_RUNS, keys, n);
    for (size_t k = 0; k < n; k++) in[k] = (skt_interval){(int32_t)k, (int32_t)k};
    skt_poison(out, n * sizeof *out);
    SKT_OK((excl ? sk_scan_by_key_exclusive_monoid_host : sk_scan_by_key_inclusive_monoid_host)(
        skt_ctx, SK_UINT32, skt_monoid_interval(), keys, in, out, n));
    for (size_t k = 0, h = 0; k < n; k++) {
        if (k && keys[k] != keys[k - 1]) h = k;
        skt_interval want = {(int32_t)h, (int32_t)k - excl};
        if (excl && k == h) want = skt_ref_interval_identity();
        cr_assert(out[k].i == want.i && out[k].j == want.j,
                  "%s n=%zu: out[%zu] = (%d, %d), want (%d, %d) [seed %llu]",
                  excl ? "exclusive" : "inclusive", n, k, out[k].i, out[k].j, want.i, want.j,
                  (unsigned long long)skt_seed());
    }
    skt_free_all(in, out, keys, NULL);
}

ParameterizedTest(const skt_param *p, bykey, interval_of_summations_restarts_at_every_run)
{
    static const size_t large[] = {4095, 4096, 4097, 65537};
    skt_force_shape(p->shape);
    skt_tiles_small();
    for (size_t n = 0; n <= 300; n++) check_intervals(n, (int)(n % 2));
    skt_tiles_default();
    for (size_t i = 0; i < COUNT_OF(large); i++) check_intervals(large[i], (int)(i % 2));
}

/* ---- errors ------------------------------------------------------------------------------ */

Test(bykey_errors, bad_arguments_give_statuses_and_leave_outputs_alone)
{
    const uint32_t keys[4] = {1, 1, 2, 3};
    const float fv[4] = {1, 2, 3, 4};
    uint32_t kout[4];
    uint64_t counts[4];
    float vout[4];
    size_t runs = 77;
    skt_poison(kout, sizeof kout);
    skt_poison(counts, sizeof counts);
    skt_poison(vout, sizeof vout);
    SKT_EXPECT_STATUS(sk_run_length_encode_host(NULL, SK_UINT32, keys, kout, counts, &runs, 4),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_run_length_encode_host(skt_ctx, (sk_type)99, keys, kout, counts, &runs,
                                                4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_run_length_encode_host(skt_ctx, SK_UINT32, keys, kout, counts, NULL, 4),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_run_length_encode_host(skt_ctx, SK_UINT32, NULL, kout, counts, &runs, 4),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_run_length_encode_host(skt_ctx, SK_UINT32, keys, kout, NULL, &runs, 4),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_run_length_encode_host(skt_ctx, SK_UINT32, keys, kout, counts, &runs,
                                                SIZE_MAX / 2), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_reduce_by_key_host(skt_ctx, SK_UINT32, SK_FLOAT32, SK_OP_XOR, keys, fv,
                                            kout, vout, &runs, 4), SK_E_UNSUPPORTED);
    SKT_EXPECT_STATUS(sk_reduce_by_key_monoid_host(skt_ctx, SK_UINT32, NULL, keys, fv, kout,
                                                   vout, &runs, 4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_by_key_inclusive_host(skt_ctx, SK_UINT32, SK_FLOAT32, SK_OP_ADD,
                                                    keys, NULL, vout, 4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_unique_by_key_host(skt_ctx, SK_UINT32, 3, keys, fv, kout, vout, &runs,
                                            4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_unique_by_key_host(skt_ctx, SK_UINT32, 4, keys, fv, kout, NULL, &runs,
                                            4), SK_E_INVALID_ARG);
    cr_assert_eq(runs, 77, "a refused call wrote runs");
    cr_assert_eq(skt_find_unpoisoned(kout, sizeof kout), (size_t)-1, "keys out written");
    cr_assert_eq(skt_find_unpoisoned(counts, sizeof counts), (size_t)-1, "counts written");
    cr_assert_eq(skt_find_unpoisoned(vout, sizeof vout), (size_t)-1, "values out written");
}

Test(bykey_errors, bad_buffers_are_refused_and_left_alone)
{
    cl_mem keys = skt_buf_new(16), vals = skt_buf_new(16), small = skt_buf_new(8);
    cl_mem kout = skt_buf_new(16), vout = skt_buf_new(32);
    size_t runs = 77;
    skt_buf_poison(kout, 16);
    skt_buf_poison(vout, 32);
    skt_buf_poison(small, 8);
    SKT_EXPECT_STATUS(sk_run_length_encode(skt_ctx, SK_UINT32, keys, kout, small, &runs, 4),
                      SK_E_INVALID_ARG); /* counts smaller than 4 uint64 */
    SKT_EXPECT_STATUS(sk_run_length_encode(skt_ctx, SK_UINT32, keys, keys, vout, &runs, 4),
                      SK_E_INVALID_ARG); /* values_out is src */
    SKT_EXPECT_STATUS(sk_run_length_encode(skt_ctx, SK_UINT32, keys, vout, vout, &runs, 4),
                      SK_E_INVALID_ARG); /* both outputs one buffer */
    SKT_EXPECT_STATUS(sk_reduce_by_key(skt_ctx, SK_UINT32, SK_UINT32, SK_OP_ADD, small, vals,
                                       kout, vout, &runs, 4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_reduce_by_key(skt_ctx, SK_UINT32, SK_UINT32, SK_OP_ADD, keys, vals,
                                       kout, vals, &runs, 4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_by_key_inclusive(skt_ctx, SK_UINT32, SK_UINT32, SK_OP_ADD, keys,
                                               vals, keys, 4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_scan_by_key_exclusive(skt_ctx, SK_UINT32, SK_UINT64, SK_OP_ADD, keys,
                                               vals, vout, 4), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_unique_by_key(skt_ctx, SK_UINT32, 4, keys, vals, kout, small, &runs, 4),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_unique_by_key(skt_ctx, SK_UINT32, 4, keys, vals, kout, kout, &runs, 4),
                      SK_E_INVALID_ARG);
    cr_assert_eq(runs, 77, "a refused call wrote runs");
    unsigned char back[32];
    skt_buf_download(kout, 0, back, 16);
    cr_assert_eq(skt_find_unpoisoned(back, 16), (size_t)-1, "a refused call wrote keys_out");
    skt_buf_download(vout, 0, back, 32);
    cr_assert_eq(skt_find_unpoisoned(back, 32), (size_t)-1, "a refused call wrote values_out");
    skt_buf_download(small, 0, back, 8);
    cr_assert_eq(skt_find_unpoisoned(back, 8), (size_t)-1, "a refused call wrote a buffer");
    skt_buf_free(keys);
    skt_buf_free(vals);
    skt_buf_free(small);
    skt_buf_free(kout);
    skt_buf_free(vout);
}
