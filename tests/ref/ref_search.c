/*
 * ref_search.c - the serial lower_bound and upper_bound (ref_search.h).
 */
#include "ref_search.h"

#include "ref_sort.h"

/* <0, 0, >0 as a goes before, with, after b in the order asked. */
static int order_cmp(sk_type t, uint64_t a, uint64_t b, int descending)
{
    int c = skt_ref_key_cmp(t, a, b);
    return descending ? -c : c;
}

/* Whether hay key h is at or past the needle's bound. */
static int past(sk_type t, uint64_t h, uint64_t x, int descending, int upper)
{
    int c = order_cmp(t, h, x, descending);
    return upper ? c > 0 : c >= 0;
}

void skt_ref_search(sk_type t, const void *hay, size_t nh, const void *needles, size_t nn,
                    int descending, int upper, uint64_t *indices)
{
    for (size_t i = 0; i < nn; i++) {
        uint64_t x = skt_ref_key_raw(t, needles, i);
        size_t lo = 0, hi = nh;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (past(t, skt_ref_key_raw(t, hay, mid), x, descending, upper)) hi = mid;
            else lo = mid + 1;
        }
        indices[i] = lo;
    }
}

uint64_t skt_ref_search_count(sk_type t, const void *hay, size_t nh, uint64_t needle_raw,
                              int descending, int upper)
{
    uint64_t count = 0;
    for (size_t p = 0; p < nh; p++)
        count += !past(t, skt_ref_key_raw(t, hay, p), needle_raw, descending, upper);
    return count;
}
