/**
 * @file diffusion7.h
 * @brief The masked 7-point diffusion stencil: the one cell-update definition
 *        every backend compiles (design.md section 1).
 *
 * Include after defining PS_REAL (float or double) and PS_SUFFIX (a token such
 * as _f32 or _f64); the file may be included once per precision. OpenCL gets
 * it as a string generated at build time and compiles it with
 * -DPS_REAL=float|double -DPS_SUFFIX=...
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

#ifndef PS_REAL
#  error "define PS_REAL (float or double) before including diffusion7.h"
#endif
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
