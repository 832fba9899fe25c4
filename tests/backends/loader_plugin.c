/*
 * Test-only backend plugins, built several times with different -D flags
 * (tests/backends.mk) as libtool modules pstencil_<name>.so:
 *
 *   PLUGIN_NAME   the backend name (string)
 *   PLUGIN_ABI    the ABI version it claims (default: the right one)
 *   PLUGIN_UNDEF  reference a symbol nothing defines, so dlopen(RTLD_NOW) fails
 *   PLUGIN_VENDOR call into libps_fakevendor (a stand-in vendor runtime)
 *   PLUGIN_NOENTRY export no entry point
 *   PLUGIN_DECLARE declare this auto priority in the file (PS_PLUGIN_DECLARE)
 *                 and take part in auto with it (otherwise: NOAUTO, -1)
 *   PLUGIN_BROKEN use a deliberately broken kernel: the neighbour sum in the
 *                 order i-1, i+1, j-1, j+1, k-1, k+1 instead of k first; the
 *                 validation suite must catch it
 *
 * Without PLUGIN_BROKEN the step uses the shared kernel kernels/diffusion7.h
 * on a host array, so a working plugin validates bitwise (the plugin path
 * works end to end).
 */
#include "config.h"
#include "ps_backend.h"
#include "ps_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PLUGIN_ABI
#define PLUGIN_ABI PS_BACKEND_ABI_VERSION
#endif

#define PS_REAL float
#define PS_SUFFIX _f32
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX
#define PS_REAL double
#define PS_SUFFIX _f64
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX

#ifdef PLUGIN_UNDEF
extern int ps_test_symbol_nobody_defines(void);
#endif
#ifdef PLUGIN_VENDOR
extern int ps_fakevendor_init(void);
#endif

typedef struct tctx {
    ps_grid g;
    size_t es;
    int f64;
    double d;
    char *cur, *next;
    char err[256];
} tctx;

static int t_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
#ifdef PLUGIN_UNDEF
    if (ps_test_symbol_nobody_defines())
        return PS_EDEVICE;
#endif
#ifdef PLUGIN_VENDOR
    if (ps_fakevendor_init() != 42) {
        snprintf(why, whylen, "fake vendor runtime failed");
        return PS_EDEVICE;
    }
#endif
    (void)why;
    (void)whylen;
    *ndevs = 0;
    if (max < 1)
        return PS_OK;
    memset(devs, 0, sizeof *devs);
    snprintf(devs->name, sizeof devs->name, "test plugin device (%s)", PLUGIN_NAME);
    snprintf(devs->type, sizeof devs->type, "cpu");
    devs->compute_units = 1;
    devs->caps = PS_CAP_FP64 | PS_CAP_EXACT_F32 | PS_CAP_EXACT_F64;
    *ndevs = 1;
    return PS_OK;
}

static int t_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    tctx *c = calloc(1, sizeof *c);
    size_t bytes;
    if (!c) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    if (cfg->mode != PS_MODE_EXACT) {
        free(c);
        snprintf(why, whylen, "exact mode only");
        return PS_EUNSUPPORTED;
    }
    if (cfg->stencil && strcmp(cfg->stencil->name, "diffusion7")) {
        free(c);
        snprintf(why, whylen, "stencil %s: this test plugin has diffusion7 only", cfg->stencil->name);
        return PS_EUNSUPPORTED;
    }
    c->g = cfg->box.extent;
    c->f64 = cfg->precision == PS_FLOAT64;
    c->es = c->f64 ? 8 : 4;
    c->d = cfg->params.scalars[0];
    bytes = c->g.nz * c->g.ny * c->g.nx * c->es;
    c->cur = calloc(1, bytes ? bytes : 1);
    c->next = calloc(1, bytes ? bytes : 1);
    if (!c->cur || !c->next) {
        free(c->cur);
        free(c->next);
        free(c);
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    *out = c;
    return PS_OK;
}

/* copy a region between the box and a packed buffer (dir 0: in, 1: out) */
static int t_copy(tctx *c, char *host, const ps_region *r, int dir)
{
    ps_region whole;
    size_t k, j, row;
    if (!r) {
        memset(&whole, 0, sizeof whole);
        whole.count = c->g;
        r = &whole;
    }
    if (r->start[0] + r->count.nz > c->g.nz || r->start[1] + r->count.ny > c->g.ny ||
        r->start[2] + r->count.nx > c->g.nx) {
        snprintf(c->err, sizeof c->err, "region outside the box");
        return PS_ERANGE;
    }
    row = r->count.nx * c->es;
    for (k = 0; k < r->count.nz; k++)
        for (j = 0; j < r->count.ny; j++) {
            size_t off = (((r->start[0] + k) * c->g.ny + r->start[1] + j) * c->g.nx +
                          r->start[2]) * c->es;
            if (dir == 0)
                memcpy(c->cur + off, host, row);
            else
                memcpy(host, c->cur + off, row);
            host += row;
        }
    return PS_OK;
}

static int t_upload(void *vc, const void *host, const ps_region *r)
{
    return t_copy(vc, (char *)(uintptr_t)host, r, 0);
}

static int t_download(void *vc, void *host, const ps_region *r)
{
    return t_copy(vc, host, r, 1);
}

#ifdef PLUGIN_BROKEN
/* The broken variant: i neighbours summed first. Differs in rounding. */
#define BROKEN_CELL(NAME, REAL)                                                         \
    static REAL NAME(REAL c, REAL km, REAL kp, REAL jm, REAL jp, REAL im, REAL ip, REAL d) \
    {                                                                                   \
        REAL v[6] = {im, ip, jm, jp, km, kp}, s = 0, n = 0, r;                          \
        int q;                                                                          \
        for (q = 0; q < 6; q++)                                                         \
            if (v[q] == v[q]) {                                                         \
                s = s + v[q];                                                           \
                n = n + 1;                                                              \
            }                                                                           \
        r = c + d * (s - n * c) / n;                                                    \
        return (c != c || n == 0) ? c : r;                                              \
    }
BROKEN_CELL(cell_f32, float)
BROKEN_CELL(cell_f64, double)
#else
#define cell_f32 ps_diffusion7_cell_f32
#define cell_f64 ps_diffusion7_cell_f64
#endif

#define T_STEP(NAME, REAL, CELL)                                                       \
    static void NAME(const REAL *T, REAL *O, size_t nz, size_t ny, size_t nx, REAL d)   \
    {                                                                                  \
        size_t k, j, i;                                                                \
        memcpy(O, T, nz * ny * nx * sizeof(REAL));                                     \
        if (nz < 3 || ny < 3 || nx < 3)                                                \
            return;                                                                    \
        for (k = 1; k < nz - 1; k++)                                                   \
            for (j = 1; j < ny - 1; j++)                                               \
                for (i = 1; i < nx - 1; i++) {                                         \
                    size_t q = (k * ny + j) * nx + i;                                  \
                    O[q] = CELL(T[q], T[q - ny * nx], T[q + ny * nx], T[q - nx],       \
                                T[q + nx], T[q - 1], T[q + 1], d);                     \
                }                                                                      \
    }
T_STEP(step_f32, float, cell_f32)
T_STEP(step_f64, double, cell_f64)

static int t_step(void *vc, long n)
{
    tctx *c = vc;
    long t;
    for (t = 0; t < n; t++) {
        char *tmp;
        if (c->f64)
            step_f64((const double *)c->cur, (double *)c->next, c->g.nz, c->g.ny, c->g.nx, c->d);
        else
            step_f32((const float *)c->cur, (float *)c->next, c->g.nz, c->g.ny, c->g.nx,
                     (float)c->d);
        tmp = c->cur;
        c->cur = c->next;
        c->next = tmp;
    }
    return PS_OK;
}

static int t_finish(void *vc)
{
    (void)vc;
    return PS_OK;
}

static void t_destroy(void *vc)
{
    tctx *c = vc;
    if (!c)
        return;
    free(c->cur);
    free(c->next);
    free(c);
}

static const char *t_last_error(void *vc)
{
    tctx *c = vc;
    return c ? c->err : "";
}

#ifdef PLUGIN_DECLARE
PS_PLUGIN_DECLARE(PLUGIN_DECLARE);
#define PLUGIN_PRIORITY PLUGIN_DECLARE
#define PLUGIN_FLAGS 0u
#else
#define PLUGIN_PRIORITY -1
#define PLUGIN_FLAGS PS_BACKEND_NOAUTO
#endif

static const ps_backend_ops t_table = {
    .abi_version = PLUGIN_ABI,
    .name = PLUGIN_NAME,
    .description = "test-only plugin",
    .priority = PLUGIN_PRIORITY,
    .flags = PLUGIN_FLAGS,
    .probe = t_probe,
    .create = t_create,
    .upload = t_upload,
    .step = t_step,
    .finish = t_finish,
    .download = t_download,
    .timing = NULL,
    .destroy = t_destroy,
    .last_error = t_last_error,
};

#ifndef PLUGIN_NOENTRY
const ps_backend_ops *ps_backend_plugin_entry(void);
const ps_backend_ops *ps_backend_plugin_entry(void)
{
    return &t_table;
}
#else
const ps_backend_ops *ps_backend_plugin_entry_misspelt(void);
const ps_backend_ops *ps_backend_plugin_entry_misspelt(void)
{
    return &t_table;
}
#endif
