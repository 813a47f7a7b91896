/*
 * program.c - building kernel programs from the embedded sources, with an
 * in-memory cache per context and an on-disk cache of program binaries.
 *
 * A program is the generated configuration text (#define lines, typedefs)
 * followed by the embedded source of one kernel family. The disk cache key
 * hashes both with the device name, device version, driver version and
 * platform name, so a driver update or another device never reuses a
 * binary built for something else.
 */
#define _POSIX_C_SOURCE 200809L
#include "sk_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const sk__embedded_source *find_source(const char *name)
{
    for (size_t i = 0; i < sk__source_count; i++)
        if (strcmp(sk__sources[i].name, name) == 0) return &sk__sources[i];
    return NULL;
}

const char *sk__source_text(const char *name)
{
    const sk__embedded_source *src = find_source(name);
    return src ? src->text : NULL;
}

static const char build_options[] = "-cl-std=CL1.2";

/* ---- timing --------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- cache directory ---------------------------------------------------------- */

char *sk__default_cache_dir(void)
{
    const char *dir = getenv("SCANKIT_CACHE_DIR");
    if (dir) {
        if (!*dir || strcmp(dir, "off") == 0) return NULL;
        return strdup(dir);
    }
    sk__str s = {0};
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg) sk__str_addf(&s, "%s/scankit", xdg);
    else if (home && *home) sk__str_addf(&s, "%s/.cache/scankit", home);
    else return NULL;
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static int mkdir_p(const char *path)
{
    char *p = strdup(path);
    if (!p) return -1;
    for (char *q = p + 1; *q; q++) {
        if (*q != '/') continue;
        *q = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *q = '/';
    }
    int rc = (mkdir(p, 0755) != 0 && errno != EEXIST) ? -1 : 0;
    free(p);
    return rc;
}

/* ---- disk cache key ----------------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    /* separator so that ("ab","c") and ("a","bc") differ */
    h ^= 0xff;
    h *= 0x100000001b3ull;
    return h;
}

static uint64_t key_hash(const sk_context *ctx, const sk__embedded_source *src, const char *config,
                         uint64_t seed)
{
    uint64_t h = seed;
    h = fnv1a(h, src->name, strlen(src->name));
    h = fnv1a(h, src->text, src->len);
    h = fnv1a(h, config, strlen(config));
    h = fnv1a(h, build_options, strlen(build_options));
    h = fnv1a(h, ctx->desc.platform_name, strlen(ctx->desc.platform_name));
    h = fnv1a(h, ctx->desc.device_name, strlen(ctx->desc.device_name));
    h = fnv1a(h, ctx->desc.device_version, strlen(ctx->desc.device_version));
    h = fnv1a(h, ctx->desc.driver_version, strlen(ctx->desc.driver_version));
    return h;
}

/* "<dir>/<source>-<32 hex digits>.bin", malloc'd; NULL when the cache is off. */
static char *disk_path(const sk_context *ctx, const sk__embedded_source *src, const char *config)
{
    if (!ctx->cache_dir) return NULL;
    uint64_t a = key_hash(ctx, src, config, 0xcbf29ce484222325ull);
    uint64_t b = key_hash(ctx, src, config, 0x84222325cbf29ce4ull);
    sk__str s = {0};
    sk__str_addf(&s, "%s/%s-%016llx%016llx.bin", ctx->cache_dir, src->name,
                 (unsigned long long)a, (unsigned long long)b);
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)size);
        if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    *len = buf ? (size_t)size : 0;
    return buf;
}

/* Writes atomically (temp file + rename); a failure only loses the cache entry. */
static void write_file(const sk_context *ctx, const char *path, const unsigned char *data,
                       size_t len)
{
    if (mkdir_p(ctx->cache_dir) != 0) return;
    sk__str tmp = {0};
    sk__str_addf(&tmp, "%s.%ld.tmp", path, (long)getpid());
    if (tmp.failed) return;
    FILE *f = fopen(tmp.buf, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp.buf, path) == 0) {
        sk__log(ctx, "program cache: wrote %s", path);
    } else {
        remove(tmp.buf);
    }
    sk__str_free(&tmp);
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

static sk_status compile_source(sk_context *ctx, const sk__embedded_source *src, const char *config,
                                cl_program *out)
{
    const char *parts[2] = {config, src->text};
    size_t lens[2] = {strlen(config), src->len};
    cl_int rc = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx->context, 2, parts, lens, &rc);
    if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clCreateProgramWithSource");
    rc = clBuildProgram(p, 1, &ctx->device, build_options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        keep_build_log(ctx, p);
        clReleaseProgram(p);
        if (rc == CL_BUILD_PROGRAM_FAILURE) {
            const char *log = ctx->build_log ? ctx->build_log : "";
            size_t first = strcspn(log, "\n");
            return sk__fail(ctx, SK_E_BUILD, "building %s.cl failed: %.*s",
                            src->name, (int)(first < 300 ? first : 300), log);
        }
        return sk__fail_cl(ctx, rc, "clBuildProgram");
    }
    *out = p;
    return SK_OK;
}

static bool load_binary(sk_context *ctx, const char *path, cl_program *out)
{
    size_t len = 0;
    unsigned char *bin = read_file(path, &len);
    if (!bin) return false;
    cl_int rc = CL_SUCCESS, bin_rc = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program p = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &len, bins,
                                             &bin_rc, &rc);
    free(bin);
    if (rc != CL_SUCCESS || bin_rc != CL_SUCCESS) {
        if (p) clReleaseProgram(p);
        return false;
    }
    if (clBuildProgram(p, 1, &ctx->device, build_options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return false;
    }
    *out = p;
    return true;
}

static void save_binary(sk_context *ctx, const char *path, cl_program p)
{
    size_t len = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    unsigned char *bin = malloc(len);
    if (!bin) return;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        write_file(ctx, path, bin, len);
    free(bin);
}

static sk_status build_program(sk_context *ctx, const sk__embedded_source *src, const char *config,
                               cl_program *out)
{
    double t0 = now_seconds();
    char *path = disk_path(ctx, src, config);
    sk_status st = SK_OK;
    if (path && load_binary(ctx, path, out)) {
        ctx->build_stats.from_disk++;
        sk__log(ctx, "program cache: loaded %s", path);
    } else {
        st = compile_source(ctx, src, config, out);
        if (st == SK_OK) {
            ctx->build_stats.compiled++;
            if (path) save_binary(ctx, path, *out);
        }
    }
    free(path);
    ctx->build_stats.seconds += now_seconds() - t0;
    return st;
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
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
    return SK_OK;
}

sk_status sk__program_get(sk_context *ctx, const char *source_name, const char *config,
                          const char *const *kernel_names, unsigned kernel_count,
                          const sk__program **out)
{
    const sk__embedded_source *source = find_source(source_name);
    if (!source) return sk__fail(ctx, SK_E_INVALID_ARG, "no kernel source %s.cl", source_name);
    if (!ctx->kernel_defines) return program_get(ctx, source, config, kernel_names,
                                                 kernel_count, out);
    /* $SCANKIT_KERNEL_DEFINES goes first, so it is part of every cache key. */
    sk__str full = {0};
    sk__str_addf(&full, "%s\n%s", ctx->kernel_defines, config);
    sk_status st = full.failed ? sk__fail(ctx, SK_E_OUT_OF_MEMORY, "program configuration")
                               : program_get(ctx, source, full.buf, kernel_names,
                                             kernel_count, out);
    sk__str_free(&full);
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
