/**
 * @file ps_gpu_port.h
 * @brief The small portability layer that lets one GPU source build as CUDA
 *        (nvcc) and as HIP (hipcc): runtime calls, types, error codes.
 *
 * The backend and kernel sources use only the gpu* names below. Define
 * PS_GPU_HIP (the hip plugin's rules do) or compile with hipcc to get HIP;
 * otherwise CUDA. Kernel launches use the <<<grid, block, shmem, stream>>>
 * syntax both compilers accept; qualifiers (__global__, __device__,
 * __restrict__, __forceinline__) are spelled the same in both.
 */
#ifndef PS_GPU_PORT_H
#define PS_GPU_PORT_H

#if defined(PS_GPU_MOCK)
#  include "ps_gpu_mock.h" /* tests only: a host-memory runtime */
#elif defined(PS_GPU_HIP) || defined(__HIPCC__)
#  ifndef PS_GPU_HIP
#    define PS_GPU_HIP 1
#  endif
#  include <hip/hip_runtime.h>
#  define PS_GPU_BACKEND_NAME "hip"
#  define PS_GPU_PRIORITY 300
#  define PS_GPU_RUNTIME "HIP"
#  define PS_GPU_DEFAULT_BX 64 /* one wavefront (wave64) per row */
#  define PS_GPU_DEFAULT_BY 4
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipEvent_t gpuEvent_t;
typedef hipGraph_t gpuGraph_t;
typedef hipGraphExec_t gpuGraphExec_t;
typedef hipDeviceProp_t gpuDeviceProp;
#  define gpuSuccess hipSuccess
#  define gpuErrorNoDevice hipErrorNoDevice
#  define gpuErrorInsufficientDriver hipErrorInsufficientDriver
#  define gpuErrorMemoryAllocation hipErrorOutOfMemory
#  define gpuGetErrorString hipGetErrorString
#  define gpuGetErrorName hipGetErrorName
#  define gpuGetLastError hipGetLastError
#  define gpuGetDeviceCount hipGetDeviceCount
#  define gpuGetDeviceProperties hipGetDeviceProperties
#  define gpuDeviceGetAttribute hipDeviceGetAttribute
#  define gpuDevAttrMemoryClockRate hipDeviceAttributeMemoryClockRate
#  define gpuSetDevice hipSetDevice
#  define gpuDriverGetVersion hipDriverGetVersion
#  define gpuRuntimeGetVersion hipRuntimeGetVersion
#  define gpuMemGetInfo hipMemGetInfo
#  define gpuMalloc hipMalloc
#  define gpuFree hipFree
#  define gpuMallocHost(p, n) hipHostMalloc((p), (n), hipHostMallocDefault)
#  define gpuFreeHost hipHostFree
#  define gpuMemcpyAsync hipMemcpyAsync
#  define gpuMemsetAsync hipMemsetAsync
#  define gpuMemcpy2DAsync hipMemcpy2DAsync
#  define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#  define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#  define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#  define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#  define gpuStreamNonBlocking hipStreamNonBlocking
#  define gpuStreamDestroy hipStreamDestroy
#  define gpuStreamSynchronize hipStreamSynchronize
#  define gpuStreamBeginCapture hipStreamBeginCapture
#  define gpuStreamEndCapture hipStreamEndCapture
#  define gpuStreamCaptureModeThreadLocal hipStreamCaptureModeThreadLocal
#  define gpuGraphInstantiateWithFlags hipGraphInstantiateWithFlags
#  define gpuGraphLaunch hipGraphLaunch
#  define gpuGraphDestroy hipGraphDestroy
#  define gpuGraphExecDestroy hipGraphExecDestroy
#  define gpuEventCreate hipEventCreate
#  define gpuEventDestroy hipEventDestroy
#  define gpuEventRecord hipEventRecord
#  define gpuEventSynchronize hipEventSynchronize
#  define gpuEventElapsedTime hipEventElapsedTime
#else
#  include <cuda_runtime.h>
#  define PS_GPU_BACKEND_NAME "cuda"
#  define PS_GPU_PRIORITY 400
#  define PS_GPU_RUNTIME "CUDA"
#  define PS_GPU_DEFAULT_BX 32 /* one warp per row: 128-byte coalesced float rows */
#  define PS_GPU_DEFAULT_BY 8
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaEvent_t gpuEvent_t;
typedef cudaGraph_t gpuGraph_t;
typedef cudaGraphExec_t gpuGraphExec_t;
typedef cudaDeviceProp gpuDeviceProp;
#  define gpuSuccess cudaSuccess
#  define gpuErrorNoDevice cudaErrorNoDevice
#  define gpuErrorInsufficientDriver cudaErrorInsufficientDriver
#  define gpuErrorMemoryAllocation cudaErrorMemoryAllocation
#  define gpuGetErrorString cudaGetErrorString
#  define gpuGetErrorName cudaGetErrorName
#  define gpuGetLastError cudaGetLastError
#  define gpuGetDeviceCount cudaGetDeviceCount
#  define gpuGetDeviceProperties cudaGetDeviceProperties
#  define gpuDeviceGetAttribute cudaDeviceGetAttribute
#  define gpuDevAttrMemoryClockRate cudaDevAttrMemoryClockRate
#  define gpuSetDevice cudaSetDevice
#  define gpuDriverGetVersion cudaDriverGetVersion
#  define gpuRuntimeGetVersion cudaRuntimeGetVersion
#  define gpuMemGetInfo cudaMemGetInfo
#  define gpuMalloc cudaMalloc
#  define gpuFree cudaFree
#  define gpuMallocHost(p, n) cudaMallocHost((p), (n))
#  define gpuFreeHost cudaFreeHost
#  define gpuMemcpyAsync cudaMemcpyAsync
#  define gpuMemsetAsync cudaMemsetAsync
#  define gpuMemcpy2DAsync cudaMemcpy2DAsync
#  define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#  define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#  define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#  define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#  define gpuStreamNonBlocking cudaStreamNonBlocking
#  define gpuStreamDestroy cudaStreamDestroy
#  define gpuStreamSynchronize cudaStreamSynchronize
#  define gpuStreamBeginCapture cudaStreamBeginCapture
#  define gpuStreamEndCapture cudaStreamEndCapture
#  define gpuStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#  define gpuGraphInstantiateWithFlags cudaGraphInstantiateWithFlags
#  define gpuGraphLaunch cudaGraphLaunch
#  define gpuGraphDestroy cudaGraphDestroy
#  define gpuGraphExecDestroy cudaGraphExecDestroy
#  define gpuEventCreate cudaEventCreate
#  define gpuEventDestroy cudaEventDestroy
#  define gpuEventRecord cudaEventRecord
#  define gpuEventSynchronize cudaEventSynchronize
#  define gpuEventElapsedTime cudaEventElapsedTime
#endif

/* The precision a kernel is instantiated for, as the kernels' launchers see it. */
enum ps_gpu_real { PS_GPU_F32 = 0, PS_GPU_F64 = 1 };

/** Geometry of one step launch (all extents in cells). */
typedef struct ps_gpu_launch {
    const void *in;   /**< field at step t (device) */
    void *out;        /**< field at step t+1 (device) */
    long long nz, ny, nx;
    double coeff;     /**< D (rounded to float for _f32 kernels) */
    int bx, by;       /**< thread block: bx along i, by along j */
    int kchunk;       /**< depth planes each block streams through */
    int real;         /**< PS_GPU_F32 or PS_GPU_F64 */
    gpuStream_t stream;
} ps_gpu_launch;

/*
 * Launchers of one step (defined by ps_gpu_kernels.h in each translation
 * unit that includes it with PS_GPU_LAUNCH_NAME set): the exact one lives in
 * the backend's main file, compiled with IEEE flags; the fast one in its own
 * file compiled with contraction and approximate division.
 */
gpuError_t ps_gpu_launch_exact(const ps_gpu_launch *l);
gpuError_t ps_gpu_launch_fast(const ps_gpu_launch *l);

#endif /* PS_GPU_PORT_H */
