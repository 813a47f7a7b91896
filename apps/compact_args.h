/*
 * compact_args.h - the command line of compact: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (compact.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs it.
 */
#ifndef SK_COMPACT_ARGS_H
#define SK_COMPACT_ARGS_H

#include "appkit.h"

#define COMPACT_TOOL "compact"

typedef enum cmode {
    MODE_NONE,
    MODE_IF,
    MODE_FLAGS,
    MODE_PARTITION,
    MODE_PARTITION_REVERSED,
    MODE_UNIQUE,
    MODE_RLE
} cmode;

typedef struct compact_args {
    const char *input, *output, *device;
    const char *if_expr, *partition_expr; /* --if, --partition */
    const char *reversed_expr;            /* --partition-reversed */
    const char *flags;                    /* --flags FILE */
    int unique;                           /* --unique */
    int rle;                              /* --rle */
    const char *counts_out;               /* --counts-out FILE */
    cmode mode;       /* the one of the six given, once checked */
    const char *expr; /* the expression of --if or a partition   */
    const char *values, *values_out;
    ak_dtype type, values_type;
    ak_format format;
    size_t memory;    /* --memory: device bytes, 0 = what the device allows */
    int in_place, time, progress, sync, list_devices, help, version;
} compact_args;

/*! compact_cli : the command line of compact, for ak_parse_command_line(). */
extern const ak_cli compact_cli;

/*! compact_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int compact_parse_args(int argc, char **argv, compact_args *a);

#endif /* SK_COMPACT_ARGS_H */
