/*
 * The NetCDF writer: round trip (write, read back bitwise in float32 and
 * float64), CF attributes, history with the newest line first, source,
 * the CF time axis (input time + step * dt, strictly increasing) and step(time), chunking and deflate, fill values; the temporary file and
 * its rename; refusing to overwrite without force, to write over the input
 * (also through a hard link or another spelling of the path), into a missing
 * or non-directory folder; abort leaves nothing behind. Also the built-in
 * ocean: deterministic, plausible, and written through the same writer.
 */
#include "config.h"
#include "pstencil_io.h"
#include "../ps_test.h"
#include "ps_io_test.h"

#include <dirent.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static char dir[] = "/tmp/pstencil-io-write.XXXXXX";

static int tmp_files(void)
{
    return tmp_files_in(dir);
}

/* An input file: float32 thetao(time, depth, lat, lon), short-packed copy in
 * "packed", a history, a float _FillValue. */
static void make_input(const char *path)
{
    int nc, d[4], v, c[4], i, k;
    float data[2 * 3 * 4 * 5], fill = -1e30f;
    nc = source_grid_begin(path, d, c, "latitude");
    NCX(nc_def_var(nc, "temperature", NC_FLOAT, 4, d, &v));
    NCX(nc_put_att_text(nc, v, "standard_name", 21, "sea_water_temperature"));
    NCX(nc_put_att_text(nc, v, "units", 4, "degC"));
    NCX(nc_put_att_float(nc, v, "_FillValue", NC_FLOAT, 1, &fill));
    NCX(nc_put_att_text(nc, v, "coordinates", 9, "nav_lat x"));
    NCX(nc_put_att_text(nc, NC_GLOBAL, "history", 22, "2020-01-01: created it"));
    NCX(nc_put_att_text(nc, NC_GLOBAL, "institution", 7, "testers"));
    NCX(nc_put_att_text(nc, NC_GLOBAL, "Conventions", 6, "CF-1.6"));
    source_grid_end(nc, c);
    for (i = 0; i < 2 * 60; i++) {
        k = i % 60;
        data[i] = (k % 7 == 0) ? fill : 1.0f / (float)(i + 3) + 10.0f;
    }
    {
        size_t st[4] = {0, 0, 0, 0}, ct[4] = {2, 3, 4, 5};
        NCX(nc_put_vara_float(nc, v, st, ct, data));
    }
    NCX(nc_close(nc));
}

static void test_round_trip(const char *in, ps_precision prec, int compress)
{
    ps_dataset ds, back;
    ps_field f, g;
    ps_writer *w = NULL;
    ps_write_options o;
    char out[600];
    int st, nc, v, tv, mv, i;
    memset(&o, 0, sizeof o);
    snprintf(out, sizeof out, "%s/out_%d_%d.nc", dir, (int)prec, compress);
    if ((st = ps_dataset_open(&ds, in, NULL))) {
        FAILF("open input: %s", ps_error_detail());
        return;
    }
    if ((st = ps_dataset_read(&ds, 1, prec, &f))) {
        FAILF("read input: %s", ps_error_detail());
        ps_dataset_close(&ds);
        return;
    }
    o.path = out;
    o.compress = compress;
    o.dt = 60.0;
    o.time_index = 1; /* the record read: 106 hours since 1950-01-01 */
    o.history = "pstencil run test --steps 10";
    o.source = "pstencil test, backend reference";
    o.precision = prec;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_OK, "writer open: %s", ps_error_detail());
    ps_dataset_close(&ds); /* the writer keeps what it needs */
    if (st) {
        ps_field_free(&f);
        return;
    }
    CHECK(tmp_files() == 1, "one temporary file while writing (found %d)", tmp_files());
    CHECK(strstr(ps_writer_temp_path(w), "/.out_") && access(ps_writer_temp_path(w), F_OK) == 0,
          "temporary path %s next to the output", ps_writer_temp_path(w));
    CHECK(!exists(out), "output must not exist before commit");
    CHECK(ps_writer_append(w, 0, &f) == PS_OK, "append 0: %s", ps_error_detail());
    CHECK(ps_writer_append(w, 10, &f) == PS_OK, "append 10: %s", ps_error_detail());
    {
        ps_field bad;
        ps_grid gg = {2, 2, 2};
        ps_field_alloc(&bad, gg, prec);
        CHECK(ps_writer_append(w, 11, &bad) == PS_EINVAL, "append of another grid refused");
        ps_field_free(&bad);
    }
    CHECK(ps_writer_commit(w) == PS_OK, "commit: %s", ps_error_detail());
    ps_writer_abort(w);
    CHECK(exists(out), "output exists after commit");
    CHECK(tmp_files() == 0, "no temporary file after commit");

    /* read back bitwise */
    st = ps_dataset_open(&back, out, NULL);
    CHECK(st == PS_OK, "reopen output: %s", ps_error_detail());
    if (st) {
        ps_field_free(&f);
        return;
    }
    CHECK(!strcmp(back.var_name, "temperature"), "output keeps the input's variable name (%s)",
          back.var_name);
    CHECK(back.ntime == 2, "two records (%zu)", back.ntime);
    for (i = 0; i < 2; i++) {
        st = ps_dataset_read(&back, (size_t)i, prec, &g);
        CHECK(st == PS_OK, "read back: %s", ps_error_detail());
        if (!st) {
            size_t n = ps_field_cells(&f), c, bad = 0;
            for (c = 0; c < n; c++) {
                if (prec == PS_FLOAT32) {
                    float a = ((float *)f.data)[c], b = ((float *)g.data)[c];
                    if (!(isnan(a) && isnan(b)) && memcmp(&a, &b, 4))
                        bad++;
                } else {
                    double a = ((double *)f.data)[c], b = ((double *)g.data)[c];
                    if (!(isnan(a) && isnan(b)) && memcmp(&a, &b, 8))
                        bad++;
                }
            }
            CHECK(bad == 0, "round trip record %d: %zu cells differ", i, bad);
            CHECK(ps_field_checksum(&f) == ps_field_checksum(&g), "checksums equal");
            ps_field_free(&g);
        }
    }
    CHECK(back.axes[PS_AXIS_LAT].values[1] == 50.5 && back.axes[PS_AXIS_DEPTH].values[2] == 100,
          "coordinates copied");
    {
        const ps_attr *u = ps_attr_find(&back.axes[PS_AXIS_LAT].attrs, "long_name");
        CHECK(u && u->text && !strcmp(u->text, "latitude"), "coordinate attributes copied");
        CHECK(!strcmp(back.axes[PS_AXIS_LAT].dim_name, "y"), "dimension names kept (%s)",
              back.axes[PS_AXIS_LAT].dim_name);
    }
    ps_dataset_close(&back);

    /* attributes, time, chunking, deflate */
    NCX(nc_open(out, NC_NOWRITE, &nc));
    NCX(nc_inq_varid(nc, "temperature", &v));
    {
        char *h = get_text(nc, NC_GLOBAL, "history"), *cv = get_text(nc, NC_GLOBAL, "Conventions");
        char *src = get_text(nc, NC_GLOBAL, "source"), *inst = get_text(nc, NC_GLOBAL, "institution");
        char *sn = get_text(nc, v, "standard_name"), *un = get_text(nc, v, "units");
        char *coords = get_text(nc, v, "coordinates");
        CHECK(h && strstr(h, "Z: pstencil run test --steps 10\n2020-01-01: created it") &&
                  h[strlen(h) - 1] == 't',
              "history: the newest line first, then the input's: '%s'", h ? h : "(none)");
        CHECK(cv && !strcmp(cv, "CF-1.8"), "Conventions CF-1.8 (%s)", cv ? cv : "none");
        CHECK(src && !strcmp(src, "pstencil test, backend reference"), "source");
        CHECK(inst && !strcmp(inst, "testers"), "global attributes copied");
        CHECK(sn && !strcmp(sn, "sea_water_temperature") && un && !strcmp(un, "degC"),
              "variable attributes copied");
        CHECK(!coords, "coordinates: none (not step, which CDO cannot assign; the input's "
              "dangling names dropped) (%s)", coords ? coords : "none");
        free(h), free(cv), free(src), free(inst), free(sn), free(un), free(coords);
    }
    {
        nc_type t;
        int fmt, nd, dims[4], storage, shuffle, deflate, level, noff;
        size_t chunks[4], ny, nx;
        float ff;
        double fd, tvals[2], mvals[2];
        NCX(nc_inq_format(nc, &fmt));
        CHECK(fmt == NC_FORMAT_NETCDF4_CLASSIC, "netCDF-4 classic model (%d)", fmt);
        NCX(nc_inq_var(nc, v, NULL, &t, &nd, dims, NULL));
        CHECK(t == (prec == PS_FLOAT32 ? NC_FLOAT : NC_DOUBLE) && nd == 4, "type and rank");
        NCX(nc_inq_dimlen(nc, dims[2], &ny));
        NCX(nc_inq_dimlen(nc, dims[3], &nx));
        NCX(nc_inq_var_chunking(nc, v, &storage, chunks));
        CHECK(storage == NC_CHUNKED && chunks[0] == 1 && chunks[1] == 1 && chunks[2] == ny &&
                  chunks[3] == nx,
              "chunks of one horizontal slab (%zu,%zu,%zu,%zu)", chunks[0], chunks[1],
              chunks[2], chunks[3]);
        NCX(nc_inq_var_deflate(nc, v, &shuffle, &deflate, &level));
        CHECK(compress ? (deflate && shuffle && level == compress) : !deflate,
              "deflate %d shuffle %d level %d (asked %d)", deflate, shuffle, level, compress);
        if (prec == PS_FLOAT32) {
            NCX(nc_inq_var_fill(nc, v, &noff, &ff));
            CHECK(ff == -1e30f, "the input's float _FillValue is kept (%g)", (double)ff);
        } else {
            NCX(nc_inq_var_fill(nc, v, &noff, &fd));
            CHECK(fd == (double)-1e30f, "the input's float _FillValue is kept (%g)", fd);
        }
        NCX(nc_inq_varid(nc, "time", &tv));
        NCX(nc_inq_varid(nc, "step", &mv));
        CHECK(nc_inq_varid(nc, "model_time", &i) == NC_ENOTVAR, "no model_time variable");
        NCX(nc_get_var_double(nc, tv, tvals));
        NCX(nc_get_var_double(nc, mv, mvals));
        CHECK(tvals[0] == 106 && fabs(tvals[1] - (106 + 10 * 60.0 / 3600)) < 1e-12,
              "time = the input record's + step * dt in its units (%.17g, %.17g)", tvals[0],
              tvals[1]);
        CHECK(mvals[0] == 0 && mvals[1] == 10, "step = the step numbers (%g, %g)", mvals[0],
              mvals[1]);
        {
            char *un = get_text(nc, tv, "units"), *sn = get_text(nc, tv, "standard_name");
            double spp = 0;
            CHECK(un && !strcmp(un, "hours since 1950-01-01"), "time units copied (%s)",
                  un ? un : "none");
            CHECK(sn && !strcmp(sn, "time"), "time: standard_name time");
            CHECK(nc_get_att_double(nc, mv, "seconds_per_step", &spp) == NC_NOERR && spp == 60,
                  "step:seconds_per_step = dt (%g)", spp);
            free(un), free(sn);
        }
    }
    NCX(nc_close(nc));
    {
        char cmd[2400];
        snprintf(cmd, sizeof cmd, "ncdump -h '%s' >/dev/null 2>&1", out);
        if (system("command -v ncdump >/dev/null 2>&1") == 0)
            CHECK(system(cmd) == 0, "ncdump -h reads the output");
        /* CDO reads it without a warning (e.g. "Unsupported TIMEUNIT") but the one
         * it gives for any auxiliary coordinate over time, such as step, which it
         * then leaves out of the data (docs/file-conventions.md) */
        snprintf(cmd, sizeof cmd,
                 "cdo -s sinfon '%s' > '%s.cdo' 2>&1 && ! grep -v 'Coordinates variable step "
                 "can.t be assigned' '%s.cdo' | grep -Eiq 'unsupported|warning|error'",
                 out, out, out);
        if (system("command -v cdo >/dev/null 2>&1") == 0)
            CHECK(system(cmd) == 0, "cdo sinfon reads the output without complaint");
        /* xarray opens it with warnings turned into errors */
        snprintf(cmd, sizeof cmd,
                 "/usr/bin/python3 -W error -c 'import xarray as xr; d = xr.open_dataset(\"%s\"); "
                 "assert d[\"temperature\"].dims[0] == \"time\"; d.load()'",
                 out);
        if (system("/usr/bin/python3 -c 'import xarray, netCDF4' >/dev/null 2>&1") == 0)
            CHECK(system(cmd) == 0, "xarray opens the output without a warning");
    }
    ps_field_free(&f);
}

static void test_refusals(const char *in)
{
    ps_dataset ds;
    ps_writer *w = NULL;
    ps_write_options o;
    char out[600], link_path[600], other[600];
    int st;
    memset(&o, 0, sizeof o);
    o.precision = PS_FLOAT32;
    if (ps_dataset_open(&ds, in, NULL)) {
        FAILF("open input: %s", ps_error_detail());
        return;
    }
    /* output equal to the input: same path, another spelling, a hard link; even with force */
    o.path = in;
    o.force = 1;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "is the input"),
          "output == input refused (%s: %s)", ps_strerror(st), ps_error_detail());
    snprintf(other, sizeof other, "%s/./input.nc", dir);
    o.path = other;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_EINVAL, "output == input (other spelling) refused (%s)", ps_strerror(st));
    snprintf(link_path, sizeof link_path, "%s/hardlink.nc", dir);
    if (link(in, link_path) == 0) {
        o.path = link_path;
        st = ps_writer_open(&w, &ds, &o);
        CHECK(st == PS_EINVAL, "output == input (hard link) refused (%s)", ps_strerror(st));
        unlink(link_path);
    }
    /* output exists without force */
    snprintf(out, sizeof out, "%s/exists.nc", dir);
    fclose(fopen(out, "w"));
    o.path = out;
    o.force = 0;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_EEXIST && strstr(ps_error_detail(), "--force"), "existing output refused (%s)",
          ps_error_detail());
    /* missing directory, a file as directory */
    snprintf(out, sizeof out, "%s/no/such/dir/out.nc", dir);
    o.path = out;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_EIO && strstr(ps_error_detail(), "no/such/dir"), "missing directory (%s)",
          ps_error_detail());
    snprintf(out, sizeof out, "%s/exists.nc/out.nc", dir);
    o.path = out;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_EIO && strstr(ps_error_detail(), "exists.nc"), "file as directory (%s)",
          ps_error_detail());
    /* abort removes the temporary file and leaves no output */
    snprintf(out, sizeof out, "%s/aborted.nc", dir);
    o.path = out;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_OK, "open for abort: %s", ps_error_detail());
    if (!st) {
        ps_field f;
        if (ps_dataset_read(&ds, 0, PS_FLOAT32, &f) == PS_OK) {
            ps_writer_append(w, 0, &f);
            ps_field_free(&f);
        }
        ps_writer_abort(w);
        CHECK(!exists(out) && tmp_files() == 0, "abort leaves nothing behind");
    }
    /* force overwrites */
    snprintf(out, sizeof out, "%s/exists.nc", dir);
    o.path = out;
    o.force = 1;
    st = ps_writer_open(&w, &ds, &o);
    CHECK(st == PS_OK, "force: %s", ps_error_detail());
    if (!st) {
        ps_field f;
        if (ps_dataset_read(&ds, 0, PS_FLOAT32, &f) == PS_OK) {
            CHECK(ps_writer_append(w, 0, &f) == PS_OK, "append");
            ps_field_free(&f);
        }
        CHECK(ps_writer_commit(w) == PS_OK, "commit with force: %s", ps_error_detail());
        ps_writer_abort(w);
        {
            ps_dataset b;
            CHECK(ps_dataset_open(&b, out, NULL) == PS_OK, "overwritten output readable");
            ps_dataset_close(&b);
        }
    }
    ps_dataset_close(&ds);
}

static void test_generated(void)
{
    /* no source dataset: generic names and index coordinates */
    ps_writer *w = NULL;
    ps_write_options o;
    ps_field f;
    ps_grid g = {3, 4, 5};
    ps_dataset back;
    char out[600];
    size_t c;
    memset(&o, 0, sizeof o);
    snprintf(out, sizeof out, "%s/nosrc.nc", dir);
    o.path = out;
    o.precision = PS_FLOAT64;
    ps_field_alloc(&f, g, PS_FLOAT64);
    for (c = 0; c < 60; c++)
        ((double *)f.data)[c] = c % 5 == 0 ? NAN : 0.1 * (double)c;
    CHECK(ps_writer_open(&w, NULL, &o) == PS_OK, "open without source: %s", ps_error_detail());
    CHECK(ps_writer_append(w, 3, &f) == PS_OK, "append: %s", ps_error_detail());
    CHECK(ps_writer_commit(w) == PS_OK, "commit: %s", ps_error_detail());
    ps_writer_abort(w);
    if (ps_dataset_open(&back, out, NULL) == PS_OK) {
        ps_field r;
        CHECK(!strcmp(back.var_name, "thetao") && !strcmp(back.axes[1].dim_name, "depth") &&
                  !strcmp(back.axes[2].dim_name, "latitude"),
              "generic names thetao(time, depth, latitude, longitude)");
        if (ps_dataset_read(&back, 0, PS_FLOAT64, &r) == PS_OK) {
            int bad = 0;
            for (c = 0; c < 60; c++) {
                double a = ((double *)f.data)[c], b = ((double *)r.data)[c];
                if (isnan(a) ? !isnan(b) : a != b)
                    bad++;
            }
            CHECK(bad == 0, "float64 round trip without source, NaN land via 1e20 fill");
            ps_field_free(&r);
        }
        ps_dataset_close(&back);
    } else {
        FAILF("reopen: %s", ps_error_detail());
    }
    ps_field_free(&f);
}

/* ps_writer_put_global(): written after the copied attributes, a source's own
 * pstencil_* record not carried over, refused after the first append; every
 * variable carries a Fletcher32 checksum; step:time_at_step_0 chains the time. */
static void test_record(void)
{
    ps_writer *w = NULL;
    ps_write_options o;
    ps_field f;
    ps_grid g = {3, 4, 5};
    ps_dataset src;
    char a[600], b[600];
    int nc, nv, v, fl;
    size_t c;
    memset(&o, 0, sizeof o);
    snprintf(a, sizeof a, "%s/rec_a.nc", dir);
    snprintf(b, sizeof b, "%s/rec_b.nc", dir);
    o.path = a;
    o.dt = 7.0;
    ps_field_alloc(&f, g, PS_FLOAT32);
    for (c = 0; c < 60; c++)
        ((float *)f.data)[c] = (float)c;
    EXPECT(ps_writer_open(&w, NULL, &o) == PS_OK);
    EXPECT(ps_writer_put_global(w, "pstencil_stencil", "diffusion7", 0) == PS_OK);
    EXPECT(ps_writer_put_global(w, "pstencil_only_in_a", NULL, 2.5) == PS_OK);
    EXPECT(ps_writer_append(w, 0, &f) == PS_OK);
    EXPECT(ps_writer_append(w, 4, &f) == PS_OK);
    CHECK(ps_writer_put_global(w, "late", "x", 0) == PS_EINVAL,
          "put_global after the first append is refused");
    EXPECT(ps_writer_commit(w) == PS_OK);
    ps_writer_abort(w);
    if (nc_open(a, NC_NOWRITE, &nc) == NC_NOERR) {
        char *t = get_text(nc, NC_GLOBAL, "pstencil_stencil");
        double d = 0;
        CHECK(t && !strcmp(t, "diffusion7"), "the text attribute is written");
        free(t);
        CHECK(!nc_get_att_double(nc, NC_GLOBAL, "pstencil_only_in_a", &d) && d == 2.5,
              "the numeric attribute is written");
        nc_inq_nvars(nc, &nv);
        for (v = 0; v < nv; v++) {
            char name[NC_MAX_NAME + 1] = "";
            nc_inq_varname(nc, v, name);
            fl = 0;
            CHECK(nc_inq_var_fletcher32(nc, v, &fl) == NC_NOERR && fl,
                  "variable %s has a Fletcher32 checksum", name);
        }
        nc_close(nc);
    } else {
        FAILF("cannot open %s", a);
    }
    /* a run continued from record 1 (step 4) with the same dt: step and time go on */
    if (ps_dataset_open(&src, a, NULL) == PS_OK) {
        double t0 = src.axes[0].values[0];
        o.path = b;
        o.time_index = 1;
        EXPECT(ps_writer_open(&w, &src, &o) == PS_OK);
        EXPECT(ps_writer_put_global(w, "pstencil_stencil", "hdiff", 0) == PS_OK);
        EXPECT(ps_writer_append(w, 3, &f) == PS_OK);
        EXPECT(ps_writer_commit(w) == PS_OK);
        ps_writer_abort(w);
        ps_dataset_close(&src);
        if (nc_open(b, NC_NOWRITE, &nc) == NC_NOERR) {
            char *t = get_text(nc, NC_GLOBAL, "pstencil_stencil");
            double d = 0, st = 0, tm = 0;
            size_t i0 = 0;
            CHECK(t && !strcmp(t, "hdiff"), "the new record replaces the source's");
            free(t);
            CHECK(nc_get_att_double(nc, NC_GLOBAL, "pstencil_only_in_a", &d) == NC_ENOTATT,
                  "the source's pstencil_* record is not copied");
            CHECK(!nc_inq_varid(nc, "step", &v) && !nc_get_var1_double(nc, v, &i0, &st) &&
                      st == 7.0, "step goes on: 4 + 3 = %g", st);
            CHECK(!nc_inq_varid(nc, "time", &v) && !nc_get_var1_double(nc, v, &i0, &tm) &&
                      tm == t0 + 7.0 * 7.0, "time is time_at_step_0 + 7 steps of 7 s: %.17g",
                  tm);
            nc_close(nc);
        } else {
            FAILF("cannot open %s", b);
        }
    } else {
        FAILF("reopen %s: %s", a, ps_error_detail());
    }
    ps_field_free(&f);
}

static void test_ocean(void)
{
    ps_ocean_options o;
    ps_dataset ds, back;
    ps_field a, b, r;
    char out[600];
    size_t c, n, land = 0;
    double mn = 1e9, mx = -1e9;
    ps_ocean_defaults(&o);
    o.scale = 0.25;
    CHECK(ps_ocean_generate(&o, 0, &ds, &a) == PS_OK, "generate: %s", ps_error_detail());
    CHECK(ds.grid.nz == 50 && ds.grid.ny == 56 && ds.grid.nx == 60 && ds.ntime == 5,
          "scaled grid %zux%zux%zu", ds.grid.nz, ds.grid.ny, ds.grid.nx);
    CHECK(fabs(ds.axes[PS_AXIS_DEPTH].values[0] - 0.494) < 1e-3 &&
              fabs(ds.axes[PS_AXIS_DEPTH].values[49] - 5727.917) < 1e-2,
          "GLO12 depth levels");
    CHECK(fabs(ds.axes[PS_AXIS_LAT].values[0] - 46.8333) < 1e-3 &&
              fabs(ds.axes[PS_AXIS_LAT].values[55] - 65.25) < 1e-4 &&
              fabs(ds.axes[PS_AXIS_LON].values[0] + 13.8333) < 1e-3 &&
              fabs(ds.axes[PS_AXIS_LON].values[59] - 6.1667) < 1e-3,
          "region coordinates");
    CHECK(ps_ocean_generate(&o, 0, NULL, &b) == PS_OK, "generate again");
    CHECK(ps_field_checksum(&a) == ps_field_checksum(&b), "deterministic");
    ps_field_free(&b);
    CHECK(ps_ocean_generate(&o, 1, NULL, &b) == PS_OK, "generate t=1");
    CHECK(ps_field_checksum(&a) != ps_field_checksum(&b), "time records differ");
    ps_field_free(&b);
    n = ps_field_cells(&a);
    for (c = 0; c < n; c++) {
        float v = ((float *)a.data)[c];
        if (isnan(v)) {
            land++;
            continue;
        }
        if (v < mn)
            mn = v;
        if (v > mx)
            mx = v;
    }
    CHECK(land > n / 5 && land < n * 9 / 10, "some land and some sea (%zu of %zu NaN)", land, n);
    CHECK(mn > -3 && mn < 4 && mx > 10 && mx < 17, "plausible temperatures %g..%g", mn, mx);
    /* surface cell (0, j, i) land => the whole column land; NaN mask monotone with depth */
    {
        size_t plane = ds.grid.ny * ds.grid.nx, k, bad = 0;
        for (k = 1; k < ds.grid.nz; k++)
            for (c = 0; c < plane; c++)
                if (isnan(((float *)a.data)[(k - 1) * plane + c]) &&
                    !isnan(((float *)a.data)[k * plane + c]))
                    bad++;
        CHECK(bad == 0, "no sea below land or seabed (%zu cells)", bad);
    }
    snprintf(out, sizeof out, "%s/ocean.nc", dir);
    CHECK(ps_ocean_write(&o, out, 0) == PS_OK, "ocean write: %s", ps_error_detail());
    CHECK(ps_ocean_write(&o, out, 0) == PS_EEXIST, "ocean write refuses to overwrite");
    if (ps_dataset_open(&back, out, NULL) == PS_OK) {
        CHECK(back.ntime == 5 && back.axes[0].values[0] == 648672.0,
              "5 records, time in hours since 1950");
        if (ps_dataset_read(&back, 0, PS_FLOAT32, &r) == PS_OK) {
            CHECK(ps_field_checksum(&r) == ps_field_checksum(&a), "file holds the generated field");
            ps_field_free(&r);
        }
        ps_dataset_close(&back);
    } else {
        FAILF("ocean reopen: %s", ps_error_detail());
    }
    ps_field_free(&a);
    ps_dataset_close(&ds);
}

/* The output's time axis strictly increases: ps_writer_open() refuses a run
 * whose last step is not resolvable (PS_ERANGE, nothing created), and
 * ps_writer_append() refuses a record whose time is not after the previous
 * one's (a last guard). */
static void test_time_increases(void)
{
    ps_writer *w = NULL;
    ps_write_options o;
    ps_field f;
    ps_grid g = {3, 4, 5};
    char a[600];
    memset(&o, 0, sizeof o);
    snprintf(a, sizeof a, "%s/time_axis.nc", dir);
    o.path = a;
    o.dt = 1.0;
    ps_field_alloc(&f, g, PS_FLOAT32);
    memset(f.data, 0, 60 * sizeof(float));
    /* seconds since 1970 from 0: step 1e17 + 1 is the same double as 1e17 */
    o.last_step = 100000000000000000L;
    CHECK(ps_writer_open(&w, NULL, &o) == PS_ERANGE && !w && !exists(a) && !tmp_files(),
          "a time axis that would not increase is refused at open: %s", ps_error_detail());
    CHECK(strstr(ps_error_detail(), "would not increase") != NULL, "detail: %s",
          ps_error_detail());
    o.last_step = 0;
    EXPECT(ps_writer_open(&w, NULL, &o) == PS_OK);
    EXPECT(ps_writer_append(w, 0, &f) == PS_OK);
    EXPECT(ps_writer_append(w, 5, &f) == PS_OK);
    CHECK(ps_writer_append(w, 5, &f) == PS_ERANGE, "a repeated time is refused");
    CHECK(ps_writer_append(w, 3, &f) == PS_ERANGE, "a time going back is refused: %s",
          ps_error_detail());
    CHECK(ps_writer_append(w, 100000000000000000L, &f) == PS_OK, "step 1e17");
    CHECK(ps_writer_append(w, 100000000000000001L, &f) == PS_ERANGE,
          "step 1e17 + 1 (the same time in double) is refused");
    ps_writer_abort(w);
    CHECK(!exists(a) && !tmp_files(), "nothing left after the abort");
    ps_field_free(&f);
}

/* ps_writer_reductions(): five float64 time series named after the variable, with
 * units (the field's times m3 for the content), long_name, comment and CF
 * cell_methods, one value per record, given after each append; the next append or
 * the commit without them, reductions with no record awaiting them and
 * reductions asked for late are refused; unit weights say so. */
static void reductions_file(const char *path, int metric, ps_writer **wp)
{
    ps_write_options o;
    memset(&o, 0, sizeof o);
    o.path = path;
    o.precision = PS_FLOAT64;
    EXPECT(ps_writer_open(wp, NULL, &o) == PS_OK);
    EXPECT(ps_writer_reductions(*wp, metric, metric ? "" : "no coordinate variables") == PS_OK);
}

static void test_reductions(void)
{
    static const char *const suffix[5] = {"content", "volume", "mean", "min", "max"};
    static const char *const method[5] = {"sum", "sum", "mean", "minimum", "maximum"};
    static const char *const units[5] = {"degrees_C m3", "m3", "degrees_C", "degrees_C",
                                         "degrees_C"};
    ps_writer *w = NULL;
    ps_field f;
    ps_grid g = {3, 4, 5};
    ps_reduction r = {10.5, 2.0, 5.25, -1.0, 7.0, 3};
    char a[600], b[600];
    int nc, i;
    size_t c;
    snprintf(a, sizeof a, "%s/red_a.nc", dir);
    snprintf(b, sizeof b, "%s/red_b.nc", dir);
    ps_field_alloc(&f, g, PS_FLOAT64);
    for (c = 0; c < 60; c++)
        ((double *)f.data)[c] = (double)c;
    reductions_file(a, 1, &w);
    CHECK(ps_writer_set_reduction(w, &r) == PS_EINVAL, "reductions before any record");
    EXPECT(ps_writer_append(w, 0, &f) == PS_OK);
    CHECK(ps_writer_append(w, 1, &f) == PS_EINVAL && strstr(ps_error_detail(), "no reductions"),
          "an append after a record without its reductions is refused: %s",
          ps_error_detail());
    CHECK(ps_writer_commit(w) == PS_EINVAL && strstr(ps_error_detail(), "no reductions"),
          "a commit with a record without its reductions is refused: %s", ps_error_detail());
    EXPECT(ps_writer_set_reduction(w, &r) == PS_OK);
    CHECK(ps_writer_set_reduction(w, &r) == PS_EINVAL, "reductions given twice");
    CHECK(ps_writer_reductions(w, 1, "") == PS_EINVAL, "reductions asked for late are refused");
    r.content = 11.5;
    r.max = 8.0;
    EXPECT(ps_writer_append(w, 2, &f) == PS_OK);
    EXPECT(ps_writer_set_reduction(w, &r) == PS_OK);
    EXPECT(ps_writer_commit(w) == PS_OK);
    ps_writer_abort(w);
    if (nc_open(a, NC_NOWRITE, &nc) == NC_NOERR) {
        for (i = 0; i < 5; i++) {
            char name[64], want[64], *t;
            int v, nd, dim, tdim;
            double got[2] = {0, 0};
            nc_type type;
            snprintf(name, sizeof name, "thetao_%s", suffix[i]);
            if (nc_inq_varid(nc, name, &v)) {
                FAILF("%s is not written", name);
                continue;
            }
            nc_inq_dimid(nc, "time", &tdim);
            CHECK(!nc_inq_var(nc, v, NULL, &type, &nd, &dim, NULL) && type == NC_DOUBLE &&
                      nd == 1 && dim == tdim, "%s is float64 over time", name);
            snprintf(want, sizeof want, "area: depth: %s where sea", method[i]);
            t = get_text(nc, v, "cell_methods");
            CHECK(t && !strcmp(t, want), "%s:cell_methods = \"%s\", expected \"%s\"", name,
                  t ? t : "(none)", want);
            free(t);
            t = get_text(nc, v, "units");
            CHECK(t && !strcmp(t, units[i]), "%s:units = \"%s\", expected \"%s\"", name,
                  t ? t : "(none)", units[i]);
            free(t);
            t = get_text(nc, v, "long_name");
            CHECK(t && *t, "%s has a long_name", name);
            free(t);
            CHECK(!nc_get_var_double(nc, v, got), "%s is read back", name);
            if (i == 0)
                CHECK(got[0] == 10.5 && got[1] == 11.5, "content per record: %g %g", got[0],
                      got[1]);
            if (i == 4)
                CHECK(got[0] == 7.0 && got[1] == 8.0, "max per record: %g %g", got[0], got[1]);
        }
        nc_close(nc);
    } else {
        FAILF("cannot open %s", a);
    }
    /* each cell weighing 1: a cell count, the field's units for the content, the why */
    reductions_file(b, 0, &w);
    EXPECT(ps_writer_append(w, 0, &f) == PS_OK);
    EXPECT(ps_writer_set_reduction(w, &r) == PS_OK);
    EXPECT(ps_writer_commit(w) == PS_OK);
    ps_writer_abort(w);
    if (nc_open(b, NC_NOWRITE, &nc) == NC_NOERR) {
        int v;
        char *u = NULL, *cu = NULL, *cm = NULL;
        if (!nc_inq_varid(nc, "thetao_volume", &v)) {
            u = get_text(nc, v, "units");
            cm = get_text(nc, v, "comment");
        }
        if (!nc_inq_varid(nc, "thetao_content", &v))
            cu = get_text(nc, v, "units");
        CHECK(u && !strcmp(u, "1"), "unit weights: volume units \"%s\"", u ? u : "(none)");
        CHECK(cu && !strcmp(cu, "degrees_C"), "unit weights: content units \"%s\"",
              cu ? cu : "(none)");
        CHECK(cm && strstr(cm, "no coordinate variables"), "unit weights: comment \"%s\"",
              cm ? cm : "(none)");
        free(u);
        free(cu);
        free(cm);
        nc_close(nc);
    } else {
        FAILF("cannot open %s", b);
    }
    ps_field_free(&f);
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
    test_round_trip(in, PS_FLOAT32, 0);
    test_round_trip(in, PS_FLOAT64, 4);
    test_refusals(in);
    test_generated();
    test_record();
    test_reductions();
    test_time_increases();
    test_ocean();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("warning: could not remove %s\n", dir);
    printf("%d checks, %d failures\n", ps_test_checks, ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
