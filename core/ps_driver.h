/**
 * @file ps_driver.h
 * @brief The time-stepping driver: upload a field, step it on a backend,
 *        hand snapshots to a callback, download the result.
 */
#ifndef PS_DRIVER_H
#define PS_DRIVER_H

#include "ps_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Called with the field after @p step steps (0 = initial state). Non-zero return aborts. */
typedef int (*ps_snapshot_fn)(void *user, long step, const ps_field *field);

/** Called as steps complete (for progress bars). */
typedef void (*ps_progress_fn)(void *user, long done, long total, double elapsed_s);

/** What a run measured (seconds). */
typedef struct ps_run_stats {
    long steps;          /**< steps taken */
    double create_s;     /**< context creation (device set-up, kernel build) */
    double upload_s;     /**< initial upload */
    double step_s;       /**< the step loop, synchronised (excludes snapshots) */
    double download_s;   /**< downloads (snapshots and final) */
    double snapshot_s;   /**< time inside the snapshot callback (writing output) */
    double total_s;      /**< everything in ps_run */
    double *step_times;  /**< per-step seconds when cfg->profile (caller frees), else NULL */
    ps_timing device;    /**< backend's own timing, if have_device_timing */
    int have_device_timing; /**< nonzero if the backend reported device timing */
} ps_run_stats;

/** Options of ps_run(). */
typedef struct ps_run_options {
    long steps;            /**< steps to take (>= 0) */
    long every;            /**< snapshot every K steps (0 = initial and final only) */
    ps_snapshot_fn snapshot; /**< may be NULL */
    ps_progress_fn progress; /**< may be NULL */
    void *user;            /**< passed to the callbacks */
} ps_run_options;

/**
 * Run the model on @p field (whole grid, cfg->box ignored and set to the
 * field's grid) and leave the final state in @p field.
 * cfg->precision must equal field->precision.
 */
int ps_run(ps_backend *b, const ps_config *cfg, ps_field *field, const ps_run_options *opt,
           ps_run_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
