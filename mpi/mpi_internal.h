/*
 * mpi_internal.h - what the files of scankit_mpi share: one sort's state,
 * the order key of the radix sort on the host, the ranks' agreement on a
 * status, and the steps (local.c, split.c, exchange.c) the sort is made
 * of.
 */
#ifndef SK_MPI_INTERNAL_H
#define SK_MPI_INTERNAL_H

#include "scankit_mpi.h"

#include <stdint.h>

/* One distributed sort: what every rank agreed on, and this rank's data. */
typedef struct mpi_sort {
    sk_context *ctx;
    MPI_Comm comm;
    int rank, ranks;
    sk_type type;
    size_t key_size, value_size; /* value_size 0: keys only */
    sk_sort_order order;
    unsigned begin_bit, end_bit;
    sk_mpi_sort_opts opts;
    size_t n;          /* this rank's elements */
    void *keys;        /* this rank's copy of its input, sorted locally */
    void *values;
    uint64_t total;    /* the elements of every rank */
    int runs_in;       /* the ranks that sent this rank elements (itself
                          included): the sorted runs it holds after the
                          exchange */
    uint64_t *split;   /* ranks + 1 positions in the local run: where the
                          elements for each rank begin (split[ranks] = n) */
    size_t *run_lengths; /* ranks: the elements received from each rank */
    sk_mpi_sort_stats stats; /* this call's, copied to opts.stats at the end */
} mpi_sort;

/* Allocates `bytes` (at least 1) or returns NULL. */
void *mpi__alloc(size_t bytes);

/* dst <- src, `bytes` of them (src NULL: zeros, the first touch of a fresh
 * array), in parts on threads from 64 MiB on (context.c says why). */
void mpi__copy(void *dst, const void *src, size_t bytes);

/* SK_E_COMM for an MPI error code, else SK_OK. */
sk_status mpi__status(int mpi_rc);

/* The status every rank returns: st where every rank has SK_OK, else the
 * lowest failure of any rank (collective; st is this rank's). */
sk_status mpi__agree(MPI_Comm comm, sk_status st);

/* The order key of keys[i]: an unsigned integer whose ascending order is
 * the sort's order of the keys (the radix sort's transformed key, bits
 * [begin_bit, end_bit) of it, complemented for SK_DESCENDING). */
uint64_t mpi__order_key(const mpi_sort *s, const void *keys, size_t i);

/* Fills s->split: the splitters chosen from regular samples of every rank,
 * or (s->opts.balanced) the exact positions of the balanced shares.
 * Collective; agrees on its status. */
sk_status mpi__split(mpi_sort *s);

/* Sorts the n elements at keys_in (values_in) into keys (values) on this
 * rank's device: in one piece, or within s->opts' budgets through the
 * stream sort (its spilled runs and memory counted in s->stats). The
 * output may be the input. *runs gets the sorted runs (0 for no
 * elements). Not collective. */
sk_status mpi__sort_on_device(mpi_sort *s, const void *keys_in, const void *values_in,
                              void *keys, void *values, size_t n, uint64_t *runs);

/* Merges the runs of keys (values), run_lengths[0 .. runs) elements one
 * after the other, each sorted, in place on this rank's device: in one
 * piece, or within s->opts' budgets through the stream sort (as
 * mpi__sort_on_device). *runs_out as there. Not collective. */
sk_status mpi__merge_on_device(mpi_sort *s, void *keys, void *values, size_t n,
                               const size_t *run_lengths, size_t runs, uint64_t *runs_out);

/* Moves every element to its rank: out->n, keys and values allocated and
 * received, the runs of ranks 0, 1, ... one after the other (their
 * lengths in s->run_lengths), s->runs_in set; the bytes moved and the
 * MPI_Alltoallv calls counted in s->stats. On one rank the local run itself becomes out's (s->keys and s->values
 * handed over, left NULL). Collective; agrees on its status. */
sk_status mpi__exchange(mpi_sort *s, sk_mpi_sorted *out);

#endif /* SK_MPI_INTERNAL_H */
