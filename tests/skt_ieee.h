/*
 * skt_ieee.h - float elements by their bits, and the random float data of
 * the IEEE tests (tests/test_ieee.c, tests/test_ieee_check.c). The type is
 * SK_FLOAT32 or SK_FLOAT64; elements are addressed by index.
 */
#ifndef SKT_IEEE_H
#define SKT_IEEE_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h"

/* The bits of element i (float32: in the low 32). */
uint64_t skt_ieee_bits(sk_type t, const void *src, size_t i);
void skt_ieee_put_bits(sk_type t, void *dst, size_t i, uint64_t b);
/* A NaN with a random payload and sign, quiet or signalling (never the
 * canonical NaN a device would make). */
void skt_ieee_put_nan(sk_type t, void *dst, size_t i);
/* +0.0 or -0.0. */
double skt_ieee_signed_zero(void);
/* +inf or -inf (t unused: the shape of a generator of specials). */
double skt_ieee_any_inf(sk_type t);
/* A random walk with +-0 (2%), +-inf (1%) and NaNs (nan_per_mille) now and
 * then. */
void skt_ieee_walk(sk_type t, void *dst, size_t n, unsigned nan_per_mille);

#endif
