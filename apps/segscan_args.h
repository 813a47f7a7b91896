/*
 * segscan_args.h - the command line of segscan: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (segscan.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs it.
 */
#ifndef SK_SEGSCAN_ARGS_H
#define SK_SEGSCAN_ARGS_H

#include "appkit.h"

#define SEGSCAN_TOOL "segscan"

typedef struct seg_args {
    const char *input, *output, *device;
    const char *flags, *offsets, *keys;
    const char *keys_out;        /* --keys-out (with --keys --reduce) */
    ak_dtype type, offsets_type, keys_type; /* AK_DTYPE_NONE unless given */
    sk_op op;
    size_t memory; /* --memory: device bytes, 0 = what the device allows */
    int exclusive, reduce, time, progress, sync, list_devices, help, version;
} seg_args;

/*! segscan_cli : the command line of segscan, for ak_parse_command_line(). */
extern const ak_cli segscan_cli;

/*! segscan_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int segscan_parse_args(int argc, char **argv, seg_args *a);

#endif /* SK_SEGSCAN_ARGS_H */
