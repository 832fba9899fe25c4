/**
 * @file ps_skeleton_all.h
 * @brief Every listed stencil's cell functions and generic point update
 *        (ps_NAME_apply_f32 and ps_NAME_apply_f64), in both precisions, for a
 *        C, CUDA or HIP translation unit: include it once.
 *
 * OpenCL compiles the program once per precision instead (PS_REAL is a
 * build option there), so the OpenCL program does not embed this file.
 */
#ifndef PS_SKELETON_ALL_H
#define PS_SKELETON_ALL_H

/** @cond PS_INSTANTIATION (the two precisions, not API) */
#define PS_REAL float
#define PS_SUFFIX _f32
#include "ps_stencils.h"
#include "ps_skeleton.h"
PS_STENCIL_LIST(PS_SKELETON_DEFINE)
PS_STENCIL_LIST(PS_SKELETON_LANDSUM_OF)
#undef PS_REAL
#undef PS_SUFFIX
#define PS_REAL double
#define PS_SUFFIX _f64
#include "ps_stencils.h"
#include "ps_skeleton.h"
PS_STENCIL_LIST(PS_SKELETON_DEFINE)
PS_STENCIL_LIST(PS_SKELETON_LANDSUM_OF)
#undef PS_REAL
#undef PS_SUFFIX
/** @endcond */

#endif /* PS_SKELETON_ALL_H */
