// peer_boost.cpp - Boost.Compute as a peer in bench_all (see peer_boost.h).
//
// Runs on scankit's own OpenCL context and in-order queue, on the device
// buffers bench_all uploaded, so both libraries see the same device, the
// same data and the same queue. A run is timed from a marker enqueued
// before the algorithm to one enqueued after it (profiling events: every
// command of the algorithm, and the host waits inside it, such as the
// count copy_if reads back); where markers carry no profiling data the
// wall time of the call plus a finish is used instead.
#include "peer_boost.h"

#include <boost/compute/algorithm/copy_if.hpp>
#include <boost/compute/algorithm/exclusive_scan.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/merge.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/reduce_by_key.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/algorithm/stable_partition.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/context.hpp>
#include <boost/compute/function.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#include <boost/version.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

namespace bc = boost::compute;

namespace {

BOOST_COMPUTE_FUNCTION(bool, bb_is_odd, (cl_uint x), { return (x & 1) != 0; });
// sort_less: a comparator of its own (not bc::less), so that bc::sort takes
// its comparison sort (a merge sort on GPUs, on CPUs) instead of the radix
// sort; the same order as BB_LESS
BOOST_COMPUTE_FUNCTION(bool, bb_less, (cl_uint a, cl_uint b), { return a < b; });

const cl_uint poison = 0xA5A5A5A5u;

} // namespace

struct bb_boost {
    bc::context ctx;
    bc::command_queue queue;
    bool markers = true;        // markers give profiling data
    const bb_devbufs *d = nullptr;
    bc::buffer keys, keys_b, values, seg_ids, out, out2, work_k, work_v, work_k64;
    std::vector<cl_uint> got, got2;
    std::vector<cl_ulong> got64;
    size_t count = 0;
    cl_uint scalar = 0;
};

namespace {

int fail(char *why, size_t cap, const char *what, const char *detail)
{
    std::snprintf(why, cap, "%s: %s", what, detail);
    return -1;
}

int cl_check(cl_int rc, const char *what, char *why, size_t cap)
{
    if (rc == CL_SUCCESS) return 0;
    return fail(why, cap, what, sk_cl_error_name(rc));
}

int reset(void *self, const bb_case *c, int do_poison, char *why, size_t cap)
{
    bb_boost *b = static_cast<bb_boost *>(self);
    cl_command_queue q = b->queue.get();
    size_t bytes = c->n * sizeof(cl_uint);
    cl_int rc = CL_SUCCESS;
    if (bytes && bb_is_keys64(c->prim))
        rc = clEnqueueCopyBuffer(q, b->d->keys64, b->d->work_k64, 0, 0, 2 * bytes, 0, nullptr,
                                 nullptr);
    else if (bytes && (bb_sorts_in_place(c->prim) || c->prim == BB_PARTITION))
        rc = clEnqueueCopyBuffer(q, b->d->keys, b->d->work_k, 0, 0, bytes, 0, nullptr, nullptr);
    if (rc == CL_SUCCESS && bytes && bb_is_pairs_sort(c->prim))
        rc = clEnqueueCopyBuffer(q, b->d->values, b->d->work_v, 0, 0, bytes, 0, nullptr,
                                 nullptr);
    if (rc == CL_SUCCESS && bytes && do_poison && !bb_sorts_in_place(c->prim) &&
        c->prim != BB_PARTITION) {
        rc = clEnqueueFillBuffer(q, b->d->out, &poison, sizeof poison, 0, bytes, 0, nullptr,
                                 nullptr);
        if (rc == CL_SUCCESS)
            rc = clEnqueueFillBuffer(q, b->d->out2, &poison, sizeof poison, 0, bytes, 0,
                                     nullptr, nullptr);
    }
    if (rc == CL_SUCCESS) rc = clFinish(q);
    b->count = static_cast<size_t>(-1);
    b->scalar = poison;
    return cl_check(rc, "reset", why, cap);
}

void algorithm(bb_boost *b, const bb_case *c)
{
    typedef bc::buffer_iterator<cl_uint> it;
    size_t n = c->n;
    it k = bc::make_buffer_iterator<cl_uint>(b->keys, 0);
    it o = bc::make_buffer_iterator<cl_uint>(b->out, 0);
    it wk = bc::make_buffer_iterator<cl_uint>(b->work_k, 0);
    switch (c->prim) {
    case BB_SCAN_INCLUSIVE:
        bc::inclusive_scan(k, k + n, o, b->queue);
        break;
    case BB_SCAN_EXCLUSIVE:
        bc::exclusive_scan(k, k + n, o, b->queue);
        break;
    case BB_REDUCE:
        bc::reduce(k, k + n, &b->scalar, b->queue);
        break;
    case BB_SELECT_IF:
        b->count = static_cast<size_t>(bc::copy_if(k, k + n, o, bb_is_odd, b->queue) - o);
        break;
    case BB_PARTITION:
        b->count = static_cast<size_t>(bc::stable_partition(wk, wk + n, bb_is_odd, b->queue) -
                                       wk);
        break;
    case BB_SORT_KEYS:
        bc::sort(wk, wk + n, b->queue);
        break;
    case BB_SORT_LESS:
        bc::sort(wk, wk + n, bb_less, b->queue);
        break;
    case BB_SORT_PAIRS:
        bc::sort_by_key(wk, wk + n, bc::make_buffer_iterator<cl_uint>(b->work_v, 0), b->queue);
        break;
    case BB_SORT_KEYS64: {
        bc::buffer_iterator<cl_ulong> wk64 = bc::make_buffer_iterator<cl_ulong>(b->work_k64, 0);
        bc::sort(wk64, wk64 + n, b->queue);
        break;
    }
    case BB_SORT_PAIRS64: {
        bc::buffer_iterator<cl_ulong> wk64 = bc::make_buffer_iterator<cl_ulong>(b->work_k64, 0);
        bc::sort_by_key(wk64, wk64 + n, bc::make_buffer_iterator<cl_uint>(b->work_v, 0),
                        b->queue);
        break;
    }
    case BB_MERGE_KEYS: {
        it kb = bc::make_buffer_iterator<cl_uint>(b->keys_b, 0);
        bc::merge(k, k + c->na, kb, kb + (n - c->na), o, b->queue);
        break;
    }
    case BB_SEGREDUCE:
    case BB_REDUCE_BY_KEY: {
        it ids = bc::make_buffer_iterator<cl_uint>(b->seg_ids, 0);
        it o2 = bc::make_buffer_iterator<cl_uint>(b->out2, 0);
        b->count = static_cast<size_t>(
            bc::reduce_by_key(ids, ids + n, k, o2, o, b->queue).second - o);
        break;
    }
    default:
        break;
    }
}

int run(void *self, const bb_case *c, double *ms, char *why, size_t cap)
{
    bb_boost *b = static_cast<bb_boost *>(self);
    cl_command_queue q = b->queue.get();
    cl_event e0 = nullptr, e1 = nullptr;
    double t0 = bb_now();
    try {
        if (b->markers && clEnqueueMarkerWithWaitList(q, 0, nullptr, &e0) != CL_SUCCESS)
            b->markers = false;
        algorithm(b, c);
        if (b->markers && clEnqueueMarkerWithWaitList(q, 0, nullptr, &e1) != CL_SUCCESS)
            b->markers = false;
        b->queue.finish();
    } catch (const std::exception &e) {
        if (e0) clReleaseEvent(e0);
        if (e1) clReleaseEvent(e1);
        return fail(why, cap, bb_prim_name(c->prim), e.what());
    }
    double wall = (bb_now() - t0) * 1e3;
    *ms = wall;
    if (b->markers && e0 && e1) {
        cl_ulong start = 0, end = 0;
        if (clGetEventProfilingInfo(e0, CL_PROFILING_COMMAND_END, sizeof start, &start,
                                    nullptr) == CL_SUCCESS &&
            clGetEventProfilingInfo(e1, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                    nullptr) == CL_SUCCESS &&
            end > start)
            *ms = static_cast<double>(end - start) * 1e-6;
        else if (c->n > 4096)
            b->markers = false; // no usable timestamps: wall time from now on
    }
    if (e0) clReleaseEvent(e0);
    if (e1) clReleaseEvent(e1);
    return 0;
}

int fetch(void *self, const bb_case *c, bb_result *r, char *why, size_t cap)
{
    bb_boost *b = static_cast<bb_boost *>(self);
    cl_command_queue q = b->queue.get();
    size_t n = c->n, m = n;
    cl_mem from = b->d->out;
    bool by_key = c->prim == BB_REDUCE_BY_KEY;
    if (c->prim == BB_SELECT_IF || c->prim == BB_SEGREDUCE || by_key)
        m = b->count <= n ? b->count : 0;
    if (bb_sorts_in_place(c->prim) || c->prim == BB_PARTITION) from = b->d->work_k;
    b->got.resize(n ? n : 1);
    b->got2.resize(n ? n : 1);
    b->got64.resize(bb_is_keys64(c->prim) && n ? n : 1);
    cl_int rc = CL_SUCCESS;
    if (n && bb_is_keys64(c->prim))
        rc = clEnqueueReadBuffer(q, b->d->work_k64, CL_TRUE, 0, n * sizeof(cl_ulong),
                                 b->got64.data(), 0, nullptr, nullptr);
    else if (m && c->prim != BB_REDUCE)
        rc = clEnqueueReadBuffer(q, from, CL_TRUE, 0, m * sizeof(cl_uint), b->got.data(), 0,
                                 nullptr, nullptr);
    if (rc == CL_SUCCESS && m && by_key)
        rc = clEnqueueReadBuffer(q, b->d->out2, CL_TRUE, 0, m * sizeof(cl_uint), b->got2.data(),
                                 0, nullptr, nullptr);
    if (rc == CL_SUCCESS && n && bb_is_pairs_sort(c->prim))
        rc = clEnqueueReadBuffer(q, b->d->work_v, CL_TRUE, 0, n * sizeof(cl_uint),
                                 b->got2.data(), 0, nullptr, nullptr);
    r->out = b->got.data();
    r->out2 = b->got2.data();
    r->count = b->count;
    r->scalar = b->scalar;
    r->poly = 0;
    r->out64 = b->got64.data();
    return cl_check(rc, "clEnqueueReadBuffer", why, cap);
}

} // namespace

extern "C" {

bb_boost *bb_boost_open(cl_context ctx, cl_command_queue queue, char *why, size_t cap)
{
    try {
        bb_boost *b = new bb_boost;
        b->ctx = bc::context(ctx, true);
        b->queue = bc::command_queue(queue, true);
        return b;
    } catch (const std::exception &e) {
        fail(why, cap, "Boost.Compute", e.what());
        return nullptr;
    }
}

void bb_boost_close(bb_boost *b)
{
    delete b;
}

const char *bb_boost_version(void)
{
    static char v[64];
    std::snprintf(v, sizeof v, "Boost.Compute %d.%d", BOOST_VERSION / 100000,
                  BOOST_VERSION / 100 % 1000);
    return v;
}

int bb_boost_supports(bb_prim p)
{
    /* merge, but no merge of pairs (no merge_by_key); lower_bound of one
     * value only (no vectorised search); no histogram */
    return p != BB_SEGSCAN && p != BB_MERGE_PAIRS && p != BB_POLY && p != BB_LOWER_BOUND &&
           p != BB_LOWER_BOUND_SORTED && p != BB_RLE && !bb_is_segsort(p) && p != BB_TOPK &&
           p != BB_HISTOGRAM && p != BB_PARTITION_REVERSED && (unsigned)p < BB_PRIM_COUNT;
}

int bb_boost_impl(bb_boost *b, const bb_devbufs *d, const bb_case *c, bb_impl *im, char *why,
                  size_t cap)
{
    if (!bb_boost_supports(c->prim)) return fail(why, cap, "Boost.Compute", "no such algorithm");
    try {
        b->d = d;
        b->keys = bc::buffer(d->keys, true);
        b->keys_b = bc::buffer(d->keys_b, true);
        b->values = bc::buffer(d->values, true);
        b->seg_ids = bc::buffer(d->seg_ids, true);
        b->out = bc::buffer(d->out, true);
        b->out2 = bc::buffer(d->out2, true);
        b->work_k = bc::buffer(d->work_k, true);
        b->work_v = bc::buffer(d->work_v, true);
        b->work_k64 = bc::buffer(d->work_k64, true);
    } catch (const std::exception &e) {
        return fail(why, cap, "Boost.Compute buffers", e.what());
    }
    im->self = b;
    im->reset = reset;
    im->run = run;
    im->fetch = fetch;
    im->check_flags = 0;
    return 0;
}

} // extern "C"
