/*
 * skt_scan.c - the checks and size lists shared by the scan suites
 * (test_scan.c, test_scan_paths.c, test_scan_monoid.c); see skt_scan.h.
 */
#include "skt_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sk_status skt_scan_call(sk_type t, sk_op op, int excl, cl_mem s, cl_mem d, size_t n)
{
    return excl ? sk_scan_exclusive(skt_ctx, t, op, s, d, n)
                : sk_scan_inclusive(skt_ctx, t, op, s, d, n);
}

void skt_check_scan(sk_type t, sk_op op, int excl, size_t n, int in_place, const char *cfg)
{
    size_t es = skt_ref_type_size(t);
    size_t span = (n + SKT_GUARD) * es;
    const char *what = skt_fmt("%s %s %s n=%zu %s%s", sk_type_name(t), sk_op_name(op),
                               excl ? "exclusive" : "inclusive", n, cfg,
                               in_place ? " in place" : "");
    skt_bufs_reserve(span);
    skt_fill(t, op, skt_bufs.h_src, n);
    skt_ref_scan(t, op, excl, skt_bufs.h_src, skt_bufs.h_ref, n);

    cl_mem dst = in_place ? skt_bufs.src : skt_bufs.dst;
    skt_buf_upload(skt_bufs.src, 0, skt_bufs.h_src, n * es);
    if (in_place) {
        unsigned char p = SKT_POISON_BYTE;
        skt_buf_fill(skt_bufs.src, &p, 1, n * es, SKT_GUARD * es);
    } else {
        skt_buf_poison(skt_bufs.dst, span);
    }

    sk_status st = skt_scan_call(t, op, excl, skt_bufs.src, dst, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());

    skt_buf_download(dst, 0, skt_bufs.h_out, span);
    skt_expect_elems(t, skt_bufs.h_out, skt_bufs.h_ref, n, what);
    size_t bad = skt_find_unpoisoned(skt_bufs.h_out + n * es, SKT_GUARD * es);
    cr_assert_eq(bad, (size_t)-1, "%s: wrote past n (byte %zu after the end) [seed %llu]",
                 what, bad, (unsigned long long)skt_seed());
    if (!in_place) {
        skt_buf_download(skt_bufs.src, 0, skt_bufs.h_out, n * es);
        cr_assert_eq(memcmp(skt_bufs.h_out, skt_bufs.h_src, n * es), 0,
                     "%s: the input buffer was modified [seed %llu]", what,
                     (unsigned long long)skt_seed());
    }
}

void skt_check_reduce(sk_type t, sk_op op, size_t n, const char *cfg)
{
    size_t es = skt_ref_type_size(t);
    const char *what =
        skt_fmt("reduce %s %s n=%zu %s", sk_type_name(t), sk_op_name(op), n, cfg);
    unsigned char want[8], got[16];
    skt_bufs_reserve((n + 1) * es);
    skt_fill(t, op, skt_bufs.h_src, n);
    skt_ref_reduce(t, op, skt_bufs.h_src, n, want);
    skt_buf_upload(skt_bufs.src, 0, skt_bufs.h_src, n * es);
    skt_poison(got, sizeof got);

    sk_status st = sk_reduce(skt_ctx, t, op, skt_bufs.src, got, n);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_expect_elems(t, got, want, 1, what);
    cr_assert_eq(skt_find_unpoisoned(got + es, sizeof got - es), (size_t)-1,
                 "%s: wrote more than one element to *result", what);
}

/* ---- sizes ------------------------------------------------------------------------- */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

void skt_sizes_add(skt_sizes *l, size_t n, size_t max)
{
    if (n > max || l->count == sizeof l->v / sizeof l->v[0])
        return;
    for (size_t i = 0; i < l->count; i++)
        if (l->v[i] == n)
            return;
    l->v[l->count++] = n;
}

void skt_sizes_edges(skt_sizes *l, size_t tile, size_t k, size_t max)
{
    if (tile == 0 || tile > max)
        return;
    skt_sizes_add(l, k * tile - 1, max);
    skt_sizes_add(l, k * tile, max);
    skt_sizes_add(l, k * tile + 1, max);
}

void skt_sizes_base(skt_sizes *l, size_t max)
{
    static const size_t fixed[] = {0,    1,    2,    3,    4,    5,     6,     7,    11,
                                   13,   31,   37,   97,   101,  251,   509,   1021, 2039,
                                   3001, 4093, 7919, 10007, 65521, 100003, 131071, 262147};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        skt_sizes_add(l, fixed[i], max);
    for (size_t p = 8; p <= ((size_t)1 << 14); p *= 2)
        skt_sizes_edges(l, p, 1, max);
    for (size_t p = 8; p <= ((size_t)1 << 12); p *= 8)
        skt_sizes_edges(l, p, 3, max);
}

void skt_sizes_sort(skt_sizes *l) { qsort(l->v, l->count, sizeof l->v[0], cmp_size); }

void skt_sizes_tiles(skt_sizes *l, sk_shape shape, size_t max)
{
    if (shape == SK_SHAPE_GPU) {
        size_t wg = (size_t)skt_get_param(SK_PARAM_WG_SIZE);
        size_t ipt = (size_t)skt_get_param(SK_PARAM_ITEMS_PER_THREAD);
        size_t tile = wg * ipt; /* 0 when automatic: not readable */
        static const size_t ks[] = {1, 2, 3, 5};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            skt_sizes_edges(l, tile, ks[i], max);
        if (tile && tile <= max / tile) {
            skt_sizes_edges(l, tile * tile, 1, max);
            skt_sizes_edges(l, tile * tile + tile, 1, max);
            if (tile * tile <= max / tile)
                skt_sizes_edges(l, tile * tile * tile, 1, max);
        }
        if (wg)
            skt_sizes_edges(l, wg, 1, max);
    } else {
        size_t chunks = (size_t)skt_get_param(SK_PARAM_CPU_CHUNKS);
        size_t serial = (size_t)skt_get_param(SK_PARAM_CPU_SERIAL_BELOW);
        if (serial)
            skt_sizes_edges(l, serial, 1, max);
        static const size_t ks[] = {1, 2, 3, 10, 100};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            skt_sizes_edges(l, chunks, ks[i], max);
    }
}

const skt_tile_cfg SKT_TILE_CFGS[SKT_N_TILE_CFGS] = {
    {"default tiles", 0, 0, 0, 0, 270000, 0},
    {"small tiles (wg 4 x 2, 3 chunks)", 4, 2, 3, 1, 70000, 0},
    {"medium tiles (wg 64 x 4, 7 chunks, serial below 100)", 64, 4, 7, 100, 270000, 1},
};

void skt_tiles_apply(const skt_tile_cfg *c)
{
    skt_tiles_set(c->wg, c->ipt, c->chunks, c->serial_below);
}

skt_label skt_cfg_name(sk_shape shape, const skt_tile_cfg *c)
{
    skt_label l;
    snprintf(l.s, sizeof l.s, "%s shape, %s", skt_shape_name(shape), c->name);
    return l;
}

void skt_skip_unless_fp64(void)
{
    if (skt_has_fp64())
        return;
    cl_mem s = skt_buf_new(64 * 8), d = skt_buf_new(64 * 8);
    unsigned char out[64 * 8], res[8];
    skt_buf_poison(d, sizeof out);
    skt_poison(res, sizeof res);
    SKT_EXPECT_STATUS(sk_scan_inclusive(skt_ctx, SK_FLOAT64, SK_OP_ADD, s, d, 64),
                      SK_E_UNSUPPORTED);
    SKT_EXPECT_STATUS(sk_scan_exclusive(skt_ctx, SK_FLOAT64, SK_OP_ADD, s, d, 64),
                      SK_E_UNSUPPORTED);
    SKT_EXPECT_STATUS(sk_reduce(skt_ctx, SK_FLOAT64, SK_OP_ADD, s, res, 64),
                      SK_E_UNSUPPORTED);
    skt_buf_download(d, 0, out, sizeof out);
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1);
    cr_assert_eq(skt_find_unpoisoned(res, sizeof res), (size_t)-1);
    skt_buf_free(s);
    skt_buf_free(d);
    cr_skip_test("device has no fp64 (SK_E_UNSUPPORTED checked)");
}

sk_type skt_scan_case_begin(const skt_case *c)
{
    skt_case_begin(c);
    if (c->type == SK_FLOAT64)
        skt_skip_unless_fp64();
    if (c->shape != SK_SHAPE_AUTO)
        skt_force_shape(c->shape);
    return (sk_type)c->type;
}

/* ---- launches by path ------------------------------------------------------------ */

void skt_expect_path_taken(sk_scan_path path, sk_shape shape, int in_place,
                           const skt_launches *c, const char *what)
{
    int one_pass = path == SK_SCAN_PATH_LOOKBACK && !(shape == SK_SHAPE_CPU && in_place);
    if (one_pass)
        cr_assert_eq(c->other, 0ul, "%s: %lu launches of reduce-then-scan kernels", what,
                     c->other);
    else if (path != SK_SCAN_PATH_AUTO)
        cr_assert_eq(c->lookback, 0ul, "%s: %lu look-back launches", what, c->lookback);
}

void skt_scan_sizes(sk_type t, sk_op op, sk_scan_path path, const skt_sizes *sizes,
                    const char *cfg)
{
    sk_shape shape = (sk_shape)skt_get_param(SK_PARAM_SHAPE);
    skt_launches all = {0};
    for (int excl = 0; excl < 2; excl++)
        for (size_t i = 0; i < sizes->count; i++) {
            int in_place = (int)((i + excl) & 1);
            skt_launches c = {0};
            skt_count_launches(&c);
            skt_check_scan(t, op, excl, sizes->v[i], in_place, cfg);
            skt_count_launches(NULL);
            skt_expect_path_taken(path, shape, in_place, &c,
                                  skt_fmt("%s %s n=%zu, %s%s", sk_type_name(t), sk_op_name(op),
                                          sizes->v[i], cfg, in_place ? ", in place" : ""));
            all.lookback += c.lookback;
            all.other += c.other;
        }
    const char *what = skt_fmt("%s %s, %s", sk_type_name(t), sk_op_name(op), cfg);
    if (path == SK_SCAN_PATH_LOOKBACK)
        cr_assert_gt(all.lookback, 0ul, "%s: the look-back kernel never ran", what);
    else if (path == SK_SCAN_PATH_REDUCE_THEN_SCAN)
        cr_assert_gt(all.other, 0ul, "%s: no reduce-then-scan launch", what);
}

skt_sizes skt_tiles_use(sk_shape shape, size_t c)
{
    skt_sizes sizes = {.count = 0};
    skt_tiles_apply(&SKT_TILE_CFGS[c]);
    skt_sizes_base(&sizes, SKT_TILE_CFGS[c].max_n);
    skt_sizes_tiles(&sizes, shape, SKT_TILE_CFGS[c].max_n);
    skt_sizes_sort(&sizes);
    return sizes;
}

/* ---- the pairwise tile-edge matrix ----------------------------------------------- */

static unsigned pairwise_r(sk_type t)
{
    return t == SK_FLOAT32 || t == SK_FLOAT64 ? 2u : (unsigned)t & 1u;
}

unsigned skt_pairwise_gpu_cfgs(sk_type t, sk_op op)
{
    unsigned k = (unsigned)op + pairwise_r(t);
    unsigned mask = SKT_BIT(k % 3);
    if (pairwise_r(t) == 0 && op >= SK_OP_AND)
        mask |= SKT_BIT(((unsigned)op + 2) % 3);
    return mask;
}

sk_scan_path skt_pairwise_path(sk_type t, sk_op op)
{
    return ((unsigned)op + pairwise_r(t)) % 2 ? SK_SCAN_PATH_REDUCE_THEN_SCAN
                                              : SK_SCAN_PATH_LOOKBACK;
}

void skt_scan_edges_pairwise(sk_type t, sk_shape shape, sk_scan_path path)
{
    if (t == SK_FLOAT64)
        skt_skip_unless_fp64();
    skt_force_shape(shape);
    if (path != SK_SCAN_PATH_AUTO)
        skt_force_scan_path(path);
    for (size_t c = 0; c < SKT_N_TILE_CFGS; c++) {
        skt_sizes sizes = skt_tiles_use(shape, c);
        skt_label cfg = skt_cfg_name(shape, &SKT_TILE_CFGS[c]);
        if (path != SK_SCAN_PATH_AUTO)
            snprintf(cfg.s + strlen(cfg.s), sizeof cfg.s - strlen(cfg.s), ", %s forced",
                     skt_scan_path_name(path));
        SKT_EACH_OP(t, op) {
            if (path != SK_SCAN_PATH_AUTO && skt_pairwise_path(t, (sk_op)op) != path)
                continue;
            int runs = shape == SK_SHAPE_GPU
                           ? (skt_pairwise_gpu_cfgs(t, (sk_op)op) & SKT_BIT(c)) != 0
                           : !SKT_TILE_CFGS[c].add_only || op == SK_OP_ADD;
            if (runs)
                skt_scan_sizes(t, (sk_op)op, path, &sizes, cfg.s);
        }
    }
    if (path != SK_SCAN_PATH_AUTO)
        skt_force_scan_path(SK_SCAN_PATH_AUTO);
}
