/*
 * radixsort - sorts a file of keys (optionally with a file of values) on an
 * OpenCL device: scankit's stable LSD radix sort, through the stream sort
 * (sk_sort_*_stream), so that files of any size sort within the device and
 * host memory they may use.
 *
 *   radixsort keys.bin                       uint32 keys to keys.sorted.bin
 *   radixsort k.npy --descending --check     type from the .npy header
 *   radixsort k.bin --type float32 --values v.bin   v.sorted.bin too
 *   radixsort big.bin --memory 2G --host-memory 8G --temp-dir /scratch
 *   radixsort k.bin --segments starts.bin    sorted within each segment
 *
 * The files are read ahead on threads of their own from the start (while
 * the device opens) and go to the device piece by piece as they come; the
 * sorted pieces are written as they come back. With --check (and for a raw
 * input from a pipe written to a .npy output, whose header needs the count
 * first) the data is read into memory instead, sorted there through the
 * same stream sort, checked, then written. With --segments (segment start
 * offsets) the keys and values are read into memory and sorted in one
 * piece by the segmented sort (sk_segsort_*_bits_host).
 *
 * Exit status: 0 success, 1 bad input or failure (one line on stderr),
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "radixsort_args.h"
#include "sort_check.h"
#include "sort_memio.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

/* How far each input is read ahead of the sort: what the threads read
 * while the device opens (on an H100 about 0.3 s), and then a margin. */
#define READ_AHEAD_BYTES ((size_t)256 << 20)

/* One side of the sort's data: the keys (0) or the values (1), from a file
 * read ahead or from an array in memory, to an output file or back into
 * that array. */
typedef struct side {
    struct sort_job *j;
    int part;
    ak_data data;           /* streamed: the file */
    ak_prefetch *ahead;
    ak_output *out;
    sort_memio memory;      /* in memory (--check): the data, sorted in place */
} side;

typedef struct sort_job {
    ak_array keys, values;  /* in memory (--check); else their type and layout */
    ak_array offsets;       /* --segments: the segment start offsets */
    int streamed;
    side sides[2];
    int io_failed;          /* a reader or writer function failed: io_err says why */
    ak_err io_err;
    sk_stream_stats stats;
    ak_progress progress;
    const char *phase;
} sort_job;

static int has_values(const ak_run *r)
{
    return ((const sort_args *)r->args)->values != NULL;
}

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

static int check_key_type(ak_run *r, ak_dtype t, ak_err *e)
{
    return radixsort_check_key_type(r->args, ak_run_input_name(r), t, e);
}

static int read_into_memory(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    if (ak_run_read(r, a->input, a->type, AK_UINT32, &j->keys, e) != 0 ||
        check_key_type(r, j->keys.type, e) != 0)
        return -1;
    if (!a->values)
        return 0;
    return ak_run_read_values(r, a->values, a->values_type, j->keys.n, "keys", &j->values, e);
}

/* The elements of a file of known size; AK_SIZE_UNKNOWN for a pipe. */
static uint64_t count_of(const ak_data *d)
{
    if (d->format == AK_FORMAT_NPY) return d->npy_n;
    return d->bytes == AK_SIZE_UNKNOWN ? AK_SIZE_UNKNOWN : d->bytes / ak_dtype_size(d->type);
}

static int open_values(ak_run *r, ak_data *keys, ak_data *v, ak_err *e)
{
    const sort_args *a = r->args;
    ak_read_opts ro = {a->values_type, AK_UINT32, NULL, r->progress};
    if (ak_data_open(a->values, &ro, v, e) != 0)
        return -1;
    if (ak_check_value_type(v->name, v->type, e) != 0)
        return -1;
    uint64_t nk = count_of(keys), nv = count_of(v);
    if (nk == AK_SIZE_UNKNOWN || nv == AK_SIZE_UNKNOWN)
        return 0; /* the sort checks as it goes */
    return ak_check_count(v->name, (size_t)nv, "values", (size_t)nk, "keys", e);
}

/* An output in .npy needs the count before the data. */
static int needs_count_first(const ak_run *r, const ak_data *d)
{
    for (size_t i = 0; i < r->n_outputs; i++)
        if (ak_output_format(AK_FORMAT_AUTO, r->outputs[i].path, d->format) == AK_FORMAT_NPY &&
            count_of(d) == AK_SIZE_UNKNOWN)
            return 1;
    return 0;
}

/* The files opened and read ahead; the arrays take their type and layout
 * (what the outputs are written in). */
static int open_streams(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    ak_read_opts ro = {a->type, AK_UINT32, NULL, r->progress};
    ak_data *k = &j->sides[0].data, *v = &j->sides[1].data;
    if (ak_data_open(a->input, &ro, k, e) != 0 || check_key_type(r, k->type, e) != 0 ||
        (a->values && open_values(r, k, v, e) != 0))
        return -1;
    j->keys.type = k->type, j->keys.format = k->format;
    j->values.type = v->type, j->values.format = v->format;
    for (int p = 0; p < 1 + !!a->values; p++)
        if (ak_prefetch_start(&j->sides[p].ahead, &j->sides[p].data, READ_AHEAD_BYTES, e) != 0)
            return -1;
    return 0;
}

static int read_inputs(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    if (a->segments)
        return read_into_memory(r, e) != 0 ? -1
               : ak_run_read_offsets(r, a->segments, a->offsets_type, j->keys.n, &j->offsets, e);
    if (a->check)
        return read_into_memory(r, e);
    j->streamed = 1;
    if (open_streams(r, e) != 0)
        return -1;
    if (!needs_count_first(r, &j->sides[0].data) &&
        !(a->values && needs_count_first(r, &j->sides[1].data)))
        return 0;
    for (int p = 0; p < 2; p++) { /* a pipe to .npy: in memory after all */
        ak_prefetch_stop(j->sides[p].ahead);
        j->sides[p].ahead = NULL;
        ak_data_close(&j->sides[p].data);
    }
    j->streamed = 0;
    return read_into_memory(r, e);
}

/* ------------------------------------------------------------------------ */
/* The sort's reader and writer functions                                    */
/* ------------------------------------------------------------------------ */

/* The first failure of a reader or writer, for the message. */
static void io_fail(sort_job *j, const ak_err *e)
{
    if (!j->io_failed) j->io_err = *e;
    j->io_failed = 1;
}

static long long read_file(void *user, void *buf, size_t bytes)
{
    side *s = user;
    ak_err e;
    long long n = ak_prefetch_read(s->ahead, buf, bytes, &e);
    if (n < 0) io_fail(s->j, &e);
    return n;
}

static int write_file(void *user, const void *buf, size_t bytes)
{
    side *s = user;
    ak_err e;
    int rc = ak_output_write(s->out, buf, bytes, NULL, &e);
    if (rc != 0) io_fail(s->j, &e);
    return rc;
}

static size_t array_bytes(const ak_array *a)
{
    return a->n * ak_dtype_size(a->type);
}

/* The sort's progress as the program's line. */
static void show_progress(void *user, const char *phase, uint64_t done, uint64_t total)
{
    ak_run *r = user;
    sort_job *j = r->job;
    if (phase != j->phase) {
        ak_progress_end(&j->progress);
        ak_progress_start(&j->progress, r->program->cli->tool, phase, total, r->progress);
        j->phase = phase;
    }
    ak_progress_add(&j->progress, done - j->progress.done);
}

/* ------------------------------------------------------------------------ */
/* The sort                                                                  */
/* ------------------------------------------------------------------------ */

static sort_key_bits key_bits(const ak_run *r)
{
    const sort_args *a = r->args;
    const sort_job *j = r->job;
    if (a->has_bits) return (sort_key_bits){a->begin_bit, a->end_bit};
    return sort_whole_key(j->keys.type);
}

/* Where runs beyond the host budget go: --temp-dir, else the directory of
 * the output (NULL for stdout: $TMPDIR or /tmp). */
static const char *temp_dir_of(ak_run *r, char *buf, size_t cap)
{
    const sort_args *a = r->args;
    if (a->temp_dir) return a->temp_dir;
    const char *out = r->outputs[0].path;
    if (!out) return NULL;
    snprintf(buf, cap, "%s", out);
    return dirname(buf);
}

/* The readers and writers of the sort, file or array. */
static void connect_sides(ak_run *r, sk_reader in[2], sk_writer out[2])
{
    sort_job *j = r->job;
    ak_array *arrays[2] = {&j->keys, &j->values};
    for (int p = 0; p < 2; p++) {
        side *s = &j->sides[p];
        s->j = j, s->part = p;
        s->out = &r->outputs[p < (int)r->n_outputs ? p : 0].out;
        s->memory = (sort_memio){{arrays[p], NULL}, arrays[p], 0, 0};
        in[p] = j->streamed ? (sk_reader){read_file, s} : sort_memio_reader(&s->memory);
        out[p] = j->streamed ? (sk_writer){write_file, s} : sort_memio_writer(&s->memory);
    }
}

static uint64_t expected_bytes(const ak_run *r)
{
    const sort_job *j = r->job;
    if (!j->streamed) return array_bytes(&j->keys) + array_bytes(&j->values);
    uint64_t total = 0;
    for (int p = 0; p < 1 + has_values(r); p++) {
        const ak_data *d = &j->sides[p].data;
        uint64_t n = count_of(d);
        if (n == AK_SIZE_UNKNOWN) return 0;
        total += n * ak_dtype_size(d->type);
    }
    return total;
}

static sk_status call_sort(ak_run *r, void *user)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    const sk_stream_opts *o = user;
    sk_reader in[2];
    sk_writer out[2];
    connect_sides(r, in, out);
    sort_call c = sort_call_of(j->keys.type, a->descending);
    sort_key_bits b = key_bits(r);
    j->stats = (sk_stream_stats)SK_STREAM_STATS_INIT;
    if (has_values(r))
        return sk_sort_pairs_bits_stream(r->ctx, c.type, ak_dtype_size(j->values.type), in[0],
                                         in[1], out[0], out[1], c.order, b.begin, b.end, o,
                                         &j->stats);
    return sk_sort_keys_bits_stream(r->ctx, c.type, in[0], out[0], c.order, b.begin, b.end, o,
                                    &j->stats);
}

/* --segments: the segmented sort of the arrays in memory. */
static sk_status call_segsort(ak_run *r, void *user)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    (void)user;
    sort_call c = sort_call_of(j->keys.type, a->descending);
    sort_key_bits b = key_bits(r);
    sk_type ot = j->offsets.type == AK_UINT64 ? SK_UINT64 : SK_UINT32;
    sk_segments_host seg = {NULL, 0, j->offsets.data, ot, j->offsets.n};
    j->stats = (sk_stream_stats)SK_STREAM_STATS_INIT;
    j->stats.count = j->keys.n;
    if (has_values(r))
        return sk_segsort_pairs_bits_host(r->ctx, c.type, ak_dtype_size(j->values.type),
                                          j->keys.data, j->values.data, &seg, j->keys.n,
                                          c.order, b.begin, b.end);
    return sk_segsort_keys_bits_host(r->ctx, c.type, j->keys.data, &seg, j->keys.n, c.order,
                                     b.begin, b.end);
}

/* The headers of .npy outputs, before the streamed data. */
static int write_headers(ak_run *r, ak_err *e)
{
    sort_job *j = r->job;
    for (size_t i = 0; j->streamed && i < r->n_outputs; i++) {
        const ak_data *d = &j->sides[i].data;
        ak_format f = ak_output_format(AK_FORMAT_AUTO, r->outputs[i].path, d->format);
        uint64_t n = count_of(d);
        if (ak_output_write_header(&r->outputs[i].out, f, d->type,
                                   n == AK_SIZE_UNKNOWN ? 0 : (size_t)n, e) != 0)
            return -1;
    }
    return 0;
}

/* A failed sort's message: the reader's or writer's own, or the budget's. */
static int sort_failed(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    if (j->io_failed) {
        *e = j->io_err;
        return -1;
    }
    if (r->status != SK_E_SIZE || (!a->memory && !a->host_memory))
        return -1;
    return radixsort_fail_budget(a, ak_run_input_name(r), sk_context_error_detail(r->ctx), e);
}

/* The stream sort, its reading and writing counted as such. */
static int sort_data(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    char dir[4096];
    sk_stream_opts o = SK_STREAM_OPTS_INIT;
    if (a->segments)
        return ak_run_call(r, call_segsort, NULL, e);
    o.device_bytes = a->memory;
    o.host_bytes = a->host_memory;
    o.temp_dir = temp_dir_of(r, dir, sizeof dir);
    o.expected_bytes = expected_bytes(r);
    o.progress = show_progress;
    o.progress_user = r;
    if (write_headers(r, e) != 0)
        return -1;
    int rc = ak_run_call(r, call_sort, &o, e);
    ak_progress_end(&j->progress);
    if (rc != 0)
        return sort_failed(r, e);
    double read = 1e3 * j->stats.read_seconds, write = 1e3 * j->stats.write_seconds;
    r->times.compute -= read + write;
    if (r->times.compute < 0) r->times.compute = 0;
    r->times.read += read;
    r->times.write += write;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* --check                                                                   */
/* ------------------------------------------------------------------------ */

/* The order of the keys, or with --segments of each segment's keys. */
static int check_order(const ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    const sort_job *j = r->job;
    const char *prefix = "check: FAILED: ";
    if (!a->segments) return sort_check_order(&j->keys, a->descending, key_bits(r), prefix, e);
    size_t ks = ak_dtype_size(j->keys.type), n = j->keys.n;
    for (size_t s = 0; s < j->offsets.n; s++) {
        size_t lo = (size_t)ak_offset_at(&j->offsets, s);
        size_t hi = s + 1 < j->offsets.n ? (size_t)ak_offset_at(&j->offsets, s + 1) : n;
        ak_array seg = {j->keys.type, j->keys.format, hi - lo, (char *)j->keys.data + lo * ks};
        if (sort_check_order(&seg, a->descending, key_bits(r), prefix, e) != 0) {
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg); /* keys counted from the segment's start */
            return ak_fail(e, "%s in segment %zu (from key %zu)", why, s, lo);
        }
    }
    return 0;
}

/* Sorts; with --check, verifies the order and that the output holds the
 * input's (key, value) pairs bit for bit (fingerprinted before the sort). */
static int sort_and_check(ak_run *r, ak_err *e)
{
    const sort_args *a = r->args;
    sort_job *j = r->job;
    sort_print want = {0, 0}, got = {0, 0};
    double t0 = ak_now();
    if (a->check) sort_print_add(&want, &j->keys, &j->values);
    double fingerprint = ak_ms_since(t0);
    if (sort_data(r, e) != 0)
        return -1;
    if (!a->check)
        return 0;
    t0 = ak_now() - fingerprint / 1e3; /* the input's fingerprint counts as checking */
    int rc = check_order(r, e);
    if (rc == 0) {
        sort_print_add(&got, &j->keys, &j->values);
        if (!sort_print_equal(want, got))
            rc = ak_fail(e, "check: FAILED: the output is not a permutation of the input");
    }
    r->times.check = ak_ms_since(t0);
    if (rc == 0) fprintf(stderr, "check: ok (%zu keys sorted)\n", j->keys.n);
    return rc;
}

/* Written as they came back when streamed; else the arrays now. */
static int write_outputs(ak_run *r, ak_err *e)
{
    const sort_job *j = r->job;
    return j->streamed ? 0 : ak_run_write_arrays(r, e);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const sort_job *j = r->job;
    const sk_stream_stats *s = &j->stats;
    snprintf(n->read, sizeof n->read, "%llu keys of %s%s%s", (unsigned long long)s->count,
             ak_dtype_name(j->keys.type), has_values(r) ? ", values of " : "",
             has_values(r) ? ak_dtype_name(j->values.type) : "");
    ak_run_note_rate(r, n, (size_t)s->count, "keys");
    size_t used = strlen(n->compute);
    if (j->offsets.n || ((const sort_args *)r->args)->segments) {
        snprintf(n->compute + used, sizeof n->compute - used, "%s%zu segments",
                 used ? "; " : "", j->offsets.n);
        return;
    }
    snprintf(n->compute + used, sizeof n->compute - used,
             "%sdevice memory %llu bytes; %llu run%s of %llu, %llu spilled, %llu merge block%s",
             used ? "; " : "", (unsigned long long)s->device_bytes,
             (unsigned long long)s->runs, s->runs == 1 ? "" : "s",
             (unsigned long long)s->run_elements, (unsigned long long)s->spilled_runs,
             (unsigned long long)s->merge_blocks, s->merge_blocks == 1 ? "" : "s");
}

/* The reading threads and files, at the end of the run. */
static void release(ak_run *r)
{
    sort_job *j = r->job;
    for (int p = 0; p < 2; p++) {
        ak_prefetch_stop(j->sides[p].ahead);
        ak_data_close(&j->sides[p].data);
    }
}

static const ak_program RADIXSORT = {.cli = &radixsort_cli, .job_size = sizeof(sort_job),
                                     .plan = plan, .read = read_inputs,
                                     .compute = sort_and_check, .write = write_outputs,
                                     .notes = notes, .release = release};

int main(int argc, char **argv)
{
    return ak_main(&RADIXSORT, argc, argv);
}
