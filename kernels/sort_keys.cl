/*
 * sort_keys.cl - what both shapes of the radix sort (sort.cl: GPU,
 * sort_cpu.cl: CPU) share: the configuration and the key order. The
 * merge (merge.cl) orders its keys by it too, so that a merge and a sort
 * agree on every key type and order.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T       uchar, ushort, uint or ulong: the key's bits (keys are
 *                  never converted; float16 keys are ushort bit patterns)
 *   SK_KEY_BITS    8, 16, 32 or 64
 *   SK_KEY_KIND    0 unsigned, 1 signed integer, 2 IEEE float
 *   SK_COUNT_T     uint, or ulong when n may reach 2^32
 *   SK_RADIX_BITS  digit width (GPU shape: at most 8); SK_RADIX = 1 << SK_RADIX_BITS
 *   SK_VAL_T       uint or ulong when values travel with the keys (pairs),
 *   SK_VAL_BITS    32 or 64 with it
 *   SK_SHAPE_GPU   tiles of SK_WG x SK_ITEMS keys per work-group
 *   or SK_SHAPE_CPU one work-item per contiguous chunk, work-group size 1
 *
 * Keys are ordered by their transformed bits (sk_key_bits): unsigned keys
 * as they are, signed keys with the sign bit flipped, floats in IEEE
 * totalOrder (all bits flipped when the sign is set, else the sign bit), and
 * `flip` (all ones for descending, else 0) XOR-ed on top. One pass sorts by
 * the digit (bits >> shift) & mask; sk_key_unbits inverts sk_key_bits. Histograms are digit-major: the count of
 * digit d in part p (chunk or tile) of P parts is hist[d * P + p], so that
 * after an exclusive scan hist[d * P + p] is where part p's keys of digit d
 * go. Every pass is stable, so the whole sort is. The merge (merge.cl) and
 * the sorted search (search.cl) compare keys by sk_key_before and find
 * where a condition starts to hold by SK_PARTITION_POINT.
 *
 * With SK_KEY_LESS the order is a caller's instead (the comparator sort,
 * sort_less.cl): SK_KEY_T is any type, the configuration defines
 * bool sk_less(SK_KEY_T a, SK_KEY_T b) (a strict weak order), and
 * sk_key_before is sk_less; SK_ORDER_T, the type of the `flip` the order
 * takes, is then an unused uint (else SK_KEY_T). Nothing else of this file
 * is defined then: there are no bits to sort by.
 */

#ifndef SK_KEY_T
#error "sort_keys.cl: SK_KEY_T must be defined by the host configuration"
#endif

#if defined(SK_KEY_LESS)

#define SK_ORDER_T uint

/* Whether key x goes strictly before key y in the caller's order. */
bool sk_key_before(SK_KEY_T x, SK_KEY_T y, SK_ORDER_T flip)
{
    (void)flip;
    return sk_less(x, y);
}

#else

#define SK_ORDER_T SK_KEY_T
#define SK_RADIX (1u << SK_RADIX_BITS)
#define SK_SIGN ((SK_KEY_T)1 << (SK_KEY_BITS - 1))

/* The bits a key is ordered by (see the top of the file). For 8- and
 * 16-bit keys the arithmetic is on int (promotion); the result is cut back
 * to SK_KEY_T's bits on return. */
SK_KEY_T sk_key_bits(SK_KEY_T k, SK_KEY_T flip)
{
#if SK_KEY_KIND == 1
    k ^= SK_SIGN;
#elif SK_KEY_KIND == 2
    /* Sign set: all ones (flip every bit); sign clear: the sign bit. */
    SK_KEY_T m = ((SK_KEY_T)0 - (k >> (SK_KEY_BITS - 1))) | SK_SIGN;
    k ^= m;
#endif
    return k ^ flip;
}

/* The key whose order bits (sk_key_bits with the same flip) are b. */
SK_KEY_T sk_key_unbits(SK_KEY_T b, SK_KEY_T flip)
{
    b ^= flip;
#if SK_KEY_KIND == 1
    b ^= SK_SIGN;
#elif SK_KEY_KIND == 2
    /* Top bit set: a key whose sign was clear; else one whose every bit flipped. */
    b = (b >> (SK_KEY_BITS - 1)) ? b ^ SK_SIGN : ~b;
#endif
    return b;
}

uint sk_digit(SK_KEY_T k, SK_KEY_T flip, uint shift, uint mask)
{
    return (uint)(sk_key_bits(k, flip) >> shift) & mask;
}

/* Whether key x goes strictly before key y in the order. */
bool sk_key_before(SK_KEY_T x, SK_KEY_T y, SK_KEY_T flip)
{
    return sk_key_bits(x, flip) < sk_key_bits(y, flip);
}

#endif /* SK_KEY_LESS */

/* SK_PARTITION_POINT(I, lo, hi, COND): a binary search. lo (a variable of
 * index type I) holds the start of a range [lo, hi) over which COND, an
 * expression of the index mid_, is false and then true; sets lo to the
 * first index at which COND holds, or to hi where it holds nowhere. COND
 * is evaluated at indices in [lo, hi) only. (mid_ is lo + (hi - lo) / 2,
 * never a saturating subtraction: Oclgrind 21.10 cannot run
 * llvm.usub.sat.) */
#define SK_PARTITION_POINT(I, lo, hi, COND)                                    \
    do {                                                                       \
        I hi_ = (hi);                                                          \
        while (lo < hi_) {                                                     \
            I mid_ = lo + (hi_ - lo) / 2;                                      \
            if (COND)                                                          \
                hi_ = mid_;                                                    \
            else                                                               \
                lo = mid_ + 1;                                                 \
        }                                                                      \
    } while (0)
