/*
 * segscan.h - what the segmented scan's two host files share:
 *
 * segscan.c      validation, offsets, the GPU shape (scan.cl over the
 *                lifted monoid), entry points, host-array forms
 * segscan_cpu.c  the CPU shape (kernels/segscan.cl's chunk kernels)
 */
#ifndef SK_SEGSCAN_H
#define SK_SEGSCAN_H

#include "sk_internal.h"

/* What one call works on, after validation: flags are the caller's or
 * derived from offsets (then uint8). */
typedef struct seg_job {
    sk_context *ctx;
    const sk_monoid *m;
    cl_mem src, dst;          /* dst: scan output, or totals */
    size_t n;
    cl_mem flags;
    size_t flag_size;
    cl_mem count;             /* totals by flags: the number of segments */
    const sk_segments *seg;
    bool order_free;          /* results never depend on the combining order */
    /* By key (bykey.c, CPU shape totals): flags are keys of flag_size
     * bytes, a segment starting where a key's bits differ from the one
     * before; each segment's key goes to keys_out; with count_ones every
     * value is 1 and src is not read. */
    bool by_key, count_ones;
    cl_mem keys_out;
} seg_job;

/* The OpenCL C type of the job's flags (by key: the keys' bits). */
static inline const char *seg_flag_type(const seg_job *j)
{
    return j->flag_size == 1 ? "uchar" : j->flag_size == 4 ? "uint" : "ulong";
}

/* ---- segscan.c ------------------------------------------------------------------------ */

/* The program of kernels/segscan.cl for the job: its configuration is the
 * caller's monoid (with its operator where `combine`), then `defines`
 * (#define lines). */
sk_status sk__segscan_program(seg_job *j, bool combine, const char *defines,
                              const char *const *kernels, unsigned count,
                              const sk__program **prog);

/* The segmented scan of n elements of src into dst (src may be dst), and
 * the segment totals: the entry points' work after SK_ENTER, for the
 * primitives built on them (bykey.c). order_free: the results never
 * depend on the combining order (sk__monoid_of). */
sk_status sk__segscan_run(sk_context *ctx, const sk_monoid *m, bool order_free, cl_mem src,
                          cl_mem dst, size_t n, const sk_segments *seg, bool exclusive);
sk_status sk__segreduce_run(sk_context *ctx, const sk_monoid *m, bool order_free, cl_mem src,
                            size_t n, const sk_segments *seg, cl_mem totals, size_t *segments);

/* Segment totals of n lifted elements that io loads and stores itself
 * (segscan_lift.cl's sk_seg_t with SK_SEG_TOTALS over m, m validated):
 * reduce-then-scan, in a fixed order whatever the monoid (the levels above
 * the first share the segment totals' program), or with `codec` (else
 * NULL; kernels/segscan_totals_codec.cl) the look-back pass where the
 * scan's plan takes it. Asynchronous. */
sk_status sk__segreduce_lifted(sk_context *ctx, const sk_monoid *m, const sk__scan_io *io,
                               size_t n, const sk__lb_codec *codec);

/* The segment totals' lifted monoid as kernels take it (the caller's
 * monoid, then kernels/segscan_lift.cl with SK_SEG_TOTALS, head counts in
 * 32 bits where n elements allow; malloc'd, NULL when out of memory), and
 * a bound on the bytes of its element, sk_seg_t, whatever the value's
 * alignment. */
char *sk__segtotals_preamble(const sk_monoid *m, size_t n);
size_t sk__segtotals_element_size(const sk_monoid *m);

/* The segmented scans' small scratch: counts, the offsets check, the CPU
 * shape's chunk partials (segscan.c). */
extern const sk__scratch_id sk__seg_small;

/* What the segmented sort (segsort.c) shares with the scans: */

/* Checks segments of n elements: exactly one of flags and offsets, of a
 * supported size or type, in buffers large enough. */
sk_status sk__segments_validate(sk_context *ctx, const sk_segments *seg, size_t n);

/* Checks offsets on the device, asynchronously: sets bit 0 of the int at
 * the start of `word` (zeroed by the caller) unless offsets[0] == 0, they
 * are non-decreasing and none is above n; bit 1 where a segment is empty.
 * The caller reads the word back and passes it to the verdict below. */
sk_status sk__segments_check_offsets_into(sk_context *ctx, const sk_segments *seg, size_t n,
                                          cl_mem word);

/* SK_E_INVALID_ARG (with its message) where the offsets check's word
 * `bad` says the offsets are not a segmentation of n elements. */
sk_status sk__segments_offsets_verdict(sk_context *ctx, cl_int bad, size_t n);

/* The device-side segments of host segments: their form checked, flags or
 * offsets copied into the staging buffer of `id`. */
sk_status sk__segments_upload(sk_context *ctx, const sk_segments_host *h, size_t n,
                              const sk__scratch_id *id, sk_segments *d);

/* ---- segscan_cpu.c -------------------------------------------------------------------- */

/* The segmented scan of the job into j->dst (n > 0). Asynchronous. */
sk_status sk__segscan_cpu_scan(seg_job *j, bool exclusive);

/* Segment totals by flags (or by key) into j->dst; *count the number of
 * segments (n > 0). Blocking. */
sk_status sk__segscan_cpu_totals(seg_job *j, cl_ulong *count);

/* Segment totals by offsets into j->dst (n > 0) by chunks of elements, in
 * one read of them; nothing stored where the offsets' check enqueued before
 * into `bad` failed. Asynchronous. */
sk_status sk__segscan_cpu_offset_totals(seg_job *j, cl_mem bad);

#endif /* SK_SEGSCAN_H */
