/*
 * What the validation suite runs: the options with their defaults, the
 * selected cases and stencils, the oracle (the backend whose table has
 * PS_BACKEND_ORACLE), the backends to validate with the precisions and modes
 * their devices can run (the rest listed as skipped, with why), and per
 * stencil the columns of its table: one per backend, device, precision and
 * mode, and a second, generic one where the backend lists the stencil among
 * its fast paths. Behaviour follows the backends' capability flags, never
 * their names.
 */
#include "config.h"
#include "ps_validate_internal.h"
#include "ps_oracle.h"
#include "ps_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long def_steps[] = {1, 2, 7, 50}, quick_steps[] = {1, 2, 7};
static const int def_threads[] = {1, 2, 3};

static int select_cases(psv_plan *pl, const ps_validate_options *o)
{
    int i, k;
    if (!o->cases || o->ncases <= 0) {
        for (i = 0; i < ps_validate_case_count() && pl->ncases < PSV_MAX_CASES; i++)
            if (!o->quick || ps_validate_case_quick(i))
                pl->cases[pl->ncases++] = i;
        return PS_OK;
    }
    for (i = 0; i < o->ncases && pl->ncases < PSV_MAX_CASES; i++) {
        k = ps_validate_case_find(o->cases[i]);
        if (k < 0) {
            char list[2048] = "";
            for (k = 0; k < ps_validate_case_count(); k++) {
                size_t u = strlen(list);
                snprintf(list + u, sizeof list - u, "%s%s", k ? ", " : "",
                         ps_validate_case_name(k));
            }
            return ps_error(PS_EINVAL, "unknown case '%s' (cases: %s)", o->cases[i], list);
        }
        pl->cases[pl->ncases++] = k;
    }
    return PS_OK;
}

static int select_stencils(psv_plan *pl, const ps_validate_options *o)
{
    const int max = (int)(sizeof pl->stencils / sizeof pl->stencils[0]);
    int i, k;
    if (!o->stencils || o->nstencils <= 0) {
        for (i = 0; i < ps_stencil_count() && pl->nstencils < max; i++)
            pl->stencils[pl->nstencils++] = ps_stencil_at(i);
        return PS_OK;
    }
    for (i = 0; i < o->nstencils && pl->nstencils < max; i++) {
        const ps_stencil *s = ps_stencil_find(o->stencils[i]);
        if (!s) {
            char list[1024] = "";
            for (k = 0; k < ps_stencil_count(); k++) {
                size_t u = strlen(list);
                snprintf(list + u, sizeof list - u, "%s%s", k ? ", " : "",
                         ps_stencil_at(k)->name);
            }
            return ps_error(PS_EINVAL, "unknown stencil '%s' (stencils: %s)", o->stencils[i],
                            list);
        }
        for (k = 0; k < pl->nstencils && pl->stencils[k] != s; k++)
            ;
        if (k == pl->nstencils)
            pl->stencils[pl->nstencils++] = s;
    }
    return PS_OK;
}

int psv_plan_init(psv_plan *pl, const ps_validate_options *o)
{
    int st;
    memset(pl, 0, sizeof *pl);
    pl->o = o;
    pl->out = o->out ? o->out : stdout;
    pl->steps = o->steps ? o->steps : (o->quick ? quick_steps : def_steps);
    pl->nsteps = o->steps ? o->nsteps : (o->quick ? 3 : 4);
    pl->threads = o->threads ? o->threads : def_threads;
    pl->nthreads = o->threads ? o->nthreads : 3;
    pl->precisions = o->precisions ? o->precisions : 3;
    pl->modes = o->modes ? o->modes : 3;
    pl->kernels = o->kernels;
    if (pl->nsteps < 1 || pl->nsteps > PSV_MAX_STEPS || pl->nthreads < 1 ||
        pl->nthreads > PSV_MAX_THREADS)
        return ps_error(PS_EINVAL, "between 1 and %d step counts and 1 and %d thread counts",
                        PSV_MAX_STEPS, PSV_MAX_THREADS);
    if ((st = select_cases(pl, o)))
        return st;
    return select_stencils(pl, o);
}

static int is_known_name(const char *name)
{
    const char *const *names;
    int n, i;
    ps_backend_known(&names, &n);
    for (i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return 1;
    return 0;
}

/* The oracle: the backend flagged PS_BACKEND_ORACLE (core/ps_oracle.h). */
static int open_oracle(psv_plan *pl)
{
    int st = ps_backend_open_oracle(&pl->oracle);
    if (!st)
        snprintf(pl->oracle_name, sizeof pl->oracle_name, "%s", ps_backend_name(pl->oracle));
    return st;
}

/* Why device @p d cannot run precision @p p in mode @p m (NULL: it can). */
static const char *cannot_run(unsigned caps, ps_precision p, ps_mode m)
{
    if (p == PS_FLOAT64 && !(caps & PS_CAP_FP64))
        return "device has no float64";
    if (m == PS_MODE_EXACT && !(caps & (p == PS_FLOAT64 ? PS_CAP_EXACT_F64 : PS_CAP_EXACT_F32)))
        return (caps & PS_CAP_FAST) ? "device is fast-mode only" : "device has no exact mode";
    if (m == PS_MODE_FAST && !(caps & PS_CAP_FAST))
        return "backend has no fast mode";
    return NULL;
}

static void base_title(const psv_plan *pl, const psv_base *c, char *buf, size_t len)
{
    const psv_backend *bk = &pl->bk[c->bi];
    char dev[16] = "";
    if (bk->ndevices > 1)
        snprintf(dev, sizeof dev, ":%d", c->device);
    snprintf(buf, len, "%s%s %s %s", bk->name, dev, c->prec == PS_FLOAT64 ? "f64" : "f32",
             c->mode == PS_MODE_FAST ? "fast" : "exact");
}

/* The precision and mode columns backend @p bi's devices can run. */
static void add_base_columns(psv_plan *pl, int bi)
{
    psv_backend *bk = &pl->bk[bi];
    int d, pi, mi;
    for (d = 0; d < bk->ndevices; d++)
        for (pi = 0; pi < 2; pi++)
            for (mi = 0; mi < 2; mi++) {
                psv_base c = {bi, d, pi ? PS_FLOAT64 : PS_FLOAT32,
                              mi ? PS_MODE_FAST : PS_MODE_EXACT};
                const char *why;
                char title[64];
                if (!(pl->precisions & (1 << pi)) || !(pl->modes & (1 << mi)))
                    continue;
                base_title(pl, &c, title, sizeof title);
                why = cannot_run(bk->devs[d].caps, c.prec, c.mode);
                if (why) {
                    psv_text_add(&pl->skips, "  %-20s skipped (%s; device %d: %s)", title, why,
                                 d, bk->devs[d].name);
                    pl->sum.skipped++;
                } else if (pl->nbase < PSV_MAX_BASE) {
                    pl->base[pl->nbase++] = c;
                }
            }
}

int psv_plan_open(psv_plan *pl)
{
    const ps_validate_options *o = pl->o;
    const char *const *names;
    int nnames, i, st;
    if ((st = open_oracle(pl)))
        return st;
    if (o->backends && o->nbackends > 0) {
        names = o->backends;
        nnames = o->nbackends;
    } else {
        ps_backend_known(&names, &nnames);
    }
    for (i = 0; i < nnames && pl->nb < PSV_MAX_BACKENDS; i++) {
        psv_backend *bk = &pl->bk[pl->nb];
        const ps_backend_ops *ops;
        int r;
        memset(bk, 0, sizeof *bk);
        r = ps_backend_open(names[i], &bk->b);
        if (r) {
            if (r == PS_ENOBACKEND && !is_known_name(names[i]))
                return r; /* not a backend at all: a usage error (detail kept) */
            psv_text_add(&pl->skips, "  %-10s skipped: %s", names[i], ps_error_detail());
            pl->sum.skipped++;
            continue;
        }
        r = ps_backend_probe(bk->b, bk->devs, PSV_MAX_DEVICES, &bk->ndevices);
        if (r) {
            psv_text_add(&pl->skips, "  %-10s skipped: %s", names[i], ps_error_detail());
            pl->sum.skipped++;
            ps_backend_close(bk->b);
            bk->b = NULL;
            continue;
        }
        if (bk->ndevices > PSV_MAX_DEVICES)
            bk->ndevices = PSV_MAX_DEVICES;
        ops = ps_backend_get_ops(bk->b);
        snprintf(bk->name, sizeof bk->name, "%s", names[i]);
        bk->flags = ops->flags;
        bk->fast_paths = ops->fast_paths;
        add_base_columns(pl, pl->nb);
        pl->nb++;
    }
    return PS_OK;
}

static int has_fast_path(const psv_backend *bk, const ps_stencil *s)
{
    const char *const *f;
    for (f = bk->fast_paths; f && *f; f++)
        if (!strcmp(*f, s->name))
            return 1;
    return 0;
}

void psv_plan_columns(const psv_plan *pl, const ps_stencil *s, psv_table *t)
{
    int i, g;
    memset(t, 0, sizeof *t);
    t->stencil = s;
    for (i = 0; i < pl->nbase; i++) {
        int paths = has_fast_path(&pl->bk[pl->base[i].bi], s) ? 2 : 1;
        for (g = 0; g < paths && t->ncols < PSV_MAX_COLS; g++) {
            psv_col *c;
            /* --kernel: generic only (the generic twin, or the one path of a stencil
             * without a fast path), or fast paths only */
            if ((pl->kernels == PS_KERNEL_GENERIC && g + 1 < paths) ||
                (pl->kernels == PS_KERNEL_FAST && (paths == 1 || g == 1)))
                continue;
            c = &t->cols[t->ncols++];
            char title[64];
            c->base = pl->base[i];
            c->generic = g;
            c->kernel = g ? PS_KERNEL_GENERIC : paths == 2 ? PS_KERNEL_FAST : PS_KERNEL_AUTO;
            base_title(pl, &c->base, title, sizeof title);
            snprintf(c->title, sizeof c->title, "%s%s", title, g ? " generic" : "");
        }
    }
}

void psv_plan_free(psv_plan *pl)
{
    int i;
    for (i = 0; i < pl->nb; i++)
        ps_backend_close(pl->bk[i].b);
    ps_backend_close(pl->oracle);
    pl->oracle = NULL;
    pl->nb = 0;
    psv_text_free(&pl->skips);
    psv_text_free(&pl->labels);
    psv_text_free(&pl->fails);
}
