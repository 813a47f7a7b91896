/*
 * local.c - the sorts on this rank's device: the local sort of its input
 * and the ordering of the runs it received. In one piece
 * (sk_sort_*_bits_host) by default; with a budget of device or host memory
 * (sk_mpi_sort_opts.device_bytes, host_bytes) through the stream sort,
 * which reads and writes this rank's arrays, sorts in one piece what fits
 * the device budget and as runs merged on the device what does not,
 * spilling runs beyond the host budget to an unnamed temporary file.
 */
#include "mpi_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A copy of this many bytes or more goes in parts on up to COPY_THREADS
 * threads (SCANKIT_COPY_PARTS_FROM=N, a switch for the tests, from N bytes
 * on): the local sort's copy of the rank's input is the first touch of a
 * fresh array, whose page faults held one thread to 1.5 GB/s on the H100
 * machine (16 GiB: local sort 13.6-14.9 s with the copy on one thread,
 * 3.0-3.1 s on eight; bench/results/nvidia-h100-mpi-copy-2811). */
#define COPY_PARTS_FROM ((size_t)64 << 20)
#define COPY_THREADS 8

typedef struct copy_part {
    unsigned char *dst;
    const unsigned char *src;
    size_t bytes;
} copy_part;

static void *copy_run(void *arg)
{
    const copy_part *c = arg;
    memcpy(c->dst, c->src, c->bytes);
    return NULL;
}

/* dst <- src (bytes of them), in parts on threads when large; a part whose
 * thread does not start is copied here. */
static void copy_in_parts(void *dst, const void *src, size_t bytes)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("SCANKIT_COPY_PARTS_FROM");
    size_t from = env && *env ? (size_t)strtoull(env, NULL, 10) : COPY_PARTS_FROM;
    size_t parts = from ? bytes / from : 1;
    if (parts > COPY_THREADS) parts = COPY_THREADS;
    if (cores > 0 && parts > (size_t)cores) parts = (size_t)cores;
    if (parts < 2) {
        if (bytes) memcpy(dst, src, bytes);
        return;
    }
    copy_part part[COPY_THREADS];
    pthread_t tid[COPY_THREADS];
    int started[COPY_THREADS] = {0};
    for (size_t k = 0; k < parts; k++) {
        size_t lo = k * (bytes / parts), hi = k + 1 == parts ? bytes : lo + bytes / parts;
        part[k] = (copy_part){(unsigned char *)dst + lo, (const unsigned char *)src + lo, hi - lo};
    }
    for (size_t k = 1; k < parts; k++)
        started[k] = pthread_create(&tid[k], NULL, copy_run, &part[k]) == 0;
    copy_run(&part[0]);
    for (size_t k = 1; k < parts; k++) {
        if (started[k]) pthread_join(tid[k], NULL);
        else copy_run(&part[k]);
    }
}

/* An array read from `in` and written to `out` (which may be `in`: the
 * stream sort reads all of its input before it writes). */
typedef struct mem_io {
    const unsigned char *in;
    unsigned char *out;
    size_t bytes, in_at, out_at;
} mem_io;

static long long mem_read(void *user, void *buf, size_t bytes)
{
    mem_io *m = user;
    size_t n = m->bytes - m->in_at < bytes ? m->bytes - m->in_at : bytes;
    if (n) memcpy(buf, m->in + m->in_at, n);
    m->in_at += n;
    return (long long)n;
}

static int mem_write(void *user, const void *buf, size_t bytes)
{
    mem_io *m = user;
    if (bytes > m->bytes - m->out_at) return -1;
    if (bytes) memcpy(m->out + m->out_at, buf, bytes);
    m->out_at += bytes;
    return 0;
}

static int has_budget(const mpi_sort *s)
{
    return s->opts.device_bytes != 0 || s->opts.host_bytes != 0;
}

/* In one piece: a copy into the output where it is not the input, sorted
 * there. */
static sk_status sort_in_one_piece(const mpi_sort *s, const void *keys_in,
                                   const void *values_in, void *keys, void *values, size_t n)
{
    if (keys != keys_in) copy_in_parts(keys, keys_in, n * s->key_size);
    if (s->value_size && values != values_in) copy_in_parts(values, values_in, n * s->value_size);
    if (n < 2) return SK_OK;
    if (s->value_size)
        return sk_sort_pairs_bits_host(s->ctx, s->type, s->value_size, keys, values, n, s->order,
                                       s->begin_bit, s->end_bit);
    return sk_sort_keys_bits_host(s->ctx, s->type, keys, n, s->order, s->begin_bit, s->end_bit);
}

static sk_status sort_streamed(const mpi_sort *s, const void *keys_in, const void *values_in,
                               void *keys, void *values, size_t n, sk_stream_stats *st)
{
    mem_io k = {keys_in, keys, n * s->key_size, 0, 0};
    mem_io v = {values_in, values, n * s->value_size, 0, 0};
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    o.device_bytes = s->opts.device_bytes;
    o.host_bytes = s->opts.host_bytes;
    o.temp_dir = s->opts.temp_dir;
    o.expected_bytes = k.bytes + v.bytes;
    sk_reader kr = {mem_read, &k}, vr = {mem_read, &v};
    sk_writer kw = {mem_write, &k}, vw = {mem_write, &v};
    if (s->value_size)
        return sk_sort_pairs_bits_stream(s->ctx, s->type, s->value_size, kr, vr, kw, vw,
                                         s->order, s->begin_bit, s->end_bit, &o, st);
    return sk_sort_keys_bits_stream(s->ctx, s->type, kr, kw, s->order, s->begin_bit, s->end_bit,
                                    &o, st);
}

/* What a stream sort of n elements did, in s->stats: its runs in *runs
 * (none for no elements). */
static void count_stream(mpi_sort *s, const sk_stream_stats *st, size_t n, uint64_t *runs)
{
    *runs = n ? st->runs : 0;
    s->stats.spilled_runs += st->spilled_runs;
    if (st->device_bytes > s->stats.device_bytes) s->stats.device_bytes = st->device_bytes;
    if (st->host_bytes > s->stats.host_bytes) s->stats.host_bytes = st->host_bytes;
}

sk_status mpi__sort_on_device(mpi_sort *s, const void *keys_in, const void *values_in,
                              void *keys, void *values, size_t n, uint64_t *runs)
{
    if (!has_budget(s)) {
        *runs = n != 0;
        return sort_in_one_piece(s, keys_in, values_in, keys, values, n);
    }
    sk_stream_stats st = SK_STREAM_STATS_INIT;
    sk_status rc = sort_streamed(s, keys_in, values_in, keys, values, n, &st);
    count_stream(s, &st, n, runs);
    return rc;
}
