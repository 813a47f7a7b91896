/*
 * fuzz_common.h - what the fuzz targets share: the libFuzzer entry point's
 * declaration and FUZZ_CHECK, an assertion that stays in release builds.
 */
#ifndef SK_FUZZ_COMMON_H
#define SK_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                             \
        }                                                                        \
    } while (0)

#endif
