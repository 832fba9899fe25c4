/*
 * The description of a field held in memory (no file): a grid with CF depth,
 * latitude and longitude axes from the caller's coordinates (or index axes),
 * so that an output written from it carries them, as one from a file does.
 */
#include "config.h"
#include "ps_nc_internal.h"
#include "ps_status.h"

#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ps_axis_alloc()'s axis with the caller's values, or index values and no
 * coordinate variable */
static int axis(ps_axis *ax, const char *name, size_t n, const double *v, int pos)
{
    size_t i;
    int st = ps_axis_alloc(ax, name, n, NC_DOUBLE);
    if (st)
        return st;
    ax->file_dim_pos = pos;
    for (i = 0; i < n; i++)
        ax->values[i] = v ? v[i] : (double)i;
    if (!v)
        ax->var_name[0] = '\0';
    return PS_OK;
}

int ps_dataset_from_memory(ps_dataset *ds, ps_grid g, const ps_grid_coords *c)
{
    static const char *const names[3] = {"depth", "latitude", "longitude"};
    static const char *const units[3] = {"m", "degrees_north", "degrees_east"};
    static const char *const axes[3] = {"Z", "Y", "X"};
    const double *v[3] = {c ? c->depth : NULL, c ? c->lat : NULL, c ? c->lon : NULL};
    size_t n[3] = {g.nz, g.ny, g.nx};
    int a, st = PS_OK;
    memset(ds, 0, sizeof *ds);
    ds->ncid = -1;
    ds->varid = -1;
    ds->format = NC_FORMAT_NETCDF4;
    snprintf(ds->path, sizeof ds->path, "in-memory field");
    ds->var_nc_type = NC_DOUBLE;
    ds->rank = 3;
    ds->ntime = 1;
    ds->grid = g;
    for (a = 0; !st && a < 3; a++) {
        ps_attr_list *l = &ds->axes[PS_AXIS_DEPTH + a].attrs;
        st = axis(&ds->axes[PS_AXIS_DEPTH + a], names[a], n[a], v[a], a);
        if (!st && v[a])
            st = ps_attr_set_text(l, "standard_name", names[a]);
        if (!st && v[a])
            st = ps_attr_set_text(l, "units", units[a]);
        if (!st && v[a])
            st = ps_attr_set_text(l, "axis", axes[a]);
        if (!st && v[a] && a == 0)
            st = ps_attr_set_text(l, "positive", "down");
    }
    if (st)
        ps_dataset_close(ds);
    return st;
}
