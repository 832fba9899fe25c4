/*
 * A stencil's auxiliary input read from a file (ps_io.h, ps_dataset_read_aux()):
 * found by CF standard name, checked to lie on the field's grid, read like the
 * field (depth flipped so k = 0 is the surface, missing values NaN) in float64,
 * converted to the input's unit by UDUNITS-2.
 */
#include "config.h"
#include "ps_io.h"
#include "ps_status.h"
#include "ps_units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* coordinate values equal to this relative tolerance lie on the same grid */
#define PS_AUX_COORD_RTOL 1e-6

static const char *const role_name[4] = {"time", "depth", "latitude", "longitude"};

/* The variable's spatial axes against the field's: sizes, then values. */
static int check_grid(const ps_dataset *a, const ps_dataset *f)
{
    int r;
    size_t i;
    for (r = PS_AXIS_DEPTH; r <= PS_AXIS_LON; r++) {
        const ps_axis *x = &a->axes[r], *y = &f->axes[r];
        if (x->len != y->len)
            return ps_error(PS_EDIM, "%s: '%s' is not on the grid of %s ('%s'): its %s axis "
                            "'%s' has %zu points, the field's %zu", a->path, a->var_name,
                            f->path[0] ? f->path : "the built-in ocean", f->var_name,
                            role_name[r], x->dim_name, x->len, y->len);
        for (i = 0; x->values && y->values && i < x->len; i++) {
            double p = x->values[i], q = y->values[i];
            if (p != q && !(fabs(p - q) <= PS_AUX_COORD_RTOL * fmax(fabs(p), fabs(q))))
                return ps_error(PS_EDIM, "%s: '%s' is not on the grid of %s ('%s'): %s %zu is "
                                "%.9g, the field's %.9g (they must agree to %g relative)",
                                a->path, a->var_name,
                                f->path[0] ? f->path : "the built-in ocean", f->var_name,
                                role_name[r], i, p, q, PS_AUX_COORD_RTOL);
        }
    }
    return PS_OK;
}

int ps_dataset_read_aux(const char *path, const ps_dataset *field, const char *standard_names,
                        const char *unit, long record, size_t t, size_t k0, size_t nk,
                        double *out, ps_aux_info *info)
{
    ps_dataset a;
    ps_field f;
    double scale = 1, offset = 0;
    size_t rec, n, c, start[3], count[3];
    int st;
    memset(&f, 0, sizeof f);
    if (!path || !field || !standard_names || !unit || !out)
        return ps_error(PS_EINVAL, "auxiliary input: missing argument");
    if ((st = ps_dataset_open_standard(&a, path, standard_names)))
        return st;
    if ((st = check_grid(&a, field)))
        goto done;
    if (k0 + nk > a.grid.nz || nk == 0) {
        st = ps_error(PS_ERANGE, "%s: levels %zu..%zu of '%s' are outside its %zu levels",
                      path, k0, k0 + nk - 1, a.var_name, a.grid.nz);
        goto done;
    }
    if (record >= 0) {
        rec = (size_t)record;
        if (rec >= a.ntime) {
            st = ps_error(PS_ERANGE, "%s: '%s' has %zu time record%s, not record %ld", path,
                          a.var_name, a.ntime, a.ntime == 1 ? "" : "s", record);
            goto done;
        }
    } else if (a.ntime == field->ntime && t < a.ntime) {
        rec = t;
    } else if (a.ntime == 1) {
        rec = 0;
    } else {
        st = ps_error(PS_EDIM, "%s: '%s' has %zu time records and the field %zu: give it one "
                      "record, or as many as the field (the field's time index %zu is read)",
                      path, a.var_name, a.ntime, field->ntime, t);
        goto done;
    }
    if (!a.units[0]) {
        st = ps_error(PS_EINVAL, "%s: '%s' has no units attribute (it must be convertible to "
                      "%s)", path, a.var_name, unit);
        goto done;
    }
    if ((st = ps_unit_factors(a.units, unit, &scale, &offset))) {
        st = ps_error(st, "%s: '%s': %s", path, a.var_name, ps_error_detail());
        goto done;
    }
    start[0] = k0, start[1] = 0, start[2] = 0;
    count[0] = nk, count[1] = a.grid.ny, count[2] = a.grid.nx;
    if ((st = ps_dataset_read_region(&a, rec, start, count, PS_FLOAT64, &f))) {
        if (!strstr(ps_error_detail(), path))
            st = ps_error(st, "%s: %s", path, ps_error_detail());
        goto done;
    }
    n = nk * a.grid.ny * a.grid.nx;
    if (scale == 1 && offset == 0)
        memcpy(out, f.data, n * sizeof *out);
    else
        for (c = 0; c < n; c++)
            out[c] = ((const double *)f.data)[c] * scale + offset;
    if (info) {
        memset(info, 0, sizeof *info);
        snprintf(info->var_name, sizeof info->var_name, "%s", a.var_name);
        snprintf(info->units, sizeof info->units, "%s", a.units);
        info->record = rec;
        info->converted = !(scale == 1 && offset == 0);
    }
done:
    ps_field_free(&f);
    ps_dataset_close(&a);
    return st;
}
