/*
 * polyeval_args.c - the command line of polyeval: its options, their checks and
 * --help (see polyeval_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "polyeval_args.h"

#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "polyeval COEFFS (--x VALUE[,VALUE...] | --points FILE) [-o OUTPUT]\n"
    "                [--type float32|float64] [--device SPEC] [--list-devices]\n"
    "                [--time] [--help] [--version]";

static const char HELP[] =
    "Evaluates p(x) = a_0 + a_1 x + ... + a_d x^d on an OpenCL device.\n"
    "\n"
    "  COEFFS              the coefficients a_0 .. a_d in that order: raw\n"
    "                      little-endian floats, or a NumPy .npy file (1-D,\n"
    "                      little-endian); '-' reads stdin. An empty file is\n"
    "                      the zero polynomial\n"
    "      --x VALUES      the points, comma-separated decimal numbers\n"
    "      --points FILE   the points, a file of the coefficients' type (raw or\n"
    "                      .npy)\n"
    "  -o, --output FILE   write the values as a file ('-' is stdout): .npy when\n"
    "                      FILE ends in .npy or the points file is .npy, raw\n"
    "                      otherwise. Written to a temporary file and renamed.\n"
    "                      Without -o the values are printed on stdout, one per\n"
    "                      line (%.17g for float64, %.9g for float32)\n"
    "  -t, --type TYPE     float32 (default for raw files) or float64; must agree\n"
    "                      with the dtype of .npy files\n"
    AK_HELP_DEVICE
    AK_HELP_TIME_HELP_VERSION
    "\n"
    "One point: Horner's rule as a parallel scan over the coefficients (any\n"
    "degree). Several points: one device work-item per point. The error is at\n"
    "most gamma(2d) * sum |a_i x^i| (see scankit.h) unless |x|^(d+1) overflows.\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

enum {
    OPT_OUTPUT = 1,
    OPT_TYPE,
    OPT_X,
    OPT_POINTS,
    OPT_DEVICE,
    OPT_LIST_DEVICES,
    OPT_TIME,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"type", 't', 1, OPT_TYPE},
    {"x", 'x', 1, OPT_X},
    {"points", 0, 1, OPT_POINTS},
    {"device", 'd', 1, OPT_DEVICE},
    {"list-devices", 0, 0, OPT_LIST_DEVICES},
    {"time", 0, 0, OPT_TIME},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

/* Parses "v1,v2,..." into a->xs. */
static int parse_xs(poly_args *a, const char *text, ak_err *e)
{
    size_t cap = 1;
    for (const char *c = text; *c; c++) cap += *c == ',';
    free(a->xs);
    a->nx = 0;
    if (!(a->xs = malloc(cap * sizeof *a->xs))) return ak_fail(e, "out of memory");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char buf[128];
        if (len == 0 || len >= sizeof buf) return ak_fail(e, "bad --x value in '%s'", text);
        memcpy(buf, p, len);
        buf[len] = 0;
        if (ak_parse_f64(buf, &a->xs[a->nx]) != 0)
            return ak_fail(e, "bad --x value '%s' (a finite decimal number)", buf);
        a->nx++;
        if (!comma) return 0;
        p = comma + 1;
    }
}

static int take_option(void *args, int id, const char *value, ak_err *e)
{
    poly_args *a = args;
    switch (id) {
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_DEVICE: a->device = value; return 0;
    case OPT_POINTS: a->points = value; return 0;
    case OPT_LIST_DEVICES: a->list_devices = 1; return 0;
    case OPT_TIME: a->time = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    case OPT_X: a->x_text = value; return parse_xs(a, value, e);
    case OPT_TYPE:
        if (ak_dtype_parse(value, &a->type) != 0 || !ak_dtype_is_float(a->type))
            return ak_fail(e, "unknown --type '%s' (use float32 or float64)", value);
        return 0;
    default: return ak_fail(e, "internal error: option %d", id);
    }
}

static int check_args(const void *args, ak_err *e)
{
    const poly_args *a = args;
    if (a->help || a->version || a->list_devices) return 0;
    if (!a->input) return ak_fail(e, "missing COEFFS");
    if (!a->x_text == !a->points) return ak_fail(e, "give exactly one of --x and --points");
    if (a->points && ak_path_is_stdio(a->points) && ak_path_is_stdio(a->input))
        return ak_fail(e, "COEFFS and --points cannot both be stdin");
    return 0;
}

static const ak_cli CLI = {POLYEVAL_TOOL, USAGE, OPTIONS, "COEFFS"};

int polyeval_parse_args(int argc, char **argv, poly_args *a)
{
    memset(a, 0, sizeof *a);
    a->type = AK_DTYPE_NONE;
    return ak_parse_command_line(&CLI, argc, argv, take_option, check_args, a, &a->input);
}

int polyeval_print_help(void)
{
    return ak_print_help(POLYEVAL_TOOL, USAGE, HELP);
}

void polyeval_args_free(poly_args *a)
{
    free(a->xs);
    a->xs = NULL;
    a->nx = 0;
}
