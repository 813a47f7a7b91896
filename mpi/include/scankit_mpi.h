/*
 * scankit_mpi.h - scankit's sort over the processes of an MPI communicator.
 *
 * Each process (rank) holds some keys, optionally with values; together they
 * are one global input, in rank order (rank 0's keys first, each rank's in
 * its own order). The sort leaves every rank with one contiguous range of the
 * global sorted order: rank r holds the elements at global positions
 * [offset_r, offset_r + n_r), offset_0 = 0 and offset_{r+1} = offset_r + n_r.
 * It is stable in the global input order: equal keys keep their (rank, index)
 * order. Keys, orders and bit ranges are those of the radix sort
 * (sk_sort_keys() and sk_sort_keys_bits() in scankit.h).
 *
 * How: every rank sorts its keys on its own device (sk_sort_*_bits_host,
 * or within budgets of device and host memory the stream sort),
 * the ranks choose P - 1 splitters together (regular samples of every rank,
 * or, for a balanced output, the exact global positions), each key treated
 * as (key, rank, index) so that equal keys split like any others; one
 * MPI_Alltoallv per array (keys, then values) moves every element to its
 * rank; each rank merges the P sorted runs it received, in rank order, on
 * its device (sk_merge_runs_*_host: rounds of merges of neighbouring runs,
 * or the radix sort of the runs where that takes fewer passes; both give
 * their stable merge).
 *
 * Every function here is collective over `comm`: every rank calls it, with
 * the same key type, value size, order, bit range and options (each rank its
 * own keys and count). Every rank returns the same status: the ranks agree
 * on the outcome (an MPI_Allreduce) after each step that can fail on one of
 * them, before any step that would wait for the others, so a failure on one
 * rank never leaves another waiting. A rank's own context keeps the details
 * of a failure that happened there (sk_context_error_detail()).
 *
 * This is the scankit_mpi library (CMake target scankit::mpi, pkg-config
 * scankit_mpi); it needs scankit and an MPI library (MPI-3).
 * Since 1.1.
 */
#ifndef SCANKIT_MPI_H
#define SCANKIT_MPI_H

#include <mpi.h>

#include "scankit.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! sk_mpi_context_create() :
 *  Collective. Opens a context on this rank's device, as
 *  sk_context_create() does, with one more way of choosing it: when
 *  device_spec is NULL and SCANKIT_DEVICE is unset, ranks on the same node
 *  (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)) take the node's GPUs (else
 *  its devices) in turn: the node-local rank modulo their number. A
 *  device_spec, else SCANKIT_DEVICE, is used as sk_context_create() uses
 *  it, on every rank.
 *  On failure *ctx is NULL on every rank, and `why` (when not NULL) holds
 *  this rank's reason, or "another rank failed to open its device".
 *  @return SK_OK, SK_E_INVALID_ARG (ctx NULL on some rank), SK_E_NO_DEVICE,
 *  SK_E_CL, SK_E_OUT_OF_MEMORY or SK_E_COMM, the same on every rank.
 *  Since 1.1. */
SK_API sk_status sk_mpi_context_create(sk_context **ctx, MPI_Comm comm, const char *device_spec,
                                       char *why, size_t why_size);

/*! sk_mpi_sort_stats :
 *  Where one rank's call of a sort spent its time, and what the exchange
 *  moved: filled, on every rank that passes one (sk_mpi_sort_opts.stats),
 *  on success and on failure (the steps not reached stay 0). struct_size
 *  set by the caller (SK_MPI_SORT_STATS_INIT), as in sk_stream_stats.
 *    elements_in       this rank's input elements (its n)
 *    elements_out      the elements this rank holds after the sort
 *    sent_bytes        bytes of keys and values this rank sent to the
 *                      other ranks
 *    received_bytes    bytes it received from the other ranks
 *    kept_bytes        bytes of its own run that stayed on this rank
 *    exchange_calls    MPI_Alltoallv calls of the exchange (one per array
 *                      moved, more where it goes in rounds; none on one
 *                      rank, whose sorted run is its range without a copy)
 *    sort_seconds      the local sort: this rank's copy of its input,
 *                      sorted on its device
 *    split_seconds     choosing where each rank's run splits (samples
 *                      gathered and searched, or the exact search)
 *    exchange_seconds  the exchange: counts, receive buffers and every
 *                      MPI_Alltoallv
 *    merge_seconds     ordering the runs received, on the device (none
 *                      where they are one run)
 *    wait_seconds      waiting for the other ranks to finish their local
 *                      sort and their merge (the agreement after each)
 *    total_seconds     the whole call, from entry to return
 *    sort_runs         the sorted runs of the local sort: 1 in one piece,
 *                      more where its data exceeded the device budget
 *                      (sk_mpi_sort_opts.device_bytes), 0 for no elements
 *    merge_runs        the same for the ordering of the runs received;
 *                      1 without sorting where they are one run (one
 *                      rank, or every element from one rank: in order
 *                      already)
 *    spilled_runs      the runs of either that went to a temporary file
 *                      (beyond sk_mpi_sort_opts.host_bytes)
 *    device_bytes      with a budget, the most device memory either
 *                      stream sort allocated (sk_stream_stats'); else 0
 *    host_bytes        with a budget, the most host memory either stream
 *                      sort allocated, beyond the arrays of this rank's
 *                      elements; else 0
 *  Seconds are wall-clock (MPI_Wtime). The split and the exchange are
 *  collective: their seconds include waiting for slower ranks; the sort's
 *  and the merge's do not (that is wait_seconds). The checks of the
 *  arguments and the count of all elements (small collectives) are in
 *  total_seconds only. */
typedef struct sk_mpi_sort_stats {
    size_t struct_size;
    uint64_t elements_in, elements_out;
    uint64_t sent_bytes, received_bytes, kept_bytes, exchange_calls;
    double sort_seconds, split_seconds, exchange_seconds, merge_seconds;
    double wait_seconds, total_seconds;
    uint64_t sort_runs, merge_runs, spilled_runs;
    uint64_t device_bytes, host_bytes;
} sk_mpi_sort_stats;

/*! SK_MPI_SORT_STATS_INIT : an initialiser that sets struct_size. */
#define SK_MPI_SORT_STATS_INIT \
    {sizeof(sk_mpi_sort_stats), 0u, 0u, 0u, 0u, 0u, 0u, 0, 0, 0, 0, 0, 0, 0u, 0u, 0u, 0u, 0u}

/*! sk_mpi_sort_opts :
 *  Options of the sorts below; NULL means SK_MPI_SORT_OPTS_INIT.
 *    balanced        0: the ranks' shares follow the splitters chosen from
 *                    regular samples (each at most about 2 n / P elements
 *                    for n elements in all on P ranks, however skewed the
 *                    keys); 1: rank r gets exactly floor((r + 1) n / P) -
 *                    floor(r n / P) elements (n / P, or one more), its
 *                    splitting positions found exactly by a search over the
 *                    key's bits (one small MPI_Allreduce per bit);
 *    exchange_bytes  0: the exchange is one MPI_Alltoallv per array where
 *                    every count and displacement fits an int, else rounds
 *                    of at most INT_MAX / P elements per pair, staged;
 *                    other values: rounds of at most that many bytes per
 *                    pair of ranks (at least one element), which bounds
 *                    the staging memory to about 2 P times it;
 *    stats           NULL, or where this rank's sk_mpi_sort_stats go
 *                    (its struct_size set; each rank passes its own or
 *                    NULL, independently of the others);
 *    device_bytes, host_bytes, temp_dir
 *                    0, 0: the local sort and the merge each order their
 *                    elements in one piece on the device
 *                    (sk_sort_*_bits_host, sk_merge_runs_*_host); else
 *                    both go through the
 *                    stream sort (sk_sort_*_bits_stream, reading and
 *                    writing this rank's arrays) with these as its
 *                    sk_stream_opts: device memory it may allocate (0:
 *                    half the device's), host memory for its stagings and
 *                    runs beyond the arrays of this rank's elements (0:
 *                    half the physical memory), the directory of the
 *                    unnamed temporary file of runs beyond it (NULL:
 *                    $TMPDIR, else /tmp). Data over the device budget is
 *                    sorted as runs that fit and merged; the result is
 *                    the same, byte for byte. Each rank passes its own
 *                    (its device and disks may differ from the others').
 *                    Since 1.1. */
typedef struct sk_mpi_sort_opts {
    int balanced;
    size_t exchange_bytes;
    sk_mpi_sort_stats *stats;
    uint64_t device_bytes;
    uint64_t host_bytes;
    const char *temp_dir;
} sk_mpi_sort_opts;

/*! SK_MPI_SORT_OPTS_INIT : the defaults (samples, one exchange, no
 *  stats, the local sorts in one piece). */
#define SK_MPI_SORT_OPTS_INIT {0, 0, NULL, 0u, 0u, NULL}

/*! sk_mpi_sorted :
 *  One rank's range of the global sorted order, allocated by the sort and
 *  freed by sk_mpi_sorted_free().
 *    keys     n keys (malloc'ed; NULL when n is 0);
 *    values   n values for the pairs forms, else NULL;
 *    n        the elements this rank holds;
 *    offset   the global position of keys[0]: the sum of n over the
 *             ranks before this one;
 *    total    the elements of all ranks. */
typedef struct sk_mpi_sorted {
    void *keys;
    void *values;
    size_t n;
    uint64_t offset;
    uint64_t total;
} sk_mpi_sorted;

/*! sk_mpi_sort_keys() :
 *  Collective. Sorts the n keys of every rank (`keys`, which is only read;
 *  may be NULL when n is 0) into one global order, stably, in `order`: see
 *  the top of this file. *out gets this rank's range; on failure it is
 *  left empty (zeroed) on every rank. n may be 0 on any rank, or on all.
 *  @return SK_OK; SK_E_INVALID_ARG (NULL, a bad type or order, or ranks
 *  that disagree on the type, value size, order, bits or options),
 *  SK_E_INVALID_ARG too for opts->stats with a struct_size below
 *  sizeof(sk_mpi_sort_stats) (its stats then untouched); SK_E_UNSUPPORTED
 *  for the 8- and 16-bit key types (SK_KEY_TYPE_MAP: not across ranks);
 *  SK_E_SIZE (counts overflowing, or a rank's device_bytes and host_bytes
 *  that hold no run of the stream sort), SK_E_IO (a rank's temporary file
 *  of runs could not be made, written or read), SK_E_OUT_OF_MEMORY,
 *  SK_E_COMM (an MPI
 *  call returned an error: only where comm's error handler returns
 *  errors), or what the radix sort returns (SK_E_UNSUPPORTED, SK_E_BUILD,
 *  SK_E_CL...); every rank returns the same.
 *  Since 1.1. */
SK_API sk_status sk_mpi_sort_keys(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                                  const void *keys, sk_mpi_sorted *out, size_t n,
                                  sk_sort_order order, const sk_mpi_sort_opts *opts);

/*! sk_mpi_sort_pairs() :
 *  As sk_mpi_sort_keys(), moving with every key its value (`value_size`:
 *  4 or 8 bytes, any bits); out->values gets them.
 *  @return as sk_mpi_sort_keys(); SK_E_INVALID_ARG for a value_size other
 *  than 4 or 8.
 *  Since 1.1. */
SK_API sk_status sk_mpi_sort_pairs(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                                   size_t value_size, const void *keys, const void *values,
                                   sk_mpi_sorted *out, size_t n, sk_sort_order order,
                                   const sk_mpi_sort_opts *opts);

/*! sk_mpi_sort_keys_bits(), sk_mpi_sort_pairs_bits() :
 *  Sort by bits [begin_bit, end_bit) of the order key only, as
 *  sk_sort_keys_bits() does: keys equal in those bits keep their global
 *  input order. 0 <= begin_bit < end_bit <= key bits, else
 *  SK_E_INVALID_ARG. With [0, key bits) they are sk_mpi_sort_keys/_pairs.
 *  Since 1.1. */
SK_API sk_status sk_mpi_sort_keys_bits(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                                       const void *keys, sk_mpi_sorted *out, size_t n,
                                       sk_sort_order order, unsigned begin_bit,
                                       unsigned end_bit, const sk_mpi_sort_opts *opts);
SK_API sk_status sk_mpi_sort_pairs_bits(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                                        size_t value_size, const void *keys,
                                        const void *values, sk_mpi_sorted *out, size_t n,
                                        sk_sort_order order, unsigned begin_bit,
                                        unsigned end_bit, const sk_mpi_sort_opts *opts);

/*! sk_mpi_sorted_free() :
 *  Frees what a sort allocated in *s and zeroes it. Not collective. NULL,
 *  and an empty or already freed *s, are accepted.
 *  Since 1.1. */
SK_API void sk_mpi_sorted_free(sk_mpi_sorted *s);

#ifdef __cplusplus
}
#endif

#endif /* SCANKIT_MPI_H */
