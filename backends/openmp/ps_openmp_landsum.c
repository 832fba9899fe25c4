/*
 * The openmp generic path's land-sum representation, for every stencil that
 * declares the form (PS_NAME_LAND_SUM; kernels/ps_skeleton.h): inside the
 * backend the two fields hold land as +0.0 and the count array ls_cnt holds,
 * per cell, the number of ocean cells among the stencil's neighbours (ocean
 * cells at least the radius from every face of the box), 0 (other ocean
 * cells), or the cell's original NaN, payload and all (land). The generic
 * land-sum rows then sum the neighbours with no NaN test; downloads put the
 * NaN back. Land is told from ls_cnt, never from a value (ocean -0.0 stays).
 *
 * The form equals the masked update while no ocean cell turns NaN (the masked
 * update would count it as land from then on); the rows report any NaN they
 * write, the sweep that wrote it is redone with NaN land and the context
 * stays there (ps_omp_ls_leave). Nothing else about the values is assumed:
 * no range, no stencil parameter.
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <stdlib.h>
#include <string.h>

/* the linear offsets of the stencil's neighbours in a box of ny x nx rows */
static void ls_offsets(const omp_ctx *c, long *off)
{
    const ps_stencil *st = c->cfg.stencil;
    const long nx = (long)c->g.nx, plane = (long)(c->g.ny * c->g.nx);
    int q;
    for (q = 0; q < st->nneighbours; q++)
        off[q] = st->offsets[q][0] * plane + st->offsets[q][1] * nx + st->offsets[q][2];
}

/* is cell (k, j, i) at least r from every face of the box? */
static int ls_interior(const omp_ctx *c, size_t k, size_t j, size_t i, size_t r)
{
    return k >= r && j >= r && i >= r && k + r < c->g.nz && j + r < c->g.ny &&
           i + r < c->g.nx;
}

/*
 * Cells [p0, p1) of the count array from the land mask @p m, where land is
 * NaN: a land cell its NaN, an interior ocean cell its ocean neighbours, any
 * other ocean cell 0. @p m may be the field (NaN land) or ls_cnt itself
 * only when no cell it writes is read by another thread's range.
 */
#define LS_FUNCS(T, SFX)                                                                  \
    static void ls_count##SFX(const omp_ctx *c, T *cnt, const T *m, const long *off,      \
                              size_t p0, size_t p1)                                       \
    {                                                                                     \
        const size_t nx = c->g.nx, ny = c->g.ny, r = (size_t)c->cfg.stencil->radius;      \
        const int nnb = c->cfg.stencil->nneighbours;                                      \
        size_t p;                                                                         \
        int q;                                                                            \
        for (p = p0; p < p1; p++) {                                                       \
            const size_t i = p % nx, j = p / nx % ny, k = p / nx / ny;                    \
            T n = (T)0;                                                                   \
            if (m[p] != m[p]) {                                                           \
                cnt[p] = m[p];                                                            \
                continue;                                                                 \
            }                                                                             \
            if (ls_interior(c, k, j, i, r))                                               \
                for (q = 0; q < nnb; q++)                                                 \
                    n += m[(long)p + off[q]] == m[(long)p + off[q]] ? (T)1 : (T)0;        \
            cnt[p] = n;                                                                   \
        }                                                                                 \
    }                                                                                     \
    /* land (NaN in cnt) as +0.0 in both fields, cells [p0, p1) */                        \
    static void ls_zero##SFX(T *a, T *b, const T *cnt, size_t p0, size_t p1)              \
    {                                                                                     \
        size_t p;                                                                         \
        for (p = p0; p < p1; p++)                                                         \
            if (cnt[p] != cnt[p])                                                         \
                a[p] = b[p] = (T)0;                                                       \
    }                                                                                     \
    /* a region's run of cells, copied into both fields with NaN land: land to +0.0  \
     * with its NaN in cnt; returns nonzero if a cell changed between land and ocean */ \
    static int ls_reconvert##SFX(T *a, T *b, T *cnt, size_t len)                          \
    {                                                                                     \
        size_t i;                                                                         \
        int changed = 0;                                                                  \
        for (i = 0; i < len; i++) {                                                       \
            const T v = a[i];                                                             \
            const int was_land = cnt[i] != cnt[i];                                        \
            if (v != v) {                                                                 \
                changed |= !was_land;                                                     \
                cnt[i] = v;                                                               \
                a[i] = b[i] = (T)0;                                                       \
            } else if (was_land) {                                                        \
                changed = 1;                                                              \
                cnt[i] = (T)0;                                                            \
            }                                                                             \
        }                                                                                 \
        return changed;                                                                   \
    }                                                                                     \
    /* a downloaded run: the field's values, land cells their NaN */                     \
    static void ls_copy_out##SFX(T *restrict h, const T *restrict v, const T *restrict cnt,  \
                                 size_t len)                                              \
    {                                                                                     \
        size_t i;                                                                         \
        for (i = 0; i < len; i++)                                                         \
            h[i] = cnt[i] != cnt[i] ? cnt[i] : v[i];                                      \
    }
LS_FUNCS(float, _f32)
LS_FUNCS(double, _f64)
#undef LS_FUNCS

void ps_omp_ls_fill(omp_ctx *c)
{
    const size_t rows = c->g.nz * c->g.ny, nx = c->g.nx;
    long off[64], t;
    ls_offsets(c, off);
    /* counts from the field (NaN land), then land zeroed: two passes, so no
     * thread reads a cell another one zeroes */
#pragma omp parallel num_threads(c->threads)
    {
#pragma omp for schedule(static)
        for (t = 0; t < (long)rows; t++) {
            if (c->es == sizeof(float))
                ls_count_f32(c, c->ls_cnt, c->cur, off, (size_t)t * nx, (size_t)(t + 1) * nx);
            else
                ls_count_f64(c, c->ls_cnt, c->cur, off, (size_t)t * nx, (size_t)(t + 1) * nx);
        }
#pragma omp for schedule(static)
        for (t = 0; t < (long)rows; t++) {
            if (c->es == sizeof(float))
                ls_zero_f32(c->cur, c->next, c->ls_cnt, (size_t)t * nx, (size_t)(t + 1) * nx);
            else
                ls_zero_f64(c->cur, c->next, c->ls_cnt, (size_t)t * nx, (size_t)(t + 1) * nx);
        }
    }
}

/*
 * After a region was copied into both fields (NaN land): its cells' land
 * becomes +0.0 with its NaN in ls_cnt; where a cell changed between land and
 * ocean, every cell whose neighbourhood can reach the region is recounted. A
 * halo upload of a decomposition never moves land, so it costs one pass.
 */
void ps_omp_ls_region(omp_ctx *c, const ps_region *r)
{
    const size_t ny = c->g.ny, nx = c->g.nx, es = c->es;
    const ps_stencil *st = c->cfg.stencil;
    size_t k, j, lo[3], hi[3], ext[3] = {c->g.nz, c->g.ny, c->g.nx};
    size_t cnt3[3] = {r->count.nz, r->count.ny, r->count.nx};
    int changed = 0, a;
    long off[64];
    for (k = r->start[0]; k < r->start[0] + r->count.nz; k++)
        for (j = r->start[1]; j < r->start[1] + r->count.ny; j++) {
            const size_t p = (k * ny + j) * nx + r->start[2];
            if (es == sizeof(float))
                changed |= ls_reconvert_f32((float *)c->cur + p, (float *)c->next + p,
                                            (float *)c->ls_cnt + p, r->count.nx);
            else
                changed |= ls_reconvert_f64((double *)c->cur + p, (double *)c->next + p,
                                            (double *)c->ls_cnt + p, r->count.nx);
        }
    if (!changed)
        return;
    /* recount the region grown by the neighbours' reach along each axis; the mask
     * is ls_cnt's NaN-ness, which counting ocean cells never changes */
    for (a = 0; a < 3; a++) {
        const int reach = ps_omp_gen_reach(st, a);
        lo[a] = r->start[a] > (size_t)reach ? r->start[a] - (size_t)reach : 0;
        hi[a] = r->start[a] + cnt3[a] + (size_t)reach;
        if (hi[a] > ext[a])
            hi[a] = ext[a];
    }
    ls_offsets(c, off);
    for (k = lo[0]; k < hi[0]; k++)
        for (j = lo[1]; j < hi[1]; j++) {
            const size_t p = (k * ny + j) * nx;
            if (es == sizeof(float))
                ls_count_f32(c, c->ls_cnt, c->ls_cnt, off, p + lo[2], p + hi[2]);
            else
                ls_count_f64(c, c->ls_cnt, c->ls_cnt, off, p + lo[2], p + hi[2]);
        }
}

void ps_omp_ls_copy_out(const omp_ctx *c, void *host, size_t box_off, size_t len)
{
    if (c->es == sizeof(float))
        ls_copy_out_f32(host, (const float *)c->cur + box_off,
                        (const float *)c->ls_cnt + box_off, len);
    else
        ls_copy_out_f64(host, (const double *)c->cur + box_off,
                        (const double *)c->ls_cnt + box_off, len);
}

void ps_omp_ls_leave(omp_ctx *c)
{
    const long n = (long)(c->g.nz * c->g.ny * c->g.nx);
    long p;
    if (!c->ls)
        return;
#pragma omp parallel for schedule(static) num_threads(c->threads)
    for (p = 0; p < n; p++) {
        if (c->es == sizeof(float)) {
            const float v = ((const float *)c->ls_cnt)[p];
            if (v != v)
                ((float *)c->cur)[p] = ((float *)c->next)[p] = v;
        } else {
            const double v = ((const double *)c->ls_cnt)[p];
            if (v != v)
                ((double *)c->cur)[p] = ((double *)c->next)[p] = v;
        }
    }
    c->ls = 0;
    free(c->ls_cnt);
    c->ls_cnt = NULL;
}
