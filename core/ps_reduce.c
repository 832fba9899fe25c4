/* The reductions of a record (core/ps_reduce.h): cell volumes from the
 * finite-volume metric of docs/model.md, exact sums of V * T and V, exact extremes, partial reductions
 * merged in any order, over threads here and over processes by their packs. */
#include "ps_reduce.h"
#include "ps_status.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strictly monotonic and finite, in either direction */
static int monotonic(const double *v, size_t n)
{
    size_t q;
    for (q = 0; q < n; q++)
        if (!isfinite(v[q]))
            return 0;
    for (q = 0; q + 1 < n; q++)
        if (!(v[q + 1] - v[q] > 0) != !(v[1] - v[0] > 0) || v[q + 1] == v[q])
            return 0;
    return 1;
}

int ps_cell_volumes(ps_grid g, const double *depth, const double *lat, const double *lon,
                    double *vol, char *why, size_t whylen)
{
    const double deg = 3.14159265358979323846 / 180.0;
    size_t nz = g.nz, ny = g.ny, nx = g.nx, k, j, q;
    double dlon, big, rr;
    if (!depth || !lat || !lon) {
        snprintf(why, whylen, "no %s coordinate", !depth ? "depth" : !lat ? "latitude"
                                                                            : "longitude");
        return PS_EINVAL;
    }
    if (nz < 2 || ny < 2 || nx < 2) {
        snprintf(why, whylen, "fewer than 2 %s", nz < 2 ? "levels" : ny < 2 ? "latitudes"
                                                                             : "longitudes");
        return PS_EINVAL;
    }
    if (!monotonic(depth, nz) || !monotonic(lat, ny)) {
        snprintf(why, whylen, "%s not strictly monotonic and finite",
                 !monotonic(depth, nz) ? "depths" : "latitudes");
        return PS_EINVAL;
    }
    for (j = 0; j < ny; j++)
        if (!(fabs(lat[j]) <= 90.0)) {
            snprintf(why, whylen, "latitude %g outside [-90, 90]", lat[j]);
            return PS_EINVAL;
        }
    /* uniform longitudes: each on lon_0 + q dlon to 1e-6 of the largest |lon| */
    dlon = (lon[nx - 1] - lon[0]) / (double)(nx - 1);
    big = fabs(dlon);
    for (q = 0; q < nx; q++)
        big = fabs(lon[q]) > big ? fabs(lon[q]) : big;
    for (q = 0; q < nx; q++) {
        double d = lon[q] - (lon[0] + (double)q * dlon);
        if (!(fabs(d) <= 1e-6 * big) || dlon == 0 ||
            (q + 1 < nx && !((lon[q + 1] - lon[q]) * dlon > 0))) {
            snprintf(why, whylen, "longitudes not uniform (longitude %.9g at index %zu is "
                     "%.3g degrees off)", lon[q], q, d);
            return PS_EINVAL;
        }
    }
    dlon = fabs(dlon) * deg;
    rr = (PS_REDUCE_R * PS_REDUCE_R) * dlon;
    for (k = 0; k < nz; k++) {
        double h = k == 0 ? depth[1] - depth[0]
                 : k == nz - 1 ? depth[nz - 1] - depth[nz - 2]
                               : (depth[k + 1] - depth[k - 1]) / 2.0;
        for (j = 0; j < ny; j++) {
            double w = j == 0 ? (lat[1] - lat[0]) * deg
                     : j == ny - 1 ? (lat[ny - 1] - lat[ny - 2]) * deg
                                   : (lat[j + 1] - lat[j - 1]) / 2.0 * deg;
            double a = (rr * cos(lat[j] * deg)) * fabs(w);
            vol[k * ny + j] = a * fabs(h);
        }
    }
    return PS_OK;
}

void ps_reduce_part_init(ps_reduce_part *p)
{
    memset(p, 0, sizeof *p);
    p->min = INFINITY;
    p->max = -INFINITY;
}

/* unsigned keys in the order of the values, -0.0 below +0.0 (no NaN comes here) */
static uint64_t key_of(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
}

static double value_of(uint64_t k)
{
    uint64_t b = (k >> 63) ? k & ~((uint64_t)1 << 63) : ~k;
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* The volume of n cells of one row, each weighing v: v * n as the exact sum of two
 * doubles (the product and its error by fma, exact whenever the product is finite:
 * the error is a multiple of ulp(v) below ulp(v * n)), else n additions. */
static void add_volume(ps_xsum *a, double v, long long n)
{
    double p = v * (double)n;
    if (n <= 0)
        return;
    if (isfinite(p)) {
        ps_xsum_add(a, p);
        ps_xsum_add(a, fma(v, (double)n, -p));
    } else {
        while (n-- > 0)
            ps_xsum_add(a, v);
    }
}

/* A row: its ocean cells' products V * T into the content's front, their extremes
 * (-0.0 below +0.0: an equal value replaces the extreme only when it is the zero of
 * the right sign, which leaves any other value unchanged) and their volume. */
#define PS_REDUCE_ROW(T)                                                                  \
    static void row_##T(ps_reduce_part *p, ps_xsum_large *l, const T *t, size_t nx,      \
                        double v)                                                          \
    {                                                                                      \
        size_t i;                                                                          \
        long long n = 0;                                                                   \
        double mn = p->min, mx = p->max;                                                   \
        for (i = 0; i < nx; i++) {                                                         \
            double x = (double)t[i];                                                       \
            if (x != x)                                                                    \
                continue;                                                                  \
            n++;                                                                           \
            ps_xsum_large_add(l, &p->content, v * x);                                      \
            if (x <= mn && (x < mn || signbit(x)))                                         \
                mn = x;                                                                    \
            if (x >= mx && (x > mx || !signbit(x)))                                        \
                mx = x;                                                                    \
        }                                                                                  \
        p->min = mn;                                                                       \
        p->max = mx;                                                                       \
        p->cells += n;                                                                     \
        add_volume(&p->volume, v, n);                                                      \
    }
PS_REDUCE_ROW(float)
PS_REDUCE_ROW(double)

typedef struct reduce_work {
    ps_reduce_part part;
    ps_xsum_large large; /* the content's front (carried into part.content at the end) */
    const ps_field *f;
    const size_t *origin;
    const double *vol;
    size_t gny, k0, k1;
} reduce_work;

static void *reduce_levels(void *arg)
{
    reduce_work *w = arg;
    const ps_grid *g = &w->f->grid;
    size_t k, j;
    ps_xsum_large_init(&w->large);
    for (k = w->k0; k < w->k1; k++)
        for (j = 0; j < g->ny; j++) {
            size_t c = (k * g->ny + j) * g->nx;
            double v = w->vol ? w->vol[(w->origin[0] + k) * w->gny + w->origin[1] + j] : 1.0;
            if (w->f->precision == PS_FLOAT64)
                row_double(&w->part, &w->large, (const double *)w->f->data + c, g->nx, v);
            else
                row_float(&w->part, &w->large, (const float *)w->f->data + c, g->nx, v);
        }
    ps_xsum_large_flush(&w->large, &w->part.content);
    return NULL;
}

int ps_reduce_field(ps_reduce_part *p, const ps_field *f, const size_t origin[3],
                    const double *vol, size_t global_ny, int threads)
{
    reduce_work *w;
    pthread_t *tid;
    char *joined;
    size_t nz, t, nt;
    if (!f || !f->data)
        return ps_error(PS_EINVAL, "reduce: no field");
    nz = f->grid.nz;
    nt = threads > 1 ? (size_t)threads : 1;
    /* a level per thread at least, and 2^16 cells each to pay for starting it */
    if (nt > nz)
        nt = nz ? nz : 1;
    while (nt > 1 && ps_field_cells(f) / nt < 65536)
        nt--;
    w = calloc(nt, sizeof *w);
    tid = calloc(nt, sizeof *tid);
    joined = calloc(nt, 1);
    if (!w || !tid || !joined) {
        free(w);
        free(tid);
        free(joined);
        return ps_error(PS_ENOMEM, "reduce: out of memory");
    }
    for (t = 0; t < nt; t++) {
        ps_reduce_part_init(&w[t].part);
        w[t].f = f;
        w[t].origin = origin;
        w[t].vol = vol;
        w[t].gny = global_ny;
        w[t].k0 = nz * t / nt;
        w[t].k1 = nz * (t + 1) / nt;
    }
    for (t = 1; t < nt; t++) {
        joined[t] = pthread_create(&tid[t], NULL, reduce_levels, &w[t]) == 0;
        if (!joined[t])
            reduce_levels(&w[t]); /* no thread: this one does those levels */
    }
    reduce_levels(&w[0]);
    for (t = 1; t < nt; t++)
        if (joined[t])
            pthread_join(tid[t], NULL);
    for (t = 0; t < nt; t++)
        ps_reduce_merge(p, &w[t].part);
    free(w);
    free(tid);
    free(joined);
    return PS_OK;
}

void ps_reduce_merge(ps_reduce_part *a, const ps_reduce_part *b)
{
    ps_xsum_merge(&a->content, &b->content);
    ps_xsum_merge(&a->volume, &b->volume);
    if (b->cells) {
        if (!a->cells || key_of(b->min) < key_of(a->min))
            a->min = b->min;
        if (!a->cells || key_of(b->max) > key_of(a->max))
            a->max = b->max;
    }
    a->cells += b->cells;
}

void ps_reduce_finish(const ps_reduce_part *p, ps_reduction *out)
{
    out->cells = p->cells;
    out->content = ps_xsum_round(&p->content);
    out->volume = ps_xsum_round(&p->volume);
    if (!p->cells) {
        out->mean = out->min = out->max = NAN;
        return;
    }
    out->mean = out->content / out->volume;
    out->min = p->min;
    out->max = p->max;
}

void ps_reduce_pack(const ps_reduce_part *p, long long *sums, uint64_t *maxes)
{
    ps_xsum_pack(&p->content, sums);
    ps_xsum_pack(&p->volume, sums + PS_XSUM_WORDS);
    sums[2 * PS_XSUM_WORDS] = p->cells;
    /* no cell: 0, below every key of a value */
    maxes[0] = p->cells ? key_of(p->max) : 0;
    maxes[1] = p->cells ? ~key_of(p->min) : 0;
}

void ps_reduce_unpack(ps_reduce_part *p, const long long *sums, const uint64_t *maxes)
{
    ps_xsum_unpack(&p->content, sums);
    ps_xsum_unpack(&p->volume, sums + PS_XSUM_WORDS);
    p->cells = sums[2 * PS_XSUM_WORDS];
    p->max = p->cells ? value_of(maxes[0]) : -INFINITY;
    p->min = p->cells ? value_of(~maxes[1]) : INFINITY;
}
