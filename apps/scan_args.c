/*
 * scan_args.c - the command line of scan: its options, their checks and
 * --help (see scan_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "scan_args.h"

#include <string.h>

static const char USAGE[] =
    "scan INPUT [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
    "            [--op add|mul|min|max|and|or|xor] [--exclusive] [--in-place]\n"
    "            [--format raw|npy] [--chunk N] [--device SPEC] [--list-devices]\n"
    "            [--check] [--time] [--help] [--version]";

static const char HELP[] =
    "Computes the prefix scan of a file of elements on an OpenCL device.\n"
    "\n"
    "  INPUT               raw little-endian elements, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin (.npy recognised by its\n"
    "                      magic)\n"
    "  -o, --output FILE   where to write; '-' is stdout. Default: INPUT with\n"
    "                      '.scan' before its extension (data.bin -> data.scan.bin),\n"
    "                      stdout when INPUT is '-'. Written to a temporary file\n"
    "                      and renamed, so a failure leaves no partial output.\n"
    "  -t, --type TYPE     element type of a raw file (default uint32); must agree\n"
    "                      with the dtype of a .npy file\n"
    "      --op OP         add (default), mul, min, max, and, or, xor; and/or/xor\n"
    "                      need an integer type\n"
    "  -e, --exclusive     exclusive scan: out[0] is the identity of OP, out[i]\n"
    "                      combines in[0..i-1] (default: inclusive, in[0..i])\n"
    "      --in-place      allow the output to replace INPUT (default output is\n"
    "                      then INPUT itself)\n"
    "      --format FMT    output layout, raw or npy (default: as the input, npy\n"
    "                      when OUTPUT ends in .npy)\n"
    "      --chunk N       scan at most N elements per device pass (suffixes K M G);\n"
    "                      default: as many as the device's largest buffer holds.\n"
    "                      Each pass carries the running total into the next,\n"
    "                      so any size works (float results depend on N)\n"
    AK_HELP_DEVICE
    "      --check         check the result against a serial scan on the host and\n"
    "                      say so on stderr (exit 1 on a mismatch)\n"
    AK_HELP_TIME_HELP_VERSION
    "\n"
    "Integer add and mul wrap around. Exit status: 0 success, 1 bad input or\n"
    "failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1,
    OPT_TYPE,
    OPT_OP,
    OPT_EXCLUSIVE,
    OPT_IN_PLACE,
    OPT_FORMAT,
    OPT_CHUNK,
    OPT_DEVICE,
    OPT_LIST_DEVICES,
    OPT_TIME,
    OPT_CHECK,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"op", 0, 1, OPT_OP},
    {"exclusive", 'e', 0, OPT_EXCLUSIVE},
    {"in-place", 0, 0, OPT_IN_PLACE},
    {"format", 0, 1, OPT_FORMAT},
    {"chunk", 0, 1, OPT_CHUNK},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"check", 0, 0, OPT_CHECK},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

static int take_option(void *args, int id, const char *value, ak_err *e)
{
    scan_args *a = args;
    switch (id) {
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_DEVICE: a->device = value; return 0;
    case OPT_EXCLUSIVE: a->exclusive = 1; return 0;
    case OPT_IN_PLACE: a->in_place = 1; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_CHECK: a->check = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_TYPE:
        if (ak_dtype_parse(value, &a->type) != 0 || a->type == AK_UINT8)
            return ak_fail(e, "unknown --type '%s' (use %s)", value, AK_SK_TYPE_NAMES);
        return 0;
    case OPT_OP:
        if (sk_op_parse(value, &a->op) != SK_OK)
            return ak_fail(e, "unknown --op '%s' (use add, mul, min, max, and, or, xor)", value);
        return 0;
    case OPT_FORMAT:
        if (ak_format_parse(value, &a->format) != 0)
            return ak_fail(e, "unknown --format '%s' (use raw or npy)", value);
        return 0;
    case OPT_CHUNK:
        if (ak_parse_count(value, &a->chunk) != 0 || a->chunk < 2)
            return ak_fail(e, "bad --chunk '%s' (a count of at least 2, e.g. 64M)", value);
        return 0;
    default:
        return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_args(const void *args, ak_err *e)
{
    const scan_args *a = args;
    if (a->help || a->version || a->list_devices)
        return 0;
    if (!a->input)
        return ak_fail(e, "missing INPUT");
    if (a->in_place && ak_path_is_stdio(a->input))
        return ak_fail(e, "--in-place needs an input file, not stdin");
    return ak_check_op_type(NULL, a->type, a->op, e);
}

static const ak_cli CLI = {SCAN_TOOL, USAGE, OPTIONS, "INPUT"};

int scan_parse_args(int argc, char **argv, scan_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = AK_DTYPE_NONE;
    a->op = SK_OP_ADD;
    a->format = AK_FORMAT_AUTO;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
}

int scan_print_help(void)
{
    return ak_print_help(SCAN_TOOL, USAGE, HELP);
}
