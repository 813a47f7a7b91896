/*
 * test_merge_runs.c - sk_merge_runs_keys/_pairs and their host-array forms,
 * against the stable sort of the n keys by the same bits (the serial
 * reference skt_ref_sort_perm in tests/ref/ref_sort.c).
 *
 * Each input is `runs` runs one after another, each sorted by the
 * reference in the chosen order and bit range; the merge must give what
 * the stable sort of all n keys by those bits gives. Values carry each
 * element's input position (8-byte values in all their bytes), so they
 * spell out which element went where and pin stability; keys are compared
 * bit for bit, so a bit range also pins stability in the keys-only form
 * (keys equal in the range differ outside it).
 *
 * Run lengths: random, mostly empty runs, one run holding everything,
 * even; runs = 0, 1, 2, odd counts (3, 5, 7, 17, 33) and many (64, 100).
 * Keys: random (floats with NaNs of both signs and payloads, +-0, +-inf),
 * all equal, few unique, runs disjoint in the merge order (each run before
 * the next, or after it) and a sorted pool dealt out to the runs in turn.
 * Bit ranges: the whole key, [0, 8), [4, 20) (narrowed to the key), the
 * top bit, five bits across the middle, and random ranges (a test of
 * their own: each range is a program to build). The matrix: one case per
 * key type (every type the radix sort takes) x shape x tile setting
 * (small tiles: many tiles at small n; default tiles: n around the
 * default tiles and the CPU shape's serial threshold, up to 10^5; the 8-
 * and 16-bit keys one setting per shape), merging in rounds whatever the
 * number of runs. Each case samples two of the 30 combinations of value
 * size (none, 4, 8), order and bit range, the cases of the matrix
 * covering all 30; the run layout and keys at random. Where the library
 * takes the radix sort instead (more rounds than radix passes), the
 * result must be the same: forced both ways and left to the library.
 * Buffers are larger than n: the elements past n must stay poisoned. The
 * host forms run the same checks on arrays (written only on success);
 * runs that are not sorted must leave everything past n alone.
 *
 * merge_runs_errors: every refused argument gives SK_E_INVALID_ARG (or
 * SK_E_SIZE for sizes overflowing, or over the device's largest buffer)
 * and leaves keys and values as they were, byte for byte.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_sort.h"
#include "skt_common.h"

TestSuite(merge_runs, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(merge_runs_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 8 /* elements after n that must stay poisoned */
#define COUNT_OF(x) (sizeof(x) / sizeof((x)[0]))

/* Every key type of the radix sort. */
static const sk_type KEY_TYPES[] = {SK_INT32,  SK_UINT32, SK_INT64, SK_UINT64,
                                    SK_FLOAT32, SK_FLOAT64, SK_UINT8, SK_INT8,
                                    SK_UINT16, SK_INT16,  SK_FLOAT16};

static unsigned key_bits(sk_type t) { return 8 * (unsigned)sk_type_size(t); }

/* ---- run lengths -------------------------------------------------------------- */

typedef enum run_layout { L_RANDOM, L_MOSTLY_EMPTY, L_ONE_HOLDS_ALL, L_EVEN, L_COUNT } run_layout;

static const char *const LAYOUT_NAMES[L_COUNT] = {"random lengths", "mostly empty runs",
                                                  "one run holding all", "even lengths"};

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* out[0 .. parts) random lengths (some may be 0) summing to n. */
static void split_at_random(size_t n, size_t parts, size_t *out)
{
    size_t *cut = skt_malloc((parts + 1) * sizeof *cut);
    for (size_t i = 0; i + 1 < parts; i++) cut[i] = (size_t)skt_rand_below(n + 1);
    qsort(cut, parts - 1, sizeof *cut, cmp_size);
    cut[parts - 1] = n;
    for (size_t i = 0, prev = 0; i < parts; prev = cut[i], i++) out[i] = cut[i] - prev;
    free(cut);
}

/* A quarter of the runs at most (one at least) hold all n; the rest are
 * empty. */
static void split_mostly_empty(size_t n, size_t runs, size_t *len)
{
    size_t full = 1 + (size_t)skt_rand_below(runs / 4 + 1);
    size_t *share = skt_malloc((full + 1) * sizeof *share);
    split_at_random(n, full, share);
    memset(len, 0, runs * sizeof *len);
    for (size_t k = 0; k < full; k++) len[skt_rand_below(runs)] += share[k];
    free(share);
}

static void make_lengths(run_layout layout, size_t n, size_t runs, size_t *len)
{
    if (runs == 0) return;
    switch (layout) {
    case L_RANDOM: split_at_random(n, runs, len); break;
    case L_MOSTLY_EMPTY: split_mostly_empty(n, runs, len); break;
    case L_ONE_HOLDS_ALL:
        memset(len, 0, runs * sizeof *len);
        len[skt_rand_below(runs)] = n;
        break;
    default:
        for (size_t r = 0; r < runs; r++) len[r] = n / runs + (r < n % runs);
        break;
    }
}

/* ---- keys ------------------------------------------------------------------------ */

typedef enum key_mix {
    K_RANDOM, K_EQUAL, K_FEW_UNIQUE, K_RUNS_IN_ORDER, K_RUNS_REVERSED, K_DEALT, K_COUNT
} key_mix;

static const char *const MIX_NAMES[K_COUNT] = {
    "random keys", "all keys equal", "few unique keys", "runs disjoint, in order",
    "runs disjoint, reversed", "sorted keys dealt to the runs"};

/* Ranges by number: the whole key, [0, 8), [4, 20), the top bit, five
 * bits across the middle (each within the key's bits); RANGE_COUNT: a
 * random range (a program of its own each: random_bit_ranges below). */
#define RANGE_COUNT 5

static void bit_range(sk_type t, unsigned which, unsigned *begin, unsigned *end)
{
    unsigned bits = key_bits(t);
    switch (which) {
    case 0: *begin = 0, *end = bits; break;
    case 1: *begin = 0, *end = 8; break;
    case 2: *begin = 4, *end = bits < 20 ? bits : 20; break;
    case 3: *begin = bits - 1, *end = bits; break;
    case 4: *begin = bits / 2 - 3, *end = bits / 2 + 2; break;
    default:
        *begin = (unsigned)skt_rand_below(bits);
        *end = *begin + 1 + (unsigned)skt_rand_below(bits - *begin);
        break;
    }
}

typedef struct runs_case {
    sk_type t;
    size_t vs;              /* 0, 4 or 8 */
    int descending;
    unsigned begin, end;
    size_t n, runs;
    run_layout layout;
    key_mix mix;
    const char *cfg;
} runs_case;

static const char *case_name(const runs_case *c)
{
    return skt_fmt("%s keys, %zu-byte values, %s, bits [%u, %u), n=%zu, runs=%zu (%s), %s, %s",
                   sk_type_name(c->t), c->vs, c->descending ? "descending" : "ascending",
                   c->begin, c->end, c->n, c->runs, LAYOUT_NAMES[c->layout],
                   MIX_NAMES[c->mix], c->cfg);
}

/* keys[0 .. n) stably sorted by the reference in c's order and bits. */
static void sort_by_reference(const runs_case *c, void *keys, size_t n)
{
    size_t ks = sk_type_size(c->t);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    unsigned char *tmp = skt_malloc((n + 1) * ks);
    skt_ref_sort_perm(c->t, keys, n, c->descending, c->begin, c->end, perm);
    skt_ref_gather(keys, ks, perm, n, tmp);
    if (n) memcpy(keys, tmp, n * ks);
    skt_free_all(perm, tmp, NULL);
}

static void fill_pool(const runs_case *c, unsigned char *pool)
{
    uint64_t few[3] = {skt_random_key(c->t), skt_random_key(c->t), skt_random_key(c->t)};
    for (size_t i = 0; i < c->n; i++)
        skt_ref_put_key(c->t, pool, i, c->mix == K_EQUAL        ? few[0]
                                       : c->mix == K_FEW_UNIQUE ? few[skt_rand_below(3)]
                                                                : skt_random_key(c->t));
}

/* The sorted pool dealt out in slices: to the runs in order, or to the
 * last run first (each run then after the next in the merge order). */
static void deal_in_slices(const runs_case *c, const size_t *len, const unsigned char *pool,
                           unsigned char *keys)
{
    size_t ks = sk_type_size(c->t), next = 0;
    for (size_t step = 0; step < c->runs; step++) {
        size_t r = c->mix == K_RUNS_REVERSED ? c->runs - 1 - step : step, at = 0;
        for (size_t q = 0; q < r; q++) at += len[q];
        if (len[r]) memcpy(keys + at * ks, pool + next * ks, len[r] * ks);
        next += len[r];
    }
}

/* The sorted pool dealt out one key at a time to each run with room left,
 * in turn. */
static void deal_in_turn(const runs_case *c, const size_t *len, const unsigned char *pool,
                         unsigned char *keys)
{
    size_t ks = sk_type_size(c->t);
    size_t *start = skt_malloc((c->runs + 1) * sizeof *start);
    size_t *taken = skt_malloc((c->runs + 1) * sizeof *taken);
    for (size_t r = 0, at = 0; r < c->runs; at += len[r], r++) start[r] = at, taken[r] = 0;
    for (size_t r = 0, next = 0; next < c->n; r = (r + 1) % c->runs) {
        if (taken[r] == len[r]) continue;
        memcpy(keys + (start[r] + taken[r]++) * ks, pool + next++ * ks, ks);
    }
    skt_free_all(start, taken, NULL);
}

/* keys[0 .. n): c->runs runs of the lengths len, each sorted. */
static void make_runs(const runs_case *c, const size_t *len, unsigned char *keys)
{
    size_t ks = sk_type_size(c->t);
    unsigned char *pool = skt_malloc((c->n + 1) * ks);
    fill_pool(c, pool);
    if (c->mix == K_RUNS_IN_ORDER || c->mix == K_RUNS_REVERSED || c->mix == K_DEALT) {
        sort_by_reference(c, pool, c->n);
        if (c->mix == K_DEALT) deal_in_turn(c, len, pool, keys);
        else deal_in_slices(c, len, pool, keys);
    } else {
        if (c->n) memcpy(keys, pool, c->n * ks);
        for (size_t r = 0, at = 0; r < c->runs; at += len[r], r++)
            sort_by_reference(c, keys + at * ks, len[r]);
    }
    free(pool);
}

/* ---- values -------------------------------------------------------------------------- */

/* The value of the element at input position i: i itself, and for 8-byte
 * values its complement in the high half (every byte must move). */
static uint64_t value_of(size_t vs, size_t i)
{
    uint64_t lo = (uint32_t)i;
    return vs == 8 ? lo | (uint64_t)(uint32_t)~lo << 32 : lo;
}

static void put_values(void *vals, size_t vs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t v = value_of(vs, i);
        memcpy((unsigned char *)vals + i * vs, &v, vs);
    }
}

/* ---- one checked merge ---------------------------------------------------------------- */

/* got against want, bit for bit: the keys (order, stability) or the
 * values (stability, origin). */
static void expect_same(const runs_case *c, const unsigned char *got, const unsigned char *want,
                        size_t size, bool keys, const char *what)
{
    char label[512];
    snprintf(label, sizeof label, "%s: %s", what,
             keys ? "keys (order or stability)" : "values (stability or origin)");
    skt_expect_bytes(got, want, c->n, size, label);
}

static void expect_poisoned(const unsigned char *p, size_t bytes, const char *what,
                            const char *which)
{
    size_t bad = skt_find_unpoisoned(p, bytes);
    cr_assert_eq(bad, (size_t)-1, "%s: %s written past n (byte %zu) [seed %llu]", what, which,
                 bad, (unsigned long long)skt_seed());
}

static sk_status run_cl(const runs_case *c, cl_mem k, cl_mem v, const size_t *len)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    const size_t *lengths = c->runs ? len : NULL;
    if (!c->vs)
        return sk_merge_runs_keys(skt_ctx, c->t, k, c->n, lengths, c->runs, o, c->begin, c->end);
    return sk_merge_runs_pairs(skt_ctx, c->t, c->vs, k, v, c->n, lengths, c->runs, o, c->begin,
                               c->end);
}

static sk_status run_host(const runs_case *c, void *k, void *v, const size_t *len)
{
    sk_sort_order o = c->descending ? SK_DESCENDING : SK_ASCENDING;
    const size_t *lengths = c->runs ? len : NULL;
    if (!c->vs)
        return sk_merge_runs_keys_host(skt_ctx, c->t, k, c->n, lengths, c->runs, o, c->begin,
                                       c->end);
    return sk_merge_runs_pairs_host(skt_ctx, c->t, c->vs, k, v, c->n, lengths, c->runs, o,
                                    c->begin, c->end);
}

/* Merges hk/hv (n elements, then GUARD poisoned) in place through the
 * cl_mem form, on device copies of the whole arrays. */
static sk_status merge_on_device(const runs_case *c, unsigned char *hk, unsigned char *hv,
                                 size_t vs, const size_t *len)
{
    size_t ks = sk_type_size(c->t);
    cl_mem k = skt_buf_guarded(hk, c->n, ks, GUARD), v = skt_buf_guarded(hv, c->n, vs, GUARD);
    sk_status st = run_cl(c, k, v, len);
    if (st == SK_OK) {
        skt_buf_download(k, 0, hk, (c->n + GUARD) * ks);
        skt_buf_download(v, 0, hv, (c->n + GUARD) * vs);
    }
    skt_buf_free(k);
    skt_buf_free(v);
    return st;
}

/* What the merge must give for in[0 .. n): the reference's stable sort by
 * c's bits, the values gathered the same way. */
static void expected(const runs_case *c, const unsigned char *in, size_t vs, unsigned char *want,
                     unsigned char *wantv)
{
    size_t *perm = skt_malloc((c->n + 1) * sizeof *perm);
    skt_ref_sort_perm(c->t, in, c->n, c->descending, c->begin, c->end, perm);
    skt_ref_gather(in, sk_type_size(c->t), perm, c->n, want);
    for (size_t k = 0; k < c->n; k++) {
        uint64_t v = value_of(vs, perm[k]);
        memcpy(wantv + k * vs, &v, vs);
    }
    free(perm);
}

/* Makes the runs c describes, merges them through the cl_mem form (or,
 * with host, the host form) and checks keys, values and guards. */
static void check_case(const runs_case *c, bool host)
{
    size_t ks = sk_type_size(c->t), vs = c->vs ? c->vs : 4, n = c->n;
    const char *what = skt_fmt("%s%s", case_name(c), host ? ", host form" : "");
    size_t *len = skt_malloc((c->runs + 1) * sizeof *len);
    unsigned char *hk = skt_malloc((n + GUARD) * ks), *hv = skt_malloc((n + GUARD) * vs);
    unsigned char *want = skt_malloc((n + 1) * ks), *wantv = skt_malloc((n + 1) * vs);
    make_lengths(c->layout, n, c->runs, len);
    skt_poison(hk, (n + GUARD) * ks);
    skt_poison(hv, (n + GUARD) * vs);
    make_runs(c, len, hk);
    put_values(hv, vs, n);
    expected(c, hk, vs, want, wantv);

    sk_status st = host ? run_host(c, hk, c->vs ? hv : NULL, len)
                        : merge_on_device(c, hk, hv, vs, len);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    expect_same(c, hk, want, ks, true, what);
    expect_poisoned(hk + n * ks, GUARD * ks, what, "keys");
    if (c->vs) expect_same(c, hv, wantv, vs, false, what);
    expect_poisoned(hv + n * vs, GUARD * vs, what, "values");
    skt_free_all(len, hk, hv, want, wantv, NULL);
}

/* ---- the matrix -------------------------------------------------------------------- */

typedef struct runs_size {
    size_t n, runs;
} runs_size;

/* Small tiles (GPU 4 x 2 keys, CPU 3 chunks from one element on): no keys,
 * no runs, single keys, and up to a thousand keys over many runs. */
static const runs_size small_sizes[] = {
    {0, 0},  {0, 1},   {0, 3},   {1, 1},   {1, 5},    {2, 2},    {5, 1},   {9, 2},
    {17, 3}, {40, 5},  {63, 7},  {100, 17}, {257, 33}, {300, 64}, {777, 2}, {1000, 100},
};

/* Default tiles: around the GPU tiles (1280 to 4096 outputs) and the CPU
 * shape's serial threshold (32768), up to 10^5. */
static const runs_size default_sizes[] = {
    {1279, 2},   {1280, 3},   {4095, 5},   {4097, 2},   {8193, 7},    {32767, 17},
    {32769, 33}, {50001, 1},  {65536, 64}, {99999, 2},  {100000, 100},
};

/* Combination j of (value size, order, bit range): all 30 of them come up
 * in any 30 consecutive j (3, 2 and 5 are coprime); the run layout and the
 * keys at random. */
static runs_case sampled_case(sk_type t, size_t j, runs_size s, const char *cfg)
{
    static const size_t vss[] = {0, 4, 8};
    runs_case c = {t, vss[j % 3], (int)(j % 2), 0, 0, s.n, s.runs,
                   (run_layout)skt_rand_below(L_COUNT), (key_mix)skt_rand_below(K_COUNT), cfg};
    bit_range(t, (unsigned)(j % RANGE_COUNT), &c.begin, &c.end);
    return c;
}

/* The combinations one case samples: a window of COMBO_WINDOW
 * consecutive ones (a value size and bit range each: a program to build),
 * the fifteen windows 0, 2, ... 28 tiling all 30, one per type and shape
 * (both tile settings take the same: the CPU shape builds them once). */
#define COMBO_WINDOW 2

static size_t combo_window(const skt_param *p)
{
    size_t gpu = p->shape == SK_SHAPE_GPU;
    return COMBO_WINDOW * ((2 * (size_t)p->type + gpu) % 15);
}

/* `per_size` sampled cases at each size (fewer above 20000 keys), the
 * combinations cycling through the window from `window`. */
static void sweep(sk_type t, const runs_size *sizes, size_t count, size_t per_size,
                  size_t window, const char *cfg)
{
    size_t k = (size_t)skt_rand_below(COMBO_WINDOW);
    for (size_t s = 0; s < count; s++) {
        size_t cases = sizes[s].n > 20000 ? 1 : per_size;
        for (size_t i = 0; i < cases; i++, k++) {
            runs_case c = sampled_case(t, window + k % COMBO_WINDOW, sizes[s], cfg);
            check_case(&c, false);
        }
    }
}

/* One case of type t, shape and size class (0: small tiles, 1: default):
 * skt_params_add's pair of cases (CPU, GPU), the second dropped and the
 * first set to these. */
static void add_case(skt_params *ps, sk_type t, sk_shape shape, int size_class)
{
    skt_params_add(ps, &t, 1, 1, 0, 0);
    ps->n--;
    ps->v[ps->n - 1].shape = shape;
    ps->v[ps->n - 1].size_class = size_class;
}

/* Every case merges in rounds whatever the number of runs
 * (SK_PARAM_MERGE_RUNS_ROUNDS 64: up to 7 rounds here); where the library
 * would take the radix sort instead, rounds_and_the_radix_sort_... below
 * and the tests after the matrix check it. The six wide types: both
 * shapes x both tile settings; the 8- and 16-bit keys: both shapes, one
 * with small tiles and the other with default tiles, in turn. */
ParameterizedTestParameters(merge_runs, should_equal_the_stable_sort_by_those_bits)
{
    static const sk_shape shapes[] = {SK_SHAPE_CPU, SK_SHAPE_GPU};
    skt_params ps = {NULL, 0};
    for (size_t i = 0; i < COUNT_OF(KEY_TYPES); i++)
        for (int sh = 0; sh < 2; sh++) {
            bool wide = sk_type_size(KEY_TYPES[i]) >= 4;
            if (wide || (i + (size_t)sh) % 2 == 0) add_case(&ps, KEY_TYPES[i], shapes[sh], 0);
            if (wide || (i + (size_t)sh) % 2 == 1) add_case(&ps, KEY_TYPES[i], shapes[sh], 1);
        }
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, merge_runs, should_equal_the_stable_sort_by_those_bits)
{
    sk_type t = (sk_type)p->type;
    char cfg[96]; /* outlives skt_fmt's rotating buffers */
    snprintf(cfg, sizeof cfg, "%s, %s tiles, in rounds", skt_params_name(p),
             p->size_class == 0 ? "small" : "default");
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_set_param(SK_PARAM_MERGE_RUNS_ROUNDS, 64);
    if (p->size_class == 0) {
        skt_tiles_set(4, 2, 3, 1);
        sweep(t, small_sizes, COUNT_OF(small_sizes), 4, combo_window(p), cfg);
    } else {
        skt_tiles_default();
        sweep(t, default_sizes, COUNT_OF(default_sizes), 2, combo_window(p), cfg);
    }
}

/* The host forms: every layout, small and tile-sized, each case with the
 * window of combinations the main matrix gives its type and shape (keys
 * or pairs, both orders, whole keys or ranges). */
ParameterizedTestParameters(merge_runs, host_forms_should_equal_the_stable_sort_by_those_bits)
{
    skt_params ps = {NULL, 0};
    add_case(&ps, SK_UINT32, SK_SHAPE_CPU, 0);
    add_case(&ps, SK_UINT32, SK_SHAPE_GPU, 0);
    add_case(&ps, SK_FLOAT64, SK_SHAPE_GPU, 0);
    add_case(&ps, SK_INT16, SK_SHAPE_CPU, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, merge_runs,
                  host_forms_should_equal_the_stable_sort_by_those_bits)
{
    static const runs_size sizes[] = {{0, 0}, {0, 4}, {5, 1}, {37, 3}, {300, 7},
                                      {3000, 2}, {2500, 64}};
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_tiles_set(4, 2, 3, 1);
    size_t j = 0;
    for (size_t s = 0; s < COUNT_OF(sizes); s++)
        for (unsigned layout = 0; layout < L_COUNT; layout++, j++) {
            runs_case c = sampled_case((sk_type)p->type, combo_window(p) + j % COMBO_WINDOW,
                                       sizes[s], skt_params_name(p));
            c.layout = (run_layout)layout;
            check_case(&c, true);
        }
}

/* Every key mix and layout on each shape, with 3 or 100 runs: the merge
 * rounds and the many-runs path, uint64 (8 radix digits) and uint8 keys
 * (one digit), two combinations of value size and bit range per shape; on
 * the GPU shape with the tiles' splits found by a partition launch too
 * (these sizes' rounds have few parts: by default each tile finds its
 * own). */
Test(merge_runs, every_key_mix_and_layout_should_merge_in_either_shape)
{
    static const sk_shape shapes[] = {SK_SHAPE_CPU, SK_SHAPE_GPU, SK_SHAPE_GPU};
    static const bool partition_launch[] = {false, false, true};
    static const runs_size sizes[] = {{203, 3}, {611, 100}};
    static const sk_type types[] = {SK_UINT64, SK_UINT8};
    skt_tiles_set(4, 2, 3, 1);
    for (size_t sh = 0; sh < COUNT_OF(shapes); sh++) {
        skt_force_shape(shapes[sh]);
        skt_merge_partition_launch(partition_launch[sh]);
        char cfg[64]; /* outlives skt_fmt's rotating buffers */
        snprintf(cfg, sizeof cfg, "%s shape, small tiles%s", skt_shape_name(shapes[sh]),
                 partition_launch[sh] ? ", partition launch" : "");
        for (unsigned mix = 0; mix < K_COUNT; mix++)
            for (unsigned layout = 0; layout < L_COUNT; layout++) {
                size_t combo = COMBO_WINDOW * sh + (layout / 2) % 2;
                runs_case c = sampled_case(types[layout % 2], combo, sizes[mix % 2], cfg);
                c.mix = (key_mix)mix;
                c.layout = (run_layout)layout;
                c.descending = (int)((mix + layout) % 2);
                check_case(&c, false);
            }
    }
}

/* Random bit ranges of random key types, keys and pairs, small tiles. */
ParameterizedTestParameters(merge_runs, random_bit_ranges_should_equal_the_stable_sort)
{
    skt_params ps = {NULL, 0};
    add_case(&ps, SK_UINT32, SK_SHAPE_CPU, 0);
    add_case(&ps, SK_UINT32, SK_SHAPE_GPU, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, merge_runs, random_bit_ranges_should_equal_the_stable_sort)
{
    static const runs_size sizes[] = {{333, 5}, {150, 17}, {64, 2}};
    skt_case_begin(p);
    skt_force_shape(p->shape);
    skt_tiles_set(4, 2, 3, 1);
    for (size_t s = 0; s < COUNT_OF(sizes); s++) {
        sk_type t = KEY_TYPES[skt_rand_below(COUNT_OF(KEY_TYPES))];
        runs_case c = sampled_case(t, s, sizes[s], skt_fmt("%s shape, small tiles",
                                                           skt_shape_name(p->shape)));
        c.descending = (int)skt_rand_below(2);
        bit_range(t, RANGE_COUNT, &c.begin, &c.end);
        check_case(&c, false);
    }
}

/* Which kernel families a call launched: the merge's, the radix sort's. */
typedef struct families {
    unsigned long merge, radix;
} families;

static void count_family(const sk_launch_record *rec, void *user)
{
    families *f = user;
    if (strncmp(rec->program, "merge", 5) == 0) f->merge++;
    if (strncmp(rec->program, "sort", 4) == 0) f->radix++;
}

/* One checked merge of c under SK_PARAM_MERGE_RUNS_ROUNDS = rounds; expects
 * merge kernels only (merging) or radix sort kernels (not merging). */
static void check_path(runs_case *c, long rounds, bool merging)
{
    families f = {0, 0};
    skt_set_param(SK_PARAM_MERGE_RUNS_ROUNDS, rounds);
    cr_assert_eq(sk_context_set_trace(skt_ctx, count_family, &f), SK_OK);
    c->cfg = skt_fmt("%s shape, %s tiles, rounds %ld",
                     skt_shape_name((sk_shape)skt_get_param(SK_PARAM_SHAPE)),
                     skt_get_param(SK_PARAM_WG_SIZE) ? "small" : "default", rounds);
    check_case(c, false);
    cr_assert_eq(sk_context_set_trace(skt_ctx, NULL, NULL), SK_OK);
    cr_assert(merging ? f.merge > 0 && f.radix == 0 : f.radix > 0,
              "%s: %lu merge and %lu radix sort launches, expected %s [seed %llu]",
              case_name(c), f.merge, f.radix, merging ? "merging" : "the radix sort",
              (unsigned long long)skt_seed());
}

/* The same runs merged in rounds and by the radix sort, as
 * SK_PARAM_MERGE_RUNS_ROUNDS decides, and the library's own choice: 100
 * runs of 8-bit keys (7 rounds, one radix pass), 3 runs of 64-bit keys (2
 * rounds, 8 passes), 5 runs by bits [4, 20) (3 rounds, 2 passes), small
 * tiles; 33 runs of 70000 int32 keys (6 rounds, 4 passes), default tiles.
 * Runs of even lengths: the rounds count only runs with elements, so an
 * empty run among random lengths (3 runs, one empty: one round) would
 * change which path the counts above promise. */
ParameterizedTestParameters(merge_runs, rounds_and_the_radix_sort_should_give_the_same_result)
{
    skt_params ps = {NULL, 0};
    add_case(&ps, SK_UINT32, SK_SHAPE_CPU, 0);
    add_case(&ps, SK_UINT32, SK_SHAPE_GPU, 0);
    return skt_params_done(&ps);
}

ParameterizedTest(const skt_param *p, merge_runs,
                  rounds_and_the_radix_sort_should_give_the_same_result)
{
    static const struct {
        sk_type t;
        size_t vs;
        runs_size s;
        unsigned begin, end;
        bool auto_merges, default_tiles;
    } rows[] = {{SK_UINT8, 0, {900, 100}, 0, 8, false, false},
                {SK_UINT64, 8, {700, 3}, 0, 64, true, false},
                {SK_FLOAT32, 4, {800, 5}, 4, 20, false, false},
                {SK_INT32, 8, {70000, 33}, 0, 32, false, true}};
    skt_case_begin(p);
    skt_force_shape(p->shape);
    for (size_t i = 0; i < COUNT_OF(rows); i++) {
        if (rows[i].default_tiles) skt_tiles_default();
        else skt_tiles_set(4, 2, 3, 1);
        runs_case c = {rows[i].t, rows[i].vs, (int)(i % 2), rows[i].begin, rows[i].end,
                       rows[i].s.n, rows[i].s.runs, L_EVEN, K_FEW_UNIQUE, ""};
        check_path(&c, 64, true);
        check_path(&c, 1, false);
        check_path(&c, 0, rows[i].auto_merges);
    }
    SKT_EXPECT_STATUS(sk_context_set_param(skt_ctx, SK_PARAM_MERGE_RUNS_ROUNDS, 65),
                      SK_E_INVALID_ARG);
    cr_assert_eq(skt_get_param(SK_PARAM_MERGE_RUNS_ROUNDS), 0, "a refused value was kept");
}

/* The merge of the runs is what sk_sort_pairs_bits gives for the n keys. */
Test(merge_runs, should_equal_sk_sort_pairs_bits)
{
    static const size_t lengths[] = {700, 0, 1, 999, 300, 0, 77};
    size_t n = 0;
    for (size_t r = 0; r < COUNT_OF(lengths); r++) n += lengths[r];
    for (int desc = 0; desc < 2; desc++) {
        runs_case c = {SK_FLOAT32, 4, desc, 4, 20, n, COUNT_OF(lengths), L_RANDOM,
                       K_FEW_UNIQUE, "auto shape"};
        float *keys = skt_malloc(n * sizeof *keys), *got = skt_malloc(n * sizeof *got);
        uint32_t *vals = skt_malloc(n * sizeof *vals), *gotv = skt_malloc(n * sizeof *gotv);
        make_runs(&c, lengths, (unsigned char *)keys);
        put_values(vals, 4, n);
        memcpy(got, keys, n * sizeof *keys);
        memcpy(gotv, vals, n * sizeof *vals);
        sk_sort_order o = desc ? SK_DESCENDING : SK_ASCENDING;
        SKT_OK(sk_merge_runs_pairs_host(skt_ctx, SK_FLOAT32, 4, got, gotv, n, lengths,
                                        COUNT_OF(lengths), o, 4, 20));
        SKT_OK(sk_sort_pairs_bits_host(skt_ctx, SK_FLOAT32, 4, keys, vals, n, o, 4, 20));
        cr_assert(memcmp(got, keys, n * sizeof *keys) == 0 &&
                      memcmp(gotv, vals, n * sizeof *vals) == 0,
                  "merge of runs and sk_sort_pairs_bits differ (%s) [seed %llu]",
                  desc ? "descending" : "ascending", (unsigned long long)skt_seed());
        skt_free_all(keys, got, vals, gotv, NULL);
    }
}

/* Runs that are not sorted: the keys are unspecified, but nothing past n
 * is written. */
Test(merge_runs, unsorted_runs_should_write_nothing_past_n)
{
    static const sk_shape shapes[] = {SK_SHAPE_CPU, SK_SHAPE_GPU};
    size_t n = 500, lengths[] = {100, 0, 233, 167}, runs = COUNT_OF(lengths);
    uint64_t keys[500 + GUARD], vals[500 + GUARD];
    skt_tiles_set(4, 2, 3, 1);
    for (size_t sh = 0; sh < COUNT_OF(shapes); sh++) {
        skt_force_shape(shapes[sh]);
        for (size_t i = 0; i < n; i++) keys[i] = skt_random_key(SK_UINT64);
        put_values(vals, 8, n);
        cl_mem k = skt_buf_guarded(keys, n, 8, GUARD), v = skt_buf_guarded(vals, n, 8, GUARD);
        SKT_OK(sk_merge_runs_pairs(skt_ctx, SK_UINT64, 8, k, v, n, lengths, runs, SK_ASCENDING,
                                   0, 64));
        SKT_OK(sk_merge_runs_keys(skt_ctx, SK_UINT64, k, n, lengths, runs, SK_DESCENDING, 3, 40));
        skt_buf_download(k, 0, keys, sizeof keys);
        skt_buf_download(v, 0, vals, sizeof vals);
        const char *what = skt_fmt("unsorted runs, %s shape", skt_shape_name(shapes[sh]));
        expect_poisoned((unsigned char *)(keys + n), GUARD * 8, what, "keys");
        expect_poisoned((unsigned char *)(vals + n), GUARD * 8, what, "values");
        skt_buf_free(k);
        skt_buf_free(v);
    }
}

/* ---- bad arguments ---------------------------------------------------------------------- */

/* Two buffers of 64 bytes: keys holding two sorted runs of 4 uint32 keys
 * that a merge would reorder, then poison; values 8 uint32 positions, then
 * poison. Every refused call must leave both as they are. */
typedef struct refusal {
    cl_mem k, v;
    unsigned char keys[64], vals[64];
} refusal;

static void refusal_open(refusal *f)
{
    static const uint32_t runs[8] = {5, 6, 7, 8, 1, 2, 3, 4};
    skt_poison(f->keys, sizeof f->keys);
    skt_poison(f->vals, sizeof f->vals);
    memcpy(f->keys, runs, sizeof runs);
    put_values(f->vals, 4, 8);
    f->k = skt_buf_new(64);
    f->v = skt_buf_new(64);
    skt_buf_upload(f->k, 0, f->keys, 64);
    skt_buf_upload(f->v, 0, f->vals, 64);
}

static void expect_untouched(const refusal *f, sk_status st, sk_status want, const char *call)
{
    unsigned char got[64];
    cr_assert_eq(st, want, "%s -> %s, expected %s", call, sk_status_name(st),
                 sk_status_name(want));
    skt_buf_download(f->k, 0, got, 64);
    cr_assert(memcmp(got, f->keys, 64) == 0, "%s changed keys", call);
    skt_buf_download(f->v, 0, got, 64);
    cr_assert(memcmp(got, f->vals, 64) == 0, "%s changed values", call);
}

#define EXPECT_UNTOUCHED(f, call, want) expect_untouched((f), (call), (want), #call)
#define ASC SK_ASCENDING

static const size_t RUNS_4_4[] = {4, 4};

Test(merge_runs_errors, null_bad_type_order_and_value_size_should_be_refused_untouched)
{
    refusal f;
    refusal_open(&f);
    sk_status bad = SK_E_INVALID_ARG;
    const size_t *l = RUNS_4_4;
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(NULL, SK_UINT32, f.k, 8, l, 2, ASC, 0, 32), bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, NULL, 8, l, 2, ASC, 0, 32), bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, (sk_type)99, f.k, 8, l, 2, ASC, 0, 32), bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, (sk_type)SK_KEY_TYPE_COUNT, f.k, 8, l, 2, ASC,
                                          0, 32), bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, 8, l, 2, (sk_sort_order)2,
                                          0, 32), bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(NULL, SK_UINT32, 4, f.k, f.v, 8, l, 2, ASC, 0, 32),
                   bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 4, f.k, NULL, 8, l, 2, ASC, 0, 32),
                   bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 4, NULL, f.v, 8, l, 2, ASC, 0, 32),
                   bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, (sk_type)99, 4, f.k, f.v, 8, l, 2, ASC, 0,
                                           32), bad);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 4, f.k, f.v, 8, l, 2,
                                           (sk_sort_order)-1, 0, 32), bad);
    static const size_t value_sizes[] = {0, 1, 2, 3, 5, 16};
    for (size_t i = 0; i < COUNT_OF(value_sizes); i++)
        EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, value_sizes[i], f.k, f.v, 8,
                                               l, 2, ASC, 0, 32), bad);
    /* keys and values in one buffer */
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 4, f.k, f.k, 8, l, 2, ASC, 0, 32),
                   bad);
    skt_buf_free(f.k);
    skt_buf_free(f.v);
}

Test(merge_runs_errors, bad_bit_ranges_should_be_refused_untouched)
{
    static const struct {
        sk_type t;
        unsigned begin, end;
    } ranges[] = {{SK_UINT32, 0, 0},   {SK_UINT32, 5, 5},   {SK_UINT32, 6, 5},
                  {SK_UINT32, 0, 33},  {SK_UINT32, 32, 33}, {SK_FLOAT32, 40, 64},
                  {SK_UINT64, 0, 65},  {SK_INT64, 64, 64},  {SK_UINT8, 0, 9},
                  {SK_INT8, 8, 8},     {SK_FLOAT16, 0, 17}, {SK_INT16, 16, 17}};
    refusal f;
    refusal_open(&f);
    for (size_t i = 0; i < COUNT_OF(ranges); i++) {
        const char *what = skt_fmt("%s keys, bits [%u, %u)", sk_type_name(ranges[i].t),
                                   ranges[i].begin, ranges[i].end);
        expect_untouched(&f, sk_merge_runs_keys(skt_ctx, ranges[i].t, f.k, 8, RUNS_4_4, 2, ASC,
                                              ranges[i].begin, ranges[i].end),
                       SK_E_INVALID_ARG, what);
        expect_untouched(&f, sk_merge_runs_pairs(skt_ctx, ranges[i].t, 4, f.k, f.v, 8, RUNS_4_4,
                                               2, ASC, ranges[i].begin, ranges[i].end),
                       SK_E_INVALID_ARG, what);
    }
    skt_buf_free(f.k);
    skt_buf_free(f.v);
}

/* Lengths summing to more or less than n, none given, or a sum that
 * wraps around size_t to exactly n (the lengths still do not sum to n). */
Test(merge_runs_errors, run_lengths_not_summing_to_n_should_be_refused_untouched)
{
    static const struct {
        size_t lengths[3], runs, n;
    } rows[] = {
        {{4, 5}, 2, 8},          {{4, 3}, 2, 8},         {{4, 4, 1}, 3, 8},
        {{0}, 1, 8},             {{9}, 1, 8},            {{0, 0, 0}, 3, 1},
        {{8}, 0, 8},             {{1}, 1, 0},            {{SIZE_MAX, 9}, 2, 8},
        {{SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1, 8}, 3, 8}, {{SIZE_MAX, 1, 8}, 3, 8},
    };
    refusal f;
    refusal_open(&f);
    for (size_t i = 0; i < COUNT_OF(rows); i++) {
        const char *what = skt_fmt("row %zu: %zu runs, n=%zu", i, rows[i].runs, rows[i].n);
        expect_untouched(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, rows[i].n,
                                              rows[i].lengths, rows[i].runs, ASC, 0, 32),
                       SK_E_INVALID_ARG, what);
        expect_untouched(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 8, f.k, f.v, rows[i].n,
                                               rows[i].lengths, rows[i].runs, ASC, 0, 32),
                       SK_E_INVALID_ARG, what);
    }
    /* no lengths for runs > 0 (n 0 or not) */
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, 8, NULL, 2, ASC, 0, 32),
                   SK_E_INVALID_ARG);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, 0, NULL, 1, ASC, 0, 32),
                   SK_E_INVALID_ARG);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 4, f.k, f.v, 8, NULL, 2, ASC, 0,
                                           32), SK_E_INVALID_ARG);
    skt_buf_free(f.k);
    skt_buf_free(f.v);
}

/* Buffers smaller than n keys or values; n keys or values whose bytes
 * overflow size_t (SK_E_SIZE, as for every call that takes a count). */
Test(merge_runs_errors, buffers_too_small_and_sizes_overflowing_should_be_refused_untouched)
{
    refusal f;
    refusal_open(&f);
    const size_t l17[] = {17}, l9[] = {9}, l16[] = {16};
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, 17, l17, 1, ASC, 0, 32),
                   SK_E_INVALID_ARG);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT64, f.k, 9, l9, 1, ASC, 0, 64),
                   SK_E_INVALID_ARG);
    /* the keys fit, the 8-byte values do not */
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 8, f.k, f.v, 16, l16, 1, ASC, 0,
                                           32), SK_E_INVALID_ARG);
    /* a buffer too small by one key, with the runs splitting it */
    const size_t l8_9[] = {8, 9};
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, 17, l8_9, 2, ASC, 0, 32),
                   SK_E_INVALID_ARG);
    size_t huge = SIZE_MAX / 8 + 1, lh[] = {huge}, lh2[] = {huge - 1, 1};
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT64, f.k, huge, lh, 1, ASC, 0, 64),
                   SK_E_SIZE);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT64, f.k, huge, lh2, 2, ASC, 0, 64),
                   SK_E_SIZE);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 8, f.k, f.v, huge, lh, 1, ASC, 0,
                                           32), SK_E_SIZE);
    skt_buf_free(f.k);
    skt_buf_free(f.v);
}

/* Host arrays: 8 uint32 keys in two runs and their positions. */
typedef struct host_refusal {
    uint32_t keys[8], vals[8], keys0[8], vals0[8];
} host_refusal;

static void host_refusal_open(host_refusal *f)
{
    static const uint32_t runs[8] = {5, 6, 7, 8, 1, 2, 3, 4};
    memcpy(f->keys, runs, sizeof runs);
    put_values(f->vals, 4, 8);
    memcpy(f->keys0, f->keys, sizeof f->keys);
    memcpy(f->vals0, f->vals, sizeof f->vals);
}

static void expect_host_untouched(const host_refusal *f, sk_status st, sk_status want,
                                const char *call)
{
    cr_assert_eq(st, want, "%s -> %s, expected %s", call, sk_status_name(st),
                 sk_status_name(want));
    cr_assert(memcmp(f->keys, f->keys0, sizeof f->keys) == 0, "%s changed keys", call);
    cr_assert(memcmp(f->vals, f->vals0, sizeof f->vals) == 0, "%s changed values", call);
}

#define EXPECT_HOST_UNTOUCHED(f, call, want) expect_host_untouched((f), (call), (want), #call)

Test(merge_runs_errors, host_forms_should_refuse_and_leave_the_arrays_untouched)
{
    host_refusal f;
    host_refusal_open(&f);
    sk_status bad = SK_E_INVALID_ARG;
    const size_t *l = RUNS_4_4, l45[] = {4, 5}, wrap[] = {SIZE_MAX, 9};
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(NULL, SK_UINT32, f.keys, 8, l, 2, ASC, 0, 32),
                        bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, NULL, 8, l, 2, ASC, 0,
                                                    32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, (sk_type)99, f.keys, 8, l, 2, ASC,
                                                    0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, f.keys, 8, l, 2,
                                                    (sk_sort_order)2, 0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, f.keys, 8, l, 2, ASC, 8,
                                                    8), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, f.keys, 8, l, 2, ASC, 0,
                                                    33), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, f.keys, 8, l45, 2, ASC,
                                                    0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, f.keys, 8, wrap, 2, ASC,
                                                    0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT32, f.keys, 8, NULL, 2, ASC,
                                                    0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 3, f.keys, f.vals, 8,
                                                     l, 2, ASC, 0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 4, f.keys, NULL, 8, l,
                                                     2, ASC, 0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 4, f.keys, f.keys, 8,
                                                     l, 2, ASC, 0, 32), bad);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 4, f.keys, f.vals, 8,
                                                     l45, 2, ASC, 0, 32), bad);
    size_t huge = SIZE_MAX / 8 + 1, lh[] = {huge};
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_keys_host(skt_ctx, SK_UINT64, f.keys, huge, lh, 1, ASC,
                                                    0, 64), SK_E_SIZE);
    EXPECT_HOST_UNTOUCHED(&f, sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 8, f.keys, f.vals,
                                                     huge, lh, 1, ASC, 0, 32), SK_E_SIZE);
}

/* No keys and no runs (run_lengths NULL) is nothing to do; so are empty
 * runs. NULL host arrays are fine where n is 0. */
Test(merge_runs_errors, no_keys_should_succeed_and_change_nothing)
{
    refusal f;
    refusal_open(&f);
    const size_t zeros[3] = {0, 0, 0};
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_UINT32, f.k, 0, NULL, 0, ASC, 0, 32),
                   SK_OK);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_UINT32, 4, f.k, f.v, 0, NULL, 0, ASC, 0,
                                           32), SK_OK);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_keys(skt_ctx, SK_FLOAT64, f.k, 0, zeros, 3, SK_DESCENDING,
                                          3, 9), SK_OK);
    EXPECT_UNTOUCHED(&f, sk_merge_runs_pairs(skt_ctx, SK_INT8, 8, f.k, f.v, 0, zeros, 3, ASC, 0, 8),
                   SK_OK);
    SKT_OK(sk_merge_runs_keys_host(skt_ctx, SK_UINT32, NULL, 0, NULL, 0, ASC, 0, 32));
    SKT_OK(sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 4, NULL, NULL, 0, NULL, 0, ASC, 0, 32));
    SKT_OK(sk_merge_runs_keys_host(skt_ctx, SK_UINT16, NULL, 0, zeros, 3, ASC, 0, 16));
    SKT_OK(sk_merge_runs_pairs_host(skt_ctx, SK_FLOAT32, 8, NULL, NULL, 0, zeros, 2, ASC, 1, 2));
    skt_buf_free(f.k);
    skt_buf_free(f.v);
}

/* A host form whose device copy would exceed the device's largest buffer:
 * SK_E_SIZE before any copy; the arrays are address space only. */
Test(merge_runs_errors, host_arrays_over_the_largest_buffer_should_give_size_untouched)
{
    sk_device_desc dev = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &dev));
    uint64_t keys_over = dev.max_alloc_bytes / 4 + 1; /* uint32 keys one past it */
    if (keys_over >= SIZE_MAX / 8) cr_skip_test("the largest buffer exceeds the address space");
    size_t n = (size_t)keys_over, bytes = 4 * n, lengths[] = {n / 2, n - n / 2};
    void *keys = skt_map_zeros(bytes), *vals = skt_map_zeros(2 * bytes);
    SKT_EXPECT_STATUS(sk_merge_runs_keys_host(skt_ctx, SK_UINT32, keys, n, lengths, 2, ASC, 0,
                                              32), SK_E_SIZE);
    /* keys under it, 8-byte values over it */
    size_t half = n / 2 + 1, lhalf[] = {half};
    SKT_EXPECT_STATUS(sk_merge_runs_pairs_host(skt_ctx, SK_UINT32, 8, keys, vals, half, lhalf,
                                               1, ASC, 0, 32), SK_E_SIZE);
    cr_assert_eq(sk_context_cl_error(skt_ctx), CL_SUCCESS, "an OpenCL call failed");
    cr_assert_eq(skt_pages_touched(keys, bytes), 0, "the keys were touched");
    cr_assert_eq(skt_pages_touched(vals, 2 * bytes), 0, "the values were touched");
    skt_unmap(keys, bytes);
    skt_unmap(vals, 2 * bytes);
}
