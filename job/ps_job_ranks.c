/*
 * A job over ranks (an MPI run): one box of the decomposition per process,
 * each reading only its block (owned cells and ghosts) of the input, halos
 * exchanged every ghost/radius steps through the comm's transport, every rank
 * writing its owned block of one file together (the comm's writer hooks).
 * Every step that can fail on one rank ends in an agreement (comm->agree):
 * all ranks stop together with the failing rank's message. The result is
 * bitwise the one-process result; the checksum is the one-process checksum.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R_READ, R_SETUP, R_STEP, R_EXCHANGE, R_WRITE };

static int agree(ps_job *j, int st)
{
    return j->comm.agree(j->comm.user, st);
}

/* The options that cannot run over ranks, each with its reason: one rule. */
static int refused_options(ps_job *j)
{
    static const char *const names[] = {"split", "devices", "max-device-memory"};
    int given[3], i;
    given[0] = j->split != NULL;
    given[1] = j->devices != NULL;
    given[2] = j->max_mem_given;
    for (i = 0; i < 3; i++)
        if (given[i])
            return ps_error(PS_EINVAL, "--%s is not supported in an MPI run: %s", names[i],
                            ps_job_option_find(names[i])->ranks_refusal);
    if (j->in_field)
        return ps_error(PS_EINVAL, "an MPI run reads its input from a file or the built-in "
                        "ocean, each rank its own block");
    if (!j->output && !j->default_output)
        return ps_error(PS_EINVAL, "an MPI run needs -o OUTPUT.nc");
    return PS_OK;
}

/* The owned block of a stored block: a region in the box's coordinates. */
static ps_region owned_region(const ps_decomp_box *b)
{
    ps_region r;
    int a;
    for (a = 0; a < 3; a++)
        r.start[a] = b->own_lo[a] - b->box.origin[a];
    r.count = (ps_grid){b->own_hi[0] - b->own_lo[0], b->own_hi[1] - b->own_lo[1],
                        b->own_hi[2] - b->own_lo[2]};
    return r;
}

/* The decomposition: --decomp, else the split of the ranks with the least halo surface. */
static int decompose(ps_job *j, ps_grid g)
{
    int split[3], st, size = j->comm.size;
    unsigned halo = j->halo ? (unsigned)j->halo : 2u * (unsigned)j->stencil->radius;
    if (j->decomp) {
        st = ps_decomp_parse_split(j->decomp, g, split);
        if (!st && split[0] * split[1] * split[2] != size)
            st = ps_error(PS_EINVAL, "--decomp %s has %d boxes, but %d ranks run", j->decomp,
                          split[0] * split[1] * split[2], size);
    } else {
        st = ps_decomp_factor(size, g, split);
    }
    if (!st && halo < (unsigned)j->stencil->radius)
        st = ps_error(PS_EINVAL, "--halo %u: stencil %s needs at least its radius %d", halo,
                      j->stencil->name, j->stencil->radius);
    if (!st && !(st = ps_decomp_create(&j->d, g, split, halo)))
        j->have_d = 1;
    if (st)
        return strstr(ps_error_detail(), "--") ? st
                                               : ps_error(st, "--decomp: %s", ps_error_detail());
    memcpy(j->rep.split, split, sizeof split);
    j->rep.halo = halo;
    return PS_OK;
}

/* This rank's block (owned cells and ghosts) of the input, in the job's precision. */
static int read_block(ps_job *j, ps_field *f32)
{
    const ps_decomp_box *bx = &j->d.boxes[j->comm.rank];
    int st;
    if (j->input) {
        size_t start[3], count[3], k;
        for (k = 0; k < 3; k++)
            start[k] = bx->box.origin[k];
        count[0] = bx->box.extent.nz;
        count[1] = bx->box.extent.ny;
        count[2] = bx->box.extent.nx;
        st = ps_dataset_read_region(&j->ds, (size_t)j->time_index, start, count, j->precision,
                                    &j->field);
    } else {
        st = ps_job_box_of(f32, bx, j->precision, &j->field);
    }
    j->field_owned = !st;
#ifdef PS_TEST_HOOKS
    /* fault injection, in builds configured with --enable-test-hooks only */
    if (!st && getenv("PSTENCIL_MPI_FAIL_RANK") &&
        atoi(getenv("PSTENCIL_MPI_FAIL_RANK")) == j->comm.rank)
        st = ps_error(PS_EIO, "%s: rank %d cannot read its block (PSTENCIL_MPI_FAIL_RANK, a "
                      "test hook)", ps_job_input_name(j), j->comm.rank);
#endif
    return st;
}

/* The input's ocean over every rank: not all land, finite unless kept. */
static int check_ocean(ps_job *j)
{
    const ps_region *r = &j->own_r;
    long long cnt[2] = {0, 0};
    size_t k, jj, i, c = 0;
    int st = ps_job_land_alloc(j, r->count.nz * r->count.ny * r->count.nx);
    if (st)
        return st;
    for (k = 0; k < r->count.nz; k++)
        for (jj = 0; jj < r->count.ny; jj++)
            for (i = 0; i < r->count.nx; i++, c++) {
                double v = ps_job_value_at(&j->field,
                                           ps_index(&j->field.grid, r->start[0] + k,
                                                    r->start[1] + jj, r->start[2] + i));
                j->land[c >> 6] |= (uint64_t)(isnan(v) ? 1 : 0) << (c & 63);
                cnt[0] += !isnan(v);
                cnt[1] += isinf(v) ? 1 : 0;
            }
    j->comm.sum(j->comm.user, cnt, 2);
    if (!cnt[0])
        return ps_error(PS_EINVAL, "%s: no ocean cells: every value of '%s' at time index %ld "
                        "is land or missing (NaN or the fill value); there is nothing to run",
                        ps_job_input_name(j), j->ds.var_name, j->time_index);
    if (cnt[1] && !j->keep_nonfinite)
        return ps_error(PS_EINVAL, "%s: %lld ocean cell%s of '%s' at time index %ld %s "
                        "infinite; refused (give --keep-nonfinite to keep them)",
                        ps_job_input_name(j), cnt[1], cnt[1] == 1 ? "" : "s", j->ds.var_name,
                        j->time_index, cnt[1] == 1 ? "is" : "are");
    return PS_OK;
}

/* This rank's owned land in a mask of the whole grid, for a stencil's inputs
 * (share_land() then combines the ranks'). */
static int global_land(ps_job *j)
{
    const ps_decomp_box *b = &j->d.boxes[j->comm.rank];
    ps_grid g = j->ds.grid;
    size_t n = g.nz * g.ny * g.nx, words = n / 64 + 1, k, jj, i, c = 0;
    if (!j->stencil->ninputs)
        return PS_OK;
    free(j->gland);
    if (!(j->gland = calloc(words, sizeof *j->gland)))
        return ps_error(PS_ENOMEM, "out of memory (land mask of %zu cells)", n);
    for (k = b->own_lo[0]; k < b->own_hi[0]; k++)
        for (jj = b->own_lo[1]; jj < b->own_hi[1]; jj++)
            for (i = b->own_lo[2]; i < b->own_hi[2]; i++, c++)
                if (ps_job_land_at(j->land, c)) {
                    size_t gc = (k * g.ny + jj) * g.nx + i;
                    j->gland[gc >> 6] |= (uint64_t)1 << (gc & 63);
                }
    return PS_OK;
}

/* Every rank's land: the owned blocks are disjoint, so the sum of the words over the
 * ranks is their union (collective; after global_land() succeeded on every rank). */
static void share_land(ps_job *j)
{
    ps_grid g = j->ds.grid;
    size_t words = g.nz * g.ny * g.nx / 64 + 1, done;
    if (!j->gland)
        return;
    for (done = 0; done < words; done += 1u << 24) {
        size_t m = words - done < (1u << 24) ? words - done : (1u << 24);
        j->comm.sum(j->comm.user, (long long *)(j->gland + done), (int)m);
    }
}

/* The backend and this rank's device: node-local rank modulo the devices, or --device. */
static int open_device(ps_job *j)
{
    int st = ps_job_open_backend(j);
    if (st)
        return strstr(ps_error_detail(), "backend") ? st
                                                    : ps_error(st, "backend: %s",
                                                               ps_error_detail());
    j->dev = j->device >= 0 ? (int)j->device : j->comm.node_rank % j->ndev;
    if (j->dev >= j->ndev)
        return ps_error(PS_EINVAL, "--device %d: backend '%s' has %d device%s (0..%d)", j->dev,
                        ps_backend_name(j->b), j->ndev, j->ndev == 1 ? "" : "s", j->ndev - 1);
    j->rep.device = j->devs[j->dev];
    return PS_OK;
}

/* Each field's context of this rank's box, its block uploaded, and its halo
 * transport. */
static int create_contexts(ps_job *j)
{
    ps_config cfg;
    int st = PS_OK, f;
    ps_job_config(j, j->d.global, j->dev, &cfg);
    cfg.box = j->d.boxes[j->comm.rank].box;
    for (f = 0; f < j->nfields && !st; f++) {
        st = ps_context_create(j->b, &cfg, &j->ctx[f]);
        if (!st && f == 0) {
            snprintf(j->rep.stats.choices, sizeof j->rep.stats.choices, "%s",
                     ps_context_describe(j->ctx[0], PS_DESCRIBE_CHOICES));
            snprintf(j->rep.stats.knobs, sizeof j->rep.stats.knobs, "%s",
                     ps_context_describe(j->ctx[0], PS_DESCRIBE_KNOBS));
        }
        if (!st)
            st = ps_context_upload(j->ctx[f], ps_job_field_at(j, f)->data, NULL);
        if (!st)
            st = ps_context_finish(j->ctx[f]);
        if (!st)
            st = j->comm.transport(j->comm.user, &j->d, j->ctx[f], j->precision, &j->tr[f]);
    }
    if (st)
        return ps_error(st, "rank %d, backend %s, device %d: %s", j->comm.rank,
                        ps_backend_name(j->b), j->dev, ps_error_detail());
    ps_job_release_arrays(j); /* packed in every context */
    return PS_OK;
}

int ps_job_prepare_ranks(ps_job *j)
{
    ps_field f32;
    char source[1024];
    double t = ps_now();
    int st, f, rank = j->comm.rank;
    memset(&f32, 0, sizeof f32);
    st = refused_options(j);
    if (!st && rank == 0 && j->output)
        st = ps_outfile_check(j->output, j->input ? j->input : j->cont, j->force, "output");
    if ((st = agree(j, st)))
        return st;
    /* the input's header (every rank), or the built-in ocean */
    st = j->input || j->cont ? ps_job_open_input(j) : ps_job_ocean(j, &f32);
    if ((st = agree(j, st)))
        goto out;
    if ((st = agree(j, decompose(j, j->ds.grid))))
        goto out;
    if ((st = agree(j, j->comm.layout(j->comm.user, &j->d))))
        goto out;
    st = read_block(j, &f32);
    ps_field_free(&f32);
    if ((st = agree(j, st)))
        goto out;
    j->rep.rank_s[R_READ] = ps_now() - t;
    j->own_r = owned_region(&j->d.boxes[rank]);
    if ((st = agree(j, check_ocean(j))) ||
        (st = agree(j, ps_job_read_fields(j, &j->d.boxes[rank]))))
        goto out;
    for (f = 0; f < j->nfields && !st; f++)
        st = ps_field_alloc(&j->own[f], j->own_r.count, j->precision);
    if ((st = agree(j, st)) || (st = agree(j, global_land(j))))
        goto out;
    share_land(j);
    /* the stencil's parameters (global grid), the backend, this rank's device */
    t = ps_now();
    if ((st = agree(j, ps_job_prepare_stencil(j, j->ds.grid))) ||
        (st = ps_job_prepare_reduce(j, j->ds.grid)) ||
        (st = agree(j, open_device(j))) || (st = agree(j, create_contexts(j))))
        goto out;
    j->rep.rank_s[R_SETUP] = ps_now() - t;
    j->rep.grid = j->ds.grid;
    j->rep.input = ps_job_input_name(j);
    /* the output: one file, every rank writing its owned block */
    t = ps_now();
    snprintf(source, sizeof source, "pstencil %s, backend %s, device %s, %s, %s mode, MPI %d "
             "ranks (%dx%dx%d)", PACKAGE_VERSION, ps_backend_name(j->b), j->devs[j->dev].name,
             ps_precision_name(j->precision), ps_mode_name(j->mode), j->comm.size,
             j->d.split[0], j->d.split[1], j->d.split[2]);
    j->comm.share(j->comm.user, source, sizeof source); /* the same header on all */
    st = ps_job_open_output(j, j->comm.writer(j->comm.user, &j->d.boxes[rank], j->ds.grid),
                            source);
    st = agree(j, st);
    j->rep.rank_s[R_WRITE] += ps_now() - t;
out:
    ps_field_free(&f32);
    return st;
}

/* A record of the owned cells of every field: the blow-up check over every rank,
 * then every rank appends its blocks. */
static int record(ps_job *j, long done)
{
    size_t c, n = j->own_r.count.nz * j->own_r.count.ny * j->own_r.count.nx;
    long long bad[PS_JOB_MAX_FIELDS] = {0};
    ps_field *own[PS_JOB_MAX_FIELDS];
    int st = PS_OK, f;
    for (f = 0; f < j->nfields; f++) {
        own[f] = &j->own[f];
        if (!st)
            st = ps_context_download(j->ctx[f], j->own[f].data, &j->own_r);
        for (c = 0; !st && c < n; c++)
            if (!ps_job_land_at(j->land, c) && !isfinite(ps_job_value_at(&j->own[f], c)))
                bad[f]++;
    }
    if ((st = agree(j, st)))
        return st;
    j->comm.sum(j->comm.user, bad, j->nfields);
    for (f = 0; f < j->nfields; f++)
        if (bad[f] && !j->keep_nonfinite) {
            j->rep.blew_up = 1;
            return ps_error(PS_ERANGE, "the run blew up: %lld ocean cell%s of %s non-finite at "
                            "step %ld. Nothing was written", bad[f],
                            bad[f] == 1 ? " is" : "s are", j->fname[f], done);
        }
    return agree(j, ps_job_on_record(j, done, own, j->nfields,
                                     j->d.boxes[j->comm.rank].own_lo));
}

/* Nonzero when any rank's cancel callback asked to stop (the largest code, on all). */
static int cancelled(ps_job *j)
{
    double code = (double)ps_job_cancelled(j);
    j->comm.max(j->comm.user, &code, 1);
    j->cancel_code = (int)code;
    return j->cancel_code;
}

int ps_job_run_ranks(ps_job *j)
{
    long done = 0, per_round = (long)(j->d.ghost / (unsigned)j->stencil->radius);
    double t, t0 = ps_now();
    int st, f;
    if (j->d.nboxes == 1)
        per_round = j->steps > 0 ? j->steps : 1;
    j->rep.exchange_every = per_round;
    for (;;) {
        long next = j->steps;
        if (done == 0 || done == j->steps || (j->every > 0 && done % j->every == 0)) {
            if (done > 0 && done < j->steps && cancelled(j))
                return ps_job_keep_completed(j, ps_job_cancel_reason(j, j->cancel_code));
            t = ps_now();
            if ((st = record(j, done)))
                return st;
            j->rep.rank_s[R_WRITE] += ps_now() - t;
        }
        if (done >= j->steps)
            break;
        if (j->every > 0 && (done / j->every + 1) * j->every < next)
            next = (done / j->every + 1) * j->every;
        while (done < next) {
            long n = next - done < per_round ? next - done : per_round;
            t = ps_now();
            for (f = 0, st = PS_OK; f < j->nfields && !st; f++) {
                st = ps_context_step(j->ctx[f], n);
                if (!st)
                    st = ps_context_finish(j->ctx[f]);
            }
            j->rep.rank_s[R_STEP] += ps_now() - t;
            if ((st = agree(j, st))) /* a device error stops every rank before the exchange */
                return st;
            done += n;
            if (j->cb.progress && j->comm.rank == 0)
                j->cb.progress(j->cb.user, done, j->steps, ps_now() - t0);
            if (j->d.nboxes > 1 && done < j->steps) {
                t = ps_now();
                for (f = 0, st = PS_OK; f < j->nfields && !st; f++)
                    st = ps_decomp_exchange(&j->d, &j->tr[f]);
                j->rep.rank_s[R_EXCHANGE] += ps_now() - t;
                if ((st = agree(j, st)))
                    return st;
            }
        }
    }
    j->rep.steps = done;
    /* every rank closed the file: rank 0 publishes it; the global checksum */
    t = ps_now();
    st = agree(j, ps_writer_commit(j->writer));
    j->rep.rank_s[R_WRITE] += ps_now() - t;
    for (f = 0; f < j->nfields && !st; f++)
        st = agree(j, j->comm.checksum(j->comm.user, &j->d, &j->own[f],
                                       &j->rep.field_checksum[f]));
    j->rep.checksum = j->rep.field_checksum[0];
    if (j->comm.transport_stats)
        j->comm.transport_stats(j->comm.user, &j->rep.messages, &j->rep.message_bytes);
    j->comm.max(j->comm.user, j->rep.rank_s, 5);
    return st;
}
