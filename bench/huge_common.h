/*
 * huge_common.h - what huge_scan, huge_compact and huge_search share: their
 * command line, the device's context and the input they regenerate on the
 * host to check. Header only.
 */
#ifndef SK_HUGE_COMMON_H
#define SK_HUGE_COMMON_H

#include <scankit.h>

#include "bench_common.h"
#include "sk_rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the command line: PROG [N] [--device SPEC] ------------------------- */

/* N when it is left out: 2^32 + 5. */
#define HUGE_DEFAULT_N "4294967301"

/* The command line as read: the shared options first. */
typedef struct huge_args {
    bb_run_args run;   /* --device, --help                */
    const char *count; /* N as given                       */
    uint64_t n;        /* N: from 1 to SIZE_MAX / 4 uint32 */
} huge_args;

static inline int huge_n_parse(void *args, const char *value, ak_err *e)
{
    huge_args *a = args;
    if (ak_parse_u64(value, &a->n) != 0)
        return ak_fail(e, "bad N '%s' (an unsigned 64-bit integer)", value);
    if (a->n == 0) return ak_fail(e, "N must be at least 1");
    if (a->n > SIZE_MAX / 4) return ak_fail(e, "N is too large (at most %zu)", SIZE_MAX / 4);
    return 0;
}

/* The option table of a program whose N is described by n_help. */
#define HUGE_ROWS(n_help)                                                                 \
    {NULL, 0, AK_OPT_OPERAND, offsetof(huge_args, count), "N", n_help, huge_n_parse, 0}, \
        BB_RUN_ROW_DEVICE, BB_RUN_ROW_HELP, AK_OPT_TABLE_END

/* Parses argv as "PROG [N] [OPTION]..." through rows (HUGE_ROWS); N is
 * HUGE_DEFAULT_N when argv has no operand. @return 0: run; 1: --help
 * shown; 2: bad usage (shown). */
static inline int huge_parse(const char *prog, const ak_opt *rows, int argc, char **argv,
                             huge_args *a)
{
    char usage[64];
    snprintf(usage, sizeof usage, "%s [N] [OPTION]...", prog);
    const ak_cli cli = {prog, usage, rows, sizeof *a, NULL, NULL, NULL};
    /* argv as it is when it gives N, or when it is wrong (the parse says why) */
    ak_args it;
    const ak_opt *opt;
    ak_err e;
    int got;
    ak_args_init(&it, argc, argv);
    while ((got = ak_args_next(&it, rows, &opt, &e)) == AK_ARGS_OPTION) continue;
    if (got != AK_ARGS_END) return bb_run_parse(&cli, argc, argv, a);
    /* else the default after the options: the table's N is always given */
    static char dflt[] = HUGE_DEFAULT_N;
    char **with = malloc(((size_t)argc + 2) * sizeof *with);
    if (!with) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 2;
    }
    memcpy(with, argv, (size_t)argc * sizeof *with);
    with[argc] = dflt;
    with[argc + 1] = NULL;
    int rc = bb_run_parse(&cli, argc + 1, with, a);
    free(with);
    return rc;
}

/* *ctx on the device that a names, profiling. @return 0, or 1 after saying
 * why ("prog: ..."). */
static inline int huge_open(const char *prog, const huge_args *a, sk_context **ctx)
{
    sk_status st = sk_context_create(ctx, a->run.device, NULL, 0);
    if (st != SK_OK) return bb_sk_fail(prog, NULL, st, "opening the device");
    st = sk_context_set_param(*ctx, SK_PARAM_PROFILE, 1);
    return st == SK_OK ? 0 : bb_sk_fail(prog, *ctx, st, "profiling");
}

/* ---- the input ------------------------------------------------------------ */

/* Input element i: a cheap hash, so the host can regenerate it to check. */
static inline uint32_t input_at(uint64_t i)
{
    return (uint32_t)sk_splitmix64_next(&i);
}

#endif
