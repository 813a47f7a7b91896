/*
 * ref_bykey.h - plain serial references for run-length encoding and the
 * by-key reductions: keys are equal when their bytes are (floats by bit
 * pattern), a run starts at element 0 and at every key unequal to the one
 * before it. The values' reductions and scans over those runs are the
 * segmented references of ref_segscan.h, given the runs' heads.
 */
#ifndef SKT_REF_BYKEY_H
#define SKT_REF_BYKEY_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* heads[i] = 1 where i == 0 or keys[i]'s bytes differ from keys[i-1]'s
 * (key_size bytes each), else 0. @return the number of runs. */
size_t skt_ref_key_heads(size_t key_size, const void *keys, size_t n, unsigned char *heads);

/* values[r] = the key of run r, counts[r] its length. @return the runs. */
size_t skt_ref_run_length_encode(size_t key_size, const void *src, size_t n, void *values,
                                 uint64_t *counts);

/* keys_out[r] = the first key of run r and, where values_in is not NULL,
 * values_out[r] = its value (value_size bytes). @return the runs. */
size_t skt_ref_unique_by_key(size_t key_size, size_t value_size, const void *keys_in,
                             const void *values_in, size_t n, void *keys_out,
                             void *values_out);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REF_BYKEY_H */
