/*
 * ref_bykey.c - serial run-length encoding and unique-by-key: one pass,
 * a new run wherever a key's bytes differ from the previous key's.
 */
#include "ref_bykey.h"

#include <string.h>

/* Whether element i starts a run. */
static int starts_run(size_t key_size, const void *keys, size_t i)
{
    const unsigned char *k = keys;
    return i == 0 || memcmp(k + i * key_size, k + (i - 1) * key_size, key_size) != 0;
}

size_t skt_ref_key_heads(size_t key_size, const void *keys, size_t n, unsigned char *heads)
{
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) {
        heads[i] = (unsigned char)starts_run(key_size, keys, i);
        runs += heads[i];
    }
    return runs;
}

size_t skt_ref_run_length_encode(size_t key_size, const void *src, size_t n, void *values,
                                 uint64_t *counts)
{
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) {
        if (starts_run(key_size, src, i)) {
            memcpy((char *)values + runs * key_size, (const char *)src + i * key_size,
                   key_size);
            counts[runs++] = 0;
        }
        counts[runs - 1]++;
    }
    return runs;
}

size_t skt_ref_unique_by_key(size_t key_size, size_t value_size, const void *keys_in,
                             const void *values_in, size_t n, void *keys_out,
                             void *values_out)
{
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) {
        if (!starts_run(key_size, keys_in, i)) continue;
        memcpy((char *)keys_out + runs * key_size, (const char *)keys_in + i * key_size,
               key_size);
        if (values_in)
            memcpy((char *)values_out + runs * value_size,
                   (const char *)values_in + i * value_size, value_size);
        runs++;
    }
    return runs;
}
