/*
 * sort_fields.c - the sort of structs by fields (CUB's decomposer): each
 * field an OpenCL C expression of the struct with a key type and an order,
 * most significant first. Built on the radix sort (sort.c): LSD over the
 * fields, each field's keys extracted in the order reached so far and
 * sorted as (key, index) pairs, stably; the structs and values are then
 * gathered by the final index permutation (kernels/sort_fields.cl, one
 * program per type, fields and value size).
 */
#include "sort.h"

#include <stdio.h>

/* Scratch buffers of this file (sk__scratch_get). */
SK_SCRATCH_ID(fields_keys, "sort by fields: a field's keys");
SK_SCRATCH_ID(fields_index, "sort by fields: the permutation");
SK_SCRATCH_ID(fields_elems, "sort by fields: gathered structs");
SK_SCRATCH_ID(fields_values, "sort by fields: gathered values");

/* The OpenCL C type of each key type. */
static const char *const field_cl_types[SK_TYPE_COUNT] = {
#define FIELD_CL_TYPE_(suffix, value, name, bytes, cl, ...) [SK_##suffix] = cl,
    SK_TYPE_MAP(FIELD_CL_TYPE_)
#undef FIELD_CL_TYPE_
};

/* ---- requests ------------------------------------------------------------ */

typedef struct fields_req {
    const sk_field_order *by;
    size_t value_size;            /* 0: structs only */
    size_t n;
} fields_req;

static sk_status validate_field(sk_context *ctx, const sk_sort_field *f, size_t i)
{
    if (!f->key || !*f->key) return sk__fail(ctx, SK_E_INVALID_ARG, "field %zu has no key", i);
    if ((unsigned)f->key_type >= SK_TYPE_COUNT)
        return sk__fail(ctx, SK_E_INVALID_ARG, "field %zu: invalid key type %d", i,
                        (int)f->key_type);
    if (f->order != SK_ASCENDING && f->order != SK_DESCENDING)
        return sk__fail(ctx, SK_E_INVALID_ARG, "field %zu: invalid sort order %d", i,
                        (int)f->order);
    if (sk__check_user_code(ctx, "field's key", f->key) != SK_OK) return SK_E_INVALID_ARG;
    return sk__require_fp64(ctx, f->key_type);
}

static sk_status validate_order(sk_context *ctx, const sk_field_order *by)
{
    if (!by) return sk__fail(ctx, SK_E_INVALID_ARG, "field order is NULL");
    if (!by->type || !*by->type)
        return sk__fail(ctx, SK_E_INVALID_ARG, "field order needs a type");
    if (by->size == 0) return sk__fail(ctx, SK_E_INVALID_ARG, "field order's size is 0");
    if (!by->fields || by->field_count == 0)
        return sk__fail(ctx, SK_E_INVALID_ARG, "field order has no fields");
    if (sk__check_user_code(ctx, "field order's type", by->type) != SK_OK ||
        sk__check_user_code(ctx, "field order's preamble", by->preamble) != SK_OK)
        return SK_E_INVALID_ARG;
    for (size_t i = 0; i < by->field_count; i++) {
        sk_status st = validate_field(ctx, &by->fields[i], i);
        if (st != SK_OK) return st;
    }
    return SK_OK;
}

static sk_status validate_req(sk_context *ctx, const fields_req *r, bool pairs)
{
    sk_status st = validate_order(ctx, r->by);
    if (st != SK_OK) return st;
    if (pairs && r->value_size == 0) return sk__fail(ctx, SK_E_INVALID_ARG, "value size 0");
    size_t es = r->by->size, vs = r->value_size;
    if (r->n > SIZE_MAX / es || (vs && r->n > SIZE_MAX / vs) || r->n > SIZE_MAX / 8)
        return sk__fail(ctx, SK_E_SIZE, "%zu elements overflow size_t", r->n);
    return SK_OK;
}

static sk_status check_buffers(sk_context *ctx, const fields_req *r, cl_mem elems,
                               cl_mem values)
{
    size_t eb = r->n * r->by->size, vb = r->n * r->value_size;
    sk_status st = sk__check_buffer(ctx, elems, eb, "elems");
    if (st != SK_OK || !r->value_size) return st;
    st = sk__check_buffer(ctx, values, vb, "values");
    if (st == SK_OK && sk__buffers_overlap(elems, eb, values, vb))
        st = sk__fail(ctx, SK_E_INVALID_ARG, "elems and values overlap");
    return st;
}

/* ---- the program ---------------------------------------------------------- */

enum { K_EXTRACT32, K_EXTRACT64, K_GATHER, K_GATHER_VALUES };

static const char *const kernels[] = {"sk_fields_extract32", "sk_fields_extract64",
                                      "sk_fields_gather", "sk_fields_gather_values"};

/* sk_field_bits32 or _64 (`bytes` 4 or 8): a switch over the fields of
 * that width, each returning its key function's value as bits. */
static void config_bits(sk__str *s, const sk_field_order *by, size_t bytes)
{
    const char *w = bytes == 4 ? "uint" : "ulong";
    sk__str_addf(s, "%s sk_field_bits%zu(SK_ELEM_T x, uint f)\n{\n    switch (f) {\n", w,
                 8 * bytes);
    for (size_t i = 0; i < by->field_count; i++)
        if (sk_type_size(by->fields[i].key_type) == bytes)
            sk__str_addf(s, "    case %zu: return as_%s(sk_field_%zu(x));\n", i, w, i);
    sk__str_addf(s, "    }\n    return 0;\n}\n");
}

/* The caller's preamble and type (checked against its size), a function
 * per field's key expression, the bits of the fields, the indices and the
 * values. */
static char *fields_config(const fields_req *r, bool wide_index)
{
    const sk_field_order *by = r->by;
    sk__str s = {0};
    sk__str_addf(&s, SK_FP64_PRAGMA);
    if (by->preamble) {
        sk__str_add(&s, by->preamble);
        sk__str_add(&s, "\n");
    }
    sk__str_addf(&s, "#define SK_ELEM_T %s\n", by->type);
    sk__str_addf(&s, "typedef char sk_elem_size_must_match_host"
                     "[(sizeof(SK_ELEM_T) == %zu) ? 1 : -1];\n", by->size);
    for (size_t i = 0; i < by->field_count; i++) {
        char sig[96];
        snprintf(sig, sizeof sig, "%s sk_field_%zu(SK_ELEM_T x)",
                 field_cl_types[by->fields[i].key_type], i);
        sk__config_function(&s, sig, by->fields[i].key);
    }
    config_bits(&s, by, 4);
    config_bits(&s, by, 8);
    sk__str_addf(&s, "#define SK_IDX_T %s\n", wide_index ? "ulong" : "uint");
    if (r->value_size) sk__config_value_type(&s, r->value_size);
    return sk__str_take(&s);
}

/* ---- the sort ---------------------------------------------------------------- */

/* The buffers of one sort: the caller's, a field's keys, the permutation. */
typedef struct fields_job {
    sk_context *ctx;
    const fields_req *r;
    const sk__program *prog;
    size_t index_size;
    cl_mem elems, values, keys, index;
} fields_job;

/* keys = field f of every struct, in the order the permutation says (first:
 * the input order, which the permutation then starts as). */
static sk_status extract(fields_job *j, size_t f, bool first)
{
    bool wide = sk_type_size(j->r->by->fields[f].key_type) == 8;
    sk__args a;
    sk__args_init(&a, j->ctx, j->prog, wide ? K_EXTRACT64 : K_EXTRACT32);
    sk__arg_mem(&a, j->elems);
    sk__arg_mem(&a, j->index);
    sk__arg_mem(&a, j->keys);
    sk__arg_ulong(&a, "n", j->r->n);
    sk__arg_uint(&a, "field", (unsigned)f);
    sk__arg_uint(&a, "first", first);
    return sk__args_launch_each(&a, j->r->n);
}

/* src gathered by the permutation into scratch, then copied back. */
static sk_status gather(fields_job *j, unsigned kernel, const sk__scratch_id *id, cl_mem src,
                        size_t elem)
{
    size_t bytes = j->r->n * elem;
    cl_mem tmp = NULL;
    sk_status st = sk__scratch_get(j->ctx, id, bytes, &tmp);
    if (st != SK_OK) return st;
    sk__args a;
    sk__args_init(&a, j->ctx, j->prog, kernel);
    sk__arg_mem(&a, src);
    sk__arg_mem(&a, j->index);
    sk__arg_mem(&a, tmp);
    sk__arg_ulong(&a, "n", j->r->n);
    st = sk__args_launch_each(&a, j->r->n);
    if (st == SK_OK) st = sk__copy(j->ctx, tmp, 0, src, 0, bytes);
    return st;
}

/* Sorts validated buffers. */
static sk_status fields_run(sk_context *ctx, const fields_req *r, cl_mem elems, cl_mem values)
{
    if (r->n < 2) return SK_OK;
    const sk_field_order *by = r->by;
    bool wide = r->n > UINT32_MAX;
    fields_job j = {ctx, r, NULL, wide ? 8 : 4, elems, values, NULL, NULL};
    sk_status st = SK_OK;
    SK_TRY(sk__program_take(ctx, "sort_fields", fields_config(r, wide), kernels,
                            r->value_size ? 4 : 3, &j.prog));
    SK_TRY(sk__scratch_get(ctx, &fields_keys, r->n * 8, &j.keys));
    SK_TRY(sk__scratch_get(ctx, &fields_index, r->n * j.index_size, &j.index));
    for (size_t f = by->field_count; f-- > 0;) {
        const sk_sort_field *field = &by->fields[f];
        sort_req s = {field->key_type, j.index_size, r->n, field->order, 0,
                      sk__sort_all_bits(field->key_type)};
        SK_TRY(extract(&j, f, f + 1 == by->field_count));
        SK_TRY(sk__sort_run(ctx, &s, j.keys, j.index));
    }
    SK_TRY(gather(&j, K_GATHER, &fields_elems, elems, by->size));
    if (r->value_size) SK_TRY(gather(&j, K_GATHER_VALUES, &fields_values, values, r->value_size));
out:
    return st;
}

static sk_status fields_mem(sk_context *ctx, const fields_req *r, cl_mem elems, cl_mem values,
                            bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st == SK_OK) st = check_buffers(ctx, r, elems, values);
    if (st == SK_OK) st = fields_run(ctx, r, elems, values);
    return st;
}

/* ---- host-array forms ---------------------------------------------------------- */

static sk_status fields_run_in_place(sk_context *ctx, const void *req, cl_mem elems,
                                     cl_mem values)
{
    return fields_run(ctx, req, elems, values);
}

static sk_status fields_host(sk_context *ctx, const fields_req *r, void *elems, void *values,
                             bool pairs)
{
    SK_ENTER(ctx);
    sk_status st = validate_req(ctx, r, pairs);
    if (st != SK_OK) return st;
    if ((st = sk__check_host_arrays(ctx, r->n, elems, values, pairs, "elems")) != SK_OK) return st;
    if (r->n < 2) return SK_OK;
    return sk__host_in_place(ctx, elems, r->n * r->by->size, values, r->n * r->value_size,
                             "the structs' device copy", fields_run_in_place, r);
}

/* ---- entry points ------------------------------------------------------------------ */

sk_status sk_sort_by_fields(sk_context *ctx, const sk_field_order *by, cl_mem elems, size_t n)
{
    fields_req r = {by, 0, n};
    return fields_mem(ctx, &r, elems, NULL, false);
}

sk_status sk_sort_pairs_by_fields(sk_context *ctx, const sk_field_order *by, size_t value_size,
                                  cl_mem elems, cl_mem values, size_t n)
{
    fields_req r = {by, value_size, n};
    return fields_mem(ctx, &r, elems, values, true);
}

sk_status sk_sort_by_fields_host(sk_context *ctx, const sk_field_order *by, void *elems,
                                 size_t n)
{
    fields_req r = {by, 0, n};
    return fields_host(ctx, &r, elems, NULL, false);
}

sk_status sk_sort_pairs_by_fields_host(sk_context *ctx, const sk_field_order *by,
                                       size_t value_size, void *elems, void *values, size_t n)
{
    fields_req r = {by, value_size, n};
    return fields_host(ctx, &r, elems, values, true);
}
