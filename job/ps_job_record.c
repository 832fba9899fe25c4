/*
 * The run record of a pstencil output, written by every run and read back by
 * `run --continue`: the stencil, its parameters, the precision and the model
 * seconds per step, as global attributes pstencil_stencil, pstencil_<option>,
 * pstencil_precision and pstencil_seconds_per_step (docs/user-guide.md,
 * "Restart"). The step count and the model time are the output's step(time)
 * and time(time) variables.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ps_run_record_write(ps_writer *w, const ps_stencil *s, const double *options,
                        ps_precision p, double seconds_per_step)
{
    char name[128];
    int i, st;
    if ((st = ps_writer_put_global(w, "pstencil_stencil", s->name, 0)) ||
        (st = ps_writer_put_global(w, "pstencil_precision", ps_precision_name(p), 0)) ||
        (st = ps_writer_put_global(w, "pstencil_seconds_per_step", NULL, seconds_per_step)))
        return st;
    for (i = 0; i < s->noptions; i++) {
        snprintf(name, sizeof name, "pstencil_%s", s->options[i].name);
        st = isnan(options[i]) ? ps_writer_put_global(w, name, "auto", 0)
                               : ps_writer_put_global(w, name, NULL, options[i]);
        if (st)
            return st;
    }
    return PS_OK;
}

int ps_run_record_read(const ps_dataset *ds, const char *path, ps_run_record *r)
{
    const ps_attr *a = ps_attr_find(&ds->global_attrs, "pstencil_stencil");
    char name[128];
    int i;
    memset(r, 0, sizeof *r);
    if (!a || !a->text)
        return ps_error(PS_EFORMAT, "%s: not the output of pstencil run (no pstencil_stencil "
                                    "attribute): --continue needs one to know the stencil, its "
                                    "parameters and the step count", path);
    r->stencil = ps_stencil_find(a->text);
    if (!r->stencil)
        return ps_error(PS_EFORMAT, "%s: was written by stencil '%s', which this pstencil does "
                                    "not have ('pstencil stencils' lists them)", path, a->text);
    if (r->stencil->noptions > PS_RUN_RECORD_MAXOPT)
        return ps_error(PS_EFORMAT, "stencil %s has too many options", r->stencil->name);
    a = ps_attr_find(&ds->global_attrs, "pstencil_precision");
    if (!a || !a->text || ps_precision_parse(a->text, &r->precision))
        return ps_error(PS_EFORMAT, "%s: its pstencil_precision attribute is missing or not "
                                    "'float' or 'double'", path);
    a = ps_attr_find(&ds->global_attrs, "pstencil_seconds_per_step");
    if (!a || !a->values || a->len != 1 || !(a->values[0] > 0) || !isfinite(a->values[0]))
        return ps_error(PS_EFORMAT, "%s: its pstencil_seconds_per_step attribute is missing or "
                                    "not a positive number", path);
    r->seconds_per_step = a->values[0];
    for (i = 0; i < r->stencil->noptions; i++) {
        snprintf(name, sizeof name, "pstencil_%s", r->stencil->options[i].name);
        a = ps_attr_find(&ds->global_attrs, name);
        if (a && a->text && !strcmp(a->text, "auto") && r->stencil->options[i].allow_auto)
            r->options[i] = NAN;
        else if (a && a->values && a->len == 1 && isfinite(a->values[0]))
            r->options[i] = a->values[0];
        else
            return ps_error(PS_EFORMAT, "%s: does not record the value of %s's option --%s (a "
                                        "%s attribute)", path, r->stencil->name,
                            r->stencil->options[i].name, name);
    }
    return PS_OK;
}

/* The typed value of stencil option @p name (NULL if not typed). */
static const char *typed(const ps_job *a, const char *name)
{
    int g;
    for (g = 0; g < a->ngiven; g++)
        if (!strcmp(a->given[g].name, name))
            return a->given[g].value;
    return NULL;
}

/*
 * run --continue FILE: the stencil, its options, the precision and the seconds
 * per step are the ones FILE records; a value typed on the command line must
 * agree with them (a chain that changes them midway is not one run), and the
 * run starts from FILE's last record, whose step and time it goes on from.
 */
int ps_job_continue_from(ps_job *j)
{
    ps_job *a = j;
    const ps_dataset *ds = &j->ds;
    ps_run_record r;
    const ps_stencil *s;
    int i, rc;
    if ((rc = ps_run_record_read(&j->ds, j->cont, &r)))
        return ps_error(rc, "--continue %s", ps_error_detail());
    if (a->stencil_name && strcmp(a->stencil_name, r.stencil->name))
        return ps_error(PS_EINVAL, "--continue: --stencil %s contradicts %s, which ran stencil %s "
                            "(leave --stencil out)", a->stencil_name, a->cont, r.stencil->name);
    if (!a->stencil_name && !(a->stencil_name = strdup(r.stencil->name)))
        return ps_error(PS_ENOMEM, "out of memory");
    if ((rc = ps_job_resolve_stencil(a)))
        return rc;
    s = a->stencil;
    for (i = 0; i < s->noptions; i++) {
        const char *v = typed(a, s->options[i].name);
        double rec = r.options[i], now = a->options[i];
        if (v && (isnan(rec) != isnan(now) || (!isnan(rec) && rec != now))) {
            char shown[32];
            ps_shortest(rec, shown, sizeof shown);
            return ps_error(PS_EINVAL, "--continue: --%s %s contradicts %s, which ran %s with --%s "
                                "%s (a continued run keeps the parameters: leave --%s out)",
                                s->options[i].name, v, a->cont, s->name, s->options[i].name,
                                isnan(rec) ? "auto" : shown, s->options[i].name);
        }
        a->options[i] = rec;
    }
    if (ps_stencil_option_index(s, "dt") < 0) {
        /* run's own --dt: the model seconds per step of a dimensionless stencil */
        if (a->dt > 0 && a->dt != r.seconds_per_step)
            return ps_error(PS_EINVAL, "--continue: --dt %g contradicts %s, which took %.17g s per "
                                "step (leave --dt out)", a->dt, a->cont, r.seconds_per_step);
        a->dt = r.seconds_per_step == PS_WRITE_DEFAULT_DT ? 0 : r.seconds_per_step;
    }
    if (a->precision_given && a->precision != r.precision)
        return ps_error(PS_EINVAL, "--continue: --precision %s contradicts %s, which ran in %s (leave "
                            "--precision out)", ps_precision_name(a->precision), a->cont,
                            ps_precision_name(r.precision));
    a->precision = r.precision;
    if (ds->ntime == 0)
        return ps_error(PS_EINVAL, "--continue: %s has no time records", a->cont);
    if (a->time_index_given && (size_t)a->time_index != ds->ntime - 1)
        return ps_error(PS_EINVAL, "--continue: --time-index %ld: a continued run starts from the "
                            "last record of %s (%zu); leave --time-index out", a->time_index,
                            a->cont, ds->ntime - 1);
    a->time_index = (long)(ds->ntime - 1);
    a->time_index_given = 1;
    /* the fields of a run of several: the same list, the first one the field read */
    {
        const ps_attr *t = ps_attr_find(&ds->global_attrs, "pstencil_tracers");
        if (t && t->text) {
            if (a->tracers && strcmp(a->tracers, t->text))
                return ps_error(PS_EINVAL, "--continue: --tracers %s contradicts %s, which "
                                "stepped %s (leave --tracers out)", a->tracers, a->cont,
                                t->text);
            if (!a->tracers && !(a->tracers = strdup(t->text)))
                return ps_error(PS_ENOMEM, "out of memory");
        } else if (a->tracers) {
            return ps_error(PS_EINVAL, "--continue: --tracers %s: %s stepped one field (leave "
                            "--tracers out)", a->tracers, a->cont);
        }
        if ((rc = ps_job_field_names(a)))
            return rc;
        if (a->var && strcmp(a->var, ds->var_name)) {
            /* the first field is the one the run read */
            ps_dataset_close(&a->ds);
            if ((rc = ps_dataset_open(&a->ds, a->cont, a->var)))
                return rc;
        }
    }
    a->skip_initial = 1; /* the start is the last record of the file continued */
    return PS_OK;
}

