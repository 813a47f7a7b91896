/*
 * test_cli_scan_files.c - end-to-end tests of the scan program's files and
 * streams: output naming, stdin and stdout, --in-place, every bad input
 * file and unusable output answered by one line and exit 1 with nothing
 * left behind, usage errors, --help, --version, --list-devices, --time and
 * the disk cache across processes (round trips: test_cli_scan.c).
 *
 * Each test runs in a fresh temporary directory whose "work" subdirectory
 * is the current directory (tests/skt_cli.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scankit.h"
#include "skt_cli.h"

TestSuite(scan_cli, .init = skt_cli_setup, .fini = skt_cli_dirs_close, .timeout = 120);

#define SCAN(...) skt_cli_runl(NULL, "scan", __VA_ARGS__, (const char *)NULL)

/* ------------------------------------------------------------------------ */
/* Output naming, stdin/stdout, in place                                     */
/* ------------------------------------------------------------------------ */

static const uint32_t small_u32[5] = {1, 2, 3, 4, 5};
static const uint32_t small_u32_sums[5] = {1, 3, 6, 10, 15};

static void expect_file_u32(const char *path, int is_npy, const uint32_t *want, size_t n)
{
    size_t got_n;
    unsigned char *base;
    unsigned char *data = skt_cli_load_elements(path, is_npy, SKT_CLI_U32, &got_n, &base);
    cr_assert_eq(got_n, n, "%s holds %zu elements, expected %zu", path, got_n, n);
    cr_assert_eq(memcmp(data, want, n * 4), 0, "%s holds the wrong values", path);
    free(base);
}

Test(scan_cli, should_name_the_default_output_after_the_input_and_keep_its_format)
{
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    skt_cli_write_npy_fields("data.npy", "<u4", "False", "(5,)", small_u32, sizeof small_u32);
    skt_cli_write_file("noext", small_u32, sizeof small_u32);
    const char *inputs[] = {"data.bin", "data.npy", "noext"};
    for (size_t i = 0; i < 3; i++) {
        skt_cli_result r = SCAN(inputs[i]);
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
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    skt_cli_opts o = {.stdin_path = "data.bin"};
    skt_cli_result r = skt_cli_runl(&o, "scan", "-", (const char *)NULL);
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
    skt_cli_require_any_device();
    skt_cli_write_npy_fields("data.npy", "<u4", "False", "(5,)", small_u32, sizeof small_u32);
    skt_cli_opts o = {.stdin_path = "data.npy"};
    skt_cli_result r = skt_cli_runl(&o, "scan", "-", "-o", "out.npy", (const char *)NULL);
    skt_cli_expect_success(&r, "scan - -o out.npy < data.npy");
    skt_cli_free(&r);
    expect_file_u32("out.npy", 1, small_u32_sums, 5);
    r = skt_cli_runl(&o, "scan", "-", (const char *)NULL);
    skt_cli_expect_success(&r, "scan - < data.npy");
    skt_cli_write_file("stdout.npy", r.out, r.out_len);
    expect_file_u32("stdout.npy", 1, small_u32_sums, 5);
    skt_cli_free(&r);
}

Test(scan_cli, should_replace_the_input_with_in_place)
{
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    struct stat before;
    cr_assert_eq(stat("data.bin", &before), 0);
    skt_cli_result r = SCAN("data.bin", "--in-place");
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
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    cr_assert_eq(link("data.bin", "alias.bin"), 0);
    const char *spellings[] = {"data.bin", "./data.bin", "alias.bin"};
    for (size_t i = 0; i < 3; i++) {
        skt_cli_result r = SCAN("data.bin", "-o", spellings[i]);
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
    skt_cli_result r = skt_cli_runl(NULL, "scan", input, a1, a2, (const char *)NULL);
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
    unsigned char *buf = skt_cli_make_npy("<u4", "False", "(5,)", small_u32, sizeof small_u32, &len);
    buf[1] = 'X';
    skt_cli_write_file("data.npy", buf, len);
    free(buf);
    expect_clean_failure("bad magic", "data.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_npy_file_with_a_truncated_header)
{
    size_t len;
    unsigned char *buf = skt_cli_make_npy("<u4", "False", "(5,)", small_u32, sizeof small_u32, &len);
    skt_cli_write_file("short.npy", buf, 40);
    skt_cli_write_file("tiny.npy", buf, 7);
    free(buf);
    expect_clean_failure("truncated", "short.npy", NULL, NULL);
    expect_clean_failure("truncated", "tiny.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_npy_file_with_truncated_or_extra_data)
{
    skt_cli_write_npy_fields("short.npy", "<u4", "False", "(6,)", small_u32, sizeof small_u32);
    skt_cli_write_npy_fields("long.npy", "<u4", "False", "(4,)", small_u32, sizeof small_u32);
    expect_clean_failure("truncated", "short.npy", NULL, NULL);
    expect_clean_failure("longer", "long.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_unsupported_npy_dtype)
{
    skt_cli_write_npy_fields("cplx.npy", "<c8", "False", "(2,)", small_u32, 16);
    skt_cli_write_npy_fields("bytes.npy", "|S4", "False", "(5,)", small_u32, 20);
    expect_clean_failure("unsupported .npy dtype '<c8'", "cplx.npy", NULL, NULL);
    expect_clean_failure("unsupported .npy dtype '|S4'", "bytes.npy", NULL, NULL);
}

/* float16 (and the other 8- and 16-bit types) are sort keys: read, then
 * refused by name. */
Test(scan_cli, should_refuse_float16_elements_by_name)
{
    skt_cli_write_npy_fields("half.npy", "<f2", "False", "(10,)", small_u32, 20);
    expect_clean_failure("half.npy: element type float16 cannot be scanned", "half.npy", NULL,
                         NULL);
}

Test(scan_cli, should_reject_a_big_endian_npy_file)
{
    skt_cli_write_npy_fields("data.npy", ">u4", "False", "(5,)", small_u32, sizeof small_u32);
    expect_clean_failure("big-endian", "data.npy", NULL, NULL);
}

Test(scan_cli, should_reject_a_fortran_order_npy_file)
{
    skt_cli_write_npy_fields("data.npy", "<u4", "True", "(5,)", small_u32, sizeof small_u32);
    expect_clean_failure("fortran_order", "data.npy", NULL, NULL);
}

Test(scan_cli, should_reject_an_npy_shape_that_is_not_one_dimensional)
{
    skt_cli_write_npy_fields("matrix.npy", "<u4", "False", "(1, 5)", small_u32, sizeof small_u32);
    skt_cli_write_npy_fields("scalar.npy", "<u4", "False", "()", small_u32, 4);
    expect_clean_failure("not 1-D", "matrix.npy", NULL, NULL);
    expect_clean_failure("not 1-D", "scalar.npy", NULL, NULL);
}

Test(scan_cli, should_reject_a_type_that_disagrees_with_the_npy_dtype)
{
    skt_cli_write_npy_fields("data.npy", "<u4", "False", "(5,)", small_u32, sizeof small_u32);
    expect_clean_failure("disagrees", "data.npy", "--type", "int32");
}

Test(scan_cli, should_reject_a_bitwise_op_on_a_float_npy_file)
{
    float x[3] = {1.0f, 2.0f, 3.0f};
    skt_cli_write_npy_fields("data.npy", "<f4", "False", "(3,)", x, sizeof x);
    expect_clean_failure("integer type", "data.npy", "--op", "xor");
}

Test(scan_cli, should_report_a_missing_input_file)
{
    expect_clean_failure("no-such-file.bin: cannot open", "no-such-file.bin", NULL, NULL);
}

Test(scan_cli, should_report_a_device_spec_that_matches_nothing)
{
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    expect_clean_failure("--device 'no-such-device-anywhere'", "data.bin", "--device",
                         "no-such-device-anywhere");
}

Test(scan_cli, should_report_an_output_directory_that_does_not_exist)
{
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    expect_clean_failure("cannot create", "data.bin", "-o", "missing/out.bin");
    expect_clean_failure("Not a directory", "data.bin", "-o", "data.bin/out.bin");
}

Test(scan_cli, should_report_an_unwritable_output_directory)
{
    skt_cli_require_any_device();
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
    skt_cli_require_any_device();
    if (!skt_cli_file_exists("/dev/full"))
        cr_skip_test("no /dev/full");
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    expect_clean_failure("No space left", "data.bin", "-o", "/dev/full");
    /* stdout on /dev/full: the failure shows at the final flush */
    char *before = skt_cli_listing(".");
    skt_cli_opts o = {.stdin_path = "data.bin"};
    char app[4200];
    snprintf(app, sizeof app, "%s/scan", SKT_APP_DIR);
    char *argv[] = {"/bin/sh", "-c", "\"$0\" - > /dev/full", app, NULL};
    skt_cli_result r = skt_cli_run_argv(o.stdin_path, o.cache_dir, argv);
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
        skt_cli_result r = skt_cli_run("scan", NULL, NULL, cases[i]);
        skt_cli_expect_usage_error(&r);
        skt_cli_free(&r);
    }
    char *names = skt_cli_listing(".");
    cr_assert_str_eq(names, "data.bin\n");
    free(names);
}

Test(scan_cli, should_print_help_and_exit_0)
{
    skt_cli_result r = SCAN("--help");
    skt_cli_expect_success(&r, "scan --help");
    cr_assert_not_null(strstr(r.out, "usage: scan INPUT"));
    cr_assert_not_null(strstr(r.out, "--exclusive"));
    cr_assert_str_eq(r.err, "");
    skt_cli_free(&r);
}

Test(scan_cli, should_print_the_library_version)
{
    skt_cli_result r = SCAN("--version");
    skt_cli_expect_success(&r, "scan --version");
    char want[64];
    snprintf(want, sizeof want, "scan (scankit) %s\n", sk_version_string());
    cr_assert_str_eq(r.out, want);
    skt_cli_free(&r);
}

Test(scan_cli, should_list_devices_as_a_table)
{
    skt_cli_require_any_device();
    skt_cli_result r = SCAN("--list-devices");
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
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    skt_cli_result r = SCAN("data.bin", "--time");
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
    skt_cli_require_any_device();
    skt_cli_write_file("data.bin", small_u32, sizeof small_u32);
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", skt_cli_root);
    skt_cli_opts o = {.cache_dir = cache};
    unsigned long compiled, disk, memory;

    skt_cli_result first = skt_cli_runl(&o, "scan", "data.bin", "--time", "--op", "max",
                                (const char *)NULL);
    skt_cli_expect_success(&first, "first scan");
    parse_build_line(first.err, &compiled, &disk, &memory);
    cr_assert_geq(compiled, 1, "a fresh cache should compile: %s", first.err);
    cr_assert_eq(disk, 0, "a fresh cache holds nothing: %s", first.err);
    skt_cli_free(&first);

    skt_cli_result second = skt_cli_runl(&o, "scan", "data.bin", "--time", "--op", "max",
                                 (const char *)NULL);
    skt_cli_expect_success(&second, "second scan");
    parse_build_line(second.err, &compiled, &disk, &memory);
    cr_assert_eq(compiled, 0, "the second process should not compile: %s", second.err);
    cr_assert_geq(disk, 1, "the second process should load from disk: %s", second.err);
    skt_cli_free(&second);
}

