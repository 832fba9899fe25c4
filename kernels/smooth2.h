/**
 * @file smooth2.h
 * @brief smooth2: a radius-2 smoother along longitude, the test stencil that
 *        proves radius > 1 and per-longitude coefficient arrays through every
 *        backend (not a physical model).
 *
 * Neighbours i-2, i-1, i+1, i+2 in that order; s = running sum of the ocean
 * ones from +0.0, n their count; with w_i the weight of longitude i:
 *     t1 = s / n; t2 = t1 - c; t3 = w_i * t2; T' = c + t3.
 * Land, a cell with no ocean neighbour and the two outer layers of every face
 * keep their value. w_i = w * (2 + (7 i mod 5)) / 6 (global i): a coefficient
 * that changes along i, so a box that got its origin wrong gives other bits.
 */
#include "ps_kernel_defs.h"

/** One line saying what the stencil computes (pstencil stencils, help). */
#define PS_smooth2_DESCRIPTION "radius-2 smoother along longitude (test stencil)"
/** PS_STENCIL_* flags (core/ps_stencil.h): host side only; a test stencil. */
#define PS_smooth2_FLAGS PS_STENCIL_TEST
/** Halo width a step reads. */
#define PS_smooth2_RADIUS 2
/** Neighbours (dk, dj, di) in the order the sum visits them. */
#define PS_smooth2_NEIGHBOURS(X) X(0, 0, -2) X(0, 0, -1) X(0, 0, 1) X(0, 0, 2)
/** Kernel scalars: none. */
#define PS_smooth2_SCALARS(X)
/** Coefficient arrays (name, axes): a weight per longitude. */
#define PS_smooth2_ARRAYS(X) X(weight, PS_AXIS_I)
/** The update reads its neighbours only as their ocean sum and count. */
#define PS_smooth2_LAND_SUM(X) X(smooth2)
/** Auxiliary inputs (name, CF standard names, unit, required, help): none. */
#define PS_smooth2_INPUTS(X)
/** User options (name, unit, default, "auto" allowed, help). */
#define PS_smooth2_OPTIONS(X) X(w, "1", 0.5, 0, 0.0, 1.0, 0, "smoothing weight (0..1)")

#ifdef PS_REAL
#define PS_SMOOTH2_ACC(v)                                      \
    s = s + (((v) == (v)) ? (v) : (PS_REAL)0);                 \
    n = n + (((v) == (v)) ? (PS_REAL)1 : (PS_REAL)0)

/** An ocean cell with n > 0 ocean neighbours summing to s; ar[0] = w_i. */
PS_KERNEL_FN PS_REAL PS_CAT(ps_smooth2_sumcount, PS_SUFFIX)(PS_REAL c, PS_REAL s, PS_REAL n,
                                                            const PS_REAL *sc, const PS_REAL *ar)
{
    PS_REAL t1, t2, t3;
    (void)sc;
    t1 = PS_DIV(s, n);
    t2 = t1 - c;
    t3 = ar[0] * t2;
    return c + t3;
}

/** nb[] in PS_smooth2_NEIGHBOURS order, ar[0] = w_i. */
PS_KERNEL_FN PS_REAL PS_CAT(ps_smooth2_point, PS_SUFFIX)(PS_REAL c, const PS_REAL *nb,
                                                         const PS_REAL *sc, const PS_REAL *ar)
{
    PS_REAL s = (PS_REAL)0;
    PS_REAL n = (PS_REAL)0;
    PS_REAL r;
    PS_SMOOTH2_ACC(nb[0]);
    PS_SMOOTH2_ACC(nb[1]);
    PS_SMOOTH2_ACC(nb[2]);
    PS_SMOOTH2_ACC(nb[3]);
    r = PS_CAT(ps_smooth2_sumcount, PS_SUFFIX)(c, s, n, sc, ar);
    return (c != c || n == (PS_REAL)0) ? c : r;
}
#undef PS_SMOOTH2_ACC
#endif /* PS_REAL */

#if defined(PS_STENCIL_HOST) && !defined(PS_SMOOTH2_HOST)
#define PS_SMOOTH2_HOST
static int ps_smooth2_prepare(const ps_stencil_setup *in, ps_params *out, ps_stencil_report *rep,
                              char *why, size_t whylen)
{
    double w = in->options[0];
    size_t i;
    (void)rep;
    if (!(w >= 0 && w <= 1)) {
        snprintf(why, whylen, "--w must be in [0, 1], not %g", w);
        return PS_EINVAL;
    }
    for (i = 0; i < in->grid.nx; i++)
        out->arrays[i] = w * (double)(2 + (7 * i) % 5) / 6.0;
    return PS_OK;
}
#endif
