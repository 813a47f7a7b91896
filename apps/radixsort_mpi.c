/*
 * radixsort-mpi - sorts a file of keys (optionally with a file of values)
 * over the ranks of an MPI job: scankit_mpi's distributed sort, each rank
 * on its own OpenCL device.
 *
 *   mpirun -np 4 radixsort-mpi keys.bin             to keys.sorted.bin
 *   mpirun -np 4 radixsort-mpi k.npy -o s.npy --descending
 *   mpirun -np 8 radixsort-mpi k.bin --type float64 --values v.bin --balanced
 *
 * Rank 0 opens the inputs as radixsort does (the same checks and messages)
 * and decides the outputs; every rank then reads its share of the inputs
 * (pread at its offset: each rank's share is one contiguous range, so
 * independent reads, no collective buffering), sorts with the others, and
 * writes its range of the sorted order at its offset (pwrite; rank 0
 * writes a .npy header first) into a temporary file beside each output,
 * which rank 0 puts in place once every rank succeeded (with --sync, once
 * every rank's range is on the disk: each rank fsyncs what it wrote, as
 * radixsort --sync does; without, as radixsort leaves it, in the page
 * cache) and removes otherwise, or on a signal
 * that ends it (SIGINT, SIGTERM, ...: appkit's handlers, as every program
 * has; mpirun sends SIGTERM to every rank when it gets SIGINT or SIGTERM). The output is
 * radixsort's, byte for byte. With --memory or --host-memory each rank's
 * local sort and merge run within those budgets (the library's stream
 * sort; runs beyond the host budget in an unnamed file in --temp-dir,
 * default the output's directory). With --time, rank 0 gathers every
 * rank's phase times (its own reads, device and writes; the library's
 * sk_mpi_sort_stats) and prints a line per rank.
 *
 * After each step the ranks agree on its outcome (an MPI_Allreduce): any
 * rank's failure ends the run on every rank, with one line on stderr from
 * rank 0 (the first failing rank's reason), exit status 1 everywhere, and
 * no output left.
 *
 * Exit status: 0 success, 1 bad input or failure, 2 usage error.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "radixsort_mpi_args.h"
#include "scankit_mpi.h"
#include "sort_check.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An input file as rank 0 found it. */
typedef struct in_file {
    ak_dtype type;
    ak_format format;
    uint64_t data_at;   /* the first element's byte offset */
    uint64_t n;
} in_file;

/* An output file: its name and the temporary file beside it. */
typedef struct out_file {
    char path[PATH_MAX];
    char temp[PATH_MAX];
    ak_format format;
    int writeback;      /* each rank sends its range on to the disk as it
                           writes it: with --sync, or where the output
                           replaces a file (as radixsort's ak_output) */
} out_file;

/* What rank 0 decides and every rank then knows (broadcast as bytes). */
typedef struct plan {
    int parts;          /* 1: keys; 2: keys and values */
    in_file in[2];
    out_file out[2];
} plan;

typedef struct job {
    const sort_mpi_args *a;
    MPI_Comm comm;
    int rank, ranks;
    plan p;
    uint64_t from, count;   /* this rank's share of the inputs */
    void *data[2];          /* that share, read */
    sk_context *ctx;
    sk_mpi_sorted sorted;
    ak_output outs[2];            /* rank 0: the outputs' temporary files */
    int temps_made;
    double start;                 /* ak_now() when the run began */
    double read_ms, device_ms, write_ms;
    sk_mpi_sort_stats stats;      /* the library's phases, for --time */
} job;

/* ------------------------------------------------------------------------ */
/* The ranks' agreement                                                      */
/* ------------------------------------------------------------------------ */

/* The lowest rank where `flag` is set, or `ranks` where it is set nowhere. */
static int first_rank_with(const job *j, int flag)
{
    int mine = flag ? j->rank : j->ranks, first = j->ranks;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, j->comm) != MPI_SUCCESS)
        return 0; /* as if rank 0 failed: every rank stops */
    return first;
}

/* 0 where every rank's rc is 0; else -1 on every rank, with the reason of
 * the first failing rank in every rank's *e. */
static int agree(const job *j, int rc, ak_err *e)
{
    int first = first_rank_with(j, rc != 0);
    if (first == j->ranks) return 0;
    MPI_Bcast(e->msg, (int)sizeof e->msg, MPI_CHAR, first, j->comm);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* The plan (rank 0)                                                         */
/* ------------------------------------------------------------------------ */

static uint64_t count_of(const ak_data *d)
{
    return d->format == AK_FORMAT_NPY ? d->npy_n : d->bytes / ak_dtype_size(d->type);
}

/* Opens `path` as radixsort does (the same checks) and notes where its
 * elements are. */
static int probe(const char *path, ak_dtype type, in_file *f, ak_err *e)
{
    if (ak_path_is_stdio(path))
        return ak_fail(e, "radixsort-mpi reads files, not stdin (every rank reads its share)");
    ak_read_opts ro = {type, AK_UINT32, NULL, AK_PROGRESS_AUTO};
    ak_data d;
    int rc = ak_data_open(path, &ro, &d, e);
    if (rc == 0 && d.bytes == AK_SIZE_UNKNOWN)
        rc = ak_fail(e, "%s: not a regular file (every rank reads its share)", d.name);
    off_t at = rc == 0 ? ftello(d.fp) : -1;
    if (rc == 0 && at < 0) rc = ak_data_fail_read(&d, e);
    if (rc == 0)
        *f = (in_file){d.type, d.format, (uint64_t)at - d.prefix_len, count_of(&d)};
    ak_data_close(&d);
    return rc;
}

static int probe_inputs(const sort_args *a, plan *p, ak_err *e)
{
    p->parts = 1 + (a->values != NULL);
    if (probe(a->input, a->type, &p->in[0], e) != 0 ||
        ak_check_sk_type(ak_display_name(a->input, 0), p->in[0].type, "sorted across ranks",
                         e) != 0 ||
        radixsort_check_key_type(a, ak_display_name(a->input, 0), p->in[0].type, e) != 0)
        return -1;
    if (!a->values) return 0;
    const char *name = ak_display_name(a->values, 0);
    if (probe(a->values, a->values_type, &p->in[1], e) != 0 ||
        ak_check_value_type(name, p->in[1].type, e) != 0)
        return -1;
    return ak_check_count(name, (size_t)p->in[1].n, "values", (size_t)p->in[0].n, "keys", e);
}

/* Where an output goes: a regular file, new or replaced (through a
 * symbolic link, the file it names); anything else (a device, a pipe) is
 * refused, since the ranks write it at offsets and rank 0 renames it. */
static int destination(const char *path, out_file *o, ak_err *e)
{
    struct stat st;
    char real[PATH_MAX];
    const char *dest = path;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return ak_fail(e, "%s: not a regular file (radixsort-mpi writes regular files)", path);
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        if (!realpath(path, real))
            return ak_fail(e, "%s: a symbolic link to nothing that can be written", path);
        dest = real;
    }
    if (strlen(dest) >= sizeof o->path) return ak_fail(e, "%s: name too long", dest);
    snprintf(o->path, sizeof o->path, "%s", dest);
    return 0;
}

/* The outputs, named as radixsort names them. */
static int choose_outputs(const sort_args *a, plan *p, ak_err *e)
{
    const char *others[2] = {a->values, a->input};
    ak_output_choice c[2] = {{a->input, a->output, "sorted", 0, 0, others, 1},
                             {a->values, a->values_out, "sorted", 0, 0, others + 1, 1}};
    char *path[2] = {NULL, NULL};
    int rc = 0;
    for (int i = 0; rc == 0 && i < p->parts; i++) {
        rc = ak_output_resolve(&c[i], &path[i], e);
        if (rc == 0 && !path[i])
            rc = ak_fail(e, "radixsort-mpi writes files, not stdout (every rank writes its range)");
        if (rc == 0) rc = destination(path[i], &p->out[i], e);
        if (rc == 0)
            p->out[i].format = ak_output_format(AK_FORMAT_AUTO, path[i], p->in[i].format);
    }
    if (rc == 0 && p->parts == 2 && ak_output_paths_collide(path[0], path[1]))
        rc = ak_fail(e, "both outputs would be written to %s", path[0]);
    free(path[0]);
    free(path[1]);
    return rc;
}

/* Rank 0 plans; every rank gets the plan, or the reason it failed. */
static int make_plan(job *j, ak_err *e)
{
    int rc = 0;
    if (j->rank == 0) {
        rc = probe_inputs(&j->a->sort, &j->p, e);
        if (rc == 0) rc = choose_outputs(&j->a->sort, &j->p, e);
    }
    if (agree(j, rc, e) != 0) return -1;
    MPI_Bcast(&j->p, (int)sizeof j->p, MPI_BYTE, 0, j->comm);
    uint64_t n = j->p.in[0].n, P = (uint64_t)j->ranks, r = (uint64_t)j->rank;
    j->from = (n / P) * r + (n % P) * r / P;
    j->count = (n / P) * (r + 1) + (n % P) * (r + 1) / P - j->from;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Each rank's reads and writes                                              */
/* ------------------------------------------------------------------------ */

/* Each rank reads its own contiguous range of each input and writes its
 * own of each output: plain pread/pwrite at offsets (ak_read_at,
 * ak_write_at), which leave the errno of a failure (a full disk says so)
 * and copy nothing more. Collective MPI-IO (two-phase, through
 * aggregators) only adds copies for ranges that are contiguous and
 * disjoint on a local disk, and rank 0 names and renames the files with
 * POSIX calls anyway, so every rank needs a POSIX path to them already;
 * --mpi-io takes it all the same, for a parallel filesystem whose MPI-IO
 * layer does better with the ranks' requests together. */

static int open_fail(ak_err *e, const char *name)
{
    return ak_fail(e, "%s: cannot open: %s", name, strerror(errno));
}

/* The most bytes of one MPI-IO call: below INT_MAX. */
#define MPI_IO_CHUNK ((uint64_t)1 << 30)

static int fail_mpi(ak_err *e, const char *what, const char *name, int code)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "?");
    return ak_fail(e, "%s: %s failed: %s", name, what, text);
}

/* `bytes` at `at` of the file read into buf, or written from it, by
 * collective calls of at most MPI_IO_CHUNK bytes: as many calls on every
 * rank as the rank with the most bytes needs (the others, and a rank that
 * failed, take part moving nothing). */
static int move_all(const job *j, MPI_File fh, int writing, uint64_t at, char *buf,
                    uint64_t bytes, const char *name, ak_err *e)
{
    uint64_t mine = (bytes + MPI_IO_CHUNK - 1) / MPI_IO_CHUNK, calls = 0, done = 0;
    if (MPI_Allreduce(&mine, &calls, 1, MPI_UINT64_T, MPI_MAX, j->comm) != MPI_SUCCESS)
        return ak_fail(e, "%s: MPI_Allreduce failed", name);
    int rc = 0;
    for (uint64_t k = 0; k < calls; k++) {
        uint64_t step = rc != 0 ? 0 : bytes - done < MPI_IO_CHUNK ? bytes - done : MPI_IO_CHUNK;
        MPI_Status st;
        MPI_Offset off = (MPI_Offset)(at + done);
        char *from = buf ? buf + done : NULL; /* a rank with nothing may have no array */
        int code = writing ? MPI_File_write_at_all(fh, off, from, (int)step, MPI_BYTE, &st)
                           : MPI_File_read_at_all(fh, off, from, (int)step, MPI_BYTE, &st);
        int moved = 0;
        if (rc == 0 && code != MPI_SUCCESS)
            rc = fail_mpi(e, writing ? "write" : "read", name, code);
        else if (rc == 0 && (MPI_Get_count(&st, MPI_BYTE, &moved) != MPI_SUCCESS ||
                             (uint64_t)moved != step))
            rc = ak_fail(e, "%s: %s", name,
                         writing ? "write failed: fewer bytes written than asked (a full disk?)"
                                 : "ends early (it changed, or a read failed)");
        done += step;
    }
    return rc;
}

/* --mpi-io: this rank's range of an input into buf, by collective reads
 * (every rank calls it). */
static int read_range_mpi(job *j, const char *path, uint64_t at, void *buf, uint64_t bytes,
                          ak_err *e)
{
    MPI_File fh;
    const char *name = ak_display_name(path, 0);
    int code = MPI_File_open(j->comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (agree(j, code == MPI_SUCCESS ? 0 : fail_mpi(e, "open", name, code), e) != 0) return -1;
    int rc = move_all(j, fh, 0, at, buf, bytes, name, e);
    MPI_File_close(&fh);
    return agree(j, rc, e);
}

static int read_part(job *j, int part, ak_err *e)
{
    const in_file *f = &j->p.in[part];
    const char *path = part ? j->a->sort.values : j->a->sort.input;
    const char *name = ak_display_name(path, 0);
    size_t size = ak_dtype_size(f->type);
    j->data[part] = malloc(j->count ? j->count * size : 1);
    uint64_t at = f->data_at + j->from * size, bytes = j->count * size;
    int rc = j->data[part] ? 0 : ak_fail(e, "out of memory for %llu keys",
                                         (unsigned long long)j->count);
    if (j->a->mpi_io) /* collective: every rank goes on together, or none */
        return agree(j, rc, e) != 0 ? -1 : read_range_mpi(j, path, at, j->data[part], bytes, e);
    if (rc != 0) return agree(j, rc, e);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    rc = fd >= 0 ? 0 : open_fail(e, name);
    if (rc == 0) rc = ak_read_at(fd, j->data[part], bytes, at, name, e);
    if (fd >= 0) close(fd);
    return agree(j, rc, e);
}

/* Rank 0: an empty temporary file beside each output, named (every rank
 * opens it by that name) and removed by a fatal signal, as every
 * program's temporary files are (ak_output_open_named). */
static int make_temps(job *j, ak_err *e)
{
    for (int i = 0; i < j->p.parts; i++) {
        out_file *o = &j->p.out[i];
        if (ak_output_open_named(&j->outs[i], o->path, RADIXSORT_MPI_TOOL, e) != 0) return -1;
        j->temps_made = i + 1;
        const char *temp = j->outs[i].tmp_path;
        if (!temp) /* replaced by a device or pipe since the plan */
            return ak_fail(e, "%s: not a regular file (radixsort-mpi writes regular files)",
                           o->path);
        if (strlen(temp) >= sizeof o->temp) return ak_fail(e, "%s: name too long", temp);
        snprintf(o->temp, sizeof o->temp, "%s", temp);
        j->outs[i].sync = j->a->sort.sync;
        o->writeback = j->outs[i].sync || j->outs[i].replaces;
    }
    return 0;
}

static void remove_temps(job *j)
{
    for (int i = 0; j->rank == 0 && i < j->temps_made; i++) ak_output_abort(&j->outs[i]);
    j->temps_made = 0;
}

/* Output `part`'s .npy header in header[256] (nothing for raw): its
 * length, the same on every rank. */
static size_t header_of(const job *j, int part, char *header)
{
    if (j->p.out[part].format != AK_FORMAT_NPY) return 0;
    return ak_npy_header(header, 256, j->p.in[part].type, (size_t)j->p.in[0].n);
}

/* Rank 0's .npy header (nothing for raw); its length on every rank. */
static int write_header(job *j, int fd, int part, uint64_t *len, ak_err *e)
{
    char header[256];
    size_t n = header_of(j, part, header);
    *len = n;
    if (j->rank != 0 || n == 0) return 0;
    return ak_write_at(fd, header, n, 0, 0, j->p.out[part].path, e);
}

/* --mpi-io: rank 0's .npy header (a write of its own), then every rank's
 * range by collective writes (with --sync, MPI_File_sync: on the disk
 * before the ranks agree). */
static int write_part_mpi(job *j, int part, ak_err *e)
{
    const out_file *o = &j->p.out[part];
    size_t size = ak_dtype_size(j->p.in[part].type);
    char *data = part ? j->sorted.values : j->sorted.keys;
    MPI_File fh;
    int code = MPI_File_open(j->comm, o->temp, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (agree(j, code == MPI_SUCCESS ? 0 : fail_mpi(e, "open", o->temp, code), e) != 0)
        return -1;
    char header[256];
    size_t len = header_of(j, part, header);
    MPI_Status st;
    code = j->rank == 0 && len ? MPI_File_write_at(fh, 0, header, (int)len, MPI_BYTE, &st)
                               : MPI_SUCCESS;
    int rc = code == MPI_SUCCESS ? 0 : fail_mpi(e, "write", o->path, code);
    int moved = move_all(j, fh, 1, len + j->sorted.offset * size, data, j->sorted.n * size,
                         o->path, rc == 0 ? e : &(ak_err){{0}});
    if (rc == 0) rc = moved;
    code = j->a->sort.sync ? MPI_File_sync(fh) : MPI_SUCCESS;
    if (rc == 0 && code != MPI_SUCCESS) rc = fail_mpi(e, "sync", o->path, code);
    code = MPI_File_close(&fh);
    if (rc == 0 && code != MPI_SUCCESS) rc = fail_mpi(e, "close", o->path, code);
    return agree(j, rc, e);
}

/* This rank's range of output `part` at its offset of the temporary file
 * (with --sync, on the disk before the ranks agree). */
static int write_part(job *j, int part, ak_err *e)
{
    if (j->a->mpi_io) return write_part_mpi(j, part, e);
    const out_file *o = &j->p.out[part];
    size_t size = ak_dtype_size(j->p.in[part].type);
    const void *data = part ? j->sorted.values : j->sorted.keys;
    int fd = open(o->temp, O_WRONLY | O_CLOEXEC);
    int rc = fd >= 0 ? 0 : open_fail(e, o->temp);
    uint64_t header = 0;
    if (rc == 0) rc = write_header(j, fd, part, &header, e);
    if (rc == 0)
        rc = ak_write_at(fd, data, j->sorted.n * size, header + j->sorted.offset * size,
                         o->writeback, o->path, e);
    if (rc == 0 && j->a->sort.sync && fsync(fd) != 0)
        rc = ak_fail(e, "%s: write failed: %s", o->path, strerror(errno));
    if (fd >= 0 && close(fd) != 0 && rc == 0)
        rc = ak_fail(e, "%s: write failed: %s", o->path, strerror(errno));
    return agree(j, rc, e);
}

/* Rank 0 puts every output in place (a signal meanwhile waits until the
 * one being renamed is there); every rank learns how that went. */
static int commit(job *j, ak_err *e)
{
    int rc = 0;
    for (int i = 0; j->rank == 0 && rc == 0 && i < j->p.parts; i++)
        rc = ak_output_commit(&j->outs[i], e);
    return agree(j, rc, e);
}

static int write_outputs(job *j, ak_err *e)
{
    int rc = j->rank == 0 ? make_temps(j, e) : 0;
    if (agree(j, rc, e) != 0) return -1;
    MPI_Bcast(j->p.out, (int)sizeof j->p.out, MPI_BYTE, 0, j->comm);
    for (int i = 0; i < j->p.parts; i++)
        if (write_part(j, i, e) != 0) return -1;
    return commit(j, e);
}

/* ------------------------------------------------------------------------ */
/* The sort                                                                  */
/* ------------------------------------------------------------------------ */

static int open_device(job *j, ak_err *e)
{
    char why[1024];
    const char *device = j->a->sort.device, *env = getenv("SCANKIT_DEVICE");
    sk_status st = sk_mpi_context_create(&j->ctx, j->comm, device, why, sizeof why);
    int rc = 0;
    if (st != SK_OK && device)
        rc = ak_fail(e, "--device '%s': %s", device, why);
    else if (st != SK_OK && env)
        rc = ak_fail(e, "SCANKIT_DEVICE='%s': %s", env, why);
    else if (st != SK_OK)
        rc = ak_fail(e, "cannot open an OpenCL device: %s", why[0] ? why : sk_status_str(st));
    int first = first_rank_with(j, rc != 0 && strcmp(why, "another rank failed to open its "
                                                          "device") != 0);
    if (first == j->ranks) return agree(j, rc, e);
    MPI_Bcast(e->msg, (int)sizeof e->msg, MPI_CHAR, first, j->comm);
    return -1;
}

/* Where each rank's runs beyond --host-memory go: --temp-dir, else the
 * directory of the (first) output, as radixsort puts them. */
static const char *temp_dir_of(const job *j, char *buf, size_t cap)
{
    if (j->a->sort.temp_dir) return j->a->sort.temp_dir;
    snprintf(buf, cap, "%s", j->p.out[0].path);
    return dirname(buf);
}

/* A failed sort's message on this rank: radixsort's for budgets too
 * small, else the status and the device's detail. */
static void sort_failed(job *j, sk_status st, ak_err *e)
{
    const sort_args *a = &j->a->sort;
    if (st == SK_E_SIZE && (a->memory || a->host_memory))
        radixsort_fail_budget(a, ak_display_name(a->input, 0), sk_context_error_detail(j->ctx), e);
    else
        ak_fail_sk(e, j->ctx, st, "sort");
}

static int sort(job *j, ak_err *e)
{
    const sort_args *a = &j->a->sort;
    sort_call c = sort_call_of(j->p.in[0].type, a->descending);
    sort_key_bits b = a->has_bits ? (sort_key_bits){a->begin_bit, a->end_bit}
                                  : sort_whole_key(j->p.in[0].type);
    char dir[PATH_MAX];
    sk_mpi_sort_opts o = SK_MPI_SORT_OPTS_INIT;
    o.balanced = j->a->balanced;
    o.stats = &j->stats;
    o.device_bytes = a->memory;
    o.host_bytes = a->host_memory;
    o.temp_dir = temp_dir_of(j, dir, sizeof dir);
    sk_status st =
        j->p.parts == 2
            ? sk_mpi_sort_pairs_bits(j->ctx, j->comm, c.type, ak_dtype_size(j->p.in[1].type),
                                     j->data[0], j->data[1], &j->sorted, (size_t)j->count,
                                     c.order, b.begin, b.end, &o)
            : sk_mpi_sort_keys_bits(j->ctx, j->comm, c.type, j->data[0], &j->sorted,
                                    (size_t)j->count, c.order, b.begin, b.end, &o);
    if (st == SK_OK) return 0;
    /* every rank failed alike: the reason of the first whose device said why */
    const char *detail = sk_context_error_detail(j->ctx);
    int first = first_rank_with(j, detail && detail[0]);
    sort_failed(j, st, e);
    MPI_Bcast(e->msg, (int)sizeof e->msg, MPI_CHAR, first == j->ranks ? 0 : first, j->comm);
    return -1;
}

static int run(job *j, ak_err *e)
{
    if (make_plan(j, e) != 0) return -1;
    double t0 = ak_now();
    if (open_device(j, e) != 0) return -1;
    j->device_ms = ak_ms_since(t0);
    t0 = ak_now();
    for (int i = 0; i < j->p.parts; i++)
        if (read_part(j, i, e) != 0) return -1;
    j->read_ms = ak_ms_since(t0);
    if (sort(j, e) != 0) return -1;
    t0 = ak_now();
    int rc = write_outputs(j, e);
    j->write_ms = ak_ms_since(t0);
    remove_temps(j);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* --time                                                                    */
/* ------------------------------------------------------------------------ */

/* The columns of --time: milliseconds, then bytes and runs, then the
 * processors the rank may run on (1 where the launcher bound it to one
 * core: its reading and copying threads then share that core). */
enum { TIME_MS = 9, TIME_COLUMNS = TIME_MS + 6 };

static const char *const TIME_HEADS[TIME_COLUMNS] = {
    "read_ms",  "device_ms", "sort_ms",        "split_ms",  "exchange_ms",
    "merge_ms", "wait_ms",   "write_ms",       "total_ms",  "sent_bytes",
    "received_bytes", "sort_runs", "merge_runs", "spilled_runs", "cpus"};

static void time_row(const job *j, double *row)
{
    const sk_mpi_sort_stats *s = &j->stats;
    double lib[] = {s->sort_seconds, s->split_seconds, s->exchange_seconds, s->merge_seconds,
                    s->wait_seconds};
    row[0] = j->read_ms;
    row[1] = j->device_ms;
    for (int i = 0; i < 5; i++) row[2 + i] = 1e3 * lib[i];
    row[7] = j->write_ms;
    row[8] = ak_ms_since(j->start);
    row[9] = (double)s->sent_bytes;
    row[10] = (double)s->received_bytes;
    row[11] = (double)s->sort_runs;
    row[12] = (double)s->merge_runs;
    row[13] = (double)s->spilled_runs;
    row[14] = (double)ak_cores();
}

static void print_time_row(int rank, const double *row)
{
    fprintf(stderr, "%4d", rank);
    for (int c = 0; c < TIME_COLUMNS; c++)
        fprintf(stderr, c < TIME_MS ? " %*.3f" : " %*.0f", (int)strlen(TIME_HEADS[c]), row[c]);
    fputc('\n', stderr);
}

/* Every rank's row, gathered; rank 0 prints them under one header. */
static int print_times(const job *j)
{
    double mine[TIME_COLUMNS], *all = NULL;
    time_row(j, mine);
    if (j->rank == 0) all = malloc((size_t)j->ranks * sizeof mine);
    int ok = j->rank != 0 || all;
    if (first_rank_with(j, !ok) != j->ranks) {
        free(all);
        return -1;
    }
    int rc = MPI_Gather(mine, TIME_COLUMNS, MPI_DOUBLE, all, TIME_COLUMNS, MPI_DOUBLE, 0,
                        j->comm);
    if (rc == MPI_SUCCESS && j->rank == 0) {
        fprintf(stderr, "rank");
        for (int c = 0; c < TIME_COLUMNS; c++) fprintf(stderr, " %s", TIME_HEADS[c]);
        fputc('\n', stderr);
        for (int r = 0; r < j->ranks; r++) print_time_row(r, all + (size_t)r * TIME_COLUMNS);
    }
    free(all);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

/* Every rank reads the same command line; rank 0 alone tells what is wrong
 * with it (the others' stderr is closed meanwhile). */
static int parse_args(int rank, int argc, char **argv, sort_mpi_args *a)
{
    int saved = -1;
    fflush(stderr);
    if (rank != 0) {
        FILE *null = fopen("/dev/null", "w");
        saved = null ? dup(STDERR_FILENO) : -1;
        if (saved >= 0) dup2(fileno(null), STDERR_FILENO);
        if (null) fclose(null);
    }
    int rc = radixsort_mpi_parse_args(argc, argv, a);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    return rc;
}

/* --help, --version, --list-devices: rank 0 answers. */
static int answer_question(int rank, const sort_args *a)
{
    if (rank != 0) return AK_EXIT_OK;
    if (a->help) return ak_print_cli_help(&radixsort_mpi_cli);
    if (a->version) return ak_print_version(RADIXSORT_MPI_TOOL);
    return ak_list_devices(RADIXSORT_MPI_TOOL);
}

static int main_run(int rank, int ranks, const sort_mpi_args *a)
{
    job j = {0};
    j.a = a, j.comm = MPI_COMM_WORLD, j.rank = rank, j.ranks = ranks;
    j.start = ak_now();
    j.stats = (sk_mpi_sort_stats)SK_MPI_SORT_STATS_INIT;
    ak_err e = {{0}};
    int rc = run(&j, &e);
    if (rc == 0 && a->sort.time && print_times(&j) != 0)
        rc = ak_fail(&e, "--time: out of memory or MPI_Gather failed");
    remove_temps(&j);
    sk_mpi_sorted_free(&j.sorted);
    free(j.data[0]);
    free(j.data[1]);
    sk_context_free(j.ctx);
    if (rc == 0) return AK_EXIT_OK;
    if (rank == 0) ak_print_error(RADIXSORT_MPI_TOOL, e.msg);
    return AK_EXIT_FAIL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ak_output_signals_install(); /* before the OpenCL runtime's own */
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    sort_mpi_args a;
    int rc = ak_host_is_little_endian() ? parse_args(rank, argc, argv, &a)
                                        : ak_require_little_endian(RADIXSORT_MPI_TOOL);
    if (rc == AK_EXIT_OK && (a.sort.help || a.sort.version || a.sort.list_devices))
        rc = answer_question(rank, &a.sort);
    else if (rc == AK_EXIT_OK)
        rc = main_run(rank, ranks, &a);
    MPI_Finalize();
    return rc;
}
