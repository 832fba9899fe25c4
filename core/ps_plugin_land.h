/**
 * @file ps_plugin_land.h
 * @brief The host side of the land-sum form for device plugins: land held as
 *        +0.0 in the device's fields, one count byte a cell, land's NaN kept
 *        on the host and put back on download.
 *
 * For a stencil flagged PS_STENCIL_LAND_SUM (kernels/ps_skeleton.h) a
 * device's generic kernel may sum the neighbours without masking when land
 * is +0.0 and each cell carries the number of its ocean neighbours. This
 * header holds what the host does for that, from the stencil's description
 * alone (radius, neighbour offsets): uploads are converted on the host (a
 * NaN becomes +0.0 and its cell is flagged PS_LAND_FLAG; its bits, payload
 * and all, are kept: one common NaN and a sorted list of the others), the
 * count bytes are recounted where the mask changed (an ocean cell at least
 * the radius from every face of the box: its neighbours not flagged; every
 * other ocean cell: 0), and downloads get land's NaN back.
 *
 * Like ps_plugin.h, everything is static inline and depends only on the
 * public types, so a plugin that links nothing from libpstencil (opencl, the
 * GPU plugins, in C or C++) includes it. Not thread-safe: one context's.
 */
#ifndef PS_PLUGIN_LAND_H
#define PS_PLUGIN_LAND_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps_backend.h"
#include "ps_status.h"

/** A count byte's land flag (its count bits are then 0). */
#define PS_LAND_FLAG 0x80u
/** A count byte's count bits: an ocean cell's ocean neighbours (at most 127). */
#define PS_LAND_COUNT 0x7fu
/** Most neighbours a stencil may have for the land-sum form (the count bits). */
#define PS_LAND_MAX_NB 64
/** Alignment of the count bytes (ps_land::cnt), a page. */
#define PS_LAND_ALIGN 4096

/** A land cell whose NaN is not the common one. */
typedef struct ps_land_nan {
    size_t cell;   /**< linear index in the box */
    uint64_t bits; /**< its NaN's bits (float: the low 32) */
} ps_land_nan;

/** One context's land-sum state (the host side). */
typedef struct ps_land {
    size_t ext[3];        /**< box extents nz, ny, nx */
    size_t es;            /**< element size (4 or 8) */
    int radius;           /**< the stencil's radius */
    int nnb;              /**< its neighbour count */
    long off[PS_LAND_MAX_NB]; /**< the neighbours' linear offsets in the box */
    unsigned char *cnt;   /**< a count byte a cell (PS_LAND_FLAG, or the count) */
    uint64_t nan_bits;    /**< the common NaN's bits (the default quiet NaN) */
    ps_land_nan *odd;     /**< the other NaNs, sorted by cell */
    size_t nodd;          /**< entries of odd in use */
    size_t odd_cap;       /**< entries of odd allocated */
    size_t odd_max;       /**< entries of odd at most (a quarter of a byte a cell) */
} ps_land;

/**
 * Set @p l up for stencil @p st on a box of extents @p ext (nz, ny, nx) and
 * element size @p es, every cell ocean with count 0. PS_EUNSUPPORTED if the
 * stencil is not flagged PS_STENCIL_LAND_SUM or has more than PS_LAND_MAX_NB
 * neighbours, PS_ENOMEM.
 */
static inline int ps_land_init(ps_land *l, const ps_stencil *st, const size_t ext[3], size_t es)
{
    const size_t cells = ext[0] * ext[1] * ext[2];
    int q;
    memset(l, 0, sizeof *l);
    if (!(st->flags & PS_STENCIL_LAND_SUM) || st->nneighbours > PS_LAND_MAX_NB)
        return PS_EUNSUPPORTED;
    memcpy(l->ext, ext, sizeof l->ext);
    l->es = es;
    l->radius = st->radius;
    l->nnb = st->nneighbours;
    for (q = 0; q < l->nnb; q++)
        l->off[q] = (long)st->offsets[q][0] * (long)(ext[1] * ext[2]) +
                    (long)st->offsets[q][1] * (long)ext[2] + (long)st->offsets[q][2];
    if (es == sizeof(float)) {
        const float nan = (float)NAN;
        uint32_t b;
        memcpy(&b, &nan, sizeof b);
        l->nan_bits = b;
    } else {
        const double nan = (double)NAN;
        memcpy(&l->nan_bits, &nan, sizeof l->nan_bits);
    }
    /* the odd list stays under a quarter of a byte a cell (16 bytes an entry) */
    l->odd_max = cells / 64 + 1024;
    {
        /* page-aligned, so a device that shares the host's memory can read the
         * bytes in place (OpenCL's CL_MEM_USE_HOST_PTR on a CPU device) */
        void *p = NULL;
        if (posix_memalign(&p, PS_LAND_ALIGN, cells ? cells : 1))
            return PS_ENOMEM;
        memset(p, 0, cells ? cells : 1);
        l->cnt = (unsigned char *)p;
    }
    return PS_OK;
}

/** Free what ps_land_init() and the uploads allocated. */
static inline void ps_land_free(ps_land *l)
{
    free(l->cnt);
    free(l->odd);
    memset(l, 0, sizeof *l);
}

/** The first odd entry at or after cell @p cell (binary search). */
static inline size_t ps_land_odd_find(const ps_land *l, size_t cell)
{
    size_t lo = 0, hi = l->nodd;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->odd[mid].cell < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/** Cell @p cell's NaN is *@p bits (listed unless the common one; NULL: the cell
 *  is not land); nonzero when the list would pass odd_max or memory runs out. */
static inline int ps_land_odd_set(ps_land *l, size_t cell, const uint64_t *bits)
{
    size_t q = ps_land_odd_find(l, cell);
    int have = q < l->nodd && l->odd[q].cell == cell;
    if (!bits || *bits == l->nan_bits) {
        if (have) {
            memmove(l->odd + q, l->odd + q + 1, (l->nodd - q - 1) * sizeof *l->odd);
            l->nodd--;
        }
        return 0;
    }
    if (have) {
        l->odd[q].bits = *bits;
        return 0;
    }
    if (l->nodd == l->odd_cap) {
        size_t cap = l->odd_cap ? 2 * l->odd_cap : 64;
        ps_land_nan *v;
        if (l->nodd >= l->odd_max ||
            !(v = (ps_land_nan *)realloc(l->odd, cap * sizeof *v)))
            return 1;
        l->odd = v;
        l->odd_cap = cap;
    }
    memmove(l->odd + q + 1, l->odd + q, (l->nodd - q) * sizeof *l->odd);
    l->odd[q].cell = cell;
    l->odd[q].bits = *bits;
    l->nodd++;
    return 0;
}

/** Region @p r (NULL: the box) as start @p s and count @p n arrays (k, j, i). */
static inline void ps_land_region(const ps_land *l, const ps_region *r, size_t s[3], size_t n[3])
{
    if (!r) {
        s[0] = s[1] = s[2] = 0;
        memcpy(n, l->ext, 3 * sizeof *n);
        return;
    }
    memcpy(s, r->start, 3 * sizeof *s);
    n[0] = r->count.nz;
    n[1] = r->count.ny;
    n[2] = r->count.nx;
}

/** The ocean cells of box rows k0..k1-1, j0..j1-1, i0..i1-1 recounted. */
static inline void ps_land_count(ps_land *l, const size_t lo[3], const size_t hi[3])
{
    const size_t ny = l->ext[1], nx = l->ext[2], r = (size_t)l->radius;
    size_t k, j, i;
    int q;
    for (k = lo[0]; k < hi[0]; k++)
        for (j = lo[1]; j < hi[1]; j++) {
            const int inner = k >= r && j >= r && k + r < l->ext[0] && j + r < ny;
            unsigned char *c = l->cnt + (k * ny + j) * nx;
            for (i = lo[2]; i < hi[2]; i++) {
                unsigned n = 0;
                if (c[i] & PS_LAND_FLAG)
                    continue;
                if (inner && i >= r && i + r < nx)
                    for (q = 0; q < l->nnb; q++)
                        n += !(c[(long)i + l->off[q]] & PS_LAND_FLAG);
                c[i] = (unsigned char)n;
            }
        }
}

/**
 * Whether ps_land_take() of region @p r (NULL: the whole box) from @p src
 * keeps the odd NaNs' list within its bound (a quarter of a byte a cell,
 * counting those the region replaces as kept). 0: leave the land-sum form.
 */
static inline int ps_land_fits(const ps_land *l, const void *src, const ps_region *r)
{
    size_t s[3], n[3], i, cells, odd = r ? l->nodd : 0;
    ps_land_region(l, r, s, n);
    cells = n[0] * n[1] * n[2];
    for (i = 0; i < cells; i++) {
        if (l->es == sizeof(float)) {
            const float v = ((const float *)src)[i];
            uint32_t u;
            memcpy(&u, &v, sizeof u);
            odd += v != v && u != (uint32_t)l->nan_bits;
        } else {
            const double v = ((const double *)src)[i];
            uint64_t u;
            memcpy(&u, &v, sizeof u);
            odd += v != v && u != l->nan_bits;
        }
    }
    return odd <= l->odd_max;
}

/**
 * Take region @p r (NULL: the whole box) of the state from @p src (the
 * region's cells, dense C order) into @p dst (the same shape; may be @p src):
 * each NaN as +0.0 with its cell flagged land and its bits kept, every other
 * value as it is; then recount the cells whose neighbourhood a cell that
 * changed between land and ocean is in. *@p changed (may be NULL) tells
 * whether the mask changed (the device's count bytes must then be sent).
 * Nonzero if land brings more odd NaNs than the list holds (a quarter of a
 * byte a cell) or memory runs out: the land-sum form must then be left (the
 * state is partly taken).
 */
static inline int ps_land_take(ps_land *l, void *dst, const void *src, const ps_region *r,
                               int *changed)
{
    const size_t ny = l->ext[1], nx = l->ext[2];
    size_t s[3], n[3], k, j, i, lo[3], hi[3];
    int a, ch = 0, over = 0;
    ps_land_region(l, r, s, n);
    if (changed)
        *changed = 0;
    if (!n[0] || !n[1] || !n[2])
        return 0;
    if (!r) { /* a whole upload: a new list */
        l->nodd = 0;
        ch = 1;
    }
    for (k = 0; k < n[0]; k++)
        for (j = 0; j < n[1]; j++) {
            const size_t row = ((s[0] + k) * ny + s[1] + j) * nx + s[2];
            const size_t h = (k * n[1] + j) * n[2];
            unsigned char *c = l->cnt + row;
            for (i = 0; i < n[2]; i++) {
                uint64_t b = 0;
                int nan;
                if (l->es == sizeof(float)) {
                    const float v = ((const float *)src)[h + i];
                    uint32_t u;
                    memcpy(&u, &v, sizeof u);
                    b = u;
                    nan = v != v;
                    ((float *)dst)[h + i] = nan ? 0.0f : v;
                } else {
                    const double v = ((const double *)src)[h + i];
                    memcpy(&b, &v, sizeof b);
                    nan = v != v;
                    ((double *)dst)[h + i] = nan ? 0.0 : v;
                }
                if (!r) {
                    c[i] = nan ? (unsigned char)PS_LAND_FLAG : 0;
                    if (nan && b != l->nan_bits)
                        over |= ps_land_odd_set(l, row + i, &b);
                    continue;
                }
                if (nan != !!(c[i] & PS_LAND_FLAG)) {
                    ch = 1;
                    c[i] = nan ? (unsigned char)PS_LAND_FLAG : 0;
                }
                if (nan || l->nodd)
                    over |= ps_land_odd_set(l, row + i, nan ? &b : NULL);
            }
        }
    if (ch) { /* recount the region grown by the stencil's radius, in the box */
        for (a = 0; a < 3; a++) {
            const size_t rad = r ? (size_t)l->radius : 0;
            lo[a] = s[a] > rad ? s[a] - rad : 0;
            hi[a] = s[a] + n[a] + rad < l->ext[a] ? s[a] + n[a] + rad : l->ext[a];
        }
        ps_land_count(l, lo, hi);
    }
    if (changed)
        *changed = ch;
    return over;
}

/**
 * Land's NaN back into @p h, region @p r (NULL: the whole box) of the state
 * in dense C order, whose land cells hold anything.
 */
static inline void ps_land_restore(const ps_land *l, void *h, const ps_region *r)
{
    const size_t ny = l->ext[1], nx = l->ext[2];
    size_t s[3], n[3], k, j, i, q;
    ps_land_region(l, r, s, n);
    if (!n[0] || !n[1] || !n[2])
        return;
    for (k = 0; k < n[0]; k++)
        for (j = 0; j < n[1]; j++) {
            const size_t row = ((s[0] + k) * ny + s[1] + j) * nx + s[2];
            const size_t hr = (k * n[1] + j) * n[2];
            const unsigned char *c = l->cnt + row;
            if (l->es == sizeof(float)) {
                const uint32_t u = (uint32_t)l->nan_bits;
                float nan, *o = (float *)h + hr;
                memcpy(&nan, &u, sizeof nan);
                for (i = 0; i < n[2]; i++)
                    if (c[i] & PS_LAND_FLAG)
                        o[i] = nan;
                for (q = ps_land_odd_find(l, row); q < l->nodd && l->odd[q].cell < row + n[2];
                     q++) {
                    const uint32_t b = (uint32_t)l->odd[q].bits;
                    memcpy(&o[l->odd[q].cell - row], &b, sizeof b);
                }
            } else {
                double nan, *o = (double *)h + hr;
                memcpy(&nan, &l->nan_bits, sizeof nan);
                for (i = 0; i < n[2]; i++)
                    if (c[i] & PS_LAND_FLAG)
                        o[i] = nan;
                for (q = ps_land_odd_find(l, row); q < l->nodd && l->odd[q].cell < row + n[2];
                     q++)
                    memcpy(&o[l->odd[q].cell - row], &l->odd[q].bits, sizeof(double));
            }
        }
}

/** Land to +0.0 in @p h, the whole box (after ps_land_restore() into it). */
static inline void ps_land_zero(const ps_land *l, void *h)
{
    const size_t cells = l->ext[0] * l->ext[1] * l->ext[2];
    size_t i;
    for (i = 0; i < cells; i++)
        if (l->cnt[i] & PS_LAND_FLAG) {
            if (l->es == sizeof(float))
                ((float *)h)[i] = 0.0f;
            else
                ((double *)h)[i] = 0.0;
        }
}

#endif /* PS_PLUGIN_LAND_H */
