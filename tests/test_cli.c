/*
 * test_cli.c - end-to-end tests of the command-line programs (scan, datagen).
 *
 * Each test runs in a fresh temporary directory (its "work" subdirectory is
 * the current directory), starts the built programs with posix_spawn, and
 * captures their stdout and stderr into files beside "work", so that the
 * listing of "work" shows exactly what the programs left behind.
 *
 * Results are checked against a plain serial scan written here. Children
 * get SCANKIT_CACHE_DIR pointing into the build tree (shared by all tests,
 * so kernels compile once) unless a test gives its own.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scankit.h"
#include "ref/reference.h"
#include "skt_cli.h"
#include "sk_rng.h"

#ifndef SKT_APP_DIR
#error "SKT_APP_DIR must name the directory of the built programs"
#endif
#ifndef SKT_BINARY_DIR
#error "SKT_BINARY_DIR must name the build directory"
#endif

extern char **environ;

/* ------------------------------------------------------------------------ */
/* Per-test directories                                                      */
/* ------------------------------------------------------------------------ */

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-cli");
}

static void cli_teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(scan_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 120);
TestSuite(datagen_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 60);

/* ------------------------------------------------------------------------ */
/* Running the programs                                                      */
/* ------------------------------------------------------------------------ */

typedef skt_cli_result run_result;

typedef struct run_opts {
    const char *stdin_path; /* NULL: /dev/null */
    const char *cache_dir;  /* NULL: the shared cache in the build tree */
} run_opts;

static run_result run_argv(const run_opts *o, char *const argv[])
{
    return skt_cli_run_argv(o ? o->stdin_path : NULL, o ? o->cache_dir : NULL, argv);
}

#define MAX_ARGS 32

/* Runs SKT_APP_DIR/tool with the arguments in args[], up to a NULL. */
static run_result run_list(const run_opts *o, const char *tool, const char *const *args)
{
    return skt_cli_run(tool, o ? o->stdin_path : NULL, o ? o->cache_dir : NULL, args);
}

/* Runs SKT_APP_DIR/tool with the arguments up to a NULL. */
static run_result run_tool(const run_opts *o, const char *tool, ...)
{
    const char *args[MAX_ARGS + 1];
    size_t n = 0;
    va_list ap;
    va_start(ap, tool);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && n < MAX_ARGS)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    return run_list(o, tool, args);
}

#define SCAN(...) run_tool(NULL, "scan", __VA_ARGS__, (const char *)NULL)
#define DATAGEN(...) run_tool(NULL, "datagen", __VA_ARGS__, (const char *)NULL)

/* Skips the test when the programs cannot reach an OpenCL device. */
static void require_device(void)
{
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0)
        cr_skip_test("no OpenCL device");
}

/* 1 when the device the programs will pick has double precision. */
static int default_device_has_fp64(void)
{
    sk_context *ctx = NULL;
    sk_device_desc d;
    int has_fp64 = sk_context_create(&ctx, NULL) == SK_OK &&
                   sk_context_device(ctx, &d) == SK_OK && d.has_fp64;
    sk_context_free(ctx);
    return has_fp64;
}

/* ------------------------------------------------------------------------ */
/* Element types and the .npy format                                         */
/* ------------------------------------------------------------------------ */

#define T_U32 (&skt_cli_types[SK_UINT32])
#define T_I32 (&skt_cli_types[SK_INT32])
#define T_U64 (&skt_cli_types[SK_UINT64])
#define T_I64 (&skt_cli_types[SK_INT64])
#define T_F32 (&skt_cli_types[SK_FLOAT32])
#define T_F64 (&skt_cli_types[SK_FLOAT64])

/* A .npy v1.0 file with the given header fields, padded to 64 bytes. */
static unsigned char *make_npy(const char *descr, const char *fortran, const char *shape,
                               const void *data, size_t data_len, size_t *len)
{
    char dict[256];
    int dlen = snprintf(dict, sizeof dict,
                        "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                        fortran, shape);
    size_t header = ((size_t)10 + (size_t)dlen + 1 + 63) / 64 * 64;
    unsigned char *buf = malloc(header + data_len);
    cr_assert_not_null(buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((header - 10) & 0xff);
    buf[9] = (unsigned char)((header - 10) >> 8);
    memcpy(buf + 10, dict, (size_t)dlen);
    memset(buf + 10 + dlen, ' ', header - 10 - (size_t)dlen);
    buf[header - 1] = '\n';
    memcpy(buf + header, data, data_len);
    *len = header + data_len;
    return buf;
}

static void write_npy(const char *path, const char *descr, const char *fortran,
                      const char *shape, const void *data, size_t data_len)
{
    size_t len;
    unsigned char *buf = make_npy(descr, fortran, shape, data, data_len, &len);
    skt_cli_write_file(path, buf, len);
    free(buf);
}

/* The data of an element file read as `t`; for .npy checks the header's
 * magic, dtype and shape first. *n is the element count. */
static unsigned char *load_elements(const char *path, int is_npy, const skt_cli_type *t,
                                    size_t *n, unsigned char **base)
{
    size_t len;
    unsigned char *buf = skt_cli_slurp(path, &len);
    size_t offset = 0;
    if (is_npy) {
        cr_assert(len >= 10 && memcmp(buf, "\x93NUMPY", 6) == 0, "%s: no .npy magic", path);
        cr_assert(buf[6] == 1 || buf[6] == 2, "%s: .npy version %u", path, buf[6]);
        offset = buf[6] == 1 ? 10u + (buf[8] | (size_t)buf[9] << 8)
                             : 12u + (buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16);
        cr_assert_leq(offset, len, "%s: header longer than the file", path);
        char want[64];
        snprintf(want, sizeof want, "'descr': '%s'", t->descr);
        char saved = (char)buf[offset - 1];
        buf[offset - 1] = 0;
        cr_assert_not_null(strstr((char *)buf + 10, want), "%s: header %s lacks %s", path,
                           (char *)buf + 10, want);
        char shape[64];
        snprintf(shape, sizeof shape, "'shape': (%zu,)", (len - offset) / t->size);
        cr_assert_not_null(strstr((char *)buf + 10, shape), "%s: header %s lacks %s", path,
                           (char *)buf + 10, shape);
        buf[offset - 1] = (unsigned char)saved;
    }
    cr_assert_eq((len - offset) % t->size, 0, "%s: %zu data bytes", path, len - offset);
    *n = (len - offset) / t->size;
    *base = buf;
    return buf + offset;
}

/* ------------------------------------------------------------------------ */
/* Serial reference scan                                                     */
/* ------------------------------------------------------------------------ */

static uint64_t load_bits(const unsigned char *p, size_t size)
{
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint64_t width_mask(const skt_cli_type *t)
{
    return t->size == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * t->size)) - 1);
}

/* The value of the bits as a signed number of the type's width. */
static int64_t as_signed(const skt_cli_type *t, uint64_t bits)
{
    uint64_t sign = (uint64_t)1 << (8 * t->size - 1);
    uint64_t magnitude = bits & (sign - 1);
    return (bits & sign) ? (int64_t)magnitude - (int64_t)(sign - 1) - 1 : (int64_t)magnitude;
}

static int int_less(const skt_cli_type *t, uint64_t a, uint64_t b)
{
    return t->is_signed ? as_signed(t, a) < as_signed(t, b) : a < b;
}

static uint64_t int_identity(const skt_cli_type *t, const char *op)
{
    uint64_t mask = width_mask(t);
    uint64_t sign = (uint64_t)1 << (8 * t->size - 1);
    if (strcmp(op, "mul") == 0)
        return 1;
    if (strcmp(op, "and") == 0)
        return mask;
    if (strcmp(op, "min") == 0)
        return t->is_signed ? sign - 1 : mask;
    if (strcmp(op, "max") == 0)
        return t->is_signed ? sign : 0;
    return 0; /* add, or, xor */
}

/* Wrapping arithmetic on the unsigned bits: no signed overflow. */
static uint64_t int_combine(const skt_cli_type *t, const char *op, uint64_t a, uint64_t b)
{
    uint64_t mask = width_mask(t);
    if (strcmp(op, "add") == 0)
        return (a + b) & mask;
    if (strcmp(op, "mul") == 0)
        return (a * b) & mask;
    if (strcmp(op, "min") == 0)
        return int_less(t, b, a) ? b : a;
    if (strcmp(op, "max") == 0)
        return int_less(t, a, b) ? b : a;
    if (strcmp(op, "and") == 0)
        return a & b;
    if (strcmp(op, "or") == 0)
        return a | b;
    return a ^ b;
}

static void check_int_scan(const skt_cli_type *t, const char *op, int exclusive,
                           const unsigned char *in, const unsigned char *out, size_t n)
{
    uint64_t acc = int_identity(t, op);
    for (size_t i = 0; i < n; i++) {
        uint64_t next = int_combine(t, op, acc, load_bits(in + i * t->size, t->size));
        uint64_t want = exclusive ? acc : next;
        uint64_t got = load_bits(out + i * t->size, t->size);
        if (got != want)
            cr_assert_fail("%s %s %s scan: element %zu of %zu is 0x%llx, expected 0x%llx",
                           exclusive ? "exclusive" : "inclusive", t->name, op, i, n,
                           (unsigned long long)got, (unsigned long long)want);
        acc = next;
    }
}

static long double load_float(const skt_cli_type *t, const unsigned char *p)
{
    return skt_ref_real_at(t->size == 4 ? SK_FLOAT32 : SK_FLOAT64, p, 0);
}

/* gamma_k = k u / (1 - k u): the bound on the relative error of k rounded
 * additions or multiplications in any order (Higham, ASNA 2nd ed., 3.1). */
static long double gamma_k(const skt_cli_type *t, size_t k)
{
    long double u = t->size == 4 ? FLT_EPSILON / 2.0L : DBL_EPSILON / 2.0L;
    return (long double)k * u / (1.0L - (long double)k * u);
}

/* min and max: bit for bit the serial fold of the library's semantics
 * (scankit.h, "Float semantics"), through the tests' reference. */
static void check_float_minmax(const skt_cli_type *t, const char *op, int exclusive,
                               const unsigned char *in, const unsigned char *out, size_t n)
{
    sk_type type = t->size == 4 ? SK_FLOAT32 : SK_FLOAT64;
    unsigned char *want = malloc(n * t->size + 1);
    cr_assert_not_null(want);
    skt_ref_scan(type, strcmp(op, "min") == 0 ? SK_OP_MIN : SK_OP_MAX, exclusive, in, want, n);
    for (size_t i = 0; i < n; i++)
        if (memcmp(out + i * t->size, want + i * t->size, t->size) != 0)
            cr_assert_fail("%s %s %s scan: element %zu of %zu is %.17Lg, expected %.17Lg",
                           exclusive ? "exclusive" : "inclusive", t->name, op, i, n,
                           load_float(t, out + i * t->size), load_float(t, want + i * t->size));
    free(want);
}

/* add and mul within gamma_k of the exact result, where k is the number of
 * operations in the prefix (any association order). The long double
 * reference adds at most k * LDBL_EPSILON relative error. With `exact`
 * (inputs whose every partial result is representable) the bound is zero.
 * (add's identity is -0.0, as the library's.) */
static void check_float_scan(const skt_cli_type *t, const char *op, int exclusive, int exact,
                             const unsigned char *in, const unsigned char *out, size_t n)
{
    int is_add = strcmp(op, "add") == 0, is_mul = strcmp(op, "mul") == 0;
    if (!is_add && !is_mul) {
        check_float_minmax(t, op, exclusive, in, out, n);
        return;
    }
    long double acc = is_add ? -0.0L : 1.0L;
    long double magnitude = is_add ? 0.0L : 1.0L; /* sum |x| or |product| */
    for (size_t i = 0; i < n; i++) {
        long double x = load_float(t, in + i * t->size);
        long double next = is_add ? acc + x : acc * x;
        long double next_mag = is_add ? magnitude + fabsl(x) : is_mul ? magnitude * fabsl(x)
                                                                      : 0.0L;
        size_t terms = exclusive ? i : i + 1;
        long double want = exclusive ? acc : next;
        long double mag = exclusive ? magnitude : next_mag;
        size_t ops = terms > 0 ? terms - 1 : 0;
        long double bound =
            exact ? 0.0L : (gamma_k(t, ops) + (long double)ops * LDBL_EPSILON) * mag;
        long double got = load_float(t, out + i * t->size);
        if (got != want && !(fabsl(got - want) <= bound))
            cr_assert_fail("%s %s %s scan: element %zu of %zu is %.17Lg, expected %.17Lg "
                           "within %.3Lg",
                           exclusive ? "exclusive" : "inclusive", t->name, op, i, n, got,
                           want, bound);
        acc = next;
        magnitude = next_mag;
    }
}

static void check_scan(const skt_cli_type *t, const char *op, int exclusive,
                       const unsigned char *in, const unsigned char *out, size_t n)
{
    if (t->is_float)
        check_float_scan(t, op, exclusive, 0, in, out, n);
    else
        check_int_scan(t, op, exclusive, in, out, n);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */
/* ------------------------------------------------------------------------ */

typedef struct scan_case {
    const skt_cli_type *type;
    const char *op;
    int exclusive;
    int npy;
    const char *count;
    const char *dist;  /* datagen --dist */
    const char *range; /* datagen --range or NULL */
    const char *chunk; /* scan --chunk or NULL */
} scan_case;

/* datagen -> scan -> compare with the serial reference. */
static void round_trip(const scan_case *c, unsigned seed)
{
    char in[64], out[64], seed_text[32];
    snprintf(in, sizeof in, "in-%u.%s", seed, c->npy ? "npy" : "bin");
    snprintf(out, sizeof out, "out-%u.%s", seed, c->npy ? "npy" : "bin");
    snprintf(seed_text, sizeof seed_text, "%u", seed);
    const char *gen[] = {"-n", c->count, "--type", c->type->name, "--dist", c->dist,
                         "--seed", seed_text, "-o", in, c->range ? "--range" : NULL,
                         c->range, NULL};
    run_result g = run_list(NULL, "datagen", gen);
    skt_cli_expect_success(&g, "datagen");
    skt_cli_free(&g);
    /* raw files need --type; .npy files carry it */
    const char *scan[12] = {in, "-o", out, "--op", c->op};
    size_t k = 5;
    if (c->exclusive)
        scan[k++] = "--exclusive";
    if (!c->npy) {
        scan[k++] = "--type";
        scan[k++] = c->type->name;
    }
    if (c->chunk) {
        scan[k++] = "--chunk";
        scan[k++] = c->chunk;
    }
    scan[k] = NULL;
    run_result s = run_list(NULL, "scan", scan);
    skt_cli_expect_success(&s, "scan");
    skt_cli_free(&s);
    unsigned char *in_base, *out_base;
    size_t n_in, n_out;
    unsigned char *x = load_elements(in, c->npy, c->type, &n_in, &in_base);
    unsigned char *y = load_elements(out, c->npy, c->type, &n_out, &out_base);
    cr_assert_eq(n_out, n_in, "scan wrote %zu elements for %zu", n_out, n_in);
    check_scan(c->type, c->op, c->exclusive, x, y, n_in);
    free(in_base);
    free(out_base);
}

static void run_cases(const scan_case *cases, size_t count)
{
    require_device();
    for (size_t i = 0; i < count; i++)
        round_trip(&cases[i], 1000u + (unsigned)i);
}

Test(scan_cli, should_match_a_serial_scan_for_integer_types_through_raw_files)
{
    static const scan_case cases[] = {
        {T_U32, "add", 0, 0, "100003", "uniform", NULL, NULL},
        {T_U32, "xor", 1, 0, "1000", "uniform", NULL, NULL},
        {T_I32, "max", 0, 0, "1000", "uniform", NULL, NULL},
        {T_I32, "add", 1, 0, "1000", "uniform", NULL, NULL},
        {T_U64, "mul", 0, 0, "1000", "uniform", "1:7", NULL},
        {T_I64, "min", 1, 0, "1000", "uniform", NULL, NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_match_a_serial_scan_for_integer_types_through_npy_files)
{
    static const scan_case cases[] = {
        {T_U32, "min", 1, 1, "1000", "uniform", NULL, NULL},
        {T_I32, "mul", 0, 1, "1000", "uniform", "-3:-1", NULL},
        {T_U64, "add", 1, 1, "4099", "uniform", NULL, NULL},
        {T_U64, "and", 0, 1, "1000", "entropy:1", NULL, NULL},
        {T_I64, "or", 0, 1, "1000", "entropy:6", NULL, NULL},
        {T_I64, "max", 0, 1, "1000", "few-unique", NULL, NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_match_a_serial_scan_for_float_types_within_the_rounding_bound)
{
    static const scan_case cases[] = {
        {T_F32, "add", 0, 1, "1000", "uniform", NULL, NULL},
        {T_F32, "min", 1, 0, "1000", "uniform", "-100:100", NULL},
        {T_F32, "mul", 1, 1, "1000", "uniform", "0.5:1.5", NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_match_a_serial_scan_for_float64_where_the_device_has_fp64)
{
    require_device();
    if (!default_device_has_fp64())
        cr_skip_test("the default device has no fp64");
    static const scan_case cases[] = {
        {T_F64, "add", 1, 1, "3000", "uniform", "-1:1", NULL},
        {T_F64, "max", 0, 0, "1000", "uniform", NULL, NULL},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Floats whose every partial sum (multiples of 1/4 below 2^15) or product
 * (powers of two with a bounded exponent, signs) is exact, so the result
 * must equal the serial one bit for bit in any association order. */
static void fill_exact_floats(const skt_cli_type *t, const char *op, unsigned char *buf, size_t n)
{
    static const double factors[4] = {2.0, 0.5, -1.0, 1.0};
    uint64_t state = 12345;
    int exponent = 0;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(state >> 60);
        double v = strcmp(op, "add") == 0 ? (double)r / 4.0 : factors[r & 3];
        if (v == 2.0 && exponent >= 60)
            v = 0.5;
        if (v == 0.5 && exponent <= -60)
            v = 2.0;
        exponent += v == 2.0 ? 1 : v == 0.5 ? -1 : 0;
        if (t->size == 4) {
            float f = (float)v;
            memcpy(buf + 4 * i, &f, 4);
        } else {
            memcpy(buf + 8 * i, &v, 8);
        }
    }
}

static void exact_float_case(const skt_cli_type *t, const char *op, int exclusive)
{
    enum { N = 5000 };
    static unsigned char in[N * 8];
    fill_exact_floats(t, op, in, N);
    char shape[32];
    snprintf(shape, sizeof shape, "(%d,)", N);
    write_npy("exact.npy", t->descr, "False", shape, in, N * t->size);
    run_result r = exclusive ? SCAN("exact.npy", "-o", "out.npy", "--op", op, "-e")
                             : SCAN("exact.npy", "-o", "out.npy", "--op", op);
    skt_cli_expect_success(&r, "scan exact.npy");
    skt_cli_free(&r);
    size_t n;
    unsigned char *base;
    unsigned char *out = load_elements("out.npy", 1, t, &n, &base);
    cr_assert_eq(n, N);
    check_float_scan(t, op, exclusive, 1, in, out, n);
    free(base);
}

Test(scan_cli, should_match_a_serial_float_scan_exactly_when_partial_results_are_exact)
{
    require_device();
    exact_float_case(T_F32, "add", 0);
    exact_float_case(T_F32, "mul", 1);
    if (default_device_has_fp64()) {
        exact_float_case(T_F64, "add", 1);
        exact_float_case(T_F64, "mul", 0);
    }
}

Test(scan_cli, should_carry_the_running_total_across_device_passes)
{
    static const scan_case cases[] = {
        {T_U32, "add", 0, 0, "1000", "uniform", NULL, "2"},
        {T_U32, "add", 1, 0, "1000", "uniform", NULL, "7"},
        {T_I64, "max", 1, 1, "1000", "uniform", NULL, "64"},
        {T_I32, "xor", 0, 1, "1000", "uniform", NULL, "999"},
        {T_F32, "min", 1, 1, "1000", "uniform", NULL, "10"},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scan_cli, should_write_an_empty_output_for_an_empty_input)
{
    require_device();
    skt_cli_write_file("empty.bin", "", 0);
    run_result r = SCAN("empty.bin");
    skt_cli_expect_success(&r, "scan empty.bin");
    size_t len;
    free(skt_cli_slurp("empty.scan.bin", &len));
    cr_assert_eq(len, 0);
    skt_cli_free(&r);
}

/* ------------------------------------------------------------------------ */
/* Output naming, stdin/stdout, in place                                     */
/* ------------------------------------------------------------------------ */

static const uint32_t small_u32[5] = {1, 2, 3, 4, 5};
static const uint32_t small_u32_sums[5] = {1, 3, 6, 10, 15};

static void expect_file_u32(const char *path, int is_npy, const uint32_t *want, size_t n)
{
    size_t got_n;
    unsigned char *base;
    unsigned char *data = load_elements(path, is_npy, T_U32, &got_n, &base);
    cr_assert_eq(got_n, n, "%s holds %zu elements, expected %zu", path, got_n, n);
    cr_assert_eq(memcmp(data, want, n * 4), 0, "%s holds the wrong values", path);
    free(base);
}

Test(scan_cli, should_name_the_default_output_after_the_input_and_keep_its_format)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    write_npy("data.npy", "<u4", "False", "(5,)", small_u32, sizeof small_u32);
    skt_cli_write_file("noext", small_u32, sizeof small_u32);
    const char *inputs[] = {"data.bin", "data.npy", "noext"};
    for (size_t i = 0; i < 3; i++) {
        run_result r = SCAN(inputs[i]);
        skt_cli_expect_success(&r, inputs[i]);
        skt_cli_free(&r);
    }
    expect_file_u32("data.scan.bin", 0, small_u32_sums, 5);
    expect_file_u32("data.scan.npy", 1, small_u32_sums, 5);
    expect_file_u32("noext.scan", 0, small_u32_sums, 5);
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "data.bin\ndata.npy\ndata.scan.bin\ndata.scan.npy\nnoext\n"
                            "noext.scan\n");
    free(names);
}

Test(scan_cli, should_read_stdin_and_write_stdout_for_dash)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    run_opts o = {.stdin_path = "data.bin"};
    run_result r = run_tool(&o, "scan", "-", (const char *)NULL);
    skt_cli_expect_success(&r, "scan - < data.bin");
    cr_assert_eq(r.out_len, sizeof small_u32_sums);
    cr_assert_eq(memcmp(r.out, small_u32_sums, sizeof small_u32_sums), 0);
    skt_cli_free(&r);
    r = SCAN("data.bin", "-o", "-");
    skt_cli_expect_success(&r, "scan data.bin -o -");
    cr_assert_eq(r.out_len, sizeof small_u32_sums);
    cr_assert_eq(memcmp(r.out, small_u32_sums, sizeof small_u32_sums), 0);
    skt_cli_free(&r);
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "data.bin\n");
    free(names);
}

Test(scan_cli, should_recognise_npy_on_stdin_and_write_npy_to_stdout)
{
    require_device();
    write_npy("data.npy", "<u4", "False", "(5,)", small_u32, sizeof small_u32);
    run_opts o = {.stdin_path = "data.npy"};
    run_result r = run_tool(&o, "scan", "-", "-o", "out.npy", (const char *)NULL);
    skt_cli_expect_success(&r, "scan - -o out.npy < data.npy");
    skt_cli_free(&r);
    expect_file_u32("out.npy", 1, small_u32_sums, 5);
    r = run_tool(&o, "scan", "-", (const char *)NULL);
    skt_cli_expect_success(&r, "scan - < data.npy");
    skt_cli_write_file("stdout.npy", r.out, r.out_len);
    expect_file_u32("stdout.npy", 1, small_u32_sums, 5);
    skt_cli_free(&r);
}

Test(scan_cli, should_replace_the_input_with_in_place)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    struct stat before;
    cr_assert_eq(stat("data.bin", &before), 0);
    run_result r = SCAN("data.bin", "--in-place");
    skt_cli_expect_success(&r, "scan --in-place");
    skt_cli_free(&r);
    expect_file_u32("data.bin", 0, small_u32_sums, 5);
    struct stat after;
    cr_assert_eq(stat("data.bin", &after), 0);
    cr_assert_eq(after.st_mode & 07777, before.st_mode & 07777, "the file mode changed");
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "data.bin\n");
    free(names);
}

Test(scan_cli, should_refuse_to_overwrite_the_input_without_in_place)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    cr_assert_eq(link("data.bin", "alias.bin"), 0);
    const char *spellings[] = {"data.bin", "./data.bin", "alias.bin"};
    for (size_t i = 0; i < 3; i++) {
        run_result r = SCAN("data.bin", "-o", spellings[i]);
        skt_cli_expect_one_line_failure(&r, "scan: ", "--in-place");
        skt_cli_free(&r);
    }
    expect_file_u32("data.bin", 0, small_u32, 5);
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "alias.bin\ndata.bin\n");
    free(names);
}

/* ------------------------------------------------------------------------ */
/* Bad input: exit 1, one line, nothing left behind                          */
/* ------------------------------------------------------------------------ */

/* Runs scan on `input` (plus extra arguments) and expects a clean failure
 * that leaves the working directory as it was. */
static void expect_clean_failure(const char *needle, const char *input, const char *a1,
                                 const char *a2)
{
    char *before = skt_cli_listing(".");
    run_result r = run_tool(NULL, "scan", input, a1, a2, (const char *)NULL);
    skt_cli_expect_one_line_failure(&r, "scan: ", needle);
    char *after = skt_cli_listing(".");
    cr_assert_str_eq(after, before, "the directory changed:\n%s\nwas:\n%s", after, before);
    skt_cli_free(&r);
    free(before);
    free(after);
}

Test(scan_cli, should_reject_a_size_that_is_not_a_multiple_of_the_element_size)
{
    skt_cli_write_file("data.bin", "0123456789", 10);
    expect_clean_failure("size 10 is not a multiple of 4 (uint32)", "data.bin", NULL, NULL);
    expect_clean_failure("size 10 is not a multiple of 8 (uint64)", "data.bin", "--type",
                         "uint64");
}

Test(scan_cli, should_reject_an_npy_file_with_a_bad_magic)
{
    size_t len;
    unsigned char *buf = make_npy("<u4", "False", "(5,)", small_u32, sizeof small_u32, &len);
    buf[1] = 'X';
    skt_cli_write_file("data.npy", buf, len);
    free(buf);
    expect_clean_failure("bad magic", "data.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_npy_file_with_a_truncated_header)
{
    size_t len;
    unsigned char *buf = make_npy("<u4", "False", "(5,)", small_u32, sizeof small_u32, &len);
    skt_cli_write_file("short.npy", buf, 40);
    skt_cli_write_file("tiny.npy", buf, 7);
    free(buf);
    expect_clean_failure("truncated", "short.npy", NULL, NULL);
    expect_clean_failure("truncated", "tiny.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_npy_file_with_truncated_or_extra_data)
{
    write_npy("short.npy", "<u4", "False", "(6,)", small_u32, sizeof small_u32);
    write_npy("long.npy", "<u4", "False", "(4,)", small_u32, sizeof small_u32);
    expect_clean_failure("truncated", "short.npy", NULL, NULL);
    expect_clean_failure("longer", "long.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_unsupported_npy_dtype)
{
    write_npy("half.npy", "<f2", "False", "(10,)", small_u32, 20);
    write_npy("bytes.npy", "|S4", "False", "(5,)", small_u32, 20);
    expect_clean_failure("unsupported .npy dtype '<f2'", "half.npy", NULL, NULL);
    expect_clean_failure("unsupported .npy dtype '|S4'", "bytes.npy", NULL, NULL);
}

Test(scan_cli, should_reject_a_big_endian_npy_file)
{
    write_npy("data.npy", ">u4", "False", "(5,)", small_u32, sizeof small_u32);
    expect_clean_failure("big-endian", "data.npy", NULL, NULL);
}

Test(scan_cli, should_reject_a_fortran_order_npy_file)
{
    write_npy("data.npy", "<u4", "True", "(5,)", small_u32, sizeof small_u32);
    expect_clean_failure("fortran_order", "data.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_npy_shape_that_is_not_one_dimensional)
{
    write_npy("matrix.npy", "<u4", "False", "(1, 5)", small_u32, sizeof small_u32);
    write_npy("scalar.npy", "<u4", "False", "()", small_u32, 4);
    expect_clean_failure("not 1-D", "matrix.npy", NULL, NULL);
    expect_clean_failure("not 1-D", "scalar.npy", NULL, NULL);
}

Test(scan_cli, should_reject_a_type_that_disagrees_with_the_npy_dtype)
{
    write_npy("data.npy", "<u4", "False", "(5,)", small_u32, sizeof small_u32);
    expect_clean_failure("disagrees", "data.npy", "--type", "int32");
}

Test(scan_cli, should_reject_a_bitwise_op_on_a_float_npy_file)
{
    float x[3] = {1.0f, 2.0f, 3.0f};
    write_npy("data.npy", "<f4", "False", "(3,)", x, sizeof x);
    expect_clean_failure("integer type", "data.npy", "--op", "xor");
}

Test(scan_cli, should_report_a_missing_input_file)
{
    expect_clean_failure("no-such-file.bin: cannot open", "no-such-file.bin", NULL, NULL);
}

Test(scan_cli, should_report_a_device_spec_that_matches_nothing)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    expect_clean_failure("--device 'no-such-device-anywhere'", "data.bin", "--device",
                         "no-such-device-anywhere");
}

Test(scan_cli, should_report_an_output_directory_that_does_not_exist)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    expect_clean_failure("cannot create", "data.bin", "-o", "missing/out.bin");
    expect_clean_failure("Not a directory", "data.bin", "-o", "data.bin/out.bin");
}

Test(scan_cli, should_report_an_unwritable_output_directory)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    cr_assert_eq(mkdir("locked", 0555), 0);
    int probe = open("locked/probe", O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (probe >= 0) { /* root ignores directory permissions */
        close(probe);
        unlink("locked/probe");
        cr_skip_test("directory permissions are not enforced for this user");
    }
    expect_clean_failure("cannot create", "data.bin", "-o", "locked/out.bin");
    char *names = skt_cli_listing("locked");
    cr_assert_str_eq(names, "");
    free(names);
}

Test(scan_cli, should_fail_cleanly_when_the_output_device_is_full)
{
    require_device();
    if (!skt_cli_file_exists("/dev/full"))
        cr_skip_test("no /dev/full");
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    expect_clean_failure("No space left", "data.bin", "-o", "/dev/full");
    /* stdout on /dev/full: the failure shows at the final flush */
    char *before = skt_cli_listing(".");
    run_opts o = {.stdin_path = "data.bin"};
    char app[4200];
    snprintf(app, sizeof app, "%s/scan", SKT_APP_DIR);
    char *argv[] = {"/bin/sh", "-c", "\"$0\" - > /dev/full", app, NULL};
    run_result r = run_argv(&o, argv);
    skt_cli_expect_one_line_failure(&r, "scan: ", "stdout");
    char *after = skt_cli_listing(".");
    cr_assert_str_eq(after, before);
    skt_cli_free(&r);
    free(before);
    free(after);
}

/* ------------------------------------------------------------------------ */
/* Usage, help, version                                                      */
/* ------------------------------------------------------------------------ */

Test(scan_cli, should_exit_2_on_usage_errors)
{
    const char *cases[][4] = {
        {"data.bin", "--frobnicate", NULL},        /* unknown option */
        {"data.bin", "-o", NULL},                  /* missing argument */
        {"data.bin", "--op", "pow", NULL},         /* bad --op */
        {"data.bin", "--type", "int8", NULL},      /* bad --type */
        {"data.bin", "--exclusive=yes", NULL},     /* value for a flag */
        {"data.bin", "other.bin", NULL},           /* two inputs */
        {"--time", NULL},                          /* no input */
        {"-", "--in-place", NULL},                 /* in place on stdin */
        {"data.bin", "--type=float32", "--op=and", NULL},
    };
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_list(NULL, "scan", cases[i]);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "data.bin\n");
    free(names);
}

Test(scan_cli, should_print_help_and_exit_0)
{
    run_result r = SCAN("--help");
    skt_cli_expect_success(&r, "scan --help");
    cr_assert_not_null(strstr(r.out, "usage: scan INPUT"));
    cr_assert_not_null(strstr(r.out, "--exclusive"));
    cr_assert_str_eq(r.err, "");
    skt_cli_free(&r);
}

Test(scan_cli, should_print_the_library_version)
{
    run_result r = SCAN("--version");
    skt_cli_expect_success(&r, "scan --version");
    char want[64];
    snprintf(want, sizeof want, "scan (scankit) %s\n", sk_version_string());
    cr_assert_str_eq(r.out, want);
    skt_cli_free(&r);
}

Test(scan_cli, should_list_devices_as_a_table)
{
    require_device();
    run_result r = SCAN("--list-devices");
    skt_cli_expect_success(&r, "scan --list-devices");
    cr_assert_eq(strncmp(r.out, "index", 5), 0, "no table header: %s", r.out);
    cr_assert_not_null(strstr(r.out, "\n0:0 "), "no device 0:0 listed: %s", r.out);
    skt_cli_free(&r);
}

/* ------------------------------------------------------------------------ */
/* --time and the program cache                                              */
/* ------------------------------------------------------------------------ */

static const char *time_line(const char *err, const char *label)
{
    size_t len = strlen(label);
    for (const char *line = err; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, label, len) == 0)
            return line;
    }
    return NULL;
}

static void parse_build_line(const char *err, unsigned long *compiled, unsigned long *disk,
                             unsigned long *memory)
{
    const char *line = time_line(err, "build:");
    cr_assert_not_null(line, "no build: line in: %s", err);
    const char *counts = strstr(line, "compiled ");
    cr_assert_not_null(counts, "no counts in: %s", line);
    cr_assert_eq(sscanf(counts, "compiled %lu, disk %lu, memory %lu", compiled, disk, memory),
                 3, "cannot read counts in: %s", line);
}

Test(scan_cli, should_print_a_time_breakdown)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    run_result r = SCAN("data.bin", "--time");
    skt_cli_expect_success(&r, "scan --time");
    const char *labels[] = {"read:", "upload:", "build:", "compute:", "download:",
                            "write:", "total:"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        cr_assert_not_null(time_line(r.err, labels[i]), "no %s line in: %s", labels[i], r.err);
    cr_assert_not_null(strstr(time_line(r.err, "compute:"), "elements/s"));
    unsigned long compiled, disk, memory;
    parse_build_line(r.err, &compiled, &disk, &memory);
    skt_cli_free(&r);
}

Test(scan_cli, should_load_kernels_from_the_disk_cache_in_a_second_process)
{
    require_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", skt_cli_root);
    run_opts o = {.cache_dir = cache};
    unsigned long compiled, disk, memory;

    run_result first = run_tool(&o, "scan", "data.bin", "--time", "--op", "max",
                                (const char *)NULL);
    skt_cli_expect_success(&first, "first scan");
    parse_build_line(first.err, &compiled, &disk, &memory);
    cr_assert_geq(compiled, 1, "a fresh cache should compile: %s", first.err);
    cr_assert_eq(disk, 0, "a fresh cache holds nothing: %s", first.err);
    skt_cli_free(&first);

    run_result second = run_tool(&o, "scan", "data.bin", "--time", "--op", "max",
                                 (const char *)NULL);
    skt_cli_expect_success(&second, "second scan");
    parse_build_line(second.err, &compiled, &disk, &memory);
    cr_assert_eq(compiled, 0, "the second process should not compile: %s", second.err);
    cr_assert_geq(disk, 1, "the second process should load from disk: %s", second.err);
    skt_cli_free(&second);
}

/* ------------------------------------------------------------------------ */
/* datagen                                                                   */
/* ------------------------------------------------------------------------ */

static unsigned char *generate(const char *path, const skt_cli_type *t, size_t *n,
                               unsigned char **base, const char *a1, const char *a2,
                               const char *a3, const char *a4)
{
    run_result r = run_tool(NULL, "datagen", "-o", path, "--type", t->name, a1, a2, a3, a4,
                            (const char *)NULL);
    skt_cli_expect_success(&r, "datagen");
    cr_assert_str_eq(r.err, "", "datagen should be quiet: %s", r.err);
    skt_cli_free(&r);
    size_t len = strlen(path);
    int npy = len > 4 && strcmp(path + len - 4, ".npy") == 0;
    return load_elements(path, npy, t, n, base);
}

Test(datagen_cli, should_write_the_same_file_for_the_same_seed)
{
    run_result a = DATAGEN("-n", "1000", "--seed", "7", "-o", "a.bin");
    run_result b = DATAGEN("-n", "1000", "--seed", "7", "-o", "b.bin");
    run_result c = DATAGEN("-n", "1000", "--seed", "8", "-o", "c.bin");
    skt_cli_expect_success(&a, "a");
    skt_cli_expect_success(&b, "b");
    skt_cli_expect_success(&c, "c");
    size_t la, lb, lc;
    unsigned char *fa = skt_cli_slurp("a.bin", &la), *fb = skt_cli_slurp("b.bin", &lb),
                  *fc = skt_cli_slurp("c.bin", &lc);
    cr_assert_eq(la, 4000);
    cr_assert(la == lb && memcmp(fa, fb, la) == 0, "same seed, different files");
    cr_assert(la == lc && memcmp(fa, fc, la) != 0, "different seeds, same file");
    free(fa);
    free(fb);
    free(fc);
    skt_cli_free(&a);
    skt_cli_free(&b);
    skt_cli_free(&c);
}

Test(datagen_cli, should_draw_uniform_uint64_straight_from_xoshiro256_seeded_by_splitmix64)
{
    uint64_t sm = 0;
    cr_assert_eq(sk_splitmix64_next(&sm), 0xe220a8397b1dcdafu, "splitmix64 known answer");
    /* the first outputs of xoshiro256** as published by Blackman and Vigna,
       its state filled by splitmix64 from 42 */
    static const uint64_t known[3] = {0x15780b2e0c2ec716u, 0x6104d9866d113a7eu,
                                      0xae17533239e499a1u};
    size_t n;
    unsigned char *base;
    unsigned char *data = generate("x.bin", T_U64, &n, &base, "-n", "16", "--seed", "42");
    sk_rng rng;
    sk_rng_seed(&rng, 42);
    for (size_t i = 0; i < n; i++) {
        uint64_t want = sk_rng_next(&rng);
        if (i < 3)
            cr_assert_eq(want, known[i], "xoshiro256** known answer %zu", i);
        cr_assert_eq(load_bits(data + 8 * i, 8), want, "element %zu", i);
    }
    free(base);
}

Test(datagen_cli, should_write_the_same_elements_as_raw_and_npy)
{
    size_t n_raw, n_npy;
    unsigned char *b1, *b2;
    unsigned char *raw = generate("x.bin", T_F64, &n_raw, &b1, "-n", "2K", "--seed", "3");
    unsigned char *npy = generate("x.npy", T_F64, &n_npy, &b2, "-n", "2K", "--seed", "3");
    cr_assert_eq(n_raw, 2048);
    cr_assert_eq(n_npy, 2048);
    cr_assert_eq(memcmp(raw, npy, 2048 * 8), 0);
    for (size_t i = 0; i < n_raw; i++) {
        double v;
        memcpy(&v, raw + 8 * i, 8);
        cr_assert(v >= 0.0 && v < 1.0, "float64 default range is [0, 1): %g", v);
    }
    free(b1);
    free(b2);
}

Test(datagen_cli, should_write_to_stdout_for_dash)
{
    run_result r = DATAGEN("-n", "100", "--seed", "5", "-o", "-");
    skt_cli_expect_success(&r, "datagen -o -");
    run_result f = DATAGEN("-n", "100", "--seed", "5", "-o", "f.bin");
    size_t len;
    unsigned char *file = skt_cli_slurp("f.bin", &len);
    cr_assert_eq(r.out_len, 400);
    cr_assert_eq(memcmp(r.out, file, 400), 0);
    free(file);
    skt_cli_free(&r);
    skt_cli_free(&f);
}

Test(datagen_cli, should_sort_ascending_and_descending)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("s.bin", T_I32, &n, &base, "-n", "5000", "--dist", "sorted");
    for (size_t i = 1; i < n; i++)
        cr_assert_leq(as_signed(T_I32, load_bits(d + 4 * (i - 1), 4)),
                      as_signed(T_I32, load_bits(d + 4 * i, 4)), "sorted at %zu", i);
    free(base);
    d = generate("r.npy", T_F32, &n, &base, "-n", "5000", "--dist", "reversed");
    for (size_t i = 1; i < n; i++)
        cr_assert_geq(load_float(T_F32, d + 4 * (i - 1)), load_float(T_F32, d + 4 * i),
                      "reversed at %zu", i);
    free(base);
}

Test(datagen_cli, should_keep_values_inside_the_range)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("i.bin", T_I64, &n, &base, "-n", "3000", "--range", "-5:5");
    int seen_lo = 0, seen_hi = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v = as_signed(T_I64, load_bits(d + 8 * i, 8));
        cr_assert(v >= -5 && v <= 5, "element %zu = %lld", i, (long long)v);
        seen_lo |= v == -5;
        seen_hi |= v == 5;
    }
    cr_assert(seen_lo && seen_hi, "both ends of an inclusive range should appear");
    free(base);
    d = generate("f.bin", T_F32, &n, &base, "-n", "3000", "--range", "2:3");
    for (size_t i = 0; i < n; i++) {
        long double v = load_float(T_F32, d + 4 * i);
        cr_assert(v >= 2.0L && v < 3.0L, "element %zu = %Lg", i, v);
    }
    free(base);
}

Test(datagen_cli, should_make_equal_and_few_unique_values)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("e.bin", T_U32, &n, &base, "-n", "1000", "--dist", "equal");
    for (size_t i = 1; i < n; i++)
        cr_assert_eq(load_bits(d + 4 * i, 4), load_bits(d, 4));
    free(base);
    d = generate("u.bin", T_U64, &n, &base, "-n", "4000", "--dist", "few-unique");
    uint64_t seen[16] = {0};
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = load_bits(d + 8 * i, 8);
        size_t k = 0;
        while (k < distinct && seen[k] != v)
            k++;
        if (k == distinct) {
            cr_assert_lt(distinct, 16, "more than 16 distinct values");
            seen[distinct++] = v;
        }
    }
    cr_assert_eq(distinct, 16);
    free(base);
}

Test(datagen_cli, should_reduce_entropy_by_anding_k_words)
{
    size_t n;
    unsigned char *base;
    unsigned char *d = generate("h.bin", T_U32, &n, &base, "-n", "4096", "--dist",
                                "entropy:4");
    unsigned long ones = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = load_bits(d + 4 * i, 4);
        for (; v; v &= v - 1)
            ones++;
    }
    /* 131072 bits, each set with probability 1/16: 8192 expected, sd ~88 */
    cr_assert(ones > 7600 && ones < 8800, "%lu bits set of 131072", ones);
    free(base);
}

Test(datagen_cli, should_exit_2_on_usage_errors)
{
    const char *cases[][10] = {
        {"-o", "x.bin", NULL},                               /* no -n */
        {"-n", "10", NULL},                                  /* no -o */
        {"-n", "12X", "-o", "x.bin", NULL},                  /* bad count */
        {"-n", "-4", "-o", "x.bin", NULL},                   /* negative count */
        {"-n", "10", "-o", "x.bin", "stray", NULL},          /* operand */
        {"-n", "10", "--dist", "zipf", "-o", "x.bin", NULL}, /* bad dist */
        {"-n", "10", "--dist", "entropy:0", "-o", "x.bin", NULL},
        {"-n", "10", "--range", "9:1", "-o", "x.bin", NULL}, /* empty range */
        {"-n", "10", "--type", "int3", "-o", "x.bin", NULL}, /* bad type */
        {"-n", "10", "--dist", "entropy:3", "--range", "1:2", "-o", "x.bin", NULL},
        {"-n", "10", "--seed", "-1", "-o", "x.bin", NULL},   /* bad seed */
        {"-n", "10", "-o", NULL},                            /* missing argument */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_list(NULL, "datagen", cases[i]);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "");
    free(names);
}

Test(datagen_cli, should_fail_cleanly_on_a_full_device)
{
    if (!skt_cli_file_exists("/dev/full"))
        cr_skip_test("no /dev/full");
    run_result r = DATAGEN("-n", "1M", "-o", "/dev/full");
    skt_cli_expect_one_line_failure(&r, "datagen: ", "No space left");
    skt_cli_free(&r);
}
