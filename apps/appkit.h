/*
 * appkit.h - code shared by the scankit command-line programs.
 *
 *   errors     ak_err carries one line of text; main prints it as "tool: text".
 *   types      element types of files (the scankit types plus uint8 flags).
 *   options    option tables: parsing and --help from one table of
 *              option rows; number parsers.
 *   files      element files: raw little-endian or NumPy .npy (v1/v2/v3),
 *              read whole; written through a temporary file put into place
 *              at the end (linked where O_TMPFILE exists, else renamed).
 *   data       the input distributions of datagen, drawn from sk_rng
 *              (common/sk_rng.h: xoshiro256** seeded by splitmix64), so
 *              that tests and benchmarks regenerate exactly the data
 *              datagen writes.
 *   timing     a monotonic clock and the progress line of long phases.
 *   device     (appkit_cl.c) --list-devices, opening the context, device
 *              buffers with timed transfers, build statistics and the
 *              device lines of --time.
 *
 * Functions that can fail return 0 on success and -1 on failure, with the
 * reason in the ak_err they were given. Nothing here prints except the
 * ak_print_* and progress functions and those whose result is an exit
 * code (ak_parse_command_line, ak_print_cli_help, ak_require_little_endian,
 * ak_exit_status, ak_list_devices), and nothing exits. The run of a program
 * (its phases, --help, --version, --list-devices, --time) is appkit_run.h.
 *
 * Files are little-endian; the programs run on little-endian hosts only
 * (ak_host_is_little_endian() lets a program refuse to run elsewhere).
 */
#ifndef SK_APPKIT_H
#define SK_APPKIT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scankit.h"
#include "sk_rng.h"

#if defined(__GNUC__)
#define AK_PRINTF(fmt_index, first_arg) \
    __attribute__((format(printf, fmt_index, first_arg)))
#else
#define AK_PRINTF(fmt_index, first_arg)
#endif

/* ------------------------------------------------------------------------ */
/* Exit codes and errors                                                     */
/* ------------------------------------------------------------------------ */

enum { AK_EXIT_OK = 0, AK_EXIT_FAIL = 1, AK_EXIT_USAGE = 2 };

/*! ak_err : the reason for the last failure, one line without the tool name. */
typedef struct ak_err {
    char msg[4096]; /* one line; a longer reason is cut */
} ak_err;

/*! ak_fail() : formats the reason into *e. @return -1, for `return ak_fail(...)`. */
int ak_fail(ak_err *e, const char *fmt, ...) AK_PRINTF(2, 3);

/*! ak_fail_sk() : a scankit failure: "<what>: <status text>: <context detail>".
 *  ctx may be NULL. @return -1. */
int ak_fail_sk(ak_err *e, const sk_context *ctx, sk_status st, const char *what);

/*! ak_print_error() : writes "tool: msg\n" to stderr as exactly one line
 *  (newlines and tabs inside msg become spaces). */
void ak_print_error(const char *tool, const char *msg);

/*! ak_print_usage_error() : "tool: msg" then the one-line usage and a hint
 *  to run --help. @return AK_EXIT_USAGE. */
int ak_print_usage_error(const char *tool, const char *usage, const char *msg);

/*! ak_host_is_little_endian() : @return 1 on a little-endian host. */
int ak_host_is_little_endian(void);

/*! ak_require_little_endian() : on a big-endian host prints "tool: this
 *  program runs on little-endian hosts only". @return AK_EXIT_OK on a
 *  little-endian host, else AK_EXIT_FAIL. */
int ak_require_little_endian(const char *tool);

/*! ak_finish_stdout() : flushes stdout; a failure (a write before it
 *  included) is "<tool>: stdout: write failed: <reason>" on stderr.
 *  @return AK_EXIT_OK or AK_EXIT_FAIL. */
int ak_finish_stdout(const char *tool);

/*! ak_print_version() : --version: "<tool> (scankit) <version>" on stdout.
 *  @return as ak_finish_stdout(). */
int ak_print_version(const char *tool);

/*! ak_exit_status() : the end of a program's run: AK_EXIT_OK when rc is 0,
 *  else prints e->msg with ak_print_error() and returns AK_EXIT_FAIL. */
int ak_exit_status(const char *tool, int rc, const ak_err *e);

/* ------------------------------------------------------------------------ */
/* Element types                                                             */
/* ------------------------------------------------------------------------ */

/*! ak_dtype : element types of files: every sk_type (SK_ALL_TYPES_MAP's
 *  rows), with the value of the matching sk_type (AK_INT32 == SK_INT32).
 *  The six of SK_TYPE_MAP are what every program computes with; the 8- and
 *  16-bit ones are sort keys (and AK_UINT8 flag arrays). */
typedef enum ak_dtype {
    AK_DTYPE_NONE = -1,
#define AK_DTYPE_ENUM_(suffix, ...) AK_##suffix = SK_##suffix,
    SK_ALL_TYPES_MAP(AK_DTYPE_ENUM_)
#undef AK_DTYPE_ENUM_
} ak_dtype;

#define AK_DTYPE_COUNT SK_KEY_TYPE_COUNT

size_t ak_dtype_size(ak_dtype t);           /* 0 for an invalid type       */
const char *ak_dtype_name(ak_dtype t);      /* "uint32", ...; "?" if invalid */
const char *ak_dtype_npy_descr(ak_dtype t); /* "<u4", ..., "|u1"            */
int ak_dtype_is_float(ak_dtype t);
int ak_dtype_is_signed(ak_dtype t);         /* signed integer types        */

/*! ak_dtype_parse() : "int32", "uint32", "int64", "uint64", "float32",
 *  "float64", "uint8", "int8", "uint16", "int16", "float16" and the
 *  aliases "i32" "int" "u32" "uint" "i64" "long" "u64" "ulong" "f32"
 *  "float" "f64" "double" "u8" "uchar" "i8" "char" "u16" "ushort" "i16"
 *  "short" "f16" "half". @return 0 or -1. */
int ak_dtype_parse(const char *name, ak_dtype *out);

/*! ak_dtype_to_sk() : @return 0 and sets *out for the six scankit types,
 *  -1 for AK_UINT8 or an invalid type. */
int ak_dtype_to_sk(ak_dtype t, sk_type *out);

/*! ak_dtype_to_sk_key() : @return 0 and sets *out for every sort key type
 *  (every sk_type, the 8- and 16-bit ones included), -1 for an invalid
 *  type. */
int ak_dtype_to_sk_key(ak_dtype t, sk_type *out);

/*! ak_op_is_bitwise() : 1 for SK_OP_AND, SK_OP_OR and SK_OP_XOR. */
int ak_op_is_bitwise(sk_op op);

/*! ak_check_op_type() : fails with "[name: ]--op OP needs an integer type,
 *  not T" for a bitwise op on a float type (name NULL: no prefix).
 *  @return 0 or -1. */
int ak_check_op_type(const char *name, ak_dtype t, sk_op op, ak_err *e);

/*! ak_check_sk_type() : the elements of the file `name` are of one of the
 *  six scankit types, else fails with "name: element type T cannot be
 *  <verb> (use ...)". @return 0 or -1. */
int ak_check_sk_type(const char *name, ak_dtype t, const char *verb, ak_err *e);

/*! ak_check_sk_key_type() : the elements of the file `name` are sort keys
 *  (of any sk_type), else fails with "name: element type T cannot be
 *  <verb> (use ...)". @return 0 or -1. */
int ak_check_sk_key_type(const char *name, ak_dtype t, const char *verb, ak_err *e);

/*! ak_check_scan_type() : the elements of the file `name` can be scanned
 *  with op: ak_check_sk_type(name, t, "scanned") and ak_check_op_type().
 *  @return 0 or -1. */
int ak_check_scan_type(const char *name, ak_dtype t, sk_op op, ak_err *e);

/*! ak_check_count() : a file read beside the elements has one entry per
 *  element: fails with "<name>: N <what> for M <of>" (e.g. "f.bin: 7 flags
 *  for 8 elements") unless n == want. @return 0 or -1. */
int ak_check_count(const char *name, size_t n, const char *what, size_t want, const char *of,
                   ak_err *e);

/*! ak_check_value_type() : values that move with keys (the sorts, the
 *  merge) are of 4 or 8 bytes: else "<name>: values must be of 4 or 8
 *  bytes, not <type>". @return 0 or -1. */
int ak_check_value_type(const char *name, ak_dtype t, ak_err *e);

/*! The list of type names for usage text. */
#define AK_SK_TYPE_NAMES "uint32|int32|uint64|int64|float32|float64"

/*! The list of sort key type names for usage text. */
#define AK_SK_KEY_TYPE_NAMES AK_SK_TYPE_NAMES "|uint8|int8|uint16|int16|float16"

/* ------------------------------------------------------------------------ */
/* Command-line options                                                      */
/* ------------------------------------------------------------------------ */

/*! ak_opt_kind : what an option's value is and where it goes. Each kind
 *  but AK_OPT_CUSTOM reads and stores its value itself; the type kinds
 *  refuse a type outside their list ("unknown --type 'x' (use ...)") and
 *  default to AK_DTYPE_NONE. */
typedef enum ak_opt_kind {
    AK_OPT_END = 0,    /* ends a table                                           */
    AK_OPT_OPERAND,    /* the operand, an input file ("-": stdin): const char *
                          (several: see AK_OPT_MAX_VALUES)                      */
    AK_OPT_INPUT,      /* another input file ("-": stdin): const char *        */
    AK_OPT_TEXT,       /* the value as given: const char *                      */
    AK_OPT_FLAG,       /* takes no value; 1 when given: int                     */
    AK_OPT_U64,        /* decimal or 0x hex: uint64_t                           */
    AK_OPT_TYPE,       /* one of the six scankit types: ak_dtype                */
    AK_OPT_FLOAT_TYPE, /* float32 or float64: ak_dtype                          */
    AK_OPT_INDEX_TYPE, /* uint32 or uint64: ak_dtype                            */
    AK_OPT_ANY_TYPE,   /* the six scankit types and uint8: ak_dtype            */
    AK_OPT_KEY_TYPE,   /* a sort key: every sk_type, 8 and 16 bits too: ak_dtype */
    AK_OPT_OP,         /* add, mul, min, max, and, or, xor: sk_op (default add) */
    AK_OPT_FORMAT,     /* raw or npy: ak_format (default AK_FORMAT_AUTO)        */
    AK_OPT_MEMORY,     /* bytes, suffixes K M G T, above 0: size_t (0 unless
                          given; see ak_parse_memory)                         */
    AK_OPT_CUSTOM,     /* the row's `parse` reads and stores the value          */
    AK_OPT_PROSE       /* no option: its help, as it is, in --help (the text
                          before and after the options, a blank line)           */
} ak_opt_kind;

/*! ak_opt_fn : for an AK_OPT_CUSTOM row, parses `value` (NULL for a row
 *  without a value) into the program's arguments; for any other row, runs
 *  after the value was stored (with the first, for a row of several
 *  values). @return 0, or -1 with the reason in *e. */
typedef int (*ak_opt_fn)(void *args, const char *value, ak_err *e);

/*! ak_opt : one row of a program's option table. The table gives both the
 *  parsing (ak_parse_command_line) and the option lines of --help
 *  (ak_print_cli_help); it ends with AK_OPT_TABLE_END. */
typedef struct ak_opt {
    const char *long_name;  /* "output"; NULL for the operand and prose       */
    char short_name;        /* 'o'; 0 when there is none                      */
    ak_opt_kind kind;
    size_t offset;          /* offsetof() the destination in the arguments    */
    const char *value_name; /* the value in --help ("FILE"), the operand's
                               name ("INPUT"); NULL: the option takes none;
                               one value per word (see AK_OPT_MAX_VALUES)   */
    const char *help;       /* --help text; each '\n' starts a line under it  */
    ak_opt_fn parse;        /* see ak_opt_fn; may be NULL but for CUSTOM      */
    int one_of;             /* rows with the same number > 0: exactly one of
                               them must be given ("give exactly one of ...") */
} ak_opt;

#define AK_OPT_TABLE_END {NULL, 0, AK_OPT_END, 0, NULL, NULL, NULL, 0}

/*! AK_OPT_MAX_VALUES : the most values one row takes. A row takes one
 *  value per word of its value_name: "--values VA VB" takes the next two
 *  words of the command line (or "--values=VA VB"), and an operand row
 *  named "A B" the first two operands. A row of several values is of a
 *  text kind (AK_OPT_OPERAND, AK_OPT_INPUT, AK_OPT_TEXT); its destination
 *  is an array of that many `const char *`, and messages name each value
 *  by its word ("missing B", "--values VA and --values VB cannot both be
 *  stdin"). */
#define AK_OPT_MAX_VALUES 4

/*! A row of prose in --help, e.g. what the program does, or "\n". */
#define AK_OPT_HELP_TEXT(text) {NULL, 0, AK_OPT_PROSE, 0, NULL, text, NULL, 0}

/* Rows that several programs share, for arguments of type T with the
 * field each names. */

/*! The operand (field `input`), named `name` ("INPUT") in messages. */
#define AK_OPTS_OPERAND(T, name, help) \
    {NULL, 0, AK_OPT_OPERAND, offsetof(T, input), name, help, NULL, 0}

/*! INPUT, a file of elements (field `input`). */
#define AK_OPTS_INPUT(T)                                                    \
    AK_OPTS_OPERAND(T, "INPUT",                                             \
                    "raw little-endian elements, or a NumPy .npy file (1-D,\n" \
                    "little-endian); '-' reads stdin")

/*! -o, --output FILE (field `output`). */
#define AK_OPTS_OUTPUT(T, help) \
    {"output", 'o', AK_OPT_TEXT, offsetof(T, output), "FILE", help, NULL, 0}

/*! -e, --exclusive (field `exclusive`). */
#define AK_OPTS_EXCLUSIVE(T, help) \
    {"exclusive", 'e', AK_OPT_FLAG, offsetof(T, exclusive), NULL, help, NULL, 0}

/*! --check (field `check`). */
#define AK_OPTS_CHECK(T, help) \
    {"check", 0, AK_OPT_FLAG, offsetof(T, check), NULL, help, NULL, 0}

/*! --flags FILE, an input file (field `flags`), in the one_of group `group`. */
#define AK_OPTS_FLAGS(T, group, help) \
    {"flags", 0, AK_OPT_INPUT, offsetof(T, flags), "FILE", help, NULL, group}

/*! --values FILE, an input file (field `values`). */
#define AK_OPTS_VALUES(T, help) \
    {"values", 0, AK_OPT_INPUT, offsetof(T, values), "FILE", help, NULL, 0}

/*! --type (field `type`). */
#define AK_OPTS_TYPE(T)                                                     \
    {"type", 't', AK_OPT_TYPE, offsetof(T, type), "TYPE",                   \
     "element type of a raw file (default uint32); must agree\n"           \
     "with the dtype of a .npy file", NULL, 0}

/*! --type of keys (field `type`). */
#define AK_OPTS_KEY_TYPE(T)                                                 \
    {"type", 't', AK_OPT_KEY_TYPE, offsetof(T, type), "TYPE",               \
     "key type of a raw file (default uint32); must agree with\n"          \
     "the dtype of a .npy file", NULL, 0}

/*! -r, --descending (field `descending`). */
#define AK_OPTS_DESCENDING(T, help) \
    {"descending", 'r', AK_OPT_FLAG, offsetof(T, descending), NULL, help, NULL, 0}

/*! --values-type and --values-out F (fields `values_type` and `values_out`)
 *  of the values that move with keys. */
#define AK_OPTS_VALUES_TYPE_OUT(T, out_help)                                \
    {"values-type", 0, AK_OPT_TYPE, offsetof(T, values_type), "T",          \
     "type of a raw values file (default uint32; any of the\n"             \
     "key types)", NULL, 0},                                                \
    {"values-out", 0, AK_OPT_TEXT, offsetof(T, values_out), "F", out_help, NULL, 0}

/*! --op (field `op`). */
#define AK_OPTS_OP(T)                                                       \
    {"op", 0, AK_OPT_OP, offsetof(T, op), "OP",                             \
     "add (default), mul, min, max, and, or, xor; and/or/xor\n"            \
     "need an integer type", NULL, 0}

/*! --format (field `format`). */
#define AK_OPTS_FORMAT(T)                                                   \
    {"format", 0, AK_OPT_FORMAT, offsetof(T, format), "FMT",                \
     "output layout, raw or npy (default: as the input, npy\n"             \
     "when OUTPUT ends in .npy)", NULL, 0}

/*! --in-place (field `in_place`). */
#define AK_OPTS_IN_PLACE(T)                                                 \
    {"in-place", 0, AK_OPT_FLAG, offsetof(T, in_place), NULL,               \
     "allow the output to replace INPUT", NULL, 0}

/*! --memory SIZE (field `memory`, a size_t: 0 unless given), the device
 *  memory a program may use. */
#define AK_OPTS_MEMORY(T, help) \
    {"memory", 0, AK_OPT_MEMORY, offsetof(T, memory), "SIZE", help, NULL, 0}

/*! --device and --list-devices (fields `device` and `list_devices`). */
#define AK_OPTS_DEVICE(T)                                                   \
    {"device", 'd', AK_OPT_TEXT, offsetof(T, device), "SPEC",               \
     "OpenCL device: 'P:D' indices, an index N, or part of\n"              \
     "the platform/device name (default $SCANKIT_DEVICE, else\n"           \
     "the first GPU, else the first device)", NULL, 0},                     \
    {"list-devices", 0, AK_OPT_FLAG, offsetof(T, list_devices), NULL,       \
     "list the OpenCL devices and exit", NULL, 0}

/*! --time (field `time`). */
#define AK_OPTS_TIME(T)                                                     \
    {"time", 0, AK_OPT_FLAG, offsetof(T, time), NULL,                       \
     "print a time breakdown to stderr", NULL, 0}

/*! --progress (field `progress`). */
#define AK_OPTS_PROGRESS(T)                                                 \
    {"progress", 0, AK_OPT_FLAG, offsetof(T, progress), NULL,               \
     "show the progress of phases over a second on stderr even\n"          \
     "when it is not a terminal (a line every two seconds)", NULL, 0}

/*! --sync (field `sync`): outputs on the disk before they are put into
 *  place (see ak_output.sync). */
#define AK_OPTS_SYNC(T)                                                     \
    {"sync", 0, AK_OPT_FLAG, offsetof(T, sync), NULL,                       \
     "put an output into place only once it is on the disk\n"             \
     "(fsync; default: once it is complete, as cp and sort do)", NULL, 0}

/*! --help and --version (fields `help` and `version`). */
#define AK_OPTS_HELP_VERSION(T)                                             \
    {"help", 'h', AK_OPT_FLAG, offsetof(T, help), NULL,                     \
     "show this help and exit", NULL, 0},                                   \
    {"version", 'V', AK_OPT_FLAG, offsetof(T, version), NULL,               \
     "show the version and exit", NULL, 0}

/*! ak_cli : a program's command line. */
typedef struct ak_cli {
    const char *tool;
    const char *usage;     /* the one-line usage (lines after the first
                              indented under it)                           */
    const ak_opt *options;
    size_t args_size;      /* sizeof the program's arguments              */
    void (*defaults)(void *args);         /* after the kinds' defaults; may be NULL */
    int (*check)(void *args, ak_err *e);  /* once all are read, unless --help,
                                             --version or --list-devices;
                                             may complete them; may be NULL */
    void (*free_args)(void *args);        /* frees what parsing allocated; may be NULL */
} ak_cli;

/*! AK_DEFINE_CLI() : defines `const ak_cli <name>_cli` (tool, usage, the
 *  table `options`, arguments of type T and the hooks of ak_cli) and
 *  `int <name>_parse_args(int argc, char **argv, T *args)`, which runs
 *  ak_parse_command_line() on it. */
#define AK_DEFINE_CLI(name, tool, usage, options, T, defaults, check, free_args)            \
    const ak_cli name##_cli = {tool, usage, options, sizeof(T), defaults, check, free_args}; \
    int name##_parse_args(int argc, char **argv, T *args)                                   \
    {                                                                                       \
        return ak_parse_command_line(&name##_cli, argc, argv, args);                        \
    }

/*! ak_args : iteration state over argv. `value` is the option's value or
 *  the operand's text after ak_args_next(); `values` holds every value of
 *  an option that takes several (values[0] is `value`). */
typedef struct ak_args {
    int argc;
    char **argv;
    int next;
    int operands_only; /* after "--" */
    const char *value;
    const char *values[AK_OPT_MAX_VALUES];
} ak_args;

enum { AK_ARGS_END = 0, AK_ARGS_OPERAND = -1, AK_ARGS_ERROR = -2, AK_ARGS_OPTION = 1 };

void ak_args_init(ak_args *a, int argc, char **argv);

/*! ak_args_next() : reads the next option or operand. Accepts "--name",
 *  "--name=value", "--name value", "-x", "-x value", "-xvalue", "--" and
 *  "-" (an operand); an option of several values takes the words after
 *  its first ("--values VA VB", "--values=VA VB"). *opt is the option's
 *  row. @return AK_ARGS_OPTION, AK_ARGS_OPERAND, AK_ARGS_END, or
 *  AK_ARGS_ERROR (unknown option, missing or unexpected value; the reason
 *  is in *e). */
int ak_args_next(ak_args *a, const ak_opt *opts, const ak_opt **opt, ak_err *e);

/*! ak_parse_command_line() : zeroes *args, sets each row's default, then
 *  cli->defaults; reads argv with ak_args_next() into the rows'
 *  destinations ("more than one <operand> given" for a second operand,
 *  "unexpected argument '...' after A B" for a third where the operand
 *  row takes two, "unexpected argument '...'" where the table has none).
 *  Unless --help, --version or --list-devices was given it then checks
 *  that every operand was given ("missing <operand>"), that exactly one
 *  option of each one_of group was ("give exactly one of ..."), that at
 *  most one input file is stdin ("<a> and <b> cannot both be stdin"),
 *  that --in-place has an input file ("--in-place needs an input file,
 *  not stdin"), then runs cli->check.
 *  The first failure is printed with ak_print_usage_error(). Opens no file
 *  and no device. @return AK_EXIT_OK or AK_EXIT_USAGE. */
int ak_parse_command_line(const ak_cli *cli, int argc, char **argv, void *args);

/*! ak_print_cli_help() : --help on stdout: "usage: <usage>", a blank line,
 *  then each row of the table: prose as it is, an option (or the operand)
 *  and its value in 22 columns, or on a line of their own when longer,
 *  then its help. @return as ak_finish_stdout(). */
int ak_print_cli_help(const ak_cli *cli);

/*! ak_cli_flag() : the value of the AK_OPT_FLAG row `long_name` in args;
 *  0 where the table has no such row. */
int ak_cli_flag(const ak_cli *cli, const void *args, const char *long_name);

/*! ak_cli_has() : 1 when the table has the option `long_name`. */
int ak_cli_has(const ak_cli *cli, const char *long_name);

/*! ak_cli_text() : the value of the AK_OPT_TEXT row `long_name`, or of the
 *  operand when long_name is NULL (the first value of a row of several);
 *  NULL where there is none. */
const char *ak_cli_text(const ak_cli *cli, const void *args, const char *long_name);

/*! ak_cli_input_files() : the input files given in args, the operands
 *  first, up to `cap`. @return how many. */
size_t ak_cli_input_files(const ak_cli *cli, const void *args, const char **files, size_t cap);

/*! ak_parse_count() : a non-negative integer with an optional binary suffix
 *  K (2^10), M (2^20), G (2^30) or T (2^40), either case: "1000", "16M".
 *  @return 0, or -1 for anything else or a value over SIZE_MAX. */
int ak_parse_count(const char *s, size_t *out);

/*! ak_parse_memory() : the value of --<name>, a number of bytes above 0
 *  with an optional suffix as ak_parse_count() reads it ("64M", "4G").
 *  @return 0, or -1 with "bad --<name> 's' (bytes, with a suffix K M G T:
 *  e.g. 64M, 4G)". */
int ak_parse_memory(const char *name, const char *s, size_t *out, ak_err *e);

int ak_parse_u64(const char *s, uint64_t *out); /* decimal or 0x hex      */
int ak_parse_i64(const char *s, int64_t *out);  /* decimal, optional sign */
int ak_parse_f64(const char *s, double *out);   /* finite decimal: "-1.5", ".5",
                                                   "2e-3"; no hex, inf, nan */

/* ------------------------------------------------------------------------ */
/* Element files                                                             */
/* ------------------------------------------------------------------------ */

/*! ak_format : how an element file is laid out. */
typedef enum ak_format {
    AK_FORMAT_AUTO = 0,
    AK_FORMAT_RAW = 1, /* elements only, little-endian                    */
    AK_FORMAT_NPY = 2  /* NumPy .npy, 1-D, C order, little-endian dtype   */
} ak_format;

/*! ak_format_parse() : "raw" or "npy". @return 0 or -1. */
int ak_format_parse(const char *name, ak_format *out);

/*! ak_format_of_path() : AK_FORMAT_NPY for a name ending in ".npy",
 *  AK_FORMAT_RAW otherwise (also for "-"). */
ak_format ak_format_of_path(const char *path);

/*! ak_path_is_stdio() : 1 for "-". */
int ak_path_is_stdio(const char *path);

/*! ak_display_name() : the path as used in messages ("stdin"/"stdout" for
 *  "-", given which). */
const char *ak_display_name(const char *path, int is_output);

/*! ak_array : a whole element file in memory. */
typedef struct ak_array {
    ak_dtype type;
    ak_format format; /* the layout it was read in */
    size_t n;
    void *data;       /* n * ak_dtype_size(type) bytes, malloc'ed; may be NULL when n == 0 */
} ak_array;

/*! ak_progress_mode : when a long phase shows its progress line (see
 *  ak_progress): AUTO only when stderr is a terminal, ON also when it is
 *  not (--progress). */
typedef enum ak_progress_mode { AK_PROGRESS_AUTO = 0, AK_PROGRESS_ON } ak_progress_mode;

/*! ak_read_opts : how to read an element file.
 *    type          the type the user asked for (--type), or AK_DTYPE_NONE;
 *                  a .npy file whose dtype differs is an error;
 *    raw_default   the type of a raw file when `type` is NONE;
 *    tool          program name for progress output (may be NULL);
 *    progress      when the read shows its progress line. */
typedef struct ak_read_opts {
    ak_dtype type;
    ak_dtype raw_default;
    const char *tool;
    ak_progress_mode progress;
} ak_read_opts;

/*! ak_array_read() : reads `path` ("-" = stdin). A name ending in ".npy" is
 *  read as .npy; stdin is .npy when it starts with the .npy magic; anything
 *  else is raw. Errors (one line each, starting with the file's name): the
 *  file cannot be opened or read, a raw size that is not a multiple of the
 *  element size, a .npy with a bad magic, unsupported version, truncated or
 *  malformed header, an unsupported, big-endian or disagreeing dtype,
 *  fortran_order True, a shape that is not 1-D, or data shorter or longer
 *  than the shape says. On failure *out is left empty. @return 0 or -1. */
int ak_array_read(const char *path, const ak_read_opts *opts, ak_array *out, ak_err *e);

/*! AK_SIZE_UNKNOWN : the size of an input whose length is not known before
 *  it is read (a pipe, a terminal). */
#define AK_SIZE_UNKNOWN UINT64_MAX

/*! ak_source : an element file that is already open. */
typedef struct ak_source {
    FILE *fp;          /* read from its current position; not closed        */
    const char *name;  /* what messages start with                          */
    ak_format format;  /* AK_FORMAT_NPY: a .npy file; AK_FORMAT_RAW: raw;
                          AK_FORMAT_AUTO: .npy when it starts with the magic,
                          raw otherwise (how stdin is read)                 */
    uint64_t size;     /* bytes from the current position to the end, as
                          measured when it was opened, or AK_SIZE_UNKNOWN  */
} ak_source;

/*! ak_array_read_stream() : what ak_array_read() does once it has opened
 *  and measured the file: the same checks and messages. With a known size
 *  the data goes straight into a buffer of that size, and an input that
 *  ends sooner ("file shrank while being read") or goes on past it ("file
 *  grew while being read") is an error; with AK_SIZE_UNKNOWN it is read to
 *  its end. On failure *out is left empty. @return 0 or -1. */
int ak_array_read_stream(const ak_source *src, const ak_read_opts *opts, ak_array *out,
                         ak_err *e);

/*! ak_data : an element file opened to be read as it goes: its header
 *  read and checked, the file at its first element. */
typedef struct ak_data {
    FILE *fp;
    const char *name;        /* what messages start with                 */
    ak_dtype type;
    ak_format format;        /* the layout it is in: raw or npy          */
    uint64_t bytes;          /* data bytes, or AK_SIZE_UNKNOWN (a pipe)  */
    uint64_t npy_n;          /* a .npy header's element count            */
    unsigned char prefix[8]; /* data bytes read while looking for the
                                .npy magic, before those in fp           */
    size_t prefix_len;
} ak_data;

/*! ak_data_open() : opens `path` ("-" = stdin) as ak_array_read() reads
 *  it, up to its first element, with the same checks and messages; a file
 *  of known size is checked whole (its length against the element size
 *  and the .npy shape) before any element is read. @return 0 or -1 (call
 *  ak_data_close() either way). */
int ak_data_open(const char *path, const ak_read_opts *opts, ak_data *d, ak_err *e);

/*! ak_data_check_end() : after `total` data bytes, the prefix included,
 *  and the end of the file: a known size must have been met ("file shrank
 *  while being read", "file grew while being read"); an unknown one must
 *  hold whole elements, as many as a .npy shape says. @return 0 or -1. */
int ak_data_check_end(const ak_data *d, uint64_t total, ak_err *e);

/*! ak_data_fail_read() : "<name>: read failed: <errno's text>". @return -1. */
int ak_data_fail_read(const ak_data *d, ak_err *e);

/*! ak_data_close() : closes the file (not stdin). Safe twice. */
void ak_data_close(ak_data *d);

/*! ak_prefetch : an ak_data read ahead on threads of its own into at most
 *  `limit` bytes of memory (at least two blocks of 8 MiB; with
 *  SCANKIT_READ_AHEAD=N, a switch for the tests, N bytes), so that reading
 *  the file overlaps what the program does meanwhile (opening the device,
 *  copying to it, sorting what came before); once the reader asks for
 *  pieces of 1 MiB or more of a regular file, the threads read each piece
 *  straight into the reader's buffer instead, after what is ahead. */
typedef struct ak_prefetch ak_prefetch;

/*! ak_prefetch_start() : starts reading d (which must stay open and in
 *  place until ak_prefetch_stop()). *out is set even on failure. @return 0
 *  or -1. */
int ak_prefetch_start(ak_prefetch **out, ak_data *d, size_t limit, ak_err *e);

/*! ak_prefetch_read() : up to `bytes` of the data (the prefix first) into
 *  buf, waiting for the thread when it is behind. @return how many (fewer
 *  than asked is fine), 0 at the end once ak_data_check_end() passes, or
 *  -1 with the reason in *e (a read error, that check). */
long long ak_prefetch_read(ak_prefetch *p, void *buf, size_t bytes, ak_err *e);

/*! ak_prefetch_stop() : stops the thread and frees p. NULL-safe. */
void ak_prefetch_stop(ak_prefetch *p);

/*! AK_MAX_PARTS : the most parts ak_run_parts() cuts a range into. */
#define AK_MAX_PARTS 16

/*! ak_part_fn : runs part k of a range, [lo, hi). */
typedef void (*ak_part_fn)(void *ctx, unsigned k, size_t lo, size_t hi);

/*! ak_cores() : the processors this process may run on (its affinity:
 *  fewer than those online where a launcher bound it, as mpirun binds
 *  each of one or two ranks to one core by default), at least 1. */
unsigned ak_cores(void);

/*! ak_thread_start() : starts fn(arg) on a thread that takes no signal
 *  (it starts with every signal blocked; the calling thread handles
 *  them). @return 0 or -1. */
int ak_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/*! ak_part_start() : where part k of `parts` of [0, n) starts:
 *  floor(k * n / parts), without overflow; part `parts` starts at n. */
size_t ak_part_start(size_t n, unsigned parts, unsigned k);

/*! ak_run_parts() : fn(ctx, k, lo, hi) for each part k of `parts` (1 to
 *  AK_MAX_PARTS) of [0, n) at once: part 0 on the calling thread, the
 *  others on threads of their own that take no signal (the calling thread
 *  handles them); a part whose thread does not start runs on the calling
 *  thread. Returns when every part has. @return the number of parts. */
unsigned ak_run_parts(size_t n, unsigned parts, ak_part_fn fn, void *ctx);

/*! ak_array_free() : frees the data and empties *a. NULL-safe. */
void ak_array_free(ak_array *a);

/*! ak_npy_header() : formats a .npy v1.0 header for a 1-D little-endian
 *  array into buf (magic included, padded with spaces to a multiple of 64
 *  bytes, ending in '\n'). @return its length, or 0 if cap is too small. */
size_t ak_npy_header(char *buf, size_t cap, ak_dtype type, size_t n);

/* ------------------------------------------------------------------------ */
/* Output paths and safe writing                                             */
/* ------------------------------------------------------------------------ */

/*! ak_default_output_path() : `input` with ".<tool>" inserted before the
 *  extension of its last component: "d/data.bin" -> "d/data.scan.bin",
 *  "data" -> "data.scan", ".hidden" -> ".hidden.scan".
 *  @return a malloc'ed string, NULL when out of memory. */
char *ak_default_output_path(const char *input, const char *tool);

/*! ak_output_choice : where a program's output goes. */
typedef struct ak_output_choice {
    const char *input;   /* INPUT operand ("-" for stdin); NULL: none       */
    const char *output;  /* -o value or NULL                                */
    const char *tool;    /* for the default name ".<tool>"                  */
    int in_place;        /* --in-place                                      */
    int offers_in_place; /* --in-place would let this output replace input  */
    const char *const *other_inputs; /* the program's other input files   */
    size_t n_other_inputs;           /* (NULL entries are skipped)         */
} ak_output_choice;

/*! ak_output_resolve() : picks the output path: -o if given ("-" = stdout),
 *  else stdout for stdin input or none, else the input itself with
 *  in_place, else ak_default_output_path(). Refuses a path that names the input file (same
 *  st_dev and st_ino, whatever the spelling) unless in_place ("is the input
 *  file", with a hint to use --in-place when offers_in_place), and one that
 *  names any of other_inputs ("is one of the input files"), in place or not.
 *  *path is a malloc'ed string, or NULL for stdout. @return 0 or -1. */
int ak_output_resolve(const ak_output_choice *c, char **path, ak_err *e);

/*! ak_output_paths_collide() : 1 when two output paths would be written to
 *  the same file, however spelt: the same existing file, or the same name in
 *  the same directory. NULL (stdout) collides with nothing. */
int ak_output_paths_collide(const char *a, const char *b);

/*! ak_output : an output being written. A regular file (or a new one) is
 *  written to a temporary file in its directory and put into place on
 *  commit, so a failure never leaves a partial output:
 *    - where the filesystem has O_TMPFILE (and /proc is mounted), the file
 *      has no name until the commit links it to the destination (directly
 *      when nothing has that name, else under a hidden ".NAME.XXXXXX"
 *      renamed over it at once);
 *    - elsewhere (or with SCANKIT_NO_TMPFILE=1, a switch for the tests) it
 *      is a named ".NAME.XXXXXX" from the open to the commit, renamed there.
 *  Devices, pipes and other special files (e.g. /dev/null, /dev/full) are
 *  written directly. From the first ak_output_open() (or
 *  ak_output_signals_install()) on, the signals that end a program by
 *  default and can be caught (SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM,
 *  SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF), unless
 *  ignored or handled at that point, remove every named temporary file,
 *  then end the program as the signal would have. */
typedef struct ak_output {
    char *path;      /* final destination; NULL for stdout             */
    char *tmp_path;  /* the temporary file's name (unnamed: the hidden
                        name's template), NULL when writing directly   */
    int unnamed;     /* the temporary file is unnamed (O_TMPFILE)      */
    FILE *fp;
    const char *tool;
    uint64_t bytes_written;
    int sync;        /* the commit waits for the disk (fsync) first, the data
                        sent there as it is written; 0 (default): the data
                        may still be in the page cache when it is put into
                        place (as cp and sort(1) leave it)                */
    int replaces;    /* a regular file has the destination's name        */
    uint64_t writeback_from;   /* bytes before it are on their way to the disk */
    ak_progress_mode progress; /* of ak_output_write_elements(); AUTO after open */
} ak_output;

/*! ak_output_signals_install() : installs those signal handlers now.
 *  Before a library that installs handlers of its own (the OpenCL
 *  runtime's compiler does, chaining to those it finds), so that they
 *  still run. */
void ak_output_signals_install(void);

/*! ak_output_open() : path NULL means stdout. @return 0 or -1. */
int ak_output_open(ak_output *o, const char *path, const char *tool, ak_err *e);

/*! ak_output_open_named() : as ak_output_open(), but a regular file's
 *  temporary file has a name from the open on (o->tmp_path, the hidden
 *  ".NAME.XXXXXX" beside it), so that other processes can open it and
 *  write it (radixsort-mpi's ranks); armed like any named temporary file,
 *  so that a signal removes it, and renamed into place by
 *  ak_output_commit(). @return 0 or -1. */
int ak_output_open_named(ak_output *o, const char *path, const char *tool, ak_err *e);

/*! ak_output_write() : writes all `bytes`, counting them into `progress`
 *  (the caller's, may be NULL). */
struct ak_progress;
int ak_output_write(ak_output *o, const void *data, size_t bytes,
                    struct ak_progress *progress, ak_err *e);

/*! ak_write_at() : writes the `bytes` at `data` to the file open as fd
 *  at offset `at` (pwrite, in pieces; again after a short write or EINTR),
 *  for a program whose processes write parts of one file (radixsort-mpi's
 *  ranks). With `writeback`, each piece is sent on to the disk at once
 *  (sync_file_range, Linux), as an ak_output's is with sync or where it
 *  replaces a file. A failure is "NAME: write failed: REASON", as
 *  ak_output_write() words it (a write that makes no progress: no space).
 *  @return 0 or -1. */
int ak_write_at(int fd, const void *data, size_t bytes, uint64_t at, int writeback,
                const char *name, ak_err *e);

/*! ak_read_at() : reads `bytes` at offset `at` of the file open as fd into
 *  `data` (pread, in pieces; again after a short read or EINTR; from 64
 *  MiB on, in parts on several threads at once). A failure
 *  is "NAME: read failed: REASON"; a file that ends first, "NAME: ends K
 *  bytes early (it changed while being read?)". @return 0 or -1. */
int ak_read_at(int fd, void *data, size_t bytes, uint64_t at, const char *name, ak_err *e);

/*! ak_output_write_header() : the .npy header for `n` elements of `type`
 *  when format is AK_FORMAT_NPY; nothing for raw. @return 0 or -1. */
int ak_output_write_header(ak_output *o, ak_format format, ak_dtype type,
                           size_t n, ak_err *e);

/*! ak_output_flush() : pushes what was written out (to the disk, for a
 *  temporary file with o->sync), so that a write error shows before anything is
 *  committed: a program with several outputs flushes them all, then commits
 *  them all. On failure the output stays open for ak_output_abort().
 *  @return 0 or -1. */
int ak_output_flush(ak_output *o, ak_err *e);

/*! ak_output_commit() : flushes, syncs and closes the temporary file and
 *  puts it into place (or flushes stdout / closes the special file). On
 *  failure the temporary file is removed and the destination is untouched.
 *  @return 0 or -1. */
int ak_output_commit(ak_output *o, ak_err *e);

/*! ak_output_abort() : closes and removes the temporary file; the
 *  destination is untouched. Safe after commit and on a zeroed ak_output. */
void ak_output_abort(ak_output *o);

/*! ak_output_format() : the layout of an output: `requested` (--format)
 *  unless it is AK_FORMAT_AUTO, else npy for a path ending in ".npy", else
 *  `input`, the layout the input was read in. path NULL means stdout. */
ak_format ak_output_format(ak_format requested, const char *path, ak_format input);

/*! ak_output_write_elements() : the header for `format` (none for raw) and
 *  the n elements of `type` at data, showing progress as "tool: writing"
 *  as o->progress says (tool NULL: no progress). Does not commit.
 *  @return 0 or -1. */
int ak_output_write_elements(ak_output *o, ak_format format, ak_dtype type, const void *data,
                             size_t n, const char *tool, ak_err *e);

/*! ak_array_save() : open + header + data + commit in one call.
 *  @return 0 or -1 (nothing left behind on failure). */
int ak_array_save(const char *path, const char *tool, ak_format format,
                  ak_dtype type, const void *data, size_t n, ak_err *e);

/* ------------------------------------------------------------------------ */
/* Timing and progress                                                       */
/* ------------------------------------------------------------------------ */

/*! ak_now() : seconds from a monotonic clock. */
double ak_now(void);

/*! ak_ms_since() : milliseconds since t0, a value of ak_now(). */
double ak_ms_since(double t0);

/*! ak_print_time() : one line of --time on stderr: the label (e.g.
 *  "write:") padded to 10 columns, then "%10.3f ms". */
void ak_print_time(const char *label, double ms);

/*! ak_progress : one updating line on stderr for a long phase:
 *  "tool: reading 412 MiB of 1.00 GiB, 1.9 GB/s, 0.3 s left" (bytes done of
 *  the total in binary units, the rate, the time left; without a total,
 *  "tool: reading 412 MiB, 1.9 GB/s"). It shows once the phase has run a
 *  second. On a terminal it is rewritten in place at most ten times a
 *  second and cleared at the end; with AK_PROGRESS_ON and stderr not a
 *  terminal, a line ending in a newline at most every two seconds;
 *  otherwise nothing. A NULL tool shows nothing. */
enum { AK_PROGRESS_TTY = 1, AK_PROGRESS_LOG = 2 };
typedef struct ak_progress {
    const char *tool;
    const char *what;
    uint64_t total;    /* 0: not known */
    uint64_t done;
    double start;      /* ak_now() at ak_progress_start()   */
    double last;       /* ak_now() at the last line shown   */
    int enabled;       /* 0, AK_PROGRESS_TTY or AK_PROGRESS_LOG */
    int shown;
} ak_progress;

void ak_progress_start(ak_progress *p, const char *tool, const char *what, uint64_t total,
                       ak_progress_mode mode);
void ak_progress_add(ak_progress *p, uint64_t amount); /* NULL-safe */
void ak_progress_end(ak_progress *p);                  /* NULL-safe */
/*! ak_progress_on() : whether p (may be NULL) may show a line. */
int ak_progress_on(const ak_progress *p);

/* ------------------------------------------------------------------------ */
/* Data generation                                                           */
/* ------------------------------------------------------------------------ */

/* The PRNG is sk_rng (common/sk_rng.h), the tree's one generator. */

/*! ak_dist : input distributions.
 *    UNIFORM     integers uniform over the type (or --range [LO, HI]);
 *                floats uniform in [0, 1) (or [LO, HI)).
 *    SORTED      UNIFORM values sorted ascending; REVERSED: descending.
 *    EQUAL       every element the same UNIFORM value.
 *    FEW_UNIQUE  16 distinct UNIFORM values (fewer if the range has fewer),
 *                each element one of them at random.
 *    ENTROPY     bitwise AND of K random 64-bit words (Thearling & Smith):
 *                each bit is 1 with probability 2^-K. 32-bit types take the
 *                high 32 bits; floats take the top 53 (24) bits as the
 *                fraction of a value in [0, 1). K = 1 is UNIFORM's bits. */
typedef enum ak_dist {
    AK_DIST_UNIFORM = 0,
    AK_DIST_SORTED,
    AK_DIST_REVERSED,
    AK_DIST_EQUAL,
    AK_DIST_FEW_UNIQUE,
    AK_DIST_ENTROPY
} ak_dist;

/*! ak_value : a range bound; .i for signed, .u for unsigned, .f for floats. */
typedef union ak_value {
    int64_t i;
    uint64_t u;
    double f;
} ak_value;

/*! ak_gen_spec : everything that determines generated data. */
typedef struct ak_gen_spec {
    ak_dtype type;
    ak_dist dist;
    unsigned entropy_k; /* ENTROPY only, >= 1 */
    uint64_t seed;
    int has_range;
    ak_value lo, hi;    /* integers: [lo, hi]; floats: [lo, hi) */
} ak_gen_spec;

/*! ak_dist_parse() : "uniform", "sorted", "reversed", "equal", "few-unique",
 *  "entropy:K" (K >= 1). @return 0 or -1. */
int ak_dist_parse(const char *s, ak_dist *dist, unsigned *entropy_k);

/*! ak_dist_name() : the name as ak_dist_parse reads it (without ":K"). */
const char *ak_dist_name(ak_dist d);

/*! ak_range_parse() : "LO:HI" for `type`; integers need LO <= HI inside the
 *  type, floats finite LO < HI. @return 0 or -1 with the reason in *e. */
int ak_range_parse(const char *s, ak_dtype type, ak_value *lo, ak_value *hi, ak_err *e);

/*! ak_gen : a generator in progress; see ak_gen_init(). */
typedef struct ak_gen {
    ak_gen_spec spec;
    sk_rng rng;
    int is_float;
    uint64_t lo_bits;       /* integers: lo as two's complement bits       */
    uint64_t span;          /* integers: hi - lo + 1 (0 = 2^64)            */
    int span_shift;         /* 64 - log2(span) for a power-of-two span > 1 */
    unsigned table_size;    /* EQUAL: 1, FEW_UNIQUE: up to 16              */
    uint64_t table[16];     /* element bit patterns                        */
} ak_gen;

/*! ak_gen_init() : checks the spec (type, K, range) and prepares a stream.
 *  @return 0 or -1. */
int ak_gen_init(ak_gen *g, const ak_gen_spec *spec, ak_err *e);

/*! ak_gen_is_streamable() : 0 for SORTED and REVERSED, which need the whole
 *  array (ak_gen_fill). */
int ak_gen_is_streamable(const ak_gen_spec *spec);

/*! ak_gen_next_block() : the next `count` elements of the stream into buf.
 *  For SORTED/REVERSED these are the unsorted values. */
void ak_gen_next_block(ak_gen *g, void *buf, size_t count);

/*! ak_gen_fill() : the whole array of n elements, exactly as datagen writes
 *  it for the same spec (sorted in place for SORTED/REVERSED, no extra
 *  memory). @return 0 or -1. */
int ak_gen_fill(const ak_gen_spec *spec, void *buf, size_t n, ak_err *e);

/*! ak_sort_elements() : sorts n elements of `type` in place, ascending
 *  (descending if `descending`), floats in IEEE totalOrder. In-place MSD
 *  radix sort, no extra memory beyond a few KiB of stack. */
void ak_sort_elements(ak_dtype type, void *data, size_t n, int descending);

/* ------------------------------------------------------------------------ */
/* The OpenCL device (appkit_cl.c)                                           */
/* ------------------------------------------------------------------------ */

/*! ak_list_devices() : --list-devices: prints the table of OpenCL devices
 *  on stdout, a header then a row per device, in columns: index ("P:D"),
 *  type (gpu or cpu), name, platform, fp64 (yes or no), memory ("N MiB" or
 *  "N.N GiB"); or one error line. @return AK_EXIT_OK or AK_EXIT_FAIL. */
int ak_list_devices(const char *tool);

/*! ak_context_open() : creates *ctx for `device` (--device, may be NULL) and
 *  sets *ms to the milliseconds it took. On failure *ctx is NULL and the
 *  reason names "--device '...'", else (when name_env) "SCANKIT_DEVICE='...'"
 *  if that is set, else "cannot open an OpenCL device". @return 0 or -1. */
int ak_context_open(sk_context **ctx, const char *device, int name_env, double *ms, ak_err *e);

/*! ak_fail_cl() : "<what> failed: <CL error name>". @return -1. */
int ak_fail_cl(ak_err *e, const char *what, cl_int code);

/*! ak_cl_check_fits() : fails with "<name>: N bytes exceed the device's
 *  largest buffer (M bytes)" when `bytes` is over the device's largest
 *  allocation. @return 0 or -1. */
int ak_cl_check_fits(const sk_context *ctx, size_t bytes, const char *name, ak_err *e);

/*! ak_cl_upload() : blocking copy of `bytes` from host to buf at offset;
 *  adds the time to *ms. @return 0 or -1 ("copying the input to the device
 *  failed: ..."). */
int ak_cl_upload(const sk_context *ctx, cl_mem buf, size_t offset, const void *host,
                 size_t bytes, double *ms, ak_err *e);

/*! ak_cl_download() : blocking copy of `bytes` from buf at offset to host;
 *  adds the time to *ms. @return 0 or -1 ("<what> failed: ..."). */
int ak_cl_download(const sk_context *ctx, cl_mem buf, size_t offset, void *host, size_t bytes,
                   double *ms, const char *what, ak_err *e);

/*! ak_cl_new_buffer() : a read-write device buffer of `bytes` (at least 1).
 *  @return 0 or -1 ("allocating a device buffer failed: ..."). */
int ak_cl_new_buffer(const sk_context *ctx, size_t bytes, cl_mem *out, ak_err *e);

/*! ak_cl_release() : releases the `count` buffers mems[i] that are not NULL
 *  and sets each to NULL. @return 0, or -1 ("releasing the device buffers
 *  failed: ...") when any release failed. e may be NULL. */
int ak_cl_release(cl_mem *mems, size_t count, ak_err *e);

/*! ak_build_stats_add_since() : adds the kernel builds since `before` to
 *  *build, and `elapsed_ms` less their time (not below 0) to *compute_ms.
 *  Adds all of elapsed_ms when the statistics cannot be read. */
void ak_build_stats_add_since(const sk_context *ctx, const sk_build_stats *before,
                              double elapsed_ms, sk_build_stats *build, double *compute_ms);

/*! ak_print_device_times() : the "context:", "upload:" and "build:" lines
 *  of --time on stderr. */
void ak_print_device_times(double context_ms, double upload_ms, const sk_build_stats *build);

#endif /* SK_APPKIT_H */
