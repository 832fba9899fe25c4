/**
 * @file ps_stencils.h
 * @brief The list of stencils: the one place a stencil is registered.
 *
 * Every consumer (the registry, every backend's generic skeleton, the
 * OpenCL program, the CUDA/HIP kernels) reads PS_STENCIL_LIST. Adding a
 * stencil is: write kernels/NAME.h (docs/adding-a-stencil.md), include it
 * here, add X(NAME) to the list, and name the file in kernels/local.mk.
 * The first entry is the default stencil.
 *
 * Include once per precision after defining PS_REAL and PS_SUFFIX to get the
 * cell functions, or without PS_REAL for the descriptions alone.
 *
 * (OpenCL receives the files concatenated, with the \#include lines removed,
 * so every kernel file must also be listed in kernels/local.mk.)
 */
/* No include guard: included again after each change of PS_REAL, it brings
 * the cell functions in that precision (the description macros are the same
 * each time). */
#include "diffusion7.h"
#include "hdiff.h"
#include "smooth2.h"
#include "tracer.h"

#ifndef PS_STENCIL_LIST
/** Every stencil, X(NAME) each; the first is the default. */
#define PS_STENCIL_LIST(X) \
    X(diffusion7)          \
    X(hdiff)               \
    X(smooth2)             \
    X(tracer)
#endif
