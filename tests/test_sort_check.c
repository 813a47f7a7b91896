/*
 * test_sort_check.c - the checks behind `radixsort --check` and merge's
 * (apps/sort_check.c), split over several parts (threads) whatever the host:
 * sort_check_split() makes arrays of a few thousand keys split into 2 to 7
 * parts, so that a pair out of order planted exactly at a part boundary, at
 * the last key, at the first, or at two places at once is reported as the
 * first pair (the lowest index), as a one-part check and a plain loop over
 * sort_key_at() report it; for every key type, both orders and a --bits
 * range. Chunks fed to sort_check_order_next() report the same pairs,
 * counted over all chunks. The fingerprint is the same for any split and
 * any permutation, and one changed key or value changes it. Random data
 * from the printed seed (SKT_SEED=<seed> reproduces a run).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk_rng.h"
#include "skt_common.h"
#include "sort_check.h"

TestSuite(sort_check, .init = skt_setup, .timeout = 300);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const ak_dtype TYPES[] = {AK_UINT8,  AK_UINT32, AK_INT32, AK_FLOAT32,
                                 AK_UINT64, AK_INT64,  AK_FLOAT64};
static const unsigned PARTS[] = {2, 3, 4, 7};

/* Arrays of at least this many keys split (the default is 2^20). */
#define SPLIT_AT 1000

static void split(unsigned parts)
{
    sort_check_split(parts, SPLIT_AT);
}

/* The start of part k of t of [0, n), as sort_check.h states it. */
static size_t part_start(size_t n, unsigned t, unsigned k)
{
    return n * k / t; /* n is small here */
}

/* ---- keys from order keys ------------------------------------------------------- */

static unsigned bits_of(ak_dtype t)
{
    return 8 * (unsigned)ak_dtype_size(t);
}

static uint64_t all_of(unsigned bits)
{
    return bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

/* The raw bits whose order key (whole, before --bits) is k: the inverse of
 * the radix sort's transform. */
static uint64_t raw_of(ak_dtype t, uint64_t k)
{
    unsigned bits = bits_of(t);
    uint64_t sign = (uint64_t)1 << (bits - 1), all = all_of(bits);
    if (ak_dtype_is_float(t)) return (k & sign) ? k ^ sign : ~k & all;
    if (ak_dtype_is_signed(t)) return k ^ sign;
    return k;
}

static void store(ak_array *a, size_t i, uint64_t raw)
{
    size_t size = ak_dtype_size(a->type);
    memcpy((unsigned char *)a->data + i * size, &raw, size); /* little-endian host */
}

static uint64_t load(const ak_array *a, size_t i)
{
    uint64_t v = 0;
    size_t size = ak_dtype_size(a->type);
    memcpy(&v, (const unsigned char *)a->data + i * size, size);
    return v;
}

/* The key whose order key under `b` is k, its other bits random. */
static uint64_t key_of(ak_dtype t, sort_key_bits b, uint64_t k)
{
    unsigned w = b.end - b.begin;
    uint64_t field = all_of(w) << b.begin;
    uint64_t whole = (k << b.begin & field) | (skt_rand() & ~field & all_of(bits_of(t)));
    return raw_of(t, whole);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* n keys of type t sorted by `b` in the order asked, their order keys in
 * [1, max - 1] (so that 0 and max are strictly before and after every
 * one), with runs of equal ones. */
static ak_array sorted_keys(ak_dtype t, size_t n, sort_key_bits b, int descending)
{
    ak_array a = {t, AK_FORMAT_RAW, n, malloc(n * ak_dtype_size(t) + 1)};
    uint64_t *k = malloc(n * sizeof *k + 1), max = all_of(b.end - b.begin);
    for (size_t i = 0; i < n; i++)
        k[i] = i > 0 && skt_rand_below(4) == 0 ? k[i - 1] : 1 + skt_rand_below(max - 1);
    qsort(k, n, sizeof *k, cmp_u64);
    for (size_t i = 0; i < n; i++)
        store(&a, descending ? n - 1 - i : i, key_of(t, b, k[i]));
    free(k);
    return a;
}

/* Key i made strictly first (or last) in the order: before or after every
 * other key. */
static void plant(ak_array *a, size_t i, sort_key_bits b, int descending, int last)
{
    uint64_t max = all_of(b.end - b.begin);
    store(a, i, key_of(a->type, b, (last != descending) ? max : 0));
}

/* The first i with keys i - 1 and i out of order, else n: the plain loop. */
static size_t first_by_loop(const ak_array *a, int descending, sort_key_bits b)
{
    for (size_t i = 1; i < a->n; i++) {
        uint64_t x = sort_key_at(a, i - 1, b), y = sort_key_at(a, i, b);
        if (descending ? x < y : x > y) return i;
    }
    return a->n;
}

/* ---- expectations --------------------------------------------------------------- */

typedef struct kase {
    ak_dtype t;
    sort_key_bits b;
    int descending;
    unsigned parts;
} kase;

static const char *describe(const kase *c, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s %s bits %u:%u, %u parts", ak_dtype_name(c->t),
             c->descending ? "descending" : "ascending", c->b.begin, c->b.end, c->parts);
    return buf;
}

/* The check of a passes, or fails naming keys at - 1 and at; so does a
 * one-part check and the plain loop. */
static void expect_first(const kase *c, const ak_array *a, size_t at, const char *what)
{
    char d[128], want[128];
    describe(c, d, sizeof d);
    size_t loop = first_by_loop(a, c->descending, c->b);
    cr_assert_eq(loop, at, "%s, %s: the plain loop finds %zu, want %zu [seed %llu]", d, what,
                 loop, at, (unsigned long long)skt_seed());
    if (at < a->n) snprintf(want, sizeof want, "p: keys %zu and %zu are out of order", at - 1, at);
    for (int one = 0; one < 2; one++) {
        split(one ? 1 : c->parts);
        ak_err e;
        memset(&e, 0, sizeof e);
        int rc = sort_check_order(a, c->descending, c->b, "p: ", &e);
        if (at == a->n)
            cr_assert_eq(rc, 0, "%s, %s%s: failed: %s [seed %llu]", d, what,
                         one ? " (one part)" : "", e.msg, (unsigned long long)skt_seed());
        else
            cr_assert(rc == -1 && strcmp(e.msg, want) == 0,
                      "%s, %s%s: got %d \"%s\", want \"%s\" [seed %llu]", d, what,
                      one ? " (one part)" : "", rc, e.msg, want, (unsigned long long)skt_seed());
    }
    split(0);
}

/* The boundaries of c's parts of n keys, the last key, the first and the
 * key before a boundary, one at a time and two at once. */
static void check_plants(const kase *c, size_t n)
{
    ak_array a = sorted_keys(c->t, n, c->b, c->descending);
    size_t bytes = n * ak_dtype_size(c->t);
    unsigned char *orig = malloc(bytes);
    memcpy(orig, a.data, bytes);
    expect_first(c, &a, n, "sorted");
    for (unsigned k = 1; k < c->parts; k++) {
        size_t at = part_start(n, c->parts, k);
        char what[96];
        snprintf(what, sizeof what, "key %zu (part %u's first) made first", at, k);
        plant(&a, at, c->b, c->descending, 0);
        expect_first(c, &a, at, what);
        memcpy(a.data, orig, bytes);
        snprintf(what, sizeof what, "key %zu (part %u's last) made last", at - 1, k - 1);
        plant(&a, at - 1, c->b, c->descending, 1);
        expect_first(c, &a, at, what);
        memcpy(a.data, orig, bytes);
        snprintf(what, sizeof what, "key %zu (before part %u's last) made last", at - 2, k - 1);
        plant(&a, at - 2, c->b, c->descending, 1);
        expect_first(c, &a, at - 1, what);
        memcpy(a.data, orig, bytes);
    }
    plant(&a, n - 1, c->b, c->descending, 0);
    expect_first(c, &a, n - 1, "the last key made first");
    plant(&a, 0, c->b, c->descending, 1);
    expect_first(c, &a, 1, "the first key made last too");
    memcpy(a.data, orig, bytes);
    /* Two at once: the lower is reported, though a later part finds its own. */
    size_t hi = part_start(n, c->parts, c->parts - 1), lo = 1 + skt_rand_below(hi - 1);
    plant(&a, hi, c->b, c->descending, 0);
    plant(&a, lo, c->b, c->descending, 0);
    expect_first(c, &a, lo, "two keys made first");
    free(orig);
    ak_array_free(&a);
}

Test(sort_check, should_report_the_first_pair_at_part_boundaries_and_the_last_key)
{
    for (size_t ti = 0; ti < COUNT(TYPES); ti++)
        for (int desc = 0; desc < 2; desc++)
            for (size_t pi = 0; pi < COUNT(PARTS); pi++) {
                kase c = {TYPES[ti], sort_whole_key(TYPES[ti]), desc, PARTS[pi]};
                check_plants(&c, SPLIT_AT + skt_rand_below(20000));
            }
}

Test(sort_check, should_order_by_the_bits_asked_only)
{
    static const struct {
        ak_dtype t;
        sort_key_bits b;
    } cases[] = {{AK_UINT32, {8, 24}}, {AK_INT32, {0, 31}}, {AK_FLOAT32, {20, 32}},
                 {AK_UINT64, {3, 61}}, {AK_INT64, {32, 64}}, {AK_FLOAT64, {0, 2}},
                 {AK_UINT8, {2, 5}}};
    for (size_t i = 0; i < COUNT(cases); i++)
        for (int desc = 0; desc < 2; desc++) {
            kase c = {cases[i].t, cases[i].b, desc, 2 + (unsigned)skt_rand_below(6)};
            check_plants(&c, SPLIT_AT + skt_rand_below(20000));
        }
}

Test(sort_check, should_match_the_plain_loop_on_random_keys)
{
    /* Keys in random order, and sorted ones with random keys replaced by
     * random ones (equal keys among them: a pair of those is in order). */
    for (int round = 0; round < 200; round++) {
        ak_dtype t = TYPES[skt_rand_below(COUNT(TYPES))];
        kase c = {t, sort_whole_key(t), (int)skt_rand_below(2), 1 + (unsigned)skt_rand_below(7)};
        size_t n = skt_rand_below(3) == 0 ? skt_rand_below(40) : SPLIT_AT + skt_rand_below(9000);
        ak_array a = sorted_keys(t, n ? n : 1, c.b, c.descending);
        a.n = n;
        size_t changes = round % 2 ? n : skt_rand_below(3);
        for (size_t k = 0; k < changes && n; k++)
            store(&a, skt_rand_below(n), load(&a, skt_rand_below(n)));
        expect_first(&c, &a, first_by_loop(&a, c.descending, c.b), "random");
        ak_array_free(&a);
    }
}

/* ---- chunks ---------------------------------------------------------------------- */

/* The keys fed in random chunks, one of them starting at key `cut`: the
 * first pair out of order, counted over all chunks, in *e. @return -1, or
 * 0 when none. */
static int chunked_check(const ak_array *a, int descending, sort_key_bits b, size_t cut,
                         ak_err *e)
{
    sort_order_check c = sort_check_order_start(descending, b, "p: ");
    size_t size = ak_dtype_size(a->type);
    for (size_t at = 0; at < a->n;) {
        size_t m = skt_rand_below(3) == 0 ? 0 : 1 + skt_rand_below(a->n - at);
        if (at < cut && at + m > cut) m = cut - at;
        ak_array chunk = {a->type, a->format, m, (unsigned char *)a->data + at * size};
        if (sort_check_order_next(&c, &chunk, e) != 0)
            return -1;
        at += m;
    }
    cr_assert_eq(c.seen, a->n);
    return 0;
}

Test(sort_check, should_check_chunks_and_the_pairs_across_them)
{
    split(3);
    for (int round = 0; round < 100; round++) {
        ak_dtype t = TYPES[skt_rand_below(COUNT(TYPES))];
        sort_key_bits b = sort_whole_key(t);
        int desc = (int)skt_rand_below(2);
        size_t n = 2 + skt_rand_below(3 * SPLIT_AT);
        ak_array a = sorted_keys(t, n, b, desc);
        size_t at = 1 + skt_rand_below(n - 1);
        if (round % 4) plant(&a, at, b, desc, 0);
        ak_err e = {""};
        char want[128];
        /* the pair across two chunks, or one within a chunk */
        int rc = chunked_check(&a, desc, b, round % 2 ? at : n, &e);
        if (round % 4 == 0) {
            cr_assert_eq(rc, 0, "sorted %s keys failed in chunks: %s [seed %llu]",
                         ak_dtype_name(t), e.msg, (unsigned long long)skt_seed());
        } else {
            snprintf(want, sizeof want, "p: keys %zu and %zu are out of order", at - 1, at);
            cr_assert(rc == -1);
            cr_assert_str_eq(e.msg, want, "%s keys in chunks [seed %llu]", ak_dtype_name(t),
                             (unsigned long long)skt_seed());
        }
        ak_array_free(&a);
    }
    split(0);
}

/* ---- fingerprints ---------------------------------------------------------------- */

/* The fingerprint as first written: one pair at a time. */
static sort_print print_by_loop(const ak_array *k, const ak_array *v)
{
    sort_print p = {0, 0};
    for (size_t i = 0; i < k->n; i++) {
        uint64_t val = v->data ? load(v, i) : 0;
        uint64_t h = sk_splitmix64_mix(load(k, i) ^ sk_splitmix64_mix(val + 0x9e3779b97f4a7c15ull));
        p.a += h;
        p.b += sk_splitmix64_mix(h + 0x632be59bd9b4e019ull);
    }
    return p;
}

static sort_print print_of(const ak_array *k, const ak_array *v, unsigned parts)
{
    split(parts);
    sort_print p = {0, 0};
    sort_print_add(&p, k, v);
    split(0);
    return p;
}

static void random_fill(ak_array *a)
{
    for (size_t i = 0; i < a->n; i++)
        store(a, i, skt_rand());
}

/* Pairs i and j swapped in both arrays. */
static void swap_pairs(ak_array *k, ak_array *v, size_t i, size_t j)
{
    uint64_t x = load(k, i);
    store(k, i, load(k, j));
    store(k, j, x);
    if (!v->data) return;
    x = load(v, i);
    store(v, i, load(v, j));
    store(v, j, x);
}

Test(sort_check, should_fingerprint_alike_whatever_the_split_and_order_and_see_one_change)
{
    static const ak_dtype VALUE_TYPES[] = {AK_DTYPE_NONE, AK_UINT32, AK_FLOAT64, AK_UINT8};
    for (size_t ti = 0; ti < COUNT(TYPES); ti++)
        for (size_t vi = 0; vi < COUNT(VALUE_TYPES); vi++) {
            size_t n = SPLIT_AT + skt_rand_below(20000);
            ak_dtype vt = VALUE_TYPES[vi];
            ak_array k = {TYPES[ti], AK_FORMAT_RAW, n, malloc(n * 8)};
            ak_array v = {vt == AK_DTYPE_NONE ? AK_UINT32 : vt, AK_FORMAT_RAW,
                          vt == AK_DTYPE_NONE ? 0 : n, vt == AK_DTYPE_NONE ? NULL : malloc(n * 8)};
            random_fill(&k);
            if (v.data) random_fill(&v);
            char d[96];
            snprintf(d, sizeof d, "%zu keys of %s, values of %s", n, ak_dtype_name(k.type),
                     v.data ? ak_dtype_name(v.type) : "none");
            sort_print want = print_by_loop(&k, &v);
            for (size_t pi = 0; pi < COUNT(PARTS); pi++)
                cr_assert(sort_print_equal(print_of(&k, &v, PARTS[pi]), want),
                          "%s: %u parts change the fingerprint [seed %llu]", d, PARTS[pi],
                          (unsigned long long)skt_seed());
            for (size_t s = 0; s < n; s++)
                swap_pairs(&k, &v, s, s + skt_rand_below(n - s));
            cr_assert(sort_print_equal(print_of(&k, &v, 3), want),
                      "%s: a permutation changes the fingerprint [seed %llu]", d,
                      (unsigned long long)skt_seed());
            /* One bit of one key, then of one value, at a part boundary and
             * at the last pair. */
            size_t places[2] = {part_start(n, 4, 2), n - 1};
            for (size_t p = 0; p < 2; p++)
                for (int which = 0; which < 1 + !!v.data; which++) {
                    ak_array *a = which ? &v : &k;
                    size_t at = places[p];
                    uint64_t was = load(a, at);
                    store(a, at, was ^ ((uint64_t)1 << skt_rand_below(bits_of(a->type))));
                    cr_assert_not(sort_print_equal(print_of(&k, &v, 4), want),
                                  "%s: a changed %s %zu kept the fingerprint [seed %llu]", d,
                                  which ? "value" : "key", at, (unsigned long long)skt_seed());
                    store(a, at, was);
                }
            /* A pair of values swapped between two keys (both multisets of
             * keys and of values alike, the pairs not). */
            if (v.data && load(&v, 0) != load(&v, n - 1) && load(&k, 0) != load(&k, n - 1)) {
                uint64_t x = load(&v, 0);
                store(&v, 0, load(&v, n - 1));
                store(&v, n - 1, x);
                cr_assert_not(sort_print_equal(print_of(&k, &v, 2), want),
                              "%s: values swapped between keys kept the fingerprint [seed %llu]",
                              d, (unsigned long long)skt_seed());
            }
            ak_array_free(&k);
            ak_array_free(&v);
        }
}
