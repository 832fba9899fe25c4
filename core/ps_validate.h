/**
 * @file ps_validate.h
 * @brief Cross-backend validation (design.md section 2): generated test
 *        cases, a cell-by-cell comparison (bitwise, ulp and absolute error,
 *        NaN mask, unwritten cells), and the suite behind `pstencil validate`.
 *
 * Every backend is run from the same input as the reference backend, into
 * output buffers poisoned first (ps_field_poison), and compared: bitwise in
 * exact mode; in fast mode against the bound ps_validate_fast_bound(). The
 * NaN mask must never change and every cell must be written.
 */
#ifndef PS_VALIDATE_H
#define PS_VALIDATE_H

#include <stdint.h>
#include <stdio.h>

#include "ps_backend.h"
#include "ps_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of comparing a field with the expected one. */
typedef struct ps_validate_diff {
    size_t cells;          /**< cells compared */
    size_t differ;         /**< cells whose bit patterns differ */
    size_t nan_mismatch;   /**< NaN in one field and a number in the other */
    size_t unwritten;      /**< cells still holding the poison pattern (expected holds none) */
    uint64_t max_ulp;      /**< largest ulp distance between numbers (ordered-integer mapping) */
    double max_abs;        /**< largest |got - expected| between numbers */
    double max_ref;        /**< largest finite |expected| (scale for fast-mode bounds) */
    int have_first;        /**< nonzero if first_* describe a differing cell */
    size_t first[3];       /**< (k, j, i) of the first differing cell (C order) */
    double first_expected; /**< expected value there */
    double first_got;      /**< value found there */
} ps_validate_diff;

/**
 * Compare @p got with @p expected cell by cell (same grid and precision).
 * Two cells agree bitwise only if their bit patterns are identical (so -0.0
 * differs from +0.0 and NaN payloads must match). Returns PS_OK, or
 * PS_EINVAL if the fields do not have the same shape and precision.
 */
int ps_validate_compare(const ps_field *expected, const ps_field *got, ps_validate_diff *d);

/** Whether a comparison is bitwise identical. */
int ps_validate_diff_bitwise(const ps_validate_diff *d);

/**
 * The documented fast-mode bound on max |got - expected| after @p steps
 * steps with coefficient @p coeff (0 <= D <= 1), for an input whose largest
 * finite magnitude is @p scale:
 *     B = 2 * (1 + 62*D) * u * scale * steps
 * with u the unit roundoff (2^-24 for float32, 2^-53 for float64): each of
 * the two computations is within (1 + 62*D) u scale of the real step, and a
 * step never amplifies an earlier error (it is a convex combination).
 * See docs/numerical-contract.md.
 */
double ps_validate_fast_bound(ps_precision p, long steps, double scale, double coeff);

/**
 * Whether a fast-mode comparison passes: NaN mask kept, every cell written,
 * max_abs within ps_validate_fast_bound().
 */
int ps_validate_fast_ok(const ps_validate_diff *d, ps_precision p, long steps, double scale,
                        double coeff);

/** Format a one-line description of a failing comparison into @p buf. */
void ps_validate_diff_describe(const ps_validate_diff *d, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Generated cases                                                      */
/* ------------------------------------------------------------------ */

/** Number of built-in validation cases. */
int ps_validate_case_count(void);

/** Name of case @p i (NULL if out of range). */
const char *ps_validate_case_name(int i);

/** One-line description of case @p i. */
const char *ps_validate_case_description(int i);

/** Whether case @p i is part of the --quick set. */
int ps_validate_case_quick(int i);

/** Index of the case named @p name, or -1. */
int ps_validate_case_find(const char *name);

/**
 * Generate case @p i in precision @p p (allocates @p out). @p label receives
 * what was generated (e.g. whether the built-in ocean or a synthetic stand-in
 * was used). Deterministic.
 */
int ps_validate_case_make(int i, ps_precision p, ps_field *out, char *label, size_t len);

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
    int quick;                   /**< smaller cases and steps 1, 2, 7 */
    int precisions;              /**< bit 0: float32, bit 1: float64; 0 = both */
    int modes;                   /**< bit 0: exact, bit 1: fast; 0 = both */
    const long *steps;           /**< step counts; NULL = 1,2,7,50 (quick: 1,2,7) */
    int nsteps;                  /**< entries in steps */
    const int *threads;          /**< openmp thread counts; NULL = 1,2,3 */
    int nthreads;                /**< entries in threads */
    const char *const *cases;    /**< case names; NULL = all (or the quick set) */
    int ncases;                  /**< entries in cases */
    FILE *out;                   /**< where the table goes (NULL = stdout) */
    int verbose;                 /**< nonzero: a line per run */
} ps_validate_options;

/** Counts from ps_validate_suite(). */
typedef struct ps_validate_summary {
    int runs;    /**< comparisons made */
    int failed;  /**< comparisons that failed */
    int skipped; /**< backend/precision/mode columns skipped */
} ps_validate_summary;

/**
 * Validate backends against the reference on the generated cases and print
 * the table. Returns PS_OK if nothing failed, PS_EMISMATCH if something did,
 * PS_EINVAL for a bad option (unknown case), PS_ENOBACKEND if a requested
 * backend name is not a backend at all.
 */
int ps_validate_suite(const ps_validate_options *o, ps_validate_summary *s);

#ifdef __cplusplus
}
#endif
#endif /* PS_VALIDATE_H */
