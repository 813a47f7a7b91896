/*
 * segscan.c - segmented scan and segment reductions.
 *
 * GPU shape (and the reference behaviour): scans of a lifted monoid on
 * scankit's scan (no second scan implementation), kernels/segscan_lift.cl:
 * an element is (v, f), its value and whether it starts a segment, and for
 * totals (v, c), its value and a count of heads (its flag is c != 0; 32
 * bits below 2^32 elements): the last element of each segment stores its
 * total at totals[c - 1]. One pass where a value of at most 4 bytes and
 * its head flag fit a look-back word, and for totals where the value and
 * a head count below 2^30 fit one word without epoch. Values of at most 4
 * bytes move by the segmented scans' own tile (kernels/segscan_tile.cl:
 * values and head bits apart), larger ones by the lifted elements.
 *
 * CPU shape: chunks and seeds, segscan_cpu.c.
 *
 * Either way the flag steers a select, a loop bound or a total's index, an
 * element value never does, so the interval-of-summations test restarted
 * at heads covers it. Offsets become head flags first (segscan.cl), after a
 * check on the device; totals by offsets without an empty segment are the
 * totals by those flags (from the tuning's size), else they gather from
 * the inclusive scan.
 */
#include "segscan.h"

#include <stdlib.h>
#include <string.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(seg_inclusive, "segmented scan: inclusive scan for totals");
SK_SCRATCH_ID(seg_flags, "segmented scan: head flags from offsets");
/* The most work-groups of a launch of sk_seg_reduce_groups (each takes
 * segments in turns past it). */
#define SEG_GROUPS_MAX ((size_t)1 << 20)

SK_SCRATCH_ID(seg_verdict, "segment totals by offsets: the offsets' check, read at the end");
const sk__scratch_id sk__seg_small = {"segmented scan: counts, checks, chunk partials", false};

enum seg_mode { SEG_INCLUSIVE, SEG_EXCLUSIVE, SEG_TOTALS };

/* ---- configurations: the caller's monoid and switches before the kernels --------- */

/* The caller's monoid as kernels/segscan*.cl take it: its preamble, then
 * SK_VAL_T (checked against the caller's size), SK_VAL_IDENTITY and, where the kernels combine, SK_VAL_COMBINE
 * (the offsets' kernels do not: one program serves every operator), each
 * expression in a function of its own (sk__config_function). */
static void add_monoid(sk__str *s, const sk_monoid *m, bool combine)
{
    if (m->preamble) {
        sk__str_add(s, m->preamble);
        sk__str_add(s, "\n");
    }
    sk__str_addf(s, "#define SK_VAL_T %s\n", m->type);
    /* Every array of SK_VAL_T is sized with the caller's size: a type of
     * another size on the device does not build (SK_E_BUILD). */
    sk__str_addf(s, "typedef char sk_value_size_must_match_host[(sizeof(SK_VAL_T) == %zu) ? 1 "
                    ": -1];\n", m->size);
    sk__config_function(s, "SK_VAL_T sk_caller_identity(void)", m->identity);
    sk__str_addf(s, "#define SK_VAL_IDENTITY sk_caller_identity()\n");
    if (!combine) return;
    sk__config_function(s, "SK_VAL_T sk_caller_combine(SK_VAL_T a, SK_VAL_T b)", m->combine);
    sk__str_addf(s, "#define SK_VAL_COMBINE sk_caller_combine(a, b)\n");
}

/* Whether n elements' head counts fit the totals' 32-bit count. */
static bool counts_fit_uint(size_t n) { return (uint64_t)n < ((uint64_t)1 << 32); }

/* The lifted scan's preamble (kernels/segscan_lift.cl after the caller's
 * monoid): the same for every flag type and for inclusive and exclusive
 * scans, so the scan's levels above the first share one program; totals
 * of n elements count their heads in 32 bits where n allows it. */
static char *lifted_preamble(const sk_monoid *m, enum seg_mode mode, size_t n)
{
    sk__str s = {0};
    add_monoid(&s, m, true);
    if (mode == SEG_TOTALS)
        sk__str_addf(&s, "#define SK_SEG_TOTALS 1\n%s",
                     counts_fit_uint(n) ? "#define SK_SEG_COUNT_T uint\n" : "");
    sk__str_add(&s, sk__source_text("segscan_lift"));
    return sk__str_take(&s);
}

/* Whether the job moves its tiles by the segmented scans' own tile of
 * values and head bits in the GPU shape (kernels/segscan_tile.cl): values
 * of at most 4 bytes (larger ones keep the lifted tile). */
static bool takes_own_tile(const seg_job *j) { return j->m->size <= 4; }

/* The lifted scan's loads and stores: kernels/segscan_lift_io.cl after the
 * flag type and the mode (and, for the own tile of a 4-byte value, its
 * 16-byte tile layout). */
static char *lifted_io(const seg_job *j, enum seg_mode mode)
{
    sk__str s = {0};
    sk__str_addf(&s, "#define SK_FLAG_T %s\n%s", seg_flag_type(j),
                 mode == SEG_EXCLUSIVE ? "#define SK_SEG_EXCLUSIVE 1\n" : "");
    if (takes_own_tile(j) && j->m->size == 4) sk__str_add(&s, "#define SK_TILE_VEC4 1\n");
    sk__str_add(&s, sk__source_text("segscan_lift_io"));
    return sk__str_take(&s);
}

sk_status sk__segscan_program(seg_job *j, bool combine, const char *defines,
                              const char *const *kernels, unsigned count,
                              const sk__program **prog)
{
    sk__str s = {0};
    sk__str_addf(&s, SK_FP64_PRAGMA);
    add_monoid(&s, j->m, combine);
    sk__str_addf(&s, "%s", defines);
    return sk__program_take(j->ctx, "segscan", sk__str_take(&s), kernels, count, prog);
}

/* The lifted scan's input arguments (segscan_lift_io.cl's SK_IN_PARAMS). */
static void set_in(sk__args *a, const void *user)
{
    const seg_job *j = user;
    sk__arg_mem(a, j->src);
    sk__arg_mem(a, j->flags);
}

/* Its output arguments: the scan's (SK_OUT_PARAMS) ... */
static void set_out_scan(sk__args *a, const void *user)
{
    sk__arg_mem(a, ((const seg_job *)user)->dst);
}

/* ... or the totals' (with SK_SEG_TOTALS). */
static void set_out_totals(sk__args *a, const void *user)
{
    const seg_job *j = user;
    sk__arg_mem(a, j->dst);
    sk__arg_mem(a, j->count);
    sk__arg_ulong(a, "sk_n", j->n);
}

/* The lifted monoid sk_seg_t over m, with `pre` (lifted_preamble) for its
 * preamble. */
static sk_monoid lifted_monoid(const sk_monoid *m, const char *pre)
{
    /* sizeof(sk_seg_t) <= 2 * size + 16 whatever the value's alignment. */
    return (sk_monoid){"sk_seg_t", 2 * m->size + 16, "SK_SEG_IDENTITY", "sk_seg_combine(a, b)",
                       pre};
}

/* The lifted scan of the job's elements in `mode`; a value of at most 4
 * bytes and its head flag fit a look-back word (kernels/lookback.cl), and
 * with a head count below 2^30 a word without epoch (the totals). */
static sk_status lifted_scan(seg_job *j, enum seg_mode mode)
{
    bool totals = mode == SEG_TOTALS;
    char *pre = lifted_preamble(j->m, mode, j->n), *io = lifted_io(j, mode);
    sk_status st = SK_OK;
    if (!pre || !io) {
        st = sk__fail(j->ctx, SK_E_OUT_OF_MEMORY, "segmented scan configuration");
    } else {
        sk_monoid lifted = lifted_monoid(j->m, pre);
        sk__scan_io sio = {io, set_in, totals ? set_out_totals : set_out_scan, j,
                           j->dst != j->src && j->dst != j->flags,
                           takes_own_tile(j) ? sk__source_text("segscan_tile") : NULL};
        sk__lb_codec codec = {sk__source_text("segscan_lift_codec"), j->order_free, 1, false};
        sk__lb_codec wide = {sk__source_text("segscan_totals_codec"), j->order_free, 1, true};
        bool small = j->m->size <= 4, counts_fit = (uint64_t)j->n < ((uint64_t)1 << 30);
        const sk__lb_codec *use = !small ? NULL : !totals ? &codec : counts_fit ? &wide : NULL;
        st = sk__scan_lifted(j->ctx, &lifted, &sio, j->n, mode == SEG_EXCLUSIVE, use);
    }
    free(pre);
    free(io);
    return st;
}

sk_status sk__segreduce_lifted(sk_context *ctx, const sk_monoid *m, const sk__scan_io *io,
                               size_t n, const sk__lb_codec *codec)
{
    char *pre = lifted_preamble(m, SEG_TOTALS, n);
    sk_status st = SK_OK;
    if (!pre) {
        st = sk__fail(ctx, SK_E_OUT_OF_MEMORY, "segment totals configuration");
    } else {
        sk_monoid lifted = lifted_monoid(m, pre);
        st = sk__scan_lifted(ctx, &lifted, io, n, false, codec);
    }
    free(pre);
    return st;
}

char *sk__segtotals_preamble(const sk_monoid *m, size_t n)
{
    return lifted_preamble(m, SEG_TOTALS, n);
}

size_t sk__segtotals_element_size(const sk_monoid *m) { return lifted_monoid(m, NULL).size; }

/* Whether the job takes the CPU shape (segscan_cpu.c). */
static bool cpu_shape(const seg_job *j)
{
    return sk__tuning_for(j->ctx, SK_FAMILY_SCAN, j->m->size).shape == SK_SHAPE_CPU;
}

/* The segmented scan in `mode` (not totals) by the path the shape takes. */
static sk_status seg_scan(seg_job *j, enum seg_mode mode)
{
    if (cpu_shape(j)) return sk__segscan_cpu_scan(j, mode == SEG_EXCLUSIVE);
    return lifted_scan(j, mode);
}

/* ---- offsets ------------------------------------------------------------------------ */

enum { K_CHECK_OFFSETS, K_OFFSETS_TO_FLAGS, K_GATHER_TOTALS };
static const char *const seg_kernels[] = {"sk_seg_check_offsets", "sk_seg_offsets_to_flags",
                                          "sk_seg_gather_totals"};

static sk_status seg_program(seg_job *j, const sk__program **prog)
{
    const char *defines = j->seg->offset_type == SK_UINT32 ? "#define SK_OFF_T uint\n"
                                                           : "#define SK_OFF_T ulong\n";
    return sk__segscan_program(j, false, defines, seg_kernels, 3, prog);
}

/* The arguments (offsets, count, n) of the kernels that read the offsets. */
static void arg_offsets(sk__args *a, const seg_job *j)
{
    sk__arg_mem(a, j->seg->offsets);
    sk__arg_ulong(a, "count", j->seg->count);
    sk__arg_ulong(a, "n", j->n);
}

/* Launches kernel k over `count` work-items: (offsets, count, n, extra). */
static sk_status launch_offsets(seg_job *j, const sk__program *prog, unsigned k, cl_mem extra)
{
    if (j->seg->count == 0) return SK_OK;
    sk__args a;
    sk__args_init(&a, j->ctx, prog, k);
    arg_offsets(&a, j);
    sk__arg_mem(&a, extra);
    return sk__args_launch_each(&a, j->seg->count);
}

sk_status sk__segments_offsets_verdict(sk_context *ctx, cl_int bad, size_t n)
{
    if (!(bad & 1)) return SK_OK;
    return sk__fail(ctx, SK_E_INVALID_ARG, "offsets are not a segmentation of %zu elements "
                    "(offsets[0] must be 0, non-decreasing, none above n)", n);
}

/* Enqueues the offsets' check into a word of scratch, zeroed first
 * (*word: sk_seg_check_offsets' bits). */
static sk_status enqueue_check(seg_job *j, const sk__program *prog, cl_mem *word)
{
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(j->ctx, &seg_verdict, sizeof(cl_int), word));
    SK_TRY(sk__fill_zero(j->ctx, *word, sizeof(cl_int)));
    st = launch_offsets(j, prog, K_CHECK_OFFSETS, *word);
out:
    return st;
}

/* Reads the check's word back (blocking): the verdict, and *empty
 * (unless NULL): whether a segment is empty. */
static sk_status read_check(seg_job *j, cl_mem word, bool *empty)
{
    cl_int bad = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__read(j->ctx, word, true, 0, sizeof bad, &bad));
    if (empty) *empty = (bad & 2) != 0;
    st = sk__segments_offsets_verdict(j->ctx, bad, j->n);
out:
    return st;
}

/* Checks the offsets on the device, waiting for the verdict; *empty as
 * read_check's. */
static sk_status check_offsets(seg_job *j, const sk__program *prog, bool *empty)
{
    cl_mem word = NULL;
    sk_status st = SK_OK;
    SK_TRY(enqueue_check(j, prog, &word));
    st = read_check(j, word, empty);
out:
    return st;
}

sk_status sk__segments_check_offsets_into(sk_context *ctx, const sk_segments *seg, size_t n,
                                          cl_mem word)
{
    sk__monoid_text text;
    sk_monoid m;
    seg_job j = {0};
    const sk__program *prog = NULL;
    sk_status st = SK_OK;
    /* The offsets' kernels take no operator: any monoid's program serves. */
    SK_TRY(sk__monoid_of(ctx, SK_UINT32, SK_OP_ADD, &text, &m, NULL));
    j = (seg_job){ctx, &m, NULL, NULL, n, NULL, 0, NULL, seg, true, false, false, NULL};
    SK_TRY(seg_program(&j, &prog));
    st = launch_offsets(&j, prog, K_CHECK_OFFSETS, word);
out:
    return st;
}

/* ---- segment totals by a work-group per segment (GPU shape) ----------------------- */

static const char *const group_kernels[] = {"sk_seg_reduce_groups"};

/* The program of sk_seg_reduce_groups: the caller's monoid, the offsets'
 * type and the GPU blocks for tiles of t's shape. */
static sk_status group_program(seg_job *j, const sk__tuning *t, const sk__program **prog)
{
    sk__str s = {0};
    sk__str_addf(&s, SK_FP64_PRAGMA);
    add_monoid(&s, j->m, true);
    sk__str_addf(&s, "#define SK_OFF_T %s\n#define SK_SEG_GROUPS 1\n#define SK_SHAPE_GPU 1\n"
                     "#define SK_WG %zu\n#define SK_ITEMS %zu\n",
                 j->seg->offset_type == SK_UINT32 ? "uint" : "ulong", t->wg_size, t->items);
    sk__config_blocks(&s, true, false, NULL);
    return sk__program_take(j->ctx, "segscan", sk__str_take(&s), group_kernels, 1, prog);
}

/* Whether segment totals by offsets take a work-group per segment: the GPU
 * shape, segments of the tuning's average length or longer. */
static bool takes_groups(const seg_job *j, const sk__tuning *t)
{
    return !cpu_shape(j) && j->seg->count && j->n / j->seg->count >= t->seg_groups_from;
}

/* totals[s] for every segment by sk_seg_reduce_groups, the offsets'
 * verdict in *word (scratch): for at most the tuning's number of segments
 * checked by the same launch (every work-group reads them all; no fill, no
 * launch of its own), else by sk_seg_check_offsets enqueued before it. */
static sk_status totals_by_groups(seg_job *j, const sk__tuning *t, const sk__program *seg_prog,
                                  cl_mem *word)
{
    const sk__program *prog = NULL;
    sk_status st = SK_OK;
    bool check = j->seg->count <= t->seg_groups_check_max;
    if (check)
        SK_TRY(sk__scratch_get(j->ctx, &seg_verdict, sizeof(cl_int), word));
    else
        SK_TRY(enqueue_check(j, seg_prog, word));
    SK_TRY(group_program(j, t, &prog));
    sk__args a;
    sk__args_init(&a, j->ctx, prog, 0);
    sk__arg_mem(&a, j->src);
    arg_offsets(&a, j);
    sk__arg_mem(&a, j->dst);
    sk__arg_mem(&a, *word);
    sk__arg_uint(&a, "check", check);
    size_t groups = j->seg->count < SEG_GROUPS_MAX ? j->seg->count : SEG_GROUPS_MAX;
    st = sk__args_launch(&a, groups * t->wg_size, t->wg_size);
out:
    return st;
}

/* Derives uint8 head flags from the offsets, which must check out first. */
static sk_status offsets_to_flags(seg_job *j, const sk__program *prog)
{
    sk_context *ctx = j->ctx;
    sk_status st = SK_OK;
    SK_TRY(sk__scratch_get(ctx, &seg_flags, j->n, &j->flags));
    j->flag_size = 1;
    SK_TRY(sk__fill_zero(ctx, j->flags, j->n));
    SK_TRY(launch_offsets(j, prog, K_OFFSETS_TO_FLAGS, j->flags));
out:
    return st;
}

/* totals[s] for every segment from the inclusive scan in `inclusive`,
 * unless the offsets' check word `bad` has bit 0. */
static sk_status gather_totals(seg_job *j, const sk__program *prog, cl_mem inclusive, cl_mem bad)
{
    sk__args a;
    sk__args_init(&a, j->ctx, prog, K_GATHER_TOTALS);
    sk__arg_mem(&a, inclusive);
    arg_offsets(&a, j);
    sk__arg_mem(&a, j->dst);
    sk__arg_mem(&a, bad);
    return sk__args_launch_each(&a, j->seg->count);
}

/* ---- validation ---------------------------------------------------------------------- */

/* How segments are given, whether on the device or the host. */
typedef struct seg_form {
    bool flags, offsets;      /* which of them is given */
    size_t flag_size;
    sk_type offset_type;
    size_t count;             /* offsets */
} seg_form;

/* Checks the form of segments of n elements: exactly one of flags and
 * offsets, flags of 1 or 4 bytes, offsets of uint32 or uint64; *bytes =
 * the size of the flags or of the offsets. */
static sk_status check_segments_form(sk_context *ctx, seg_form f, size_t n, size_t *bytes)
{
    if (f.flags == f.offsets)
        return sk__fail(ctx, SK_E_INVALID_ARG, "give exactly one of flags and offsets");
    if (f.flags && f.flag_size != 1 && f.flag_size != 4)
        return sk__fail(ctx, SK_E_INVALID_ARG, "flag_size %zu: use 1 or 4", f.flag_size);
    if (f.flags) return sk__byte_size(ctx, n, f.flag_size, bytes);
    if (f.offset_type != SK_UINT32 && f.offset_type != SK_UINT64)
        return sk__fail(ctx, SK_E_INVALID_ARG, "offset_type must be uint32 or uint64");
    return sk__byte_size(ctx, f.count, sk_type_size(f.offset_type), bytes);
}

sk_status sk__segments_validate(sk_context *ctx, const sk_segments *seg, size_t n)
{
    size_t bytes = 0;
    if (!seg) return sk__fail(ctx, SK_E_INVALID_ARG, "segments are NULL");
    seg_form f = {seg->flags != NULL, seg->offsets != NULL, seg->flag_size, seg->offset_type,
                  seg->count};
    sk_status st = check_segments_form(ctx, f, n, &bytes);
    if (st != SK_OK) return st;
    if (seg->flags) return sk__check_buffer(ctx, seg->flags, bytes, "flags");
    if (n > 0 && seg->count == 0)
        return sk__fail(ctx, SK_E_INVALID_ARG, "no segment offsets for %zu elements", n);
    return sk__check_buffer(ctx, seg->offsets, bytes, "offsets");
}

/* Validates a call and fills the job (flags still the caller's). */
static sk_status job_open(sk_context *ctx, const sk_monoid *m, bool order_free, cl_mem src,
                          cl_mem dst, size_t dst_elems, size_t n, const sk_segments *seg,
                          seg_job *j)
{
    size_t bytes = 0, dst_bytes = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__validate_monoid(ctx, m));
    /* every size before any buffer: SK_E_SIZE wins over a small buffer */
    SK_TRY(sk__byte_size(ctx, n, m->size, &bytes));
    SK_TRY(sk__byte_size(ctx, dst_elems, m->size, &dst_bytes));
    SK_TRY(sk__segments_validate(ctx, seg, n));
    SK_TRY(sk__check_buffer(ctx, src, bytes, "src"));
    SK_TRY(sk__check_buffer(ctx, dst, dst_bytes ? dst_bytes : 1, "dst"));
    *j = (seg_job){ctx, m, src, dst, n, seg->flags, seg->flag_size, NULL, seg, order_free,
                   false, false, NULL};
out:
    return st;
}

/* ---- the operations ---------------------------------------------------------------------- */

sk_status sk__segscan_run(sk_context *ctx, const sk_monoid *m, bool order_free, cl_mem src,
                          cl_mem dst, size_t n, const sk_segments *seg, bool exclusive)
{
    seg_job j;
    const sk__program *prog = NULL;
    sk_status st = SK_OK;
    SK_TRY(job_open(ctx, m, order_free, src, dst, n, n, seg, &j));
    if (seg->offsets) {
        SK_TRY(seg_program(&j, &prog));
        SK_TRY(check_offsets(&j, prog, NULL));
        if (n == 0) return SK_OK;
        SK_TRY(offsets_to_flags(&j, prog));
    }
    if (n == 0) return SK_OK;
    st = seg_scan(&j, exclusive ? SEG_EXCLUSIVE : SEG_INCLUSIVE);
out:
    return st;
}

/* Totals by head flags: one lifted scan that counts heads; with `wait`
 * the count read back (blocking) into *segments (may be NULL), else the
 * GPU shape leaves the scan running and *segments untouched. */
static sk_status totals_by_flags(seg_job *j, size_t *segments, bool wait)
{
    sk_context *ctx = j->ctx;
    cl_ulong count = 0;
    sk_status st = SK_OK;
    if (j->n && cpu_shape(j)) {
        SK_TRY(sk__segscan_cpu_totals(j, &count));
        if (segments) *segments = (size_t)count;
        return SK_OK;
    }
    SK_TRY(sk__scratch_get(ctx, &sk__seg_small, sizeof count, &j->count));
    if (j->n) SK_TRY(lifted_scan(j, SEG_TOTALS));
    if (!wait) return SK_OK;
    if (j->n) SK_TRY(sk__read(ctx, j->count, true, 0, sizeof count, &count));
    if (segments) *segments = (size_t)count;
out:
    return st;
}

/* Totals by offsets. CPU shape: by chunks of elements, the check enqueued
 * before (sk__segscan_cpu_offset_totals). GPU shape: segments of the
 * tuning's average length by a work-group each; else, without empty
 * segments, segment k's head is the (k + 1)-th: from the tuning's size
 * on, the totals by the head flags
 * derived from the offsets, each stored at its segment's end (the
 * offsets' check read back first: it says whether a segment is empty).
 * Otherwise the inclusive segmented scan into scratch, then one gather per
 * segment (empty segments get the identity) that stores nothing when the
 * check, enqueued before and read back once at the end, failed: no wait
 * between the launches, the totals untouched on bad offsets. */
static sk_status totals_by_offsets(seg_job *j, size_t *segments)
{
    sk_context *ctx = j->ctx;
    const sk__program *prog = NULL;
    cl_mem totals = j->dst, inclusive = NULL, word = NULL;
    bool empty = false;
    sk_status st = SK_OK;
    SK_TRY(seg_program(j, &prog));
    sk__tuning groups = sk__tuning_for(ctx, SK_FAMILY_SEG_GROUPS, j->m->size);
    if (j->n && cpu_shape(j)) {
        SK_TRY(enqueue_check(j, prog, &word));
        SK_TRY(sk__segscan_cpu_offset_totals(j, word));
        SK_TRY(read_check(j, word, NULL));
        if (segments) *segments = j->seg->count;
        return SK_OK;
    }
    if (takes_groups(j, &groups)) {
        SK_TRY(totals_by_groups(j, &groups, prog, &word));
        SK_TRY(read_check(j, word, NULL));
        if (segments) *segments = j->seg->count;
        return SK_OK;
    }
    SK_TRY(enqueue_check(j, prog, &word));
    bool waited = j->n >= sk__tuning_for(ctx, SK_FAMILY_SCAN, j->m->size).seg_totals_at_ends_from;
    if (waited) SK_TRY(read_check(j, word, &empty));
    bool at_ends = waited && !empty;
    if (j->n && at_ends) {
        SK_TRY(offsets_to_flags(j, prog));
        SK_TRY(totals_by_flags(j, NULL, false));
    } else if (j->n) {
        SK_TRY(offsets_to_flags(j, prog));
        SK_TRY(sk__scratch_get(ctx, &seg_inclusive, j->n * j->m->size, &inclusive));
        j->dst = inclusive;
        st = seg_scan(j, SEG_INCLUSIVE);
        j->dst = totals;
        SK_TRY(st);
    }
    if (j->seg->count && !(j->n && at_ends))
        SK_TRY(gather_totals(j, prog, inclusive ? inclusive : totals, word));
    if (waited)
        SK_CL_TRY(ctx, clFinish(ctx->queue));
    else
        SK_TRY(read_check(j, word, NULL));
    if (segments) *segments = j->seg->count;
out:
    return st;
}

sk_status sk__segreduce_run(sk_context *ctx, const sk_monoid *m, bool order_free, cl_mem src,
                            size_t n, const sk_segments *seg, cl_mem totals, size_t *segments)
{
    seg_job j;
    sk_status st = SK_OK;
    size_t capacity = seg && seg->offsets ? seg->count : n;
    SK_TRY(job_open(ctx, m, order_free, src, totals, capacity, n, seg, &j));
    st = seg->offsets ? totals_by_offsets(&j, segments) : totals_by_flags(&j, segments, true);
out:
    return st;
}

/* ---- entry points ------------------------------------------------------------------------ */

/* A built-in (type, operator)'s monoid, in text of its own. */
typedef struct seg_builtin {
    sk__monoid_text text;
    sk_monoid m;
    bool order_free;
} seg_builtin;

/* `call` sees `m` and `order_free`: the monoid of a built-in (type, operator). */
#define SK_SEG_BUILTIN(ctx, type, oper, call)                                  \
    do {                                                                       \
        SK_ENTER(ctx);                                                         \
        seg_builtin b_;                                                        \
        sk_status st_ = sk__monoid_of((ctx), (type), (oper), &b_.text, &b_.m,  \
                                      &b_.order_free);                         \
        if (st_ != SK_OK) return st_;                                          \
        const sk_monoid *m = &b_.m;                                            \
        const bool order_free = b_.order_free;                                 \
        return call;                                                           \
    } while (0)

/* `call` sees `order_free`: false for a caller's monoid (validated later). */
#define SK_SEG_MONOID(ctx, call)                                               \
    do {                                                                       \
        SK_ENTER(ctx);                                                         \
        const bool order_free = false;                                         \
        return call;                                                           \
    } while (0)

sk_status sk_segscan_inclusive(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                               const sk_segments *seg, cl_mem dst, size_t n)
{
    SK_SEG_BUILTIN(ctx, type, op, sk__segscan_run(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                               const sk_segments *seg, cl_mem dst, size_t n)
{
    SK_SEG_BUILTIN(ctx, type, op, sk__segscan_run(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segscan_inclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                      const sk_segments *seg, cl_mem dst, size_t n)
{
    SK_SEG_MONOID(ctx, sk__segscan_run(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                      const sk_segments *seg, cl_mem dst, size_t n)
{
    SK_SEG_MONOID(ctx, sk__segscan_run(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segreduce(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                       const sk_segments *seg, cl_mem totals, size_t *segments, size_t n)
{
    SK_SEG_BUILTIN(ctx, type, op,
                   sk__segreduce_run(ctx, m, order_free, src, n, seg, totals, segments));
}

sk_status sk_segreduce_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                              const sk_segments *seg, cl_mem totals, size_t *segments,
                              size_t n)
{
    SK_SEG_MONOID(ctx, sk__segreduce_run(ctx, m, order_free, src, n, seg, totals, segments));
}

/* ---- host-array forms ---------------------------------------------------------------------- */

/* The device-side segments for host segments: flags or offsets uploaded. */
sk_status sk__segments_upload(sk_context *ctx, const sk_segments_host *h, size_t n,
                              const sk__scratch_id *id, sk_segments *d)
{
    size_t bytes = 0;
    if (!h) return sk__fail(ctx, SK_E_INVALID_ARG, "segments are NULL");
    *d = (sk_segments){NULL, h->flag_size, NULL, h->offset_type, h->count};
    seg_form f = {h->flags != NULL, h->offsets != NULL, h->flag_size, h->offset_type, h->count};
    sk_status st = check_segments_form(ctx, f, n, &bytes);
    if (st != SK_OK) return st;
    if (h->flags)
        return sk__stage_in(ctx, id, h->flags, bytes, 1, &d->flags);
    return sk__stage_in(ctx, id, h->offsets, bytes, 1, &d->offsets);
}

static sk_status segscan_host(sk_context *ctx, const sk_monoid *m, bool order_free,
                              const void *src, void *dst, size_t n, const sk_segments_host *h,
                              bool exclusive)
{
    sk_segments seg;
    cl_mem in = NULL;
    size_t bytes = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__validate_monoid(ctx, m));
    SK_TRY(sk__byte_size(ctx, n, m->size, &bytes));
    SK_TRY(sk__fits_device(ctx, bytes, "src's device copy"));
    if (n && !dst) return sk__fail(ctx, SK_E_INVALID_ARG, "dst is NULL");
    SK_TRY(sk__segments_upload(ctx, h, n, &sk__scratch_host_values, &seg));
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, src, bytes, 1, &in));
    SK_TRY(sk__segscan_run(ctx, m, order_free, in, in, n, &seg, exclusive));
    if (bytes) SK_TRY(sk__download(ctx, in, 0, dst, bytes));
out:
    return st;
}

static sk_status segreduce_host(sk_context *ctx, const sk_monoid *m, bool order_free,
                                const void *src, size_t n, const sk_segments_host *h, void *totals,
                                size_t *segments)
{
    sk_segments seg;
    cl_mem in = NULL, out_mem = NULL;
    size_t bytes = 0, got = 0;
    sk_status st = SK_OK;
    SK_TRY(sk__validate_monoid(ctx, m));
    SK_TRY(sk__byte_size(ctx, n, m->size, &bytes));
    SK_TRY(sk__fits_device(ctx, bytes, "src's device copy"));
    if (!totals) return sk__fail(ctx, SK_E_INVALID_ARG, "totals is NULL");
    SK_TRY(sk__segments_upload(ctx, h, n, &sk__scratch_host_values, &seg));
    SK_TRY(sk__stage_in(ctx, &sk__scratch_host, src, bytes, 1, &in));
    size_t capacity = seg.offsets ? seg.count : n;
    SK_TRY(sk__scratch_get(ctx, &sk__scratch_host_out, (capacity ? capacity : 1) * m->size,
                           &out_mem));
    SK_TRY(sk__segreduce_run(ctx, m, order_free, in, n, &seg, out_mem, &got));
    if (got) SK_TRY(sk__download(ctx, out_mem, 0, totals, got * m->size));
    if (segments) *segments = got;
out:
    return st;
}

sk_status sk_segscan_inclusive_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                                    const sk_segments_host *seg, void *dst, size_t n)
{
    SK_SEG_BUILTIN(ctx, type, op, segscan_host(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                                    const sk_segments_host *seg, void *dst, size_t n)
{
    SK_SEG_BUILTIN(ctx, type, op, segscan_host(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segreduce_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                            const sk_segments_host *seg, void *totals, size_t *segments,
                            size_t n)
{
    SK_SEG_BUILTIN(ctx, type, op,
                   segreduce_host(ctx, m, order_free, src, n, seg, totals, segments));
}

sk_status sk_segscan_inclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                           const void *src, const sk_segments_host *seg,
                                           void *dst, size_t n)
{
    SK_SEG_MONOID(ctx, segscan_host(ctx, m, order_free, src, dst, n, seg, false));
}

sk_status sk_segscan_exclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                           const void *src, const sk_segments_host *seg,
                                           void *dst, size_t n)
{
    SK_SEG_MONOID(ctx, segscan_host(ctx, m, order_free, src, dst, n, seg, true));
}

sk_status sk_segreduce_monoid_host(sk_context *ctx, const sk_monoid *m, const void *src,
                                   const sk_segments_host *seg, void *totals,
                                   size_t *segments, size_t n)
{
    SK_SEG_MONOID(ctx, segreduce_host(ctx, m, order_free, src, n, seg, totals, segments));
}
