/*
 * The opencl backend's hand-written kernels: the one table (stencil,
 * precisions, modes, kernel shapes -> the kernels' names) that the backend
 * reads to pick them, and the stencils it names (ops.fast_paths). Every
 * stencil, these included, also runs in the generic kernels
 * (ps_opencl_generic.cl), against which each entry is validated bitwise
 * (`pstencil validate`, `--kernel generic`). An entry goes once the generic
 * kernels are measured within 10 % of it; a shape without an entry runs the
 * generic kernels, and the kernel-path line (describe) says so.
 */
#ifndef PS_OPENCL_FAST_H
#define PS_OPENCL_FAST_H

#include "ps_backend.h"

/** Kernel shapes, in the order of the knob opencl_kernel's values. */
enum ps_ocl_shape {
    PS_OCL_SHAPE_IJ = 0,  /**< a 2-D range over (i, j), the k loop inside */
    PS_OCL_SHAPE_IJK = 1, /**< one cell per work-item */
    PS_OCL_SHAPE_ROW = 2  /**< a 2-D range over (j, k), the i loop inside */
};

/** One stencil's hand-written kernels. */
typedef struct ps_ocl_fast_entry {
    int stencil;         /**< index into ps_ocl_fast_paths */
    unsigned precisions; /**< bits 1u << PS_FLOAT32, 1u << PS_FLOAT64 */
    unsigned modes;      /**< bits 1u << PS_MODE_EXACT, 1u << PS_MODE_FAST */
    unsigned shapes;     /**< bits 1u << PS_OCL_SHAPE_*: the shapes it has kernels in */
    const char *kernel;  /**< the step kernels' name less "_<shape>" (ij, ijk, row) */
} ps_ocl_fast_entry;

/** The stencils with an entry, NULL-terminated (ops.fast_paths). */
extern const char *const ps_ocl_fast_paths[];

/**
 * The entry for @p cfg's stencil, precision and mode that has kernels in
 * shape @p shape (PS_OCL_SHAPE_*); NULL: the generic kernels.
 */
const ps_ocl_fast_entry *ps_ocl_fast_find(const ps_config *cfg, int shape);

/** The shapes (bits 1u << PS_OCL_SHAPE_*) with an entry for @p cfg's stencil,
 *  precision and mode; 0: none. */
unsigned ps_ocl_fast_shapes(const ps_config *cfg);

#endif /* PS_OPENCL_FAST_H */
