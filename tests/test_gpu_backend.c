/*
 * The cuda and hip backends on a real GPU against the reference backend:
 * exact mode bitwise identical (float32 and float64; 1, 2, odd and graph-
 * sized step counts; default and odd block shapes and k-chunks; grids with
 * land, isolated cells, subnormals and degenerate extents; profiling on),
 * region download and halo-style region upload, fast mode within a bound
 * with the same NaN mask, and clear errors for a missing device index and a
 * grid larger than the device. Skips (77) when no GPU backend has a device.
 *
 * `test_gpu_backend --probe NAME` only says whether NAME has a device
 * (exit 0) or why not (exit 1); tests/gpu_validate.sh uses it.
 * `test_gpu_backend --backend NAME` tests only NAME (tests/gpu_mock.sh runs
 * the shared GPU host code and kernel body over a host-memory runtime).
 */
#include "config.h"
#include "pstencil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define FAILF(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); failures++; } while (0)

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
    in = convert(t, n, p);
    for (q = 0; q < npieces; q++)
        total += pieces[q];
    ps_config_init(&cfg, g, p);
    if ((st = run(ref, &cfg, in, want, pieces, npieces)))
        FAILF("reference: %s", ps_error_detail());
    memcpy(cfg.block, block, sizeof cfg.block);
    cfg.profile = profile;
    memset(got, 0xa5, n * es);
    if ((st = run(gpu, &cfg, in, got, pieces, npieces))) {
        FAILF("%s %zux%zux%zu %s: %s", ps_backend_name(gpu), g.nz, g.ny, g.nx,
              ps_precision_name(p), ps_error_detail());
    } else if ((at = first_diff(want, got, n, es)) != (size_t)-1) {
        FAILF("%s %zux%zux%zu %s block %d,%d,%d, %ld steps%s: cell %zu (k=%zu j=%zu i=%zu) "
              "differs: %.9g vs reference %.9g", ps_backend_name(gpu), g.nz, g.ny, g.nx,
              ps_precision_name(p), block[0], block[1], block[2], total,
              profile ? " (profiled)" : "", at, at / (g.ny * g.nx), at / g.nx % g.ny, at % g.nx,
              p == PS_FLOAT32 ? ((float *)got)[at] : ((double *)got)[at],
              p == PS_FLOAT32 ? ((float *)want)[at] : ((double *)want)[at]);
    } else {
        printf("ok: %s %zux%zux%zu %s block %d,%d,%d, %ld steps%s bitwise equal\n",
               ps_backend_name(gpu), g.nz, g.ny, g.nx, ps_precision_name(p), block[0],
               block[1], block[2], total, profile ? " (profiled)" : "");
    }
    free(t);
    free(in);
    free(want);
    free(got);
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

/* Fast mode: same NaN mask, relative error bounded. */
static void fast_case(ps_backend *gpu, ps_backend *ref, ps_precision p)
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
    if (run(ref, &cfg, in, want, steps, 1)) {
        FAILF("reference: %s", ps_error_detail());
        goto done;
    }
    cfg.mode = PS_MODE_FAST;
    if (run(gpu, &cfg, in, got, steps, 1)) {
        FAILF("%s fast: %s", ps_backend_name(gpu), ps_error_detail());
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
        FAILF("%s fast %s: %zu cells where NaN-ness differs", ps_backend_name(gpu),
              ps_precision_name(p), bad);
    else if (maxrel > (p == PS_FLOAT32 ? 1e-4 : 1e-12))
        FAILF("%s fast %s: max relative error %g after 50 steps", ps_backend_name(gpu),
              ps_precision_name(p), maxrel);
    else
        printf("ok: %s fast %s, 50 steps: max relative error %g\n", ps_backend_name(gpu),
               ps_precision_name(p), maxrel);
done:
    free(t); free(in); free(want); free(got);
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
    static const int blocks[][3] = {{0, 0, 0}, {8, 4, 2}, {16, 16, 1}, {33, 3, 5}, {128, 1, 0}};
    static const long p1[] = {1}, p2[] = {2}, p37[] = {37}, pmix[] = {32, 5, 64, 1};
    ps_backend *ref = NULL, *gpu = NULL;
    int tested = 0, ndev = 0;
    size_t gi, bi, ni;
    const char *only = NULL;
    if (argc == 3 && !strcmp(argv[1], "--probe"))
        return has_device(argv[2], &gpu, &ndev) ? 0 : 1;
    if (argc == 3 && !strcmp(argv[1], "--backend"))
        only = argv[2]; /* e.g. gpumock (tests/gpu_mock.sh) */
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
        /* partial rows; then rows longer than the mock's 4 KiB staging buffers */
        region_case(gpu, ref, (ps_grid){9, 21, 35}, (ps_region){{2, 3, 5}, {4, 11, 17}});
        region_case(gpu, ref, (ps_grid){4, 6, 1300}, (ps_region){{1, 1, 3}, {3, 4, 1290}});
        region_case(gpu, ref, (ps_grid){5, 7, 40}, (ps_region){{1, 0, 0}, {3, 7, 40}});
        region_case(gpu, ref, (ps_grid){5, 7, 40}, (ps_region){{1, 2, 0}, {3, 4, 40}});
        fast_case(gpu, ref, PS_FLOAT32);
        fast_case(gpu, ref, PS_FLOAT64);
        errors_case(gpu, ndev);
        ps_backend_close(gpu);
    }
    ps_backend_close(ref);
    if (!tested) {
        printf("SKIP: no GPU backend has a device\n");
        return 77;
    }
    if (failures)
        printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
