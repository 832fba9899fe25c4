/* NetCDF reading: CF/COARDS variable and axis discovery, missing data,
 * unpacking, dimension permutation (docs/file-conventions.md). */
#include "config.h"
#include "ps_io.h"
#include "ps_nc_header.h"
#include "ps_nc_internal.h"
#include "ps_units.h"
#include "ps_file.h"
#include "ps_mem.h"
#include "ps_status.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <netcdf.h>
#include <netcdf_filter.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- attributes */

const ps_attr *ps_attr_find(const ps_attr_list *l, const char *name)
{
    int i;
    for (i = 0; l && i < l->count; i++)
        if (!strcmp(l->attrs[i].name, name))
            return &l->attrs[i];
    return NULL;
}

void ps_attr_list_free(ps_attr_list *l)
{
    int i;
    if (!l)
        return;
    for (i = 0; i < l->count; i++) {
        free(l->attrs[i].text);
        free(l->attrs[i].values);
    }
    free(l->attrs);
    l->attrs = NULL;
    l->count = 0;
}

/* The attribute called @p name in @p l, appended (empty) if absent; NULL if out of memory. */
static ps_attr *attr_slot(ps_attr_list *l, const char *name)
{
    ps_attr *a = (ps_attr *)ps_attr_find(l, name), *grown;
    if (a)
        return a;
    grown = realloc(l->attrs, (size_t)(l->count + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    l->attrs = grown;
    a = &l->attrs[l->count++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    return a;
}

int ps_attr_set_text(ps_attr_list *l, const char *name, const char *text)
{
    char *t = strdup(text ? text : "");
    ps_attr *a = t ? attr_slot(l, name) : NULL;
    if (!a) {
        free(t);
        return ps_error(PS_ENOMEM, "out of memory");
    }
    free(a->text);
    free(a->values);
    a->values = NULL;
    a->text = t;
    a->nc_type = NC_CHAR;
    a->len = strlen(t);
    return PS_OK;
}

int ps_attr_set_values(ps_attr_list *l, const char *name, int nc_type, const double *v, size_t n)
{
    double *vals = malloc((n ? n : 1) * sizeof *vals);
    ps_attr *a = vals ? attr_slot(l, name) : NULL;
    if (!a) {
        free(vals);
        return ps_error(PS_ENOMEM, "out of memory");
    }
    memcpy(vals, v, n * sizeof *vals);
    free(a->text);
    free(a->values);
    a->text = NULL;
    a->values = vals;
    a->nc_type = nc_type;
    a->len = n;
    return PS_OK;
}

int ps_attr_list_copy(ps_attr_list *dst, const ps_attr_list *src)
{
    int i, st;
    memset(dst, 0, sizeof *dst);
    for (i = 0; src && i < src->count; i++) {
        const ps_attr *a = &src->attrs[i];
        if (a->text)
            st = ps_attr_set_text(dst, a->name, a->text);
        else
            st = ps_attr_set_values(dst, a->name, a->nc_type, a->values, a->len);
        if (st) {
            ps_attr_list_free(dst);
            return st;
        }
        dst->attrs[dst->count - 1].nc_type = a->nc_type;
    }
    return PS_OK;
}

/* Read every attribute of varid (NC_GLOBAL for globals). */
static int load_attrs(int ncid, int varid, ps_attr_list *l, const char *path)
{
    int natts = 0, i, rc;
    memset(l, 0, sizeof *l);
    if (varid == NC_GLOBAL)
        rc = nc_inq_natts(ncid, &natts);
    else
        rc = nc_inq_varnatts(ncid, varid, &natts);
    if (rc)
        return ps_error(PS_ENETCDF, "%s: reading attributes: %s", path, nc_strerror(rc));
    if (natts == 0)
        return PS_OK;
    l->attrs = calloc((size_t)natts, sizeof *l->attrs);
    if (!l->attrs)
        return ps_error(PS_ENOMEM, "out of memory");
    for (i = 0; i < natts; i++) {
        ps_attr *a = &l->attrs[i];
        nc_type t;
        size_t len;
        if ((rc = nc_inq_attname(ncid, varid, i, a->name)) ||
            (rc = nc_inq_att(ncid, varid, a->name, &t, &len)))
            goto nc_fail;
        l->count = i + 1;
        a->nc_type = t;
        a->len = len;
        if (t == NC_CHAR) {
            a->text = malloc(len + 1);
            if (!a->text)
                return ps_error(PS_ENOMEM, "out of memory");
            if (len && (rc = nc_get_att_text(ncid, varid, a->name, a->text)))
                goto nc_fail;
            a->text[len] = '\0';
            /* some writers include the terminating NUL in the length */
            a->len = strlen(a->text);
        } else if (t == NC_STRING) {
            char **s = calloc(len ? len : 1, sizeof *s);
            if (!s)
                return ps_error(PS_ENOMEM, "out of memory");
            if (len && (rc = nc_get_att_string(ncid, varid, a->name, s))) {
                free(s);
                goto nc_fail;
            }
            a->text = strdup(len && s[0] ? s[0] : "");
            if (len)
                nc_free_string(len, s);
            free(s);
            if (!a->text)
                return ps_error(PS_ENOMEM, "out of memory");
            a->len = strlen(a->text);
        } else if (t >= NC_BYTE && t <= NC_UINT64 && t != NC_CHAR) {
            a->values = malloc((len ? len : 1) * sizeof(double));
            if (!a->values)
                return ps_error(PS_ENOMEM, "out of memory");
            if (len && (rc = nc_get_att_double(ncid, varid, a->name, a->values)))
                goto nc_fail;
        } else {
            /* user-defined types: keep the name only */
            a->len = 0;
            a->values = calloc(1, sizeof(double));
            if (!a->values)
                return ps_error(PS_ENOMEM, "out of memory");
        }
    }
    return PS_OK;
nc_fail:
    return ps_error(PS_ENETCDF, "%s: reading attributes: %s", path, nc_strerror(rc));
}

static const char *attr_text(const ps_attr_list *l, const char *name)
{
    const ps_attr *a = ps_attr_find(l, name);
    return a && a->text ? a->text : NULL;
}

/* ------------------------------------------------------- variable discovery */

static const char *const temp_std_names[] = {
    "sea_water_potential_temperature", "sea_water_temperature",
    "sea_water_conservative_temperature", NULL};
static const char *const temp_common_names[] = {"thetao", "votemper", "temp", "TEMP", "t", NULL};
static int in_list(const char *s, const char *const *list, int ci)
{
    int i;
    if (!s)
        return 0;
    for (i = 0; list[i]; i++)
        if (ci ? !strcasecmp(s, list[i]) : !strcmp(s, list[i]))
            return 1;
    return 0;
}

/* Whether the attribute text (may be NULL) matches, ignoring surrounding blanks. */
static int text_is(const char *s, const char *const *list, int ci)
{
    char buf[256];
    size_t n;
    if (!s)
        return 0;
    while (*s == ' ')
        s++;
    snprintf(buf, sizeof buf, "%s", s);
    n = strlen(buf);
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\0'))
        buf[--n] = '\0';
    return in_list(buf, list, ci);
}

static int get_text_att(int ncid, int varid, const char *name, char *out, size_t n)
{
    nc_type t;
    size_t len;
    out[0] = '\0';
    if (nc_inq_att(ncid, varid, name, &t, &len))
        return 0;
    if (t == NC_CHAR) {
        char *tmp = malloc(len + 1);
        if (!tmp)
            return 0;
        if (nc_get_att_text(ncid, varid, name, tmp)) {
            free(tmp);
            return 0;
        }
        tmp[len] = '\0';
        snprintf(out, n, "%s", tmp);
        free(tmp);
        return 1;
    }
    if (t == NC_STRING && len >= 1) {
        char **s = calloc(len, sizeof *s);
        if (!s || nc_get_att_string(ncid, varid, name, s)) {
            free(s);
            return 0;
        }
        snprintf(out, n, "%s", s[0] ? s[0] : "");
        nc_free_string(len, s);
        free(s);
        return 1;
    }
    return 0;
}

/* A coordinate variable: rank 1, named like its dimension (of @p dimid when
 * that is not -1: a variable over another dimension of the same name is not
 * that dimension's coordinate). */
static int is_coord_var(int ncid, int v, int want_dimid)
{
    char name[NC_MAX_NAME + 1], dname[NC_MAX_NAME + 1];
    int nd, dimid;
    if (nc_inq_varndims(ncid, v, &nd) || nd != 1)
        return 0;
    if (nc_inq_varname(ncid, v, name) || nc_inq_vardimid(ncid, v, &dimid) ||
        nc_inq_dimname(ncid, dimid, dname))
        return 0;
    return !strcmp(name, dname) && (want_dimid < 0 || dimid == want_dimid);
}

static void list_append(char *buf, size_t n, const char *name)
{
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s%s", l ? ", " : "", name);
}

/* The variable whose standard_name is the first of @p names ('|'-separated) that any
 * variable carries; of several with it, those of rank 3 or 4 (one, else PS_EAMBIG). */
static int find_standard(int ncid, const char *path, const char *names, int *varid)
{
    char list[1024], *save = NULL, *tok, name[NC_MAX_NAME + 1], txt[256], cands[2048];
    int nvars, v, rc;
    if ((rc = nc_inq_nvars(ncid, &nvars)))
        return ps_error(PS_ENETCDF, "%s: %s", path, nc_strerror(rc));
    snprintf(list, sizeof list, "%s", names);
    for (tok = strtok_r(list, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
        int hit[64], n = 0, n34 = 0, i, nd;
        for (v = 0; v < nvars; v++)
            if (get_text_att(ncid, v, "standard_name", txt, sizeof txt) && !strcmp(txt, tok) &&
                n < 64)
                hit[n++] = v;
        for (i = 0; i < n; i++) {
            nd = 0;
            nc_inq_varndims(ncid, hit[i], &nd);
            if (nd == 3 || nd == 4)
                hit[n34++] = hit[i];
        }
        if (n34 == 1 || (n == 1 && !n34)) {
            *varid = hit[0];
            return PS_OK;
        }
        if (n) {
            cands[0] = '\0';
            for (i = 0; i < (n34 ? n34 : n); i++) {
                nc_inq_varname(ncid, hit[i], name);
                list_append(cands, sizeof cands, name);
            }
            return ps_error(PS_EAMBIG, "%s: several variables have standard_name %s: %s", path,
                            tok, cands);
        }
    }
    return ps_error(PS_ENOVAR, "%s has no variable with standard_name %s", path, names);
}

static int find_variable(int ncid, const char *path, const char *want, int *varid)
{
    int nvars, v, rc, n, i;
    int std[64], nstd = 0, com[64], ncom = 0, uni[64], nuni = 0;
    char name[NC_MAX_NAME + 1], txt[256], cands[2048] = "", all[2048] = "";

    if ((rc = nc_inq_nvars(ncid, &nvars)))
        return ps_error(PS_ENETCDF, "%s: %s", path, nc_strerror(rc));
    for (v = 0; v < nvars; v++) {
        int nd = 0;
        nc_inq_varname(ncid, v, name);
        nc_inq_varndims(ncid, v, &nd);
        list_append(all, sizeof all, name);
        if (want) {
            if (!strcmp(name, want)) {
                *varid = v;
                return PS_OK;
            }
            continue;
        }
        if (get_text_att(ncid, v, "standard_name", txt, sizeof txt) &&
            text_is(txt, temp_std_names, 0) && nstd < 64)
            std[nstd++] = v;
        if (in_list(name, temp_common_names, 0) && !is_coord_var(ncid, v, -1) && ncom < 64)
            com[ncom++] = v;
        if ((nd == 3 || nd == 4) && get_text_att(ncid, v, "units", txt, sizeof txt) &&
            ps_unit_kind_of(txt) == PS_UNIT_TEMPERATURE && nuni < 64)
            uni[nuni++] = v;
    }
    if (want)
        return ps_error(PS_ENOVAR, "%s has no variable '%s' (variables: %s)", path, want,
                        nvars ? all : "none");
    /* Several standard_name matches: keep those of rank 3 or 4 if that decides. */
    if (nstd > 1) {
        int keep[64], nk = 0;
        for (i = 0; i < nstd; i++) {
            int nd = 0;
            nc_inq_varndims(ncid, std[i], &nd);
            if (nd == 3 || nd == 4)
                keep[nk++] = std[i];
        }
        if (nk >= 1) {
            memcpy(std, keep, (size_t)nk * sizeof *keep);
            nstd = nk;
        }
    }
    {
        const int *set = NULL;
        const char *how = NULL;
        if (nstd) {
            set = std, n = nstd, how = "a temperature standard_name";
        } else if (ncom) {
            set = com, n = ncom, how = "a common temperature name";
        } else if (nuni) {
            set = uni, n = nuni, how = "temperature units";
        } else {
            return ps_error(PS_ENOVAR,
                            "%s: no temperature variable found (no standard_name %s, no "
                            "variable named thetao/votemper/temp/TEMP/t, no rank-3/4 variable "
                            "with temperature units; variables: %s); use --var NAME",
                            path, temp_std_names[0], nvars ? all : "none");
        }
        if (n == 1) {
            *varid = set[0];
            return PS_OK;
        }
        for (i = 0; i < n; i++) {
            nc_inq_varname(ncid, set[i], name);
            list_append(cands, sizeof cands, name);
        }
        return ps_error(PS_EAMBIG,
                        "%s: several candidate temperature variables (with %s): %s; choose one "
                        "with --var NAME",
                        path, how, cands);
    }
}

/* ------------------------------------------------------------ axis discovery */

static const char *const lat_units[] = {"degrees_north", "degree_north", "degree_N",
                                        "degrees_N", "degreeN", "degreesN", NULL};
static const char *const lon_units[] = {"degrees_east", "degree_east", "degree_E",
                                        "degrees_E", "degreeE", "degreesE", NULL};
static const char *const z_units[] = {"m", "meter", "meters", "metre", "metres", "km",
                                      "dbar", "decibar", "Pa", "hPa", "bar", "level", "layer",
                                      "sigma_level", NULL};
static const char *const t_names[] = {"time", "t", "time_counter", "ocean_time", "Time", NULL};
static const char *const z_names[] = {"depth", "deptht", "depthu", "depthv", "depthw", "lev",
                                      "level", "z", "nav_lev", "Depth", "DEPTH", "zt", "s_rho",
                                      "sigma", NULL};
static const char *const y_names[] = {"lat", "latitude", "nav_lat", "y", "Latitude", "LAT",
                                      "LATITUDE", "rlat", "yt_ocean", NULL};
static const char *const x_names[] = {"lon", "longitude", "nav_lon", "x", "Longitude", "LON",
                                      "LONGITUDE", "rlon", "xt_ocean", NULL};

/* Role of dimension @p dimid (-1 unknown), from its coordinate variable's
 * attributes, then, failing those, from its name. */
static int axis_role(int ncid, int dimid, int *coordvar)
{
    char dname[NC_MAX_NAME + 1], txt[256];
    int v;
    *coordvar = -1;
    if (nc_inq_dimname(ncid, dimid, dname))
        return -1;
    if (nc_inq_varid(ncid, dname, &v) == NC_NOERR && is_coord_var(ncid, v, dimid)) {
        *coordvar = v;
        if (get_text_att(ncid, v, "axis", txt, sizeof txt)) {
            if (!strcasecmp(txt, "T"))
                return PS_AXIS_TIME;
            if (!strcasecmp(txt, "Z"))
                return PS_AXIS_DEPTH;
            if (!strcasecmp(txt, "Y"))
                return PS_AXIS_LAT;
            if (!strcasecmp(txt, "X"))
                return PS_AXIS_LON;
        }
        if (get_text_att(ncid, v, "standard_name", txt, sizeof txt)) {
            if (!strcmp(txt, "time"))
                return PS_AXIS_TIME;
            if (!strcmp(txt, "latitude") || !strcmp(txt, "grid_latitude"))
                return PS_AXIS_LAT;
            if (!strcmp(txt, "longitude") || !strcmp(txt, "grid_longitude"))
                return PS_AXIS_LON;
            if (!strcmp(txt, "depth") || !strcmp(txt, "height") || !strcmp(txt, "altitude") ||
                !strcmp(txt, "sea_water_pressure") || !strncmp(txt, "ocean_", 6) ||
                !strncmp(txt, "model_level", 11))
                return PS_AXIS_DEPTH;
        }
        if (get_text_att(ncid, v, "units", txt, sizeof txt)) {
            if (text_is(txt, lat_units, 0))
                return PS_AXIS_LAT;
            if (text_is(txt, lon_units, 0))
                return PS_AXIS_LON;
            if (strstr(txt, " since "))
                return PS_AXIS_TIME;
        }
        if (get_text_att(ncid, v, "positive", txt, sizeof txt) &&
            (!strcasecmp(txt, "up") || !strcasecmp(txt, "down")))
            return PS_AXIS_DEPTH;
        if (get_text_att(ncid, v, "units", txt, sizeof txt) && text_is(txt, z_units, 0) &&
            in_list(dname, z_names, 1))
            return PS_AXIS_DEPTH;
    }
    /* No usable attributes: a last resort by (well-known) name. */
    if (in_list(dname, t_names, 0))
        return PS_AXIS_TIME;
    if (in_list(dname, z_names, 0))
        return PS_AXIS_DEPTH;
    if (in_list(dname, y_names, 0))
        return PS_AXIS_LAT;
    if (in_list(dname, x_names, 0))
        return PS_AXIS_LON;
    return -1;
}

static const char *const role_names[4] = {"time", "depth", "latitude", "longitude"};

/* Whether variable @p varid carries an HDF5 Fletcher32 checksum (netCDF-4). */
static int has_checksum(int ncid, int varid)
{
    int f = 0;
    return nc_inq_var_fletcher32(ncid, varid, &f) == NC_NOERR && f;
}

/* A failed read of @p what: a variable with a checksum that fails to read was
 * damaged after it was written (HDF5 reports the checksum mismatch as an HDF
 * error), which deserves to be said plainly. */
static int read_failed(const ps_dataset *ds, int varid, const char *what, int rc)
{
    if (rc == NC_EHDFERR && has_checksum(ds->ncid, varid))
        return ps_error(PS_EFORMAT, "%s: the file is corrupted: %s fails its Fletcher32 "
                                    "checksum (the data changed after it was written: "
                                    "%s)",
                        ds->path, what, nc_strerror(rc));
    return ps_error(PS_ENETCDF, "%s: reading %s: %s", ds->path, what, nc_strerror(rc));
}

static int check_filters(const ps_dataset *ds, int varid);

static int load_axis(ps_dataset *ds, int role, int dimid, int coordvar, int pos, int unlimdim)
{
    ps_axis *ax = &ds->axes[role];
    int rc, st;
    size_t i;
    ax->present = 1;
    ax->file_dim_pos = pos;
    ax->unlimited = dimid == unlimdim;
    if ((rc = nc_inq_dim(ds->ncid, dimid, ax->dim_name, &ax->len)))
        return ps_error(PS_ENETCDF, "%s: %s", ds->path, nc_strerror(rc));
    if (ax->len > SIZE_MAX / sizeof(double))
        return ps_error(PS_ENOMEM, "%s: dimension '%s' is too long to address (%zu)", ds->path,
                        ax->dim_name, ax->len);
    ax->values = malloc((ax->len ? ax->len : 1) * sizeof(double));
    if (!ax->values)
        return ps_error(PS_ENOMEM, "out of memory");
    if (coordvar >= 0) {
        nc_type t;
        if ((st = check_filters(ds, coordvar)))
            return st;
        nc_inq_varname(ds->ncid, coordvar, ax->var_name);
        nc_inq_vartype(ds->ncid, coordvar, &t);
        ax->nc_type = t;
        {
            const char *dn = ax->dim_name;
            ps_nc_read_spec r = {.path = ds->path, .ncid = ds->ncid, .varid = coordvar,
                                 .rank = 1, .dimids = &dimid, .dim_names = &dn,
                                 .cap = ax->len};
            if ((st = ps_nc_get(&r, ax->values))) {
                char what[NC_MAX_NAME + 32];
                snprintf(what, sizeof what, "coordinate '%s'", ax->var_name);
                return r.nc_rc ? read_failed(ds, coordvar, what, r.nc_rc) : st;
            }
        }
        if ((st = load_attrs(ds->ncid, coordvar, &ax->attrs, ds->path)))
            return st;
    } else {
        ax->nc_type = NC_DOUBLE;
        for (i = 0; i < ax->len; i++)
            ax->values[i] = (double)i;
    }
    return PS_OK;
}

/* Depth: make k = 0 the surface. With positive="up" (heights, usually
 * negative), or negative values and no positive="down", the surface is the
 * largest value, otherwise the smallest. */
static void orient_depth(ps_axis *ax)
{
    const char *pos = attr_text(&ax->attrs, "positive");
    int up = pos && !strcasecmp(pos, "up");
    size_t n = ax->len, i, npos = 0;
    if (n < 2 || !ax->var_name[0])
        return;
    for (i = 0; i < n; i++)
        npos += !(ax->values[i] <= 0);
    if (!(pos && !strcasecmp(pos, "down")) && npos == 0 && ax->values[0] != ax->values[n - 1])
        up = 1;
    if ((!up && ax->values[0] > ax->values[n - 1]) || (up && ax->values[0] < ax->values[n - 1])) {
        ax->reversed = 1;
        for (i = 0; i < n / 2; i++) {
            double t = ax->values[i];
            ax->values[i] = ax->values[n - 1 - i];
            ax->values[n - 1 - i] = t;
        }
    }
}

/* ------------------------------------------------------------------- opening */

static void dataset_init(ps_dataset *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->ncid = -1;
    ds->varid = -1;
}

/* zlib cannot compress better than about 1032:1 */
#define PS_MAX_COMPRESSION 1032u

/*
 * Before reading anything large: the data a variable declares must be in
 * the file. An uncompressed variable's data cannot exceed the file, nor a
 * compressed one's the file times the best ratio of zlib: a few kilobytes
 * declaring gigabytes are refused here instead of read as fill values. The
 * classic formats' pre-parser checks their data offsets already, but not a
 * record count left at the streaming marker (2^32-1, or 2^64-1 in CDF5),
 * which netCDF-C may report as the length of the record dimension: the
 * lengths as netCDF-C reports them are checked here in every format.
 */
static int check_declared_size(const ps_dataset *ds, int nd, const int *dimids,
                               unsigned long long fsize, double max_expansion)
{
    nc_type t;
    size_t ts = 0, len;
    unsigned long long bytes, limit, cells;
    int d, shuffle = 0, deflate = 0, level = 0, filtered, unlim;
    int classic = ds->format == NC_FORMAT_CLASSIC || ds->format == NC_FORMAT_64BIT_OFFSET ||
                  ds->format == NC_FORMAT_CDF5;
    unsigned int fid = 0;
    if (nc_inq_vartype(ds->ncid, ds->varid, &t) || nc_inq_type(ds->ncid, t, NULL, &ts) || !ts)
        return PS_OK; /* not numeric: refused later with its own message */
    bytes = ts;
    cells = 1;
    if (nc_inq_unlimdim(ds->ncid, &unlim))
        unlim = -1;
    for (d = 0; d < nd; d++) {
        if (nc_inq_dimlen(ds->ncid, dimids[d], &len))
            return ps_error(PS_ENETCDF, "%s: cannot read the dimensions of '%s'", ds->path,
                            ds->var_name);
        if (dimids[d] == unlim && classic &&
            len == (ds->format == NC_FORMAT_CDF5 ? SIZE_MAX : (size_t)0xffffffffu))
            return ps_error(PS_EFORMAT,
                            "%s: damaged NetCDF header: its record count is %s, the streaming "
                            "marker (the writer never recorded how many records it wrote)",
                            ds->path, ds->format == NC_FORMAT_CDF5 ? "2^64-1" : "2^32-1");
        bytes = len && bytes > ULLONG_MAX / len ? ULLONG_MAX : bytes * len;
        /* the field reads one time record */
        if (!(nd == 4 && d == 0))
            cells = len && cells > ULLONG_MAX / len ? ULLONG_MAX : cells * len;
    }
    if (bytes == ULLONG_MAX)
        return ps_error(PS_ENOMEM, "%s: variable '%s' is too large to address (its dimensions "
                        "multiply past 2^64 bytes)", ds->path, ds->var_name);
    filtered = (nc_inq_var_deflate(ds->ncid, ds->varid, &shuffle, &deflate, &level) == NC_NOERR &&
                deflate) ||
               (nc_inq_var_filter(ds->ncid, ds->varid, &fid, NULL, NULL) == NC_NOERR && fid);
    limit = filtered ? (fsize > ULLONG_MAX / PS_MAX_COMPRESSION ? ULLONG_MAX
                                                                : fsize * PS_MAX_COMPRESSION)
                     : fsize;
    /* a field of float32 cells per byte of the file: a compression bomb */
    if (filtered && bytes <= limit && max_expansion >= 0 &&
        (double)cells * 4.0 > max_expansion * (double)fsize)
        return ps_error(PS_ERANGE,
                        "%s: compressed variable '%s' expands %.0f times: %llu cells (%.0f MB "
                        "as float32) from a file of %llu bytes, more than the %.0f times "
                        "accepted from a compressed file (real data stays far below it); if "
                        "the file is genuine, allow it with --max-expansion %.0f (or none)",
                        ds->path, ds->var_name, (double)cells * 4.0 / (double)fsize, cells,
                        (double)cells * 4.0 / 1e6, fsize, max_expansion,
                        ceil((double)cells * 4.0 / (double)fsize));
    if (bytes > limit)
        return ps_error(PS_ETRUNC,
                        "%s is truncated or its data were never written: variable '%s' declares "
                        "%llu bytes of data%s but the file has %llu bytes",
                        ds->path, ds->var_name, bytes,
                        filtered ? " (more than the best compression could hold)" : "", fsize);
    return PS_OK;
}

/*
 * An empty dimension makes the variable hold no data, so no size check can
 * bound the others: a header of a few bytes may declare an empty record
 * dimension beside a billion latitudes. Refuse it before any axis is
 * allocated.
 */
static int check_empty_dims(const ps_dataset *ds, int nd, const int *dimids)
{
    int d, cv, role;
    size_t len;
    char dname[NC_MAX_NAME + 1];
    for (d = 0; d < nd; d++) {
        if (nc_inq_dimlen(ds->ncid, dimids[d], &len))
            return ps_error(PS_ENETCDF, "%s: cannot read the dimensions of '%s'", ds->path,
                            ds->var_name);
        if (len)
            continue;
        dname[0] = 0;
        nc_inq_dimname(ds->ncid, dimids[d], dname);
        role = axis_role(ds->ncid, dimids[d], &cv);
        if (role == PS_AXIS_TIME || (role < 0 && nd == 4 && d == 0))
            return ps_error(PS_ERANGE,
                            "%s: variable '%s' has no time records (dimension '%s' is empty)",
                            ds->path, ds->var_name, dname);
        return ps_error(PS_EDIM, "%s: dimension '%s' of '%s' is empty; need at least 3",
                        ds->path, dname, ds->var_name);
    }
    return PS_OK;
}

/* HDF5 filters a netCDF-4 file may use, and where Debian has them */
static const struct {
    unsigned id;
    const char *name, *where;
} known_filters[] = {
    {4, "szip", "a netCDF-C and HDF5 built with libaec (szip)"},
    {307, "bzip2", "Debian's hdf5-filter-plugin"},
    {32000, "LZF", "Debian's hdf5-plugin-lzf"},
    {32001, "Blosc", "Debian's hdf5-filter-plugin-blosc-serial"},
    {32004, "LZ4", "Debian's hdf5-filter-plugin"},
    {32008, "Bitshuffle", "Debian's hdf5-filter-plugin"},
    {32013, "ZFP", "Debian's hdf5-filter-plugin-zfp-serial"},
    {32015, "Zstandard (zstd)", "netCDF-C's own plugins (netCDF-C built with --enable-plugins) "
                                "or the hdf5plugin package"},
    {32017, "SZ", "the SZ library's HDF5 plugin"},
    {32026, "Blosc2", "the hdf5plugin package or c-blosc2's HDF5 plugin"},
};

/*
 * Every filter of the variable must be available to this netCDF-C and HDF5:
 * a missing one fails every read with "undefined filter encountered". Named
 * here, with where to get it, before any data is read.
 */
static int check_filters(const ps_dataset *ds, int varid)
{
    char vname[NC_MAX_NAME + 1] = "?";
    size_t n = 0, i, k;
    unsigned ids[16];
    if (nc_inq_var_filter_ids(ds->ncid, varid, &n, NULL) || n == 0)
        return PS_OK;
    nc_inq_varname(ds->ncid, varid, vname);
    if (n > sizeof ids / sizeof ids[0])
        return ps_error(PS_EFORMAT, "%s: variable '%s' declares %zu filters (at most %zu "
                        "are read)", ds->path, vname, n, sizeof ids / sizeof ids[0]);
    if (nc_inq_var_filter_ids(ds->ncid, varid, &n, ids))
        return PS_OK;
    for (i = 0; i < n; i++) {
        const char *name = NULL, *where = NULL;
        if (nc_inq_filter_avail(ds->ncid, ids[i]) == NC_NOERR)
            continue;
        for (k = 0; k < sizeof known_filters / sizeof known_filters[0]; k++)
            if (known_filters[k].id == ids[i])
                name = known_filters[k].name, where = known_filters[k].where;
        if (name)
            return ps_error(PS_EUNSUPPORTED,
                            "%s: variable '%s' is compressed with the %s filter (HDF5 filter "
                            "%u), which this netCDF-C cannot decode: install %s (and set "
                            "HDF5_PLUGIN_PATH to its folder if HDF5 does not find it), or "
                            "convert the file (nccopy -F none, on a machine that has the "
                            "filter)", ds->path, vname, name, ids[i], where);
        return ps_error(PS_EUNSUPPORTED,
                        "%s: variable '%s' is compressed with HDF5 filter %u, unknown to this "
                        "netCDF-C (no plugin for it; HDF5's list of registered filters names "
                        "it): install its HDF5 plugin and set HDF5_PLUGIN_PATH to its folder",
                        ds->path, vname, ids[i]);
    }
    return PS_OK;
}

/*
 * Packing (NUG): scale_factor and add_offset, when present, are each one
 * finite number, and scale_factor is not 0 (every value would unpack to
 * add_offset). Anything else is refused naming the attribute, instead of
 * read as "every value is missing" or as a constant field.
 */
static int check_packing(const ps_dataset *ds)
{
    static const char *const names[] = {"scale_factor", "add_offset"};
    int i;
    for (i = 0; i < 2; i++) {
        const ps_attr *a = ps_attr_find(&ds->var_attrs, names[i]);
        const char *why = NULL;
        char val[64] = "";
        if (!a)
            continue;
        if (!a->values || a->nc_type == NC_CHAR || a->nc_type == NC_STRING)
            why = "is text";
        else if (a->len != 1)
            snprintf(val, sizeof val, "has %zu values", a->len), why = val;
        else if (!isfinite(a->values[0]))
            snprintf(val, sizeof val, "is %g", a->values[0]), why = val;
        else if (i == 0 && a->values[0] == 0)
            why = "is 0 (every value would unpack to add_offset)";
        if (why)
            return ps_error(PS_EFORMAT, "%s: attribute %s of variable '%s' %s; it must be one "
                            "finite%s number", ds->path, names[i], ds->var_name, why,
                            i == 0 ? ", non-zero" : "");
    }
    return PS_OK;
}

/* netCDF-C's text for an open failure; positive codes are errno values that
 * mean little here ("Argument list too long"), so they get a plainer text. */
static const char *open_error(int rc)
{
    if (rc > 0)
        return "the library could not parse it";
    return nc_strerror(rc);
}

static ps_open_options default_options;

void ps_dataset_set_default_options(const ps_open_options *opts)
{
    static const ps_open_options none;
    default_options = opts ? *opts : none;
}

int ps_dataset_open(ps_dataset *ds, const char *path, const char *var)
{
    return ps_dataset_open_opts(ds, path, var, &default_options);
}

static int open_impl(ps_dataset *ds, const char *path, const char *var, const char *std,
                     const ps_open_options *opts);

int ps_dataset_open_opts(ps_dataset *ds, const char *path, const char *var,
                         const ps_open_options *opts)
{
    return open_impl(ds, path, var, NULL, opts);
}

int ps_dataset_open_standard(ps_dataset *ds, const char *path, const char *standard_names)
{
    if (!standard_names || !*standard_names) {
        dataset_init(ds);
        return ps_error(PS_EINVAL, "no standard name to look for");
    }
    return open_impl(ds, path, NULL, standard_names, &default_options);
}

static int open_impl(ps_dataset *ds, const char *path, const char *var, const char *std,
                     const ps_open_options *opts)
{
    double max_expansion = opts && opts->max_expansion ? opts->max_expansion
                                                       : PS_MAX_EXPANSION_DEFAULT;
    struct stat sb;
    int rc, st = PS_OK, nd, dimids[NC_MAX_VAR_DIMS], unlimdim = -1, i, fmt, kind;
    nc_type vt;

    dataset_init(ds);
    if (!path || !*path)
        return ps_error(PS_EINVAL, "no input file given");
    snprintf(ds->path, sizeof ds->path, "%s", path);
    if (stat(path, &sb) != 0)
        return ps_error(PS_EIO, "cannot open %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return ps_error(PS_EIO, "cannot read %s: it is %s, not a regular file", path,
                        ps_file_kind(sb.st_mode));
    if (access(path, R_OK) != 0)
        return ps_error(PS_EIO, "cannot read %s: %s", path, strerror(errno));
    /* untrusted input: the bounded pre-parser first, netCDF-C only after it */
    if ((st = ps_nc_precheck(path, sb.st_size, &kind)))
        return st;
    rc = nc_open(path, NC_NOWRITE, &ds->ncid);
    if (rc) {
        ds->ncid = -1;
        if (kind == PS_NC_CLASSIC)
            return ps_error(PS_EFORMAT, "%s: damaged NetCDF header (netCDF: %s)", path,
                            open_error(rc));
        return ps_error(PS_EFORMAT, "%s: damaged or unsupported netCDF-4/HDF5 file (netCDF: %s)",
                        path, open_error(rc));
    }
    nc_inq_format(ds->ncid, &fmt);
    ds->format = fmt;
    if ((st = std ? find_standard(ds->ncid, path, std, &ds->varid)
                  : find_variable(ds->ncid, path, var, &ds->varid)))
        goto fail;
    nc_inq_varname(ds->ncid, ds->varid, ds->var_name);
    nc_inq_vartype(ds->ncid, ds->varid, &vt);
    ds->var_nc_type = vt;
    if (!(vt == NC_FLOAT || vt == NC_DOUBLE || vt == NC_BYTE || vt == NC_SHORT || vt == NC_INT ||
          vt == NC_UBYTE || vt == NC_USHORT || vt == NC_UINT || vt == NC_INT64 ||
          vt == NC_UINT64)) {
        st = ps_error(PS_EFORMAT, "%s: variable '%s' is not numeric", path, ds->var_name);
        goto fail;
    }
    nc_inq_varndims(ds->ncid, ds->varid, &nd);
    ds->rank = nd;
    if (nd < 3 || nd > 4) {
        st = ps_error(PS_EDIM,
                      "%s: variable '%s' has rank %d; need 3 (depth, lat, lon) or 4 (time, "
                      "depth, lat, lon)",
                      path, ds->var_name, nd);
        goto fail;
    }
    nc_inq_vardimid(ds->ncid, ds->varid, dimids);
    nc_inq_unlimdim(ds->ncid, &unlimdim);
    if ((st = check_filters(ds, ds->varid)) ||
        (st = check_declared_size(ds, nd, dimids, (unsigned long long)sb.st_size,
                                  max_expansion)) ||
        (st = check_empty_dims(ds, nd, dimids)))
        goto fail;
    for (i = 0; i < nd; i++) {
        int cv, role = axis_role(ds->ncid, dimids[i], &cv);
        char dname[NC_MAX_NAME + 1] = "";
        nc_inq_dimname(ds->ncid, dimids[i], dname);
        if (role < 0) {
            st = ps_error(PS_EDIM,
                          "%s: cannot tell which axis dimension '%s' of '%s' is (no axis, "
                          "standard_name, units or positive attribute)",
                          path, dname, ds->var_name);
            goto fail;
        }
        if (ds->axes[role].present) {
            st = ps_error(PS_EDIM, "%s: dimensions '%s' and '%s' of '%s' are both %s axes", path,
                          ds->axes[role].dim_name, dname, ds->var_name, role_names[role]);
            goto fail;
        }
        if ((st = load_axis(ds, role, dimids[i], cv, i, unlimdim)))
            goto fail;
    }
    for (i = 1; i < 4; i++) {
        if (!ds->axes[i].present) {
            st = ps_error(PS_EDIM, "%s: variable '%s' has no %s axis", path, ds->var_name,
                          role_names[i]);
            goto fail;
        }
        if (ds->axes[i].len < 3) {
            st = ps_error(PS_EDIM, "%s: dimension '%s' (%s) of '%s' has size %zu; need at least 3",
                          path, ds->axes[i].dim_name, role_names[i], ds->var_name,
                          ds->axes[i].len);
            goto fail;
        }
    }
    if (nd == 4 && !ds->axes[PS_AXIS_TIME].present) {
        st = ps_error(PS_EDIM, "%s: variable '%s' has 4 dimensions but no time axis", path,
                      ds->var_name);
        goto fail;
    }
    orient_depth(&ds->axes[PS_AXIS_DEPTH]);
    ds->ntime = nd == 4 ? ds->axes[PS_AXIS_TIME].len : 1;
    if (ds->ntime == 0) {
        st = ps_error(PS_ERANGE, "%s: variable '%s' has no time records (dimension '%s' is empty)",
                      path, ds->var_name, ds->axes[PS_AXIS_TIME].dim_name);
        goto fail;
    }
    ds->grid.nz = ds->axes[PS_AXIS_DEPTH].len;
    ds->grid.ny = ds->axes[PS_AXIS_LAT].len;
    ds->grid.nx = ds->axes[PS_AXIS_LON].len;
    if ((st = load_attrs(ds->ncid, ds->varid, &ds->var_attrs, path)) ||
        (st = load_attrs(ds->ncid, NC_GLOBAL, &ds->global_attrs, path)) ||
        (st = check_packing(ds)) ||
        (st = ps_dataset_check_coords(ds)))
        goto fail;
    {
        /* UDUNITS-2's spelling where the file's is not one it reads ("DEG C") */
        const char *u = attr_text(&ds->var_attrs, "units");
        ps_unit pu;
        snprintf(ds->units, sizeof ds->units, "%s",
                 u && !ps_unit_parse(u, &pu) ? pu.canonical : u ? u : "");
    }
    return PS_OK;
fail:
    {
        /* keep the detail message of the failure */
        char keep[1024];
        snprintf(keep, sizeof keep, "%s", ps_error_detail());
        ps_dataset_close(ds);
        ps_error(st, "%s", keep);
    }
    return st;
}

void ps_dataset_close(ps_dataset *ds)
{
    int i;
    if (!ds)
        return;
    if (ds->ncid >= 0)
        nc_close(ds->ncid);
    for (i = 0; i < 4; i++) {
        free(ds->axes[i].values);
        ps_attr_list_free(&ds->axes[i].attrs);
    }
    ps_attr_list_free(&ds->var_attrs);
    ps_attr_list_free(&ds->global_attrs);
    {
        char path[sizeof ds->path];
        memcpy(path, ds->path, sizeof path);
        dataset_init(ds);
        memcpy(ds->path, path, sizeof path);
    }
}

/* ------------------------------------------------------------------- reading */

/* How raw values map to temperatures: missing-data tests and unpacking. */
typedef struct unpack {
    int has_fill;
    double fill;
    int nmiss;
    double miss[16];
    int miss_packed; /* missing_value compared before unpacking */
    int has_vmin, has_vmax, valid_packed;
    double vmin, vmax;
    int scaled;
    double scale, offset;
    int uns_bits; /* _Unsigned="true" on a signed integer type: add 2^bits to negatives */
} unpack;

static int default_fill(int t, double *out)
{
    switch (t) {
    case NC_SHORT: *out = NC_FILL_SHORT; return 1;
    case NC_INT: *out = NC_FILL_INT; return 1;
    case NC_FLOAT: *out = (double)NC_FILL_FLOAT; return 1;
    case NC_DOUBLE: *out = NC_FILL_DOUBLE; return 1;
    case NC_USHORT: *out = NC_FILL_USHORT; return 1;
    case NC_UINT: *out = NC_FILL_UINT; return 1;
    default: return 0; /* bytes: no default fill check (netCDF convention) */
    }
}

static void setup_unpack(const ps_dataset *ds, unpack *u)
{
    const ps_attr *a;
    int vt = ds->var_nc_type;
    memset(u, 0, sizeof *u);
    if ((a = ps_attr_find(&ds->var_attrs, "_Unsigned")) && a->text &&
        !strcasecmp(a->text, "true")) {
        if (vt == NC_BYTE)
            u->uns_bits = 8;
        else if (vt == NC_SHORT)
            u->uns_bits = 16;
        else if (vt == NC_INT)
            u->uns_bits = 32;
    }
    if ((a = ps_attr_find(&ds->var_attrs, "_FillValue")) && a->values && a->len >= 1) {
        u->has_fill = 1;
        u->fill = a->values[0];
    } else if (!ps_attr_find(&ds->var_attrs, "missing_value")) {
        u->has_fill = default_fill(vt, &u->fill);
    }
    if ((a = ps_attr_find(&ds->var_attrs, "scale_factor")) && a->values && a->len >= 1) {
        u->scaled = 1;
        u->scale = a->values[0];
    } else {
        u->scale = 1.0;
    }
    if ((a = ps_attr_find(&ds->var_attrs, "add_offset")) && a->values && a->len >= 1) {
        u->scaled = 1;
        u->offset = a->values[0];
    }
    if ((a = ps_attr_find(&ds->var_attrs, "missing_value")) && a->values) {
        size_t i;
        for (i = 0; i < a->len && i < 16; i++)
            u->miss[u->nmiss++] = a->values[i];
        /* NUG: attributes of the packed type are in packed units */
        u->miss_packed = !u->scaled || a->nc_type == vt;
    }
    if ((a = ps_attr_find(&ds->var_attrs, "valid_range")) && a->values && a->len >= 2) {
        u->has_vmin = u->has_vmax = 1;
        u->vmin = a->values[0];
        u->vmax = a->values[1];
        u->valid_packed = !u->scaled || a->nc_type == vt;
    } else {
        if ((a = ps_attr_find(&ds->var_attrs, "valid_min")) && a->values && a->len >= 1) {
            u->has_vmin = 1;
            u->vmin = a->values[0];
            u->valid_packed = !u->scaled || a->nc_type == vt;
        }
        if ((a = ps_attr_find(&ds->var_attrs, "valid_max")) && a->values && a->len >= 1) {
            u->has_vmax = 1;
            u->vmax = a->values[0];
            u->valid_packed = !u->scaled || a->nc_type == vt;
        }
    }
}

/* Raw value (as double) -> temperature (NaN for missing), in double. */
static inline double convert(const unpack *u, double raw)
{
    double v;
    int i;
    if (isnan(raw))
        return NAN;
    if (u->has_fill && raw == u->fill)
        return NAN;
    if (u->uns_bits && raw < 0)
        raw += u->uns_bits == 8 ? 256.0 : u->uns_bits == 16 ? 65536.0 : 4294967296.0;
    for (i = 0; i < u->nmiss; i++)
        if (u->miss_packed && raw == u->miss[i])
            return NAN;
    if (u->valid_packed && ((u->has_vmin && raw < u->vmin) || (u->has_vmax && raw > u->vmax)))
        return NAN;
    v = u->scaled ? raw * u->scale + u->offset : raw;
    for (i = 0; i < u->nmiss; i++)
        if (!u->miss_packed && v == u->miss[i])
            return NAN;
    if (!u->valid_packed && ((u->has_vmin && v < u->vmin) || (u->has_vmax && v > u->vmax)))
        return NAN;
    return v;
}

/* Whether float data can be passed through unchanged (bit exact). */
static int float_passthrough(const unpack *u)
{
    return !u->scaled && !u->uns_bits;
}

/*
 * Whether @p nfields fields of grid @p g plus @p extra bytes (named in
 * @p what, e.g. "input field, working copy, output field") fit in the memory
 * this process can really use (io/ps_mem.c), overflow-safe.
 */
static int check_memory(const ps_grid *g, ps_precision p, size_t nfields, size_t extra,
                        const char *what, const char *path)
{
    size_t cells, bytes;
    unsigned long long avail;
    const char *why = NULL;
    int st = ps_grid_size(g, p, &cells, &bytes);
    if (st || (nfields > 1 && bytes > SIZE_MAX / nfields) ||
        bytes * (nfields ? nfields : 1) > SIZE_MAX - extra)
        return ps_error(PS_ENOMEM, "%s: the %s of a %zux%zux%zu grid are too large to address",
                        path, what, g->nz, g->ny, g->nx);
    bytes = bytes * (nfields ? nfields : 1) + extra;
    avail = ps_mem_available(&why);
    if (avail && (unsigned long long)bytes > avail)
        return ps_error(PS_ENOMEM,
                        "%s: the %s (%zux%zux%zu, %s) %s %zu bytes, more than the %llu bytes "
                        "this process can use (limited by %s)",
                        path, what, g->nz, g->ny, g->nx, ps_precision_name(p),
                        nfields > 1 || extra ? "need" : "needs", bytes, avail, why);
    return PS_OK;
}

/* What ps_dataset_check_memory() counts, by number of fields. */
static const char *field_names(size_t nfields)
{
    switch (nfields) {
    case 0: case 1: return "field";
    case 2: return "input field and working copy";
    case 3: return "input field, working copy and output field";
    case 4: return "input field, working copy, output field and initial-state copy";
    default: return "fields";
    }
}

int ps_dataset_check_memory(const ps_dataset *ds, ps_precision p, size_t nfields)
{
    const char *label = ds->path[0] ? ds->path : "built-in ocean";
    return check_memory(&ds->grid, p, nfields, 0, field_names(nfields), label);
}

int ps_dataset_check_memory_as(const ps_dataset *ds, ps_precision p, size_t nfields,
                               const char *what)
{
    const char *label = ds->path[0] ? ds->path : "built-in ocean";
    return check_memory(&ds->grid, p, nfields, 0, what, label);
}

static int check_plausible(const ps_dataset *ds, const unpack *u, size_t t, size_t k0,
                           size_t j0, size_t i0, const ps_field *f);

/*
 * The variable's chunk cache while blocks of one index along file dimension
 * @p slow are read (the other dimensions from @p start, @p len cells): the
 * chunks one block touches when a chunk is deeper than one index along
 * @p slow (each is then decompressed once, not once per block), none when
 * every chunk is one index deep there (each is read once). netCDF's default
 * cache (16 MiB a variable) would otherwise stay allocated while the file is
 * open, the whole run. @p on zero: none, the cache freed. A file without
 * chunks (netCDF-3) has no cache: errors are ignored.
 */
static void read_cache(const ps_dataset *ds, int on, int slow, const size_t *start,
                       const size_t *len)
{
    size_t ch[NC_MAX_VAR_DIMS], bytes = 0, es = 0, nchunks = 1;
    int storage = 0, d;
    if (on && ds->rank <= 4 &&
        !nc_inq_var_chunking(ds->ncid, ds->varid, &storage, ch) && storage == NC_CHUNKED &&
        !nc_inq_type(ds->ncid, ds->var_nc_type, NULL, &es) && ch[slow] > 1) {
        bytes = es;
        for (d = 0; d < ds->rank; d++) {
            size_t n = d == slow ? 1 : (start[d] % ch[d] + len[d] + ch[d] - 1) / ch[d];
            nchunks *= n;
            bytes *= n * ch[d];
        }
    }
    (void)nc_set_var_chunk_cache(ds->ncid, ds->varid, bytes, bytes ? 2 * nchunks + 1 : 1,
                                 0.75f);
}

/* Levels k0 .. k0 + nk - 1 (k = 0 the surface), rows j0 .. j0 + nj - 1 and
 * columns i0 .. i0 + ni - 1 of time index t, as a field of nk x nj x ni
 * cells: the whole grid for ps_dataset_read(), one level for
 * ps_dataset_read_level(), a block for ps_dataset_read_region(). */
static int read_block(ps_dataset *ds, size_t t, size_t k0, size_t nk, size_t j0, size_t nj,
                      size_t i0, size_t ni, ps_precision p, ps_field *out)
{
    size_t start[4] = {0}, count[4] = {0}, stride_out[4] = {0};
    size_t len[4], dim_of_pos[4];
    int pos_role[4], nd = ds->rank, d, st = PS_OK, slow, vt = ds->var_nc_type;
    size_t blk_cells = 1, nblk, b, i;
    unpack u;
    void *buf = NULL;
    ps_grid g = ds->grid;
    int rev = ds->axes[PS_AXIS_DEPTH].reversed, identity, direct = 0;
    size_t first[4] = {0};

    memset(out, 0, sizeof *out);
    if (ds->ncid < 0)
        return ps_error(PS_EINVAL, "%s: dataset is not open", ds->path);
    if (t >= ds->ntime) {
        if (ds->ntime == 0)
            return ps_error(PS_ERANGE, "%s: variable '%s' has no time records", ds->path,
                            ds->var_name);
        return ps_error(PS_ERANGE, "%s: time index %zu is out of range (the file has %zu time "
                                   "record%s: 0..%zu)",
                        ds->path, t, ds->ntime, ds->ntime == 1 ? "" : "s", ds->ntime - 1);
    }
    if (k0 >= g.nz || nk == 0 || nk > g.nz - k0)
        return ps_error(PS_ERANGE, "%s: levels %zu..%zu are out of range (the grid has %zu)",
                        ds->path, k0, k0 + nk - 1, g.nz);
    if (j0 >= g.ny || nj == 0 || nj > g.ny - j0 || i0 >= g.nx || ni == 0 || ni > g.nx - i0)
        return ps_error(PS_ERANGE, "%s: rows %zu..%zu or columns %zu..%zu are out of range "
                        "(the grid has %zu x %zu)", ds->path, j0, j0 + nj - 1, i0,
                        i0 + ni - 1, g.ny, g.nx);
    g.nz = nk;
    g.ny = nj;
    g.nx = ni;
    /* file position -> role, and the output stride of each role */
    for (d = 0; d < 4; d++)
        if (ds->axes[d].present)
            pos_role[ds->axes[d].file_dim_pos] = d;
    stride_out[PS_AXIS_TIME] = 0;
    stride_out[PS_AXIS_DEPTH] = g.ny * g.nx;
    stride_out[PS_AXIS_LAT] = g.nx;
    stride_out[PS_AXIS_LON] = 1;
    for (d = 0; d < nd; d++) {
        int r = pos_role[d];
        len[d] = r == PS_AXIS_TIME ? 1 : r == PS_AXIS_DEPTH ? nk : r == PS_AXIS_LAT ? nj : ni;
        start[d] = r == PS_AXIS_TIME ? t : r == PS_AXIS_LAT ? j0 : r == PS_AXIS_LON ? i0 : 0;
        if (r == PS_AXIS_DEPTH) /* file levels, flipped when the file counts up */
            start[d] = rev ? ds->axes[r].len - k0 - nk : k0;
        first[d] = start[d];
        count[d] = len[d];
        dim_of_pos[d] = (size_t)r;
    }
    /* Read in blocks: one index at a time along the slowest spatial file dimension. */
    slow = -1;
    for (d = 0; d < nd; d++)
        if (pos_role[d] != PS_AXIS_TIME) {
            slow = d;
            break;
        }
    /* the field first (overflow-safe); a block is at most the whole grid */
    if ((st = check_memory(&g, p, 1, 0, "field read from the file", ds->path)))
        return st;
    for (d = slow + 1; d < nd; d++)
        blk_cells *= len[d];
    nblk = len[slow];
    if (blk_cells > SIZE_MAX / sizeof(double))
        return ps_error(PS_ENOMEM, "%s: grid too large to address", ds->path);
    if ((st = check_memory(&g, p, 1, blk_cells * sizeof(double),
                           "field read from the file and its read buffer", ds->path)))
        return st;
    if ((st = ps_field_alloc(out, g, p)))
        return st;
    setup_unpack(ds, &u);
    {
        /* spatial roles in file order depth, lat, lon, depth not flipped */
        int want = PS_AXIS_DEPTH;
        identity = !rev;
        for (d = 0; d < nd && identity; d++) {
            if (pos_role[d] == PS_AXIS_TIME)
                continue;
            if (pos_role[d] != want++)
                identity = 0;
        }
    }
    /* a level read straight into the field where the file's order and element
     * type are the field's: converted in place, no read buffer */
    direct = identity && (vt == NC_FLOAT && float_passthrough(&u) ? p == PS_FLOAT32
                                                                    : p == PS_FLOAT64);
    buf = direct ? NULL : malloc((blk_cells ? blk_cells : 1) * sizeof(double));
    if (!direct && !buf) {
        st = ps_error(PS_ENOMEM, "out of memory reading %s", ds->path);
        goto done;
    }
    read_cache(ds, 1, slow, start, len);
    count[slow] = 1;
    for (b = 0; b < nblk; b++) {
        size_t idx[4] = {0}, base = 0;
        int use_float = vt == NC_FLOAT && float_passthrough(&u);
        ps_nc_read_spec r = {.path = ds->path, .ncid = ds->ncid, .varid = ds->varid,
                             .rank = nd, .start = start, .count = count, .cap = blk_cells,
                             .as_float = use_float};
        start[slow] = first[slow] + b;
        if (direct)
            buf = (char *)out->data + b * blk_cells * ps_precision_size(p);
        if ((st = ps_nc_get(&r, buf))) {
            char what[NC_MAX_NAME + 64];
            snprintf(what, sizeof what, "'%s' (time %zu)", ds->var_name, t);
            if (r.nc_rc)
                st = read_failed(ds, ds->varid, what, r.nc_rc);
            goto done;
        }
        if (identity) {
            /* the file is already (time,) depth, lat, lon: the block is level b */
            size_t base = b * blk_cells;
            if (use_float) {
                const float *src = buf;
                for (i = 0; i < blk_cells; i++) {
                    float fv = src[i];
                    double dv = (double)fv;
                    int m;
                    if (u.has_fill && dv == u.fill)
                        fv = NAN;
                    for (m = 0; m < u.nmiss; m++)
                        if (dv == u.miss[m])
                            fv = NAN;
                    if ((u.has_vmin && dv < u.vmin) || (u.has_vmax && dv > u.vmax))
                        fv = NAN;
                    if (p == PS_FLOAT32)
                        ((float *)out->data)[base + i] = fv;
                    else
                        ((double *)out->data)[base + i] = (double)fv;
                }
            } else {
                const double *src = buf;
                for (i = 0; i < blk_cells; i++) {
                    double v = convert(&u, src[i]);
                    if (p == PS_FLOAT32)
                        ((float *)out->data)[base + i] = (float)v;
                    else
                        ((double *)out->data)[base + i] = v;
                }
            }
            continue;
        }
        /* walk the block in file order, scattering to (k, j, i) */
        for (i = 0; i < blk_cells; i++) {
            size_t o = 0;
            double v;
            int r;
            if (i == 0) {
                for (d = 0; d < nd; d++)
                    idx[d] = 0;
                idx[slow] = b;
            }
            for (d = 0; d < nd; d++) {
                size_t x = idx[d];
                r = (int)dim_of_pos[d];
                if (r == PS_AXIS_DEPTH && rev)
                    x = g.nz - 1 - x;
                o += x * stride_out[r];
            }
            (void)base;
            if (use_float) {
                float fv = ((float *)buf)[i];
                double dv = (double)fv;
                if (isnan(fv) || (u.has_fill && dv == u.fill))
                    fv = NAN;
                else {
                    int m;
                    for (m = 0; m < u.nmiss; m++)
                        if (dv == u.miss[m])
                            fv = NAN;
                    if ((u.has_vmin && dv < u.vmin) || (u.has_vmax && dv > u.vmax))
                        fv = NAN;
                }
                if (p == PS_FLOAT32)
                    ((float *)out->data)[o] = fv;
                else
                    ((double *)out->data)[o] = (double)fv;
            } else {
                v = convert(&u, ((double *)buf)[i]);
                if (p == PS_FLOAT32)
                    ((float *)out->data)[o] = (float)v;
                else
                    ((double *)out->data)[o] = v;
            }
            /* advance the file-order index (fastest = last dimension) */
            for (d = nd - 1; d > slow; d--) {
                if (++idx[d] < len[d])
                    break;
                idx[d] = 0;
            }
        }
    }
    st = check_plausible(ds, &u, t, k0, j0, i0, out);
done:
    read_cache(ds, 0, slow, start, len);
    if (!direct)
        free(buf);
    if (st)
        ps_field_free(out);
    return st;
}

/*
 * Values no sea temperature can have (|T| > PS_PLAUSIBLE_TEMP degC) in a file
 * that cannot vouch for its data: no checksum on the variable (classic files,
 * netCDF-4 written without Fletcher32) and no valid_min/valid_max/valid_range
 * (with them, CF's rule applies: values outside are missing). Such a value is
 * what a damaged data block reads as (-1.18e29 degC), so the read is refused,
 * naming the first cell, rather than run. Infinities are left to the caller
 * (run refuses or keeps them, --keep-nonfinite); variables whose units are not
 * a temperature are not judged.
 */
#define PS_PLAUSIBLE_TEMP 1000.0

/*
 * A sea temperature (by standard_name or name) with no units attribute is
 * read as degC; a value above PS_UNITLESS_MAX_DEGC there (no liquid sea water
 * is that warm) is a kelvin field that lost its units (271..305 K), which
 * would run and be labelled as degC: refused, naming the first such cell
 * and the fix.
 */
#define PS_UNITLESS_MAX_DEGC 100.0
static int check_unitless(const ps_dataset *ds, const ps_field *f, size_t k0, size_t j0,
                          size_t i0)
{
    const ps_grid *g = &f->grid;
    const char *sn = attr_text(&ds->var_attrs, "standard_name");
    size_t n = g->nx * g->ny * g->nz, c;
    if (ps_attr_find(&ds->var_attrs, "units") ||
        !(text_is(sn, temp_std_names, 0) || in_list(ds->var_name, temp_common_names, 0)))
        return PS_OK;
    for (c = 0; c < n; c++) {
        double v = f->precision == PS_FLOAT64 ? ((const double *)f->data)[c]
                                              : (double)((const float *)f->data)[c];
        if (isfinite(v) && v > PS_UNITLESS_MAX_DEGC)
            return ps_error(PS_EINVAL,
                            "%s: '%s' has no units attribute and holds %g (level %zu, row %zu, "
                            "column %zu): read as degC no sea water is above %g degC, so these "
                            "look like kelvin; give '%s' its units (ncatted -a units,%s,c,c,K "
                            "%s) and pstencil converts them",
                            ds->path, ds->var_name, v, k0 + c / (g->nx * g->ny),
                            j0 + c / g->nx % g->ny, i0 + c % g->nx, PS_UNITLESS_MAX_DEGC,
                            ds->var_name, ds->var_name, ds->path);
    }
    return PS_OK;
}
static int check_plausible(const ps_dataset *ds, const unpack *u, size_t t, size_t k0,
                           size_t j0, size_t i0, const ps_field *f)
{
    const ps_grid *g = &f->grid;
    size_t n = g->nx * g->ny * g->nz, c, bad = 0, first = 0;
    double v;
    ps_unit un = {.kind = PS_UNIT_TEMPERATURE, .scale = 1}; /* no units: degC */
    int st;
    if ((st = check_unitless(ds, f, k0, j0, i0)))
        return st;
    if (u->has_vmin || u->has_vmax || has_checksum(ds->ncid, ds->varid))
        return PS_OK;
    if (ds->units[0] && (ps_unit_parse(ds->units, &un) || un.kind != PS_UNIT_TEMPERATURE))
        return PS_OK;
    for (c = 0; c < n; c++) {
        v = f->precision == PS_FLOAT64 ? ((const double *)f->data)[c]
                                       : (double)((const float *)f->data)[c];
        if (isfinite(v) && fabs(v * un.scale + un.offset) > PS_PLAUSIBLE_TEMP && !bad++)
            first = c;
    }
    if (!bad)
        return PS_OK;
    v = f->precision == PS_FLOAT64 ? ((const double *)f->data)[first]
                                   : (double)((const float *)f->data)[first];
    return ps_error(PS_ERANGE,
                    "%s: '%s' (time %zu) holds %zu value%s no sea temperature can have (first "
                    "at level %zu, row %zu, column %zu: %g %s; more than %g degC from 0): the "
                    "data looks corrupted, and the file has no checksum to tell. If the values "
                    "are right, give '%s' valid_min and valid_max attributes that cover them "
                    "(values outside those are then missing, as CF says)",
                    ds->path, ds->var_name, t, bad, bad == 1 ? "" : "s",
                    k0 + first / (g->nx * g->ny), j0 + first / g->nx % g->ny, i0 + first % g->nx, v,
                    ds->units[0] ? ds->units : "(no units)", PS_PLAUSIBLE_TEMP, ds->var_name);
}

int ps_dataset_read(ps_dataset *ds, size_t t, ps_precision p, ps_field *out)
{
    return read_block(ds, t, 0, ds->grid.nz, 0, ds->grid.ny, 0, ds->grid.nx, p, out);
}

int ps_dataset_read_level(ps_dataset *ds, size_t t, size_t k, ps_precision p, ps_field *out)
{
    return read_block(ds, t, k, 1, 0, ds->grid.ny, 0, ds->grid.nx, p, out);
}

int ps_dataset_read_region(ps_dataset *ds, size_t t, const size_t start[3],
                           const size_t count[3], ps_precision p, ps_field *out)
{
    return read_block(ds, t, start[0], count[0], start[1], count[1], start[2], count[2], p,
                      out);
}
