/*
 * context.c - each rank's device (the node's devices taken in turn by the
 * ranks on that node), and what every step of the sort shares: the ranks'
 * agreement on a status, allocation, MPI's errors as statuses.
 */
#define _POSIX_C_SOURCE 200809L

#include "mpi_internal.h"

#include <stdio.h>
#include <stdlib.h>

void *mpi__alloc(size_t bytes)
{
    return malloc(bytes ? bytes : 1);
}

sk_status mpi__status(int mpi_rc)
{
    return mpi_rc == MPI_SUCCESS ? SK_OK : SK_E_COMM;
}

sk_status mpi__agree(MPI_Comm comm, sk_status st)
{
    int mine = (int)st, lowest = 0;
    if (MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return SK_E_COMM;
    return (sk_status)lowest;
}

/* ------------------------------------------------------------------------ */
/* Each rank's device                                                        */
/* ------------------------------------------------------------------------ */

/* This rank's place among the ranks of its node. */
static sk_status node_local_rank(MPI_Comm comm, int *local)
{
    int rank = 0;
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) !=
            MPI_SUCCESS)
        return SK_E_COMM;
    int rc = MPI_Comm_rank(node, local);
    MPI_Comm_free(&node);
    return mpi__status(rc);
}

/* The spec ("P:D") of the node's GPUs (else devices) number `local` modulo
 * their count. */
static sk_status spec_for_local_rank(int local, char *spec, size_t cap)
{
    size_t count = 0;
    sk_device_desc probe = SK_DEVICE_DESC_INIT;
    sk_status st = sk_device_list(&probe, 0, &count);
    if (st != SK_OK) return st;
    if (count == 0) return SK_E_NO_DEVICE;
    sk_device_desc *d = mpi__alloc(count * sizeof *d);
    if (!d) return SK_E_OUT_OF_MEMORY;
    d[0] = probe;
    st = sk_device_list(d, count, &count);
    size_t gpus = 0, pick = 0;
    for (size_t i = 0; st == SK_OK && i < count; i++) gpus += d[i].is_gpu != 0;
    size_t want = (size_t)local % (gpus ? gpus : count);
    for (size_t i = 0, seen = 0; st == SK_OK && i < count; i++) {
        if (gpus && !d[i].is_gpu) continue;
        if (seen++ == want) pick = i;
    }
    if (st == SK_OK) snprintf(spec, cap, "%u:%u", d[pick].platform_index, d[pick].device_index);
    free(d);
    return st;
}

static sk_status open_on_this_rank(sk_context **ctx, MPI_Comm comm, const char *device_spec,
                                   char *why, size_t why_size)
{
    int local = 0;
    sk_status st = node_local_rank(comm, &local);
    if (st != SK_OK || device_spec || getenv("SCANKIT_DEVICE"))
        return st != SK_OK ? st : sk_context_create(ctx, device_spec, why, why_size);
    char spec[64];
    st = spec_for_local_rank(local, spec, sizeof spec);
    if (st != SK_OK) {
        if (why && why_size) snprintf(why, why_size, "no OpenCL device: %s", sk_status_str(st));
        return st;
    }
    return sk_context_create(ctx, spec, why, why_size);
}

sk_status sk_mpi_context_create(sk_context **ctx, MPI_Comm comm, const char *device_spec,
                                char *why, size_t why_size)
{
    if (why && why_size) why[0] = '\0';
    if (ctx) *ctx = NULL;
    sk_status st = ctx ? open_on_this_rank(ctx, comm, device_spec, why, why_size)
                       : SK_E_INVALID_ARG;
    sk_status all = mpi__agree(comm, st);
    if (all == SK_OK) return SK_OK;
    if (st == SK_OK && why && why_size)
        snprintf(why, why_size, "another rank failed to open its device");
    if (ctx) {
        sk_context_free(*ctx);
        *ctx = NULL;
    }
    return all;
}
