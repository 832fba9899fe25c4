/*
 * Synthetic test fields of the validation cases, made here from a
 * splitmix64 generator (the validation layer reads no file and calls no
 * io/ code): random land masks, isolated cells, a checkerboard, extreme and
 * subnormal values, signed zeros, NaN planes, and an ocean basin with land
 * masses, islands, pockets of ocean enclosed by land, a seabed and
 * temperatures crossing 0 degC. Each fills float64 values; the case rounds
 * them to the working precision.
 */
#include "config.h"
#include "ps_validate_internal.h"
#include "ps_status.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

typedef struct psv_rng {
    uint64_t s;
} psv_rng;

static uint64_t rng_next(psv_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double rng_unit(psv_rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* a smooth temperature-like value with a little noise */
static double smooth_value(size_t k, size_t j, size_t i, const ps_grid *g, psv_rng *r)
{
    double z = (double)k / (double)(g->nz > 1 ? g->nz - 1 : 1);
    double y = (double)j / (double)(g->ny > 1 ? g->ny - 1 : 1);
    double x = (double)i / (double)(g->nx > 1 ? g->nx - 1 : 1);
    return 2.0 + 24.0 * exp(-3.0 * z) * (0.6 + 0.4 * cos(3.0 * (y - 0.5))) +
           1.5 * sin(6.3 * x + 2.0 * y) + 0.25 * (rng_unit(r) - 0.5);
}

int psv_fill_random(double frac, ps_precision p, double *v, const ps_grid *g, char *label,
                    size_t len)
{
    psv_rng r = {UINT64_C(0x5eed) + (uint64_t)(frac * 1000.0) + g->nx * 131 + g->ny * 7};
    size_t k, j, i, q = 0;
    (void)p;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++, q++) {
                double val = smooth_value(k, j, i, g, &r);
                v[q] = (rng_unit(&r) < frac) ? val : NAN;
            }
    snprintf(label, len, "random mask, ocean fraction %g, %zux%zux%zu", frac, g->nz, g->ny,
             g->nx);
    return PS_OK;
}

int psv_fill_single(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                    size_t len)
{
    size_t n = g->nz * g->ny * g->nx, q;
    (void)param;
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

int psv_fill_checker(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                     size_t len)
{
    psv_rng r = {77};
    size_t k, j, i, q = 0;
    (void)param;
    (void)p;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++, q++)
                v[q] = ((k + j + i) & 1) ? NAN : smooth_value(k, j, i, g, &r);
    snprintf(label, len, "3-D checkerboard of land and ocean, %zux%zux%zu", g->nz, g->ny, g->nx);
    return PS_OK;
}

int psv_fill_extremes(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                      size_t len)
{
    /* large, tiny, subnormal, signed zeros and ordinary values, mixed */
    static const double f32_vals[] = {1e30, -1e30, 1e-40, -1e-40, 1.4e-45, -0.0, 0.0, 3.5, -2.25,
                                      1e-38, 6e29, -7.5e29, 1e-30, 123456.0, NAN};
    static const double f64_vals[] = {1e30, -1e30, 1e-310, -1e-310, 4.9e-324, -0.0, 0.0, 3.5,
                                      -2.25, 2.2e-308, 1e300, -1e300, 1e-30, 123456.0, NAN};
    const double *vals = (p == PS_FLOAT64) ? f64_vals : f32_vals;
    const size_t nv = sizeof f32_vals / sizeof f32_vals[0];
    size_t n = g->nz * g->ny * g->nx, q;
    psv_rng r = {99};
    (void)param;
    for (q = 0; q < n; q++)
        v[q] = vals[rng_next(&r) % nv];
    snprintf(label, len, "+-1e30%s, subnormals, -0.0/+0.0, ordinary values and NaN mixed, "
             "%zux%zux%zu", p == PS_FLOAT64 ? ", +-1e300" : "", g->nz, g->ny, g->nx);
    return PS_OK;
}

int psv_fill_zeros(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                   size_t len)
{
    size_t n = g->nz * g->ny * g->nx, q;
    psv_rng r = {5};
    (void)param;
    (void)p;
    for (q = 0; q < n; q++) {
        uint64_t x = rng_next(&r) % 4;
        v[q] = x == 0 ? -0.0 : x == 1 ? 0.0 : x == 2 ? NAN : -0.0;
    }
    snprintf(label, len, "only -0.0, +0.0 and NaN (sign of zero sums), %zux%zux%zu", g->nz,
             g->ny, g->nx);
    return PS_OK;
}

int psv_fill_nan_planes(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                        size_t len)
{
    psv_rng r = {4242};
    size_t k, j, i, q = 0;
    (void)param;
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

/* (x/a)^2 + (y/b)^2 of a point relative to an ellipse centred at (cx, cy) */
static double ellipse(double x, double y, double cx, double cy, double a, double b)
{
    double dx = (x - cx) / a, dy = (y - cy) / b;
    return dx * dx + dy * dy;
}

/*
 * An ocean basin (what a model's input looks like): x east, y north in
 * [0, 1]. Land: a continent in the south-east, a large island in the
 * north-west, a one-cell-wide peninsula, single-cell islands (1.5% of the
 * columns); a seabed whose depth varies smoothly, so the deep levels are
 * land in part of the basin; pockets of ocean enclosed by land (one wet cell
 * at level 1 in 3% of the land columns: isolated interior cells). Surface
 * temperature from about 20 degC in the south to about -3 degC in the north
 * (cells within a few thousandths of 0 degC, where an ulp is tiny), cooling
 * with depth, plus noise; values rounded to float32 as in the model's files.
 */
int psv_fill_basin(double param, ps_precision p, double *v, const ps_grid *g, char *label,
                   size_t len)
{
    psv_rng r = {UINT64_C(0xba5e) + g->nx * 131 + g->ny * 7 + g->nz};
    size_t k, j, i, wet = 0, pockets = 0;
    (void)param;
    (void)p;
    for (j = 0; j < g->ny; j++)
        for (i = 0; i < g->nx; i++) {
            double x = ((double)i + 0.5) / (double)g->nx, y = ((double)j + 0.5) / (double)g->ny;
            size_t pen = (size_t)(0.58 * (double)g->nx);
            int land = ellipse(x, y, 0.8, 0.2, 0.25, 0.3) < 1.0 ||
                       ellipse(x, y, 0.25, 0.75, 0.14, 0.18) < 1.0 ||
                       (i == pen && y > 0.4 && y < 0.9);
            double seabed = 0.2 + 0.8 * (0.5 + 0.5 * cos(5.0 * x + 3.0 * y));
            double ts = 19.0 - 22.0 * y + 1.2 * sin(7.0 * x + 2.0 * y);
            int island = rng_unit(&r) < 0.015, pocket = rng_unit(&r) < 0.03;
            land = land || island;
            for (k = 0; k < g->nz; k++) {
                size_t q = ps_index(g, k, j, i);
                double z = (double)k / (double)g->nz;
                double t = 1.5 + (ts - 1.5) * exp(-6.0 * z) + 0.02 * (rng_unit(&r) - 0.5);
                int ocean = land ? (pocket && k == 1 && g->nz > 2) : z < seabed;
                v[q] = ocean ? (double)(float)t : NAN;
                wet += ocean != 0;
                pockets += land && ocean;
            }
        }
    snprintf(label, len, "synthetic basin: land masses, a one-cell peninsula, single-cell "
             "islands, %zu ocean pockets enclosed by land, a seabed, about -3..20 degC, "
             "float32 values, %zu of %zu cells ocean, %zux%zux%zu", pockets, wet,
             g->nz * g->ny * g->nx, g->nz, g->ny, g->nx);
    return PS_OK;
}
