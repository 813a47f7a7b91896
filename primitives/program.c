/*
 * program.c - building kernel programs from the embedded sources, with an
 * in-memory cache per context and an on-disk cache of program binaries.
 *
 * A program is the generated configuration text (#define lines, typedefs)
 * followed by the embedded source of one kernel family. A disk cache entry
 * is named by a hash of its key (both texts, the build options, the device
 * name, device version, driver version and platform name) and holds that
 * key in full with a checksum, so a driver update, another device or a
 * damaged or misplaced file never yields a binary built for something else.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include "sk_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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
    if (xdg && xdg[0] == '/') sk__str_addf(&s, "%s/scankit", xdg);   /* relative: ignored */
    else if (home && home[0] == '/') sk__str_addf(&s, "%s/.cache/scankit", home);
    else return NULL;
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir(path, 0700), an existing directory counting as success. */
static int make_dir(const char *path)
{
    if (mkdir(path, 0700) == 0) return 0;
    if (errno == EEXIST && is_directory(path)) return 0;
    if (errno == EEXIST) errno = ENOTDIR;
    return -1;
}

int sk__make_cache_dir(const char *dir)
{
    if (make_dir(dir) == 0) return 0;
    if (errno != ENOENT) return -1;
    char *parent = strdup(dir);
    if (!parent) return -1;
    char *slash = strrchr(parent, '/');
    while (slash && slash > parent && slash[1] == '\0') { /* "a/b/" */
        *slash = '\0';
        slash = strrchr(parent, '/');
    }
    int rc = -1;
    if (slash && slash > parent) {
        *slash = '\0';
        rc = make_dir(parent);
    }
    free(parent);
    return rc == 0 ? make_dir(dir) : -1;
}

/* ---- disk cache entries --------------------------------------------------------------
 *
 * An entry is one file, "<dir>/<source>-<32 hex digits>.bin", the digits a
 * hash of its key. The file does not trust its name: it holds
 *
 *   magic     8 bytes, "SKPCACH1"
 *   key_len   8 bytes, little-endian
 *   bin_len   8 bytes, little-endian
 *   checksum  8 bytes, little-endian: entry_checksum() of both lengths, the
 *             key and the binary
 *   key       key_len bytes: everything the binary was built from (the
 *             kernel source whole, the configuration, the build options,
 *             platform, device, device and driver versions)
 *   binary    bin_len bytes: what clGetProgramInfo(CL_PROGRAM_BINARIES) gave
 *
 * A loaded entry is used only when it is a regular file of exactly that
 * size, its checksum holds and its key is the one wanted byte for byte;
 * anything else (a short or damaged file, another key's entry under this
 * name, a FIFO, a directory, a link loop, a binary the driver refuses) is
 * logged, ignored and replaced by a fresh build. So no unchecked bytes
 * reach clCreateProgramWithBinary, whose implementations may crash on them. */

static const char entry_magic[8] = {'S', 'K', 'P', 'C', 'A', 'C', 'H', '1'};
enum { ENTRY_HEADER_BYTES = 32 };

/* Larger than any real program binary: an entry claiming more is damaged. */
#define ENTRY_MAX_BYTES ((uint64_t)1 << 32)

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

static uint64_t load_le64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

static void store_le64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
}

/* A 64-bit checksum, 8 bytes a step. Every step is a bijection of the
 * state for a given input word, so any change confined to one word always
 * changes the result; other damage goes unnoticed with probability 2^-64. */
static uint64_t checksum_add(uint64_t h, const unsigned char *p, size_t n)
{
    unsigned char tail[8] = {0};
    for (size_t i = 0; i < n; i += 8) {
        const unsigned char *w = p + i;
        if (n - i < 8) {
            memcpy(tail, p + i, n - i);
            w = tail;
        }
        h = (h ^ load_le64(w)) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return (h ^ n) * 0xbf58476d1ce4e5b9ull;
}

static uint64_t entry_checksum(const unsigned char *key, size_t key_len,
                               const unsigned char *bin, size_t bin_len)
{
    unsigned char lens[16];
    store_le64(lens, key_len);
    store_le64(lens + 8, bin_len);
    uint64_t h = checksum_add(0x2545f4914f6cdd1dull, lens, sizeof lens);
    h = checksum_add(h, key, key_len);
    return checksum_add(h, bin, bin_len);
}

/* The entry's key: everything its binary depends on, in full. */
static char *entry_key(const sk_context *ctx, const sk__embedded_source *src, const char *config)
{
    sk__str s = {0};
    sk__str_addf(&s, "scankit program cache entry\nsource %s\nbuild options %s\n"
                     "platform %s\ndevice %s\ndevice version %s\ndriver version %s\n"
                     "configuration %zu bytes\n%s\nsource text %zu bytes\n",
                 src->name, build_options, ctx->desc.platform_name, ctx->desc.device_name,
                 ctx->desc.device_version, ctx->desc.driver_version, strlen(config), config,
                 src->len);
    if (!s.failed) {
        /* the source may hold '%' and NUL-free text of any length */
        sk__str_addf(&s, "%s", src->text);
    }
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

/* "<dir>/<source>-<32 hex digits>.bin" for a key, malloc'd; NULL when the
 * cache is off. */
static char *entry_path(const sk_context *ctx, const sk__embedded_source *src, const char *key)
{
    if (!ctx->cache_dir || !key) return NULL;
    uint64_t a = fnv1a(0xcbf29ce484222325ull, key, strlen(key));
    uint64_t b = fnv1a(0x84222325cbf29ce4ull, key, strlen(key));
    sk__str s = {0};
    sk__str_addf(&s, "%s/%s-%016llx%016llx.bin", ctx->cache_dir, src->name,
                 (unsigned long long)a, (unsigned long long)b);
    if (s.failed) {
        sk__str_free(&s);
        return NULL;
    }
    return s.buf;
}

/* Reads exactly len bytes; false on a short read or an error. */
static bool read_exactly(int fd, unsigned char *buf, size_t len)
{
    while (len > 0) {
        ssize_t got = read(fd, buf, len > (1u << 30) ? (1u << 30) : len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        buf += got;
        len -= (size_t)got;
    }
    return true;
}

/* The binary stored under `key` at `path`, malloc'd, or NULL with *why
 * saying what was wrong (NULL *why: there is no entry). Never blocks: a
 * FIFO or device is opened non-blocking and refused by fstat. */
static unsigned char *entry_read(const char *path, const char *key, size_t *bin_len,
                                 const char **why)
{
    *why = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno != ENOENT) *why = strerror(errno);
        return NULL;
    }
    struct stat st;
    unsigned char head[ENTRY_HEADER_BYTES];
    unsigned char *data = NULL;
    size_t key_len = strlen(key);
    uint64_t klen = 0, blen = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) *why = "not a regular file";
    else if (!read_exactly(fd, head, sizeof head)) *why = "shorter than its header";
    else if (memcmp(head, entry_magic, sizeof entry_magic) != 0) *why = "not a cache entry";
    else if ((klen = load_le64(head + 8)) != key_len) *why = "another key's entry";
    else if ((blen = load_le64(head + 16)) == 0 || blen > ENTRY_MAX_BYTES)
        *why = "damaged (impossible length)";
    else if ((uint64_t)st.st_size != ENTRY_HEADER_BYTES + klen + blen)
        *why = "damaged (wrong size)";
    else if (!(data = malloc(key_len + (size_t)blen))) *why = "out of memory";
    else if (!read_exactly(fd, data, key_len + (size_t)blen)) *why = "damaged (short read)";
    else if (entry_checksum(data, key_len, data + key_len, (size_t)blen) !=
             load_le64(head + 24))
        *why = "damaged (checksum)";
    else if (memcmp(data, key, key_len) != 0) *why = "another key's entry";
    close(fd);
    if (*why) {
        free(data);
        return NULL;
    }
    memmove(data, data + key_len, (size_t)blen);
    *bin_len = (size_t)blen;
    return data;
}

static bool write_all(int fd, const unsigned char *p, size_t len)
{
    while (len > 0) {
        ssize_t put = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        p += put;
        len -= (size_t)put;
    }
    return true;
}

/* An unnamed file in `dir` where the file system has O_TMPFILE and /proc
 * can name it later (nothing is left behind if the process dies before
 * that), else "<path>.XXXXXX" whose name is then in *tmp (malloc'd). -1 on
 * failure. */
static int temp_open(const char *dir, const char *path, char **tmp)
{
    *tmp = NULL;
    int fd = -1;
#ifdef O_TMPFILE
    if (access("/proc/self/fd", X_OK) == 0) {
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0) return fd;
    }
#else
    (void)dir;
#endif
    sk__str s = {0};
    sk__str_addf(&s, "%s.XXXXXX", path);
    if (s.failed) return -1;
    fd = mkstemp(s.buf);
    if (fd < 0) {
        sk__str_free(&s);
        return -1;
    }
    if (fchmod(fd, 0644) != 0) { /* mkstemp's 0600; the entry is not secret */ }
    *tmp = s.buf;
    return fd;
}

/* Gives the written file `fd` (named *tmp, or unnamed) the name `path`,
 * replacing what was there, in one rename. */
static bool temp_commit(int fd, const char *tmp, const char *path)
{
    if (tmp) return rename(tmp, path) == 0;
    char proc[64], named[4096];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    for (int attempt = 0; attempt < 8; attempt++) {
        /* a unique hidden name beside `path`, then the rename */
        int len = snprintf(named, sizeof named, "%s.%ld.%d.link", path, (long)getpid(),
                           attempt);
        if (len < 0 || (size_t)len >= sizeof named) return false;
        if (linkat(AT_FDCWD, proc, AT_FDCWD, named, AT_SYMLINK_FOLLOW) == 0) {
            if (rename(named, path) == 0) return true;
            unlink(named);
            return false;
        }
        if (errno != EEXIST) return false;
    }
    return false;
}

/* Writes an entry atomically; a failure only loses the entry (logged). */
static void entry_write(const sk_context *ctx, const char *path, const char *key,
                        const unsigned char *bin, size_t bin_len)
{
    if (sk__make_cache_dir(ctx->cache_dir) != 0) {
        sk__log(ctx, "program cache: cannot create %s: %s", ctx->cache_dir, strerror(errno));
        return;
    }
    size_t key_len = strlen(key);
    unsigned char head[ENTRY_HEADER_BYTES];
    memcpy(head, entry_magic, sizeof entry_magic);
    store_le64(head + 8, key_len);
    store_le64(head + 16, bin_len);
    store_le64(head + 24, entry_checksum((const unsigned char *)key, key_len, bin, bin_len));
    char *tmp = NULL;
    int fd = temp_open(ctx->cache_dir, path, &tmp);
    bool ok = fd >= 0 && write_all(fd, head, sizeof head) &&
              write_all(fd, (const unsigned char *)key, key_len) && write_all(fd, bin, bin_len);
    ok = ok && temp_commit(fd, tmp, path);
    int err = errno;
    if (fd >= 0) close(fd);
    if (!ok && tmp) unlink(tmp);
    if (ok) sk__log(ctx, "program cache: wrote %s", path);
    else sk__log(ctx, "program cache: could not write %s: %s", path, strerror(err));
    free(tmp);
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

static sk_status compile_source(sk_context *ctx, const sk__embedded_source *src, const char *config,
                                cl_program *out)
{
    const char *parts[2] = {config, src->text};
    size_t lens[2] = {strlen(config), src->len};
    cl_int rc = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx->context, 2, parts, lens, &rc);
    if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clCreateProgramWithSource");
    rc = build_on_large_stack(ctx, p);
    if (rc != CL_SUCCESS) {
        keep_build_log(ctx, p);
        clReleaseProgram(p);
        if (rc == CL_BUILD_PROGRAM_FAILURE) {
            const char *reason = first_error_line(ctx->build_log ? ctx->build_log : "");
            return sk__fail(ctx, SK_E_BUILD, "building %s.cl failed: %.*s", src->name,
                            (int)strcspn(reason, "\n"), reason);
        }
        return sk__fail_cl(ctx, rc, "clBuildProgram");
    }
    *out = p;
    return SK_OK;
}

static bool load_binary(sk_context *ctx, const char *path, const char *key, cl_program *out)
{
    size_t len = 0;
    const char *why = NULL;
    unsigned char *bin = entry_read(path, key, &len, &why);
    if (!bin) {
        if (why) sk__log(ctx, "program cache: ignored %s: %s", path, why);
        return false;
    }
    cl_int rc = CL_SUCCESS, bin_rc = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program p = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &len, bins,
                                             &bin_rc, &rc);
    free(bin);
    if (rc == CL_SUCCESS && bin_rc == CL_SUCCESS)
        rc = clBuildProgram(p, 1, &ctx->device, build_options, NULL, NULL);
    if (rc != CL_SUCCESS || bin_rc != CL_SUCCESS) {
        sk__log(ctx, "program cache: ignored %s: the driver refused its binary (%s)", path,
                sk_cl_error_name(rc != CL_SUCCESS ? rc : bin_rc));
        if (p) clReleaseProgram(p);
        return false;
    }
    *out = p;
    return true;
}

static void save_binary(sk_context *ctx, const char *path, const char *key, cl_program p)
{
    size_t len = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    unsigned char *bin = malloc(len);
    if (!bin) return;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        entry_write(ctx, path, key, bin, len);
    free(bin);
}

static sk_status build_program(sk_context *ctx, const sk__embedded_source *src, const char *config,
                               cl_program *out)
{
    double t0 = now_seconds();
    char *key = ctx->cache_dir ? entry_key(ctx, src, config) : NULL;
    char *path = entry_path(ctx, src, key);
    sk_status st = SK_OK;
    if (path && load_binary(ctx, path, key, out)) {
        ctx->build_stats.from_disk++;
        sk__log(ctx, "program cache: loaded %s", path);
    } else {
        st = compile_source(ctx, src, config, out);
        if (st == SK_OK) {
            ctx->build_stats.compiled++;
            if (path) save_binary(ctx, path, key, *out);
        }
    }
    free(path);
    free(key);
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
