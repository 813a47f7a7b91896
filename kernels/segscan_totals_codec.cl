/*
 * segscan_totals_codec.cl - a segment totals' element of segscan_lift.cl
 * (SK_SEG_TOTALS: value and head count) as two look-back counters
 * (lookback.cl's SK_LB_PARTS), for the single pass of the run totals by key
 * (bykey_lift_io.cl):
 *   part 0  the head count c (33 bits: fewer than 2^33 elements);
 *   part 1  the value's at most 4 bytes and the head flag (c != 0), as
 *           segscan_lift_codec.cl codes them; with SK_SEG_CODE_COUNTS the
 *           value is an integer count below 2^32 in a wider type (the run
 *           lengths of fewer than 2^32 elements).
 * Each part is a monoid of its own under sk_seg_combine: the count adds, and
 * (v, f) combines as the segmented scan's element (f as a count of 0 or 1
 * heads), whatever the other part.
 * The host gives this text as the look-back codec only where n allows it.
 * With SK_LB_WIDE (the host's word that n is below 2^30) the element
 * takes one word without epoch instead: the value's 4 bytes (or count) in
 * bits 0-31 and the head count (below 2^30) above them; its flag is the
 * count's being nonzero, as in the element itself.
 */
#if defined(SK_SEG_CODE_COUNTS)
uint sk_seg_value_bits(sk_val_t v) { return (uint)v; }
sk_val_t sk_seg_value_of(uint u) { return (sk_val_t)u; }
#else
typedef char sk_seg_totals_code_fits[(sizeof(sk_val_t) <= 4) ? 1 : -1];
typedef union { sk_val_t v; uint u; } sk_seg_totals_bits;

uint sk_seg_value_bits(sk_val_t v)
{
    sk_seg_totals_bits b;
    b.u = 0;
    b.v = v;
    return b.u;
}

sk_val_t sk_seg_value_of(uint u)
{
    sk_seg_totals_bits b;
    b.u = u;
    return b.v;
}
#endif

#if defined(SK_LB_WIDE)
ulong sk_lb_encode(sk_seg_t x) { return sk_seg_value_bits(x.v) | ((ulong)x.c << 32); }

sk_seg_t sk_lb_decode(ulong code)
{
    sk_seg_t r = sk_seg(sk_seg_value_of((uint)code), 0);
    r.c = (SK_SEG_COUNT_T)(code >> 32);
    return r;
}
#else
#define SK_LB_PARTS 1
#define SK_LB_COUNTERS 2

ulong sk_lb_encode_part(sk_seg_t x, uint p)
{
    if (p == 0) return x.c;
    return sk_seg_value_bits(x.v) | ((ulong)sk_seg_head(x) << 32);
}

/* Part 0 decodes to (identity, c), part 1 to (v, f): a count of 0 or 1
 * heads, which combines with others of its part as the flag would (its
 * code keeps only whether it is 0). */
sk_seg_t sk_lb_decode_part(ulong code, uint p)
{
    sk_seg_t r;
    if (p == 0) {
        r = sk_seg(sk_val_identity(), 0);
        r.c = (SK_SEG_COUNT_T)code;
    } else {
        r = sk_seg(sk_seg_value_of((uint)code), (uint)(code >> 32) & 1u);
    }
    return r;
}

/* One work-item: the value in parts[0], its parts in parts[0 .. 1] (the
 * head count, whose flag is the value's, from part 0). */
void sk_lb_join_parts(__local sk_seg_t *parts)
{
    parts[0].v = parts[1].v;
}
#endif /* SK_LB_WIDE */
