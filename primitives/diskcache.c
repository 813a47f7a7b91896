/*
 * diskcache.c - the on-disk program cache: where it lives, and its entries,
 * which are checked before anything of theirs is used.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include "sk_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- cache directory ---------------------------------------------------------- */

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

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
    else if (home && home[0] == '/' && is_directory(home))
        sk__str_addf(&s, "%s/.cache/scankit", home);
    else return NULL;
    return sk__str_take(&s);
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
static char *entry_key(const sk_context *ctx, const sk__embedded_source *src, const char *config,
                       const char *build_options)
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
    return sk__str_take(&s);
}

/* "<dir>/<source>-<32 hex digits>.bin" for a key, malloc'd. */
static char *entry_path(const sk_context *ctx, const sk__embedded_source *src, const char *key)
{
    uint64_t a = fnv1a(0xcbf29ce484222325ull, key, strlen(key));
    uint64_t b = fnv1a(0x84222325cbf29ce4ull, key, strlen(key));
    sk__str s = {0};
    sk__str_addf(&s, "%s/%s-%016llx%016llx.bin", ctx->cache_dir, src->name,
                 (unsigned long long)a, (unsigned long long)b);
    return sk__str_take(&s);
}

/* Moves exactly len bytes between fd and memory, in calls of at most 1 GiB
 * (interrupted ones tried again): read into `in`, or (in NULL) written from
 * `out`. False on an error, or on the end of the file before len bytes. */
static bool transfer_all(int fd, unsigned char *in, const unsigned char *out, size_t len)
{
    for (size_t done = 0; done < len;) {
        size_t piece = len - done > (1u << 30) ? (1u << 30) : len - done;
        ssize_t moved = in ? read(fd, in + done, piece) : write(fd, out + done, piece);
        if (moved < 0 && errno == EINTR) continue;
        if (moved <= 0) return false;
        done += (size_t)moved;
    }
    return true;
}

/* Reads exactly len bytes; false on a short read or an error. */
static bool read_exactly(int fd, unsigned char *buf, size_t len)
{
    return transfer_all(fd, buf, NULL, len);
}

/* The binary stored under `key` at `path`, malloc'd, or NULL with *why
 * saying what was wrong (NULL *why: there is no entry). Never blocks: a
 * FIFO or device is opened non-blocking and refused by fstat. */
static unsigned char *entry_read_checked(const char *path, const char *key, size_t *bin_len,
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

/* ---- the entries of one program ----------------------------------------------------- */

bool sk__disk_entry_open(const sk_context *ctx, const sk__embedded_source *src,
                         const char *config, const char *build_options, sk__disk_entry *e)
{
    e->key = e->path = NULL;
    if (!ctx->cache_dir) return false;
    e->key = entry_key(ctx, src, config, build_options);
    e->path = e->key ? entry_path(ctx, src, e->key) : NULL;
    if (e->path) return true;
    sk__disk_entry_close(e);
    return false;
}

void sk__disk_entry_close(sk__disk_entry *e)
{
    free(e->key);
    free(e->path);
    e->key = e->path = NULL;
}

unsigned char *sk__disk_entry_read(const sk_context *ctx, const sk__disk_entry *e, size_t *len)
{
    const char *why = NULL;
    unsigned char *bin = entry_read_checked(e->path, e->key, len, &why);
    if (!bin && why) sk__log(ctx, "program cache: ignored %s: %s", e->path, why);
    return bin;
}

/* Writes all len bytes; false on an error. */
static bool write_all(int fd, const unsigned char *p, size_t len)
{
    return transfer_all(fd, NULL, p, len);
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

void sk__disk_entry_write(const sk_context *ctx, const sk__disk_entry *e,
                          const unsigned char *bin, size_t bin_len)
{
    const char *path = e->path, *key = e->key;
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
