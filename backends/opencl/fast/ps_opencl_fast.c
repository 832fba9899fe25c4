/*
 * The table of the opencl backend's hand-written kernels (ps_opencl_fast.h):
 * diffusion7's tuned step kernels (ps_opencl_diffusion7.cl) in the GPU
 * shapes (ij, ijk), both precisions and modes. The row shape, the CPU
 * default, has no entry: the generic rows match the hand-written ones there
 * (docs/performance.md, "OpenCL on PoCL"); the GPU shapes' entry waits for
 * a GPU's measurement.
 */
#include "config.h"
#include "ps_opencl_fast.h"
#include "ps_plugin.h"

#include <stddef.h>

const char *const ps_ocl_fast_paths[] = {"diffusion7", NULL};

#define F_BOTH ((1u << PS_FLOAT32) | (1u << PS_FLOAT64))
#define M_BOTH ((1u << PS_MODE_EXACT) | (1u << PS_MODE_FAST))
#define S_GPU ((1u << PS_OCL_SHAPE_IJ) | (1u << PS_OCL_SHAPE_IJK))
/* in order of preference: the first usable entry of a stencil wins */
static const ps_ocl_fast_entry ps_ocl_fast_table[] = {
    {.stencil = 0, .precisions = F_BOTH, .modes = M_BOTH, .shapes = S_GPU,
     .kernel = "ps_fast_diffusion7"},
};

/* the first entry for @p cfg's stencil, precision and mode with a kernel in
 * one of @p shapes (bits); NULL: none */
static const ps_ocl_fast_entry *find(const ps_config *cfg, unsigned shapes)
{
    const int s = ps_plugin_name_index(ps_ocl_fast_paths, cfg->stencil->name);
    size_t e;
    if (s < 0)
        return NULL;
    for (e = 0; e < sizeof ps_ocl_fast_table / sizeof ps_ocl_fast_table[0]; e++) {
        const ps_ocl_fast_entry *f = &ps_ocl_fast_table[e];
        if (f->stencil == s && (f->precisions >> cfg->precision & 1u) &&
            (f->modes >> cfg->mode & 1u) && (f->shapes & shapes))
            return f;
    }
    return NULL;
}

const ps_ocl_fast_entry *ps_ocl_fast_find(const ps_config *cfg, int shape)
{
    return find(cfg, 1u << shape);
}

unsigned ps_ocl_fast_shapes(const ps_config *cfg)
{
    unsigned have = 0, b;
    for (b = 0; b < 3; b++)
        if (find(cfg, 1u << b))
            have |= 1u << b;
    return have;
}
