/*
 * Maps of a dataset's fields, with titles from the file's variable, depth
 * axis and time axis, drawn by ps_plot_slice(): used by `pstencil plot` and
 * `pstencil run --plot`.
 */
#include "config.h"
#include "ps_plot.h"
#include "ps_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Attribute text of an axis (e.g. units), or "". */
static const char *ps_axis_text(const ps_axis *ax, const char *name)
{
    const ps_attr *a = ps_attr_find(&ax->attrs, name);
    return a && a->text ? a->text : "";
}

void ps_plot_level_label(const ps_dataset *ds, size_t k, char *buf, size_t n)
{
    const ps_axis *ax = &ds->axes[PS_AXIS_DEPTH];
    double *z = ax->values && k < ax->len && ax->var_name[0] && ax->len == ds->grid.nz
                    ? malloc(ax->len * sizeof *z) : NULL;
    if (z && ps_dataset_depths(ds, z) == PS_OK) {
        /* a depth in m, positive down, whatever the file's sign (+ 0.0: no "-0") */
        snprintf(buf, n, "%.4g m (level %zu)", z[k] + 0.0, k);
    } else if (ax->values && k < ax->len && ax->var_name[0]) {
        const char *u = ps_axis_text(ax, "units");
        if (!strcmp(u, "meters") || !strcmp(u, "metres") || !strcmp(u, "meter"))
            u = "m";
        snprintf(buf, n, "%.4g%s%s (level %zu)", ax->values[k], *u ? " " : "", u, k);
    } else {
        snprintf(buf, n, "level %zu", k);
    }
    free(z);
}

/* Coordinates of an axis, or indices when the file has none. */
static double *ps_coords(const ps_axis *ax, size_t n)
{
    size_t i;
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    for (i = 0; i < n; i++)
        c[i] = ax->values && ax->len == n ? ax->values[i] : (double)i;
    return c;
}

static int ps_check_grid(const ps_dataset *ds, const ps_field *f)
{
    if (ds->grid.nz && (ds->grid.nz != f->grid.nz || ds->grid.ny != f->grid.ny ||
                        ds->grid.nx != f->grid.nx))
        return ps_error(PS_EDIM, "the field (%zux%zux%zu) is not on the dataset's grid (%zux%zux%zu)",
                        f->grid.nz, f->grid.ny, f->grid.nx, ds->grid.nz, ds->grid.ny, ds->grid.nx);
    return PS_OK;
}

/* Draw ny*nx values of ds's grid with titles. */
static int ps_draw_values(const ps_dataset *ds, const ps_field *f, const double *v,
                          const unsigned char *mark, const char *title, const char *subtitle,
                          const char *units, const ps_image_options *o, ps_image_info *info)
{
    ps_slice s = {0};
    const ps_axis *ax = &ds->axes[PS_AXIS_LON], *ay = &ds->axes[PS_AXIS_LAT];
    double *lon = ps_coords(ax, f->grid.nx), *lat = ps_coords(ay, f->grid.ny);
    int rc;
    if (!lon || !lat) {
        rc = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    s.nx = f->grid.nx;
    s.ny = f->grid.ny;
    s.lon = lon;
    s.lat = lat;
    s.values = v;
    s.mark = mark;
    s.title = title;
    s.subtitle = subtitle;
    s.units = units;
    s.xlabel = ax->values ? "Longitude" : "Longitude index";
    s.ylabel = ay->values ? "Latitude" : "Latitude index";
    rc = ps_plot_slice(&s, o, info);
done:
    free(lon);
    free(lat);
    return rc;
}

static const char *ps_var_name(const ps_dataset *ds)
{
    return ds->var_name[0] ? ds->var_name : "temperature";
}

int ps_plot_field_level(const ps_dataset *ds, const ps_field *f, size_t k, size_t t,
                        const char *title, const ps_image_options *o, ps_image_info *info)
{
    double *v = NULL;
    char lev[128], tbuf[512], sub[256];
    size_t i, n, ocean = 0;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    int rc;
    if ((rc = ps_check_grid(ds, f)))
        return rc;
    n = f->grid.nx * f->grid.ny;
    v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return ps_error(PS_ENOMEM, "out of memory");
    if ((rc = ps_plot_extract_level(f, k, v)))
        goto done;
    for (i = 0; i < n; i++)
        if (isfinite(v[i])) {
            ocean++;
            lo = fmin(lo, v[i]);
            hi = fmax(hi, v[i]);
        }
    ps_plot_level_label(ds, k, lev, sizeof lev);
    if (!title) {
        snprintf(tbuf, sizeof tbuf, "%s at %s, time index %zu", ps_var_name(ds), lev, t);
        title = tbuf;
    }
    if (ocean)
        snprintf(sub, sizeof sub, "%zu x %zu cells, %zu ocean; range %.4g .. %.4g %s",
                 f->grid.nx, f->grid.ny, ocean, lo, hi, ds->units);
    else
        snprintf(sub, sizeof sub, "%zu x %zu cells, all land", f->grid.nx, f->grid.ny);
    rc = ps_draw_values(ds, f, v, NULL, title, sub, ds->units, o, info);
done:
    free(v);
    return rc;
}

int ps_plot_field_diff(const ps_dataset *ds, const ps_field *a, const ps_field *b, size_t k,
                       size_t t, const char *what, const ps_image_options *o,
                       ps_diff_info *info)
{
    double *d = NULL;
    unsigned char *mark = NULL;
    char lev[128], title[512], sub[512];
    ps_diff_info di;
    ps_image_options oo = *o;
    size_t n;
    int rc;
    if ((rc = ps_check_grid(ds, a)))
        return rc;
    n = a->grid.nx * a->grid.ny;
    d = malloc((n ? n : 1) * sizeof *d);
    mark = malloc(n ? n : 1);
    if (!d || !mark) {
        rc = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    if ((rc = ps_plot_diff_level(a, b, k, d, mark, &di)))
        goto done;
    ps_plot_level_label(ds, k, lev, sizeof lev);
    if (t == PS_PLOT_NO_TIME)
        snprintf(title, sizeof title, "%s: %s at %s", what ? what : "B - A", ps_var_name(ds), lev);
    else
        snprintf(title, sizeof title, "%s: %s at %s, time index %zu", what ? what : "B - A",
                 ps_var_name(ds), lev, t);
    snprintf(sub, sizeof sub, "max |difference| %.6g %s; %zu of %zu cells differ; %zu land/sea mismatches%s",
             di.max_abs, ds->units, di.differing, di.compared, di.mismatched,
             di.mismatched ? " (magenta)" : "");
    oo.symmetric = 1;
    if (!oo.cmap)
        oo.cmap = "rdbu";
    else {
        const ps_cmap *c = ps_cmap_find(oo.cmap);
        if (c && !c->diverging)
            oo.cmap = "rdbu"; /* a difference needs a map centred on zero */
    }
    rc = ps_draw_values(ds, a, d, di.mismatched ? mark : NULL, title, sub, ds->units, &oo, NULL);
    if (!rc && info)
        *info = di;
done:
    free(d);
    free(mark);
    return rc;
}

int ps_plot_run_images(const char *dir, const ps_dataset *ds, const ps_field *before,
                       const ps_field *after, const char *stem, int force)
{
    ps_image_options o;
    double *v = NULL;
    char *path = NULL, lev[128], title[512];
    size_t n, plen, k;
    int rc;
    if (!dir || !*dir || !ds || !before || !after)
        return ps_error(PS_EINVAL, "ps_plot_run_images: missing argument");
    if (!ps_plot_have_images())
        return ps_error(PS_ENOTIMPL, "pstencil was built without PLplot: cannot write images to %s", dir);
    if (!stem || !*stem)
        stem = "run";
    if (mkdir(dir, 0777) && errno != EEXIST)
        return ps_error(PS_EIO, "cannot create %s: %s", dir, strerror(errno));
    if ((rc = ps_check_grid(ds, before)) || (rc = ps_check_grid(ds, after)))
        return rc;
    if (before->grid.nx != after->grid.nx || before->grid.ny != after->grid.ny ||
        before->grid.nz != after->grid.nz)
        return ps_error(PS_EDIM, "before and after fields differ in shape");
    plen = strlen(dir) + strlen(stem) + 32;
    path = malloc(plen);
    n = before->grid.nx * before->grid.ny;
    v = malloc((n ? n : 1) * sizeof *v);
    if (!path || !v) {
        rc = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    /* The surface layer is a boundary the model copies unchanged: show the
     * shallowest level the run changed. */
    if (!ps_plot_changed_level(before, after, &k))
        k = 0;
    /* Shared colour limits, so before and after can be compared by eye. */
    ps_image_options_init(&o);
    o.force = force;
    if ((rc = ps_plot_extract_level(before, k, v)))
        goto done;
    rc = ps_plot_robust_limits(v, n, 2.0, 98.0, &o.vmin, &o.vmax);
    if (rc == PS_OK)
        o.have_vmin = o.have_vmax = 1;
    else if (rc != PS_ERANGE)
        goto done;
    ps_plot_level_label(ds, k, lev, sizeof lev);
    snprintf(path, plen, "%s/%s_before.png", dir, stem);
    snprintf(title, sizeof title, "before the run: %s at %s", ps_var_name(ds), lev);
    o.path = path;
    if ((rc = ps_plot_field_level(ds, before, k, 0, title, &o, NULL)))
        goto done;
    snprintf(path, plen, "%s/%s_after.png", dir, stem);
    snprintf(title, sizeof title, "after the run: %s at %s", ps_var_name(ds), lev);
    if ((rc = ps_plot_field_level(ds, after, k, 0, title, &o, NULL)))
        goto done;
    ps_image_options_init(&o);
    o.force = force;
    snprintf(path, plen, "%s/%s_diff.png", dir, stem);
    o.path = path;
    rc = ps_plot_field_diff(ds, before, after, k, PS_PLOT_NO_TIME, "after - before", &o, NULL);
done:
    free(path);
    free(v);
    return rc;
}
