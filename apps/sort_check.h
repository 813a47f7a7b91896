/*
 * sort_check.h - the host-side checks of sorted keys that radixsort, merge
 * and search share: the order of a key file (radixsort --check, merge's
 * inputs, merge --check and search's haystack) and an O(n) fingerprint of
 * a multiset of (key, value) pairs (the output holds exactly the input's
 * pairs). Both run at memory speed, on threads where the array is large
 * and the host has cores.
 */
#ifndef SK_SORT_CHECK_H
#define SK_SORT_CHECK_H

#include "appkit.h"

/*! sort_key_bits : which bits of the order key order the keys: [begin,
 *  end), the whole key when begin == 0 and end == the key's bits. */
typedef struct sort_key_bits {
    unsigned begin, end;
} sort_key_bits;

/*! sort_whole_key() : the bits of the whole key of type t. */
sort_key_bits sort_whole_key(ak_dtype t);

/*! sort_call : the key type and order of a device sort or merge. */
typedef struct sort_call {
    sk_type type;
    sk_sort_order order;
} sort_call;

/*! sort_call_of() : keys of type `keys` (one the radix sort takes), in
 *  descending order when `descending`. */
sort_call sort_call_of(ak_dtype keys, int descending);

/*! sort_key_at() : the order key of keys[i]: an unsigned integer whose
 *  ascending order is the radix sort's ascending order of the keys
 *  (integers by value, floats in IEEE totalOrder), restricted to `bits`. */
uint64_t sort_key_at(const ak_array *keys, size_t i, sort_key_bits bits);

/*! sort_check_order() : the keys are sorted ascending (descending when
 *  `descending`) by the radix sort's order (integers by value, floats in
 *  IEEE totalOrder) restricted to `bits`, else fails with "<prefix>keys
 *  I and J are out of order" for the first such pair (the lowest I).
 *  O(n), over threads for large arrays (see sort_check_split()).
 *  @return 0 or -1. */
int sort_check_order(const ak_array *keys, int descending, sort_key_bits bits,
                     const char *prefix, ak_err *e);

/*! sort_check_input() : the keys read from the input file `path` are
 *  sorted (whole keys, ascending or descending), else fails with "NAME:
 *  not sorted in ascending order: keys I and J are out of order", NAME as
 *  messages name the file. @return 0 or -1. */
int sort_check_input(const char *path, const ak_array *keys, int descending, ak_err *e);

/*! sort_order_check : the order check of keys that come in chunks (read or
 *  streamed a piece at a time), with the indices of messages counted from
 *  the first key of the first chunk. */
typedef struct sort_order_check {
    int descending;
    sort_key_bits bits;
    const char *prefix;
    size_t seen;   /* keys checked so far: the next chunk starts at key `seen` */
    uint64_t last; /* sort_key_at() of key seen - 1, when seen > 0 */
} sort_order_check;

/*! sort_check_order_start() : a check of no keys yet, in the order and with
 *  the message prefix of sort_check_order() (`prefix` must outlive it). */
sort_order_check sort_check_order_start(int descending, sort_key_bits bits, const char *prefix);

/*! sort_check_order_next() : the next chunk of keys (of the type of those
 *  before) is sorted, and its first key is in order with the last key of
 *  the chunk before, else fails as sort_check_order() does, "keys I and J"
 *  counted over all chunks. Empty chunks pass. sort_check_order() is
 *  start, then next with the whole array. @return 0 or -1. */
int sort_check_order_next(sort_order_check *c, const ak_array *chunk, ak_err *e);

/*! sort_print : an order-independent fingerprint of a multiset of (key,
 *  value) bit pairs. Equal multisets give equal fingerprints; different
 *  ones collide with probability ~2^-128. */
typedef struct sort_print {
    uint64_t a, b;
} sort_print;

/*! sort_print_add() : adds the pairs (keys[i], values[i]) to *p; values
 *  may be empty (no data): keys alone. */
void sort_print_add(sort_print *p, const ak_array *keys, const ak_array *values);

/*! sort_print_equal() : @return 1 when both fingerprints are the same. */
int sort_print_equal(sort_print x, sort_print y);

/*! sort_check_split() : how the checks above split an array over threads.
 *  An array of fewer than `min_elements` (0: the default, 2^20) keys is
 *  checked on the calling thread; a larger one splits into `parts` parts
 *  (0: the default, the online CPUs; at most 16), part k of t holding
 *  elements [floor(k n / t), floor((k + 1) n / t)), one thread each. The
 *  results do not depend on the split. For tests, which need several parts
 *  of small arrays whatever the host: call it before any check, not while
 *  one runs. */
void sort_check_split(unsigned parts, size_t min_elements);

#endif
