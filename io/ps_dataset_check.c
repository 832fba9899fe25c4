/*
 * The checks every command applies to an input before any work (ps_io.h):
 * its coordinates (ps_dataset_check_coords()) and a field read from it
 * (ps_field_check_ocean()), so that run, bench, plot, summary and compare
 * refuse the same files with the same messages.
 */
#include "config.h"
#include "ps_io.h"
#include "ps_nc_internal.h"
#include "ps_status.h"
#include "ps_time.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const role_names[4] = {"time", "depth", "latitude", "longitude"};

static const char *input_name(const ps_dataset *ds)
{
    return ds->path[0] ? ds->path : "built-in ocean";
}

/* The index in the file of value @p i of an axis (a reversed depth is read flipped). */
static size_t file_index(const ps_axis *ax, size_t i)
{
    return ax->reversed ? ax->len - 1 - i : i;
}

/* Units that make a latitude or longitude an angle in degrees (CF spellings or plain). */
static int degrees_units(const ps_axis *ax, int role)
{
    static const char *const north[] = {"degrees_north", "degree_north", "degree_N", "degrees_N",
                                        "degreeN", "degreesN", "degree", "degrees", NULL};
    static const char *const east[] = {"degrees_east", "degree_east", "degree_E", "degrees_E",
                                       "degreeE", "degreesE", "degree", "degrees", NULL};
    const ps_attr *u = ps_attr_find(&ax->attrs, "units");
    const char *const *l = role == PS_AXIS_LAT ? north : east;
    if (!u || !u->text)
        return 0;
    for (; *l; l++)
        if (!strcasecmp(u->text, *l))
            return 1;
    return 0;
}

static int check_axis(const ps_dataset *ds, int role)
{
    const ps_axis *ax = &ds->axes[role];
    const char *in = input_name(ds);
    int deg = (role == PS_AXIS_LAT || role == PS_AXIS_LON) && degrees_units(ax, role);
    double prev = 0, shift = 0;
    int dir = 0;
    size_t i;
    if (!ax->present || !ax->var_name[0] || !ax->values)
        return PS_OK; /* index values only: nothing the file could get wrong */
    for (i = 0; i < ax->len; i++) {
        double v = ax->values[i];
        int d;
        if (!isfinite(v))
            return ps_error(PS_EINVAL, "%s: %s coordinate '%s' has a non-finite value (%g) at "
                            "index %zu", in, role_names[role], ax->var_name, v,
                            file_index(ax, i));
        /* latitude in degrees: within [-90, 90] */
        if (deg && role == PS_AXIS_LAT && !(fabs(v) <= 90.0))
            return ps_error(PS_EINVAL, "%s: latitude coordinate '%s' has %g at index %zu, "
                            "outside [-90, 90]", in, ax->var_name, v, file_index(ax, i));
        /* longitude in degrees: a step of more than 180 degrees is a wrap across 360
         * (..., 359, 0, ...), as the stencils and pictures unwrap it */
        v += shift;
        if (deg && role == PS_AXIS_LON && i > 0) {
            double turns = ps_lon_turns(v - prev);
            v -= turns;
            shift -= turns;
        }
        /* CF: a spatial coordinate variable is strictly monotonic (no repeated,
         * constant or back-tracking value); records may share a time (the pages
         * number their frames apart) */
        d = i == 0 ? 0 : v > prev ? 1 : v < prev ? -1 : 0;
        if (role != PS_AXIS_TIME && i > 0 && (d == 0 || (dir && d != dir))) {
            size_t a = file_index(ax, i - 1), b = file_index(ax, i);
            return ps_error(PS_EINVAL, "%s: %s coordinate '%s' is not strictly monotonic: %.9g "
                            "at index %zu, %.9g at index %zu%s", in, role_names[role],
                            ax->var_name, ax->values[a < b ? i - 1 : i], a < b ? a : b,
                            ax->values[a < b ? i : i - 1], a < b ? b : a,
                            d == 0 ? " (a repeated value)" : "");
        }
        if (i > 0)
            dir = d;
        prev = v;
    }
    return PS_OK;
}

int ps_dataset_check_coords(const ps_dataset *ds)
{
    int role, st;
    if (!ds)
        return ps_error(PS_EINVAL, "no dataset");
    for (role = 0; role < 4; role++)
        if ((st = check_axis(ds, role)))
            return st;
    return PS_OK;
}

int ps_dataset_check_time(const ps_dataset *ds, size_t t)
{
    const ps_axis *ax;
    const ps_attr *u, *c;
    ps_calendar cal;
    ps_date date;
    double unit;
    char why[512];
    if (!ds)
        return ps_error(PS_EINVAL, "no dataset");
    ax = &ds->axes[PS_AXIS_TIME];
    if (!ax->present || !ax->var_name[0] || !ax->values)
        return PS_OK; /* no time coordinate: an output gets its own time axis */
    if (t >= ax->len)
        return ps_error(PS_ERANGE, "%s: time index %zu is out of range (%zu records)",
                        input_name(ds), t, ax->len);
    u = ps_attr_find(&ax->attrs, "units");
    c = ps_attr_find(&ax->attrs, "calendar");
    if (!u || !u->text)
        return ps_error(PS_EINVAL, "%s: time coordinate '%s' has no units: an output's time "
                        "axis continues the input's, which needs CF time units '<unit> since "
                        "<date>'", input_name(ds), ax->var_name);
    if (!isfinite(ax->values[t]))
        return ps_error(PS_EINVAL, "%s: time coordinate '%s' has a non-finite value (%g) at "
                        "index %zu", input_name(ds), ax->var_name, ax->values[t], t);
    if (ps_time_units_parse(u->text, &unit, NULL, 0) ||
        ps_calendar_parse(c && c->text ? c->text : NULL, &cal) ||
        ps_time_decode(ax->values[t], u->text, cal, &date)) {
        snprintf(why, sizeof why, "%s", ps_error_detail());
        return ps_error(PS_EINVAL, "%s: time coordinate '%s' at index %zu: %s; an output's "
                        "time axis continues the input's, which needs CF time units '<unit> "
                        "since <date>' (a date of its calendar) and a value that can be placed",
                        input_name(ds), ax->var_name, t, why);
    }
    return PS_OK;
}

static double value_at(const ps_field *f, size_t c)
{
    return f->precision == PS_FLOAT64 ? ((const double *)f->data)[c]
                                      : (double)((const float *)f->data)[c];
}

int ps_field_check_ocean(const ps_dataset *ds, size_t record, const ps_field *f, int keep_inf,
                         unsigned char *land, ps_ocean_count *count)
{
    const ps_grid *g;
    const char *in, *var;
    size_t n, c;
    ps_ocean_count cnt = {0, 0, 0};
    if (!ds || !f || !f->data)
        return ps_error(PS_EINVAL, "no field to check");
    g = &f->grid;
    in = input_name(ds);
    var = ds->var_name[0] ? ds->var_name : "the variable";
    n = g->nx * g->ny * g->nz;
    for (c = 0; c < n; c++) {
        double v = value_at(f, c);
        if (land)
            land[c] = isnan(v) ? 1 : 0;
        if (isnan(v))
            continue;
        cnt.ocean++;
        if (isinf(v) && !cnt.inf++)
            cnt.first_inf = c;
    }
    if (count)
        *count = cnt;
    if (!cnt.ocean)
        return ps_error(PS_EINVAL, "%s: no ocean cells: every value of '%s' at time index %zu "
                        "is land or missing (NaN or the fill value)", in, var, record);
    if (cnt.inf && !keep_inf)
        return ps_error(PS_ERANGE, "%s: %zu ocean cell%s of '%s' at time index %zu %s infinite "
                        "(first at level %zu, row %zu, column %zu: %g)", in, cnt.inf,
                        cnt.inf == 1 ? "" : "s", var, record, cnt.inf == 1 ? "is" : "are",
                        cnt.first_inf / (g->nx * g->ny), cnt.first_inf / g->nx % g->ny,
                        cnt.first_inf % g->nx, value_at(f, cnt.first_inf));
    return PS_OK;
}
