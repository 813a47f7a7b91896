/*
 * fuzz_cli.c - fuzz target for the command lines of the programs: the
 * option tables and checks of apps/<program>_args.c, through
 * ak_parse_command_line() and ak_args_next().
 *
 * The input is split at NUL bytes into argv. argv[0] names the program
 * whose command line is parsed (scan, compact, radixsort, merge, segscan,
 * polyeval, histogram, search, topk, datagen); an input naming none is skipped. Each
 * argument is its own allocation, so reading past the end of one is
 * caught. Only the parsing runs (and, for datagen, the check of the generator spec it
 * parsed): nothing is opened, read, written or computed. Beyond the
 * sanitizers: the result is AK_EXIT_OK or AK_EXIT_USAGE, and a command line
 * that parses without --help, --version or --list-devices names its input.
 */
#define _POSIX_C_SOURCE 200809L

#include "compact_args.h"
#include "datagen_args.h"
#include "histogram_args.h"
#include "merge_args.h"
#include "polyeval_args.h"
#include "radixsort_args.h"
#include "scan_args.h"
#include "search_args.h"
#include "topk_args.h"
#include "segscan_args.h"
#include "fuzz_common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

/* A parse that succeeded without --help, --version or --list-devices must
 * have found the operand. */
static void check_parsed(int rc, int asked_only, const char *input)
{
    FUZZ_CHECK(rc == AK_EXIT_OK || rc == AK_EXIT_USAGE);
    FUZZ_CHECK(rc != AK_EXIT_OK || asked_only || input != NULL);
}

/* a: argv parsed by PARSE into T, rc: its status, checked as above. */
#define PARSE_CHECKED(T, PARSE)                                                  \
    T a;                                                                         \
    int rc = PARSE(argc, argv, &a);                                              \
    check_parsed(rc, a.help || a.version || a.list_devices, a.input)

static void parse_scan(int argc, char **argv)
{
    PARSE_CHECKED(scan_args, scan_parse_args);
}

static void parse_compact(int argc, char **argv)
{
    PARSE_CHECKED(compact_args, compact_parse_args);
}

static void parse_radixsort(int argc, char **argv)
{
    PARSE_CHECKED(sort_args, radixsort_parse_args);
    FUZZ_CHECK(rc != AK_EXIT_OK || !a.has_bits || a.begin_bit < a.end_bit);
}

/* a: argv parsed by PARSE into T, which takes two operands (both found
 * when the parse succeeded). */
#define PARSE_TWO_OPERANDS(T, PARSE)                                             \
    T a;                                                                         \
    int rc = PARSE(argc, argv, &a);                                              \
    int asked_only = a.help || a.version || a.list_devices;                      \
    check_parsed(rc, asked_only, a.inputs[0]);                                   \
    FUZZ_CHECK(rc != AK_EXIT_OK || asked_only || a.inputs[1] != NULL)

/* merge takes two operands, and --values two files. */
static void parse_merge(int argc, char **argv)
{
    PARSE_TWO_OPERANDS(merge_args, merge_parse_args);
    FUZZ_CHECK(rc != AK_EXIT_OK || !a.values[0] || a.values[1]);
}

static void parse_search(int argc, char **argv)
{
    PARSE_TWO_OPERANDS(search_args, search_parse_args);
}

static void parse_segscan(int argc, char **argv)
{
    PARSE_CHECKED(seg_args, segscan_parse_args);
}

static void parse_polyeval(int argc, char **argv)
{
    PARSE_CHECKED(poly_args, polyeval_parse_args);
    FUZZ_CHECK(rc != AK_EXIT_OK || !a.x_text || a.nx > 0);
    polyeval_args_free(&a);
}

static void parse_histogram(int argc, char **argv)
{
    PARSE_CHECKED(histogram_args, histogram_parse_args);
    FUZZ_CHECK(rc != AK_EXIT_OK || a.help || a.version || a.list_devices || a.edges ||
               (a.bins > 0 && a.lo < a.hi));
}

static void parse_topk(int argc, char **argv)
{
    PARSE_CHECKED(topk_args, topk_parse_args);
    FUZZ_CHECK(rc != AK_EXIT_OK || a.help || a.version || a.list_devices ||
               a.k != TOPK_K_UNSET);
}

/* datagen has no operand; a spec it accepts must pass ak_gen_init. */
static void parse_datagen(int argc, char **argv)
{
    datagen_args a;
    int rc = datagen_parse_args(argc, argv, &a);
    check_parsed(rc, 1, NULL);
    if (rc == AK_EXIT_OK && !a.help && !a.version) {
        ak_gen g;
        ak_err e;
        FUZZ_CHECK(ak_gen_init(&g, &a.spec, &e) == 0);
    }
}

typedef struct program {
    const char *name;
    void (*parse)(int argc, char **argv);
} program;

static const program PROGRAMS[] = {
    {"scan", parse_scan},       {"compact", parse_compact}, {"radixsort", parse_radixsort},
    {"merge", parse_merge},     {"segscan", parse_segscan}, {"polyeval", parse_polyeval},
    {"histogram", parse_histogram}, {"search", parse_search},   {"datagen", parse_datagen},
    {"topk", parse_topk},
};

/* Splits data at NUL bytes into up to MAX_ARGS separately allocated
 * strings. @return argc. */
static int split_args(const uint8_t *data, size_t size, char **argv)
{
    int argc = 0;
    size_t start = 0;
    while (start < size && argc < MAX_ARGS) {
        const uint8_t *nul = memchr(data + start, 0, size - start);
        size_t len = nul ? (size_t)(nul - (data + start)) : size - start;
        argv[argc] = malloc(len + 1);
        FUZZ_CHECK(argv[argc] != NULL);
        memcpy(argv[argc], data + start, len);
        argv[argc][len] = '\0';
        argc++;
        start += len + 1;
    }
    argv[argc] = NULL;
    return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 1];
    int argc = split_args(data, size, argv);
    for (size_t i = 0; argc > 0 && i < sizeof PROGRAMS / sizeof PROGRAMS[0]; i++)
        if (strcmp(argv[0], PROGRAMS[i].name) == 0)
            PROGRAMS[i].parse(argc, argv);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return 0;
}
