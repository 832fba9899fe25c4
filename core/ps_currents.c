/*
 * The gyre of ps_currents.h: analytic velocities from a stream function,
 * evaluated at the cell centres.
 */
#include "config.h"
#include "ps_currents.h"
#include "ps_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
                /* rounded to float32, as a file of float32 currents holds them */
                u[c] = (double)(float)(-su * cos(a) * sin(b) * e);
                v[c] = (double)(float)(sv * sin(a) * cos(b) * e);
            }
        }
    }
    return PS_OK;
}

int ps_currents_axis(const ps_stencil_input *in)
{
    if (!in || !in->standard_names)
        return PS_CURRENT_NONE;
    if (strstr(in->standard_names, "eastward_sea_water_velocity") ||
        strstr(in->standard_names, "sea_water_x_velocity"))
        return PS_CURRENT_U;
    if (strstr(in->standard_names, "northward_sea_water_velocity") ||
        strstr(in->standard_names, "sea_water_y_velocity"))
        return PS_CURRENT_V;
    return PS_CURRENT_NONE;
}

/* @p v NaN wherever field @p f is NaN */
static void mask_land(const ps_field *f, double *v)
{
    size_t c, n = ps_field_cells(f);
    for (c = 0; c < n; c++) {
        int land = f->precision == PS_FLOAT64 ? isnan(((const double *)f->data)[c])
                                              : isnan(((const float *)f->data)[c]);
        if (land)
            v[c] = NAN;
    }
}

int ps_currents_inputs(const ps_stencil *s, ps_grid g, const ps_field *land_of,
                       const double *depth, const double *lat, const double *lon, double speed,
                       double **buf, const double **ptrs)
{
    const size_t n = g.nz * g.ny * g.nx;
    double *u, *v;
    int q, st;
    *buf = malloc((2 * n + 1) * sizeof **buf);
    if (!*buf)
        return ps_error(PS_ENOMEM, "out of memory (currents of %zu cells)", n);
    u = *buf;
    v = u + n;
    if ((st = ps_currents_gyre(g, depth, lat, lon, speed, u, v)))
        return st;
    if (land_of && ps_field_cells(land_of) != n)
        return ps_error(PS_EINVAL, "currents: the land's field is not on the grid");
    if (land_of) {
        mask_land(land_of, u);
        mask_land(land_of, v);
    }
    for (q = 0; q < s->ninputs; q++) {
        int ax = ps_currents_axis(&s->inputs[q]);
        ptrs[q] = ax == PS_CURRENT_U ? u : ax == PS_CURRENT_V ? v : NULL;
        if (!ptrs[q] && s->inputs[q].required)
            return ps_error(PS_EUNSUPPORTED, "stencil %s: no current gives its input %s (%s)",
                            s->name, s->inputs[q].name, s->inputs[q].standard_names);
    }
    return PS_OK;
}

int ps_currents_prepare(const ps_stencil *s, const ps_field *land_of, const double *depth,
                        const double *lat, const double *lon, ps_params *out,
                        ps_stencil_report *rep)
{
    double *opts = malloc(((size_t)s->noptions + 1) * sizeof *opts), *buf = NULL;
    const double **inputs = calloc((size_t)s->ninputs + 1, sizeof *inputs);
    ps_stencil_setup su;
    int st = PS_OK;
    memset(&su, 0, sizeof su);
    if (!opts || !inputs) {
        st = ps_error(PS_ENOMEM, "out of memory (stencil %s's set-up)", s->name);
        goto done;
    }
    ps_stencil_default_options(s, opts);
    su.grid = land_of->grid;
    su.depth = depth;
    su.lat = lat;
    su.lon = lon;
    su.options = opts;
    if (s->ninputs) {
        if ((st = ps_currents_inputs(s, land_of->grid, land_of, depth, lat, lon, PS_GYRE_SPEED,
                                     &buf, inputs)))
            goto done;
        su.inputs = inputs;
    }
    st = ps_stencil_prepare(s, &su, out, rep);
done:
    free(opts);
    free(buf);
    free((void *)inputs);
    return st;
}
