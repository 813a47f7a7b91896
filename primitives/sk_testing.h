/*
 * sk_testing.h - test hooks: kernel variants that only tests ask for.
 *
 * Not installed and not part of scankit.h: the tests (tests/) and the
 * Oclgrind drivers (tests/oclgrind/) include it to make a context build
 * its kernels with a branch that ordinary runs take rarely or only on
 * other devices. Each hook is one #define placed before every kernel
 * configuration the context builds (part of the program cache key, in
 * memory and on disk); testing.c has the table of hooks and their defines,
 * program.c places them.
 */
#ifndef SK_TESTING_H
#define SK_TESTING_H

#include "scankit.h"

#include <stdbool.h>
#include <stdint.h>

/* Test hooks, bit flags (combine with |). */
typedef enum sk__test_hook {
    /* SK_LB_REDUCE_ALL (kernels/scan.cl): the CPU shape's look-back walks
     * as if every predecessor's word were empty, so every chunk reduces all
     * its predecessors itself. */
    SK__TEST_LB_REDUCE_ALL = 1u << 0,
    /* SK_LB_REVERSE_CHUNKS (kernels/scan.cl): the CPU shape's look-back
     * hands chunks out last first, so early chunks find their predecessors
     * unpublished. */
    SK__TEST_LB_REVERSE_CHUNKS = 1u << 1,
    /* SK_LB_POLL_VOLATILE (kernels/lookback.cl): the sort's 32-bit
     * look-back words are polled by volatile loads, as the library does on
     * NVIDIA GPUs (a race by the OpenCL 1.2 memory model). */
    SK__TEST_LB_POLL_VOLATILE = 1u << 2,
    /* SK_LB_WITHHOLD (kernels/lookback.cl): in the GPU shape's look-back
     * (scan, compaction, one-sweep sort, the one pass by key) tiles 1, 4,
     * 7, ... never publish and tiles 2, 5, 8, ... publish only once their
     * output is written, so that their successors fall back (reduce those
     * tiles themselves).
     * A scan in place has no fallback (its successors would read
     * overwritten input): there the withheld tiles publish their totals
     * first and keep only their inclusive prefixes. */
    SK__TEST_LB_WITHHOLD = 1u << 3,
    /* The one pass by key (reduce and scan by key, run-length encoding)
     * carries its totals' (value, head count) in two look-back words per
     * tile (lookback.cl's SK_LB_PARTS, segscan_totals_codec.cl) at any
     * size, as it does from 2^30 elements, instead of one word without
     * epoch. Host only: no kernel #define. */
    SK__TEST_LB_PARTS = 1u << 4
} sk__test_hook;

/* Every hook above. */
#define SK__TEST_HOOKS_ALL                                                     \
    ((unsigned)(SK__TEST_LB_REDUCE_ALL | SK__TEST_LB_REVERSE_CHUNKS |          \
                SK__TEST_LB_POLL_VOLATILE | SK__TEST_LB_WITHHOLD | SK__TEST_LB_PARTS))

/*! sk__test_set_hooks() :
 *  Sets the test hooks of ctx (0: none), replacing the earlier ones; the
 *  programs built from then on have them, those already built stay cached
 *  under their own key.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx or a bit that is not
 *  a hook (the hooks stay as they were). */
SK_API sk_status sk__test_set_hooks(sk_context *ctx, unsigned hooks);

/*! sk__test_hook_name() :
 *  @return the name of one hook, as the Oclgrind drivers' --hook option
 *  takes it ("reduce-all", "reverse-chunks", "poll-volatile",
 *  "withhold"), or NULL when `hook` is not exactly one hook. */
SK_API const char *sk__test_hook_name(unsigned hook);

/*! sk__test_hook_from_name() :
 *  @return the hook of that name (see sk__test_hook_name()), or 0. */
SK_API unsigned sk__test_hook_from_name(const char *name);

/*! sk__test_set_stream_piece() :
 *  The stream sorts of ctx (sk_sort_*_stream) move data to and from the
 *  device in pieces of at most `bytes` (0: their own size, 16 MiB), so
 *  that small inputs take the paths of many pieces.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx. */
SK_API sk_status sk__test_set_stream_piece(sk_context *ctx, size_t bytes);

/*! sk__test_device_peak() :
 *  The most device memory the buffers of ctx's own (its scratch, a stream
 *  sort's run buffers; not the caller's scratch) held at once since the
 *  context began or the last reset, in *peak, and what they hold now in
 *  *now (either may be NULL). With `reset`, the peak then starts again
 *  from what they hold now.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx. */
SK_API sk_status sk__test_device_peak(sk_context *ctx, bool reset, uint64_t *peak,
                                      uint64_t *now);

/*! sk__test_set_segsort_bounds() :
 *  The segmented sorts of ctx take segments longer than `big` keys (0: as
 *  tuned) for large, even where the shape's own tile would sort them, and
 *  sort large segments of at least `alone_from` keys (0: as tuned;
 *  SIZE_MAX: none, even on devices tuned to sort every large segment
 *  alone) alone rather than in the batch, so that small inputs take every
 *  path. Only
 *  kernel arguments change: no program is built for it.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx. */
SK_API sk_status sk__test_set_segsort_bounds(sk_context *ctx, size_t big, size_t alone_from);

/*! sk__test_set_segsort_groups() :
 *  The segmented sorts of ctx (GPU shape) sort the batch's large segments
 *  by a work-group each where there are at least `from` of them (0: as
 *  tuned) of at least `min_keys` keys on average (0: as built,
 *  segsort.c's SEGSORT_GROUP_MIN_KEYS), so that small inputs take that
 *  path. Its program is the one it builds anyway.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx. */
SK_API sk_status sk__test_set_segsort_groups(sk_context *ctx, size_t from, size_t min_keys);

/*! sk__test_set_bykey_tiles_from() :
 *  Run-length encoding and reduce by key of ctx (GPU shape) by tiles from
 *  `from` elements (1: always, below 2^32), fewer by one lifted scan of
 *  the elements (SIZE_MAX: always, as for 2^32 elements and more; 0: as
 *  tuned), so that small inputs take either path. Only the path changes:
 *  no program is built for it.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx. */
SK_API sk_status sk__test_set_bykey_tiles_from(sk_context *ctx, size_t from);

/*! sk__bykey_join :
 *  How the GPU shape's tiles of run-length encoding and reduce by key
 *  complete the runs that cross them (sk__test_set_bykey_join). */
typedef enum sk__bykey_join {
    SK__BYKEY_JOIN_TUNED = 0, /* as built: the look-back carries the runs' totals where
                                 it can, else a join by the tuning's size */
    SK__BYKEY_JOIN_GROUP,     /* head counts looked back on; one work-group's join */
    SK__BYKEY_JOIN_SCAN       /* head counts looked back on; the lifted scan over the
                                 tiles' records joins */
} sk__bykey_join;

/*! sk__test_set_bykey_join() :
 *  The tiles of ctx's run-length encoding and reduce by key complete the
 *  runs that cross them as `join` says (kernels/bykey_tile.cl,
 *  bykey_tile_join_io.cl), whatever the size and even where their
 *  look-back could carry the runs' totals, so that small inputs and
 *  integer sums take every join. Only the path changes.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx or an unknown join. */
SK_API sk_status sk__test_set_bykey_join(sk_context *ctx, sk__bykey_join join);

/*! sk__test_set_host_slots() :
 *  The host-array forms of ctx copy arrays larger than `piece` bytes to and
 *  from the device through the context's pinned slots, in pieces of
 *  `piece` bytes shared by `lanes` threads (1..16), on any device (piece
 *  0: as ordinary runs do: on GPUs only, pieces of 4 MiB, a lane for 3
 *  cores of 4), so that small inputs on a CPU device take the paths of many
 *  pieces and lanes.
 *  @return SK_OK, or SK_E_INVALID_ARG for a NULL ctx or lanes outside
 *  1..16 with a piece. */
SK_API sk_status sk__test_set_host_slots(sk_context *ctx, size_t piece, unsigned lanes);

/*! sk__test_tuning_complete() :
 *  @return 1 when the tuning table (tuning.c) has a portable default for
 *  every value it sets, so that any device is tuned; else 0. */
SK_API int sk__test_tuning_complete(void);

/*! sk__test_own_scratch_bytes() :
 *  @return the bytes of the context's own scratch buffers, the host-array
 *  forms' device copies left out: 0 after sk_context_trim() for as long as
 *  every call takes the caller's scratch (sk_context_set_scratch()). */
SK_API size_t sk__test_own_scratch_bytes(const sk_context *ctx);

/* For program.c: appends the #define lines of `hooks` to s. */
struct sk__str;
void sk__test_hook_defines(unsigned hooks, struct sk__str *s);

#endif /* SK_TESTING_H */
