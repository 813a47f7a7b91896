/*
 * sort.c - the distributed sort's entry points: check what the ranks were
 * given (and that they agree on it), sort each rank's keys on its device
 * (local.c), split (split.c), exchange (exchange.c), order the runs
 * received (local.c).
 */
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* What every rank was given                                                 */
/* ------------------------------------------------------------------------ */

static sk_status check_local(const mpi_sort *s, const void *keys, const void *values,
                             sk_mpi_sorted *out)
{
    if (!s->ctx || !out || (s->n && !keys) || (s->value_size && s->n && !values))
        return SK_E_INVALID_ARG;
    if (s->key_size == 0 || (s->order != SK_ASCENDING && s->order != SK_DESCENDING))
        return SK_E_INVALID_ARG;
    if ((unsigned)s->type >= SK_TYPE_COUNT) /* the 8- and 16-bit keys */
        return SK_E_UNSUPPORTED;
    if (s->value_size != 0 && s->value_size != 4 && s->value_size != 8)
        return SK_E_INVALID_ARG;
    if (s->begin_bit >= s->end_bit || s->end_bit > 8 * s->key_size)
        return SK_E_INVALID_ARG;
    if (s->opts.stats && s->opts.stats->struct_size < sizeof(sk_mpi_sort_stats))
        return SK_E_INVALID_ARG;
    size_t record = s->key_size + s->value_size;
    if (s->n > SIZE_MAX / record || s->n > (uint64_t)INT64_MAX)
        return SK_E_SIZE;
    return SK_OK;
}

/* Every rank must sort the same way: the lowest and the highest of each
 * setting over the ranks must be equal (one MPI_Allreduce of the settings
 * and their negations under MPI_MIN). */
static sk_status check_same_everywhere(const mpi_sort *s)
{
    enum { SETTINGS = 6 };
    long long mine[2 * SETTINGS] = {(long long)s->type,      (long long)s->value_size,
                                    (long long)s->order,     (long long)s->begin_bit,
                                    (long long)s->end_bit,   (long long)s->opts.balanced};
    long long low[2 * SETTINGS];
    for (int i = 0; i < SETTINGS; i++) mine[SETTINGS + i] = -mine[i];
    int rc = MPI_Allreduce(mine, low, 2 * SETTINGS, MPI_LONG_LONG, MPI_MIN, s->comm);
    if (rc != MPI_SUCCESS) return SK_E_COMM;
    for (int i = 0; i < SETTINGS; i++)
        if (low[i] != -low[SETTINGS + i]) return SK_E_INVALID_ARG;
    return SK_OK;
}

static sk_status count_total(mpi_sort *s)
{
    uint64_t n = s->n;
    sk_status st = mpi__status(MPI_Allreduce(&n, &s->total, 1, MPI_UINT64_T, MPI_SUM, s->comm));
    if (st == SK_OK && s->total > (uint64_t)INT64_MAX) return SK_E_SIZE;
    return st;
}

/* ------------------------------------------------------------------------ */
/* Sorting on this rank's device                                             */
/* ------------------------------------------------------------------------ */

/* This rank's copy of its input, sorted. */
static sk_status sort_local(mpi_sort *s, const void *keys, const void *values)
{
    s->keys = mpi__alloc(s->n * s->key_size);
    s->values = s->value_size ? mpi__alloc(s->n * s->value_size) : NULL;
    s->split = mpi__alloc(((size_t)s->ranks + 1) * sizeof *s->split);
    s->run_lengths = mpi__alloc((size_t)s->ranks * sizeof *s->run_lengths);
    if (!s->keys || (s->value_size && !s->values) || !s->split || !s->run_lengths)
        return SK_E_OUT_OF_MEMORY;
    return mpi__sort_on_device(s, keys, values, s->keys, s->values, s->n, &s->stats.sort_runs);
}

/* The runs received, one per rank in rank order, each sorted, merged
 * stably (equal keys come in rank order, then in each run's order), for
 * every order and bit range. One run (one rank, or every element from one
 * rank) is in order already. */
static sk_status order_runs(mpi_sort *s, sk_mpi_sorted *out)
{
    if (s->runs_in <= 1) {
        s->stats.merge_runs = s->runs_in;
        return SK_OK;
    }
    return mpi__merge_on_device(s, out->keys, out->values, out->n, s->run_lengths,
                                (size_t)s->ranks, &s->stats.merge_runs);
}

static sk_status place_in_order(const mpi_sort *s, sk_mpi_sorted *out)
{
    uint64_t n = out->n, before = 0;
    int rc = MPI_Exscan(&n, &before, 1, MPI_UINT64_T, MPI_SUM, s->comm);
    out->offset = s->rank == 0 ? 0 : before; /* MPI_Exscan leaves rank 0's undefined */
    out->total = s->total;
    return mpi__status(rc);
}

/* ------------------------------------------------------------------------ */
/* The sort                                                                  */
/* ------------------------------------------------------------------------ */

/* The ranks' agreement on st, its wait counted in s->stats. */
static sk_status agree_timed(mpi_sort *s, sk_status st)
{
    double t0 = MPI_Wtime();
    st = mpi__agree(s->comm, st);
    s->stats.wait_seconds += MPI_Wtime() - t0;
    return st;
}

/* The local sort, the split, the exchange and the merge, each timed. */
static sk_status sort_steps(mpi_sort *s, const void *keys, const void *values,
                            sk_mpi_sorted *out)
{
    sk_mpi_sort_stats *t = &s->stats;
    double t0 = MPI_Wtime();
    sk_status st = sort_local(s, keys, values);
    t->sort_seconds = MPI_Wtime() - t0;
    if ((st = agree_timed(s, st)) != SK_OK) return st;
    t0 = MPI_Wtime();
    st = mpi__split(s);
    t->split_seconds = MPI_Wtime() - t0;
    if (st != SK_OK) return st;
    t0 = MPI_Wtime();
    st = mpi__exchange(s, out);
    t->exchange_seconds = MPI_Wtime() - t0;
    if (st != SK_OK) return st;
    t0 = MPI_Wtime();
    st = order_runs(s, out);
    t->merge_seconds = MPI_Wtime() - t0;
    return agree_timed(s, st);
}

/* The steps, each agreed on before the next. */
static sk_status run_steps(mpi_sort *s, const void *keys, const void *values,
                           sk_mpi_sorted *out)
{
    sk_status st = mpi__agree(s->comm, check_local(s, keys, values, out));
    if (st == SK_OK) st = mpi__agree(s->comm, check_same_everywhere(s));
    if (st == SK_OK) st = mpi__agree(s->comm, count_total(s));
    if (st == SK_OK) st = sort_steps(s, keys, values, out);
    if (st == SK_OK) st = mpi__agree(s->comm, place_in_order(s, out));
    return st;
}

/* This call's stats, where the caller asked for them (and gave a
 * struct_size that holds them: else refused, untouched). */
static void report_stats(mpi_sort *s, const sk_mpi_sorted *out, double t0)
{
    sk_mpi_sort_stats *to = s->opts.stats;
    if (!to || to->struct_size < sizeof *to) return;
    s->stats.elements_in = s->n;
    s->stats.elements_out = out ? out->n : 0;
    s->stats.total_seconds = MPI_Wtime() - t0;
    memcpy((char *)to + sizeof to->struct_size, (const char *)&s->stats + sizeof to->struct_size,
           sizeof *to - sizeof to->struct_size);
}

static sk_status sort_run(mpi_sort *s, const void *keys, const void *values,
                          sk_mpi_sorted *out)
{
    if (out) memset(out, 0, sizeof *out);
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) return SK_E_INVALID_ARG;
    if (MPI_Comm_rank(s->comm, &s->rank) != MPI_SUCCESS ||
        MPI_Comm_size(s->comm, &s->ranks) != MPI_SUCCESS)
        return SK_E_INVALID_ARG;
    double t0 = MPI_Wtime();
    s->key_size = sk_type_size(s->type);
    sk_status st = run_steps(s, keys, values, out);
    free(s->keys);
    free(s->values);
    free(s->split);
    free(s->run_lengths);
    if (st != SK_OK) sk_mpi_sorted_free(out);
    report_stats(s, out, t0);
    return st;
}

static mpi_sort sort_of(sk_context *ctx, MPI_Comm comm, sk_type t, size_t value_size, size_t n,
                        sk_sort_order order, unsigned begin, unsigned end,
                        const sk_mpi_sort_opts *opts)
{
    mpi_sort s = {0};
    s.ctx = ctx, s.comm = comm, s.type = t, s.value_size = value_size, s.n = n;
    s.order = order, s.begin_bit = begin, s.end_bit = end;
    s.opts = opts ? *opts : (sk_mpi_sort_opts)SK_MPI_SORT_OPTS_INIT;
    s.opts.balanced = !!s.opts.balanced;
    return s;
}

static unsigned key_bits(sk_type t)
{
    return 8 * (unsigned)sk_type_size(t);
}

sk_status sk_mpi_sort_pairs_bits(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                                 size_t value_size, const void *keys, const void *values,
                                 sk_mpi_sorted *out, size_t n, sk_sort_order order,
                                 unsigned begin_bit, unsigned end_bit,
                                 const sk_mpi_sort_opts *opts)
{
    /* 0 is "keys only" inside; a pair's value of 0 bytes is refused */
    size_t vs = value_size ? value_size : 3;
    mpi_sort s = sort_of(ctx, comm, key_type, vs, n, order, begin_bit, end_bit, opts);
    return sort_run(&s, keys, values, out);
}

sk_status sk_mpi_sort_keys_bits(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                                const void *keys, sk_mpi_sorted *out, size_t n,
                                sk_sort_order order, unsigned begin_bit, unsigned end_bit,
                                const sk_mpi_sort_opts *opts)
{
    mpi_sort s = sort_of(ctx, comm, key_type, 0, n, order, begin_bit, end_bit, opts);
    return sort_run(&s, keys, NULL, out);
}

sk_status sk_mpi_sort_pairs(sk_context *ctx, MPI_Comm comm, sk_type key_type,
                            size_t value_size, const void *keys, const void *values,
                            sk_mpi_sorted *out, size_t n, sk_sort_order order,
                            const sk_mpi_sort_opts *opts)
{
    return sk_mpi_sort_pairs_bits(ctx, comm, key_type, value_size, keys, values, out, n, order,
                                  0, key_bits(key_type), opts);
}

sk_status sk_mpi_sort_keys(sk_context *ctx, MPI_Comm comm, sk_type key_type, const void *keys,
                           sk_mpi_sorted *out, size_t n, sk_sort_order order,
                           const sk_mpi_sort_opts *opts)
{
    return sk_mpi_sort_keys_bits(ctx, comm, key_type, keys, out, n, order, 0,
                                 key_bits(key_type), opts);
}

void sk_mpi_sorted_free(sk_mpi_sorted *s)
{
    if (!s) return;
    free(s->keys);
    free(s->values);
    memset(s, 0, sizeof *s);
}
