/*
 * appkit_run.h - the run every scankit program shares, from main() to the
 * exit status. A program gives its command line (an ak_cli: the option
 * table of <program>_args.c) and its own steps (an ak_program); ak_main()
 * does the rest:
 *
 *   parse       ak_parse_command_line(): usage errors exit 2
 *   ask         --help (from the option table), --version, --list-devices
 *               exit there; a big-endian host is refused
 *   plan        the program names its outputs (ak_run_add_output); each is
 *               resolved: -o, else named after its input, never an input
 *               file unless --in-place; two outputs never one file or both
 *               stdout
 *   read        the program reads its inputs ("read:" of --time), on a
 *               thread of its own while this one opens the OpenCL
 *               context, for a program with --device ("context:"); the
 *               read's failure is reported before the context's
 *   open        every output is opened (a temporary file beside it)
 *   compute     the program's work: device buffers (ak_run_buffer), the
 *               primitive (ak_run_primitive), copies back (ak_run_download)
 *   release     the device buffers, before anything is written
 *   write       the outputs' elements (or the program's own writing), then
 *               all flushed and all put into place
 *   report      the program's line on stderr, then the --time breakdown
 *
 * The first failure is one line "tool: reason" on stderr and exit 1;
 * nothing is left behind (temporary files go, buffers and the context are
 * released).
 */
#ifndef SK_APPKIT_RUN_H
#define SK_APPKIT_RUN_H

#include "appkit.h"

#define AK_RUN_MAX_OUTPUTS 2
#define AK_RUN_MAX_INPUTS 4
#define AK_RUN_MAX_BUFFERS 8
#define AK_RUN_MAX_ARRAYS 8

/*! ak_times : milliseconds of each phase, for --time. */
typedef struct ak_times {
    double start; /* ak_now() when main began */
    double read, context, upload, compute, download, check, write;
    sk_build_stats build; /* kernel builds during the computation */
} ak_times;

/*! ak_run_output : one output of a run. */
typedef struct ak_run_output {
    ak_output_choice choice;
    const char *others[AK_RUN_MAX_INPUTS]; /* the input files it must not replace */
    const ak_array *array; /* what the default write phase writes        */
    size_t count;          /* how many of its elements (all unless set)  */
    int count_set;
    ak_format format;      /* the requested layout, or AK_FORMAT_AUTO     */
    char *path;            /* NULL: stdout                                */
    ak_output out;
} ak_run_output;

struct ak_program;

/*! ak_run : what the driver keeps of one run; `job` is the program's own
 *  state (ak_program.job_size bytes, zeroed). */
typedef struct ak_run {
    const struct ak_program *program;
    const void *args;    /* the program's parsed arguments              */
    void *job;
    const char *input;   /* the operand, NULL for a program without one */
    sk_context *ctx;     /* open from the compute step on               */
    ak_times times;
    ak_progress_mode progress; /* ON with --progress                  */
    sk_status status;    /* of the last ak_run_primitive()              */
    ak_run_output outputs[AK_RUN_MAX_OUTPUTS];
    size_t n_outputs;
    cl_mem buffers[AK_RUN_MAX_BUFFERS];
    size_t n_buffers;
    ak_array *arrays[AK_RUN_MAX_ARRAYS]; /* freed at the end of the run */
    size_t n_arrays;
} ak_run;

/*! ak_time_notes : what a program adds in parentheses to lines of --time
 *  (empty: nothing). */
typedef struct ak_time_notes {
    char read[160], compute[160], write[160];
} ak_time_notes;

/*! ak_program : a program's own steps. Those with an ak_err return 0, or
 *  -1 with the reason in *e. `plan` and `read` are required. */
typedef struct ak_program {
    const ak_cli *cli;
    size_t job_size;                          /* its state, run->job         */
    void (*plan)(ak_run *run);                /* ak_run_add_output() each    */
    int (*read)(ak_run *run, ak_err *e);      /* reads and checks the inputs */
    int (*compute)(ak_run *run, ak_err *e);   /* may be NULL                 */
    int (*write)(ak_run *run, ak_err *e);     /* NULL: ak_run_write_arrays() */
    void (*report)(const ak_run *run);        /* after success; may be NULL  */
    void (*notes)(const ak_run *run, ak_time_notes *n); /* may be NULL       */
    void (*release)(ak_run *run);             /* at the end of every run,
                                                 failed or not; may be NULL */
} ak_program;

/*! ak_main() : the whole program: parses argv (into arguments of
 *  cli->args_size bytes), answers --help, --version and --list-devices, or
 *  runs the phases above. @return the exit status. */
int ak_main(const ak_program *program, int argc, char **argv);

/*! ak_run_add_output() : the program's output: -o (--output) if given,
 *  else the operand with ".<tag>" before its extension (stdout for stdin or
 *  no operand); --in-place, where the table has it, lets it replace the
 *  operand. It holds the elements of `array` (may be NULL when the
 *  program's write step writes it) in `format` (AK_FORMAT_AUTO: npy for a
 *  .npy path, else the array's layout). */
void ak_run_add_output(ak_run *run, const char *tag, const ak_array *array, ak_format format);

/*! ak_run_add_output_as() : one more output (at most AK_RUN_MAX_OUTPUTS in
 *  all), placed as `choice` says; its other_inputs are filled in: every
 *  input file of the command line but choice->input. */
void ak_run_add_output_as(ak_run *run, const ak_output_choice *choice, const ak_array *array,
                          ak_format format);

/*! ak_run_set_count() : the output `index` holds the first `count`
 *  elements of its array. */
void ak_run_set_count(ak_run *run, size_t index, size_t count);

/*! ak_run_input_name() : the operand as messages name it ("stdin" for "-"). */
const char *ak_run_input_name(const ak_run *run);

/*! ak_run_read() : reads the element file `path` (type: the --type asked
 *  for or AK_DTYPE_NONE; raw files default to `raw_type`) into *out, which
 *  the driver frees at the end of the run. @return 0 or -1. */
int ak_run_read(ak_run *run, const char *path, ak_dtype type, ak_dtype raw_type, ak_array *out,
                ak_err *e);

/*! ak_run_read_flags() : reads the flag file `path` (raw: uint8; .npy:
 *  uint8, uint32 or int32), one flag per element of the `count` elements,
 *  as ak_run_read() does. @return 0, or -1 ("<name>: flags must be uint8 or
 *  uint32 (or int32), not T", "<name>: N flags for M elements"). */
int ak_run_read_flags(ak_run *run, const char *path, size_t count, ak_array *out, ak_err *e);

/*! ak_run_read_offsets() : reads the segment offsets file `path` (raw:
 *  raw_type, uint32 when AK_DTYPE_NONE; .npy: uint32 or uint64) and checks
 *  them as segments of n elements: offsets[0] == 0, non-decreasing, none
 *  above n, at least one when n > 0. @return 0, or -1 naming the first bad
 *  offset. */
int ak_run_read_offsets(ak_run *run, const char *path, ak_dtype raw_type, size_t n,
                        ak_array *out, ak_err *e);

/*! ak_offset_at() : offsets[k] of uint32 or uint64 offsets. */
uint64_t ak_offset_at(const ak_array *offsets, size_t k);

/*! ak_run_read_values() : reads the values file `path` (type: --values-type
 *  or AK_DTYPE_NONE; raw: uint32 by default), one value of 4 or 8 bytes
 *  per each of the `count` <of> ("elements", "keys"), as ak_run_read()
 *  does. @return 0, or -1 ("<name>: values must be of 4 or 8 bytes, not T",
 *  "<name>: N values for M <of>"). */
int ak_run_read_values(ak_run *run, const char *path, ak_dtype type, size_t count,
                       const char *of, ak_array *out, ak_err *e);

/*! ak_run_keep() : *array (filled by the program) is freed at the end of
 *  the run. @return 0, or -1 when the run holds too many. */
int ak_run_keep(ak_run *run, ak_array *array, ak_err *e);

/*! ak_run_buffer() : a device buffer of `bytes` (at least 1) filled from
 *  `host` when given (the copy counts as upload time); refused, naming the
 *  input, when it exceeds the device's largest buffer. The driver releases
 *  it after the compute step. @return 0 or -1. */
int ak_run_buffer(ak_run *run, size_t bytes, const void *host, cl_mem *out, ak_err *e);

/*! ak_run_upload() : copies `bytes` from host to buf at offset (upload
 *  time). @return 0 or -1. */
int ak_run_upload(ak_run *run, cl_mem buf, size_t offset, const void *host, size_t bytes,
                  ak_err *e);

/*! ak_run_download() : copies `bytes` from buf at offset to host (download
 *  time); nothing for 0 bytes. @return 0 or -1 ("copying the result from the
 *  device failed: ..."). */
int ak_run_download(ak_run *run, cl_mem buf, size_t offset, void *host, size_t bytes,
                    ak_err *e);

/*! ak_primitive_fn : enqueues a program's primitive on run->ctx. */
typedef sk_status (*ak_primitive_fn)(ak_run *run);

/*! ak_run_primitive() : runs fn and waits for the device; its time, less
 *  the kernel builds it caused, is added to the compute time and the builds
 *  to the build statistics. Sets run->status. @return 0, or -1 with
 *  "<input>: <status>: <detail>". */
int ak_run_primitive(ak_run *run, ak_primitive_fn fn, ak_err *e);

/*! ak_call_fn : enqueues device work on run->ctx, with the caller's state. */
typedef sk_status (*ak_call_fn)(ak_run *run, void *user);

/*! ak_run_call() : ak_run_primitive() for fn(run, user). @return 0 or -1. */
int ak_run_call(ak_run *run, ak_call_fn fn, void *user, ak_err *e);

/*! ak_run_note_rate() : the compute note of --time: "<count per second>
 *  <what>/s" ("1.2e+09 keys/s"); nothing before the computation took any
 *  time. */
void ak_run_note_rate(const ak_run *run, ak_time_notes *n, size_t count, const char *what);

/*! ak_run_write_arrays() : the default write step: the header and elements
 *  of every output's array, with progress. Puts nothing into place.
 *  @return 0 or -1. */
int ak_run_write_arrays(ak_run *run, ak_err *e);

#endif /* SK_APPKIT_RUN_H */
