/*
 * Unit tests of the picture layer on synthetic data (no NetCDF needed):
 * colour maps, limits, levels, decimation, differences, images (PNG size
 * from the IHDR chunk, SVG/PDF headers, several images in one process,
 * errors leave no output) and the interactive pages' content.
 *
 * `test_plot --out DIR` also keeps the pictures in DIR for the pixel and
 * browser ps_test_checks of tests/plot/pixels.sh and tests/plot/browser.sh.
 */
#include "config.h"
#include "ps_plot.h"
#include "ps_status.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>



enum { NX = 72, NY = 48, NZ = 4, NT = 3 };
static double g_lon[NX], g_lat[NY], g_depth[NZ] = {0.494, 1.541, 2.646, 3.819};

/* A warm-to-cold ocean with an island and a coast; land NaN. */
static double synth(size_t t, size_t k, size_t j, size_t i)
{
    double lon = g_lon[i], lat = g_lat[j];
    double di = (lon + 5.0) * (lon + 5.0) + (lat - 40.0) * (lat - 40.0);
    if (di < 9.0 + (double)k || (lon > 6.0 && lat > 46.0 - 0.3 * (lon - 6.0)) || lat < 31.0)
        return NAN; /* an island (growing with depth), a coast, a southern shore */
    return 24.0 - 0.45 * (lat - 30.0) - 0.8 * (double)k + 1.5 * sin(lon / 4.0 + 0.7 * (double)t) +
           0.5 * cos(lat / 3.0);
}

static void make_coords(void)
{
    size_t i;
    for (i = 0; i < NX; i++)
        g_lon[i] = -20.0 + 0.5 * (double)i + 0.25;
    for (i = 0; i < NY; i++)
        g_lat[i] = 30.0 + 0.5 * (double)i + 0.25;
}

static void make_field(ps_field *f, size_t t)
{
    ps_grid g = {NZ, NY, NX};
    size_t k, j, i;
    ps_field_alloc(f, g, PS_FLOAT32);
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                ((float *)f->data)[ps_index(&g, k, j, i)] = (float)synth(t, k, j, i);
}

/* A dataset with coordinates, as the reader would give it. */
static ps_attr g_units_attr = {.name = "units", .nc_type = 2, .len = 1, .text = "m"};
static void make_dataset(ps_dataset *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->ncid = -1;
    snprintf(ds->var_name, sizeof ds->var_name, "thetao");
    snprintf(ds->units, sizeof ds->units, "degrees_C");
    ds->grid = (ps_grid){NZ, NY, NX};
    ds->ntime = NT;
    ds->axes[PS_AXIS_DEPTH].present = 1;
    ds->axes[PS_AXIS_DEPTH].len = NZ;
    ds->axes[PS_AXIS_DEPTH].values = g_depth;
    snprintf(ds->axes[PS_AXIS_DEPTH].var_name, 256, "depth");
    ds->axes[PS_AXIS_DEPTH].attrs.count = 1;
    ds->axes[PS_AXIS_DEPTH].attrs.attrs = &g_units_attr;
    ds->axes[PS_AXIS_LAT].present = 1;
    ds->axes[PS_AXIS_LAT].len = NY;
    ds->axes[PS_AXIS_LAT].values = g_lat;
    ds->axes[PS_AXIS_LON].present = 1;
    ds->axes[PS_AXIS_LON].len = NX;
    ds->axes[PS_AXIS_LON].values = g_lon;
}

/* Width and height from a PNG's IHDR chunk; 0 if not a PNG. */
static int png_size(const char *path, unsigned *w, unsigned *h)
{
    unsigned char b[24];
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    FILE *f = fopen(path, "rb");
    size_t n;
    if (!f)
        return 0;
    n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n < 24 || memcmp(b, sig, 8) || memcmp(b + 12, "IHDR", 4))
        return 0;
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    return 1;
}

static int file_starts(const char *path, const char *prefix)
{
    char b[64] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    if (!fread(b, 1, sizeof b - 1, f)) {
        fclose(f);
        return 0;
    }
    fclose(f);
    return strstr(b, prefix) != NULL;
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* No temporary files left behind in dir. */
static int no_tmp_left(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp'", dir);
    return system(cmd) != 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *s;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *len = (size_t)n;
    }
    return s;
}

static void test_cmaps(void)
{
    int i, m;
    double rgb[3];
    EXPECT(ps_cmap_find("viridis") && ps_cmap_find("THERMAL") && ps_cmap_find("plasma"));
    EXPECT(ps_cmap_find("rdbu")->diverging && ps_cmap_find("balance")->diverging);
    EXPECT(ps_cmap_find("jet") == NULL);
    for (i = 0; ps_cmap_get(i); i++) {
        const ps_cmap *c = ps_cmap_get(i);
        EXPECT(c->pts[0][0] == 0.0 && c->pts[c->npts - 1][0] == 1.0);
        for (m = 1; m < c->npts; m++)
            EXPECT(c->pts[m][0] > c->pts[m - 1][0]);
        /* Land grey is far from every colour of every map. */
        for (m = 0; m <= 1000; m++) {
            double d;
            ps_cmap_eval(c, m / 1000.0, rgb);
            d = sqrt(pow(rgb[0] * 255 - PS_PLOT_LAND_R, 2) + pow(rgb[1] * 255 - PS_PLOT_LAND_G, 2) +
                     pow(rgb[2] * 255 - PS_PLOT_LAND_B, 2));
            if (d < 40.0) {
                fprintf(stderr, "%s at %g is %.1f from land grey\n", c->name, m / 1000.0, d);
                ps_test_failures++;
                break;
            }
        }
    }
    ps_cmap_eval(ps_cmap_find("rdbu"), 0.5, rgb);
    EXPECT(lround(rgb[0] * 255) == 247 && lround(rgb[1] * 255) == 247 && lround(rgb[2] * 255) == 247);
    ps_cmap_eval(ps_cmap_find("viridis"), 2.0, rgb); /* clamped to the top: yellow */
    EXPECT(lround(rgb[0] * 255) == 0xfd && lround(rgb[2] * 255) == 0x25);
    ps_cmap_eval(ps_cmap_find("viridis"), NAN, rgb);
    EXPECT(lround(rgb[0] * 255) == 0x44);
}

static void test_helpers(void)
{
    double v[101], lo, hi, d[5] = {0.49, 1.54, 2.65, 3.82, 5.08};
    size_t i;
    for (i = 0; i < 101; i++)
        v[i] = (double)i;
    v[7] = NAN;
    EXPECT(ps_plot_robust_limits(v, 101, 2.0, 98.0, &lo, &hi) == PS_OK);
    EXPECT(lo > 1.9 && lo < 3.1 && hi > 97.9 && hi < 98.1);
    for (i = 0; i < 101; i++)
        v[i] = NAN;
    EXPECT(ps_plot_robust_limits(v, 101, 2.0, 98.0, &lo, &hi) == PS_ERANGE);
    for (i = 0; i < 101; i++)
        v[i] = 5.0;
    EXPECT(ps_plot_robust_limits(v, 101, 2.0, 98.0, &lo, &hi) == PS_OK && lo < 5.0 && hi > 5.0);
    for (i = 0; i < 101; i++)
        v[i] = 0.0;
    EXPECT(ps_plot_symmetric_limits(v, 101, &lo, &hi) == PS_OK && lo == -1.0 && hi == 1.0);
    v[50] = -3e-7;
    EXPECT(ps_plot_symmetric_limits(v, 101, &lo, &hi) == PS_OK && hi == 3e-7 && lo == -hi);
    EXPECT(ps_plot_nearest_level(d, 5, 0.0) == 0);
    EXPECT(ps_plot_nearest_level(d, 5, 3.0) == 2);
    EXPECT(ps_plot_nearest_level(d, 5, 1e6) == 4);
    EXPECT(ps_plot_stride(241, 222, 250000) == 1);
    EXPECT(ps_plot_stride(4320, 2041, 250000) == 6); /* 720*341 <= 250000 < 864*409 */
    {
        size_t s = ps_plot_stride(1000, 1000, 60000);
        EXPECT(((1000 + s - 1) / s) * ((1000 + s - 1) / s) <= 60000);
        EXPECT(((1000 + s - 2) / (s - 1)) * ((1000 + s - 2) / (s - 1)) > 60000);
    }
}

static void test_diff(void)
{
    ps_field a, b;
    ps_diff_info di;
    double *d = malloc(NX * NY * sizeof *d);
    unsigned char *mk = malloc(NX * NY);
    ps_grid g = {NZ, NY, NX};
    size_t i, nan = 0;
    make_field(&a, 0);
    make_field(&b, 0);
    EXPECT(ps_plot_diff_level(&a, &b, 0, d, mk, &di) == PS_OK);
    EXPECT(di.max_abs == 0.0 && di.mismatched == 0 && di.differing == 0 && di.compared > 1000);
    for (i = 0; i < NX * NY; i++) {
        EXPECT(isnan(d[i]) || d[i] == 0.0);
        nan += isnan(d[i]);
        EXPECT(!mk[i]);
    }
    EXPECT(nan > 50 && nan + di.compared == NX * NY);
    /* One changed cell, one land cell made ocean. */
    ((float *)b.data)[ps_index(&g, 0, 10, 50)] += 0.25f;
    for (i = 0; i < NX * NY; i++)
        if (isnan(((float *)a.data)[i]))
            break;
    ((float *)b.data)[i] = 10.0f;
    EXPECT(ps_plot_diff_level(&a, &b, 0, d, mk, &di) == PS_OK);
    EXPECT(di.mismatched == 1 && mk[i] && isnan(d[i]));
    EXPECT(di.differing == 1 && fabs(di.max_abs - 0.25) < 1e-6 && di.max_j == 10 && di.max_i == 50);
    ps_field_free(&b);
    {
        ps_grid g2 = {NZ, NY, NX - 1};
        ps_field_alloc(&b, g2, PS_FLOAT32);
        EXPECT(ps_plot_diff_level(&a, &b, 0, d, mk, &di) == PS_EDIM);
        EXPECT(strstr(ps_error_detail(), "grids differ") != NULL);
    }
    ps_field_free(&a);
    ps_field_free(&b);
    /* The default level of a run's pictures: the shallowest level that differs. */
    {
        size_t k = 99, n = (size_t)NX * NY, c;
        float *pb;
        make_field(&a, 0);
        make_field(&b, 0);
        pb = b.data;
        EXPECT(ps_plot_changed_level(&a, &b, &k) == 0 && k == 99);
        for (c = 0; c < n && isnan(pb[(NZ - 1) * n + c]); c++)
            ;
        EXPECT(c < n);
        pb[(NZ - 1) * n + c] += 0.5f; /* a value at the deepest level */
        EXPECT(ps_plot_changed_level(&a, &b, &k) == 1 && k == (size_t)(NZ - 1));
        for (c = 0; c < n && isnan(pb[n + c]); c++)
            ;
        pb[n + c] = NAN; /* an ocean cell of level 1 made land */
        EXPECT(ps_plot_changed_level(&a, &b, &k) == 1 && k == 1);
        ps_field_free(&b);
        {
            ps_grid g3 = {NZ, NY, NX - 1};
            ps_field_alloc(&b, g3, PS_FLOAT32);
            EXPECT(ps_plot_changed_level(&a, &b, &k) == 0);
        }
        ps_field_free(&a);
        ps_field_free(&b);
    }
    free(d);
    free(mk);
}

static void test_images(const char *dir)
{
    ps_dataset ds;
    ps_field f0, f1;
    ps_image_options o;
    ps_image_info info;
    ps_diff_info di;
    char path[4200];
    unsigned w = 0, h = 0;
    int rc;

    make_dataset(&ds);
    make_field(&f0, 0);
    make_field(&f1, 1);
    ps_image_options_init(&o);
    o.path = path;

    if (!ps_plot_have_images()) {
        snprintf(path, sizeof path, "%s/none.png", dir);
        EXPECT(ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, NULL) == PS_ENOTIMPL);
        EXPECT(strstr(ps_error_detail(), "without PLplot") != NULL);
        EXPECT(!exists(path));
        goto done;
    }
    /* A slice at the requested size. */
    snprintf(path, sizeof path, "%s/slice.png", dir);
    o.width = 900;
    o.height = 640;
    rc = ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, &info);
    EXPECT(rc == PS_OK);
    EXPECT(png_size(path, &w, &h) && w == 900 && h == 640);
    EXPECT(info.ocean > 1000 && info.land > 50 && info.vmin < info.vmax);
    /* The same through other drivers, in the same process (PLplot's state). */
    snprintf(path, sizeof path, "%s/slice.svg", dir);
    EXPECT(ps_plot_field_level(&ds, &f0, 1, 0, NULL, &o, NULL) == PS_OK);
    EXPECT(file_starts(path, "<?xml") || file_starts(path, "<svg"));
    snprintf(path, sizeof path, "%s/slice.pdf", dir);
    o.cmap = "thermal";
    EXPECT(ps_plot_field_level(&ds, &f1, 2, 1, NULL, &o, NULL) == PS_OK);
    EXPECT(file_starts(path, "%PDF"));
    o.cmap = NULL;
    /* Fixed limits are honoured. */
    snprintf(path, sizeof path, "%s/slice_fixed.png", dir);
    o.have_vmin = o.have_vmax = 1;
    o.vmin = 10.0;
    o.vmax = 30.0;
    EXPECT(ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, &info) == PS_OK);
    EXPECT(info.vmin == 10.0 && info.vmax == 30.0);
    /* Errors: no output, no temporary left. */
    o.vmin = 30.0;
    o.vmax = 10.0;
    snprintf(path, sizeof path, "%s/bad_limits.png", dir);
    EXPECT(ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, NULL) == PS_EINVAL);
    EXPECT(!exists(path));
    o.have_vmin = o.have_vmax = 0;
    snprintf(path, sizeof path, "%s/bad.gif", dir);
    EXPECT(ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, NULL) == PS_EINVAL);
    EXPECT(strstr(ps_error_detail(), "unknown image type") != NULL && !exists(path));
    snprintf(path, sizeof path, "%s/no/such/dir/x.png", dir);
    EXPECT(ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, NULL) == PS_EIO);
    o.cmap = "jet";
    snprintf(path, sizeof path, "%s/badcmap.png", dir);
    EXPECT(ps_plot_field_level(&ds, &f0, 0, 0, NULL, &o, NULL) == PS_EINVAL && !exists(path));
    o.cmap = NULL;
    EXPECT(ps_plot_field_level(&ds, &f0, NZ, 0, NULL, &o, NULL) == PS_ERANGE && !exists(path));
    /* Differences: of a field with itself, and of two times. */
    snprintf(path, sizeof path, "%s/diff_self.png", dir);
    o.width = 800;
    o.height = 600;
    EXPECT(ps_plot_field_diff(&ds, &f0, &f0, 0, 0, "self - self", &o, &di) == PS_OK);
    EXPECT(di.max_abs == 0.0 && di.differing == 0 && di.mismatched == 0);
    EXPECT(png_size(path, &w, &h) && w == 800 && h == 600);
    snprintf(path, sizeof path, "%s/diff.png", dir);
    ((float *)f1.data)[ps_index(&ds.grid, 0, 0, 0)] = 12.0f; /* a land cell made ocean */
    EXPECT(ps_plot_field_diff(&ds, &f0, &f1, 0, 1, "t1 - t0", &o, &di) == PS_OK);
    EXPECT(di.max_abs > 0.1 && di.mismatched >= 1);
    /* The run's three pictures. */
    snprintf(path, sizeof path, "%s/run", dir);
    EXPECT(ps_plot_run_images(path, &ds, &f0, &f1, "ocean", 0) == PS_OK);
    snprintf(path, sizeof path, "%s/run/ocean_before.png", dir);
    EXPECT(png_size(path, &w, &h) && w == 1000 && h == 700);
    snprintf(path, sizeof path, "%s/run/ocean_after.png", dir);
    EXPECT(png_size(path, &w, &h));
    snprintf(path, sizeof path, "%s/run/ocean_diff.png", dir);
    EXPECT(png_size(path, &w, &h));
    EXPECT(no_tmp_left(dir));
done:
    ps_field_free(&f0);
    ps_field_free(&f1);
}

static int get_synth(void *ctx, size_t t, size_t k, double *out)
{
    size_t j, i;
    (void)ctx;
    if (t >= NT || k >= NZ)
        return ps_error(PS_ERANGE, "no such frame");
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            out[j * NX + i] = synth(t, k, j, i);
    return PS_OK;
}

static void check_page(const char *path, int embedded, const char *must)
{
    size_t len = 0;
    char *all = slurp(path, &len), *s;
    EXPECT(all != NULL);
    if (!all)
        return;
    /* The page's own part: after plotly.js. */
    s = strstr(all, "<div id=\"ps-note\">");
    EXPECT(s != NULL);
    if (!s)
        s = all;
    if (embedded)
        EXPECT(len > 1000000 && strstr(all, "<script src=") == NULL);
    else
        EXPECT(len < 1000000 && strstr(all, "<script src=\"https://cdn.plot.ly/plotly-2.") != NULL);
    EXPECT(strstr(s, "Plotly.newPlot") != NULL);
    EXPECT(strstr(s, "null") != NULL); /* land */
    EXPECT(strstr(s, "nan") == NULL && strstr(s, "inf,") == NULL && strstr(s, "NaN,") == NULL);
    EXPECT(strstr(s, "</html>") != NULL);
    if (must)
        EXPECT(strstr(s, must) != NULL);
    free(all);
}

static void test_pages(const char *dir)
{
    ps_html_source src = {0};
    ps_html_options o;
    ps_html_info info;
    size_t lev0[1] = {0}, levs[3] = {0, 1, 2};
    const char *labels[NT] = {"0", "1", "2"};
    char path[4200];
    int embedded = PS_PLOTLY_JS[0] != '\0';

    src.nx = NX;
    src.ny = NY;
    src.lon = g_lon;
    src.lat = g_lat;
    src.ntimes = NT;
    src.time_labels = labels;
    src.nlevels = 1;
    src.levels = lev0;
    src.depths = g_depth;
    src.depth_units = "m";
    src.get = get_synth;
    src.title = "thetao at 0.494 m (level 0) <synthetic>";
    src.var_name = "thetao";
    src.units = "degrees_C";
    ps_html_options_init(&o);
    o.path = path;
    o.frame_ms = 300;

    snprintf(path, sizeof path, "%s/animate.html", dir);
    EXPECT(ps_html_animate(&src, &o, &info) == PS_OK);
    EXPECT(info.stride == 1 && info.nx == NX && info.vmin < info.vmax);
    check_page(path, embedded, "frameMs=300");
    /* A title cannot close the script element. */
    {
        size_t len;
        char *s = slurp(path, &len);
        EXPECT(s && strstr(s, "<synthetic>") == NULL && strstr(s, "&lt;synthetic&gt;"));
        free(s);
    }
    src.nlevels = 3;
    src.levels = levs;
    snprintf(path, sizeof path, "%s/cube.html", dir);
    EXPECT(ps_html_cube(&src, &o, &info) == PS_OK);
    check_page(path, embedded, "type:'surface'");
    /* Decimation is applied and said. */
    o.max_cells = 500;
    o.quiet = 1;
    o.plotly_cdn = 1;
    snprintf(path, sizeof path, "%s/animate_decimated.html", dir);
    EXPECT(ps_html_animate(&src, &o, &info) == PS_OK);
    EXPECT(info.stride >= 3 && info.nx * info.ny <= 500);
    check_page(path, 0, "decimated: every");
    /* Fixed limits; bad limits and bad paths leave nothing. */
    o.max_cells = 0;
    o.have_vmin = o.have_vmax = 1;
    o.vmin = 5;
    o.vmax = 25;
    snprintf(path, sizeof path, "%s/limits.html", dir);
    EXPECT(ps_html_animate(&src, &o, &info) == PS_OK && info.vmin == 5 && info.vmax == 25);
    check_page(path, 0, "zmin=5, zmax=25");
    o.vmin = 30;
    snprintf(path, sizeof path, "%s/bad_limits.html", dir);
    EXPECT(ps_html_animate(&src, &o, &info) == PS_EINVAL && !exists(path));
    o.have_vmin = o.have_vmax = 0;
    snprintf(path, sizeof path, "%s/no/such/dir/a.html", dir);
    EXPECT(ps_html_animate(&src, &o, &info) == PS_EIO);
    snprintf(path, sizeof path, "%s/page.png", dir);
    EXPECT(ps_html_animate(&src, &o, &info) == PS_EINVAL && !exists(path));
    src.ntimes = NT + 1; /* the callback fails on the last frame */
    snprintf(path, sizeof path, "%s/failed.html", dir);
    EXPECT(ps_html_cube(&src, &o, &info) == PS_ERANGE && !exists(path));
    src.ntimes = NT;
    o.plotly_cdn = 0;
    o.plotly_js = "/nonexistent/plotly.js";
    EXPECT(ps_html_cube(&src, &o, &info) == PS_EIO && !exists(path));
    EXPECT(no_tmp_left(dir));
    {
        char url[256];
        ps_html_plotly_cdn("/nonexistent", url, sizeof url);
        EXPECT(strncmp(url, "https://cdn.plot.ly/plotly-2.", 29) == 0);
    }
}

int main(int argc, char **argv)
{
    char dir[4096];
    int keep = argc == 3 && !strcmp(argv[1], "--out");
    make_coords();
    if (keep) {
        snprintf(dir, sizeof dir, "%s", argv[2]);
        mkdir(dir, 0777);
    } else {
        snprintf(dir, sizeof dir, "%s/pstencil-test-plot.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 99;
        }
    }
    test_cmaps();
    test_helpers();
    test_diff();
    test_images(dir);
    test_pages(dir);
    if (!keep) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd))
            fprintf(stderr, "could not remove %s\n", dir);
    }
    if (ps_test_failures)
        fprintf(stderr, "%d check(s) failed\n", ps_test_failures);
    else
        printf("test_plot: all checks passed\n");
    return ps_test_failures ? 1 : 0;
}
