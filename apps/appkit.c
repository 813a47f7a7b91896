/*
 * appkit.c - errors, element types, option tables (parsing and --help),
 * timing and progress shared by the scankit command-line programs.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

int ak_fail(ak_err *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ak_fail_sk(ak_err *e, const sk_context *ctx, sk_status st, const char *what)
{
    const char *detail = ctx ? sk_context_error_detail(ctx) : "";
    if (detail && detail[0])
        return ak_fail(e, "%s: %s: %s", what, sk_status_str(st), detail);
    return ak_fail(e, "%s: %s", what, sk_status_str(st));
}

void ak_print_error(const char *tool, const char *msg)
{
    fprintf(stderr, "%s: ", tool);
    for (const char *c = msg; *c; c++)
        fputc((*c == '\n' || *c == '\r' || *c == '\t') ? ' ' : *c, stderr);
    fputc('\n', stderr);
}

int ak_print_usage_error(const char *tool, const char *usage, const char *msg)
{
    ak_print_error(tool, msg);
    fprintf(stderr, "usage: %s\nTry '%s --help' for more information.\n", usage, tool);
    return AK_EXIT_USAGE;
}

int ak_host_is_little_endian(void)
{
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

int ak_require_little_endian(const char *tool)
{
    if (ak_host_is_little_endian())
        return AK_EXIT_OK;
    ak_print_error(tool, "this program runs on little-endian hosts only");
    return AK_EXIT_FAIL;
}

int ak_finish_stdout(const char *tool)
{
    /* a write that already failed (a text longer than stdout's buffer)
     * left its reason in errno; the flush's own reason comes first */
    int before = ferror(stdout) ? errno : 0;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return AK_EXIT_OK;
    int err = errno ? errno : before;
    fprintf(stderr, "%s: stdout: write failed: %s\n", tool, strerror(err ? err : EIO));
    return AK_EXIT_FAIL;
}

int ak_print_version(const char *tool)
{
    printf("%s (scankit) %s\n", tool, sk_version_string());
    return ak_finish_stdout(tool);
}

int ak_exit_status(const char *tool, int rc, const ak_err *e)
{
    if (rc == 0)
        return AK_EXIT_OK;
    ak_print_error(tool, e->msg);
    return AK_EXIT_FAIL;
}

/* ------------------------------------------------------------------------ */
/* Element types                                                             */
/* ------------------------------------------------------------------------ */

typedef struct dtype_info {
    const char *name;
    char npy_descr[4];
    size_t size;
    int is_float;
    int is_signed;            /* signed integer */
    const char *aliases[2];   /* NULL-padded */
} dtype_info;

/* A little-endian .npy descr: '<' ('|', no byte order, for one byte), the
 * kind ('f', 'i' or 'u'), the size. */
#define NPY_DESCR_(bytes, is_float, is_signed)                                   \
    {(bytes) == 1 ? '|' : '<', (is_float) ? 'f' : (is_signed) ? 'i' : 'u',        \
     (char)('0' + (bytes)), '\0'}

static const dtype_info dtype_table[AK_DTYPE_COUNT] = {
#define DTYPE_ROW_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, alias) \
    [AK_##suffix] = {name, NPY_DESCR_(bytes, is_float, is_signed), bytes, is_float, is_signed, \
                     {alias, cl}},
    SK_ALL_TYPES_MAP(DTYPE_ROW_)
#undef DTYPE_ROW_
};

static const dtype_info *dtype_lookup(ak_dtype t)
{
    if ((int)t < 0 || (int)t >= AK_DTYPE_COUNT)
        return NULL;
    return &dtype_table[t];
}

size_t ak_dtype_size(ak_dtype t)
{
    const dtype_info *d = dtype_lookup(t);
    return d ? d->size : 0;
}

const char *ak_dtype_name(ak_dtype t)
{
    const dtype_info *d = dtype_lookup(t);
    return d ? d->name : "?";
}

const char *ak_dtype_npy_descr(ak_dtype t)
{
    const dtype_info *d = dtype_lookup(t);
    return d ? d->npy_descr : "?";
}

int ak_dtype_is_float(ak_dtype t)
{
    const dtype_info *d = dtype_lookup(t);
    return d && d->is_float;
}

int ak_dtype_is_signed(ak_dtype t)
{
    const dtype_info *d = dtype_lookup(t);
    return d && d->is_signed;
}

static int dtype_matches(const dtype_info *d, const char *name)
{
    if (strcasecmp(d->name, name) == 0)
        return 1;
    for (size_t i = 0; i < sizeof d->aliases / sizeof d->aliases[0] && d->aliases[i]; i++)
        if (strcasecmp(d->aliases[i], name) == 0)
            return 1;
    return 0;
}

int ak_dtype_parse(const char *name, ak_dtype *out)
{
    for (int t = 0; t < AK_DTYPE_COUNT; t++) {
        if (dtype_matches(&dtype_table[t], name)) {
            *out = (ak_dtype)t;
            return 0;
        }
    }
    return -1;
}

int ak_dtype_to_sk(ak_dtype t, sk_type *out)
{
    if ((int)t < 0 || (int)t >= SK_TYPE_COUNT)
        return -1;
    *out = (sk_type)t;
    return 0;
}

int ak_dtype_to_sk_key(ak_dtype t, sk_type *out)
{
    if ((int)t < 0 || (int)t >= SK_KEY_TYPE_COUNT)
        return -1;
    *out = (sk_type)t;
    return 0;
}

int ak_op_is_bitwise(sk_op op)
{
    return op == SK_OP_AND || op == SK_OP_OR || op == SK_OP_XOR;
}

int ak_check_op_type(const char *name, ak_dtype t, sk_op op, ak_err *e)
{
    if (!ak_dtype_is_float(t) || !ak_op_is_bitwise(op))
        return 0;
    return ak_fail(e, "%s%s--op %s needs an integer type, not %s", name ? name : "",
                   name ? ": " : "", sk_op_name(op), ak_dtype_name(t));
}

int ak_check_sk_type(const char *name, ak_dtype t, const char *verb, ak_err *e)
{
    sk_type st;
    if (ak_dtype_to_sk(t, &st) != 0)
        return ak_fail(e, "%s: element type %s cannot be %s (use %s)", name, ak_dtype_name(t),
                       verb, AK_SK_TYPE_NAMES);
    return 0;
}

int ak_check_sk_key_type(const char *name, ak_dtype t, const char *verb, ak_err *e)
{
    sk_type st;
    if (ak_dtype_to_sk_key(t, &st) != 0)
        return ak_fail(e, "%s: element type %s cannot be %s (use %s)", name, ak_dtype_name(t),
                       verb, AK_SK_KEY_TYPE_NAMES);
    return 0;
}

int ak_check_count(const char *name, size_t n, const char *what, size_t want, const char *of,
                   ak_err *e)
{
    if (n == want)
        return 0;
    return ak_fail(e, "%s: %zu %s for %zu %s", name, n, what, want, of);
}

int ak_check_value_type(const char *name, ak_dtype t, ak_err *e)
{
    size_t size = ak_dtype_size(t);
    if (size != 4 && size != 8)
        return ak_fail(e, "%s: values must be of 4 or 8 bytes, not %s", name, ak_dtype_name(t));
    return 0;
}

int ak_check_scan_type(const char *name, ak_dtype t, sk_op op, ak_err *e)
{
    if (ak_check_sk_type(name, t, "scanned", e) != 0)
        return -1;
    return ak_check_op_type(name, t, op, e);
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

void ak_args_init(ak_args *a, int argc, char **argv)
{
    a->argc = argc;
    a->argv = argv;
    a->next = 1;
    a->operands_only = 0;
    a->value = NULL;
}

/* 1 for a row that is an option (not the operand, not prose). */
static int is_option(const ak_opt *o)
{
    return o->long_name != NULL;
}

static const ak_opt *find_long(const ak_opt *opts, const char *name, size_t len)
{
    for (; opts->kind != AK_OPT_END; opts++)
        if (is_option(opts) && strlen(opts->long_name) == len &&
            strncmp(opts->long_name, name, len) == 0)
            return opts;
    return NULL;
}

static const ak_opt *find_short(const ak_opt *opts, char c)
{
    for (; opts->kind != AK_OPT_END; opts++)
        if (is_option(opts) && opts->short_name == c)
            return opts;
    return NULL;
}

static const ak_opt *find_kind(const ak_opt *opts, ak_opt_kind kind)
{
    for (; opts->kind != AK_OPT_END; opts++)
        if (opts->kind == kind)
            return opts;
    return NULL;
}

/* How many values row o takes: one per word of its value_name, at most
 * AK_OPT_MAX_VALUES; none without a value_name. */
static size_t value_count(const ak_opt *o)
{
    size_t count = 0;
    for (const char *w = o->value_name; w && *(w += strspn(w, " ")); w += strcspn(w, " "))
        count++;
    return count < AK_OPT_MAX_VALUES ? count : AK_OPT_MAX_VALUES;
}

/* The word of o's value_name that names its value i ("B" of "A B"). */
static void value_word(const ak_opt *o, size_t i, char *buf, size_t cap)
{
    const char *w = o->value_name + strspn(o->value_name, " ");
    for (; i > 0 && *w; i--) {
        w += strcspn(w, " ");
        w += strspn(w, " ");
    }
    snprintf(buf, cap, "%.*s", (int)strcspn(w, " "), w);
}

static int values_missing(const char *spelled, size_t count, ak_err *e)
{
    if (count == 1)
        ak_fail(e, "option '%s' needs a value", spelled);
    else
        ak_fail(e, "option '%s' needs %zu values", spelled, count);
    return AK_ARGS_ERROR;
}

/* The values of option o (`spelled` as given): the attached text, if any,
 * is the first, the next words are the others. */
static int take_values(ak_args *a, const ak_opt *o, const char *attached, const char *spelled,
                       ak_err *e)
{
    size_t count = value_count(o);
    memset(a->values, 0, sizeof a->values);
    for (size_t i = 0; i < count; i++) {
        if (i == 0 && attached)
            a->values[i] = attached;
        else if (a->next < a->argc)
            a->values[i] = a->argv[a->next++];
        else
            return values_missing(spelled, count, e);
    }
    a->value = a->values[0];
    return AK_ARGS_OPTION;
}

static int parse_long(ak_args *a, const char *word, const ak_opt *opts, const ak_opt **opt,
                      ak_err *e)
{
    const char *name = word + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const ak_opt *o = find_long(opts, name, len);
    if (!o)
        return ak_fail(e, "unknown option '--%.*s'", (int)len, name), AK_ARGS_ERROR;
    *opt = o;
    if (!o->value_name && eq)
        return ak_fail(e, "option '--%s' takes no value", o->long_name), AK_ARGS_ERROR;
    char spelled[128];
    snprintf(spelled, sizeof spelled, "--%s", o->long_name);
    return take_values(a, o, eq ? eq + 1 : NULL, spelled, e);
}

static int parse_short(ak_args *a, const char *word, const ak_opt *opts, const ak_opt **opt,
                       ak_err *e)
{
    const ak_opt *o = find_short(opts, word[1]);
    if (!o)
        return ak_fail(e, "unknown option '-%c'", word[1]), AK_ARGS_ERROR;
    *opt = o;
    if (!o->value_name && word[2] != '\0')
        return ak_fail(e, "unknown option '%s'", word), AK_ARGS_ERROR;
    char spelled[3] = {'-', word[1], '\0'};
    return take_values(a, o, word[2] ? word + 2 : NULL, spelled, e);
}

int ak_args_next(ak_args *a, const ak_opt *opts, const ak_opt **opt, ak_err *e)
{
    *opt = NULL;
    if (a->next >= a->argc)
        return AK_ARGS_END;
    const char *word = a->argv[a->next++];
    if (!a->operands_only && strcmp(word, "--") == 0) {
        a->operands_only = 1;
        return ak_args_next(a, opts, opt, e);
    }
    if (a->operands_only || word[0] != '-' || word[1] == '\0') {
        memset(a->values, 0, sizeof a->values);
        a->value = a->values[0] = word;
        return AK_ARGS_OPERAND;
    }
    if (word[1] == '-')
        return parse_long(a, word, opts, opt, e);
    return parse_short(a, word, opts, opt, e);
}

/* ---- where the rows' values go ---------------------------------------------- */

static void *field(void *args, const ak_opt *o)
{
    return (char *)args + o->offset;
}

static const void *const_field(const void *args, const ak_opt *o)
{
    return (const char *)args + o->offset;
}

static int holds_text(const ak_opt *o)
{
    return o->kind == AK_OPT_OPERAND || o->kind == AK_OPT_INPUT || o->kind == AK_OPT_TEXT;
}

/* Value i of a text row (its destination holds value_count(o) of them). */
static const char *value_of(const void *args, const ak_opt *o, size_t i)
{
    return ((const char *const *)const_field(args, o))[i];
}

static const char *text_of(const void *args, const ak_opt *o)
{
    return value_of(args, o, 0);
}

/* A type kind: the element types it accepts (bit t for type t), and the
 * hint of its message. */
typedef struct type_kind {
    ak_opt_kind kind;
    unsigned accepts;
    const char *hint;
} type_kind;

#define TYPE_BIT(t) (1u << (t))
#define SCANKIT_TYPE_BITS ((1u << SK_TYPE_COUNT) - 1)

static const type_kind TYPE_KINDS[] = {
    {AK_OPT_TYPE, SCANKIT_TYPE_BITS, " (use " AK_SK_TYPE_NAMES ")"},
    {AK_OPT_FLOAT_TYPE, TYPE_BIT(AK_FLOAT32) | TYPE_BIT(AK_FLOAT64), " (use float32 or float64)"},
    {AK_OPT_INDEX_TYPE, TYPE_BIT(AK_UINT32) | TYPE_BIT(AK_UINT64), " (use uint32 or uint64)"},
    {AK_OPT_ANY_TYPE, SCANKIT_TYPE_BITS | TYPE_BIT(AK_UINT8), ""},
    {AK_OPT_KEY_TYPE, (1u << SK_KEY_TYPE_COUNT) - 1, " (use " AK_SK_KEY_TYPE_NAMES ")"},
};

static const type_kind *type_kind_of(ak_opt_kind kind)
{
    for (size_t i = 0; i < sizeof TYPE_KINDS / sizeof TYPE_KINDS[0]; i++)
        if (TYPE_KINDS[i].kind == kind)
            return &TYPE_KINDS[i];
    return NULL;
}

static int store_type(void *args, const ak_opt *o, const type_kind *k, const char *value,
                      ak_err *e)
{
    ak_dtype *t = field(args, o);
    if (ak_dtype_parse(value, t) != 0 || !(k->accepts & TYPE_BIT(*t)))
        return ak_fail(e, "unknown --%s '%s'%s", o->long_name, value, k->hint);
    return 0;
}

static void set_default(void *args, const ak_opt *o)
{
    if (type_kind_of(o->kind))
        *(ak_dtype *)field(args, o) = AK_DTYPE_NONE;
    else if (o->kind == AK_OPT_OP)
        *(sk_op *)field(args, o) = SK_OP_ADD;
    else if (o->kind == AK_OPT_FORMAT)
        *(ak_format *)field(args, o) = AK_FORMAT_AUTO;
}

/* Parses and stores the values of a row of a kind that does so itself. */
static int store_value(void *args, const ak_opt *o, const char *const *values, ak_err *e)
{
    const char *value = values[0];
    const type_kind *k = type_kind_of(o->kind);
    if (k)
        return store_type(args, o, k, value, e);
    switch (o->kind) {
    case AK_OPT_FLAG: *(int *)field(args, o) = 1; return 0;
    case AK_OPT_U64:
        if (ak_parse_u64(value, field(args, o)) != 0)
            return ak_fail(e, "bad --%s '%s' (an unsigned 64-bit integer)", o->long_name, value);
        return 0;
    case AK_OPT_OP:
        if (sk_op_parse(value, field(args, o)) != SK_OK)
            return ak_fail(e, "unknown --%s '%s' (use add, mul, min, max, and, or, xor)",
                           o->long_name, value);
        return 0;
    case AK_OPT_FORMAT:
        if (ak_format_parse(value, field(args, o)) != 0)
            return ak_fail(e, "unknown --%s '%s' (use raw or npy)", o->long_name, value);
        return 0;
    case AK_OPT_MEMORY: return ak_parse_memory(o->long_name, value, field(args, o), e);
    default:
        for (size_t i = 0; holds_text(o) && i < value_count(o); i++)
            ((const char **)field(args, o))[i] = values[i];
        return 0;
    }
}

static int take_option(void *args, const ak_opt *o, const char *const *values, ak_err *e)
{
    if (store_value(args, o, values, e) != 0)
        return -1;
    return o->parse ? o->parse(args, values[0], e) : 0;
}

/* The operand goes to the first value of the operand row not yet given. */
static int take_operand(const ak_cli *cli, void *args, const char *value, ak_err *e)
{
    const ak_opt *o = find_kind(cli->options, AK_OPT_OPERAND);
    if (!o)
        return ak_fail(e, "unexpected argument '%s'", value);
    const char **slots = field(args, o);
    size_t count = value_count(o);
    for (size_t i = 0; i < count; i++) {
        if (!slots[i]) {
            slots[i] = value;
            return o->parse ? o->parse(args, value, e) : 0;
        }
    }
    if (count == 1)
        return ak_fail(e, "more than one %s given", o->value_name);
    return ak_fail(e, "unexpected argument '%s' after %s", value, o->value_name);
}

/* ---- checks every program shares -------------------------------------------- */

/* One input file of a command line: value `slot` of an input row. */
typedef struct input_ref {
    const ak_opt *row;
    size_t slot;
} input_ref;

/* The most input files a table names. */
#define MAX_INPUT_FILES 16

/* The input files of a table: the operands, then the values of each
 * AK_OPT_INPUT row in table order. @return how many. */
static size_t input_refs(const ak_opt *opts, input_ref *refs)
{
    size_t n = 0;
    const ak_opt *operand = find_kind(opts, AK_OPT_OPERAND);
    for (size_t i = 0; operand && i < value_count(operand); i++)
        refs[n++] = (input_ref){operand, i};
    for (const ak_opt *o = opts; o->kind != AK_OPT_END; o++)
        for (size_t i = 0; o->kind == AK_OPT_INPUT && i < value_count(o); i++)
            if (n < MAX_INPUT_FILES)
                refs[n++] = (input_ref){o, i};
    return n;
}

/* An input file as messages name it: "INPUT", "B", "--flags" or, for an
 * option of several values, "--values VB". */
static void input_label(const input_ref *in, char *buf, size_t cap)
{
    char word[64];
    value_word(in->row, in->slot, word, sizeof word);
    if (in->row->kind == AK_OPT_OPERAND)
        snprintf(buf, cap, "%s", word);
    else if (value_count(in->row) == 1)
        snprintf(buf, cap, "--%s", in->row->long_name);
    else
        snprintf(buf, cap, "--%s %s", in->row->long_name, word);
}

/* At most one input file is stdin; the operands are named first. */
static int check_one_stdin(const ak_cli *cli, const void *args, ak_err *e)
{
    input_ref refs[MAX_INPUT_FILES];
    size_t n = input_refs(cli->options, refs);
    const input_ref *first = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *path = value_of(args, refs[i].row, refs[i].slot);
        if (!path || !ak_path_is_stdio(path))
            continue;
        if (first) {
            char a[128], b[128];
            input_label(first, a, sizeof a);
            input_label(&refs[i], b, sizeof b);
            return ak_fail(e, "%s and %s cannot both be stdin", a, b);
        }
        first = &refs[i];
    }
    return 0;
}

/* The highest one_of group number a table may use. */
#define MAX_ONE_OF 8

/* "--if, --flags, --unique" or "--x and --points": the options of group g. */
static void one_of_names(const ak_opt *opts, int g, char *buf, size_t cap)
{
    size_t count = 0, len = 0, total = 0;
    for (const ak_opt *o = opts; o->kind != AK_OPT_END; o++)
        total += o->one_of == g;
    buf[0] = '\0';
    for (const ak_opt *o = opts; o->kind != AK_OPT_END && len < cap; o++) {
        if (o->one_of != g)
            continue;
        const char *sep = count == 0 ? "" : total == 2 ? " and " : ", ";
        len += (size_t)snprintf(buf + len, cap - len, "%s--%s", sep, o->long_name);
        count++;
    }
}

static int check_one_of(const ak_cli *cli, const unsigned *given, ak_err *e)
{
    for (int g = 1; g <= MAX_ONE_OF; g++) {
        int used = 0;
        for (const ak_opt *o = cli->options; o->kind != AK_OPT_END; o++)
            used |= o->one_of == g;
        if (!used || given[g] == 1)
            continue;
        char names[256];
        one_of_names(cli->options, g, names, sizeof names);
        return ak_fail(e, "give exactly one of %s", names);
    }
    return 0;
}

/* Every operand was given. */
static int check_operands(const ak_opt *operand, const void *args, ak_err *e)
{
    for (size_t i = 0; operand && i < value_count(operand); i++) {
        if (value_of(args, operand, i))
            continue;
        char word[64];
        value_word(operand, i, word, sizeof word);
        return ak_fail(e, "missing %s", word);
    }
    return 0;
}

static int check_common(const ak_cli *cli, const void *args, const unsigned *given, ak_err *e)
{
    const ak_opt *operand = find_kind(cli->options, AK_OPT_OPERAND);
    const char *input = operand ? text_of(args, operand) : NULL;
    if (check_operands(operand, args, e) != 0 || check_one_of(cli, given, e) != 0 ||
        check_one_stdin(cli, args, e) != 0)
        return -1;
    if (input && ak_path_is_stdio(input) && ak_cli_flag(cli, args, "in-place"))
        return ak_fail(e, "--in-place needs an input file, not stdin");
    return 0;
}

/* 1 when the command line asks for --help, --version or --list-devices,
 * which need no operand. */
static int asks_only(const ak_cli *cli, const void *args)
{
    return ak_cli_flag(cli, args, "help") || ak_cli_flag(cli, args, "version") ||
           ak_cli_flag(cli, args, "list-devices");
}

static void set_defaults(const ak_cli *cli, void *args)
{
    memset(args, 0, cli->args_size);
    for (const ak_opt *o = cli->options; o->kind != AK_OPT_END; o++)
        set_default(args, o);
    if (cli->defaults)
        cli->defaults(args);
}

/* Reads argv into args; given[g] counts the options of one_of group g. */
static int read_argv(const ak_cli *cli, int argc, char **argv, void *args, unsigned *given,
                     ak_err *e)
{
    ak_args it;
    const ak_opt *opt;
    int got;
    ak_args_init(&it, argc, argv);
    while ((got = ak_args_next(&it, cli->options, &opt, e)) != AK_ARGS_END) {
        if (got == AK_ARGS_ERROR)
            return -1;
        if (got == AK_ARGS_OPERAND ? take_operand(cli, args, it.value, e) != 0
                                   : take_option(args, opt, it.values, e) != 0)
            return -1;
        if (got == AK_ARGS_OPTION && opt->one_of > 0 && opt->one_of <= MAX_ONE_OF)
            given[opt->one_of]++;
    }
    return 0;
}

int ak_parse_command_line(const ak_cli *cli, int argc, char **argv, void *args)
{
    ak_err e;
    unsigned given[MAX_ONE_OF + 1] = {0};
    set_defaults(cli, args);
    int rc = read_argv(cli, argc, argv, args, given, &e);
    if (rc == 0 && !asks_only(cli, args)) {
        rc = check_common(cli, args, given, &e);
        if (rc == 0 && cli->check)
            rc = cli->check(args, &e);
    }
    if (rc != 0)
        return ak_print_usage_error(cli->tool, cli->usage, e.msg);
    return AK_EXIT_OK;
}

int ak_cli_flag(const ak_cli *cli, const void *args, const char *long_name)
{
    const ak_opt *o = find_long(cli->options, long_name, strlen(long_name));
    return o && o->kind == AK_OPT_FLAG ? *(const int *)const_field(args, o) : 0;
}

int ak_cli_has(const ak_cli *cli, const char *long_name)
{
    return find_long(cli->options, long_name, strlen(long_name)) != NULL;
}

const char *ak_cli_text(const ak_cli *cli, const void *args, const char *long_name)
{
    const ak_opt *o = long_name ? find_long(cli->options, long_name, strlen(long_name))
                                : find_kind(cli->options, AK_OPT_OPERAND);
    return o && holds_text(o) ? text_of(args, o) : NULL;
}

size_t ak_cli_input_files(const ak_cli *cli, const void *args, const char **files, size_t cap)
{
    input_ref refs[MAX_INPUT_FILES];
    size_t n = input_refs(cli->options, refs), count = 0;
    for (size_t i = 0; i < n && count < cap; i++) {
        const char *path = value_of(args, refs[i].row, refs[i].slot);
        if (path)
            files[count++] = path;
    }
    return count;
}

/* ---- --help ------------------------------------------------------------------ */

/* The column where the help of every row starts. */
#define HELP_COLUMN 22

/* Prints the left part of a row ("  -o, --output FILE", "  INPUT").
 * @return its length. */
static size_t print_row_head(const ak_opt *o)
{
    char head[128];
    if (o->kind == AK_OPT_OPERAND)
        snprintf(head, sizeof head, "  %s", o->value_name);
    else if (o->short_name)
        snprintf(head, sizeof head, "  -%c, --%s%s%s", o->short_name, o->long_name,
                 o->value_name ? " " : "", o->value_name ? o->value_name : "");
    else
        snprintf(head, sizeof head, "      --%s%s%s", o->long_name, o->value_name ? " " : "",
                 o->value_name ? o->value_name : "");
    fputs(head, stdout);
    return strlen(head);
}

/* Prints `text` line by line, each line after the first indented to the
 * help column. */
static void print_help_lines(const char *text)
{
    for (;;) {
        const char *nl = strchr(text, '\n');
        printf("%.*s\n", nl ? (int)(nl - text) : (int)strlen(text), text);
        if (!nl)
            return;
        text = nl + 1;
        printf("%*s", HELP_COLUMN, "");
    }
}

static void print_row_help(const ak_opt *o)
{
    if (o->kind == AK_OPT_PROSE) {
        fputs(o->help, stdout);
        return;
    }
    size_t len = print_row_head(o);
    if (len < HELP_COLUMN)
        printf("%*s", (int)(HELP_COLUMN - len), "");
    else
        printf("\n%*s", HELP_COLUMN, "");
    print_help_lines(o->help);
}

int ak_print_cli_help(const ak_cli *cli)
{
    printf("usage: %s\n\n", cli->usage);
    for (const ak_opt *o = cli->options; o->kind != AK_OPT_END; o++)
        print_row_help(o);
    return ak_finish_stdout(cli->tool);
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */
/* ------------------------------------------------------------------------ */

static int suffix_shift(const char *s, unsigned *shift)
{
    static const char letters[] = "KMGT";
    if (*s == '\0') {
        *shift = 0;
        return 0;
    }
    if (s[1] != '\0' && !((s[1] == 'i' || s[1] == 'I') && s[2] == '\0'))
        return -1; /* "16M" or "16Mi" only */
    char upper = (*s >= 'a' && *s <= 'z') ? (char)(*s - 'a' + 'A') : *s;
    const char *p = strchr(letters, upper);
    if (!p)
        return -1;
    *shift = 10u * (unsigned)(p - letters + 1);
    return 0;
}

int ak_parse_count(const char *s, size_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift;
    if (errno != 0 || suffix_shift(end, &shift) != 0)
        return -1;
    if (shift && v > (ULLONG_MAX >> shift))
        return -1;
    v <<= shift;
    if (v > SIZE_MAX)
        return -1;
    *out = (size_t)v;
    return 0;
}

int ak_parse_memory(const char *name, const char *s, size_t *out, ak_err *e)
{
    if (ak_parse_count(s, out) != 0 || *out == 0)
        return ak_fail(e, "bad --%s '%s' (bytes, with a suffix K M G T: e.g. 64M, 4G)", name, s);
    return 0;
}

int ak_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
    if (errno != 0 || *end != '\0' || v > UINT64_MAX)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int ak_parse_i64(const char *s, int64_t *out)
{
    if (!s || *s == '\0' || *s == ' ' || *s == '\t')
        return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < INT64_MIN || v > INT64_MAX)
        return -1;
    *out = (int64_t)v;
    return 0;
}

static const char *skip_digits(const char *s, size_t *count)
{
    *count = 0;
    while (*s >= '0' && *s <= '9') {
        s++;
        (*count)++;
    }
    return s;
}

/* 1 for a decimal number as the help texts promise it: an optional sign,
 * digits with an optional '.' (a digit on at least one side), an optional
 * exponent; strtod() alone would also take hex, "inf", "nan" and leading
 * white space. */
static int is_decimal_number(const char *s)
{
    size_t whole, fraction = 0, exponent = 1;
    if (*s == '+' || *s == '-')
        s++;
    s = skip_digits(s, &whole);
    if (*s == '.')
        s = skip_digits(s + 1, &fraction);
    if (whole + fraction == 0)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        s = skip_digits(s, &exponent);
    }
    return exponent > 0 && *s == '\0';
}

int ak_parse_f64(const char *s, double *out)
{
    if (!s || !is_decimal_number(s))
        return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Timing and progress                                                       */
/* ------------------------------------------------------------------------ */

double ak_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double ak_ms_since(double t0)
{
    return (ak_now() - t0) * 1e3;
}

void ak_print_time(const char *label, double ms)
{
    fprintf(stderr, "%-10s%10.3f ms\n", label, ms);
}

#define AK_PROGRESS_AFTER 1.0     /* seconds a phase runs before its line shows */
#define AK_PROGRESS_TTY_EVERY 0.1 /* seconds between updates on a terminal      */
#define AK_PROGRESS_LOG_EVERY 2.0 /* seconds between lines of a log             */

void ak_progress_start(ak_progress *p, const char *tool, const char *what, uint64_t total,
                       ak_progress_mode mode)
{
    int tty = isatty(STDERR_FILENO);
    p->tool = tool;
    p->what = what;
    p->total = total;
    p->done = 0;
    p->start = ak_now();
    p->last = 0;
    p->shown = 0;
    p->enabled = !tool ? 0 : tty ? AK_PROGRESS_TTY : mode == AK_PROGRESS_ON ? AK_PROGRESS_LOG : 0;
}

int ak_progress_on(const ak_progress *p)
{
    return p && p->enabled;
}

/* "412 MiB", "1.00 GiB", "93.5 KiB", "17 B": three digits in binary units. */
static void format_bytes(char *buf, size_t cap, double v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    int decimals = u == 0 || v >= 100.0 ? 0 : v >= 10.0 ? 1 : 2;
    snprintf(buf, cap, "%.*f %s", decimals, v, units[u]);
}

/* "1.9 GB/s", "250 MB/s": decimal units, as transfer rates go. */
static void format_rate(char *buf, size_t cap, double v)
{
    static const char *const units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
    int u = 0;
    while (v >= 1000.0 && u < 4) {
        v /= 1000.0;
        u++;
    }
    snprintf(buf, cap, "%.*f %s", v >= 100.0 ? 0 : 1, v, units[u]);
}

/* ", 0.3 s left", ", 42 s left", ", 7 min left"; nothing without a total
 * or a rate. */
static void format_left(char *buf, size_t cap, const ak_progress *p, double rate)
{
    buf[0] = '\0';
    if (p->total == 0 || rate <= 0.0)
        return;
    double left = p->done < p->total ? (double)(p->total - p->done) / rate : 0.0;
    if (left >= 120.0)
        snprintf(buf, cap, ", %.0f min left", left / 60.0);
    else
        snprintf(buf, cap, ", %.*f s left", left < 10.0 ? 1 : 0, left);
}

/* The line: "tool: what DONE of TOTAL, RATE, T left" (no total: "DONE, RATE"). */
static void progress_print(const ak_progress *p, double now)
{
    char done[32], total[40] = "", rate[32], left[40];
    double r = (double)p->done / (now - p->start);
    format_bytes(done, sizeof done, (double)p->done);
    if (p->total > 0) {
        char t[32];
        format_bytes(t, sizeof t, (double)p->total);
        snprintf(total, sizeof total, " of %s", t);
    }
    format_rate(rate, sizeof rate, r);
    format_left(left, sizeof left, p, r);
    if (p->enabled == AK_PROGRESS_TTY)
        fprintf(stderr, "\r%s: %s %s%s, %s%s\033[K", p->tool, p->what, done, total, rate, left);
    else
        fprintf(stderr, "%s: %s %s%s, %s%s\n", p->tool, p->what, done, total, rate, left);
    fflush(stderr);
}

void ak_progress_add(ak_progress *p, uint64_t amount)
{
    if (!ak_progress_on(p))
        return;
    p->done += amount;
    double now = ak_now();
    double every = p->enabled == AK_PROGRESS_TTY ? AK_PROGRESS_TTY_EVERY : AK_PROGRESS_LOG_EVERY;
    if (now - p->start < AK_PROGRESS_AFTER || (p->shown && now - p->last < every))
        return;
    progress_print(p, now);
    p->last = now;
    p->shown = 1;
}

void ak_progress_end(ak_progress *p)
{
    if (!ak_progress_on(p) || !p->shown)
        return;
    if (p->enabled == AK_PROGRESS_TTY) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    p->shown = 0;
}
