/*
 * og_harness.h - what the Oclgrind drivers (og_bykey.c, og_driver.c, og_compact.c,
 * og_histogram.c, og_merge.c, og_search.c, og_segscan.c, og_sort.c) share: the options, the seeded
 * generator, one context per forced configuration, device buffers, the
 * result checks and the check that only Oclgrind ran.
 *
 * Every driver runs under tests/oclgrind/run.sh and takes
 *   --expect-oclgrind  fail unless the only device visible is Oclgrind's and
 *                      no program came from the on-disk binary cache
 *   --seed S           the generator's seed (default: the time)
 *   --cpu-builtin skip|only
 *                      skip, or run only, the part whose 8-wide CPU code
 *                      Oclgrind 21.10's --uninitialized plugin crashes on
 *                      (each driver says which part that is)
 * and its own options (og_driver_def.option).
 *
 * Oclgrind 21.10's --uninitialized shadow memory keeps the size of a
 * released buffer when a later buffer reuses its slot (see og_driver.c), so
 * the harness keeps every context it opens (og_open) and every buffer it
 * makes (og_buffer) until the driver's run is over, and the drivers make
 * their buffers once, at the largest size, and run the call needing the
 * most scratch first on each context.
 */
#ifndef SKT_OG_HARNESS_H
#define SKT_OG_HARNESS_H

#include "scankit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OG_MAX_SIZES 5
#define OG_MAX_CONTEXTS 128
#define OG_MAX_BUFFERS 16
#define OG_POISON 0xA5

/* One forced launch shape and the sizes it runs at. Fields left 0 are
 * "automatic" (the library's default). */
typedef struct og_config {
    const char *name;
    sk_shape shape;
    long wg, items;            /* GPU shape */
    long chunks, serial_below; /* CPU shape */
    size_t sizes[OG_MAX_SIZES]; /* largest first; 0 ends the list */
    sk_scan_path path;
    long lines_from;           /* SK_PARAM_CPU_SORT_LINES_FROM */
    long bucket_bytes;         /* SK_PARAM_CPU_SORT_BUCKET_BYTES */
    unsigned hooks;            /* test hooks (primitives/sk_testing.h) */
} og_config;

/* The configurations og_compact and og_segscan force: GPU tiles of 8 and
 * 32 elements and the default tiles, CPU 3 and 7 chunks down to one
 * element and the default chunks. The first size of the wg=8 one (W0, W1)
 * and the default tiles' size (D) are the driver's. */
#define OG_SMALL_TILE_CONFIGS(W0, W1, D)                                              \
    {"gpu wg=4 items=2", SK_SHAPE_GPU, .wg = 4, .items = 2, .sizes = {203, 64, 17, 1}}, \
    {"gpu wg=8 items=4", SK_SHAPE_GPU, .wg = 8, .items = 4, .sizes = {W0, W1}},         \
    {"gpu default tiles", SK_SHAPE_GPU, .sizes = {D}},                                  \
    {"cpu chunks=3 serial_below=1", SK_SHAPE_CPU, .chunks = 3, .serial_below = 1,       \
     .sizes = {203, 50, 2, 1}},                                                         \
    {"cpu chunks=7 serial_below=1", SK_SHAPE_CPU, .chunks = 7, .serial_below = 1,       \
     .sizes = {99}},                                                                    \
    {"cpu default chunks", SK_SHAPE_CPU, .sizes = {300}}

/* --cpu-builtin */
typedef enum og_select { OG_ALL, OG_SKIP_CPU_BUILTIN, OG_ONLY_CPU_BUILTIN } og_select;

typedef struct og_harness og_harness;

/* A driver: its name (the prefix of every line it prints), the usage text
 * of its own options, a parser for them (1 when `name value` is one of
 * them; NULL: none) and its run (@return the number of failures). */
typedef struct og_driver_def {
    const char *name;
    const char *extra_usage;
    int (*option)(og_harness *h, const char *name, const char *value);
    int (*run)(og_harness *h);
} og_driver_def;

struct og_harness {
    const og_driver_def *def;
    bool expect_oclgrind;
    uint64_t seed, rng;
    og_select select;
    unsigned hooks;            /* added to every configuration's (og_sort --hook) */
    void *user;                /* the driver's own state */
    sk_context *base;          /* the device's context */
    sk_context *opened[OG_MAX_CONTEXTS];
    size_t n_opened;
    cl_mem buffers[OG_MAX_BUFFERS];
    size_t n_buffers;
    void *hosts[OG_MAX_BUFFERS];
    size_t n_hosts;
};

/* Parses the options, opens the device's context, prints the device and the
 * seed, runs the driver, checks Oclgrind (--expect-oclgrind), releases all
 * and prints the verdict. @return main's exit status (0, 1, or 2 on bad
 * usage). */
int og_main(const og_driver_def *def, void *user, int argc, char **argv);

/* The next number of the seeded generator (splitmix64). */
uint64_t og_rng(og_harness *h);

/* 1 when the call succeeded; else prints what failed and 0. */
int og_cl_ok(const og_harness *h, cl_int rc, const char *what);
int og_sk_ok(const og_harness *h, const sk_context *ctx, sk_status st, const char *what);

/* A new context on the base context's OpenCL objects with c's launch
 * parameters and hooks (and --hook's); kept open to the end. NULL (after
 * saying why) on failure. */
sk_context *og_open(og_harness *h, const og_config *c);

/* A device buffer of `bytes`, released at the end (NULL on failure). */
cl_mem og_buffer(og_harness *h, size_t bytes);

/* Host memory of `bytes`, freed at the end (NULL, after saying so, when
 * there is none). */
void *og_host(og_harness *h, size_t bytes);

/* Blocking transfers on the base queue; writing 0 bytes does nothing. */
int og_write(og_harness *h, cl_mem m, const void *p, size_t bytes);
int og_read(og_harness *h, cl_mem m, void *p, size_t bytes);

/* The most elements any configuration of `configs` runs (its first size). */
size_t og_largest_size(const og_config *configs, size_t count);

/* 1 when every byte of p[0 .. bytes) is OG_POISON. */
int og_all_poison(const void *p, size_t bytes);

/* Prints the configuration's line ("ok" or "FAILED") and @return failures. */
int og_config_done(const og_harness *h, const og_config *c, int failures);

#endif /* SKT_OG_HARNESS_H */
