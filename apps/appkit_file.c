/*
 * appkit_file.c - element files: reading raw and .npy files whole, and
 * writing outputs through a temporary file that is put into place at the
 * end: an unnamed one (O_TMPFILE) linked there, or, where the filesystem
 * has no O_TMPFILE, a named one renamed there.
 *
 * The .npy format (NumPy NEP 1): the magic "\x93NUMPY", a major and minor
 * version byte, the header length (2 bytes little-endian in version 1.0,
 * 4 bytes in 2.0 and 3.0), then the header, a Python dict literal such as
 * {'descr': '<u4', 'fortran_order': False, 'shape': (10,), } padded with
 * spaces and ending in '\n', then the data.
 */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH */

#include "appkit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_MAX_HEADER ((uint32_t)1 << 20)
#define IO_CHUNK ((size_t)64 << 20)
#define WRITEBACK_BYTES ((uint64_t)64 << 20) /* see start_writeback() */
#define PROGRESS_CHUNK ((size_t)1 << 20) /* reads while a progress line may show */

/* ------------------------------------------------------------------------ */
/* Names and formats                                                         */
/* ------------------------------------------------------------------------ */

int ak_path_is_stdio(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

const char *ak_display_name(const char *path, int is_output)
{
    if (!path || ak_path_is_stdio(path))
        return is_output ? "stdout" : "stdin";
    return path;
}

int ak_format_parse(const char *name, ak_format *out)
{
    if (strcmp(name, "raw") == 0)
        *out = AK_FORMAT_RAW;
    else if (strcmp(name, "npy") == 0)
        *out = AK_FORMAT_NPY;
    else
        return -1;
    return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

ak_format ak_format_of_path(const char *path)
{
    if (path && !ak_path_is_stdio(path) && has_suffix(path, ".npy"))
        return AK_FORMAT_NPY;
    return AK_FORMAT_RAW;
}

/* ------------------------------------------------------------------------ */
/* Reading bytes                                                             */
/* ------------------------------------------------------------------------ */

/* The most to read at once: less while progress may show, so that a slow
 * input (a pipe) counts as it comes. */
static size_t read_step(const ak_progress *p)
{
    return ak_progress_on(p) ? PROGRESS_CHUNK : IO_CHUNK;
}

/* Reads exactly `len` bytes unless the file ends; *got says how many came.
 * @return -1 only on a read error. */
static int read_fully(FILE *fp, void *buf, size_t len, size_t *got, ak_progress *p)
{
    size_t done = 0, step = read_step(p);
    while (done < len) {
        size_t want = len - done < step ? len - done : step;
        size_t k = fread((char *)buf + done, 1, want, fp);
        done += k;
        ak_progress_add(p, k);
        if (k < want)
            break;
    }
    *got = done;
    return ferror(fp) ? -1 : 0;
}

static int fail_read(ak_err *e, const char *name)
{
    return ak_fail(e, "%s: read failed: %s", name, strerror(errno ? errno : EIO));
}

/* A stream of unknown length: `prefix` then everything up to end of file,
 * into a new buffer *buf of *len bytes. */
static int read_to_end(FILE *fp, const char *name, const unsigned char *prefix,
                       size_t prefix_len, unsigned char **buf, size_t *len, ak_progress *p,
                       ak_err *e)
{
    size_t step = read_step(p);
    size_t cap = (size_t)1 << 16;
    unsigned char *b = malloc(cap);
    if (!b)
        return ak_fail(e, "%s: out of memory", name);
    memcpy(b, prefix, prefix_len);
    size_t used = prefix_len;
    for (;;) {
        if (used == cap) {
            size_t grown = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
            unsigned char *nb = grown > cap ? realloc(b, grown) : NULL;
            if (!nb) {
                free(b);
                return ak_fail(e, "%s: out of memory after %zu bytes", name, used);
            }
            b = nb;
            cap = grown;
        }
        size_t want = cap - used < step ? cap - used : step;
        size_t k = fread(b + used, 1, want, fp);
        used += k;
        ak_progress_add(p, k);
        if (k == 0 || ferror(fp))
            break;
    }
    if (ferror(fp)) {
        free(b);
        return fail_read(e, name);
    }
    *buf = b;
    *len = used;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* .npy header parsing                                                       */
/* ------------------------------------------------------------------------ */

typedef struct npy_header {
    char descr[32];
    int descr_is_string;
    int fortran_order;
    int has_descr, has_order, has_shape;
    int ndim;
    uint64_t dims[8];
} npy_header;

typedef struct dict_cursor {
    const char *p;
    const char *end;
} dict_cursor;

static void skip_space(dict_cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int accept_char(dict_cursor *c, char ch)
{
    skip_space(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

static int parse_string(dict_cursor *c, char *out, size_t cap)
{
    skip_space(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return -1;
    char quote = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != quote) {
        if (n + 1 < cap)
            out[n++] = *c->p;
        c->p++;
    }
    if (c->p >= c->end)
        return -1;
    c->p++;
    out[n] = '\0';
    return 0;
}

static int accept_word(dict_cursor *c, const char *word)
{
    skip_space(c);
    size_t k = strlen(word);
    if ((size_t)(c->end - c->p) >= k && strncmp(c->p, word, k) == 0) {
        c->p += k;
        return 1;
    }
    return 0;
}

static int parse_uint(dict_cursor *c, uint64_t *out)
{
    skip_space(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return -1;
    uint64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p++ - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (c->p < c->end && *c->p == 'L') /* Python 2 long literals */
        c->p++;
    *out = v;
    return 0;
}

static int parse_shape(dict_cursor *c, npy_header *h)
{
    if (!accept_char(c, '('))
        return -1;
    h->ndim = 0;
    while (!accept_char(c, ')')) {
        uint64_t d;
        if (h->ndim == 8 || parse_uint(c, &d) != 0)
            return -1;
        h->dims[h->ndim++] = d;
        if (!accept_char(c, ',')) {
            if (!accept_char(c, ')'))
                return -1;
            break;
        }
    }
    return 0;
}

/* Skips a bracketed value such as a structured dtype's list of fields. */
static int skip_list(dict_cursor *c)
{
    if (!accept_char(c, '['))
        return -1;
    int depth = 1;
    while (c->p < c->end && depth > 0) {
        char ch = *c->p;
        if (ch == '\'' || ch == '"') {
            char ignored[256];
            if (parse_string(c, ignored, sizeof ignored) != 0)
                return -1;
            continue;
        }
        depth += (ch == '[' || ch == '(') - (ch == ']' || ch == ')');
        c->p++;
    }
    return depth == 0 ? 0 : -1;
}

static int skip_unknown_value(dict_cursor *c)
{
    char text[256];
    npy_header scratch;
    if (parse_string(c, text, sizeof text) == 0)
        return 0;
    if (accept_word(c, "True") || accept_word(c, "False") || accept_word(c, "None"))
        return 0;
    if (skip_list(c) == 0)
        return 0;
    return parse_shape(c, &scratch);
}

static int parse_entry(dict_cursor *c, npy_header *h)
{
    char key[64];
    if (parse_string(c, key, sizeof key) != 0 || !accept_char(c, ':'))
        return -1;
    if (strcmp(key, "descr") == 0) {
        h->has_descr = 1;
        if (parse_string(c, h->descr, sizeof h->descr) == 0) {
            h->descr_is_string = 1;
            return 0;
        }
        return skip_list(c); /* a structured dtype: reported as unsupported */
    }
    if (strcmp(key, "fortran_order") == 0) {
        h->has_order = 1;
        if (accept_word(c, "True"))
            h->fortran_order = 1;
        else if (!accept_word(c, "False"))
            return -1;
        return 0;
    }
    if (strcmp(key, "shape") == 0) {
        h->has_shape = 1;
        return parse_shape(c, h);
    }
    return skip_unknown_value(c);
}

static int parse_dict(const char *text, size_t len, npy_header *h)
{
    dict_cursor c = {text, text + len};
    memset(h, 0, sizeof *h);
    if (!accept_char(&c, '{'))
        return -1;
    while (!accept_char(&c, '}')) {
        if (parse_entry(&c, h) != 0)
            return -1;
        if (!accept_char(&c, ',')) {
            if (!accept_char(&c, '}'))
                return -1;
            break;
        }
    }
    skip_space(&c);
    return c.p == c.end ? 0 : -1;
}

static int dtype_from_descr(const char *descr, ak_dtype *out)
{
    for (int t = 0; t < AK_DTYPE_COUNT; t++) {
        const char *d = ak_dtype_npy_descr((ak_dtype)t);
        if (strcmp(descr, d) == 0 || (d[0] == '|' && descr[0] == '<' &&
                                      strcmp(descr + 1, d + 1) == 0)) {
            *out = (ak_dtype)t;
            return 0;
        }
    }
    return -1;
}

static int is_big_endian_descr(const char *descr)
{
    ak_dtype t;
    char little[32];
    size_t len = strlen(descr);
    if (descr[0] != '>' || len >= sizeof little)
        return 0;
    memcpy(little, descr, len + 1);
    little[0] = '<';
    return dtype_from_descr(little, &t) == 0 && ak_dtype_size(t) > 1;
}

static void format_shape(const npy_header *h, char *buf, size_t cap)
{
    size_t used = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < h->ndim && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, i ? ", %llu" : "%llu",
                                 (unsigned long long)h->dims[i]);
    if (used < cap)
        snprintf(buf + used, cap - used, h->ndim == 1 ? ",)" : ")");
}

/* Checks the parsed header and sets the element type and count. */
static int check_header(const npy_header *h, const char *name, ak_dtype *type,
                        uint64_t *n, ak_err *e)
{
    if (!h->has_descr || !h->has_order || !h->has_shape)
        return ak_fail(e, "%s: malformed .npy header (needs descr, fortran_order and shape)",
                       name);
    if (!h->descr_is_string)
        return ak_fail(e, "%s: unsupported .npy dtype (structured)", name);
    if (is_big_endian_descr(h->descr))
        return ak_fail(e, "%s: big-endian .npy dtype '%s' is not supported", name, h->descr);
    if (dtype_from_descr(h->descr, type) != 0) {
        char known[4 * AK_DTYPE_COUNT + 1] = "";
        for (int t = 0; t < AK_DTYPE_COUNT; t++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", t ? " " : "",
                     ak_dtype_npy_descr((ak_dtype)t));
        return ak_fail(e, "%s: unsupported .npy dtype '%s' (use %s)", name, h->descr, known);
    }
    if (h->fortran_order)
        return ak_fail(e, "%s: .npy with fortran_order True is not supported", name);
    if (h->ndim != 1) {
        char shape[128];
        format_shape(h, shape, sizeof shape);
        return ak_fail(e, "%s: .npy shape %s is not 1-D", name, shape);
    }
    *n = h->dims[0];
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Reading an open input                                                     */
/* ------------------------------------------------------------------------ */

typedef struct input_file {
    FILE *fp;
    const char *name;
    ak_format format;  /* NPY, RAW, or AUTO: .npy when it starts with the magic */
    uint64_t size;     /* bytes from the start to the end, or AK_SIZE_UNKNOWN */
    uint64_t consumed; /* bytes read so far */
} input_file;

/* Reads up to `len` bytes (fewer only at the end of the input) and counts
 * them. @return -1 only on a read error. */
static int input_read(input_file *in, void *buf, size_t len, size_t *got, ak_progress *p)
{
    errno = 0;
    int rc = read_fully(in->fp, buf, len, got, p);
    in->consumed += *got;
    return rc;
}

static int fail_grew(ak_err *e, const char *name)
{
    return ak_fail(e, "%s: file grew while being read", name);
}

/* The bytes between what was read and the end the size promised. */
static int input_left(const input_file *in, uint64_t *left, ak_err *e)
{
    if (in->consumed > in->size)
        return fail_grew(e, in->name);
    *left = in->size - in->consumed;
    return 0;
}

/* After the promised size: the input must end here. */
static int expect_end(input_file *in, ak_err *e)
{
    errno = 0;
    int c = fgetc(in->fp);
    if (c != EOF)
        return fail_grew(e, in->name);
    return ferror(in->fp) ? fail_read(e, in->name) : 0;
}

/* ------------------------------------------------------------------------ */
/* .npy preamble                                                             */
/* ------------------------------------------------------------------------ */

static uint32_t le_u32(const unsigned char *b, size_t bytes)
{
    uint32_t v = 0;
    for (size_t i = bytes; i-- > 0;)
        v = (v << 8) | b[i];
    return v;
}

/* Reads the rest of a .npy preamble after the magic: version, header
 * length, header. Sets *type and *n. */
static int read_npy_header(input_file *in, ak_dtype *type, uint64_t *n, ak_err *e)
{
    const char *name = in->name;
    unsigned char ver[2], lenbuf[4];
    size_t got;
    if (input_read(in, ver, 2, &got, NULL) != 0)
        return fail_read(e, name);
    if (got < 2)
        return ak_fail(e, "%s: truncated .npy header", name);
    if (ver[0] < 1 || ver[0] > 3)
        return ak_fail(e, "%s: unsupported .npy version %u.%u", name, ver[0], ver[1]);
    size_t len_bytes = ver[0] == 1 ? 2 : 4;
    if (input_read(in, lenbuf, len_bytes, &got, NULL) != 0)
        return fail_read(e, name);
    if (got < len_bytes)
        return ak_fail(e, "%s: truncated .npy header", name);
    uint32_t hlen = le_u32(lenbuf, len_bytes);
    if (hlen > NPY_MAX_HEADER)
        return ak_fail(e, "%s: .npy header length %u is implausible", name, (unsigned)hlen);
    char *text = malloc(hlen + 1u);
    if (!text)
        return ak_fail(e, "%s: out of memory", name);
    int rc = input_read(in, text, hlen, &got, NULL);
    npy_header h;
    if (rc != 0)
        rc = fail_read(e, name);
    else if (got < hlen)
        rc = ak_fail(e, "%s: truncated .npy header", name);
    else if (parse_dict(text, hlen, &h) != 0)
        rc = ak_fail(e, "%s: malformed .npy header", name);
    else
        rc = check_header(&h, name, type, n, e);
    free(text);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Whole-file reading                                                        */
/* ------------------------------------------------------------------------ */

/* Bytes of data a header or a file size implies, with overflow checked. */
static int data_bytes(uint64_t n, ak_dtype type, size_t *bytes)
{
    size_t size = ak_dtype_size(type);
    if (n > SIZE_MAX / size)
        return -1;
    *bytes = (size_t)n * size;
    return 0;
}

static int check_data_length(const char *name, ak_format fmt, ak_dtype type,
                             uint64_t have, uint64_t n_header, ak_err *e)
{
    size_t size = ak_dtype_size(type);
    if (fmt == AK_FORMAT_RAW) {
        if (have % size != 0)
            return ak_fail(e, "%s: size %llu is not a multiple of %zu (%s)", name,
                           (unsigned long long)have, size, ak_dtype_name(type));
        return 0;
    }
    size_t want;
    if (data_bytes(n_header, type, &want) != 0)
        return ak_fail(e, "%s: .npy shape (%llu,) is too large", name,
                       (unsigned long long)n_header);
    if (have < want)
        return ak_fail(e, "%s: truncated .npy data: %llu bytes for %llu elements of %s",
                       name, (unsigned long long)have, (unsigned long long)n_header,
                       ak_dtype_name(type));
    if (have > want)
        return ak_fail(e, "%s: .npy data is %llu bytes longer than its shape says", name,
                       (unsigned long long)(have - want));
    return 0;
}

/* Data of an input of known size: `have` bytes (the prefix, then the rest),
 * read straight into a buffer of that size; the input must end there. */
static int read_data_known(input_file *in, const unsigned char *prefix, size_t prefix_len,
                           uint64_t have, ak_array *out, const ak_read_opts *opts, ak_err *e)
{
    if (have > SIZE_MAX)
        return ak_fail(e, "%s: too large for this machine", in->name);
    size_t bytes = (size_t)have;
    if (bytes == 0)
        return expect_end(in, e); /* no data: out->data stays NULL */
    void *data = malloc(bytes);
    if (!data)
        return ak_fail(e, "%s: cannot allocate %zu bytes", in->name, bytes);
    memcpy(data, prefix, prefix_len);
    ak_progress p;
    ak_progress_start(&p, opts->tool, "reading", bytes, opts->progress);
    size_t got;
    int rc = input_read(in, (char *)data + prefix_len, bytes - prefix_len, &got, &p);
    ak_progress_end(&p);
    if (rc != 0)
        rc = fail_read(e, in->name);
    else if (got != bytes - prefix_len)
        rc = ak_fail(e, "%s: file shrank while being read", in->name);
    else
        rc = expect_end(in, e);
    if (rc != 0) {
        free(data);
        return -1;
    }
    out->data = data;
    return 0;
}

/* Data of a pipe or terminal: read to the end, then check the length.
 * `expect` is the length a .npy header promises (0: not known). */
static int read_data_stream(input_file *in, const unsigned char *prefix, size_t prefix_len,
                            uint64_t expect, uint64_t *have, ak_array *out,
                            const ak_read_opts *opts, ak_err *e)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    ak_progress p;
    ak_progress_start(&p, opts->tool, "reading", expect, opts->progress);
    int rc = read_to_end(in->fp, in->name, prefix, prefix_len, &buf, &len, &p, e);
    ak_progress_end(&p);
    if (rc != 0)
        return -1;
    out->data = buf;
    *have = len;
    return 0;
}

static int resolve_type(const ak_read_opts *opts, ak_format fmt, ak_dtype header_type,
                        const char *name, ak_dtype *type, ak_err *e)
{
    if (fmt == AK_FORMAT_RAW) {
        *type = opts->type != AK_DTYPE_NONE ? opts->type : opts->raw_default;
        return 0;
    }
    if (opts->type != AK_DTYPE_NONE && opts->type != header_type)
        return ak_fail(e, "%s: --type %s disagrees with the .npy dtype '%s' (%s)", name,
                       ak_dtype_name(opts->type), ak_dtype_npy_descr(header_type),
                       ak_dtype_name(header_type));
    *type = header_type;
    return 0;
}

/* Decides the format, reads a .npy preamble if there is one, and returns
 * the bytes read while looking for the magic that belong to raw data. */
static int read_preamble(input_file *in, ak_format *fmt, ak_dtype *header_type,
                         uint64_t *n_header, unsigned char *prefix, size_t *prefix_len,
                         ak_err *e)
{
    *prefix_len = 0;
    *fmt = in->format == AK_FORMAT_NPY ? AK_FORMAT_NPY : AK_FORMAT_RAW;
    if (in->format == AK_FORMAT_RAW)
        return 0;
    size_t got;
    if (input_read(in, prefix, NPY_MAGIC_LEN, &got, NULL) != 0)
        return fail_read(e, in->name);
    int magic_ok = got == NPY_MAGIC_LEN && memcmp(prefix, NPY_MAGIC, NPY_MAGIC_LEN) == 0;
    if (!magic_ok && in->format == AK_FORMAT_NPY)
        return ak_fail(e, "%s: not a .npy file (bad magic)", in->name);
    if (!magic_ok) {
        *prefix_len = got; /* raw data */
        return 0;
    }
    *fmt = AK_FORMAT_NPY;
    return read_npy_header(in, header_type, n_header, e);
}

static int read_array(input_file *in, const ak_read_opts *opts, ak_array *out, ak_err *e)
{
    unsigned char prefix[NPY_MAGIC_LEN];
    size_t prefix_len;
    ak_dtype header_type = AK_DTYPE_NONE;
    uint64_t n_header = 0;
    if (read_preamble(in, &out->format, &header_type, &n_header, prefix, &prefix_len, e) != 0)
        return -1;
    if (resolve_type(opts, out->format, header_type, in->name, &out->type, e) != 0)
        return -1;
    uint64_t have;
    if (in->size != AK_SIZE_UNKNOWN) {
        uint64_t left = 0;
        if (input_left(in, &left, e) != 0)
            return -1;
        have = left + prefix_len;
        if (check_data_length(in->name, out->format, out->type, have, n_header, e) != 0)
            return -1;
        if (read_data_known(in, prefix, prefix_len, have, out, opts, e) != 0)
            return -1;
    } else {
        size_t expect = 0;
        if (out->format == AK_FORMAT_NPY && data_bytes(n_header, out->type, &expect) != 0)
            expect = 0; /* refused by check_data_length() below */
        if (read_data_stream(in, prefix, prefix_len, expect, &have, out, opts, e) != 0)
            return -1;
        if (check_data_length(in->name, out->format, out->type, have, n_header, e) != 0)
            return -1;
    }
    out->n = (size_t)(have / ak_dtype_size(out->type));
    return 0;
}

int ak_array_read_stream(const ak_source *src, const ak_read_opts *opts, ak_array *out,
                         ak_err *e)
{
    memset(out, 0, sizeof *out);
    out->type = AK_DTYPE_NONE;
    if (!ak_host_is_little_endian())
        return ak_fail(e, "big-endian hosts are not supported");
    input_file in = {src->fp, src->name, src->format, src->size, 0};
    int rc = read_array(&in, opts, out, e);
    if (rc != 0)
        ak_array_free(out);
    return rc;
}

/* Opens `path` ("-": stdin) and measures what is left of a regular file. */
static int open_source(const char *path, ak_source *src, ak_err *e)
{
    int is_stdin = ak_path_is_stdio(path);
    src->name = ak_display_name(path, 0);
    src->format = is_stdin ? AK_FORMAT_AUTO : ak_format_of_path(path);
    src->size = AK_SIZE_UNKNOWN;
    src->fp = is_stdin ? stdin : fopen(path, "rb");
    if (!src->fp)
        return ak_fail(e, "%s: cannot open: %s", src->name, strerror(errno));
    struct stat st;
    if (fstat(fileno(src->fp), &st) != 0)
        return ak_fail(e, "%s: cannot stat: %s", src->name, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return ak_fail(e, "%s: is a directory", src->name);
    if (S_ISREG(st.st_mode)) {
        off_t pos = ftello(src->fp);
        uint64_t start = pos > 0 ? (uint64_t)pos : 0;
        src->size = (uint64_t)st.st_size > start ? (uint64_t)st.st_size - start : 0;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Element files read as they go                                             */
/* ------------------------------------------------------------------------ */

int ak_data_open(const char *path, const ak_read_opts *opts, ak_data *d, ak_err *e)
{
    ak_source src = {NULL, NULL, AK_FORMAT_AUTO, AK_SIZE_UNKNOWN};
    memset(d, 0, sizeof *d);
    if (!ak_host_is_little_endian())
        return ak_fail(e, "big-endian hosts are not supported");
    int rc = open_source(path, &src, e);
    d->fp = src.fp;
    d->name = src.name;
    d->bytes = AK_SIZE_UNKNOWN;
    if (rc != 0) return -1;
    input_file in = {src.fp, src.name, src.format, src.size, 0};
    ak_dtype header_type = AK_DTYPE_NONE;
    if (read_preamble(&in, &d->format, &header_type, &d->npy_n, d->prefix, &d->prefix_len,
                      e) != 0 ||
        resolve_type(opts, d->format, header_type, d->name, &d->type, e) != 0)
        return -1;
    if (src.size == AK_SIZE_UNKNOWN) return 0;
    uint64_t left = 0;
    if (input_left(&in, &left, e) != 0) return -1;
    d->bytes = left + d->prefix_len;
    return check_data_length(d->name, d->format, d->type, d->bytes, d->npy_n, e);
}

int ak_data_check_end(const ak_data *d, uint64_t total, ak_err *e)
{
    if (d->bytes == AK_SIZE_UNKNOWN)
        return check_data_length(d->name, d->format, d->type, total, d->npy_n, e);
    if (total < d->bytes) return ak_fail(e, "%s: file shrank while being read", d->name);
    if (total > d->bytes) return fail_grew(e, d->name);
    return 0;
}

int ak_data_fail_read(const ak_data *d, ak_err *e)
{
    return fail_read(e, d->name);
}

void ak_data_close(ak_data *d)
{
    if (d->fp && d->fp != stdin) fclose(d->fp); /* read-only: nothing to lose */
    d->fp = NULL;
}

int ak_array_read(const char *path, const ak_read_opts *opts, ak_array *out, ak_err *e)
{
    ak_source src = {NULL, NULL, AK_FORMAT_AUTO, AK_SIZE_UNKNOWN};
    memset(out, 0, sizeof *out);
    out->type = AK_DTYPE_NONE;
    int rc = open_source(path, &src, e);
    if (rc == 0)
        rc = ak_array_read_stream(&src, opts, out, e);
    if (src.fp && src.fp != stdin)
        fclose(src.fp); /* read-only: nothing to lose */
    return rc;
}

void ak_array_free(ak_array *a)
{
    if (!a)
        return;
    free(a->data);
    a->data = NULL;
    a->n = 0;
}

/* ------------------------------------------------------------------------ */
/* .npy header writing                                                       */
/* ------------------------------------------------------------------------ */

size_t ak_npy_header(char *buf, size_t cap, ak_dtype type, size_t n)
{
    char dict[160];
    int dlen = snprintf(dict, sizeof dict,
                        "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }",
                        ak_dtype_npy_descr(type), (unsigned long long)n);
    if (dlen < 0 || (size_t)dlen >= sizeof dict)
        return 0;
    size_t unpadded = NPY_MAGIC_LEN + 2 + 2 + (size_t)dlen + 1;
    size_t total = (unpadded + 63) / 64 * 64;
    if (total > cap)
        return 0;
    size_t hlen = total - (NPY_MAGIC_LEN + 4);
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)(hlen & 0xff);
    buf[9] = (char)(hlen >> 8);
    memcpy(buf + 10, dict, (size_t)dlen);
    memset(buf + 10 + dlen, ' ', total - 10 - (size_t)dlen - 1);
    buf[total - 1] = '\n';
    return total;
}

/* ------------------------------------------------------------------------ */
/* Output paths                                                              */
/* ------------------------------------------------------------------------ */

char *ak_default_output_path(const char *input, const char *tool)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        dot = base + strlen(base);
    size_t head = (size_t)(dot - input);
    size_t len = strlen(input) + strlen(tool) + 2;
    char *out = malloc(len);
    if (!out)
        return NULL;
    snprintf(out, len, "%.*s.%s%s", (int)head, input, tool, dot);
    return out;
}

/* 1 when both name the same existing file; `a` may be "-" for stdin. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ok_a = ak_path_is_stdio(a) ? fstat(STDIN_FILENO, &sa) : stat(a, &sa);
    if (ok_a != 0 || stat(b, &sb) != 0)
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Refuses an output that would replace one of the program's inputs. */
static int check_not_an_input(const ak_output_choice *c, const char *chosen, ak_err *e)
{
    if (c->input && !c->in_place && same_file(c->input, chosen))
        return c->offers_in_place
                   ? ak_fail(e, "%s: is the input file; use --in-place to overwrite it", chosen)
                   : ak_fail(e, "%s: is the input file; write the output elsewhere", chosen);
    for (size_t i = 0; i < c->n_other_inputs; i++)
        if (c->other_inputs[i] && same_file(c->other_inputs[i], chosen))
            return ak_fail(e, "%s: is one of the input files; write the output elsewhere",
                           chosen);
    return 0;
}

int ak_output_resolve(const ak_output_choice *c, char **path, ak_err *e)
{
    *path = NULL;
    const char *chosen = NULL;
    char *owned = NULL;
    if (c->output)
        chosen = ak_path_is_stdio(c->output) ? NULL : c->output;
    else if (!c->input || ak_path_is_stdio(c->input))
        chosen = NULL;
    else if (c->in_place)
        chosen = c->input;
    else if (!(chosen = owned = ak_default_output_path(c->input, c->tool)))
        return ak_fail(e, "out of memory");
    if (!chosen)
        return 0;
    if (check_not_an_input(c, chosen, e) != 0) {
        free(owned);
        return -1;
    }
    *path = owned ? owned : dup_string(chosen);
    return *path ? 0 : ak_fail(e, "out of memory");
}

/* ------------------------------------------------------------------------ */
/* Removing temporary files on fatal signals                                  */
/* ------------------------------------------------------------------------ */

/*
 * An output's temporary file is unnamed (O_TMPFILE) where the filesystem
 * allows it: it has a name only between its link and its rename at the
 * commit. Elsewhere it is named (.NAME.XXXXXX) from ak_output_open() to the
 * commit. A signal of CLEANUP_SIGNALS removes every such name before the
 * program dies of that signal:
 *
 *   - the handler unlinks each armed name that is still the file it was
 *     armed with (same st_dev and st_ino), restores the signal's default
 *     action and raises it again, so the program ends as the signal ends it
 *     (a shell shows 128 + the signal: 141 for SIGPIPE, 143 for SIGTERM);
 *   - code that creates, names or removes a temporary file first blocks
 *     these signals in its thread and marks the list busy ("held"). A
 *     handler running on another thread (the OpenCL runtime has some) waits
 *     until the list is released; one that began first makes the holder
 *     wait for the end instead. So a handler never reads a half-made slot,
 *     and no name is made after it looked. A held section makes no call
 *     that could wait for a lock a handler's thread holds (no malloc, no
 *     stdio).
 *
 * The handler calls only async-signal-safe functions (lstat, unlink, poll,
 * sigaction, raise) and touches lock-free atomics. SIGKILL and SIGSTOP
 * cannot be caught; README says what SIGKILL can leave.
 */

#define CLEANUP_SLOTS 4

static const int CLEANUP_SIGNALS[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE, SIGALRM,   SIGTERM,
                                      SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};

typedef struct cleanup_slot {
    int armed;
    dev_t dev;
    ino_t ino;
    char path[PATH_MAX];
} cleanup_slot;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomics");

/* The only process-wide state here: what the handler must see. The slots
 * change only while the list is held. */
static cleanup_slot cleanup_slots[CLEANUP_SLOTS];
static atomic_int cleanup_busy;  /* a thread holds the list             */
static atomic_int cleanup_dying; /* a handler is removing the temporaries */

static void cleanup_signal_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < sizeof CLEANUP_SIGNALS / sizeof CLEANUP_SIGNALS[0]; i++)
        sigaddset(set, CLEANUP_SIGNALS[i]);
}

static void unlink_armed_temps(void)
{
    for (int i = 0; i < CLEANUP_SLOTS; i++) {
        const cleanup_slot *s = &cleanup_slots[i];
        struct stat st;
        if (s->armed && lstat(s->path, &st) == 0 && st.st_dev == s->dev && st.st_ino == s->ino)
            unlink(s->path);
    }
}

static void unlink_temps_and_die(int sig)
{
    atomic_store(&cleanup_dying, 1);
    while (atomic_load(&cleanup_busy))
        poll(NULL, 0, 1);
    unlink_armed_temps();
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* blocked until the handler returns, then fatal */
}

/* Installs the handler for each signal whose action is the default one (a
 * signal the caller ignores, e.g. SIGPIPE, stays ignored: a write then
 * fails with EPIPE and the program fails with one line). */
static void install_cleanup_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = unlink_temps_and_die;
    cleanup_signal_set(&sa.sa_mask);
    for (size_t i = 0; i < sizeof CLEANUP_SIGNALS / sizeof CLEANUP_SIGNALS[0]; i++) {
        struct sigaction old;
        if (sigaction(CLEANUP_SIGNALS[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            !(old.sa_flags & SA_SIGINFO))
            sigaction(CLEANUP_SIGNALS[i], &sa, NULL);
    }
}

void ak_output_signals_install(void)
{
    install_cleanup_handlers();
}

/* Blocks the cleanup signals in this thread and takes the list. When a
 * handler has begun, waits for the end it brings instead. */
static void cleanup_hold(sigset_t *saved)
{
    sigset_t set;
    cleanup_signal_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, saved);
    atomic_store(&cleanup_busy, 1);
    if (!atomic_load(&cleanup_dying))
        return;
    atomic_store(&cleanup_busy, 0);
    for (;;)
        pause();
}

/* Gives the list back; a signal that came meanwhile is handled now. */
static void cleanup_release(const sigset_t *saved)
{
    int err = errno;
    atomic_store(&cleanup_busy, 0);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
    errno = err;
}

/* Arms `path`, the file open as `fd` (the list held). */
static void cleanup_arm(const char *path, int fd)
{
    struct stat st;
    size_t len = strlen(path);
    if (len >= PATH_MAX || fstat(fd, &st) != 0)
        return;
    for (int i = 0; i < CLEANUP_SLOTS; i++) {
        cleanup_slot *s = &cleanup_slots[i];
        if (!s->armed) {
            memcpy(s->path, path, len + 1);
            s->dev = st.st_dev;
            s->ino = st.st_ino;
            s->armed = 1;
            return;
        }
    }
}

/* Disarms `path` (the list held). */
static void cleanup_disarm(const char *path)
{
    for (int i = 0; i < CLEANUP_SLOTS; i++)
        if (cleanup_slots[i].armed && strcmp(cleanup_slots[i].path, path) == 0)
            cleanup_slots[i].armed = 0;
}

/* ------------------------------------------------------------------------ */
/* Temporary files                                                           */
/* ------------------------------------------------------------------------ */

#define TMPFILE_SWITCH "SCANKIT_NO_TMPFILE"
#define TEMP_SUFFIX_LEN 6 /* the XXXXXX of ".NAME.XXXXXX" */

/* The temporary file's name: "<dir>/.<base>.XXXXXX". */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    size_t len = strlen(path) + 10;
    char *t = malloc(len);
    if (t)
        snprintf(t, len, "%.*s.%s.XXXXXX", (int)dir_len, path, base);
    return t;
}

static void directory_of(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(buf, cap, ".");
        return;
    }
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    snprintf(buf, cap, "%.*s", (int)len, path);
}

/* "/proc/self/fd/<fd>", the name through which linkat() can give an
 * unnamed file a name. */
static void proc_fd_path(int fd, char *buf, size_t cap)
{
    snprintf(buf, cap, "/proc/self/fd/%d", fd);
}

#ifdef O_TMPFILE
/* 1 when /proc/self/fd/<fd> reaches the file open as fd. */
static int proc_reaches(int fd)
{
    char link[64];
    struct stat by_fd, by_name;
    proc_fd_path(fd, link, sizeof link);
    return fstat(fd, &by_fd) == 0 && stat(link, &by_name) == 0 &&
           by_fd.st_dev == by_name.st_dev && by_fd.st_ino == by_name.st_ino;
}

/* An unnamed file in the directory of `path`, or -1 where O_TMPFILE is
 * missing (EOPNOTSUPP, EISDIR, EINVAL or ENOENT from kernels or
 * filesystems without it), /proc is not mounted, or SCANKIT_NO_TMPFILE=1
 * asks for the named file (a switch for the tests of that path). Any
 * other reason the named file's creation will report again. */
static int open_unnamed_temp(const char *path, mode_t mode)
{
    const char *off = getenv(TMPFILE_SWITCH);
    char dir[PATH_MAX];
    if ((off && strcmp(off, "1") == 0) || strlen(path) >= sizeof dir)
        return -1;
    directory_of(path, dir, sizeof dir);
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    if (fd >= 0 && !proc_reaches(fd)) {
        close(fd);
        fd = -1;
    }
    return fd;
}
#else
static int open_unnamed_temp(const char *path, mode_t mode)
{
    (void)path;
    (void)mode;
    return -1;
}
#endif

/* mkstemp() on the template, armed for the signal handler. */
static int open_named_temp(char *template)
{
    sigset_t saved;
    cleanup_hold(&saved);
    int fd = mkstemp(template);
    if (fd >= 0)
        cleanup_arm(template, fd);
    cleanup_release(&saved);
    return fd;
}

static void remove_named_temp(const char *path)
{
    sigset_t saved;
    cleanup_hold(&saved);
    unlink(path);
    cleanup_disarm(path);
    cleanup_release(&saved);
}

/* Gives the unnamed file open as fd (reached through `proc`, its
 * /proc/self/fd name) the name `name`; never replaces an existing file. */
static int link_unnamed(int fd, const char *proc, const char *name)
{
    if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
        return 0;
#ifdef AT_EMPTY_PATH
    int err = errno;
    if (err == ENOENT && linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
        return 0; /* /proc went away; allowed where the process may do this */
    errno = err;
#else
    (void)fd;
#endif
    return -1;
}

/* Replaces the template's last TEMP_SUFFIX_LEN characters with random
 * letters and digits. */
static void randomize_suffix(char *template, sk_rng *rng)
{
    static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char *x = template + strlen(template) - TEMP_SUFFIX_LEN;
    uint64_t bits = sk_rng_next(rng);
    for (int i = 0; i < TEMP_SUFFIX_LEN; i++, bits /= 62)
        x[i] = chars[bits % 62];
}

/* Gives the finished unnamed file `dest` as its name (the list held). A
 * link cannot replace a file: where `dest` exists (or a racing creator made
 * it), the file is linked under a hidden name beside it (`hidden`, a
 * template) and renamed over it; only that moment has a name to clean up,
 * and a handler waits while the list is held. */
static int name_unnamed(int fd, const char *proc, const char *dest, char *hidden, sk_rng *rng)
{
    if (link_unnamed(fd, proc, dest) == 0)
        return 0;
    if (errno != EEXIST)
        return -1;
    for (int tries = 0;; tries++) {
        randomize_suffix(hidden, rng);
        if (link_unnamed(fd, proc, hidden) == 0)
            break;
        if (errno != EEXIST || tries == 100)
            return -1;
    }
    if (rename(hidden, dest) == 0)
        return 0;
    int err = errno;
    unlink(hidden);
    errno = err;
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Writing outputs                                                           */
/* ------------------------------------------------------------------------ */

static const char *output_name(const ak_output *o)
{
    return o->path ? o->path : "stdout";
}

static int fail_write(ak_output *o, int err, ak_err *e)
{
    return ak_fail(e, "%s: write failed: %s", output_name(o), strerror(err ? err : EIO));
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return (mode_t)0666 & ~mask;
}

int ak_output_paths_collide(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    struct stat sa, sb;
    int a_exists = stat(a, &sa) == 0, b_exists = stat(b, &sb) == 0;
    if (a_exists || b_exists)
        return a_exists && b_exists && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char *base_a = strrchr(a, '/'), *base_b = strrchr(b, '/');
    if (strcmp(base_a ? base_a + 1 : a, base_b ? base_b + 1 : b) != 0)
        return 0;
    char dir_a[PATH_MAX], dir_b[PATH_MAX];
    directory_of(a, dir_a, sizeof dir_a);
    directory_of(b, dir_b, sizeof dir_b);
    return same_file(dir_a, dir_b);
}

/* The temporary file: unnamed where possible (and not `named`), else
 * named and armed. */
static int open_temp(ak_output *o, mode_t mode, int named, ak_err *e)
{
    o->tmp_path = temp_template(o->path);
    if (!o->tmp_path)
        return ak_fail(e, "out of memory");
    install_cleanup_handlers();
    int fd = named ? -1 : open_unnamed_temp(o->path, mode);
    o->unnamed = fd >= 0;
    if (fd < 0 && (fd = open_named_temp(o->tmp_path)) < 0) {
        int err = errno;
        char dir[PATH_MAX];
        directory_of(o->path, dir, sizeof dir);
        free(o->tmp_path);
        o->tmp_path = NULL;
        return ak_fail(e, "%s: cannot create a file in '%s': %s", o->path, dir, strerror(err));
    }
    if (fchmod(fd, mode) != 0 || !(o->fp = fdopen(fd, "wb"))) {
        ak_fail(e, "%s: cannot prepare the output: %s", o->path, strerror(errno));
        close(fd);
        return -1; /* the caller's ak_output_abort() removes a named file */
    }
    return 0;
}

/* The path a symbolic link names, relative links taken from the link's
 * directory; NULL when `path` is not a link or on failure. */
static char *link_target(const char *path)
{
    struct stat lst;
    char target[PATH_MAX];
    if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode))
        return NULL;
    ssize_t len = readlink(path, target, sizeof target - 1);
    if (len <= 0)
        return NULL;
    target[len] = '\0';
    const char *slash = strrchr(path, '/');
    size_t dir_len = (target[0] == '/' || !slash) ? 0 : (size_t)(slash - path) + 1;
    size_t cap = dir_len + (size_t)len + 1;
    char *out = malloc(cap);
    if (out)
        snprintf(out, cap, "%.*s%s", (int)dir_len, path, target);
    return out;
}

/* Follows symbolic links (dangling ones too, as a shell redirection does)
 * so that the rename replaces the file they name, not the link. */
static int final_destination(const char *path, char **out, ak_err *e)
{
    char *current = dup_string(path);
    for (int depth = 0; current && depth < 40; depth++) {
        char *next = link_target(current);
        if (!next)
            break;
        free(current);
        current = next;
    }
    *out = current;
    return current ? 0 : ak_fail(e, "out of memory");
}

static int output_open(ak_output *o, const char *path, const char *tool, int named, ak_err *e)
{
    memset(o, 0, sizeof *o);
    o->tool = tool;
    if (!path) {
        if (isatty(STDOUT_FILENO))
            return ak_fail(e, "refusing to write binary data to a terminal "
                              "(use -o FILE or a pipe)");
        o->fp = stdout;
        return 0;
    }
    if (final_destination(path, &o->path, e) != 0)
        return -1;
    struct stat st;
    int exists = stat(o->path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        ak_output_abort(o);
        return ak_fail(e, "%s: is a directory", path);
    }
    if (exists && !S_ISREG(st.st_mode)) {
        o->fp = fopen(o->path, "wb"); /* a device or pipe: write directly */
        if (o->fp)
            return 0;
        int err = errno;
        ak_output_abort(o);
        return ak_fail(e, "%s: cannot open for writing: %s", path, strerror(err));
    }
    mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();
    o->replaces = exists;
    if (open_temp(o, mode, named, e) != 0) {
        ak_output_abort(o);
        return -1;
    }
    return 0;
}

int ak_output_open(ak_output *o, const char *path, const char *tool, ak_err *e)
{
    return output_open(o, path, tool, 0, e);
}

int ak_output_open_named(ak_output *o, const char *path, const char *tool, ak_err *e)
{
    return output_open(o, path, tool, 1, e);
}

/* A temporary file's data goes to the disk while the rest is written
 * (sync_file_range, Linux) where the commit would wait for it otherwise:
 * with o->sync, the fsync (H100 machine, 1 GiB: 0.8 s of it otherwise);
 * and where the output replaces a file, as ext4 (auto_da_alloc, its
 * default) writes a file renamed over another out at the rename (the same
 * machine, 1 GiB replaced: the whole program 2.21 s with the writeback left
 * to that point, 1.77 s with it started as the data is written and an
 * fsync after). A new output is left in the page cache, as cp leaves it. */
static void start_writeback_of(int fd, uint64_t at, uint64_t bytes)
{
#ifdef SYNC_FILE_RANGE_WRITE
    sync_file_range(fd, (off_t)at, (off_t)bytes, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd, (void)at, (void)bytes;
#endif
}

static void start_writeback(ak_output *o)
{
    if (!(o->sync || o->replaces) || !o->tmp_path || o->bytes_written - o->writeback_from < WRITEBACK_BYTES) return;
    if (fflush(o->fp) != 0) return; /* the error shows at the commit */
    start_writeback_of(fileno(o->fp), o->writeback_from, o->bytes_written - o->writeback_from);
    o->writeback_from = o->bytes_written;
}

int ak_write_at(int fd, const void *data, size_t bytes, uint64_t at, int writeback,
                const char *name, ak_err *e)
{
    const char *c = data;
    size_t done = 0;
    while (done < bytes) {
        size_t want = bytes - done < IO_CHUNK ? bytes - done : IO_CHUNK;
        errno = 0;
        ssize_t n = pwrite(fd, c + done, want, (off_t)(at + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) /* 0: no progress, as a full disk gives it */
            return ak_fail(e, "%s: write failed: %s", name,
                           strerror(n == 0 ? ENOSPC : errno ? errno : EIO));
        if (writeback) start_writeback_of(fd, at + done, (uint64_t)n);
        done += (size_t)n;
    }
    return 0;
}

/* Reads of this many bytes or more go in parts on several threads, each
 * part at least this large (SCANKIT_READ_PARTS_FROM=N, a switch for the
 * tests, from N bytes on), on at most READ_THREADS threads: on the H100
 * machine (16 cores) pread from the page cache into fresh memory moves
 * 2.9 GB/s on one thread and 14.8 on eight (bench/file_io, 16 GiB;
 * bench/results/nvidia-h100-whole-2711). */
#define READ_PARTS_FROM ((uint64_t)64 << 20)
#define READ_THREADS 8u

/* One part of a read: the bytes it got before it stopped, and errno
 * where a read failed. */
typedef struct read_part {
    int fd;
    unsigned char *data;
    uint64_t at;
    size_t got[AK_MAX_PARTS];
    int err[AK_MAX_PARTS];
} read_part;

static void read_range(void *ctx, unsigned k, size_t lo, size_t hi)
{
    read_part *r = ctx;
    size_t done = lo;
    while (done < hi) {
        size_t want = hi - done < IO_CHUNK ? hi - done : IO_CHUNK;
        errno = 0;
        ssize_t n = pread(r->fd, r->data + done, want, (off_t)(r->at + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) r->err[k] = errno ? errno : EIO;
        if (n <= 0) break;
        done += (size_t)n;
    }
    r->got[k] = done - lo;
}

/* The parts a read of `bytes` takes. */
static unsigned read_parts(size_t bytes)
{
    const char *env = getenv("SCANKIT_READ_PARTS_FROM");
    uint64_t from = env && *env ? strtoull(env, NULL, 10) : READ_PARTS_FROM;
    if (!from || bytes < from) return 1;
    uint64_t most = bytes / from;
    unsigned cores = ak_cores(), t = cores < READ_THREADS ? cores : READ_THREADS;
    return most < t ? (unsigned)(most ? most : 1) : t;
}

int ak_read_at(int fd, void *data, size_t bytes, uint64_t at, const char *name, ak_err *e)
{
    read_part r = {fd, data, at, {0}, {0}};
    unsigned parts = ak_run_parts(bytes, read_parts(bytes), read_range, &r);
    for (unsigned k = 0; k < parts; k++) { /* the first part that stopped short */
        size_t lo = ak_part_start(bytes, parts, k), hi = ak_part_start(bytes, parts, k + 1);
        if (r.got[k] == hi - lo) continue;
        if (r.err[k]) {
            errno = r.err[k];
            return fail_read(e, name);
        }
        return ak_fail(e, "%s: ends %llu bytes early (it changed while being read?)", name,
                       (unsigned long long)(bytes - lo - r.got[k]));
    }
    return 0;
}

int ak_output_write(ak_output *o, const void *data, size_t bytes, ak_progress *p,
                    ak_err *e)
{
    const char *c = data;
    while (bytes > 0) {
        size_t k = bytes < IO_CHUNK ? bytes : IO_CHUNK;
        errno = 0;
        if (fwrite(c, 1, k, o->fp) != k)
            return fail_write(o, errno, e);
        c += k;
        bytes -= k;
        o->bytes_written += k;
        ak_progress_add(p, k);
        start_writeback(o);
    }
    return 0;
}

int ak_output_write_header(ak_output *o, ak_format format, ak_dtype type, size_t n,
                           ak_err *e)
{
    if (format != AK_FORMAT_NPY)
        return 0;
    char header[256];
    size_t len = ak_npy_header(header, sizeof header, type, n);
    if (len == 0)
        return ak_fail(e, "%s: cannot format the .npy header", output_name(o));
    return ak_output_write(o, header, len, NULL, e);
}

int ak_output_flush(ak_output *o, ak_err *e)
{
    errno = 0;
    if (fflush(o->fp) != 0 || ferror(o->fp))
        return fail_write(o, errno, e);
    if (o->sync && o->tmp_path && fsync(fileno(o->fp)) != 0)
        return fail_write(o, errno, e);
    return 0;
}

static int commit_stdout(ak_output *o, ak_err *e)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return fail_write(o, errno, e);
    return 0;
}

static int commit_direct(ak_output *o, ak_err *e)
{
    errno = 0;
    int flushed = fflush(o->fp) == 0 && !ferror(o->fp);
    int err = errno;
    int closed = fclose(o->fp) == 0;
    if (!closed && flushed)
        err = errno;
    o->fp = NULL;
    if (!flushed || !closed)
        return fail_write(o, err, e);
    return 0;
}

/* Flushes, syncs (o->sync) and closes the temporary file. For an unnamed
 * one, *keep is a second descriptor of it, open for the link (a file is
 * never named before every byte was written, reached the disk with o->sync,
 * and its close succeeded). */
static int finish_temp(ak_output *o, int *keep, ak_err *e)
{
    *keep = -1;
    errno = 0;
    int ok = fflush(o->fp) == 0 && !ferror(o->fp) && (!o->sync || fsync(fileno(o->fp)) == 0);
    if (ok && o->unnamed && (*keep = fcntl(fileno(o->fp), F_DUPFD_CLOEXEC, 0)) < 0)
        ok = 0;
    int err = errno;
    if (fclose(o->fp) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    o->fp = NULL;
    if (ok)
        return 0;
    if (*keep >= 0)
        close(*keep);
    *keep = -1;
    return fail_write(o, err, e);
}

static int commit_named(ak_output *o, ak_err *e)
{
    sigset_t saved;
    cleanup_hold(&saved);
    int renamed = rename(o->tmp_path, o->path) == 0;
    int err = errno;
    if (renamed)
        cleanup_disarm(o->tmp_path);
    cleanup_release(&saved);
    if (!renamed)
        return ak_fail(e, "%s: cannot rename the finished output into place: %s", o->path,
                       strerror(err));
    return 0;
}

static int commit_unnamed(ak_output *o, int fd, ak_err *e)
{
    char proc[64];
    sk_rng rng;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    sk_rng_seed(&rng, (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^
                          ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)o);
    proc_fd_path(fd, proc, sizeof proc);
    sigset_t saved;
    cleanup_hold(&saved);
    int named = name_unnamed(fd, proc, o->path, o->tmp_path, &rng) == 0;
    int err = errno;
    cleanup_release(&saved);
    close(fd); /* nothing was written through it: no error to lose */
    if (!named)
        return ak_fail(e, "%s: cannot link the finished output into place: %s", o->path,
                       strerror(err));
    return 0;
}

static int commit_temp(ak_output *o, ak_err *e)
{
    int fd;
    int rc = finish_temp(o, &fd, e);
    if (rc == 0)
        rc = o->unnamed ? commit_unnamed(o, fd, e) : commit_named(o, e);
    if (rc != 0) {
        ak_output_abort(o);
        return -1;
    }
    free(o->tmp_path);
    o->tmp_path = NULL;
    o->unnamed = 0;
    return 0;
}

int ak_output_commit(ak_output *o, ak_err *e)
{
    int rc;
    if (!o->path)
        rc = commit_stdout(o, e);
    else if (!o->tmp_path)
        rc = commit_direct(o, e);
    else
        rc = commit_temp(o, e);
    o->fp = NULL;
    free(o->path);
    o->path = NULL;
    return rc;
}

void ak_output_abort(ak_output *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp); /* an unnamed temporary file goes with its last descriptor */
    o->fp = NULL;
    if (o->tmp_path && !o->unnamed)
        remove_named_temp(o->tmp_path);
    free(o->tmp_path);
    o->tmp_path = NULL;
    o->unnamed = 0;
    free(o->path);
    o->path = NULL;
}

int ak_array_save(const char *path, const char *tool, ak_format format, ak_dtype type,
                  const void *data, size_t n, ak_err *e)
{
    ak_output o;
    if (ak_output_open(&o, path, tool, e) != 0)
        return -1;
    ak_progress p;
    ak_progress_start(&p, tool, "writing", (uint64_t)n * ak_dtype_size(type), AK_PROGRESS_AUTO);
    int rc = ak_output_write_header(&o, format, type, n, e);
    if (rc == 0)
        rc = ak_output_write(&o, data, n * ak_dtype_size(type), &p, e);
    ak_progress_end(&p);
    if (rc == 0)
        return ak_output_commit(&o, e);
    ak_output_abort(&o);
    return -1;
}

ak_format ak_output_format(ak_format requested, const char *path, ak_format input)
{
    if (requested != AK_FORMAT_AUTO)
        return requested;
    if (path && ak_format_of_path(path) == AK_FORMAT_NPY)
        return AK_FORMAT_NPY;
    return input;
}

int ak_output_write_elements(ak_output *o, ak_format format, ak_dtype type, const void *data,
                             size_t n, const char *tool, ak_err *e)
{
    size_t bytes = n * ak_dtype_size(type);
    ak_progress p;
    ak_progress_start(&p, tool, "writing", bytes, o->progress);
    int rc = ak_output_write_header(o, format, type, n, e);
    if (rc == 0)
        rc = ak_output_write(o, data, bytes, &p, e);
    ak_progress_end(&p);
    return rc;
}
