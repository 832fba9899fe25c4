/*
 * The openmp backend's generic skeleton: every stencil of
 * kernels/ps_stencils.h in both precisions, threads over the box's (k, j)
 * rows with a static schedule, the i loop calling the stencil's point update
 * from kernels/ps_skeleton.h (inlined, so the compiler vectorises what it
 * can). It writes only cells at least the stencil's radius away from every
 * face; the openmp backend uploads every cell into both of its buffers, so the
 * outer layers agree and the buffer swap copies them for free.
 *
 * This file is compiled once per instruction set by build rule
 * (backends/openmp/local.mk): PS_OMP_ISA names the variant (the function
 * names get its suffix). Exact mode holds for every variant: the flags never
 * allow contraction (-ffp-contract=off) and never enable FMA.
 */
#include "config.h"
#include "ps_openmp_generic.h"

#include <omp.h>
#include <string.h>

#include "ps_skeleton_all.h"

#define GEN_STEP(NAME, REAL, SFX)                                                       \
    static void gen_##NAME##SFX(const ps_config *cfg, int threads, const void *params,   \
                                void **cur, void **next, long nsteps)                   \
    {                                                                                   \
        const ps_box *b = &cfg->box;                                                    \
        const long nz = (long)b->extent.nz, ny = (long)b->extent.ny,                    \
                   nx = (long)b->extent.nx, r = PS_##NAME##_RADIUS;                     \
        const long ok = (long)b->origin[0], oj = (long)b->origin[1],                    \
                   oi = (long)b->origin[2], gz = (long)b->global.nz,                    \
                   gy = (long)b->global.ny, gx = (long)b->global.nx;                    \
        const long rows_j = ny - 2 * r, rows = (nz - 2 * r) * rows_j;                   \
        const REAL *restrict P = params;                                                \
        long t;                                                                         \
        if (nz <= 2 * r || ny <= 2 * r || nx <= 2 * r)                                  \
            return;                                                                     \
        for (t = 0; t < nsteps; t++) {                                                  \
            const REAL *restrict T = *cur;                                              \
            REAL *restrict Tn = *next;                                                  \
            void *tmp;                                                                  \
            long q;                                                                     \
            _Pragma("omp parallel for schedule(static) num_threads(threads)")           \
            for (q = 0; q < rows; q++) {                                                \
                const long k = r + q / rows_j, j = r + q % rows_j;                      \
                const long row = (k * ny + j) * nx;                                     \
                /* restrict again inside the outlined parallel body, where gcc  */      \
                /* no longer sees the function's, and ivdep: the i loop writes  */      \
                /* only To, which no load reads (gcc then vectorises it)         */     \
                const REAL *restrict Ti = T, *restrict Pi = P;                          \
                REAL *restrict To = Tn;                                                 \
                long i;                                                                 \
                _Pragma("GCC ivdep")                                                    \
                for (i = r; i < nx - r; i++)                                            \
                    To[row + i] = ps_##NAME##_apply##SFX(Ti, row + i, ny * nx, nx, Pi,  \
                                                         ok + k, oj + j, oi + i, gz,    \
                                                         gy, gx);                       \
            }                                                                           \
            tmp = *cur;                                                                 \
            *cur = *next;                                                               \
            *next = tmp;                                                                \
        }                                                                               \
    }
#define GEN_F32(NAME) GEN_STEP(NAME, float, _f32)
#define GEN_F64(NAME) GEN_STEP(NAME, double, _f64)
PS_STENCIL_LIST(GEN_F32)
PS_STENCIL_LIST(GEN_F64)

#define GEN_ENTRY(NAME) {#NAME, gen_##NAME##_f32, gen_##NAME##_f64},
static const ps_omp_generic PS_OMP_GEN_TABLE[] = {PS_STENCIL_LIST(GEN_ENTRY){NULL, NULL, NULL}};

const ps_omp_generic *PS_OMP_GEN_LOOKUP(const char *name)
{
    const ps_omp_generic *g;
    for (g = PS_OMP_GEN_TABLE; g->name; g++)
        if (!strcmp(g->name, name))
            return g;
    return NULL;
}
