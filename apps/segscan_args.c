/*
 * segscan_args.c - the command line of segscan: its options, their checks and
 * --help (see segscan_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "segscan_args.h"

#include <string.h>

static const char USAGE[] =
    "segscan INPUT (--flags FILE | --offsets FILE [--offsets-type uint32|uint64])\n"
    "               [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
    "               [--op add|mul|min|max|and|or|xor] [--exclusive] [--reduce]\n"
    "               [--device SPEC] [--list-devices] [--time] [--help] [--version]";

static const char HELP[] =
    "Computes a prefix scan that restarts at every segment of a file of elements,\n"
    "or one total per segment, on an OpenCL device. Segments come from exactly one\n"
    "of:\n"
    "\n"
    "      --flags FILE    one head flag per element: element i starts a segment\n"
    "                      where flag i is not 0 (element 0 always starts one);\n"
    "                      raw uint8, or .npy of uint8 or uint32\n"
    "      --offsets FILE  segment start offsets: offsets[0] = 0, non-decreasing,\n"
    "                      none above the number of elements; equal offsets are\n"
    "                      empty segments. Raw (type from --offsets-type) or .npy\n"
    "                      of uint32 or uint64\n"
    "      --offsets-type T\n"
    "                      uint32 (default) or uint64, for a raw offsets file\n"
    "\n"
    "  INPUT               raw little-endian elements, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin\n"
    "  -o, --output FILE   where to write; '-' is stdout. Default: INPUT with\n"
    "                      '.segscan' ('.segreduce' with --reduce) before its\n"
    "                      extension, stdout when INPUT is '-'. Written to a\n"
    "                      temporary file and renamed. The output is .npy when\n"
    "                      INPUT is or when OUTPUT ends in .npy\n"
    "  -t, --type TYPE     element type of a raw file (default uint32); must agree\n"
    "                      with the dtype of a .npy file\n"
    "      --op OP         add (default), mul, min, max, and, or, xor; and/or/xor\n"
    "                      need an integer type\n"
    "  -e, --exclusive     exclusive scan: the first element of each segment gets\n"
    "                      the identity of OP (default: inclusive)\n"
    "      --reduce        write one total per segment instead of the scan (an\n"
    "                      empty segment's total is the identity of OP)\n"
    AK_HELP_DEVICE
    AK_HELP_TIME_HELP_VERSION
    "\n"
    "Integer add and mul wrap around. The data must fit in one device buffer.\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1,
    OPT_TYPE,
    OPT_OP,
    OPT_FLAGS,
    OPT_OFFSETS,
    OPT_OFFSETS_TYPE,
    OPT_EXCLUSIVE,
    OPT_REDUCE,
    OPT_DEVICE,
    OPT_LIST_DEVICES,
    OPT_TIME,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"op", 0, 1, OPT_OP},
    {"flags", 0, 1, OPT_FLAGS},
    {"offsets", 0, 1, OPT_OFFSETS},
    {"offsets-type", 0, 1, OPT_OFFSETS_TYPE},
    {"exclusive", 'e', 0, OPT_EXCLUSIVE},
    {"reduce", 0, 0, OPT_REDUCE},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

static int parse_types(seg_args *a, int id, const char *value, ak_err *e)
{
    if (id == OPT_TYPE) {
        if (ak_dtype_parse(value, &a->type) != 0 || a->type == AK_UINT8)
            return ak_fail(e, "unknown --type '%s' (use %s)", value, AK_SK_TYPE_NAMES);
        return 0;
    }
    if (ak_dtype_parse(value, &a->offsets_type) != 0 ||
        (a->offsets_type != AK_UINT32 && a->offsets_type != AK_UINT64))
        return ak_fail(e, "unknown --offsets-type '%s' (use uint32 or uint64)", value);
    return 0;
}

static int take_option(void *args, int id, const char *value, ak_err *e)
{
    seg_args *a = args;
    switch (id) {
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_DEVICE: a->device = value; return 0;
    case OPT_FLAGS: a->flags = value; return 0;
    case OPT_OFFSETS: a->offsets = value; return 0;
    case OPT_EXCLUSIVE: a->exclusive = 1; return 0;
    case OPT_REDUCE: a->reduce = 1; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_TYPE:
    case OPT_OFFSETS_TYPE: return parse_types(a, id, value, e);
    case OPT_OP:
        if (sk_op_parse(value, &a->op) != SK_OK)
            return ak_fail(e, "unknown --op '%s' (use add, mul, min, max, and, or, xor)", value);
        return 0;
    default: return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_args(const void *args, ak_err *e)
{
    const seg_args *a = args;
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing INPUT");
    if (!a->flags == !a->offsets) return ak_fail(e, "give exactly one of --flags and --offsets");
    if (a->offsets_type != AK_DTYPE_NONE && !a->offsets)
        return ak_fail(e, "--offsets-type needs --offsets");
    if (a->exclusive && a->reduce) return ak_fail(e, "--exclusive and --reduce exclude each other");
    const char *seg = a->flags ? a->flags : a->offsets;
    if (ak_path_is_stdio(seg) && ak_path_is_stdio(a->input))
        return ak_fail(e, "INPUT and the %s file cannot both be stdin",
                       a->flags ? "--flags" : "--offsets");
    return ak_check_op_type(NULL, a->type, a->op, e);
}

static const ak_cli CLI = {SEGSCAN_TOOL, USAGE, OPTIONS, "INPUT"};

int segscan_parse_args(int argc, char **argv, seg_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = a->offsets_type = AK_DTYPE_NONE;
    a->op = SK_OP_ADD;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
}

int segscan_print_help(void)
{
    return ak_print_help(SEGSCAN_TOOL, USAGE, HELP);
}
