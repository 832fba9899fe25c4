/**
 * @file ps_gpu_port_hip.h
 * @brief The HIP port of the GPU backend: the gpu* names the shared sources
 *        use, mapped to the HIP runtime (selected by -DPS_GPU_PORT_HIP;
 *        include ps_gpu_port.h, not this file).
 */
#ifndef PS_GPU_PORT_HIP_H
#define PS_GPU_PORT_HIP_H

/* HIP on NVIDIA compiles through nvcc without the cuda plugin's
 * --fmad=false -prec-div=true: exact mode would silently fuse and divide
 * approximately. Refused here (before and after the runtime header, which
 * may pick the platform from HIP_PLATFORM). */
#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
#  error "the hip plugin is for AMD GPUs: HIP on NVIDIA loses exact mode; build the cuda plugin (./configure --enable-cuda)"
#else
#  include <hip/hip_runtime.h>
#endif

#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
#  error "the hip plugin is for AMD GPUs: HIP on NVIDIA loses exact mode; build the cuda plugin (./configure --enable-cuda)"
#endif

#define PS_GPU_BACKEND_NAME "hip"
#define PS_GPU_PRIORITY 300
#define PS_GPU_RUNTIME "HIP"
#define PS_GPU_DEFAULT_BX 64 /* one wavefront (wave64) per row */
#define PS_GPU_DEFAULT_BY 4

typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipEvent_t gpuEvent_t;
typedef hipGraph_t gpuGraph_t;
typedef hipGraphExec_t gpuGraphExec_t;
typedef hipDeviceProp_t gpuDeviceProp;
#define gpuSuccess hipSuccess
#define gpuErrorInvalidValue hipErrorInvalidValue
#define gpuErrorNoDevice hipErrorNoDevice
#define gpuErrorInsufficientDriver hipErrorInsufficientDriver
#define gpuErrorMemoryAllocation hipErrorOutOfMemory
#define gpuGetErrorString hipGetErrorString
#define gpuGetErrorName hipGetErrorName
#define gpuGetLastError hipGetLastError
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrMemoryClockRate hipDeviceAttributeMemoryClockRate
#define gpuSetDevice hipSetDevice
#define gpuDriverGetVersion hipDriverGetVersion
#define gpuRuntimeGetVersion hipRuntimeGetVersion
#define gpuMemGetInfo hipMemGetInfo
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMallocHost(p, n) hipHostMalloc((p), (n), hipHostMallocDefault)
#define gpuFreeHost hipHostFree
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemsetAsync hipMemsetAsync
#define gpuMemcpy2DAsync hipMemcpy2DAsync
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamBeginCapture hipStreamBeginCapture
#define gpuStreamEndCapture hipStreamEndCapture
#define gpuStreamCaptureModeThreadLocal hipStreamCaptureModeThreadLocal
#define gpuGraphInstantiateWithFlags hipGraphInstantiateWithFlags
#define gpuGraphLaunch hipGraphLaunch
#define gpuGraphDestroy hipGraphDestroy
#define gpuGraphExecDestroy hipGraphExecDestroy
#define gpuEventCreate hipEventCreate
#define gpuEventDestroy hipEventDestroy
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime

/* Launch a __global__ kernel on a stream; the launch's status. */
#define PS_GPU_KERNEL_LAUNCH(kernel, grid, block, stream, ...)                             \
    (kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__), hipGetLastError())

/* Launch a kernel that calls __syncthreads() (the mock runs its blocks as fibers). */
#define PS_GPU_KERNEL_LAUNCH_SYNC PS_GPU_KERNEL_LAUNCH

/* Programmatic dependent launch is CUDA's (sm_90): plain launches here. */
#define PS_GPU_KERNEL_LAUNCH_PDL(pdl, kernel, grid, block, stream, ...)                    \
    ((void)(pdl), PS_GPU_KERNEL_LAUNCH(kernel, grid, block, stream, __VA_ARGS__))
#define PS_GPU_KERNEL_LAUNCH_SYNC_PDL PS_GPU_KERNEL_LAUNCH_PDL

#endif /* PS_GPU_PORT_HIP_H */
