/*
 * The reductions of a job's records (core/ps_reduce.h): the cell volumes
 * from the input's coordinates once, then each record reduced on the host
 * field the job already holds for it (the whole grid in one process, the
 * owned block of each rank over ranks), on a thread of its own while the
 * record is written, and, over ranks, the partial reductions combined as
 * integers: bitwise the same for every backend, thread count, box split,
 * out-of-core slab plan and rank count.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ps_job_prepare_reduce(ps_job *j, ps_grid global)
{
    const ps_grid_coords *c = NULL;
    ps_grid_coords mine;
    char why[sizeof j->vol_why] = "";
    double metric;
    int st = PS_OK, f;
    memset(&mine, 0, sizeof mine);
    free(j->vol);
    j->vol = NULL;
    if (j->in_field) {
        c = j->in_coords;
        if (!c)
            snprintf(why, sizeof why, "no coordinates given with the field");
    } else if (j->coords.depth && j->coords.lat && j->coords.lon) {
        c = &j->coords; /* read for the stencil */
    } else if (j->have_ds) {
        if (ps_dataset_coords(&j->ds, &mine) == PS_OK)
            c = &mine;
        else
            snprintf(why, sizeof why, "%s", ps_error_detail());
    }
    if (c) {
        j->vol = malloc((global.nz * global.ny + 1) * sizeof *j->vol);
        if (!j->vol) {
            st = ps_error(PS_ENOMEM, "out of memory (cell volumes of %zu levels x %zu rows)",
                          global.nz, global.ny);
        } else if (ps_cell_volumes(global, c->depth, c->lat, c->lon, j->vol, why, sizeof why)) {
            free(j->vol);
            j->vol = NULL;
        }
    }
    ps_grid_coords_free(&mine);
    if (j->ranked) {
        /* every rank weighs with rank 0's volumes (one C library's cos for all) */
        if ((st = j->comm.agree(j->comm.user, st)))
            return st;
        metric = j->vol ? 1.0 : 0.0;
        j->comm.share(j->comm.user, &metric, sizeof metric);
        j->comm.share(j->comm.user, why, sizeof why);
        if (metric != 0 && !j->vol &&
            !(j->vol = malloc((global.nz * global.ny + 1) *
                              sizeof *j->vol)))
            st = ps_error(PS_ENOMEM, "out of memory (cell volumes)");
        if ((st = j->comm.agree(j->comm.user, st)))
            return st;
        if (metric != 0) {
            j->comm.share(j->comm.user, j->vol, global.nz * global.ny * sizeof *j->vol);
        } else {
            free(j->vol);
            j->vol = NULL;
        }
    }
    if (st)
        return st;
    snprintf(j->vol_why, sizeof j->vol_why, "%s", j->vol ? "" : why);
    j->rep.fields = j->nfields > 0 ? j->nfields : 1;
    for (f = 0; f < j->rep.fields; f++)
        j->rep.field_names[f] = j->fname[f];
    j->rep.volume_metric = j->vol != NULL;
    j->rep.volume_why = j->vol_why;
    j->global_ny = global.ny;
    return PS_OK;
}

/* The largest of each unsigned key over the ranks, through the comm's max of doubles:
 * the high halves first, then the low halves of the ranks that hold the largest high. */
static void max_keys(ps_job *j, uint64_t *k, int n)
{
    double hi[PS_REDUCE_MAX_WORDS], lo[PS_REDUCE_MAX_WORDS];
    int i;
    for (i = 0; i < n; i++)
        hi[i] = (double)(k[i] >> 32);
    j->comm.max(j->comm.user, hi, n);
    for (i = 0; i < n; i++)
        lo[i] = (double)(k[i] >> 32) == hi[i] ? (double)(k[i] & 0xffffffffu) : -1.0;
    j->comm.max(j->comm.user, lo, n);
    for (i = 0; i < n; i++)
        k[i] = ((uint64_t)hi[i] << 32) | (uint64_t)lo[i];
}

/* the local part of a record's reductions, every field's, on a thread of their own */
static void *reduce_local(void *arg)
{
    ps_job *j = arg;
    int f;
    j->rd_status = PS_OK;
    for (f = 0; f < j->rd_n && !j->rd_status; f++)
        j->rd_status = ps_reduce_field(&j->rd_parts[f], j->rd_fields[f], j->rd_origin, j->vol,
                                       j->global_ny, j->rd_threads);
    return NULL;
}

int ps_job_reduce_start(ps_job *j, ps_field *const *fields, int n, const size_t origin[3])
{
    long threads = j->threads;
    int f;
    if (threads <= 0) /* the runtime's default: every CPU in one process, one over ranks */
        threads = j->ranked ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
    /* one CPU is left to the caller's thread, which writes the record meanwhile */
    j->rd_threads = threads > 2 ? (int)threads - 1 : 1;
    j->rd_n = n;
    for (f = 0; f < n; f++) {
        j->rd_fields[f] = fields[f];
        ps_reduce_part_init(&j->rd_parts[f]);
    }
    memcpy(j->rd_origin, origin, sizeof j->rd_origin);
    j->rd_running = pthread_create(&j->rd_thread, NULL, reduce_local, j) == 0;
    if (!j->rd_running)
        reduce_local(j); /* no thread: here, now */
    return PS_OK;
}

int ps_job_reduce_finish(ps_job *j)
{
    int st, f;
    if (j->rd_running)
        pthread_join(j->rd_thread, NULL);
    j->rd_running = 0;
    st = j->rd_status;
    if (j->ranked && (st = j->comm.agree(j->comm.user, st)))
        return st;
    for (f = 0; f < j->rd_n; f++) {
        if (j->ranked) {
            long long sums[PS_REDUCE_SUM_WORDS];
            uint64_t maxes[PS_REDUCE_MAX_WORDS];
            ps_reduce_pack(&j->rd_parts[f], sums, maxes);
            j->comm.sum(j->comm.user, sums, PS_REDUCE_SUM_WORDS);
            max_keys(j, maxes, PS_REDUCE_MAX_WORDS);
            ps_reduce_unpack(&j->rd_parts[f], sums, maxes);
        }
        if (st)
            continue;
        ps_reduce_finish(&j->rd_parts[f], &j->red[f]);
        j->rep.reduction[f] = j->red[f];
    }
    if (st)
        return st;
    j->have_red = 1;
    return PS_OK;
}

const ps_reduction *ps_job_record_reduction(const ps_job *j, int i)
{
    if (!j || !j->have_red || i < 0 || i >= j->rep.fields)
        return NULL;
    return &j->red[i];
}
