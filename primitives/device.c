/*
 * device.c - enumerating OpenCL devices and choosing one from a spec.
 */
#define _POSIX_C_SOURCE 200809L
#include "sk_internal.h"

#include <ctype.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SK_MAX_PLATFORMS 16
#define SK_MAX_DEVICES 64

static void info_string(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, len, buf, NULL) != CL_SUCCESS) buf[0] = '\0';
    buf[len - 1] = '\0';
}

static bool device_has_fp64(cl_device_id d)
{
    cl_device_fp_config cfg = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL) == CL_SUCCESS &&
        cfg != 0)
        return true;
    char ext[4096];
    info_string(d, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
    return strstr(ext, "cl_khr_fp64") != NULL;
}

sk_status sk__device_describe(cl_platform_id p, cl_device_id d, sk_device_desc *out)
{
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->platform_index = ~0u;
    out->device_index = ~0u;
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof out->platform_name,
                          out->platform_name, NULL) != CL_SUCCESS)
        out->platform_name[0] = '\0';
    out->platform_name[sizeof out->platform_name - 1] = '\0';
    info_string(d, CL_DEVICE_NAME, out->device_name, sizeof out->device_name);
    info_string(d, CL_DEVICE_VERSION, out->device_version, sizeof out->device_version);
    info_string(d, CL_DRIVER_VERSION, out->driver_version, sizeof out->driver_version);
    cl_device_type type = 0;
    cl_uint cus = 0;
    cl_ulong mem = 0, alloc = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL) != CL_SUCCESS)
        return SK_E_CL;
    out->is_gpu = (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    out->has_fp64 = device_has_fp64(d);
    out->compute_units = cus;
    out->global_mem_bytes = mem;
    out->max_alloc_bytes = alloc;
    /* Find the indices the ICD loader gives this device. */
    cl_platform_id ps[SK_MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(SK_MAX_PLATFORMS, ps, &np) != CL_SUCCESS) return SK_OK;
    for (cl_uint i = 0; i < np && i < SK_MAX_PLATFORMS; i++) {
        cl_device_id ds[SK_MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, SK_MAX_DEVICES, ds, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < nd && j < SK_MAX_DEVICES; j++) {
            if (ds[j] == d) {
                out->platform_index = i;
                out->device_index = j;
            }
        }
    }
    return SK_OK;
}

/* Every device of every platform, flattened. */
typedef struct device_entry {
    cl_platform_id platform;
    cl_device_id device;
    unsigned pi, di;
} device_entry;

static size_t enumerate(device_entry *out, size_t cap)
{
    cl_platform_id ps[SK_MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(SK_MAX_PLATFORMS, ps, &np) != CL_SUCCESS) return 0;
    size_t n = 0;
    for (cl_uint i = 0; i < np && i < SK_MAX_PLATFORMS; i++) {
        cl_device_id ds[SK_MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, SK_MAX_DEVICES, ds, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < nd && j < SK_MAX_DEVICES && n < cap; j++)
            out[n++] = (device_entry){ps[i], ds[j], i, j};
    }
    return n;
}

/* The members of sk_device_desc as of 1.0: a caller's struct_size must
 * hold them all. */
#define DESC_SIZE_1_0 (offsetof(sk_device_desc, max_alloc_bytes) + sizeof(uint64_t))

sk_status sk__device_desc_copy(sk_device_desc *out, const sk_device_desc *in)
{
    size_t size = out->struct_size;
    if (size < DESC_SIZE_1_0) return SK_E_INVALID_ARG;
    memcpy(out, in, size < sizeof *in ? size : sizeof *in);
    out->struct_size = size;
    return SK_OK;
}

sk_status sk_device_list(sk_device_desc *out, size_t capacity, size_t *count)
{
    if (!count || (!out && capacity)) return SK_E_INVALID_ARG;
    size_t stride = capacity ? out->struct_size : 0;
    if (capacity && stride < DESC_SIZE_1_0) return SK_E_INVALID_ARG;
    device_entry all[SK_MAX_PLATFORMS * 4];
    size_t n = enumerate(all, sizeof all / sizeof all[0]);
    *count = n;
    if (n == 0) return SK_E_NO_DEVICE;
    for (size_t i = 0; i < n && i < capacity; i++) {
        sk_device_desc d;
        sk__device_describe(all[i].platform, all[i].device, &d);
        d.platform_index = all[i].pi;
        d.device_index = all[i].di;
        sk_device_desc *slot = (sk_device_desc *)(void *)((char *)out + i * stride);
        slot->struct_size = stride;
        sk__device_desc_copy(slot, &d);
    }
    return SK_OK;
}

bool sk__contains_nocase(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < nl && hay[k] &&
               tolower((unsigned char)hay[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == nl) return true;
    }
    return nl == 0;
}

/* Reads the decimal digits at *s (at least one, nothing else: no sign, no
 * blank) into *out, advancing *s past them. */
static bool parse_digits(const char **s, unsigned *out)
{
    unsigned long v = 0;
    const char *p = *s;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > UINT_MAX) return false;
    }
    if (p == *s) return false;
    *s = p;
    *out = (unsigned)v;
    return true;
}

static bool parse_index_pair(const char *s, unsigned *a, unsigned *b)
{
    return parse_digits(&s, a) && *s++ == ':' && parse_digits(&s, b) && *s == '\0';
}

static bool parse_index(const char *s, unsigned *a)
{
    return parse_digits(&s, a) && *s == '\0';
}

/* Does entry e match the spec? Names match on "platform vendor device" and
 * on the device type ("cpu", "gpu"). */
static bool spec_matches(const char *spec, const device_entry *e, size_t flat_index)
{
    unsigned a, b;
    if (parse_index_pair(spec, &a, &b)) return e->pi == a && e->di == b;
    if (parse_index(spec, &a)) return flat_index == a;
    sk_device_desc d;
    if (sk__device_describe(e->platform, e->device, &d) != SK_OK) return false;
    char vendor[128] = "";
    if (clGetPlatformInfo(e->platform, CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL) !=
        CL_SUCCESS)
        vendor[0] = '\0';
    vendor[sizeof vendor - 1] = '\0';
    char full[450];
    snprintf(full, sizeof full, "%s %s %s %s", d.platform_name, vendor, d.device_name,
             d.is_gpu ? "gpu" : "cpu");
    return sk__contains_nocase(full, spec);
}

/* The spec without leading and trailing blanks, in buf[cap]; false when
 * nothing is left or it does not fit. */
static bool trim_spec(const char *spec, char *buf, size_t cap)
{
    spec += strspn(spec, " \t\n");
    size_t len = strlen(spec);
    while (len > 0 && strchr(" \t\n", spec[len - 1])) len--;
    if (len == 0 || len >= cap) return false;
    memcpy(buf, spec, len);
    buf[len] = '\0';
    return true;
}

/* The first GPU, else the first device. */
static size_t default_entry(const device_entry *all, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cl_device_type t = 0;
        if (clGetDeviceInfo(all[i].device, CL_DEVICE_TYPE, sizeof t, &t, NULL) == CL_SUCCESS &&
            (t & CL_DEVICE_TYPE_GPU))
            return i;
    }
    return 0;
}

/* "no OpenCL device matches "spec"; the devices are: 0 (0:0) NAME [PLATFORM],
 * ..." in why[why_len], cut to fit. */
static void describe_devices(char *why, size_t why_len, const char *spec,
                             const device_entry *all, size_t n)
{
    int used = snprintf(why, why_len, "no OpenCL device matches \"%s\"; the devices are:", spec);
    for (size_t i = 0; i < n && used >= 0 && (size_t)used < why_len; i++) {
        sk_device_desc d;
        if (sk__device_describe(all[i].platform, all[i].device, &d) != SK_OK) continue;
        int more = snprintf(why + used, why_len - (size_t)used, "%s %zu (%u:%u) %s [%s]",
                            i ? ";" : "", i, all[i].pi, all[i].di, d.device_name,
                            d.platform_name);
        if (more < 0) break;
        used += more;
    }
}

sk_status sk__device_choose(const char *spec, cl_platform_id *platform,
                            cl_device_id *device, char *why, size_t why_len)
{
    device_entry all[SK_MAX_PLATFORMS * 4];
    size_t n = enumerate(all, sizeof all / sizeof all[0]);
    if (n == 0) {
        snprintf(why, why_len, "no OpenCL platform or device found");
        return SK_E_NO_DEVICE;
    }
    if (!spec) spec = getenv("SCANKIT_DEVICE");
    size_t pick = n;
    char trimmed[256];
    if (!spec) {
        pick = default_entry(all, n);
    } else if (!trim_spec(spec, trimmed, sizeof trimmed)) {
        snprintf(why, why_len, "an empty or overlong device spec matches no device");
        return SK_E_NO_DEVICE;
    } else {
        for (size_t i = 0; i < n && pick == n; i++)
            if (spec_matches(trimmed, &all[i], i)) pick = i;
    }
    if (pick == n) {
        describe_devices(why, why_len, trimmed, all, n);
        return SK_E_NO_DEVICE;
    }
    *platform = all[pick].platform;
    *device = all[pick].device;
    return SK_OK;
}
