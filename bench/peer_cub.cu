// bench_cub - CUB on an NVIDIA GPU, on the data bench_all uses (appkit's
// generator, same seed, same sizes, same distributions), checked against the
// same serial references, writing CSV rows in bench_all's format
// (implementation "cub"; run_all.sh fills in ratio_to_scankit when it merges
// the two files).
//
//   bench_cub [--quick] [--min-log2 K] [--max-log2 K] [--step 1|2]
//             [--budget SECONDS] [--repeats R] [--csv FILE] ...
//
// Times are CUDA events recorded around one call on the default stream
// (device time, temporary storage allocated beforehand), the median of R
// runs after warm-ups. select_if and partition leave their count on the
// device (read back untimed), like the rest of CUB's interface. CUB's
// DevicePartition::If writes the rejected items in reverse order; that order
// is what is checked for it. The merges run cub::DeviceMerge where this CUB
// has it (CCCL 2.7, CUDA 12.8), else thrust::merge and thrust::merge_by_key
// (which allocate their temporary storage inside the timed call); the row's
// driver column says which. DeviceMerge does not promise a stable merge, so
// its pairs are checked with equal keys' values in any order, and the row's
// detail says when they came out of input order. The searches run
// thrust::lower_bound's vectorised form (uint64 indices; Thrust allocates
// inside the timed call too). sort_less runs cub::DeviceMergeSort's
// SortKeysCopy with a less functor (BB_LESS), CUB's comparison sort.
// histogram runs cub::DeviceHistogram::HistogramEven with BB_HIST_BINS + 1
// uint32 levels from 0 to BB_HIST_HI (exclusive), which bins exactly as
// sk_histogram_even() does (see BB_HIST_BINS), into uint32 counters (n is
// below 2^31 here), widened to uint64 when read back. sort_keys64 and
// sort_pairs64 run DeviceRadixSort::SortKeys / SortPairs on uint64 keys.
// Without a CUDA device every row says
// "unavailable" and the exit status is 0.
#include "bench_common.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <cuda/std/functional>

#if __has_include(<cub/device/device_merge.cuh>)
#include <cub/device/device_merge.cuh>
#define BB_DEVICE_MERGE 1
#else
#include <thrust/execution_policy.h>
#include <thrust/merge.h>
#define BB_DEVICE_MERGE 0
#endif
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

namespace {

struct IsOdd {
    __host__ __device__ bool operator()(const uint32_t &x) const { return (x & 1u) != 0; }
};

// sort_less's order (BB_LESS)
struct Less {
    __host__ __device__ bool operator()(const uint32_t &a, const uint32_t &b) const
    {
        return a < b;
    }
};

struct cub_state {
    size_t cap = 0;
    uint32_t *keys = nullptr, *values = nullptr, *out = nullptr, *out2 = nullptr;
    uint32_t *seg_ids = nullptr, *offsets = nullptr;
    uint64_t *keys64 = nullptr, *out64 = nullptr; // the 64-bit sorts' (where they run)
    unsigned *hist = nullptr;                       // BB_HIST_BINS counters
    int *count = nullptr;
    void *temp = nullptr;
    size_t temp_bytes = 0;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    std::vector<uint32_t> got, got2;
    std::vector<uint64_t> got64;
    size_t host_count = 0;
    bool ties_reordered = false;   // merge_pairs: equal keys' values out of input order
};

int cuda_why(cudaError_t e, const char *what, char *why, size_t cap)
{
    std::snprintf(why, cap, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

#define CK(call, what)                                                     \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) return cuda_why(e_, what, why, cap);        \
    } while (0)

void release(cub_state *s)
{
    void *p[] = {s->keys,    s->values, s->out,  s->out2,  s->seg_ids,
                 s->offsets, s->keys64, s->out64, s->hist, s->count, s->temp};
    for (void *q : p)
        if (q) cudaFree(q);
    s->keys = s->values = s->out = s->out2 = s->seg_ids = s->offsets = nullptr;
    s->keys64 = s->out64 = nullptr;
    s->hist = nullptr;
    s->count = nullptr;
    s->temp = nullptr;
    s->temp_bytes = 0;
    s->cap = 0;
}

// Buffers for n elements; the 64-bit sorts' with `wide`, else one word.
int alloc(cub_state *s, size_t n, bool wide, char *why, size_t cap)
{
    release(s);
    size_t u = (n ? n : 1) * sizeof(uint32_t), u64 = (wide && n ? n : 1) * sizeof(uint64_t);
    CK(cudaMalloc(&s->keys, u), "cudaMalloc");
    CK(cudaMalloc(&s->values, u), "cudaMalloc");
    CK(cudaMalloc(&s->out, u + sizeof(uint32_t)), "cudaMalloc"); // or n - n / 2 uint64
    CK(cudaMalloc(&s->out2, u), "cudaMalloc");
    CK(cudaMalloc(&s->seg_ids, u), "cudaMalloc");
    CK(cudaMalloc(&s->offsets, u + sizeof(uint32_t)), "cudaMalloc");
    CK(cudaMalloc(&s->keys64, u64), "cudaMalloc");
    CK(cudaMalloc(&s->out64, u64), "cudaMalloc");
    CK(cudaMalloc(&s->hist, BB_HIST_BINS * sizeof(unsigned)), "cudaMalloc");
    CK(cudaMalloc(&s->count, sizeof(int)), "cudaMalloc");
    s->cap = n;
    s->got.resize(n + 1);
    s->got2.resize(n ? n : 1);
    s->got64.resize(wide && n > BB_HIST_BINS ? n : BB_HIST_BINS);
    return 0;
}

// Runs a Thrust call f(), which reports failures by exceptions, as a
// cudaError_t.
template <class F> cudaError_t thrust_status(F f)
{
    try {
        f();
    } catch (const std::bad_alloc &) {
        return cudaErrorMemoryAllocation;
    } catch (const std::exception &) {
        cudaError_t e = cudaGetLastError();
        return e != cudaSuccess ? e : cudaErrorUnknown;
    }
    return cudaGetLastError();
}

// The call that merges (the driver column of its rows), or nullptr.
const char *merge_call(bb_prim p)
{
    if (p != BB_MERGE_KEYS && p != BB_MERGE_PAIRS) return nullptr;
#if BB_DEVICE_MERGE
    return p == BB_MERGE_KEYS ? "cub::DeviceMerge::MergeKeys" : "cub::DeviceMerge::MergePairs";
#else
    return p == BB_MERGE_KEYS ? "thrust::merge" : "thrust::merge_by_key";
#endif
}

// A merge of keys[0, na) with keys[na, n) (values likewise) into out (out2);
// with temp == nullptr only sets *bytes.
cudaError_t merge(cub_state *s, const bb_case *c, void *temp, size_t *bytes)
{
    const uint32_t *a = s->keys, *b = s->keys + c->na;
    const uint32_t *va = s->values, *vb = s->values + c->na;
    int64_t na = static_cast<int64_t>(c->na), nb = static_cast<int64_t>(c->n - c->na);
#if BB_DEVICE_MERGE
    if (c->prim == BB_MERGE_PAIRS)
        return cub::DeviceMerge::MergePairs(temp, *bytes, a, va, na, b, vb, nb, s->out, s->out2);
    return cub::DeviceMerge::MergeKeys(temp, *bytes, a, na, b, nb, s->out);
#else
    if (!temp) {
        *bytes = 0;
        return cudaSuccess;
    }
    return thrust_status([&] {
        if (c->prim == BB_MERGE_PAIRS)
            thrust::merge_by_key(thrust::device, a, a + na, b, b + nb, va, vb, s->out, s->out2);
        else
            thrust::merge(thrust::device, a, a + na, b, b + nb, s->out);
    });
#endif
}

// thrust::lower_bound, vectorised: keys[na, n) searched in keys[0, na), the
// uint64 indices into out. Thrust allocates its temporary storage inside
// the timed call (with temp == nullptr only sets *bytes to 0).
cudaError_t lower_bound(cub_state *s, const bb_case *c, void *temp, size_t *bytes)
{
    if (!temp) {
        *bytes = 0;
        return cudaSuccess;
    }
    const uint32_t *hay = s->keys, *needles = s->keys + c->na;
    unsigned long long *out = reinterpret_cast<unsigned long long *>(s->out);
    return thrust_status([&] {
        thrust::lower_bound(thrust::device, hay, hay + c->na, needles, needles + (c->n - c->na),
                            out);
    });
}

// One call of CUB for c; with temp == nullptr only sets *bytes.
cudaError_t call(cub_state *s, const bb_case *c, void *temp, size_t *bytes)
{
    int n = static_cast<int>(c->n);
    switch (c->prim) {
    case BB_SCAN_INCLUSIVE:
        return cub::DeviceScan::InclusiveSum(temp, *bytes, s->keys, s->out, n);
    case BB_SCAN_EXCLUSIVE:
        return cub::DeviceScan::ExclusiveSum(temp, *bytes, s->keys, s->out, n);
    case BB_REDUCE:
        return cub::DeviceReduce::Sum(temp, *bytes, s->keys, s->out, n);
    case BB_SELECT_IF:
        return cub::DeviceSelect::If(temp, *bytes, s->keys, s->out, s->count, n, IsOdd());
    case BB_PARTITION:
    case BB_PARTITION_REVERSED: // the same call: its own layout
        return cub::DevicePartition::If(temp, *bytes, s->keys, s->out, s->count, n, IsOdd());
    case BB_SORT_KEYS:
    case BB_TOPK: // CCCL 3.0 (CUDA 13.0) has no cub::DeviceTopK: a full sort
        return cub::DeviceRadixSort::SortKeys(temp, *bytes, s->keys, s->out, n);
    case BB_SORT_LESS:
        return cub::DeviceMergeSort::SortKeysCopy(temp, *bytes, s->keys, s->out, n, Less());
    case BB_SORT_PAIRS:
        return cub::DeviceRadixSort::SortPairs(temp, *bytes, s->keys, s->out, s->values,
                                               s->out2, n);
    case BB_MERGE_KEYS:
    case BB_MERGE_PAIRS:
        return merge(s, c, temp, bytes);
    case BB_SEGSCAN:
        return cub::DeviceScan::InclusiveSumByKey(temp, *bytes, s->seg_ids, s->keys, s->out, n);
    case BB_SEGREDUCE:
        return cub::DeviceSegmentedReduce::Sum(temp, *bytes, s->keys, s->out,
                                               static_cast<int>(c->nseg), s->offsets,
                                               s->offsets + 1);
    case BB_LOWER_BOUND:
    case BB_LOWER_BOUND_SORTED:
        return lower_bound(s, c, temp, bytes);
    case BB_REDUCE_BY_KEY:
        return cub::DeviceReduce::ReduceByKey(temp, *bytes, s->seg_ids, s->out2, s->keys,
                                              s->out, s->count, cuda::std::plus<uint32_t>(), n);
    case BB_RLE:
        return cub::DeviceRunLengthEncode::Encode(temp, *bytes, s->seg_ids, s->out, s->out2,
                                                  s->count, n);
    case BB_SEGSORT_SMALL:
    case BB_SEGSORT_LARGE:
        return cub::DeviceSegmentedSort::StableSortKeys(temp, *bytes, s->keys, s->out, n,
                                                        static_cast<int>(c->nseg), s->offsets,
                                                        s->offsets + 1);
    case BB_HISTOGRAM:
        return cub::DeviceHistogram::HistogramEven(
            temp, *bytes, s->keys, s->hist, static_cast<int>(BB_HIST_BINS + 1), uint32_t{0},
            static_cast<uint32_t>(BB_HIST_HI), n);
    case BB_SORT_KEYS64:
        return cub::DeviceRadixSort::SortKeys(temp, *bytes, s->keys64, s->out64, n);
    case BB_SORT_PAIRS64:
        return cub::DeviceRadixSort::SortPairs(temp, *bytes, s->keys64, s->out64, s->values,
                                               s->out2, n);
    default:
        return cudaErrorInvalidValue;
    }
}

bool supports(bb_prim p)
{
    return p != BB_POLY;
}

// What bb_check is to accept from CUB for p.
int check_flags(bb_prim p)
{
    if (p == BB_PARTITION) return BB_CHECK_REJECTED_REVERSED;
    if (p == BB_MERGE_PAIRS && BB_DEVICE_MERGE) return BB_CHECK_TIES_ANY_ORDER;
    return 0;
}

// driver, followed by the call for the merges and the searches.
void row_driver(const char *driver, bb_prim p, char *out, size_t cap)
{
    const char *m = merge_call(p);
    if (p == BB_LOWER_BOUND || p == BB_LOWER_BOUND_SORTED) m = "thrust::lower_bound";
    if (p == BB_TOPK) m = "cub::DeviceRadixSort::SortKeys, a full sort";
    if (p == BB_SORT_LESS) m = "cub::DeviceMergeSort::SortKeysCopy";
    std::snprintf(out, cap, "%s%s%s", driver, m && driver[0] ? "; " : "", m ? m : "");
}

int upload(cub_state *s, const bb_case *c, char *why, size_t cap)
{
    size_t u = c->n * sizeof(uint32_t);
    if (u && c->keys) CK(cudaMemcpy(s->keys, c->keys, u, cudaMemcpyHostToDevice), "cudaMemcpy");
    if (u && c->keys64)
        CK(cudaMemcpy(s->keys64, c->keys64, 2 * u, cudaMemcpyHostToDevice), "cudaMemcpy");
    if (u && c->values)
        CK(cudaMemcpy(s->values, c->values, u, cudaMemcpyHostToDevice), "cudaMemcpy");
    if (c->seg_ids || bb_is_segsort(c->prim)) {
        if (u && c->seg_ids)
            CK(cudaMemcpy(s->seg_ids, c->seg_ids, u, cudaMemcpyHostToDevice), "cudaMemcpy");
        CK(cudaMemcpy(s->offsets, c->offsets, (c->nseg + 1) * sizeof(uint32_t),
                      cudaMemcpyHostToDevice),
           "cudaMemcpy");
    }
    size_t need = 0;
    CK(call(s, c, nullptr, &need), "temporary storage size");
    if (need > s->temp_bytes) {
        if (s->temp) cudaFree(s->temp);
        s->temp = nullptr;
        s->temp_bytes = 0;
        CK(cudaMalloc(&s->temp, need), "cudaMalloc(temp)");
        s->temp_bytes = need;
    }
    return 0;
}

int reset(void *self, const bb_case *c, int poison, char *why, size_t cap)
{
    cub_state *s = static_cast<cub_state *>(self);
    if (poison && c->n) {
        CK(cudaMemset(s->out, 0xA5, c->n * sizeof(uint32_t)), "cudaMemset");
        CK(cudaMemset(s->out2, 0xA5, c->n * sizeof(uint32_t)), "cudaMemset");
        CK(cudaMemset(s->count, 0xA5, sizeof(int)), "cudaMemset");
        CK(cudaMemset(s->hist, 0xA5, BB_HIST_BINS * sizeof(unsigned)), "cudaMemset");
        if (bb_is_keys64(c->prim))
            CK(cudaMemset(s->out64, 0xA5, c->n * sizeof(uint64_t)), "cudaMemset");
    }
    CK(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    return 0;
}

int run(void *self, const bb_case *c, double *ms, char *why, size_t cap)
{
    cub_state *s = static_cast<cub_state *>(self);
    size_t bytes = s->temp_bytes;
    float f = 0;
    CK(cudaEventRecord(s->e0), "cudaEventRecord");
    CK(call(s, c, s->temp ? s->temp : s->keys, &bytes), bb_prim_name(c->prim));
    CK(cudaEventRecord(s->e1), "cudaEventRecord");
    CK(cudaEventSynchronize(s->e1), "cudaEventSynchronize");
    CK(cudaEventElapsedTime(&f, s->e0, s->e1), "cudaEventElapsedTime");
    *ms = f;
    return 0;
}

// The uint64 results: the histogram's counts (widened), the 64-bit sorts'
// keys (and values).
int fetch64(cub_state *s, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    size_t n = c->n;
    r->out = s->got.data();
    r->out2 = s->got2.data();
    r->count = 0;
    r->scalar = 0;
    r->poly = 0;
    if (c->prim == BB_HISTOGRAM) {
        unsigned counts[BB_HIST_BINS];
        CK(cudaMemcpy(counts, s->hist, sizeof counts, cudaMemcpyDeviceToHost), "cudaMemcpy");
        for (size_t b = 0; b < BB_HIST_BINS; b++) s->got64[b] = counts[b];
        return 0;
    }
    if (n)
        CK(cudaMemcpy(s->got64.data(), s->out64, n * sizeof(uint64_t), cudaMemcpyDeviceToHost),
           "cudaMemcpy");
    if (n && c->prim == BB_SORT_PAIRS64)
        CK(cudaMemcpy(s->got2.data(), s->out2, n * sizeof(uint32_t), cudaMemcpyDeviceToHost),
           "cudaMemcpy");
    return 0;
}

int fetch(void *self, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    cub_state *s = static_cast<cub_state *>(self);
    size_t n = c->n, m = n;
    int count = 0;
    if (c->prim == BB_SELECT_IF || c->prim == BB_PARTITION || c->prim == BB_PARTITION_REVERSED) {
        CK(cudaMemcpy(&count, s->count, sizeof count, cudaMemcpyDeviceToHost), "cudaMemcpy");
        s->host_count = count >= 0 && static_cast<size_t>(count) <= n ? count : (size_t)-1;
        if (c->prim == BB_SELECT_IF) m = s->host_count <= n ? s->host_count : 0;
    }
    if (c->prim == BB_SEGREDUCE) {
        m = c->nseg;
        s->host_count = c->nseg;
    }
    bool by_key = c->prim == BB_REDUCE_BY_KEY || c->prim == BB_RLE;
    if (by_key) {
        CK(cudaMemcpy(&count, s->count, sizeof count, cudaMemcpyDeviceToHost), "cudaMemcpy");
        s->host_count = count >= 0 && static_cast<size_t>(count) <= n ? count : (size_t)-1;
        m = s->host_count <= n ? s->host_count : 0;
    }
    if (c->prim == BB_REDUCE) m = 1;
    r->out64 = s->got64.data();
    if (c->prim == BB_HISTOGRAM || bb_is_keys64(c->prim)) return fetch64(s, c, r, why, cap);
    bool search = c->prim == BB_LOWER_BOUND || c->prim == BB_LOWER_BOUND_SORTED;
    if (search) m = 2 * (n - c->na); // uint64 indices, narrowed below
    if (m) CK(cudaMemcpy(s->got.data(), s->out, m * sizeof(uint32_t), cudaMemcpyDeviceToHost),
              "cudaMemcpy");
    if ((c->prim == BB_SORT_PAIRS || c->prim == BB_MERGE_PAIRS) && n)
        CK(cudaMemcpy(s->got2.data(), s->out2, n * sizeof(uint32_t), cudaMemcpyDeviceToHost),
           "cudaMemcpy");
    if (by_key && m)
        CK(cudaMemcpy(s->got2.data(), s->out2, m * sizeof(uint32_t), cudaMemcpyDeviceToHost),
           "cudaMemcpy");
    r->out = s->got.data();
    r->out2 = s->got2.data();
    r->count = s->host_count;
    r->scalar = s->got[0];
    r->poly = 0;
    if (search) {
        r->out = s->got2.data();
        return bb_narrow_indices(reinterpret_cast<const uint64_t *>(s->got.data()), n - c->na,
                                 s->got2.data(), why, cap);
    }
    if (c->prim == BB_MERGE_PAIRS) {
        char unused[200];
        s->ties_reordered = bb_check(c, r, 0, unused, sizeof unused) != 0;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    bb_opts o;
    int rc = bb_opts_parse(&o, argc, argv, "bench_cub", 0);
    if (rc) return rc == 1 ? 0 : 2;
    FILE *csv = stdout;
    if (o.csv && std::strcmp(o.csv, "-") && !(csv = std::fopen(o.csv, "w"))) {
        std::fprintf(stderr, "bench_cub: cannot write %s: %s\n", o.csv, std::strerror(errno));
        return 1;
    }
    bb_csv_header(csv);

    int devices = 0;
    char device[300] = "no CUDA device", driver[300] = "", unavailable[256] = "";
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        std::snprintf(unavailable, sizeof unavailable, "no CUDA device: %s",
                      e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    } else {
        cudaDeviceProp prop;
        int rt = 0, dv = 0;
        cudaGetDeviceProperties(&prop, 0);
        cudaRuntimeGetVersion(&rt);
        cudaDriverGetVersion(&dv);
        std::snprintf(device, sizeof device, "%s (CUDA)", prop.name);
        std::snprintf(driver, sizeof driver, "CUB %d.%d.%d; CUDA runtime %d.%d; driver %d.%d",
                      CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, rt / 1000,
                      rt % 1000 / 10, dv / 1000, dv % 1000 / 10);
    }
    std::fprintf(stderr, "bench_cub: %s; %s\n", device, unavailable[0] ? unavailable : driver);

    int log2s[64];
    int nsizes = bb_sizes(&o, log2s, 64);
    static const char *const order[] = {"uniform", "entropy:2", "entropy:3", "entropy:4",
                                        "sorted",  "reversed",  "equal",     "few-unique"};
    if (unavailable[0]) {
        // one row per primitive and size, without generating any data
        for (int si = 0; si < nsizes; si++)
            for (int p = 0; p < BB_PRIM_COUNT; p++) {
                if (!(o.prim_mask & (1u << p)) || !supports(static_cast<bb_prim>(p))) continue;
                bb_case c;
                std::memset(&c, 0, sizeof c);
                c.prim = static_cast<bb_prim>(p);
                c.n = static_cast<size_t>(1) << log2s[si];
                bb_dist dists[BB_MAX_DISTS];
                bb_prim_dists(c.prim, dists);
                c.dist = dists[0];
                c.seed = o.seed;
                bb_measure m;
                std::memset(&m, 0, sizeof m);
                m.status = BB_UNAVAILABLE;
                std::snprintf(m.detail, sizeof m.detail, "%s", unavailable);
                char rdriver[400];
                row_driver("", c.prim, rdriver, sizeof rdriver);
                bb_csv_row(csv, &c, "cub", device, rdriver, &m, 0);
            }
        if (csv != stdout) std::fclose(csv);
        return 0;
    }

    cub_state s;
    cudaEventCreate(&s.e0);
    cudaEventCreate(&s.e1);
    int wrong = 0, errors = 0;
    double t_start = bb_now(), last_size_s = 0;
    size_t last_n = 0;
    uint64_t host_mem = bb_host_memory();
    for (int si = 0; si < nsizes; si++) {
        size_t n = static_cast<size_t>(1) << log2s[si];
        double elapsed = bb_now() - t_start;
        double predicted = last_n ? last_size_s * (double)n / (double)last_n : 0;
        if (o.budget_s > 0 && elapsed + predicted > o.budget_s) {
            std::fprintf(stderr, "bench_cub: budget: skipping 2^%d and above\n", log2s[si]);
            break;
        }
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        // 24 bytes an element of buffers and up to 16 of temporary storage;
        // the 64-bit sorts' two buffers 16 more, their temporaries 12 more
        bool wide = (o.prim_mask & BB_KEYS64_MASK) != 0;
        if ((uint64_t)n * (wide ? 68u : 40u) + (256u << 20) > free_b ||
            n > (size_t)INT32_MAX) {
            std::fprintf(stderr, "bench_cub: 2^%d does not fit the GPU; stopping there\n",
                         log2s[si]);
            break;
        }
        if (host_mem && bb_host_bytes(n, o.prim_mask) > host_mem * 3 / 4) {
            std::fprintf(stderr, "bench_cub: 2^%d does not fit host memory; stopping there\n",
                         log2s[si]);
            break;
        }
        double t_size = bb_now();
        char why[200];
        bb_inputs in;
        if (bb_inputs_alloc(&in, n, o.seed) || alloc(&s, n, wide, why, sizeof why)) {
            std::fprintf(stderr, "bench_cub: 2^%d: out of memory\n", log2s[si]);
            bb_inputs_free(&in);
            break;
        }
        std::fprintf(stderr, "bench_cub: n = 2^%d\n", log2s[si]);
        for (const char *dname : order) {
            for (int p = 0; p < BB_PRIM_COUNT; p++) {
                bb_prim prim = static_cast<bb_prim>(p);
                if (!(o.prim_mask & (1u << p)) || !supports(prim)) continue;
                bb_dist dists[BB_MAX_DISTS];
                size_t nd = bb_prim_dists(prim, dists);
                for (size_t k = 0; k < nd; k++) {
                    if (std::strcmp(dists[k].name, dname) || !bb_dist_selected(&o, &dists[k]))
                        continue;
                    bb_case c;
                    bb_measure m;
                    std::memset(&m, 0, sizeof m);
                    if (bb_case_prepare(&c, &in, prim, &dists[k], why, sizeof why)) {
                        std::fprintf(stderr, "bench_cub: %s\n", why);
                        errors++;
                        continue;
                    }
                    bb_impl im = {&s, reset, run, fetch, check_flags(prim)};
                    char rdriver[400];
                    row_driver(driver, prim, rdriver, sizeof rdriver);
                    s.ties_reordered = false;
                    if (upload(&s, &c, why, sizeof why)) {
                        m.status = BB_ERROR;
                        std::snprintf(m.detail, sizeof m.detail, "%s", why);
                    } else {
                        bb_measure_run(&o, &im, &c, &m);
                    }
                    if (m.status == BB_OK && s.ties_reordered)
                        std::snprintf(m.detail, sizeof m.detail,
                                      "equal keys' values out of input order (not stable)");
                    bb_csv_row(csv, &c, "cub", device, rdriver, &m, 0);
                    if (m.status == BB_OK)
                        std::fprintf(stderr, "  %-14s 2^%-2d %-11s cub %10.3f ms\n",
                                     bb_prim_name(prim), log2s[si], c.dist.name, m.ms);
                    else
                        std::fprintf(stderr, "  %-14s 2^%-2d %-11s cub %s: %s\n",
                                     bb_prim_name(prim), log2s[si], c.dist.name,
                                     bb_status_name(m.status), m.detail);
                    wrong += m.status == BB_WRONG;
                    errors += m.status == BB_ERROR;
                }
            }
        }
        bb_inputs_free(&in);
        last_size_s = bb_now() - t_size;
        last_n = n;
    }
    release(&s);
    cudaEventDestroy(s.e0);
    cudaEventDestroy(s.e1);
    if (csv != stdout && std::fclose(csv) != 0) errors++;
    std::fprintf(stderr, "bench_cub: %.1f s; %d wrong result(s), %d error(s)\n",
                 bb_now() - t_start, wrong, errors);
    return wrong || errors ? 1 : 0;
}
