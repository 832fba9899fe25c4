/*
 * Several field variables in one output (ps_writer_add_field(),
 * ps_writer_append_fields()): two and three fields written and read back
 * bitwise in float32 and float64, each with its own attributes and fill by
 * the first field's rules, the time written once a record; the reductions
 * of every field named after it; the refusals (a field added after an
 * append, the wrong count, a name in use, another grid, too many) leaving no
 * output; the parallel writer's path (one process). The built-in ocean's salinity `so`: written by gen beside thetao,
 * read back bitwise, thetao's bits unchanged (checksums of the ocean before
 * so existed).
 */
#include "config.h"
#include "pstencil_io.h"
#include "../ps_test.h"
#include "ps_io_test.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static char dir[] = "/tmp/pstencil-io-fields.XXXXXX";

static int tmp_files(void)
{
    return tmp_files_in(dir);
}

static int text_is(int nc, int v, const char *name, const char *want)
{
    char *s = get_text(nc, v, name);
    int ok = s && !strcmp(s, want);
    free(s);
    return ok;
}

/* The input: three variables over (time, lev, y, x) with the 2-D auxiliary
 * coordinate nav_lat(y, x) named by each `coordinates`: temperature (float,
 * fill -1e30), salinity (double, fill -999, no long_name nor standard_name)
 * and age (short, integer fill: the output's is 1e20). */
static void make_input(const char *path)
{
    int nc, d[4], c[4], vt, vs, va, vn;
    float fill = -1e30f;
    double sfill = -999;
    short afill = -1;
    nc = source_grid_begin(path, d, c, NULL);
    NCX(nc_def_var(nc, "nav_lat", NC_FLOAT, 2, &d[2], &vn));
    NCX(nc_put_att_text(nc, vn, "units", 13, "degrees_north"));
    NCX(nc_put_att_text(nc, vn, "standard_name", 8, "latitude"));
    NCX(nc_def_var(nc, "temperature", NC_FLOAT, 4, d, &vt));
    NCX(nc_put_att_text(nc, vt, "standard_name", 21, "sea_water_temperature"));
    NCX(nc_put_att_text(nc, vt, "units", 4, "degC"));
    NCX(nc_put_att_float(nc, vt, "_FillValue", NC_FLOAT, 1, &fill));
    NCX(nc_put_att_text(nc, vt, "coordinates", 7, "nav_lat"));
    NCX(nc_def_var(nc, "salinity", NC_DOUBLE, 4, d, &vs));
    NCX(nc_put_att_text(nc, vs, "units", 3, "PSU"));
    NCX(nc_put_att_double(nc, vs, "_FillValue", NC_DOUBLE, 1, &sfill));
    NCX(nc_put_att_double(nc, vs, "valid_min", NC_DOUBLE, 1, &sfill));
    NCX(nc_put_att_text(nc, vs, "coordinates", 7, "nav_lat"));
    NCX(nc_put_att_text(nc, vs, "comment", 9, "synthetic"));
    NCX(nc_def_var(nc, "age", NC_SHORT, 4, d, &va));
    NCX(nc_put_att_text(nc, va, "long_name", 9, "water age"));
    NCX(nc_put_att_text(nc, va, "units", 4, "days"));
    NCX(nc_put_att_short(nc, va, "_FillValue", NC_SHORT, 1, &afill));
    NCX(nc_put_att_text(nc, NC_GLOBAL, "history", 22, "2020-01-01: created it"));
    source_grid_end(nc, c);
    {
        float nl[20], tv[120];
        double sv[120];
        short av[120];
        size_t st[4] = {0, 0, 0, 0}, ct[4] = {2, 3, 4, 5};
        int i;
        for (i = 0; i < 20; i++)
            nl[i] = source_y[i / 5];
        for (i = 0; i < 120; i++) {
            int land = (i % 60) % 7 == 0;
            tv[i] = land ? fill : 1.0f / (float)(i + 3) + 10.0f;
            sv[i] = land ? sfill : 35.0 + (double)i / 97.0;
            av[i] = land ? afill : (short)(i * 3);
        }
        NCX(nc_put_var_float(nc, vn, nl));
        NCX(nc_put_vara_float(nc, vt, st, ct, tv));
        NCX(nc_put_vara_double(nc, vs, st, ct, sv));
        NCX(nc_put_vara_short(nc, va, st, ct, av));
    }
    NCX(nc_close(nc));
}

static const char *const names[3] = {"temperature", "salinity", "age"};

/* Bitwise equality of two fields of the same precision (NaN where NaN). */
static size_t differ(const ps_field *a, const ps_field *b)
{
    size_t n = ps_field_cells(a), c, bad = 0;
    if (a->precision != b->precision || ps_field_cells(b) != n)
        return n ? n : 1;
    for (c = 0; c < n; c++) {
        if (a->precision == PS_FLOAT32) {
            float x = ((const float *)a->data)[c], y = ((const float *)b->data)[c];
            bad += isnan(x) ? !isnan(y) : memcmp(&x, &y, sizeof x) != 0;
        } else {
            double x = ((const double *)a->data)[c], y = ((const double *)b->data)[c];
            bad += isnan(x) ? !isnan(y) : memcmp(&x, &y, sizeof x) != 0;
        }
    }
    return bad;
}

/* A writer on input @p in (its first field @p names[0]) with the fields
 * names[1 .. nf-1] added; the datasets left open in @p ds (NULL: closed). */
static ps_writer *open_writer(const char *in, const char *out, int nf, ps_precision prec,
                              int compress, ps_dataset *keep)
{
    ps_writer *w = NULL;
    ps_write_options o;
    ps_dataset local[3], *ds = keep ? keep : local;
    int i;
    memset(&o, 0, sizeof o);
    o.path = out;
    o.compress = compress;
    o.dt = 60.0;
    o.history = "test fields";
    o.precision = prec;
    for (i = 0; i < nf; i++)
        if (ps_dataset_open(&ds[i], in, names[i])) {
            FAILF("open %s: %s", names[i], ps_error_detail());
            return NULL;
        }
    if (ps_writer_open(&w, &ds[0], &o)) {
        FAILF("writer open: %s", ps_error_detail());
        return NULL;
    }
    for (i = 1; i < nf; i++)
        if (ps_writer_add_field(w, &ds[i])) {
            FAILF("add %s: %s", names[i], ps_error_detail());
            ps_writer_abort(w);
            w = NULL;
            break;
        }
    for (i = 0; !keep && i < nf; i++)
        ps_dataset_close(&ds[i]);
    return w;
}

/* Write @p nf fields (two records), read them back bitwise; attributes. */
static void test_round_trip(const char *in, int nf, ps_precision prec, int compress)
{
    ps_dataset ds[3];
    ps_field f[2][3];
    const ps_field *rec[3];
    ps_writer *w;
    char out[600];
    int i, r, nc, v;
    memset(f, 0, sizeof f);
    snprintf(out, sizeof out, "%s/fields_%d_%d_%d.nc", dir, nf, (int)prec, compress);
    w = open_writer(in, out, nf, prec, compress, ds);
    if (!w)
        return;
    CHECK(ps_writer_fields(w) == nf, "%d fields (%d)", nf, ps_writer_fields(w));
    for (r = 0; r < 2; r++)
        for (i = 0; i < nf; i++)
            if (ps_dataset_read(&ds[i], (size_t)r, prec, &f[r][i]))
                FAILF("read %s: %s", names[i], ps_error_detail());
    for (i = 0; i < nf; i++)
        ps_dataset_close(&ds[i]);
    for (r = 0; r < 2; r++) {
        for (i = 0; i < nf; i++)
            rec[i] = &f[r][i];
        CHECK(ps_writer_append_fields(w, r * 10, rec, nf) == PS_OK, "append %d: %s", r,
              ps_error_detail());
        CHECK(ps_writer_records(w) == (size_t)r + 1, "records counted (%zu)",
              ps_writer_records(w));
    }
    CHECK(ps_writer_commit(w) == PS_OK, "commit: %s", ps_error_detail());
    ps_writer_abort(w);
    CHECK(tmp_files() == 0, "no temporary file after commit");

    /* every field read back bitwise, by name */
    for (i = 0; i < nf; i++) {
        ps_dataset b;
        if (ps_dataset_open(&b, out, names[i])) {
            FAILF("reopen %s: %s", names[i], ps_error_detail());
            continue;
        }
        CHECK(b.ntime == 2, "%s: two records (%zu)", names[i], b.ntime);
        for (r = 0; r < 2; r++) {
            ps_field g;
            if (ps_dataset_read(&b, (size_t)r, prec, &g)) {
                FAILF("read back %s: %s", names[i], ps_error_detail());
                continue;
            }
            CHECK(differ(&f[r][i], &g) == 0, "%s record %d (%s, %d fields): %zu cells differ",
                  names[i], r, prec == PS_FLOAT32 ? "float32" : "float64", nf,
                  differ(&f[r][i], &g));
            ps_field_free(&g);
        }
        ps_dataset_close(&b);
    }
    /* the variable a reader finds without a name is still the first */
    {
        ps_dataset b;
        CHECK(ps_dataset_open(&b, out, NULL) == PS_OK && !strcmp(b.var_name, "temperature"),
              "automatic discovery finds temperature (%s)", ps_error_detail());
        ps_dataset_close(&b);
    }
    NCX(nc_open(out, NC_NOWRITE, &nc));
    {
        int tv, dim, nd, ids[4];
        size_t len, two = 2, zero = 0;
        double t[2];
        NCX(nc_inq_varid(nc, "time", &tv));
        NCX(nc_inq_vardimid(nc, tv, &dim));
        NCX(nc_inq_dimlen(nc, dim, &len));
        CHECK(len == 2, "the time dimension has one entry a record (%zu)", len);
        NCX(nc_get_vara_double(nc, tv, &zero, &two, t));
        CHECK(t[0] == 100 && fabs(t[1] - (100 + 10 * 60.0 / 3600)) < 1e-12,
              "times written once a record (%.17g, %.17g)", t[0], t[1]);
        for (i = 0; i < nf; i++) {
            nc_type ty;
            int sh, df, lvl, fl, storage;
            size_t ch[4];
            NCX(nc_inq_varid(nc, names[i], &v));
            NCX(nc_inq_var(nc, v, NULL, &ty, &nd, ids, NULL));
            CHECK(ty == (prec == PS_FLOAT32 ? NC_FLOAT : NC_DOUBLE) && nd == 4 && ids[0] == dim,
                  "%s: the first field's type over (time, ...)", names[i]);
            NCX(nc_inq_var_chunking(nc, v, &storage, ch));
            CHECK(storage == NC_CHUNKED && ch[0] == 1 && ch[1] == 1 && ch[2] == 4 && ch[3] == 5,
                  "%s: chunks of one level", names[i]);
            NCX(nc_inq_var_deflate(nc, v, &sh, &df, &lvl));
            CHECK(compress ? (df && sh && lvl == compress) : !df, "%s: deflate %d", names[i],
                  compress);
            NCX(nc_inq_var_fletcher32(nc, v, &fl));
            CHECK(fl == NC_FLETCHER32, "%s: Fletcher32 checksum", names[i]);
            CHECK(text_is(nc, v, "coordinates", "nav_lat"), "%s: coordinates nav_lat",
                  names[i]);
            {
                double fv = 0;
                const double want[3] = {(double)-1e30f, -999, 1e20};
                NCX(nc_get_att_double(nc, v, "_FillValue", &fv));
                CHECK(prec == PS_FLOAT32 ? (float)fv == (float)want[i] : fv == want[i],
                      "%s: _FillValue %g (want %g)", names[i], fv, want[i]);
            }
        }
        NCX(nc_inq_varid(nc, "temperature", &v));
        CHECK(text_is(nc, v, "standard_name", "sea_water_temperature") &&
              text_is(nc, v, "units", "degC"), "temperature: attributes copied");
        if (nf > 1) {
            NCX(nc_inq_varid(nc, "salinity", &v));
            CHECK(text_is(nc, v, "long_name", "salinity"),
                  "salinity: its name as long_name (CF 3.2)");
            CHECK(text_is(nc, v, "units", "1e-3"), "salinity: PSU respelled 1e-3");
            CHECK(text_is(nc, v, "comment", "synthetic"), "salinity: comment copied");
            CHECK(nc_inq_att(nc, v, "valid_min", NULL, NULL) == NC_ENOTATT,
                  "salinity: valid_min not copied");
        }
        if (nf > 2) {
            NCX(nc_inq_varid(nc, "age", &v));
            CHECK(text_is(nc, v, "long_name", "water age") && text_is(nc, v, "units", "days"),
                  "age: attributes copied");
        }
    }
    nc_close(nc);
    for (r = 0; r < 2; r++)
        for (i = 0; i < nf; i++)
            ps_field_free(&f[r][i]);
}

/* The reductions of every field, named after it; asked for before or after
 * the fields are added. */
static void test_reductions(const char *in, int ask_first)
{
    ps_dataset ds[3];
    ps_field f[3];
    const ps_field *rec[3];
    ps_reduction red[2][3];
    ps_writer *w = NULL;
    ps_write_options o;
    char out[600];
    int i, r, nc;
    static const char *const suffix[5] = {"content", "volume", "mean", "min", "max"};
    memset(&o, 0, sizeof o);
    memset(f, 0, sizeof f);
    snprintf(out, sizeof out, "%s/red_%d.nc", dir, ask_first);
    o.path = out;
    o.precision = PS_FLOAT32;
    for (i = 0; i < 3; i++)
        if (ps_dataset_open(&ds[i], in, names[i]) || ps_dataset_read(&ds[i], 0, PS_FLOAT32, &f[i])) {
            FAILF("open %s: %s", names[i], ps_error_detail());
            return;
        }
    CHECK(ps_writer_open(&w, &ds[0], &o) == PS_OK, "open: %s", ps_error_detail());
    if (!w)
        return;
    if (ask_first)
        CHECK(ps_writer_reductions(w, 1, NULL) == PS_OK, "reductions: %s", ps_error_detail());
    for (i = 1; i < 3; i++)
        CHECK(ps_writer_add_field(w, &ds[i]) == PS_OK, "add %s: %s", names[i],
              ps_error_detail());
    if (!ask_first)
        CHECK(ps_writer_reductions(w, 1, NULL) == PS_OK, "reductions: %s", ps_error_detail());
    for (r = 0; r < 2; r++)
        for (i = 0; i < 3; i++) {
            ps_reduction *x = &red[r][i];
            x->content = 1000.0 * (r + 1) + i;
            x->volume = 10.0 + r;
            x->mean = x->content / x->volume;
            x->min = -1.0 - i - r;
            x->max = 50.0 + i + r;
            x->cells = 7;
        }
    for (i = 0; i < 3; i++)
        rec[i] = &f[i];
    for (r = 0; r < 2; r++) {
        CHECK(ps_writer_append_fields(w, r + 1, rec, 3) == PS_OK, "append: %s",
              ps_error_detail());
        CHECK(ps_writer_set_reduction(w, &red[r][0]) == PS_EINVAL &&
              strstr(ps_error_detail(), "reductions of 1 field given for 3 field variables"),
              "set_reduction of one field refused for three (%s)", ps_error_detail());
        CHECK(ps_writer_set_reductions(w, red[r], 2) == PS_EINVAL,
              "reductions of two fields refused for three");
        if (r == 0)
            CHECK(ps_writer_commit(w) == PS_EINVAL, "commit refused while a record awaits "
                  "its reductions");
        CHECK(ps_writer_set_reductions(w, red[r], 3) == PS_OK, "set_reductions: %s",
              ps_error_detail());
    }
    CHECK(ps_writer_commit(w) == PS_OK, "commit: %s", ps_error_detail());
    ps_writer_abort(w);
    for (i = 0; i < 3; i++) {
        ps_dataset b;
        ps_dataset_reductions rd;
        ps_field_free(&f[i]);
        ps_dataset_close(&ds[i]);
        if (ps_dataset_open(&b, out, names[i])) {
            FAILF("reopen %s: %s", names[i], ps_error_detail());
            continue;
        }
        CHECK(ps_dataset_read_reductions(&b, &rd) == PS_OK, "%s: reductions read",
              names[i]);
        for (r = 0; rd.n == 2 && r < 2; r++)
            CHECK(rd.v[0][r] == red[r][i].content && rd.v[1][r] == red[r][i].volume &&
                  rd.v[2][r] == red[r][i].mean && rd.v[3][r] == red[r][i].min &&
                  rd.v[4][r] == red[r][i].max && rd.steps && rd.steps[r] == r + 1,
                  "%s record %d: its own reductions", names[i], r);
        ps_dataset_reductions_free(&rd);
        ps_dataset_close(&b);
    }
    NCX(nc_open(out, NC_NOWRITE, &nc));
    for (i = 0; i < 3; i++) {
        int s, v;
        for (s = 0; s < 5; s++) {
            char n[80];
            snprintf(n, sizeof n, "%s_%s", names[i], suffix[s]);
            CHECK(nc_inq_varid(nc, n, &v) == NC_NOERR, "variable %s", n);
        }
    }
    {
        int v;
        NCX(nc_inq_varid(nc, "salinity_mean", &v));
        CHECK(text_is(nc, v, "units", "1e-3"), "salinity_mean: salinity's units");
        NCX(nc_inq_varid(nc, "age_content", &v));
        CHECK(text_is(nc, v, "units", "days m3"), "age_content: days m3");
        NCX(nc_inq_varid(nc, "temperature_max", &v));
        CHECK(text_is(nc, v, "standard_name", "sea_water_temperature"),
              "temperature_max: temperature's standard_name");
    }
    nc_close(nc);
}

/* One refusal: @p st must be PS_EINVAL with @p word in the detail; then the
 * writer is abandoned and nothing may be left. */
static void refused(ps_writer *w, int st, const char *word, const char *what, const char *out)
{
    CHECK(st == PS_EINVAL && strstr(ps_error_detail(), word), "%s refused (%s: %s)", what,
          ps_strerror(st), ps_error_detail());
    ps_writer_abort(w);
    CHECK(!exists(out) && tmp_files() == 0, "%s: no output left", what);
}

static void test_refusals(const char *in)
{
    ps_dataset ds[3], other;
    ps_field f[3];
    const ps_field *rec[3];
    ps_writer *w;
    char out[600];
    int i;
    snprintf(out, sizeof out, "%s/refused.nc", dir);
    memset(f, 0, sizeof f);

    /* a field added after the first append */
    for (i = 0; i < 2; i++)
        if (ps_dataset_open(&ds[i], in, names[i]) ||
            ps_dataset_read(&ds[i], 0, PS_FLOAT32, &f[i])) {
            FAILF("read %s: %s", names[i], ps_error_detail());
            return;
        }
    if (!(w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL)))
        return;
    CHECK(ps_writer_append(w, 0, &f[0]) == PS_OK, "append: %s", ps_error_detail());
    refused(w, ps_writer_add_field(w, &ds[1]), "before the first record",
            "a field added after an append", out);

    /* the wrong count */
    w = open_writer(in, out, 2, PS_FLOAT32, 0, NULL);
    refused(w, w ? ps_writer_append(w, 0, &f[0]) : -1, "1 field given for a record of 2",
            "one field for a writer of two", out);
    w = open_writer(in, out, 2, PS_FLOAT32, 0, NULL);
    rec[0] = &f[0], rec[1] = &f[1], rec[2] = &f[1];
    refused(w, w ? ps_writer_append_fields(w, 0, rec, 3) : -1,
            "3 fields given for a record of 2 field variables (temperature, salinity)",
            "three fields for a writer of two", out);
    w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL);
    refused(w, w ? ps_writer_append_fields(w, 0, rec, 2) : -1, "2 fields given",
            "two fields for a writer of one", out);

    /* a name in use: the first field, the time, step, a dimension, a coordinate, a
     * carried auxiliary coordinate, an added variable, a reduction */
    {
        static const char *const clash[] = {"temperature", "time", "step", "lev", "y",
                                            "nav_lat", "uvel", "temperature_mean",
                                            "salinity"};
        static const char *const says[] = {"field variable temperature", "the time variable",
                                           "the step variable", "the depth coordinate",
                                           "the latitude coordinate", "the coordinate nav_lat",
                                           "the added variable uvel",
                                           "the reduction temperature_mean of field "
                                           "temperature", "field variable salinity"};
        double vals[60];
        size_t k;
        for (k = 0; k < 60; k++)
            vals[k] = 0.5;
        for (k = 0; k < sizeof clash / sizeof clash[0]; k++) {
            ps_dataset named = ds[1];
            char what[128];
            snprintf(named.var_name, sizeof named.var_name, "%s", clash[k]);
            w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL);
            if (!w)
                continue;
            CHECK(ps_writer_add_variable(w, "uvel", "eastward_sea_water_velocity", "u", "m s-1",
                                         vals, 60) == PS_OK, "add_variable");
            CHECK(ps_writer_reductions(w, 1, NULL) == PS_OK, "reductions");
            if (k == 8)
                CHECK(ps_writer_add_field(w, &ds[1]) == PS_OK, "add salinity");
            snprintf(what, sizeof what, "a field named %s", clash[k]);
            refused(w, ps_writer_add_field(w, &named), says[k], what, out);
        }
        /* a reduction of the added field on a name in use */
        w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL);
        if (w) {
            ps_dataset named = ds[1];
            CHECK(ps_writer_add_variable(w, "so_min", "sea_water_salinity", "s", "1e-3", vals,
                                         60) == PS_OK, "add_variable");
            snprintf(named.var_name, sizeof named.var_name, "so");
            CHECK(ps_writer_reductions(w, 1, NULL) == PS_OK, "reductions");
            refused(w, ps_writer_add_field(w, &named), "the reduction so_min of field so",
                    "a field whose reduction clashes", out);
        }
        /* reductions asked for after a field named like one of them */
        w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL);
        if (w) {
            ps_dataset named = ds[1];
            snprintf(named.var_name, sizeof named.var_name, "temperature_max");
            CHECK(ps_writer_add_field(w, &named) == PS_OK, "add temperature_max");
            refused(w, ps_writer_reductions(w, 1, NULL), "temperature_max",
                    "reductions over a field's name", out);
        }
        /* an added variable over a field's name */
        w = open_writer(in, out, 2, PS_FLOAT32, 0, NULL);
        refused(w, w ? ps_writer_add_variable(w, "salinity", "x", "x", "1", vals, 60) : -1,
                "field variable salinity", "an added variable named as a field", out);
    }

    /* another grid: the source's, then a record's */
    {
        ps_dataset big = ds[1];
        ps_field small;
        ps_grid g = {3, 4, 4};
        big.grid.nx = 6;
        w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL);
        refused(w, w ? ps_writer_add_field(w, &big) : -1, "has grid 3x4x6",
                "a field of another grid", out);
        ps_field_alloc(&small, g, PS_FLOAT32);
        w = open_writer(in, out, 2, PS_FLOAT32, 0, NULL);
        rec[0] = &f[0], rec[1] = &small;
        refused(w, w ? ps_writer_append_fields(w, 0, rec, 2) : -1,
                "field salinity has grid 3x4x4", "a record of two grids", out);
        ps_field_free(&small);
    }

    /* too many */
    w = open_writer(in, out, 1, PS_FLOAT32, 0, NULL);
    if (w) {
        int st = PS_OK;
        other = ds[1];
        for (i = 1; i < PS_WRITER_MAX_FIELDS && !st; i++) {
            snprintf(other.var_name, sizeof other.var_name, "f%d", i);
            st = ps_writer_add_field(w, &other);
        }
        CHECK(st == PS_OK && ps_writer_fields(w) == PS_WRITER_MAX_FIELDS, "%d fields (%s)",
              PS_WRITER_MAX_FIELDS, ps_error_detail());
        snprintf(other.var_name, sizeof other.var_name, "one_more");
        refused(w, ps_writer_add_field(w, &other), "more than the 8",
                "more than PS_WRITER_MAX_FIELDS fields", out);
    }
    for (i = 0; i < 2; i++) {
        ps_field_free(&f[i]);
        ps_dataset_close(&ds[i]);
    }
}

/* The callbacks of a parallel writer of one process (the publisher): what an
 * MPI run gives through mpi/, without MPI. */
static int par_share(void *user, char *tmp, size_t len)
{
    (void)user, (void)tmp, (void)len;
    return PS_OK;
}

static int par_create(void *user, const char *path, int cmode, int *ncid)
{
    (void)user;
    return nc_create(path, cmode, ncid);
}

static int par_agree(void *user, int status)
{
    (void)user;
    return status;
}

/* Two fields through the parallel writer's path (each process its part, here
 * the whole grid): the same bits read back. */
static void test_parallel(const char *in)
{
    ps_dataset ds[2];
    ps_field f[2];
    const ps_field *rec[2];
    ps_writer *w = NULL;
    ps_write_options o;
    ps_write_parallel par;
    char out[600];
    int i;
    memset(&o, 0, sizeof o);
    memset(&par, 0, sizeof par);
    snprintf(out, sizeof out, "%s/parallel.nc", dir);
    for (i = 0; i < 2; i++)
        if (ps_dataset_open(&ds[i], in, names[i]) ||
            ps_dataset_read(&ds[i], 1, PS_FLOAT32, &f[i])) {
            FAILF("read %s: %s", names[i], ps_error_detail());
            return;
        }
    par.share = par_share;
    par.create = par_create;
    par.agree = par_agree;
    par.publisher = 1;
    par.global = ds[0].grid;
    o.path = out;
    o.precision = PS_FLOAT32;
    o.parallel = &par;
    CHECK(ps_writer_open(&w, &ds[0], &o) == PS_OK, "parallel open: %s", ps_error_detail());
    if (w) {
        CHECK(ps_writer_add_field(w, &ds[1]) == PS_OK, "parallel add: %s", ps_error_detail());
        rec[0] = &f[0], rec[1] = &f[1];
        CHECK(ps_writer_append_fields(w, 0, rec, 2) == PS_OK, "parallel append: %s",
              ps_error_detail());
        CHECK(ps_writer_append(w, 1, &f[0]) == PS_EINVAL, "parallel: one field refused");
        CHECK(ps_writer_commit(w) == PS_OK, "parallel commit: %s", ps_error_detail());
        ps_writer_abort(w);
    }
    for (i = 0; i < 2; i++) {
        ps_dataset b;
        ps_field g;
        ps_dataset_close(&ds[i]);
        if (ps_dataset_open(&b, out, names[i]) || ps_dataset_read(&b, 0, PS_FLOAT32, &g)) {
            FAILF("parallel read back %s: %s", names[i], ps_error_detail());
            continue;
        }
        CHECK(b.ntime == 1 && differ(&f[i], &g) == 0, "parallel: %s bitwise", names[i]);
        ps_field_free(&g);
        ps_field_free(&f[i]);
        ps_dataset_close(&b);
    }
}

/* Checksums (ps_field_checksum) of the built-in ocean's thetao before so
 * existed (scale 0.2, seeds 1 and 7, records 0..4; scale 1 record 0): so
 * must not change a bit of it. */
static const uint64_t thetao_before[2][5] = {
    {UINT64_C(0x9498fffba40fc8ab), UINT64_C(0xd4fe3b2d881b9692), UINT64_C(0x4134ce83d639d7d2),
     UINT64_C(0xd792d5379c72921d), UINT64_C(0xbbed6b4b746bd860)},
    {UINT64_C(0x241bb595d4aded6c), UINT64_C(0xe48a9cd45cfebb1c), UINT64_C(0x59f4f9b9ed667743),
     UINT64_C(0x62fded5e7a6d1788), UINT64_C(0x9d15a440c146b06a)}};
static const uint64_t thetao_scale1_t0 = UINT64_C(0xdef344d025878da8);

/* so's checksum at scale 0.2, seed 1, record 0: a change to its profile is deliberate */
static const uint64_t so_scale02_t0 = UINT64_C(0xc52b4fd5866312f9);

static void test_ocean(void)
{
    ps_ocean_options o;
    ps_dataset ds, b;
    ps_field th, so, g;
    char out[600];
    size_t t, n, c, land_diff = 0, out_of_range = 0;
    int s;
    ps_ocean_defaults(&o);
    o.scale = 0.2;
    for (s = 0; s < 2; s++) {
        o.seed = s ? 7 : 1;
        for (t = 0; t < 5; t++) {
            if (ps_ocean_generate(&o, t, NULL, &th)) {
                FAILF("generate: %s", ps_error_detail());
                continue;
            }
            CHECK(ps_field_checksum(&th) == thetao_before[s][t],
                  "thetao seed %lu record %zu bitwise as before so: 0x%016" PRIx64, o.seed, t,
                  ps_field_checksum(&th));
            ps_field_free(&th);
        }
    }
    o.seed = 1;
    {
        ps_ocean_options full;
        ps_ocean_defaults(&full);
        if (ps_ocean_generate(&full, 0, NULL, &th) == PS_OK) {
            CHECK(ps_field_checksum(&th) == thetao_scale1_t0,
                  "full-size thetao bitwise as before so: 0x%016" PRIx64,
                  ps_field_checksum(&th));
            ps_field_free(&th);
        }
    }
    /* the API */
    CHECK(ps_ocean_generate_var(&o, 0, "salt", NULL, NULL) == PS_EINVAL &&
              strstr(ps_error_detail(), "'salt'") && strstr(ps_error_detail(), "thetao and so"),
          "an unknown variable refused, the two listed (%s)", ps_error_detail());
    CHECK(ps_ocean_generate_var(&o, 5, "so", NULL, NULL) == PS_ERANGE, "so: record 5 refused");
    if (ps_ocean_generate_var(&o, 0, NULL, NULL, &th) == PS_OK) {
        CHECK(ps_field_checksum(&th) == thetao_before[0][0], "var NULL is thetao");
        ps_field_free(&th);
    }
    if (ps_ocean_generate_var(&o, 0, "so", &ds, &so) != PS_OK) {
        FAILF("generate so: %s", ps_error_detail());
        return;
    }
    {
        const ps_attr *sn = ps_attr_find(&ds.var_attrs, "standard_name");
        const ps_attr *ln = ps_attr_find(&ds.var_attrs, "long_name");
        const ps_attr *un = ps_attr_find(&ds.var_attrs, "units");
        CHECK(!strcmp(ds.var_name, "so") && !strcmp(ds.units, "1e-3"), "so: name and units");
        CHECK(sn && sn->text && !strcmp(sn->text, "sea_water_salinity") && ln && ln->text &&
                  !strcmp(ln->text, "Sea water salinity") && un && un->text &&
                  !strcmp(un->text, "1e-3"),
              "so: standard_name, long_name, units");
        CHECK(ds.grid.nz == 50 && ds.grid.ny == 44 && ds.grid.nx == 48, "so: the grid");
    }
    ps_dataset_close(&ds);
    CHECK(ps_field_checksum(&so) == so_scale02_t0, "so bitwise as documented: 0x%016" PRIx64,
              ps_field_checksum(&so));
    if (ps_ocean_generate(&o, 0, NULL, &th) == PS_OK) {
        n = ps_field_cells(&so);
        for (c = 0; c < n; c++) {
            float a = ((const float *)th.data)[c], v = ((const float *)so.data)[c];
            land_diff += isnan(a) != isnan(v);
            out_of_range += !isnan(v) && !(v > 30.0f && v < 37.0f);
        }
        CHECK(land_diff == 0, "so: the land of thetao (%zu cells differ)", land_diff);
        CHECK(out_of_range == 0, "so: every value in (30, 37) (%zu outside)", out_of_range);
        ps_field_free(&th);
    }
    {
        ps_field again;
        ps_ocean_options o7 = o;
        o7.seed = 7;
        if (ps_ocean_generate_var(&o, 0, "so", NULL, &again) == PS_OK) {
            CHECK(differ(&so, &again) == 0, "so: deterministic");
            ps_field_free(&again);
        }
        if (ps_ocean_generate_var(&o7, 0, "so", NULL, &again) == PS_OK) {
            CHECK(differ(&so, &again) != 0, "so: the seed changes it");
            ps_field_free(&again);
        }
    }
    ps_field_free(&so);

    /* gen's file: so beside thetao, every record, read back bitwise */
    snprintf(out, sizeof out, "%s/gen.nc", dir);
    CHECK(ps_ocean_write(&o, out, 0) == PS_OK, "ocean write: %s", ps_error_detail());
    CHECK(ps_dataset_open(&b, out, NULL) == PS_OK && !strcmp(b.var_name, "thetao"),
          "gen file: automatic discovery still finds thetao (%s)", b.var_name);
    for (t = 0; t < 5; t++)
        if (ps_dataset_read(&b, t, PS_FLOAT32, &g) == PS_OK) {
            CHECK(ps_field_checksum(&g) == thetao_before[0][t], "gen file: thetao record %zu "
                  "bitwise as before so", t);
            ps_field_free(&g);
        }
    ps_dataset_close(&b);
    if (ps_dataset_open(&b, out, "so") != PS_OK) {
        FAILF("gen file has no so: %s", ps_error_detail());
        return;
    }
    CHECK(b.ntime == 5, "gen file: so has 5 records (%zu)", b.ntime);
    for (t = 0; t < 5; t++) {
        if (ps_dataset_read(&b, t, PS_FLOAT32, &g) || ps_ocean_generate_var(&o, t, "so", NULL,
                                                                            &so)) {
            FAILF("read so %zu: %s", t, ps_error_detail());
            continue;
        }
        CHECK(differ(&g, &so) == 0, "gen file: so record %zu bitwise (%zu cells differ)", t,
              differ(&g, &so));
        ps_field_free(&g);
        ps_field_free(&so);
    }
    ps_dataset_close(&b);
}

int main(void)
{
    char in[600], cmd[700];
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    snprintf(in, sizeof in, "%s/input.nc", dir);
    make_input(in);
    test_round_trip(in, 1, PS_FLOAT32, 0);
    test_round_trip(in, 2, PS_FLOAT32, 0);
    test_round_trip(in, 3, PS_FLOAT32, 4);
    test_round_trip(in, 2, PS_FLOAT64, 0);
    test_round_trip(in, 3, PS_FLOAT64, 2);
    test_reductions(in, 1);
    test_reductions(in, 0);
    test_refusals(in);
    test_parallel(in);
    test_ocean();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("warning: could not remove %s\n", dir);
    return ps_test_finish("test_io_fields");
}
