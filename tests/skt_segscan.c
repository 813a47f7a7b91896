/*
 * skt_segscan.c - segmentations, configurations and the checked segmented
 * scan shared by the segmented-scan suites (test_segscan.c,
 * test_segreduce.c); see skt_segscan.h.
 */
#include "skt_segscan.h"

#include <stdlib.h>
#include <string.h>

#include "ref/ref_segscan.h"

/* ---- segmentations --------------------------------------------------------------- */

const char *const KIND_NAMES[4] = {"uint8 flags", "uint32 flags", "uint32 offsets",
                                   "uint64 offsets"};

int is_offsets(seg_kind k) { return k == OFFS32 || k == OFFS64; }

void put_offset(segm *s, size_t k, uint64_t v)
{
    if (s->kind == OFFS32) ((uint32_t *)s->desc)[k] = (uint32_t)v;
    else ((uint64_t *)s->desc)[k] = v;
}

/* Flags: nonzero (random bits, high bits too) at heads, 0 elsewhere; flag 0
 * is random (element 0 starts a segment anyway). */
static void make_flags(segm *s)
{
    size_t fs = s->kind == FLAGS8 ? 1 : 4;
    s->desc = skt_malloc(s->n * fs + 1);
    for (size_t i = 0; i < s->n; i++) {
        uint32_t r = (uint32_t)skt_rand();
        uint32_t f = (s->heads[i] || (i == 0 && (r & 1))) ? (r >> 1) | (fs == 1 ? 1u : 0x100u) : 0;
        if (fs == 1) ((uint8_t *)s->desc)[i] = (uint8_t)(f ? (f & 0xFF) | 1u : 0);
        else ((uint32_t *)s->desc)[i] = f;
    }
    s->segments = 0;
    for (size_t i = 0; i < s->n; i++) s->segments += s->heads[i];
}

/* Offsets: one per head, some repeated (empty segments), and sometimes n
 * itself at the end (an empty last segment). `empties` scales how many. */
static void make_offsets(segm *s, int empties)
{
    size_t cap = 2 * s->n + 8, count = 0;
    s->desc = skt_malloc(cap * 8);
    for (size_t i = 0; i < s->n; i++) {
        if (!s->heads[i]) continue;
        put_offset(s, count++, i);
        while (empties && count + 4 < cap && skt_rand_below(4) == 0) put_offset(s, count++, i);
    }
    if (s->n == 0 && (empties || skt_rand_below(2))) put_offset(s, count++, 0);
    while (empties && count + 1 < cap && skt_rand_below(2) == 0) put_offset(s, count++, s->n);
    s->count = count;
    s->segments = count;
}

void segm_init(segm *s, seg_kind kind, size_t n, unsigned char *heads, int empties)
{
    s->kind = kind;
    s->n = n;
    s->heads = heads;
    s->count = 0;
    if (n) heads[0] = 1;
    if (is_offsets(kind)) make_offsets(s, empties);
    else make_flags(s);
}

void segm_free(segm *s)
{
    free(s->heads);
    free(s->desc);
    s->heads = NULL;
    s->desc = NULL;
}

unsigned char *heads_random(size_t n, size_t avg_len)
{
    unsigned char *h = skt_malloc(n + 1);
    for (size_t i = 0; i < n; i++) h[i] = avg_len <= 1 || skt_rand_below(avg_len) == 0;
    return h;
}

unsigned char *heads_every(size_t n, size_t len)
{
    unsigned char *h = skt_malloc(n + 1);
    for (size_t i = 0; i < n; i++) h[i] = i % len == 0;
    return h;
}

void segm_random(segm *s, seg_kind kind, size_t n, size_t avg_len)
{
    segm_init(s, kind, n, heads_random(n, avg_len), 1);
}

size_t desc_bytes(const segm *s)
{
    switch (s->kind) {
    case FLAGS8: return s->n;
    case FLAGS32: return s->n * 4;
    case OFFS32: return s->count * 4;
    case OFFS64: return s->count * 8;
    }
    return 0;
}

sk_segments segments_of(const segm *s)
{
    sk_segments d = {NULL, 0, NULL, SK_UINT32, 0};
    if (desc_bytes(s)) skt_buf_upload(skt_bufs.aux, 0, s->desc, desc_bytes(s));
    if (is_offsets(s->kind)) {
        d.offsets = skt_bufs.aux;
        d.offset_type = s->kind == OFFS32 ? SK_UINT32 : SK_UINT64;
        d.count = s->count;
    } else {
        d.flags = skt_bufs.aux;
        d.flag_size = s->kind == FLAGS8 ? 1 : 4;
    }
    return d;
}

sk_segments_host segments_host_of(const segm *s)
{
    sk_segments_host d = {NULL, 0, NULL, SK_UINT32, 0};
    if (is_offsets(s->kind)) {
        d.offsets = s->desc;
        d.offset_type = s->kind == OFFS32 ? SK_UINT32 : SK_UINT64;
        d.count = s->count;
    } else {
        d.flags = s->desc;
        d.flag_size = s->kind == FLAGS8 ? 1 : 4;
    }
    return d;
}

/* ---- configurations ---------------------------------------------------------------- */

const char *const CFG_NAMES[4] = {"cpu shape, default tiles", "cpu shape, small tiles",
                                  "gpu shape, default tiles", "gpu shape, small tiles"};

cfg case_cfg(const skt_case *c)
{
    return (cfg)((c->shape == SK_SHAPE_GPU ? GPU_DEFAULT : CPU_DEFAULT) + c->size_class);
}

void apply_cfg(cfg c)
{
    skt_force_shape(c == CPU_DEFAULT || c == CPU_SMALL ? SK_SHAPE_CPU : SK_SHAPE_GPU);
    if (c == CPU_SMALL || c == GPU_SMALL) skt_tiles_small();
    else skt_tiles_default();
}

/* ---- one built-in segmented scan, checked ---------------------------------------------- */

sk_status segscan_mem(sk_type t, sk_op op, int excl, cl_mem s, cl_mem d, size_t n,
                      const sk_segments *seg)
{
    return excl ? sk_segscan_exclusive(skt_ctx, t, op, s, seg, d, n)
                : sk_segscan_inclusive(skt_ctx, t, op, s, seg, d, n);
}

void check_segscan(sk_type t, sk_op op, int excl, const segm *s, int in_place,
                   const char *cfg_name)
{
    skt_scratch *b = &skt_bufs;
    size_t n = s->n, es = skt_ref_type_size(t), span = (n + SKT_GUARD) * es;
    const char *what = skt_fmt("%s %s %s n=%zu, %s (%zu segments), %s%s", sk_type_name(t),
                               sk_op_name(op), excl ? "exclusive" : "inclusive", n,
                               KIND_NAMES[s->kind], s->segments, cfg_name,
                               in_place ? ", in place" : "");
    skt_bufs_reserve(span + desc_bytes(s) + 8);
    skt_fill(t, op, b->h_src, n);
    skt_ref_segscan(t, op, excl, b->h_src, b->h_ref, s->heads, n);
    sk_segments seg = segments_of(s);
    cl_mem dst = in_place ? b->src : b->dst;
    skt_buf_poison(b->src, span);
    skt_buf_upload(b->src, 0, b->h_src, n * es);
    if (!in_place) skt_buf_poison(b->dst, span);

    sk_status st = segscan_mem(t, op, excl, b->src, dst, n, &seg);
    cr_assert_eq(st, SK_OK, "%s -> %s (%s) [seed %llu]", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx), (unsigned long long)skt_seed());
    skt_buf_download(dst, 0, b->h_out, span);
    skt_expect_elems(t, b->h_out, b->h_ref, n, what);
    cr_assert_eq(skt_find_unpoisoned(b->h_out + n * es, SKT_GUARD * es), (size_t)-1,
                 "%s: wrote past n [seed %llu]", what, (unsigned long long)skt_seed());
    if (!in_place) {
        skt_buf_download(b->src, 0, b->h_out, n * es);
        cr_assert_eq(memcmp(b->h_out, b->h_src, n * es), 0,
                     "%s: the input was modified [seed %llu]", what, (unsigned long long)skt_seed());
    }
}

/* ---- the matrix monoid ---------------------------------------------------------------- */

void mat2_combine(const void *a, const void *b, void *out)
{
    skt_mat2 x, y, r;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    r = skt_ref_mat2_mul(x, y);
    memcpy(out, &r, sizeof r);
}

const sk_monoid *mat2_monoid(int lines)
{
    return lines ? skt_monoid_mat2_lines() : skt_monoid_mat2();
}
