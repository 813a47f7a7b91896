/*
 * test_api_scratch.c - the caller's scratch (sk_context_set_scratch) and
 * measuring it (sk_context_scratch_query_begin/_end), for every primitive's
 * cl_mem form, both shapes, 4- and 8-byte elements, n from 0 to 50000.
 * Each call is a program of its own per element size and shape, so the
 * call x element size x shape product is pairwise: each call runs with a
 * 4-byte (uint32, float32 for the polynomials) and an 8-byte (float64)
 * element, one in each shape, the shape alternating from call to call, so
 * every call meets both sizes and both shapes and every size meets both
 * shapes; every case runs every n. What each case checks:
 *
 *   measuring runs nothing: every buffer, inputs and outputs, keeps its
 *   bytes, results and counts come back 0, and the context allocates none
 *   of its own scratch;
 *   a buffer of exactly the measured size, filled with poison first, gives
 *   the same bytes as the context's own scratch (which the primitives'
 *   suites check against the CPU references), again without the context's
 *   own scratch; one byte less is SK_E_SIZE;
 *   and the rules around them: host forms refused while measuring, begin
 *   and end out of order, foreign and sub-buffers, the largest of several
 *   measured calls, one buffer shared by different primitives in a row.
 *
 * Data come from the logged seed; floats are small integers, so every
 * result is exact whatever the combining order.
 */
#include <stdlib.h>
#include <string.h>

#include "sk_testing.h"
#include "skt_common.h"

#include <criterion/parameterized.h>

TestSuite(scratch, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);
TestSuite(scratch_rules, .init = skt_ctx_open, .fini = skt_ctx_close, .timeout = 300);

/* The calls, one per way a primitive takes scratch. */
typedef enum sop {
    OP_SCAN, OP_SCAN_EXCL_IN_PLACE, OP_REDUCE, OP_SELECT_IF, OP_FLAGGED_PAIRS,
    OP_PARTITION_PAIRS, OP_UNIQUE, OP_SELECT_DEVCOUNT, OP_SORT_KEYS, OP_SORT_PAIRS,
    OP_SORT_KEYS_24_BITS, OP_MERGE_PAIRS, OP_SEGSCAN_FLAGS, OP_SEGSCAN_OFFSETS_EXCL,
    OP_SEGREDUCE_FLAGS, OP_SEGREDUCE_OFFSETS, OP_HISTOGRAM_EVEN, OP_SEARCH_UPPER, OP_RLE,
    OP_REDUCE_BY_KEY, OP_SCAN_BY_KEY_EXCL, OP_SORT_LESS_PAIRS, OP_SORT_FIELDS_PAIRS,
    OP_POLY_EVAL, OP_POLY_POINTS, OP_POLY_PREFIXES,
    OP_COUNT
} sop;

static const char *const OP_NAMES[OP_COUNT] = {
    "scan", "exclusive scan in place", "reduce", "select_if", "select_flagged_pairs",
    "partition_pairs", "unique", "select_if_devcount", "sort_keys", "sort_pairs",
    "sort_keys_bits 0..24", "merge_pairs", "segscan by flags", "exclusive segscan by offsets",
    "segreduce by flags", "segreduce by offsets", "histogram_even", "search_upper_bound",
    "run_length_encode", "reduce_by_key", "exclusive scan_by_key", "sort_pairs_by_less",
    "sort_pairs_by_fields", "poly_eval",
    "poly_eval_points", "poly_horner_prefixes"};

static int op_is_poly(sop o) { return o >= OP_POLY_EVAL; }

/* The buffers of one call: `in` (n elements), `aux` (values, uint8 flags,
 * uint64 offsets or points), `out`, `out2` (values out), `cnt` (a uint64
 * count), and what comes back through pointers. */
typedef struct job {
    sop op;
    sk_type t;
    size_t n, es, segs;
    unsigned char *h_in, *h_aux;   /* the inputs, uploaded before every call */
    size_t aux_bytes;
    cl_mem in, aux, out, out2, cnt;
    size_t count;                  /* count, segments */
    unsigned char result[8];       /* reduce, poly_eval */
} job;

#define VS 4 /* value size of the pair forms */

static size_t buf_bytes(const job *j) { return (j->n ? j->n : 1) * 8; }

/* Small integers as t (exact in every type); a few repeats for unique. */
static void gen_elems(sk_type t, void *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        long v = (long)skt_rand_below(7) - 3;
        if (t == SK_FLOAT32) { float f = (float)v; memcpy((char *)dst + 4 * i, &f, 4); }
        else if (t == SK_FLOAT64) { double d = (double)v; memcpy((char *)dst + 8 * i, &d, 8); }
        else if (t == SK_UINT32) { uint32_t u = (uint32_t)skt_rand(); memcpy((char *)dst + 4 * i, &u, 4); }
        else { int64_t s = (int64_t)skt_rand(); memcpy((char *)dst + 8 * i, &s, 8); }
    }
}

/* aux: random uint8 head flags for the flag forms, their offsets (uint64)
 * for the offset forms, values or points otherwise. */
static void gen_aux(job *j)
{
    size_t n = j->n;
    j->aux_bytes = buf_bytes(j);
    j->h_aux = skt_malloc(j->aux_bytes);
    memset(j->h_aux, 0, j->aux_bytes);
    if (j->op == OP_SEGSCAN_OFFSETS_EXCL || j->op == OP_SEGREDUCE_OFFSETS) {
        uint64_t *off = (uint64_t *)j->h_aux;
        j->segs = 0;
        for (size_t i = 0; i < n; i++)
            if (i == 0 || skt_rand_below(10) == 0) off[j->segs++] = i;
    } else if (j->op == OP_POLY_POINTS) {
        gen_elems(j->t, j->h_aux, n);
    } else if (j->op == OP_SEGSCAN_FLAGS || j->op == OP_SEGREDUCE_FLAGS ||
               j->op == OP_FLAGGED_PAIRS) {
        for (size_t i = 0; i < n; i++) j->h_aux[i] = skt_rand_below(10) == 0;
    } else {
        for (size_t i = 0; i < n * VS; i++) j->h_aux[i] = (unsigned char)skt_rand();
    }
}

static void job_init(job *j, sop op, sk_type t, size_t n)
{
    *j = (job){.op = op, .t = t, .n = n, .es = sk_type_size(t)};
    j->h_in = skt_malloc(buf_bytes(j));
    gen_elems(t, j->h_in, n);
    if (op == OP_MERGE_PAIRS || op == OP_SEARCH_UPPER) /* sorted, every key three times */
        for (size_t i = 0; i < n; i++) {
            uint32_t u = (uint32_t)(i / 3);
            double d = (double)(i / 3);
            memcpy(j->h_in + i * j->es, t == SK_FLOAT64 ? (void *)&d : (void *)&u, j->es);
        }
    gen_aux(j);
    j->in = skt_buf_new(buf_bytes(j));
    j->aux = skt_buf_new(j->aux_bytes);
    j->out = skt_buf_new(buf_bytes(j));
    j->out2 = skt_buf_new(buf_bytes(j));
    j->cnt = skt_buf_new(8);
}

static void job_free(job *j)
{
    cl_mem m[] = {j->in, j->aux, j->out, j->out2, j->cnt};
    for (size_t i = 0; i < 5; i++) skt_buf_free(m[i]);
    free(j->h_in);
    free(j->h_aux);
}

/* Inputs uploaded, outputs and returned values poisoned. */
static void job_prepare(job *j)
{
    skt_buf_upload(j->in, 0, j->h_in, buf_bytes(j));
    skt_buf_upload(j->aux, 0, j->h_aux, j->aux_bytes);
    skt_buf_poison(j->out, buf_bytes(j));
    skt_buf_poison(j->out2, buf_bytes(j));
    skt_buf_poison(j->cnt, 8);
    skt_poison(&j->count, sizeof j->count);
    skt_poison(j->result, sizeof j->result);
    skt_finish();
}

/* The comparator and field order of the sorts by less and by fields:
 * uint32 ascending, float64 descending. */
static const sk_comparator LESS_U32 = {"uint", 4, "a < b", NULL};
static const sk_comparator MORE_F64 = {"double", 8, "a > b", NULL};
static const sk_sort_field FIELD_U32 = {"x", SK_UINT32, SK_ASCENDING};
static const sk_sort_field FIELD_F64 = {"x", SK_FLOAT64, SK_DESCENDING};
static const sk_field_order BY_U32 = {"uint", 4, NULL, &FIELD_U32, 1};
static const sk_field_order BY_F64 = {"double", 8, NULL, &FIELD_F64, 1};

static sk_status run(job *j)
{
    sk_context *c = skt_ctx;
    sk_type t = j->t;
    size_t n = j->n;
    const char *pred = t == SK_UINT32 ? "x % 3u == 0" : "x > 0";
    sk_segments flags = {.flags = j->aux, .flag_size = 1};
    sk_segments offs = {.offsets = j->aux, .offset_type = SK_UINT64, .count = j->segs};
    switch (j->op) {
    case OP_SCAN: return sk_scan_inclusive(c, t, SK_OP_ADD, j->in, j->out, n);
    case OP_SCAN_EXCL_IN_PLACE: return sk_scan_exclusive(c, t, SK_OP_MAX, j->in, j->in, n);
    case OP_REDUCE: return sk_reduce(c, t, SK_OP_ADD, j->in, j->result, n);
    case OP_SELECT_IF: return sk_select_if(c, t, pred, j->in, j->out, &j->count, n);
    case OP_FLAGGED_PAIRS:
        return sk_select_flagged_pairs(c, t, VS, 1, j->in, j->aux, j->aux, j->out, j->out2,
                                       &j->count, n);
    case OP_PARTITION_PAIRS:
        return sk_partition_pairs(c, t, VS, pred, j->in, j->aux, j->out, j->out2, &j->count, n);
    case OP_UNIQUE: return sk_unique(c, t, j->in, j->out, &j->count, n);
    case OP_SELECT_DEVCOUNT: return sk_select_if_devcount(c, t, pred, j->in, j->out, j->cnt, n);
    case OP_SORT_KEYS: return sk_sort_keys(c, t, j->in, n, SK_ASCENDING);
    case OP_SORT_PAIRS: return sk_sort_pairs(c, t, VS, j->in, j->aux, n, SK_DESCENDING);
    case OP_SORT_KEYS_24_BITS: return sk_sort_keys_bits(c, t, j->in, n, SK_ASCENDING, 0, 24);
    case OP_MERGE_PAIRS: /* the first n / 2 and the first n - n / 2 of in */
        return sk_merge_pairs(c, t, VS, j->in, j->aux, j->in, j->aux, j->out, j->out2, n / 2,
                              n - n / 2, SK_ASCENDING);
    case OP_SEGSCAN_FLAGS: return sk_segscan_inclusive(c, t, SK_OP_ADD, j->in, &flags, j->out, n);
    case OP_SEGSCAN_OFFSETS_EXCL:
        return sk_segscan_exclusive(c, t, SK_OP_MIN, j->in, &offs, j->out, n);
    case OP_SEGREDUCE_FLAGS:
        return sk_segreduce(c, t, SK_OP_ADD, j->in, &flags, j->out, &j->count, n);
    case OP_SEGREDUCE_OFFSETS:
        return sk_segreduce(c, t, SK_OP_MAX, j->in, &offs, j->out, &j->count, n);
    case OP_HISTOGRAM_EVEN: /* bins within out's bytes (8 a bin) */
        return sk_histogram_even(c, t, j->in, 0, t == SK_UINT32 ? 4294967295.0 : 4.0, j->out,
                                 n, n < 7 ? 1 : 7);
    case OP_SEARCH_UPPER: /* no scratch; n / 2 needles from aux, indices within out */
        return sk_search_upper_bound(c, t, j->in, j->aux, j->out, n, n / 2, SK_ASCENDING);
    case OP_RLE: return sk_run_length_encode(c, t, j->in, j->out, j->out2, &j->count, n);
    case OP_REDUCE_BY_KEY:
        return sk_reduce_by_key(c, t, t, SK_OP_ADD, j->in, j->in, j->out, j->out2, &j->count, n);
    case OP_SCAN_BY_KEY_EXCL:
        return sk_scan_by_key_exclusive(c, t, t, SK_OP_MAX, j->in, j->in, j->out, n);
    case OP_SORT_LESS_PAIRS:
        return sk_sort_pairs_by_less(c, t == SK_UINT32 ? &LESS_U32 : &MORE_F64, VS, j->in,
                                     j->aux, n);
    case OP_SORT_FIELDS_PAIRS:
        return sk_sort_pairs_by_fields(c, t == SK_UINT32 ? &BY_U32 : &BY_F64, VS, j->in, j->aux,
                                       n);
    case OP_POLY_EVAL: {
        double r = 0;
        sk_status st = sk_poly_eval(c, t, j->in, 0.5, &r, n);
        memcpy(j->result, &r, sizeof r);
        return st;
    }
    case OP_POLY_POINTS: /* a few points: each is a pass over every coefficient */
        return sk_poly_eval_points(c, t, j->in, j->aux, j->out, n, n < 8 ? n : 8);
    case OP_POLY_PREFIXES: return sk_poly_horner_prefixes(c, t, j->in, 0.5, j->out, n);
    default: return SK_E_INVALID_ARG;
    }
}

/* Every buffer's bytes, then count and result: what a call did. */
static unsigned char *snapshot(const job *j, size_t *bytes)
{
    size_t b = buf_bytes(j), total = 3 * b + j->aux_bytes + 8 + sizeof j->count + 8;
    unsigned char *s = skt_malloc(total), *p = s;
    skt_buf_download(j->in, 0, p, b), p += b;
    skt_buf_download(j->aux, 0, p, j->aux_bytes), p += j->aux_bytes;
    skt_buf_download(j->out, 0, p, b), p += b;
    skt_buf_download(j->out2, 0, p, b), p += b;
    skt_buf_download(j->cnt, 0, p, 8), p += 8;
    memcpy(p, &j->count, sizeof j->count), p += sizeof j->count;
    memcpy(p, j->result, 8);
    *bytes = total - sizeof j->count - 8; /* the buffers' part */
    return s;
}

/* The measured scratch of j's call; checks that it ran nothing. */
static size_t measure(job *j, const char *what)
{
    size_t need = 0, bytes = 0, after_bytes = 0;
    SKT_OK(sk_context_trim(skt_ctx));
    job_prepare(j);
    unsigned char *before = snapshot(j, &bytes);
    SKT_OK(sk_context_scratch_query_begin(skt_ctx));
    sk_status st = run(j);
    SKT_OK(sk_context_scratch_query_end(skt_ctx, &need));
    cr_assert_eq(st, SK_OK, "%s, measuring: %s (%s)", what, sk_status_name(st),
                 sk_context_error_detail(skt_ctx));
    skt_finish();
    unsigned char *after = snapshot(j, &after_bytes);
    size_t at = 0;
    while (at < bytes && before[at] == after[at]) at++;
    cr_assert(at == bytes, "%s: measuring wrote a buffer (byte %zu of %zu: %02x, was %02x)", what,
              at, bytes, after[at < bytes ? at : 0], before[at < bytes ? at : 0]);
    int reports = j->op == OP_REDUCE || j->op == OP_POLY_EVAL;
    int counts = j->op >= OP_SELECT_IF && j->op <= OP_UNIQUE;
    counts = counts || j->op == OP_SEGREDUCE_FLAGS || j->op == OP_SEGREDUCE_OFFSETS ||
             j->op == OP_RLE || j->op == OP_REDUCE_BY_KEY;
    /* by offsets, the number of segments is the caller's, not the device's */
    size_t count = j->op == OP_SEGREDUCE_OFFSETS ? j->segs : 0;
    if (j->n && counts)
        cr_assert_eq(j->count, count, "%s: measured count %zu, expected %zu", what, j->count,
                     count);
    if (j->n && reports && j->op == OP_REDUCE)
        cr_assert(skt_find_unpoisoned(j->result, j->es) != (size_t)-1 &&
                      !memcmp(j->result, (unsigned char[8]){0}, j->es),
                  "%s: measured result not 0", what);
    cr_assert_eq(sk__test_own_scratch_bytes(skt_ctx), 0, "%s: measuring allocated scratch",
                 what);
    free(before);
    free(after);
    return need;
}

typedef struct sc_case { sop op; sk_type t; sk_shape shape; } sc_case;

ParameterizedTestParameters(scratch, measured_scratch_should_run_the_call_exactly)
{
    static sc_case cs[OP_COUNT * 2];
    size_t k = 0;
    /* op x element size x shape, pairwise: each op with both element sizes,
     * the shape alternating with the op, so each op runs in both shapes and
     * each element size in both shapes. */
    for (int o = 0; o < OP_COUNT; o++)
        for (int ti = 0; ti < 2; ti++) {
            int s = (o + ti) & 1;
            cs[k++] = (sc_case){(sop)o,
                                ti ? SK_FLOAT64 : op_is_poly((sop)o) ? SK_FLOAT32 : SK_UINT32,
                                s ? SK_SHAPE_GPU : SK_SHAPE_CPU};
        }
    return cr_make_param_array(sc_case, cs, k);
}

ParameterizedTest(sc_case *c, scratch, measured_scratch_should_run_the_call_exactly)
{
    static const size_t sizes[] = {0, 1, 1000, 50000};
    if (c->t == SK_FLOAT64 && !skt_has_fp64()) cr_skip_test("device has no fp64");
    skt_force_shape(c->shape);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const char *what = skt_fmt("%s %s %s shape n=%zu", OP_NAMES[c->op], sk_type_name(c->t),
                                   skt_shape_name(c->shape), sizes[si]);
        job j;
        job_init(&j, c->op, c->t, sizes[si]);
        size_t bytes = 0, got_bytes = 0;

        /* the context's own scratch */
        SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
        job_prepare(&j);
        SKT_OK(run(&j));
        skt_finish();
        unsigned char *want = snapshot(&j, &bytes);

        size_t need = measure(&j, what);

        /* exactly that much of the caller's, poisoned */
        cl_mem buf = skt_buf_new(need ? need : 1);
        skt_buf_poison(buf, need ? need : 1);
        SKT_OK(sk_context_set_scratch(skt_ctx, buf, need));
        job_prepare(&j);
        sk_status st = run(&j);
        cr_assert_eq(st, SK_OK, "%s with %zu bytes of scratch: %s (%s)", what, need,
                     sk_status_name(st), sk_context_error_detail(skt_ctx));
        skt_finish();
        unsigned char *got = snapshot(&j, &got_bytes);
        cr_assert(memcmp(got, want, got_bytes) == 0,
                  "%s: the caller's scratch gave other bytes than the context's own", what);
        cr_assert_eq(sk__test_own_scratch_bytes(skt_ctx), 0,
                     "%s: the call took scratch of its own", what);

        /* one byte less */
        if (need) {
            SKT_OK(sk_context_set_scratch(skt_ctx, buf, need - 1));
            job_prepare(&j);
            st = run(&j);
            cr_assert_eq(st, SK_E_SIZE, "%s with %zu of %zu bytes: %s", what, need - 1, need,
                         sk_status_name(st));
            skt_finish();
        }
        SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
        skt_buf_free(buf);
        free(want);
        free(got);
        job_free(&j);
    }
}

/* ---- the rules around them ----------------------------------------------------------- */

Test(scratch_rules, begin_and_end_out_of_order_should_be_refused)
{
    size_t need = 7;
    SKT_EXPECT_STATUS(sk_context_scratch_query_end(skt_ctx, &need), SK_E_INVALID_ARG);
    cr_assert_eq(need, 7, "a refused end wrote its size");
    SKT_OK(sk_context_scratch_query_begin(skt_ctx));
    SKT_EXPECT_STATUS(sk_context_scratch_query_begin(skt_ctx), SK_E_INVALID_ARG);
    SKT_OK(sk_context_scratch_query_end(skt_ctx, NULL));
    SKT_EXPECT_STATUS(sk_context_scratch_query_begin(NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_scratch_query_end(NULL, &need), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_set_scratch(NULL, NULL, 0), SK_E_INVALID_ARG);
}

Test(scratch_rules, host_forms_should_be_refused_while_measuring)
{
    uint32_t a[100];
    size_t count = 0;
    for (size_t i = 0; i < 100; i++) a[i] = (uint32_t)skt_rand();
    SKT_OK(sk_context_scratch_query_begin(skt_ctx));
    SKT_EXPECT_STATUS(sk_scan_inclusive_host(skt_ctx, SK_UINT32, SK_OP_ADD, a, a, 100),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_sort_keys_host(skt_ctx, SK_UINT32, a, 100, SK_ASCENDING),
                      SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_unique_host(skt_ctx, SK_UINT32, a, a, &count, 100), SK_E_INVALID_ARG);
    SKT_OK(sk_context_scratch_query_end(skt_ctx, NULL));
    /* and they run with the caller's scratch set, taking it for the call */
    job j;
    job_init(&j, OP_SORT_KEYS, SK_UINT32, 5000);
    size_t need = measure(&j, "sort_keys");
    cl_mem buf = skt_buf_new(need);
    SKT_OK(sk_context_set_scratch(skt_ctx, buf, need));
    uint32_t *want = skt_malloc(5000 * 4), *keys = skt_malloc(5000 * 4);
    memcpy(keys, j.h_in, 5000 * 4);
    memcpy(want, j.h_in, 5000 * 4);
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_UINT32, keys, 5000, SK_ASCENDING));
    SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
    SKT_OK(sk_sort_keys_host(skt_ctx, SK_UINT32, want, 5000, SK_ASCENDING));
    skt_expect_elems(SK_UINT32, keys, want, 5000, "host sort with the caller's scratch");
    skt_buf_free(buf);
    free(want);
    free(keys);
    job_free(&j);
}

Test(scratch_rules, bad_buffers_should_be_refused_and_change_nothing)
{
    cl_mem buf = skt_buf_new(4096);
    cl_int rc = CL_SUCCESS;
    cl_buffer_region r = {0, 1024};
    cl_mem sub = clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &rc);
    cr_assert_eq(rc, CL_SUCCESS);
    SKT_EXPECT_STATUS(sk_context_set_scratch(skt_ctx, sub, 1024), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_set_scratch(skt_ctx, buf, 4097), SK_E_INVALID_ARG);
    /* a buffer of another OpenCL context */
    cl_context other = clCreateContext(NULL, 1, (cl_device_id[]){sk_context_cl_device(skt_ctx)},
                                       NULL, NULL, &rc);
    cr_assert_eq(rc, CL_SUCCESS);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 4096, NULL, &rc);
    cr_assert_eq(rc, CL_SUCCESS);
    SKT_EXPECT_STATUS(sk_context_set_scratch(skt_ctx, foreign, 4096), SK_E_INVALID_ARG);
    /* none of it took: the context's own scratch still serves */
    skt_check_small_scan(skt_ctx, 5000, SK_OP_ADD);
    cr_assert_gt(sk__test_own_scratch_bytes(skt_ctx), 0, "the refused buffers were taken");
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    clReleaseMemObject(sub);
    skt_buf_free(buf);
}

/* The size for several calls is the largest one's; one buffer then serves
 * them all back to back, with no wait between them. */
Test(scratch_rules, one_measure_should_cover_several_primitives_in_a_row)
{
    static const sop ops[] = {OP_SCAN, OP_SORT_PAIRS, OP_SEGREDUCE_OFFSETS, OP_SELECT_DEVCOUNT};
    skt_force_shape(SK_SHAPE_GPU);
    enum { K = sizeof ops / sizeof ops[0] };
    job js[K];
    unsigned char *want[K];
    size_t bytes[K], alone[K], most = 0, need = 0;
    for (size_t k = 0; k < K; k++) {
        job_init(&js[k], ops[k], SK_UINT32, 30000 + 7000 * k);
        job_prepare(&js[k]);
        SKT_OK(run(&js[k]));
        skt_finish();
        want[k] = snapshot(&js[k], &bytes[k]);
        alone[k] = measure(&js[k], OP_NAMES[ops[k]]);
        if (alone[k] > most) most = alone[k];
    }
    SKT_OK(sk_context_scratch_query_begin(skt_ctx));
    for (size_t k = 0; k < K; k++) SKT_OK(run(&js[k]));
    SKT_OK(sk_context_scratch_query_end(skt_ctx, &need));
    cr_assert_eq(need, most, "several calls measured %zu bytes, the largest alone %zu", need,
                 most);
    cl_mem buf = skt_buf_new(need);
    skt_buf_poison(buf, need);
    SKT_OK(sk_context_trim(skt_ctx));
    SKT_OK(sk_context_set_scratch(skt_ctx, buf, need));
    for (size_t k = 0; k < K; k++) job_prepare(&js[k]);
    for (size_t k = 0; k < K; k++) SKT_OK(run(&js[k]));
    skt_finish();
    for (size_t k = 0; k < K; k++) {
        size_t b = 0;
        unsigned char *got = snapshot(&js[k], &b);
        cr_assert(memcmp(got, want[k], b) == 0, "%s: other bytes in a row of calls",
                  OP_NAMES[ops[k]]);
        free(got);
        free(want[k]);
        job_free(&js[k]);
    }
    cr_assert_eq(sk__test_own_scratch_bytes(skt_ctx), 0, "a call took scratch of its own");
    SKT_OK(sk_context_set_scratch(skt_ctx, NULL, 0));
    skt_buf_free(buf);
}
