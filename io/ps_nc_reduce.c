/* The reductions of each record as CF time series beside a field
 * (ps_writer_reductions(), docs/file-conventions.md): NAME_content,
 * NAME_volume, NAME_mean, NAME_min and NAME_max over the time dimension,
 * float64, one value per record. */
#include "config.h"
#include "ps_nc_internal.h"
#include "ps_status.h"
#include "ps_units.h"

#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *path, int rc, const char *what)
{
    return ps_error(PS_EIO, "writing %s: %s: %s", path, what, nc_strerror(rc));
}

static int text(const char *path, int ncid, int v, const char *name, const char *t)
{
    int rc = nc_put_att_text(ncid, v, name, strlen(t), t);
    return rc ? fail(path, rc, name) : PS_OK;
}

/* a text attribute of the data variable, or "" */
static void att_of(int ncid, int v, const char *name, char *buf, size_t n)
{
    size_t len = 0;
    nc_type t;
    buf[0] = '\0';
    if (nc_inq_att(ncid, v, name, &t, &len) || t != NC_CHAR || len >= n)
        return;
    if (nc_get_att_text(ncid, v, name, buf))
        buf[0] = '\0';
    else
        buf[len] = '\0';
}

int ps_nc_reduce_define(const char *path, int ncid, int time_dim, int data_var,
                        const char *vname, int metric, const char *why, int *ids)
{
    static const char *const suffix[5] = {"content", "volume", "mean", "min", "max"};
    /* the volume mean over the ocean: CF 7.3 names, the standard names "area" and
     * "depth" for the grid's horizontal and vertical dimensions (CF 7.3.4: they are
     * not dimensions of a time series) and the area type "sea" (CF 7.3.3) */
    static const char *const method[5] = {"sum", "sum", "mean", "minimum", "maximum"};
    char units[256], sname[256], lname[256], buf[1024], wt[512], cm[64];
    int i, rc, st;
    att_of(ncid, data_var, "units", units, sizeof units);
    att_of(ncid, data_var, "standard_name", sname, sizeof sname);
    att_of(ncid, data_var, "long_name", lname, sizeof lname);
    if (!lname[0])
        snprintf(lname, sizeof lname, "%s", vname);
    for (i = 0; i < 5; i++) {
        char name[NC_MAX_NAME + 1];
        if (snprintf(name, sizeof name, "%s_%s", vname, suffix[i]) >= (int)sizeof name)
            return ps_error(PS_EINVAL, "writing %s: variable name %s_%s is too long", path,
                            vname, suffix[i]);
        if ((rc = nc_def_var(ncid, name, NC_DOUBLE, 1, &time_dim, &ids[i])))
            return fail(path, rc, name);
        snprintf(cm, sizeof cm, "area: depth: %s where sea", method[i]);
        if ((st = text(path, ncid, ids[i], "cell_methods", cm)))
            return st;
        switch (i) {
        case 0:
            snprintf(buf, sizeof buf, metric ? "%s integrated over the ocean volume"
                                             : "%s summed over the ocean cells", lname);
            break;
        case 1:
            snprintf(buf, sizeof buf, metric ? "volume of the ocean cells of %s"
                                             : "number of ocean cells of %s", vname);
            break;
        case 2:
            snprintf(buf, sizeof buf, metric ? "%s, volume mean over the ocean"
                                             : "%s, mean over the ocean cells", lname);
            break;
        default:
            snprintf(buf, sizeof buf, "%s of %s over the ocean cells",
                     i == 3 ? "minimum" : "maximum", lname);
        }
        if ((st = text(path, ncid, ids[i], "long_name", buf)))
            return st;
        /* units: the field's, times m3 for the content; the volume in m3 (or 1) */
        buf[0] = '\0';
        if (i == 1)
            snprintf(buf, sizeof buf, "%s", metric ? "m3" : "1");
        else if (units[0] && i == 0 && metric) {
            ps_unit u;
            snprintf(buf, sizeof buf, "%s m3", units);
            if (ps_unit_parse(units, &u) == PS_OK && ps_unit_parse(buf, &u) != PS_OK)
                snprintf(buf, sizeof buf, "(%s) m3", units);
        } else if (units[0]) {
            snprintf(buf, sizeof buf, "%s", units);
        }
        if (buf[0] && (st = text(path, ncid, ids[i], "units", buf)))
            return st;
        if (i == 1 && metric && (st = text(path, ncid, ids[i], "standard_name", "sea_water_volume")))
            return st;
        if (i >= 2 && sname[0] && (st = text(path, ncid, ids[i], "standard_name", sname)))
            return st;
        /* what each value is, in words: the cells, the weights, the rounding */
        snprintf(wt, sizeof wt, metric ? "V the cell's volume from the grid's coordinates "
                                         "(pstencil's docs/model.md)"
                                       : "V = 1 for every cell: the input has no usable "
                                         "coordinates (%s)", why && *why ? why : "none");
        if (i == 0)
            snprintf(buf, sizeof buf, "sum of V * %s over the cells where %s is not missing, "
                     "%s; exact, rounded once", vname, vname, wt);
        else if (i == 1)
            snprintf(buf, sizeof buf, "sum of V over the cells where %s is not missing, %s; "
                     "exact, rounded once", vname, wt);
        else if (i == 2)
            snprintf(buf, sizeof buf, "%s_content / %s_volume", vname, vname);
        else
            snprintf(buf, sizeof buf, "over the cells where %s is not missing", vname);
        if ((st = text(path, ncid, ids[i], "comment", buf)))
            return st;
    }
    return PS_OK;
}

int ps_nc_reduce_put(const char *path, int ncid, const int *ids, size_t rec,
                     const ps_reduction *r)
{
    const double v[5] = {r->content, r->volume, r->mean, r->min, r->max};
    size_t start = rec, count = 1;
    int i, rc;
    for (i = 0; i < 5; i++)
        if ((rc = nc_put_vara_double(ncid, ids[i], &start, &count, &v[i])))
            return fail(path, rc, "reductions");
    return PS_OK;
}

int ps_dataset_read_reductions(const ps_dataset *ds, ps_dataset_reductions *out)
{
    static const char *const suffix[5] = {"content", "volume", "mean", "min", "max"};
    const size_t n = ds->ntime;
    int i, id[5], step;
    memset(out, 0, sizeof *out);
    for (i = 0; i < 5; i++) {
        char name[NC_MAX_NAME + 1];
        int nd = 0, dim;
        size_t len = 0;
        snprintf(name, sizeof name, "%s_%s", ds->var_name, suffix[i]);
        if (nc_inq_varid(ds->ncid, name, &id[i]) || nc_inq_varndims(ds->ncid, id[i], &nd) ||
            nd != 1 || nc_inq_vardimid(ds->ncid, id[i], &dim) ||
            nc_inq_dimlen(ds->ncid, dim, &len) || len != n)
            return PS_ENOVAR; /* none, or not one value per record */
    }
    for (i = 0; i < 5; i++) {
        int rc;
        if (!(out->v[i] = malloc((n ? n : 1) * sizeof *out->v[i]))) {
            ps_dataset_reductions_free(out);
            return ps_error(PS_ENOMEM, "reading the reductions of %s", ds->path);
        }
        if ((rc = nc_get_var_double(ds->ncid, id[i], out->v[i]))) {
            ps_dataset_reductions_free(out);
            return ps_error(PS_ENETCDF, "reading %s_%s of %s: %s", ds->var_name, suffix[i],
                            ds->path, nc_strerror(rc));
        }
    }
    if (!nc_inq_varid(ds->ncid, "step", &step) &&
        (out->steps = malloc((n ? n : 1) * sizeof *out->steps)) &&
        nc_get_var_double(ds->ncid, step, out->steps)) {
        free(out->steps);
        out->steps = NULL;
    }
    {
        char u[8];
        att_of(ds->ncid, id[1], "units", u, sizeof u);
        out->unit_weights = !strcmp(u, "1");
    }
    out->n = n;
    return PS_OK;
}

void ps_dataset_reductions_free(ps_dataset_reductions *r)
{
    int i;
    for (i = 0; i < 5; i++) {
        free(r->v[i]);
        r->v[i] = NULL;
    }
    free(r->steps);
    r->steps = NULL;
}
