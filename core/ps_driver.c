/*
 * The time-stepping driver: one context per box of a decomposition (one box,
 * the whole grid, by default), upload, steps in calls as long as snapshots
 * and progress allow, snapshots, download.
 */
#include "config.h"
#include "ps_decomp.h"
#include "ps_driver.h"
#include "ps_ooc.h"
#include "ps_status.h"
#include "ps_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Where the boxes run (ps_decomp_place()): their devices, and for a threaded
 * backend the threads to divide (cfg->threads, else what the probe says the
 * device has). Fills box_threads and worker; returns the number of workers.
 */
static int place_boxes(ps_backend *b, const ps_config *cfg, const ps_decomp *d,
                       const ps_split_options *so, int *device, int *box_threads, int *worker)
{
    const ps_backend_ops *ops = ps_backend_get_ops(b);
    int q, threads = 0, concurrent;
    concurrent = (ops->flags & PS_BACKEND_CONCURRENT) && !(so && so->serial) && d->nboxes > 1;
    for (q = 0; q < d->nboxes; q++)
        device[q] = so && so->devices && so->ndevices > 0 ? so->devices[q % so->ndevices]
                                                          : cfg->device;
    if (ops->flags & PS_BACKEND_THREADS) {
        threads = cfg->threads;
        if (threads <= 0 && concurrent) {
            ps_device_info devs[16];
            int n = 0, dv = device[0] > 0 ? device[0] : 0;
            if (ps_backend_probe(b, devs, 16, &n) == PS_OK && dv < n)
                threads = devs[dv].compute_units;
            ps_error_clear();
            if (threads <= 0) /* unknown: keep the backend's default, one box at a time */
                concurrent = 0, threads = 0;
        }
    }
    return ps_decomp_place(d->nboxes, device, threads, concurrent, box_threads, worker);
}

static int snapshot(const ps_run_options *opt, long step, ps_field *field, ps_run_stats *st)
{
    double t = ps_now();
    int rc = PS_OK;
    if (opt->snapshot(opt->user, step, field))
        rc = ps_error(PS_EIO, "%s", ps_error_detail()[0] ? ps_error_detail() : "snapshot failed");
    st->snapshot_s += ps_now() - t;
    return rc;
}

int ps_run_split(ps_backend *b, const ps_config *cfg_in, ps_field *field, const ps_run_options *opt,
                 const ps_split_options *so, ps_run_stats *stats)
{
    ps_config cfg = *cfg_in;
    ps_decomp d;
    ps_decomp_local local;
    ps_ooc ooc;
    ps_ooc_plan plan;
    ps_decomp_transport tr;
    ps_context **ctx = NULL;
    int *place = NULL, nworkers = 1;
    ps_run_stats st;
    double t0 = ps_now(), t;
    long done = 0, chunk_cap;
    int split[3] = {1, 1, 1}, q, a, rc = PS_OK, have_local = 0, have_ooc = 0;
    uint64_t budget = so ? so->max_device_bytes : 0;
    unsigned halo;

    memset(&st, 0, sizeof st);
    memset(&d, 0, sizeof d);
    memset(&ooc, 0, sizeof ooc);
    memset(&local, 0, sizeof local);
    if (opt->steps < 0)
        return ps_error(PS_EINVAL, "negative step count %ld", opt->steps);
    if (opt->every < 0)
        return ps_error(PS_EINVAL, "negative snapshot interval %ld", opt->every);
    if (cfg.precision != field->precision)
        return ps_error(PS_EINVAL, "config precision %s differs from field precision %s",
                        ps_precision_name(cfg.precision), ps_precision_name(field->precision));
    if (!cfg.stencil)
        cfg.stencil = ps_stencil_default();
    for (a = 0; so && a < 3; a++)
        split[a] = so->split[a] > 0 ? so->split[a] : 1;
    halo = so && so->halo ? so->halo : 2u * (unsigned)cfg.stencil->radius;
    if ((rc = ps_decomp_create(&d, field->grid, split, halo)))
        return rc;
    /* a device memory budget: a box over it is refused, a whole grid over it
     * streams out-of-core slabs */
    for (q = 0; budget && d.nboxes > 1 && q < d.nboxes; q++) {
        uint64_t need = ps_ooc_footprint(d.boxes[q].box.extent, cfg.precision);
        if (need > budget) {
            rc = ps_error(PS_ENOMEM, "box %d of the split needs about %llu bytes of device "
                          "memory, over the budget of %llu: split into more boxes", q,
                          (unsigned long long)need, (unsigned long long)budget);
            goto done;
        }
    }
    if (budget && d.nboxes == 1) {
        /* the slabs' axis, count and (no --halo) ghost depth: the cheapest under the
         * budget for calls of this many steps */
        long per_call = opt->every > 0 && opt->every < opt->steps ? opt->every : opt->steps;
        if ((rc = ps_ooc_plan_auto(field->grid, cfg.precision, cfg.stencil->radius,
                                   so ? so->halo : 0, per_call, budget, &plan)))
            goto done;
        if (plan.slabs > 1) {
            cfg.box = ps_box_whole(field->grid);
            if ((rc = ps_ooc_init(&ooc, &plan, b, &cfg, field)))
                goto done;
            have_ooc = 1;
            st.ooc_slabs = plan.slabs;
            st.ooc_axis = plan.axis;
            st.ooc_ghost = plan.ghost;
        }
    }
    ctx = calloc((size_t)d.nboxes, sizeof *ctx);
    /* per box: device, threads, worker */
    place = calloc(3 * (size_t)d.nboxes, sizeof *place);
    if (!ctx || !place) {
        rc = ps_error(PS_ENOMEM, "out of memory for %d contexts", d.nboxes);
        goto done;
    }
    st.boxes = d.nboxes;
    if (!have_ooc)
        nworkers = place_boxes(b, &cfg, &d, so, place, place + d.nboxes, place + 2 * d.nboxes);

    t = ps_now();
    for (q = 0; q < d.nboxes && !rc && !have_ooc; q++) {
        ps_config c = cfg;
        c.box = d.boxes[q].box;
        c.device = place[q];
        if (place[d.nboxes + q] > 0) /* divided between the boxes (else as asked) */
            c.threads = place[d.nboxes + q];
        if (nworkers > 1 && c.threads > st.box_threads)
            st.box_threads = c.threads;
        rc = ps_context_create(b, &c, &ctx[q]);
    }
    st.create_s = ps_now() - t;
    if (rc)
        goto done;
    if (d.nboxes > 0 && !have_ooc)
    {
        snprintf(st.choices, sizeof st.choices, "%s",
                 ps_context_describe(ctx[0], PS_DESCRIBE_CHOICES));
        snprintf(st.knobs, sizeof st.knobs, "%s",
                 ps_context_describe(ctx[0], PS_DESCRIBE_KNOBS));
    }
    if ((rc = ps_decomp_local_init(&local, &d, ctx, cfg.precision, &tr)))
        goto done;
    have_local = 1;
    if ((rc = ps_decomp_local_concurrent(&local, &d, nworkers, place + 2 * d.nboxes)))
        goto done;
    st.workers = nworkers;
    t = ps_now();
    /* out of core the field stays on the host: each pass uploads its slabs; one
     * box in core steps the field itself where asked and the backend can */
    if (!have_ooc && opt->in_place && d.nboxes == 1) {
        rc = ps_context_adopt(ctx[0], field->data);
        st.in_place = !rc;
        if (rc == PS_ENOTIMPL) { /* the backend cannot: an upload */
            rc = PS_OK;
            ps_error_clear();
        }
    }
    if (!have_ooc && !st.in_place && !rc)
        rc = ps_decomp_upload(&d, ctx, field);
    for (q = 0; q < d.nboxes && !rc && !have_ooc; q++)
        rc = ps_context_finish(ctx[q]);
    st.upload_s = ps_now() - t;
    if (rc)
        goto done;
    if (opt->snapshot && st.in_place) { /* the backend's form of the field: the state back */
        t = ps_now();
        rc = ps_decomp_download(&d, ctx, field);
        st.download_s += ps_now() - t;
        if (rc)
            goto done;
    }
    if (opt->snapshot && (rc = snapshot(opt, 0, field, &st)))
        goto done;
    if (cfg.profile && opt->steps > 0) {
        st.step_times = malloc((size_t)opt->steps * sizeof *st.step_times);
        if (!st.step_times) {
            rc = ps_error(PS_ENOMEM, "out of memory for %ld step times", opt->steps);
            goto done;
        }
    }
    /* progress granularity: about 20 updates. Backends may fuse the steps of
     * one call (temporal blocking, graphs), so calls are kept as long as the
     * snapshots allow when nobody watches the progress. */
    chunk_cap = opt->steps / 20;
    if (chunk_cap < 1)
        chunk_cap = 1;
    while (done < opt->steps) {
        long next_stop = opt->steps;
        long n;
        if (opt->every > 0) {
            long ns = (done / opt->every + 1) * opt->every;
            if (ns < next_stop)
                next_stop = ns;
        }
        n = next_stop - done;
        if (opt->progress && n > chunk_cap)
            n = chunk_cap;
        if (opt->cancel && opt->cancel(opt->user)) {
            rc = ps_error(PS_ECANCELED, "stopped on request after step %ld of %ld", done,
                          opt->steps);
            goto done;
        }
        if (st.step_times)
            n = 1;
        t = ps_now();
        rc = have_ooc ? ps_ooc_step(&ooc, n)
                      : ps_decomp_local_step(&d, &local, cfg.stencil->radius, n);
        t = ps_now() - t;
        if (rc)
            goto done;
        st.step_s += t;
        if (st.step_times)
            st.step_times[done] = t;
        done += n;
        if (opt->progress)
            opt->progress(opt->user, done, opt->steps, st.step_s);
        if (opt->snapshot && (done == opt->steps || (opt->every > 0 && done % opt->every == 0))) {
            /* a stop asked for during these steps keeps the snapshots before them;
             * the last one is taken, the run being complete */
            if (opt->cancel && done < opt->steps && opt->cancel(opt->user)) {
                rc = ps_error(PS_ECANCELED, "stopped on request after step %ld of %ld",
                              done - n, opt->steps);
                goto done;
            }
            t = ps_now();
            rc = have_ooc ? PS_OK : ps_decomp_download(&d, ctx, field);
            st.download_s += ps_now() - t;
            if (rc || (rc = snapshot(opt, done, field, &st)))
                goto done;
        }
    }
    if ((!opt->snapshot || opt->steps == 0) && !have_ooc) {
        t = ps_now();
        rc = ps_decomp_download(&d, ctx, field);
        st.download_s += ps_now() - t;
        if (rc)
            goto done;
    }
    st.steps = done;
    st.exchange_s = local.exchange_s;
    st.exchange_bytes = local.bytes;
    if (have_ooc) {
        st.ooc_passes = ooc.passes;
        st.ooc_bytes = ooc.bytes;
        st.device_bytes_held = ooc.device_bytes;
    } else {
        if (ps_context_timing(ctx[0], &st.device) == PS_OK)
            st.have_device_timing = 1;
        for (q = 0; q < d.nboxes; q++) {
            ps_timing tq;
            st.device_bytes_held += ps_context_timing(ctx[q], &tq) == PS_OK && tq.device_bytes
                                        ? tq.device_bytes
                                        : ps_ooc_footprint(d.boxes[q].box.extent,
                                                           cfg.precision);
        }
    }
    ps_error_clear();
done:
    if (have_local)
        ps_decomp_local_free(&local);
    if (have_ooc)
        ps_ooc_free(&ooc);
    for (q = 0; ctx && q < d.nboxes; q++)
        ps_context_destroy(ctx[q]);
    free(ctx);
    free(place);
    ps_decomp_free(&d);
    st.total_s = ps_now() - t0;
    if (stats)
        *stats = st;
    else
        free(st.step_times);
    return rc;
}

int ps_run(ps_backend *b, const ps_config *cfg, ps_field *field, const ps_run_options *opt,
           ps_run_stats *stats)
{
    return ps_run_split(b, cfg, field, opt, NULL, stats);
}
