/*
 * runtime.c - context lifecycle, parameters, scratch buffers, kernel
 * launches, tracing and profiling (errors and strings: errors.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "sk_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static sk_status read_base_align(sk_context *ctx);

/* The context's growing arrays: `items` (capacity *cap) with room for one
 * more than `count` items of `size` bytes, the capacity doubled (from
 * `first`) when full; NULL when out of memory, the array left as it was. */
static void *room_for_one(void *items, size_t *cap, size_t count, size_t size, size_t first)
{
    if (count < *cap) return items;
    size_t want = *cap ? 2 * *cap : first;
    void *grown = realloc(items, want * size);
    if (grown) *cap = want;
    return grown;
}

/* Appends e to l; NULL when out of memory. */
static sk__scratch *scratch_append(sk__scratch_list *l, sk__scratch e)
{
    sk__scratch *grown = room_for_one(l->v, &l->cap, l->count, sizeof *grown, 16);
    if (!grown) return NULL;
    l->v = grown;
    l->v[l->count] = e;
    return &l->v[l->count++];
}

/* Releases the buffers of l and empties it. */
static void scratch_release(sk__scratch_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->v[i].mem) clReleaseMemObject(l->v[i].mem);
    l->count = 0;
}

/* The context's own scratch buffers released (regions are sub-buffers of
 * the caller's: scratch_release()). */
static void own_scratch_release(sk_context *ctx)
{
    sk__scratch_list *l = &ctx->scratch;
    for (size_t i = 0; i < l->count; i++) sk__free_buffer(ctx, l->v[i].mem, l->v[i].bytes);
    l->count = 0;
}

/* Releases every sub-buffer of the caller's scratch: this call's and the
 * last call's. */
static void regions_release(sk_context *ctx)
{
    scratch_release(&ctx->regions);
    scratch_release(&ctx->last_regions);
}

/* ---- trace ------------------------------------------------------------------- */

static void trace_to_file(const sk_launch_record *r, void *user)
{
    FILE *f = user;
    fprintf(f, "scankit launch: kernel=%s program=%s global=%zu local=%zu %s options=\"",
            r->kernel, r->program, r->global_size, r->local_size, r->scalars);
    for (const char *p = r->options; *p; p++) {
        if (*p == '\n') fputs("\\n", f);
        else if (*p == '"') fputs("\\\"", f);
        else fputc(*p, f);
    }
    fputs("\"\n", f);
    fflush(f);
}

sk_status sk_context_set_trace(sk_context *ctx, sk_trace_fn fn, void *user)
{
    if (!ctx) return SK_E_INVALID_ARG;
    ctx->trace_fn = fn;
    ctx->trace_user = user;
    return SK_OK;
}

static void trace_from_env(sk_context *ctx)
{
    const char *t = getenv("SCANKIT_TRACE");
    if (!t || !*t || strcmp(t, "0") == 0) return;
    if (strcmp(t, "1") == 0) {
        sk_context_set_trace(ctx, trace_to_file, stderr);
        return;
    }
    ctx->trace_file = fopen(t, "a");
    if (ctx->trace_file) sk_context_set_trace(ctx, trace_to_file, ctx->trace_file);
}

/* ---- context lifecycle ---------------------------------------------------------- */

/* A word an environment variable may hold, and the value it stands for. */
typedef struct env_word {
    const char *word;
    int value;
} env_word;

static const env_word shape_words[] = {{"cpu", SK_SHAPE_CPU}, {"gpu", SK_SHAPE_GPU}};
static const env_word scan_path_words[] = {
    {"reduce-then-scan", SK_SCAN_PATH_REDUCE_THEN_SCAN},
    {"lookback", SK_SCAN_PATH_LOOKBACK},
};

/* The value of the word $var holds (ignoring case), or `otherwise` when it
 * is unset or holds none of them. */
static int value_from_env(const char *var, const env_word *words, size_t count, int otherwise)
{
    const char *s = getenv(var);
    for (size_t i = 0; s && i < count; i++)
        if (strcasecmp(s, words[i].word) == 0) return words[i].value;
    return otherwise;
}

static sk_shape shape_from_env(void)
{
    return (sk_shape)value_from_env("SCANKIT_SHAPE", shape_words,
                                    sizeof shape_words / sizeof shape_words[0], SK_SHAPE_AUTO);
}

static sk_scan_path scan_path_from_env(void)
{
    return (sk_scan_path)value_from_env("SCANKIT_SCAN_PATH", scan_path_words,
                                        sizeof scan_path_words / sizeof scan_path_words[0],
                                        SK_SCAN_PATH_AUTO);
}

/* $SCANKIT_KERNEL_DEFINES="NAME[=VALUE] ..." as #define lines, for trying
 * kernel variants; NULL when unset or empty. */
static char *kernel_defines_from_env(void)
{
    const char *s = getenv("SCANKIT_KERNEL_DEFINES");
    if (!s || !*s) return NULL;
    sk__str out = {0};
    while (*s) {
        size_t len = strcspn(s, " \t");
        if (len) {
            const char *eq = memchr(s, '=', len);
            size_t name_len = eq ? (size_t)(eq - s) : len;
            sk__str_addf(&out, "#define %.*s %.*s\n", (int)name_len, s,
                         eq ? (int)(len - name_len - 1) : 1, eq ? eq + 1 : "1");
        }
        s += len;
        s += strspn(s, " \t");
    }
    return sk__str_take(&out);
}

static sk_status context_alloc(sk_context **out)
{
    sk_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return SK_E_OUT_OF_MEMORY;
    const char *log = getenv("SCANKIT_LOG");
    ctx->log = log && strcmp(log, "1") == 0;
    ctx->shape_param = shape_from_env();
    ctx->scan_path_param = scan_path_from_env();
    /* before any OpenCL implementation has had a chance to make HOME */
    ctx->default_cache_dir = sk__default_cache_dir();
    ctx->cache_dir_named = getenv("SCANKIT_CACHE_DIR") != NULL;
    ctx->kernel_defines = kernel_defines_from_env();
    trace_from_env(ctx);
    *out = ctx;
    return SK_OK;
}

/* Sets ctx->cache_dir: the directory SCANKIT_CACHE_DIR names (or none for
 * "off" or ""), used on every device; else, per SK_PARAM_DISK_CACHE, the
 * default directory (on), none (off), or (automatic) the default directory
 * unless the driver keeps its own cache (sk__tuning_disk_cache). */
static sk_status disk_cache_choose(sk_context *ctx)
{
    bool on = ctx->cache_dir_named || ctx->disk_cache_param == 1 ||
              (ctx->disk_cache_param == 0 && sk__tuning_disk_cache(ctx));
    free(ctx->cache_dir);
    ctx->cache_dir = NULL;
    if (!on || !ctx->default_cache_dir) return SK_OK;
    ctx->cache_dir = strdup(ctx->default_cache_dir);
    if (!ctx->cache_dir) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "the cache directory's name");
    return SK_OK;
}

/* Reads the device limits the planner needs. */

static sk_status context_read_device(sk_context *ctx)
{
    sk_status st = SK_OK;
    SK_TRY(sk__device_describe(ctx->platform, ctx->device, &ctx->desc));
    SK_CL_TRY(ctx, clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                   sizeof ctx->max_wg_size, &ctx->max_wg_size, NULL));
    SK_CL_TRY(ctx, clGetDeviceInfo(ctx->device, CL_DEVICE_LOCAL_MEM_SIZE,
                                   sizeof ctx->local_mem_bytes, &ctx->local_mem_bytes, NULL));
    cl_bool little = CL_TRUE;
    SK_CL_TRY(ctx, clGetDeviceInfo(ctx->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little,
                                   NULL));
    ctx->little_endian = little != CL_FALSE;
    cl_bool unified = CL_FALSE;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified,
                        NULL) != CL_SUCCESS)
        unified = CL_FALSE;
    ctx->host_memory = !ctx->desc.is_gpu && unified != CL_FALSE;
    ctx->nv_warps = sk__tuning_warps(ctx);
    SK_TRY(read_base_align(ctx));
    st = disk_cache_choose(ctx);
out:
    return st;
}

/* why[why_size] (when given) gets `text`, cut to fit. */
static void tell_why(char *why, size_t why_size, const char *text)
{
    if (why && why_size) snprintf(why, why_size, "%s", text);
}

sk_status sk_context_create(sk_context **out, const char *spec, char *why, size_t why_size)
{
    tell_why(why, why_size, "");
    if (!out) {
        tell_why(why, why_size, "ctx is NULL");
        return SK_E_INVALID_ARG;
    }
    *out = NULL;
    sk_context *ctx = NULL;
    sk_status st = context_alloc(&ctx);
    if (st != SK_OK) {
        tell_why(why, why_size, "out of memory for the context");
        return st;
    }
    cl_int rc = CL_SUCCESS;
    char reason[512] = "";
    st = sk__device_choose(spec, &ctx->platform, &ctx->device, reason, sizeof reason);
    if (st != SK_OK) {
        sk__log(ctx, "%s", reason);
        tell_why(why, why_size, reason);
        goto fail;
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)ctx->platform, 0};
    ctx->context = clCreateContext(props, 1, &ctx->device, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) goto fail_cl;
    ctx->queue = clCreateCommandQueue(ctx->context, ctx->device,
                                      CL_QUEUE_PROFILING_ENABLE, &rc);
    if (rc != CL_SUCCESS) goto fail_cl;
    st = context_read_device(ctx);
    if (st != SK_OK) goto fail;
    *out = ctx;
    return SK_OK;
fail_cl:
    st = sk__fail_cl(ctx, rc, "clCreateContext/clCreateCommandQueue");
fail:
    if (ctx->detail) tell_why(why, why_size, ctx->detail);
    sk_context_free(ctx);
    return st;
}

sk_status sk_context_wrap(sk_context **out, cl_context context, cl_device_id device,
                          cl_command_queue queue)
{
    if (!out) return SK_E_INVALID_ARG;
    *out = NULL;
    if (!context || !device || !queue) return SK_E_INVALID_ARG;
    cl_command_queue_properties qp = 0;
    cl_context qctx = NULL;
    cl_device_id qdev = NULL;
    if (clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL) != CL_SUCCESS ||
        (qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) || qctx != context || qdev != device)
        return SK_E_INVALID_ARG;
    sk_context *ctx = NULL;
    sk_status st = context_alloc(&ctx);
    if (st != SK_OK) return st;
    if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof ctx->platform, &ctx->platform,
                        NULL) != CL_SUCCESS) {
        sk_context_free(ctx);
        return SK_E_INVALID_ARG;
    }
    clRetainContext(context);
    clRetainDevice(device);
    clRetainCommandQueue(queue);
    ctx->context = context;
    ctx->device = device;
    ctx->queue = queue;
    st = context_read_device(ctx);
    if (st != SK_OK) {
        sk_context_free(ctx);
        return st;
    }
    *out = ctx;
    return SK_OK;
}

static void profile_clear(sk_context *ctx)
{
    for (size_t i = 0; i < ctx->event_count; i++) clReleaseEvent(ctx->events[i]);
    ctx->event_count = 0;
}


sk_status sk_context_trim(sk_context *ctx)
{
    if (!ctx) return SK_E_INVALID_ARG;
    sk_status st = SK_OK;
    SK_CL_TRY(ctx, clFinish(ctx->queue));
    /* (the look-back state's epochs start again with the zeroing of its
     * next buffer) */
    own_scratch_release(ctx);
    regions_release(ctx);
    sk__host_slots_release(ctx);
    sk__program_cache_free(ctx);
out:
    return st;
}

void sk_context_free(sk_context *ctx)
{
    if (!ctx) return;
    if (ctx->queue) clFinish(ctx->queue);
    sk__host_slots_release(ctx);
    profile_clear(ctx);
    free(ctx->events);
    sk__program_cache_free(ctx);
    own_scratch_release(ctx);
    free(ctx->scratch.v);
    regions_release(ctx);
    free(ctx->regions.v);
    free(ctx->last_regions.v);
    if (ctx->caller_scratch) clReleaseMemObject(ctx->caller_scratch);
    if (ctx->measure_stand_in) clReleaseMemObject(ctx->measure_stand_in);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->context) clReleaseContext(ctx->context);
    if (ctx->device) clReleaseDevice(ctx->device);
    if (ctx->trace_file) fclose(ctx->trace_file);
    free(ctx->cache_dir);
    free(ctx->default_cache_dir);
    free(ctx->kernel_defines);
    free(ctx->build_log);
    free(ctx->detail);
    free(ctx);
}

cl_context sk_context_cl_context(const sk_context *ctx) { return ctx ? ctx->context : NULL; }
cl_device_id sk_context_cl_device(const sk_context *ctx) { return ctx ? ctx->device : NULL; }
cl_command_queue sk_context_cl_queue(const sk_context *ctx) { return ctx ? ctx->queue : NULL; }

sk_status sk_context_device(const sk_context *ctx, sk_device_desc *out)
{
    if (!ctx || !out) return SK_E_INVALID_ARG;
    return sk__device_desc_copy(out, &ctx->desc);
}

sk_status sk_context_finish(sk_context *ctx)
{
    if (!ctx) return SK_E_INVALID_ARG;
    sk_status st = SK_OK;
    SK_CL_TRY(ctx, clFinish(ctx->queue));
out:
    return st;
}

/* ---- parameters and tuning -------------------------------------------------------- */

static bool is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

/* The values a parameter takes besides 0 (automatic, AUTO or off, which
 * every parameter takes): least .. most, powers of two only where pow2.
 * false for an unknown parameter. */
typedef struct param_range {
    long least, most;
    bool pow2;
} param_range;

static bool param_range_of(const sk_context *ctx, sk_param param, param_range *r)
{
    long wg_most = ctx->max_wg_size < 1024 ? (long)ctx->max_wg_size : 1024;
    switch ((int)param) {
    case SK_PARAM_SHAPE: *r = (param_range){SK_SHAPE_CPU, SK_SHAPE_GPU, false}; return true;
    case SK_PARAM_WG_SIZE: *r = (param_range){1, wg_most, true}; return true;
    case SK_PARAM_ITEMS_PER_THREAD: *r = (param_range){1, 64, false}; return true;
    case SK_PARAM_CPU_CHUNKS: *r = (param_range){1, 65536, false}; return true;
    case SK_PARAM_CPU_SERIAL_BELOW: *r = (param_range){1, LONG_MAX, false}; return true;
    case SK_PARAM_PROFILE: *r = (param_range){1, 1, false}; return true;
    case SK_PARAM_SCAN_PATH:
        *r = (param_range){SK_SCAN_PATH_REDUCE_THEN_SCAN, SK_SCAN_PATH_LOOKBACK, false};
        return true;
    case SK_PARAM_CPU_SORT_LINES_FROM: *r = (param_range){1, LONG_MAX, false}; return true;
    case SK_PARAM_GPU_SORT_SKIP_FROM: *r = (param_range){1, LONG_MAX, false}; return true;
    case SK_PARAM_CPU_SORT_BUCKET_BYTES: *r = (param_range){1, LONG_MAX, false}; return true;
    case SK_PARAM_MERGE_RUNS_ROUNDS:
        *r = (param_range){1, SK_MERGE_RUNS_MAX_ROUNDS, false};
        return true;
    case SK_PARAM_PROGRAM_CACHE:
        *r = (param_range){SK_PROGRAM_CACHE_MIN, 65536, false};
        return true;
    case SK_PARAM_DISK_CACHE: *r = (param_range){1, 2, false}; return true;
    }
    return false;
}

sk_status sk_param_bounds(const sk_context *ctx, sk_param param, long *min_value,
                          long *max_value)
{
    param_range r;
    if (!ctx || !min_value || !max_value || !param_range_of(ctx, param, &r))
        return SK_E_INVALID_ARG;
    *min_value = r.least;
    *max_value = r.most;
    return SK_OK;
}

/* The context's field of a parameter; NULL for those stored otherwise. */
static long *param_field(sk_context *ctx, sk_param param)
{
    switch ((int)param) {
    case SK_PARAM_WG_SIZE: return &ctx->wg_param;
    case SK_PARAM_ITEMS_PER_THREAD: return &ctx->items_param;
    case SK_PARAM_CPU_CHUNKS: return &ctx->chunks_param;
    case SK_PARAM_CPU_SERIAL_BELOW: return &ctx->serial_below_param;
    case SK_PARAM_CPU_SORT_LINES_FROM: return &ctx->sort_lines_param;
    case SK_PARAM_GPU_SORT_SKIP_FROM: return &ctx->sort_skip_param;
    case SK_PARAM_CPU_SORT_BUCKET_BYTES: return &ctx->sort_bucket_param;
    case SK_PARAM_MERGE_RUNS_ROUNDS: return &ctx->merge_rounds_param;
    case SK_PARAM_PROGRAM_CACHE: return &ctx->program_cache_param;
    case SK_PARAM_DISK_CACHE: return &ctx->disk_cache_param;
    default: return NULL;
    }
}

sk_status sk_context_set_param(sk_context *ctx, sk_param param, long v)
{
    if (!ctx) return SK_E_INVALID_ARG;
    param_range r;
    if (!param_range_of(ctx, param, &r))
        return sk__fail(ctx, SK_E_INVALID_ARG, "unknown parameter %d", (int)param);
    if (v != 0 && (v < r.least || v > r.most || (r.pow2 && !is_pow2(v))))
        return sk__fail(ctx, SK_E_INVALID_ARG, "parameter %d: value %ld out of range",
                        (int)param, v);
    long *field = param_field(ctx, param);
    if (field) *field = v;
    switch ((int)param) {
    case SK_PARAM_SHAPE: ctx->shape_param = (sk_shape)v; break;
    case SK_PARAM_SCAN_PATH: ctx->scan_path_param = (sk_scan_path)v; break;
    case SK_PARAM_PROFILE:
        ctx->profile = v == 1;
        if (!ctx->profile) profile_clear(ctx);
        break;
    case SK_PARAM_PROGRAM_CACHE: sk__program_cache_trim(ctx); break;
    case SK_PARAM_DISK_CACHE: return disk_cache_choose(ctx);
    default: break;
    }
    return SK_OK;
}

sk_status sk_context_get_param(const sk_context *ctx, sk_param param, long *v)
{
    param_range r;
    if (!ctx || !v || !param_range_of(ctx, param, &r)) return SK_E_INVALID_ARG;
    long *field = param_field((sk_context *)ctx, param);
    switch ((int)param) {
    case SK_PARAM_SHAPE: *v = sk__tuning_for(ctx, SK_FAMILY_SCAN, 4).shape; break;
    case SK_PARAM_PROFILE: *v = ctx->profile; break;
    case SK_PARAM_SCAN_PATH: *v = ctx->scan_path_param; break;
    default: *v = *field; break;
    }
    return SK_OK;
}

/* ---- statistics and profiling --------------------------------------------------- */

sk_status sk_context_build_stats(const sk_context *ctx, sk_build_stats *out)
{
    if (!ctx || !out || out->struct_size < sizeof *out) return SK_E_INVALID_ARG;
    size_t size = out->struct_size; /* the caller's, as sk_device_desc keeps it */
    *out = ctx->build_stats;
    out->struct_size = size;
    return SK_OK;
}

sk_status sk__profile_record(sk_context *ctx, cl_event ev)
{
    cl_event *e = room_for_one(ctx->events, &ctx->event_cap, ctx->event_count, sizeof *e, 64);
    if (!e) {
        clReleaseEvent(ev);
        return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "profiling record");
    }
    ctx->events = e;
    ctx->events[ctx->event_count++] = ev;
    return SK_OK;
}

/* Recorded launch i's start and end on the device (ns). */
static sk_status profile_times(sk_context *ctx, size_t i, cl_ulong *start, cl_ulong *end)
{
    sk_status st = SK_OK;
    SK_CL_TRY(ctx, clGetEventProfilingInfo(ctx->events[i], CL_PROFILING_COMMAND_START,
                                           sizeof *start, start, NULL));
    SK_CL_TRY(ctx, clGetEventProfilingInfo(ctx->events[i], CL_PROFILING_COMMAND_END,
                                           sizeof *end, end, NULL));
out:
    return st;
}

/* Under SCANKIT_LOG=1: each recorded launch's start and end from `first`
 * (the record's earliest start), in launch order (SCANKIT_TRACE names
 * them in the same order): where a span goes, and the device's idle gaps
 * between launches. */
static sk_status profile_log(sk_context *ctx, cl_ulong first)
{
    for (size_t i = 0; i < ctx->event_count; i++) {
        cl_ulong s = 0, e = 0;
        sk_status st = profile_times(ctx, i, &s, &e);
        if (st != SK_OK) return st;
        sk__log(ctx, "profile: launch %zu of %zu: %.1f .. %.1f us (%.1f us)", i + 1,
                ctx->event_count, (double)(s - first) * 1e-3, (double)(e - first) * 1e-3,
                (double)(e - s) * 1e-3);
    }
    return SK_OK;
}

sk_status sk_context_profile_take(sk_context *ctx, double *seconds, unsigned long *launches)
{
    if (!ctx || !seconds) return SK_E_INVALID_ARG;
    sk_status st = SK_OK;
    cl_ulong first = 0, last = 0;
    *seconds = 0.0;
    if (launches) *launches = (unsigned long)ctx->event_count;
    if (ctx->event_count == 0) return SK_OK;
    SK_CL_TRY(ctx, clWaitForEvents((cl_uint)ctx->event_count, ctx->events));
    for (size_t i = 0; i < ctx->event_count; i++) {
        cl_ulong s = 0, e = 0;
        SK_TRY(profile_times(ctx, i, &s, &e));
        if (i == 0 || s < first) first = s;
        if (e > last) last = e;
    }
    *seconds = (double)(last - first) * 1e-9;
    if (ctx->log) SK_TRY(profile_log(ctx, first));
out:
    profile_clear(ctx);
    return st;
}

/* ---- the context's own buffers --------------------------------------------------------- */

sk_status sk__new_buffer(sk_context *ctx, size_t bytes, const char *what, cl_mem *out)
{
    cl_int rc = CL_SUCCESS;
    *out = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &rc);
    if (rc != CL_SUCCESS) {
        *out = NULL;
        char call[96];
        snprintf(call, sizeof call, "clCreateBuffer(%s)", what);
        return sk__fail_cl(ctx, rc, call);
    }
    ctx->own_bytes += bytes;
    if (ctx->own_bytes > ctx->own_peak) ctx->own_peak = ctx->own_bytes;
    return SK_OK;
}

void sk__free_buffer(sk_context *ctx, cl_mem mem, size_t bytes)
{
    if (!mem) return;
    clReleaseMemObject(mem);
    ctx->own_bytes -= bytes;
}

/* ---- scratch ------------------------------------------------------------------------ */

const sk__scratch_id sk__scratch_host = {"host-array input", true};
const sk__scratch_id sk__scratch_host_values = {"host-array second input", true};
const sk__scratch_id sk__scratch_host_out = {"host-array output", true};
SK_SCRATCH_ID(lookback_state, "look-back state");
SK_SCRATCH_ID(zero_at_rest, "words kernels leave zero (tickets, counters)");

/* The entry of id, added empty when it has none; NULL when out of memory. */
static sk__scratch *scratch_entry(sk_context *ctx, const sk__scratch_id *id)
{
    for (size_t i = 0; i < ctx->scratch.count; i++)
        if (ctx->scratch.v[i].id == id) return &ctx->scratch.v[i];
    return scratch_append(&ctx->scratch, (sk__scratch){id, NULL, 0, 0});
}

/* The context's own buffer of id. */
static sk_status own_scratch(sk_context *ctx, const sk__scratch_id *id, size_t bytes,
                             cl_mem *out)
{
    sk__scratch *s = scratch_entry(ctx, id);
    if (!s) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "scratch for %s", id->what);
    if (s->mem && s->bytes >= bytes) {
        *out = s->mem;
        return SK_OK;
    }
    /* Grow geometrically so that a run of growing calls reallocates rarely. */
    size_t want = bytes;
    if (s->bytes && want < s->bytes + s->bytes / 2) want = s->bytes + s->bytes / 2;
    sk_status st = sk__fits_device(ctx, bytes, id->what);
    if (st != SK_OK) return st;
    if (want > ctx->desc.max_alloc_bytes) want = bytes;
    if (s->mem) {
        sk__free_buffer(ctx, s->mem, s->bytes);
        s->mem = NULL;
        s->bytes = 0;
    }
    cl_mem m = NULL;
    st = sk__new_buffer(ctx, want, "scratch", &m);
    if (st != SK_OK) return st;
    s->mem = m;
    s->bytes = want;
    *out = m;
    return SK_OK;
}

sk_status sk__fits_device(sk_context *ctx, size_t bytes, const char *what)
{
    if (bytes <= ctx->desc.max_alloc_bytes) return SK_OK;
    return sk__fail(ctx, SK_E_SIZE, "%s: %zu bytes, over the device's largest buffer (%llu)",
                    what, bytes, (unsigned long long)ctx->desc.max_alloc_bytes);
}

/* ---- the caller's scratch, and measuring ------------------------------------------- */

/* The last call's sub-buffers become the last call's: a call that asks
 * for a region of the same place and size takes it over (NVIDIA's driver
 * takes about 9 ms to make a sub-buffer: bench/results/nvidia-h100-whole),
 * and the rest go before the call makes a sub-buffer of its own (OpenCL
 * keeps each until the commands that use it are done). So no two live
 * sub-buffers overlap: one call's regions never do, and NVIDIA's driver
 * crashed releasing overlapping sub-buffers of several calls kept together
 * (H100, NVIDIA OpenCL 3.0 CUDA). */
void sk__call_begin(sk_context *ctx)
{
    sk__clear_error(ctx);
    ctx->carved = 0;
    scratch_release(&ctx->last_regions);
    sk__scratch_list last = ctx->last_regions;
    ctx->last_regions = ctx->regions;
    ctx->regions = last;
}

/* The last call's sub-buffer of exactly [off, off + bytes), taken over; else
 * NULL, and every sub-buffer of the last call released. */
static cl_mem last_region_at(sk_context *ctx, size_t off, size_t bytes)
{
    for (size_t i = 0; i < ctx->last_regions.count; i++) {
        sk__scratch *r = &ctx->last_regions.v[i];
        if (r->mem && r->off == off && r->bytes == bytes) {
            cl_mem m = r->mem;
            r->mem = NULL;
            return m;
        }
    }
    scratch_release(&ctx->last_regions);
    return NULL;
}

/* id's region of the running call: the one it has when large enough, else
 * a new one after everything carved so far (a region that grows moves, its
 * contents lost, as the context's own buffers do). The same steps measure
 * and carve, so a measured size is exactly what the call carves. */
static sk_status caller_region(sk_context *ctx, const sk__scratch_id *id, size_t bytes,
                               cl_mem *out)
{
    for (size_t i = 0; i < ctx->regions.count; i++) {
        sk__scratch *r = &ctx->regions.v[i];
        if (r->id == id && r->bytes >= bytes) {
            *out = r->mem ? r->mem : ctx->measure_stand_in;
            return SK_OK;
        }
    }
    size_t align = ctx->base_align, off = (ctx->carved + align - 1) / align * align;
    if (off < ctx->carved || bytes > SIZE_MAX - off)
        return sk__fail(ctx, SK_E_SIZE, "scratch for %s overflows size_t", id->what);
    if (!ctx->measuring && off + bytes > ctx->caller_scratch_bytes)
        return sk__fail(ctx, SK_E_SIZE, "the scratch given (%zu bytes) is too small: %s needs "
                        "bytes %zu to %zu", ctx->caller_scratch_bytes, id->what, off,
                        off + bytes);
    sk__scratch *r = scratch_append(&ctx->regions, (sk__scratch){id, NULL, off, bytes});
    if (!r) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "scratch for %s", id->what);
    if (!ctx->measuring && !(r->mem = last_region_at(ctx, off, bytes))) {
        cl_buffer_region where = {off, bytes};
        cl_int rc = CL_SUCCESS;
        r->mem = clCreateSubBuffer(ctx->caller_scratch, 0, CL_BUFFER_CREATE_TYPE_REGION, &where,
                                   &rc);
        if (rc != CL_SUCCESS) {
            r->mem = NULL;
            return sk__fail_cl(ctx, rc, "clCreateSubBuffer(scratch)");
        }
    }
    ctx->carved = off + bytes;
    if (ctx->measuring && ctx->carved > ctx->measured) ctx->measured = ctx->carved;
    *out = r->mem ? r->mem : ctx->measure_stand_in;
    return SK_OK;
}

sk_status sk__scratch_get(sk_context *ctx, const sk__scratch_id *id, size_t bytes, cl_mem *out)
{
    if (bytes == 0) bytes = 1;
    if (id->staging && ctx->measuring)
        return sk__fail(ctx, SK_E_INVALID_ARG, "the host-array forms cannot be measured: they "
                        "take the context's own scratch (measure the cl_mem form)");
    if (!id->staging && (ctx->measuring || ctx->caller_scratch))
        return caller_region(ctx, id, bytes, out);
    return own_scratch(ctx, id, bytes, out);
}

/* Regions start at multiples of the device's base address alignment, as
 * sub-buffers must. */
static sk_status read_base_align(sk_context *ctx)
{
    cl_uint bits = 0;
    sk_status st = SK_OK;
    SK_CL_TRY(ctx, clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits,
                                   &bits, NULL));
    ctx->base_align = bits >= 8 ? bits / 8 : 1;
out:
    return st;
}

sk_status sk_context_set_scratch(sk_context *ctx, cl_mem scratch, size_t bytes)
{
    SK_ENTER(ctx);
    sk_status st = SK_OK;
    if (scratch) {
        cl_context owner = NULL;
        cl_mem parent = NULL;
        SK_TRY(sk__check_buffer(ctx, scratch, bytes, "scratch"));
        if (clGetMemObjectInfo(scratch, CL_MEM_CONTEXT, sizeof owner, &owner, NULL) !=
                CL_SUCCESS || owner != ctx->context)
            return sk__fail(ctx, SK_E_INVALID_ARG, "scratch belongs to another OpenCL context");
        if (clGetMemObjectInfo(scratch, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent,
                               NULL) != CL_SUCCESS || parent)
            return sk__fail(ctx, SK_E_INVALID_ARG, "scratch is a sub-buffer (give its parent "
                            "and a size)");
        SK_CL_TRY(ctx, clRetainMemObject(scratch));
    }
    regions_release(ctx);
    if (ctx->caller_scratch) clReleaseMemObject(ctx->caller_scratch);
    ctx->caller_scratch = scratch;
    ctx->caller_scratch_bytes = scratch ? bytes : 0;
out:
    return st;
}

sk_status sk_context_scratch_query_begin(sk_context *ctx)
{
    SK_ENTER(ctx);
    if (ctx->measuring)
        return sk__fail(ctx, SK_E_INVALID_ARG, "already measuring (sk_context_scratch_query_end "
                        "ends it)");
    if (!ctx->measure_stand_in) {
        cl_int rc = CL_SUCCESS;
        ctx->measure_stand_in = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, 16, NULL, &rc);
        if (rc != CL_SUCCESS) {
            ctx->measure_stand_in = NULL;
            return sk__fail_cl(ctx, rc, "clCreateBuffer(measuring)");
        }
    }
    regions_release(ctx);
    ctx->measuring = true;
    ctx->measured = 0;
    return SK_OK;
}

sk_status sk_context_scratch_query_end(sk_context *ctx, size_t *bytes)
{
    SK_ENTER(ctx);
    if (!ctx->measuring)
        return sk__fail(ctx, SK_E_INVALID_ARG, "not measuring (sk_context_scratch_query_begin "
                        "starts it)");
    regions_release(ctx);
    ctx->measuring = false;
    if (bytes) *bytes = ctx->measured;
    return SK_OK;
}

/* ---- transfers ----------------------------------------------------------------------- */

sk_status sk__read(sk_context *ctx, cl_mem mem, bool blocking, size_t off, size_t bytes,
                   void *dst)
{
    sk_status st = SK_OK;
    if (ctx->measuring) {
        memset(dst, 0, bytes);
        return SK_OK;
    }
    SK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, mem, blocking ? CL_TRUE : CL_FALSE, off,
                                       bytes, dst, 0, NULL, NULL));
out:
    return st;
}

sk_status sk__write(sk_context *ctx, cl_mem mem, bool blocking, size_t off, size_t bytes,
                    const void *src)
{
    sk_status st = SK_OK;
    if (ctx->measuring) return SK_OK;
    SK_CL_TRY(ctx, clEnqueueWriteBuffer(ctx->queue, mem, blocking ? CL_TRUE : CL_FALSE, off,
                                        bytes, src, 0, NULL, NULL));
out:
    return st;
}

sk_status sk__copy(sk_context *ctx, cl_mem src, size_t src_off, cl_mem dst, size_t dst_off,
                   size_t bytes)
{
    sk_status st = SK_OK;
    if (ctx->measuring) return SK_OK;
    SK_CL_TRY(ctx, clEnqueueCopyBuffer(ctx->queue, src, dst, src_off, dst_off, bytes, 0, NULL,
                                       NULL));
out:
    return st;
}

sk_status sk__fill_zero(sk_context *ctx, cl_mem mem, size_t bytes)
{
    const cl_ulong zero[2] = {0, 0};
    size_t wide = ctx->desc.is_gpu ? bytes / sizeof zero * sizeof zero : 0;
    sk_status st = SK_OK;
    if (ctx->measuring) return SK_OK;
    if (wide)
        SK_CL_TRY(ctx, clEnqueueFillBuffer(ctx->queue, mem, zero, sizeof zero, 0, wide, 0, NULL,
                                           NULL));
    if (bytes > wide)
        SK_CL_TRY(ctx, clEnqueueFillBuffer(ctx->queue, mem, zero, 1, wide, bytes - wide, 0,
                                           NULL, NULL));
out:
    return st;
}

/* Epochs take the 29 high bits of a state word (kernels/lookback.cl). */
#define LOOKBACK_EPOCH_MAX ((1u << 29) - 1)

sk_status sk__lookback_state_zeroed(sk_context *ctx, size_t tiles, cl_mem *mem,
                                    cl_uint *epoch)
{
    sk_status st = SK_OK;
    size_t bytes = (tiles + 1) * sizeof(cl_ulong);
    SK_TRY(sk__scratch_get(ctx, &lookback_state, bytes, mem));
    SK_TRY(sk__fill_zero(ctx, *mem, bytes));
    *epoch = 1;
    /* Words written without epoch could read as a later epoch's: the next
     * launch by epochs zeroes the buffer first. */
    ctx->lookback_epoch = LOOKBACK_EPOCH_MAX;
out:
    return st;
}

sk_status sk__lookback_state(sk_context *ctx, size_t tiles, cl_mem *mem, cl_uint *epoch)
{
    sk_status st = SK_OK;
    size_t bytes = (tiles + 1) * sizeof(cl_ulong);
    /* The caller's scratch holds anything between calls: zero it. */
    if (ctx->caller_scratch || ctx->measuring)
        return sk__lookback_state_zeroed(ctx, tiles, mem, epoch);
    sk__scratch *s = scratch_entry(ctx, &lookback_state);
    if (!s) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "look-back state");
    size_t had = s->bytes;
    SK_TRY(sk__scratch_get(ctx, &lookback_state, bytes, mem));
    /* A new buffer holds garbage, and a wrapped epoch would match old words:
     * zero every word (tile counter included) and start again from 1. */
    if (s->bytes != had || ctx->lookback_epoch >= LOOKBACK_EPOCH_MAX) {
        SK_TRY(sk__fill_zero(ctx, *mem, s->bytes));
        ctx->lookback_epoch = 0;
    }
    *epoch = ++ctx->lookback_epoch;
out:
    return st;
}

sk_status sk__zero_at_rest(sk_context *ctx, size_t bytes, cl_mem *mem, size_t *dirty)
{
    sk_status st = SK_OK;
    *dirty = bytes;
    if (ctx->caller_scratch || ctx->measuring)
        return sk__scratch_get(ctx, &zero_at_rest, bytes, mem);
    sk__scratch *s = scratch_entry(ctx, &zero_at_rest);
    if (!s) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "scratch for %s", zero_at_rest.what);
    cl_mem had = s->mem;
    size_t had_bytes = s->bytes;
    SK_TRY(sk__scratch_get(ctx, &zero_at_rest, bytes, mem));
    /* A new buffer (grown, or after sk_context_trim) holds garbage. */
    if (*mem != had || s->bytes != had_bytes) ctx->zero_at_rest_known = false;
    *dirty = ctx->zero_at_rest_known ? 0 : s->bytes;
out:
    return st;
}

void sk__zero_at_rest_zeroed(sk_context *ctx)
{
    if (!ctx->caller_scratch && !ctx->measuring) ctx->zero_at_rest_known = true;
}

/* Host-array forms: n elements of elem bytes copied into id's scratch.
 * Blocking, so the caller's array may go as soon as this returns. */
sk_status sk__stage_in(sk_context *ctx, const sk__scratch_id *id, const void *src, size_t n,
                       size_t elem, cl_mem *mem)
{
    size_t bytes = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__byte_size(ctx, n, elem, &bytes));
    if (bytes && !src) return sk__fail(ctx, SK_E_INVALID_ARG, "a host array is NULL");
    SK_TRY(sk__scratch_get(ctx, id, bytes, mem));
    if (bytes) SK_TRY(sk__upload(ctx, *mem, 0, src, bytes));
out:
    return st;
}

/* ---- checks ------------------------------------------------------------------------ */

sk_status sk__require_fp64(sk_context *ctx, sk_type t)
{
    if (t != SK_FLOAT64 || ctx->desc.has_fp64) return SK_OK;
    return sk__fail(ctx, SK_E_UNSUPPORTED, "float64 needs fp64, which %s lacks",
                    ctx->desc.device_name);
}

sk_status sk__byte_size(sk_context *ctx, size_t n, size_t elem, size_t *bytes)
{
    if (elem && n > SIZE_MAX / elem)
        return sk__fail(ctx, SK_E_SIZE, "%zu elements of %zu bytes overflow size_t", n, elem);
    *bytes = n * elem;
    return SK_OK;
}

bool sk__buffers_overlap(cl_mem m1, size_t b1, cl_mem m2, size_t b2)
{
    if (m1 == m2) return true;
    cl_mem root[2] = {m1, m2}, parent = NULL;
    size_t off[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (clGetMemObjectInfo(root[k], CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent,
                               NULL) != CL_SUCCESS || !parent)
            continue;
        if (clGetMemObjectInfo(root[k], CL_MEM_OFFSET, sizeof off[k], &off[k], NULL) !=
            CL_SUCCESS)
            off[k] = 0;
        root[k] = parent;
    }
    return root[0] == root[1] && b1 && b2 && off[0] < off[1] + b2 && off[1] < off[0] + b1;
}

sk_status sk__check_buffer(sk_context *ctx, cl_mem mem, size_t bytes, const char *name)
{
    if (!mem) return sk__fail(ctx, SK_E_INVALID_ARG, "%s is NULL", name);
    /* while measuring, scratch a primitive hands to another stands in for
     * a buffer of any size */
    if (ctx->measuring && mem == ctx->measure_stand_in) return SK_OK;
    size_t size = 0;
    cl_mem_object_type type = 0;
    if (clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        type != CL_MEM_OBJECT_BUFFER ||
        clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
        return sk__fail(ctx, SK_E_INVALID_ARG, "%s is not a buffer", name);
    if (size < bytes)
        return sk__fail(ctx, SK_E_INVALID_ARG, "%s holds %zu bytes, %zu needed", name,
                        size, bytes);
    return SK_OK;
}
