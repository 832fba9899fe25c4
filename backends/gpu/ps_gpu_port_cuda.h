/**
 * @file ps_gpu_port_cuda.h
 * @brief The CUDA port of the GPU backend: the gpu* names the shared sources
 *        use, mapped to the CUDA runtime (selected by -DPS_GPU_PORT_CUDA;
 *        include ps_gpu_port.h, not this file).
 */
#ifndef PS_GPU_PORT_CUDA_H
#define PS_GPU_PORT_CUDA_H

#include <cuda_runtime.h>

#define PS_GPU_BACKEND_NAME "cuda"
#define PS_GPU_PRIORITY 400
#define PS_GPU_RUNTIME "CUDA"
#define PS_GPU_DEFAULT_BX 32 /* one warp per row: 128-byte coalesced float rows */
#define PS_GPU_DEFAULT_BY 8

typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaEvent_t gpuEvent_t;
typedef cudaGraph_t gpuGraph_t;
typedef cudaGraphExec_t gpuGraphExec_t;
typedef cudaDeviceProp gpuDeviceProp;
#define gpuSuccess cudaSuccess
#define gpuErrorInvalidValue cudaErrorInvalidValue
#define gpuErrorNoDevice cudaErrorNoDevice
#define gpuErrorInsufficientDriver cudaErrorInsufficientDriver
#define gpuErrorMemoryAllocation cudaErrorMemoryAllocation
#define gpuGetErrorString cudaGetErrorString
#define gpuGetErrorName cudaGetErrorName
#define gpuGetLastError cudaGetLastError
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrMemoryClockRate cudaDevAttrMemoryClockRate
#define gpuSetDevice cudaSetDevice
#define gpuDriverGetVersion cudaDriverGetVersion
#define gpuRuntimeGetVersion cudaRuntimeGetVersion
#define gpuMemGetInfo cudaMemGetInfo
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMallocHost(p, n) cudaMallocHost((p), (n))
#define gpuFreeHost cudaFreeHost
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemsetAsync cudaMemsetAsync
#define gpuMemcpy2DAsync cudaMemcpy2DAsync
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamBeginCapture cudaStreamBeginCapture
#define gpuStreamEndCapture cudaStreamEndCapture
#define gpuStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define gpuGraphInstantiateWithFlags cudaGraphInstantiateWithFlags
#define gpuGraphLaunch cudaGraphLaunch
#define gpuGraphDestroy cudaGraphDestroy
#define gpuGraphExecDestroy cudaGraphExecDestroy
#define gpuEventCreate cudaEventCreate
#define gpuEventDestroy cudaEventDestroy
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime

/* Launch a __global__ kernel on a stream; the launch's status. */
#define PS_GPU_KERNEL_LAUNCH(kernel, grid, block, stream, ...)                             \
    (kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__), cudaGetLastError())

/* Launch a kernel that calls __syncthreads() (the mock runs its blocks as fibers). */
#define PS_GPU_KERNEL_LAUNCH_SYNC PS_GPU_KERNEL_LAUNCH

/* A launch with programmatic dependent launch allowed (cudaLaunchKernelEx with
 * cudaLaunchAttributeProgrammaticStreamSerialization): the kernel may start
 * before the previous one on the stream ends; it waits in
 * cudaGridDependencySynchronize() (ps_gpu_kernels.h, grid_dep_sync). */
template <typename... P, typename... A>
static inline cudaError_t ps_cuda_launch_pdl(void (*kernel)(P...), dim3 grid, dim3 block,
                                             cudaStream_t s, A... args)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = 0;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, kernel, (P)args...);
}

/* Launch (PS_GPU_KERNEL_LAUNCH / _SYNC), with PDL when pdl is nonzero. */
#define PS_GPU_KERNEL_LAUNCH_PDL(pdl, kernel, grid, block, stream, ...)                    \
    ((pdl) ? ps_cuda_launch_pdl(kernel, (grid), (block), (stream), __VA_ARGS__)            \
           : PS_GPU_KERNEL_LAUNCH(kernel, grid, block, stream, __VA_ARGS__))
#define PS_GPU_KERNEL_LAUNCH_SYNC_PDL PS_GPU_KERNEL_LAUNCH_PDL

#endif /* PS_GPU_PORT_CUDA_H */
