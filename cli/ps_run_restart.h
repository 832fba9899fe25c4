/* The run record of a pstencil output and what `run --continue` reads back
 * from it: the stencil, its parameters, the precision and the model seconds
 * per step, as global attributes pstencil_stencil, pstencil_<option>,
 * pstencil_precision and pstencil_seconds_per_step (docs/user-guide.md,
 * "Restart"). The step count and the model time are the output's step(time)
 * and time(time) variables; the writer (io/ps_nc_write.c) reads them back, and
 * counts steps from the time and pstencil_time_at_step_0 when step is gone.
 * Internal to the program. */
#ifndef PS_RUN_RESTART_H
#define PS_RUN_RESTART_H

#include "pstencil_io.h"

#define PS_RUN_RECORD_MAXOPT 64

/* What an earlier run recorded. */
typedef struct ps_run_record {
    const ps_stencil *stencil;               /* the registered stencil it names */
    double options[PS_RUN_RECORD_MAXOPT];    /* its options in order (NaN = auto) */
    ps_precision precision;                  /* the precision it ran in */
    double seconds_per_step;                 /* model seconds per step */
} ps_run_record;

/* Record the run in the output (before its first snapshot). An option that is
 * still auto (NaN) is recorded as the text "auto". */
int ps_run_record_write(ps_writer *w, const ps_stencil *s, const double *options,
                        ps_precision p, double seconds_per_step);

/* Tell (stderr) what a run stopped by signal @p sig kept in @p output: @p records
 * records, to step @p last_step of @p steps, and the command that goes on from
 * them; with no record, that nothing was written. */
void ps_run_interrupted_say(int sig, const char *output, size_t records, long last_step,
                            long steps);

/* Read the record of @p ds (opened from @p path). PS_EFORMAT with a message
 * naming the file when it is not a pstencil run output, names a stencil this
 * build does not have, or lacks one of the stencil's options. */
int ps_run_record_read(const ps_dataset *ds, const char *path, ps_run_record *r);

#endif
