/*
 * radixsort_args.h - the command line of radixsort: what its options set,
 * their table (parsing and --help) and checks. Kept apart from the program
 * (radixsort.c) so that parsing can run on its own, as fuzz/fuzz_cli.c runs
 * it.
 */
#ifndef SK_RADIXSORT_ARGS_H
#define SK_RADIXSORT_ARGS_H

#include "appkit.h"

#define RADIXSORT_TOOL "radixsort"

typedef struct sort_args {
    const char *input, *output, *device, *values, *values_out;
    ak_dtype type, values_type;   /* AK_DTYPE_NONE unless given */
    int descending, has_bits, in_place, check, time, progress, sync;
    int list_devices, help, version;
    unsigned begin_bit, end_bit;
    size_t memory;                /* --memory: device bytes; 0: not given */
    size_t host_memory;           /* --host-memory: host bytes; 0: not given */
    const char *temp_dir;         /* --temp-dir, or NULL */
} sort_args;

/*! radixsort_cli : the command line of radixsort, for ak_parse_command_line(). */
extern const ak_cli radixsort_cli;

/*! radixsort_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int radixsort_parse_args(int argc, char **argv, sort_args *a);

#endif /* SK_RADIXSORT_ARGS_H */
