/*
 * test_runtime.c - the runtime layer: status and error names, versions, type
 * and op names, device listing and selection, context creation and wrapping,
 * parameters, tracing and profiling (the program cache: test_cache.c).
 */
#define _GNU_SOURCE /* strcasestr, mkdtemp, setenv */
#include <ctype.h>
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skt_common.h"
#include "sk_testing.h"

/* After criterion.h: redirect.h pulls in internal/assert.h, which must come
 * after criterion/assert.h. */
#include <criterion/redirect.h>

TestSuite(status, .timeout = 60);
TestSuite(names, .timeout = 60);
TestSuite(devices, .init = skt_setup, .timeout = 120);
TestSuite(context, .init = skt_setup, .timeout = 120);
TestSuite(params, .init = skt_setup, .fini = skt_ctx_close, .timeout = 120);
TestSuite(trace, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);
TestSuite(profile, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

/* ---- helpers ------------------------------------------------------------------ */

/* Lists the devices, or skips the test when there are none. */
static size_t list_devices(sk_device_desc **out)
{
    size_t count = 0;
    sk_status st = sk_device_list(NULL, 0, &count);
    if (st == SK_E_NO_DEVICE || count == 0)
        cr_skip_test("no OpenCL device");
    cr_assert_eq(st, SK_OK, "sk_device_list -> %s", sk_status_name(st));
    sk_device_desc *d = skt_malloc(count * sizeof *d);
    size_t again = 0;
    SKT_EXPECT_STATUS(sk_device_list(d, count, &again), SK_OK);
    cr_assert_eq(again, count);
    *out = d;
    return count;
}

/* Opens a context with `spec` into skt_ctx (so skt_* buffer helpers work). */
static sk_context *open_ctx(const char *spec)
{
    sk_context *c = NULL;
    sk_status st = sk_context_create(&c, spec);
    if (st == SK_E_NO_DEVICE && spec == NULL)
        cr_skip_test("no OpenCL device");
    cr_assert_eq(st, SK_OK, "sk_context_create(%s) -> %s", spec ? spec : "NULL",
                 sk_status_name(st));
    cr_assert_not_null(c);
    return c;
}

/* A uint32 add scan of n elements on ctx through the host form, checked
 * against the reference. */
static void check_small_scan(sk_context *ctx, size_t n, sk_op op)
{
    uint32_t *in = skt_malloc(n * 4), *want = skt_malloc(n * 4), *got = skt_malloc(n * 4);
    skt_fill(SK_UINT32, op, in, n);
    skt_ref_scan(SK_UINT32, op, 0, in, want, n);
    skt_poison(got, n * 4);
    sk_status st = sk_scan_inclusive_host(ctx, SK_UINT32, op, in, got, n);
    cr_assert_eq(st, SK_OK, "scan -> %s (%s)", sk_status_name(st), sk_context_error_detail(ctx));
    skt_expect_elems(SK_UINT32, got, want, n, skt_fmt("uint32 %s scan n=%zu", sk_op_name(op), n));
    free(in);
    free(want);
    free(got);
}

static int rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_rf(const char *dir) { nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS); }

/* Lines of f, however long (a trace line carries its program's whole
 * configuration); *saw set when one of them contains needle. */
static unsigned long count_lines(FILE *f, const char *needle, int *saw)
{
    char *line = NULL;
    size_t cap = 0;
    unsigned long lines = 0;
    while (getline(&line, &cap, f) != -1) {
        lines++;
        if (strstr(line, needle)) *saw = 1;
    }
    free(line);
    return lines;
}

static char *make_tmpdir(void)
{
    char tmpl[] = "/tmp/skt-runtime-XXXXXX";
    char *d = mkdtemp(tmpl);
    cr_assert_not_null(d, "mkdtemp failed");
    return strdup(d);
}

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
    const int unknown[] = {1, 7, -8, -100, 12345, INT_MIN, INT_MAX};
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
    static const char *const names[SK_TYPE_COUNT] = {"int32",   "uint32",  "int64",
                                                      "uint64",  "float32", "float64"};
    static const size_t sizes[SK_TYPE_COUNT] = {4, 4, 8, 8, 4, 8};
    for (int t = 0; t < SK_TYPE_COUNT; t++) {
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
                   {"u64", SK_UINT64},  {"f32", SK_FLOAT32},   {"f64", SK_FLOAT64}};
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
    SK_TYPE_MAP(CHECK_ROW_)
#undef CHECK_ROW_
    cr_assert_eq(rows, SK_TYPE_COUNT);
}

Test(names, invalid_types_should_be_rejected)
{
    const char *bad[] = {"",   "int128",  "uint16", "float16", "int32 ",
                         "in", "doublex", "8",      "Int32",   "F64"};
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
    cr_assert_null(sk_type_name((sk_type)SK_TYPE_COUNT));
    cr_assert_eq(sk_type_size((sk_type)-1), 0);
    cr_assert_eq(sk_type_size((sk_type)SK_TYPE_COUNT), 0);
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

/* ---- devices ---------------------------------------------------------------------- */

Test(devices, list_should_agree_with_the_icd_loader)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);

    /* Independent count through OpenCL itself. */
    cl_uint np = 0;
    cr_assert_eq(clGetPlatformIDs(0, NULL, &np), CL_SUCCESS);
    cl_platform_id *ps = skt_malloc(np * sizeof *ps);
    cr_assert_eq(clGetPlatformIDs(np, ps, NULL), CL_SUCCESS);
    size_t total = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS)
            total += nd;
    }
    free(ps);
    cr_assert_eq(count, total, "sk_device_list counts %zu devices, the ICD loader %zu", count,
                 total);

    for (size_t i = 0; i < count; i++) {
        cr_assert_gt(strlen(d[i].platform_name), 0, "device %zu: empty platform name", i);
        cr_assert_gt(strlen(d[i].device_name), 0, "device %zu: empty device name", i);
        cr_assert_eq(strncmp(d[i].device_version, "OpenCL ", 7), 0,
                     "device %zu: version \"%s\"", i, d[i].device_version);
        cr_assert_gt(strlen(d[i].driver_version), 0);
        cr_assert_geq(d[i].compute_units, 1);
        cr_assert_gt(d[i].global_mem_bytes, 0);
        cr_assert_gt(d[i].max_alloc_bytes, 0);
        cr_assert_leq(d[i].max_alloc_bytes, d[i].global_mem_bytes);
        if (i == 0) {
            cr_assert_eq(d[i].platform_index, 0);
            cr_assert_eq(d[i].device_index, 0);
        } else if (d[i].platform_index == d[i - 1].platform_index) {
            cr_assert_eq(d[i].device_index, d[i - 1].device_index + 1, "device order");
        } else {
            cr_assert_gt(d[i].platform_index, d[i - 1].platform_index, "platform order");
            cr_assert_eq(d[i].device_index, 0);
        }
    }
    free(d);
}

Test(devices, list_should_report_the_full_count_whatever_the_capacity)
{
    sk_device_desc *all = NULL;
    size_t count = list_devices(&all);
    sk_device_desc one;
    size_t c = 0;
    SKT_EXPECT_STATUS(sk_device_list(&one, 1, &c), SK_OK);
    cr_assert_eq(c, count);
    cr_assert_str_eq(one.device_name, all[0].device_name);
    cr_assert_str_eq(one.platform_name, all[0].platform_name);

    sk_device_desc *more = skt_malloc((count + 4) * sizeof *more);
    c = 0;
    SKT_EXPECT_STATUS(sk_device_list(more, count + 4, &c), SK_OK);
    cr_assert_eq(c, count);
    for (size_t i = 0; i < count; i++)
        cr_assert_str_eq(more[i].device_name, all[i].device_name);

    SKT_EXPECT_STATUS(sk_device_list(NULL, 0, NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_device_list(more, 1, NULL), SK_E_INVALID_ARG);
    c = 12345;
    SKT_EXPECT_STATUS(sk_device_list(NULL, 3, &c), SK_E_INVALID_ARG);
    free(more);
    free(all);
}

/* ---- context creation --------------------------------------------------------------- */

static void expect_device(sk_context *c, const sk_device_desc *want, const char *spec)
{
    sk_device_desc got;
    SKT_EXPECT_STATUS(sk_context_device(c, &got), SK_OK);
    cr_assert_eq(got.platform_index, want->platform_index, "spec \"%s\"", spec);
    cr_assert_eq(got.device_index, want->device_index, "spec \"%s\"", spec);
    cr_assert_str_eq(got.device_name, want->device_name, "spec \"%s\"", spec);
    cr_assert_str_eq(got.platform_name, want->platform_name, "spec \"%s\"", spec);
}

Test(context, unknown_device_spec_should_give_no_device_and_a_null_context)
{
    const char *bad[] = {"no-such-device-xyz", "99:0", "0:99", "999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sk_context *c = (sk_context *)(uintptr_t)0x1;
        SKT_EXPECT_STATUS(sk_context_create(&c, bad[i]), SK_E_NO_DEVICE);
        cr_assert_null(c, "spec \"%s\": *ctx not set to NULL", bad[i]);
    }
    SKT_EXPECT_STATUS(sk_context_create(NULL, "0:0"), SK_E_INVALID_ARG);
}

Test(context, index_specs_should_pick_that_device)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);
    for (size_t i = 0; i < count; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "%u:%u", d[i].platform_index, d[i].device_index);
        sk_context *c = open_ctx(spec);
        expect_device(c, &d[i], spec);
        sk_context_free(c);
        snprintf(spec, sizeof spec, "%zu", i);
        c = open_ctx(spec);
        expect_device(c, &d[i], spec);
        sk_context_free(c);
    }
    free(d);
}

/* The first device whose "platform device" text contains needle (any case). */
static size_t first_match(const sk_device_desc *d, size_t count, const char *needle)
{
    for (size_t i = 0; i < count; i++) {
        char both[300];
        snprintf(both, sizeof both, "%s %s", d[i].platform_name, d[i].device_name);
        if (strcasestr(both, needle))
            return i;
    }
    return (size_t)-1;
}

Test(context, name_substring_should_pick_the_first_matching_device_ignoring_case)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);
    char needles[4][64];
    size_t nn = 0;
    /* A piece of the last device's name, upper-cased; a piece of the first
     * platform's name, lower-cased. */
    const char *dn = d[count - 1].device_name;
    size_t len = strlen(dn), take = len < 6 ? len : 6, from = len > 8 ? 2 : 0;
    for (size_t k = 0; k < take; k++)
        needles[nn][k] = (char)toupper((unsigned char)dn[from + k]);
    needles[nn++][take] = '\0';
    const char *pn = d[0].platform_name;
    len = strlen(pn);
    take = len < 8 ? len : 8;
    for (size_t k = 0; k < take; k++)
        needles[nn][k] = (char)tolower((unsigned char)pn[k]);
    needles[nn++][take] = '\0';

    for (size_t i = 0; i < nn; i++) {
        size_t want = first_match(d, count, needles[i]);
        cr_assert_neq(want, (size_t)-1);
        sk_context *c = open_ctx(needles[i]);
        expect_device(c, &d[want], needles[i]);
        sk_context_free(c);
    }
    free(d);
}

Test(context, default_should_be_the_first_gpu_else_the_first_device)
{
    unsetenv("SCANKIT_DEVICE");
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);
    size_t want = 0;
    for (size_t i = 0; i < count; i++)
        if (d[i].is_gpu) {
            want = i;
            break;
        }
    sk_context *c = open_ctx(NULL);
    expect_device(c, &d[want], "NULL");
    sk_context_free(c);
    free(d);
}

Test(context, empty_specs_match_nothing_and_blanks_around_a_spec_are_ignored)
{
    sk_device_desc *d = NULL;
    list_devices(&d);
    unsetenv("SCANKIT_DEVICE");
    const char *empty[] = {"", " ", "\t \n", " : ", "-0", "+0", "0x0", "0:", ":0", "0 :0"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        sk_context *c = (sk_context *)(uintptr_t)0x1;
        SKT_EXPECT_STATUS(sk_context_create(&c, empty[i]), SK_E_NO_DEVICE);
        cr_assert_null(c, "spec '%s' gave a context", empty[i]);
    }
    const char *zero[] = {"0", " 0", "0 ", "\t0\n", " 0:0 "};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) {
        sk_context *c = open_ctx(zero[i]);
        expect_device(c, &d[0], zero[i]);
        sk_context_free(c);
    }
    /* SCANKIT_DEVICE set to "" (or blanks) is an empty spec too, not unset. */
    const char *env[] = {"", "  "};
    for (size_t i = 0; i < 2; i++) {
        setenv("SCANKIT_DEVICE", env[i], 1);
        sk_context *c = (sk_context *)(uintptr_t)0x1;
        SKT_EXPECT_STATUS(sk_context_create(&c, NULL), SK_E_NO_DEVICE);
        cr_assert_null(c);
    }
    setenv("SCANKIT_DEVICE", " 0 ", 1);
    sk_context *c = open_ctx(NULL);
    expect_device(c, &d[0], "SCANKIT_DEVICE=' 0 '");
    sk_context_free(c);
    unsetenv("SCANKIT_DEVICE");
    free(d);
}

Test(context, scankit_device_should_choose_the_default_device)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);

    setenv("SCANKIT_DEVICE", "no-such-device-xyz", 1);
    sk_context *c = (sk_context *)(uintptr_t)0x1;
    SKT_EXPECT_STATUS(sk_context_create(&c, NULL), SK_E_NO_DEVICE);
    cr_assert_null(c);
    SKT_EXPECT_STATUS(sk_context_create(&c, ""), SK_E_NO_DEVICE);
    cr_assert_null(c);
    /* An explicit spec wins over the environment. */
    c = open_ctx("0:0");
    expect_device(c, &d[0], "0:0 with SCANKIT_DEVICE set");
    sk_context_free(c);

    char spec[32];
    snprintf(spec, sizeof spec, "%u:%u", d[count - 1].platform_index, d[count - 1].device_index);
    setenv("SCANKIT_DEVICE", spec, 1);
    c = open_ctx(NULL);
    expect_device(c, &d[count - 1], spec);
    sk_context_free(c);
    free(d);
}

Test(context, free_should_accept_null)
{
    sk_context_free(NULL);
    sk_context_free(NULL);
    /* ... and the library is still in working order afterwards. */
    sk_context *c = open_ctx(NULL);
    check_small_scan(c, 1001, SK_OP_ADD);
    sk_context_free(c);
}

Test(context, accessors_should_describe_a_consistent_context)
{
    sk_context *c = open_ctx(NULL);
    cl_context cc = sk_context_cl_context(c);
    cl_device_id dev = sk_context_cl_device(c);
    cl_command_queue q = sk_context_cl_queue(c);
    cr_assert_not_null(cc);
    cr_assert_not_null(dev);
    cr_assert_not_null(q);
    cl_context qc = NULL;
    cl_device_id qd = NULL;
    cl_command_queue_properties props = 0;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL), CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL), CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
                 CL_SUCCESS);
    cr_assert_eq(qc, cc);
    cr_assert_eq(qd, dev);
    cr_assert(props & CL_QUEUE_PROFILING_ENABLE, "queue without profiling");
    cr_assert_not(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "queue is out of order");

    sk_device_desc desc;
    SKT_EXPECT_STATUS(sk_context_device(c, &desc), SK_OK);
    char name[256] = "";
    cr_assert_eq(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
    cr_assert_eq(strncmp(desc.device_name, name, sizeof desc.device_name - 1), 0);
    cl_bool avail = CL_FALSE;
    cl_uint cus = 0;
    clGetDeviceInfo(dev, CL_DEVICE_AVAILABLE, sizeof avail, &avail, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    cr_assert_eq(desc.compute_units, cus);

    SKT_EXPECT_STATUS(sk_context_device(NULL, &desc), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_device(c, NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_finish(c), SK_OK);
    SKT_EXPECT_STATUS(sk_context_finish(NULL), SK_E_INVALID_ARG);
    sk_build_stats bs;
    SKT_EXPECT_STATUS(sk_context_build_stats(NULL, &bs), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_build_stats(c, NULL), SK_E_INVALID_ARG);

    /* A fresh context has no failure to report. */
    cr_assert_str_eq(sk_context_error_detail(c), "");
    cr_assert_str_eq(sk_context_build_log(c), "");
    cr_assert_eq(sk_context_cl_error(c), CL_SUCCESS);
    sk_context_free(c);
}

/* ---- wrapping the caller's OpenCL objects ----------------------------------------------- */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} cl_objs;

static cl_objs make_cl_objs(cl_command_queue_properties props)
{
    cl_objs o;
    memset(&o, 0, sizeof o);
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &o.platform, &np) != CL_SUCCESS || np == 0)
        cr_skip_test("no OpenCL platform");
    cl_uint nd = 0;
    if (clGetDeviceIDs(o.platform, CL_DEVICE_TYPE_ALL, 1, &o.device, &nd) != CL_SUCCESS || !nd)
        cr_skip_test("no OpenCL device");
    cl_int err = CL_SUCCESS;
    o.context = clCreateContext(NULL, 1, &o.device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateContext -> %s", sk_cl_error_name(err));
    o.queue = clCreateCommandQueue(o.context, o.device, props, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateCommandQueue -> %s", sk_cl_error_name(err));
    return o;
}

static cl_uint refcount_ctx(cl_context c)
{
    cl_uint r = 0;
    cr_assert_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof r, &r, NULL), CL_SUCCESS);
    return r;
}

static cl_uint refcount_queue(cl_command_queue q)
{
    cl_uint r = 0;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof r, &r, NULL),
                 CL_SUCCESS);
    return r;
}

Test(context, wrap_should_use_the_callers_objects_and_leave_them_valid)
{
    cl_objs o = make_cl_objs(0);
    cl_uint rc0 = refcount_ctx(o.context), rq0 = refcount_queue(o.queue);

    sk_context *c = NULL;
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, o.queue), SK_OK);
    cr_assert_not_null(c);
    cr_assert_eq(sk_context_cl_context(c), o.context);
    cr_assert_eq(sk_context_cl_device(c), o.device);
    cr_assert_eq(sk_context_cl_queue(c), o.queue);
    sk_device_desc desc;
    SKT_EXPECT_STATUS(sk_context_device(c, &desc), SK_OK);
    cr_assert_eq(desc.platform_index, 0, "wrapped first device should be listed as 0:0");
    cr_assert_eq(desc.device_index, 0);

    check_small_scan(c, 10007, SK_OP_ADD);
    sk_context_free(c);

    /* The caller's references are intact and the objects still work. The
     * driver may hold the queue for commands it is still retiring after
     * clFinish (PoCL frees finished commands on its own threads), so the
     * counts get a moment to settle; a reference scankit kept would never
     * come back. */
    cr_assert_eq(clFinish(o.queue), CL_SUCCESS);
    for (int tries = 0; tries < 200 && (refcount_ctx(o.context) != rc0 ||
                                        refcount_queue(o.queue) != rq0); tries++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    cr_assert_eq(refcount_ctx(o.context), rc0, "context reference count changed");
    cr_assert_eq(refcount_queue(o.queue), rq0, "queue reference count changed");
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(o.context, CL_MEM_READ_WRITE, 1024, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    unsigned char a[1024], b[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = (unsigned char)i;
    cr_assert_eq(clEnqueueWriteBuffer(o.queue, m, CL_TRUE, 0, 1024, a, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueReadBuffer(o.queue, m, CL_TRUE, 0, 1024, b, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(memcmp(a, b, 1024), 0);
    clReleaseMemObject(m);
    cr_assert_eq(clReleaseCommandQueue(o.queue), CL_SUCCESS);
    cr_assert_eq(clReleaseContext(o.context), CL_SUCCESS);
}

Test(context, wrap_should_reject_bad_objects)
{
    cl_objs o = make_cl_objs(0);
    sk_context *c = NULL;
    SKT_EXPECT_STATUS(sk_context_wrap(NULL, o.context, o.device, o.queue), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, NULL, o.device, o.queue), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, NULL, o.queue), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, NULL), SK_E_INVALID_ARG);

    /* A queue of another context. */
    cl_objs o2 = make_cl_objs(0);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, o2.queue), SK_E_INVALID_ARG);

    clReleaseCommandQueue(o2.queue);
    clReleaseContext(o2.context);
    clReleaseCommandQueue(o.queue);
    clReleaseContext(o.context);
}

Test(context, wrap_should_reject_an_out_of_order_queue)
{
    /* scankit relies on in-order execution between its launches. */
    cl_objs o = make_cl_objs(0);
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo = clCreateCommandQueue(o.context, o.device,
                                                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS)
        cr_skip_test("device has no out-of-order queues");
    sk_context *c = NULL;
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, ooo), SK_E_INVALID_ARG);
    clReleaseCommandQueue(ooo);
    clReleaseCommandQueue(o.queue);
    clReleaseContext(o.context);
}

/* ---- parameters ------------------------------------------------------------------------ */

static void open_param_ctx(void)
{
    unsetenv("SCANKIT_SHAPE");
    skt_ctx = open_ctx(NULL);
}

static void expect_param_values(sk_param p, const char *pname, const long *good, size_t ngood,
                                const long *bad, size_t nbad)
{
    for (size_t i = 0; i < ngood; i++) {
        SKT_EXPECT_STATUS(sk_context_set_param(skt_ctx, p, good[i]), SK_OK);
        long v = -999;
        SKT_EXPECT_STATUS(sk_context_get_param(skt_ctx, p, &v), SK_OK);
        if (p != SK_PARAM_SHAPE || good[i] != SK_SHAPE_AUTO)
            cr_assert_eq(v, good[i], "%s: set %ld, read %ld", pname, good[i], v);
    }
    /* Leave a known value, then try every bad one. */
    long keep = good[ngood - 1];
    SKT_EXPECT_STATUS(sk_context_set_param(skt_ctx, p, keep), SK_OK);
    long before = -999;
    SKT_EXPECT_STATUS(sk_context_get_param(skt_ctx, p, &before), SK_OK);
    for (size_t i = 0; i < nbad; i++) {
        sk_status st = sk_context_set_param(skt_ctx, p, bad[i]);
        cr_assert_eq(st, SK_E_INVALID_ARG, "%s = %ld -> %s, expected E_INVALID_ARG", pname,
                     bad[i], sk_status_name(st));
        long v = -999;
        SKT_EXPECT_STATUS(sk_context_get_param(skt_ctx, p, &v), SK_OK);
        cr_assert_eq(v, before, "%s changed to %ld by the rejected value %ld", pname, v, bad[i]);
    }
}

Test(params, out_of_range_values_should_be_rejected_and_change_nothing)
{
    open_param_ctx();
    {
        const long good[] = {SK_SHAPE_CPU, SK_SHAPE_GPU, SK_SHAPE_AUTO, SK_SHAPE_GPU};
        const long bad[] = {-1, 3, 100, LONG_MAX, LONG_MIN};
        expect_param_values(SK_PARAM_SHAPE, "SHAPE", good, 4, bad, 5);
    }
    {
        const long good[] = {0, 1, 2, 4, 64, 256, 1024, 128};
        const long bad[] = {-1, 3, 6, 100, 1000, 1023, 2048, 4096, LONG_MAX, LONG_MIN};
        expect_param_values(SK_PARAM_WG_SIZE, "WG_SIZE", good, 8, bad, 10);
    }
    {
        const long good[] = {0, 1, 2, 3, 7, 64, 4};
        const long bad[] = {-1, 65, 128, 1000, LONG_MAX, LONG_MIN};
        expect_param_values(SK_PARAM_ITEMS_PER_THREAD, "ITEMS_PER_THREAD", good, 7, bad, 6);
    }
    {
        const long good[] = {0, 1, 3, 1000, 65536, 16};
        const long bad[] = {-1, 65537, 1000000, LONG_MAX, LONG_MIN};
        expect_param_values(SK_PARAM_CPU_CHUNKS, "CPU_CHUNKS", good, 6, bad, 5);
    }
    {
        const long good[] = {0, 1, 100, 1L << 20, 4096};
        const long bad[] = {-1, LONG_MIN};
        expect_param_values(SK_PARAM_CPU_SERIAL_BELOW, "CPU_SERIAL_BELOW", good, 5, bad, 2);
    }
    {
        const long good[] = {1, 0};
        const long bad[] = {-1, 2, 100};
        expect_param_values(SK_PARAM_PROFILE, "PROFILE", good, 2, bad, 3);
    }
    {
        const long good[] = {1, 4096, 1L << 22, LONG_MAX, 0};
        const long bad[] = {-1, LONG_MIN};
        expect_param_values(SK_PARAM_CPU_SORT_LINES_FROM, "CPU_SORT_LINES_FROM", good, 5, bad,
                            2);
    }
}

Test(params, unknown_params_and_null_arguments_should_be_rejected)
{
    open_param_ctx();
    long v = 0;
    SKT_EXPECT_STATUS(sk_context_set_param(skt_ctx, (sk_param)0, 1), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_set_param(skt_ctx, (sk_param)99, 1), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_get_param(skt_ctx, (sk_param)0, &v), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_get_param(skt_ctx, (sk_param)99, &v), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_set_param(NULL, SK_PARAM_WG_SIZE, 64), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_get_param(NULL, SK_PARAM_WG_SIZE, &v), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_get_param(skt_ctx, SK_PARAM_WG_SIZE, NULL), SK_E_INVALID_ARG);
}

Test(params, sizes_should_start_automatic_and_shape_should_follow_the_device_type)
{
    open_param_ctx();
    const sk_param sizes[] = {SK_PARAM_WG_SIZE, SK_PARAM_ITEMS_PER_THREAD, SK_PARAM_CPU_CHUNKS,
                              SK_PARAM_CPU_SERIAL_BELOW, SK_PARAM_PROFILE};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        cr_assert_eq(skt_get_param(sizes[i]), 0, "param %d does not start at 0", (int)sizes[i]);
    sk_device_desc d;
    SKT_OK(sk_context_device(skt_ctx, &d));
    long want = d.is_gpu ? SK_SHAPE_GPU : SK_SHAPE_CPU;
    cr_assert_eq(skt_get_param(SK_PARAM_SHAPE), want, "shape in force on a %s device",
                 d.is_gpu ? "GPU" : "CPU");
    skt_set_param(SK_PARAM_SHAPE, d.is_gpu ? SK_SHAPE_CPU : SK_SHAPE_GPU);
    skt_set_param(SK_PARAM_SHAPE, SK_SHAPE_AUTO);
    cr_assert_eq(skt_get_param(SK_PARAM_SHAPE), want, "AUTO does not read back as %s",
                 skt_shape_name((sk_shape)want));
}

/* Kernel launches of one scan, as (kernel, options) lines. */
typedef struct {
    size_t count;
    char lines[64][512];
} launch_set;

static void collect_cb(const sk_launch_record *r, void *user)
{
    launch_set *s = user;
    if (s->count < 64)
        snprintf(s->lines[s->count], sizeof s->lines[0], "%s | %s",
                 r->kernel ? r->kernel : "(null)", r->options ? r->options : "(null)");
    s->count++;
}

static launch_set *launches_of_scan(sk_context *c)
{
    launch_set *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    SKT_EXPECT_STATUS(sk_context_set_trace(c, collect_cb, s), SK_OK);
    check_small_scan(c, 200003, SK_OP_ADD);
    SKT_EXPECT_STATUS(sk_context_set_trace(c, NULL, NULL), SK_OK);
    cr_assert_gt(s->count, 0, "no launch traced");
    return s;
}

static int same_launches(const launch_set *a, const launch_set *b)
{
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count && i < 64; i++)
        if (strcmp(a->lines[i], b->lines[i]) != 0)
            return 0;
    return 1;
}

Test(params, scankit_shape_should_force_the_shape)
{
    setenv("SCANKIT_SHAPE", "gpu", 1);
    sk_context *g = open_ctx(NULL);
    long v = 0;
    SKT_EXPECT_STATUS(sk_context_get_param(g, SK_PARAM_SHAPE, &v), SK_OK);
    cr_assert_eq(v, SK_SHAPE_GPU, "SCANKIT_SHAPE=gpu gave shape %ld", v);
    launch_set *lg = launches_of_scan(g);
    sk_context_free(g);

    setenv("SCANKIT_SHAPE", "cpu", 1);
    sk_context *c = open_ctx(NULL);
    SKT_EXPECT_STATUS(sk_context_get_param(c, SK_PARAM_SHAPE, &v), SK_OK);
    cr_assert_eq(v, SK_SHAPE_CPU, "SCANKIT_SHAPE=cpu gave shape %ld", v);
    launch_set *lc = launches_of_scan(c);

    /* The environment only sets the starting shape: the param still works,
     * and the shapes really launch different kernels. */
    SKT_EXPECT_STATUS(sk_context_set_param(c, SK_PARAM_SHAPE, SK_SHAPE_GPU), SK_OK);
    launch_set *lg2 = launches_of_scan(c);
    sk_context_free(c);
    cr_assert_not(same_launches(lg, lc), "the cpu and gpu shapes launched the same kernels");
    cr_assert(same_launches(lg, lg2), "SCANKIT_SHAPE=gpu and SK_PARAM_SHAPE=gpu differ");
    free(lg);
    free(lc);
    free(lg2);
    unsetenv("SCANKIT_SHAPE");
}

/* ---- tracing ----------------------------------------------------------------------------- */

typedef struct {
    size_t count;
    int bad_thread;
    pthread_t thread;
    struct {
        char kernel[128], program[64], scalars[512];
        int options_ok;
        size_t global, local;
    } r[256];
} trace_log;

static void trace_cb(const sk_launch_record *rec, void *user)
{
    trace_log *t = user;
    if (!pthread_equal(pthread_self(), t->thread))
        t->bad_thread = 1;
    if (t->count < 256) {
        snprintf(t->r[t->count].kernel, sizeof t->r[0].kernel, "%s", rec->kernel ? rec->kernel : "");
        snprintf(t->r[t->count].program, sizeof t->r[0].program, "%s",
                 rec->program ? rec->program : "");
        snprintf(t->r[t->count].scalars, sizeof t->r[0].scalars, "%s",
                 rec->scalars ? rec->scalars : "");
        t->r[t->count].options_ok = rec->options != NULL;
        t->r[t->count].global = rec->global_size;
        t->r[t->count].local = rec->local_size;
    }
    t->count++;
}

static int is_identifier(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

static void traced_scan(sk_shape shape)
{
    const size_t n = 77777;
    trace_log *t = calloc(1, sizeof *t);
    cr_assert_not_null(t);
    t->thread = pthread_self();
    skt_force_shape(shape);
    skt_set_param(SK_PARAM_PROFILE, 1);
    SKT_OK(sk_context_set_trace(skt_ctx, trace_cb, t));

    cl_mem s = skt_buf_new(n * 4), d = skt_buf_new(n * 4);
    uint32_t *in = skt_malloc(n * 4);
    skt_fill(SK_UINT32, SK_OP_ADD, in, n);
    skt_buf_upload(s, 0, in, n * 4);
    SKT_OK(sk_scan_exclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    double secs = 0;
    unsigned long launches = 0;
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));

    cr_assert_gt(t->count, 0, "%s shape: no launch traced", skt_shape_name(shape));
    cr_assert_eq(t->count, launches, "%s shape: %zu traced launches, %lu profiled",
                 skt_shape_name(shape), t->count, launches);
    cr_assert_not(t->bad_thread, "trace callback ran on another thread");
    int saw_n = 0;
    char needle[32];
    snprintf(needle, sizeof needle, "=%zu", n);
    for (size_t i = 0; i < t->count && i < 256; i++) {
        cr_assert(is_identifier(t->r[i].kernel), "launch %zu: kernel name \"%s\"", i,
                  t->r[i].kernel);
        cr_assert_gt(strlen(t->r[i].program), 0, "launch %zu: no program family", i);
        cr_assert(t->r[i].options_ok, "launch %zu: options is NULL", i);
        cr_assert_geq(t->r[i].local, 1, "launch %zu: local size 0", i);
        cr_assert_geq(t->r[i].global, t->r[i].local, "launch %zu: global < local", i);
        cr_assert_eq(t->r[i].global % t->r[i].local, 0,
                     "launch %zu (%s): global %zu not a multiple of local %zu", i,
                     t->r[i].kernel, t->r[i].global, t->r[i].local);
        const char *sc = t->r[i].scalars;
        if (strstr(sc, needle)) {
            const char *p = strstr(sc, needle) + strlen(needle);
            if (*p == '\0' || *p == ' ')
                saw_n = 1;
        }
    }
    cr_assert(saw_n, "%s shape: no launch has the scalar n=%zu (first scalars: \"%s\")",
              skt_shape_name(shape), n, t->r[0].scalars);

    /* Removed: nothing more is recorded. */
    size_t before = t->count;
    SKT_OK(sk_context_set_trace(skt_ctx, NULL, NULL));
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    SKT_OK(sk_context_finish(skt_ctx));
    cr_assert_eq(t->count, before, "the removed trace callback was still called");

    skt_buf_free(s);
    skt_buf_free(d);
    free(in);
    free(t);
}

Test(trace, callback_should_record_every_launch_in_cpu_shape) { traced_scan(SK_SHAPE_CPU); }

Test(trace, callback_should_record_every_launch_in_gpu_shape) { traced_scan(SK_SHAPE_GPU); }

Test(trace, set_trace_should_reject_a_null_context)
{
    SKT_EXPECT_STATUS(sk_context_set_trace(NULL, trace_cb, NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_set_trace(NULL, NULL, NULL), SK_E_INVALID_ARG);
}

Test(trace, scankit_trace_path_should_append_one_line_per_launch)
{
    char *dir = make_tmpdir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/trace.log", dir);
    setenv("SCANKIT_TRACE", path, 1);
    sk_context *c = open_ctx(NULL);
    unsetenv("SCANKIT_TRACE");
    SKT_OK(sk_context_set_param(c, SK_PARAM_PROFILE, 1));
    check_small_scan(c, 77777, SK_OP_ADD);
    unsigned long launches = 0;
    double secs = 0;
    SKT_OK(sk_context_profile_take(c, &secs, &launches));
    sk_context_free(c);

    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "SCANKIT_TRACE=%s wrote no file", path);
    int saw_n = 0;
    unsigned long lines = count_lines(f, "77777", &saw_n);
    fclose(f);
    cr_assert_eq(lines, launches, "%lu trace lines for %lu launches", lines, launches);
    cr_assert(saw_n, "no trace line mentions n=77777");
    rm_rf(dir);
    free(dir);
}

/* ---- profiling ------------------------------------------------------------------------- */

Test(profile, take_should_report_device_time_and_launches)
{
    const size_t n = 1 << 20;
    cl_mem s = skt_buf_new(n * 4), d = skt_buf_new(n * 4);
    uint32_t *in = skt_malloc(n * 4);
    skt_fill(SK_UINT32, SK_OP_ADD, in, n);
    skt_buf_upload(s, 0, in, n * 4);

    skt_set_param(SK_PARAM_PROFILE, 1);
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    double secs = -1;
    unsigned long launches = 0;
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    cr_assert_gt(secs, 0.0, "device time %g", secs);
    cr_assert_lt(secs, 60.0, "device time %g s for one scan", secs);
    cr_assert_gt(launches, 0);

    /* Taken: the record is empty now. */
    launches = 99;
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    cr_assert_eq(launches, 0, "the record was not cleared by the first take");

    /* Two scans: at least as many launches as one, and launches may be NULL. */
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    unsigned long one = launches;
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    cr_assert_eq(launches, 2 * one);
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, NULL));
    cr_assert_gt(secs, 0.0);

    /* Profiling off: nothing is recorded. */
    skt_set_param(SK_PARAM_PROFILE, 0);
    SKT_OK(sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, d, n));
    SKT_OK(sk_context_finish(skt_ctx));
    launches = 99;
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    cr_assert_eq(launches, 0, "launches recorded with SK_PARAM_PROFILE = 0");

    SKT_EXPECT_STATUS(sk_context_profile_take(NULL, &secs, &launches), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_profile_take(skt_ctx, NULL, &launches), SK_E_INVALID_ARG);
    skt_buf_free(s);
    skt_buf_free(d);
    free(in);
}

/* ---- silence -------------------------------------------------------------------------- */

static void quiet_init(void)
{
    unsetenv("SCANKIT_LOG");
    unsetenv("SCANKIT_TRACE");
    cr_redirect_stderr();
    cr_redirect_stdout();
    skt_ctx_open();
}

TestSuite(silence, .init = quiet_init, .fini = skt_ctx_close, .timeout = 120);

Test(silence, the_library_should_print_nothing_unless_asked)
{
    /* Successes, argument errors, unsupported ops, a failed device lookup,
     * builds and cache hits: none of it prints. (Failed kernel builds are
     * left out: the OpenCL compiler itself may print diagnostics.) */
    check_small_scan(skt_ctx, 5003, SK_OP_ADD);
    check_small_scan(skt_ctx, 5003, SK_OP_ADD);
    skt_force_shape(SK_SHAPE_GPU);
    check_small_scan(skt_ctx, 5003, SK_OP_MUL);
    cl_mem s = skt_buf_new(64);
    unsigned char res[8];
    sk_scan_inclusive(skt_ctx, (sk_type)99, SK_OP_ADD, s, s, 4);
    sk_scan_inclusive(NULL, SK_UINT32, SK_OP_ADD, s, s, 4);
    sk_reduce(skt_ctx, SK_FLOAT32, SK_OP_XOR, s, 4, res);
    sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, s, 1000);
    sk_context *c = NULL;
    sk_context_create(&c, "no-such-device-xyz");
    skt_buf_free(s);
    fflush(stdout);
    fflush(stderr);
    cr_assert_stderr_eq_str("", "the library wrote to stderr");
    cr_assert_stdout_eq_str("", "the library wrote to stdout");
}

static void trace_stderr_init(void)
{
    setenv("SCANKIT_TRACE", "1", 1);
    cr_redirect_stderr();
    skt_ctx_open();
    unsetenv("SCANKIT_TRACE");
}

TestSuite(trace_env, .init = trace_stderr_init, .fini = skt_ctx_close, .timeout = 120);

Test(trace_env, scankit_trace_1_should_write_one_line_per_launch_to_stderr)
{
    skt_set_param(SK_PARAM_PROFILE, 1);
    check_small_scan(skt_ctx, 77777, SK_OP_ADD);
    unsigned long launches = 0;
    double secs = 0;
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    fflush(stderr);
    FILE *f = cr_get_redirected_stderr();
    cr_assert_not_null(f);
    int saw_n = 0;
    unsigned long lines = count_lines(f, "77777", &saw_n);
    cr_assert_eq(lines, launches, "%lu stderr lines for %lu launches", lines, launches);
    cr_assert(saw_n, "no trace line mentions n=77777");
}

/* ---- tuning table and scratch ----------------------------------------------------- */

Test(context, tuning_table_should_have_a_portable_default_for_every_value)
{
    cr_assert_eq(sk__test_tuning_complete(), 1,
                 "a value of primitives/tuning.c has no row for any device: an unknown "
                 "device would get 0 for it");
}

/* Scans of n random uint32 (add) before and after the scratch is released,
 * both against a serial sum; a NULL context is refused. */
Test(context, released_scratch_should_be_allocated_again_by_the_next_call)
{
    SKT_EXPECT_STATUS(sk_context_release_scratch(NULL), SK_E_INVALID_ARG);
    sk_context *c = open_ctx(NULL);
    const size_t n = 100003;
    uint32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    cr_assert(in && out);
    for (size_t i = 0; i < n; i++) in[i] = (uint32_t)skt_rand_below(1u << 20);
    for (int round = 0; round < 3; round++) {
        memset(out, 0xA5, n * sizeof *out);
        SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT32, SK_OP_ADD, in, out, n), SK_OK);
        uint32_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            sum += in[i];
            cr_assert_eq(out[i], sum, "round %d: out[%zu] = %u, expected %u (seed %llu)", round,
                         i, out[i], sum, (unsigned long long)skt_seed());
        }
        SKT_EXPECT_STATUS(sk_context_release_scratch(c), SK_OK);
    }
    free(in);
    free(out);
    sk_context_free(c);
}
