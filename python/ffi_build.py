"""Generate the C source of pstencil's binding (cffi, API mode).

Run at build time:  python3 ffi_build.py OUT.c
The declarations below are checked by the C compiler against the installed
headers (pstencil_job.h and what it includes): a struct declared with "...;"
takes its real layout from the header, so no layout is copied here by hand.
The module is built by the autotools build (python/local.mk) as
pstencil/_native.so, linked with libpstencil-job.
"""
import sys

import cffi

CDEF = r"""
typedef enum ps_precision { PS_FLOAT32, PS_FLOAT64, ... } ps_precision;
typedef enum ps_mode { PS_MODE_EXACT, PS_MODE_FAST, ... } ps_mode;
typedef struct ps_grid { size_t nz; size_t ny; size_t nx; } ps_grid;
typedef struct ps_field { ps_grid grid; ps_precision precision; void *data; ...; } ps_field;
typedef struct ps_grid_coords { double *depth; double *lat; double *lon; } ps_grid_coords;

typedef struct ps_stencil_option {
    const char *name; const char *unit; double def; int allow_auto; const char *help;
    double min; double max; char alias; ...;
} ps_stencil_option;
typedef struct ps_stencil_input {
    const char *name; const char *standard_names; const char *unit; int required;
    const char *help; ...;
} ps_stencil_input;
typedef struct ps_stencil {
    int id; const char *name; const char *description; int radius; int nneighbours;
    int noptions; const ps_stencil_option *options; unsigned flags;
    int ninputs; const ps_stencil_input *inputs; ...;
} ps_stencil;
#define PS_STENCIL_COORDS ...
#define PS_STENCIL_TEST ...
#define PS_STENCIL_LAND_SUM ...
int ps_stencil_count(void);
const ps_stencil *ps_stencil_at(int i);

typedef struct ps_device_info {
    char name[]; char type[]; char detail[]; uint64_t memory_bytes; int compute_units;
    unsigned caps; ...;
} ps_device_info;
typedef struct ps_backend ps_backend;
typedef struct ps_backend_entry { const char *name; int built; ...; } ps_backend_entry;
int ps_backend_list(const ps_backend_entry **entries, int *count);
int ps_backend_known(const char *const **names, int *count);
int ps_backend_open(const char *name, ps_backend **out);
int ps_backend_probe(ps_backend *b, ps_device_info *devs, int max, int *ndevs);
const char *ps_backend_path(const ps_backend *b);
void ps_backend_close(ps_backend *b);

typedef struct ps_run_stats {
    long steps; double create_s; double upload_s; double step_s; double download_s;
    double snapshot_s; double total_s; double *step_times; int boxes; double exchange_s;
    ...;
} ps_run_stats;

typedef struct ps_reduction {
    double content; double volume; double mean; double min; double max; long long cells;
    ...;
} ps_reduction;

#define PS_JOB_MAX_OPTIONS ...
typedef struct ps_job ps_job;
typedef struct ps_job_option {
    const char *name; char short_name; int takes_value; const char *metavar;
    const char *help; const ps_stencil *stencil; const char *alias_of; ...;
} ps_job_option;
typedef struct ps_job_callbacks {
    void (*progress)(void *user, long done, long total, double elapsed_s);
    int (*record)(void *user, long step, const ps_field *field);
    int (*record_field)(void *user, long step, int i, const ps_field *field);
    int (*cancel)(void *user);
    const char *(*cancel_reason)(void *user, int code);
    void (*note)(void *user, const char *text);
    void *user;
} ps_job_callbacks;
typedef struct ps_job_report {
    const char *backend; const char *backend_path; ps_device_info device;
    const char *input; const char *output; const ps_stencil *stencil;
    double options[]; double seconds_per_step; double stable_limit;
    ps_precision precision; ps_mode mode; ps_grid grid; int threads;
    long steps; long steps_total; size_t records; int interrupted; int cancel_code;
    char interrupted_why[]; long last_step; int blew_up; uint64_t checksum;
    uint64_t field_checksum[];
    ps_run_stats stats; double read_s; double commit_s; double total_s; int split[3];
    int fields; const char *field_names[]; ps_reduction reduction[]; int volume_metric;
    const char *volume_why; int ninputs; const char *input_names[]; char input_from[][1024];
    ...;
} ps_job_report;

int ps_job_option_count(void);
const ps_job_option *ps_job_option_at(int i);
const ps_job_option *ps_job_option_find(const char *name);
int ps_job_create(ps_job **out);
void ps_job_destroy(ps_job *j);
int ps_job_set(ps_job *j, const char *name, const char *value);
int ps_job_set_input_field(ps_job *j, const ps_field *field, const ps_grid_coords *coords);
int ps_job_add_input_field(ps_job *j, const char *name, const ps_field *field);
int ps_job_set_result(ps_job *j, ps_field *result);
int ps_job_set_input(ps_job *j, const char *name, const double *values);
int ps_job_set_input_file(ps_job *j, const char *path);
int ps_job_set_callbacks(ps_job *j, const ps_job_callbacks *cb);
int ps_job_prepare(ps_job *j);
int ps_job_run(ps_job *j);
const ps_job_report *ps_job_get_report(const ps_job *j);
const ps_field *ps_job_result(const ps_job *j);
const ps_field *ps_job_result_at(const ps_job *j, int i);
const ps_reduction *ps_job_record_reduction(const ps_job *j, int i);
int ps_job_time_steps(ps_job *j, int on);

/* tuning (core/ps_tune.h) */
#define PS_TUNE_MAX_ROUNDS ...
typedef struct ps_tune_options {
    long steps; long rounds; int dry_run; int (*progress)(void *user, int done, int total);
    void *user; ...;
} ps_tune_options;
typedef struct ps_tune_candidate {
    long fused; long tile_rows; int rule; double median_ms; double best_ms; double ms[];
    ...;
} ps_tune_candidate;
typedef struct ps_tune_result {
    int ncandidates; ps_tune_candidate candidates[]; int rule_index; long steps; long rounds;
    int fast_path; uint64_t checksum; double seconds; char key[]; char path[]; int stored;
    ...;
} ps_tune_result;
int ps_job_tune(ps_job *j, const ps_tune_options *o, ps_tune_result *r);

/* the built-in ocean (io/ps_io.h), for pstencil.ocean() */
typedef struct ps_dataset { ...; } ps_dataset;
typedef struct ps_ocean_options { double scale; unsigned long seed; size_t ntime; size_t nz;
                                  ...; } ps_ocean_options;
void ps_ocean_defaults(ps_ocean_options *o);
int ps_ocean_generate(const ps_ocean_options *o, size_t t, ps_dataset *ds, ps_field *out);
int ps_ocean_generate_var(const ps_ocean_options *o, size_t t, const char *var, ps_dataset *ds,
                          ps_field *out);
int ps_dataset_coords(const ps_dataset *ds, ps_grid_coords *c);
int ps_ocean_currents(ps_grid g, const ps_grid_coords *c, double *u, double *v);
void ps_grid_coords_free(ps_grid_coords *c);
void ps_dataset_close(ps_dataset *ds);
void ps_field_free(ps_field *f);

int ps_precision_parse(const char *s, ps_precision *out);
const char *ps_strerror(int status);
const char *ps_error_detail(void);

const char *ps_py_cancel_reason(void *user, int code);

extern "Python" void ps_py_progress(void *, long, long, double);
extern "Python" int ps_py_record(void *, long, const ps_field *);
extern "Python" int ps_py_record_field(void *, long, int, const ps_field *);
extern "Python" int ps_py_cancel(void *);
extern "Python" void ps_py_note(void *, const char *);
extern "Python" int ps_py_tune_progress(void *, int, int);
"""

SOURCE = r"""
#include "pstencil_job.h"

/* the binding's cancel codes: 2 a KeyboardInterrupt (SIGINT), 1 another Python exception */
static const char *ps_py_cancel_reason(void *user, int code)
{
    (void)user;
    return code == 2 ? "SIGINT" : "a Python exception";
}
"""


def make_ffi():
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("pstencil._native", SOURCE)
    return ffi


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ffi_build.py OUT.c")
    make_ffi().emit_c_code(sys.argv[1])
