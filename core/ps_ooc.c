/*
 * Out-of-core slabs (core/ps_ooc.h): the plan (axis and slab count under a
 * budget) and the passes that stream the slabs through one context at a time.
 */
#include "config.h"
#include "ps_ooc.h"
#include "ps_region.h"
#include "ps_status.h"

#include <stdlib.h>
#include <string.h>

static size_t ext_of(ps_grid g, int a)
{
    return a == 0 ? g.nz : a == 1 ? g.ny : g.nx;
}

uint64_t ps_ooc_footprint(ps_grid stored, ps_precision p)
{
    return (uint64_t)PS_OOC_COPIES * (uint64_t)stored.nz * (uint64_t)stored.ny *
           (uint64_t)stored.nx * (uint64_t)ps_precision_size(p);
}

/* Thickest stored slab (ghosts included) of S slabs of n cells with g ghosts. */
static size_t thickest(size_t n, size_t S, unsigned g)
{
    size_t base = n / S, rem = n % S, p, most = 0;
    if (S == 1)
        return n;
    for (p = 0; p < S; p++) {
        size_t lo = p * base + (p < rem ? p : rem);
        size_t hi = lo + base + (p < rem ? 1 : 0);
        size_t slo = lo > g ? lo - g : 0, shi = hi + g < n ? hi + g : n;
        if (shi - slo > most)
            most = shi - slo;
    }
    return most;
}

/*
 * One stored thickness T for all S slabs of n cells with g ghosts: the first
 * and last slab own T-g cells (one inner face each), the inner ones T-2g, the
 * last what is left; every slab is stored T thick, so one context serves them
 * all (ps_ooc_step()). 0 when the slabs cannot be equal (an inner or the last
 * slab would own nothing): the decomposition's even split then.
 */
static size_t equal_thickness(size_t n, size_t S, unsigned g)
{
    size_t T, covered;
    if (S < 2)
        return 0;
    T = (n + 2 * (size_t)g * (S - 1) + S - 1) / S;
    if (T > n || T <= g || (S > 2 && T <= 2 * (size_t)g))
        return 0;
    covered = (T - g) + (S - 2) * (T - 2 * (size_t)g);
    return covered < n ? T : 0;
}

/* Stored thickness of the thickest of S slabs (equal ones where they can be). */
static size_t slab_thickness(size_t n, size_t S, unsigned g)
{
    size_t T = equal_thickness(n, S, g);
    return T ? T : thickest(n, S, g);
}

static double mib(uint64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

int ps_ooc_plan_make(ps_grid g, ps_precision p, unsigned ghost, uint64_t budget,
                     ps_ooc_plan *plan)
{
    uint64_t es = ps_precision_size(p), cells = (uint64_t)g.nz * g.ny * g.nx;
    uint64_t min_all = 0;
    int a;
    memset(plan, 0, sizeof *plan);
    plan->ghost = ghost;
    plan->budget = budget;
    plan->grid_bytes = ps_ooc_footprint(g, p);
    plan->slabs = 1;
    plan->slab_bytes = plan->grid_bytes;
    /* the smallest budget any plan fits: the thinnest slab along the best axis */
    for (a = 0; a < 3; a++) {
        size_t n = ext_of(g, a);
        uint64_t m;
        if (n < 2)
            continue;
        m = (uint64_t)PS_OOC_COPIES * es * (cells / n) * slab_thickness(n, n, ghost);
        if (!min_all || m < min_all)
            min_all = m;
    }
    if (!min_all || plan->grid_bytes < min_all)
        min_all = plan->grid_bytes;
    plan->min_budget = min_all;
    if (!budget || plan->grid_bytes <= budget)
        return PS_OK;
    for (a = 0; a < 3; a++) {
        size_t n = ext_of(g, a), S;
        uint64_t plane = cells / (n ? n : 1);
        for (S = 2; S <= n; S++) {
            uint64_t need = (uint64_t)PS_OOC_COPIES * es * plane * slab_thickness(n, S, ghost);
            if (need <= budget) {
                plan->axis = a;
                plan->slabs = (int)S;
                plan->slab_bytes = need;
                return PS_OK;
            }
        }
    }
    return ps_error(PS_ENOMEM,
                    "a device memory budget of %llu bytes (%.2f MiB) is too small: the grid "
                    "needs %llu bytes in core and the thinnest slab with %u ghost layers %llu; "
                    "the smallest budget that works is %llu bytes (%.2f MiB)",
                    (unsigned long long)budget, mib(budget),
                    (unsigned long long)plan->grid_bytes, ghost,
                    (unsigned long long)min_all, (unsigned long long)min_all, mib(min_all));
}

/* Stored cells summed over S slabs of n cells with g ghosts, per cell of a plane. */
static uint64_t stored_sum(size_t n, size_t S, unsigned g)
{
    size_t base = n / S, rem = n % S, p, T = equal_thickness(n, S, g);
    uint64_t sum = 0;
    if (T)
        return (uint64_t)S * T;
    for (p = 0; p < S; p++) {
        size_t lo = p * base + (p < rem ? p : rem);
        size_t hi = lo + base + (p < rem ? 1 : 0);
        size_t slo = lo > g ? lo - g : 0, shi = hi + g < n ? hi + g : n;
        sum += shi - slo;
    }
    return sum;
}

/* Cell visits outside the kernel per stored cell and pass, in units of one
 * kernel visit (see ps_ooc_plan_auto()): upload (with the backend's set-up,
 * e.g. openmp's neighbour counts), download, and a gather and scatter where
 * the backend has no pitched copies. Rule: 5 (a pass's overhead per stored
 * cell against a step's kernel time per cell, 4.3 in a profile of the openmp
 * backend with pitched copies, rounded up); 7 for strided i slabs, whose
 * copies are short strided rows (docs/performance.md, "Decomposition, out of
 * core, MPI"). */
static double pass_visits(int axis)
{
    return axis == 2 ? 7.0 : 5.0;
}

int ps_ooc_plan_auto(ps_grid g, ps_precision p, int radius, unsigned ghost, long steps,
                     uint64_t budget, ps_ooc_plan *plan)
{
    static const unsigned depth[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    uint64_t es = ps_precision_size(p), cells = (uint64_t)g.nz * g.ny * g.nx;
    double best = -1;
    ps_ooc_plan cand;
    int a, st;
    size_t di;
    if (radius < 1)
        radius = 1;
    if (steps < 1)
        steps = 1000;
    st = ps_ooc_plan_make(g, p, ghost ? ghost : (unsigned)radius, budget, &cand);
    if (st || cand.slabs == 1) {
        *plan = cand;
        return st;
    }
    *plan = cand;
    for (a = 0; a < 3; a++) {
        size_t n = ext_of(g, a);
        uint64_t plane = cells / (n ? n : 1);
        if (n < 2)
            continue;
        for (di = 0; di < sizeof depth / sizeof depth[0]; di++) {
            unsigned gh = ghost ? ghost : depth[di] * (unsigned)radius;
            long per = (long)(gh / (unsigned)radius), passes;
            size_t S;
            if ((uint64_t)PS_OOC_COPIES * es * plane * (1 + 2 * (uint64_t)gh) > budget)
                break;
            if (per > steps && di > 0 && !ghost)
                break;
            passes = (steps + per - 1) / per;
            for (S = 2; S <= n; S++) {
                uint64_t need = (uint64_t)PS_OOC_COPIES * es * plane * slab_thickness(n, S, gh);
                if (need <= budget) {
                    double cost = (double)plane * (double)stored_sum(n, S, gh) *
                                  (pass_visits(a) * (double)passes + (double)steps);
                    if (best < 0 || cost < best) {
                        best = cost;
                        plan->axis = a;
                        plan->slabs = (int)S;
                        plan->ghost = gh;
                        plan->slab_bytes = need;
                    }
                    break;
                }
            }
            if (ghost)
                break;
        }
    }
    return PS_OK;
}

int ps_ooc_init(ps_ooc *o, const ps_ooc_plan *plan, ps_backend *b, const ps_config *cfg,
                ps_field *field)
{
    int split[3] = {1, 1, 1}, q, st;
    size_t es = ps_precision_size(field->precision), most = 1;
    memset(o, 0, sizeof *o);
    split[plan->axis] = plan->slabs;
    if ((st = ps_decomp_create(&o->d, field->grid, split, plan->ghost)))
        return st;
    {
        /* slabs of one stored thickness where they can be (equal_thickness()) */
        const int a = plan->axis;
        const size_t n = ext_of(field->grid, a), S = (size_t)plan->slabs, g = plan->ghost;
        const size_t T = equal_thickness(n, S, plan->ghost);
        const unsigned lo_bit = 1u << (2 * a), hi_bit = 1u << (2 * a + 1);
        size_t p, own = 0;
        for (p = 0; T && p < S; p++) {
            ps_decomp_box *bx = &o->d.boxes[p];
            size_t lo = own, hi = p == 0 ? T - g : p == S - 1 ? n : lo + T - 2 * g;
            size_t slo = lo > g ? lo - g : 0;
            if (slo + T > n)
                slo = n - T;
            bx->own_lo[a] = lo;
            bx->own_hi[a] = hi;
            bx->box.origin[a] = slo;
            if (a == 0)
                bx->box.extent.nz = T;
            else if (a == 1)
                bx->box.extent.ny = T;
            else
                bx->box.extent.nx = T;
            bx->box.global_faces &= ~(lo_bit | hi_bit);
            bx->box.global_faces |= (slo == 0 ? lo_bit : 0) | (slo + T == n ? hi_bit : 0);
            own = hi;
        }
        /* the slabs never exchange (each pass uploads them whole): the exchange
         * plan, which reshaped boxes would not fit, is dropped */
        o->d.ncopies = 0;
        memset(o->d.axis_end, 0, sizeof o->d.axis_end);
    }
    o->b = b;
    o->cfg = *cfg;
    o->field = field;
    for (q = 0; q < o->d.nboxes; q++) {
        ps_grid e = o->d.boxes[q].box.extent;
        if (e.nz * e.ny * e.nx > most)
            most = e.nz * e.ny * e.nx;
    }
    /* a backend with pitched copies reads and writes the slabs in place in the
     * host copies: no staging buffer */
    o->pitched = (ps_backend_get_ops(b)->flags & PS_BACKEND_PITCHED) &&
                 ps_backend_get_ops(b)->upload_pitched && ps_backend_get_ops(b)->download_pitched;
    o->other = malloc(ps_field_cells(field) * es);
    o->staging = o->pitched ? NULL : malloc(most * es);
    if (!o->other || (!o->pitched && !o->staging)) {
        ps_ooc_free(o);
        return ps_error(PS_ENOMEM, "out of core: out of host memory for a second copy of "
                        "the grid");
    }
    return PS_OK;
}

/* Whether the slab context for @p prev can serve box @p next: same extent and
 * ghost, and an origin and global faces that cannot matter (core/ps_backend.h:
 * a step treats every face alike, and a backend uses the origin only to index
 * coefficient arrays, so a stencil with no array over the slab axis sees no
 * difference; slabs differ in origin along that axis only). */
static int box_reusable(const ps_ooc *o, const ps_box *prev, const ps_box *next)
{
    const ps_stencil *s = o->cfg.stencil ? o->cfg.stencil : ps_stencil_default();
    static const unsigned axis_bit[3] = {PS_AXES_K, PS_AXES_J, PS_AXES_I};
    int a, i;
    if (prev->extent.nz != next->extent.nz || prev->extent.ny != next->extent.ny ||
        prev->extent.nx != next->extent.nx || prev->ghost != next->ghost)
        return 0;
    for (a = 0; a < 3; a++) {
        if (prev->origin[a] == next->origin[a])
            continue;
        for (i = 0; i < s->narrays; i++)
            if (s->arrays[i].axes & axis_bit[a])
                return 0;
    }
    return 1;
}

/* Byte offset of global cell @p at in the host grid @p g. */
static size_t host_offset(const ps_grid *g, const size_t at[3], size_t es)
{
    return ((at[0] * g->ny + at[1]) * g->nx + at[2]) * es;
}

/* One slab: upload its stored cells from @p cur, step @p n, owned cells into @p next. */
static int slab_pass(ps_ooc *o, int q, const void *cur, void *next, long n)
{
    const ps_decomp_box *bx = &o->d.boxes[q];
    const ps_grid *g = &o->field->grid;
    size_t es = ps_precision_size(o->field->precision);
    size_t rp = g->nx * es, pp = g->ny * g->nx * es; /* the host grid's pitches */
    ps_region stored, own_box, own_global;
    ps_config c = o->cfg;
    ps_context *ctx;
    ps_timing t;
    int a, st;
    memset(&stored, 0, sizeof stored);
    for (a = 0; a < 3; a++) {
        stored.start[a] = bx->box.origin[a];
        own_box.start[a] = bx->own_lo[a] - bx->box.origin[a];
        own_global.start[a] = bx->own_lo[a];
    }
    stored.count = bx->box.extent;
    own_box.count = (ps_grid){bx->own_hi[0] - bx->own_lo[0], bx->own_hi[1] - bx->own_lo[1],
                              bx->own_hi[2] - bx->own_lo[2]};
    own_global.count = own_box.count;
    if (!o->pitched)
        ps_region_gather(o->staging, cur, g, &stored, es);
    c.box = bx->box;
    /* the previous slab's context when its box serves this one (a whole upload
     * resets every stored cell), else a new one */
    if (o->ctx && !box_reusable(o, &o->ctx_box, &bx->box)) {
        ps_context_destroy(o->ctx);
        o->ctx = NULL;
    }
    if (!o->ctx) {
        if ((st = ps_context_create(o->b, &c, &o->ctx)))
            return st;
        o->ctx_box = bx->box;
        o->contexts++;
    }
    ctx = o->ctx;
    st = o->pitched ? ps_context_upload_pitched(ctx, (const char *)cur + host_offset(g, stored.start, es),
                                                rp, pp, NULL)
                    : ps_context_upload(ctx, o->staging, NULL);
    if (!st)
        st = ps_context_step(ctx, n);
    if (!st)
        st = ps_context_finish(ctx);
    if (!st)
        st = o->pitched ? ps_context_download_pitched(
                              ctx, (char *)next + host_offset(g, own_global.start, es), rp, pp,
                              &own_box)
                        : ps_context_download(ctx, o->staging, &own_box);
    if (!st) {
        uint64_t held = ps_context_timing(ctx, &t) == PS_OK && t.device_bytes
                            ? t.device_bytes
                            : ps_ooc_footprint(bx->box.extent, o->field->precision);
        if (held > o->device_bytes)
            o->device_bytes = held;
        if (!o->pitched)
            ps_region_scatter(next, g, o->staging, &own_global, es);
        o->bytes += (double)es * ((double)stored.count.nz * stored.count.ny * stored.count.nx +
                                  (double)own_box.count.nz * own_box.count.ny *
                                      own_box.count.nx);
    }
    if (st) {
        ps_context_destroy(o->ctx);
        o->ctx = NULL;
    }
    return st;
}

int ps_ooc_step(ps_ooc *o, long steps)
{
    int radius = o->cfg.stencil ? o->cfg.stencil->radius : ps_stencil_default()->radius;
    size_t bytes = ps_field_cells(o->field) * ps_precision_size(o->field->precision);
    void *buf[2];
    long per, done = 0;
    int cur = 0, q, st = PS_OK;
    if (radius < 1 || o->d.ghost < (unsigned)radius)
        return ps_error(PS_EINVAL, "out of core: %u ghost layers, the stencil needs at least "
                        "its radius %d", o->d.ghost, radius);
    per = (long)(o->d.ghost / (unsigned)radius);
    buf[0] = o->field->data;
    buf[1] = o->other;
    while (done < steps && !st) {
        long n = steps - done < per ? steps - done : per;
        /* slabs are independent within a pass: every other pass runs them
         * backwards, so a pass starts with the slab (and context) the last
         * one ended with */
        for (q = 0; q < o->d.nboxes && !st; q++)
            st = slab_pass(o, o->passes % 2 ? o->d.nboxes - 1 - q : q, buf[cur], buf[1 - cur],
                           n);
        if (st)
            break;
        cur = 1 - cur;
        done += n;
        o->passes++;
    }
    if (cur == 1)
        memcpy(buf[0], buf[1], bytes);
    return st;
}

void ps_ooc_free(ps_ooc *o)
{
    if (!o)
        return;
    ps_context_destroy(o->ctx);
    o->ctx = NULL;
    ps_decomp_free(&o->d);
    free(o->other);
    free(o->staging);
    o->other = o->staging = NULL;
}
