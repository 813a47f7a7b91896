/*
 * segscan_args.c - the command line of segscan: its option table and checks
 * (see segscan_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "segscan_args.h"

static int check_args(void *args, ak_err *e)
{
    const seg_args *a = args;
    if (a->offsets_type != AK_DTYPE_NONE && !a->offsets)
        return ak_fail(e, "--offsets-type needs --offsets");
    if (a->keys_type != AK_DTYPE_NONE && !a->keys) return ak_fail(e, "--keys-type needs --keys");
    if (a->keys_out && !(a->keys && a->reduce))
        return ak_fail(e, "--keys-out needs --keys and --reduce");
    if (a->keys && a->reduce && ak_path_is_stdio(a->keys) && !a->keys_out)
        return ak_fail(e, "--keys from stdin with --reduce needs --keys-out");
    if (a->exclusive && a->reduce) return ak_fail(e, "--exclusive and --reduce exclude each other");
    return ak_check_op_type(NULL, a->type, a->op, e);
}

/* The segments: exactly one of --flags, --offsets and --keys (one_of group 1). */
#define SEGMENTS 1

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT(
        "Computes a prefix scan that restarts at every segment of a file of elements,\n"
        "or one total per segment, on an OpenCL device. Segments come from exactly one\n"
        "of:\n\n"),
    AK_OPTS_FLAGS(seg_args, SEGMENTS,
                  "one head flag per element: element i starts a segment\n"
                  "where flag i is not 0 (element 0 always starts one);\n"
                  "raw uint8, or .npy of uint8 or uint32"),
    {"offsets", 0, AK_OPT_INPUT, offsetof(seg_args, offsets), "FILE",
     "segment start offsets: offsets[0] = 0, non-decreasing,\n"
     "none above the number of elements; equal offsets are\n"
     "empty segments. Raw (type from --offsets-type) or .npy\n"
     "of uint32 or uint64", NULL, SEGMENTS},
    {"offsets-type", 0, AK_OPT_INDEX_TYPE, offsetof(seg_args, offsets_type), "T",
     "uint32 (default) or uint64, for a raw offsets file", NULL, 0},
    {"keys", 0, AK_OPT_INPUT, offsetof(seg_args, keys), "FILE",
     "one key per element: a segment is a run of equal\n"
     "consecutive keys (floats equal by bit pattern: -0.0 and\n"
     "0.0 differ, a NaN equals a NaN of the same bits). Raw\n"
     "(type from --keys-type) or .npy of any element type", NULL, SEGMENTS},
    {"keys-type", 0, AK_OPT_TYPE, offsetof(seg_args, keys_type), "T",
     "element type of a raw keys file (default uint32)", NULL, 0},
    {"keys-out", 0, AK_OPT_TEXT, offsetof(seg_args, keys_out), "FILE",
     "with --keys --reduce: where each segment's key goes, in\n"
     "the keys' format (default: KEYS with '.segreduce'\n"
     "before its extension)", NULL, 0},
    AK_OPT_HELP_TEXT("\n"),
    AK_OPTS_INPUT(seg_args),
    AK_OPTS_OUTPUT(seg_args,
                   "where to write; '-' is stdout. Default: INPUT with\n"
                   "'.segscan' ('.segreduce' with --reduce) before its\n"
                   "extension, stdout when INPUT is '-'. Written to a\n"
                   "temporary file and renamed. The output is .npy when\n"
                   "INPUT is or when OUTPUT ends in .npy"),
    AK_OPTS_TYPE(seg_args),
    AK_OPTS_OP(seg_args),
    AK_OPTS_EXCLUSIVE(seg_args,
                      "exclusive scan: the first element of each segment gets\n"
                      "the identity of OP (default: inclusive)"),
    {"reduce", 0, AK_OPT_FLAG, offsetof(seg_args, reduce), NULL,
     "write one total per segment instead of the scan (an\n"
     "empty segment's total is the identity of OP)", NULL, 0},
    AK_OPTS_MEMORY(seg_args,
                   "device memory segscan may use (suffixes K M G T, e.g.\n"
                   "64M); a larger input goes through in chunks that fit,\n"
                   "the open segment carried from one to the next (integer\n"
                   "results as in one piece). Default: in one piece when it\n"
                   "fits the device's largest buffer, else chunks within\n"
                   "that buffer's size"),
    AK_OPTS_DEVICE(seg_args),
    AK_OPTS_TIME(seg_args),
    AK_OPTS_PROGRESS(seg_args),
    AK_OPTS_SYNC(seg_args),
    AK_OPTS_HELP_VERSION(seg_args),
    AK_OPT_HELP_TEXT(
        "\nInteger add and mul wrap around. The data must fit in one device buffer.\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(segscan, SEGSCAN_TOOL,
              "segscan INPUT (--flags FILE | --offsets FILE [--offsets-type uint32|uint64] |\n"
              "               --keys FILE [--keys-type T] [--keys-out FILE])\n"
              "               [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
              "               [--op add|mul|min|max|and|or|xor] [--exclusive] [--reduce]\n"
              "               [--memory SIZE] [--device SPEC] [--list-devices] [--time]\n"
              "               [--progress] [--help] [--version]",
              OPTIONS, seg_args, NULL, check_args, NULL)
