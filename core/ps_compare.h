/**
 * @file ps_compare.h
 * @brief Cell-by-cell comparison of two fields: counts, NaN-mask mismatches,
 *        maximum absolute, relative and ulp differences and where they occur.
 *
 * The one comparison engine of pstencil: `pstencil compare` (two NetCDF
 * files, all time records) and the validation layer (validate/ps_validate.h:
 * every backend against the reference, bitwise or within a bound) both use it.
 *
 * Typical use, accumulating over several time records:
 * @code
 * ps_compare_stats st;
 * ps_compare_tol tol = { .abs = 0, .rel = 0, .ulps = 2 };
 * ps_compare_init(&st, &tol);
 * for (t = 0; t < nt; t++) {
 *     st.time = t;                       // label for the locations below
 *     if ((rc = ps_compare_fields(&a[t], &b[t], &st)))
 *         return rc;                     // PS_EDIM: grids differ
 * }
 * if (ps_compare_identical(&st)) ...     // bitwise equal (NaN == NaN)
 * else if (ps_compare_within(&st)) ...   // every difference within tolerance
 * @endcode
 *
 * Definitions (per cell, a from the first field, b from the second):
 * - NaN mismatch: exactly one of a, b is NaN. Never "within tolerance".
 * - both NaN: equal, whatever the NaN payloads (land in both).
 * - bit difference: both numbers and their bit patterns differ
 *   (so +0 and -0 differ bitwise but not numerically).
 * - numeric difference: both numbers and a != b.
 * - abs = |a - b| (computed in double); rel = abs / max(|a|, |b|)
 *   (0 when both are 0); ulp = distance between a and b in units in the last
 *   place of the comparison precision, computed by mapping each bit pattern
 *   to an ordered integer (negative values mirrored, -0 and +0 both map to 0)
 *   and taking the absolute difference of the two integers. Fields of
 *   different precision are compared in float32 for ulps (the float64 value
 *   is rounded to float32 first); abs and rel always use the values as given.
 * - a numeric difference is within tolerance if abs <= tol.abs, or
 *   rel <= tol.rel, or ulp <= tol.ulps (any of the three accepts it; with
 *   all three 0 only numerically equal cells, e.g. +0 vs -0, are accepted).
 *
 * - NaN bits: both NaN with different bit patterns (another payload or sign);
 *   counted apart (nan_bits_differ), equal for ps_compare_identical(), not for
 *   ps_compare_bitwise().
 * - unwritten: b holds the pattern ps_field_poison() writes (PS_POISON_F32/F64)
 *   and a does not: a cell a backend never wrote into a poisoned buffer. It
 *   is also counted as what it is (a NaN mismatch, or NaN bits).
 *
 * Maxima keep the first location where they occur, in the order the cells
 * are visited (time records in the order passed, then C order k, j, i).
 */
#ifndef PS_COMPARE_H
#define PS_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "ps_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A cell location: time record (as labelled by ps_compare_stats::time), depth, lat, lon. */
typedef struct ps_compare_loc {
    size_t t; /**< time record (the caller's label) */
    size_t k; /**< depth index */
    size_t j; /**< latitude index */
    size_t i; /**< longitude index */
} ps_compare_loc;

/** Tolerances; a difference accepted by any one of them is within tolerance. */
typedef struct ps_compare_tol {
    double abs;    /**< accept |a-b| <= abs (0: off unless a == b) */
    double rel;    /**< accept |a-b| <= rel * max(|a|,|b|) (0: off) */
    uint64_t ulps; /**< accept an ulp distance <= ulps (0: off) */
} ps_compare_tol;

/** Comparison results, accumulated over calls to ps_compare_fields(). */
typedef struct ps_compare_stats {
    /* inputs */
    ps_compare_tol tol;      /**< tolerances (set by ps_compare_init) */
    size_t time;             /**< time label stored in locations by the next call */

    /* counts */
    uint64_t cells;          /**< cells compared */
    uint64_t both_nan;       /**< cells NaN in both (land) */
    uint64_t both_number;    /**< cells that are numbers in both (ocean) */
    uint64_t nan_mismatch;   /**< cells NaN in exactly one field */
    uint64_t nan_only_a;     /**< of those, NaN in a only */
    uint64_t bit_differ;     /**< numbers in both with different bit patterns */
    uint64_t differ;         /**< numbers in both with a != b */
    uint64_t exceed;         /**< numeric differences outside every tolerance */
    uint64_t nan_bits_differ; /**< NaN in both with different bit patterns (same precision) */
    uint64_t unwritten;      /**< cells of b holding the poison pattern where a does not */

    /* maxima (over cells that are numbers in both) */
    double max_abs;          /**< largest |a-b| */
    ps_compare_loc max_abs_at; /**< where */
    double max_abs_a;        /**< a there */
    double max_abs_b;        /**< b there */
    double max_rel;          /**< largest relative difference */
    ps_compare_loc max_rel_at; /**< where */
    uint64_t max_ulp;        /**< largest ulp distance */
    ps_compare_loc max_ulp_at; /**< where */
    ps_precision ulp_precision; /**< precision ulps were counted in (last call) */

    /* first mismatch in visiting order: a NaN mismatch or a bit difference */
    int have_first;          /**< nonzero if there is one */
    ps_compare_loc first_at; /**< where */
    double first_a;          /**< a there (NaN if NaN) */
    double first_b;          /**< b there */

    /* first cell whose bit patterns differ in any way (NaN payloads included) */
    int have_first_bits;     /**< nonzero if there is one */
    ps_compare_loc first_bits_at; /**< where */
    double first_bits_a;     /**< a there */
    double first_bits_b;     /**< b there */

    /* first NaN-mask mismatch */
    int have_first_nan;      /**< nonzero if there is one */
    ps_compare_loc first_nan_at; /**< where */
} ps_compare_stats;

/**
 * Reset @p st (all counts and maxima zero, time 0) and set its tolerances
 * (@p tol NULL: all zero, i.e. exact comparison).
 */
void ps_compare_init(ps_compare_stats *st, const ps_compare_tol *tol);

/**
 * Compare @p a and @p b cell by cell and ADD the results to @p st (call
 * ps_compare_init() first; set st->time to label the record).
 * The fields may have different precisions.
 * @return PS_OK, PS_EDIM if the grids differ (st unchanged), PS_EINVAL on
 *         NULL arguments or data.
 */
int ps_compare_fields(const ps_field *a, const ps_field *b, ps_compare_stats *st);

/** Nonzero if no NaN mismatch and no bit difference was found. */
int ps_compare_identical(const ps_compare_stats *st);

/** Nonzero if no NaN mismatch and every numeric difference is within tolerance. */
int ps_compare_within(const ps_compare_stats *st);

/**
 * Nonzero if every cell has the same bit pattern in both fields, NaN
 * payloads included (the exact-mode verdict of validation). Meaningful for
 * fields of the same precision.
 */
int ps_compare_bitwise(const ps_compare_stats *st);

/** Cells whose bit patterns differ in any way (NaN mask, numbers, NaN bits). */
uint64_t ps_compare_bits_differ(const ps_compare_stats *st);

/** Ulp distance between two floats (ordered-integer mapping; NaN: UINT64_MAX). */
uint64_t ps_ulp_distance_f32(float a, float b);

/** Ulp distance between two doubles (ordered-integer mapping; NaN: UINT64_MAX). */
uint64_t ps_ulp_distance_f64(double a, double b);

/**
 * Print a human-readable report of @p st to @p f (counts, maxima with their
 * (t,k,j,i) locations, first mismatch, verdict). @p indent prefixes each line.
 */
void ps_compare_print(FILE *f, const ps_compare_stats *st, const char *indent);

#ifdef __cplusplus
}
#endif
#endif /* PS_COMPARE_H */
