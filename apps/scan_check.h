/*
 * scan_check.h - the host-side check behind `scan --check`: a plain serial
 * scan of the input, compared with what the device produced.
 */
#ifndef SK_SCAN_CHECK_H
#define SK_SCAN_CHECK_H

#include "appkit.h"

/*! scan_check() :
 *  Compares `out` (n elements of `type`) with the serial inclusive or
 *  exclusive scan of `in` under `op`, as scankit.h's float semantics
 *  allow: integers, and float min/max, bit for bit (IEEE minimum /
 *  maximum: a NaN result is the left-most NaN input, -0.0 < +0.0); float
 *  add and mul exactly where the result is pinned (NaN, infinities, zeros
 *  and their signs), else within (1 + u)^(k-1) - 1 (<= gamma_{k-1}) of the
 *  exact prefix of k terms, relative for mul, times the sum of |terms|
 *  for add (plus the smallest normal value per term, for devices that
 *  flush denormals). From a position where some association may overflow
 *  or underflow on (add: the sum of |terms| reaches the largest finite
 *  value; mul: a contiguous run of the terms has a product outside the
 *  normal range, or within rounding of its edges) any value passes there
 *  and after.
 *  @return 0 when everything fits; -1 with the first misfit in *e (one
 *  line). */
int scan_check(ak_dtype type, sk_op op, int exclusive, const void *in, const void *out,
               size_t n, ak_err *e);

#endif
