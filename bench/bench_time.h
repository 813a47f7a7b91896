/*
 * bench_time.h - the clock, the median and the option-number parsers every
 * benchmark program uses.
 * No dependencies beyond libc, so the per-primitive programs link it alone.
 */
#ifndef SK_BENCH_TIME_H
#define SK_BENCH_TIME_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic seconds. */
double bb_now(void);

/* Median of v[0..n) (sorts v); 0 for n <= 0. */
double bb_median(double *v, int n);

/* The whole of s as a number in [lo, hi] (decimal, 0x.. or 0..); false
 * (and *out untouched) otherwise. */
bool bb_parse_long(const char *s, long lo, long hi, long *out);

/* The whole of s as an unsigned 64-bit number; false otherwise. */
bool bb_parse_u64(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
