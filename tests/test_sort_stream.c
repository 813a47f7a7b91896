/*
 * test_sort_stream.c - sk_sort_*_stream against the serial reference
 * (tests/ref/ref_sort.c: skt_ref_sort_perm, skt_ref_gather), the data
 * read through readers and written through writers over host memory.
 *
 * Values carry each key's input index (4 or 8 bytes), so the values
 * written spell out which key went where: every check compares keys bit
 * for bit (NaN payloads, -0.0) and values with the reference's permutation,
 * which pins stability. Outputs are poisoned, and a writer that is handed
 * more than the output holds fails the test; the writers concatenate what
 * they see, so pieces out of order show as a wrong output.
 *
 * Every sort of the matrix runs in the three regimes, each forced by the
 * budgets: one run (the defaults); runs kept in host memory (a device
 * budget of DEVICE_BUDGET); runs spilled to the temporary file (the same
 * device budget and a host budget of about four runs, in a directory the
 * test makes under the build tree, which must be empty afterwards). The
 * statistics are checked against the regime and the budgets.
 *
 *   every_type          6 key types x keys, 4- and 8-byte values x both
 *                       orders; random keys (floats with NaNs of both
 *                       signs and payloads, +-0, +-inf), and few unique
 *                       keys in half the device budget (more runs, smaller
 *                       windows of the merge)
 *   inputs              random, all equal, sorted, reversed, few unique x
 *                       a 32- and a 64-bit key type, pairs, both orders
 *   bit_ranges          [0,8) [4,20) [16,32) of the 32-bit types, [0,8)
 *                       [20,44) [56,64) [63,64) of the 64-bit ones: stable
 *                       by those bits only
 *   odd_pieces          readers handing out 1..7 bytes a call, pieces that
 *                       split keys and values
 *   sizes               0, 1, 2, and r-1, r, r+1, 2r, 2r+1, 5r+1 for the
 *                       run length r the statistics report, in memory and
 *                       spilled: the number of runs and their length
 *   large               a few 100k elements in a device budget of 512 KiB
 *                       (60000 in the sanitizer pass, skt_light)
 *   expected_bytes      wrong sizes (too small, too large, not whole
 *                       elements) change nothing
 *   small pieces        pieces of 1000 bytes (sk__test_set_stream_piece):
 *                       runs moved in many pieces, expected sizes right,
 *                       unknown and too small
 *   TMPDIR              the temporary file's default directory
 *   errors              failing readers and writers (SK_E_IO, the detail
 *                       set, a prefix of the output written at most),
 *                       inputs ending within an element, values ending
 *                       before or going on after the keys, bad arguments,
 *                       options and statistics of a bad struct_size (and
 *                       nothing written past the caller's struct_size), a
 *                       temporary directory that does not exist (or is a
 *                       file), budgets too small, more runs than a run's
 *                       elements (no window); the context sorts after each
 *                       failure
 *   scratch             the caller's scratch (sk_context_set_scratch)
 *                       serves the sort and is still set after it
 *   progress            the phases and byte counts the callback sees: reading,
 *                       then writing (one run) or merging (several), each
 *                       counting up to its total
 *
 * Failure messages end in the seed: SKT_SEED=<seed> repeats a run.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ref/ref_sort.h"
#include "sk_testing.h"
#include "skt_common.h"
#include "sk_testing.h"

TestSuite(sort_stream, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(sort_stream_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define SEED ((unsigned long long)skt_seed())

/* ---- readers and writers over memory -------------------------------------------- */

typedef struct mem_in {
    const unsigned char *data;
    size_t len, at;
    int odd_pieces;          /* 1..7 bytes a call */
    size_t fail_at;          /* return -1 once this many bytes were read (0: never) */
    int overread;            /* claim one byte more than asked */
} mem_in;

typedef struct mem_out {
    unsigned char *data;
    size_t cap, at;
    size_t fail_at;          /* return -1 at a write reaching past this many bytes
                                (SIZE_MAX: never) */
    int overflow;            /* a write went past cap */
    size_t calls;
} mem_out;

static long long read_mem(void *user, void *buf, size_t bytes)
{
    mem_in *m = user;
    if (m->fail_at && m->at >= m->fail_at) return -1;
    if (m->overread && bytes && m->at < m->len) return (long long)bytes + 1;
    size_t n = m->len - m->at < bytes ? m->len - m->at : bytes;
    if (m->odd_pieces && n > 1) n = 1 + (size_t)skt_rand_below(n < 7 ? n : 7);
    if (m->fail_at && n > m->fail_at - m->at) n = m->fail_at - m->at;
    memcpy(buf, m->data + m->at, n);
    m->at += n;
    return (long long)n;
}

static int write_mem(void *user, const void *buf, size_t bytes)
{
    mem_out *m = user;
    m->calls++;
    if (bytes > m->fail_at - m->at) return -1;
    if (bytes > m->cap - m->at) {
        m->overflow = 1;
        return -1;
    }
    memcpy(m->data + m->at, buf, bytes);
    m->at += bytes;
    return 0;
}

static mem_in in_over(const void *data, size_t len)
{
    return (mem_in){data, len, 0, 0, 0, 0};
}

static mem_out out_over(void *data, size_t cap)
{
    return (mem_out){data, cap, 0, SIZE_MAX, 0, 0};
}

/* ---- inputs -------------------------------------------------------------------- */

enum dist { RANDOM, FEW, EQUAL, SORTED, REVERSED, DIST_COUNT };
static const char *const DIST_NAMES[DIST_COUNT] = {"random", "few unique", "all equal",
                                                   "sorted", "reversed"};

/* n keys of type t shaped as d says (sorted and reversed: by the whole
 * key, ascending and descending). */
static unsigned char *make_keys(sk_type t, size_t n, enum dist d)
{
    size_t ks = sk_type_size(t);
    unsigned char *k = skt_malloc(n * ks + 1);
    uint64_t pool[6];
    for (int i = 0; i < 6; i++) pool[i] = skt_random_key(t);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = d == FEW     ? pool[skt_rand_below(6)]
                     : d == EQUAL ? pool[0]
                                  : skt_random_key(t);
        memcpy(k + i * ks, &v, ks);
    }
    if (d == SORTED || d == REVERSED) {
        size_t *perm = skt_malloc((n + 1) * sizeof *perm);
        unsigned char *sorted = skt_malloc(n * ks + 1);
        skt_ref_sort_perm(t, k, n, d == REVERSED, 0, 8 * (unsigned)ks, perm);
        skt_ref_gather(k, ks, perm, n, sorted);
        free(perm);
        free(k);
        k = sorted;
    }
    return k;
}

/* Input indices as values of `vs` bytes. */
static unsigned char *make_values(size_t n, size_t vs)
{
    unsigned char *v = skt_malloc(n * vs + 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = i;
        memcpy(v + i * vs, &x, vs);
    }
    return v;
}

/* ---- one sort ---------------------------------------------------------------------- */

enum regime { ONE_RUN, MEMORY_RUNS, SPILLED, REGIME_COUNT };
static const char *const REGIME_NAMES[REGIME_COUNT] = {"one run", "runs in memory",
                                                       "runs spilled"};

/* The device budget of the regimes with several runs, and the host budget
 * of the spilled one: the two stagings and the windows (about a run each,
 * a run about half the device budget) and about one run kept in memory. */
#define DEVICE_BUDGET ((uint64_t)128 << 10)
#define HOST_BUDGET (2 * DEVICE_BUDGET)

/* Plain data (Criterion copies the cases into the test process). */
typedef struct sort_case {
    sk_type t;
    int vs;                  /* 0: keys only, else 4 or 8 */
    sk_sort_order order;
    enum dist dist;
    unsigned begin, end;     /* end 0: the whole key */
    int odd_pieces;
    size_t n;
} sort_case;

/* The budgets of one sort (0: the defaults) and its temporary directory
 * ("": the default). */
typedef struct budget {
    uint64_t device, host;
    char temp_dir[256];
    int expect_runs;         /* 1: more than one run must arise */
    uint64_t expected;       /* expected_bytes (0: not given) */
} budget;

static unsigned end_of(const sort_case *c)
{
    return c->end ? c->end : 8 * (unsigned)sk_type_size(c->t);
}

static const char *describe(const sort_case *c, const char *regime)
{
    return skt_fmt("%s keys, %d-byte values, %s, %s, bits [%u, %u), n %zu%s, %s [seed %llu]",
                   sk_type_name(c->t), c->vs, c->order ? "descending" : "ascending",
                   DIST_NAMES[c->dist], c->begin, end_of(c), c->n,
                   c->odd_pieces ? ", odd pieces" : "", regime, SEED);
}

/* A directory of the test's own under the build tree. */
static void make_temp_dir(char *dir, size_t cap)
{
    snprintf(dir, cap, "%s/tests/skt-stream-XXXXXX", SKT_BINARY_DIR);
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s", dir);
}

static size_t entries_in(const char *dir, char *first, size_t cap)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    size_t count = 0;
    for (struct dirent *x; (x = readdir(d));)
        if (strcmp(x->d_name, ".") && strcmp(x->d_name, "..")) {
            if (!count) snprintf(first, cap, "%s", x->d_name);
            count++;
        }
    closedir(d);
    return count;
}

/* The directory holds nothing. */
static void expect_empty(const char *dir, const char *what)
{
    char first[256] = "";
    size_t left = entries_in(dir, first, sizeof first);
    cr_assert_eq(left, 0, "%s: %zu files left in %s, e.g. %s", what, left, dir, first);
}

/* The directory holds nothing; removes it. */
static void expect_empty_and_remove(const char *dir, const char *what)
{
    expect_empty(dir, what);
    cr_assert_eq(rmdir(dir), 0, "rmdir %s", dir);
}

static budget budget_of(enum regime r)
{
    budget b = {0, 0, "", r != ONE_RUN, 0};
    if (r != ONE_RUN) b.device = DEVICE_BUDGET;
    if (r == SPILLED) b.host = HOST_BUDGET;
    return b;
}

static sk_status run_sort(const sort_case *c, mem_in *kin, mem_in *vin, mem_out *kout,
                          mem_out *vout, const sk_stream_opts *o, sk_stream_stats *st)
{
    sk_reader kr = {read_mem, kin}, vr = {read_mem, vin};
    sk_writer kw = {write_mem, kout}, vw = {write_mem, vout};
    int whole = c->begin == 0 && c->end == 0;
    if (c->vs && whole && c->n % 2)
        return sk_sort_pairs_stream(skt_ctx, c->t, (size_t)c->vs, kr, vr, kw, vw, c->order, o,
                                    st);
    if (c->vs)
        return sk_sort_pairs_bits_stream(skt_ctx, c->t, (size_t)c->vs, kr, vr, kw, vw, c->order,
                                         c->begin, end_of(c), o, st);
    if (whole && c->n % 2)
        return sk_sort_keys_stream(skt_ctx, c->t, kr, kw, c->order, o, st);
    return sk_sort_keys_bits_stream(skt_ctx, c->t, kr, kw, c->order, c->begin, end_of(c), o,
                                    st);
}

/* Sorts keys (and their indices as values) as c says within the budget b
 * and checks the output against perm, the reference's, and the statistics
 * against b. *stats_out (may be NULL) gets the statistics. */
static void check_sort(const sort_case *c, const budget *b, const unsigned char *keys,
                       const unsigned char *vals, const size_t *perm, const char *what,
                       sk_stream_stats *stats_out)
{
    size_t ks = sk_type_size(c->t), vs = (size_t)c->vs, n = c->n;
    size_t kb = n * ks, vb = n * vs;
    mem_in kin = in_over(keys, kb), vin = in_over(vals, vb);
    kin.odd_pieces = vin.odd_pieces = c->odd_pieces;
    mem_out kout = out_over(skt_malloc(kb + 1), kb), vout = out_over(skt_malloc(vb + 1), vb);
    skt_poison(kout.data, kb);
    skt_poison(vout.data, vb);
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    o.device_bytes = b->device;
    o.host_bytes = b->host;
    o.temp_dir = b->temp_dir[0] ? b->temp_dir : NULL;
    o.expected_bytes = b->expected;
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    sk_status s = run_sort(c, &kin, &vin, &kout, &vout, &o, &st);
    cr_assert_eq(s, SK_OK, "%s: %s: %s", what, sk_status_name(s),
                 sk_context_error_detail(skt_ctx));
    cr_assert(!kout.overflow && !vout.overflow, "%s: written past the output", what);
    cr_assert(kout.at == kb && vout.at == vb,
              "%s: wrote %zu of %zu key bytes, %zu of %zu value bytes", what, kout.at, kb,
              vout.at, vb);
    cr_assert(kin.at == kb && vin.at == vb, "%s: read %zu of %zu key bytes, %zu of %zu value "
              "bytes", what, kin.at, kb, vin.at, vb);
    for (size_t i = 0; i < n; i++) {
        if (memcmp(kout.data + i * ks, keys + perm[i] * ks, ks)) {
            uint64_t g = 0, w = 0;
            memcpy(&g, kout.data + i * ks, ks);
            memcpy(&w, keys + perm[i] * ks, ks);
            cr_assert_fail("%s: key %zu is 0x%llx, want 0x%llx (input %zu)", what, i,
                           (unsigned long long)g, (unsigned long long)w, perm[i]);
        }
        if (!vs) continue;
        uint64_t v = 0;
        memcpy(&v, vout.data + i * vs, vs);
        cr_assert_eq(v, (uint64_t)perm[i], "%s: value %zu is %llu, want %zu (stability)", what,
                     i, (unsigned long long)v, perm[i]);
    }
    cr_assert_eq(st.struct_size, sizeof st, "%s: struct_size changed", what);
    cr_assert_eq(st.count, n, "%s: stats count %llu", what, (unsigned long long)st.count);
    cr_assert(st.runs >= 1 && st.spilled_runs <= st.runs && st.run_elements <= (n ? n : 1),
              "%s: %llu runs, %llu spilled, runs of %llu", what, (unsigned long long)st.runs,
              (unsigned long long)st.spilled_runs, (unsigned long long)st.run_elements);
    cr_assert(st.runs == 1 || (uint64_t)n <= st.runs * st.run_elements,
              "%s: %llu runs of at most %llu hold no %zu", what, (unsigned long long)st.runs,
              (unsigned long long)st.run_elements, n);
    if (b->device)
        cr_assert_leq(st.device_bytes, b->device, "%s: %llu device bytes, budget %llu", what,
                      (unsigned long long)st.device_bytes, (unsigned long long)b->device);
    if (b->host)
        cr_assert_leq(st.host_bytes, b->host, "%s: %llu host bytes, budget %llu", what,
                      (unsigned long long)st.host_bytes, (unsigned long long)b->host);
    if (!b->device && !b->host)
        cr_assert_eq(st.runs, 1, "%s: %llu runs with the defaults", what,
                     (unsigned long long)st.runs);
    if (b->expect_runs)
        cr_assert_gt(st.runs, 1, "%s: one run (of %llu) in a budget of %llu", what,
                     (unsigned long long)st.run_elements, (unsigned long long)b->device);
    if (!b->host)
        cr_assert_eq(st.spilled_runs, 0, "%s: %llu runs spilled, no host budget", what,
                     (unsigned long long)st.spilled_runs);
    /* the host budget keeps about one run besides the stagings and the
     * windows: beyond five runs some must have gone to the file */
    if (b->host && st.runs > 5)
        cr_assert_gt(st.spilled_runs, 0, "%s: none of %llu runs spilled", what,
                     (unsigned long long)st.runs);
    if (st.runs == 1)
        cr_assert_eq(st.merge_blocks, 0, "%s: %llu merge blocks of one run", what,
                     (unsigned long long)st.merge_blocks);
    if (stats_out) *stats_out = st;
    skt_free_all(kout.data, vout.data, NULL);
}

/* Makes c's input and sorts it in each regime of `regimes` (a mask), the
 * device budget of the regimes with several runs `device` (0:
 * DEVICE_BUDGET, the host budget of the spilled one twice it). */
static void check_case_budget(const sort_case *c, unsigned regimes, uint64_t device)
{
    if (c->t == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("no fp64");
    size_t ks = sk_type_size(c->t), n = c->n;
    unsigned char *keys = make_keys(c->t, n, c->dist);
    unsigned char *vals = make_values(n, c->vs ? (size_t)c->vs : 4);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    skt_ref_sort_perm(c->t, keys, n, c->order == SK_DESCENDING, c->begin, end_of(c), perm);
    (void)ks;
    for (int r = 0; r < REGIME_COUNT; r++) {
        if (!(regimes & (1u << r))) continue;
        budget b = budget_of((enum regime)r);
        if (device && b.device) b.device = device;
        if (device && b.host) b.host = 2 * device;
        const char *what = describe(c, skt_fmt("%s, device budget %llu", REGIME_NAMES[r],
                                               (unsigned long long)b.device));
        if (r == SPILLED) make_temp_dir(b.temp_dir, sizeof b.temp_dir);
        check_sort(c, &b, keys, vals, perm, what, NULL);
        if (r == SPILLED) expect_empty_and_remove(b.temp_dir, what);
    }
    skt_free_all(keys, vals, perm, NULL);
}

#define ALL_REGIMES 7u

static void check_case_regimes(const sort_case *c, unsigned regimes)
{
    check_case_budget(c, regimes, 0);
}

static void check_case(const sort_case *c)
{
    check_case_regimes(c, ALL_REGIMES);
}

static const sk_type TYPES[6] = {SK_UINT32, SK_INT32, SK_FLOAT32,
                                 SK_UINT64, SK_INT64, SK_FLOAT64};

/* ---- every key type, keys and pairs, both orders ----------------------------------------- */

#define N_MATRIX 30000

ParameterizedTestParameters(sort_stream, every_type)
{
    static sort_case cases[6 * 3 * 2];
    static const int vss[3] = {0, 4, 8};
    size_t count = 0;
    for (int t = 0; t < 6; t++)
        for (int v = 0; v < 3; v++)
            for (int o = 0; o < 2; o++)
                cases[count++] = (sort_case){TYPES[t], vss[v], (sk_sort_order)o, RANDOM, 0, 0,
                                             0, N_MATRIX + (size_t)(count % 2)};
    return cr_make_param_array(sort_case, cases, count);
}

ParameterizedTest(sort_case *c, sort_stream, every_type)
{
    check_case(c);
    /* few unique keys: stability across runs and merge blocks; a smaller
     * budget: more runs, smaller windows */
    sort_case f = *c;
    f.dist = FEW;
    f.n = 2 * c->n + 1;
    check_case_budget(&f, (1u << MEMORY_RUNS) | (1u << SPILLED), DEVICE_BUDGET / 2);
}

/* ---- 8- and 16-bit keys ------------------------------------------------------------------ */

/* Each type once (its value size, order and keys pairwise), one with a bit
 * range, one with odd pieces: in memory, as runs merged in memory and as
 * spilled runs. */
ParameterizedTestParameters(sort_stream, narrow_keys)
{
    static sort_case cases[] = {
        {SK_UINT8, 4, SK_DESCENDING, RANDOM, 0, 0, 0, N_MATRIX},
        {SK_INT8, 0, SK_ASCENDING, FEW, 0, 0, 1, 4 * N_MATRIX + 1}, /* several runs */
        {SK_UINT16, 8, SK_ASCENDING, RANDOM, 4, 12, 0, N_MATRIX},
        {SK_INT16, 4, SK_DESCENDING, FEW, 0, 0, 0, N_MATRIX + 1},
        {SK_FLOAT16, 8, SK_DESCENDING, RANDOM, 0, 0, 0, N_MATRIX},
    };
    return cr_make_param_array(sort_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(sort_case *c, sort_stream, narrow_keys)
{
    check_case(c);
}

/* ---- the shapes of the input ------------------------------------------------------------ */

ParameterizedTestParameters(sort_stream, inputs)
{
    static sort_case cases[DIST_COUNT * 4];
    size_t count = 0;
    for (int d = 0; d < DIST_COUNT; d++)
        for (int k = 0; k < 4; k++)
            cases[count++] = (sort_case){k < 2 ? SK_INT32 : SK_FLOAT64, k % 2 ? 8 : 4,
                                         (sk_sort_order)(k == 1 || k == 2), (enum dist)d, 0, 0,
                                         0, N_MATRIX};
    return cr_make_param_array(sort_case, cases, count);
}

ParameterizedTest(sort_case *c, sort_stream, inputs)
{
    check_case(c);
}

/* ---- bit ranges --------------------------------------------------------------------------- */

typedef struct range_case {
    sk_type t;
    unsigned begin, end;
} range_case;

ParameterizedTestParameters(sort_stream, bit_ranges)
{
    static range_case cases[3 * 3 + 3 * 4];
    static const unsigned r32[3][2] = {{0, 8}, {4, 20}, {16, 32}};
    static const unsigned r64[4][2] = {{0, 8}, {20, 44}, {56, 64}, {63, 64}};
    size_t count = 0;
    for (int t = 0; t < 6; t++) {
        int wide = sk_type_size(TYPES[t]) == 8;
        for (int i = 0; i < (wide ? 4 : 3); i++)
            cases[count++] = (range_case){TYPES[t], wide ? r64[i][0] : r32[i][0],
                                          wide ? r64[i][1] : r32[i][1]};
    }
    return cr_make_param_array(range_case, cases, count);
}

ParameterizedTest(range_case *rc, sort_stream, bit_ranges)
{
    /* keys only and both value sizes, each order, random and few unique */
    for (int k = 0; k < 3; k++) {
        sort_case c = {rc->t, k == 0 ? 0 : k == 1 ? 4 : 8, (sk_sort_order)(k % 2),
                       k == 2 ? FEW : RANDOM, rc->begin, rc->end, 0, 20000 + (size_t)k};
        check_case(&c);
    }
}

/* ---- readers that hand out odd pieces ----------------------------------------------------- */

ParameterizedTestParameters(sort_stream, odd_pieces)
{
    static sort_case cases[] = {
        {SK_UINT32, 0, SK_ASCENDING, RANDOM, 0, 0, 1, 40000},
        {SK_INT32, 4, SK_DESCENDING, FEW, 0, 0, 1, 40000},
        {SK_FLOAT32, 8, SK_ASCENDING, RANDOM, 0, 0, 1, 40000},
        {SK_UINT64, 4, SK_DESCENDING, RANDOM, 4, 20, 1, 30001},
        {SK_INT64, 8, SK_ASCENDING, FEW, 0, 0, 1, 30001},
        {SK_FLOAT64, 4, SK_DESCENDING, RANDOM, 0, 0, 1, 30001},
    };
    return cr_make_param_array(sort_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(sort_case *c, sort_stream, odd_pieces)
{
    check_case(c);
}

/* ---- sizes at the edges of runs ---------------------------------------------------------- */

typedef struct size_case {
    sk_type t;
    int vs;
    enum regime regime;
} size_case;

ParameterizedTestParameters(sort_stream, sizes)
{
    static size_case cases[] = {
        {SK_UINT32, 0, MEMORY_RUNS}, {SK_UINT32, 4, SPILLED},
        {SK_FLOAT32, 8, MEMORY_RUNS}, {SK_INT64, 4, SPILLED},
        {SK_FLOAT64, 0, SPILLED},    {SK_UINT64, 8, MEMORY_RUNS},
    };
    return cr_make_param_array(size_case, cases, sizeof cases / sizeof cases[0]);
}

/* The run length of sorts of (t, vs) within budget b: the statistics of a
 * sort of more than one run. */
static size_t run_length(sk_type t, int vs, const budget *b)
{
    size_t n = (size_t)(2 * b->device / (sk_type_size(t) + (size_t)vs)) + 100;
    sort_case c = {t, vs, SK_ASCENDING, FEW, 0, 0, 0, n};
    unsigned char *keys = make_keys(t, n, FEW), *vals = make_values(n, vs ? (size_t)vs : 4);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    skt_ref_sort_perm(t, keys, n, 0, 0, end_of(&c), perm);
    sk_stream_stats st;
    check_sort(&c, b, keys, vals, perm, describe(&c, "measuring the run length"), &st);
    cr_assert_gt(st.runs, 1, "n %zu: one run", n);
    skt_free_all(keys, vals, perm, NULL);
    return (size_t)st.run_elements;
}

ParameterizedTest(size_case *sc, sort_stream, sizes)
{
    if (sc->t == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("no fp64");
    budget b = budget_of(sc->regime);
    if (sc->regime == SPILLED) make_temp_dir(b.temp_dir, sizeof b.temp_dir);
    size_t r = run_length(sc->t, sc->vs, &b);
    cr_assert_gt(r, 2, "run of %zu [seed %llu]", r, SEED);
    const size_t sizes[] = {0, 1, 2, r - 1, r, r + 1, 2 * r, 2 * r + 1, 5 * r + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        sort_case c = {sc->t, sc->vs, (sk_sort_order)(i % 2), i % 3 ? RANDOM : FEW, 0, 0,
                       (int)(i % 4 == 3), n};
        unsigned char *keys = make_keys(c.t, n, c.dist);
        unsigned char *vals = make_values(n, c.vs ? (size_t)c.vs : 4);
        size_t *perm = skt_malloc((n + 1) * sizeof *perm);
        skt_ref_sort_perm(c.t, keys, n, c.order == SK_DESCENDING, 0, end_of(&c), perm);
        const char *what = describe(&c, skt_fmt("%s, run %zu", REGIME_NAMES[sc->regime], r));
        sk_stream_stats st;
        b.expect_runs = n > r;
        check_sort(&c, &b, keys, vals, perm, what, &st);
        uint64_t runs = n <= r ? 1 : (n + r - 1) / r;
        cr_assert_eq(st.runs, runs, "%s: %llu runs, want %llu", what,
                     (unsigned long long)st.runs, (unsigned long long)runs);
        cr_assert_eq(st.run_elements, n <= r ? n : r, "%s: runs of %llu", what,
                     (unsigned long long)st.run_elements);
        if (sc->regime == SPILLED && n == 5 * r + 1)
            cr_assert_gt(st.spilled_runs, 0, "%s: nothing spilled", what);
        skt_free_all(keys, vals, perm, NULL);
    }
    /* the one run of the defaults at the same sizes' ends */
    budget one = budget_of(ONE_RUN);
    for (size_t n = 0; n < 3; n++) {
        sort_case c = {sc->t, sc->vs, SK_DESCENDING, RANDOM, 0, 0, 0, n};
        unsigned char *keys = make_keys(c.t, n, c.dist);
        unsigned char *vals = make_values(n, c.vs ? (size_t)c.vs : 4);
        size_t perm[3];
        skt_ref_sort_perm(c.t, keys, n, 1, 0, end_of(&c), perm);
        check_sort(&c, &one, keys, vals, perm, describe(&c, "one run"), NULL);
        skt_free_all(keys, vals, NULL);
    }
    if (sc->regime == SPILLED) expect_empty_and_remove(b.temp_dir, "sizes");
}

/* ---- larger sorts ------------------------------------------------------------------------- */

ParameterizedTestParameters(sort_stream, large)
{
    static sort_case cases[] = {
        {SK_UINT32, 0, SK_ASCENDING, RANDOM, 0, 0, 0, 300000},
        {SK_FLOAT32, 4, SK_DESCENDING, RANDOM, 0, 0, 0, 200000},
        {SK_INT64, 8, SK_ASCENDING, FEW, 0, 0, 0, 100000},
    };
    return cr_make_param_array(sort_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(sort_case *given, sort_stream, large)
{
    /* the sanitizer pass (skt_light): 60000 in a budget as much smaller,
     * as many runs in memory and spilled */
    sort_case capped = *given, *c = &capped;
    capped.n = skt_light_cap(given->n, 60000);
    size_t n = c->n;
    unsigned char *keys = make_keys(c->t, n, c->dist);
    unsigned char *vals = make_values(n, c->vs ? (size_t)c->vs : 4);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    skt_ref_sort_perm(c->t, keys, n, c->order == SK_DESCENDING, 0, end_of(c), perm);
    budget one = budget_of(ONE_RUN);
    check_sort(c, &one, keys, vals, perm, describe(c, "one run"), NULL);
    budget b = {(uint64_t)((double)(512 << 10) * (double)n / (double)given->n), 0, "", 1, 0};
    check_sort(c, &b, keys, vals, perm, describe(c, "runs in memory"), NULL);
    b.host = 3 * b.device;
    make_temp_dir(b.temp_dir, sizeof b.temp_dir);
    sk_stream_stats st;
    check_sort(c, &b, keys, vals, perm, describe(c, "runs spilled"), &st);
    cr_assert_gt(st.spilled_runs, 0, "%s: nothing spilled", describe(c, "spilled"));
    expect_empty_and_remove(b.temp_dir, describe(c, "spilled"));
    skt_free_all(keys, vals, perm, NULL);
}

/* The temporary file goes to $TMPDIR when no directory is given. */
Test(sort_stream, spills_to_tmpdir_by_default)
{
    char dir[256];
    make_temp_dir(dir, sizeof dir);
    cr_assert_eq(setenv("TMPDIR", dir, 1), 0);
    sort_case c = {SK_UINT32, 4, SK_ASCENDING, FEW, 0, 0, 0, 40000};
    unsigned char *keys = make_keys(c.t, c.n, c.dist), *vals = make_values(c.n, 4);
    size_t *perm = skt_malloc(c.n * sizeof *perm);
    skt_ref_sort_perm(c.t, keys, c.n, 0, 0, 32, perm);
    budget b = budget_of(SPILLED);
    sk_stream_stats st;
    check_sort(&c, &b, keys, vals, perm, describe(&c, "spilled to $TMPDIR"), &st);
    cr_assert_gt(st.spilled_runs, 0, "nothing spilled [seed %llu]", SEED);
    expect_empty_and_remove(dir, "spilled to $TMPDIR");
    skt_free_all(keys, vals, perm, NULL);
}

/* expected_bytes is for progress only: a size that is wrong (too small,
 * too large, not whole elements) changes nothing. */
Test(sort_stream, expected_bytes_wrong)
{
    enum { N = 30000 };
    sort_case c = {SK_INT32, 8, SK_DESCENDING, FEW, 0, 0, 0, N};
    unsigned char *keys = make_keys(c.t, N, c.dist), *vals = make_values(N, 8);
    unsigned char *ko = skt_malloc(4 * N), *vo = skt_malloc(8 * N);
    size_t *perm = skt_malloc(N * sizeof *perm);
    skt_ref_sort_perm(c.t, keys, N, 1, 0, 32, perm);
    const uint64_t expected[] = {1, 12, 12 * 100 + 5, 12 * N / 2, 12 * N - 12, 12 * N,
                                 12 * N + 12, 24 * N, (uint64_t)1 << 40};
    for (int several = 0; several < 2; several++)
        for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
            mem_in kin = in_over(keys, 4 * N), vin = in_over(vals, 8 * N);
            mem_out kout = out_over(ko, 4 * N), vout = out_over(vo, 8 * N);
            skt_poison(ko, 4 * N);
            skt_poison(vo, 8 * N);
            sk_stream_opts o = SK_STREAM_OPTS_INIT;
            o.device_bytes = several ? DEVICE_BUDGET : 0;
            o.expected_bytes = expected[i];
            const char *what = skt_fmt("expected_bytes %llu, %s [seed %llu]",
                                       (unsigned long long)expected[i],
                                       several ? "runs in memory" : "one run", SEED);
            sk_status s = sk_sort_pairs_stream(
                skt_ctx, c.t, 8, (sk_reader){read_mem, &kin}, (sk_reader){read_mem, &vin},
                (sk_writer){write_mem, &kout}, (sk_writer){write_mem, &vout}, c.order, &o, NULL);
            cr_assert_eq(s, SK_OK, "%s: %s (%s)", what, sk_status_name(s),
                         sk_context_error_detail(skt_ctx));
            cr_assert(kout.at == 4 * N && vout.at == 8 * N, "%s: wrote %zu, %zu bytes", what,
                      kout.at, vout.at);
            for (size_t k = 0; k < N; k++) {
                uint64_t v = 0;
                memcpy(&v, vo + 8 * k, 8);
                cr_assert(memcmp(ko + 4 * k, keys + 4 * perm[k], 4) == 0 && v == perm[k],
                          "%s: element %zu is input %llu, want %zu", what, k,
                          (unsigned long long)v, perm[k]);
            }
        }
    skt_free_all(keys, vals, ko, vo, perm, NULL);
}

/* Pieces of 1000 bytes (a run of the regimes with several runs is tens of
 * them): each run goes to and from the device in many pieces, with the
 * input's expected size right, unknown and too small; the merge's two
 * stagings take many turns. */
Test(sort_stream, small_pieces)
{
    enum { N = 30001 };
    sort_case c = {SK_INT32, 8, SK_ASCENDING, FEW, 0, 0, 0, N};
    unsigned char *keys = make_keys(c.t, N, c.dist), *vals = make_values(N, 8);
    size_t *perm = skt_malloc(N * sizeof *perm);
    skt_ref_sort_perm(c.t, keys, N, 0, 0, 32, perm);
    cr_assert_eq(sk__test_set_stream_piece(skt_ctx, 1000), SK_OK);
    const uint64_t expected[] = {0, 12 * (uint64_t)N, 12 * (uint64_t)N / 3};
    for (int r = 0; r < REGIME_COUNT; r++)
        for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
            budget b = budget_of((enum regime)r);
            b.expected = expected[i];
            const char *what = describe(&c, skt_fmt("%s, pieces of 1000 bytes, expected_bytes "
                                                    "%llu", REGIME_NAMES[r],
                                                    (unsigned long long)expected[i]));
            if (r == SPILLED) make_temp_dir(b.temp_dir, sizeof b.temp_dir);
            check_sort(&c, &b, keys, vals, perm, what, NULL);
            if (r == SPILLED) expect_empty_and_remove(b.temp_dir, what);
        }
    sk__test_set_stream_piece(skt_ctx, 0);
    skt_free_all(keys, vals, perm, NULL);
}

/* ---- progress ------------------------------------------------------------------------------ */

typedef struct seen {
    const char *phase;
    uint64_t done, total;
    int phases, bad;
    char why[200];
    char trace[400];         /* each phase as it began: "phase@done/total" */
    uint64_t last_done[3], last_total[3];
} seen;

static void on_progress(void *user, const char *phase, uint64_t done, uint64_t total)
{
    seen *s = user;
    int i = strcmp(phase, "reading") == 0 ? 0 : strcmp(phase, "writing") == 0 ? 1
                                              : strcmp(phase, "merging") == 0 ? 2 : -1;
    if (i < 0) {
        s->bad = 1;
        snprintf(s->why, sizeof s->why, "phase '%s'", phase);
        return;
    }
    if (phase != s->phase) {
        s->phases++;
        s->phase = phase;
        size_t at = strlen(s->trace);
        if (at + 60 < sizeof s->trace)
            snprintf(s->trace + at, sizeof s->trace - at, "%s%s@%llu/%llu", at ? ", " : "",
                     phase, (unsigned long long)done, (unsigned long long)total);
    } else if ((done < s->done || (total && done > total)) && !s->bad) {
        s->bad = 1;
        snprintf(s->why, sizeof s->why, "%s went from %llu to %llu of %llu", phase,
                 (unsigned long long)s->done, (unsigned long long)done,
                 (unsigned long long)total);
    }
    s->done = done, s->total = total;
    s->last_done[i] = done, s->last_total[i] = total;
}

Test(sort_stream, progress)
{
    enum { N = 40000 };
    unsigned char *keys = make_keys(SK_UINT32, N, RANDOM), *vals = make_values(N, 8);
    unsigned char *ko = skt_malloc(4 * N), *vo = skt_malloc(8 * N);
    seen seen_in[2] = {{0}, {0}};
    sk_stream_stats stats[2] = {SK_STREAM_STATS_INIT, SK_STREAM_STATS_INIT};
    sk_status status[2];
    for (int several = 0; several < 2; several++) {
        mem_in kin = in_over(keys, 4 * N), vin = in_over(vals, 8 * N);
        mem_out kout = out_over(ko, 4 * N), vout = out_over(vo, 8 * N);
        sk_stream_opts o = SK_STREAM_OPTS_INIT;
        o.device_bytes = several ? DEVICE_BUDGET : 0;
        o.expected_bytes = 12 * N;
        o.progress = on_progress;
        o.progress_user = &seen_in[several];
        status[several] = sk_sort_pairs_stream(
            skt_ctx, SK_UINT32, 8, (sk_reader){read_mem, &kin}, (sk_reader){read_mem, &vin},
            (sk_writer){write_mem, &kout}, (sk_writer){write_mem, &vout}, SK_ASCENDING, &o,
            &stats[several]);
    }
    skt_free_all(keys, vals, ko, vo, NULL); /* the checks below may end the test */
    for (int several = 0; several < 2; several++) {
        const seen *s = &seen_in[several];
        const char *what = several ? "several runs" : "one run";
        cr_assert_eq(status[several], SK_OK, "%s: %s", what, sk_status_name(status[several]));
        cr_assert(!s->bad, "%s: %s (phases: %s)", what, s->why, s->trace);
        cr_assert_eq(s->phases, 2, "%s: %d phases: %s", what, s->phases, s->trace);
        const char *second = several ? "merging" : "writing";
        cr_assert_eq(strcmp(s->phase, second), 0, "%s: the last phase %s, want %s", what,
                     s->phase, second);
        cr_assert_eq(s->last_done[0], 12 * N, "%s: read %llu bytes", what,
                     (unsigned long long)s->last_done[0]);
        cr_assert_eq(s->last_total[0], 12 * N, "%s: reading of %llu bytes", what,
                     (unsigned long long)s->last_total[0]);
        int out = several ? 2 : 1;
        cr_assert_eq(s->last_done[out], 12 * N, "%s: %s %llu bytes", what,
                     out == 1 ? "wrote" : "merged", (unsigned long long)s->last_done[out]);
        cr_assert(s->last_total[out] == 0 || s->last_total[out] == 12 * N, "%s: total %llu",
                  what, (unsigned long long)s->last_total[out]);
        cr_assert_eq(stats[several].runs > 1, several, "%s: %llu runs", what,
                     (unsigned long long)stats[several].runs);
    }
}

/* ---- errors ---------------------------------------------------------------------------- */

/* The context still sorts after a failure. */
static void expect_context_works(const char *after)
{
    uint32_t k[7] = {5, 3, 7, 4, 1, 6, 2};
    sk_status s = sk_sort_keys_host(skt_ctx, SK_UINT32, k, 7, SK_ASCENDING);
    cr_assert_eq(s, SK_OK, "after %s: sk_sort_keys_host -> %s (%s)", after, sk_status_name(s),
                 sk_context_error_detail(skt_ctx));
    for (int i = 0; i < 7; i++)
        cr_assert_eq(k[i], (uint32_t)i + 1, "after %s: key %d is %u", after, i, k[i]);
}

/* The status is `want`; the detail holds `says` (NULL: anything but
 * nothing). */
static void expect_status(sk_status got, sk_status want, const char *says, const char *what)
{
    const char *detail = sk_context_error_detail(skt_ctx);
    cr_assert_eq(got, want, "%s: %s, want %s (%s) [seed %llu]", what, sk_status_name(got),
                 sk_status_name(want), detail, SEED);
    if (want == SK_OK) return;
    cr_assert(detail && detail[0], "%s: no detail", what);
    if (says)
        cr_assert_not_null(strstr(detail, says), "%s: detail '%s' without '%s'", what, detail,
                           says);
}

/* uint32 keys and their indices as 4-byte values, the sorted keys and
 * values the reference gives. */
typedef struct fixture {
    size_t n;
    unsigned char *keys, *vals, *want_k, *want_v, *ko, *vo;
} fixture;

static fixture make_fixture(size_t n)
{
    /* room for two elements more: inputs that go on past n */
    fixture f = {n, make_keys(SK_UINT32, n + 2, RANDOM), make_values(n + 2, 4),
                 skt_malloc(4 * n + 1), skt_malloc(4 * n + 1), skt_malloc(4 * n + 1),
                 skt_malloc(4 * n + 1)};
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    skt_ref_sort_perm(SK_UINT32, f.keys, n, 0, 0, 32, perm);
    skt_ref_gather(f.keys, 4, perm, n, f.want_k);
    skt_ref_gather(f.vals, 4, perm, n, f.want_v);
    free(perm);
    return f;
}

static void free_fixture(fixture *f)
{
    skt_free_all(f->keys, f->vals, f->want_k, f->want_v, f->ko, f->vo, NULL);
}

/* What was written is a prefix of the output. */
static void expect_prefix(const mem_out *out, const unsigned char *want, const char *what)
{
    cr_assert(!out->overflow, "%s: written past the output", what);
    cr_assert_eq(memcmp(out->data, want, out->at), 0,
                 "%s: the %zu bytes written are no prefix of the output [seed %llu]", what,
                 out->at, SEED);
}

static sk_status sort_pairs(mem_in *kin, mem_in *vin, mem_out *kout, mem_out *vout,
                            const sk_stream_opts *o, sk_stream_stats *st)
{
    return sk_sort_pairs_stream(skt_ctx, SK_UINT32, 4, (sk_reader){read_mem, kin},
                                (sk_reader){read_mem, vin}, (sk_writer){write_mem, kout},
                                (sk_writer){write_mem, vout}, SK_ASCENDING, o, st);
}

static sk_status sort_keys(mem_in *kin, mem_out *kout, const sk_stream_opts *o,
                           sk_stream_stats *st)
{
    return sk_sort_keys_stream(skt_ctx, SK_UINT32, (sk_reader){read_mem, kin},
                               (sk_writer){write_mem, kout}, SK_ASCENDING, o, st);
}

static sk_stream_opts opts_of(enum regime r, const char *dir)
{
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    budget b = budget_of(r);
    o.device_bytes = b.device;
    o.host_bytes = b.host;
    o.temp_dir = dir;
    return o;
}

/* Readers that fail early, mid-way and at the end; writers that fail at
 * once and mid-way: in each regime, keys and pairs. */
Test(sort_stream_errors, failing_readers_and_writers)
{
    enum { N = 40000 };
    fixture f = make_fixture(N);
    char dir[256];
    make_temp_dir(dir, sizeof dir);
    for (int r = 0; r < REGIME_COUNT; r++) {
        sk_stream_opts o = opts_of((enum regime)r, dir);
        const size_t fail_reading[] = {1, 4 * 1000 + 2, 4 * (N - 1), 4 * N - 1};
        for (int pairs = 0; pairs < 2; pairs++)
            for (int which = 0; which <= pairs; which++)
                for (size_t i = 0; i < 4; i++) {
                    const char *what = skt_fmt("%s, %s, the %s' reader failing after %zu bytes",
                                               REGIME_NAMES[r], pairs ? "pairs" : "keys",
                                               which ? "values" : "keys", fail_reading[i]);
                    mem_in kin = in_over(f.keys, 4 * N), vin = in_over(f.vals, 4 * N);
                    (which ? &vin : &kin)->fail_at = fail_reading[i];
                    mem_out kout = out_over(f.ko, 4 * N), vout = out_over(f.vo, 4 * N);
                    sk_stream_stats st = SK_STREAM_STATS_INIT;
                    sk_status s = pairs ? sort_pairs(&kin, &vin, &kout, &vout, &o, &st)
                                        : sort_keys(&kin, &kout, &o, &st);
                    expect_status(s, SK_E_IO, which ? "values' reader" : "keys' reader", what);
                    cr_assert_eq(kout.at + vout.at, 0, "%s: wrote %zu bytes", what,
                                 kout.at + vout.at);
                    cr_assert_leq(st.count, N, "%s: stats count %llu", what,
                                  (unsigned long long)st.count);
                    expect_empty(dir, what);
                }
        const size_t fail_writing[] = {0, 4 * 777 + 3, 4 * (N - 1)};
        for (int pairs = 0; pairs < 2; pairs++)
            for (int which = 0; which <= pairs; which++)
                for (size_t i = 0; i < 3; i++) {
                    const char *what = skt_fmt("%s, %s, the %s' writer failing after %zu bytes",
                                               REGIME_NAMES[r], pairs ? "pairs" : "keys",
                                               which ? "values" : "keys", fail_writing[i]);
                    mem_in kin = in_over(f.keys, 4 * N), vin = in_over(f.vals, 4 * N);
                    mem_out kout = out_over(f.ko, 4 * N), vout = out_over(f.vo, 4 * N);
                    skt_poison(f.ko, 4 * N);
                    skt_poison(f.vo, 4 * N);
                    (which ? &vout : &kout)->fail_at = fail_writing[i];
                    sk_status s = pairs ? sort_pairs(&kin, &vin, &kout, &vout, &o, NULL)
                                        : sort_keys(&kin, &kout, &o, NULL);
                    expect_status(s, SK_E_IO, which ? "values' writer" : "keys' writer", what);
                    expect_prefix(&kout, f.want_k, what);
                    expect_prefix(&vout, f.want_v, what);
                    expect_empty(dir, what);
                    cr_assert_leq((which ? vout : kout).at, fail_writing[i],
                                  "%s: wrote %zu bytes", what, (which ? vout : kout).at);
                }
        expect_context_works(REGIME_NAMES[r]);
    }
    expect_empty_and_remove(dir, "failing readers and writers");
    free_fixture(&f);
}

/* A reader that claims more bytes than it was asked for fails the sort. */
Test(sort_stream_errors, reader_claiming_too_much)
{
    fixture f = make_fixture(1000);
    mem_in kin = in_over(f.keys, 4000), vin = in_over(f.vals, 4000);
    mem_out kout = out_over(f.ko, 4000), vout = out_over(f.vo, 4000);
    kin.overread = 1;
    expect_status(sort_keys(&kin, &kout, NULL, NULL), SK_E_IO, "keys' reader",
                  "a keys' reader claiming a byte more");
    kin.overread = 0, kin.at = 0, vin.overread = 1, kout.at = 0;
    expect_status(sort_pairs(&kin, &vin, &kout, &vout, NULL, NULL), SK_E_IO, "values' reader",
                  "a values' reader claiming a byte more");
    expect_context_works("a reader claiming too much");
    free_fixture(&f);
}

/* Inputs that end within an element, values that end before the keys or
 * go on after them: at the start, within a run and at a run's end. */
Test(sort_stream_errors, inputs_of_the_wrong_length)
{
    enum { N = 40000 };
    fixture f = make_fixture(N);
    for (int r = 0; r < 2; r++) {
        sk_stream_opts o = opts_of((enum regime)r, NULL);
        const size_t ns[] = {0, 1, 17, N / 2, N};
        for (size_t i = 0; i < 5; i++) {
            size_t n = ns[i];
            const char *at = skt_fmt("%s, %zu keys", REGIME_NAMES[r], n);
            for (size_t extra = 1; extra < 4; extra++) {
                mem_in kin = in_over(f.keys, 4 * n + extra), vin = in_over(f.vals, 4 * n);
                mem_out kout = out_over(f.ko, 4 * N), vout = out_over(f.vo, 4 * N);
                const char *what = skt_fmt("%s and %zu bytes", at, extra);
                expect_status(sort_keys(&kin, &kout, &o, NULL), SK_E_INVALID_ARG,
                              "the keys end within a key", what);
                kin.at = 0, kout.at = 0;
                expect_status(sort_pairs(&kin, &vin, &kout, &vout, &o, NULL), SK_E_INVALID_ARG,
                              "the keys end within a key", what);
                /* values ending within a value */
                mem_in k2 = in_over(f.keys, 4 * n), v2 = in_over(f.vals, 4 * n + extra);
                if (n) v2.len = 4 * n - extra;
                kout.at = vout.at = 0;
                expect_status(sort_pairs(&k2, &v2, &kout, &vout, &o, NULL), SK_E_INVALID_ARG,
                              n ? "the values end before the keys" : "the values go on after",
                              skt_fmt("%s, values %zu bytes %s", at, extra,
                                      n ? "short" : "over"));
            }
            /* whole values, one fewer or one more than the keys */
            mem_in kin = in_over(f.keys, 4 * n), vin = in_over(f.vals, 4 * n + 4);
            mem_out kout = out_over(f.ko, 4 * N), vout = out_over(f.vo, 4 * N);
            expect_status(sort_pairs(&kin, &vin, &kout, &vout, &o, NULL), SK_E_INVALID_ARG,
                          "the values go on after", skt_fmt("%s, one value more", at));
            if (n) {
                kin = in_over(f.keys, 4 * n), vin = in_over(f.vals, 4 * n - 4);
                kout.at = vout.at = 0;
                expect_status(sort_pairs(&kin, &vin, &kout, &vout, &o, NULL), SK_E_INVALID_ARG,
                              "the values end before the keys",
                              skt_fmt("%s, one value fewer", at));
            }
        }
        expect_context_works(REGIME_NAMES[r]);
    }
    free_fixture(&f);
}

/* Arguments refused before anything is read. */
Test(sort_stream_errors, bad_arguments)
{
    unsigned char k[16] = {0};
    mem_in in = in_over(k, 16);
    mem_out out = out_over(k, 16);
    sk_reader r = {read_mem, &in}, no_r = {NULL, &in};
    sk_writer w = {write_mem, &out}, no_w = {NULL, &out};
    const sk_sort_order A = SK_ASCENDING;
    SKT_EXPECT_STATUS(sk_sort_keys_stream(NULL, SK_UINT32, r, w, A, NULL, NULL),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_stream(NULL, SK_UINT32, 4, r, r, w, w, A, NULL, NULL),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_bits_stream(NULL, SK_UINT32, r, w, A, 0, 8, NULL, NULL),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_pairs_bits_stream(NULL, SK_UINT32, 4, r, r, w, w, A, 0, 8, NULL,
                                                NULL),
                      SK_E_INVALID_ARG);
#define REFUSED(call, what) expect_status((call), SK_E_INVALID_ARG, NULL, (what))
    REFUSED(sk_sort_keys_stream(skt_ctx, SK_UINT32, no_r, w, A, NULL, NULL),
            "NULL reader");
    REFUSED(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, no_w, A, NULL, NULL),
            "NULL writer");
    REFUSED(sk_sort_pairs_stream(skt_ctx, SK_UINT32, 4, r, no_r, w, w, A, NULL, NULL),
            "NULL values' reader");
    REFUSED(sk_sort_pairs_stream(skt_ctx, SK_UINT32, 4, r, r, w, no_w, A, NULL, NULL),
            "NULL values' writer");
    REFUSED(sk_sort_keys_stream(skt_ctx, (sk_type)SK_KEY_TYPE_COUNT, r, w, A, NULL, NULL),
            "type SK_KEY_TYPE_COUNT");
    REFUSED(sk_sort_keys_stream(skt_ctx, (sk_type)-1, r, w, A, NULL, NULL),
            "type -1");
    REFUSED(sk_sort_pairs_stream(skt_ctx, (sk_type)99, 4, r, r, w, w, A, NULL, NULL),
            "type 99");
    REFUSED(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, (sk_sort_order)2, NULL, NULL),
            "order 2");
    REFUSED(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, (sk_sort_order)-1, NULL, NULL),
            "order -1");
    REFUSED(sk_sort_pairs_stream(skt_ctx, SK_UINT32, 0, r, r, w, w, A, NULL, NULL),
            "values of 0");
    REFUSED(sk_sort_pairs_stream(skt_ctx, SK_UINT32, 3, r, r, w, w, A, NULL, NULL),
            "values of 3");
    REFUSED(sk_sort_pairs_stream(skt_ctx, SK_UINT32, 16, r, r, w, w, A, NULL, NULL),
            "values of 16");
    REFUSED(sk_sort_keys_bits_stream(skt_ctx, SK_UINT32, r, w, A, 8, 8, NULL, NULL),
            "bits [8, 8)");
    REFUSED(sk_sort_keys_bits_stream(skt_ctx, SK_UINT32, r, w, A, 9, 8, NULL, NULL),
            "bits [9, 8)");
    REFUSED(sk_sort_keys_bits_stream(skt_ctx, SK_UINT32, r, w, A, 0, 33, NULL, NULL),
            "bits [0, 33) of 32");
    REFUSED(sk_sort_keys_bits_stream(skt_ctx, SK_FLOAT32, r, w, A, 32, 33, NULL, NULL),
            "bits [32, 33) of 32");
    REFUSED(sk_sort_keys_bits_stream(skt_ctx, SK_INT64, r, w, A, 0, 65, NULL, NULL),
            "bits [0, 65) of 64");
    REFUSED(sk_sort_pairs_bits_stream(skt_ctx, SK_UINT64, 4, r, r, w, w, A, 64, 64, NULL, NULL),
            "pairs, bits [64, 64)");
#undef REFUSED
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    o.struct_size = sizeof o - 1;
    expect_status(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, A, &o, NULL), SK_E_INVALID_ARG,
                  "struct_size", "options' struct_size one short");
    o.struct_size = 0;
    expect_status(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, A, &o, NULL), SK_E_INVALID_ARG,
                  "struct_size", "options' struct_size 0");
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    st.struct_size = sizeof st - 1;
    expect_status(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, A, NULL, &st), SK_E_INVALID_ARG,
                  "struct_size", "stats' struct_size one short");
    cr_assert_eq(in.at, 0, "a refused call read %zu bytes", in.at);
    cr_assert_eq(out.calls, 0, "a refused call wrote");
    expect_context_works("bad arguments");
}

/* Stats of a bad struct_size: refused, and nothing written past the
 * struct_size the caller gave (the rule of sk_device_desc). */
Test(sort_stream_errors, stats_struct_size_too_small_left_alone)
{
    unsigned char k[16] = {0};
    mem_in in = in_over(k, 16);
    mem_out out = out_over(k, 16);
    const size_t sizes[] = {0, sizeof(size_t), sizeof(sk_stream_stats) - 1};
    for (size_t i = 0; i < 3; i++) {
        sk_stream_stats st;
        skt_poison(&st, sizeof st);
        st.struct_size = sizes[i];
        in.at = 0;
        sk_status s = sk_sort_keys_stream(skt_ctx, SK_UINT32, (sk_reader){read_mem, &in},
                                          (sk_writer){write_mem, &out}, SK_ASCENDING, NULL, &st);
        const char *what = skt_fmt("stats of struct_size %zu", sizes[i]);
        expect_status(s, SK_E_INVALID_ARG, "struct_size", what);
        cr_assert_eq(st.struct_size, sizes[i], "%s: struct_size changed", what);
        size_t from = sizes[i] > sizeof(size_t) ? sizes[i] : sizeof(size_t);
        size_t bad = skt_find_unpoisoned((unsigned char *)&st + from, sizeof st - from);
        cr_assert_eq(bad, (size_t)-1, "%s: byte %zu of the struct written (beyond struct_size)",
                     what, from + bad);
    }
}

/* Options and stats of a later, larger struct: accepted, and nothing
 * written past the stats this library knows. */
Test(sort_stream_errors, larger_structs_accepted)
{
    struct {
        sk_stream_stats st;
        unsigned char more[32];
    } big;
    struct {
        sk_stream_opts o;
        unsigned char more[32];
    } bigo;
    skt_poison(&big, sizeof big);
    memset(&bigo, 0, sizeof bigo);
    big.st.struct_size = sizeof big;
    bigo.o.struct_size = sizeof bigo;
    fixture f = make_fixture(1000);
    mem_in kin = in_over(f.keys, 4000);
    mem_out kout = out_over(f.ko, 4000);
    SKT_OK(sort_keys(&kin, &kout, &bigo.o, &big.st));
    cr_assert_eq(memcmp(f.ko, f.want_k, 4000), 0, "not sorted [seed %llu]", SEED);
    cr_assert_eq(big.st.count, 1000);
    cr_assert_eq(skt_find_unpoisoned(big.more, sizeof big.more), (size_t)-1,
                 "written past the library's stats");
    free_fixture(&f);
}

/* A temporary directory that does not exist: no matter while nothing
 * spills, SK_E_IO naming it when a run must go to the file. */
Test(sort_stream_errors, temporary_directory_missing)
{
    enum { N = 40000 };
    fixture f = make_fixture(N);
    char dir[256], gone[300];
    make_temp_dir(dir, sizeof dir);
    snprintf(gone, sizeof gone, "%s/no-such-directory", dir);
    for (int pairs = 0; pairs < 2; pairs++) {
        sk_stream_opts o = opts_of(SPILLED, gone);
        mem_in kin = in_over(f.keys, 4 * N), vin = in_over(f.vals, 4 * N);
        mem_out kout = out_over(f.ko, 4 * N), vout = out_over(f.vo, 4 * N);
        sk_stream_stats st = SK_STREAM_STATS_INIT;
        sk_status s = pairs ? sort_pairs(&kin, &vin, &kout, &vout, &o, &st)
                            : sort_keys(&kin, &kout, &o, &st);
        const char *what = skt_fmt("%s spilled to %s", pairs ? "pairs" : "keys", gone);
        expect_status(s, SK_E_IO, gone, what);
        cr_assert_eq(kout.at + vout.at, 0, "%s: wrote %zu bytes", what, kout.at + vout.at);
        cr_assert_eq(st.spilled_runs, 0, "%s: %llu runs spilled", what,
                     (unsigned long long)st.spilled_runs);
        expect_context_works(what);
        /* a path through a file */
        char file[300];
        snprintf(file, sizeof file, "%s/a-file", dir);
        FILE *fp = fopen(file, "w");
        cr_assert_not_null(fp);
        fclose(fp);
        o.temp_dir = file;
        kin.at = vin.at = kout.at = vout.at = 0;
        s = pairs ? sort_pairs(&kin, &vin, &kout, &vout, &o, NULL)
                  : sort_keys(&kin, &kout, &o, NULL);
        expect_status(s, SK_E_IO, file, skt_fmt("spilled to a file, %s", file));
        cr_assert_eq(unlink(file), 0);
    }
    expect_empty_and_remove(dir, "temporary directory missing");
    free_fixture(&f);
}

/* The device memory a stream sort allocates, counted buffer by buffer as
 * the context makes and frees them (its scratch, the run buffers), stays
 * within the budget and within what the statistics report: keys and pairs
 * on both shapes, runs merged (the CPU shape's 32-bit keys take three
 * passes, an odd count, through a second scratch buffer). */
Test(sort_stream, device_allocations_stay_within_the_budget)
{
    enum { N = 20000 };
    fixture f = make_fixture(N);
    const uint64_t budget = 64 << 10;
    const sk_shape shapes[] = {SK_SHAPE_CPU, SK_SHAPE_GPU};
    for (int k = 0; k < 2; k++)
        for (int pairs = 0; pairs < 2; pairs++) {
            const char *what = skt_fmt("%s, %s shape, device budget %llu",
                                       pairs ? "pairs" : "keys", k ? "gpu" : "cpu",
                                       (unsigned long long)budget);
            skt_force_shape(shapes[k]);
            SKT_OK(sk_context_trim(skt_ctx)); /* no scratch held from before */
            SKT_OK(sk__test_device_peak(skt_ctx, true, NULL, NULL));
            sk_stream_opts o = SK_STREAM_OPTS_INIT;
            o.device_bytes = budget;
            mem_in kin = in_over(f.keys, 4 * N), vin = in_over(f.vals, 4 * N);
            mem_out kout = out_over(f.ko, 4 * N), vout = out_over(f.vo, 4 * N);
            skt_poison(f.ko, 4 * N);
            sk_stream_stats st = SK_STREAM_STATS_INIT;
            SKT_OK(pairs ? sort_pairs(&kin, &vin, &kout, &vout, &o, &st)
                         : sort_keys(&kin, &kout, &o, &st));
            cr_assert_eq(memcmp(f.ko, f.want_k, 4 * N), 0, "%s: keys differ", what);
            cr_assert(!pairs || memcmp(f.vo, f.want_v, 4 * N) == 0, "%s: values differ", what);
            uint64_t peak = 0;
            SKT_OK(sk__test_device_peak(skt_ctx, false, &peak, NULL));
            cr_assert_gt(st.runs, 1, "%s: one run", what);
            cr_assert_leq(peak, budget, "%s: %llu bytes allocated at once", what,
                          (unsigned long long)peak);
            cr_assert_leq(peak, st.device_bytes, "%s: %llu bytes allocated at once, %llu "
                          "reported", what, (unsigned long long)peak,
                          (unsigned long long)st.device_bytes);
        }
    free_fixture(&f);
}

/* Budgets that hold no run of one element, and too many runs for a
 * window of one element each. */
Test(sort_stream_errors, budgets_too_small)
{
    fixture f = make_fixture(1000);
    const uint64_t dev[] = {1, 1, 0, 7};
    const uint64_t host[] = {0, 1, 1, 0};
    for (int i = 0; i < 4; i++)
        for (int pairs = 0; pairs < 2; pairs++) {
            sk_stream_opts o = SK_STREAM_OPTS_INIT;
            o.device_bytes = dev[i];
            o.host_bytes = host[i];
            mem_in kin = in_over(f.keys, 4000), vin = in_over(f.vals, 4000);
            mem_out kout = out_over(f.ko, 4000), vout = out_over(f.vo, 4000);
            sk_stream_stats st = SK_STREAM_STATS_INIT;
            sk_status s = pairs ? sort_pairs(&kin, &vin, &kout, &vout, &o, &st)
                                : sort_keys(&kin, &kout, &o, &st);
            const char *what = skt_fmt("%s, device budget %llu, host budget %llu",
                                       pairs ? "pairs" : "keys", (unsigned long long)dev[i],
                                       (unsigned long long)host[i]);
            expect_status(s, SK_E_SIZE, NULL, what);
            cr_assert_eq(kout.at + vout.at, 0, "%s: wrote %zu bytes", what, kout.at + vout.at);
            cr_assert_eq(st.count, 0, "%s: count %llu", what, (unsigned long long)st.count);
        }
    expect_context_works("budgets too small");
    free_fixture(&f);
}

/* The smallest device budget that sorts at all, and runs of r there: r + 1
 * runs leave no window of the merge (SK_E_SIZE), r / 8 runs merge. */
Test(sort_stream_errors, too_many_runs_for_the_windows)
{
    enum { PROBE = 20000 };
    fixture f = make_fixture(PROBE);
    uint64_t budget = 0;
    sk_status s = SK_E_SIZE;
    for (budget = 256; budget <= ((uint64_t)1 << 20); budget += budget / 4) {
        sk_stream_opts o = SK_STREAM_OPTS_INIT;
        o.device_bytes = budget;
        mem_in kin = in_over(f.keys, 4 * 64);
        mem_out kout = out_over(f.ko, 4 * 64);
        s = sort_keys(&kin, &kout, &o, NULL);
        if (s != SK_E_SIZE) break;
    }
    expect_status(s, SK_OK, NULL, skt_fmt("64 keys, device budget %llu",
                                          (unsigned long long)budget));
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    o.device_bytes = budget;
    mem_in kin = in_over(f.keys, 4 * PROBE);
    mem_out kout = out_over(f.ko, 4 * PROBE);
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    SKT_OK(sort_keys(&kin, &kout, &o, &st));
    size_t r = (size_t)st.run_elements;
    cr_log_info("the least device budget %llu: runs of %zu", (unsigned long long)budget, r);
    if (st.runs == 1 || r > 1200)
        cr_skip_test("runs of %zu at the least budget: too many runs to try", r);
    free_fixture(&f);
    for (int i = 0; i < 2; i++) {
        size_t n = i ? r * (r / 8) : r * r + 1;
        f = make_fixture(n);
        kin = in_over(f.keys, 4 * n), kout = out_over(f.ko, 4 * n);
        skt_poison(f.ko, 4 * n);
        sk_status got = sort_keys(&kin, &kout, &o, &st);
        const char *what = skt_fmt("%zu keys in runs of %zu, device budget %llu", n, r,
                                   (unsigned long long)budget);
        if (!i) {
            expect_status(got, SK_E_SIZE, "runs", what);
            cr_assert_eq(kout.at, 0, "%s: wrote %zu bytes", what, kout.at);
        } else {
            expect_status(got, SK_OK, NULL, what);
            cr_assert_eq(st.runs, r / 8, "%s: %llu runs", what, (unsigned long long)st.runs);
            cr_assert_eq(memcmp(f.ko, f.want_k, 4 * n), 0, "%s: not the reference's [seed %llu]",
                         what, SEED);
        }
        free_fixture(&f);
    }
    expect_context_works("too many runs");
}

/* ---- the caller's scratch ------------------------------------------------------------ */

/* The caller's scratch set before a stream sort serves it and is still set
 * after it (a failed one too). */
Test(sort_stream, keeps_the_callers_scratch)
{
    enum { N = 30000 };
    size_t need = 0;
    cl_mem probe = skt_buf_new(8 * N), probe_v = skt_buf_new(8 * N);
    SKT_OK(sk_context_scratch_query_begin(skt_ctx));
    SKT_OK(sk_sort_pairs(skt_ctx, SK_UINT64, 8, probe, probe_v, N, SK_ASCENDING));
    SKT_OK(sk_context_scratch_query_end(skt_ctx, &need));
    cl_mem scratch = skt_buf_new(need);
    SKT_OK(sk_context_set_scratch(skt_ctx, scratch, need));
    /* one run of N, and runs of fewer */
    sort_case c = {SK_UINT64, 8, SK_DESCENDING, FEW, 0, 0, 0, N};
    check_case_regimes(&c, (1u << ONE_RUN) | (1u << MEMORY_RUNS));
    /* a failure on the way */
    fixture f = make_fixture(1000);
    mem_in kin = in_over(f.keys, 4000);
    mem_out kout = out_over(f.ko, 4000);
    kin.fail_at = 100;
    expect_status(sort_keys(&kin, &kout, NULL, NULL), SK_E_IO, "reader", "a failing reader");
    /* still set: a sort needing more than it holds is refused, one that
     * fits runs */
    cl_mem twice = skt_buf_new(16 * N), twice_v = skt_buf_new(16 * N);
    /* Keys that differ (keys all alike would need no passes, and no
     * scratch for them). */
    unsigned char *twice_k = make_keys(SK_UINT64, 2 * N, RANDOM);
    skt_buf_upload(twice, 0, twice_k, 16 * N);
    free(twice_k);
    SKT_EXPECT_STATUS(sk_sort_pairs(skt_ctx, SK_UINT64, 8, twice, twice_v, 2 * N, SK_ASCENDING),
                      SK_E_SIZE);
    expect_context_works("the caller's scratch");
    /* a stream sort needing more scratch than the caller gave */
    sort_case big = {SK_UINT64, 8, SK_ASCENDING, RANDOM, 0, 0, 0, 3 * N};
    unsigned char *keys = make_keys(big.t, big.n, big.dist), *vals = make_values(big.n, 8);
    unsigned char *ko = skt_malloc(8 * big.n), *vo = skt_malloc(8 * big.n);
    mem_in bk = in_over(keys, 8 * big.n), bv = in_over(vals, 8 * big.n);
    mem_out bko = out_over(ko, 8 * big.n), bvo = out_over(vo, 8 * big.n);
    sk_status s = sk_sort_pairs_stream(skt_ctx, SK_UINT64, 8, (sk_reader){read_mem, &bk},
                                       (sk_reader){read_mem, &bv}, (sk_writer){write_mem, &bko},
                                       (sk_writer){write_mem, &bvo}, SK_ASCENDING, NULL, NULL);
    expect_status(s, SK_E_SIZE, NULL, "a stream sort of more than the caller's scratch holds");
    SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
    /* the context's own scratch again: the same sort runs */
    bk.at = bv.at = bko.at = bvo.at = 0;
    SKT_OK(sk_sort_pairs_stream(skt_ctx, SK_UINT64, 8, (sk_reader){read_mem, &bk},
                                (sk_reader){read_mem, &bv}, (sk_writer){write_mem, &bko},
                                (sk_writer){write_mem, &bvo}, SK_ASCENDING, NULL, NULL));
    skt_free_all(keys, vals, ko, vo, NULL);
    free_fixture(&f);
    skt_buf_free(twice);
    skt_buf_free(twice_v);
    skt_buf_free(scratch);
    skt_buf_free(probe);
    skt_buf_free(probe_v);
}
