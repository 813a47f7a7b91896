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
    const char *segments;         /* --segments: offsets file, or NULL */
    ak_dtype offsets_type;        /* --offsets-type, AK_DTYPE_NONE unless given */
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

/*! RADIXSORT_OPTS_MEMORY : the rows of the sort's memory, which
 *  radixsort-mpi shares (for each of its ranks): --memory, --host-memory,
 *  --temp-dir (fields memory, host_memory and temp_dir of a sort_args at
 *  the start of the arguments). */
#define RADIXSORT_OPTS_MEMORY                                               \
    AK_OPTS_MEMORY(sort_args,                                               \
                   "device memory the sort may use (suffixes K M G T, e.g. 64M,\n" \
                   "4G); data larger than that is sorted in runs that fit,\n" \
                   "then merged on the device in one pass. Default: half\n" \
                   "the device's memory"),                                 \
    {"host-memory", 0, AK_OPT_MEMORY, offsetof(sort_args, host_memory), "SIZE", \
     "host memory for the runs (suffixes K M G T); runs beyond\n"         \
     "it go to a temporary file. Default: half the physical\n"            \
     "memory", NULL, 0},                                                    \
    {"temp-dir", 0, AK_OPT_TEXT, offsetof(sort_args, temp_dir), "DIR",      \
     "where that file goes (it has no name there, so nothing\n"           \
     "is left behind). Default: the output's directory", NULL, 0}

/*! radixsort_fail_budget() : the message of a sort that failed with
 *  SK_E_SIZE under --memory or --host-memory: they are too small to sort
 *  the input `name`, with the library's `detail`. @return -1. */
int radixsort_fail_budget(const sort_args *a, const char *name, const char *detail, ak_err *e);

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
