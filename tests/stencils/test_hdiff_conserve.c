/*
 * hdiff conserves heat in a closed basin (docs/model.md): on a grid whose
 * boundary cells are all land, with islands and a sloping seabed inside, the
 * volume-weighted heat content H = sum(cos(lat_j) w_j h_k T) over the ocean
 * cells after N steps on the reference backend equals the initial one to
 *     |H_N - H_0| <= 4 * N * eps * sum(cos(lat_j) w_j h_k |T_0|)
 * (eps = FLT_EPSILON or DBL_EPSILON of the working precision): the flux
 * through a face leaves one cell and enters the other, so only rounding (of
 * the coefficients to the working precision and of each update) can change
 * H. The same check must fail for a deliberately non-conservative variant
 * (c_north scaled by 1 + 1e-2 at every latitude), so it can fail.
 */
#include "config.h"
#include "ps_oracle.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NZ 9
#define NY 16
#define NX 18
#define NCELL (NZ * NY * NX)
#define STEPS 200
#define AT(k, j, i) (((size_t)(k) * NY + (size_t)(j)) * NX + (size_t)(i))


static const double depth[NZ] = {0.5, 2.0, 5.0, 12.0, 25.0, 50.0, 100.0, 180.0, 300.0};
static double lat[NY], lon[NX];

/* The closed basin: every boundary cell land, an island, a seabed that rises
 * to the east, a warm patch in the west and a cold one at depth. */
static void make_basin(double *t)
{
    size_t k, j, i;
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                int boundary = k == 0 || k == NZ - 1 || j == 0 || j == NY - 1 || i == 0 ||
                               i == NX - 1;
                int island = j >= 6 && j <= 8 && i >= 7 && i <= 9;
                int seabed = (size_t)NZ - 1 - k < i / 4; /* deeper levels land to the east */
                double v = 8.0 + 0.3 * (double)j - 0.5 * (double)k;
                if (i < 5 && j > 9)
                    v += 6.0; /* warm patch */
                if (k > 4 && j < 6)
                    v -= 5.0; /* cold water at depth */
                t[AT(k, j, i)] = (boundary || island || seabed) ? NAN : v;
            }
}

/* H of a field, and its error scale. */
static double heat(const void *f, int single, double *scale)
{
    return ps_oracle_heat(f, single, NZ, NY, NX, depth, lat, scale);
}

/* Run STEPS steps; returns the relative drift |H_N - H_0| / scale and sets
 * *bound to 4 N eps. @p perturb scales c_north at every latitude. */
static double drift(ps_backend *b, ps_precision p, double perturb, double *bound, double *dt)
{
    const ps_stencil *s = ps_stencil_find("hdiff");
    static double d0[NCELL], d1[NCELL];
    static float f0[NCELL], f1[NCELL];
    double opts[3] = {1.0e5, 1e-3, PS_OPTION_AUTO}, h0, hn, scale, moved = 0;
    ps_stencil_setup in;
    ps_stencil_report rep;
    ps_params params;
    ps_config cfg;
    ps_context *ctx = NULL;
    int single = p == PS_FLOAT32, st;
    size_t n, j;
    void *field = single ? (void *)f0 : (void *)d0, *out = single ? (void *)f1 : (void *)d1;

    make_basin(d0);
    for (n = 0; n < NCELL; n++)
        f0[n] = (float)d0[n];
    memset(&in, 0, sizeof in);
    in.grid = (ps_grid){NZ, NY, NX};
    in.depth = depth;
    in.lat = lat;
    in.lon = lon;
    in.options = opts;
    if (ps_stencil_prepare(s, &in, &params, &rep)) {
        FAILF("prepare: %s", ps_error_detail());
        return HUGE_VAL;
    }
    *dt = rep.seconds_per_step;
    /* arrays: c_up[NZ], c_down[NZ], c_south[NY], c_north[NY], c_east_west[NY] */
    for (j = 0; j < NY; j++)
        params.arrays[2 * NZ + NY + j] *= perturb;
    ps_config_init(&cfg, in.grid, p);
    cfg.stencil = s;
    cfg.params = params;
    h0 = heat(field, single, &scale);
    st = ps_context_create(b, &cfg, &ctx);
    if (!st)
        st = ps_context_upload(ctx, field, NULL);
    if (!st)
        st = ps_context_step(ctx, STEPS);
    if (!st)
        st = ps_context_download(ctx, out, NULL);
    if (st)
        FAILF("reference: %s", ps_error_detail());
    ps_context_destroy(ctx);
    ps_params_free(&params);
    hn = heat(out, single, NULL);
    /* the field must have changed a lot, or conservation proves nothing */
    for (n = 0; n < NCELL; n++) {
        double ch = single ? fabs((double)f1[n] - (double)f0[n]) : fabs(d1[n] - d0[n]);
        moved = ch > moved ? ch : moved;
    }
    if (!(moved > 2.0))
        FAILF("%s: the field barely changed (at most %g degC)", ps_precision_name(p), moved);
    if (perturb == 1.0)
        printf("%s: H_0 = %.17g, H_N = %.17g, largest change %.3g degC\n", ps_precision_name(p),
               h0, hn, moved);
    *bound = 4.0 * STEPS * (single ? FLT_EPSILON : DBL_EPSILON);
    return fabs(hn - h0) / scale;
}

int main(void)
{
    ps_backend *b = NULL;
    const ps_precision ps[2] = {PS_FLOAT32, PS_FLOAT64};
    size_t j, i;
    int q;
    if (ps_backend_open("reference", &b)) {
        printf("FAIL: open reference: %s\n", ps_error_detail());
        return 1;
    }
    /* non-uniform latitudes 38..61 N (spacing grows northwards), uniform longitudes */
    for (j = 0; j < NY; j++)
        lat[j] = 38.0 + 1.0 * (double)j + 0.025 * (double)(j * j);
    for (i = 0; i < NX; i++)
        lon[i] = -20.0 + 1.5 * (double)i;
    for (q = 0; q < 2; q++) {
        double bound, dt, d = drift(b, ps[q], 1.0, &bound, &dt);
        double bad = drift(b, ps[q], 1.0 + 1e-2, &bound, &dt);
        printf("%s: %d steps of dt %.6g s: relative heat drift %.3g (bound 4 N eps = %.3g); "
               "with c_north perturbed by 1e-2: %.3g\n",
               ps_precision_name(ps[q]), STEPS, dt, d, bound, bad);
        if (!(d <= bound))
            FAILF("%s: heat not conserved: drift %.3g > %.3g", ps_precision_name(ps[q]), d,
                  bound);
        if (!(bad > bound))
            FAILF("%s: the check cannot tell a non-conservative variant (drift %.3g <= %.3g)",
                  ps_precision_name(ps[q]), bad, bound);
    }
    ps_backend_close(b);
    return ps_test_failures ? 1 : 0;
}
