/*
 * scankit.h - data-parallel primitives for OpenCL devices.
 *
 * One work-efficient multi-work-group prefix scan, and the primitives built
 * on it. Every primitive works on cl_mem buffers (data stays on the device,
 * calls are asynchronous on the context's in-order queue) and has a host-array
 * form that copies in, runs and copies out (blocking). On GPUs the host-array
 * forms copy large arrays (8 MiB and more) through pinned memory of the
 * context's (CL_MEM_ALLOC_HOST_PTR: up to 24 slots of 4 MiB, made on first
 * use, kept until sk_context_trim() or sk_context_free()), in pieces shared
 * by up to 12 threads that the call starts and joins: near the bus's speed
 * where the driver's own copy from pageable memory runs at a fraction of it.
 *
 * Every function returns an sk_status: SK_OK (0) on success, a negative code
 * otherwise. On failure outputs are left untouched, and the context keeps the
 * details: sk_context_error_detail(), sk_context_cl_error(),
 * sk_context_build_log().
 *
 * One context per thread. The library never prints unless SCANKIT_LOG=1, and
 * never exits.
 *
 * Conventions (every declaration below follows them):
 *
 *  - Argument order: the context; then what the call computes on: the
 *    element (or key) type or monoid, a value size (forms carrying values),
 *    a flag size (forms reading flags), then the operator or predicate; then
 *    the inputs (data first, then what describes it: flags, segments, a
 *    point; two inputs one after the other, each with its values); then
 *    the outputs (data first, then counts); then the sizes (n, or ncoef
 *    and npoints, or na and nb, or n_haystack and n_needles); then the
 *    options (sort order, bit range).
 *    A buffer both read and written (the sorts) stands where the inputs do.
 *
 *  - Names: sk_<primitive>[_pairs][_bits][_monoid][_host | _devcount].
 *      _pairs     values are carried along with the keys;
 *      _bits      only a range of the key's bits is looked at;
 *      _monoid    the operator is the caller's (sk_monoid) instead of sk_op;
 *      _host      host arrays instead of cl_mem buffers; copies in, runs,
 *                 copies out; blocking;
 *      _devcount  the count a compaction returns is written to a cl_mem
 *                 (one uint64) instead of host memory: nothing blocks.
 *    Every primitive has every variant its kind admits: each cl_mem form
 *    has a _host form; the scans, reductions and segmented scans have
 *    _monoid forms; the sorts have _pairs and _bits forms, the merges
 *    _pairs forms; each compaction mode has a _pairs form, and its cl_mem
 *    forms _devcount forms.
 *
 *  - Stable and experimental: everything declared outside the
 *    SCANKIT_EXPERIMENTAL section keeps its meaning, signature and ABI
 *    through every 1.x release (new functions and enum values may be
 *    added; a struct that may grow carries its own size, see
 *    sk_device_desc). The declarations after "#ifdef SCANKIT_EXPERIMENTAL"
 *    (tuning parameters, launch tracing, build counters) may change in any
 *    release: define SCANKIT_EXPERIMENTAL before including this header to
 *    see them, and build against the exact version you run with.
 *    Every stable declaration exists since 1.0 unless its comment names a
 *    later version.
 */
#ifndef SCANKIT_H
#define SCANKIT_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Version and export                                                        */
/* ------------------------------------------------------------------------ */

#define SK_VERSION_MAJOR 1
#define SK_VERSION_MINOR 0
#define SK_VERSION_PATCH 0
#define SK_VERSION_NUMBER \
    (SK_VERSION_MAJOR * 10000 + SK_VERSION_MINOR * 100 + SK_VERSION_PATCH)

/* SK_API marks what the library exports. scankit builds on POSIX systems
 * with GCC or Clang, where the library is compiled with hidden visibility
 * and these declarations are its exports; any other compiler gets plain
 * declarations. */
#if defined(__GNUC__)
#define SK_API __attribute__((visibility("default")))
#else
#define SK_API
#endif

/*! sk_version_number() :
 *  @return SK_VERSION_NUMBER of the library actually linked.
 */
SK_API unsigned sk_version_number(void);

/*! sk_version_string() :
 *  @return the version as "MAJOR.MINOR.PATCH", a static string.
 */
SK_API const char *sk_version_string(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

/* X(name, value, description). Values are stable once released. */
#define SK_STATUS_MAP(X)                                                      \
    X(OK,               0, "success")                                         \
    X(E_INVALID_ARG,   -1, "invalid argument")                                \
    X(E_UNSUPPORTED,   -2, "type or operation not supported on this device")  \
    X(E_BUILD,         -3, "kernel build failed")                             \
    X(E_CL,            -4, "OpenCL call failed")                              \
    X(E_NO_DEVICE,     -5, "no matching OpenCL device")                       \
    X(E_OUT_OF_MEMORY, -6, "out of host or device memory")                    \
    X(E_SIZE,          -7, "size out of range")                              \
    X(E_IO,            -8, "reading, writing or a temporary file failed")    \
    X(E_COMM,          -9, "communication between processes failed")

/*! sk_status :
 *  Result of every scankit call. 0 is success, errors are negative.
 *  SK_E_SIZE comes from any call that takes an element count: n elements
 *  whose byte size overflows size_t, or a buffer the call must allocate
 *  (a host form's device copy, scratch) larger than the device's largest
 *  allocation (sk_device_desc.max_alloc_bytes). Outputs are then
 *  untouched. It also comes from a call that needs more of the caller's
 *  scratch than was given (sk_context_set_scratch(); outputs then
 *  unspecified). SK_E_OUT_OF_MEMORY is an allocation under that limit that
 *  failed. SK_E_COMM (since 1.1) comes from scankit_mpi.h's functions
 *  only: an MPI call that returned an error. */
typedef enum sk_status {
#define SK_STATUS_ENUM_(name, value, text) SK_##name = value,
    SK_STATUS_MAP(SK_STATUS_ENUM_)
#undef SK_STATUS_ENUM_
} sk_status;

/*! sk_status_name() :
 *  @return the code's identifier without prefix, e.g. "E_BUILD";
 *  "UNKNOWN" for a value that is not a status.
 */
SK_API const char *sk_status_name(sk_status st);

/*! sk_status_str() :
 *  @return a short English description of the code, e.g. "kernel build failed".
 */
SK_API const char *sk_status_str(sk_status st);

/*! sk_cl_error_name() :
 *  @return the name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
 */
SK_API const char *sk_cl_error_name(cl_int code);

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

/*! sk_device_desc :
 *  One OpenCL device as seen through the ICD loader.
 *  struct_size is set by the caller to sizeof(sk_device_desc) as the caller
 *  compiled it (SK_DEVICE_DESC_INIT does); the library fills the members
 *  that fit in it and leaves the rest alone, so a program built against
 *  1.0 keeps working with a later library whose struct has grown at its
 *  end, and the reverse. A struct_size below the 1.0 size gives
 *  SK_E_INVALID_ARG. */
typedef struct sk_device_desc {
    size_t struct_size;        /* set by the caller: sizeof(sk_device_desc) */
    unsigned platform_index;   /* index among clGetPlatformIDs results  */
    unsigned device_index;     /* index among that platform's devices   */
    char platform_name[128];
    char device_name[128];
    char device_version[128];  /* CL_DEVICE_VERSION                      */
    char driver_version[64];   /* CL_DRIVER_VERSION                      */
    int is_gpu;                /* CL_DEVICE_TYPE_GPU (or accelerator)    */
    int has_fp64;              /* double precision available             */
    unsigned compute_units;
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
} sk_device_desc;

/*! SK_DEVICE_DESC_INIT : an initialiser that sets struct_size, e.g.
 *  `sk_device_desc d = SK_DEVICE_DESC_INIT;`. */
#define SK_DEVICE_DESC_INIT \
    {sizeof(sk_device_desc), 0u, 0u, "", "", "", "", 0, 0, 0u, 0u, 0u}

/*! sk_device_list() :
 *  Fills up to `capacity` entries of `out` (may be NULL when capacity is 0)
 *  and sets *count to the number of devices present (which may exceed
 *  capacity). The order is platform order, then device order. The entries
 *  are out[0].struct_size bytes apart, and each is filled as
 *  sk_context_device() fills one (the caller sets out[0].struct_size only).
 *  @return SK_OK, SK_E_INVALID_ARG (count NULL, out NULL with a capacity,
 *  out[0].struct_size below the 1.0 size) or SK_E_NO_DEVICE (no OpenCL
 *  platform at all; *count is then 0).
 */
SK_API sk_status sk_device_list(sk_device_desc *out, size_t capacity,
                                size_t *count);

/* ------------------------------------------------------------------------ */
/* Context                                                                   */
/* ------------------------------------------------------------------------ */

/*! sk_context :
 *  Owns (or wraps) an OpenCL device, context and in-order queue, the cache of
 *  built programs, the scratch buffers and the last error. Opaque. */
typedef struct sk_context sk_context;

/*! sk_context_create() :
 *  Opens a context on one device. `device_spec` chooses it:
 *    - "P:D"           platform index P, device index D (as sk_device_list);
 *    - "N"             the N-th device in sk_device_list order;
 *    - any other text  the first device whose platform name, platform vendor,
 *                      device name or type ("cpu"/"gpu") contains it,
 *                      case-insensitively (e.g. "nvidia", "pocl", "cpu");
 *    - NULL            $SCANKIT_DEVICE if set (read as a spec), else the
 *                      first GPU, else the first device.
 *  Leading and trailing blanks are ignored ("0 " is "0"); an index is
 *  decimal digits only; a spec that is empty (or only blanks), "" in
 *  SCANKIT_DEVICE too, matches no device.
 *  The queue is in order with profiling enabled.
 *  On failure *ctx is NULL and, when `why` is not NULL, the reason (which
 *  spec matched nothing and what the devices are, or which OpenCL call
 *  failed and its error) is written to why[why_size], NUL-terminated and
 *  cut to fit; on success why[0] is NUL. why may be NULL (why_size is then
 *  ignored).
 *  @return SK_OK, SK_E_INVALID_ARG (ctx NULL), SK_E_NO_DEVICE (nothing
 *  matches), SK_E_CL or SK_E_OUT_OF_MEMORY.
 */
SK_API sk_status sk_context_create(sk_context **ctx, const char *device_spec,
                                   char *why, size_t why_size);

/*! sk_context_wrap() :
 *  Opens a context on OpenCL objects the caller already has. The queue must
 *  belong to `context` and `device` and must be in order. scankit retains the
 *  three objects and releases them in sk_context_free(); the caller keeps its
 *  own references.
 *  @return SK_OK, SK_E_INVALID_ARG, SK_E_CL or SK_E_OUT_OF_MEMORY.
 */
SK_API sk_status sk_context_wrap(sk_context **ctx, cl_context context,
                                 cl_device_id device, cl_command_queue queue);

/*! sk_context_free() :
 *  Waits for queued work, releases programs, scratch and OpenCL objects.
 *  NULL is accepted and does nothing.
 */
SK_API void sk_context_free(sk_context *ctx);

/*! sk_context_trim() :
 *  Waits for queued work, then releases what the context caches between
 *  calls: the scratch buffers (each primitive's grows to its largest call
 *  so far and stays; a buffer given by sk_context_set_scratch() stays
 *  set) and the built programs held in memory (the on-disk
 *  program cache keeps them, so the next call that needs one loads it
 *  without compiling) with the builds that failed (sk_context_build_log),
 *  and the host-array forms' pinned memory. The
 *  context stays usable; the next calls allocate
 *  and load what they need again. Parameters, trace and profile settings
 *  stay.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL ctx) or SK_E_CL. */
SK_API sk_status sk_context_trim(sk_context *ctx);

/*! sk_context_set_scratch() :
 *  Scratch memory the caller provides (CUB's temporary storage). From this
 *  call on, the calls on ctx take the memory they need between their inputs
 *  and outputs (partials, counts, histograms, look-back state, the sort's
 *  second buffer) from bytes [0, bytes) of `scratch` instead of buffers of
 *  their own; the host-array forms' device copies of the caller's arrays
 *  stay the context's. Each call carves its regions from offset 0 anew and
 *  keeps nothing there between calls, so one buffer serves calls of any
 *  primitive; the calls are asynchronous, so the caller may put other data
 *  in `scratch` once the queue has finished them (commands enqueued after
 *  them on the context's in-order queue see them finished). A call that
 *  needs more than `bytes` fails with SK_E_SIZE and the detail says how
 *  much; its outputs are then unspecified: measure first
 *  (sk_context_scratch_query_begin()). `scratch` must be a read-write
 *  buffer, not a sub-buffer, of the context's OpenCL context, holding at
 *  least `bytes` bytes; the context retains it until the next call of this
 *  function or sk_context_free(). NULL (bytes ignored) returns to the
 *  context's own scratch.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL ctx, a bad buffer; the setting
 *  stays as it was) or SK_E_CL.
 */
SK_API sk_status sk_context_set_scratch(sk_context *ctx, cl_mem scratch, size_t bytes);

/*! sk_context_scratch_query_begin(), sk_context_scratch_query_end() :
 *  How much scratch calls need. Between the two, the calls of the cl_mem
 *  forms check their arguments, choose their kernels and build their
 *  programs as they would to run, and enqueue nothing: no buffer is read
 *  or written, results and counts they would read from the device are 0
 *  (sk_segreduce() by offsets still gives the caller's count), and
 *  they return the status their arguments would give. The host-array forms
 *  are not measured (their own device copies are not scratch): those that
 *  would stage data return SK_E_INVALID_ARG. _end stores in *bytes (may be
 *  NULL) the most scratch any one of the measured calls takes, which is
 *  what sk_context_set_scratch() needs for each of them, and ends
 *  measuring. A size holds for this context (its device and parameters)
 *  and the same arguments (type, operator, sizes, n); the sort counts every
 *  radix pass whatever the keys. Calling _begin twice, or _end without
 *  _begin, is SK_E_INVALID_ARG.
 *  @return SK_OK, SK_E_INVALID_ARG or SK_E_CL.
 *
 *  Example: size_t need = 0;
 *           sk_context_scratch_query_begin(ctx);
 *           sk_sort_pairs(ctx, SK_UINT32, 4, keys, values, n, SK_ASCENDING);
 *           sk_context_scratch_query_end(ctx, &need);
 *           (allocate `need` bytes as buf, then)
 *           sk_context_set_scratch(ctx, buf, need);
 */
SK_API sk_status sk_context_scratch_query_begin(sk_context *ctx);
SK_API sk_status sk_context_scratch_query_end(sk_context *ctx, size_t *bytes);

/*! sk_context_cl_context(), sk_context_cl_device(), sk_context_cl_queue() :
 *  @return the OpenCL objects the context uses (not retained for the caller).
 */
SK_API cl_context sk_context_cl_context(const sk_context *ctx);
SK_API cl_device_id sk_context_cl_device(const sk_context *ctx);
SK_API cl_command_queue sk_context_cl_queue(const sk_context *ctx);

/*! sk_context_device() :
 *  Fills *out with the description of the context's device (platform_index
 *  and device_index are those of sk_device_list, or ~0u for a wrapped device
 *  that the ICD loader does not list).
 *  @return SK_OK or SK_E_INVALID_ARG.
 */
SK_API sk_status sk_context_device(const sk_context *ctx, sk_device_desc *out);

/*! sk_context_finish() :
 *  Blocks until all work queued on the context's queue has completed.
 *  @return SK_OK, SK_E_INVALID_ARG or SK_E_CL.
 */
SK_API sk_status sk_context_finish(sk_context *ctx);

/*! sk_context_error_detail() :
 *  @return a one-line description of the last failure on this context
 *  (what failed and why), or "" when the last call succeeded. Valid until
 *  the next call on the context.
 */
SK_API const char *sk_context_error_detail(const sk_context *ctx);

/*! sk_context_cl_error() :
 *  @return the raw cl_int of the last failed OpenCL call (CL_SUCCESS if the
 *  last failure was not an OpenCL one).
 */
SK_API cl_int sk_context_cl_error(const sk_context *ctx);

/*! sk_context_build_log() :
 *  @return the compiler log of the last program build that failed on this
 *  context, "" if none failed. Valid until the next failing build.
 *  A configuration that failed to compile (the same kernel source and
 *  #defines, user code included) is not compiled again: the context keeps
 *  the last 16 such failures (until sk_context_trim() or
 *  sk_context_free()), and a call that needs one of them fails at once
 *  with SK_E_BUILD and that failure's log. Since 1.1.
 */
SK_API const char *sk_context_build_log(const sk_context *ctx);

/* ------------------------------------------------------------------------ */
/* Parameters                                                                */
/* ------------------------------------------------------------------------ */

/*! sk_shape :
 *  The two kernel shapes. AUTO picks by device type (CPU devices get the CPU
 *  shape, everything else the GPU shape); $SCANKIT_SHAPE=cpu|gpu overrides
 *  AUTO at context creation. */
typedef enum sk_shape { SK_SHAPE_AUTO = 0, SK_SHAPE_CPU = 1, SK_SHAPE_GPU = 2 } sk_shape;

/*! sk_scan_path :
 *  How a scan combines its tiles (GPU shape) or chunks (CPU shape).
 *  - SK_SCAN_PATH_REDUCE_THEN_SCAN  reduce every tile, scan the tile totals
 *    (recursively), scan every tile again from its prefix: reads the input
 *    twice; a fixed combining order, so results are bit-identical run to run
 *    for every monoid; the path the interval-of-summations test proves.
 *  - SK_SCAN_PATH_LOOKBACK  one pass with decoupled look-back: each tile
 *    publishes its total and finds its prefix from its predecessors'
 *    published totals; reads the input once. Needs a monoid of at most 4
 *    bytes (the others take reduce-then-scan). On the CPU shape a chunk
 *    never waits: it reduces a predecessor that has not published yet
 *    itself, so it reads other chunks' input and runs only out of place on
 *    plain arrays (in-place scans and the host-array forms take
 *    reduce-then-scan). On the GPU shape a work-group waits for a
 *    predecessor at most a bounded number of polls ($SCANKIT_LB_SPIN,
 *    else the tuning table's), then reduces that tile itself (out of place;
 *    in place it waits). Which predecessors have published their prefix
 *    depends on timing, so a float sum may round differently from run to
 *    run: opt-in for such operators.
 *  - SK_SCAN_PATH_AUTO  look-back where the result cannot depend on the
 *    combining order (built-in integer operators, float min and max, the
 *    library's own integer counts), reduce-then-scan otherwise, and on the
 *    GPU shape for the by-key primitives from 2^30 elements (their
 *    look-back then publishes two words per tile; reduce-then-scan
 *    measured faster there).
 *  The radix sort follows it too on the GPU shape: REDUCE_THEN_SCAN sorts by
 *  three launches per digit (tile histograms, their scan, a scatter), the
 *  others by one sweep per digit with look-back over digit counts (sorts
 *  of fewer than 2^30 keys).
 *  $SCANKIT_SCAN_PATH=auto|reduce-then-scan|lookback sets it at context
 *  creation. */
typedef enum sk_scan_path {
    SK_SCAN_PATH_AUTO = 0,
    SK_SCAN_PATH_REDUCE_THEN_SCAN = 1,
    SK_SCAN_PATH_LOOKBACK = 2
} sk_scan_path;

/*! sk_param :
 *  Sticky per-context settings. 0 means "automatic" where a value is a size.
 *  - SK_PARAM_SHAPE            an sk_shape value.
 *  - SK_PARAM_PROFILE          1: keep an event per launch for
 *                              sk_context_profile_take(); 0: don't.
 *  - SK_PARAM_SCAN_PATH        an sk_scan_path value.
 *  - SK_PARAM_PROGRAM_CACHE    the most built programs the context keeps in
 *                              memory (16..65536; 0: automatic, 256). Past
 *                              it the least recently used one is released
 *                              (a later call loads it again from the disk
 *                              cache), so a program that builds a new
 *                              custom operator per call stays bounded.
 *  The tuning parameters (work-group size, items per work-item, CPU chunks
 *  and the like) are experimental: see the SCANKIT_EXPERIMENTAL section. */
typedef enum sk_param {
    SK_PARAM_SHAPE = 1,
    SK_PARAM_PROFILE = 6,
    SK_PARAM_SCAN_PATH = 7,
    SK_PARAM_PROGRAM_CACHE = 9
} sk_param;

/*! sk_context_set_param() :
 *  Sets one parameter; it stays until changed. Values out of range (see
 *  sk_param_bounds()) give SK_E_INVALID_ARG and change nothing.
 *  @return SK_OK or SK_E_INVALID_ARG. */
SK_API sk_status sk_context_set_param(sk_context *ctx, sk_param param, long value);

/*! sk_context_get_param() :
 *  Reads one parameter as set (0 for "automatic"); SK_PARAM_SHAPE reads the
 *  shape in force (CPU or GPU, never AUTO).
 *  @return SK_OK or SK_E_INVALID_ARG. */
SK_API sk_status sk_context_get_param(const sk_context *ctx, sk_param param, long *value);

/*! sk_param_bounds() :
 *  The values sk_context_set_param() takes for `param` on this context's
 *  device besides 0: every v with *min_value <= v <= *max_value. 0
 *  (automatic, AUTO or off) is taken by every parameter as well. The
 *  experimental parameters are answered too; of them, SK_PARAM_WG_SIZE
 *  takes only the powers of two in its range.
 *  @return SK_OK or SK_E_INVALID_ARG (NULL argument, unknown parameter). */
SK_API sk_status sk_param_bounds(const sk_context *ctx, sk_param param, long *min_value,
                                 long *max_value);

/* ------------------------------------------------------------------------ */
/* Profiling                                                                 */
/* ------------------------------------------------------------------------ */

/*! sk_context_profile_take() :
 *  With SK_PARAM_PROFILE set: waits for the launches recorded since the last
 *  take, and sets *device_seconds to the span from the first one's start to
 *  the last one's end on the device (profiling events); *launches to their
 *  number (may be NULL). Clears the record. With $SCANKIT_LOG=1 it also
 *  logs each launch's start and end (from the first start) on stderr, in
 *  launch order.
 *  @return SK_OK, SK_E_INVALID_ARG or SK_E_CL. */
SK_API sk_status sk_context_profile_take(sk_context *ctx, double *device_seconds,
                                         unsigned long *launches);

/* ------------------------------------------------------------------------ */
/* Element types, operators, monoids                                          */
/* ------------------------------------------------------------------------ */

/* X(suffix, value, name, bytes, cl, cl_bits, c_type, is_float, is_signed, alias):
 * one row per element type of the operators; with SK_KEY_TYPE_MAP's rows
 * (the sort keys of 8 and 16 bits, below) the only list of the types'
 * facts: the sk_type enum, sk_type_size(), sk_type_name(), sk_type_parse()
 * and the kernels' type text are made from them, and so can a caller's own
 * per-type tables.
 *   suffix     enum name after SK_ (SK_INT32)
 *   value      enum value; stable once released
 *   name       canonical name, as sk_type_name() writes it
 *   bytes      bytes per element, as sk_type_size() returns it
 *   cl         OpenCL C type; sk_type_parse() takes it as a name too
 *   cl_bits    same-width unsigned OpenCL C type (wrapping arithmetic, float bits)
 *   c_type     host C type of an element (<stdint.h>)
 *   is_float   1 for IEEE binary floats
 *   is_signed  1 for two's-complement signed integers (0 for floats)
 *   alias      short name sk_type_parse() takes too
 * FLOAT64 needs fp64 on the device, else SK_E_UNSUPPORTED. */
#define SK_TYPE_MAP(X)                                                        \
    X(INT32,   0, "int32",   4, "int",    "uint",  int32_t,  0, 1, "i32")     \
    X(UINT32,  1, "uint32",  4, "uint",   "uint",  uint32_t, 0, 0, "u32")     \
    X(INT64,   2, "int64",   8, "long",   "ulong", int64_t,  0, 1, "i64")     \
    X(UINT64,  3, "uint64",  8, "ulong",  "ulong", uint64_t, 0, 0, "u64")     \
    X(FLOAT32, 4, "float32", 4, "float",  "uint",  float,    1, 0, "f32")     \
    X(FLOAT64, 5, "float64", 8, "double", "ulong", double,   1, 0, "f64")

/* SK_KEY_TYPE_MAP(X) : the narrow key types, rows of the same columns as
 * SK_TYPE_MAP's, with the enum values after them. They are keys only: the
 * radix sort (cl_mem, host and stream forms), the merge, the sorted search,
 * the top-k selection and the segmented sort take them; every primitive
 * that computes with its elements (scans, reductions, compactions,
 * histograms, by-key reductions, segmented scans, polynomials) takes only
 * SK_TYPE_MAP's rows and answers SK_E_UNSUPPORTED for these. Why a second
 * list rather than more rows of SK_TYPE_MAP: SK_TYPE_MAP is what a caller
 * loops over to cover every type of the operators (SK_TYPE_COUNT), and
 * 8- and 16-bit operators (wrapping sums, half-precision arithmetic, which
 * needs cl_khr_fp16) are not offered; a key is only ever compared. The
 * enum, sk_type_size(), sk_type_name() and sk_type_parse() cover both
 * lists (SK_ALL_TYPES_MAP).
 * FLOAT16 is IEEE binary16 ("half"): the host never computes with it, so
 * its c_type is uint16_t, the key's bit pattern. */
#define SK_KEY_TYPE_MAP(X)                                                    \
    X(UINT8,   6, "uint8",   1, "uchar",  "uchar",  uint8_t,  0, 0, "u8")     \
    X(INT8,    7, "int8",    1, "char",   "uchar",  int8_t,   0, 1, "i8")     \
    X(UINT16,  8, "uint16",  2, "ushort", "ushort", uint16_t, 0, 0, "u16")    \
    X(INT16,   9, "int16",   2, "short",  "ushort", int16_t,  0, 1, "i16")    \
    X(FLOAT16, 10, "float16", 2, "half",  "ushort", uint16_t, 1, 0, "f16")

/* SK_ALL_TYPES_MAP(X) : every sk_type, SK_TYPE_MAP's rows then
 * SK_KEY_TYPE_MAP's. */
#define SK_ALL_TYPES_MAP(X) SK_TYPE_MAP(X) SK_KEY_TYPE_MAP(X)

/*! sk_type : element types: of the built-in operators (SK_TYPE_MAP's
 *  rows), then of sort keys only (SK_KEY_TYPE_MAP's rows). */
typedef enum sk_type {
#define SK_TYPE_ENUM_(suffix, value, ...) SK_##suffix = value,
    SK_ALL_TYPES_MAP(SK_TYPE_ENUM_)
#undef SK_TYPE_ENUM_
} sk_type;

/* The number of rows of SK_TYPE_MAP, the types of the built-in operators;
 * their values are 0 .. SK_TYPE_COUNT - 1. */
#define SK_TYPE_COUNT (0 SK_TYPE_MAP(SK_TYPE_COUNT_ROW_))
#define SK_TYPE_COUNT_ROW_(...) +1

/* The number of sort key types, every sk_type (SK_ALL_TYPES_MAP's rows);
 * their values are 0 .. SK_KEY_TYPE_COUNT - 1. Since 1.1. */
#define SK_KEY_TYPE_COUNT (0 SK_ALL_TYPES_MAP(SK_TYPE_COUNT_ROW_))

/*! sk_op : built-in associative operators. AND, OR and XOR are integer-only.
 *  On floats ADD's identity is -0.0, and MIN and MAX are IEEE minimum and
 *  maximum (a NaN operand gives NaN): see "Float semantics" below. */
typedef enum sk_op {
    SK_OP_ADD = 0,
    SK_OP_MUL = 1,
    SK_OP_MIN = 2,
    SK_OP_MAX = 3,
    SK_OP_AND = 4,
    SK_OP_OR = 5,
    SK_OP_XOR = 6
} sk_op;

#define SK_OP_COUNT 7

/*! sk_type_size() : @return bytes per element of `t` (of any sk_type), 0
 *  for an invalid type. */
SK_API size_t sk_type_size(sk_type t);

/*! sk_type_name() : @return "int32", "uint32", "int64", "uint64",
 *  "float32", "float64", "uint8", "int8", "uint16", "int16" or "float16";
 *  NULL for an invalid type. */
SK_API const char *sk_type_name(sk_type t);

/*! sk_type_parse() : reads a type name as sk_type_name writes it (also
 *  the OpenCL C names "int", "uint", "long", "ulong", "float", "double",
 *  "uchar", "char", "ushort", "short", "half" and the aliases "i32", "u32",
 *  "i64", "u64", "f32", "f64", "u8", "i8", "u16", "i16", "f16"). Case
 *  matters. @return SK_OK or SK_E_INVALID_ARG. */
SK_API sk_status sk_type_parse(const char *name, sk_type *out);

/*! sk_op_name() : @return "add", "mul", "min", "max", "and", "or", "xor";
 *  NULL for an invalid op. */
SK_API const char *sk_op_name(sk_op op);

/*! sk_op_parse() : reads an op name as sk_op_name writes it.
 *  @return SK_OK or SK_E_INVALID_ARG. */
SK_API sk_status sk_op_parse(const char *name, sk_op *out);

/*! SK_USER_CODE_MAX_BYTES :
 *  The longest OpenCL C text accepted from the caller, in bytes: each of a
 *  monoid's type, identity, combine and preamble, and a compaction
 *  predicate. Longer text gives SK_E_INVALID_ARG before anything is
 *  compiled. Text within the limit is compiled on a thread whose stack
 *  holds the compiler's deepest recursion over it, so no expression under
 *  the limit, however deeply nested, can overflow the caller's stack.
 */
#define SK_USER_CODE_MAX_BYTES 65536

/*! sk_monoid :
 *  A caller-defined associative operator with identity, written in OpenCL C.
 *  It need not be commutative: scankit never swaps operands.
 *    type      an OpenCL C type name ("int2", or a typedef from `preamble`);
 *    size      sizeof(type) on the device, which must equal the host layout
 *              (a mismatch is reported as SK_E_BUILD);
 *    identity  an expression of that type, e.g. "(int2)(0, 0)";
 *    combine   an expression of `a` and `b` (both of that type), e.g.
 *              "a + b"; it may call functions defined in `preamble`;
 *    preamble  OpenCL C text placed before the kernels (typedefs, helper
 *              functions, #pragma OPENCL EXTENSION lines), or NULL.
 *  identity and combine may span several lines and hold comments (// ones
 *  too): each is compiled as the body of a function of its own.
 *  A malformed expression gives SK_E_BUILD with the compiler's log in
 *  sk_context_build_log(). Built once per context and cached. */
typedef struct sk_monoid {
    const char *type;
    size_t size;
    const char *identity;
    const char *combine;
    const char *preamble;
} sk_monoid;

/*! Float semantics (SK_FLOAT32 and SK_FLOAT64 with the built-in operators,
 *  in every primitive: scans, reduce, segmented scans, segment totals;
 *  both shapes, both scan paths). "The serial fold" of a prefix of k terms
 *  is x_0 op x_1 op ... op x_(k-1), left to right.
 *  - Identities: add -0.0 (not +0.0: -0.0 + -0.0 is -0.0), mul 1, min
 *    +inf, max -inf. Each is exact (identity op x is x, bit for bit; for
 *    add and mul a NaN x stays a NaN). So an inclusive scan's first output
 *    is its first input, an exclusive scan's first output and an empty
 *    segment's total are the identity, and a reduce of 0 elements is the
 *    identity (-0.0 for add).
 *  - min and max are IEEE 754-2019 minimum and maximum: -0.0 < +0.0, and a
 *    NaN operand makes the result NaN, namely the left-most NaN operand
 *    with its bits (sign, payload, quiet or signalling) unchanged, never a
 *    NaN the device makes. This is associative on bit patterns: every
 *    primitive, shape and path gives the serial fold's bits (numpy's
 *    minimum and maximum propagate NaNs the same way). It is not
 *    commutative on NaNs; scankit never swaps operands.
 *  - add and mul: zeros, infinities and NaNs come out as the serial fold
 *    gives them where no overflow or underflow intervenes (below): a sum is
 *    -0.0 exactly when every term is -0.0 and +0.0 for any other zero sum;
 *    a NaN term, or +inf and -inf together, make NaN; a product's sign is
 *    the product of the signs, 0 * inf is NaN; NaN bits are the device's.
 *  - add and mul are not associative. scankit combines in a fixed order
 *    (bit-identical run to run on one device and shape; the look-back path,
 *    opt-in for them, combines in an order that depends on timing), which
 *    may differ from the serial fold's in two ways:
 *      rounding: with u = 2^-24 (float32) or 2^-53 (float64) and
 *      gamma_j = j u / (1 - j u) (for j u >= 1 read (1 + u)^j - 1, which
 *      gamma_j bounds where defined), a prefix of k terms x_i gives
 *        add: |result - exact sum| <= gamma_(k-1) * sum |x_i|,
 *        mul: |result - exact product| <= gamma_(k-1) * |exact product|,
 *      where no partial result overflows or underflows;
 *      overflow and underflow: where the sum (add: once sum |x_i| reaches
 *      the largest finite value) or the product of some contiguous run of
 *      the inputs (mul: outside the normal range, e.g. FLT_MIN .. FLT_MAX
 *      in magnitude) overflows or underflows in one association and not in
 *      another, the result there and at every later position of that scan
 *      or segment may be anything some association gives: inf, 0 or NaN
 *      where the serial fold is finite, or finite where the serial fold
 *      overflowed (the serial product of many large factors is inf, then
 *      inf * tiny stays inf, while a grouping that multiplies the tiny ones
 *      first can give inf * 0 = NaN).
 *    scan --check (apps/scan_check.c) accepts exactly what these rules
 *    allow: bit for bit where they pin the result, within the bound
 *    elsewhere, anything past an overflow or underflow hazard.
 *  - Denormals are computed as IEEE says on devices that support them
 *    (CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG / CL_DEVICE_DOUBLE_FP_CONFIG;
 *    PoCL and NVIDIA GPUs do). A device without it for float32 may flush
 *    denormal inputs and results to zero of the same sign: min and max may
 *    then treat a denormal as that zero, and each add or mul may be off by
 *    up to FLT_MIN beyond the bounds above. */

/* ------------------------------------------------------------------------ */
/* Scan and reduce                                                           */
/* ------------------------------------------------------------------------ */

/*! sk_scan_inclusive() :
 *  dst[i] = src[0] op src[1] op ... op src[i] for 0 <= i < n.
 *  src and dst hold at least n elements of `type`; src may equal dst (in
 *  place). n == 0 does nothing. Asynchronous on the context's queue.
 *  Results are bit-identical run to run on one device and shape (a fixed
 *  association order), floats included; how float sums and products may
 *  differ from the serial fold: "Float semantics" above.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad type/op, a buffer smaller than
 *  n elements), SK_E_SIZE (n elements whose size overflows size_t, a host
 *  array over the device's largest buffer), SK_E_UNSUPPORTED
 *  (float64 without fp64, bitwise op on a float type), SK_E_BUILD, SK_E_CL
 *  or SK_E_OUT_OF_MEMORY.
 */
SK_API sk_status sk_scan_inclusive(sk_context *ctx, sk_type type, sk_op op,
                                   cl_mem src, cl_mem dst, size_t n);

/*! sk_scan_exclusive() :
 *  dst[0] = identity(op) (-0.0 for float add); dst[i] = src[0] op ... op
 *  src[i-1]. Otherwise as sk_scan_inclusive(). */
SK_API sk_status sk_scan_exclusive(sk_context *ctx, sk_type type, sk_op op,
                                   cl_mem src, cl_mem dst, size_t n);

/*! sk_reduce() :
 *  *result = src[0] op ... op src[n-1]; for n == 0 the identity of op (add
 *  0, -0.0 for floats; mul 1; min and max the largest and smallest value,
 *  +inf and -inf for floats; and all ones; or and xor 0). Floats: "Float
 *  semantics" above. `result` points to host memory of sk_type_size(type)
 *  bytes. Blocks until done.
 *  @return as sk_scan_inclusive(). */
SK_API sk_status sk_reduce(sk_context *ctx, sk_type type, sk_op op,
                           cl_mem src, void *result, size_t n);

/*! sk_scan_inclusive_monoid(), sk_scan_exclusive_monoid(), sk_reduce_monoid() :
 *  The same with a caller-defined monoid; buffers hold elements of m->size
 *  bytes. @return as above; SK_E_INVALID_ARG for a monoid with a NULL field
 *  (other than preamble) or size 0. */
SK_API sk_status sk_scan_inclusive_monoid(sk_context *ctx, const sk_monoid *m,
                                          cl_mem src, cl_mem dst, size_t n);
SK_API sk_status sk_scan_exclusive_monoid(sk_context *ctx, const sk_monoid *m,
                                          cl_mem src, cl_mem dst, size_t n);
SK_API sk_status sk_reduce_monoid(sk_context *ctx, const sk_monoid *m,
                                  cl_mem src, void *result, size_t n);

/*! Host-array forms: copy `src` (n elements) to the device, run, copy the
 *  result to `dst` (n elements; may equal src) or `result`. Blocking. dst is
 *  written only on success.
 */
SK_API sk_status sk_scan_inclusive_host(sk_context *ctx, sk_type type, sk_op op,
                                        const void *src, void *dst, size_t n);
SK_API sk_status sk_scan_exclusive_host(sk_context *ctx, sk_type type, sk_op op,
                                        const void *src, void *dst, size_t n);
SK_API sk_status sk_reduce_host(sk_context *ctx, sk_type type, sk_op op,
                                const void *src, void *result, size_t n);
SK_API sk_status sk_scan_inclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                               const void *src, void *dst, size_t n);
SK_API sk_status sk_scan_exclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                               const void *src, void *dst, size_t n);
SK_API sk_status sk_reduce_monoid_host(sk_context *ctx, const sk_monoid *m,
                                       const void *src, void *result, size_t n);

/* ------------------------------------------------------------------------ */
/* Stream compaction                                                         */
/* ------------------------------------------------------------------------ */

/* Common rules of the functions below:
 *  - Elements are of any sk_type; src and dst hold at least n of them.
 *  - *count receives the number of elements written (0 and n included);
 *    the cl_mem forms enqueue their kernels and block only to read it (the
 *    _devcount forms below leave it in a cl_mem and do not block).
 *  - Kept elements keep their input order (every mode is stable).
 *  - dst (and values_out) is written only in [0, *count) (a partition
 *    writes all n); what lies beyond is left as it was.
 *  - Every mode has a _pairs form carrying values along with the elements
 *    (keys): value i goes wherever key i goes; values are never looked at.
 *  - The cl_mem forms need distinct buffers: an output that is also an
 *    input gives SK_E_INVALID_ARG (in place is not supported). The host
 *    forms copy in and out, so there dst may equal src.
 *  - A predicate is an OpenCL C expression of `x`, the element as its
 *    OpenCL C type (int, uint, long, ulong, float or double), e.g.
 *    "x % 3 == 0", "isnan(x)", "x > 0.5f && x < 2.0f". It is built
 *    once per (expression, type, device, shape) and cached; a malformed one
 *    gives SK_E_BUILD with the compiler's log in sk_context_build_log(),
 *    and the context stays usable.
 *  - Bad arguments (NULL, invalid type, empty predicate, bad flag or value
 *    size, a buffer smaller than n elements) give SK_E_INVALID_ARG and leave
 *    every output, *count included, untouched; a byte size over SIZE_MAX
 *    or over the device's largest buffer gives SK_E_SIZE (outputs
 *    untouched too); float64 without fp64 gives SK_E_UNSUPPORTED.
 *  - Offsets are computed by sk_scan_exclusive over per-chunk (CPU shape)
 *    or per-tile (GPU shape) counts; indices are 64-bit, so n may exceed
 *    2^32 where the device holds the data. */

/*! sk_select_if() :
 *  Copies the elements of src for which `predicate` holds to dst, in order.
 *  @return SK_OK, SK_E_INVALID_ARG, SK_E_SIZE, SK_E_UNSUPPORTED, SK_E_BUILD,
 *  SK_E_CL or SK_E_OUT_OF_MEMORY. */
SK_API sk_status sk_select_if(sk_context *ctx, sk_type type, const char *predicate,
                              cl_mem src, cl_mem dst, size_t *count, size_t n);

/*! sk_select_if_pairs() :
 *  As sk_select_if() on keys_in, carrying values along: values_out[k] is the
 *  value of the k-th kept key. Values are value_size (4 or 8) bytes each;
 *  values_in and values_out may both be NULL (then value_size is ignored
 *  and this is sk_select_if()). keys_out and values_out must differ from
 *  each other and from every input.
 *  @return as sk_select_if(). */
SK_API sk_status sk_select_if_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                    const char *predicate, cl_mem keys_in, cl_mem values_in,
                                    cl_mem keys_out, cl_mem values_out, size_t *count,
                                    size_t n);

/*! sk_select_flagged() :
 *  Copies src[i] to dst, in order, for every i with flags[i] != 0. flags
 *  holds n flags of flag_size bytes: 1 (uint8) or 4 (uint32); it may not
 *  be dst.
 *  @return as sk_select_if() (never SK_E_BUILD from the caller's text). */
SK_API sk_status sk_select_flagged(sk_context *ctx, sk_type type, size_t flag_size,
                                   cl_mem src, cl_mem flags, cl_mem dst, size_t *count,
                                   size_t n);

/*! sk_select_flagged_pairs() :
 *  As sk_select_flagged() on keys_in, carrying values along as
 *  sk_select_if_pairs() does: values_out[k] is the value of the k-th kept
 *  key. Same value rules (value_size 4 or 8; values_in and values_out both
 *  given or both NULL); flags may not be an output either.
 *  @return as sk_select_flagged(). */
SK_API sk_status sk_select_flagged_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                         size_t flag_size, cl_mem keys_in, cl_mem values_in,
                                         cl_mem flags, cl_mem keys_out, cl_mem values_out,
                                         size_t *count, size_t n);

/*! sk_partition() :
 *  Stable two-way partition: dst gets the elements for which `predicate`
 *  holds, in input order, followed by all the others, in input order. All
 *  n elements of dst are written; *count_selected is the number selected.
 *  @return as sk_select_if(). */
SK_API sk_status sk_partition(sk_context *ctx, sk_type type, const char *predicate,
                              cl_mem src, cl_mem dst, size_t *count_selected, size_t n);

/*! sk_partition_pairs() :
 *  As sk_partition() on keys_in, moving every value with its key: all n
 *  keys and all n values are written, the selected pairs first, then the
 *  others, both in input order. Value rules as sk_select_if_pairs().
 *  @return as sk_select_if(). */
SK_API sk_status sk_partition_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                    const char *predicate, cl_mem keys_in, cl_mem values_in,
                                    cl_mem keys_out, cl_mem values_out,
                                    size_t *count_selected, size_t n);

/*! sk_partition_reversed() :
 *  Two-way partition with the rejected elements reversed (CUB's
 *  DevicePartition::If layout): dst gets the elements for which
 *  `predicate` holds, in input order, followed by all the others in
 *  reverse input order (the last rejected element first). All n elements
 *  of dst are written; *count_selected is the number selected. Where the
 *  order of the rejected elements does not matter this is the faster
 *  partition: on the GPU shape it is one pass over the input below 2^32
 *  elements, where sk_partition needs the number selected before it can
 *  place a rejected element (a count first, or a reversal after). Since
 *  1.1.
 *  @return as sk_select_if(). */
SK_API sk_status sk_partition_reversed(sk_context *ctx, sk_type type, const char *predicate,
                                       cl_mem src, cl_mem dst, size_t *count_selected,
                                       size_t n);

/*! sk_partition_reversed_pairs() :
 *  As sk_partition_reversed() on keys_in, moving every value with its key
 *  (the rejected pairs in reverse input order). Value rules as
 *  sk_select_if_pairs(). Since 1.1.
 *  @return as sk_select_if(). */
SK_API sk_status sk_partition_reversed_pairs(sk_context *ctx, sk_type key_type,
                                             size_t value_size, const char *predicate,
                                             cl_mem keys_in, cl_mem values_in,
                                             cl_mem keys_out, cl_mem values_out,
                                             size_t *count_selected, size_t n);

/*! sk_unique() :
 *  Copies src to dst dropping every element equal to its predecessor in src
 *  (consecutive duplicates, as std::unique). Equality is the type's `==`:
 *  for floats +0.0 equals -0.0 (the first of a run is kept), and NaN equals
 *  nothing, so consecutive NaNs are all kept.
 *  @return as sk_select_flagged(). */
SK_API sk_status sk_unique(sk_context *ctx, sk_type type, cl_mem src, cl_mem dst,
                           size_t *count, size_t n);

/*! sk_unique_pairs() :
 *  As sk_unique() on keys_in; the keys alone decide what is kept, and each
 *  kept key brings its own value (that of the first key of its run).
 *  Values are never compared. Value rules as sk_select_if_pairs().
 *  @return as sk_unique(). */
SK_API sk_status sk_unique_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                 cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                 cl_mem values_out, size_t *count, size_t n);

/*! Device-count forms: as the forms above, but the count (of kept
 *  elements, or of selected ones for a partition) is written to `count`, a
 *  buffer of at least 8 bytes, as one uint64 (cl_ulong) at its start, by a
 *  command on the context's queue: nothing blocks, so a following kernel
 *  (or scankit call) on the queue can read it without a host round trip.
 *  count may not be any other argument's buffer.
 *  @return as the form without _devcount (bad arguments are found before
 *  anything is enqueued, and leave `count` untouched). */
SK_API sk_status sk_select_if_devcount(sk_context *ctx, sk_type type, const char *predicate,
                                       cl_mem src, cl_mem dst, cl_mem count, size_t n);
SK_API sk_status sk_select_if_pairs_devcount(sk_context *ctx, sk_type key_type,
                                             size_t value_size, const char *predicate,
                                             cl_mem keys_in, cl_mem values_in,
                                             cl_mem keys_out, cl_mem values_out,
                                             cl_mem count, size_t n);
SK_API sk_status sk_select_flagged_devcount(sk_context *ctx, sk_type type, size_t flag_size,
                                            cl_mem src, cl_mem flags, cl_mem dst,
                                            cl_mem count, size_t n);
SK_API sk_status sk_select_flagged_pairs_devcount(sk_context *ctx, sk_type key_type,
                                                  size_t value_size, size_t flag_size,
                                                  cl_mem keys_in, cl_mem values_in,
                                                  cl_mem flags, cl_mem keys_out,
                                                  cl_mem values_out, cl_mem count, size_t n);
SK_API sk_status sk_partition_devcount(sk_context *ctx, sk_type type, const char *predicate,
                                       cl_mem src, cl_mem dst, cl_mem count_selected,
                                       size_t n);
SK_API sk_status sk_partition_pairs_devcount(sk_context *ctx, sk_type key_type,
                                             size_t value_size, const char *predicate,
                                             cl_mem keys_in, cl_mem values_in,
                                             cl_mem keys_out, cl_mem values_out,
                                             cl_mem count_selected, size_t n);
/* (the reversed partition's two: since 1.1) */
SK_API sk_status sk_partition_reversed_devcount(sk_context *ctx, sk_type type,
                                                const char *predicate, cl_mem src, cl_mem dst,
                                                cl_mem count_selected, size_t n);
SK_API sk_status sk_partition_reversed_pairs_devcount(sk_context *ctx, sk_type key_type,
                                                      size_t value_size,
                                                      const char *predicate, cl_mem keys_in,
                                                      cl_mem values_in, cl_mem keys_out,
                                                      cl_mem values_out,
                                                      cl_mem count_selected, size_t n);
SK_API sk_status sk_unique_devcount(sk_context *ctx, sk_type type, cl_mem src, cl_mem dst,
                                    cl_mem count, size_t n);
SK_API sk_status sk_unique_pairs_devcount(sk_context *ctx, sk_type key_type,
                                          size_t value_size, cl_mem keys_in,
                                          cl_mem values_in, cl_mem keys_out,
                                          cl_mem values_out, cl_mem count, size_t n);

/*! Host-array forms: copy the inputs (n elements each) to the device, run,
 *  copy back only the produced part of dst (and values_out): *count
 *  elements, all n for a partition. Blocking. Outputs are written only on
 *  success; dst may equal src. Pointers may be NULL when n is 0.
 */
SK_API sk_status sk_select_if_host(sk_context *ctx, sk_type type, const char *predicate,
                                   const void *src, void *dst, size_t *count, size_t n);
SK_API sk_status sk_select_if_pairs_host(sk_context *ctx, sk_type key_type,
                                         size_t value_size, const char *predicate,
                                         const void *keys_in, const void *values_in,
                                         void *keys_out, void *values_out, size_t *count,
                                         size_t n);
SK_API sk_status sk_select_flagged_host(sk_context *ctx, sk_type type, size_t flag_size,
                                        const void *src, const void *flags, void *dst,
                                        size_t *count, size_t n);
SK_API sk_status sk_select_flagged_pairs_host(sk_context *ctx, sk_type key_type,
                                              size_t value_size, size_t flag_size,
                                              const void *keys_in, const void *values_in,
                                              const void *flags, void *keys_out,
                                              void *values_out, size_t *count, size_t n);
SK_API sk_status sk_partition_host(sk_context *ctx, sk_type type, const char *predicate,
                                   const void *src, void *dst, size_t *count_selected,
                                   size_t n);
SK_API sk_status sk_partition_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                         const char *predicate, const void *keys_in,
                                         const void *values_in, void *keys_out,
                                         void *values_out, size_t *count_selected, size_t n);
/* (the reversed partition's two: since 1.1) */
SK_API sk_status sk_partition_reversed_host(sk_context *ctx, sk_type type,
                                            const char *predicate, const void *src, void *dst,
                                            size_t *count_selected, size_t n);
SK_API sk_status sk_partition_reversed_pairs_host(sk_context *ctx, sk_type key_type,
                                                  size_t value_size, const char *predicate,
                                                  const void *keys_in, const void *values_in,
                                                  void *keys_out, void *values_out,
                                                  size_t *count_selected, size_t n);
SK_API sk_status sk_unique_host(sk_context *ctx, sk_type type, const void *src, void *dst,
                                size_t *count, size_t n);
SK_API sk_status sk_unique_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                      const void *keys_in, const void *values_in,
                                      void *keys_out, void *values_out, size_t *count,
                                      size_t n);

/* ------------------------------------------------------------------------ */
/* Radix sort                                                                */
/* ------------------------------------------------------------------------ */

/*! sk_sort_order : ascending, or its exact reverse (still stable: equal keys
 *  keep their input order in both). */
typedef enum sk_sort_order { SK_ASCENDING = 0, SK_DESCENDING = 1 } sk_sort_order;

/*! sk_sort_keys() :
 *  Sorts the first n keys of `keys` in place: LSD radix sort, stable.
 *  Key types: every sk_type (SK_KEY_TYPE_COUNT of them: SK_TYPE_MAP's
 *  six and the 8- and 16-bit keys of SK_KEY_TYPE_MAP). Integers sort by
 *  value; floats (float16 included) in IEEE totalOrder: -NaN < -inf < ...
 *  < -0.0 < +0.0 < ... < +inf < +NaN (NaNs ordered among themselves by
 *  payload). 8-bit keys take one pass of an 8-bit digit, 16-bit keys two.
 *  Digits whose value is the same in every key are skipped, except in the
 *  GPU shape below 2^26 keys (2^23 keys of 8 bytes;
 *  SK_PARAM_GPU_SORT_SKIP_FROM), where every digit of the bit range takes
 *  its pass (one over a constant digit copies the keys, found so on the
 *  device) so that nothing waits for the device. Scratch of n
 *  keys comes from the context (2n keys when three or more, an odd number,
 *  of digits take passes: the last pass then ends in `keys` with no copy
 *  back; with the caller's scratch, n keys and a copy). n of 0 or 1 does
 *  nothing. Asynchronous on the context's queue, except for one small
 *  blocking read before the passes (which digits to skip) where digits
 *  are skipped.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad type or order, a buffer
 *  smaller than n keys), SK_E_SIZE (n keys overflowing size_t, scratch
 *  over the device's largest buffer), SK_E_UNSUPPORTED (float64 without
 *  fp64), SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY. Outputs are untouched
 *  on SK_E_INVALID_ARG, SK_E_SIZE and SK_E_UNSUPPORTED.
 */
SK_API sk_status sk_sort_keys(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                              sk_sort_order order);

/*! sk_sort_pairs() :
 *  Sorts keys as sk_sort_keys() and moves the n values of `values` (4 or 8
 *  bytes each, `value_size`; any bits) with them. keys and values must be
 *  different buffers. Scratch of n keys and n values (on the CPU shape
 *  twice that for an odd number, three or more, of varying digits, as for
 *  keys; the GPU shape copies back instead).
 *  @return as sk_sort_keys(); SK_E_INVALID_ARG for a value_size other than
 *  4 or 8. */
SK_API sk_status sk_sort_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                               cl_mem keys, cl_mem values, size_t n, sk_sort_order order);

/*! sk_sort_keys_bits(), sk_sort_pairs_bits() :
 *  Sort by bits [begin_bit, end_bit) of the transformed key only (the
 *  unsigned key whose order is the sort order: the sign bit flipped for
 *  signed integers, totalOrder bits for floats), stably: keys equal in
 *  those bits keep their order. 0 <= begin_bit < end_bit <= key bits, else
 *  SK_E_INVALID_ARG. With [0, key bits) they are sk_sort_keys/_pairs.
 */
SK_API sk_status sk_sort_keys_bits(sk_context *ctx, sk_type key_type, cl_mem keys,
                                   size_t n, sk_sort_order order, unsigned begin_bit,
                                   unsigned end_bit);
SK_API sk_status sk_sort_pairs_bits(sk_context *ctx, sk_type key_type, size_t value_size,
                                    cl_mem keys, cl_mem values, size_t n,
                                    sk_sort_order order, unsigned begin_bit,
                                    unsigned end_bit);

/*! sk_sort_keys_host(), sk_sort_pairs_host(), sk_sort_keys_bits_host(),
 *  sk_sort_pairs_bits_host() :
 *  Host-array forms: copy in, sort, copy back (blocking). The arrays are
 *  written only on success.
 */
SK_API sk_status sk_sort_keys_host(sk_context *ctx, sk_type key_type, void *keys, size_t n,
                                   sk_sort_order order);
SK_API sk_status sk_sort_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                    void *keys, void *values, size_t n, sk_sort_order order);
SK_API sk_status sk_sort_keys_bits_host(sk_context *ctx, sk_type key_type, void *keys,
                                        size_t n, sk_sort_order order, unsigned begin_bit,
                                        unsigned end_bit);
SK_API sk_status sk_sort_pairs_bits_host(sk_context *ctx, sk_type key_type,
                                         size_t value_size, void *keys, void *values,
                                         size_t n, sk_sort_order order, unsigned begin_bit,
                                         unsigned end_bit);

/* ------------------------------------------------------------------------ */
/* Merge                                                                     */
/* ------------------------------------------------------------------------ */

/*! sk_merge_keys() :
 *  Stable merge of two sorted sequences: dst_keys[0 .. na + nb) gets the
 *  na keys of a_keys and the nb keys of b_keys in order, both inputs
 *  being sorted in `order`. The order is the radix sort's (sk_sort_keys()):
 *  integers by value, floats in IEEE totalOrder (-NaN < -inf < ... < -0.0
 *  < +0.0 < ... < +inf < +NaN, NaNs among themselves by payload),
 *  SK_DESCENDING its exact reverse; keys are compared and moved as bits
 *  (NaN payloads and the sign of zero come out as they went in; float64
 *  keys need no fp64). Stable: among equal keys every key of a_keys comes
 *  before every key of b_keys, and each input keeps its own order, so the
 *  result is what sk_sort_keys() gives for a_keys followed by b_keys.
 *  Inputs that are not sorted in `order` give an unspecified dst_keys
 *  (every read and write stays within the buffers' stated sizes).
 *  Merge path: every chunk (CPU shape) or tile (GPU shape) of the output
 *  finds its share of both inputs by a binary search along its output
 *  diagonal, so the work is even whatever the keys. Indices are 64-bit:
 *  na + nb may exceed 2^32 where the device holds the data.
 *  na, nb or both may be 0 (both 0 does nothing); every buffer must still
 *  be given, and a_keys may be b_keys. dst_keys may not overlap an input
 *  (the same buffer, or sub-buffers of one buffer whose ranges meet).
 *  Scratch of (na + nb) / (chunk or tile) + 1 uint64 split points comes
 *  from the context. Asynchronous on the context's queue.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad type or order, a buffer
 *  smaller than its keys, dst_keys overlapping an input), SK_E_SIZE
 *  (na + nb keys overflowing size_t, scratch over the device's largest
 *  buffer), SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY. Outputs are
 *  untouched on SK_E_INVALID_ARG and SK_E_SIZE.
 *  Since 1.1. */
SK_API sk_status sk_merge_keys(sk_context *ctx, sk_type key_type, cl_mem a_keys, cl_mem b_keys,
                               cl_mem dst_keys, size_t na, size_t nb, sk_sort_order order);

/*! sk_merge_pairs() :
 *  As sk_merge_keys(), moving with every key its value (`value_size`: 4
 *  or 8 bytes, any bits): a_values holds na values, b_values nb,
 *  dst_values gets na + nb. The result is what sk_sort_pairs() gives for
 *  a followed by b. Neither output may overlap an input or the other
 *  output.
 *  @return as sk_merge_keys(); SK_E_INVALID_ARG for a value_size other
 *  than 4 or 8.
 *  Since 1.1. */
SK_API sk_status sk_merge_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                cl_mem a_keys, cl_mem a_values, cl_mem b_keys, cl_mem b_values,
                                cl_mem dst_keys, cl_mem dst_values, size_t na, size_t nb,
                                sk_sort_order order);

/*! sk_merge_keys_host(), sk_merge_pairs_host() :
 *  Host-array forms: copy in, merge, copy out (blocking). The outputs are
 *  written only on success; they may overlap the inputs (the inputs are
 *  copied first), but dst_keys may not be dst_values. An array may be
 *  NULL when its count is 0.
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_merge_keys_host(sk_context *ctx, sk_type key_type, const void *a_keys,
                                    const void *b_keys, void *dst_keys, size_t na, size_t nb,
                                    sk_sort_order order);
SK_API sk_status sk_merge_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                     const void *a_keys, const void *a_values,
                                     const void *b_keys, const void *b_values, void *dst_keys,
                                     void *dst_values, size_t na, size_t nb,
                                     sk_sort_order order);

/*! sk_merge_runs_keys() :
 *  Stable merge of `runs` sorted runs lying one after another in keys[0 ..
 *  n): run r is the run_lengths[r] keys after the runs before it, each
 *  sorted in `order` by bits [begin_bit, end_bit) of the transformed key
 *  (as sk_sort_keys_bits(); [0, key bits) for whole keys). keys gets them
 *  in that order, stably: among keys equal in those bits the earlier
 *  run's come first, and each run keeps its order, so the result is what
 *  sk_sort_keys_bits() gives for the n keys. Runs may be empty;
 *  run_lengths (a host array, read during the call only) must sum to n
 *  and may be NULL when runs is 0.
 *  Rounds of merges of neighbouring runs by merge path, all of a round in
 *  one pair of launches (as sk_merge_keys()): for r runs with elements,
 *  ceil(log2(r)) passes over the keys (and a copy back after an odd
 *  number). Where that is more passes than the radix sort of the keys
 *  takes, the radix sort (sk_sort_keys_bits(): the same result, its
 *  scratch).
 *  Inputs that are not sorted give unspecified keys (every read and write
 *  stays within the buffer's stated size).
 *  Scratch of n keys, a split point per part and about three words per
 *  run for the rounds' plan come from the context. Asynchronous on the
 *  context's queue but for one small blocking write of that plan.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad type, order or bit range,
 *  run lengths that do not sum to n, a buffer smaller than its keys),
 *  SK_E_SIZE, SK_E_UNSUPPORTED (float64 keys on a device without fp64,
 *  as for the radix sort), SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY. keys
 *  is untouched on SK_E_INVALID_ARG, SK_E_SIZE and SK_E_UNSUPPORTED.
 *  Since 1.1. */
SK_API sk_status sk_merge_runs_keys(sk_context *ctx, sk_type key_type, cl_mem keys, size_t n,
                                    const size_t *run_lengths, size_t runs,
                                    sk_sort_order order, unsigned begin_bit, unsigned end_bit);

/*! sk_merge_runs_pairs() :
 *  As sk_merge_runs_keys(), moving with every key its value (`value_size`:
 *  4 or 8 bytes, any bits) from values[0 .. n); keys and values must be
 *  different buffers. The result is what sk_sort_pairs_bits() gives.
 *  Scratch of n values more.
 *  @return as sk_merge_runs_keys(); SK_E_INVALID_ARG for a value_size
 *  other than 4 or 8, or keys and values in one buffer.
 *  Since 1.1. */
SK_API sk_status sk_merge_runs_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                     cl_mem keys, cl_mem values, size_t n,
                                     const size_t *run_lengths, size_t runs,
                                     sk_sort_order order, unsigned begin_bit,
                                     unsigned end_bit);

/*! sk_merge_runs_keys_host(), sk_merge_runs_pairs_host() :
 *  Host-array forms: copy in, merge, copy back (blocking). The arrays are
 *  written only on success; keys and values may not be the same array.
 *  An array may be NULL when n is 0.
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_merge_runs_keys_host(sk_context *ctx, sk_type key_type, void *keys,
                                         size_t n, const size_t *run_lengths, size_t runs,
                                         sk_sort_order order, unsigned begin_bit,
                                         unsigned end_bit);
SK_API sk_status sk_merge_runs_pairs_host(sk_context *ctx, sk_type key_type,
                                          size_t value_size, void *keys, void *values,
                                          size_t n, const size_t *run_lengths, size_t runs,
                                          sk_sort_order order, unsigned begin_bit,
                                          unsigned end_bit);

/* ------------------------------------------------------------------------ */
/* Sort by a comparator, sort by fields                                       */
/* ------------------------------------------------------------------------ */

/*! sk_comparator :
 *  A caller's element type and its order, written in OpenCL C (as
 *  sk_monoid gives a type and an operator).
 *    type      an OpenCL C type name ("uint", "float2", or a typedef from
 *              `preamble`, e.g. a struct, or a struct of a char array for
 *              fixed-width strings);
 *    size      sizeof(type) on the device, which must equal the host layout
 *              (a mismatch is reported as SK_E_BUILD);
 *    less      an expression of `a` and `b` (both of that type), true where
 *              a goes strictly before b: a strict weak order (irreflexive,
 *              transitive, equivalence of neither-before transitive), e.g.
 *              "a > b" (descending) or "a.major < b.major || (a.major ==
 *              b.major && a.minor < b.minor)"; it may call functions defined
 *              in `preamble`;
 *    preamble  OpenCL C text placed before the kernels (typedefs, helper
 *              functions, #pragma OPENCL EXTENSION lines), or NULL.
 *  `less` may span several lines and hold comments: it is compiled as the
 *  body of a function of its own. A malformed expression gives SK_E_BUILD
 *  with the compiler's log in sk_context_build_log(). Built once per
 *  context and cached (one program per type, less, preamble, value size
 *  and shape). Since 1.1. */
typedef struct sk_comparator {
    const char *type;
    size_t size;
    const char *less;
    const char *preamble;
} sk_comparator;

/*! sk_sort_by_less() :
 *  Sorts the first n elements of `keys` (of cmp's type) in place by
 *  cmp->less: a stable merge sort (equal elements, neither less than the
 *  other, keep their input order). Elements are moved as bytes, never
 *  converted. GPU shape: a work-group sorts a tile in local memory (each
 *  work-item its few keys by a sorting network, then runs merged in local
 *  memory); CPU shape: a work-item sorts a chunk serially (insertion-sorted
 *  runs, then merges); then passes merge neighbouring runs device-wide,
 *  each part of the output finding its share by merge path (as
 *  sk_merge_keys()). About log2(n / tile) passes over the data; the radix
 *  sort (sk_sort_keys()) is faster where the order is a key type's. Scratch
 *  from the context: n elements and a few words per part. n of 0 or 1
 *  does nothing. Asynchronous on the context's queue.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL ctx, cmp or buffer, cmp without
 *  type or less, size 0, a text over SK_USER_CODE_MAX_BYTES, a buffer
 *  smaller than n elements), SK_E_SIZE (n elements overflowing size_t),
 *  SK_E_UNSUPPORTED (GPU shape: two elements, with their 4-byte positions
 *  for pairs, too large for the device's local memory),
 *  SK_E_BUILD (a malformed type, less or preamble, a size that is not the
 *  type's), SK_E_CL or SK_E_OUT_OF_MEMORY. keys is untouched on
 *  SK_E_INVALID_ARG, SK_E_SIZE, SK_E_UNSUPPORTED and SK_E_BUILD.
 *  Since 1.1. */
SK_API sk_status sk_sort_by_less(sk_context *ctx, const sk_comparator *cmp, cl_mem keys,
                                 size_t n);

/*! sk_sort_pairs_by_less() :
 *  As sk_sort_by_less(), moving the n values of `values` (value_size
 *  bytes each, any size above 0; moved as bytes) with their keys. keys and
 *  values must not overlap. Scratch: n values more.
 *  @return as sk_sort_by_less(); SK_E_INVALID_ARG also for value_size 0, a
 *  values buffer smaller than n values or overlapping keys.
 *  Since 1.1. */
SK_API sk_status sk_sort_pairs_by_less(sk_context *ctx, const sk_comparator *cmp,
                                       size_t value_size, cl_mem keys, cl_mem values,
                                       size_t n);

/*! sk_sort_by_less_host(), sk_sort_pairs_by_less_host() :
 *  Host-array forms: copy in, sort, copy back (blocking). The arrays are
 *  written only on success; they may be NULL when n is 0; keys and values
 *  must be different arrays. SK_E_SIZE when a device copy would exceed the
 *  device's largest buffer (before any copy).
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_sort_by_less_host(sk_context *ctx, const sk_comparator *cmp, void *keys,
                                      size_t n);
SK_API sk_status sk_sort_pairs_by_less_host(sk_context *ctx, const sk_comparator *cmp,
                                            size_t value_size, void *keys, void *values,
                                            size_t n);

/*! sk_sort_field :
 *  One field of a struct to sort by (CUB's decomposer):
 *    key       an OpenCL C expression of `x` (the struct) giving the field,
 *              e.g. "x.major" or "x.name[0]"; converted to key_type;
 *    key_type  the field's key type, ordered as the radix sort orders it
 *              (sk_sort_keys(): floats in IEEE totalOrder);
 *    order     SK_ASCENDING or SK_DESCENDING for this field.
 *  Since 1.1. */
typedef struct sk_sort_field {
    const char *key;
    sk_type key_type;
    sk_sort_order order;
} sk_sort_field;

/*! sk_field_order :
 *  A struct type and the fields it sorts by, most significant first:
 *  elements compare by fields[0], equal ones by fields[1], and so on.
 *    type, size, preamble   as in sk_comparator (size: sizeof(type) on the
 *                           device and the host);
 *    fields, field_count    at least one field.
 *  Since 1.1. */
typedef struct sk_field_order {
    const char *type;
    size_t size;
    const char *preamble;
    const sk_sort_field *fields;
    size_t field_count;
} sk_field_order;

/*! sk_sort_by_fields() :
 *  Sorts the first n structs of `elems` in place by the fields of `by`,
 *  stably (structs equal in every field keep their input order), on the
 *  radix sort: each field, least significant first, is extracted into a
 *  key array in the current order (a small kernel built from the key
 *  expressions), and (field key, index) pairs are radix sorted (stable,
 *  so the more significant fields' sorts keep the order of the less
 *  significant ones among their ties); the structs are then gathered by
 *  the final index permutation. One radix sort of pairs per field, so its
 *  time grows with the fields and their key widths. Scratch: n structs,
 *  n 8-byte keys, n indices (4 bytes, 8 from 2^32 elements) and the radix
 *  sort's. n of 0 or 1 does nothing. Asynchronous on the context's queue,
 *  except for the radix sort's small blocking reads.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL ctx, by or buffer, no type or no
 *  fields, size 0, a field without key or with a bad type or order, a text
 *  over SK_USER_CODE_MAX_BYTES, a buffer smaller than n structs),
 *  SK_E_SIZE, SK_E_UNSUPPORTED (a float64 field without fp64), SK_E_BUILD
 *  (a malformed type, key expression or preamble, a size that is not the
 *  type's), SK_E_CL or SK_E_OUT_OF_MEMORY. elems is untouched on
 *  SK_E_INVALID_ARG, SK_E_SIZE, SK_E_UNSUPPORTED and SK_E_BUILD.
 *  Since 1.1. */
SK_API sk_status sk_sort_by_fields(sk_context *ctx, const sk_field_order *by, cl_mem elems,
                                   size_t n);

/*! sk_sort_pairs_by_fields() :
 *  As sk_sort_by_fields(), moving the n values of `values` (value_size
 *  bytes each, any size above 0) with their structs. elems and values must
 *  not overlap. Scratch: n values more.
 *  @return as sk_sort_by_fields(); SK_E_INVALID_ARG also for value_size 0,
 *  a values buffer smaller than n values or overlapping elems.
 *  Since 1.1. */
SK_API sk_status sk_sort_pairs_by_fields(sk_context *ctx, const sk_field_order *by,
                                         size_t value_size, cl_mem elems, cl_mem values,
                                         size_t n);

/*! sk_sort_by_fields_host(), sk_sort_pairs_by_fields_host() :
 *  Host-array forms: copy in, sort, copy back (blocking), as
 *  sk_sort_by_less_host().
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_sort_by_fields_host(sk_context *ctx, const sk_field_order *by,
                                        void *elems, size_t n);
SK_API sk_status sk_sort_pairs_by_fields_host(sk_context *ctx, const sk_field_order *by,
                                              size_t value_size, void *elems, void *values,
                                              size_t n);

/* ------------------------------------------------------------------------ */
/* Histogram                                                                 */
/* ------------------------------------------------------------------------ */

/* Every histogram counts the n elements of `src` (of any sk_type) into
 * `bins` bins: counts[b] (uint64) is the number of elements in bin b; an
 * element in no bin is not counted, and NaN is in none. Each work-group
 * (GPU shape) or chunk (CPU shape) counts its elements into 32-bit
 * counters of its own (local memory where the bins fit it, else a row in
 * scratch memory), and the rows are summed into counts in a fixed order:
 * no 64-bit atomics, and the same counts on every device and run. n may
 * be 0 (every count 0) or exceed 2^32 where the device holds the data.
 * The cl_mem forms are asynchronous on the context's queue (but
 * sk_histogram_edges(), which reads its edges back first); counts may
 * not be an input buffer. Scratch: up to 16 MiB of partial rows, and one
 * row of 4 * bins bytes however many bins. Since 1.1. */

/*! sk_histogram_even() :
 *  `bins` bins of equal width over [lo, hi): element x is counted where
 *  lo <= x < hi, in bin
 *    integers: floor((x - lo) * bins / (hi - lo)), exactly (in 128-bit
 *              integer arithmetic); lo and hi must be whole numbers within
 *              the type's range;
 *    floats:   min(floor((x - lo) * s), bins - 1), s = bins / (hi - lo),
 *              lo, hi, s, x - lo and the product each rounded to the
 *              element type (float32: lo and hi are first rounded to
 *              float); that type's hi - lo and s must be finite. (Where a
 *              device flushes subnormal floats to zero, elements within
 *              the subnormal range of lo may land in another bin.)
 *  @return SK_OK, SK_E_INVALID_ARG (NULL ctx or buffer, invalid type,
 *  bins 0, lo or hi NaN, lo >= hi, bounds as above not met, a buffer
 *  smaller than n elements or bins counts, counts also src), SK_E_SIZE,
 *  SK_E_UNSUPPORTED (float64 without fp64), SK_E_BUILD, SK_E_CL or
 *  SK_E_OUT_OF_MEMORY. Outputs are untouched on SK_E_INVALID_ARG and
 *  SK_E_SIZE.
 *  Since 1.1. */
SK_API sk_status sk_histogram_even(sk_context *ctx, sk_type type, cl_mem src, double lo,
                                   double hi, cl_mem counts, size_t n, size_t bins);

/*! sk_histogram_edges() :
 *  Bins between bins + 1 edges of the element type, in non-decreasing
 *  order: bin b is [edges[b], edges[b + 1]). x is counted where
 *  edges[0] <= x < edges[bins], in the bin b with edges[b] <= x <
 *  edges[b + 1] (a binary search per element); a bin between equal edges
 *  is empty and gets 0. The edges are read back and checked first
 *  (blocking): edges out of order or NaN give SK_E_INVALID_ARG.
 *  @return as sk_histogram_even(); SK_E_INVALID_ARG also for edges
 *  smaller than bins + 1 elements, out of order or NaN, or counts also
 *  edges.
 *  Since 1.1. */
SK_API sk_status sk_histogram_edges(sk_context *ctx, sk_type type, cl_mem src, cl_mem edges,
                                    cl_mem counts, size_t n, size_t bins);

/*! sk_histogram_even_host(), sk_histogram_edges_host() :
 *  Host-array forms: copy in, count, copy out (blocking). counts (bins
 *  uint64) is written only on success; src may be NULL when n is 0.
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_histogram_even_host(sk_context *ctx, sk_type type, const void *src,
                                        double lo, double hi, uint64_t *counts, size_t n,
                                        size_t bins);
SK_API sk_status sk_histogram_edges_host(sk_context *ctx, sk_type type, const void *src,
                                         const void *edges, uint64_t *counts, size_t n,
                                         size_t bins);

/* ------------------------------------------------------------------------ */
/* Sorted search                                                             */
/* ------------------------------------------------------------------------ */

/*! sk_search_lower_bound() :
 *  For each of the n_needles keys of `needles`, where it would go in the
 *  n_haystack keys of `haystack`, sorted in `order`: indices[i] (uint64)
 *  is the first position p with haystack[p] not before needles[i], or
 *  n_haystack where there is none (std::lower_bound, vectorised). The
 *  order is the radix sort's (sk_sort_keys()): integers by value, floats
 *  in IEEE totalOrder (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf <
 *  +NaN, NaNs among themselves by payload, compared as bits: -0.0 and
 *  +0.0 differ, a NaN equals only its own bits), SK_DESCENDING its exact
 *  reverse; so searching what sk_sort_keys() gave agrees with it key for
 *  key, and float64 keys need no fp64. Needles may come in any order; a
 *  haystack that is not sorted in `order` gives unspecified indices in
 *  [0, n_haystack] (every read stays within the buffers' stated sizes).
 *  GPU shape: a binary search per needle; CPU shape: a chunk of needles
 *  per work-item, each needle searched from the last one's index onward
 *  where it does not go before it (needles in order walk the haystack
 *  once). Indices are 64-bit: n_haystack and n_needles may exceed 2^32
 *  where the device holds the data. n_haystack 0 gives every index 0;
 *  n_needles 0 does nothing. Every buffer must still be given; haystack
 *  may be needles, indices may overlap neither (the same buffer, or
 *  sub-buffers of one buffer whose ranges meet). No scratch.
 *  Asynchronous on the context's queue.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad type or order, a buffer
 *  smaller than its keys or n_needles uint64, indices overlapping an
 *  input), SK_E_SIZE (keys or indices whose bytes overflow size_t),
 *  SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY. indices is untouched on
 *  SK_E_INVALID_ARG and SK_E_SIZE.
 *  Since 1.1. */
SK_API sk_status sk_search_lower_bound(sk_context *ctx, sk_type key_type, cl_mem haystack,
                                       cl_mem needles, cl_mem indices, size_t n_haystack,
                                       size_t n_needles, sk_sort_order order);

/*! sk_search_upper_bound() :
 *  As sk_search_lower_bound(), with indices[i] the first position p with
 *  needles[i] before haystack[p] (std::upper_bound): past every key equal
 *  to the needle, where lower_bound stops before them.
 *  @return as sk_search_lower_bound().
 *  Since 1.1. */
SK_API sk_status sk_search_upper_bound(sk_context *ctx, sk_type key_type, cl_mem haystack,
                                       cl_mem needles, cl_mem indices, size_t n_haystack,
                                       size_t n_needles, sk_sort_order order);

/*! sk_search_lower_bound_host(), sk_search_upper_bound_host() :
 *  Host-array forms: copy in, search, copy out (blocking). indices
 *  (n_needles uint64) is written only on success; an array may be NULL
 *  when its count is 0; SK_E_SIZE when a device copy would exceed the
 *  device's largest buffer (before any copy).
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_search_lower_bound_host(sk_context *ctx, sk_type key_type,
                                            const void *haystack, const void *needles,
                                            uint64_t *indices, size_t n_haystack,
                                            size_t n_needles, sk_sort_order order);
SK_API sk_status sk_search_upper_bound_host(sk_context *ctx, sk_type key_type,
                                            const void *haystack, const void *needles,
                                            uint64_t *indices, size_t n_haystack,
                                            size_t n_needles, sk_sort_order order);

/* ------------------------------------------------------------------------ */
/* Top-k and selection                                                       */
/* ------------------------------------------------------------------------ */

/* The k first keys of n in the radix sort's order (sk_sort_keys()):
 * SK_ASCENDING gives the k smallest, SK_DESCENDING the k largest; floats
 * in IEEE totalOrder, compared as bits (-NaN before -inf, -0.0 before
 * +0.0, +NaN after +inf; so the k largest float keys start with any +NaN),
 * float64 keys need no fp64. Where keys equal to the k-th key do not all
 * fit, those of lowest input index are taken: the result is the first k
 * keys of the stable sort of the input. By radix selection, not a sort:
 * per 8-bit digit from the top, the digits of the keys still matching the
 * k-th key's digits found so far are counted (the histogram's kernels)
 * and the digit holding the k-th key taken, then one pass writes the keys
 * before it and the first keys equal to it, in input order; about
 * key bits / 8 + 2 reads of the keys, whatever k is. n and k may exceed
 * 2^32 where the device holds the data. k must not exceed n (k > n is
 * SK_E_INVALID_ARG, not clamped: the outputs are sized by k); k == 0 does
 * nothing. Every buffer must still be given; outputs may overlap no input
 * and not each other. Scratch: a few words, 256 counts and the
 * histogram's rows, and two counts per part of the keys. Asynchronous on
 * the context's queue. Sorted output and ranks from small sources (on
 * GPUs below 2^24 keys; SCANKIT_TOPK_SORT_BELOW) come instead from a sort
 * of every key, with its input index where values come out: the same
 * result in fewer launches, with the sort's scratch (a copy of the keys
 * and 4 bytes of index per key, and the sort's own). */

/*! sk_topk_output : the selected keys in input order (cheapest), or sorted
 *  in the selection's order (the k selected sorted by the radix sort,
 *  stable: equal keys in input order). Since 1.1. */
typedef enum sk_topk_output { SK_TOPK_INPUT_ORDER = 0, SK_TOPK_SORTED = 1 } sk_topk_output;

/*! sk_topk_keys() :
 *  out_keys (k keys) = the k first keys of `keys` (n of key_type) in
 *  `order`, as described above, in input order or sorted (`output`).
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad type, order or output, k >
 *  n, a buffer smaller than its keys, an output overlapping another
 *  buffer), SK_E_SIZE, SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY; outputs
 *  are untouched on SK_E_INVALID_ARG and SK_E_SIZE.
 *  Since 1.1. */
SK_API sk_status sk_topk_keys(sk_context *ctx, sk_type key_type, cl_mem keys, cl_mem out_keys,
                              size_t n, size_t k, sk_sort_order order,
                              sk_topk_output output);

/*! sk_topk_pairs() :
 *  As sk_topk_keys(), with the value (value_size 4 or 8 bytes) of each
 *  selected key from `values` (n of them) at the same place of out_values.
 *  @return as sk_topk_keys(); SK_E_INVALID_ARG also for another value_size.
 *  Since 1.1. */
SK_API sk_status sk_topk_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                               cl_mem keys, cl_mem values, cl_mem out_keys, cl_mem out_values,
                               size_t n, size_t k, sk_sort_order order,
                               sk_topk_output output);

/*! sk_topk_indices() :
 *  As sk_topk_keys(), with the input index (uint64) of each selected key
 *  at the same place of out_indices (k of them).
 *  @return as sk_topk_keys().
 *  Since 1.1. */
SK_API sk_status sk_topk_indices(sk_context *ctx, sk_type key_type, cl_mem keys,
                                 cl_mem out_keys, cl_mem out_indices, size_t n, size_t k,
                                 sk_sort_order order, sk_topk_output output);

/*! sk_select_nth() :
 *  out_key (one key) = the key of 0-based rank k of `keys` (n of key_type)
 *  in `order`: the key at position k of what sk_sort_keys() gives
 *  (std::nth_element's key), by the same radix selection, without the
 *  collection pass. k must be below n (so n 0 is always refused).
 *  @return as sk_topk_keys(); SK_E_INVALID_ARG for k >= n.
 *  Since 1.1. */
SK_API sk_status sk_select_nth(sk_context *ctx, sk_type key_type, cl_mem keys, cl_mem out_key,
                               size_t n, size_t k, sk_sort_order order);

/*! sk_topk_keys_host(), sk_topk_pairs_host(), sk_topk_indices_host(),
 *  sk_select_nth_host() :
 *  Host-array forms: copy in, select, copy out (blocking). The outputs are
 *  written only on success; an array may be NULL when its count (n for
 *  inputs, k for outputs) is 0; SK_E_SIZE when a device copy would exceed
 *  the device's largest buffer (before any copy).
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_topk_keys_host(sk_context *ctx, sk_type key_type, const void *keys,
                                   void *out_keys, size_t n, size_t k, sk_sort_order order,
                                   sk_topk_output output);
SK_API sk_status sk_topk_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                    const void *keys, const void *values, void *out_keys,
                                    void *out_values, size_t n, size_t k,
                                    sk_sort_order order, sk_topk_output output);
SK_API sk_status sk_topk_indices_host(sk_context *ctx, sk_type key_type, const void *keys,
                                      void *out_keys, uint64_t *out_indices, size_t n,
                                      size_t k, sk_sort_order order, sk_topk_output output);
SK_API sk_status sk_select_nth_host(sk_context *ctx, sk_type key_type, const void *keys,
                                    void *out_key, size_t n, size_t k, sk_sort_order order);

/* ------------------------------------------------------------------------ */
/* Sorting data that streams in and out                                      */
/* ------------------------------------------------------------------------ */

/*! sk_reader :
 *  Where a stream sort reads its input: fn(user, buf, bytes) stores up to
 *  `bytes` bytes at buf and returns how many it stored (fewer is fine, as
 *  read(2)), 0 only when the input has ended, or -1 on a failure (the
 *  sort then stops with SK_E_IO). Since 1.1. */
typedef struct sk_reader {
    long long (*fn)(void *user, void *buf, size_t bytes);
    void *user;
} sk_reader;

/*! sk_writer :
 *  Where a stream sort writes its output: fn(user, buf, bytes) takes all
 *  `bytes` bytes and returns 0, or -1 on a failure (the sort then stops
 *  with SK_E_IO). The output comes in order, in pieces of any size.
 *  Since 1.1. */
typedef struct sk_writer {
    int (*fn)(void *user, const void *buf, size_t bytes);
    void *user;
} sk_writer;

/*! sk_stream_progress_fn : called as a stream sort goes: `phase` is
 *  "reading" (the input read, and sorted run by run), then "writing" (a
 *  sort in one piece writing its output) or "merging" (the runs joined and
 *  written); `done` and `total` bytes of that phase (total 0: not known).
 *  The phase is one of those three string constants, so a pointer
 *  comparison tells a new phase. */
typedef void (*sk_stream_progress_fn)(void *user, const char *phase, uint64_t done,
                                      uint64_t total);

/*! sk_stream_opts :
 *  How a stream sort may use memory. struct_size as in sk_device_desc
 *  (SK_STREAM_OPTS_INIT sets it); NULL options are the defaults.
 *    device_bytes    device memory the sort may allocate: its copy of a run
 *                    and the radix sort's scratch for it (0: half the
 *                    device's global memory, each buffer within its largest
 *                    allocation). The scratch is the context's, made at the
 *                    size the first sort takes and kept (sk_context_trim()
 *                    frees it); scratch the context held before counts
 *                    against nothing, and with the caller's scratch set
 *                    (sk_context_set_scratch()) the sort takes its scratch
 *                    from there, which must hold it;
 *    host_bytes      host memory for two stagings of a run, the merge's
 *                    windows (a run's elements in all) and the runs kept
 *                    there (0: half the physical memory); runs beyond it
 *                    go to a temporary file;
 *    temp_dir        the directory of that file (NULL: $TMPDIR, else /tmp);
 *                    the file has no name (or loses it at once), so it
 *                    never outlives the sort, however the process ends;
 *    expected_bytes  the input's size in bytes when known, for progress
 *                    only (0: not known);
 *    progress, progress_user   called as the sort goes (NULL: never). */
typedef struct sk_stream_opts {
    size_t struct_size;
    uint64_t device_bytes;
    uint64_t host_bytes;
    const char *temp_dir;
    uint64_t expected_bytes;
    sk_stream_progress_fn progress;
    void *progress_user;
} sk_stream_opts;

/*! SK_STREAM_OPTS_INIT : the defaults, struct_size set. */
#define SK_STREAM_OPTS_INIT {sizeof(sk_stream_opts), 0u, 0u, NULL, 0u, NULL, NULL}

/*! sk_stream_stats :
 *  What a stream sort did. struct_size set by the caller
 *  (SK_STREAM_STATS_INIT), as in sk_device_desc.
 *    count           elements sorted
 *    runs            sorted runs (1: the data was sorted in one piece)
 *    spilled_runs    runs written to the temporary file
 *    merge_blocks    device sorts of the merge
 *    run_elements    the most elements of a run
 *    device_bytes    device memory the sort allocated at most (its run
 *                    buffers and the scratch the radix sort takes for them)
 *    host_bytes      host memory the sort allocated at most
 *    read_seconds, write_seconds   spent in the reader and writer functions
 *    spill_seconds   writing and reading the temporary file
 *    device_seconds  the rest: transfers and sorts, waited for */
typedef struct sk_stream_stats {
    size_t struct_size;
    uint64_t count, runs, spilled_runs, merge_blocks, run_elements;
    uint64_t device_bytes, host_bytes;
    double read_seconds, write_seconds, spill_seconds, device_seconds;
} sk_stream_stats;

/*! SK_STREAM_STATS_INIT : an initialiser that sets struct_size. */
#define SK_STREAM_STATS_INIT {sizeof(sk_stream_stats), 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0, 0, 0, 0}

/*! sk_sort_keys_stream(), sk_sort_pairs_stream(), sk_sort_keys_bits_stream(),
 *  sk_sort_pairs_bits_stream() :
 *  The radix sort of keys (with values: pairs) read from `keys_in` (and
 *  `values_in`) until it ends, written to `keys_out` (and `values_out`):
 *  the same order as sk_sort_keys() and its forms give, stable, for data
 *  of any size. Data that fits the device budget is sorted in one piece,
 *  read in pieces whose copies to the device overlap the reading and
 *  written in pieces as they come back (through staging memory).
 *  Larger data is sorted as runs that fit, kept in host memory while
 *  host_bytes allows and written to one temporary file beyond it; then
 *  one merge pass reads every run once, in order: each step takes from
 *  every run a window of its next keys, the keys that no later key of any
 *  run can precede (all below the smallest window end, and those equal to
 *  it from the runs up to the one it ends), sorts them on the device as one
 *  block (stable, in run order: the stable merge) and writes them; two
 *  stagings take turns, so that a block goes to the device while the one
 *  before is written, and is sorted while the next is gathered. A block
 *  holds at most a run's elements, so the device and host budgets hold
 *  throughout. The input must hold whole elements, and values_in exactly as
 *  many values as keys_in keys. Blocking; the functions run on the calling
 *  thread. stats (may be NULL) is filled on success and on failure.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL ctx or function, bad type, order,
 *  value size or bit range, an input that ends within an element, values
 *  that end before or go on after the keys; options or stats with a bad
 *  struct_size), SK_E_SIZE (budgets that hold no run of one element and its
 *  scratch, or too many runs for a window of one element each),
 *  SK_E_IO (a reader or writer returned -1, the temporary file could not
 *  be made, written or read: the detail says which and why),
 *  SK_E_UNSUPPORTED, SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY. What was
 *  written before a failure is a prefix of the output at most.
 *  Since 1.1. */
SK_API sk_status sk_sort_keys_stream(sk_context *ctx, sk_type key_type, sk_reader keys_in,
                                     sk_writer keys_out, sk_sort_order order,
                                     const sk_stream_opts *opts, sk_stream_stats *stats);
SK_API sk_status sk_sort_pairs_stream(sk_context *ctx, sk_type key_type, size_t value_size,
                                      sk_reader keys_in, sk_reader values_in,
                                      sk_writer keys_out, sk_writer values_out,
                                      sk_sort_order order, const sk_stream_opts *opts,
                                      sk_stream_stats *stats);
SK_API sk_status sk_sort_keys_bits_stream(sk_context *ctx, sk_type key_type,
                                          sk_reader keys_in, sk_writer keys_out,
                                          sk_sort_order order, unsigned begin_bit,
                                          unsigned end_bit, const sk_stream_opts *opts,
                                          sk_stream_stats *stats);
SK_API sk_status sk_sort_pairs_bits_stream(sk_context *ctx, sk_type key_type,
                                           size_t value_size, sk_reader keys_in,
                                           sk_reader values_in, sk_writer keys_out,
                                           sk_writer values_out, sk_sort_order order,
                                           unsigned begin_bit, unsigned end_bit,
                                           const sk_stream_opts *opts,
                                           sk_stream_stats *stats);

/* ------------------------------------------------------------------------ */
/* Segmented scan and segment reductions                                     */
/* ------------------------------------------------------------------------ */

/*! sk_segments :
 *  How n elements split into segments, by exactly one of:
 *    flags      n head flags of flag_size bytes (1: uint8, 4: uint32);
 *               element i starts a segment where flags[i] != 0, and
 *               element 0 always starts one;
 *    offsets    `count` segment start offsets of offset_type (SK_UINT32 or
 *               SK_UINT64), non-decreasing, offsets[0] == 0, none above n;
 *               equal offsets are empty segments.
 *  The other member is NULL. */
typedef struct sk_segments {
    cl_mem flags;
    size_t flag_size;
    cl_mem offsets;
    sk_type offset_type;
    size_t count;
} sk_segments;

/*! sk_segscan_inclusive() :
 *  The inclusive scan restarting at every segment: dst[i] combines src[h]
 *  .. src[i], h the start of i's segment. It is the scan of the lifted
 *  monoid (f1, v1) + (f2, v2) = (f1 | f2, f2 ? v2 : v1 op v2): on the GPU
 *  shape run by the same kernels as sk_scan_inclusive(); on the CPU shape
 *  by chunk kernels of the same reduce-then-scan structure that reduce only
 *  each chunk's last segment and carry the value alone through the scan
 *  pass. Floats: "Float semantics" above, per segment (a segment's first
 *  output is its first input). src may equal dst. Asynchronous, except that
 *  offsets are checked on the device first (a blocking read).
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, both or neither of flags and
 *  offsets, bad flag_size or offset_type, buffers smaller than stated,
 *  offsets not a valid segmentation), SK_E_SIZE, SK_E_UNSUPPORTED, SK_E_BUILD,
 *  SK_E_CL or SK_E_OUT_OF_MEMORY. */
SK_API sk_status sk_segscan_inclusive(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                                      const sk_segments *seg, cl_mem dst, size_t n);

/*! sk_segscan_exclusive() :
 *  As sk_segscan_inclusive(), exclusive: the first element of each segment
 *  gets the identity, dst[i] combines src[h] .. src[i-1]. */
SK_API sk_status sk_segscan_exclusive(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                                      const sk_segments *seg, cl_mem dst, size_t n);

/*! sk_segscan_inclusive_monoid(), sk_segscan_exclusive_monoid() :
 *  The same over a caller-defined monoid (see sk_monoid). */
SK_API sk_status sk_segscan_inclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                             const sk_segments *seg, cl_mem dst, size_t n);
SK_API sk_status sk_segscan_exclusive_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                             const sk_segments *seg, cl_mem dst, size_t n);

/*! sk_segreduce() :
 *  One total per segment (reduce by key): totals[s] combines the elements
 *  of segment s, in order; an empty segment (offsets only) gets the
 *  identity. *segments (may be NULL) gets the number of segments: the
 *  number of heads for flags, seg->count for offsets. `totals` must hold n
 *  elements for flags (at most n segments), seg->count for offsets. Blocks
 *  until done. Offsets are checked on the device before anything is
 *  written. By offsets, the GPU shape totals segments that average 256
 *  elements or more by a work-group each, reading the check's verdict
 *  once at the end (the kernel stores nothing on bad offsets; up to 2048
 *  segments every work-group checks them all in the same launch); shorter
 *  segments go through the segmented scan, the verdict read at the end
 *  below 2^25 elements and first from there.
 *  @return as sk_segscan_inclusive(). */
SK_API sk_status sk_segreduce(sk_context *ctx, sk_type type, sk_op op, cl_mem src,
                              const sk_segments *seg, cl_mem totals, size_t *segments,
                              size_t n);

/*! sk_segreduce_monoid() : sk_segreduce() over a caller-defined monoid.
 */
SK_API sk_status sk_segreduce_monoid(sk_context *ctx, const sk_monoid *m, cl_mem src,
                                     const sk_segments *seg, cl_mem totals,
                                     size_t *segments, size_t n);

/*! sk_segments_host : sk_segments with host arrays instead of buffers. */
typedef struct sk_segments_host {
    const void *flags;
    size_t flag_size;
    const void *offsets;
    sk_type offset_type;
    size_t count;
} sk_segments_host;

/*! Host-array forms of the six above (blocking). The segreduce forms
 *  write *segments totals (n at most for flags, seg->count for offsets). */
SK_API sk_status sk_segscan_inclusive_host(sk_context *ctx, sk_type type, sk_op op,
                                           const void *src, const sk_segments_host *seg,
                                           void *dst, size_t n);
SK_API sk_status sk_segscan_exclusive_host(sk_context *ctx, sk_type type, sk_op op,
                                           const void *src, const sk_segments_host *seg,
                                           void *dst, size_t n);
SK_API sk_status sk_segreduce_host(sk_context *ctx, sk_type type, sk_op op, const void *src,
                                   const sk_segments_host *seg, void *totals,
                                   size_t *segments, size_t n);
SK_API sk_status sk_segscan_inclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                                  const void *src,
                                                  const sk_segments_host *seg, void *dst,
                                                  size_t n);
SK_API sk_status sk_segscan_exclusive_monoid_host(sk_context *ctx, const sk_monoid *m,
                                                  const void *src,
                                                  const sk_segments_host *seg, void *dst,
                                                  size_t n);
SK_API sk_status sk_segreduce_monoid_host(sk_context *ctx, const sk_monoid *m,
                                          const void *src, const sk_segments_host *seg,
                                          void *totals, size_t *segments, size_t n);

/* ------------------------------------------------------------------------ */
/* Run-length encoding and by-key reductions                                 */
/* ------------------------------------------------------------------------ */

/* Every function below splits its n keys (of any sk_type) into runs of
 * equal consecutive keys: a run starts at element 0 and wherever a key
 * differs from the key before it. Keys are equal when their bits are:
 * integers by value; floats by bit pattern, so -0.0 and +0.0 are
 * different keys, and NaNs are equal to each other exactly when their bits
 * are (a run of one NaN repeated is one run; NaNs of other signs or
 * payloads are different keys). That is the radix sort's grouping: after
 * sk_sort_keys every distinct key is one run, and a run-length encoding
 * decodes to its input bit for bit. (sk_unique compares with the type's
 * `==` instead.)
 *  - Run-length encoding and reduce by key read keys and values once. On
 *    the GPU shape from 2^22 to 2^32 elements, tiles found by decoupled
 *    look-back store every run they hold (kernels/bykey_tile.cl; the runs
 *    crossing tiles completed, below 2^26 elements, by the look-back
 *    itself for reductions whose result does not depend on the combining
 *    order with values of at most 4 bytes, else by one work-group after
 *    the tiles, in a fixed order; from 2^26, by the lifted scan over one
 *    record per tile, in a fixed order where the order matters);
 *    SCANKIT_BYKEY_TILES_FROM moves the 2^22, SCANKIT_BYKEY_SCAN_JOIN_FROM
 *    the 2^26, and SK_PARAM_SCAN_PATH set to reduce-then-scan leaves the
 *    tiles out. Otherwise
 *    they are one scan of the segment totals (sk_segreduce's lifted
 *    monoid) whose loads compare each key with the one before it and
 *    whose stores write each run's key and total at its end (on the CPU
 *    shape, and for the scans by key there, the segmented scan's chunks
 *    compare the keys themselves). Unique by key, and the scans on
 *    the GPU shape, take head flags (uint8, n bytes of scratch) from one
 *    comparison kernel (kernels/bykey.cl), then the segmented scan
 *    (sk_segscan_*) or the compaction (sk_select_flagged). Values
 *    follow the segmented scan's rules: any built-in (type, op) or custom
 *    monoid, "Float semantics" per run. In that scan, reductions whose
 *    result does not depend on the combining order (integers, float
 *    min/max, counts) take the single pass with decoupled look-back on the
 *    GPU shape when
 *    values have at most 4 bytes (counts: n below 2^32); float add and mul
 *    and custom monoids combine in a fixed order, bit-identical run to
 *    run, unless SK_PARAM_SCAN_PATH asks for the look-back pass (as for
 *    the scans).
 *  - *runs gets the number of runs, 0 for n = 0 (runs NULL is
 *    SK_E_INVALID_ARG); outputs are written only in [0, runs) (a scan,
 *    which has no runs argument, writes n values).
 *  - The cl_mem forms need outputs distinct from the inputs and from each
 *    other (but a scan's values_out may be values_in); they block to read
 *    the number of runs, a scan does not block. The _host forms copy in
 *    and out (blocking) and write outputs only on success; pointers may be
 *    NULL when n is 0.
 *  - Bad arguments (NULL, invalid types, value_size not 4 or 8, buffers
 *    smaller than n elements, an output that is also an input) give
 *    SK_E_INVALID_ARG and leave every output untouched; byte sizes over
 *    SIZE_MAX or the device's largest buffer give SK_E_SIZE; float64 keys
 *    or values without fp64 give SK_E_UNSUPPORTED.
 * Since 1.1. */

/*! sk_run_length_encode() :
 *  values_out[r] is the key of run r and counts_out[r] (uint64) its
 *  length; *runs the number of runs. values_out holds n elements of
 *  `type`, counts_out n uint64 (the most runs there can be). It is
 *  sk_reduce_by_key() of uint64 ones with SK_OP_ADD, the ones made in the
 *  kernel (no scratch of n elements).
 *  @return SK_OK, SK_E_INVALID_ARG, SK_E_SIZE, SK_E_UNSUPPORTED,
 *  SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY.
 *  Since 1.1. */
SK_API sk_status sk_run_length_encode(sk_context *ctx, sk_type type, cl_mem src,
                                      cl_mem values_out, cl_mem counts_out, size_t *runs,
                                      size_t n);

/*! sk_reduce_by_key() :
 *  keys_out[r] is the key of run r and values_out[r] combines, in order,
 *  the values (of `type`, with `op`) of the elements of run r; *runs the
 *  number of runs. keys_out and values_out hold n elements each. Floats:
 *  "Float semantics" above, per run.
 *  @return as sk_run_length_encode(); SK_E_UNSUPPORTED also for a bitwise
 *  op on float values. */
SK_API sk_status sk_reduce_by_key(sk_context *ctx, sk_type key_type, sk_type type, sk_op op,
                                  cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                  cl_mem values_out, size_t *runs, size_t n);

/*! sk_reduce_by_key_monoid() : sk_reduce_by_key() over a caller-defined
 *  monoid (see sk_monoid); values are m->size bytes each.
 *  @return as sk_reduce_by_key(). */
SK_API sk_status sk_reduce_by_key_monoid(sk_context *ctx, sk_type key_type, const sk_monoid *m,
                                         cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                         cl_mem values_out, size_t *runs, size_t n);

/*! sk_scan_by_key_inclusive() :
 *  The inclusive scan of the values (of `type`, with `op`) restarting at
 *  every run of equal keys: values_out[i] combines values_in[h] ..
 *  values_in[i], h the first element of i's run. values_out may be
 *  values_in (in place), not keys. Asynchronous but for the head flags'
 *  program build.
 *  @return as sk_reduce_by_key(). */
SK_API sk_status sk_scan_by_key_inclusive(sk_context *ctx, sk_type key_type, sk_type type,
                                          sk_op op, cl_mem keys, cl_mem values_in,
                                          cl_mem values_out, size_t n);

/*! sk_scan_by_key_exclusive() :
 *  As sk_scan_by_key_inclusive(), exclusive: the first element of each run
 *  gets the identity, values_out[i] combines values_in[h] .. values_in[i-1].
 *  @return as sk_reduce_by_key(). */
SK_API sk_status sk_scan_by_key_exclusive(sk_context *ctx, sk_type key_type, sk_type type,
                                          sk_op op, cl_mem keys, cl_mem values_in,
                                          cl_mem values_out, size_t n);

/*! sk_scan_by_key_inclusive_monoid(), sk_scan_by_key_exclusive_monoid() :
 *  The same over a caller-defined monoid (see sk_monoid).
 *  @return as sk_reduce_by_key(). */
SK_API sk_status sk_scan_by_key_inclusive_monoid(sk_context *ctx, sk_type key_type,
                                                 const sk_monoid *m, cl_mem keys,
                                                 cl_mem values_in, cl_mem values_out,
                                                 size_t n);
SK_API sk_status sk_scan_by_key_exclusive_monoid(sk_context *ctx, sk_type key_type,
                                                 const sk_monoid *m, cl_mem keys,
                                                 cl_mem values_in, cl_mem values_out,
                                                 size_t n);

/*! sk_unique_by_key() :
 *  keys_out[r] is the first key of run r and values_out[r] its value
 *  (value_size 4 or 8 bytes; values are never compared); *runs the number
 *  of runs. values_in and values_out may both be NULL (keys alone; then
 *  value_size is ignored).
 *  @return as sk_run_length_encode(). */
SK_API sk_status sk_unique_by_key(sk_context *ctx, sk_type key_type, size_t value_size,
                                  cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                  cl_mem values_out, size_t *runs, size_t n);

/*! Host-array forms of the eight above (blocking): inputs of n elements,
 *  outputs written for *runs elements (n values for the scans).
 *  @return as the cl_mem forms.
 *  Since 1.1. */
SK_API sk_status sk_run_length_encode_host(sk_context *ctx, sk_type type, const void *src,
                                           void *values_out, uint64_t *counts_out,
                                           size_t *runs, size_t n);
SK_API sk_status sk_reduce_by_key_host(sk_context *ctx, sk_type key_type, sk_type type,
                                       sk_op op, const void *keys_in, const void *values_in,
                                       void *keys_out, void *values_out, size_t *runs,
                                       size_t n);
SK_API sk_status sk_reduce_by_key_monoid_host(sk_context *ctx, sk_type key_type,
                                              const sk_monoid *m, const void *keys_in,
                                              const void *values_in, void *keys_out,
                                              void *values_out, size_t *runs, size_t n);
SK_API sk_status sk_scan_by_key_inclusive_host(sk_context *ctx, sk_type key_type,
                                               sk_type type, sk_op op, const void *keys,
                                               const void *values_in, void *values_out,
                                               size_t n);
SK_API sk_status sk_scan_by_key_exclusive_host(sk_context *ctx, sk_type key_type,
                                               sk_type type, sk_op op, const void *keys,
                                               const void *values_in, void *values_out,
                                               size_t n);
SK_API sk_status sk_scan_by_key_inclusive_monoid_host(sk_context *ctx, sk_type key_type,
                                                      const sk_monoid *m, const void *keys,
                                                      const void *values_in,
                                                      void *values_out, size_t n);
SK_API sk_status sk_scan_by_key_exclusive_monoid_host(sk_context *ctx, sk_type key_type,
                                                      const sk_monoid *m, const void *keys,
                                                      const void *values_in,
                                                      void *values_out, size_t n);
SK_API sk_status sk_unique_by_key_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                       const void *keys_in, const void *values_in,
                                       void *keys_out, void *values_out, size_t *runs,
                                       size_t n);

/* ------------------------------------------------------------------------ */
/* Segmented sort                                                            */
/* ------------------------------------------------------------------------ */

/*! sk_segsort_keys() :
 *  Sorts the n keys of `keys` within each segment of `seg`, which must
 *  give offsets (flags: SK_E_INVALID_ARG), uint32 or uint64, as
 *  sk_segments describes them: segment s is keys[offsets[s] ..
 *  offsets[s + 1]), the last one ending at n; empty segments are allowed.
 *  The order is the radix sort's (sk_sort_keys()): every key type,
 *  floats in IEEE totalOrder, descending the exact reverse; stable.
 *  Segments up to a tile are sorted where they lie: on the GPU shape by
 *  the work-group of the tile of keys each starts in, on the CPU shape by
 *  a work-item per chunk of segments. Longer ones on the GPU shape all
 *  together by two device-wide radix sorts (by key, then stably by
 *  segment), in as many launches however many there are, or where there
 *  are many (SCANKIT_SEGSORT_GROUPS_FROM, 128) of 4096 keys or more on
 *  average each by a work-group of its own, a launch per digit; on the
 *  CPU shape each below 2^20 keys by a work-item of its own, in one
 *  launch; a very long one (millions of keys), or on the GPU shape the
 *  only long one, is sorted alone. Scratch: about n keys, values and two
 *  4-byte words per key (8-byte from n = 2^32), besides the radix sort's.
 *  Blocks once before it returns: the offsets are checked on the device
 *  and the verdict read back with the long segments' count (nothing is
 *  sorted where they are not a segmentation); where there are long
 *  segments, their list is read back too.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, bad key type or order, flags
 *  instead of offsets, bad offset_type, buffers smaller than stated,
 *  offsets not a valid segmentation), SK_E_SIZE, SK_E_UNSUPPORTED,
 *  SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY.
 *  Since 1.1. */
SK_API sk_status sk_segsort_keys(sk_context *ctx, sk_type key_type, cl_mem keys,
                                 const sk_segments *seg, size_t n, sk_sort_order order);

/*! sk_segsort_pairs() :
 *  As sk_segsort_keys(), moving the n values of `values` (value_size 4 or
 *  8 bytes) with their keys; equal keys keep their values' order.
 *  @return as sk_segsort_keys(); SK_E_INVALID_ARG for another value_size
 *  or values == keys. */
SK_API sk_status sk_segsort_pairs(sk_context *ctx, sk_type key_type, size_t value_size,
                                  cl_mem keys, cl_mem values, const sk_segments *seg,
                                  size_t n, sk_sort_order order);

/*! sk_segsort_keys_bits(), sk_segsort_pairs_bits() :
 *  As the two above, ordering keys by the bits [begin_bit, end_bit) of
 *  their order (as sk_sort_keys_bits()); a range outside the key is
 *  SK_E_INVALID_ARG. */
SK_API sk_status sk_segsort_keys_bits(sk_context *ctx, sk_type key_type, cl_mem keys,
                                      const sk_segments *seg, size_t n, sk_sort_order order,
                                      unsigned begin_bit, unsigned end_bit);
SK_API sk_status sk_segsort_pairs_bits(sk_context *ctx, sk_type key_type, size_t value_size,
                                       cl_mem keys, cl_mem values, const sk_segments *seg,
                                       size_t n, sk_sort_order order, unsigned begin_bit,
                                       unsigned end_bit);

/*! sk_segsort_keys_host(), sk_segsort_pairs_host(),
 *  sk_segsort_keys_bits_host(), sk_segsort_pairs_bits_host() :
 *  Host-array forms (blocking): keys, values and offsets copied in, sorted,
 *  keys and values copied back; an array may be NULL when n is 0.
 *  @return as the cl_mem forms. */
SK_API sk_status sk_segsort_keys_host(sk_context *ctx, sk_type key_type, void *keys,
                                      const sk_segments_host *seg, size_t n,
                                      sk_sort_order order);
SK_API sk_status sk_segsort_pairs_host(sk_context *ctx, sk_type key_type, size_t value_size,
                                       void *keys, void *values, const sk_segments_host *seg,
                                       size_t n, sk_sort_order order);
SK_API sk_status sk_segsort_keys_bits_host(sk_context *ctx, sk_type key_type, void *keys,
                                           const sk_segments_host *seg, size_t n,
                                           sk_sort_order order, unsigned begin_bit,
                                           unsigned end_bit);
SK_API sk_status sk_segsort_pairs_bits_host(sk_context *ctx, sk_type key_type,
                                            size_t value_size, void *keys, void *values,
                                            const sk_segments_host *seg, size_t n,
                                            sk_sort_order order, unsigned begin_bit,
                                            unsigned end_bit);

/* ------------------------------------------------------------------------ */
/* Polynomial evaluation                                                     */
/* ------------------------------------------------------------------------ */

/* Every evaluation reads coefficients a_0 .. a_d (ncoef = d + 1 of them, in
 * that order) of type SK_FLOAT32 or SK_FLOAT64 and computes
 * p(x) = a_0 + a_1 x + ... + a_d x^d in that type.
 *
 * One point: Horner's rule as a scan of the affine maps r -> r x + a_i,
 * a_d first, composed by (m1, c1) then (m2, c2) = (m1 m2, c1 m2 + c2). The
 * composition of all of them maps 0 to p(x); the reduction runs on
 * scankit's scan kernels, so any degree the device memory holds works in
 * parallel. (The other formulation, a multiplicative scan of the powers
 * x^i then a dot product with a, takes a scan, a product pass and a
 * reduction; bench/poly_methods measures both side by side: on the 2-core
 * PoCL device at degree 2^22 the affine maps took 8.4 ms against 38 ms, with
 * errors of the same order, far inside the bound below.)
 * Many points: one work-item per point running plain Horner.
 *
 * Accuracy: each term a_i x^i meets at most 2d roundings (at most i
 * multiplications and d additions on its way into the result, in any
 * association order), so
 *     |computed - p(x)| <= gamma(2d) * sum_i |a_i| |x|^i,
 *     gamma(k) = k u / (1 - k u),  u = 2^-24 (float32) or 2^-53 (float64),
 * i.e. a relative error of at most gamma(2d) times the condition number
 * sum |a_i x^i| / |p(x)| (plus underflow), provided |x|^(d+1) does not
 * overflow the type: the one-point scan forms powers of x, so where they
 * overflow the result is +-inf or NaN even if plain Horner would have
 * stayed finite. gamma(2d) is defined while 2du < 1; from there on
 * (float32 from degree 2^23, float64 from 2^52) no bound is given: the
 * result is still computed the same way, but may have no correct digits.
 * NaN coefficients or points give NaN. Infinite x is such an overflow
 * (the result is +-inf or NaN). The maps' identity (1, +0.0) is not exact
 * for signed zeros: a zero result may be +0.0 where plain Horner gives
 * -0.0 (the "Float semantics" above cover the scan operators, not this
 * composition). */

/*! sk_poly_eval() :
 *  *result = p(x) for coefficients in a buffer of ncoef elements of `type`
 *  (x is converted to `type` first; the result is returned as a double).
 *  ncoef == 0 gives 0. Blocks until done.
 *  @return SK_OK, SK_E_INVALID_ARG (NULL, type not float32/float64, buffer
 *  too small), SK_E_SIZE, SK_E_UNSUPPORTED (float64 without fp64),
 *  SK_E_BUILD, SK_E_CL or SK_E_OUT_OF_MEMORY. */
SK_API sk_status sk_poly_eval(sk_context *ctx, sk_type type, cl_mem coeffs, double x,
                              double *result, size_t ncoef);

/*! sk_poly_eval_points() :
 *  values[k] = p(points[k]) for k < npoints; points and values hold npoints
 *  elements of `type` (they may be the same buffer). Low degrees use one
 *  work-item per point; high degrees with few points evaluate point after
 *  point with the scan. Asynchronous for the former, blocking for the
 *  latter. @return as sk_poly_eval(). */
SK_API sk_status sk_poly_eval_points(sk_context *ctx, sk_type type, cl_mem coeffs,
                                     cl_mem points, cl_mem values, size_t ncoef,
                                     size_t npoints);

/*! sk_poly_horner_prefixes() :
 *  Every Horner prefix at x: prefixes[k] = a_d x^k + a_(d-1) x^(k-1) + ...
 *  + a_(d-k) for 0 <= k <= d (so prefixes[d] = p(x)); `prefixes` holds
 *  ncoef elements of `type`. The inclusive scan of the affine maps.
 *  Asynchronous. @return as sk_poly_eval(). */
SK_API sk_status sk_poly_horner_prefixes(sk_context *ctx, sk_type type, cl_mem coeffs,
                                         double x, cl_mem prefixes, size_t ncoef);

/*! sk_poly_eval_host(), sk_poly_eval_points_host(),
 *  sk_poly_horner_prefixes_host() :
 *  Host-array forms (blocking). */
SK_API sk_status sk_poly_eval_host(sk_context *ctx, sk_type type, const void *coeffs,
                                   double x, double *result, size_t ncoef);
SK_API sk_status sk_poly_eval_points_host(sk_context *ctx, sk_type type, const void *coeffs,
                                          const void *points, void *values, size_t ncoef,
                                          size_t npoints);
SK_API sk_status sk_poly_horner_prefixes_host(sk_context *ctx, sk_type type,
                                              const void *coeffs, double x, void *prefixes,
                                              size_t ncoef);

/* ======================================================================== */
/* Experimental: may change in any release                                  */
/* ======================================================================== */

#ifdef SCANKIT_EXPERIMENTAL

/*! Tuning parameters (sk_param values for sk_context_set_param(),
 *  sk_context_get_param() and sk_param_bounds()); 0 is "automatic":
 *  - SK_PARAM_WG_SIZE          GPU shape: work-group size (power of two,
 *                              1 .. the device's largest).
 *  - SK_PARAM_ITEMS_PER_THREAD GPU shape: elements per work-item per tile
 *                              (1..64).
 *  - SK_PARAM_CPU_CHUNKS       CPU shape: chunks per launch (1..65536); the
 *                              single-pass scan otherwise takes chunks of
 *                              64K elements.
 *  - SK_PARAM_CPU_SERIAL_BELOW CPU shape: below this n one work-item does
 *                              all.
 *  - SK_PARAM_CPU_SORT_LINES_FROM  CPU shape radix sort: sorts of at least
 *                              this many bytes (keys and values) scatter
 *                              through per-digit lines written by
 *                              non-temporal stores; 0: automatic (CPU
 *                              devices, from 4 MiB). Set, it applies on any
 *                              device whose compiler has clang's
 *                              __builtin_nontemporal_store (PoCL,
 *                              Oclgrind; elsewhere SK_E_BUILD).
 *  - SK_PARAM_GPU_SORT_SKIP_FROM  GPU shape radix sort (one sweep per
 *                              digit): sorts of at least this many keys
 *                              read the keys' bounds back (a wait for the
 *                              queue) and skip the digits that are the same
 *                              in every key; smaller ones sweep every digit
 *                              of the bit range and never wait for the
 *                              device inside the call. The result is the
 *                              same either way. 1: always skip; 0:
 *                              automatic (2^26 keys, 2^23 keys of 8
 *                              bytes).
 *  - SK_PARAM_DISK_CACHE       the on-disk program cache when
 *                              $SCANKIT_CACHE_DIR is not set (a directory
 *                              it names is always used): 1 on, in the
 *                              default directory; 2 off; 0 automatic: on
 *                              unless the driver keeps its own cache of
 *                              built programs (PoCL, where making the
 *                              binary for an entry compiles every kernel
 *                              of the program: 0.2 s more for a CPU-shape
 *                              scan, 7 s more for a GPU-shape one).
 *  - SK_PARAM_MERGE_RUNS_ROUNDS  the merge of runs (sk_merge_runs_*):
 *                              merges in rounds where they take at most
 *                              this many (1..64), else the radix sort; 0:
 *                              automatic (the radix sort's passes over the
 *                              bit range). The result is the same either
 *                              way.
 *  - SK_PARAM_CPU_SORT_BUCKET_BYTES  CPU shape radix sort with the line
 *                              scatter, over more than two digits' bits:
 *                              the keys go into buckets by their top
 *                              differing digit (one line scatter), and
 *                              each bucket is sorted by the bits below it
 *                              inside the caches, where the largest bucket
 *                              holds at most this many bytes of keys and
 *                              values (and evenly spread keys would take
 *                              at most half of it); otherwise the passes
 *                              go digit by digit from the lowest. 1:
 *                              never; 0: automatic (CPU devices, 1 MiB).
 *                              Never on GPU devices (the CPU shape forced
 *                              there sorts by the passes). The result is
 *                              the same either way. */
#define SK_PARAM_WG_SIZE ((sk_param)2)
#define SK_PARAM_ITEMS_PER_THREAD ((sk_param)3)
#define SK_PARAM_CPU_CHUNKS ((sk_param)4)
#define SK_PARAM_CPU_SERIAL_BELOW ((sk_param)5)
#define SK_PARAM_CPU_SORT_LINES_FROM ((sk_param)8)
#define SK_PARAM_DISK_CACHE ((sk_param)10)
#define SK_PARAM_GPU_SORT_SKIP_FROM ((sk_param)11)
#define SK_PARAM_MERGE_RUNS_ROUNDS ((sk_param)12)
#define SK_PARAM_CPU_SORT_BUCKET_BYTES ((sk_param)13)

/*! sk_build_stats :
 *  Counters of program builds since the context was created. struct_size
 *  as in sk_device_desc (SK_BUILD_STATS_INIT sets it). */
typedef struct sk_build_stats {
    size_t struct_size;            /* set by the caller                       */
    unsigned long compiled;        /* built from source                      */
    unsigned long from_disk;       /* loaded from the on-disk binary cache   */
    unsigned long from_memory;     /* found in the in-memory cache           */
    double seconds;                /* wall time spent compiling or loading   */
} sk_build_stats;

#define SK_BUILD_STATS_INIT {sizeof(sk_build_stats), 0ul, 0ul, 0ul, 0.0}

/*! sk_context_build_stats() :
 *  @return SK_OK or SK_E_INVALID_ARG (NULL, struct_size too small). */
SK_API sk_status sk_context_build_stats(const sk_context *ctx, sk_build_stats *out);

/*! sk_launch_record :
 *  One kernel launch, as reported to a trace callback. struct_size is set
 *  by the library to the size of the struct it fills: a callback compiled
 *  against another version reads only the members below both sizes.
 *  `options` names the library's shared kernel sources it takes by lines
 *  `#include "scankit/NAME.cl"` (kernels/NAME.cl of this version), which
 *  the build replaces by their text. */
typedef struct sk_launch_record {
    size_t struct_size;
    const char *kernel;            /* kernel function name                  */
    const char *program;           /* kernel source family, e.g. "scan"     */
    const char *options;           /* the program's configuration text      */
    size_t global_size;
    size_t local_size;
    const char *scalars;           /* scalar arguments, "name=value ..."    */
} sk_launch_record;

/*! sk_trace_fn :
 *  Called once per kernel launch, on the calling thread, before the launch. */
typedef void (*sk_trace_fn)(const sk_launch_record *rec, void *user);

/*! sk_context_set_trace() :
 *  Installs (fn non-NULL) or removes (fn NULL) a launch callback. With
 *  $SCANKIT_TRACE=1 a context starts with a callback that writes one line
 *  per launch to stderr ($SCANKIT_TRACE=path appends to that file instead).
 *  @return SK_OK or SK_E_INVALID_ARG. */
SK_API sk_status sk_context_set_trace(sk_context *ctx, sk_trace_fn fn, void *user);

#endif /* SCANKIT_EXPERIMENTAL */

#ifdef __cplusplus
}
#endif

#endif /* SCANKIT_H */
