/*
 * polyeval_args.h - the command line of polyeval: what its options set,
 * their table (parsing and --help) and checks. Kept apart from the program
 * (polyeval.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs
 * it.
 */
#ifndef SK_POLYEVAL_ARGS_H
#define SK_POLYEVAL_ARGS_H

#include "appkit.h"

#define POLYEVAL_TOOL "polyeval"

typedef struct poly_args {
    const char *input, *output, *device, *x_text, *points;
    ak_dtype type; /* AK_DTYPE_NONE unless --type */
    double *xs;    /* --x values */
    size_t nx;
    size_t memory; /* --memory: device bytes, 0 = what the device allows */
    int time, progress, sync, list_devices, help, version;
} poly_args;

/*! polyeval_cli : the command line of polyeval, for ak_parse_command_line(). */
extern const ak_cli polyeval_cli;

/*! polyeval_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int polyeval_parse_args(int argc, char **argv, poly_args *a);

/*! polyeval_args_free() : frees what parsing allocated (the --x values). */
void polyeval_args_free(poly_args *a);

#endif /* SK_POLYEVAL_ARGS_H */
