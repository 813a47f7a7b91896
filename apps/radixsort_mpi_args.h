/*
 * radixsort_mpi_args.h - the command line of radixsort-mpi: radixsort's
 * options that apply to a sort over MPI ranks, --balanced and --mpi-io. Kept apart
 * from the program (radixsort_mpi.c) as radixsort's is.
 */
#ifndef SK_RADIXSORT_MPI_ARGS_H
#define SK_RADIXSORT_MPI_ARGS_H

#include "radixsort_args.h"

#define RADIXSORT_MPI_TOOL "radixsort-mpi"

/* radixsort's arguments first (its option rows and checks work on them),
 * then those of this program only. */
typedef struct sort_mpi_args {
    sort_args sort;
    int balanced;
    int mpi_io;   /* --mpi-io: collective MPI-IO reads and writes */
} sort_mpi_args;

/*! radixsort_mpi_cli : the command line of radixsort-mpi. */
extern const ak_cli radixsort_mpi_cli;

/*! radixsort_mpi_parse_args() : as radixsort_parse_args().
 *  @return AK_EXIT_OK or AK_EXIT_USAGE. */
int radixsort_mpi_parse_args(int argc, char **argv, sort_mpi_args *a);

#endif /* SK_RADIXSORT_MPI_ARGS_H */
