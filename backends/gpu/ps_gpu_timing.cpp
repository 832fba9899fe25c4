/*
 * The GPU backend's timing: with cfg->profile every step runs between two
 * events of a ring of PS_GPU_PROF_RING pairs; the ring is harvested into
 * per-step milliseconds when it is full and at finish, and timing reports
 * their min/median/max/sum with the upload and download wall times.
 */
#include "config.h"
#include "ps_gpu_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Launch one step (launch) between the next pair of events of the ring. */
int ps_gpu_prof_record(ps_gpu_ctx *c, int (*launch)(ps_gpu_ctx *))
{
    int p, st;
    if (c->prof_pending == PS_GPU_PROF_RING && (st = ps_gpu_prof_harvest(c)))
        return st;
    p = c->prof_pending;
    if (!c->prof_ev[2 * p]) {
        PS_GPU_TRY(c, gpuEventCreate(&c->prof_ev[2 * p]));
        PS_GPU_TRY(c, gpuEventCreate(&c->prof_ev[2 * p + 1]));
    }
    PS_GPU_TRY(c, gpuEventRecord(c->prof_ev[2 * p], c->stream));
    if ((st = launch(c)))
        return st;
    PS_GPU_TRY(c, gpuEventRecord(c->prof_ev[2 * p + 1], c->stream));
    c->prof_pending++;
    return PS_OK;
}

/* Collect finished profiling events into prof_ms (synchronises). */
int ps_gpu_prof_harvest(ps_gpu_ctx *c)
{
    int p;
    if (!c->prof_pending)
        return PS_OK;
    PS_GPU_TRY(c, gpuEventSynchronize(c->prof_ev[2 * (c->prof_pending - 1) + 1]));
    if (c->prof_n + c->prof_pending > c->prof_cap) {
        long cap = c->prof_cap ? c->prof_cap * 2 : 1024;
        double *m;
        while (cap < c->prof_n + c->prof_pending)
            cap *= 2;
        m = (double *)realloc(c->prof_ms, (size_t)cap * sizeof *m);
        if (!m) {
            snprintf(c->err, sizeof c->err, "out of host memory for step timings");
            return PS_ENOMEM;
        }
        c->prof_ms = m;
        c->prof_cap = cap;
    }
    for (p = 0; p < c->prof_pending; p++) {
        float ms = 0;
        PS_GPU_TRY(c, gpuEventElapsedTime(&ms, c->prof_ev[2 * p], c->prof_ev[2 * p + 1]));
        c->prof_ms[c->prof_n++] = ms;
    }
    c->prof_pending = 0;
    return PS_OK;
}

int ps_gpu_timing(void *vc, ps_timing *t)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    int st;
    long s;
    memset(t, 0, sizeof *t);
    if ((st = ps_gpu_finish(c)))
        return st;
    t->upload_ms = c->upload_ms;
    t->download_ms = c->download_ms;
    t->device_bytes = 2 * (uint64_t)c->bytes + c->params_bytes;
    if (c->prof_n > 0) {
        double *sorted = (double *)malloc((size_t)c->prof_n * sizeof *sorted);
        if (!sorted) {
            snprintf(c->err, sizeof c->err, "out of host memory");
            return PS_ENOMEM;
        }
        memcpy(sorted, c->prof_ms, (size_t)c->prof_n * sizeof *sorted);
        t->step_ms_med = ps_plugin_median(sorted, (size_t)c->prof_n); /* sorts */
        t->steps = c->prof_n;
        t->step_ms_min = sorted[0];
        t->step_ms_max = sorted[c->prof_n - 1];
        for (s = 0; s < c->prof_n; s++)
            t->step_ms_sum += sorted[s];
        free(sorted);
    }
    return PS_OK;
}
