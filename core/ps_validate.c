/*
 * Cross-backend validation: generated cases, the cell-by-cell comparison
 * and the suite behind `pstencil validate`.
 *
 * The comparison here (bitwise, ulp by ordered-integer mapping, absolute
 * error, NaN mask, poison) is self-contained; it can be swapped for the
 * shared comparison in core/ps_compare.h when that lands.
 */
#include "config.h"
#include "ps_validate.h"
#include "ps_io.h"
#include "ps_region.h"
#include "ps_status.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define POISON32 UINT32_C(0x7fbadbad)
#define POISON64 UINT64_C(0x7ff4dead0badf00d)

/* ------------------------------------------------------------------ */
/* Comparison                                                           */
/* ------------------------------------------------------------------ */

static inline int64_t ord32(uint32_t u)
{
    int32_t i = (int32_t)u;
    return i < 0 ? (int64_t)INT32_MIN - (int64_t)i : (int64_t)i;
}

static inline uint64_t ulp32(uint32_t a, uint32_t b)
{
    int64_t x = ord32(a), y = ord32(b);
    return (uint64_t)(x > y ? x - y : y - x);
}

static inline uint64_t ulp64(uint64_t a, uint64_t b)
{
    /* map to a monotonic unsigned key: negatives reversed below positives */
    uint64_t x = (a >> 63) ? ~a : (a | UINT64_C(0x8000000000000000));
    uint64_t y = (b >> 63) ? ~b : (b | UINT64_C(0x8000000000000000));
    /* -0.0 and +0.0 map to adjacent keys; treat them as 0 ulp apart */
    if (((a | b) << 1) == 0)
        return 0;
    return x > y ? x - y : y - x;
}

int ps_validate_compare(const ps_field *e, const ps_field *g, ps_validate_diff *d)
{
    size_t n, q;
    memset(d, 0, sizeof *d);
    if (e->precision != g->precision || e->grid.nz != g->grid.nz || e->grid.ny != g->grid.ny ||
        e->grid.nx != g->grid.nx)
        return ps_error(PS_EINVAL, "cannot compare a %zux%zux%zu %s field with a %zux%zux%zu %s one",
                        e->grid.nz, e->grid.ny, e->grid.nx, ps_precision_name(e->precision),
                        g->grid.nz, g->grid.ny, g->grid.nx, ps_precision_name(g->precision));
    n = ps_field_cells(e);
    d->cells = n;
    for (q = 0; q < n; q++) {
        double ev, gv;
        int en, gn, poisoned;
        if (e->precision == PS_FLOAT32) {
            uint32_t a, b;
            memcpy(&a, (const char *)e->data + 4 * q, 4);
            memcpy(&b, (const char *)g->data + 4 * q, 4);
            ev = ((const float *)e->data)[q];
            gv = ((const float *)g->data)[q];
            if (!isnan(ev) && fabs(ev) > d->max_ref)
                d->max_ref = fabs(ev);
            if (a == b)
                continue;
            poisoned = (b == POISON32);
            en = isnan(ev);
            gn = isnan(gv);
            if (!en && !gn) {
                uint64_t u = ulp32(a, b);
                if (u > d->max_ulp)
                    d->max_ulp = u;
            }
        } else {
            uint64_t a, b;
            memcpy(&a, (const char *)e->data + 8 * q, 8);
            memcpy(&b, (const char *)g->data + 8 * q, 8);
            ev = ((const double *)e->data)[q];
            gv = ((const double *)g->data)[q];
            if (!isnan(ev) && fabs(ev) > d->max_ref)
                d->max_ref = fabs(ev);
            if (a == b)
                continue;
            poisoned = (b == POISON64);
            en = isnan(ev);
            gn = isnan(gv);
            if (!en && !gn) {
                uint64_t u = ulp64(a, b);
                if (u > d->max_ulp)
                    d->max_ulp = u;
            }
        }
        d->differ++;
        if (poisoned)
            d->unwritten++;
        else if (en != gn)
            d->nan_mismatch++;
        if (!en && !gn) {
            double ad = fabs(gv - ev);
            if (isinf(ad) || isnan(ad))
                ad = HUGE_VAL;
            if (ad > d->max_abs)
                d->max_abs = ad;
        }
        if (!d->have_first) {
            size_t plane = e->grid.ny * e->grid.nx;
            d->have_first = 1;
            d->first[0] = q / plane;
            d->first[1] = (q % plane) / e->grid.nx;
            d->first[2] = q % e->grid.nx;
            d->first_expected = ev;
            d->first_got = gv;
        }
    }
    return PS_OK;
}

int ps_validate_diff_bitwise(const ps_validate_diff *d)
{
    return d->differ == 0;
}

double ps_validate_fast_bound(ps_precision p, long steps, double scale, double coeff)
{
    double u = (p == PS_FLOAT64) ? ldexp(1.0, -53) : ldexp(1.0, -24);
    double dd = fabs(coeff);
    if (steps < 1)
        steps = 1;
    return 2.0 * (1.0 + 62.0 * dd) * u * scale * (double)steps;
}

int ps_validate_fast_ok(const ps_validate_diff *d, ps_precision p, long steps, double scale,
                        double coeff)
{
    if (d->nan_mismatch || d->unwritten)
        return 0;
    return d->max_abs <= ps_validate_fast_bound(p, steps, scale, coeff);
}

void ps_validate_diff_describe(const ps_validate_diff *d, char *buf, size_t len)
{
    if (!d->differ) {
        snprintf(buf, len, "bitwise identical");
        return;
    }
    snprintf(buf, len,
             "at (k,j,i)=(%zu,%zu,%zu): expected %.9g, got %.9g%s; %zu of %zu cells differ, "
             "%zu NaN-mask changes, %zu unwritten, max %llu ulp, max abs %.3g",
             d->first[0], d->first[1], d->first[2], d->first_expected, d->first_got,
             (isnan(d->first_expected) && isnan(d->first_got)) ? " (NaN payload differs)" : "",
             d->differ, d->cells, d->nan_mismatch, d->unwritten,
             (unsigned long long)d->max_ulp, d->max_abs);
}

/* ------------------------------------------------------------------ */
/* Cases                                                                */
/* ------------------------------------------------------------------ */

typedef struct vrng {
    uint64_t s;
} vrng;

static uint64_t rng_next(vrng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double rng_unit(vrng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

struct vcase;
typedef int (*vcase_fill)(const struct vcase *c, ps_precision p, double *v, const ps_grid *g,
                          char *label, size_t len);

typedef struct vcase {
    const char *name;
    const char *desc;
    int quick;
    ps_grid grid;
    vcase_fill fill;
    double param;
    int regions; /* upload/download through sub-regions */
} vcase;

/* a smooth temperature-like value with a little noise */
static double smooth_value(size_t k, size_t j, size_t i, const ps_grid *g, vrng *r)
{
    double z = (double)k / (double)(g->nz > 1 ? g->nz - 1 : 1);
    double y = (double)j / (double)(g->ny > 1 ? g->ny - 1 : 1);
    double x = (double)i / (double)(g->nx > 1 ? g->nx - 1 : 1);
    return 2.0 + 24.0 * exp(-3.0 * z) * (0.6 + 0.4 * cos(3.0 * (y - 0.5))) +
           1.5 * sin(6.3 * x + 2.0 * y) + 0.25 * (rng_unit(r) - 0.5);
}

static int fill_random(const vcase *c, ps_precision p, double *v, const ps_grid *g, char *label,
                       size_t len)
{
    vrng r = {UINT64_C(0x5eed) + (uint64_t)(c->param * 1000.0) + g->nx * 131 + g->ny * 7};
    size_t k, j, i, q = 0;
    (void)p;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++, q++) {
                double val = smooth_value(k, j, i, g, &r);
                v[q] = (rng_unit(&r) < c->param) ? val : NAN;
            }
    snprintf(label, len, "random mask, ocean fraction %g, %zux%zux%zu", c->param, g->nz, g->ny,
             g->nx);
    return PS_OK;
}

static int fill_single(const vcase *c, ps_precision p, double *v, const ps_grid *g, char *label,
                       size_t len)
{
    size_t n = g->nz * g->ny * g->nx, q;
    (void)c;
    (void)p;
    for (q = 0; q < n; q++)
        v[q] = NAN;
    v[ps_index(g, g->nz / 2, g->ny / 2, g->nx / 2)] = 13.25;
    /* and a pair of ocean cells that only see each other */
    v[ps_index(g, 1, 1, 1)] = 4.0;
    v[ps_index(g, 1, 1, 2)] = 7.5;
    snprintf(label, len, "one isolated ocean cell and one isolated pair in land, %zux%zux%zu",
             g->nz, g->ny, g->nx);
    return PS_OK;
}

static int fill_checker(const vcase *c, ps_precision p, double *v, const ps_grid *g, char *label,
                        size_t len)
{
    vrng r = {77};
    size_t k, j, i, q = 0;
    (void)c;
    (void)p;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++, q++)
                v[q] = ((k + j + i) & 1) ? NAN : smooth_value(k, j, i, g, &r);
    snprintf(label, len, "3-D checkerboard of land and ocean, %zux%zux%zu", g->nz, g->ny, g->nx);
    return PS_OK;
}

static int fill_extremes(const vcase *c, ps_precision p, double *v, const ps_grid *g, char *label,
                         size_t len)
{
    /* large, tiny, subnormal, signed zeros and ordinary values, mixed */
    const double f32_vals[] = {1e30, -1e30, 1e-40, -1e-40, 1.4e-45, -0.0, 0.0, 3.5, -2.25,
                               1e-38, 6e29, -7.5e29, 1e-30, 123456.0, NAN};
    const double f64_vals[] = {1e30, -1e30, 1e-310, -1e-310, 4.9e-324, -0.0, 0.0, 3.5, -2.25,
                               2.2e-308, 1e300, -1e300, 1e-30, 123456.0, NAN};
    const double *vals = (p == PS_FLOAT64) ? f64_vals : f32_vals;
    const size_t nv = sizeof f32_vals / sizeof f32_vals[0];
    size_t n = g->nz * g->ny * g->nx, q;
    vrng r = {99};
    (void)c;
    for (q = 0; q < n; q++)
        v[q] = vals[rng_next(&r) % nv];
    snprintf(label, len, "+-1e30%s, subnormals, -0.0/+0.0, ordinary values and NaN mixed, "
             "%zux%zux%zu", p == PS_FLOAT64 ? ", +-1e300" : "", g->nz, g->ny, g->nx);
    return PS_OK;
}

static int fill_zeros(const vcase *c, ps_precision p, double *v, const ps_grid *g, char *label,
                      size_t len)
{
    size_t n = g->nz * g->ny * g->nx, q;
    vrng r = {5};
    (void)c;
    (void)p;
    for (q = 0; q < n; q++) {
        uint64_t x = rng_next(&r) % 4;
        v[q] = x == 0 ? -0.0 : x == 1 ? 0.0 : x == 2 ? NAN : -0.0;
    }
    snprintf(label, len, "only -0.0, +0.0 and NaN (sign of zero sums), %zux%zux%zu", g->nz,
             g->ny, g->nx);
    return PS_OK;
}

static int fill_nan_planes(const vcase *c, ps_precision p, double *v, const ps_grid *g,
                           char *label, size_t len)
{
    vrng r = {4242};
    size_t k, j, i, q = 0;
    (void)c;
    (void)p;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++, q++) {
                int land = (k == 2) || (j == 3) || (i == g->nx / 2) || (k == g->nz - 2 && j < 4);
                v[q] = land ? NAN : smooth_value(k, j, i, g, &r);
            }
    snprintf(label, len, "whole NaN planes across k, j and i, %zux%zux%zu", g->nz, g->ny, g->nx);
    return PS_OK;
}

/* Own stand-in for the built-in ocean: smooth field, continents, seabed. */
static void synthetic_ocean(double *v, const ps_grid *g)
{
    vrng r = {1};
    size_t k, j, i, q = 0;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++, q++) {
                double y = (double)j / (double)g->ny, x = (double)i / (double)g->nx;
                double land = sin(7.0 * x) * cos(5.0 * y) + 0.6 * sin(17.0 * x + 11.0 * y);
                double depth = 0.5 + 0.5 * cos(4.0 * x - 3.0 * y);
                int wet = land < 0.55 && (double)k < (double)g->nz * (0.15 + 0.85 * depth);
                v[q] = wet ? smooth_value(k, j, i, g, &r) : NAN;
            }
}

static int fill_ocean(const vcase *c, ps_precision p, double *v, const ps_grid *g, char *label,
                      size_t len)
{
    ps_ocean_options o;
    ps_field f;
    int st;
    const int cropped = c->param > 0;
    (void)p;
    memset(&f, 0, sizeof f);
    ps_ocean_defaults(&o);
    st = ps_ocean_generate(&o, 0, NULL, &f);
    if (st == PS_OK && f.precision == PS_FLOAT32 && f.grid.nz >= g->nz && f.grid.ny >= g->ny &&
        f.grid.nx >= g->nx) {
        /* crop (or take whole) from the middle of the domain */
        size_t k0 = 0, j0 = (f.grid.ny - g->ny) / 2, i0 = (f.grid.nx - g->nx) / 2;
        size_t k, j, i, q = 0;
        for (k = 0; k < g->nz; k++)
            for (j = 0; j < g->ny; j++)
                for (i = 0; i < g->nx; i++, q++)
                    v[q] = ((const float *)f.data)[ps_index(&f.grid, k0 + k, j0 + j, i0 + i)];
        snprintf(label, len, "built-in ocean (time 0)%s, %zux%zux%zu",
                 cropped ? " cropped" : "", g->nz, g->ny, g->nx);
    } else {
        char why[200];
        snprintf(why, sizeof why, "%s", st ? ps_error_detail() : "unexpected shape");
        synthetic_ocean(v, g);
        snprintf(label, len, "SYNTHETIC ocean-like field with coastlines and seabed "
                 "(built-in ocean unavailable: %s), %zux%zux%zu", why, g->nz, g->ny, g->nx);
    }
    ps_field_free(&f);
    return PS_OK;
}

static const vcase ps_vcases[] = {
    {"ocean-cropped", "the built-in ocean cropped to 20x48x56", 1, {20, 48, 56}, fill_ocean, 1, 0},
    {"ocean-full", "the built-in ocean, 50x222x241", 0, {50, 222, 241}, fill_ocean, 0, 0},
    {"ocean-0", "random mask, no ocean at all", 1, {9, 17, 23}, fill_random, 0.0, 0},
    {"ocean-0.05", "random mask, 5% ocean", 1, {9, 17, 23}, fill_random, 0.05, 0},
    {"ocean-0.5", "random mask, 50% ocean", 1, {9, 17, 23}, fill_random, 0.5, 0},
    {"ocean-0.95", "random mask, 95% ocean", 1, {9, 17, 23}, fill_random, 0.95, 0},
    {"ocean-1", "random values, no land", 1, {9, 17, 23}, fill_random, 1.0, 0},
    {"single-cell", "one isolated ocean cell (and a pair) in land", 1, {5, 6, 7}, fill_single, 0, 0},
    {"checkerboard", "3-D checkerboard of land and ocean", 1, {8, 9, 10}, fill_checker, 0, 0},
    {"tiny-3x3x3", "3x3x3: one interior cell", 1, {3, 3, 3}, fill_random, 0.9, 0},
    {"tiny-3x3x4", "3x3x4: two interior cells along i", 1, {3, 3, 4}, fill_random, 0.9, 0},
    {"tiny-4x3x3", "4x3x3: two interior cells along k", 1, {4, 3, 3}, fill_random, 0.9, 0},
    {"tiny-3x4x3", "3x4x3: two interior cells along j", 1, {3, 4, 3}, fill_random, 0.9, 0},
    {"no-interior-2x5x6", "2x5x6: no interior cell (all boundary)", 1, {2, 5, 6}, fill_random, 0.8, 0},
    {"no-interior-1x1x9", "1x1x9: a single row", 1, {1, 1, 9}, fill_random, 0.8, 0},
    {"thin-k", "3x40x37: one-cell-thick interior in k", 1, {3, 40, 37}, fill_random, 0.8, 0},
    {"thin-j", "30x3x37: one-cell-thick interior in j", 1, {30, 3, 37}, fill_random, 0.8, 0},
    {"thin-i", "30x40x3: one-cell-thick interior in i", 1, {30, 40, 3}, fill_random, 0.8, 0},
    {"odd-5x7x13", "5x7x13, 80% ocean", 1, {5, 7, 13}, fill_random, 0.8, 0},
    {"odd-17x129x257", "17x129x257, 80% ocean", 0, {17, 129, 257}, fill_random, 0.8, 0},
    {"odd-50x222x241", "50x222x241, 70% ocean", 0, {50, 222, 241}, fill_random, 0.7, 0},
    {"extremes", "+-1e30, subnormals, -0.0, large and small mixed, NaN", 1, {6, 11, 19},
     fill_extremes, 0, 0},
    {"signed-zeros", "only -0.0, +0.0 and NaN", 1, {5, 6, 9}, fill_zeros, 0, 0},
    {"nan-planes", "whole NaN planes in k, j and i", 1, {9, 12, 15}, fill_nan_planes, 0, 0},
    {"regions", "uploaded and downloaded through sub-regions (context API)", 1, {7, 10, 21},
     fill_random, 0.85, 1},
};

int ps_validate_case_count(void)
{
    return (int)(sizeof ps_vcases / sizeof ps_vcases[0]);
}

const char *ps_validate_case_name(int i)
{
    return (i >= 0 && i < ps_validate_case_count()) ? ps_vcases[i].name : NULL;
}

const char *ps_validate_case_description(int i)
{
    return (i >= 0 && i < ps_validate_case_count()) ? ps_vcases[i].desc : NULL;
}

int ps_validate_case_quick(int i)
{
    return (i >= 0 && i < ps_validate_case_count()) ? ps_vcases[i].quick : 0;
}

int ps_validate_case_find(const char *name)
{
    int i;
    for (i = 0; name && i < ps_validate_case_count(); i++)
        if (!strcmp(ps_vcases[i].name, name))
            return i;
    return -1;
}

int ps_validate_case_make(int i, ps_precision p, ps_field *out, char *label, size_t len)
{
    const vcase *c;
    double *v = NULL;
    ps_field tmp;
    size_t n;
    int st;
    char dummy[8];
    if (!label) {
        label = dummy;
        len = sizeof dummy;
    }
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= ps_validate_case_count())
        return ps_error(PS_EINVAL, "no validation case %d", i);
    c = &ps_vcases[i];
    st = ps_field_alloc(&tmp, c->grid, PS_FLOAT64);
    if (st)
        return st;
    v = tmp.data;
    n = ps_field_cells(&tmp);
    memset(v, 0, n * sizeof *v);
    st = c->fill(c, p, v, &c->grid, label, len);
    if (!st)
        st = ps_field_alloc(out, c->grid, p);
    if (!st)
        st = ps_field_convert(out, &tmp);
    ps_field_free(&tmp);
    if (st)
        ps_field_free(out);
    return st;
}

/* ------------------------------------------------------------------ */
/* Running a backend                                                    */
/* ------------------------------------------------------------------ */

/* Upload @p in through sub-regions: k-slabs of 1, 2, 3... levels, each split in j. */
static int upload_regions(ps_context *ctx, const ps_field *in, void *scratch)
{
    const ps_grid *g = &in->grid;
    size_t es = ps_precision_size(in->precision), k0 = 0, th = 1;
    int st;
    while (k0 < g->nz) {
        size_t kc = th < g->nz - k0 ? th : g->nz - k0;
        size_t jsplit = g->ny / 2, part;
        for (part = 0; part < 2; part++) {
            ps_region r;
            memset(&r, 0, sizeof r);
            r.start[0] = k0;
            r.start[1] = part ? jsplit : 0;
            r.count.nz = kc;
            r.count.ny = part ? g->ny - jsplit : jsplit;
            r.count.nx = g->nx;
            if (!r.count.ny)
                continue;
            ps_region_gather(scratch, in->data, g, &r, es);
            st = ps_context_upload(ctx, scratch, &r);
            if (st)
                return st;
        }
        k0 += kc;
        th = th % 3 + 1;
    }
    return PS_OK;
}

/* Download into @p out through sub-regions: i split in three, k in slabs of 2. */
static int download_regions(ps_context *ctx, ps_field *out, void *scratch)
{
    const ps_grid *g = &out->grid;
    size_t es = ps_precision_size(out->precision), k0, part;
    size_t cut[4] = {0, g->nx / 3, (2 * g->nx) / 3, g->nx};
    int st;
    for (k0 = 0; k0 < g->nz; k0 += 2)
        for (part = 0; part < 3; part++) {
            ps_region r;
            memset(&r, 0, sizeof r);
            r.start[0] = k0;
            r.start[2] = cut[part];
            r.count.nz = g->nz - k0 < 2 ? g->nz - k0 : 2;
            r.count.ny = g->ny;
            r.count.nx = cut[part + 1] - cut[part];
            if (!r.count.nx)
                continue;
            st = ps_context_download(ctx, scratch, &r);
            if (st)
                return st;
            ps_region_scatter(out->data, g, scratch, &r, es);
        }
    return PS_OK;
}

/* Upload, step, download on an existing context (out poisoned first). */
static int run_on_context(ps_context *ctx, const ps_field *input, long steps, int regions,
                          ps_field *out)
{
    void *scratch = NULL;
    size_t bytes = 0;
    int st;
    ps_field_poison(out);
    if (regions) {
        ps_grid_size(&input->grid, input->precision, NULL, &bytes);
        scratch = malloc(bytes ? bytes : 1);
        if (!scratch)
            return ps_error(PS_ENOMEM, "out of memory");
        st = upload_regions(ctx, input, scratch);
    } else {
        st = ps_context_upload(ctx, input->data, NULL);
    }
    if (!st)
        st = ps_context_step(ctx, steps);
    if (!st)
        st = ps_context_finish(ctx);
    if (!st)
        st = regions ? download_regions(ctx, out, scratch)
                     : ps_context_download(ctx, out->data, NULL);
    free(scratch);
    return st;
}

int ps_validate_run_backend(ps_backend *b, const ps_config *cfg_in, const ps_field *input,
                            long steps, int regions, ps_field *out)
{
    ps_config cfg = *cfg_in;
    ps_context *ctx = NULL;
    int st;
    cfg.box = ps_box_whole(input->grid);
    cfg.precision = input->precision;
    ps_field_poison(out);
    st = ps_context_create(b, &cfg, &ctx);
    if (!st)
        st = run_on_context(ctx, input, steps, regions, out);
    ps_context_destroy(ctx);
    return st;
}

/* ------------------------------------------------------------------ */
/* The suite                                                            */
/* ------------------------------------------------------------------ */

#define MAX_COLS 64
#define MAX_STEPS 16
#define MAX_THREADS 16
#define MAX_FAILS 200

typedef struct vcol {
    char backend[64];
    int bi;              /* index into opened backends */
    int device;
    int ndevices;
    ps_precision prec;
    ps_mode mode;
    char title[48];
    double worst_ratio;  /* fast mode: max observed abs error / bound */
    uint64_t worst_ulp;
    double worst_abs;
} vcol;

typedef struct vcell {
    int state; /* 0 not run, 1 pass, 2 fail */
    uint64_t max_ulp;
    double max_abs;
    int fail_no;
} vcell;

static int colw(const vcol *c)
{
    int l = (int)strlen(c->title);
    return l > 17 ? l : 17;
}

static void add_line(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_line(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    int need;
    va_start(ap, fmt);
    need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0)
        return;
    if (*len + (size_t)need + 2 > *cap) {
        size_t nc = (*cap + (size_t)need + 2) * 2;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return;
        *buf = nb;
        *cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(*buf + *len, *cap - *len, fmt, ap);
    va_end(ap);
    *len += (size_t)need;
    (*buf)[(*len)++] = '\n';
    (*buf)[*len] = '\0';
}

static double field_scale(const ps_field *f)
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

static int is_known_name(const char *name)
{
    const char *const *names;
    int n, i;
    ps_backend_known(&names, &n);
    for (i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return 1;
    return 0;
}

int ps_validate_suite(const ps_validate_options *o, ps_validate_summary *sum)
{
    static const long def_steps[] = {1, 2, 7, 50}, quick_steps[] = {1, 2, 7};
    static const int def_threads[] = {1, 2, 3};
    FILE *out = o->out ? o->out : stdout;
    const char *const *names;
    int nnames;
    ps_backend *ref = NULL, *bk[32] = {0};
    char bname[32][64];
    int nb = 0;
    vcol cols[MAX_COLS];
    int ncols = 0;
    int case_sel[64], ncase = 0;
    vcell *cells = NULL;
    const long *steps;
    int nsteps;
    const int *threads;
    int nthreads;
    int precs = o->precisions ? o->precisions : 3, modes = o->modes ? o->modes : 3;
    char *fails = NULL, *skips = NULL, *labels = NULL;
    size_t flen = 0, fcap = 0, slen = 0, scap = 0, llen = 0, lcap = 0;
    int nfail = 0, st = PS_OK, i, c, ci;
    ps_validate_summary s;
    memset(&s, 0, sizeof s);

    steps = o->steps ? o->steps : (o->quick ? quick_steps : def_steps);
    nsteps = o->steps ? o->nsteps : (o->quick ? 3 : 4);
    threads = o->threads ? o->threads : def_threads;
    nthreads = o->threads ? o->nthreads : 3;
    if (nsteps < 1 || nsteps > MAX_STEPS || nthreads < 1 || nthreads > MAX_THREADS)
        return ps_error(PS_EINVAL, "between 1 and %d step counts and 1 and %d thread counts",
                        MAX_STEPS, MAX_THREADS);

    /* cases */
    if (o->cases && o->ncases > 0) {
        for (i = 0; i < o->ncases && ncase < 64; i++) {
            int k = ps_validate_case_find(o->cases[i]);
            if (k < 0) {
                char list[2048] = "";
                for (k = 0; k < ps_validate_case_count(); k++) {
                    size_t u = strlen(list);
                    snprintf(list + u, sizeof list - u, "%s%s", k ? ", " : "",
                             ps_validate_case_name(k));
                }
                return ps_error(PS_EINVAL, "unknown case '%s' (cases: %s)", o->cases[i], list);
            }
            case_sel[ncase++] = k;
        }
    } else {
        for (i = 0; i < ps_validate_case_count(); i++)
            if (!o->quick || ps_vcases[i].quick)
                case_sel[ncase++] = i;
    }

    /* backends */
    if (o->backends && o->nbackends > 0) {
        names = o->backends;
        nnames = o->nbackends;
    } else {
        ps_backend_known(&names, &nnames);
    }
    st = ps_backend_open("reference", &ref);
    if (st)
        return st;
    for (i = 0; i < nnames && nb < 32; i++) {
        ps_backend *b = NULL;
        ps_device_info devs[8];
        int nd = 0, d, pi, mi, r;
        r = ps_backend_open(names[i], &b);
        if (r) {
            if (r == PS_ENOBACKEND && !is_known_name(names[i])) {
                st = r; /* not a backend at all: a usage error (detail kept) */
                goto done;
            }
            add_line(&skips, &slen, &scap, "  %-10s skipped: %s", names[i], ps_error_detail());
            s.skipped++;
            continue;
        }
        r = ps_backend_probe(b, devs, 8, &nd);
        if (r) {
            add_line(&skips, &slen, &scap, "  %-10s skipped: %s", names[i], ps_error_detail());
            s.skipped++;
            ps_backend_close(b);
            continue;
        }
        if (nd > 8)
            nd = 8;
        bk[nb] = b;
        snprintf(bname[nb], sizeof bname[nb], "%s", names[i]);
        for (d = 0; d < nd; d++)
            for (pi = 0; pi < 2; pi++)
                for (mi = 0; mi < 2; mi++) {
                    ps_precision p = pi ? PS_FLOAT64 : PS_FLOAT32;
                    ps_mode m = mi ? PS_MODE_FAST : PS_MODE_EXACT;
                    unsigned caps = devs[d].caps;
                    const char *why = NULL;
                    char title[48];
                    if (!(precs & (1 << pi)) || !(modes & (1 << mi)))
                        continue;
                    if (nd > 1)
                        snprintf(title, sizeof title, "%s:%d %s %s", names[i], d,
                                 pi ? "f64" : "f32", mi ? "fast" : "exact");
                    else
                        snprintf(title, sizeof title, "%s %s %s", names[i], pi ? "f64" : "f32",
                                 mi ? "fast" : "exact");
                    if (p == PS_FLOAT64 && !(caps & PS_CAP_FP64))
                        why = "device has no float64";
                    else if (m == PS_MODE_EXACT &&
                             !(caps & (p == PS_FLOAT64 ? PS_CAP_EXACT_F64 : PS_CAP_EXACT_F32)))
                        why = (caps & PS_CAP_FAST) ? "device is fast-mode only"
                                                   : "device has no exact mode";
                    else if (m == PS_MODE_FAST && !(caps & PS_CAP_FAST))
                        why = "backend has no fast mode";
                    if (why) {
                        add_line(&skips, &slen, &scap, "  %-20s skipped (%s; device %d: %s)",
                                 title, why, d, devs[d].name);
                        s.skipped++;
                        continue;
                    }
                    if (ncols >= MAX_COLS)
                        continue;
                    memset(&cols[ncols], 0, sizeof cols[ncols]);
                    snprintf(cols[ncols].backend, sizeof cols[ncols].backend, "%s", names[i]);
                    snprintf(cols[ncols].title, sizeof cols[ncols].title, "%s", title);
                    cols[ncols].bi = nb;
                    cols[ncols].device = d;
                    cols[ncols].ndevices = nd;
                    cols[ncols].prec = p;
                    cols[ncols].mode = m;
                    ncols++;
                }
        fprintf(out, "backend %-10s %s (%d device%s: %s%s)\n", names[i], ps_backend_path(b), nd,
                nd == 1 ? "" : "s", devs[0].name, nd > 1 ? ", ..." : "");
        nb++;
    }

    cells = calloc((size_t)(ncase * (ncols ? ncols : 1)), sizeof *cells);
    if (!cells) {
        st = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    fprintf(out, "steps:");
    for (i = 0; i < nsteps; i++)
        fprintf(out, " %ld", steps[i]);
    fprintf(out, "; openmp threads:");
    for (i = 0; i < nthreads; i++)
        fprintf(out, " %d", threads[i]);
    fprintf(out, "; %d case%s%s\n", ncase, ncase == 1 ? "" : "s", o->quick ? " (quick)" : "");
    fflush(out);

    for (ci = 0; ci < ncase; ci++) {
        const vcase *vc = &ps_vcases[case_sel[ci]];
        int pi;
        for (pi = 0; pi < 2; pi++) {
            ps_precision p = pi ? PS_FLOAT64 : PS_FLOAT32;
            ps_field in, got, expect[MAX_STEPS];
            char label[512];
            double scale;
            int si, any = 0;
            for (c = 0; c < ncols; c++)
                any |= cols[c].prec == p;
            if (!any)
                continue;
            memset(expect, 0, sizeof expect);
            memset(&got, 0, sizeof got);
            st = ps_validate_case_make(case_sel[ci], p, &in, label, sizeof label);
            if (st)
                goto done;
            if (pi == 0 || !(precs & 1))
                add_line(&labels, &llen, &lcap, "  %-18s %s", vc->name, label);
            scale = field_scale(&in);
            /* the oracle: one reference context stepped to each count in turn */
            {
                ps_config cfg;
                ps_context *rc = NULL;
                long done_steps = 0;
                ps_config_init(&cfg, in.grid, p);
                st = ps_field_alloc(&got, in.grid, p);
                if (!st)
                    st = ps_context_create(ref, &cfg, &rc);
                if (!st)
                    st = ps_context_upload(rc, in.data, NULL);
                for (si = 0; !st && si < nsteps; si++) {
                    long target = steps[si];
                    st = ps_field_alloc(&expect[si], in.grid, p);
                    if (st)
                        break;
                    if (target < done_steps) { /* unsorted list: start again */
                        st = ps_context_upload(rc, in.data, NULL);
                        done_steps = 0;
                    }
                    if (!st)
                        st = ps_context_step(rc, target - done_steps);
                    done_steps = target;
                    if (!st)
                        st = ps_context_download(rc, expect[si].data, NULL);
                }
                ps_context_destroy(rc);
            }
            if (st) {
                for (si = 0; si < nsteps; si++)
                    ps_field_free(&expect[si]);
                ps_field_free(&in);
                ps_field_free(&got);
                goto done;
            }
            for (c = 0; c < ncols; c++) {
                vcol *col = &cols[c];
                vcell *cell = &cells[ci * ncols + c];
                int ti, nt = strcmp(col->backend, "openmp") ? 1 : nthreads;
                /* fast mode: thread counts must still agree bitwise with each other
                 * (exact mode implies it through the reference) */
                ps_field tfirst[MAX_STEPS];
                int keep = nt > 1 && col->mode == PS_MODE_FAST;
                if (col->prec != p)
                    continue;
                memset(tfirst, 0, sizeof tfirst);
                for (ti = 0; ti < nt; ti++) {
                    /* one context per thread count, reused for every step count
                     * (each run re-uploads: no state may leak between runs) */
                    ps_config cfg;
                    ps_context *bctx = NULL;
                    int cst;
                    char cerr[600] = "", thr[32] = "";
                    ps_config_init(&cfg, in.grid, p);
                    cfg.mode = col->mode;
                    cfg.device = col->ndevices > 1 ? col->device : -1;
                    if (strcmp(col->backend, "openmp") == 0) {
                        cfg.threads = threads[ti];
                        snprintf(thr, sizeof thr, ", %d thread%s", threads[ti],
                                 threads[ti] == 1 ? "" : "s");
                    }
                    cst = ps_context_create(bk[col->bi], &cfg, &bctx);
                    if (cst)
                        snprintf(cerr, sizeof cerr, "%s", ps_error_detail());
                    for (si = 0; si < nsteps; si++) {
                        ps_validate_diff d;
                        int r, ok;
                        char desc[700];
                        s.runs++;
                        r = cst ? cst : run_on_context(bctx, &in, steps[si], vc->regions, &got);
                        if (r) {
                            snprintf(desc, sizeof desc, "backend error: %s",
                                     cst ? cerr : ps_error_detail());
                            ok = 0;
                        } else {
                            ps_validate_compare(&expect[si], &got, &d);
                            if (col->mode == PS_MODE_EXACT) {
                                ok = ps_validate_diff_bitwise(&d);
                            } else {
                                double bound = ps_validate_fast_bound(p, steps[si], scale,
                                                                      cfg.params.scalars[0]);
                                double ratio = bound > 0 ? d.max_abs / bound
                                                         : (d.max_abs > 0 ? HUGE_VAL : 0);
                                ok = ps_validate_fast_ok(&d, p, steps[si], scale, cfg.params.scalars[0]);
                                if (ratio > col->worst_ratio)
                                    col->worst_ratio = ratio;
                                if (d.max_ulp > col->worst_ulp)
                                    col->worst_ulp = d.max_ulp;
                                if (d.max_abs > col->worst_abs)
                                    col->worst_abs = d.max_abs;
                                if (d.max_ulp > cell->max_ulp)
                                    cell->max_ulp = d.max_ulp;
                                if (d.max_abs > cell->max_abs)
                                    cell->max_abs = d.max_abs;
                            }
                            ps_validate_diff_describe(&d, desc, sizeof desc);
                            if (!ok && col->mode == PS_MODE_FAST) {
                                size_t u = strlen(desc);
                                snprintf(desc + u, sizeof desc - u, " (bound %.3g)",
                                         ps_validate_fast_bound(p, steps[si], scale, cfg.params.scalars[0]));
                            }
                            if (keep && ti == 0 && !ps_field_alloc(&tfirst[si], in.grid, p))
                                memcpy(tfirst[si].data, got.data,
                                       ps_field_cells(&got) * ps_precision_size(p));
                            if (ok && keep && ti > 0 && tfirst[si].data) {
                                ps_validate_compare(&tfirst[si], &got, &d);
                                if (!ps_validate_diff_bitwise(&d)) {
                                    char dd[600];
                                    ok = 0;
                                    ps_validate_diff_describe(&d, dd, sizeof dd);
                                    snprintf(desc, sizeof desc, "differs from the %d-thread "
                                             "result: %s", threads[0], dd);
                                }
                            }
                        }
                        if (o->verbose)
                            fprintf(out, "  %-18s %-20s %3ld step%s%s: %s\n", vc->name,
                                    col->title, steps[si], steps[si] == 1 ? " " : "s", thr,
                                    ok ? (col->mode == PS_MODE_EXACT ? "bitwise" : "ok") : desc);
                        if (!ok) {
                            s.failed++;
                            if (cell->state != 2) {
                                cell->state = 2;
                                cell->fail_no = ++nfail;
                                if (nfail <= MAX_FAILS)
                                    add_line(&fails, &flen, &fcap,
                                             "  #%d %s, case %s, %ld step%s%s: FAIL (%s)", nfail,
                                             col->title, vc->name, steps[si],
                                             steps[si] == 1 ? "" : "s", thr, desc);
                            }
                        } else if (cell->state == 0) {
                            cell->state = 1;
                        }
                    }
                    ps_context_destroy(bctx);
                }
                for (si = 0; si < nsteps; si++)
                    ps_field_free(&tfirst[si]);
            }
            for (si = 0; si < nsteps; si++)
                ps_field_free(&expect[si]);
            ps_field_free(&in);
            ps_field_free(&got);
        }
    }

    /* the table */
    fprintf(out, "\n%-18s", "case");
    for (c = 0; c < ncols; c++)
        fprintf(out, " %-*s", colw(&cols[c]), cols[c].title);
    fprintf(out, "\n");
    for (ci = 0; ci < ncase; ci++) {
        fprintf(out, "%-18s", ps_vcases[case_sel[ci]].name);
        for (c = 0; c < ncols; c++) {
            const vcell *cell = &cells[ci * ncols + c];
            char txt[32];
            if (cell->state == 0)
                snprintf(txt, sizeof txt, "-");
            else if (cell->state == 2)
                snprintf(txt, sizeof txt, "FAIL (#%d)", cell->fail_no);
            else if (cols[c].mode == PS_MODE_EXACT)
                snprintf(txt, sizeof txt, "bitwise");
            else if (cell->max_ulp < 100000)
                snprintf(txt, sizeof txt, "<= %llu ulp", (unsigned long long)cell->max_ulp);
            else /* a sign change or near-zero cell: ulps say little, abs error is bounded */
                snprintf(txt, sizeof txt, "<= %.1e abs", cell->max_abs);
            fprintf(out, " %-*s", colw(&cols[c]), txt);
        }
        fprintf(out, "\n");
    }
    if (ncols == 0)
        fprintf(out, "(no backend column could run)\n");
    if (labels)
        fprintf(out, "\ncases:\n%s", labels);
    for (c = 0; c < ncols; c++)
        if (cols[c].mode == PS_MODE_FAST)
            fprintf(out, "fast mode %-20s max %llu ulp, max abs error %.3g, at most %.3f of the "
                         "bound 2(1+62D)u*max|T0|*steps\n",
                    cols[c].title, (unsigned long long)cols[c].worst_ulp, cols[c].worst_abs,
                    cols[c].worst_ratio);
    if (skips)
        fprintf(out, "\nskipped:\n%s", skips);
    if (fails) {
        fprintf(out, "\nfailures (first per table cell):\n%s", fails);
        if (nfail > MAX_FAILS)
            fprintf(out, "  ... and %d more\n", nfail - MAX_FAILS);
    }
    fprintf(out, "\nvalidate: %d comparisons, %d failed, %d skipped\n", s.runs, s.failed,
            s.skipped);
    fflush(out);
    st = s.failed ? ps_error(PS_EMISMATCH, "%d of %d comparisons failed", s.failed, s.runs)
                  : PS_OK;
done:
    for (i = 0; i < nb; i++)
        ps_backend_close(bk[i]);
    ps_backend_close(ref);
    free(cells);
    free(fails);
    free(skips);
    free(labels);
    if (sum)
        *sum = s;
    return st;
}
