/*
 * The openmp backend's side of the tuning cache (core/ps_tunecache.h): the
 * key of a context (CPU, threads, grid, precision, zero-land, row kernels),
 * the fused steps and tile rows `pstencil tune` measured for it, and the
 * one-line description of the context's choices that the run report prints.
 *
 * The cache is read by every context (its key names the stencil) unless the caller sets openmp_tblock or openmp_tj
 * (ps_config::knobs): those override it, and it overrides the
 * PSTENCIL_OPENMP_TBLOCK / _TJ variables and the rule from cache sizes
 * (core/ps_knobs.h). A missing file or key leaves them; lines that are not
 * valid entries are ignored with at most one warning per process.
 */
#include "config.h"
#include "ps_openmp_internal.h"
#include "ps_knobs_env.h"
#include "ps_tunecache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PS_OMP_TJ_MAX (1L << 30) /* tile rows a cache may ask for */

static int warned; /* one warning per process about a bad cache */

void ps_omp_tune_key(const omp_ctx *c, char *buf, size_t len)
{
    char cpu[256], *p = cpu;
    size_t i;
    ps_omp_cpu_model(cpu, sizeof cpu);
    if (!strncmp(p, "host CPU: ", 10))
        p += 10;
    for (i = 0; p[i]; i++)
        if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f || p[i] == ';')
            p[i] = ' ';
    /* "; generic NAME": the kernel path and the stencil, in the form the
     * cache's stored keys have */
    snprintf(buf, len, "openmp; %s; %d threads; %zux%zux%zu; %s; %s; %s; generic %s", p,
             c->threads, c->g.nz, c->g.ny, c->g.nx,
             c->es == sizeof(float) ? "float32" : "float64", c->zl ? "zero-land" : "nan-land",
             c->isa ? c->isa : "?", c->cfg.stencil->name);
}

void ps_omp_tune_tiling(omp_ctx *c, char *src, size_t srclen)
{
    const int opt = c->knobs.openmp_tblock.source == PS_KNOB_OPTION ||
                    c->knobs.openmp_tj.source == PS_KNOB_OPTION;
    const int env = ps_knob_given(&c->knobs.openmp_tblock) || ps_knob_given(&c->knobs.openmp_tj);
    snprintf(src, srclen, "%s",
             opt   ? "option"
             : env ? "PSTENCIL_OPENMP_TBLOCK / PSTENCIL_OPENMP_TJ"
                   : "rule from cache sizes");
    ps_omp_tune_key(c, c->tune_key, sizeof c->tune_key);
    ps_omp_tune_apply(c, src, srclen);
}

int ps_omp_tune_apply(omp_ctx *c, char *src, size_t srclen)
{
    static const long lo[2] = {0, 1}, hi[2] = {PS_TB_MAX, PS_OMP_TJ_MAX};
    char path[4096], why[256];
    ps_tune_entry e;
    int bad = 0, r;
    if ((c->knobs.skip & PS_KNOBS_SKIP_CACHE) || c->knobs.openmp_tblock.source == PS_KNOB_OPTION ||
        c->knobs.openmp_tj.source == PS_KNOB_OPTION ||
        ps_tune_cache_path(PS_TUNE_OPENMP_FILE, path, sizeof path))
        return 0;
    r = ps_tune_cache_lookup(path, c->tune_key, lo, hi, &e, &bad, why, sizeof why);
    if (bad && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED)) {
        if (r < 0)
            fprintf(stderr, "pstencil: warning: tuning cache %s ignored: %s\n", path, why);
        else
            fprintf(stderr, "pstencil: warning: tuning cache %s: %s%s\n", path, why,
                    bad > 1 ? " (and more lines like it)" : "");
    }
    if (r != 1)
        return 0;
    if (c->g.ny > 2 && e.val[1] > (long)(c->g.ny - 2))
        e.val[1] = (long)(c->g.ny - 2);
    ps_knob_cache(&c->knobs.openmp_tblock, e.val[0]);
    ps_knob_cache(&c->knobs.openmp_tj, e.val[1]);
    snprintf(src, srclen, "tune cache %s", path);
    return 1;
}

void ps_omp_describe_choices(omp_ctx *c, const char *src)
{
    snprintf(c->choices, sizeof c->choices, "generic path (%s rows%s); tiling: %d step%s "
             "fused, %zu tiles of %zu rows (%s)%s", c->isa, c->zl ? ", land-sum" : "",
             c->tblock, c->tblock == 1 ? "" : "s", c->gen_tiles, c->gen_tile_rows, src,
             c->nt_out ? "; output rows streamed" : "");
}
