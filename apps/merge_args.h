/*
 * merge_args.h - the command line of merge: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (merge.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs it.
 */
#ifndef SK_MERGE_ARGS_H
#define SK_MERGE_ARGS_H

#include "appkit.h"

#define MERGE_TOOL "merge"

typedef struct merge_args {
    const char *inputs[2]; /* the operands A and B */
    const char *values[2]; /* --values VA VB, or NULL */
    const char *output, *device, *values_out;
    ak_dtype type, values_type; /* AK_DTYPE_NONE unless given */
    int descending, check, time, progress, sync, list_devices, help, version;
    size_t memory;              /* --memory: device bytes; 0: not given */
} merge_args;

/*! merge_cli : the command line of merge, for ak_parse_command_line(). */
extern const ak_cli merge_cli;

/*! merge_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int merge_parse_args(int argc, char **argv, merge_args *a);

#endif /* SK_MERGE_ARGS_H */
