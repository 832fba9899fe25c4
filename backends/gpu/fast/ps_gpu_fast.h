/*
 * The GPU backend's hand-written kernels: the one table (stencil,
 * precisions, modes -> the tuned kernel's variants, enum ps_gpu_variant)
 * that the backend reads to pick them, and the stencils it names
 * (ops.fast_paths). Every stencil, these included, also runs in the generic
 * kernels (ps_gpu_kernels.h), against which each entry is validated bitwise
 * (`pstencil validate`, `--kernel generic`).
 */
#ifndef PS_GPU_FAST_H
#define PS_GPU_FAST_H

#include "ps_backend.h"

/** One stencil's tuned kernel (launch.tuned; ps_gpu_launch.cpp launches it). */
typedef struct ps_gpu_fast_entry {
    int stencil;         /**< index into ps_gpu_fast_paths */
    unsigned precisions; /**< bits 1u << PS_FLOAT32, 1u << PS_FLOAT64 */
    unsigned modes;      /**< bits 1u << PS_MODE_EXACT, 1u << PS_MODE_FAST */
    unsigned variants;   /**< bits 1u << PS_GPU_V_*: the variants it has (gpu_kernel) */
} ps_gpu_fast_entry;

/** The stencils with an entry, NULL-terminated (ops.fast_paths). */
extern const char *const ps_gpu_fast_paths[];

/** The entry for @p cfg's stencil, precision and mode; NULL: the generic kernels. */
const ps_gpu_fast_entry *ps_gpu_fast_find(const ps_config *cfg);

/** Whether entry @p f (NULL: none) has variant @p v (enum ps_gpu_variant). */
static inline int ps_gpu_fast_has(const ps_gpu_fast_entry *f, int v)
{
    return f && (f->variants >> v & 1u);
}

#endif /* PS_GPU_FAST_H */
