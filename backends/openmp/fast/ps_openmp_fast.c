/*
 * The table of the openmp backend's hand-written paths (ps_openmp_fast.h)
 * and their set-up functions: diffusion7's zero-land and NaN-masked rows
 * (ps_openmp_rows.c, ps_openmp_rows_avx512.c) with fused steps
 * (ps_openmp_tblock.c). Its fast mode takes the exact rows: error 0, within
 * any bound, and faster than the generic fma sweep.
 */
#include "config.h"
#include "ps_openmp_fast.h"
#include "ps_knobs_env.h"
#include "ps_plugin.h"
#include "ps_status.h"

#include <stdio.h>
#include <stdlib.h>

/*
 * diffusion7's rows: the NaN-masked and zero-land rows of @p t, the
 * zero-land ones of @p z instead where given (AVX-512; @p zisa names them),
 * fused steps.
 */
static int d7_setup(omp_ctx *c, size_t bytes, char *tiling_src, size_t srclen,
                    const ps_omp_rows *t, const ps_omp_rows *z, const char *zisa)
{
    const ps_config *cfg = &c->cfg;
    c->stream = ps_omp_auto_stream(&c->knobs);
    c->zl = !c->stream && ps_omp_auto_zero_land(&c->knobs, cfg->params.scalars[0]);
    if (c->zl) {
        c->cnt_bytes = bytes / c->es;
        c->cnt = ps_omp_pages(c->cnt_bytes);
        if (!c->cnt)
            return PS_ENOMEM;
    }
    c->rowp32 = t->exact_p32;
    c->rowp64 = t->exact_p64;
    c->rowz32 = t->zl_p32;
    c->rowz64 = t->zl_p64;
    c->rowsz32 = t->zl_rows32;
    c->rowsz64 = t->zl_rows64;
    c->row32 = c->stream ? t->exact_nt32 : t->exact32;
    c->row64 = c->stream ? t->exact_nt64 : t->exact64;
    c->isa = t->isa;
    if (c->zl && z) {
        c->rowz32 = z->zl_p32;
        c->rowz64 = z->zl_p64;
        c->rowsz32 = z->zl_rows32;
        c->rowsz64 = z->zl_rows64;
        c->isa = zisa;
    }
    /* fused steps and tiles: the caller's, else the tuning cache (keyed by the
     * choices above), else the environment's, else the rule from cache sizes */
    if (!c->stream) {
        ps_omp_tune_tiling(c, tiling_src, srclen);
        c->tblock = ps_omp_auto_tblock(&c->knobs, &c->g, c->es, c->threads);
        c->tj = c->knobs.openmp_tj.source != PS_KNOB_UNSET ? (size_t)c->knobs.openmp_tj.value : 0;
    }
    /* streamed output rows: the AVX-512 block rows only */
    c->nt_out = c->rowsz32 && c->zl && c->tblock > 0 && ps_omp_auto_nt_out(&c->knobs, bytes);
    return PS_OK;
}

static int d7_base(omp_ctx *c, size_t bytes, char *src, size_t len)
{
    return d7_setup(c, bytes, src, len, &ps_omp_rows_base, NULL, NULL);
}

#ifdef PS_HAVE_OMP_AVX2
static int d7_avx2(omp_ctx *c, size_t bytes, char *src, size_t len)
{
    return d7_setup(c, bytes, src, len, &ps_omp_rows_avx2, NULL, NULL);
}
#endif

#if defined(PS_HAVE_OMP_AVX2) && defined(PS_HAVE_OMP_AVX512)
/* the zero-land rows on 512-bit vectors (openmp_isa avx512) or on 256-bit ones
 * with AVX-512VL (avx512vl); the NaN-masked rows AVX2's */
static int d7_avx512(omp_ctx *c, size_t bytes, char *src, size_t len)
{
    const int vl = ps_omp_use_avx512(&c->knobs) == 2;
    return d7_setup(c, bytes, src, len, &ps_omp_rows_avx2,
                    vl ? &ps_omp_rows_avx512vl : &ps_omp_rows_avx512,
                    vl ? "avx512vl (zero-land rows), avx2" : "avx512 (zero-land rows), avx2");
}
#endif

const char *const ps_omp_fast_paths[] = {"diffusion7", NULL};

#define F_BOTH ((1u << PS_FLOAT32) | (1u << PS_FLOAT64))
#define M_BOTH ((1u << PS_MODE_EXACT) | (1u << PS_MODE_FAST))
/* in order of preference: the first usable entry of a stencil wins */
static const ps_omp_fast_entry ps_omp_fast_table[] = {
#if defined(PS_HAVE_OMP_AVX2) && defined(PS_HAVE_OMP_AVX512)
    {.stencil = 0, .precisions = F_BOTH, .modes = M_BOTH, .isa = PS_OMP_FAST_AVX512,
     .setup = d7_avx512},
#endif
#ifdef PS_HAVE_OMP_AVX2
    {.stencil = 0, .precisions = F_BOTH, .modes = M_BOTH, .isa = PS_OMP_FAST_AVX2,
     .setup = d7_avx2},
#endif
    {.stencil = 0, .precisions = F_BOTH, .modes = M_BOTH, .isa = PS_OMP_FAST_BASE,
     .setup = d7_base},
};

/* whether the CPU and the knobs allow instruction set @p isa */
static int isa_usable(int isa, const ps_knobs *k)
{
    switch (isa) {
    case PS_OMP_FAST_BASE:
        return 1;
    case PS_OMP_FAST_AVX2:
        return ps_omp_use_avx2(k);
    case PS_OMP_FAST_AVX512:
        return ps_omp_use_avx2(k) && ps_omp_use_avx512(k);
    }
    return 0;
}

ps_omp_fast_fn ps_omp_fast_find(const ps_config *cfg, const ps_knobs *k)
{
    const int s = ps_plugin_name_index(ps_omp_fast_paths, cfg->stencil->name);
    size_t e;
    if (s < 0)
        return NULL;
    for (e = 0; e < sizeof ps_omp_fast_table / sizeof ps_omp_fast_table[0]; e++) {
        const ps_omp_fast_entry *f = &ps_omp_fast_table[e];
        if (f->stencil == s && (f->precisions >> cfg->precision & 1u) &&
            (f->modes >> cfg->mode & 1u) && isa_usable(f->isa, k))
            return f->setup;
    }
    return NULL;
}
