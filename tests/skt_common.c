/*
 * skt_common.c - helpers shared by the scankit Criterion tests.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, mincore */
#include "skt_common.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

sk_context *skt_ctx = NULL;

/* ---- PRNG -------------------------------------------------------------------- */

static uint64_t g_seed;
static sk_rng g_rng;

void skt_reseed(uint64_t seed)
{
    g_seed = seed;
    sk_rng_seed(&g_rng, seed);
}

uint64_t skt_seed(void) { return g_seed; }

uint64_t skt_rand(void) { return sk_rng_next(&g_rng); }

uint64_t skt_rand_below(uint64_t bound) { return sk_rng_below(&g_rng, bound); }

double skt_rand_unit(void) { return sk_rng_unit(&g_rng); }

double skt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int skt_light(void)
{
    const char *v = getenv("SKT_LIGHT");
    return v && strcmp(v, "1") == 0;
}

size_t skt_light_cap(size_t n, size_t cap)
{
    return skt_light() && n > cap ? cap : n;
}

static uint64_t pick_seed(void)
{
    const char *env = getenv("SKT_SEED");
    if (env && *env) {
        char *end = NULL;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 0);
        if (errno == 0 && end && *end == '\0')
            return (uint64_t)v;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)getpid() << 32);
    return sk_splitmix64_next(&x);
}

/* ---- setup ----------------------------------------------------------------------- */

void skt_setup(void)
{
    skt_reseed(pick_seed());
    const struct criterion_test *t = criterion_current_test;
    cr_log_info("%s::%s: seed %llu (rerun with SKT_SEED=%llu)",
                t && t->category ? t->category : "?", t && t->name ? t->name : "?",
                (unsigned long long)g_seed, (unsigned long long)g_seed);
    /* Keep built programs (the library's disk cache where it keeps one,
     * PoCL's) in the build tree rather than the user's cache, unless the
     * caller chose a cache home; the library decides, as for any program,
     * whether it keeps a disk cache on this device. */
    setenv("XDG_CACHE_HOME", SKT_TEST_CACHE_HOME, 0);
}

void skt_ctx_open(void)
{
    skt_setup();
    skt_ctx = NULL;
    sk_status st = sk_context_create(&skt_ctx, NULL, NULL, 0);
    if (st == SK_E_NO_DEVICE)
        cr_skip_test("no OpenCL device");
    cr_assert_eq(st, SK_OK, "sk_context_create(NULL) -> %s", sk_status_name(st));
    cr_assert_not_null(skt_ctx);
}

void skt_ctx_close(void)
{
    sk_context_free(skt_ctx);
    skt_ctx = NULL;
}

sk_context *skt_ctx_new(const char *spec)
{
    sk_context *c = NULL;
    sk_status st = sk_context_create(&c, spec, NULL, 0);
    if (st == SK_E_NO_DEVICE && spec == NULL)
        cr_skip_test("no OpenCL device");
    cr_assert_eq(st, SK_OK, "sk_context_create(%s) -> %s", spec ? spec : "NULL",
                 sk_status_name(st));
    cr_assert_not_null(c);
    return c;
}

sk_context *skt_ctx_new_disk_cache(void)
{
    sk_context *c = skt_ctx_new(NULL);
    sk_status st = sk_context_set_param(c, SK_PARAM_DISK_CACHE, 1);
    cr_assert_eq(st, SK_OK, "SK_PARAM_DISK_CACHE 1 -> %s", sk_status_name(st));
    return c;
}

void skt_check_small_scan(sk_context *ctx, size_t n, sk_op op)
{
    uint32_t *in = skt_malloc(n * 4), *want = skt_malloc(n * 4), *got = skt_malloc(n * 4);
    skt_fill(SK_UINT32, op, in, n);
    skt_ref_scan(SK_UINT32, op, 0, in, want, n);
    skt_poison(got, n * 4);
    sk_status st = sk_scan_inclusive_host(ctx, SK_UINT32, op, in, got, n);
    cr_assert_eq(st, SK_OK, "scan -> %s (%s) [seed %llu]", sk_status_name(st),
                 sk_context_error_detail(ctx), (unsigned long long)skt_seed());
    skt_expect_elems(SK_UINT32, got, want, n, skt_fmt("uint32 %s scan n=%zu", sk_op_name(op), n));
    free(in);
    free(want);
    free(got);
}

void skt_params_add(skt_params *ps, const sk_type *types, size_t ntypes, int nsizes, int mode,
                    int variant)
{
    static const sk_shape shapes[] = {SK_SHAPE_CPU, SK_SHAPE_GPU};
    size_t count = types ? ntypes : SK_TYPE_COUNT;
    size_t add = count * 2 * (size_t)nsizes;
    ps->v = realloc(ps->v, (ps->n + add) * sizeof *ps->v);
    if (!ps->v) abort(); /* no cr_assert: this runs in the runner, outside any test */
    for (size_t t = 0; t < count; t++)
        for (size_t s = 0; s < 2; s++)
            for (int c = 0; c < nsizes; c++)
                ps->v[ps->n++] = (skt_case){.type = types ? (int)types[t] : (int)t,
                                            .op = -1, .shape = shapes[s],
                                            .path = SK_SCAN_PATH_AUTO, .size_class = c,
                                            .variant = variant, .mode = mode};
}

static struct criterion_test_params hand_to_criterion(skt_case *v, size_t n);

struct criterion_test_params skt_params_done(skt_params *ps)
{
    /* The test processes read the cases from Criterion's allocator. */
    skt_case *v = cr_malloc((ps->n ? ps->n : 1) * sizeof *v);
    if (!v) abort();
    memcpy(v, ps->v, ps->n * sizeof *v);
    free(ps->v);
    size_t n = ps->n;
    *ps = (skt_params){NULL, 0};
    return hand_to_criterion(v, n);
}

const char *skt_params_name(const skt_case *p)
{
    return skt_fmt("%s, %s shape", sk_type_name((sk_type)p->type), skt_shape_name(p->shape));
}

void skt_params_need_type(const skt_case *p)
{
    if (p->type == SK_FLOAT64 && !skt_has_fp64())
        cr_skip_test("%s: the device has no double precision", skt_params_name(p));
}

int skt_has_fp64(void)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    SKT_OK(sk_context_device(skt_ctx, &d));
    return d.has_fp64 != 0;
}

/* ---- data ------------------------------------------------------------------------ */

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Probability p in [0,1] */
static int chance(double p) { return skt_rand_unit() < p; }

static void fill_int(sk_type t, sk_op op, void *dst, size_t n)
{
    int bits = (t == SK_INT32 || t == SK_UINT32) ? 32 : 64;
    int is_signed = (t == SK_INT32 || t == SK_INT64);
    uint64_t mask = bits == 32 ? 0xFFFFFFFFull : ~0ull;
    double nn = n ? (double)n : 1.0;
    uint64_t walk = is_signed ? 0 : (1ull << (bits - 1)) - 2000;

    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        switch (op) {
        case SK_OP_ADD:
        case SK_OP_XOR:
            v = skt_rand();
            break;
        case SK_OP_MUL:
            v = skt_rand() | 1u;
            break;
        case SK_OP_AND:
            v = ~0ull;
            if (chance(clampd(48.0 / nn, 0.0, 1.0)))
                v &= ~(1ull << skt_rand_below((uint64_t)bits));
            break;
        case SK_OP_OR:
            v = 0;
            if (chance(clampd(48.0 / nn, 0.0, 1.0)))
                v |= 1ull << skt_rand_below((uint64_t)bits);
            break;
        case SK_OP_MIN:
        case SK_OP_MAX:
            /* A walk that crosses zero (signed) or the sign bit (unsigned). */
            walk += skt_rand_below(2001) - 1000; /* wraps: fine, unsigned */
            v = walk;
            if (chance(3.0 / nn))
                v = skt_rand(); /* rare full-range outlier */
            break;
        }
        v &= mask;
        if (bits == 32) {
            uint32_t w = (uint32_t)v;
            memcpy((char *)dst + 4 * i, &w, 4);
        } else {
            memcpy((char *)dst + 8 * i, &v, 8);
        }
    }
}


static void fill_real(sk_type t, sk_op op, void *dst, size_t n)
{
    double nn = n ? (double)n : 1.0;
    if (op == SK_OP_ADD) {
        /* x = k/4, |k| <= K with n*K <= 2^mantissa: every sub-range sum is an
         * integer multiple of 1/4 below 2^mantissa/4 in magnitude: exact. */
        double mant = t == SK_FLOAT32 ? 0x1.0p24 : 0x1.0p53;
        double kmax = floor(mant / nn);
        if (kmax > 4096) kmax = 4096;
        if (kmax < 1) kmax = 1;
        uint64_t k = (uint64_t)kmax;
        for (size_t i = 0; i < n; i++) {
            int64_t q = (int64_t)skt_rand_below(2 * k + 1) - (int64_t)k;
            skt_ref_set_real(t, dst, i, (double)q / 4.0);
        }
    } else if (op == SK_OP_MUL) {
        /* Exponent walk kept in [-E, E]: every sub-range product is +-2^e with
         * |e| <= 2E, far from overflow and underflow. */
        int E = t == SK_FLOAT32 ? 60 : 500;
        int e = 0;
        for (size_t i = 0; i < n; i++) {
            double v;
            switch (skt_rand_below(4)) {
            case 0: v = 1.0; break;
            case 1: v = -1.0; break;
            case 2: v = e < E ? 2.0 : 0.5; break;
            default: v = e > -E ? 0.5 : 2.0; break;
            }
            if (v == 2.0) e++;
            if (v == 0.5) e--;
            skt_ref_set_real(t, dst, i, v);
        }
    } else { /* MIN, MAX */
        /* A NaN makes every later prefix NaN: about two per array, so that
         * most of it still orders numbers. */
        double w = 0.0;
        for (size_t i = 0; i < n; i++) {
            w += (skt_rand_unit() - 0.5) * 2.0;
            double v = w;
            uint64_t r = skt_rand_below(100);
            if (r < 1) v = 0.0;
            else if (r < 2) v = -0.0;
            if (chance(2.0 / nn)) v = NAN;
            if (chance(1.0 / nn)) v = INFINITY;
            if (chance(1.0 / nn)) v = -INFINITY;
            skt_ref_set_real(t, dst, i, v);
        }
    }
}

void skt_fill(sk_type t, sk_op op, void *dst, size_t n)
{
    if (t == SK_FLOAT32 || t == SK_FLOAT64)
        fill_real(t, op, dst, n);
    else
        fill_int(t, op, dst, n);
}

void skt_fill_float_noisy(sk_type t, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++)
        skt_ref_set_real(t, dst, i, skt_rand_unit() * 2.0 - 1.0);
}

/* ---- poison ------------------------------------------------------------------------ */

void skt_poison(void *p, size_t bytes) { memset(p, SKT_POISON_BYTE, bytes); }

size_t skt_find_unpoisoned(const void *p, size_t bytes)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        if (c[i] != SKT_POISON_BYTE)
            return i;
    return (size_t)-1;
}

/* ---- address space ------------------------------------------------------------ */

void *skt_map_zeros(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        cr_skip_test("cannot reserve %zu bytes of address space: %s", bytes, strerror(errno));
    return p;
}

void skt_unmap(void *p, size_t bytes) { munmap(p, bytes); }

size_t skt_pages_touched(void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (bytes + page - 1) / page, touched = 0;
    unsigned char *vec = skt_malloc(pages);
    cr_assert_eq(mincore(p, bytes, vec), 0, "mincore: %s", strerror(errno));
    for (size_t i = 0; i < pages; i++) touched += vec[i] & 1;
    free(vec);
    return touched;
}

/* ---- buffers ------------------------------------------------------------------------ */

void *skt_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    cr_assert_not_null(p, "malloc(%zu) failed", bytes);
    return p;
}

cl_mem skt_buf_new(size_t bytes)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(sk_context_cl_context(skt_ctx), CL_MEM_READ_WRITE,
                              bytes ? bytes : 16, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateBuffer(%zu) -> %s", bytes,
                 sk_cl_error_name(err));
    return m;
}

void skt_free_all(void *p, ...)
{
    va_list more;
    va_start(more, p);
    for (; p; p = va_arg(more, void *)) free(p);
    va_end(more);
}

void skt_buf_free(cl_mem m)
{
    if (m)
        clReleaseMemObject(m);
}

void skt_buf_upload(cl_mem m, size_t offset, const void *src, size_t bytes)
{
    if (!bytes)
        return;
    cl_int err = clEnqueueWriteBuffer(sk_context_cl_queue(skt_ctx), m, CL_TRUE, offset,
                                      bytes, src, 0, NULL, NULL);
    cr_assert_eq(err, CL_SUCCESS, "clEnqueueWriteBuffer -> %s", sk_cl_error_name(err));
}

void skt_buf_download(cl_mem m, size_t offset, void *dst, size_t bytes)
{
    if (!bytes)
        return;
    cl_int err = clEnqueueReadBuffer(sk_context_cl_queue(skt_ctx), m, CL_TRUE, offset,
                                     bytes, dst, 0, NULL, NULL);
    cr_assert_eq(err, CL_SUCCESS, "clEnqueueReadBuffer -> %s", sk_cl_error_name(err));
}

void skt_buf_fill(cl_mem m, const void *pattern, size_t pattern_size, size_t offset,
                  size_t bytes)
{
    if (!bytes)
        return;
    cl_int err = clEnqueueFillBuffer(sk_context_cl_queue(skt_ctx), m, pattern,
                                     pattern_size, offset, bytes, 0, NULL, NULL);
    cr_assert_eq(err, CL_SUCCESS, "clEnqueueFillBuffer -> %s", sk_cl_error_name(err));
}

cl_mem skt_buf_guarded(const void *src, size_t n, size_t size, size_t guard)
{
    unsigned char *h = skt_malloc((n + guard) * size + 1);
    skt_poison(h, (n + guard) * size);
    if (n) memcpy(h, src, n * size);
    cl_mem m = skt_buf_new((n + guard) * size);
    skt_buf_upload(m, 0, h, (n + guard) * size);
    free(h);
    return m;
}

void skt_expect_guarded(cl_mem m, const void *src, size_t n, size_t size, size_t guard,
                        const char *what, const char *which)
{
    unsigned char *h = skt_malloc((n + guard) * size + 1);
    skt_buf_download(m, 0, h, (n + guard) * size);
    cr_assert(n == 0 || memcmp(h, src, n * size) == 0, "%s: %s changed [seed %llu]", what,
              which, (unsigned long long)skt_seed());
    size_t bad = skt_find_unpoisoned(h + n * size, guard * size);
    cr_assert_eq(bad, (size_t)-1, "%s: %s written past its end (byte %zu) [seed %llu]", what,
                 which, bad, (unsigned long long)skt_seed());
    free(h);
}

void skt_buf_poison(cl_mem m, size_t bytes)
{
    unsigned char b = SKT_POISON_BYTE;
    skt_buf_fill(m, &b, 1, 0, bytes);
}

void skt_finish(void)
{
    cl_int err = clFinish(sk_context_cl_queue(skt_ctx));
    cr_assert_eq(err, CL_SUCCESS, "clFinish -> %s", sk_cl_error_name(err));
}

/* ---- params ------------------------------------------------------------------------- */

void skt_set_param(sk_param p, long v)
{
    sk_status st = sk_context_set_param(skt_ctx, p, v);
    cr_assert_eq(st, SK_OK, "sk_context_set_param(%d, %ld) -> %s", (int)p, v,
                 sk_status_name(st));
}

long skt_get_param(sk_param p)
{
    long v = -12345;
    sk_status st = sk_context_get_param(skt_ctx, p, &v);
    cr_assert_eq(st, SK_OK, "sk_context_get_param(%d) -> %s", (int)p, sk_status_name(st));
    return v;
}

void skt_force_shape(sk_shape s)
{
    skt_set_param(SK_PARAM_SHAPE, (long)s);
    cr_assert_eq(skt_get_param(SK_PARAM_SHAPE), (long)s,
                 "shape %s was set but does not read back", skt_shape_name(s));
}

void skt_tiles_set(long wg, long ipt, long chunks, long serial_below)
{
    skt_set_param(SK_PARAM_WG_SIZE, wg);
    skt_set_param(SK_PARAM_ITEMS_PER_THREAD, ipt);
    skt_set_param(SK_PARAM_CPU_CHUNKS, chunks);
    skt_set_param(SK_PARAM_CPU_SERIAL_BELOW, serial_below);
}

void skt_tiles_default(void) { skt_tiles_set(0, 0, 0, 0); }

void skt_tiles_small(void) { skt_tiles_set(4, 2, 3, 1); }

void skt_merge_partition_launch(bool on)
{
    if (on)
        cr_assert_eq(setenv("SCANKIT_MERGE_SEARCH_MAX_PARTS", "0", 1), 0);
    else
        cr_assert_eq(unsetenv("SCANKIT_MERGE_SEARCH_MAX_PARTS"), 0);
}

const char *skt_shape_name(sk_shape s)
{
    switch (s) {
    case SK_SHAPE_AUTO: return "auto";
    case SK_SHAPE_CPU: return "cpu";
    case SK_SHAPE_GPU: return "gpu";
    }
    return "?";
}

const char *skt_scan_path_name(sk_scan_path p)
{
    static const char *const names[] = {
        [SK_SCAN_PATH_AUTO] = "auto path",
        [SK_SCAN_PATH_REDUCE_THEN_SCAN] = "reduce-then-scan path",
        [SK_SCAN_PATH_LOOKBACK] = "look-back path",
    };
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "?";
}

void skt_force_scan_path(sk_scan_path p)
{
    skt_set_param(SK_PARAM_SCAN_PATH, (long)p);
    cr_assert_eq(skt_get_param(SK_PARAM_SCAN_PATH), (long)p,
                 "scan path %s was set but does not read back", skt_scan_path_name(p));
}

/* ---- launch counts ---------------------------------------------------------------------- */

static void count_launch(const sk_launch_record *rec, void *user)
{
    skt_launches *c = user;
    c->total++;
    if (strstr(rec->scalars, "stream=1"))
        c->streamed++;
    if (strcmp(rec->kernel, "sk_scan_lookback") == 0)
        c->lookback++;
    else if (strcmp(rec->kernel, "sk_scan_single") == 0 ||
             (strcmp(rec->kernel, "sk_scan_chunks") == 0 && rec->global_size == 1))
        c->single++;
    else
        c->other++;
}

void skt_count_launches(skt_launches *c)
{
    sk_status st = sk_context_set_trace(skt_ctx, c ? count_launch : NULL, c);
    cr_assert_eq(st, SK_OK, "sk_context_set_trace -> %s", sk_status_name(st));
}

/* ---- comparisons ----------------------------------------------------------------------- */

const char *skt_fmt(const char *fmt, ...)
{
    static char bufs[8][512];
    static int next;
    char *b = bufs[next++ & 7];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof bufs[0], fmt, ap);
    va_end(ap);
    return b;
}

const char *skt_fmt_elem(sk_type t, const void *p, char *buf, size_t cap)
{
    switch (t) {
    case SK_INT32: { int32_t v; memcpy(&v, p, 4); snprintf(buf, cap, "%" PRId32, v); break; }
    case SK_UINT32: { uint32_t v; memcpy(&v, p, 4); snprintf(buf, cap, "%" PRIu32 " (0x%08" PRIx32 ")", v, v); break; }
    case SK_INT64: { int64_t v; memcpy(&v, p, 8); snprintf(buf, cap, "%" PRId64, v); break; }
    case SK_UINT64: { uint64_t v; memcpy(&v, p, 8); snprintf(buf, cap, "%" PRIu64 " (0x%016" PRIx64 ")", v, v); break; }
    case SK_FLOAT32: { float v; uint32_t b; memcpy(&v, p, 4); memcpy(&b, p, 4); snprintf(buf, cap, "%.9g (0x%08" PRIx32 ")", (double)v, b); break; }
    case SK_FLOAT64: { double v; uint64_t b; memcpy(&v, p, 8); memcpy(&b, p, 8); snprintf(buf, cap, "%.17g (0x%016" PRIx64 ")", v, b); break; }
    default: snprintf(buf, cap, "?"); break;
    }
    return buf;
}

static int elem_equal(sk_type t, const void *a, const void *b)
{
    if (t == SK_FLOAT32) {
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        return x == y || (isnan(x) && isnan(y));
    }
    if (t == SK_FLOAT64) {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        return x == y || (isnan(x) && isnan(y));
    }
    return memcmp(a, b, skt_ref_type_size(t)) == 0;
}

void skt_expect_elems(sk_type t, const void *got, const void *want, size_t n,
                      const char *what)
{
    size_t es = skt_ref_type_size(t);
    const char *g = got, *w = want;
    size_t first = (size_t)-1, bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!elem_equal(t, g + i * es, w + i * es)) {
            if (first == (size_t)-1)
                first = i;
            bad++;
        }
    }
    if (bad) {
        char gb[64], wb[64];
        cr_assert_fail("%s: %zu of %zu elements differ; first at [%zu]: got %s, "
                       "expected %s [seed %llu]",
                       what, bad, n, first, skt_fmt_elem(t, g + first * es, gb, sizeof gb),
                       skt_fmt_elem(t, w + first * es, wb, sizeof wb),
                       (unsigned long long)g_seed);
    }
}

void skt_expect_bytes(const void *got, const void *want, size_t n, size_t elem,
                      const char *what)
{
    const unsigned char *g = got, *w = want;
    size_t first = (size_t)-1, bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(g + i * elem, w + i * elem, elem) != 0) {
            if (first == (size_t)-1)
                first = i;
            bad++;
        }
    }
    if (bad) {
        char gb[200] = "", wb[200] = "";
        size_t gl = 0, wl = 0;
        for (size_t k = 0; k < elem && k < 32; k++) {
            gl += (size_t)snprintf(gb + gl, sizeof gb - gl, "%02x", g[first * elem + k]);
            wl += (size_t)snprintf(wb + wl, sizeof wb - wl, "%02x", w[first * elem + k]);
        }
        cr_assert_fail("%s: %zu of %zu elements differ; first at [%zu]: got %s, "
                       "expected %s [seed %llu]",
                       what, bad, n, first, gb, wb, (unsigned long long)g_seed);
    }
}

/* ---- scratch buffers ------------------------------------------------------------- */

skt_scratch skt_bufs;

void skt_bufs_reserve(size_t bytes)
{
    skt_scratch *b = &skt_bufs;
    if (bytes <= b->cap)
        return;
    skt_buf_free(b->src);
    skt_buf_free(b->dst);
    skt_buf_free(b->aux);
    free(b->h_src);
    free(b->h_ref);
    free(b->h_out);
    b->cap = bytes;
    b->src = skt_buf_new(bytes);
    b->dst = skt_buf_new(bytes);
    b->aux = skt_buf_new(bytes);
    b->h_src = skt_malloc(bytes);
    b->h_ref = skt_malloc(bytes);
    b->h_out = skt_malloc(bytes);
}

/* ---- parameterised tests ----------------------------------------------------------- */

/* The values 0 .. 31 whose bits are set in mask, or just `none` for 0. */
static int axis_values(unsigned mask, int none, int *v)
{
    int count = 0;
    if (mask == 0)
        v[count++] = none;
    for (int i = 0; i < 32; i++)
        if (mask & (1u << i))
            v[count++] = i;
    return count;
}

static void free_cases(struct criterion_test_params *p) { cr_free(p->params); }

/* Walks every case of `a` that `keep` accepts: counts them, and stores them
 * in out when out is not NULL. */
static size_t walk_cases(const skt_axes *a, int (*keep)(const skt_case *), skt_case *out)
{
    int types[33], shapes[33], paths[33];
    int nt = axis_values(a->types, -1, types);
    int ns = axis_values(a->shapes, SK_SHAPE_AUTO, shapes);
    int np = axis_values(a->paths, SK_SCAN_PATH_AUTO, paths);
    int nc = a->classes > 0 ? a->classes : 1, nv = a->variants > 0 ? a->variants : 1;
    int nops = a->per_op ? SK_OP_COUNT : 1, nx = a->both_scans ? 2 : 1;
    size_t count = 0;
    for (int t = 0; t < nt; t++)
        for (int s = 0; s < ns; s++)
            for (int p = 0; p < np; p++)
                for (int c = 0; c < nc; c++)
                    for (int op = 0; op < nops; op++)
                        for (int v = 0; v < nv; v++)
                            for (int x = 0; x < nx; x++) {
                                skt_case k = {types[t], a->per_op ? op : -1,
                                              (sk_shape)shapes[s], (sk_scan_path)paths[p],
                                              c, v, x, 0};
                                if (a->per_op && k.type >= 0 &&
                                    !skt_ref_supported((sk_type)k.type, (sk_op)op))
                                    continue;
                                if (keep && !keep(&k))
                                    continue;
                                if (out)
                                    out[count] = k;
                                count++;
                            }
    return count;
}

struct criterion_test_params skt_cases(skt_axes axes, int (*keep)(const skt_case *c))
{
    size_t count = walk_cases(&axes, keep, NULL);
    skt_case *v = cr_malloc((count ? count : 1) * sizeof *v);
    if (!v) {
        fprintf(stderr, "skt_cases: cr_malloc failed\n");
        abort();
    }
    walk_cases(&axes, keep, v);
    return hand_to_criterion(v, count);
}

/* Cases in Criterion's allocator as a parameter array it frees. */
static struct criterion_test_params hand_to_criterion(skt_case *v, size_t n)
{
    return cr_make_param_array(skt_case, v, n, free_cases);
}

const char *skt_case_name(const skt_case *c)
{
    return skt_fmt("%s%s%s%s%s%s%s, size class %d, variant %d",
                   c->type >= 0 ? sk_type_name((sk_type)c->type) : "case",
                   c->op >= 0 ? " " : "", c->op >= 0 ? sk_op_name((sk_op)c->op) : "",
                   c->exclusive ? " exclusive" : "",
                   c->shape != SK_SHAPE_AUTO ? skt_fmt(", %s shape", skt_shape_name(c->shape)) : "",
                   c->path != SK_SCAN_PATH_AUTO ? ", " : "",
                   c->path != SK_SCAN_PATH_AUTO ? skt_scan_path_name(c->path) : "",
                   c->size_class, c->variant);
}

void skt_case_begin(const skt_case *c)
{
    cr_log_info("case: %s [seed %llu]", skt_case_name(c), (unsigned long long)skt_seed());
}

int skt_next_op(sk_type t, int op)
{
    while (++op < SK_OP_COUNT)
        if (skt_ref_supported(t, (sk_op)op))
            return op;
    return -1;
}

/* A float16 key (bits) from the random word r: mostly any bits, else
 * +-0, +-inf, a NaN, +-1, or a NaN with a payload, either sign. */
static uint64_t random_half_key(uint64_t r)
{
    static const uint16_t specials[] = {0x0000u, 0x8000u, 0x7c00u, 0xfc00u,
                                        0x7e00u, 0xfe00u, 0x3c00u, 0xbc00u};
    enum { NSPECIAL = sizeof specials / sizeof specials[0] };
    if (skt_rand_below(4)) return r >> 48;
    size_t k = (size_t)skt_rand_below(NSPECIAL + 1);
    if (k == NSPECIAL) return 0x7e00u | ((r >> 55) & 0x1ffu) | (r & 0x8000u);
    return specials[k];
}

uint64_t skt_random_key(sk_type t)
{
    static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0};
    enum { NSPECIAL = sizeof specials / sizeof specials[0] };
    uint64_t r = skt_rand();
    if (t == SK_FLOAT16) return random_half_key(r);
    if (t != SK_FLOAT32 && t != SK_FLOAT64) return r >> (64 - 8 * sk_type_size(t));
    if (skt_rand_below(4)) return t == SK_FLOAT32 ? r >> 32 : r;
    size_t k = (size_t)skt_rand_below(NSPECIAL + 1);
    if (k == NSPECIAL) /* a NaN with a payload, either sign */
        return t == SK_FLOAT32 ? (0x7fc00000u | (r >> 41) | (r & 0x80000000u))
                               : (0x7ff8000000000000ull | (r >> 13) | (r & (1ull << 63)));
    if (t == SK_FLOAT64) {
        uint64_t bits;
        memcpy(&bits, &specials[k], 8);
        return bits;
    }
    float f = (float)specials[k];
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}
