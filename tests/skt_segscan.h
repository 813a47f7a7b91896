/*
 * skt_segscan.h - segmentations, configurations and the checked segmented
 * scan shared by the segmented-scan suites (test_segscan.c,
 * test_segreduce.c).
 */
#ifndef SKT_SEGSCAN_H
#define SKT_SEGSCAN_H

#include "skt_common.h"

/* ---- segmentations ---------------------------------------------------------- */

/* The four ways of giving segments (a parameterised case's `variant`). */
typedef enum seg_kind { FLAGS8, FLAGS32, OFFS32, OFFS64 } seg_kind;

extern const char *const KIND_NAMES[4];

/* A segmentation of n elements, on the host: the head mask (the reference's
 * view) and the flags or offsets the library gets. */
typedef struct segm {
    seg_kind kind;
    size_t n;
    unsigned char *heads;
    void *desc;      /* flags (n) or offsets (count) */
    size_t count;    /* offsets */
    size_t segments; /* segments the library must report */
} segm;

int is_offsets(seg_kind k);
void put_offset(segm *s, size_t k, uint64_t v);

/* Takes `heads` (n + 1 bytes, malloc'd; heads[0] is set) and makes the
 * flags or offsets of `kind`. Flags: nonzero (random bits, high bits too)
 * at heads, 0 elsewhere. Offsets: one per head, and with `empties` some
 * repeated (empty segments) and sometimes n itself at the end. */
void segm_init(segm *s, seg_kind kind, size_t n, unsigned char *heads, int empties);
void segm_free(segm *s);

/* Head masks: random with average segment length avg_len, or every len. */
unsigned char *heads_random(size_t n, size_t avg_len);
unsigned char *heads_every(size_t n, size_t len);

/* segm_init with random heads and empty segments. */
void segm_random(segm *s, seg_kind kind, size_t n, size_t avg_len);

/* Bytes of the flags or offsets. */
size_t desc_bytes(const segm *s);

/* Uploads the segmentation into skt_bufs.aux and describes it. */
sk_segments segments_of(const segm *s);
/* The same for the host forms (pointing into s). */
sk_segments_host segments_host_of(const segm *s);

/* ---- configurations ---------------------------------------------------------- */

/* Shape x tiles: default tiles, or small tiles (GPU work-group 4 x 2 items,
 * CPU 3 chunks, no serial path). */
typedef enum cfg { CPU_DEFAULT, CPU_SMALL, GPU_DEFAULT, GPU_SMALL } cfg;

extern const char *const CFG_NAMES[4];

/* A parameterised case's configuration: its shape, size_class 0 default
 * tiles, 1 small tiles. */
cfg case_cfg(const skt_case *c);
void apply_cfg(cfg c);

/* ---- checks ---------------------------------------------------------------------- */

/* sk_segscan_exclusive (excl) or sk_segscan_inclusive on skt_ctx. */
sk_status segscan_mem(sk_type t, sk_op op, int excl, cl_mem s, cl_mem d, size_t n,
                      const sk_segments *seg);

/* One segmented scan through the cl_mem form (skt_bufs), checked against
 * the reference: past n untouched, the input unchanged. */
void check_segscan(sk_type t, sk_op op, int excl, const segm *s, int in_place,
                   const char *cfg_name);

/* The matrix product of skt_ref_mat2_mul as the references' combine. */
void mat2_combine(const void *a, const void *b, void *out);

/* The matrix monoid, or with `lines` the same written over several lines
 * (skt_monoid_mat2_lines). */
const sk_monoid *mat2_monoid(int lines);

#endif /* SKT_SEGSCAN_H */
