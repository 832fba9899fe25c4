/*
 * The table of the GPU backend's hand-written kernels (ps_gpu_fast.h):
 * diffusion7's tuned 2.5-D kernel (ps_gpu_kernels.h) and its register-capped
 * variant d7lb, in float64 and in float32 exact mode. Float32 fast mode has no
 * entry: there the generic kernel is faster (NVIDIA H200: 1.36 against 1.92
 * ms a step on 400 M cells, 13.5 against 14.8 us on the course grid).
 */
#include "config.h"
#include "ps_gpu_fast.h"
#include "ps_gpu_port.h"
#include "ps_plugin.h"

#include <stddef.h>

const char *const ps_gpu_fast_paths[] = {"diffusion7", NULL};

namespace {

#define M_BOTH ((1u << PS_MODE_EXACT) | (1u << PS_MODE_FAST))
#define V_D7 ((1u << PS_GPU_V_D7) | (1u << PS_GPU_V_D7LB))
/* in order of preference: the first usable entry of a stencil wins */
const ps_gpu_fast_entry ps_gpu_fast_table[] = {
    {.stencil = 0, .precisions = 1u << PS_FLOAT32, .modes = 1u << PS_MODE_EXACT,
     .variants = V_D7},
    {.stencil = 0, .precisions = 1u << PS_FLOAT64, .modes = M_BOTH, .variants = V_D7},
};

} /* namespace */

const ps_gpu_fast_entry *ps_gpu_fast_find(const ps_config *cfg)
{
    const int s = ps_plugin_name_index(ps_gpu_fast_paths, cfg->stencil->name);
    if (s < 0)
        return NULL;
    for (size_t e = 0; e < sizeof ps_gpu_fast_table / sizeof ps_gpu_fast_table[0]; e++) {
        const ps_gpu_fast_entry *f = &ps_gpu_fast_table[e];
        if (f->stencil == s && (f->precisions >> cfg->precision & 1u) &&
            (f->modes >> cfg->mode & 1u))
            return f;
    }
    return NULL;
}
