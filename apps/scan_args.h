/*
 * scan_args.h - the command line of scan: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (scan.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs it.
 */
#ifndef SK_SCAN_ARGS_H
#define SK_SCAN_ARGS_H

#include "appkit.h"

#define SCAN_TOOL "scan"

typedef struct scan_args {
    const char *input;
    const char *output;
    const char *device;
    ak_dtype type; /* AK_DTYPE_NONE unless --type */
    sk_op op;
    ak_format format; /* AK_FORMAT_AUTO unless --format */
    size_t chunk;     /* --chunk: most elements per device pass, 0 = auto */
    size_t memory;    /* --memory: device bytes, 0 = what the device allows */
    int exclusive;
    int in_place;
    int time;
    int progress;
    int sync;
    int check;
    int list_devices;
    int help;
    int version;
} scan_args;

/*! scan_cli : the command line of scan, for ak_parse_command_line(). */
extern const ak_cli scan_cli;

/*! scan_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int scan_parse_args(int argc, char **argv, scan_args *a);

#endif /* SK_SCAN_ARGS_H */
