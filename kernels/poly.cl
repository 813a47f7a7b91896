/*
 * poly.cl - polynomial evaluation at many points of low degree: one
 * work-item per point, plain Horner. (One point of high degree is a scan
 * of affine maps instead: see primitives/poly.c.)
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
