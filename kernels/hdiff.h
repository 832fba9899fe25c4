/**
 * @file hdiff.h
 * @brief hdiff: finite-volume heat diffusion on the sphere, in SI units, on the
 *        file's own latitude-longitude-depth grid (defined in docs/model.md).
 *
 *     T' = T + dt * s,   s = sum over the ocean faces f of c_f * (T_f - T)
 *
 * s starts at +0.0 and visits the faces in the order k-1, k+1, j-1, j+1, i-1,
 * i+1; a land (NaN) neighbour carries no flux and its term is skipped. Every
 * operation is rounded in the working precision, with no fused multiply-add.
 * Land, a cell with no ocean neighbour and the boundary layers keep their
 * value. The face coefficients depend on (k, j) only; the host part below
 * computes them once in float64 from the grid's coordinates and the options
 * --kh and --kv (m2/s); the backends round them to the working precision.
 *
 * The stencil-file format is described in docs/adding-a-stencil.md.
 */
#include "ps_kernel_defs.h"

/** One line saying what the stencil computes (pstencil stencils, help). */
#define PS_hdiff_DESCRIPTION \
    "finite-volume heat diffusion on the sphere in SI units (needs the grid's coordinates)"
/** PS_STENCIL_* flags (core/ps_stencil.h): host side only; it needs coordinates. */
#define PS_hdiff_FLAGS PS_STENCIL_COORDS
/** Halo width a step reads. */
#define PS_hdiff_RADIUS 1
/** Neighbours (dk, dj, di) in the order the sum visits them. */
#define PS_hdiff_NEIGHBOURS(X) \
    X(-1, 0, 0) X(1, 0, 0) X(0, -1, 0) X(0, 1, 0) X(0, 0, -1) X(0, 0, 1)
/** Kernel scalars: the time step dt (s). */
#define PS_hdiff_SCALARS(X) X(dt)
/** Face coefficients (1/s): up = k-1/2, down = k+1/2, south, north, east = west. */
#define PS_hdiff_ARRAYS(X) \
    X(c_up, PS_AXIS_K) X(c_down, PS_AXIS_K) X(c_south, PS_AXIS_J) X(c_north, PS_AXIS_J) \
    X(c_east_west, PS_AXIS_J)
/** Not a land-sum stencil: each face has its own coefficient and term. */
#define PS_hdiff_LAND_SUM(X)
/** Auxiliary inputs (name, CF standard names, unit, required, help): none. */
#define PS_hdiff_INPUTS(X)
/** User options (name, unit, default, "auto" allowed, valid min, max, short alias, help). */
#define PS_hdiff_OPTIONS(X)                                                         \
    X(kh, "m2/s", 1000.0, 0, 0.0, 1e30, 0, "horizontal diffusivity")             \
    X(kv, "m2/s", 1e-5, 0, 0.0, 1e30, 0, "vertical diffusivity")                 \
    X(dt, "s", PS_OPTION_AUTO, 1, 0.0, 1e30, 0,                                  \
      "time step; 'auto' = 90% of the largest stable one")

#ifdef PS_REAL
/* one face: the term c_f * (T_f - T) where the neighbour is ocean, else +0.0;
 * o: whether any face is ocean (the update needs no count; PS_MASK, the type
 * of a comparison, so the function also compiles on vector types) */
#define PS_HDIFF_FACE(v, cf)                               \
    s = s + (((v) == (v)) ? (cf) * ((v) - c) : (PS_REAL)0); \
    o = o | ((v) == (v))

/**
 * New value of one interior cell: nb[] in PS_hdiff_NEIGHBOURS order, sc[0] =
 * dt, ar[] = (c_up, c_down, c_south, c_north, c_east_west) at the cell.
 * Skipping a land face and adding +0.0 are the same bitwise (s starts at
 * +0.0, so it is never -0.0).
 */
PS_KERNEL_FN PS_REAL PS_CAT(ps_hdiff_point, PS_SUFFIX)(PS_REAL c, const PS_REAL *nb,
                                                       const PS_REAL *sc, const PS_REAL *ar)
{
    PS_REAL s = (PS_REAL)0;
    PS_MASK o = 0;
    PS_REAL t;
    PS_HDIFF_FACE(nb[0], ar[0]);
    PS_HDIFF_FACE(nb[1], ar[1]);
    PS_HDIFF_FACE(nb[2], ar[2]);
    PS_HDIFF_FACE(nb[3], ar[3]);
    PS_HDIFF_FACE(nb[4], ar[4]);
    PS_HDIFF_FACE(nb[5], ar[4]);
    t = sc[0] * s;
    return (c != c || !o) ? c : c + t;
}
#undef PS_HDIFF_FACE
#endif /* PS_REAL */

/* ---- host side: coefficients from the grid (registry only) ------------ */
#if defined(PS_STENCIL_HOST) && !defined(PS_HDIFF_HOST)
#define PS_HDIFF_HOST
#define PS_HDIFF_R 6371000.0 /* Earth radius, m */

/* Strictly monotonic coordinate (either direction)? */
static int ps_hdiff_monotonic(const double *v, size_t n)
{
    size_t q;
    for (q = 0; q + 1 < n; q++)
        if (!(v[q + 1] - v[q] > 0) != !(v[1] - v[0] > 0) || v[q + 1] == v[q] ||
            v[q + 1] != v[q + 1])
            return 0;
    return 1;
}

static int ps_hdiff_prepare(const ps_stencil_setup *in, ps_params *out, ps_stencil_report *rep,
                            char *why, size_t whylen)
{
    const double deg = 3.14159265358979323846 / 180.0;
    const double kh = in->options[0], kv = in->options[1];
    double dt = in->options[2];
    size_t nz = in->grid.nz, ny = in->grid.ny, nx = in->grid.nx, k, j, q;
    double *up, *dn, *so, *no, *ew, dlon, rate = 0.0, limit;
    size_t kmax = 0, jmax = 0;

    if (!in->depth || !in->lat || !in->lon) {
        snprintf(why, whylen, "hdiff needs the grid's depth, latitude and longitude "
                              "coordinates (the input has none for %s)",
                 !in->depth ? "depth" : !in->lat ? "latitude" : "longitude");
        return PS_EINVAL;
    }
    if (!(kh >= 0 && kh < 1e30) || !(kv >= 0 && kv < 1e30)) {
        snprintf(why, whylen, "--%s must be a finite number >= 0 (m2/s), not %g",
                 !(kh >= 0 && kh < 1e30) ? "kh" : "kv", !(kh >= 0 && kh < 1e30) ? kh : kv);
        return PS_EINVAL;
    }
    if (dt == dt && !(dt > 0 && dt < 1e30)) {
        snprintf(why, whylen, "--dt must be a positive number of seconds or 'auto', not %g",
                 dt);
        return PS_EINVAL;
    }
    if (nx >= 2) {
        /* each longitude on the uniform grid lon_0 + q dlon to 1e-6 of the largest
         * |longitude|: the rounding of float32 coordinates (a few 1e-8 of the value)
         * passes, a grid with irregular spacing does not */
        double big;
        dlon = (in->lon[nx - 1] - in->lon[0]) / (double)(nx - 1);
        big = fabs(dlon);
        for (q = 0; q < nx; q++)
            big = fabs(in->lon[q]) > big ? fabs(in->lon[q]) : big;
        for (q = 0; q < nx; q++) {
            double d = in->lon[q] - (in->lon[0] + (double)q * dlon);
            if (!(fabs(d) <= 1e-6 * big) || dlon == 0 ||
                (q + 1 < nx && !((in->lon[q + 1] - in->lon[q]) * dlon > 0))) {
                snprintf(why, whylen, "hdiff needs uniformly spaced longitudes: longitude %.9g "
                         "at index %zu is %.3g degrees off the uniform grid %.9g + i * %.9g "
                         "(more than 1e-6 of the largest |longitude|)", in->lon[q], q, d,
                         in->lon[0], dlon);
                return PS_EINVAL;
            }
        }
        dlon = fabs(dlon) * deg;
    } else {
        dlon = 1.0;
    }
    if (!ps_hdiff_monotonic(in->lat, ny) || !ps_hdiff_monotonic(in->depth, nz)) {
        snprintf(why, whylen, "hdiff needs strictly monotonic %s coordinates",
                 !ps_hdiff_monotonic(in->lat, ny) ? "latitude" : "depth");
        return PS_EINVAL;
    }
    for (j = 1; j + 1 < ny; j++)
        if (!(fabs(in->lat[j]) < 90.0)) {
            snprintf(why, whylen, "hdiff: latitude %g at index %zu is not inside (-90, 90)",
                     in->lat[j], j);
            return PS_EINVAL;
        }
    up = out->arrays;
    dn = up + nz;
    so = dn + nz;
    no = so + ny;
    ew = no + ny;
    for (q = 0; q < 2 * nz + 3 * ny; q++)
        out->arrays[q] = 0.0;
    /* vertical: d_{k+1/2} = z_{k+1} - z_k, h_k = (z_{k+1} - z_{k-1}) / 2 */
    for (k = 1; k + 1 < nz; k++) {
        const double *z = in->depth;
        double h = (z[k + 1] - z[k - 1]) / 2.0;
        up[k] = kv / ((z[k] - z[k - 1]) * h);
        dn[k] = kv / ((z[k + 1] - z[k]) * h);
    }
    /* horizontal: faces at latitude mid-points, w_j = (lat_{j+1} - lat_{j-1}) / 2 */
    for (j = 1; j + 1 < ny; j++) {
        const double *lat = in->lat;
        double cj = cos(lat[j] * deg);
        double w = (lat[j + 1] - lat[j - 1]) / 2.0 * deg;
        double gn = (lat[j + 1] - lat[j]) * deg, gs = (lat[j] - lat[j - 1]) * deg;
        double x = PS_HDIFF_R * cj * dlon;
        ew[j] = kh / (x * x);
        no[j] = kh * cos((lat[j] + lat[j + 1]) / 2.0 * deg) /
                (PS_HDIFF_R * PS_HDIFF_R * cj * gn * w);
        so[j] = kh * cos((lat[j - 1] + lat[j]) / 2.0 * deg) /
                (PS_HDIFF_R * PS_HDIFF_R * cj * gs * w);
    }
    /* the explicit scheme is stable while dt * (sum of the six c_f) <= 1 */
    for (k = 1; k + 1 < nz; k++)
        for (j = 1; j + 1 < ny; j++) {
            double r = up[k] + dn[k] + so[j] + no[j] + 2.0 * ew[j];
            if (r > rate) {
                rate = r;
                kmax = k;
                jmax = j;
            }
        }
    limit = rate > 0 ? 1.0 / rate : HUGE_VAL;
    if (dt != dt) {
        if (!(limit < 1e30)) {
            snprintf(why, whylen, "--dt auto: nothing limits the time step (no interior "
                                  "cells, or --kh and --kv are 0); give --dt");
            return PS_EINVAL;
        }
        dt = 0.9 * limit;
        snprintf(rep->note, sizeof rep->note,
                 "dt auto = %.6g s (90%% of the largest stable step %.6g s, set by depth "
                 "level %zu, latitude %g)", dt, limit, kmax, in->lat[jmax]);
    } else if (dt > limit) {
        snprintf(why, whylen, "--dt %g s is unstable on this grid: the largest stable step is "
                 "%.6g s (dt * sum of the face coefficients must be <= 1; the limit is set by "
                 "depth level %zu at latitude %g)", dt, limit, kmax, in->lat[jmax]);
        return PS_ERANGE;
    }
    out->scalars[0] = dt;
    rep->seconds_per_step = dt;
    rep->stable_limit = limit;
    return PS_OK;
}
#undef PS_HDIFF_R
#endif
