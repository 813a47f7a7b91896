/*
 * compact_args.c - the command line of compact: its option table and checks
 * (see compact_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "compact_args.h"

#include <string.h>

/* The mode the one mode option given picks, and its expression. */
static void pick_mode(compact_args *a)
{
    if (a->if_expr) {
        a->mode = MODE_IF;
        a->expr = a->if_expr;
    } else if (a->partition_expr) {
        a->mode = MODE_PARTITION;
        a->expr = a->partition_expr;
    } else if (a->reversed_expr) {
        a->mode = MODE_PARTITION_REVERSED;
        a->expr = a->reversed_expr;
    } else if (a->rle) {
        a->mode = MODE_RLE;
    } else {
        a->mode = a->flags ? MODE_FLAGS : MODE_UNIQUE;
    }
}

static int check_values_args(const compact_args *a, ak_err *e)
{
    if (!a->values) {
        if (a->values_type != AK_DTYPE_NONE || a->values_out)
            return ak_fail(e, "--values-type and --values-out need --values");
        return 0;
    }
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

static int check_args(void *args, ak_err *e)
{
    compact_args *a = args;
    pick_mode(a);
    if (a->expr && !*a->expr)
        return ak_fail(e, "the expression is empty");
    if (a->counts_out && a->mode != MODE_RLE) return ak_fail(e, "--counts-out needs --rle");
    if (a->mode == MODE_RLE && a->values)
        return ak_fail(e, "--values does not go with --rle (its counts are the second output)");
    if (a->mode == MODE_RLE && ak_path_is_stdio(a->input) && !a->counts_out)
        return ak_fail(e, "--rle from stdin needs --counts-out");
    return check_values_args(a, e);
}

/* The modes: exactly one of them (one_of group 1). */
#define MODES 1

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT(
        "Keeps the elements of a file that satisfy a condition, in order, on an OpenCL\n"
        "device. Exactly one mode:\n\n"),
    {"if", 0, AK_OPT_TEXT, offsetof(compact_args, if_expr), "EXPR",
     "keep the elements x for which the OpenCL C expression\n"
     "EXPR holds, e.g. 'x % 3 == 0', 'isnan(x)', 'x > 0.5f'", NULL, MODES},
    AK_OPTS_FLAGS(compact_args, MODES,
                  "keep element i where FILE's flag i is not 0; FILE holds\n"
                  "one flag per element: raw uint8, or .npy of uint8 or\n"
                  "uint32"),
    {"partition", 0, AK_OPT_TEXT, offsetof(compact_args, partition_expr), "EXPR",
     "write every element: those for which EXPR holds first,\n"
     "then the others, both in input order", NULL, MODES},
    {"partition-reversed", 0, AK_OPT_TEXT, offsetof(compact_args, reversed_expr), "EXPR",
     "as --partition, but the others in reverse input order\n"
     "(the last one first): one pass on a GPU", NULL, MODES},
    {"unique", 0, AK_OPT_FLAG, offsetof(compact_args, unique), NULL,
     "drop each element equal to its predecessor (floats\n"
     "compare with ==: -0.0 equals 0.0, NaN equals nothing)", NULL, MODES},
    {"rle", 0, AK_OPT_FLAG, offsetof(compact_args, rle), NULL,
     "run-length encoding: the first element of each run of\n"
     "equal elements (floats equal by bit pattern: -0.0 and\n"
     "0.0 differ, a NaN equals a NaN of the same bits) to the\n"
     "output, the run's length (uint64) to --counts-out", NULL, MODES},
    AK_OPT_HELP_TEXT("\n"),
    AK_OPTS_INPUT(compact_args),
    AK_OPTS_OUTPUT(compact_args,
                   "where to write; '-' is stdout. Default: INPUT with\n"
                   "'.compact' before its extension, stdout when INPUT is\n"
                   "'-'. Written to a temporary file and renamed."),
    AK_OPTS_TYPE(compact_args),
    AK_OPTS_VALUES(compact_args,
                   "values carried along with the elements, in every mode:\n"
                   "value i goes where element i goes (--unique keeps the\n"
                   "value of the first element of each run); as many as\n"
                   "INPUT has, of 4 or 8 bytes"),
    {"values-type", 0, AK_OPT_TYPE, offsetof(compact_args, values_type), "T",
     "element type of a raw values file (default uint32)", NULL, 0},
    {"values-out", 0, AK_OPT_TEXT, offsetof(compact_args, values_out), "FILE",
     "where the values go (default: FILE with '.compact'\n"
     "before its extension)", NULL, 0},
    {"counts-out", 0, AK_OPT_TEXT, offsetof(compact_args, counts_out), "FILE",
     "--rle: where the run lengths go, uint64 in INPUT's\n"
     "format (default: INPUT with '.counts' before its\n"
     "extension)", NULL, 0},
    AK_OPTS_IN_PLACE(compact_args),
    AK_OPTS_MEMORY(compact_args,
                   "device memory compact may use (suffixes K M G T, e.g.\n"
                   "64M); a larger input goes through in chunks that fit,\n"
                   "the output as in one piece. Default: in one piece when\n"
                   "it fits the device's largest buffer, else chunks within\n"
                   "that buffer's size"),
    AK_OPTS_FORMAT(compact_args),
    AK_OPTS_DEVICE(compact_args),
    AK_OPTS_TIME(compact_args),
    AK_OPTS_PROGRESS(compact_args),
    AK_OPTS_SYNC(compact_args),
    AK_OPTS_HELP_VERSION(compact_args),
    AK_OPT_HELP_TEXT(
        "\nPrints 'selected K of N' on stderr (--rle: 'K runs in N elements').\n"
        "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(compact, COMPACT_TOOL,
              "compact INPUT [-o OUTPUT] [--type " AK_SK_TYPE_NAMES "]\n"
              "               (--if EXPR | --flags FILE | --partition EXPR |\n"
              "                --partition-reversed EXPR | --unique | --rle [--counts-out FILE])\n"
              "               [--values FILE --values-type T [--values-out FILE]]\n"
              "               [--in-place] [--format raw|npy] [--memory SIZE] [--device SPEC]\n"
              "               [--list-devices] [--time] [--progress] [--help] [--version]",
              OPTIONS, compact_args, NULL, check_args, NULL)
