/*
 * Internal to libpstencil-validate: what the suite's parts share. The plan
 * (ps_validate_plan.c) opens the backends, finds the oracle and lays out the
 * columns of each stencil's table; the suite (ps_validate_suite.c) runs
 * them; the report (ps_validate_report.c) prints what happened.
 */
#ifndef PS_VALIDATE_INTERNAL_H
#define PS_VALIDATE_INTERNAL_H

#include "ps_validate.h"

#define PSV_MAX_BACKENDS 32
#define PSV_MAX_DEVICES 8
#define PSV_MAX_BASE 256 /* backend x device x precision x mode */
#define PSV_MAX_COLS 64  /* columns of one stencil's table */
#define PSV_MAX_CASES 64
#define PSV_MAX_STEPS 16
#define PSV_MAX_THREADS 16
#define PSV_MAX_FAILS 200

/* A growing block of report lines. */
typedef struct psv_text {
    char *buf;
    size_t len, cap;
} psv_text;

void psv_text_add(psv_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void psv_text_free(psv_text *t);

/* A backend being validated. */
typedef struct psv_backend {
    ps_backend *b;
    char name[64];
    unsigned flags;               /* PS_BACKEND_* of its ops table */
    const char *const *fast_paths; /* stencils with a fast path */
    int ndevices;
    ps_device_info devs[PSV_MAX_DEVICES];
} psv_backend;

/* A backend, device, precision and mode the backend can run (any stencil). */
typedef struct psv_base {
    int bi;
    int device;
    ps_precision prec;
    ps_mode mode;
} psv_base;

/* One column of a stencil's table: a base column on one path. */
typedef struct psv_col {
    psv_base base;
    int generic;        /* nonzero: a fast path's generic twin */
    ps_kernel kernel;   /* ps_config.kernel: GENERIC for the twin, FAST for the fast
                           path it checks, AUTO for a stencil's one path */
    char title[80];
    int runs, failed;   /* comparisons */
    int unsupported;    /* the backend refused the stencil (PS_EUNSUPPORTED) */
    double worst_ratio; /* fast mode: largest max abs error / bound */
    uint64_t worst_ulp;
    double worst_abs;
} psv_col;

/* One cell of a table: a case in a column. */
typedef struct psv_cell {
    int state; /* 0 not run, 1 passed, 2 failed */
    uint64_t max_ulp;
    double max_abs;
    int fail_no;
} psv_cell;

/* One stencil's table. */
typedef struct psv_table {
    const ps_stencil *stencil;
    psv_col cols[PSV_MAX_COLS];
    int ncols;
    psv_cell *cells; /* ncases x ncols, row-major */
} psv_table;

/* The whole run. */
typedef struct psv_plan {
    const ps_validate_options *o;
    FILE *out;
    psv_backend bk[PSV_MAX_BACKENDS];
    int nb;
    ps_backend *oracle;     /* opened separately: never one of bk[] */
    char oracle_name[64];
    psv_base base[PSV_MAX_BASE];
    int nbase;
    const ps_stencil *stencils[64];
    int nstencils;
    int cases[PSV_MAX_CASES];
    int ncases;
    char labelled[PSV_MAX_CASES]; /* the case's line is in labels */
    const long *steps;
    int nsteps;
    const int *threads;
    int nthreads;
    int precisions, modes;  /* bit masks */
    int kernels;            /* ps_kernel (ps_validate_options.kernels) */
    int nfail;              /* failures listed so far (numbered) */
    psv_text skips, labels, fails;
    ps_validate_summary sum;
} psv_plan;

/* ps_validate_fields.c: synthetic fields (float64 values, rounded by the
 * caller to the working precision). @p param is the case's parameter. */
typedef int (*psv_fill_fn)(double param, ps_precision p, double *v, const ps_grid *g,
                           char *label, size_t len);
int psv_fill_random(double ocean_fraction, ps_precision p, double *v, const ps_grid *g,
                    char *label, size_t len);
int psv_fill_single(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                    size_t len);
int psv_fill_checker(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                     size_t len);
int psv_fill_extremes(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                      size_t len);
int psv_fill_zeros(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                   size_t len);
int psv_fill_nan_planes(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                        size_t len);
int psv_fill_basin(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                   size_t len);

/* ps_validate_plan.c */
int psv_plan_init(psv_plan *pl, const ps_validate_options *o);
int psv_plan_open(psv_plan *pl);
void psv_plan_columns(const psv_plan *pl, const ps_stencil *s, psv_table *t);
void psv_plan_free(psv_plan *pl);

/* ps_validate_suite.c */
int psv_run_table(psv_plan *pl, psv_table *t);

/* ps_validate_run.c: upload (possibly by regions), step, finish, download */
int psv_run_on_context(ps_context *ctx, const ps_field *input, long steps, int regions,
                       ps_field *out);

/* ps_validate_decomp.c: the decomposition cases (ps_validate_options.decomp) */
int psv_run_decomp(psv_plan *pl);

/* ps_validate_report.c */
void psv_report_header(const psv_plan *pl);
void psv_report_table(const psv_plan *pl, const psv_table *t);
void psv_report_summary(const psv_plan *pl, const psv_table *tables, int ntables);

#endif
