/*
 * An engine-only pstencil program: diffusion7 on a small synthetic field,
 * through the public API of libpstencil alone (no netCDF, no pictures).
 *
 *   cc diffusion7.c -o diffusion7 $(pkg-config --cflags --libs pstencil)
 *   ./diffusion7 [BACKEND [STEPS]]      (BACKEND: reference, openmp, auto, ...)
 *
 * The field is a small 20-degree cube in 10-degree water; the program prints
 * the library version, the backend, and the minimum, maximum and sum of the
 * field before and after. Diffusion spreads the cube: its maximum falls
 * towards the surrounding water. Exit status 0 on success, 1 on any error
 * (with its detail).
 */
#include <pstencil/pstencil.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void describe(const char *when, const ps_field *f)
{
    const double *t = f->data;
    size_t n = ps_field_cells(f), q;
    double lo = t[0], hi = t[0], sum = 0;
    for (q = 0; q < n; q++) {
        lo = t[q] < lo ? t[q] : lo;
        hi = t[q] > hi ? t[q] : hi;
        sum += t[q];
    }
    printf("%-6s min %.9g max %.9g sum %.9g\n", when, lo, hi, sum);
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "reference";
    long steps = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
    ps_grid g = {8, 16, 16}; /* depth x latitude x longitude */
    ps_backend *b = NULL;
    ps_config cfg;
    ps_field f = {0};
    char why[1024];
    size_t k, j, i;
    int st;

    printf("libpstencil %s\n", ps_version());
    st = ps_field_alloc(&f, g, PS_FLOAT64);
    if (st)
        goto done;
    for (k = 0; k < g.nz; k++)
        for (j = 0; j < g.ny; j++)
            for (i = 0; i < g.nx; i++) {
                int warm = k >= 2 && k < 4 && j >= 7 && j < 9 && i >= 7 && i < 9;
                ((double *)f.data)[ps_index(&g, k, j, i)] = warm ? 20.0 : 10.0;
            }

    if (strcmp(name, "auto"))
        st = ps_backend_open(name, &b);
    else
        st = ps_backend_open_auto(&b, why, sizeof why);
    if (st)
        goto done;

    /* diffusion7 with its default options (it needs no coordinates) */
    ps_config_init(&cfg, g, PS_FLOAT64);
    cfg.stencil = ps_stencil_find("diffusion7");
    if (!cfg.stencil) {
        st = ps_error(PS_EINVAL, "this libpstencil has no diffusion7 stencil");
        goto done;
    }
    st = ps_stencil_prepare_default(cfg.stencil, g, &cfg.params);
    if (st)
        goto done;

    printf("backend %s (%s), %ld steps of %s on %zu x %zu x %zu\n", ps_backend_name(b),
           ps_backend_origin(b), steps, cfg.stencil->name, g.nz, g.ny, g.nx);
    describe("before", &f);
    st = ps_run(b, &cfg, &f, &(ps_run_options){.steps = steps}, NULL);
    if (!st)
        describe("after", &f);
    ps_params_free(&cfg.params);

done:
    if (st)
        fprintf(stderr, "diffusion7: %s\n", ps_error_detail());
    ps_field_free(&f);
    ps_backend_close(b);
    return st ? 1 : 0;
}
