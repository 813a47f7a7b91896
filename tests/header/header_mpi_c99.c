/*
 * header_mpi_c99.c - scankit_mpi.h compiles as strict C99 (-std=c99
 * -pedantic-errors -Werror, tests/CMakeLists.txt) and links: its
 * initialiser compiles warning-free, and freeing an empty result is safe
 * without MPI running. Exit 0.
 */
#include <scankit_mpi.h>

int main(void)
{
    sk_mpi_sort_opts opts = SK_MPI_SORT_OPTS_INIT;
    sk_mpi_sorted empty = {NULL, NULL, 0, 0, 0};
    sk_mpi_sorted_free(&empty);
    sk_mpi_sorted_free(NULL);
    return opts.balanced != 0 || opts.exchange_bytes != 0 || empty.keys != NULL;
}
