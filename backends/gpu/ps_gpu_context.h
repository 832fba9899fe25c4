/**
 * @file ps_gpu_context.h
 * @brief Internal to the GPU backend's host code: the context every part of
 *        it shares, and the functions each translation unit provides.
 *
 * The host code is one plugin built from these units by backends/gpu/local.mk,
 * once per port (nvcc: cuda, hipcc: hip, the host C++ compiler: gpumock):
 *   ps_gpu_device.cpp   devices: count, describe, probe, why there is none
 *   ps_gpu_context.cpp  create/destroy: checks, device memory, parameters, geometry
 *   ps_gpu_memory.cpp   upload/download through pinned staging buffers
 *   ps_gpu_step.cpp     step/finish: launches, graph capture and replay
 *   ps_gpu_timing.cpp   per-step profiling events and the timing report
 *   ps_gpu_plugin.cpp   the ops table, NVTX ranges, the plugin entry point
 *   fast/ps_gpu_fast.cpp the fast-path table: the tuned kernel's stencils and variants
 * and the kernels by ps_gpu_launch.cpp (exact and fast). The plugin uses no
 * libpstencil symbol, so it can be opened by any program (and by the loader
 * tests) on a machine without a GPU; core/ps_plugin.h supplies the shared
 * checks, the clock and the median.
 *
 * A context keeps two device buffers (Jacobi ping-pong), the packed kernel
 * parameters (uploaded once at create) and a stream. Steps are queued
 * without host synchronisation; runs of PS_GPU_GRAPH_STEPS steps are
 * captured once into a graph (CUDA graph / hipGraph) and replayed. With
 * cfg->profile each step is launched directly between two events instead.
 * Uploads and downloads go through two pinned staging buffers (double
 * buffered), so copies run at full bus speed from pageable user memory.
 */
#ifndef PS_GPU_CONTEXT_H
#define PS_GPU_CONTEXT_H

#include "ps_gpu_port.h"

#include "ps_backend.h"
#include "ps_plugin.h"
#include "ps_plugin_land.h"
#include "ps_status.h"

#ifndef PS_GPU_STAGE_BYTES
#  define PS_GPU_STAGE_BYTES ((size_t)16 << 20) /* each of the two pinned staging buffers */
#endif
#ifndef PS_GPU_PROF_RING
#  define PS_GPU_PROF_RING 256 /* event pairs in flight when profiling */
#endif
#ifndef PS_GPU_GRAPH_STEPS
#  define PS_GPU_GRAPH_STEPS 32 /* steps per captured graph: even (ping-pong pairs) */
#endif

/** One context: a box on one device. */
struct ps_gpu_ctx {
    ps_config cfg;
    ps_grid g;       /* the box's stored cells */
    int dev;
    size_t es;       /* element size */
    size_t bytes;    /* one field */
    void *buf[2];    /* device fields */
    void *params;    /* packed kernel parameters (device) */
    size_t params_bytes;
    int cur;         /* buf[cur] holds the current step */
    gpuStream_t stream;
    ps_gpu_launch launch;
    gpuError_t (*launcher)(const ps_gpu_launch *);
    int fuse;                    /* steps per launch: 1, or 2 / 4 (gpu_fuse, gtb) */
    int graph_steps;             /* 0: graphs disabled; a multiple of 2 fuse */
    gpuGraphExec_t graph[2];     /* graph[c]: graph_steps steps starting from buf[c] */
    void *stage[2];              /* pinned staging buffers */
    gpuEvent_t stage_ev[2];      /* stage[h] is free again when stage_ev[h] completes */
    int stage_busy[2];
    /* profiling */
    gpuEvent_t prof_ev[2 * PS_GPU_PROF_RING];
    int prof_pending;
    double *prof_ms;
    long prof_n, prof_cap;
    double upload_ms, download_ms;
    /* the generic kernels' land-sum form (gpu_zero_land; ps_gpu_context.cpp, land_sum) */
    int ls_on;                   /* the fields hold land as +0.0 for the gls_ kernels */
    ps_land ls;                  /* its host side: the mask, counts and land's NaNs */
    unsigned char *ls_cnt;       /* the count bytes on the device */
    unsigned long long *ls_rep;  /* the kernels' report, [0] and [1] (device) */
    unsigned long long ls_e0;    /* the epoch when the report was last read */
    long ls_launches;            /* land-sum launches queued since then */
    ps_knobs knobs; /* the tuning knobs decided (gpu_knobs) */
    char err[1024];
};

/** Record a runtime failure on the context; returns PS_EDEVICE (or PS_ENOMEM). */
int ps_gpu_fail(ps_gpu_ctx *c, gpuError_t e, const char *what);

/** Return the status of ps_gpu_fail() from the calling function if @p call fails. */
#define PS_GPU_TRY(c, call)                                                                \
    do {                                                                                   \
        gpuError_t e_ = (call);                                                            \
        if (e_ != gpuSuccess)                                                              \
            return ps_gpu_fail((c), e_, #call);                                            \
    } while (0)

/* ps_gpu_device.cpp */
int ps_gpu_count_devices(int *n, char *why, size_t whylen);
int ps_gpu_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen);

/* ps_gpu_context.cpp */
int ps_gpu_create(const ps_config *cfg, void **out, char *why, size_t whylen);
void ps_gpu_destroy(void *vc);

/* ps_gpu_memory.cpp */
int ps_gpu_upload(void *vc, const void *host, const ps_region *r);
int ps_gpu_download(void *vc, void *host, const ps_region *r);

/* ps_gpu_memory.cpp: buffer b's land to NaN and the masked kernels from now on */
int ps_gpu_ls_leave(ps_gpu_ctx *c, int b);

/* ps_gpu_step.cpp; ps_gpu_ls_check: whether a land-sum launch wrote a NaN since
 * the last call, and if one did, its steps redone masked (before any copy) */
int ps_gpu_step(void *vc, long nsteps);
int ps_gpu_finish(void *vc);
int ps_gpu_ls_check(ps_gpu_ctx *c);

/* ps_gpu_timing.cpp */
int ps_gpu_prof_record(ps_gpu_ctx *c, int (*launch)(ps_gpu_ctx *));
int ps_gpu_prof_harvest(ps_gpu_ctx *c);
int ps_gpu_timing(void *vc, ps_timing *t);

#endif /* PS_GPU_CONTEXT_H */
