/*
 * Speed of the opencl backend on the course-sized grid (50x222x241), next to
 * the reference backend, with per-step device timing from profiling events.
 * As a test (no arguments) it runs a few steps of every stencil (and of the
 * generic kernels of a stencil with a fast path) and checks that the result
 * is bitwise the reference's and that the timing op counted every step;
 * with arguments it is the measurement used in docs/opencl.md:
 *
 *   test_opencl_speed [--stencil NAME] [--generic] [STEPS [float32|float64 [X,Y[,Z]]]]
 *
 * --stencil picks one stencil (default: every one), --generic its generic
 * kernels even where a fast path exists; PSTENCIL_OPENCL_KERNEL=ij|ijk|row
 * picks the kernel shape, X,Y[,Z] the work-group shape (cfg->block). hdiff
 * gets synthetic coordinates (depth 5 + 10 k^2 m, 0.25-degree latitudes from
 * -27.5 and longitudes from -10).
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A course-like ocean: warm surface, colder with depth, a seabed and coasts. */
static void fill(ps_field *f)
{
    const ps_grid *g = &f->grid;
    size_t k, j, i;
    for (k = 0; k < g->nz; k++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < g->nx; i++) {
                size_t q = ps_index(g, k, j, i);
                double depth = 5.0 + 45.0 * (0.5 + 0.5 * sin(0.05 * (double)i) * cos(0.07 * (double)j));
                double v = 28.0 * exp(-(double)k / 12.0) + 0.01 * (double)((i * 7 + j * 13) % 17);
                if ((double)k > depth || (i > 60 && i < 90 && j > 100 && j < 150))
                    v = NAN;
                if (f->precision == PS_FLOAT64)
                    ((double *)f->data)[q] = v;
                else
                    ((float *)f->data)[q] = (float)v;
            }
}

/* The config of one run: stencil @p s (default options, synthetic coordinates). */
static int make_config(ps_config *cfg, const ps_stencil *s, int generic, ps_grid g,
                       ps_precision p)
{
    ps_config_init(cfg, g, p);
    ps_params_free(&cfg->params);
    cfg->stencil = s;
    cfg->kernel = generic ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
    /* 222 latitudes from -27.5 up to 27.75 */
    return ps_test_params_at(s, g, -27.5, &cfg->params);
}

/* Run @p steps on a new context; wall seconds of the steps (after a warm-up step) in *wall. */
static int run(ps_backend *b, const ps_config *base, const ps_field *in, ps_field *out,
               long steps, const int *block, int profile, double *wall, ps_timing *tm)
{
    ps_config cfg = *base;
    ps_context *ctx = NULL;
    int st;
    cfg.profile = profile;
    if (block) {
        cfg.block[0] = block[0];
        cfg.block[1] = block[1];
        cfg.block[2] = block[2];
    }
    st = ps_context_create(b, &cfg, &ctx);
    if (st)
        return st;
    st = ps_context_time_steps(ctx, in->data, out->data, steps, wall);
    if (!st && tm && ps_context_timing(ctx, tm))
        memset(tm, 0, sizeof *tm);
    ps_context_destroy(ctx);
    return st;
}

/*
 * One stencil and path: bitwise against the reference after a few steps,
 * then the speed and the profiled timing. Returns 0 if it passed.
 */
static int one(ps_backend *ocl, ps_backend *ref, const ps_device_info *dev, const ps_field *in,
               ps_field *a, ps_field *b, const ps_stencil *s, int generic, long steps,
               const int *block)
{
    const long ref_steps = 3;
    const size_t bytes = ps_field_cells(in) * ps_precision_size(in->precision);
    const double cells = (double)ps_field_cells(in), bytes_step = 2.0 * (double)bytes;
    const char *const *f;
    double wall_o = 0, wall_r = 0;
    ps_config cfg;
    ps_timing tm;
    char path[96];
    int rc = 1, listed = 0;

    for (f = ps_backend_get_ops(ocl)->fast_paths; f && *f; f++)
        listed |= !strcmp(*f, s->name);
    snprintf(path, sizeof path, "%s%s", s->name,
             !listed ? "" : generic ? " (generic kernels)" : " (fast path)");
    if (make_config(&cfg, s, generic, in->grid, in->precision)) {
        printf("FAIL: %s parameters: %s\n", path, ps_error_detail());
        goto done;
    }
    /* correctness: the reference and opencl after ref_steps */
    if (run(ref, &cfg, in, a, ref_steps, NULL, 0, &wall_r, NULL) ||
        run(ocl, &cfg, in, b, ref_steps, block, 0, &wall_o, NULL)) {
        printf("FAIL: %s: %s\n", path, ps_error_detail());
        goto done;
    }
    if (memcmp(a->data, b->data, bytes)) {
        printf("FAIL: %s: opencl differs from the reference after %ld steps\n", path,
               ref_steps);
        goto done;
    }
    printf("%s, grid %zux%zux%zu %s; reference %.2f ms/step (%ld steps)\n", path, in->grid.nz,
           in->grid.ny, in->grid.nx, ps_precision_name(in->precision),
           wall_r * 1e3 / (double)ref_steps, ref_steps);

    /* speed: opencl, steps enqueued at once, then with profiling events */
    if (run(ocl, &cfg, in, b, steps, block, 0, &wall_o, NULL)) {
        printf("FAIL: %s: %s\n", path, ps_error_detail());
        goto done;
    }
    printf("  opencl (%s): %.3f ms/step over %ld steps, %.2f Gcell/s, %.1f GB/s effective "
           "(2 arrays x %zu bytes a step)\n",
           dev->name, wall_o * 1e3 / (double)steps, steps, cells * (double)steps / wall_o * 1e-9,
           bytes_step * (double)steps / wall_o * 1e-9, bytes);
    if (run(ocl, &cfg, in, b, steps, block, 1, &wall_o, &tm)) {
        printf("FAIL: %s: %s\n", path, ps_error_detail());
        goto done;
    }
    printf("  opencl profiled: device step min %.3f / median %.3f / max %.3f ms, sum %.1f ms, "
           "wall %.1f ms\n", tm.step_ms_min, tm.step_ms_med, tm.step_ms_max, tm.step_ms_sum,
           wall_o * 1e3);
    if (tm.steps != steps || !(tm.step_ms_sum > 0) || !(tm.step_ms_min <= tm.step_ms_max)) {
        printf("FAIL: %s: timing op counted %ld of %ld steps (sum %g ms)\n", path, tm.steps,
               steps, tm.step_ms_sum);
        goto done;
    }
    rc = 0;
done:
    ps_params_free(&cfg.params);
    return rc;
}

int main(int argc, char **argv)
{
    ps_grid g = {50, 222, 241};
    ps_precision p = PS_FLOAT32;
    long steps = 20;
    int block[3] = {0, 0, 0}, measure, st, n = 0, rc = 1, generic = 0, a = 1, si;
    const ps_stencil *only = NULL;
    ps_backend *ocl = NULL, *ref = NULL;
    ps_device_info dev[16];
    ps_field in = {0}, fa = {0}, fb = {0};

    for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
        if (!strcmp(argv[a], "--generic")) {
            generic = 1;
        } else if (!strcmp(argv[a], "--stencil") && a + 1 < argc) {
            only = ps_stencil_find(argv[++a]);
            if (!only) {
                printf("FAIL: unknown stencil '%s'\n", argv[a]);
                return 1;
            }
        } else {
            printf("FAIL: unknown option '%s'\n", argv[a]);
            return 1;
        }
    }
    measure = argc > 1;
    if (a < argc)
        steps = atol(argv[a]);
    if (a + 1 < argc && ps_precision_parse(argv[a + 1], &p)) {
        printf("FAIL: precision '%s'\n", argv[a + 1]);
        return 1;
    }
    if (a + 2 < argc && sscanf(argv[a + 2], "%d,%d,%d", &block[0], &block[1], &block[2]) < 2) {
        printf("FAIL: work-group shape '%s' (X,Y[,Z])\n", argv[a + 2]);
        return 1;
    }
    if (steps < 1) {
        printf("FAIL: steps must be >= 1\n");
        return 1;
    }
    if (!ps_backend_is_built("opencl")) {
        printf("SKIP: the opencl plugin was not built\n");
        return 77;
    }
    if (ps_backend_open("opencl", &ocl) || ps_backend_open("reference", &ref)) {
        printf("FAIL: open: %s\n", ps_error_detail());
        return 1;
    }
    st = ps_backend_probe(ocl, dev, 16, &n);
    if (st == PS_ENODEVICE) {
        printf("SKIP: %s\n", ps_error_detail());
        return 77;
    }
    if (st || ps_field_alloc(&in, g, p) || ps_field_alloc(&fa, g, p) ||
        ps_field_alloc(&fb, g, p)) {
        printf("FAIL: %s\n", ps_error_detail());
        goto done;
    }
    fill(&in);
    if (only) {
        if (one(ocl, ref, &dev[0], &in, &fa, &fb, only, generic, steps,
                block[0] ? block : NULL))
            goto done;
    } else {
        /* every stencil on its default path, and the generic kernels of a fast path */
        for (si = 0; si < ps_stencil_count(); si++) {
            const ps_stencil *s = ps_stencil_at(si);
            const char *const *f;
            int listed = 0;
            for (f = ps_backend_get_ops(ocl)->fast_paths; f && *f; f++)
                listed |= !strcmp(*f, s->name);
            if (one(ocl, ref, &dev[0], &in, &fa, &fb, s, generic, steps,
                    block[0] ? block : NULL))
                goto done;
            if (listed && !generic &&
                one(ocl, ref, &dev[0], &in, &fa, &fb, s, 1, steps, block[0] ? block : NULL))
                goto done;
        }
    }
    rc = 0;
    if (!measure)
        printf("opencl speed check: ok\n");
done:
    ps_field_free(&in);
    ps_field_free(&fa);
    ps_field_free(&fb);
    ps_backend_close(ocl);
    ps_backend_close(ref);
    return rc;
}
