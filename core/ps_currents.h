/**
 * @file ps_currents.h
 * @brief A documented ocean current for stencils that move a field with the
 *        flow (an advection stencil): a wind-driven gyre from a stream function, used by
 *        the built-in ocean, `pstencil gen` and validation when a file gives
 *        no velocities.
 */
#ifndef PS_CURRENTS_H
#define PS_CURRENTS_H

#include "ps_field.h"
#include "ps_stencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Fastest surface current (m/s) of the gyre that the built-in ocean, `pstencil gen`,
 *  validation and benchmarks give a stencil when no file does. */
#define PS_GYRE_SPEED 0.2

/** e-folding depth of the gyre's currents (m). */
#define PS_GYRE_DEPTH_SCALE 500.0

/**
 * The gyre's eastward and northward velocities (m/s) at the cell centres of
 * grid @p g, nz*ny*nx values each in C order (k slowest). With
 * x = lon * cos(lat_mid) and y = lat (degrees; lat_mid the middle of the
 * latitude range) spanning Lx and Ly over the grid, the stream function
 *     psi = sin(pi (y - y0) / Ly) * sin(pi (x - x0) / Lx) * exp(-z / PS_GYRE_DEPTH_SCALE)
 * gives u = -d psi / dy and v = d psi / dx, scaled so that the fastest
 * surface current is @p speed (m/s): one closed anticlockwise gyre filling
 * the grid, weakening with depth z (m, positive down), zero on its edges.
 * Each value is rounded to float32, so a file that stores them as float32
 * (`pstencil gen`) gives a run the same currents.
 * Land is the caller's to mask (NaN where the field is land). A grid with a
 * single latitude or longitude gets no flow along the other axis.
 * @return PS_OK, or PS_EINVAL for NULL arrays or a speed that is not finite
 *         and >= 0.
 */
int ps_currents_gyre(ps_grid g, const double *depth, const double *lat, const double *lon,
                     double speed, double *u, double *v);

/** Which current component an input carries (ps_currents_axis()). */
enum ps_current_axis {
    PS_CURRENT_NONE = 0, /**< not a horizontal current */
    PS_CURRENT_U = 1,    /**< eastward (u): eastward_sea_water_velocity, sea_water_x_velocity */
    PS_CURRENT_V = 2     /**< northward (v): northward_sea_water_velocity, sea_water_y_velocity */
};

/**
 * The current component that input @p in carries, by its CF standard names
 * (the `|`-separated list of ps_stencil_input::standard_names): PS_CURRENT_U
 * if they include eastward_sea_water_velocity or sea_water_x_velocity, else
 * PS_CURRENT_V if they include northward_sea_water_velocity or
 * sea_water_y_velocity, else PS_CURRENT_NONE. The one place that maps an
 * input to a current: the gyre inputs below and the job's built-in ocean use it.
 */
int ps_currents_axis(const ps_stencil_input *in);

/**
 * The auxiliary inputs of stencil @p s that are currents, from the gyre
 * (ps_currents_gyre() at @p speed m/s) on grid @p g with the given
 * coordinates: an input that ps_currents_axis() calls PS_CURRENT_U gets u,
 * PS_CURRENT_V gets v, both NaN wherever field @p land_of (on grid @p g; NULL: no land)
 * is NaN; any other input is not given
 * (NULL). @p ptrs receives s->ninputs pointers into *@p buf, which the caller
 * frees (also on failure).
 * @return PS_OK; PS_ENOMEM; PS_EUNSUPPORTED for a required input that is not
 *         a horizontal current (the detail names it); PS_EINVAL as the gyre.
 */
int ps_currents_inputs(const ps_stencil *s, ps_grid g, const ps_field *land_of,
                       const double *depth,
                       const double *lat, const double *lon, double speed, double **buf,
                       const double **ptrs);

/**
 * The parameters of stencil @p s with its default options on @p land_of's
 * grid with the given coordinates (each may be NULL where the stencil needs
 * none), its current inputs from the gyre at PS_GYRE_SPEED over @p land_of's
 * land (ps_currents_inputs()): what a benchmark runs a stencil with.
 * @return as ps_currents_inputs() and ps_stencil_prepare(); @p rep as the latter's.
 */
int ps_currents_prepare(const ps_stencil *s, const ps_field *land_of, const double *depth,
                        const double *lat, const double *lon, ps_params *out,
                        ps_stencil_report *rep);

#ifdef __cplusplus
}
#endif
#endif /* PS_CURRENTS_H */
