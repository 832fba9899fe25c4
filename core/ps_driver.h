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

/** The most fields one run steps (ps_run_fields()). */
#define PS_RUN_MAX_FIELDS 8

/**
 * A snapshot of a run of several fields (ps_run_fields()): @p fields[0 ..
 * @p n - 1], each the whole grid, after @p step steps (0 = initial state).
 * Nonzero stops the run.
 */
typedef int (*ps_snapshot_fields_fn)(void *user, long step, ps_field *const *fields, int n);

/**
 * Asked before each step call and before each snapshot: nonzero stops the
 * run, which returns PS_ECANCELED; the snapshots delivered before are all
 * there is (a snapshot whose steps were under way when the stop was asked
 * for is not taken, except the last: the run is then complete). It adds no step call: without a progress callback the
 * calls stop only at snapshots, so a run stops at its next one.
 */
typedef int (*ps_cancel_fn)(void *user);

/** Called as steps complete (for progress bars). With one, the steps go in calls of
 *  about a quarter of a second each (the first: 1/20 of the run), in whole multiples
 *  of 48 or 16 steps where that many fit, so fused steps stay whole. */
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
    int boxes;           /**< contexts the grid was split into (1: the whole grid) */
    double exchange_s;   /**< time in halo exchanges (included in step_s) */
    double exchange_bytes; /**< bytes the exchanges moved (downloads + uploads) */
    int have_device_timing; /**< nonzero if the backend reported device timing */
    int ooc_slabs;       /**< out of core: slabs streamed (0: the grid was in core) */
    int ooc_axis;        /**< out of core: axis of the slabs (0 k, 1 j, 2 i) */
    unsigned ooc_ghost;  /**< out of core: ghost layers of the slabs */
    long ooc_passes;     /**< out of core: passes over the grid */
    double ooc_bytes;    /**< out of core: bytes uploaded and downloaded by the passes */
    uint64_t device_bytes_held; /**< device bytes the contexts held at most at once
                                     (backend's count where it keeps one, else the
                                     estimate of core/ps_ooc.h) */
    int workers;         /**< host threads that stepped the boxes at once (1: one box
                              after another; see ps_decomp_place()) */
    int box_threads;     /**< CPU threads of each box's context where they were divided
                              between boxes (the most any box got), else 0 */
    char knobs[1024];    /**< every tuning knob its (first) context decided, one
                              "name=value (source)" line each (ps_context_describe(),
                              PS_DESCRIBE_KNOBS; "" for a backend without knobs) */
    char choices[768];   /**< what the backend said of its (first) context's kernel path
                              and tiling (ps_context_describe(), PS_DESCRIBE_CHOICES; "" if
                              nothing, or out of core) */
    int in_place;        /**< nonzero: the context stepped the field's memory
                              (ps_run_options.in_place) */
} ps_run_stats;

/** Options of ps_run(). */
typedef struct ps_run_options {
    long steps;            /**< steps to take (>= 0) */
    long every;            /**< snapshot every K steps (0 = initial and final only) */
    ps_snapshot_fn snapshot; /**< may be NULL */
    ps_progress_fn progress; /**< may be NULL */
    ps_cancel_fn cancel;   /**< may be NULL */
    void *user;            /**< passed to the callbacks */
    /**
     * Nonzero: where the run is one box in core and the backend can
     * (ps_context_adopt()), its context steps the field's own memory instead
     * of a copy, so the field is held once; snapshots and the final state are
     * downloads into it as usual. Between them, and after a run that fails or
     * is cancelled, its contents are the backend's (not a state of the run).
     */
    int in_place;
    ps_snapshot_fields_fn snapshot_fields; /**< ps_run_fields(): called instead of
                                                @c snapshot when set; required for a
                                                snapshot of more than one field */
    /**
     * May be NULL. Called once, before the first step, when every context of
     * every field exists and holds its state: the backends pack the stencil's
     * parameters when a context is made, so the caller may then free the
     * coefficient arrays of cfg->params (the driver reads them no more). Not
     * called out of core, where a slab's context is made pass by pass.
     */
    void (*contexts_ready)(void *user);
} ps_run_options;

/** How ps_run_split() decomposes the grid (all zero: one box, the whole grid). */
typedef struct ps_split_options {
    int split[3];        /**< boxes along k, j, i (0 or 1: not split along that axis) */
    unsigned halo;       /**< ghost layers on inner faces (0 = twice the stencil's radius) */
    const int *devices;  /**< devices the boxes are placed on, round-robin (NULL = cfg->device) */
    int ndevices;        /**< entries in @c devices */
    uint64_t max_device_bytes; /**< device memory budget of a box, all its fields'
                                    contexts together (0: unlimited); a one-box grid
                                    over it streams out-of-core slabs (core/ps_ooc.h;
                                    each field's planned under budget / fields), a
                                    split box over it is refused */
    int serial;          /**< nonzero: step the boxes one after another, each context
                              with every thread, even where the backend allows them
                              to run at once (PS_BACKEND_CONCURRENT; for comparisons) */
} ps_split_options;

/**
 * Run the model on @p field (whole grid, cfg->box ignored and set to the
 * field's grid) decomposed into boxes as @p so says (NULL: one box), one
 * context per box, stepped in rounds of halo/radius steps with a halo
 * exchange between them (core/ps_decomp.h); the result is bitwise the one-box
 * result. Snapshots see the whole field. stats->device is the first box's.
 * Where the backend declares PS_BACKEND_CONCURRENT the boxes run at once on
 * host threads, placed by ps_decomp_place(): with PS_BACKEND_THREADS,
 * cfg->threads (0: the device's compute units as its probe reports them) is
 * divided between the boxes of each device.
 */
int ps_run_split(ps_backend *b, const ps_config *cfg, ps_field *field, const ps_run_options *opt,
                 const ps_split_options *so, ps_run_stats *stats);

/**
 * ps_run_split() of @p nfields independent fields (1 .. PS_RUN_MAX_FIELDS)
 * with one configuration: each field ends bitwise as ps_run_split() leaves it
 * alone. Every field has the grid of the first and the config's precision
 * (PS_EINVAL naming the field otherwise), and none is another again.
 *
 * One decomposition, or one out-of-core plan, serves every field; each field
 * has its own contexts (or slab stream). Each call of steps steps every field
 * in turn, so a snapshot sees all of them after the same step: it goes to
 * opt->snapshot_fields (with one field and that unset, to opt->snapshot; with
 * more fields and only opt->snapshot set, PS_EINVAL). Cancel and progress are
 * asked as for one field.
 *
 * so->max_device_bytes is what every field's contexts of a box hold together:
 * a split box needs @p nfields times its footprint under it; out of core each
 * field's slabs are planned under budget / @p nfields, one plan for all.
 *
 * @p stats: step, upload, download and exchange times and bytes, the per-step
 * times, device_bytes_held and the out-of-core passes and bytes summed over
 * the fields; device, knobs, choices and in_place of the first field.
 */
int ps_run_fields(ps_backend *b, const ps_config *cfg, ps_field *const *fields, int nfields,
                  const ps_run_options *opt, const ps_split_options *so, ps_run_stats *stats);

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
