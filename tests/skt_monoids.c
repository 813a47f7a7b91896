/*
 * skt_monoids.c - the custom monoids several test files share (declared in
 * skt_common.h): 2x2 matrices, intervals, affine maps, and their random
 * inputs; the references are tests/ref's.
 */
#include "skt_common.h"

#include <stdint.h>
#include <string.h>

/* ---- custom monoids ---------------------------------------------------------------------- */

static const char mono_mat2_preamble[] =
    "/* 2x2 matrices modulo 2^32, row-major (s0 s1; s2 s3). */\n"
    "uint4 skt_mat2_mul(uint4 x, uint4 y)\n"
    "{\n"
    "    return (uint4)(x.s0 * y.s0 + x.s1 * y.s2,\n"
    "                   x.s0 * y.s1 + x.s1 * y.s3,\n"
    "                   x.s2 * y.s0 + x.s3 * y.s2,\n"
    "                   x.s2 * y.s1 + x.s3 * y.s3);\n"
    "}\n";

static const sk_monoid mono_mat2 = {
    .type = "uint4",
    .size = 16,
    .identity = "(uint4)(1u, 0u, 0u, 1u)",
    .combine = "skt_mat2_mul(a, b)",
    .preamble = mono_mat2_preamble,
};

static const sk_monoid mono_affine = {
    .type = "skt_affine_t",
    .size = 12,
    .identity = "skt_affine_id()",
    .combine = "skt_affine_then(a, b)",
    .preamble =
        "typedef struct { uint m; uint c; uint len; } skt_affine_t;\n"
        "skt_affine_t skt_affine_id(void)\n"
        "{\n"
        "    skt_affine_t r; r.m = 1u; r.c = 0u; r.len = 0u; return r;\n"
        "}\n"
        "/* x -> a.m*x + a.c, then x -> b.m*x + b.c */\n"
        "skt_affine_t skt_affine_then(skt_affine_t a, skt_affine_t b)\n"
        "{\n"
        "    skt_affine_t r;\n"
        "    r.m = a.m * b.m;\n"
        "    r.c = a.c * b.m + b.c;\n"
        "    r.len = a.len + b.len;\n"
        "    return r;\n"
        "}\n",
};

/* The interval-of-summations monoid of VERIFY.md on the OpenCL type T of
 * SIZE bytes, combined by FN; ID and TOP the lanes of the identity and of
 * top; NOTE its comment. */
#define SKT_IV_MONOID(T, SIZE, FN, ID, TOP, NOTE)                                    \
    {                                                                               \
        .type = #T, .size = SIZE, .identity = "(" #T ")(" ID ", " ID ")",            \
        .combine = FN "(a, b)",                                                     \
        .preamble = NOTE #T " " FN "(" #T " a, " #T " b)\n"                          \
                    "{\n"                                                           \
                    "    if (a.x == " ID ") return b;\n"                            \
                    "    if (b.x == " ID ") return a;\n"                            \
                    "    if (a.x == " TOP " || b.x == " TOP ") return (" #T ")(" TOP \
                    ", " TOP ");\n"                                                 \
                    "    if (a.y + 1 == b.x) return (" #T ")(a.x, b.y);\n"           \
                    "    return (" #T ")(" TOP ", " TOP ");\n"                       \
                    "}\n",                                                          \
    }

static const sk_monoid mono_interval =
    SKT_IV_MONOID(int2, 8, "skt_iv_combine", "-1", "-2",
                  "/* VERIFY.md: (i, j) stands for in_i + ... + in_j; (-1,-1) is the\n"
                  " * identity, (-2,-2) is top (any non-contiguous sum). */\n");

static const sk_monoid mono_interval16 =
    SKT_IV_MONOID(ushort2, 4, "skt_iv16_combine", "0xFFFF", "0xFFFE",
                  "/* VERIFY.md on 16 bits: (i, j) with i, j < 0xFFFE; (0xFFFF,0xFFFF) is\n"
                  " * the identity, (0xFFFE,0xFFFE) is top. */\n");

static const sk_monoid mono_mat2_lines = {
    .type = "uint4",
    .size = 16,
    .identity = "(uint4)(1u, 0u, // first row\n"
                "        0u, 1u) // second row",
    .combine = "skt_mat2_mul(a, // the left operand\n"
               "             b) // then the right one",
    .preamble = mono_mat2_preamble,
};

const sk_monoid *skt_monoid_mat2(void) { return &mono_mat2; }
const sk_monoid *skt_monoid_mat2_lines(void) { return &mono_mat2_lines; }
const sk_monoid *skt_monoid_affine(void) { return &mono_affine; }
const sk_monoid *skt_monoid_interval(void) { return &mono_interval; }
const sk_monoid *skt_monoid_interval16(void) { return &mono_interval16; }

void skt_fill_mat2(skt_mat2 *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        skt_mat2 m;
        do {
            uint64_t r1 = skt_rand(), r2 = skt_rand();
            m.a = (uint32_t)r1;
            m.b = (uint32_t)(r1 >> 32);
            m.c = (uint32_t)r2;
            m.d = (uint32_t)(r2 >> 32);
        } while (((m.a * m.d - m.b * m.c) & 1u) == 0);
        dst[i] = m;
    }
}

void skt_fill_affine(skt_affine *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = skt_rand();
        dst[i].m = (uint32_t)r | 1u; /* odd: the product never collapses */
        dst[i].c = (uint32_t)(r >> 32);
        dst[i].len = (uint32_t)skt_rand_below(1000);
    }
}
