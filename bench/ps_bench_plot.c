/*
 * Benchmark plots with PLplot's cairo drivers (pngcairo / svgcairo):
 *   bench_runtime_steps   step-loop time vs number of steps, error bars (the course's figure)
 *   bench_throughput_grid cells/s vs grid size
 *   bench_bound_fraction  achieved bandwidth as a fraction of the measured copy bound
 *   bench_speedup         speedup over the reference backend
 * One series per method (backend and precision). Without PLplot the entry
 * point says so.
 */
#include "config.h"
#include "ps_backend.h"
#include "ps_bench.h"
#include "ps_outfile.h"
#include "ps_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const ps_bench_plot_names[] = {"bench_runtime_steps", "bench_throughput_grid",
                                            "bench_bound_fraction", "bench_speedup", NULL};

int ps_bench_plot_check(const ps_bench_plot_options *opt)
{
    const char *fmt = opt->format && *opt->format ? opt->format : "png";
    char path[4096];
    struct stat st;
    int i, rc;
    if (strcmp(fmt, "png") && strcmp(fmt, "svg"))
        return ps_error(PS_EINVAL, "plot format '%s' is not png or svg", fmt);
    if (!opt->dir || !*opt->dir)
        return ps_error(PS_EINVAL, "--plot: no directory given");
    if (stat(opt->dir, &st) != 0)
        /* created by ps_bench_plot(): its parent must be a writable directory */
        return ps_outfile_check(opt->dir, NULL, 0, "--plot directory");
    if (!S_ISDIR(st.st_mode))
        return ps_error(PS_EINVAL, "--plot %s is not a directory", opt->dir);
    for (i = 0; ps_bench_plot_names[i]; i++) {
        if (snprintf(path, sizeof path, "%s/%s.%s", opt->dir, ps_bench_plot_names[i], fmt) >=
            (int)sizeof path)
            return ps_error(PS_EINVAL, "--plot: directory name too long");
        if ((rc = ps_outfile_check(path, NULL, opt->force, "plot")))
            return rc;
    }
    return PS_OK;
}

#ifdef PS_HAVE_PLPLOT
#include <plplot.h>

#define MAX_SERIES 12
#define MAX_POINTS 64

typedef struct series {
    char label[96];
    int n;
    double x[MAX_POINTS], y[MAX_POINTS], ylo[MAX_POINTS], yhi[MAX_POINTS];
    int dashed;
    int color; /* cmap0 index */
    int points_only; /* marks, no line */
} series;

typedef struct plot_spec {
    const char *title, *subtitle, *xlab, *ylab;
    int logx, logy, errbars;
    double hline;  /* reference line (NaN: none) */
    int ymin_zero; /* linear y axis starting at 0 */
} plot_spec;

/* white background, black axes, then a colour-blind friendly palette */
static const int palette[][3] = {
    {255, 255, 255}, {0, 0, 0},     {0, 114, 178},  {213, 94, 0},  {0, 158, 115},
    {204, 121, 167}, {230, 159, 0}, {86, 180, 233}, {120, 120, 120}, {160, 40, 40},
    {100, 60, 160},  {40, 40, 40},  {150, 150, 0},  {0, 80, 80},   {200, 0, 100},
};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))

static int plot_exit_handler(const char *msg)
{
    /* PLplot would call exit(): record and carry on (the caller reports). */
    ps_error(PS_EIO, "PLplot: %s", msg);
    return 1;
}

static double tx(double v, int logv)
{
    return logv ? log10(v) : v;
}

static void sort_series(series *s)
{
    int i, j;
    for (i = 1; i < s->n; i++)
        for (j = i; j > 0 && s->x[j] < s->x[j - 1]; j--) {
            double t;
#define SWP(a)                                                                              \
    t = a[j], a[j] = a[j - 1], a[j - 1] = t
            SWP(s->x);
            SWP(s->y);
            SWP(s->ylo);
            SWP(s->yhi);
#undef SWP
        }
}

static int draw_to(const char *path, const char *dev, const plot_spec *p, series *s, int ns)
{
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    int i, k, r[NPAL], g[NPAL], b[NPAL], npts = 0;
    PLINT opt[2 * MAX_SERIES], tcol[2 * MAX_SERIES], lcol[2 * MAX_SERIES], lsty[2 * MAX_SERIES],
        scol[2 * MAX_SERIES], snum[2 * MAX_SERIES];
    PLFLT lwid[2 * MAX_SERIES], sscale[2 * MAX_SERIES], lw, lh;
    const char *text[2 * MAX_SERIES], *sym[2 * MAX_SERIES];

    for (i = 0; i < ns; i++) {
        sort_series(&s[i]);
        for (k = 0; k < s[i].n; k++) {
            double lo = p->errbars ? s[i].ylo[k] : s[i].y[k];
            double hi = p->errbars ? s[i].yhi[k] : s[i].y[k];
            if ((p->logx && !(s[i].x[k] > 0)) || (p->logy && !(lo > 0)))
                continue;
            npts++;
            xmin = fmin(xmin, s[i].x[k]), xmax = fmax(xmax, s[i].x[k]);
            ymin = fmin(ymin, lo), ymax = fmax(ymax, hi);
        }
    }
    if (npts == 0)
        return 0; /* nothing to draw */
    if (!isnan(p->hline))
        ymin = fmin(ymin, p->hline), ymax = fmax(ymax, p->hline);
    xmin = tx(xmin, p->logx), xmax = tx(xmax, p->logx);
    ymin = tx(ymin, p->logy), ymax = tx(ymax, p->logy);
    if (p->ymin_zero && !p->logy && ymin > 0)
        ymin = 0;
    /* log axes: whole decades, so PLplot labels at least two powers of ten */
    if (p->logx) {
        xmin = floor(xmin + 1e-9), xmax = ceil(xmax - 1e-9);
        if (xmax <= xmin)
            xmax = xmin + 1;
    }
    if (p->logy) {
        ymin = floor(ymin + 1e-9), ymax = ceil(ymax - 1e-9);
        if (ymax <= ymin)
            ymax = ymin + 1;
    }
    if (xmax - xmin < 1e-12)
        xmin -= p->logx ? 0.3 : fabs(xmin) * 0.2 + 1, xmax += p->logx ? 0.3 : fabs(xmax) * 0.2 + 1;
    if (ymax - ymin < 1e-12)
        ymin -= p->logy ? 0.3 : fabs(ymin) * 0.2 + 1, ymax += p->logy ? 0.3 : fabs(ymax) * 0.2 + 1;
    {
        double dx = (xmax - xmin) * 0.06, dy = (ymax - ymin) * 0.08;
        if (!p->logx)
            xmin -= dx, xmax += dx;
        else /* keep points and error bars on a decade off the frame */
            xmin -= 0.5 * dx, xmax += 0.5 * dx;
        if (!(p->ymin_zero && !p->logy && ymin == 0) && !p->logy)
            ymin -= dy;
        /* room for the legend above the data */
        ymax += dy * (1.2 + 1.1 * (ns > 6 ? (ns + 1) / 2 : ns));
    }

    for (i = 0; i < NPAL; i++)
        r[i] = palette[i][0], g[i] = palette[i][1], b[i] = palette[i][2];
    plsexit(plot_exit_handler);
    plsdev(dev);
    plsfnam(path);
    plspage(0, 0, 820, 560, 0, 0);
    plscmap0(r, g, b, NPAL);
    plinit();
    pladv(0);
    plvpor(0.11, 0.96, 0.12, 0.88);
    plwind(xmin, xmax, ymin, ymax);
    plcol0(1);
    plwidth(1.0);
    plschr(0, 0.85);
    plbox(p->logx ? "bcfnstl" : "bcnst", 0, 0, p->logy ? "bcfnstvl" : "bcnstv", 0, 0);
    plcol0(8);
    pllsty(3);
    plbox("g", 0, 0, "g", 0, 0);
    pllsty(1);
    plcol0(1);
    plschr(0, 1.0);
    plmtex("t", 2.2, 0.5, 0.5, p->title);
    plschr(0, 0.75);
    if (p->subtitle)
        plmtex("t", 0.8, 0.5, 0.5, p->subtitle);
    plschr(0, 0.9);
    plmtex("b", 3.0, 0.5, 0.5, p->xlab);
    plmtex("l", 4.2, 0.5, 0.5, p->ylab);
    if (!isnan(p->hline)) {
        PLFLT hx[2] = {xmin, xmax}, hy[2] = {tx(p->hline, p->logy), tx(p->hline, p->logy)};
        plcol0(1);
        pllsty(2);
        plline(2, hx, hy);
        pllsty(1);
    }
    for (i = 0; i < ns; i++) {
        PLFLT x[MAX_POINTS], y[MAX_POINTS], lo[MAX_POINTS], hi[MAX_POINTS];
        int m = 0;
        for (k = 0; k < s[i].n; k++) {
            if ((p->logx && !(s[i].x[k] > 0)) || (p->logy && !(s[i].y[k] > 0)))
                continue;
            x[m] = tx(s[i].x[k], p->logx);
            y[m] = tx(s[i].y[k], p->logy);
            lo[m] = tx(p->logy ? fmax(s[i].ylo[k], s[i].y[k] * 1e-3) : s[i].ylo[k], p->logy);
            hi[m] = tx(s[i].yhi[k], p->logy);
            m++;
        }
        plcol0(s[i].color);
        plwidth(2.0);
        pllsty(s[i].dashed ? 2 : 1);
        if (m > 1 && !s[i].points_only)
            plline(m, x, y);
        pllsty(1);
        plwidth(1.5);
        if (p->errbars && m > 0)
            plerry(m, x, lo, hi);
        if (m > 0)
            plstring(m, x, y, "#(728)");
        plwidth(1.0);
    }
    for (i = 0; i < ns; i++) {
        opt[i] = PL_LEGEND_LINE | PL_LEGEND_SYMBOL;
        tcol[i] = 1;
        text[i] = s[i].label;
        lcol[i] = s[i].color;
        lsty[i] = s[i].dashed ? 2 : 1;
        lwid[i] = 2.0;
        scol[i] = s[i].color;
        sscale[i] = 1.0;
        snum[i] = 2;
        sym[i] = "#(728)";
    }
    plschr(0, 0.8);
    pllegend(&lw, &lh, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             PL_POSITION_TOP | PL_POSITION_LEFT | PL_POSITION_INSIDE, 0.02, 0.02, 0.08, 0, 1, 1,
             ns > 6 ? (ns + 1) / 2 : 0, ns > 6 ? 2 : 0, ns, opt, 0.8, 0.75, 1.8, 0.0, tcol,
             (const char *const *)text, NULL, NULL, NULL, NULL, lcol, lsty, lwid, scol, sscale,
             snum, (const char *const *)sym);
    plend();
    if (ps_error_detail()[0] && strstr(ps_error_detail(), "PLplot"))
        return PS_EIO;
    return 1;
}

/* Series key: the method (backend and precision). */
/* draw_to() into a private temporary file beside @p path (removed on failure or a
 * signal), published without clobbering unless @p force. Returns as draw_to(). */
static int draw(const char *path, const char *dev, const plot_spec *p, series *s, int ns,
                int force)
{
    ps_outfile of;
    int st = ps_outfile_begin(&of, path, force);
    if (st)
        return st;
    close(of.fd);
    of.fd = -1;
    st = draw_to(of.tmp, dev, p, s, ns);
    if (st <= 0) {
        ps_outfile_abort(&of);
        return st;
    }
    {
        int pst = ps_outfile_publish(&of);
        return pst ? pst : st;
    }
}

static int find_series(series *s, int *ns, const ps_bench_row *r, const char *suffix, int dashed)
{
    char label[96];
    int i;
    snprintf(label, sizeof label, "%s %s%s", r->backend, r->precision, suffix);
    for (i = 0; i < *ns; i++)
        if (!strcmp(s[i].label, label))
            return i;
    if (*ns >= MAX_SERIES)
        return -1;
    memset(&s[*ns], 0, sizeof s[*ns]);
    snprintf(s[*ns].label, sizeof s[*ns].label, "%s", label);
    s[*ns].dashed = dashed;
    return (*ns)++;
}

static void add_point(series *s, double x, double y, double lo, double hi)
{
    if (s->n >= MAX_POINTS || isnan(x) || isnan(y))
        return;
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->ylo[s->n] = lo;
    s->yhi[s->n] = hi;
    s->n++;
}

/*
 * Colours by backend so a backend keeps its colour on every plot: its
 * position in the backend list (backends/ps_backends.h; new backends are
 * added at its end), a backend not in the list the next one.
 */
static int color_of(const char *backend, const char *precision)
{
    const ps_backend_entry *list;
    int i, n, base;
    ps_backend_list(&list, &n);
    for (base = 0; base < n && strcmp(list[base].name, backend); base++)
        ;
    i = base * 2 + (strcmp(precision, "float32") ? 1 : 0);
    return 2 + i % (NPAL - 2);
}

/*
 * Whether row @p i is the one to plot for its method and grid size: rows of
 * both experiments are used, and where several share a grid (step counts,
 * or a grid-scaling run at scale 1) the one with the most steps measured.
 */
static int best_for_grid(const ps_bench_row *rows, int n, int i)
{
    const ps_bench_row *r = &rows[i];
    double work = (double)r->num_timesteps * r->repeats;
    int j;
    for (j = 0; j < n; j++) {
        const ps_bench_row *q = &rows[j];
        double w = (double)q->num_timesteps * q->repeats;
        if (j == i || strcmp(q->backend, r->backend) || strcmp(q->precision, r->precision) ||
            q->nz != r->nz || q->ny != r->ny || q->nx != r->nx)
            continue;
        if (w > work || (w == work && j < i))
            return 0;
    }
    return 1;
}

int ps_bench_plot(const ps_bench_row *rows, int n, const ps_bench_plot_options *opt,
                  char (*written)[4096], int max, int *nwritten)
{
    static series s[MAX_SERIES];
    const char *fmt = opt->format && *opt->format ? opt->format : "png";
    char dev[16], path[4096];
    int ns, i, st, ngrids = 0;
    plot_spec p;

    *nwritten = 0;
    if (strcmp(fmt, "png") && strcmp(fmt, "svg"))
        return ps_error(PS_EINVAL, "plot format '%s' is not png or svg", fmt);
    snprintf(dev, sizeof dev, "%scairo", fmt);
    if (mkdir(opt->dir, 0777) != 0 && errno != EEXIST)
        return ps_error(PS_EIO, "cannot create %s: %s", opt->dir, strerror(errno));
    ps_error_clear();
    for (i = 0; i < n; i++) {
        int j, seen = 0;
        for (j = 0; j < i; j++)
            seen |= rows[j].nz == rows[i].nz && rows[j].ny == rows[i].ny && rows[j].nx == rows[i].nx;
        ngrids += !seen;
    }

#define EMIT(name)                                                                          \
    do {                                                                                    \
        snprintf(path, sizeof path, "%s/%s.%s", opt->dir, name, fmt);                       \
        st = draw(path, dev, &p, s, ns, opt->force);                                        \
        if (st < 0)                                                                         \
            return st;                                                                      \
        if (st > 0 && *nwritten < max)                                                      \
            snprintf(written[(*nwritten)++], 4096, "%s", path);                             \
    } while (0)

    /* 1. runtime vs steps, error bars: one series per method */
    ns = 0;
    for (i = 0; i < n; i++) {
        const ps_bench_row *r = &rows[i];
        int k;
        if (strcmp(r->experiment, "steps") && r->experiment[0])
            continue;
        if ((k = find_series(s, &ns, r, "", 0)) < 0)
            continue;
        s[k].color = color_of(r->backend, r->precision);
        add_point(&s[k], (double)r->num_timesteps, r->mean_time_sec,
                  r->mean_time_sec - r->std_dev_sec, r->mean_time_sec + r->std_dev_sec);
    }
    memset(&p, 0, sizeof p);
    p.title = "Runtime vs number of time steps (mean +- std dev over repeats)";
    p.subtitle = opt->title;
    p.xlab = "number of time steps";
    p.ylab = "step-loop time (s)";
    p.logx = p.logy = opt->log_axes;
    p.errbars = 1;
    p.hline = NAN;
    p.ymin_zero = 1;
    EMIT("bench_runtime_steps");

    /* 2. throughput vs grid size */
    ns = 0;
    for (i = 0; i < n; i++) {
        const ps_bench_row *r = &rows[i];
        int k;
        if (!best_for_grid(rows, n, i))
            continue;
        if ((k = find_series(s, &ns, r, "", 0)) < 0)
            continue;
        s[k].color = color_of(r->backend, r->precision);
        {
            double sp = isnan(r->spread) ? 0.0 : r->spread; /* one run: no error bar */
            add_point(&s[k], r->cells / 1e6, r->cells_per_s / 1e9, r->cells_per_s / 1e9 * (1 - sp),
                      r->cells_per_s / 1e9 * (1 + sp));
        }
    }
    memset(&p, 0, sizeof p);
    p.title = "Throughput vs grid size";
    p.subtitle = opt->title;
    p.xlab = "grid size (million cells, log scale)";
    p.ylab = "throughput (Gcell/s, log scale)";
    p.logx = p.logy = 1;
    p.errbars = 0;
    p.hline = NAN;
    EMIT("bench_throughput_grid");

    /* 3. fraction of the measured copy bound (CPU devices) */
    ns = 0;
    for (i = 0; i < n; i++) {
        const ps_bench_row *r = &rows[i];
        int k;
        if (!best_for_grid(rows, n, i) || isnan(r->bound_fraction))
            continue;
        if ((k = find_series(s, &ns, r, " vs same-size copy", 0)) >= 0) {
            s[k].color = color_of(r->backend, r->precision);
            add_point(&s[k], r->cells / 1e6, 100 * r->bound_fraction, 0, 0);
        }
        if (!isnan(r->dram_fraction) &&
            (k = find_series(s, &ns, r, " vs DRAM copy (8x L3)", 1)) >= 0) {
            s[k].color = color_of(r->backend, r->precision);
            add_point(&s[k], r->cells / 1e6, 100 * r->dram_fraction, 0, 0);
        }
    }
    memset(&p, 0, sizeof p);
    p.title = "Achieved bandwidth as a fraction of the measured copy bound";
    p.subtitle = opt->title;
    p.xlab = "grid size (million cells, log scale)";
    p.ylab = "compulsory traffic / copy bandwidth (%)";
    p.logx = 1;
    p.hline = 100;
    p.ymin_zero = 1;
    EMIT("bench_bound_fraction");

    /* 4. speedup over the reference */
    ns = 0;
    for (i = 0; i < n; i++) {
        const ps_bench_row *r = &rows[i];
        int k;
        if (isnan(r->speedup_ref) || !strcmp(r->backend, ps_bench_oracle_name()) ||
            (ngrids > 1 ? !best_for_grid(rows, n, i) : !!strcmp(r->experiment, "steps")))
            continue;
        if ((k = find_series(s, &ns, r, "", 0)) < 0)
            continue;
        s[k].color = color_of(r->backend, r->precision);
        add_point(&s[k], ngrids > 1 ? r->cells / 1e6 : (double)r->num_timesteps, r->speedup_ref,
                  0, 0);
    }
    memset(&p, 0, sizeof p);
    p.title = "Speedup over the reference backend (ms/step ratio)";
    p.subtitle = opt->title;
    p.xlab = ngrids > 1 ? "grid size (million cells, log scale)" : "number of time steps";
    p.ylab = "speedup over reference (x)";
    p.logx = ngrids > 1;
    p.hline = 1;
    p.ymin_zero = 1;
    EMIT("bench_speedup");
#undef EMIT
    return PS_OK;
}

int ps_bench_plot_memory(const char *path, const ps_bench_mem_point *pts, int n, int force)
{
    static series s[MAX_SERIES];
    plot_spec p;
    int ns = 0, i, k, st, ooc = -1;
    memset(s, 0, sizeof s);
    for (i = 0; i < n; i++) {
        for (k = 0; k < 2; k++) {
            char label[96];
            int q;
            snprintf(label, sizeof label, "%s %s", pts[i].backend, k ? "device" : "host peak");
            for (q = 0; q < ns && strcmp(s[q].label, label); q++)
                ;
            if (q == ns) {
                if (ns >= MAX_SERIES - 1)
                    continue;
                snprintf(s[ns].label, sizeof s[ns].label, "%s", label);
                s[ns].dashed = k;
                s[ns].color = 2 + ps_bench_backend_slot(pts[i].backend) % (NPAL - 3);
                ns++;
            }
            add_point(&s[q], pts[i].cells, k ? pts[i].device_mib : pts[i].host_mib,
                      k ? pts[i].device_mib : pts[i].host_mib,
                      k ? pts[i].device_mib : pts[i].host_mib);
        }
        if (pts[i].ooc_slabs > 0) {
            if (ooc < 0 && ns < MAX_SERIES) {
                ooc = ns++;
                snprintf(s[ooc].label, sizeof s[ooc].label, "out of core (device)");
                s[ooc].points_only = 1;
                s[ooc].color = 1;
            }
            if (ooc >= 0)
                add_point(&s[ooc], pts[i].cells, pts[i].device_mib, pts[i].device_mib,
                          pts[i].device_mib);
        }
    }
    memset(&p, 0, sizeof p);
    p.title = "Memory footprint vs grid size (built-in ocean)";
    p.subtitle = "host: peak RSS of the process; device: bytes the contexts held at once";
    p.xlab = "cells";
    p.ylab = "MiB";
    p.logx = 1;
    p.logy = 1;
    p.hline = NAN;
    st = draw(path, "pngcairo", &p, s, ns, force);
    return st < 0 ? st : PS_OK;
}

#else /* !PS_HAVE_PLPLOT */

int ps_bench_plot(const ps_bench_row *rows, int n, const ps_bench_plot_options *opt,
                  char (*written)[4096], int max, int *nwritten)
{
    (void)rows, (void)n, (void)opt, (void)written, (void)max;
    *nwritten = 0;
    return ps_error(PS_ENOTIMPL, "pstencil was built without PLplot: no plots "
                                 "(install libplplot-dev plplot-driver-cairo and reconfigure)");
}

int ps_bench_plot_memory(const char *path, const ps_bench_mem_point *pts, int n, int force)
{
    (void)path, (void)pts, (void)n, (void)force;
    return ps_error(PS_ENOTIMPL, "pstencil was built without PLplot: no plots");
}

#endif
