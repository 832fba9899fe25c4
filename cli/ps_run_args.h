/*
 * Internal to the pstencil program: the command line of `pstencil run`, one
 * process or MPI. Every option of the job layer's table (the job's own and
 * every stencil's, job/pstencil_job.h) is set on the job as typed; the
 * front end's own options (below) stay here. Both forms of run parse with
 * this, so they spell, alias and check every option alike.
 */
#ifndef PS_RUN_ARGS_H
#define PS_RUN_ARGS_H

#include <stdio.h>

#include "pstencil_job.h"

/* What the front end itself does with the command line. */
typedef struct ps_run_front {
    const char *profile;  /* --profile FILE: timings as JSON */
    const char *plot_dir; /* --plot DIR: before/after/difference images */
    const char *input;    /* the input as typed (positional or --data-file) */
    const char *output;   /* -o as typed */
    int quiet;            /* -q: no progress bar, no report */
    int explain;          /* --explain: every tuning knob, its value and what decided it */
    int progress;         /* a progress bar (on a terminal) */
    int force;            /* -f */
    int help;             /* -h: the usage was asked for */
    int ranks;            /* parsing for a run over ranks: refused options say why */
} ps_run_front;

/*
 * Parse argv into @p j and @p f. PS_OK, or a status with ps_error_detail()
 * saying what is wrong (nothing printed). With -h, f->help is set and the
 * rest is not parsed.
 */
int ps_run_args_parse(int argc, char **argv, ps_job *j, ps_run_front *f);

/* The usage of run, with every stencil and its options from the registry. */
void ps_run_usage(FILE *out);

/* ps_run_front.c: what both forms of run do around the job */

/* The progress bar's state (one process: on a terminal only). */
typedef struct ps_run_bar {
    int on;
    double last_draw;
} ps_run_bar;

/* The job's callbacks of the program: notes on stderr unless quiet, a progress
 * bar, signals as the cancel (a first signal after a completed record stops the
 * run at its next record, which keeps what was completed). */
void ps_run_callbacks(ps_job_callbacks *cb, ps_run_bar *bar, const ps_run_front *f);

/* --explain: the knobs block of a report (stats->knobs), or that the backend has none. */
void ps_run_explain(FILE *out, const ps_run_stats *stats, const char *backend);

/* A failed prepare or run: print why (rank 0 only when @p print is 0 elsewhere)
 * and return the exit status (2, 3 for a blow-up, 128 + signal when stopped). */
int ps_run_failed(const ps_job *j, int st, const ps_run_front *f, int print);

#endif
