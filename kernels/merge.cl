/*
 * merge.cl - stable merge of two sorted sequences a[0 .. na) and
 * b[0 .. nb) into dst[0 .. na + nb), by merge path, in two shapes.
 * sort_keys.cl (the configuration of the key, the key order) comes before
 * it; the merge reads the keys as the radix sort does.
 *
 * The host places a configuration before this text:
 *   SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND   the key (sort_keys.cl)
 *   SK_VAL_T       uint or ulong when values travel with the keys (pairs)
 *   SK_SHAPE_GPU   tiles of SK_WG x SK_ITEMS outputs per work-group (after
 *                  block.cl and tile.cl)
 *   or SK_SHAPE_CPU one work-item per chunk of outputs, work-group size 1
 *
 * Order: keys by their transformed bits (sk_key_bits with `flip`: all ones
 * for descending), as the radix sort orders them. Stable: an element of b
 * goes before an element of a only when its key is strictly before a's, so
 * among equal keys every element of a comes first, and each input keeps its
 * order.
 *
 * Merge path (Odeh, Green, Mwassi, Shmueli, Birk 2012; Green, McColl,
 * Bader 2012): the first d outputs are a[0 .. i) and b[0 .. d - i) for the
 * i that a binary search along the output diagonal d finds. One small
 * kernel finds the split of every chunk (or tile) boundary, d = p * step,
 * into splits[p]; then every chunk (or tile) merges exactly its step
 * outputs, whatever the keys (all equal, disjoint ranges, interleaved).
 * Inputs that are not sorted still give in-bounds reads and writes: each
 * part takes at most its count from each side (the splits are clamped).
 */

#ifndef SK_KEY_T
#error "merge.cl: SK_KEY_T must be defined by the host configuration"
#endif

#if defined(SK_VAL_T)
#define SK_HAS_VAL 1
#define SK_VAL_IN_PARAMS , __global const SK_VAL_T *av, __global const SK_VAL_T *bv
#define SK_VAL_OUT_PARAMS , __global SK_VAL_T *dv
#else
#define SK_VAL_IN_PARAMS
#define SK_VAL_OUT_PARAMS
#endif

/* Whether key y (of b) goes before key x (of a): strictly before. */
bool sk_merge_b_first(SK_KEY_T x, SK_KEY_T y, SK_KEY_T flip)
{
    return sk_key_before(y, x, flip);
}

/* SK_MERGE_PATH(I, lo, A_AT, B_AT, na, nb, d): sets lo (of index type I)
 * to the number of the first d outputs that come from a, where A_AT(i) and
 * B_AT(j) read a's element i and b's element j: the first i in
 * [0, min(d, na)] whose a[i] goes after b[d - 1 - i], a b position past nb
 * counting as going after every a. Reads a[0 .. min(d, na)) and b[0 .. nb)
 * only. (Not lo = max(d - nb, 0) first: that subtraction becomes an
 * llvm.usub.sat call, which Oclgrind 21.10 cannot run.) */
#define SK_MERGE_PATH(I, lo, A_AT, B_AT, na, nb, d)                            \
    do {                                                                       \
        lo = (I)0;                                                             \
        SK_PARTITION_POINT(I, lo, min((I)(d), (I)(na)),                        \
                           (I)(d) - 1 - mid_ < (I)(nb) &&                      \
                               sk_merge_b_first(A_AT(mid_),                    \
                                                B_AT((I)(d) - 1 - mid_),       \
                                                flip));                        \
    } while (0)

#define SK_GLOBAL_A(i) a[i]
#define SK_GLOBAL_B(j) b[j]

/* splits[p] for p <= parts: how many of the first min(p * step, na + nb)
 * outputs come from a. */
__kernel void sk_merge_partition(__global const SK_KEY_T *a, __global const SK_KEY_T *b,
                                 __global ulong *splits, ulong na, ulong nb, ulong step,
                                 ulong parts, SK_KEY_T flip)
{
    ulong p = get_global_id(0);
    if (p > parts) return;
    ulong d = min(p * step, na + nb), i;
    SK_MERGE_PATH(ulong, i, SK_GLOBAL_A, SK_GLOBAL_B, na, nb, d);
    splits[p] = i;
}

/* A part's share of each input: part p's outputs [d0, d0 + count) are
 * a[i0 .. i0 + *from_a) and b[d0 - i0 .. d0 - i0 + count - *from_a),
 * from_a clamped to [0, count]. */
ulong sk_merge_from_a(__global const ulong *splits, ulong p, ulong count)
{
    ulong i0 = splits[p], i1 = splits[p + 1];
    return i1 > i0 ? min(i1 - i0, count) : 0;
}

/* ======================================================================= */
#if defined(SK_SHAPE_CPU)

/* Work-item c merges outputs [c * chunk, min((c + 1) * chunk, na + nb)),
 * in order. */
__kernel void sk_merge_chunks(__global const SK_KEY_T *a,
                              __global const SK_KEY_T *b SK_VAL_IN_PARAMS,
                              __global const ulong *splits,
                              __global SK_KEY_T *dst SK_VAL_OUT_PARAMS, ulong na, ulong nb,
                              ulong chunk, SK_KEY_T flip)
{
    ulong c = get_global_id(0);
    ulong o = c * chunk, end = min(o + chunk, na + nb);
    ulong from_a = sk_merge_from_a(splits, c, end - o);
    ulong i = splits[c], j = o - i;
    ulong ie = i + from_a, je = j + (end - o - from_a);
    while (i < ie && j < je) {
        SK_KEY_T x = a[i], y = b[j];
        bool take_b = sk_merge_b_first(x, y, flip);
        dst[o] = take_b ? y : x;
#if defined(SK_HAS_VAL)
        dv[o] = take_b ? bv[j] : av[i];
#endif
        o++;
        j += take_b;
        i += !take_b;
    }
    for (; i < ie; i++, o++) {
        dst[o] = a[i];
#if defined(SK_HAS_VAL)
        dv[o] = av[i];
#endif
    }
    for (; j < je; j++, o++) {
        dst[o] = b[j];
#if defined(SK_HAS_VAL)
        dv[o] = bv[j];
#endif
    }
}

/* ======================================================================= */
#elif defined(SK_SHAPE_GPU)

/* Tile elements j: a's share at [0, ta), b's at [ta, ta + tb). */
#define SK_TILE_A(i) lk[SK_TILE_POS(i)]
#define SK_TILE_B(j) lk[SK_TILE_POS(ta + (j))]

/* Work-group g merges outputs [g * SK_TILE, min((g + 1) * SK_TILE, na + nb)):
 * its share of both inputs into local memory (coalesced), then every
 * work-item finds its own split of the tile by merge path in local memory
 * and merges SK_ITEMS outputs in registers, which go back to local memory
 * and out coalesced. With values, local memory keeps each output's tile
 * position, and the values are read where that position says. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_merge_tiles(__global const SK_KEY_T *a, __global const SK_KEY_T *b SK_VAL_IN_PARAMS,
                    __global const ulong *splits, __global SK_KEY_T *dst SK_VAL_OUT_PARAMS,
                    ulong na, ulong nb, SK_KEY_T flip)
{
    __local SK_KEY_T lk[SK_TILE_LDS];
#if defined(SK_HAS_VAL)
    __local uint ls[SK_TILE_LDS];
#endif
    uint lid = get_local_id(0);
    ulong g = get_group_id(0);
    ulong base = g * SK_TILE;
    uint count = (uint)min((ulong)SK_TILE, na + nb - base);
    uint ta = (uint)sk_merge_from_a(splits, g, count), tb = count - ta;
    ulong a0 = splits[g], b0 = base - a0;
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint t = k * SK_WG + lid;
        if (t < count) lk[SK_TILE_POS(t)] = t < ta ? a[a0 + t] : b[b0 + (t - ta)];
    }
    SK_BARRIER();

    uint d = min(lid * (uint)SK_ITEMS, count), i;
    SK_MERGE_PATH(uint, i, SK_TILE_A, SK_TILE_B, ta, tb, d);
    uint j = d - i;
    SK_KEY_T key[SK_ITEMS];
#if defined(SK_HAS_VAL)
    uint from[SK_ITEMS];
#endif
    for (uint k = 0; k < SK_ITEMS; k++) {
        if (d + k >= count) break;
        bool take_b = i >= ta || (j < tb && sk_merge_b_first(SK_TILE_A(i), SK_TILE_B(j), flip));
        key[k] = take_b ? SK_TILE_B(j) : SK_TILE_A(i);
#if defined(SK_HAS_VAL)
        from[k] = take_b ? ta + j : i;
#endif
        j += take_b;
        i += !take_b;
    }
    SK_BARRIER();
    for (uint k = 0; k < SK_ITEMS; k++) {
        if (d + k >= count) break;
        lk[SK_TILE_POS(d + k)] = key[k];
#if defined(SK_HAS_VAL)
        ls[SK_TILE_POS(d + k)] = from[k];
#endif
    }
    SK_BARRIER();
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint t = k * SK_WG + lid;
        if (t >= count) continue;
        dst[base + t] = lk[SK_TILE_POS(t)];
#if defined(SK_HAS_VAL)
        uint f = ls[SK_TILE_POS(t)];
        dv[base + t] = f < ta ? av[a0 + f] : bv[b0 + (f - ta)];
#endif
    }
}

#else
#error "merge.cl: define SK_SHAPE_CPU or SK_SHAPE_GPU"
#endif
