/*
 * Internal to libpstencil-job: the job's state, shared by its files
 * (ps_job.c: settings and prepare; ps_job_input.c: the input; ps_job_local.c:
 * the run in one process; ps_job_ranks.c: the run over ranks; ps_job_record.c:
 * the run record of an output).
 */
#ifndef PS_JOB_INTERNAL_H
#define PS_JOB_INTERNAL_H

#include <pthread.h>

#include "pstencil_job.h"
#include "ps_outfile.h"

/** @cond internals */

/* a stencil option as given (its text), resolved when the stencil is known */
typedef struct ps_job_given {
    char *name;
    char *value;
} ps_job_given;

struct ps_job {
    /* settings (ps_job_set) */
    char *input, *output, *var, *backend, *cont, *split, *devices, *decomp, *stencil_name;
    char *history, *default_output;
    char *velocity; /* --velocity FILE: the stencil's auxiliary inputs */
    char *tracers;  /* --tracers A,B: the prognostic fields' variables (ps_job_fields.c) */
    long steps, time_index, every, compress, device, threads, halo;
    int block[3];
    int force, allow_unstable, keep_nonfinite, precision_given, time_index_given, keep_initial;
    int step_times;
    uint64_t max_mem;
    int max_mem_given;
    char max_mem_text[64];
    ps_precision precision;
    ps_mode mode;
    ps_kernel kernel; /* --kernel (checked against the backend by ps_job_check_kernel) */
    ps_knobs knobs; /* --knob NAME=VALUE: tuning knobs given (source: option) */
    double dt; /* the run's --dt of a dimensionless stencil (0: none) */
    double scale; /* --scale: the built-in ocean's resolution factor (0: 1) */
    char scale_name[64]; /* "built-in ocean, scale S" */
    ps_job_given given[PS_JOB_MAX_OPTIONS];
    int ngiven;
    /* the caller's */
    const ps_field *in_field;
    const ps_grid_coords *in_coords;
    ps_field *result;
    const double *caller_in[PS_JOB_MAX_INPUTS]; /* ps_job_set_input() */
    char caller_name[PS_JOB_MAX_INPUTS][32];
    int ncaller;
    ps_job_callbacks cb;
    ps_job_comm comm;
    int ranked; /* comm set */
    /* prepared */
    int prepared, ran;
    double t0;
    const ps_stencil *stencil;
    double options[PS_JOB_MAX_OPTIONS];
    ps_dataset ds;
    int have_ds;
    ps_field field;       /* the state stepped: the job's, or a view of the caller's */
    int field_owned;
    /* several prognostic fields (ps_job_fields.c): field 0 is field/ds above; fields
     * 1..nfields-1 the job's own (xf) with their variables' descriptions (xds) */
    int nfields;
    char fname[PS_JOB_MAX_FIELDS][256];
    ps_field xf[PS_JOB_MAX_FIELDS];
    ps_dataset xds[PS_JOB_MAX_FIELDS];
    int have_xds[PS_JOB_MAX_FIELDS];
    const ps_field *in_xf[PS_JOB_MAX_FIELDS]; /* the caller's (ps_job_add_input_field()) */
    int n_in_xf;
    ps_field initial;
    uint64_t *land;       /* one bit per (owned) cell, set where the input is land
                             (ps_job_land_at(); 1/8 byte a cell) */
    uint64_t *gland;      /* ranks: the land of the whole grid (the inputs' mask) */
    char in_rec[PS_JOB_MAX_INPUTS][4200]; /* each input's source, as the output records it
                                             (pstencil_input_NAME) for --continue */
    ps_grid_coords coords;
    ps_params params;
    ps_stencil_report srep;
    ps_backend *b;
    ps_device_info devs[16];
    int ndev, dev;
    ps_split_options so;
    int devlist[16];
    ps_writer *writer;
    char outpath[4096];
    ps_job_report rep;
    /* records */
    long last_clean, completed, expect_records;
    int cancel_code; /* the code that stopped the job */
    int skip_initial;
    /* ranks */
    ps_decomp d;
    int have_d;
    ps_field own[PS_JOB_MAX_FIELDS];         /* each field's owned cells */
    ps_region own_r;
    ps_context *ctx[PS_JOB_MAX_FIELDS];      /* each field's context of this rank's box */
    ps_decomp_transport tr[PS_JOB_MAX_FIELDS];
    /* reductions (ps_job_reduce.c) */
    double *vol;          /* cell volumes of the global (k, j), m3; NULL: 1 a cell */
    char vol_why[256];    /* why 1 a cell */
    size_t global_ny;     /* rows of the global grid (vol's stride) */
    ps_reduction red[PS_JOB_MAX_FIELDS]; /* the record's, per prognostic field */
    int have_red;
    /* the record being reduced (ps_job_reduce_start .. _finish) */
    pthread_t rd_thread;
    int rd_running, rd_threads, rd_status;
    const ps_field *rd_fields[PS_JOB_MAX_FIELDS];
    int rd_n;
    ps_reduce_part rd_parts[PS_JOB_MAX_FIELDS];
    size_t rd_origin[3];
};

/* ps_job_input.c: the input (file, continued output, built-in ocean, caller's field) */
const char *ps_job_input_name(const ps_job *j);
int ps_job_open_input(ps_job *j);            /* open the file, check the time index */
int ps_job_ocean(ps_job *j, ps_field *f32);  /* the built-in ocean, whole grid */
/* one source: --scale only for the built-in ocean, a file or a field, the field's precision */
int ps_job_check_source(const ps_job *j);
/* the box @p bx (owned cells and ghosts) of the whole-grid float32 field @p f32 into
 * @p out, allocated here in precision @p p (each value converted exactly) */
int ps_job_box_of(const ps_field *f32, const ps_decomp_box *bx, ps_precision p,
                  ps_field *out);
int ps_job_read_input(ps_job *j);            /* the whole field into j->field */
int ps_job_prepare_stencil(ps_job *j, ps_grid global); /* coordinates, parameters */
/* ps_job_inputs.c: the stencil's auxiliary inputs over the global grid @p g into @p vals
 * (one malloc'd array each, NULL: not given), NaN where @p land (whole grid) is set */
int ps_job_read_inputs(ps_job *j, ps_grid g, const ps_grid_coords *c, const uint64_t *land,
                       double **vals);
int ps_job_open_backend(ps_job *j);          /* by name or auto, probed */
int ps_job_check_kernel(ps_job *j);
int ps_job_pick_device(ps_job *j);          /* one process: --device (default 0) */
/* a context's config over grid @p g on @p device: the job's precision, mode, kernel path,
 * stencil and parameters, threads, block and knobs */
void ps_job_config(const ps_job *j, ps_grid g, int device, ps_config *cfg);          /* --kernel against the backend's fast paths */
/* whether cell @p c is land in the mask @p land (one bit a cell) */
static inline int ps_job_land_at(const uint64_t *land, size_t c)
{
    return (int)(land[c >> 6] >> (c & 63)) & 1;
}
/* the value of cell @p c (flat index) of @p f, float32 or float64, as a double */
static inline double ps_job_value_at(const ps_field *f, size_t c)
{
    return f->precision == PS_FLOAT64 ? ((const double *)f->data)[c]
                                      : (double)((const float *)f->data)[c];
}
/* a cleared mask of @p n cells into j->land */
int ps_job_land_alloc(ps_job *j, size_t n);
/* ps_job_input.c: the input's ocean: finite, not all land; fills j->land */
int ps_job_check_ocean(ps_job *j, const ps_field *f, size_t ncells);

/* ps_job_fields.c: the fields' variables from --tracers (or the one of --var/the
 * input); the fields 1..nfields-1 of one process (whole grid) or of a rank (its box
 * @p bx, NULL: whole grid), each checked to have field 0's land; the fields as an
 * array; the fields' variables in the output */
int ps_job_field_names(ps_job *j);
int ps_job_read_fields(ps_job *j, const ps_decomp_box *bx);
int ps_job_field_list(ps_job *j, ps_field **out);
int ps_job_add_output_fields(ps_job *j);
static inline ps_field *ps_job_field_at(ps_job *j, int f)
{
    return f ? &j->xf[f] : &j->field;
}

/* ps_job.c: the stencil and its option values from what was given */
int ps_job_resolve_stencil(ps_job *j);
/* ps_job.c: a note for the caller */
void ps_job_note(ps_job *j, const char *fmt, ...);
/* ps_job.c: the output's writer, with the run record; @p par for ranks */
int ps_job_open_output(ps_job *j, const ps_write_parallel *par, const char *source);

/* ps_job_input.c: free the stencil's coefficient arrays once every context has packed
 * them (j->params keeps its scalars and array_values) */
void ps_job_release_arrays(ps_job *j);

/* ps_job_local.c / ps_job_ranks.c */
int ps_job_prepare_local(ps_job *j);
int ps_job_run_local(ps_job *j);
int ps_job_prepare_ranks(ps_job *j);
int ps_job_run_ranks(ps_job *j);

/* ps_job_record.c: the run's record in the output and reading it back */
#define PS_RUN_RECORD_MAXOPT PS_JOB_MAX_OPTIONS
typedef struct ps_run_record {
    const ps_stencil *stencil;
    double options[PS_RUN_RECORD_MAXOPT]; /* NaN: auto */
    ps_precision precision;
    double seconds_per_step;
} ps_run_record;
int ps_run_record_write(ps_writer *w, const ps_stencil *s, const double *options,
                        ps_precision p, double seconds_per_step);
int ps_run_record_read(const ps_dataset *ds, const char *path, ps_run_record *r);
/* ps_job_record.c: --continue: the stencil, options, precision and start from the file */
int ps_job_continue_from(ps_job *j);

/* ps_job_reduce.c: the cell volumes (after the coordinates are known, before the
 * output is opened); the reductions of a record's field @p f, the block of the
 * global grid at global cell @p origin: started on a thread of their own (@p f must
 * stay unchanged until the finish), finished into j->red (collective over ranks;
 * always call it after a start) */
int ps_job_prepare_reduce(ps_job *j, ps_grid global);
int ps_job_reduce_start(ps_job *j, ps_field *const *f, int n, const size_t origin[3]);
int ps_job_reduce_finish(ps_job *j);

/* records: the reductions, the append, the record callback; @p f[0..n-1] the fields'
 * blocks of the global grid at global cell @p origin (collective over ranks) */
int ps_job_on_record(ps_job *j, long step, ps_field *const *f, int n, const size_t origin[3]);
/* the cancel callback's code (0: go on), and its name */
int ps_job_cancelled(ps_job *j);
const char *ps_job_cancel_reason(ps_job *j, int code);
/* a write failed with errno @p err: the report says how much was written */
void ps_job_write_failed(ps_job *j, int err);
/* keep the completed records of a cancelled run: mark, publish, report */
int ps_job_keep_completed(ps_job *j, const char *why);

/** @endcond */
#endif
