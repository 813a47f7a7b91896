// peer_vqsort.cpp - Highway's vqsort as a CPU peer in bench_all (see
// peer_vqsort.h).
//
// One thread: copy the keys (or pack the pairs) into the peer's array and
// sort it in place. Every core: each of T threads copies and sorts its own
// slice of n / T elements, then rounds of pairwise merges join the sorted
// slices; a merge of two runs is split at T / runs-being-merged output
// places found by the merge path (a binary search per split), so that every
// thread merges a share of every round. The slices are sorted into the
// buffer that makes the last round end in the peer's output array. Pairs
// are packed as key << 32 | value into uint64 words: the values are the
// input indices, so sorting the words gives the stable order, and the
// words are unpacked after the last round (by the threads, slice by slice).
// The 64-bit sorts sort uint64 keys as they are, and pairs of a uint64 key
// and a uint32 value as 128-bit words (hwy::uint128_t: the key high, the
// value low, ordered by both: the stable order again).
#include "peer_vqsort.h"

#include <hwy/contrib/sort/vqsort.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

struct bb_vqsort {
    unsigned threads = 1;
    std::vector<hwy::Sorter> sorters;     // one per thread: a Sorter is not shared
    std::vector<uint32_t> keys, keys_tmp; // sort_keys: the result, merge scratch
    std::vector<uint32_t> vals;           // sort_pairs: the unpacked values
    std::vector<uint64_t> words, words_tmp; // sort_pairs: packed, merge scratch
    std::vector<uint64_t> keys64, keys64_tmp; // the 64-bit sorts: the keys, merge scratch
    std::vector<hwy::uint128_t> wide, wide_tmp; // sort_pairs64: packed, merge scratch
};

namespace {

// Runs f(0), ..., f(count - 1), each on its own thread (the last on this one).
void run_threads(unsigned count, const std::function<void(unsigned)> &f)
{
    std::vector<std::thread> pool;
    pool.reserve(count);
    for (unsigned t = 0; t + 1 < count; t++) pool.emplace_back(f, t);
    if (count) f(count - 1);
    for (std::thread &th : pool) th.join();
}

// The start of part i of n elements split in `parts`: floor(n * i / parts),
// without forming n * i.
size_t share(size_t n, unsigned parts, unsigned i)
{
    return n / parts * i + n % parts * i / parts;
}

// The number of a's elements among the first k of the stable merge of a
// and b (a's element first on ties).
template <typename T>
size_t merge_path(const T *a, size_t na, const T *b, size_t nb, size_t k)
{
    size_t lo = k > nb ? k - nb : 0, hi = k < na ? k : na;
    while (lo < hi) {
        size_t i = lo + (hi - lo) / 2;
        if (!(b[k - i - 1] < a[i])) lo = i + 1;
        else hi = i;
    }
    return lo;
}

// One piece of a merge: output places [k0, k1) of merging src[s0, s1) and
// src[s1, s2) into dst[s0, s2).
template <typename T>
void merge_piece(const T *src, T *dst, size_t s0, size_t s1, size_t s2, size_t k0, size_t k1)
{
    const T *a = src + s0, *b = src + s1;
    size_t na = s1 - s0, nb = s2 - s1;
    size_t i0 = merge_path(a, na, b, nb, k0), i1 = merge_path(a, na, b, nb, k1);
    std::merge(a + i0, a + i1, b + (k0 - i0), b + (k1 - i1), dst + s0 + k0);
}

struct piece {
    size_t s0, s1, s2, k0, k1; // s1 == s2: a lone run, copied
};

// The pieces of one round over the runs starting at starts[] (ending at n).
std::vector<piece> round_pieces(const std::vector<size_t> &starts, size_t n, unsigned threads)
{
    std::vector<piece> out;
    size_t runs = starts.size(), pairs = runs / 2;
    unsigned per = pairs ? std::max(1u, threads / (unsigned)pairs) : 1;
    for (size_t r = 0; r < runs; r += 2) {
        size_t s0 = starts[r], s1 = r + 1 < runs ? starts[r + 1] : n;
        size_t s2 = r + 2 < runs ? starts[r + 2] : n;
        if (r + 1 == runs) {
            out.push_back({s0, s1, s1, 0, s1 - s0});
            continue;
        }
        for (unsigned p = 0; p < per; p++)
            out.push_back({s0, s1, s2, share(s2 - s0, per, p), share(s2 - s0, per, p + 1)});
    }
    return out;
}

size_t rounds_for(unsigned slices)
{
    size_t r = 0;
    for (unsigned runs = slices; runs > 1; runs = (runs + 1) / 2) r++;
    return r;
}

// Sorts out[0, n) (filled slice by slice by fill(t, lo, hi)) on v's
// threads, with tmp as merge scratch.
template <typename T, typename Fill>
void sort_threads(bb_vqsort *v, T *out, T *tmp, size_t n, Fill fill)
{
    unsigned slices = v->threads;
    if (n < (size_t)slices * 4096) slices = 1;
    // The slices go where the last round's output ends up in `out`.
    T *first = rounds_for(slices) % 2 ? tmp : out, *second = first == out ? tmp : out;
    run_threads(slices, [&](unsigned t) {
        size_t lo = share(n, slices, t), hi = share(n, slices, t + 1);
        fill(first, lo, hi);
        v->sorters[t](first + lo, hi - lo, hwy::SortAscending());
    });
    std::vector<size_t> starts;
    for (unsigned t = 0; t < slices; t++) starts.push_back(share(n, slices, t));
    T *src = first, *dst = second;
    while (starts.size() > 1) {
        std::vector<piece> pieces = round_pieces(starts, n, v->threads);
        run_threads((unsigned)pieces.size(), [&](unsigned i) {
            const piece &p = pieces[i];
            if (p.s1 == p.s2) std::copy(src + p.s0, src + p.s1, dst + p.s0);
            else merge_piece(src, dst, p.s0, p.s1, p.s2, p.k0, p.k1);
        });
        std::vector<size_t> next;
        for (size_t r = 0; r < starts.size(); r += 2) next.push_back(starts[r]);
        starts.swap(next);
        std::swap(src, dst);
    }
}

int vq_reset(void *self, const bb_case *c, int poison, char *why, size_t cap)
{
    bb_vqsort *v = static_cast<bb_vqsort *>(self);
    try {
        if (bb_is_keys64(c->prim)) {
            v->keys64.resize(c->n);
            v->keys64_tmp.resize(c->n);
        } else {
            v->keys.resize(c->n);
            v->keys_tmp.resize(c->n);
        }
        if (bb_is_pairs_sort(c->prim)) v->vals.resize(c->n);
        if (c->prim == BB_SORT_PAIRS) {
            v->words.resize(c->n);
            v->words_tmp.resize(c->n);
        }
        if (c->prim == BB_SORT_PAIRS64) {
            v->wide.resize(c->n);
            v->wide_tmp.resize(c->n);
        }
    } catch (const std::exception &e) {
        std::snprintf(why, cap, "vqsort: %s", e.what());
        return -1;
    }
    if (poison) {
        std::fill(v->keys.begin(), v->keys.end(), 0xA5A5A5A5u);
        std::fill(v->keys64.begin(), v->keys64.end(), 0xA5A5A5A5A5A5A5A5ull);
        std::fill(v->vals.begin(), v->vals.end(), 0xA5A5A5A5u);
    }
    return 0;
}

void sort_keys(bb_vqsort *v, const bb_case *c)
{
    const uint32_t *in = c->keys;
    sort_threads(v, v->keys.data(), v->keys_tmp.data(), c->n,
                 [in](uint32_t *dst, size_t lo, size_t hi) {
                     std::memcpy(dst + lo, in + lo, (hi - lo) * sizeof *dst);
                 });
}

void sort_pairs(bb_vqsort *v, const bb_case *c)
{
    const uint32_t *k = c->keys, *val = c->values;
    uint64_t *w = v->words.data();
    sort_threads(v, w, v->words_tmp.data(), c->n, [k, val](uint64_t *dst, size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++) dst[i] = (uint64_t)k[i] << 32 | val[i];
    });
    uint32_t *ok = v->keys.data(), *ov = v->vals.data();
    size_t n = c->n;
    unsigned parts = n < (size_t)v->threads * 4096 ? 1 : v->threads;
    run_threads(parts, [&](unsigned t) {
        for (size_t i = share(n, parts, t); i < share(n, parts, t + 1); i++) {
            ok[i] = (uint32_t)(w[i] >> 32);
            ov[i] = (uint32_t)w[i];
        }
    });
}

void sort_keys64(bb_vqsort *v, const bb_case *c)
{
    const uint64_t *in = c->keys64;
    sort_threads(v, v->keys64.data(), v->keys64_tmp.data(), c->n,
                 [in](uint64_t *dst, size_t lo, size_t hi) {
                     std::memcpy(dst + lo, in + lo, (hi - lo) * sizeof *dst);
                 });
}

void sort_pairs64(bb_vqsort *v, const bb_case *c)
{
    const uint64_t *k = c->keys64;
    const uint32_t *val = c->values;
    hwy::uint128_t *w = v->wide.data();
    sort_threads(v, w, v->wide_tmp.data(), c->n,
                 [k, val](hwy::uint128_t *dst, size_t lo, size_t hi) {
                     for (size_t i = lo; i < hi; i++) {
                         dst[i].lo = val[i];
                         dst[i].hi = k[i];
                     }
                 });
    uint64_t *ok = v->keys64.data();
    uint32_t *ov = v->vals.data();
    size_t n = c->n;
    unsigned parts = n < (size_t)v->threads * 4096 ? 1 : v->threads;
    run_threads(parts, [&](unsigned t) {
        for (size_t i = share(n, parts, t); i < share(n, parts, t + 1); i++) {
            ok[i] = w[i].hi;
            ov[i] = (uint32_t)w[i].lo;
        }
    });
}

int vq_run(void *self, const bb_case *c, double *ms, char *why, size_t cap)
{
    bb_vqsort *v = static_cast<bb_vqsort *>(self);
    double t0 = bb_now();
    try {
        switch (c->prim) {
        case BB_SORT_KEYS: sort_keys(v, c); break;
        case BB_SORT_PAIRS: sort_pairs(v, c); break;
        case BB_SORT_KEYS64: sort_keys64(v, c); break;
        default: sort_pairs64(v, c); break;
        }
    } catch (const std::exception &e) {
        std::snprintf(why, cap, "vqsort: %s", e.what());
        return -1;
    }
    *ms = (bb_now() - t0) * 1e3;
    return 0;
}

int vq_fetch(void *self, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    bb_vqsort *v = static_cast<bb_vqsort *>(self);
    (void)why, (void)cap;
    *r = bb_result{v->keys.data(), bb_is_pairs_sort(c->prim) ? v->vals.data() : nullptr, 0, 0, 0,
                   v->keys64.data()};
    return 0;
}

} // namespace

bb_vqsort *bb_vqsort_open(unsigned threads, char *why, size_t cap)
{
    try {
        bb_vqsort *v = new bb_vqsort;
        if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
        v->threads = threads;
        v->sorters.resize(threads);
        return v;
    } catch (const std::exception &e) {
        std::snprintf(why, cap, "vqsort: %s", e.what());
        return nullptr;
    }
}

void bb_vqsort_close(bb_vqsort *v)
{
    delete v;
}

unsigned bb_vqsort_threads(const bb_vqsort *v)
{
    return v ? v->threads : 0;
}

const char *bb_vqsort_version(void)
{
#define BB_STR_(x) #x
#define BB_STR(x) BB_STR_(x)
    return "Highway " BB_STR(HWY_MAJOR) "." BB_STR(HWY_MINOR) "." BB_STR(HWY_PATCH) " vqsort";
}

int bb_vqsort_supports(bb_prim p)
{
    return p == BB_SORT_KEYS || p == BB_SORT_PAIRS || bb_is_keys64(p);
}

int bb_vqsort_impl(bb_vqsort *v, const bb_case *c, bb_impl *im, char *why, size_t cap)
{
    if (!bb_vqsort_supports(c->prim)) {
        std::snprintf(why, cap, "vqsort: not a sort");
        return -1;
    }
    *im = bb_impl{v, vq_reset, vq_run, vq_fetch, 0};
    return 0;
}
