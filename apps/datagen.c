/*
 * datagen - writes reproducible test and benchmark inputs.
 *
 *   datagen -n 16M -o keys.bin                       uniform uint32
 *   datagen -n 1000 --type float64 --dist sorted -o x.npy
 *   datagen -n 1G --dist entropy:3 --seed 7 -o - | scan - -o out.bin
 *
 * The values depend only on (n, type, dist, seed, range); the same
 * arguments write the same bytes on every machine. ak_gen_fill() in appkit
 * produces the same array in memory.
 */
#define _POSIX_C_SOURCE 200809L

#include "appkit_run.h"
#include "datagen_args.h"

#include <stdlib.h>

/* Elements generated and written per step when streaming. */
#define BLOCK_ELEMENTS ((size_t)1 << 20)

static const datagen_args *args_of(const ak_run *r)
{
    return r->args;
}

/* The one output, -o ('-': stdout); there is no input to name it after. */
static void plan(ak_run *r)
{
    ak_run_add_output(r, DATAGEN_TOOL, NULL, args_of(r)->format);
}

/* Nothing to read: the size is checked before the output is opened. */
static int check_size(ak_run *r, ak_err *e)
{
    const datagen_args *a = args_of(r);
    if (a->n > SIZE_MAX / ak_dtype_size(a->spec.type))
        return ak_fail(e, "-n %zu elements of %s is too large", a->n,
                       ak_dtype_name(a->spec.type));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Generation                                                                */
/* ------------------------------------------------------------------------ */

static int write_streamed(const datagen_args *a, ak_output *out, ak_progress *p, ak_err *e)
{
    ak_gen g;
    if (ak_gen_init(&g, &a->spec, e) != 0)
        return -1;
    size_t size = ak_dtype_size(a->spec.type);
    size_t block = a->n < BLOCK_ELEMENTS ? a->n : BLOCK_ELEMENTS;
    void *buf = malloc(block ? block * size : 1);
    if (!buf)
        return ak_fail(e, "out of memory");
    int rc = 0;
    for (size_t done = 0; done < a->n && rc == 0; done += block) {
        size_t count = a->n - done < block ? a->n - done : block;
        ak_gen_next_block(&g, buf, count);
        rc = ak_output_write(out, buf, count * size, p, e);
    }
    free(buf);
    return rc;
}

static int write_whole(const datagen_args *a, ak_output *out, ak_progress *p, ak_err *e)
{
    size_t size = ak_dtype_size(a->spec.type);
    void *buf = malloc(a->n ? a->n * size : 1);
    if (!buf)
        return ak_fail(e, "cannot allocate %zu elements of %s", a->n,
                       ak_dtype_name(a->spec.type));
    int rc = ak_gen_fill(&a->spec, buf, a->n, e);
    if (rc == 0)
        rc = ak_output_write(out, buf, a->n * size, p, e);
    free(buf);
    return rc;
}

/* The header, then the elements: streamed block by block where the
 * distribution allows, else generated whole. */
static int generate(ak_run *r, ak_err *e)
{
    const datagen_args *a = args_of(r);
    ak_output *out = &r->outputs[0].out;
    ak_progress p;
    ak_progress_start(&p, DATAGEN_TOOL, "writing", (uint64_t)a->n * ak_dtype_size(a->spec.type),
                      out->progress);
    int rc = ak_output_write_header(out, a->format, a->spec.type, a->n, e);
    if (rc == 0)
        rc = ak_gen_is_streamable(&a->spec) ? write_streamed(a, out, &p, e)
                                            : write_whole(a, out, &p, e);
    ak_progress_end(&p);
    return rc;
}

/* --verbose: what was written, on stderr. */
static void describe(const ak_run *r)
{
    const datagen_args *a = args_of(r);
    char dist[32];
    if (!a->verbose)
        return;
    if (a->spec.dist == AK_DIST_ENTROPY)
        snprintf(dist, sizeof dist, "entropy:%u", a->spec.entropy_k);
    else
        snprintf(dist, sizeof dist, "%s", ak_dist_name(a->spec.dist));
    fprintf(stderr, "%s: wrote %zu elements of %s (%s, seed %llu%s%s) to %s as %s\n",
            DATAGEN_TOOL, a->n, ak_dtype_name(a->spec.type), dist,
            (unsigned long long)a->spec.seed, a->range_text ? ", range " : "",
            a->range_text ? a->range_text : "", ak_display_name(a->output, 1),
            a->format == AK_FORMAT_NPY ? "npy" : "raw");
}

static const ak_program DATAGEN = {.cli = &datagen_cli, .plan = plan, .read = check_size,
                                   .write = generate, .report = describe};

int main(int argc, char **argv)
{
    return ak_main(&DATAGEN, argc, argv);
}
