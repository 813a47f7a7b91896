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
 * With SK_SEG_TOTALS an element also counts heads, (v, f, c): c - 1 is the
 * segment it belongs to. The flag steers the select, a value never does.
 */

#ifndef SK_VAL_T
#error "segscan_lift.cl: SK_VAL_T must be defined by the host configuration"
#endif

typedef SK_VAL_T sk_val_t;
sk_val_t sk_val_op(sk_val_t a, sk_val_t b) { return SK_VAL_COMBINE; }
sk_val_t sk_val_identity(void) { return SK_VAL_IDENTITY; }

typedef struct {
    sk_val_t v;
    uint f;
#ifdef SK_SEG_TOTALS
    ulong c;
#endif
} sk_seg_t;

sk_seg_t sk_seg(sk_val_t v, uint f)
{
    sk_seg_t r;
    r.v = v;
    r.f = f;
#ifdef SK_SEG_TOTALS
    r.c = f;
#endif
    return r;
}

sk_seg_t sk_seg_combine(sk_seg_t a, sk_seg_t b)
{
    sk_seg_t r;
    r.f = a.f | b.f;
    r.v = b.f ? b.v : sk_val_op(a.v, b.v);
#ifdef SK_SEG_TOTALS
    r.c = a.c + b.c;
#endif
    return r;
}

#define SK_SEG_IDENTITY sk_seg(sk_val_identity(), 0)
