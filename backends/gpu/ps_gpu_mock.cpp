/*
 * The "gpumock" test plugin: the shared GPU host code and kernel body over
 * the host-memory runtime of ps_gpu_mock.h, with tiny staging buffers and a
 * short profiling ring so the chunked-copy and harvesting paths run on small
 * grids. Built for `make check` only; never installed.
 */
#include "config.h"
#define PS_GPU_MOCK 1
#define PS_GPU_STAGE_BYTES ((size_t)4096)
#define PS_GPU_PROF_RING 4
#define PS_GPU_KNS ps_exact
#define PS_GPU_LAUNCH_NAME ps_gpu_launch_exact
#include "ps_gpu_kernels.h"

/* fast mode: the same emulated kernel (the host compiler does not contract) */
gpuError_t ps_gpu_launch_fast(const ps_gpu_launch *l)
{
    return ps_gpu_launch_exact(l);
}

#include "ps_gpu_backend.inc"
