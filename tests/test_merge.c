/*
 * test_merge.c - sk_merge_keys/_pairs and their host-array forms, against
 * the serial stable merge in tests/ref/ref_merge.c.
 *
 * Values carry each element's origin (which input, and its position
 * there), so the values after a merge spell out which element went where:
 * every check compares them with the reference's origins, which pins
 * stability. Keys are compared bit for bit (NaN payloads and -0.0
 * included).
 *
 * One case per key type x shape x size class (small tiles: many parts at
 * small sizes; default tiles: sizes around the default tiles and chunks,
 * up to 10^5); each runs keys only, 4-byte and 8-byte values, ascending
 * and descending, over the inputs: random sorted, all keys equal, one side
 * or both empty, disjoint ranges (all of a below b, and above),
 * interleaved, few unique keys (duplicates across the sides); float keys
 * mix in NaNs of both signs, +-0 and +-inf. The 8- and 16-bit keys run one
 * shape and value size each, with small tiles. Outputs are poisoned past
 * na + nb and must stay so; inputs must come back unchanged.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_merge.h"
#include "ref/ref_sort.h"
#include "skt_common.h"

TestSuite(merge, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(merge_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 8 /* elements after na + nb that must stay poisoned */

/* ---- inputs ------------------------------------------------------------------- */

typedef enum shape_of_input {
    IN_RANDOM, IN_EQUAL, IN_A_BELOW_B, IN_A_ABOVE_B, IN_INTERLEAVED, IN_FEW_UNIQUE,
    IN_COUNT
} shape_of_input;

static const char *const INPUT_NAMES[IN_COUNT] = {"random",      "all equal",   "a below b",
                                                  "a above b",   "interleaved", "few unique"};

/* a[0 .. na) and b[0 .. nb), each sorted, shaped as `in` says. */
static void make_inputs(sk_type t, shape_of_input in, int descending, void *a, size_t na,
                        void *b, size_t nb)
{
    size_t ks = sk_type_size(t), n = na + nb;
    unsigned char *pool = skt_malloc((n + 1) * ks);
    uint64_t few[3] = {skt_random_key(t), skt_random_key(t), skt_random_key(t)};
    for (size_t i = 0; i < n; i++)
        skt_ref_put_key(t, pool, i, in == IN_EQUAL        ? few[0]
                                    : in == IN_FEW_UNIQUE ? few[skt_rand_below(3)]
                                                          : skt_random_key(t));
    if (in == IN_A_BELOW_B || in == IN_A_ABOVE_B || in == IN_INTERLEAVED) {
        /* One sorted pool dealt out: the first na to a (or the last na),
         * or alternately while both sides have room. */
        skt_ref_sort_keys(t, pool, n, descending);
        size_t ia = 0, ib = 0;
        for (size_t k = 0; k < n; k++) {
            bool to_a = in == IN_A_BELOW_B   ? k < na
                        : in == IN_A_ABOVE_B ? k >= nb
                                             : (ib == nb || (ia < na && k % 2 == 0));
            memcpy(to_a ? (unsigned char *)a + ks * ia++ : (unsigned char *)b + ks * ib++,
                   pool + k * ks, ks);
        }
    } else {
        memcpy(a, pool, na * ks);
        memcpy(b, pool + na * ks, nb * ks);
        skt_ref_sort_keys(t, a, na, descending);
        skt_ref_sort_keys(t, b, nb, descending);
    }
    free(pool);
}

/* The value an element carries: its side (a: 0, b: 1) in the top bit and
 * its position there. */
static uint64_t origin_value(size_t vs, int side, size_t pos)
{
    unsigned top = 8 * (unsigned)vs - 1;
    return ((uint64_t)side << top) | (uint64_t)pos;
}

static void put_origins(void *vals, size_t vs, int side, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t v = origin_value(vs, side, i);
        memcpy((unsigned char *)vals + i * vs, &v, vs);
    }
}

/* ---- one checked merge ------------------------------------------------------------ */

typedef struct merge_case {
    sk_type t;
    size_t vs;              /* 0, 4 or 8 */
    int descending;
    size_t na, nb;
    shape_of_input in;
    const char *cfg;
} merge_case;

static const char *case_name(const merge_case *c)
{
    return skt_fmt("%s keys, %zu-byte values, %s, na=%zu nb=%zu, %s, %s", sk_type_name(c->t),
                   c->vs, c->descending ? "descending" : "ascending", c->na, c->nb,
                   INPUT_NAMES[c->in], c->cfg);
}

/* Device copies of an input (its n elements, then GUARD poisoned ones). */
static cl_mem upload(const void *src, size_t n, size_t size)
{
    return skt_buf_guarded(src, n, size, GUARD);
}

/* What the merge must give: keys and values gathered by the reference's
 * origins. */
static void expected(const merge_case *c, const void *a, const void *b, const void *va,
                     const void *vb, void *keys, void *vals)
{
    size_t ks = sk_type_size(c->t), n = c->na + c->nb;
    size_t *origin = skt_malloc((n + 1) * sizeof *origin);
    skt_ref_merge_origin(c->t, a, c->na, b, c->nb, c->descending, origin);
    for (size_t k = 0; k < n; k++) {
        bool from_b = origin[k] >= c->na;
        size_t pos = from_b ? origin[k] - c->na : origin[k];
        memcpy((unsigned char *)keys + k * ks, (const unsigned char *)(from_b ? b : a) + pos * ks,
               ks);
        if (c->vs)
            memcpy((unsigned char *)vals + k * c->vs,
                   (const unsigned char *)(from_b ? vb : va) + pos * c->vs, c->vs);
    }
    free(origin);
}

static void expect_merged(const merge_case *c, const unsigned char *got,
                          const unsigned char *want, size_t size, bool keys, const char *what)
{
    for (size_t k = 0; k < c->na + c->nb; k++) {
        if (memcmp(got + k * size, want + k * size, size) == 0) continue;
        uint64_t g = 0, w = 0;
        memcpy(&g, got + k * size, size);
        memcpy(&w, want + k * size, size);
        cr_assert_fail("%s: %s %zu is 0x%llx, want 0x%llx (%s) [seed %llu]", what,
                       keys ? "key" : "value", k, (unsigned long long)g, (unsigned long long)w,
                       keys ? "order" : "stability or origin", (unsigned long long)skt_seed());
    }
}

static sk_status run_merge(const merge_case *c, const cl_mem m[6])
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    if (!c->vs) return sk_merge_keys(skt_ctx, c->t, m[0], m[2], m[4], c->na, c->nb, o);
    return sk_merge_pairs(skt_ctx, c->t, c->vs, m[0], m[1], m[2], m[3], m[4], m[5], c->na,
                          c->nb, o);
}

/* Merges inputs made as c says through the cl_mem form (or, with host,
 * the host form) and checks everything. */
static void check_case(const merge_case *c, bool host)
{
    size_t ks = sk_type_size(c->t), vs = c->vs ? c->vs : 4, n = c->na + c->nb;
    const char *what = skt_fmt("%s%s", case_name(c), host ? ", host form" : "");
    unsigned char *a = skt_malloc((c->na + 1) * ks), *b = skt_malloc((c->nb + 1) * ks);
    unsigned char *va = skt_malloc((c->na + 1) * vs), *vb = skt_malloc((c->nb + 1) * vs);
    unsigned char *want = skt_malloc((n + 1) * ks), *wantv = skt_malloc((n + 1) * vs);
    unsigned char *got = skt_malloc((n + GUARD) * ks), *gotv = skt_malloc((n + GUARD) * vs);
    make_inputs(c->t, c->in, c->descending, a, c->na, b, c->nb);
    put_origins(va, vs, 0, c->na);
    put_origins(vb, vs, 1, c->nb);
    expected(c, a, b, va, vb, want, wantv);
    skt_poison(got, (n + GUARD) * ks);
    skt_poison(gotv, (n + GUARD) * vs);

    if (host) {
        sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
        sk_status st = c->vs ? sk_merge_pairs_host(skt_ctx, c->t, c->vs, a, va, b, vb, got,
                                                   gotv, c->na, c->nb, o)
                             : sk_merge_keys_host(skt_ctx, c->t, a, b, got, c->na, c->nb, o);
        cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                     sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    } else {
        cl_mem m[6] = {upload(a, c->na, ks), upload(va, c->na, vs), upload(b, c->nb, ks),
                       upload(vb, c->nb, vs), upload(got, n, ks), upload(gotv, n, vs)};
        sk_status st = run_merge(c, m);
        cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                     sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
        skt_buf_download(m[4], 0, got, (n + GUARD) * ks);
        skt_buf_download(m[5], 0, gotv, (n + GUARD) * vs);
        skt_expect_guarded(m[0], a, c->na, ks, GUARD, what, "a_keys");
        skt_expect_guarded(m[1], va, c->na, vs, GUARD, what, "a_values");
        skt_expect_guarded(m[2], b, c->nb, ks, GUARD, what, "b_keys");
        skt_expect_guarded(m[3], vb, c->nb, vs, GUARD, what, "b_values");
        for (int i = 0; i < 6; i++) skt_buf_free(m[i]);
    }
    expect_merged(c, got, want, ks, true, what);
    cr_assert_eq(skt_find_unpoisoned(got + n * ks, GUARD * ks), (size_t)-1,
                 "%s: keys written past na + nb [seed %llu]", what,
                 (unsigned long long)skt_seed());
    if (c->vs) expect_merged(c, gotv, wantv, vs, false, what);
    cr_assert_eq(skt_find_unpoisoned(gotv + (c->vs ? n : 0) * vs, GUARD * vs), (size_t)-1,
                 "%s: values written past na + nb [seed %llu]", what,
                 (unsigned long long)skt_seed());
    skt_free_all(a, b, va, vb, want, wantv, got, gotv, NULL);
}

/* ---- the matrix ------------------------------------------------------------------ */

typedef struct size_pair {
    size_t na, nb;
} size_pair;

/* Small tiles (GPU 4 x 2 keys, CPU 3 chunks from one element on): both
 * empty, one side empty, tile edges and sizes spanning many parts. */
static const size_pair small_sizes[] = {
    {0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 17}, {13, 0}, {3, 5}, {7, 9}, {8, 8}, {16, 1},
    {1, 16}, {4, 4}, {23, 41}, {64, 63}, {100, 37}, {250, 251},
};

/* Default tiles: around the GPU tiles (256 work-items x 5 to 16 keys: 1280
 * to 4096 outputs) and the CPU shape's serial threshold (32768) and
 * chunks above it, up to 10^5. */
static const size_pair default_sizes[] = {
    {1279, 1}, {640, 640}, {2047, 2049}, {4096, 4096}, {1, 4095}, {0, 8193},
    {32767, 1}, {16384, 16385}, {50000, 50001}, {99999, 0},
};

#define COUNT_OF(x) (sizeof(x) / sizeof((x)[0]))

/* Every value size and order at every size, the inputs cycling: the large
 * sizes take fewer (a few seconds on a 2-core PoCL device). */
static void sweep(sk_type t, const size_pair *sizes, size_t count, const char *cfg)
{
    static const size_t vss[] = {0, 4, 8};
    unsigned rot = (unsigned)skt_rand_below(IN_COUNT);
    for (size_t s = 0; s < count; s++) {
        size_t n = sizes[s].na + sizes[s].nb;
        unsigned inputs = n > 20000 ? 1 : n > 2000 ? 2 : IN_COUNT;
        for (unsigned k = 0; k < inputs; k++)
            for (size_t v = 0; v < 3; v++)
                for (int desc = 0; desc < 2; desc++) {
                    shape_of_input in = (shape_of_input)((rot + s + k * 5 + v * 2 +
                                                          (unsigned)desc) % IN_COUNT);
                    merge_case c = {t, vss[v], desc, sizes[s].na, sizes[s].nb, in, cfg};
                    check_case(&c, false);
                }
    }
}

ParameterizedTestParameters(merge, should_match_the_serial_stable_merge)
{
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, NULL, 0, 2, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, merge, should_match_the_serial_stable_merge)
{
    sk_type t = (sk_type)p->type;
    skt_case_begin(p);
    skt_force_shape(p->shape);
    if (p->size_class == 0) {
        skt_tiles_set(4, 2, 3, 1);
        sweep(t, small_sizes, COUNT_OF(small_sizes),
              skt_fmt("%s, small tiles", skt_params_name(p)));
        if (p->shape == SK_SHAPE_GPU) { /* the splits by a partition launch too */
            skt_merge_partition_launch(true);
            sweep(t, small_sizes, COUNT_OF(small_sizes),
                  skt_fmt("%s, small tiles, partition launch", skt_params_name(p)));
        }
    } else {
        skt_tiles_default();
        sweep(t, default_sizes, COUNT_OF(default_sizes),
              skt_fmt("%s, default tiles", skt_params_name(p)));
    }
}

/* The 8- and 16-bit keys: one shape and value size each (a program per
 * type), small tiles, every small size, input and order. Pairwise: each
 * width meets both shapes and keys with and without values. */
Test(merge, narrow_keys_should_match_the_serial_stable_merge)
{
    static const struct {
        sk_type t;
        sk_shape shape;
        size_t vs;
    } cases[] = {{SK_UINT8, SK_SHAPE_CPU, 4}, {SK_INT8, SK_SHAPE_GPU, 0},
                 {SK_INT16, SK_SHAPE_GPU, 8}, {SK_FLOAT16, SK_SHAPE_CPU, 0}};
    skt_tiles_set(4, 2, 3, 1);
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        skt_force_shape(cases[i].shape);
        const char *cfg = skt_fmt("%s shape, small tiles", skt_shape_name(cases[i].shape));
        for (size_t s = 0; s < COUNT_OF(small_sizes); s++)
            for (unsigned in = 0; in < IN_COUNT; in++)
                for (int desc = 0; desc < 2; desc++) {
                    merge_case c = {cases[i].t, cases[i].vs, desc, small_sizes[s].na,
                                    small_sizes[s].nb, (shape_of_input)in, cfg};
                    check_case(&c, false);
                }
    }
}

/* The host forms: every input shape, small and tile-sized. */
ParameterizedTestParameters(merge, host_forms_should_match_the_serial_stable_merge)
{
    static const sk_type types[] = {SK_UINT32, SK_FLOAT64};
    skt_params ps = {NULL, 0};
    skt_params_add(&ps, types, COUNT_OF(types), 1, 0, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, merge, host_forms_should_match_the_serial_stable_merge)
{
    static const size_pair sizes[] = {{0, 0}, {0, 5}, {5, 0}, {37, 64}, {3000, 2100}};
    skt_case_begin(p);
    skt_force_shape(p->shape);
    for (size_t s = 0; s < COUNT_OF(sizes); s++)
        for (unsigned in = 0; in < IN_COUNT; in++)
            for (size_t vs = 0; vs <= 8; vs += 4) {
                merge_case c = {(sk_type)p->type, vs, (int)(in % 2), sizes[s].na, sizes[s].nb,
                                (shape_of_input)in, skt_params_name(p)};
                check_case(&c, true);
            }
}

/* The merge of a and b is the stable sort of a followed by b. */
Test(merge, should_equal_the_stable_sort_of_the_concatenation)
{
    size_t na = 3001, nb = 1777, n = na + nb;
    for (int desc = 0; desc < 2; desc++) {
        sk_sort_order o = desc ? SK_DESCENDING : SK_ASCENDING;
        float *keys = skt_malloc(n * sizeof *keys), *got = skt_malloc(n * sizeof *got);
        uint32_t *vals = skt_malloc(n * sizeof *vals), *gotv = skt_malloc(n * sizeof *gotv);
        make_inputs(SK_FLOAT32, IN_FEW_UNIQUE, desc, keys, na, keys + na, nb);
        for (size_t i = 0; i < n; i++) vals[i] = (uint32_t)i;
        SKT_OK(sk_merge_pairs_host(skt_ctx, SK_FLOAT32, 4, keys, vals, keys + na, vals + na,
                                   got, gotv, na, nb, o));
        SKT_OK(sk_sort_pairs_host(skt_ctx, SK_FLOAT32, 4, keys, vals, n, o));
        cr_assert(memcmp(got, keys, n * sizeof *keys) == 0 &&
                      memcmp(gotv, vals, n * sizeof *vals) == 0,
                  "merge and stable sort differ [seed %llu]", (unsigned long long)skt_seed());
        skt_free_all(keys, got, vals, gotv, NULL);
    }
}

/* ---- bad arguments ------------------------------------------------------------------ */

Test(merge_errors, bad_arguments_should_be_refused_and_leave_outputs_untouched)
{
    cl_mem a = skt_buf_new(64), b = skt_buf_new(64), d = skt_buf_new(128), v = skt_buf_new(128);
    cl_mem va = skt_buf_new(64), vb = skt_buf_new(64);
    skt_buf_poison(d, 128);
    skt_buf_poison(v, 128);
    skt_finish();
    sk_status bad = SK_E_INVALID_ARG;
    SKT_EXPECT_STATUS(sk_merge_keys(NULL, SK_UINT32, a, b, d, 4, 4, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, (sk_type)99, a, b, d, 4, 4, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, b, d, 4, 4, (sk_sort_order)2), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, NULL, b, d, 4, 4, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, NULL, d, 0, 0, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, b, NULL, 4, 4, SK_ASCENDING), bad);
    /* buffers smaller than their keys */
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, b, d, 17, 4, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT64, a, b, d, 8, 9, SK_ASCENDING), bad);
    /* outputs overlapping inputs: the same buffer, overlapping sub-buffers */
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, b, a, 2, 2, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, d, d, 2, 2, SK_ASCENDING), bad);
    /* sub-buffers at the device's base address alignment */
    cl_uint align_bits = 0;
    cr_assert_eq(clGetDeviceInfo(sk_context_cl_device(skt_ctx), CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                 sizeof align_bits, &align_bits, NULL), CL_SUCCESS);
    size_t al = align_bits / 8 > 128 ? align_bits / 8 : 128;
    cl_mem big = skt_buf_new(4 * al);
    cl_buffer_region lo = {0, 2 * al}, hi = {al, 2 * al}, apart = {2 * al, 2 * al};
    cl_int rc = CL_SUCCESS;
    cl_mem s_lo = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &lo, &rc);
    cr_assert_eq(rc, CL_SUCCESS);
    cl_mem s_hi = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &hi, &rc);
    cr_assert_eq(rc, CL_SUCCESS);
    cl_mem s_apart = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &apart, &rc);
    cr_assert_eq(rc, CL_SUCCESS);
    /* the keys read from s_lo reach into s_hi's first bytes, and back */
    size_t reach = al / 4 + 4;
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, s_lo, b, s_hi, reach, 0, SK_ASCENDING),
                      bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, s_hi, s_lo, 4, al / 4, SK_ASCENDING),
                      bad);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, s_lo, b, big, 4, 4, SK_ASCENDING), bad);
    /* disjoint regions of one buffer are fine */
    uint32_t keys[4] = {1, 3, 5, 7}, out[4] = {0};
    skt_buf_upload(big, 0, keys, sizeof keys);
    SKT_OK(sk_merge_keys(skt_ctx, SK_UINT32, s_lo, b, s_apart, 4, 0, SK_ASCENDING));
    skt_buf_download(big, 2 * al, out, sizeof out);
    cr_assert(memcmp(out, keys, sizeof keys) == 0, "a merge between disjoint sub-buffers");
    cl_mem subs[] = {s_lo, s_hi, s_apart, big};
    for (size_t i = 0; i < COUNT_OF(subs); i++) skt_buf_free(subs[i]);
    /* pairs: value size, NULL values, outputs overlapping an input or each
     * other: {value_size, a_values, dst_keys, dst_values} */
    const struct {
        size_t vs;
        cl_mem av, dk, dv;
    } pairs[] = {{2, va, d, v}, {4, NULL, d, v}, {4, va, d, NULL},
                 {4, va, d, d}, {4, va, d, va}, {4, va, vb, v}};
    for (size_t i = 0; i < COUNT_OF(pairs); i++)
        cr_assert_eq(sk_merge_pairs(skt_ctx, SK_UINT32, pairs[i].vs, a, pairs[i].av, b, vb,
                                    pairs[i].dk, pairs[i].dv, 4, 4, SK_ASCENDING),
                     bad, "bad pair arguments, row %zu", i);
    /* sizes: the sum, or its bytes, overflowing size_t */
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT32, a, b, d, SIZE_MAX, 2, SK_ASCENDING),
                      SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_merge_keys(skt_ctx, SK_UINT64, a, b, d, SIZE_MAX / 16 + 1, SIZE_MAX / 16 + 1,
                                    SK_ASCENDING), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_merge_pairs(skt_ctx, SK_UINT32, 8, a, va, b, vb, d, v, SIZE_MAX / 8,
                                     1, SK_ASCENDING), SK_E_SIZE);

    unsigned char zeros[128] = {0}, poison[128];
    skt_poison(poison, sizeof poison);
    unsigned char got[128];
    skt_buf_download(d, 0, got, 128);
    cr_assert(memcmp(got, poison, 128) == 0, "a refused call wrote dst_keys");
    skt_buf_download(v, 0, got, 128);
    cr_assert(memcmp(got, poison, 128) == 0, "a refused call wrote dst_values");

    /* host forms: NULL arrays with elements, the same output array twice */
    uint32_t ha[4] = {1, 2, 3, 4}, hd[8];
    memcpy(hd, poison, sizeof hd);
    SKT_EXPECT_STATUS(sk_merge_keys_host(skt_ctx, SK_UINT32, ha, NULL, hd, 4, 1, SK_ASCENDING),
                      bad);
    SKT_EXPECT_STATUS(sk_merge_keys_host(skt_ctx, SK_UINT32, ha, NULL, NULL, 4, 0,
                                         SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_pairs_host(skt_ctx, SK_UINT32, 4, ha, ha, ha, ha, hd, hd, 4, 4,
                                          SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_pairs_host(skt_ctx, SK_UINT32, 4, ha, NULL, ha, ha, hd, zeros,
                                          4, 4, SK_ASCENDING), bad);
    SKT_EXPECT_STATUS(sk_merge_keys_host(skt_ctx, SK_UINT64, ha, ha, hd, SIZE_MAX / 8, 1,
                                         SK_ASCENDING), SK_E_SIZE);
    cr_assert(memcmp(hd, poison, sizeof hd) == 0, "a refused host call wrote dst_keys");
    /* NULL arrays are fine where they hold nothing */
    SKT_OK(sk_merge_keys_host(skt_ctx, SK_UINT32, NULL, NULL, NULL, 0, 0, SK_ASCENDING));
    SKT_OK(sk_merge_keys_host(skt_ctx, SK_UINT32, ha, NULL, hd, 4, 0, SK_ASCENDING));
    cr_assert(memcmp(hd, ha, sizeof ha) == 0, "one side empty: a copy");
    cl_mem all[] = {a, b, d, v, va, vb};
    for (size_t i = 0; i < COUNT_OF(all); i++) skt_buf_free(all[i]);
}

/* A host form whose device copy would exceed the device's largest buffer:
 * SK_E_SIZE before any copy; the arrays are address space only. The
 * output alone over it (two inputs each under it) is refused too. */
Test(merge_errors, host_arrays_over_the_largest_buffer_should_give_size_untouched)
{
    sk_device_desc dev = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &dev));
    uint64_t keys_over = dev.max_alloc_bytes / 4 + 1; /* uint32 keys one past it */
    if (keys_over >= SIZE_MAX / 8) cr_skip_test("the largest buffer exceeds the address space");
    size_t n = (size_t)keys_over, bytes = 4 * n;
    void *a = skt_map_zeros(bytes), *b = skt_map_zeros(bytes), *out = skt_map_zeros(2 * bytes);
    SKT_EXPECT_STATUS(sk_merge_keys_host(skt_ctx, SK_UINT32, a, b, out, n, 1, SK_ASCENDING),
                      SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_merge_keys_host(skt_ctx, SK_UINT32, a, b, out, n / 2 + 1, n / 2,
                                         SK_ASCENDING), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_merge_pairs_host(skt_ctx, SK_UINT32, 8, a, b, a, b, out,
                                          (char *)out + bytes, n / 2, 1, SK_ASCENDING),
                      SK_E_SIZE);
    cr_assert_eq(sk_context_cl_error(skt_ctx), CL_SUCCESS, "an OpenCL call failed");
    cr_assert_eq(skt_pages_touched(a, bytes) + skt_pages_touched(b, bytes), 0,
                 "an input was read before refusing");
    cr_assert_eq(skt_pages_touched(out, 2 * bytes), 0, "an output was touched");
    skt_unmap(a, bytes);
    skt_unmap(b, bytes);
    skt_unmap(out, 2 * bytes);
}
