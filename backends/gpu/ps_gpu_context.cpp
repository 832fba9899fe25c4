/*
 * The GPU backend's contexts: create (checks, device memory, the packed
 * parameters uploaded once, the kernel and its launch geometry) and destroy.
 *
 * The kernel: the tuned kernel of the fast-path table (fast/ps_gpu_fast.cpp)
 * where the stencil has an entry, unless cfg->kernel asks for the generic
 * one (--kernel fast without an entry is refused); otherwise the generic
 * kernel of the stencil, found by its position in PS_STENCIL_LIST;
 * ps_gpu_launch.cpp numbers its kernels in the same order, so a stencil
 * added to the list is found here unchanged.
 */
#include "config.h"
#include "ps_gpu_context.h"
#include "fast/ps_gpu_fast.h"
#include "ps_knobs_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps_stencils.h" /* the list (descriptions only: no PS_REAL here) */

namespace {

#define PS_GPU_NAME(NAME) #NAME,
const char *const stencil_names[] = {PS_STENCIL_LIST(PS_GPU_NAME) NULL};
#undef PS_GPU_NAME

/* The k-chunk: enough blocks to fill the device, otherwise whole columns. */
int pick_kchunk(const ps_gpu_ctx *c, int sms)
{
    long long bx = c->launch.bx, by = c->launch.by;
    long long tiles = ((long long)(c->g.nx + bx - 1) / bx) * ((long long)(c->g.ny + by - 1) / by);
    long long want = (long long)(sms > 0 ? sms : 80) * 2048 / (bx * by) * 2; /* 2 waves */
    long long chunks = (want + tiles - 1) / tiles, kc;
    if (chunks < 1)
        chunks = 1;
    if (chunks > (long long)c->g.nz)
        chunks = (long long)c->g.nz;
    kc = ((long long)c->g.nz + chunks - 1) / chunks;
    if (kc < 4 && c->g.nz >= 4)
        kc = 4; /* each chunk re-reads two planes: keep chunks at least 4 deep */
    return (int)kc;
}

/*
 * PSTENCIL_GPU_KERNEL=copy replaces the step by a copy kernel over the field
 * (ps_gpu_launch_copy: same bytes read and written as a step, same
 * graph/launch path): bench/gpu_bench.c measures the copy bound with it.
 * Where diffusion7's tuned kernel runs, PSTENCIL_GPU_KERNEL=d7lb selects the
 * register-capped d7_step (blocks of at most 256 threads). A variant that
 * does not apply is ignored. PSTENCIL_GPU_PDL=1 launches the steps with
 * programmatic dependent launch on devices of compute capability 9.0 and
 * later (cuda; the hip and mock launches ignore it).
 */

/* The field's bytes, or 0 if they overflow size_t (with room for two fields). */
size_t field_bytes(ps_grid g, size_t es)
{
    size_t cells = g.nz * g.ny;
    if (g.ny && cells / g.ny != g.nz)
        return 0;
    if (g.nx && (cells * g.nx) / g.nx != cells)
        return 0;
    cells *= g.nx;
    if (cells > ((size_t)-1) / es / 2)
        return 0;
    return cells * es;
}

/*
 * Allocate the fields and the parameters, poison the fields, and upload the
 * parameters packed from cfg (the caller's arrays are not kept).
 */
int allocate(ps_gpu_ctx *c, const ps_config *cfg, const gpuDeviceProp &p, char *why,
             size_t whylen)
{
    size_t freeb = 0, totalb = 0, need;
    size_t nparams = ps_params_packed_len(cfg);
    void *host = NULL;
    gpuError_t e;
    int st = PS_OK;

#define ALLOC_TRY(call)                                                                    \
    do {                                                                                   \
        e = (call);                                                                        \
        if (e != gpuSuccess) {                                                             \
            st = ps_gpu_fail(c, e, #call);                                                 \
            snprintf(why, whylen, "%s", c->err);                                           \
            goto done;                                                                     \
        }                                                                                  \
    } while (0)

    c->params_bytes = (nparams ? nparams : 1) * c->es;
    ALLOC_TRY(gpuMemGetInfo(&freeb, &totalb));
    need = 2 * c->bytes + c->params_bytes;
    if (need > freeb) {
        snprintf(why, whylen,
                 "the %zux%zux%zu %s grid needs %.1f MiB of device memory (2 fields of %.1f "
                 "MiB and %zu bytes of parameters) but device %d (%.128s) has %.1f MiB free "
                 "of %.1f MiB",
                 c->g.nz, c->g.ny, c->g.nx,
                 ps_plugin_precision_name(cfg->precision),
                 (double)need / 1048576.0, (double)c->bytes / 1048576.0, c->params_bytes,
                 c->dev, p.name,
                 (double)freeb / 1048576.0, (double)totalb / 1048576.0);
        return PS_ENOMEM;
    }
    ALLOC_TRY(gpuStreamCreateWithFlags(&c->stream, gpuStreamNonBlocking));
    ALLOC_TRY(gpuMalloc(&c->buf[0], c->bytes ? c->bytes : 1));
    ALLOC_TRY(gpuMalloc(&c->buf[1], c->bytes ? c->bytes : 1));
    ALLOC_TRY(gpuMalloc(&c->params, c->params_bytes));
    /* poison both fields (all-ones bits: a NaN no step produces), so a cell the
     * kernel failed to write shows up as a bitwise mismatch in validation */
    ALLOC_TRY(gpuMemsetAsync(c->buf[0], 0xff, c->bytes, c->stream));
    ALLOC_TRY(gpuMemsetAsync(c->buf[1], 0xff, c->bytes, c->stream));
    /* the kernel parameters, in the working precision, once per context */
    host = calloc(1, c->params_bytes);
    if (!host) {
        snprintf(why, whylen, "out of host memory for %zu bytes of parameters",
                 c->params_bytes);
        return PS_ENOMEM;
    }
    ps_params_pack(cfg, host);
    ALLOC_TRY(gpuMemcpyAsync(c->params, host, c->params_bytes, gpuMemcpyHostToDevice,
                             c->stream));
    ALLOC_TRY(gpuStreamSynchronize(c->stream));
    for (int h = 0; h < 2; h++)
        ALLOC_TRY(gpuEventCreate(&c->stage_ev[h]));
done:
    free(host);
    return st;
#undef ALLOC_TRY
}

/* Block shape, k-chunk and the launch descriptor; checked against the device. */
int geometry(ps_gpu_ctx *c, const gpuDeviceProp &p, char *why, size_t whylen)
{
    const ps_config *cfg = &c->cfg;
    ps_gpu_launch *l = &c->launch;
    /* cfg->block = (i, j, k-chunk), 0 = automatic */
    l->bx = cfg->block[0] > 0 ? cfg->block[0] : PS_GPU_DEFAULT_BX;
    l->by = cfg->block[1] > 0 ? cfg->block[1] : PS_GPU_DEFAULT_BY;
    if ((long long)l->bx * l->by > p.maxThreadsPerBlock || l->bx > p.maxThreadsDim[0] ||
        l->by > p.maxThreadsDim[1]) {
        snprintf(why, whylen, "block %dx%d is too large for device %d (%.128s): at most %d "
                 "threads, %dx%d", l->bx, l->by, c->dev, p.name, p.maxThreadsPerBlock,
                 p.maxThreadsDim[0], p.maxThreadsDim[1]);
        return PS_EINVAL;
    }
    l->geom.kchunk = cfg->block[2] > 0 ? cfg->block[2] : pick_kchunk(c, p.multiProcessorCount);
    if (l->geom.kchunk < 1)
        l->geom.kchunk = 1;
    if ((c->g.ny + l->by - 1) / l->by > (size_t)p.maxGridSize[1] ||
        (c->g.nz + l->geom.kchunk - 1) / l->geom.kchunk > (size_t)p.maxGridSize[2] ||
        (c->g.nx + l->bx - 1) / l->bx > (size_t)p.maxGridSize[0]) {
        snprintf(why, whylen, "the %zux%zux%zu grid needs more thread blocks than device %d "
                 "allows with block %dx%d and %d planes per block (use a larger --block)",
                 c->g.nz, c->g.ny, c->g.nx, c->dev, l->bx, l->by, l->geom.kchunk);
        return PS_EINVAL;
    }
    l->geom.nz = (long long)c->g.nz;
    l->geom.ny = (long long)c->g.ny;
    l->geom.nx = (long long)c->g.nx;
    l->geom.oz = (long long)cfg->box.origin[0];
    l->geom.oy = (long long)cfg->box.origin[1];
    l->geom.ox = (long long)cfg->box.origin[2];
    l->geom.gz = (long long)cfg->box.global.nz;
    l->geom.gy = (long long)cfg->box.global.ny;
    l->geom.gx = (long long)cfg->box.global.nx;
    l->params = c->params;
    l->real = cfg->precision == PS_FLOAT64 ? PS_GPU_F64 : PS_GPU_F32;
    l->stream = c->stream;
    return PS_OK;
}

/*
 * The generic kernels' land-sum form (gls_NAME, ps_gpu_kernels.h) for a
 * stencil flagged PS_STENCIL_LAND_SUM in exact mode at one step per launch,
 * unless gpu_zero_land is 0: land held as +0.0 in the fields, a count byte a
 * cell made on the host at upload from the stencil's neighbour list
 * (core/ps_plugin_land.h), land's NaN put back on the host at download.
 * Costs a count byte a cell and 16 bytes of device memory.
 */
int land_sum(ps_gpu_ctx *c, const ps_config *cfg, char *why, size_t whylen)
{
    const size_t ext[3] = {c->g.nz, c->g.ny, c->g.nx}, cells = c->bytes / c->es;
    gpuError_t e;
    int st;
    if (!c->knobs.gpu_zero_land.value || cfg->mode != PS_MODE_EXACT || c->launch.tuned ||
        c->launcher == ps_gpu_launch_copy || c->fuse != 1 ||
        !(cfg->stencil->flags & PS_STENCIL_LAND_SUM) ||
        cfg->stencil->nneighbours > PS_LAND_MAX_NB)
        return PS_OK;
    if ((st = ps_land_init(&c->ls, cfg->stencil, ext, c->es))) {
        snprintf(why, whylen, "out of host memory for the land-sum form's count bytes");
        return st;
    }
    if ((e = gpuMalloc((void **)&c->ls_cnt, cells ? cells : 1)) != gpuSuccess ||
        (e = gpuMalloc((void **)&c->ls_rep, 2 * sizeof *c->ls_rep)) != gpuSuccess ||
        (e = gpuMemsetAsync(c->ls_cnt, 0, cells, c->stream)) != gpuSuccess ||
        (e = gpuMemsetAsync(c->ls_rep, 0, 2 * sizeof *c->ls_rep, c->stream)) != gpuSuccess ||
        (e = gpuStreamSynchronize(c->stream)) != gpuSuccess) {
        st = ps_gpu_fail(c, e, "the land-sum form's device memory");
        snprintf(why, whylen, "%s", c->err);
        return st;
    }
    c->ls_on = 1;
    c->launch.ls_cnt = c->ls_cnt;
    c->launch.ls = c->ls_rep;
    return PS_OK;
}

} /* namespace */

void ps_gpu_destroy(void *vc)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    int h;
    if (!c)
        return;
    (void)gpuSetDevice(c->dev);
    if (c->stream)
        (void)gpuStreamSynchronize(c->stream);
    for (h = 0; h < 2; h++) {
        if (c->graph[h])
            (void)gpuGraphExecDestroy(c->graph[h]);
        if (c->buf[h])
            (void)gpuFree(c->buf[h]);
        if (c->stage[h])
            (void)gpuFreeHost(c->stage[h]);
        if (c->stage_ev[h])
            (void)gpuEventDestroy(c->stage_ev[h]);
    }
    if (c->params)
        (void)gpuFree(c->params);
    if (c->ls_cnt)
        (void)gpuFree(c->ls_cnt);
    if (c->ls_rep)
        (void)gpuFree(c->ls_rep);
    ps_land_free(&c->ls);
    for (h = 0; h < 2 * PS_GPU_PROF_RING; h++)
        if (c->prof_ev[h])
            (void)gpuEventDestroy(c->prof_ev[h]);
    if (c->stream)
        (void)gpuStreamDestroy(c->stream);
    free(c->prof_ms);
    free(c);
}

/* gpu_fuse's words as steps per launch, in the knob's order (core/ps_knobs_env.h) */
static const int gpu_fuse_steps[] = {1, 2, 4};

/* The reach of each listed stencil along k, j, i (the generic tiles' halos). */
#define PS_GPU_REACH(NAME) {PS_GPU_RK(NAME), PS_GPU_RJ(NAME), PS_GPU_RI(NAME)},
static const int stencil_reach[][3] = {PS_STENCIL_LIST(PS_GPU_REACH)};
#undef PS_GPU_REACH

/*
 * Whether the generic kernel of stencil @p s fuses @p f steps per launch on
 * this box: a tile fits the shared memory (ps_gpu_gtb_pick, the kernels'
 * own rule) and its grid of tiles the device's grid limits.
 */
static bool gtb_fits(const ps_gpu_ctx *c, const gpuDeviceProp &p, int s, int f)
{
    const ps_gpu_gtb_dims d = ps_gpu_gtb_pick((int)c->es, f, stencil_reach[s][0],
                                              stencil_reach[s][1], stencil_reach[s][2]);
    return d.x > 0 && (c->g.nx + d.x - 1) / d.x <= (size_t)p.maxGridSize[0] &&
           (c->g.ny + d.y - 1) / d.y <= (size_t)p.maxGridSize[1] &&
           (c->g.nz + d.z - 1) / d.z <= (size_t)p.maxGridSize[2];
}

/* gpu_kernel's words, in the knob's order (core/ps_knobs_env.h) */
static const char *const gpu_kernel_names[] = {"auto", "copy", "d7lb"};

/* The tuning knobs: the caller's (@p asked), else the environment's, else the rule. */
static int gpu_knobs(const ps_knobs *asked, ps_knobs *k, char *why, size_t whylen)
{
    static const int ids[] = {PS_KNOB_ID_gpu_kernel, PS_KNOB_ID_gpu_pdl,
                              PS_KNOB_ID_gpu_graph_steps, PS_KNOB_ID_gpu_fuse,
                              PS_KNOB_ID_gpu_zero_land};
    if (ps_knobs_take(ids, sizeof ids / sizeof ids[0], asked, k, why, whylen))
        return PS_EINVAL;
    ps_knob_rule(&k->gpu_kernel, 0);
    ps_knob_rule(&k->gpu_pdl, 0);
    ps_knob_rule(&k->gpu_graph_steps, PS_GPU_GRAPH_STEPS);
    ps_knob_rule(&k->gpu_fuse, 0);
    ps_knob_rule(&k->gpu_zero_land, 1);
    return PS_OK;
}

int ps_gpu_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    ps_gpu_ctx *c = NULL;
    int n = 0, st, stencil;
    gpuDeviceProp p;
    gpuError_t e;
    const char *variant;
    const ps_gpu_fast_entry *fast;
    *out = NULL;
    if ((st = ps_plugin_check_config(cfg, why, whylen)))
        return st;
    if (cfg->precision != PS_FLOAT32 && cfg->precision != PS_FLOAT64) {
        snprintf(why, whylen, "unknown precision %d", (int)cfg->precision);
        return PS_EINVAL;
    }
    stencil = ps_plugin_name_index(stencil_names, cfg->stencil->name);
    if (stencil < 0) {
        snprintf(why, whylen, "stencil '%s' is not in this build's list", cfg->stencil->name);
        return PS_EUNSUPPORTED;
    }
    if ((st = ps_gpu_count_devices(&n, why, whylen)))
        return st;
    if (cfg->device >= n) {
        snprintf(why, whylen,
                 "device %d does not exist (" PS_GPU_RUNTIME " has %d device%s: 0..%d)",
                 cfg->device, n, n == 1 ? "" : "s", n - 1);
        return PS_ENODEVICE;
    }
    c = (ps_gpu_ctx *)calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, whylen, "out of host memory");
        return PS_ENOMEM;
    }
    c->cfg = *cfg;
    c->cfg.params.arrays = NULL; /* the caller's: packed onto the device, not kept */
    c->g = cfg->box.extent;
    c->dev = cfg->device < 0 ? 0 : cfg->device;
    c->es = cfg->precision == PS_FLOAT64 ? sizeof(double) : sizeof(float);
    c->bytes = field_bytes(c->g, c->es);
    if (!c->bytes) {
        snprintf(why, whylen, "grid %zux%zux%zu is too large", c->g.nz, c->g.ny, c->g.nx);
        st = PS_ENOMEM;
        goto done;
    }
    if ((e = gpuSetDevice(c->dev)) != gpuSuccess ||
        (e = gpuGetDeviceProperties(&p, c->dev)) != gpuSuccess) {
        st = ps_gpu_fail(c, e, "selecting the device");
        snprintf(why, whylen, "%s", c->err);
        goto done;
    }
    if ((st = allocate(c, cfg, p, why, whylen)) || (st = geometry(c, p, why, whylen)))
        goto done;

    c->launch.stencil = stencil;
    fast = cfg->kernel == PS_KERNEL_GENERIC ? NULL : ps_gpu_fast_find(cfg);
    if (!fast && cfg->kernel == PS_KERNEL_FAST) {
        snprintf(why, whylen, "--kernel fast: the %s fast-path table has no kernel for stencil "
                 "'%s' in %s, %s mode; use --kernel generic or auto", PS_GPU_BACKEND_NAME,
                 cfg->stencil->name, ps_plugin_precision_name(cfg->precision),
                 ps_plugin_mode_name(cfg->mode));
        st = PS_EUNSUPPORTED;
        goto done;
    }
    c->launch.tuned = fast != NULL;
    c->launch.coeff = cfg->params.scalars[0]; /* the tuned kernel's D */
    c->launcher = cfg->mode == PS_MODE_FAST ? ps_gpu_launch_fast : ps_gpu_launch_exact;
    /* the tuning knobs (core/ps_knobs.h): the caller's, else the environment's,
     * else the rule */
    if ((st = gpu_knobs(&cfg->knobs, &c->knobs, why, whylen)))
        goto done;
    variant = gpu_kernel_names[c->knobs.gpu_kernel.value];
    if (!strcmp(variant, "copy"))
        c->launcher = ps_gpu_launch_copy;
    else if (fast) { /* the entry's variants (docs/gpu.md); one it lacks is ignored */
        const bool small_block = (long long)c->launch.bx * c->launch.by <= PS_GPU_LB_THREADS;
        if (!strcmp(variant, "d7lb") && small_block && ps_gpu_fast_has(fast, PS_GPU_V_D7LB))
            c->launch.variant = PS_GPU_V_D7LB;
    }

    c->fuse = 1;
    if (!c->launch.tuned && c->launcher != ps_gpu_launch_copy && !cfg->profile) {
        /* the generic kernels: gpu_fuse steps per launch where a tile fits */
        const int f = gpu_fuse_steps[c->knobs.gpu_fuse.value];
        if (f > 1 && gtb_fits(c, p, stencil, f))
            c->fuse = f;
    }
    if ((st = land_sum(c, cfg, why, whylen)))
        goto done;
    c->launch.pdl = c->knobs.gpu_pdl.value && p.major >= 9;
    c->graph_steps = (int)c->knobs.gpu_graph_steps.value; /* 0 disables graphs */
    /* rounded up to an even number of launches of fuse steps */
    c->graph_steps = (c->graph_steps + 2 * c->fuse - 1) / (2 * c->fuse) * (2 * c->fuse);
    if (cfg->profile)
        c->graph_steps = 0; /* each step between its own events */
    *out = c;
    return PS_OK;
done:
    ps_gpu_destroy(c);
    return st;
}
