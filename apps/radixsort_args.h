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

/*! RADIXSORT_OPT_BITS : the row of --bits B:E (fields has_bits, begin_bit
 *  and end_bit of a sort_args at the start of the arguments). */
#define RADIXSORT_OPT_BITS                                                  \
    {"bits", 0, AK_OPT_CUSTOM, 0, "B:E",                                    \
     "sort by bits B..E-1 of the order key only (0 <= B < E <=\n"          \
     "key bits): the key itself for unsigned types, the sign\n"            \
     "bit flipped for signed ones, the totalOrder bits for floats",         \
     radixsort_parse_bits, 0}

/*! RADIXSORT_OPTS_KEYS_VALUES : the rows of what is sorted and how, which
 *  radixsort-mpi shares: --type, --descending, --bits, --values,
 *  --values-type, --values-out (on a sort_args at the start of the
 *  arguments). */
#define RADIXSORT_OPTS_KEYS_VALUES                                          \
    AK_OPTS_KEY_TYPE(sort_args),                                            \
    AK_OPTS_DESCENDING(sort_args, "largest first (the exact reverse order, still stable)"), \
    RADIXSORT_OPT_BITS,                                                     \
    AK_OPTS_VALUES(sort_args,                                               \
                   "values that move with the keys (4- or 8-byte elements,\n" \
                   "as many as there are keys)"),                          \
    AK_OPTS_VALUES_TYPE_OUT(sort_args,                                      \
                            "where to write the values (default: FILE with '.sorted'\n" \
                            "before its extension)")

/*! radixsort_parse_bits() : --bits B:E into the sort_args at `args`.
 *  @return 0 or -1. */
int radixsort_parse_bits(void *args, const char *s, ak_err *e);

/*! radixsort_check_args() : the checks of radixsort's options once all are
 *  read (--values-type and --values-out need --values; --bits within
 *  --type), on the sort_args at `args`. @return 0 or -1. */
int radixsort_check_args(void *args, ak_err *e);

/*! radixsort_check_key_type() : keys of type t (from the file `name`)
 *  sort, and --bits fits them. @return 0 or -1. */
int radixsort_check_key_type(const sort_args *a, const char *name, ak_dtype t, ak_err *e);

/*! radixsort_cli : the command line of radixsort, for ak_parse_command_line(). */
extern const ak_cli radixsort_cli;

/*! radixsort_parse_args() : fills *a from argv (defaults first) and checks the
 *  result; prints the reason of a usage error. Opens no file and no device.
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int radixsort_parse_args(int argc, char **argv, sort_args *a);

#endif /* SK_RADIXSORT_ARGS_H */
