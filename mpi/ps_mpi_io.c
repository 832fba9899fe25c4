/*
 * Parallel I/O of an MPI run: each rank reads only its own block (owned cells
 * and ghosts) of the input; the output is one netCDF-4 file written by every
 * rank together through HDF5's MPI-IO (nc_create_par, collective access to
 * every variable), under a temporary name that rank 0 publishes once every
 * rank closed it (io/ps_nc_write.c does the file, through the callbacks
 * here); the checksum of the global field is gathered level by level.
 */
#include "config.h"
#include "ps_mpi.h"
#include "ps_status.h"

#include <netcdf.h>
#include <netcdf_par.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int share(void *user, char *tmp, size_t len)
{
    ps_mpi_writer *w = user;
    return MPI_Bcast(tmp, (int)len, MPI_CHAR, 0, w->comm) == MPI_SUCCESS ? PS_OK : PS_EIO;
}

static int create(void *user, const char *path, int cmode, int *ncid)
{
    ps_mpi_writer *w = user;
    return nc_create_par(path, cmode | NC_MPIIO, w->comm, MPI_INFO_NULL, ncid);
}

static int defined(void *user, int ncid)
{
    int nvars, v, rc;
    (void)user;
    if ((rc = nc_inq_nvars(ncid, &nvars)))
        return ps_error(PS_EIO, "parallel netCDF: %s", nc_strerror(rc));
    for (v = 0; v < nvars; v++)
        if ((rc = nc_var_par_access(ncid, v, NC_COLLECTIVE)))
            return ps_error(PS_EIO, "parallel netCDF: collective access: %s", nc_strerror(rc));
    return PS_OK;
}

static int agree(void *user, int status)
{
    ps_mpi_writer *w = user;
    return ps_mpi_agree(w->comm, status);
}

void ps_mpi_writer_init(ps_mpi_writer *w, MPI_Comm comm, const ps_decomp_box *b,
                        ps_grid global)
{
    int rank, a;
    long long now = (long long)time(NULL);
    memset(w, 0, sizeof *w);
    w->comm = comm;
    MPI_Comm_rank(comm, &rank);
    MPI_Bcast(&now, 1, MPI_LONG_LONG, 0, comm); /* one history time stamp for all */
    w->par.share = share;
    w->par.create = create;
    w->par.defined = defined;
    w->par.agree = agree;
    w->par.user = w;
    w->par.publisher = rank == 0;
    w->par.now = now;
    w->par.global = global;
    for (a = 0; a < 3; a++)
        w->par.start[a] = b->own_lo[a];
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n, size_t es)
{
    const uint64_t prime = UINT64_C(0x100000001b3);
    size_t i;
    int b;
    /* bytes of each value from the least significant, as ps_field_checksum() */
    for (i = 0; i < n; i++) {
        uint64_t v = 0;
        memcpy(&v, p + i * es, es); /* little-endian hosts: value bits in order */
        for (b = 0; b < (int)es; b++) {
            h ^= (v >> (8 * b)) & 0xff;
            h *= prime;
        }
    }
    return h;
}

int ps_mpi_checksum(MPI_Comm comm, const ps_decomp *d, const ps_field *own, uint64_t *sum)
{
    const ps_decomp_box *me;
    size_t es = ps_precision_size(own->precision), k, ny = d->global.ny, nx = d->global.nx;
    size_t onj, oni;
    unsigned char *plane = NULL, *piece = NULL;
    int rank, q, st = PS_OK;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    MPI_Comm_rank(comm, &rank);
    me = &d->boxes[rank];
    onj = me->own_hi[1] - me->own_lo[1];
    oni = me->own_hi[2] - me->own_lo[2];
    if (rank == 0) {
        size_t most = 1;
        for (q = 0; q < d->nboxes; q++) {
            const ps_decomp_box *b = &d->boxes[q];
            size_t c = (b->own_hi[1] - b->own_lo[1]) * (b->own_hi[2] - b->own_lo[2]);
            if (c > most)
                most = c;
        }
        plane = malloc(ny * nx * es);
        piece = malloc(most * es);
        if (!plane || !piece)
            st = ps_error(PS_ENOMEM, "checksum: cannot allocate one level (%zu cells)", ny * nx);
    }
    if ((st = ps_mpi_agree(comm, st)))
        goto done;
    for (k = 0; k < d->global.nz; k++) {
        if (rank != 0) {
            if (k >= me->own_lo[0] && k < me->own_hi[0])
                MPI_Send((const char *)own->data + (k - me->own_lo[0]) * onj * oni * es,
                         (int)(onj * oni * es), MPI_BYTE, 0, (int)(k % 32768), comm);
            continue;
        }
        for (q = 0; q < d->nboxes; q++) {
            const ps_decomp_box *b = &d->boxes[q];
            size_t bj = b->own_hi[1] - b->own_lo[1], bi = b->own_hi[2] - b->own_lo[2], j;
            const unsigned char *src;
            if (k < b->own_lo[0] || k >= b->own_hi[0])
                continue;
            if (q == 0) {
                src = (const unsigned char *)own->data + (k - b->own_lo[0]) * bj * bi * es;
            } else {
                MPI_Recv(piece, (int)(bj * bi * es), MPI_BYTE, q, (int)(k % 32768), comm,
                         MPI_STATUS_IGNORE);
                src = piece;
            }
            for (j = 0; j < bj; j++)
                memcpy(plane + ((b->own_lo[1] + j) * nx + b->own_lo[2]) * es,
                       src + j * bi * es, bi * es);
        }
        h = fnv(h, plane, ny * nx, es);
    }
    *sum = h;
done:
    free(plane);
    free(piece);
    return st;
}
