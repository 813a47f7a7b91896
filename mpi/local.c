/*
 * local.c - the sorts on this rank's device: the local sort of its input
 * and the merge of the runs it received. In one piece (sk_sort_*_bits_host,
 * sk_merge_runs_*_host) by default; with a budget of device or host memory
 * (sk_mpi_sort_opts.device_bytes, host_bytes) through the stream sort,
 * which reads and writes this rank's arrays, sorts in one piece what fits
 * the device budget and as runs merged on the device what does not,
 * spilling runs beyond the host budget to an unnamed temporary file.
 */
#include "mpi_internal.h"

#include <string.h>

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
    if (keys != keys_in) mpi__copy(keys, keys_in, n * s->key_size);
    if (s->value_size && values != values_in) mpi__copy(values, values_in, n * s->value_size);
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

/* In one piece: the runs merged where they lie. */
static sk_status merge_in_one_piece(const mpi_sort *s, void *keys, void *values, size_t n,
                                    const size_t *run_lengths, size_t runs)
{
    if (s->value_size)
        return sk_merge_runs_pairs_host(s->ctx, s->type, s->value_size, keys, values, n,
                                        run_lengths, runs, s->order, s->begin_bit, s->end_bit);
    return sk_merge_runs_keys_host(s->ctx, s->type, keys, n, run_lengths, runs, s->order,
                                   s->begin_bit, s->end_bit);
}

sk_status mpi__merge_on_device(mpi_sort *s, void *keys, void *values, size_t n,
                               const size_t *run_lengths, size_t runs, uint64_t *runs_out)
{
    if (!has_budget(s)) {
        *runs_out = n != 0;
        return merge_in_one_piece(s, keys, values, n, run_lengths, runs);
    }
    /* the stream sort's stable sort of the runs in order is their merge */
    return mpi__sort_on_device(s, keys, values, keys, values, n, runs_out);
}
