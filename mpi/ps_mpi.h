/**
 * @file ps_mpi.h
 * @brief The MPI layer of the pstencil program (built with ./configure
 *        --enable-mpi): a halo-exchange transport over a Cartesian
 *        communicator, parallel netCDF reading and writing, and agreeing on
 *        failure. Internal to the program, not installed.
 *
 * One process (rank) runs one box of a decomposition (core/ps_decomp.h): the
 * rank of the Cartesian communicator is the box's index (i fastest), so the
 * exchange plan's copies name the ranks that send and receive.
 */
#ifndef PS_MPI_H
#define PS_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "ps_decomp.h"
#include "ps_io.h"
#include "pstencil_job.h"

/** @cond internals */

/* ---- starting (ps_mpi_init.c) ---- */

/*
 * MPI_Init for a run, once per process; before it, on Open MPI versions whose
 * MPI-IO writes with unlocked data sieving (before 4.1.7, 5.0.0-5.0.5), turns
 * that off for this process unless the user chose. PS_OK or PS_EIO.
 */
int ps_mpi_start(void);

/* 1 when the MPI_Get_library_version() text @p version names an Open MPI
 * whose MPI-IO needs write data sieving off (see ps_mpi_start()). */
int ps_mpi_ompio_needs_sieving_off(const char *version);


/* ---- agreeing (ps_mpi_agree.c) ---- */

/*
 * Every rank passes its status; returns PS_OK if all had PS_OK, else the
 * status of the lowest failing rank, whose ps_error_detail() message becomes
 * every rank's (so rank 0 can print the one message). Collective.
 */
int ps_mpi_agree(MPI_Comm comm, int status);

/* The rank among the processes of this node (MPI_COMM_TYPE_SHARED). */
int ps_mpi_node_rank(MPI_Comm comm, int *node_size);


/* ---- the transport (ps_mpi_transport.c) ---- */

/* The MPI transport: implements ps_decomp_transport for the box of this rank. */
typedef struct ps_mpi_transport {
    const ps_decomp *d;
    MPI_Comm comm;       /* Cartesian: rank == box index */
    int rank;
    ps_context *ctx;     /* this rank's box */
    size_t es;           /* element size */
    char *buf;           /* one staging area per copy this rank sends or receives */
    size_t *offset;      /* ncopies offsets into buf ((size_t)-1: not ours) */
    MPI_Request *req;    /* requests of the axis in flight */
    int *reqcopy;        /* the copy of each request */
    int nreq;
    int status;          /* first local failure of the axis in flight */
    long messages;       /* messages sent */
    double bytes;        /* bytes sent */
    double secs;         /* seconds in the exchange */
} ps_mpi_transport;

/* Set up @p t for box @p rank of @p d over context @p ctx; fills @p out. */
int ps_mpi_transport_init(ps_mpi_transport *t, const ps_decomp *d, MPI_Comm comm, int rank,
                          ps_context *ctx, ps_precision p, ps_decomp_transport *out);
void ps_mpi_transport_free(ps_mpi_transport *t);

/* ---- parallel I/O (ps_mpi_io.c) ---- */

/* The callbacks that let the netCDF writer (io/) write one file from every rank. */
typedef struct ps_mpi_writer {
    ps_write_parallel par;
    MPI_Comm comm;
} ps_mpi_writer;

/* Fill @p w->par for this rank's owned block @p b of grid @p global. */
void ps_mpi_writer_init(ps_mpi_writer *w, MPI_Comm comm, const ps_decomp_box *b,
                        ps_grid global);

/*
 * FNV-1a (ps_field_checksum()) of the global field whose owned block on each
 * rank is @p own (box @p b): gathered level by level on rank 0, so it equals
 * the one-process checksum and no rank holds more than one level. The result
 * is valid on rank 0. Collective.
 */
int ps_mpi_checksum(MPI_Comm comm, const ps_decomp *d, const ps_field *own, uint64_t *sum);

/* ---- the ranks of a job (ps_mpi_job.c) ---- */

/* The MPI state behind a ps_job_comm. */
typedef struct ps_mpi_job {
    MPI_Comm cart;       /* the decomposition's Cartesian communicator (NULL before) */
    ps_mpi_transport mt[PS_JOB_MAX_FIELDS]; /* this rank's halo transport, one a field */
    int have_mt; /* transports made */
    ps_mpi_writer mw;    /* the parallel writer's hooks */
} ps_mpi_job;

/* Fill @p c with callbacks over @p m and MPI_COMM_WORLD (MPI started). */
void ps_mpi_job_init(ps_mpi_job *m, ps_job_comm *c);
/* Free the transport and the communicator (collective). */
void ps_mpi_job_free(ps_mpi_job *m);

/** @endcond */

#endif /* PS_MPI_H */
