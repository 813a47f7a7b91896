/*
 * scan_args.c - the command line of scan: its option table and checks (see
 * scan_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "scan_args.h"

static int parse_chunk(void *args, const char *value, ak_err *e)
{
    scan_args *a = args;
    if (ak_parse_count(value, &a->chunk) != 0 || a->chunk < 2)
        return ak_fail(e, "bad --chunk '%s' (a count of at least 2, e.g. 64M)", value);
    return 0;
}

static int check_args(void *args, ak_err *e)
{
    const scan_args *a = args;
    return ak_check_op_type(NULL, a->type, a->op, e);
}

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("Computes the prefix scan of a file of elements on an OpenCL device.\n\n"),
    AK_OPTS_OPERAND(scan_args, "INPUT",
                    "raw little-endian elements, or a NumPy .npy file (1-D,\n"
                    "little-endian); '-' reads stdin (.npy recognised by its\n"
                    "magic)"),
    AK_OPTS_OUTPUT(scan_args,
                   "where to write; '-' is stdout. Default: INPUT with\n"
                   "'.scan' before its extension (data.bin -> data.scan.bin),\n"
                   "stdout when INPUT is '-'. Written to a temporary file\n"
                   "and renamed, so a failure leaves no partial output."),
    AK_OPTS_TYPE(scan_args),
    AK_OPTS_OP(scan_args),
    AK_OPTS_EXCLUSIVE(scan_args,
                      "exclusive scan: out[0] is the identity of OP, out[i]\n"
                      "combines in[0..i-1] (default: inclusive, in[0..i])"),
    {"in-place", 0, AK_OPT_FLAG, offsetof(scan_args, in_place), NULL,
     "allow the output to replace INPUT (default output is\n"
     "then INPUT itself)", NULL, 0},
    AK_OPTS_FORMAT(scan_args),
    AK_OPTS_MEMORY(scan_args,
                   "device memory the scan may use (suffixes K M G T, e.g.\n"
                   "64M); a larger input goes through in chunks that fit,\n"
                   "each carrying the running total into the next (integer\n"
                   "results as in one piece). Default: in one piece when it\n"
                   "fits the device's largest buffer, else chunks within\n"
                   "that buffer's size"),
    {"chunk", 0, AK_OPT_CUSTOM, 0, "N",
     "scan at most N input elements per device pass (suffixes\n"
     "K M G), within --memory too; float results depend on\n"
     "the chunks", parse_chunk, 0},
    AK_OPTS_DEVICE(scan_args),
    AK_OPTS_CHECK(scan_args,
                  "check the result against a serial scan on the host and\n"
                  "say so on stderr (exit 1 on a mismatch)"),
    AK_OPTS_TIME(scan_args),
    AK_OPTS_PROGRESS(scan_args),
    AK_OPTS_SYNC(scan_args),
    AK_OPTS_HELP_VERSION(scan_args),
    AK_OPT_HELP_TEXT("\nInteger add and mul wrap around. Exit status: 0 success, 1 bad input or\n"
                     "failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(scan, SCAN_TOOL,
              "scan INPUT [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
              "            [--op add|mul|min|max|and|or|xor] [--exclusive] [--in-place]\n"
              "            [--format raw|npy] [--memory SIZE] [--chunk N] [--device SPEC]\n"
              "            [--list-devices] [--check] [--time] [--progress] [--help]\n"
              "            [--version]",
              OPTIONS, scan_args, NULL, check_args, NULL)
