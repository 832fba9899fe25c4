/*
 * The validation comparison: bitwise equality, ulp distance through the
 * ordered-integer mapping (across zero, -0.0 vs +0.0), NaN-mask changes,
 * unwritten (poisoned) cells, where the first difference is; the fast-mode
 * bound; every generated case builds deterministically; and a kernel with the
 * neighbour sum in another order, built here, is reported as differing.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_validate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("FAIL (line %d): ", __LINE__);                                          \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

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
    float *fa, *fb;
    double *da, *db;
    uint32_t u;
    int i;

    ps_field_alloc(&a, g, PS_FLOAT32);
    ps_field_alloc(&b, g, PS_FLOAT32);
    fa = a.data;
    fb = b.data;
    for (i = 0; i < 60; i++)
        fa[i] = fb[i] = 1.5f + (float)i;
    fa[7] = fb[7] = NAN;
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 0 && ps_validate_diff_bitwise(&d) && d.cells == 60, "identical");
    CHECK(d.max_ref == 60.5, "max_ref %g", d.max_ref);

    fb[23] = nextafterf(fa[23], 1e30f); /* (1,0,3) one ulp up */
    fb[40] = nextafterf(nextafterf(fa[40], -1e30f), -1e30f);
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 2 && d.max_ulp == 2 && d.have_first && d.first[0] == 1 && d.first[1] == 0 &&
              d.first[2] == 3 && d.first_expected == fa[23] && d.first_got == fb[23],
          "ulps: differ %zu max %llu first (%zu,%zu,%zu)", d.differ,
          (unsigned long long)d.max_ulp, d.first[0], d.first[1], d.first[2]);
    memcpy(fb, fa, 60 * sizeof *fb);

    /* across zero: smallest subnormals of both signs are 2 ulp apart; -0 vs +0 is 0 ulp but differs */
    fa[1] = 1.4e-45f;
    fb[1] = -1.4e-45f;
    fa[2] = 0.0f;
    fb[2] = -0.0f;
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 2 && d.max_ulp == 2, "across zero: differ %zu ulp %llu", d.differ,
          (unsigned long long)d.max_ulp);
    memcpy(fb, fa, 60 * sizeof *fb);

    /* NaN mask change and an unwritten (poisoned) cell */
    fb[10] = NAN;
    u = UINT32_C(0x7fbadbad);
    memcpy(&fb[11], &u, 4);
    ps_validate_compare(&a, &b, &d);
    CHECK(d.differ == 2 && d.nan_mismatch == 1 && d.unwritten == 1, "nan %zu unwritten %zu",
          d.nan_mismatch, d.unwritten);
    CHECK(!ps_validate_fast_ok(&d, PS_FLOAT32, 1, 60.5, 0.1), "fast_ok despite NaN change");
    memcpy(fb, fa, 60 * sizeof *fb);

    /* fast bound: 2 (1 + 62 D) u M steps */
    CHECK(fabs(ps_validate_fast_bound(PS_FLOAT32, 10, 100.0, 0.1) -
               2.0 * 7.2 * ldexp(1.0, -24) * 100.0 * 10) < 1e-12,
          "bound f32 %g", ps_validate_fast_bound(PS_FLOAT32, 10, 100.0, 0.1));
    fb[30] = fa[30] + 1e-4f; /* 2.9e-4 = bound for M=60.5, 1 step is 5.2e-5: exceeds */
    ps_validate_compare(&a, &b, &d);
    CHECK(!ps_validate_fast_ok(&d, PS_FLOAT32, 1, 60.5, 0.1), "1e-4 passes a 5e-5 bound");
    CHECK(ps_validate_fast_ok(&d, PS_FLOAT32, 50, 60.5, 0.1), "1e-4 fails a 2.6e-3 bound");

    /* a different shape is an error */
    {
        ps_field c;
        ps_grid h = {3, 4, 6};
        ps_field_alloc(&c, h, PS_FLOAT32);
        CHECK(ps_validate_compare(&a, &c, &d) == PS_EINVAL, "shape mismatch accepted");
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
        CHECK(d.differ == 2 && d.max_ulp == 3, "double: differ %zu ulp %llu", d.differ,
              (unsigned long long)d.max_ulp);
        ps_field_free(&x);
        ps_field_free(&y);
    }

    /* every case builds, deterministically, in both precisions */
    for (i = 0; i < ps_validate_case_count(); i++) {
        int p;
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
            ps_field_free(&f1);
            ps_field_free(&f2);
        }
    }
    CHECK(ps_validate_case_find("nosuch") == -1 && ps_validate_case_find("extremes") >= 0,
          "case lookup");

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
        CHECK(d.differ > 0 && d.max_ulp >= 1 && d.nan_mismatch == 0 && d.unwritten == 0,
              "broken kernel not caught: %s", desc);
        ps_backend_close(ref);
        ps_field_free(&in);
        ps_field_free(&exp);
        ps_field_free(&got);
    }

    ps_field_free(&a);
    ps_field_free(&b);
    if (failures)
        printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
