/*
 * Plot helpers that need no drawing library and no dataset: colour limits
 * (robust percentiles, symmetric), the nearest depth level, decimation,
 * level extraction and the difference of two levels. Used by the slice maps
 * (ps_plot_slice.c), the dataset maps (ps_plot_field.c) and the HTML pages
 * (ps_html.c).
 */
#include "config.h"
#include "ps_plot.h"
#include "ps_status.h"

#include <math.h>
#include <stdlib.h>

static int ps_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Percentile by linear interpolation between order statistics. */
static double ps_percentile(const double *sorted, size_t n, double pct)
{
    double pos = pct / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    double w = pos - (double)lo;
    return sorted[lo] + w * (sorted[hi] - sorted[lo]);
}

static int ps_finite_sorted(const double *v, size_t n, int absval, double **out, size_t *m)
{
    size_t i, c = 0;
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        return ps_error(PS_ENOMEM, "out of memory computing colour limits");
    for (i = 0; i < n; i++)
        if (isfinite(v[i]))
            s[c++] = absval ? fabs(v[i]) : v[i];
    if (!c) {
        free(s);
        return ps_error(PS_ERANGE, "no ocean cell: every value is land (NaN)");
    }
    qsort(s, c, sizeof *s, ps_cmp_double);
    *out = s;
    *m = c;
    return PS_OK;
}

int ps_plot_robust_limits(const double *v, size_t n, double lo_pct, double hi_pct,
                          double *vmin, double *vmax)
{
    double *s, lo, hi;
    size_t m;
    int rc = ps_finite_sorted(v, n, 0, &s, &m);
    if (rc)
        return rc;
    lo = ps_percentile(s, m, lo_pct);
    hi = ps_percentile(s, m, hi_pct);
    if (!(hi > lo)) {
        /* A constant field: widen by the value's magnitude (or 1). */
        double w = fabs(lo) > 0 ? fabs(lo) * 1e-3 : 0.5;
        lo = s[0] - w;
        hi = s[m - 1] + w;
    }
    free(s);
    *vmin = lo;
    *vmax = hi;
    return PS_OK;
}

int ps_plot_symmetric_limits(const double *v, size_t n, double *vmin, double *vmax)
{
    double *s, l;
    size_t m;
    int rc = ps_finite_sorted(v, n, 1, &s, &m);
    if (rc)
        return rc;
    l = ps_percentile(s, m, 99.0);
    if (!(l > 0))
        l = s[m - 1];
    if (!(l > 0))
        l = 1.0;
    free(s);
    *vmin = -l;
    *vmax = l;
    return PS_OK;
}

size_t ps_plot_nearest_level(const double *depth, size_t n, double want)
{
    size_t k, best = 0;
    for (k = 1; k < n; k++)
        if (fabs(depth[k] - want) < fabs(depth[best] - want))
            best = k;
    return best;
}

size_t ps_plot_stride(size_t nx, size_t ny, size_t max_cells)
{
    size_t s = 1;
    if (max_cells < 1)
        max_cells = 1;
    while (((nx + s - 1) / s) * ((ny + s - 1) / s) > max_cells)
        s++;
    return s;
}

int ps_plot_extract_level(const ps_field *f, size_t k, double *out)
{
    size_t i, n;
    if (!f || !f->data || k >= f->grid.nz)
        return ps_error(PS_ERANGE, "level %zu is out of range (the field has %zu levels)", k,
                        f ? f->grid.nz : 0);
    n = f->grid.ny * f->grid.nx;
    if (f->precision == PS_FLOAT32) {
        const float *p = (const float *)f->data + k * n;
        for (i = 0; i < n; i++)
            out[i] = p[i];
    } else {
        const double *p = (const double *)f->data + k * n;
        for (i = 0; i < n; i++)
            out[i] = p[i];
    }
    return PS_OK;
}

int ps_plot_diff_level(const ps_field *a, const ps_field *b, size_t k, double *d,
                       unsigned char *mark, ps_diff_info *info)
{
    size_t i, n;
    double *va = NULL;
    ps_diff_info in = {0};
    int rc;
    if (a->grid.nz != b->grid.nz || a->grid.ny != b->grid.ny || a->grid.nx != b->grid.nx)
        return ps_error(PS_EDIM, "the grids differ: %zux%zux%zu and %zux%zux%zu (depth x lat x lon)",
                        a->grid.nz, a->grid.ny, a->grid.nx, b->grid.nz, b->grid.ny, b->grid.nx);
    n = a->grid.ny * a->grid.nx;
    va = malloc((n ? n : 1) * sizeof *va);
    if (!va)
        return ps_error(PS_ENOMEM, "out of memory computing a difference");
    if ((rc = ps_plot_extract_level(a, k, va)) || (rc = ps_plot_extract_level(b, k, d)))
        goto done;
    for (i = 0; i < n; i++) {
        int fa = !isnan(va[i]), fb = !isnan(d[i]);
        if (mark)
            mark[i] = fa != fb;
        if (fa != fb) {
            in.mismatched++;
            d[i] = NAN;
        } else if (!fa) {
            d[i] = NAN;
        } else {
            double x = d[i] - va[i];
            in.compared++;
            if (x != 0.0)
                in.differing++;
            if (fabs(x) > in.max_abs || (isnan(x) && !isnan(in.max_abs))) {
                in.max_abs = fabs(x);
                in.max_j = i / a->grid.nx;
                in.max_i = i % a->grid.nx;
            }
            d[i] = x;
        }
    }
    if (info)
        *info = in;
done:
    free(va);
    return rc;
}

int ps_plot_changed_level(const ps_field *a, const ps_field *b, size_t *k)
{
    size_t i, n, lev;
    double *va, *vb;
    int found = 0;
    if (!a || !b || !a->data || !b->data || a->grid.nz != b->grid.nz ||
        a->grid.ny != b->grid.ny || a->grid.nx != b->grid.nx)
        return 0;
    n = a->grid.ny * a->grid.nx;
    va = malloc((n ? n : 1) * sizeof *va);
    vb = malloc((n ? n : 1) * sizeof *vb);
    for (lev = 0; va && vb && !found && lev < a->grid.nz; lev++) {
        if (ps_plot_extract_level(a, lev, va) || ps_plot_extract_level(b, lev, vb))
            break;
        for (i = 0; i < n; i++)
            if (isnan(va[i]) != isnan(vb[i]) || (!isnan(va[i]) && va[i] != vb[i])) {
                *k = lev;
                found = 1;
                break;
            }
    }
    free(va);
    free(vb);
    return found;
}
