/*
 * tracer (docs/model.md) on the reference backend, checked from outside the
 * kernel file:
 *  - bitwise equal to the tests' oracle (tests/stencils/ps_oracle.c, written
 *    geographically from the model's formulas), float32 and float64, with
 *    the diagnosed w and with a given w, for a gyre and a random current;
 *  - conservative in a closed basin: sum(cos(lat_j) w_j h_k T) over the ocean
 *    changes by at most 1e-13 relative in 50 float64 steps, for any velocity
 *    field, and the check fails for a non-conservative variant;
 *  - with the diagnosed w and an open surface, a uniform field stays uniform
 *    to 1e-12 and a varied one gains no new extremum; with w forced to 0 (a
 *    given w of 0) the uniform field does not stay uniform, so the check can
 *    fail;
 *  - directions are geographic: the same ocean stored north-first, with
 *    longitudes descending and depth deepest-first gives the same result to
 *    1e-12 relative;
 *  - dt auto is 90 % of the oracle's stability limit; a dt above it is
 *    refused (PS_ERANGE) unless unstable steps are allowed.
 */
#include "config.h"
#include "ps_oracle.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NZ 8
#define NY 14
#define NX 16
#define NCELL (NZ * NY * NX)
#define AT(k, j, i) (((size_t)(k) * NY + (size_t)(j)) * NX + (size_t)(i))

static const double depth0[NZ] = {0.5, 3.0, 8.0, 20.0, 45.0, 90.0, 160.0, 260.0};
static double lat0[NY], lon0[NX];

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* A basin: land on every side face (and at k = 0 when @p closed), an island,
 * a seabed rising to the east; a temperature with fronts (uniform 15 when
 * @p uniform). */
static void make_field(double *t, int closed, int uniform)
{
    size_t k, j, i;
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                int side = j == 0 || j == NY - 1 || i == 0 || i == NX - 1 || k == NZ - 1 ||
                           (closed && k == 0);
                int island = j >= 5 && j <= 7 && i >= 6 && i <= 8;
                int seabed = (size_t)NZ - 1 - k < i / 4;
                double v = 8.0 + 0.4 * (double)j - 0.6 * (double)k + (i < 5 && j > 8 ? 5 : 0);
                t[AT(k, j, i)] = (side || island || seabed) ? NAN : uniform ? 15.0 : v;
            }
}

/* Currents: @p kind 0 the gyre (ps_currents_gyre, 0.3 m/s), 1 random in
 * [-0.3, 0.3] m/s; NaN where @p t is land. @p w (may be NULL): random too. */
static void make_currents(const double *t, int kind, double *u, double *v, double *w)
{
    uint64_t seed = 12345;
    size_t q;
    if (kind == 0)
        ps_currents_gyre((ps_grid){NZ, NY, NX}, depth0, lat0, lon0, 0.3, u, v);
    for (q = 0; q < NCELL; q++) {
        if (kind == 1) {
            u[q] = 0.6 * urand(&seed) - 0.3;
            v[q] = 0.6 * urand(&seed) - 0.3;
        }
        if (w)
            w[q] = 1e-4 * (urand(&seed) - 0.5);
        if (isnan(t[q])) {
            u[q] = v[q] = NAN;
            if (w)
                w[q] = NAN;
        }
    }
}

/* Prepare tracer with kh, kv and dt (NaN = auto) on coordinates z, la, lo. */
static int prepare(const double *z, const double *la, const double *lo, const double *u,
                   const double *v, const double *w, double dt, int unstable, ps_params *p,
                   ps_stencil_report *rep)
{
    double opts[3] = {2000.0, 1e-4, dt};
    const double *inputs[3] = {u, v, w};
    ps_stencil_setup in;
    memset(&in, 0, sizeof in);
    in.grid = (ps_grid){NZ, NY, NX};
    in.depth = z;
    in.lat = la;
    in.lon = lo;
    in.options = opts;
    in.inputs = inputs;
    in.allow_unstable = unstable;
    return ps_stencil_prepare(ps_stencil_find("tracer"), &in, p, rep);
}

/* @p steps reference steps of @p field (in place) with parameters @p p. */
static int run_ref(ps_backend *b, ps_precision pr, const ps_params *p, void *field, long steps)
{
    ps_config cfg;
    ps_context *ctx = NULL;
    int st;
    ps_config_init(&cfg, (ps_grid){NZ, NY, NX}, pr);
    cfg.stencil = ps_stencil_find("tracer");
    cfg.params = *p;
    st = ps_context_create(b, &cfg, &ctx);
    if (!st)
        st = ps_context_upload(ctx, field, NULL);
    if (!st)
        st = ps_context_step(ctx, steps);
    if (!st)
        st = ps_context_download(ctx, field, NULL);
    if (st)
        FAILF("reference: %s", ps_error_detail());
    ps_context_destroy(ctx);
    return st;
}

static double t0[NCELL], u0[NCELL], v0[NCELL], w0[NCELL];

/* reference against the oracle, bitwise, 20 steps */
static void check_oracle(ps_backend *b, int closed, int kind, int given_w)
{
    static double d[NCELL], od[NCELL], ot[NCELL];
    static float f[NCELL], of[NCELL], oft[NCELL];
    ps_oracle_tracer oc;
    ps_params p;
    ps_stencil_report rep;
    size_t q;
    int s, diff32 = 0, diff64 = 0, moved = 0;
    make_field(t0, closed, 0);
    make_currents(t0, kind, u0, v0, given_w ? w0 : NULL);
    if (prepare(depth0, lat0, lon0, u0, v0, given_w ? w0 : NULL, NAN, 0, &p, &rep)) {
        FAILF("prepare: %s", ps_error_detail());
        return;
    }
    if (ps_oracle_tracer_rates(NZ, NY, NX, depth0, lat0, lon0, 2000.0, 1e-4, u0, v0,
                               given_w ? w0 : NULL, &oc)) {
        FAILF("oracle: out of memory");
        ps_params_free(&p);
        return;
    }
    CHECK(fabs(rep.stable_limit - oc.limit) <= 1e-12 * oc.limit &&
              rep.seconds_per_step == 0.9 * rep.stable_limit,
          "limit %.17g (oracle %.17g), dt auto %.17g", rep.stable_limit, oc.limit,
          rep.seconds_per_step);
    for (q = 0; q < NCELL; q++) {
        d[q] = od[q] = t0[q];
        f[q] = of[q] = (float)t0[q];
    }
    run_ref(b, PS_FLOAT64, &p, d, 20);
    run_ref(b, PS_FLOAT32, &p, f, 20);
    for (s = 0; s < 20; s++) {
        ps_oracle_tracer_step_f64(od, ot, &oc, rep.seconds_per_step);
        memcpy(od, ot, sizeof od);
        ps_oracle_tracer_step_f32(of, oft, &oc, rep.seconds_per_step);
        memcpy(of, oft, sizeof of);
    }
    for (q = 0; q < NCELL; q++) {
        diff64 += memcmp(&d[q], &od[q], sizeof d[q]) != 0;
        diff32 += memcmp(&f[q], &of[q], sizeof f[q]) != 0;
        moved += fabs(d[q] - t0[q]) > 1e-3;
    }
    CHECK(!diff64 && !diff32, "closed %d current %d given w %d: %d float64 and %d float32 "
          "cells differ from the oracle", closed, kind, given_w, diff64, diff32);
    CHECK(moved > NCELL / 10, "closed %d current %d: only %d cells changed", closed, kind,
          moved);
    printf("oracle: closed %d, current %s, w %s: bitwise (f32, f64), dt %.6g s, %d cells moved\n",
           closed, kind ? "random" : "gyre", given_w ? "given" : "diagnosed",
           rep.seconds_per_step, moved);
    ps_oracle_tracer_free(&oc);
    ps_params_free(&p);
}

/* relative content drift over 50 float64 steps in the closed basin; @p bad
 * scales every north-face rate by 1 + 1e-2 (not conservative) */
static double drift(ps_backend *b, int kind, int bad)
{
    static double d[NCELL];
    ps_params p;
    ps_stencil_report rep;
    double h0, hn, scale;
    size_t q;
    make_field(t0, 1, 0);
    make_currents(t0, kind, u0, v0, NULL);
    if (prepare(depth0, lat0, lon0, u0, v0, NULL, NAN, 0, &p, &rep)) {
        FAILF("prepare: %s", ps_error_detail());
        return HUGE_VAL;
    }
    if (bad) /* arrays: 2 NZ + 3 NY coefficients, then q_k_lo, q_k_hi, q_j_lo, q_j_hi */
        for (q = 0; q < NCELL; q++)
            p.arrays[2 * NZ + 3 * NY + 3 * NCELL + q] *= 1.0 + 1e-2;
    memcpy(d, t0, sizeof d);
    h0 = ps_oracle_heat(d, 0, NZ, NY, NX, depth0, lat0, &scale);
    run_ref(b, PS_FLOAT64, &p, d, 50);
    hn = ps_oracle_heat(d, 0, NZ, NY, NX, depth0, lat0, NULL);
    ps_params_free(&p);
    return fabs(hn - h0) / scale;
}

/* largest |T - 15| (uniform) or how far beyond the initial range (varied)
 * after 50 float64 steps with an open surface; @p wzero: a given w of 0 */
static double uniformity(ps_backend *b, int uniform, int wzero)
{
    static double d[NCELL], wz[NCELL];
    ps_params p;
    ps_stencil_report rep;
    double lo = HUGE_VAL, hi = -HUGE_VAL, worst = 0;
    size_t q;
    make_field(t0, 0, uniform);
    make_currents(t0, 1, u0, v0, NULL);
    for (q = 0; q < NCELL; q++)
        wz[q] = isnan(t0[q]) ? NAN : 0.0;
    if (prepare(depth0, lat0, lon0, u0, v0, wzero ? wz : NULL, NAN, 0, &p, &rep)) {
        FAILF("prepare: %s", ps_error_detail());
        return HUGE_VAL;
    }
    for (q = 0; q < NCELL; q++)
        if (!isnan(t0[q])) {
            lo = fmin(lo, t0[q]);
            hi = fmax(hi, t0[q]);
        }
    memcpy(d, t0, sizeof d);
    run_ref(b, PS_FLOAT64, &p, d, 50);
    for (q = 0; q < NCELL; q++)
        if (!isnan(d[q]))
            worst = fmax(worst, uniform ? fabs(d[q] - 15.0) : fmax(d[q] - hi, lo - d[q]));
    ps_params_free(&p);
    return worst;
}

/* the same ocean stored north-first, longitudes descending, deepest first */
static void check_mirror(ps_backend *b)
{
    static double d[NCELL], m[NCELL], mu[NCELL], mv[NCELL];
    double z[NZ], la[NY], lo[NX], worst = 0, big = 0;
    ps_params p, pm;
    ps_stencil_report rep, repm;
    size_t k, j, i;
    make_field(t0, 0, 0);
    make_currents(t0, 1, u0, v0, NULL);
    for (k = 0; k < NZ; k++)
        z[k] = depth0[NZ - 1 - k];
    for (j = 0; j < NY; j++)
        la[j] = lat0[NY - 1 - j];
    for (i = 0; i < NX; i++)
        lo[i] = lon0[NX - 1 - i];
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                size_t a = AT(k, j, i), f = AT(NZ - 1 - k, NY - 1 - j, NX - 1 - i);
                m[f] = t0[a];
                mu[f] = u0[a];
                mv[f] = v0[a];
            }
    memcpy(d, t0, sizeof d);
    if (prepare(depth0, lat0, lon0, u0, v0, NULL, NAN, 0, &p, &rep) ||
        prepare(z, la, lo, mu, mv, NULL, NAN, 0, &pm, &repm)) {
        FAILF("prepare: %s", ps_error_detail());
        return;
    }
    CHECK(fabs(rep.stable_limit - repm.stable_limit) <= 1e-12 * rep.stable_limit,
          "mirror: limit %.17g, stored the usual way %.17g", repm.stable_limit,
          rep.stable_limit);
    pm.scalars[0] = p.scalars[0];
    run_ref(b, PS_FLOAT64, &p, d, 30);
    run_ref(b, PS_FLOAT64, &pm, m, 30);
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                size_t a = AT(k, j, i), f = AT(NZ - 1 - k, NY - 1 - j, NX - 1 - i);
                if (isnan(d[a]) != isnan(m[f]))
                    worst = HUGE_VAL;
                else if (!isnan(d[a])) {
                    worst = fmax(worst, fabs(d[a] - m[f]));
                    big = fmax(big, fabs(d[a] - t0[a]));
                }
            }
    CHECK(worst <= 1e-12 * 20.0 && big > 0.5, "mirror: largest difference %.3g (change %.3g)",
          worst, big);
    printf("mirrored storage: largest difference %.3g degC after 30 steps (largest change "
           "%.3g)\n", worst, big);
    ps_params_free(&p);
    ps_params_free(&pm);
}

int main(void)
{
    ps_backend *b = NULL;
    ps_params p;
    ps_stencil_report rep;
    double dr, bad, un, ext, unz;
    size_t j, i;
    int st;
    if (!ps_stencil_find("tracer")) {
        printf("FAIL: no stencil tracer\n");
        return 1;
    }
    if (ps_backend_open("reference", &b)) {
        printf("FAIL: open reference: %s\n", ps_error_detail());
        return 1;
    }
    for (j = 0; j < NY; j++) /* non-uniform latitudes 38..57 N */
        lat0[j] = 38.0 + 1.0 * (double)j + 0.03 * (double)(j * j);
    for (i = 0; i < NX; i++)
        lon0[i] = -20.0 + 1.25 * (double)i;

    check_oracle(b, 1, 0, 0);
    check_oracle(b, 0, 1, 0);
    check_oracle(b, 0, 1, 1);

    dr = drift(b, 1, 0);
    bad = drift(b, 1, 1);
    printf("closed basin, 50 float64 steps: relative content drift %.3g (bound 1e-13); "
           "north rates scaled by 1 + 1e-2: %.3g\n", dr, bad);
    CHECK(dr <= 1e-13, "not conserved: drift %.3g", dr);
    CHECK(bad > 1e-13, "the conservation check cannot fail (%.3g)", bad);
    dr = drift(b, 0, 0);
    CHECK(dr <= 1e-13, "gyre: not conserved: drift %.3g", dr);

    un = uniformity(b, 1, 0);
    ext = uniformity(b, 0, 0);
    unz = uniformity(b, 1, 1);
    printf("open surface, diagnosed w, 50 steps: uniform field off by %.3g, new extremum by "
           "%.3g; with w = 0 the uniform field is off by %.3g\n", un, ext, unz);
    CHECK(un <= 1e-12, "uniform field not kept: off by %.3g", un);
    CHECK(ext <= 1e-12, "a new extremum: %.3g beyond the initial range", ext);
    CHECK(unz > 1e-6, "w = 0 keeps the uniform field (%.3g): the check cannot fail", unz);

    check_mirror(b);

    /* dt: an unstable one refused, then allowed */
    make_field(t0, 0, 0);
    make_currents(t0, 1, u0, v0, NULL);
    st = prepare(depth0, lat0, lon0, u0, v0, NULL, NAN, 0, &p, &rep);
    CHECK(!st, "prepare: %s", ps_error_detail());
    if (!st) {
        double limit = rep.stable_limit;
        ps_params_free(&p);
        st = prepare(depth0, lat0, lon0, u0, v0, NULL, 1.01 * limit, 0, &p, &rep);
        CHECK(st == PS_ERANGE && strstr(ps_error_detail(), "unstable"),
              "dt 1.01 x limit: status %d (%s)", st, ps_error_detail());
        if (!st)
            ps_params_free(&p);
        st = prepare(depth0, lat0, lon0, u0, v0, NULL, 1.01 * limit, 1, &p, &rep);
        CHECK(!st, "dt 1.01 x limit allowed: %s", ps_error_detail());
        if (!st)
            ps_params_free(&p);
        st = prepare(depth0, lat0, lon0, NULL, v0, NULL, NAN, 0, &p, &rep);
        CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "eastward"),
              "no u: status %d (%s)", st, ps_error_detail());
        if (!st)
            ps_params_free(&p);
    }
    ps_backend_close(b);
    return ps_test_failures ? 1 : 0;
}
