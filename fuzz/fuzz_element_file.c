/*
 * fuzz_element_file.c - fuzz target for the element-file reader,
 * ak_array_read_stream() in apps/appkit_file.c, which every program reads
 * its inputs through.
 *
 * Each input is read from memory the ways a file reaches the reader: named
 * *.npy (size known), named otherwise (raw, size known) and from a pipe
 * (size unknown: .npy when it starts with the magic, else raw); without a
 * --type, then with one picked by the input's length. Beyond the
 * sanitizers, every read is checked:
 *   - a failure leaves the array empty and its message starts with the
 *     file's name;
 *   - a success returns exactly the input's bytes (all of a raw file, the
 *     tail of a .npy file after a header of at least 10 bytes);
 *   - the size-known and the pipe reads of the same bytes in the same
 *     format agree: same result, same message.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"
#include "fuzz_common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INPUT_NAME "fuzz-input"


typedef struct read_result {
    int rc;
    ak_array array;
    ak_err err;
} read_result;

/* Reads data[0, size) as an open stream of `format`, its size known or not. */
static read_result read_memory(const uint8_t *data, size_t size, ak_format format,
                               int size_known, ak_dtype type)
{
    read_result r;
    memset(&r, 0, sizeof r);
    unsigned char *copy = malloc(size ? size : 1); /* fmemopen wants a writable buffer */
    FUZZ_CHECK(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    FILE *fp = fmemopen(copy, size, "rb");
    FUZZ_CHECK(fp != NULL);
    ak_source src = {fp, INPUT_NAME, format, size_known ? (uint64_t)size : AK_SIZE_UNKNOWN};
    ak_read_opts opts = {type, AK_UINT32, NULL, AK_PROGRESS_AUTO};
    r.rc = ak_array_read_stream(&src, &opts, &r.array, &r.err);
    fclose(fp);
    free(copy);
    return r;
}

static void check_failure(const read_result *r)
{
    FUZZ_CHECK(r->array.data == NULL && r->array.n == 0);
    FUZZ_CHECK(strncmp(r->err.msg, INPUT_NAME ": ", strlen(INPUT_NAME ": ")) == 0);
}

static void check_success(const read_result *r, const uint8_t *data, size_t size)
{
    size_t elem = ak_dtype_size(r->array.type);
    FUZZ_CHECK(elem > 0 && r->array.n <= size / elem);
    size_t bytes = r->array.n * elem;
    FUZZ_CHECK(bytes == 0 || memcmp(r->array.data, data + size - bytes, bytes) == 0);
    if (r->array.format == AK_FORMAT_RAW) {
        FUZZ_CHECK(bytes == size);
    } else {
        FUZZ_CHECK(r->array.format == AK_FORMAT_NPY);
        FUZZ_CHECK(size - bytes >= 10 && memcmp(data, "\x93NUMPY", 6) == 0);
    }
}

static void check_read(const read_result *r, const uint8_t *data, size_t size)
{
    if (r->rc == 0)
        check_success(r, data, size);
    else
        check_failure(r);
}

static void check_same(const read_result *a, const read_result *b)
{
    FUZZ_CHECK(a->rc == b->rc);
    if (a->rc != 0) {
        FUZZ_CHECK(strcmp(a->err.msg, b->err.msg) == 0);
        return;
    }
    FUZZ_CHECK(a->array.type == b->array.type && a->array.format == b->array.format);
    FUZZ_CHECK(a->array.n == b->array.n);
}

static int starts_with_magic(const uint8_t *data, size_t size)
{
    return size >= 6 && memcmp(data, "\x93NUMPY", 6) == 0;
}

/* The three ways in, with `type` as --type (AK_DTYPE_NONE: none). */
static void read_every_way(const uint8_t *data, size_t size, ak_dtype type)
{
    read_result npy = read_memory(data, size, AK_FORMAT_NPY, 1, type);
    read_result raw = read_memory(data, size, AK_FORMAT_RAW, 1, type);
    read_result pipe = read_memory(data, size, AK_FORMAT_AUTO, 0, type);
    check_read(&npy, data, size);
    check_read(&raw, data, size);
    check_read(&pipe, data, size);
    check_same(starts_with_magic(data, size) ? &npy : &raw, &pipe);
    ak_array_free(&npy.array);
    ak_array_free(&raw.array);
    ak_array_free(&pipe.array);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_every_way(data, size, AK_DTYPE_NONE);
    read_every_way(data, size, (ak_dtype)(size % AK_DTYPE_COUNT));
    return 0;
}
