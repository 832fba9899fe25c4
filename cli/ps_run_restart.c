/* The run record of a pstencil output, written by run and read back by
 * run --continue (ps_run_restart.h). */
#include "config.h"
#include "ps_run_restart.h"
#include "ps_outfile.h"

#include <math.h>
#include <stdio.h>
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

void ps_run_interrupted_say(int sig, const char *output, size_t records, long last_step,
                            long steps)
{
    if (!records) {
        fprintf(stderr, "pstencil: interrupted by %s before the first record after step 0 was "
                "complete: nothing written\n", ps_signal_name(sig));
        return;
    }
    fprintf(stderr, "pstencil: interrupted by %s: %s keeps the %zu record%s completed, to step "
            "%ld of %ld (pstencil_interrupted); go on with: pstencil run --continue %s -n %ld "
            "-o NEW.nc\n", ps_signal_name(sig), output, records, records == 1 ? "" : "s",
            last_step, steps, output, steps - last_step);
}
