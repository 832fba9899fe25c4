/*
 * Static slice maps with PLplot's cairo drivers (pngcairo, svgcairo,
 * pdfcairo, chosen by the output's extension).
 *
 * PLplot keeps global state and calls exit() on fatal errors: each image is
 * drawn in a fresh stream (plmkstrm ... plend1) under a process-wide mutex,
 * with an exit handler that jumps back here so a PLplot failure becomes a
 * status code. The picture is written to a temporary file in the output's
 * directory and renamed into place when PLplot has finished.
 */
#include "config.h"
#include "ps_outfile.h"
#include "ps_plot.h"
#include "ps_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void ps_image_options_init(ps_image_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1000;
    o->height = 700;
}

int ps_plot_have_images(void)
{
#ifdef PS_HAVE_PLPLOT
    return 1;
#else
    return 0;
#endif
}

#ifndef PS_HAVE_PLPLOT

int ps_plot_slice(const ps_slice *s, const ps_image_options *o, ps_image_info *info)
{
    (void)s;
    (void)info;
    return ps_error(PS_ENOTIMPL, "cannot write %s: pstencil was built without PLplot",
                    o && o->path ? o->path : "an image");
}

#else /* PS_HAVE_PLPLOT */

#include <plplot.h>
#include <pthread.h>
#include <setjmp.h>

static pthread_mutex_t ps_pl_lock = PTHREAD_MUTEX_INITIALIZER;
static jmp_buf ps_pl_jump;
static char ps_pl_msg[512];

/* plexit() calls this, then exit(): jump back to ps_plot_slice instead. */
static PLINT ps_pl_exit_handler(PLCHAR_VECTOR msg)
{
    snprintf(ps_pl_msg, sizeof ps_pl_msg, "%s", msg ? msg : "PLplot error");
    longjmp(ps_pl_jump, 1);
    return 0;
}

/* Non-fatal PLplot complaints: keep the last one for the error detail. */
static void ps_pl_abort_handler(PLCHAR_VECTOR msg)
{
    snprintf(ps_pl_msg, sizeof ps_pl_msg, "%s", msg ? msg : "PLplot warning");
}

static const char *ps_pl_device(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return NULL;
    if (!strcasecmp(dot, ".png"))
        return "pngcairo";
    if (!strcasecmp(dot, ".svg"))
        return "svgcairo";
    if (!strcasecmp(dot, ".pdf"))
        return "pdfcairo";
    return NULL;
}

/* Cell edges from monotonic centres: midpoints, ends extrapolated. */
static void ps_edges(const double *c, size_t n, double *e)
{
    size_t i;
    if (n == 1) {
        e[0] = c[0] - 0.5;
        e[1] = c[0] + 0.5;
        return;
    }
    for (i = 1; i < n; i++)
        e[i] = 0.5 * (c[i - 1] + c[i]);
    e[0] = c[0] - (e[1] - c[0]);
    e[n] = c[n - 1] + (c[n - 1] - e[n - 1]);
}

static int ps_monotonic(const double *c, size_t n)
{
    size_t i;
    int dir = 0;
    for (i = 0; i < n; i++)
        if (!isfinite(c[i]))
            return 0;
    for (i = 1; i < n; i++) {
        int d = c[i] > c[i - 1] ? 1 : c[i] < c[i - 1] ? -1 : 0;
        if (d == 0 || (dir && d != dir))
            return 0;
        dir = d;
    }
    return 1;
}

/* A tick step of 1, 2 or 5 times a power of ten giving at most @p maxn
 * intervals over @p span (0: let PLplot choose). */
static double ps_nice_step(double span, double maxn)
{
    double base, m[] = {1, 2, 5, 10};
    int i;
    if (!(span > 0) || !(maxn >= 1))
        return 0.0;
    base = pow(10.0, floor(log10(span / maxn)));
    for (i = 0; i < 4; i++)
        if (span / (m[i] * base) <= maxn)
            return m[i] * base;
    return 10 * base;
}

/* The smallest character height drawn, in pixels: text below it is not
 * read (3 px at 200x150 with fonts scaled to the page). */
#define PS_MIN_CHAR_PX 8.0

/* Width of a text line in pixels at character height @p ch_px: PLplot 5.15
 * exports no string measure; the cairo sans glyphs average under 0.9
 * character heights (digits and lower case; tests/plot/sizes.sh checks the
 * titles stay on the page). */
#define PS_CHAR_W 0.9
static double ps_text_px(const char *t, double ch_px)
{
    return (double)strlen(t) * PS_CHAR_W * ch_px;
}

/* A title block: the text wrapped at spaces into at most PS_TITLE_LINES
 * lines (and @p maxlines), each no wider than the page less two characters, at a scale that
 * is the block's own or smaller (down to PS_MIN_CHAR_PX) when one line then
 * fits; only a last line that still does not fit is cut with "...". */
#define PS_TITLE_LINES 4
#define PS_TITLE_LEN 256
typedef struct ps_title {
    int n;                                     /* lines */
    double scale;                              /* PLplot character scale */
    double px;                                 /* character height in pixels */
    char line[PS_TITLE_LINES][PS_TITLE_LEN];
} ps_title;

/* @p unit_px: the character height in pixels at scale 1; @p width: the
 * page's width in pixels. */
static void ps_title_fit(ps_title *b, const char *text, double scale, double unit_px,
                         double width, int maxlines)
{
    double avail, len, min_scale = PS_MIN_CHAR_PX / unit_px;
    const char *p = text ? text : "";
    int k;
    memset(b, 0, sizeof *b);
    b->scale = scale;
    avail = width - 2.0 * scale * unit_px;
    len = ps_text_px(p, scale * unit_px);
    if (len > avail && len > 0 && scale > min_scale) {
        /* shrink, but not below the smallest readable character */
        b->scale = fmax(scale * avail / len, min_scale);
        avail = width - 2.0 * b->scale * unit_px;
    }
    b->px = b->scale * unit_px;
    if (maxlines > PS_TITLE_LINES)
        maxlines = PS_TITLE_LINES;
    if (maxlines < 1)
        maxlines = 1;
    for (k = 0; k < maxlines; k++) {
        size_t n, fit = 0, i;
        int cut = 0;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        n = strlen(p);
        /* the longest run of whole words that fits */
        for (i = 1; i <= n && i < PS_TITLE_LEN; i++)
            if ((i == n || p[i] == ' ') && (double)i * PS_CHAR_W * b->px <= avail)
                fit = i;
        if (k == maxlines - 1 && fit < n) { /* the last line takes the rest */
            fit = n;
            cut = 1;
        } else if (fit == 0) { /* one word wider than the page */
            for (fit = 1; fit < n && p[fit] != ' '; fit++)
                ;
            cut = 1;
        }
        if (fit >= PS_TITLE_LEN)
            fit = PS_TITLE_LEN - 1;
        memcpy(b->line[k], p, fit);
        b->line[k][fit] = '\0';
        p += fit;
        if (cut) {
            size_t m;
            for (m = strlen(b->line[k]); m > 4 && ps_text_px(b->line[k], b->px) > avail; m--)
                memcpy(b->line[k] + m - 4, "...", 4);
            if (k == maxlines - 1)
                p += strlen(p);
        }
    }
    b->n = k;
}

/* The height a block adds above its first line: 1.7 of its character
 * height for each further line. */
static double ps_title_extra(const ps_title *b)
{
    return b->n > 1 ? 1.7 * b->px * (b->n - 1) : 0.0;
}

/* Draw block @p b centred on the page, its last line's reference point
 * @p base_px pixels above the viewport's top, the others above it. */
static void ps_title_draw(const ps_title *b, double base_px)
{
    int k;
    plschr(0.0, b->scale);
    for (k = 0; k < b->n; k++)
        plmtex("t", (base_px + 1.7 * b->px * (b->n - 1 - k)) / b->px, 0.5, 0.5, b->line[k]);
}

/* Axis labels: 10°W, 5°E, 30°N, 2°S. */
static void ps_geo_label(PLINT axis, PLFLT value, PLCHAR_NC_VECTOR label, PLINT length,
                         PLPointer data)
{
    const char *hemi;
    double a;
    (void)data;
    if (axis == PL_X_AXIS) /* unwrapped longitudes: 190 is 170 W, -200 is 160 E */
        value = fmod(fmod(value + 180.0, 360.0) + 360.0, 360.0) - 180.0;
    a = fabs(value);
    if (fabs(value) < 1e-9)
        hemi = "";
    else if (axis == PL_X_AXIS)
        hemi = value < 0 ? "W" : "E";
    else
        hemi = value < 0 ? "S" : "N";
    if (fabs(a - round(a)) < 1e-6)
        snprintf(label, (size_t)length, "%.0f°%s", a, hemi);
    else
        snprintf(label, (size_t)length, "%.4g°%s", a, hemi);
}

/* Colour-bar labels with as many decimals as the range needs and no
 * separate exponent (PLplot writes "(x10^-5)" above the bar, over the
 * subtitle): 0.00012, 1.5e-05, 20.001. */
static void ps_bar_label(PLINT axis, PLFLT value, PLCHAR_NC_VECTOR label, PLINT length,
                         PLPointer data)
{
    const double *range = data; /* vmin, vmax */
    double span = fabs(range[1] - range[0]), big = fmax(fabs(range[0]), fabs(range[1]));
    int dec;
    (void)axis;
    if (fabs(value) < 1e-12 * (big > 0 ? big : 1))
        value = 0.0;
    if (!(span > 0))
        span = big > 0 ? big : 1;
    if (big < 1e6 && span >= 1e-8) {
        dec = (int)ceil(-log10(span / 10.0));
        dec = dec < 0 ? 0 : dec > 9 ? 9 : dec;
        snprintf(label, (size_t)length, "%.*f", dec, value);
    } else {
        dec = (int)ceil(log10(big / span)) + 1;
        dec = dec < 1 ? 1 : dec > 9 ? 9 : dec;
        snprintf(label, (size_t)length, "%.*e", dec, value);
    }
}

static void ps_set_cmap1(const ps_cmap *c)
{
    PLFLT pos[64], r[64], g[64], b[64], a[64];
    int i, n = c->npts < 64 ? c->npts : 64;
    for (i = 0; i < n; i++) {
        pos[i] = c->pts[i][0];
        r[i] = c->pts[i][1];
        g[i] = c->pts[i][2];
        b[i] = c->pts[i][3];
        a[i] = 1.0;
    }
    /* An odd number of colours puts an exact colour on the centre (0.5). */
    plscmap1n(255);
    plscmap1la(1, n, pos, r, g, b, a, NULL);
}

/* Everything PLplot does for one image; called with the lock held. */
static int ps_pl_draw(const ps_slice *s, const ps_image_options *o, const ps_cmap *cm,
                      const char *dev, const char *tmp, double vmin, double vmax,
                      PLFLT **z, PLFLT *xe, PLFLT *ye)
{
    PLINT old_strm = 0, strm = 0;
    volatile int started = 0;
    double x0, x1, y0, y1, latmid, ratio, vx0, vx1, vy0, vy1, fs, ch = 14.0, map_w = 500.0;
    double map_h = 350.0, px_per_mm = 4.0, unit_px = 16.0;
    ps_title tb, sb;
    double range[2] = {vmin, vmax};
    char opt[64];
    PLcGrid cgrid;
    size_t i, j;

    ps_pl_msg[0] = '\0';
    plgstrm(&old_strm);
    plmkstrm(&strm);
    if (strm < 0)
        return ps_error(PS_EINTERNAL, "PLplot: cannot create a stream");
    if (setjmp(ps_pl_jump)) {
        /* plexit() was called: the stream state is undefined; leave it. */
        plsstrm(old_strm);
        return ps_error(PS_EINTERNAL, "PLplot failed writing %s: %s", o->path, ps_pl_msg);
    }
    plsexit(ps_pl_exit_handler);
    plsabort(ps_pl_abort_handler);
    plsdev(dev);
    plsfnam(tmp);
    plspage(0.0, 0.0, o->width, o->height, 0, 0);
    /* Filled cells without anti-aliasing: no hairline seams between cells. */
    plsetopt("drvopt", "graphics_anti_aliasing=1");
    plscolbg(255, 255, 255);
    plscol0(1, 0, 0, 0);                                               /* axes, text */
    plscol0(2, PS_PLOT_LAND_R, PS_PLOT_LAND_G, PS_PLOT_LAND_B);        /* land */
    plscol0(3, PS_PLOT_MARK_R, PS_PLOT_MARK_G, PS_PLOT_MARK_B);        /* mask mismatch */
    plinit();
    started = 1;
    ps_set_cmap1(cm);
    pladv(0);
    /* Fonts scale with the smaller side (1 at 1000x700), but a character is
     * never below PS_MIN_CHAR_PX pixels (readable on a 200x150 page); every
     * margin is counted in character heights, so text keeps its room at any
     * size. */
    fs = fmin(o->width / 1000.0, o->height / 700.0);
    plschr(0.0, 0.95 * fs);
    {
        PLFLT def, ht, sx0, sx1, sy0, sy1;
        plgchr(&def, &ht);
        plgspa(&sx0, &sx1, &sy0, &sy1);
        ch = ht * o->width / (sx1 - sx0); /* character height in pixels */
        if (ch < PS_MIN_CHAR_PX) {
            fs *= PS_MIN_CHAR_PX / ch;
            ch = PS_MIN_CHAR_PX;
            plschr(0.0, 0.95 * fs);
        }
        px_per_mm = o->width / (sx1 - sx0);
        unit_px = def * px_per_mm; /* character height in pixels at scale 1 */
    }

    x0 = fmin(xe[0], xe[s->nx]);
    x1 = fmax(xe[0], xe[s->nx]);
    y0 = fmin(ye[0], ye[s->ny]);
    y1 = fmax(ye[0], ye[s->ny]);
    /* Keep the map's proportions: a degree of longitude is cos(lat) of one of latitude. */
    latmid = 0.5 * (y0 + y1);
    if (!(fabs(latmid) < 89.0))
        latmid = 0.0;
    ratio = (x1 - x0) * cos(latmid * M_PI / 180.0) / (y1 - y0);
    if (!(ratio > 0 && isfinite(ratio)))
        ratio = 1.0;
    {
        /* margins in pixels: y tick labels and label left; the colour bar,
         * its labels and units right; two title lines above; x tick labels
         * and label below */
        char l0[64], l1[64];
        size_t lw;
        double ml, mr, mt, mb = 4.8 * ch;
        /* the titles wrapped to the page's width: each further line widens
         * the top margin, by at most a tenth of the page's height in all
         * (the map keeps its room on a 200x150 page), the title first */
        double budget = 0.1 * o->height, step = 1.7 * 0.95 * fs * unit_px;
        ps_title_fit(&tb, s->title, 0.95 * fs, unit_px, o->width, 1 + (int)(budget / step));
        budget -= ps_title_extra(&tb);
        step = 1.7 * 0.8 * fs * unit_px;
        ps_title_fit(&sb, s->subtitle && *s->subtitle ? s->subtitle : "", 0.8 * fs, unit_px,
                     o->width, 1 + (int)(fmax(0.0, budget) / step));
        mt = 5.2 * ch + ps_title_extra(&tb) + ps_title_extra(&sb);
        ps_bar_label(PL_Y_AXIS, vmin, l0, sizeof l0, range);
        ps_bar_label(PL_Y_AXIS, vmax, l1, sizeof l1, range);
        lw = strlen(l0) > strlen(l1) ? strlen(l0) : strlen(l1);
        /* gap, bar, tick, its labels (0.85 character heights a digit), units, edge */
        mr = (1.2 + 1.6 + 0.6 + 0.85 * (double)(lw + 1) + 3.0 + 1.0) * ch;
        ml = 7.0 * ch;
        double bw = o->width - ml - mr, bh = o->height - mt - mb, mw, mh, left, bottom;
        if (bw < 20)
            bw = 20;
        if (bh < 20)
            bh = 20;
        if (bw / bh > ratio) {
            mh = bh;
            mw = bh * ratio;
        } else {
            mw = bw;
            mh = bw / ratio;
        }
        left = ml + 0.5 * (bw - mw);
        bottom = mb + 0.5 * (bh - mh);
        vx0 = left / o->width;
        vx1 = (left + mw) / o->width;
        vy0 = bottom / o->height;
        vy1 = (bottom + mh) / o->height;
        map_w = mw;
        map_h = mh;
    }
    plvpor(vx0, vx1, vy0, vy1);
    plwind(x0, x1, y0, y1);

    /* Land: the whole map in grey first; ocean cells are drawn over it. */
    {
        PLFLT fx[4] = {x0, x1, x1, x0}, fy[4] = {y0, y0, y1, y1};
        plcol0(2);
        plfill(4, fx, fy);
    }
    cgrid.xg = xe;
    cgrid.yg = ye;
    cgrid.zg = NULL;
    cgrid.nx = (PLINT)s->nx + 1;
    cgrid.ny = (PLINT)s->ny + 1;
    plimagefr((PLFLT_MATRIX)z, (PLINT)s->nx, (PLINT)s->ny, x0, x1, y0, y1, vmin, vmax, vmin,
              vmax, pltr1, &cgrid);
    if (s->mark) {
        plcol0(3);
        for (j = 0; j < s->ny; j++)
            for (i = 0; i < s->nx; i++)
                if (s->mark[j * s->nx + i]) {
                    PLFLT fx[4] = {xe[i], xe[i + 1], xe[i + 1], xe[i]};
                    PLFLT fy[4] = {ye[j], ye[j], ye[j + 1], ye[j + 1]};
                    plfill(4, fx, fy);
                }
    }

    plcol0(1);
    plwidth(1.0);
    plslabelfunc(ps_geo_label, NULL);
    /* at most one longitude label per 5 characters of map width, one
     * latitude label per 2.5 character heights */
    plbox("bcnsto", ps_nice_step(x1 - x0, fmax(1.0, (vx1 - vx0) * o->width / (5.0 * ch))), 0,
          "bcnstvo", ps_nice_step(y1 - y0, fmax(1.0, (vy1 - vy0) * o->height / (2.5 * ch))), 0);
    plslabelfunc(NULL, NULL);
    pllab(s->xlabel ? s->xlabel : "Longitude", s->ylabel ? s->ylabel : "Latitude", "");
    /* titles centred on the page (the map may sit left of its middle) and
     * fitted to its width */
    plvpor(0.0, 1.0, vy0, vy1);
    if (s->subtitle && *s->subtitle) {
        /* the subtitle clear of the top latitude label (half a character
         * above the map's edge) */
        ps_title_draw(&sb, 1.28 * fs * unit_px);
        ps_title_draw(&tb, 1.28 * fs * unit_px + ps_title_extra(&sb) + 1.665 * fs * unit_px);
    } else {
        ps_title_draw(&tb, 1.9 * fs * unit_px);
    }
    plschr(0.0, 0.95 * fs);
    plvpor(vx0, vx1, vy0, vy1);
    plwind(x0, x1, y0, y1);

    /* The colour bar, right of the map, as tall as the map. */
    {
        enum { NV = 255 };
        /* one label per 2.5 character heights of the bar */
        PLFLT vals[NV], cbw, cbh,
            ticks[1] = {ps_nice_step(vmax - vmin, fmax(1.0, map_h / (2.5 * ch)))};
        PLFLT *values[1] = {vals};
        PLINT n_values[1] = {NV}, sub_ticks[1] = {0};
        PLINT label_opts[1] = {PL_COLORBAR_LABEL_RIGHT};
        /* ticks drawn inside the bar: outward ones ran into the labels */
        const char *labels[1], *axis_opts[1] = {"bcvmto"};
        int m;
        for (m = 0; m < NV; m++)
            vals[m] = vmin + (vmax - vmin) * m / (NV - 1);
        labels[0] = s->units && *s->units ? s->units : "(no units)";
        snprintf(opt, sizeof opt, "%s", labels[0]);
        labels[0] = opt;
        plslabelfunc(ps_bar_label, range);
        /* offset and width in map widths: a gap of 1.2 and a bar of 1.6 characters */
        plcolorbar(&cbw, &cbh, PL_COLORBAR_IMAGE,
                   PL_POSITION_RIGHT | PL_POSITION_OUTSIDE | PL_POSITION_VIEWPORT,
                   1.2 * ch / map_w, 0.0, 1.6 * ch / map_w, 1.0,
                   0, 1, 1, 0.0, 0.0, 0, 0.0, 1, label_opts, labels, 1, axis_opts, ticks,
                   sub_ticks, n_values, (PLFLT_MATRIX)values);
        plslabelfunc(NULL, NULL);
    }
    (void)started;
    plend1();
    plsstrm(old_strm);
    return PS_OK;
}

/* A column of a window: its longitude east of the window's western edge. */
typedef struct ps_col {
    double x;
    size_t i;
} ps_col;

static int ps_col_cmp(const void *a, const void *b)
{
    const ps_col *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : (p->i > q->i) - (p->i < q->i);
}

/* The cells of @p in that the options' window selects, in map order, into
 * @p out (buffers in @p buf[0..3], freed by the caller): longitudes unwrapped
 * (350, 355, 0, 5 -> 350, 355, 360, 365), a longitude window taken modulo
 * 360 from its western edge (columns reordered across the grid's seam). */
static int ps_slice_window(const ps_slice *in, const ps_image_options *o, ps_slice *out,
                           void *buf[4])
{
    double *lon = NULL, *lat = NULL, *val = NULL;
    unsigned char *mark = NULL;
    ps_col *cols = NULL;
    size_t *rows = NULL, i, j, nc = 0, nr = 0;
    int rc = PS_OK;
    *out = *in;
    cols = malloc(in->nx * sizeof *cols);
    rows = malloc(in->ny * sizeof *rows);
    if (!cols || !rows) {
        rc = ps_error(PS_ENOMEM, "out of memory drawing %s", o->path);
        goto done;
    }
    for (i = 0; i < in->nx; i++) {
        double x = in->lon[i];
        if (!isfinite(x)) {
            rc = ps_error(PS_EINVAL, "longitude %zu is not finite", i);
            goto done;
        }
        if (o->have_lon_window) {
            x = o->lon_w + fmod(fmod(x - o->lon_w, 360.0) + 360.0, 360.0);
            if (x > o->lon_e)
                continue;
        } else if (nc > 0) {
            while (x - cols[nc - 1].x > 180.0)
                x -= 360.0;
            while (x - cols[nc - 1].x < -180.0)
                x += 360.0;
        }
        cols[nc].x = x;
        cols[nc++].i = i;
    }
    if (o->have_lon_window)
        qsort(cols, nc, sizeof *cols, ps_col_cmp);
    for (j = 0; j < in->ny; j++)
        if (!o->have_lat_window || (in->lat[j] >= o->lat_s && in->lat[j] <= o->lat_n))
            rows[nr++] = j;
    if (nc == 0 || nr == 0) {
        rc = ps_error(PS_EINVAL, "the window (longitudes %g..%g, latitudes %g..%g) holds no cell "
                                 "of the grid",
                      o->have_lon_window ? o->lon_w : -HUGE_VAL, o->have_lon_window ? o->lon_e : HUGE_VAL,
                      o->have_lat_window ? o->lat_s : -90.0, o->have_lat_window ? o->lat_n : 90.0);
        goto done;
    }
    lon = malloc(nc * sizeof *lon);
    lat = malloc(nr * sizeof *lat);
    val = malloc(nc * nr * sizeof *val);
    mark = in->mark ? malloc(nc * nr) : NULL;
    if (!lon || !lat || !val || (in->mark && !mark)) {
        rc = ps_error(PS_ENOMEM, "out of memory drawing %s", o->path);
        goto done;
    }
    for (i = 0; i < nc; i++)
        lon[i] = cols[i].x;
    for (j = 0; j < nr; j++) {
        lat[j] = in->lat[rows[j]];
        for (i = 0; i < nc; i++) {
            val[j * nc + i] = in->values[rows[j] * in->nx + cols[i].i];
            if (mark)
                mark[j * nc + i] = in->mark[rows[j] * in->nx + cols[i].i];
        }
    }
    out->nx = nc;
    out->ny = nr;
    out->lon = lon;
    out->lat = lat;
    out->values = val;
    out->mark = mark;
done:
    buf[0] = lon;
    buf[1] = lat;
    buf[2] = val;
    buf[3] = mark;
    free(cols);
    free(rows);
    return rc;
}

int ps_plot_slice(const ps_slice *in, const ps_image_options *o, ps_image_info *info)
{
    const ps_cmap *cm;
    const char *dev;
    double vmin, vmax;
    PLFLT **z = NULL, *xe = NULL, *ye = NULL;
    char *tmp = NULL;
    size_t i, j, n, ocean = 0, land = 0, marked = 0;
    int rc = PS_OK, fd, locked = 0;
    ps_slice win;
    const ps_slice *s = &win;
    void *wbuf[4] = {NULL, NULL, NULL, NULL};

    if (!in || !o || !o->path || !*o->path)
        return ps_error(PS_EINVAL, "ps_plot_slice: no slice or no output path");
    if (!in->nx || !in->ny || !in->lon || !in->lat || !in->values)
        return ps_error(PS_EINVAL, "ps_plot_slice: empty slice");
    if (in->nx > 100000 || in->ny > 100000)
        return ps_error(PS_EINVAL, "slice of %zu x %zu cells is too large to draw", in->nx, in->ny);
    if (o->have_lon_window && !(o->lon_w < o->lon_e && o->lon_e - o->lon_w <= 360.0))
        return ps_error(PS_EINVAL, "longitude window %g..%g: the western edge must be below the "
                                   "eastern one, at most 360 degrees apart", o->lon_w, o->lon_e);
    if (o->have_lat_window && !(o->lat_s < o->lat_n))
        return ps_error(PS_EINVAL, "latitude window %g..%g: the southern edge must be below the "
                                   "northern one", o->lat_s, o->lat_n);
    if ((rc = ps_slice_window(in, o, &win, wbuf)))
        goto done;
    if (!ps_monotonic(s->lon, s->nx) || !ps_monotonic(s->lat, s->ny)) {
        rc = ps_error(PS_EINVAL, "longitudes and latitudes must be finite and strictly monotonic");
        goto done;
    }
    if (o->width < 200 || o->height < 150 || o->width > 10000 || o->height > 10000)
    {
        rc = ps_error(PS_EINVAL, "image size %dx%d is out of range (200x150 .. 10000x10000)",
                      o->width, o->height);
        goto done;
    }
    dev = ps_pl_device(o->path);
    if (!dev) {
        rc = ps_error(PS_EINVAL, "%s: unknown image type (use .png, .svg or .pdf)", o->path);
        goto done;
    }
    cm = ps_cmap_find(o->cmap ? o->cmap : (o->symmetric ? "rdbu" : "viridis"));
    if (!cm) {
        char names[256];
        ps_cmap_names(names, sizeof names);
        rc = ps_error(PS_EINVAL, "unknown colour map '%s' (one of: %s)", o->cmap, names);
        goto done;
    }

    n = s->nx * s->ny;
    for (i = 0; i < n; i++) {
        if (s->mark && s->mark[i])
            marked++;
        else if (isfinite(s->values[i]))
            ocean++;
        else
            land++;
    }
    if (o->symmetric)
        rc = ps_plot_symmetric_limits(s->values, n, &vmin, &vmax);
    else
        rc = ps_plot_robust_limits(s->values, n, 2.0, 98.0, &vmin, &vmax);
    if (rc == PS_ERANGE) {
        vmin = 0.0; /* all land: any limits will do */
        vmax = 1.0;
        rc = PS_OK;
    }
    if (rc)
        goto done;
    if (o->have_vmin)
        vmin = o->vmin;
    if (o->have_vmax)
        vmax = o->vmax;
    if (!(vmin < vmax)) {
        rc = ps_error(PS_EINVAL, "colour limits: vmin (%g) must be below vmax (%g)", vmin, vmax);
        goto done;
    }

    xe = malloc((s->nx + 1) * sizeof *xe);
    ye = malloc((s->ny + 1) * sizeof *ye);
    tmp = malloc(strlen(o->path) + 16);
    if (!xe || !ye || !tmp) {
        rc = ps_error(PS_ENOMEM, "out of memory drawing %s", o->path);
        goto done;
    }
    ps_edges(s->lon, s->nx, xe);
    ps_edges(s->lat, s->ny, ye);
    plAlloc2dGrid(&z, (PLINT)s->nx, (PLINT)s->ny);
    if (!z) {
        rc = ps_error(PS_ENOMEM, "out of memory drawing %s", o->path);
        goto done;
    }
    /* Values clamped into the limits (the ends of the colour bar); land and
     * marked cells below zmin so plimagefr leaves them out. */
    for (j = 0; j < s->ny; j++)
        for (i = 0; i < s->nx; i++) {
            double v = s->values[j * s->nx + i];
            if (!isfinite(v) || (s->mark && s->mark[j * s->nx + i]))
                v = -HUGE_VAL;
            else if (v < vmin)
                v = vmin;
            else if (v > vmax)
                v = vmax;
            z[i][j] = v;
        }

    sprintf(tmp, "%s.tmpXXXXXX", o->path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = ps_error(PS_EIO, "cannot write %s: %s", o->path, strerror(errno));
        tmp[0] = '\0';
        goto done;
    }
    /* mkstemp makes 0600: give the picture the usual permissions. */
    {
        mode_t um = umask(0);
        umask(um);
        if (fchmod(fd, 0666 & ~um))
            (void)0;
    }
    close(fd);
    ps_tempfile_register(tmp); /* removed on SIGINT/SIGTERM/SIGHUP */

    pthread_mutex_lock(&ps_pl_lock);
    locked = 1;
    rc = ps_pl_draw(s, o, cm, dev, tmp, vmin, vmax, z, xe, ye);
    pthread_mutex_unlock(&ps_pl_lock);
    locked = 0;
    if (rc)
        goto done;
    {
        FILE *f = fopen(tmp, "rb");
        long size = -1;
        if (f) {
            if (fseek(f, 0, SEEK_END) == 0)
                size = ftell(f);
            fclose(f);
        }
        if (size <= 0) {
            rc = ps_error(PS_EIO, "PLplot wrote nothing to %s%s%s", o->path,
                          ps_pl_msg[0] ? ": " : "", ps_pl_msg);
            goto done;
        }
    }
    /* no-clobber publication; tmp is removed by it on failure */
    rc = ps_outfile_publish_path(tmp, o->path, o->force);
    tmp[0] = '\0';
    if (rc)
        goto done;
    if (info) {
        info->vmin = vmin;
        info->vmax = vmax;
        info->ocean = ocean;
        info->land = land;
        info->marked = marked;
        info->nx = s->nx;
        info->ny = s->ny;
        info->lon0 = s->lon[0];
        info->lon1 = s->lon[s->nx - 1];
    }
done:
    for (i = 0; i < 4; i++)
        free(wbuf[i]);
    if (locked)
        pthread_mutex_unlock(&ps_pl_lock);
    if (tmp && tmp[0]) {
        ps_tempfile_forget(tmp);
        unlink(tmp);
    }
    if (z)
        plFree2dGrid(z, (PLINT)win.nx, (PLINT)win.ny);
    free(xe);
    free(ye);
    free(tmp);
    return rc;
}

#endif /* PS_HAVE_PLPLOT */
