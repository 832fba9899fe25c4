/*
 * Agreeing on failure: a collective status, the failing rank's message to
 * every rank (no MPI_Abort: every rank cleans up and exits the same way).
 */
#include "config.h"
#include "ps_mpi.h"
#include "ps_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ps_mpi_agree(MPI_Comm comm, int status)
{
    int rank, size, first, st = status;
    char msg[2048];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    {
        int mine = status ? rank : size;
        MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    }
    if (first == size)
        return PS_OK;
    if (rank == first)
        snprintf(msg, sizeof msg, "%s", ps_error_detail()[0] ? ps_error_detail()
                                                             : ps_strerror(status));
    MPI_Bcast(&st, 1, MPI_INT, first, comm);
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, comm);
    msg[sizeof msg - 1] = '\0';
    if (rank != first || !ps_error_detail()[0])
        ps_error(st, "%s", msg);
    return st;
}

int ps_mpi_node_rank(MPI_Comm comm, int *node_size)
{
    MPI_Comm node;
    int r = 0, n = 1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_rank(node, &r);
        MPI_Comm_size(node, &n);
        MPI_Comm_free(&node);
    }
    if (node_size)
        *node_size = n;
    return r;
}
