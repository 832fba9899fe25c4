/*
 * Domain decomposition: boxes with ghost layers, the axis-by-axis exchange
 * plan, the in-process transport and the round driver (core/ps_decomp.h).
 */
#include "config.h"
#include "ps_decomp.h"
#include "ps_decomp_pool.h"
#include "ps_status.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t ext_of(ps_grid g, int a)
{
    return a == 0 ? g.nz : a == 1 ? g.ny : g.nx;
}

/* Owned range of part p of P along n cells, remainders to the first parts. */
static void split_range(size_t n, int P, int p, size_t *lo, size_t *hi)
{
    size_t base = n / (size_t)P, rem = n % (size_t)P;
    *lo = (size_t)p * base + ((size_t)p < rem ? (size_t)p : rem);
    *hi = *lo + base + ((size_t)p < rem ? 1 : 0);
}

static int box_index(const ps_decomp *d, const int c[3])
{
    return (c[0] * d->split[1] + c[1]) * d->split[2] + c[2];
}

/* Stored global range of box b along axis a. */
static void stored(const ps_decomp_box *b, int a, size_t *lo, size_t *hi)
{
    *lo = b->box.origin[a];
    *hi = b->box.origin[a] + ext_of(b->box.extent, a);
}

static int add_copy(ps_decomp *d, int *cap, const ps_decomp_copy *c)
{
    size_t cells = c->src_region.count.nz * c->src_region.count.ny * c->src_region.count.nx;
    if (d->ncopies == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        ps_decomp_copy *n = realloc(d->copies, (size_t)ncap * sizeof *n);
        if (!n)
            return ps_error(PS_ENOMEM, "decomposition: out of memory for the exchange plan");
        d->copies = n;
        *cap = ncap;
    }
    d->copies[d->ncopies++] = *c;
    if (cells > d->max_copy_cells)
        d->max_copy_cells = cells;
    return PS_OK;
}

/* The copies that fill box b's ghost slabs along axis a. */
static int plan_box_axis(ps_decomp *d, int *cap, int bi, int a)
{
    const ps_decomp_box *b = &d->boxes[bi];
    size_t slo, shi, side_lo[2], side_hi[2];
    int side, p, x, st;
    stored(b, a, &slo, &shi);
    side_lo[0] = slo;
    side_hi[0] = b->own_lo[a];
    side_lo[1] = b->own_hi[a];
    side_hi[1] = shi;
    for (side = 0; side < 2; side++) {
        if (side_lo[side] >= side_hi[side])
            continue;
        for (p = 0; p < d->split[a]; p++) {
            int c[3] = {b->coord[0], b->coord[1], b->coord[2]};
            const ps_decomp_box *e;
            size_t lo[3], hi[3];
            ps_decomp_copy cp;
            c[a] = p;
            if (p == b->coord[a])
                continue;
            e = &d->boxes[box_index(d, c)];
            lo[a] = side_lo[side] > e->own_lo[a] ? side_lo[side] : e->own_lo[a];
            hi[a] = side_hi[side] < e->own_hi[a] ? side_hi[side] : e->own_hi[a];
            if (lo[a] >= hi[a])
                continue;
            for (x = 0; x < 3; x++) {
                if (x == a)
                    continue;
                if (x < a)
                    stored(b, x, &lo[x], &hi[x]); /* ghosts refreshed by an earlier axis */
                else
                    lo[x] = b->own_lo[x], hi[x] = b->own_hi[x];
            }
            memset(&cp, 0, sizeof cp);
            cp.src = box_index(d, c);
            cp.dst = bi;
            for (x = 0; x < 3; x++) {
                cp.src_region.start[x] = lo[x] - e->box.origin[x];
                cp.dst_region.start[x] = lo[x] - b->box.origin[x];
            }
            cp.src_region.count = (ps_grid){hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
            cp.dst_region.count = cp.src_region.count;
            if ((st = add_copy(d, cap, &cp)))
                return st;
        }
    }
    return PS_OK;
}

int ps_decomp_create(ps_decomp *d, ps_grid global, const int split[3], unsigned ghost)
{
    static const char axis[3] = {'k', 'j', 'i'};
    int a, q, cap = 0, st;
    memset(d, 0, sizeof *d);
    for (a = 0; a < 3; a++) {
        if (split[a] < 1)
            return ps_error(PS_EINVAL, "split: %d boxes along %c (at least 1)", split[a],
                            axis[a]);
        if ((size_t)split[a] > ext_of(global, a))
            return ps_error(PS_EINVAL, "split: %d boxes along %c, but the grid has only %zu "
                            "cells along it", split[a], axis[a], ext_of(global, a));
    }
    d->global = global;
    memcpy(d->split, split, sizeof d->split);
    d->ghost = ghost;
    d->nboxes = split[0] * split[1] * split[2];
    if (d->nboxes > 1 && ghost == 0)
        return ps_error(PS_EINVAL, "split: %d boxes need at least one ghost layer", d->nboxes);
    d->boxes = calloc((size_t)d->nboxes, sizeof *d->boxes);
    if (!d->boxes)
        return ps_error(PS_ENOMEM, "decomposition: out of memory for %d boxes", d->nboxes);
    for (q = 0; q < d->nboxes; q++) {
        ps_decomp_box *b = &d->boxes[q];
        size_t lo[3], hi[3];
        b->coord[0] = q / (split[1] * split[2]);
        b->coord[1] = (q / split[2]) % split[1];
        b->coord[2] = q % split[2];
        for (a = 0; a < 3; a++) {
            size_t n = ext_of(global, a);
            split_range(n, split[a], b->coord[a], &b->own_lo[a], &b->own_hi[a]);
            lo[a] = b->own_lo[a] > ghost ? b->own_lo[a] - ghost : 0;
            hi[a] = b->own_hi[a] + ghost < n ? b->own_hi[a] + ghost : n;
            b->box.origin[a] = lo[a];
            if (lo[a] == 0)
                b->box.global_faces |= 1u << (2 * a);
            if (hi[a] == n)
                b->box.global_faces |= 1u << (2 * a + 1);
        }
        b->box.extent = (ps_grid){hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
        b->box.global = global;
        b->box.ghost = d->nboxes > 1 ? ghost : 0;
    }
    for (a = 0; a < 3; a++) {
        for (q = 0; q < d->nboxes; q++)
            if ((st = plan_box_axis(d, &cap, q, a))) {
                ps_decomp_free(d);
                return st;
            }
        d->axis_end[a] = d->ncopies;
    }
    return PS_OK;
}

void ps_decomp_free(ps_decomp *d)
{
    if (!d)
        return;
    free(d->boxes);
    free(d->copies);
    memset(d, 0, sizeof *d);
}

int ps_decomp_factor(int nboxes, ps_grid global, int split[3])
{
    double best = -1;
    int pk, pj;
    if (nboxes < 1)
        return ps_error(PS_EINVAL, "split: %d boxes (at least 1)", nboxes);
    for (pk = 1; pk <= nboxes; pk++) {
        if (nboxes % pk || (size_t)pk > global.nz)
            continue;
        for (pj = 1; pj <= nboxes / pk; pj++) {
            int pi;
            double surface;
            if ((nboxes / pk) % pj || (size_t)pj > global.ny)
                continue;
            pi = nboxes / pk / pj;
            if ((size_t)pi > global.nx)
                continue;
            /* cells of all inner faces: (P - 1) planes across each split axis */
            surface = (double)(pk - 1) * (double)global.ny * (double)global.nx +
                      (double)(pj - 1) * (double)global.nz * (double)global.nx +
                      (double)(pi - 1) * (double)global.nz * (double)global.ny;
            if (best < 0 || surface < best) {
                best = surface;
                split[0] = pk;
                split[1] = pj;
                split[2] = pi;
            }
        }
    }
    if (best < 0)
        return ps_error(PS_EINVAL, "split: %d boxes do not fit a %zux%zux%zu grid", nboxes,
                        global.nz, global.ny, global.nx);
    return PS_OK;
}

/* A positive decimal integer at *s (advances it); -1 if none or too large. */
static long parse_count(const char **s)
{
    char *end;
    long v;
    if (!isdigit((unsigned char)**s))
        return -1;
    errno = 0;
    v = strtol(*s, &end, 10);
    if (errno || v < 1 || v > 1000000)
        return -1;
    *s = end;
    return v;
}

int ps_decomp_parse_split(const char *s, ps_grid global, int split[3])
{
    const char *p = s ? s : "";
    long v[3];
    int n = 0, dangling = 0;
    while (n < 3) {
        v[n] = parse_count(&p);
        if (v[n] < 0)
            break;
        n++;
        dangling = 0;
        if (*p != 'x' && *p != 'X')
            break;
        p++;
        dangling = 1;
    }
    if (dangling)
        n = -1; /* "2x", "2x3x": a separator with no count after it */
    if (*p == '\0' && n == 1)
        return ps_decomp_factor((int)v[0], global, split);
    if (*p != '\0' || n != 3)
        return ps_error(PS_EINVAL, "split '%s': expected PKxPJxPI (e.g. 2x1x1) or a box count",
                        s ? s : "");
    split[0] = (int)v[0];
    split[1] = (int)v[1];
    split[2] = (int)v[2];
    return PS_OK;
}

int ps_decomp_local_move(void *self, const ps_decomp_copy *c)
{
    ps_decomp_local *l = self;
    size_t bytes = c->src_region.count.nz * c->src_region.count.ny *
                   c->src_region.count.nx * l->es;
    int st;
    if ((st = ps_context_download(l->ctx[c->src], l->staging, &c->src_region)))
        return st;
    if ((st = ps_context_upload(l->ctx[c->dst], l->staging, &c->dst_region)))
        return st;
    l->moves++;
    l->bytes += 2.0 * (double)bytes;
    return PS_OK;
}

int ps_decomp_local_init(ps_decomp_local *l, const ps_decomp *d, ps_context **ctx,
                         ps_precision p, ps_decomp_transport *t)
{
    memset(l, 0, sizeof *l);
    l->ctx = ctx;
    l->es = ps_precision_size(p);
    l->staging = malloc((d->max_copy_cells ? d->max_copy_cells : 1) * l->es);
    if (!l->staging)
        return ps_error(PS_ENOMEM, "decomposition: cannot allocate a %zu-cell staging buffer",
                        d->max_copy_cells);
    t->move = ps_decomp_local_move;
    t->self = l;
    return PS_OK;
}

void ps_decomp_local_free(ps_decomp_local *l)
{
    if (l) {
        if (!l->pool_shared)
            ps_decomp_pool_stop(l->pool);
        l->pool = NULL;
        l->pool_shared = 0;
        free(l->staging);
        l->staging = NULL;
    }
}

int ps_decomp_place(int nboxes, const int *device, int threads, int concurrent,
                    int *box_threads, int *worker)
{
    int q, r, nw = 0;
    if (threads < 0)
        threads = 0;
    if (!concurrent || nboxes < 2) {
        for (q = 0; q < nboxes; q++) {
            box_threads[q] = threads;
            worker[q] = 0;
        }
        return 1;
    }
    for (q = 0; q < nboxes; q++)
        worker[q] = -1;
    for (q = 0; q < nboxes; q++) {
        int n = 0, w, i = 0;
        if (worker[q] >= 0)
            continue; /* placed with an earlier box of its device */
        for (r = q; r < nboxes; r++)
            n += device[r] == device[q];
        w = threads > 0 ? (n < threads ? n : threads) : 1;
        for (r = q; r < nboxes; r++) {
            if (device[r] != device[q])
                continue;
            worker[r] = nw + i % w;
            box_threads[r] = threads > 0 ? threads / w + (i % w < threads % w) : 0;
            i++;
        }
        nw += w;
    }
    return nw;
}

int ps_decomp_round_steps(const ps_decomp *d, int radius, long steps, long *per_round)
{
    if (radius < 1)
        return ps_error(PS_EINVAL, "decomposition: stencil radius %d", radius);
    if (d->nboxes > 1 && d->ghost < (unsigned)radius)
        return ps_error(PS_EINVAL, "decomposition: %u ghost layers, the stencil needs at "
                        "least its radius %d", d->ghost, radius);
    *per_round = d->nboxes > 1 ? (long)(d->ghost / (unsigned)radius) : steps;
    return PS_OK;
}

int ps_decomp_exchange(const ps_decomp *d, const ps_decomp_transport *t)
{
    int q, st;
    for (q = 0; q < d->ncopies; q++)
        if ((st = t->move(t->self, &d->copies[q])))
            return st;
    return PS_OK;
}

/* Copy between the global field and a packed block of box b (gather or scatter). */
static void block_copy(const ps_field *f, void *buf, const size_t lo[3], const size_t cnt[3],
                       int to_field)
{
    size_t es = ps_precision_size(f->precision), k, j;
    for (k = 0; k < cnt[0]; k++)
        for (j = 0; j < cnt[1]; j++) {
            char *g = (char *)f->data + ps_index(&f->grid, lo[0] + k, lo[1] + j, lo[2]) * es;
            char *b = (char *)buf + (k * cnt[1] + j) * cnt[2] * es;
            if (to_field)
                memcpy(g, b, cnt[2] * es);
            else
                memcpy(b, g, cnt[2] * es);
        }
}

static int transfer(const ps_decomp *d, ps_context **ctx, ps_field *f, int down)
{
    size_t es = ps_precision_size(f->precision), most = 1;
    void *buf;
    int q, a, st = PS_OK;
    if (d->nboxes == 1) /* the whole grid: no staging */
        return down ? ps_context_download(ctx[0], f->data, NULL)
                    : ps_context_upload(ctx[0], f->data, NULL);
    for (q = 0; q < d->nboxes; q++) {
        const ps_grid e = d->boxes[q].box.extent;
        if (e.nz * e.ny * e.nx > most)
            most = e.nz * e.ny * e.nx;
    }
    buf = malloc(most * es);
    if (!buf)
        return ps_error(PS_ENOMEM, "decomposition: cannot allocate %zu cells", most);
    for (q = 0; q < d->nboxes && !st; q++) {
        const ps_decomp_box *b = &d->boxes[q];
        size_t lo[3], cnt[3];
        ps_region r;
        for (a = 0; a < 3; a++) {
            lo[a] = down ? b->own_lo[a] : b->box.origin[a];
            cnt[a] = down ? b->own_hi[a] - b->own_lo[a] : ext_of(b->box.extent, a);
            r.start[a] = lo[a] - b->box.origin[a];
        }
        r.count = (ps_grid){cnt[0], cnt[1], cnt[2]};
        if (down) {
            if (!(st = ps_context_download(ctx[q], buf, &r)))
                block_copy(f, buf, lo, cnt, 1);
        } else {
            block_copy(f, buf, lo, cnt, 0);
            st = ps_context_upload(ctx[q], buf, NULL);
        }
    }
    free(buf);
    return st;
}

int ps_decomp_upload(const ps_decomp *d, ps_context **ctx, const ps_field *f)
{
    return transfer(d, ctx, (ps_field *)f, 0);
}

int ps_decomp_download(const ps_decomp *d, ps_context **ctx, ps_field *f)
{
    return transfer(d, ctx, f, 1);
}

int ps_decomp_step(const ps_decomp *d, ps_context **ctx, const ps_decomp_transport *t,
                   int radius, long steps)
{
    long per_round, done = 0;
    int q, st;
    if ((st = ps_decomp_round_steps(d, radius, steps, &per_round)))
        return st;
    while (done < steps) {
        long n = steps - done < per_round ? steps - done : per_round;
        for (q = 0; q < d->nboxes; q++)
            if ((st = ps_context_step(ctx[q], n)))
                return st;
        done += n;
        /* leave the ghosts current: the next round, or the next call, needs them */
        if (d->nboxes > 1 && (st = ps_decomp_exchange(d, t)))
            return st;
    }
    for (q = 0; q < d->nboxes; q++)
        if ((st = ps_context_finish(ctx[q])))
            return st;
    return PS_OK;
}
