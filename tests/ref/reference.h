/*
 * reference.h - plain, serial CPU references for the scankit tests.
 *
 * Everything here is deliberately naive: one loop, left to right, one element
 * at a time, so that it is obviously correct. Test files compare the library
 * against these functions and never against the library itself.
 *
 * Semantics pinned here (see DESIGN.md "Semantics" and scankit.h):
 *   - integer add/mul wrap modulo 2^bits; for signed types they are computed
 *     in the unsigned type of the same width (no signed overflow in C);
 *   - float/double add/mul are evaluated serially, left to right;
 *   - min/max of floats are IEEE 754-2019 minimum/maximum: -0.0 < +0.0, and
 *     a NaN operand makes the result NaN, namely the left-most NaN operand
 *     with its bits (payload and sign) unchanged;
 *   - and/or/xor exist for integer types only;
 *   - identities: add 0 (-0.0 for floats), mul 1, min the type's largest
 *     value (+inf for floats), max the smallest (-inf for floats), and all
 *     ones, or 0, xor 0. Each is exact: identity op x == x bit for bit
 *     (floats: except the NaN bits an add or mul gives).
 */
#ifndef SKT_REFERENCE_H
#define SKT_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "scankit.h" /* only for the sk_type / sk_op enumerations */

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if the (type, op) pair is meaningful (bitwise ops are integer-only). */
int skt_ref_supported(sk_type t, sk_op op);

/* Bytes per element of a built-in type (the host layout). */
size_t skt_ref_type_size(sk_type t);

/* Writes identity(op) for type t to *out. */
void skt_ref_identity(sk_type t, sk_op op, void *out);

/* *out = (*a) op (*b). out may alias a or b. */
void skt_ref_combine(sk_type t, sk_op op, const void *a, const void *b, void *out);

/* Element i of a float32 or float64 array, as a double; and the store back
 * (rounded to float32 for float32 arrays). */
double skt_ref_real_at(sk_type t, const void *src, size_t i);
void skt_ref_set_real(sk_type t, void *dst, size_t i, double v);

/* Element i of an array of unsigned integers of `size` bytes (1, 4 or 8),
 * zero-extended: flags, offsets and the bits of keys. */
uint64_t skt_ref_uint_at(const void *src, size_t size, size_t i);

/* dst[i] = src[0] op ... op src[i] (inclusive) or
 * dst[0] = identity, dst[i] = src[0] op ... op src[i-1] (exclusive).
 * src and dst may be the same array. */
void skt_ref_scan(sk_type t, sk_op op, int exclusive, const void *src, void *dst,
                  size_t n);

/* *result = src[0] op ... op src[n-1]; identity for n == 0. */
void skt_ref_reduce(sk_type t, sk_op op, const void *src, size_t n, void *result);

/* Float products (scankit.h, "Float semantics"): marks[i] = 1 where the
 * inputs from i's segment head h up to i hold a contiguous run of finite
 * nonzero elements whose exact product leaves the normal range of float
 * type t (the positions where any result is allowed), else 0. Segments
 * start where heads[i] != 0 (heads NULL: one segment). Exact for inputs
 * that are powers of two (each run's product is then 2 to the sum of the
 * exponents); other finite values count by their exponent alone. */
void skt_ref_mul_hazards(sk_type t, const void *src, const unsigned char *heads, size_t n,
                         unsigned char *marks);

/* ------------------------------------------------------------------------ */
/* Test monoids (their OpenCL C twins are in skt_common.c)                   */
/* ------------------------------------------------------------------------ */

/* 2x2 matrix of uint32, row-major: | a b |
 *                                   | c d |, product modulo 2^32.
 * Associative, not commutative. Device type: uint4 (16 bytes). */
typedef struct skt_mat2 {
    uint32_t a, b, c, d;
} skt_mat2;

skt_mat2 skt_ref_mat2_identity(void);
skt_mat2 skt_ref_mat2_mul(skt_mat2 x, skt_mat2 y); /* x * y */
void skt_ref_mat2_scan(int exclusive, const skt_mat2 *src, skt_mat2 *dst, size_t n);
skt_mat2 skt_ref_mat2_reduce(const skt_mat2 *src, size_t n);

/* Affine map x -> m*x + c on uint32 (mod 2^32), plus a length counter.
 * (m1,c1,l1).(m2,c2,l2) = (m1*m2, c1*m2 + c2, l1 + l2): apply the first map,
 * then the second. Associative, not commutative. Device type: a struct of
 * three uints (12 bytes), declared by a typedef in the monoid's preamble. */
typedef struct skt_affine {
    uint32_t m, c, len;
} skt_affine;

skt_affine skt_ref_affine_identity(void);
skt_affine skt_ref_affine_combine(skt_affine x, skt_affine y);
void skt_ref_affine_scan(int exclusive, const skt_affine *src, skt_affine *dst,
                         size_t n);
skt_affine skt_ref_affine_reduce(const skt_affine *src, size_t n);

/* The interval-of-summations monoid of VERIFY.md on int2: (i, j) with
 * 0 <= i <= j, identity (-1, -1), top (-2, -2). */
typedef struct skt_interval {
    int32_t i, j;
} skt_interval;

#define SKT_IV_IDENTITY_I (-1)
#define SKT_IV_TOP_I (-2)

skt_interval skt_ref_interval_identity(void);
skt_interval skt_ref_interval_top(void);
skt_interval skt_ref_interval_combine(skt_interval x, skt_interval y);
void skt_ref_interval_scan(int exclusive, const skt_interval *src,
                           skt_interval *dst, size_t n);
skt_interval skt_ref_interval_reduce(const skt_interval *src, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* SKT_REFERENCE_H */
