/*
 * test_lookback_fallback.c - the GPU shape's look-back when predecessors
 * do not publish: decoupled fallback in the scan, the compaction, the
 * one-sweep sort, the reduction by key (by tiles, on head counts; in one
 * lifted pass, the path of small inputs and of 2^32 elements and more:
 * its one word per tile,
 * and the two words it takes from 2^30 elements, SK__TEST_LB_PARTS) and
 * the segmented scan's own tile.
 *
 * The test hook SK__TEST_LB_WITHHOLD (sk_testing.h) makes tiles 1, 4, 7,
 * ... never publish their totals and tiles 2, 5, 8, ... publish only once
 * their output is written, so every work-group after them finds their
 * words empty, stops waiting after the spin bound ($SCANKIT_LB_SPIN, set
 * small here so that the many fallbacks stay quick) and reduces those
 * tiles itself. Were the fallback missing, the launch would never end;
 * were it wrong, the outputs would differ from the CPU references. Inputs
 * are out of place (a withheld tile's successors read its input).
 *
 * Suite fallback runs on the device's threads as PoCL sets them; suite
 * one_thread runs the same checks and is run by ctest with
 * POCL_MAX_PTHREAD_COUNT=1 (tests/CMakeLists.txt: fewer threads than
 * work-groups in flight, which only finish if no work-group waits for one
 * that cannot run). Both build the same programs: one scan, one
 * compaction, one sort, the reduce-by-key tiles, one lifted reduce-by-key
 * and two segmented-scan programs, in the GPU shape with the hook.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>
#include <string.h>

#include "ref/ref_bykey.h"
#include "ref/ref_compact.h"
#include "ref/ref_segscan.h"
#include "ref/ref_sort.h"
#include "sk_testing.h"
#include "skt_scan.h"

/* The spin bound of these programs: a few polls, then the fallback. */
#define SPIN "16"

/* Small tiles (4 work-items x 2 items): a few thousand elements make
 * hundreds of tiles, and the walk's window (4 tiles) moves back often. */
#define SMALL_TILE 8

/* With `hooks` besides SK__TEST_LB_WITHHOLD. */
static void fallback_begin(unsigned hooks)
{
    cr_assert_eq(setenv("SCANKIT_LB_SPIN", SPIN, 1), 0);
    skt_force_shape(SK_SHAPE_GPU);
    skt_force_scan_path(SK_SCAN_PATH_LOOKBACK);
    SKT_OK(sk__test_set_hooks(skt_ctx, SK__TEST_LB_WITHHOLD | hooks));
}

/* Sizes of many tiles: edges of 1 .. 600 tiles of `tile`, up to max. */
static skt_sizes many_tiles(size_t tile, size_t max)
{
    skt_sizes sizes = {.count = 0};
    static const size_t ks[] = {1, 2, 3, 4, 7, 10, 33, 100, 600};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        skt_sizes_edges(&sizes, tile, ks[i], max);
    skt_sizes_add(&sizes, 4099, max); /* a prime */
    skt_sizes_sort(&sizes);
    return sizes;
}

/* check(n, excl) on small tiles with tiles withheld (and `hooks`) at
 * sizes of many tiles, inclusive and exclusive where `both` (else excl 0),
 * counting the launches: the scan's look-back kernel must run, no other
 * scan kernel. */
static void scan_kernels_with_withheld_tiles(void (*check)(size_t n, int excl), int both,
                                             unsigned hooks)
{
    fallback_begin(hooks);
    skt_tiles_small();
    skt_sizes sizes = many_tiles(SMALL_TILE, 5000);
    skt_launches c = {0};
    skt_count_launches(&c);
    for (size_t i = 0; i < sizes.count; i++)
        for (int excl = 0; excl <= both; excl++) check(sizes.v[i], excl);
    skt_count_launches(NULL);
    cr_assert_gt(c.lookback, 0ul, "the look-back kernel never ran");
    cr_assert_eq(c.other, 0ul, "%lu launches of other scan kernels", c.other);
}

/* ---- scan ------------------------------------------------------------------ */

static void scan_checked(size_t n, int excl)
{
    skt_check_scan(SK_UINT32, SK_OP_ADD, excl, n, 0,
                   "gpu shape, small tiles, look-back, tiles withheld");
}

static void scans_with_withheld_tiles(void) { scan_kernels_with_withheld_tiles(scan_checked, 1, 0); }

/* ---- compaction ------------------------------------------------------------ */

static void select_checked(size_t n)
{
    const char *what = skt_fmt("select_if uint32 x %% 3 == 0, n=%zu, gpu shape, small "
                               "tiles, tiles withheld", n);
    size_t bytes = n * 4;
    uint32_t *src = skt_malloc(bytes + 4), *want = skt_malloc(bytes + 4);
    uint32_t *got = skt_malloc(bytes + 4 * SKT_GUARD);
    unsigned char *keep = skt_malloc(n + 1);
    for (size_t i = 0; i < n; i++) src[i] = (uint32_t)skt_rand();
    skt_ref_pred_mask(SK_UINT32, SKT_PRED_MOD3, src, n, keep);
    size_t kept = skt_ref_select(src, keep, n, 4, want);

    cl_mem s = skt_buf_new(bytes + 4), d = skt_buf_new(bytes + 4 * SKT_GUARD);
    skt_buf_upload(s, 0, src, bytes);
    skt_buf_poison(d, bytes + 4 * SKT_GUARD);
    size_t count = (size_t)-1;
    sk_status st = sk_select_if(skt_ctx, SK_UINT32, skt_ref_pred_text(SK_UINT32, SKT_PRED_MOD3),
                                s, d, &count, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    cr_assert_eq(count, kept, "%s: count %zu, expected %zu [seed %llu]", what, count, kept,
                 (unsigned long long)skt_seed());
    skt_buf_download(d, 0, got, bytes + 4 * SKT_GUARD);
    skt_expect_elems(SK_UINT32, got, want, kept, what);
    size_t bad = skt_find_unpoisoned((unsigned char *)got + kept * 4, 4 * SKT_GUARD);
    cr_assert_eq(bad, (size_t)-1, "%s: wrote past the kept elements [seed %llu]", what,
                 (unsigned long long)skt_seed());
    skt_buf_free(s);
    skt_buf_free(d);
    free(src);
    free(want);
    free(got);
    free(keep);
}

static void selects_with_withheld_tiles(void)
{
    fallback_begin(0);
    skt_tiles_small();
    skt_sizes sizes = many_tiles(SMALL_TILE, 5000);
    for (size_t i = 0; i < sizes.count; i++) select_checked(sizes.v[i]);
}

/* ---- sort ------------------------------------------------------------------ */

/* Keys of `bits` random low bits (the rest zero: fewer passes), sorted in
 * place on the device against the reference sort. */
static void sort_checked(size_t n, unsigned bits, sk_sort_order order)
{
    const char *what = skt_fmt("sort_keys uint32 of %u bits, n=%zu, %s, gpu shape, tiles "
                               "withheld", bits, n, order == SK_DESCENDING ? "descending"
                                                                           : "ascending");
    size_t bytes = n * 4;
    uint32_t *keys = skt_malloc(bytes + 4), *want = skt_malloc(bytes + 4);
    uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    for (size_t i = 0; i < n; i++) keys[i] = (uint32_t)skt_rand() & mask;
    memcpy(want, keys, bytes);
    skt_ref_sort_keys(SK_UINT32, want, n, order == SK_DESCENDING);

    cl_mem k = skt_buf_guarded(keys, n, 4, SKT_GUARD);
    sk_status st = sk_sort_keys(skt_ctx, SK_UINT32, k, n, order);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_expect_guarded(k, want, n, 4, SKT_GUARD, what, "keys");
    skt_buf_free(k);
    free(keys);
    free(want);
}

static void sorts_with_withheld_tiles(void)
{
    fallback_begin(0);
    skt_tiles_default();
    /* 1 to 25 tiles of the default 4096 keys */
    static const size_t ns[] = {2, 4095, 4096, 4097, 20011, 65536, 100003};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        sort_checked(ns[i], 32, SK_ASCENDING);
        sort_checked(ns[i], 11, SK_DESCENDING);
    }
}

/* ---- reduce by key ---------------------------------------------------------- */

/* uint32 keys in runs of random length (a new key of 0 .. 7 with chance
 * 1/3, so equal neighbouring runs merge too), uint32 values: the sums by
 * key in one pass (the segment totals' scan, its tile total in two
 * look-back words) against the references. */
static void reduce_by_key_checked(size_t n, int excl)
{
    (void)excl; /* no exclusive form */
    const char *what = skt_fmt("reduce_by_key uint32 keys, uint32 add, n=%zu, gpu shape, "
                               "small tiles, tiles withheld", n);
    size_t bytes = n * 4, out = bytes + 4 * SKT_GUARD;
    uint32_t *keys = skt_malloc(bytes + 4), *vals = skt_malloc(bytes + 4);
    uint32_t *want_k = skt_malloc(bytes + 4), *want_v = skt_malloc(bytes + 4);
    uint32_t *got_k = skt_malloc(out), *got_v = skt_malloc(out);
    unsigned char *heads = skt_malloc(n + 1);
    uint32_t key = 0;
    for (size_t i = 0; i < n; i++) {
        if (skt_rand() % 3 == 0) key = (uint32_t)(skt_rand() % 8);
        keys[i] = key;
        vals[i] = (uint32_t)skt_rand();
    }
    size_t want = skt_ref_unique_by_key(4, 0, keys, NULL, n, want_k, NULL);
    cr_assert_eq(skt_ref_key_heads(4, keys, n, heads), want, "the references");
    cr_assert_eq(skt_ref_segreduce_heads(SK_UINT32, SK_OP_ADD, vals, heads, n, want_v), want,
                 "the references");

    cl_mem k = skt_buf_new(bytes + 4), v = skt_buf_new(bytes + 4);
    cl_mem ko = skt_buf_new(out), vo = skt_buf_new(out);
    skt_buf_upload(k, 0, keys, bytes);
    skt_buf_upload(v, 0, vals, bytes);
    skt_buf_poison(ko, out);
    skt_buf_poison(vo, out);
    size_t runs = (size_t)-1;
    sk_status st = sk_reduce_by_key(skt_ctx, SK_UINT32, SK_UINT32, SK_OP_ADD, k, v, ko, vo,
                                    &runs, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    cr_assert_eq(runs, want, "%s: %zu runs, expected %zu [seed %llu]", what, runs, want,
                 (unsigned long long)skt_seed());
    skt_buf_download(ko, 0, got_k, out);
    skt_buf_download(vo, 0, got_v, out);
    skt_expect_elems(SK_UINT32, got_k, want_k, want, skt_fmt("%s, keys", what));
    skt_expect_elems(SK_UINT32, got_v, want_v, want, skt_fmt("%s, sums", what));
    cr_assert_eq(skt_find_unpoisoned((unsigned char *)got_k + want * 4, 4 * SKT_GUARD),
                 (size_t)-1, "%s: wrote keys past the runs [seed %llu]", what,
                 (unsigned long long)skt_seed());
    cr_assert_eq(skt_find_unpoisoned((unsigned char *)got_v + want * 4, 4 * SKT_GUARD),
                 (size_t)-1, "%s: wrote sums past the runs [seed %llu]", what,
                 (unsigned long long)skt_seed());
    skt_buf_free(k);
    skt_buf_free(v);
    skt_buf_free(ko);
    skt_buf_free(vo);
    skt_free_all(keys, vals, want_k, want_v, got_k, got_v, heads, NULL);
}

/* By tiles (kernels/bykey_tile.cl): the tiles' totals withheld, so that
 * work-groups reduce their predecessors themselves: the runs' lifted
 * totals where the look-back carries them (join as tuned, at these
 * sizes), else (a join asked for by sk__test_set_bykey_join) the head
 * counts; one work-group's join takes no look-back, the lifted scan's
 * join its own where the scan takes one. */
static void count_tile_launches(const sk_launch_record *rec, void *user)
{
    if (strcmp(rec->kernel, "sk_bykey_tiles") == 0) ++*(unsigned long *)user;
}

static void reductions_by_key_by_tiles_with_withheld_tiles(sk__bykey_join join)
{
    fallback_begin(0);
    skt_tiles_small();
    SKT_OK(sk__test_set_bykey_tiles_from(skt_ctx, 1));
    SKT_OK(sk__test_set_bykey_join(skt_ctx, join));
    skt_sizes sizes = many_tiles(SMALL_TILE, 5000);
    unsigned long tiles = 0;
    SKT_OK(sk_context_set_trace(skt_ctx, count_tile_launches, &tiles));
    for (size_t i = 0; i < sizes.count; i++) reduce_by_key_checked(sizes.v[i], 0);
    SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
    cr_assert_eq(tiles, (unsigned long)sizes.count, "sk_bykey_tiles ran %lu times for %zu calls",
                 tiles, sizes.count);
}

/* By one lifted scan of the elements (the path of 2^32 elements and more,
 * and of small inputs; asked for by sk__test_set_bykey_tiles_from): its
 * one look-back word per
 * tile, or its two (SK__TEST_LB_PARTS: the codec of 2^30 elements and
 * more, at these sizes). */
static void reductions_by_key_lifted_with_withheld_tiles(unsigned hooks)
{
    SKT_OK(sk__test_set_bykey_tiles_from(skt_ctx, SIZE_MAX));
    scan_kernels_with_withheld_tiles(reduce_by_key_checked, 0, hooks);
}

/* ---- segmented scan -------------------------------------------------------- */

/* uint32 values, uint8 head flags (a head with chance 1/8), add, inclusive
 * or exclusive: the segmented scan's own tile of values and head bits in
 * one pass against the reference. */
static void segscan_checked(size_t n, int excl)
{
    const char *what = skt_fmt("segscan %s uint32 add, uint8 flags, n=%zu, gpu shape, small "
                               "tiles, tiles withheld", excl ? "exclusive" : "inclusive", n);
    size_t bytes = n * 4, out = bytes + 4 * SKT_GUARD;
    uint32_t *vals = skt_malloc(bytes + 4), *want = skt_malloc(bytes + 4);
    uint32_t *got = skt_malloc(out);
    unsigned char *heads = skt_malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        vals[i] = (uint32_t)skt_rand();
        heads[i] = skt_rand() % 8 == 0;
    }
    cl_mem v = skt_buf_new(bytes + 4), f = skt_buf_new(n + 1), d = skt_buf_new(out);
    skt_buf_upload(v, 0, vals, bytes);
    skt_buf_upload(f, 0, heads, n);
    heads[0] = 1; /* element 0 starts a segment whatever its flag */
    skt_ref_segscan(SK_UINT32, SK_OP_ADD, excl, vals, want, heads, n);
    skt_buf_poison(d, out);
    sk_segments seg = {.flags = f, .flag_size = 1};
    sk_status st = excl ? sk_segscan_exclusive(skt_ctx, SK_UINT32, SK_OP_ADD, v, &seg, d, n)
                        : sk_segscan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, v, &seg, d, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(d, 0, got, out);
    skt_expect_elems(SK_UINT32, got, want, n, what);
    cr_assert_eq(skt_find_unpoisoned((unsigned char *)got + bytes, 4 * SKT_GUARD), (size_t)-1,
                 "%s: wrote past the output [seed %llu]", what,
                 (unsigned long long)skt_seed());
    skt_buf_free(v);
    skt_buf_free(f);
    skt_buf_free(d);
    skt_free_all(vals, want, got, heads, NULL);
}

static void segscans_with_withheld_tiles(void)
{
    scan_kernels_with_withheld_tiles(segscan_checked, 1, 0);
}

/* ---- suites ---------------------------------------------------------------- */

TestSuite(fallback, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

Test(fallback, scan_should_match_reference_when_tiles_withhold_their_totals)
{
    scans_with_withheld_tiles();
}

Test(fallback, select_should_match_reference_when_tiles_withhold_their_counts)
{
    selects_with_withheld_tiles();
}

Test(fallback, sort_should_match_reference_when_tiles_withhold_their_digit_counts)
{
    sorts_with_withheld_tiles();
}

Test(fallback, reduce_by_key_by_tiles_should_match_reference_when_tiles_withhold_totals)
{
    reductions_by_key_by_tiles_with_withheld_tiles(SK__BYKEY_JOIN_TUNED);
}

Test(fallback, reduce_by_key_by_joined_tiles_should_match_reference_when_withheld)
{
    reductions_by_key_by_tiles_with_withheld_tiles(SK__BYKEY_JOIN_GROUP);
}

Test(fallback, reduce_by_key_lifted_should_match_reference_when_tiles_withhold_totals)
{
    reductions_by_key_lifted_with_withheld_tiles(0);
}

Test(fallback, reduce_by_key_lifted_in_two_words_should_match_reference_withheld)
{
    reductions_by_key_lifted_with_withheld_tiles(SK__TEST_LB_PARTS);
}

Test(fallback, segscan_should_match_reference_when_tiles_withhold_their_totals)
{
    segscans_with_withheld_tiles();
}

TestSuite(one_thread, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

Test(one_thread, scan_should_finish_and_match_reference_when_tiles_withhold_their_totals)
{
    scans_with_withheld_tiles();
}

Test(one_thread, select_should_finish_and_match_reference_when_tiles_withhold_their_counts)
{
    selects_with_withheld_tiles();
}

Test(one_thread, sort_should_finish_and_match_reference_when_tiles_withhold_their_counts)
{
    sorts_with_withheld_tiles();
}

Test(one_thread, reduce_by_key_by_tiles_should_finish_and_match_reference_withheld)
{
    reductions_by_key_by_tiles_with_withheld_tiles(SK__BYKEY_JOIN_TUNED);
}

/* The other join here: the lifted scan's. */
Test(one_thread, reduce_by_key_by_joined_tiles_should_finish_and_match_reference)
{
    reductions_by_key_by_tiles_with_withheld_tiles(SK__BYKEY_JOIN_SCAN);
}

Test(one_thread, reduce_by_key_lifted_should_finish_and_match_reference_withheld)
{
    reductions_by_key_lifted_with_withheld_tiles(0);
}

Test(one_thread, reduce_by_key_lifted_in_two_words_should_finish_and_match_reference)
{
    reductions_by_key_lifted_with_withheld_tiles(SK__TEST_LB_PARTS);
}

Test(one_thread, segscan_should_finish_and_match_reference_when_tiles_withhold_totals)
{
    segscans_with_withheld_tiles();
}
