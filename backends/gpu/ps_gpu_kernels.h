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
 * wrong mapping fails tests/gpu/mock.sh.
 */
struct thread_cell {
    long long i, j, k0;
};
/*
 * Programmatic dependent launch (PSTENCIL_GPU_PDL=1, docs/gpu.md): a kernel
 * launched with the programmatic-stream-serialization attribute may start
 * while the previous kernel of its stream still runs; this waits until that
 * kernel has completed and its writes are visible. Every kernel calls it
 * before its first global memory access (map_thread does, the fused
 * kernels explicitly). Hopper (sm_90) and later only; without the attribute, on
 * older devices, on HIP and in the mock it does nothing.
 */
static __host__ __device__ __forceinline__ void grid_dep_sync(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

static __host__ __device__ __forceinline__ thread_cell map_thread(int kchunk)
{
    grid_dep_sync(); /* before any load or store (PDL) */
    return thread_cell{(long long)blockIdx.x * blockDim.x + threadIdx.x,
                       (long long)blockIdx.y * blockDim.y + threadIdx.y,
                       (long long)blockIdx.z * kchunk};
}

/* ---- the generic kernels ---------------------------------------------------- */

/*
 * Built from a stencil's description alone (kernels/NAME.h: neighbours,
 * radius, scalars, coefficient arrays over axes) around its point function
 * ps_NAME_point: the same neighbour values in the listed order, the same
 * scalars and coefficients, so every cell has the reference's bits.
 *
 * gen_NAME_f32 / gen_NAME_f64, one step per launch: each thread walks its
 * column (j, i) through its chunk of planes keeping the column's values of
 * planes k-R .. k+R in registers (R the radius), so each plane of the
 * column is loaded once per chunk and a neighbour (dk, 0, 0) costs no load;
 * the others are read through the read-only path (the tile's threads share
 * their lines in L1/L2). The scalars, the coefficient arrays over axes
 * without k (constant along the column) and the column's part of the index
 * of the arrays over k are read or computed once per column; an array over
 * k costs one load per cell (the same address for every thread of a plane).
 *
 * gtbF_NAME_f32 / _f64, F = 2 or 4 steps per launch (temporal blocking): a
 * block loads its tile of the box (ps_gpu_gtb_pick in ps_gpu_port.h) grown by
 * F times the stencil's reach along each axis (clipped to the box) into
 * shared memory and steps it F times there: step s computes the cells at
 * least s reaches from the loaded block's edge, which read only cells step
 * s-1 made valid (or the load), so after F steps the tile is exact. Cells
 * within R of a face of the box are kept at every step, as a single step
 * keeps them; a cell outside the box is never read by an updated one.
 */

/* Steps of the description lists (NAME's lists expand them inline). */
#define PS_GPU_GEN_SC(name) sc[q] = params[q]; q++;
/* an array's column part: index at k = 0, stride along k, the value where
 * the array has no k axis (constant along the column) */
#define PS_GPU_GEN_ACOL(name, A)                                                           \
    ab[q] = off + PS_SK_AXIDX(A, 0LL, gj, gi, g.gy, g.gx);                                 \
    ak[q] = ((A)&PS_AXIS_K) ? PS_SK_AXIDX(A, 1LL, 0LL, 0LL, g.gy, g.gx) : 0LL;             \
    av[q] = params[((A)&PS_AXIS_K) ? 0LL : ab[q]];                                         \
    off += PS_SK_AXLEN(A, g.gz, g.gy, g.gx);                                               \
    q++;
#define PS_GPU_GEN_AK(name, A)                                                             \
    ar[q] = ((A)&PS_AXIS_K) ? params[ab[q] + (g.oz + k) * ak[q]] : av[q];                  \
    q++;
/* a neighbour in the column walk: (dk, 0, 0) from the registers, else a load */
#define PS_GPU_GEN_NB(dk, dj, di)                                                          \
    nb[q++] = ((dj) == 0 && (di) == 0)                                                     \
                  ? w[gen_r + (dk)]                                                        \
                  : s[(long long)(dk)*plane + (long long)(dj)*g.nx + (long long)(di)];
/* a neighbour in a shared-memory tile of row pitch EX and plane pitch EP */
#define PS_GPU_GTB_NB(dk, dj, di) nb[q++] = a[x + (dk)*B::EP + (dj)*B::EX + (di)];
#define PS_GPU_GTB_AR(name, A)                                                             \
    ar[q++] = params[off + PS_SK_AXIDX(A, g.oz + k, g.oy + j, g.ox + i, g.gy, g.gx)];        \
    off += PS_SK_AXLEN(A, g.gz, g.gy, g.gx);

/* an unrolling hint for the fixed-length register loops (host compilers unroll alone) */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#  define PS_GPU_UNROLL _Pragma("unroll")
#else
#  define PS_GPU_UNROLL
#endif

/*
 * The column walk of a generic kernel: column (j, i), planes k0 ..
 * k0+kchunk-1 of a stencil of radius R. A column within R of a side face is
 * copied; otherwise w[R + d] holds the column's value at plane k + d
 * (d = -R..R, +0 outside the box: never read), planes within R of the top
 * or bottom face are copied, and every other cell gets cell(src, w, k), the
 * update of the cell at src (plane k).
 */
template <typename T, int R, typename CELL>
static __host__ __device__ __forceinline__ void
gen_walk(const T *__restrict__ in, T *__restrict__ out, const ps_gpu_geom &g, long long i,
         long long j, long long k0, CELL cell)
{
    if (i >= g.nx || j >= g.ny || k0 >= g.nz)
        return;
    const long long k1 = k0 + g.kchunk < g.nz ? k0 + g.kchunk : g.nz;
    const long long plane = g.nx * g.ny;
    const T *__restrict__ src = in + (k0 * g.ny + j) * g.nx + i;
    T *__restrict__ dst = out + (k0 * g.ny + j) * g.nx + i;
    if (i < R || j < R || i >= g.nx - R || j >= g.ny - R) {
        for (long long k = k0; k < k1; k++, src += plane, dst += plane)
            *dst = *src; /* a column near a side face: copied */
        return;
    }
    T w[2 * R + 1];
    PS_GPU_UNROLL
    for (int m = 0; m < 2 * R + 1; m++) {
        const long long kk = k0 - R + m;
        w[m] = kk >= 0 && kk < g.nz ? src[(long long)(m - R) * plane] : (T)0;
    }
    for (long long k = k0; k < k1; k++, src += plane, dst += plane) {
        *dst = k < R || k >= g.nz - R ? w[R] : cell(src, (const T *)w, k);
        PS_GPU_UNROLL
        for (int m = 0; m < 2 * R; m++)
            w[m] = w[m + 1];
        w[2 * R] = k + 1 < k1 && k + 1 + R < g.nz ? src[(long long)(R + 1) * plane] : (T)0;
    }
}

/*
 * The set-up every generic kernel (gen_, gls_) shares. PS_GPU_GEN_HEAD: the
 * thread's column t, the stencil's radius gen_r, the scalar and array
 * registers, and the return of a thread outside the box or when STOP holds
 * (false: never). PS_GPU_GEN_COLUMN: the scalars and the arrays' column parts
 * loaded (PS_GPU_GEN_SC, PS_GPU_GEN_ACOL).
 */
#define PS_GPU_GEN_HEAD(NAME, T, STOP)                                                     \
    enum { gen_r = PS_##NAME##_RADIUS };                                                   \
    const thread_cell t = map_thread(g.kchunk);                                            \
    T sc[PS_STENCIL_NSC(NAME) + 1], av[PS_STENCIL_NAR(NAME) + 1];                          \
    long long ab[PS_STENCIL_NAR(NAME) + 1], ak[PS_STENCIL_NAR(NAME) + 1];                  \
    const long long plane = g.nx * g.ny, gj = g.oy + t.j, gi = g.ox + t.i;                 \
    long long off = PS_STENCIL_NSC(NAME);                                                  \
    int q = 0;                                                                             \
    (void)plane; (void)gj; (void)gi; (void)off; (void)ab; (void)ak; (void)av;              \
    if (t.i >= g.nx || t.j >= g.ny || (STOP))                                              \
        return;
#define PS_GPU_GEN_COLUMN(NAME)                                                            \
    PS_##NAME##_SCALARS(PS_GPU_GEN_SC)                                                     \
    q = 0;                                                                                 \
    PS_##NAME##_ARRAYS(PS_GPU_GEN_ACOL)                                                    \
    (void)q;

/*
 * gen_NAME_f32 / gen_NAME_f64: one step of stencil NAME, in -> out. Grid
 * (ceil(nx/bx), ceil(ny/by), ceil(nz/kchunk)), block (bx, by, 1).
 */
#define PS_GPU_GEN_KERNEL(NAME, T, SFX)                                                    \
    __global__ void __launch_bounds__(1024)                                                \
        gen_##NAME##SFX(const T *__restrict__ in, T *__restrict__ out,                     \
                        const T *__restrict__ params, ps_gpu_geom g)                       \
    {                                                                                      \
        PS_GPU_GEN_HEAD(NAME, T, false)                                                    \
        PS_GPU_GEN_COLUMN(NAME)                                                            \
        gen_walk<T, gen_r>(in, out, g, t.i, t.j, t.k0,                                     \
                           [&](const T *__restrict__ s, const T *w, long long k) {         \
                               T nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1]; \
                               int q = 0;                                                  \
                               (void)s; (void)w; (void)k;                                  \
                               PS_##NAME##_NEIGHBOURS(PS_GPU_GEN_NB)                       \
                               q = 0;                                                      \
                               PS_##NAME##_ARRAYS(PS_GPU_GEN_AK)                           \
                               (void)q;                                                    \
                               return ps_##NAME##_point##SFX(s[0], nb, sc, ar);            \
                           });                                                             \
    }
#define PS_GPU_GEN_F32(NAME) PS_GPU_GEN_KERNEL(NAME, float, _f32)
#define PS_GPU_GEN_F64(NAME) PS_GPU_GEN_KERNEL(NAME, double, _f64)
/* nvcc calls a stencil's deliberately unread running offset and counter (no
 * coefficient arrays) "set but never used", warning 550, despite their (void)
 * casts: silenced for the instantiations only, as for the skeleton above */
#ifdef __NVCC__
#  pragma nv_diag_suppress 550
#endif
PS_STENCIL_LIST(PS_GPU_GEN_F32)
PS_STENCIL_LIST(PS_GPU_GEN_F64)
#ifdef __NVCC__
#  pragma nv_diag_default 550
#endif

/*
 * gls_NAME_f32 / gls_NAME_f64, for a stencil whose PS_NAME_LAND_SUM list
 * names it (kernels/ps_skeleton.h): gen_NAME's step on land held as +0.0,
 * cnt a count byte a cell (core/ps_plugin_land.h: the ocean neighbours in the
 * low 7 bits, 0 for land, made on the host from the neighbour list). An
 * interior cell gets n > 0 ? ps_NAME_sumcount(c, s, n, sc, ar) : c, s the
 * plain sum of its neighbours from +0.0 in their listed order: a land
 * neighbour adds +0.0, which leaves a sum that starts at +0.0 as it is, and
 * n is the masked count, so the value is gen_NAME's bitwise while no ocean
 * cell is NaN. A launch that writes a NaN stores ls[1] (the launch's epoch,
 * advanced by gls_epoch before it) and its input's buffer @p parity in
 * ls[0]; every launch that finds ls[0] set returns at once (and gls_epoch
 * stops advancing), so the host finds the launch and its input intact
 * (ps_gpu_step.cpp, ps_gpu_ls_check) and redoes it masked. That needs
 * ps_NAME_sumcount to give NaN when c or s is NaN (the land-sum contract).
 */
#define PS_GPU_GLS_NB(dk, dj, di)                                                          \
    sum = sum + (((dj) == 0 && (di) == 0)                                                  \
                     ? w[gen_r + (dk)]                                                     \
                     : s[(long long)(dk)*plane + (long long)(dj)*g.nx + (long long)(di)]);
#define PS_GPU_GLS_KERNEL(NAME, T, SFX)                                                    \
    __global__ void __launch_bounds__(1024)                                                \
        gls_##NAME##SFX(const T *__restrict__ in, T *__restrict__ out,                     \
                        const T *__restrict__ params, ps_gpu_geom g,                       \
                        const unsigned char *__restrict__ cnt, unsigned long long *ls,     \
                        int parity)                                                        \
    {                                                                                      \
        bool bad = false;                                                                  \
        PS_GPU_GEN_HEAD(NAME, T, ls[0])                                                    \
        const unsigned long long epoch = ls[1];                                            \
        PS_GPU_GEN_COLUMN(NAME)                                                            \
        gen_walk<T, gen_r>(in, out, g, t.i, t.j, t.k0,                                     \
                           [&](const T *__restrict__ s, const T *w, long long k) {         \
                               T sum = (T)0, ar[PS_STENCIL_NAR(NAME) + 1], v;              \
                               const T n = (T)(int)(cnt[s - in] & 0x7f);                   \
                               int q = 0;                                                  \
                               (void)w; (void)k;                                           \
                               PS_##NAME##_NEIGHBOURS(PS_GPU_GLS_NB)                       \
                               PS_##NAME##_ARRAYS(PS_GPU_GEN_AK)                           \
                               (void)q;                                                    \
                               v = n > (T)0 ? ps_##NAME##_sumcount##SFX(s[0], sum, n, sc, ar) \
                                            : s[0];                                        \
                               bad |= v != v;                                              \
                               return v;                                                   \
                           });                                                             \
        if (bad)                                                                           \
            ls[0] = (epoch << 1) | (unsigned long long)parity;                             \
    }
#define PS_GPU_GLS_F32(NAME) PS_GPU_GLS_KERNEL(NAME, float, _f32)
#define PS_GPU_GLS_F64(NAME) PS_GPU_GLS_KERNEL(NAME, double, _f64)
#define PS_GPU_GLS_OF(NAME) PS_##NAME##_LAND_SUM(PS_GPU_GLS_F32) PS_##NAME##_LAND_SUM(PS_GPU_GLS_F64)
#ifdef __NVCC__
#  pragma nv_diag_suppress 550
#endif
PS_STENCIL_LIST(PS_GPU_GLS_OF)
#ifdef __NVCC__
#  pragma nv_diag_default 550
#endif
/* the epoch of the land-sum launch after it: advanced while no launch wrote a NaN */
__global__ void gls_epoch(unsigned long long *ls)
{
    grid_dep_sync(); /* before any load or store (PDL) */
    if (!ls[0])
        ls[1] = ls[1] + 1;
}

/* The loaded block of a generic temporally blocked kernel: the tile
 * (ps_gpu_gtb_pick) grown by F reaches on each side of each axis. */
template <typename T, int F, int R, int RK, int RJ, int RI> struct gtb_block {
    static constexpr ps_gpu_gtb_dims D = ps_gpu_gtb_pick((int)sizeof(T), F, RK, RJ, RI);
    /* ok: a tile fits; otherwise a one-cell stand-in the context never launches */
    static constexpr bool ok = D.x > 0;
    static constexpr int X = ok ? D.x : 1, Y = ok ? D.y : 1, Z = ok ? D.z : 1;
    static constexpr int HX = ok ? F * RI : 0, HY = ok ? F * RJ : 0, HZ = ok ? F * RK : 0;
    static constexpr int EX = X + 2 * HX, EY = Y + 2 * HY, EZ = Z + 2 * HZ, EP = EX * EY,
                         N = EP * EZ;
    static_assert(2 * N * sizeof(T) <= PS_GPU_TB_SHARED, "gtb: the tile exceeds shared memory");
};

/*
 * Steps S .. F of a loaded block (a: after step S-1, b: for step S; its
 * first cell is (k0, j0, i0) of the box): the cells at least S reaches from
 * the block's edge, each by thread tid of nt, cell(a, x, k, j, i) the update
 * of the cell at index x of a, box cell (k, j, i); a barrier after each step.
 */
template <typename T, typename B, int F, int R, int S, typename CELL>
static __device__ __forceinline__ void
gtb_steps(T *__restrict__ a, T *__restrict__ b, const ps_gpu_geom &g, long long k0,
          long long j0, long long i0, int tid, int nt, CELL cell)
{
    constexpr int SX = S * B::HX / F, SY = S * B::HY / F, SZ = S * B::HZ / F;
    constexpr int RX = B::EX - 2 * SX, RY = B::EY - 2 * SY, RZ = B::EZ - 2 * SZ;
    for (int r = tid; r < RX * RY * RZ; r += nt) {
        const int x = SX + r % RX, y = SY + r / RX % RY, z = SZ + r / (RX * RY);
        const int p = (z * B::EY + y) * B::EX + x;
        const long long i = i0 + x, j = j0 + y, k = k0 + z;
        if (i < 0 || j < 0 || k < 0 || i >= g.nx || j >= g.ny || k >= g.nz)
            continue; /* outside the box */
        b[p] = i < R || j < R || k < R || i >= g.nx - R || j >= g.ny - R || k >= g.nz - R
                   ? a[p] /* within R of a face of the box: kept */
                   : cell((const T *)a, p, k, j, i);
    }
    __syncthreads();
    if constexpr (S < F)
        gtb_steps<T, B, F, R, S + 1>(b, a, g, k0, j0, i0, tid, nt, cell);
}

/*
 * F steps of the box in -> out through the shared buffers buf[2][B::N].
 * Grid (ceil(nx/X), ceil(ny/Y), ceil(nz/Z)) of the tile; any block of at
 * most PS_GPU_TB_THREADS threads (they stride over the loaded block).
 */
template <typename T, typename B, int F, int R, typename CELL>
static __device__ __forceinline__ void gtb_run(T (*buf)[B::N], const T *__restrict__ in,
                                               T *__restrict__ out, const ps_gpu_geom &g,
                                               CELL cell)
{
    const long long i0 = (long long)blockIdx.x * B::X - B::HX,
                    j0 = (long long)blockIdx.y * B::Y - B::HY,
                    k0 = (long long)blockIdx.z * B::Z - B::HZ; /* the loaded block's first cell */
    const int nt = (int)(blockDim.x * blockDim.y * blockDim.z);
    const int tid = (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
    for (int q = tid; q < B::N; q += nt) {
        const long long i = i0 + q % B::EX, j = j0 + q / B::EX % B::EY, k = k0 + q / B::EP;
        buf[0][q] = i >= 0 && j >= 0 && k >= 0 && i < g.nx && j < g.ny && k < g.nz
                        ? in[(k * g.ny + j) * g.nx + i]
                        : (T)0; /* outside the box: never read */
    }
    __syncthreads();
    gtb_steps<T, B, F, R, 1>(buf[0], buf[1], g, k0, j0, i0, tid, nt, cell);
    const T *res = buf[F & 1];
    for (int r = tid; r < B::X * B::Y * B::Z; r += nt) {
        const int x = B::HX + r % B::X, y = B::HY + r / B::X % B::Y,
                  z = B::HZ + r / (B::X * B::Y);
        const long long i = i0 + x, j = j0 + y, k = k0 + z;
        if (i < g.nx && j < g.ny && k < g.nz)
            out[(k * g.ny + j) * g.nx + i] = res[(z * B::EY + y) * B::EX + x];
    }
}

/*
 * gtbF_NAME_f32 / _f64: F steps of stencil NAME in one launch (see the
 * section comment); launched with PS_GPU_KERNEL_LAUNCH_SYNC.
 */
#define PS_GPU_GTB_BLOCK(NAME, T, F)                                                       \
    PS_GPU_KNS::gtb_block<T, F, PS_##NAME##_RADIUS, PS_GPU_RK(NAME), PS_GPU_RJ(NAME),           \
                          PS_GPU_RI(NAME)>
#define PS_GPU_GTB_KERNEL(NAME, T, SFX, F)                                                 \
    __global__ void __launch_bounds__(PS_GPU_TB_THREADS)                                   \
        gtb##F##_##NAME##SFX(const T *__restrict__ in, T *__restrict__ out,                \
                             const T *__restrict__ params, ps_gpu_geom g)                  \
    {                                                                                      \
        typedef PS_GPU_GTB_BLOCK(NAME, T, F) B;                                            \
        __shared__ T buf[2][B::N];                                                         \
        T sc[PS_STENCIL_NSC(NAME) + 1];                                                    \
        int q = 0;                                                                         \
        grid_dep_sync(); /* before any load or store (PDL) */                              \
        PS_##NAME##_SCALARS(PS_GPU_GEN_SC)                                                 \
        (void)q;                                                                           \
        gtb_run<T, B, F, PS_##NAME##_RADIUS>(                                              \
            buf, in, out, g,                                                               \
            [&](const T *__restrict__ a, int x, long long k, long long j, long long i) {   \
                T nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];              \
                long long off = PS_STENCIL_NSC(NAME);                                      \
                int q = 0;                                                                 \
                (void)k; (void)j; (void)i; (void)off;                                      \
                PS_##NAME##_NEIGHBOURS(PS_GPU_GTB_NB)                                      \
                q = 0;                                                                     \
                PS_##NAME##_ARRAYS(PS_GPU_GTB_AR)                                          \
                (void)q;                                                                   \
                return ps_##NAME##_point##SFX(a[x], nb, sc, ar);                           \
            });                                                                            \
    }
#define PS_GPU_GTB_F32(NAME) PS_GPU_GTB_KERNEL(NAME, float, _f32, 2) \
    PS_GPU_GTB_KERNEL(NAME, float, _f32, 4)
#define PS_GPU_GTB_F64(NAME) PS_GPU_GTB_KERNEL(NAME, double, _f64, 2) \
    PS_GPU_GTB_KERNEL(NAME, double, _f64, 4)
#ifdef __NVCC__
#  pragma nv_diag_suppress 550
#endif
PS_STENCIL_LIST(PS_GPU_GTB_F32)
PS_STENCIL_LIST(PS_GPU_GTB_F64)
#ifdef __NVCC__
#  pragma nv_diag_default 550
#endif

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
 * The start every diffusion7 column walk shares: false when the thread has no
 * cell (i, j or k0 outside the box) or its column (j, i) lies on a side face
 * of the box, which is then copied here; otherwise the column's last plane
 * + 1 (k1) and the offset of its cell (k0, j, i) (p0).
 */
template <typename T>
static __host__ __device__ __forceinline__ bool
d7_open(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny, long long nx,
        int kchunk, long long i, long long j, long long k0, long long &k1, long long &p0)
{
    if (i >= nx || j >= ny || k0 >= nz)
        return false;
    k1 = k0 + kchunk < nz ? k0 + kchunk : nz;
    const long long plane = nx * ny;
    p0 = (j * nx + i) + k0 * plane;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        /* a boundary column: the outermost layer is copied (walking pointers,
         * not indices: ptxas then gives d7_step<float> 38 registers, not 52) */
        const T *__restrict__ src = in + p0;
        T *__restrict__ dst = out + p0;
        for (long long k = k0; k < k1; k++, src += plane, dst += plane)
            *dst = *src;
        return false;
    }
    return true;
}

/*
 * The walk of an inner column from plane k0 to k1-1 (src, dst at plane k0):
 * the column's k-1 and k values in registers (km, c), the surface and bottom
 * layers copied, every other cell UPDATE(src, c, km, kp): the update of the
 * cell at src, whose k-neighbours are km and kp (each variant loads its
 * in-plane neighbours from src and calls its cell function).
 */
template <typename T, typename UPDATE>
static __host__ __device__ __forceinline__ void
d7_walk(const T *__restrict__ src, T *__restrict__ dst, long long plane, long long nz,
        long long k0, long long k1, UPDATE update)
{
    /* registers: km = T[k-1], c = T[k] of this column (km unused at k == 0) */
    T km = k0 > 0 ? src[-plane] : (T)0;
    T c = *src;
    PS_GPU_UNROLL4
    for (long long k = k0; k < k1; k++, src += plane, dst += plane) {
        if (k == 0 || k == nz - 1) {
            *dst = c; /* surface and bottom layers are copied */
            km = c;
            if (k + 1 < nz)
                c = src[plane];
            continue;
        }
        const T kp = src[plane];
        *dst = update(src, c, km, kp);
        km = c;
        c = kp;
    }
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
    long long k1, p0;
    if (!d7_open(in, out, nz, ny, nx, kchunk, i, j, k0, k1, p0))
        return;
    d7_walk(in + p0, out + p0, nx * ny, nz, k0, k1,
            [=](const T *__restrict__ s, T c, T km, T kp) {
                return cell(c, km, kp, s[-nx], s[nx], s[-1], s[1], d);
            });
}

/*
 * One Jacobi step of the box in -> out. Grid: (ceil(nx/bx), ceil(ny/by),
 * ceil(nz/kchunk)); block (bx, by, 1). A diffusion7 step kernel template
 * NAME<T>: the thread's cell by map_thread(kchunk), then COLUMN's walk; the
 * remaining arguments are its __launch_bounds__ (d7_step and d7lb_step
 * differ only there).
 */
#define PS_GPU_D7_KERNEL(NAME, COLUMN, ...)                                                \
    template <typename T>                                                                  \
    __global__ void __launch_bounds__(__VA_ARGS__)                                         \
        NAME(const T *__restrict__ in, T *__restrict__ out, long long nz, long long ny,    \
             long long nx, T d, int kchunk)                                                \
    {                                                                                      \
        const thread_cell t = map_thread(kchunk);                                          \
        COLUMN<T>(in, out, nz, ny, nx, d, kchunk, t.i, t.j, t.k0);                         \
    }

PS_GPU_D7_KERNEL(d7_step, d7_column, 1024)

/* ---- register cap (PSTENCIL_GPU_KERNEL=d7lb) ------------------------------ */

/*
 * d7_step compiled with __launch_bounds__(PS_GPU_LB_THREADS, MINB): at most
 * 256 threads per block and MINB resident blocks per SM, so ptxas caps the
 * registers at 65536 / (256 MINB), rounded down to a multiple of 8: 8
 * blocks for float32 (32 registers: full occupancy, d7_step has 38: 75%), 6
 * for float64 (40; d7_step 62: 50%). ptxas may spill to (L1-cached) local
 * memory to meet the cap: -Xptxas -v in the device run records it. The
 * arithmetic is d7_step's (the same column function): only register
 * allocation changes. A launch with more threads per block is refused by
 * the device; the launcher refuses it too (so the mock sees it), and the
 * context selects d7lb only for blocks of at most 256 threads.
 */
template <typename T> struct lb_blocks {
    static constexpr int d7 = sizeof(T) == 4 ? 8 : 6;
};

PS_GPU_D7_KERNEL(d7lb_step, d7_column, PS_GPU_LB_THREADS, lb_blocks<T>::d7)

#undef PS_GPU_D7_KERNEL

/* ---- the copy bound (knob gpu_kernel=copy) ------------------------------- */

/* 16 bytes moved as one (a 128-bit load and store on the device). */
struct alignas(16) gpu_v16 {
    unsigned long long a, b;
};

/*
 * out = in over n16 16-byte units and then tail bytes, a grid-stride loop:
 * a kernel, so the bound is measured on the SMs through the stencil's own
 * launch path (a device-to-device memcpy captured in a graph may run on a
 * copy engine instead, at another speed).
 */
__global__ void __launch_bounds__(1024)
    gpu_copy(const gpu_v16 *__restrict__ in, gpu_v16 *__restrict__ out, long long n16, int tail)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    grid_dep_sync(); /* before any load or store (PDL) */
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < n16; q += stride)
        out[q] = in[q];
    if (blockIdx.x == 0 && (int)threadIdx.x < tail)
        ((unsigned char *)(out + n16))[threadIdx.x] =
            ((const unsigned char *)(in + n16))[threadIdx.x];
}

} /* namespace PS_GPU_KNS */

#endif /* PS_GPU_KERNELS_H */
