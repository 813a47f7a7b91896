/*
 * scan.h - what the scan's two host files share:
 *
 * scan.c       programs, launches, the recursion over levels, entry points
 *              and host-array forms
 * scan_plan.c  the plan: the tuning, one pass or reduce-then-scan, how
 *              each level splits into tiles or chunks, the scratch it takes
 */
#ifndef SK_SCAN_H
#define SK_SCAN_H

#include "sk_internal.h"

/* What the kernels are built for: a monoid, and for the built-in operators
 * 8- and 4-wide vector forms the CPU shape uses (vec_type NULL otherwise). */
typedef struct scan_op {
    sk_monoid m;
    const char *vec_type;
    const char *vec_combine;
    const char *vec4_type;
    const char *vec4_combine;
    bool size_is_bound;       /* m.size bounds sizeof(type) from above */
    bool order_free;          /* results never depend on the combining order */
    bool commutes;            /* the vector forms may also swap operands */
    bool builtin_type;        /* m.type is one of the built-in element types */
    const char *lb_codec;     /* a larger m.type's look-back code (kernels/lookback.cl) */
    unsigned lb_counters;     /* look-back words per tile (0: one) */
    bool lb_wide;             /* lb_codec takes words without epoch (SK_LB_WIDE) */
    bool own_tile;            /* level 0 moves its tiles by the io's own tile */
} scan_op;

/* What a job is for: a scan (not a reduce) may take the single pass, and
 * on the CPU shape only when its input stays unchanged (see scan.c). */
typedef enum job_kind { JOB_REDUCE, JOB_SCAN, JOB_SCAN_INPUT_STAYS } job_kind;

/* How one level splits n elements: `parts` tiles or chunks of `chunk`
 * elements each, or parts == 0 when one work-group / work-item does all. */
typedef struct level_split {
    size_t parts;
    size_t chunk;
} level_split;

/* The tuning of a job of `kind` with op over n elements; *lookback:
 * whether it takes the single pass. */
sk__tuning sk__scan_tuning(const sk_context *ctx, const scan_op *op, job_kind kind, size_t n,
                           bool *lookback);

/* How a level of reduce-then-scan splits n elements. */
level_split sk__scan_split_level(const sk__tuning *t, size_t n);

/* How the CPU shape's single pass splits n elements. */
level_split sk__scan_split_cpu_lookback(const sk__tuning *t, size_t n);

/* Elements of scratch the recursion on n elements needs (all levels). */
size_t sk__scan_scratch_elems(const sk__tuning *t, size_t n);

#endif /* SK_SCAN_H */
