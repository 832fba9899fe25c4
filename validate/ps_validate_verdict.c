/*
 * Verdicts of validation on the engine's comparison (core/ps_compare.h):
 * bitwise in exact mode, within the fast-mode bound otherwise, and the one
 * line that says where and how a field differs.
 */
#include "config.h"
#include "ps_validate.h"
#include "ps_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int ps_validate_compare(const ps_field *e, const ps_field *g, ps_validate_diff *d)
{
    int st;
    memset(d, 0, sizeof *d);
    ps_compare_init(&d->stats, NULL);
    if (e->precision != g->precision || e->grid.nz != g->grid.nz || e->grid.ny != g->grid.ny ||
        e->grid.nx != g->grid.nx)
        return ps_error(PS_EINVAL, "cannot compare a %zux%zux%zu %s field with a %zux%zux%zu %s one",
                        e->grid.nz, e->grid.ny, e->grid.nx, ps_precision_name(e->precision),
                        g->grid.nz, g->grid.ny, g->grid.nx, ps_precision_name(g->precision));
    st = ps_compare_fields(e, g, &d->stats);
    if (st)
        return st;
    d->cells = (size_t)d->stats.cells;
    d->differ = (size_t)ps_compare_bits_differ(&d->stats);
    return PS_OK;
}

int ps_validate_diff_bitwise(const ps_validate_diff *d)
{
    return ps_compare_bitwise(&d->stats);
}

double ps_validate_scale(const ps_field *f)
{
    size_t n = ps_field_cells(f), q;
    double m = 0;
    for (q = 0; q < n; q++) {
        double v = f->precision == PS_FLOAT64 ? ((const double *)f->data)[q]
                                              : ((const float *)f->data)[q];
        if (!isnan(v) && fabs(v) > m)
            m = fabs(v);
    }
    return m;
}

double ps_validate_fast_bound(const ps_stencil *s, ps_precision p, long steps, double scale)
{
    double u = (p == PS_FLOAT64) ? ldexp(1.0, -53) : ldexp(1.0, -24);
    double n = s ? (double)s->nneighbours : 6.0;
    if (steps < 1)
        steps = 1;
    return 2.0 * (1.0 + 12.0 * n) * u * fabs(scale) * (double)steps;
}

int ps_validate_fast_ok(const ps_validate_diff *d, const ps_stencil *s, ps_precision p,
                        long steps, double scale)
{
    if (d->stats.nan_mismatch || d->stats.unwritten)
        return 0;
    return d->stats.max_abs <= ps_validate_fast_bound(s, p, steps, scale);
}

void ps_validate_diff_describe(const ps_validate_diff *d, char *buf, size_t len)
{
    const ps_compare_stats *st = &d->stats;
    const ps_compare_loc *at = &st->first_bits_at;
    if (!d->differ) {
        snprintf(buf, len, "bitwise identical");
        return;
    }
    snprintf(buf, len,
             "at (k,j,i)=(%zu,%zu,%zu): expected %.9g, got %.9g%s; %zu of %zu cells differ, "
             "%llu NaN-mask changes, %llu unwritten, max %llu ulp, max abs %.3g",
             at->k, at->j, at->i, st->first_bits_a, st->first_bits_b,
             (isnan(st->first_bits_a) && isnan(st->first_bits_b)) ? " (NaN payload differs)" : "",
             d->differ, d->cells, (unsigned long long)st->nan_mismatch,
             (unsigned long long)st->unwritten, (unsigned long long)st->max_ulp, st->max_abs);
}
