/*
 * The reference backend against the independent oracle (tests/stencils/ps_oracle.c),
 * bitwise: diffusion7 and hdiff, float32 and float64, 1 and several steps,
 * on grids with land, an isolated ocean cell and a cell with one ocean
 * neighbour, ascending and descending latitude, non-uniform depths and
 * float32-rounded longitudes. For hdiff also: the registry's coefficient
 * arrays equal the oracle's bit for bit, --dt auto is 90% of the oracle's
 * stable limit, and a dt above that limit is refused (PS_ERANGE) naming it.
 */
#include "config.h"
#include "ps_oracle.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define NZ 7
#define NY 9
#define NX 10
#define NCELL (NZ * NY * NX)
#define AT(k, j, i) (((size_t)(k) * NY + (size_t)(j)) * NX + (size_t)(i))

static unsigned long long rng = 88172645463325252ull;
static double next_unit(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Temperatures 2..22 degC, about a fifth land, an isolated ocean cell and a
 * cell whose only ocean neighbour is above it. */
static void make_field(double *t)
{
    size_t n;
    for (n = 0; n < NCELL; n++)
        t[n] = next_unit() < 0.2 ? NAN : 2.0 + 20.0 * next_unit();
    /* isolated: (3,4,4) ocean, its six neighbours land */
    t[AT(3, 4, 4)] = 15.5;
    t[AT(2, 4, 4)] = t[AT(4, 4, 4)] = t[AT(3, 3, 4)] = t[AT(3, 5, 4)] = NAN;
    t[AT(3, 4, 3)] = t[AT(3, 4, 5)] = NAN;
    /* one ocean neighbour: (4,6,7) with only (3,6,7) */
    t[AT(4, 6, 7)] = 9.25;
    t[AT(3, 6, 7)] = 12.0;
    t[AT(5, 6, 7)] = t[AT(4, 5, 7)] = t[AT(4, 7, 7)] = t[AT(4, 6, 6)] = t[AT(4, 6, 8)] = NAN;
}

/* Run @p steps steps of stencil @p s with @p params on the reference backend. */
static int run_reference(ps_backend *b, const ps_stencil *s, const ps_params *params,
                         ps_precision p, const void *in, void *out, long steps)
{
    ps_grid g = {NZ, NY, NX};
    ps_config cfg;
    ps_context *ctx = NULL;
    int st;
    ps_config_init(&cfg, g, p);
    cfg.stencil = s;
    cfg.params = *params;
    st = ps_context_create(b, &cfg, &ctx);
    if (!st)
        st = ps_context_upload(ctx, in, NULL);
    if (!st)
        st = ps_context_step(ctx, steps);
    if (!st)
        st = ps_context_download(ctx, out, NULL);
    if (st)
        FAILF("reference %s: %s", s->name, ps_error_detail());
    ps_context_destroy(ctx);
    return st;
}

/* First differing cell of two fields, bit for bit (-1 if none). */
static long first_diff(const void *a, const void *b, size_t size)
{
    size_t n;
    for (n = 0; n < NCELL; n++)
        if (memcmp((const char *)a + n * size, (const char *)b + n * size, size))
            return (long)n;
    return -1;
}

/* The reference's and the oracle's @p steps steps from @p t0, float32 and float64. */
static void compare(const char *what, ps_backend *b, const ps_stencil *s,
                    const ps_params *params, const double *t0, long steps,
                    void (*oracle32)(const float *, float *, const void *),
                    void (*oracle64)(const double *, double *, const void *), const void *octx)
{
    static float f_in[NCELL], f_ref[NCELL], f_a[NCELL], f_b[NCELL];
    static double d_in[NCELL], d_ref[NCELL], d_a[NCELL], d_b[NCELL];
    long k, bad;
    size_t n;
    for (n = 0; n < NCELL; n++) {
        f_in[n] = (float)t0[n];
        d_in[n] = t0[n];
    }
    /* float32 */
    if (!run_reference(b, s, params, PS_FLOAT32, f_in, f_ref, steps)) {
        memcpy(f_a, f_in, sizeof f_a);
        for (k = 0; k < steps; k++) {
            oracle32(f_a, f_b, octx);
            memcpy(f_a, f_b, sizeof f_a);
        }
        ps_test_checks++;
        if ((bad = first_diff(f_ref, f_a, sizeof(float))) >= 0)
            FAILF("%s float32, %ld steps: cell %ld: reference %.9g, oracle %.9g", what, steps,
                  bad, f_ref[bad], f_a[bad]);
        if (f_ref[AT(3, 4, 4)] != (float)15.5)
            FAILF("%s float32: the isolated cell changed", what);
        if (steps > 0 && f_ref[AT(4, 6, 7)] == (float)9.25)
            FAILF("%s float32: the cell with one ocean neighbour did not change", what);
    }
    /* float64 */
    if (!run_reference(b, s, params, PS_FLOAT64, d_in, d_ref, steps)) {
        memcpy(d_a, d_in, sizeof d_a);
        for (k = 0; k < steps; k++) {
            oracle64(d_a, d_b, octx);
            memcpy(d_a, d_b, sizeof d_a);
        }
        ps_test_checks++;
        if ((bad = first_diff(d_ref, d_a, sizeof(double))) >= 0)
            FAILF("%s float64, %ld steps: cell %ld: reference %.17g, oracle %.17g", what,
                  steps, bad, d_ref[bad], d_a[bad]);
    }
}

/* --- adapters from the oracle's signatures to compare()'s --- */
typedef struct d7_ctx { double d; } d7_ctx;
static void d7_32(const float *in, float *out, const void *c)
{
    ps_oracle_d7_step_f32(in, out, NZ, NY, NX, ((const d7_ctx *)c)->d);
}
static void d7_64(const double *in, double *out, const void *c)
{
    ps_oracle_d7_step_f64(in, out, NZ, NY, NX, ((const d7_ctx *)c)->d);
}
typedef struct hd_ctx { ps_oracle_hdiff co; double dt; } hd_ctx;
static void hd_32(const float *in, float *out, const void *c)
{
    ps_oracle_hdiff_step_f32(in, out, &((const hd_ctx *)c)->co, ((const hd_ctx *)c)->dt);
}
static void hd_64(const double *in, double *out, const void *c)
{
    ps_oracle_hdiff_step_f64(in, out, &((const hd_ctx *)c)->co, ((const hd_ctx *)c)->dt);
}

static void test_diffusion7(ps_backend *b, const double *t0)
{
    const ps_stencil *s = ps_stencil_find("diffusion7");
    double opts[1];
    ps_params params;
    ps_stencil_setup in;
    ps_stencil_report rep;
    const double ds[2] = {0.1, 0.23};
    int q;
    for (q = 0; q < 2; q++) {
        d7_ctx c = {ds[q]};
        char what[64];
        memset(&in, 0, sizeof in);
        in.grid = (ps_grid){NZ, NY, NX};
        opts[0] = ds[q];
        in.options = opts;
        if (ps_stencil_prepare(s, &in, &params, &rep)) {
            FAILF("diffusion7 prepare: %s", ps_error_detail());
            return;
        }
        snprintf(what, sizeof what, "diffusion7 D=%g", ds[q]);
        compare(what, b, s, &params, t0, 1, d7_32, d7_64, &c);
        compare(what, b, s, &params, t0, 6, d7_32, d7_64, &c);
        ps_params_free(&params);
    }
}

/* The registry's coefficient arrays against the oracle's, interior indices. */
static void check_arrays(const char *what, const ps_params *p, const ps_oracle_hdiff *co)
{
    const double *up = p->arrays, *dn = up + NZ, *so = dn + NZ, *no = so + NY, *ew = no + NY;
    size_t k, j;
    ps_test_checks++;
    if (p->array_values != 2 * NZ + 3 * NY) {
        FAILF("%s: %zu coefficient values, expected %d", what, p->array_values, 2 * NZ + 3 * NY);
        return;
    }
    for (k = 1; k + 1 < NZ; k++)
        if (memcmp(&up[k], &co->up[k], sizeof(double)) ||
            memcmp(&dn[k], &co->down[k], sizeof(double)))
            FAILF("%s: c_up/c_down[%zu] = %.17g/%.17g, oracle %.17g/%.17g", what, k, up[k],
                  dn[k], co->up[k], co->down[k]);
    for (j = 1; j + 1 < NY; j++)
        if (memcmp(&so[j], &co->south[j], sizeof(double)) ||
            memcmp(&no[j], &co->north[j], sizeof(double)) ||
            memcmp(&ew[j], &co->ew[j], sizeof(double)))
            FAILF("%s: c_south/c_north/c_east_west[%zu] = %.17g/%.17g/%.17g, oracle "
                  "%.17g/%.17g/%.17g", what, j, so[j], no[j], ew[j], co->south[j],
                  co->north[j], co->ew[j]);
}

static void test_hdiff(ps_backend *b, const double *t0, const double *lat, const char *latname,
                       double kh, double kv)
{
    /* GLO12-like non-uniform depths (m), longitudes rounded to float32 like a file's */
    static const double depth[NZ] = {0.494, 1.541, 2.646, 3.819, 5.078, 6.441, 7.93};
    const ps_stencil *s = ps_stencil_find("hdiff");
    double lon[NX], opts[3];
    ps_params params;
    ps_stencil_setup in;
    ps_stencil_report rep;
    hd_ctx c;
    char what[128];
    size_t i;
    int st;
    for (i = 0; i < NX; i++)
        lon[i] = (double)(float)(-13.833333333333334 + (double)i / 12.0);
    if (!s) {
        FAILF("no hdiff in the registry");
        return;
    }
    if (ps_oracle_hdiff_coeffs(NZ, NY, NX, depth, lat, lon, kh, kv, &c.co)) {
        FAILF("out of memory");
        return;
    }
    memset(&in, 0, sizeof in);
    in.grid = (ps_grid){NZ, NY, NX};
    in.depth = depth;
    in.lat = lat;
    in.lon = lon;
    in.options = opts;
    opts[0] = kh;
    opts[1] = kv;

    /* dt auto: 90% of the stable limit */
    opts[2] = PS_OPTION_AUTO;
    snprintf(what, sizeof what, "hdiff kh=%g kv=%g, %s latitude, dt auto", kh, kv, latname);
    st = ps_stencil_prepare(s, &in, &params, &rep);
    ps_test_checks++;
    if (st) {
        FAILF("%s: %s", what, ps_error_detail());
    } else {
        if (!(fabs(rep.stable_limit - c.co.limit) <= 1e-12 * c.co.limit))
            FAILF("%s: stable limit %.17g, oracle %.17g", what, rep.stable_limit, c.co.limit);
        if (!(fabs(rep.seconds_per_step - 0.9 * c.co.limit) <= 1e-12 * c.co.limit) ||
            params.scalars[0] != rep.seconds_per_step)
            FAILF("%s: dt %.17g (scalar %.17g), expected 0.9 * %.17g", what,
                  rep.seconds_per_step, params.scalars[0], c.co.limit);
        if (!strstr(rep.note, "auto"))
            FAILF("%s: no note says what auto chose: '%s'", what, rep.note);
        check_arrays(what, &params, &c.co);
        c.dt = params.scalars[0];
        compare(what, b, s, &params, t0, 1, hd_32, hd_64, &c);
        compare(what, b, s, &params, t0, 8, hd_32, hd_64, &c);
        ps_params_free(&params);
    }

    /* a given dt (half the limit) */
    opts[2] = 0.5 * c.co.limit;
    snprintf(what, sizeof what, "hdiff kh=%g kv=%g, %s latitude, dt %g", kh, kv, latname,
             opts[2]);
    if (ps_stencil_prepare(s, &in, &params, &rep)) {
        FAILF("%s: %s", what, ps_error_detail());
    } else {
        c.dt = opts[2];
        if (params.scalars[0] != opts[2] || rep.seconds_per_step != opts[2])
            FAILF("%s: dt became %.17g", what, params.scalars[0]);
        compare(what, b, s, &params, t0, 5, hd_32, hd_64, &c);
        ps_params_free(&params);
    }

    /* unstable: refused, the message gives the limit */
    opts[2] = 1.01 * c.co.limit;
    st = ps_stencil_prepare(s, &in, &params, &rep);
    ps_test_checks++;
    if (st != PS_ERANGE) {
        FAILF("hdiff dt %g above the limit %g: status %d, expected PS_ERANGE", opts[2],
              c.co.limit, st);
        if (!st)
            ps_params_free(&params);
    } else {
        char lim[64];
        snprintf(lim, sizeof lim, "%.6g", c.co.limit);
        if (!strstr(ps_error_detail(), lim))
            FAILF("the refusal of an unstable dt does not give the limit %s: %s", lim,
                  ps_error_detail());
    }
    ps_oracle_hdiff_free(&c.co);
}

int main(void)
{
    ps_backend *b = NULL;
    static double t0[NCELL];
    double up[NY], down[NY], irregular[NY];
    size_t j;
    if (ps_backend_open("reference", &b)) {
        printf("FAIL: open reference: %s\n", ps_error_detail());
        return 1;
    }
    make_field(t0);
    for (j = 0; j < NY; j++) {
        up[j] = (double)(float)(46.833333333333336 + (double)j / 12.0);
        irregular[j] = -30.0 + 2.5 * (double)j + 0.125 * (double)(j * j);
    }
    for (j = 0; j < NY; j++)
        down[j] = up[NY - 1 - j];
    test_diffusion7(b, t0);
    test_hdiff(b, t0, up, "ascending", 1000.0, 1e-5);
    test_hdiff(b, t0, down, "descending", 1000.0, 1e-5);
    test_hdiff(b, t0, irregular, "irregular southern", 5e4, 1e-3);
    ps_backend_close(b);
    printf("%d checks, %d failures\n", ps_test_checks, ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
