/*
 * ref_merge.c - the serial stable merge (ref_merge.h).
 */
#include "ref_merge.h"

#include "ref_sort.h"

void skt_ref_merge_origin(sk_type t, const void *a, size_t na, const void *b, size_t nb,
                          int descending, size_t *origin)
{
    size_t i = 0, j = 0;
    for (size_t k = 0; k < na + nb; k++) {
        int b_first = 0;
        if (i == na) {
            b_first = 1;
        } else if (j < nb) {
            int c = skt_ref_key_cmp(t, skt_ref_key_raw(t, b, j), skt_ref_key_raw(t, a, i));
            b_first = descending ? c > 0 : c < 0;
        }
        origin[k] = b_first ? na + j++ : i++;
    }
}
