/*
 * diffusion7's fast path on GPUs: two tuned kernels around its cell update
 * ps_diffusion7_cell (kernels/diffusion7.h), used for diffusion7 in the ij
 * and ijk shapes unless the config asks for the generic skeleton
 * (ps_opencl_generic.cl), against which they are validated bitwise. The row
 * shape (the CPU default) has none: there the generic rows, on explicit
 * vectors in land-sum form and fused by the wavefront, are within 10 %
 * (docs/performance.md, "OpenCL on PoCL"). The plugin compiles this last in
 * the program (after kernels/ and ps_opencl_generic.cl) with
 * -DPS_REAL=float|double -DPS_SUFFIX=_f32|_f64; it includes nothing. Every cell of the output is
 * written: the outermost layer of the box and land are copies, the rest goes
 * through the cell update (which keeps NaN cells and isolated cells unchanged
 * by itself).
 *
 * The arguments are the generic kernels' (in, out, packed parameters, box
 * extents, origin, global grid), so the host treats every kernel alike;
 * diffusion7 reads only D = params[0] and needs neither origin nor global
 * grid (it has no coefficient arrays).
 *
 * ps_fast_diffusion7_ij: a 2-D range over (i, j); each work-item walks its
 * column along k, keeping the k-1, k and k+1 values in registers (each value
 * is loaded once from the k stream instead of three times).
 * ps_fast_diffusion7_ijk: a 3-D range, one work-item per cell.
 */

#define PS_FAST_D7_ARGS                                                                  \
    __global const PS_REAL *restrict in, __global PS_REAL *restrict out,                \
        __global const PS_REAL *restrict params, const uint nz, const uint ny,          \
        const uint nx, const long ok, const long oj, const long oi, const long gz,      \
        const long gy, const long gx

__kernel void ps_fast_diffusion7_ij(PS_FAST_D7_ARGS)
{
    const PS_REAL d = params[0];
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

__kernel void ps_fast_diffusion7_ijk(PS_FAST_D7_ARGS)
{
    const PS_REAL d = params[0];
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
