/*
 * segscan_lift.cl - the lifted monoid of the segmented scan, for scan.cl.
 *
 * The host places this text in the preamble of a scan.cl program, after
 * the caller's monoid (its preamble, then SK_VAL_T, SK_VAL_IDENTITY and
 * SK_VAL_COMBINE, an expression of a and b) and, for segment totals,
 * SK_SEG_TOTALS. The scan's element is sk_seg_t, its identity
 * SK_SEG_IDENTITY and its operator sk_seg_combine; segscan_lift_io.cl loads
 * and stores it.
 *
 * An element is (v, f): its value and whether it starts a segment.
 * (v1, f1) + (v2, f2) = (f2 ? v2 : v1 op v2, f1 | f2) is associative and
 * not commutative; its inclusive scan carries the segmented scan in v.
 * With SK_SEG_TOTALS an element counts heads instead, (v, c): c - 1 is the
 * segment it belongs to, and its flag is c != 0 (the count of heads in a
 * range is not 0 exactly where one of them is a head), so the element
 * carries no flag of its own: (v1, c1) + (v2, c2) = (c2 ? v2 : v1 op v2,
 * c1 + c2). The count is SK_SEG_COUNT_T, which the host sets to uint
 * where n is below 2^32 (ulong by default): the totals' element of a
 * 4-byte value is 8 bytes, as the scan's (v, f), not 16 (v, f and a
 * 64-bit count). sk_seg_head(x) reads the flag either way. The flag steers
 * the select, a value never does.
 */

#ifndef SK_VAL_T
#error "segscan_lift.cl: SK_VAL_T must be defined by the host configuration"
#endif

typedef SK_VAL_T sk_val_t;
sk_val_t sk_val_op(sk_val_t a, sk_val_t b) { return SK_VAL_COMBINE; }
sk_val_t sk_val_identity(void) { return SK_VAL_IDENTITY; }

#ifdef SK_SEG_TOTALS
#ifndef SK_SEG_COUNT_T
#define SK_SEG_COUNT_T ulong
#endif
typedef struct {
    sk_val_t v;
    SK_SEG_COUNT_T c;
} sk_seg_t;
#define sk_seg_head(x) ((uint)((x).c != 0))
#else
typedef struct {
    sk_val_t v;
    uint f;
} sk_seg_t;
#define sk_seg_head(x) ((x).f)
#endif

/* (v, f); with SK_SEG_TOTALS (v, c) counting f (0 or 1) heads. */
sk_seg_t sk_seg(sk_val_t v, uint f)
{
    sk_seg_t r;
    r.v = v;
#ifdef SK_SEG_TOTALS
    r.c = f;
#else
    r.f = f;
#endif
    return r;
}

sk_seg_t sk_seg_combine(sk_seg_t a, sk_seg_t b)
{
    sk_seg_t r;
    r.v = sk_seg_head(b) ? b.v : sk_val_op(a.v, b.v);
#ifdef SK_SEG_TOTALS
    r.c = a.c + b.c;
#else
    r.f = a.f | b.f;
#endif
    return r;
}

#define SK_SEG_IDENTITY sk_seg(sk_val_identity(), 0)
