/*
 * sort_fields.cl - the sort by fields' kernels: a field of every struct
 * into a key array, in the order the sort has reached so far, and the
 * structs (and values) gathered by the final order.
 *
 * The host places a configuration before this text:
 *   SK_ELEM_T      the caller's struct type
 *   SK_IDX_T       uint, or ulong from 2^32 elements: the indices
 *   sk_field_bits32(x, f), sk_field_bits64(x, f)
 *                  field f of struct x as the bits of its 4- or 8-byte
 *                  key type (0 for a field of the other width)
 *   SK_VAL_T       the values' type when values travel with the structs
 */

#ifndef SK_ELEM_T
#error "sort_fields.cl: SK_ELEM_T must be defined by the host configuration"
#endif

/* SK_DEFINE_EXTRACT(NAME, W, BITS): keys[i] (of W, by BITS) = field
 * `field` of the struct that is i-th in the order so far: src[idx[i]], or
 * (first) src[i], with idx[i] set to i: the identity permutation the
 * first field's sort starts from. */
#define SK_DEFINE_EXTRACT(NAME, W, BITS)                                       \
    __kernel void NAME(__global const SK_ELEM_T *src, __global SK_IDX_T *idx,  \
                       __global W *keys, ulong n, uint field, uint first)      \
    {                                                                          \
        ulong i = get_global_id(0);                                            \
        if (i >= n) return;                                                    \
        SK_IDX_T p = (SK_IDX_T)i;                                              \
        if (first)                                                             \
            idx[i] = p;                                                        \
        else                                                                   \
            p = idx[i];                                                        \
        keys[i] = BITS(src[p], field);                                         \
    }

SK_DEFINE_EXTRACT(sk_fields_extract32, uint, sk_field_bits32)
SK_DEFINE_EXTRACT(sk_fields_extract64, ulong, sk_field_bits64)

/* SK_DEFINE_GATHER(NAME, T): dst[i] = src[idx[i]]. */
#define SK_DEFINE_GATHER(NAME, T)                                              \
    __kernel void NAME(__global const T *src, __global const SK_IDX_T *idx,    \
                       __global T *dst, ulong n)                               \
    {                                                                          \
        ulong i = get_global_id(0);                                            \
        if (i < n) dst[i] = src[idx[i]];                                       \
    }

SK_DEFINE_GATHER(sk_fields_gather, SK_ELEM_T)
#if defined(SK_VAL_T)
SK_DEFINE_GATHER(sk_fields_gather_values, SK_VAL_T)
#endif
