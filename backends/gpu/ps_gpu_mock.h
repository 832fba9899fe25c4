/**
 * @file ps_gpu_mock.h
 * @brief A host-memory stand-in for the CUDA/HIP runtime, so the shared GPU
 *        host code (ps_gpu_backend.inc) and kernel (ps_gpu_kernels.h) run
 *        and are tested on machines without a GPU or a GPU compiler.
 *
 * Only for tests (tests/gpu.mk builds pstencil_gpumock.so from
 * ps_gpu_mock.cpp with the C++ compiler). Streams execute at once, except
 * while a stream captures: then copies and kernel launches are recorded and
 * a graph replays them. Kernels run every thread of the launch on the CPU
 * (d7_column). Environment: PSTENCIL_MOCK_DEVICES (default 1) and
 * PSTENCIL_MOCK_MEM_MB (free device memory, default 1024).
 */
#ifndef PS_GPU_MOCK_H
#define PS_GPU_MOCK_H

#include <functional>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(n)

#define PS_GPU_BACKEND_NAME "gpumock"
#define PS_GPU_PRIORITY -1
#define PS_GPU_RUNTIME "mock GPU runtime"
#define PS_GPU_DEFAULT_BX 32
#define PS_GPU_DEFAULT_BY 8

typedef int gpuError_t;
enum {
    gpuSuccess = 0,
    gpuErrorInvalidValue = 1,
    gpuErrorMemoryAllocation = 2,
    gpuErrorInsufficientDriver = 35,
    gpuErrorNoDevice = 100
};
enum { gpuMemcpyHostToDevice, gpuMemcpyDeviceToHost, gpuMemcpyDeviceToDevice };
enum { gpuStreamNonBlocking = 1, gpuStreamCaptureModeThreadLocal = 1, gpuDevAttrMemoryClockRate };

struct ps_mock_graph {
    std::vector<std::function<void()>> ops;
};
struct ps_mock_stream {
    ps_mock_graph *capture; /* non-NULL while capturing */
};
typedef ps_mock_stream *gpuStream_t;
typedef ps_mock_graph *gpuGraph_t;
typedef ps_mock_graph *gpuGraphExec_t;
typedef int *gpuEvent_t;

struct gpuDeviceProp {
    char name[256];
    int major, minor, multiProcessorCount, l2CacheSize, memoryBusWidth;
    int pciDomainID, pciBusID, pciDeviceID, maxThreadsPerBlock;
    int maxThreadsDim[3], maxGridSize[3];
    size_t totalGlobalMem;
};

static inline int ps_mock_env(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

/* Run an operation now, or record it while the stream captures. */
static inline gpuError_t ps_mock_submit(gpuStream_t s, std::function<void()> op)
{
    if (s && s->capture)
        s->capture->ops.push_back(op);
    else
        op();
    return gpuSuccess;
}

static inline const char *gpuGetErrorString(gpuError_t e)
{
    return e == gpuErrorNoDevice ? "no mock device (PSTENCIL_MOCK_DEVICES=0)"
         : e == gpuErrorMemoryAllocation ? "out of mock memory" : "mock runtime error";
}
static inline const char *gpuGetErrorName(gpuError_t e)
{
    return e == gpuErrorNoDevice ? "mockErrorNoDevice" : "mockError";
}
static inline gpuError_t gpuGetLastError(void) { return gpuSuccess; }
static inline gpuError_t gpuGetDeviceCount(int *n)
{
    *n = ps_mock_env("PSTENCIL_MOCK_DEVICES", 1);
    return *n > 0 ? gpuSuccess : gpuErrorNoDevice;
}
static inline gpuError_t gpuGetDeviceProperties(gpuDeviceProp *p, int d)
{
    memset(p, 0, sizeof *p);
    strcpy(p->name, "mock GPU (host memory)");
    p->major = 9;
    p->multiProcessorCount = 4;
    p->l2CacheSize = 1 << 20;
    p->memoryBusWidth = 64;
    p->pciBusID = d;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalGlobalMem = (size_t)ps_mock_env("PSTENCIL_MOCK_MEM_MB", 1024) << 20;
    return gpuSuccess;
}
static inline gpuError_t gpuDeviceGetAttribute(int *v, int attr, int d) { *v = 1000000; return gpuSuccess; }
static inline gpuError_t gpuSetDevice(int d) { return gpuSuccess; }
static inline gpuError_t gpuDriverGetVersion(int *v) { *v = 13000; return gpuSuccess; }
static inline gpuError_t gpuRuntimeGetVersion(int *v) { *v = 13000; return gpuSuccess; }
static inline gpuError_t gpuMemGetInfo(size_t *f, size_t *t)
{
    *t = *f = (size_t)ps_mock_env("PSTENCIL_MOCK_MEM_MB", 1024) << 20;
    return gpuSuccess;
}
static inline gpuError_t gpuMalloc(void **p, size_t n)
{
    *p = malloc(n);
    return *p ? gpuSuccess : gpuErrorMemoryAllocation;
}
static inline gpuError_t gpuFree(void *p) { free(p); return gpuSuccess; }
#define gpuMallocHost(p, n) gpuMalloc((p), (n))
#define gpuFreeHost gpuFree
static inline gpuError_t gpuMemcpyAsync(void *d, const void *s, size_t n, int kind, gpuStream_t st)
{
    return ps_mock_submit(st, [=]() { memmove(d, s, n); });
}
static inline gpuError_t gpuMemsetAsync(void *d, int v, size_t n, gpuStream_t st)
{
    return ps_mock_submit(st, [=]() { memset(d, v, n); });
}
static inline gpuError_t gpuMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp, size_t w,
                                          size_t h, int kind, gpuStream_t st)
{
    if (w > dp || w > sp)
        return gpuErrorInvalidValue; /* as the real runtimes answer */
    return ps_mock_submit(st, [=]() {
        for (size_t r = 0; r < h; r++)
            memcpy((char *)d + r * dp, (const char *)s + r * sp, w);
    });
}
static inline gpuError_t gpuStreamCreateWithFlags(gpuStream_t *s, unsigned f)
{
    *s = new ps_mock_stream();
    return gpuSuccess;
}
static inline gpuError_t gpuStreamDestroy(gpuStream_t s) { delete s; return gpuSuccess; }
static inline gpuError_t gpuStreamSynchronize(gpuStream_t s)
{
    return s && s->capture ? gpuErrorInvalidValue : gpuSuccess;
}
static inline gpuError_t gpuStreamBeginCapture(gpuStream_t s, int mode)
{
    if (s->capture)
        return gpuErrorInvalidValue;
    s->capture = new ps_mock_graph();
    return gpuSuccess;
}
static inline gpuError_t gpuStreamEndCapture(gpuStream_t s, gpuGraph_t *g)
{
    *g = s->capture;
    s->capture = NULL;
    return *g ? gpuSuccess : gpuErrorInvalidValue;
}
static inline gpuError_t gpuGraphInstantiateWithFlags(gpuGraphExec_t *e, gpuGraph_t g,
                                                      unsigned long long f)
{
    *e = new ps_mock_graph(*g);
    return gpuSuccess;
}
static inline gpuError_t gpuGraphLaunch(gpuGraphExec_t e, gpuStream_t s)
{
    for (auto &op : e->ops)
        ps_mock_submit(s, op);
    return gpuSuccess;
}
static inline gpuError_t gpuGraphDestroy(gpuGraph_t g) { delete g; return gpuSuccess; }
static inline gpuError_t gpuGraphExecDestroy(gpuGraphExec_t g) { delete g; return gpuSuccess; }
static inline gpuError_t gpuEventCreate(gpuEvent_t *e) { *e = new int(0); return gpuSuccess; }
static inline gpuError_t gpuEventDestroy(gpuEvent_t e) { delete e; return gpuSuccess; }
static inline gpuError_t gpuEventRecord(gpuEvent_t e, gpuStream_t s) { return gpuSuccess; }
static inline gpuError_t gpuEventSynchronize(gpuEvent_t e) { return gpuSuccess; }
static inline gpuError_t gpuEventElapsedTime(float *ms, gpuEvent_t a, gpuEvent_t b)
{
    *ms = 0.125f;
    return gpuSuccess;
}

#endif /* PS_GPU_MOCK_H */
