/*
 * A job in one process: the whole field in memory, the boxes of --split
 * (each a context, on the devices of --devices), or out-of-core slabs when the
 * grid is over the device-memory budget; the driver (ps_run_split) steps it
 * and hands every record to ps_job_on_record().
 */
#include "config.h"
#include "ps_job_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --split, --halo, --devices and the memory budget, checked against the grid and
 * the devices before any output exists */
static int plan(ps_job *j)
{
    const ps_stencil *s = j->stencil;
    ps_split_options *so = &j->so;
    unsigned halo = j->halo ? (unsigned)j->halo : 2u * (unsigned)s->radius;
    int st, q;
    memset(so, 0, sizeof *so);
    if (j->decomp)
        return ps_error(PS_EINVAL, "--decomp lays out the ranks of an MPI run (mpirun -np P); "
                        "in one process, --split PKxPJxPI makes boxes");
    if (j->split) {
        ps_decomp probe;
        st = ps_decomp_parse_split(j->split, j->field.grid, so->split);
        if (!st) {
            st = ps_decomp_create(&probe, j->field.grid, so->split, halo);
            ps_decomp_free(&probe);
        }
        if (st)
            return ps_error(st, "--split: %s", ps_error_detail());
    }
    if (j->halo && (unsigned)j->halo < (unsigned)s->radius)
        return ps_error(PS_EINVAL, "--halo %ld: stencil %s needs at least its radius %d",
                        j->halo, s->name, s->radius);
    so->halo = (unsigned)j->halo;
    if (j->devices) {
        int n = 0;
        if (!strcmp(j->devices, "all")) {
            for (q = 0; q < j->ndev && q < 16; q++)
                j->devlist[q] = q;
            n = q;
        } else {
            long v[16];
            n = ps_parse_long_list("--devices", j->devices, 0, v, 16);
            if (n < 1)
                return PS_EINVAL;
            for (q = 0; q < n; q++) {
                if (v[q] >= j->ndev)
                    return ps_error(PS_EINVAL, "--devices: backend '%s' has no device %ld "
                                    "(0..%d)", ps_backend_name(j->b), v[q], j->ndev - 1);
                j->devlist[q] = (int)v[q];
            }
        }
        so->devices = j->devlist;
        so->ndevices = n;
    }
    /* the device memory budget: given, or the device's memory less a margin; a CPU
     * device's memory is the host's, where streaming would not help */
    if (j->max_mem_given)
        so->max_device_bytes = j->max_mem;
    else if (j->devs[j->dev].memory_bytes && strcmp(j->devs[j->dev].type, "cpu"))
        so->max_device_bytes = j->devs[j->dev].memory_bytes - j->devs[j->dev].memory_bytes / 8;
    if (so->max_device_bytes) {
        /* a budget no slab fits is refused before any output exists; every context
         * holds the stencil's parameters whole (coefficient arrays over the global
         * grid), so they come off the budget of every slab and box */
        ps_ooc_plan op;
        const char *given = j->max_mem_given ? j->max_mem_text : "(default)";
        /* every field has contexts of its own, each with the parameters */
        const uint64_t pbytes = (uint64_t)j->params.array_values *
                                ps_precision_size(j->precision) * (uint64_t)j->nfields;
        if (pbytes >= so->max_device_bytes)
            return ps_error(PS_EINVAL, "--max-device-memory %s: stencil %s's coefficient "
                            "arrays take %llu bytes in every context, the whole budget (%llu "
                            "bytes); give a larger budget", given, s->name,
                            (unsigned long long)pbytes,
                            (unsigned long long)so->max_device_bytes);
        so->max_device_bytes -= pbytes; /* what the slabs and boxes may take */
        st = ps_ooc_plan_auto(j->field.grid, j->precision, s->radius, (unsigned)j->halo, 0,
                              so->max_device_bytes / (uint64_t)j->nfields, &op);
        if (st && pbytes)
            return ps_error(st, "--max-device-memory %s: %s (what is left after stencil %s's "
                            "coefficient arrays, %llu bytes in every context)", given,
                            ps_error_detail(), s->name, (unsigned long long)pbytes);
        if (st)
            return ps_error(st, "--max-device-memory %s: %s", given, ps_error_detail());
        if (j->split && so->split[0] * so->split[1] * so->split[2] > 1) {
            /* split boxes are not streamed: each must fit */
            ps_decomp probe;
            st = ps_decomp_create(&probe, j->field.grid, so->split, halo);
            for (q = 0; !st && q < probe.nboxes; q++) {
                uint64_t need = ps_ooc_footprint(probe.boxes[q].box.extent, j->precision) *
                                (uint64_t)j->nfields;
                if (need > so->max_device_bytes)
                    st = ps_error(PS_EINVAL, "--split %s: box %d needs about %llu bytes of "
                                  "device memory%s, over --max-device-memory %s (split boxes "
                                  "are not streamed out of core: use more boxes)", j->split, q,
                                  (unsigned long long)need,
                                  j->nfields > 1 ? " for its fields" : "", given);
            }
            ps_decomp_free(&probe);
            if (st)
                return st;
        }
    }
    return PS_OK;
}

int ps_job_prepare_local(ps_job *j)
{
    char source[1024];
    double t = ps_now();
    int st;
    /* every file the job writes is checked before anything runs */
    if (j->output && (st = ps_outfile_check(j->output, j->input ? j->input : j->cont,
                                            j->force, "output")))
        return strstr(ps_error_detail(), j->output)
                   ? st : ps_error(st, "%s: %s", j->output, ps_error_detail());
    j->rep.open_s = ps_now() - t;
    if ((st = ps_job_read_input(j)))
        return st;
    t = ps_now();
    if ((st = ps_job_check_ocean(j, &j->field, ps_field_cells(&j->field))) ||
        (st = ps_job_read_fields(j, NULL)))
        return st;
    /* the stencil's parameters, before anything is written: a bad option, missing
     * coordinates or an unstable time step fails with no output */
    if ((st = ps_job_prepare_stencil(j, j->field.grid)) ||
        (st = ps_job_prepare_reduce(j, j->field.grid)))
        return st;
    j->rep.prepare_s = ps_now() - t;
    t = ps_now();
    if ((st = ps_job_open_backend(j)))
        return st;
    j->rep.backend_s = ps_now() - t;
    if ((st = ps_job_pick_device(j)))
        return st;
    t = ps_now();
    if ((st = plan(j)))
        return st;
    j->rep.prepare_s += ps_now() - t;
    snprintf(source, sizeof source, "pstencil %s, backend %s, device %s, %s, %s mode",
             PACKAGE_VERSION, ps_backend_name(j->b), j->devs[j->dev].name,
             ps_precision_name(j->precision), ps_mode_name(j->mode));
    t = ps_now();
    if ((st = ps_job_open_output(j, NULL, source)))
        return st;
    j->rep.open_s += ps_now() - t;
    if (j->keep_initial) {
        st = ps_field_alloc(&j->initial, j->field.grid, j->field.precision);
        if (!st)
            st = ps_field_convert(&j->initial, &j->field);
        if (st)
            return st;
    }
    if (j->every > 0)
        j->expect_records = j->steps / j->every + 1 + (j->steps % j->every ? 1 : 0);
    else
        j->expect_records = j->steps > 0 ? 2 : 1;
    j->expect_records -= j->skip_initial;
    return PS_OK;
}

/*
 * Every ocean cell of a record must still be finite: a NaN would be written as
 * the fill value and silently turn ocean into land, an infinity is no
 * temperature. PS_ERANGE naming the first bad cell and the step.
 */
static int check_finite(ps_job *j, long step, const ps_field *f)
{
    const ps_grid *g = &f->grid;
    size_t n = g->nx * g->ny * g->nz, c, bad = 0, first = 0;
    char clean[96];
    for (c = 0; c < n; c++)
        if (!isfinite(ps_job_value_at(f, c)) && !ps_job_land_at(j->land, c) && !bad++)
            first = c;
    if (!bad) {
        j->last_clean = step;
        return PS_OK;
    }
    if (j->keep_nonfinite) /* asked for: the input had such cells */
        return PS_OK;
    j->rep.blew_up = 1;
    if (j->last_clean >= 0)
        snprintf(clean, sizeof clean, "the last snapshot with every ocean cell finite was step "
                 "%ld", j->last_clean);
    else
        snprintf(clean, sizeof clean, "no earlier snapshot was checked");
    return ps_error(PS_ERANGE, "the run blew up: %zu ocean cell%s non-finite at step %ld (first "
                    "at level %zu, row %zu, column %zu: %g); %s. Nothing was written", bad,
                    bad == 1 ? " is" : "s are", step, first / (g->nx * g->ny),
                    first / g->nx % g->ny, first % g->nx, ps_job_value_at(f, first),
                    clean);
}

static int on_snapshot(void *user, long step, ps_field *const *f, int n)
{
    static const size_t origin[3] = {0, 0, 0};
    ps_job *j = user;
    long clean = j->last_clean;
    int st = PS_OK, q;
    for (q = 0; q < n && !st; q++) {
        j->last_clean = clean;
        st = check_finite(j, step, f[q]);
        if (st && n > 1)
            st = ps_error(st, "%s: %s", j->fname[q], ps_error_detail());
    }
    if (st)
        return st;
    return ps_job_on_record(j, step, f, n, origin);
}

static void on_progress(void *user, long done, long total, double elapsed)
{
    ps_job *j = user;
    j->cb.progress(j->cb.user, done, total, elapsed);
}

/* Every context packed the stencil's parameters: the job's float64 coefficient
 * arrays (an advection stencil's six per-cell rates: 48 bytes a cell) are not
 * needed for the rest of the run. */
static void on_contexts_ready(void *user)
{
    ps_job_release_arrays(user);
}

static int on_cancel(void *user)
{
    ps_job *j = user;
    if (!j->cancel_code)
        j->cancel_code = ps_job_cancelled(j);
    return j->cancel_code != 0;
}

int ps_job_run_local(ps_job *j)
{
    ps_config cfg;
    ps_run_options ro;
    ps_field *fields[PS_JOB_MAX_FIELDS];
    double t;
    int st, n, q;
    ps_job_config(j, j->field.grid, (int)j->device, &cfg);
    cfg.profile = j->step_times; /* per-step times: the report's min/median/max */
    memset(&ro, 0, sizeof ro);
    ro.steps = j->steps;
    ro.every = j->every;
    ro.snapshot_fields = on_snapshot;
    ro.progress = j->cb.progress ? on_progress : NULL;
    ro.cancel = on_cancel;
    ro.contexts_ready = on_contexts_ready;
    ro.user = j;
    /* a field of the job's own is stepped in place where the backend can; the
     * caller's memory keeps the last record's state should the run stop */
    ro.in_place = j->field_owned;
    n = ps_job_field_list(j, fields);
    st = ps_run_fields(j->b, &cfg, fields, n, &ro, &j->so, &j->rep.stats);
    j->rep.steps = j->rep.stats.steps;
    if (st == PS_ECANCELED && j->cancel_code)
        return ps_job_keep_completed(j, ps_job_cancel_reason(j, j->cancel_code));
    if (st)
        return st;
    j->rep.checksum = ps_field_checksum(&j->field);
    for (q = 0; q < n; q++)
        j->rep.field_checksum[q] = ps_field_checksum(fields[q]);
    if (j->writer) {
        t = ps_now();
        errno = 0;
        st = ps_writer_commit(j->writer);
        j->rep.commit_s = ps_now() - t;
        if (st) {
            ps_job_write_failed(j, errno);
            return st;
        }
    }
    return PS_OK;
}
