/*
 * The GPU backend's plugin face: the ops table, the plugin entry point, the
 * context's error text, and (CUDA, configure --enable-nvtx) NVTX ranges
 * around the phases so Nsight Systems shows pstencil's create, upload,
 * step, finish and download on its timeline. NVTX 3 is header-only: no
 * library to link, and the calls cost nothing when no tool is attached.
 */
#include "config.h"
#include "ps_gpu_context.h"
#include "fast/ps_gpu_fast.h"

#include <stdio.h>

#if defined(PS_WITH_NVTX) && defined(PS_GPU_PORT_CUDA)
#  include <nvtx3/nvToolsExt.h>
#  define PS_RANGE_PUSH(msg) nvtxRangePushA(msg)
#  define PS_RANGE_POP() nvtxRangePop()
#else
#  define PS_RANGE_PUSH(msg) ((void)0)
#  define PS_RANGE_POP() ((void)0)
#endif

#if defined(PS_GPU_PORT_MOCK)
#  define PS_GPU_DESCRIPTION "tests only: the GPU host code and kernels over a host-memory runtime"
#elif defined(PS_GPU_PORT_HIP)
#  define PS_GPU_DESCRIPTION                                                               \
      "AMD GPUs through HIP/ROCm: generic kernels for every stencil, 2.5-D fast-path "       \
      "kernel, hipGraph step replay"
#else
#  define PS_GPU_DESCRIPTION                                                               \
      "NVIDIA GPUs through CUDA: generic kernels for every stencil, 2.5-D fast-path "        \
      "kernel, CUDA graph step replay"
#endif

int ps_gpu_fail(ps_gpu_ctx *c, gpuError_t e, const char *what)
{
    snprintf(c->err, sizeof c->err, PS_GPU_RUNTIME " %s failed on device %d: %s (%s)", what,
             c->dev, gpuGetErrorString(e), gpuGetErrorName(e));
    return e == gpuErrorMemoryAllocation ? PS_ENOMEM : PS_EDEVICE;
}

namespace {

int gpu_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    int st;
    PS_RANGE_PUSH("pstencil create");
    st = ps_gpu_create(cfg, out, why, whylen);
    PS_RANGE_POP();
    return st;
}

int gpu_upload(void *vc, const void *host, const ps_region *r)
{
    int st;
    PS_RANGE_PUSH("pstencil upload");
    st = ps_gpu_upload(vc, host, r);
    PS_RANGE_POP();
    return st;
}

int gpu_step(void *vc, long nsteps)
{
    int st;
#if defined(PS_WITH_NVTX) && defined(PS_GPU_PORT_CUDA)
    char msg[64];
    snprintf(msg, sizeof msg, "pstencil step x%ld (enqueue)", nsteps);
    PS_RANGE_PUSH(msg);
#endif
    st = ps_gpu_step(vc, nsteps);
    PS_RANGE_POP();
    return st;
}

int gpu_finish(void *vc)
{
    int st;
    PS_RANGE_PUSH("pstencil finish (wait for steps)");
    st = ps_gpu_finish(vc);
    PS_RANGE_POP();
    return st;
}

int gpu_download(void *vc, void *host, const ps_region *r)
{
    int st;
    PS_RANGE_PUSH("pstencil download");
    st = ps_gpu_download(vc, host, r);
    PS_RANGE_POP();
    return st;
}

const char *gpu_last_error(void *vc)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    return c ? c->err : "";
}

const char *gpu_describe(void *vc, int what)
{
    const ps_gpu_ctx *c = static_cast<const ps_gpu_ctx *>(vc);
    if (what == PS_DESCRIBE_KERNEL)
        return c->launch.tuned ? "fast" : "generic";
    return "";
}

const ps_knobs *gpu_knobs_of(void *vc)
{
    return &static_cast<ps_gpu_ctx *>(vc)->knobs;
}

/* auto orders this plugin by this declaration before loading it (ps_backend.h) */
PS_PLUGIN_DECLARE(PS_GPU_PRIORITY);

/* C++20 designated initialisers (in declaration order) */
const ps_backend_ops gpu_table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = PS_GPU_BACKEND_NAME,
    .description = PS_GPU_DESCRIPTION,
    .priority = PS_GPU_PRIORITY,
    .flags = PS_BACKEND_GPU | PS_BACKEND_BLOCK | PS_BACKEND_DESCRIBE | PS_BACKEND_KNOBS,
    .fast_paths = ps_gpu_fast_paths,
    .probe = ps_gpu_probe,
    .create = gpu_create,
    .upload = gpu_upload,
    .step = gpu_step,
    .finish = gpu_finish,
    .download = gpu_download,
    .timing = ps_gpu_timing,
    .destroy = ps_gpu_destroy,
    .last_error = gpu_last_error,
    .upload_pitched = nullptr, /* no PS_BACKEND_PITCHED: slabs go through staging */
    .download_pitched = nullptr,
    .describe = gpu_describe, /* PS_DESCRIBE_KERNEL only */
    .knobs = gpu_knobs_of,
    .adopt = nullptr, /* no PS_BACKEND_ADOPT: device memory is not the host's */
};

} /* namespace */

extern "C" __attribute__((visibility("default"))) const ps_backend_ops *
ps_backend_plugin_entry(void)
{
    return &gpu_table;
}
