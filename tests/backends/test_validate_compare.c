/*
 * Validation's verdicts on the shared comparison engine (core/ps_compare.h):
 * bitwise equality, ulp distance through the ordered-integer mapping (across
 * zero, -0.0 vs +0.0), NaN-mask changes, NaN payloads, unwritten (poisoned)
 * cells in ocean and in land, where the first difference is; the fast-mode
 * bound per stencil; every generated case builds deterministically, the
 * synthetic basin has what the model's input has; every stencil gets
 * parameters on every case's grid (synthetic coordinates for hdiff); and a
 * kernel with the neighbour sum in another order, built here, is reported as
 * differing.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_validate.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* One step with the neighbours summed i, j, k (instead of k, j, i). */
static void broken_step(const float *T, float *O, ps_grid g, float D)
{
    size_t k, j, i;
    memcpy(O, T, g.nz * g.ny * g.nx * sizeof *T);
    for (k = 1; k + 1 < g.nz; k++)
        for (j = 1; j + 1 < g.ny; j++)
            for (i = 1; i + 1 < g.nx; i++) {
                size_t q = ps_index(&g, k, j, i), p = g.ny * g.nx;
                float v[6] = {T[q - 1], T[q + 1], T[q - g.nx], T[q + g.nx], T[q - p], T[q + p]};
                float s = 0, n = 0, c = T[q];
                int m;
                if (isnan(c))
                    continue;
                for (m = 0; m < 6; m++)
                    if (!isnan(v[m])) {
                        s = s + v[m];
                        n = n + 1;
                    }
                if (n > 0)
                    O[q] = c + D * (s - n * c) / n;
            }
}

int main(void)
{
    ps_grid g = {3, 4, 5};
    ps_field a, b;
    ps_validate_diff d;
    const ps_stencil *d7 = ps_stencil_find("diffusion7"), *sm = ps_stencil_find("smooth2");
    float *fa, *fb;
    double *da, *db;
    uint32_t u;
    int i;

    CHECK(d7 && sm, "stencils diffusion7 and smooth2 are registered");
    ps_field_alloc(&a, g, PS_FLOAT32);
    ps_field_alloc(&b, g, PS_FLOAT32);
    fa = a.data;
    fb = b.data;
    for (i = 0; i < 60; i++)
        fa[i] = fb[i] = 1.5f + (float)i;
    fa[7] = fb[7] = NAN;
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 0 && ps_validate_diff_bitwise(&d) && d.cells == 60, "identical");
    CHECK(d.stats.both_nan == 1 && d.stats.both_number == 59, "land %llu ocean %llu",
          (unsigned long long)d.stats.both_nan, (unsigned long long)d.stats.both_number);

    fb[23] = nextafterf(fa[23], 1e30f); /* (1,0,3) one ulp up */
    fb[40] = nextafterf(nextafterf(fa[40], -1e30f), -1e30f);
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 2 && d.stats.max_ulp == 2 && d.stats.have_first_bits &&
              d.stats.first_bits_at.k == 1 && d.stats.first_bits_at.j == 0 &&
              d.stats.first_bits_at.i == 3 && d.stats.first_bits_a == fa[23] &&
              d.stats.first_bits_b == fb[23],
          "ulps: differ %zu max %llu first (%zu,%zu,%zu)", d.differ,
          (unsigned long long)d.stats.max_ulp, d.stats.first_bits_at.k, d.stats.first_bits_at.j,
          d.stats.first_bits_at.i);
    memcpy(fb, fa, 60 * sizeof *fb);

    /* across zero: smallest subnormals of both signs are 2 ulp apart; -0 vs +0 is 0 ulp but differs */
    fa[1] = 1.4e-45f;
    fb[1] = -1.4e-45f;
    fa[2] = 0.0f;
    fb[2] = -0.0f;
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 2 && d.stats.max_ulp == 2 && !ps_validate_diff_bitwise(&d),
          "across zero: differ %zu ulp %llu", d.differ, (unsigned long long)d.stats.max_ulp);
    memcpy(fb, fa, 60 * sizeof *fb);

    /* NaN mask change and an unwritten (poisoned) ocean cell */
    fb[10] = NAN;
    u = PS_POISON_F32;
    memcpy(&fb[11], &u, 4);
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 2 && d.stats.nan_mismatch == 2 && d.stats.unwritten == 1,
          "nan %llu unwritten %llu", (unsigned long long)d.stats.nan_mismatch,
          (unsigned long long)d.stats.unwritten);
    CHECK(!ps_validate_fast_ok(&d, d7, PS_FLOAT32, 1, 60.5), "fast_ok despite NaN change");
    memcpy(fb, fa, 60 * sizeof *fb);

    /* land: another NaN payload differs bitwise; the poison in land is an unwritten cell */
    u = UINT32_C(0x7fc00001);
    memcpy(&fb[7], &u, 4);
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 1 && d.stats.nan_bits_differ == 1 && d.stats.unwritten == 0 &&
              d.stats.nan_mismatch == 0 && !ps_validate_diff_bitwise(&d),
          "NaN payload: differ %zu", d.differ);
    CHECK(ps_compare_identical(&d.stats), "compare's verdict ignores NaN payloads");
    u = PS_POISON_F32;
    memcpy(&fb[7], &u, 4);
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 1 && d.stats.unwritten == 1 && !ps_validate_fast_ok(&d, d7, PS_FLOAT32, 1, 60.5),
          "unwritten land cell: differ %zu unwritten %llu", d.differ,
          (unsigned long long)d.stats.unwritten);
    memcpy(fb, fa, 60 * sizeof *fb);

    /* fast bound: 2 (1 + 12 n) u M steps, n the stencil's neighbours */
    CHECK(fabs(ps_validate_fast_bound(d7, PS_FLOAT32, 10, 100.0) -
               2.0 * 73.0 * ldexp(1.0, -24) * 100.0 * 10) < 1e-12,
          "bound f32 %g", ps_validate_fast_bound(d7, PS_FLOAT32, 10, 100.0));
    CHECK(fabs(ps_validate_fast_bound(sm, PS_FLOAT64, 3, 2.0) -
               2.0 * 49.0 * ldexp(1.0, -53) * 2.0 * 3) < 1e-25,
          "bound f64 smooth2 %g", ps_validate_fast_bound(sm, PS_FLOAT64, 3, 2.0));
    fb[30] = fa[30] + 1e-3f; /* the bound for M=60.5 is 5.3e-4 after 1 step, 2.6e-2 after 50 */
    ps_validate_compare(&a, &b, &d);
    CHECK(!ps_validate_fast_ok(&d, d7, PS_FLOAT32, 1, 60.5), "1e-3 passes a 5.3e-4 bound");
    CHECK(ps_validate_fast_ok(&d, d7, PS_FLOAT32, 50, 60.5), "1e-3 fails a 2.6e-2 bound");

    /* a different shape or precision is an error */
    {
        ps_field c;
        ps_grid h = {3, 4, 6};
        ps_field_alloc(&c, h, PS_FLOAT32);
        CHECK(ps_validate_compare(&a, &c, &d) == PS_EINVAL, "shape mismatch accepted");
        ps_field_free(&c);
        ps_field_alloc(&c, g, PS_FLOAT64);
        CHECK(ps_validate_compare(&a, &c, &d) == PS_EINVAL, "precision mismatch accepted");
        ps_field_free(&c);
    }

    /* double: ordered mapping across zero and ulps */
    {
        ps_field x, y;
        ps_field_alloc(&x, g, PS_FLOAT64);
        ps_field_alloc(&y, g, PS_FLOAT64);
        da = x.data;
        db = y.data;
        for (i = 0; i < 60; i++)
            da[i] = db[i] = -3.0 + i;
        db[5] = nextafter(nextafter(nextafter(da[5], 1e300), 1e300), 1e300);
        da[6] = 4.9e-324;
        db[6] = -4.9e-324;
        ps_validate_compare(&x, &y, &d);
        CHECK(d.differ == 2 && d.stats.max_ulp == 3, "double: differ %zu ulp %llu", d.differ,
              (unsigned long long)d.stats.max_ulp);
        ps_field_free(&x);
        ps_field_free(&y);
    }

    /* every case builds, deterministically, in both precisions, and every
     * stencil gets parameters on its grid */
    for (i = 0; i < ps_validate_case_count(); i++) {
        int p, s;
        for (p = 0; p < 2; p++) {
            ps_field f1, f2;
            char label[512];
            int st1 = ps_validate_case_make(i, p ? PS_FLOAT64 : PS_FLOAT32, &f1, label, sizeof label);
            int st2 = ps_validate_case_make(i, p ? PS_FLOAT64 : PS_FLOAT32, &f2, NULL, 0);
            CHECK(st1 == 0 && st2 == 0, "case %s: %s", ps_validate_case_name(i), ps_error_detail());
            if (!st1 && !st2)
                CHECK(ps_field_checksum(&f1) == ps_field_checksum(&f2), "case %s not deterministic",
                      ps_validate_case_name(i));
            CHECK(label[0] != '\0', "case %s has no label", ps_validate_case_name(i));
            if (p == 0)
                for (s = 0; s < ps_stencil_count(); s++) {
                    ps_params prm;
                    char note[512];
                    int st = ps_validate_params(ps_stencil_at(s), &f1, &prm, note, sizeof note);
                    CHECK(st == 0, "stencil %s on case %s: %s", ps_stencil_at(s)->name,
                          ps_validate_case_name(i), ps_error_detail());
                    CHECK(prm.array_values == ps_stencil_array_values(ps_stencil_at(s), f1.grid),
                          "stencil %s: %zu array values", ps_stencil_at(s)->name, prm.array_values);
                    ps_params_free(&prm);
                }
            ps_field_free(&f1);
            ps_field_free(&f2);
        }
    }
    CHECK(ps_validate_case_find("nosuch") == -1 && ps_validate_case_find("extremes") >= 0,
          "case lookup");
    CHECK(ps_validate_case_regions(ps_validate_case_find("regions")) &&
              !ps_validate_case_regions(ps_validate_case_find("ocean-1")),
          "regions flag");

    /* the synthetic basin has land, ocean, temperatures on both sides of 0
     * and ocean cells with no ocean neighbour */
    {
        ps_field f;
        size_t n, q, land = 0, isolated = 0, k, j, ii;
        int neg = 0, pos = 0, nearzero = 0;
        ps_validate_case_make(ps_validate_case_find("ocean-cropped"), PS_FLOAT32, &f, NULL, 0);
        n = ps_field_cells(&f);
        for (q = 0; q < n; q++) {
            float v = ((float *)f.data)[q];
            land += isnan(v) != 0;
            neg += v < 0;
            pos += v > 0;
            nearzero += fabsf(v) < 0.05f;
        }
        for (k = 1; k + 1 < f.grid.nz; k++)
            for (j = 1; j + 1 < f.grid.ny; j++)
                for (ii = 1; ii + 1 < f.grid.nx; ii++) {
                    const float *t = f.data;
                    size_t c = ps_index(&f.grid, k, j, ii), pl = f.grid.ny * f.grid.nx;
                    if (!isnan(t[c]) && isnan(t[c - 1]) && isnan(t[c + 1]) &&
                        isnan(t[c - f.grid.nx]) && isnan(t[c + f.grid.nx]) && isnan(t[c - pl]) &&
                        isnan(t[c + pl]))
                        isolated++;
                }
        CHECK(land > n / 10 && land < n * 9 / 10, "basin: %zu of %zu cells land", land, n);
        CHECK(neg > 0 && pos > 0 && nearzero > 0, "basin: %d negative, %d positive, %d near 0",
              neg, pos, nearzero);
        CHECK(isolated > 0, "basin: no isolated interior ocean cell");
        ps_field_free(&f);
    }

    /* synthetic coordinates: as documented, inside (-90, 90) */
    {
        ps_grid h = {4, 222, 3};
        double z[4], lat[222], lon[3];
        ps_validate_coordinates(h, z, lat, lon);
        CHECK(z[0] == 5 && z[3] == 95 && lon[0] == -10 && lon[2] == -9.5 &&
                  lat[0] > -90 && lat[221] < 90 && lat[1] - lat[0] == 0.25,
              "coordinates z %g..%g lat %g..%g lon %g..%g", z[0], z[3], lat[0], lat[221], lon[0],
              lon[2]);
    }

    /* a broken kernel (summation order changed) is caught by the comparison */
    {
        ps_backend *ref;
        ps_config cfg;
        ps_field in, exp, got;
        int k = ps_validate_case_find("ocean-1");
        char desc[600];
        ps_validate_case_make(k, PS_FLOAT32, &in, NULL, 0);
        ps_field_alloc(&exp, in.grid, PS_FLOAT32);
        ps_field_alloc(&got, in.grid, PS_FLOAT32);
        ps_backend_open("reference", &ref);
        ps_config_init(&cfg, in.grid, PS_FLOAT32);
        CHECK(ps_validate_run_backend(ref, &cfg, &in, 1, 0, &exp) == 0, "reference run: %s",
              ps_error_detail());
        ps_field_poison(&got);
        broken_step(in.data, got.data, in.grid, 0.1f);
        ps_validate_compare(&exp, &got, &d);
        ps_validate_diff_describe(&d, desc, sizeof desc);
        printf("broken kernel vs reference: %s\n", desc);
        CHECK(d.differ > 0 && d.stats.max_ulp >= 1 && d.stats.nan_mismatch == 0 &&
                  d.stats.unwritten == 0 && strstr(desc, "at (k,j,i)=("),
              "broken kernel not caught: %s", desc);
        ps_backend_close(ref);
        ps_field_free(&in);
        ps_field_free(&exp);
        ps_field_free(&got);
    }

    ps_field_free(&a);
    ps_field_free(&b);
    if (ps_test_failures)
        printf("%d failure(s)\n", ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
