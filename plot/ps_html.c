/*
 * Interactive pages with plotly.js: the animated slice (one heatmap frame
 * per time record) and the 3-D cube (stacked surfaces at z = -depth).
 *
 * plotly.js is embedded from the file configure found (so the page works
 * offline) or referenced from the public CDN. Data are written as compact
 * JSON ("%.4g", null for land); large grids are subsampled with a stated
 * stride. The page is written to a temporary file and renamed into place.
 * A small error hook shows any JavaScript error in the page and its title,
 * and the body gets data-ps-ready="1" once plotly has drawn.
 */
#include "config.h"
#include "ps_json.h"
#include "ps_outfile.h"
#include "ps_plot.h"
#include "ps_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Total values kept in memory / written, over all frames and levels. */
#define PS_HTML_MAX_TOTAL ((size_t)12000000)
#define PS_HTML_CDN_DEFAULT "https://cdn.plot.ly/plotly-2.35.2.min.js"

void ps_html_options_init(ps_html_options *o)
{
    memset(o, 0, sizeof *o);
    o->frame_ms = 500;
    o->plotly_dir = -1;
}

#ifndef PS_PLOTLY_MIN_JS
#define PS_PLOTLY_MIN_JS ""
#endif
#ifndef PS_PLOTLY_MIN_JS_BUILD
#define PS_PLOTLY_MIN_JS_BUILD ""
#endif

const char *ps_html_plotly_file(void)
{
    /* the build tree's minified copy, the installed one, what configure found */
    if (PS_PLOTLY_MIN_JS_BUILD[0] && access(PS_PLOTLY_MIN_JS_BUILD, R_OK) == 0)
        return PS_PLOTLY_MIN_JS_BUILD;
    if (PS_PLOTLY_MIN_JS[0] && access(PS_PLOTLY_MIN_JS, R_OK) == 0)
        return PS_PLOTLY_MIN_JS;
    return PS_PLOTLY_JS;
}

static long ps_file_size(const char *path)
{
    struct stat st;
    return path && *path && stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Whether two files have the same bytes. */
static int ps_same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    char ba[65536], bb[65536];
    size_t na, nb;
    int same = fa && fb;
    while (same) {
        na = fread(ba, 1, sizeof ba, fa);
        nb = fread(bb, 1, sizeof bb, fb);
        if (na != nb || memcmp(ba, bb, na))
            same = 0;
        else if (na == 0)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* plotly.js written once beside the page (like plotly's include_plotlyjs='directory'):
 * an identical file there is kept, a different one replaced only with force. */
static int ps_write_beside(const ps_html_options *o, const char *js, char *name, size_t n)
{
    const char *base = strrchr(js, '/'), *slash = strrchr(o->path, '/');
    char dest[4096], buf[65536];
    ps_outfile out;
    FILE *in;
    size_t got;
    int rc;
    base = base ? base + 1 : js;
    snprintf(name, n, "%s", base);
    if (slash)
        snprintf(dest, sizeof dest, "%.*s/%s", (int)(slash - o->path), o->path, base);
    else
        snprintf(dest, sizeof dest, "%s", base);
    if (ps_file_size(dest) >= 0) {
        if (ps_same_file(dest, js))
            return PS_OK;
        if (!o->force)
            return ps_error(PS_EEXIST, "%s exists and is not %s (use --force to replace it)", dest,
                            js);
    }
    in = fopen(js, "rb");
    if (!in)
        return ps_error(PS_EIO, "cannot read plotly.js from %s: %s", js, strerror(errno));
    if ((rc = ps_outfile_begin(&out, dest, o->force))) {
        fclose(in);
        return rc;
    }
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        if (write(out.fd, buf, got) != (ssize_t)got) {
            rc = ps_error(PS_EIO, "error writing %s: %s", dest, strerror(errno));
            break;
        }
    if (!rc && ferror(in))
        rc = ps_error(PS_EIO, "error reading %s", js);
    fclose(in);
    if (rc) {
        ps_outfile_abort(&out);
        return rc;
    }
    return ps_outfile_publish(&out);
}

void ps_html_plotly_cdn(const char *plotly_js, char *buf, size_t n)
{
    char head[512];
    size_t got = 0;
    FILE *f = plotly_js && *plotly_js ? fopen(plotly_js, "rb") : NULL;
    snprintf(buf, n, "%s", PS_HTML_CDN_DEFAULT);
    if (!f)
        return;
    got = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[got] = '\0';
    {
        const char *p = strstr(head, "plotly.js v");
        int a, b, c;
        if (p && sscanf(p, "plotly.js v%d.%d.%d", &a, &b, &c) == 3 && a >= 1)
            snprintf(buf, n, "https://cdn.plot.ly/plotly-%d.%d.%d.min.js", a, b, c);
    }
}

/* A JSON string (core/ps_json.h); '<' '>' '&' escaped so no text can close
 * the script element. */
static void ps_json_str(FILE *f, const char *s)
{
    ps_json_write_string(f, s ? s : "", PS_JSON_HTML_SAFE);
}

/* HTML text (title, note). */
static void ps_html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

static void ps_json_num(FILE *f, double v, const char *fmt)
{
    ps_json_write_number(f, v == 0.0 ? 0.0 : v, fmt);
}

/* Copy plotly.js into the page, never letting it close the script element. */
static int ps_embed_js(FILE *out, const char *path)
{
    FILE *in;
    char buf[65536 + 16];
    size_t got, keep = 0, i;
    if (!path || !*path)
        return ps_error(PS_EINVAL, "no plotly.js file to embed (configure found none; use --plotly cdn "
                                   "or configure --with-plotly-js=PATH)");
    in = fopen(path, "rb");
    if (!in)
        return ps_error(PS_EIO, "cannot read plotly.js from %s: %s (use --plotly cdn)", path,
                        strerror(errno));
    /* Replace "</script" by "<\/script" (equivalent inside JavaScript strings). */
    while ((got = fread(buf + keep, 1, 65536, in)) > 0 || keep) {
        size_t n = keep + got, limit = got ? (n > 8 ? n - 8 : 0) : n;
        for (i = 0; i < limit; i++) {
            if (buf[i] == '<' && i + 8 <= n && !strncmp(buf + i, "</script", 8)) {
                fputs("<\\/", out);
                i += 1;
                continue;
            }
            fputc(buf[i], out);
        }
        keep = n - limit;
        memmove(buf, buf + limit, keep);
        if (!got)
            break;
    }
    if (keep) {
        fwrite(buf, 1, keep, out);
    }
    if (ferror(in)) {
        fclose(in);
        return ps_error(PS_EIO, "error reading %s", path);
    }
    fclose(in);
    return PS_OK;
}

/* The data of a page after decimation. */
typedef struct ps_html_data {
    size_t stride, nx, ny, ntimes, nlevels;
    double *lon, *lat; /* decimated coordinates */
    float *v;          /* ntimes * nlevels * ny * nx, NaN for land */
    double vmin, vmax;
} ps_html_data;

static void ps_html_data_free(ps_html_data *d)
{
    free(d->lon);
    free(d->lat);
    free(d->v);
    memset(d, 0, sizeof *d);
}

static int ps_html_collect(const ps_html_source *src, const ps_html_options *o, size_t budget,
                           ps_html_data *d)
{
    size_t s, t, l, i, j, cells, total, n = src->nx * src->ny, m = 0;
    double *buf = NULL, *sample = NULL;
    int rc = PS_OK;
    memset(d, 0, sizeof *d);
    if (!src->nx || !src->ny || !src->lon || !src->lat || !src->get || !src->ntimes ||
        !src->nlevels || !src->levels)
        return ps_error(PS_EINVAL, "interactive page: empty source");
    if (o->max_cells)
        budget = o->max_cells;
    s = ps_plot_stride(src->nx, src->ny, budget);
    while (((src->nx + s - 1) / s) * ((src->ny + s - 1) / s) * src->ntimes * src->nlevels >
               PS_HTML_MAX_TOTAL &&
           s < src->nx + src->ny)
        s++;
    d->stride = s;
    d->nx = (src->nx + s - 1) / s;
    d->ny = (src->ny + s - 1) / s;
    d->ntimes = src->ntimes;
    d->nlevels = src->nlevels;
    cells = d->nx * d->ny;
    total = cells * d->ntimes * d->nlevels;
    d->lon = malloc(d->nx * sizeof *d->lon);
    d->lat = malloc(d->ny * sizeof *d->lat);
    d->v = malloc(total * sizeof *d->v);
    buf = malloc(n * sizeof *buf);
    sample = malloc((total < 2000000 ? total : 2000000) * sizeof *sample);
    if (!d->lon || !d->lat || !d->v || !buf || !sample) {
        rc = ps_error(PS_ENOMEM, "out of memory for an interactive page (%zu values)", total);
        goto done;
    }
    for (i = 0; i < d->nx; i++)
        d->lon[i] = src->lon[i * s];
    for (j = 0; j < d->ny; j++)
        d->lat[j] = src->lat[j * s];
    for (t = 0; t < d->ntimes; t++)
        for (l = 0; l < d->nlevels; l++) {
            float *dst = d->v + (t * d->nlevels + l) * cells;
            for (i = 0; i < n; i++)
                buf[i] = NAN;
            if ((rc = src->get(src->ctx, t, src->levels[l], buf)))
                goto done;
            for (j = 0; j < d->ny; j++)
                for (i = 0; i < d->nx; i++)
                    dst[j * d->nx + i] = (float)buf[(j * s) * src->nx + i * s];
        }
    /* Colour limits over all frames: 2nd/98th percentiles (of a sample if large). */
    {
        size_t step = total > 2000000 ? (total + 1999999) / 2000000 : 1;
        for (i = 0; i < total; i += step)
            if (isfinite(d->v[i]))
                sample[m++] = d->v[i];
        /* no ocean cell in any frame: a blank page would hide a broken input */
        rc = ps_plot_robust_limits(sample, m, 2.0, 98.0, &d->vmin, &d->vmax);
        if (rc == PS_ERANGE)
            rc = ps_error(PS_ERANGE, "interactive page: no ocean cell in any of its %zu "
                          "frame%s and %zu level%s (every value land or missing): nothing "
                          "to draw", d->ntimes, d->ntimes == 1 ? "" : "s", d->nlevels,
                          d->nlevels == 1 ? "" : "s");
        if (rc)
            goto done;
        if (o->have_vmin)
            d->vmin = o->vmin;
        if (o->have_vmax)
            d->vmax = o->vmax;
        if (!(d->vmin < d->vmax)) {
            rc = ps_error(PS_EINVAL, "colour limits: vmin (%g) must be below vmax (%g)", d->vmin,
                          d->vmax);
            goto done;
        }
    }
done:
    free(buf);
    free(sample);
    if (rc)
        ps_html_data_free(d);
    return rc;
}

static void ps_write_colorscale(FILE *f, const ps_cmap *c)
{
    int i;
    fputc('[', f);
    for (i = 0; i < c->npts; i++)
        fprintf(f, "%s[%.4f,\"rgb(%d,%d,%d)\"]", i ? "," : "", c->pts[i][0],
                (int)lround(c->pts[i][1] * 255), (int)lround(c->pts[i][2] * 255),
                (int)lround(c->pts[i][3] * 255));
    fputc(']', f);
}

static void ps_write_array(FILE *f, const double *v, size_t n, const char *fmt)
{
    size_t i;
    fputc('[', f);
    for (i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        ps_json_num(f, v[i], fmt);
    }
    fputc(']', f);
}

/* One level of one time as rows: [[...],[...]] */
static void ps_write_grid(FILE *f, const float *v, size_t nx, size_t ny)
{
    size_t i, j;
    fputc('[', f);
    for (j = 0; j < ny; j++) {
        fputs(j ? ",[" : "[", f);
        for (i = 0; i < nx; i++) {
            if (i)
                fputc(',', f);
            ps_json_num(f, v[j * nx + i], "%.4g");
        }
        fputc(']', f);
    }
    fputc(']', f);
}

static int ps_html_open(const ps_html_options *o, char **tmp, FILE **f)
{
    int fd;
    const char *dot;
    *tmp = NULL;
    *f = NULL;
    if (!o || !o->path || !*o->path)
        return ps_error(PS_EINVAL, "interactive page: no output path");
    dot = strrchr(o->path, '.');
    if (!dot || (strcmp(dot, ".html") && strcmp(dot, ".htm")))
        return ps_error(PS_EINVAL, "%s: an interactive page must be a .html file", o->path);
    *tmp = malloc(strlen(o->path) + 16);
    if (!*tmp)
        return ps_error(PS_ENOMEM, "out of memory");
    sprintf(*tmp, "%s.tmpXXXXXX", o->path);
    fd = mkstemp(*tmp);
    if (fd < 0) {
        int e = errno;
        free(*tmp);
        *tmp = NULL;
        return ps_error(PS_EIO, "cannot write %s: %s", o->path, strerror(e));
    }
    {
        mode_t um = umask(0);
        umask(um);
        if (fchmod(fd, 0666 & ~um))
            (void)0;
    }
    ps_tempfile_register(*tmp); /* removed on SIGINT/SIGTERM/SIGHUP */
    *f = fdopen(fd, "w");
    if (!*f) {
        ps_tempfile_forget(*tmp);
        close(fd);
        unlink(*tmp);
        free(*tmp);
        *tmp = NULL;
        return ps_error(PS_EIO, "cannot write %s", o->path);
    }
    return PS_OK;
}

/* Close, check and rename; on failure remove the temporary file. */
static int ps_html_close(const ps_html_options *o, char *tmp, FILE *f, int rc, size_t *bytes)
{
    if (f) {
        long size = ftell(f);
        int bad = ferror(f);
        if (fclose(f) || bad) {
            if (!rc)
                rc = ps_error(PS_EIO, "error writing %s (disk full?)", o->path);
        } else if (bytes && size > 0)
            *bytes = (size_t)size;
    }
    if (!rc && tmp) {
        rc = ps_outfile_publish_path(tmp, o->path, o->force); /* no clobbering */
    } else if (tmp) {
        ps_tempfile_forget(tmp);
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

/* End of a page: close and rename it, report what was written, free the data. */
static int page_finish(const ps_html_options *o, char *tmp, FILE *f, int rc, ps_html_data *d,
                       ps_html_info *info)
{
    size_t bytes = 0;
    rc = ps_html_close(o, tmp, f, rc, &bytes);
    if (!rc && info) {
        info->stride = d->stride;
        info->nx = d->nx;
        info->ny = d->ny;
        info->vmin = d->vmin;
        info->vmax = d->vmax;
        info->bytes = bytes;
    }
    ps_html_data_free(d);
    return rc;
}

static int ps_html_head(FILE *f, const ps_html_options *o, const char *title)
{
    const char *js = o->plotly_js ? o->plotly_js : ps_html_plotly_file();
    int beside = o->plotly_dir > 0 ||
                 (o->plotly_dir < 0 && ps_file_size(js) > PS_HTML_EMBED_MAX_BYTES);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    ps_html_text(f, title);
    fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:0;background:#fff}\n"
          "#ps-error{display:none;color:#fff;background:#b00;padding:8px 12px;font-weight:bold}\n"
          "#ps-note{color:#444;font-size:13px;padding:2px 12px 8px 12px}\n"
          "#ps-plot{width:100%;height:calc(100vh - 40px);min-height:480px}\n</style>\n"
          "<script>\nwindow.psErrors=[];\nwindow.onerror=function(m,src,line){"
          "var s=String(m)+(line?' (line '+line+')':'');window.psErrors.push(s);"
          "document.title='JavaScript error: '+s;var e=document.getElementById('ps-error');"
          "if(e){e.style.display='block';e.textContent='This page failed to draw: '+s;}};\n"
          "</script>\n",
          f);
    if (o->plotly_cdn || !js || !*js) {
        char url[256];
        ps_html_plotly_cdn(js, url, sizeof url);
        fprintf(f, "<script src=\"%s\" charset=\"utf-8\"></script>\n", url);
    } else if (beside) {
        char name[1024];
        int rc;
        if ((rc = ps_write_beside(o, js, name, sizeof name)))
            return rc;
        fputs("<script src=\"", f);
        ps_html_text(f, name);
        fputs("\" charset=\"utf-8\" onerror=\"document.title='JavaScript error: cannot load ", f);
        ps_html_text(f, name);
        fputs(" (keep it beside this page)'\"></script>\n", f);
    } else {
        int rc;
        fputs("<script>\n", f);
        if ((rc = ps_embed_js(f, js)))
            return rc;
        fputs("\n</script>\n", f);
    }
    fputs("</head>\n<body>\n<div id=\"ps-error\"></div>\n<div id=\"ps-plot\"></div>\n"
          "<div id=\"ps-note\">",
          f);
    return PS_OK;
}

static void ps_decimation_note(const ps_html_source *src, const ps_html_data *d,
                               const ps_html_options *o, char *buf, size_t n)
{
    if (d->stride > 1) {
        snprintf(buf, n, "decimated: every %zu%s cell in longitude and latitude (%zux%zu shown of %zux%zu)",
                 d->stride, d->stride == 2 ? "nd" : d->stride == 3 ? "rd" : "th", d->nx, d->ny,
                 src->nx, src->ny);
        if (!o->quiet)
            fprintf(stderr, "pstencil: note: %s: %s\n", o->path, buf);
    } else {
        snprintf(buf, n, "full resolution (%zux%zu)", src->nx, src->ny);
    }
}

static double ps_lat_ratio(const ps_html_data *d)
{
    double latmid = 0.5 * (d->lat[0] + d->lat[d->ny - 1]);
    double c = cos(latmid * M_PI / 180.0);
    if (!(fabs(latmid) < 85.0) || !(c > 0.05))
        return 1.0;
    return 1.0 / c;
}

static void ps_write_labels(FILE *f, const ps_html_source *src)
{
    size_t t;
    char b[64];
    fputc('[', f);
    for (t = 0; t < src->ntimes; t++) {
        if (t)
            fputc(',', f);
        snprintf(b, sizeof b, "%zu", t);
        ps_json_str(f, src->time_labels && src->time_labels[t] ? src->time_labels[t] : b);
    }
    fputc(']', f);
}

static void ps_write_common(FILE *f, const ps_html_source *src, const ps_html_options *o,
                            const ps_html_data *d, const ps_cmap *cm)
{
    fputs("var lon=", f);
    ps_write_array(f, d->lon, d->nx, "%.7g");
    fputs(";\nvar lat=", f);
    ps_write_array(f, d->lat, d->ny, "%.7g");
    fputs(";\nvar labels=", f);
    ps_write_labels(f, src);
    fputs(";\nvar title=", f);
    ps_json_str(f, src->title ? src->title : "");
    fputs(";\nvar units=", f);
    ps_json_str(f, src->units ? src->units : "");
    fputs(";\nvar varname=", f);
    ps_json_str(f, src->var_name ? src->var_name : "value");
    fprintf(f, ";\nvar zmin=%.9g, zmax=%.9g, frameMs=%d;\nvar colorscale=", d->vmin, d->vmax,
            o->frame_ms > 0 ? o->frame_ms : 500);
    ps_write_colorscale(f, cm);
    fputs(";\n", f);
}

/* Play/pause and the slider, shared by both pages, placed in pixels below
 * the plot area (under its tick labels and axis title, 60 px) and the slider
 * right of the two buttons (130 px), whatever the page's size; placed again
 * when the window is resized. Axis labels as the PNG pictures write them
 * (plot/ps_plot_slice.c, ps_geo_label): longitudes in -180..180 with E/W,
 * latitudes with N/S, one per 70 (40) px of the map as drawn (mapPx: the
 * heatmap keeps the map's proportions inside the plot area). */
static const char *ps_js_controls =
    "function place(){\n"
    " var el=document.getElementById('ps-plot'),H=el.clientHeight||600,W=el.clientWidth||800;\n"
    " var ph=Math.max(100,H-80-150),pw=Math.max(150,W-200);\n"
    " var bx=Math.min(0.45,130/pw);\n"
    " return {y:-60/ph,bx:bx,len:0.98-bx,pw:pw,ph:ph};}\n"
    "function geoLabel(v,lat){var r=Math.round(v*1e6)/1e6;\n"
    " if(!lat)r=((r+180)%360+360)%360-180;\n"
    " var a=Math.abs(r),h=a<1e-9?'':lat?(r<0?'S':'N'):(r<0?'W':'E');\n"
    " return (Math.abs(a-Math.round(a))<1e-6?String(Math.round(a)):String(+a.toPrecision(4)))+'\\u00b0'+h;}\n"
    "function geoTicks(v,lat,px){var a=Math.min.apply(null,v),b=Math.max.apply(null,v),span=(b-a)||1;\n"
    " var n=Math.max(2,Math.floor(px/(lat?40:70))),p=Math.pow(10,Math.floor(Math.log10(span/n))),s=10*p;\n"
    " [1,2,5,10].some(function(m){if(span/(m*p)<=n){s=m*p;return true;}return false;});\n"
    " var tv=[],tt=[],x0=Math.ceil(a/s-1e-9)*s;\n"
    " for(var i=0;x0+i*s<=b+1e-9*span;i++){tv.push(x0+i*s);tt.push(geoLabel(x0+i*s,lat));}\n"
    " return {tickmode:'array',tickvals:tv,ticktext:tt};}\n"
    "function mapPx(){var P=place(),xs=Math.abs(lon[lon.length-1]-lon[0])||1,"
    "ys=Math.abs(lat[lat.length-1]-lat[0])*(typeof ratio==='number'?ratio:1)||1;\n"
    " return {w:Math.min(P.pw,P.ph*xs/ys),h:Math.min(P.ph,P.pw*ys/xs)};}\n"
    "function controls(){\n"
    " var P=place();\n"
    " var steps=labels.map(function(l){return {method:'animate',label:l,args:[[l],"
    "{mode:'immediate',frame:{duration:frameMs,redraw:true},transition:{duration:0}}]};});\n"
    " return {margin:{t:80,b:150},updatemenus:[{type:'buttons',direction:'left',x:0.0,y:P.y,xanchor:'left',"
    "yanchor:'top',pad:{t:30,r:10},showactive:false,buttons:["
    "{label:'Play',method:'animate',args:[null,{mode:'immediate',fromcurrent:true,"
    "frame:{duration:frameMs,redraw:true},transition:{duration:0}}]},"
    "{label:'Pause',method:'animate',args:[[null],{mode:'immediate',"
    "frame:{duration:0,redraw:false},transition:{duration:0}}]}]}],\n"
    "  sliders:[{active:0,x:P.bx,len:P.len,y:P.y,yanchor:'top',pad:{t:20},"
    "currentvalue:{prefix:'time: ',visible:true},steps:steps}]};\n"
    "}\n"
    "window.addEventListener('resize',function(){var P=place();"
    "if(window.Plotly&&document.getElementById('ps-plot').layout)"
    "Plotly.relayout('ps-plot',{'updatemenus[0].y':P.y,'sliders[0].y':P.y,"
    "'sliders[0].x':P.bx,'sliders[0].len':P.len});});\n";

static const char *ps_js_ready =
    "}).then(function(){document.body.setAttribute('data-ps-ready','1');})"
    ".catch(function(e){window.onerror(String(e&&e.message||e));});\n";

int ps_html_animate(const ps_html_source *src, const ps_html_options *o, ps_html_info *info)
{
    ps_html_data d;
    const ps_cmap *cm;
    FILE *f = NULL;
    char *tmp = NULL, note[256], pagetitle[512];
    size_t t, cells;
    int rc;

    cm = ps_cmap_find(o && o->cmap ? o->cmap : "viridis");
    if (!cm) {
        char names[256];
        ps_cmap_names(names, sizeof names);
        return ps_error(PS_EINVAL, "unknown colour map '%s' (one of: %s)", o->cmap, names);
    }
    if ((rc = ps_html_collect(src, o, PS_HTML_ANIMATE_MAX_CELLS, &d)))
        return rc;
    if ((rc = ps_html_open(o, &tmp, &f)))
        goto done;
    ps_decimation_note(src, &d, o, note, sizeof note);
    snprintf(pagetitle, sizeof pagetitle, "%s%s", src->title ? src->title : "pstencil",
             d.stride > 1 ? " (decimated)" : "");
    if ((rc = ps_html_head(f, o, pagetitle)))
        goto done;
    ps_html_text(f, note);
    fprintf(f, "; colour limits %.4g .. %.4g %s (fixed over all %zu frames); land in grey. "
               "Written by pstencil " PACKAGE_VERSION ".</div>\n<script>\n(function(){\n",
            d.vmin, d.vmax, src->units ? src->units : "", d.ntimes);
    ps_write_common(f, src, o, &d, cm);
    fprintf(f, "var note=");
    ps_json_str(f, d.stride > 1 ? note : "");
    fputs(";\nvar Z=[\n", f);
    cells = d.nx * d.ny;
    for (t = 0; t < d.ntimes; t++) {
        ps_write_grid(f, d.v + t * cells, d.nx, d.ny);
        fputs(t + 1 < d.ntimes ? ",\n" : "\n", f);
    }
    fprintf(f, "];\nvar ratio=%.6g;\n", ps_lat_ratio(&d));
    fputs(ps_js_controls, f);
    fputs("function ttl(i){return {text:title+' \\u2014 time '+labels[i]+(note?'<br><sub>'+note+'</sub>':''),x:0.5};}\n"
          "var trace={type:'heatmap',x:lon,y:lat,z:Z[0],zmin:zmin,zmax:zmax,zauto:false,"
          "colorscale:colorscale,hoverongaps:false,"
          "colorbar:{title:{text:units,side:'top'}},"
          "hovertemplate:'lon %{x:.3f}\\u00b0<br>lat %{y:.3f}\\u00b0<br>'+varname+' %{z:.4g} '+units+'<extra></extra>'};\n"
          "var frames=labels.map(function(l,i){return {name:l,data:[{z:Z[i]}],layout:{title:ttl(i)}};});\n"
          "var layout=Object.assign({title:ttl(0),plot_bgcolor:'rgb(150,150,150)',"
          "xaxis:Object.assign({title:{text:'Longitude'},ticks:'outside',showgrid:false,zeroline:false,constrain:'domain'},"
          "geoTicks(lon,false,mapPx().w)),"
          "yaxis:Object.assign({title:{text:'Latitude'},ticks:'outside',showgrid:false,zeroline:false,"
          "scaleanchor:'x',scaleratio:ratio,constrain:'domain'},geoTicks(lat,true,mapPx().h))},controls());\n"
          "Plotly.newPlot('ps-plot',{data:[trace],layout:layout,frames:frames,"
          "config:{responsive:true,displaylogo:false}\n",
          f);
    fputs(ps_js_ready, f);
    fputs("})();\n</script>\n</body>\n</html>\n", f);
done:
    return page_finish(o, tmp, f, rc, &d, info);
}

int ps_html_cube(const ps_html_source *src, const ps_html_options *o, ps_html_info *info)
{
    ps_html_data d;
    const ps_cmap *cm;
    FILE *f = NULL;
    char *tmp = NULL, note[256], pagetitle[512];
    size_t t, l, cells;
    int rc;

    cm = ps_cmap_find(o && o->cmap ? o->cmap : "viridis");
    if (!cm) {
        char names[256];
        ps_cmap_names(names, sizeof names);
        return ps_error(PS_EINVAL, "unknown colour map '%s' (one of: %s)", o->cmap, names);
    }
    if (!src->depths)
        return ps_error(PS_EINVAL, "3-D view: no depths");
    if ((rc = ps_html_collect(src, o, PS_HTML_CUBE_MAX_CELLS, &d)))
        return rc;
    if ((rc = ps_html_open(o, &tmp, &f)))
        goto done;
    ps_decimation_note(src, &d, o, note, sizeof note);
    snprintf(pagetitle, sizeof pagetitle, "%s%s", src->title ? src->title : "pstencil",
             d.stride > 1 ? " (decimated)" : "");
    if ((rc = ps_html_head(f, o, pagetitle)))
        goto done;
    ps_html_text(f, note);
    fprintf(f, "; %zu levels, %zu times; colour limits %.4g .. %.4g %s (fixed over all frames); "
               "land left out. Written by pstencil " PACKAGE_VERSION ".</div>\n<script>\n(function(){\n",
            d.nlevels, d.ntimes, d.vmin, d.vmax, src->units ? src->units : "");
    ps_write_common(f, src, o, &d, cm);
    fprintf(f, "var note=");
    ps_json_str(f, d.stride > 1 ? note : "");
    fputs(";\nvar depths=", f);
    ps_write_array(f, src->depths, d.nlevels, "%.6g");
    fputs(";\nvar dunits=", f);
    ps_json_str(f, src->depth_units ? src->depth_units : "m");
    fputs(";\n/* C[t][level] = rows of values */\nvar C=[\n", f);
    cells = d.nx * d.ny;
    for (t = 0; t < d.ntimes; t++) {
        fputc('[', f);
        for (l = 0; l < d.nlevels; l++) {
            if (l)
                fputs(",\n", f);
            ps_write_grid(f, d.v + (t * d.nlevels + l) * cells, d.nx, d.ny);
        }
        fputs(t + 1 < d.ntimes ? "],\n" : "]\n", f);
    }
    fprintf(f, "];\nvar ratio=%.6g;\n", 1.0 / ps_lat_ratio(&d));
    fputs(ps_js_controls, f);
    fputs("function surf(t,l){var c=C[t][l],d=-depths[l];\n"
          " var z=c.map(function(r){return r.map(function(v){return v===null?null:d;});});\n"
          " var tx=c.map(function(r){return r.map(function(v){return v===null?'':v.toPrecision(4);});});\n"
          " return {z:z,surfacecolor:c,text:tx};}\n"
          "function ttl(i){return {text:title+' \\u2014 time '+labels[i]+(note?'<br><sub>'+note+'</sub>':''),x:0.5};}\n"
          "var traces=depths.map(function(dep,l){var s=surf(0,l);return {type:'surface',x:lon,y:lat,"
          "z:s.z,surfacecolor:s.surfacecolor,text:s.text,coloraxis:'coloraxis',name:(+dep.toPrecision(4))+' '+dunits,"
          "hovertemplate:'lon %{x:.3f}\\u00b0<br>lat %{y:.3f}\\u00b0<br>depth '+(+dep.toPrecision(4))+' '+dunits+'<br>'"
          "+varname+' %{text} '+units+'<extra></extra>'};});\n"
          "var idx=depths.map(function(d,l){return l;});\n"
          "var frames=labels.map(function(lb,t){return {name:lb,traces:idx,"
          "data:depths.map(function(d,l){return surf(t,l);}),layout:{title:ttl(t)}};});\n"
          "var xr=(lon[lon.length-1]-lon[0]), yr=(lat[lat.length-1]-lat[0]);\n"
          "var ax=Math.abs(xr*ratio), ay=Math.abs(yr), m=Math.max(ax,ay)||1;\n"
          "/* a short scene (under 300 px) is seen from further away: its axis titles stay in it */\n"
          "/* the scene is a square-ish box in the plot area: its horizontal axes are drawn\n"
          " * at about these fractions of the area's shorter side, which sets how many ticks fit */\n"
          "function sceneAxisPx(f){var P=place();return Math.min(300,f*Math.min(P.pw,P.ph));}\n"
          "var layout=Object.assign({title:ttl(0),"
          "coloraxis:{cmin:zmin,cmax:zmax,colorscale:colorscale,colorbar:{title:{text:units,side:'top'}}},"
          "scene:{xaxis:Object.assign({title:{text:'Longitude'}},geoTicks(lon,false,sceneAxisPx(0.75))),"
          "yaxis:Object.assign({title:{text:'Latitude'}},geoTicks(lat,true,sceneAxisPx(0.5))),"
          "zaxis:{title:{text:'Depth ('+dunits+')'},tickvals:depths.map(function(d){return -d;}),"
          "ticktext:depths.map(function(d){return String(+d.toPrecision(4));})},"
          "aspectmode:'manual',aspectratio:{x:1.5*ax/m,y:1.5*ay/m,z:0.6},"
          "camera:{eye:(function(){var k=place().ph<300?1.35:1.12;return {x:1.3*k,y:-1.55*k,z:1.05*k};})()}}},controls());\n"
          "Plotly.newPlot('ps-plot',{data:traces,layout:layout,frames:frames,"
          "config:{responsive:true,displaylogo:false}\n",
          f);
    fputs(ps_js_ready, f);
    fputs("})();\n</script>\n</body>\n</html>\n", f);
done:
    return page_finish(o, tmp, f, rc, &d, info);
}
