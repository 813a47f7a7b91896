/*
 * compact_args.c - the command line of compact: its options, their checks and
 * --help (see compact_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "compact_args.h"

#include <string.h>

static const char USAGE[] =
    "compact INPUT [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
    "               (--if EXPR | --flags FILE | --partition EXPR | --unique)\n"
    "               [--values FILE --values-type T [--values-out FILE]]\n"
    "               [--in-place] [--format raw|npy] [--device SPEC] [--list-devices]\n"
    "               [--time] [--help] [--version]";

static const char HELP[] =
    "Keeps the elements of a file that satisfy a condition, in order, on an OpenCL\n"
    "device. Exactly one mode:\n"
    "\n"
    "      --if EXPR       keep the elements x for which the OpenCL C expression\n"
    "                      EXPR holds, e.g. 'x % 3 == 0', 'isnan(x)', 'x > 0.5f'\n"
    "      --flags FILE    keep element i where FILE's flag i is not 0; FILE holds\n"
    "                      one flag per element: raw uint8, or .npy of uint8 or\n"
    "                      uint32\n"
    "      --partition EXPR\n"
    "                      write every element: those for which EXPR holds first,\n"
    "                      then the others, both in input order\n"
    "      --unique        drop each element equal to its predecessor (floats\n"
    "                      compare with ==: -0.0 equals 0.0, NaN equals nothing)\n"
    "\n"
    "  INPUT               raw little-endian elements, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin\n"
    "  -o, --output FILE   where to write; '-' is stdout. Default: INPUT with\n"
    "                      '.compact' before its extension, stdout when INPUT is\n"
    "                      '-'. Written to a temporary file and renamed.\n"
    "  -t, --type TYPE     element type of a raw file (default uint32); must agree\n"
    "                      with the dtype of a .npy file\n"
    "      --values FILE   values carried along with the elements, in every mode:\n"
    "                      value i goes where element i goes (--unique keeps the\n"
    "                      value of the first element of each run); as many as\n"
    "                      INPUT has, of 4 or 8 bytes\n"
    "      --values-type T element type of a raw values file (default uint32)\n"
    "      --values-out FILE\n"
    "                      where the values go (default: FILE with '.compact'\n"
    "                      before its extension)\n"
    "      --in-place      allow the output to replace INPUT\n"
    "      --format FMT    output layout, raw or npy (default: as the input, npy\n"
    "                      when OUTPUT ends in .npy)\n"
    AK_HELP_DEVICE
    AK_HELP_TIME_HELP_VERSION
    "\n"
    "Prints 'selected K of N' on stderr. The data must fit in one device buffer.\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1,
    OPT_TYPE,
    OPT_IF,
    OPT_FLAGS,
    OPT_PARTITION,
    OPT_UNIQUE,
    OPT_VALUES,
    OPT_VALUES_TYPE,
    OPT_VALUES_OUT,
    OPT_IN_PLACE,
    OPT_FORMAT,
    OPT_DEVICE,
    OPT_LIST_DEVICES,
    OPT_TIME,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"if", 0, 1, OPT_IF},
    {"flags", 0, 1, OPT_FLAGS},
    {"partition", 0, 1, OPT_PARTITION},
    {"unique", 0, 0, OPT_UNIQUE},
    {"values", 0, 1, OPT_VALUES},
    {"values-type", 0, 1, OPT_VALUES_TYPE},
    {"values-out", 0, 1, OPT_VALUES_OUT},
    {"in-place", 0, 0, OPT_IN_PLACE},
    {"format", 0, 1, OPT_FORMAT},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

static int set_mode(compact_args *a, cmode m, const char *expr)
{
    a->mode = m;
    a->modes_given++;
    if (m == MODE_IF || m == MODE_PARTITION) a->expr = expr;
    if (m == MODE_FLAGS) a->flags = expr;
    return 0;
}

static int parse_type(const char *value, const char *what, ak_dtype *out, ak_err *e)
{
    if (ak_dtype_parse(value, out) != 0 || *out == AK_UINT8)
        return ak_fail(e, "unknown %s '%s' (use %s)", what, value, AK_SK_TYPE_NAMES);
    return 0;
}

static int take_option(void *args, int id, const char *value, ak_err *e)
{
    compact_args *a = args;
    switch (id) {
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_DEVICE: a->device = value; return 0;
    case OPT_IF: return set_mode(a, MODE_IF, value);
    case OPT_FLAGS: return set_mode(a, MODE_FLAGS, value);
    case OPT_PARTITION: return set_mode(a, MODE_PARTITION, value);
    case OPT_UNIQUE: return set_mode(a, MODE_UNIQUE, NULL);
    case OPT_VALUES: a->values = value; return 0;
    case OPT_VALUES_OUT: a->values_out = value; return 0;
    case OPT_IN_PLACE: a->in_place = 1; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_TYPE: return parse_type(value, "--type", &a->type, e);
    case OPT_VALUES_TYPE: return parse_type(value, "--values-type", &a->values_type, e);
    case OPT_FORMAT:
        if (ak_format_parse(value, &a->format) != 0)
            return ak_fail(e, "unknown --format '%s' (use raw or npy)", value);
        return 0;
    default:
        return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_values_args(const compact_args *a, ak_err *e)
{
    if (!a->values) {
        if (a->values_type != AK_DTYPE_NONE || a->values_out)
            return ak_fail(e, "--values-type and --values-out need --values");
        return 0;
    }
    if (ak_path_is_stdio(a->values) && ak_path_is_stdio(a->input))
        return ak_fail(e, "INPUT and --values cannot both be stdin");
    if (ak_path_is_stdio(a->values) && !a->values_out)
        return ak_fail(e, "--values from stdin needs --values-out");
    if (a->values_out && a->output && !ak_path_is_stdio(a->output) &&
        strcmp(a->values_out, a->output) == 0)
        return ak_fail(e, "--values-out and --output name the same file");
    if (a->values_out && a->output && ak_path_is_stdio(a->values_out) &&
        ak_path_is_stdio(a->output))
        return ak_fail(e, "--values-out and --output cannot both be stdout");
    return 0;
}

static int check_args(const void *args, ak_err *e)
{
    const compact_args *a = args;
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing INPUT");
    if (a->modes_given == 0)
        return ak_fail(e, "give one of --if, --flags, --partition, --unique");
    if (a->modes_given > 1)
        return ak_fail(e, "give only one of --if, --flags, --partition, --unique");
    if ((a->mode == MODE_IF || a->mode == MODE_PARTITION) && !*a->expr)
        return ak_fail(e, "the expression is empty");
    if (a->mode == MODE_FLAGS && ak_path_is_stdio(a->flags) && ak_path_is_stdio(a->input))
        return ak_fail(e, "INPUT and --flags cannot both be stdin");
    if (a->in_place && ak_path_is_stdio(a->input))
        return ak_fail(e, "--in-place needs an input file, not stdin");
    return check_values_args(a, e);
}

static const ak_cli CLI = {COMPACT_TOOL, USAGE, OPTIONS, "INPUT"};

int compact_parse_args(int argc, char **argv, compact_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = a->values_type = AK_DTYPE_NONE;
    a->format = AK_FORMAT_AUTO;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
}

int compact_print_help(void)
{
    return ak_print_help(COMPACT_TOOL, USAGE, HELP);
}
