/*
 * A stencil's auxiliary inputs (core/ps_stencil.h, ps_stencil_input: the
 * currents) over the global grid, for ps_stencil_prepare(). Each comes from
 * the first of: the caller's memory (ps_job_set_input()), the record of the
 * run continued (the same place as that run's), the file of --velocity, the
 * input file itself, and for the built-in ocean the gyre of core/ps_currents.h.
 * Every source is masked the same way: NaN at every land cell of the field, a
 * missing value at an ocean cell refused.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PS_JOB_GYRE_SPEED PS_OCEAN_GYRE_SPEED

int ps_job_set_input(ps_job *j, const char *name, const double *values)
{
    int i;
    if (!j || !name || !*name || !values)
        return ps_error(PS_EINVAL, "no job, input name or values");
    if (j->prepared)
        return ps_error(PS_EINVAL, "input %s: the job is already prepared", name);
    for (i = 0; i < j->ncaller; i++)
        if (!strcmp(j->caller_name[i], name))
            break;
    if (i == PS_JOB_MAX_INPUTS)
        return ps_error(PS_EINVAL, "more than %d inputs", PS_JOB_MAX_INPUTS);
    if (strlen(name) >= sizeof j->caller_name[i])
        return ps_error(PS_EINVAL, "input name '%s' is too long", name);
    snprintf(j->caller_name[i], sizeof j->caller_name[i], "%s", name);
    j->caller_in[i] = values;
    if (i == j->ncaller)
        j->ncaller++;
    return PS_OK;
}

int ps_job_set_input_file(ps_job *j, const char *path)
{
    return ps_job_set(j, "velocity", path);
}

/* The built-in ocean's gyre component (ps_ocean_currents()) for input @p in, the one
 * ps_currents_axis() names; *have 0: no component carries it. */
static int gyre(ps_job *j, const ps_stencil_input *in, ps_grid g, const ps_grid_coords *c,
                double *out, int *have)
{
    const int axis = ps_currents_axis(in);
    size_t n = g.nz * g.ny * g.nx;
    double *other;
    int st;
    *have = 0;
    if (axis == PS_CURRENT_NONE)
        return PS_OK;
    if (!c->depth || !c->lat || !c->lon)
        return ps_error(PS_EINVAL, "the gyre currents need the grid's coordinates");
    if (!(other = malloc(n * sizeof *other)))
        return ps_error(PS_ENOMEM, "out of memory (gyre currents of %zu cells)", n);
    st = axis == PS_CURRENT_U ? ps_ocean_currents(g, c, out, other)
                              : ps_ocean_currents(g, c, other, out);
    free(other);
    if (st)
        return st;
    (void)j;
    *have = 1;
    return PS_OK;
}

/* Input @p in from file @p path (record @p record, or -1: the field's rule). PS_ENOVAR
 * (quietly) when the file has no such variable. */
static int from_file(ps_job *j, const ps_stencil_input *in, const char *path, long record,
                     double *out, int q)
{
    ps_aux_info info;
    ps_grid g = j->ds.grid;
    int st = ps_dataset_read_aux(path, &j->ds, in->standard_names, in->unit, record,
                                 (size_t)j->time_index, 0, g.nz, out, &info);
    if (st)
        return st;
    snprintf(j->rep.input_from[q], sizeof j->rep.input_from[q], "%s, variable %s, record %zu%s%s%s",
             path, info.var_name, info.record, info.converted ? ", converted from " : "",
             info.converted ? info.units : "", info.converted ? " to " : "");
    if (info.converted)
        snprintf(j->rep.input_from[q] + strlen(j->rep.input_from[q]),
                 sizeof j->rep.input_from[q] - strlen(j->rep.input_from[q]), "%s", in->unit);
    snprintf(j->in_rec[q], sizeof j->in_rec[q], "file %zu %s", info.record, path);
    return PS_OK;
}

/* "u, v": the standard names of @p in, readable */
static void names_of(const ps_stencil_input *in, char *buf, size_t len)
{
    size_t i, k = 0;
    for (i = 0; in->standard_names[i] && k + 5 < len; i++) {
        if (in->standard_names[i] == '|') {
            memcpy(buf + k, " or ", 4);
            k += 4;
        } else {
            buf[k++] = in->standard_names[i];
        }
    }
    buf[k] = '\0';
}

/* The recorded source of input @p name of the run continued ("" if none). */
static const char *recorded(const ps_job *j, const char *name)
{
    char key[64];
    const ps_attr *a;
    snprintf(key, sizeof key, "pstencil_input_%s", name);
    a = ps_attr_find(&j->ds.global_attrs, key);
    return a && a->text ? a->text : "";
}

/* Input @p q into @p out, or *given = 0 when no source has it (an optional one). */
static int take(ps_job *j, int q, ps_grid g, const ps_grid_coords *c, double *out, int *given)
{
    const ps_stencil_input *in = &j->stencil->inputs[q];
    size_t n = g.nz * g.ny * g.nx;
    char names[512];
    int i, st, have;
    *given = 1;
    for (i = 0; i < j->ncaller; i++)
        if (!strcmp(j->caller_name[i], in->name)) {
            memcpy(out, j->caller_in[i], n * sizeof *out);
            snprintf(j->rep.input_from[q], sizeof j->rep.input_from[q], "the caller's memory");
            snprintf(j->in_rec[q], sizeof j->in_rec[q], "caller");
            return PS_OK;
        }
    if (j->cont && *recorded(j, in->name)) {
        /* a continued run takes it from where the run continued took it */
        const char *r = recorded(j, in->name);
        size_t rec;
        int at = 0;
        if (!strcmp(r, "gyre") || !strcmp(r, "none")) {
            if (j->velocity)
                return ps_error(PS_EINVAL, "--continue: %s took %s from %s, not from a file: "
                                "leave --velocity out", j->cont, in->name,
                                !strcmp(r, "gyre") ? "the gyre of the built-in ocean" : "nowhere");
            if (!strcmp(r, "none")) {
                snprintf(j->in_rec[q], sizeof j->in_rec[q], "none");
                snprintf(j->rep.input_from[q], sizeof j->rep.input_from[q], "not given");
                if (in->required)
                    return ps_error(PS_EINVAL, "--continue: %s records no source of %s",
                                    j->cont, in->name);
                return *given = 0, PS_OK;
            }
            if ((st = gyre(j, in, g, c, out, &have)))
                return st;
            snprintf(j->rep.input_from[q], sizeof j->rep.input_from[q],
                     "the built-in ocean's gyre (%g m s-1), as %s", PS_JOB_GYRE_SPEED, j->cont);
            snprintf(j->in_rec[q], sizeof j->in_rec[q], "gyre");
            return PS_OK;
        }
        if (sscanf(r, "file %zu %n", &rec, &at) == 1 && at > 0) {
            if (j->velocity && strcmp(j->velocity, r + at))
                return ps_error(PS_EINVAL, "--continue: --velocity %s contradicts %s, which "
                                "took %s from %s (leave --velocity out)", j->velocity, j->cont,
                                in->name, r + at);
            st = from_file(j, in, r + at, (long)rec, out, q);
            return st ? ps_error(st, "--continue %s: %s (the file %s was read from): %s",
                                 j->cont, in->name, r + at, ps_error_detail())
                      : PS_OK;
        }
        return ps_error(PS_EINVAL, "--continue: %s took %s from the caller's memory (%s): "
                        "give it again (ps_job_set_input)", j->cont, in->name, r);
    }
    if (j->velocity) {
        st = from_file(j, in, j->velocity, -1, out, q);
        if (st != PS_ENOVAR)
            return st;
    }
    if (j->input && !j->cont) {
        st = from_file(j, in, j->input, -1, out, q);
        if (st != PS_ENOVAR)
            return st;
    }
    if (!j->input && !j->in_field) {
        if ((st = gyre(j, in, g, c, out, &have)))
            return st;
        if (have) {
            snprintf(j->rep.input_from[q], sizeof j->rep.input_from[q],
                     "the built-in ocean's gyre (%g m s-1)", PS_JOB_GYRE_SPEED);
            snprintf(j->in_rec[q], sizeof j->in_rec[q], "gyre");
            return PS_OK;
        }
    }
    *given = 0;
    snprintf(j->in_rec[q], sizeof j->in_rec[q], "none");
    snprintf(j->rep.input_from[q], sizeof j->rep.input_from[q], "not given");
    if (!in->required)
        return PS_OK;
    names_of(in, names, sizeof names);
    if (j->velocity || j->input || j->cont)
        return ps_error(PS_ENOVAR, "stencil %s needs the %s (%s): no variable with standard_name "
                        "%s in %s%s%s; give a file that has it with --velocity FILE",
                        j->stencil->name, in->help, in->name, names,
                        j->velocity ? j->velocity : j->input ? j->input : j->cont,
                        j->velocity && j->input && !j->cont ? " or " : "",
                        j->velocity && j->input && !j->cont ? j->input : "");
    return ps_error(PS_ENOVAR, "stencil %s needs the %s (%s, standard_name %s): give it with "
                    "ps_job_set_input(), or a file that has it with --velocity FILE",
                    j->stencil->name, in->help, in->name, names);
}

/* NaN at land; a missing value at an ocean cell refused, naming the first. */
static int mask(ps_job *j, int q, ps_grid g, const uint64_t *land, double *v)
{
    size_t n = g.nz * g.ny * g.nx, c, plane = g.ny * g.nx;
    for (c = 0; c < n; c++) {
        if (ps_job_land_at(land, c))
            v[c] = NAN;
        else if (!isfinite(v[c]))
            return ps_error(PS_EINVAL, "%s (%s, from %s) is %s at ocean cell (level %zu, row "
                            "%zu, column %zu) of %s: every ocean cell of the field needs a "
                            "finite value", j->stencil->inputs[q].name,
                            j->stencil->inputs[q].help, j->rep.input_from[q],
                            isnan(v[c]) ? "missing" : "infinite", c / plane, c / g.nx % g.ny,
                            c % g.nx, ps_job_input_name(j));
    }
    return PS_OK;
}

int ps_job_read_inputs(ps_job *j, ps_grid g, const ps_grid_coords *c, const uint64_t *land,
                       double **vals)
{
    const ps_stencil *s = j->stencil;
    size_t n = g.nz * g.ny * g.nx;
    int q, i, st, given;
    if (s->ninputs > PS_JOB_MAX_INPUTS)
        return ps_error(PS_EINTERNAL, "stencil %s has more than %d inputs", s->name,
                        PS_JOB_MAX_INPUTS);
    for (i = 0; i < j->ncaller; i++)
        if (ps_stencil_input_index(s, j->caller_name[i]) < 0)
            return ps_error(PS_EINVAL, "input '%s' given, but stencil %s has %s", j->caller_name[i],
                            s->name, s->ninputs ? "other inputs (see 'pstencil stencils')"
                                                : "no inputs");
    if (j->velocity && !s->ninputs)
        return ps_error(PS_EINVAL, "--velocity: stencil %s takes no currents", s->name);
    j->rep.ninputs = s->ninputs;
    for (q = 0; q < s->ninputs; q++) {
        j->rep.input_names[q] = s->inputs[q].name;
        if (!(vals[q] = malloc(n * sizeof **vals)))
            return ps_error(PS_ENOMEM, "out of memory (input %s of %zu cells)",
                            s->inputs[q].name, n);
        if ((st = take(j, q, g, c, vals[q], &given)))
            return st;
        if (!given) {
            free(vals[q]);
            vals[q] = NULL;
            continue;
        }
        if ((st = mask(j, q, g, land, vals[q])))
            return st;
    }
    return PS_OK;
}
