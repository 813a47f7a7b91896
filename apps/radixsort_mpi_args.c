/*
 * radixsort_mpi_args.c - the command line of radixsort-mpi: radixsort's
 * rows and checks where they apply (see radixsort_mpi_args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "radixsort_mpi_args.h"

#include <stddef.h>

static const ak_opt OPTIONS[] = {
    AK_OPT_HELP_TEXT("Sorts a file of keys over the ranks of an MPI job, each on its own\n"
                     "OpenCL device (stable LSD radix sort, then one exchange). Run it\n"
                     "under mpirun: mpirun -np P radixsort-mpi INPUT [-o OUTPUT].\n"
                     "The output is the same, byte for byte, as radixsort's.\n\n"),
    AK_OPTS_OPERAND(sort_args, "INPUT",
                    "raw little-endian keys, or a NumPy .npy file (1-D,\n"
                    "little-endian), that every rank can read"),
    AK_OPTS_OUTPUT(sort_args,
                   "where to write the sorted keys (a file every rank can\n"
                   "write). Default: INPUT with '.sorted' before its\n"
                   "extension (keys.bin -> keys.sorted.bin; .npy stays .npy).\n"
                   "Written to a temporary file beside it and renamed once\n"
                   "every rank succeeded, so a failure leaves no output."),
    RADIXSORT_OPTS_KEYS_VALUES,
    {"balanced", 0, AK_OPT_FLAG, offsetof(sort_mpi_args, balanced), NULL,
     "split exactly: every rank ends with n/P keys (or one\n"
     "more) before writing; the output is the same", NULL, 0},
    {"mpi-io", 0, AK_OPT_FLAG, offsetof(sort_mpi_args, mpi_io), NULL,
     "read and write through collective MPI-IO\n"
     "(MPI_File_read_at_all, MPI_File_write_at_all) instead of\n"
     "pread/pwrite: for a parallel filesystem whose MPI-IO layer\n"
     "aggregates the ranks' requests; the output is the same", NULL, 0},
    RADIXSORT_OPTS_MEMORY,
    AK_OPTS_SYNC(sort_args),
    AK_OPTS_DEVICE(sort_args),
    {"time", 0, AK_OPT_FLAG, offsetof(sort_args, time), NULL,
     "print, from rank 0, a line per rank: the milliseconds of\n"
     "its read, device, local sort, split, exchange, merge,\n"
     "wait, write and total, the bytes it sent to and received\n"
     "from the other ranks, and the runs of its local sort and\n"
     "merge and how many spilled", NULL, 0},
    AK_OPTS_HELP_VERSION(sort_args),
    AK_OPT_HELP_TEXT(
        "\nEach rank reads its share of INPUT and writes its range of the output\n"
        "(pread/pwrite at its offset, or collective MPI-IO with --mpi-io; with\n"
        "--sync each rank's range is on the disk before the output is put in\n"
        "place). Without --device or\n"
        "SCANKIT_DEVICE the ranks of a node take its GPUs (else its devices) in\n"
        "turn. --memory, --host-memory and --temp-dir apply to each rank: its local\n"
        "sort and its merge of the runs it received.\n"
        "Floats sort in IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.\n"
        "Exit status: 0 success, 1 bad input or failure on any rank (one line from\n"
        "rank 0), 2 usage error.\n"),
    AK_OPT_TABLE_END,
};

AK_DEFINE_CLI(radixsort_mpi, RADIXSORT_MPI_TOOL,
              "mpirun -np P radixsort-mpi INPUT [-o OUTPUT]\n"
              "                 [--type " AK_SK_TYPE_NAMES "]\n"
              "                 [--descending] [--bits B:E] [--values FILE [--values-type TYPE]\n"
              "                 [--values-out FILE]] [--balanced] [--mpi-io] [--memory SIZE]\n"
              "                 [--host-memory SIZE] [--temp-dir DIR] [--sync] [--device SPEC]\n"
              "                 [--time] [--list-devices] [--help] [--version]",
              OPTIONS, sort_mpi_args, NULL, radixsort_check_args, NULL)
