/*
 * og_harness.c - the Oclgrind drivers' shared harness (see og_harness.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "og_harness.h"
#include "sk_testing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t og_rng(og_harness *h)
{
    uint64_t z = (h->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int og_cl_ok(const og_harness *h, cl_int rc, const char *what)
{
    if (rc == CL_SUCCESS) return 1;
    fprintf(stderr, "%s: %s failed: %s\n", h->def->name, what, sk_cl_error_name(rc));
    return 0;
}

int og_sk_ok(const og_harness *h, const sk_context *ctx, sk_status st, const char *what)
{
    if (st == SK_OK) return 1;
    fprintf(stderr, "%s: %s failed: %s (%s)\n", h->def->name, what, sk_status_name(st),
            ctx ? sk_context_error_detail(ctx) : "no context");
    return 0;
}

sk_context *og_open(og_harness *h, const og_config *c)
{
    static const sk_param params[] = {SK_PARAM_SHAPE,      SK_PARAM_WG_SIZE,
                                      SK_PARAM_ITEMS_PER_THREAD, SK_PARAM_CPU_CHUNKS,
                                      SK_PARAM_CPU_SERIAL_BELOW, SK_PARAM_SCAN_PATH,
                                      SK_PARAM_CPU_SORT_LINES_FROM,
                                      SK_PARAM_CPU_SORT_BUCKET_BYTES};
    const long values[] = {c->shape,        c->wg,   c->items,     c->chunks,
                           c->serial_below, c->path, c->lines_from, c->bucket_bytes};
    sk_context *ctx = NULL;
    if (h->n_opened == OG_MAX_CONTEXTS) {
        fprintf(stderr, "%s: more than %d contexts\n", h->def->name, OG_MAX_CONTEXTS);
        return NULL;
    }
    if (!og_sk_ok(h, h->base,
                  sk_context_wrap(&ctx, sk_context_cl_context(h->base),
                                  sk_context_cl_device(h->base), sk_context_cl_queue(h->base)),
                  "sk_context_wrap"))
        return NULL;
    h->opened[h->n_opened++] = ctx;
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if (!og_sk_ok(h, ctx, sk_context_set_param(ctx, params[i], values[i]), "set_param"))
            return NULL;
    if (!og_sk_ok(h, ctx, sk__test_set_hooks(ctx, c->hooks | h->hooks), "sk__test_set_hooks"))
        return NULL;
    return ctx;
}

cl_mem og_buffer(og_harness *h, size_t bytes)
{
    cl_int rc = CL_SUCCESS;
    if (h->n_buffers == OG_MAX_BUFFERS) {
        fprintf(stderr, "%s: more than %d buffers\n", h->def->name, OG_MAX_BUFFERS);
        return NULL;
    }
    cl_mem m = clCreateBuffer(sk_context_cl_context(h->base), CL_MEM_READ_WRITE, bytes, NULL,
                              &rc);
    if (!og_cl_ok(h, rc, "clCreateBuffer")) return NULL;
    return h->buffers[h->n_buffers++] = m;
}

void *og_host(og_harness *h, size_t bytes)
{
    void *p = h->n_hosts < OG_MAX_BUFFERS ? malloc(bytes) : NULL;
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", h->def->name);
        return NULL;
    }
    return h->hosts[h->n_hosts++] = p;
}

int og_write(og_harness *h, cl_mem m, const void *p, size_t bytes)
{
    if (!bytes) return 1;
    return og_cl_ok(h, clEnqueueWriteBuffer(sk_context_cl_queue(h->base), m, CL_TRUE, 0, bytes,
                                            p, 0, NULL, NULL),
                    "clEnqueueWriteBuffer");
}

int og_read(og_harness *h, cl_mem m, void *p, size_t bytes)
{
    return og_cl_ok(h, clEnqueueReadBuffer(sk_context_cl_queue(h->base), m, CL_TRUE, 0, bytes,
                                           p, 0, NULL, NULL),
                    "clEnqueueReadBuffer");
}

size_t og_largest_size(const og_config *configs, size_t count)
{
    size_t most = 0;
    for (size_t c = 0; c < count; c++)
        if (configs[c].sizes[0] > most) most = configs[c].sizes[0];
    return most;
}

int og_all_poison(const void *p, size_t bytes)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        if (c[i] != OG_POISON) return 0;
    return 1;
}

int og_config_done(const og_harness *h, const og_config *c, int failures)
{
    printf("%s: %-38s %s\n", h->def->name, c->name, failures ? "FAILED" : "ok");
    return failures;
}

/* Under the oclgrind wrapper, Oclgrind's device must be the only one, and
 * every program must have been compiled from source (for the analysis). */
static int check_oclgrind(const og_harness *h)
{
    size_t count = 0;
    unsigned long from_disk = 0;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    if (!og_sk_ok(h, h->base, sk_device_list(NULL, 0, &count), "sk_device_list") ||
        !og_sk_ok(h, h->base, sk_context_device(h->base, &d), "sk_context_device"))
        return 0;
    for (size_t c = 0; c < h->n_opened; c++) {
        sk_build_stats b = SK_BUILD_STATS_INIT;
        if (!og_sk_ok(h, h->opened[c], sk_context_build_stats(h->opened[c], &b),
                      "sk_context_build_stats"))
            return 0;
        from_disk += b.from_disk;
    }
    if (count == 1 && strstr(d.platform_name, "Oclgrind") && from_disk == 0) return 1;
    fprintf(stderr,
            "%s: not running on Oclgrind alone: %zu device(s), platform \"%s\", "
            "%lu program(s) from the disk cache\n",
            h->def->name, count, d.platform_name, from_disk);
    return 0;
}

/* One "--name value" option; 0 for an unknown name or a bad value. */
static int parse_pair(og_harness *h, const char *name, const char *value)
{
    char *end = NULL;
    if (strcmp(name, "--seed") == 0) {
        h->seed = strtoull(value, &end, 0);
        return end && end != value && *end == '\0';
    }
    if (strcmp(name, "--cpu-builtin") == 0) {
        if (strcmp(value, "skip") == 0) h->select = OG_SKIP_CPU_BUILTIN;
        else if (strcmp(value, "only") == 0) h->select = OG_ONLY_CPU_BUILTIN;
        else return 0;
        return 1;
    }
    return h->def->option && h->def->option(h, name, value);
}

static int parse_args(og_harness *h, int argc, char **argv)
{
    int i = 1;
    h->seed = (uint64_t)time(NULL);
    while (i < argc) {
        if (strcmp(argv[i], "--expect-oclgrind") == 0) {
            h->expect_oclgrind = true;
            i += 1;
        } else if (i + 1 < argc && parse_pair(h, argv[i], argv[i + 1])) {
            i += 2;
        } else {
            return 0;
        }
    }
    return 1;
}

/* Contexts first, then the buffers they ran on, then the device's context. */
static int close_all(og_harness *h)
{
    int ok = 1;
    for (size_t c = 0; c < h->n_opened; c++) sk_context_free(h->opened[c]);
    for (size_t b = 0; b < h->n_buffers; b++)
        ok &= og_cl_ok(h, clReleaseMemObject(h->buffers[b]), "clReleaseMemObject");
    for (size_t b = 0; b < h->n_hosts; b++) free(h->hosts[b]);
    sk_context_free(h->base);
    return ok;
}

int og_main(const og_driver_def *def, void *user, int argc, char **argv)
{
    static og_harness h;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    int failures = 0;
    h.def = def;
    h.user = user;
    if (!parse_args(&h, argc, argv)) {
        fprintf(stderr, "usage: %s [--expect-oclgrind] [--seed S] [--cpu-builtin skip|only]%s\n",
                def->name, def->extra_usage ? def->extra_usage : "");
        return 2;
    }
    h.rng = h.seed;
    if (!og_sk_ok(&h, NULL, sk_context_create(&h.base, NULL, NULL, 0), "sk_context_create"))
        return 1;
    if (og_sk_ok(&h, h.base, sk_context_device(h.base, &d), "sk_context_device"))
        printf("%s: device \"%s\" (%s), seed %" PRIu64 "\n", def->name, d.device_name,
               d.platform_name, h.seed);
    else
        failures++;
    for (unsigned b = 1; b && b <= h.hooks; b <<= 1)
        if (h.hooks & b) printf("%s: test hook %s\n", def->name, sk__test_hook_name(b));
    if (!failures) failures += def->run(&h);
    if (h.expect_oclgrind) failures += !check_oclgrind(&h);
    failures += !close_all(&h);
    printf("%s: %s\n", def->name, failures ? "FAILED" : "all results correct");
    return failures ? 1 : 0;
}
