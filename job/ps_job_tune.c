/*
 * A job that tunes instead of running (ps_job_tune): the input, its ocean
 * check and the stencil's parameters as a run would have them, the backend
 * (openmp unless one is set) with the job's kernel path, precision, mode,
 * threads and knobs, then ps_tune_measure() (core/ps_tune.h). No output file;
 * what it writes is the tuning cache.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <stdlib.h>
#include <string.h>

/* what a tuning job cannot do, with the option that asks for it (NULL: nothing) */
static const char *refused(const ps_job *j)
{
    if (j->ranked)
        return "a job over several ranks (tuning measures one process)";
    if (j->output)
        return "--output (tuning writes only the tuning cache)";
    if (j->cont)
        return "--continue";
    if (j->split || j->decomp)
        return "--split and --decomp (tuning measures the whole grid in one context)";
    if (j->max_mem_given)
        return "--max-device-memory (tuning measures the whole grid in one context)";
    if (j->tracers || j->n_in_xf)
        return "several fields (tuning measures one)";
    return NULL;
}

int ps_job_tune(ps_job *j, const ps_tune_options *o, ps_tune_result *r)
{
    ps_config cfg;
    const char *no;
    int st;
    if (r)
        memset(r, 0, sizeof *r);
    if (!j || !r)
        return ps_error(PS_EINVAL, "no job or no result");
    if (j->prepared || j->ran)
        return ps_error(PS_EINVAL, "the job is already prepared: tune a new job");
    if ((no = refused(j)))
        return ps_error(PS_EINVAL, "tune: not with %s", no);
    if ((st = ps_job_check_source(j)))
        return st;
    if (!j->backend && !(j->backend = strdup("openmp")))
        return ps_error(PS_ENOMEM, "out of memory");
    j->prepared = 1; /* one use: the job's state below is a tuning's */
    if ((st = ps_job_resolve_stencil(j)) || (st = ps_job_field_names(j)) ||
        (st = ps_job_read_input(j)) ||
        (st = ps_job_check_ocean(j, &j->field, ps_field_cells(&j->field))) ||
        (st = ps_job_prepare_stencil(j, j->field.grid)) || (st = ps_job_open_backend(j)) ||
        (st = ps_job_pick_device(j)))
        return st;
    j->rep.precision = j->precision;
    j->rep.mode = j->mode;
    j->rep.threads = (int)j->threads;
    ps_job_config(j, j->field.grid, (int)j->device, &cfg);
    return ps_tune_measure(j->b, &cfg, &j->field, o, r);
}
