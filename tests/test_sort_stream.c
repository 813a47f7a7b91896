/*
 * test_sort_stream.c - sk_sort_*_stream against the serial reference
 * (tests/ref/ref_sort.c), the data read through readers and written
 * through writers over host memory.
 *
 * Values carry each key's input index, so the values written spell out
 * which key went where: every check compares them with the reference's
 * permutation, which pins stability. The readers hand out pieces of 1 to 7
 * bytes at random where a case asks (pieces that split keys and values),
 * else whatever is asked; the writers check that nothing is written past
 * the output and that the pieces come in order.
 *
 * Three regimes, each forced by the budgets: one run (the defaults), runs
 * kept in host memory (a device budget of a few KiB), runs spilled to the
 * temporary file (a host budget of a few runs, a directory of the test's
 * own that must be empty afterwards). Each case: a key type, keys or
 * pairs (4- and 8-byte values), an order, a distribution (uniform, few
 * unique, all equal, sorted, reversed) and a bit range or the whole key;
 * every value of every axis meets every regime. Then the sizes at the
 * run's edges, and the errors: readers and writers that fail, inputs that
 * end within a key, values that end before or go on after the keys, bad
 * arguments, a temporary directory that cannot be made, budgets too small.
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
#include "skt_common.h"

TestSuite(sort_stream, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* ---- readers and writers over memory -------------------------------------------- */

typedef struct mem_in {
    const unsigned char *data;
    size_t len, at;
    int odd_pieces;          /* 1..7 bytes a call */
    size_t fail_at;          /* return -1 once this many bytes were read (0: never) */
} mem_in;

typedef struct mem_out {
    unsigned char *data;
    size_t cap, at;
    int fail;                /* return -1 at the first write */
    int overflow;            /* a write went past cap */
} mem_out;

static long long read_mem(void *user, void *buf, size_t bytes)
{
    mem_in *m = user;
    if (m->fail_at && m->at >= m->fail_at) return -1;
    size_t n = m->len - m->at < bytes ? m->len - m->at : bytes;
    if (m->odd_pieces && n > 1) n = 1 + (size_t)skt_rand_below(n < 7 ? n : 7);
    memcpy(buf, m->data + m->at, n);
    m->at += n;
    return (long long)n;
}

static int write_mem(void *user, const void *buf, size_t bytes)
{
    mem_out *m = user;
    if (m->fail) return -1;
    if (bytes > m->cap - m->at) {
        m->overflow = 1;
        return -1;
    }
    memcpy(m->data + m->at, buf, bytes);
    m->at += bytes;
    return 0;
}

/* ---- inputs -------------------------------------------------------------------- */

enum dist { UNIFORM, FEW, EQUAL, SORTED, REVERSED, DIST_COUNT };
static const char *const DIST_NAMES[DIST_COUNT] = {"uniform", "few unique", "all equal",
                                                   "sorted", "reversed"};

static uint64_t random_bits(size_t size)
{
    uint64_t r = skt_rand();
    return size == 4 ? r >> 32 : r;
}

/* n keys of type t; floats mix in NaNs of both signs, +-0 and +-inf. */
static unsigned char *make_keys(sk_type t, size_t n, enum dist d)
{
    size_t ks = sk_type_size(t);
    unsigned char *k = malloc(n * ks + 1);
    uint64_t pool[8];
    for (int i = 0; i < 8; i++) pool[i] = random_bits(ks);
    if (t == SK_FLOAT32) pool[0] = 0x80000000u, pool[1] = 0, pool[2] = 0xffc00001u,
                         pool[3] = 0x7f800000u;
    if (t == SK_FLOAT64) pool[0] = 0x8000000000000000ull, pool[1] = 0,
                         pool[2] = 0xfff8000000000001ull, pool[3] = 0x7ff0000000000000ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = d == FEW ? pool[skt_rand_below(8)] : d == EQUAL ? pool[2]
                                                                     : random_bits(ks);
        if (d == UNIFORM && skt_rand_below(16) == 0) v = pool[skt_rand_below(4)];
        memcpy(k + i * ks, &v, ks);
    }
    if (d == SORTED || d == REVERSED) {
        size_t *perm = malloc(n * sizeof *perm);
        unsigned char *sorted = malloc(n * ks + 1);
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
    unsigned char *v = malloc(n * vs + 1);
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

#define DEVICE_BUDGET ((uint64_t)96 << 10)

typedef struct sort_case {
    sk_type t;
    size_t vs;               /* 0: keys only */
    sk_sort_order order;
    enum dist dist;
    enum regime regime;
    unsigned begin, end;     /* end 0: the whole key */
    int odd_pieces;
    size_t n;
} sort_case;

static char temp_dir[256];

/* A directory of the test's own for the temporary file. */
static void make_temp_dir(void)
{
    snprintf(temp_dir, sizeof temp_dir, "%s/skt-stream-XXXXXX", SKT_BINARY_DIR);
    cr_assert_not_null(mkdtemp(temp_dir), "mkdtemp %s", temp_dir);
}

static void expect_empty_and_remove(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    for (struct dirent *x; (x = readdir(d));)
        cr_assert(!strcmp(x->d_name, ".") || !strcmp(x->d_name, ".."), "%s/%s was left", dir,
                  x->d_name);
    closedir(d);
    rmdir(dir);
}

static sk_stream_opts opts_for(const sort_case *c, uint64_t run_bytes_hint)
{
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    if (c->regime != ONE_RUN) o.device_bytes = DEVICE_BUDGET;
    if (c->regime == SPILLED) {
        o.host_bytes = run_bytes_hint;
        o.temp_dir = temp_dir;
    }
    return o;
}

static sk_status run_sort(const sort_case *c, mem_in *kin, mem_in *vin, mem_out *kout,
                          mem_out *vout, const sk_stream_opts *o, sk_stream_stats *st)
{
    unsigned end = c->end ? c->end : 8 * (unsigned)sk_type_size(c->t);
    sk_reader kr = {read_mem, kin}, vr = {read_mem, vin};
    sk_writer kw = {write_mem, kout}, vw = {write_mem, vout};
    if (c->vs)
        return sk_sort_pairs_bits_stream(skt_ctx, c->t, c->vs, kr, vr, kw, vw, c->order,
                                         c->begin, end, o, st);
    return sk_sort_keys_bits_stream(skt_ctx, c->t, kr, kw, c->order, c->begin, end, o, st);
}

static void describe(const sort_case *c, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s keys, %zu-byte values, %s, %s, bits [%u, %u), %s, n %zu%s [seed %llu]",
             sk_type_name(c->t), c->vs, c->order ? "descending" : "ascending",
             DIST_NAMES[c->dist], c->begin, c->end ? c->end : 8 * (unsigned)sk_type_size(c->t),
             REGIME_NAMES[c->regime], c->n, c->odd_pieces ? ", odd pieces" : "",
             (unsigned long long)skt_seed());
}

/* Sorts c's input and checks the output against the reference, and the
 * statistics against the regime. */
static void check_case(const sort_case *c)
{
    char what[256];
    describe(c, what, sizeof what);
    if (c->t == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("no fp64");
    size_t ks = sk_type_size(c->t), n = c->n;
    unsigned char *keys = make_keys(c->t, n, c->dist), *vals = make_values(n, c->vs ? c->vs : 4);
    size_t kb = n * ks, vb = n * c->vs;
    mem_in kin = {keys, kb, 0, c->odd_pieces, 0}, vin = {vals, vb, 0, c->odd_pieces, 0};
    mem_out kout = {malloc(kb + 1), kb, 0, 0, 0}, vout = {malloc(vb + 1), vb, 0, 0, 0};
    skt_poison(kout.data, kb);
    skt_poison(vout.data, vb);
    if (c->regime == SPILLED) make_temp_dir();
    /* the host budget of a spilled case: the staging and windows (a run each,
     * about half the device budget) and one run more */
    sk_stream_opts o = opts_for(c, 3 * (DEVICE_BUDGET / 2));
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    sk_status s = run_sort(c, &kin, &vin, &kout, &vout, &o, &st);
    cr_assert_eq(s, SK_OK, "%s: %s: %s", what, sk_status_name(s),
                 sk_context_error_detail(skt_ctx));
    cr_assert(kout.at == kb && vout.at == vb && !kout.overflow && !vout.overflow,
              "%s: wrote %zu of %zu key bytes, %zu of %zu value bytes", what, kout.at, kb,
              vout.at, vb);
    size_t *perm = malloc((n ? n : 1) * sizeof *perm);
    unsigned end = c->end ? c->end : 8 * (unsigned)ks;
    skt_ref_sort_perm(c->t, keys, n, c->order == SK_DESCENDING, c->begin, end, perm);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(memcmp(kout.data + i * ks, keys + perm[i] * ks, ks), 0,
                     "%s: key %zu is not the reference's (input %zu)", what, i, perm[i]);
        uint64_t v = 0;
        if (c->vs) memcpy(&v, vout.data + i * c->vs, c->vs);
        cr_assert(!c->vs || v == perm[i], "%s: value %zu is %llu, want %zu", what, i,
                  (unsigned long long)v, perm[i]);
    }
    cr_assert_eq(st.count, n, "%s: stats count %llu", what, (unsigned long long)st.count);
    if (c->regime != ONE_RUN) {
        cr_assert_leq(st.device_bytes, DEVICE_BUDGET, "%s: %llu device bytes", what,
                      (unsigned long long)st.device_bytes);
        cr_assert(st.runs == 1 ? st.run_elements == n : st.run_elements < n,
                  "%s: %llu runs of at most %llu", what, (unsigned long long)st.runs,
                  (unsigned long long)st.run_elements);
    } else {
        cr_assert_eq(st.runs, 1, "%s: %llu runs", what, (unsigned long long)st.runs);
    }
    if (c->regime == SPILLED) {
        cr_assert_leq(st.host_bytes, o.host_bytes, "%s: %llu host bytes", what,
                      (unsigned long long)st.host_bytes);
        cr_assert(st.runs < 3 || st.spilled_runs > 0, "%s: %llu of %llu runs spilled", what,
                  (unsigned long long)st.spilled_runs, (unsigned long long)st.runs);
        expect_empty_and_remove(temp_dir);
    } else {
        cr_assert_eq(st.spilled_runs, 0, "%s: %llu runs spilled", what,
                     (unsigned long long)st.spilled_runs);
    }
    free(perm);
    skt_free_all(keys, vals, kout.data, vout.data, NULL);
}

/* ---- the matrix ------------------------------------------------------------------------ */

#define N_MATRIX 40000

static size_t matrix(sort_case *out)
{
    static const sk_type types[] = {SK_UINT32, SK_INT32, SK_FLOAT32,
                                    SK_UINT64, SK_INT64, SK_FLOAT64};
    static const size_t vss[] = {0, 4, 8};
    size_t count = 0;
    /* every type meets every regime; the other axes turn with the case number */
    for (size_t t = 0; t < 6; t++)
        for (int r = 0; r < REGIME_COUNT; r++) {
            size_t i = count;
            sort_case c = {types[t], vss[(t + r) % 3], (sk_sort_order)((t + r) % 2),
                           (enum dist)((t + 2 * r) % DIST_COUNT), (enum regime)r, 0, 0,
                           (int)(i % 4 == 1), N_MATRIX};
            if (i % 5 == 2) c.begin = 4, c.end = 20;       /* a bit range in the middle */
            if (i % 7 == 3) c.begin = 0, c.end = 8;        /* the low byte: many ties */
            out[count++] = c;
        }
    return count;
}

ParameterizedTestParameters(sort_stream, matches_the_reference_in_every_regime)
{
    static sort_case cases[6 * REGIME_COUNT];
    size_t n = matrix(cases);
    return cr_make_param_array(sort_case, cases, n);
}

ParameterizedTest(sort_case *c, sort_stream, matches_the_reference_in_every_regime)
{
    check_case(c);
}

/* Sizes at a run's edges (uint32 keys), the run length of the budget
 * measured first. */
Test(sort_stream, sizes_at_the_edges_of_runs)
{
    sort_case c = {SK_UINT32, 4, SK_ASCENDING, UNIFORM, MEMORY_RUNS, 0, 0, 0, 3000};
    check_case(&c); /* n below a run */
    sk_stream_opts o = opts_for(&c, 0);
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    /* the run length: a sort of more than fits one run */
    unsigned char *keys = make_keys(SK_UINT32, 100000, UNIFORM);
    unsigned char *sink = malloc(400000);
    mem_in kin = {keys, 400000, 0, 0, 0};
    mem_out kout = {sink, 400000, 0, 0, 0};
    cr_assert_eq(sk_sort_keys_stream(skt_ctx, SK_UINT32, (sk_reader){read_mem, &kin},
                                     (sk_writer){write_mem, &kout}, SK_ASCENDING, &o, &st),
                 SK_OK, "%s", sk_context_error_detail(skt_ctx));
    size_t r = (size_t)st.run_elements;
    cr_assert(r > 1 && st.runs > 1, "run of %zu, %llu runs", r, (unsigned long long)st.runs);
    size_t sizes[] = {0, 1, 2, r - 1, r, r + 1, 2 * r, 3 * r + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        sort_case e = {SK_UINT32, 0, (sk_sort_order)(i % 2), i % 3 ? UNIFORM : FEW,
                       MEMORY_RUNS, 0, 0, (int)(i % 2), sizes[i]};
        check_case(&e);
    }
    skt_free_all(keys, sink, NULL);
}

/* ---- errors ---------------------------------------------------------------------------- */

/* A sort of n uint32 keys (and 4-byte values unless vals_len is 0) that
 * must fail with `want`, its detail holding `says`. */
static void expect_failure(mem_in *kin, mem_in *vin, mem_out *kout, mem_out *vout,
                           const sk_stream_opts *o, sk_status want, const char *says)
{
    sk_reader kr = {read_mem, kin}, vr = {read_mem, vin};
    sk_writer kw = {write_mem, kout}, vw = {write_mem, vout};
    sk_status s = vin ? sk_sort_pairs_stream(skt_ctx, SK_UINT32, 4, kr, vr, kw, vw,
                                             SK_ASCENDING, o, NULL)
                      : sk_sort_keys_stream(skt_ctx, SK_UINT32, kr, kw, SK_ASCENDING, o, NULL);
    cr_assert_eq(s, want, "%s: got %s (%s)", says, sk_status_name(s),
                 sk_context_error_detail(skt_ctx));
    cr_assert_not_null(strstr(sk_context_error_detail(skt_ctx), says), "detail '%s', want '%s'",
                       sk_context_error_detail(skt_ctx), says);
}

/* The context still sorts after a failure. */
static void expect_context_works(void)
{
    uint32_t k[5] = {5, 3, 4, 1, 2};
    cr_assert_eq(sk_sort_keys_host(skt_ctx, SK_UINT32, k, 5, SK_ASCENDING), SK_OK);
    for (int i = 0; i < 5; i++) cr_assert_eq(k[i], (uint32_t)i + 1);
}

Test(sort_stream, failures_of_the_callers_functions_and_inputs)
{
    enum { N = 50000 };
    unsigned char *keys = make_keys(SK_UINT32, N, UNIFORM), *vals = make_values(N, 4);
    unsigned char *ko = malloc(4 * N), *vo = malloc(4 * N);
    sk_stream_opts many = SK_STREAM_OPTS_INIT;
    many.device_bytes = DEVICE_BUDGET;
    mem_in kin = {keys, 4 * N, 0, 0, 4000};
    mem_out kout = {ko, 4 * N, 0, 0, 0}, vout = {vo, 4 * N, 0, 0, 0};
    expect_failure(&kin, NULL, &kout, NULL, &many, SK_E_IO, "the keys' reader failed");
    expect_context_works();
    mem_in kin2 = {keys, 4 * N, 0, 0, 0};
    mem_out fail = {ko, 4 * N, 0, 1, 0};
    expect_failure(&kin2, NULL, &fail, NULL, &many, SK_E_IO, "the keys' writer failed");
    mem_in odd = {keys, 4 * N - 3, 0, 0, 0};
    kout.at = 0;
    expect_failure(&odd, NULL, &kout, NULL, NULL, SK_E_INVALID_ARG, "the keys end within a key");
    mem_in k3 = {keys, 4 * N, 0, 0, 0}, short_v = {vals, 4 * N - 8, 0, 0, 0};
    kout.at = 0, vout.at = 0;
    expect_failure(&k3, &short_v, &kout, &vout, &many, SK_E_INVALID_ARG,
                   "the values end before the keys");
    mem_in k4 = {keys, 4 * (N - 1), 0, 0, 0}, long_v = {vals, 4 * N, 0, 0, 0};
    kout.at = 0, vout.at = 0;
    expect_failure(&k4, &long_v, &kout, &vout, NULL, SK_E_INVALID_ARG, "the values go on after");
    make_temp_dir();
    char gone[300];
    snprintf(gone, sizeof gone, "%s/nosuch", temp_dir);
    sk_stream_opts spill = many;
    spill.host_bytes = DEVICE_BUDGET;
    spill.temp_dir = gone;
    mem_in k5 = {keys, 4 * N, 0, 0, 0};
    kout.at = 0;
    expect_failure(&k5, NULL, &kout, NULL, &spill, SK_E_IO, "cannot make a temporary file in");
    expect_empty_and_remove(temp_dir);
    sk_stream_opts tiny = SK_STREAM_OPTS_INIT;
    tiny.device_bytes = 1;
    mem_in k6 = {keys, 4 * N, 0, 0, 0};
    kout.at = 0;
    expect_failure(&k6, NULL, &kout, NULL, &tiny, SK_E_SIZE, "hold no run");
    expect_context_works();
    skt_free_all(keys, vals, ko, vo, NULL);
}

Test(sort_stream, bad_arguments)
{
    unsigned char k[8] = {0};
    mem_in in = {k, 8, 0, 0, 0};
    mem_out out = {k, 8, 0, 0, 0};
    sk_reader r = {read_mem, &in}, none_r = {NULL, &in};
    sk_writer w = {write_mem, &out};
    cr_assert_eq(sk_sort_keys_stream(NULL, SK_UINT32, r, w, SK_ASCENDING, NULL, NULL),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_sort_keys_stream(skt_ctx, SK_UINT32, none_r, w, SK_ASCENDING, NULL, NULL),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_sort_keys_stream(skt_ctx, (sk_type)99, r, w, SK_ASCENDING, NULL, NULL),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, (sk_sort_order)5, NULL, NULL),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_sort_pairs_stream(skt_ctx, SK_UINT32, 3, r, r, w, w, SK_ASCENDING, NULL,
                                      NULL),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_sort_keys_bits_stream(skt_ctx, SK_UINT32, r, w, SK_ASCENDING, 8, 8, NULL,
                                          NULL),
                 SK_E_INVALID_ARG);
    cr_assert_eq(sk_sort_keys_bits_stream(skt_ctx, SK_UINT32, r, w, SK_ASCENDING, 0, 33, NULL,
                                          NULL),
                 SK_E_INVALID_ARG);
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    o.struct_size = 8;
    cr_assert_eq(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, SK_ASCENDING, &o, NULL),
                 SK_E_INVALID_ARG);
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    st.struct_size = 8;
    cr_assert_eq(sk_sort_keys_stream(skt_ctx, SK_UINT32, r, w, SK_ASCENDING, NULL, &st),
                 SK_E_INVALID_ARG);
    cr_assert_eq(in.at, 0, "a refused call read its input");
    expect_context_works();
}

/* The caller's scratch stays set: the sort takes its scratch from there. */
Test(sort_stream, keeps_the_callers_scratch)
{
    enum { N = 30000 };
    size_t need = 0;
    cl_mem probe = skt_buf_new(4 * N);
    cr_assert_eq(sk_context_scratch_query_begin(skt_ctx), SK_OK);
    cr_assert_eq(sk_sort_keys(skt_ctx, SK_UINT32, probe, N, SK_ASCENDING), SK_OK);
    cr_assert_eq(sk_context_scratch_query_end(skt_ctx, &need), SK_OK);
    cl_mem scratch = skt_buf_new(need);
    cr_assert_eq(sk_context_set_scratch(skt_ctx, scratch, need), SK_OK);
    sort_case c = {SK_UINT32, 0, SK_DESCENDING, FEW, ONE_RUN, 0, 0, 1, N};
    check_case(&c);
    /* still set: a sort needing more than it holds is refused */
    cl_mem twice = skt_buf_new(8 * N);
    cr_assert_eq(sk_sort_keys(skt_ctx, SK_UINT32, twice, 2 * N, SK_ASCENDING), SK_E_SIZE);
    cr_assert_eq(sk_context_set_scratch(skt_ctx, NULL, 0), SK_OK);
    skt_buf_free(twice);
    skt_buf_free(scratch);
    skt_buf_free(probe);
}
