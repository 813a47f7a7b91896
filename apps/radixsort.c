/*
 * radixsort - sorts a file of keys (optionally with a file of values) on an
 * OpenCL device: scankit's stable LSD radix sort.
 *
 *   radixsort keys.bin                       uint32 keys to keys.sorted.bin
 *   radixsort k.npy --descending --check     type from the .npy header
 *   radixsort k.bin --type float32 --values v.bin   v.sorted.bin too
 *
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit.h"
#include "radixsort_args.h"

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = RADIXSORT_TOOL;

typedef struct sort_times {
    double start, read, context, upload, compute, download, check, write;
    sk_build_stats build;
} sort_times;

typedef struct sort_job {
    const sort_args *args;
    sort_times times;
    ak_array keys, values;
    char *out_path, *values_path; /* NULL: stdout */
    sk_context *ctx;
    cl_mem kbuf, vbuf;
    ak_output out, vout;
} sort_job;

static int list_devices(void)
{
    size_t count = 0;
    if (sk_device_list(NULL, 0, &count) != SK_OK || count == 0) {
        ak_print_error(TOOL, "no OpenCL device found");
        return AK_EXIT_FAIL;
    }
    sk_device_desc *d = calloc(count, sizeof *d);
    if (!d || sk_device_list(d, count, &count) != SK_OK) {
        free(d);
        ak_print_error(TOOL, "cannot list the OpenCL devices");
        return AK_EXIT_FAIL;
    }
    printf("%-6s %-4s %-4s %s / %s\n", "index", "type", "fp64", "device", "platform");
    for (size_t i = 0; i < count; i++)
        printf("%u:%-4u %-4s %-4s %s / %s\n", d[i].platform_index, d[i].device_index,
               d[i].is_gpu ? "gpu" : "cpu", d[i].has_fp64 ? "yes" : "no", d[i].device_name,
               d[i].platform_name);
    free(d);
    return ak_finish_stdout(TOOL);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

static int read_values(sort_job *j, ak_err *e)
{
    const sort_args *a = j->args;
    ak_read_opts ro = {a->values_type, AK_UINT32, TOOL};
    if (ak_array_read(a->values, &ro, &j->values, e) != 0) return -1;
    const char *name = ak_display_name(a->values, 0);
    size_t vs = ak_dtype_size(j->values.type);
    if (vs != 4 && vs != 8)
        return ak_fail(e, "%s: values of type %s cannot be sorted along (use 4- or 8-byte "
                          "types)", name, ak_dtype_name(j->values.type));
    if (j->values.n != j->keys.n)
        return ak_fail(e, "%s: %zu values for %zu keys (the counts must match)", name,
                       j->values.n, j->keys.n);
    return 0;
}

static int read_inputs(sort_job *j, ak_err *e)
{
    const sort_args *a = j->args;
    ak_read_opts ro = {a->type, AK_UINT32, TOOL};
    double t0 = ak_now();
    if (ak_array_read(a->input, &ro, &j->keys, e) != 0) return -1;
    const char *name = ak_display_name(a->input, 0);
    sk_type t;
    if (ak_dtype_to_sk(j->keys.type, &t) != 0)
        return ak_fail(e, "%s: keys of type %s cannot be sorted (use %s)", name,
                       ak_dtype_name(j->keys.type), AK_SK_TYPE_NAMES);
    unsigned bits = 8 * (unsigned)ak_dtype_size(j->keys.type);
    if (a->has_bits && a->end_bit > bits)
        return ak_fail(e, "%s: --bits %u:%u exceeds the %u bits of %s", name, a->begin_bit,
                       a->end_bit, bits, ak_dtype_name(j->keys.type));
    if (a->values && read_values(j, e) != 0) return -1;
    j->times.read = ak_ms_since(t0);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The sort                                                                  */
/* ------------------------------------------------------------------------ */

static int open_context(sort_job *j, ak_err *e)
{
    return ak_context_open(&j->ctx, j->args->device, 1, &j->times.context, e);
}

/* A device buffer holding a copy of `a`. */
static int upload(sort_job *j, const ak_array *a, cl_mem *buf, ak_err *e)
{
    size_t bytes = a->n * ak_dtype_size(a->type);
    sk_device_desc d;
    if (sk_context_device(j->ctx, &d) == SK_OK && bytes > d.max_alloc_bytes)
        return ak_fail(e, "%zu elements of %s exceed the device's largest buffer (%llu "
                          "bytes)", a->n, ak_dtype_name(a->type),
                       (unsigned long long)d.max_alloc_bytes);
    double t0 = ak_now();
    cl_int err = CL_SUCCESS;
    *buf = clCreateBuffer(sk_context_cl_context(j->ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!*buf) return ak_fail_cl(e, "allocating a device buffer", err);
    j->times.upload += ak_ms_since(t0);
    return ak_cl_upload(j->ctx, *buf, 0, a->data, bytes, &j->times.upload, e);
}

static int download(sort_job *j, const ak_array *a, cl_mem buf, ak_err *e)
{
    return ak_cl_download(j->ctx, buf, 0, a->data, a->n * ak_dtype_size(a->type),
                          &j->times.download, "copying the result from the device", e);
}

static sk_status run_sort(sort_job *j)
{
    const sort_args *a = j->args;
    sk_type t;
    ak_dtype_to_sk(j->keys.type, &t);
    sk_sort_order o = a->descending ? SK_DESCENDING : SK_ASCENDING;
    unsigned b = a->has_bits ? a->begin_bit : 0;
    unsigned end = a->has_bits ? a->end_bit : 8 * (unsigned)ak_dtype_size(j->keys.type);
    size_t vs = ak_dtype_size(j->values.type);
    if (a->values)
        return sk_sort_pairs_bits(j->ctx, t, j->kbuf, vs, j->vbuf, j->keys.n, o, b, end);
    return sk_sort_keys_bits(j->ctx, t, j->kbuf, j->keys.n, o, b, end);
}

static int compute(sort_job *j, ak_err *e)
{
    sk_build_stats before;
    sk_context_build_stats(j->ctx, &before);
    double t0 = ak_now();
    sk_status st = run_sort(j);
    if (st == SK_OK) st = sk_context_finish(j->ctx);
    j->times.compute = ak_ms_since(t0);
    if (st != SK_OK) return ak_fail_sk(e, j->ctx, st, ak_display_name(j->args->input, 0));
    ak_build_stats_since(j->ctx, &before, &j->times.build, &j->times.compute);
    return 0;
}

static int sort_on_device(sort_job *j, ak_err *e)
{
    if (j->keys.n == 0) return 0;
    if (upload(j, &j->keys, &j->kbuf, e) != 0) return -1;
    if (j->args->values && upload(j, &j->values, &j->vbuf, e) != 0) return -1;
    if (compute(j, e) != 0 || download(j, &j->keys, j->kbuf, e) != 0) return -1;
    return j->args->values ? download(j, &j->values, j->vbuf, e) : 0;
}

/* ------------------------------------------------------------------------ */
/* --check                                                                   */
/* ------------------------------------------------------------------------ */

static uint64_t load_bits(const ak_array *a, size_t i)
{
    size_t size = ak_dtype_size(a->type);
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)a->data + i * size, size); /* little-endian host */
    return v;
}

/* The unsigned integer whose order is the key order (IEEE totalOrder for
 * floats), restricted to the --bits field. */
static uint64_t order_key(const sort_args *a, ak_dtype t, uint64_t raw)
{
    unsigned bits = 8 * (unsigned)ak_dtype_size(t);
    uint64_t sign = (uint64_t)1 << (bits - 1);
    uint64_t all = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    uint64_t k = raw;
    if (ak_dtype_is_float(t)) k = (raw & sign) ? (~raw & all) : (raw | sign);
    else if (ak_dtype_is_signed(t)) k = raw ^ sign;
    if (!a->has_bits) return k;
    k >>= a->begin_bit;
    unsigned w = a->end_bit - a->begin_bit;
    return w >= 64 ? k : k & (((uint64_t)1 << w) - 1);
}

static int check_order(const sort_job *j, ak_err *e)
{
    const sort_args *a = j->args;
    for (size_t i = 1; i < j->keys.n; i++) {
        uint64_t x = order_key(a, j->keys.type, load_bits(&j->keys, i - 1));
        uint64_t y = order_key(a, j->keys.type, load_bits(&j->keys, i));
        if (a->descending ? x < y : x > y)
            return ak_fail(e, "check: FAILED: keys %zu and %zu are out of order", i - 1, i);
    }
    return 0;
}

/* A strong 64-bit mix of one (key, value) pair. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* An order-independent fingerprint of the multiset of (key, value) bit
 * pairs: sums of two independent mixes of each pair. Equal multisets give
 * equal fingerprints; different ones collide with probability ~2^-128. O(n),
 * where sorting both arrays on the host took seconds at 2^24. */
typedef struct multiset_print {
    uint64_t a, b;
} multiset_print;

static multiset_print fingerprint(const ak_array *k, const ak_array *v)
{
    multiset_print f = {0, 0};
    for (size_t i = 0; i < k->n; i++) {
        uint64_t key = load_bits(k, i), val = v->data ? load_bits(v, i) : 0;
        uint64_t h = mix64(key ^ mix64(val + 0x9e3779b97f4a7c15ull));
        f.a += h;
        f.b += mix64(h + 0x632be59bd9b4e019ull);
    }
    return f;
}

/* The output must hold the input's (key, value) pairs, bit for bit. */
static int check_permutation(const sort_job *j, const ak_array *in_k, const ak_array *in_v,
                             ak_err *e)
{
    multiset_print want = fingerprint(in_k, in_v), got = fingerprint(&j->keys, &j->values);
    if (want.a != got.a || want.b != got.b)
        return ak_fail(e, "check: FAILED: the output is not a permutation of the input");
    return 0;
}

static int copy_array(const ak_array *src, ak_array *dst, ak_err *e)
{
    size_t bytes = src->n * ak_dtype_size(src->type);
    *dst = *src;
    dst->data = NULL;
    if (!src->data) return 0;
    if (!(dst->data = malloc(bytes ? bytes : 1))) return ak_fail(e, "check: out of memory");
    memcpy(dst->data, src->data, bytes);
    return 0;
}

/* Sorts on the device; with --check, verifies against the kept input. */
static int sort_and_check(sort_job *j, ak_err *e)
{
    ak_array in_k = {0}, in_v = {0};
    int rc = 0;
    if (j->args->check && (copy_array(&j->keys, &in_k, e) != 0 ||
                           copy_array(&j->values, &in_v, e) != 0))
        rc = -1;
    if (rc == 0) rc = sort_on_device(j, e);
    if (rc == 0 && j->args->check) {
        double t0 = ak_now();
        rc = check_order(j, e);
        if (rc == 0) rc = check_permutation(j, &in_k, &in_v, e);
        j->times.check = ak_ms_since(t0);
        if (rc == 0) fprintf(stderr, "check: ok (%zu keys sorted)\n", j->keys.n);
    }
    ak_array_free(&in_k);
    ak_array_free(&in_v);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

static int write_array(ak_output *o, const char *path, const ak_array *a, ak_err *e)
{
    ak_format f = ak_output_format(AK_FORMAT_AUTO, path, a->format);
    return ak_output_write_elements(o, f, a->type, a->data, a->n, TOOL, e);
}

static int resolve_outputs(sort_job *j, ak_err *e)
{
    const sort_args *a = j->args;
    ak_output_choice kc = {a->input, a->output, "sorted", a->in_place, 1, &a->values, 1};
    if (ak_output_resolve(&kc, &j->out_path, e) != 0) return -1;
    if (!a->values) return 0;
    ak_output_choice vc = {a->values, a->values_out, "sorted", a->in_place, 1, &a->input, 1};
    if (ak_output_resolve(&vc, &j->values_path, e) != 0) return -1;
    if (!j->out_path && !j->values_path)
        return ak_fail(e, "keys and values cannot both be written to stdout");
    if (ak_output_paths_collide(j->out_path, j->values_path))
        return ak_fail(e, "keys and values would both be written to %s", j->out_path);
    return 0;
}

static int write_outputs(sort_job *j, ak_err *e)
{
    double t0 = ak_now();
    int rc = write_array(&j->out, j->out_path, &j->keys, e);
    if (rc == 0 && j->args->values) rc = write_array(&j->vout, j->values_path, &j->values, e);
    /* Both written out before either is renamed into place. */
    if (rc == 0) rc = ak_output_flush(&j->out, e);
    if (rc == 0 && j->args->values) rc = ak_output_flush(&j->vout, e);
    if (rc == 0) rc = ak_output_commit(&j->out, e);
    if (rc == 0 && j->args->values) rc = ak_output_commit(&j->vout, e);
    j->times.write = ak_ms_since(t0);
    return rc;
}

static void print_times(const sort_job *j)
{
    const sort_times *t = &j->times;
    fprintf(stderr, "read:     %10.3f ms  (%zu keys of %s%s%s)\n", t->read, j->keys.n,
            ak_dtype_name(j->keys.type), j->args->values ? ", values of " : "",
            j->args->values ? ak_dtype_name(j->values.type) : "");
    ak_print_device_times(t->context, t->upload, &t->build);
    if (t->compute > 0)
        fprintf(stderr, "compute:  %10.3f ms  (%.3g keys/s)\n", t->compute,
                (double)j->keys.n / (t->compute * 1e-3));
    else
        ak_print_time("compute:", t->compute);
    ak_print_time("download:", t->download);
    if (j->args->check) ak_print_time("check:", t->check);
    ak_print_time("write:", t->write);
    ak_print_time("total:", ak_ms_since(t->start));
}

static int run_steps(sort_job *j, ak_err *e)
{
    if (resolve_outputs(j, e) != 0 || read_inputs(j, e) != 0) return -1;
    if (ak_output_open(&j->out, j->out_path, TOOL, e) != 0) return -1;
    if (j->args->values && ak_output_open(&j->vout, j->values_path, TOOL, e) != 0) return -1;
    if (open_context(j, e) != 0 || sort_and_check(j, e) != 0) return -1;
    return write_outputs(j, e);
}

static void release(sort_job *j)
{
    if (j->kbuf) clReleaseMemObject(j->kbuf);
    if (j->vbuf) clReleaseMemObject(j->vbuf);
    sk_context_free(j->ctx);
    ak_array_free(&j->keys);
    ak_array_free(&j->values);
    free(j->out_path);
    free(j->values_path);
}

static int run(const sort_args *a, double start)
{
    sort_job j;
    memset(&j, 0, sizeof j);
    j.args = a;
    j.times.start = start;
    j.values.type = AK_DTYPE_NONE;
    ak_err e;
    int rc = run_steps(&j, &e);
    ak_output_abort(&j.out); /* no-op after a commit */
    ak_output_abort(&j.vout);
    if (rc == 0 && a->time) print_times(&j);
    release(&j);
    return ak_exit_status(TOOL, rc, &e);
}

int main(int argc, char **argv)
{
    double start = ak_now();
    sort_args a;
    int rc = radixsort_parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK) return rc;
    if (a.help) return radixsort_print_help();
    if (a.version) return ak_print_version(TOOL);
    if (a.list_devices) return list_devices();
    return run(&a, start);
}
