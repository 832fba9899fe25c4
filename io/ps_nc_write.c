/* NetCDF writing: a CF-1.8 netCDF-4 (classic model) file, written to a
 * temporary file in the output's directory and renamed into place on commit. */
#include "config.h"
#include "ps_io.h"
#include "ps_nc_internal.h"
#include "ps_units.h"
#include "ps_outfile.h"
#include "ps_status.h"
#include "ps_time.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A variable of the source carried over unchanged: a bounds variable or an
 * auxiliary coordinate (docs/file-conventions.md). */
typedef struct carried_var {
    char name[NC_MAX_NAME + 1];
    int nc_type;
    int ndims;
    char dim[4][NC_MAX_NAME + 1];
    size_t len[4];
    size_t n;                /* number of values */
    double *values;
    ps_attr_list attrs;
    int role_bounds;         /* axis role whose `bounds` this is, else 0 */
    int varid;
} carried_var;

#define MAX_CARRIED 16

/* a time-invariant companion of the field (ps_writer_add_variable) */
typedef struct companion_var {
    char name[NC_MAX_NAME + 1];
    char *standard_name, *long_name, *units;
    float *values; /* nz*ny*nx, NaN = land */
    size_t n;
    int varid;
} companion_var;

#define MAX_COMPANIONS 4

/* A time-varying field variable: the first from the writer's source, the
 * others from ps_writer_add_field() (their names, attributes and types). */
typedef struct field_var {
    char name[NC_MAX_NAME + 1];
    ps_attr_list attrs;    /* the source variable's attributes (added fields) */
    int src_type;          /* its type in the source (the _FillValue rule) */
    ps_grid grid;          /* the source's grid (added fields) */
    int varid;
    double fill;           /* value land (NaN) is written as */
    int reduce_ids[5];     /* NAME_content, _volume, _mean, _min, _max */
} field_var;

struct ps_writer {
    char path[4096];       /* final path */
    char tmp[4096];        /* temporary file in the same directory */
    int ncid;              /* -1 until created */
    int defined;           /* dimensions/variables defined (at the first append) */
    int committed;
    int force;
    int compress;
    double dt;
    int keep_time;
    ps_precision precision;
    char *history;         /* full history attribute to write */
    char *source;
    ps_dataset src;        /* deep copy of what is needed from the source */
    int have_src;
    ps_grid grid;
    size_t nrec;
    int time_id, step_id;
    field_var fld[PS_WRITER_MAX_FIELDS]; /* fld[0] the first field, then those added */
    int nfld;
    double t0;             /* source time value at the starting record (own units: 0) */
    double unit_s;         /* seconds per unit of the output's time axis */
    double step0;          /* the source's `step` at the starting record (0 if none) */
    int chained;           /* t0 is the time at step 0 of the source's run (its step's
                              time_at_step_0, same seconds_per_step): time is then
                              t0 + (step0 + step) * dt, as one run would write it */
    int own_time_units;    /* 1: seconds since 1970-01-01 (the source has no time
                              coordinate variable) */
    double last_time;      /* the time of the last record appended (nrec > 0) */
    long time_index;       /* the source's record the time axis starts from */
    int dt_default;        /* no dt was given: PS_WRITE_DEFAULT_DT */
    carried_var carried[MAX_CARRIED];
    int ncarried;
    int tmp_slot;          /* signal-cleanup slot of tmp (core/ps_outfile.h) */
    void *slab;            /* one horizontal slab with NaN replaced by the fill */
    ps_attr_list extra;    /* global attributes added by ps_writer_put_global() */
    ps_write_parallel par; /* writing from several processes (par.create set) */
    int parallel;
    ps_grid part;          /* this process's part of the grid (parallel) */
    int reduce;            /* the reductions are written (ps_writer_reductions) */
    int reduce_metric;     /* volumes in m3, else 1 per cell */
    char reduce_why[256];  /* why 1 per cell */
    int red_missing;       /* the last record appended awaits its reductions */
    companion_var comp[MAX_COMPANIONS];
    int ncomp;
};

/* ---------------------------------------------------------- path checking */

static int dir_of(const char *path, char *dir, size_t n)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(dir, n, "%s", dirname(tmp));
    return PS_OK;
}

/* the rules of every output (core/ps_outfile.h): no clobbering without force, never
 * the input, never anything but a regular file */
static int check_output_path(const char *out, const char *in, int force)
{
    if (!out || !*out)
        return ps_error(PS_EINVAL, "no output file given");
    return ps_outfile_check(out, in, force, "output");
}

/* ---------------------------------------------------------------- helpers */

static char *xstrdup(const char *s)
{
    return strdup(s ? s : "");
}

static int nc_fail(ps_writer *w, int rc, const char *what)
{
    return ps_error(PS_EIO, "writing %s: %s: %s", w->path, what, nc_strerror(rc));
}

/* Attributes never copied to the output variable: packing and missing-data
 * descriptions of the input (the output is unpacked, with its own fill),
 * references to variables not copied, and netCDF-internal ones. */
static int skip_var_attr(const char *name)
{
    static const char *const skip[] = {
        "_FillValue", "missing_value", "scale_factor", "add_offset", "valid_min", "valid_max",
        "valid_range", "_Unsigned", "coordinates", "grid_mapping", "bounds", "cell_measures",
        "ancillary_variables", "actual_range", "chunksizes", NULL};
    int i;
    if (name[0] == '_')
        return 1;
    for (i = 0; skip[i]; i++)
        if (!strcmp(name, skip[i]))
            return 1;
    return 0;
}

static int put_attr(int ncid, int varid, const ps_attr *a, int as_type)
{
    if (a->text)
        return nc_put_att_text(ncid, varid, a->name, strlen(a->text), a->text);
    if (!a->values || a->len == 0)
        return NC_NOERR;
    {
        int t = as_type ? as_type : a->nc_type;
        /* the classic model has no 64-bit integers or unsigned types: store as double */
        if (t == NC_INT64 || t == NC_UINT64 || t == NC_UINT || t == NC_USHORT || t == NC_UBYTE)
            t = NC_DOUBLE;
        return nc_put_att_double(ncid, varid, a->name, (nc_type)t, a->len, a->values);
    }
}

static int copy_attrs(ps_writer *w, int varid, const ps_attr_list *l, int is_var,
                      int coord_type)
{
    int i, rc;
    for (i = 0; l && i < l->count; i++) {
        const ps_attr *a = &l->attrs[i];
        int as = 0;
        if (a->name[0] == '_')
            continue;
        if (is_var == 1 && skip_var_attr(a->name))
            continue;
        if (is_var == 3 && /* time: its range and bounds no longer hold */
            (!strcmp(a->name, "bounds") || !strcmp(a->name, "missing_value") ||
             !strcmp(a->name, "valid_min") || !strcmp(a->name, "valid_max") ||
             !strcmp(a->name, "valid_range") || !strcmp(a->name, "actual_range")))
            continue;
        if (is_var == 4 && !strcmp(a->name, "bounds")) /* a carried variable's own bounds */
            continue;
        if (is_var == 2) { /* coordinate variable */
            /* bounds (carried separately) and Ferret's edges name variables
             * the output may not hold */
            if (!strcmp(a->name, "bounds") || !strcmp(a->name, "edges") ||
                !strcmp(a->name, "missing_value"))
                continue;
            if (!strcmp(a->name, "valid_min") || !strcmp(a->name, "valid_max") ||
                !strcmp(a->name, "valid_range") || !strcmp(a->name, "actual_range"))
                as = coord_type;
        }
        if (is_var == 0 && (!strcmp(a->name, "history") || !strcmp(a->name, "Conventions") ||
                            !strcmp(a->name, "source")))
            continue;
        /* the run record of an earlier pstencil run (stencil, parameters): this
         * run writes its own, and a stale one must not survive */
        if (is_var == 0 && !strncmp(a->name, "pstencil_", 9))
            continue;
        if ((rc = put_attr(w->ncid, varid, a, as)))
            return nc_fail(w, rc, a->name);
    }
    return PS_OK;
}

static int put_text(ps_writer *w, int varid, const char *name, const char *text)
{
    int rc = nc_put_att_text(w->ncid, varid, name, strlen(text), text);
    return rc ? nc_fail(w, rc, name) : PS_OK;
}

/* A copied `units` in UDUNITS-2's spelling where the source's is one it does
 * not read as written ("DEG C" -> "degC", "METERS" -> "m", ps_units.h); a
 * unit it does not know at all is left as the source wrote it. */
static int put_units(ps_writer *w, int varid, const ps_attr *units)
{
    ps_unit u;
    if (!units || !units->text || ps_unit_parse(units->text, &u) ||
        !strcmp(u.canonical, units->text))
        return PS_OK;
    return put_text(w, varid, "units", u.canonical);
}

/* ------------------------------------------------- variables carried over */

static void carried_free(ps_writer *w)
{
    int i;
    for (i = 0; i < w->ncarried; i++) {
        free(w->carried[i].values);
        ps_attr_list_free(&w->carried[i].attrs);
    }
    w->ncarried = 0;
}

/* Read every attribute of a source variable (text and numbers; strings skipped). */
static int read_var_attrs(int ncid, int varid, ps_attr_list *l, const char *path)
{
    int na, i, rc, st;
    if ((rc = nc_inq_varnatts(ncid, varid, &na)))
        return ps_error(PS_EIO, "%s: %s", path, nc_strerror(rc));
    for (i = 0; i < na; i++) {
        char an[NC_MAX_NAME + 1];
        nc_type t;
        size_t len;
        if ((rc = nc_inq_attname(ncid, varid, i, an)) || (rc = nc_inq_att(ncid, varid, an, &t, &len)))
            return ps_error(PS_EIO, "%s: %s", path, nc_strerror(rc));
        if (t == NC_STRING)
            continue;
        if (t == NC_CHAR) {
            char *txt = malloc(len + 1);
            if (!txt)
                return ps_error(PS_ENOMEM, "out of memory");
            if ((rc = nc_get_att_text(ncid, varid, an, txt))) {
                free(txt);
                return ps_error(PS_EIO, "%s: %s: %s", path, an, nc_strerror(rc));
            }
            txt[len] = '\0';
            st = ps_attr_set_text(l, an, txt);
            free(txt);
        } else {
            double *v = malloc((len ? len : 1) * sizeof *v);
            if (!v)
                return ps_error(PS_ENOMEM, "out of memory");
            if ((rc = nc_get_att_double(ncid, varid, an, v))) {
                free(v);
                return ps_error(PS_EIO, "%s: %s: %s", path, an, nc_strerror(rc));
            }
            st = ps_attr_set_values(l, an, t, v, len);
            free(v);
        }
        if (st)
            return st;
    }
    return PS_OK;
}

/* The role of a source dimension name (-1: not an axis of the variable). */
static int dim_role(const ps_dataset *src, const char *dim)
{
    int a;
    for (a = 0; a < 4; a++)
        if (src->axes[a].present && !strcmp(src->axes[a].dim_name, dim))
            return a;
    return -1;
}

/* Carry variable @p name of the source over: a bounds variable of axis
 * @p role_bounds (its first dimension that axis, the second any non-axis
 * one), or (role_bounds 0) an auxiliary coordinate whose dimensions are all
 * spatial axes. Anything else, or a name the output already uses, is left. */
static int carry_one(ps_writer *w, int ncid, const ps_dataset *src, const char *name,
                     int role_bounds)
{
    int varid, ndims, dimids[NC_MAX_VAR_DIMS], k, a, st, flip = 0;
    nc_type t;
    carried_var *c;
    if (w->ncarried >= MAX_CARRIED || !strcmp(name, "time") || !strcmp(name, "step") ||
        !strcmp(name, src->var_name))
        return PS_OK;
    for (k = 0; k < w->ncarried; k++)
        if (!strcmp(w->carried[k].name, name))
            return PS_OK;
    for (a = 0; a < 4; a++)
        if (src->axes[a].present &&
            (!strcmp(name, src->axes[a].var_name) || !strcmp(name, src->axes[a].dim_name)))
            return PS_OK;
    if (nc_inq_varid(ncid, name, &varid) ||
        nc_inq_var(ncid, varid, NULL, &t, &ndims, dimids, NULL) || ndims > 4 ||
        t == NC_CHAR || t == NC_STRING)
        return PS_OK;
    if (role_bounds && ndims != 2)
        return PS_OK;
    c = &w->carried[w->ncarried];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->nc_type = (t == NC_BYTE || t == NC_SHORT || t == NC_INT || t == NC_FLOAT) ? t : NC_DOUBLE;
    c->ndims = ndims;
    c->role_bounds = role_bounds;
    c->n = 1;
    for (k = 0; k < ndims; k++) {
        int r;
        if (nc_inq_dim(ncid, dimids[k], c->dim[k], &c->len[k]))
            return PS_OK;
        r = dim_role(src, c->dim[k]);
        if (r == PS_AXIS_TIME || (role_bounds && k == 0 && r != role_bounds) ||
            (role_bounds && k == 1 && r >= 0) || (!role_bounds && r < 0))
            return PS_OK;
        if (role_bounds && k == 1 && c->len[k] > 2)
            return PS_OK; /* CF: a 1-D axis's cells have 2 bounds */
        if (r == PS_AXIS_DEPTH && src->axes[r].reversed) {
            if (k != 0)
                return PS_OK; /* a reversed depth that is not the slowest dimension */
            flip = 1;
        }
        c->n *= c->len[k];
    }
    c->values = malloc((c->n ? c->n : 1) * sizeof(double));
    if (!c->values)
        return ps_error(PS_ENOMEM, "out of memory");
    {
        ps_nc_read_spec r = {.path = src->path, .ncid = ncid, .varid = varid, .rank = ndims,
                             .dimids = dimids, .cap = c->n};
        if ((st = ps_nc_get(&r, c->values))) {
            free(c->values);
            return st;
        }
    }
    if ((st = read_var_attrs(ncid, varid, &c->attrs, src->path))) {
        free(c->values);
        ps_attr_list_free(&c->attrs);
        return st;
    }
    if (flip) {
        /* the output has k = 0 at the surface: reverse the depth rows, and for
         * bounds also each pair, so every bound stays next to its cell */
        size_t rows = c->len[0], row = c->n / rows, i, j;
        if (role_bounds)
            row = 1, rows = c->n;
        for (i = 0; i < rows / 2; i++)
            for (j = 0; j < row; j++) {
                double tmp = c->values[i * row + j];
                c->values[i * row + j] = c->values[(rows - 1 - i) * row + j];
                c->values[(rows - 1 - i) * row + j] = tmp;
            }
    }
    w->ncarried++;
    return PS_OK;
}

/*
 * The step count of an earlier run's output that lost its `step` variable
 * (cdo selvar keeps only the variables named): from the time axis and the
 * run record, step = (time - pstencil_time_at_step_0) * unit / seconds per
 * step, when the time units are those the run recorded (pstencil_time_units)
 * and the result is a whole step to 1e-3. Else the count is lost and the
 * run refused: starting it again from 0 would give wrong steps.
 */
static int step_from_time(ps_writer *w, const ps_dataset *src, long time_index)
{
    const ps_attr_list *g = &src->global_attrs;
    const ps_attr *o = ps_attr_find(g, "pstencil_time_at_step_0");
    const ps_attr *tu = ps_attr_find(g, "pstencil_time_units");
    const ps_attr *sps = ps_attr_find(g, "pstencil_seconds_per_step");
    const ps_attr *u = ps_attr_find(&src->axes[0].attrs, "units");
    const char *path = src->path;
    double x, r;
    if (!o || !o->values || o->len != 1 || !isfinite(o->values[0]) || !tu || !tu->text ||
        !sps || !sps->values || sps->len != 1 || !(sps->values[0] > 0) || w->own_time_units)
        return ps_error(PS_EFORMAT,
                        "%s: is the output of a pstencil run but has no step variable and no "
                        "time record to count from (pstencil_time_at_step_0, "
                        "pstencil_time_units): its step count is lost; copy 'step' back from "
                        "the run's output (ncks -A -v step RUN.nc %s) or remove its "
                        "pstencil_stencil attribute to start counting from 0",
                        path, path);
    if (!u || !u->text || strcmp(u->text, tu->text))
        return ps_error(PS_EFORMAT,
                        "%s: has no step variable, and its time units '%s' are not those its "
                        "run recorded ('%s'), so the step count cannot be told from the time; "
                        "copy 'step' back from the run's output (ncks -A -v step RUN.nc %s)",
                        path, u && u->text ? u->text : "", tu->text, path);
    x = (src->axes[0].values[time_index] - o->values[0]) * w->unit_s / sps->values[0];
    r = nearbyint(x);
    if (!isfinite(x) || fabs(x - r) > 1e-3 || r < 0)
        return ps_error(PS_EFORMAT,
                        "%s: has no step variable, and its time at index %ld is %.6g steps "
                        "of %g s after its run's step 0, not a whole step: the step count "
                        "cannot be told; copy 'step' back from the run's output",
                        path, time_index, x, sps->values[0]);
    w->step0 = r;
    if (sps->values[0] == w->dt) {
        w->t0 = o->values[0];
        w->chained = 1;
    }
    return PS_OK;
}

/* Find, in the source file, the bounds of the spatial coordinates, the
 * auxiliary coordinates of the variable and the `step` of a continued run. */
static int load_from_source(ps_writer *w, const ps_dataset *src, long time_index)
{
    int ncid, a, st = PS_OK, sv, nd, did;
    const ps_attr *ca;
    if (!src->path[0] || nc_open(src->path, NC_NOWRITE, &ncid))
        return PS_OK; /* the built-in ocean: nothing more to carry */
    for (a = 1; a < 4 && !st; a++) {
        const ps_attr *b = src->axes[a].present && src->axes[a].var_name[0]
                               ? ps_attr_find(&src->axes[a].attrs, "bounds") : NULL;
        if (b && b->text)
            st = carry_one(w, ncid, src, b->text, a);
    }
    ca = ps_attr_find(&src->var_attrs, "coordinates");
    if (!st && ca && ca->text) {
        char *list = strdup(ca->text), *save = NULL, *tok;
        if (!list)
            st = ps_error(PS_ENOMEM, "out of memory");
        for (tok = list ? strtok_r(list, " \t\n", &save) : NULL; tok && !st;
             tok = strtok_r(NULL, " \t\n", &save))
            st = carry_one(w, ncid, src, tok, 0);
        free(list);
    }
    /* the output of an earlier run: its step count goes on */
    if (!st && src->axes[0].present && time_index >= 0 &&
        (size_t)time_index < src->axes[0].len && !nc_inq_varid(ncid, "step", &sv) &&
        !nc_inq_varndims(ncid, sv, &nd) && nd == 1 && !nc_inq_vardimid(ncid, sv, &did)) {
        char dn[NC_MAX_NAME + 1];
        size_t i = (size_t)time_index;
        double v;
        if (!nc_inq_dimname(ncid, did, dn) && !strcmp(dn, src->axes[0].dim_name) &&
            !nc_get_var1_double(ncid, sv, &i, &v) && isfinite(v)) {
            double o, sps;
            w->step0 = v;
            /* the same time step: the time goes on from the run's origin, so that a
             * chain of runs writes bitwise the times of one run */
            if (!w->own_time_units &&
                !nc_get_att_double(ncid, sv, "time_at_step_0", &o) && isfinite(o) &&
                !nc_get_att_double(ncid, sv, "seconds_per_step", &sps) && sps == w->dt) {
                w->t0 = o;
                w->chained = 1;
            }
        }
    } else if (!st && ps_attr_find(&src->global_attrs, "pstencil_stencil")) {
        st = step_from_time(w, src, time_index);
    }
        nc_close(ncid);
    return st;
}

/* -------------------------------------------------------------------- open */

/* The output time of model step @p step (in the output's time units). */
static double time_of(const ps_writer *w, long step)
{
    if (w->chained)
        return w->t0 + (w->step0 + (double)step) * w->dt / w->unit_s;
    return w->t0 + (double)step * w->dt / w->unit_s;
}

/*
 * Before anything is written: the output's time axis must increase by one
 * step at every step up to @p last (at least step 1). Sufficient condition:
 * the times at both ends are finite and one step (dt in the axis's units) is
 * more than 4 units in the last place of the largest time, so the rounded
 * sums stay strictly increasing (ps_writer_append() checks each record too).
 */
static int check_time_axis(const ps_writer *w, const ps_dataset *src, long last)
{
    double a = time_of(w, 0), b = time_of(w, last > 1 ? last : 1), d = w->dt / w->unit_s;
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    const ps_attr *u = src && !w->own_time_units
                           ? ps_attr_find(&src->axes[PS_AXIS_TIME].attrs, "units") : NULL;
    const char *units = u && u->text ? u->text : "seconds since 1970-01-01 00:00:00";
    char what[4700];
    if (w->own_time_units)
        snprintf(what, sizeof what, "%.4095s: ", w->path);
    else
        snprintf(what, sizeof what, "%.4095s: time coordinate '%.255s' at index %ld is %.17g "
                 "%.200s; ",
                 src->path[0] ? src->path : "the source", src->axes[PS_AXIS_TIME].var_name,
                 w->time_index, src->axes[PS_AXIS_TIME].values[w->time_index], units);
    if (!isfinite(a) || !isfinite(b) || !(d > 4.0 * (nextafter(m, INFINITY) - m)))
        return ps_error(PS_ERANGE, "%sthe output's time axis would not increase: step %ld "
                        "is at %.17g %s and one step of %g s is %.3g in those units, below "
                        "what a double resolves there (the time is too large for its units, "
                        "or the run too long)", what, last > 1 ? last : 1L, b, units, w->dt, d);
    if (!w->own_time_units) {
        const ps_attr *c = ps_attr_find(&src->axes[PS_AXIS_TIME].attrs, "calendar");
        ps_calendar cal;
        ps_date date;
        if (ps_calendar_parse(c && c->text ? c->text : NULL, &cal) ||
            ps_time_decode(b, units, cal, &date))
            return ps_error(PS_ERANGE, "%sthe output's time axis cannot place step %ld: %s",
                            what, last > 1 ? last : 1L, ps_error_detail());
    }
    return PS_OK;
}

int ps_writer_open(ps_writer **wp, const ps_dataset *src, const ps_write_options *opt)
{
    ps_writer *w = NULL;
    char dir[4096], base[4096], tmpb[4096];
    int st, fd;
    time_t now = time(NULL);
    struct tm tm;
    char stamp[64];
    const char *in = src && src->path[0] ? src->path : NULL;

    *wp = NULL;
    if (!opt)
        return ps_error(PS_EINVAL, "no write options");
    if (opt->compress < 0 || opt->compress > 9)
        return ps_error(PS_EINVAL, "compression level %d is out of range (0..9)", opt->compress);
    if (!(opt->dt >= 0) || !isfinite(opt->dt))
        return ps_error(PS_EINVAL, "time step dt must be a finite number >= 0");
    if ((st = check_output_path(opt->path, in, opt->force)))
        return st;
    w = calloc(1, sizeof *w);
    if (!w)
        return ps_error(PS_ENOMEM, "out of memory");
    w->ncid = -1;
    w->tmp_slot = -1;
    w->force = opt->force;
    w->compress = opt->compress;
    w->dt = opt->dt > 0 ? opt->dt : PS_WRITE_DEFAULT_DT;
    w->dt_default = !(opt->dt > 0);
    w->keep_time = opt->keep_time;
    /* the time axis: the source record's time + step * dt, in the source's units */
    w->own_time_units = 1;
    w->unit_s = 1;
    if (!opt->keep_time && src && src->axes[0].present && src->axes[0].var_name[0] &&
        src->axes[0].values && opt->time_index >= 0 &&
        (size_t)opt->time_index < src->axes[0].len) {
        const ps_attr *u = ps_attr_find(&src->axes[0].attrs, "units");
        if ((st = ps_dataset_check_time(src, (size_t)opt->time_index)) ||
            (st = ps_time_units_parse(u->text, &w->unit_s, NULL, 0)))
            goto fail;
        w->t0 = src->axes[0].values[opt->time_index];
        w->time_index = opt->time_index;
        w->own_time_units = 0;
    }
    w->precision = opt->precision;
    snprintf(w->path, sizeof w->path, "%s", opt->path);
    /* the first field: the source's variable (thetao without a source) */
    w->nfld = 1;
    snprintf(w->fld[0].name, sizeof w->fld[0].name, "%s",
             src && src->var_name[0] ? src->var_name : "thetao");
    w->fld[0].src_type = src ? src->var_nc_type : NC_FLOAT;
    if (opt->parallel) {
        w->par = *opt->parallel;
        w->parallel = 1;
        now = (time_t)w->par.now;
    }

    /* history: the input's, then "<ISO UTC time>: <command line>" */
    {
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        char *end = NULL;
        long long e = sde && *sde ? strtoll(sde, &end, 10) : 0;
        if (sde && *sde && end && !*end && e >= 0)
            now = (time_t)e;
    }
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    {
        const ps_attr *h = src ? ps_attr_find(&src->global_attrs, "history") : NULL;
        const char *old = h && h->text ? h->text : "";
        const char *line = opt->history ? opt->history : "pstencil";
        size_t n = strlen(old) + strlen(stamp) + strlen(line) + 8;
        w->history = malloc(n);
        if (!w->history) {
            st = ps_error(PS_ENOMEM, "out of memory");
            goto fail;
        }
        /* newest line first, as NCO and CDO write it */
        snprintf(w->history, n, "%s%s%s%s%s", opt->reproducible ? "" : stamp,
                 opt->reproducible ? "" : ": ", line, *old ? "\n" : "", old);
    }
    w->source = xstrdup(opt->source ? opt->source : "pstencil " PACKAGE_VERSION);
    if (!w->source) {
        st = ps_error(PS_ENOMEM, "out of memory");
        goto fail;
    }

    /* keep what the output needs from the source (the caller may close it) */
    if (src) {
        int a;
        w->have_src = 1;
        memset(&w->src, 0, sizeof w->src);
        w->src.ncid = -1;
        snprintf(w->src.path, sizeof w->src.path, "%s", src->path);
        snprintf(w->src.var_name, sizeof w->src.var_name, "%s", src->var_name);
        w->src.var_nc_type = src->var_nc_type;
        w->src.grid = src->grid;
        for (a = 0; a < 4; a++) {
            const ps_axis *s = &src->axes[a];
            ps_axis *d = &w->src.axes[a];
            *d = *s;
            d->values = NULL;
            memset(&d->attrs, 0, sizeof d->attrs);
            if (s->present && s->values && s->len) {
                d->values = malloc(s->len * sizeof(double));
                if (!d->values) {
                    st = ps_error(PS_ENOMEM, "out of memory");
                    goto fail;
                }
                memcpy(d->values, s->values, s->len * sizeof(double));
            }
            if ((st = ps_attr_list_copy(&d->attrs, &s->attrs)))
                goto fail;
        }
        if ((st = ps_attr_list_copy(&w->src.var_attrs, &src->var_attrs)) ||
            (st = ps_attr_list_copy(&w->src.global_attrs, &src->global_attrs)))
            goto fail;
        if (!w->keep_time && (st = load_from_source(w, src, opt->time_index)))
            goto fail;
    }
    if (!w->keep_time && (st = check_time_axis(w, src, opt->last_step)))
        goto fail;

    /* the temporary file: .NAME.tmp.XXXXXX next to the output */
    dir_of(opt->path, dir, sizeof dir);
    snprintf(tmpb, sizeof tmpb, "%s", opt->path);
    snprintf(base, sizeof base, "%s", basename(tmpb));
    if ((size_t)snprintf(w->tmp, sizeof w->tmp, "%s/.%s.tmp.XXXXXX", dir, base) >= sizeof w->tmp) {
        st = ps_error(PS_EINVAL, "output path %s is too long", opt->path);
        goto fail;
    }
    if (w->parallel && !w->par.publisher) {
        /* the publisher's file: another process creates, registers and removes it */
        if ((st = w->par.share(w->par.user, w->tmp, sizeof w->tmp)))
            goto fail_shared;
        if (!w->tmp[0]) {
            st = ps_error(PS_EIO, "the writing process could not create a temporary file "
                          "beside %s", opt->path);
            goto fail_shared;
        }
    } else {
        fd = mkstemp(w->tmp);
        if (fd < 0) {
            st = ps_error(PS_EIO, "cannot create a temporary file in %s: %s", dir,
                          strerror(errno));
            w->tmp[0] = '\0';
        } else {
            close(fd);
            w->tmp_slot = ps_tempfile_register(w->tmp);
            st = PS_OK;
        }
        if (w->parallel) {
            /* every process learns the name, or that there is none */
            char name[sizeof w->tmp];
            snprintf(name, sizeof name, "%s", w->tmp);
            if (w->par.share(w->par.user, name, sizeof name) && !st)
                st = ps_error(PS_EIO, "cannot share the temporary file's name");
        }
        if (st)
            goto fail;
    }
    {
        int rc = w->parallel
                     ? w->par.create(w->par.user, w->tmp,
                                     NC_CLOBBER | NC_NETCDF4 | NC_CLASSIC_MODEL, &w->ncid)
                     : nc_create(w->tmp, NC_CLOBBER | NC_NETCDF4 | NC_CLASSIC_MODEL, &w->ncid);
        if (rc) {
            w->ncid = -1;
            st = ps_error(PS_EIO, "cannot create %s: %s", w->tmp, nc_strerror(rc));
            goto fail;
        }
    }
    *wp = w;
    return PS_OK;
fail_shared:
    w->tmp[0] = '\0';
fail:
    if (w->parallel && !w->par.publisher)
        w->tmp[0] = '\0'; /* the publisher removes its file */
    {
        char keep[1024];
        snprintf(keep, sizeof keep, "%s", ps_error_detail());
        ps_writer_abort(w);
        ps_error(st, "%s", keep);
    }
    return st;
}

/* ------------------------------------------------------------- definition */

static const char *const gen_dim_names[4] = {"time", "depth", "latitude", "longitude"};

/* CF 4.3: a vertical axis in a length is a depth (standard_name depth,
 * positive down) or, as the reader takes it (ps_depth_is_height()), a height
 * (height, positive up); what the source does not say is added, with axis Z
 * and a long_name. */
static int name_vertical(ps_writer *w, int varid, const ps_axis *ax)
{
    const ps_attr_list *l = &ax->attrs;
    int up = ps_depth_is_height(ax), st = PS_OK;
    const char *what = up ? "height" : "depth";
    if (!ps_attr_find(l, "standard_name"))
        st = put_text(w, varid, "standard_name", what);
    if (!st && !ps_attr_find(l, "long_name"))
        st = put_text(w, varid, "long_name", what);
    if (!st && !ps_attr_find(l, "positive"))
        st = put_text(w, varid, "positive", up ? "up" : "down");
    if (!st && !ps_attr_find(l, "axis"))
        st = put_text(w, varid, "axis", "Z");
    return st;
}

static int define_coord(ps_writer *w, int role, int dimid, size_t len, int *varid)
{
    const ps_axis *ax = w->have_src ? &w->src.axes[role] : NULL;
    int rc, st, t = NC_DOUBLE;
    char name[NC_MAX_NAME + 1];
    int have = ax && ax->present && ax->values && ax->len == len;
    if (nc_inq_dimname(w->ncid, dimid, name))
        return nc_fail(w, NC_EBADDIM, "dimension");
    if (have && (ax->nc_type == NC_FLOAT || ax->nc_type == NC_DOUBLE || ax->nc_type == NC_INT ||
                 ax->nc_type == NC_SHORT))
        t = ax->nc_type;
    if ((rc = nc_def_var(w->ncid, name, (nc_type)t, 1, &dimid, varid)))
        return nc_fail(w, rc, name);
    if (have && ax->var_name[0]) {
        const ps_attr *u = ps_attr_find(&ax->attrs, "units");
        if ((st = copy_attrs(w, *varid, &ax->attrs, 2, t)) || (st = put_units(w, *varid, u)))
            return st;
        /* CF 4: name the axis the reader found, if the source did not */
        if (role == PS_AXIS_LAT || role == PS_AXIS_LON) {
            if (!ps_attr_find(&ax->attrs, "standard_name") &&
                (st = put_text(w, *varid, "standard_name",
                               role == PS_AXIS_LAT ? "latitude" : "longitude")))
                return st;
        } else if (role == PS_AXIS_DEPTH && u && ps_units_is_length(u->text) &&
                   (st = name_vertical(w, *varid, ax)))
            return st;
        } else {
        /* no coordinate variable in the source: index values, named by role */
        static const char *const ln[4] = {"time index", "depth level index",
                                          "latitude index", "longitude index"};
        /* no axis, positive or units naming a geographic axis: CF would then
         * require degrees or metres, which an index is not */
        if ((st = put_text(w, *varid, "long_name", ln[role])) ||
            (st = put_text(w, *varid, "units", "1")))
            return st;
    }
    return PS_OK;
}

static int write_coord(ps_writer *w, int role, int varid, size_t len)
{
    const ps_axis *ax = w->have_src ? &w->src.axes[role] : NULL;
    double *v = NULL;
    size_t i;
    int rc;
    if (ax && ax->present && ax->values && ax->len == len) {
        rc = nc_put_var_double(w->ncid, varid, ax->values);
    } else {
        v = malloc(len * sizeof *v);
        if (!v)
            return ps_error(PS_ENOMEM, "out of memory");
        for (i = 0; i < len; i++)
            v[i] = (double)i;
        rc = nc_put_var_double(w->ncid, varid, v);
        free(v);
    }
    return rc ? nc_fail(w, rc, "coordinates") : PS_OK;
}

/* Define the carried variables (their dimensions as needed; a name whose
 * length differs from the output's dimension of that name is left out) and
 * point the coordinates at their bounds. */
static int define_carried(ps_writer *w, const int *cv)
{
    int i, k, rc, st;
    for (i = 0; i < w->ncarried; i++) {
        carried_var *c = &w->carried[i];
        int dims[4];
        const ps_attr *fa;
        c->varid = -1;
        for (k = 0; k < c->ndims; k++) {
            size_t len;
            if (nc_inq_dimid(w->ncid, c->dim[k], &dims[k]) == NC_NOERR) {
                if (nc_inq_dimlen(w->ncid, dims[k], &len) || len != c->len[k])
                    break;
            } else if ((rc = nc_def_dim(w->ncid, c->dim[k], c->len[k], &dims[k]))) {
                return nc_fail(w, rc, c->dim[k]);
            }
        }
        if (k < c->ndims)
            continue;
        if ((rc = nc_def_var(w->ncid, c->name, (nc_type)c->nc_type, c->ndims, dims, &c->varid)))
            return nc_fail(w, rc, c->name);
        if ((st = copy_attrs(w, c->varid, &c->attrs, 4, 0)))
            return st;
        fa = ps_attr_find(&c->attrs, "_FillValue");
        if (fa && fa->values && fa->len == 1 &&
            (rc = nc_put_att_double(w->ncid, c->varid, "_FillValue", (nc_type)c->nc_type, 1,
                                    fa->values)))
            return nc_fail(w, rc, c->name);
        if (c->role_bounds && (st = put_text(w, cv[c->role_bounds], "bounds", c->name)))
            return st;
    }
    return PS_OK;
}

/* Whether an auxiliary coordinate carried over spans dimension @p dim. */
static int carried_uses_dim(const ps_writer *w, const char *dim)
{
    int i, k;
    for (i = 0; i < w->ncarried; i++)
        for (k = 0; k < w->carried[i].ndims; k++)
            if (!w->carried[i].role_bounds && !strcmp(w->carried[i].dim[k], dim))
                return 1;
    return 0;
}

/* The data variable's `coordinates`: the auxiliary coordinates carried over.
 * Not `step`: CDO takes only spatial auxiliary coordinates ("Coordinates
 * variable step can't be assigned!") and drops it; as a variable of its own
 * it survives cdo copy and NCO. */
static int put_coordinates(ps_writer *w, int varid)
{
    char list[4096] = "";
    size_t n = 0;
    int i;
    for (i = 0; i < w->ncarried; i++)
        if (!w->carried[i].role_bounds && w->carried[i].varid >= 0)
            n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s",
                                  n ? " " : "", w->carried[i].name);
    if (!n)
        return PS_OK;
    if (n >= sizeof list)
        return ps_error(PS_EINVAL, "writing %s: too many coordinates", w->path);
    return put_text(w, varid, "coordinates", list);
}

/* HDF5 Fletcher32 checksums on every variable, so that a damaged chunk of a
 * pstencil file is found when it is read (the reader names it) instead of
 * being read as data. A variable stored contiguously is made chunked first
 * (the filter needs chunks): one chunk of its whole shape. */
static int add_checksums(ps_writer *w)
{
    int nvars, v, rc;
    if ((rc = nc_inq_nvars(w->ncid, &nvars)))
        return nc_fail(w, rc, "variables");
    for (v = 0; v < nvars; v++) {
        int storage = NC_CHUNKED;
        if ((rc = nc_inq_var_chunking(w->ncid, v, &storage, NULL)))
            return nc_fail(w, rc, "chunking");
        if (storage != NC_CHUNKED) {
            int nd, dims[NC_MAX_VAR_DIMS], d;
            size_t chunk[NC_MAX_VAR_DIMS];
            if ((rc = nc_inq_varndims(w->ncid, v, &nd)) ||
                (rc = nc_inq_vardimid(w->ncid, v, dims)))
                return nc_fail(w, rc, "dimensions");
            if (nd == 0) /* a scalar has no chunks, hence no checksum */
                continue;
            for (d = 0; d < nd; d++)
                if ((rc = nc_inq_dimlen(w->ncid, dims[d], &chunk[d])))
                    return nc_fail(w, rc, "dimensions");
                else if (chunk[d] == 0)
                    chunk[d] = 1;
            if ((rc = nc_def_var_chunking(w->ncid, v, NC_CHUNKED, chunk)))
                return nc_fail(w, rc, "chunking");
        }
        if ((rc = nc_def_var_fletcher32(w->ncid, v, NC_FLETCHER32)))
            return nc_fail(w, rc, "checksum");
    }
    return PS_OK;
}

/* The attributes of field @p i's source variable (NULL: the first field of a
 * writer without a source). */
static const ps_attr_list *field_attrs(const ps_writer *w, int i)
{
    if (i > 0)
        return &w->fld[i].attrs;
    return w->have_src ? &w->src.var_attrs : NULL;
}

/* Field variable @p i over @p dims: chunks of one horizontal slab, deflate,
 * the fill (the source's float fill, else 1e20), the source's attributes
 * less those that no longer hold, its identity (CF 3.2, 3.3). */
static int define_field(ps_writer *w, int i, const int *dims, const size_t *chunk, nc_type vt)
{
    field_var *fv = &w->fld[i];
    const ps_attr_list *l = field_attrs(w, i);
    const ps_attr *fa = l ? ps_attr_find(l, "_FillValue") : NULL;
    int rc, st;
    if ((rc = nc_def_var(w->ncid, fv->name, vt, 4, dims, &fv->varid)))
        return nc_fail(w, rc, fv->name);
    if ((rc = nc_def_var_chunking(w->ncid, fv->varid, NC_CHUNKED, chunk)))
        return nc_fail(w, rc, "chunking");
    if (w->compress > 0 &&
        (rc = nc_def_var_deflate(w->ncid, fv->varid, 1, 1, w->compress)))
        return nc_fail(w, rc, "deflate");
    /* fill: the input's float fill value if it had one (and the output's type
     * holds it), else 1e20 */
    fv->fill = 1e20;
    if (fa && fa->values && fa->len == 1 &&
        (fv->src_type == NC_FLOAT || fv->src_type == NC_DOUBLE) &&
        !(vt == NC_FLOAT && isfinite(fa->values[0]) && fabs(fa->values[0]) > 3.4e38))
        fv->fill = fa->values[0];
    if (vt == NC_FLOAT) {
        float f = (float)fv->fill;
        if ((rc = nc_def_var_fill(w->ncid, fv->varid, 0, &f)))
            return nc_fail(w, rc, "_FillValue");
    } else {
        if ((rc = nc_def_var_fill(w->ncid, fv->varid, 0, &fv->fill)))
            return nc_fail(w, rc, "_FillValue");
    }
    if (l && ((st = copy_attrs(w, fv->varid, l, 1, 0)) ||
              (st = put_units(w, fv->varid, ps_attr_find(l, "units")))))
        return st;
    if ((st = put_coordinates(w, fv->varid)))
        return st;
    /* the variable's identity is the source's (standard_name only where it
     * gives one, CF 3.3); with no source the field is the model's potential
     * temperature; a source with neither long_name nor standard_name gets its
     * variable's name as long_name (CF 3.2) */
    if (!l) {
        if ((st = put_text(w, fv->varid, "units", "degrees_C")) ||
            (st = put_text(w, fv->varid, "long_name", "Sea water potential temperature")) ||
            (st = put_text(w, fv->varid, "standard_name", "sea_water_potential_temperature")))
            return st;
    } else if (!ps_attr_find(l, "long_name") && !ps_attr_find(l, "standard_name") &&
               (st = put_text(w, fv->varid, "long_name", fv->name))) {
        return st;
    }
    return PS_OK;
}

static int define(ps_writer *w, const ps_grid *g)
{
    int rc, st, dims[4], cv[4], a;
    size_t lens[4] = {NC_UNLIMITED, g->nz, g->ny, g->nx};
    size_t chunk[4] = {1, 1, g->ny, g->nx};
    const char *vname = w->fld[0].name;
    nc_type vt = w->precision == PS_FLOAT64 ? NC_DOUBLE : NC_FLOAT;

    w->grid = *g;
    for (a = 0; a < 4; a++) {
        const char *dn = gen_dim_names[a];
        if (a > 0 && w->have_src && w->src.axes[a].present && w->src.axes[a].dim_name[0] &&
            w->src.axes[a].len == lens[a])
            dn = w->src.axes[a].dim_name;
        if ((rc = nc_def_dim(w->ncid, dn, lens[a], &dims[a])))
            return nc_fail(w, rc, dn);
    }
    /* time: the source's, advanced by step * dt; step: the model step count */
    if ((rc = nc_def_var(w->ncid, "time", NC_DOUBLE, 1, &dims[0], &w->time_id)))
        return nc_fail(w, rc, "time");
    if (w->keep_time && w->have_src && w->src.axes[0].present) {
        if ((st = copy_attrs(w, w->time_id, &w->src.axes[0].attrs, 2, NC_DOUBLE)))
            return st;
    } else if (!w->own_time_units) {
        const ps_attr_list *ta = &w->src.axes[0].attrs;
        if ((st = copy_attrs(w, w->time_id, ta, 3, NC_DOUBLE)))
            return st;
        if (!ps_attr_find(ta, "standard_name") &&
            (st = put_text(w, w->time_id, "standard_name", "time")))
            return st;
        if (!ps_attr_find(ta, "axis") && (st = put_text(w, w->time_id, "axis", "T")))
            return st;
    } else if ((st = put_text(w, w->time_id, "standard_name", "time")) ||
               (st = put_text(w, w->time_id, "long_name", "time")) ||
               (st = put_text(w, w->time_id, "units", "seconds since 1970-01-01 00:00:00")) ||
               (st = put_text(w, w->time_id, "calendar", "standard")) ||
               (st = put_text(w, w->time_id, "axis", "T")) ||
               (st = put_text(w, w->time_id, "comment",
                              "the input has no time axis with units '<unit> since <date>': "
                              "the origin is arbitrary and the values are the model time "
                              "elapsed since the input state")))
        return st;
    w->step_id = -1;
    if (!w->keep_time) {
        double dt = w->dt;
        if ((rc = nc_def_var(w->ncid, "step", NC_DOUBLE, 1, &dims[0], &w->step_id)))
            return nc_fail(w, rc, "step");
        if ((st = put_text(w, w->step_id, "long_name", "model step count")) ||
            (st = put_text(w, w->step_id, "units", "1")) ||
            (st = put_text(w, w->step_id, "comment",
                           w->dt_default
                               ? "steps taken since the initial state; no time step was "
                                 "given, so each step advances time by one second (the "
                                 "model is dimensionless: its steps have no duration)"
                               : "steps taken since the initial state; each advances time "
                                 "by seconds_per_step")))
            return st;
        if ((rc = nc_put_att_double(w->ncid, w->step_id, "seconds_per_step", NC_DOUBLE, 1, &dt)))
            return nc_fail(w, rc, "seconds_per_step");
        {
            /* the time of step 0 (a continued run's source time less its steps) */
            double o = w->chained ? w->t0 : w->t0 - w->step0 * w->dt / w->unit_s;
            if ((rc = nc_put_att_double(w->ncid, w->step_id, "time_at_step_0", NC_DOUBLE, 1,
                                        &o)) ||
                (rc = nc_put_att_double(w->ncid, NC_GLOBAL, "pstencil_time_at_step_0",
                                        NC_DOUBLE, 1, &o)))
                return nc_fail(w, rc, "time_at_step_0");
            /* what step_from_time() needs when a tool drops `step` */
            if ((st = put_text(w, NC_GLOBAL, "pstencil_time_units",
                               w->own_time_units ? "seconds since 1970-01-01 00:00:00"
                               : ps_attr_find(&w->src.axes[0].attrs, "units")->text)))
                return st;
        }
    }
    for (a = 1; a < 4; a++) {
        cv[a] = -1;
        /* a dimension the source has no coordinate variable for but an
         * auxiliary coordinate carried over (NEMO's x and y, located by the
         * 2-D nav_lat/nav_lon) gets none */
        if (w->have_src && w->src.axes[a].present && !w->src.axes[a].var_name[0] &&
            w->src.axes[a].len == lens[a] && carried_uses_dim(w, w->src.axes[a].dim_name))
            continue;
        if ((st = define_coord(w, a, dims[a], lens[a], &cv[a])))
            return st;
    }
    if ((st = define_carried(w, cv)))
        return st;

    for (a = 0; a < w->nfld; a++)
        if ((st = define_field(w, a, dims, chunk, vt)))
            return st;
    for (a = 0; a < w->ncomp; a++) {
        companion_var *cp = &w->comp[a];
        float f = (float)w->fld[0].fill;
        if (cp->n != g->nz * g->ny * g->nx)
            return ps_error(PS_EINVAL, "writing %s: variable %s has %zu values, the grid %zu",
                            w->path, cp->name, cp->n, g->nz * g->ny * g->nx);
        if ((rc = nc_def_var(w->ncid, cp->name, NC_FLOAT, 4, dims, &cp->varid)))
            return nc_fail(w, rc, cp->name);
        if ((rc = nc_def_var_chunking(w->ncid, cp->varid, NC_CHUNKED, chunk)))
            return nc_fail(w, rc, "chunking");
        if (w->compress > 0 &&
            (rc = nc_def_var_deflate(w->ncid, cp->varid, 1, 1, w->compress)))
            return nc_fail(w, rc, "deflate");
        if ((rc = nc_def_var_fill(w->ncid, cp->varid, 0, &f)))
            return nc_fail(w, rc, "_FillValue");
        if ((st = put_text(w, cp->varid, "standard_name", cp->standard_name)) ||
            (st = put_text(w, cp->varid, "long_name", cp->long_name)) ||
            (st = put_text(w, cp->varid, "units", cp->units)))
            return st;
    }
    for (a = 0; w->reduce && a < w->nfld; a++)
        if ((st = ps_nc_reduce_define(w->path, w->ncid, dims[0], w->fld[a].varid,
                                      w->fld[a].name, w->reduce_metric, w->reduce_why,
                                      w->fld[a].reduce_ids)))
            return st;
    /* global attributes */
    if (w->have_src && (st = copy_attrs(w, NC_GLOBAL, &w->src.global_attrs, 0, 0)))
        return st;
    if ((st = put_text(w, NC_GLOBAL, "Conventions", "CF-1.8")) ||
        (st = put_text(w, NC_GLOBAL, "source", w->source)) ||
        (st = put_text(w, NC_GLOBAL, "history", w->history)))
        return st;
    if (w->have_src && w->src.path[0] && (st = put_text(w, NC_GLOBAL, "pstencil_input", w->src.path)))
        return st;
    if (!ps_attr_find(w->have_src ? &w->src.global_attrs : NULL, "title")) {
        /* CF 2.6.2: a title, when the source has none */
        char title[sizeof w->src.path + NC_MAX_NAME + 64];
        const char *base = w->have_src && w->src.path[0] ? strrchr(w->src.path, '/') : NULL;
        base = base ? base + 1 : w->have_src ? w->src.path : "";
        if (*base)
            snprintf(title, sizeof title, "%s from %s, advanced by pstencil", vname, base);
        else
            snprintf(title, sizeof title, "%s computed by pstencil", vname);
        if ((st = put_text(w, NC_GLOBAL, "title", title)))
            return st;
    }
    if ((st = copy_attrs(w, NC_GLOBAL, &w->extra, 5, 0)))
        return st;
    if ((st = add_checksums(w)))
        return st;
    if ((rc = nc_enddef(w->ncid)))
        return nc_fail(w, rc, "header");
    /* one process writes every chunk (one level) whole, once: no chunk cache
     * (netCDF's default holds up to 64 MiB until the file is closed; set after
     * the header, as each filter's definition sizes it again) */
    for (a = 0; !w->parallel && a < w->nfld; a++)
        if ((rc = nc_set_var_chunk_cache(w->ncid, w->fld[a].varid, 0, 1, 0.75f)))
            return nc_fail(w, rc, "chunk cache");
    if (w->parallel && w->par.defined && (st = w->par.defined(w->par.user, w->ncid)))
        return st;
    for (a = 1; a < 4; a++)
        if (cv[a] >= 0 && (st = write_coord(w, a, cv[a], lens[a])))
            return st;
    for (a = 0; a < w->ncarried; a++)
        if (w->carried[a].varid >= 0 &&
            (rc = nc_put_var_double(w->ncid, w->carried[a].varid, w->carried[a].values)))
            return nc_fail(w, rc, w->carried[a].name);
    /* a slab of one level, or this process's whole part when several write */
    w->slab = w->parallel ? NULL
                          : malloc(g->ny * g->nx * (vt == NC_DOUBLE ? sizeof(double)
                                                                    : sizeof(float)));
    if (w->parallel) {
        size_t cells = w->part.nz * w->part.ny * w->part.nx;
        w->slab = malloc((cells ? cells : 1) * (vt == NC_DOUBLE ? sizeof(double)
                                                                : sizeof(float)));
    }
    if (!w->slab)
        return ps_error(PS_ENOMEM, "out of memory");
    w->defined = 1;
    return PS_OK;
}

/* ------------------------------------------------------------------ append */

/* This process's part of record nrec of field @p i, in one call that every
 * process makes (collective access), land (NaN) written as the fill. */
static int append_part(ps_writer *w, int i, const ps_field *field)
{
    size_t n = field->grid.nz * field->grid.ny * field->grid.nx, c;
    size_t start[4] = {w->nrec, w->par.start[0], w->par.start[1], w->par.start[2]};
    size_t count[4] = {1, field->grid.nz, field->grid.ny, field->grid.nx};
    const field_var *fv = &w->fld[i];
    int rc;
    if (w->precision == PS_FLOAT64) {
        double *o = w->slab;
        for (c = 0; c < n; c++) {
            double v = field->precision == PS_FLOAT64 ? ((const double *)field->data)[c]
                                                      : (double)((const float *)field->data)[c];
            o[c] = isnan(v) ? fv->fill : v;
        }
        rc = nc_put_vara_double(w->ncid, fv->varid, start, count, o);
    } else {
        float *o = w->slab, fill = (float)fv->fill;
        for (c = 0; c < n; c++) {
            float v = field->precision == PS_FLOAT32 ? ((const float *)field->data)[c]
                                                     : (float)((const double *)field->data)[c];
            o[c] = isnan(v) ? fill : v;
        }
        rc = nc_put_vara_float(w->ncid, fv->varid, start, count, o);
    }
    return rc ? nc_fail(w, rc, fv->name) : PS_OK;
}

/* Level @p k of record nrec of field @p i (one process writes the whole grid). */
static int append_level(ps_writer *w, int i, const ps_field *field, size_t k)
{
    size_t plane = w->grid.ny * w->grid.nx, c;
    size_t start[4] = {w->nrec, k, 0, 0}, count[4] = {1, 1, w->grid.ny, w->grid.nx};
    const field_var *fv = &w->fld[i];
    int rc;
    if (w->precision == PS_FLOAT64) {
        double *o = w->slab;
        for (c = 0; c < plane; c++) {
            double v = field->precision == PS_FLOAT64
                           ? ((const double *)field->data)[k * plane + c]
                           : (double)((const float *)field->data)[k * plane + c];
            o[c] = isnan(v) ? fv->fill : v;
        }
        rc = nc_put_vara_double(w->ncid, fv->varid, start, count, o);
    } else {
        float *o = w->slab, fill = (float)fv->fill;
        for (c = 0; c < plane; c++) {
            float v = field->precision == PS_FLOAT32
                          ? ((const float *)field->data)[k * plane + c]
                          : (float)((const double *)field->data)[k * plane + c];
            o[c] = isnan(v) ? fill : v;
        }
        rc = nc_put_vara_float(w->ncid, fv->varid, start, count, o);
    }
    return rc ? nc_fail(w, rc, fv->name) : PS_OK;
}

/* The names of the writer's fields, for messages ("thetao, so"). */
static const char *field_list(const ps_writer *w, char *buf, size_t len)
{
    size_t n = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < w->nfld && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", w->fld[i].name);
    return buf;
}

static int same_grid(const ps_grid *a, const ps_grid *b)
{
    return a->nz == b->nz && a->ny == b->ny && a->nx == b->nx;
}

int ps_writer_append_fields(ps_writer *w, long step, const ps_field *const *fields, int n)
{
    size_t k, c, plane, start[4], count[4];
    int rc, st, i;
    double st_step = (double)step;
    char names[PS_WRITER_MAX_FIELDS * (NC_MAX_NAME + 2)];
    if (!w || w->ncid < 0 || w->committed)
        return ps_error(PS_EINVAL, "writer is not open");
    if (n != w->nfld)
        return ps_error(PS_EINVAL, "writing %s: %d field%s given for a record of %d field "
                        "variable%s (%s)", w->path, n, n == 1 ? "" : "s", w->nfld,
                        w->nfld == 1 ? "" : "s", field_list(w, names, sizeof names));
    for (i = 0; i < n; i++)
        if (!fields || !fields[i] || !fields[i]->data)
            return ps_error(PS_EINVAL, "no field to write%s%s", n > 1 ? " as " : "",
                            n > 1 ? w->fld[i].name : "");
    if (w->reduce && w->red_missing)
        return ps_error(PS_EINVAL, "writing %s: no reductions given for record %zu",
                        w->path, w->nrec - 1);
    /* every field of a record on the grid of the first */
    for (i = 1; i < n; i++)
        if (!same_grid(&fields[i]->grid, &fields[0]->grid))
            return ps_error(PS_EINVAL, "writing %s: field %s has grid %zux%zux%zu, field %s "
                            "%zux%zux%zu", w->path, w->fld[i].name, fields[i]->grid.nz,
                            fields[i]->grid.ny, fields[i]->grid.nx, w->fld[0].name,
                            fields[0]->grid.nz, fields[0]->grid.ny, fields[0]->grid.nx);
    if (!w->defined) {
        const ps_grid *fg = w->parallel ? &w->par.global : &fields[0]->grid;
        /* an added field's source: the grid of the file */
        for (i = 1; i < n; i++)
            if (!same_grid(&w->fld[i].grid, fg))
                return ps_error(PS_EINVAL, "writing %s: field %s was added with grid "
                                "%zux%zux%zu, the file's is %zux%zux%zu", w->path,
                                w->fld[i].name, w->fld[i].grid.nz, w->fld[i].grid.ny,
                                w->fld[i].grid.nx, fg->nz, fg->ny, fg->nx);
        if (w->have_src && w->src.grid.nz && !same_grid(&w->src.grid, fg)) {
            /* coordinates do not fit: write index coordinates instead */
            int a;
            for (a = 1; a < 4; a++)
                w->src.axes[a].present = 0;
            carried_free(w);
        }
        if (w->parallel)
            w->part = fields[0]->grid;
        if ((st = define(w, fg)))
            return st;
    }
    if (w->parallel) {
        if (!same_grid(&fields[0]->grid, &w->part))
            return ps_error(PS_EINVAL, "writing %s: this process's part changed size",
                            w->path);
        for (i = 0; i < n; i++)
            if ((st = append_part(w, i, fields[i])))
                return st;
        goto record;
    }
    if (!same_grid(&fields[0]->grid, &w->grid))
        return ps_error(PS_EINVAL, "writing %s: field grid %zux%zux%zu differs from the file's "
                                   "%zux%zux%zu",
                        w->path, fields[0]->grid.nz, fields[0]->grid.ny, fields[0]->grid.nx,
                        w->grid.nz, w->grid.ny, w->grid.nx);
    plane = w->grid.ny * w->grid.nx;
    for (k = 0; k < w->grid.nz; k++) {
        start[0] = w->nrec, start[1] = k, start[2] = 0, start[3] = 0;
        count[0] = 1, count[1] = 1, count[2] = w->grid.ny, count[3] = w->grid.nx;
        for (i = 0; i < n; i++)
            if ((st = append_level(w, i, fields[i], k)))
                return st;
        for (c = 0; c < (size_t)w->ncomp; c++) {
            const float *v = w->comp[c].values + k * plane;
            float *o = w->slab, fill = (float)w->fld[0].fill;
            size_t q;
            /* the slab holds a level of either precision: floats fit */
            for (q = 0; q < plane; q++)
                o[q] = isnan(v[q]) ? fill : v[q];
            if ((rc = nc_put_vara_float(w->ncid, w->comp[c].varid, start, count, o)))
                return nc_fail(w, rc, w->comp[c].name);
        }
    }
record:
    /* the time and step of the record, once, after all of its fields */
    start[0] = w->nrec;
    count[0] = 1;
    if (w->keep_time && w->have_src && w->src.axes[0].present && step >= 0 &&
        (size_t)step < w->src.axes[0].len && w->src.axes[0].values)
        st_step = w->src.axes[0].values[step];
    else if (!w->keep_time)
        st_step = time_of(w, step);
    /* a last guard: the time axis strictly increases, record after record */
    if (!isfinite(st_step) || (w->nrec > 0 && !(st_step > w->last_time)))
        return ps_error(PS_ERANGE, "writing %s: the time of record %zu (step %ld) is %.17g, "
                        "not after the record before (%.17g): the time axis would not "
                        "increase", w->path, w->nrec, step, st_step, w->last_time);
    w->last_time = st_step;
    if ((rc = nc_put_vara_double(w->ncid, w->time_id, start, count, &st_step)))
        return nc_fail(w, rc, "time");
    if (w->step_id >= 0) {
        double sv = w->step0 + (double)step;
        if ((rc = nc_put_vara_double(w->ncid, w->step_id, start, count, &sv)))
            return nc_fail(w, rc, "step");
    }
    w->red_missing = w->reduce;
    w->nrec++;
    return PS_OK;
}

int ps_writer_append(ps_writer *w, long step, const ps_field *field)
{
    const ps_field *one[1];
    one[0] = field;
    return ps_writer_append_fields(w, step, one, 1);
}

int ps_writer_fields(const ps_writer *w)
{
    return w ? w->nfld : 0;
}

/* ------------------------------------------------------------ commit/abort */

static int ps_close_failed; /* a close failed: HDF5's exit handler would crash */

int ps_writer_close_failed(void)
{
    return ps_close_failed;
}

int ps_writer_commit(ps_writer *w)
{
    int rc, st;
    mode_t um;
    if (!w || w->ncid < 0 || w->committed)
        return ps_error(PS_EINVAL, "writer is not open");
    if (!w->defined)
        return ps_error(PS_EINVAL, "writing %s: no snapshot was appended", w->path);
    if (w->red_missing)
        return ps_error(PS_EINVAL, "writing %s: no reductions given for record %zu", w->path,
                        w->nrec - 1);
    rc = nc_close(w->ncid);
    if (rc && w->parallel && w->par.agree)
        w->par.agree(w->par.user, PS_EIO); /* the others wait for this process's word */
    if (rc) {
        /* a failed close (a full disk) leaves the file open in HDF5: abort it so that
         * nothing is flushed at exit, and keep tmp for ps_writer_abort() to remove */
        nc_abort(w->ncid);
        w->ncid = -1;
        ps_close_failed = 1;
        return ps_error(PS_EIO, "writing %s: %s", w->path, nc_strerror(rc));
    }
    w->ncid = -1;
    if (w->parallel) {
        /* every process closed its share of the file: publish only if all did */
        st = w->par.agree ? w->par.agree(w->par.user, PS_OK) : PS_OK;
        if (st)
            return ps_error(PS_EIO, "writing %s: another process failed to close it", w->path);
        if (!w->par.publisher) {
            w->tmp[0] = '\0';
            w->committed = 1;
            return PS_OK;
        }
    }
    um = umask(0);
    umask(um);
    chmod(w->tmp, 0666 & ~um);
    /* no-clobber publication: link() without --force, rename() only with it; the
     * temporary file is removed whatever happens */
    st = ps_outfile_publish_path(w->tmp, w->path, w->force);
    w->tmp[0] = '\0';
    ps_tempfile_unregister(w->tmp_slot);
    w->tmp_slot = -1;
    if (st)
        return st;
    w->committed = 1;
    return PS_OK;
}

const char *ps_writer_temp_path(const ps_writer *w)
{
    return w ? w->tmp : "";
}

void ps_writer_abort(ps_writer *w)
{
    int a;
    if (!w)
        return;
    if (w->ncid >= 0 && nc_close(w->ncid) != NC_NOERR) {
        nc_abort(w->ncid);
        ps_close_failed = 1;
    }
    if (w->tmp[0] && !(w->parallel && !w->par.publisher)) /* the publisher's to remove */
        unlink(w->tmp);
    ps_tempfile_unregister(w->tmp_slot);
    free(w->history);
    free(w->source);
    free(w->slab);
    for (a = 0; a < 4; a++) {
        free(w->src.axes[a].values);
        ps_attr_list_free(&w->src.axes[a].attrs);
    }
    ps_attr_list_free(&w->src.var_attrs);
    ps_attr_list_free(&w->src.global_attrs);
    ps_attr_list_free(&w->extra);
    carried_free(w);
    for (a = 1; a < w->nfld; a++)
        ps_attr_list_free(&w->fld[a].attrs);
    for (a = 0; a < w->ncomp; a++) {
        free(w->comp[a].standard_name);
        free(w->comp[a].long_name);
        free(w->comp[a].units);
        free(w->comp[a].values);
    }
    free(w);
}

int ps_writer_mark_interrupted(ps_writer *w, const char *why)
{
    int rc;
    if (!w || w->ncid < 0 || w->committed || !w->defined || !w->nrec)
        return ps_error(PS_EINVAL, "no record to keep");
    if (!why)
        why = "stopped before its last step";
    /* the classic model needs define mode for a new attribute; with the parallel
     * writer every process does this with the same text (collective) */
    rc = nc_redef(w->ncid);
    if (!rc || rc == NC_EINDEFINE)
        rc = nc_put_att_text(w->ncid, NC_GLOBAL, "pstencil_interrupted", strlen(why), why);
    if (!rc)
        rc = nc_enddef(w->ncid);
    if (rc)
        return ps_error(PS_EIO, "writing %s: %s", w->path, nc_strerror(rc));
    return PS_OK;
}

size_t ps_writer_records(const ps_writer *w)
{
    return w ? w->nrec : 0;
}

int ps_writer_put_global(ps_writer *w, const char *name, const char *text, double value)
{
    if (!w || !name || !*name)
        return ps_error(PS_EINVAL, "no writer or attribute name");
    if (w->defined || w->committed)
        return ps_error(PS_EINVAL, "writing %s: attribute %s given after the first snapshot",
                        w->path, name);
    if (text)
        return ps_attr_set_text(&w->extra, name, text);
    return ps_attr_set_values(&w->extra, name, NC_DOUBLE, &value, 1);
}

static const char *const reduce_suffix[5] = {"content", "volume", "mean", "min", "max"};

/* What in the output already uses variable name @p name, into @p what (""
 * when nothing does): a field variable, time, step, a dimension or
 * coordinate, a bounds or auxiliary coordinate carried over, an added
 * variable, or (with @p reductions, when they are written) a field's
 * reduction. */
static int name_used(const ps_writer *w, const char *name, int reductions, char *what,
                     size_t len)
{
    int i, a;
    what[0] = '\0';
    for (i = 0; i < w->nfld; i++)
        if (!strcmp(name, w->fld[i].name)) {
            snprintf(what, len, "field variable %s", name);
            return 1;
        }
    if (!strcmp(name, "time") || (!w->keep_time && !strcmp(name, "step"))) {
        snprintf(what, len, "the %s variable", name);
        return 1;
    }
    for (a = 1; a < 4; a++) {
        const ps_axis *ax = w->have_src && w->src.axes[a].present ? &w->src.axes[a] : NULL;
        const char *dn = ax && ax->dim_name[0] ? ax->dim_name : gen_dim_names[a];
        if (!strcmp(name, dn) || (ax && ax->var_name[0] && !strcmp(name, ax->var_name))) {
            snprintf(what, len, "the %s coordinate", gen_dim_names[a]);
            return 1;
        }
    }
    for (i = 0; i < w->ncarried; i++)
        if (!strcmp(name, w->carried[i].name)) {
            snprintf(what, len, "%s %s carried over from the input",
                     w->carried[i].role_bounds ? "the bounds variable" : "the coordinate",
                     name);
            return 1;
        }
    for (i = 0; i < w->ncomp; i++)
        if (!strcmp(name, w->comp[i].name)) {
            snprintf(what, len, "the added variable %s", name);
            return 1;
        }
    for (i = 0; reductions && w->reduce && i < w->nfld; i++)
        for (a = 0; a < 5; a++) {
            char rn[2 * NC_MAX_NAME + 8];
            snprintf(rn, sizeof rn, "%s_%s", w->fld[i].name, reduce_suffix[a]);
            if (!strcmp(name, rn)) {
                snprintf(what, len, "the reduction %s of field %s", rn, w->fld[i].name);
                return 1;
            }
        }
    return 0;
}

/* PS_EINVAL when a reduction variable of field @p name would take a name in use. */
static int check_reduction_names(const ps_writer *w, const char *name)
{
    char rn[2 * NC_MAX_NAME + 8], what[2 * NC_MAX_NAME + 64];
    int a;
    for (a = 0; a < 5; a++) {
        snprintf(rn, sizeof rn, "%s_%s", name, reduce_suffix[a]);
        if (name_used(w, rn, 0, what, sizeof what))
            return ps_error(PS_EINVAL, "writing %s: the reduction %s of field %s would have "
                            "the name of %s", w->path, rn, name, what);
    }
    return PS_OK;
}

int ps_writer_add_field(ps_writer *w, const ps_dataset *src)
{
    field_var *fv;
    char what[2 * NC_MAX_NAME + 64];
    int st;
    if (!w || !src)
        return ps_error(PS_EINVAL, "no writer or no source for the field");
    if (w->ncid < 0 || w->defined || w->committed)
        return ps_error(PS_EINVAL, "writing %s: field %s must be added before the first record",
                        w->path, src->var_name);
    if (!src->var_name[0] || strlen(src->var_name) > NC_MAX_NAME)
        return ps_error(PS_EINVAL, "writing %s: the field to add has no usable variable name",
                        w->path);
    if (w->nfld >= PS_WRITER_MAX_FIELDS)
        return ps_error(PS_EINVAL, "writing %s: field %s would be field %d, more than the %d "
                        "an output holds", w->path, src->var_name, w->nfld + 1,
                        PS_WRITER_MAX_FIELDS);
    if (w->have_src && w->src.grid.nz && !same_grid(&src->grid, &w->src.grid))
        return ps_error(PS_EINVAL, "writing %s: field %s has grid %zux%zux%zu, the output's "
                        "is %zux%zux%zu (%s)", w->path, src->var_name, src->grid.nz,
                        src->grid.ny, src->grid.nx, w->src.grid.nz, w->src.grid.ny,
                        w->src.grid.nx, w->fld[0].name);
    if (name_used(w, src->var_name, 1, what, sizeof what))
        return ps_error(PS_EINVAL, "writing %s: cannot add field %s: the output already has "
                        "%s", w->path, src->var_name, what);
    if (w->reduce && (st = check_reduction_names(w, src->var_name)))
        return st;
    fv = &w->fld[w->nfld];
    memset(fv, 0, sizeof *fv);
    snprintf(fv->name, sizeof fv->name, "%s", src->var_name);
    fv->src_type = src->var_nc_type;
    fv->grid = src->grid;
    w->nfld++; /* its attributes are freed by ps_writer_abort() whatever fails */
    if ((st = ps_attr_list_copy(&fv->attrs, &src->var_attrs))) {
        w->nfld--;
        ps_attr_list_free(&fv->attrs);
        return st;
    }
    return PS_OK;
}

int ps_writer_reductions(ps_writer *w, int metric, const char *why)
{
    int i, st;
    if (!w)
        return ps_error(PS_EINVAL, "no writer");
    if (w->defined || w->committed)
        return ps_error(PS_EINVAL, "writing %s: reductions asked for after the first snapshot",
                        w->path);
    for (i = 0; i < w->nfld; i++)
        if ((st = check_reduction_names(w, w->fld[i].name)))
            return st;
    w->reduce = 1;
    w->reduce_metric = metric != 0;
    snprintf(w->reduce_why, sizeof w->reduce_why, "%s", why ? why : "");
    return PS_OK;
}

int ps_writer_set_reductions(ps_writer *w, const ps_reduction *r, int n)
{
    int st, i;
    char names[PS_WRITER_MAX_FIELDS * (NC_MAX_NAME + 2)];
    if (!w || !r || w->ncid < 0 || w->committed)
        return ps_error(PS_EINVAL, "no open writer or no reductions");
    if (!w->reduce)
        return ps_error(PS_EINVAL, "writing %s: reductions given, not asked for", w->path);
    if (n != w->nfld)
        return ps_error(PS_EINVAL, "writing %s: reductions of %d field%s given for %d field "
                        "variable%s (%s)", w->path, n, n == 1 ? "" : "s", w->nfld,
                        w->nfld == 1 ? "" : "s", field_list(w, names, sizeof names));
    if (!w->red_missing)
        return ps_error(PS_EINVAL, "writing %s: reductions given with no record awaiting them",
                        w->path);
    for (i = 0; i < n; i++)
        if ((st = ps_nc_reduce_put(w->path, w->ncid, w->fld[i].reduce_ids, w->nrec - 1, &r[i])))
            return st;
    w->red_missing = 0;
    return PS_OK;
}

int ps_writer_set_reduction(ps_writer *w, const ps_reduction *r)
{
    return ps_writer_set_reductions(w, r, 1);
}

int ps_writer_add_variable(ps_writer *w, const char *name, const char *standard_name,
                           const char *long_name, const char *units, const double *values,
                           size_t n)
{
    companion_var *cp;
    size_t c;
    if (!w || !name || !standard_name || !long_name || !units || !values)
        return ps_error(PS_EINVAL, "no writer, name, attributes or values");
    if (w->defined || w->parallel)
        return ps_error(PS_EINVAL, "writing %s: variable %s must be added before the first "
                        "record, by a writer of one process", w->path, name);
    if (w->ncomp >= MAX_COMPANIONS)
        return ps_error(PS_EINVAL, "writing %s: more than %d added variables", w->path,
                        MAX_COMPANIONS);
    {
        char what[2 * NC_MAX_NAME + 64];
        if (name_used(w, name, 1, what, sizeof what))
            return ps_error(PS_EINVAL, "writing %s: cannot add variable %s: the output "
                            "already has %s", w->path, name, what);
    }
    cp = &w->comp[w->ncomp];
    memset(cp, 0, sizeof *cp);
    snprintf(cp->name, sizeof cp->name, "%s", name);
    cp->n = n;
    cp->standard_name = xstrdup(standard_name);
    cp->long_name = xstrdup(long_name);
    cp->units = xstrdup(units);
    cp->values = malloc((n ? n : 1) * sizeof *cp->values);
    w->ncomp++; /* freed by ps_writer_abort() whatever failed */
    if (!cp->standard_name || !cp->long_name || !cp->units || !cp->values)
        return ps_error(PS_ENOMEM, "out of memory");
    for (c = 0; c < n; c++)
        cp->values[c] = (float)values[c];
    return PS_OK;
}
