/*
 * The generic kernels: every stencil of PS_STENCIL_LIST (kernels/ps_stencils.h)
 * in the loop skeleton every backend shares. The plugin compiles this after
 * kernels/ps_kernel_defs.h, every stencil file, ps_stencils.h and
 * ps_skeleton.h, as one program, with -DPS_REAL=float|double
 * -DPS_SUFFIX=_f32|_f64; it includes nothing and names no stencil.
 *
 * For each stencil NAME, three kernels, one per range shape (the host picks
 * one as for the fast path, backends/opencl/ps_opencl.c):
 *   ps_gen_NAME_row  2-D range over (j, k), each work-item one row along i
 *                    (the default on CPU devices);
 *   ps_gen_NAME_ij   2-D range over (i, j), each work-item one column along k
 *                    (the default elsewhere: consecutive work-items read
 *                    consecutive i);
 *   ps_gen_NAME_ijk  3-D range, one cell per work-item.
 * Every cell of the output is written: a cell closer than PS_NAME_RADIUS to a
 * face of the box is copied, every other cell gets ps_NAME_apply<SUFFIX>
 * (kernels/ps_skeleton.h), which gathers the neighbours in the order the
 * stencil lists them, reads the kernel scalars and the coefficient arrays at
 * the cell's global coordinates (box origin + local index, in the global grid
 * gz x gy x gx) from the packed parameter block, and calls the stencil's cell
 * function. Land and isolated cells are kept by the cell function itself.
 *
 * Arguments of every kernel (the fast-path kernels of ps_opencl_diffusion7.cl
 * take the same): in, out, the packed parameters (core/ps_plugin.h,
 * ps_params_pack()), the box extents nz, ny, nx, its origin ok, oj, oi and the
 * global grid gz, gy, gx.
 */

PS_STENCIL_LIST(PS_SKELETON_DEFINE)

#define PS_GEN_ARGS                                                                      \
    __global const PS_REAL *restrict in, __global PS_REAL *restrict out,                 \
        __global const PS_REAL *restrict params, const uint nz, const uint ny,           \
        const uint nx, const long ok, const long oj, const long oi, const long gz,       \
        const long gy, const long gx

/* the new value of stored cell (k, j, i) at linear index p: the skeleton's update */
#define PS_GEN_APPLY(NAME, p, k, j, i)                                                   \
    PS_CAT(ps_##NAME##_apply, PS_SUFFIX)(in, (long)(p), (long)plane, (long)nx, params,   \
                                         ok + (long)(k), oj + (long)(j), oi + (long)(i), \
                                         gz, gy, gx)

/* whether index x along an axis of n cells is at least r away from both faces */
#define PS_GEN_INNER(x, n, r) ((x) >= (r) && (x) + (r) < (n))

#define PS_GEN_KERNELS(NAME)                                                             \
    __kernel void ps_gen_##NAME##_row(PS_GEN_ARGS)                                       \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        const uint j = (uint)get_global_id(0);                                           \
        const uint k = (uint)get_global_id(1);                                           \
        const size_t plane = (size_t)ny * nx;                                            \
        const size_t row = (size_t)k * plane + (size_t)j * nx;                           \
        uint i;                                                                          \
        if (j >= ny || k >= nz)                                                          \
            return;                                                                      \
        if (!PS_GEN_INNER(k, nz, r) || !PS_GEN_INNER(j, ny, r) || nx < 2 * r + 1) {      \
            for (i = 0; i < nx; i++)                                                     \
                out[row + i] = in[row + i];                                              \
            return;                                                                      \
        }                                                                                \
        for (i = 0; i < r; i++)                                                          \
            out[row + i] = in[row + i];                                                  \
        for (i = r; i < nx - r; i++)                                                     \
            out[row + i] = PS_GEN_APPLY(NAME, row + i, k, j, i);                         \
        for (i = nx - r; i < nx; i++)                                                    \
            out[row + i] = in[row + i];                                                  \
    }                                                                                    \
                                                                                         \
    __kernel void ps_gen_##NAME##_ij(PS_GEN_ARGS)                                        \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        const uint i = (uint)get_global_id(0);                                           \
        const uint j = (uint)get_global_id(1);                                           \
        const size_t plane = (size_t)ny * nx;                                            \
        const size_t col = (size_t)j * nx + i;                                           \
        uint k;                                                                          \
        if (i >= nx || j >= ny)                                                          \
            return;                                                                      \
        if (!PS_GEN_INNER(i, nx, r) || !PS_GEN_INNER(j, ny, r) || nz < 2 * r + 1) {      \
            for (k = 0; k < nz; k++)                                                     \
                out[col + k * plane] = in[col + k * plane];                              \
            return;                                                                      \
        }                                                                                \
        for (k = 0; k < r; k++)                                                          \
            out[col + k * plane] = in[col + k * plane];                                  \
        for (k = r; k < nz - r; k++)                                                     \
            out[col + k * plane] = PS_GEN_APPLY(NAME, col + k * plane, k, j, i);         \
        for (k = nz - r; k < nz; k++)                                                    \
            out[col + k * plane] = in[col + k * plane];                                  \
    }                                                                                    \
                                                                                         \
    __kernel void ps_gen_##NAME##_ijk(PS_GEN_ARGS)                                       \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        const uint i = (uint)get_global_id(0);                                           \
        const uint j = (uint)get_global_id(1);                                           \
        const uint k = (uint)get_global_id(2);                                           \
        const size_t plane = (size_t)ny * nx;                                            \
        const size_t p = (size_t)k * plane + (size_t)j * nx + i;                         \
        if (i >= nx || j >= ny || k >= nz)                                               \
            return;                                                                      \
        if (PS_GEN_INNER(i, nx, r) && PS_GEN_INNER(j, ny, r) && PS_GEN_INNER(k, nz, r))  \
            out[p] = PS_GEN_APPLY(NAME, p, k, j, i);                                     \
        else                                                                             \
            out[p] = in[p];                                                              \
    }

PS_STENCIL_LIST(PS_GEN_KERNELS)
