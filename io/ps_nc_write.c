/* NetCDF writing: a CF-1.8 netCDF-4 (classic model) file, written to a
 * temporary file in the output's directory and renamed into place on commit. */
#include "config.h"
#include "ps_io.h"
#include "ps_nc_internal.h"
#include "ps_outfile.h"
#include "ps_status.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
    int var_id, time_id, step_id, mtime_id;
    double fill;           /* value land (NaN) is written as */
    int fill_is_nan;
    int tmp_slot;          /* signal-cleanup slot of tmp (core/ps_outfile.h) */
    void *slab;            /* one horizontal slab with NaN replaced by the fill */
};

/* ---------------------------------------------------------- path checking */

static int dir_of(const char *path, char *dir, size_t n)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(dir, n, "%s", dirname(tmp));
    return PS_OK;
}

static int check_output_path(const char *out, const char *in, int force)
{
    struct stat so, si, sd;
    char dir[4096];
    if (!out || !*out)
        return ps_error(PS_EINVAL, "no output file given");
    if (stat(out, &so) == 0) {
        if (in && *in && stat(in, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino)
            return ps_error(PS_EINVAL,
                            "output %s is the input file %s; pstencil never overwrites its "
                            "input: choose another output with -o",
                            out, in);
        if (S_ISDIR(so.st_mode))
            return ps_error(PS_EIO, "output %s is a directory", out);
        if (!force)
            return ps_error(PS_EEXIST, "output %s exists; use --force to overwrite it", out);
    }
    dir_of(out, dir, sizeof dir);
    if (stat(dir, &sd) != 0)
        return ps_error(PS_EIO, "cannot write %s: directory %s: %s", out, dir, strerror(errno));
    if (!S_ISDIR(sd.st_mode))
        return ps_error(PS_EIO, "cannot write %s: %s is not a directory", out, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return ps_error(PS_EIO, "cannot write %s: directory %s is not writable: %s", out, dir,
                        strerror(errno));
    return PS_OK;
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
        if (is_var == 2) { /* coordinate variable */
            if (!strcmp(a->name, "bounds") || !strcmp(a->name, "missing_value"))
                continue;
            if (!strcmp(a->name, "valid_min") || !strcmp(a->name, "valid_max") ||
                !strcmp(a->name, "valid_range") || !strcmp(a->name, "actual_range"))
                as = coord_type;
        }
        if (is_var == 0 && (!strcmp(a->name, "history") || !strcmp(a->name, "Conventions") ||
                            !strcmp(a->name, "source")))
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

/* -------------------------------------------------------------------- open */

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
    w->dt = opt->dt;
    w->keep_time = opt->keep_time;
    w->precision = opt->precision;
    snprintf(w->path, sizeof w->path, "%s", opt->path);

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
        snprintf(w->history, n, "%s%s%s%s%s", old,
                 *old && old[strlen(old) - 1] != '\n' ? "\n" : "",
                 opt->reproducible ? "" : stamp, opt->reproducible ? "" : ": ", line);
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
    }

    /* the temporary file: .NAME.tmp.XXXXXX next to the output */
    dir_of(opt->path, dir, sizeof dir);
    snprintf(tmpb, sizeof tmpb, "%s", opt->path);
    snprintf(base, sizeof base, "%s", basename(tmpb));
    if ((size_t)snprintf(w->tmp, sizeof w->tmp, "%s/.%s.tmp.XXXXXX", dir, base) >= sizeof w->tmp) {
        st = ps_error(PS_EINVAL, "output path %s is too long", opt->path);
        goto fail;
    }
    fd = mkstemp(w->tmp);
    if (fd < 0) {
        st = ps_error(PS_EIO, "cannot create a temporary file in %s: %s", dir, strerror(errno));
        w->tmp[0] = '\0';
        goto fail;
    }
    close(fd);
    w->tmp_slot = ps_tempfile_register(w->tmp);
    {
        int rc = nc_create(w->tmp, NC_CLOBBER | NC_NETCDF4 | NC_CLASSIC_MODEL, &w->ncid);
        if (rc) {
            w->ncid = -1;
            st = ps_error(PS_EIO, "cannot create %s: %s", w->tmp, nc_strerror(rc));
            goto fail;
        }
    }
    *wp = w;
    return PS_OK;
fail:
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
        if ((st = copy_attrs(w, *varid, &ax->attrs, 2, t)))
            return st;
    } else {
        /* no coordinate variable in the source: index values, named by role */
        static const char *const ln[4] = {"time index", "depth level index",
                                          "latitude index", "longitude index"};
        static const char *const axn[4] = {"T", "Z", "Y", "X"};
        if ((st = put_text(w, *varid, "long_name", ln[role])) ||
            (st = put_text(w, *varid, "axis", axn[role])))
            return st;
        if (role == PS_AXIS_DEPTH && (st = put_text(w, *varid, "positive", "down")))
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

static int define(ps_writer *w, const ps_grid *g)
{
    int rc, st, dims[4], cv[4], a;
    size_t lens[4] = {NC_UNLIMITED, g->nz, g->ny, g->nx};
    size_t chunk[4] = {1, 1, g->ny, g->nx};
    const char *vname = w->have_src && w->src.var_name[0] ? w->src.var_name : "thetao";
    nc_type vt = w->precision == PS_FLOAT64 ? NC_DOUBLE : NC_FLOAT;
    const ps_attr *fa;

    w->grid = *g;
    for (a = 0; a < 4; a++) {
        const char *dn = gen_dim_names[a];
        if (a > 0 && w->have_src && w->src.axes[a].present && w->src.axes[a].dim_name[0] &&
            w->src.axes[a].len == lens[a])
            dn = w->src.axes[a].dim_name;
        if ((rc = nc_def_dim(w->ncid, dn, lens[a], &dims[a])))
            return nc_fail(w, rc, dn);
    }
    /* time = the step number; model_time = step * dt in seconds when dt > 0 */
    if ((rc = nc_def_var(w->ncid, "time", NC_DOUBLE, 1, &dims[0], &w->time_id)))
        return nc_fail(w, rc, "time");
    if (w->keep_time && w->have_src && w->src.axes[0].present) {
        if ((st = copy_attrs(w, w->time_id, &w->src.axes[0].attrs, 2, NC_DOUBLE)))
            return st;
    } else if ((st = put_text(w, w->time_id, "long_name", "model step")) ||
               (st = put_text(w, w->time_id, "axis", "T")) ||
               (st = put_text(w, w->time_id, "comment",
                              "number of diffusion steps taken from the input state "
                              "(dimensionless, hence no units attribute; see model_time "
                              "for seconds when a time step was given)")))
        return st;
    w->mtime_id = -1;
    if (w->dt > 0) {
        double dt = w->dt;
        if ((rc = nc_def_var(w->ncid, "model_time", NC_DOUBLE, 1, &dims[0], &w->mtime_id)))
            return nc_fail(w, rc, "model_time");
        if ((st = put_text(w, w->mtime_id, "long_name", "model time since the input state")) ||
            (st = put_text(w, w->mtime_id, "units", "s")))
            return st;
        if ((rc = nc_put_att_double(w->ncid, w->mtime_id, "dt", NC_DOUBLE, 1, &dt)))
            return nc_fail(w, rc, "dt");
    }
    for (a = 1; a < 4; a++)
        if ((st = define_coord(w, a, dims[a], lens[a], &cv[a])))
            return st;

    if ((rc = nc_def_var(w->ncid, vname, vt, 4, dims, &w->var_id)))
        return nc_fail(w, rc, vname);
    if ((rc = nc_def_var_chunking(w->ncid, w->var_id, NC_CHUNKED, chunk)))
        return nc_fail(w, rc, "chunking");
    if (w->compress > 0 &&
        (rc = nc_def_var_deflate(w->ncid, w->var_id, 1, 1, w->compress)))
        return nc_fail(w, rc, "deflate");
    /* fill: the input's float fill value if it had one, else 1e20 */
    w->fill = 1e20;
    fa = w->have_src ? ps_attr_find(&w->src.var_attrs, "_FillValue") : NULL;
    if (fa && fa->values && fa->len == 1 &&
        (w->src.var_nc_type == NC_FLOAT || w->src.var_nc_type == NC_DOUBLE) &&
        !(vt == NC_FLOAT && isfinite(fa->values[0]) && fabs(fa->values[0]) > 3.4e38))
        w->fill = fa->values[0];
    w->fill_is_nan = isnan(w->fill);
    if (vt == NC_FLOAT) {
        float f = (float)w->fill;
        if ((rc = nc_def_var_fill(w->ncid, w->var_id, 0, &f)))
            return nc_fail(w, rc, "_FillValue");
    } else {
        if ((rc = nc_def_var_fill(w->ncid, w->var_id, 0, &w->fill)))
            return nc_fail(w, rc, "_FillValue");
    }
    if (w->have_src && (st = copy_attrs(w, w->var_id, &w->src.var_attrs, 1, 0)))
        return st;
    {
        const ps_attr_list *va = w->have_src ? &w->src.var_attrs : NULL;
        if (!ps_attr_find(va, "units") && (st = put_text(w, w->var_id, "units", "degrees_C")))
            return st;
        if (!ps_attr_find(va, "long_name") &&
            (st = put_text(w, w->var_id, "long_name", "Sea water potential temperature")))
            return st;
        if (!ps_attr_find(va, "standard_name") &&
            (st = put_text(w, w->var_id, "standard_name", "sea_water_potential_temperature")))
            return st;
    }
    /* global attributes */
    if (w->have_src && (st = copy_attrs(w, NC_GLOBAL, &w->src.global_attrs, 0, 0)))
        return st;
    if ((st = put_text(w, NC_GLOBAL, "Conventions", "CF-1.8")) ||
        (st = put_text(w, NC_GLOBAL, "source", w->source)) ||
        (st = put_text(w, NC_GLOBAL, "history", w->history)))
        return st;
    if (w->have_src && w->src.path[0] && (st = put_text(w, NC_GLOBAL, "pstencil_input", w->src.path)))
        return st;
    if ((rc = nc_enddef(w->ncid)))
        return nc_fail(w, rc, "header");
    for (a = 1; a < 4; a++)
        if ((st = write_coord(w, a, cv[a], lens[a])))
            return st;
    w->slab = malloc(g->ny * g->nx * (vt == NC_DOUBLE ? sizeof(double) : sizeof(float)));
    if (!w->slab)
        return ps_error(PS_ENOMEM, "out of memory");
    w->defined = 1;
    return PS_OK;
}

/* ------------------------------------------------------------------ append */

int ps_writer_append(ps_writer *w, long step, const ps_field *field)
{
    size_t k, c, plane, start[4], count[4];
    int rc, st;
    double st_step = (double)step;
    if (!w || w->ncid < 0 || w->committed)
        return ps_error(PS_EINVAL, "writer is not open");
    if (!field || !field->data)
        return ps_error(PS_EINVAL, "no field to write");
    if (!w->defined) {
        if (w->have_src && w->src.grid.nz &&
            (w->src.grid.nz != field->grid.nz || w->src.grid.ny != field->grid.ny ||
             w->src.grid.nx != field->grid.nx)) {
            /* coordinates do not fit: write index coordinates instead */
            int a;
            for (a = 1; a < 4; a++)
                w->src.axes[a].present = 0;
        }
        if ((st = define(w, &field->grid)))
            return st;
    }
    if (field->grid.nz != w->grid.nz || field->grid.ny != w->grid.ny ||
        field->grid.nx != w->grid.nx)
        return ps_error(PS_EINVAL, "writing %s: field grid %zux%zux%zu differs from the file's "
                                   "%zux%zux%zu",
                        w->path, field->grid.nz, field->grid.ny, field->grid.nx, w->grid.nz,
                        w->grid.ny, w->grid.nx);
    plane = w->grid.ny * w->grid.nx;
    for (k = 0; k < w->grid.nz; k++) {
        start[0] = w->nrec, start[1] = k, start[2] = 0, start[3] = 0;
        count[0] = 1, count[1] = 1, count[2] = w->grid.ny, count[3] = w->grid.nx;
        if (w->precision == PS_FLOAT64) {
            double *o = w->slab;
            for (c = 0; c < plane; c++) {
                double v = field->precision == PS_FLOAT64
                               ? ((const double *)field->data)[k * plane + c]
                               : (double)((const float *)field->data)[k * plane + c];
                o[c] = isnan(v) ? w->fill : v;
            }
            rc = nc_put_vara_double(w->ncid, w->var_id, start, count, o);
        } else {
            float *o = w->slab, fill = (float)w->fill;
            for (c = 0; c < plane; c++) {
                float v = field->precision == PS_FLOAT32
                              ? ((const float *)field->data)[k * plane + c]
                              : (float)((const double *)field->data)[k * plane + c];
                o[c] = isnan(v) ? fill : v;
            }
            rc = nc_put_vara_float(w->ncid, w->var_id, start, count, o);
        }
        if (rc)
            return nc_fail(w, rc, "data");
    }
    start[0] = w->nrec;
    count[0] = 1;
    if (w->keep_time && w->have_src && w->src.axes[0].present && step >= 0 &&
        (size_t)step < w->src.axes[0].len && w->src.axes[0].values)
        st_step = w->src.axes[0].values[step];
    if ((rc = nc_put_vara_double(w->ncid, w->time_id, start, count, &st_step)))
        return nc_fail(w, rc, "time");
    if (w->mtime_id >= 0) {
        double mt = st_step * w->dt;
        if ((rc = nc_put_vara_double(w->ncid, w->mtime_id, start, count, &mt)))
            return nc_fail(w, rc, "model_time");
    }
    w->nrec++;
    return PS_OK;
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
    rc = nc_close(w->ncid);
    if (rc) {
        /* a failed close (a full disk) leaves the file open in HDF5: abort it so that
         * nothing is flushed at exit, and keep tmp for ps_writer_abort() to remove */
        nc_abort(w->ncid);
        w->ncid = -1;
        ps_close_failed = 1;
        return ps_error(PS_EIO, "writing %s: %s", w->path, nc_strerror(rc));
    }
    w->ncid = -1;
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
    if (w->tmp[0])
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
    free(w);
}
