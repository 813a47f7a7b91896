/*
 * bench_common.c - the cases, data, serial references, checks, harness and
 * CSV shared by bench_all and bench_cub (see bench_common.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- primitives and distributions --------------------------------------------------- */

static const char *const prim_names[BB_PRIM_COUNT] = {
    "scan_inclusive", "scan_exclusive", "reduce",     "select_if",   "partition",
    "sort_keys",      "sort_pairs",     "merge_keys", "merge_pairs", "segscan",
    "segreduce",      "poly_eval",      "lower_bound", "lower_bound_sorted",
    "reduce_by_key",  "rle",            "segsort_small", "segsort_large", "topk",
    "sort_less",      "histogram",      "sort_keys64",   "sort_pairs64",  "partition_reversed"};

const char *bb_prim_name(bb_prim p)
{
    return (unsigned)p < BB_PRIM_COUNT ? prim_names[p] : "?";
}

int bb_prim_parse(const char *name, bb_prim *out)
{
    for (int p = 0; p < BB_PRIM_COUNT; p++)
        if (!strcmp(name, prim_names[p])) {
            *out = (bb_prim)p;
            return 0;
        }
    return -1;
}

static bb_dist make_dist(ak_dist d, unsigned k)
{
    bb_dist r = {d, k, ""};
    if (d == AK_DIST_ENTROPY) snprintf(r.name, sizeof r.name, "entropy:%u", k);
    else snprintf(r.name, sizeof r.name, "%s", ak_dist_name(d));
    return r;
}

size_t bb_prim_dists(bb_prim p, bb_dist *out)
{
    size_t n = 0;
    out[n++] = make_dist(AK_DIST_UNIFORM, 1);
    switch (p) {
    case BB_SORT_KEYS:
    case BB_SORT_PAIRS:
    case BB_SORT_LESS:
    case BB_SORT_KEYS64:
    case BB_SORT_PAIRS64:
        for (unsigned k = 2; k <= 4; k++) out[n++] = make_dist(AK_DIST_ENTROPY, k);
        out[n++] = make_dist(AK_DIST_SORTED, 1);
        out[n++] = make_dist(AK_DIST_REVERSED, 1);
        out[n++] = make_dist(AK_DIST_EQUAL, 1);
        out[n++] = make_dist(AK_DIST_FEW_UNIQUE, 1);
        break;
    case BB_MERGE_KEYS:
    case BB_MERGE_PAIRS:
        /* sorted: every key of the first half comes first, reversed: every
         * key of the second; equal and few-unique: ties, a before b */
        out[n++] = make_dist(AK_DIST_SORTED, 1);
        out[n++] = make_dist(AK_DIST_REVERSED, 1);
        out[n++] = make_dist(AK_DIST_EQUAL, 1);
        out[n++] = make_dist(AK_DIST_FEW_UNIQUE, 1);
        break;
    case BB_LOWER_BOUND:
    case BB_LOWER_BOUND_SORTED:
        out[n++] = make_dist(AK_DIST_FEW_UNIQUE, 1); /* needles on runs of equal keys */
        break;
    case BB_TOPK:
        /* ties at the k-th key; a k-th key found in the first digit */
        out[n++] = make_dist(AK_DIST_FEW_UNIQUE, 1);
        out[n++] = make_dist(AK_DIST_EQUAL, 1);
        out[n++] = make_dist(AK_DIST_SORTED, 1);
        break;
    case BB_SELECT_IF:
    case BB_PARTITION:
    case BB_PARTITION_REVERSED:
    case BB_HISTOGRAM:
        /* the predicate keeps odd values: entropy:K keeps 2^-K of them,
         * equal all or none, few-unique runs of one answer; the histogram:
         * entropy:K fills the low bins first, equal one bin, few-unique 16 */
        for (unsigned k = 2; k <= 4; k++) out[n++] = make_dist(AK_DIST_ENTROPY, k);
        out[n++] = make_dist(AK_DIST_EQUAL, 1);
        out[n++] = make_dist(AK_DIST_FEW_UNIQUE, 1);
        break;
    default:
        break; /* scans, reduce, segments, poly: the values do not change the work */
    }
    return n;
}

/* ---- options --------------------------------------------------------------------------- */

/* The command line as read, before the defaults that depend on --quick.
 * Counts are UINT64_MAX and seconds NULL where not given. */
typedef struct bb_cli_args {
    bb_opts o;
    uint64_t min_log2, max_log2, step, repeats, min_repeats, warmups;
    uint64_t qsort_max_log2, serial_max_log2;
    const char *max_measure_s, *budget_s, *prims, *dists;
    int help;
} bb_cli_args;

#define BB_U64_ROW(name, field, value, help) \
    {name, 0, AK_OPT_U64, offsetof(bb_cli_args, field), value, help, NULL, 0}
#define BB_TEXT_ROW(name, field, value, help) \
    {name, 0, AK_OPT_TEXT, offsetof(bb_cli_args, field), value, help, NULL, 0}
#define BB_FLAG_ROW(name, field, help) \
    {name, 0, AK_OPT_FLAG, offsetof(bb_cli_args, field), NULL, help, NULL, 0}

/* The rows bench_all and bench_cub share. */
#define BB_COMMON_ROWS                                                                  \
    BB_FLAG_ROW("quick", o.quick, "sizes 2^10..2^16, 3 repeats, 1 warm-up: a smoke run"), \
    BB_U64_ROW("min-log2", min_log2, "K", "sizes n = 2^K from K (10) ..."),               \
    BB_U64_ROW("max-log2", max_log2, "K", "... to K (28; at most 34) ..."),               \
    BB_U64_ROW("step", step, "1|2", "... by this step in K (2)"),                         \
    BB_TEXT_ROW("budget", budget_s, "S",                                                  \
                "skip the remaining (larger) sizes once S seconds have\n"               \
                "passed, or when the next size would end past S"),                      \
    BB_U64_ROW("repeats", repeats, "R", "at most R timed runs per measurement (11)"),    \
    BB_U64_ROW("min-repeats", min_repeats, "R", "at least R timed runs (3)"),             \
    BB_U64_ROW("warmups", warmups, "W", "W untimed runs first (2)"),                      \
    BB_TEXT_ROW("max-measure-s", max_measure_s, "S",                                      \
                "stop repeating once S seconds were timed (1.0)"),                      \
    {"seed", 0, AK_OPT_U64, offsetof(bb_cli_args, o.seed), "S",                           \
     "the input seed (1), as datagen --seed", NULL, 0},                                 \
    BB_TEXT_ROW("prims", prims, "LIST",                                                   \
                "comma list of: scan_inclusive scan_exclusive reduce\n"                 \
                "select_if partition sort_keys sort_pairs merge_keys\n"                 \
                "merge_pairs segscan segreduce poly_eval lower_bound\n"                 \
                "lower_bound_sorted reduce_by_key rle segsort_small\n"                   \
                "segsort_large topk sort_less histogram sort_keys64\n"                  \
                "sort_pairs64 partition_reversed (default: all)"),                       \
    BB_TEXT_ROW("dists", dists, "LIST",                                                   \
                "only these distributions (uniform, entropy:2, entropy:3,\n"            \
                "entropy:4, sorted, reversed, equal, few-unique)"),                     \
    BB_U64_ROW("qsort-max-log2", qsort_max_log2, "K",                                     \
               "the qsort baseline only up to 2^K (24): it is slow"),                   \
    BB_U64_ROW("serial-max-log2", serial_max_log2, "K",                                   \
               "every serial baseline only up to 2^K (no limit)"),                      \
    BB_TEXT_ROW("csv", o.csv, "FILE", "write the CSV there (default: stdout)")

#define BB_HELP_ROW \
    {"help", 'h', AK_OPT_FLAG, offsetof(bb_cli_args, help), NULL, "show this help and exit", NULL, 0}

static const ak_opt opencl_rows[] = {
    BB_COMMON_ROWS,
    BB_TEXT_ROW("device", o.device, "SPEC",
                "as sk_context_create (\"P:D\", index, or a name part);\n"
                "default $SCANKIT_DEVICE, else the first GPU"),
    BB_TEXT_ROW("shape", o.shape, "cpu|gpu", "force scankit's kernel shape"),
    BB_TEXT_ROW("tile", o.tile, "WxI",
                "GPU shape: tiles of W work-items x I items for every\n"
                "primitive (SK_PARAM_WG_SIZE, SK_PARAM_ITEMS_PER_THREAD)"),
    BB_TEXT_ROW("chunks", o.chunks, "C",
                "CPU shape: C chunks per launch for every primitive\n"
                "(SK_PARAM_CPU_CHUNKS)"),
    BB_TEXT_ROW("sort-skip-from", o.sort_skip_from, "N",
                "GPU shape: radix sorts of N keys or more read the keys'\n"
                "bounds back and skip constant digits\n"
                "(SK_PARAM_GPU_SORT_SKIP_FROM)"),
    BB_TEXT_ROW("sort-bucket-bytes", o.sort_bucket_bytes, "B",
                "CPU shape: radix sorts go by buckets of the top digit\n"
                "where the largest holds at most B bytes; 1: never\n"
                "(SK_PARAM_CPU_SORT_BUCKET_BYTES)"),
    BB_FLAG_ROW("no-boost", o.no_boost, "leave Boost.Compute out"),
    BB_FLAG_ROW("no-host", o.no_host, "leave out the end-to-end host-array timings"),
    BB_FLAG_ROW("print-slug", o.print_slug, "print the device's results folder name and exit"),
    BB_HELP_ROW,
    AK_OPT_TABLE_END,
};

static const ak_opt cuda_rows[] = {BB_COMMON_ROWS, BB_HELP_ROW, AK_OPT_TABLE_END};

static void cli_defaults(void *args)
{
    bb_cli_args *a = args;
    a->min_log2 = a->max_log2 = a->step = UINT64_MAX;
    a->repeats = a->min_repeats = a->warmups = UINT64_MAX;
    a->qsort_max_log2 = a->serial_max_log2 = UINT64_MAX;
    a->o.seed = 1;
}

/* *out = v, or `def` when v was not given; fails outside [lo, hi]. */
static int count_or_default(const char *name, uint64_t v, int def, int lo, int hi, int *out,
                            ak_err *e)
{
    if (v == UINT64_MAX) v = (uint64_t)def;
    if (v < (uint64_t)lo || v > (uint64_t)hi)
        return ak_fail(e, "--%s must be from %d to %d", name, lo, hi);
    *out = (int)v;
    return 0;
}

/* *out = the seconds in s (>= 0), or `def` when s is NULL. */
static int seconds_or_default(const char *name, const char *s, double def, double *out,
                              ak_err *e)
{
    if (!s) {
        *out = def;
        return 0;
    }
    if (ak_parse_f64(s, out) || !(*out >= 0))
        return ak_fail(e, "--%s needs seconds >= 0, not '%s'", name, s);
    return 0;
}

static int parse_prims(const char *s, unsigned *mask, ak_err *e)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    *mask = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        bb_prim p;
        if (bb_prim_parse(t, &p)) return ak_fail(e, "unknown primitive '%s' in --prims", t);
        *mask |= 1u << p;
    }
    return *mask ? 0 : ak_fail(e, "--prims names no primitive");
}

static int check_counts(bb_cli_args *a, ak_err *e)
{
    bb_opts *o = &a->o;
    int q = o->quick;
    if (count_or_default("min-log2", a->min_log2, 10, 0, 40, &o->min_log2, e) ||
        count_or_default("max-log2", a->max_log2, q ? 16 : 28, 0, 34, &o->max_log2, e) ||
        count_or_default("step", a->step, 2, 1, 2, &o->step, e) ||
        count_or_default("repeats", a->repeats, q ? 3 : 11, 1, 1001, &o->repeats, e) ||
        count_or_default("min-repeats", a->min_repeats, q ? 1 : 3, 1, 1001, &o->min_repeats, e) ||
        count_or_default("warmups", a->warmups, q ? 1 : 2, 0, 100, &o->warmups, e) ||
        count_or_default("qsort-max-log2", a->qsort_max_log2, 24, 0, 40, &o->qsort_max_log2, e) ||
        count_or_default("serial-max-log2", a->serial_max_log2, 40, 0, 40, &o->serial_max_log2,
                         e))
        return -1;
    if (o->min_repeats > o->repeats) o->min_repeats = o->repeats;
    if (o->min_log2 > o->max_log2) return ak_fail(e, "--min-log2 is above --max-log2");
    return 0;
}

static int cli_check(void *args, ak_err *e)
{
    bb_cli_args *a = args;
    bb_opts *o = &a->o;
    if (check_counts(a, e) ||
        seconds_or_default("max-measure-s", a->max_measure_s, o->quick ? 0.05 : 1.0,
                           &o->max_measure_s, e) ||
        seconds_or_default("budget", a->budget_s, 0, &o->budget_s, e))
        return -1;
    o->prim_mask = (1u << BB_PRIM_COUNT) - 1;
    if (a->prims && parse_prims(a->prims, &o->prim_mask, e)) return -1;
    if (a->dists) snprintf(o->dist_filter, sizeof o->dist_filter, "%s", a->dists);
    if (o->shape && strcmp(o->shape, "cpu") && strcmp(o->shape, "gpu"))
        return ak_fail(e, "--shape must be cpu or gpu, not '%s'", o->shape);
    return 0;
}

int bb_opts_parse(bb_opts *o, int argc, char **argv, const char *prog, int opencl)
{
    char usage[128];
    snprintf(usage, sizeof usage, "%s [OPTION]...", prog);
    const ak_cli cli = {prog, usage, opencl ? opencl_rows : cuda_rows, sizeof(bb_cli_args),
                        cli_defaults, cli_check, NULL};
    bb_cli_args a;
    if (ak_parse_command_line(&cli, argc, argv, &a) != AK_EXIT_OK) return 2;
    if (a.help) {
        ak_print_cli_help(&cli);
        return 1;
    }
    *o = a.o;
    return 0;
}

int bb_dist_selected(const bb_opts *o, const bb_dist *d)
{
    if (!o->dist_filter[0]) return 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->dist_filter);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (!strcmp(t, d->name)) return 1;
    return 0;
}

/* ---- options of the one-primitive programs ------------------------------------------- */

static int log2_in_range(const char *name, uint64_t v, const bb_run_limits *lim, ak_err *e)
{
    if (v < (uint64_t)lim->log2_lo || v > (uint64_t)lim->log2_hi)
        return ak_fail(e, "--%s must be from %d to %d", name, lim->log2_lo, lim->log2_hi);
    return 0;
}

void bb_run_defaults(bb_run_args *a, int min_log2, int max_log2, int repeats, uint64_t seed)
{
    a->min_log2 = (uint64_t)min_log2;
    a->max_log2 = (uint64_t)max_log2;
    a->repeats = (uint64_t)repeats;
    a->seed = seed;
}

int bb_shape_check(const char *shape, ak_err *e)
{
    if (shape && strcmp(shape, "cpu") && strcmp(shape, "gpu"))
        return ak_fail(e, "--shape must be cpu or gpu, not '%s'", shape);
    return 0;
}

int bb_run_check(const bb_run_args *a, const bb_run_limits *lim, ak_err *e)
{
    if (log2_in_range("min-log2", a->min_log2, lim, e) ||
        log2_in_range("max-log2", a->max_log2, lim, e))
        return -1;
    if (a->min_log2 > a->max_log2) return ak_fail(e, "--min-log2 is above --max-log2");
    if (a->repeats < 1 || a->repeats > (uint64_t)lim->max_repeats)
        return ak_fail(e, "--repeats must be from 1 to %d", lim->max_repeats);
    return bb_shape_check(a->shape, e);
}

int bb_run_parse(const ak_cli *cli, int argc, char **argv, void *args)
{
    if (ak_parse_command_line(cli, argc, argv, args) != AK_EXIT_OK) return 2;
    if (((const bb_run_args *)args)->help) {
        ak_print_cli_help(cli);
        return 1;
    }
    return 0;
}

/* The program bb_run_parse_opts is parsing for (the hooks take no context). */
static const bb_run_spec *run_spec;

static void spec_defaults(void *args)
{
    const bb_run_spec *sp = run_spec;
    bb_run_defaults(args, sp->min_log2, sp->max_log2, sp->repeats,
                    sp->seed ? sp->seed : (uint64_t)time(NULL));
}

static int spec_check(void *args, ak_err *e) { return bb_run_check(args, &run_spec->limits, e); }

int bb_run_parse_opts(const bb_run_spec *spec, int argc, char **argv, bb_run_opts *o)
{
    char usage[128];
    snprintf(usage, sizeof usage, "%s [OPTION]...", spec->prog);
    const ak_cli cli = {spec->prog, usage, spec->rows, sizeof(bb_run_args), spec_defaults,
                        spec_check, NULL};
    bb_run_args a;
    run_spec = spec;
    int rc = bb_run_parse(&cli, argc, argv, &a);
    if (rc == 0)
        *o = (bb_run_opts){(int)a.min_log2, (int)a.max_log2, (int)a.repeats, a.device, a.shape,
                           a.csv, a.seed};
    return rc;
}

/* ---- setup of the one-primitive programs ---------------------------------------------- */

void bb_fill_random(uint32_t *p, size_t n, uint64_t seed)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++)
        p[i] = (uint32_t)(sk_splitmix64_next(&x) >> 32);
}

int bb_cl_fail(const char *prog, cl_int rc, const char *what)
{
    fprintf(stderr, "%s: %s: %s\n", prog, what, sk_cl_error_name(rc));
    return 1;
}

int bb_marker(const char *prog, cl_command_queue q, cl_event *ev)
{
    cl_int rc = clEnqueueMarkerWithWaitList(q, 0, NULL, ev);
    return rc == CL_SUCCESS ? 0 : bb_cl_fail(prog, rc, "clEnqueueMarkerWithWaitList");
}

int bb_marker_span_ms(const char *prog, cl_event first, cl_event last, double *ms)
{
    cl_ulong s = 0, e = 0;
    cl_int rc = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    if (rc != CL_SUCCESS) return bb_cl_fail(prog, rc, "clGetEventProfilingInfo");
    *ms = (double)(e - s) * 1e-6;
    return 0;
}

int bb_sk_fail(const char *prog, const sk_context *ctx, sk_status st, const char *what)
{
    fprintf(stderr, "%s: %s: %s (%s)\n", prog, what, sk_status_str(st),
            ctx ? sk_context_error_detail(ctx) : "");
    return 1;
}

int bb_io_open(bb_io *io, const char *prog, sk_context *ctx, size_t n, uint64_t seed)
{
    cl_int rc = CL_SUCCESS;
    size_t bytes = n * sizeof(uint32_t);
    io->in = malloc(bytes);
    io->want = malloc(bytes);
    io->got = malloc(bytes);
    if (!io->in || !io->want || !io->got) {
        fprintf(stderr, "%s: out of host memory (3 x %zu bytes)\n", prog, bytes);
        return 1;
    }
    bb_fill_random(io->in, n, seed);
    cl_context cl = sk_context_cl_context(ctx);
    io->src = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc != CL_SUCCESS) return bb_cl_fail(prog, rc, "clCreateBuffer(src)");
    io->dst = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc != CL_SUCCESS) return bb_cl_fail(prog, rc, "clCreateBuffer(dst)");
    rc = clEnqueueWriteBuffer(sk_context_cl_queue(ctx), io->src, CL_TRUE, 0, bytes, io->in, 0,
                              NULL, NULL);
    return rc == CL_SUCCESS ? 0 : bb_cl_fail(prog, rc, "clEnqueueWriteBuffer(src)");
}

int bb_io_close(bb_io *io)
{
    int bad = 0;
    if (io->src && clReleaseMemObject(io->src) != CL_SUCCESS) bad = 1;
    if (io->dst && clReleaseMemObject(io->dst) != CL_SUCCESS) bad = 1;
    free(io->in);
    free(io->want);
    free(io->got);
    return bad;
}

sk_status bb_context_open(sk_context **ctx, const char *device, const char *shape,
                          const char **what)
{
    *what = "opening the device";
    sk_status st = sk_context_create(ctx, device, NULL, 0);
    if (st != SK_OK) return st;
    *what = "setting the shape";
    if (shape)
        st = sk_context_set_param(*ctx, SK_PARAM_SHAPE,
                                  !strcmp(shape, "cpu") ? SK_SHAPE_CPU : SK_SHAPE_GPU);
    if (st != SK_OK) return st;
    *what = "turning profiling on";
    return sk_context_set_param(*ctx, SK_PARAM_PROFILE, 1);
}

int bb_context_setup(const char *prog, sk_context **ctx, const char *device, const char *shape,
                     char *name, size_t cap, const char **shape_name)
{
    const char *what = NULL;
    sk_status st = bb_context_open(ctx, device, shape, &what);
    if (st == SK_OK) {
        what = "configuring the context";
        st = bb_context_describe(*ctx, name, cap, shape_name);
    }
    return st == SK_OK ? 0 : bb_sk_fail(prog, *ctx, st, what);
}

int bb_cap_log2(const char *prog, int log2, size_t *n)
{
    if (log2 >= (int)(sizeof(size_t) * 8 - 3)) {
        fprintf(stderr, "%s: 2^%d elements do not fit in memory\n", prog, log2);
        return 1;
    }
    *n = (size_t)1 << log2;
    return 0;
}

int bb_sized_main(const bb_sized *p, void *b, int min_log2, int max_log2)
{
    int wrong = 0, failed = p->open(b);
    if (!failed) p->header(b);
    for (int k = min_log2; !failed && k <= max_log2; k++)
        failed = p->run_size(b, (size_t)1 << k, &wrong);
    failed |= p->close(b);
    if (wrong) fprintf(stderr, "%s: %d wrong result(s)\n", p->prog, wrong);
    return failed || wrong ? 1 : 0;
}

sk_status bb_context_describe(sk_context *ctx, char *name, size_t cap, const char **shape)
{
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    long s = 0;
    sk_status st = sk_context_get_param(ctx, SK_PARAM_SHAPE, &s);
    if (st == SK_OK) st = sk_context_device(ctx, &d);
    if (st != SK_OK) return st;
    snprintf(name, cap, "%s (%s)", d.device_name, d.platform_name);
    *shape = s == SK_SHAPE_CPU ? "cpu" : "gpu";
    return SK_OK;
}

/* ---- data ---------------------------------------------------------------------------------- */

/* n integers of `type` and distribution d from seed, as datagen writes them. */
static int gen_ints(void *out, size_t n, ak_dtype type, const bb_dist *d, uint64_t seed)
{
    ak_gen_spec spec = {0};
    ak_err e;
    spec.type = type;
    spec.dist = d->dist;
    spec.entropy_k = d->k ? d->k : 1;
    spec.seed = seed;
    return ak_gen_fill(&spec, out, n, &e);
}

int bb_gen_keys(uint32_t *out, size_t n, const bb_dist *d, uint64_t seed)
{
    return gen_ints(out, n, AK_UINT32, d, seed);
}

int bb_gen_keys64(uint64_t *out, size_t n, const bb_dist *d, uint64_t seed)
{
    return gen_ints(out, n, AK_UINT64, d, seed);
}

int bb_gen_coeffs(double *out, size_t n, uint64_t seed)
{
    ak_gen_spec spec = {0};
    ak_err e;
    spec.type = AK_FLOAT64;
    spec.dist = AK_DIST_UNIFORM;
    spec.entropy_k = 1;
    spec.seed = seed;
    spec.has_range = 1;
    spec.lo.f = -1.0;
    spec.hi.f = 1.0;
    return ak_gen_fill(&spec, out, n, &e);
}

void bb_gen_segments(size_t n, uint64_t seed, uint8_t *flags, uint32_t *offsets,
                     size_t *nseg, uint32_t *seg_ids)
{
    sk_rng r;
    sk_rng_seed(&r, seed ^ 0x5e65e65e65e65e6ull);
    size_t s = 0, i = 0;
    while (i < n) {
        size_t len = 1 + (size_t)sk_rng_below(&r, BB_SEG_MAX_LEN);
        if (len > n - i) len = n - i;
        offsets[s] = (uint32_t)i;
        for (size_t j = 0; j < len; j++) {
            flags[i + j] = j == 0;
            seg_ids[i + j] = (uint32_t)s;
        }
        i += len;
        s++;
    }
    offsets[s] = (uint32_t)n;
    *nseg = s;
}

/* The segmented sort's segments for p (see BB_SEGSORT_SMALL_MAX); *nseg
 * of them, offsets[nseg] = n. */
static void gen_sort_segments(bb_prim p, size_t n, uint64_t seed, uint32_t *offsets,
                              size_t *nseg)
{
    sk_rng r;
    sk_rng_seed(&r, seed ^ 0x5e650127e5e65e6ull);
    size_t s = 0, i = 0;
    while (i < n) {
        size_t len = p == BB_SEGSORT_SMALL
                         ? 1 + (size_t)sk_rng_below(&r, BB_SEGSORT_SMALL_MAX)
                         : BB_SEGSORT_LARGE_MIN + (size_t)sk_rng_below(&r, BB_SEGSORT_LARGE_MIN + 1);
        offsets[s++] = (uint32_t)i;
        i += len < n - i ? len : n - i;
    }
    offsets[s] = (uint32_t)n;
    *nseg = s;
}

uint64_t bb_checksum(const void *data, size_t bytes, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int bb_inputs_alloc(bb_inputs *in, size_t n, uint64_t seed)
{
    memset(in, 0, sizeof *in);
    in->n = n;
    in->seed = seed;
    size_t m = n ? n : 1;
    in->keys = malloc(m * sizeof(uint32_t));
    in->values = malloc(m * sizeof(uint32_t));
    in->offsets = malloc((m + 1) * sizeof(uint32_t));
    in->sort_offsets = malloc((m + 1) * sizeof(uint32_t));
    in->seg_ids = malloc(m * sizeof(uint32_t));
    in->flags = malloc(m);
    in->coeffs = malloc(m * sizeof(double));
    in->ref_out = malloc(m * sizeof(uint32_t));
    in->ref_out2 = malloc(m * sizeof(uint32_t));
    in->scratch = malloc(2 * m * sizeof(uint32_t));
    in->halves = malloc(m * sizeof(uint32_t));
    if (!in->keys || !in->values || !in->offsets || !in->sort_offsets || !in->seg_ids ||
        !in->flags ||
        !in->coeffs || !in->ref_out || !in->ref_out2 || !in->scratch || !in->halves) {
        bb_inputs_free(in);
        return -1;
    }
    for (size_t i = 0; i < n; i++) in->values[i] = (uint32_t)i;
    return 0;
}

void bb_inputs_free(bb_inputs *in)
{
    free(in->keys);
    free(in->values);
    free(in->offsets);
    free(in->sort_offsets);
    free(in->seg_ids);
    free(in->flags);
    free(in->coeffs);
    free(in->ref_out);
    free(in->ref_out2);
    free(in->scratch);
    free(in->halves);
    free(in->keys64);
    free(in->scratch64);
    free(in->ref_out64);
    memset(in, 0, sizeof *in);
}

/* ---- serial code ----------------------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* LSD radix sort of keys of type KT, 8-bit digits, every digit's histogram
 * in one pass, digits that are equal in every key skipped; keys k (and
 * uint32 values v, may be NULL) sorted in place through tk and tv. Stable. */
#define BB_RADIX_SORT(name, KT)                                                               \
    static void name(KT *k, uint32_t *v, KT *tk, uint32_t *tv, size_t n)                     \
    {                                                                                     \
        enum { DIGITS = sizeof(KT) };                                                     \
        size_t hist[DIGITS][256];                                                         \
        memset(hist, 0, sizeof hist);                                                     \
        for (size_t i = 0; i < n; i++)                                                    \
            for (int d = 0; d < DIGITS; d++) hist[d][(k[i] >> (8 * d)) & 255]++;          \
        KT *sk = k, *dk = tk;                                                             \
        uint32_t *sv = v, *dv = tv;                                                       \
        for (int pass = 0; pass < DIGITS && n > 1; pass++) {                              \
            int shift = 8 * pass;                                                         \
            size_t *h = hist[pass];                                                       \
            if (h[(sk[0] >> shift) & 255] == n) continue;                                 \
            size_t sum = 0;                                                               \
            for (int d = 0; d < 256; d++) {                                               \
                size_t c = h[d];                                                          \
                h[d] = sum;                                                               \
                sum += c;                                                                 \
            }                                                                             \
            if (v) {                                                                      \
                for (size_t i = 0; i < n; i++) {                                          \
                    size_t pos = h[(sk[i] >> shift) & 255]++;                             \
                    dk[pos] = sk[i];                                                      \
                    dv[pos] = sv[i];                                                      \
                }                                                                         \
            } else {                                                                      \
                for (size_t i = 0; i < n; i++) dk[h[(sk[i] >> shift) & 255]++] = sk[i];   \
            }                                                                             \
            KT *t = sk;                                                                   \
            sk = dk;                                                                      \
            dk = t;                                                                       \
            uint32_t *tvv = sv;                                                           \
            sv = dv;                                                                      \
            dv = tvv;                                                                     \
        }                                                                                 \
        if (sk != k) {                                                                    \
            memcpy(k, sk, n * sizeof *k);                                                 \
            if (v) memcpy(v, sv, n * sizeof *v);                                          \
        }                                                                                 \
    }
BB_RADIX_SORT(radix_sort, uint32_t)
BB_RADIX_SORT(radix_sort64, uint64_t)

/* A 64-bit key and its value (the input index), for qsort. */
typedef struct pair64 {
    uint64_t key, value;
} pair64;

static int cmp_pair64(const void *a, const void *b)
{
    const pair64 *x = a, *y = b;
    if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
    return (x->value > y->value) - (x->value < y->value);
}

/* The 64-bit sorts: c->keys64 sorted into out (and the values into out2
 * for sort_pairs64) by the radix sort or qsort, through tmp (n uint32)
 * and tmp64 (2n uint64). */
static void serial_sort64(const bb_case *c, bb_serial variant, uint64_t *out, uint32_t *out2,
                          uint32_t *tmp, uint64_t *tmp64)
{
    size_t n = c->n;
    int pairs = c->prim == BB_SORT_PAIRS64;
    if (variant != BB_SERIAL_QSORT) {
        memcpy(out, c->keys64, n * sizeof *out);
        if (pairs) memcpy(out2, c->values, n * sizeof *out2);
        radix_sort64(out, pairs ? out2 : NULL, tmp64, tmp, n);
    } else if (!pairs) {
        memcpy(out, c->keys64, n * sizeof *out);
        qsort(out, n, sizeof *out, cmp_u64);
    } else {
        /* ordered by key, then value: the values are the indices, so
         * that is the stable order */
        pair64 *p = (pair64 *)(void *)tmp64;
        for (size_t i = 0; i < n; i++) p[i] = (pair64){c->keys64[i], c->values[i]};
        qsort(p, n, sizeof *p, cmp_pair64);
        for (size_t i = 0; i < n; i++) {
            out[i] = p[i].key;
            out2[i] = (uint32_t)p[i].value;
        }
    }
}

/* The histogram by sk_histogram_even()'s definition: a 64-bit division per
 * element (see BB_HIST_BINS). */
static void serial_histogram(const uint32_t *in, size_t n, uint64_t *counts)
{
    const uint64_t range = (uint64_t)BB_HIST_HI;
    memset(counts, 0, BB_HIST_BINS * sizeof *counts);
    for (size_t i = 0; i < n; i++)
        if (in[i] < range) counts[(uint64_t)in[i] * BB_HIST_BINS / range]++;
}

/* Stable two-pointer merge of the sorted a[0, na) and b[0, nb) into out:
 * among equal keys a's come first. va and vb (NULL: keys only) move with
 * their keys into vout. */
static void merge_serial(const uint32_t *a, const uint32_t *va, size_t na, const uint32_t *b,
                         const uint32_t *vb, size_t nb, uint32_t *out, uint32_t *vout)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb) {
        if (b[j] < a[i]) {
            if (vout) vout[k] = vb[j];
            out[k++] = b[j++];
        } else {
            if (vout) vout[k] = va[i];
            out[k++] = a[i++];
        }
    }
    memcpy(out + k, a + i, (na - i) * sizeof *out);
    memcpy(out + k + (na - i), b + j, (nb - j) * sizeof *out);
    if (vout) {
        memcpy(vout + k, va + i, (na - i) * sizeof *vout);
        memcpy(vout + k + (na - i), vb + j, (nb - j) * sizeof *vout);
    }
}

/* out[j] for j < nn: the first i with hay[i] >= needles[j] (na if none),
 * a binary search per needle. */
static void lower_bound_serial(const uint32_t *hay, size_t na, const uint32_t *needles,
                               size_t nn, uint32_t *out)
{
    for (size_t j = 0; j < nn; j++) {
        size_t lo = 0, hi = na;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (hay[mid] < needles[j]) lo = mid + 1;
            else hi = mid;
        }
        out[j] = (uint32_t)lo;
    }
}

/* reduce_by_key (the sum of `keys` over each run of equal segment ids
 * into out, the ids into out2) or rle (each run's id into out, its length
 * into out2), comparing each key with the one before. @return the runs. */
static size_t serial_by_key(const bb_case *c, uint32_t *out, uint32_t *out2)
{
    const uint32_t *ids = c->seg_ids, *in = c->keys;
    int rle = c->prim == BB_RLE;
    size_t runs = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (i == 0 || ids[i] != ids[i - 1]) {
            out[runs] = rle ? ids[i] : 0;
            out2[runs++] = rle ? 0 : ids[i];
        }
        if (rle) out2[runs - 1]++;
        else out[runs - 1] += in[i];
    }
    return runs;
}

void bb_serial_run(const bb_case *c, bb_serial variant, uint32_t *out, uint32_t *out2,
                   uint64_t *out64, uint32_t *tmp, uint64_t *tmp64, size_t *count,
                   uint32_t *scalar, double *poly)
{
    const uint32_t *in = c->keys;
    size_t n = c->n;
    uint32_t acc = 0;
    switch (c->prim) {
    case BB_SCAN_INCLUSIVE:
        for (size_t i = 0; i < n; i++) out[i] = acc += in[i];
        break;
    case BB_SCAN_EXCLUSIVE:
        for (size_t i = 0; i < n; i++) {
            out[i] = acc;
            acc += in[i];
        }
        break;
    case BB_REDUCE:
        for (size_t i = 0; i < n; i++) acc += in[i];
        *scalar = acc;
        break;
    case BB_SELECT_IF: {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if ((in[i] & 1u) != 0) out[k++] = in[i];
        *count = k;
        break;
    }
    case BB_PARTITION: {
        size_t sel = 0;
        for (size_t i = 0; i < n; i++) sel += (in[i] & 1u) != 0;
        size_t a = 0, b = sel;
        for (size_t i = 0; i < n; i++) {
            if ((in[i] & 1u) != 0) out[a++] = in[i];
            else out[b++] = in[i];
        }
        *count = sel;
        break;
    }
    case BB_PARTITION_REVERSED: {
        size_t a = 0, b = n;
        for (size_t i = 0; i < n; i++) {
            if ((in[i] & 1u) != 0) out[a++] = in[i];
            else out[--b] = in[i];
        }
        *count = a;
        break;
    }
    case BB_SORT_KEYS:
    case BB_SORT_LESS:
        memcpy(out, in, n * sizeof *out);
        if (variant == BB_SERIAL_QSORT) qsort(out, n, sizeof *out, cmp_u32);
        else radix_sort(out, NULL, tmp, NULL, n);
        break;
    case BB_SORT_PAIRS:
        if (variant == BB_SERIAL_QSORT) {
            /* (key, value) packed in one 64-bit word: the values are the
             * indices, so ordering by both is the stable order */
            uint64_t *p = (uint64_t *)(void *)tmp;
            for (size_t i = 0; i < n; i++) p[i] = (uint64_t)in[i] << 32 | c->values[i];
            qsort(p, n, sizeof *p, cmp_u64);
            for (size_t i = 0; i < n; i++) {
                out[i] = (uint32_t)(p[i] >> 32);
                out2[i] = (uint32_t)p[i];
            }
        } else {
            memcpy(out, in, n * sizeof *out);
            memcpy(out2, c->values, n * sizeof *out2);
            radix_sort(out, out2, tmp, tmp + n, n);
        }
        break;
    case BB_MERGE_KEYS:
        merge_serial(in, NULL, c->na, in + c->na, NULL, n - c->na, out, NULL);
        break;
    case BB_MERGE_PAIRS:
        merge_serial(in, c->values, c->na, in + c->na, c->values + c->na, n - c->na, out, out2);
        break;
    case BB_SEGSCAN:
        for (size_t i = 0; i < n; i++) out[i] = acc = c->flags[i] ? in[i] : acc + in[i];
        break;
    case BB_SEGREDUCE:
        for (size_t s = 0; s < c->nseg; s++) {
            uint32_t t = 0;
            for (size_t i = c->offsets[s]; i < c->offsets[s + 1]; i++) t += in[i];
            out[s] = t;
        }
        *count = c->nseg;
        break;
    case BB_REDUCE_BY_KEY:
    case BB_RLE:
        *count = serial_by_key(c, out, out2);
        break;
    case BB_POLY: {
        double r = 0.0, x = c->x;
        for (size_t i = n; i-- > 0;) r = r * x + c->coeffs[i];
        *poly = r;
        break;
    }
    case BB_LOWER_BOUND:
    case BB_LOWER_BOUND_SORTED:
        lower_bound_serial(in, c->na, in + c->na, n - c->na, out);
        break;
    case BB_SEGSORT_SMALL:
    case BB_SEGSORT_LARGE:
        memcpy(out, in, n * sizeof *out);
        for (size_t s = 0; s < c->nseg; s++) {
            uint32_t *k = out + c->offsets[s];
            size_t len = c->offsets[s + 1] - c->offsets[s];
            if (variant == BB_SERIAL_QSORT) qsort(k, len, sizeof *k, cmp_u32);
            else radix_sort(k, NULL, tmp, NULL, len);
        }
        break;
    case BB_TOPK: /* the serial sort's first bb_topk_k(n) keys */
        memcpy(out, in, n * sizeof *out);
        radix_sort(out, NULL, tmp, NULL, n);
        break;
    case BB_HISTOGRAM:
        serial_histogram(in, n, out64);
        break;
    case BB_SORT_KEYS64:
    case BB_SORT_PAIRS64:
        serial_sort64(c, variant, out64, out2, tmp, tmp64);
        break;
    default:
        break;
    }
}

/* The merges' input: in->keys with each half sorted (the serial radix sort;
 * scratch as its buffer); with `second` 0, the first half only (a
 * search's haystack, its needles as generated). Made once per
 * distribution and kind. */
static const uint32_t *sorted_halves(bb_inputs *in, size_t na, int second)
{
    size_t n = in->n;
    if (!in->have_halves || strcmp(in->halves_dist.name, in->dist.name) ||
        in->halves_second != second) {
        memcpy(in->halves, in->keys, n * sizeof *in->halves);
        radix_sort(in->halves, NULL, in->scratch, NULL, na);
        if (second) radix_sort(in->halves + na, NULL, in->scratch, NULL, n - na);
        in->halves_dist = in->dist;
        in->halves_second = second;
        in->have_halves = 1;
    }
    return in->halves;
}

/* The uint64 arrays of `in` that p needs (the reference's out64; the
 * 64-bit sorts' keys and scratch), allocated on first use. @return 0 or
 * -1 (why). */
static int inputs_wide(bb_inputs *in, bb_prim p, char *why, size_t cap)
{
    size_t m = in->n ? in->n : 1;
    if (!in->ref_out64)
        in->ref_out64 = malloc((m > BB_HIST_BINS ? m : BB_HIST_BINS) * sizeof(uint64_t));
    if (in->ref_out64 && bb_is_keys64(p) && !in->keys64) {
        in->keys64 = malloc(m * sizeof(uint64_t));
        in->scratch64 = malloc(2 * m * sizeof(uint64_t));
    }
    if (in->ref_out64 && (!bb_is_keys64(p) || (in->keys64 && in->scratch64))) return 0;
    snprintf(why, cap, "out of host memory for the uint64 arrays");
    return -1;
}

/* c->keys64: in's uint64 keys of distribution d, generated when missing.
 * @return 0 or -1 (why). */
static int case_keys64(bb_case *c, bb_inputs *in, const bb_dist *d, char *why, size_t cap)
{
    if (inputs_wide(in, c->prim, why, cap)) return -1;
    if (!in->have_keys64 || strcmp(in->dist64.name, d->name)) {
        if (bb_gen_keys64(in->keys64, in->n, d, in->seed)) {
            snprintf(why, cap, "generating %s uint64 keys failed", d->name);
            return -1;
        }
        in->have_keys64 = 1;
        in->dist64 = *d;
    }
    c->keys64 = in->keys64;
    return 0;
}

int bb_case_prepare(bb_case *c, bb_inputs *in, bb_prim p, const bb_dist *d, char *why,
                    size_t cap)
{
    size_t n = in->n;
    memset(c, 0, sizeof *c);
    c->prim = p;
    c->n = n;
    c->dist = *d;
    c->seed = in->seed;
    c->x = BB_POLY_X;
    c->na = n / 2;
    int merge = p == BB_MERGE_KEYS || p == BB_MERGE_PAIRS;
    int search = p == BB_LOWER_BOUND || p == BB_LOWER_BOUND_SORTED;
    uint64_t h = BB_CHECKSUM_INIT;
    if (p == BB_POLY) {
        if (!in->have_coeffs) {
            if (bb_gen_coeffs(in->coeffs, n, in->seed)) {
                snprintf(why, cap, "generating the coefficients failed");
                return -1;
            }
            in->have_coeffs = 1;
        }
        c->coeffs = in->coeffs;
        h = bb_checksum(in->coeffs, n * sizeof(double), h);
    } else if (bb_is_keys64(p)) {
        if (case_keys64(c, in, d, why, cap)) return -1;
        h = bb_checksum(c->keys64, n * sizeof(uint64_t), h);
    } else {
        if (!in->have_keys || strcmp(in->dist.name, d->name)) {
            if (bb_gen_keys(in->keys, n, d, in->seed)) {
                snprintf(why, cap, "generating %s keys failed", d->name);
                return -1;
            }
            in->have_keys = 1;
            in->dist = *d;
        }
        c->keys = merge || search ? sorted_halves(in, c->na, p != BB_LOWER_BOUND) : in->keys;
        h = bb_checksum(c->keys, n * sizeof(uint32_t), h);
    }
    if (p == BB_HISTOGRAM) {
        /* the bins are part of the input: another layout is another case */
        const double bins[2] = {(double)BB_HIST_BINS, BB_HIST_HI};
        h = bb_checksum(bins, sizeof bins, h);
    }
    if (bb_is_pairs_sort(p) || p == BB_MERGE_PAIRS) {
        c->values = in->values;
        h = bb_checksum(in->values, n * sizeof(uint32_t), h);
    }
    if (p == BB_SEGSCAN || p == BB_SEGREDUCE || p == BB_REDUCE_BY_KEY || p == BB_RLE) {
        if (!in->have_segments) {
            bb_gen_segments(n, in->seed, in->flags, in->offsets, &in->nseg, in->seg_ids);
            in->have_segments = 1;
        }
        c->flags = in->flags;
        c->offsets = in->offsets;
        c->seg_ids = in->seg_ids;
        c->nseg = in->nseg;
        h = bb_checksum(in->offsets, (in->nseg + 1) * sizeof(uint32_t), h);
    }
    if (p == BB_SEGSORT_SMALL || p == BB_SEGSORT_LARGE) {
        if (in->sort_seg_prim != (int)p) {
            gen_sort_segments(p, n, in->seed, in->sort_offsets, &in->sort_nseg);
            in->sort_seg_prim = (int)p;
        }
        c->offsets = in->sort_offsets;
        c->nseg = in->sort_nseg;
        h = bb_checksum(in->sort_offsets, (in->sort_nseg + 1) * sizeof(uint32_t), h);
    }
    c->checksum = h;

    /* the reference */
    size_t count = 0;
    uint32_t scalar = 0;
    double poly = 0;
    if (bb_has_out64(p) && inputs_wide(in, p, why, cap)) return -1;
    bb_serial_run(c, BB_SERIAL_LOOP, in->ref_out, in->ref_out2, in->ref_out64, in->scratch,
                  in->scratch64, &count, &scalar, &poly);
    c->ref_out = in->ref_out;
    c->ref_out2 = in->ref_out2;
    c->ref_out64 = bb_has_out64(p) ? in->ref_out64 : NULL;
    c->ref_count = count;
    c->ref_scalar = scalar;
    if (p == BB_SORT_KEYS || p == BB_SORT_PAIRS || p == BB_SORT_LESS || merge) {
        for (size_t i = 1; i < n; i++)
            if (c->ref_out[i - 1] > c->ref_out[i]) {
                snprintf(why, cap, "the serial reference %s is not sorted at [%zu]",
                         merge ? "merge" : "sort", i);
                return -1;
            }
    }
    for (size_t i = 1; bb_is_keys64(p) && i < n; i++)
        if (c->ref_out64[i - 1] > c->ref_out64[i]) {
            snprintf(why, cap, "the serial reference sort is not sorted at [%zu]", i);
            return -1;
        }
    if (p == BB_POLY) {
        /* long double Horner and the documented bound gamma(2d) sum |a_i| |x|^i */
        long double r = 0.0L, s = 0.0L, x = (long double)c->x, ax = fabsl(x);
        for (size_t i = n; i-- > 0;) {
            r = r * x + (long double)c->coeffs[i];
            s = s * ax + fabsl((long double)c->coeffs[i]);
        }
        double d2 = 2.0 * (double)(n ? n - 1 : 0), u = DBL_EPSILON / 2;
        double gamma = d2 * u < 1 ? d2 * u / (1 - d2 * u) : INFINITY;
        c->ref_poly = (double)r;
        /* plus the rounding of the reference to double, and underflow */
        c->poly_bound = gamma * (double)s + fabs(c->ref_poly) * DBL_EPSILON + 4 * DBL_MIN;
    }
    return 0;
}

/* ---- checks --------------------------------------------------------------------------------- */

static int mismatch(const uint32_t *got, const uint32_t *want, size_t n, const char *what,
                    char *why, size_t cap)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(why, cap, "%s[%zu] = %" PRIu32 ", want %" PRIu32, what, i, got[i], want[i]);
            return 1;
        }
    return 0;
}

static int mismatch64(const uint64_t *got, const uint64_t *want, size_t n, const char *what,
                      char *why, size_t cap)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(why, cap, "%s[%zu] = %" PRIu64 ", want %" PRIu64, what, i, got[i], want[i]);
            return 1;
        }
    return 0;
}

/* Pairs whose keys are right and whose ties may come in any order: every
 * value is the index of an input pair (the values are 0, 1, ..., n-1)
 * holding the key beside it, and each index comes once. */
static int pairs_mismatch(const bb_case *c, const bb_result *r, char *why, size_t cap)
{
    size_t n = c->n;
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!seen) {
        snprintf(why, cap, "out of host memory checking the values");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t v = r->out2[i];
        if (v >= n || seen[v] || c->keys[v] != r->out[i]) {
            snprintf(why, cap, "values[%zu] = %" PRIu32 " is not the index of an input pair "
                     "with key %" PRIu32 "%s", i, v, r->out[i],
                     v < n && seen[v] ? " (it came twice)" : "");
            free(seen);
            return 1;
        }
        seen[v] = 1;
    }
    free(seen);
    return 0;
}

int bb_check(const bb_case *c, const bb_result *r, int flags, char *why, size_t cap)
{
    size_t n = c->n;
    switch (c->prim) {
    case BB_SCAN_INCLUSIVE:
    case BB_SCAN_EXCLUSIVE:
    case BB_SEGSCAN:
        return mismatch(r->out, c->ref_out, n, "out", why, cap);
    case BB_REDUCE:
        if (r->scalar != c->ref_scalar) {
            snprintf(why, cap, "sum %" PRIu32 ", want %" PRIu32, r->scalar, c->ref_scalar);
            return 1;
        }
        return 0;
    case BB_SELECT_IF:
    case BB_PARTITION:
    case BB_PARTITION_REVERSED:
        if (r->count != c->ref_count) {
            snprintf(why, cap, "count %zu, want %zu", r->count, c->ref_count);
            return 1;
        }
        if (c->prim == BB_SELECT_IF) return mismatch(r->out, c->ref_out, n ? r->count : 0,
                                                     "out", why, cap);
        if (c->prim == BB_PARTITION_REVERSED) return mismatch(r->out, c->ref_out, n, "out", why,
                                                              cap);
        if (mismatch(r->out, c->ref_out, r->count, "out", why, cap)) return 1;
        if (flags & BB_CHECK_REJECTED_REVERSED) {
            for (size_t i = r->count, j = n; i < n; i++) {
                --j;
                if (r->out[i] != c->ref_out[j]) {
                    snprintf(why, cap, "rejected out[%zu] = %" PRIu32 ", want %" PRIu32
                             " (reverse order)", i, r->out[i], c->ref_out[j]);
                    return 1;
                }
            }
            return 0;
        }
        return mismatch(r->out + r->count, c->ref_out + r->count, n - r->count, "rejected out",
                        why, cap);
    case BB_SORT_KEYS:
    case BB_SORT_LESS:
    case BB_MERGE_KEYS:
    case BB_SEGSORT_SMALL:
    case BB_SEGSORT_LARGE:
        return mismatch(r->out, c->ref_out, n, "keys", why, cap);
    case BB_SORT_PAIRS:
    case BB_MERGE_PAIRS:
        if (mismatch(r->out, c->ref_out, n, "keys", why, cap)) return 1;
        if (flags & BB_CHECK_TIES_ANY_ORDER) return pairs_mismatch(c, r, why, cap);
        return mismatch(r->out2, c->ref_out2, n, "values", why, cap);
    case BB_SEGREDUCE:
        if (r->count != c->nseg) {
            snprintf(why, cap, "%zu segments, want %zu", r->count, c->nseg);
            return 1;
        }
        return mismatch(r->out, c->ref_out, c->nseg, "totals", why, cap);
    case BB_LOWER_BOUND:
    case BB_LOWER_BOUND_SORTED:
        return mismatch(r->out, c->ref_out, n - c->na, "indices", why, cap);
    case BB_REDUCE_BY_KEY:
    case BB_RLE:
        if (r->count != c->ref_count) {
            snprintf(why, cap, "%zu runs, want %zu", r->count, c->ref_count);
            return 1;
        }
        return mismatch(r->out, c->ref_out, r->count, "out", why, cap) ||
               mismatch(r->out2, c->ref_out2, r->count, "out2", why, cap);
    case BB_TOPK:
        return mismatch(r->out, c->ref_out, bb_topk_k(n), "keys", why, cap);
    case BB_HISTOGRAM:
        return mismatch64(r->out64, c->ref_out64, BB_HIST_BINS, "counts", why, cap);
    case BB_SORT_KEYS64:
        return mismatch64(r->out64, c->ref_out64, n, "keys", why, cap);
    case BB_SORT_PAIRS64:
        return mismatch64(r->out64, c->ref_out64, n, "keys", why, cap) ||
               mismatch(r->out2, c->ref_out2, n, "values", why, cap);
    case BB_POLY: {
        double err = fabs(r->poly - c->ref_poly);
        if (!(err <= c->poly_bound)) {
            snprintf(why, cap, "p(x) = %.17g, reference %.17g, error %.3g over the bound %.3g",
                     r->poly, c->ref_poly, err, c->poly_bound);
            return 1;
        }
        return 0;
    }
    default:
        snprintf(why, cap, "unknown primitive");
        return 1;
    }
}

int bb_narrow_indices(const uint64_t *idx, size_t count, uint32_t *out, char *why, size_t cap)
{
    for (size_t i = 0; i < count; i++) {
        if (idx[i] > UINT32_MAX) {
            snprintf(why, cap, "indices[%zu] = %" PRIu64 ", past 2^32", i, idx[i]);
            return -1;
        }
        out[i] = (uint32_t)idx[i];
    }
    return 0;
}

/* ---- harness ------------------------------------------------------------------------------------ */

static const char *const status_names[] = {"ok", "wrong", "error", "unavailable", "skipped"};

const char *bb_status_name(bb_status s)
{
    return (unsigned)s <= BB_SKIPPED ? status_names[s] : "?";
}

/* reset + run + fetch + check; 0 ok, 1 wrong (detail set), -1 error (detail set). */
static int checked_run(const bb_impl *im, const bb_case *c, bb_measure *m, const char *when,
                       double *wall)
{
    char why[200] = "";
    double ms = 0, t0;
    bb_result r;
    memset(&r, 0, sizeof r);
    if (im->reset(im->self, c, 1, why, sizeof why)) goto fail;
    t0 = bb_now();
    if (im->run(im->self, c, &ms, why, sizeof why)) goto fail;
    *wall = bb_now() - t0;
    if (im->fetch(im->self, c, &r, why, sizeof why)) goto fail;
    if (bb_check(c, &r, im->check_flags, why, sizeof why)) {
        snprintf(m->detail, sizeof m->detail, "%s: %s", when, why);
        return 1;
    }
    return 0;
fail:
    snprintf(m->detail, sizeof m->detail, "%s", why);
    return -1;
}

void bb_measure_run(const bb_opts *o, const bb_impl *im, const bb_case *c, bb_measure *m)
{
    double *t = calloc((size_t)o->repeats, sizeof *t), first = 0, timed = 0;
    char why[200] = "";
    int rc;
    memset(m, 0, sizeof *m);
    if (!t) {
        m->status = BB_ERROR;
        snprintf(m->detail, sizeof m->detail, "out of host memory");
        return;
    }
    rc = checked_run(im, c, m, "first run", &first);
    if (rc) goto done;
    /* the checked run warmed everything up already when it was long */
    int warmups = first > o->max_measure_s ? 0 : o->warmups;
    for (int i = 0; i < warmups; i++) {
        double ms;
        if (im->reset(im->self, c, 0, why, sizeof why) ||
            im->run(im->self, c, &ms, why, sizeof why)) {
            rc = -1;
            goto done;
        }
    }
    int r = 0;
    while (r < o->repeats && (r < o->min_repeats || timed < o->max_measure_s)) {
        double t0;
        if (im->reset(im->self, c, 0, why, sizeof why)) { rc = -1; goto done; }
        t0 = bb_now();
        if (im->run(im->self, c, &t[r], why, sizeof why)) { rc = -1; goto done; }
        timed += bb_now() - t0;
        r++;
    }
    /* the output of the last timed run must be right too */
    {
        bb_result res;
        memset(&res, 0, sizeof res);
        if (im->fetch(im->self, c, &res, why, sizeof why)) { rc = -1; goto done; }
        if (bb_check(c, &res, im->check_flags, why, sizeof why)) {
            snprintf(m->detail, sizeof m->detail, "after the timed runs: %s", why);
            rc = 1;
            goto done;
        }
    }
    m->ms = bb_median(t, r);
    m->repeats = r;
done:
    if (rc < 0 && why[0]) snprintf(m->detail, sizeof m->detail, "%s", why);
    m->status = rc == 0 ? BB_OK : rc > 0 ? BB_WRONG : BB_ERROR;
    if (rc) m->ms = 0;
    free(t);
}

/* ---- CSV ------------------------------------------------------------------------------------------ */

void bb_csv_header(FILE *f)
{
    fprintf(f, "primitive,n,distribution,implementation,device,driver,time_ms,"
               "throughput_gelem_s,ratio_to_scankit,status,repeats,seed,checksum,detail\n");
}

static void csv_text(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == ',' ? ';' : *s == '"' ? '\'' : *s == '\n' || *s == '\r'
                                                                 ? ' ' : *s, f);
}

void bb_csv_row(FILE *f, const bb_case *c, const char *impl, const char *device,
                const char *driver, const bb_measure *m, double scankit_ms)
{
    fprintf(f, "%s,%zu,%s,%s,", bb_prim_name(c->prim), c->n, c->dist.name, impl);
    csv_text(f, device);
    fputc(',', f);
    csv_text(f, driver);
    if (m->status == BB_OK && m->ms > 0) {
        fprintf(f, ",%.6f,%.6f,", m->ms, (double)c->n / (m->ms * 1e6));
        if (scankit_ms > 0) fprintf(f, "%.4f", m->ms / scankit_ms);
    } else {
        fprintf(f, ",,,");
    }
    fprintf(f, ",%s,%d,%" PRIu64 ",%016" PRIx64 ",", bb_status_name(m->status), m->repeats,
            c->seed, c->checksum);
    csv_text(f, m->detail);
    fputc('\n', f);
    fflush(f);
}

/* ---- misc ----------------------------------------------------------------------------------------- */

void bb_slug(const char *name, char *out, size_t cap)
{
    size_t k = 0;
    int dash = 0;
    for (const char *s = name; *s && k + 1 < cap; s++) {
        char ch = *s;
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            if (dash && k > 0 && k + 2 < cap) out[k++] = '-';
            out[k++] = ch;
            dash = 0;
        } else {
            dash = 1;
        }
    }
    out[k] = '\0';
    if (!k) snprintf(out, cap, "device");
}

int bb_sizes(const bb_opts *o, int *log2s, int cap)
{
    int k = 0;
    for (int l = o->min_log2; l <= o->max_log2 && k < cap; l += o->step) log2s[k++] = l;
    return k;
}

void bb_host_cpu(char *out, size_t cap)
{
    snprintf(out, cap, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':');
            if (p) {
                p++;
                while (*p == ' ' || *p == '\t') p++;
                p[strcspn(p, "\n")] = '\0';
                snprintf(out, cap, "%s (serial, 1 thread)", p);
            }
            break;
        }
    }
    fclose(f);
}

uint64_t bb_host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

uint64_t bb_host_bytes(size_t n, unsigned prim_mask)
{
    /* inputs and references (bb_inputs: 49 bytes an element) plus one
     * implementation's read-back (8 bytes) and the serial outputs (8);
     * with uint64 results 8 more for each (the reference's and the serial
     * out64), with the 64-bit sorts' keys and scratch 24 more and the
     * serial scratch 16 */
    uint64_t per = 65u;
    if (prim_mask & BB_OUT64_MASK) per += 16u;
    if (prim_mask & BB_KEYS64_MASK) per += 40u;
    return (uint64_t)n * per + (64u << 20);
}
