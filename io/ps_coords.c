/*
 * The grid's coordinates in the units a physical stencil needs (depth in m
 * positive down, latitude in degrees_north, longitude in degrees_east), from
 * the axes a dataset discovered (ps_io.h, ps_dataset_coords()). Reads
 * ps_dataset::axes[], so it serves opened files and the built-in ocean alike;
 * for a file whose horizontal dimensions have no coordinate variable (NEMO's
 * x, y) it reads the 2-D latitude and longitude named by the variable's
 * `coordinates` attribute and accepts them if the grid is rectilinear.
 */
#include "config.h"
#include "ps_io.h"
#include "ps_nc_internal.h"
#include "ps_units.h"
#include "ps_status.h"

#include <math.h>
#include <netcdf.h>
#include <stdio.h>
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

int ps_units_is_length(const char *units)
{
    return ps_unit_kind_of(units) == PS_UNIT_LENGTH;
}

int ps_depth_is_height(const ps_axis *ax)
{
    const char *pos = axis_text(ax, "positive");
    size_t i, npos = 0, nneg = 0;
    if (pos && !strcasecmp(pos, "up"))
        return 1;
    if (pos && !strcasecmp(pos, "down"))
        return 0;
    for (i = 0; ax->values && i < ax->len; i++) {
        npos += ax->values[i] > 0;
        nneg += ax->values[i] < 0;
    }
    return nneg > 0 && npos == 0;
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

static const char *const lat_units[] = {"degrees_north", "degree_north", "degree_N",
                                        "degrees_N", "degreeN", "degreesN", NULL};
static const char *const lon_units[] = {"degrees_east", "degree_east", "degree_E",
                                        "degrees_E", "degreeE", "degreesE", NULL};

/* Where a horizontal coordinate comes from: a 1-D coordinate variable or a
 * rectilinear 2-D auxiliary one. */
typedef struct hsource {
    char name[NC_MAX_NAME + 1];
    char units[256];         /* "" = none */
    char std[256];           /* standard_name, "" = none */
    const double *values;    /* len values along the axis */
} hsource;

/* Degrees: CF's degrees_north / degrees_east spellings (@p cf) or plain "degrees". */
static int check_degrees(const ps_dataset *ds, int role, const hsource *h,
                         const char *const *cf)
{
    const char *path = ds->path[0] ? ds->path : "input";
    static const char *const plain[] = {"degree", "degrees", NULL};
    if (!strcmp(h->std, "grid_latitude") || !strcmp(h->std, "grid_longitude"))
        return ps_error(PS_EINVAL, "%s: %s coordinate '%s' is a rotated-pole %s: pstencil "
                        "needs a regular latitude-longitude grid", path, coord_roles[role],
                        h->name, h->std);
    if (!h->units[0])
        return ps_error(PS_EINVAL, "%s: %s coordinate '%s' has no units attribute (need %s)",
                        path, coord_roles[role], h->name, cf[0]);
    if (!in_list_ci(h->units, cf) && !in_list_ci(h->units, plain))
        return ps_error(PS_EINVAL, "%s: %s coordinate '%s' has units '%s'; pstencil needs %s "
                        "(a projected grid is not supported)", path, coord_roles[role],
                        h->name, h->units, cf[0]);
    return PS_OK;
}

static void nc_text(int ncid, int v, const char *att, char *out, size_t n)
{
    size_t len = 0;
    nc_type t;
    out[0] = '\0';
    if (nc_inq_att(ncid, v, att, &t, &len) || t != NC_CHAR || len >= n)
        return;
    if (nc_get_att_text(ncid, v, att, out))
        len = 0;
    out[len] = '\0';
}

/*
 * A 2-D latitude (@p role PS_AXIS_LAT) or longitude named in the variable's
 * `coordinates` attribute, over the latitude and longitude dimensions. Found
 * and rectilinear (latitude constant along longitude, or the reverse, to 1e-6
 * of the value): PS_OK with @p out filled (@p h names it). Found but
 * curvilinear: PS_EINVAL naming it. Not found: 1.
 */
static int aux_2d(const ps_dataset *ds, int role, hsource *h, double *out)
{
    const ps_attr *ca = ps_attr_find(&ds->var_attrs, "coordinates");
    const ps_axis *ay = &ds->axes[PS_AXIS_LAT], *ax = &ds->axes[PS_AXIS_LON];
    const char *path = ds->path[0] ? ds->path : "input";
    char list[1024], *tok, *save = NULL;
    if (ds->ncid < 0 || !ca || !ca->text)
        return 1;
    snprintf(list, sizeof list, "%s", ca->text);
    for (tok = strtok_r(list, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        int v, nd, dims[2], ylead, st = PS_OK;
        char d0[NC_MAX_NAME + 1], d1[NC_MAX_NAME + 1];
        size_t ny = ay->len, nx = ax->len, j, i;
        double *all;
        if (nc_inq_varid(ds->ncid, tok, &v) || nc_inq_varndims(ds->ncid, v, &nd) || nd != 2 ||
            nc_inq_vardimid(ds->ncid, v, dims) || nc_inq_dimname(ds->ncid, dims[0], d0) ||
            nc_inq_dimname(ds->ncid, dims[1], d1))
            continue;
        ylead = !strcmp(d0, ay->dim_name) && !strcmp(d1, ax->dim_name);
        if (!ylead && !(!strcmp(d1, ay->dim_name) && !strcmp(d0, ax->dim_name)))
            continue;
        snprintf(h->name, sizeof h->name, "%s", tok);
        nc_text(ds->ncid, v, "units", h->units, sizeof h->units);
        nc_text(ds->ncid, v, "standard_name", h->std, sizeof h->std);
        if (role == PS_AXIS_LAT ? !(strstr(h->std, "latitude") || in_list_ci(h->units, lat_units))
                                : !(strstr(h->std, "longitude") || in_list_ci(h->units, lon_units)))
            continue;
        {
            size_t l0 = 0, l1 = 0;
            if (nc_inq_dimlen(ds->ncid, dims[0], &l0) || nc_inq_dimlen(ds->ncid, dims[1], &l1) ||
                l0 != (ylead ? ny : nx) || l1 != (ylead ? nx : ny))
                return ps_error(PS_EFORMAT, "%s: '%s' is over dimensions of %zu x %zu, not the "
                                "%zu x %zu of the data's %s and %s", path, tok, l0, l1,
                                ylead ? ny : nx, ylead ? nx : ny, d0, d1);
        }
        all = malloc(ny * nx * sizeof *all);
        if (!all)
            return ps_error(PS_ENOMEM, "out of memory for '%s'", tok);
        {
            ps_nc_read_spec r = {.path = path, .ncid = ds->ncid, .varid = v, .rank = 2,
                                 .cap = ny * nx};
            if ((st = ps_nc_get(&r, all))) {
                free(all);
                return st;
            }
        }
#define AUX(j, i) all[ylead ? (j) * nx + (i) : (i) * ny + (j)]
        for (j = 0; j < ny && !st; j++)
            for (i = 0; i < nx && !st; i++) {
                double a = AUX(j, i);
                double b = role == PS_AXIS_LAT ? AUX(j, 0) : AUX(0, i);
                if (!(fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1)))
                    st = ps_error(PS_EINVAL, "%s: %s '%s' varies along %s (%g at (%zu, %zu), "
                                  "%g at the start of its %s): a curvilinear grid is not "
                                  "supported", path, coord_roles[role], tok,
                                  role == PS_AXIS_LAT ? ax->dim_name : ay->dim_name, a, j, i,
                                  b, role == PS_AXIS_LAT ? "row" : "column");
            }
        for (j = 0; !st && role == PS_AXIS_LAT && j < ny; j++)
            out[j] = AUX(j, 0);
        for (i = 0; !st && role == PS_AXIS_LON && i < nx; i++)
            out[i] = AUX(0, i);
#undef AUX
        free(all);
        if (!st)
            h->values = out;
        return st;
    }
    return 1;
}

/* The source of a horizontal coordinate: its 1-D variable, or a 2-D one (into
 * @p buf); an index-only axis is refused. */
static int horizontal(const ps_dataset *ds, int role, hsource *h, double *buf,
                      const char *const *cf)
{
    const ps_axis *ax = &ds->axes[role];
    int st;
    memset(h, 0, sizeof *h);
    if (ax->present && !ax->var_name[0]) {
        st = aux_2d(ds, role, h, buf);
        if (st == 1)
            return ps_error(PS_EINVAL,
                            "%s: the %s dimension '%s' has no coordinate variable (only "
                            "indices) and the variable's coordinates attribute names no 2-D "
                            "%s over it; a physical stencil needs real %s coordinates",
                            ds->path[0] ? ds->path : "input", coord_roles[role], ax->dim_name,
                            coord_roles[role], coord_roles[role]);
        if (st)
            return st;
    } else {
        const char *u = axis_text(ax, "units"), *sn = axis_text(ax, "standard_name");
        if ((st = need_variable(ds, role)))
            return st;
        snprintf(h->name, sizeof h->name, "%s", ax->var_name);
        snprintf(h->units, sizeof h->units, "%s", u ? u : "");
        snprintf(h->std, sizeof h->std, "%s", sn ? sn : "");
        h->values = ax->values;
    }
    return check_degrees(ds, role, h, cf);
}

static int fill_depth(const ps_dataset *ds, double *z)
{
    const ps_axis *ax = &ds->axes[PS_AXIS_DEPTH];
    const char *u = axis_text(ax, "units");
    const char *path = ds->path[0] ? ds->path : "input";
    double sign = 1.0, inv;
    size_t i;
    int st, whole;
    ps_unit unit;
    if ((st = need_variable(ds, PS_AXIS_DEPTH)))
        return st;
    if (!u)
        return ps_error(PS_EINVAL, "%s: depth coordinate '%s' has no units attribute (need "
                        "a length: m, cm, km, ...)", path, ax->var_name);
    if (ps_unit_parse(u, &unit) || unit.kind != PS_UNIT_LENGTH)
        return ps_error(PS_EINVAL, "%s: depth coordinate '%s' has units '%s'; pstencil needs "
                        "a length UDUNITS-2 knows (m, cm, km, ...), not pressure, levels or "
                        "sigma", path, ax->var_name, u);
    if (ps_depth_is_height(ax))
        sign = -1.0;
    /* a unit that is 1/N m (cm: N = 100) is divided by N (correctly rounded;
     * exact for whole cm), not multiplied by 0.01 */
    inv = 1.0 / unit.scale;
    whole = unit.scale < 1 && fabs(inv - nearbyint(inv)) <= 1e-9 * inv;
    for (i = 0; i < ax->len; i++) {
        double v = ax->values[i];
        z[i] = sign * (whole ? v / nearbyint(inv) : v * unit.scale);
    }
    return PS_OK;
}

static int fill_lat(const ps_dataset *ds, double *lat)
{
    hsource h;
    size_t i, n = ds->axes[PS_AXIS_LAT].len;
    int st;
    if ((st = horizontal(ds, PS_AXIS_LAT, &h, lat, lat_units)))
        return st;
    for (i = 0; i < n; i++) {
        if (!(fabs(h.values[i]) <= 90.0))
            return ps_error(PS_EINVAL, "%s: latitude %g at index %zu of '%s' is outside "
                            "[-90, 90]", ds->path[0] ? ds->path : "input", h.values[i], i,
                            h.name);
        lat[i] = h.values[i];
    }
    return PS_OK;
}

double ps_lon_turns(double step)
{
    if (step > 180.0)
        return 360.0 * ceil((step - 180.0) / 360.0);
    if (step < -180.0)
        return 360.0 * floor((step + 180.0) / 360.0);
    return 0.0;
}

static int fill_lon(const ps_dataset *ds, double *lon)
{
    hsource h;
    size_t i, n = ds->axes[PS_AXIS_LON].len;
    int st;
    if ((st = horizontal(ds, PS_AXIS_LON, &h, lon, lon_units)))
        return st;
    /* unwrapped: a grid across the date line or the meridian (..., 359, 0,
     * 1, ...) keeps a uniform spacing (..., 359, 360, 361, ...) */
    for (i = 0; i < n; i++) {
        if (!isfinite(h.values[i]))
            return ps_error(PS_EINVAL, "%s: longitude at index %zu of '%s' is not finite",
                            ds->path[0] ? ds->path : "input", i, h.name);
        lon[i] = h.values[i];
        if (i > 0)
            lon[i] -= ps_lon_turns(lon[i] - lon[i - 1]);
    }
    return PS_OK;
}

int ps_dataset_depths(const ps_dataset *ds, double *z)
{
    return fill_depth(ds, z);
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
