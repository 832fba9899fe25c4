/*
 * The time-stepping driver: one context per box of a decomposition (one box,
 * the whole grid, by default) and per field, upload, steps in calls as long as
 * snapshots and progress allow (every field in turn), snapshots, download.
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

/* A snapshot of every field: snapshot_fields, else (one field) snapshot. */
static int snapshot(const ps_run_options *opt, long step, ps_field *const *fields, int n,
                    ps_run_stats *st)
{
    double t = ps_now();
    int rc = PS_OK, r;
    r = opt->snapshot_fields ? opt->snapshot_fields(opt->user, step, fields, n)
                             : opt->snapshot(opt->user, step, fields[0]);
    if (r)
        rc = ps_error(PS_EIO, "%s", ps_error_detail()[0] ? ps_error_detail() : "snapshot failed");
    st->snapshot_s += ps_now() - t;
    return rc;
}

/* One field's state in a run: its contexts (one per box), its transport, or
 * its out-of-core stream. */
typedef struct run_field {
    ps_context **ctx;
    ps_decomp_local local;
    ps_decomp_transport tr;
    ps_ooc ooc;
    int have_local, have_ooc, in_place;
} run_field;

/* Download every in-core field (out of core the host copy is current). */
static int download_all(const ps_decomp *d, run_field *F, ps_field *const *fields, int n,
                        ps_run_stats *st)
{
    double t = ps_now();
    int f, rc = PS_OK;
    for (f = 0; f < n && !rc; f++)
        if (!F[f].have_ooc)
            rc = ps_decomp_download(d, F[f].ctx, fields[f]);
    st->download_s += ps_now() - t;
    return rc;
}

/* The fields agree with each other and the config (the index of a bad one named). */
static int check_fields(const ps_config *cfg, ps_field *const *fields, int n,
                        const ps_run_options *opt)
{
    int f, e;
    if (n < 1 || n > PS_RUN_MAX_FIELDS)
        return ps_error(PS_EINVAL, "%d fields: a run steps 1 to %d", n, PS_RUN_MAX_FIELDS);
    if (!fields)
        return ps_error(PS_EINVAL, "no fields");
    for (f = 0; f < n; f++) {
        const ps_field *x = fields[f];
        if (!x)
            return ps_error(PS_EINVAL, "field %d is missing", f);
        if (n == 1 && cfg->precision != x->precision)
            return ps_error(PS_EINVAL, "config precision %s differs from field precision %s",
                            ps_precision_name(cfg->precision), ps_precision_name(x->precision));
        if (cfg->precision != x->precision)
            return ps_error(PS_EINVAL, "field %d: config precision %s differs from field "
                            "precision %s", f, ps_precision_name(cfg->precision),
                            ps_precision_name(x->precision));
        if (x->grid.nz != fields[0]->grid.nz || x->grid.ny != fields[0]->grid.ny ||
            x->grid.nx != fields[0]->grid.nx)
            return ps_error(PS_EINVAL, "field %d: grid %zux%zux%zu differs from field 0's "
                            "%zux%zux%zu", f, x->grid.nz, x->grid.ny, x->grid.nx,
                            fields[0]->grid.nz, fields[0]->grid.ny, fields[0]->grid.nx);
        for (e = 0; e < f; e++)
            if (fields[e] == x || (x->data && fields[e]->data == x->data))
                return ps_error(PS_EINVAL, "field %d is field %d again: the fields of a run "
                                "are independent", f, e);
    }
    if (n > 1 && opt->snapshot && !opt->snapshot_fields)
        return ps_error(PS_EINVAL, "a run of %d fields takes its snapshots through "
                        "snapshot_fields, not snapshot", n);
    return PS_OK;
}

/* Seconds a call of steps takes while someone watches the progress (and the
 * cancel is polled between calls): Ctrl-C stops a run within about this. */
#define PS_DRIVER_CALL_S 0.25

/* Steps of the next call while someone watches the progress: about
 * PS_DRIVER_CALL_S seconds at the mean pace of the @p done steps taken in
 * @p spent seconds, in whole multiples of 48 or 16 steps where that many fit
 * (the fused counts the backends' rules pick, 4, 8, 12 and 16, divide 48);
 * at least 1; @p cap while nothing has been measured. */
static long ps_driver_call_steps(double spent, long done, long cap)
{
    double want;
    if (!(spent > 0) || done < 1)
        return cap;
    want = PS_DRIVER_CALL_S / (spent / (double)done);
    if (want >= 1e9)
        return 1000000000L;
    if (want >= 48)
        return (long)want / 48 * 48;
    if (want >= 16)
        return (long)want / 16 * 16;
    return want >= 1 ? (long)want : 1;
}

int ps_run_fields(ps_backend *b, const ps_config *cfg_in, ps_field *const *fields, int nfields,
                  const ps_run_options *opt, const ps_split_options *so, ps_run_stats *stats)
{
    ps_config cfg = *cfg_in;
    ps_decomp d;
    ps_ooc_plan plan;
    run_field *F = NULL;
    int *place = NULL, nworkers = 1;
    ps_run_stats st;
    double t0 = ps_now(), t;
    long done = 0, chunk_cap;
    int split[3] = {1, 1, 1}, q, a, f, rc = PS_OK, have_ooc = 0, snap;
    uint64_t budget = so ? so->max_device_bytes : 0, field_budget;
    unsigned halo;

    memset(&st, 0, sizeof st);
    memset(&d, 0, sizeof d);
    if (opt->steps < 0)
        return ps_error(PS_EINVAL, "negative step count %ld", opt->steps);
    if (opt->every < 0)
        return ps_error(PS_EINVAL, "negative snapshot interval %ld", opt->every);
    if ((rc = check_fields(&cfg, fields, nfields, opt)))
        return rc;
    snap = opt->snapshot_fields || opt->snapshot;
    if (!cfg.stencil)
        cfg.stencil = ps_stencil_default();
    for (a = 0; so && a < 3; a++)
        split[a] = so->split[a] > 0 ? so->split[a] : 1;
    halo = so && so->halo ? so->halo : 2u * (unsigned)cfg.stencil->radius;
    if ((rc = ps_decomp_create(&d, fields[0]->grid, split, halo)))
        return rc;
    F = calloc((size_t)nfields, sizeof *F);
    if (!F) {
        rc = ps_error(PS_ENOMEM, "out of memory for %d fields", nfields);
        goto done;
    }
    /* a device memory budget holds every field's contexts of a box: a box whose
     * fields go over it is refused, a whole grid over it streams out-of-core
     * slabs, each field's under an equal share */
    for (q = 0; budget && d.nboxes > 1 && q < d.nboxes; q++) {
        uint64_t need = ps_ooc_footprint(d.boxes[q].box.extent, cfg.precision);
        if (nfields == 1 && need > budget) {
            rc = ps_error(PS_ENOMEM, "box %d of the split needs about %llu bytes of device "
                          "memory, over the budget of %llu: split into more boxes", q,
                          (unsigned long long)need, (unsigned long long)budget);
            goto done;
        }
        if (nfields > 1 && need * (uint64_t)nfields > budget) {
            rc = ps_error(PS_ENOMEM, "box %d of the split needs about %llu bytes of device "
                          "memory for %d fields (%llu each), over the budget of %llu: split "
                          "into more boxes", q, (unsigned long long)(need * (uint64_t)nfields),
                          nfields, (unsigned long long)need, (unsigned long long)budget);
            goto done;
        }
    }
    field_budget = budget / (uint64_t)nfields;
    if (budget && !field_budget) /* 0 would mean unlimited */
        field_budget = 1;
    if (budget && d.nboxes == 1) {
        /* the slabs' axis, count and (no --halo) ghost depth: the cheapest under the
         * budget for calls of this many steps */
        long per_call = opt->every > 0 && opt->every < opt->steps ? opt->every : opt->steps;
        if ((rc = ps_ooc_plan_auto(fields[0]->grid, cfg.precision, cfg.stencil->radius,
                                   so ? so->halo : 0, per_call, field_budget, &plan))) {
            if (rc == PS_ENOMEM && nfields > 1)
                rc = ps_error(PS_ENOMEM, "a device memory budget of %llu bytes is too small "
                              "for %d fields: each field's share of %llu bytes fits no "
                              "slab; the smallest budget that works is %llu bytes",
                              (unsigned long long)budget, nfields,
                              (unsigned long long)field_budget,
                              (unsigned long long)(plan.min_budget * (uint64_t)nfields));
            goto done;
        }
        if (plan.slabs > 1) {
            cfg.box = ps_box_whole(fields[0]->grid);
            for (f = 0; f < nfields; f++) {
                if ((rc = ps_ooc_init(&F[f].ooc, &plan, b, &cfg, fields[f])))
                    goto done;
                F[f].have_ooc = 1;
            }
            have_ooc = 1;
            st.ooc_slabs = plan.slabs;
            st.ooc_axis = plan.axis;
            st.ooc_ghost = plan.ghost;
        }
    }
    for (f = 0; f < nfields; f++)
        if (!(F[f].ctx = calloc((size_t)d.nboxes, sizeof *F[f].ctx))) {
            rc = ps_error(PS_ENOMEM, "out of memory for %d contexts", d.nboxes);
            goto done;
        }
    /* per box: device, threads, worker */
    place = calloc(3 * (size_t)d.nboxes, sizeof *place);
    if (!place) {
        rc = ps_error(PS_ENOMEM, "out of memory for %d contexts", d.nboxes);
        goto done;
    }
    st.boxes = d.nboxes;
    if (!have_ooc)
        nworkers = place_boxes(b, &cfg, &d, so, place, place + d.nboxes, place + 2 * d.nboxes);

    t = ps_now();
    for (f = 0; f < nfields && !have_ooc; f++)
        for (q = 0; q < d.nboxes && !rc; q++) {
            ps_config c = cfg;
            c.box = d.boxes[q].box;
            c.device = place[q];
            if (place[d.nboxes + q] > 0) /* divided between the boxes (else as asked) */
                c.threads = place[d.nboxes + q];
            if (nworkers > 1 && c.threads > st.box_threads)
                st.box_threads = c.threads;
            rc = ps_context_create(b, &c, &F[f].ctx[q]);
        }
    st.create_s = ps_now() - t;
    if (rc)
        goto done;
    if (d.nboxes > 0 && !have_ooc) {
        snprintf(st.choices, sizeof st.choices, "%s",
                 ps_context_describe(F[0].ctx[0], PS_DESCRIBE_CHOICES));
        snprintf(st.knobs, sizeof st.knobs, "%s",
                 ps_context_describe(F[0].ctx[0], PS_DESCRIBE_KNOBS));
    }
    for (f = 0; f < nfields; f++) {
        if ((rc = ps_decomp_local_init(&F[f].local, &d, F[f].ctx, cfg.precision, &F[f].tr)))
            goto done;
        F[f].have_local = 1;
        /* the fields are stepped one after another: one set of workers for all */
        rc = f ? ps_decomp_local_share_workers(&F[f].local, &F[0].local)
               : ps_decomp_local_concurrent(&F[f].local, &d, nworkers, place + 2 * d.nboxes);
        if (rc)
            goto done;
    }
    st.workers = nworkers;
    t = ps_now();
    for (f = 0; f < nfields && !rc && !have_ooc; f++) {
        /* out of core a field stays on the host: each pass uploads its slabs; one
         * box in core steps the field itself where asked and the backend can */
        if (opt->in_place && d.nboxes == 1) {
            rc = ps_context_adopt(F[f].ctx[0], fields[f]->data);
            F[f].in_place = !rc;
            if (rc == PS_ENOTIMPL) { /* the backend cannot: an upload */
                rc = PS_OK;
                ps_error_clear();
            }
        }
        if (!F[f].in_place && !rc)
            rc = ps_decomp_upload(&d, F[f].ctx, fields[f]);
        for (q = 0; q < d.nboxes && !rc; q++)
            rc = ps_context_finish(F[f].ctx[q]);
    }
    st.in_place = nfields > 0 && F[0].in_place;
    st.upload_s = ps_now() - t;
    if (rc)
        goto done;
    for (f = 0; snap && f < nfields; f++)
        if (F[f].in_place) { /* the backend's form of the field: the state back */
            t = ps_now();
            rc = ps_decomp_download(&d, F[f].ctx, fields[f]);
            st.download_s += ps_now() - t;
            if (rc)
                goto done;
        }
    if (!have_ooc && opt->contexts_ready) /* the parameters are packed in every context */
        opt->contexts_ready(opt->user);
    if (snap && (rc = snapshot(opt, 0, fields, nfields, &st)))
        goto done;
    if (cfg.profile && opt->steps > 0) {
        st.step_times = malloc((size_t)opt->steps * sizeof *st.step_times);
        if (!st.step_times) {
            rc = ps_error(PS_ENOMEM, "out of memory for %ld step times", opt->steps);
            goto done;
        }
    }
    /* progress granularity: the first call 1/20 of the run, the next ones about
     * PS_DRIVER_CALL_S seconds each at the pace so far. Backends fuse the steps
     * of one call (temporal blocking, graphs), which a call of a few steps
     * cuts short, so calls are as long as the snapshots allow when nobody
     * watches the progress. */
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
        /* every field the same steps, one after another */
        t = ps_now();
        for (f = 0; f < nfields && !rc; f++)
            rc = have_ooc ? ps_ooc_step(&F[f].ooc, n)
                          : ps_decomp_local_step(&d, &F[f].local, cfg.stencil->radius, n);
        t = ps_now() - t;
        if (rc)
            goto done;
        st.step_s += t;
        if (st.step_times)
            st.step_times[done] = t;
        done += n;
        if (opt->progress) {
            opt->progress(opt->user, done, opt->steps, st.step_s);
            chunk_cap = ps_driver_call_steps(st.step_s, done, chunk_cap);
        }
        if (snap && (done == opt->steps || (opt->every > 0 && done % opt->every == 0))) {
            /* a stop asked for during these steps keeps the snapshots before them;
             * the last one is taken, the run being complete */
            if (opt->cancel && done < opt->steps && opt->cancel(opt->user)) {
                rc = ps_error(PS_ECANCELED, "stopped on request after step %ld of %ld",
                              done - n, opt->steps);
                goto done;
            }
            if ((rc = download_all(&d, F, fields, nfields, &st)) ||
                (rc = snapshot(opt, done, fields, nfields, &st)))
                goto done;
        }
    }
    if ((!snap || opt->steps == 0) && (rc = download_all(&d, F, fields, nfields, &st)))
        goto done;
    st.steps = done;
    for (f = 0; f < nfields; f++) {
        st.exchange_s += F[f].local.exchange_s;
        st.exchange_bytes += F[f].local.bytes;
        if (have_ooc) {
            st.ooc_passes += F[f].ooc.passes;
            st.ooc_bytes += F[f].ooc.bytes;
            st.device_bytes_held += F[f].ooc.device_bytes;
            continue;
        }
        if (f == 0 && ps_context_timing(F[f].ctx[0], &st.device) == PS_OK)
            st.have_device_timing = 1;
        for (q = 0; q < d.nboxes; q++) {
            ps_timing tq;
            st.device_bytes_held += ps_context_timing(F[f].ctx[q], &tq) == PS_OK &&
                                            tq.device_bytes
                                        ? tq.device_bytes
                                        : ps_ooc_footprint(d.boxes[q].box.extent,
                                                           cfg.precision);
        }
    }
    ps_error_clear();
done:
    for (f = 0; F && f < nfields; f++) {
        if (F[f].have_local)
            ps_decomp_local_free(&F[f].local);
        if (F[f].have_ooc)
            ps_ooc_free(&F[f].ooc);
        for (q = 0; F[f].ctx && q < d.nboxes; q++)
            ps_context_destroy(F[f].ctx[q]);
        free(F[f].ctx);
    }
    free(F);
    free(place);
    ps_decomp_free(&d);
    st.total_s = ps_now() - t0;
    if (stats)
        *stats = st;
    else
        free(st.step_times);
    return rc;
}

int ps_run_split(ps_backend *b, const ps_config *cfg, ps_field *field, const ps_run_options *opt,
                 const ps_split_options *so, ps_run_stats *stats)
{
    ps_field *one[1];
    one[0] = field;
    return ps_run_fields(b, cfg, one, 1, opt, so, stats);
}

int ps_run(ps_backend *b, const ps_config *cfg, ps_field *field, const ps_run_options *opt,
           ps_run_stats *stats)
{
    return ps_run_split(b, cfg, field, opt, NULL, stats);
}
