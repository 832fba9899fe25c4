/*
 * The openmp backend's hand-written paths: the one table (stencil,
 * precisions, modes, instruction set -> the function that sets a context
 * up) that the backend reads to pick one, and the stencils it names
 * (ops.fast_paths). Every stencil, these included, also runs through the
 * generic path (ps_openmp_generic.c), against which each entry is validated
 * bitwise (`pstencil validate`, `--kernel generic`).
 */
#ifndef PS_OPENMP_FAST_H
#define PS_OPENMP_FAST_H

#include "ps_openmp_internal.h"

/** Sets a context up for its hand-written path; tiling_src receives where its
 *  fused steps and tiles came from. */
typedef int (*ps_omp_fast_fn)(omp_ctx *c, size_t bytes, char *tiling_src, size_t srclen);

/** Instruction sets an entry needs (ps_omp_fast_entry::isa). */
enum ps_omp_fast_isa {
    PS_OMP_FAST_BASE = 0,   /**< any x86-64 CPU */
    PS_OMP_FAST_AVX2 = 1,   /**< AVX2 (the knob openmp_isa allows it) */
    PS_OMP_FAST_AVX512 = 2  /**< AVX-512F/VL and AVX2 */
};

/** One hand-written path. */
typedef struct ps_omp_fast_entry {
    int stencil;         /**< index into ps_omp_fast_paths */
    unsigned precisions; /**< bits 1u << PS_FLOAT32, 1u << PS_FLOAT64 */
    unsigned modes;      /**< bits 1u << PS_MODE_EXACT, 1u << PS_MODE_FAST */
    int isa;             /**< PS_OMP_FAST_*: what the CPU and the knobs must allow */
    ps_omp_fast_fn setup;
} ps_omp_fast_entry;

/** The stencils with an entry, NULL-terminated (ops.fast_paths). */
extern const char *const ps_omp_fast_paths[];

/**
 * The first entry of the table for @p cfg's stencil, precision and mode
 * whose instruction set the CPU and knobs @p k allow; NULL: the generic path.
 */
ps_omp_fast_fn ps_omp_fast_find(const ps_config *cfg, const ps_knobs *k);

#endif /* PS_OPENMP_FAST_H */
