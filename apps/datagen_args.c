/*
 * datagen_args.c - the command line of datagen: its option table and checks
 * (see datagen_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "datagen_args.h"

static int parse_count(void *args, const char *value, ak_err *e)
{
    datagen_args *a = args;
    a->has_n = 1;
    if (ak_parse_count(value, &a->n) != 0)
        return ak_fail(e, "bad -n '%s' (a count such as 1000, 64K, 16M or 1G)", value);
    return 0;
}

static int parse_dist(void *args, const char *value, ak_err *e)
{
    ak_gen_spec *spec = &((datagen_args *)args)->spec;
    if (ak_dist_parse(value, &spec->dist, &spec->entropy_k) == 0)
        return 0;
    return ak_fail(e, "unknown --dist '%s' (uniform, sorted, reversed, equal, few-unique, "
                      "entropy:K with 1 <= K <= 64)", value);
}

static void set_defaults(void *args)
{
    datagen_args *a = args;
    a->spec.type = AK_UINT32;
    a->spec.dist = AK_DIST_UNIFORM;
    a->spec.seed = 1;
}

/* Checks the command line and completes it: the range, once the type is
 * known, and the format of the output. */
static int check_args(void *args, ak_err *e)
{
    datagen_args *a = args;
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

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("Writes N pseudo-random elements, raw little-endian or NumPy .npy.\n\n"),
    {"count", 'n', AK_OPT_CUSTOM, 0, "N",
     "number of elements; suffixes K M G T are powers of\n"
     "two (16M = 16777216)", parse_count, 0},
    {"type", 't', AK_OPT_ANY_TYPE, offsetof(datagen_args, spec.type), "TYPE",
     "uint32 (default), int32, uint64, int64, float32,\n"
     "float64, uint8", NULL, 0},
    {"dist", 0, AK_OPT_CUSTOM, 0, "DIST",
     "uniform (default): integers over the whole type,\n"
     "  floats in [0, 1)\n"
     "sorted, reversed: uniform values sorted ascending or\n"
     "  descending\n"
     "equal: one uniform value repeated\n"
     "few-unique: 16 distinct uniform values\n"
     "entropy:K: AND of K random words (1 <= K <= 64), each\n"
     "  bit set with probability 2^-K", parse_dist, 0},
    {"seed", 's', AK_OPT_U64, offsetof(datagen_args, spec.seed), "S",
     "64-bit seed (default 1); same seed, same file", NULL, 0},
    {"range", 'r', AK_OPT_TEXT, offsetof(datagen_args, range_text), "LO:HI",
     "uniform values in [LO, HI] for integers, [LO, HI) for\n"
     "floats (not with entropy:K)", NULL, 0},
    {"format", 0, AK_OPT_FORMAT, offsetof(datagen_args, format), "FMT",
     "raw or npy (default: npy when FILE ends in .npy)", NULL, 0},
    AK_OPTS_OUTPUT(datagen_args, "where to write; '-' is stdout"),
    {"verbose", 'v', AK_OPT_FLAG, offsetof(datagen_args, verbose), NULL,
     "say what was written, on stderr", NULL, 0},
    AK_OPTS_HELP_VERSION(datagen_args),
    AK_OPT_HELP_TEXT("\nThe generator is xoshiro256** seeded through splitmix64. Exit status:\n"
                     "0 success, 1 failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(datagen, DATAGEN_TOOL,
              "datagen -n N [--type TYPE] [--dist DIST] [--seed S] [--range LO:HI]\n"
              "               [--format raw|npy] [-v] -o FILE",
              OPTIONS, datagen_args, set_defaults, check_args, NULL)
