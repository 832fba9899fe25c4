/*
 * The GPU backend's steps: each step is one kernel launch from buf[cur] to
 * buf[cur^1] on the context's stream, queued without host synchronisation.
 * Runs of graph_steps steps (an even number of launches: the current buffer
 * does not change) are captured once per starting buffer into a graph (CUDA
 * graph / hipGraph) and replayed, so a step of a small grid costs about a kernel's
 * run time, not a launch; with cfg->profile each step is launched between
 * two events instead (ps_gpu_timing.cpp). The generic temporally blocked
 * kernels (gtb, c->fuse steps per launch) launch fused steps, in graphs and
 * out, and the steps left over (fewer than fuse) one at a time; profiled,
 * every step is a single step.
 */
#include "config.h"
#include "ps_gpu_context.h"

namespace {

/* One launch advancing `steps` steps (1, or c->fuse: gtb) from buf[cur]. */
int launch_steps(ps_gpu_ctx *c, int steps)
{
    c->launch.in = c->buf[c->cur];
    c->launch.out = c->buf[c->cur ^ 1];
    c->launch.steps = steps;
    c->launch.ls_parity = c->cur;
    PS_GPU_TRY(c, c->launcher(&c->launch));
    c->ls_launches += c->ls_on;
    c->cur ^= 1;
    return PS_OK;
}

int launch_one(ps_gpu_ctx *c)
{
    return launch_steps(c, 1);
}

int build_graph(ps_gpu_ctx *c, int from)
{
    gpuGraph_t g = NULL;
    gpuError_t e, e2;
    int s, st = PS_OK;
    PS_GPU_TRY(c, gpuStreamBeginCapture(c->stream, gpuStreamCaptureModeThreadLocal));
    /* graph_steps / fuse launches of fuse steps (an even number of them) */
    for (s = 0; s < c->graph_steps / c->fuse && !st; s++) {
        c->launch.in = c->buf[(from + s) & 1];
        c->launch.out = c->buf[(from + s + 1) & 1];
        c->launch.steps = c->fuse;
        c->launch.ls_parity = (from + s) & 1;
        e = c->launcher(&c->launch);
        if (e != gpuSuccess)
            st = ps_gpu_fail(c, e, "kernel launch during graph capture");
    }
    e2 = gpuStreamEndCapture(c->stream, &g);
    if (st) {
        if (g)
            (void)gpuGraphDestroy(g);
        return st;
    }
    if (e2 != gpuSuccess)
        return ps_gpu_fail(c, e2, "gpuStreamEndCapture");
    e = gpuGraphInstantiateWithFlags(&c->graph[from], g, 0);
    (void)gpuGraphDestroy(g);
    if (e != gpuSuccess) {
        c->graph[from] = NULL;
        return ps_gpu_fail(c, e, "gpuGraphInstantiateWithFlags");
    }
    return PS_OK;
}

} /* namespace */

int ps_gpu_step(void *vc, long nsteps)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    long t = 0;
    int st;
    PS_GPU_TRY(c, gpuSetDevice(c->dev));
    if (c->cfg.profile) {
        for (t = 0; t < nsteps; t++)
            if ((st = ps_gpu_prof_record(c, launch_one)))
                return st;
        return PS_OK;
    }
    if (c->graph_steps > 0 && nsteps >= c->graph_steps) {
        if (!c->graph[c->cur] && build_graph(c, c->cur)) {
            /* graphs are an optimisation: if capture or instantiation is refused
             * (old driver, unusual runtime), launch step by step instead */
            (void)gpuGetLastError();
            c->graph_steps = 0;
        } else {
            for (; t + c->graph_steps <= nsteps; t += c->graph_steps) { /* even: cur unchanged */
                PS_GPU_TRY(c, gpuGraphLaunch(c->graph[c->cur], c->stream));
                c->ls_launches += c->ls_on ? c->graph_steps : 0;
            }
        }
    }
    for (; c->fuse > 1 && t + c->fuse <= nsteps; t += c->fuse) /* gtb: fused launches */
        if ((st = launch_steps(c, c->fuse)))
            return st;
    for (; t < nsteps; t++) /* single steps (gtb's remainder) */
        if ((st = launch_one(c)))
            return st;
    return PS_OK;
}

/*
 * The land-sum form's report (ps_gpu_kernels.h, gls_NAME): each land-sum
 * launch advanced the epoch before it ran, until one wrote a NaN and stored
 * its epoch and input buffer; the launches after it did nothing. That
 * launch's input becomes the state on NaN land, and its steps and those
 * after are redone by the masked kernels (the graphs captured with the
 * land-sum kernels dropped): the reference masks the NaN from then on, which
 * the counts cannot follow.
 */
int ps_gpu_ls_check(ps_gpu_ctx *c)
{
    unsigned long long rep[2];
    long launches = c->ls_launches, before;
    int st, h;
    if (!c->ls_on || !launches)
        return PS_OK;
    PS_GPU_TRY(c, gpuSetDevice(c->dev));
    PS_GPU_TRY(c, gpuMemcpyAsync(rep, c->ls_rep, sizeof rep, gpuMemcpyDeviceToHost, c->stream));
    PS_GPU_TRY(c, gpuStreamSynchronize(c->stream));
    c->ls_launches = 0;
    if (!rep[0]) {
        c->ls_e0 = rep[1];
        return PS_OK;
    }
    before = (long)((rep[0] >> 1) - c->ls_e0) - 1; /* launches done before it */
    c->cur = (int)(rep[0] & 1);
    if ((st = ps_gpu_ls_leave(c, c->cur)))
        return st;
    for (h = 0; h < 2; h++)
        if (c->graph[h]) {
            PS_GPU_TRY(c, gpuGraphExecDestroy(c->graph[h]));
            c->graph[h] = NULL;
        }
    return ps_gpu_step(c, launches - before);
}

int ps_gpu_finish(void *vc)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    int st;
    if ((st = ps_gpu_ls_check(c)))
        return st;
    PS_GPU_TRY(c, gpuSetDevice(c->dev));
    PS_GPU_TRY(c, gpuStreamSynchronize(c->stream));
    return ps_gpu_prof_harvest(c);
}
