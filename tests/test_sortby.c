/*
 * test_sortby.c - the comparator sort (sk_sort_by_less, sk_sort_pairs_by_less
 * and their host forms) and the sort by fields (sk_sort_by_fields,
 * sk_sort_pairs_by_fields and theirs), against the stable serial sort of
 * tests/ref/ref_sortby.c with a C comparator that says the same as the
 * OpenCL C one.
 *
 * Three element types, each with one program per shape (chosen by the
 * case, never by a random draw): uint32 in descending order (keys only), a
 * struct (int major, float minor) ordered by both fields with many ties
 * (pairs with 8-byte values), fixed-width strings compared as unsigned
 * bytes (pairs with 12-byte values). Values carry the element's input
 * position, so the values after a sort spell out the permutation: every
 * check compares it with the reference's, which pins stability. Sizes run
 * from 0 over the CPU shape's runs (16) and the default tiles (4096 keys
 * of 4 bytes on the GPU shape) and the CPU serial threshold (32768) to
 * 10^5; inputs random, all equal, sorted, reversed and few unique. Every
 * buffer has poisoned elements past n, which must stay so. The sort by
 * fields sorts the same struct by its two fields (ascending, and major
 * descending) against the same reference.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref_sortby.h"
#include "skt_common.h"

TestSuite(sortby, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(sortby_errors, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

#define GUARD 4 /* elements after n that must stay poisoned */
#define COUNT_OF(x) (sizeof(x) / sizeof((x)[0]))

/* ---- the element types, their orders on the host and on the device ------------ */

typedef struct mm {
    int32_t major;
    float minor;
} mm;

#define NAME_BYTES 12
typedef struct name12 {
    unsigned char c[NAME_BYTES];
} name12;

static bool less_uint_desc(const void *a, const void *b)
{
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return x > y;
}

static bool less_mm(const void *a, const void *b)
{
    mm x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return x.major < y.major || (x.major == y.major && x.minor < y.minor);
}

static bool less_mm_major_desc(const void *a, const void *b)
{
    mm x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return x.major > y.major || (x.major == y.major && x.minor < y.minor);
}

static bool less_name(const void *a, const void *b) { return memcmp(a, b, NAME_BYTES) < 0; }

static const char MM_PREAMBLE[] = "typedef struct skt_mm {\n    int major;\n    float minor;\n"
                                  "} skt_mm;\n";

static const sk_comparator CMP_UINT_DESC = {"uint", 4, "a > b", NULL};
static const sk_comparator CMP_MM = {
    "skt_mm", sizeof(mm), "a.major < b.major || (a.major == b.major && a.minor < b.minor)",
    MM_PREAMBLE};
static const sk_comparator CMP_NAME = {
    "skt_name12", NAME_BYTES, "skt_name_less(a, b)",
    "typedef struct skt_name12 {\n    uchar c[12];\n} skt_name12;\n"
    "bool skt_name_less(skt_name12 a, skt_name12 b)\n{\n"
    "    for (int i = 0; i < 12; i++)\n"
    "        if (a.c[i] != b.c[i]) return a.c[i] < b.c[i];\n"
    "    return false;\n}\n"};

/* ---- inputs ------------------------------------------------------------------- */

typedef enum input_kind {
    IN_RANDOM, IN_EQUAL, IN_SORTED, IN_REVERSED, IN_FEW_UNIQUE, IN_COUNT
} input_kind;

static const char *const INPUT_NAMES[IN_COUNT] = {"random", "all equal", "sorted", "reversed",
                                                  "few unique"};

/* A random element of each type: `few` picks from three only. uint32 full
 * range; mm from 50 majors and 7 minors (ties on both); names of 0 to 12
 * bytes from 'a', 'b' and 0xE9 (above 0x7F: unsigned bytes), zero-padded. */
static void make_uint(void *e, bool few)
{
    static const uint32_t pool[3] = {7, 0x80000000u, 0xffffffffu};
    uint32_t v = few ? pool[skt_rand_below(3)] : (uint32_t)skt_rand();
    memcpy(e, &v, 4);
}

static void make_mm(void *e, bool few)
{
    static const float minors[7] = {-2.5f, -1.0f, 0.5f, 1.0f, 3.25f, 1e6f, -1e-3f};
    mm v = {(int32_t)skt_rand_below(few ? 2 : 50) - 25, minors[skt_rand_below(few ? 2 : 7)]};
    memcpy(e, &v, sizeof v);
}

static void make_name(void *e, bool few)
{
    static const unsigned char letters[3] = {'a', 'b', 0xE9};
    name12 v;
    memset(&v, 0, sizeof v);
    size_t len = few ? 1 + skt_rand_below(2) : skt_rand_below(NAME_BYTES + 1);
    for (size_t i = 0; i < len; i++) v.c[i] = letters[skt_rand_below(few ? 2 : 3)];
    memcpy(e, &v, sizeof v);
}

typedef struct sortby_kind {
    const char *name;
    const sk_comparator *cmp;
    skt_ref_less_fn less;
    size_t value_size;                      /* 0: keys only */
    void (*make)(void *e, bool few);
} sortby_kind;

static const sortby_kind KINDS[] = {
    {"uint32 descending", &CMP_UINT_DESC, less_uint_desc, 0, make_uint},
    {"(int major, float minor)", &CMP_MM, less_mm, 8, make_mm},
    {"char[12] strings", &CMP_NAME, less_name, 12, make_name},
};

/* n elements of `size` bytes shaped as `in` says (sorted and reversed by
 * the reference, reversed being its exact reverse, ties included). */
static void make_input(const sortby_kind *k, input_kind in, void *elems, size_t n)
{
    size_t es = k->cmp->size;
    unsigned char *e = elems;
    for (size_t i = 0; i < n; i++) {
        if (in == IN_EQUAL && i > 0)
            memcpy(e + i * es, e, es);
        else
            k->make(e + i * es, in == IN_FEW_UNIQUE);
    }
    if (in != IN_SORTED && in != IN_REVERSED) return;
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    unsigned char *tmp = skt_malloc((n + 1) * es);
    skt_ref_stable_sort_perm(e, n, es, k->less, perm);
    for (size_t i = 0; i < n; i++)
        memcpy(tmp + (in == IN_SORTED ? i : n - 1 - i) * es, e + perm[i] * es, es);
    memcpy(e, tmp, n * es);
    skt_free_all(perm, tmp, NULL);
}

/* Value i: its input position in the first 8 bytes, then bytes of ~i. */
static void put_positions(void *vals, size_t vs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char v[16];
        uint64_t pos = i, neg = ~(uint64_t)i;
        memcpy(v, &pos, 8);
        memcpy(v + 8, &neg, 8);
        memcpy((unsigned char *)vals + i * vs, v, vs);
    }
}

static void gather(const void *src, size_t size, const size_t *perm, size_t n, void *dst)
{
    for (size_t i = 0; i < n; i++)
        memcpy((unsigned char *)dst + i * size, (const unsigned char *)src + perm[i] * size,
               size);
}

/* ---- one checked sort ------------------------------------------------------------- */

typedef struct sort_case {
    const sortby_kind *k;
    size_t n;
    input_kind in;
    bool host;
    const char *cfg;
} sort_case;

static void expect_same(const unsigned char *got, const unsigned char *want, size_t n,
                        size_t size, const char *which, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(got + i * size, want + i * size, size) != 0)
            cr_assert_fail("%s: %s %zu differs from the stable reference sort (%s) [seed %llu]",
                           what, which, i,
                           strcmp(which, "key") == 0 ? "order" : "stability or permutation",
                           (unsigned long long)skt_seed());
}

/* Sorts as c says through the cl_mem (or host) form; the keys (and values)
 * must be the reference's, the guards past n poisoned. */
static void check_sort(const sort_case *c)
{
    const sortby_kind *k = c->k;
    size_t n = c->n, es = k->cmp->size, vs = k->value_size ? k->value_size : 4;
    const char *what = skt_fmt("%s, n=%zu, %s, %s%s", k->name, n, INPUT_NAMES[c->in], c->cfg,
                               c->host ? ", host form" : "");
    unsigned char *keys = skt_malloc((n + GUARD) * es), *vals = skt_malloc((n + GUARD) * vs);
    unsigned char *want = skt_malloc((n + 1) * es), *wantv = skt_malloc((n + 1) * vs);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    make_input(k, c->in, keys, n);
    put_positions(vals, vs, n);
    skt_ref_stable_sort_perm(keys, n, es, k->less, perm);
    gather(keys, es, perm, n, want);
    gather(vals, vs, perm, n, wantv);
    skt_poison(keys + n * es, GUARD * es);
    skt_poison(vals + n * vs, GUARD * vs);

    sk_status st;
    if (c->host) {
        st = k->value_size ? sk_sort_pairs_by_less_host(skt_ctx, k->cmp, vs, keys, vals, n)
                           : sk_sort_by_less_host(skt_ctx, k->cmp, keys, n);
    } else {
        cl_mem km = skt_buf_guarded(keys, n, es, GUARD), vm = skt_buf_guarded(vals, n, vs, GUARD);
        st = k->value_size ? sk_sort_pairs_by_less(skt_ctx, k->cmp, vs, km, vm, n)
                           : sk_sort_by_less(skt_ctx, k->cmp, km, n);
        skt_buf_download(km, 0, keys, (n + GUARD) * es);
        skt_buf_download(vm, 0, vals, (n + GUARD) * vs);
        skt_buf_free(km);
        skt_buf_free(vm);
    }
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    expect_same(keys, want, n, es, "key", what);
    if (k->value_size) expect_same(vals, wantv, n, vs, "value", what);
    cr_assert_eq(skt_find_unpoisoned(keys + n * es, GUARD * es), (size_t)-1,
                 "%s: keys written past n [seed %llu]", what, (unsigned long long)skt_seed());
    cr_assert_eq(skt_find_unpoisoned(vals + n * vs, GUARD * vs), (size_t)-1,
                 "%s: values written past n [seed %llu]", what, (unsigned long long)skt_seed());
    skt_free_all(keys, vals, want, wantv, perm, NULL);
}

/* 0, 1, 2, around the CPU shape's runs (16), a few hundred, around the GPU
 * shape's default tiles (4096 keys of 4 bytes; 2048 of 12 with values),
 * the CPU shape's serial threshold (32768: chunks above it) and 10^5. */
static const size_t SIZES[] = {0,    1,    2,    15,    16,    17,    100,   257,  2047,
                               2048, 4095, 4096, 4097,  12289, 32767, 32769, 100003};

/* ---- the comparator sort ------------------------------------------------------------- */

typedef struct kind_shape {
    int kind;
    sk_shape shape;
} kind_shape;

ParameterizedTestParameters(sortby, should_match_the_stable_serial_sort)
{
    static kind_shape ps[COUNT_OF(KINDS) * 2];
    for (size_t k = 0; k < COUNT_OF(KINDS); k++)
        for (int s = 0; s < 2; s++)
            ps[2 * k + (size_t)s] = (kind_shape){(int)k, s ? SK_SHAPE_GPU : SK_SHAPE_CPU};
    return cr_make_param_array(kind_shape, ps, COUNT_OF(ps));
}

/* Every size; below 1000 every input, above one input each (in turn), the
 * host form on every third size. */
ParameterizedTest(kind_shape *p, sortby, should_match_the_stable_serial_sort)
{
    const sortby_kind *k = &KINDS[p->kind];
    skt_force_shape(p->shape);
    skt_tiles_default();
    for (size_t s = 0; s < COUNT_OF(SIZES); s++) {
        size_t n = SIZES[s];
        unsigned inputs = n < 1000 ? IN_COUNT : 1;
        for (unsigned i = 0; i < inputs; i++) {
            sort_case c = {k, n, (input_kind)((s + i) % IN_COUNT), s % 3 == 2,
                           skt_shape_name(p->shape)};
            check_sort(&c);
        }
    }
    /* GPU shape: the merge passes' splits by a partition launch too (these
     * sizes' passes have few parts: by default each tile finds its own) */
    if (p->shape == SK_SHAPE_GPU) {
        static const size_t sizes[] = {5000, 50001};
        skt_merge_partition_launch(true);
        for (size_t s = 0; s < COUNT_OF(sizes); s++) {
            sort_case c = {k, sizes[s], (input_kind)(s % IN_COUNT), false,
                           "gpu, partition launch"};
            check_sort(&c);
        }
    }
    /* CPU shape: other chunk counts build nothing new; 3 chunks take two
     * passes (an even count: the keys go to scratch first), 6 three, and
     * chunks from 5 keys on */
    for (long chunks = 3; p->shape == SK_SHAPE_CPU && chunks <= 6; chunks += 3) {
        static const size_t sizes[] = {5, 1000, 50001};
        skt_tiles_set(0, 0, chunks, 1);
        for (size_t s = 0; s < COUNT_OF(sizes); s++) {
            sort_case c = {k, sizes[s], (input_kind)(s % IN_COUNT), false,
                           skt_fmt("cpu, %ld chunks", chunks)};
            check_sort(&c);
        }
    }
}

/* ---- the sort by fields -------------------------------------------------------------- */

static const sk_sort_field MM_FIELDS_ASC[] = {{"x.major", SK_INT32, SK_ASCENDING},
                                              {"x.minor", SK_FLOAT32, SK_ASCENDING}};
static const sk_sort_field MM_FIELDS_MAJOR_DESC[] = {{"x.major", SK_INT32, SK_DESCENDING},
                                                     {"x.minor", SK_FLOAT32, SK_ASCENDING}};

/* The mm structs of `in` sorted by fields (pairs: with 4-byte positions)
 * against the reference with `less`. */
static void check_fields(const sk_sort_field *fields, skt_ref_less_fn less, size_t n,
                         input_kind in, bool pairs, bool host, const char *cfg)
{
    sortby_kind k = {"mm by fields", &CMP_MM, less, 0, make_mm};
    sk_field_order by = {"skt_mm", sizeof(mm), MM_PREAMBLE, fields, 2};
    const char *what = skt_fmt("%s, %s, n=%zu, %s, %s%s", k.name,
                               fields == MM_FIELDS_ASC ? "ascending" : "major descending", n,
                               INPUT_NAMES[in], cfg, host ? ", host form" : "");
    mm *e = skt_malloc((n + GUARD) * sizeof *e), *want = skt_malloc((n + 1) * sizeof *want);
    uint32_t *v = skt_malloc((n + GUARD) * sizeof *v), *wantv = skt_malloc((n + 1) * sizeof *v);
    size_t *perm = skt_malloc((n + 1) * sizeof *perm);
    make_input(&k, in, e, n);
    put_positions(v, 4, n);
    skt_ref_stable_sort_perm(e, n, sizeof *e, less, perm);
    gather(e, sizeof *e, perm, n, want);
    gather(v, 4, perm, n, wantv);
    skt_poison(e + n, GUARD * sizeof *e);
    skt_poison(v + n, GUARD * sizeof *v);
    sk_status st;
    if (host) {
        st = pairs ? sk_sort_pairs_by_fields_host(skt_ctx, &by, 4, e, v, n)
                   : sk_sort_by_fields_host(skt_ctx, &by, e, n);
    } else {
        cl_mem em = skt_buf_guarded(e, n, sizeof *e, GUARD), vm = skt_buf_guarded(v, n, 4, GUARD);
        st = pairs ? sk_sort_pairs_by_fields(skt_ctx, &by, 4, em, vm, n)
                   : sk_sort_by_fields(skt_ctx, &by, em, n);
        skt_buf_download(em, 0, e, (n + GUARD) * sizeof *e);
        skt_buf_download(vm, 0, v, (n + GUARD) * sizeof *v);
        skt_buf_free(em);
        skt_buf_free(vm);
    }
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    expect_same((unsigned char *)e, (unsigned char *)want, n, sizeof *e, "key", what);
    if (pairs) expect_same((unsigned char *)v, (unsigned char *)wantv, n, 4, "value", what);
    cr_assert_eq(skt_find_unpoisoned(e + n, GUARD * sizeof *e), (size_t)-1,
                 "%s: structs written past n [seed %llu]", what, (unsigned long long)skt_seed());
    cr_assert_eq(skt_find_unpoisoned(v + n, GUARD * sizeof *v), (size_t)-1,
                 "%s: values written past n [seed %llu]", what, (unsigned long long)skt_seed());
    skt_free_all(e, want, v, wantv, perm, NULL);
}

ParameterizedTestParameters(sortby, fields_should_match_the_stable_serial_sort)
{
    static sk_shape shapes[] = {SK_SHAPE_CPU, SK_SHAPE_GPU};
    return cr_make_param_array(sk_shape, shapes, COUNT_OF(shapes));
}

/* Both field orders, keys and pairs, every input, on sizes that take one
 * chunk or tile and several. */
ParameterizedTest(sk_shape *shape, sortby, fields_should_match_the_stable_serial_sort)
{
    static const size_t sizes[] = {0, 1, 2, 17, 1000, 4097, 40000};
    skt_force_shape(*shape);
    skt_tiles_default();
    for (size_t s = 0; s < COUNT_OF(sizes); s++)
        for (unsigned i = 0; i < IN_COUNT; i++) {
            bool major_desc = (s + i) % 2 == 1, pairs = i % 2 == 0;
            check_fields(major_desc ? MM_FIELDS_MAJOR_DESC : MM_FIELDS_ASC,
                         major_desc ? less_mm_major_desc : less_mm, sizes[s],
                         (input_kind)((s + i) % IN_COUNT), pairs, s % 2 == 1,
                         skt_shape_name(*shape));
        }
}

/* ---- bad arguments ------------------------------------------------------------------ */

/* The first 64 bytes of m must still be poison. */
static void expect_untouched(cl_mem m, const char *what)
{
    unsigned char got[64];
    skt_buf_download(m, 0, got, sizeof got);
    cr_assert_eq(skt_find_unpoisoned(got, sizeof got), (size_t)-1, "%s was written", what);
}

Test(sortby_errors, bad_arguments_should_be_refused_and_leave_buffers_untouched)
{
    cl_mem k = skt_buf_new(64), v = skt_buf_new(64);
    skt_buf_poison(k, 64);
    skt_buf_poison(v, 64);
    skt_finish();
    sk_status bad = SK_E_INVALID_ARG;
    sk_comparator no_less = {"uint", 4, NULL, NULL}, no_type = {NULL, 4, "a < b", NULL};
    sk_comparator empty_less = {"uint", 4, "", NULL}, no_size = {"uint", 0, "a < b", NULL};
    SKT_EXPECT_STATUS(sk_sort_by_less(NULL, &CMP_UINT_DESC, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, NULL, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &no_less, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &no_type, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &empty_less, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &no_size, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &CMP_UINT_DESC, NULL, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &CMP_UINT_DESC, k, 17), bad); /* 68 bytes */
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &CMP_UINT_DESC, k, SIZE_MAX / 2), SK_E_SIZE);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_less(skt_ctx, &CMP_UINT_DESC, 0, k, v, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_less(skt_ctx, &CMP_UINT_DESC, 4, k, NULL, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_less(skt_ctx, &CMP_UINT_DESC, 4, k, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_less(skt_ctx, &CMP_UINT_DESC, 12, k, v, 8), bad);
    uint32_t h[4] = {1, 2, 3, 4};
    SKT_EXPECT_STATUS(sk_sort_by_less_host(skt_ctx, &CMP_UINT_DESC, NULL, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_less_host(skt_ctx, &CMP_UINT_DESC, 4, h, h, 4), bad);
    SKT_OK(sk_sort_by_less_host(skt_ctx, &CMP_UINT_DESC, NULL, 0));

    sk_sort_field f_ok = {"x", SK_UINT32, SK_ASCENDING}, f_type = {"x", (sk_type)99, SK_ASCENDING};
    sk_sort_field f_order = {"x", SK_UINT32, (sk_sort_order)2};
    sk_sort_field f_key = {"", SK_UINT32, SK_ASCENDING};
    const sk_field_order by_ok = {"uint", 4, NULL, &f_ok, 1};
    const sk_field_order rows[] = {{NULL, 4, NULL, &f_ok, 1},  {"uint", 0, NULL, &f_ok, 1},
                                   {"uint", 4, NULL, NULL, 1}, {"uint", 4, NULL, &f_ok, 0},
                                   {"uint", 4, NULL, &f_type, 1}, {"uint", 4, NULL, &f_order, 1},
                                   {"uint", 4, NULL, &f_key, 1}};
    SKT_EXPECT_STATUS(sk_sort_by_fields(NULL, &by_ok, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_fields(skt_ctx, NULL, k, 4), bad);
    for (size_t i = 0; i < COUNT_OF(rows); i++)
        cr_assert_eq(sk_sort_by_fields(skt_ctx, &rows[i], k, 4), bad, "field order row %zu", i);
    SKT_EXPECT_STATUS(sk_sort_by_fields(skt_ctx, &by_ok, k, 17), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_fields(skt_ctx, &by_ok, 0, k, v, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_fields(skt_ctx, &by_ok, 4, k, k, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_by_fields_host(skt_ctx, &by_ok, NULL, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_fields_host(skt_ctx, &by_ok, 4, h, NULL, 4), bad);
    SKT_EXPECT_STATUS(sk_sort_pairs_by_fields_host(skt_ctx, &by_ok, 4, h, h, 4), bad);
    SKT_OK(sk_sort_by_fields_host(skt_ctx, &by_ok, NULL, 0));
    expect_untouched(k, "keys");
    expect_untouched(v, "values");
    skt_buf_free(k);
    skt_buf_free(v);
}

/* GPU shape: an element of the device's whole local memory, two of which
 * a tile needs at least, is refused before anything runs. */
Test(sortby_errors, an_element_past_local_memory_should_be_unsupported_on_the_gpu_shape)
{
    cl_ulong local = 0;
    cr_assert_eq(clGetDeviceInfo(sk_context_cl_device(skt_ctx), CL_DEVICE_LOCAL_MEM_SIZE,
                                 sizeof local, &local, NULL), CL_SUCCESS);
    if (local > ((cl_ulong)1 << 26))
        cr_skip_test("local memory of %llu bytes", (unsigned long long)local);
    size_t es = (size_t)local;
    sk_comparator big = {"skt_big", es, "a.b[0] < b.b[0]",
                         skt_fmt("typedef struct skt_big { uchar b[%zu]; } skt_big;\n", es)};
    cl_mem k = skt_buf_new(2 * es);
    skt_buf_poison(k, 64);
    skt_finish();
    skt_force_shape(SK_SHAPE_GPU);
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &big, k, 2), SK_E_UNSUPPORTED);
    expect_untouched(k, "keys");
    skt_buf_free(k);
}

/* A malformed less or key expression, or a size that is not the type's:
 * SK_E_BUILD with the compiler's log kept, the keys untouched. (Programs
 * that fail to build cost a compile each: one per form.) */
Test(sortby_errors, malformed_code_should_give_the_build_log_and_leave_keys_untouched)
{
    cl_mem k = skt_buf_new(64);
    skt_buf_poison(k, 64);
    skt_finish();
    sk_comparator broken = {"uint", 4, "a <<< b", NULL};
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &broken, k, 16), SK_E_BUILD);
    const char *log = sk_context_build_log(skt_ctx);
    cr_assert(log && *log, "no build log after a malformed less");
    sk_comparator wrong_size = {"uint", 8, "a < b", NULL};
    SKT_EXPECT_STATUS(sk_sort_by_less(skt_ctx, &wrong_size, k, 8), SK_E_BUILD);
    sk_sort_field f = {"x.nosuchfield", SK_UINT32, SK_ASCENDING};
    sk_field_order by = {"uint", 4, NULL, &f, 1};
    SKT_EXPECT_STATUS(sk_sort_by_fields(skt_ctx, &by, k, 16), SK_E_BUILD);
    log = sk_context_build_log(skt_ctx);
    cr_assert(log && *log, "no build log after a malformed field key");
    expect_untouched(k, "keys");
    skt_buf_free(k);
}
