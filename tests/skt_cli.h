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
#include <stdint.h>

#include "scankit.h"

extern char skt_cli_root[4096]; /* captures live here         */
extern char skt_cli_work[4200]; /* current directory, outputs */

/* Removes `path` and everything below it (best effort; makes directories
 * writable first). */
void skt_cli_remove_tree(const char *path);

/* A new directory $TMPDIR/<prefix>-XXXXXX (/tmp when TMPDIR is unset or
 * empty); free() the path. */
char *skt_cli_make_tmpdir(const char *prefix);
/* "dir/name"; free() it. */
char *skt_cli_path_in(const char *dir, const char *name);

/* Creates $TMPDIR/<prefix>-XXXXXX (skt_cli_root) and its "work"
 * subdirectory (skt_cli_work), and makes the latter the current directory. */
void skt_cli_dirs_open(const char *prefix);
/* skt_cli_dirs_open("skt-cli"), as a suite's .init. */
void skt_cli_setup(void);
/* Leaves and removes the directories made by skt_cli_dirs_open. */
void skt_cli_dirs_close(void);
/* Skips the running test when no OpenCL device is present. */
void skt_cli_require_any_device(void);
/* 1 when the device the programs will pick has double precision. */
int skt_cli_default_device_has_fp64(void);

/* The whole file, NUL-terminated (not counted in *len); free() it. */
unsigned char *skt_cli_slurp(const char *path, size_t *len);
void skt_cli_write_file(const char *path, const void *data, size_t len);
/* An element type as the programs read and write it: the facts of its
 * SK_ALL_TYPES_MAP row, and its little-endian .npy descr ('<', or '|' for
 * one byte, then 'f', 'i' or 'u', then the size in bytes). */
typedef struct skt_cli_type {
    const char *name; /* "int32" */
    char descr[4];    /* "<i4" */
    size_t size;
    int is_float;
    int is_signed;    /* signed integer */
} skt_cli_type;

extern const skt_cli_type skt_cli_types[SK_KEY_TYPE_COUNT];

#define SKT_CLI_I32 (&skt_cli_types[SK_INT32])
#define SKT_CLI_U32 (&skt_cli_types[SK_UINT32])
#define SKT_CLI_I64 (&skt_cli_types[SK_INT64])
#define SKT_CLI_U64 (&skt_cli_types[SK_UINT64])
#define SKT_CLI_F32 (&skt_cli_types[SK_FLOAT32])
#define SKT_CLI_F64 (&skt_cli_types[SK_FLOAT64])

/* A 1-D little-endian .npy v1.0 file of n elements of `elem` bytes. */
void skt_cli_write_npy(const char *path, const char *descr, const void *data, size_t n,
                       size_t elem);
/* A .npy v1.0 file with the given header fields (descr, fortran_order and
 * shape as written in the header dict), padded to 64 bytes: the bytes in
 * a malloc'd buffer (*len of them), or written to `path`. */
unsigned char *skt_cli_make_npy(const char *descr, const char *fortran, const char *shape,
                                const void *data, size_t data_len, size_t *len);
void skt_cli_write_npy_fields(const char *path, const char *descr, const char *fortran,
                              const char *shape, const void *data, size_t data_len);
/* The data of an element file read as `t` (*n elements, at an offset into
 * *base, which the caller frees); for .npy checks the header's magic,
 * dtype and shape first. */
unsigned char *skt_cli_load_elements(const char *path, int is_npy, const skt_cli_type *t,
                                     size_t *n, unsigned char **base);
/* The little-endian element of `size` (4 or 8) bytes at p. */
uint64_t skt_cli_load_bits(const unsigned char *p, size_t size);
/* The bits of a signed integer of type t as an int64_t. */
int64_t skt_cli_as_signed(const skt_cli_type *t, uint64_t bits);
/* The float of type t at p. */
long double skt_cli_load_float(const skt_cli_type *t, const unsigned char *p);
int skt_cli_file_exists(const char *path);
/* Number of entries (besides . and ..) in the current directory. */
size_t skt_cli_entries(void);
/* Number of entries (besides . and ..) in dir; 0 when it cannot be read. */
size_t skt_cli_entries_in(const char *dir);
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
 * than SCANKIT_DEVICE, plus SCANKIT_CACHE_DIR=cache_dir (NULL: no
 * SCANKIT_CACHE_DIR, and the test's caches: skt_cli_cache_env), so kernels
 * compile once. */
skt_cli_result skt_cli_run_argv(const char *stdin_path, const char *cache_dir,
                                char *const argv[]);
/* The environment entry that gives a program its caches: SCANKIT_CACHE_DIR=
 * cache_dir, or (cache_dir NULL) XDG_CACHE_HOME= the test's (skt_setup's
 * default SKT_TEST_CACHE_HOME), where the library and PoCL keep what they
 * build, as the library tests do. */
void skt_cli_cache_env(const char *cache_dir, char *entry, size_t size);
/* Runs SKT_APP_DIR/tool with args[] (up to a NULL, at most SKT_CLI_MAX_ARGS),
 * as skt_cli_run_argv does. */
skt_cli_result skt_cli_run(const char *tool, const char *stdin_path, const char *cache_dir,
                           const char *const *args);
void skt_cli_free(skt_cli_result *r);

/* Where a run's stdin comes from and its cache directory (NULL: as above). */
typedef struct skt_cli_opts {
    const char *stdin_path;
    const char *cache_dir;
} skt_cli_opts;

/* Runs SKT_APP_DIR/tool with the arguments that follow, up to a NULL (o may
 * be NULL). */
skt_cli_result skt_cli_runl(const skt_cli_opts *o, const char *tool, ...);

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
