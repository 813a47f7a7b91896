/*
 * compact.h - what the compaction's two host files share:
 *
 * compact.c       validation, the plan, programs, launches, the cl_mem forms
 * compact_host.c  the host-array forms
 */
#ifndef SK_COMPACT_H
#define SK_COMPACT_H

#include "sk_internal.h"

/* ---- what is being compacted ------------------------------------------------------ */

typedef enum keep_kind { KEEP_IF, KEEP_FLAGS, KEEP_UNIQUE } keep_kind;

/* Whether the rejected elements are written too, after the kept ones: in
 * input order (sk_partition) or in reverse input order
 * (sk_partition_reversed). The values are the kernels' `partition`. */
typedef enum partition_kind { PART_NONE = 0, PART_STABLE = 1, PART_REVERSED = 2 } partition_kind;

typedef struct compact_spec {
    sk_type type;
    keep_kind keep;
    const char *predicate;      /* KEEP_IF: OpenCL C expression of x */
    size_t flag_size;           /* KEEP_FLAGS: 1 or 4 */
    size_t value_size;          /* 0: no values; else 4 or 8 */
    partition_kind partition;   /* write the rejected elements too */
} compact_spec;

/* The buffers of one call; flags, vsrc and vdst are NULL when unused;
 * count is the _devcount forms' count buffer, else NULL. */
typedef struct compact_io {
    cl_mem src, flags, vsrc, dst, vdst, count;
} compact_io;

/* ---- entry points ---------------------------------------------------------------------- */

static inline compact_spec spec_if(sk_type type, const char *predicate, size_t value_size,
                                   partition_kind partition)
{
    return (compact_spec){type, KEEP_IF, predicate, 0, value_size, partition};
}

static inline compact_spec spec_flagged(sk_type type, size_t flag_size)
{
    return (compact_spec){type, KEEP_FLAGS, NULL, flag_size, 0, PART_NONE};
}

static inline compact_spec spec_unique(sk_type type)
{
    return (compact_spec){type, KEEP_UNIQUE, NULL, 0, 0, PART_NONE};
}

/* ---- compact.c ------------------------------------------------------------------------ */

/* SK_E_INVALID_ARG (with detail) for a spec the entry points must refuse;
 * SK_E_UNSUPPORTED for float64 on a device without fp64. */
sk_status sk__compact_validate_spec(sk_context *ctx, const compact_spec *s);

/* Validates s and the buffers of io and compacts n elements; the count is
 * read back into *count (blocking) or, when io->count is given, copied to
 * it by the queue (count may then be NULL). */
sk_status sk__compact_run(sk_context *ctx, const compact_spec *s, const compact_io *io,
                         size_t n, size_t *count);

/* The start of a pair form: SK_ENTER's checks, then values_in and
 * values_out (cl_mem or host arrays; only whether each is NULL counts)
 * both given, or both NULL (no values, value_size ignored). Sets
 * s->value_size. */
sk_status sk__compact_enter_pairs(sk_context *ctx, const void *values_in,
                                  const void *values_out, size_t value_size, compact_spec *s);

#endif /* SK_COMPACT_H */
