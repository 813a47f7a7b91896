/*
 * test_runtime_trace.c - the runtime layer's parameters, tracing and
 * profiling: tuning parameters and SCANKIT_SHAPE, the trace callback and
 * SCANKIT_TRACE, profiling, and a library that prints nothing unless asked
 * (names: test_runtime_names.c; devices and contexts:
 * test_runtime_context.c; the program cache: test_cache.c).
 */
#define _GNU_SOURCE /* mkdtemp, setenv */
#include <ctype.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skt_common.h"

/* After criterion.h: redirect.h pulls in internal/assert.h, which must come
 * after criterion/assert.h. */
#include <criterion/redirect.h>

TestSuite(params, .init = skt_setup, .fini = skt_ctx_close, .timeout = 120);
TestSuite(trace, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);
TestSuite(profile, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 120);

/* ---- helpers ------------------------------------------------------------------ */

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
/* ---- parameters ------------------------------------------------------------------------ */

static void open_param_ctx(void)
{
    unsetenv("SCANKIT_SHAPE");
    skt_ctx = skt_ctx_new(NULL);
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
    {
        const long good[] = {1, 4096, 1L << 22, LONG_MAX, 0};
        const long bad[] = {-1, LONG_MIN};
        expect_param_values(SK_PARAM_GPU_SORT_SKIP_FROM, "GPU_SORT_SKIP_FROM", good, 5, bad, 2);
    }
    {
        const long good[] = {1, 4096, 1L << 18, LONG_MAX, 0};
        const long bad[] = {-1, LONG_MIN};
        expect_param_values(SK_PARAM_CPU_SORT_BUCKET_BYTES, "CPU_SORT_BUCKET_BYTES", good, 5,
                            bad, 2);
    }
    {
        const long good[] = {1, 4, 64, 0};
        const long bad[] = {-1, 65, LONG_MAX};
        expect_param_values(SK_PARAM_MERGE_RUNS_ROUNDS, "MERGE_RUNS_ROUNDS", good, 4, bad, 3);
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
    sk_device_desc d = SK_DEVICE_DESC_INIT;
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
    skt_check_small_scan(c, 200003, SK_OP_ADD);
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
    sk_context *g = skt_ctx_new(NULL);
    long v = 0;
    SKT_EXPECT_STATUS(sk_context_get_param(g, SK_PARAM_SHAPE, &v), SK_OK);
    cr_assert_eq(v, SK_SHAPE_GPU, "SCANKIT_SHAPE=gpu gave shape %ld", v);
    launch_set *lg = launches_of_scan(g);
    sk_context_free(g);

    setenv("SCANKIT_SHAPE", "cpu", 1);
    sk_context *c = skt_ctx_new(NULL);
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
    sk_context *c = skt_ctx_new(NULL);
    unsetenv("SCANKIT_TRACE");
    SKT_OK(sk_context_set_param(c, SK_PARAM_PROFILE, 1));
    skt_check_small_scan(c, 77777, SK_OP_ADD);
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
    skt_check_small_scan(skt_ctx, 5003, SK_OP_ADD);
    skt_check_small_scan(skt_ctx, 5003, SK_OP_ADD);
    skt_force_shape(SK_SHAPE_GPU);
    skt_check_small_scan(skt_ctx, 5003, SK_OP_MUL);
    cl_mem s = skt_buf_new(64);
    unsigned char res[8];
    sk_scan_inclusive(skt_ctx, (sk_type)99, SK_OP_ADD, s, s, 4);
    sk_scan_inclusive(NULL, SK_UINT32, SK_OP_ADD, s, s, 4);
    sk_reduce(skt_ctx, SK_FLOAT32, SK_OP_XOR, s, res, 4);
    sk_scan_inclusive(skt_ctx, SK_UINT32, SK_OP_ADD, s, s, 1000);
    sk_context *c = NULL;
    sk_context_create(&c, "no-such-device-xyz", NULL, 0);
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
    skt_check_small_scan(skt_ctx, 77777, SK_OP_ADD);
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

static void log_stderr_init(void)
{
    setenv("SCANKIT_LOG", "1", 1);
    cr_redirect_stderr();
    skt_ctx_open();
    unsetenv("SCANKIT_LOG");
}

TestSuite(log_env, .init = log_stderr_init, .fini = skt_ctx_close, .timeout = 120);

/* With profiling on, SCANKIT_LOG=1 makes sk_context_profile_take log
 * every launch it read, once each, in launch order, each start no later
 * than its end. */
Test(log_env, scankit_log_1_should_log_each_profiled_launch_once_in_order)
{
    skt_set_param(SK_PARAM_PROFILE, 1);
    skt_check_small_scan(skt_ctx, 77777, SK_OP_ADD);
    skt_check_small_scan(skt_ctx, 5003, SK_OP_MAX);
    unsigned long launches = 0;
    double secs = 0;
    SKT_OK(sk_context_profile_take(skt_ctx, &secs, &launches));
    fflush(stderr);
    FILE *f = cr_get_redirected_stderr();
    cr_assert_not_null(f);
    cr_assert_gt(launches, 1, "two scans: %lu launches", launches);
    char *line = NULL;
    size_t cap = 0;
    unsigned long next = 1;
    while (getline(&line, &cap, f) != -1) {
        unsigned long i = 0, of = 0;
        double start = 0, end = 0, took = 0;
        const char *p = strstr(line, "profile: launch ");
        if (!p) continue;
        int got = sscanf(p, "profile: launch %lu of %lu: %lf .. %lf us (%lf us)", &i, &of,
                         &start, &end, &took);
        cr_assert_eq(got, 5, "unreadable line: %s", line);
        cr_assert_eq(i, next, "launch %lu logged where %lu was due", i, next);
        cr_assert_eq(of, launches, "%lu launches in the line, %lu taken", of, launches);
        cr_assert(start >= 0 && start <= end, "launch %lu: %f .. %f us", i, start, end);
        next++;
    }
    free(line);
    cr_assert_eq(next - 1, launches, "%lu launches logged, %lu taken", next - 1, launches);
}
