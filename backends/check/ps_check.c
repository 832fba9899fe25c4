/*
 * The check backend: the smallest backend that runs every stencil, added by
 * following docs/adding-a-backend.md (this folder and one line of the backend
 * list, backends/ps_backends.h). The test suite builds it (`make check`) to
 * prove that such a backend is listed, considered by `auto` and validated;
 * it is never installed.
 *
 * It is a plugin that links nothing from libpstencil: host memory, one
 * thread, exact mode only, float32 and float64. A step copies the box and
 * gives every cell at least the stencil's radius away from every face the
 * generic point update of kernels/ps_skeleton.h, for every stencil of
 * kernels/ps_stencils.h, so it agrees bitwise with the reference.
 *
 * Its priority is -1 (below the reference: never preferred over a real
 * backend). A test may set PSTENCIL_CHECK_PRIORITY (an integer) and
 * PSTENCIL_CHECK_FLAGS (comma-separated: gpu, noauto) to show that `auto`
 * decides by the ops table's priority and capability flags, not by names;
 * "threads" and "concurrent" in it make a split run its boxes on several host
 * threads at once (core/ps_decomp.h), as openmp does.
 *
 * Fault hook: with PSTENCIL_CHECK_FAIL_STEP=N, a step of any context fails
 * with a device error once the contexts have taken more than N steps in all
 * (mid-run: the steps of one box of a split, or of one out-of-core slab, come
 * first; slabs may share one context, so no box is told apart); when the plugin is unloaded it says on stderr how many contexts were
 * still live ("check: N contexts live at unload"), so a test can show that a
 * failed run freed every context.
 */
#include "config.h"
#include "ps_plugin.h"

#include <limits.h>

#include "ps_skeleton_all.h"

typedef struct chk_ctx chk_ctx;
typedef void (*chk_step_fn)(const chk_ctx *c, const void *in, void *out);

struct chk_ctx {
    ps_box box;
    size_t es;        /* bytes per value */
    void *cur, *next; /* the field now and the next step's scratch (Jacobi) */
    void *params;     /* packed scalars and arrays (ps_params_pack) */
    chk_step_fn step;
    char err[512];
};

/* One step of stencil NAME in precision REAL: copy, then the generic update. */
#define CHK_STEP(NAME, REAL, SFX)                                                      \
    static void chk_##NAME##SFX(const chk_ctx *c, const void *vin, void *vout)         \
    {                                                                                  \
        const REAL *in = vin;                                                          \
        REAL *out = vout;                                                              \
        const ps_box *b = &c->box;                                                     \
        const size_t nz = b->extent.nz, ny = b->extent.ny, nx = b->extent.nx;          \
        const size_t r = PS_##NAME##_RADIUS;                                           \
        size_t k, j, i;                                                                \
        memcpy(out, in, nz * ny * nx * sizeof(REAL));                                  \
        if (nz < 2 * r + 1 || ny < 2 * r + 1 || nx < 2 * r + 1)                        \
            return;                                                                    \
        for (k = r; k < nz - r; k++)                                                   \
            for (j = r; j < ny - r; j++)                                               \
                for (i = r; i < nx - r; i++)                                           \
                    out[(k * ny + j) * nx + i] = ps_##NAME##_apply##SFX(               \
                        in, (long)((k * ny + j) * nx + i), (long)(ny * nx), (long)nx,  \
                        c->params, (long)(b->origin[0] + k), (long)(b->origin[1] + j), \
                        (long)(b->origin[2] + i), (long)b->global.nz,                  \
                        (long)b->global.ny, (long)b->global.nx);                       \
    }
#define CHK_F32(NAME) CHK_STEP(NAME, float, _f32)
#define CHK_F64(NAME) CHK_STEP(NAME, double, _f64)
PS_STENCIL_LIST(CHK_F32)
PS_STENCIL_LIST(CHK_F64)

#define CHK_ENTRY(NAME) {#NAME, chk_##NAME##_f32, chk_##NAME##_f64},
static const struct {
    const char *name;
    void (*f32)(const chk_ctx *, const void *, void *);
    void (*f64)(const chk_ctx *, const void *, void *);
} chk_steps[] = {PS_STENCIL_LIST(CHK_ENTRY)};
#define CHK_NSTEPS (sizeof chk_steps / sizeof chk_steps[0])

static int chk_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *ndevs = 0;
    if (max < 1)
        return PS_OK;
    memset(&devs[0], 0, sizeof devs[0]);
    snprintf(devs[0].name, sizeof devs[0].name, "host CPU (check backend, one thread)");
    snprintf(devs[0].type, sizeof devs[0].type, "cpu");
    snprintf(devs[0].detail, sizeof devs[0].detail,
             "the generic skeleton as a plugin, built by make check");
    devs[0].compute_units = 1;
    devs[0].caps = PS_CAP_FP64 | PS_CAP_EXACT_F32 | PS_CAP_EXACT_F64;
    *ndevs = 1;
    return PS_OK;
}

/* Shared by every context: atomic, so that contexts may step on several host
 * threads at once (PSTENCIL_CHECK_FLAGS=concurrent) */
static long chk_live;        /* contexts created and not yet destroyed */
static long chk_fault_steps; /* steps taken by every context of the process (fault hook) */

static void chk_destroy(void *vc)
{
    chk_ctx *c = vc;
    if (!c)
        return;
    __atomic_sub_fetch(&chk_live, 1, __ATOMIC_SEQ_CST);
    free(c->cur);
    free(c->next);
    free(c->params);
    free(c);
}

static int chk_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    chk_ctx *c;
    size_t cells, s;
    int st;
    *out = NULL;
    if ((st = ps_plugin_check_config(cfg, why, whylen)))
        return st;
    if (cfg->mode != PS_MODE_EXACT) {
        snprintf(why, whylen, "the check backend has only exact mode");
        return PS_EUNSUPPORTED;
    }
    if (cfg->device > 0) {
        snprintf(why, whylen, "device %d does not exist (the check backend has device 0)",
                 cfg->device);
        return PS_ENODEVICE;
    }
    for (s = 0; s < CHK_NSTEPS && strcmp(chk_steps[s].name, cfg->stencil->name); s++)
        ;
    if (s == CHK_NSTEPS) {
        snprintf(why, whylen, "stencil '%s' is not in this plugin's list", cfg->stencil->name);
        return PS_EUNSUPPORTED;
    }
    c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    c->box = cfg->box;
    c->es = cfg->precision == PS_FLOAT64 ? sizeof(double) : sizeof(float);
    c->step = cfg->precision == PS_FLOAT64 ? chk_steps[s].f64 : chk_steps[s].f32;
    cells = cfg->box.extent.nz * cfg->box.extent.ny * cfg->box.extent.nx;
    c->cur = calloc(cells ? cells : 1, c->es);
    c->next = calloc(cells ? cells : 1, c->es);
    c->params = calloc(ps_params_packed_len(cfg) + 1, c->es);
    if (!c->cur || !c->next || !c->params) {
        chk_destroy(c);
        snprintf(why, whylen, "cannot allocate 2 x %zu cells", cells);
        return PS_ENOMEM;
    }
    ps_params_pack(cfg, c->params);
    __atomic_add_fetch(&chk_live, 1, __ATOMIC_SEQ_CST);
    *out = c;
    return PS_OK;
}

/* Copy between the box and a region packed in C order (to_box: upload). */
static int chk_copy(chk_ctx *c, char *host, const ps_region *r, int to_box)
{
    const ps_grid g = c->box.extent;
    ps_region whole;
    size_t k, j, row;
    int st = ps_plugin_region_check(&g, r, c->err, sizeof c->err);
    if (st)
        return st;
    if (!r) {
        memset(&whole, 0, sizeof whole);
        whole.count = g;
        r = &whole;
    }
    row = r->count.nx * c->es;
    for (k = 0; k < r->count.nz; k++)
        for (j = 0; j < r->count.ny; j++, host += row) {
            char *cell = (char *)c->cur +
                         (((r->start[0] + k) * g.ny + r->start[1] + j) * g.nx + r->start[2]) *
                             c->es;
            if (to_box)
                memcpy(cell, host, row);
            else
                memcpy(host, cell, row);
        }
    return PS_OK;
}

static int chk_upload(void *vc, const void *host, const ps_region *r)
{
    return chk_copy(vc, (char *)(uintptr_t)host, r, 1);
}

static int chk_download(void *vc, void *host, const ps_region *r)
{
    return chk_copy(vc, host, r, 0);
}

static int chk_step(void *vc, long nsteps)
{
    chk_ctx *c = vc;
    const char *fail = getenv("PSTENCIL_CHECK_FAIL_STEP");
    long t;
    if (fail && *fail) {
        if (__atomic_add_fetch(&chk_fault_steps, nsteps, __ATOMIC_SEQ_CST) >
            strtol(fail, NULL, 10)) {
            snprintf(c->err, sizeof c->err, "injected device error (PSTENCIL_CHECK_FAIL_STEP=%s) "
                     "on the box at (%zu,%zu,%zu)", fail, c->box.origin[0], c->box.origin[1],
                     c->box.origin[2]);
            return PS_EDEVICE;
        }
    }
    for (t = 0; t < nsteps; t++) {
        void *tmp;
        c->step(c, c->cur, c->next);
        tmp = c->cur;
        c->cur = c->next;
        c->next = tmp;
    }
    return PS_OK;
}

static int chk_finish(void *vc)
{
    (void)vc;
    return PS_OK;
}

static const char *chk_last_error(void *vc)
{
    chk_ctx *c = vc;
    return c ? c->err : "";
}

static ps_backend_ops chk_table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "check",
    .description = "the generic skeleton on the host as a plugin (make check only)",
    .priority = -1,
    .flags = 0,
    .fast_paths = NULL,
    .probe = chk_probe,
    .create = chk_create,
    .upload = chk_upload,
    .step = chk_step,
    .finish = chk_finish,
    .download = chk_download,
    .timing = NULL,
    .destroy = chk_destroy,
    .last_error = chk_last_error,
};

__attribute__((destructor)) static void chk_unload(void)
{
    const char *fail = getenv("PSTENCIL_CHECK_FAIL_STEP");
    if (fail && *fail)
        fprintf(stderr, "check: %ld contexts live at unload\n",
                __atomic_load_n(&chk_live, __ATOMIC_SEQ_CST));
}

const ps_backend_ops *ps_backend_plugin_entry(void);
const ps_backend_ops *ps_backend_plugin_entry(void)
{
    const char *p = getenv("PSTENCIL_CHECK_PRIORITY"), *f = getenv("PSTENCIL_CHECK_FLAGS");
    if (p && *p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (!*end && v >= INT_MIN && v <= INT_MAX)
            chk_table.priority = (int)v;
    }
    if (f) {
        chk_table.flags = 0;
        if (strstr(f, "gpu"))
            chk_table.flags |= PS_BACKEND_GPU;
        if (strstr(f, "noauto"))
            chk_table.flags |= PS_BACKEND_NOAUTO;
        if (strstr(f, "threads")) /* accepted, ignored: one thread per context */
            chk_table.flags |= PS_BACKEND_THREADS;
        if (strstr(f, "concurrent"))
            chk_table.flags |= PS_BACKEND_CONCURRENT;
    }
    return &chk_table;
}
