/**
 * @file pstencil_job.h
 * @brief The job layer (libpstencil-job): one run of a stencil, from its
 *        input to its outputs and report, for every front end.
 *
 * A job is what `pstencil run` does: read the input (a CF netCDF file, the
 * built-in ocean, the last record of an earlier run's output, or a field in
 * the caller's memory), turn the stencil's options and the grid's coordinates
 * into kernel parameters, open the backend (by name or `auto`) and its device,
 * plan the boxes and the device-memory budget, open the outputs, step with
 * records, and report what ran. The command-line program, its MPI form, the
 * benchmarks and the language bindings are thin callers of this API.
 *
 * Life of a job:
 * @code
 *   ps_job *j;
 *   ps_job_create(&j);
 *   ps_job_set(j, "stencil", name);         // any option of ps_job_option_at()
 *   ps_job_set(j, "kh", "500");             // that stencil's option, by name
 *   ps_job_set(j, "steps", "100");
 *   ps_job_set_input_field(j, &field, &coords);  // or ps_job_set(j, "input", "in.nc")
 *   if (ps_job_prepare(j) || ps_job_run(j))
 *       fprintf(stderr, "%s\n", ps_error_detail());
 *   ps_job_destroy(j);
 * @endcode
 *
 * Options are set by name with a text value, parsed by one set of rules for
 * every caller (the messages are the ones the program prints); the table of
 * options (ps_job_option_at()) holds the job's own and every option of every
 * registered stencil, read from the stencil registry. Memory given by the
 * caller (ps_job_set_input_field(), ps_job_set_result()) stays the caller's:
 * the job neither copies the input field nor frees it.
 *
 * Errors are PS_* status codes (core/ps_status.h) with ps_error_detail()
 * naming the problem. A job is used by one thread at a time.
 */
#ifndef PSTENCIL_JOB_H
#define PSTENCIL_JOB_H

#include <stdint.h>
#include <stdio.h>

#include "pstencil.h"
#include "pstencil_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most options a stencil may have (and values one job holds). */
#define PS_JOB_MAX_OPTIONS 64

/** Most auxiliary inputs a stencil may have (ps_stencil::ninputs). */
#define PS_JOB_MAX_INPUTS 8

/** Most prognostic fields one job steps (and reduces per record). */
#define PS_JOB_MAX_FIELDS 8

/** A job: create with ps_job_create(), free with ps_job_destroy(). */
typedef struct ps_job ps_job;

/** One option a job accepts (ps_job_set()). */
typedef struct ps_job_option {
    const char *name;          /**< long name, e.g. "steps" */
    char short_name;           /**< one-letter form for a command line ('n'), or 0 */
    int takes_value;           /**< 0: a flag (set with a NULL value) */
    const char *metavar;       /**< what the value is ("N", "FILE"; "" for a flag) */
    const char *help;          /**< what it does (may span lines) */
    const char *ranks_refusal; /**< why a job over several ranks refuses it (NULL: it works) */
    const ps_stencil *stencil; /**< a stencil's option: the first stencil that has it;
                                    NULL for the job's own */
    const char *alias_of;      /**< another spelling: the option it stands for (else NULL) */
} ps_job_option;

/** Number of options in the table (the job's own, their aliases, every stencil's). */
int ps_job_option_count(void);

/** Option @p i of the table (NULL outside 0..count-1). */
const ps_job_option *ps_job_option_at(int i);

/** The option named @p name (long name or alias; NULL if none). */
const ps_job_option *ps_job_option_find(const char *name);

/** The option whose one-letter form is @p c (NULL if none). */
const ps_job_option *ps_job_option_short(char c);

/** What the caller hears while a job runs; every member may be NULL. */
typedef struct ps_job_callbacks {
    /** Steps done of the total, and seconds since stepping began. */
    void (*progress)(void *user, long done, long total, double elapsed_s);
    /**
     * A record after @p step steps was written (step 0: the initial state) or, with
     * no output file, is available in @p field. Nonzero stops the run with that
     * status. Over ranks, every rank is called with its own owned block. The
     * record's reductions over the whole grid (every rank's the same) are
     * ps_job_record_reduction() during the call.
     */
    int (*record)(void *user, long step, const ps_field *field);
    /**
     * With several prognostic fields ("tracers"): after record() has had field 0,
     * each further field @p i (1..report.fields-1) of the same record, like it.
     */
    int (*record_field)(void *user, long step, int i, const ps_field *field);
    /**
     * Asked before each batch of steps and at each record: a nonzero code stops the
     * job (PS_ECANCELED; over ranks, the largest code any rank returned). Records
     * completed past step 0 are kept: the output is published, marked with the
     * global attribute `pstencil_interrupted`.
     */
    int (*cancel)(void *user);
    /** The name of cancel code @p code for messages ("SIGINT"); NULL: "cancelled". */
    const char *(*cancel_reason)(void *user, int code);
    /** A sentence for the user (the backend `auto` chose, a stencil's note, a warning). */
    void (*note)(void *user, const char *text);
    void *user; /**< passed to every callback */
} ps_job_callbacks;

/**
 * Ranks: a job run by several processes, one box of the decomposition each
 * (an MPI run). The callbacks do what needs the processes' runtime, so the job
 * layer links none; mpi/ implements them over MPI. Every callback is
 * collective (every rank calls it, in the same order).
 */
typedef struct ps_job_comm {
    int rank;      /**< this process, 0..size-1 */
    int size;      /**< processes */
    int node_rank; /**< this process among those on its node */
    int node_size; /**< processes on its node */
    /** Combine statuses: PS_OK only if every rank had PS_OK, else the lowest failing
     *  rank's status, whose ps_error_detail() becomes every rank's. */
    int (*agree)(void *user, int status);
    /** Sum @p n values over the ranks, in place, on every rank. */
    void (*sum)(void *user, long long *v, int n);
    /** Largest of @p n values over the ranks, in place, on every rank. */
    void (*max)(void *user, double *v, int n);
    /** Rank 0's @p len bytes at @p buf on every rank. */
    void (*share)(void *user, void *buf, size_t len);
    /** The decomposition is known: lay the ranks out as @p d (box index = rank). */
    int (*layout)(void *user, const ps_decomp *d);
    /** The halo exchange of this rank's box, over context @p ctx; fills @p out. */
    int (*transport)(void *user, const ps_decomp *d, ps_context *ctx, ps_precision p,
                     ps_decomp_transport *out);
    /** Messages and bytes this rank's exchanges sent. */
    void (*transport_stats)(void *user, long *messages, double *bytes);
    /** The writer's hooks for one file written by every rank (owned block @p b). */
    const ps_write_parallel *(*writer)(void *user, const ps_decomp_box *b, ps_grid global);
    /** FNV-1a of the global field whose owned block here is @p own (valid on rank 0). */
    int (*checksum)(void *user, const ps_decomp *d, const ps_field *own, uint64_t *sum);
    void *user; /**< passed to every callback */
} ps_job_comm;

/** What a job did: the figures `pstencil run` prints, as data. */
typedef struct ps_job_report {
    const char *backend;        /**< backend name */
    const char *backend_path;   /**< "built-in" or the plugin file */
    const char *backend_origin; /**< where the plugin came from */
    unsigned backend_flags;     /**< PS_BACKEND_* of the backend */
    ps_device_info device;      /**< the device (rank 0's under ranks) */
    const char *input;          /**< the input file, "built-in ocean" or "in-memory field" */
    const char *output;         /**< the output file (NULL: none) */
    const ps_stencil *stencil;  /**< what ran */
    double options[PS_JOB_MAX_OPTIONS]; /**< its option values (NaN: auto) */
    double seconds_per_step;    /**< model seconds a step advances (0: dimensionless, no --dt) */
    double stable_limit;        /**< largest stable time step in s (0: not known) */
    ps_precision precision;     /**< working precision */
    ps_mode mode;               /**< exact or fast */
    ps_grid grid;               /**< the whole grid */
    int threads;                /**< CPU threads asked for (0: the runtime's default) */
    long steps;                 /**< steps taken (cancelled: those of the last record kept) */
    long steps_total;           /**< steps asked for */
    size_t records;             /**< records written (or handed to the record callback) */
    int interrupted;            /**< nonzero: stopped by cancel (what was kept: records) */
    int cancel_code;            /**< the cancel callback's code that stopped it */
    char interrupted_why[160];  /**< its reason and the last step kept */
    long last_step;             /**< the step of the last record past step 0 */
    int blew_up;                /**< an ocean cell became non-finite (the run failed) */
    int write_failed;           /**< writing the output failed */
    int write_errno;            /**< errno right after that failure */
    long long wrote_bytes;      /**< bytes of the output written when it failed (-1: unknown) */
    long long want_bytes;       /**< bytes the output would have had */
    uint64_t checksum;          /**< FNV-1a of the final field (ps_field_checksum()) */
    /** FNV-1a of each prognostic field's final state (0..fields-1; [0] is checksum) */
    uint64_t field_checksum[PS_JOB_MAX_FIELDS];
    ps_run_stats stats;         /**< what the driver measured (step_times owned by the job) */
    double read_s;              /**< reading or generating the input */
    double backend_s;           /**< choosing, loading and probing the backend */
    double prepare_s;           /**< the stencil's parameters, the input checks, the plan */
    double open_s;              /**< checking and opening the output */
    double commit_s;            /**< closing and publishing the output */
    double total_s;             /**< the whole job, prepare and run */
    /* several ranks */
    int ranks;                  /**< processes (1: one) */
    int split[3];               /**< boxes along k, j, i */
    unsigned halo;              /**< ghost layers */
    long exchange_every;        /**< steps between exchanges */
    long messages;              /**< messages rank 0 sent */
    double message_bytes;       /**< bytes rank 0 sent */
    double rank_s[5];           /**< largest over ranks: read, setup, step, exchange, write */
    /** The process's peak resident set when the run ended, in bytes (this rank's under
     *  ranks; 0: not known): what the run needed, the caller's own memory included. */
    unsigned long long host_peak_bytes;
    /* reductions (docs/numerical-contract.md, "Reductions") */
    int fields;                 /**< prognostic fields: field_names and reduction 0..fields-1 */
    const char *field_names[PS_JOB_MAX_FIELDS]; /**< each field's variable name */
    /** Each field's reductions of the last record written (or handed to the record
     *  callback): bitwise the same for every backend, thread count, block shape, box
     *  split, out-of-core plan and rank count. */
    ps_reduction reduction[PS_JOB_MAX_FIELDS];
    int volume_metric;          /**< 1: cells weigh their volume in m3 (ps_cell_volumes());
                                     0: each weighs 1 (the input's coordinates are not usable) */
    const char *volume_why;     /**< why each weighs 1 ("" when volume_metric) */
    /* the stencil's auxiliary inputs (ps_stencil::inputs) */
    int ninputs;                /**< the stencil's inputs: input_names and input_from 0..n-1 */
    const char *input_names[PS_JOB_MAX_INPUTS]; /**< each input's name ("u") */
    /** Where each came from: "the caller's memory", "FILE, variable uo, record 0[,
     *  converted from cm s-1 to m s-1]", "the built-in ocean's gyre (0.2 m s-1)" or
     *  "not given" (an optional input) */
    char input_from[PS_JOB_MAX_INPUTS][1024];
} ps_job_report;

/** Create a job with the defaults (the default stencil, 100 steps, float, exact, auto
 *  backend). */
int ps_job_create(ps_job **out);

/** Free a job and everything it holds (the caller's memory is left alone). */
void ps_job_destroy(ps_job *j);

/**
 * Set option @p name (ps_job_option_find()) to the text @p value (NULL for a
 * flag). Job options are parsed and range-checked now; a stencil's option is
 * parsed now and checked against the stencil in ps_job_prepare() (the stencil
 * may be chosen after it). PS_EINVAL naming the option and the valid values.
 */
int ps_job_set(ps_job *j, const char *name, const char *value);

/**
 * Run on a field in the caller's memory instead of a file: @p field (its grid,
 * precision and data; NaN = land) and, for a stencil that needs them, the
 * grid's coordinates @p coords (NULL: none; depth in m positive down, degrees
 * north and east). Neither is copied: they must live until the job is
 * destroyed. The field's precision must be the job's ("precision").
 */
int ps_job_set_input_field(ps_job *j, const ps_field *field, const ps_grid_coords *coords);

/**
 * Several prognostic fields from the caller's memory: add field @p name (its
 * variable name in the output) after the first (ps_job_set_input_field(), named
 * by the option "var", default thetao). Each is stepped by the same stencil
 * with the same parameters and inputs, independently, and written, reduced and
 * reported as a field of its own. It needs the first field's grid, precision
 * and land (NaN at the same cells; PS_EINVAL in ps_job_prepare() naming the
 * first cell that differs). Copied during ps_job_prepare(); the final state is
 * ps_job_result_at(). From a file, the option "tracers" (`--tracers a,b`)
 * names the variables instead. At most PS_JOB_MAX_FIELDS fields in all.
 */
int ps_job_add_input_field(ps_job *j, const char *name, const ps_field *field);

/**
 * Give the stencil's auxiliary input @p name (ps_stencil_input, e.g. "u" of the
 * currents; 'pstencil stencils' lists them) from the caller's memory: nz*ny*nx
 * float64 over the whole grid of the input, C order (k slowest, k = 0 the
 * surface), in the input's unit. Values at land cells of the field are ignored
 * (taken as NaN); every ocean cell needs a finite value. Read (copied) during
 * ps_job_prepare(): it must live until then. Takes precedence over every file.
 * PS_EINVAL in ps_job_prepare() when the stencil has no input of that name.
 */
int ps_job_set_input(ps_job *j, const char *name, const double *values);

/**
 * Take the stencil's auxiliary inputs from file @p path (the option
 * "velocity", `--velocity FILE`): each found by its CF standard names, on the
 * grid of the input (sizes, and coordinate values to 1e-6 relative), its time
 * record the input's time index when it has as many records as the input, else
 * its only one; converted to the input's unit. An input the file does not have
 * is looked for in the input file, then (the built-in ocean only) in the gyre
 * of core/ps_currents.h.
 */
int ps_job_set_input_file(ps_job *j, const char *path);

/**
 * Leave the final state in @p result (caller's memory, the input's grid and
 * the job's precision) instead of a buffer of the job's. It may be the input
 * field itself (stepped in place).
 */
int ps_job_set_result(ps_job *j, ps_field *result);

/** The callbacks (copied). */
int ps_job_set_callbacks(ps_job *j, const ps_job_callbacks *cb);

/** Run over ranks (copied; NULL: one process). */
int ps_job_set_comm(ps_job *j, const ps_job_comm *comm);

/** The command line put first in the output's history attribute (copied). */
int ps_job_set_history(ps_job *j, const char *line);

/**
 * With no "output" set, write to this path instead, replacing an existing
 * file; "%s" in it stands for the backend's name (the program's
 * output/predicted_temperatures_%s.nc). Its directory is created.
 */
int ps_job_set_default_output(ps_job *j, const char *pattern);

/**
 * Prepare: resolve the stencil and its options, read the input, check its
 * ocean, compute the kernel parameters, open the backend and device, plan the
 * boxes and the memory budget, check and open every output. Nothing is
 * written yet; a failure leaves no file.
 */
int ps_job_prepare(ps_job *j);

/**
 * Step, writing records, then publish the outputs and fill the report.
 * PS_ECANCELED when the cancel callback stopped it (the report says what was
 * kept); PS_ERANGE with report.blew_up when an ocean cell became non-finite.
 */
int ps_job_run(ps_job *j);

/**
 * Tune instead of running: measure the backend's fused steps and tile heights
 * for this job's input, stencil (and its options and inputs), precision, mode,
 * threads, kernel path and knobs, and store the fastest in the backend's
 * tuning cache, which later runs with the same key read (core/ps_tune.h). The
 * backend is openmp unless "backend" is set. Call it on a new job instead of
 * ps_job_prepare() and ps_job_run(); the job is then used up. Refused
 * (PS_EINVAL): an output, --continue, --split, --decomp,
 * --max-device-memory, several fields, ranks. @p o may be NULL (defaults);
 * @p r receives every candidate, fastest first, and where it was stored.
 */
int ps_job_tune(ps_job *j, const ps_tune_options *o, ps_tune_result *r);

/** The report (valid after ps_job_prepare(); complete after ps_job_run()). */
const ps_job_report *ps_job_get_report(const ps_job *j);

/**
 * The reductions of prognostic field @p i (0..report.fields-1) of the record
 * being handed to the record callback, and after ps_job_run() of the last
 * record: the volume-weighted content and mean, the volume, the minimum and
 * maximum over the ocean cells of the whole grid (core/ps_reduce.h). NULL
 * before the first record or for another @p i.
 */
const ps_reduction *ps_job_record_reduction(const ps_job *j, int i);

/** The final state (the caller's result field, or the job's). */
const ps_field *ps_job_result(const ps_job *j);

/** The final state of prognostic field @p i (0..report.fields-1; 0 is
 *  ps_job_result()), NULL for another @p i or before ps_job_prepare(). */
const ps_field *ps_job_result_at(const ps_job *j, int i);

/** The input's dataset: the file's coordinates and attributes, or the description of a
 *  caller's field (ps_dataset_from_memory()); NULL before ps_job_prepare(). */
const ps_dataset *ps_job_dataset(const ps_job *j);

/** The state the run started from when kept ("plot" set), else NULL. */
const ps_field *ps_job_initial(const ps_job *j);

/**
 * Keep a copy of the initial state for the caller (ps_job_initial()), e.g. to
 * draw before/after images; counted in the memory check of the input.
 */
int ps_job_keep_initial(ps_job *j, int keep);

/** Time every step (the report's stats.step_times), at the cost of a
 *  synchronisation per step on a device. */
int ps_job_time_steps(ps_job *j, int on);

/* ---- the value rules every front end shares ---- */

/** A whole number in @p min..@p max; PS_EINVAL naming option @p opt otherwise. */
int ps_parse_long(const char *opt, const char *s, long min, long max, long *out);
/** A finite number; PS_EINVAL naming @p opt otherwise. */
int ps_parse_double(const char *opt, const char *s, double *out);
/** A size with an optional K/M/G/T unit (powers of 1024), or none/unlimited (0). */
int ps_parse_size(const char *opt, const char *s, uint64_t *out);
/** Up to @p n comma-separated whole numbers >= @p min; returns the count, or -1
 *  with the detail set. */
int ps_parse_long_list(const char *opt, const char *s, long min, long *out, int n);
/** Up to @p n comma-separated finite numbers; the count, or -1 with the detail set. */
int ps_parse_double_list(const char *opt, const char *s, double *out, int n);

#ifdef __cplusplus
}
#endif
#endif /* PSTENCIL_JOB_H */
