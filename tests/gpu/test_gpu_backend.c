/*
 * The cuda and hip backends on a real GPU (and the gpumock plugin, the same
 * sources over a host-memory runtime) against the reference backend:
 *  - every stencil of the registry (kernels/ps_stencils.h), float32 and
 *    float64, 1, 2 and graph-sized step counts, the whole grid and sub-boxes
 *    at an origin != 0 in a larger global grid (one strictly inside, one on
 *    three global faces), land and planted isolated cells; diffusion7 through
 *    its tuned kernel and through the generic kernel (cfg->kernel): exact
 *    mode bitwise identical to the reference with the same box;
 *  - diffusion7's tuned kernel in depth: default and odd block shapes and
 *    k-chunks, degenerate extents, subnormals, profiling on;
 *  - region download and halo-style region upload, fast mode within a bound
 *    with the same NaN mask (every stencil), and clear errors for a missing
 *    device index, a grid larger than the device, a stencil the plugin was
 *    not built with and a box without the ghost layers its stencil needs.
 * Every stencil case also ps_test_checks that the step changed cells (a backend that
 * copied everything would not pass), and each interior sub-box case that the
 * reference with the origin moved by one cell gives other bits for a stencil
 * with coefficient arrays, so wrong origin indexing cannot pass.
 * Skips (77) when no GPU backend has a device.
 *
 * `test_gpu_backend --probe NAME` only says whether NAME has a device
 * (exit 0) or why not (exit 1); tests/gpu/validate.sh uses it.
 * `test_gpu_backend --backend NAME` tests only NAME (tests/gpu/mock.sh runs
 * the GPU plugin's host code and kernels over a host-memory runtime).
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static uint64_t rng = 88172645463325252ull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* An ocean-like field: temperature falling with depth, land (NaN) blobs,
 * isolated ocean cells, a few subnormals and exact zeros. */
static void fill(double *t, ps_grid g)
{
    size_t k, j, i;
    for (k = 0; k < g.nz; k++)
        for (j = 0; j < g.ny; j++)
            for (i = 0; i < g.nx; i++) {
                double v = 28.0 * exp(-(double)k / 8.0) + 2.0 * urand() - 1.0;
                double r = urand();
                double x = (double)i / (g.nx + 1), y = (double)j / (g.ny + 1);
                if ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6) < 0.02 + 0.002 * k || r < 0.05)
                    v = NAN;
                else if (r < 0.06)
                    v = 1e-42; /* subnormal in float32 */
                else if (r < 0.07)
                    v = 0.0;
                t[(k * g.ny + j) * g.nx + i] = v;
            }
}

static void *convert(const double *t, size_t n, ps_precision p)
{
    size_t i;
    if (p == PS_FLOAT64) {
        double *d = malloc(n * sizeof *d);
        memcpy(d, t, n * sizeof *d);
        return d;
    } else {
        float *f = malloc(n * sizeof *f);
        for (i = 0; i < n; i++)
            f[i] = (float)t[i];
        return f;
    }
}

/* Run nsteps (in pieces) on a backend; 0 or status. */
static int run(ps_backend *b, const ps_config *cfg, const void *in, void *out,
               const long *pieces, int npieces)
{
    ps_context *ctx = NULL;
    int st, p;
    if ((st = ps_context_create(b, cfg, &ctx)))
        return st;
    if ((st = ps_context_upload(ctx, in, NULL)))
        goto done;
    for (p = 0; p < npieces && !st; p++)
        st = ps_context_step(ctx, pieces[p]);
    if (!st)
        st = ps_context_download(ctx, out, NULL);
    if (!st && cfg->profile) {
        ps_timing t;
        long total = 0;
        for (p = 0; p < npieces; p++)
            total += pieces[p];
        if ((st = ps_context_timing(ctx, &t)) == 0 &&
            (t.steps != total || !(t.step_ms_min > 0) || t.step_ms_min > t.step_ms_max))
            FAILF("profile timing: %ld steps (want %ld), min %g max %g ms", t.steps, total,
                  t.step_ms_min, t.step_ms_max);
    }
done:
    ps_context_destroy(ctx);
    return st;
}

static size_t first_diff(const void *a, const void *b, size_t n, size_t es)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (memcmp((const char *)a + i * es, (const char *)b + i * es, es))
            return i;
    return (size_t)-1;
}

/*
 * What exact_case plants in the field after fill(): 0 nothing; 1 ocean -0.0
 * cells; 2 also +-inf and +-3e38 (the sums overflow, so ocean cells turn
 * NaN as steps go on; those NaN's payloads are not compared: x86 and GPUs
 * generate different ones).
 */
static int g_plant;

static void plant(double *t, size_t n, int what)
{
    size_t q;
    for (q = 0; q < n; q++) {
        if (t[q] != t[q])
            continue;
        if (q % 13 == 5)
            t[q] = -0.0;
        else if (what == 2 && q % 97 == 3)
            t[q] = q % 2 ? INFINITY : -INFINITY;
        else if (what == 2 && q % 89 == 7)
            t[q] = q % 2 ? 3e38 : -3e38;
    }
}

/* The first cell whose bits differ (any two NaN equal when nan_any), or -1. */
static size_t first_diff_nan(const void *a, const void *b, size_t n, size_t es, int nan_any)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double x = es == 4 ? ((const float *)a)[i] : ((const double *)a)[i];
        double y = es == 4 ? ((const float *)b)[i] : ((const double *)b)[i];
        if (nan_any && x != x && y != y)
            continue;
        if (memcmp((const char *)a + i * es, (const char *)b + i * es, es))
            return i;
    }
    return (size_t)-1;
}

/* PSTENCIL_TEST_MAX_CELLS=N: exact_case skips grids of more than N cells (0:
 * none), for slow kernels on the mock (tests/gpu/generic_fused.sh: gpu_fuse 4). */
static size_t max_cells(void)
{
    const char *v = getenv("PSTENCIL_TEST_MAX_CELLS");
    return v && *v ? (size_t)strtoull(v, NULL, 10) : 0;
}

static void exact_case(ps_backend *gpu, ps_backend *ref, ps_grid g, ps_precision p,
                       const int block[3], const long *pieces, int npieces, int profile)
{
    size_t n = g.nz * g.ny * g.nx, es = ps_precision_size(p), at;
    double *t = malloc(n * sizeof *t);
    void *in, *want = malloc(n * es), *got = malloc(n * es);
    ps_config cfg;
    long total = 0;
    int q, st;
    fill(t, g);
    if (g_plant)
        plant(t, n, g_plant);
    for (q = 0; q < npieces; q++)
        total += pieces[q];
    if (max_cells() && n > max_cells()) { /* after fill(): later cases keep their fields */
        printf("skip: %s %zux%zux%zu %s, %ld steps: more than PSTENCIL_TEST_MAX_CELLS cells\n",
               ps_backend_name(gpu), g.nz, g.ny, g.nx, ps_precision_name(p), total);
        free(t);
        free(want);
        free(got);
        return;
    }
    in = convert(t, n, p);
    ps_config_init(&cfg, g, p);
    if ((st = run(ref, &cfg, in, want, pieces, npieces)))
        FAILF("reference: %s", ps_error_detail());
    memcpy(cfg.block, block, sizeof cfg.block);
    cfg.profile = profile;
    memset(got, 0xa5, n * es);
    if ((st = run(gpu, &cfg, in, got, pieces, npieces))) {
        FAILF("%s %zux%zux%zu %s: %s", ps_backend_name(gpu), g.nz, g.ny, g.nx,
              ps_precision_name(p), ps_error_detail());
    } else if ((at = first_diff_nan(want, got, n, es, g_plant == 2)) != (size_t)-1) {
        FAILF("%s %zux%zux%zu %s block %d,%d,%d, %ld steps%s: cell %zu (k=%zu j=%zu i=%zu) "
              "differs: %.9g vs reference %.9g", ps_backend_name(gpu), g.nz, g.ny, g.nx,
              ps_precision_name(p), block[0], block[1], block[2], total,
              profile ? " (profiled)" : "", at, at / (g.ny * g.nx), at / g.nx % g.ny, at % g.nx,
              p == PS_FLOAT32 ? ((float *)got)[at] : ((double *)got)[at],
              p == PS_FLOAT32 ? ((float *)want)[at] : ((double *)want)[at]);
    } else {
        printf("ok: %s %zux%zux%zu %s block %d,%d,%d, %ld steps%s%s bitwise equal%s\n",
               ps_backend_name(gpu), g.nz, g.ny, g.nx, ps_precision_name(p), block[0],
               block[1], block[2], total, profile ? " (profiled)" : "",
               g_plant == 1 ? ", ocean -0.0" : g_plant == 2 ? ", ocean -0.0, +-inf, +-3e38" : "",
               g_plant == 2 ? " (any NaN equal)" : "");
    }
    free(t);
    free(in);
    free(want);
    free(got);
}

/* Whether the backend lists a tuned kernel (fast path) for stencil @p s. */
static int has_fast_path(ps_backend *b, const ps_stencil *s)
{
    const char *const *f = ps_backend_get_ops(b)->fast_paths;
    for (; f && *f; f++)
        if (!strcmp(*f, s->name))
            return 1;
    return 0;
}

/*
 * The parameters of stencil @p s on the global grid @p g from its default
 * options and synthetic coordinates: depth 5 + 10 q^2 m, latitude
 * 40 + 0.25 q, longitude -10 + 0.25 q (what hdiff needs; the others ignore them),
 * and the gyre's currents (ps_currents_inputs(), no land) for a stencil with inputs.
 */
static int prepare(const ps_stencil *s, ps_grid g, ps_params *out)
{
    double *depth = malloc(g.nz * sizeof *depth), *lat = malloc(g.ny * sizeof *lat);
    double *lon = malloc(g.nx * sizeof *lon), *opts = calloc(s->noptions + 1, sizeof *opts);
    double *inbuf = NULL;
    const double *inputs[8];
    ps_stencil_setup su;
    ps_stencil_report rep;
    size_t q;
    int st = PS_OK;
    for (q = 0; q < g.nz; q++)
        depth[q] = 5.0 + 10.0 * (double)q * (double)q;
    for (q = 0; q < g.ny; q++)
        lat[q] = 40.0 + 0.25 * (double)q;
    for (q = 0; q < g.nx; q++)
        lon[q] = -10.0 + 0.25 * (double)q;
    ps_stencil_default_options(s, opts);
    memset(&su, 0, sizeof su);
    su.grid = g;
    su.depth = depth;
    su.lat = lat;
    su.lon = lon;
    su.options = opts;
    if (s->ninputs > 8)
        st = ps_error(PS_EINVAL, "stencil %s has over 8 inputs", s->name);
    else if (s->ninputs && !(st = ps_currents_inputs(s, g, NULL, depth, lat, lon, PS_GYRE_SPEED,
                                                     &inbuf, inputs)))
        su.inputs = inputs;
    if (!st)
        st = ps_stencil_prepare(s, &su, out, &rep);
    free(depth); free(lat); free(lon); free(opts); free(inbuf);
    return st;
}

/* The box of @p extent at @p origin in @p global: its global faces, @p ghost layers. */
static ps_box make_box(ps_grid global, const size_t origin[3], ps_grid extent, unsigned ghost)
{
    const size_t ext[3] = {extent.nz, extent.ny, extent.nx};
    const size_t glo[3] = {global.nz, global.ny, global.nx};
    ps_box b;
    int a;
    memset(&b, 0, sizeof b);
    b.extent = extent;
    b.global = global;
    b.ghost = ghost;
    for (a = 0; a < 3; a++) {
        b.origin[a] = origin[a];
        if (origin[a] == 0)
            b.global_faces |= 1u << (2 * a);
        if (origin[a] + ext[a] == glo[a])
            b.global_faces |= 1u << (2 * a + 1);
    }
    return b;
}

/* An ocean cell whose every neighbour (in the stencil's list) is land. */
static void plant_isolated(double *t, ps_grid g, const ps_stencil *s, size_t k, size_t j,
                           size_t i)
{
    int q;
    for (q = 0; q < s->nneighbours; q++)
        t[((k + s->offsets[q][0]) * g.ny + j + s->offsets[q][1]) * g.nx + i +
          s->offsets[q][2]] = NAN;
    t[(k * g.ny + j) * g.nx + i] = 11.5;
}

/*
 * Stencil @p s on the box of @p extent at @p origin of the global grid @p G:
 * the GPU backend (tuned kernel or, with @p generic, the generic one) against
 * the reference on the same box and input, bitwise.
 */
static void stencil_case(ps_backend *gpu, ps_backend *ref, const ps_stencil *s, ps_grid G,
                         const size_t origin[3], ps_grid e, ps_precision p, const long *pieces,
                         int npieces, int generic, const int block[3])
{
    size_t n = e.nz * e.ny * e.nx, ng = G.nz * G.ny * G.nx, es = ps_precision_size(p), at;
    size_t k, j, i, changed = 0, r = (size_t)s->radius;
    double *tg = malloc(ng * sizeof *tg), *tb = malloc(n * sizeof *tb);
    void *in, *want = malloc(n * es), *got = malloc(n * es);
    ps_config cfg;
    long total = 0;
    int q, st;
    char what[256];
    fill(tg, G);
    /* isolated ocean cells inside the box, one near its low corner */
    if (e.nz > 2 * r + 2 && e.ny > 2 * r + 2 && e.nx > 2 * r + 2) {
        plant_isolated(tg, G, s, origin[0] + r + 1, origin[1] + r + 1, origin[2] + r + 1);
        plant_isolated(tg, G, s, origin[0] + e.nz / 2, origin[1] + e.ny - r - 2,
                       origin[2] + e.nx / 2);
    }
    for (k = 0; k < e.nz; k++)
        for (j = 0; j < e.ny; j++)
            for (i = 0; i < e.nx; i++)
                tb[(k * e.ny + j) * e.nx + i] =
                    tg[((origin[0] + k) * G.ny + origin[1] + j) * G.nx + origin[2] + i];
    in = convert(tb, n, p);
    for (q = 0; q < npieces; q++)
        total += pieces[q];
    snprintf(what, sizeof what, "%s %s %s box %zux%zux%zu at (%zu,%zu,%zu) in %zux%zux%zu, "
             "%ld steps, %s, block %d,%d,%d", ps_backend_name(gpu), s->name,
             ps_precision_name(p), e.nz, e.ny, e.nx, origin[0], origin[1], origin[2], G.nz,
             G.ny, G.nx, total,
             generic || !has_fast_path(gpu, s) ? "generic" : "tuned", block[0],
             block[1], block[2]);
    ps_config_init(&cfg, e, p);
    ps_params_free(&cfg.params);
    cfg.stencil = s;
    cfg.box = make_box(G, origin, e, 2);
    if ((st = prepare(s, G, &cfg.params))) {
        FAILF("%s: parameters: %s", what, ps_error_detail());
        goto done;
    }
    if ((st = run(ref, &cfg, in, want, pieces, npieces))) {
        FAILF("%s: reference: %s", what, ps_error_detail());
        goto done;
    }
    cfg.kernel = generic ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
    memcpy(cfg.block, block, sizeof cfg.block);
    memset(got, 0xa5, n * es);
    for (at = 0; at < n; at++)
        changed += memcmp((char *)want + at * es, (char *)in + at * es, es) != 0;
    if ((st = run(gpu, &cfg, in, got, pieces, npieces)))
        FAILF("%s: %s", what, ps_error_detail());
    else if ((at = first_diff(want, got, n, es)) != (size_t)-1)
        FAILF("%s: cell %zu (k=%zu j=%zu i=%zu) differs: %.9g vs reference %.9g", what, at,
              at / (e.ny * e.nx), at / e.nx % e.ny, at % e.nx,
              p == PS_FLOAT32 ? ((float *)got)[at] : ((double *)got)[at],
              p == PS_FLOAT32 ? ((float *)want)[at] : ((double *)want)[at]);
    else if (!changed)
        FAILF("%s: the steps changed no cell (the case proves nothing)", what);
    else
        printf("ok: %s: bitwise equal (%zu cells changed)\n", what, changed);

    /* the case must see a wrong origin: the reference with the origin moved
     * by one cell along every axis gives other bits (strictly inner boxes) */
    if (!st && s->narrays > 0 && cfg.box.global_faces == 0 && origin[0] + e.nz < G.nz &&
        origin[1] + e.ny < G.ny && origin[2] + e.nx < G.nx) {
        const size_t moved[3] = {origin[0] + 1, origin[1] + 1, origin[2] + 1};
        cfg.box = make_box(G, moved, e, 2);
        cfg.kernel = PS_KERNEL_AUTO;
        memset(cfg.block, 0, sizeof cfg.block);
        if (run(ref, &cfg, in, got, pieces, npieces))
            FAILF("%s: reference at a moved origin: %s", what, ps_error_detail());
        else if (!memcmp(want, got, n * es))
            FAILF("%s: moving the origin changes nothing: this case cannot catch wrong "
                  "origin indexing", what);
    }
done:
    ps_params_free(&cfg.params);
    free(tg); free(tb); free(in); free(want); free(got);
}

/* Download a sub-region; upload a halo-like region and step again. */
static void region_case(ps_backend *gpu, ps_backend *ref, ps_grid g, ps_region r)
{
    size_t n = g.nz * g.ny * g.nx;
    size_t rn = r.count.nz * r.count.ny * r.count.nx, i;
    double *t = malloc(n * sizeof *t), *patch = malloc(rn * sizeof *patch);
    float *in, *pf = malloc(rn * sizeof *pf), *a = malloc(rn * 4), *b = malloc(rn * 4);
    float *wa = malloc(n * 4), *wb = malloc(n * 4);
    ps_context *cg = NULL, *cr = NULL;
    ps_config cfg;
    fill(t, g);
    in = convert(t, n, PS_FLOAT32);
    for (i = 0; i < rn; i++)
        pf[i] = (float)(10.0 + urand());
    ps_config_init(&cfg, g, PS_FLOAT32);
    if (ps_context_create(gpu, &cfg, &cg) || ps_context_create(ref, &cfg, &cr)) {
        FAILF("region: create: %s", ps_error_detail());
        goto done;
    }
    /* diffusion7, float32, exact: the fast-path table's tuned kernel */
    if (strcmp(ps_context_describe(cg, PS_DESCRIBE_KERNEL), "fast"))
        FAILF("region: the context says it runs '%s', not the fast path",
              ps_context_describe(cg, PS_DESCRIBE_KERNEL));
    if (ps_context_upload(cg, in, NULL) || ps_context_upload(cr, in, NULL) ||
        ps_context_step(cg, 3) || ps_context_step(cr, 3) ||
        ps_context_download(cg, a, &r) || ps_context_download(cr, b, &r)) {
        FAILF("region: %s", ps_error_detail());
        goto done;
    }
    if (memcmp(a, b, rn * 4))
        FAILF("region download differs from the reference");
    /* overwrite a block (as a halo refresh would), step, compare everything */
    if (ps_context_upload(cg, pf, &r) || ps_context_upload(cr, pf, &r) ||
        ps_context_step(cg, 2) || ps_context_step(cr, 2) ||
        ps_context_download(cg, wa, NULL) || ps_context_download(cr, wb, NULL)) {
        FAILF("region upload: %s", ps_error_detail());
        goto done;
    }
    if (memcmp(wa, wb, n * 4))
        FAILF("after a region upload the field differs from the reference");
    else
        printf("ok: %s region download/upload (%zux%zux%zu in %zux%zux%zu)\n",
               ps_backend_name(gpu), r.count.nz, r.count.ny, r.count.nx, g.nz, g.ny, g.nx);
    /* a region outside the box is refused */
    r.start[2] = g.nx - r.count.nx + 1;
    if (ps_context_download(cg, a, &r) != PS_ERANGE)
        FAILF("a region outside the box was not refused with PS_ERANGE");
done:
    ps_context_destroy(cg);
    ps_context_destroy(cr);
    free(t); free(patch); free(in); free(pf); free(a); free(b); free(wa); free(wb);
}

/* Fast mode: same NaN mask, relative error bounded (stencil s, its default path). */
static void fast_case(ps_backend *gpu, ps_backend *ref, const ps_stencil *s, ps_precision p)
{
    ps_grid g = {20, 60, 90};
    size_t n = g.nz * g.ny * g.nx, i, bad = 0;
    double *t = malloc(n * sizeof *t), maxrel = 0;
    void *in, *want = malloc(n * 8), *got = malloc(n * 8);
    long steps[1] = {50};
    ps_config cfg;
    fill(t, g);
    in = convert(t, n, p);
    ps_config_init(&cfg, g, p);
    ps_params_free(&cfg.params);
    cfg.stencil = s;
    if (prepare(s, g, &cfg.params) || run(ref, &cfg, in, want, steps, 1)) {
        FAILF("%s reference: %s", s->name, ps_error_detail());
        goto done;
    }
    cfg.mode = PS_MODE_FAST;
    if (run(gpu, &cfg, in, got, steps, 1)) {
        FAILF("%s %s fast: %s", ps_backend_name(gpu), s->name, ps_error_detail());
        goto done;
    }
    for (i = 0; i < n; i++) {
        double w = p == PS_FLOAT32 ? ((float *)want)[i] : ((double *)want)[i];
        double v = p == PS_FLOAT32 ? ((float *)got)[i] : ((double *)got)[i];
        double rel;
        if (isnan(w) != isnan(v)) {
            bad++;
            continue;
        }
        if (isnan(w))
            continue;
        rel = fabs(v - w) / (fabs(w) > 1e-30 ? fabs(w) : 1e-30);
        if (fabs(v - w) > 1e-30 && rel > maxrel)
            maxrel = rel;
    }
    if (bad)
        FAILF("%s %s fast %s: %zu cells where NaN-ness differs", ps_backend_name(gpu), s->name,
              ps_precision_name(p), bad);
    else if (maxrel > (p == PS_FLOAT32 ? 1e-4 : 1e-12))
        FAILF("%s %s fast %s: max relative error %g after 50 steps", ps_backend_name(gpu),
              s->name, ps_precision_name(p), maxrel);
    else
        printf("ok: %s %s fast %s, 50 steps: max relative error %g\n", ps_backend_name(gpu),
               s->name, ps_precision_name(p), maxrel);
done:
    ps_params_free(&cfg.params);
    free(t); free(in); free(want); free(got);
}

/* The copy bound (knob gpu_kernel=copy): every step copies the field, so the
 * field comes back bit for bit, on a size with a tail of bytes past the last
 * 16-byte unit (3x5x7 float32: 420 bytes) and one without, in graphs too. */
static void copy_case(ps_backend *gpu, ps_grid g, ps_precision p, const long *pieces, int npieces)
{
    ps_config cfg;
    size_t n = g.nz * g.ny * g.nx, es = ps_precision_size(p), q;
    double *t = malloc(n * sizeof *t);
    void *in = NULL, *out = malloc(n * es);
    int st;
    ps_config_init(&cfg, g, p);
    if (t) {
        fill(t, g);
        in = convert(t, n, p);
    }
    if (!t || !in || !out) {
        FAILF("copy: out of memory");
        goto done;
    }
    memset(out, 0x5a, n * es);
    if (ps_knobs_set(&cfg.knobs, "gpu_kernel=copy") ||
        (st = run(gpu, &cfg, in, out, pieces, npieces))) {
        FAILF("copy %zux%zux%zu: %s", g.nz, g.ny, g.nx, ps_error_detail());
        goto done;
    }
    if ((q = first_diff(in, out, n, es)) < n)
        FAILF("copy %zux%zux%zu %s: cell %zu differs", g.nz, g.ny, g.nx, ps_precision_name(p), q);
    else
        printf("ok: %s copy kernel %zux%zux%zu %s: the field bit for bit\n",
               ps_backend_name(gpu), g.nz, g.ny, g.nx, ps_precision_name(p));
done:
    ps_params_free(&cfg.params);
    free(t);
    free(in);
    free(out);
}

static void errors_case(ps_backend *gpu, int ndev)
{
    ps_config cfg;
    ps_context *c = NULL;
    ps_grid big = {100000, 100000, 1000};
    int st;
    ps_config_init(&cfg, big, PS_FLOAT64);
    st = ps_context_create(gpu, &cfg, &c);
    if (st != PS_ENOMEM || !strstr(ps_error_detail(), "device memory"))
        FAILF("a grid larger than the device: %s (%s), expected PS_ENOMEM naming device "
              "memory", ps_strerror(st), ps_error_detail());
    else
        printf("ok: too large: %s\n", ps_error_detail());
    ps_context_destroy(c);
    c = NULL;
    ps_config_init(&cfg, (ps_grid){4, 4, 4}, PS_FLOAT32);
    cfg.device = ndev;
    if (ps_context_create(gpu, &cfg, &c) != PS_ENODEVICE)
        FAILF("device %d (past the last) was not refused", ndev);
    ps_context_destroy(c);
    c = NULL;
    cfg.device = -1;
    cfg.block[0] = 4096;
    cfg.block[1] = 4096;
    if (ps_context_create(gpu, &cfg, &c) != PS_EINVAL)
        FAILF("block 4096x4096 was not refused");
    ps_context_destroy(c);
    c = NULL;
    /* a stencil this plugin was not built with (a registry entry renamed) */
    {
        ps_stencil other = *ps_stencil_default();
        other.name = "nosuchstencil";
        ps_config_init(&cfg, (ps_grid){4, 4, 4}, PS_FLOAT32);
        cfg.stencil = &other;
        st = ps_context_create(gpu, &cfg, &c);
        if (st != PS_EUNSUPPORTED || !strstr(ps_error_detail(), "nosuchstencil"))
            FAILF("an unknown stencil: %s (%s), expected PS_EUNSUPPORTED naming it",
                  ps_strerror(st), ps_error_detail());
        else
            printf("ok: unknown stencil: %s\n", ps_error_detail());
        ps_context_destroy(c);
        c = NULL;
    }
    /* a box with an inner face and no ghost layers */
    {
        const size_t origin[3] = {0, 2, 0};
        ps_config_init(&cfg, (ps_grid){4, 4, 4}, PS_FLOAT32);
        cfg.box = make_box((ps_grid){4, 8, 4}, origin, (ps_grid){4, 4, 4}, 0);
        st = ps_context_create(gpu, &cfg, &c);
        if (st != PS_EINVAL || !strstr(ps_error_detail(), "ghost"))
            FAILF("a box without ghost layers: %s (%s), expected PS_EINVAL naming the ghosts",
                  ps_strerror(st), ps_error_detail());
        ps_context_destroy(c);
    }
}

/*
 * Every case of one stencil: whole grid and two sub-boxes (strictly inside;
 * on three global faces) of a larger global grid, float32 and float64, 1, 2
 * and 37 steps (a graph of 32 and 5 launches), default and odd blocks.
 */
static void stencil_cases(ps_backend *gpu, ps_backend *ref, const ps_stencil *s, int generic)
{
    static const ps_grid G = {14, 19, 29};
    static const size_t at0[3] = {0, 0, 0}, inner[3] = {3, 4, 7}, faces[3] = {0, 4, 7};
    static const ps_grid inner_e = {8, 11, 15}, faces_e = {14, 11, 22};
    static const int dflt[3] = {0, 0, 0}, odd[3] = {8, 4, 3};
    static const long p1[] = {1}, p2[] = {2}, p37[] = {32, 5};
    int pi;
    for (pi = 0; pi < 2; pi++) {
        ps_precision p = pi ? PS_FLOAT64 : PS_FLOAT32;
        stencil_case(gpu, ref, s, G, at0, G, p, p1, 1, generic, dflt);
        stencil_case(gpu, ref, s, G, at0, G, p, p37, 2, generic, odd);
        stencil_case(gpu, ref, s, G, inner, inner_e, p, p1, 1, generic, dflt);
        stencil_case(gpu, ref, s, G, inner, inner_e, p, p2, 1, generic, odd);
        stencil_case(gpu, ref, s, G, inner, inner_e, p, p37, 2, generic, dflt);
        stencil_case(gpu, ref, s, G, faces, faces_e, p, p2, 1, generic, dflt);
        stencil_case(gpu, ref, s, G, faces, faces_e, p, p37, 2, generic, odd);
    }
}

static int has_device(const char *name, ps_backend **out, int *ndev)
{
    ps_backend *b = NULL;
    ps_device_info devs[16];
    int n = 0;
    *out = NULL;
    if (ps_backend_open(name, &b)) { /* not built, or its plugin cannot load */
        printf("%s: %s\n", name, ps_error_detail());
        return 0;
    }
    if (ps_backend_probe(b, devs, 16, &n)) {
        printf("%s\n", ps_error_detail());
        ps_backend_close(b);
        return 0;
    }
    printf("%s: device 0: %s (%s)\n", name, devs[0].name, devs[0].detail);
    *out = b;
    *ndev = n;
    return 1;
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"cuda", "hip"};
    static const ps_grid grids[] = {
        {1, 1, 1}, {2, 3, 4}, {3, 3, 3}, {7, 9, 33}, {5, 300, 70}, {50, 222, 241}, {130, 17, 5}};
    static const int blocks[][3] = {{0, 0, 0}, {8, 4, 2}, {16, 16, 1}, {33, 3, 5}, {128, 1, 0}, {32, 16, 0}};
    static const long p1[] = {1}, p2[] = {2}, p37[] = {37}, pmix[] = {32, 5, 64, 1};
    ps_backend *ref = NULL, *gpu = NULL;
    int tested = 0, ndev = 0;
    size_t gi, bi, ni;
    int si;
    const char *only = NULL;
    if (argc == 3 && !strcmp(argv[1], "--probe"))
        return has_device(argv[2], &gpu, &ndev) ? 0 : 1;
    if (argc == 3 && !strcmp(argv[1], "--backend"))
        only = argv[2]; /* e.g. gpumock (tests/gpu/mock.sh) */
    if (ps_backend_open("reference", &ref)) {
        printf("FAIL: reference: %s\n", ps_error_detail());
        return 1;
    }
    for (ni = 0; ni < (only ? 1 : 2); ni++) {
        if (!has_device(only ? only : names[ni], &gpu, &ndev))
            continue;
        tested++;
        for (gi = 0; gi < sizeof grids / sizeof grids[0]; gi++) {
            exact_case(gpu, ref, grids[gi], PS_FLOAT32, blocks[0], p1, 1, 0);
            exact_case(gpu, ref, grids[gi], PS_FLOAT64, blocks[0], p2, 1, 0);
            exact_case(gpu, ref, grids[gi], PS_FLOAT32, blocks[0], p37, 1, 0);
        }
        for (bi = 1; bi < sizeof blocks / sizeof blocks[0]; bi++) {
            exact_case(gpu, ref, grids[3], PS_FLOAT32, blocks[bi], p37, 1, 0);
            exact_case(gpu, ref, grids[6], PS_FLOAT64, blocks[bi], p2, 1, 0);
        }
        exact_case(gpu, ref, grids[5], PS_FLOAT32, blocks[0], pmix, 4, 0);
        exact_case(gpu, ref, grids[5], PS_FLOAT64, blocks[0], pmix, 4, 0);
        exact_case(gpu, ref, grids[4], PS_FLOAT32, blocks[1], pmix, 4, 1);
        /* signed zeros; then values that can overflow */
        for (g_plant = 1; g_plant <= 2; g_plant++) {
            exact_case(gpu, ref, grids[3], PS_FLOAT32, blocks[0], p37, 1, 0);
            exact_case(gpu, ref, grids[6], PS_FLOAT64, blocks[0], p37, 1, 0);
        }
        g_plant = 0;
        /* partial rows; then rows longer than the mock's 4 KiB staging buffers */
        region_case(gpu, ref, (ps_grid){9, 21, 35}, (ps_region){{2, 3, 5}, {4, 11, 17}});
        region_case(gpu, ref, (ps_grid){4, 6, 1300}, (ps_region){{1, 1, 3}, {3, 4, 1290}});
        region_case(gpu, ref, (ps_grid){5, 7, 40}, (ps_region){{1, 0, 0}, {3, 7, 40}});
        region_case(gpu, ref, (ps_grid){5, 7, 40}, (ps_region){{1, 2, 0}, {3, 4, 40}});
        for (si = 0; si < ps_stencil_count(); si++) {
            const ps_stencil *s = ps_stencil_at(si);
            stencil_cases(gpu, ref, s, 0);
            if (has_fast_path(gpu, s))
                stencil_cases(gpu, ref, s, 1); /* and its generic kernel */
            fast_case(gpu, ref, s, PS_FLOAT32);
            fast_case(gpu, ref, s, PS_FLOAT64);
        }
        copy_case(gpu, (ps_grid){3, 5, 7}, PS_FLOAT32, p37, 1);
        copy_case(gpu, grids[3], PS_FLOAT64, pmix, 4);
        errors_case(gpu, ndev);
        ps_backend_close(gpu);
    }
    ps_backend_close(ref);
    if (!tested) {
        printf("SKIP: no GPU backend has a device\n");
        return 77;
    }
    if (ps_test_failures)
        printf("%d failure(s)\n", ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
