/*
 * program.c - building kernel programs from the embedded sources, with an
 * in-memory cache per context and an on-disk cache of program binaries
 * (diskcache.c).
 *
 * A program is the generated configuration text (#define lines, typedefs)
 * followed by the embedded source of one kernel family. A configuration
 * names the shared sources it takes by include lines (`#include
 * "scankit/block.cl"`), which the build replaces by their texts: the
 * in-memory cache compares configurations of a few KiB, not of every
 * source they take. A disk cache entry is named by a hash of its key (both
 * texts, the included sources' too, the build options, the device
 * name, device version, driver version and platform name) and holds that
 * key in full with a checksum, so a driver update, another device or a
 * damaged or misplaced file never yields a binary built for something else.
 */
#define _POSIX_C_SOURCE 200809L
#include "sk_internal.h"
#include "sk_testing.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const sk__embedded_source *find_source(const char *name)
{
    for (size_t i = 0; i < sk__source_count; i++)
        if (strcmp(sk__sources[i].name, name) == 0) return &sk__sources[i];
    return NULL;
}

const char *sk__source_text(const char *name)
{
    const sk__embedded_source *src = find_source(name);
    return src ? src->include : NULL;
}

void sk__str_add_source(sk__str *s, const char *name) { sk__str_add(s, sk__source_text(name)); }

/* The source whose include line starts at `line`, else NULL. */
static const sk__embedded_source *included_at(const char *line)
{
    static const char head[] = "#include \"scankit/";
    if (strncmp(line, head, sizeof head - 1) != 0) return NULL;
    for (size_t i = 0; i < sk__source_count; i++) {
        const char *inc = sk__sources[i].include;
        if (strncmp(line, inc, strlen(inc)) == 0) return &sk__sources[i];
    }
    return NULL;
}

/* config with every include line of an embedded source replaced by that
 * source's text and a newline (malloc'd; NULL when out of memory). */
static char *expand_config(const char *config)
{
    sk__str s = {0};
    const char *p = config;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
        const sk__embedded_source *src = included_at(p);
        if (src) {
            sk__str_add(&s, src->text);
            sk__str_add(&s, "\n");
        } else {
            sk__str_addf(&s, "%.*s", (int)len, p);
        }
        p += len;
    }
    if (!s.buf) sk__str_add(&s, "");
    return sk__str_take(&s);
}

void sk__config_blocks(sk__str *s, bool gpu, bool warps, const sk__tuning *lookback)
{
    if (warps) {
        sk__str_add(s, "#define SK_WARP_SHUFFLE 1\n");
        sk__str_add_source(s, "warp");
    }
    if (gpu) {
        sk__str_add_source(s, "block");
        sk__str_add_source(s, "tile");
    }
    if (lookback) {
        sk__str_addf(s, "#define SK_LB_SPIN_LIMIT %luu\n", lookback->lb_spin);
        sk__str_add_source(s, "lookback");
    }
}

void sk__config_function(sk__str *s, const char *signature, const char *expr)
{
    sk__str_addf(s, "%s\n{\n    return (\n%s\n);\n}\n", signature, expr);
}

static const char build_options[] = "-cl-std=CL1.2";

/* ---- timing --------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- building ------------------------------------------------------------------------ */

static void keep_build_log(sk_context *ctx, cl_program prog)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) !=
        CL_SUCCESS)
        len = 0;
    char *log = malloc(len + 1);
    if (!log) return;
    if (len == 0 || clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, len, log,
                                          NULL) != CL_SUCCESS)
        len = 0;
    log[len] = '\0';
    free(ctx->build_log);
    ctx->build_log = log;
}

/* The start of the build log's first line that reports an error (else of
 * its first line): the reason a build failed. */
static const char *first_error_line(const char *log)
{
    for (const char *line = log; *line; line += strcspn(line, "\n") + 1) {
        const char *error = strstr(line, "error");
        if (error && error < line + strcspn(line, "\n")) return line;
        if (!line[strcspn(line, "\n")]) break;
    }
    return log;
}

/* The compiler's stack: user code under SK_USER_CODE_MAX_BYTES nests at
 * most that deep (each level of an expression costs at least a byte), and
 * an OpenCL C compiler recurses over that nesting; the default 8 MiB of a
 * thread is not enough for it (64 KiB of "!!!...x" or of "x+1+1..."), this
 * is, with room to spare. Only the pages it touches are committed. */
#define COMPILER_STACK_BYTES ((size_t)1 << 30)

typedef struct build_job {
    cl_program program;
    cl_device_id device;
    cl_int rc;
} build_job;

static void *build_job_run(void *arg)
{
    build_job *job = arg;
    job->rc = clBuildProgram(job->program, 1, &job->device, build_options, NULL, NULL);
    return NULL;
}

/* clBuildProgram from source, on a thread of its own with a large stack
 * (the compiler runs in the calling thread on the implementations seen). */
static cl_int build_on_large_stack(sk_context *ctx, cl_program p)
{
    build_job job = {p, ctx->device, CL_BUILD_PROGRAM_FAILURE};
    pthread_attr_t attr;
    pthread_t thread;
    int err = pthread_attr_init(&attr);
    if (err == 0) {
        err = pthread_attr_setstacksize(&attr, COMPILER_STACK_BYTES);
        if (err == 0) err = pthread_create(&thread, &attr, build_job_run, &job);
        pthread_attr_destroy(&attr);
    }
    if (err != 0) {
        sk__log(ctx, "no thread for the compiler: %s", strerror(err));
        return CL_OUT_OF_HOST_MEMORY;
    }
    pthread_join(thread, NULL);
    return job.rc;
}

/* SK_E_BUILD for src, its reason the first error line of the build log. */
static sk_status build_failed(sk_context *ctx, const sk__embedded_source *src)
{
    const char *reason = first_error_line(ctx->build_log ? ctx->build_log : "");
    return sk__fail(ctx, SK_E_BUILD, "building %s.cl failed: %.*s", src->name,
                    (int)strcspn(reason, "\n"), reason);
}

static void failed_build_clear(sk__failed_build *f)
{
    free(f->config);
    free(f->log);
    *f = (sk__failed_build){0};
}

/* Keeps (src, config) and the build log as a failed build, in place of
 * the oldest one kept; keeps nothing when out of memory. */
static void remember_failed_build(sk_context *ctx, const sk__embedded_source *src,
                                  const char *config)
{
    char *c = strdup(config), *log = strdup(ctx->build_log ? ctx->build_log : "");
    if (!c || !log) {
        free(c);
        free(log);
        return;
    }
    sk__failed_build *f = &ctx->failed_builds[ctx->failed_build_next];
    failed_build_clear(f);
    *f = (sk__failed_build){src, c, log};
    ctx->failed_build_next = (ctx->failed_build_next + 1) % SK_FAILED_BUILDS_KEPT;
}

static const sk__failed_build *failed_build_of(const sk_context *ctx,
                                               const sk__embedded_source *src,
                                               const char *config)
{
    for (unsigned i = 0; i < SK_FAILED_BUILDS_KEPT; i++) {
        const sk__failed_build *f = &ctx->failed_builds[i];
        if (f->config && f->source == src && strcmp(f->config, config) == 0) return f;
    }
    return NULL;
}

/* The failure f again, without compiling: its build log back in the
 * context, SK_E_BUILD. */
static sk_status fail_again(sk_context *ctx, const sk__embedded_source *src,
                            const sk__failed_build *f)
{
    char *log = strdup(f->log);
    if (!log) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "build log");
    free(ctx->build_log);
    ctx->build_log = log;
    sk__log(ctx, "%s.cl: this configuration failed to build before; not compiled again",
            src->name);
    return build_failed(ctx, src);
}

static void failed_builds_free(sk_context *ctx)
{
    for (unsigned i = 0; i < SK_FAILED_BUILDS_KEPT; i++) failed_build_clear(&ctx->failed_builds[i]);
    ctx->failed_build_next = 0;
}

/* Compiles `text` (config with its includes expanded) and src; a failure
 * is remembered under config. */
static sk_status compile_source(sk_context *ctx, const sk__embedded_source *src, const char *config,
                                const char *text, cl_program *out)
{
    const char *parts[2] = {text, src->text};
    size_t lens[2] = {strlen(text), src->len};
    cl_int rc = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx->context, 2, parts, lens, &rc);
    if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clCreateProgramWithSource");
    rc = build_on_large_stack(ctx, p);
    if (rc != CL_SUCCESS) {
        keep_build_log(ctx, p);
        clReleaseProgram(p);
        if (rc == CL_BUILD_PROGRAM_FAILURE) {
            remember_failed_build(ctx, src, config);
            return build_failed(ctx, src);
        }
        return sk__fail_cl(ctx, rc, "clBuildProgram");
    }
    *out = p;
    return SK_OK;
}

static bool load_binary(sk_context *ctx, const sk__disk_entry *e, cl_program *out)
{
    size_t len = 0;
    unsigned char *bin = sk__disk_entry_read(ctx, e, &len);
    if (!bin) return false;
    cl_int rc = CL_SUCCESS, bin_rc = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program p = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &len, bins,
                                             &bin_rc, &rc);
    free(bin);
    if (rc == CL_SUCCESS && bin_rc == CL_SUCCESS)
        rc = clBuildProgram(p, 1, &ctx->device, build_options, NULL, NULL);
    if (rc != CL_SUCCESS || bin_rc != CL_SUCCESS) {
        sk__log(ctx, "program cache: ignored %s: the driver refused its binary (%s)", e->path,
                sk_cl_error_name(rc != CL_SUCCESS ? rc : bin_rc));
        if (p) clReleaseProgram(p);
        return false;
    }
    *out = p;
    return true;
}

static void save_binary(sk_context *ctx, const sk__disk_entry *e, cl_program p)
{
    size_t len = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    unsigned char *bin = malloc(len);
    if (!bin) return;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        sk__disk_entry_write(ctx, e, bin, len);
    free(bin);
}

static sk_status build_program(sk_context *ctx, const sk__embedded_source *src, const char *config,
                               cl_program *out)
{
    const sk__failed_build *failed = failed_build_of(ctx, src, config);
    if (failed) return fail_again(ctx, src, failed);
    double t0 = now_seconds();
    char *text = expand_config(config);
    if (!text) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "program configuration");
    sk__disk_entry entry;
    bool cached = sk__disk_entry_open(ctx, src, text, build_options, &entry);
    sk_status st = SK_OK;
    if (cached && load_binary(ctx, &entry, out)) {
        ctx->build_stats.from_disk++;
        sk__log(ctx, "program cache: loaded %s", entry.path);
    } else {
        st = compile_source(ctx, src, config, text, out);
        if (st == SK_OK) {
            ctx->build_stats.compiled++;
            if (cached) save_binary(ctx, &entry, *out);
        }
    }
    sk__disk_entry_close(&entry);
    free(text);
    ctx->build_stats.seconds += now_seconds() - t0;
    return st;
}

sk_status sk__check_user_code(sk_context *ctx, const char *what, const char *text)
{
    size_t len = text ? strnlen(text, (size_t)SK_USER_CODE_MAX_BYTES + 1) : 0;
    if (len <= SK_USER_CODE_MAX_BYTES) return SK_OK;
    return sk__fail(ctx, SK_E_INVALID_ARG, "the %s is longer than %d bytes "
                    "(SK_USER_CODE_MAX_BYTES)", what, SK_USER_CODE_MAX_BYTES);
}

/* ---- the in-memory cache ------------------------------------------------------------------ */

static void program_free(sk__program *p)
{
    if (!p) return;
    for (unsigned i = 0; i < p->kernel_count; i++)
        if (p->kernels[i]) clReleaseKernel(p->kernels[i]);
    if (p->program) clReleaseProgram(p->program);
    free(p->config);
    free(p);
}

void sk__program_cache_free(sk_context *ctx)
{
    sk__program *p = ctx->programs;
    while (p) {
        sk__program *next = p->next;
        program_free(p);
        p = next;
    }
    ctx->programs = NULL;
    ctx->program_count = 0;
    failed_builds_free(ctx);
}

/* Unlinks and frees the least recently used program. */
static void evict_least_recent(sk_context *ctx)
{
    sk__program **victim = &ctx->programs;
    for (sk__program **p = &ctx->programs; *p; p = &(*p)->next)
        if ((*p)->used < (*victim)->used) victim = p;
    sk__program *gone = *victim;
    *victim = gone->next;
    program_free(gone);
    ctx->program_count--;
}

void sk__program_cache_trim(sk_context *ctx)
{
    size_t bound = ctx->program_cache_param ? (size_t)ctx->program_cache_param
                                            : SK_PROGRAM_CACHE_DEFAULT;
    while (ctx->program_count > bound) evict_least_recent(ctx);
}

static bool same_kernels(const sk__program *p, const char *const *names, unsigned count)
{
    if (p->kernel_count != count) return false;
    for (unsigned i = 0; i < count; i++)
        if (strcmp(p->kernel_names[i], names[i]) != 0) return false;
    return true;
}

static sk_status create_kernels(sk_context *ctx, sk__program *p,
                                const char *const *names, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        cl_int rc = CL_SUCCESS;
        p->kernel_names[i] = names[i];
        p->kernels[i] = clCreateKernel(p->program, names[i], &rc);
        p->kernel_count = i + 1;
        if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clCreateKernel");
        rc = clGetKernelInfo(p->kernels[i], CL_KERNEL_NUM_ARGS, sizeof p->arg_counts[i],
                             &p->arg_counts[i], NULL);
        if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clGetKernelInfo");
    }
    return SK_OK;
}

/* Finds or builds the program of (source, config) as the context sees it. */
static sk_status program_get(sk_context *ctx, const sk__embedded_source *source,
                             const char *config, const char *const *kernel_names,
                             unsigned kernel_count, const sk__program **out)
{
    for (sk__program *p = ctx->programs; p; p = p->next) {
        if (p->source == source && strcmp(p->config, config) == 0 &&
            same_kernels(p, kernel_names, kernel_count)) {
            ctx->build_stats.from_memory++;
            p->used = ++ctx->program_clock;
            *out = p;
            return SK_OK;
        }
    }
    if (kernel_count > SK_MAX_KERNELS) return sk__fail(ctx, SK_E_INVALID_ARG, "too many kernels");
    sk__program *p = calloc(1, sizeof *p);
    if (!p) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "program cache entry");
    p->source = source;
    p->config = strdup(config);
    sk_status st = p->config ? SK_OK : SK_E_OUT_OF_MEMORY;
    if (st == SK_OK) st = build_program(ctx, source, config, &p->program);
    if (st == SK_OK) st = create_kernels(ctx, p, kernel_names, kernel_count);
    if (st != SK_OK) {
        program_free(p);
        return st;
    }
    p->used = ++ctx->program_clock;
    p->next = ctx->programs;
    ctx->programs = p;
    ctx->program_count++;
    sk__program_cache_trim(ctx); /* never p, the most recent of them */
    *out = p;
    return SK_OK;
}

sk_status sk__program_get(sk_context *ctx, const char *source_name, const char *config,
                          const char *const *kernel_names, unsigned kernel_count,
                          const sk__program **out)
{
    const sk__embedded_source *source = find_source(source_name);
    if (!source) return sk__fail(ctx, SK_E_INVALID_ARG, "no kernel source %s.cl", source_name);
    if (!ctx->kernel_defines && !ctx->test_hooks)
        return program_get(ctx, source, config, kernel_names, kernel_count, out);
    /* Test hooks and $SCANKIT_KERNEL_DEFINES go first, so they are part of
     * every cache key. */
    sk__str full = {0};
    sk__test_hook_defines(ctx->test_hooks, &full);
    if (ctx->kernel_defines) sk__str_addf(&full, "%s\n", ctx->kernel_defines);
    sk__str_addf(&full, "%s", config);
    sk_status st = full.failed ? sk__fail(ctx, SK_E_OUT_OF_MEMORY, "program configuration")
                               : program_get(ctx, source, full.buf, kernel_names,
                                             kernel_count, out);
    sk__str_free(&full);
    return st;
}

sk_status sk__program_take(sk_context *ctx, const char *source, char *config,
                           const char *const *kernel_names, unsigned kernel_count,
                           const sk__program **out)
{
    if (!config) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "%s configuration", source);
    sk_status st = sk__program_get(ctx, source, config, kernel_names, kernel_count, out);
    free(config);
    return st;
}

sk_status sk__program_get_warps(sk_context *ctx, const char *source, size_t gpu_wg_size,
                                sk__config_fn make, const void *user,
                                const char *const *kernel_names, unsigned kernel_count,
                                const sk__program **out)
{
    bool warps = ctx->nv_warps && gpu_wg_size && gpu_wg_size % 32 == 0;
    sk_status st = SK_E_BUILD;
    for (int attempt = warps ? 0 : 1; attempt < 2 && st == SK_E_BUILD; attempt++) {
        char *config = make(user, attempt == 0);
        if (!config) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "%s configuration", source);
        st = sk__program_get(ctx, source, config, kernel_names, kernel_count, out);
        free(config);
    }
    return st;
}
