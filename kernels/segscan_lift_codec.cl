/*
 * segscan_lift_codec.cl - a lifted element of segscan_lift.cl (not
 * SK_SEG_TOTALS, whose head count does not fit) in the 33 bits of a
 * look-back word: the value's at most 4 bytes and the head flag. The host
 * gives this text to the scan as the look-back codec (lookback.cl's
 * SK_LB_CODEC) where the value has at most 4 bytes.
 */

typedef char sk_seg_code_fits[(sizeof(sk_val_t) <= 4) ? 1 : -1];
typedef union { sk_val_t v; uint u; } sk_seg_bits;

ulong sk_lb_encode(sk_seg_t x)
{
    sk_seg_bits b;
    b.u = 0;
    b.v = x.v;
    return b.u | ((ulong)(x.f != 0) << 32);
}

sk_seg_t sk_lb_decode(ulong c)
{
    sk_seg_bits b;
    b.u = (uint)c;
    return sk_seg(b.v, (uint)(c >> 32));
}
