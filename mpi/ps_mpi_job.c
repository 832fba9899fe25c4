/*
 * The ranks of a job (job/pstencil_job.h, ps_job_comm) over MPI: agreeing,
 * reductions, the Cartesian communicator of the decomposition, the halo
 * transport, the parallel writer's hooks and the gathered checksum.
 */
#include "config.h"
#include "ps_mpi.h"
#include "ps_status.h"

#include <string.h>

static ps_mpi_job *self(void *user)
{
    return user;
}

static MPI_Comm comm_of(ps_mpi_job *m)
{
    return m->cart != MPI_COMM_NULL ? m->cart : MPI_COMM_WORLD;
}

static int agree(void *user, int status)
{
    return ps_mpi_agree(comm_of(self(user)), status);
}

static void sum(void *user, long long *v, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_LONG_LONG, MPI_SUM, comm_of(self(user)));
}

static void max(void *user, double *v, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, comm_of(self(user)));
}

static void share(void *user, void *buf, size_t len)
{
    MPI_Bcast(buf, (int)len, MPI_BYTE, 0, comm_of(self(user)));
}

static int layout(void *user, const ps_decomp *d)
{
    ps_mpi_job *m = self(user);
    int periods[3] = {0, 0, 0}, split[3];
    memcpy(split, d->split, sizeof split);
    if (MPI_Cart_create(MPI_COMM_WORLD, 3, split, periods, 0, &m->cart) != MPI_SUCCESS)
        return ps_error(PS_EIO, "MPI_Cart_create failed");
    return PS_OK;
}

static int transport(void *user, const ps_decomp *d, ps_context *ctx, ps_precision p,
                     ps_decomp_transport *out)
{
    ps_mpi_job *m = self(user);
    int rank, st;
    MPI_Comm_rank(m->cart, &rank);
    if (m->have_mt >= PS_JOB_MAX_FIELDS)
        return ps_error(PS_EINVAL, "more than %d transports", PS_JOB_MAX_FIELDS);
    st = ps_mpi_transport_init(&m->mt[m->have_mt], d, m->cart, rank, ctx, p, out);
    m->have_mt += !st;
    return st;
}

static void transport_stats(void *user, long *messages, double *bytes)
{
    ps_mpi_job *m = self(user);
    int q;
    *messages = 0;
    *bytes = 0;
    for (q = 0; q < m->have_mt; q++) { /* every field's exchanges */
        *messages += m->mt[q].messages;
        *bytes += m->mt[q].bytes;
    }
}

static const ps_write_parallel *writer(void *user, const ps_decomp_box *b, ps_grid global)
{
    ps_mpi_job *m = self(user);
    ps_mpi_writer_init(&m->mw, comm_of(m), b, global);
    return &m->mw.par;
}

static int checksum(void *user, const ps_decomp *d, const ps_field *own, uint64_t *s)
{
    return ps_mpi_checksum(comm_of(self(user)), d, own, s);
}

void ps_mpi_job_init(ps_mpi_job *m, ps_job_comm *c)
{
    memset(m, 0, sizeof *m);
    m->cart = MPI_COMM_NULL;
    memset(c, 0, sizeof *c);
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c->size);
    c->node_rank = ps_mpi_node_rank(MPI_COMM_WORLD, &c->node_size);
    c->agree = agree;
    c->sum = sum;
    c->max = max;
    c->share = share;
    c->layout = layout;
    c->transport = transport;
    c->transport_stats = transport_stats;
    c->writer = writer;
    c->checksum = checksum;
    c->user = m;
}

void ps_mpi_job_free(ps_mpi_job *m)
{
    int q;
    for (q = 0; q < m->have_mt; q++)
        ps_mpi_transport_free(&m->mt[q]);
    m->have_mt = 0;
    if (m->cart != MPI_COMM_NULL)
        MPI_Comm_free(&m->cart);
}
