/*
 * bykey_bits.cl - what the run totals by key share (bykey_lift_io.cl,
 * bykey_tile.cl, bykey_tile_join_io.cl): the type a run's total is stored
 * as and, in the GPU shape, the head bits of a work-item's run of keys.
 * The host places it after the lifted monoid (segscan_lift.cl), SK_KB (the
 * keys' same-width unsigned type, uint or ulong; not for the join, which
 * reads no key), SK_BYKEY_COUNT for run-length encoding and, in the GPU
 * shape, SK_SHAPE_GPU and SK_ITEMS (at most 32). Keys compare as bit
 * patterns; they steer flags, never values.
 */

/* A run's total as stored: run lengths (SK_BYKEY_COUNT) go out as uint64,
 * whatever the integer type they are counted in (uint where n is below
 * 2^32); other totals as the monoid's values. */
#if defined(SK_BYKEY_COUNT)
typedef ulong sk_bykey_total_t;
#define SK_BYKEY_TOTAL(v) ((ulong)(v))
#else
typedef sk_val_t sk_bykey_total_t;
#define SK_BYKEY_TOTAL(v) (v)
#endif

/* One head bit per item in a uint: only where SK_ITEMS is at most 32 (the
 * host keeps the tiles that call it so) and the keys' type is given (the
 * tiles' join by the lifted scan, bykey_tile_join_io.cl, reads no key). */
#if defined(SK_SHAPE_GPU) && defined(SK_KB) && SK_ITEMS <= 32

/* Bit k set where element first + k (below n) starts a run: it is element
 * 0, or its key differs from the one before it. */
uint sk_bykey_head_bits(__global const SK_KB *keys, ulong first, ulong n)
{
    uint heads = 0;
    bool whole = first + SK_ITEMS <= n;
    SK_KB prev = 0;
    if (first > 0 && first <= n) prev = keys[first - 1];
#if SK_ITEMS % 4 == 0
    /* 4-byte keys of a whole run at a 16-byte aligned address: four a load */
    const bool words = sizeof(SK_KB) == 4;
    if (words && whole && ((ulong)(keys + first) & 15) == 0) {
        __global const uint4 *w = (__global const uint4 *)(keys + first);
        uint before = (uint)prev;
        for (uint q = 0; q < SK_ITEMS / 4; q++) {
            uint4 k4 = w[q];
            uint4 p4 = (uint4)(before, k4.x, k4.y, k4.z);
            int4 differ = k4 != p4;
            heads |= ((uint)(differ.x != 0) | (uint)(differ.y != 0) << 1 |
                      (uint)(differ.z != 0) << 2 | (uint)(differ.w != 0) << 3)
                     << (4 * q);
            before = k4.w;
        }
        return heads | (uint)(first == 0);
    }
#endif
    for (uint k = 0; k < SK_ITEMS; k++) {
        ulong i = first + k;
        if (whole || i < n) {
            SK_KB key = keys[i];
            heads |= (uint)(i == 0 || key != prev) << k;
            prev = key;
        }
    }
    return heads;
}
#endif
