/*
 * The reference backend: the oracle every other backend is checked against.
 *
 * Literal loops that read like the course's pseudocode and design.md
 * section 1: skip land, visit the six neighbours in the fixed order
 * k-1, k+1, j-1, j+1, i-1, i+1, add the ones that are not NaN, then
 * c + D*(s - n*c)/n evaluated step by step. Deliberately NOT optimised and
 * deliberately NOT built from kernels/ (which every other backend uses), so a
 * mistake in the shared kernel shows up as a validation failure instead of
 * being copied into the oracle.
 */
#include "config.h"
#include "ps_builtin.h"
#include "ps_region.h"
#include "ps_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_ctx {
    ps_config cfg;
    ps_grid g;
    void *cur;  /* field at the current step */
    void *next; /* scratch for the next step */
    char err[512];
} ref_ctx;

static int ref_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *ndevs = 0;
    if (max < 1)
        return PS_OK;
    memset(&devs[0], 0, sizeof devs[0]);
    snprintf(devs[0].name, sizeof devs[0].name, "host CPU (one thread)");
    snprintf(devs[0].type, sizeof devs[0].type, "cpu");
    snprintf(devs[0].detail, sizeof devs[0].detail,
             "literal loops, the oracle for validation");
    devs[0].compute_units = 1;
    devs[0].caps = PS_CAP_FP64 | PS_CAP_EXACT_F32 | PS_CAP_EXACT_F64;
    *ndevs = 1;
    return PS_OK;
}

static int ref_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    ref_ctx *c;
    size_t bytes;
    int st;
    *out = NULL;
    if (cfg->stencil && cfg->stencil->id != PS_STENCIL_DIFFUSION7) {
        snprintf(why, whylen, "stencil '%s' is not implemented", cfg->stencil->name);
        return PS_EUNSUPPORTED;
    }
    if (cfg->mode != PS_MODE_EXACT) {
        snprintf(why, whylen, "the reference backend has only exact mode");
        return PS_EUNSUPPORTED;
    }
    if (cfg->device > 0) {
        snprintf(why, whylen, "device %d does not exist (the reference backend has device 0)",
                 cfg->device);
        return PS_ENODEVICE;
    }
    st = ps_grid_size(&cfg->box.extent, cfg->precision, NULL, &bytes);
    if (st) {
        snprintf(why, whylen, "%s", ps_error_detail());
        return st;
    }
    c = calloc(1, sizeof *c);
    if (!c)
        goto nomem;
    c->cfg = *cfg;
    c->g = cfg->box.extent;
    c->cur = calloc(1, bytes ? bytes : 1);
    c->next = calloc(1, bytes ? bytes : 1);
    if (!c->cur || !c->next)
        goto nomem;
    *out = c;
    return PS_OK;
nomem:
    if (c) {
        free(c->cur);
        free(c->next);
        free(c);
    }
    snprintf(why, whylen, "cannot allocate 2 x %zu bytes", bytes);
    return PS_ENOMEM;
}

static int ref_upload(void *vc, const void *host, const ps_region *r)
{
    ref_ctx *c = vc;
    ps_region whole = ps_region_whole(c->g);
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "%s", ps_error_detail());
        return PS_ERANGE;
    }
    ps_region_scatter(c->cur, &c->g, host, r ? r : &whole, ps_precision_size(c->cfg.precision));
    return PS_OK;
}

static int ref_download(void *vc, void *host, const ps_region *r)
{
    ref_ctx *c = vc;
    ps_region whole = ps_region_whole(c->g);
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "%s", ps_error_detail());
        return PS_ERANGE;
    }
    ps_region_gather(host, c->cur, &c->g, r ? r : &whole, ps_precision_size(c->cfg.precision));
    return PS_OK;
}

/*
 * One step, written out once per precision by this macro so that float32
 * arithmetic stays float32 (no promotion to double anywhere).
 */
#define REF_STEP(NAME, REAL)                                                           \
    static void NAME(const REAL *T, REAL *Tn, size_t nz, size_t ny, size_t nx, REAL D)  \
    {                                                                                  \
        size_t k, j, i, q;                                                             \
        /* every cell starts as a copy: boundary faces and land keep their value */     \
        memcpy(Tn, T, nz * ny * nx * sizeof(REAL));                                    \
        if (nz < 3 || ny < 3 || nx < 3)                                                \
            return;                                                                    \
        for (k = 1; k <= nz - 2; k++) {                                                \
            for (j = 1; j <= ny - 2; j++) {                                            \
                for (i = 1; i <= nx - 2; i++) {                                        \
                    REAL c = T[(k * ny + j) * nx + i];                                 \
                    REAL nb[6];                                                        \
                    REAL s = (REAL)0.0;                                                \
                    int n = 0;                                                         \
                    if (isnan(c))                                                      \
                        continue; /* land */                                           \
                    nb[0] = T[((k - 1) * ny + j) * nx + i];                            \
                    nb[1] = T[((k + 1) * ny + j) * nx + i];                            \
                    nb[2] = T[(k * ny + (j - 1)) * nx + i];                            \
                    nb[3] = T[(k * ny + (j + 1)) * nx + i];                            \
                    nb[4] = T[(k * ny + j) * nx + (i - 1)];                            \
                    nb[5] = T[(k * ny + j) * nx + (i + 1)];                            \
                    for (q = 0; q < 6; q++) {                                          \
                        if (!isnan(nb[q])) {                                           \
                            s = s + nb[q];                                             \
                            n = n + 1;                                                 \
                        }                                                              \
                    }                                                                  \
                    if (n == 0)                                                        \
                        continue; /* isolated ocean cell keeps its value */            \
                    {                                                                  \
                        REAL t1 = (REAL)n * c;                                         \
                        REAL t2 = s - t1;                                              \
                        REAL t3 = D * t2;                                              \
                        REAL t4 = t3 / (REAL)n;                                        \
                        Tn[(k * ny + j) * nx + i] = c + t4;                            \
                    }                                                                  \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    }

REF_STEP(ref_step_f32, float)
REF_STEP(ref_step_f64, double)

static int ref_step(void *vc, long nsteps)
{
    ref_ctx *c = vc;
    long t;
    for (t = 0; t < nsteps; t++) {
        void *tmp;
        if (c->cfg.precision == PS_FLOAT64)
            ref_step_f64(c->cur, c->next, c->g.nz, c->g.ny, c->g.nx, c->cfg.coeff);
        else
            ref_step_f32(c->cur, c->next, c->g.nz, c->g.ny, c->g.nx, (float)c->cfg.coeff);
        tmp = c->cur; /* Jacobi: the new field becomes the current one */
        c->cur = c->next;
        c->next = tmp;
    }
    return PS_OK;
}

static int ref_finish(void *vc)
{
    (void)vc;
    return PS_OK;
}

static void ref_destroy(void *vc)
{
    ref_ctx *c = vc;
    if (!c)
        return;
    free(c->cur);
    free(c->next);
    free(c);
}

static const char *ref_last_error(void *vc)
{
    ref_ctx *c = vc;
    return c ? c->err : "";
}

static const ps_backend_ops ps_reference_table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "reference",
    .description = "literal loops, one thread: the oracle every backend is validated against",
    .is_gpu = 0,
    .probe = ref_probe,
    .create = ref_create,
    .upload = ref_upload,
    .step = ref_step,
    .finish = ref_finish,
    .download = ref_download,
    .timing = NULL,
    .destroy = ref_destroy,
    .last_error = ref_last_error,
};

const ps_backend_ops *ps_reference_ops(void)
{
    return &ps_reference_table;
}
