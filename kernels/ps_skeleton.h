/**
 * @file ps_skeleton.h
 * @brief The generic point update every backend's loop skeleton calls: it
 *        gathers a stencil's neighbours, scalars and coefficient arrays from
 *        its description and calls the stencil's cell function.
 *
 * Written in the common subset of C99, CUDA, HIP and OpenCL C. After
 * defining PS_REAL and PS_SUFFIX and including ps_stencils.h, a backend writes
 *     PS_STENCIL_LIST(PS_SKELETON_DEFINE)
 * to get, for every listed stencil NAME, the function
 *     PS_REAL ps_NAME_apply<SUFFIX>(in, p, sk, sj, params, gk, gj, gi, gz, gy, gx)
 * returning the new value of the cell at linear index @c p of @c in (strides
 * @c sk and @c sj in elements; i is contiguous), whose global coordinates are
 * (gk, gj, gi) in a global grid of gz x gy x gx cells. The caller applies it to
 * cells at least PS_NAME_RADIUS away from every face of its box and copies the
 * others.
 *
 * For a stencil whose PS_NAME_LAND_SUM list names it (its update reads the
 * neighbours only as the sum s of the ocean ones, from +0.0 in neighbour
 * order, and their count n), the same include also defines
 *     PS_REAL ps_NAME_apply_landsum<SUFFIX>(in, cnt, p, sk, sj, params, gk, gj, gi, gz, gy, gx)
 * for land held as +0.0: s is the plain sum of the neighbours, n = cnt[p]
 * (the cell's ocean neighbours; 0 or NaN for a land cell), and the cell keeps
 * its value where !(n > 0). Adding a +0.0 land value is what the NaN-masked sum
 * does, so the result is bitwise the stencil's point update as long as no
 * ocean cell is NaN (the masked sum would then skip it, the plain sum not).
 * The contract of ps_NAME_sumcount: for any n > 0 and any parameters it
 * returns NaN when c or s is NaN (tests/stencils/test_landsum checks it), so
 * a backend that steps the land-sum form finds the first ocean cell that
 * turns NaN by the NaN it writes, and redoes that step masked (openmp, opencl
 * and the GPU plugins do; infinities need nothing: inf + 0 is inf).
 *
 * @c params is the packed parameter block (core/ps_plugin.h,
 * ps_params_pack()): the kernel scalars in PS_NAME_SCALARS order, then each
 * coefficient array of PS_NAME_ARRAYS over the global extents of its axes.
 */
#ifndef PS_SKELETON_COMMON_H
#define PS_SKELETON_COMMON_H

/* counting list entries: (0 PS_x_NEIGHBOURS(PS_SK_ONE3)) */
/** Counts a one-field list entry (+1). */
#define PS_SK_ONE1(a) +1
/** Counts a two-field list entry (+1). */
#define PS_SK_ONE2(a, b) +1
/** Counts a three-field list entry (+1). */
#define PS_SK_ONE3(a, b, c) +1
/** Counts an input entry (five fields) (+1). */
#define PS_SK_ONE5(a, b, c, d, e) +1
/** Counts an option entry (eight fields) (+1). */
#define PS_SK_ONE8(a, b, c, d, e, f, g, h) +1
/** Number of neighbours of stencil NAME. */
#define PS_STENCIL_NNB(NAME) (0 PS_##NAME##_NEIGHBOURS(PS_SK_ONE3))
/** Number of kernel scalars of stencil NAME. */
#define PS_STENCIL_NSC(NAME) (0 PS_##NAME##_SCALARS(PS_SK_ONE1))
/** Number of coefficient arrays of stencil NAME. */
#define PS_STENCIL_NAR(NAME) (0 PS_##NAME##_ARRAYS(PS_SK_ONE2))
/** Number of auxiliary inputs of stencil NAME. */
#define PS_STENCIL_NIN(NAME) (0 PS_##NAME##_INPUTS(PS_SK_ONE5))
/** Number of user options of stencil NAME. */
#define PS_STENCIL_NOPT(NAME) (0 PS_##NAME##_OPTIONS(PS_SK_ONE8))

/** Index of global cell (gk, gj, gi) into an array over axes A (grid gy x gx). */
#define PS_SK_AXIDX(A, gk, gj, gi, gy, gx)                                          \
    ((((A)&PS_AXIS_K) ? (gk) : 0) * ((((A)&PS_AXIS_J) ? (gy) : 1) * (((A)&PS_AXIS_I) ? (gx) : 1)) + \
     (((A)&PS_AXIS_J) ? (gj) : 0) * (((A)&PS_AXIS_I) ? (gx) : 1) + (((A)&PS_AXIS_I) ? (gi) : 0))
/** Length of an array over axes A of a gz x gy x gx global grid. */
#define PS_SK_AXLEN(A, gz, gy, gx)                                                  \
    ((((A)&PS_AXIS_K) ? (gz) : 1) * (((A)&PS_AXIS_J) ? (gy) : 1) * (((A)&PS_AXIS_I) ? (gx) : 1))

/** Skeleton step: gathers neighbour (dk, dj, di) of cell p into nb[]. */
#define PS_SK_NB(dk, dj, di) nb[q++] = in[p + (long)(dk)*sk + (long)(dj)*sj + (long)(di)];
/** Land-sum skeleton step: adds neighbour (dk, dj, di) of cell p to s. */
#define PS_SK_SUM(dk, dj, di) s = s + in[p + (long)(dk)*sk + (long)(dj)*sj + (long)(di)];
/** Skeleton step: copies the next kernel scalar from params into sc[]. */
#define PS_SK_SC(name) sc[q] = params[q]; q++;
/** Skeleton step: this cell's value of the next coefficient array into ar[]. */
#define PS_SK_AR(name, A)                                                           \
    ar[q++] = params[off + PS_SK_AXIDX(A, gk, gj, gi, gy, gx)];                     \
    off += PS_SK_AXLEN(A, gz, gy, gx);
#endif /* PS_SKELETON_COMMON_H */

#ifdef PS_REAL
#undef PS_SKELETON_DEFINE
/** Define ps_NAME_apply<PS_SUFFIX> for one stencil (see the file comment). */
#define PS_SKELETON_DEFINE(NAME)                                                        \
    PS_KERNEL_FN PS_REAL PS_CAT(ps_##NAME##_apply, PS_SUFFIX)(                          \
        PS_GLOBAL const PS_REAL *in, long p, long sk, long sj,                          \
        PS_GLOBAL const PS_REAL *params, long gk, long gj, long gi, long gz, long gy,    \
        long gx)                                                                        \
    {                                                                                   \
        PS_REAL nb[PS_STENCIL_NNB(NAME) + 1];                                           \
        PS_REAL sc[PS_STENCIL_NSC(NAME) + 1];                                           \
        PS_REAL ar[PS_STENCIL_NAR(NAME) + 1];                                           \
        int q = 0;                                                                      \
        long off = PS_STENCIL_NSC(NAME);                                                \
        (void)sk; (void)sj; (void)params; (void)gk; (void)gj; (void)gi;                 \
        (void)gz; (void)gy; (void)gx; (void)off;                                        \
        PS_##NAME##_NEIGHBOURS(PS_SK_NB)                                                \
        q = 0;                                                                          \
        PS_##NAME##_SCALARS(PS_SK_SC)                                                   \
        q = 0;                                                                          \
        PS_##NAME##_ARRAYS(PS_SK_AR)                                                    \
        (void)q;                                                                        \
        return PS_CAT(ps_##NAME##_point, PS_SUFFIX)(in[p], nb, sc, ar);                 \
    }
#undef PS_SKELETON_LANDSUM_DEFINE
/** Define ps_NAME_apply_landsum<PS_SUFFIX> for one land-sum stencil (file comment). */
#define PS_SKELETON_LANDSUM_DEFINE(NAME)                                                \
    PS_KERNEL_FN PS_REAL PS_CAT(ps_##NAME##_apply_landsum, PS_SUFFIX)(                  \
        PS_GLOBAL const PS_REAL *in, PS_GLOBAL const PS_REAL *cnt, long p, long sk,     \
        long sj, PS_GLOBAL const PS_REAL *params, long gk, long gj, long gi, long gz,    \
        long gy, long gx)                                                               \
    {                                                                                   \
        PS_REAL sc[PS_STENCIL_NSC(NAME) + 1];                                           \
        PS_REAL ar[PS_STENCIL_NAR(NAME) + 1];                                           \
        PS_REAL s = (PS_REAL)0;                                                         \
        const PS_REAL n = cnt[p], c = in[p];                                            \
        int q = 0;                                                                      \
        long off = PS_STENCIL_NSC(NAME);                                                \
        (void)sk; (void)sj; (void)params; (void)gk; (void)gj; (void)gi;                 \
        (void)gz; (void)gy; (void)gx; (void)off;                                        \
        PS_##NAME##_NEIGHBOURS(PS_SK_SUM)                                               \
        PS_##NAME##_SCALARS(PS_SK_SC)                                                   \
        q = 0;                                                                          \
        PS_##NAME##_ARRAYS(PS_SK_AR)                                                    \
        (void)q;                                                                        \
        return n > (PS_REAL)0 ? PS_CAT(ps_##NAME##_sumcount, PS_SUFFIX)(c, s, n, sc, ar)  \
                              : c;                                                      \
    }
/** PS_SKELETON_LANDSUM_DEFINE for NAME if its PS_NAME_LAND_SUM list names it. */
#define PS_SKELETON_LANDSUM_OF(NAME) PS_##NAME##_LAND_SUM(PS_SKELETON_LANDSUM_DEFINE)
#endif /* PS_REAL */
