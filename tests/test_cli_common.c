/*
 * test_cli_common.c - what every program does the same way, because one
 * driver and one option-table mechanism (apps/appkit_run.c, apps/appkit.c)
 * do it for all: --version, --help, --list-devices, the usage errors of the
 * option parser, the checks it makes on every command line (each operand
 * given once, at most one input from stdin, --in-place with an input file,
 * exactly one option of a group), the --time breakdown, and the --flags
 * file that compact and segscan read alike.
 *
 * Each test runs in a fresh temporary directory (see skt_cli.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scankit.h"
#include "skt_cli.h"

static void cli_setup(void)
{
    skt_cli_dirs_open("skt-clicommon");
}

TestSuite(cli_common, .init = cli_setup, .fini = skt_cli_dirs_close, .timeout = 180);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const TOOLS[] = {"scan",     "compact",   "radixsort", "merge",  "segscan",
                                    "polyeval", "histogram", "search",    "topk",   "datagen"};
static const char *const DEVICE_TOOLS[] = {"scan",     "compact",   "radixsort", "merge", "segscan",
                                           "polyeval", "histogram", "search",    "topk"};

static int has_device_options(const char *tool)
{
    return strcmp(tool, "datagen") != 0;
}

/* Runs `tool` with one argument. */
static skt_cli_result run1(const char *tool, const char *arg)
{
    const char *const args[] = {arg, NULL};
    return skt_cli_run(tool, NULL, NULL, args);
}

static void require_device(void)
{
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0)
        cr_skip_test("no OpenCL device");
}

/* The line of `text` that starts with `start`, or NULL. */
static const char *line_starting(const char *text, const char *start)
{
    size_t len = strlen(start);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, start, len) == 0)
            return line;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* --version, --help                                                         */
/* ------------------------------------------------------------------------ */

Test(cli_common, every_program_prints_its_version_for_the_long_and_the_short_option)
{
    static const char *const options[] = {"--version", "-V"};
    for (size_t t = 0; t < COUNT(TOOLS); t++) {
        for (size_t o = 0; o < COUNT(options); o++) {
            skt_cli_result r = run1(TOOLS[t], options[o]);
            char want[128];
            snprintf(want, sizeof want, "%s (scankit) %s\n", TOOLS[t], sk_version_string());
            cr_assert_eq(r.code, 0, "%s %s: exit %d: %s", TOOLS[t], options[o], r.code, r.err);
            cr_assert_str_eq(r.out, want, "%s %s", TOOLS[t], options[o]);
            cr_assert_str_eq(r.err, "", "%s %s wrote to stderr", TOOLS[t], options[o]);
            skt_cli_free(&r);
        }
    }
}

/* The option lines every program's --help shows, and those of the programs
 * that use a device. */
static const char *const HELP_LINES[] = {
    "  -h, --help          show this help and exit\n",
    "  -V, --version       show the version and exit\n",
};
static const char *const DEVICE_HELP_LINES[] = {
    "  -d, --device SPEC   OpenCL device: 'P:D' indices, an index N, or part of\n",
    "      --list-devices  list the OpenCL devices and exit\n",
    "      --time          print a time breakdown to stderr\n",
};

static void expect_help(const char *tool, const char *option)
{
    skt_cli_result r = run1(tool, option);
    char usage[64];
    snprintf(usage, sizeof usage, "usage: %s ", tool);
    cr_assert_eq(r.code, 0, "%s %s: exit %d: %s", tool, option, r.code, r.err);
    cr_assert_eq(strncmp(r.out, usage, strlen(usage)), 0, "%s %s: %s", tool, option, r.out);
    cr_assert_str_eq(r.err, "", "%s %s wrote to stderr", tool, option);
    for (size_t i = 0; i < COUNT(HELP_LINES); i++)
        cr_assert_not_null(strstr(r.out, HELP_LINES[i]), "%s: no line %s", tool, HELP_LINES[i]);
    for (size_t i = 0; i < COUNT(DEVICE_HELP_LINES); i++)
        cr_assert_eq(strstr(r.out, DEVICE_HELP_LINES[i]) != NULL, has_device_options(tool),
                     "%s: line %s shown or missing", tool, DEVICE_HELP_LINES[i]);
    skt_cli_free(&r);
}

Test(cli_common, every_program_prints_help_in_one_layout_for_the_long_and_the_short_option)
{
    for (size_t t = 0; t < COUNT(TOOLS); t++) {
        expect_help(TOOLS[t], "--help");
        expect_help(TOOLS[t], "-h");
    }
}

/* --help answers before the checks of a command line that lacks its operand
 * or breaks them. */
Test(cli_common, help_is_answered_before_the_checks_of_the_command_line)
{
    static const struct {
        const char *tool;
        const char *args[6];
    } cases[] = {
        {"compact", {"--unique", "--if", "1", "--help", NULL}},
        {"segscan", {"-", "--flags", "-", "--help", NULL}},
        {"scan", {"-", "--in-place", "--help", NULL}},
        {"polyeval", {"--help", NULL}},
        {"datagen", {"--help", NULL}},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        skt_cli_result r = skt_cli_run(cases[i].tool, NULL, NULL, cases[i].args);
        cr_assert_eq(r.code, 0, "%s: exit %d: %s", skt_cli_describe(cases[i].tool, cases[i].args),
                     r.code, r.err);
        cr_assert_eq(strncmp(r.out, "usage: ", 7), 0, "no help: %s", r.out);
        skt_cli_free(&r);
    }
}

/* ------------------------------------------------------------------------ */
/* --list-devices                                                            */
/* ------------------------------------------------------------------------ */

static void expect_device_table(const char *tool, const char *out)
{
    const char *end = strchr(out, '\n');
    cr_assert_not_null(end, "%s: no header line: %s", tool, out);
    cr_assert_eq(strncmp(out, "index  type name ", 17), 0, "%s: header: %s", tool, out);
    cr_assert_eq(strncmp(end - 12, " fp64 memory", 12), 0, "%s: header: %s", tool, out);
    const char *row = line_starting(end + 1, "0:0 ");
    cr_assert_not_null(row, "%s: no device 0:0: %s", tool, out);
    cr_assert(strstr(row, "cpu ") == row + 7 || strstr(row, "gpu ") == row + 7,
              "%s: no type column: %s", tool, row);
}

Test(cli_common, every_device_program_lists_the_devices_in_the_same_table)
{
    require_device();
    char *first = NULL;
    for (size_t t = 0; t < COUNT(DEVICE_TOOLS); t++) {
        skt_cli_result r = run1(DEVICE_TOOLS[t], "--list-devices");
        cr_assert_eq(r.code, 0, "%s --list-devices: exit %d: %s", DEVICE_TOOLS[t], r.code, r.err);
        cr_assert_str_eq(r.err, "", "%s --list-devices wrote to stderr", DEVICE_TOOLS[t]);
        expect_device_table(DEVICE_TOOLS[t], r.out);
        if (first)
            cr_assert_str_eq(r.out, first, "%s lists the devices otherwise than scan",
                             DEVICE_TOOLS[t]);
        else
            first = strdup(r.out);
        skt_cli_free(&r);
    }
    free(first);
}

Test(cli_common, a_program_without_a_device_has_no_device_options)
{
    static const char *const options[] = {"--list-devices", "--time"};
    for (size_t o = 0; o < COUNT(options); o++) {
        skt_cli_result r = run1("datagen", options[o]);
        skt_cli_expect_usage_error(&r);
        cr_assert_eq(r.out_len, 0);
        skt_cli_free(&r);
    }
}

/* ------------------------------------------------------------------------ */
/* Usage errors of the option parser                                         */
/* ------------------------------------------------------------------------ */

/* Exit 2, nothing on stdout, stderr: "<tool>: <message>" (containing
 * needle), the usage, and the hint to run --help. */
static void expect_usage(const char *tool, const char *const *args, const char *needle)
{
    skt_cli_result r = skt_cli_run(tool, NULL, NULL, args);
    const char *what = skt_cli_describe(tool, args);
    char prefix[64], usage[64], hint[128];
    snprintf(prefix, sizeof prefix, "%s: ", tool);
    snprintf(usage, sizeof usage, "\nusage: %s ", tool);
    snprintf(hint, sizeof hint, "Try '%s --help' for more information.\n", tool);
    cr_assert_eq(r.code, 2, "%s: exit %d: %s", what, r.code, r.err);
    cr_assert_eq(r.out_len, 0, "%s wrote to stdout", what);
    cr_assert_eq(strncmp(r.err, prefix, strlen(prefix)), 0, "%s: %s", what, r.err);
    const char *first_end = strchr(r.err, '\n');
    cr_assert(first_end && strstr(r.err, needle) && strstr(r.err, needle) < first_end,
              "%s: the first line should mention '%s': %s", what, needle, r.err);
    cr_assert_not_null(strstr(r.err, usage), "%s: no usage: %s", what, r.err);
    size_t len = strlen(r.err), hint_len = strlen(hint);
    cr_assert(len >= hint_len && strcmp(r.err + len - hint_len, hint) == 0,
              "%s: no hint at the end: %s", what, r.err);
    skt_cli_free(&r);
}

/* A command line that is a usage error, and what its message says. */
typedef struct usage_case {
    const char *tool;
    const char *args[8];
    const char *needle;
} usage_case;

static void expect_usage_cases(const usage_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++)
        expect_usage(cases[i].tool, cases[i].args, cases[i].needle);
}

Test(cli_common, every_program_refuses_unknown_options_and_missing_or_extra_values_alike)
{
    for (size_t t = 0; t < COUNT(TOOLS); t++) {
        const char *const unknown[] = {"--frobnicate", NULL};
        const char *const unknown_short[] = {"-Q", NULL};
        const char *const no_value[] = {"-o", NULL};
        const char *const extra_value[] = {"--help=yes", NULL};
        expect_usage(TOOLS[t], unknown, "unknown option '--frobnicate'");
        expect_usage(TOOLS[t], unknown_short, "unknown option '-Q'");
        expect_usage(TOOLS[t], no_value, "option '-o' needs a value");
        expect_usage(TOOLS[t], extra_value, "option '--help' takes no value");
    }
}

Test(cli_common, every_program_names_its_operand_when_missing_or_given_twice)
{
    static const struct {
        const char *tool;
        const char *missing[4];
        const char *twice[6];
        const char *needles[2];
    } cases[] = {
        {"scan", {"--exclusive", NULL}, {"a", "b", NULL}, {"missing INPUT", "more than one INPUT"}},
        {"compact", {"--unique", NULL}, {"a", "--unique", "b", NULL},
         {"missing INPUT", "more than one INPUT"}},
        {"radixsort", {"-r", NULL}, {"a", "b", NULL}, {"missing INPUT", "more than one INPUT"}},
        {"merge", {"a", "-r", NULL}, {"a", "b", "c", NULL},
         {"missing B", "unexpected argument 'c' after A B"}},
        {"search", {"a", "--upper", NULL}, {"a", "b", "c", NULL},
         {"missing NEEDLES", "unexpected argument 'c' after HAYSTACK NEEDLES"}},
        {"segscan", {"--flags", "f", NULL}, {"a", "b", "--flags", "f", NULL},
         {"missing INPUT", "more than one INPUT"}},
        {"polyeval", {"--x", "1", NULL}, {"a", "--x", "1", "b", NULL},
         {"missing COEFFS", "more than one COEFFS"}},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        expect_usage(cases[i].tool, cases[i].missing, cases[i].needles[0]);
        expect_usage(cases[i].tool, cases[i].twice, cases[i].needles[1]);
    }
    const char *const stray[] = {"-n", "4", "-o", "x.bin", "stray", NULL};
    expect_usage("datagen", stray, "unexpected argument 'stray'");
    cr_assert_eq(skt_cli_entries(), 0, "a program wrote a file");
}

Test(cli_common, an_unknown_type_names_the_types_its_option_takes)
{
    static const usage_case cases[] = {
        {"scan", {"d", "--type", "int8", NULL}, "unknown --type 'int8' (use uint32|int32|"},
        {"compact", {"d", "--unique", "--values", "v", "--values-type", "u8", NULL},
         "unknown --values-type 'u8' (use uint32|"},
        {"radixsort", {"d", "-t", "half8", NULL},
         "unknown --type 'half8' (use uint32|int32|uint64|int64|float32|float64|uint8|int8|"
         "uint16|int16|float16)"},
        {"segscan", {"d", "--offsets", "o", "--offsets-type", "int16", NULL},
         "unknown --offsets-type 'int16' (use uint32 or uint64)"},
        {"polyeval", {"c", "--x", "1", "--type", "int32", NULL},
         "unknown --type 'int32' (use float32 or float64)"},
        {"datagen", {"-n", "1", "-o", "x", "--type", "int3", NULL}, "unknown --type 'int3'"},
    };
    expect_usage_cases(cases, COUNT(cases));
}

/* ------------------------------------------------------------------------ */
/* Checks every command line gets                                            */
/* ------------------------------------------------------------------------ */

Test(cli_common, no_program_reads_two_inputs_from_stdin)
{
    static const usage_case cases[] = {
        {"compact", {"-", "--flags", "-", NULL}, "INPUT and --flags cannot both be stdin"},
        {"compact", {"-", "--unique", "--values", "-", NULL},
         "INPUT and --values cannot both be stdin"},
        {"compact", {"d", "--flags", "-", "--values", "-", NULL},
         "--flags and --values cannot both be stdin"},
        {"radixsort", {"-", "--values", "-", NULL}, "INPUT and --values cannot both be stdin"},
        {"merge", {"-", "-", NULL}, "A and B cannot both be stdin"},
        {"search", {"-", "-", NULL}, "HAYSTACK and NEEDLES cannot both be stdin"},
        {"merge", {"a", "-", "--values", "-", "v", NULL}, "B and --values VA cannot both be stdin"},
        {"merge", {"a", "b", "--values=-", "-", NULL},
         "--values VA and --values VB cannot both be stdin"},
        {"segscan", {"-", "--flags", "-", NULL}, "INPUT and --flags cannot both be stdin"},
        {"segscan", {"-", "--offsets", "-", NULL}, "INPUT and --offsets cannot both be stdin"},
        {"polyeval", {"-", "--points", "-", NULL}, "COEFFS and --points cannot both be stdin"},
    };
    expect_usage_cases(cases, COUNT(cases));
}

Test(cli_common, in_place_needs_an_input_file_in_every_program_that_offers_it)
{
#define ON_STDIN "--in-place needs an input file, not stdin"
    static const usage_case cases[] = {
        {"scan", {"-", "--in-place", NULL}, ON_STDIN},
        {"compact", {"-", "--unique", "--in-place", NULL}, ON_STDIN},
        {"radixsort", {"--in-place", "-", NULL}, ON_STDIN},
        {"segscan", {"d", "--flags", "f", "--in-place", NULL}, "unknown option '--in-place'"},
    };
#undef ON_STDIN
    expect_usage_cases(cases, COUNT(cases));
}

Test(cli_common, exactly_one_option_of_a_group_is_asked_for_in_the_same_words)
{
    static const usage_case cases[] = {
        {"compact", {"d", NULL},
         "give exactly one of --if, --flags, --partition, --partition-reversed, --unique, --rle"},
        {"compact", {"d", "--unique", "--partition", "1", NULL},
         "give exactly one of --if, --flags, --partition, --partition-reversed, --unique, --rle"},
        {"compact", {"d", "--if", "x > 1u", "--if", "x > 2u", NULL},
         "give exactly one of --if, --flags, --partition, --partition-reversed, --unique, --rle"},
        {"segscan", {"d", NULL}, "give exactly one of --flags, --offsets, --keys"},
        {"segscan", {"d", "--flags", "f", "--offsets", "o", NULL},
         "give exactly one of --flags, --offsets, --keys"},
        {"polyeval", {"c", NULL}, "give exactly one of --x and --points"},
        {"polyeval", {"c", "--points", "p", "-x", "1", NULL},
         "give exactly one of --x and --points"},
    };
    expect_usage_cases(cases, COUNT(cases));
}

/* ------------------------------------------------------------------------ */
/* A run                                                                     */
/* ------------------------------------------------------------------------ */

static const uint32_t DATA[4] = {1, 2, 3, 4};
static const unsigned char HEADS[4] = {1, 0, 1, 0};
static const float COEFFS[2] = {1.0f, 2.0f};

static void write_inputs(void)
{
    skt_cli_write_file("d.bin", DATA, sizeof DATA);
    skt_cli_write_file("h.u8", HEADS, sizeof HEADS);
    skt_cli_write_file("c.bin", COEFFS, sizeof COEFFS);
}

/* The labels ("read:", ...) of stderr's lines, each followed by ' '. */
static void time_labels(const char *err, char *labels, size_t cap)
{
    size_t len = 0;
    labels[0] = '\0';
    for (const char *line = err; *line && len < cap;) {
        const char *colon = strchr(line, ':');
        const char *end = strchr(line, '\n');
        if (!end)
            break;
        if (colon && colon < end && strncmp(line, "check: ok", 9) != 0)
            len += (size_t)snprintf(labels + len, cap - len, "%.*s ", (int)(colon - line + 1),
                                    line);
        line = end + 1;
    }
}

Test(cli_common, every_device_program_prints_the_same_time_breakdown)
{
    require_device();
    write_inputs();
    static const struct {
        const char *tool;
        const char *args[6];
        const char *labels;
    } cases[] = {
        {"scan", {"d.bin", "--time", NULL},
         "read: context: upload: build: compute: download: write: total: "},
        {"scan", {"d.bin", "--time", "--check", "-o", "s.bin", NULL},
         "read: context: upload: build: compute: download: check: write: total: "},
        {"compact", {"d.bin", "--unique", "--time", NULL},
         "read: context: upload: build: compute: download: write: total: "},
        {"radixsort", {"d.bin", "--time", "--check", NULL},
         "read: context: upload: build: compute: download: check: write: total: "},
        {"merge", {"d.bin", "d.bin", "--time", "--check", NULL},
         "read: context: upload: build: compute: download: check: write: total: "},
        {"segscan", {"d.bin", "--flags", "h.u8", "--time", NULL},
         "read: context: upload: build: compute: download: write: total: "},
        {"polyeval", {"c.bin", "--x", "1", "--time", NULL},
         "read: context: upload: build: compute: download: write: total: "},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        skt_cli_result r = skt_cli_run(cases[i].tool, NULL, NULL, cases[i].args);
        const char *what = skt_cli_describe(cases[i].tool, cases[i].args);
        char labels[512];
        cr_assert_eq(r.code, 0, "%s: exit %d: %s", what, r.code, r.err);
        time_labels(r.err, labels, sizeof labels);
        cr_assert_str_eq(labels, cases[i].labels, "%s: stderr: %s", what, r.err);
        cr_assert_not_null(strstr(line_starting(r.err, "build:"), "(compiled "), "%s: %s", what,
                           r.err);
        skt_cli_free(&r);
    }
}

/* compact and segscan read --flags alike: raw uint8, or .npy of uint8,
 * uint32 or int32, one flag per element. */
Test(cli_common, compact_and_segscan_read_int32_flags_alike)
{
    require_device();
    write_inputs();
    static const int32_t heads[4] = {7, 0, -1, 0};
    static const uint32_t kept[2] = {1, 3}, sums[4] = {1, 3, 3, 7};
    skt_cli_write_npy("h.npy", "<i4", heads, 4, sizeof heads[0]);
    const char *const compact[] = {"d.bin", "--flags", "h.npy", "-o", "k.bin", NULL};
    skt_cli_result r = skt_cli_run("compact", NULL, NULL, compact);
    skt_cli_expect_success(&r, "compact --flags h.npy");
    skt_cli_expect_file("k.bin", 0, kept, sizeof kept);
    skt_cli_free(&r);
    const char *const segscan[] = {"d.bin", "--flags", "h.npy", "-o", "s.bin", NULL};
    r = skt_cli_run("segscan", NULL, NULL, segscan);
    skt_cli_expect_success(&r, "segscan --flags h.npy");
    skt_cli_expect_file("s.bin", 0, sums, sizeof sums);
    skt_cli_free(&r);
    static const int64_t wide[4] = {1, 0, 1, 0};
    skt_cli_write_npy("w.npy", "<i8", wide, 4, sizeof wide[0]);
    static const char *const tools[] = {"compact", "segscan"};
    for (size_t t = 0; t < COUNT(tools); t++) {
        const char *const args[] = {"d.bin", "--flags", "w.npy", NULL};
        r = skt_cli_run(tools[t], NULL, NULL, args);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%s: ", tools[t]);
        skt_cli_expect_one_line_failure(&r, prefix,
                                        "w.npy: flags must be uint8 or uint32 (or int32), not int64");
        skt_cli_free(&r);
    }
}
