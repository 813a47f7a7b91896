/*
 * monoid.c - the element types and operators: their names, and the
 * built-in (type, operator) monoids as OpenCL C text, the identity, the
 * combine and the vector forms the scan's CPU shape may use (scan.c).
 */
#include "sk_internal.h"

#include <string.h>

/* The identities of add, min and max, one line per row of SK_TYPE_MAP:
 * add's is -0.0 for floats (+0.0 + -0.0 is +0.0), min's the largest value,
 * max's the smallest. They are exact: identity op x == x bit for bit for
 * every x (floats: add's -0.0 + x is x for every x but a NaN, which stays a
 * NaN; min's +inf and max's -inf under IEEE minimum / maximum below). */
#define SCAN_IDS_INT32   "0",     "INT_MAX",            "INT_MIN"
#define SCAN_IDS_UINT32  "0",     "UINT_MAX",           "0u"
#define SCAN_IDS_INT64   "0",     "LONG_MAX",           "LONG_MIN"
#define SCAN_IDS_UINT64  "0",     "ULONG_MAX",          "0ul"
#define SCAN_IDS_FLOAT32 "-0.0f", "INFINITY",           "-INFINITY"
#define SCAN_IDS_FLOAT64 "-0.0",  "((double)INFINITY)", "(-(double)INFINITY)"

static const struct {
    size_t size;
    const char *cl;        /* OpenCL C type */
    const char *uns;       /* same-width unsigned type: wrapping arithmetic, float bits */
    const char *alias;     /* short name ("i32") */
    const char *add_id, *min_id, *max_id;
    bool is_float, is_signed;
} types[SK_TYPE_COUNT] = {
#define SCAN_TYPE_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, alias) \
    [SK_##suffix] = {bytes, cl, cl_bits, alias, SCAN_IDS_##suffix, is_float, is_signed},
    SK_TYPE_MAP(SCAN_TYPE_)
#undef SCAN_TYPE_
};

#define SCAN_TYPE_CHECK_(suffix, value, name, bytes, cl, cl_bits, c_type, ...) \
    _Static_assert(sizeof(c_type) == (bytes), "SK_TYPE_MAP: bytes of " name);
SK_ALL_TYPES_MAP(SCAN_TYPE_CHECK_)
#undef SCAN_TYPE_CHECK_

/* Float min and max: IEEE 754-2019 minimum and maximum (-0.0 < +0.0; a NaN
 * operand makes the result NaN), where a NaN result is the left-most NaN
 * operand, bits unchanged, never a NaN the hardware makes: associative on
 * bit patterns, so any grouping gives the serial fold's bits; not
 * commutative on NaNs. a if a is NaN or less, else if a == b (+-0 or the
 * same bits) the OR (min) or AND (max) of their bits, the zero wanted,
 * else b. The selects are on the bits: NVIDIA's compiler turned the same
 * selects on floats into its minimum instruction, which returns its own
 * NaN (0x7fffffff) for a NaN operand. For scalars and vectors alike (?: on
 * a vector selects lane by lane). Filled in with the type and its width,
 * '<' or '>', the unsigned type and width (four times, '|' or '&' after
 * the third). */
static const char float_minmax_text[] =
    "as_%s%s(((a != a) | (a %c b)) ? as_%s%s(a) : (a == b) ? (as_%s%s(a) %c as_%s%s(b)) : "
    "as_%s%s(b))";

/* Every sk_type's name, size and OpenCL C names (SK_ALL_TYPES_MAP). */
static const struct {
    const char *name, *cl, *alias;
    size_t size;
} all_types[SK_KEY_TYPE_COUNT] = {
#define ALL_TYPE_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, alias) \
    [SK_##suffix] = {name, cl, alias, bytes},
    SK_ALL_TYPES_MAP(ALL_TYPE_)
#undef ALL_TYPE_
};
static const char *const op_names[SK_OP_COUNT] = {"add", "mul", "min", "max",
                                                  "and", "or", "xor"};

size_t sk_type_size(sk_type t)
{
    return (unsigned)t < SK_KEY_TYPE_COUNT ? all_types[t].size : 0;
}

const char *sk_type_name(sk_type t)
{
    return (unsigned)t < SK_KEY_TYPE_COUNT ? all_types[t].name : NULL;
}

sk_status sk__require_op_type(sk_context *ctx, sk_type t)
{
    if ((unsigned)t >= SK_KEY_TYPE_COUNT)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid element type %d", (int)t);
    if ((unsigned)t >= SK_TYPE_COUNT)
        return sk__fail(ctx, SK_E_UNSUPPORTED, "%s is a sort key type only", all_types[t].name);
    return SK_OK;
}

const char *sk_op_name(sk_op op) { return (unsigned)op < SK_OP_COUNT ? op_names[op] : NULL; }

sk_status sk_type_parse(const char *name, sk_type *out)
{
    if (!name || !out) return SK_E_INVALID_ARG;
    for (int t = 0; t < SK_KEY_TYPE_COUNT; t++) {
        if (strcmp(name, all_types[t].name) == 0 || strcmp(name, all_types[t].cl) == 0 ||
            strcmp(name, all_types[t].alias) == 0) {
            *out = (sk_type)t;
            return SK_OK;
        }
    }
    return SK_E_INVALID_ARG;
}

sk_status sk_op_parse(const char *name, sk_op *out)
{
    if (!name || !out) return SK_E_INVALID_ARG;
    for (int i = 0; i < SK_OP_COUNT; i++) {
        if (strcmp(name, op_names[i]) == 0) {
            *out = (sk_op)i;
            return SK_OK;
        }
    }
    return SK_E_INVALID_ARG;
}

/* Writes the operator text for scalar (w == "") or vector (w == "8", "4") types. */
static void op_text(sk_type t, sk_op op, const char *w, char *out, size_t len)
{
    const char *ty = types[t].cl;
    switch (op) {
    case SK_OP_ADD:
    case SK_OP_MUL: {
        char sym = op == SK_OP_ADD ? '+' : '*';
        if (types[t].is_signed) /* wrap modulo 2^bits instead of overflowing */
            snprintf(out, len, "as_%s%s(as_%s%s(a) %c as_%s%s(b))", ty, w, types[t].uns, w,
                     sym, types[t].uns, w);
        else
            snprintf(out, len, "a %c b", sym);
        break;
    }
    case SK_OP_MIN:
    case SK_OP_MAX:
        if (types[t].is_float) {
            bool min = op == SK_OP_MIN;
            const char *u = types[t].uns;
            snprintf(out, len, float_minmax_text, ty, w, min ? '<' : '>', u, w, u, w,
                     min ? '|' : '&', u, w, u, w);
        } else
            snprintf(out, len, "%s(a, b)", op == SK_OP_MIN ? "min" : "max");
        break;
    case SK_OP_AND: snprintf(out, len, "a & b"); break;
    case SK_OP_OR: snprintf(out, len, "a | b"); break;
    case SK_OP_XOR: snprintf(out, len, "a ^ b"); break;
    }
}

sk_status sk__monoid_of(sk_context *ctx, sk_type t, sk_op op, sk__monoid_text *buf,
                        sk_monoid *out, bool *order_free)
{
    sk_status st = sk__require_op_type(ctx, t);
    if (st != SK_OK) return st;
    if ((unsigned)op >= SK_OP_COUNT)
        return sk__fail(ctx, SK_E_INVALID_ARG, "invalid operator %d", (int)op);
    const char *ty = types[t].cl;
    if (types[t].is_float && op >= SK_OP_AND)
        return sk__fail(ctx, SK_E_UNSUPPORTED, "operator %s is not defined on %s",
                        op_names[op], all_types[t].name);
    st = sk__require_fp64(ctx, t);
    if (st != SK_OK) return st;
    const char *ident = "0";
    switch (op) {
    case SK_OP_ADD: ident = types[t].add_id; break;
    case SK_OP_MUL: ident = "1"; break;
    case SK_OP_MIN: ident = types[t].min_id; break;
    case SK_OP_MAX: ident = types[t].max_id; break;
    case SK_OP_AND: ident = "~0"; break;
    case SK_OP_OR:
    case SK_OP_XOR: ident = "0"; break;
    }
    snprintf(buf->identity, sizeof buf->identity, "(%s)(%s)", ty, ident);
    op_text(t, op, "", buf->combine, sizeof buf->combine);
    op_text(t, op, "8", buf->vec_combine, sizeof buf->vec_combine);
    snprintf(buf->vec_type, sizeof buf->vec_type, "%s8", ty);
    op_text(t, op, "4", buf->vec4_combine, sizeof buf->vec4_combine);
    snprintf(buf->vec4_type, sizeof buf->vec4_type, "%s4", ty);
    *out = (sk_monoid){ty, sk_type_size(t), buf->identity, buf->combine, NULL};
    /* Associative on every bit pattern: integers, and float min/max (see
     * float_minmax_text); float add and mul are not. */
    if (order_free) *order_free = !types[t].is_float || op == SK_OP_MIN || op == SK_OP_MAX;
    return SK_OK;
}

bool sk__type_is_float(sk_type t)
{
    return (unsigned)t < SK_TYPE_COUNT && types[t].is_float;
}

sk_status sk__validate_monoid(sk_context *ctx, const sk_monoid *m)
{
    if (!m) return sk__fail(ctx, SK_E_INVALID_ARG, "monoid is NULL");
    if (!m->type || !*m->type || !m->identity || !*m->identity || !m->combine ||
        !*m->combine)
        return sk__fail(ctx, SK_E_INVALID_ARG, "monoid needs type, identity and combine");
    if (m->size == 0) return sk__fail(ctx, SK_E_INVALID_ARG, "monoid size is 0");
    const char *texts[] = {m->type, m->identity, m->combine, m->preamble};
    const char *what[] = {"monoid's type", "monoid's identity", "monoid's combine",
                          "monoid's preamble"};
    for (int i = 0; i < 4; i++)
        if (sk__check_user_code(ctx, what[i], texts[i]) != SK_OK) return SK_E_INVALID_ARG;
    return SK_OK;
}
