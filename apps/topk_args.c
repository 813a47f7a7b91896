/*
 * topk_args.c - the command line of topk: its option table and checks
 * (see topk_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "topk_args.h"

static void set_defaults(void *args)
{
    topk_args *a = args;
    a->k = TOPK_K_UNSET;
}

static int check_args(void *args, ak_err *e)
{
    const topk_args *a = args;
    if (a->k == TOPK_K_UNSET) return ak_fail(e, "-k K is required");
    if (!a->values && (a->values_type != AK_DTYPE_NONE || a->values_out))
        return ak_fail(e, "--values-type and --values-out need --values");
    if (a->values && a->indices_out)
        return ak_fail(e, "--values and --indices-out do not go together");
    return 0;
}

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("The K smallest keys of a file (or with --largest the K largest), on an\n"
                     "OpenCL device, by radix selection (no full sort): in input order, or\n"
                     "with --sorted in sorted order; equal keys at the K-th are taken\n"
                     "from the lowest input index on.\n\n"),
    AK_OPTS_INPUT(topk_args),
    AK_OPTS_OUTPUT(topk_args,
                   "where to write the K keys; '-' is stdout. Default: INPUT\n"
                   "with '.topk' before its extension, stdout when INPUT is\n"
                   "'-'. Written to a temporary file and renamed."),
    {"count", 'k', AK_OPT_U64, offsetof(topk_args, k), "K",
     "how many keys (0 to the number of keys; more is an error)", NULL, 0},
    {"largest", 'l', AK_OPT_FLAG, offsetof(topk_args, largest), NULL,
     "the K largest keys (the reverse order), not the smallest", NULL, 0},
    {"sorted", 's', AK_OPT_FLAG, offsetof(topk_args, sorted), NULL,
     "write them sorted (smallest first, or largest first with\n"
     "--largest; equal keys in input order), not in input order", NULL, 0},
    AK_OPTS_KEY_TYPE(topk_args),
    AK_OPTS_VALUES(topk_args,
                   "values that go with the keys (4- or 8-byte elements, as\n"
                   "many as there are keys): those of the K keys are written"),
    AK_OPTS_VALUES_TYPE_OUT(topk_args,
                            "where to write the values (default: FILE with '.topk'\n"
                            "before its extension)"),
    {"indices-out", 0, AK_OPT_TEXT, offsetof(topk_args, indices_out), "F",
     "write the K keys' input indices (uint64) to F", NULL, 0},
    AK_OPTS_FORMAT(topk_args),
    AK_OPTS_DEVICE(topk_args),
    AK_OPTS_TIME(topk_args),
    AK_OPTS_PROGRESS(topk_args),
    AK_OPTS_SYNC(topk_args),
    AK_OPTS_HELP_VERSION(topk_args),
    AK_OPT_HELP_TEXT(
        "\nKeys are ordered as radixsort sorts them (floats in IEEE totalOrder:\n"
        "-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(topk, TOPK_TOOL,
              "topk INPUT -k K [-o OUTPUT] [--largest] [--sorted] [--type " AK_SK_KEY_TYPE_NAMES "]\n"
              "            [--values FILE [--values-type TYPE] [--values-out FILE]]\n"
              "            [--indices-out FILE] [--format raw|npy] [--device SPEC]\n"
              "            [--list-devices] [--time] [--progress] [--help] [--version]",
              OPTIONS, topk_args, set_defaults, check_args, NULL)
