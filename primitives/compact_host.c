/*
 * compact_host.c - the compaction's host-array forms: copy in, run the
 * cl_mem form (compact.c), copy out.
 */
#include "compact.h"

/* Scratch buffers of this file (sk__scratch_get). */
SK_STAGING_ID(compact_values_out, "compaction, host form: values out");
SK_STAGING_ID(compact_flags_in, "compaction, host form: flags");

/* ---- host-array forms ------------------------------------------------------------------ */

/* Host pointers of one call; flags, vsrc and vdst NULL when unused. */
typedef struct host_io {
    const void *src, *flags, *vsrc;
    void *dst, *vdst;
} host_io;

static sk_status check_host(sk_context *ctx, const compact_spec *s, const host_io *h,
                            size_t n, size_t *count)
{
    if (!count) return sk__fail(ctx, SK_E_INVALID_ARG, "count is NULL");
    if (n == 0) return SK_OK;
    if (!h->src || !h->dst) return sk__fail(ctx, SK_E_INVALID_ARG, "src or dst is NULL");
    if (s->keep == KEEP_FLAGS && !h->flags)
        return sk__fail(ctx, SK_E_INVALID_ARG, "flags is NULL");
    if (s->value_size && (!h->vsrc || !h->vdst))
        return sk__fail(ctx, SK_E_INVALID_ARG, "values_in or values_out is NULL");
    return SK_OK;
}

static sk_status stage_all(sk_context *ctx, const compact_spec *s, const host_io *h,
                           size_t n, compact_io *io)
{
    size_t es = sk_type_size(s->type);
    sk_status st = SK_OK;
    *io = (compact_io){NULL, NULL, NULL, NULL, NULL, NULL};
    const size_t sizes[] = {es, s->keep == KEEP_FLAGS ? s->flag_size : 0, s->value_size};
    for (size_t i = 0; i < 3; i++) {
        size_t bytes = 0;
        SK_TRY(sk__byte_size(ctx, n, sizes[i], &bytes));
        SK_TRY(sk__fits_device(ctx, bytes, "a host array's device copy"));
    }
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, h->src, n, es, &io->src));
    if (s->keep == KEEP_FLAGS) /* its own slot: values may come too */
        SK_TRY(sk__stage_in(ctx, &compact_flags_in, h->flags, n, s->flag_size, &io->flags));
    if (s->value_size) {
        SK_TRY(sk__stage_in(ctx, &sk__scratch_host_values, h->vsrc, n, s->value_size, &io->vsrc));
        SK_TRY(sk__scratch_get(ctx, &compact_values_out, n * s->value_size, &io->vdst));
    }
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, n * es, &io->dst));
out:
    return st;
}

/* Copies in, runs, copies out the first `count` outputs (all n for a
 * partition). dst is written only on success. */
static sk_status compact_host(sk_context *ctx, const compact_spec *s, const host_io *h,
                              size_t n, size_t *count)
{
    compact_io io;
    size_t got = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__compact_validate_spec(ctx, s));
    SK_TRY(check_host(ctx, s, h, n, count));
    if (n == 0) {
        *count = 0;
        return SK_OK;
    }
    SK_TRY(stage_all(ctx, s, h, n, &io));
    SK_TRY(sk__compact_run(ctx, s, &io, n, &got));
    size_t out_n = s->partition ? n : got;
    if (out_n && s->value_size)
        SK_TRY(sk__download(ctx, io.vdst, 0, h->vdst, out_n * s->value_size));
    if (out_n) SK_TRY(sk__download(ctx, io.dst, 0, h->dst, out_n * sk_type_size(s->type)));
    *count = got;
out:
    return st;
}

/* ---- entry points ---------------------------------------------------------------------- */

/* The host pair forms: s without values, plus h's value arrays. */
static sk_status host_pairs(sk_context *ctx, compact_spec s, const host_io *h,
                            size_t value_size, size_t n, size_t *count)
{
    sk_status st = sk__compact_enter_pairs(ctx, h->vsrc, h->vdst, value_size, &s);
    return st == SK_OK ? compact_host(ctx, &s, h, n, count) : st;
}

/* The host forms without values (flags NULL but for the flagged form). */
static sk_status host_keys(sk_context *ctx, compact_spec s, const void *src, const void *flags,
                           void *dst, size_t n, size_t *count)
{
    SK_ENTER(ctx);
    host_io h = {src, flags, NULL, dst, NULL};
    return compact_host(ctx, &s, &h, n, count);
}

sk_status sk_select_if_host(sk_context *ctx, sk_type type, const char *predicate,
                            const void *src, void *dst, size_t *count, size_t n)
{
    return host_keys(ctx, spec_if(type, predicate, 0, PART_NONE), src, NULL, dst, n, count);
}

sk_status sk_select_if_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                  const char *predicate, const void *keys_in,
                                  const void *values_in, void *keys_out, void *values_out,
                                  size_t *count, size_t n)
{
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_if(key_type, predicate, 0, PART_NONE), &h, value_size, n,
                      count);
}

sk_status sk_select_flagged_host(sk_context *ctx, sk_type type, size_t flag_size,
                                 const void *src, const void *flags, void *dst, size_t *count,
                                 size_t n)
{
    return host_keys(ctx, spec_flagged(type, flag_size), src, flags, dst, n, count);
}

sk_status sk_select_flagged_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                       size_t flag_size, const void *keys_in,
                                       const void *values_in, const void *flags,
                                       void *keys_out, void *values_out, size_t *count,
                                       size_t n)
{
    host_io h = {keys_in, flags, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_flagged(key_type, flag_size), &h, value_size, n, count);
}

sk_status sk_partition_host(sk_context *ctx, sk_type type, const char *predicate,
                            const void *src, void *dst, size_t *count_selected, size_t n)
{
    return host_keys(ctx, spec_if(type, predicate, 0, PART_STABLE), src, NULL, dst, n,
                     count_selected);
}

sk_status sk_partition_reversed_host(sk_context *ctx, sk_type type, const char *predicate,
                                     const void *src, void *dst, size_t *count_selected,
                                     size_t n)
{
    return host_keys(ctx, spec_if(type, predicate, 0, PART_REVERSED), src, NULL, dst, n,
                     count_selected);
}

sk_status sk_partition_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                  const char *predicate, const void *keys_in,
                                  const void *values_in, void *keys_out, void *values_out,
                                  size_t *count_selected, size_t n)
{
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_if(key_type, predicate, 0, PART_STABLE), &h, value_size, n,
                      count_selected);
}

sk_status sk_partition_reversed_pairs_host(sk_context *ctx, sk_type key_type,
                                           size_t value_size, const char *predicate,
                                           const void *keys_in, const void *values_in,
                                           void *keys_out, void *values_out,
                                           size_t *count_selected, size_t n)
{
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_if(key_type, predicate, 0, PART_REVERSED), &h, value_size, n,
                      count_selected);
}

sk_status sk_unique_host(sk_context *ctx, sk_type type, const void *src, void *dst,
                         size_t *count, size_t n)
{
    return host_keys(ctx, spec_unique(type), src, NULL, dst, n, count);
}

sk_status sk_unique_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                               const void *keys_in, const void *values_in, void *keys_out,
                               void *values_out, size_t *count, size_t n)
{
    host_io h = {keys_in, NULL, values_in, keys_out, values_out};
    return host_pairs(ctx, spec_unique(key_type), &h, value_size, n, count);
}
