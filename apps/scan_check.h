/*
 * scan_check.h - the host-side check behind `scan --check`: a plain serial
 * scan of the input, compared with what the device produced.
 */
#ifndef SK_SCAN_CHECK_H
#define SK_SCAN_CHECK_H

#include "appkit.h"

/*! scan_check() :
 *  Compares `out` (n elements of `type`) with the serial inclusive or
 *  exclusive scan of `in` under `op`. Integers and float min/max must match
 *  exactly; float add and mul, whose device association order differs from
 *  the serial one, must lie within the rounding bound of a prefix of i+1
 *  terms: 2 (i+1) u sum|terms| (add) or 2 (i+1) u |exact| (mul), with the
 *  exact value taken in long double.
 *  @return 0 when everything matches; -1 with the first mismatch in *e. */
int scan_check(ak_dtype type, sk_op op, int exclusive, const void *in, const void *out,
               size_t n, ak_err *e);

#endif
