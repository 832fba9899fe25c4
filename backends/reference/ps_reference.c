/*
 * The reference backend: the oracle every other backend is checked against.
 *
 * Literal loops, one thread, deliberately NOT optimised: every cell of the
 * box at least the stencil's radius away from its faces gets the stencil's
 * generic point update (kernels/ps_skeleton.h gathers the neighbours in the
 * order the stencil lists them and calls its cell function); every other cell
 * is copied. Every stencil in kernels/ps_stencils.h is instantiated here for
 * float32 and float64 by X-macro, so adding a stencil touches nothing in this
 * file. The reference is itself checked against independent literal
 * implementations of the models written in the tests (tests/stencils/ps_oracle.c), so
 * a mistake in a kernel file cannot hide by being copied into the oracle.
 */
#include "config.h"
#include "ps_builtin.h"
#include "ps_plugin.h"
#include "ps_region.h"
#include "ps_status.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps_skeleton_all.h"

typedef struct ref_ctx {
    ps_config cfg;
    ps_grid g;
    void *cur;  /* field at the current step */
    void *next; /* scratch for the next step */
    void *adopted; /* the caller's buffer (ps_backend_ops.adopt), cur or next; NULL: none */
    void *params; /* packed kernel scalars and arrays (ps_params_pack) */
    int which;  /* index of the stencil in ref_steps */
    char err[512];
} ref_ctx;

/*
 * One step of stencil NAME in precision REAL: the literal loop skeleton.
 * Every stored cell is first copied (land, the outer radius layers of the
 * box); each cell at least radius away from every face then gets the
 * stencil's generic point update from kernels/ (neighbours gathered in the
 * order its description lists them). Instantiated for every stencil in
 * kernels/ps_stencils.h and both precisions by the X-macros below.
 */
#define REF_STEP(NAME, REAL, SFX)                                                       \
    static void ref_##NAME##SFX(const ref_ctx *c, const REAL *T, REAL *Tn,              \
                                const REAL *params)                                     \
    {                                                                                   \
        const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, r = PS_##NAME##_RADIUS;  \
        const ps_box *b = &c->cfg.box;                                                  \
        size_t k, j, i;                                                                 \
        memcpy(Tn, T, nz * ny * nx * sizeof(REAL));                                     \
        if (nz < 2 * r + 1 || ny < 2 * r + 1 || nx < 2 * r + 1)                         \
            return;                                                                     \
        for (k = r; k < nz - r; k++)                                                    \
            for (j = r; j < ny - r; j++)                                                \
                for (i = r; i < nx - r; i++)                                            \
                    Tn[(k * ny + j) * nx + i] = ps_##NAME##_apply##SFX(                  \
                        T, (long)((k * ny + j) * nx + i), (long)(ny * nx), (long)nx,    \
                        params, (long)(b->origin[0] + k), (long)(b->origin[1] + j),     \
                        (long)(b->origin[2] + i), (long)b->global.nz,                   \
                        (long)b->global.ny, (long)b->global.nx);                        \
    }
#define REF_F32(NAME) REF_STEP(NAME, float, _f32)
#define REF_F64(NAME) REF_STEP(NAME, double, _f64)
PS_STENCIL_LIST(REF_F32)
PS_STENCIL_LIST(REF_F64)

typedef void (*ref_step_fn)(const ref_ctx *, const void *, void *, const void *);
#define REF_ENTRY(NAME) {#NAME, (ref_step_fn)ref_##NAME##_f32, (ref_step_fn)ref_##NAME##_f64},
static const struct {
    const char *name;
    ref_step_fn f32, f64;
} ref_steps[] = {PS_STENCIL_LIST(REF_ENTRY)};

static void ref_destroy(void *vc);

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
    if ((st = ps_plugin_check_config(cfg, why, whylen)))
        return st;
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
    c->params = calloc(ps_params_packed_len(cfg) + 1, ps_precision_size(cfg->precision));
    if (!c->cur || !c->next || !c->params)
        goto nomem;
    ps_params_pack(cfg, c->params);
    for (c->which = 0; strcmp(ref_steps[c->which].name, cfg->stencil->name); c->which++)
        if (c->which + 1 == (int)(sizeof ref_steps / sizeof ref_steps[0])) {
            ref_destroy(c);
            snprintf(why, whylen, "stencil '%s' is not in this build's list",
                     cfg->stencil->name);
            return PS_EUNSUPPORTED;
        }
    *out = c;
    return PS_OK;
nomem:
    ref_destroy(c);
    snprintf(why, whylen, "cannot allocate 2 x %zu bytes", bytes);
    return PS_ENOMEM;
}

/* whether @p r (NULL: the whole box) is the whole box */
static int ref_whole(const ref_ctx *c, const ps_region *r)
{
    return !r || (!r->start[0] && !r->start[1] && !r->start[2] && r->count.nz == c->g.nz &&
                  r->count.ny == c->g.ny && r->count.nx == c->g.nx);
}

static int ref_upload(void *vc, const void *host, const ps_region *r)
{
    ref_ctx *c = vc;
    ps_region whole = ps_region_whole(c->g);
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "%s", ps_error_detail());
        return PS_ERANGE;
    }
    if (host && host == c->adopted) { /* in place: the adopted buffer becomes cur, as it is */
        if (!ref_whole(c, r)) {
            snprintf(c->err, sizeof c->err, "upload: the adopted field goes in whole");
            return PS_EINVAL;
        }
        if (c->cur != c->adopted) {
            c->next = c->cur;
            c->cur = c->adopted;
        }
        return PS_OK;
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
    if (host && host == c->adopted) { /* the state into it, which becomes cur */
        if (!ref_whole(c, r)) {
            snprintf(c->err, sizeof c->err, "download: the adopted field comes out whole");
            return PS_EINVAL;
        }
        if (c->cur != host) {
            ps_region_gather(host, c->cur, &c->g, &whole, ps_precision_size(c->cfg.precision));
            c->next = c->cur;
            c->cur = host;
        }
        return PS_OK;
    }
    ps_region_gather(host, c->cur, &c->g, r ? r : &whole, ps_precision_size(c->cfg.precision));
    return PS_OK;
}

/* ps_backend_ops.adopt: @p host replaces the buffer cur, its cells the state */
static int ref_adopt(void *vc, void *host)
{
    ref_ctx *c = vc;
    const size_t es = ps_precision_size(c->cfg.precision);
    if (c->adopted || !host || (uintptr_t)host % es) {
        snprintf(c->err, sizeof c->err, "adopt: %s", c->adopted ? "the context steps a host "
                 "field already" : "the host field must be aligned to its cells");
        return PS_EINVAL;
    }
    free(c->cur);
    c->cur = c->adopted = host;
    return PS_OK;
}

static int ref_step(void *vc, long nsteps)
{
    ref_ctx *c = vc;
    long t;
    ref_step_fn fn = c->cfg.precision == PS_FLOAT64 ? ref_steps[c->which].f64
                                                    : ref_steps[c->which].f32;
    for (t = 0; t < nsteps; t++) {
        void *tmp;
        fn(c, c->cur, c->next, c->params);
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
    if (c->cur != c->adopted)
        free(c->cur);
    if (c->next != c->adopted)
        free(c->next);
    free(c->params);
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
    .priority = 0,
    /* concurrent: a context's state is its own (nothing static is written) */
    .flags = PS_BACKEND_ORACLE | PS_BACKEND_CONCURRENT | PS_BACKEND_ADOPT,
    .fast_paths = NULL,
    .probe = ref_probe,
    .create = ref_create,
    .upload = ref_upload,
    .step = ref_step,
    .finish = ref_finish,
    .download = ref_download,
    .timing = NULL,
    .destroy = ref_destroy,
    .last_error = ref_last_error,
    .adopt = ref_adopt,
};

const ps_backend_ops *ps_reference_ops(void)
{
    return &ps_reference_table;
}
