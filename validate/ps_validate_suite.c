/*
 * The suite behind `pstencil validate`: for every selected stencil, case and
 * precision, the oracle's fields after each step count, then every column of
 * the stencil's table (thread counts for backends with PS_BACKEND_THREADS)
 * compared with them: bitwise in exact mode, within the bound in fast mode,
 * where different thread counts must also agree bitwise with each other.
 */
#include "config.h"
#include "ps_validate_internal.h"
#include "ps_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What one case in one precision needs: input, parameters, the oracle's fields. */
typedef struct psv_input {
    int ci;                      /* index into pl->cases */
    ps_field in;
    ps_params params;
    double scale;                /* largest finite |input| */
    ps_field expect[PSV_MAX_STEPS];
} psv_input;

static void config_for(ps_config *cfg, const ps_stencil *s, const psv_input *x, ps_precision p)
{
    ps_config_init(cfg, x->in.grid, p);
    ps_params_free(&cfg->params); /* the default stencil's: replaced by the case's */
    cfg->stencil = s;
    cfg->params = x->params;      /* borrowed */
}

/* The oracle: one context stepped to each step count in turn. */
static int run_oracle(psv_plan *pl, const ps_stencil *s, psv_input *x)
{
    ps_precision p = x->in.precision;
    ps_config cfg;
    ps_context *rc = NULL;
    long done = 0;
    int si, st;
    config_for(&cfg, s, x, p);
    st = ps_context_create(pl->oracle, &cfg, &rc);
    if (!st)
        st = ps_context_upload(rc, x->in.data, NULL);
    for (si = 0; !st && si < pl->nsteps; si++) {
        long target = pl->steps[si];
        st = ps_field_alloc(&x->expect[si], x->in.grid, p);
        if (st)
            break;
        if (target < done) { /* unsorted list: start again */
            st = ps_context_upload(rc, x->in.data, NULL);
            done = 0;
        }
        if (!st)
            st = ps_context_step(rc, target - done);
        done = target;
        if (!st)
            st = ps_context_download(rc, x->expect[si].data, NULL);
    }
    ps_context_destroy(rc);
    if (st)
        st = ps_error(st, "the oracle %s, stencil %s, case %s: %s", pl->oracle_name, s->name,
                      ps_validate_case_name(pl->cases[x->ci]), ps_error_detail());
    return st;
}

static int make_input(psv_plan *pl, const ps_stencil *s, int ci, ps_precision p, psv_input *x)
{
    char label[512], note[512] = "";
    int st, k = pl->cases[ci];
    memset(x, 0, sizeof *x);
    x->ci = ci;
    st = ps_validate_case_make(k, p, &x->in, label, sizeof label);
    if (st)
        return st;
    if (!pl->labelled[ci] && (p == PS_FLOAT32 || !(pl->precisions & 1))) {
        pl->labelled[ci] = 1;
        psv_text_add(&pl->labels, "  %-18s %s", ps_validate_case_name(k), label);
    }
    st = ps_validate_params(s, &x->in, &x->params, note, sizeof note);
    if (st)
        return ps_error(st, "stencil %s on case %s: %s", s->name, ps_validate_case_name(k),
                        ps_error_detail());
    x->scale = ps_validate_scale(&x->in);
    return run_oracle(pl, s, x);
}

static void free_input(psv_plan *pl, psv_input *x)
{
    int si;
    for (si = 0; si < pl->nsteps; si++)
        ps_field_free(&x->expect[si]);
    ps_field_free(&x->in);
    ps_params_free(&x->params);
}

/* Compare one run with the oracle (and, in fast mode, with the first thread count). */
static int judge(psv_plan *pl, const ps_stencil *s, psv_col *col, psv_cell *cell,
                 const psv_input *x, int si, const ps_field *got, const ps_field *first,
                 char *desc, size_t len)
{
    ps_precision p = got->precision;
    long steps = pl->steps[si];
    ps_validate_diff d;
    int ok;
    ps_validate_compare(&x->expect[si], got, &d);
    if (col->base.mode == PS_MODE_EXACT) {
        ok = ps_validate_diff_bitwise(&d);
    } else {
        double bound = ps_validate_fast_bound(s, p, steps, x->scale);
        double ratio = bound > 0 ? d.stats.max_abs / bound : (d.stats.max_abs > 0 ? HUGE_VAL : 0);
        ok = ps_validate_fast_ok(&d, s, p, steps, x->scale);
        if (ratio > col->worst_ratio)
            col->worst_ratio = ratio;
        if (d.stats.max_ulp > col->worst_ulp)
            col->worst_ulp = d.stats.max_ulp;
        if (d.stats.max_abs > col->worst_abs)
            col->worst_abs = d.stats.max_abs;
        if (d.stats.max_ulp > cell->max_ulp)
            cell->max_ulp = d.stats.max_ulp;
        if (d.stats.max_abs > cell->max_abs)
            cell->max_abs = d.stats.max_abs;
    }
    ps_validate_diff_describe(&d, desc, len);
    if (!ok && col->base.mode == PS_MODE_FAST) {
        size_t u = strlen(desc);
        snprintf(desc + u, len - u, " (bound %.3g)", ps_validate_fast_bound(s, p, steps, x->scale));
    }
    if (ok && first && first->data) {
        ps_validate_compare(first, got, &d);
        if (!ps_validate_diff_bitwise(&d)) {
            char dd[600];
            ok = 0;
            ps_validate_diff_describe(&d, dd, sizeof dd);
            snprintf(desc, len, "differs from the %d-thread result: %s", pl->threads[0], dd);
        }
    }
    return ok;
}

static void record(psv_plan *pl, const psv_table *t, psv_col *col, psv_cell *cell,
                   const psv_input *x, int si, const char *thr, int ok, const char *desc)
{
    long steps = pl->steps[si];
    const char *cname = ps_validate_case_name(pl->cases[x->ci]);
    pl->sum.runs++;
    col->runs++;
    if (pl->o->verbose)
        fprintf(pl->out, "  %-10s %-18s %-26s %3ld step%s%s: %s\n", t->stencil->name, cname,
                col->title, steps, steps == 1 ? " " : "s", thr,
                ok ? (col->base.mode == PS_MODE_EXACT ? "bitwise" : "ok") : desc);
    if (ok) {
        if (cell->state == 0)
            cell->state = 1;
        return;
    }
    pl->sum.failed++;
    col->failed++;
    if (cell->state != 2) {
        cell->state = 2;
        cell->fail_no = ++pl->nfail;
        if (pl->nfail <= PSV_MAX_FAILS)
            psv_text_add(&pl->fails, "  #%d %s: %s, case %s, %ld step%s%s: FAIL (%s)", pl->nfail,
                         t->stencil->name, col->title, cname, steps, steps == 1 ? "" : "s", thr,
                         desc);
    }
}

/* Every thread count and step count of one column on one input. */
static void run_column(psv_plan *pl, psv_table *t, psv_col *col, psv_cell *cell,
                       const psv_input *x)
{
    const psv_backend *bk = &pl->bk[col->base.bi];
    ps_precision p = col->base.prec;
    int threaded = (bk->flags & PS_BACKEND_THREADS) != 0;
    int nt = threaded ? pl->nthreads : 1, ti, si;
    /* fast mode: thread counts must agree bitwise with each other (exact mode
     * implies it through the oracle) */
    int keep = nt > 1 && col->base.mode == PS_MODE_FAST;
    int regions = ps_validate_case_regions(pl->cases[x->ci]);
    ps_field first[PSV_MAX_STEPS], got;
    memset(first, 0, sizeof first);
    if (ps_field_alloc(&got, x->in.grid, p)) {
        record(pl, t, col, cell, x, 0, "", 0, "out of memory");
        return;
    }
    for (ti = 0; ti < nt && !col->unsupported; ti++) {
        /* one context per thread count, reused for every step count (each
         * run uploads again: no state may leak between runs) */
        ps_config cfg;
        ps_context *ctx = NULL;
        char cerr[600] = "", thr[32] = "";
        int cst;
        config_for(&cfg, t->stencil, x, p);
        cfg.mode = col->base.mode;
        cfg.kernel = col->kernel;
        cfg.device = bk->ndevices > 1 ? col->base.device : -1;
        if (threaded) {
            cfg.threads = pl->threads[ti];
            snprintf(thr, sizeof thr, ", %d thread%s", pl->threads[ti],
                     pl->threads[ti] == 1 ? "" : "s");
        }
        cst = ps_context_create(bk->b, &cfg, &ctx);
        if (cst == PS_EUNSUPPORTED) {
            /* the backend does not run this stencil: listed, not compared */
            col->unsupported = 1;
            psv_text_add(&pl->skips, "  %-20s skipped for stencil %s: %s", col->title,
                         t->stencil->name, ps_error_detail());
            pl->sum.skipped++;
            break;
        }
        if (cst)
            snprintf(cerr, sizeof cerr, "%s", ps_error_detail());
        for (si = 0; si < pl->nsteps; si++) {
            char desc[1400];
            int ok, r;
            r = cst ? cst : psv_run_on_context(ctx, &x->in, pl->steps[si], regions, &got);
            if (r) {
                snprintf(desc, sizeof desc, "backend error: %s", cst ? cerr : ps_error_detail());
                ok = 0;
            } else {
                ok = judge(pl, t->stencil, col, cell, x, si, &got,
                           keep && ti > 0 ? &first[si] : NULL, desc, sizeof desc);
                if (keep && ti == 0 && !ps_field_alloc(&first[si], x->in.grid, p))
                    memcpy(first[si].data, got.data, ps_field_cells(&got) * ps_precision_size(p));
            }
            record(pl, t, col, cell, x, si, thr, ok, desc);
        }
        ps_context_destroy(ctx);
    }
    for (si = 0; si < pl->nsteps; si++)
        ps_field_free(&first[si]);
    ps_field_free(&got);
}

int psv_run_table(psv_plan *pl, psv_table *t)
{
    int ci, pi, c, st = PS_OK;
    t->cells = calloc((size_t)pl->ncases * (size_t)(t->ncols ? t->ncols : 1), sizeof *t->cells);
    if (!t->cells)
        return ps_error(PS_ENOMEM, "out of memory");
    for (ci = 0; ci < pl->ncases && !st; ci++)
        for (pi = 0; pi < 2 && !st; pi++) {
            ps_precision p = pi ? PS_FLOAT64 : PS_FLOAT32;
            psv_input x;
            int any = 0;
            for (c = 0; c < t->ncols; c++)
                any |= t->cols[c].base.prec == p && !t->cols[c].unsupported;
            if (!any)
                continue;
            st = make_input(pl, t->stencil, ci, p, &x);
            for (c = 0; !st && c < t->ncols; c++)
                if (t->cols[c].base.prec == p && !t->cols[c].unsupported)
                    run_column(pl, t, &t->cols[c], &t->cells[ci * t->ncols + c], &x);
            free_input(pl, &x);
        }
    return st;
}

int ps_validate_suite(const ps_validate_options *o, ps_validate_summary *sum)
{
    psv_plan *pl = calloc(1, sizeof *pl);
    psv_table *tables = NULL;
    int st, i, nt = 0;
    if (!pl)
        return ps_error(PS_ENOMEM, "out of memory");
    st = psv_plan_init(pl, o);
    if (!st && o->decomp)
        pl->modes = 1; /* decomposition cases: exact mode only (bitwise) */
    if (!st)
        st = psv_plan_open(pl);
    if (!st && o->decomp) {
        st = psv_run_decomp(pl);
        if (!st && pl->sum.failed)
            st = ps_error(PS_EMISMATCH, "%d of %d comparisons failed", pl->sum.failed,
                          pl->sum.runs);
        if (sum)
            *sum = pl->sum;
        psv_plan_free(pl);
        free(pl);
        return st;
    }
    if (!st) {
        tables = calloc((size_t)pl->nstencils, sizeof *tables);
        if (!tables)
            st = ps_error(PS_ENOMEM, "out of memory");
    }
    if (!st)
        psv_report_header(pl);
    for (i = 0; !st && i < pl->nstencils; i++) {
        psv_plan_columns(pl, pl->stencils[i], &tables[i]);
        nt = i + 1;
        st = psv_run_table(pl, &tables[i]);
        if (!st)
            psv_report_table(pl, &tables[i]);
    }
    if (!st) {
        psv_report_summary(pl, tables, nt);
        st = pl->sum.failed ? ps_error(PS_EMISMATCH, "%d of %d comparisons failed",
                                       pl->sum.failed, pl->sum.runs)
                            : PS_OK;
    }
    for (i = 0; i < nt; i++)
        free(tables[i].cells);
    free(tables);
    if (sum)
        *sum = pl->sum;
    psv_plan_free(pl);
    free(pl);
    return st;
}
