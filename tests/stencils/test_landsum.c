/*
 * The land-sum form against the point update, for every stencil whose
 * PS_NAME_LAND_SUM list names it: ps_NAME_apply_landsum on the field with
 * land held as +0.0 and the ocean-neighbour counts precomputed must give the
 * bits of ps_NAME_apply on the NaN field, for every ocean cell of random
 * neighbourhoods (land, -0.0, isolated cells, random scalars and coefficient
 * arrays), float32 and float64. Backends and the roofline probe that hold
 * land as zero rely on this identity. And ps_NAME_sumcount gives NaN when c
 * or s is NaN, for any count and parameters (zero ones included): the device
 * backends find an ocean cell turning NaN, where the masked form would start
 * to skip it, by the NaN the land-sum form writes (kernels/ps_skeleton.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ps_skeleton_all.h"
#include "../ps_test.h"

/* the test box: (2R+1)^3 cells around the centre, R up to this */
#define LS_MAXR 4
#define LS_SIDE (2 * LS_MAXR + 1)
#define LS_CELLS (LS_SIDE * LS_SIDE * LS_SIDE)
/* scalars and arrays of one parameter block, upper bound */
#define LS_MAXP (64 + 3 * LS_CELLS)

static uint64_t ls_state = 88172645463325252ull;
static double ls_uniform(void) /* xorshift64: [0, 1) */
{
    ls_state ^= ls_state << 13;
    ls_state ^= ls_state >> 7;
    ls_state ^= ls_state << 17;
    return (double)(ls_state >> 11) / 9007199254740992.0;
}

/* a field value: land (NaN) with probability @p land, else a temperature,
 * sometimes exactly -0.0 or +0.0 */
static double ls_value(double land)
{
    double u = ls_uniform();
    if (u < land)
        return NAN;
    u = ls_uniform();
    if (u < 0.05)
        return -0.0;
    if (u < 0.1)
        return 0.0;
    return -2.0 + 32.0 * ls_uniform();
}

static int ls_landsum_stencils;

/* Every cell at least R from the faces of the box, cases times, one precision. */
#define LS_CHECK(NAME, REAL, SFX)                                                        \
    static void ls_##NAME##SFX(int cases)                                                \
    {                                                                                    \
        const long r = PS_##NAME##_RADIUS, side = 2 * r + 1, plane = side * side;        \
        REAL nan_f[LS_CELLS], zero_f[LS_CELLS], cnt[LS_CELLS], params[LS_MAXP];          \
        static const int dk[] = {PS_##NAME##_NEIGHBOURS(LS_DK) 0};                      \
        static const int dj[] = {PS_##NAME##_NEIGHBOURS(LS_DJ) 0};                      \
        static const int di[] = {PS_##NAME##_NEIGHBOURS(LS_DI) 0};                      \
        const int nnb = PS_STENCIL_NNB(NAME);                                            \
        int t, q;                                                                        \
        long p, i, np = PS_STENCIL_NSC(NAME);                                            \
        PS_##NAME##_ARRAYS(LS_ARLEN)                                                     \
        if (r > LS_MAXR || np > LS_MAXP) {                                               \
            FAILF("%s: radius %ld or %ld parameters beyond the test's box", #NAME, r, np); \
            return;                                                                      \
        }                                                                                \
        ls_landsum_stencils++;                                                           \
        for (t = 0; t < cases; t++) {                                                    \
            const double land = (double)(t % 5) / 4.0; /* 0, 1/4, ... all land */       \
            for (p = 0; p < plane * side; p++) {                                         \
                nan_f[p] = (REAL)ls_value(land);                                         \
                zero_f[p] = nan_f[p] == nan_f[p] ? nan_f[p] : (REAL)0;                   \
            }                                                                            \
            for (i = 0; i < np; i++)                                                     \
                params[i] = (REAL)(ls_uniform() * (t % 3 ? 1.0 : 1e-3));                 \
            for (p = 0; p < plane * side; p++) { /* counts where the stencil fits */     \
                const long k = p / plane, j = p / side % side, ii = p % side;            \
                REAL n = 0;                                                              \
                cnt[p] = 0;                                                              \
                if (k < r || j < r || ii < r || k >= side - r || j >= side - r ||        \
                    ii >= side - r || nan_f[p] != nan_f[p])                              \
                    continue;                                                            \
                for (q = 0; q < nnb; q++) {                                              \
                    const REAL v = nan_f[p + dk[q] * plane + dj[q] * side + di[q]];      \
                    n = n + (v == v ? (REAL)1 : (REAL)0);                                \
                }                                                                        \
                cnt[p] = n;                                                              \
            }                                                                            \
            p = r * plane + r * side + r; /* the centre: the one cell the box fits */    \
            if (nan_f[p] == nan_f[p]) {                                                  \
                REAL want = ps_##NAME##_apply##SFX(nan_f, p, plane, side, params, r, r, r, \
                                                   side, side, side);                    \
                REAL got = ps_##NAME##_apply_landsum##SFX(zero_f, cnt, p, plane, side,   \
                                                          params, r, r, r, side, side,   \
                                                          side);                         \
                CHECK(memcmp(&want, &got, sizeof want) == 0,                             \
                      "%s %s case %d: land-sum form %.17g != point update %.17g", #NAME, \
                      #SFX, t, (double)got, (double)want);                               \
            }                                                                            \
        }                                                                                \
    }
/* ps_NAME_sumcount with a NaN c or s: NaN, whatever n > 0 and parameters */
#define LS_NAN(NAME, REAL, SFX)                                                          \
    static void ls_nan_##NAME##SFX(int cases)                                            \
    {                                                                                    \
        REAL sc[PS_STENCIL_NSC(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];                 \
        const REAL nan = (REAL)NAN;                                                      \
        int t, q;                                                                        \
        for (t = 0; t < cases; t++) {                                                    \
            const REAL c = (REAL)ls_value(0), s = (REAL)(8 * ls_value(0));               \
            const REAL n = (REAL)(1 + t % PS_STENCIL_NNB(NAME));                         \
            REAL a, b;                                                                   \
            for (q = 0; q < PS_STENCIL_NSC(NAME) + 1; q++)                               \
                sc[q] = t % 4 ? (REAL)ls_uniform() : (REAL)0;                            \
            for (q = 0; q < PS_STENCIL_NAR(NAME) + 1; q++)                               \
                ar[q] = t % 4 ? (REAL)ls_uniform() : (REAL)0;                            \
            a = ps_##NAME##_sumcount##SFX(nan, s, n, sc, ar);                            \
            b = ps_##NAME##_sumcount##SFX(c, nan, n, sc, ar);                            \
            CHECK(a != a && b != b, "%s %s case %d: sumcount(NaN, s) = %g, "             \
                  "sumcount(c, NaN) = %g, not NaN (n %g)", #NAME, #SFX, t, (double)a,    \
                  (double)b, (double)n);                                                 \
        }                                                                                \
    }
#define LS_NAN_ONE(NAME) PS_##NAME##_LAND_SUM(LS_NAN_F32) PS_##NAME##_LAND_SUM(LS_NAN_F64)
#define LS_NAN_F32(NAME) LS_NAN(NAME, float, _f32)
#define LS_NAN_F64(NAME) LS_NAN(NAME, double, _f64)
PS_STENCIL_LIST(LS_NAN_ONE)
#define LS_NAN_RUN(NAME) ls_nan_##NAME##_f32(cases); ls_nan_##NAME##_f64(cases);
#define LS_NAN_RUN_ONE(NAME) PS_##NAME##_LAND_SUM(LS_NAN_RUN)
#define LS_DK(a, b, c) a,
#define LS_DJ(a, b, c) b,
#define LS_DI(a, b, c) c,
#define LS_ARLEN(name, A) np += PS_SK_AXLEN(A, side, side, side);
#define LS_F32(NAME) LS_CHECK(NAME, float, _f32)
#define LS_F64(NAME) LS_CHECK(NAME, double, _f64)
#define LS_ONE(NAME) PS_##NAME##_LAND_SUM(LS_F32) PS_##NAME##_LAND_SUM(LS_F64)
PS_STENCIL_LIST(LS_ONE)
#define LS_RUN(NAME) ls_##NAME##_f32(cases); ls_##NAME##_f64(cases);
#define LS_RUN_ONE(NAME) PS_##NAME##_LAND_SUM(LS_RUN)

int main(void)
{
    const int cases = 50000;
    PS_STENCIL_LIST(LS_RUN_ONE)
    PS_STENCIL_LIST(LS_NAN_RUN_ONE)
    CHECK(ls_landsum_stencils > 0, "no stencil of the list declares the land-sum form");
    printf("%d land-sum stencil precisions, %d cases each\n", ls_landsum_stencils, cases);
    return ps_test_finish("test_landsum");
}
