/*
 * A job's settings, its stencil and options, its outputs, and the two steps
 * every front end calls: ps_job_prepare() and ps_job_run(), which go to the
 * one-process path (ps_job_local.c) or the path over ranks (ps_job_ranks.c).
 */
#include "config.h"
#include "ps_job_internal.h"
#include "ps_mem.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define JOB_DEFAULT_STEPS 100

/* a stencil option named like one of the job's own would be shadowed, an alias
 * letter like a job option's would be taken twice: a stencil-file bug */
static int check_registry(void)
{
    int i, o, k;
    for (i = 0; i < ps_stencil_count(); i++) {
        const ps_stencil *s = ps_stencil_at(i);
        if (s->noptions > PS_JOB_MAX_OPTIONS)
            return ps_error(PS_EINTERNAL, "stencil %s has more than %d options", s->name,
                            PS_JOB_MAX_OPTIONS);
        for (o = 0; o < s->noptions; o++)
            for (k = 0; k < ps_job_option_count(); k++) {
                const ps_job_option *r = ps_job_option_at(k);
                if (r->stencil)
                    continue;
                if (!strcmp(r->name, s->options[o].name) && strcmp(r->name, "dt"))
                    return ps_error(PS_EINTERNAL, "stencil %s: its option --%s has the name "
                                    "of an option of a run (rename it in kernels/%s)", s->name,
                                    r->name, s->kernel_file);
                if (s->options[o].alias && r->short_name == s->options[o].alias)
                    return ps_error(PS_EINTERNAL, "stencil %s: the alias -%c of its option "
                                    "--%s is the short form of --%s (change it in kernels/%s)",
                                    s->name, s->options[o].alias, s->options[o].name, r->name,
                                    s->kernel_file);
            }
    }
    return PS_OK;
}

int ps_job_create(ps_job **out)
{
    ps_job *j;
    int st;
    if (!out)
        return ps_error(PS_EINVAL, "no place for the job");
    *out = NULL;
    if ((st = check_registry()))
        return st;
    j = calloc(1, sizeof *j);
    if (!j)
        return ps_error(PS_ENOMEM, "out of memory");
    j->steps = JOB_DEFAULT_STEPS;
    j->device = -1;
    j->precision = PS_FLOAT32;
    j->mode = PS_MODE_EXACT;
    j->ds.ncid = -1;
    j->last_clean = -1;
    j->t0 = ps_now();
    j->comm.size = 1;
    *out = j;
    return PS_OK;
}

void ps_job_destroy(ps_job *j)
{
    int i;
    if (!j)
        return;
    ps_writer_abort(j->writer);
    for (i = 0; i < PS_JOB_MAX_FIELDS; i++) {
        if (j->ctx[i])
            ps_context_destroy(j->ctx[i]);
        ps_field_free(&j->own[i]);
        ps_field_free(&j->xf[i]);
        if (j->have_xds[i])
            ps_dataset_close(&j->xds[i]);
    }
    if (j->have_d)
        ps_decomp_free(&j->d);
    free(j->land);
    free(j->gland);
    free(j->velocity);
    free(j->tracers);
    free(j->rep.stats.step_times);
    ps_field_free(&j->initial);
    if (j->field_owned)
        ps_field_free(&j->field);
    if (j->have_ds)
        ps_dataset_close(&j->ds);
    ps_grid_coords_free(&j->coords);
    free(j->vol);
    ps_params_free(&j->params);
    ps_backend_close(j->b);
    for (i = 0; i < j->ngiven; i++) {
        free(j->given[i].name);
        free(j->given[i].value);
    }
    free(j->input);
    free(j->output);
    free(j->var);
    free(j->backend);
    free(j->cont);
    free(j->split);
    free(j->devices);
    free(j->decomp);
    free(j->stencil_name);
    free(j->history);
    free(j->default_output);
    free(j);
}

static int set_text(char **dst, const char *v)
{
    char *c = strdup(v);
    if (!c)
        return ps_error(PS_ENOMEM, "out of memory");
    free(*dst);
    *dst = c;
    return PS_OK;
}

static int parse_block(const char *s, int block[3])
{
    long v[3] = {0, 0, 0};
    int n = ps_parse_long_list("--block", s, 1, v, 3), i;
    if (n < 0)
        return PS_EINVAL;
    for (i = 0; i < 3; i++) {
        if (v[i] > 1024)
            return ps_error(PS_EINVAL, "--block: %ld is larger than any work-group dimension",
                            v[i]);
        block[i] = (int)v[i];
    }
    return PS_OK;
}

/* a stencil option's text, kept until the stencil is known; the last one of a name wins */
static int remember(ps_job *j, const char *name, const char *value)
{
    int i;
    double v;
    if (strcmp(value, "auto")) {
        char opt[128];
        snprintf(opt, sizeof opt, "--%s", name);
        if (ps_parse_double(opt, value, &v))
            return PS_EINVAL;
    }
    for (i = 0; i < j->ngiven; i++)
        if (!strcmp(j->given[i].name, name))
            return set_text(&j->given[i].value, value);
    if (j->ngiven >= PS_JOB_MAX_OPTIONS)
        return ps_error(PS_EINVAL, "too many stencil options");
    j->given[j->ngiven].name = strdup(name);
    j->given[j->ngiven].value = strdup(value);
    if (!j->given[j->ngiven].name || !j->given[j->ngiven].value)
        return ps_error(PS_ENOMEM, "out of memory");
    j->ngiven++;
    return PS_OK;
}

int ps_job_set(ps_job *j, const char *name, const char *value)
{
    const ps_job_option *o;
    const char *n;
    if (!j || !name)
        return ps_error(PS_EINVAL, "no job or option name");
    if (j->prepared)
        return ps_error(PS_EINVAL, "--%s: the job is already prepared", name);
    o = ps_job_option_find(name);
    if (!o)
        return ps_error(PS_EINVAL, "unknown option --%s (see 'pstencil run --help')", name);
    if (o->alias_of)
        o = ps_job_option_find(o->alias_of);
    n = o->name;
    if (o->takes_value && !value)
        return ps_error(PS_EINVAL, "option --%s needs a value", n);
    if (!o->takes_value && value)
        return ps_error(PS_EINVAL, "option --%s takes no value", n);
    if (o->stencil && strcmp(n, "dt"))
        return remember(j, n, value);
    if (!strcmp(n, "dt"))
        return remember(j, n, value); /* the stencil's or the run's: see resolve */
    if (!strcmp(n, "input"))
        return set_text(&j->input, value);
    if (!strcmp(n, "output"))
        return set_text(&j->output, value);
    if (!strcmp(n, "scale")) {
        if (ps_parse_double("--scale", value, &j->scale))
            return PS_EINVAL;
        if (!(j->scale > 0 && j->scale <= 1000)) {
            j->scale = 0;
            return ps_error(PS_EINVAL, "--scale: %s is out of range (0 < S <= 1000)", value);
        }
        snprintf(j->scale_name, sizeof j->scale_name, "built-in ocean, scale %g", j->scale);
        return PS_OK;
    }
    if (!strcmp(n, "steps"))
        return ps_parse_long("--steps", value, 0, LONG_MAX / 2, &j->steps);
    if (!strcmp(n, "stencil"))
        return set_text(&j->stencil_name, value);
    if (!strcmp(n, "precision")) {
        j->precision_given = 1;
        return ps_precision_parse(value, &j->precision)
                   ? ps_error(PS_EINVAL, "--precision: %s", ps_error_detail()) : PS_OK;
    }
    if (!strcmp(n, "mode"))
        return ps_mode_parse(value, &j->mode)
                   ? ps_error(PS_EINVAL, "--mode: %s", ps_error_detail()) : PS_OK;
    if (!strcmp(n, "kernel"))
        return ps_kernel_parse(value, &j->kernel)
                   ? ps_error(PS_EINVAL, "--kernel: %s", ps_error_detail()) : PS_OK;
    if (!strcmp(n, "backend"))
        return set_text(&j->backend, value);
    if (!strcmp(n, "device"))
        return ps_parse_long("--device", value, 0, 1023, &j->device);
    if (!strcmp(n, "threads"))
        return ps_parse_long("--threads", value, 1, PS_THREADS_MAX, &j->threads);
    if (!strcmp(n, "block"))
        return parse_block(value, j->block);
    if (!strcmp(n, "var"))
        return set_text(&j->var, value);
    if (!strcmp(n, "velocity"))
        return set_text(&j->velocity, value);
    if (!strcmp(n, "tracers"))
        return set_text(&j->tracers, value);
    if (!strcmp(n, "time-index")) {
        j->time_index_given = 1;
        return ps_parse_long("--time-index", value, 0, LONG_MAX, &j->time_index);
    }
    if (!strcmp(n, "continue"))
        return set_text(&j->cont, value);
    if (!strcmp(n, "output-every"))
        return ps_parse_long("--output-every", value, 0, LONG_MAX, &j->every);
    if (!strcmp(n, "compress"))
        return ps_parse_long("--compress", value, 0, 9, &j->compress);
    if (!strcmp(n, "force"))
        return j->force = 1, PS_OK;
    if (!strcmp(n, "allow-unstable"))
        return j->allow_unstable = 1, PS_OK;
    if (!strcmp(n, "keep-nonfinite"))
        return j->keep_nonfinite = 1, PS_OK;
    if (!strcmp(n, "split"))
        return set_text(&j->split, value);
    if (!strcmp(n, "decomp"))
        return set_text(&j->decomp, value);
    if (!strcmp(n, "halo"))
        return ps_parse_long("--halo", value, 1, 1024, &j->halo);
    if (!strcmp(n, "devices"))
        return set_text(&j->devices, value);
    if (!strcmp(n, "knob"))
        return ps_knobs_set(&j->knobs, value) ? ps_error(PS_EINVAL, "--knob: %s", ps_error_detail())
                                               : PS_OK;
    if (!strcmp(n, "max-device-memory")) {
        j->max_mem_given = 1;
        snprintf(j->max_mem_text, sizeof j->max_mem_text, "%s", value);
        return ps_parse_size("--max-device-memory", value, &j->max_mem);
    }
    return ps_error(PS_EINTERNAL, "option --%s has no rule", n);
}

int ps_job_set_input_field(ps_job *j, const ps_field *field, const ps_grid_coords *coords)
{
    if (!j || !field || !field->data)
        return ps_error(PS_EINVAL, "no field");
    if (ps_field_cells(field) == 0)
        return ps_error(PS_EINVAL, "the field has no cells");
    j->in_field = field;
    j->in_coords = coords;
    return PS_OK;
}

int ps_job_set_result(ps_job *j, ps_field *result)
{
    if (!j || !result || !result->data)
        return ps_error(PS_EINVAL, "no result field");
    j->result = result;
    return PS_OK;
}

int ps_job_set_callbacks(ps_job *j, const ps_job_callbacks *cb)
{
    if (!j)
        return ps_error(PS_EINVAL, "no job");
    memset(&j->cb, 0, sizeof j->cb);
    if (cb)
        j->cb = *cb;
    return PS_OK;
}

int ps_job_set_comm(ps_job *j, const ps_job_comm *comm)
{
    if (!j)
        return ps_error(PS_EINVAL, "no job");
    if (!comm) {
        memset(&j->comm, 0, sizeof j->comm);
        j->comm.size = 1;
        j->ranked = 0;
        return PS_OK;
    }
    if (comm->size < 1 || comm->rank < 0 || comm->rank >= comm->size || !comm->agree ||
        !comm->sum || !comm->max || !comm->share || !comm->layout || !comm->transport ||
        !comm->writer || !comm->checksum)
        return ps_error(PS_EINVAL, "the ranks' callbacks are incomplete");
    j->comm = *comm;
    j->ranked = 1;
    return PS_OK;
}

int ps_job_set_history(ps_job *j, const char *line)
{
    return j && line ? set_text(&j->history, line) : ps_error(PS_EINVAL, "no history");
}

int ps_job_set_default_output(ps_job *j, const char *pattern)
{
    return j && pattern ? set_text(&j->default_output, pattern)
                        : ps_error(PS_EINVAL, "no default output");
}

int ps_job_keep_initial(ps_job *j, int keep)
{
    if (!j)
        return ps_error(PS_EINVAL, "no job");
    j->keep_initial = keep != 0;
    return PS_OK;
}

int ps_job_time_steps(ps_job *j, int on)
{
    if (!j)
        return ps_error(PS_EINVAL, "no job");
    j->step_times = on != 0;
    return PS_OK;
}

void ps_job_note(ps_job *j, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    if (!j->cb.note || (j->ranked && j->comm.rank != 0))
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    j->cb.note(j->cb.user, text);
}

/* "a, b and c": the registry's names */
static void stencil_names(char *buf, size_t len)
{
    int i, n = ps_stencil_count();
    size_t used = 0;
    buf[0] = '\0';
    for (i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0 ? "" : i == n - 1 ? " and " : ", ",
                                 ps_stencil_at(i)->name);
}

/* The stencils other than @p s that have option @p name. */
static void option_owners(const ps_stencil *s, const char *name, char *buf, size_t len)
{
    int i;
    size_t used = 0;
    buf[0] = '\0';
    for (i = 0; i < ps_stencil_count() && used < len; i++) {
        const ps_stencil *o = ps_stencil_at(i);
        if (o != s && ps_stencil_option_index(o, name) >= 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     o->name);
    }
}

int ps_job_resolve_stencil(ps_job *j)
{
    const ps_stencil *s;
    char buf[512];
    int g, st;
    if (j->stencil_name) {
        s = ps_stencil_find(j->stencil_name);
        if (!s) {
            stencil_names(buf, sizeof buf);
            return ps_error(PS_EINVAL, "--stencil: unknown stencil '%s'; the stencils are %s "
                            "(see 'pstencil stencils')", j->stencil_name, buf);
        }
    } else {
        s = ps_stencil_default();
    }
    j->stencil = s;
    ps_stencil_default_options(s, j->options);
    for (g = 0; g < j->ngiven; g++) {
        const char *name = j->given[g].name, *v = j->given[g].value;
        int idx = ps_stencil_option_index(s, name);
        if (idx >= 0) {
            double x = NAN;
            if (strcmp(v, "auto"))
                x = strtod(v, NULL); /* parsed when it was set */
            if ((st = ps_stencil_check_option(s, idx, x)))
                return st;
            j->options[idx] = x;
        } else if (!strcmp(name, "dt")) {
            /* the run's own --dt: model seconds per step of a dimensionless stencil */
            if (!strcmp(v, "auto"))
                return ps_error(PS_EINVAL, "--dt auto: stencil %s has no time step of its own "
                                "to choose; give model seconds per step", s->name);
            j->dt = strtod(v, NULL);
            if (!(j->dt > 0))
                return ps_error(PS_EINVAL, "--dt: must be positive (seconds per step)");
        } else {
            option_owners(s, name, buf, sizeof buf);
            return ps_error(PS_EINVAL, "--%s is an option of stencil %s, not of %s (choose "
                            "the stencil with --stencil; 'pstencil stencils' lists them)", name,
                            buf, s->name);
        }
    }
    j->rep.stencil = s;
    return PS_OK;
}

/* The output path: given, or the default (its directory made, replaced). */
static int output_path(ps_job *j, int *replace)
{
    *replace = 0;
    if (j->output) {
        snprintf(j->outpath, sizeof j->outpath, "%s", j->output);
        return PS_OK;
    }
    if (!j->default_output) {
        j->outpath[0] = '\0';
        return PS_OK;
    }
    {
        char dir[4096], *slash;
        const char *pct = strstr(j->default_output, "%s");
        if (pct)
            snprintf(j->outpath, sizeof j->outpath, "%.*s%s%s", (int)(pct - j->default_output),
                     j->default_output, ps_backend_name(j->b), pct + 2);
        else
            snprintf(j->outpath, sizeof j->outpath, "%s", j->default_output);
        snprintf(dir, sizeof dir, "%s", j->outpath);
        slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            if (mkdir(dir, 0777) && errno != EEXIST)
                return ps_error(PS_EIO, "cannot create the output folder '%s': %s", dir,
                                strerror(errno));
        }
    }
    *replace = 1;
    return PS_OK;
}

int ps_job_open_output(ps_job *j, const ps_write_parallel *par, const char *source)
{
    ps_write_options wo;
    double rec[PS_JOB_MAX_OPTIONS];
    int replace, st, i;
    if ((st = output_path(j, &replace)))
        return st;
    if (!j->outpath[0])
        return PS_OK; /* records go to the record callback only */
    if (replace && (!j->ranked || j->comm.rank == 0) &&
        (st = ps_outfile_check(j->outpath, j->input, 1, "output")))
        return st;
    j->rep.output = j->outpath;
    memset(&wo, 0, sizeof wo);
    wo.path = j->outpath;
    wo.force = j->force || replace;
    wo.compress = (int)j->compress;
    wo.dt = j->dt; /* 0: PS_WRITE_DEFAULT_DT */
    wo.time_index = j->time_index;
    wo.last_step = j->steps; /* the time axis is checked up to it before the run */
    wo.history = j->history ? j->history : "pstencil job";
    wo.source = source;
    wo.precision = j->precision;
    wo.parallel = par;
    st = ps_writer_open(&j->writer, j->have_ds ? &j->ds : NULL, &wo);
    if (!st)
        st = ps_writer_reductions(j->writer, j->vol != NULL, j->vol_why);
    if (st) {
        /* the input's time axis cannot be continued: the message names the input */
        if (j->input && strstr(ps_error_detail(), j->input))
            return st;
        return strstr(ps_error_detail(), j->outpath)
                   ? st : ps_error(st, "%s: %s", j->outpath, ps_error_detail());
    }
    /* the run's record: the stencil, its options (an auto time step as the value it
     * resolved to), the precision and the model seconds per step */
    for (i = 0; i < j->stencil->noptions; i++) {
        rec[i] = j->options[i];
        if (isnan(rec[i]) && !strcmp(j->stencil->options[i].name, "dt") && j->dt > 0)
            rec[i] = j->dt;
    }
    if ((st = ps_job_add_output_fields(j)) ||
        (st = ps_run_record_write(j->writer, j->stencil, rec, j->precision,
                                  j->dt > 0 ? j->dt : PS_WRITE_DEFAULT_DT)))
        return st;
    /* where each auxiliary input came from: a continued run takes it from there */
    for (i = 0; i < j->stencil->ninputs && i < PS_JOB_MAX_INPUTS; i++) {
        char name[64];
        snprintf(name, sizeof name, "pstencil_input_%s", j->stencil->inputs[i].name);
        if ((st = ps_writer_put_global(j->writer, name, j->in_rec[i], 0)))
            return st;
    }
    return PS_OK;
}

int ps_job_prepare(ps_job *j)
{
    int st;
    if (!j)
        return ps_error(PS_EINVAL, "no job");
    if (j->prepared)
        return ps_error(PS_EINVAL, "the job is already prepared");
    if (j->cont) {
        if (j->input || j->in_field)
            return ps_error(PS_EINVAL, "give either an input or --continue FILE, not both");
        if (j->steps == 0)
            return ps_error(PS_EINVAL, "--continue: -n 0 would add no step to %s", j->cont);
    } else if ((st = ps_job_resolve_stencil(j)) || (st = ps_job_field_names(j))) {
        return st;
    }
    if ((st = ps_job_check_source(j)))
        return st;
    j->rep.ranks = j->ranked ? j->comm.size : 1;
    j->rep.precision = j->precision;
    j->rep.mode = j->mode;
    j->rep.threads = (int)j->threads;
    j->rep.steps_total = j->steps;
    st = j->ranked ? ps_job_prepare_ranks(j) : ps_job_prepare_local(j);
    if (!st)
        j->prepared = 1;
    return st;
}

int ps_job_run(ps_job *j)
{
    int st;
    if (!j || !j->prepared)
        return ps_error(PS_EINVAL, "the job is not prepared (ps_job_prepare)");
    if (j->ran)
        return ps_error(PS_EINVAL, "the job has run already");
    j->ran = 1;
    st = j->ranked ? ps_job_run_ranks(j) : ps_job_run_local(j);
    j->rep.total_s = ps_now() - j->t0;
    j->rep.host_peak_bytes = ps_mem_peak_rss();
    return st;
}

const ps_job_report *ps_job_get_report(const ps_job *j)
{
    return j ? &j->rep : NULL;
}

const ps_field *ps_job_result(const ps_job *j)
{
    return j && j->prepared ? &j->field : NULL;
}

const ps_dataset *ps_job_dataset(const ps_job *j)
{
    return j && j->have_ds ? &j->ds : NULL;
}

const ps_field *ps_job_initial(const ps_job *j)
{
    return j && j->initial.data ? &j->initial : NULL;
}

int ps_job_cancelled(ps_job *j)
{
    return j->cb.cancel ? j->cb.cancel(j->cb.user) : 0;
}

const char *ps_job_cancel_reason(ps_job *j, int code)
{
    const char *r = j->cb.cancel_reason ? j->cb.cancel_reason(j->cb.user, code) : NULL;
    return r && *r ? r : "cancelled";
}
