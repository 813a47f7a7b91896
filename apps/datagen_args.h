/*
 * datagen_args.h - the command line of datagen: what its options set, their
 * table (parsing and --help) and checks. Kept apart from the program
 * (datagen.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs it.
 */
#ifndef SK_DATAGEN_ARGS_H
#define SK_DATAGEN_ARGS_H

#include "appkit.h"

#define DATAGEN_TOOL "datagen"

typedef struct datagen_args {
    ak_gen_spec spec;
    size_t n;
    int has_n;
    const char *range_text; /* parsed once the type is known */
    const char *output;
    ak_format format;
    int verbose;
    int help;
    int version;
} datagen_args;

/*! datagen_cli : the command line of datagen, for ak_parse_command_line(). */
extern const ak_cli datagen_cli;

/*! datagen_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int datagen_parse_args(int argc, char **argv, datagen_args *a);

#endif /* SK_DATAGEN_ARGS_H */
