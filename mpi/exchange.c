/*
 * exchange.c - every element to its rank: MPI_Alltoallv, one call per
 * array (keys, then values) where every count and displacement fits an
 * int (they count elements: a contiguous datatype of one element; the
 * rank's own run copied apart from it, on threads), else in rounds through
 * staging buffers of at most INT_MAX elements.
 */
#include "mpi_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The counts of one exchange, in elements: what this rank sends to and
 * receives from each rank, and where each run starts on either side. */
typedef struct plan {
    int ranks;
    uint64_t *send, *send_at, *recv, *recv_at; /* ranks each */
    uint64_t received;
    uint64_t longest;  /* the largest count between any two ranks */
    int once;          /* every rank's counts and displacements fit an int */
} plan;

static int fits_int(const uint64_t *v, int n, uint64_t extra)
{
    for (int i = 0; i < n; i++)
        if (v[i] + extra > (uint64_t)INT_MAX) return 0;
    return 1;
}

static int fits_one_call(const plan *p);

static sk_status make_plan(const mpi_sort *s, plan *p)
{
    p->ranks = s->ranks;
    for (int r = 0; r < s->ranks; r++) {
        p->send[r] = s->split[r + 1] - s->split[r];
        p->send_at[r] = s->split[r];
    }
    if (MPI_Alltoall(p->send, 1, MPI_UINT64_T, p->recv, 1, MPI_UINT64_T, s->comm) !=
        MPI_SUCCESS)
        return SK_E_COMM;
    uint64_t longest = 0;
    p->received = 0;
    for (int r = 0; r < s->ranks; r++) {
        p->recv_at[r] = p->received;
        p->received += p->recv[r];
        if (p->send[r] > longest) longest = p->send[r];
    }
    /* every rank takes part in both reductions, whatever its own answer */
    sk_status st = p->received > SIZE_MAX / (s->key_size + s->value_size) ? SK_E_SIZE : SK_OK;
    sk_status most = mpi__status(
        MPI_Allreduce(&longest, &p->longest, 1, MPI_UINT64_T, MPI_MAX, s->comm));
    int fits = !s->opts.exchange_bytes && fits_one_call(p); /* one way for all the ranks */
    sk_status one = mpi__status(MPI_Allreduce(&fits, &p->once, 1, MPI_INT, MPI_LAND, s->comm));
    return st != SK_OK ? st : most != SK_OK ? most : one;
}

/* One call: every count and displacement fits an int. */
static int fits_one_call(const plan *p)
{
    int n = p->ranks;
    return fits_int(p->send, n, 0) && fits_int(p->recv, n, 0) && fits_int(p->send_at, n, 0) &&
           fits_int(p->recv_at, n, 0);
}

static void to_ints(const uint64_t *v, int *out, int n)
{
    for (int i = 0; i < n; i++) out[i] = (int)v[i];
}

/* One call for the other ranks' runs. The fresh receiving array is
 * touched first on threads (the MPI library's copies into it would take
 * its page faults on one thread), and this rank's own run is copied here
 * on threads, not through MPI: 16 GiB over two ranks of one H100 machine
 * exchanged in 9.0 s before (bench/results/nvidia-h100x2-mpi-16g-2711). */
static sk_status exchange_once(const mpi_sort *s, const plan *p, MPI_Datatype t, size_t size,
                               const void *src, void *dst, int *w)
{
    int n = p->ranks, me = s->rank;
    size_t mine_at = (size_t)p->recv_at[me] * size, mine = (size_t)p->recv[me] * size;
    if (p->received) { /* dst is an array (and src one where this rank keeps elements) */
        char *to = dst;
        mpi__copy(to, NULL, mine_at);
        mpi__copy(to + mine_at + mine, NULL, (size_t)p->received * size - mine_at - mine);
        if (mine) mpi__copy(to + mine_at, (const char *)src + (size_t)p->send_at[me] * size, mine);
    }
    to_ints(p->send, w, n);
    to_ints(p->send_at, w + n, n);
    to_ints(p->recv, w + 2 * n, n);
    to_ints(p->recv_at, w + 3 * n, n);
    w[me] = w[2 * n + me] = 0; /* copied above */
    return mpi__status(MPI_Alltoallv(src, w, w + n, t, dst, w + 2 * n, w + 3 * n, t, s->comm));
}

/* ------------------------------------------------------------------------ */
/* Rounds                                                                    */
/* ------------------------------------------------------------------------ */

static uint64_t round_part(uint64_t count, uint64_t done, uint64_t chunk)
{
    if (done >= count) return 0;
    return count - done < chunk ? count - done : chunk;
}

/* Round k: up to `chunk` elements of each run, from element k * chunk,
 * staged at chunk * r in both staging buffers. */
static sk_status exchange_round(const mpi_sort *s, const plan *p, MPI_Datatype t, size_t size,
                                const char *src, char *dst, char *stage_out, char *stage_in,
                                uint64_t chunk, uint64_t done, int *w)
{
    int n = p->ranks;
    for (int r = 0; r < n; r++) {
        uint64_t out = round_part(p->send[r], done, chunk), in = round_part(p->recv[r], done, chunk);
        memcpy(stage_out + (size_t)r * chunk * size, src + (p->send_at[r] + done) * size,
               out * size);
        w[r] = (int)out, w[n + r] = (int)((uint64_t)r * chunk);
        w[2 * n + r] = (int)in, w[3 * n + r] = w[n + r];
    }
    if (MPI_Alltoallv(stage_out, w, w + n, t, stage_in, w + 2 * n, w + 3 * n, t, s->comm) !=
        MPI_SUCCESS)
        return SK_E_COMM;
    for (int r = 0; r < n; r++)
        memcpy(dst + (p->recv_at[r] + done) * size, stage_in + (size_t)r * chunk * size,
               (size_t)w[2 * n + r] * size);
    return SK_OK;
}

/* Elements per run and round: what opts.exchange_bytes allows (at least
 * one), and never more than an int counts for all the ranks together. */
static uint64_t round_elements(const mpi_sort *s, size_t size)
{
    uint64_t chunk = (uint64_t)INT_MAX / (uint64_t)s->ranks;
    if (s->opts.exchange_bytes && s->opts.exchange_bytes / size < chunk)
        chunk = s->opts.exchange_bytes / size;
    return chunk ? chunk : 1;
}

static sk_status exchange_in_rounds(const mpi_sort *s, const plan *p, MPI_Datatype t,
                                    size_t size, const void *src, void *dst, int *w)
{
    uint64_t chunk = round_elements(s, size);
    size_t stage_bytes = (size_t)chunk * (size_t)s->ranks * size;
    char *out = mpi__alloc(stage_bytes), *in = mpi__alloc(stage_bytes);
    sk_status st = mpi__agree(s->comm, out && in ? SK_OK : SK_E_OUT_OF_MEMORY);
    for (uint64_t done = 0; st == SK_OK && done < p->longest; done += chunk)
        st = exchange_round(s, p, t, size, src, dst, out, in, chunk, done, w);
    free(out);
    free(in);
    return st;
}

/* ------------------------------------------------------------------------ */
/* One array                                                                 */
/* ------------------------------------------------------------------------ */

/* The MPI_Alltoallv calls that move an array of elements of `size` bytes. */
static uint64_t calls_of(const mpi_sort *s, const plan *p, size_t size)
{
    if (p->once) return 1;
    uint64_t chunk = round_elements(s, size);
    return (p->longest + chunk - 1) / chunk;
}

static sk_status exchange_array(const mpi_sort *s, const plan *p, size_t size, const void *src,
                                void *dst, int *w)
{
    MPI_Datatype t;
    if (MPI_Type_contiguous((int)size, MPI_BYTE, &t) != MPI_SUCCESS) return SK_E_COMM;
    sk_status st = mpi__status(MPI_Type_commit(&t));
    if (st == SK_OK)
        st = p->once ? exchange_once(s, p, t, size, src, dst, w)
                  : exchange_in_rounds(s, p, t, size, src, dst, w);
    MPI_Type_free(&t);
    return st;
}

static sk_status receive_buffers(const mpi_sort *s, const plan *p, sk_mpi_sorted *out)
{
    out->n = (size_t)p->received;
    out->keys = out->n ? mpi__alloc(out->n * s->key_size) : NULL;
    out->values = out->n && s->value_size ? mpi__alloc(out->n * s->value_size) : NULL;
    if (out->n && (!out->keys || (s->value_size && !out->values))) return SK_E_OUT_OF_MEMORY;
    return SK_OK;
}

/* What the plan moves, in s->stats: bytes to, from and within this rank,
 * and the MPI_Alltoallv calls. */
static void count_moves(mpi_sort *s, const plan *p)
{
    size_t record = s->key_size + s->value_size;
    uint64_t sent = 0, received = 0;
    for (int r = 0; r < p->ranks; r++) {
        if (r == s->rank) continue;
        sent += p->send[r];
        received += p->recv[r];
    }
    s->stats.sent_bytes = sent * record;
    s->stats.received_bytes = received * record;
    s->stats.kept_bytes = p->send[s->rank] * record;
    s->stats.exchange_calls = calls_of(s, p, s->key_size);
    if (s->value_size) s->stats.exchange_calls += calls_of(s, p, s->value_size);
}

static sk_status exchange_arrays(mpi_sort *s, plan *p, sk_mpi_sorted *out, int *w)
{
    sk_status st = mpi__agree(s->comm, make_plan(s, p));
    if (st == SK_OK) count_moves(s, p);
    for (int r = 0; st == SK_OK && r < p->ranks; r++) {
        s->runs_in += p->recv[r] != 0;
        s->run_lengths[r] = (size_t)p->recv[r];
    }
    if (st == SK_OK) st = mpi__agree(s->comm, receive_buffers(s, p, out));
    if (st == SK_OK) st = exchange_array(s, p, s->key_size, s->keys, out->keys, w);
    if (st == SK_OK && s->value_size)
        st = exchange_array(s, p, s->value_size, s->values, out->values, w);
    return mpi__agree(s->comm, st);
}

/* One rank: nothing to move, the local run is the result (no copy). */
static sk_status keep_all(mpi_sort *s, sk_mpi_sorted *out)
{
    out->n = s->n;
    out->keys = s->n ? s->keys : NULL;
    out->values = s->n && s->value_size ? s->values : NULL;
    if (out->keys) s->keys = NULL;
    if (out->values) s->values = NULL;
    s->runs_in = s->n != 0;
    s->stats.kept_bytes = s->n * (s->key_size + s->value_size);
    return SK_OK;
}

sk_status mpi__exchange(mpi_sort *s, sk_mpi_sorted *out)
{
    if (s->ranks == 1) return keep_all(s, out);
    size_t n = (size_t)s->ranks;
    uint64_t *counts = mpi__alloc(4 * n * sizeof *counts);
    int *w = mpi__alloc(4 * n * sizeof *w);
    sk_status st = mpi__agree(s->comm, counts && w ? SK_OK : SK_E_OUT_OF_MEMORY);
    plan p = {s->ranks, counts, counts + n, counts + 2 * n, counts + 3 * n, 0, 0, 0};
    if (st == SK_OK) st = exchange_arrays(s, &p, out, w);
    free(counts);
    free(w);
    return st;
}
