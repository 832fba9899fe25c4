/*
 * core/ps_compare: counts, NaN-mask mismatches, max abs/rel/ulp and their
 * locations, first mismatch, tolerances, accumulation over time records,
 * mixed precision, and the ulp distance itself (across zero, infinities).
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


static float nextf(float x, int n)
{
    while (n-- > 0)
        x = nextafterf(x, INFINITY);
    return x;
}

int main(void)
{
    ps_grid g = {3, 4, 5};
    ps_field a, b, d, small;
    ps_compare_stats st;
    ps_compare_tol tol;
    float *fa, *fb;
    size_t n = 60, c;

    /* the ulp distance */
    CHECK(ps_ulp_distance_f32(1.0f, 1.0f) == 0, "same");
    CHECK(ps_ulp_distance_f32(1.0f, nextf(1.0f, 1)) == 1, "1 ulp");
    CHECK(ps_ulp_distance_f32(nextf(1.0f, 7), 1.0f) == 7, "7 ulps, symmetric");
    CHECK(ps_ulp_distance_f32(0.0f, -0.0f) == 0, "+0 and -0");
    CHECK(ps_ulp_distance_f32(-FLT_TRUE_MIN, FLT_TRUE_MIN) == 2, "across zero");
    CHECK(ps_ulp_distance_f32(FLT_MAX, INFINITY) == 1, "to infinity");
    CHECK(ps_ulp_distance_f32(NAN, 1.0f) == UINT64_MAX, "NaN");
    CHECK(ps_ulp_distance_f64(1.0, nextafter(1.0, 2.0)) == 1, "double 1 ulp");
    CHECK(ps_ulp_distance_f64(-DBL_TRUE_MIN, DBL_TRUE_MIN) == 2, "double across zero");
    CHECK(ps_ulp_distance_f64(-DBL_MAX, DBL_MAX) == UINT64_C(0xffdffffffffffffe),
          "double extreme distance does not wrap");

    ps_field_alloc(&a, g, PS_FLOAT32);
    ps_field_alloc(&b, g, PS_FLOAT32);
    fa = a.data;
    fb = b.data;
    for (c = 0; c < n; c++)
        fa[c] = fb[c] = (c % 11 == 0) ? NAN : 10.0f + (float)c / 8.0f;

    ps_compare_init(&st, NULL);
    CHECK(ps_compare_fields(&a, &b, &st) == PS_OK, "compare");
    CHECK(ps_compare_identical(&st) && ps_compare_within(&st), "identical");
    CHECK(st.cells == 60 && st.both_nan == 6 && st.both_number == 54, "counts %llu %llu %llu",
          (unsigned long long)st.cells, (unsigned long long)st.both_nan,
          (unsigned long long)st.both_number);

    /* differences: cell 7 by 3 ulps, cell 23 = (0,4,3) by +0.5, cell 37 NaN in b, -0 vs +0 at 40 */
    fb[7] = nextf(fa[7], 3);
    fb[23] = fa[23] + 0.5f;
    fb[37] = NAN;
    fa[40] = 0.0f;
    fb[40] = -0.0f;
    ps_compare_init(&st, NULL);
    st.time = 2;
    ps_compare_fields(&a, &b, &st);
    CHECK(!ps_compare_identical(&st) && !ps_compare_within(&st), "different");
    CHECK(st.nan_mismatch == 1 && st.nan_only_a == 0, "one NaN mismatch (%llu)",
          (unsigned long long)st.nan_mismatch);
    CHECK(st.first_nan_at.t == 2 && st.first_nan_at.k == 1 && st.first_nan_at.j == 3 &&
              st.first_nan_at.i == 2,
          "NaN mismatch location (1,3,2)");
    CHECK(st.bit_differ == 3 && st.differ == 2, "bit differences %llu, numeric %llu",
          (unsigned long long)st.bit_differ, (unsigned long long)st.differ);
    CHECK(st.max_abs == 0.5 && st.max_abs_at.k == 1 && st.max_abs_at.j == 0 &&
              st.max_abs_at.i == 3 && st.max_abs_at.t == 2,
          "max abs 0.5 at (2,1,0,3): %g at (%zu,%zu,%zu,%zu)", st.max_abs, st.max_abs_at.t,
          st.max_abs_at.k, st.max_abs_at.j, st.max_abs_at.i);
    CHECK(st.have_first && st.first_at.k == 0 && st.first_at.j == 1 && st.first_at.i == 2,
          "first mismatch is cell 7");
    CHECK(st.max_ulp == ps_ulp_distance_f32(fa[23], fb[23]) && st.max_ulp > 3, "max ulp");
    CHECK(fabs(st.max_rel - 0.5 / (double)fb[23]) < 1e-12, "max rel %g", st.max_rel);

    /* tolerances: NaN mismatch never accepted */
    fb[37] = fa[37];
    tol.abs = 0.5, tol.rel = 0, tol.ulps = 0;
    ps_compare_init(&st, &tol);
    ps_compare_fields(&a, &b, &st);
    CHECK(ps_compare_within(&st) && !ps_compare_identical(&st), "within --abs 0.5");
    tol.abs = 0.4;
    ps_compare_init(&st, &tol);
    ps_compare_fields(&a, &b, &st);
    CHECK(!ps_compare_within(&st) && st.exceed == 1, "--abs 0.4 leaves one (%llu)",
          (unsigned long long)st.exceed);
    tol.abs = 0, tol.ulps = 3;
    fb[23] = fa[23];
    ps_compare_init(&st, &tol);
    ps_compare_fields(&a, &b, &st);
    CHECK(ps_compare_within(&st), "--ulps 3 accepts 3 ulps");
    tol.ulps = 2;
    ps_compare_init(&st, &tol);
    ps_compare_fields(&a, &b, &st);
    CHECK(!ps_compare_within(&st), "--ulps 2 does not");
    tol.ulps = 0, tol.rel = 1e-6;
    ps_compare_init(&st, &tol);
    ps_compare_fields(&a, &b, &st);
    CHECK(ps_compare_within(&st), "--rel 1e-6 accepts 3 ulps near 10");
    fb[37] = NAN;
    tol.abs = 1e30;
    ps_compare_init(&st, &tol);
    ps_compare_fields(&a, &b, &st);
    CHECK(!ps_compare_within(&st), "NaN mismatch never within tolerance");

    /* accumulation over records */
    ps_compare_init(&st, NULL);
    st.time = 0;
    ps_compare_fields(&a, &a, &st);
    st.time = 1;
    ps_compare_fields(&a, &b, &st);
    CHECK(st.cells == 120 && st.first_at.t == 1, "accumulates; locations carry the time label");

    /* mixed precision: float64 copy of a equals a */
    ps_field_alloc(&d, g, PS_FLOAT64);
    ps_field_convert(&d, &a);
    ps_compare_init(&st, NULL);
    ps_compare_fields(&a, &d, &st);
    CHECK(ps_compare_identical(&st) && st.ulp_precision == PS_FLOAT32, "float32 vs float64 copy");
    ((double *)d.data)[5] += 1e-9;
    ps_compare_init(&st, NULL);
    ps_compare_fields(&a, &d, &st);
    CHECK(st.differ == 1 && st.max_ulp == 0, "sub-float32 difference: 0 float32 ulps");

    /* grid mismatch */
    {
        ps_grid g2 = {3, 4, 6};
        ps_field_alloc(&small, g2, PS_FLOAT32);
        ps_compare_init(&st, NULL);
        CHECK(ps_compare_fields(&a, &small, &st) == PS_EDIM && st.cells == 0, "grids differ");
        ps_field_free(&small);
    }
    ps_compare_print(stdout, &st, "  ");
    ps_field_free(&a);
    ps_field_free(&b);
    ps_field_free(&d);
    printf("%d checks, %d failures\n", ps_test_checks, ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
