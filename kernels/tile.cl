/*
 * tile.cl - the tile layer under the GPU-shape families (CUB's BlockLoad
 * and BlockStore): how a tile of SK_WG x SK_ITEMS elements lies in local
 * memory, its full-tile copies between global and local memory 16 bytes
 * per access, and its transposition between local memory and a
 * work-item's registers in blocked order (work-item t holds tile elements
 * t * SK_ITEMS .. t * SK_ITEMS + SK_ITEMS - 1).
 * Appended to a GPU-shape program's configuration after block.cl
 * (primitives/program.c: sk__config_blocks), before lookback.cl and the
 * family file. scan.cl (and through it the segmented scan and the
 * polynomial) moves its tiles through it both ways; compact.cl lays its
 * tiles out by it and moves them itself, sort.cl takes SK_TILE (see
 * there why).
 *
 * A family moves a tile in two steps: global <-> local in striped order
 * (element j of the tile by work-item j % SK_WG: coalesced), then local
 * <-> registers in blocked order. The copies here take only whole tiles
 * at 16-byte aligned offsets and answer false for any other tile; the
 * family then runs its own element loop (its own element loader: the
 * scan's lifted SK_LOAD, compaction's keep test), which places element j
 * at SK_TILE_POS(j). Which path runs depends on sizes and offsets only,
 * never on a value.
 */

#ifndef SK_ITEMS
#error "tile.cl: SK_ITEMS must be defined by the host configuration"
#endif

#define SK_TILE (SK_WG * SK_ITEMS)

/* The layout, one per program. With SK_TILE_VEC4 (the host sets it where
 * the program's tiles hold 4-byte elements) and SK_ITEMS a multiple of 4,
 * tiles move 16 bytes per local access, striped on one side, blocked on
 * the other: the 16-byte slot q of the tile lives at q ^ ((q >> 3) & 7).
 * Each run of eight slots is permuted within itself, so eight consecutive
 * slots (striped) and slots SK_ITEMS / 4 apart (blocked, SK_ITEMS / 4 a
 * multiple of 8 or 4) fall in distinct bank groups, without padding.
 * Otherwise block.cl's padding, one element every 32, keeps blocked
 * accesses of one element conflict-free.
 *   SK_TILE_POS(j)        where tile element j lives
 *   SK_TILE_LDS           the elements of local memory a tile takes
 *   SK_TILE_ALIGN         the attribute a tile's local array takes
 *   SK_TILE_SLOT(lds, j)  (swizzled layout) the 16-byte slot of tile
 *                         elements j .. j + 3, j a multiple of 4
 * Positions are computed in 32 bits (uint j): the same swizzle on a 64-bit
 * get_local_id(0) product made the scan 3% slower on an H100. */
#if defined(SK_TILE_VEC4) && (SK_ITEMS % 4) == 0
#define SK_TILE_SWIZZLED 1
#define SK_TILE_SWIZZLE(q) ((q) ^ (((q) >> 3) & 7))
#define SK_TILE_POS(j) ((SK_TILE_SWIZZLE((j) >> 2) << 2) | ((j) & 3))
#define SK_TILE_SLOT(lds, j) (((__local uint4 *)(lds))[SK_TILE_SWIZZLE((j) >> 2)])
/* whole runs of eight slots */
#define SK_TILE_LDS ((SK_TILE + 31) / 32 * 32)
#define SK_TILE_ALIGN __attribute__((aligned(16)))
#else
#define SK_TILE_POS(j) SK_PAD(j)
#define SK_TILE_LDS SK_PADDED(SK_TILE)
#define SK_TILE_ALIGN
#endif

/* SK_DEFINE_TILE_IO(NAME, T) defines, for tiles of T in this program's
 * layout (every work-item calls them; none holds a barrier, the caller
 * places one between the global and the register side):
 *   bool NAME_copy_in(__global const T *src, ulong off, ulong base,
 *                     ulong n, __local T *lds)
 *     tile elements src[off + base ..] into lds, striped, 16 bytes per
 *     access, where the tile is whole (base + SK_TILE <= n) and off a
 *     multiple of 4; false, nothing done, for any other tile or layout;
 *   bool NAME_copy_out(__global T *dst, ulong off, ulong base, ulong n,
 *                      __local const T *lds)
 *     the same from lds to dst[off + base ..];
 *   void NAME_get(__local const T *lds, uint k, T *y)
 *   void NAME_put(const T *y, uint k, __local T *lds)
 *     y[0 .. SK_TILE_RUN - 1] from or to this work-item's blocked elements
 *     k .. k + SK_TILE_RUN - 1 (tile elements lid * SK_ITEMS + k ..), k a
 *     multiple of SK_TILE_RUN: one local access. A family that makes its
 *     register values as it stores them (the scan) calls NAME_put per run,
 *     so that no run outlives its store;
 *   void NAME_to_blocked(__local const T *lds, T *x)
 *     x[k] = tile element lid * SK_ITEMS + k, for every k.
 * Elements move as bits, never combined or compared. The swizzled form
 * takes 4-byte T only (four to a 16-byte slot, SK_TILE_RUN 4; 1
 * otherwise). */
#if defined(SK_TILE_SWIZZLED)
#define SK_TILE_RUN 4
#define SK_DEFINE_TILE_ACCESS(NAME, T)                                             \
    typedef char NAME##_takes_4_byte_elements[sizeof(T) == 4 ? 1 : -1];            \
    /* an element as bits */                                                       \
    typedef union NAME##_bits {                                                    \
        uint u;                                                                    \
        T e;                                                                       \
    } NAME##_bits;                                                                 \
    uint NAME##_to_bits(T e)                                                       \
    {                                                                              \
        NAME##_bits b;                                                             \
        b.e = e;                                                                   \
        return b.u;                                                                \
    }                                                                              \
    T NAME##_from_bits(uint u)                                                     \
    {                                                                              \
        NAME##_bits b = {u}; /* the first member */                                \
        return b.e;                                                                \
    }                                                                              \
    bool NAME##_copy_in(__global const T *src, ulong off, ulong base, ulong n,     \
                        __local T *lds)                                            \
    {                                                                              \
        if ((off & 3) != 0 || base + SK_TILE > n) return false;                    \
        __global const uint4 *v = (__global const uint4 *)(src + off + base);      \
        uint lid = get_local_id(0);                                                \
        for (uint k = 0; k < SK_ITEMS / 4; k++) {                                  \
            uint j = k * SK_WG + lid;                                              \
            SK_TILE_SLOT(lds, 4 * j) = v[j];                                       \
        }                                                                          \
        return true;                                                               \
    }                                                                              \
    bool NAME##_copy_out(__global T *dst, ulong off, ulong base, ulong n,          \
                         __local const T *lds)                                     \
    {                                                                              \
        if ((off & 3) != 0 || base + SK_TILE > n) return false;                    \
        __global uint4 *v = (__global uint4 *)(dst + off + base);                  \
        uint lid = get_local_id(0);                                                \
        for (uint k = 0; k < SK_ITEMS / 4; k++) {                                  \
            uint j = k * SK_WG + lid;                                              \
            v[j] = SK_TILE_SLOT(lds, 4 * j);                                       \
        }                                                                          \
        return true;                                                               \
    }                                                                              \
    void NAME##_get(__local const T *lds, uint k, T *y)                            \
    {                                                                              \
        uint j = get_local_id(0) * SK_ITEMS + k; /* 32 bits: see above */          \
        uint4 q = SK_TILE_SLOT(lds, j);                                            \
        y[0] = NAME##_from_bits(q.x);                                              \
        y[1] = NAME##_from_bits(q.y);                                              \
        y[2] = NAME##_from_bits(q.z);                                              \
        y[3] = NAME##_from_bits(q.w);                                              \
    }                                                                              \
    /* inlined: compiled alone at -Os, clang stores the slot as an undefined  \
     * vector and then its four lanes, which Oclgrind reports */               \
    __attribute__((always_inline))                                                 \
    void NAME##_put(const T *y, uint k, __local T *lds)                            \
    {                                                                              \
        uint j = get_local_id(0) * SK_ITEMS + k;                                   \
        SK_TILE_SLOT(lds, j) = (uint4)(NAME##_to_bits(y[0]), NAME##_to_bits(y[1]), \
                                       NAME##_to_bits(y[2]), NAME##_to_bits(y[3]));\
    }
#else
#define SK_TILE_RUN 1
#define SK_DEFINE_TILE_ACCESS(NAME, T)                                             \
    bool NAME##_copy_in(__global const T *src, ulong off, ulong base, ulong n,     \
                        __local T *lds)                                            \
    {                                                                              \
        (void)src, (void)off, (void)base, (void)n, (void)lds;                      \
        return false;                                                              \
    }                                                                              \
    bool NAME##_copy_out(__global T *dst, ulong off, ulong base, ulong n,          \
                         __local const T *lds)                                     \
    {                                                                              \
        (void)dst, (void)off, (void)base, (void)n, (void)lds;                      \
        return false;                                                              \
    }                                                                              \
    void NAME##_get(__local const T *lds, uint k, T *y)                            \
    {                                                                              \
        y[0] = lds[SK_TILE_POS((uint)get_local_id(0) * SK_ITEMS + k)];             \
    }                                                                              \
    void NAME##_put(const T *y, uint k, __local T *lds)                            \
    {                                                                              \
        lds[SK_TILE_POS((uint)get_local_id(0) * SK_ITEMS + k)] = y[0];             \
    }
#endif

#define SK_DEFINE_TILE_IO(NAME, T)                                                 \
    SK_DEFINE_TILE_ACCESS(NAME, T)                                                 \
    void NAME##_to_blocked(__local const T *lds, T *x)                             \
    {                                                                              \
        for (uint k = 0; k < SK_ITEMS; k += SK_TILE_RUN) NAME##_get(lds, k, x + k); \
    }
