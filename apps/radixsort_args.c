/*
 * radixsort_args.c - the command line of radixsort: its options, their checks and
 * --help (see radixsort_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "radixsort_args.h"

#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "radixsort INPUT [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
    "                 [--descending] [--bits B:E] [--values FILE [--values-type TYPE]\n"
    "                 [--values-out FILE]] [--in-place] [--check] [--device SPEC]\n"
    "                 [--list-devices] [--time] [--help] [--version]";

static const char HELP[] =
    "Sorts a file of keys on an OpenCL device (stable LSD radix sort).\n"
    "\n"
    "  INPUT               raw little-endian keys, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin\n"
    "  -o, --output FILE   where to write the sorted keys; '-' is stdout. Default:\n"
    "                      INPUT with '.sorted' before its extension\n"
    "                      (keys.bin -> keys.sorted.bin; .npy stays .npy), stdout\n"
    "                      when INPUT is '-'. Written to a temporary file and\n"
    "                      renamed, so a failure leaves no partial output.\n"
    "  -t, --type TYPE     key type of a raw file (default uint32); must agree with\n"
    "                      the dtype of a .npy file\n"
    "  -r, --descending    largest first (the exact reverse order, still stable)\n"
    "      --bits B:E      sort by bits B..E-1 of the order key only (0 <= B < E <=\n"
    "                      key bits): the key itself for unsigned types, the sign\n"
    "                      bit flipped for signed ones, the totalOrder bits for floats\n"
    "      --values FILE   values that move with the keys (4- or 8-byte elements,\n"
    "                      as many as there are keys)\n"
    "      --values-type T type of a raw values file (default uint32; any of the\n"
    "                      key types)\n"
    "      --values-out F  where to write the values (default: FILE with '.sorted'\n"
    "                      before its extension)\n"
    "      --in-place      allow the output to replace INPUT\n"
    "      --check         verify the result on the host (sorted in the requested\n"
    "                      order, a permutation of the input) before writing it\n"
    AK_HELP_DEVICE
    AK_HELP_TIME_HELP_VERSION
    "\n"
    "Floats sort in IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1, OPT_TYPE, OPT_DESCENDING, OPT_BITS, OPT_VALUES, OPT_VALUES_TYPE,
    OPT_VALUES_OUT, OPT_IN_PLACE, OPT_CHECK, OPT_DEVICE, OPT_LIST_DEVICES, OPT_TIME,
    OPT_HELP, OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"descending", 'r', 0, OPT_DESCENDING},
    {"bits", 0, 1, OPT_BITS},
    {"values", 0, 1, OPT_VALUES},
    {"values-type", 0, 1, OPT_VALUES_TYPE},
    {"values-out", 0, 1, OPT_VALUES_OUT},
    {"in-place", 0, 0, OPT_IN_PLACE},
    {"check", 0, 0, OPT_CHECK},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

static int parse_bits(const char *s, sort_args *a, ak_err *e)
{
    char *end = NULL;
    unsigned long b = strtoul(s, &end, 10);
    if (end == s || *end != ':') return ak_fail(e, "bad --bits '%s' (use B:E, e.g. 0:16)", s);
    const char *rest = end + 1;
    unsigned long x = strtoul(rest, &end, 10);
    if (end == rest || *end || b >= x || x > 64)
        return ak_fail(e, "bad --bits '%s' (use B:E with 0 <= B < E <= 64)", s);
    a->begin_bit = (unsigned)b;
    a->end_bit = (unsigned)x;
    a->has_bits = 1;
    return 0;
}

static int parse_type(const char *v, const char *opt, ak_dtype *out, ak_err *e)
{
    if (ak_dtype_parse(v, out) != 0 || *out == AK_UINT8)
        return ak_fail(e, "unknown %s '%s' (use %s)", opt, v, AK_SK_TYPE_NAMES);
    return 0;
}

static int take_option(void *args, int id, const char *v, ak_err *e)
{
    sort_args *a = args;
    switch (id) {
    case OPT_OUTPUT: a->output = v; return 0;
    case OPT_DEVICE: a->device = v; return 0;
    case OPT_VALUES: a->values = v; return 0;
    case OPT_VALUES_OUT: a->values_out = v; return 0;
    case OPT_DESCENDING: a->descending = 1; return 0;
    case OPT_IN_PLACE: a->in_place = 1; return 0;
    case OPT_CHECK: a->check = 1; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_TYPE: return parse_type(v, "--type", &a->type, e);
    case OPT_VALUES_TYPE: return parse_type(v, "--values-type", &a->values_type, e);
    case OPT_BITS: return parse_bits(v, a, e);
    default: return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_args(const void *args, ak_err *e)
{
    const sort_args *a = args;
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing INPUT");
    if (a->in_place && ak_path_is_stdio(a->input))
        return ak_fail(e, "--in-place needs an input file, not stdin");
    if (!a->values && (a->values_type != AK_DTYPE_NONE || a->values_out))
        return ak_fail(e, "--values-type and --values-out need --values");
    if (a->values && ak_path_is_stdio(a->values) && ak_path_is_stdio(a->input))
        return ak_fail(e, "keys and values cannot both come from stdin");
    if (a->has_bits && a->type != AK_DTYPE_NONE && a->end_bit > 8 * ak_dtype_size(a->type))
        return ak_fail(e, "--bits %u:%u exceeds the %zu bits of %s", a->begin_bit, a->end_bit,
                       8 * ak_dtype_size(a->type), ak_dtype_name(a->type));
    return 0;
}

static const ak_cli CLI = {RADIXSORT_TOOL, USAGE, OPTIONS, "INPUT"};

int radixsort_parse_args(int argc, char **argv, sort_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = a->values_type = AK_DTYPE_NONE;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
}

int radixsort_print_help(void)
{
    return ak_print_help(RADIXSORT_TOOL, USAGE, HELP);
}
