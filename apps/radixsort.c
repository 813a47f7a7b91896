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

#include "appkit_run.h"
#include "radixsort_args.h"
#include "sort_check.h"
#include "sort_runs.h"

#include <stdlib.h>
#include <string.h>

typedef struct sort_job {
    ak_array keys, values;
    cl_mem kbuf, vbuf;
    int in_runs;             /* sorted by sort_runs (--memory, or too large) */
    sort_runs_stats runs;
} sort_job;

/* The keys, and with --values the values beside them. */
static void plan(ak_run *r)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    ak_run_add_output(r, "sorted", &j->keys, AK_FORMAT_AUTO);
    if (!a->values)
        return;
    ak_output_choice values = {a->values, a->values_out, "sorted", a->in_place, 1, NULL, 0};
    ak_run_add_output_as(r, &values, &j->values, AK_FORMAT_AUTO);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

static int read_inputs(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    const char *name = ak_run_input_name(r);
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->keys, e) != 0 ||
        ak_check_sk_type(name, j->keys.type, "sorted", e) != 0)
        return -1;
    unsigned bits = 8 * (unsigned)ak_dtype_size(j->keys.type);
    if (a->has_bits && a->end_bit > bits)
        return ak_fail(e, "%s: --bits %u:%u exceeds the %u bits of %s", name, a->begin_bit,
                       a->end_bit, bits, ak_dtype_name(j->keys.type));
    if (!a->values)
        return 0;
    return ak_run_read_values(r, a->values, a->values_type, j->keys.n, "keys", &j->values, e);
}

/* ------------------------------------------------------------------------ */
/* The sort                                                                  */
/* ------------------------------------------------------------------------ */

/* The bits of the key that order it: --bits, else the whole key. */
static sort_key_bits key_bits(const ak_run *r)
{
    const sort_args *a = r->args;
    const sort_job *j = r->job;
    if (a->has_bits) return (sort_key_bits){a->begin_bit, a->end_bit};
    return sort_whole_key(j->keys.type);
}

static sk_status run_sort(ak_run *r)
{
    const sort_job *j = r->job;
    sort_call c = sort_call_of(j->keys.type, ((const sort_args *)r->args)->descending);
    sort_key_bits b = key_bits(r);
    if (j->values.data)
        return sk_sort_pairs_bits(r->ctx, c.type, ak_dtype_size(j->values.type), j->kbuf,
                                  j->vbuf, j->keys.n, c.order, b.begin, b.end);
    return sk_sort_keys_bits(r->ctx, c.type, j->kbuf, j->keys.n, c.order, b.begin, b.end);
}

static size_t bytes_of(const ak_array *a)
{
    return a->n * ak_dtype_size(a->type);
}

/* Whether the keys and values fit the device's largest buffer each. */
static int fits_device(ak_run *r)
{
    const sort_job *j = r->job;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    if (sk_context_device(r->ctx, &d) != SK_OK) return 1; /* the sort will say */
    return bytes_of(&j->keys) <= d.max_alloc_bytes && bytes_of(&j->values) <= d.max_alloc_bytes;
}

/* Within --memory (or the largest buffer when the data exceeds it): runs
 * sorted and merged on the device (sort_runs.c). */
static int sort_in_runs(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    size_t budget = a->memory;
    if (!budget && sk_context_device(r->ctx, &d) == SK_OK) budget = (size_t)d.max_alloc_bytes;
    sort_runs_job job = {&j->keys, &j->values, sort_call_of(j->keys.type, a->descending).order,
                         key_bits(r), budget};
    j->in_runs = 1;
    return sort_runs(r, &job, &j->runs, e);
}

static int sort_on_device(ak_run *r, ak_err *e)
{
    sort_job *j = r->job;
    int values = ((const sort_args *)r->args)->values != NULL;
    if (j->keys.n == 0)
        return 0;
    if (((const sort_args *)r->args)->memory || !fits_device(r))
        return sort_in_runs(r, e);
    if (ak_run_buffer(r, bytes_of(&j->keys), j->keys.data, &j->kbuf, e) != 0 ||
        (values && ak_run_buffer(r, bytes_of(&j->values), j->values.data, &j->vbuf, e) != 0))
        return -1;
    if (ak_run_primitive(r, run_sort, e) != 0 ||
        ak_run_download(r, j->kbuf, 0, j->keys.data, bytes_of(&j->keys), e) != 0)
        return -1;
    return values ? ak_run_download(r, j->vbuf, 0, j->values.data, bytes_of(&j->values), e) : 0;
}

/* ------------------------------------------------------------------------ */
/* --check                                                                   */
/* ------------------------------------------------------------------------ */

static int check_order(const ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    const sort_job *j = r->job;
    sort_key_bits bits = sort_whole_key(j->keys.type);
    if (a->has_bits) bits = (sort_key_bits){a->begin_bit, a->end_bit};
    return sort_check_order(&j->keys, a->descending, bits, "check: FAILED: ", e);
}

/* The output must hold the input's (key, value) pairs, bit for bit: `want`
 * is the input's fingerprint, taken before the sort. */
static int check_permutation(const sort_job *j, sort_print want, ak_err *e)
{
    sort_print got = {0, 0};
    sort_print_add(&got, &j->keys, &j->values);
    if (!sort_print_equal(want, got))
        return ak_fail(e, "check: FAILED: the output is not a permutation of the input");
    return 0;
}

/* Sorts on the device; with --check, fingerprints the input first (no copy
 * of it), then verifies the output's order and fingerprint. */
static int sort_and_check(ak_run *r, ak_err *e)
{
    int check = ((const sort_args *)r->args)->check;
    sort_job *j = r->job;
    sort_print want = {0, 0};
    double t0 = ak_now();
    if (check) sort_print_add(&want, &j->keys, &j->values);
    double before = ak_ms_since(t0);
    int rc = sort_on_device(r, e);
    if (rc == 0 && check) {
        t0 = ak_now();
        rc = check_order(r, e);
        if (rc == 0) rc = check_permutation(j, want, e);
        r->times.check = before + ak_ms_since(t0);
        if (rc == 0) fprintf(stderr, "check: ok (%zu keys sorted)\n", j->keys.n);
    }
    return rc;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const sort_job *j = r->job;
    int values = ((const sort_args *)r->args)->values != NULL;
    snprintf(n->read, sizeof n->read, "%zu keys of %s%s%s", j->keys.n,
             ak_dtype_name(j->keys.type), values ? ", values of " : "",
             values ? ak_dtype_name(j->values.type) : "");
    ak_run_note_rate(r, n, j->keys.n, "keys");
    if (!j->in_runs) return;
    size_t used = strlen(n->compute);
    snprintf(n->compute + used, sizeof n->compute - used,
             "%sdevice memory %zu bytes; %zu run%s of %zu, %zu merge level%s, %zu blocks",
             used ? "; " : "", j->runs.device_bytes, j->runs.runs, j->runs.runs == 1 ? "" : "s",
             j->runs.run_elems, j->runs.levels, j->runs.levels == 1 ? "" : "s",
             j->runs.merge_blocks);
}

static const ak_program RADIXSORT = {.cli = &radixsort_cli, .job_size = sizeof(sort_job),
                                     .plan = plan, .read = read_inputs,
                                     .compute = sort_and_check, .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&RADIXSORT, argc, argv);
}
