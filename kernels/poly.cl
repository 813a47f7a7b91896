/*
 * poly.cl - polynomial evaluation at many points of low degree: one
 * work-item per point, plain Horner; and at one point on the CPU shape,
 * Horner by chunks. (Elsewhere one point of high degree is a scan of
 * affine maps: see primitives/poly.c.)
 *
 * The host configuration defines SK_T (float or double).
 */

#ifndef SK_T
#error "poly.cl: SK_T must be defined by the host configuration"
#endif

/* values[k] = a_0 + a_1 x + ... + a_d x^d at x = points[k], d = ncoef - 1. */
__kernel void sk_poly_horner_points(__global const SK_T *coeffs, ulong ncoef,
                                    __global const SK_T *points, __global SK_T *values,
                                    ulong npoints)
{
    ulong k = get_global_id(0);
    if (k >= npoints) return;
    SK_T x = points[k];
    SK_T r = (SK_T)0;
    for (ulong i = ncoef; i-- > 0;) r = r * x + coeffs[i];
    values[k] = r;
}

/* One point, CPU shape: work-item c runs Horner from 0 over elements [c *
 * chunk, min((c + 1) * chunk, n)) of the affine maps' order (element k is
 * a_(last - k)) and raises x to the chunk's length by squaring:
 * parts[2c] = x^len, parts[2c + 1] = the chunk's Horner value, the map
 * (m, c) the affine scan's reduction of the chunk stands for
 * (primitives/poly.c combines the chunks' maps in order). No running power
 * per element: the affine reduce's x^k, for |x| < 1, underflows within a
 * long chunk into denormals where x * d rounds back to d, and every
 * multiplication after takes the slow path. */
__kernel void sk_poly_horner_chunks(__global const SK_T *coeffs, ulong last, SK_T x,
                                    __global SK_T *parts, ulong n, ulong chunk)
{
    ulong c = get_global_id(0);
    ulong begin = c * chunk, end = min(begin + chunk, n);
    SK_T r = (SK_T)0, m = (SK_T)1, b = x;
    for (ulong k = begin; k < end; k++) r = r * x + coeffs[last - k];
    for (ulong e = end - begin; e != 0; e >>= 1) { /* every chunk holds an element */
        if (e & 1) m *= b;
        b *= b;
    }
    parts[2 * c] = m;
    parts[2 * c + 1] = r;
}
