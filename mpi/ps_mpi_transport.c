/*
 * The MPI halo-exchange transport. ps_decomp_exchange() hands every copy of
 * the plan to move() in plan order, axis by axis; this transport posts a
 * non-blocking receive for each copy into this rank's box and a non-blocking
 * send (after downloading the region) for each copy out of it, and at the
 * last copy of an axis waits for them all and uploads what arrived, so the
 * next axis sees the refreshed ghosts (edges and corners for any depth).
 * Halos are staged through host buffers. The tag is the copy's index in the plan
 * (modulo 32768, the smallest MPI_TAG_UB allowed; messages between two ranks
 * keep their order anyway). A local failure (a download or an
 * upload) still lets every message of the axis complete, so no rank waits
 * forever; the caller agrees on the status afterwards.
 */
#include "config.h"
#include "ps_mpi.h"
#include "ps_status.h"
#include "ps_timer.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static size_t cells_of(const ps_region *r)
{
    return r->count.nz * r->count.ny * r->count.nx;
}

static int axis_of(const ps_decomp *d, int q)
{
    return q < d->axis_end[0] ? 0 : q < d->axis_end[1] ? 1 : 2;
}

/* The axis in flight is complete: wait, then upload what arrived. */
static int flush(ps_mpi_transport *t)
{
    int i, st;
    MPI_Waitall(t->nreq, t->req, MPI_STATUSES_IGNORE);
    for (i = 0; i < t->nreq; i++) {
        const ps_decomp_copy *c = &t->d->copies[t->reqcopy[i]];
        if (c->dst != t->rank || c->src == t->rank)
            continue;
        st = ps_context_upload(t->ctx, t->buf + t->offset[t->reqcopy[i]], &c->dst_region);
        if (st && !t->status)
            t->status = st;
    }
    t->nreq = 0;
    st = t->status;
    t->status = PS_OK;
    return st;
}

static int mpi_move(void *self, const ps_decomp_copy *c)
{
    ps_mpi_transport *t = self;
    const ps_decomp *d = t->d;
    int q = (int)(c - d->copies), st, last;
    double t0 = ps_now();
    size_t n = cells_of(&c->src_region);
    char *b = t->offset[q] == (size_t)-1 ? NULL : t->buf + t->offset[q];
    if (c->src == t->rank && c->dst == t->rank) { /* a box wider than its neighbour: local */
        st = ps_context_download(t->ctx, b, &c->src_region);
        if (!st)
            st = ps_context_upload(t->ctx, b, &c->dst_region);
        if (st && !t->status)
            t->status = st;
    } else if (c->dst == t->rank) {
        MPI_Irecv(b, (int)(n * t->es), MPI_BYTE, c->src, q % 32768, t->comm, &t->req[t->nreq]);
        t->reqcopy[t->nreq++] = q;
    } else if (c->src == t->rank) {
        st = ps_context_download(t->ctx, b, &c->src_region);
        if (st && !t->status)
            t->status = st; /* sent anyway: the receiver must not wait forever */
        MPI_Isend(b, (int)(n * t->es), MPI_BYTE, c->dst, q % 32768, t->comm, &t->req[t->nreq]);
        t->reqcopy[t->nreq++] = q;
        t->messages++;
        t->bytes += (double)(n * t->es);
    }
    last = q + 1 == d->axis_end[axis_of(d, q)];
    st = last ? flush(t) : PS_OK;
    t->secs += ps_now() - t0;
    return st;
}

int ps_mpi_transport_init(ps_mpi_transport *t, const ps_decomp *d, MPI_Comm comm, int rank,
                          ps_context *ctx, ps_precision p, ps_decomp_transport *out)
{
    size_t total = 0;
    int q, mine = 0;
    memset(t, 0, sizeof *t);
    t->d = d;
    t->comm = comm;
    t->rank = rank;
    t->ctx = ctx;
    t->es = ps_precision_size(p);
    t->offset = malloc((size_t)(d->ncopies ? d->ncopies : 1) * sizeof *t->offset);
    if (!t->offset)
        return ps_error(PS_ENOMEM, "MPI transport: out of memory for the plan");
    for (q = 0; q < d->ncopies; q++) {
        const ps_decomp_copy *c = &d->copies[q];
        t->offset[q] = (size_t)-1;
        if (c->src == rank || c->dst == rank) {
            if (cells_of(&c->src_region) * t->es > (size_t)INT_MAX) {
                ps_mpi_transport_free(t);
                return ps_error(PS_EINVAL, "MPI transport: a halo message of %zu cells is over "
                                "2 GiB: use more ranks or a shallower --halo",
                                cells_of(&c->src_region));
            }
            t->offset[q] = total;
            total += cells_of(&c->src_region) * t->es;
            mine++;
        }
    }
    t->buf = malloc(total ? total : 1);
    t->req = malloc((size_t)(mine ? mine : 1) * sizeof *t->req);
    t->reqcopy = malloc((size_t)(mine ? mine : 1) * sizeof *t->reqcopy);
    if (!t->buf || !t->req || !t->reqcopy) {
        ps_mpi_transport_free(t);
        return ps_error(PS_ENOMEM, "MPI transport: cannot allocate %zu bytes of halo buffers",
                        total);
    }
    out->move = mpi_move;
    out->self = t;
    return PS_OK;
}

void ps_mpi_transport_free(ps_mpi_transport *t)
{
    if (!t)
        return;
    free(t->buf);
    free(t->offset);
    free(t->req);
    free(t->reqcopy);
    t->buf = NULL;
    t->offset = NULL;
    t->req = NULL;
    t->reqcopy = NULL;
}
