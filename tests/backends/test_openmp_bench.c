/*
 * A small benchmark of one backend (not a timed test: built by `make check`,
 * never run by it). Median ms/step over repetitions, cells/s, and the
 * effective bandwidth of the compulsory traffic (one read + one write of the
 * field per step), optionally checked bitwise against the reference.
 *
 *   tests/backends/test_openmp_bench [--backend openmp] [--steps 100] [--reps 5]
 *       [--scale 1] [--nz 50] [--precision float|double] [--mode exact|fast]
 *       [--threads N] [--jblock N] [--check] [--cpu-time]
 *
 * The field is the validation suite's ocean-full case at scale 1 (the
 * built-in ocean, or its synthetic stand-in), else a random 70 % ocean of
 * nz x 222*scale x 241*scale.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --cpu-time: process CPU time instead of wall time (see docs/performance.md,
 * "Method": on a machine shared with other jobs, one thread's CPU time per
 * step is far steadier than its wall time) */
static clockid_t clk = CLOCK_MONOTONIC;

static double now(void)
{
    struct timespec t;
    clock_gettime(clk, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *backend = "openmp";
    long steps = 100, reps = 5, nz = 50, threads = 0, jblock = 0, r;
    double scale = 1.0, times[64];
    ps_precision p = PS_FLOAT32;
    ps_mode mode = PS_MODE_EXACT;
    int check = 0, i, st;
    ps_field in, out;
    ps_backend *b = NULL;
    ps_config cfg;
    ps_context *ctx = NULL;
    size_t cells;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--check")) {
            check = 1;
            continue;
        }
        if (!strcmp(a, "--cpu-time")) {
            clk = CLOCK_PROCESS_CPUTIME_ID;
            continue;
        }
        if (!v) {
            fprintf(stderr, "%s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--backend"))
            backend = v;
        else if (!strcmp(a, "--steps"))
            steps = atol(v);
        else if (!strcmp(a, "--reps"))
            reps = atol(v);
        else if (!strcmp(a, "--scale"))
            scale = atof(v);
        else if (!strcmp(a, "--nz"))
            nz = atol(v);
        else if (!strcmp(a, "--threads"))
            threads = atol(v);
        else if (!strcmp(a, "--jblock"))
            jblock = atol(v);
        else if (!strcmp(a, "--precision"))
            p = (!strcmp(v, "double") || !strcmp(v, "float64")) ? PS_FLOAT64 : PS_FLOAT32;
        else if (!strcmp(a, "--mode"))
            mode = !strcmp(v, "fast") ? PS_MODE_FAST : PS_MODE_EXACT;
        else {
            fprintf(stderr, "unknown option %s\n", a);
            return 2;
        }
    }
    if (steps < 1 || reps < 1 || reps > 64 || scale <= 0 || nz < 3) {
        fprintf(stderr, "bad option value\n");
        return 2;
    }
    if (scale == 1.0 && nz == 50) {
        char label[512];
        st = ps_validate_case_make(ps_validate_case_find("ocean-full"), p, &in, label,
                                   sizeof label);
        if (st) {
            fprintf(stderr, "case: %s\n", ps_error_detail());
            return 1;
        }
        printf("field: %s\n", label);
    } else {
        ps_grid g = {(size_t)nz, (size_t)(222 * scale), (size_t)(241 * scale)};
        size_t q, n;
        unsigned long x = 12345;
        if (ps_field_alloc(&in, g, p)) {
            fprintf(stderr, "%s\n", ps_error_detail());
            return 1;
        }
        n = ps_field_cells(&in);
        for (q = 0; q < n; q++) {
            double v;
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            v = (x >> 40) % 10 < 3 ? NAN : 2.0 + (double)((x >> 20) % 2800) * 0.01;
            if (p == PS_FLOAT64)
                ((double *)in.data)[q] = v;
            else
                ((float *)in.data)[q] = (float)v;
        }
        printf("field: random 70%% ocean, %zux%zux%zu\n", g.nz, g.ny, g.nx);
    }
    cells = ps_field_cells(&in);
    ps_field_alloc(&out, in.grid, p);
    if (ps_backend_open(backend, &b)) {
        fprintf(stderr, "%s\n", ps_error_detail());
        return 1;
    }
    ps_config_init(&cfg, in.grid, p);
    cfg.mode = mode;
    cfg.threads = (int)threads;
    cfg.block[1] = (int)jblock;
    if (ps_context_create(b, &cfg, &ctx) || ps_context_upload(ctx, in.data, NULL) ||
        ps_context_step(ctx, 2) || ps_context_finish(ctx)) { /* warm up */
        fprintf(stderr, "%s\n", ps_error_detail());
        return 1;
    }
    for (r = 0; r < reps; r++) {
        double t0;
        ps_context_upload(ctx, in.data, NULL);
        ps_context_finish(ctx);
        t0 = now();
        ps_context_step(ctx, steps);
        ps_context_finish(ctx);
        times[r] = (now() - t0) / (double)steps;
    }
    ps_context_download(ctx, out.data, NULL);
    qsort(times, (size_t)reps, sizeof times[0], cmp_d);
    {
        double med = times[reps / 2], best = times[0];
        double bytes = 2.0 * (double)cells * (double)ps_precision_size(p);
        printf("%s %s %s %zux%zux%zu threads %ld: %.3f ms/step median (best %.3f) of %ld x %ld "
               "steps, %.3f Gcell/s, %.1f GB/s compulsory traffic\n",
               backend, ps_precision_name(p), ps_mode_name(mode), in.grid.nz, in.grid.ny,
               in.grid.nx, threads, 1e3 * med, 1e3 * best, reps, steps,
               (double)cells / med * 1e-9, bytes / med * 1e-9);
    }
    if (check) {
        ps_backend *ref;
        ps_field e;
        ps_validate_diff d;
        char desc[600];
        ps_backend_open("reference", &ref);
        ps_field_alloc(&e, in.grid, p);
        ps_config_init(&cfg, in.grid, p);
        ps_validate_run_backend(ref, &cfg, &in, steps, 0, &e);
        ps_validate_compare(&e, &out, &d);
        ps_validate_diff_describe(&d, desc, sizeof desc);
        printf("vs reference after %ld steps: %s\n", steps, desc);
        ps_field_free(&e);
        ps_backend_close(ref);
    }
    ps_context_destroy(ctx);
    ps_backend_close(b);
    ps_field_free(&in);
    ps_field_free(&out);
    return 0;
}
