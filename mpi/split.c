/*
 * split.c - where each rank's sorted run splits between the ranks.
 *
 * Every element is ordered as (order key, rank, position in its rank's
 * sorted run): the position stands for the input index, since the local
 * sort is stable. Equal keys thus split like distinct ones, so all-equal
 * keys or all the data on one rank still spread over every rank. A
 * boundary is such a triple (or, for the balanced split, a global
 * position); split[i] is how many elements of this rank's run come before
 * boundary i.
 */
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The order key                                                             */
/* ------------------------------------------------------------------------ */

static uint64_t raw_key(size_t key_size, const void *keys, size_t i)
{
    if (key_size == 4) {
        uint32_t v;
        memcpy(&v, (const char *)keys + 4 * i, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, (const char *)keys + 8 * i, 8);
    return v;
}

static uint64_t low_bits(unsigned bits)
{
    return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

/* The radix sort's transformed key: the sign bit flipped for signed
 * integers; for floats, totalOrder (negatives complemented, positives with
 * the sign bit set). */
static uint64_t transformed(sk_type t, size_t key_size, uint64_t raw)
{
    uint64_t top = (uint64_t)1 << (8 * key_size - 1);
    if (t == SK_INT32 || t == SK_INT64) return raw ^ top;
    if (t == SK_FLOAT32 || t == SK_FLOAT64)
        return (raw & top) ? ~raw & low_bits(8 * (unsigned)key_size) : raw | top;
    return raw;
}

uint64_t mpi__order_key(const mpi_sort *s, const void *keys, size_t i)
{
    uint64_t mask = low_bits(s->end_bit - s->begin_bit);
    uint64_t key = transformed(s->type, s->key_size, raw_key(s->key_size, keys, i));
    key = (key >> s->begin_bit) & mask;
    return s->order == SK_DESCENDING ? key ^ mask : key;
}

/* The elements of this rank's run whose order key is below `key` (with
 * `or_equal`, at most `key`): a binary search of the sorted run. */
static size_t count_below(const mpi_sort *s, uint64_t key, int or_equal)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t k = mpi__order_key(s, s->keys, mid);
        if (k < key || (or_equal && k == key))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* floor(i * total / ranks) without overflow (i <= ranks). */
static uint64_t share_start(uint64_t total, int ranks, int i)
{
    uint64_t q = total / (uint64_t)ranks, r = total % (uint64_t)ranks;
    return (uint64_t)i * q + (uint64_t)i * r / (uint64_t)ranks;
}

/* ------------------------------------------------------------------------ */
/* Splitters from regular samples                                            */
/* ------------------------------------------------------------------------ */

/* A sample: an element as (order key, rank, position). */
typedef struct sample {
    uint64_t key, rank, pos;
} sample;

static int sample_cmp(const void *pa, const void *pb)
{
    const sample *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Samples in proportion to the rank's share of all elements, about P^2 in
 * all (PSRS's number, which bounds every rank's share near 2 n / P), at
 * most the rank's elements and at most what an int counts. */
static size_t samples_of(const mpi_sort *s)
{
    if (s->total == 0) return 0;
    double p = (double)s->ranks;
    double want = p * p * ((double)s->n / (double)s->total) + 1.0;
    double cap = (double)(INT32_MAX / 3 / s->ranks);
    size_t m = (size_t)(want < cap ? want : cap);
    return m < s->n ? m : s->n;
}

/* Evenly spaced elements of the run: the middle of each of m parts. */
static void take_samples(const mpi_sort *s, sample *out, size_t m)
{
    for (size_t k = 0; k < m; k++) {
        size_t pos = (size_t)(((double)k + 0.5) * (double)s->n / (double)m);
        if (pos >= s->n) pos = s->n - 1;
        out[k] = (sample){mpi__order_key(s, s->keys, pos), (uint64_t)s->rank, pos};
    }
}

/* How many elements of this rank's run come before the element b. */
static uint64_t count_before(const mpi_sort *s, const sample *b)
{
    if (b->rank == (uint64_t)s->rank) return b->pos;
    return count_below(s, b->key, b->rank > (uint64_t)s->rank);
}

/* Every rank's samples, gathered on every rank (as 3 uint64 each). */
static sk_status gather_samples(const mpi_sort *s, const sample *mine, int m, int *counts,
                                int *displs, sample **all, int *total)
{
    sk_status st = mpi__status(MPI_Allgather(&m, 1, MPI_INT, counts, 1, MPI_INT, s->comm));
    if (st != SK_OK) return st;
    *total = 0;
    for (int r = 0; r < s->ranks; r++) {
        displs[r] = 3 * *total;
        *total += counts[r];
        counts[r] *= 3;
    }
    *all = mpi__alloc((size_t)*total * sizeof **all);
    st = mpi__agree(s->comm, *all ? SK_OK : SK_E_OUT_OF_MEMORY);
    if (st != SK_OK) return st;
    return mpi__status(MPI_Allgatherv(mine, 3 * m, MPI_UINT64_T, *all, counts, displs,
                                      MPI_UINT64_T, s->comm));
}

static sk_status split_by_samples(mpi_sort *s)
{
    size_t m = samples_of(s);
    sample *mine = mpi__alloc(m * sizeof *mine), *all = NULL;
    int *counts = mpi__alloc(2 * (size_t)s->ranks * sizeof *counts), total = 0;
    sk_status st = mpi__agree(s->comm, mine && counts ? SK_OK : SK_E_OUT_OF_MEMORY);
    if (st == SK_OK) {
        take_samples(s, mine, m);
        st = gather_samples(s, mine, (int)m, counts, counts + s->ranks, &all, &total);
    }
    if (st == SK_OK) {
        qsort(all, (size_t)total, sizeof *all, sample_cmp);
        for (int i = 1; i < s->ranks; i++)
            s->split[i] = total ? count_before(s, &all[(size_t)i * (size_t)total / s->ranks]) : 0;
    }
    free(mine);
    free(counts);
    free(all);
    return mpi__agree(s->comm, st);
}

/* ------------------------------------------------------------------------ */
/* The exact split of the balanced output                                    */
/* ------------------------------------------------------------------------ */

/* For each boundary i (global position t_i = floor(i n / P)), the smallest
 * order key v_i with more than t_i elements at or below it: the key of the
 * element at t_i. A binary search over the keys' values, all boundaries at
 * once, one MPI_Allreduce of their counts per step. */
static sk_status find_boundary_keys(const mpi_sort *s, uint64_t *lo, uint64_t *count, int b)
{
    uint64_t *hi = lo + b, *target = hi + b;
    for (int i = 0; i < b; i++) {
        lo[i] = 0;
        hi[i] = low_bits(s->end_bit - s->begin_bit);
        target[i] = share_start(s->total, s->ranks, i + 1);
    }
    for (unsigned step = 0; step <= 64; step++) {
        int open = 0;
        for (int i = 0; i < b; i++) {
            uint64_t mid = lo[i] + (hi[i] - lo[i]) / 2;
            count[i] = lo[i] < hi[i] ? count_below(s, mid, 1) : 0;
            open |= lo[i] < hi[i];
        }
        if (!open) return SK_OK; /* the same on every rank: the counts are global */
        if (MPI_Allreduce(MPI_IN_PLACE, count, b, MPI_UINT64_T, MPI_SUM, s->comm) != MPI_SUCCESS)
            return SK_E_COMM;
        for (int i = 0; i < b; i++) {
            if (lo[i] >= hi[i]) continue;
            uint64_t mid = lo[i] + (hi[i] - lo[i]) / 2;
            if (count[i] > target[i])
                hi[i] = mid;
            else
                lo[i] = mid + 1;
        }
    }
    return SK_OK;
}

/* With v_i known: L_i elements of all ranks are below it, and the element
 * at t_i is number t_i - L_i among those equal to v_i, counted in rank
 * order, so this rank gives as many of its own equal ones as fall before
 * that (the ranks before it give theirs first: an MPI_Exscan). */
static sk_status place_boundaries(mpi_sort *s, const uint64_t *key, uint64_t *below,
                                  uint64_t *equal, uint64_t *before, int b)
{
    for (int i = 0; i < b; i++) {
        below[i] = count_below(s, key[i], 0);
        equal[i] = count_below(s, key[i], 1) - below[i];
    }
    uint64_t *all_below = before + b;
    if (MPI_Allreduce(below, all_below, b, MPI_UINT64_T, MPI_SUM, s->comm) != MPI_SUCCESS ||
        MPI_Exscan(equal, before, b, MPI_UINT64_T, MPI_SUM, s->comm) != MPI_SUCCESS)
        return SK_E_COMM;
    for (int i = 0; i < b; i++) {
        uint64_t ahead = s->rank == 0 ? 0 : before[i];
        uint64_t nth = share_start(s->total, s->ranks, i + 1) - all_below[i];
        uint64_t mine = nth > ahead ? nth - ahead : 0;
        s->split[i + 1] = below[i] + (mine < equal[i] ? mine : equal[i]);
    }
    return SK_OK;
}

static sk_status split_exactly(mpi_sort *s)
{
    int b = s->ranks - 1;
    uint64_t *w = mpi__alloc(8 * (size_t)b * sizeof *w);
    sk_status st = mpi__agree(s->comm, w ? SK_OK : SK_E_OUT_OF_MEMORY);
    if (st == SK_OK) st = find_boundary_keys(s, w, w + 3 * (size_t)b, b);
    if (st == SK_OK)
        st = place_boundaries(s, w, w + 3 * (size_t)b, w + 4 * (size_t)b, w + 5 * (size_t)b, b);
    free(w);
    return mpi__agree(s->comm, st);
}

sk_status mpi__split(mpi_sort *s)
{
    s->split[0] = 0;
    s->split[s->ranks] = s->n;
    if (s->ranks == 1) return SK_OK;
    if (s->total == 0) {
        for (int i = 1; i < s->ranks; i++) s->split[i] = 0;
        return SK_OK;
    }
    return s->opts.balanced ? split_exactly(s) : split_by_samples(s);
}
