/*
 * topk_args.h - the command line of topk: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (topk.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs it.
 */
#ifndef SK_TOPK_ARGS_H
#define SK_TOPK_ARGS_H

#include "appkit.h"

#define TOPK_TOOL "topk"

/* -k's value before it is given. */
#define TOPK_K_UNSET UINT64_MAX

typedef struct topk_args {
    const char *input, *output, *device, *values, *values_out, *indices_out;
    uint64_t k;                   /* -k K; TOPK_K_UNSET unless given */
    ak_dtype type, values_type;   /* AK_DTYPE_NONE unless given */
    ak_format format;
    int largest, sorted, time, progress, sync, list_devices, help, version;
} topk_args;

/*! topk_cli : the command line of topk, for ak_parse_command_line(). */
extern const ak_cli topk_cli;

/*! topk_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no
 *  device. @return AK_EXIT_OK or AK_EXIT_USAGE. */
int topk_parse_args(int argc, char **argv, topk_args *a);

#endif /* SK_TOPK_ARGS_H */
