/*
 * The shared cell update (kernels/diffusion7.h) against values computed by
 * hand: every neighbour count 0..6 and every one of the 64 mixes of NaN
 * neighbours, float32 and float64, plus constants computed independently by
 * the course's pure-Python formula (Python floats = IEEE double).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PS_REAL float
#define PS_SUFFIX _f32
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX
#define PS_REAL double
#define PS_SUFFIX _f64
#include "diffusion7.h"
#include "../ps_test.h"
#undef PS_REAL
#undef PS_SUFFIX


#define CHECK_BITS(T, UT, got, want, what, mask)                                         \
    do {                                                                             \
        T g_ = (got), w_ = (want);                                                   \
        UT gb_, wb_;                                                                 \
        memcpy(&gb_, &g_, sizeof g_);                                                \
        memcpy(&wb_, &w_, sizeof w_);                                                \
        if (gb_ != wb_) {                                                            \
            printf("FAIL %s mask=0x%02x: got %a expected %a\n", what, mask, (double)g_, \
                   (double)w_);                                                      \
            ps_test_failures++;                                                              \
        }                                                                            \
    } while (0)

/* Hand-written expectation: skip NaN neighbours in order, then the formula. */
static float expect_f32(float c, const float nb[6], float d)
{
    float s = 0.0f, n = 0.0f;
    int q;
    if (isnan(c))
        return c;
    for (q = 0; q < 6; q++)
        if (!isnan(nb[q])) {
            s += nb[q];
            n += 1.0f;
        }
    if (n == 0.0f)
        return c;
    {
        float t1 = n * c, t2 = s - t1, t3 = d * t2, t4 = t3 / n;
        return c + t4;
    }
}

static double expect_f64(double c, const double nb[6], double d)
{
    double s = 0.0, n = 0.0;
    int q;
    if (isnan(c))
        return c;
    for (q = 0; q < 6; q++)
        if (!isnan(nb[q])) {
            s += nb[q];
            n += 1.0;
        }
    if (n == 0.0)
        return c;
    {
        double t1 = n * c, t2 = s - t1, t3 = d * t2, t4 = t3 / n;
        return c + t4;
    }
}

int main(void)
{
    static const double base[6] = {11.25, 9.5, 10.0625, 12.75, 8.125, 10.875};
    const double c = 10.5;
    int mask, q, count_seen[7] = {0};

    for (mask = 0; mask < 64; mask++) {
        float nbf[6];
        double nbd[6];
        int n = 0;
        for (q = 0; q < 6; q++) {
            int nan = (mask >> q) & 1;
            nbf[q] = nan ? NAN : (float)base[q];
            nbd[q] = nan ? NAN : base[q];
            n += !nan;
        }
        count_seen[n]++;
        CHECK_BITS(float, uint32_t,
                   ps_diffusion7_cell_f32((float)c, nbf[0], nbf[1], nbf[2], nbf[3], nbf[4], nbf[5], 0.1f),
                   expect_f32((float)c, nbf, 0.1f), "f32", mask);
        CHECK_BITS(double, uint64_t,
                   ps_diffusion7_cell_f64(c, nbd[0], nbd[1], nbd[2], nbd[3], nbd[4], nbd[5], 0.1),
                   expect_f64(c, nbd, 0.1), "f64", mask);
        /* land stays land whatever the neighbours */
        if (!isnan(ps_diffusion7_cell_f64(NAN, nbd[0], nbd[1], nbd[2], nbd[3], nbd[4], nbd[5], 0.1)) ||
            !isnan(ps_diffusion7_cell_f32(NAN, nbf[0], nbf[1], nbf[2], nbf[3], nbf[4], nbf[5], 0.1f))) {
            printf("FAIL land cell changed, mask=0x%02x\n", mask);
            ps_test_failures++;
        }
    }
    for (q = 0; q <= 6; q++)
        if (count_seen[q] == 0) {
            printf("FAIL neighbour count %d never tested\n", q);
            ps_test_failures++;
        }

    /* n == 0 keeps the value, n == 6 uniform field: exact hand values */
    CHECK_BITS(double, uint64_t, ps_diffusion7_cell_f64(3.5, NAN, NAN, NAN, NAN, NAN, NAN, 0.1), 3.5,
               "isolated cell", 0);
    CHECK_BITS(float, uint32_t, ps_diffusion7_cell_f32(4.0f, 4.0f, 4.0f, 4.0f, 4.0f, 4.0f, 4.0f, 0.1f),
               4.0f, "uniform field", 0x3f);
    /* Constants from the course's pure-Python formula (Python floats). */
    CHECK_BITS(double, uint64_t, ps_diffusion7_cell_f64(1.0, 2, 2, 2, 2, 2, 2, 0.1),
               0x1.199999999999ap+0, "python case 1", 0);
    CHECK_BITS(double, uint64_t,
               ps_diffusion7_cell_f64(10.5, 11.25, NAN, 9.75, 10.0, NAN, 12.125, 0.1),
               0x1.50e6666666666p+3, "python case 2", 0x12);
    CHECK_BITS(double, uint64_t, ps_diffusion7_cell_f64(3.3, NAN, NAN, NAN, NAN, NAN, 7.7, 0.1),
               0x1.deb851eb851ebp+1, "python case 3", 0x1f);
    CHECK_BITS(double, uint64_t, ps_diffusion7_cell_f64(-1.7, 0.3, -2.9, 5.1, NAN, 1e-3, 8.25, 0.1),
               -0x1.50a2877ee4e27p+0, "python case 4", 0x08);
    /* -0.0 neighbours: the sum starts at +0.0 */
    CHECK_BITS(double, uint64_t, ps_diffusion7_cell_f64(0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, 0.1),
               0.0, "signed zeros", 0);

    if (ps_test_failures) {
        printf("%d failures\n", ps_test_failures);
        return 1;
    }
    printf("cell update: 64 NaN mixes x 2 precisions and hand values: ok\n");
    return 0;
}
