/*
 * test_cli_streaming.c - scan, compact, segscan and polyeval --memory: an
 * input larger than the device memory a program may use goes through the
 * device in chunks, the program carrying its state from one to the next
 * (apps/chunks.c).
 *
 * Each case runs a program twice on the same file, in one piece and with a
 * --memory budget of a few hundred KiB (tens of chunks), and expects
 * byte-identical outputs, and --time's device memory within the budget
 * over several chunks. The inputs are written by the test from a seed it
 * logs. Scan: every integer type with every op, inclusive and exclusive
 * alternating so that each type and each op has both; floats (add, mul,
 * min, max) pass --check (the library's bound) and are identical run to
 * run. Compact: every mode, with values, runs of equal elements across
 * chunk boundaries for --unique. Segscan: heads exactly at chunk starts,
 * one segment over many chunks, every element a head, offsets with empty
 * segments, inclusive, exclusive and --reduce. Polyeval: points. Then
 * n = 0 and n = 1 (and totals of empty segments by offsets of no
 * elements), a budget too small for one element: one line, exit 1, no
 * output, and a bad --memory.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scankit.h"
#include "sk_rng.h"
#include "skt_cli.h"

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-st");
    skt_cli_require_any_device();
}

static void cli_teardown(void)
{
    skt_cli_dirs_close();
}

TestSuite(streaming_cli, .init = cli_setup, .fini = cli_teardown, .timeout = 300);

#define N 200003           /* elements: 0.8 to 1.6 MB */
#define BUDGET "96K"
#define BUDGET_BYTES (96u << 10)
#define SEED 0x5eed5eedull

/* ---- helpers ------------------------------------------------------------ */

static size_t size_of(const char *type)
{
    return strstr(type, "64") ? 8 : 4;
}

static int is_signed(const char *type)
{
    return type[0] == 'i';
}

/* Runs `tool` with args (up to NULL, at most 24), then, when budget, with
 * "--memory BUDGET --time". */
static skt_cli_result run_tool(const char *tool, const char *const *args, const char *budget)
{
    const char *argv[SKT_CLI_MAX_ARGS];
    int n = 0;
    while (args[n]) {
        argv[n] = args[n];
        n++;
    }
    if (budget) argv[n++] = "--memory", argv[n++] = budget, argv[n++] = "--time";
    argv[n] = NULL;
    return skt_cli_run(tool, NULL, NULL, argv);
}

/* The elements per chunk and the device bytes --time reports ("device
 * memory N bytes; K chunks of E"), N within the budget and K > 1. */
static size_t expect_chunked(const char *err)
{
    const char *p = strstr(err, "device memory ");
    cr_assert_not_null(p, "no device memory in --time: %s", err);
    unsigned long long bytes = 0, chunks = 0, elems = 0;
    cr_assert_eq(sscanf(p, "device memory %llu bytes; %llu chunks of %llu", &bytes, &chunks,
                        &elems), 3, "%s", p);
    cr_assert_leq(bytes, BUDGET_BYTES, "%llu device bytes over the budget", bytes);
    cr_assert_gt(chunks, 4, "%llu chunks: the budget should need many", chunks);
    return (size_t)elems;
}

static void expect_same_file(const char *a, const char *b)
{
    size_t la, lb;
    unsigned char *x = skt_cli_slurp(a, &la), *y = skt_cli_slurp(b, &lb);
    cr_assert(la == lb && memcmp(x, y, la) == 0, "%s and %s differ (%zu and %zu bytes)", a, b,
              la, lb);
    free(x);
    free(y);
}

/* Runs tool on args with -o one.bin, then with -o many.bin and the budget;
 * both succeed with the same output. @return the elements per chunk. */
static size_t expect_as_in_one_piece(const char *tool, const char **args, int n_args)
{
    args[n_args] = "-o", args[n_args + 1] = "one.bin", args[n_args + 2] = NULL;
    skt_cli_result one = run_tool(tool, args, NULL);
    skt_cli_expect_success(&one, skt_cli_describe(tool, args));
    args[n_args + 1] = "many.bin";
    skt_cli_result many = run_tool(tool, args, BUDGET);
    skt_cli_expect_success(&many, skt_cli_describe(tool, args));
    size_t elems = expect_chunked(many.err);
    expect_same_file("one.bin", "many.bin");
    skt_cli_free(&one);
    skt_cli_free(&many);
    return elems;
}

/* n elements of `size` bytes from gen(state, i) to path. */
static void write_elements(const char *path, size_t size, size_t n,
                           uint64_t (*gen)(uint64_t *, size_t), uint64_t seed)
{
    unsigned char *buf = malloc(n * size + 1);
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = gen(&s, i);
        memcpy(buf + i * size, &v, size);
    }
    skt_cli_write_file(path, buf, n * size);
    free(buf);
}

static uint64_t gen_uniform(uint64_t *s, size_t i)
{
    (void)i;
    return sk_splitmix64_next(s);
}

static uint64_t gen_odd(uint64_t *s, size_t i)
{
    (void)i;
    return sk_splitmix64_next(s) | 1;
}

/* All ones but, now and then, one bit: an `and` that falls slowly. */
static uint64_t gen_mostly_ones(uint64_t *s, size_t i)
{
    (void)i;
    uint64_t r = sk_splitmix64_next(s);
    return r % 4096 == 0 ? ~(1ull << (r >> 58)) : ~0ull;
}

/* Zeros but, now and then, one bit: an `or` that rises slowly. */
static uint64_t gen_mostly_zeros(uint64_t *s, size_t i)
{
    return ~gen_mostly_ones(s, i);
}

/* ---- scan: integers --------------------------------------------------------- */

typedef struct int_case {
    char type[8];
    char op[4];
    int exclusive;
} int_case;

#define INT_CASES_OF(type, x)                                                      \
    {type, "add", x}, {type, "mul", !x}, {type, "min", x}, {type, "max", !x},      \
    {type, "and", x}, {type, "or", !x}, {type, "xor", x}

static const int_case INT_CASES[] = {
    INT_CASES_OF("uint32", 0), INT_CASES_OF("int32", 1),
    INT_CASES_OF("uint64", 1), INT_CASES_OF("int64", 0),
};

static uint64_t (*gen_for_op(const char *op))(uint64_t *, size_t)
{
    if (strcmp(op, "mul") == 0) return gen_odd;
    if (strcmp(op, "and") == 0) return gen_mostly_ones;
    if (strcmp(op, "or") == 0) return gen_mostly_zeros;
    return gen_uniform;
}

ParameterizedTestParameters(streaming_cli, scan_of_integers_should_equal_the_scan_in_one_piece)
{
    return cr_make_param_array(int_case, INT_CASES, sizeof INT_CASES / sizeof INT_CASES[0]);
}

ParameterizedTest(int_case *c, streaming_cli, scan_of_integers_should_equal_the_scan_in_one_piece)
{
    uint64_t seed = SEED + (uint64_t)c->op[0] * 131 + size_of(c->type) + is_signed(c->type);
    cr_log_info("scan %s --op %s%s, seed %llu", c->type, c->op, c->exclusive ? " -e" : "",
                (unsigned long long)seed);
    write_elements("in.bin", size_of(c->type), N, gen_for_op(c->op), seed);
    const char *args[16] = {"in.bin", "--type", c->type, "--op", c->op};
    int n = 5;
    if (c->exclusive) args[n++] = "--exclusive";
    expect_as_in_one_piece("scan", args, n);
}

/* ---- scan: floats ------------------------------------------------------------ */

typedef struct float_case {
    char type[8];
    char op[4];
    int exclusive;
} float_case;

static const float_case FLOAT_CASES[] = {
    {"float32", "add", 0}, {"float32", "mul", 1}, {"float32", "min", 1},
    {"float32", "max", 0}, {"float64", "add", 1}, {"float64", "mul", 0},
};

/* Floats in [0.5, 1.5) (add), or around 1 (mul: the product stays in
 * range for a while, then underflows or overflows, which --check allows
 * as the library documents), as bits of `size` bytes. */
static void write_floats(const char *path, const char *type, const char *op, uint64_t seed)
{
    size_t size = size_of(type);
    unsigned char *buf = malloc(N * size);
    uint64_t s = seed;
    for (size_t i = 0; i < N; i++) {
        double u = (double)(sk_splitmix64_next(&s) >> 11) * 0x1p-53;
        double x = strcmp(op, "mul") == 0 ? 0.999 + u * 0.002 : 0.5 + u;
        if (strcmp(op, "min") == 0 || strcmp(op, "max") == 0) x = (u - 0.5) * 1000;
        float f = (float)x;
        memcpy(buf + i * size, size == 4 ? (void *)&f : (void *)&x, size);
    }
    skt_cli_write_file(path, buf, N * size);
    free(buf);
}


ParameterizedTestParameters(streaming_cli, scan_of_floats_should_pass_check_and_repeat)
{
    return cr_make_param_array(float_case, FLOAT_CASES,
                               sizeof FLOAT_CASES / sizeof FLOAT_CASES[0]);
}

ParameterizedTest(float_case *c, streaming_cli, scan_of_floats_should_pass_check_and_repeat)
{
    if (size_of(c->type) == 8 && !skt_cli_default_device_has_fp64())
        cr_skip_test("the default device has no fp64");
    uint64_t seed = SEED + (uint64_t)c->op[1] * 7 + size_of(c->type);
    cr_log_info("scan %s --op %s%s, seed %llu", c->type, c->op, c->exclusive ? " -e" : "",
                (unsigned long long)seed);
    write_floats("in.bin", c->type, c->op, seed);
    const char *args[16] = {"in.bin", "--type", c->type, "--op", c->op, "--check", "-o", "a.bin"};
    int n = 8;
    if (c->exclusive) args[n++] = "--exclusive";
    args[n] = NULL;
    for (int k = 0; k < 2; k++) {
        args[7] = k ? "b.bin" : "a.bin";
        skt_cli_result r = run_tool("scan", args, BUDGET);
        skt_cli_expect_success(&r, skt_cli_describe("scan", args));
        cr_assert_not_null(strstr(r.err, "check: ok"), "%s", r.err);
        expect_chunked(r.err);
        skt_cli_free(&r);
    }
    expect_same_file("a.bin", "b.bin");
    if (strcmp(c->op, "min") == 0 || strcmp(c->op, "max") == 0) {
        args[7] = "one.bin";
        skt_cli_result r = run_tool("scan", args, NULL);
        skt_cli_expect_success(&r, "scan in one piece");
        skt_cli_free(&r);
        expect_same_file("one.bin", "a.bin");
    }
}

/* ---- compact ------------------------------------------------------------------ */

typedef struct compact_case {
    char type[8];
    char mode[24];   /* --if, --partition, --partition-reversed, --flags, --unique */
    char expr[24];
    char values[8];  /* --values-type, "" for none */
} compact_case;

static const compact_case COMPACT_CASES[] = {
    {"uint32", "--if", "x % 3 == 0", "uint64"},   {"int64", "--if", "x < 0", ""},
    {"float32", "--partition", "x > 0.7f", "uint32"}, {"uint64", "--partition", "x % 2 == 0", ""},
    {"int32", "--partition-reversed", "x % 3 == 0", "uint64"},
    {"float64", "--partition-reversed", "x < 0.0", ""},
    {"int32", "--flags", "", "uint32"},           {"float64", "--flags", "", ""},
    {"uint32", "--unique", "", "uint64"},         {"int64", "--unique", "", ""},
};

/* Runs of equal values, from one element to far more than a chunk. */
static uint64_t gen_runs(uint64_t *s, size_t i)
{
    static uint64_t value, left;
    if (i == 0) left = 0;
    if (left == 0) {
        uint64_t r = sk_splitmix64_next(s);
        left = r % 8 == 0 ? 1 + r % 60000 : 1 + r % 4;
        value = sk_splitmix64_next(s) % 5;
    }
    left--;
    return value;
}

/* float32 in [0, 1) as bits (for --partition 'x > 0.7f'). */
static uint64_t gen_unit_float(uint64_t *s, size_t i)
{
    (void)i;
    float f = (float)((double)(sk_splitmix64_next(s) >> 40) * 0x1p-24);
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

ParameterizedTestParameters(streaming_cli, compact_should_equal_compact_in_one_piece)
{
    return cr_make_param_array(compact_case, COMPACT_CASES,
                               sizeof COMPACT_CASES / sizeof COMPACT_CASES[0]);
}

ParameterizedTest(compact_case *c, streaming_cli, compact_should_equal_compact_in_one_piece)
{
    if (strcmp(c->type, "float64") == 0 && !skt_cli_default_device_has_fp64())
        cr_skip_test("the default device has no fp64");
    uint64_t seed = SEED + (uint64_t)c->mode[3] + size_of(c->type);
    cr_log_info("compact %s %s '%s' values '%s', seed %llu", c->type, c->mode, c->expr,
                c->values, (unsigned long long)seed);
    uint64_t (*gen)(uint64_t *, size_t) = strcmp(c->mode, "--unique") == 0 ? gen_runs
                                          : strcmp(c->type, "float32") == 0 ? gen_unit_float
                                                                            : gen_uniform;
    write_elements("in.bin", size_of(c->type), N, gen, seed);
    write_elements("f.u8", 1, N, gen_uniform, seed + 1);
    const char *args[20] = {"in.bin", "--type", c->type, c->mode};
    int n = 4;
    if (c->expr[0]) args[n++] = c->expr;
    if (strcmp(c->mode, "--flags") == 0) args[n++] = "f.u8";
    if (c->values[0]) {
        write_elements("v.bin", size_of(c->values), N, gen_uniform, seed + 2);
        args[n++] = "--values", args[n++] = "v.bin", args[n++] = "--values-type";
        args[n++] = c->values, args[n++] = "--values-out", args[n++] = "vout.bin";
    }
    expect_as_in_one_piece("compact", args, n);
    if (!c->values[0]) return;
    /* the values of the run in chunks, beside its elements */
    size_t len;
    free(skt_cli_slurp("vout.bin", &len));
    cr_assert_gt(len, 0);
    args[n - 1] = "vone.bin";
    args[n] = "-o", args[n + 1] = "one.bin", args[n + 2] = NULL;
    skt_cli_result one = run_tool("compact", args, NULL);
    skt_cli_expect_success(&one, "compact in one piece");
    skt_cli_free(&one);
    expect_same_file("vone.bin", "vout.bin");
}

/* ---- segscan ------------------------------------------------------------------ */

enum heads { AT_CHUNK_STARTS, FEW_HEADS, ALL_HEADS, RANDOM_HEADS };

typedef struct seg_case {
    char type[8];
    char op[4];
    char mode[12];   /* "", "--exclusive", "--reduce" */
    enum heads heads;
    int offsets;     /* segments by offsets (with empty ones) */
} seg_case;

static const seg_case SEG_CASES[] = {
    {"int32", "add", "", AT_CHUNK_STARTS, 0},
    {"uint64", "max", "--exclusive", AT_CHUNK_STARTS, 0},
    {"int64", "xor", "--reduce", AT_CHUNK_STARTS, 0},
    {"uint32", "add", "--exclusive", FEW_HEADS, 0},
    {"int64", "min", "--reduce", FEW_HEADS, 0},
    {"uint32", "mul", "", FEW_HEADS, 0},
    {"int32", "or", "--exclusive", ALL_HEADS, 0},
    {"uint64", "add", "--reduce", ALL_HEADS, 0},
    {"uint32", "add", "", RANDOM_HEADS, 1},
    {"int64", "max", "--exclusive", RANDOM_HEADS, 1},
    {"uint32", "add", "--reduce", RANDOM_HEADS, 1},
};

/* The head flags of `heads` (chunk: the elements per chunk). */
static unsigned char *make_heads(enum heads h, size_t chunk, uint64_t seed)
{
    unsigned char *f = calloc(N, 1);
    uint64_t s = seed;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = sk_splitmix64_next(&s);
        if (h == AT_CHUNK_STARTS) f[i] = i % chunk == 0 || r % 97 == 0;
        if (h == FEW_HEADS) f[i] = i == 0 || i == N / 3 + 7;
        if (h == ALL_HEADS) f[i] = 1;
        if (h == RANDOM_HEADS) f[i] = i == 0 || r % 1000 == 0;
    }
    return f;
}

/* The flags as uint64 offsets, with empty segments: the first twice, each
 * tenth twice, and n twice at the end. */
static void write_offsets(const unsigned char *f)
{
    uint64_t *o = malloc((3 * N + 4) * sizeof *o);
    size_t k = 0;
    for (size_t i = 0; i < N; i++)
        for (int rep = 0; f[i] && rep < (i == 0 || k % 10 == 0 ? 2 : 1); rep++) o[k++] = i;
    o[k++] = N, o[k++] = N;
    skt_cli_write_file("o.bin", o, k * sizeof *o);
    free(o);
}

/* segscan on in.bin with the heads (or offsets) of c. */
static size_t segscan_case(const seg_case *c, size_t chunk, uint64_t seed)
{
    unsigned char *f = make_heads(c->heads, chunk, seed);
    skt_cli_write_file("h.u8", f, N);
    if (c->offsets) write_offsets(f);
    free(f);
    const char *args[20] = {"in.bin", "--type", c->type, "--op", c->op};
    int n = 5;
    if (c->offsets) args[n++] = "--offsets", args[n++] = "o.bin", args[n++] = "--offsets-type",
                    args[n++] = "uint64";
    else args[n++] = "--flags", args[n++] = "h.u8";
    if (c->mode[0]) args[n++] = c->mode;
    return expect_as_in_one_piece("segscan", args, n);
}

ParameterizedTestParameters(streaming_cli, segscan_should_carry_the_open_segment)
{
    return cr_make_param_array(seg_case, SEG_CASES, sizeof SEG_CASES / sizeof SEG_CASES[0]);
}

ParameterizedTest(seg_case *c, streaming_cli, segscan_should_carry_the_open_segment)
{
    uint64_t seed = SEED + (uint64_t)c->heads * 11 + (uint64_t)c->mode[2] + size_of(c->type);
    cr_log_info("segscan %s --op %s %s heads %d%s, seed %llu", c->type, c->op, c->mode,
                (int)c->heads, c->offsets ? " as offsets" : "", (unsigned long long)seed);
    write_elements("in.bin", size_of(c->type), N, gen_for_op(c->op), seed);
    /* the chunk size of this budget, then heads exactly at chunk starts */
    size_t chunk = segscan_case(c, 1000, seed);
    if (c->heads == AT_CHUNK_STARTS) {
        cr_assert_gt(chunk, 1);
        cr_assert_eq(segscan_case(c, chunk, seed), chunk);
    }
}

/* ---- polyeval ------------------------------------------------------------------ */

Test(streaming_cli, polyeval_points_should_equal_the_points_in_one_piece)
{
    const char *types[] = {"float32", "float64"};
    for (int t = 0; t < 2; t++) {
        if (t == 1 && !skt_cli_default_device_has_fp64()) break;
        size_t size = size_of(types[t]);
        unsigned char *buf = malloc(N * size);
        uint64_t s = SEED + (uint64_t)t;
        for (size_t i = 0; i < N; i++) {
            double x = (double)(sk_splitmix64_next(&s) >> 11) * 0x1p-52 - 1.0;
            float fx = (float)x;
            memcpy(buf + i * size, size == 4 ? (void *)&fx : (void *)&x, size);
        }
        skt_cli_write_file("c.bin", buf, 301 * size);
        skt_cli_write_file("x.bin", buf + 301 * size, (N - 301) * size);
        free(buf);
        const char *args[12] = {"c.bin", "--type", types[t], "--points", "x.bin"};
        expect_as_in_one_piece("polyeval", args, 5);
    }
}

/* ---- sizes and errors ------------------------------------------------------------ */

Test(streaming_cli, empty_and_one_element_inputs_should_equal_the_run_in_one_piece)
{
    static const char *const tools[][6] = {
        {"scan", "in.bin", "--type", "uint64", "--exclusive", NULL},
        {"compact", "in.bin", "--type", "uint64", "--unique", NULL},
        {"segscan", "in.bin", "--type", "uint64", "--flags", "h.u8"},
    };
    skt_cli_write_file("h.u8", "\1", 1);
    for (int size = 0; size < 2; size++) {
        skt_cli_write_file("in.bin", "\7\0\0\0\0\0\0\0", (size_t)size * 8);
        skt_cli_write_file("h.u8", "\1", (size_t)size);
        for (size_t t = 0; t < sizeof tools / sizeof tools[0]; t++) {
            const char *args[12];
            int n = 0;
            for (; n < 5 && tools[t][n + 1]; n++) args[n] = tools[t][n + 1];
            for (int k = 0; k < 2; k++) {
                args[n] = "-o", args[n + 1] = k ? "many.bin" : "one.bin", args[n + 2] = NULL;
                skt_cli_result r = run_tool(tools[t][0], args, k ? "64K" : NULL);
                skt_cli_expect_success(&r, skt_cli_describe(tools[t][0], args));
                skt_cli_free(&r);
            }
            size_t len;
            free(skt_cli_slurp("many.bin", &len));
            cr_assert_eq(len, (size_t)size * 8, "%s: %zu bytes for %d elements", tools[t][0],
                         len, size);
            expect_same_file("one.bin", "many.bin");
        }
    }
    /* no elements, two empty segments by offsets: two identities */
    skt_cli_write_file("in.bin", "", 0);
    skt_cli_write_file("o.bin", "\0\0\0\0\0\0\0\0", 8);
    for (int k = 0; k < 2; k++) {
        skt_cli_result r = skt_cli_runl(NULL, "segscan", "in.bin", "--offsets", "o.bin",
                                        "--reduce", "--op", "min", "-o",
                                        k ? "many.bin" : "one.bin", k ? "--memory" : NULL,
                                        "64K", (const char *)NULL);
        skt_cli_expect_success(&r, "segscan --reduce of no elements");
        skt_cli_free(&r);
    }
    size_t len;
    unsigned char *totals = skt_cli_slurp("many.bin", &len);
    cr_assert(len == 8 && memcmp(totals, "\377\377\377\377\377\377\377\377", 8) == 0);
    free(totals);
    expect_same_file("one.bin", "many.bin");
    skt_cli_write_file("c.bin", "\0\0\200\77", 4);
    skt_cli_write_file("x.bin", "\0\0\0\100", 4);
    skt_cli_result r = skt_cli_runl(NULL, "polyeval", "c.bin", "--points", "x.bin", "--memory",
                                    "64K", (const char *)NULL);
    skt_cli_expect_success(&r, "polyeval of one point --memory 64K");
    cr_assert_str_eq(r.out, "1\n");
    skt_cli_free(&r);
}

Test(streaming_cli, a_budget_too_small_for_one_element_is_one_line_and_exit_1)
{
    write_elements("in.bin", 8, 1000, gen_uniform, SEED);
    write_elements("h.u8", 1, 1000, gen_uniform, SEED);
    static const char *const runs[][8] = {
        {"scan", "in.bin", "--type", "uint64", NULL},
        {"compact", "in.bin", "--type", "uint64", "--unique", NULL},
        {"segscan", "in.bin", "--type", "uint64", "--flags", "h.u8", NULL},
        {"polyeval", "in.bin", "--type", "float32", "--points", "in.bin", NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const char *args[12];
        int n = 0;
        for (; runs[i][n + 1]; n++) args[n] = runs[i][n + 1];
        args[n++] = "--memory", args[n++] = "7", args[n++] = "-o", args[n++] = "out.bin";
        args[n] = NULL;
        skt_cli_result r = skt_cli_run(runs[i][0], NULL, NULL, args);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%s: ", runs[i][0]);
        skt_cli_expect_one_line_failure(&r, prefix, "--memory 7 is too small");
        cr_assert(!skt_cli_file_exists("out.bin"), "%s left an output", runs[i][0]);
        skt_cli_free(&r);
    }
}

Test(streaming_cli, a_bad_memory_size_is_a_usage_error)
{
    static const char *const bad[] = {"0", "12Q", "-5", ""};
    static const char *const tools[] = {"scan", "compact", "segscan", "polyeval"};
    skt_cli_write_file("k.bin", "\1\0\0\0", 4);
    for (size_t t = 0; t < 4; t++)
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            skt_cli_result r = skt_cli_runl(NULL, tools[t], "k.bin", "--memory", bad[i],
                                            (const char *)NULL);
            skt_cli_expect_usage_error(&r);
            skt_cli_free(&r);
        }
}
