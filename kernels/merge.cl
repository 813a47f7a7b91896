/*
 * merge.cl - stable merge of two sorted sequences a[0 .. na) and
 * b[0 .. nb) into dst[0 .. na + nb), or of every pair of neighbouring
 * sorted runs of one array (a merge sort's pass), by merge path, in two
 * shapes. sort_keys.cl (the configuration of the key, the key order) comes
 * before it; the merge orders keys by its sk_key_before: the radix sort's
 * order, or the caller's less (the comparator sort, sort_less.cl, which
 * places this file in its configuration and builds on its merges).
 *
 * The host places a configuration before this text:
 *   SK_KEY_T, SK_KEY_BITS, SK_KEY_KIND   the key (sort_keys.cl), or
 *   SK_KEY_T, SK_KEY_LESS and sk_less()  a caller's type and order
 *   SK_VAL_T       the values' type when values travel with the keys
 *                  (pairs): uint, ulong, or a struct of the value's bytes
 *   SK_SHAPE_GPU   tiles of SK_WG x SK_ITEMS outputs per work-group (after
 *                  block.cl and tile.cl)
 *   or SK_SHAPE_CPU one work-item per chunk of outputs, work-group size 1
 *
 * Order: the radix sort's (sort_keys.cl's sk_key_bits with `flip`, all
 * ones for descending) over the bits of `mask`, or the caller's less
 * (sk_key_before; `flip` and `mask` unused).
 * Stable: an element of b
 * goes before an element of a only when its key is strictly before a's, so
 * among equal keys every element of a comes first, and each input keeps its
 * order.
 *
 * Merge path (Odeh, Green, Mwassi, Shmueli, Birk 2012; Green, McColl,
 * Bader 2012): the first d outputs are a[0 .. i) and b[0 .. d - i) for the
 * i that a binary search along the output diagonal d finds. One small
 * kernel finds the split of every chunk (or tile) boundary, d = p * step,
 * into splits[p] (or, on the GPU shape, each tile finds its own two by a
 * search of its work-group, where the parts are few); then every chunk
 * (or tile) merges exactly its step outputs, whatever the keys (all equal,
 * disjoint ranges, interleaved).
 * Inputs that are not sorted still give in-bounds reads and writes: each
 * part takes at most its count from each side (the splits are clamped).
 *
 * Every kernel takes `width`: 0 for the one merge of a and b; else a and b
 * are the same array of na elements (nb unused), in sorted runs of width
 * elements, and each pair of neighbouring runs, [s, s + width) and
 * [s + width, s + 2 * width) for s a multiple of 2 * width (cut at na),
 * merges into the same positions of dst. The step of the parts then
 * divides 2 * width, so no part spans two merges (sk_merge_span_of).
 *
 * And `groups` (from its uint64 groups_at on), `ngroups`: where ngroups is
 * not 0 (width 0, a and b the same array of na elements), a round of a
 * merge of runs of any lengths:
 * ngroups merges, merge g of [start[g], mid[g]) and [mid[g], start[g + 1])
 * into the same positions of dst, its parts first[g] .. first[g + 1] - 1
 * each of step outputs from start[g] on (the last one cut at the merge's
 * end), so no part spans two merges either. groups holds first[0 ..
 * ngroups] (first[ngroups]: the parts), start[0 .. ngroups] (start[ngroups]:
 * na), mid[0 .. ngroups) one after another (sk_merge_part_of).
 */

#ifndef SK_KEY_T
#error "merge.cl: SK_KEY_T must be defined by the host configuration"
#endif

#if defined(SK_VAL_T)
#define SK_HAS_VAL 1
#define SK_VAL_IN_PARAMS , __global const SK_VAL_T *av, __global const SK_VAL_T *bv
#define SK_VAL_OUT_PARAMS , __global SK_VAL_T *dv
#define SK_SERIAL_VAL_PARAMS                                                   \
    , __global const SK_VAL_T *av, __global const SK_VAL_T *bv, __global SK_VAL_T *dv
#define SK_SERIAL_VALS(av, bv, dv) , av, bv, dv
#define SK_VAL_IN_ARGS , av, bv
#define SK_VAL_OUT_ARGS , dv
#define SK_TILE_LS_PARAM , __local uint *ls
#define SK_TILE_LS_ARG , ls
#else
#define SK_VAL_IN_PARAMS
#define SK_VAL_OUT_PARAMS
#define SK_SERIAL_VAL_PARAMS
#define SK_SERIAL_VALS(av, bv, dv)
#define SK_VAL_IN_ARGS
#define SK_VAL_OUT_ARGS
#define SK_TILE_LS_PARAM
#define SK_TILE_LS_ARG
#endif

/* Whether key y (of b) goes before key x (of a): strictly before. In the
 * radix sort's order by the bits of `mask` only (a bit range's bits
 * compared in place order as when shifted down: the merge of runs sorted
 * by a range; all ones for whole keys); the caller's less ignores it. */
bool sk_merge_b_first(SK_KEY_T x, SK_KEY_T y, SK_ORDER_T flip, SK_ORDER_T mask)
{
#ifdef SK_KEY_LESS
    (void)mask;
    return sk_key_before(y, x, flip);
#else
    return (sk_key_bits(y, flip) & mask) < (sk_key_bits(x, flip) & mask);
#endif
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
                                                flip, mask));                  \
    } while (0)

/* One merge of a kernel's: outputs [out0, out0 + na + nb) from
 * a[a0 .. a0 + na) and b[b0 .. b0 + nb). */
typedef struct sk_merge_span {
    ulong out0, a0, na, b0, nb;
} sk_merge_span;

/* The merge that output o (at most the outputs' count) belongs to, for
 * the kernels' (na, nb, width): the whole merge for width 0, else the pair
 * of runs of width holding o. */
sk_merge_span sk_merge_span_of(ulong o, ulong na, ulong nb, ulong width)
{
    sk_merge_span s = {0, 0, na, 0, nb};
    if (width == 0) return s;
    s.out0 = o - o % (2 * width);
    s.a0 = s.out0;
    s.na = min(width, na - s.out0);
    s.b0 = s.out0 + s.na;
    s.nb = min(width, na - s.b0);
    return s;
}

/* The outputs of the kernels' (na, nb, width). */
ulong sk_merge_total(ulong na, ulong nb, ulong width)
{
    return width ? na : na + nb;
}

/* Part p of a kernel's parts of step outputs: its outputs [o, end) and the
 * merge s they belong to. */
typedef struct sk_merge_part {
    sk_merge_span s;
    ulong o, end;
} sk_merge_part;

/* Part p (at most the parts' count) of a round of groups (see the top of
 * the file): merge g, the last one whose first part is at most p. */
sk_merge_part sk_merge_group_part(ulong p, ulong step, __global const ulong *groups,
                                  ulong ngroups)
{
    __global const ulong *first = groups, *start = groups + ngroups + 1;
    __global const ulong *mid = start + ngroups + 1;
    ulong g = 1;
    SK_PARTITION_POINT(ulong, g, ngroups, first[mid_] > p);
    g -= 1;
    sk_merge_part r;
    r.s.out0 = start[g];
    r.s.a0 = start[g];
    r.s.na = mid[g] - start[g];
    r.s.b0 = mid[g];
    r.s.nb = start[g + 1] - mid[g];
    r.o = min(start[g] + (p - first[g]) * step, start[g + 1]);
    r.end = min(r.o + step, start[g + 1]);
    return r;
}

/* Part p (at most the parts' count) of the kernels' (na, nb, width,
 * groups, ngroups). */
sk_merge_part sk_merge_part_of(ulong p, ulong step, ulong na, ulong nb, ulong width,
                               __global const ulong *groups, ulong ngroups)
{
    if (ngroups) return sk_merge_group_part(p, step, groups, ngroups);
    ulong total = sk_merge_total(na, nb, width);
    sk_merge_part r;
    r.o = min(p * step, total);
    r.end = min(r.o + step, total);
    r.s = sk_merge_span_of(r.o, na, nb, width);
    return r;
}

#define SK_SPAN_A(i) a[s.a0 + (i)]
#define SK_SPAN_B(j) b[s.b0 + (j)]

/* splits[p] for p <= parts: how many of the outputs of part p's merge
 * before the part's first output come from that merge's a. */
__kernel void sk_merge_partition(__global const SK_KEY_T *a, __global const SK_KEY_T *b,
                                 __global ulong *splits, ulong na, ulong nb, ulong width,
                                 __global const ulong *groups, ulong groups_at,
                                 ulong ngroups, ulong step, ulong parts, SK_ORDER_T flip,
                                 SK_ORDER_T mask)
{
    ulong p = get_global_id(0);
    if (p > parts) return;
    sk_merge_part part = sk_merge_part_of(p, step, na, nb, width, groups + groups_at, ngroups);
    sk_merge_span s = part.s;
    ulong i;
    SK_MERGE_PATH(ulong, i, SK_SPAN_A, SK_SPAN_B, s.na, s.nb, part.o - s.out0);
    splits[p] = i;
}

/* A part's share of a, from_a, between its splits i0 and i1 (its first
 * output's and the next part's), clamped to [0, count]. */
ulong sk_merge_share(ulong i0, ulong i1, ulong count)
{
    return i1 > i0 ? min(i1 - i0, count) : 0;
}

/* Part p's share of its merge s's a: the part's outputs [o, o + count)
 * are a[s.a0 + splits[p] ..][0 .. from_a) and the next count - from_a of
 * b from b[s.b0 + (o - s.out0 - splits[p])], from_a clamped to [0, count]
 * (a part that ends its merge ends at a's end). */
ulong sk_merge_from_a(__global const ulong *splits, ulong p, ulong o, ulong count,
                      sk_merge_span s)
{
    ulong i1 = o + count == s.out0 + s.na + s.nb ? s.na : splits[p + 1];
    return sk_merge_share(splits[p], i1, count);
}

/* Merges a[i .. ie) and b[j .. je) into dst from o on, in order (and the
 * values alike): the serial merge of the CPU shape's parts and of the
 * comparator sort's chunks. */
void sk_merge_serial(__global const SK_KEY_T *a, ulong i, ulong ie, __global const SK_KEY_T *b,
                     ulong j, ulong je, __global SK_KEY_T *restrict dst,
                     ulong o SK_SERIAL_VAL_PARAMS, SK_ORDER_T flip, SK_ORDER_T mask)
{
    /* if-else, not ?:, and dst restrict: a struct element copied from
     * global memory to global memory that may overlap becomes a memmove,
     * which Oclgrind 21.10's --uninitialized plugin cannot run */
    while (i < ie && j < je) {
        SK_KEY_T x = a[i], y = b[j];
        bool take_b = sk_merge_b_first(x, y, flip, mask);
        if (take_b) {
            dst[o] = y;
#if defined(SK_HAS_VAL)
            dv[o] = bv[j];
#endif
        } else {
            dst[o] = x;
#if defined(SK_HAS_VAL)
            dv[o] = av[i];
#endif
        }
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
#if defined(SK_SHAPE_CPU)

/* Work-item c merges its part's outputs (sk_merge_part_of), in order. */
__kernel void sk_merge_chunks(__global const SK_KEY_T *a,
                              __global const SK_KEY_T *b SK_VAL_IN_PARAMS,
                              __global const ulong *splits,
                              __global SK_KEY_T *dst SK_VAL_OUT_PARAMS, ulong na, ulong nb,
                              ulong width, __global const ulong *groups, ulong groups_at,
                              ulong ngroups, ulong chunk, SK_ORDER_T flip, SK_ORDER_T mask)
{
    ulong c = get_global_id(0);
    sk_merge_part part = sk_merge_part_of(c, chunk, na, nb, width, groups + groups_at, ngroups);
    sk_merge_span s = part.s;
    ulong o = part.o, end = part.end;
    ulong from_a = sk_merge_from_a(splits, c, o, end - o, s);
    ulong i = s.a0 + splits[c], j = s.b0 + (o - s.out0 - splits[c]);
    sk_merge_serial(a, i, i + from_a, b, j, j + (end - o - from_a), dst,
                    o SK_SERIAL_VALS(av, bv, dv), flip, mask);
}

/* ======================================================================= */
#elif defined(SK_SHAPE_GPU)

/* Local runs lk[a0 .. a0 + ta) and lk[a0 + ta .. a0 + ta + tb) (tile
 * positions). */
#define SK_LOCAL_A(i) lk[SK_TILE_POS(a0 + (i))]
#define SK_LOCAL_B(j) lk[SK_TILE_POS(a0 + ta + (j))]

/* The work-group layer of the merge: this work-item's outputs
 * [d, min(d + SK_ITEMS, ta + tb)) of the merge of two neighbouring runs in
 * local memory, found by merge path there: key[k] the output d + k,
 * from[k] the tile position it comes from (past the runs' end, key[k] and
 * from[k] are not outputs: the caller stores only up to ta + tb). The
 * next key of each run waits in a register; each output reads local
 * memory once, at the position after the one taken, clamped into the runs
 * so that every read is of a key the runs hold, and SK_ITEMS times
 * whatever the runs' end (no branch: the outputs stay in registers).
 * Reads lk only (no barrier). */
void sk_merge_local(__local const SK_KEY_T *lk, uint a0, uint ta, uint tb, uint d,
                    SK_KEY_T *key, uint *from, SK_ORDER_T flip, SK_ORDER_T mask)
{
    uint i;
    SK_MERGE_PATH(uint, i, SK_LOCAL_A, SK_LOCAL_B, ta, tb, d);
    uint j = d - i;
    if (ta + tb == 0) return;
    uint last = a0 + ta + tb - 1;
    SK_KEY_T ka = lk[SK_TILE_POS(min(a0 + i, last))];
    SK_KEY_T kb = lk[SK_TILE_POS(min(a0 + ta + j, last))];
#pragma unroll
    for (uint k = 0; k < SK_ITEMS; k++) {
        bool take_b = i >= ta || (j < tb && sk_merge_b_first(ka, kb, flip, mask));
        from[k] = take_b ? a0 + ta + j : a0 + i;
        j += take_b;
        i += !take_b;
        SK_KEY_T next = lk[SK_TILE_POS(min(take_b ? a0 + ta + j : a0 + i, last))];
        /* if-else, not ?:, for the keys: a struct key's ?: becomes a
         * memmove, which Oclgrind 21.10's --uninitialized cannot run */
        if (take_b) {
            key[k] = kb;
            kb = next;
        } else {
            key[k] = ka;
            ka = next;
        }
    }
}

/* The merge-path splits lo[0] and lo[1] of diagonals d[0] and d[1] of
 * merge s (each SK_MERGE_PATH's i, reading a and b as the partition
 * does), found by the whole work-group (every work-item calls it, with the
 * same arguments): rounds of SK_WG probes of each diagonal at once, each
 * round narrowing the range to about 1 / (SK_WG + 1) of it by the count of
 * probes that fall before the split (the condition is monotone in the
 * probe's place; for unsorted inputs the splits stay in range). A probe
 * past b's end reads b's last key, never used. cnt: 6 words of local
 * memory, three pairs of counters in turn, so that one barrier a round
 * separates every counter's zeroing, counting and reading. */
void sk_merge_splits_wg(__global const SK_KEY_T *a, __global const SK_KEY_T *b, sk_merge_span s,
                        ulong *d, ulong *lo, __local uint *cnt, SK_ORDER_T flip,
                        SK_ORDER_T mask)
{
    uint lid = get_local_id(0);
    ulong hi[2];
    for (uint q = 0; q < 2; q++) {
        hi[q] = min(d[q], s.na);
        lo[q] = s.nb == 0 ? hi[q] : 0;
    }
    if (lid < 6) cnt[lid] = 0;
    SK_BARRIER();
    for (uint r = 0; lo[0] < hi[0] || lo[1] < hi[1]; r = r == 2 ? 0 : r + 1) {
        for (uint q = 0; q < 2; q++) {
            if (lo[q] >= hi[q]) continue;
            ulong mid = lo[q] + (hi[q] - lo[q]) * (lid + 1) / (SK_WG + 1), jb = d[q] - 1 - mid;
            SK_KEY_T x = a[s.a0 + mid], y = b[s.b0 + min(jb, s.nb - 1)];
            if (!(jb < s.nb && sk_merge_b_first(x, y, flip, mask))) atomic_inc(&cnt[2 * r + q]);
        }
        uint next = r == 2 ? 0 : r + 1;
        if (lid < 2) cnt[2 * next + lid] = 0;
        SK_BARRIER();
        for (uint q = 0; q < 2; q++) {
            if (lo[q] >= hi[q]) continue;
            ulong c = cnt[2 * r + q], len = hi[q] - lo[q];
            ulong nhi = c == SK_WG ? hi[q] : lo[q] + len * (c + 1) / (SK_WG + 1);
            if (c) lo[q] += len * c / (SK_WG + 1) + 1;
            hi[q] = nhi;
        }
    }
}

/* Work-group g merges its part's outputs (sk_merge_part_of, parts of
 * SK_TILE): its splits from splits[g] and splits[g + 1] (the partition's),
 * or where `search` found by the work-group itself (sk_merge_splits_wg: no
 * partition launch, for passes of few parts); its share of both inputs
 * into local memory (coalesced), then every work-item finds its own split
 * of the tile by merge path in local memory and merges SK_ITEMS outputs in
 * registers, which go back to local memory and out coalesced. With
 * values, local memory keeps each output's tile position (ls), and the
 * values are read where that position says. Each kernel below passes a
 * constant `search`, so that neither carries the other's code. */
void sk_merge_tile(__global const SK_KEY_T *a, __global const SK_KEY_T *b SK_VAL_IN_PARAMS,
                   __global const ulong *splits, __global SK_KEY_T *dst SK_VAL_OUT_PARAMS,
                   ulong na, ulong nb, ulong width, __global const ulong *groups,
                   ulong groups_at, ulong ngroups, SK_ORDER_T flip, SK_ORDER_T mask,
                   __local SK_KEY_T *lk SK_TILE_LS_PARAM, __local uint *cnt, bool search)
{
    uint lid = get_local_id(0);
    ulong g = get_group_id(0);
    sk_merge_part part =
        sk_merge_part_of(g, SK_TILE, na, nb, width, groups + groups_at, ngroups);
    sk_merge_span s = part.s;
    ulong base = part.o;
    uint count = (uint)(part.end - part.o);
    ulong i0, from_a;
    if (search) {
        ulong dg[2] = {base - s.out0, part.end - s.out0}, sp[2];
        sk_merge_splits_wg(a, b, s, dg, sp, cnt, flip, mask);
        i0 = sp[0];
        from_a = sk_merge_share(sp[0], sp[1], count);
    } else {
        i0 = splits[g];
        from_a = sk_merge_from_a(splits, g, base, count, s);
    }
    uint ta = (uint)from_a, tb = count - ta;
    ulong a0 = s.a0 + i0, b0 = s.b0 + (base - s.out0 - i0);
    for (uint k = 0; k < SK_ITEMS; k++) {
        uint t = k * SK_WG + lid;
        if (t < count) lk[SK_TILE_POS(t)] = t < ta ? a[a0 + t] : b[b0 + (t - ta)];
    }
    SK_BARRIER();

    uint d = min(lid * (uint)SK_ITEMS, count);
    SK_KEY_T key[SK_ITEMS];
    uint from[SK_ITEMS];
    sk_merge_local(lk, 0, ta, tb, d, key, from, flip, mask);
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

#if defined(SK_HAS_VAL)
#define SK_TILE_LS_DECL __local uint ls[SK_TILE_LDS];
#else
#define SK_TILE_LS_DECL
#endif

/* SK_MERGE_TILES_KERNEL(NAME, SEARCH): a kernel of sk_merge_tile with
 * `search` SEARCH; both take the same arguments (the search ignores
 * splits). */
#define SK_MERGE_TILES_KERNEL(NAME, SEARCH)                                                 \
    __kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1))) void NAME(                  \
        __global const SK_KEY_T *a, __global const SK_KEY_T *b SK_VAL_IN_PARAMS,            \
        __global const ulong *splits, __global SK_KEY_T *dst SK_VAL_OUT_PARAMS, ulong na,   \
        ulong nb, ulong width, __global const ulong *groups, ulong groups_at,               \
        ulong ngroups, SK_ORDER_T flip, SK_ORDER_T mask)                                    \
    {                                                                                       \
        __local SK_KEY_T lk[SK_TILE_LDS];                                                   \
        __local uint cnt[6];                                                                \
        SK_TILE_LS_DECL                                                                     \
        sk_merge_tile(a, b SK_VAL_IN_ARGS, splits, dst SK_VAL_OUT_ARGS, na, nb, width,      \
                      groups, groups_at, ngroups, flip, mask, lk SK_TILE_LS_ARG, cnt,       \
                      SEARCH);                                                              \
    }

SK_MERGE_TILES_KERNEL(sk_merge_tiles, false)
SK_MERGE_TILES_KERNEL(sk_merge_tiles_search, true)

#else
#error "merge.cl: define SK_SHAPE_CPU or SK_SHAPE_GPU"
#endif
