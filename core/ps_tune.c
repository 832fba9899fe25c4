/*
 * Tuning a backend's fused steps and tile heights on one grid (ps_tune.h):
 * the candidates (per fused count, the backend's tile height and a few
 * fixed ones), interleaved rounds, the ranking, and the store into the
 * tuning cache (ps_tunecache.h).
 */
#include "config.h"
#include "ps_tune.h"
#include "ps_plugin.h"
#include "ps_status.h"
#include "ps_timer.h"
#include "ps_tunecache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the fused counts tried: 0 asks for single-step sweeps (a path without
 * them, the generic one, gives 1 fused step per sweep instead) */
static const int tune_steps_fused[] = {0, 2, 3, 4, 5, 6, 8, 12, 16};

/* a candidate as asked for (t, tj; -1: the backend's rule) */
typedef struct tune_ask {
    long t, tj;
} tune_ask;

int ps_tune_file(const char *backend, char *buf, size_t len)
{
    char name[128];
    if (len)
        buf[0] = '\0';
    if (!backend || !*backend || strchr(backend, '/'))
        return ps_error(PS_EINVAL, "no backend to name a tuning cache after");
    snprintf(name, sizeof name, "%s-tune.txt", backend);
    if (ps_tune_cache_path(name, buf, len))
        return ps_error(PS_EINVAL, "no tuning cache: set PSTENCIL_TUNE_FILE, XDG_CACHE_HOME "
                        "or HOME");
    return PS_OK;
}

/* A knob asked for: @p v (v >= 0), or the backend's rule (v < 0). */
static void ask_knob(ps_knob *k, long v)
{
    k->value = v < 0 ? 0 : v;
    k->source = v < 0 ? PS_KNOB_RULE : PS_KNOB_OPTION;
}

/* A context for (t, tj) (-1: the rule's); *gt, *gtj what it uses, and the key. */
static int open_ctx(ps_backend *b, const ps_config *base, long t, long tj, ps_context **ctx,
                    long *gt, long *gtj, char *key, size_t keylen)
{
    ps_config cfg = *base;
    const char *v;
    int st;
    cfg.knobs.skip |= PS_KNOBS_SKIP_CACHE; /* the rule, not an earlier tuning */
    ask_knob(&cfg.knobs.openmp_tblock, t);
    ask_knob(&cfg.knobs.openmp_tj, tj);
    if ((st = ps_context_create(b, &cfg, ctx)))
        return strstr(ps_error_detail(), ps_backend_name(b))
                   ? st : ps_error(st, "%s: %s", ps_backend_name(b), ps_error_detail());
    v = ps_context_describe(*ctx, PS_DESCRIBE_TUNE_VALUES);
    if (key)
        snprintf(key, keylen, "%s", ps_context_describe(*ctx, PS_DESCRIBE_TUNE_KEY));
    if (sscanf(v, "%ld %ld", gt, gtj) != 2) {
        const char *why = ps_context_describe(*ctx, PS_DESCRIBE_CHOICES);
        st = ps_error(PS_EUNSUPPORTED, "backend %s has no fused steps to tune here%s%s%s",
                      ps_backend_name(b), *why ? " (" : "", why, *why ? ")" : "");
        ps_context_destroy(*ctx);
        *ctx = NULL;
        return st;
    }
    return PS_OK;
}

/* Add (t, tj) unless listed (single-step sweeps: one entry whatever tj). */
static void add_candidate(ps_tune_result *r, tune_ask *ask, long t, long tj, int rule)
{
    int i;
    for (i = 0; i < r->ncandidates; i++)
        if (ask[i].t == t && (t == 0 || ask[i].tj == tj)) {
            r->candidates[i].rule |= rule;
            return;
        }
    if (r->ncandidates >= PS_TUNE_MAX_CANDIDATES || tj < 1)
        return;
    memset(&r->candidates[r->ncandidates], 0, sizeof r->candidates[0]);
    r->candidates[r->ncandidates].rule = rule;
    ask[r->ncandidates].t = t;
    ask[r->ncandidates].tj = tj;
    r->ncandidates++;
}

/* The candidates: the rule's, then per fused count its tile height and a few fixed ones. */
static int list_candidates(ps_backend *b, const ps_config *cfg, int threads,
                           ps_tune_result *r, tune_ask *ask)
{
    const long nj = cfg->box.extent.ny > 2 ? (long)cfg->box.extent.ny - 2 : 1;
    const long fixed[] = {16, 32, 64, (nj + threads - 1) / threads};
    ps_context *ctx = NULL;
    long gt, gtj;
    size_t i, k;
    int st;
    if ((st = open_ctx(b, cfg, -1, -1, &ctx, &gt, &gtj, r->key, sizeof r->key)))
        return st;
    r->fast_path = !strcmp(ps_context_describe(ctx, PS_DESCRIBE_KERNEL), "fast");
    ps_context_destroy(ctx);
    r->ncandidates = 0;
    add_candidate(r, ask, gt, gtj, 1);
    for (i = 0; i < sizeof tune_steps_fused / sizeof tune_steps_fused[0]; i++) {
        long t = tune_steps_fused[i], rt, rtj;
        if ((st = open_ctx(b, cfg, t, -1, &ctx, &rt, &rtj, NULL, 0)))
            return st;
        ps_context_destroy(ctx);
        if (t == 0 && rt == 0) { /* single-step sweeps: no tiles */
            add_candidate(r, ask, 0, 1, 0);
            continue;
        }
        if (t == 0) { /* a path with no single-step sweep (generic): one step a sweep */
            t = 1;
            if ((st = open_ctx(b, cfg, t, -1, &ctx, &rt, &rtj, NULL, 0)))
                return st;
            ps_context_destroy(ctx);
        }
        add_candidate(r, ask, t, rtj, 0);
        for (k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
            add_candidate(r, ask, t, fixed[k] < nj ? fixed[k] : nj, 0);
    }
    return PS_OK;
}

/* One measurement: upload, steps (timed, synchronised), the result's checksum. */
static int measure(ps_backend *b, const ps_config *cfg, const ps_field *in, ps_field *out,
                   const tune_ask *a, ps_tune_candidate *c, long steps, double *ms,
                   uint64_t *sum)
{
    ps_context *ctx = NULL;
    double s = 0;
    int st;
    if ((st = open_ctx(b, cfg, a->t, a->tj, &ctx, &c->fused, &c->tile_rows, NULL, 0)))
        return st;
    st = ps_context_time_steps(ctx, in->data, out->data, steps, &s);
    ps_context_destroy(ctx);
    if (st)
        return strstr(ps_error_detail(), ps_backend_name(b))
                   ? st : ps_error(st, "%s: %s", ps_backend_name(b), ps_error_detail());
    *ms = s * 1e3 / (double)steps;
    *sum = ps_field_checksum(out);
    return PS_OK;
}

/* fastest median first; equal medians keep the list's order (the rule's first) */
static int cmp_cand(const void *x, const void *y)
{
    const ps_tune_candidate *a = x, *b = y;
    if (a->median_ms != b->median_ms)
        return (a->median_ms > b->median_ms) - (a->median_ms < b->median_ms);
    return (b->rule != 0) - (a->rule != 0);
}

static int store(ps_tune_result *r, const char *backend)
{
    const ps_tune_candidate *best = &r->candidates[0];
    ps_tune_entry e;
    char header[256];
    int st;
    e.val[0] = best->fused;
    e.val[1] = best->tile_rows > 0 ? best->tile_rows : 1;
    e.ms = best->median_ms;
    snprintf(header, sizeof header,
             "# pstencil tuning cache of the %s backend, written by 'pstencil tune'.\n"
             "# key<TAB>steps fused<TAB>tile rows<TAB>measured ms per step\n", backend);
    if ((st = ps_tune_cache_store(r->path, r->key, &e, header)))
        return ps_error(st, "cannot store the tuning: %s", ps_error_detail());
    r->stored = 1;
    return PS_OK;
}

int ps_tune_measure(ps_backend *b, const ps_config *cfg, const ps_field *in,
                    const ps_tune_options *o, ps_tune_result *r)
{
    static const ps_tune_options defaults = {0};
    tune_ask ask[PS_TUNE_MAX_CANDIDATES];
    ps_field out;
    uint64_t first = 0;
    double t0;
    long rd;
    int st, k, i, threads, done = 0;
    if (!r)
        return ps_error(PS_EINVAL, "no result to fill");
    memset(r, 0, sizeof *r);
    if (!o)
        o = &defaults;
    if (!b || !cfg || !in || !in->data || !cfg->stencil)
        return ps_error(PS_EINVAL, "tune needs a backend, a config with its stencil and a "
                        "field");
    if (o->steps < 0 || o->steps > 1000000)
        return ps_error(PS_EINVAL, "steps per measurement: %ld is out of range (1..1000000)",
                        o->steps);
    if (o->rounds < 0 || o->rounds > PS_TUNE_MAX_ROUNDS)
        return ps_error(PS_EINVAL, "rounds: %ld is out of range (1..%d)", o->rounds,
                        PS_TUNE_MAX_ROUNDS);
    if (in->precision != cfg->precision || in->grid.nz != cfg->box.extent.nz ||
        in->grid.ny != cfg->box.extent.ny || in->grid.nx != cfg->box.extent.nx)
        return ps_error(PS_EINVAL, "the field's grid or precision is not the config's");
    r->steps = o->steps ? o->steps : PS_TUNE_DEFAULT_STEPS;
    r->rounds = o->rounds ? o->rounds : PS_TUNE_DEFAULT_ROUNDS;
    /* the cache is checked before anything is measured */
    if (ps_tune_file(ps_backend_name(b), r->path, sizeof r->path) && !o->dry_run)
        return PS_EINVAL;
    if (!o->dry_run && (st = ps_tune_cache_writable(r->path)))
        return st;
    threads = cfg->threads;
    if (threads <= 0) { /* the backend's default team (its device's compute units) */
        ps_device_info dev;
        int nd = 0;
        threads = !ps_backend_probe(b, &dev, 1, &nd) && nd > 0 ? dev.compute_units : 1;
    }
    if ((st = list_candidates(b, cfg, threads, r, ask)))
        return st;
    if ((st = ps_field_alloc(&out, in->grid, in->precision)))
        return st;
    t0 = ps_now();
    /* rounds: every candidate once per round, so drift in the machine's load
     * falls on all of them; each round starts further along the list, so no
     * candidate always runs first or last in a round */
    for (rd = 0; !st && rd < r->rounds; rd++)
        for (k = 0; !st && k < r->ncandidates; k++) {
            uint64_t sum = 0;
            ps_tune_candidate *c;
            i = (int)((k + rd * (r->ncandidates / r->rounds + 1)) % r->ncandidates);
            c = &r->candidates[i];
            st = measure(b, cfg, in, &out, &ask[i], c, r->steps, &c->ms[rd], &sum);
            if (!st && rd == 0 && k == 0)
                first = sum;
            else if (!st && sum != first)
                st = ps_error(PS_EMISMATCH, "fused %ld, tiles of %ld rows: checksum "
                              "0x%016llx differs from the first candidate's 0x%016llx: "
                              "nothing stored", c->fused, c->tile_rows,
                              (unsigned long long)sum, (unsigned long long)first);
            done++;
            if (!st && o->progress && o->progress(o->user, done,
                                                  (int)(r->rounds * r->ncandidates)))
                st = ps_error(PS_ECANCELED, "tuning stopped: nothing stored");
        }
    ps_field_free(&out);
    r->seconds = ps_now() - t0;
    r->checksum = first;
    if (st)
        return st;
    for (i = 0; i < r->ncandidates; i++) {
        ps_tune_candidate *c = &r->candidates[i];
        double tmp[PS_TUNE_MAX_ROUNDS];
        const size_t n = (size_t)r->rounds;
        memcpy(tmp, c->ms, n * sizeof tmp[0]);
        c->median_ms = ps_plugin_median(tmp, n); /* sorts tmp */
        c->best_ms = tmp[0];
    }
    qsort(r->candidates, (size_t)r->ncandidates, sizeof r->candidates[0], cmp_cand);
    for (i = 0; i < r->ncandidates; i++)
        if (r->candidates[i].rule)
            r->rule_index = i;
    return o->dry_run ? PS_OK : store(r, ps_backend_name(b));
}
