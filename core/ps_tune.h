/**
 * @file ps_tune.h
 * @brief Tuning a backend on one grid: its fused steps and tile heights
 *        measured in interleaved rounds, ranked by their median, and the
 *        fastest stored in the tuning cache the backend reads when it creates
 *        a context (`pstencil tune`, ps_job_tune(), `pstencil.tune()`).
 *
 * A candidate reaches the backend as the knobs openmp_tblock and openmp_tj of
 * its config (ps_knobs.h), the backend's own choice as those knobs set to
 * PS_KNOB_RULE; the tuning cache is skipped while measuring, so tuning never
 * reads what it writes. The values a context really used come back through
 * ps_context_describe(PS_DESCRIBE_TUNE_VALUES), and the cache key through
 * PS_DESCRIBE_TUNE_KEY: a backend that describes no tune values has nothing
 * to tune (PS_EUNSUPPORTED).
 *
 * Every candidate's result must be bitwise equal to the first's, or nothing
 * is stored (PS_EMISMATCH).
 */
#ifndef PS_TUNE_H
#define PS_TUNE_H

#include <stdint.h>

#include "ps_backend.h"
#include "ps_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most candidates one tuning measures. */
#define PS_TUNE_MAX_CANDIDATES 64
/** Most rounds one tuning runs. */
#define PS_TUNE_MAX_ROUNDS 32
/** Steps per measurement by default: a multiple of every fused count tried. */
#define PS_TUNE_DEFAULT_STEPS 120
/** Rounds by default. */
#define PS_TUNE_DEFAULT_ROUNDS 5

/** How to tune. Zeroed members take the defaults. */
typedef struct ps_tune_options {
    long steps;  /**< steps per measurement (0: PS_TUNE_DEFAULT_STEPS) */
    long rounds; /**< rounds, each measuring every candidate once (0: PS_TUNE_DEFAULT_ROUNDS;
                      at most PS_TUNE_MAX_ROUNDS) */
    int dry_run; /**< measure and rank, store nothing (the cache is not even checked) */
    /** Called after each measurement (@p done of @p total); nonzero stops the tuning with
     *  PS_ECANCELED and nothing stored. May be NULL. */
    int (*progress)(void *user, int done, int total);
    void *user; /**< passed to progress */
} ps_tune_options;

/** One candidate and what it measured. */
typedef struct ps_tune_candidate {
    long fused;       /**< steps fused per sweep the context used (0: single-step sweeps) */
    long tile_rows;   /**< rows per tile it used (0: single-step sweeps, no tiles) */
    int rule;         /**< nonzero: the backend's own choice (no knobs, no cache) */
    double median_ms; /**< median over the rounds, milliseconds per step */
    double best_ms;   /**< fastest round */
    double ms[PS_TUNE_MAX_ROUNDS]; /**< each round's, in round order */
} ps_tune_candidate;

/** What a tuning measured and stored. */
typedef struct ps_tune_result {
    int ncandidates;   /**< how many candidates were measured */
    /** the candidates 0..ncandidates-1, fastest median first */
    ps_tune_candidate candidates[PS_TUNE_MAX_CANDIDATES];
    int rule_index;    /**< the index of the backend's own choice in candidates[] */
    long steps;        /**< steps per measurement */
    long rounds;       /**< rounds run */
    int fast_path;     /**< nonzero: the candidates ran on the backend's fast path
                            (the context's PS_DESCRIBE_KERNEL) */
    uint64_t checksum; /**< FNV-1a of every candidate's result (all equal) */
    double seconds;    /**< wall time of the measurements */
    char key[512];     /**< the cache key (the backend's PS_DESCRIBE_TUNE_KEY) */
    char path[4096];   /**< the cache file ("" when no cache directory is known) */
    int stored;        /**< nonzero: candidates[0] is stored under key in path */
} ps_tune_result;

/**
 * The cache file of backend @p backend ("NAME-tune.txt" under the cache
 * directory, or $PSTENCIL_TUNE_FILE): see ps_tune_cache_path() in the
 * internal ps_tunecache.h. Returns PS_OK, or PS_EINVAL (@p buf empty) when
 * no cache directory is known.
 */
int ps_tune_file(const char *backend, char *buf, size_t len);

/**
 * Measure backend @p b on field @p in with config @p cfg (its stencil,
 * parameters, precision, mode, threads, kernel path and knobs; the knobs
 * tuned are replaced per candidate): every candidate once per round, in an
 * order that shifts each round, ranked by median. Unless o->dry_run, the
 * cache must be writable before anything is measured, and the fastest is
 * stored after (r->stored). @p r is filled as far as it got.
 * Errors: PS_EUNSUPPORTED (the backend has nothing to tune here),
 * PS_EMISMATCH (a candidate's result differed: nothing stored), PS_ECANCELED,
 * PS_EINVAL (options, or the cache cannot be written), and the backend's.
 */
int ps_tune_measure(ps_backend *b, const ps_config *cfg, const ps_field *in,
                    const ps_tune_options *o, ps_tune_result *r);

#ifdef __cplusplus
}
#endif
#endif /* PS_TUNE_H */
