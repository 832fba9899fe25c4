/**
 * @file ps_gpu_kernels.h
 * @brief The GPU step kernel shared by the cuda and hip plugins, built from
 *        the one cell-update definition in kernels/diffusion7.h.
 *
 * Include once per translation unit after defining
 *   PS_GPU_KNS          a namespace for this unit's kernels (ps_exact, ps_fast),
 *                       so the exact and fast instantiations never merge;
 *   PS_GPU_LAUNCH_NAME  the launcher to define (ps_gpu_launch_exact/_fast).
 * The unit's compiler flags decide the arithmetic: the exact unit is built
 * with nvcc --fmad=false -prec-div=true (hipcc -ffp-contract=off), the fast
 * unit with contraction and approximate division.
 *
 * Design (docs/gpu.md): 2.5-D blocking. A thread block covers a (j,i) tile,
 * threadIdx.x along i (coalesced rows), and streams along k through a chunk
 * of kchunk planes. Each thread keeps its column's k-1, k and k+1 values in
 * registers, so each plane is read from device memory once per chunk; the
 * j+-1 and i+-1 neighbours are read through the read-only data path and are
 * served by L1/L2 since the neighbouring threads of the tile load the same
 * lines. The outermost layer of the box is copied; every output cell is
 * written exactly once.
 */
#ifndef PS_GPU_KERNELS_H
#define PS_GPU_KERNELS_H

#include "ps_gpu_port.h"

#ifndef PS_GPU_KNS
#  error "define PS_GPU_KNS (kernel namespace) before including ps_gpu_kernels.h"
#endif
#ifndef PS_GPU_LAUNCH_NAME
#  error "define PS_GPU_LAUNCH_NAME before including ps_gpu_kernels.h"
#endif

#define PS_REAL float
#define PS_SUFFIX _f32
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX
#define PS_REAL double
#define PS_SUFFIX _f64
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX

namespace PS_GPU_KNS {

static __host__ __device__ __forceinline__ float cell(float c, float km, float kp, float jm, float jp,
                                             float im, float ip, float d)
{
    return ps_diffusion7_cell_f32(c, km, kp, jm, jp, im, ip, d);
}

static __host__ __device__ __forceinline__ double cell(double c, double km, double kp, double jm,
                                              double jp, double im, double ip, double d)
{
    return ps_diffusion7_cell_f64(c, km, kp, jm, jp, im, ip, d);
}

/*
 * The work of one thread: column (j, i), planes k0 .. k0+kchunk-1. A host
 * function too, so tests/test_gpu_emulate.cu can run every thread of a
 * launch on the CPU (the threads share nothing, so that is exact).
 */
template <typename T>
static __host__ __device__ __forceinline__ void
d7_column(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
          long long nx, T d, int kchunk, long long i, long long j, long long k0)
{
    long long k1, k;
    if (i >= nx || j >= ny || k0 >= nz)
        return;
    k1 = k0 + kchunk < nz ? k0 + kchunk : nz;
    const long long plane = nx * ny;
    const T *__restrict__ src = in + (j * nx + i) + k0 * plane;
    T *__restrict__ dst = out + (j * nx + i) + k0 * plane;

    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        /* a boundary column: the outermost layer is copied */
        for (k = k0; k < k1; k++, src += plane, dst += plane)
            *dst = *src;
        return;
    }
    /* registers: km = T[k-1], c = T[k] of this column (km unused at k == 0) */
    T km = k0 > 0 ? src[-plane] : (T)0;
    T c = *src;
#pragma unroll 4
    for (k = k0; k < k1; k++, src += plane, dst += plane) {
        if (k == 0 || k == nz - 1) {
            *dst = c; /* surface and bottom layers are copied */
            km = c;
            if (k + 1 < nz)
                c = src[plane];
            continue;
        }
        const T kp = src[plane];
        const T jm = src[-nx];
        const T jp = src[nx];
        const T im = src[-1];
        const T ip = src[1];
        *dst = cell(c, km, kp, jm, jp, im, ip, d);
        km = c;
        c = kp;
    }
}

#ifndef PS_GPU_MOCK
/*
 * One Jacobi step of the box in -> out. Grid: (ceil(nx/bx), ceil(ny/by),
 * ceil(nz/kchunk)); block (bx, by, 1).
 */
template <typename T>
__global__ void __launch_bounds__(1024)
    d7_step(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
            long long nx, T d, int kchunk)
{
    d7_column<T>(in, out, nz, ny, nx, d, kchunk,
                 (long long)blockIdx.x * blockDim.x + threadIdx.x,
                 (long long)blockIdx.y * blockDim.y + threadIdx.y,
                 (long long)blockIdx.z * kchunk);
}

#endif /* !PS_GPU_MOCK */

} /* namespace PS_GPU_KNS */

#ifdef PS_GPU_MOCK
/* tests: every thread of the launch on the host, in stream order */
gpuError_t PS_GPU_LAUNCH_NAME(const ps_gpu_launch *l)
{
    const ps_gpu_launch g = *l;
    return ps_mock_submit(l->stream, [g]() {
        long long gx = (g.nx + g.bx - 1) / g.bx, gy = (g.ny + g.by - 1) / g.by;
        long long gz = (g.nz + g.kchunk - 1) / g.kchunk, x, y, z;
        int tx, ty;
        for (z = 0; z < gz; z++)
            for (y = 0; y < gy; y++)
                for (x = 0; x < gx; x++)
                    for (ty = 0; ty < g.by; ty++)
                        for (tx = 0; tx < g.bx; tx++) {
                            if (g.real == PS_GPU_F64)
                                PS_GPU_KNS::d7_column<double>(
                                    (const double *)g.in, (double *)g.out, g.nz, g.ny, g.nx,
                                    g.coeff, g.kchunk, x * g.bx + tx, y * g.by + ty, z * g.kchunk);
                            else
                                PS_GPU_KNS::d7_column<float>(
                                    (const float *)g.in, (float *)g.out, g.nz, g.ny, g.nx,
                                    (float)g.coeff, g.kchunk, x * g.bx + tx, y * g.by + ty,
                                    z * g.kchunk);
                        }
    });
}
#else

gpuError_t PS_GPU_LAUNCH_NAME(const ps_gpu_launch *l)
{
    dim3 block((unsigned)l->bx, (unsigned)l->by, 1);
    dim3 grid((unsigned)((l->nx + l->bx - 1) / l->bx), (unsigned)((l->ny + l->by - 1) / l->by),
              (unsigned)((l->nz + l->kchunk - 1) / l->kchunk));
    if (l->real == PS_GPU_F64)
        PS_GPU_KNS::d7_step<double><<<grid, block, 0, l->stream>>>(
            (const double *)l->in, (double *)l->out, l->nz, l->ny, l->nx, l->coeff, l->kchunk);
    else
        PS_GPU_KNS::d7_step<float><<<grid, block, 0, l->stream>>>(
            (const float *)l->in, (float *)l->out, l->nz, l->ny, l->nx, (float)l->coeff,
            l->kchunk);
    return gpuGetLastError();
}
#endif /* PS_GPU_MOCK */

#endif /* PS_GPU_KERNELS_H */
