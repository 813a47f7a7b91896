/*
 * errors.c - version and status names, OpenCL error names, a context's
 * failure detail and log, and the string builder: what every other file of
 * the library uses and which uses nothing of theirs.
 */
#define _POSIX_C_SOURCE 200809L
#include "sk_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- version and status names ------------------------------------------------ */

#define SK_STR2_(x) #x
#define SK_STR_(x) SK_STR2_(x)

unsigned sk_version_number(void) { return SK_VERSION_NUMBER; }

const char *sk_version_string(void)
{
    return SK_STR_(SK_VERSION_MAJOR) "." SK_STR_(SK_VERSION_MINOR) "." SK_STR_(SK_VERSION_PATCH);
}

const char *sk_status_name(sk_status st)
{
    switch (st) {
#define SK_STATUS_NAME_(name, value, text) case SK_##name: return #name;
        SK_STATUS_MAP(SK_STATUS_NAME_)
#undef SK_STATUS_NAME_
    }
    return "UNKNOWN";
}

const char *sk_status_str(sk_status st)
{
    switch (st) {
#define SK_STATUS_TEXT_(name, value, text) case SK_##name: return text;
        SK_STATUS_MAP(SK_STATUS_TEXT_)
#undef SK_STATUS_TEXT_
    }
    return "unknown status";
}

const char *sk_cl_error_name(cl_int code)
{
    switch (code) {
#define SK_CL_NAME_(c) case c: return #c;
        SK_CL_NAME_(CL_SUCCESS) SK_CL_NAME_(CL_DEVICE_NOT_FOUND)
        SK_CL_NAME_(CL_DEVICE_NOT_AVAILABLE) SK_CL_NAME_(CL_COMPILER_NOT_AVAILABLE)
        SK_CL_NAME_(CL_MEM_OBJECT_ALLOCATION_FAILURE) SK_CL_NAME_(CL_OUT_OF_RESOURCES)
        SK_CL_NAME_(CL_OUT_OF_HOST_MEMORY) SK_CL_NAME_(CL_PROFILING_INFO_NOT_AVAILABLE)
        SK_CL_NAME_(CL_MEM_COPY_OVERLAP) SK_CL_NAME_(CL_IMAGE_FORMAT_MISMATCH)
        SK_CL_NAME_(CL_IMAGE_FORMAT_NOT_SUPPORTED) SK_CL_NAME_(CL_BUILD_PROGRAM_FAILURE)
        SK_CL_NAME_(CL_MAP_FAILURE) SK_CL_NAME_(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        SK_CL_NAME_(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        SK_CL_NAME_(CL_COMPILE_PROGRAM_FAILURE) SK_CL_NAME_(CL_LINKER_NOT_AVAILABLE)
        SK_CL_NAME_(CL_LINK_PROGRAM_FAILURE) SK_CL_NAME_(CL_DEVICE_PARTITION_FAILED)
        SK_CL_NAME_(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) SK_CL_NAME_(CL_INVALID_VALUE)
        SK_CL_NAME_(CL_INVALID_DEVICE_TYPE) SK_CL_NAME_(CL_INVALID_PLATFORM)
        SK_CL_NAME_(CL_INVALID_DEVICE) SK_CL_NAME_(CL_INVALID_CONTEXT)
        SK_CL_NAME_(CL_INVALID_QUEUE_PROPERTIES) SK_CL_NAME_(CL_INVALID_COMMAND_QUEUE)
        SK_CL_NAME_(CL_INVALID_HOST_PTR) SK_CL_NAME_(CL_INVALID_MEM_OBJECT)
        SK_CL_NAME_(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) SK_CL_NAME_(CL_INVALID_IMAGE_SIZE)
        SK_CL_NAME_(CL_INVALID_SAMPLER) SK_CL_NAME_(CL_INVALID_BINARY)
        SK_CL_NAME_(CL_INVALID_BUILD_OPTIONS) SK_CL_NAME_(CL_INVALID_PROGRAM)
        SK_CL_NAME_(CL_INVALID_PROGRAM_EXECUTABLE) SK_CL_NAME_(CL_INVALID_KERNEL_NAME)
        SK_CL_NAME_(CL_INVALID_KERNEL_DEFINITION) SK_CL_NAME_(CL_INVALID_KERNEL)
        SK_CL_NAME_(CL_INVALID_ARG_INDEX) SK_CL_NAME_(CL_INVALID_ARG_VALUE)
        SK_CL_NAME_(CL_INVALID_ARG_SIZE) SK_CL_NAME_(CL_INVALID_KERNEL_ARGS)
        SK_CL_NAME_(CL_INVALID_WORK_DIMENSION) SK_CL_NAME_(CL_INVALID_WORK_GROUP_SIZE)
        SK_CL_NAME_(CL_INVALID_WORK_ITEM_SIZE) SK_CL_NAME_(CL_INVALID_GLOBAL_OFFSET)
        SK_CL_NAME_(CL_INVALID_EVENT_WAIT_LIST) SK_CL_NAME_(CL_INVALID_EVENT)
        SK_CL_NAME_(CL_INVALID_OPERATION) SK_CL_NAME_(CL_INVALID_GL_OBJECT)
        SK_CL_NAME_(CL_INVALID_BUFFER_SIZE) SK_CL_NAME_(CL_INVALID_MIP_LEVEL)
        SK_CL_NAME_(CL_INVALID_GLOBAL_WORK_SIZE) SK_CL_NAME_(CL_INVALID_PROPERTY)
        SK_CL_NAME_(CL_INVALID_IMAGE_DESCRIPTOR) SK_CL_NAME_(CL_INVALID_COMPILER_OPTIONS)
        SK_CL_NAME_(CL_INVALID_LINKER_OPTIONS) SK_CL_NAME_(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef SK_CL_NAME_
    }
    return "CL_UNKNOWN_ERROR";
}

/* ---- errors and logging ------------------------------------------------------ */

void sk__log(const sk_context *ctx, const char *fmt, ...)
{
    if (!ctx || !ctx->log) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("scankit: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Replaces the detail by the formatted text, whole (NULL when out of memory). */
static void set_detail(sk_context *ctx, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    char *detail = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (detail) vsnprintf(detail, (size_t)len + 1, fmt, again);
    va_end(again);
    free(ctx->detail);
    ctx->detail = detail;
}

sk_status sk__fail(sk_context *ctx, sk_status st, const char *fmt, ...)
{
    if (!ctx) return st;
    va_list ap;
    va_start(ap, fmt);
    set_detail(ctx, fmt, ap);
    va_end(ap);
    sk__log(ctx, "%s: %s", sk_status_name(st), sk_context_error_detail(ctx));
    return st;
}

sk_status sk__fail_cl(sk_context *ctx, cl_int code, const char *what)
{
    sk_status st = SK_E_CL;
    if (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY ||
        code == CL_INVALID_BUFFER_SIZE)
        st = SK_E_OUT_OF_MEMORY;
    if (ctx) ctx->last_cl_error = code;
    char call[96];
    size_t k = strcspn(what, "(");
    snprintf(call, sizeof call, "%.*s", (int)(k < 80 ? k : 80), what);
    return sk__fail(ctx, st, "%s failed: %s (%d)", call, sk_cl_error_name(code), (int)code);
}

void sk__clear_error(sk_context *ctx)
{
    free(ctx->detail);
    ctx->detail = NULL;
    ctx->last_cl_error = CL_SUCCESS;
}

const char *sk_context_error_detail(const sk_context *ctx)
{
    return ctx && ctx->detail ? ctx->detail : "";
}
cl_int sk_context_cl_error(const sk_context *ctx) { return ctx ? ctx->last_cl_error : CL_SUCCESS; }

const char *sk_context_build_log(const sk_context *ctx)
{
    return (ctx && ctx->build_log) ? ctx->build_log : "";
}

/* ---- string builder ----------------------------------------------------------- */

static bool str_grow(sk__str *s, size_t need)
{
    size_t cap = (s->cap + need + 1) * 2;
    char *b = realloc(s->buf, cap);
    if (!b) return false;
    s->buf = b;
    s->cap = cap;
    return true;
}

void sk__str_addf(sk__str *s, const char *fmt, ...)
{
    if (s->failed) return;
    if (!s->buf && !str_grow(s, 256)) {
        s->failed = true;
        return;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = s->cap - s->len;
        int n = vsnprintf(s->buf + s->len, room, fmt, ap);
        va_end(ap);
        if (n < 0 || ((size_t)n >= room && !str_grow(s, (size_t)n))) {
            s->failed = true;
            return;
        }
        if ((size_t)n < room) {
            s->len += (size_t)n;
            return;
        }
    }
}

void sk__str_add(sk__str *s, const char *text)
{
    if (s->failed) return;
    if (!text) {
        s->failed = true;
        return;
    }
    size_t len = strlen(text);
    if (s->cap - s->len <= len && !str_grow(s, len)) {
        s->failed = true;
        return;
    }
    memcpy(s->buf + s->len, text, len + 1);
    s->len += len;
}

void sk__str_free(sk__str *s)
{
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

char *sk__str_take(sk__str *s)
{
    if (!s->failed) return s->buf;
    sk__str_free(s);
    return NULL;
}
