/*
 * skt_cli.h - helpers shared by the end-to-end CLI tests (tests/test_cli*.c).
 *
 * Each CLI test runs in a fresh temporary directory: skt_cli_root holds the
 * captured stdout/stderr, skt_cli_work (inside it) is the current directory
 * while the test runs, so its listing shows exactly what a program left.
 * All helpers fail the running Criterion test on I/O errors.
 */
#ifndef SKT_CLI_H
#define SKT_CLI_H

#include <stddef.h>

#include "scankit.h"

extern char skt_cli_root[4096]; /* captures live here         */
extern char skt_cli_work[4200]; /* current directory, outputs */

/* Removes `path` and everything below it (best effort; makes directories
 * writable first). */
void skt_cli_remove_tree(const char *path);

/* Creates $TMPDIR/<prefix>-XXXXXX (skt_cli_root) and its "work"
 * subdirectory (skt_cli_work), and makes the latter the current directory. */
void skt_cli_dirs_open(const char *prefix);
/* Leaves and removes the directories made by skt_cli_dirs_open. */
void skt_cli_dirs_close(void);
/* Skips the running test when no OpenCL device is present. */
void skt_cli_require_any_device(void);

/* The whole file, NUL-terminated (not counted in *len); free() it. */
unsigned char *skt_cli_slurp(const char *path, size_t *len);
void skt_cli_write_file(const char *path, const void *data, size_t len);
/* An element type as the programs read and write it: the facts of its
 * SK_TYPE_MAP row, and its little-endian .npy descr ('<', then 'f', 'i' or
 * 'u', then the size in bytes). */
typedef struct skt_cli_type {
    const char *name; /* "int32" */
    char descr[4];    /* "<i4" */
    size_t size;
    int is_float;
    int is_signed;    /* signed integer */
} skt_cli_type;

extern const skt_cli_type skt_cli_types[SK_TYPE_COUNT];

/* A .npy v1.0 file whose header says descr and shape (the text of a Python
 * tuple), followed by data[0, len). */
void skt_cli_write_npy_header(const char *path, const char *descr, const char *shape,
                              const void *data, size_t len);
/* A 1-D little-endian .npy v1.0 file of n elements of `elem` bytes. */
void skt_cli_write_npy(const char *path, const char *descr, const void *data, size_t n,
                       size_t elem);
int skt_cli_file_exists(const char *path);
/* Number of entries (besides . and ..) in the current directory. */
size_t skt_cli_entries(void);
/* The sorted names in `dir` (besides . and ..), each followed by '\n';
 * free() it. */
char *skt_cli_listing(const char *dir);

/* Number of '\n' in s. */
size_t skt_cli_count_lines(const char *s);
/* The last line of s (trailing newlines ignored); s itself when it has one
 * line. A compiler may print diagnostics before a program's own message. */
const char *skt_cli_last_line(const char *s);

/* ---- running a program -------------------------------------------------- */

typedef struct skt_cli_result {
    int code;       /* exit status, or 128 + signal */
    char *out;      /* stdout, NUL-terminated */
    size_t out_len;
    char *err;      /* stderr, NUL-terminated */
} skt_cli_result;

#define SKT_CLI_MAX_ARGS 38

/* Runs argv[0] (argv NULL-terminated) and waits for it. stdin comes from
 * stdin_path (NULL: /dev/null); stdout/stderr are captured in skt_cli_root.
 * The child gets the test's environment without SCANKIT_* variables other
 * than SCANKIT_DEVICE, plus SCANKIT_CACHE_DIR=cache_dir (NULL: the shared
 * cache SKT_BINARY_DIR/cli-test-cache), so kernels compile once. */
skt_cli_result skt_cli_run_argv(const char *stdin_path, const char *cache_dir,
                                char *const argv[]);
/* Runs SKT_APP_DIR/tool with args[] (up to a NULL, at most SKT_CLI_MAX_ARGS),
 * as skt_cli_run_argv does. */
skt_cli_result skt_cli_run(const char *tool, const char *stdin_path, const char *cache_dir,
                           const char *const *args);
void skt_cli_free(skt_cli_result *r);

/* "tool arg arg ..." (args up to a NULL), for messages; a static buffer
 * that the next call overwrites. */
const char *skt_cli_describe(const char *tool, const char *const *args);

/* ---- checking a run -------------------------------------------------------- */

/* Exit 0 (`what` names the run in the failure message). */
void skt_cli_expect_success(const skt_cli_result *r, const char *what);
/* Exit 1 and exactly one line on stderr, starting with `prefix` and
 * containing `needle` (unless NULL). */
void skt_cli_expect_one_line_failure(const skt_cli_result *r, const char *prefix,
                                     const char *needle);
/* Exit 2 and a "usage:" line on stderr. */
void skt_cli_expect_usage_error(const skt_cli_result *r);
/* Exit `code`. For code 1 the last line of stderr (a compiler may print
 * diagnostics before it) starts with `prefix` and contains `needle`; else
 * stderr has a "usage:" line and contains `needle`. */
void skt_cli_expect_failure(const skt_cli_result *r, const char *prefix, int code,
                            const char *needle);
/* The raw file, or the data of the .npy file (npy != 0), at `path` holds
 * exactly the `bytes` bytes at `want`. */
void skt_cli_expect_file(const char *path, int npy, const void *want, size_t bytes);

#endif
