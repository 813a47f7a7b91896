/*
 * poly_affine_io.cl - where the scan of poly_affine.cl reads its elements
 * and writes its results: scan.cl's level-0 SK_IN_* / SK_LOAD and
 * SK_OUT_* / SK_STORE.
 *
 * Element i of a polynomial of degree d = sk_last is (x, a_(d-i)): Horner's
 * step r -> r x + a_(d-i). The reduction is (x^(d+1), p(x)); the inclusive
 * scan stores every Horner prefix, the c of each element.
 */

#define SK_IN_PARAMS __global const SK_POLY_T *sk_coeffs, ulong sk_last, SK_POLY_T sk_x
#define SK_IN_ARGS sk_coeffs, sk_last, sk_x
#define SK_LOAD(i) ((SK_T)(sk_x, sk_coeffs[sk_last - (i)]))
#define SK_OUT_PARAMS __global SK_POLY_T *sk_prefixes
#define SK_OUT_ARGS sk_prefixes
#define SK_STORE(i, v) (sk_prefixes[i] = (v).y)
