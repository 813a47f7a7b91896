/*
 * test_runtime_context.c - the runtime layer's devices and contexts: device
 * listing and selection, context creation, wrapping the caller's OpenCL
 * objects, the tuning table and scratch memory (names: test_runtime_names.c;
 * parameters, tracing and profiling: test_runtime_trace.c).
 */
#define _GNU_SOURCE /* strcasestr, setenv */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skt_common.h"
#include "sk_testing.h"

TestSuite(devices, .init = skt_setup, .timeout = 120);
TestSuite(context, .init = skt_setup, .timeout = 120);

/* Lists the devices, or skips the test when there are none. */
static size_t list_devices(sk_device_desc **out)
{
    size_t count = 0;
    sk_status st = sk_device_list(NULL, 0, &count);
    if (st == SK_E_NO_DEVICE || count == 0)
        cr_skip_test("no OpenCL device");
    cr_assert_eq(st, SK_OK, "sk_device_list -> %s", sk_status_name(st));
    sk_device_desc *d = skt_malloc(count * sizeof *d);
    d[0].struct_size = sizeof *d;
    size_t again = 0;
    SKT_EXPECT_STATUS(sk_device_list(d, count, &again), SK_OK);
    cr_assert_eq(again, count);
    *out = d;
    return count;
}

/* ---- devices ---------------------------------------------------------------------- */

Test(devices, list_should_agree_with_the_icd_loader)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);

    /* Independent count through OpenCL itself. */
    cl_uint np = 0;
    cr_assert_eq(clGetPlatformIDs(0, NULL, &np), CL_SUCCESS);
    cl_platform_id *ps = skt_malloc(np * sizeof *ps);
    cr_assert_eq(clGetPlatformIDs(np, ps, NULL), CL_SUCCESS);
    size_t total = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS)
            total += nd;
    }
    free(ps);
    cr_assert_eq(count, total, "sk_device_list counts %zu devices, the ICD loader %zu", count,
                 total);

    for (size_t i = 0; i < count; i++) {
        cr_assert_gt(strlen(d[i].platform_name), 0, "device %zu: empty platform name", i);
        cr_assert_gt(strlen(d[i].device_name), 0, "device %zu: empty device name", i);
        cr_assert_eq(strncmp(d[i].device_version, "OpenCL ", 7), 0,
                     "device %zu: version \"%s\"", i, d[i].device_version);
        cr_assert_gt(strlen(d[i].driver_version), 0);
        cr_assert_geq(d[i].compute_units, 1);
        cr_assert_gt(d[i].global_mem_bytes, 0);
        cr_assert_gt(d[i].max_alloc_bytes, 0);
        cr_assert_leq(d[i].max_alloc_bytes, d[i].global_mem_bytes);
        if (i == 0) {
            cr_assert_eq(d[i].platform_index, 0);
            cr_assert_eq(d[i].device_index, 0);
        } else if (d[i].platform_index == d[i - 1].platform_index) {
            cr_assert_eq(d[i].device_index, d[i - 1].device_index + 1, "device order");
        } else {
            cr_assert_gt(d[i].platform_index, d[i - 1].platform_index, "platform order");
            cr_assert_eq(d[i].device_index, 0);
        }
    }
    free(d);
}

Test(devices, list_should_report_the_full_count_whatever_the_capacity)
{
    sk_device_desc *all = NULL;
    size_t count = list_devices(&all);
    sk_device_desc one = SK_DEVICE_DESC_INIT;
    size_t c = 0;
    SKT_EXPECT_STATUS(sk_device_list(&one, 1, &c), SK_OK);
    cr_assert_eq(c, count);
    cr_assert_str_eq(one.device_name, all[0].device_name);
    cr_assert_str_eq(one.platform_name, all[0].platform_name);

    sk_device_desc *more = skt_malloc((count + 4) * sizeof *more);
    more[0].struct_size = sizeof *more;
    c = 0;
    SKT_EXPECT_STATUS(sk_device_list(more, count + 4, &c), SK_OK);
    cr_assert_eq(c, count);
    for (size_t i = 0; i < count; i++)
        cr_assert_str_eq(more[i].device_name, all[i].device_name);

    SKT_EXPECT_STATUS(sk_device_list(NULL, 0, NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_device_list(more, 1, NULL), SK_E_INVALID_ARG);
    c = 12345;
    SKT_EXPECT_STATUS(sk_device_list(NULL, 3, &c), SK_E_INVALID_ARG);
    free(more);
    free(all);
}

/* ---- context creation --------------------------------------------------------------- */

static void expect_device(sk_context *c, const sk_device_desc *want, const char *spec)
{
    sk_device_desc got = SK_DEVICE_DESC_INIT;
    SKT_EXPECT_STATUS(sk_context_device(c, &got), SK_OK);
    cr_assert_eq(got.platform_index, want->platform_index, "spec \"%s\"", spec);
    cr_assert_eq(got.device_index, want->device_index, "spec \"%s\"", spec);
    cr_assert_str_eq(got.device_name, want->device_name, "spec \"%s\"", spec);
    cr_assert_str_eq(got.platform_name, want->platform_name, "spec \"%s\"", spec);
}

Test(context, unknown_device_spec_should_give_no_device_and_a_null_context)
{
    const char *bad[] = {"no-such-device-xyz", "99:0", "0:99", "999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sk_context *c = (sk_context *)(uintptr_t)0x1;
        SKT_EXPECT_STATUS(sk_context_create(&c, bad[i], NULL, 0), SK_E_NO_DEVICE);
        cr_assert_null(c, "spec \"%s\": *ctx not set to NULL", bad[i]);
    }
    SKT_EXPECT_STATUS(sk_context_create(NULL, "0:0", NULL, 0), SK_E_INVALID_ARG);
}

Test(context, index_specs_should_pick_that_device)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);
    for (size_t i = 0; i < count; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "%u:%u", d[i].platform_index, d[i].device_index);
        sk_context *c = skt_ctx_new(spec);
        expect_device(c, &d[i], spec);
        sk_context_free(c);
        snprintf(spec, sizeof spec, "%zu", i);
        c = skt_ctx_new(spec);
        expect_device(c, &d[i], spec);
        sk_context_free(c);
    }
    free(d);
}

/* The first device whose "platform device" text contains needle (any case). */
static size_t first_match(const sk_device_desc *d, size_t count, const char *needle)
{
    for (size_t i = 0; i < count; i++) {
        char both[300];
        snprintf(both, sizeof both, "%s %s", d[i].platform_name, d[i].device_name);
        if (strcasestr(both, needle))
            return i;
    }
    return (size_t)-1;
}

Test(context, name_substring_should_pick_the_first_matching_device_ignoring_case)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);
    char needles[4][64];
    size_t nn = 0;
    /* A piece of the last device's name, upper-cased; a piece of the first
     * platform's name, lower-cased. */
    const char *dn = d[count - 1].device_name;
    size_t len = strlen(dn), take = len < 6 ? len : 6, from = len > 8 ? 2 : 0;
    for (size_t k = 0; k < take; k++)
        needles[nn][k] = (char)toupper((unsigned char)dn[from + k]);
    needles[nn++][take] = '\0';
    const char *pn = d[0].platform_name;
    len = strlen(pn);
    take = len < 8 ? len : 8;
    for (size_t k = 0; k < take; k++)
        needles[nn][k] = (char)tolower((unsigned char)pn[k]);
    needles[nn++][take] = '\0';

    for (size_t i = 0; i < nn; i++) {
        size_t want = first_match(d, count, needles[i]);
        cr_assert_neq(want, (size_t)-1);
        sk_context *c = skt_ctx_new(needles[i]);
        expect_device(c, &d[want], needles[i]);
        sk_context_free(c);
    }
    free(d);
}

Test(context, default_should_be_the_first_gpu_else_the_first_device)
{
    unsetenv("SCANKIT_DEVICE");
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);
    size_t want = 0;
    for (size_t i = 0; i < count; i++)
        if (d[i].is_gpu) {
            want = i;
            break;
        }
    sk_context *c = skt_ctx_new(NULL);
    expect_device(c, &d[want], "NULL");
    sk_context_free(c);
    free(d);
}

Test(context, empty_specs_match_nothing_and_blanks_around_a_spec_are_ignored)
{
    sk_device_desc *d = NULL;
    list_devices(&d);
    unsetenv("SCANKIT_DEVICE");
    const char *empty[] = {"", " ", "\t \n", " : ", "-0", "+0", "0x0", "0:", ":0", "0 :0"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        sk_context *c = (sk_context *)(uintptr_t)0x1;
        SKT_EXPECT_STATUS(sk_context_create(&c, empty[i], NULL, 0), SK_E_NO_DEVICE);
        cr_assert_null(c, "spec '%s' gave a context", empty[i]);
    }
    const char *zero[] = {"0", " 0", "0 ", "\t0\n", " 0:0 "};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) {
        sk_context *c = skt_ctx_new(zero[i]);
        expect_device(c, &d[0], zero[i]);
        sk_context_free(c);
    }
    /* SCANKIT_DEVICE set to "" (or blanks) is an empty spec too, not unset. */
    const char *env[] = {"", "  "};
    for (size_t i = 0; i < 2; i++) {
        setenv("SCANKIT_DEVICE", env[i], 1);
        sk_context *c = (sk_context *)(uintptr_t)0x1;
        SKT_EXPECT_STATUS(sk_context_create(&c, NULL, NULL, 0), SK_E_NO_DEVICE);
        cr_assert_null(c);
    }
    setenv("SCANKIT_DEVICE", " 0 ", 1);
    sk_context *c = skt_ctx_new(NULL);
    expect_device(c, &d[0], "SCANKIT_DEVICE=' 0 '");
    sk_context_free(c);
    unsetenv("SCANKIT_DEVICE");
    free(d);
}

Test(context, scankit_device_should_choose_the_default_device)
{
    sk_device_desc *d = NULL;
    size_t count = list_devices(&d);

    setenv("SCANKIT_DEVICE", "no-such-device-xyz", 1);
    sk_context *c = (sk_context *)(uintptr_t)0x1;
    SKT_EXPECT_STATUS(sk_context_create(&c, NULL, NULL, 0), SK_E_NO_DEVICE);
    cr_assert_null(c);
    SKT_EXPECT_STATUS(sk_context_create(&c, "", NULL, 0), SK_E_NO_DEVICE);
    cr_assert_null(c);
    /* An explicit spec wins over the environment. */
    c = skt_ctx_new("0:0");
    expect_device(c, &d[0], "0:0 with SCANKIT_DEVICE set");
    sk_context_free(c);

    char spec[32];
    snprintf(spec, sizeof spec, "%u:%u", d[count - 1].platform_index, d[count - 1].device_index);
    setenv("SCANKIT_DEVICE", spec, 1);
    c = skt_ctx_new(NULL);
    expect_device(c, &d[count - 1], spec);
    sk_context_free(c);
    free(d);
}

Test(context, free_should_accept_null)
{
    sk_context_free(NULL);
    sk_context_free(NULL);
    /* ... and the library is still in working order afterwards. */
    sk_context *c = skt_ctx_new(NULL);
    skt_check_small_scan(c, 1001, SK_OP_ADD);
    sk_context_free(c);
}

Test(context, accessors_should_describe_a_consistent_context)
{
    sk_context *c = skt_ctx_new(NULL);
    cl_context cc = sk_context_cl_context(c);
    cl_device_id dev = sk_context_cl_device(c);
    cl_command_queue q = sk_context_cl_queue(c);
    cr_assert_not_null(cc);
    cr_assert_not_null(dev);
    cr_assert_not_null(q);
    cl_context qc = NULL;
    cl_device_id qd = NULL;
    cl_command_queue_properties props = 0;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL), CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL), CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
                 CL_SUCCESS);
    cr_assert_eq(qc, cc);
    cr_assert_eq(qd, dev);
    cr_assert(props & CL_QUEUE_PROFILING_ENABLE, "queue without profiling");
    cr_assert_not(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "queue is out of order");

    sk_device_desc desc = SK_DEVICE_DESC_INIT;
    SKT_EXPECT_STATUS(sk_context_device(c, &desc), SK_OK);
    char name[256] = "";
    cr_assert_eq(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
    cr_assert_eq(strncmp(desc.device_name, name, sizeof desc.device_name - 1), 0);
    cl_bool avail = CL_FALSE;
    cl_uint cus = 0;
    clGetDeviceInfo(dev, CL_DEVICE_AVAILABLE, sizeof avail, &avail, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    cr_assert_eq(desc.compute_units, cus);

    SKT_EXPECT_STATUS(sk_context_device(NULL, &desc), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_device(c, NULL), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_finish(c), SK_OK);
    SKT_EXPECT_STATUS(sk_context_finish(NULL), SK_E_INVALID_ARG);
    sk_build_stats bs = SK_BUILD_STATS_INIT;
    SKT_EXPECT_STATUS(sk_context_build_stats(NULL, &bs), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_build_stats(c, NULL), SK_E_INVALID_ARG);

    /* A fresh context has no failure to report. */
    cr_assert_str_eq(sk_context_error_detail(c), "");
    cr_assert_str_eq(sk_context_build_log(c), "");
    cr_assert_eq(sk_context_cl_error(c), CL_SUCCESS);
    sk_context_free(c);
}

/* ---- wrapping the caller's OpenCL objects ----------------------------------------------- */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} cl_objs;

static cl_objs make_cl_objs(cl_command_queue_properties props)
{
    cl_objs o;
    memset(&o, 0, sizeof o);
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &o.platform, &np) != CL_SUCCESS || np == 0)
        cr_skip_test("no OpenCL platform");
    cl_uint nd = 0;
    if (clGetDeviceIDs(o.platform, CL_DEVICE_TYPE_ALL, 1, &o.device, &nd) != CL_SUCCESS || !nd)
        cr_skip_test("no OpenCL device");
    cl_int err = CL_SUCCESS;
    o.context = clCreateContext(NULL, 1, &o.device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateContext -> %s", sk_cl_error_name(err));
    o.queue = clCreateCommandQueue(o.context, o.device, props, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateCommandQueue -> %s", sk_cl_error_name(err));
    return o;
}

static cl_uint refcount_ctx(cl_context c)
{
    cl_uint r = 0;
    cr_assert_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof r, &r, NULL), CL_SUCCESS);
    return r;
}

static cl_uint refcount_queue(cl_command_queue q)
{
    cl_uint r = 0;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof r, &r, NULL),
                 CL_SUCCESS);
    return r;
}

Test(context, wrap_should_use_the_callers_objects_and_leave_them_valid)
{
    cl_objs o = make_cl_objs(0);
    cl_uint rc0 = refcount_ctx(o.context), rq0 = refcount_queue(o.queue);

    sk_context *c = NULL;
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, o.queue), SK_OK);
    cr_assert_not_null(c);
    cr_assert_eq(sk_context_cl_context(c), o.context);
    cr_assert_eq(sk_context_cl_device(c), o.device);
    cr_assert_eq(sk_context_cl_queue(c), o.queue);
    sk_device_desc desc = SK_DEVICE_DESC_INIT;
    SKT_EXPECT_STATUS(sk_context_device(c, &desc), SK_OK);
    cr_assert_eq(desc.platform_index, 0, "wrapped first device should be listed as 0:0");
    cr_assert_eq(desc.device_index, 0);

    skt_check_small_scan(c, 10007, SK_OP_ADD);
    sk_context_free(c);

    /* The caller's references are intact and the objects still work. The
     * driver may hold the queue for commands it is still retiring after
     * clFinish (PoCL frees finished commands on its own threads), so the
     * counts get a moment to settle; a reference scankit kept would never
     * come back. */
    cr_assert_eq(clFinish(o.queue), CL_SUCCESS);
    for (int tries = 0; tries < 200 && (refcount_ctx(o.context) != rc0 ||
                                        refcount_queue(o.queue) != rq0); tries++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    cr_assert_eq(refcount_ctx(o.context), rc0, "context reference count changed");
    cr_assert_eq(refcount_queue(o.queue), rq0, "queue reference count changed");
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(o.context, CL_MEM_READ_WRITE, 1024, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    unsigned char a[1024], b[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = (unsigned char)i;
    cr_assert_eq(clEnqueueWriteBuffer(o.queue, m, CL_TRUE, 0, 1024, a, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueReadBuffer(o.queue, m, CL_TRUE, 0, 1024, b, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(memcmp(a, b, 1024), 0);
    clReleaseMemObject(m);
    cr_assert_eq(clReleaseCommandQueue(o.queue), CL_SUCCESS);
    cr_assert_eq(clReleaseContext(o.context), CL_SUCCESS);
}

Test(context, wrap_should_reject_bad_objects)
{
    cl_objs o = make_cl_objs(0);
    sk_context *c = NULL;
    SKT_EXPECT_STATUS(sk_context_wrap(NULL, o.context, o.device, o.queue), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, NULL, o.device, o.queue), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, NULL, o.queue), SK_E_INVALID_ARG);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, NULL), SK_E_INVALID_ARG);

    /* A queue of another context. */
    cl_objs o2 = make_cl_objs(0);
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, o2.queue), SK_E_INVALID_ARG);

    clReleaseCommandQueue(o2.queue);
    clReleaseContext(o2.context);
    clReleaseCommandQueue(o.queue);
    clReleaseContext(o.context);
}

Test(context, wrap_should_reject_an_out_of_order_queue)
{
    /* scankit relies on in-order execution between its launches. */
    cl_objs o = make_cl_objs(0);
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo = clCreateCommandQueue(o.context, o.device,
                                                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS)
        cr_skip_test("device has no out-of-order queues");
    sk_context *c = NULL;
    SKT_EXPECT_STATUS(sk_context_wrap(&c, o.context, o.device, ooo), SK_E_INVALID_ARG);
    clReleaseCommandQueue(ooo);
    clReleaseCommandQueue(o.queue);
    clReleaseContext(o.context);
}


/* ---- tuning table and scratch ----------------------------------------------------- */

Test(context, tuning_table_should_have_a_portable_default_for_every_value)
{
    cr_assert_eq(sk__test_tuning_complete(), 1,
                 "a value of primitives/tuning.c has no row for any device: an unknown "
                 "device would get 0 for it");
}

/* Scans of n random uint32 (add) before and after the scratch is released,
 * both against a serial sum; a NULL context is refused. */
Test(context, released_scratch_should_be_allocated_again_by_the_next_call)
{
    SKT_EXPECT_STATUS(sk_context_trim(NULL), SK_E_INVALID_ARG);
    sk_context *c = skt_ctx_new(NULL);
    const size_t n = 100003;
    uint32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    cr_assert(in && out);
    for (size_t i = 0; i < n; i++) in[i] = (uint32_t)skt_rand_below(1u << 20);
    for (int round = 0; round < 3; round++) {
        memset(out, 0xA5, n * sizeof *out);
        SKT_EXPECT_STATUS(sk_scan_inclusive_host(c, SK_UINT32, SK_OP_ADD, in, out, n), SK_OK);
        uint32_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            sum += in[i];
            cr_assert_eq(out[i], sum, "round %d: out[%zu] = %u, expected %u (seed %llu)", round,
                         i, out[i], sum, (unsigned long long)skt_seed());
        }
        SKT_EXPECT_STATUS(sk_context_trim(c), SK_OK);
    }
    free(in);
    free(out);
    sk_context_free(c);
}
