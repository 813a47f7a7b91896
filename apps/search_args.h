/*
 * search_args.h - the command line of search: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (search.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs
 * it.
 */
#ifndef SK_SEARCH_ARGS_H
#define SK_SEARCH_ARGS_H

#include "appkit.h"

#define SEARCH_TOOL "search"

typedef struct search_args {
    const char *inputs[2]; /* the operands HAYSTACK and NEEDLES */
    const char *output, *device;
    ak_dtype type;         /* AK_DTYPE_NONE unless given */
    ak_format format;
    int upper, descending, time, progress, sync, list_devices, help, version;
} search_args;

/*! search_cli : the command line of search, for ak_parse_command_line(). */
extern const ak_cli search_cli;

/*! search_parse_args() : fills *a from argv (defaults first) and checks
 *  the result; prints the reason of a usage error. Opens no file and no
 *  device. @return AK_EXIT_OK or AK_EXIT_USAGE. */
int search_parse_args(int argc, char **argv, search_args *a);

#endif /* SK_SEARCH_ARGS_H */
