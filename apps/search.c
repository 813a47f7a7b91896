/*
 * search - for every key of a file of needles, the index in a sorted file
 * of keys where it would go, on an OpenCL device: scankit's vectorised
 * lower_bound (or, with --upper, upper_bound).
 *
 *   search keys.sorted.bin q.bin             uint32; indices to q.lower.bin
 *   search keys.npy q.npy --upper            type from the .npy headers
 *   search desc.bin q.bin --descending -o idx.npy
 *
 * The indices are uint64, raw or .npy (by the output's name or --format).
 * The haystack is checked to be sorted first (the search of unsorted keys
 * is unspecified). Exit status: 0 success, 1 bad input or failure (one
 * line on stderr), 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "search_args.h"
#include "sort_check.h"

#include <stdlib.h>

typedef struct search_job {
    ak_array hay, needles, indices;
    cl_mem bufs[3]; /* on the device: the haystack, the needles, the indices */
} search_job;

/* The indices, named after NEEDLES. */
static void plan(ak_run *r)
{
    const search_args *a = r->args;
    search_job *j = r->job;
    ak_output_choice choice = {a->inputs[1], a->output, a->upper ? "upper" : "lower", 0, 0,
                               NULL, 0};
    ak_run_add_output_as(r, &choice, &j->indices, a->format);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

/* HAYSTACK and NEEDLES: of one scankit type (a raw NEEDLES is read as
 * HAYSTACK's type), HAYSTACK sorted; room for one index per needle. */
static int read_inputs(ak_run *r, ak_err *e)
{
    const search_args *a = r->args;
    search_job *j = r->job;
    const char *hay = ak_display_name(a->inputs[0], 0), *nd = ak_display_name(a->inputs[1], 0);
    if (ak_run_read(r, a->inputs[0], a->type, AK_UINT32, &j->hay, e) != 0 ||
        ak_check_sk_key_type(hay, j->hay.type, "searched", e) != 0 ||
        ak_run_read(r, a->inputs[1], a->type, j->hay.type, &j->needles, e) != 0)
        return -1;
    if (j->needles.type != j->hay.type)
        return ak_fail(e, "%s: %s elements where %s has %s (the keys must be of one type)", nd,
                       ak_dtype_name(j->needles.type), hay, ak_dtype_name(j->hay.type));
    if (sort_check_input(a->inputs[0], &j->hay, a->descending, e) != 0)
        return -1;
    j->indices = (ak_array){AK_UINT64, j->needles.format, j->needles.n,
                            malloc((j->needles.n + 1) * sizeof(uint64_t))};
    if (!j->indices.data) return ak_fail(e, "out of memory for %zu indices", j->needles.n);
    return ak_run_keep(r, &j->indices, e);
}

/* ------------------------------------------------------------------------ */
/* The search                                                                */
/* ------------------------------------------------------------------------ */

static sk_status run_search(ak_run *r)
{
    const search_args *a = r->args;
    const search_job *j = r->job;
    sort_call c = sort_call_of(j->hay.type, a->descending);
    const cl_mem *b = j->bufs;
    if (a->upper)
        return sk_search_upper_bound(r->ctx, c.type, b[0], b[1], b[2], j->hay.n, j->needles.n,
                                     c.order);
    return sk_search_lower_bound(r->ctx, c.type, b[0], b[1], b[2], j->hay.n, j->needles.n,
                                 c.order);
}

static int compute(ak_run *r, ak_err *e)
{
    search_job *j = r->job;
    size_t ks = ak_dtype_size(j->hay.type), ib = j->needles.n * sizeof(uint64_t);
    if (j->needles.n == 0) return 0;
    /* a buffer of one key at least: an empty haystack is still given */
    if (ak_run_buffer(r, j->hay.n ? j->hay.n * ks : ks, j->hay.n ? j->hay.data : NULL,
                      &j->bufs[0], e) != 0 ||
        ak_run_buffer(r, j->needles.n * ks, j->needles.data, &j->bufs[1], e) != 0 ||
        ak_run_buffer(r, ib, NULL, &j->bufs[2], e) != 0 ||
        ak_run_primitive(r, run_search, e) != 0)
        return -1;
    return ak_run_download(r, j->bufs[2], 0, j->indices.data, ib, e);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void notes(const ak_run *r, ak_time_notes *n)
{
    const search_job *j = r->job;
    snprintf(n->read, sizeof n->read, "%zu keys, %zu needles of %s", j->hay.n, j->needles.n,
             ak_dtype_name(j->hay.type));
    ak_run_note_rate(r, n, j->needles.n, "needles");
}

static const ak_program SEARCH = {.cli = &search_cli, .job_size = sizeof(search_job),
                                  .plan = plan, .read = read_inputs, .compute = compute,
                                  .notes = notes};

int main(int argc, char **argv)
{
    return ak_main(&SEARCH, argc, argv);
}
