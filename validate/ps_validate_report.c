/*
 * The validation report: what runs (backends, oracle, stencils, steps,
 * threads), a table per stencil (case by column: "bitwise", the largest
 * fast-mode error, or the number of the first failure), then the cases,
 * fast-mode margins, what was skipped and why, the failures, a line per
 * stencil and backend saying what passed, and the totals.
 */
#include "config.h"
#include "ps_validate_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void psv_text_add(psv_text *t, const char *fmt, ...)
{
    va_list ap;
    int need;
    va_start(ap, fmt);
    need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0)
        return;
    if (t->len + (size_t)need + 2 > t->cap) {
        size_t nc = (t->cap + (size_t)need + 2) * 2;
        char *nb = realloc(t->buf, nc);
        if (!nb)
            return;
        t->buf = nb;
        t->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)need;
    t->buf[t->len++] = '\n';
    t->buf[t->len] = '\0';
}

void psv_text_free(psv_text *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

void psv_report_header(const psv_plan *pl)
{
    FILE *out = pl->out;
    int i;
    for (i = 0; i < pl->nb; i++) {
        const psv_backend *bk = &pl->bk[i];
        fprintf(out, "backend %-10s %s (%d device%s: %s%s)\n", bk->name, ps_backend_path(bk->b),
                bk->ndevices, bk->ndevices == 1 ? "" : "s", bk->ndevices ? bk->devs[0].name : "",
                bk->ndevices > 1 ? ", ..." : "");
    }
    fprintf(out, "oracle: %s (PS_BACKEND_ORACLE)\nstencils:", pl->oracle_name);
    for (i = 0; i < pl->nstencils; i++) {
        const ps_stencil *s = pl->stencils[i];
        fprintf(out, "%s %s (radius %d%s)", i ? "," : "", s->name, s->radius,
                (s->flags & PS_STENCIL_COORDS) ? "; synthetic coordinates: depth 5+10k^2 m, "
                                                 "lat 45+0.25(j-(ny-1)/2), lon -10+0.25i"
                                               : "");
    }
    fprintf(out, "\nsteps:");
    for (i = 0; i < pl->nsteps; i++)
        fprintf(out, " %ld", pl->steps[i]);
    fprintf(out, "; threads (backends with PS_BACKEND_THREADS):");
    for (i = 0; i < pl->nthreads; i++)
        fprintf(out, " %d", pl->threads[i]);
    fprintf(out, "; %d case%s%s\n", pl->ncases, pl->ncases == 1 ? "" : "s",
            pl->o->quick ? " (quick)" : "");
    fflush(out);
}

static int colw(const psv_col *c)
{
    int l = (int)strlen(c->title);
    return l > 17 ? l : 17;
}

void psv_report_table(const psv_plan *pl, const psv_table *t)
{
    FILE *out = pl->out;
    int c, ci;
    fprintf(out, "\nstencil %s (radius %d, %d neighbours)\n%-18s", t->stencil->name,
            t->stencil->radius, t->stencil->nneighbours, "case");
    for (c = 0; c < t->ncols; c++)
        fprintf(out, " %-*s", colw(&t->cols[c]), t->cols[c].title);
    fprintf(out, "\n");
    for (ci = 0; ci < pl->ncases; ci++) {
        fprintf(out, "%-18s", ps_validate_case_name(pl->cases[ci]));
        for (c = 0; c < t->ncols; c++) {
            const psv_cell *cell = &t->cells[ci * t->ncols + c];
            char txt[32];
            if (cell->state == 0)
                snprintf(txt, sizeof txt, "-");
            else if (cell->state == 2)
                snprintf(txt, sizeof txt, "FAIL (#%d)", cell->fail_no);
            else if (t->cols[c].base.mode == PS_MODE_EXACT)
                snprintf(txt, sizeof txt, "bitwise");
            else if (cell->max_ulp < 100000)
                snprintf(txt, sizeof txt, "<= %llu ulp", (unsigned long long)cell->max_ulp);
            else /* a sign change or near-zero cell: ulps say little, abs error is bounded */
                snprintf(txt, sizeof txt, "<= %.1e abs", cell->max_abs);
            fprintf(out, " %-*s", colw(&t->cols[c]), txt);
        }
        fprintf(out, "\n");
    }
    if (t->ncols == 0)
        fprintf(out, "(no backend column could run)\n");
    fflush(out);
}

/* One line per stencil and backend: what ran and whether it passed. */
static void summary_line(const psv_plan *pl, const psv_table *t, int bi)
{
    int c, runs = 0, failed = 0, cols = 0, refused = 0, generic = 0, threaded;
    int prec = 0, mode = 0;
    char what[256];
    for (c = 0; c < t->ncols; c++) {
        const psv_col *col = &t->cols[c];
        if (col->base.bi != bi)
            continue;
        cols++;
        if (col->unsupported) {
            refused++;
            continue;
        }
        runs += col->runs;
        failed += col->failed;
        generic |= col->generic;
        prec |= 1 << (col->base.prec == PS_FLOAT64);
        mode |= 1 << (col->base.mode == PS_MODE_FAST);
    }
    if (!cols)
        return;
    threaded = (pl->bk[bi].flags & PS_BACKEND_THREADS) != 0;
    snprintf(what, sizeof what, "%s%s%s; %s%s%s%s", (prec & 1) ? "f32" : "",
             prec == 3 ? ", " : "", (prec & 2) ? "f64" : "",
             (mode & 1) ? "exact: bitwise" : "", mode == 3 ? "; " : "",
             (mode & 2) ? "fast: within the bound" : "",
             generic ? "; fast path and generic skeleton" : "");
    if (!runs)
        fprintf(pl->out, "  %-12s %-12s not run: %s\n", t->stencil->name, pl->bk[bi].name,
                refused ? "the backend does not support this stencil (see skipped)"
                        : "no column could run");
    else if (failed)
        fprintf(pl->out, "  %-12s %-12s FAILED %d of %d comparisons (%s)\n", t->stencil->name,
                pl->bk[bi].name, failed, runs, what);
    else
        fprintf(pl->out, "  %-12s %-12s passed %d comparisons (%s%s)%s\n", t->stencil->name,
                pl->bk[bi].name, runs, what, threaded ? "; every thread count" : "",
                refused ? "; some columns not supported" : "");
}

void psv_report_summary(const psv_plan *pl, const psv_table *tables, int ntables)
{
    FILE *out = pl->out;
    int i, c, b, any_fast = 0;
    if (pl->labels.buf)
        fprintf(out, "\ncases:\n%s", pl->labels.buf);
    for (i = 0; i < ntables; i++)
        for (c = 0; c < tables[i].ncols; c++) {
            const psv_col *col = &tables[i].cols[c];
            if (col->base.mode != PS_MODE_FAST || !col->runs)
                continue;
            if (!any_fast++)
                fprintf(out, "\nfast mode (max |fast - oracle| against the bound "
                             "2(1+12n)u*max|T0|*steps, n neighbours):\n");
            fprintf(out, "  %-12s %-26s max %llu ulp, max abs error %.3g, at most %.3f of the "
                         "bound\n",
                    tables[i].stencil->name, col->title, (unsigned long long)col->worst_ulp,
                    col->worst_abs, col->worst_ratio);
        }
    if (pl->skips.buf)
        fprintf(out, "\nskipped:\n%s", pl->skips.buf);
    if (pl->fails.buf) {
        fprintf(out, "\nfailures (first per table cell):\n%s", pl->fails.buf);
        if (pl->nfail > PSV_MAX_FAILS)
            fprintf(out, "  ... and %d more\n", pl->nfail - PSV_MAX_FAILS);
    }
    fprintf(out, "\nsummary (stencil, backend: what was compared with the oracle %s):\n",
            pl->oracle_name);
    for (i = 0; i < ntables; i++)
        for (b = 0; b < pl->nb; b++)
            summary_line(pl, &tables[i], b);
    if (!pl->nb)
        fprintf(out, "  (no backend could run)\n");
    fprintf(out, "\nvalidate: %d comparisons, %d failed, %d skipped\n", pl->sum.runs,
            pl->sum.failed, pl->sum.skipped);
    fflush(out);
}
