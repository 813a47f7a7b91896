/*
 * appkit.c - errors, element types, option parsing, timing and progress
 * shared by the scankit command-line programs.
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
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return AK_EXIT_OK;
    fprintf(stderr, "%s: stdout: write failed: %s\n", tool, strerror(errno ? errno : EIO));
    return AK_EXIT_FAIL;
}

int ak_print_help(const char *tool, const char *usage, const char *help)
{
    printf("usage: %s\n\n%s", usage, help);
    return ak_finish_stdout(tool);
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

/* A little-endian .npy descr: '<', the kind ('f', 'i' or 'u'), the size. */
#define NPY_DESCR_(bytes, is_float, is_signed) \
    {'<', (is_float) ? 'f' : (is_signed) ? 'i' : 'u', (char)('0' + (bytes)), '\0'}

static const dtype_info dtype_table[AK_DTYPE_COUNT] = {
#define DTYPE_ROW_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, alias) \
    [AK_##suffix] = {name, NPY_DESCR_(bytes, is_float, is_signed), bytes, is_float, is_signed, \
                     {alias, cl}},
    SK_TYPE_MAP(DTYPE_ROW_)
#undef DTYPE_ROW_
    [AK_UINT8] = {"uint8", "|u1", 1, 0, 0, {"u8", NULL}},
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

int ak_check_scan_type(const char *name, ak_dtype t, sk_op op, ak_err *e)
{
    sk_type st;
    if (ak_dtype_to_sk(t, &st) != 0)
        return ak_fail(e, "%s: element type %s cannot be scanned (use %s)", name,
                       ak_dtype_name(t), AK_SK_TYPE_NAMES);
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

static const ak_option *find_long(const ak_option *opts, const char *name, size_t len)
{
    for (; opts->id != 0; opts++)
        if (opts->long_name && strlen(opts->long_name) == len &&
            strncmp(opts->long_name, name, len) == 0)
            return opts;
    return NULL;
}

static const ak_option *find_short(const ak_option *opts, char c)
{
    for (; opts->id != 0; opts++)
        if (opts->short_name == c)
            return opts;
    return NULL;
}

/* The value of an option that takes one: attached text, else the next word. */
static int take_value(ak_args *a, const ak_option *o, const char *attached,
                      const char *spelled, ak_err *e)
{
    if (attached) {
        a->value = attached;
        return o->id;
    }
    if (a->next >= a->argc)
        return ak_fail(e, "option '%s' needs a value", spelled), AK_ARGS_ERROR;
    a->value = a->argv[a->next++];
    return o->id;
}

static int parse_long(ak_args *a, const char *word, const ak_option *opts, ak_err *e)
{
    const char *name = word + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const ak_option *o = find_long(opts, name, len);
    if (!o)
        return ak_fail(e, "unknown option '--%.*s'", (int)len, name), AK_ARGS_ERROR;
    if (!o->takes_value) {
        if (eq)
            return ak_fail(e, "option '--%s' takes no value", o->long_name), AK_ARGS_ERROR;
        a->value = NULL;
        return o->id;
    }
    return take_value(a, o, eq ? eq + 1 : NULL, word, e);
}

static int parse_short(ak_args *a, const char *word, const ak_option *opts, ak_err *e)
{
    const ak_option *o = find_short(opts, word[1]);
    if (!o)
        return ak_fail(e, "unknown option '-%c'", word[1]), AK_ARGS_ERROR;
    if (!o->takes_value) {
        if (word[2] != '\0')
            return ak_fail(e, "unknown option '%s'", word), AK_ARGS_ERROR;
        a->value = NULL;
        return o->id;
    }
    return take_value(a, o, word[2] ? word + 2 : NULL, word, e);
}

int ak_args_next(ak_args *a, const ak_option *opts, ak_err *e)
{
    if (a->next >= a->argc)
        return AK_ARGS_END;
    const char *word = a->argv[a->next++];
    if (!a->operands_only && strcmp(word, "--") == 0) {
        a->operands_only = 1;
        return ak_args_next(a, opts, e);
    }
    if (a->operands_only || word[0] != '-' || word[1] == '\0') {
        a->value = word;
        return AK_ARGS_OPERAND;
    }
    if (word[1] == '-')
        return parse_long(a, word, opts, e);
    return parse_short(a, word, opts, e);
}

int ak_parse_command_line(const ak_cli *cli, int argc, char **argv, ak_take_option_fn take,
                          ak_check_args_fn check, void *args, const char **operand)
{
    ak_args it;
    ak_err e;
    ak_args_init(&it, argc, argv);
    int id;
    while ((id = ak_args_next(&it, cli->options, &e)) != AK_ARGS_END) {
        if (id == AK_ARGS_ERROR)
            return ak_print_usage_error(cli->tool, cli->usage, e.msg);
        if (id == AK_ARGS_OPERAND) {
            if (*operand) {
                snprintf(e.msg, sizeof e.msg, "more than one %s given", cli->operand);
                return ak_print_usage_error(cli->tool, cli->usage, e.msg);
            }
            *operand = it.value;
        } else if (take(args, id, it.value, &e) != 0) {
            return ak_print_usage_error(cli->tool, cli->usage, e.msg);
        }
    }
    if (check(args, &e) != 0)
        return ak_print_usage_error(cli->tool, cli->usage, e.msg);
    return AK_EXIT_OK;
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

#define AK_PROGRESS_MIN_TOTAL ((uint64_t)256 << 20)

void ak_progress_start(ak_progress *p, const char *tool, const char *what, uint64_t total)
{
    p->tool = tool ? tool : "";
    p->what = what;
    p->total = total;
    p->done = 0;
    p->last_percent = -1;
    p->enabled = tool && total >= AK_PROGRESS_MIN_TOTAL && isatty(STDERR_FILENO);
}

void ak_progress_add(ak_progress *p, uint64_t amount)
{
    if (!p || !p->enabled)
        return;
    p->done += amount;
    int percent = (int)((double)p->done * 100.0 / (double)p->total);
    if (percent > 100)
        percent = 100;
    if (percent == p->last_percent)
        return;
    p->last_percent = percent;
    fprintf(stderr, "\r%s: %s %3d%%", p->tool, p->what, percent);
    fflush(stderr);
}

void ak_progress_end(ak_progress *p)
{
    if (!p || !p->enabled || p->last_percent < 0)
        return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    p->last_percent = -1;
}
