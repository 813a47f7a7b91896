/*
 * sort_memio.h - the stream sort's reader and writer over arrays in host
 * memory, which radixsort (--check) and merge (--memory) share: the input
 * is one array, or two read one after the other; the output goes to one
 * array, which may be an input (the stream sort reads all of its input
 * before it writes).
 */
#ifndef SK_SORT_MEMIO_H
#define SK_SORT_MEMIO_H

#include "appkit.h"

/*! sort_memio : in[0] followed by in[1] (NULL: none) in, `out` out. */
typedef struct sort_memio {
    const ak_array *in[2];
    const ak_array *out;
    size_t in_at, out_at;    /* bytes read, written */
} sort_memio;

/*! sort_memio_reader(), sort_memio_writer() : the sk_reader and sk_writer
 *  of m. The writer fails (-1) rather than write past out's bytes. */
sk_reader sort_memio_reader(sort_memio *m);
sk_writer sort_memio_writer(sort_memio *m);

#endif
