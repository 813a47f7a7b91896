/*
 * poly_affine.cl - the affine-map monoid of Horner's rule, for scan.cl.
 *
 * The host places this text in the preamble of a scan.cl program, after
 * SK_POLY_T (float or double) and SK_POLY_T2 (its 2-vector). An element
 * (m, c) = (.x, .y) is the map r -> r m + c; composition (first a, then b)
 * is associative and not commutative:
 *     (m1, c1) then (m2, c2) = (m1 m2, c1 m2 + c2).
 * The scan's element is SK_POLY_T2, its identity SK_AFFINE_IDENTITY and
 * its operator SK_AFFINE_THEN(a, b); poly_affine_io.cl loads the elements.
 */

#ifndef SK_POLY_T2
#error "poly_affine.cl: SK_POLY_T2 must be defined by the host configuration"
#endif

#define SK_AFFINE_IDENTITY (SK_POLY_T2)(1, 0)
#define SK_AFFINE_THEN(a, b) (SK_POLY_T2)((a).x * (b).x, (a).y * (b).x + (b).y)
