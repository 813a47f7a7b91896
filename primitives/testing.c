/*
 * testing.c - test hooks (sk_testing.h): the one table of hooks, their
 * names and the kernel #defines they stand for.
 */
#include "sk_internal.h"
#include "sk_testing.h"

#include <string.h>

static const struct {
    sk__test_hook hook;
    const char *name;              /* for --hook NAME */
    const char *define;            /* what the kernels test (NULL: a host hook) */
} hooks_table[] = {
    {SK__TEST_LB_REDUCE_ALL, "reduce-all", "SK_LB_REDUCE_ALL"},
    {SK__TEST_LB_REVERSE_CHUNKS, "reverse-chunks", "SK_LB_REVERSE_CHUNKS"},
    {SK__TEST_LB_POLL_VOLATILE, "poll-volatile", "SK_LB_POLL_VOLATILE"},
    {SK__TEST_LB_WITHHOLD, "withhold", "SK_LB_WITHHOLD"},
    {SK__TEST_LB_PARTS, "lb-parts", NULL},
};

#define HOOK_COUNT (sizeof hooks_table / sizeof hooks_table[0])

sk_status sk__test_set_hooks(sk_context *ctx, unsigned hooks)
{
    if (!ctx) return SK_E_INVALID_ARG;
    if (hooks & ~SK__TEST_HOOKS_ALL)
        return sk__fail(ctx, SK_E_INVALID_ARG, "unknown test hooks 0x%x",
                        hooks & ~SK__TEST_HOOKS_ALL);
    ctx->test_hooks = hooks;
    return SK_OK;
}

sk_status sk__test_set_stream_piece(sk_context *ctx, size_t bytes)
{
    if (!ctx) return SK_E_INVALID_ARG;
    ctx->test_stream_piece = bytes;
    return SK_OK;
}

sk_status sk__test_device_peak(sk_context *ctx, bool reset, uint64_t *peak, uint64_t *now)
{
    if (!ctx) return SK_E_INVALID_ARG;
    if (peak) *peak = ctx->own_peak;
    if (now) *now = ctx->own_bytes;
    if (reset) ctx->own_peak = ctx->own_bytes;
    return SK_OK;
}

sk_status sk__test_set_segsort_bounds(sk_context *ctx, size_t big, size_t alone_from)
{
    if (!ctx) return SK_E_INVALID_ARG;
    ctx->test_segsort_big = big;
    ctx->test_segsort_alone = alone_from;
    return SK_OK;
}

sk_status sk__test_set_segsort_groups(sk_context *ctx, size_t from, size_t min_keys)
{
    if (!ctx) return SK_E_INVALID_ARG;
    ctx->test_segsort_groups_from = from;
    ctx->test_segsort_group_min = min_keys;
    return SK_OK;
}

sk_status sk__test_set_bykey_tiles_from(sk_context *ctx, size_t from)
{
    if (!ctx) return SK_E_INVALID_ARG;
    ctx->test_bykey_tiles_from = from;
    return SK_OK;
}

sk_status sk__test_set_bykey_join(sk_context *ctx, sk__bykey_join join)
{
    if (!ctx || (unsigned)join > SK__BYKEY_JOIN_SCAN) return SK_E_INVALID_ARG;
    ctx->test_bykey_join = join;
    return SK_OK;
}

sk_status sk__test_set_host_slots(sk_context *ctx, size_t piece, unsigned lanes)
{
    if (!ctx || (piece && (lanes < 1 || lanes > 16))) return SK_E_INVALID_ARG;
    ctx->test_host_piece = piece;
    ctx->test_host_lanes = piece ? lanes : 0;
    return SK_OK;
}

const char *sk__test_hook_name(unsigned hook)
{
    for (size_t i = 0; i < HOOK_COUNT; i++)
        if ((unsigned)hooks_table[i].hook == hook) return hooks_table[i].name;
    return NULL;
}

unsigned sk__test_hook_from_name(const char *name)
{
    for (size_t i = 0; name && i < HOOK_COUNT; i++)
        if (strcmp(hooks_table[i].name, name) == 0) return (unsigned)hooks_table[i].hook;
    return 0;
}

/* The same text as $SCANKIT_KERNEL_DEFINES=NAME gives (runtime.c). */
void sk__test_hook_defines(unsigned hooks, sk__str *s)
{
    for (size_t i = 0; i < HOOK_COUNT; i++)
        if ((hooks & (unsigned)hooks_table[i].hook) && hooks_table[i].define)
            sk__str_addf(s, "#define %s 1\n", hooks_table[i].define);
}

size_t sk__test_own_scratch_bytes(const sk_context *ctx)
{
    size_t total = 0;
    for (size_t i = 0; ctx && i < ctx->scratch.count; i++)
        if (!ctx->scratch.v[i].id->staging) total += ctx->scratch.v[i].bytes;
    return total;
}

int sk__test_tuning_complete(void) { return sk__tuning_complete() ? 1 : 0; }
