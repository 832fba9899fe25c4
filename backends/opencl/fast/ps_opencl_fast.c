/*
 * The table of the opencl backend's hand-written kernels (ps_opencl_fast.h):
 * diffusion7's tuned step kernels (ps_opencl_diffusion7.cl) in the three
 * shapes, both precisions and modes, and its zero-land kernels in exact mode
 * in the row shape (the CPU default) for 0 <= D <= 1 (ps_opencl_zeroland.c
 * says why; evidence: docs/performance.md, "OpenCL on PoCL").
 */
#include "config.h"
#include "ps_opencl_fast.h"
#include "ps_plugin.h"

#include <stddef.h>

const char *const ps_ocl_fast_paths[] = {"diffusion7", NULL};

/* zero-land needs 0 <= D <= 1: no ocean cell may overflow to NaN */
static int d7_zl_applies(const ps_config *cfg)
{
    const double d = cfg->params.scalars[0];
    return d >= 0 && d <= 1;
}

#define F_BOTH ((1u << PS_FLOAT32) | (1u << PS_FLOAT64))
#define M_BOTH ((1u << PS_MODE_EXACT) | (1u << PS_MODE_FAST))
#define S_ALL ((1u << PS_OCL_SHAPE_IJ) | (1u << PS_OCL_SHAPE_IJK) | (1u << PS_OCL_SHAPE_ROW))
/* in order of preference: the first usable entry of a stencil wins */
static const ps_ocl_fast_entry ps_ocl_fast_table[] = {
    {.stencil = 0, .precisions = F_BOTH, .modes = M_BOTH, .shapes = S_ALL,
     .kernel = "ps_fast_diffusion7",
     .zl_modes = 1u << PS_MODE_EXACT, .zl_shapes = 1u << PS_OCL_SHAPE_ROW,
     .zl_applies = d7_zl_applies, .zl_row = "ps_zl_diffusion7_row",
     .zl_wave = "ps_zl_diffusion7_wave", .zl_fused = "ps_zl_diffusion7_fused"},
};

const ps_ocl_fast_entry *ps_ocl_fast_find(const ps_config *cfg, int shape)
{
    const int s = ps_plugin_name_index(ps_ocl_fast_paths, cfg->stencil->name);
    size_t e;
    if (s < 0)
        return NULL;
    for (e = 0; e < sizeof ps_ocl_fast_table / sizeof ps_ocl_fast_table[0]; e++) {
        const ps_ocl_fast_entry *f = &ps_ocl_fast_table[e];
        if (f->stencil == s && (f->precisions >> cfg->precision & 1u) &&
            (f->modes >> cfg->mode & 1u) && (f->shapes >> shape & 1u))
            return f;
    }
    return NULL;
}

int ps_ocl_fast_zero_land(const ps_ocl_fast_entry *f, const ps_config *cfg, int shape)
{
    return f && f->zl_row && (f->zl_modes >> cfg->mode & 1u) && (f->zl_shapes >> shape & 1u) &&
           (!f->zl_applies || f->zl_applies(cfg));
}
