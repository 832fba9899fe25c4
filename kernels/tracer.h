/**
 * @file tracer.h
 * @brief tracer: a tracer (temperature, salinity) moved by the ocean's
 *        currents and mixed by hdiff's diffusion: finite-volume, conservative,
 *        first-order upwind advection-diffusion on the sphere in SI units, on
 *        the file's own grid (defined in docs/model.md).
 *
 *     T' = c + dt * (s + a)
 *
 * s is hdiff's diffusive sum (faces k-1, k+1, j-1, j+1, i-1, i+1, a land face
 * skipped). a is the advective sum over the same faces in the same order,
 * from +0.0, a land face skipped. With q the face's transport rate (1/s, the
 * velocity along the index direction through the face divided by the cell's
 * metric, computed by the host part below):
 *     low face (k-1, j-1, i-1):  a = a + q * (q >= 0 ? T_nb : c)
 *     high face (k+1, j+1, i+1): a = a - q * (q >= 0 ? c : T_nb)
 * then t = s + a; t = dt * t; T' = c + t. Every operation is rounded in the
 * working precision, with no fused multiply-add. Land, a cell with no ocean
 * neighbour and the boundary layers keep their value.
 *
 * The host part takes the velocities (m/s, cell-centred) as auxiliary inputs:
 * a face velocity is the mean of its two cells' values when both are ocean,
 * 0 at a land face; without an upward velocity, w is diagnosed per column
 * from continuity so every updated ocean cell has zero discrete divergence.
 *
 * The stencil-file format is described in docs/adding-a-stencil.md.
 */
#include "ps_kernel_defs.h"

/** One line saying what the stencil computes (pstencil stencils, help). */
#define PS_tracer_DESCRIPTION                                                              \
    "upwind advection by the currents plus hdiff's diffusion, conservative (needs the "  \
    "grid's coordinates and the currents)"
/** PS_STENCIL_* flags (core/ps_stencil.h): host side only; it needs coordinates. */
#define PS_tracer_FLAGS PS_STENCIL_COORDS
/** Halo width a step reads. */
#define PS_tracer_RADIUS 1
/** Neighbours (dk, dj, di) in the order both sums visit them. */
#define PS_tracer_NEIGHBOURS(X) \
    X(-1, 0, 0) X(1, 0, 0) X(0, -1, 0) X(0, 1, 0) X(0, 0, -1) X(0, 0, 1)
/** Kernel scalars: the time step dt (s). */
#define PS_tracer_SCALARS(X) X(dt)
/** hdiff's face coefficients (1/s), then the six faces' transport rates (1/s)
 *  of every cell: faces k-1/2, k+1/2, j-1/2, j+1/2, i-1/2, i+1/2. */
#define PS_tracer_ARRAYS(X)                                                                 \
    X(c_up, PS_AXIS_K) X(c_down, PS_AXIS_K) X(c_south, PS_AXIS_J) X(c_north, PS_AXIS_J)    \
    X(c_east_west, PS_AXIS_J) X(q_k_lo, PS_AXIS_CELL) X(q_k_hi, PS_AXIS_CELL)              \
    X(q_j_lo, PS_AXIS_CELL) X(q_j_hi, PS_AXIS_CELL) X(q_i_lo, PS_AXIS_CELL)                \
    X(q_i_hi, PS_AXIS_CELL)
/** Not a land-sum stencil: each face has its own terms. */
#define PS_tracer_LAND_SUM(X)
/** Auxiliary inputs (name, CF standard names, unit, required, help). */
#define PS_tracer_INPUTS(X)                                                                 \
    X(u, "eastward_sea_water_velocity|sea_water_x_velocity", "m s-1", 1,                   \
      "eastward current at the cell centres")                                              \
    X(v, "northward_sea_water_velocity|sea_water_y_velocity", "m s-1", 1,                  \
      "northward current at the cell centres")                                             \
    X(w, "upward_sea_water_velocity", "m s-1", 0,                                          \
      "upward current at the cell centres (default: diagnosed from continuity)")
/** User options (name, unit, default, "auto" allowed, valid min, max, short alias, help). */
#define PS_tracer_OPTIONS(X)                                                        \
    X(kh, "m2/s", 1000.0, 0, 0.0, 1e30, 0, "horizontal diffusivity")             \
    X(kv, "m2/s", 1e-5, 0, 0.0, 1e30, 0, "vertical diffusivity")                 \
    X(dt, "s", PS_OPTION_AUTO, 1, 0.0, 1e30, 0,                                  \
      "time step; 'auto' = 90% of the largest stable one")

#ifdef PS_REAL
/* one face's diffusive term where the neighbour is ocean */
#define PS_TRACER_DIFF(v, cf)                               \
    s = s + (((v) == (v)) ? (cf) * ((v) - c) : (PS_REAL)0); \
    o = o | ((v) == (v))
/* the advective term of a low face (k-1, j-1, i-1) and of a high one */
#define PS_TRACER_LO(v, q) a = a + (((v) == (v)) ? (q) * (((q) >= (PS_REAL)0) ? (v) : c) : (PS_REAL)0)
#define PS_TRACER_HI(v, q) a = a - (((v) == (v)) ? (q) * (((q) >= (PS_REAL)0) ? c : (v)) : (PS_REAL)0)

/**
 * New value of one interior cell: nb[] in PS_tracer_NEIGHBOURS order, sc[0] =
 * dt, ar[] = (c_up, c_down, c_south, c_north, c_east_west, q_k_lo, q_k_hi,
 * q_j_lo, q_j_hi, q_i_lo, q_i_hi) at the cell.
 */
PS_KERNEL_FN PS_REAL PS_CAT(ps_tracer_point, PS_SUFFIX)(PS_REAL c, const PS_REAL *nb,
                                                        const PS_REAL *sc, const PS_REAL *ar)
{
    PS_REAL s = (PS_REAL)0, a = (PS_REAL)0;
    PS_MASK o = 0;
    PS_REAL t;
    PS_TRACER_DIFF(nb[0], ar[0]);
    PS_TRACER_DIFF(nb[1], ar[1]);
    PS_TRACER_DIFF(nb[2], ar[2]);
    PS_TRACER_DIFF(nb[3], ar[3]);
    PS_TRACER_DIFF(nb[4], ar[4]);
    PS_TRACER_DIFF(nb[5], ar[4]);
    PS_TRACER_LO(nb[0], ar[5]);
    PS_TRACER_HI(nb[1], ar[6]);
    PS_TRACER_LO(nb[2], ar[7]);
    PS_TRACER_HI(nb[3], ar[8]);
    PS_TRACER_LO(nb[4], ar[9]);
    PS_TRACER_HI(nb[5], ar[10]);
    t = s + a;
    t = sc[0] * t;
    return (c != c || !o) ? c : c + t;
}
#undef PS_TRACER_DIFF
#undef PS_TRACER_LO
#undef PS_TRACER_HI
#endif /* PS_REAL */

/* ---- host side: coefficients and transport rates (registry only) ------ */
#if defined(PS_STENCIL_HOST) && !defined(PS_TRACER_HOST)
#define PS_TRACER_HOST
#define PS_TRACER_R 6371000.0 /* Earth radius, m */

/*
 * The tracer's parameters: hdiff's face coefficients (its prepare, with
 * options kh, kv and dt = 1 so that it never refuses the step), then the
 * transport rates of every interior ocean cell, then the stability limit
 * over both.
 */
static int ps_tracer_prepare(const ps_stencil_setup *in, ps_params *out, ps_stencil_report *rep,
                             char *why, size_t whylen)
{
    const double deg = 3.14159265358979323846 / 180.0;
    const size_t nz = in->grid.nz, ny = in->grid.ny, nx = in->grid.nx, n = nz * ny * nx;
    const size_t ncoef = 2 * nz + 3 * ny;
    const double *u = in->inputs ? in->inputs[0] : NULL, *v = in->inputs ? in->inputs[1] : NULL;
    const double *wup = in->inputs ? in->inputs[2] : NULL;
    double *up, *dn, *so, *no, *ew, *qkl, *qkh, *qjl, *qjh, *qil, *qih;
    double opts[3], dt = in->options[2], dlon = 1.0, rate = 0.0, limit;
    double sgn_i = 1.0, sgn_j = 1.0, sgn_k = 1.0;
    ps_stencil_setup hin = *in;
    ps_stencil_report hrep;
    size_t k, j, i, kmax = 0, jmax = 0, imax = 0;
    int st;
#define TR_AT(k_, j_, i_) (((size_t)(k_) * ny + (size_t)(j_)) * nx + (size_t)(i_))
#define TR_OCEAN(c_) (u[c_] == u[c_] && v[c_] == v[c_] && (!wup || wup[c_] == wup[c_]))

    if (!u || !v) {
        snprintf(why, whylen, "tracer needs the %s current (a variable with standard name "
                 "%s): none was given", !u ? "eastward" : "northward",
                 !u ? "eastward_sea_water_velocity or sea_water_x_velocity"
                    : "northward_sea_water_velocity or sea_water_y_velocity");
        return PS_EINVAL;
    }
    /* hdiff's coefficients and checks of the coordinates and kh, kv */
    opts[0] = in->options[0];
    opts[1] = in->options[1];
    opts[2] = 1e-300; /* a step hdiff never finds unstable: the limit is set below */
    hin.options = opts;
    hin.allow_unstable = 1;
    memset(&hrep, 0, sizeof hrep);
    if ((st = ps_hdiff_prepare(&hin, out, &hrep, why, whylen)))
        return st;
    if (dt == dt && !(dt > 0 && dt < 1e30)) {
        snprintf(why, whylen, "--dt must be a positive number of seconds or 'auto', not %g",
                 dt);
        return PS_EINVAL;
    }
    up = out->arrays;
    dn = up + nz;
    so = dn + nz;
    no = so + ny;
    ew = no + ny;
    qkl = out->arrays + ncoef;
    qkh = qkl + n;
    qjl = qkh + n;
    qjh = qjl + n;
    qil = qjh + n;
    qih = qil + n;
    if (nx >= 2) {
        dlon = fabs(in->lon[nx - 1] - in->lon[0]) / (double)(nx - 1) * deg;
        sgn_i = in->lon[nx - 1] > in->lon[0] ? 1.0 : -1.0;
    }
    if (ny >= 2)
        sgn_j = in->lat[ny - 1] > in->lat[0] ? 1.0 : -1.0;
    if (nz >= 2)
        sgn_k = in->depth[nz - 1] > in->depth[0] ? 1.0 : -1.0;
    for (i = 0; i < 6 * n; i++)
        qkl[i] = 0.0;
    if (nz < 3 || ny < 3 || nx < 3)
        goto stability;
    /*
     * Horizontal rates. The velocity along +i through face i+1/2 is the mean of
     * the two cells' eastward velocities times sgn_i (0 at a land face); its
     * rate in cell (k,j,i) divides it by R cos(lat_j) dlon. Along +j the face
     * velocity is scaled by cos(lat_{j+1/2}) and divided by R cos(lat_j) w_j.
     */
    for (k = 1; k + 1 < nz; k++)
        for (j = 1; j + 1 < ny; j++) {
            const double cj = cos(in->lat[j] * deg);
            const double wj = fabs(in->lat[j + 1] - in->lat[j - 1]) / 2.0 * deg;
            const double cs = cos((in->lat[j - 1] + in->lat[j]) / 2.0 * deg);
            const double cn = cos((in->lat[j] + in->lat[j + 1]) / 2.0 * deg);
            const double mx = PS_TRACER_R * cj * dlon, my = PS_TRACER_R * cj * wj;
            for (i = 1; i + 1 < nx; i++) {
                size_t c = TR_AT(k, j, i), w = c - 1, e = c + 1, s = c - nx, nn = c + nx;
                if (!TR_OCEAN(c))
                    continue;
                qil[c] = TR_OCEAN(w) ? sgn_i * ((u[w] + u[c]) / 2.0) / mx : 0.0;
                qih[c] = TR_OCEAN(e) ? sgn_i * ((u[c] + u[e]) / 2.0) / mx : 0.0;
                qjl[c] = TR_OCEAN(s) ? cs * (sgn_j * ((v[s] + v[c]) / 2.0)) / my : 0.0;
                qjh[c] = TR_OCEAN(nn) ? cn * (sgn_j * ((v[c] + v[nn]) / 2.0)) / my : 0.0;
            }
        }
    /*
     * Vertical rates: W is the velocity along +k through a face. Given w (up),
     * W = -sgn_k * mean of the two cells' w (0 at a land face). Otherwise W is
     * diagnosed per column from the deep end: 0 at the face between the
     * deepest updated level and the bottom boundary layer and at every land
     * face, and through each ocean cell's shallow face the value that makes
     * the cell's divergence zero:
     *     (W_{k+1/2} - W_{k-1/2}) / h_k + divH = 0,
     * with divH = q_i_hi - q_i_lo + q_j_hi - q_j_lo (the horizontal rates above).
     * The rate in cell k is W / h_k, h_k = |z_{k+1} - z_{k-1}| / 2.
     */
    for (j = 1; j + 1 < ny; j++)
        for (i = 1; i + 1 < nx; i++) {
            double wdeep = 0.0; /* W through the deep face of the cell being visited */
            size_t q;
            for (q = 0; q + 2 < nz; q++) {
                /* k runs from the deepest updated level towards the surface */
                const size_t kk = sgn_k > 0 ? nz - 2 - q : 1 + q;
                const size_t kshal = sgn_k > 0 ? kk - 1 : kk + 1, kdeep = sgn_k > 0 ? kk + 1 : kk - 1;
                const size_t c = TR_AT(kk, j, i), cs = TR_AT(kshal, j, i), cd = TR_AT(kdeep, j, i);
                const double h = fabs(in->depth[kk + 1] - in->depth[kk - 1]) / 2.0;
                double wshal;
                if (!TR_OCEAN(c)) {
                    wdeep = 0.0;
                    continue;
                }
                if (!TR_OCEAN(cd))
                    wdeep = 0.0;
                if (wup) {
                    wshal = TR_OCEAN(cs) ? -sgn_k * ((wup[cs] + wup[c]) / 2.0) : 0.0;
                    wdeep = TR_OCEAN(cd) ? -sgn_k * ((wup[c] + wup[cd]) / 2.0) : 0.0;
                } else {
                    const double divh = (qih[c] - qil[c]) + (qjh[c] - qjl[c]);
                    /* sgn_k > 0: W_{k-1/2} = W_{k+1/2} + h divH; else
                     * W_{k+1/2} = W_{k-1/2} - h divH (W along +k either way) */
                    wshal = TR_OCEAN(cs) ? (sgn_k > 0 ? wdeep + h * divh : wdeep - h * divh)
                                         : 0.0;
                }
                if (sgn_k > 0) {
                    qkl[c] = wshal / h;
                    qkh[c] = wdeep / h;
                } else {
                    qkl[c] = wdeep / h;
                    qkh[c] = wshal / h;
                }
                wdeep = wshal;
            }
        }
stability:
    /* stable while dt * (outgoing transport rates + the six c_f) <= 1 in every
     * updated ocean cell */
    for (k = 1; k + 1 < nz; k++)
        for (j = 1; j + 1 < ny; j++)
            for (i = 1; i + 1 < nx; i++) {
                size_t c = TR_AT(k, j, i);
                double r;
                if (!TR_OCEAN(c))
                    continue;
                r = up[k] + dn[k] + so[j] + no[j] + 2.0 * ew[j];
                r += (qkl[c] < 0 ? -qkl[c] : 0.0) + (qkh[c] > 0 ? qkh[c] : 0.0);
                r += (qjl[c] < 0 ? -qjl[c] : 0.0) + (qjh[c] > 0 ? qjh[c] : 0.0);
                r += (qil[c] < 0 ? -qil[c] : 0.0) + (qih[c] > 0 ? qih[c] : 0.0);
                if (r > rate) {
                    rate = r;
                    kmax = k;
                    jmax = j;
                    imax = i;
                }
            }
    limit = rate > 0 ? 1.0 / rate : HUGE_VAL;
    if (dt != dt) {
        if (!(limit < 1e30)) {
            snprintf(why, whylen, "--dt auto: nothing limits the time step (no interior ocean "
                                  "cells, no currents and --kh and --kv 0); give --dt");
            return PS_EINVAL;
        }
        dt = 0.9 * limit;
        snprintf(rep->note, sizeof rep->note,
                 "dt auto = %.6g s (90%% of the largest stable step %.6g s, set at depth "
                 "level %zu, latitude %g, longitude %g)", dt, limit, kmax, in->lat[jmax],
                 in->lon[imax]);
    } else if (dt > limit && !in->allow_unstable) {
        snprintf(why, whylen, "--dt %g s is unstable here: the largest stable step is %.6g s "
                 "(dt * (outgoing transport rates + face coefficients) must be <= 1; the "
                 "limit is set at depth level %zu, latitude %g, longitude %g)", dt, limit,
                 kmax, in->lat[jmax], in->lon[imax]);
        return PS_ERANGE;
    }
    out->scalars[0] = dt;
    rep->seconds_per_step = dt;
    rep->stable_limit = limit;
    return PS_OK;
#undef TR_AT
#undef TR_OCEAN
}
#undef PS_TRACER_R
#endif
