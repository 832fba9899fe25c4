/*
 * The grid's coordinates in the units a physical stencil needs (depth in m
 * positive down, latitude in degrees_north, longitude in degrees_east), from
 * the axes a dataset discovered (ps_io.h, ps_dataset_coords()). Reads only
 * ps_dataset::axes[], so it serves opened files and the built-in ocean alike.
 */
#include "config.h"
#include "ps_io.h"
#include "ps_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const coord_roles[4] = {"time", "depth", "latitude", "longitude"};

static const char *axis_text(const ps_axis *ax, const char *name)
{
    const ps_attr *a = ps_attr_find(&ax->attrs, name);
    return a && a->text ? a->text : NULL;
}

static int in_list_ci(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcasecmp(s, *list))
            return 1;
    return 0;
}

/* A length unit pstencil converts to metres (0 = not one). */
enum { LEN_NONE = 0, LEN_M, LEN_CM, LEN_KM };

static int length_unit(const char *u)
{
    static const char *const m[] = {"m", "meter", "meters", "metre", "metres", NULL};
    static const char *const cm[] = {"cm", "centimeter", "centimeters", "centimetre",
                                     "centimetres", NULL};
    static const char *const km[] = {"km", "kilometer", "kilometers", "kilometre",
                                     "kilometres", NULL};
    return in_list_ci(u, m) ? LEN_M : in_list_ci(u, cm) ? LEN_CM : in_list_ci(u, km) ? LEN_KM
                                                                                   : LEN_NONE;
}

/* The axis must be a real coordinate variable with finite values. */
static int need_variable(const ps_dataset *ds, int role)
{
    const ps_axis *ax = &ds->axes[role];
    size_t i;
    if (!ax->present)
        return ps_error(PS_EDIM, "%s: no %s axis", ds->path[0] ? ds->path : "input",
                        coord_roles[role]);
    if (!ax->var_name[0])
        return ps_error(PS_EINVAL,
                        "%s: the %s dimension '%s' has no coordinate variable (only indices); "
                        "a physical stencil needs real %s coordinates",
                        ds->path[0] ? ds->path : "input", coord_roles[role], ax->dim_name,
                        coord_roles[role]);
    for (i = 0; i < ax->len; i++)
        if (!isfinite(ax->values[i]))
            return ps_error(PS_EINVAL, "%s: %s coordinate '%s' has a missing or non-finite "
                            "value at index %zu", ds->path[0] ? ds->path : "input",
                            coord_roles[role], ax->var_name, i);
    return PS_OK;
}

/* Degrees: CF's degrees_north / degrees_east spellings (@p cf) or plain "degrees". */
static int check_degrees(const ps_dataset *ds, int role, const char *const *cf)
{
    const ps_axis *ax = &ds->axes[role];
    const char *u = axis_text(ax, "units"), *sn = axis_text(ax, "standard_name");
    const char *path = ds->path[0] ? ds->path : "input";
    static const char *const plain[] = {"degree", "degrees", NULL};
    if (sn && (!strcmp(sn, "grid_latitude") || !strcmp(sn, "grid_longitude")))
        return ps_error(PS_EINVAL, "%s: %s coordinate '%s' is a rotated-pole %s: pstencil "
                        "needs a regular latitude-longitude grid", path, coord_roles[role],
                        ax->var_name, sn);
    if (!u)
        return ps_error(PS_EINVAL, "%s: %s coordinate '%s' has no units attribute (need %s)",
                        path, coord_roles[role], ax->var_name, cf[0]);
    if (!in_list_ci(u, cf) && !in_list_ci(u, plain))
        return ps_error(PS_EINVAL, "%s: %s coordinate '%s' has units '%s'; pstencil needs %s "
                        "(a projected or curvilinear grid is not supported)", path,
                        coord_roles[role], ax->var_name, u, cf[0]);
    return PS_OK;
}

static int fill_depth(const ps_dataset *ds, double *z)
{
    const ps_axis *ax = &ds->axes[PS_AXIS_DEPTH];
    const char *u = axis_text(ax, "units"), *pos = axis_text(ax, "positive");
    const char *path = ds->path[0] ? ds->path : "input";
    double sign = 1.0;
    size_t i, npos = 0, nneg = 0;
    int st, unit;
    if ((st = need_variable(ds, PS_AXIS_DEPTH)))
        return st;
    if (!u)
        return ps_error(PS_EINVAL, "%s: depth coordinate '%s' has no units attribute (need "
                        "m, cm or km)", path, ax->var_name);
    unit = length_unit(u);
    if (unit == LEN_NONE)
        return ps_error(PS_EINVAL, "%s: depth coordinate '%s' has units '%s'; pstencil needs "
                        "a length (m, cm or km), not pressure, levels or sigma", path,
                        ax->var_name, u);
    for (i = 0; i < ax->len; i++) {
        npos += ax->values[i] > 0;
        nneg += ax->values[i] < 0;
    }
    /* positive="up": heights; no positive="down" and no positive value:
     * depths written as negative numbers. Either way depth = -value. */
    if (pos && !strcasecmp(pos, "up"))
        sign = -1.0;
    else if (!(pos && !strcasecmp(pos, "down")) && nneg > 0 && npos == 0)
        sign = -1.0;
    /* cm: divided by 100 (correctly rounded; exact for whole cm), not times 0.01 */
    for (i = 0; i < ax->len; i++) {
        double v = ax->values[i];
        z[i] = sign * (unit == LEN_CM ? v / 100.0 : unit == LEN_KM ? v * 1000.0 : v);
    }
    return PS_OK;
}

static int fill_lat(const ps_dataset *ds, double *lat)
{
    static const char *const cf[] = {"degrees_north", "degree_north", "degree_N", "degrees_N",
                                     "degreeN", "degreesN", NULL};
    const ps_axis *ax = &ds->axes[PS_AXIS_LAT];
    size_t i;
    int st;
    if ((st = need_variable(ds, PS_AXIS_LAT)) || (st = check_degrees(ds, PS_AXIS_LAT, cf)))
        return st;
    for (i = 0; i < ax->len; i++) {
        if (!(fabs(ax->values[i]) <= 90.0))
            return ps_error(PS_EINVAL, "%s: latitude %g at index %zu of '%s' is outside "
                            "[-90, 90]", ds->path[0] ? ds->path : "input", ax->values[i], i,
                            ax->var_name);
        lat[i] = ax->values[i];
    }
    return PS_OK;
}

static int fill_lon(const ps_dataset *ds, double *lon)
{
    static const char *const cf[] = {"degrees_east", "degree_east", "degree_E", "degrees_E",
                                     "degreeE", "degreesE", NULL};
    const ps_axis *ax = &ds->axes[PS_AXIS_LON];
    size_t i;
    int st;
    if ((st = need_variable(ds, PS_AXIS_LON)) || (st = check_degrees(ds, PS_AXIS_LON, cf)))
        return st;
    /* unwrapped: a grid across the date line or the meridian (..., 359, 0,
     * 1, ...) keeps a uniform spacing (..., 359, 360, 361, ...) */
    for (i = 0; i < ax->len; i++) {
        lon[i] = ax->values[i];
        while (i > 0 && lon[i] - lon[i - 1] > 180.0)
            lon[i] -= 360.0;
        while (i > 0 && lon[i] - lon[i - 1] < -180.0)
            lon[i] += 360.0;
    }
    return PS_OK;
}

int ps_dataset_coords(const ps_dataset *ds, ps_grid_coords *c)
{
    int st;
    memset(c, 0, sizeof *c);
    if (!ds)
        return ps_error(PS_EINVAL, "no dataset");
    c->depth = malloc((ds->grid.nz ? ds->grid.nz : 1) * sizeof *c->depth);
    c->lat = malloc((ds->grid.ny ? ds->grid.ny : 1) * sizeof *c->lat);
    c->lon = malloc((ds->grid.nx ? ds->grid.nx : 1) * sizeof *c->lon);
    if (!c->depth || !c->lat || !c->lon) {
        ps_grid_coords_free(c);
        return ps_error(PS_ENOMEM, "out of memory for the coordinates");
    }
    if (ds->axes[PS_AXIS_DEPTH].len != ds->grid.nz || ds->axes[PS_AXIS_LAT].len != ds->grid.ny ||
        ds->axes[PS_AXIS_LON].len != ds->grid.nx) {
        ps_grid_coords_free(c);
        return ps_error(PS_EINVAL, "the dataset's axes do not match its grid");
    }
    if ((st = fill_depth(ds, c->depth)) || (st = fill_lat(ds, c->lat)) ||
        (st = fill_lon(ds, c->lon))) {
        ps_grid_coords_free(c);
        return st;
    }
    return PS_OK;
}

void ps_grid_coords_free(ps_grid_coords *c)
{
    if (!c)
        return;
    free(c->depth);
    free(c->lat);
    free(c->lon);
    memset(c, 0, sizeof *c);
}
