/*
 * The openmp generic path when values overflow: diffusion7 (D = 0.1) on
 * values of a few units around one cell of 3e38 (float32; rows of finite
 * values, where the ocean rows run): 6 x 3e38 overflows in the first step,
 * the infinities spread and Inf - Inf makes NaNs, inside one fused sweep.
 * The generic path (ocean rows with the NaN tests folded where every input
 * was finite; a sweep that made a finite cell non-finite redone on the exact
 * rows) must give the reference's bits after 1, 2, 5 and 13 steps.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_test.h"

int main(void)
{
    const ps_grid g = {9, 23, 37};
    const long steps[] = {1, 2, 5, 13};
    const int rounds = 4;
    ps_backend *omp = NULL, *ref = NULL;
    ps_field in, a, b;
    ps_config cfg;
    size_t i, n = g.nz * g.ny * g.nx;
    uint32_t h = 12345u;
    int si;
    if (ps_backend_open("openmp", &omp)) {
        printf("SKIP: no openmp backend\n");
        return 77;
    }
    CHECK(!ps_backend_open("reference", &ref), "open reference");
    CHECK(!ps_field_alloc(&in, g, PS_FLOAT32) && !ps_field_alloc(&a, g, PS_FLOAT32) &&
              !ps_field_alloc(&b, g, PS_FLOAT32), "alloc");
    for (i = 0; i < n; i++) { /* 0..10, land in a corner, one cell of 3e38 */
        h = h * 1664525u + 1013904223u;
        ((float *)in.data)[i] = i < 3 * g.nx ? NAN : 10.0f * (float)(h >> 8) / 16777216.0f;
    }
    ((float *)in.data)[ps_index(&g, 4, 11, 18)] = 3e38f;
    ps_config_init(&cfg, g, PS_FLOAT32);
    cfg.stencil = ps_stencil_find("diffusion7");
    cfg.params.scalars[0] = 0.1;
    cfg.threads = 2;
    for (si = 0; si < rounds; si++) {
        cfg.generic = 1;
        CHECK(!ps_test_run(omp, &cfg, &in, &a, steps[si]), "openmp generic, %ld steps",
              steps[si]);
        cfg.generic = 0;
        CHECK(!ps_test_run(ref, &cfg, &in, &b, steps[si]), "reference, %ld steps", steps[si]);
        CHECK(ps_test_same(&a, &b), "openmp generic differs from the reference after %ld steps "
              "of an overflowing update", steps[si]);
    }
    ps_field_free(&in);
    ps_field_free(&a);
    ps_field_free(&b);
    ps_backend_close(omp);
    ps_backend_close(ref);
    return ps_test_finish("test_generic_overflow");
}
