/*
 * The gyre of ps_currents.h: analytic velocities from a stream function,
 * evaluated at the cell centres.
 */
#include "config.h"
#include "ps_currents.h"
#include "ps_status.h"

#include <math.h>

int ps_currents_gyre(ps_grid g, const double *depth, const double *lat, const double *lon,
                     double speed, double *u, double *v)
{
    const double pi = 3.14159265358979323846;
    double y0, ly, x0, lx, cmid, su, sv, m;
    size_t k, j, i;
    if (!depth || !lat || !lon || !u || !v)
        return ps_error(PS_EINVAL, "gyre currents: no coordinates or no output arrays");
    if (!(speed >= 0 && speed < 1e30))
        return ps_error(PS_EINVAL, "gyre currents: speed %g m/s is not a finite number >= 0",
                        speed);
    if (!g.nz || !g.ny || !g.nx)
        return PS_OK;
    y0 = fmin(lat[0], lat[g.ny - 1]);
    ly = fabs(lat[g.ny - 1] - lat[0]);
    cmid = cos((lat[0] + lat[g.ny - 1]) / 2.0 * pi / 180.0);
    x0 = fmin(lon[0], lon[g.nx - 1]) * cmid;
    lx = fabs(lon[g.nx - 1] - lon[0]) * cmid;
    /* u = -psi_y = -(pi/Ly) cos(.) sin(.), v = psi_x = (pi/Lx) sin(.) cos(.): the
     * larger of pi/Ly and pi/Lx is scaled to speed */
    m = fmax(ly > 0 ? 1.0 / ly : 0.0, lx > 0 ? 1.0 / lx : 0.0);
    su = (ly > 0 && m > 0) ? speed / (ly * m) : 0.0;
    sv = (lx > 0 && m > 0) ? speed / (lx * m) : 0.0;
    for (k = 0; k < g.nz; k++) {
        double e = exp(-fmax(depth[k], 0.0) / PS_GYRE_DEPTH_SCALE);
        for (j = 0; j < g.ny; j++) {
            double a = ly > 0 ? pi * (lat[j] - y0) / ly : pi / 2;
            for (i = 0; i < g.nx; i++) {
                double b = lx > 0 ? pi * (lon[i] * cmid - x0) / lx : pi / 2;
                size_t c = (k * g.ny + j) * g.nx + i;
                u[c] = -su * cos(a) * sin(b) * e;
                v[c] = sv * sin(a) * cos(b) * e;
            }
        }
    }
    return PS_OK;
}
