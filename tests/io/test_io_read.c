/*
 * The NetCDF reader on files this test generates in every convention of
 * docs/file-conventions.md: variable found by --var, standard_name, common name or
 * temperature units; ambiguity; axes found by axis / standard_name / units /
 * positive / name; every dimension order; 3-D and 4-D; unlimited time;
 * _FillValue, missing_value (scalar, vector), valid_range, valid_min/max,
 * NaN, the default fill; packed byte/short/ushort with scale_factor and
 * add_offset; classic, 64-bit offset, CDF5 and netCDF-4; float and double
 * coordinates; positive=up and bottom-first depth. And the errors: missing,
 * not NetCDF, truncated, no variable, rank < 3, dimension < 3, time index out
 * of range, several candidates.
 */
#include "config.h"
#include "pstencil_io.h"
#include "../ps_test.h"
#include "ps_io_test.h"

#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>


enum { NT = 3, NZ = 4, NY = 5, NX = 6 };
static const int role_len[4] = {NT, NZ, NY, NX};
static const char *const role_dim[4] = {"time", "depth", "lat", "lon"};

enum miss_style { M_FILL, M_MISS1, M_MISS2, M_RANGE, M_MINMAX, M_NAN, M_DEFAULT };
enum axis_style { A_AXIS, A_STDNAME, A_UNITS, A_NOCOORD };

typedef struct spec {
    int format;         /* NC_FORMAT_* */
    int rank;           /* 3 or 4 */
    int order[4];       /* roles in file order (rank entries) */
    int unlimited;      /* time unlimited */
    nc_type vtype;      /* NC_FLOAT, NC_DOUBLE, NC_SHORT, NC_BYTE, NC_USHORT */
    nc_type ctype;      /* coordinate type */
    int miss;           /* enum miss_style */
    int axes;           /* enum axis_style */
    int depth_up;       /* positive="up", negative heights (2: negative, no positive) */
    int depth_bottom_first; /* depth stored deepest first */
    const char *name;   /* variable name */
    const char *stdname;/* standard_name or NULL */
    const char *units;  /* units or NULL */
    const char *extra;  /* a second variable with the same standard_name (ambiguity) */
} spec;

static double ref(int t, int k, int j, int i)
{
    return 10.0 + t + 0.5 * k + 0.25 * j + 0.125 * i;
}

static int is_land(int k, int j, int i)
{
    return (i == 0 && j == 0) || (k == 3 && i > 3) || (k == 2 && j == 4 && i == 5);
}

/* packing used for integer types */
static void packing(nc_type t, double *scale, double *off)
{
    if (t == NC_BYTE) {
        *scale = 0.0625;
        *off = 13.0;
    } else if (t == NC_USHORT) {
        *scale = 0.001;
        *off = 0.0;
    } else {
        *scale = 0.001;
        *off = 10.0;
    }
}

static double pack_raw(nc_type t, double v)
{
    double s, o;
    packing(t, &s, &o);
    return floor((v - o) / s + 0.5);
}

static double land_raw(const spec *s, int k, int j, int i)
{
    int packed = s->vtype != NC_FLOAT && s->vtype != NC_DOUBLE;
    switch (s->miss) {
    case M_FILL: return packed ? (s->vtype == NC_BYTE ? -128 : s->vtype == NC_USHORT ? 65535 : -32767) : -999.0;
    case M_MISS1: return -999.0;
    case M_MISS2: return ((k + j + i) % 2) ? -998.0 : -999.0;
    case M_RANGE: return ((k + j + i) % 2) ? 1000.0 : -1000.0;
    case M_MINMAX: return ((k + j + i) % 2) ? 100.0 : -100.0;
    case M_NAN: return NAN;
    default: return s->vtype == NC_DOUBLE ? NC_FILL_DOUBLE : NC_FILL_FLOAT;
    }
}

static void put_text(int nc, int v, const char *n, const char *t)
{
    NCX(nc_put_att_text(nc, v, n, strlen(t), t));
}

static void make_file(const char *path, const spec *s)
{
    int nc, dims[4] = {-1, -1, -1, -1}, vd[4], var, r, d, cmode;
    size_t total = 1, c;
    double *buf;
    switch (s->format) {
    case NC_FORMAT_CLASSIC: cmode = NC_CLOBBER; break;
    case NC_FORMAT_64BIT_OFFSET: cmode = NC_CLOBBER | NC_64BIT_OFFSET; break;
    case NC_FORMAT_CDF5: cmode = NC_CLOBBER | NC_CDF5; break;
    default: cmode = NC_CLOBBER | NC_NETCDF4; break;
    }
    NCX(nc_create(path, cmode, &nc));
    for (d = 0; d < s->rank; d++) {
        r = s->order[d];
        NCX(nc_def_dim(nc, role_dim[r], (r == 0 && s->unlimited) ? NC_UNLIMITED : (size_t)role_len[r], &dims[r]));
    }
    for (d = 0; d < s->rank; d++) {
        int cv;
        r = s->order[d];
        vd[d] = dims[r];
        if (s->axes == A_NOCOORD)
            continue;
        NCX(nc_def_var(nc, role_dim[r], r == 0 ? NC_DOUBLE : s->ctype, 1, &dims[r], &cv));
        if (s->axes == A_AXIS) {
            static const char *const ax[4] = {"T", "Z", "Y", "X"};
            put_text(nc, cv, "axis", ax[r]);
        } else if (s->axes == A_STDNAME) {
            static const char *const sn[4] = {"time", "depth", "latitude", "longitude"};
            put_text(nc, cv, "standard_name", sn[r]);
        } else {
            static const char *const un[4] = {"days since 2000-01-01", "m", "degrees_north", "degrees_east"};
            put_text(nc, cv, "units", un[r]);
        }
        if (r == 1 && (s->axes == A_UNITS || s->depth_up == 1))
            put_text(nc, cv, "positive", s->depth_up ? "up" : "down");
    }
    NCX(nc_def_var(nc, s->name, s->vtype, s->rank, vd, &var));
    if (s->stdname)
        put_text(nc, var, "standard_name", s->stdname);
    if (s->units)
        put_text(nc, var, "units", s->units);
    put_text(nc, var, "long_name", "test temperature");
    if (s->vtype != NC_FLOAT && s->vtype != NC_DOUBLE) {
        double sc, of;
        packing(s->vtype, &sc, &of);
        NCX(nc_put_att_double(nc, var, "scale_factor", NC_FLOAT, 1, &sc));
        NCX(nc_put_att_double(nc, var, "add_offset", NC_FLOAT, 1, &of));
    }
    {
        double a[2];
        switch (s->miss) {
        case M_FILL:
            a[0] = land_raw(s, 0, 0, 0);
            NCX(nc_put_att_double(nc, var, "_FillValue", s->vtype, 1, a));
            break;
        case M_MISS1:
            a[0] = -999;
            NCX(nc_put_att_double(nc, var, "missing_value", s->vtype, 1, a));
            break;
        case M_MISS2:
            a[0] = -998, a[1] = -999;
            NCX(nc_put_att_double(nc, var, "missing_value", s->vtype, 2, a));
            break;
        case M_RANGE:
            a[0] = -5, a[1] = 50;
            NCX(nc_put_att_double(nc, var, "valid_range", s->vtype, 2, a));
            break;
        case M_MINMAX:
            a[0] = -5, a[1] = 50;
            NCX(nc_put_att_double(nc, var, "valid_min", s->vtype, 1, &a[0]));
            NCX(nc_put_att_double(nc, var, "valid_max", s->vtype, 1, &a[1]));
            break;
        default: break;
        }
    }
    if (s->extra) {
        int ev;
        NCX(nc_def_var(nc, s->extra, NC_FLOAT, s->rank, vd, &ev));
        put_text(nc, ev, "standard_name", s->stdname ? s->stdname : "sea_water_temperature");
    }
    put_text(nc, NC_GLOBAL, "history", "made by test_io_read");
    NCX(nc_enddef(nc));
    /* coordinates */
    if (s->axes != A_NOCOORD) {
        for (d = 0; d < s->rank; d++) {
            double v[8];
            int cv, n;
            r = s->order[d];
            n = role_len[r];
            for (c = 0; c < (size_t)n; c++) {
                if (r == 1) {
                    int kk = s->depth_bottom_first ? n - 1 - (int)c : (int)c;
                    v[c] = (s->depth_up ? -1.0 : 1.0) * (5.0 + 10.0 * kk);
                } else if (r == 2) {
                    v[c] = 50.0 + 0.1 * (double)c;
                } else if (r == 3) {
                    v[c] = -5.0 + 0.1 * (double)c;
                } else {
                    v[c] = (double)c;
                }
            }
            NCX(nc_inq_varid(nc, role_dim[r], &cv));
            {
                size_t st0 = 0, cnt = (size_t)n;
                NCX(nc_put_vara_double(nc, cv, &st0, &cnt, v));
            }
        }
    }
    /* data, in file order */
    for (d = 0; d < s->rank; d++)
        total *= (size_t)role_len[s->order[d]];
    buf = malloc(total * sizeof *buf);
    for (c = 0; c < total; c++) {
        int idx[4] = {0, 0, 0, 0};
        size_t rem = c;
        double v;
        for (d = s->rank - 1; d >= 0; d--) {
            r = s->order[d];
            idx[r] = (int)(rem % (size_t)role_len[r]);
            rem /= (size_t)role_len[r];
        }
        if (s->depth_bottom_first)
            idx[1] = NZ - 1 - idx[1];
        if (is_land(idx[1], idx[2], idx[3]))
            v = land_raw(s, idx[1], idx[2], idx[3]);
        else if (s->vtype == NC_FLOAT || s->vtype == NC_DOUBLE)
            v = ref(idx[0], idx[1], idx[2], idx[3]);
        else
            v = pack_raw(s->vtype, ref(idx[0], idx[1], idx[2], idx[3]));
        buf[c] = v;
    }
    {
        size_t st[4] = {0, 0, 0, 0}, cnt[4];
        for (d = 0; d < s->rank; d++)
            cnt[d] = (size_t)role_len[s->order[d]];
        if (s->vtype == NC_FLOAT) {
            float *f = malloc(total * sizeof *f);
            for (c = 0; c < total; c++)
                f[c] = (float)buf[c];
            NCX(nc_put_vara_float(nc, var, st, cnt, f));
            free(f);
        } else {
            NCX(nc_put_vara_double(nc, var, st, cnt, buf));
        }
    }
    free(buf);
    NCX(nc_close(nc));
}

/* Expected value at (t,k,j,i) in double (NaN for land). */
static double expected(const spec *s, int t, int k, int j, int i)
{
    double sc, of;
    if (is_land(k, j, i))
        return NAN;
    if (s->vtype == NC_FLOAT)
        return (double)(float)ref(t, k, j, i);
    if (s->vtype == NC_DOUBLE)
        return ref(t, k, j, i);
    packing(s->vtype, &sc, &of);
    /* the file stores scale/offset as float */
    sc = (double)(float)sc;
    of = (double)(float)of;
    return pack_raw(s->vtype, ref(t, k, j, i)) * sc + of;
}

static void check_read(const char *label, const char *path, const spec *s, const char *var)
{
    ps_dataset ds;
    ps_field f32, f64;
    int st, t, nt = s->rank == 4 ? NT : 1;
    ps_test_checks++;
    st = ps_dataset_open(&ds, path, var);
    if (st) {
        FAILF("%s: open: %s: %s", label, ps_strerror(st), ps_error_detail());
        return;
    }
    if (strcmp(ds.var_name, s->name))
        FAILF("%s: found variable '%s', expected '%s'", label, ds.var_name, s->name);
    if (ds.grid.nz != NZ || ds.grid.ny != NY || ds.grid.nx != NX || ds.ntime != (size_t)nt)
        FAILF("%s: grid %zux%zux%zu x %zu", label, ds.grid.nz, ds.grid.ny, ds.grid.nx, ds.ntime);
    if (s->axes != A_NOCOORD) {
        /* depth is surface first whatever the file's order */
        double d0 = ds.axes[PS_AXIS_DEPTH].values[0], d1 = ds.axes[PS_AXIS_DEPTH].values[1];
        if (fabs(d0) != 5.0 || fabs(d1) != 15.0)
            FAILF("%s: depth coordinate not surface first (%g, %g)", label, d0, d1);
        if (ds.axes[PS_AXIS_LAT].values[1] != (double)(s->ctype == NC_FLOAT ? (double)(float)50.1 : 50.1))
            FAILF("%s: latitude[1] = %.17g", label, ds.axes[PS_AXIS_LAT].values[1]);
    }
    if (s->rank == 4 && s->unlimited && !ds.axes[PS_AXIS_TIME].unlimited)
        FAILF("%s: time not reported unlimited", label);
    for (t = 0; t < nt; t++) {
        int k, j, i, bad = 0;
        if ((st = ps_dataset_read(&ds, (size_t)t, PS_FLOAT32, &f32)) ||
            (st = ps_dataset_read(&ds, (size_t)t, PS_FLOAT64, &f64))) {
            FAILF("%s: read t=%d: %s", label, t, ps_error_detail());
            break;
        }
        for (k = 0; k < NZ && !bad; k++)
            for (j = 0; j < NY && !bad; j++)
                for (i = 0; i < NX && !bad; i++) {
                    size_t c = ((size_t)k * NY + (size_t)j) * NX + (size_t)i;
                    double e = expected(s, t, k, j, i);
                    float g32 = ((float *)f32.data)[c];
                    double g64 = ((double *)f64.data)[c];
                    float e32 = (float)e;
                    if (isnan(e) ? !(isnan(g32) && isnan(g64))
                                 : (memcmp(&g32, &e32, 4) != 0 || g64 != (s->vtype == NC_FLOAT ? (double)e32 : e))) {
                        FAILF("%s: t=%d (k,j,i)=(%d,%d,%d): got %.9g / %.17g, expected %.17g", label, t,
                              k, j, i, (double)g32, g64, e);
                        bad = 1;
                    }
                }
        /* level by level (the streaming readers): the same values as the grid */
        for (k = 0; k < NZ && !bad; k++) {
            ps_field lv;
            size_t plane = (size_t)NY * NX;
            ps_test_checks++;
            if ((st = ps_dataset_read_level(&ds, (size_t)t, (size_t)k, PS_FLOAT64, &lv))) {
                FAILF("%s: read level %d t=%d: %s", label, k, t, ps_error_detail());
                break;
            }
            if (lv.grid.nz != 1 || memcmp(lv.data, (double *)f64.data + (size_t)k * plane,
                                          plane * sizeof(double))) {
                FAILF("%s: level %d of t=%d differs from the whole-grid read", label, k, t);
                bad = 1;
            }
            ps_field_free(&lv);
        }
        ps_field_free(&f32);
        ps_field_free(&f64);
    }
    /* one past the last time record */
    st = ps_dataset_read(&ds, (size_t)nt, PS_FLOAT32, &f32);
    if (st != PS_ERANGE)
        FAILF("%s: time index %d: got %s, expected PS_ERANGE", label, nt, ps_strerror(st));
    ps_dataset_close(&ds);
}

static void expect_open_error(const char *label, const char *path, const char *var, int want,
                              const char *needle)
{
    ps_dataset ds;
    int st = ps_dataset_open(&ds, path, var);
    ps_test_checks++;
    if (st != want)
        FAILF("%s: got %s (%s), expected %s", label, ps_strerror(st), ps_error_detail(),
              ps_strerror(want));
    else if (needle && !strstr(ps_error_detail(), needle))
        FAILF("%s: message '%s' does not mention '%s'", label, ps_error_detail(), needle);
    else
        printf("ok: %s: %s\n", label, ps_error_detail());
    if (st == PS_OK)
        ps_dataset_close(&ds);
}

static spec base(void)
{
    spec s;
    memset(&s, 0, sizeof s);
    s.format = NC_FORMAT_NETCDF4;
    s.rank = 4;
    s.order[0] = 0, s.order[1] = 1, s.order[2] = 2, s.order[3] = 3;
    s.unlimited = 1;
    s.vtype = NC_FLOAT;
    s.ctype = NC_FLOAT;
    s.miss = M_FILL;
    s.axes = A_AXIS;
    s.name = "thetao";
    s.stdname = "sea_water_potential_temperature";
    s.units = "degC";
    return s;
}

int main(void)
{
    char dir[] = "/tmp/pstencil-io-read.XXXXXX", path[512], label[256];
    spec s;
    int f, m, a, p;
    static const int formats[4] = {NC_FORMAT_CLASSIC, NC_FORMAT_64BIT_OFFSET, NC_FORMAT_CDF5,
                                   NC_FORMAT_NETCDF4};
    static const char *const fname[4] = {"classic", "64bit-offset", "cdf5", "netcdf4"};
    static const int perms4[][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {0, 2, 1, 3}, {2, 0, 3, 1},
                                    {1, 3, 0, 2}};
    static const int perms3[][4] = {{1, 2, 3}, {3, 2, 1}, {2, 1, 3}, {3, 1, 2}};

    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }

    /* every format x missing-data style, float and double data and coordinates */
    for (f = 0; f < 4; f++)
        for (m = M_FILL; m <= M_DEFAULT; m++) {
            s = base();
            s.format = formats[f];
            s.miss = m;
            s.vtype = (m % 2) ? NC_DOUBLE : NC_FLOAT;
            s.ctype = (m % 3) ? NC_DOUBLE : NC_FLOAT;
            s.unlimited = f % 2;
            snprintf(path, sizeof path, "%s/fmt%d_miss%d.nc", dir, f, m);
            make_file(path, &s);
            snprintf(label, sizeof label, "%s, missing style %d, %s data", fname[f], m,
                     s.vtype == NC_DOUBLE ? "double" : "float");
            check_read(label, path, &s, NULL);
        }
    /* packed integers (short, byte with _FillValue; ushort needs netCDF-4 or CDF5) */
    for (f = 0; f < 4; f++) {
        nc_type types[3] = {NC_SHORT, NC_BYTE, NC_USHORT};
        int ti;
        for (ti = 0; ti < 3; ti++) {
            if (types[ti] == NC_USHORT && (formats[f] == NC_FORMAT_CLASSIC || formats[f] == NC_FORMAT_64BIT_OFFSET))
                continue;
            for (m = M_FILL; m <= M_MISS1; m++) {
                if (types[ti] != NC_SHORT && m != M_FILL)
                    continue; /* -999 does not fit a byte or ushort */
                s = base();
                s.format = formats[f];
                s.vtype = types[ti];
                s.miss = m;
                snprintf(path, sizeof path, "%s/packed%d_%d_%d.nc", dir, f, ti, m);
                make_file(path, &s);
                snprintf(label, sizeof label, "%s, packed type %d, missing style %d", fname[f],
                         (int)types[ti], m);
                check_read(label, path, &s, NULL);
            }
        }
    }
    /* dimension orders, 4-D and 3-D, each axis style */
    for (p = 0; p < 5; p++)
        for (a = A_AXIS; a <= A_NOCOORD; a++) {
            s = base();
            memcpy(s.order, perms4[p], sizeof s.order);
            s.axes = a;
            s.unlimited = p % 2;
            s.format = p % 2 ? NC_FORMAT_NETCDF4 : NC_FORMAT_CLASSIC;
            if (s.unlimited && s.format == NC_FORMAT_CLASSIC && s.order[0] != 0)
                s.unlimited = 0; /* classic: the unlimited dimension must come first */
            if (s.unlimited && s.format != NC_FORMAT_NETCDF4 && s.order[0] != 0)
                s.unlimited = 0;
            snprintf(path, sizeof path, "%s/perm4_%d_%d.nc", dir, p, a);
            make_file(path, &s);
            snprintf(label, sizeof label, "4-D order %d%d%d%d, axis style %d", s.order[0],
                     s.order[1], s.order[2], s.order[3], a);
            check_read(label, path, &s, NULL);
        }
    for (p = 0; p < 4; p++) {
        s = base();
        s.rank = 3;
        memcpy(s.order, perms3[p], sizeof s.order);
        s.axes = p % 3;
        snprintf(path, sizeof path, "%s/perm3_%d.nc", dir, p);
        make_file(path, &s);
        snprintf(label, sizeof label, "3-D order %d%d%d", s.order[0], s.order[1], s.order[2]);
        check_read(label, path, &s, NULL);
    }
    /* depth: positive=up heights; stored bottom first */
    s = base();
    s.depth_up = 1;
    s.axes = A_STDNAME;
    snprintf(path, sizeof path, "%s/up.nc", dir);
    make_file(path, &s);
    check_read("positive=up depth", path, &s, NULL);
    s.depth_up = 2;
    snprintf(path, sizeof path, "%s/negative.nc", dir);
    make_file(path, &s);
    check_read("negative depths without positive", path, &s, NULL);
    s = base();
    s.depth_bottom_first = 1;
    s.order[0] = 3, s.order[1] = 1, s.order[2] = 0, s.order[3] = 2;
    s.unlimited = 0;
    snprintf(path, sizeof path, "%s/bottomfirst.nc", dir);
    make_file(path, &s);
    check_read("depth stored bottom first, order lon,depth,time,lat", path, &s, NULL);

    /* variable discovery */
    s = base();
    s.name = "votemper";
    s.stdname = NULL;
    s.units = NULL;
    snprintf(path, sizeof path, "%s/common.nc", dir);
    make_file(path, &s);
    check_read("by common name votemper", path, &s, NULL);
    s = base();
    s.name = "sst3d";
    s.stdname = NULL;
    s.units = "degrees_Celsius";
    snprintf(path, sizeof path, "%s/units.nc", dir);
    make_file(path, &s);
    check_read("by temperature units", path, &s, NULL);
    s = base();
    s.name = "potemp";
    s.stdname = "sea_water_conservative_temperature";
    s.units = NULL;
    snprintf(path, sizeof path, "%s/stdname.nc", dir);
    make_file(path, &s);
    check_read("by standard_name (conservative temperature)", path, &s, NULL);
    s = base();
    s.name = "mytemp";
    s.stdname = NULL;
    s.units = NULL;
    s.extra = NULL;
    snprintf(path, sizeof path, "%s/byvar.nc", dir);
    make_file(path, &s);
    check_read("by --var", path, &s, "mytemp");
    expect_open_error("no temperature variable", path, NULL, PS_ENOVAR, "mytemp");
    expect_open_error("--var of a missing variable", path, "nosuch", PS_ENOVAR, "nosuch");
    s = base();
    s.extra = "thetao_analysis";
    snprintf(path, sizeof path, "%s/ambig.nc", dir);
    make_file(path, &s);
    expect_open_error("two candidates", path, NULL, PS_EAMBIG, "thetao, thetao_analysis");
    {
        spec s2 = s;
        s2.name = "thetao";
        check_read("ambiguity resolved by --var", path, &s2, "thetao");
    }

    /* bad inputs */
    snprintf(path, sizeof path, "%s/nosuchfile.nc", dir);
    expect_open_error("missing file", path, NULL, PS_EIO, "No such file");
    snprintf(path, sizeof path, "%s/text.nc", dir);
    {
        FILE *tf = fopen(path, "w");
        fputs("this is not a NetCDF file, just some text that is long enough\n", tf);
        fclose(tf);
    }
    expect_open_error("not NetCDF", path, NULL, PS_EFORMAT, "not a NetCDF file");
    snprintf(path, sizeof path, "%s/empty.nc", dir);
    fclose(fopen(path, "w"));
    expect_open_error("empty file", path, NULL, PS_EFORMAT, "empty");
    for (f = 0; f < 3; f++) {
        long len;
        FILE *tf;
        s = base();
        s.format = formats[f];
        s.unlimited = f != 1;
        snprintf(path, sizeof path, "%s/trunc%d.nc", dir, f);
        make_file(path, &s);
        tf = fopen(path, "rb");
        fseek(tf, 0, SEEK_END);
        len = ftell(tf);
        fclose(tf);
        if (truncate(path, len - 100) != 0)
            perror("truncate");
        snprintf(label, sizeof label, "truncated %s file", fname[f]);
        expect_open_error(label, path, NULL, PS_ETRUNC, "truncated");
        if (truncate(path, 40) != 0)
            perror("truncate");
        snprintf(label, sizeof label, "%s file truncated inside its header", fname[f]);
        expect_open_error(label, path, NULL, PS_ETRUNC, "truncated");
    }
    {
        int nc, d2[2], v;
        snprintf(path, sizeof path, "%s/rank2.nc", dir);
        NCX(nc_create(path, NC_CLOBBER, &nc));
        NCX(nc_def_dim(nc, "lat", 5, &d2[0]));
        NCX(nc_def_dim(nc, "lon", 6, &d2[1]));
        NCX(nc_def_var(nc, "thetao", NC_FLOAT, 2, d2, &v));
        NCX(nc_close(nc));
        expect_open_error("rank 2", path, NULL, PS_EDIM, "rank 2");
    }
    {
        int nc, d3[3], v;
        snprintf(path, sizeof path, "%s/small.nc", dir);
        NCX(nc_create(path, NC_CLOBBER, &nc));
        NCX(nc_def_dim(nc, "depth", 4, &d3[0]));
        NCX(nc_def_dim(nc, "lat", 2, &d3[1]));
        NCX(nc_def_dim(nc, "lon", 6, &d3[2]));
        NCX(nc_def_var(nc, "thetao", NC_FLOAT, 3, d3, &v));
        NCX(nc_close(nc));
        expect_open_error("dimension of size 2", path, NULL, PS_EDIM, "size 2");
    }
    {
        int nc, d3[3], v;
        snprintf(path, sizeof path, "%s/unknownaxis.nc", dir);
        NCX(nc_create(path, NC_CLOBBER, &nc));
        NCX(nc_def_dim(nc, "depth", 4, &d3[0]));
        NCX(nc_def_dim(nc, "n1", 5, &d3[1]));
        NCX(nc_def_dim(nc, "lon", 6, &d3[2]));
        NCX(nc_def_var(nc, "thetao", NC_FLOAT, 3, d3, &v));
        NCX(nc_close(nc));
        expect_open_error("unidentifiable axis", path, NULL, PS_EDIM, "n1");
    }
    {
        /* grid too large for memory: a huge netCDF-4 variable (nothing written) */
        int nc, d4[4], v;
        ps_dataset ds;
        ps_field fld;
        int st;
        snprintf(path, sizeof path, "%s/huge.nc", dir);
        NCX(nc_create(path, NC_CLOBBER | NC_NETCDF4, &nc));
        NCX(nc_def_dim(nc, "time", 1, &d4[0]));
        NCX(nc_def_dim(nc, "depth", 100000, &d4[1]));
        NCX(nc_def_dim(nc, "lat", 1000000, &d4[2]));
        NCX(nc_def_dim(nc, "lon", 1000000, &d4[3]));
        NCX(nc_def_var(nc, "thetao", NC_FLOAT, 4, d4, &v));
        {
            size_t ch[4] = {1, 1, 100, 100};
            NCX(nc_def_var_chunking(nc, v, NC_CHUNKED, ch));
        }
        NCX(nc_close(nc));
        ps_test_checks++;
        /* declared data far beyond the file: refused at open, nothing read */
        st = ps_dataset_open(&ds, path, NULL);
        if (st != PS_ETRUNC || !strstr(ps_error_detail(), "never written"))
            FAILF("huge: open: got %s (%s), expected PS_ETRUNC", ps_strerror(st),
                  ps_error_detail());
        else
            printf("ok: declared data beyond the file: %s\n", ps_error_detail());
        if (!st) {
            if (ps_dataset_read(&ds, 0, PS_FLOAT32, &fld) == PS_OK)
                ps_field_free(&fld);
            ps_dataset_close(&ds);
        }
    }
    {
        /* the memory check: names every buffer it counts, and under RLIMIT_AS
         * uses that limit rather than the machine's memory */
        ps_dataset ds;
        pid_t pid;
        int wst = 0;
        memset(&ds, 0, sizeof ds);
        ds.ncid = -1;
        snprintf(ds.path, sizeof ds.path, "mem.nc");
        ds.grid.nz = 100000, ds.grid.ny = 100000, ds.grid.nx = 1000; /* 4e13 bytes */
        ps_test_checks++;
        if (ps_dataset_check_memory(&ds, PS_FLOAT32, 3) != PS_ENOMEM ||
            !strstr(ps_error_detail(), "input field, working copy and output field"))
            FAILF("memory check: %s", ps_error_detail());
        ds.grid.nz = ds.grid.ny = ds.grid.nx = (size_t)1 << 22; /* 2^66 cells */
        ps_test_checks++;
        if (ps_dataset_check_memory(&ds, PS_FLOAT32, 3) != PS_ENOMEM ||
            !strstr(ps_error_detail(), "too large to address"))
            FAILF("memory check accepts an overflowing grid: %s", ps_error_detail());
        ds.grid.nz = 100, ds.grid.ny = 1000, ds.grid.nx = 1000; /* 4e8 bytes a field */
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            struct rlimit rl;
            rl.rlim_cur = rl.rlim_max = (rlim_t)1 << 30; /* less than 3 fields + the process */
            if (setrlimit(RLIMIT_AS, &rl))
                _exit(3);
            if (ps_dataset_check_memory(&ds, PS_FLOAT32, 3) != PS_ENOMEM ||
                !strstr(ps_error_detail(), "RLIMIT_AS")) {
                fprintf(stderr, "RLIMIT_AS not used: %s\n", ps_error_detail());
                _exit(1);
            }
            printf("ok: memory check under RLIMIT_AS: %s\n", ps_error_detail());
            fflush(stdout);
            _exit(0);
        }
        ps_test_checks++;
        if (pid < 0 || waitpid(pid, &wst, 0) != pid || !WIFEXITED(wst) || WEXITSTATUS(wst))
            FAILF("memory check under RLIMIT_AS (child status %d)", wst);
    }

    {
        /* valid_min in unpacked units (float on a short variable); _Unsigned bytes;
         * an unlimited time dimension with no records */
        int nc, d4[4], v, k;
        short raw[27];
        signed char braw[27];
        float sc = 0.5f, of = 10.0f, vmin = 11.0f, bsc = 0.1f;
        ps_dataset ds;
        ps_field fld;
        int st;
        for (k = 0; k < 27; k++)
            raw[k] = (short)(k % 3 == 0 ? 0 : 4 + k), braw[k] = (signed char)(k == 5 ? -1 : k);
        snprintf(path, sizeof path, "%s/unpackedrange.nc", dir);
        NCX(nc_create(path, NC_CLOBBER, &nc));
        NCX(nc_def_dim(nc, "depth", 3, &d4[0]));
        NCX(nc_def_dim(nc, "lat", 3, &d4[1]));
        NCX(nc_def_dim(nc, "lon", 3, &d4[2]));
        NCX(nc_def_var(nc, "thetao", NC_SHORT, 3, d4, &v));
        NCX(nc_put_att_float(nc, v, "scale_factor", NC_FLOAT, 1, &sc));
        NCX(nc_put_att_float(nc, v, "add_offset", NC_FLOAT, 1, &of));
        NCX(nc_put_att_float(nc, v, "valid_min", NC_FLOAT, 1, &vmin));
        NCX(nc_enddef(nc));
        NCX(nc_put_var_short(nc, v, raw));
        NCX(nc_close(nc));
        ps_test_checks++;
        if ((st = ps_dataset_open(&ds, path, NULL)) || (st = ps_dataset_read(&ds, 0, PS_FLOAT64, &fld))) {
            FAILF("valid_min in unpacked units: %s", ps_error_detail());
        } else {
            for (k = 0; k < 27; k++) {
                double g = ((double *)fld.data)[k], e = k % 3 == 0 ? NAN : 10.0 + 0.5 * (4 + k);
                if (isnan(e) ? !isnan(g) : g != e) {
                    FAILF("valid_min in unpacked units: cell %d = %g, expected %g", k, g, e);
                    break;
                }
            }
            ps_field_free(&fld);
            ps_dataset_close(&ds);
        }
        snprintf(path, sizeof path, "%s/unsigned.nc", dir);
        NCX(nc_create(path, NC_CLOBBER, &nc));
        NCX(nc_def_dim(nc, "time", NC_UNLIMITED, &d4[0]));
        NCX(nc_def_dim(nc, "depth", 3, &d4[1]));
        NCX(nc_def_dim(nc, "lat", 3, &d4[2]));
        NCX(nc_def_dim(nc, "lon", 3, &d4[3]));
        NCX(nc_def_var(nc, "thetao", NC_BYTE, 3, &d4[1], &v));
        NCX(nc_put_att_text(nc, v, "_Unsigned", 4, "true"));
        NCX(nc_put_att_float(nc, v, "scale_factor", NC_FLOAT, 1, &bsc));
        NCX(nc_def_var(nc, "empty", NC_FLOAT, 4, d4, &k));
        NCX(nc_enddef(nc));
        NCX(nc_put_var_schar(nc, v, braw));
        NCX(nc_close(nc));
        ps_test_checks++;
        if ((st = ps_dataset_open(&ds, path, NULL)) || (st = ps_dataset_read(&ds, 0, PS_FLOAT32, &fld))) {
            FAILF("_Unsigned byte: %s", ps_error_detail());
        } else {
            float g = ((float *)fld.data)[5], g4 = ((float *)fld.data)[4];
            if (g != (float)(255 * (double)bsc) || g4 != (float)(4 * (double)bsc))
                FAILF("_Unsigned byte: got %g and %g, expected 25.5 and 0.4", (double)g, (double)g4);
            ps_field_free(&fld);
            ps_dataset_close(&ds);
        }
        ps_test_checks++;
        /* no records: its own message at open, never a range "0..2^64-1" */
        st = ps_dataset_open(&ds, path, "empty");
        if (st != PS_ERANGE || !strstr(ps_error_detail(), "has no time records") ||
            strstr(ps_error_detail(), "18446744073709551615"))
            FAILF("no records: %s (%s)", ps_strerror(st), ps_error_detail());
        if (!st)
            ps_dataset_close(&ds);
    }
    {
        /* a grid whose cell count overflows 64 bits: refused before any allocation */
        int nc, d3[3], v, rc;
        ps_dataset ds;
        ps_field fld;
        int st;
        snprintf(path, sizeof path, "%s/overflow.nc", dir);
        NCX(nc_create(path, NC_CLOBBER | NC_NETCDF4, &nc));
        NCX(nc_def_dim(nc, "depth", (size_t)1 << 22, &d3[0]));
        NCX(nc_def_dim(nc, "lat", (size_t)1 << 21, &d3[1]));
        NCX(nc_def_dim(nc, "lon", (size_t)1 << 21, &d3[2]));
        rc = nc_def_var(nc, "thetao", NC_FLOAT, 3, d3, &v);
        if (rc == NC_NOERR) {
            size_t ch[3] = {1, 16, 16};
            rc = nc_def_var_chunking(nc, v, NC_CHUNKED, ch);
        }
        nc_close(nc);
        if (rc == NC_NOERR) {
            ps_test_checks++;
            st = ps_dataset_open(&ds, path, NULL);
            if (st == PS_ENOMEM && strstr(ps_error_detail(), "too large to address")) {
                printf("ok: overflowing grid refused at open: %s\n", ps_error_detail());
            } else if (st) {
                FAILF("overflow: open: %s", ps_error_detail());
            } else {
                st = ps_dataset_read(&ds, 0, PS_FLOAT32, &fld);
                if (st != PS_ENOMEM || !strstr(ps_error_detail(), "too large to address"))
                    FAILF("overflowing grid: got %s (%s), expected PS_ENOMEM", ps_strerror(st),
                          ps_error_detail());
                else
                    printf("ok: overflowing grid: %s\n", ps_error_detail());
                if (ps_dataset_check_memory(&ds, PS_FLOAT32, 3) != PS_ENOMEM)
                    FAILF("ps_dataset_check_memory accepts an overflowing grid");
                ps_dataset_close(&ds);
            }
        } else {
            printf("skip: netCDF-4 refused a 2^64-cell variable (%s)\n", nc_strerror(rc));
        }
    }
    {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            printf("warning: could not remove %s\n", dir);
    }
    printf("%d checks, %d failures\n", ps_test_checks, ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
