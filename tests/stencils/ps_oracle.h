/*
 * The tests' independent oracle: the stencils of docs/model.md written again
 * as literal loops, from the formulas, without kernels/ or the registry, so
 * that a backend (the reference first) can be compared with it bitwise.
 *
 * Fields are C-order (k slowest) arrays of nz*ny*nx values, NaN = land. A
 * step updates every cell that is not on a face of the grid, is ocean and
 * has at least one ocean neighbour; every other cell keeps its value.
 */
#ifndef PS_ORACLE_H
#define PS_ORACLE_H

#include <stddef.h>

/** hdiff's face coefficients (1/s) over the grid, computed in float64. */
typedef struct ps_oracle_hdiff {
    size_t nz, ny, nx;
    double *up, *down;          /* [k]: faces k-1/2 and k+1/2 */
    double *south, *north, *ew; /* [j]: faces j-1/2, j+1/2, and east = west */
    double limit;               /* largest stable dt: 1 / max over interior (k,j) of the sum */
} ps_oracle_hdiff;

/**
 * hdiff's coefficients from depth (m, positive down), latitude and longitude
 * (degrees) and kh, kv (m2/s). Only interior indices are set (0 elsewhere).
 * Returns 0, or -1 when out of memory.
 */
int ps_oracle_hdiff_coeffs(size_t nz, size_t ny, size_t nx, const double *depth,
                           const double *lat, const double *lon, double kh, double kv,
                           ps_oracle_hdiff *c);
void ps_oracle_hdiff_free(ps_oracle_hdiff *c);

/** One hdiff step in float32 / float64 (coefficients and dt rounded once). */
void ps_oracle_hdiff_step_f32(const float *in, float *out, const ps_oracle_hdiff *c, double dt);
void ps_oracle_hdiff_step_f64(const double *in, double *out, const ps_oracle_hdiff *c,
                              double dt);

/**
 * tracer's transport rates (1/s) of every cell, in geographic terms on a
 * grid stored the usual way (depth growing with k, latitude and longitude
 * growing with j and i): east, west, north and south faces' rates of the
 * horizontal flow out of (east, north) and into (west, south) the cell, and
 * the upward rates through its top (k-1/2) and bottom (k+1/2) faces, w
 * diagnosed from continuity when @p w is NULL (docs/model.md).
 */
typedef struct ps_oracle_tracer {
    ps_oracle_hdiff h; /* the diffusion (hdiff's coefficients) */
    double *re, *rw, *rn, *rs, *rt, *rb; /* [cell] */
    double limit;      /* largest stable dt */
} ps_oracle_tracer;

/** The rates from u, v (and w, NULL = diagnosed) (m/s, NaN on land). 0, or -1. */
int ps_oracle_tracer_rates(size_t nz, size_t ny, size_t nx, const double *depth,
                           const double *lat, const double *lon, double kh, double kv,
                           const double *u, const double *v, const double *w,
                           ps_oracle_tracer *c);
void ps_oracle_tracer_free(ps_oracle_tracer *c);
/** One tracer step in float32 / float64 (rates and dt rounded once). */
void ps_oracle_tracer_step_f32(const float *in, float *out, const ps_oracle_tracer *c,
                               double dt);
void ps_oracle_tracer_step_f64(const double *in, double *out, const ps_oracle_tracer *c,
                               double dt);

/** One diffusion7 step (docs/numerical-contract.md) in float32 / float64. */
void ps_oracle_d7_step_f32(const float *in, float *out, size_t nz, size_t ny, size_t nx,
                           double d);
void ps_oracle_d7_step_f64(const double *in, double *out, size_t nz, size_t ny, size_t nx,
                           double d);

/**
 * Volume-weighted heat content sum(cos(lat_j) w_j h_k T) over the ocean
 * cells that are not on a face of the grid, in float64 with compensated
 * summation (w_j and h_k as in docs/model.md); @p abs_sum receives the same
 * sum of |T| weights (the scale of the rounding errors). @p single: the field
 * is float32, else float64.
 */
double ps_oracle_heat(const void *field, int single, size_t nz, size_t ny, size_t nx,
                      const double *depth, const double *lat, double *abs_sum);

#endif
