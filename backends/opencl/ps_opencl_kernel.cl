/*
 * The thin OpenCL kernels around the shared cell update (kernels/diffusion7.h).
 * The plugin compiles this after ps_kernel_defs.h and diffusion7.h, as one
 * program, with -DPS_REAL=float|double -DPS_SUFFIX=_f32|_f64; it includes
 * nothing. Every cell of the output is written: the outermost layer of the
 * box and land are copies, the rest goes through the cell update (which keeps
 * NaN cells and isolated cells unchanged by itself).
 *
 * ps_step_ij: a 2-D range over (i, j); each work-item walks its column along
 * k, keeping the k-1, k and k+1 values in registers (each value is loaded
 * once from the k stream instead of three times).
 * ps_step_ijk: a 3-D range, one work-item per cell.
 * ps_step_row: a 2-D range over (j, k); each work-item does one row along i
 * (a loop a CPU compiler vectorises: the default on CPU devices).
 */

__kernel void ps_step_ij(__global const PS_REAL *restrict in, __global PS_REAL *restrict out,
                         const uint nz, const uint ny, const uint nx, const PS_REAL d)
{
    const uint i = (uint)get_global_id(0);
    const uint j = (uint)get_global_id(1);
    const size_t plane = (size_t)ny * nx;
    size_t p = (size_t)j * nx + i;
    uint k;
    PS_REAL km, c, kp;

    if (i >= nx || j >= ny)
        return;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1 || nz < 3) {
        for (k = 0; k < nz; k++, p += plane)
            out[p] = in[p];
        return;
    }
    km = in[p];
    out[p] = km;
    p += plane;
    c = in[p];
    for (k = 1; k < nz - 1; k++, p += plane) {
        kp = in[p + plane];
        out[p] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(c, km, kp, in[p - nx], in[p + nx],
                                                       in[p - 1], in[p + 1], d);
        km = c;
        c = kp;
    }
    out[p] = c;
}

__kernel void ps_step_ijk(__global const PS_REAL *restrict in, __global PS_REAL *restrict out,
                          const uint nz, const uint ny, const uint nx, const PS_REAL d)
{
    const uint i = (uint)get_global_id(0);
    const uint j = (uint)get_global_id(1);
    const uint k = (uint)get_global_id(2);
    const size_t plane = (size_t)ny * nx;
    const size_t p = (size_t)k * plane + (size_t)j * nx + i;

    if (i >= nx || j >= ny || k >= nz)
        return;
    if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1)
        out[p] = in[p];
    else
        out[p] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(in[p], in[p - plane], in[p + plane],
                                                       in[p - nx], in[p + nx], in[p - 1],
                                                       in[p + 1], d);
}

__kernel void ps_step_row(__global const PS_REAL *restrict in, __global PS_REAL *restrict out,
                          const uint nz, const uint ny, const uint nx, const PS_REAL d)
{
    const uint j = (uint)get_global_id(0);
    const uint k = (uint)get_global_id(1);
    const size_t plane = (size_t)ny * nx;
    __global const PS_REAL *r = in + (size_t)k * plane + (size_t)j * nx;
    __global PS_REAL *o = out + (size_t)k * plane + (size_t)j * nx;
    uint i;

    if (j >= ny || k >= nz)
        return;
    if (j == 0 || k == 0 || j == ny - 1 || k == nz - 1 || nx < 3) {
        for (i = 0; i < nx; i++)
            o[i] = r[i];
        return;
    }
    {
        __global const PS_REAL *rkm = r - plane, *rkp = r + plane, *rjm = r - nx, *rjp = r + nx;
        o[0] = r[0];
        for (i = 1; i < nx - 1; i++)
            o[i] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(r[i], rkm[i], rkp[i], rjm[i], rjp[i],
                                                         r[i - 1], r[i + 1], d);
    }
    o[nx - 1] = r[nx - 1];
}
