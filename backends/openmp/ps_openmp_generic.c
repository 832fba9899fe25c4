/*
 * The openmp backend's generic path: every stencil of kernels/ps_stencils.h
 * in both precisions, built from its description alone (neighbours, radius,
 * scalars, coefficient arrays) around the stencil's point update.
 *
 * Rows: a row function per stencil updates cells r..nx-r-1 of one (k, j)
 * row (r the stencil's radius) from one pointer per neighbour row, so the
 * innermost loop is contiguous and the compiler vectorises it (ivdep: it
 * writes only dst, which no load reads). Scalars and coefficient arrays
 * over axes without i are read once per row; arrays over i are a
 * contiguous load per cell.
 *
 * Sweeps: T steps of one step() call are fused into one sweep (temporal
 * blocking, as diffusion7's hand-written rows do, ps_openmp_tblock.c): the
 * interior rows j are cut into tiles, and each thread walks its tiles plane
 * by plane along k as a wavefront,
 *     for kk: for level l = 1..T: compute plane k = kk - (l-1) r of step t+l,
 * as soon as planes k-r..k+r of step t+l-1 exist (computed at the same kk by
 * level l-1). Step t is the field A (read only), step t+T goes into the
 * other field B, the intermediate steps into the thread's scratch: 2r+1
 * rolling plane slots per level (plane k overwrites plane k-2r-1, which no
 * level still needs). Level l covers (T-l) r halo rows each side of its
 * tile (recomputed by the neighbouring tile too), so tiles never wait on
 * each other; only the end of a sweep is a barrier. Boundary planes, rows
 * and columns (within r of a face of the box) never change: they are read
 * from A, and a slot row's boundary columns are copied from A.
 *
 * Bitwise: every cell of every step gets the stencil's point function with
 * the same neighbour values, scalars and coefficients as the reference
 * (Jacobi: level l reads only level l-1); the variants base and avx2 never
 * contract (-ffp-contract=off, no FMA). The fma variant (fast mode only)
 * is compiled with contraction and reciprocals allowed.
 *
 * This file is compiled once per instruction set by build rule
 * (backends/openmp/local.mk): PS_OMP_ISA names the variant.
 */
#include "config.h"
#include "ps_openmp_generic.h"

#include <omp.h>
#include <string.h>

#include "ps_skeleton_all.h"

/* a row: cells i0..i1-1 of dst from rp[q] (the row of neighbour q, cell 0),
 * rp[nnb] (the centre row) and, in the land-sum form, rp[nnb+1] (the centre
 * row's counts); geo = gk, gj, oi, gz, gy, gx. Returns nonzero if the
 * land-sum form wrote a NaN (an ocean cell turned NaN; the masked rows: 0). */
typedef int (*gen_row_fn)(void *dst, const void *const *rp, const void *params,
                          const long *geo, long i0, long i1);

typedef struct gen_desc {
    int r, nnb; /* radius (the unwritten layer at every face), neighbours */
    int rk, rj; /* reach of the neighbours along k and j (the wavefront and the halos) */
    const int *dk, *dj;
    gen_row_fn row; /* the masked rows, or the land-sum rows when the sweep has counts */
    size_t es;
} gen_desc;

/* description steps of the row function */
#define GEN_NB(dk, dj, di) nb[q] = nbr[q][i + (di)]; q++;
#define GEN_SUM(dk, dj, di) s = s + nbr[q][i + (di)]; q++;
#define GEN_SC(name) sc[q] = P[q]; q++;
#define GEN_AROW(name, A)                                                               \
    aoff[q] = off;                                                                      \
    arow[q] = ((A) & PS_AXIS_I) ? (P[0] * 0) : P[off + PS_SK_AXIDX(A, gk, gj, 0, gy, gx)]; \
    off += PS_SK_AXLEN(A, gz, gy, gx); q++;
#define GEN_AR(name, A)                                                                 \
    ar[q] = ((A) & PS_AXIS_I) ? P[aoff[q] + PS_SK_AXIDX(A, gk, gj, oi + i, gy, gx)]     \
                              : arow[q];                                                \
    q++;
#define GEN_DK(dk, dj, di) (dk),
#define GEN_DJ(dk, dj, di) (dj),


/* a row function's set-up: the neighbour rows nbr[], the scalars sc[], the
 * row's values of the arrays without i (arow[]) and the offsets of the others
 * (aoff[]), from vrp, vP (as P) and geo; declares i and q */
#define GEN_ROW_SETUP(NAME, REAL)                                                       \
        const REAL *nbr[PS_STENCIL_NNB(NAME) + 1];                                      \
        REAL sc[PS_STENCIL_NSC(NAME) + 1], arow[PS_STENCIL_NAR(NAME) + 1];              \
        long aoff[PS_STENCIL_NAR(NAME) + 1];                                            \
        const long gk = geo[0], gj = geo[1], oi = geo[2], gz = geo[3], gy = geo[4],     \
                   gx = geo[5];                                                         \
        long off = PS_STENCIL_NSC(NAME), i;                                             \
        int q;                                                                          \
        (void)gk; (void)gj; (void)oi; (void)gz; (void)gy; (void)gx; (void)off;          \
        (void)aoff; (void)arow; (void)sc;                                               \
        for (q = 0; q < PS_STENCIL_NNB(NAME); q++)                                      \
            nbr[q] = vrp[q];                                                            \
        q = 0;                                                                          \
        PS_##NAME##_SCALARS(GEN_SC)                                                     \
        q = 0;                                                                          \
        PS_##NAME##_ARRAYS(GEN_AROW)

#define GEN_ROW(NAME, REAL, SFX)                                                        \
    static int grow_##NAME##SFX(void *vdst, const void *const *vrp, const void *vP,     \
                                const long *geo, long i0, long i1)                      \
    {                                                                                   \
        REAL *restrict dst = vdst;                                                      \
        const REAL *restrict P = vP;                                                    \
        const REAL *restrict c = vrp[PS_STENCIL_NNB(NAME)];                             \
        GEN_ROW_SETUP(NAME, REAL)                                                       \
        _Pragma("GCC ivdep")                                                            \
        for (i = i0; i < i1; i++) {                                                     \
            REAL nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];            \
            int q = 0;                                                                  \
            PS_##NAME##_NEIGHBOURS(GEN_NB)                                              \
            q = 0;                                                                      \
            PS_##NAME##_ARRAYS(GEN_AR)                                                  \
            (void)q;                                                                    \
            dst[i] = ps_##NAME##_point##SFX(c[i], nb, sc, ar);                          \
        }                                                                               \
        return 0;                                                                       \
    }

/*
 * The land-sum rows of a stencil that declares the form (PS_NAME_LAND_SUM):
 * land held as +0.0, the centre's count row cn (ocean neighbours; land: its
 * NaN, a value !(n > 0) like 0), s the plain sum of the neighbours in their
 * order, ps_NAME_sumcount where n > 0: bitwise the masked rows' result as
 * long as no ocean cell turns NaN (the masked rows would then count it as
 * land); the row reports a NaN it writes, and the sweep is then redone masked.
 */
#define GEN_ROW_LS(NAME, REAL, SFX)                                                     \
    static int glrow_##NAME##SFX(void *vdst, const void *const *vrp, const void *vP,    \
                                 const long *geo, long i0, long i1)                     \
    {                                                                                   \
        REAL *restrict dst = vdst;                                                      \
        const REAL *restrict P = vP;                                                    \
        const REAL *restrict c = vrp[PS_STENCIL_NNB(NAME)];                             \
        const REAL *restrict cn = vrp[PS_STENCIL_NNB(NAME) + 1];                        \
        int bad = 0;                                                                    \
        GEN_ROW_SETUP(NAME, REAL)                                                       \
        _Pragma("GCC ivdep")                                                            \
        for (i = i0; i < i1; i++) {                                                     \
            REAL s = (REAL)0, ar[PS_STENCIL_NAR(NAME) + 1], v;                          \
            const REAL n = cn[i];                                                       \
            int q = 0;                                                                  \
            PS_##NAME##_NEIGHBOURS(GEN_SUM)                                             \
            q = 0;                                                                      \
            PS_##NAME##_ARRAYS(GEN_AR)                                                  \
            (void)q;                                                                    \
            v = ps_##NAME##_sumcount##SFX(c[i], s, n, sc, ar);                          \
            v = n > (REAL)0 ? v : c[i];                                                 \
            dst[i] = v;                                                                 \
            bad |= v != v;                                                              \
        }                                                                               \
        return bad;                                                                     \
    }

/* One tile: output rows [j0, j1) of every interior plane, T steps A -> B;
 * nonzero if a land-sum row wrote a NaN. */
static int gen_tile(const gen_desc *d, const ps_omp_gen_sweep *s, const char *A, char *B,
                    long j0, long j1, int T, char *scr)
{
    const ps_box *b = &s->cfg->box;
    const long r = d->r, nz = (long)b->extent.nz, ny = (long)b->extent.ny,
               nx = (long)b->extent.nx;
    const size_t es = d->es, rowb = (size_t)nx * es, S = (size_t)(2 * d->rk + 1);
    const void *rp[64];
    const char *pa[64], *ps[64];
    char *dplane;
    int fa[64];
    long geo[6] = {0, 0, (long)b->origin[2], (long)b->global.nz, (long)b->global.ny,
                   (long)b->global.nx};
    size_t lo[PS_TB_MAX + 1], hi[PS_TB_MAX + 1];
    long kk, j;
    int l, q, bad = 0;
    for (l = 1; l <= T; l++) {
        long h = (long)(T - l) * d->rj;
        lo[l] = (size_t)(j0 - h > 0 ? j0 - h : 0);
        hi[l] = (size_t)(j1 + h < ny ? j1 + h : ny);
    }
    lo[0] = 0;
    for (kk = r; kk < nz - r + (long)(T - 1) * d->rk; kk++)
        for (l = 1; l <= T; l++) {
            const long k = kk - (long)(l - 1) * d->rk;
            const long r0 = (long)lo[l] > r ? (long)lo[l] : r;
            const long r1 = (long)hi[l] < ny - r ? (long)hi[l] : ny - r;
            if (k < r || k >= nz - r)
                continue;
            geo[0] = (long)b->origin[0] + k;
            /* where each neighbour's (and the centre's) rows of this plane come
             * from, once per plane: the field A (level 0, a boundary plane) or
             * the previous level's slot; a boundary row is A's in either case */
            for (q = 0; q <= d->nnb; q++) {
                const long kq = k + (q < d->nnb ? d->dk[q] : 0);
                pa[q] = A + (size_t)kq * (size_t)ny * rowb;
                fa[q] = l == 1 || kq < r || kq >= nz - r;
                ps[q] = fa[q] ? NULL
                              : scr + ((size_t)(l - 2) * S + (size_t)kq % S) * s->slot_rows *
                                          s->spitch * es;
            }
            dplane = l == T ? B + (size_t)k * (size_t)ny * rowb
                            : scr + ((size_t)(l - 1) * S + (size_t)k % S) * s->slot_rows *
                                        s->spitch * es;
            for (j = r0; j < r1; j++) {
                char *dst = l == T ? dplane + (size_t)j * rowb
                                   : dplane + ((size_t)j - lo[l]) * s->spitch * es;
                for (q = 0; q <= d->nnb; q++) {
                    const long jq = j + (q < d->nnb ? d->dj[q] : 0);
                    rp[q] = fa[q] || jq < r || jq >= ny - r
                                ? pa[q] + (size_t)jq * rowb
                                : ps[q] + ((size_t)jq - lo[l - 1]) * s->spitch * es;
                }
                if (s->cnt) /* the counts never change with the level */
                    rp[d->nnb + 1] = (const char *)s->cnt + ((size_t)k * (size_t)ny +
                                                             (size_t)j) * rowb;
                geo[1] = (long)b->origin[1] + j;
                bad |= d->row(dst, rp, s->params, geo, r, nx - r);
                if (l < T) { /* a slot row's boundary columns: A's */
                    const char *a = A + ((size_t)k * (size_t)ny + (size_t)j) * rowb;
                    memcpy(dst, a, (size_t)r * es);
                    memcpy(dst + (size_t)(nx - r) * es, a + (size_t)(nx - r) * es,
                           (size_t)r * es);
                }
            }
        }
    return bad;
}

/* The steps done: all, or those before a land-sum sweep that wrote a NaN
 * (that sweep is discarded: *s->cur is still its input). */
static long gen_run(const gen_desc *d, const ps_omp_gen_sweep *s)
{
    const ps_grid *g = &s->cfg->box.extent;
    const long r = d->r, nj = (long)g->ny - 2 * r;
    long done;
    if ((long)g->nz <= 2 * r || (long)g->ny <= 2 * r || (long)g->nx <= 2 * r)
        return s->nsteps; /* no interior cell: a step changes nothing */
    for (done = 0; done < s->nsteps;) {
        const int T = s->nsteps - done < s->tblock ? (int)(s->nsteps - done) : s->tblock;
        const char *A = *s->cur;
        char *B = *s->next;
        void *tmp;
        long q;
        int bad = 0;
#pragma omp parallel for schedule(static) num_threads(s->threads) reduction(| : bad)
        for (q = 0; q < (long)s->tiles; q++)
            bad |= gen_tile(d, s, A, B, r + q * nj / (long)s->tiles,
                            r + (q + 1) * nj / (long)s->tiles, T,
                            s->scratch[omp_get_thread_num()]);
        if (bad)
            return done;
        tmp = *s->cur;
        *s->cur = *s->next;
        *s->next = tmp;
        done += T;
    }
    return done;
}

/* the land-sum rows of the stencils that declare the form */
#define GEN_LS_F32(NAME) GEN_ROW_LS(NAME, float, _f32)
#define GEN_LS_F64(NAME) GEN_ROW_LS(NAME, double, _f64)
#define GEN_LS_OF(NAME) PS_##NAME##_LAND_SUM(GEN_LS_F32) PS_##NAME##_LAND_SUM(GEN_LS_F64)
PS_STENCIL_LIST(GEN_LS_OF)
#define GEN_LSREF_f32(NAME) glrow_##NAME##_f32,
#define GEN_LSREF_f64(NAME) glrow_##NAME##_f64,

#define GEN_STEP(NAME, REAL, SFX)                                                       \
    GEN_ROW(NAME, REAL, SFX)                                                            \
    static long gen_##NAME##SFX(const ps_omp_gen_sweep *s)                              \
    {                                                                                   \
        static const int dk[] = {PS_##NAME##_NEIGHBOURS(GEN_DK) 0};                     \
        static const int dj[] = {PS_##NAME##_NEIGHBOURS(GEN_DJ) 0};                     \
        static const gen_row_fn ls[] = {PS_##NAME##_LAND_SUM(GEN_LSREF##SFX) NULL};     \
        gen_desc d = {PS_##NAME##_RADIUS, PS_STENCIL_NNB(NAME), 0, 0, dk, dj,           \
                      grow_##NAME##SFX, sizeof(REAL)};                                  \
        d.rk = s->rk;                                                                   \
        d.rj = s->rj;                                                                   \
        if (s->cnt) {                                                                   \
            if (!ls[0])                                                                 \
                return 0; /* not a land-sum stencil: the caller never asks */          \
            d.row = ls[0];                                                              \
        }                                                                               \
        return gen_run(&d, s);                                                          \
    }
#define GEN_F32(NAME) GEN_STEP(NAME, float, _f32)
#define GEN_F64(NAME) GEN_STEP(NAME, double, _f64)
PS_STENCIL_LIST(GEN_F32)
PS_STENCIL_LIST(GEN_F64)

/* a row gathers at most 62 neighbours (gen_tile's rp[]: them, the centre, the counts) */
#define GEN_NNB_OK(NAME) typedef char gen_nnb_##NAME[PS_STENCIL_NNB(NAME) < 63 ? 1 : -1];
PS_STENCIL_LIST(GEN_NNB_OK)

#define GEN_ONE(NAME) +1
#define GEN_ENTRY(NAME)                                                                 \
    {#NAME, PS_##NAME##_RADIUS, (0 PS_##NAME##_LAND_SUM(GEN_ONE)), gen_##NAME##_f32,    \
     gen_##NAME##_f64},
static const ps_omp_generic PS_OMP_GEN_TABLE[] = {
    PS_STENCIL_LIST(GEN_ENTRY){NULL, 0, 0, NULL, NULL}};

const ps_omp_generic *PS_OMP_GEN_LOOKUP(const char *name)
{
    const ps_omp_generic *g;
    for (g = PS_OMP_GEN_TABLE; g->name; g++)
        if (!strcmp(g->name, name))
            return g;
    return NULL;
}
