/*
 * context.c - each rank's device (the node's devices taken in turn by the
 * ranks on that node), and what every step of the sort shares: the ranks'
 * agreement on a status, allocation, large copies on threads, MPI's errors
 * as statuses.
 */
#define _POSIX_C_SOURCE 200809L

#include "mpi_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *mpi__alloc(size_t bytes)
{
    return malloc(bytes ? bytes : 1);
}

/* A copy of this many bytes or more goes in parts on up to COPY_THREADS
 * threads (SCANKIT_COPY_PARTS_FROM=N, a switch for the tests, from N bytes
 * on): the arrays the sort copies into are fresh, and their first touch's
 * page faults held one thread to 1.5 GB/s on the H100 machine (16 GiB:
 * local sort 13.6-14.9 s with its copy on one thread, 3.0-3.1 s on eight;
 * bench/results/nvidia-h100-mpi-copy-2811). */
#define COPY_PARTS_FROM ((size_t)64 << 20)
#define COPY_THREADS 8

typedef struct copy_part {
    unsigned char *dst;
    const unsigned char *src; /* NULL: zeros */
    size_t bytes;
} copy_part;

static void *copy_run(void *arg)
{
    const copy_part *c = arg;
    if (c->src) memcpy(c->dst, c->src, c->bytes);
    else memset(c->dst, 0, c->bytes);
    return NULL;
}

static size_t copy_parts(size_t bytes)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("SCANKIT_COPY_PARTS_FROM");
    size_t from = env && *env ? (size_t)strtoull(env, NULL, 10) : COPY_PARTS_FROM;
    size_t parts = from ? bytes / from : 1;
    if (parts > COPY_THREADS) parts = COPY_THREADS;
    if (cores > 0 && parts > (size_t)cores) parts = (size_t)cores;
    return parts ? parts : 1;
}

void mpi__copy(void *dst, const void *src, size_t bytes)
{
    size_t parts = copy_parts(bytes);
    copy_part part[COPY_THREADS];
    pthread_t tid[COPY_THREADS];
    int started[COPY_THREADS] = {0};
    for (size_t k = 0; k < parts; k++) {
        size_t lo = k * (bytes / parts), hi = k + 1 == parts ? bytes : lo + bytes / parts;
        part[k] = (copy_part){(unsigned char *)dst + lo,
                              src ? (const unsigned char *)src + lo : NULL, hi - lo};
    }
    for (size_t k = 1; k < parts; k++)
        started[k] = pthread_create(&tid[k], NULL, copy_run, &part[k]) == 0;
    if (bytes) copy_run(&part[0]);
    for (size_t k = 1; k < parts; k++) {
        if (started[k]) pthread_join(tid[k], NULL);
        else copy_run(&part[k]);
    }
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
