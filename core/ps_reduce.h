/**
 * @file ps_reduce.h
 * @brief The reductions of a record: the volume-weighted content, volume,
 *        mean, minimum and maximum of a field over its ocean cells, bitwise
 *        the same however the grid is split (docs/numerical-contract.md,
 *        "Reductions").
 *
 * A cell is ocean where its value is not NaN. Its volume V comes from its
 * global (k, j) indices (ps_cell_volumes(): the sphere's finite-volume metric,
 * docs/model.md),
 * or is 1 when the grid has no usable coordinates. The content is the sum
 * over ocean cells of V * T, each term one IEEE double multiply of V by the
 * value T converted to double, summed exactly (core/ps_exactsum.h) and
 * rounded once; the volume is the exact sum of V over the same cells,
 * rounded once; the mean is content / volume (one division); minimum and
 * maximum are exact (-0.0 below +0.0). A block of the grid gives a partial
 * reduction (ps_reduce_part) that merges with the others in any order, in
 * the same process or, packed as integers, over processes.
 */
#ifndef PS_REDUCE_H
#define PS_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "ps_exactsum.h"
#include "ps_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The reductions of one field in one record. */
typedef struct ps_reduction {
    double content;   /**< sum over ocean cells of V * T, correctly rounded */
    double volume;    /**< sum of V over the ocean cells, correctly rounded */
    double mean;      /**< content / volume (NaN without an ocean cell) */
    double min;       /**< smallest ocean value (NaN without an ocean cell) */
    double max;       /**< largest ocean value (NaN without an ocean cell) */
    long long cells;  /**< ocean (not NaN) cells */
} ps_reduction;

/** A partial reduction: exact sums and extremes of some cells. */
typedef struct ps_reduce_part {
    ps_xsum content;  /**< sum of V * T */
    ps_xsum volume;   /**< sum of V */
    double min;       /**< smallest value (meaningful when cells > 0) */
    double max;       /**< largest value (meaningful when cells > 0) */
    long long cells;  /**< ocean cells */
} ps_reduce_part;

/** Words of ps_reduce_pack()'s integer sums. */
#define PS_REDUCE_SUM_WORDS (2 * PS_XSUM_WORDS + 1)

/** Words of ps_reduce_pack()'s extremes (each combined by its largest). */
#define PS_REDUCE_MAX_WORDS 2

/** Earth radius of the finite-volume metric, m (docs/model.md). */
#define PS_REDUCE_R 6371000.0

/**
 * The volume of a cell of global level k and row j, in m3, into
 * @p vol[k * g.ny + j], from the grid's coordinates (depth in m positive
 * down, degrees north, degrees east; the metric's rules, docs/model.md):
 * `V = ((((R * R) * dlon) * cos(lat_j)) * |w_j|) * |h_k|` with
 * `dlon = |(lon_{nx-1} - lon_0) / (nx-1)|`, `w_j = (lat_{j+1} - lat_{j-1}) / 2` and
 * `h_k = (z_{k+1} - z_{k-1}) / 2` as the model forms them (angles multiplied by pi/180
 * after the differences), and on the outer layers, where the model needs none,
 * one-sided: `w_0 = lat_1 - lat_0`, `w_{ny-1} = lat_{ny-1} - lat_{ny-2}`,
 * `h_0 = z_1 - z_0`, `h_{nz-1} = z_{nz-1} - z_{nz-2}`.
 * @return PS_OK; PS_EINVAL with the reason in @p why when the coordinates
 *         are not usable: a missing axis, fewer than 2 points along an axis,
 *         a non-finite value, latitudes or depths not strictly monotonic, a
 *         latitude outside [-90, 90], longitudes not uniform to 1e-6 of the
 *         largest |longitude| (the model's test).
 */
int ps_cell_volumes(ps_grid g, const double *depth, const double *lat, const double *lon,
                    double *vol, char *why, size_t whylen);

/** An empty partial reduction. */
void ps_reduce_part_init(ps_reduce_part *p);

/**
 * Add the cells of @p f, the block of a global grid of @p global_ny rows
 * whose first cell is global cell (@p origin[0], origin[1], origin[2]):
 * cell (k, j, i) of the block weighs @p vol[(origin[0] + k) * global_ny +
 * origin[1] + j] (NULL: 1). Up to @p threads threads (<= 1: this one)
 * share the levels; the result does not depend on their number.
 * @return PS_OK, PS_EINVAL (no field), PS_ENOMEM.
 */
int ps_reduce_field(ps_reduce_part *p, const ps_field *f, const size_t origin[3],
                    const double *vol, size_t global_ny, int threads);

/** Merge @p b into @p a (any order gives the same result). */
void ps_reduce_merge(ps_reduce_part *a, const ps_reduce_part *b);

/** The reductions a (merged) partial reduction gives. */
void ps_reduce_finish(const ps_reduce_part *p, ps_reduction *out);

/**
 * The partial reduction as integers for other processes: @p sums
 * (PS_REDUCE_SUM_WORDS), to be summed element-wise over the processes, and
 * @p maxes (PS_REDUCE_MAX_WORDS, unsigned order keys of the maximum and of
 * the minimum), each to be combined by its largest value. ps_reduce_unpack()
 * of the combined words is the merge of every process's part.
 */
void ps_reduce_pack(const ps_reduce_part *p, long long *sums, uint64_t *maxes);

/** The partial reduction combined words hold (see ps_reduce_pack()). */
void ps_reduce_unpack(ps_reduce_part *p, const long long *sums, const uint64_t *maxes);

#ifdef __cplusplus
}
#endif
#endif
