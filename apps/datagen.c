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

#include "appkit.h"
#include "datagen_args.h"

#include <stdlib.h>
#include <string.h>

static const char TOOL[] = DATAGEN_TOOL;

/* Elements generated and written per step when streaming. */
#define BLOCK_ELEMENTS ((size_t)1 << 20)

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

static int generate(const datagen_args *a, ak_err *e)
{
    size_t size = ak_dtype_size(a->spec.type);
    if (a->n > SIZE_MAX / size)
        return ak_fail(e, "-n %zu elements of %s is too large", a->n,
                       ak_dtype_name(a->spec.type));
    const char *path = ak_path_is_stdio(a->output) ? NULL : a->output;
    ak_output out;
    if (ak_output_open(&out, path, TOOL, e) != 0)
        return -1;
    ak_progress p;
    ak_progress_start(&p, TOOL, "writing", (uint64_t)a->n * size);
    int rc = ak_output_write_header(&out, a->format, a->spec.type, a->n, e);
    if (rc == 0)
        rc = ak_gen_is_streamable(&a->spec) ? write_streamed(a, &out, &p, e)
                                            : write_whole(a, &out, &p, e);
    ak_progress_end(&p);
    if (rc == 0)
        return ak_output_commit(&out, e);
    ak_output_abort(&out);
    return -1;
}

static void describe(const datagen_args *a)
{
    char dist[32];
    if (a->spec.dist == AK_DIST_ENTROPY)
        snprintf(dist, sizeof dist, "entropy:%u", a->spec.entropy_k);
    else
        snprintf(dist, sizeof dist, "%s", ak_dist_name(a->spec.dist));
    fprintf(stderr, "%s: wrote %zu elements of %s (%s, seed %llu%s%s) to %s as %s\n", TOOL,
            a->n, ak_dtype_name(a->spec.type), dist, (unsigned long long)a->spec.seed,
            a->range_text ? ", range " : "", a->range_text ? a->range_text : "",
            ak_display_name(a->output, 1), a->format == AK_FORMAT_NPY ? "npy" : "raw");
}

int main(int argc, char **argv)
{
    datagen_args a;
    int rc = datagen_parse_args(argc, argv, &a);
    if (rc != AK_EXIT_OK)
        return rc;
    if (a.help)
        return datagen_print_help();
    if (a.version)
        return ak_print_version(TOOL);
    ak_err e;
    if (generate(&a, &e) != 0) {
        ak_print_error(TOOL, e.msg);
        return AK_EXIT_FAIL;
    }
    if (a.verbose)
        describe(&a);
    return AK_EXIT_OK;
}
