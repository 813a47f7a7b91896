/*
 * histogram_args.c - the command line of histogram: its option table and
 * checks (see histogram_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "histogram_args.h"

#include <stdlib.h>
#include <string.h>

/* LO:HI as two numbers (strtod: decimal, hex floats, inf). */
static int parse_range(histogram_args *a, ak_err *e)
{
    const char *colon = strchr(a->range, ':');
    char *end = NULL;
    if (!colon) return ak_fail(e, "--range '%s' is not LO:HI", a->range);
    a->lo = strtod(a->range, &end);
    if (end != colon || end == a->range)
        return ak_fail(e, "--range '%s': LO is not a number", a->range);
    a->hi = strtod(colon + 1, &end);
    if (*end || end == colon + 1)
        return ak_fail(e, "--range '%s': HI is not a number", a->range);
    if (!(a->lo < a->hi))
        return ak_fail(e, "--range '%s': LO must be below HI", a->range);
    return 0;
}

static int check_args(void *args, ak_err *e)
{
    histogram_args *a = args;
    if (a->edges) {
        if (a->bins || a->range) return ak_fail(e, "--edges takes neither --bins nor --range");
        return 0;
    }
    if (!a->range || !a->bins) return ak_fail(e, "--bins and --range go together");
    if (a->bins > SIZE_MAX / 8) return ak_fail(e, "--bins %llu is too many",
                                               (unsigned long long)a->bins);
    return parse_range(a, e);
}

/* The binnings: exactly one of them (one_of group 1). */
#define BINNINGS 1

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT(
        "Counts the elements of a file in bins, on an OpenCL device, and writes the\n"
        "counts as uint64. Either equal bins (--bins and --range) or edges:\n\n"),
    {"range", 0, AK_OPT_TEXT, offsetof(histogram_args, range), "LO:HI",
     "count the elements x with LO <= x < HI in --bins bins of\n"
     "equal width (integer types: LO and HI whole numbers of\n"
     "the type, each bin exact); NaN is in no bin", NULL, BINNINGS},
    {"bins", 'b', AK_OPT_U64, offsetof(histogram_args, bins), "N",
     "the number of bins of --range (at least 1)", NULL, 0},
    {"edges", 0, AK_OPT_INPUT, offsetof(histogram_args, edges), "FILE",
     "bins between sorted edges of the input's type (N + 1\n"
     "edges: N bins, bin i holding edges[i] <= x < edges[i+1])", NULL, BINNINGS},
    AK_OPT_HELP_TEXT("\n"),
    AK_OPTS_INPUT(histogram_args),
    AK_OPTS_OUTPUT(histogram_args,
                   "where to write the counts; '-' is stdout. Default: INPUT\n"
                   "with '.hist' before its extension, stdout when INPUT is\n"
                   "'-'. Written to a temporary file and renamed."),
    AK_OPTS_TYPE(histogram_args),
    AK_OPTS_MEMORY(histogram_args,
                   "device memory histogram may use (suffixes K M G T, e.g.\n"
                   "64M); a larger input goes through in chunks that fit,\n"
                   "their counts added. Default: in one piece when it fits\n"
                   "the device's largest buffer, else chunks within that\n"
                   "buffer's size"),
    AK_OPTS_FORMAT(histogram_args),
    AK_OPTS_DEVICE(histogram_args),
    AK_OPTS_TIME(histogram_args),
    AK_OPTS_PROGRESS(histogram_args),
    AK_OPTS_SYNC(histogram_args),
    AK_OPTS_HELP_VERSION(histogram_args),
    AK_OPT_HELP_TEXT(
        "\nPrints 'counted K of N' on stderr.\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(histogram, HISTOGRAM_TOOL,
              "histogram INPUT (--bins N --range LO:HI | --edges FILE) [-o OUTPUT]\n"
              "                 [--type " AK_SK_TYPE_NAMES "] [--format raw|npy]\n"
              "                 [--memory SIZE] [--device SPEC] [--list-devices] [--time]\n"
              "                 [--progress] [--help] [--version]",
              OPTIONS, histogram_args, NULL, check_args, NULL)
