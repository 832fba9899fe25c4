/**
 * @file diffusion7.h
 * @brief The masked 7-point diffusion stencil (the course's model, defined in
 *        docs/model.md): its description and its one cell-update definition.
 *
 * The stencil-file format is described in docs/adding-a-stencil.md. The
 * description macros (PS_diffusion7_*) are read by the registry and by every
 * backend's generic skeleton; the cell functions are compiled once per
 * precision (include after defining PS_REAL and PS_SUFFIX; without PS_REAL only
 * the description is defined). OpenCL gets the file as an embedded string.
 * Backends with a tuned fast path for this stencil (openmp, opencl, cuda, hip)
 * call ps_diffusion7_cell() directly; it is validated bitwise against the
 * generic path.
 *
 * The contract: for an interior cell with value c, visit the six neighbours in
 * the fixed order k-1, k+1, j-1, j+1, i-1, i+1; s is the running sum of the
 * non-NaN neighbours starting at +0.0, n their count. If c is NaN or n == 0
 * the cell keeps c; otherwise, in exactly this order and precision:
 *     t1 = n*c; t2 = s - t1; t3 = D*t2; t4 = t3/n; T' = c + t4.
 *
 * The sum is written branch-free: a NaN neighbour contributes +0.0 and 0 to
 * the count. Because s starts at +0.0 it can never be -0.0 under round-to-
 * nearest, so s + (+0.0) == s bitwise and this equals skipping the neighbour.
 * Compilers turn the selects into vector blends.
 */
#include "ps_kernel_defs.h"

/* ---- description ------------------------------------------------------ */
/** One line saying what the stencil computes (pstencil stencils, help). */
#define PS_diffusion7_DESCRIPTION \
    "masked 7-point temperature diffusion (the course's model, NaN = land)"
/** PS_STENCIL_* flags (core/ps_stencil.h): host side only. */
#define PS_diffusion7_FLAGS 0
/** Halo width a step reads. */
#define PS_diffusion7_RADIUS 1
/** Neighbours (dk, dj, di) in the order the sum visits them. */
#define PS_diffusion7_NEIGHBOURS(X) \
    X(-1, 0, 0) X(1, 0, 0) X(0, -1, 0) X(0, 1, 0) X(0, 0, -1) X(0, 0, 1)
/** Kernel scalars, in the order the cell function receives them in sc[]. */
#define PS_diffusion7_SCALARS(X) X(D)
/** Coefficient arrays (name, axes): none. */
#define PS_diffusion7_ARRAYS(X)
/**
 * The update reads its neighbours only as the sum s of the ocean ones and their
 * count n (ps_diffusion7_sumcount below), so land may be held as +0.0 with n
 * precomputed.
 */
#define PS_diffusion7_LAND_SUM(X) X(diffusion7)
/** Auxiliary inputs (name, CF standard names, unit, required, help): none. */
#define PS_diffusion7_INPUTS(X)
/** User options (name, unit, default, "auto" allowed, valid min, max, short alias, help). */
#define PS_diffusion7_OPTIONS(X) \
    X(coeff, "1", 0.1, 0, -1.7976931348623157e308, 1.7976931348623157e308, 'D', \
      "diffusion coefficient D (dimensionless, as in the course)")

#ifdef PS_REAL
#ifndef PS_SUFFIX
#  error "define PS_SUFFIX (e.g. _f32) before including diffusion7.h"
#endif

#define PS_D7_ACC(v) \
    s = s + (((v) == (v)) ? (v) : (PS_REAL)0); \
    n = n + (((v) == (v)) ? (PS_REAL)1 : (PS_REAL)0)

/**
 * The update of an ocean cell from its neighbour sum and count, in exactly
 * the contract's order: t1 = n*c; t2 = s - t1; t3 = D*t2; t4 = t3/n;
 * returns c + t4. The caller keeps c instead where c is land or n == 0.
 * @param c   the cell's value
 * @param s   running sum of the non-NaN neighbours (from +0.0, fixed order)
 * @param n   their count
 * @param d   diffusion coefficient D
 */
PS_KERNEL_FN PS_REAL PS_CAT(ps_diffusion7_update, PS_SUFFIX)(PS_REAL c, PS_REAL s, PS_REAL n,
                                                             PS_REAL d)
{
    PS_REAL t1, t2, t3, t4;
    t1 = n * c;
    t2 = s - t1;
    t3 = d * t2;
    t4 = PS_DIV(t3, n);
    return c + t4;
}

/**
 * The update of an ocean cell with n > 0 ocean neighbours summing to s (the
 * land-sum form of PS_diffusion7_LAND_SUM): sc[0] = D, no arrays.
 */
PS_KERNEL_FN PS_REAL PS_CAT(ps_diffusion7_sumcount, PS_SUFFIX)(PS_REAL c, PS_REAL s, PS_REAL n,
                                                               const PS_REAL *sc,
                                                               const PS_REAL *ar)
{
    (void)ar;
    return PS_CAT(ps_diffusion7_update, PS_SUFFIX)(c, s, n, sc[0]);
}

/**
 * New value of one interior cell.
 * @param c   the cell's value (NaN = land)
 * @param km  neighbour at k-1 (shallower)
 * @param kp  neighbour at k+1 (deeper)
 * @param jm  neighbour at j-1
 * @param jp  neighbour at j+1
 * @param im  neighbour at i-1
 * @param ip  neighbour at i+1
 * @param d   diffusion coefficient D
 */
PS_KERNEL_FN PS_REAL PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(
    PS_REAL c, PS_REAL km, PS_REAL kp, PS_REAL jm, PS_REAL jp,
    PS_REAL im, PS_REAL ip, PS_REAL d)
{
    PS_REAL s = (PS_REAL)0;
    PS_REAL n = (PS_REAL)0;
    PS_REAL r;
    PS_D7_ACC(km);
    PS_D7_ACC(kp);
    PS_D7_ACC(jm);
    PS_D7_ACC(jp);
    PS_D7_ACC(im);
    PS_D7_ACC(ip);
    r = PS_CAT(ps_diffusion7_update, PS_SUFFIX)(c, s, n, d);
    /* c != c: land keeps its NaN; n == 0: an isolated cell keeps its value */
    return (c != c || n == (PS_REAL)0) ? c : r;
}

#undef PS_D7_ACC

/**
 * The generic entry point every backend's skeleton calls: neighbours in
 * PS_diffusion7_NEIGHBOURS order, sc[0] = D, no arrays.
 */
PS_KERNEL_FN PS_REAL PS_CAT(ps_diffusion7_point, PS_SUFFIX)(PS_REAL c, const PS_REAL *nb,
                                                            const PS_REAL *sc, const PS_REAL *ar)
{
    (void)ar;
    return PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(c, nb[0], nb[1], nb[2], nb[3], nb[4], nb[5],
                                                 sc[0]);
}
#endif /* PS_REAL */

/* ---- host side: options to kernel parameters (registry only) ---------- */
#if defined(PS_STENCIL_HOST) && !defined(PS_DIFFUSION7_HOST)
#define PS_DIFFUSION7_HOST
static int ps_diffusion7_prepare(const ps_stencil_setup *in, ps_params *out,
                                 ps_stencil_report *rep, char *why, size_t whylen)
{
    double d = in->options[0];
    (void)rep;
    /* stability: T + D * (sum of neighbours - n T) is a convex combination of the old
     * values only for 0 <= D <= 1; outside it the field grows without bound (D = 2
     * reaches 1e19 in a few hundred steps) */
    if (!(d >= 0.0 && d <= 1.0) && !in->allow_unstable) {
        char num[32];
        int prec;
        for (prec = 1; prec <= 17; prec++) { /* the shortest decimal that reads back as d */
            snprintf(num, sizeof num, "%.*g", prec, d);
            if (strtod(num, NULL) == d)
                break;
        }
        snprintf(why, whylen, "-D/--coeff %s: diffusion7 is stable only for 0 <= D <= 1 (its "
                 "update is then a convex combination of the old values); outside that the "
                 "temperatures grow without bound. Give --allow-unstable to run it anyway", num);
        return PS_ERANGE;
    }
    if (!(d == d) || d > 1e300 || d < -1e300) {
        snprintf(why, whylen, "--coeff must be a finite number");
        return PS_EINVAL;
    }
    out->scalars[0] = d;
    return PS_OK;
}
#endif
