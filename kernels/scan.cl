/*
 * scan.cl - work-efficient scan and reduce over any monoid, in two shapes.
 *
 * The host places a configuration before this text:
 *   SK_T            element type (any OpenCL C type, structs included)
 *   SK_T_SIZE       sizeof(SK_T) as the host lays it out
 *   SK_IDENTITY     identity expression
 *   sk_op(a, b)     the associative operator, a function (never swapped)
 *   SK_SHAPE_GPU    tiles of SK_WG x SK_ITEMS elements per work-group
 *   or SK_SHAPE_CPU one work-item per contiguous chunk, work-group size 1
 * and optionally SK_IN_PARAMS / SK_IN_ARGS / SK_LOAD(i) and SK_OUT_PARAMS /
 * SK_OUT_ARGS / SK_STORE(i, v) to read and write elements some other way
 * than from an SK_T array (other primitives lift their data into the monoid
 * this way and reuse these kernels).
 *
 * Rule for every function here: element values are only created from
 * SK_IDENTITY or SK_LOAD, combined with sk_op and stored. No value ever
 * steers a branch or an address, so the interval-of-summations test is a
 * proof of correctness for every monoid at the sizes it runs.
 *
 * The GPU shape is built on block.cl (the work-group scan and reduce) and
 * tile.cl (a tile's layout in local memory and its moves between global
 * memory, local memory and registers). A lifted input may bring a tile of
 * its own (SK_OWN_TILE, placed after the block layer: the segmented scan's
 * values and head bits, segscan_tile.cl): then SK_TILE_T is what its tile
 * holds in local memory, sk_tile_regs what a work-item holds in registers,
 * and it defines sk_tile_load, sk_thread_reduce and sk_tile_store with the
 * signatures below; the kernels here are the same for both.
 *
 * Tiles are combined across work-groups by reduce-then-scan: reduce every
 * tile, scan the tile totals (the host recurses on them), then scan every
 * tile again seeded with its exclusive prefix. With SK_LOOKBACK (and
 * lookback.cl in the configuration) each shape also has a single-pass
 * kernel that finds each tile's (chunk's) prefix by decoupled look-back.
 */

#ifndef SK_T
#error "scan.cl: SK_T must be defined by the host configuration"
#endif

/* The host's layout and the device's must agree. */
typedef char sk_element_size_must_match_host[(sizeof(SK_T) == SK_T_SIZE) ? 1 : -1];

#ifndef SK_IN_PARAMS
#define SK_IN_PARAMS __global const SK_T *src, ulong src_off
#define SK_IN_ARGS src, src_off
#define SK_LOAD(i) src[src_off + (i)]
#define SK_PLAIN_IN 1
#endif

#ifndef SK_OUT_PARAMS
#define SK_OUT_PARAMS __global SK_T *dst, ulong dst_off
#define SK_OUT_ARGS dst, dst_off
#define SK_STORE(i, v) (dst[dst_off + (i)] = (v))
#define SK_PLAIN_OUT 1
#endif

/* ======================================================================= */
#if defined(SK_SHAPE_GPU)

/* Tiles move through tile.cl. Where the host sets SK_TILE_VEC4 (elements
 * of 4 bytes), a tile lies in local memory in swizzled 16-byte slots and
 * moves 16 bytes per local access on both sides, and plain arrays move a
 * whole tile at a 16-byte aligned offset 16 bytes per global access too
 * (13% on the H200 against element accesses: bench/NOTES-gpu.md); every
 * other tile goes element by element through SK_LOAD and SK_STORE. A tile
 * is stored in the pattern it was loaded in (in place, every work-item
 * writes back what it read). */
#if !defined(SK_OWN_TILE)
#define SK_TILE_T SK_T
/* A work-item's elements of a tile, in blocked order. */
typedef SK_T sk_tile_regs[SK_ITEMS];
SK_DEFINE_TILE_IO(sk_tile, SK_T)
/* A whole tile of a plain array by tile.cl's copy (false: the element
 * loop); lifted loads and stores always take the element loops. */
#if defined(SK_PLAIN_IN)
#define SK_TILE_COPY_IN(base, n, lds) sk_tile_copy_in(src, src_off, base, n, lds)
#else
#define SK_TILE_COPY_IN(base, n, lds) false
#endif
#if defined(SK_PLAIN_OUT)
#define SK_TILE_COPY_OUT(base, n, lds) sk_tile_copy_out(dst, dst_off, base, n, lds)
#else
#define SK_TILE_COPY_OUT(base, n, lds) false
#endif

/* Loads one tile (identity past n) into x[] in blocked order: work-item t
 * gets elements t*SK_ITEMS .. t*SK_ITEMS+SK_ITEMS-1 of the tile. Global
 * reads are striped (coalesced) and transposed through local memory. */
void sk_tile_load(SK_IN_PARAMS, ulong base, ulong n, __local SK_T *lds, sk_tile_regs x)
{
    uint lid = get_local_id(0);
    if (!SK_TILE_COPY_IN(base, n, lds)) {
        for (uint k = 0; k < SK_ITEMS; k++) {
            uint j = k * SK_WG + lid;
            ulong i = base + j;
            SK_T v = SK_IDENTITY;
            if (i < n) v = SK_LOAD(i);
            lds[SK_TILE_POS(j)] = v;
        }
    }
    SK_BARRIER();
    sk_tile_to_blocked(lds, x);
}

SK_T sk_thread_reduce(const sk_tile_regs x)
{
    SK_T sum = x[0];
    for (uint k = 1; k < SK_ITEMS; k++) sum = sk_op(sum, x[k]);
    return sum;
}

/* Writes a scanned tile: work-item t's elements x[] (blocked order) start
 * from run, the combination of everything before them. Each run of
 * SK_TILE_RUN results is scanned and put into local memory at once (no
 * scanned copy of x[] lives in registers), then the tile goes out striped
 * (coalesced). A lifted store may read the input parameters too (segment
 * heads), hence both. */
void sk_tile_store(SK_IN_PARAMS, SK_OUT_PARAMS, ulong base, ulong n, uint exclusive,
                   SK_T run, const sk_tile_regs x, __local SK_T *lds)
{
    uint lid = get_local_id(0);
    for (uint k = 0; k < SK_ITEMS; k += SK_TILE_RUN) {
        SK_T y[SK_TILE_RUN];
        for (uint c = 0; c < SK_TILE_RUN; c++) {
            SK_T inclusive = sk_op(run, x[k + c]);
            y[c] = exclusive ? run : inclusive;
            run = inclusive;
        }
        sk_tile_put(y, k, lds);
    }
    SK_BARRIER();
    if (!SK_TILE_COPY_OUT(base, n, lds)) {
        for (uint k = 0; k < SK_ITEMS; k++) {
            uint j = k * SK_WG + lid;
            ulong i = base + j;
            if (i < n) SK_STORE(i, lds[SK_TILE_POS(j)]);
        }
    }
    SK_BARRIER();
}

#endif /* !SK_OWN_TILE */

/* The work-group's scan and reduce of one SK_T per work-item (block.cl). */
SK_DEFINE_WG_SCAN(sk_wg_exclusive_scan, SK_T, sk_op, SK_IDENTITY)
SK_DEFINE_WG_REDUCE(sk_wg_reduce, SK_T, sk_op)

/* Reduces the tile at base; every work-item gets the total. */
SK_T sk_tile_reduce(SK_IN_PARAMS, ulong base, ulong n, __local SK_TILE_T *lds,
                    __local SK_T *s)
{
    sk_tile_regs x;
    sk_tile_load(SK_IN_ARGS, base, n, lds, x);
    return sk_wg_reduce(sk_thread_reduce(x), s);
}

/* Scans the tile at base seeded with carry (the combination of everything
 * before it); returns carry combined with the tile's total. */
SK_T sk_tile_scan(SK_IN_PARAMS, SK_OUT_PARAMS, ulong base, ulong n, uint exclusive,
                  SK_T carry, __local SK_TILE_T *lds, __local SK_T *s)
{
    sk_tile_regs x;
    sk_tile_load(SK_IN_ARGS, base, n, lds, x);
    SK_T total;
    SK_T prefix = sk_wg_exclusive_scan(sk_thread_reduce(x), s, &total);
    sk_tile_store(SK_IN_ARGS, SK_OUT_ARGS, base, n, exclusive, sk_op(carry, prefix), x, lds);
    return sk_op(carry, total);
}

/* partials[partials_off + tile] = reduction of the tile. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_reduce_tiles(SK_IN_PARAMS, __global SK_T *partials, ulong partials_off, ulong n)
{
    __local SK_TILE_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_T s[SK_WG_SCAN_SLOTS];
    ulong tile = get_group_id(0);
    SK_T total = sk_tile_reduce(SK_IN_ARGS, tile * SK_TILE, n, lds, s);
    if (get_local_id(0) == 0) partials[partials_off + tile] = total;
}

/* One work-group reduces all n elements, tile after tile, in order. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_reduce_single(SK_IN_PARAMS, __global SK_T *result, ulong result_off, ulong n)
{
    __local SK_TILE_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_T s[SK_WG_SCAN_SLOTS];
    SK_T carry = SK_IDENTITY;
    for (ulong base = 0; base < n; base += SK_TILE)
        carry = sk_op(carry, sk_tile_reduce(SK_IN_ARGS, base, n, lds, s));
    if (get_local_id(0) == 0) result[result_off] = carry;
}

/* ---- a reduce in one launch: the last work-group to finish totals the tiles ---- */

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

/* A tile's total travels as 32-bit pieces, each in a 64-bit word of the
 * look-back state laid out as lookback.cl's words: this launch's epoch in
 * the top 29 bits, the status AGGREGATE (1) at bit 33, the piece in the
 * low 32 bits. A word of an earlier launch carries an earlier epoch. */
#define SK_PIECES ((SK_T_SIZE + 3) / 4)
typedef union sk_pieces {
    SK_T v;
    uint u[SK_PIECES];
} sk_pieces;

ulong sk_piece_word(uint epoch, uint piece)
{
    return ((ulong)epoch << 35) | (1ul << 33) | (ulong)piece;
}

/* The fold, in order, of tiles' totals [first, first + per) (per <=
 * SK_ITEMS; the identity past `tiles`): their words read at once, then
 * each read again until it carries `epoch`. Only the last work-group to
 * finish calls it, after every tile's owner has written its words: it
 * waits for stores already made, never for a work-group to run. Tags steer
 * the polls; values steer nothing. */
SK_T sk_tile_totals_fold(__global ulong *state, uint epoch, ulong first, uint per, ulong tiles)
{
    __global ulong *words = state + 1 + first * SK_PIECES;
    ulong x[SK_ITEMS * SK_PIECES];
    for (uint k = 0; k < SK_ITEMS * SK_PIECES; k++)
        x[k] = k < per * SK_PIECES && first + k / SK_PIECES < tiles ? atom_or(words + k, 0ul) : 0;
    for (uint k = 0; k < SK_ITEMS * SK_PIECES; k++)
        while (k < per * SK_PIECES && first + k / SK_PIECES < tiles && (x[k] >> 35) != epoch)
            x[k] = atom_or(words + k, 0ul);
    SK_T sum = SK_IDENTITY;
    for (uint i = 0; i < SK_ITEMS && i < per; i++) {
        sk_pieces b;
        b.v = SK_IDENTITY;
        if (first + i < tiles)
            for (uint p = 0; p < SK_PIECES; p++) b.u[p] = (uint)x[i * SK_PIECES + p];
        sum = i ? sk_op(sum, b.v) : b.v;
    }
    return sum;
}

/* result[result_off] = reduction of all n elements, in one launch of a
 * work-group per tile: each publishes its tile's total in the state words
 * (`epoch`: this launch's), then takes a ticket (word 0, zero at rest); the
 * work-group with the last ticket sets it back to 0 and reduces the tiles'
 * totals: each work-item folds `per` neighbouring totals in order (per =
 * tiles / SK_WG rounded up, at most SK_ITEMS), the work-group reduces the
 * work-items' folds, in rounds of SK_WG * per totals. A fixed association
 * for each n: the same result run to run, floats included. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_reduce_last(SK_IN_PARAMS, __global ulong *state, uint epoch, __global SK_T *result,
                    ulong result_off, ulong n)
{
    __local SK_TILE_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_T s[SK_WG_SCAN_SLOTS];
    __local uint last;
    uint lid = get_local_id(0);
    ulong tile = get_group_id(0), tiles = get_num_groups(0);
    sk_pieces b;
    for (uint p = 0; p < SK_PIECES; p++) b.u[p] = 0;
    b.v = sk_tile_reduce(SK_IN_ARGS, tile * SK_TILE, n, lds, s);
    for (uint p = lid; p < SK_PIECES; p += SK_WG)
        atom_xchg(state + 1 + tile * SK_PIECES + p, sk_piece_word(epoch, b.u[p]));
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) last = atom_inc(state) == tiles - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last) return;
    if (lid == 0) atom_xchg(state, 0ul);
    uint per = (uint)min((ulong)SK_ITEMS, (tiles + SK_WG - 1) / SK_WG);
    SK_T carry = SK_IDENTITY;
    for (ulong base = 0; base < tiles; base += (ulong)per * SK_WG)
        carry = sk_op(carry, sk_wg_reduce(sk_tile_totals_fold(state, epoch,
                                                              base + (ulong)lid * per, per,
                                                              tiles), s));
    if (lid == 0) result[result_off] = carry;
}

/* Scans every tile; with seeds, tile t starts from seeds[seeds_off + t]. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_scan_tiles(SK_IN_PARAMS, SK_OUT_PARAMS, __global const SK_T *seeds, ulong seeds_off,
                   ulong n, uint exclusive, uint has_seeds)
{
    __local SK_TILE_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_T s[SK_WG_SCAN_SLOTS];
    ulong tile = get_group_id(0);
    SK_T carry = SK_IDENTITY;
    if (has_seeds) carry = seeds[seeds_off + tile];
    sk_tile_scan(SK_IN_ARGS, SK_OUT_ARGS, tile * SK_TILE, n, exclusive, carry, lds, s);
}

/* One work-group scans all n elements, tile after tile. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_scan_single(SK_IN_PARAMS, SK_OUT_PARAMS, ulong n, uint exclusive)
{
    __local SK_TILE_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_T s[SK_WG_SCAN_SLOTS];
    SK_T carry = SK_IDENTITY;
    for (ulong base = 0; base < n; base += SK_TILE)
        carry = sk_tile_scan(SK_IN_ARGS, SK_OUT_ARGS, base, n, exclusive, carry, lds, s);
}

#if defined(SK_LOOKBACK)
/* One pass: tiles numbered in the order work-groups start, each tile's
 * prefix found from its predecessors' published totals (lookback.cl; a
 * total too wide for one word in SK_LB_COUNTERS parts with SK_LB_PARTS);
 * `epoch` is this launch's, `tiles` the number of tiles. With input_stays
 * (the host's word that no output overwrites the input: out of place) a
 * predecessor whose total stays unpublished is reduced here (decoupled
 * fallback), by the reduce-then-scan path's own tile reduction (a total
 * in parts: each waiting part settles its own part of that tile's total);
 * in place the walk waits for it. */
__kernel __attribute__((reqd_work_group_size(SK_WG, 1, 1)))
void sk_scan_lookback(SK_IN_PARAMS, SK_OUT_PARAMS, __global sk_lb_word *state, uint epoch,
                      ulong tiles, ulong n, uint exclusive, uint input_stays)
{
    __local SK_TILE_T lds[SK_TILE_LDS] SK_TILE_ALIGN;
    __local SK_T s[SK_WG_SCAN_SLOTS];
#if defined(SK_LB_PARTS)
    __local sk_lb_parts_local l;
#else
    __local sk_lb_local l;
#endif
    __local uint slot;
    uint tile = sk_lb_take_tile(state, tiles, &slot);
    ulong base = (ulong)tile * SK_TILE;
    sk_tile_regs x;
    sk_tile_load(SK_IN_ARGS, base, n, lds, x);
    SK_T total;
    SK_T prefix = sk_wg_exclusive_scan(sk_thread_reduce(x), s, &total);
#if defined(SK_LB_PARTS)
    sk_lb_count p;
    sk_lb_parts_begin(state, epoch, tile, total, input_stays, &p, &l);
    for (uint t; (t = sk_lb_parts_step(state, epoch, input_stays, &p, &l)) != SK_LB_NONE;)
        sk_lb_parts_fallback(state, epoch, t,
                             sk_tile_reduce(SK_IN_ARGS, (ulong)t * SK_TILE, n, lds, s), &p);
    SK_T before = sk_lb_parts_end(state, epoch, tile, total, &p, &l);
#else
    sk_lb_walk w = sk_lb_begin(state, epoch, tile, total, input_stays);
    for (uint t; (t = sk_lb_step(state, epoch, &w, &l)) != SK_LB_NONE;)
        sk_lb_fallback(state, epoch, &w, t,
                       sk_tile_reduce(SK_IN_ARGS, (ulong)t * SK_TILE, n, lds, s), &l);
    SK_T before = sk_lb_end(state, epoch, &w, &l);
#endif
    sk_tile_store(SK_IN_ARGS, SK_OUT_ARGS, base, n, exclusive, sk_op(before, prefix), x, lds);
    SK_LB_AFTER_OUTPUT();
    if (get_local_id(0) < SK_LB_COUNTERS)
        sk_lb_publish_late(state, epoch, tile, get_local_id(0), total);
}
#endif

/* ======================================================================= */
#elif defined(SK_SHAPE_CPU)

/* Work-item c owns elements [c * chunk, min((c + 1) * chunk, n)).
 *
 * With SK_V and SK_V4 (8- and 4-wide vectors of SK_T, sk_opv and sk_opv4
 * their lane-wise operators; the host defines them only for the built-in
 * operators whose result does not depend on grouping, integers and float
 * min/max, and only with plain array input and output), the chunk reduce
 * works on eight elements at a time, and the chunk scan scans four elements
 * at a time in registers (two shifted combines) and carries the last lane
 * on: fixed groupings, so results stay deterministic. The reduce keeps
 * eight lane accumulators combined in lane order at the end: where the
 * operator also commutes (SK_V_COMMUTES: integers) lane k takes every
 * eighth element, otherwise (float min/max, whose NaN result is the
 * left-most NaN) lane k takes the k-th of eight contiguous runs, so that
 * no operand passes another (a transpose of 8 x 8 elements per step: at
 * 2^24 the float32 min reduce took 2.6 ms that way against 32 ms combining
 * each group of eight in order, the scan 10 ms against 39 ms, on the
 * 2-core PoCL 3.1). (An in-register 8-lane scan was measured slower than
 * the plain loop on PoCL 3.1, 2.1 vs 3.2 Gelem/s in cache; the 4-lane one
 * is faster: bench/NOTES-cpu.md.)
 *
 * With SK_NT_STORES (the host defines it for the built-in types on CPU
 * devices, with plain arrays) a scan may write its output with
 * non-temporal stores (`stream`), which go to memory without reading each
 * line into the cache first; the host asks for them only for outputs far
 * larger than the caches. */

#if defined(SK_V)
#define SK_VEC_IO 1
SK_T sk_lanes_reduce(SK_V v)
{
    SK_T r = sk_op(sk_op(v.s0, v.s1), sk_op(v.s2, v.s3));
    return sk_op(r, sk_op(sk_op(v.s4, v.s5), sk_op(v.s6, v.s7)));
}

#if defined(SK_V_COMMUTES)
/* The combination of the first 8 * (n / 8) elements at p, lane k over
 * elements k, k + 8, k + 16, ...; *done gets their number. */
SK_T sk_vec_reduce(__global const SK_T *p, ulong n, ulong *done)
{
    SK_V lanes = (SK_V)(SK_IDENTITY);
    ulong i = 0;
    for (; i + 8 <= n; i += 8) lanes = sk_opv(lanes, vload8(0, p + i));
    *done = i;
    return sk_lanes_reduce(lanes);
}
#else
/* The same in order: the first 8 * len elements (len = n / 64 * 8) as eight
 * runs of len, lane k over run k, eight elements of each run at a time
 * turned into eight columns, combined column by column. */
SK_T sk_vec_reduce(__global const SK_T *p, ulong n, ulong *done)
{
    ulong len = n / 64 * 8;
    SK_V lanes = (SK_V)(SK_IDENTITY);
    for (ulong j = 0; j < len; j += 8) {
        __global const SK_T *q = p + j;
        SK_V v0 = vload8(0, q), v1 = vload8(0, q + len), v2 = vload8(0, q + 2 * len),
             v3 = vload8(0, q + 3 * len), v4 = vload8(0, q + 4 * len),
             v5 = vload8(0, q + 5 * len), v6 = vload8(0, q + 6 * len),
             v7 = vload8(0, q + 7 * len);
#define SK_COLUMN(r) (SK_V)(v0.s##r, v1.s##r, v2.s##r, v3.s##r, v4.s##r, v5.s##r, v6.s##r, \
                            v7.s##r)
        lanes = sk_opv(lanes, SK_COLUMN(0));
        lanes = sk_opv(lanes, SK_COLUMN(1));
        lanes = sk_opv(lanes, SK_COLUMN(2));
        lanes = sk_opv(lanes, SK_COLUMN(3));
        lanes = sk_opv(lanes, SK_COLUMN(4));
        lanes = sk_opv(lanes, SK_COLUMN(5));
        lanes = sk_opv(lanes, SK_COLUMN(6));
        lanes = sk_opv(lanes, SK_COLUMN(7));
#undef SK_COLUMN
    }
    *done = 8 * len;
    return sk_lanes_reduce(lanes);
}
#endif
#endif

/* Combination of elements [i, end), in order. */
SK_T sk_chunk_reduce(SK_IN_PARAMS, ulong i, ulong end)
{
    SK_T acc = SK_IDENTITY;
#if defined(SK_VEC_IO)
    ulong done = 0;
    acc = sk_vec_reduce(src + src_off + i, end - i, &done);
    i += done;
#endif
    for (; i < end; i++) acc = sk_op(acc, SK_LOAD(i));
    return acc;
}

#if defined(SK_NT_STORES)
/* sk_scan_run by non-temporal stores (loops of their own: a store chosen
 * per element would be merged into one plain store by the compiler). */
SK_T sk_scan_run_nt(SK_IN_PARAMS, __global SK_T *dst, ulong dst_off, ulong i, ulong end,
                    SK_T acc, uint exclusive)
{
    __global SK_T *out = dst + dst_off;
    if (exclusive) {
        for (; i < end; i++) {
            SK_T x = SK_LOAD(i);
            __builtin_nontemporal_store(acc, out + i);
            acc = sk_op(acc, x);
        }
    } else {
        for (; i < end; i++) {
            acc = sk_op(acc, SK_LOAD(i));
            __builtin_nontemporal_store(acc, out + i);
        }
    }
    return acc;
}
#endif

/* Scans elements [i, end) one at a time from acc; returns the carry. */
SK_T sk_scan_run(SK_IN_PARAMS, SK_OUT_PARAMS, ulong i, ulong end, SK_T acc, uint exclusive,
                 uint stream)
{
#if defined(SK_NT_STORES)
    if (stream) return sk_scan_run_nt(SK_IN_ARGS, SK_OUT_ARGS, i, end, acc, exclusive);
#endif
    (void)stream;
    if (exclusive) {
        for (; i < end; i++) {
            SK_T x = SK_LOAD(i);
            SK_STORE(i, acc);
            acc = sk_op(acc, x);
        }
    } else {
        for (; i < end; i++) {
            acc = sk_op(acc, SK_LOAD(i));
            SK_STORE(i, acc);
        }
    }
    return acc;
}

#if defined(SK_V4)
/* Inclusive scan of the four lanes of v (Hillis-Steele, earlier lanes on
 * the left of every combine). */
SK_V4 sk_lanes_scan(SK_V4 v)
{
    v = sk_opv4((SK_V4)(SK_IDENTITY, v.s012), v);
    return sk_opv4((SK_V4)(SK_IDENTITY, SK_IDENTITY, v.s01), v);
}

/* Whether out + i can take a 4-lane non-temporal store (they need their
 * own size's alignment). */
bool sk_put4_aligned(__global SK_T *out, ulong i)
{
    return ((ulong)(out + i) & (sizeof(SK_V4) - 1)) == 0;
}

/* Scans `groups` groups of four elements from i on, from acc; returns the
 * carry. `stream` only where sk_put4_aligned holds at i. */
SK_T sk_scan_run4(__global const SK_T *src, ulong src_off, __global SK_T *dst, ulong dst_off,
                  ulong i, ulong groups, SK_T acc, uint exclusive, uint stream)
{
    __global const SK_T *in = src + src_off;
    __global SK_T *out = dst + dst_off;
    SK_V4 carry = (SK_V4)(acc);
    for (ulong g = 0; g < groups; g++, i += 4) {
        SK_V4 inclusive = sk_opv4(carry, sk_lanes_scan(vload4(0, in + i)));
        SK_V4 v = exclusive ? (SK_V4)(carry.s0, inclusive.s012) : inclusive;
#if defined(SK_NT_STORES)
        if (stream)
            __builtin_nontemporal_store(v, (__global SK_V4 *)(out + i));
        else
#endif
            vstore4(v, 0, out + i);
        carry = (SK_V4)(inclusive.s3);
    }
    (void)stream;
    return carry.s0;
}
#endif

/* Scans elements [i, end) starting from acc: with SK_V4, one at a time up
 * to an aligned output address (at most three), then four at a time, then
 * the rest one at a time. */
void sk_chunk_scan(SK_IN_PARAMS, SK_OUT_PARAMS, ulong i, ulong end, SK_T acc, uint exclusive,
                   uint stream)
{
#if defined(SK_V4)
    ulong head = i;
    while (head < end && head < i + 3 && !sk_put4_aligned(dst + dst_off, head)) head++;
    acc = sk_scan_run(SK_IN_ARGS, SK_OUT_ARGS, i, head, acc, exclusive, stream);
    ulong groups = (end - head) / 4;
    uint aligned = sk_put4_aligned(dst + dst_off, head);
    acc = sk_scan_run4(SK_IN_ARGS, SK_OUT_ARGS, head, groups, acc, exclusive, stream && aligned);
    i = head + 4 * groups;
#endif
    sk_scan_run(SK_IN_ARGS, SK_OUT_ARGS, i, end, acc, exclusive, stream);
}

__kernel void sk_reduce_chunks(SK_IN_PARAMS, __global SK_T *partials, ulong partials_off,
                               ulong n, ulong chunk)
{
    ulong c = get_global_id(0);
    ulong begin = c * chunk;
    partials[partials_off + c] = sk_chunk_reduce(SK_IN_ARGS, begin, min(begin + chunk, n));
}

__kernel void sk_scan_chunks(SK_IN_PARAMS, SK_OUT_PARAMS, __global const SK_T *seeds,
                             ulong seeds_off, ulong n, ulong chunk, uint exclusive,
                             uint has_seeds)
{
    ulong c = get_global_id(0);
    ulong begin = c * chunk;
    SK_T acc = SK_IDENTITY;
    if (has_seeds) acc = seeds[seeds_off + c];
    sk_chunk_scan(SK_IN_ARGS, SK_OUT_ARGS, begin, min(begin + chunk, n), acc, exclusive, 0);
}

#if defined(SK_LOOKBACK)
/* One pass with decoupled look-back that never waits (lookback.cl): chunk
 * c reduces itself, publishes its total, walks back over its predecessors'
 * words (a PREFIX ends the walk, an AGGREGATE is combined and the walk goes
 * on, an empty word's chunk is reduced here and offered as its AGGREGATE),
 * publishes its own prefix and scans itself, which is still in cache. Only
 * for inputs no chunk writes (out of place, plain arrays: a chunk may read
 * any predecessor's input).
 *
 * Two test hooks (sk__test_set_hooks) make the fallback run for
 * sure: SK_LB_REDUCE_ALL walks as if every word were empty, so every chunk
 * reduces all its predecessors; SK_LB_REVERSE_CHUNKS hands the chunks out
 * last first, so early chunks find their predecessors unpublished. */
uint sk_chunk_take(__global sk_lb_word *state, ulong chunks)
{
    uint c = sk_lb_next_tile(state, chunks);
#if defined(SK_LB_REVERSE_CHUNKS)
    c = (uint)(chunks - 1 - c);
#endif
    return c;
}

/* The status the walk acts on. */
uint sk_chunk_status(uint epoch, sk_lb_word word)
{
#if defined(SK_LB_REDUCE_ALL)
    return SK_LB_EMPTY;
#else
    return sk_lb_status(epoch, word);
#endif
}

/* Combination of chunks 0 .. c - 1. */
SK_T sk_chunk_lookback(SK_IN_PARAMS, __global sk_lb_word *state, uint epoch, uint c, ulong chunk,
                       ulong n)
{
    SK_T acc = SK_IDENTITY;
    for (long j = (long)c - 1; j >= 0; j--) {
        sk_lb_word word = sk_lb_read(sk_lb_word_of(state, (uint)j, 0));
        uint status = sk_chunk_status(epoch, word);
        SK_T v;
        if (status == SK_LB_EMPTY) {
            ulong begin = (ulong)j * chunk;
            v = sk_chunk_reduce(SK_IN_ARGS, begin, min(begin + chunk, n));
            if (sk_lb_status(epoch, word) == SK_LB_EMPTY)
                sk_lb_offer(state, epoch, (uint)j, 0, word, v);
        } else {
            v = sk_lb_value(word);
        }
        acc = sk_op(v, acc);
        if (status == SK_LB_PREFIX) break;
    }
    return acc;
}

/* `epoch` is this launch's; `chunks` chunks of `chunk` elements. */
__kernel void sk_scan_lookback(SK_IN_PARAMS, SK_OUT_PARAMS, __global sk_lb_word *state, uint epoch,
                               ulong chunks, ulong n, ulong chunk, uint exclusive, uint stream)
{
    uint c = sk_chunk_take(state, chunks);
    ulong begin = (ulong)c * chunk;
    ulong end = min(begin + chunk, n);
    SK_T total = sk_chunk_reduce(SK_IN_ARGS, begin, end);
    sk_lb_publish(state, epoch, c, 0, c == 0 ? SK_LB_PREFIX : SK_LB_AGGREGATE, total);
    SK_T before = sk_chunk_lookback(SK_IN_ARGS, state, epoch, c, chunk, n);
    if (c != 0) sk_lb_publish(state, epoch, c, 0, SK_LB_PREFIX, sk_op(before, total));
    sk_chunk_scan(SK_IN_ARGS, SK_OUT_ARGS, begin, end, before, exclusive, stream);
    /* Non-temporal stores are weakly ordered: fence them in. */
    if (stream) mem_fence(CLK_GLOBAL_MEM_FENCE);
}
#endif

#else
#error "scan.cl: define SK_SHAPE_GPU or SK_SHAPE_CPU"
#endif
