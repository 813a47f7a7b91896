/*
 * bench_time.c - monotonic clock and median for the benchmarks.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_time.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

double bb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bb_median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool bb_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (errno || !end || end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool bb_parse_u64(const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || !end || end == s || *end) return false;
    *out = (uint64_t)v;
    return true;
}
