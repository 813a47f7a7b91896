/*
 * test_cache.c - the program cache: what it keeps (one build per context,
 * a failed build not compiled again, a second context loading from disk,
 * the bound on the programs kept in memory), and that it never trusts
 * what it reads from disk.
 *
 * Every program family (scan, compaction, sort, segmented scan, polynomial)
 * runs once into a fresh cache directory; then each entry is damaged in one
 * way (truncated at every region of the entry, a bit flipped in every field,
 * random bytes, another key's entry under its name, a FIFO, a directory, a
 * link loop, ...) and every family runs again on a new context. The answers
 * must be right, every damaged entry must have been rebuilt (and logged
 * under SCANKIT_LOG), and a third context must load the rewritten entries
 * from disk. Entry layout (primitives/program.c): 32 header bytes (magic,
 * key length, binary length, checksum), the key, the binary.
 * (test_cache_dir.c: where the cache directory is and is not created.)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skt_cli.h"
#include "skt_common.h"
#include "ref/ref_compact.h"
#include "ref/ref_segscan.h"
#include "ref/ref_sort.h"

TestSuite(cache, .init = skt_setup, .timeout = 300);
TestSuite(cache_damage, .init = skt_setup, .timeout = 600);

enum { HEADER_BYTES = 32, FAMILY_N = 3001 };

/* ---- files ------------------------------------------------------------------------------ */

typedef struct {
    char **names;                  /* sorted, without "." and ".." */
    size_t count;
} listing;

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static listing list_dir(const char *dir)
{
    listing l = {NULL, 0};
    DIR *d = opendir(dir);
    if (!d) return l;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        l.names = realloc(l.names, (l.count + 1) * sizeof *l.names);
        cr_assert_not_null(l.names);
        l.names[l.count++] = strdup(e->d_name);
    }
    closedir(d);
    if (l.count) qsort(l.names, l.count, sizeof *l.names, cmp_names);
    return l;
}

static void listing_free(listing *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->names[i]);
    free(l->names);
    l->names = NULL;
    l->count = 0;
}

static void expect_same_listing(const listing *a, const listing *b, const char *what)
{
    cr_assert_eq(a->count, b->count, "%s: %zu files in the cache directory, expected %zu",
                 what, b->count, a->count);
    for (size_t i = 0; i < a->count; i++)
        cr_assert_str_eq(a->names[i], b->names[i], "%s: file %s, expected %s", what,
                         b->names[i], a->names[i]);
}

/* ---- the families ---------------------------------------------------------------------- */

#define CTX_OK(ctx, call)                                                                  \
    do {                                                                                   \
        sk_status st_ = (call);                                                            \
        cr_assert_eq(st_, SK_OK, "%s -> %s (%s) [seed %llu]", #call, sk_status_name(st_), \
                     sk_context_error_detail(ctx), (unsigned long long)skt_seed());        \
    } while (0)

static void run_scan_of(sk_context *c, sk_type t)
{
    size_t n = FAMILY_N, size = sk_type_size(t);
    void *in = skt_malloc(n * size), *want = skt_malloc(n * size), *got = skt_malloc(n * size);
    skt_fill(t, SK_OP_ADD, in, n);
    skt_ref_scan(t, SK_OP_ADD, 0, in, want, n);
    skt_poison(got, n * size);
    CTX_OK(c, sk_scan_inclusive_host(c, t, SK_OP_ADD, in, got, n));
    skt_expect_elems(t, got, want, n, skt_fmt("%s add scan", sk_type_name(t)));
    skt_free_all(in, want, got, NULL);
}

static void run_scan(sk_context *c) { run_scan_of(c, SK_UINT32); }

static void run_compact(sk_context *c)
{
    size_t n = FAMILY_N, count = 0;
    uint32_t *in = skt_malloc(n * 4), *want = skt_malloc(n * 4), *got = skt_malloc(n * 4);
    unsigned char *keep = skt_malloc(n);
    for (size_t i = 0; i < n; i++) in[i] = (uint32_t)skt_rand();
    for (size_t i = 0; i < n; i++) keep[i] = in[i] % 3 == 0;
    size_t want_count = skt_ref_select(in, keep, n, 4, want);
    skt_poison(got, n * 4);
    CTX_OK(c, sk_select_if_host(c, SK_UINT32, "x % 3 == 0", in, got, &count, n));
    cr_assert_eq(count, want_count, "select_if kept %zu of %zu, expected %zu", count, n,
                 want_count);
    skt_expect_elems(SK_UINT32, got, want, count, "select_if x % 3 == 0");
    skt_free_all(in, want, got, keep, NULL);
}

static void run_sort(sk_context *c)
{
    size_t n = FAMILY_N;
    uint32_t *keys = skt_malloc(n * 4), *want = skt_malloc(n * 4);
    size_t *perm = skt_malloc(n * sizeof *perm);
    for (size_t i = 0; i < n; i++) keys[i] = (uint32_t)skt_rand();
    skt_ref_sort_perm(SK_UINT32, keys, n, 0, 0, 32, perm);
    skt_ref_gather(keys, 4, perm, n, want);
    CTX_OK(c, sk_sort_keys_host(c, SK_UINT32, keys, n, SK_ASCENDING));
    skt_expect_elems(SK_UINT32, keys, want, n, "sorted keys");
    skt_free_all(keys, want, perm, NULL);
}

static void run_segscan(sk_context *c)
{
    size_t n = FAMILY_N;
    uint32_t *in = skt_malloc(n * 4), *want = skt_malloc(n * 4), *got = skt_malloc(n * 4);
    unsigned char *flags = skt_malloc(n), *heads = skt_malloc(n);
    skt_fill(SK_UINT32, SK_OP_ADD, in, n);
    for (size_t i = 0; i < n; i++) flags[i] = skt_rand_below(17) == 0;
    skt_ref_heads_from_flags(flags, 1, n, heads);
    skt_ref_segscan(SK_UINT32, SK_OP_ADD, 0, in, want, heads, n);
    skt_poison(got, n * 4);
    sk_segments_host seg = {.flags = flags, .flag_size = 1};
    CTX_OK(c, sk_segscan_inclusive_host(c, SK_UINT32, SK_OP_ADD, in, &seg, got, n));
    skt_expect_elems(SK_UINT32, got, want, n, "segmented add scan by flags");
    skt_free_all(in, want, got, flags, heads, NULL);
}

/* Small integer coefficients at x = 1 and x = -1: every partial result is
 * an exact float. */
static void run_poly(sk_context *c)
{
    size_t n = FAMILY_N;
    float *coef = skt_malloc(n * sizeof *coef);
    double even = 0, odd = 0;
    for (size_t i = 0; i < n; i++) {
        coef[i] = (float)((int)skt_rand_below(9) - 4);
        *(i % 2 ? &odd : &even) += coef[i];
    }
    double at1 = -1, at_minus1 = -1;
    CTX_OK(c, sk_poly_eval_host(c, SK_FLOAT32, coef, 1.0, &at1, n));
    CTX_OK(c, sk_poly_eval_host(c, SK_FLOAT32, coef, -1.0, &at_minus1, n));
    cr_assert_eq(at1, even + odd, "p(1) = %g, expected %g", at1, even + odd);
    cr_assert_eq(at_minus1, even - odd, "p(-1) = %g, expected %g", at_minus1, even - odd);
    free(coef);
}

typedef struct {
    const char *name;
    void (*run)(sk_context *c);
} family;

static const family FAMILIES[] = {
    {"scan", run_scan}, {"compact", run_compact}, {"sort", run_sort},
    {"segscan", run_segscan}, {"poly", run_poly},
};
#define FAMILY_COUNT (sizeof FAMILIES / sizeof FAMILIES[0])

static sk_build_stats stats_of(sk_context *c)
{
    sk_build_stats s = SK_BUILD_STATS_INIT;
    memset(&s, 0xA5, sizeof s);
    cr_assert_eq(sk_context_build_stats(c, &s), SK_OK);
    return s;
}

/* Runs every family on a new context; its build statistics. */
static sk_build_stats run_families(void)
{
    sk_context *c = skt_ctx_new_disk_cache();
    for (size_t i = 0; i < FAMILY_COUNT; i++) FAMILIES[i].run(c);
    sk_build_stats s = stats_of(c);
    sk_context_free(c);
    return s;
}

/* ---- stderr of a run, for SCANKIT_LOG ------------------------------------------------- */

typedef struct {
    int saved;
    char path[64];
} captured;

static captured capture_stderr(void)
{
    captured cap;
    snprintf(cap.path, sizeof cap.path, "/tmp/skt-cache-log-XXXXXX");
    int fd = mkstemp(cap.path);
    cr_assert_geq(fd, 0);
    fflush(stderr);
    cap.saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
    return cap;
}

/* Restores stderr; the text written meanwhile (malloc'd). */
static char *release_stderr(captured *cap)
{
    fflush(stderr);
    dup2(cap->saved, STDERR_FILENO);
    close(cap->saved);
    size_t len = 0;
    char *text = (char *)skt_cli_slurp(cap->path, &len); /* NUL-terminated */
    unlink(cap->path);
    return text;
}

static size_t count_occurrences(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* ---- damage ---------------------------------------------------------------------------- */

typedef struct {
    char *dir;
    listing entries;               /* after the first run */
    unsigned char **bytes;         /* each entry's good contents */
    size_t *lens;
} cache_fixture;

static cache_fixture fixture_open(void)
{
    cache_fixture f = {0};
    f.dir = skt_cli_make_tmpdir("skt-cache");
    setenv("SCANKIT_CACHE_DIR", f.dir, 1);
    unsetenv("SCANKIT_LOG");
    sk_build_stats s = run_families();
    cr_assert_geq(s.compiled, FAMILY_COUNT, "the first run compiled %lu programs",
                  (unsigned long)s.compiled);
    f.entries = list_dir(f.dir);
    cr_assert_eq(f.entries.count, (size_t)s.compiled,
                 "%zu files in the cache for %lu programs compiled", f.entries.count,
                 (unsigned long)s.compiled);
    f.bytes = skt_malloc(f.entries.count * sizeof *f.bytes);
    f.lens = skt_malloc(f.entries.count * sizeof *f.lens);
    for (size_t i = 0; i < f.entries.count; i++) {
        char *p = skt_cli_path_in(f.dir, f.entries.names[i]);
        f.bytes[i] = skt_cli_slurp(p, &f.lens[i]);
        cr_assert_gt(f.lens[i], HEADER_BYTES, "%s is too short for an entry", p);
        free(p);
    }
    return f;
}

static void fixture_close(cache_fixture *f)
{
    for (size_t i = 0; i < f->entries.count; i++) free(f->bytes[i]);
    free(f->bytes);
    free(f->lens);
    listing_free(&f->entries);
    skt_cli_remove_tree(f->dir);
    free(f->dir);
}

/* Puts every entry's good contents back (a FIFO or directory removed first). */
static void fixture_restore(const cache_fixture *f)
{
    for (size_t i = 0; i < f->entries.count; i++) {
        char *p = skt_cli_path_in(f->dir, f->entries.names[i]);
        skt_cli_remove_tree(p);
        skt_cli_write_file(p, f->bytes[i], f->lens[i]);
        free(p);
    }
}

static uint64_t le64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

/* Where a damage acts: an offset computed from the entry's own layout. */
typedef enum {
    AT_ZERO, AT_ONE, AT_IN_MAGIC, AT_HEADER_LESS_1, AT_HEADER, AT_MID_KEY, AT_KEY_END,
    AT_BINARY_FIRST, AT_MID_BINARY, AT_LAST, AT_KEY_LEN_FIELD, AT_BIN_LEN_FIELD,
    AT_CHECKSUM_FIELD
} place;

static size_t offset_of(place at, const unsigned char *entry, size_t len)
{
    size_t key_len = (size_t)le64(entry + 8);
    switch (at) {
    case AT_ZERO: return 0;
    case AT_ONE: return 1;
    case AT_IN_MAGIC: return 5;
    case AT_HEADER_LESS_1: return HEADER_BYTES - 1;
    case AT_HEADER: return HEADER_BYTES;
    case AT_MID_KEY: return HEADER_BYTES + key_len / 2;
    case AT_KEY_END: return HEADER_BYTES + key_len;
    case AT_BINARY_FIRST: return HEADER_BYTES + key_len;
    case AT_MID_BINARY: return HEADER_BYTES + key_len + (len - HEADER_BYTES - key_len) / 2;
    case AT_LAST: return len - 1;
    case AT_KEY_LEN_FIELD: return 8;
    case AT_BIN_LEN_FIELD: return 16 + 2;
    case AT_CHECKSUM_FIELD: return 24 + 7;
    }
    return 0;
}

typedef enum { TRUNCATE, FLIP_BIT, APPEND_BYTE, RANDOM_BYTES, ROTATE, FIFO, DIRECTORY,
               LINK_LOOP, DANGLING_LINK, LINK_TO_OTHER } damage_kind;

typedef struct {
    const char *name;
    damage_kind kind;
    place at;
    int replaceable;               /* a rebuilt entry can take the file's place */
} damage;

static const damage DAMAGES[] = {
    {"truncated to 0 bytes", TRUNCATE, AT_ZERO, 1},
    {"truncated to 1 byte", TRUNCATE, AT_ONE, 1},
    {"truncated inside the magic", TRUNCATE, AT_IN_MAGIC, 1},
    {"truncated a byte short of the header", TRUNCATE, AT_HEADER_LESS_1, 1},
    {"truncated to the header", TRUNCATE, AT_HEADER, 1},
    {"truncated inside the key", TRUNCATE, AT_MID_KEY, 1},
    {"truncated after the key", TRUNCATE, AT_KEY_END, 1},
    {"truncated inside the binary", TRUNCATE, AT_MID_BINARY, 1},
    {"short of its last byte", TRUNCATE, AT_LAST, 1},
    {"one byte longer", APPEND_BYTE, AT_ZERO, 1},
    {"a bit flipped in the magic", FLIP_BIT, AT_IN_MAGIC, 1},
    {"a bit flipped in the key length", FLIP_BIT, AT_KEY_LEN_FIELD, 1},
    {"a bit flipped in the binary length", FLIP_BIT, AT_BIN_LEN_FIELD, 1},
    {"a bit flipped in the checksum", FLIP_BIT, AT_CHECKSUM_FIELD, 1},
    {"a bit flipped in the key", FLIP_BIT, AT_MID_KEY, 1},
    {"a bit flipped in the binary's first byte", FLIP_BIT, AT_BINARY_FIRST, 1},
    {"a bit flipped in the middle of the binary", FLIP_BIT, AT_MID_BINARY, 1},
    {"a bit flipped in the last byte", FLIP_BIT, AT_LAST, 1},
    {"random bytes of the same length", RANDOM_BYTES, AT_ZERO, 1},
    {"another key's entry under its name", ROTATE, AT_ZERO, 1},
    {"a FIFO", FIFO, AT_ZERO, 1},
    {"a directory", DIRECTORY, AT_ZERO, 0},
    {"a symbolic link to itself", LINK_LOOP, AT_ZERO, 1},
    {"a dangling symbolic link", DANGLING_LINK, AT_ZERO, 1},
    {"a symbolic link to another key's entry", LINK_TO_OTHER, AT_ZERO, 1},
};

static void damage_one(const cache_fixture *f, size_t i, const damage *d)
{
    char *p = skt_cli_path_in(f->dir, f->entries.names[i]);
    const unsigned char *good = f->bytes[i];
    size_t len = f->lens[i], other = (i + 1) % f->entries.count;
    unsigned char *copy = skt_malloc(len + 1);
    memcpy(copy, good, len);
    size_t at = offset_of(d->at, good, len);
    cr_assert_lt(at, len, "%s: offset %zu outside the entry", d->name, at);
    skt_cli_remove_tree(p);
    switch (d->kind) {
    case TRUNCATE: skt_cli_write_file(p, copy, at); break;
    case APPEND_BYTE:
        copy[len] = 0;
        skt_cli_write_file(p, copy, len + 1);
        break;
    case FLIP_BIT:
        copy[at] ^= (unsigned char)(1u << skt_rand_below(8));
        skt_cli_write_file(p, copy, len);
        break;
    case RANDOM_BYTES:
        for (size_t k = 0; k < len; k++) copy[k] = (unsigned char)skt_rand();
        skt_cli_write_file(p, copy, len);
        break;
    case ROTATE: skt_cli_write_file(p, f->bytes[other], f->lens[other]); break;
    case FIFO: cr_assert_eq(mkfifo(p, 0644), 0, "mkfifo %s: %s", p, strerror(errno)); break;
    case DIRECTORY: cr_assert_eq(mkdir(p, 0755), 0); break;
    case LINK_LOOP: cr_assert_eq(symlink(f->entries.names[i], p), 0); break;
    case DANGLING_LINK: cr_assert_eq(symlink("no-such-entry.bin", p), 0); break;
    case LINK_TO_OTHER: {
        /* a good entry of another key, outside the directory's names */
        char *target = NULL;
        cr_assert_neq(asprintf(&target, "%s.other.%zu", f->dir, i), -1);
        skt_cli_write_file(target, f->bytes[other], f->lens[other]);
        cr_assert_eq(symlink(target, p), 0);
        free(target);
        break;
    }
    }
    free(copy);
    free(p);
}

static void remove_link_targets(const cache_fixture *f)
{
    for (size_t i = 0; i < f->entries.count; i++) {
        char *target = NULL;
        cr_assert_neq(asprintf(&target, "%s.other.%zu", f->dir, i), -1);
        unlink(target);
        free(target);
    }
}

/* Damages every entry, runs every family (right answers), checks that all
 * entries were rebuilt and logged, that nothing else was left in the
 * directory and that the next context loads them all from disk. */
static void check_damage(const cache_fixture *f, const damage *d)
{
    size_t entries = f->entries.count;
    for (size_t i = 0; i < entries; i++) damage_one(f, i, d);

    setenv("SCANKIT_LOG", "1", 1);
    captured cap = capture_stderr();
    sk_build_stats s = run_families();
    char *log = release_stderr(&cap);
    unsetenv("SCANKIT_LOG");
    cr_assert_eq(s.from_disk, 0, "%s: %lu damaged entries loaded", d->name,
                 (unsigned long)s.from_disk);
    cr_assert_eq(s.compiled, entries, "%s: %lu programs compiled, %zu entries damaged",
                 d->name, (unsigned long)s.compiled, entries);
    size_t ignored = count_occurrences(log, "program cache: ignored");
    cr_assert_eq(ignored, d->kind == DANGLING_LINK ? 0 : entries,
                 "%s: %zu 'ignored' lines logged for %zu entries:\n%s", d->name, ignored,
                 entries, log);
    cr_assert_eq(count_occurrences(log, "program cache: wrote"), d->replaceable ? entries : 0,
                 "%s: rewritten entries as logged:\n%s", d->name, log);
    free(log);
    remove_link_targets(f);

    listing after = list_dir(f->dir);
    expect_same_listing(&f->entries, &after, d->name);
    listing_free(&after);

    sk_build_stats again = run_families();
    if (d->replaceable) {
        cr_assert_eq(again.compiled, 0, "%s: the rewritten entries were not used (%lu compiled)",
                     d->name, (unsigned long)again.compiled);
        cr_assert_eq(again.from_disk, entries, "%s: %lu of %zu entries loaded after rewriting",
                     d->name, (unsigned long)again.from_disk, entries);
    } else {
        cr_assert_eq(again.compiled, entries, "%s: %lu compiled on the next run", d->name,
                     (unsigned long)again.compiled);
    }
    fixture_restore(f);
}

Test(cache_damage, every_kind_of_damaged_entry_is_rebuilt_for_every_program_family)
{
    cache_fixture f = fixture_open();
    for (size_t k = 0; k < sizeof DAMAGES / sizeof DAMAGES[0]; k++) {
        cr_log_info("damage: %s", DAMAGES[k].name);
        check_damage(&f, &DAMAGES[k]);
    }
    fixture_close(&f);
}

/* Scans that differ only in the element type have entries of their own;
 * with every file holding another one's entry (each moved one name on),
 * both must still give the right answers: the key inside an entry
 * decides, not its name. */
Test(cache_damage, swapped_entries_give_the_right_answer)
{
    char *dir = skt_cli_make_tmpdir("skt-cache");
    setenv("SCANKIT_CACHE_DIR", dir, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    run_scan_of(c, SK_UINT32);
    run_scan_of(c, SK_UINT64);
    sk_context_free(c);
    listing l = list_dir(dir);
    cr_assert_geq(l.count, 2, "%zu entries for two scans", l.count);
    unsigned char **bytes = skt_malloc(l.count * sizeof *bytes);
    size_t *lens = skt_malloc(l.count * sizeof *lens);
    for (size_t i = 0; i < l.count; i++) {
        char *p = skt_cli_path_in(dir, l.names[i]);
        bytes[i] = skt_cli_slurp(p, &lens[i]);
        free(p);
    }
    for (size_t i = 0; i < l.count; i++) {
        char *p = skt_cli_path_in(dir, l.names[i]);
        size_t from = (i + 1) % l.count;
        skt_cli_write_file(p, bytes[from], lens[from]);
        free(p);
    }

    c = skt_ctx_new_disk_cache();
    run_scan_of(c, SK_UINT64);
    run_scan_of(c, SK_UINT32);
    sk_build_stats s = stats_of(c);
    sk_context_free(c);
    cr_assert_eq(s.from_disk, 0, "a swapped entry was loaded");
    cr_assert_eq(s.compiled, l.count);
    for (size_t i = 0; i < l.count; i++) free(bytes[i]);
    free(bytes);
    free(lens);
    listing_free(&l);
    skt_cli_remove_tree(dir);
    free(dir);
}

/* ---- what the cache keeps (moved from the runtime tests) ---------------------------- */

Test(cache, identical_calls_should_build_once_per_context)
{
    char *dir = skt_cli_make_tmpdir("skt-cache");
    setenv("SCANKIT_CACHE_DIR", dir, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    sk_build_stats s0 = stats_of(c);
    cr_assert_eq(s0.compiled, 0);
    cr_assert_eq(s0.from_disk, 0);
    cr_assert_eq(s0.from_memory, 0);

    run_scan(c);
    sk_build_stats s1 = stats_of(c);
    cr_assert_geq(s1.compiled, 1, "nothing compiled for the first scan (fresh cache dir)");
    cr_assert_eq(s1.from_disk, 0, "loaded from an empty cache directory");
    cr_assert_gt(s1.seconds, 0.0);

    run_scan(c);
    sk_build_stats s2 = stats_of(c);
    cr_assert_eq(s2.compiled, s1.compiled, "the second identical scan compiled again");
    cr_assert_eq(s2.from_disk, s1.from_disk);
    cr_assert_gt(s2.from_memory, s1.from_memory, "the second scan did not use the memory cache");

    /* Another type is another program. */
    run_scan_of(c, SK_INT64);
    sk_build_stats s3 = stats_of(c);
    cr_assert_gt(s3.compiled, s2.compiled, "int64 reused uint32's program");
    listing l = list_dir(dir);
    cr_assert_eq(l.count, (size_t)s3.compiled, "%zu cache files for %lu programs", l.count,
                 (unsigned long)s3.compiled);
    listing_free(&l);
    sk_context_free(c);
    skt_cli_remove_tree(dir);
    free(dir);
}

/* A configuration that failed to build fails again in its context with
 * the same log, nothing written, and is not compiled again (no build
 * time; a compile would log a temporary file of another name); another
 * one is compiled; the context computes afterwards. */
Test(cache, a_failed_build_should_fail_again_without_compiling)
{
    sk_context *c = skt_ctx_new(NULL);
    const uint32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t out[8];
    size_t count = 12345;
    skt_poison(out, sizeof out);
    cr_assert_eq(sk_select_if_host(c, SK_UINT32, "x +* (", in, out, &count, 8), SK_E_BUILD);
    char *first = strdup(sk_context_build_log(c));
    cr_assert(first && first[0], "no build log");
    sk_build_stats s1 = stats_of(c);
    cr_assert_gt(s1.seconds, 0.0, "the failed build took no time");

    cr_assert_eq(sk_select_if_host(c, SK_UINT32, "x <> 1", in, out, &count, 8), SK_E_BUILD);
    sk_build_stats s2 = stats_of(c);
    cr_assert_gt(s2.seconds, s1.seconds, "another bad predicate was not compiled");
    cr_assert_str_neq(sk_context_build_log(c), first, "another failure, the same log");

    cr_assert_eq(sk_select_if_host(c, SK_UINT32, "x +* (", in, out, &count, 8), SK_E_BUILD);
    sk_build_stats s3 = stats_of(c);
    cr_assert_eq(s3.seconds, s2.seconds, "the failed configuration was compiled again");
    cr_assert_eq(s3.compiled, s2.compiled);
    cr_assert_str_eq(sk_context_build_log(c), first, "not the first failure's log");
    cr_assert_eq(count, (size_t)12345, "a failed call wrote the count");
    cr_assert_eq(skt_find_unpoisoned(out, sizeof out), (size_t)-1, "a failed call wrote");
    run_compact(c);
    free(first);
    sk_context_free(c);
}

Test(cache, a_second_context_should_load_programs_from_disk)
{
    char *dir = skt_cli_make_tmpdir("skt-cache");
    setenv("SCANKIT_CACHE_DIR", dir, 1);
    sk_build_stats s1 = run_families();
    cr_assert_geq(s1.compiled, FAMILY_COUNT);

    sk_build_stats s2 = run_families();
    cr_assert_eq(s2.compiled, 0, "the second context compiled instead of loading from disk");
    cr_assert_eq(s2.from_disk, s1.compiled, "the second context did not load every program");

    /* A different, empty directory: compiled again. */
    char *dir2 = skt_cli_make_tmpdir("skt-cache");
    setenv("SCANKIT_CACHE_DIR", dir2, 1);
    sk_build_stats s3 = run_families();
    cr_assert_eq(s3.compiled, s1.compiled);
    cr_assert_eq(s3.from_disk, 0);
    skt_cli_remove_tree(dir);
    skt_cli_remove_tree(dir2);
    free(dir);
    free(dir2);
}

/* A custom operator per call: the context keeps at most SK_PARAM_PROGRAM_CACHE
 * programs, releasing the least recently used (loaded from disk again when
 * needed), and the ones in use stay. */
static sk_build_stats scan_custom(sk_context *c, unsigned k)
{
    char combine[64];
    snprintf(combine, sizeof combine, "a + b + %uu * 0u", k); /* a distinct program, a + b */
    const sk_monoid m = {"uint", 4, "0u", combine, NULL};
    uint32_t in[100], out[100];
    for (unsigned i = 0; i < 100; i++) in[i] = i;
    CTX_OK(c, sk_scan_inclusive_monoid_host(c, &m, in, out, 100));
    cr_assert_eq(out[99], 4950, "custom scan %u gave %u", k, out[99]);
    return stats_of(c);
}

Test(cache, the_programs_in_memory_stay_within_the_bound_least_recent_released_first)
{
    char *dir = skt_cli_make_tmpdir("skt-cache");
    setenv("SCANKIT_CACHE_DIR", dir, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    long v = -1;
    cr_assert_eq(sk_context_get_param(c, SK_PARAM_PROGRAM_CACHE, &v), SK_OK);
    cr_assert_eq(v, 0, "the bound does not start automatic");
    cr_assert_eq(sk_context_set_param(c, SK_PARAM_PROGRAM_CACHE, 15), SK_E_INVALID_ARG);
    cr_assert_eq(sk_context_set_param(c, SK_PARAM_PROGRAM_CACHE, 65537), SK_E_INVALID_ARG);
    CTX_OK(c, sk_context_set_param(c, SK_PARAM_PROGRAM_CACHE, 16));
    const unsigned programs = 20;
    for (unsigned k = 0; k < programs; k++) scan_custom(c, k);
    sk_build_stats before = stats_of(c);
    cr_assert_eq(before.compiled, programs, "%lu programs compiled for %u operators",
                 (unsigned long)before.compiled, programs);

    sk_build_stats s = scan_custom(c, programs - 1); /* the most recent: in memory */
    cr_assert_eq(s.from_memory, before.from_memory + 1, "the newest program was released");
    s = scan_custom(c, 0);                            /* the oldest: released, from disk */
    cr_assert_eq(s.from_disk, before.from_disk + 1, "the oldest program was kept in memory");
    cr_assert_eq(s.compiled, before.compiled);
    sk_context_free(c);
    skt_cli_remove_tree(dir);
    free(dir);
}
