/*
 * radixsort_args.c - the command line of radixsort: its option table and
 * checks (see radixsort_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "radixsort_args.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

int radixsort_parse_bits(void *args, const char *s, ak_err *e)
{
    sort_args *a = args;
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

int radixsort_check_args(void *args, ak_err *e)
{
    const sort_args *a = args;
    if (!a->values && (a->values_type != AK_DTYPE_NONE || a->values_out))
        return ak_fail(e, "--values-type and --values-out need --values");
    if (a->has_bits && a->type != AK_DTYPE_NONE && a->end_bit > 8 * ak_dtype_size(a->type))
        return ak_fail(e, "--bits %u:%u exceeds the %zu bits of %s", a->begin_bit, a->end_bit,
                       8 * ak_dtype_size(a->type), ak_dtype_name(a->type));
    return 0;
}

/* radixsort's own checks besides those radixsort-mpi shares: --segments
 * (which radixsort-mpi does not take). */
static int check_radixsort(void *args, ak_err *e)
{
    const sort_args *a = args;
    if (radixsort_check_args(args, e) != 0)
        return -1;
    if (a->offsets_type != AK_DTYPE_NONE && !a->segments)
        return ak_fail(e, "--offsets-type needs --segments");
    if (a->segments && (a->memory || a->host_memory || a->temp_dir))
        return ak_fail(e, "--segments sorts in one piece in device memory: --memory, "
                       "--host-memory and --temp-dir do not apply to it");
    return 0;
}

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("Sorts a file of keys on an OpenCL device (stable LSD radix sort).\n\n"),
    AK_OPTS_OPERAND(sort_args, "INPUT",
                    "raw little-endian keys, or a NumPy .npy file (1-D,\n"
                    "little-endian); '-' reads stdin"),
    AK_OPTS_OUTPUT(sort_args,
                   "where to write the sorted keys; '-' is stdout. Default:\n"
                   "INPUT with '.sorted' before its extension\n"
                   "(keys.bin -> keys.sorted.bin; .npy stays .npy), stdout\n"
                   "when INPUT is '-'. Written to a temporary file and\n"
                   "renamed, so a failure leaves no partial output."),
    RADIXSORT_OPTS_KEYS_VALUES,
    {"segments", 0, AK_OPT_INPUT, offsetof(sort_args, segments), "OFFSETS",
     "sort within segments only: a file of segment start\n"
     "offsets (offsets[0] = 0, non-decreasing, none above the\n"
     "number of keys; equal offsets are empty segments), raw\n"
     "(type from --offsets-type) or .npy. The keys (and values)\n"
     "are sorted in one piece in device memory", NULL, 0},
    {"offsets-type", 0, AK_OPT_INDEX_TYPE, offsetof(sort_args, offsets_type), "T",
     "uint32 (default) or uint64, for a raw --segments file", NULL, 0},
    RADIXSORT_OPTS_MEMORY,
    AK_OPTS_IN_PLACE(sort_args),
    AK_OPTS_CHECK(sort_args,
                  "verify the result on the host (sorted in the requested\n"
                  "order, a permutation of the input) before writing it"),
    AK_OPTS_DEVICE(sort_args),
    AK_OPTS_TIME(sort_args),
    AK_OPTS_PROGRESS(sort_args),
    AK_OPTS_SYNC(sort_args),
    AK_OPTS_HELP_VERSION(sort_args),
    AK_OPT_HELP_TEXT(
        "\nFloats sort in IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(radixsort, RADIXSORT_TOOL,
              "radixsort INPUT [-o OUTPUT] [--type " AK_SK_KEY_TYPE_NAMES "]\n"
              "                 [--descending] [--bits B:E] [--values FILE [--values-type TYPE]\n"
              "                 [--values-out FILE]] [--segments OFFSETS\n"
              "                 [--offsets-type uint32|uint64]] [--memory SIZE] [--host-memory SIZE]\n"
              "                 [--temp-dir DIR] [--in-place] [--check]\n"
              "                 [--device SPEC] [--list-devices] [--time] [--progress] [--help]\n"
              "                 [--version]",
              OPTIONS, sort_args, NULL, check_radixsort, NULL)

int radixsort_check_key_type(const sort_args *a, const char *name, ak_dtype t, ak_err *e)
{
    if (ak_check_sk_key_type(name, t, "sorted", e) != 0)
        return -1;
    unsigned bits = 8 * (unsigned)ak_dtype_size(t);
    if (a->has_bits && a->end_bit > bits)
        return ak_fail(e, "%s: --bits %u:%u exceeds the %u bits of %s", name, a->begin_bit,
                       a->end_bit, bits, ak_dtype_name(t));
    return 0;
}

int radixsort_fail_budget(const sort_args *a, const char *name, const char *detail, ak_err *e)
{
    char d[sizeof e->msg];
    snprintf(d, sizeof d, "%s", detail ? detail : ""); /* detail may be e->msg */
    if (a->memory && a->host_memory)
        return ak_fail(e, "--memory %zu and --host-memory %zu are too small to sort %s: %s",
                       a->memory, a->host_memory, name, d);
    return ak_fail(e, "--%s %zu is too small to sort %s: %s", a->memory ? "memory" : "host-memory",
                   a->memory ? a->memory : a->host_memory, name, d);
}
