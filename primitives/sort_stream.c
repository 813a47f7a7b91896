/*
 * sort_stream.c - the radix sort of data that streams in through the
 * caller's readers and out through its writers, within budgets of device
 * and host memory (sk_sort_*_stream; what it promises is in scankit.h).
 *
 *   plan    the run length r: the device holds a run's keys and values
 *           and the radix sort's scratch for them (measured by the scratch
 *           query; the context makes it at that size at the first sort,
 *           the largest) within device_bytes; the host holds two
 *           stagings of a run (the merge's turns; the runs use one) and
 *           the merge's windows (a run's elements in all) within
 *           host_bytes, what is left of it for runs
 *   runs    each run is read into the staging (pinned where the device
 *           gives pinned memory), each piece copied to the device as soon
 *           as it is in; sorted; then, when the input ended within the
 *           first run, written out piece by piece as it comes back: the
 *           whole sort. Else the run is kept in host memory while the
 *           budget allows, or appended to the temporary file
 *   merge   a window of the next w = r / k elements of each of the k runs;
 *           each step takes from every window the keys no later key can
 *           precede: below the smallest last key L of the windows whose
 *           runs go on, and those equal to L from the runs up to the first
 *           one whose window ends at L. Those are gathered into the staging
 *           in run order and sorted on the device (stable: the stable
 *           merge), then written; a step takes at least that first run's
 *           whole window, so the merge moves on whatever the keys. Two
 *           stagings take turns: a block is sent while the one before is
 *           written, and sorted and brought back while the next is
 *           gathered (the queue runs in order, so a staging is reused only
 *           after its block came back).
 */
#define _GNU_SOURCE /* O_TMPFILE */

#include "sort.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Copies to and from the device go in pieces of at most this many bytes
 * (a run's bytes when smaller), so that each overlaps the reading or
 * writing of the next. */
#define PIECE_BYTES ((size_t)16 << 20)

/* A run: its elements, in host memory or in the temporary file, and its
 * window of the merge. */
typedef struct ss_run {
    uint64_t n;
    unsigned char *mem[2];   /* keys, values in host memory; NULL: spilled */
    uint64_t off[2];         /* spilled: where its keys, values start in the file */
    uint64_t next;           /* merge: the first element not yet taken */
    unsigned char *win[2];   /* spilled: the window's copy of w elements */
    size_t win_n;            /* elements in that copy, from `next` on */
} ss_run;

/* Host memory a run passes through on its way to and from the device. */
typedef struct stage {
    unsigned char **chunk;   /* chunk i: bytes [i, i + 1) x the piece size */
    cl_mem *pinned;          /* its buffer where it is pinned memory, else NULL */
    size_t count, cap;
} stage;

/* One stream sort. Index 0 is the keys, 1 the values. */
typedef struct ss {
    sk_context *ctx;
    sort_req req;            /* n set per device sort */
    size_t es[2];            /* bytes of a key, of a value (0: keys only) */
    int parts;               /* 1: keys, 2: pairs */
    sk_reader in[2];
    sk_writer out[2];
    sk_stream_opts opts;
    sk_stream_stats st;
    double start;
    uint64_t phase_done;     /* progress of the phase under way, in bytes */
    int merging;             /* the merge pass is under way */
    /* plan */
    size_t r;                /* elements of a run */
    size_t piece[2];         /* bytes of a piece of the staging and of a copy */
    size_t dev_cap;          /* elements the device buffers hold (0: none yet) */
    size_t sent[2];          /* bytes of the staging sent to them */
    cl_mem dev[2];
    cl_event last_send;      /* the last copy from a staging to the device (NULL: done) */
    stage stage[2][2];       /* [set][part]: the merge's two stagings */
    int set;                 /* the staging in use */
    int pin;                 /* new staging memory is pinned, where the device gives it */
    unsigned char *direct[2];/* the device buffers mapped: the first run is read
                                straight into them (NULL: through the staging) */
    size_t direct_cap;       /* elements they hold */
    unsigned char peek[8];   /* bytes of the next run read while probing for the end */
    size_t peek_len;
    /* runs */
    ss_run *runs;
    size_t k, cap;
    size_t mem_runs_left;    /* runs that may still stay in host memory */
    int fd;                  /* the temporary file, -1 until needed */
    uint64_t file_end;
    uint64_t host_now;       /* host bytes allocated now */
} ss;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* SCANKIT_LOG=1: where the time goes, phase by phase. */
static void log_step(const ss *s, const char *what)
{
    sk__log(s->ctx, "stream sort: %.3f s: %s", now() - s->start, what);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t elem_bytes(const ss *s)
{
    return s->es[0] + s->es[1];
}

static void host_add(ss *s, uint64_t bytes)
{
    s->host_now += bytes;
    if (s->host_now > s->st.host_bytes) s->st.host_bytes = s->host_now;
}

static void progress(ss *s, const char *phase, uint64_t add, uint64_t total)
{
    s->phase_done += add;
    if (s->opts.progress)
        s->opts.progress(s->opts.progress_user, phase, s->phase_done, total);
}

/* ---- the caller's functions ------------------------------------------------ */

/* Up to `bytes` of input `p` into buf, all of them unless it ends first:
 * *got bytes. The bytes a probe for the end read come first. */
static sk_status read_fully(ss *s, int p, unsigned char *buf, size_t bytes, size_t *got)
{
    static const char *const what[2] = {"keys", "values"};
    size_t have = 0;
    if (p == 0 && s->peek_len) {
        have = min_size(s->peek_len, bytes);
        memcpy(buf, s->peek, have);
        memmove(s->peek, s->peek + have, s->peek_len - have);
        s->peek_len -= have;
    }
    double t0 = now();
    while (have < bytes) {
        long long n = s->in[p].fn(s->in[p].user, buf + have, bytes - have);
        if (n < 0 || (unsigned long long)n > bytes - have) {
            s->st.read_seconds += now() - t0;
            return sk__fail(s->ctx, SK_E_IO, "the %s' reader failed", what[p]);
        }
        if (n == 0) break;
        have += (size_t)n;
        progress(s, "reading", (uint64_t)n, s->opts.expected_bytes);
    }
    s->st.read_seconds += now() - t0;
    *got = have;
    return SK_OK;
}

static sk_status write_out(ss *s, int p, const void *buf, size_t bytes)
{
    static const char *const what[2] = {"keys'", "values'"};
    if (bytes == 0) return SK_OK;
    double t0 = now();
    int rc = s->out[p].fn(s->out[p].user, buf, bytes);
    s->st.write_seconds += now() - t0;
    return rc == 0 ? SK_OK : sk__fail(s->ctx, SK_E_IO, "the %s writer failed", what[p]);
}

/* ---- the temporary file ----------------------------------------------------- */

static const char *temp_dir(const ss *s)
{
    const char *d = s->opts.temp_dir;
    if (!d || !*d) d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

/* An unnamed file in the directory, or a named one unlinked at once. */
static sk_status open_temp(ss *s)
{
    const char *dir = temp_dir(s);
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/.scankit-sort-XXXXXX", dir) >= sizeof path)
            return sk__fail(s->ctx, SK_E_IO, "temporary directory name too long: %s", dir);
        fd = mkstemp(path);
        if (fd >= 0) unlink(path);
    }
    if (fd < 0)
        return sk__fail(s->ctx, SK_E_IO, "cannot make a temporary file in %s: %s", dir,
                        strerror(errno));
    s->fd = fd;
    return SK_OK;
}

/* All `bytes` at `at` of the temporary file, written from buf or read
 * into it. */
static sk_status spill_io(ss *s, int writing, unsigned char *buf, size_t bytes, uint64_t at)
{
    double t0 = now();
    while (bytes) {
        ssize_t n = writing ? pwrite(s->fd, buf, bytes, (off_t)at)
                            : pread(s->fd, buf, bytes, (off_t)at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            s->st.spill_seconds += now() - t0;
            return sk__fail(s->ctx, SK_E_IO, "%s the temporary file in %s failed: %s",
                            writing ? "writing" : "reading", temp_dir(s),
                            n < 0 ? strerror(errno) : "it ended early");
        }
        buf += n, bytes -= (size_t)n, at += (uint64_t)n;
    }
    s->st.spill_seconds += now() - t0;
    return SK_OK;
}

static sk_status spill_write(ss *s, const void *buf, size_t bytes, uint64_t at)
{
    return spill_io(s, 1, (unsigned char *)buf, bytes, at);
}

static sk_status spill_read(ss *s, void *buf, size_t bytes, uint64_t at)
{
    return spill_io(s, 0, buf, bytes, at);
}

/* ---- the plan ------------------------------------------------------------------ */

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* The scratch the radix sort takes for n elements. */
static sk_status measure_scratch(ss *s, size_t n, size_t *bytes)
{
    sk_context *ctx = s->ctx;
    sk_status st = sk_context_scratch_query_begin(ctx);
    if (st != SK_OK) return st;
    sort_req r = s->req;
    r.n = n;
    st = sk__sort_run(ctx, &r, ctx->measure_stand_in,
                      s->parts == 2 ? ctx->measure_stand_in : NULL);
    sk_status end = sk_context_scratch_query_end(ctx, bytes);
    return st != SK_OK ? st : end;
}

static uint64_t physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : (uint64_t)1 << 32;
}

static uint64_t device_budget(const ss *s)
{
    return s->opts.device_bytes ? s->opts.device_bytes : s->ctx->desc.global_mem_bytes / 2;
}

static uint64_t host_budget(const ss *s)
{
    return s->opts.host_bytes ? s->opts.host_bytes : physical_memory() / 2;
}

/* Device bytes of runs of r: the buffers and the scratch. */
static sk_status device_need(ss *s, size_t r, uint64_t *need, size_t *scratch)
{
    sk_status st = measure_scratch(s, r, scratch);
    if (st != SK_OK) return st;
    size_t align = s->ctx->base_align;
    *need = align_up(r * s->es[0], align) + align_up(r * s->es[1], align) + *scratch;
    return SK_OK;
}

/* Whether the staging is pinned: for one pass over the data (one run) it
 * was not worth its allocation (H100, 1 GiB, the whole program 3.5-4.1 s
 * pinned against 3.3-3.8 s, three runs each; the copies overlap the
 * reading and writing either way); staging used again and again (several
 * runs and the merge's blocks) it is (H100, 4 GiB in runs within 512 MiB:
 * the sort apart from the reading and writing 2.3-2.5 s pinned, 3.4-3.6 s
 * in huge pages, two runs each). SCANKIT_PINNED=1 pins it always, 0
 * never. */
static int pin_staging(int reused)
{
    const char *env = getenv("SCANKIT_PINNED");
    if (env && strcmp(env, "1") == 0) return 1;
    if (env && strcmp(env, "0") == 0) return 0;
    return reused;
}

/* The longest runs within both budgets and the device's largest buffer. */
static sk_status plan_runs(ss *s)
{
    uint64_t dev = device_budget(s), host = host_budget(s), most = s->ctx->desc.max_alloc_bytes;
    size_t es = elem_bytes(s), big = s->es[0] > s->es[1] ? s->es[0] : s->es[1];
    uint64_t r = dev / (2 * es);
    if (r > host / (3 * es)) r = host / (3 * es);
    if (r > most / big) r = most / big;
    if (r > SIZE_MAX / es) r = SIZE_MAX / es;
    for (int tries = 0; r > 0 && tries < 16; tries++) {
        uint64_t need = 0;
        size_t scratch = 0;
        sk_status st = device_need(s, (size_t)r, &need, &scratch);
        if (st != SK_OK) return st;
        if (need <= dev && scratch <= most) {
            s->r = (size_t)r;
            size_t piece = s->ctx->test_stream_piece ? s->ctx->test_stream_piece : PIECE_BYTES;
            for (int p = 0; p < s->parts; p++)
                s->piece[p] = min_size(piece, s->r * s->es[p]);
            uint64_t used = 3 * r * es, run = r * es; /* two stagings, the windows */
            s->mem_runs_left = host > used ? (size_t)((host - used) / run) : 0;
            s->pin = pin_staging(s->opts.expected_bytes > run); /* several runs ahead */
            return SK_OK;
        }
        double by = (double)dev / (double)need;
        if ((double)most / (double)scratch < by) by = (double)most / (double)scratch;
        uint64_t smaller = (uint64_t)((double)r * by * 0.97);
        r = smaller < r ? smaller : r - 1;
    }
    return sk__fail(s->ctx, SK_E_SIZE, "%llu bytes of device memory and %llu of host memory "
                    "hold no run of the sort (a run's elements and the sort's scratch)",
                    (unsigned long long)dev, (unsigned long long)host);
}

static void release_device(ss *s)
{
    clFinish(s->ctx->queue);
    for (int p = 0; p < 2; p++) {
        sk__free_buffer(s->ctx, s->dev[p], s->dev_cap * s->es[p]);
        s->dev[p] = NULL;
    }
    s->dev_cap = 0;
}

/* Device buffers for runs of `cap` elements, in place of any smaller ones
 * (what was sent to those is sent again), and the scratch their sort takes
 * counted: the context allocates it at the first sort, the largest (its
 * own scratch buffers are made at the size asked first; a sub-buffer of
 * the caller's scratch would take NVIDIA's driver a second to release). */
static sk_status open_device(ss *s, size_t cap)
{
    size_t scratch = 0;
    sk_status st = SK_OK;
    release_device(s);
    s->sent[0] = s->sent[1] = 0;
    SK_TRY(measure_scratch(s, cap, &scratch));
    s->dev_cap = cap; /* (what release_device() frees) */
    for (int p = 0; p < s->parts; p++)
        SK_TRY(sk__new_buffer(s->ctx, cap * s->es[p], "stream sort", &s->dev[p]));
    size_t align = s->ctx->base_align;
    uint64_t used = align_up(cap * s->es[0], align) + align_up(cap * s->es[1], align) + scratch;
    if (used > s->st.device_bytes) s->st.device_bytes = used;
out:
    return st;
}

/* ---- the staging ------------------------------------------------------------------ */

/* Host memory for the data (staging, runs kept in memory, windows): in
 * huge pages where the system gives them, a page fault per 2 MiB, not per
 * 4 KiB, as the data first goes through it (H100 machine, 1 GiB: the
 * reading of a run 0.62-0.73 s with 4 KiB pages, 0.31-0.37 s with these).
 * free() releases it. */
static void *host_pages(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    size_t huge = (size_t)2 << 20;
    if (bytes >= huge) {
        void *p = aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
        if (p) madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(bytes);
}

/* Staging memory of part p in the set in use, made of pieces of
 * s->piece[p], made as needed: host_pages(), or with s->pin pinned memory
 * where the device gives it (CL_MEM_ALLOC_HOST_PTR, mapped). */
static sk_status stage_reserve(ss *s, int p, size_t bytes)
{
    stage *g = &s->stage[s->set][p];
    size_t need = (bytes + s->piece[p] - 1) / s->piece[p];
    if (need > g->cap) {
        size_t cap = need > 2 * g->cap ? need : 2 * g->cap;
        unsigned char **c = realloc(g->chunk, cap * sizeof *c);
        cl_mem *m = c ? realloc(g->pinned, cap * sizeof *m) : NULL;
        if (c) g->chunk = c;
        if (!m) return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "the staging's list");
        g->pinned = m, g->cap = cap;
    }
    int pinned = s->pin;
    for (; g->count < need; g->count++) {
        cl_int rc = CL_SUCCESS;
        unsigned char *mem = NULL;
        cl_mem buf = pinned ? clCreateBuffer(s->ctx->context,
                                             CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                             s->piece[p], NULL, &rc)
                            : NULL;
        if (buf) mem = clEnqueueMapBuffer(s->ctx->queue, buf, CL_TRUE,
                                          CL_MAP_READ | CL_MAP_WRITE, 0, s->piece[p], 0, NULL,
                                          NULL, &rc);
        if (buf && !mem) clReleaseMemObject(buf), buf = NULL;
        if (!mem && !(mem = host_pages(s->piece[p])))
            return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "staging memory");
        g->chunk[g->count] = mem;
        g->pinned[g->count] = buf;
        host_add(s, s->piece[p]);
    }
    return SK_OK;
}

static unsigned char *piece_at(const ss *s, int set, int p, size_t off)
{
    return s->stage[set][p].chunk[off / s->piece[p]] + off % s->piece[p];
}

static unsigned char *stage_at(const ss *s, int p, size_t off)
{
    return piece_at(s, s->set, p, off);
}

/* Copies bytes from src into the staging of p at off. */
static void stage_put(ss *s, int p, size_t off, const unsigned char *src, size_t bytes)
{
    while (bytes) {
        size_t len = min_size(bytes, s->piece[p] - off % s->piece[p]);
        memcpy(stage_at(s, p, off), src, len);
        off += len, src += len, bytes -= len;
    }
}

static void close_stage(ss *s, stage *g)
{
    for (size_t i = 0; i < g->count; i++) {
        if (g->pinned[i]) {
            clEnqueueUnmapMemObject(s->ctx->queue, g->pinned[i], g->chunk[i], 0, NULL, NULL);
            clReleaseMemObject(g->pinned[i]);
        } else {
            free(g->chunk[i]);
        }
    }
    free(g->chunk);
    free(g->pinned);
    memset(g, 0, sizeof *g);
}

/* The merge's stagings pinned (see pin_staging()): the runs' staging made
 * again if it was not. */
static void pin_for_merge(ss *s)
{
    if (s->pin || !pin_staging(1)) return;
    s->pin = 1;
    for (int p = 0; p < 2; p++) {
        stage *g = &s->stage[0][p];
        uint64_t bytes = (uint64_t)g->count * s->piece[p];
        close_stage(s, g);
        s->host_now -= bytes;
    }
}

/* ---- straight into the device's memory ---------------------------------------------- */

/* On a device that computes in host memory (a CPU device), a mapped buffer
 * is the device's own memory: the first run is read straight into the
 * buffers it will be sorted in, and when it is the whole input it is
 * written out from there, without the staging and its two copies (and
 * the staging's memory, which a fresh process first has to fault in). */
static sk_status map_direct(ss *s, size_t n)
{
    for (int p = 0; p < s->parts; p++) {
        cl_int rc = CL_SUCCESS;
        s->direct[p] = clEnqueueMapBuffer(s->ctx->queue, s->dev[p], CL_TRUE,
                                          CL_MAP_WRITE_INVALIDATE_REGION, 0, n * s->es[p], 0,
                                          NULL, NULL, &rc);
        if (rc != CL_SUCCESS) {
            s->direct[p] = NULL;
            return sk__fail_cl(s->ctx, rc, "clEnqueueMapBuffer(stream sort)");
        }
    }
    s->direct_cap = n;
    return SK_OK;
}

static sk_status unmap_direct(ss *s)
{
    sk_status st = SK_OK;
    for (int p = 0; p < 2; p++) {
        if (!s->direct[p]) continue;
        cl_int rc = clEnqueueUnmapMemObject(s->ctx->queue, s->dev[p], s->direct[p], 0, NULL,
                                            NULL);
        if (rc != CL_SUCCESS && st == SK_OK) st = sk__fail_cl(s->ctx, rc, "clEnqueueUnmapMemObject");
        s->direct[p] = NULL;
    }
    return st;
}

/* The input goes on past the buffers mapped for it: the bytes of each
 * part read into them so far move to the staging, and the runs take the
 * staging's way. */
static sk_status leave_direct(ss *s, size_t keys_bytes, size_t values_bytes)
{
    const size_t bytes[2] = {keys_bytes, values_bytes};
    for (int p = 0; p < s->parts; p++) {
        if (!s->direct[p] || !bytes[p]) continue;
        sk_status st = stage_reserve(s, p, bytes[p]);
        if (st != SK_OK) return st;
        stage_put(s, p, 0, s->direct[p], bytes[p]);
    }
    return unmap_direct(s);
}

/* The first n sorted elements of part p written out from the device's
 * memory, mapped, piece by piece. */
static sk_status write_mapped(ss *s, int p, size_t n)
{
    size_t bytes = n * s->es[p];
    cl_int rc = CL_SUCCESS;
    if (bytes == 0) return SK_OK; /* (no buffers are made for no elements) */
    unsigned char *at = clEnqueueMapBuffer(s->ctx->queue, s->dev[p], CL_TRUE, CL_MAP_READ, 0,
                                           bytes, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) return sk__fail_cl(s->ctx, rc, "clEnqueueMapBuffer(stream sort)");
    sk_status st = SK_OK;
    for (size_t off = 0; off < bytes && st == SK_OK; off += s->piece[p]) {
        size_t len = min_size(s->piece[p], bytes - off);
        progress(s, "writing", len, s->st.count * elem_bytes(s));
        st = write_out(s, p, at + off, len);
    }
    rc = clEnqueueUnmapMemObject(s->ctx->queue, s->dev[p], at, 0, NULL, NULL);
    if (rc != CL_SUCCESS && st == SK_OK) st = sk__fail_cl(s->ctx, rc, "clEnqueueUnmapMemObject");
    return st;
}

static void close_all(ss *s)
{
    unmap_direct(s);
    if (s->last_send) clWaitForEvents(1, &s->last_send), clReleaseEvent(s->last_send);
    release_device(s);
    for (int set = 0; set < 2; set++)
        for (int p = 0; p < 2; p++) close_stage(s, &s->stage[set][p]);
    clFinish(s->ctx->queue);
    for (size_t i = 0; i < s->k; i++)
        for (int p = 0; p < 2; p++) {
            free(s->runs[i].mem[p]);
            free(s->runs[i].win[p]);
        }
    free(s->runs);
    if (s->fd >= 0) close(s->fd);
}

/* ---- device transfers ------------------------------------------------------------ */

/* Sends the staging of p from s->sent[p] up to `end` bytes to the device,
 * piece by piece (asynchronous: the staging stays as it is until the
 * queue has done them). */
static sk_status send(ss *s, int p, size_t end)
{
    while (s->sent[p] < end) {
        size_t off = s->sent[p], len = min_size(end - off, s->piece[p] - off % s->piece[p]);
        cl_event ev = NULL;
        cl_int rc = clEnqueueWriteBuffer(s->ctx->queue, s->dev[p], CL_FALSE, off, len,
                                         stage_at(s, p, off), 0, NULL, &ev);
        if (rc != CL_SUCCESS) return sk__fail_cl(s->ctx, rc, "clEnqueueWriteBuffer(stream sort)");
        if (s->last_send) clReleaseEvent(s->last_send);
        s->last_send = ev;
        s->sent[p] = off + len;
    }
    clFlush(s->ctx->queue);
    return SK_OK;
}

/* Waits until the staging's copies to the device are done (the queue
 * runs in order: the last one), before the staging is written again: a
 * sort need not wait for its device (a sort below the skip size never
 * does), so nothing else has. */
static sk_status sends_done(ss *s)
{
    if (!s->last_send) return SK_OK;
    cl_int rc = clWaitForEvents(1, &s->last_send);
    clReleaseEvent(s->last_send);
    s->last_send = NULL;
    return rc == CL_SUCCESS ? SK_OK : sk__fail_cl(s->ctx, rc, "clWaitForEvents(stream sort)");
}

/* Where the pieces of a download go: the caller's writer, or the
 * temporary file at `at`. */
typedef struct sink {
    int spill;
    uint64_t at;
} sink;

static sk_status sink_piece(ss *s, int set, int p, const sink *to, size_t off, size_t bytes)
{
    const unsigned char *at = piece_at(s, set, p, off);
    if (to->spill) return spill_write(s, at, bytes, to->at + off);
    if (!s->merging) progress(s, "writing", bytes, s->st.count * elem_bytes(s));
    return write_out(s, p, at, bytes);
}

/* Sorted elements on their way back from the device into a staging: the
 * reads of their pieces queued, an event each (NULL: none queued). */
typedef struct back {
    size_t n;
    int set;
    cl_event *ev[2];
} back;

static size_t pieces_of(const ss *s, int p, size_t n)
{
    return (n * s->es[p] + s->piece[p] - 1) / s->piece[p];
}

/* Queues the reads of the first n elements of part p into the staging in
 * use, piece by piece. */
static sk_status queue_back(ss *s, int p, size_t n, back *b)
{
    size_t bytes = n * s->es[p], pieces = pieces_of(s, p, n);
    sk_status st = stage_reserve(s, p, bytes);
    if (st != SK_OK) return st;
    b->n = n;
    b->set = s->set;
    if (!(b->ev[p] = calloc(pieces ? pieces : 1, sizeof *b->ev[p])))
        return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "download events");
    for (size_t i = 0; i < pieces; i++) {
        size_t off = i * s->piece[p], len = min_size(s->piece[p], bytes - off);
        cl_int rc = clEnqueueReadBuffer(s->ctx->queue, s->dev[p], CL_FALSE, off, len,
                                        stage_at(s, p, off), 0, NULL, &b->ev[p][i]);
        if (rc != CL_SUCCESS) return sk__fail_cl(s->ctx, rc, "clEnqueueReadBuffer(stream sort)");
    }
    clFlush(s->ctx->queue);
    return SK_OK;
}

/* Waits for part p of b piece by piece, handing each on as soon as it is
 * in while st is SK_OK (after a failure only waiting); releases the
 * events. */
static sk_status drain_back(ss *s, int p, back *b, const sink *to, sk_status st)
{
    if (!b->ev[p]) return st;
    size_t bytes = b->n * s->es[p], pieces = pieces_of(s, p, b->n);
    for (size_t i = 0; i < pieces && b->ev[p][i]; i++) {
        size_t off = i * s->piece[p], len = min_size(s->piece[p], bytes - off);
        cl_int rc = clWaitForEvents(1, &b->ev[p][i]);
        if (st == SK_OK && rc != CL_SUCCESS) st = sk__fail_cl(s->ctx, rc, "clWaitForEvents");
        if (st == SK_OK) st = sink_piece(s, b->set, p, to, off, len);
        clReleaseEvent(b->ev[p][i]);
    }
    free(b->ev[p]);
    b->ev[p] = NULL;
    if (st != SK_OK) clFinish(s->ctx->queue);
    return st;
}

/* The first n elements of part p back into the staging, piece by piece,
 * each handed on as soon as it is in. */
static sk_status download(ss *s, int p, size_t n, const sink *to)
{
    back b = {0, 0, {NULL, NULL}};
    sk_status st = queue_back(s, p, n, &b);
    return drain_back(s, p, &b, to, st);
}

/* Sorts the first n elements on the device. */
static sk_status device_sort(ss *s, size_t n)
{
    sort_req r = s->req;
    r.n = n;
    if (n < 2) return SK_OK;
    sk__call_begin(s->ctx); /* the caller's scratch, if set, carved from its start */
    return sk__sort_run(s->ctx, &r, s->dev[0], s->parts == 2 ? s->dev[1] : NULL);
}

/* ---- the runs ------------------------------------------------------------------- */

/* Whether the keys end here: a key at most read ahead (read_fully()
 * hands it on first). */
static sk_status probe_end(ss *s, int *ended)
{
    size_t got = 0;
    sk_status st = read_fully(s, 0, s->peek, s->es[0], &got);
    s->peek_len = got;
    *ended = got == 0;
    return st;
}

/* Up to `cap` bytes of part p into the staging (or the mapped device
 * buffers, while they hold them), each piece sent to the device as it is
 * in while the device buffer holds it: *have bytes, *ended when the input
 * ended before cap. */
static sk_status read_part(ss *s, int p, size_t cap, size_t *have, int *ended)
{
    size_t dev_bytes = s->dev_cap * s->es[p];
    *have = 0;
    *ended = 0;
    s->sent[p] = 0;
    sk_status done = sends_done(s); /* the run before may still be on its way */
    if (done != SK_OK) return done;
    while (*have < cap) {
        if (s->direct[p] && *have == s->direct_cap * s->es[p]) { /* as many as expected */
            sk_status st = p == 0 ? probe_end(s, ended) : SK_OK;
            if (st != SK_OK || *ended) return st;
            st = leave_direct(s, *have, 0); /* more: the rest through the staging */
            if (st != SK_OK) return st;
        }
        size_t got = 0, want = min_size(s->piece[p], cap - *have);
        if (s->direct[p]) want = min_size(want, s->direct_cap * s->es[p] - *have);
        sk_status st = s->direct[p] ? SK_OK : stage_reserve(s, p, *have + want);
        unsigned char *to = s->direct[p] ? s->direct[p] + *have : NULL;
        if (st == SK_OK) st = read_fully(s, p, to ? to : stage_at(s, p, *have), want, &got);
        *have += got;
        if (st == SK_OK && !s->direct[p] && *have <= dev_bytes) st = send(s, p, *have);
        if (st != SK_OK) return st;
        if (got < want) {
            *ended = 1;
            break;
        }
    }
    return SK_OK;
}

/* Up to r keys: *n keys read; *ended when the input ended there (a full
 * run reads on, a key at most, to see). */
static sk_status read_keys(ss *s, size_t *n, int *ended)
{
    size_t have = 0;
    sk_status st = read_part(s, 0, s->r * s->es[0], &have, ended);
    if (st != SK_OK) return st;
    if (have % s->es[0])
        return sk__fail(s->ctx, SK_E_INVALID_ARG, "the keys end within a key (%zu bytes "
                        "over whole keys of %zu bytes)", have % s->es[0], s->es[0]);
    *n = have / s->es[0];
    return *ended ? SK_OK : probe_end(s, ended);
}

/* Exactly n values. */
static sk_status read_values(ss *s, size_t n)
{
    size_t have = 0;
    int ended = 0;
    sk_status st = read_part(s, 1, n * s->es[1], &have, &ended);
    if (st == SK_OK && have < n * s->es[1])
        st = sk__fail(s->ctx, SK_E_INVALID_ARG, "the values end before the keys (%llu values "
                      "and %zu bytes for %llu keys)",
                      (unsigned long long)(s->st.count + have / s->es[1]), have % s->es[1],
                      (unsigned long long)(s->st.count + n));
    return st;
}

/* After the last key: the values must end too. */
static sk_status values_end(ss *s)
{
    unsigned char extra[8];
    size_t got = 0;
    sk_status st = s->parts == 2 ? read_fully(s, 1, extra, sizeof extra, &got) : SK_OK;
    if (st == SK_OK && got)
        st = sk__fail(s->ctx, SK_E_INVALID_ARG, "the values go on after the %llu keys",
                      (unsigned long long)s->st.count);
    return st;
}

/* The device holds the n elements read: buffers for them (exactly n when
 * they are the whole input, else runs of r), and what is not sent yet. */
static sk_status to_device(ss *s, size_t n, int whole)
{
    sk_status st = SK_OK;
    if (s->direct[0] && whole) { /* read into them already */
        for (int p = 0; p < s->parts; p++) s->sent[p] = n * s->es[p];
        return unmap_direct(s);
    }
    if (s->direct[0]) SK_TRY(leave_direct(s, n * s->es[0], n * s->es[1]));
    if (s->dev_cap < n || (!whole && s->dev_cap < s->r)) st = open_device(s, whole ? n : s->r);
    for (int p = 0; p < s->parts && st == SK_OK; p++) st = send(s, p, n * s->es[p]);
out:
    return st;
}

static sk_status add_run(ss *s, size_t n, ss_run **out)
{
    if (s->k == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        ss_run *v = realloc(s->runs, cap * sizeof *v);
        if (!v) return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "the list of runs");
        s->runs = v, s->cap = cap;
    }
    *out = memset(&s->runs[s->k++], 0, sizeof **out);
    (*out)->n = n;
    return SK_OK;
}

/* A sorted run of n on the device into host memory, the copy queued (the
 * queue runs in order: the next run's data goes to the device after it;
 * the merge waits for it). */
static sk_status keep_run(ss *s, ss_run *run, size_t n)
{
    for (int p = 0; p < s->parts; p++) {
        size_t bytes = n * s->es[p];
        if (!(run->mem[p] = host_pages(bytes ? bytes : 1)))
            return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "%zu bytes for a run", bytes);
        host_add(s, bytes);
        sk_status st = sk__read(s->ctx, s->dev[p], false, 0, bytes, run->mem[p]);
        if (st != SK_OK) return st;
    }
    s->mem_runs_left--;
    return SK_OK;
}

/* A sorted run of n on the device appended to the temporary file. */
static sk_status spill_run(ss *s, ss_run *run, size_t n)
{
    if (s->fd < 0) {
        sk_status st = open_temp(s);
        if (st != SK_OK) return st;
    }
    for (int p = 0; p < s->parts; p++) {
        sink to = {1, s->file_end};
        run->off[p] = s->file_end;
        sk_status st = download(s, p, n, &to);
        if (st != SK_OK) return st;
        s->file_end += (uint64_t)n * s->es[p];
    }
    s->st.spilled_runs++;
    return SK_OK;
}

/* The expected input's elements, for the first device buffers (0: not
 * known, or more than a run). */
static size_t expected_elements(const ss *s)
{
    uint64_t n = s->opts.expected_bytes / elem_bytes(s);
    return n < s->r ? (size_t)n : 0;
}

/* The input, run by run; the whole sort when it fits one run. */
static sk_status sort_runs(ss *s, int *done)
{
    int ended = 0;
    *done = 0;
    size_t expect = expected_elements(s);
    sk_status st = expect ? open_device(s, expect) : SK_OK;
    if (st == SK_OK && expect && s->ctx->host_memory) st = map_direct(s, expect);
    log_step(s, "device buffers made");
    while (st == SK_OK && !ended) {
        size_t n = 0;
        st = read_keys(s, &n, &ended);
        if (st == SK_OK && s->parts == 2) st = read_values(s, n);
        if (st == SK_OK && ended) st = values_end(s);
        int whole = ended && s->k == 0;
        log_step(s, "run read");
        if (st == SK_OK) st = to_device(s, n, whole);
        log_step(s, "run sent");
        if (st == SK_OK) st = device_sort(s, n);
        if (st == SK_OK && s->ctx->log) clFinish(s->ctx->queue), log_step(s, "run sorted");
        if (st != SK_OK) return st;
        s->st.count += n;
        if (n > s->st.run_elements) s->st.run_elements = n;
        if (whole) { /* all of it in one run */
            sink to = {0, 0};
            s->phase_done = 0;
            for (int p = 0; p < s->parts && st == SK_OK; p++)
                st = s->ctx->host_memory ? write_mapped(s, p, n) : download(s, p, n, &to);
            s->st.runs = 1;
            *done = 1;
            return st;
        }
        ss_run *run = NULL;
        if (st == SK_OK) st = add_run(s, n, &run);
        if (st == SK_OK) st = s->mem_runs_left ? keep_run(s, run, n) : spill_run(s, run, n);
    }
    s->st.runs = s->k;
    return st;
}

/* ---- the merge ------------------------------------------------------------------- */

/* The key at b as an unsigned integer whose ascending order is the sort's
 * order, restricted to the sort's bits (as kernels/sort.cl transforms). */
static uint64_t rank_of(const ss *s, const unsigned char *b)
{
    uint64_t raw = 0;
    memcpy(&raw, b, s->es[0]); /* little-endian host */
    unsigned bits = key_types[s->req.key_type].bits;
    uint64_t sign = (uint64_t)1 << (bits - 1);
    uint64_t all = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    int kind = key_types[s->req.key_type].kind;
    if (kind == 2) raw = (raw & sign) ? (~raw & all) : (raw | sign);
    else if (kind == 1) raw ^= sign;
    unsigned w = s->req.end_bit - s->req.begin_bit;
    uint64_t mask = w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
    uint64_t k = (raw >> s->req.begin_bit) & mask;
    return s->req.order == SK_DESCENDING ? mask - k : k;
}

/* The keys of run i's window, and how many there are. */
static const unsigned char *window_keys(const ss *s, const ss_run *run, size_t w, size_t *c,
                                        int p)
{
    if (run->mem[0]) {
        *c = (size_t)(run->n - run->next < w ? run->n - run->next : w);
        return run->mem[p] + run->next * s->es[p];
    }
    *c = run->win_n;
    return run->win[p];
}

/* How many of the c keys at keys rank below `limit` (up to it when
 * `inclusive`): they are sorted by rank. */
static size_t count_below(const ss *s, const unsigned char *keys, size_t c, uint64_t limit,
                          int inclusive)
{
    size_t lo = 0, hi = c;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t r = rank_of(s, keys + mid * s->es[0]);
        if (r < limit || (inclusive && r == limit)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Tops up the window of a spilled run to w elements. */
static sk_status refill(ss *s, ss_run *run, size_t w, size_t taken)
{
    size_t left = run->win_n - taken;
    uint64_t beyond = run->n - run->next - run->win_n;
    size_t more = beyond < w - left ? (size_t)beyond : w - left;
    for (int p = 0; p < s->parts; p++) {
        size_t es = s->es[p];
        memmove(run->win[p], run->win[p] + taken * es, left * es);
        sk_status st = spill_read(s, run->win[p] + left * es, more * es,
                                  run->off[p] + (run->next + run->win_n) * es);
        if (st != SK_OK) return st;
    }
    run->win_n = left + more;
    return SK_OK;
}

static sk_status open_windows(ss *s, size_t w)
{
    for (size_t i = 0; i < s->k; i++) {
        ss_run *run = &s->runs[i];
        if (run->mem[0]) continue;
        for (int p = 0; p < s->parts; p++) {
            if (!(run->win[p] = host_pages(w * s->es[p])))
                return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "a window of the merge");
            host_add(s, w * s->es[p]);
        }
        sk_status st = refill(s, run, w, 0);
        if (st != SK_OK) return st;
    }
    return SK_OK;
}

/* How many elements each run gives to the next block (take[i]): see the
 * file's head. */
static void plan_block(const ss *s, size_t w, size_t *take)
{
    int limited = 0;
    uint64_t limit = 0;
    size_t first = 0;
    for (size_t i = 0; i < s->k; i++) {
        const ss_run *run = &s->runs[i];
        size_t c = 0;
        const unsigned char *keys = window_keys(s, run, w, &c, 0);
        if (c == 0 || run->next + c >= run->n) continue;
        uint64_t last = rank_of(s, keys + (c - 1) * s->es[0]);
        if (!limited || last < limit) limited = 1, limit = last, first = i;
    }
    for (size_t i = 0; i < s->k; i++) {
        size_t c = 0;
        const unsigned char *keys = window_keys(s, &s->runs[i], w, &c, 0);
        take[i] = limited ? count_below(s, keys, c, limit, i <= first) : c;
    }
}

/* How many runs give to the block. */
static size_t sources_of(const ss *s, const size_t *take)
{
    size_t sources = 0;
    for (size_t i = 0; i < s->k; i++) sources += take[i] != 0;
    return sources;
}

/* The block's pieces, in run order, into the staging in use: *m elements. */
static sk_status gather(ss *s, size_t w, const size_t *take, size_t *m)
{
    size_t total = 0;
    *m = 0;
    for (size_t i = 0; i < s->k; i++) total += take[i];
    for (int p = 0; p < s->parts; p++) {
        sk_status st = stage_reserve(s, p, total * s->es[p]);
        if (st != SK_OK) return st;
    }
    for (size_t i = 0; i < s->k; i++) {
        if (!take[i]) continue;
        for (int p = 0; p < s->parts; p++) {
            size_t c = 0;
            const unsigned char *from = window_keys(s, &s->runs[i], w, &c, p);
            stage_put(s, p, *m * s->es[p], from, take[i] * s->es[p]);
        }
        *m += take[i];
    }
    return SK_OK;
}

/* The block before, written as it comes back (nothing when none is on
 * its way); after a failure only waited for. */
static sk_status write_back(ss *s, back *b, sk_status st)
{
    sink to = {0, 0};
    for (int p = 0; p < s->parts; p++) st = drain_back(s, p, b, &to, st);
    return st;
}

/* A block that one run gives all of: its piece straight to the writers,
 * after the block before. */
static sk_status write_direct(ss *s, size_t w, const size_t *take, back *before)
{
    sk_status st = write_back(s, before, SK_OK);
    for (size_t i = 0; i < s->k && st == SK_OK; i++) {
        if (!take[i]) continue;
        for (int p = 0; p < s->parts && st == SK_OK; p++) {
            size_t c = 0;
            const unsigned char *from = window_keys(s, &s->runs[i], w, &c, p);
            st = write_out(s, p, from, take[i] * s->es[p]);
        }
    }
    return st;
}

/* The block gathered in the staging in use (m elements) to the device,
 * while the block before is written; sorted; its way back queued into
 * *before, and the other staging in use. */
static sk_status sort_block(ss *s, size_t m, back *before)
{
    sk_status st = SK_OK;
    for (int p = 0; p < s->parts && st == SK_OK; p++) {
        s->sent[p] = 0;
        st = send(s, p, m * s->es[p]);
    }
    st = write_back(s, before, st);
    if (st == SK_OK) st = device_sort(s, m);
    for (int p = 0; p < s->parts && st == SK_OK; p++) st = queue_back(s, p, m, before);
    s->set ^= 1;
    s->st.merge_blocks++;
    return st;
}

static sk_status merge_block(ss *s, size_t w, size_t *take, back *before)
{
    size_t m = 0;
    sk_status st = SK_OK;
    plan_block(s, w, take);
    if (sources_of(s, take) == 1) {
        for (size_t i = 0; i < s->k; i++) m += take[i];
        st = write_direct(s, w, take, before);
    } else {
        st = gather(s, w, take, &m);
        if (st == SK_OK) st = sort_block(s, m, before);
    }
    for (size_t i = 0; i < s->k && st == SK_OK; i++) {
        ss_run *run = &s->runs[i];
        if (!take[i]) continue;
        if (!run->mem[0]) st = refill(s, run, w, take[i]);
        run->next += take[i];
    }
    progress(s, "merging", (uint64_t)m * elem_bytes(s), s->st.count * elem_bytes(s));
    return st;
}

static uint64_t merged_so_far(const ss *s)
{
    uint64_t done = 0;
    for (size_t i = 0; i < s->k; i++) done += s->runs[i].next;
    return done;
}

static sk_status merge_runs(ss *s)
{
    size_t w = s->r / s->k;
    if (w == 0)
        return sk__fail(s->ctx, SK_E_SIZE, "%zu runs of %zu elements leave no window of the "
                        "merge: give the sort more memory", s->k, s->r);
    size_t *take = calloc(s->k, sizeof *take);
    if (!take) return sk__fail(s->ctx, SK_E_OUT_OF_MEMORY, "the merge's plan");
    cl_int rc = clFinish(s->ctx->queue); /* the runs kept in host memory are there */
    sk_status st = rc == CL_SUCCESS ? open_windows(s, w) : sk__fail_cl(s->ctx, rc, "clFinish");
    pin_for_merge(s);
    back before = {0, 0, {NULL, NULL}};
    s->phase_done = 0;
    s->merging = 1; /* the blocks written count as merging, not writing */
    for (uint64_t out = 0; st == SK_OK && out < s->st.count;) {
        st = merge_block(s, w, take, &before);
        uint64_t after = merged_so_far(s);
        if (st == SK_OK && after == out)
            st = sk__fail(s->ctx, SK_E_CL, "the merge made no progress"); /* cannot happen */
        out = after;
    }
    st = write_back(s, &before, st);
    free(take);
    return st;
}

/* ---- entry points ------------------------------------------------------------------ */

static sk_status check_request(ss *s, const sk_stream_opts *opts, sk_stream_stats *stats)
{
    sk_status st = sk__sort_check_keys(s->ctx, s->req.key_type, s->req.order,
                                       s->req.value_size, s->parts == 2);
    if (st != SK_OK) return st;
    unsigned bits = key_types[s->req.key_type].bits;
    if (s->req.begin_bit >= s->req.end_bit || s->req.end_bit > bits)
        return sk__fail(s->ctx, SK_E_INVALID_ARG, "bit range [%u, %u) outside [0, %u)",
                        s->req.begin_bit, s->req.end_bit, bits);
    for (int p = 0; p < s->parts; p++)
        if (!s->in[p].fn || !s->out[p].fn)
            return sk__fail(s->ctx, SK_E_INVALID_ARG, "a reader or writer function is NULL");
    if (opts && opts->struct_size < sizeof(sk_stream_opts))
        return sk__fail(s->ctx, SK_E_INVALID_ARG, "options' struct_size %zu below %zu",
                        opts->struct_size, sizeof(sk_stream_opts));
    if (stats && stats->struct_size < sizeof(sk_stream_stats))
        return sk__fail(s->ctx, SK_E_INVALID_ARG, "stats' struct_size %zu below %zu",
                        stats->struct_size, sizeof(sk_stream_stats));
    if (opts) memcpy(&s->opts, opts, sizeof s->opts);
    return sk__require_fp64(s->ctx, s->req.key_type);
}

static sk_status stream_sort(ss *s, const sk_stream_opts *opts, sk_stream_stats *stats)
{
    SK_ENTER(s->ctx);
    sk_stream_opts defaults = SK_STREAM_OPTS_INIT;
    sk_stream_stats zero = SK_STREAM_STATS_INIT;
    s->opts = defaults;
    s->st = zero;
    s->fd = -1;
    s->start = now();
    s->es[0] = sk_type_size(s->req.key_type < SK_KEY_TYPE_COUNT ? s->req.key_type : SK_UINT32);
    s->es[1] = s->req.value_size;
    sk_status st = check_request(s, opts, stats);
    int done = 0;
    if (st == SK_OK) st = plan_runs(s);
    log_step(s, "planned");
    if (st == SK_OK) st = sort_runs(s, &done);
    if (st == SK_OK && !done) st = merge_runs(s);
    log_step(s, "sorted");
    close_all(s);
    s->st.device_seconds = now() - s->start - s->st.read_seconds - s->st.write_seconds -
                           s->st.spill_seconds;
    if (stats && stats->struct_size >= sizeof(sk_stream_stats)) /* else refused, untouched */
        memcpy((char *)stats + sizeof stats->struct_size,
                      (char *)&s->st + sizeof s->st.struct_size,
                      sizeof s->st - sizeof s->st.struct_size);
    return st;
}

static unsigned key_bits_of(sk_type t)
{
    return (unsigned)t < SK_KEY_TYPE_COUNT ? key_types[t].bits : 1;
}

sk_status sk_sort_keys_stream(sk_context *ctx, sk_type key_type, sk_reader keys_in,
                              sk_writer keys_out, sk_sort_order order,
                              const sk_stream_opts *opts, sk_stream_stats *stats)
{
    return sk_sort_keys_bits_stream(ctx, key_type, keys_in, keys_out, order, 0,
                                    key_bits_of(key_type), opts, stats);
}

sk_status sk_sort_pairs_stream(sk_context *ctx, sk_type key_type, size_t value_size,
                               sk_reader keys_in, sk_reader values_in, sk_writer keys_out,
                               sk_writer values_out, sk_sort_order order,
                               const sk_stream_opts *opts, sk_stream_stats *stats)
{
    return sk_sort_pairs_bits_stream(ctx, key_type, value_size, keys_in, values_in, keys_out,
                                     values_out, order, 0, key_bits_of(key_type), opts, stats);
}

sk_status sk_sort_keys_bits_stream(sk_context *ctx, sk_type key_type, sk_reader keys_in,
                                   sk_writer keys_out, sk_sort_order order,
                                   unsigned begin_bit, unsigned end_bit,
                                   const sk_stream_opts *opts, sk_stream_stats *stats)
{
    ss s = {.ctx = ctx, .req = {key_type, 0, 0, order, begin_bit, end_bit}, .parts = 1,
            .in = {keys_in}, .out = {keys_out}};
    return stream_sort(&s, opts, stats);
}

sk_status sk_sort_pairs_bits_stream(sk_context *ctx, sk_type key_type, size_t value_size,
                                    sk_reader keys_in, sk_reader values_in,
                                    sk_writer keys_out, sk_writer values_out,
                                    sk_sort_order order, unsigned begin_bit,
                                    unsigned end_bit, const sk_stream_opts *opts,
                                    sk_stream_stats *stats)
{
    ss s = {.ctx = ctx, .req = {key_type, value_size, 0, order, begin_bit, end_bit},
            .parts = 2, .in = {keys_in, values_in}, .out = {keys_out, values_out}};
    return stream_sort(&s, opts, stats);
}
