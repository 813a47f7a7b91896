/*
 * test_runtime_names.c - the runtime layer's names: status codes and their
 * names and descriptions, OpenCL error names, versions, type and op names
 * (devices and contexts: test_runtime_context.c; parameters, tracing and
 * profiling: test_runtime_trace.c).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "skt_common.h"

TestSuite(status, .timeout = 60);
TestSuite(names, .timeout = 60);

/* ---- status codes ------------------------------------------------------------- */

typedef struct {
    int value;
    const char *name;
    const char *text;
} status_row;

static const status_row STATUS_ROWS[] = {
#define SKT_ROW_(name, value, text) {value, #name, text},
    SK_STATUS_MAP(SKT_ROW_)
#undef SKT_ROW_
};

Test(status, every_code_should_have_its_name_and_description)
{
    size_t rows = sizeof STATUS_ROWS / sizeof STATUS_ROWS[0];
    cr_assert_geq(rows, 8);
    for (size_t i = 0; i < rows; i++) {
        sk_status st = (sk_status)STATUS_ROWS[i].value;
        const char *name = sk_status_name(st), *text = sk_status_str(st);
        cr_assert_not_null(name, "sk_status_name(%d) is NULL", STATUS_ROWS[i].value);
        cr_assert_not_null(text, "sk_status_str(%d) is NULL", STATUS_ROWS[i].value);
        cr_assert_str_eq(name, STATUS_ROWS[i].name, "sk_status_name(%d)", STATUS_ROWS[i].value);
        cr_assert_str_eq(text, STATUS_ROWS[i].text, "sk_status_str(%d)", STATUS_ROWS[i].value);
    }
    cr_assert_eq(SK_OK, 0);
    for (size_t i = 1; i < rows; i++)
        cr_assert_lt(STATUS_ROWS[i].value, 0, "error codes are negative");
}

Test(status, unknown_values_should_be_named_unknown)
{
    const int unknown[] = {1, 7, -10, -100, 12345, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        sk_status st = (sk_status)unknown[i];
        cr_assert_str_eq(sk_status_name(st), "UNKNOWN", "sk_status_name(%d)", unknown[i]);
        const char *text = sk_status_str(st);
        cr_assert_not_null(text, "sk_status_str(%d) is NULL", unknown[i]);
        cr_assert_gt(strlen(text), 0, "sk_status_str(%d) is empty", unknown[i]);
        for (size_t r = 0; r < sizeof STATUS_ROWS / sizeof STATUS_ROWS[0]; r++)
            cr_assert_str_neq(text, STATUS_ROWS[r].text,
                              "sk_status_str(%d) claims to be a known code", unknown[i]);
    }
}

Test(status, opencl_error_codes_should_have_their_names)
{
#define E_(code) {code, #code}
    static const struct {
        cl_int code;
        const char *name;
    } rows[] = {
        E_(CL_SUCCESS),
        E_(CL_DEVICE_NOT_FOUND),
        E_(CL_DEVICE_NOT_AVAILABLE),
        E_(CL_COMPILER_NOT_AVAILABLE),
        E_(CL_MEM_OBJECT_ALLOCATION_FAILURE),
        E_(CL_OUT_OF_RESOURCES),
        E_(CL_OUT_OF_HOST_MEMORY),
        E_(CL_BUILD_PROGRAM_FAILURE),
        E_(CL_MISALIGNED_SUB_BUFFER_OFFSET),
        E_(CL_INVALID_VALUE),
        E_(CL_INVALID_DEVICE),
        E_(CL_INVALID_CONTEXT),
        E_(CL_INVALID_COMMAND_QUEUE),
        E_(CL_INVALID_MEM_OBJECT),
        E_(CL_INVALID_BINARY),
        E_(CL_INVALID_BUILD_OPTIONS),
        E_(CL_INVALID_PROGRAM),
        E_(CL_INVALID_PROGRAM_EXECUTABLE),
        E_(CL_INVALID_KERNEL_NAME),
        E_(CL_INVALID_KERNEL),
        E_(CL_INVALID_ARG_INDEX),
        E_(CL_INVALID_ARG_VALUE),
        E_(CL_INVALID_ARG_SIZE),
        E_(CL_INVALID_KERNEL_ARGS),
        E_(CL_INVALID_WORK_DIMENSION),
        E_(CL_INVALID_WORK_GROUP_SIZE),
        E_(CL_INVALID_WORK_ITEM_SIZE),
        E_(CL_INVALID_GLOBAL_OFFSET),
        E_(CL_INVALID_EVENT_WAIT_LIST),
        E_(CL_INVALID_OPERATION),
        E_(CL_INVALID_BUFFER_SIZE),
        E_(CL_INVALID_GLOBAL_WORK_SIZE),
    };
#undef E_
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *name = sk_cl_error_name(rows[i].code);
        cr_assert_not_null(name, "sk_cl_error_name(%d) is NULL", rows[i].code);
        cr_assert_str_eq(name, rows[i].name, "sk_cl_error_name(%d)", rows[i].code);
    }
    const char *unk = sk_cl_error_name(-12345);
    cr_assert_not_null(unk);
    cr_assert_gt(strlen(unk), 0);
    unk = sk_cl_error_name(1);
    cr_assert_not_null(unk);
}

Test(status, version_functions_should_agree_with_the_macros)
{
    cr_assert_eq(sk_version_number(), (unsigned)SK_VERSION_NUMBER);
    cr_assert_eq(SK_VERSION_NUMBER,
                 SK_VERSION_MAJOR * 10000 + SK_VERSION_MINOR * 100 + SK_VERSION_PATCH);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", SK_VERSION_MAJOR, SK_VERSION_MINOR, SK_VERSION_PATCH);
    cr_assert_not_null(sk_version_string());
    cr_assert_str_eq(sk_version_string(), want);
    cr_assert_eq(sk_version_string(), sk_version_string(), "not a static string");
}

/* ---- type and op names ------------------------------------------------------------- */

Test(names, types_should_round_trip_through_name_and_parse)
{
    static const char *const names[SK_KEY_TYPE_COUNT] = {
        "int32", "uint32", "int64", "uint64", "float32", "float64",
        "uint8", "int8",   "uint16", "int16", "float16"};
    static const size_t sizes[SK_KEY_TYPE_COUNT] = {4, 4, 8, 8, 4, 8, 1, 1, 2, 2, 2};
    for (int t = 0; t < SK_KEY_TYPE_COUNT; t++) {
        const char *n = sk_type_name((sk_type)t);
        cr_assert_not_null(n, "sk_type_name(%d)", t);
        cr_assert_str_eq(n, names[t]);
        sk_type back = (sk_type)-1;
        SKT_EXPECT_STATUS(sk_type_parse(n, &back), SK_OK);
        cr_assert_eq(back, (sk_type)t, "parse(%s)", n);
        cr_assert_eq(sk_type_size((sk_type)t), sizes[t], "sk_type_size(%s)", n);
    }
    static const struct {
        const char *alias;
        sk_type t;
    } aliases[] = {{"int", SK_INT32},   {"uint", SK_UINT32},   {"long", SK_INT64},
                   {"ulong", SK_UINT64}, {"float", SK_FLOAT32}, {"double", SK_FLOAT64},
                   {"i32", SK_INT32},   {"u32", SK_UINT32},    {"i64", SK_INT64},
                   {"u64", SK_UINT64},  {"f32", SK_FLOAT32},   {"f64", SK_FLOAT64},
                   {"uchar", SK_UINT8}, {"char", SK_INT8},     {"ushort", SK_UINT16},
                   {"short", SK_INT16}, {"half", SK_FLOAT16},  {"u8", SK_UINT8},
                   {"i8", SK_INT8},     {"u16", SK_UINT16},    {"i16", SK_INT16},
                   {"f16", SK_FLOAT16}};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        sk_type back = (sk_type)-1;
        SKT_EXPECT_STATUS(sk_type_parse(aliases[i].alias, &back), SK_OK);
        cr_assert_eq(back, aliases[i].t, "parse(%s)", aliases[i].alias);
    }
}

Test(names, every_row_of_the_type_map_should_be_what_the_type_functions_say)
{
    int rows = 0;
#define CHECK_ROW_(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, alias) \
    do {                                                                                      \
        const char *names_[] = {name, cl, alias};                                             \
        cr_assert_eq((int)SK_##suffix, value, "SK_" #suffix);                                 \
        cr_assert_eq(sk_type_size(SK_##suffix), (size_t)(bytes), "size of %s", name);         \
        cr_assert_str_eq(sk_type_name(SK_##suffix), name);                                    \
        cr_assert(!(is_float && is_signed), "%s: float and signed", name);                    \
        for (size_t i = 0; i < 3; i++) {                                                      \
            sk_type back = (sk_type)-1;                                                       \
            SKT_EXPECT_STATUS(sk_type_parse(names_[i], &back), SK_OK);                        \
            cr_assert_eq(back, SK_##suffix, "parse(%s)", names_[i]);                          \
        }                                                                                     \
        rows++;                                                                               \
    } while (0);
    SK_ALL_TYPES_MAP(CHECK_ROW_)
#undef CHECK_ROW_
    cr_assert_eq(rows, SK_KEY_TYPE_COUNT);
    cr_assert_eq(SK_TYPE_COUNT, 6, "SK_TYPE_MAP: the operators' six types");
}

Test(names, invalid_types_should_be_rejected)
{
    const char *bad[] = {"",   "int128",  "uint128", "float8", "int32 ",
                         "in", "doublex", "8",       "Int32",  "F64", "Float16", "u 8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sk_type out = (sk_type)77;
        SKT_EXPECT_STATUS(sk_type_parse(bad[i], &out), SK_E_INVALID_ARG);
        cr_assert_eq(out, (sk_type)77, "parse(\"%s\") wrote *out on failure", bad[i]);
    }
    sk_type out = (sk_type)77;
    SKT_EXPECT_STATUS(sk_type_parse(NULL, &out), SK_E_INVALID_ARG);
    cr_assert_eq(out, (sk_type)77);
    SKT_EXPECT_STATUS(sk_type_parse("int32", NULL), SK_E_INVALID_ARG);
    cr_assert_null(sk_type_name((sk_type)-1));
    cr_assert_null(sk_type_name((sk_type)SK_KEY_TYPE_COUNT));
    cr_assert_eq(sk_type_size((sk_type)-1), 0);
    cr_assert_eq(sk_type_size((sk_type)SK_KEY_TYPE_COUNT), 0);
}

Test(names, ops_should_round_trip_through_name_and_parse)
{
    static const char *const names[SK_OP_COUNT] = {"add", "mul", "min", "max",
                                                    "and", "or",  "xor"};
    for (int op = 0; op < SK_OP_COUNT; op++) {
        const char *n = sk_op_name((sk_op)op);
        cr_assert_not_null(n, "sk_op_name(%d)", op);
        cr_assert_str_eq(n, names[op]);
        sk_op back = (sk_op)-1;
        SKT_EXPECT_STATUS(sk_op_parse(n, &back), SK_OK);
        cr_assert_eq(back, (sk_op)op, "parse(%s)", n);
    }
}

Test(names, invalid_ops_should_be_rejected)
{
    const char *bad[] = {"", "sum", "plus", "adds", "ad", "+", "nand"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sk_op out = (sk_op)77;
        SKT_EXPECT_STATUS(sk_op_parse(bad[i], &out), SK_E_INVALID_ARG);
        cr_assert_eq(out, (sk_op)77, "parse(\"%s\") wrote *out on failure", bad[i]);
    }
    sk_op out = (sk_op)77;
    SKT_EXPECT_STATUS(sk_op_parse(NULL, &out), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_op_parse("add", NULL), SK_E_INVALID_ARG);
    cr_assert_null(sk_op_name((sk_op)-1));
    cr_assert_null(sk_op_name((sk_op)SK_OP_COUNT));
}
