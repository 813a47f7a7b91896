/*
 * bench_time.h - the clock and the median every benchmark program uses.
 * No dependencies beyond libc, so the per-primitive programs link it alone.
 */
#ifndef SK_BENCH_TIME_H
#define SK_BENCH_TIME_H

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic seconds. */
double bb_now(void);

/* Median of v[0..n) (sorts v); 0 for n <= 0. */
double bb_median(double *v, int n);

#ifdef __cplusplus
}
#endif

#endif
