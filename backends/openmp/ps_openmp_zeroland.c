/*
 * The openmp backend's zero-land representation: land kept as +0.0 in the
 * working fields, with a per-cell count byte. Used by the sweeps of every
 * land-sum stencil (PS_NAME_LAND_SUM).
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Zero-land (exact mode, default; PSTENCIL_OPENMP_ZERO_LAND=0 turns it off).
 * The NaN mask never changes during a run, so inside the backend the working
 * fields hold land as +0.0 and a count byte per cell holds the number of
 * ocean cells among the stencil's neighbours (ocean cells at least the
 * radius from every face; 0 for the other ocean cells) or PS_OMP_ZL_LAND
 * with a count of 0 (land cells); land's NaN, payload and all, is kept as
 * one bit pattern (nan_bits, the default quiet NaN's) and, sorted by cell,
 * the cells whose NaN has other bits (odd): one byte a cell in all. The row
 * kernels then sum the neighbours without masking: a land neighbour adds
 * +0.0, the identity on a sum that starts at +0.0 and so can never be -0.0,
 * and an ocean -0.0 adds the same as in the masked sum; the count is the
 * masked count; cells with !(n > 0) keep their value (n is the byte's count
 * bits: 0 for land). Land is told from the count byte, never from a value
 * (ocean -0.0 survives).
 * Uploads convert NaN to +0.0 and recount the cells whose neighbourhood they
 * touch; downloads put the original NaN back. A whole upload whose land has
 * more than ZL_ODD_MAX odd NaNs takes NaN land instead (the same bits, more
 * slowly): the odd list stays under a quarter of a byte a cell.
 *
 * The argument needs the mask to stay fixed, i.e. no ocean cell may turn NaN
 * (the reference would then mask it). Nothing is assumed in advance: the
 * sweeps' rows report a NaN they write, and the sweep that wrote it is
 * redone on NaN land (ps_openmp.c, omp_step).
 *
 * Evidence: docs/performance.md, "openmp tuning".
 */
/* odd NaNs a whole upload keeps at most (16 bytes each: a quarter of a byte a cell) */
#define ZL_ODD_MAX(cells) ((cells) / 64 + 1024)

/* One thread's odd NaNs during a whole upload (merged and sorted after). */
struct ps_omp_zl_odd {
    ps_omp_zl_nan *v;
    size_t n, cap, max;
    int full;
};

static void zl_odd_push(ps_omp_zl_odd *l, size_t cell, uint64_t bits)
{
    if (l->full)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        ps_omp_zl_nan *v;
        if (l->n >= l->max || !(v = realloc(l->v, cap * sizeof *v))) {
            l->full = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n].cell = cell;
    l->v[l->n++].bits = bits;
}

static uint64_t zl_bits_f32(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static uint64_t zl_bits_f64(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static float zl_from_f32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static double zl_from_f64(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* the first entry of the odd list at or after box cell @p cell */
static size_t zl_odd_find(const omp_ctx *c, size_t cell)
{
    size_t lo = 0, hi = c->nodd;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->odd[mid].cell < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Land cell @p cell's NaN is @p bits (a region upload): listed unless they are
 * nan_bits. The room was reserved (ps_omp_zl_region_check). */
static void zl_odd_set(omp_ctx *c, size_t cell, uint64_t bits)
{
    size_t q = zl_odd_find(c, cell);
    int have = q < c->nodd && c->odd[q].cell == cell;
    if (bits == c->nan_bits) {
        if (have) {
            memmove(c->odd + q, c->odd + q + 1, (c->nodd - q - 1) * sizeof *c->odd);
            c->nodd--;
        }
        return;
    }
    if (have) {
        c->odd[q].bits = bits;
        return;
    }
    if (c->nodd == c->odd_cap)
        return; /* not reached: reserved */
    memmove(c->odd + q + 1, c->odd + q, (c->nodd - q) * sizeof *c->odd);
    c->odd[q].cell = cell;
    c->odd[q].bits = bits;
    c->nodd++;
}

#define ZL_FUNCS(T, SFX)                                                                 \
    /* NaN -> +0.0 in a and b, cnt LAND (land) or 0 (ocean, counted later); land's \
     * odd NaNs (box cells @p cell0..) into @p odd */                                  \
    static void zl_convert##SFX(T *a, T *b, unsigned char *cnt, size_t len, size_t cell0, \
                                uint64_t nanb, ps_omp_zl_odd *odd)                       \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < len; i++) {                                                      \
            T v = a[i];                                                                  \
            if (v != v) {                                                                \
                if (zl_bits##SFX(v) != nanb)                                             \
                    zl_odd_push(odd, cell0 + i, zl_bits##SFX(v));                        \
                cnt[i] = PS_OMP_ZL_LAND;                                                 \
                a[i] = b[i] = (T)0;                                                      \
            } else                                                                       \
                cnt[i] = 0;                                                              \
        }                                                                                \
    }                                                                                    \
    /* a region's row (box cells @p cell0..): like zl_convert, but an ocean cell     \
     * that was ocean keeps its count, and land's NaN goes to the context's odd     \
     * list; returns nonzero if a cell changed between land and ocean */             \
    static int zl_reconvert##SFX(omp_ctx *c, T *a, T *b, unsigned char *cnt, size_t len, \
                                 size_t cell0)                                           \
    {                                                                                    \
        size_t i;                                                                        \
        int changed = 0;                                                                 \
        for (i = 0; i < len; i++) {                                                      \
            T v = a[i];                                                                  \
            if (v != v) {                                                                \
                changed |= !(cnt[i] & PS_OMP_ZL_LAND);                                   \
                cnt[i] = PS_OMP_ZL_LAND;                                                 \
                if (c->nodd || zl_bits##SFX(v) != c->nan_bits)                           \
                    zl_odd_set(c, cell0 + i, zl_bits##SFX(v));                           \
                a[i] = b[i] = (T)0;                                                      \
            } else if (cnt[i] & PS_OMP_ZL_LAND) {                                        \
                changed = 1;                                                             \
                cnt[i] = 0;                                                              \
                zl_odd_set(c, cell0 + i, c->nan_bits); /* unlisted */                     \
            }                                                                            \
        }                                                                                \
        return changed;                                                                  \
    }                                                                                    \
    /* an interior row of a whole upload for the land-sum sweeps, from the        \
     * source row @p r in one pass: a with land as +0.0, cnt LAND or 0 (the count \
     * is added after), land's odd NaNs (box cells @p cell0..) into @p odd; of b \
     * only the @p rad boundary cells each end (a sweep writes every other cell  \
     * of b before one is read). Branch-free, so it vectorises; the odd NaNs are \
     * looked for only in a row that has one. */                                  \
    static void zl_fill_ls##SFX(T *restrict a, T *restrict b, unsigned char *restrict cnt, \
                                const T *restrict r, size_t nx, size_t rad, size_t cell0, \
                                uint64_t nanb, ps_omp_zl_odd *odd)                       \
    {                                                                                    \
        size_t i;                                                                        \
        int land = 0, other = 0;                                                         \
        for (i = 0; i < nx; i++) {                                                       \
            const T v = r[i];                                                            \
            const int nan = v != v;                                                      \
            a[i] = nan ? (T)0 : v;                                                       \
            cnt[i] = nan ? (unsigned char)PS_OMP_ZL_LAND : (unsigned char)0;             \
            land |= nan;                                                                 \
        }                                                                                \
        for (i = 0; i < nx && i < rad; i++) {                                            \
            b[i] = a[i];                                                                 \
            b[nx - 1 - i] = a[nx - 1 - i];                                               \
        }                                                                                \
        for (i = 0; land && i < nx; i++)                                                 \
            other |= (r[i] != r[i]) & (zl_bits##SFX(r[i]) != nanb);                      \
        for (i = 0; other && i < nx; i++)                                                \
            if (r[i] != r[i] && zl_bits##SFX(r[i]) != nanb)                              \
                zl_odd_push(odd, cell0 + i, zl_bits##SFX(r[i]));                         \
    }                                                                                    \
    /* land cells of @p h whose NaN is not @p nanb */                                   \
    static size_t zl_odd_count##SFX(const T *h, size_t len, uint64_t nanb)               \
    {                                                                                    \
        size_t i, n = 0;                                                                 \
        for (i = 0; i < len; i++)                                                        \
            n += h[i] != h[i] && zl_bits##SFX(h[i]) != nanb;                             \
        return n;                                                                        \
    }                                                                                    \
    /* box cells @p cell0.. (@p len of them) of @p v into @p h in one pass, land    \
     * cells with their NaN (the odd ones patched after) */                             \
    static void zl_copy_out##SFX(const omp_ctx *c, T *restrict h, const T *restrict v,  \
                                 const unsigned char *restrict cnt, size_t cell0,        \
                                 size_t len)                                             \
    {                                                                                    \
        const T nan = zl_from##SFX(c->nan_bits);                                         \
        size_t i, q;                                                                     \
        for (i = 0; i < len; i++)                                                        \
            h[i] = (cnt[i] & PS_OMP_ZL_LAND) ? nan : v[i];                               \
        for (q = zl_odd_find(c, cell0); q < c->nodd && c->odd[q].cell < cell0 + len; q++) \
            h[c->odd[q].cell - cell0] = zl_from##SFX(c->odd[q].bits);                    \
    }
ZL_FUNCS(float, _f32)
ZL_FUNCS(double, _f64)
#undef ZL_FUNCS

void ps_omp_zl_convert(const omp_ctx *c, void *a, void *b, size_t off, size_t len,
                       ps_omp_zl_odd *odd)
{
    if (c->es == sizeof(float))
        zl_convert_f32((float *)a + off, (float *)b + off, c->cnt + off, len, off,
                       c->nan_bits, odd);
    else
        zl_convert_f64((double *)a + off, (double *)b + off, c->cnt + off, len, off,
                       c->nan_bits, odd);
}

/* the linear offsets of the stencil's neighbours in the box (at most 64) */
static void zl_offsets(const omp_ctx *c, long spl, long srow, long *off)
{
    const ps_stencil *st = c->cfg.stencil;
    int q;
    for (q = 0; q < st->nneighbours; q++)
        off[q] = st->offsets[q][0] * spl + st->offsets[q][1] * srow + st->offsets[q][2];
}

/* is cell (k, j, i) at least the stencil's radius from every face of the box? */
static int zl_interior(const omp_ctx *c, size_t k, size_t j, size_t i)
{
    const size_t r = (size_t)c->cfg.stencil->radius;
    return k >= r && j >= r && i >= r && k + r < c->g.nz && j + r < c->g.ny &&
           i + r < c->g.nx;
}

/* ocean cells i0..i1-1 of row @p off: the stencil's neighbours not flagged land
 * (interior cells), 0 (the others) */
void ps_omp_zl_count(const omp_ctx *c, size_t off, size_t i0, size_t i1)
{
    const size_t nx = c->g.nx, k = off / nx / c->g.ny, j = off / nx % c->g.ny;
    const int nnb = c->cfg.stencil->nneighbours;
    unsigned char *cnt = c->cnt;
    long o[64];
    size_t i;
    int q;
    zl_offsets(c, (long)(c->g.ny * nx), (long)nx, o);
    for (i = i0; i < i1; i++) {
        const size_t p = off + i;
        unsigned n = 0;
        if (cnt[p] & PS_OMP_ZL_LAND)
            continue;
        if (zl_interior(c, k, j, i))
            for (q = 0; q < nnb; q++)
                n += !(cnt[(long)p + o[q]] & PS_OMP_ZL_LAND);
        cnt[p] = (unsigned char)n;
    }
}

/* an interior row's ocean cells r..nx-r-1: the neighbours that are not NaN in
 * the source row @p src (NULL: all), one neighbour at a time over the row */
#define ZL_COUNT_SRC(T, SFX)                                                             \
    static void zl_count_src##SFX(const omp_ctx *c, unsigned char *restrict cnt,         \
                                  const T *restrict src, const long *o)                  \
    {                                                                                    \
        const long r = c->cfg.stencil->radius, i1 = (long)c->g.nx - r;                   \
        const int nnb = c->cfg.stencil->nneighbours;                                     \
        long i;                                                                          \
        int q;                                                                           \
        if (!src) {                                                                      \
            for (i = r; i < i1; i++)                                                     \
                cnt[i] = (unsigned char)nnb;                                             \
            return;                                                                      \
        }                                                                                \
        /* branch-free, so each pass vectorises: a land byte (0x80) counts too, \
         * and is put back after (nnb < 0x80: the sum never carries into it) */     \
        for (q = 0; q < nnb; q++) {                                                      \
            const T *restrict nb = src + o[q];                                           \
            for (i = r; i < i1; i++)                                                     \
                cnt[i] = (unsigned char)(cnt[i] + (nb[i] == nb[i]));                     \
        }                                                                                \
        for (i = r; i < i1; i++)                                                         \
            cnt[i] = (cnt[i] & PS_OMP_ZL_LAND) ? (unsigned char)PS_OMP_ZL_LAND : cnt[i];  \
    }
ZL_COUNT_SRC(float, _f32)
ZL_COUNT_SRC(double, _f64)
#undef ZL_COUNT_SRC

void ps_omp_zl_count_src(const omp_ctx *c, size_t k, size_t j, const void *srow, size_t spl,
                         size_t srp)
{
    const size_t r = (size_t)c->cfg.stencil->radius;
    unsigned char *cnt = c->cnt + (k * c->g.ny + j) * c->g.nx;
    long o[64];
    if (k < r || j < r || k + r >= c->g.nz || j + r >= c->g.ny || 2 * r >= c->g.nx)
        return; /* no interior cell: the ocean ones keep their 0 */
    zl_offsets(c, (long)spl, (long)srp, o);
    if (c->es == sizeof(float))
        zl_count_src_f32(c, cnt, srow, o);
    else
        zl_count_src_f64(c, cnt, srow, o);
}

void ps_omp_zl_fill_ls(const omp_ctx *c, void *a, void *b, const void *srow, size_t off,
                       ps_omp_zl_odd *odd)
{
    const size_t nx = c->g.nx, rad = (size_t)c->cfg.stencil->radius;
    if (c->es == sizeof(float))
        zl_fill_ls_f32((float *)a + off, (float *)b + off, c->cnt + off, srow, nx, rad, off,
                       c->nan_bits, odd);
    else
        zl_fill_ls_f64((double *)a + off, (double *)b + off, c->cnt + off, srow, nx, rad,
                       off, c->nan_bits, odd);
}

int ps_omp_zl_region_check(omp_ctx *c, const void *host, size_t rp, size_t pp,
                           const ps_region *r)
{
    const size_t cells = c->g.nz * c->g.ny * c->g.nx;
    const char *h = host;
    size_t k, j, odd = 0, need;
    for (k = 0; k < r->count.nz; k++)
        for (j = 0; j < r->count.ny; j++) {
            const void *row = h + k * pp + j * rp;
            odd += c->es == sizeof(float)
                       ? zl_odd_count_f32(row, r->count.nx, c->nan_bits)
                       : zl_odd_count_f64(row, r->count.nx, c->nan_bits);
        }
    need = c->nodd + odd;
    if (need > ZL_ODD_MAX(cells))
        return 1;
    if (need > c->odd_cap) {
        ps_omp_zl_nan *v = realloc(c->odd, need * sizeof *v);
        if (!v)
            return 1;
        c->odd = v;
        c->odd_cap = need;
    }
    return 0;
}

ps_omp_zl_odd *ps_omp_zl_odd_begin(omp_ctx *c)
{
    const size_t cells = c->g.nz * c->g.ny * c->g.nx;
    ps_omp_zl_odd *l = calloc((size_t)c->threads, sizeof *l);
    int t;
    for (t = 0; l && t < c->threads; t++)
        l[t].max = ZL_ODD_MAX(cells);
    c->nan_bits = c->es == sizeof(float) ? zl_bits_f32((float)NAN) : zl_bits_f64((double)NAN);
    c->nodd = 0;
    return l;
}

ps_omp_zl_odd *ps_omp_zl_odd_of(ps_omp_zl_odd *lists, int thread)
{
    return lists ? &lists[thread] : NULL;
}

static int zl_nan_cmp(const void *a, const void *b)
{
    size_t x = ((const ps_omp_zl_nan *)a)->cell, y = ((const ps_omp_zl_nan *)b)->cell;
    return (x > y) - (x < y);
}

int ps_omp_zl_odd_end(omp_ctx *c, ps_omp_zl_odd *lists)
{
    const size_t cells = c->g.nz * c->g.ny * c->g.nx;
    size_t n = 0;
    int t, over = !lists;
    for (t = 0; lists && t < c->threads; t++) {
        over |= lists[t].full;
        n += lists[t].n;
    }
    over |= n > ZL_ODD_MAX(cells);
    free(c->odd);
    c->odd = NULL;
    c->nodd = c->odd_cap = 0;
    if (!over && n && !(c->odd = malloc(n * sizeof *c->odd)))
        over = 1;
    for (t = 0; !over && t < c->threads; t++) {
        if (lists[t].n)
            memcpy(c->odd + c->nodd, lists[t].v, lists[t].n * sizeof *c->odd);
        c->nodd += lists[t].n;
    }
    if (!over) {
        c->odd_cap = n;
        if (n) /* qsort's array may not be NULL, even for no element */
            qsort(c->odd, n, sizeof *c->odd, zl_nan_cmp);
    }
    for (t = 0; lists && t < c->threads; t++)
        free(lists[t].v);
    free(lists);
    return over;
}

/* NaN land from now on: the count bytes and the odd list freed (the caller
 * rewrites the fields, or ps_omp_zl_leave has put land's NaN back). */
void ps_omp_zl_off(omp_ctx *c)
{
    c->zl = 0;
    ps_omp_pages_free(c->cnt, c->cnt_bytes);
    c->cnt = NULL;
    free(c->odd);
    c->odd = NULL;
    c->nodd = c->odd_cap = 0;
}

/* Back to NaN land for good (an upload ruled zero-land out): land's NaN into both fields. */
void ps_omp_zl_leave(omp_ctx *c)
{
    const size_t n = c->g.nz * c->g.ny * c->g.nx;
    size_t i;
    if (!c->zl)
        return;
    for (i = 0; i < n; i++) {
        if (!(c->cnt[i] & PS_OMP_ZL_LAND))
            continue;
        if (c->es == sizeof(float))
            ((float *)c->cur)[i] = ((float *)c->next)[i] = zl_from_f32(c->nan_bits);
        else
            ((double *)c->cur)[i] = ((double *)c->next)[i] = zl_from_f64(c->nan_bits);
    }
    for (i = 0; i < c->nodd; i++) {
        if (c->es == sizeof(float))
            ((float *)c->cur)[c->odd[i].cell] = ((float *)c->next)[c->odd[i].cell] =
                zl_from_f32(c->odd[i].bits);
        else
            ((double *)c->cur)[c->odd[i].cell] = ((double *)c->next)[c->odd[i].cell] =
                zl_from_f64(c->odd[i].bits);
    }
    ps_omp_zl_off(c);
}

/*
 * Zero-land after a region was scattered into both buffers: convert its
 * cells, then, only if a cell of it changed between land and ocean, recount
 * the cells within the stencil's reach of it (the only ones whose
 * neighbourhood it can change). A halo upload of a decomposition never
 * changes the mask (land is fixed), so it costs one pass over the region and
 * no recount: ocean cells keep their counts, land cells take the uploaded
 * NaN. Serial; the mask is read from the count bytes' land flags, which the
 * recount does not change. The odd list's room was reserved by
 * ps_omp_zl_region_check.
 */
void ps_omp_zl_region(omp_ctx *c, const ps_region *r)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    size_t k, j, lo[3], hi[3], ext[3] = {nz, ny, nx};
    int a;
    char *A = c->cur, *B = c->next;
    int changed = 0;
    for (k = r->start[0]; k < r->start[0] + r->count.nz; k++)
        for (j = r->start[1]; j < r->start[1] + r->count.ny; j++) {
            size_t cell = (k * ny + j) * nx + r->start[2], off = cell * es;
            if (es == sizeof(float))
                changed |= zl_reconvert_f32(c, (float *)(A + off), (float *)(B + off),
                                            c->cnt + cell, r->count.nx, cell);
            else
                changed |= zl_reconvert_f64(c, (double *)(A + off), (double *)(B + off),
                                            c->cnt + cell, r->count.nx, cell);
        }
    if (changed) {
        /* recount the region grown by the neighbours' reach along each axis */
        size_t cnt3[3] = {r->count.nz, r->count.ny, r->count.nx};
        for (a = 0; a < 3; a++) {
            const size_t reach = (size_t)ps_omp_gen_reach(c->cfg.stencil, a);
            lo[a] = r->start[a] > reach ? r->start[a] - reach : 0;
            hi[a] = r->start[a] + cnt3[a] + reach;
            if (hi[a] > ext[a])
                hi[a] = ext[a];
        }
        for (k = lo[0]; k < hi[0]; k++)
            for (j = lo[1]; j < hi[1]; j++)
                ps_omp_zl_count(c, (k * ny + j) * nx, lo[2], hi[2]);
    }
}

/* A downloaded run of @p len cells (box offset @p box_off) of the current field, land
 * cells with their NaN: the copy and the NaN put back in one pass. */
void ps_omp_zl_copy_out(const omp_ctx *c, void *host, size_t box_off, size_t len)
{
    if (c->es == sizeof(float))
        zl_copy_out_f32(c, host, (const float *)c->cur + box_off, c->cnt + box_off, box_off,
                        len);
    else
        zl_copy_out_f64(c, host, (const double *)c->cur + box_off, c->cnt + box_off,
                        box_off, len);
}
