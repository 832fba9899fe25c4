/**
 * @file ps_gpu_mock.h
 * @brief The mock port of the GPU backend: a host-memory stand-in for the
 *        CUDA/HIP runtime, so the shared GPU host code and kernels run and
 *        are tested on machines without a GPU or a GPU compiler (selected
 *        by -DPS_GPU_PORT_MOCK; include ps_gpu_port.h, not this file).
 *
 * Only for tests: backends/gpu/local.mk compiles the same sources as the
 * cuda and hip plugins with the host C++ compiler into the test plugin
 * pstencil_gpumock.so. Streams execute at once, except while a stream
 * captures: then copies and kernel launches are recorded and a graph replays
 * them. With PSTENCIL_MOCK_DEFERRED=1 streams are asynchronous as a
 * device's are: operations queue and run only when something waits for
 * them (stream or event synchronisation, a free, the stream's destruction),
 * and a copy to host memory fills its destination with garbage (0xA5 bytes)
 * when it is submitted, so host code that reads a staging buffer, or refills
 * one, before the wait that covers it computes wrong results.
 * PSTENCIL_MOCK_FAIL=begin|end|instantiate makes stream capture, its end or
 * graph instantiation fail (the step code must fall back to launches). A kernel launch runs the very __global__ function the device would,
 * once per thread of the launch, with blockIdx, threadIdx, blockDim and
 * gridDim set as the device would set them (blocks in reverse order: the
 * kernels must not depend on any order). Launches the real runtimes refuse
 * (more than 1024 threads per block, a grid beyond the limits) are refused.
 * Small staging buffers and a short profiling ring make the chunked-copy
 * and harvesting paths run on small grids. Environment:
 * PSTENCIL_MOCK_DEVICES (default 1), PSTENCIL_MOCK_MEM_MB (free device
 * memory, default 1024), PSTENCIL_MOCK_DEFERRED, PSTENCIL_MOCK_FAIL and
 * PSTENCIL_MOCK_TRACE=1 (each kernel, as it runs, prints "mock: kernel grid
 * GXxGYxGZ block BXxBYxBZ barriers|plain" on stderr; barriers: launched with
 * PS_GPU_KERNEL_LAUNCH_SYNC, the temporally blocked kernels), so tests see
 * how many launches a run made and of which kind.
 */
#ifndef PS_GPU_MOCK_H
#define PS_GPU_MOCK_H

#include <ucontext.h>

#include <deque>
#include <functional>
#include <memory>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
/* one block runs at a time (its threads as fibers), so a function-level
 * static is the block's shared memory */
#define __shared__ static
#define __syncthreads() ps_mock_syncthreads()

#define PS_GPU_BACKEND_NAME "gpumock"
#define PS_GPU_PRIORITY -1
#define PS_GPU_RUNTIME "mock GPU runtime"
#define PS_GPU_DEFAULT_BX 32
#define PS_GPU_DEFAULT_BY 8
#define PS_GPU_STAGE_BYTES ((size_t)4096) /* tiny: chunked copies on small grids */
/* gtb's block: 16 threads (each a fiber here, whose switches cost system
 * calls) still interleave at every barrier; the kernel strides any count */
#define PS_GPU_TB_BX 8
#define PS_GPU_TB_BY 2
#define PS_GPU_PROF_RING 4                /* short: harvesting on few steps */

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
    std::deque<std::function<void()>> queue; /* deferred mode: submitted, not yet run */
    unsigned long long submitted, done;      /* operations submitted / run so far */
};
/* An event: the stream it was recorded on and how many operations precede it. */
struct ps_mock_event {
    ps_mock_stream *stream;
    unsigned long long mark;
};
typedef ps_mock_stream *gpuStream_t;
typedef ps_mock_graph *gpuGraph_t;
typedef ps_mock_graph *gpuGraphExec_t;
typedef ps_mock_event *gpuEvent_t;

struct gpuDeviceProp {
    char name[256];
    int major, minor, multiProcessorCount, l2CacheSize, memoryBusWidth;
    int pciDomainID, pciBusID, pciDeviceID, maxThreadsPerBlock;
    int maxThreadsDim[3], maxGridSize[3];
    size_t totalGlobalMem;
};

/* The built-in variables of a kernel, as CUDA and HIP define them. */
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
inline dim3 blockIdx, threadIdx, blockDim, gridDim;

static inline int ps_mock_env(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

/* Whether streams are asynchronous (PSTENCIL_MOCK_DEFERRED=1). */
static inline bool ps_mock_deferred(void)
{
    static const int d = ps_mock_env("PSTENCIL_MOCK_DEFERRED", 0);
    return d != 0;
}

/* Whether PSTENCIL_MOCK_FAIL names this step of graph building. */
static inline bool ps_mock_fail(const char *what)
{
    const char *v = getenv("PSTENCIL_MOCK_FAIL");
    if (!v || strcmp(v, what))
        return false;
    fprintf(stderr, "mock: injected failure: %s\n", what);
    return true;
}

/* Every live stream (a free waits for all of them, as cudaFree does). */
inline std::vector<ps_mock_stream *> ps_mock_streams;

/* Run the stream's queued operations until `mark` of them have run. */
static inline void ps_mock_drain(ps_mock_stream *s, unsigned long long mark)
{
    while (s->done < mark && !s->queue.empty()) {
        std::function<void()> op = s->queue.front();
        s->queue.pop_front();
        s->done++;
        op();
    }
}

static inline void ps_mock_drain_all(void)
{
    for (ps_mock_stream *s : ps_mock_streams)
        ps_mock_drain(s, s->submitted);
}

/* Run an operation now (queue it in deferred mode), or record it while the
 * stream captures. */
static inline gpuError_t ps_mock_submit(gpuStream_t s, std::function<void()> op)
{
    if (s && s->capture)
        s->capture->ops.push_back(op);
    else if (s && ps_mock_deferred()) {
        s->queue.push_back(op);
        s->submitted++;
    } else
        op();
    return gpuSuccess;
}

/* Deferred mode: a copy into host memory leaves garbage there until it runs. */
static inline void ps_mock_scribble(gpuStream_t s, void *d, size_t n, int kind)
{
    if (kind == 1 /* gpuMemcpyDeviceToHost */ && s && !s->capture && ps_mock_deferred())
        memset(d, 0xA5, n);
}

/*
 * Under AddressSanitizer every switch between stacks is announced (the
 * sanitizer's fiber interface), so ASan knows which stack is live and
 * reports no false positives on the fibers' stacks.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PS_MOCK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PS_MOCK_ASAN 1
#endif
#endif
#ifdef PS_MOCK_ASAN
#include <sanitizer/common_interface_defs.h>
#define PS_MOCK_SWITCH_START(save, bottom, size) __sanitizer_start_switch_fiber(save, bottom, size)
#define PS_MOCK_SWITCH_FINISH(save, bottom, size) __sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define PS_MOCK_SWITCH_START(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#define PS_MOCK_SWITCH_FINISH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

/*
 * Kernels with barriers (launched by PS_GPU_KERNEL_LAUNCH_SYNC): the threads
 * of one block run as fibers (ucontext), highest thread first, each until it
 * reaches __syncthreads() or returns; when every thread has arrived (or
 * returned) the barrier opens and they run on. A kernel that reads what
 * another thread of its block wrote to shared memory without a barrier in
 * between reads what was there before (the thread that writes it has not
 * run yet): a missing __syncthreads() gives wrong results here.
 */
struct ps_mock_fibers {
    bool active;                     /* inside a PS_GPU_KERNEL_LAUNCH_SYNC block */
    int cur;                         /* the running fiber */
    ucontext_t sched;                /* the block's scheduler */
    const void *sched_bottom;        /* its stack (for the sanitizer) */
    size_t sched_size;
    void *sched_fake;                /* its fake stack while a fiber runs */
    std::vector<ucontext_t> ctx;
    /* PS_MOCK_FIBER_STACK bytes each, kept for the next block and freed at exit */
    std::vector<std::unique_ptr<char[]>> stack;
    std::vector<void *> fake;        /* each fiber's fake stack while it is switched out */
    std::vector<int> state;          /* 0 runnable, 1 at the barrier, 2 returned */
    std::vector<dim3> tid;
    const std::function<void()> *thread;
};
#define PS_MOCK_FIBER_STACK ((size_t)256 << 10)
inline ps_mock_fibers ps_mock_fib;

static inline void ps_mock_syncthreads(void)
{
    ps_mock_fibers &f = ps_mock_fib;
    if (!f.active) {
        fprintf(stderr, "mock: __syncthreads() in a kernel not launched with "
                        "PS_GPU_KERNEL_LAUNCH_SYNC\n");
        abort();
    }
    const int me = f.cur;
    f.state[me] = 1;
    PS_MOCK_SWITCH_START(&f.fake[me], f.sched_bottom, f.sched_size);
    swapcontext(&f.ctx[me], &f.sched);
    PS_MOCK_SWITCH_FINISH(f.fake[me], nullptr, nullptr);
}

static inline void ps_mock_fiber_entry(void)
{
    ps_mock_fibers &f = ps_mock_fib;
    /* the first switch onto this stack: learn the scheduler's stack */
    PS_MOCK_SWITCH_FINISH(nullptr, &f.sched_bottom, &f.sched_size);
    (*f.thread)();
    f.state[f.cur] = 2;
    /* then back to uc_link, the scheduler; this stack is done with */
    PS_MOCK_SWITCH_START(nullptr, f.sched_bottom, f.sched_size);
}

/* Run the threads of the current block (blockIdx set) as fibers. */
static inline void ps_mock_block_fibers(dim3 block, const std::function<void()> &thread)
{
    ps_mock_fibers &f = ps_mock_fib;
    const size_t n = (size_t)block.x * block.y * block.z;
    size_t t;
    while (f.stack.size() < n)
        f.stack.emplace_back(new char[PS_MOCK_FIBER_STACK]);
    f.ctx.resize(n);
    f.fake.assign(n, nullptr);
    f.state.assign(n, 0);
    f.tid.resize(n);
    f.thread = &thread;
    for (t = 0; t < n; t++) {
        f.tid[t] = dim3((unsigned)(t % block.x), (unsigned)(t / block.x % block.y),
                        (unsigned)(t / ((size_t)block.x * block.y)));
        getcontext(&f.ctx[t]);
        f.ctx[t].uc_stack.ss_sp = f.stack[t].get();
        f.ctx[t].uc_stack.ss_size = PS_MOCK_FIBER_STACK;
        f.ctx[t].uc_link = &f.sched;
        makecontext(&f.ctx[t], ps_mock_fiber_entry, 0);
    }
    f.active = true;
    for (;;) {
        bool waiting = false;
        for (t = n; t-- > 0;)
            if (f.state[t] == 0) {
                f.cur = (int)t;
                threadIdx = f.tid[t];
                PS_MOCK_SWITCH_START(&f.sched_fake, f.stack[t].get(), PS_MOCK_FIBER_STACK);
                swapcontext(&f.sched, &f.ctx[t]);
                PS_MOCK_SWITCH_FINISH(f.sched_fake, nullptr, nullptr);
            }
        for (t = 0; t < n; t++)
            if (f.state[t] == 1) {
                f.state[t] = 0; /* every thread arrived or returned: the barrier opens */
                waiting = true;
            }
        if (!waiting)
            break;
    }
    f.active = false;
}

/*
 * A kernel launch: `thread` (the kernel called with its arguments) runs once
 * per thread of the grid, with the built-in variables set; refused as the
 * device would refuse it. sync: the kernel has barriers (fibers per block).
 */
static inline gpuError_t ps_mock_launch(dim3 grid, dim3 block, gpuStream_t s,
                                        std::function<void()> thread, bool sync = false)
{
    if ((unsigned long long)block.x * block.y * block.z > 1024 || block.z > 64 ||
        !grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z ||
        grid.y > 65535 || grid.z > 65535)
        return gpuErrorInvalidValue;
    return ps_mock_submit(s, [=]() {
        static const int trace = ps_mock_env("PSTENCIL_MOCK_TRACE", 0);
        if (trace)
            fprintf(stderr, "mock: kernel grid %ux%ux%u block %ux%ux%u %s\n", grid.x, grid.y,
                    grid.z, block.x, block.y, block.z, sync ? "barriers" : "plain");
        gridDim = grid;
        blockDim = block;
        for (unsigned bz = grid.z; bz-- > 0;)
            for (unsigned by = grid.y; by-- > 0;)
                for (unsigned bx = grid.x; bx-- > 0;) {
                    blockIdx = dim3(bx, by, bz);
                    if (sync) {
                        ps_mock_block_fibers(block, thread);
                        continue;
                    }
                    for (unsigned tz = 0; tz < block.z; tz++)
                        for (unsigned ty = 0; ty < block.y; ty++)
                            for (unsigned tx = 0; tx < block.x; tx++) {
                                threadIdx = dim3(tx, ty, tz);
                                thread();
                            }
                }
    });
}

/* A kernel launch: the arguments are taken (copied) now, as a launch does. */
template <typename... P, typename... A>
static inline gpuError_t ps_mock_kernel(void (*kernel)(P...), dim3 grid, dim3 block,
                                        gpuStream_t s, A... args)
{
    return ps_mock_launch(grid, block, s, [=]() { kernel(args...); });
}

/* The same for a kernel with barriers: its blocks' threads run as fibers. */
template <typename... P, typename... A>
static inline gpuError_t ps_mock_kernel_sync(void (*kernel)(P...), dim3 grid, dim3 block,
                                             gpuStream_t s, A... args)
{
    return ps_mock_launch(grid, block, s, [=]() { kernel(args...); }, true);
}

/* Launch a __global__ kernel on a stream; the launch's status. */
#define PS_GPU_KERNEL_LAUNCH(kernel, grid, block, stream, ...)                             \
    ps_mock_kernel(kernel, (grid), (block), (stream), __VA_ARGS__)
/* Launch a __global__ kernel that calls __syncthreads(). */
#define PS_GPU_KERNEL_LAUNCH_SYNC(kernel, grid, block, stream, ...)                        \
    ps_mock_kernel_sync(kernel, (grid), (block), (stream), __VA_ARGS__)
/* Programmatic dependent launch (CUDA sm_90): the mock runs launches in
 * order, so the kernels' wait (grid_dep_sync) has nothing to wait for. */
#define PS_GPU_KERNEL_LAUNCH_PDL(pdl, kernel, grid, block, stream, ...)                    \
    ((void)(pdl), PS_GPU_KERNEL_LAUNCH(kernel, grid, block, stream, __VA_ARGS__))
#define PS_GPU_KERNEL_LAUNCH_SYNC_PDL(pdl, kernel, grid, block, stream, ...)               \
    ((void)(pdl), PS_GPU_KERNEL_LAUNCH_SYNC(kernel, grid, block, stream, __VA_ARGS__))

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
static inline gpuError_t gpuDeviceGetAttribute(int *v, int, int)
{
    *v = 1000000;
    return gpuSuccess;
}
static inline gpuError_t gpuSetDevice(int) { return gpuSuccess; }
static inline gpuError_t gpuDriverGetVersion(int *v) { *v = 13000; return gpuSuccess; }
static inline gpuError_t gpuRuntimeGetVersion(int *v) { *v = 13000; return gpuSuccess; }
static inline gpuError_t gpuMemGetInfo(size_t *f, size_t *t)
{
    *t = *f = (size_t)ps_mock_env("PSTENCIL_MOCK_MEM_MB", 1024) << 20;
    return gpuSuccess;
}
template <typename T> static inline gpuError_t gpuMalloc(T **p, size_t n)
{
    *p = (T *)malloc(n);
    return *p ? gpuSuccess : gpuErrorMemoryAllocation;
}
static inline gpuError_t gpuFree(void *p)
{
    ps_mock_drain_all();
    free(p);
    return gpuSuccess;
}
#define gpuMallocHost(p, n) gpuMalloc((p), (n))
#define gpuFreeHost gpuFree
static inline gpuError_t gpuMemcpyAsync(void *d, const void *s, size_t n, int kind,
                                        gpuStream_t st)
{
    ps_mock_scribble(st, d, n, kind);
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
    for (size_t r = 0; r < h; r++)
        ps_mock_scribble(st, (char *)d + r * dp, w, kind);
    return ps_mock_submit(st, [=]() {
        for (size_t r = 0; r < h; r++)
            memcpy((char *)d + r * dp, (const char *)s + r * sp, w);
    });
}
static inline gpuError_t gpuStreamCreateWithFlags(gpuStream_t *s, unsigned)
{
    *s = new ps_mock_stream();
    ps_mock_streams.push_back(*s);
    return gpuSuccess;
}
static inline gpuError_t gpuStreamDestroy(gpuStream_t s)
{
    ps_mock_drain(s, s->submitted); /* queued work still completes */
    for (size_t i = 0; i < ps_mock_streams.size(); i++)
        if (ps_mock_streams[i] == s)
            ps_mock_streams.erase(ps_mock_streams.begin() + (long)i);
    delete s->capture;
    delete s;
    return gpuSuccess;
}
static inline gpuError_t gpuStreamSynchronize(gpuStream_t s)
{
    if (s && s->capture)
        return gpuErrorInvalidValue;
    if (s)
        ps_mock_drain(s, s->submitted);
    return gpuSuccess;
}
static inline gpuError_t gpuStreamBeginCapture(gpuStream_t s, int)
{
    if (s->capture || ps_mock_fail("begin"))
        return gpuErrorInvalidValue;
    s->capture = new ps_mock_graph();
    return gpuSuccess;
}
static inline gpuError_t gpuStreamEndCapture(gpuStream_t s, gpuGraph_t *g)
{
    *g = s->capture;
    s->capture = NULL;
    if (*g && ps_mock_fail("end")) { /* the capture is invalidated: no graph */
        delete *g;
        *g = NULL;
    }
    return *g ? gpuSuccess : gpuErrorInvalidValue;
}
static inline gpuError_t gpuGraphInstantiateWithFlags(gpuGraphExec_t *e, gpuGraph_t g,
                                                      unsigned long long)
{
    if (ps_mock_fail("instantiate"))
        return gpuErrorInvalidValue;
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
static inline gpuError_t gpuEventCreate(gpuEvent_t *e)
{
    *e = new ps_mock_event{NULL, 0};
    return gpuSuccess;
}
static inline gpuError_t gpuEventDestroy(gpuEvent_t e) { delete e; return gpuSuccess; }
static inline gpuError_t gpuEventRecord(gpuEvent_t e, gpuStream_t s)
{
    if (s && s->capture)
        return gpuErrorInvalidValue; /* not used inside captures */
    e->stream = s;
    e->mark = s ? s->submitted : 0;
    return gpuSuccess;
}
static inline gpuError_t gpuEventSynchronize(gpuEvent_t e)
{
    if (e->stream)
        ps_mock_drain(e->stream, e->mark);
    return gpuSuccess;
}
static inline gpuError_t gpuEventElapsedTime(float *ms, gpuEvent_t a, gpuEvent_t b)
{
    if ((a->stream && a->stream->done < a->mark) || (b->stream && b->stream->done < b->mark))
        return gpuErrorInvalidValue; /* cudaErrorNotReady: not complete yet */
    *ms = 0.125f;
    return gpuSuccess;
}

#endif /* PS_GPU_MOCK_H */
