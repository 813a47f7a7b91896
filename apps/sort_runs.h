/*
 * sort_runs.h - radixsort's sort within a device memory budget: keys (and
 * values) that do not fit the budget are sorted as runs that do, which
 * device merges then join, block by block, into one sorted sequence.
 *
 * The device holds the data of a run or of a merge block in one buffer and
 * the library's scratch for one call (measured before: the sort's, then,
 * after sk_context_trim(), the merge's), together at most the budget, so
 * the program's peak device allocation is within it.
 */
#ifndef SK_SORT_RUNS_H
#define SK_SORT_RUNS_H

#include "appkit_run.h"
#include "sort_check.h"

/*! sort_runs_job : what to sort: `keys` (and `values` unless its data is
 *  NULL), in place, by `bits` of the key (the whole key unless --bits) in
 *  `order`, with at most `budget` bytes of device memory. */
typedef struct sort_runs_job {
    ak_array *keys, *values;
    sk_sort_order order;
    sort_key_bits bits;
    size_t budget;
} sort_runs_job;

/*! sort_runs_stats : what the sort did, for --time. */
typedef struct sort_runs_stats {
    size_t runs;          /* sorted runs (1: the data fit at once)       */
    size_t run_elems;     /* elements per run                            */
    size_t merge_blocks;  /* device merges of all levels                 */
    size_t levels;        /* merge levels                                */
    size_t device_bytes;  /* the data buffer and the most scratch        */
} sort_runs_stats;

/*! sort_runs() : sorts j's arrays on run->ctx within j->budget bytes of
 *  device memory (stable; the result equals one sort of the whole), the
 *  copies counted as upload and download time, the kernels as compute
 *  time. Several runs need the whole key (no --bits). @return 0, or -1
 *  ("--memory N is too small for ...", a device failure). */
int sort_runs(ak_run *run, const sort_runs_job *j, sort_runs_stats *stats, ak_err *e);

#endif /* SK_SORT_RUNS_H */
