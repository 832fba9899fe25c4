/* Internal to the pstencil program: the end-of-run report and the JSON profile. */
#ifndef PS_RUN_REPORT_H
#define PS_RUN_REPORT_H

#include <stdio.h>

#include "pstencil_job.h"

typedef struct run_report {
    const char *backend;
    const char *backend_path;   /* ps_backend_path(): "built-in" or the plugin file */
    const char *backend_origin; /* ps_backend_origin(): where the plugin came from */
    const ps_device_info *device;
    const char *input;
    const char *output;
    const ps_field *field; /* final state */
    ps_precision precision;
    ps_mode mode;
    const ps_stencil *stencil;  /* what ran */
    const double *options;      /* its option values (NaN = auto) */
    double seconds_per_step;    /* model seconds a step advances (0 = none) */
    double stable_limit;        /* largest stable time step in s (0 = not known) */
    const ps_run_stats *stats;
    double read_s;   /* reading (or generating) the input */
    double backend_s; /* choosing, loading and probing the backend */
    double prepare_s; /* the stencil's parameters, the input checks, the plan */
    double open_s;    /* checking and opening the output */
    double commit_s; /* closing and renaming the output */
    double total_s;  /* the whole command */
    int threads;            /* --threads (0: OpenMP's default) */
    unsigned backend_flags; /* PS_BACKEND_* of the backend: thread placement for CPU threads */
    ps_grid grid;           /* the grid, when there is no whole field (ranks) */
    uint64_t checksum;      /* the final field's checksum, when there is no whole field */
    int have_checksum;
    double host_peak_mib;   /* the job report's peak RSS (0: read it when printing) */
    const ps_job_report *job; /* the reductions of the last record (NULL: none) */
} run_report;

/** Each field's final checksum, on one line, when a run stepped several (--tracers). */
void ps_run_report_checksums(FILE *f, const ps_job_report *r);
/** The reductions of the last record, one line per field (nothing without them). */
void ps_run_report_reductions(FILE *f, const ps_job_report *r);

/** Print the human report, with "where the time went". */
void ps_run_report_print(FILE *f, const run_report *r);

/** Write the profile as JSON (temporary file renamed into place). */
int ps_run_report_json(const char *path, const run_report *r, int force);

#endif
