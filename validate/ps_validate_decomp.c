/*
 * The decomposition cases of `pstencil validate --decomp`: every backend
 * that runs, exact mode, split into boxes (core/ps_decomp.h) or streamed as
 * out-of-core slabs through a forced tiny budget (core/ps_ooc.h), compared
 * bitwise with the oracle's one-box result.
 */
#include "config.h"
#include "ps_validate_internal.h"
#include "ps_driver.h"
#include "ps_ooc.h"
#include "ps_status.h"

#include <stdlib.h>
#include <string.h>

/* The split grid: 7 levels split 3 (3,2,2: uneven) and 5 (2,2,1,1,1: boxes
 * one cell thick, halos deeper than a neighbour), 9 rows, 11 columns. */
static const ps_grid split_grid = {7, 9, 11};
static const int splits[][3] = {{1, 1, 2}, {1, 2, 1}, {2, 1, 1}, {2, 2, 2}, {3, 2, 1}, {5, 1, 1}};
static const unsigned halos[] = {1, 2, 4};
/* The out-of-core grid: slabs of two owned levels along k under the budget. */
static const ps_grid ooc_grid = {16, 9, 11};
static const unsigned ooc_halos[] = {1, 3};
static const long decomp_steps[] = {1, 5, 13};

typedef struct dv_input {
    ps_grid grid;
    ps_field in;
    ps_params params;
    ps_field expect[PSV_MAX_STEPS];
    ps_kernel kernel; /* ps_config.kernel of the runs (GENERIC for --kernel generic) */
} dv_input;

/* Splits run with a thread count on a threaded backend (PS_BACKEND_THREADS):
 * 2 boxes on 2 and 3 threads (3: divided 2 + 1), 6 boxes on 2 and 3 threads
 * (more boxes than threads: several boxes per host thread). */
static const int thread_splits[][3] = {{2, 1, 1}, {3, 2, 1}};
static const int thread_counts[] = {2, 3};

/* One run of ps_run_split() on backend @p b into @p got (a copy of the input);
 * @p threads for cfg.threads, @p workers (may be NULL) receives how many host
 * threads stepped the boxes at once. */
static int run_one(ps_backend *b, const ps_stencil *s, const dv_input *x, int device,
                   const ps_split_options *so, long steps, ps_field *got, int threads,
                   int *workers)
{
    ps_config cfg;
    ps_run_options ro;
    ps_run_stats rs;
    int st;
    ps_config_init(&cfg, x->grid, x->in.precision);
    ps_params_free(&cfg.params);
    cfg.stencil = s;
    cfg.params = x->params; /* borrowed */
    cfg.device = device;
    cfg.threads = threads;
    cfg.kernel = x->kernel;
    memset(&ro, 0, sizeof ro);
    ro.steps = steps;
    memcpy(got->data, x->in.data, ps_field_cells(got) * ps_precision_size(got->precision));
    memset(&rs, 0, sizeof rs);
    st = ps_run_split(b, &cfg, got, &ro, so, &rs);
    free(rs.step_times);
    if (workers)
        *workers = rs.workers;
    return st;
}

static void dv_free(psv_plan *pl, dv_input *x)
{
    int si;
    for (si = 0; si < pl->nsteps; si++)
        ps_field_free(&x->expect[si]);
    ps_field_free(&x->in);
    ps_params_free(&x->params);
}

/* Input and the oracle's one-box fields of grid @p g in precision @p p. */
static int dv_make(psv_plan *pl, const ps_stencil *s, ps_grid g, ps_precision p, dv_input *x)
{
    ps_field tmp;
    char label[256];
    int st, si;
    memset(x, 0, sizeof *x);
    x->grid = g;
    x->kernel = pl->kernels == PS_KERNEL_GENERIC ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
    st = ps_field_alloc(&tmp, g, PS_FLOAT64);
    if (st)
        return st;
    memset(tmp.data, 0, ps_field_cells(&tmp) * sizeof(double));
    st = psv_fill_random(0.8, p, tmp.data, &g, label, sizeof label);
    if (!st)
        st = ps_field_alloc(&x->in, g, p);
    if (!st)
        st = ps_field_convert(&x->in, &tmp);
    ps_field_free(&tmp);
    if (!st)
        st = ps_validate_params(s, &x->in, &x->params, NULL, 0);
    for (si = 0; !st && si < pl->nsteps; si++) {
        st = ps_field_alloc(&x->expect[si], g, p);
        if (!st)
            st = run_one(pl->oracle, s, x, -1, NULL, pl->steps[si], &x->expect[si], 0, NULL);
    }
    if (st)
        st = ps_error(st, "the oracle %s, stencil %s, decomposition grid: %s", pl->oracle_name,
                      s->name, ps_error_detail());
    return st;
}

typedef struct dv_count {
    int runs, failed;
} dv_count;

static void dv_judge(psv_plan *pl, const ps_stencil *s, const char *col, const char *what,
                     const dv_input *x, int si, int r, const ps_field *got, dv_count *n)
{
    char desc[1400];
    ps_validate_diff d;
    int ok = 0;
    if (r) {
        snprintf(desc, sizeof desc, "backend error: %s", ps_error_detail());
    } else {
        ps_validate_compare(&x->expect[si], got, &d);
        ok = ps_validate_diff_bitwise(&d);
        ps_validate_diff_describe(&d, desc, sizeof desc);
    }
    n->runs++;
    pl->sum.runs++;
    if (pl->o->verbose)
        fprintf(pl->out, "  %-10s %-22s %-30s %3ld steps: %s\n", s->name, col, what,
                pl->steps[si], ok ? "bitwise" : desc);
    if (ok)
        return;
    n->failed++;
    pl->sum.failed++;
    if (++pl->nfail <= PSV_MAX_FAILS)
        psv_text_add(&pl->fails, "  #%d %s: %s, %s, %ld step%s: FAIL (%s)", pl->nfail, s->name,
                     col, what, pl->steps[si], pl->steps[si] == 1 ? "" : "s", desc);
}

/* Every split and halo, then every out-of-core budget, of one column. */
static int dv_column(psv_plan *pl, const ps_stencil *s, const psv_base *c, const dv_input *xs,
                     const dv_input *xo, dv_count *n)
{
    const psv_backend *bk = &pl->bk[c->bi];
    int device = bk->ndevices > 1 ? c->device : -1;
    char col[80], what[128];
    ps_field got;
    size_t q, h;
    int si, st;
    snprintf(col, sizeof col, "%s%s%d %s", bk->name, bk->ndevices > 1 ? ":" : "",
             bk->ndevices > 1 ? c->device : 0, c->prec == PS_FLOAT64 ? "f64" : "f32");
    if (bk->ndevices <= 1)
        snprintf(col, sizeof col, "%s %s", bk->name, c->prec == PS_FLOAT64 ? "f64" : "f32");
    if ((st = ps_field_alloc(&got, xs->grid, c->prec)))
        return st;
    for (q = 0; q < sizeof splits / sizeof splits[0]; q++)
        for (h = 0; h < sizeof halos / sizeof halos[0]; h++) {
            ps_split_options so;
            if (halos[h] < (unsigned)s->radius)
                continue; /* a halo narrower than the stencil is refused by design */
            memset(&so, 0, sizeof so);
            memcpy(so.split, splits[q], sizeof so.split);
            so.halo = halos[h];
            snprintf(what, sizeof what, "split %dx%dx%d, halo %u", splits[q][0], splits[q][1],
                     splits[q][2], halos[h]);
            for (si = 0; si < pl->nsteps; si++) {
                ps_field_poison(&got);
                dv_judge(pl, s, col, what, xs, si,
                         run_one(bk->b, s, xs, device, &so, pl->steps[si], &got, 0, NULL),
                         &got, n);
            }
        }
    /* threads divided between boxes stepped at once (core/ps_decomp.h) */
    for (q = 0; (bk->flags & PS_BACKEND_THREADS) &&
                q < sizeof thread_splits / sizeof thread_splits[0]; q++)
        for (h = 0; h < sizeof thread_counts / sizeof thread_counts[0]; h++) {
            ps_split_options so;
            memset(&so, 0, sizeof so);
            memcpy(so.split, thread_splits[q], sizeof so.split);
            so.halo = s->radius > 2 ? (unsigned)s->radius : 2u;
            for (si = 0; si < pl->nsteps; si++) {
                int r, workers = 0;
                ps_field_poison(&got);
                r = run_one(bk->b, s, xs, device, &so, pl->steps[si], &got, thread_counts[h],
                            &workers);
                snprintf(what, sizeof what, "split %dx%dx%d, halo %u, %d threads, %d at once",
                         so.split[0], so.split[1], so.split[2], so.halo, thread_counts[h],
                         workers);
                dv_judge(pl, s, col, what, xs, si, r, &got, n);
            }
        }
    ps_field_free(&got);
    if ((st = ps_field_alloc(&got, xo->grid, c->prec)))
        return st;
    for (h = 0; h < sizeof ooc_halos / sizeof ooc_halos[0]; h++) {
        ps_split_options so;
        uint64_t plane = (uint64_t)xo->grid.ny * xo->grid.nx * ps_precision_size(c->prec);
        ps_ooc_plan plan;
        if (ooc_halos[h] < (unsigned)s->radius)
            continue;
        memset(&so, 0, sizeof so);
        so.halo = ooc_halos[h];
        /* room for two owned levels and the ghosts on both sides */
        so.max_device_bytes = PS_OOC_COPIES * plane * (2 + 2 * ooc_halos[h]);
        if ((st = ps_ooc_plan_auto(xo->grid, c->prec, s->radius, so.halo, 0,
                                   so.max_device_bytes, &plan)))
            break;
        snprintf(what, sizeof what, "out of core, %d slabs, halo %u", plan.slabs, ooc_halos[h]);
        for (si = 0; si < pl->nsteps; si++) {
            ps_field_poison(&got);
            dv_judge(pl, s, col, what, xo, si,
                     run_one(bk->b, s, xo, device, &so, pl->steps[si], &got, 0, NULL), &got,
                     n);
        }
    }
    ps_field_free(&got);
    return st;
}

int psv_run_decomp(psv_plan *pl)
{
    int i, pi, b, st = PS_OK;
    if (!pl->o->steps) {
        pl->steps = decomp_steps;
        pl->nsteps = (int)(sizeof decomp_steps / sizeof decomp_steps[0]);
    }
    fprintf(pl->out,
            "decomposition cases, exact mode, bitwise against %s on one box:\n"
            "  splits 1x1x2 1x2x1 2x1x1 2x2x2 3x2x1 5x1x1 (uneven; boxes one cell thick) of a\n"
            "  %zux%zux%zu grid with halos 1, 2, 4; out-of-core slabs of a %zux%zux%zu grid\n"
            "  through a budget of two owned levels, halos 1, 3; random mask, 80%% ocean;\n"
            "  threaded backends: 2x1x1 and 3x2x1 on 2 and 3 threads, boxes at once\n",
            pl->oracle_name, split_grid.nz, split_grid.ny, split_grid.nx, ooc_grid.nz,
            ooc_grid.ny, ooc_grid.nx);
    fprintf(pl->out, "\n  %-10s %-22s %6s %6s\n", "stencil", "backend", "runs", "failed");
    for (i = 0; i < pl->nstencils && !st; i++) {
        const ps_stencil *s = pl->stencils[i];
        for (pi = 0; pi < 2 && !st; pi++) {
            ps_precision p = pi ? PS_FLOAT64 : PS_FLOAT32;
            dv_input xs, xo;
            int any = 0;
            memset(&xs, 0, sizeof xs);
            memset(&xo, 0, sizeof xo);
            for (b = 0; b < pl->nbase; b++)
                any |= pl->base[b].prec == p && pl->base[b].mode == PS_MODE_EXACT;
            if (!any)
                continue;
            st = dv_make(pl, s, split_grid, p, &xs);
            if (!st)
                st = dv_make(pl, s, ooc_grid, p, &xo);
            for (b = 0; !st && b < pl->nbase; b++) {
                const psv_base *c = &pl->base[b];
                dv_count n = {0, 0};
                char col[80];
                if (c->prec != p || c->mode != PS_MODE_EXACT)
                    continue;
                st = dv_column(pl, s, c, &xs, &xo, &n);
                snprintf(col, sizeof col, "%s %s", pl->bk[c->bi].name,
                         p == PS_FLOAT64 ? "f64" : "f32");
                if (!st)
                    fprintf(pl->out, "  %-10s %-22s %6d %6d%s\n", s->name, col, n.runs, n.failed,
                            n.failed ? "  FAIL" : "");
            }
            dv_free(pl, &xs);
            dv_free(pl, &xo);
        }
    }
    if (pl->skips.len)
        fprintf(pl->out, "\nskipped:\n%s", pl->skips.buf);
    if (pl->fails.len)
        fprintf(pl->out, "\nfailures:\n%s", pl->fails.buf);
    fprintf(pl->out, "\ndecomposition: %d comparisons, %d failed, %d skipped\n", pl->sum.runs,
            pl->sum.failed, pl->sum.skipped);
    return st;
}
