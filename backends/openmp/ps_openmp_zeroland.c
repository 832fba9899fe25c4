/*
 * The openmp backend's zero-land representation of diffusion7's fast path:
 * land kept as +0.0 in the working fields, with a per-cell neighbour count.
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

/*
 * Zero-land (exact mode, default; PSTENCIL_OPENMP_ZERO_LAND=0 turns it off).
 * The NaN mask never changes during a run, so inside the backend the working
 * fields hold land as +0.0 and a count array holds, per cell, the number of
 * ocean neighbours (ocean cells) or the cell's original NaN, payload and all
 * (land cells). The row kernel (row_zl_p) then sums the six neighbours
 * without masking: a land neighbour adds +0.0, the identity on a sum that
 * starts at +0.0 and so can never be -0.0, and an ocean -0.0 adds the same
 * as in the masked sum; the count is the masked count; the update is the
 * shared ps_diffusion7_update; cells with !(n > 0) keep their value. Land
 * is told from the count array, never from a value (ocean -0.0 survives).
 * Uploads convert NaN to +0.0 and recount the cells whose neighbourhood they
 * touch; downloads put the original NaN back.
 *
 * The argument needs the mask to stay fixed, i.e. no ocean cell may turn NaN
 * (the reference would then mask it). That can only happen through overflow,
 * so zero-land is used only for 0 <= D <= 1 (each update is then a convex
 * combination of values, up to rounding) and while every uploaded ocean
 * value is finite with |v| <= PS_REAL_MAX / 64 (intermediates stay below
 * 13 |v|max); an upload breaking that switches the context back to NaN land.
 *
 * Evidence: docs/performance.md, "openmp tuning".
 */
#define ZL_FUNCS(T, SFX, TMAX)                                                           \
    /* NaN -> +0.0 in a and b, cnt = the NaN (land) or 0 (ocean, counted later) */ \
    static void zl_convert##SFX(T *a, T *b, T *cnt, size_t len)                          \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < len; i++) {                                                      \
            T v = a[i];                                                                  \
            if (v != v) {                                                                \
                cnt[i] = v;                                                              \
                a[i] = b[i] = (T)0;                                                      \
            } else                                                                       \
                cnt[i] = (T)0;                                                           \
        }                                                                                \
    }                                                                                    \
    /* a region's row: like zl_convert, but an ocean cell that was ocean keeps its   \
     * count; returns nonzero if a cell changed between land and ocean */           \
    static int zl_reconvert##SFX(T *a, T *b, T *cnt, size_t len)                       \
    {                                                                                    \
        size_t i;                                                                        \
        int changed = 0;                                                                 \
        for (i = 0; i < len; i++) {                                                      \
            T v = a[i];                                                                  \
            if (v != v) {                                                                \
                changed |= cnt[i] == cnt[i];                                             \
                cnt[i] = v;                                                              \
                a[i] = b[i] = (T)0;                                                      \
            } else if (cnt[i] != cnt[i]) {                                               \
                changed = 1;                                                             \
                cnt[i] = (T)0;                                                           \
            }                                                                            \
        }                                                                                \
        return changed;                                                                  \
    }                                                                                    \
    /* ocean cells i0..i1-1 of row off: count the neighbours land[] marks ocean */     \
    static void zl_count##SFX(T *cnt, const T *land, size_t off, size_t plane, size_t nx, \
                              size_t i0, size_t i1)                                      \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = off + i0; i < off + i1; i++) {                                          \
            T n = (T)0;                                                                  \
            if (land[i] != land[i])                                                      \
                continue;                                                                \
            n += land[i - plane] == land[i - plane] ? (T)1 : (T)0;                       \
            n += land[i + plane] == land[i + plane] ? (T)1 : (T)0;                       \
            n += land[i - nx] == land[i - nx] ? (T)1 : (T)0;                             \
            n += land[i + nx] == land[i + nx] ? (T)1 : (T)0;                             \
            n += land[i - 1] == land[i - 1] ? (T)1 : (T)0;                               \
            n += land[i + 1] == land[i + 1] ? (T)1 : (T)0;                               \
            cnt[i] = n;                                                                  \
        }                                                                                \
    }                                                                                    \
    /* an interior row of a whole upload in one pass: the source row @p r      \
     * (cells of neighbouring planes and rows @p spl and @p srow cells away)      \
     * copied into row offset @p off of a with land as +0.0, cnt its NaN or its \
     * ocean neighbour count (0 at the row's ends, as zl_convert leaves them);  \
     * the same bits as the copies, zl_convert and zl_count in turn. Of b only  \
     * the row's two boundary cells: a step writes every other cell of it      \
     * before any step reads it (diffusion7 has radius 1), so copying them too  \
     * would be a third stream of writes for nothing. Returns nonzero if a      \
     * value rules zero-land out (as zl_bad).                                   */ \
    static int zl_fill##SFX(T *restrict a, T *restrict b, T *restrict cnt,              \
                            const T *restrict r, size_t off, size_t spl, size_t srow,    \
                            size_t nx)                                                   \
    {                                                                                    \
        size_t i;                                                                        \
        int bad = 0;                                                                     \
        a += off, b += off, cnt += off;                                                  \
        for (i = 0; i < nx; i += nx > 1 ? nx - 1 : 1) {                                  \
            T v = r[i];                                                                  \
            a[i] = b[i] = v != v ? (T)0 : v;                                             \
            cnt[i] = v != v ? v : (T)0;                                                  \
            bad |= v == v && !(v <= (T)((TMAX) / 64) && v >= (T)(-(TMAX) / 64));         \
        }                                                                                \
        for (i = 1; i + 1 < nx; i++) {                                                   \
            T v = r[i], n = (T)0;                                                        \
            n += r[i - spl] == r[i - spl] ? (T)1 : (T)0;                                 \
            n += r[i + spl] == r[i + spl] ? (T)1 : (T)0;                                 \
            n += r[i - srow] == r[i - srow] ? (T)1 : (T)0;                               \
            n += r[i + srow] == r[i + srow] ? (T)1 : (T)0;                               \
            n += r[i - 1] == r[i - 1] ? (T)1 : (T)0;                                     \
            n += r[i + 1] == r[i + 1] ? (T)1 : (T)0;                                     \
            a[i] = v != v ? (T)0 : v; /* b: the first step writes it */                 \
            cnt[i] = v != v ? v : n;                                                     \
            bad |= v == v && !(v <= (T)((TMAX) / 64) && v >= (T)(-(TMAX) / 64));         \
        }                                                                                \
        return bad;                                                                      \
    }                                                                                    \
    /* nonzero if a value rules zero-land out (see above) */                            \
    static int zl_bad##SFX(const T *h, size_t len)                                       \
    {                                                                                    \
        size_t i;                                                                        \
        int bad = 0;                                                                     \
        for (i = 0; i < len; i++)                                                        \
            bad |= h[i] == h[i] && !(h[i] <= (T)((TMAX) / 64) && h[i] >= (T)(-(TMAX) / 64)); \
        return bad;                                                                      \
    }                                                                                    \
    /* a downloaded row in one pass: the field's values, land cells their NaN */        \
    static void zl_copy_out##SFX(T *restrict h, const T *restrict v, const T *restrict cnt, \
                                 size_t len)                                             \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < len; i++)                                                        \
            h[i] = cnt[i] != cnt[i] ? cnt[i] : v[i];                                     \
    }
ZL_FUNCS(float, _f32, FLT_MAX)
ZL_FUNCS(double, _f64, DBL_MAX)
#undef ZL_FUNCS

void ps_omp_zl_convert(const omp_ctx *c, void *a, void *b, void *cnt, size_t len)
{
    if (c->es == sizeof(float))
        zl_convert_f32(a, b, cnt, len);
    else
        zl_convert_f64(a, b, cnt, len);
}

void ps_omp_zl_count(const omp_ctx *c, void *cnt, const void *land, size_t off, size_t i0,
                     size_t i1)
{
    const size_t plane = c->g.ny * c->g.nx;
    if (c->es == sizeof(float))
        zl_count_f32(cnt, land, off, plane, c->g.nx, i0, i1);
    else
        zl_count_f64(cnt, land, off, plane, c->g.nx, i0, i1);
}

int ps_omp_zl_fill(const omp_ctx *c, void *a, void *b, void *cnt, const void *srow,
                   size_t off, size_t spl, size_t srp)
{
    if (c->es == sizeof(float))
        return zl_fill_f32(a, b, cnt, srow, off, spl, srp, c->g.nx);
    return zl_fill_f64(a, b, cnt, srow, off, spl, srp, c->g.nx);
}

int ps_omp_zl_bad(const omp_ctx *c, const void *h, size_t len)
{
    return c->es == sizeof(float) ? zl_bad_f32(h, len) : zl_bad_f64(h, len);
}

/* Back to NaN land for good (an upload ruled zero-land out). */
void ps_omp_zl_leave(omp_ctx *c)
{
    const size_t n = c->g.nz * c->g.ny * c->g.nx;
    size_t i;
    if (!c->zl)
        return;
    for (i = 0; i < n; i++) {
        if (c->es == sizeof(float)) {
            float v = ((float *)c->cnt)[i];
            if (v != v)
                ((float *)c->cur)[i] = ((float *)c->next)[i] = v;
        } else {
            double v = ((double *)c->cnt)[i];
            if (v != v)
                ((double *)c->cur)[i] = ((double *)c->next)[i] = v;
        }
    }
    c->zl = 0;
    free(c->cnt);
    c->cnt = NULL;
    free(c->cnt8);
    c->cnt8 = NULL;
}

/*
 * The byte copy of the counts the AVX-512 block rows read (ps_omp_zl_rows):
 * a count 1..6 where cnt holds one, 0 where it holds 0 (isolated, box faces)
 * or a NaN (land). Remade from cnt before a fused sweep whenever cnt changed
 * (a whole upload, or a region upload that moves land and ocean, marks it
 * stale; a halo upload of a decomposition does not).
 */
void ps_omp_zl_cnt8(omp_ctx *c)
{
    const long n = (long)(c->g.nz * c->g.ny * c->g.nx);
    long i;
    if (!c->zl || !c->cnt8 || !c->cnt8_stale)
        return;
    if (c->es == sizeof(float)) {
        const float *f = c->cnt;
#pragma omp parallel for schedule(static) num_threads(c->threads)
        for (i = 0; i < n; i++)
            c->cnt8[i] = f[i] > 0.0f ? (unsigned char)f[i] : 0;
    } else {
        const double *f = c->cnt;
#pragma omp parallel for schedule(static) num_threads(c->threads)
        for (i = 0; i < n; i++)
            c->cnt8[i] = f[i] > 0.0 ? (unsigned char)f[i] : 0;
    }
    c->cnt8_stale = 0;
}

/*
 * Zero-land after a region was scattered into both buffers: convert its
 * cells, then, only if a cell of it changed between land and ocean, recount
 * the interior cells within one cell of it (the only ones whose
 * neighbourhood it can change). A halo upload of a decomposition never
 * changes the mask (land is fixed), so it costs one pass over the region and
 * no recount: ocean cells keep their counts, land cells take the uploaded
 * NaN. Serial; the mask is read from the count array, whose NaN-ness the
 * recount does not change.
 */
void ps_omp_zl_region(omp_ctx *c, const ps_region *r)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    size_t k, j, lo[3], hi[3], ext[3] = {nz, ny, nx};
    int a;
    char *A = c->cur, *B = c->next, *N = c->cnt;
    int changed = 0;
    for (k = r->start[0]; k < r->start[0] + r->count.nz; k++)
        for (j = r->start[1]; j < r->start[1] + r->count.ny; j++) {
            size_t off = ((k * ny + j) * nx + r->start[2]) * es;
            if (es == sizeof(float))
                changed |= zl_reconvert_f32((float *)(A + off), (float *)(B + off),
                                            (float *)(N + off), r->count.nx);
            else
                changed |= zl_reconvert_f64((double *)(A + off), (double *)(B + off),
                                            (double *)(N + off), r->count.nx);
        }
    if (changed)
        c->cnt8_stale = 1; /* land and ocean moved: counts change */
    if (!changed || nz < 3 || ny < 3 || nx < 3)
        return;
    {
        size_t cnt3[3] = {r->count.nz, r->count.ny, r->count.nx};
        for (a = 0; a < 3; a++) {
            lo[a] = r->start[a] > 1 ? r->start[a] - 1 : 1;
            hi[a] = r->start[a] + cnt3[a] + 1;
            if (hi[a] > ext[a] - 1)
                hi[a] = ext[a] - 1;
        }
    }
    for (k = lo[0]; k < hi[0]; k++)
        for (j = lo[1]; j < hi[1]; j++)
            if (lo[2] < hi[2])
                ps_omp_zl_count(c, N, N, (k * ny + j) * nx, lo[2], hi[2]);
}

/* A downloaded run of @p len cells (box offset @p box_off) of the current field, land
 * cells with their NaN: the copy and the NaN put back in one pass. */
void ps_omp_zl_copy_out(const omp_ctx *c, void *host, size_t box_off, size_t len)
{
    if (c->es == sizeof(float))
        zl_copy_out_f32(host, (const float *)c->cur + box_off, (const float *)c->cnt + box_off,
                        len);
    else
        zl_copy_out_f64(host, (const double *)c->cur + box_off,
                        (const double *)c->cnt + box_off, len);
}
