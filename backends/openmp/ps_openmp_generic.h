/*
 * Internal to the openmp backend: the generic skeleton's step functions,
 * one table per instruction-set variant (ps_openmp_generic.c compiled once
 * per variant by build rule).
 */
#ifndef PS_OPENMP_GENERIC_H
#define PS_OPENMP_GENERIC_H

#include "ps_backend.h"

/** Advance nsteps steps, swapping *cur and *next after each. */
typedef void (*ps_omp_generic_fn)(const ps_config *cfg, int threads, const void *params,
                                  void **cur, void **next, long nsteps);

/** One stencil's generic steps. */
typedef struct ps_omp_generic {
    const char *name;
    ps_omp_generic_fn f32, f64;
} ps_omp_generic;

#ifndef PS_OMP_ISA
#  define PS_OMP_ISA base
#endif
#define PS_OMP_CAT_(a, b) a##b
#define PS_OMP_CAT(a, b) PS_OMP_CAT_(a, b)
#define PS_OMP_GEN_TABLE PS_OMP_CAT(ps_omp_generic_table_, PS_OMP_ISA)
#define PS_OMP_GEN_LOOKUP PS_OMP_CAT(ps_omp_generic_find_, PS_OMP_ISA)

/** The generic steps of stencil @p name in each variant (NULL if not listed). */
const ps_omp_generic *ps_omp_generic_find_base(const char *name);
const ps_omp_generic *ps_omp_generic_find_avx2(const char *name);

#endif
