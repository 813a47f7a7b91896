/*
 * polyeval_args.c - the command line of polyeval: its option table and
 * checks (see polyeval_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "polyeval_args.h"

#include <stdlib.h>
#include <string.h>

/* Parses "v1,v2,..." into a->xs. */
static int parse_xs(void *args, const char *text, ak_err *e)
{
    poly_args *a = args;
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

void polyeval_args_free(poly_args *a)
{
    free(a->xs);
    a->xs = NULL;
    a->nx = 0;
}

static void free_args(void *args)
{
    polyeval_args_free(args);
}

/* The points: exactly one of --x and --points (one_of group 1). */
#define POINTS 1

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("Evaluates p(x) = a_0 + a_1 x + ... + a_d x^d on an OpenCL device.\n\n"),
    AK_OPTS_OPERAND(poly_args, "COEFFS",
                    "the coefficients a_0 .. a_d in that order: raw\n"
                    "little-endian floats, or a NumPy .npy file (1-D,\n"
                    "little-endian); '-' reads stdin. An empty file is\n"
                    "the zero polynomial"),
    {"x", 'x', AK_OPT_TEXT, offsetof(poly_args, x_text), "VALUES",
     "the points, comma-separated decimal numbers", parse_xs, POINTS},
    {"points", 0, AK_OPT_INPUT, offsetof(poly_args, points), "FILE",
     "the points, a file of the coefficients' type (raw or\n"
     ".npy)", NULL, POINTS},
    AK_OPTS_OUTPUT(poly_args,
                   "write the values as a file ('-' is stdout): .npy when\n"
                   "FILE ends in .npy or the points file is .npy, raw\n"
                   "otherwise. Written to a temporary file and renamed.\n"
                   "Without -o the values are printed on stdout, one per\n"
                   "line (%.17g for float64, %.9g for float32)"),
    {"type", 't', AK_OPT_FLOAT_TYPE, offsetof(poly_args, type), "TYPE",
     "float32 (default for raw files) or float64; must agree\n"
     "with the dtype of .npy files", NULL, 0},
    AK_OPTS_MEMORY(poly_args,
                   "device memory polyeval may use (suffixes K M G T, e.g.\n"
                   "64M): the coefficients stay on the device, the points\n"
                   "go through in chunks that fit (values as in one piece).\n"
                   "Default: in one piece when it fits the device's largest\n"
                   "buffer, else chunks within that buffer's size"),
    AK_OPTS_DEVICE(poly_args),
    AK_OPTS_TIME(poly_args),
    AK_OPTS_PROGRESS(poly_args),
    AK_OPTS_SYNC(poly_args),
    AK_OPTS_HELP_VERSION(poly_args),
    AK_OPT_HELP_TEXT(
        "\nOne point: Horner's rule as a parallel scan over the coefficients (any\n"
        "degree). Several points: one device work-item per point. The error is at\n"
        "most gamma(2d) * sum |a_i x^i| (see scankit.h) unless |x|^(d+1) overflows.\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(polyeval, POLYEVAL_TOOL,
              "polyeval COEFFS (--x VALUE[,VALUE...] | --points FILE) [-o OUTPUT]\n"
              "                [--type float32|float64] [--memory SIZE] [--device SPEC]\n"
              "                [--list-devices] [--time] [--progress] [--help] [--version]",
              OPTIONS, poly_args, NULL, NULL, free_args)
