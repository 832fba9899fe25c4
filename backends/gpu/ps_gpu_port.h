/**
 * @file ps_gpu_port.h
 * @brief The portability layer that lets one GPU source build for CUDA
 *        (nvcc), HIP (hipcc) and the host-memory mock (the C++ compiler),
 *        and the launch descriptor the host code hands to the kernels.
 *
 * Exactly one of PS_GPU_PORT_CUDA, PS_GPU_PORT_HIP or PS_GPU_PORT_MOCK is
 * defined by the build rule (backends/gpu/local.mk); it selects the header
 * that maps the gpu* names (runtime calls, types, error codes), the
 * backend's name, priority and default block, and PS_GPU_KERNEL_LAUNCH (the
 * <<<grid, block, 0, stream>>> launch, or its emulation in the mock). The
 * shared sources use only those names.
 */
#ifndef PS_GPU_PORT_H
#define PS_GPU_PORT_H

#if defined(PS_GPU_PORT_CUDA) + defined(PS_GPU_PORT_HIP) + defined(PS_GPU_PORT_MOCK) != 1
#  error "define exactly one of PS_GPU_PORT_CUDA, PS_GPU_PORT_HIP, PS_GPU_PORT_MOCK"
#endif

#if defined(PS_GPU_PORT_MOCK)
#  include "ps_gpu_mock.h" /* tests only: a host-memory runtime */
#elif defined(PS_GPU_PORT_HIP)
#  include "ps_gpu_port_hip.h"
#else
#  include "ps_gpu_port_cuda.h"
#endif

/** The precision a kernel is instantiated for, as the launchers see it. */
enum ps_gpu_real { PS_GPU_F32 = 0, PS_GPU_F64 = 1 };

/** Where a box lies: what the kernels index with (all counts in cells). */
typedef struct ps_gpu_geom {
    long long nz, ny, nx; /**< the box's stored cells */
    long long oz, oy, ox; /**< global (k,j,i) of the box's cell (0,0,0) */
    long long gz, gy, gx; /**< the global grid (coefficient arrays are over it) */
    int kchunk;           /**< depth planes each thread block walks through */
} ps_gpu_geom;

/** diffusion7's tuned kernel and its variants (PSTENCIL_GPU_KERNEL, docs/gpu.md). */
enum ps_gpu_variant {
    PS_GPU_V_D7 = 0, /**< d7_step */
    PS_GPU_V_D7LB    /**< d7lb_step: d7_step with a register cap (<= 256 threads) */
};

/** Threads per block of the register-capped variant d7lb (its __launch_bounds__). */
#define PS_GPU_LB_THREADS 256

/** Threads per block of the generic temporally blocked kernels (gtbF_NAME). */
#define PS_GPU_TB_THREADS 256
#ifndef PS_GPU_TB_BX
/** The thread block the launcher gives gtbF_NAME: PS_GPU_TB_BX x PS_GPU_TB_BY
 *  (the mock uses fewer threads: each is a fiber there). */
#  define PS_GPU_TB_BX 32
#  define PS_GPU_TB_BY 8
#endif

/** The static shared memory a block of a temporally blocked kernel may use (bytes). */
#define PS_GPU_TB_SHARED (48 * 1024)

/** The tile of a generic temporally blocked kernel: x, y, z cells (i, j, k) per block. */
struct ps_gpu_gtb_dims {
    int x, y, z;
};

/**
 * The tile of the generic temporally blocked kernel gtb_NAME (ps_gpu_kernels.h)
 * for elements of @p es bytes, @p f fused steps and a stencil reaching
 * @p rk, @p rj, @p ri cells along k, j, i: the loaded block is the tile
 * grown by f * reach cells on each side of each axis, and two buffers of it
 * must fit PS_GPU_TB_SHARED. Among the tiles with x in {32, 64} (rows of
 * whole 128-byte lines; 16 or 8 only where neither fits), y in 1..32 and z
 * in 1..16 (powers of two), the one that writes the most cells per cell
 * loaded (the least halo recomputed), the larger on a tie; {0, 0, 0} when
 * none fits (the context then runs single steps).
 */
static __host__ __device__ constexpr ps_gpu_gtb_dims ps_gpu_gtb_pick(int es, int f, int rk,
                                                                     int rj, int ri)
{
    ps_gpu_gtb_dims best{0, 0, 0};
    long long bu = 0, bl = 1; /* the best's written and loaded cells */
    const int xs[2][2] = {{32, 64}, {16, 8}};
    for (int pass = 0; pass < 2 && !bu; pass++)
        for (int a = 0; a < 2; a++)
            for (int y = 1; y <= 32; y *= 2)
                for (int z = 1; z <= 16; z *= 2) {
                    const int x = xs[pass][a];
                    const long long u = (long long)x * y * z,
                                    l = (long long)(x + 2 * f * ri) * (y + 2 * f * rj) *
                                        (z + 2 * f * rk);
                    if (2 * l * es > PS_GPU_TB_SHARED)
                        continue;
                    if (u * bl > bu * l || (u * bl == bu * l && u > bu)) {
                        best = ps_gpu_gtb_dims{x, y, z};
                        bu = u;
                        bl = l;
                    }
                }
    return best;
}

/** |d|, for the reach of a stencil's neighbour list. */
#define PS_GPU_ABS(d) ((d) < 0 ? -(d) : (d))
/** List step: the reach of a neighbour along k, j or i (max'ed by ps_gpu_max). */
#define PS_GPU_REACH_K(dk, dj, di) , PS_GPU_ABS(dk)
#define PS_GPU_REACH_J(dk, dj, di) , PS_GPU_ABS(dj)
#define PS_GPU_REACH_I(dk, dj, di) , PS_GPU_ABS(di)

/** The largest of its arguments (at least 0). */
template <typename... A> static __host__ __device__ constexpr int ps_gpu_max(A... a)
{
    int m = 0;
    ((m = (int)a > m ? (int)a : m), ...);
    return m;
}

/** The reach of stencil NAME along k, j, i: its largest |dk|, |dj|, |di|. */
#define PS_GPU_RK(NAME) ps_gpu_max(0 PS_##NAME##_NEIGHBOURS(PS_GPU_REACH_K))
#define PS_GPU_RJ(NAME) ps_gpu_max(0 PS_##NAME##_NEIGHBOURS(PS_GPU_REACH_J))
#define PS_GPU_RI(NAME) ps_gpu_max(0 PS_##NAME##_NEIGHBOURS(PS_GPU_REACH_I))

/** One step launch: which kernel, on which buffers, with which geometry. */
typedef struct ps_gpu_launch {
    const void *in;     /**< field at step t (device) */
    void *out;          /**< field at step t+1 (device) */
    const void *params; /**< packed kernel parameters (device; ps_params_pack layout) */
    ps_gpu_geom geom;   /**< box, origin, global grid, k-chunk */
    int bx, by;         /**< thread block: bx along i, by along j */
    int real;           /**< PS_GPU_F32 or PS_GPU_F64 */
    int stencil;        /**< position of the stencil in PS_STENCIL_LIST */
    int tuned;          /**< nonzero: the stencil's tuned kernel (the fast path) */
    int variant;        /**< the tuned kernel's variant (enum ps_gpu_variant) */
    int steps;          /**< steps this launch advances: 1, or the fused count (gtb) */
    int pdl;            /**< nonzero: programmatic dependent launch (CUDA, sm_90+) */
    double coeff;       /**< the tuned diffusion7 kernel's D (params are on the device) */
    const unsigned char *ls_cnt; /**< generic land-sum form: count byte per cell (device); NULL: masked */
    unsigned long long *ls;      /**< its report: [0] epoch and parity of a NaN write, [1] epoch */
    int ls_parity;      /**< the buffer (0, 1) this launch reads, for the report */
    gpuStream_t stream;
} ps_gpu_launch;

/*
 * Launchers of one step, defined by ps_gpu_launch.cpp, which the build
 * compiles twice: with the exact-mode flags (IEEE, no contraction) into
 * ps_gpu_launch_exact, and with contraction and approximate division into
 * ps_gpu_launch_fast.
 */
gpuError_t ps_gpu_launch_exact(const ps_gpu_launch *l);
gpuError_t ps_gpu_launch_fast(const ps_gpu_launch *l);
/** The copy bound (knob gpu_kernel=copy): out = in by a copy kernel through the
 *  same launch path as a step (compiled in the exact unit). */
gpuError_t ps_gpu_launch_copy(const ps_gpu_launch *l);

#endif /* PS_GPU_PORT_H */
