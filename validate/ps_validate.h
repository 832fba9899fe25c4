/**
 * @file ps_validate.h
 * @brief Cross-backend validation (libpstencil-validate): synthetic test
 *        cases and coordinates, verdicts from the engine's comparison
 *        (core/ps_compare.h), and the suite behind `pstencil validate`.
 *
 * Every backend is run from the same input as the oracle (the backend whose
 * table has PS_BACKEND_ORACLE: the reference), for every stencil in the
 * registry, into output buffers poisoned first (ps_field_poison), and
 * compared: bitwise in exact mode; in fast mode within the bound
 * ps_validate_fast_bound(). The NaN mask must never change and every cell
 * must be written. Backends that list a stencil in their fast paths are
 * validated on the fast path and on the generic skeleton (ps_config.kernel).
 * See docs/numerical-contract.md.
 *
 * The layer sits on the engine only: its test fields and coordinates are its
 * own (no file, no built-in ocean).
 */
#ifndef PS_VALIDATE_H
#define PS_VALIDATE_H

#include <stdint.h>
#include <stdio.h>

#include "ps_backend.h"
#include "ps_compare.h"
#include "ps_field.h"
#include "ps_stencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Verdicts (on the comparison engine, core/ps_compare.h)               */
/* ------------------------------------------------------------------ */

/** A comparison of a backend's field with the expected one. */
typedef struct ps_validate_diff {
    ps_compare_stats stats; /**< what ps_compare_fields() found (expected = a, got = b) */
    size_t cells;           /**< cells compared */
    size_t differ;          /**< cells whose bit patterns differ (NaN payloads included) */
} ps_validate_diff;

/**
 * Compare @p got with @p expected cell by cell (same grid and precision)
 * through ps_compare_fields() with no tolerance. Two cells agree bitwise only
 * if their bit patterns are identical (so -0.0 differs from +0.0 and NaN
 * payloads must match). Returns PS_OK, or PS_EINVAL if the fields do not have
 * the same shape and precision.
 */
int ps_validate_compare(const ps_field *expected, const ps_field *got, ps_validate_diff *d);

/** Whether a comparison is bitwise identical (the exact-mode verdict). */
int ps_validate_diff_bitwise(const ps_validate_diff *d);

/** The scale M of the fast-mode bound for input @p f: its largest |value| that is not NaN. */
double ps_validate_scale(const ps_field *f);

/**
 * The fast-mode bound on max |got - expected| after @p steps steps of
 * stencil @p s, for an input whose largest finite magnitude is @p scale:
 *     B = 2 * (1 + 12 n) * u * scale * steps
 * with n the stencil's neighbour count and u the unit roundoff (2^-24 for
 * float32, 2^-53 for float64). Every listed stencil's step is, in real
 * arithmetic, a convex combination of the cell and its ocean neighbours, so
 * it never amplifies an earlier error; one evaluation, with or without fused
 * or reciprocal forms, is within (1 + 12 n) u scale of the real step, and two
 * differ by at most twice that (docs/numerical-contract.md).
 */
double ps_validate_fast_bound(const ps_stencil *s, ps_precision p, long steps, double scale);

/**
 * Whether a fast-mode comparison passes: NaN mask kept, every cell written,
 * max |got - expected| within ps_validate_fast_bound().
 */
int ps_validate_fast_ok(const ps_validate_diff *d, const ps_stencil *s, ps_precision p,
                        long steps, double scale);

/**
 * One line describing a comparison into @p buf: "bitwise identical", or
 * where the first differing cell is, expected and got there, and the counts
 * (cells differing, NaN-mask changes, unwritten cells, max ulp, max abs).
 */
void ps_validate_diff_describe(const ps_validate_diff *d, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Synthetic cases and coordinates                                      */
/* ------------------------------------------------------------------ */

/** Number of built-in validation cases. */
int ps_validate_case_count(void);

/** Name of case @p i (NULL if out of range). */
const char *ps_validate_case_name(int i);

/** One-line description of case @p i. */
const char *ps_validate_case_description(int i);

/** Whether case @p i is part of the --quick set. */
int ps_validate_case_quick(int i);

/** Whether case @p i uploads and downloads through sub-regions. */
int ps_validate_case_regions(int i);

/** Index of the case named @p name, or -1. */
int ps_validate_case_find(const char *name);

/**
 * Generate case @p i in precision @p p (allocates @p out). @p label (may be
 * NULL) receives what was generated. Deterministic: the same bits every call.
 */
int ps_validate_case_make(int i, ps_precision p, ps_field *out, char *label, size_t len);

/**
 * Synthetic coordinates for grid @p g (arrays of g.nz, g.ny, g.nx values):
 * depth 5 + 10 k^2 m, latitude 45 + 0.25 (j - (ny-1)/2) degrees north,
 * longitude -10 + 0.25 i degrees east (uniform spacing in both angles).
 */
void ps_validate_coordinates(ps_grid g, double *depth, double *lat, double *lon);

/**
 * Kernel parameters of stencil @p s on the grid of field @p f: its default
 * options; for a stencil with PS_STENCIL_COORDS, ps_validate_coordinates();
 * for a stencil with auxiliary inputs, the gyre's currents of
 * ps_currents_gyre() at PS_GYRE_SPEED on those coordinates, NaN on @p f's land
 * (eastward and northward velocities; an optional input of another kind is
 * not given, a required one is refused with PS_EUNSUPPORTED). An option
 * left "auto" that the stencil cannot resolve on this grid (an auto time
 * step that no interior cell limits) is retried with the value 1. Free with
 * ps_params_free(). @p note (may be NULL) receives the stencil's report.
 */
int ps_validate_params(const ps_stencil *s, const ps_field *f, ps_params *out, char *note,
                       size_t len);

/* ------------------------------------------------------------------ */
/* Running one backend on one input                                     */
/* ------------------------------------------------------------------ */

/**
 * Run @p cfg on backend @p b from @p input for @p steps steps and download
 * into @p out (which the caller allocated; it is poisoned first). With
 * @p regions nonzero, upload and download go through several sub-regions
 * instead of the whole box (exercises region code).
 */
int ps_validate_run_backend(ps_backend *b, const ps_config *cfg, const ps_field *input,
                            long steps, int regions, ps_field *out);

/* ------------------------------------------------------------------ */
/* The suite                                                            */
/* ------------------------------------------------------------------ */

/** Options of ps_validate_suite(). Zero/NULL fields take the defaults. */
typedef struct ps_validate_options {
    const char *const *backends; /**< backends to validate; NULL = every known one */
    int nbackends;               /**< entries in backends */
    const char *const *stencils; /**< stencils to validate; NULL = every registered one */
    int nstencils;               /**< entries in stencils */
    int quick;                   /**< smaller cases and steps 1, 2, 7 */
    int precisions;              /**< bit 0: float32, bit 1: float64; 0 = both */
    int modes;                   /**< bit 0: exact, bit 1: fast; 0 = both */
    int kernels;                 /**< ps_kernel: PS_KERNEL_AUTO (0) validates a stencil on a
                                      backend's fast path and on its generic path; GENERIC
                                      only the generic path, FAST only the fast paths
                                      (stencils without one on the backend are skipped) */
    const long *steps;           /**< step counts; NULL = 1,2,7,50 (quick: 1,2,7) */
    int nsteps;                  /**< entries in steps */
    const int *threads;          /**< thread counts for backends with PS_BACKEND_THREADS;
                                      NULL = 1,2,3 */
    int nthreads;                /**< entries in threads */
    const char *const *cases;    /**< case names; NULL = all (or the quick set) */
    int ncases;                  /**< entries in cases */
    FILE *out;                   /**< where the report goes (NULL = stdout) */
    int verbose;                 /**< nonzero: a line per comparison */
    int decomp;                  /**< nonzero: instead of the cases, the decomposition
                                      cases: every backend in exact mode split into boxes
                                      (1x1x2, 1x2x1, 2x1x1, 2x2x2, 3x2x1, 5x1x1; halos 1, 2,
                                      4) and streamed as out-of-core slabs (halos 1, 3),
                                      bitwise against the oracle on one box; steps default
                                      to 1, 5, 13 */
} ps_validate_options;

/** Counts from ps_validate_suite(). */
typedef struct ps_validate_summary {
    int runs;    /**< comparisons made */
    int failed;  /**< comparisons that failed */
    int skipped; /**< backends, columns or stencils that could not run (listed with why) */
} ps_validate_summary;

/**
 * Validate backends against the oracle for every selected stencil on the
 * generated cases and print the report: a table per stencil (case by
 * backend, precision, mode and path), what was skipped and why, the first
 * failure of each table cell, and a summary line per stencil and backend.
 * Returns PS_OK if nothing failed, PS_EMISMATCH if something did, PS_EINVAL
 * for a bad option (unknown case or stencil), PS_ENOBACKEND if a requested
 * backend name is not a backend at all or no oracle can be opened.
 */
int ps_validate_suite(const ps_validate_options *o, ps_validate_summary *s);

#ifdef __cplusplus
}
#endif
#endif /* PS_VALIDATE_H */
