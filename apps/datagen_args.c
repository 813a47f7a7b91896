/*
 * datagen_args.c - the command line of datagen: its options, their checks and
 * --help (see datagen_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "datagen_args.h"

#include <stdio.h>
#include <string.h>

static const char USAGE[] =
    "datagen -n N [--type TYPE] [--dist DIST] [--seed S] [--range LO:HI]\n"
    "               [--format raw|npy] [-v] -o FILE";

static const char HELP[] =
    "Writes N pseudo-random elements, raw little-endian or NumPy .npy.\n"
    "\n"
    "  -n, --count N       number of elements; suffixes K M G T are powers of\n"
    "                      two (16M = 16777216)\n"
    "  -t, --type TYPE     uint32 (default), int32, uint64, int64, float32,\n"
    "                      float64, uint8\n"
    "      --dist DIST     uniform (default): integers over the whole type,\n"
    "                        floats in [0, 1)\n"
    "                      sorted, reversed: uniform values sorted ascending or\n"
    "                        descending\n"
    "                      equal: one uniform value repeated\n"
    "                      few-unique: 16 distinct uniform values\n"
    "                      entropy:K: AND of K random words (1 <= K <= 64), each\n"
    "                        bit set with probability 2^-K\n"
    "  -s, --seed S        64-bit seed (default 1); same seed, same file\n"
    "  -r, --range LO:HI   uniform values in [LO, HI] for integers, [LO, HI) for\n"
    "                      floats (not with entropy:K)\n"
    "      --format FMT    raw or npy (default: npy when FILE ends in .npy)\n"
    "  -o, --output FILE   where to write; '-' is stdout\n"
    "  -v, --verbose       say what was written, on stderr\n"
    "  -h, --help          show this help and exit\n"
    "  -V, --version       show the version and exit\n"
    "\n"
    "The generator is xoshiro256** seeded through splitmix64. Exit status:\n"
    "0 success, 1 failure, 2 usage error.\n";

enum {
    OPT_COUNT = 1,
    OPT_TYPE,
    OPT_DIST,
    OPT_SEED,
    OPT_RANGE,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_VERBOSE,
    OPT_HELP,
    OPT_VERSION
};

static const ak_option OPTIONS[] = {
    {"count", 'n', 1, OPT_COUNT},
    {"type", 't', 1, OPT_TYPE},
    {"dist", 0, 1, OPT_DIST},
    {"seed", 's', 1, OPT_SEED},
    {"range", 'r', 1, OPT_RANGE},
    {"format", 0, 1, OPT_FORMAT},
    {"output", 'o', 1, OPT_OUTPUT},
    {"verbose", 'v', 0, OPT_VERBOSE},
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {NULL, 0, 0, 0},
};

static int take_option(datagen_args *a, int id, const char *value, ak_err *e)
{
    switch (id) {
    case OPT_COUNT:
        a->has_n = 1;
        if (ak_parse_count(value, &a->n) != 0)
            return ak_fail(e, "bad -n '%s' (a count such as 1000, 64K, 16M or 1G)", value);
        return 0;
    case OPT_TYPE:
        if (ak_dtype_parse(value, &a->spec.type) != 0)
            return ak_fail(e, "unknown --type '%s'", value);
        return 0;
    case OPT_DIST:
        if (ak_dist_parse(value, &a->spec.dist, &a->spec.entropy_k) != 0)
            return ak_fail(e, "unknown --dist '%s' (uniform, sorted, reversed, equal, "
                              "few-unique, entropy:K with 1 <= K <= 64)", value);
        return 0;
    case OPT_SEED:
        if (ak_parse_u64(value, &a->spec.seed) != 0)
            return ak_fail(e, "bad --seed '%s' (an unsigned 64-bit integer)", value);
        return 0;
    case OPT_FORMAT:
        if (ak_format_parse(value, &a->format) != 0)
            return ak_fail(e, "unknown --format '%s' (use raw or npy)", value);
        return 0;
    case OPT_RANGE: a->range_text = value; return 0;
    case OPT_OUTPUT: a->output = value; return 0;
    case OPT_VERBOSE: a->verbose = 1; return 0;
    case OPT_HELP: a->help = 1; return 0;
    case OPT_VERSION: a->version = 1; return 0;
    default: return ak_fail(e, "internal error: option %d", id);
    }
}

static int finish_args(datagen_args *a, ak_err *e)
{
    if (a->help || a->version)
        return 0;
    if (!a->has_n)
        return ak_fail(e, "missing -n N");
    if (!a->output)
        return ak_fail(e, "missing -o FILE");
    if (a->range_text) {
        if (a->spec.dist == AK_DIST_ENTROPY)
            return ak_fail(e, "--range does not apply to --dist entropy:K");
        if (ak_range_parse(a->range_text, a->spec.type, &a->spec.lo, &a->spec.hi, e) != 0)
            return -1;
        a->spec.has_range = 1;
    }
    if (a->format == AK_FORMAT_AUTO)
        a->format = ak_format_of_path(a->output);
    return 0;
}

int datagen_parse_args(int argc, char **argv, datagen_args *a)
{
    memset(a, 0, sizeof *a);
    a->spec.type = AK_UINT32;
    a->spec.dist = AK_DIST_UNIFORM;
    a->spec.seed = 1;
    a->format = AK_FORMAT_AUTO;
    ak_args it;
    ak_err e;
    ak_args_init(&it, argc, argv);
    int id;
    while ((id = ak_args_next(&it, OPTIONS, &e)) != AK_ARGS_END) {
        if (id == AK_ARGS_ERROR || (id > 0 && take_option(a, id, it.value, &e) != 0))
            return ak_print_usage_error(DATAGEN_TOOL, USAGE, e.msg);
        if (id == AK_ARGS_OPERAND) {
            snprintf(e.msg, sizeof e.msg, "unexpected argument '%s'", it.value);
            return ak_print_usage_error(DATAGEN_TOOL, USAGE, e.msg);
        }
    }
    if (finish_args(a, &e) != 0)
        return ak_print_usage_error(DATAGEN_TOOL, USAGE, e.msg);
    return AK_EXIT_OK;
}

int datagen_print_help(void)
{
    return ak_print_help(DATAGEN_TOOL, USAGE, HELP);
}
