/*
 * search_args.c - the command line of search: its option table (see
 * search_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "search_args.h"

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("For every key of NEEDLES, the index in the sorted HAYSTACK where it\n"
                     "would go, on an OpenCL device: the first key not before it\n"
                     "(lower bound), or with --upper the first key after it. Writes the\n"
                     "indices as uint64.\n\n"),
    {NULL, 0, AK_OPT_OPERAND, offsetof(search_args, inputs), "HAYSTACK NEEDLES",
     "two files of keys of one type, HAYSTACK sorted in the\n"
     "order asked for, NEEDLES in any order: raw little-endian,\n"
     "or NumPy .npy (1-D, little-endian); '-' reads stdin (for\n"
     "one of them)", NULL, 0},
    AK_OPTS_OUTPUT(search_args,
                   "where to write the indices; '-' is stdout. Default:\n"
                   "NEEDLES with '.lower' (or '.upper') before its\n"
                   "extension, stdout when NEEDLES is '-'. Written to a\n"
                   "temporary file and renamed."),
    {"upper", 'u', AK_OPT_FLAG, offsetof(search_args, upper), NULL,
     "upper bound: past every key equal to the needle", NULL, 0},
    AK_OPTS_KEY_TYPE(search_args),
    AK_OPTS_DESCENDING(search_args, "HAYSTACK is sorted largest first"),
    AK_OPTS_FORMAT(search_args),
    AK_OPTS_DEVICE(search_args),
    AK_OPTS_TIME(search_args),
    AK_OPTS_PROGRESS(search_args),
    AK_OPTS_SYNC(search_args),
    AK_OPTS_HELP_VERSION(search_args),
    AK_OPT_HELP_TEXT(
        "\nKeys are ordered as radixsort sorts them (floats in IEEE totalOrder:\n"
        "-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), so radixsort's output\n"
        "is a haystack. A HAYSTACK that is not sorted in that order is refused.\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(search, SEARCH_TOOL,
              "search HAYSTACK NEEDLES [-o OUTPUT] [--upper] [--type " AK_SK_KEY_TYPE_NAMES "]\n"
              "              [--descending] [--format raw|npy] [--device SPEC] [--list-devices]\n"
              "              [--time] [--progress] [--help] [--version]",
              OPTIONS, search_args, NULL, NULL, NULL)
