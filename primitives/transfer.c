/*
 * transfer.c - the host-array forms' copies between the caller's arrays and
 * the device.
 *
 * From pageable memory a GPU's driver copies through its own small pinned
 * buffer, one piece at a time, behind one thread (H100, NVIDIA's OpenCL:
 * 7-10 GB/s each way). Here large copies go through the context's pinned
 * slots instead (CL_MEM_ALLOC_HOST_PTR, mapped once, kept until
 * sk_context_trim): the copy is cut into pieces that several lanes (threads)
 * share out in turn, each lane with two slots, so that a lane fills one slot
 * (memcpy from the caller's array) while the other slot's piece is on its
 * way to the device, and the lanes' memcpys run side by side. Copies back
 * run the same way the other direction. The queue runs in order, so the
 * pieces of an upload reach the device before anything enqueued after it.
 *
 * CPU devices take the plain path (their "device" memory is host memory:
 * a pinned slot is one more copy), as do small copies and a context that
 * is measuring. SCANKIT_PINNED=0 takes the plain path everywhere.
 */
#define _POSIX_C_SOURCE 200809L
#include "sk_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pieces of 4 MiB, a lane per core for 3 cores of 4, at most 12 (96 MiB of
 * pinned slots). H100 machine (16 cores), 2^28 uint32 keys (pairs), the
 * host form's fraction of the pinned limit (bench_host_sort, medians of 5):
 * 8 lanes 0.52 (0.48) with 1 MiB pieces, 0.61 (0.48) 2 MiB, 0.68 (0.70)
 * 4 MiB; 12 lanes 0.72 (0.65), 0.80 (0.78), 0.77 (0.85); 16 lanes 0.65
 * (0.61), 0.79 (0.72), 0.70 (0.72); 8 MiB pieces and 8 lanes 0.48-0.63,
 * one lane 0.12; the driver's own copy from pageable memory 0.21 (0.20).
 * SCANKIT_HOST_LANES and SCANKIT_HOST_PIECE_MB override them. */
#define PIECE_BYTES ((size_t)4 << 20)
#define LANES_MAX 16u
#define LANES_DEFAULT_MAX 12
#define SLOTS_PER_LANE 2u

/* ---- the slots ------------------------------------------------------------------ */

static unsigned lanes_wanted(const sk_context *ctx)
{
    if (ctx->test_host_lanes) return ctx->test_host_lanes;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("SCANKIT_HOST_LANES");
    long want = cpus * 3 / 4 < LANES_DEFAULT_MAX ? cpus * 3 / 4 : LANES_DEFAULT_MAX;
    if (env && *env) want = strtol(env, NULL, 10);
    if (want < 1) want = 1;
    return want > (long)LANES_MAX ? LANES_MAX : (unsigned)want;
}

static size_t piece_wanted(const sk_context *ctx)
{
    if (ctx->test_host_piece) return ctx->test_host_piece;
    const char *env = getenv("SCANKIT_HOST_PIECE_MB");
    long mb = env && *env ? strtol(env, NULL, 10) : 0;
    return mb > 0 ? (size_t)mb << 20 : PIECE_BYTES;
}

/* Whether copies of `bytes` go through the slots. */
static bool through_slots(const sk_context *ctx, size_t bytes)
{
    if (ctx->measuring) return false;
    if (ctx->test_host_piece) return bytes > ctx->test_host_piece;
    const char *env = getenv("SCANKIT_PINNED");
    if (!ctx->desc.is_gpu || (env && strcmp(env, "0") == 0)) return false;
    return bytes >= 2 * piece_wanted(ctx);
}

void sk__host_slots_release(sk_context *ctx)
{
    sk__host_slots *h = &ctx->host_slots;
    for (size_t i = 0; i < h->count; i++) {
        sk__host_slot *s = &h->slot[i];
        if (s->ev) clWaitForEvents(1, &s->ev), clReleaseEvent(s->ev);
        if (s->ptr) clEnqueueUnmapMemObject(ctx->queue, s->buf, s->ptr, 0, NULL, NULL);
        if (s->buf) clReleaseMemObject(s->buf);
    }
    if (h->count) clFinish(ctx->queue);
    free(h->slot);
    memset(h, 0, sizeof *h);
}

static sk_status slot_make(sk_context *ctx, sk__host_slot *s, size_t bytes)
{
    cl_int rc = CL_SUCCESS;
    s->buf = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
                            NULL, &rc);
    if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clCreateBuffer (pinned slot)");
    s->ptr = clEnqueueMapBuffer(ctx->queue, s->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                bytes, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) return sk__fail_cl(ctx, rc, "clEnqueueMapBuffer (pinned slot)");
    return SK_OK;
}

/* The slots, made on first use (and again where the piece or lanes changed). */
static sk_status slots_ready(sk_context *ctx)
{
    sk__host_slots *h = &ctx->host_slots;
    size_t piece = piece_wanted(ctx);
    unsigned lanes = lanes_wanted(ctx);
    if (h->count && h->piece == piece && h->lanes == lanes) return SK_OK;
    sk__host_slots_release(ctx);
    h->slot = calloc((size_t)lanes * SLOTS_PER_LANE, sizeof *h->slot);
    if (!h->slot) return sk__fail(ctx, SK_E_OUT_OF_MEMORY, "the pinned slots' list");
    h->count = (size_t)lanes * SLOTS_PER_LANE;
    h->piece = piece;
    h->lanes = lanes;
    sk_status st = SK_OK;
    for (size_t i = 0; i < h->count && st == SK_OK; i++) st = slot_make(ctx, &h->slot[i], piece);
    if (st != SK_OK) sk__host_slots_release(ctx);
    return st;
}

/* ---- the lanes ---------------------------------------------------------------- */

/* One lane's share of a copy: the pieces first, first + stride, ... */
typedef struct lane {
    sk_context *ctx;
    cl_mem mem;
    size_t off;                    /* of the copy in mem */
    unsigned char *host;           /* the caller's array */
    size_t bytes, piece;
    size_t first, stride;
    bool up;                       /* host to device */
    sk__host_slot *slot;           /* this lane's SLOTS_PER_LANE slots */
    cl_int rc;                     /* the first failure */
} lane;

static size_t piece_len(const lane *l, size_t i)
{
    size_t at = i * l->piece;
    return l->bytes - at < l->piece ? l->bytes - at : l->piece;
}

/* Waits for the slot's last copy (and forgets it). */
static cl_int slot_wait(sk__host_slot *s)
{
    if (!s->ev) return CL_SUCCESS;
    cl_int rc = clWaitForEvents(1, &s->ev);
    clReleaseEvent(s->ev);
    s->ev = NULL;
    return rc;
}

static void lane_up(lane *l)
{
    cl_command_queue q = l->ctx->queue;
    size_t k = 0;
    for (size_t i = l->first; i * l->piece < l->bytes && l->rc == CL_SUCCESS; i += l->stride) {
        sk__host_slot *s = &l->slot[k++ % SLOTS_PER_LANE];
        size_t len = piece_len(l, i);
        if ((l->rc = slot_wait(s)) != CL_SUCCESS) break;
        memcpy(s->ptr, l->host + i * l->piece, len);
        l->rc = clEnqueueWriteBuffer(q, l->mem, CL_FALSE, l->off + i * l->piece, len, s->ptr, 0,
                                     NULL, &s->ev);
        if (l->rc == CL_SUCCESS) l->rc = clFlush(q);
    }
}

static cl_int read_piece(lane *l, size_t i, sk__host_slot *s)
{
    cl_int rc = clEnqueueReadBuffer(l->ctx->queue, l->mem, CL_FALSE, l->off + i * l->piece,
                                    piece_len(l, i), s->ptr, 0, NULL, &s->ev);
    return rc == CL_SUCCESS ? clFlush(l->ctx->queue) : rc;
}

/* Each slot holds the read of a piece ahead while the one before is copied
 * out; every read is waited for before the lane ends. */
static void lane_down(lane *l)
{
    size_t next = l->first, k = 0;
    for (unsigned j = 0; j < SLOTS_PER_LANE && next * l->piece < l->bytes; j++) {
        if ((l->rc = slot_wait(&l->slot[j])) != CL_SUCCESS) break; /* an upload's */
        if ((l->rc = read_piece(l, next, &l->slot[j])) != CL_SUCCESS) break;
        next += l->stride;
    }
    for (size_t i = l->first; i * l->piece < l->bytes; i += l->stride) {
        sk__host_slot *s = &l->slot[k++ % SLOTS_PER_LANE];
        cl_int rc = slot_wait(s);
        if (l->rc == CL_SUCCESS) l->rc = rc;
        if (l->rc != CL_SUCCESS) continue; /* only waits from here */
        memcpy(l->host + i * l->piece, s->ptr, piece_len(l, i));
        if (next * l->piece < l->bytes) {
            l->rc = read_piece(l, next, s);
            next += l->stride;
        }
    }
}

static void *lane_run(void *arg)
{
    lane *l = arg;
    if (l->up) lane_up(l);
    else lane_down(l);
    return NULL;
}

/* The copy shared out over the lanes: lane 0 on this thread, the others on
 * threads of their own (where a thread cannot start, its lane runs here
 * after lane 0). */
static sk_status copy_in_lanes(sk_context *ctx, cl_mem mem, size_t off, void *host,
                               size_t bytes, bool up)
{
    sk__host_slots *h = &ctx->host_slots;
    size_t pieces = (bytes + h->piece - 1) / h->piece;
    unsigned n = h->lanes < pieces ? h->lanes : (unsigned)pieces;
    lane lanes[LANES_MAX];
    pthread_t tid[LANES_MAX];
    bool started[LANES_MAX] = {false};
    for (unsigned i = 0; i < n; i++)
        lanes[i] = (lane){ctx, mem, off, host, bytes, h->piece, i, n, up,
                          &h->slot[i * SLOTS_PER_LANE], CL_SUCCESS};
    for (unsigned i = 1; i < n; i++)
        started[i] = pthread_create(&tid[i], NULL, lane_run, &lanes[i]) == 0;
    lane_run(&lanes[0]);
    for (unsigned i = 1; i < n; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else lane_run(&lanes[i]);
    }
    for (unsigned i = 0; i < n; i++)
        if (lanes[i].rc != CL_SUCCESS)
            return sk__fail_cl(ctx, lanes[i].rc, up ? "clEnqueueWriteBuffer (pinned slot)"
                                                    : "clEnqueueReadBuffer (pinned slot)");
    return SK_OK;
}

/* ---- the copies ------------------------------------------------------------------- */

sk_status sk__upload(sk_context *ctx, cl_mem mem, size_t off, const void *src, size_t bytes)
{
    if (!through_slots(ctx, bytes)) return sk__write(ctx, mem, true, off, bytes, src);
    sk_status st = slots_ready(ctx);
    if (st != SK_OK) {
        sk__clear_error(ctx); /* no pinned memory: the plain copy */
        return sk__write(ctx, mem, true, off, bytes, src);
    }
    return copy_in_lanes(ctx, mem, off, (void *)(uintptr_t)src, bytes, true);
}

sk_status sk__download(sk_context *ctx, cl_mem mem, size_t off, void *dst, size_t bytes)
{
    if (!through_slots(ctx, bytes)) return sk__read(ctx, mem, true, off, bytes, dst);
    sk_status st = slots_ready(ctx);
    if (st != SK_OK) {
        sk__clear_error(ctx);
        return sk__read(ctx, mem, true, off, bytes, dst);
    }
    return copy_in_lanes(ctx, mem, off, dst, bytes, false);
}

sk_status sk__check_host_arrays(sk_context *ctx, size_t n, const void *keys, const void *values,
                                bool pairs, const char *name)
{
    if (n && !keys) return sk__fail(ctx, SK_E_INVALID_ARG, "%s is NULL", name);
    if (pairs && n && !values) return sk__fail(ctx, SK_E_INVALID_ARG, "values is NULL");
    if (pairs && n && keys == values)
        return sk__fail(ctx, SK_E_INVALID_ARG, "%s and values are the same array", name);
    return SK_OK;
}

sk_status sk__host_in_place(sk_context *ctx, void *keys, size_t kbytes, void *values,
                            size_t vbytes, const char *what, sk__in_place_fn run,
                            const void *req)
{
    cl_mem km = NULL, vm = NULL;
    sk_status st = SK_OK;
    SK_TRY(sk__fits_device(ctx, kbytes, what));
    SK_TRY(sk__fits_device(ctx, vbytes, "the values' device copy"));
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, keys, kbytes, 1, &km));
    if (vbytes) SK_TRY(sk__stage_in(ctx, &sk__scratch_host_values, values, vbytes, 1, &vm));
    SK_TRY(run(ctx, req, km, vm));
    if (vbytes) SK_TRY(sk__download(ctx, vm, 0, values, vbytes));
    SK_TRY(sk__download(ctx, km, 0, keys, kbytes));
out:
    if (st != SK_OK) clFinish(ctx->queue); /* no transfer may outlive the call */
    return st;
}
