/**
 * @file ps_kernel_defs.h
 * @brief Portability macros that let one stencil definition compile as C99,
 *        CUDA, HIP and OpenCL C.
 *
 * A kernel file in this directory is written in the common subset of those
 * languages and uses only:
 *   - @c PS_REAL        the working precision (float or double), defined by the
 *                       includer before including the kernel file;
 *   - @c PS_SUFFIX      a token (_f32, _f64) that PS_CAT appends to function
 *                       names, so that C can include the same kernel twice;
 *   - @c PS_KERNEL_FN   the qualifiers of a cell-update function;
 *   - @c PS_DIV         the division (see below);
 *   - @c PS_MASK        the type of a comparison of PS_REAL values (for flags);
 *   - @c PS_GLOBAL      the address space of device pointers;
 *   - @c PS_AXIS_*      the axes a coefficient array depends on.
 *
 * docs/adding-a-stencil.md describes the whole format of a stencil file.
 *
 * No fused multiply-add may be formed from the kernel expressions in exact
 * mode: C is compiled with -ffp-contract=off, CUDA with --fmad=false, HIP with
 * -ffp-contract=off and OpenCL with "#pragma OPENCL FP_CONTRACT OFF".
 */
#ifndef PS_KERNEL_DEFS_H
#define PS_KERNEL_DEFS_H

/** Qualifiers of a cell function: inline, and callable on the device under CUDA/HIP.
 *  Always inlined under GCC and clang: a cell update the row loop calls out of
 *  line cannot be vectorised (a call per cell). */
#if defined(__OPENCL_VERSION__)
#  define PS_KERNEL_FN static inline
#elif defined(__CUDACC__) || defined(__HIPCC__)
#  define PS_KERNEL_FN static __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#  define PS_KERNEL_FN static inline __attribute__((always_inline))
#else
#  define PS_KERNEL_FN static inline
#endif

/**
 * PS_DIV(a, b): the one division of a cell update, a / b. The OpenCL backend
 * redefines it, on a device without correctly rounded float division, as the
 * float quotient computed in double and rounded once (which is correctly
 * rounded); everything else keeps a / b.
 */
#ifndef PS_DIV
#  define PS_DIV(a, b) ((a) / (b))
#endif

/**
 * PS_MASK: the type of a comparison of two PS_REAL values, for a flag kept
 * from comparisons (`PS_MASK o = 0; o = o | (v == v);`): int, and in the
 * OpenCL backend's vector programs (PS_REAL a vector type) the integer vector
 * a comparison of two vectors gives.
 */
#ifndef PS_MASK
#  define PS_MASK int
#endif

/**
 * PS_GLOBAL: the address space of device memory in a kernel's pointer
 * arguments (__global in OpenCL C, nothing elsewhere).
 */
#if defined(__OPENCL_VERSION__)
#  define PS_GLOBAL __global
#else
#  define PS_GLOBAL
#endif

/*
 * Axes a coefficient array depends on (bit mask). An array over axes A is
 * stored over the global grid's extents along A only, in C order (k slowest):
 * PS_AXIS_K alone has nz values, PS_AXIS_K|PS_AXIS_J has nz*ny, all three
 * (PS_AXIS_CELL) one value per cell.
 */
/** Array axis bit: longitude (i). */
#define PS_AXIS_I 1
/** Array axis bit: latitude (j). */
#define PS_AXIS_J 2
/** Array axis bit: depth (k). */
#define PS_AXIS_K 4
/** All three axes: one value per cell. */
#define PS_AXIS_CELL 7

/** Token pasting, without expanding its arguments (PS_CAT's helper). */
#define PS_CAT_(a, b) a##b
/** Token pasting after expanding both arguments (names with PS_SUFFIX). */
#define PS_CAT(a, b) PS_CAT_(a, b)

#endif /* PS_KERNEL_DEFS_H */
