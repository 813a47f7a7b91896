/*
 * test_mpi_sort.c - the distributed sort (scankit_mpi.h) against the serial
 * reference (tests/ref/ref_sort.c), run under `mpirun -np P`.
 *
 * Not a Criterion suite: Criterion forks every test, which MPI does not
 * survive. One run goes through every case in one MPI job (opening the
 * devices once): each rank builds the whole global input from the seed,
 * sorts its slice of it with the others, and rank 0 gathers every rank's
 * range and compares their concatenation with the stable sort of the whole
 * input, bit for bit (values are the global input positions, so stability
 * shows), and checks the offsets and the shares. Any mismatch prints the
 * case and the first difference, and the run exits 1. The seed is printed;
 * SKT_SEED=<n> runs the same data again.
 *
 * Cases: every key type, ascending and descending, keys and pairs (4- and
 * 8-byte values), bit ranges, balanced and sampled splits, skewed inputs
 * (all equal, few unique, sorted, reversed) and layouts (all on the first
 * or the last rank, random shares), n = 0, n < P, 2^16 keys, the exchange
 * in rounds, and every rank returning the same failure when one rank's
 * arguments are bad (stats with a bad struct_size among them) or the ranks
 * disagree. Every sort also reports its stats, which must add up.
 *
 * With budgets of device and host memory (sk_mpi_sort_opts.device_bytes,
 * host_bytes) of a few KiB, the local sort and the merge go through the
 * stream sort in several runs, some of them spilled: every key type, keys
 * and pairs, both orders, a bit range, all-equal keys, all the data on one
 * rank, against the same reference; each rank's stats must show runs
 * wherever its data exceeded its device budget and memory within both
 * budgets, and some run must have spilled. A budget too small for one
 * element on one rank fails on every rank with SK_E_SIZE.
 */
#define _POSIX_C_SOURCE 200809L

#include "ref_sort.h"
#include "scankit_mpi.h"
#include "sk_rng.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum dist { D_RANDOM, D_EQUAL, D_FEW, D_SORTED, D_REVERSED, D_COUNT };
enum layout { L_EVEN, L_RANDOM, L_FIRST, L_LAST, L_COUNT };

static const char *const DIST_NAMES[] = {"random", "all-equal", "few-unique", "sorted",
                                         "reversed"};
static const char *const LAYOUT_NAMES[] = {"even", "random-shares", "all-on-first",
                                           "all-on-last"};

typedef struct tcase {
    sk_type type;
    size_t value_size;   /* 0: keys only */
    sk_sort_order order;
    unsigned begin, end;
    enum dist dist;
    enum layout layout;
    size_t n;            /* global */
    sk_mpi_sort_opts opts;
} tcase;

typedef struct world {
    sk_context *ctx;
    int rank, ranks;
    uint64_t seed;
    int cases, failures;
    uint64_t spilled;    /* runs this rank spilled in the budget cases */
} world;

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "test_mpi_sort: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static void put_key(sk_type t, void *keys, size_t i, uint64_t bits)
{
    if (sk_type_size(t) == 4) {
        uint32_t v = (uint32_t)bits;
        memcpy((char *)keys + 4 * i, &v, 4);
    } else {
        memcpy((char *)keys + 8 * i, &bits, 8);
    }
}

/* A random key; floats now and then a special one (zeros, infinities,
 * NaNs with payloads of either sign). */
static uint64_t random_key(sk_rng *g, sk_type t)
{
    static const uint64_t specials64[] = {0, 1ull << 63, 0x7ff0000000000000ull,
                                          0xfff0000000000000ull, 0x7ff8000000000001ull,
                                          0xfff8000000000abcull};
    static const uint32_t specials32[] = {0, 1u << 31, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                                          0xffc00abcu};
    uint64_t r = sk_rng_next(g);
    int special = (t == SK_FLOAT32 || t == SK_FLOAT64) && sk_rng_below(g, 4) == 0;
    size_t k = (size_t)sk_rng_below(g, 6);
    if (sk_type_size(t) == 4) return special ? specials32[k] : r >> 32;
    return special ? specials64[k] : r;
}

static void sort_whole(sk_type t, void *keys, size_t n, int descending)
{
    size_t size = sk_type_size(t);
    size_t *perm = xmalloc(n * sizeof *perm);
    void *tmp = xmalloc(n * size);
    skt_ref_sort_perm(t, keys, n, descending, 0, 8 * (unsigned)size, perm);
    skt_ref_gather(keys, size, perm, n, tmp);
    memcpy(keys, tmp, n * size);
    free(perm);
    free(tmp);
}

static void fill_keys(sk_rng *g, const tcase *c, void *keys)
{
    uint64_t few[3] = {random_key(g, c->type), random_key(g, c->type), random_key(g, c->type)};
    for (size_t i = 0; i < c->n; i++) {
        uint64_t k = c->dist == D_EQUAL  ? few[0]
                     : c->dist == D_FEW  ? few[sk_rng_below(g, 3)]
                                         : random_key(g, c->type);
        put_key(c->type, keys, i, k);
    }
    if (c->dist == D_SORTED || c->dist == D_REVERSED)
        sort_whole(c->type, keys, c->n, c->dist == D_REVERSED);
}

/* Values: the global input position (4 bytes), or a unique mix of it. */
static void fill_values(const tcase *c, void *values)
{
    for (size_t i = 0; i < c->n; i++) {
        if (c->value_size == 4) {
            uint32_t v = (uint32_t)i;
            memcpy((char *)values + 4 * i, &v, 4);
        } else {
            uint64_t v = (uint64_t)i * 0x9E3779B97F4A7C15ull;
            memcpy((char *)values + 8 * i, &v, 8);
        }
    }
}

/* Where each rank's slice starts (ranks + 1 entries). */
static void layout_starts(sk_rng *g, const tcase *c, int ranks, size_t *start)
{
    for (int r = 0; r <= ranks; r++) {
        if (c->layout == L_EVEN) start[r] = c->n * (size_t)r / (size_t)ranks;
        if (c->layout == L_RANDOM) start[r] = (size_t)sk_rng_below(g, c->n + 1);
        if (c->layout == L_FIRST) start[r] = r == 0 ? 0 : c->n;
        if (c->layout == L_LAST) start[r] = r == ranks ? c->n : 0;
    }
    start[0] = 0, start[ranks] = c->n;
    for (int r = 1; r < ranks; r++) /* random cuts, in order */
        for (int q = r; q > 0 && start[q] < start[q - 1]; q--) {
            size_t t = start[q];
            start[q] = start[q - 1], start[q - 1] = t;
        }
}

/* ------------------------------------------------------------------------ */
/* Checking (rank 0)                                                         */
/* ------------------------------------------------------------------------ */

static void describe(const tcase *c, int index, char *buf, size_t cap)
{
    int len = snprintf(
        buf, cap, "case %d: %s %s %s%s bits %u:%u, %s keys, %s, n=%zu%s%s", index,
        sk_type_name(c->type), c->order == SK_DESCENDING ? "descending" : "ascending",
        c->value_size ? "pairs" : "keys",
        c->value_size == 8 ? " (8-byte values)" : c->value_size == 4 ? " (4-byte values)" : "",
        c->begin, c->end, DIST_NAMES[c->dist], LAYOUT_NAMES[c->layout], c->n,
        c->opts.balanced ? ", balanced" : "", c->opts.exchange_bytes ? ", exchange in rounds" : "");
    if (len > 0 && (size_t)len < cap && (c->opts.device_bytes || c->opts.host_bytes))
        snprintf(buf + len, cap - (size_t)len, ", device budget %" PRIu64 ", host budget %" PRIu64,
                 c->opts.device_bytes, c->opts.host_bytes);
}

static int fail(world *w, const tcase *c, int index, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(world *w, const tcase *c, int index, const char *fmt, ...)
{
    char what[512];
    describe(c, index, what, sizeof what);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "test_mpi_sort: FAIL (P=%d, seed %" PRIu64 ") %s: ", w->ranks, w->seed, what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    w->failures++;
    return -1;
}

static int check_shares(world *w, const tcase *c, int index, const uint64_t *meta)
{
    uint64_t at = 0, N = c->n, P = (uint64_t)w->ranks;
    for (int r = 0; r < w->ranks; r++) {
        uint64_t n = meta[3 * r], offset = meta[3 * r + 1], total = meta[3 * r + 2];
        if (offset != at || total != N)
            return fail(w, c, index, "rank %d: offset %" PRIu64 " total %" PRIu64
                        ", want %" PRIu64 " and %" PRIu64, r, offset, total, at, N);
        uint64_t want = (N / P) * (r + 1) + (N % P) * (r + 1) / P - (N / P) * r - (N % P) * r / P;
        if (c->opts.balanced && n != want)
            return fail(w, c, index, "rank %d holds %" PRIu64 " elements, want %" PRIu64, r, n,
                        want);
        if (!c->opts.balanced && n > 3 * N / P + 2 * P + 2)
            return fail(w, c, index, "rank %d holds %" PRIu64 " of %" PRIu64
                        " elements: the splitters are far off", r, n, N);
        at += n;
    }
    return at == N ? 0 : fail(w, c, index, "the ranks hold %" PRIu64 " elements", at);
}

static int check_order(world *w, const tcase *c, int index, const void *keys,
                       const void *values, const void *got_keys, const void *got_values)
{
    size_t ks = sk_type_size(c->type), vs = c->value_size;
    size_t *perm = xmalloc(c->n * sizeof *perm);
    skt_ref_sort_perm(c->type, keys, c->n, c->order == SK_DESCENDING, c->begin, c->end, perm);
    int rc = 0;
    for (size_t i = 0; i < c->n && rc == 0; i++) {
        const char *gk = (const char *)got_keys + i * ks, *wk = (const char *)keys + perm[i] * ks;
        if (memcmp(gk, wk, ks) != 0)
            rc = fail(w, c, index, "global position %zu: key 0x%" PRIx64 ", want 0x%" PRIx64
                      " (input position %zu)", i, skt_ref_key_raw(c->type, got_keys, i),
                      skt_ref_key_raw(c->type, keys, perm[i]), perm[i]);
        else if (vs && memcmp((const char *)got_values + i * vs,
                              (const char *)values + perm[i] * vs, vs) != 0)
            rc = fail(w, c, index, "global position %zu: the value is not that of input "
                      "position %zu (unstable or lost)", i, perm[i]);
    }
    free(perm);
    return rc;
}

/* This rank's stats add up (its elements and bytes; phases within the
 * whole call), and the bytes sent by all ranks are those received. */
static int check_stats(world *w, const tcase *c, int index, const sk_mpi_sort_stats *t,
                       size_t n, const sk_mpi_sorted *out)
{
    uint64_t record = sk_type_size(c->type) + c->value_size, moved[2] = {t->sent_bytes,
                                                                          t->received_bytes};
    uint64_t all[2];
    MPI_Allreduce(moved, all, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    double phases = t->sort_seconds + t->split_seconds + t->exchange_seconds +
                    t->merge_seconds + t->wait_seconds;
    if (t->elements_in != n || t->elements_out != out->n)
        return fail(w, c, index, "rank %d: stats count %" PRIu64 " in, %" PRIu64 " out", w->rank,
                    t->elements_in, t->elements_out);
    if (t->sent_bytes + t->kept_bytes != n * record ||
        t->received_bytes + t->kept_bytes != out->n * record || all[0] != all[1])
        return fail(w, c, index, "rank %d: stats bytes sent %" PRIu64 ", received %" PRIu64
                    ", kept %" PRIu64, w->rank, t->sent_bytes, t->received_bytes, t->kept_bytes);
    if (t->sort_seconds < 0 || t->split_seconds < 0 || t->exchange_seconds < 0 ||
        t->merge_seconds < 0 || t->wait_seconds < 0 || t->total_seconds < phases)
        return fail(w, c, index, "rank %d: stats seconds that do not add up", w->rank);
    if (w->ranks > 1 && c->n > 1 && t->exchange_calls < 1)
        return fail(w, c, index, "rank %d: no MPI_Alltoallv counted", w->rank);
    if (w->ranks == 1 && (t->exchange_calls || t->kept_bytes != n * record))
        return fail(w, c, index, "one rank: %" PRIu64 " MPI_Alltoallv calls, %" PRIu64
                    " bytes kept (want none and all %zu elements)", t->exchange_calls,
                    t->kept_bytes, n);
    return 0;
}

/* The input ranks this rank's range of the global order comes from (the
 * runs it receives), found from the reference order of all the keys and
 * the slices' starts. */
static int ranks_sending(const world *w, const tcase *c, const void *keys, const size_t *start,
                         const sk_mpi_sorted *out)
{
    size_t *perm = xmalloc(c->n * sizeof *perm);
    int *from = xmalloc((size_t)w->ranks * sizeof *from), count = 0;
    skt_ref_sort_perm(c->type, keys, c->n, c->order == SK_DESCENDING, c->begin, c->end, perm);
    for (int r = 0; r < w->ranks; r++) from[r] = 0;
    for (uint64_t i = out->offset; i < out->offset + out->n; i++) {
        int r = 0;
        while (perm[i] >= start[r + 1]) r++;
        count += !from[r];
        from[r] = 1;
    }
    free(perm);
    free(from);
    return count;
}

/* With budgets: runs wherever this rank's data exceeded its device budget
 * (a run's elements and the sort's scratch must fit it), memory within
 * both budgets; without: one run a sort, no memory counted. The runs
 * received are ordered without a sort where they are one run (from one
 * rank): then the merge counts that one run. */
static int check_budget_stats(world *w, const tcase *c, int index, const sk_mpi_sort_stats *t,
                              size_t n, const sk_mpi_sorted *out, const void *keys,
                              const size_t *start)
{
    uint64_t record = sk_type_size(c->type) + c->value_size, dev = c->opts.device_bytes;
    uint64_t host = c->opts.host_bytes;
    int budget = dev || host;
    uint64_t ins[2] = {n, out->n}, runs[2] = {t->sort_runs, t->merge_runs};
    int one_run_in = budget && ranks_sending(w, c, keys, start, out) <= 1;
    for (int i = 0; i < 2; i++) {
        int over = dev && ins[i] * record > dev && !(i == 1 && one_run_in);
        if ((ins[i] == 0) != (runs[i] == 0) || (over && runs[i] < 2) ||
            ((!budget || (i == 1 && one_run_in)) && runs[i] > 1))
            return fail(w, c, index, "rank %d: the %s of %" PRIu64 " elements took %" PRIu64
                        " runs", w->rank, i ? "merge" : "local sort", ins[i], runs[i]);
    }
    if ((dev && t->device_bytes > dev) || (host && t->host_bytes > host) ||
        (!budget && (t->device_bytes || t->host_bytes || t->spilled_runs)))
        return fail(w, c, index, "rank %d: stats device memory %" PRIu64 ", host memory %" PRIu64
                    ", %" PRIu64 " runs spilled", w->rank, t->device_bytes, t->host_bytes,
                    t->spilled_runs);
    w->spilled += t->spilled_runs;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* One case                                                                  */
/* ------------------------------------------------------------------------ */

static sk_status sort_slice(world *w, const tcase *c, const void *keys, const void *values,
                            sk_mpi_sorted *out, size_t n, sk_mpi_sort_stats *stats)
{
    sk_mpi_sort_opts o = c->opts;
    o.stats = stats;
    if (c->value_size)
        return sk_mpi_sort_pairs_bits(w->ctx, MPI_COMM_WORLD, c->type, c->value_size, keys,
                                      values, out, n, c->order, c->begin, c->end, &o);
    return sk_mpi_sort_keys_bits(w->ctx, MPI_COMM_WORLD, c->type, keys, out, n, c->order,
                                 c->begin, c->end, &o);
}

/* Every rank's range, one after the other, on rank 0 (into *keys, *values). */
static void gather_ranges(world *w, const tcase *c, const sk_mpi_sorted *out, uint64_t *meta,
                          void *keys, void *values)
{
    uint64_t mine[3] = {out->n, out->offset, out->total};
    MPI_Gather(mine, 3, MPI_UINT64_T, meta, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int *counts = xmalloc(2 * (size_t)w->ranks * sizeof *counts), *displs = counts + w->ranks;
    size_t sizes[2] = {sk_type_size(c->type), c->value_size};
    void *dst[2] = {keys, values};
    const void *src[2] = {out->keys, out->values};
    for (int part = 0; part < 1 + (c->value_size != 0); part++) {
        int at = 0;
        for (int r = 0; w->rank == 0 && r < w->ranks; r++) {
            counts[r] = (int)(meta[3 * r] * sizes[part]);
            displs[r] = at;
            at += counts[r];
        }
        MPI_Gatherv(src[part], (int)(out->n * sizes[part]), MPI_BYTE, dst[part], counts, displs,
                    MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    free(counts);
}

static int same_status_everywhere(world *w, const tcase *c, int index, sk_status st,
                                  sk_status want)
{
    int mine[2] = {(int)st, -(int)st}, low[2];
    MPI_Allreduce(mine, low, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (w->rank != 0) return 0;
    if (low[0] != -low[1])
        return fail(w, c, index, "the ranks returned different statuses (%d .. %d)", low[0],
                    -low[1]);
    if (st != want)
        return fail(w, c, index, "status %s, want %s", sk_status_name(st), sk_status_name(want));
    return 0;
}

static void run_case(world *w, const tcase *c, int index)
{
    sk_rng g;
    sk_rng_seed(&g, w->seed ^ (0x51ED2700ull * (uint64_t)(index + 1)));
    size_t ks = sk_type_size(c->type), vs = c->value_size;
    void *keys = xmalloc(c->n * ks), *values = xmalloc(c->n * (vs ? vs : 1));
    size_t *start = xmalloc(((size_t)w->ranks + 1) * sizeof *start);
    fill_keys(&g, c, keys);
    if (vs) fill_values(c, values);
    layout_starts(&g, c, w->ranks, start);
    size_t from = start[w->rank], n = start[w->rank + 1] - from;
    sk_mpi_sorted out;
    sk_mpi_sort_stats stats = SK_MPI_SORT_STATS_INIT;
    sk_status st = sort_slice(w, c, (char *)keys + from * ks, (char *)values + from * vs, &out, n,
                              &stats);
    w->cases++;
    if (same_status_everywhere(w, c, index, st, SK_OK) == 0 && st == SK_OK) {
        check_stats(w, c, index, &stats, n, &out);
        check_budget_stats(w, c, index, &stats, n, &out, keys, start);
        uint64_t *meta = xmalloc(3 * (size_t)w->ranks * sizeof *meta);
        void *got_keys = xmalloc(c->n * ks), *got_values = xmalloc(c->n * (vs ? vs : 1));
        gather_ranges(w, c, &out, meta, got_keys, got_values);
        if (w->rank == 0 && check_shares(w, c, index, meta) == 0)
            check_order(w, c, index, keys, values, got_keys, got_values);
        free(meta);
        free(got_keys);
        free(got_values);
    }
    sk_mpi_sorted_free(&out);
    free(keys);
    free(values);
    free(start);
}

/* ------------------------------------------------------------------------ */
/* The cases                                                                 */
/* ------------------------------------------------------------------------ */

static const sk_type TYPES[] = {SK_UINT32, SK_INT32, SK_UINT64, SK_INT64, SK_FLOAT32, SK_FLOAT64};
enum { NTYPES = sizeof TYPES / sizeof TYPES[0] };

static tcase case_of(sk_type t, size_t vs, sk_sort_order o, enum dist d, enum layout l,
                     size_t n, int balanced)
{
    tcase c = {t, vs, o, 0, 8 * (unsigned)sk_type_size(t), d, l, n, SK_MPI_SORT_OPTS_INIT};
    c.opts.balanced = balanced;
    return c;
}

static void run_cases(world *w)
{
    sk_rng g;
    sk_rng_seed(&g, w->seed);
    int index = 0;
    /* every type, both orders, keys and pairs, random data and shares */
    for (int t = 0; t < NTYPES; t++)
        for (int o = 0; o < 2; o++)
            for (int pairs = 0; pairs < 2; pairs++) {
                size_t vs = pairs ? (t % 2 ? 8 : 4) : 0, n = 1 + (size_t)sk_rng_below(&g, 5000);
                tcase c = case_of(TYPES[t], vs, (sk_sort_order)o, D_RANDOM, L_RANDOM, n, o ^ pairs);
                run_case(w, &c, index++);
            }
    /* a random bit range of every type, pairs */
    for (int t = 0; t < NTYPES; t++) {
        tcase c = case_of(TYPES[t], 4, (sk_sort_order)(t % 2), D_RANDOM, L_EVEN, 3000, t % 3 == 0);
        c.begin = (unsigned)sk_rng_below(&g, c.end);
        c.end = c.begin + 1 + (unsigned)sk_rng_below(&g, c.end - c.begin);
        run_case(w, &c, index++);
    }
    /* skew: every distribution on every layout, both splits */
    static const sk_type SKEW_TYPES[] = {SK_UINT32, SK_FLOAT64};
    for (int t = 0; t < 2; t++)
        for (int d = 1; d < D_COUNT; d++)
            for (int l = 0; l < L_COUNT; l++)
                for (int b = 0; b < 2; b++) {
                    tcase c = case_of(SKEW_TYPES[t], t ? 8 : 0, (sk_sort_order)(l % 2),
                                      (enum dist)d, (enum layout)l, 2000, b);
                    run_case(w, &c, index++);
                }
    /* sizes: none, fewer than the ranks, one, 2^16; the exchange in rounds */
    const size_t sizes[] = {0, (size_t)w->ranks - 1, 1, (size_t)1 << 16};
    for (int s = 0; s < 4; s++)
        for (int b = 0; b < 2; b++) {
            tcase c = case_of(SK_INT64, 8, SK_ASCENDING, D_RANDOM, (enum layout)(s % L_COUNT),
                              sizes[s], b);
            run_case(w, &c, index++);
        }
    for (int b = 0; b < 2; b++) {
        tcase c = case_of(SK_UINT32, 4, SK_DESCENDING, D_FEW, L_RANDOM, 20000, b);
        c.opts.exchange_bytes = 1000 + 8 * (size_t)b; /* not a multiple of the element */
        run_case(w, &c, index++);
    }
}

/* Device and host budgets of a few KiB: the local sorts and the merges in
 * runs, the runs beyond the host budget spilled to $TMPDIR. */
static void run_budget_cases(world *w)
{
    sk_rng g;
    sk_rng_seed(&g, w->seed ^ 0xB0D6E7ull);
    int index = 1000;
    uint64_t spilled_before = w->spilled;
    for (int t = 0; t < NTYPES; t++) {
        size_t vs = t % 3 == 0 ? 0 : t % 3 == 1 ? 4 : 8;
        tcase c = case_of(TYPES[t], vs, (sk_sort_order)(t % 2), D_RANDOM, L_RANDOM,
                          6000 + (size_t)sk_rng_below(&g, 3000), t % 2);
        c.opts.device_bytes = 16 << 10;
        c.opts.host_bytes = t % 2 ? 40 << 10 : 0; /* 0: the device budget alone */
        if (t == 2) {
            c.begin = (unsigned)sk_rng_below(&g, 64);
            c.end = c.begin + 1 + (unsigned)sk_rng_below(&g, 64 - c.begin);
        }
        run_case(w, &c, index++);
    }
    /* all-equal keys on one rank; the host budget alone */
    tcase c = case_of(SK_UINT32, 4, SK_ASCENDING, D_EQUAL, L_LAST, 8000, 0);
    c.opts.device_bytes = 16 << 10, c.opts.host_bytes = 40 << 10;
    run_case(w, &c, index++);
    c = case_of(SK_FLOAT32, 0, SK_DESCENDING, D_FEW, L_FIRST, 8000, 1);
    c.opts.host_bytes = 24 << 10;
    run_case(w, &c, index++);
    uint64_t mine = w->spilled - spilled_before, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (all == 0) fail(w, &c, -5, "no run of any budget case spilled to the temporary file");
}

/* One rank's bad arguments, and ranks that disagree, fail on every rank. */
static void run_failures(world *w)
{
    uint32_t keys[4] = {4, 3, 2, 1};
    int last = w->rank == w->ranks - 1;
    tcase c = case_of(SK_UINT32, 0, SK_ASCENDING, D_RANDOM, L_EVEN, 4, 0);
    sk_mpi_sorted out;
    sk_status st = sk_mpi_sort_keys(w->ctx, MPI_COMM_WORLD, SK_UINT32, last ? NULL : keys, &out,
                                    4, SK_ASCENDING, NULL);
    w->cases++;
    same_status_everywhere(w, &c, -1, st, SK_E_INVALID_ARG);
    if (out.keys || out.n) fail(w, &c, -1, "a failed sort left an output on rank %d", w->rank);
    sk_mpi_sort_stats small = SK_MPI_SORT_STATS_INIT;
    small.struct_size = sizeof small - 1, small.elements_in = 7u;
    sk_mpi_sort_opts o = SK_MPI_SORT_OPTS_INIT;
    o.stats = last ? &small : NULL;
    st = sk_mpi_sort_keys(w->ctx, MPI_COMM_WORLD, SK_UINT32, keys, &out, 4, SK_ASCENDING, &o);
    w->cases++;
    same_status_everywhere(w, &c, -4, st, SK_E_INVALID_ARG);
    if (small.elements_in != 7u) fail(w, &c, -4, "stats with a bad struct_size were written");
    o = (sk_mpi_sort_opts)SK_MPI_SORT_OPTS_INIT;
    o.device_bytes = last ? 1 : 0; /* holds no run: SK_E_SIZE there */
    st = sk_mpi_sort_keys(w->ctx, MPI_COMM_WORLD, SK_UINT32, keys, &out, 4, SK_ASCENDING, &o);
    w->cases++;
    same_status_everywhere(w, &c, -6, st, SK_E_SIZE);
    if (out.keys || out.n) fail(w, &c, -6, "a failed sort left an output on rank %d", w->rank);
    if (w->ranks < 2) return;
    st = sk_mpi_sort_keys(w->ctx, MPI_COMM_WORLD, SK_UINT32, keys, &out, 4,
                          last ? SK_DESCENDING : SK_ASCENDING, NULL);
    w->cases++;
    same_status_everywhere(w, &c, -2, st, SK_E_INVALID_ARG);
    st = sk_mpi_sort_keys_bits(w->ctx, MPI_COMM_WORLD, SK_UINT32, keys, &out, 4, SK_ASCENDING, 0,
                               last ? 33 : 32, NULL);
    w->cases++;
    same_status_everywhere(w, &c, -3, st, SK_E_INVALID_ARG);
}

static uint64_t pick_seed(int rank)
{
    uint64_t seed = 0;
    const char *env = getenv("SKT_SEED");
    if (rank == 0) seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)clock();
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return seed;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world w = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.ranks);
    w.seed = pick_seed(w.rank);
    if (w.rank == 0) printf("test_mpi_sort: P=%d, seed %" PRIu64 " (SKT_SEED)\n", w.ranks, w.seed);
    char why[1024];
    sk_status st = sk_mpi_context_create(&w.ctx, MPI_COMM_WORLD, NULL, why, sizeof why);
    if (st != SK_OK) {
        fprintf(stderr, "test_mpi_sort: rank %d: no device: %s\n", w.rank, why);
        MPI_Finalize();
        return 1;
    }
    run_cases(&w);
    run_budget_cases(&w);
    run_failures(&w);
    sk_context_free(w.ctx);
    int failures = 0;
    MPI_Reduce(&w.failures, &failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (w.rank == 0)
        printf("test_mpi_sort: P=%d: %d cases, %s\n", w.ranks, w.cases,
               failures ? "FAILED" : "all passed");
    MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failures ? 1 : 0;
}
