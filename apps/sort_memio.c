/*
 * sort_memio.c - the stream sort's reader and writer over host arrays (see
 * sort_memio.h).
 */
#include "sort_memio.h"

#include <string.h>

static size_t bytes_of(const ak_array *a)
{
    return a ? a->n * ak_dtype_size(a->type) : 0;
}

static long long read_arrays(void *user, void *buf, size_t bytes)
{
    sort_memio *m = user;
    size_t first = bytes_of(m->in[0]), total = first + bytes_of(m->in[1]), done = 0;
    while (done < bytes && m->in_at < total) {
        const ak_array *from = m->in_at < first ? m->in[0] : m->in[1];
        size_t at = m->in_at < first ? m->in_at : m->in_at - first;
        size_t n = bytes_of(from) - at < bytes - done ? bytes_of(from) - at : bytes - done;
        memcpy((unsigned char *)buf + done, (const unsigned char *)from->data + at, n);
        done += n, m->in_at += n;
    }
    return (long long)done;
}

static int write_array(void *user, const void *buf, size_t bytes)
{
    sort_memio *m = user;
    if (bytes > bytes_of(m->out) - m->out_at) return -1;
    memcpy((unsigned char *)m->out->data + m->out_at, buf, bytes);
    m->out_at += bytes;
    return 0;
}

sk_reader sort_memio_reader(sort_memio *m)
{
    return (sk_reader){read_arrays, m};
}

sk_writer sort_memio_writer(sort_memio *m)
{
    return (sk_writer){write_array, m};
}
