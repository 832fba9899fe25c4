/*
 * Internal to the openmp backend: the generic path's fused sweeps, one
 * table per instruction-set variant (ps_openmp_generic.c compiled once per
 * variant by build rule), and the tiling they share.
 */
#ifndef PS_OPENMP_GENERIC_H
#define PS_OPENMP_GENERIC_H

#include <stddef.h>

#include "ps_backend.h"
#include "ps_stencil.h"

#define PS_TB_MAX 16 /* most steps fused into one sweep */

/* A zero-land count byte (ps_openmp_zeroland.c): the ocean neighbours in the low
 * bits (PS_OMP_ZL_COUNT), PS_OMP_ZL_LAND set for a land cell (whose count bits
 * are 0: a kernel reading cnt & PS_OMP_ZL_COUNT keeps it) */
#define PS_OMP_ZL_LAND 0x80u
#define PS_OMP_ZL_COUNT 0x7fu

/** One call's work for a generic sweep (see ps_openmp_generic.c). */
typedef struct ps_omp_gen_sweep {
    const ps_config *cfg;
    int threads;
    const void *params; /* the packed parameters in the working precision */
    void **cur, **next; /* swapped after every sweep */
    long nsteps;
    int tblock;         /* steps fused per sweep, 1..PS_TB_MAX */
    int rk, rj;         /* the neighbours' reach along k and j (ps_omp_gen_reach) */
    size_t tiles;       /* tiles over j (ps_omp_gen_tiling) */
    size_t slot_rows;   /* rows of a scratch plane slot */
    size_t spitch;      /* cells between a slot's rows (whole 64-byte lines) */
    char **scratch;     /* per thread: ps_omp_gen_tiling()'s bytes */
    const unsigned char *cnt; /* the land-sum form (land +0.0 in the fields): per cell a
                               * zero-land count byte; NULL: NaN land, masked */
    int nt;             /* the last step's whole vectors streamed into B (non-temporal
                         * stores; a variant with ps_omp_generic::nt only) */
} ps_omp_gen_sweep;

/** Advance s->nsteps steps, s->tblock fused per sweep; returns the steps done:
 *  fewer when a land-sum sweep turned an ocean cell NaN (that sweep is
 *  discarded, *s->cur is its input; the caller goes on with NaN land). */
typedef long (*ps_omp_generic_fn)(const ps_omp_gen_sweep *s);

/** One stencil's generic sweeps. */
typedef struct ps_omp_generic {
    const char *name;
    int radius;
    int landsum; /* its sweeps take cnt (the stencil declares the land-sum form) */
    int nt;      /* its sweeps can stream the output rows (ps_omp_gen_sweep::nt) */
    ps_omp_generic_fn f32, f64;
} ps_omp_generic;

/** The largest |dk| (@p axis 0), |dj| (1) or |di| (2) of the stencil's neighbours. */
static inline int ps_omp_gen_reach(const ps_stencil *st, int axis)
{
    int q, m = 0;
    for (q = 0; q < st->nneighbours; q++) {
        int v = st->offsets[q][axis] < 0 ? -st->offsets[q][axis] : st->offsets[q][axis];
        m = v > m ? v : m;
    }
    return m;
}

/*
 * The tiling of a sweep fusing T steps of a radius-r stencil reaching rk
 * planes and rj rows over a box of @p g with tiles of about @p tj output
 * rows (0: one per thread): the tile count (a multiple of the team size, at
 * most the interior rows), the rows and pitch of a scratch plane slot, and
 * the scratch bytes per thread ((T - 1) levels of 2 rk + 1 rolling planes;
 * level l also covers (T - l) rj halo rows each side; and a 64-byte line past
 * the last row, which the shifted rows read a vector into).
 */
static inline size_t ps_omp_gen_tiling(const ps_grid *g, size_t es, int r, int rk, int rj,
                                       int T, size_t tj, int threads, size_t *tiles,
                                       size_t *slot_rows, size_t *spitch)
{
    const size_t nj = g->ny > (size_t)(2 * r) ? g->ny - (size_t)(2 * r) : 1;
    const size_t th = (size_t)(threads > 0 ? threads : 1), line = 64 / es;
    size_t n = tj ? (nj + tj - 1) / tj : th;
    n = (n + th - 1) / th * th;
    if (n > nj)
        n = nj;
    if (n < 1)
        n = 1;
    *tiles = n;
    *slot_rows = (nj + n - 1) / n + 2 * (size_t)(T - 1) * (size_t)rj;
    *spitch = (g->nx + line - 1) / line * line;
    return (size_t)(T > 1 ? T - 1 : 1) * (size_t)(2 * rk + 1) * *slot_rows * *spitch * es + 64;
}

#ifndef PS_OMP_ISA
#  define PS_OMP_ISA base
#endif
#define PS_OMP_CAT_(a, b) a##b
#define PS_OMP_CAT(a, b) PS_OMP_CAT_(a, b)
#define PS_OMP_GEN_TABLE PS_OMP_CAT(ps_omp_generic_table_, PS_OMP_ISA)
#define PS_OMP_GEN_LOOKUP PS_OMP_CAT(ps_omp_generic_find_, PS_OMP_ISA)

/** The generic sweeps of stencil @p name in each variant (NULL if not listed):
 *  base, avx2 and avx512 (512-bit vectors) never contract; fma and fma512
 *  (contraction) are for fast mode only. */
const ps_omp_generic *ps_omp_generic_find_base(const char *name);
const ps_omp_generic *ps_omp_generic_find_avx2(const char *name);
const ps_omp_generic *ps_omp_generic_find_fma(const char *name);
const ps_omp_generic *ps_omp_generic_find_avx512(const char *name);
const ps_omp_generic *ps_omp_generic_find_fma512(const char *name);

#endif
