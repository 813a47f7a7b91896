/*
 * huge_common.h - what huge_scan and huge_compact share: the input they
 * regenerate on the host to check, and the failure message. Header only:
 * these two link scankit and sk_rng alone.
 */
#ifndef SK_HUGE_COMMON_H
#define SK_HUGE_COMMON_H

#include <scankit.h>

#include "sk_rng.h"

#include <stdint.h>
#include <stdio.h>

/* Input element i: a cheap hash, so the host can regenerate it to check. */
static inline uint32_t input_at(uint64_t i)
{
    return (uint32_t)sk_splitmix64_next(&i);
}

/* "PROG: WHAT: STATUS (DETAIL)" on stderr; @return 1. */
static inline int huge_fail(const char *prog, const char *what, sk_context *ctx, sk_status st)
{
    fprintf(stderr, "%s: %s: %s (%s)\n", prog, what, sk_status_str(st),
            ctx ? sk_context_error_detail(ctx) : "");
    return 1;
}

#endif
