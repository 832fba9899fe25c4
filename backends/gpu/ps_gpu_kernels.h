/**
 * @file ps_gpu_kernels.h
 * @brief The GPU step kernels of the cuda, hip and gpumock plugins: a generic
 *        kernel for every stencil of kernels/ps_stencils.h in both
 *        precisions, and diffusion7's tuned 2.5-D kernel (its fast path).
 *
 * Include once per translation unit after defining PS_GPU_KNS, a namespace
 * for this unit's kernels (ps_exact, ps_fast), so the exact and fast
 * instantiations never merge. The unit's compiler flags decide the
 * arithmetic (backends/gpu/local.mk): exact with nvcc --fmad=false
 * -prec-div=true (hipcc -ffp-contract=off), fast with contraction and
 * approximate division.
 *
 * Both kernels use one launch geometry (docs/gpu.md): a thread block covers
 * a (j, i) tile, threadIdx.x along i (coalesced rows), blockIdx.z a chunk of
 * kchunk planes along k; each thread walks its column (j, i) through the
 * chunk. Every output cell of the box is written exactly once: cells closer
 * than the stencil's radius to a face of the box are copied, the others get
 * the update.
 *
 * Generic kernel: ps_NAME_apply (kernels/ps_skeleton.h) gathers the
 * neighbours in the order the stencil lists them, its scalars and its
 * coefficient arrays at the cell's global coordinates (box origin + local)
 * from the packed parameter block in device memory, and calls the stencil's
 * cell function. Nothing here names a stencil: every entry of the list gets
 * a kernel gen_NAME_f32 / gen_NAME_f64.
 *
 * Tuned kernel (diffusion7): each thread keeps its column's k-1, k and k+1
 * values in registers, so each plane is read from device memory once per
 * chunk; the j+-1 and i+-1 neighbours are read through the read-only data
 * path and served by L1/L2 since the tile's threads load the same lines.
 */
#ifndef PS_GPU_KERNELS_H
#define PS_GPU_KERNELS_H

#include "ps_gpu_port.h"

#include <float.h>

#ifndef PS_GPU_KNS
#  error "define PS_GPU_KNS (kernel namespace) before including ps_gpu_kernels.h"
#endif

/* every stencil's cell function and generic point update, in both precisions
 * (nvcc calls the skeleton's deliberately unread running offset of a stencil
 * without coefficient arrays "set but never used", warning 550: silenced here
 * only; gcc -Wall -Wextra and clang accept the (void) cast that marks it) */
#ifdef __NVCC__
#  pragma nv_diag_suppress 550
#endif
#include "ps_skeleton_all.h"
#ifdef __NVCC__
#  pragma nv_diag_default 550
#endif

/* an unrolling hint for the device passes (host compilers know no such pragma) */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#  define PS_GPU_UNROLL4 _Pragma("unroll 4")
#else
#  define PS_GPU_UNROLL4
#endif

namespace PS_GPU_KNS {

/* ---- the thread-to-cell mapping ------------------------------------------- */

/*
 * The column (j, i) and first plane k0 of the calling thread: the one mapping
 * of every kernel here (grid (ceil(nx/bx), ceil(ny/by), ceil(nz/kchunk)),
 * block (bx, by, 1), built by ps_gpu_launch.cpp). The mock runtime sets the
 * built-in variables as a device does and runs these very kernels, so a
 * wrong mapping fails tests/gpu_mock.sh.
 */
struct thread_cell {
    long long i, j, k0;
};
static __host__ __device__ __forceinline__ thread_cell map_thread(int kchunk, int ci = 1)
{
    /* ci: cells per thread along i (the launcher divides grid.x by it); the
     * thread's first cell, its others at i+1 .. i+ci-1 */
    return thread_cell{((long long)blockIdx.x * blockDim.x + threadIdx.x) * ci,
                       (long long)blockIdx.y * blockDim.y + threadIdx.y,
                       (long long)blockIdx.z * kchunk};
}

/* ---- the generic kernel ---------------------------------------------------- */

/* The signature of ps_NAME_apply<SUFFIX> (kernels/ps_skeleton.h). */
template <typename T>
using apply_fn = T (*)(const T *, long, long, long, const T *, long, long, long, long, long,
                       long);

/*
 * The work of one thread of a generic kernel: column (j, i), planes k0 ..
 * k0+kchunk-1. R is the stencil's radius, APPLY its point update.
 */
template <typename T, int R, apply_fn<T> APPLY>
static __host__ __device__ __forceinline__ void
gen_column(const T *__restrict__ in, T *__restrict__ out, const T *__restrict__ params,
           const ps_gpu_geom &g, long long i, long long j, long long k0)
{
    long long k, k1, p;
    if (i >= g.nx || j >= g.ny || k0 >= g.nz)
        return;
    k1 = k0 + g.kchunk < g.nz ? k0 + g.kchunk : g.nz;
    const long long plane = g.nx * g.ny;
    p = (k0 * g.ny + j) * g.nx + i;
    if (i < R || j < R || i >= g.nx - R || j >= g.ny - R) {
        for (k = k0; k < k1; k++, p += plane) /* a column near a side face: copied */
            out[p] = in[p];
        return;
    }
    for (k = k0; k < k1; k++, p += plane)
        out[p] = k < R || k >= g.nz - R
                     ? in[p] /* near the top or bottom face: copied */
                     : APPLY(in, (long)p, (long)plane, (long)g.nx, params, (long)(g.oz + k),
                             (long)(g.oy + j), (long)(g.ox + i), (long)g.gz, (long)g.gy,
                             (long)g.gx);
}

/*
 * gen_NAME_f32 / gen_NAME_f64: one step of stencil NAME, in -> out. Grid
 * (ceil(nx/bx), ceil(ny/by), ceil(nz/kchunk)), block (bx, by, 1).
 */
#define PS_GPU_GEN_KERNEL(NAME, T, SFX)                                                    \
    __global__ void __launch_bounds__(1024)                                                \
        gen_##NAME##SFX(const T *__restrict__ in, T *__restrict__ out,                     \
                        const T *__restrict__ params, ps_gpu_geom g)                       \
    {                                                                                      \
        const thread_cell t = map_thread(g.kchunk);                                        \
        gen_column<T, PS_##NAME##_RADIUS, ps_##NAME##_apply##SFX>(in, out, params, g, t.i, \
                                                                   t.j, t.k0);             \
    }
#define PS_GPU_GEN_F32(NAME) PS_GPU_GEN_KERNEL(NAME, float, _f32)
#define PS_GPU_GEN_F64(NAME) PS_GPU_GEN_KERNEL(NAME, double, _f64)
PS_STENCIL_LIST(PS_GPU_GEN_F32)
PS_STENCIL_LIST(PS_GPU_GEN_F64)

/* ---- diffusion7's tuned kernel (the fast path) --------------------------- */

static __host__ __device__ __forceinline__ float cell(float c, float km, float kp, float jm,
                                                      float jp, float im, float ip, float d)
{
    return ps_diffusion7_cell_f32(c, km, kp, jm, jp, im, ip, d);
}

static __host__ __device__ __forceinline__ double cell(double c, double km, double kp,
                                                       double jm, double jp, double im,
                                                       double ip, double d)
{
    return ps_diffusion7_cell_f64(c, km, kp, jm, jp, im, ip, d);
}

static __host__ __device__ __forceinline__ float ps_update(float c, float s, float n, float d)
{
    return ps_diffusion7_update_f32(c, s, n, d);
}

static __host__ __device__ __forceinline__ double ps_update(double c, double s, double n,
                                                            double d)
{
    return ps_diffusion7_update_f64(c, s, n, d);
}

/*
 * The work of one thread: column (j, i), planes k0 .. k0+kchunk-1. A host
 * function too, so tests/gpu/test_gpu_emulate.cu can run every thread of a
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
    PS_GPU_UNROLL4
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

/*
 * One Jacobi step of the box in -> out. Grid: (ceil(nx/bx), ceil(ny/by),
 * ceil(nz/kchunk)); block (bx, by, 1).
 */
template <typename T>
__global__ void __launch_bounds__(1024)
    d7_step(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
            long long nx, T d, int kchunk)
{
    const thread_cell t = map_thread(kchunk);
    d7_column<T>(in, out, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);
}

/* ---- diffusion7's prefetching variant (PSTENCIL_GPU_KERNEL=d7pf) ---------- */

/*
 * The cell update with an integer neighbour count: s is summed exactly as
 * ps_diffusion7_cell does (same order, +0.0 for land), the count is an int
 * converted once; bitwise the same since n <= 6 is exact in any format.
 */
template <typename T>
static __host__ __device__ __forceinline__ T cell_icount(T c, T km, T kp, T jm, T jp, T im,
                                                         T ip, T d);
template <>
__host__ __device__ __forceinline__ float cell_icount(float c, float km, float kp, float jm,
                                                      float jp, float im, float ip, float d)
{
    float s = 0.0f;
    int n = (km == km) + (kp == kp) + (jm == jm) + (jp == jp) + (im == im) + (ip == ip);
    s = s + (km == km ? km : 0.0f);
    s = s + (kp == kp ? kp : 0.0f);
    s = s + (jm == jm ? jm : 0.0f);
    s = s + (jp == jp ? jp : 0.0f);
    s = s + (im == im ? im : 0.0f);
    s = s + (ip == ip ? ip : 0.0f);
    const float r = ps_diffusion7_update_f32(c, s, (float)n, d);
    return (c != c || n == 0) ? c : r;
}
template <>
__host__ __device__ __forceinline__ double cell_icount(double c, double km, double kp,
                                                       double jm, double jp, double im,
                                                       double ip, double d)
{
    double s = 0.0;
    int n = (km == km) + (kp == kp) + (jm == jm) + (jp == jp) + (im == im) + (ip == ip);
    s = s + (km == km ? km : 0.0);
    s = s + (kp == kp ? kp : 0.0);
    s = s + (jm == jm ? jm : 0.0);
    s = s + (jp == jp ? jp : 0.0);
    s = s + (im == im ? im : 0.0);
    s = s + (ip == ip ? ip : 0.0);
    const double r = ps_diffusion7_update_f64(c, s, (double)n, d);
    return (c != c || n == 0) ? c : r;
}

/*
 * d7_column with the next plane's five loads issued before this plane's
 * update (register double buffering: two planes of loads in flight per
 * warp), in-plane offsets as 32-bit ints from a 64-bit column base (the
 * context refuses this variant for nx > INT_MAX), and the integer count.
 */
template <typename T>
static __host__ __device__ __forceinline__ void
d7pf_column(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
            long long nx, T d, int kchunk, long long i, long long j, long long k0)
{
    long long k1, k;
    if (i >= nx || j >= ny || k0 >= nz)
        return;
    k1 = k0 + kchunk < nz ? k0 + kchunk : nz;
    const long long plane = nx * ny;
    const int inx = (int)nx;
    const T *__restrict__ src = in + (j * nx + i) + k0 * plane;
    T *__restrict__ dst = out + (j * nx + i) + k0 * plane;

    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        for (k = k0; k < k1; k++, src += plane, dst += plane)
            *dst = *src;
        return;
    }
    T km = k0 > 0 ? src[-plane] : (T)0;
    T c = *src;
    T kp = k0 + 1 < nz ? src[plane] : (T)0;
    T jm = src[-inx], jp = src[inx], im = src[-1], ip = src[1];
    for (k = k0; k < k1; k++, src += plane, dst += plane) {
        T njm = (T)0, njp = (T)0, nim = (T)0, nip = (T)0, nkp = (T)0;
        const bool more = k + 1 < k1;
        if (more) { /* the next plane's loads, before this plane's arithmetic */
            const T *__restrict__ nx1 = src + plane;
            njm = nx1[-inx];
            njp = nx1[inx];
            nim = nx1[-1];
            nip = nx1[1];
            if (k + 2 < nz)
                nkp = nx1[plane];
        }
        *dst = k == 0 || k == nz - 1 ? c : cell_icount(c, km, kp, jm, jp, im, ip, d);
        km = c;
        c = kp;
        kp = nkp;
        jm = njm;
        jp = njp;
        im = nim;
        ip = nip;
    }
}

/* One step with d7pf_column; same grid and block as d7_step. */
template <typename T>
__global__ void __launch_bounds__(1024)
    d7pf_step(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
              long long nx, T d, int kchunk)
{
    const thread_cell t = map_thread(kchunk);
    d7pf_column<T>(in, out, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);
}

/* ---- register caps (PSTENCIL_GPU_KERNEL=d7lb, d7pflb) ---------------------- */

/*
 * d7_step and d7pf_step compiled with __launch_bounds__(PS_GPU_LB_THREADS,
 * MINB): at most 256 threads per block and MINB resident blocks per SM, so
 * ptxas caps the registers at 65536 / (256 MINB), rounded down to a
 * multiple of 8. d7lb: 8 blocks for float32 (32 registers: full occupancy,
 * d7_step has 38: 75%), 6 for float64 (40; d7_step 54: 50%). d7pflb: 6
 * for float32 (40; d7pf_step has 60: 50%), 5 for float64 (48). ptxas may
 * spill to (L1-cached) local memory to meet a cap: -Xptxas -v in the
 * device run records it. The arithmetic is the uncapped kernels' (the same
 * column functions): only register allocation changes. A launch with more
 * threads per block is refused by the device; the launcher refuses it too
 * (so the mock sees it), and the context selects these variants only for
 * blocks of at most 256 threads.
 */
template <typename T> struct lb_blocks {
    static constexpr int d7 = sizeof(T) == 4 ? 8 : 6;
    static constexpr int d7pf = sizeof(T) == 4 ? 6 : 5;
};

template <typename T>
__global__ void __launch_bounds__(PS_GPU_LB_THREADS, lb_blocks<T>::d7)
    d7lb_step(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
              long long nx, T d, int kchunk)
{
    const thread_cell t = map_thread(kchunk);
    d7_column<T>(in, out, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);
}

template <typename T>
__global__ void __launch_bounds__(PS_GPU_LB_THREADS, lb_blocks<T>::d7pf)
    d7pflb_step(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
                long long nx, T d, int kchunk)
{
    const thread_cell t = map_thread(kchunk);
    d7pf_column<T>(in, out, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);
}

/* ---- two cells per thread along i (PSTENCIL_GPU_KERNEL=d7x2) ------------- */

/*
 * d7_column for the two cells (j, i) and (j, i+1) of one thread: each
 * plane's row values i-1 .. i+2 are four loads instead of six (each cell's
 * value is the other's i-neighbour), and two independent updates give the
 * scheduler twice the loads in flight per thread. Each cell is updated
 * (ps_diffusion7_cell, the same call as d7_column) or copied on its own:
 * cell i+1 may lie outside the box (odd nx), and either may be on the i
 * faces. Grid x: ceil(nx / (2 bx)).
 */
template <typename T>
static __host__ __device__ __forceinline__ void
d7x2_column(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
            long long nx, T d, int kchunk, long long i, long long j, long long k0)
{
    long long k1, k;
    if (i >= nx || j >= ny || k0 >= nz)
        return;
    k1 = k0 + kchunk < nz ? k0 + kchunk : nz;
    const long long plane = nx * ny;
    const bool two = i + 1 < nx;               /* the second cell exists */
    const bool in0 = i > 0 && i < nx - 1;      /* cell i is inside along i */
    const bool in1 = two && i + 1 < nx - 1;    /* cell i+1 is inside along i */
    const T *__restrict__ src = in + (j * nx + i) + k0 * plane;
    T *__restrict__ dst = out + (j * nx + i) + k0 * plane;

    if (j == 0 || j == ny - 1 || (!in0 && !in1)) {
        for (k = k0; k < k1; k++, src += plane, dst += plane) {
            dst[0] = src[0];
            if (two)
                dst[1] = src[1];
        }
        return;
    }
    T km0 = k0 > 0 ? src[-plane] : (T)0, km1 = two && k0 > 0 ? src[1 - plane] : (T)0;
    T c0 = src[0], c1 = two ? src[1] : (T)0;
    for (k = k0; k < k1; k++, src += plane, dst += plane) {
        if (k == 0 || k == nz - 1) { /* surface and bottom layers are copied */
            dst[0] = c0;
            if (two)
                dst[1] = c1;
            km0 = c0;
            km1 = c1;
            if (k + 1 < nz) {
                c0 = src[plane];
                c1 = two ? src[plane + 1] : (T)0;
            }
            continue;
        }
        const T kp0 = src[plane], kp1 = two ? src[plane + 1] : (T)0;
        const T jm0 = src[-nx], jp0 = src[nx];
        const T jm1 = two ? src[1 - nx] : (T)0, jp1 = two ? src[1 + nx] : (T)0;
        const T im0 = in0 ? src[-1] : (T)0; /* the row's i-1 and i+2 */
        const T ip1 = in1 ? src[2] : (T)0;
        dst[0] = in0 ? cell(c0, km0, kp0, jm0, jp0, im0, c1, d) : c0;
        if (two)
            dst[1] = in1 ? cell(c1, km1, kp1, jm1, jp1, c0, ip1, d) : c1;
        km0 = c0;
        km1 = c1;
        c0 = kp0;
        c1 = kp1;
    }
}

/* One step, two cells per thread along i: grid (ceil(nx/(2 bx)), ceil(ny/by),
 * ceil(nz/kchunk)), block (bx, by, 1). */
template <typename T>
__global__ void __launch_bounds__(1024)
    d7x2_step(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,
              long long nx, T d, int kchunk)
{
    const thread_cell t = map_thread(kchunk, 2);
    d7x2_column<T>(in, out, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);
}

/* ---- zero-land (PSTENCIL_GPU_KERNEL=d7zl) --------------------------------- */

/*
 * The device fields hold land as +0.0 and a byte per cell holds
 * PS_GPU_ZL_LAND (land) or the number of ocean neighbours (ocean), so the
 * update sums the six neighbours without a NaN test and takes the count
 * from one byte load: 9 bytes moved per cell instead of 8, six compares and
 * selects fewer. Bitwise the reference (backends/openmp/ps_openmp_zeroland.c
 * has the argument): ps_diffusion7_cell adds +0.0 for a land neighbour, and
 * so does this sum (land is +0.0); the count is the masked count, exact as
 * a small integer; the update is the same ps_diffusion7_update; land and
 * isolated cells (count 0) keep their value; land is told from the byte,
 * never from the value (ocean -0.0 stays ocean). The mask must not change
 * during the steps, i.e. no ocean cell may turn NaN through overflow: with
 * 0 <= D <= 1 (the context's condition for this variant) an update is a
 * convex combination up to rounding, so that holds while every uploaded
 * ocean value is finite with |v| <= MAX/64. zl_mark flags any other value
 * in *bad, and while it is set the kernel masks as the reference does
 * (neighbour land if its byte says so or it is NaN): exact either way,
 * without the host ever reading the flag.
 */
template <typename T> struct zl_lim {
    static constexpr T v = sizeof(T) == 4 ? (T)(FLT_MAX / 64) : (T)(DBL_MAX / 64);
};

/* The cell of region r a thread owns: (k0 + k, j, i) for each k of the region. */
static __host__ __device__ __forceinline__ long long zl_at(const ps_gpu_zl &z, long long k,
                                                          long long j, long long i)
{
    return ((z.start[0] + k) * z.ny + z.start[1] + j) * z.nx + z.start[2] + i;
}

/* MARK: NaN -> +0.0 (the NaN kept in land[]), the land byte; big values flag *bad. */
template <typename T> __global__ void __launch_bounds__(1024) zl_mark(ps_gpu_zl z)
{
    const thread_cell t = map_thread(1);
    T *f = (T *)z.field, *land = (T *)z.land;
    if (t.i >= z.count[2] || t.j >= z.count[1])
        return;
    for (long long k = 0; k < z.count[0]; k++) {
        const long long p = zl_at(z, k, t.j, t.i);
        const T v = f[p];
        if (v != v) {
            land[p] = v;
            f[p] = (T)0;
            z.cnt[p] = PS_GPU_ZL_LAND;
        } else {
            z.cnt[p] = 0;
            if (!(v <= zl_lim<T>::v && v >= -zl_lim<T>::v))
                *z.bad = 1;
        }
    }
}

/* COUNT: each ocean cell's number of ocean neighbours inside the box (cells
 * on the box's faces are copied, never updated, so their count is unused).
 * A thread writes its own cells' bytes and reads the land bit of others,
 * which this kernel never changes. */
__global__ void __launch_bounds__(1024) zl_count(ps_gpu_zl z)
{
    const thread_cell t = map_thread(1);
    if (t.i >= z.count[2] || t.j >= z.count[1])
        return;
    const long long plane = z.ny * z.nx;
    const long long i = z.start[2] + t.i, j = z.start[1] + t.j;
    for (long long k = 0; k < z.count[0]; k++) {
        const long long p = zl_at(z, k, t.j, t.i), kk = z.start[0] + k;
        if (z.cnt[p] & PS_GPU_ZL_LAND)
            continue;
        int n = 0;
        n += kk > 0 && !(z.cnt[p - plane] & PS_GPU_ZL_LAND);
        n += kk + 1 < z.nz && !(z.cnt[p + plane] & PS_GPU_ZL_LAND);
        n += j > 0 && !(z.cnt[p - z.nx] & PS_GPU_ZL_LAND);
        n += j + 1 < z.ny && !(z.cnt[p + z.nx] & PS_GPU_ZL_LAND);
        n += i > 0 && !(z.cnt[p - 1] & PS_GPU_ZL_LAND);
        n += i + 1 < z.nx && !(z.cnt[p + 1] & PS_GPU_ZL_LAND);
        z.cnt[p] = (unsigned char)n;
    }
}

/* RESTORE: other = field, with each land cell's original NaN put back. */
template <typename T> __global__ void __launch_bounds__(1024) zl_restore(ps_gpu_zl z)
{
    const thread_cell t = map_thread(1);
    const T *f = (const T *)z.field, *land = (const T *)z.land;
    T *o = (T *)z.other;
    if (t.i >= z.count[2] || t.j >= z.count[1])
        return;
    for (long long k = 0; k < z.count[0]; k++) {
        const long long p = zl_at(z, k, t.j, t.i);
        o[p] = z.cnt[p] & PS_GPU_ZL_LAND ? land[p] : f[p];
    }
}

/* The reference's masked accumulation of one neighbour (the fallback). */
#define PS_GPU_ZL_ACC(v, b)                                                                \
    do {                                                                                   \
        const bool ocean_ = !((b) & PS_GPU_ZL_LAND) && (v) == (v);                          \
        s = s + (ocean_ ? (v) : (T)0);                                                     \
        n = n + (ocean_ ? (T)1 : (T)0);                                                    \
    } while (0)

/* One interior cell, zero-land: the fast sum, or (bad) the reference's masking. */
template <typename T>
static __host__ __device__ __forceinline__ T zl_cell(T c, T km, T kp, T jm, T jp, T im, T ip,
                                                     T d, const unsigned char *__restrict__ b,
                                                     long long plane, long long nx, bool bad)
{
    const unsigned char own = b[0];
    if (own & PS_GPU_ZL_LAND)
        return c; /* land: +0.0 here, its NaN back at download */
    if (!bad) {
        T s = (T)0;
        s = s + km; /* land neighbours are +0.0: what the masked sum adds too */
        s = s + kp;
        s = s + jm;
        s = s + jp;
        s = s + im;
        s = s + ip;
        const int n = own & PS_GPU_ZL_COUNT;
        return n == 0 ? c : ps_update(c, s, (T)n, d);
    }
    T s = (T)0, n = (T)0;
    PS_GPU_ZL_ACC(km, b[-plane]);
    PS_GPU_ZL_ACC(kp, b[plane]);
    PS_GPU_ZL_ACC(jm, b[-nx]);
    PS_GPU_ZL_ACC(jp, b[nx]);
    PS_GPU_ZL_ACC(im, b[-1]);
    PS_GPU_ZL_ACC(ip, b[1]);
    const T r = ps_update(c, s, n, d);
    return (c != c || n == (T)0) ? c : r;
}
#undef PS_GPU_ZL_ACC

/* d7_column over zero-land fields: the same walk, zl_cell for the update. */
template <typename T>
static __host__ __device__ __forceinline__ void
d7zl_column(const T *__restrict__ in, T *__restrict__ out,
            const unsigned char *__restrict__ cnt, bool bad, long long nz, long long ny,
            long long nx, T d, int kchunk, long long i, long long j, long long k0)
{
    long long k1, k;
    if (i >= nx || j >= ny || k0 >= nz)
        return;
    k1 = k0 + kchunk < nz ? k0 + kchunk : nz;
    const long long plane = nx * ny;
    const long long p0 = (j * nx + i) + k0 * plane;
    const T *__restrict__ src = in + p0;
    T *__restrict__ dst = out + p0;
    const unsigned char *__restrict__ b = cnt + p0;

    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        for (k = k0; k < k1; k++, src += plane, dst += plane)
            *dst = *src;
        return;
    }
    T km = k0 > 0 ? src[-plane] : (T)0;
    T c = *src;
    for (k = k0; k < k1; k++, src += plane, dst += plane, b += plane) {
        if (k == 0 || k == nz - 1) {
            *dst = c;
            km = c;
            if (k + 1 < nz)
                c = src[plane];
            continue;
        }
        const T kp = src[plane];
        *dst = zl_cell(c, km, kp, src[-nx], src[nx], src[-1], src[1], d, b, plane, nx, bad);
        km = c;
        c = kp;
    }
}

/* One step on zero-land fields; same grid and block as d7_step. */
template <typename T>
__global__ void __launch_bounds__(1024)
    d7zl_step(const T *__restrict__ in, T *__restrict__ out,
              const unsigned char *__restrict__ cnt, const int *__restrict__ bad,
              long long nz, long long ny, long long nx, T d, int kchunk)
{
    const thread_cell t = map_thread(kchunk);
    d7zl_column<T>(in, out, cnt, *bad != 0, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);
}

} /* namespace PS_GPU_KNS */

#endif /* PS_GPU_KERNELS_H */
