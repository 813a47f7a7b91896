/*
 * histogram_args.h - the command line of histogram: what its options set,
 * their table (parsing and --help) and checks. Kept apart from the program
 * (histogram.c) so that parsing can run on its own, as fuzz/fuzz_cli.c
 * runs it.
 */
#ifndef SK_HISTOGRAM_ARGS_H
#define SK_HISTOGRAM_ARGS_H

#include "appkit.h"

#define HISTOGRAM_TOOL "histogram"

typedef struct histogram_args {
    const char *input, *output, *device;
    uint64_t bins;        /* --bins N (with --range) */
    const char *range;    /* --range LO:HI, as given */
    double lo, hi;        /* its bounds, once checked */
    const char *edges;    /* --edges FILE */
    ak_dtype type;
    ak_format format;
    size_t memory;        /* --memory: device bytes, 0 = what the device allows */
    int time, progress, sync, list_devices, help, version;
} histogram_args;

/*! histogram_cli : the command line of histogram, for ak_parse_command_line(). */
extern const ak_cli histogram_cli;

/*! histogram_parse_args() : fills *a from argv (defaults first) and checks
 *  the result; prints the reason of a usage error. Opens no file and no
 *  device. @return AK_EXIT_OK or AK_EXIT_USAGE. */
int histogram_parse_args(int argc, char **argv, histogram_args *a);

#endif /* SK_HISTOGRAM_ARGS_H */
