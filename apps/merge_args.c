/*
 * merge_args.c - the command line of merge: its option table and checks
 * (see merge_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "merge_args.h"

static int check_args(void *args, ak_err *e)
{
    const merge_args *a = args;
    if (!a->values[0] && (a->values_type != AK_DTYPE_NONE || a->values_out))
        return ak_fail(e, "--values-type and --values-out need --values");
    return 0;
}

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("Merges two sorted files of keys on an OpenCL device (stable: among\n"
                     "equal keys, those of A come first).\n\n"),
    {NULL, 0, AK_OPT_OPERAND, offsetof(merge_args, inputs), "A B",
     "two files of keys, each sorted in the order asked for:\n"
     "raw little-endian, or NumPy .npy (1-D, little-endian),\n"
     "both alike; '-' reads stdin (for one of them)", NULL, 0},
    AK_OPTS_OUTPUT(merge_args,
                   "where to write the merged keys; '-' is stdout. Default:\n"
                   "A with '.merged' before its extension\n"
                   "(a.bin -> a.merged.bin; .npy stays .npy), stdout\n"
                   "when A is '-'. Written to a temporary file and\n"
                   "renamed, so a failure leaves no partial output."),
    AK_OPTS_KEY_TYPE(merge_args),
    AK_OPTS_DESCENDING(merge_args, "the inputs are sorted largest first, and so is the output"),
    {"values", 0, AK_OPT_INPUT, offsetof(merge_args, values), "VA VB",
     "values that move with the keys of A and of B (4- or\n"
     "8-byte elements, as many as each has keys)", NULL, 0},
    AK_OPTS_VALUES_TYPE_OUT(merge_args, "where to write the values (default: VA with '.merged'\n"
                                        "before its extension)"),
    AK_OPTS_CHECK(merge_args,
                  "verify the result on the host (sorted in the requested\n"
                  "order, the union of the inputs) before writing it"),
    AK_OPTS_MEMORY(merge_args,
                   "device memory the merge may use (suffixes K M G T);\n"
                   "then A followed by B goes through radixsort's stream\n"
                   "sort (runs, one merge pass) within it: the same output"),
    AK_OPTS_DEVICE(merge_args),
    AK_OPTS_TIME(merge_args),
    AK_OPTS_PROGRESS(merge_args),
    AK_OPTS_SYNC(merge_args),
    AK_OPTS_HELP_VERSION(merge_args),
    AK_OPT_HELP_TEXT(
        "\nKeys are ordered as radixsort sorts them (floats in IEEE totalOrder:\n"
        "-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN). An input that is not\n"
        "sorted in that order is refused before the merge.\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(merge, MERGE_TOOL,
              "merge A B [-o OUTPUT] [--type " AK_SK_KEY_TYPE_NAMES "]\n"
              "             [--descending] [--values VA VB [--values-type TYPE]\n"
              "             [--values-out FILE]] [--memory SIZE] [--check] [--device SPEC]\n"
              "             [--list-devices]"
              " [--time] [--progress] [--help] [--version]",
              OPTIONS, merge_args, NULL, check_args, NULL)
