/*
 * The opencl plugin through the loader (ps_backend_open("opencl")): for every
 * stencil of the registry (kernels/ps_stencils.h), exact mode bitwise equal
 * to the reference backend on several grids (3x3x3, 5x7x13, 17x129x257, a
 * half-land random mask, isolated ocean cells in land, extremes: +-1e30,
 * subnormals, -0.0), float32 and float64, after 1, 2, 7 and 50 steps, with
 * both device buffers and every host output poisoned first, on the generic
 * kernels and, for a stencil the plugin lists as a fast path, on the fast
 * path too; boxes with a nonzero origin inside a larger global grid (ghost
 * layers, some faces global), equal to the reference on the same box and,
 * outside the ghost layers, to the whole-grid run; region upload/download;
 * the land-sum form's region uploads and downloads between steps;
 * profiling; fast mode within a bound with the NaN mask intact for every
 * stencil; errors for bad devices, local sizes and boxes.
 *
 *   test_opencl                  the suite (exit 77: plugin not built or no device)
 *   test_opencl --block X,Y,Z    the same with a forced work-group shape
 *   test_opencl --build-fails    run with PSTENCIL_OPENCL_BUILD_OPTIONS breaking the
 *                                program: create must fail with the build log
 *   test_opencl --no-platform    run with OCL_ICD_VENDORS pointing to an empty
 *                                directory: probe and create must fail with
 *                                PS_ENODEVICE naming the missing platform
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int block[3];

typedef enum { FILL_OCEAN, FILL_MASK50, FILL_ISOLATED, FILL_EXTREME } fill_kind;

static uint64_t rng_state;
static double rnd(void) /* deterministic, in [0, 1) */
{
    rng_state = rng_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

/* The input, result and expected fields of a check, allocated and freed together. */
static int alloc_trio(ps_field *in, ps_field *got, ps_field *want, ps_grid g, ps_precision p)
{
    return ps_field_alloc(in, g, p) || ps_field_alloc(got, g, p) || ps_field_alloc(want, g, p);
}

static void free_trio(ps_field *in, ps_field *got, ps_field *want)
{
    ps_field_free(in);
    ps_field_free(got);
    ps_field_free(want);
}

static void fill(ps_field *f, fill_kind kind, uint64_t seed)
{
    size_t n = ps_field_cells(f), q;
    const ps_grid *g = &f->grid;
    rng_state = seed;
    for (q = 0; q < n; q++) {
        size_t i = q % g->nx, j = (q / g->nx) % g->ny, k = q / (g->nx * g->ny);
        double v = 28.0 - 0.5 * (double)k + 4.0 * rnd(), r = rnd();
        float vf;
        switch (kind) {
        case FILL_OCEAN: /* land blobs: a sloping seabed and a coast */
            if ((double)k > 2.0 + 0.7 * (double)g->nz * (0.5 + 0.5 * sin(0.1 * (double)i)) ||
                (j + i) % 17 == 3)
                v = NAN;
            break;
        case FILL_MASK50:
            if (r < 0.5)
                v = NAN;
            break;
        case FILL_ISOLATED: /* land with isolated ocean cells (no ocean neighbour within
                               radius 2 along i, 1 along j and k), and one ocean row */
            if (!(k % 2 == 0 && j % 2 == 0 && i % 3 == 0) && !(k == 1 && j == 1))
                v = NAN;
            break;
        case FILL_EXTREME:
            if (r < 0.15)
                v = 1e30;
            else if (r < 0.3)
                v = -1e30;
            else if (r < 0.45)
                v = f->precision == PS_FLOAT64 ? 4.9e-322 * (1 + (int)(r * 100)) : 1.4e-43 * (1 + (int)(r * 100));
            else if (r < 0.55)
                v = -0.0;
            else if (r < 0.6)
                v = f->precision == PS_FLOAT64 ? -2.2e-308 : -1.17e-38; /* near the smallest normal */
            else if (r < 0.7)
                v = NAN;
            break;
        }
        if (f->precision == PS_FLOAT64) {
            ((double *)f->data)[q] = v;
        } else {
            vf = (float)v;
            ((float *)f->data)[q] = vf;
        }
    }
}

static void poison(void *p, size_t bytes)
{
    memset(p, 0xa5, bytes); /* a value neither backend produces from the inputs */
}

/*
 * A stencil's parameters on global grid @p g with its default options; the
 * grid's coordinates are synthetic (depth 5 + 10 q^2 m, latitude 40 + 0.25 q,
 * longitude -10 + 0.25 q degrees), so hdiff gets coefficients that vary along
 * k and j. Stencils that need no coordinates ignore them.
 */
static int prepare(const ps_stencil *s, ps_grid g, ps_params *out)
{
    int st;
    memset(out, 0, sizeof *out);
    st = ps_test_params(s, g, out);
    if (st)
        FAILF("prepare %s on %zux%zux%zu: %s", s->name, g.nz, g.ny, g.nx, ps_error_detail());
    return st;
}

/*
 * The config every context of one comparison shares: stencil @p s with its
 * parameters for @p global, the generic skeleton if @p generic, the whole grid
 * (box NULL) or @p box. Free with ps_params_free(&cfg->params).
 */
static int base_config(ps_config *cfg, const ps_stencil *s, ps_grid global, ps_precision p,
                       int generic, const ps_box *box)
{
    ps_config_init(cfg, global, p);
    ps_params_free(&cfg->params);
    cfg->stencil = s;
    cfg->kernel = generic ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
    if (box)
        cfg->box = *box;
    return prepare(s, global, &cfg->params);
}

/*
 * Open a context of config @p base (mode and profiling set here), with both
 * device buffers poisoned before @p in (the box's cells) is uploaded.
 */
static ps_context *open_ctx(ps_backend *b, const ps_config *base, const ps_field *in,
                            ps_mode mode, int profile)
{
    ps_config cfg = *base;
    ps_context *ctx = NULL;
    size_t bytes = ps_field_cells(in) * ps_precision_size(in->precision);
    void *junk = malloc(bytes);
    cfg.mode = mode;
    cfg.profile = profile;
    if (strcmp(ps_backend_name(b), "reference")) {
        cfg.block[0] = block[0];
        cfg.block[1] = block[1];
        cfg.block[2] = block[2];
    }
    if (!junk || ps_context_create(b, &cfg, &ctx)) {
        FAILF("%s create %s %zux%zux%zu %s: %s", ps_backend_name(b), cfg.stencil->name,
              in->grid.nz, in->grid.ny, in->grid.nx, ps_precision_name(in->precision),
              ps_error_detail());
        free(junk);
        return NULL;
    }
    poison(junk, bytes);
    /* the poison is copied by a step into the other buffer: both poisoned */
    if (ps_context_upload(ctx, junk, NULL) || ps_context_step(ctx, 1) ||
        ps_context_upload(ctx, in->data, NULL)) {
        FAILF("%s upload: %s", ps_backend_name(b), ps_error_detail());
        ps_context_destroy(ctx);
        ctx = NULL;
    }
    free(junk);
    return ctx;
}

static void first_diff(const ps_field *a, const ps_field *b, char *buf, size_t len)
{
    size_t n = ps_field_cells(a), q, es = ps_precision_size(a->precision), nd = 0, first = 0;
    const ps_grid *g = &a->grid;
    for (q = 0; q < n; q++)
        if (memcmp((const char *)a->data + q * es, (const char *)b->data + q * es, es)) {
            if (!nd)
                first = q;
            nd++;
        }
    if (a->precision == PS_FLOAT64)
        snprintf(buf, len, "%zu cells differ, first at (%zu,%zu,%zu): opencl %a reference %a",
                 nd, first / (g->ny * g->nx), first / g->nx % g->ny, first % g->nx,
                 ((double *)a->data)[first], ((double *)b->data)[first]);
    else
        snprintf(buf, len, "%zu cells differ, first at (%zu,%zu,%zu): opencl %a reference %a",
                 nd, first / (g->ny * g->nx), first / g->nx % g->ny, first % g->nx,
                 (double)((float *)a->data)[first], (double)((float *)b->data)[first]);
}

/* "diffusion7 generic", "diffusion7 fast path", "hdiff" */
static const char *path_name(const ps_config *cfg, int fast_listed, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", cfg->stencil->name,
             !fast_listed ? "" : cfg->kernel == PS_KERNEL_GENERIC ? " generic" : " fast path");
    return buf;
}

/* Exact mode: bitwise equal to the reference after 1, 2, 7, 50 steps. */
static void check_exact(ps_backend *ocl, ps_backend *ref, const ps_config *base,
                        fill_kind kind, const char *label, const char *path)
{
    static const long at[] = {1, 2, 7, 50};
    ps_grid g = base->box.extent;
    ps_precision p = base->precision;
    ps_field in = {0}, got = {0}, want = {0};
    ps_context *co = NULL, *cr = NULL, *once = NULL;
    size_t bytes;
    long done = 0;
    size_t s;
    char why[256];

    if (alloc_trio(&in, &got, &want, g, p)) {
        FAILF("alloc %s", label);
        goto done;
    }
    bytes = ps_field_cells(&in) * ps_precision_size(p);
    fill(&in, kind, 12345 + g.nx);
    co = open_ctx(ocl, base, &in, PS_MODE_EXACT, 0);
    cr = open_ctx(ref, base, &in, PS_MODE_EXACT, 0);
    if (!co || !cr)
        goto done;
    for (s = 0; s < sizeof at / sizeof at[0]; s++) {
        if (ps_context_step(co, at[s] - done) || ps_context_step(cr, at[s] - done)) {
            FAILF("%s %s %s step: %s", path, label, ps_precision_name(p), ps_error_detail());
            goto done;
        }
        done = at[s];
        poison(got.data, bytes);
        poison(want.data, bytes);
        if (ps_context_download(co, got.data, NULL) || ps_context_download(cr, want.data, NULL)) {
            FAILF("%s %s download: %s", path, label, ps_error_detail());
            goto done;
        }
        if (memcmp(got.data, want.data, bytes)) {
            first_diff(&got, &want, why, sizeof why);
            FAILF("%s %s %s exact, %ld steps: %s", path, label, ps_precision_name(p), done, why);
        }
    }
    /* 50 steps in one call on a fresh context give the same bits */
    once = open_ctx(ocl, base, &in, PS_MODE_EXACT, 0);
    if (!once)
        goto done;
    poison(got.data, bytes);
    if (ps_context_step(once, 50) || ps_context_finish(once) ||
        ps_context_download(once, got.data, NULL))
        FAILF("%s %s 50 steps at once: %s", path, label, ps_error_detail());
    else if (memcmp(got.data, want.data, bytes)) {
        first_diff(&got, &want, why, sizeof why);
        FAILF("%s %s %s exact, 50 steps in one call: %s", path, label, ps_precision_name(p),
              why);
    }
done:
    ps_context_destroy(co);
    ps_context_destroy(cr);
    ps_context_destroy(once);
    free_trio(&in, &got, &want);
}

/* Copy box @p b of the global field @p whole into @p box (its cells, C order), or back. */
static void box_copy(ps_field *box, ps_field *whole, const ps_box *b, int to_box)
{
    size_t k, j, es = ps_precision_size(box->precision);
    for (k = 0; k < b->extent.nz; k++)
        for (j = 0; j < b->extent.ny; j++) {
            char *pb = (char *)box->data + ps_index(&box->grid, k, j, 0) * es;
            char *pw = (char *)whole->data +
                       ps_index(&whole->grid, b->origin[0] + k, b->origin[1] + j, b->origin[2]) *
                           es;
            if (to_box)
                memcpy(pb, pw, b->extent.nx * es);
            else
                memcpy(pw, pb, b->extent.nx * es);
        }
}

/*
 * A box of a larger global grid: @p ghost halo layers on each face that is not
 * a global boundary, the faces flagged from origin and extent. After @p steps
 * steps (steps * radius <= ghost) the opencl context on the box must equal the
 * reference on the same box in every cell, and the whole-grid reference run
 * in every cell outside the ghost layers (arrays indexed by global
 * coordinates: a wrong origin or global grid gives other bits).
 */
static void check_box(ps_backend *ocl, ps_backend *ref, const ps_stencil *st, int generic,
                      ps_precision p, ps_grid global, const size_t origin[3], ps_grid ext,
                      unsigned ghost, long steps, const char *path)
{
    ps_box box;
    ps_config whole_cfg, box_cfg;
    ps_field gin = {0}, gout = {0}, in = {0}, got = {0}, want = {0}, cut = {0};
    ps_context *co = NULL, *cr = NULL, *cw = NULL;
    size_t bytes, k, j, i, bad = 0;
    const size_t n[3] = {ext.nz, ext.ny, ext.nx}, gn[3] = {global.nz, global.ny, global.nx};
    unsigned lo[3], hi[3];
    char why[256], label[160];
    int a;

    memset(&whole_cfg, 0, sizeof whole_cfg);
    memset(&box_cfg, 0, sizeof box_cfg);
    memset(&box, 0, sizeof box);
    box.extent = ext;
    box.global = global;
    box.ghost = ghost;
    for (a = 0; a < 3; a++) {
        box.origin[a] = origin[a];
        if (origin[a] == 0)
            box.global_faces |= 1u << (2 * a);
        if (origin[a] + n[a] == gn[a])
            box.global_faces |= 1u << (2 * a + 1);
        lo[a] = origin[a] == 0 ? 0 : ghost;
        hi[a] = origin[a] + n[a] == gn[a] ? 0 : ghost;
    }
    snprintf(label, sizeof label, "%s %s box %zux%zux%zu at (%zu,%zu,%zu) of %zux%zux%zu, "
             "ghost %u, %ld steps", path, ps_precision_name(p), ext.nz, ext.ny, ext.nx,
             origin[0], origin[1], origin[2], global.nz, global.ny, global.nx, ghost, steps);
    if (base_config(&whole_cfg, st, global, p, generic, NULL) ||
        base_config(&box_cfg, st, global, p, generic, &box))
        goto done;
    if (ps_field_alloc(&gin, global, p) || ps_field_alloc(&gout, global, p) ||
        alloc_trio(&in, &got, &want, ext, p) || ps_field_alloc(&cut, ext, p)) {
        FAILF("alloc %s", label);
        goto done;
    }
    bytes = ps_field_cells(&in) * ps_precision_size(p);
    fill(&gin, FILL_OCEAN, 4242);
    box_copy(&in, &gin, &box, 1);
    co = open_ctx(ocl, &box_cfg, &in, PS_MODE_EXACT, 0);
    cr = open_ctx(ref, &box_cfg, &in, PS_MODE_EXACT, 0);
    cw = open_ctx(ref, &whole_cfg, &gin, PS_MODE_EXACT, 0);
    if (!co || !cr || !cw)
        goto done;
    poison(got.data, bytes);
    poison(want.data, bytes);
    if (ps_context_step(co, steps) || ps_context_step(cr, steps) || ps_context_step(cw, steps) ||
        ps_context_download(co, got.data, NULL) || ps_context_download(cr, want.data, NULL) ||
        ps_context_download(cw, gout.data, NULL)) {
        FAILF("%s: %s", label, ps_error_detail());
        goto done;
    }
    if (memcmp(got.data, want.data, bytes)) {
        first_diff(&got, &want, why, sizeof why);
        FAILF("%s: differs from the reference on the same box: %s", label, why);
    }
    /* outside the ghost layers, the box holds the whole-grid result */
    box_copy(&cut, &gout, &box, 1);
    for (k = lo[0]; k < ext.nz - hi[0]; k++)
        for (j = lo[1]; j < ext.ny - hi[1]; j++)
            for (i = lo[2]; i < ext.nx - hi[2]; i++) {
                size_t q = ps_index(&ext, k, j, i), es = ps_precision_size(p);
                if (memcmp((char *)got.data + q * es, (char *)cut.data + q * es, es) && !bad++)
                    FAILF("%s: cell (%zu,%zu,%zu) differs from the whole-grid run", label, k, j,
                          i);
            }
done:
    ps_context_destroy(co);
    ps_context_destroy(cr);
    ps_context_destroy(cw);
    ps_params_free(&whole_cfg.params);
    ps_params_free(&box_cfg.params);
    ps_field_free(&gin);
    ps_field_free(&gout);
    free_trio(&in, &got, &want);
    ps_field_free(&cut);
}

/* Fast mode: same NaN mask, small relative error. */
static void check_fast(ps_backend *ocl, ps_backend *ref, const ps_config *base, long steps,
                       const char *path)
{
    ps_grid g = base->box.extent;
    ps_precision p = base->precision;
    ps_field in = {0}, got = {0}, want = {0};
    ps_context *co = NULL, *cr = NULL;
    size_t q, n;
    double worst = 0, bound = p == PS_FLOAT64 ? 1e-13 : 1e-5;
    if (alloc_trio(&in, &got, &want, g, p))
        goto done;
    n = ps_field_cells(&in);
    fill(&in, FILL_OCEAN, 777);
    co = open_ctx(ocl, base, &in, PS_MODE_FAST, 0);
    cr = open_ctx(ref, base, &in, PS_MODE_EXACT, 0);
    if (!co || !cr)
        goto done;
    if (ps_context_step(co, steps) || ps_context_step(cr, steps) ||
        ps_context_download(co, got.data, NULL) || ps_context_download(cr, want.data, NULL)) {
        FAILF("%s fast mode run: %s", path, ps_error_detail());
        goto done;
    }
    for (q = 0; q < n; q++) {
        double a = p == PS_FLOAT64 ? ((double *)got.data)[q] : ((float *)got.data)[q];
        double w = p == PS_FLOAT64 ? ((double *)want.data)[q] : ((float *)want.data)[q];
        if (isnan(a) != isnan(w)) {
            FAILF("%s fast mode %s: NaN mask differs at cell %zu (%g vs %g)", path,
                  ps_precision_name(p), q, a, w);
            goto done;
        }
        if (!isnan(a) && fabs(a - w) / (1.0 + fabs(w)) > worst)
            worst = fabs(a - w) / (1.0 + fabs(w));
    }
    if (worst > bound)
        FAILF("%s fast mode %s, %ld steps: relative error %g > %g", path, ps_precision_name(p),
              steps, worst, bound);
    else
        printf("%s fast mode %s, %ld steps: max relative error %g\n", path, ps_precision_name(p),
               steps, worst);
done:
    ps_context_destroy(co);
    ps_context_destroy(cr);
    free_trio(&in, &got, &want);
}

static void check_regions(ps_backend *ocl)
{
    ps_grid g = {4, 5, 6};
    ps_config cfg;
    ps_context *ctx = NULL;
    ps_region r = {{1, 2, 3}, {2, 3, 2}};
    double zero[120] = {0}, blk[12], back[12], all[120];
    size_t k, j, i, q = 0;
    for (q = 0; q < 12; q++)
        blk[q] = 1.0 + (double)q;
    ps_config_init(&cfg, g, PS_FLOAT64);
    if (ps_context_create(ocl, &cfg, &ctx)) {
        FAILF("region create: %s", ps_error_detail());
        return;
    }
    if (ps_context_upload(ctx, zero, NULL) || ps_context_upload(ctx, blk, &r) ||
        ps_context_download(ctx, all, NULL) || ps_context_download(ctx, back, &r)) {
        FAILF("region copies: %s", ps_error_detail());
        goto done;
    }
    if (memcmp(blk, back, sizeof blk))
        FAILF("region round trip differs");
    q = 0;
    for (k = 0; k < 4; k++)
        for (j = 0; j < 5; j++)
            for (i = 0; i < 6; i++) {
                int in = k >= 1 && k < 3 && j >= 2 && j < 5 && i >= 3 && i < 5;
                double want = in ? blk[((k - 1) * 3 + (j - 2)) * 2 + (i - 3)] : 0.0;
                if (all[ps_index(&g, k, j, i)] != want) {
                    if (!q++)
                        FAILF("region upload: cell (%zu,%zu,%zu) = %g, expected %g", k, j, i,
                              all[ps_index(&g, k, j, i)], want);
                }
            }
    r.start[2] = 5;
    if (ps_context_upload(ctx, blk, &r) != PS_ERANGE)
        FAILF("a region outside the box was accepted");
    else if (!strstr(ps_error_detail(), "outside box"))
        FAILF("region error does not say why: %s", ps_error_detail());
done:
    ps_context_destroy(ctx);
}

/*
 * The land-sum form on the row kernel (the CPU default for diffusion7, a
 * land-sum stencil): region uploads between steps that turn ocean into land
 * and land into ocean, a region download, then a region holding 1e37 (a
 * value near float's range), each bitwise the reference's. On a device without the row
 * default the same checks run on its kernels.
 */
static void check_land_sum(ps_backend *ocl, ps_backend *ref)
{
    ps_grid g = {6, 9, 14};
    ps_region r = {{1, 2, 3}, {2, 3, 4}};
    ps_config base;
    ps_field in = {0}, got = {0}, want = {0};
    ps_context *co = NULL, *cr = NULL;
    float blk[24], bgot[24], bwant[24];
    size_t bytes, q;
    int round;
    char why[256];
    if (base_config(&base, ps_stencil_find("diffusion7"), g, PS_FLOAT32, 0, NULL))
        return;
    if (alloc_trio(&in, &got, &want, g, PS_FLOAT32)) {
        FAILF("alloc land-sum");
        goto done;
    }
    bytes = ps_field_cells(&in) * sizeof(float);
    fill(&in, FILL_OCEAN, 777);
    co = open_ctx(ocl, &base, &in, PS_MODE_EXACT, 0);
    cr = open_ctx(ref, &base, &in, PS_MODE_EXACT, 0);
    if (!co || !cr)
        goto done;
    for (round = 0; round < 3; round++) {
        for (q = 0; q < 24; q++)
            blk[q] = (q + (size_t)round) % 5 == 0 ? NAN : 10.0f + (float)q;
        if (round == 2)
            blk[7] = 1e37f;
        if (ps_context_step(co, 3) || ps_context_step(cr, 3) ||
            ps_context_download(co, bgot, &r) || ps_context_download(cr, bwant, &r) ||
            ps_context_upload(co, blk, &r) || ps_context_upload(cr, blk, &r) ||
            ps_context_step(co, 2) || ps_context_step(cr, 2)) {
            FAILF("land-sum round %d: %s", round, ps_error_detail());
            goto done;
        }
        if (memcmp(bgot, bwant, sizeof bgot))
            FAILF("land-sum round %d: region download differs", round);
        poison(got.data, bytes);
        poison(want.data, bytes);
        if (ps_context_download(co, got.data, NULL) || ps_context_download(cr, want.data, NULL)) {
            FAILF("land-sum download: %s", ps_error_detail());
            goto done;
        }
        if (memcmp(got.data, want.data, bytes)) {
            first_diff(&got, &want, why, sizeof why);
            FAILF("land-sum round %d: %s", round, why);
        }
    }
done:
    ps_context_destroy(co);
    ps_context_destroy(cr);
    free_trio(&in, &got, &want);
    ps_params_free(&base.params);
}

/*
 * Profiling: every step timed, also across the 4096-launch bound where
 * step() waits for the device and reads the events so far; the long run is
 * still bitwise the reference's.
 */
static void check_profile(ps_backend *ocl, ps_backend *ref)
{
    ps_grid g = {6, 20, 40};
    ps_field in = {0}, got = {0}, want = {0};
    ps_context *ctx = NULL, *cr = NULL;
    ps_config cfg;
    ps_timing t;
    const long steps = 4200;
    ps_config_init(&cfg, g, PS_FLOAT32);
    if (alloc_trio(&in, &got, &want, g, PS_FLOAT32))
        goto done;
    fill(&in, FILL_OCEAN, 5);
    ctx = open_ctx(ocl, &cfg, &in, PS_MODE_EXACT, 1);
    cr = open_ctx(ref, &cfg, &in, PS_MODE_EXACT, 0);
    if (!ctx || !cr)
        goto done;
    if (ps_context_step(ctx, 5) || ps_context_finish(ctx) || ps_context_timing(ctx, &t)) {
        FAILF("profiling: %s", ps_error_detail());
        goto done;
    }
    if (t.steps != 6 /* 1 poison step + 5 */ || !(t.step_ms_min <= t.step_ms_med) ||
        !(t.step_ms_med <= t.step_ms_max) || !(t.step_ms_sum > 0) ||
        /* two field buffers and the parameter buffer (diffusion7: D) */
        t.device_bytes != (2 * ps_field_cells(&in) + 1) * sizeof(float))
        FAILF("timing: steps %ld min %g med %g max %g sum %g bytes %llu", t.steps, t.step_ms_min,
              t.step_ms_med, t.step_ms_max, t.step_ms_sum, (unsigned long long)t.device_bytes);
    if (ps_context_step(ctx, steps - 5) || ps_context_step(cr, steps) ||
        ps_context_download(ctx, got.data, NULL) || ps_context_download(cr, want.data, NULL) ||
        ps_context_timing(ctx, &t)) {
        FAILF("profiled %ld steps: %s", steps, ps_error_detail());
        goto done;
    }
    if (t.steps != steps + 1)
        FAILF("timing counted %ld steps, expected %ld", t.steps, steps + 1);
    if (memcmp(got.data, want.data, ps_field_cells(&in) * sizeof(float)))
        FAILF("%ld profiled steps differ from the reference", steps);
done:
    ps_context_destroy(ctx);
    ps_context_destroy(cr);
    ps_params_free(&cfg.params);
    free_trio(&in, &got, &want);
}

static void check_errors(ps_backend *ocl, int ndev)
{
    ps_grid g = {3, 3, 3};
    ps_config cfg;
    ps_context *ctx = NULL;
    int st;
    ps_config_init(&cfg, g, PS_FLOAT32);
    cfg.device = ndev; /* one past the end */
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st != PS_ENODEVICE || !strstr(ps_error_detail(), "does not exist"))
        FAILF("device %d: status %d (%s)", ndev, st, ps_error_detail());
    ps_context_destroy(ctx);
    ctx = NULL;
    cfg.device = -1;
    setenv("PSTENCIL_OPENCL_DEVICE", "zero", 1);
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st != PS_EINVAL || !strstr(ps_error_detail(), "PSTENCIL_OPENCL_DEVICE"))
        FAILF("bad PSTENCIL_OPENCL_DEVICE: status %d (%s)", st, ps_error_detail());
    ps_context_destroy(ctx);
    ctx = NULL;
    setenv("PSTENCIL_OPENCL_DEVICE", "99:0", 1);
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st != PS_ENODEVICE)
        FAILF("PSTENCIL_OPENCL_DEVICE=99:0: status %d (%s)", st, ps_error_detail());
    ps_context_destroy(ctx);
    ctx = NULL;
    setenv("PSTENCIL_OPENCL_DEVICE", "0:0", 1);
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st)
        FAILF("PSTENCIL_OPENCL_DEVICE=0:0: %s", ps_error_detail());
    ps_context_destroy(ctx);
    ctx = NULL;
    unsetenv("PSTENCIL_OPENCL_DEVICE");
    cfg.block[0] = 1 << 20;
    cfg.block[1] = 1;
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st != PS_EINVAL || !strstr(ps_error_detail(), "local size"))
        FAILF("local size 2^20: status %d (%s)", st, ps_error_detail());
    ps_context_destroy(ctx);
    ctx = NULL;
    /* a box with an inner face and no ghost layers: refused by the config check */
    cfg.block[0] = cfg.block[1] = 0;
    cfg.box.global = (ps_grid){3, 3, 6};
    cfg.box.origin[2] = 3;
    cfg.box.global_faces = PS_FACE_ALL & ~PS_FACE_I_LO;
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st != PS_EINVAL || !strstr(ps_error_detail(), "ghost"))
        FAILF("a box with no ghost layers on an inner face: status %d (%s)", st,
              ps_error_detail());
    ps_context_destroy(ctx);
    ctx = NULL;
    /* a box outside its global grid */
    cfg.box.ghost = 1;
    cfg.box.origin[2] = 4;
    st = ps_context_create(ocl, &cfg, &ctx);
    if (st != PS_EINVAL || !strstr(ps_error_detail(), "outside the global grid"))
        FAILF("a box outside the global grid: status %d (%s)", st, ps_error_detail());
    ps_context_destroy(ctx);
}

static int parse_block(const char *s)
{
    int n = sscanf(s, "%d,%d,%d", &block[0], &block[1], &block[2]);
    return n >= 2 ? 0 : -1;
}

/* Open the opencl plugin into @p b: 0, else the exit status (77: not built, 1: fails to open). */
static int open_opencl(ps_backend **b)
{
    if (!ps_backend_is_built("opencl")) {
        printf("SKIP: the opencl plugin was not built\n");
        return 77;
    }
    if (ps_backend_open("opencl", b)) {
        printf("FAIL: open opencl: %s\n", ps_error_detail());
        return 1;
    }
    return 0;
}

/* With no vendor driver: probe and create fail, saying there is no platform. */
static int no_platform(void)
{
    ps_backend *b = NULL;
    ps_device_info devs[4];
    ps_config cfg;
    ps_context *ctx = NULL;
    ps_grid g = {3, 3, 3};
    int st, n = -1;
    if ((st = open_opencl(&b)))
        return st;
    st = ps_backend_probe(b, devs, 4, &n);
    printf("probe: %s\n", ps_error_detail());
    if (st != PS_ENODEVICE || n != 0)
        FAILF("probe without a platform: status %d, %d devices", st, n);
    if (!strstr(ps_error_detail(), "no OpenCL platform") ||
        !strstr(ps_error_detail(), "CL_PLATFORM_NOT_FOUND_KHR"))
        FAILF("probe reason does not name the missing platform: %s", ps_error_detail());
    ps_config_init(&cfg, g, PS_FLOAT32);
    st = ps_context_create(b, &cfg, &ctx);
    printf("create: %s\n", ps_error_detail());
    if (st != PS_ENODEVICE || !strstr(ps_error_detail(), "no OpenCL platform"))
        FAILF("create without a platform: status %d (%s)", st, ps_error_detail());
    ps_context_destroy(ctx);
    ps_backend_close(b);
    return ps_test_failures ? 1 : 0;
}

/* With a program that cannot compile: create fails with the build log. */
static int build_fails(void)
{
    ps_backend *b = NULL;
    ps_device_info devs[4];
    ps_config cfg;
    ps_context *ctx = NULL;
    ps_grid g = {3, 3, 3};
    int st, n = 0;
    if ((st = open_opencl(&b)))
        return st;
    if (ps_backend_probe(b, devs, 4, &n)) {
        printf("SKIP: %s\n", ps_error_detail());
        return 77;
    }
    ps_config_init(&cfg, g, PS_FLOAT32);
    st = ps_context_create(b, &cfg, &ctx);
    printf("create: %s\n", ps_error_detail());
    if (st != PS_EDEVICE || !strstr(ps_error_detail(), "CL_BUILD_PROGRAM_FAILURE") ||
        !strstr(ps_error_detail(), "build log:"))
        FAILF("a failed program build: status %d, no build log in the message", st);
    ps_context_destroy(ctx);
    cfg.mode = PS_MODE_EXACT;
    setenv("PSTENCIL_OPENCL_BUILD_OPTIONS", "-cl-fast-relaxed-math", 1);
    st = ps_context_create(b, &cfg, &ctx);
    if (st != PS_EINVAL || !strstr(ps_error_detail(), "breaks exact mode"))
        FAILF("exact mode accepted -cl-fast-relaxed-math: status %d (%s)", st,
              ps_error_detail());
    ps_backend_close(b);
    return ps_test_failures ? 1 : 0;
}

/* Whether the plugin lists a fast path for @p name. */
static int fast_listed(const ps_backend *b, const char *name)
{
    const char *const *f = ps_backend_get_ops(b)->fast_paths;
    for (; f && *f; f++)
        if (!strcmp(*f, name))
            return 1;
    return 0;
}

/*
 * Every check that compares with the reference, for stencil @p st in
 * precision @p p on one path (@p generic: the generic kernels even where a
 * fast path exists).
 */
static void check_stencil(ps_backend *ocl, ps_backend *ref, const ps_stencil *st,
                          ps_precision p, int generic, int exact)
{
    static const struct {
        ps_grid g;
        fill_kind kind;
        const char *label;
    } cases[] = {
        {{3, 3, 3}, FILL_OCEAN, "3x3x3"},
        {{5, 7, 13}, FILL_OCEAN, "5x7x13"},
        {{17, 129, 257}, FILL_OCEAN, "17x129x257"},
        {{11, 13, 17}, FILL_MASK50, "11x13x17 random half-land mask"},
        {{7, 8, 19}, FILL_ISOLATED, "7x8x19 isolated ocean cells in land"},
        {{9, 10, 33}, FILL_EXTREME, "9x10x33 extremes (+-1e30, subnormals, -0.0)"},
    };
    /* boxes with 2 x radius ghost layers and 3, 5, 7 cells inside them, in a grid
       with 3, 4, 6 more cells on either side */
    const unsigned ghost = 2 * (unsigned)st->radius;
    const ps_grid ext = {2 * ghost + 3, 2 * ghost + 5, 2 * ghost + 7};
    const ps_grid global = {ext.nz + 6, ext.ny + 8, ext.nx + 12};
    const size_t inner[3] = {3, 4, 6}, corner[3] = {0, 4, global.nx - ext.nx};
    ps_config cfg;
    char path[128];
    size_t c;
    int listed = fast_listed(ocl, st->name);

    memset(&cfg, 0, sizeof cfg);
    cfg.stencil = st;
    cfg.kernel = generic ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
    path_name(&cfg, listed, path, sizeof path);
    if (exact) {
        for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            if (base_config(&cfg, st, cases[c].g, p, generic, NULL))
                continue;
            check_exact(ocl, ref, &cfg, cases[c].kind, cases[c].label, path);
            ps_params_free(&cfg.params);
        }
        /* boxes: ghost = 2 radius, 2 steps; one inside, one on three global faces */
        check_box(ocl, ref, st, generic, p, global, inner, ext, ghost, 2, path);
        check_box(ocl, ref, st, generic, p, global, corner, ext, ghost, 2, path);
        printf("%s exact %s: %zu grids x {1,2,7,50} steps and 2 boxes compared\n", path,
               ps_precision_name(p), sizeof cases / sizeof cases[0]);
    }
    /* fast mode (float64 only where exact float64 runs: a device may lack fp64) */
    if ((exact || p == PS_FLOAT32) &&
        !base_config(&cfg, st, (ps_grid){17, 129, 257}, p, generic, NULL)) {
        check_fast(ocl, ref, &cfg, 50, path);
        ps_params_free(&cfg.params);
    }
}

int main(int argc, char **argv)
{
    ps_backend *ocl = NULL, *ref = NULL;
    ps_device_info devs[16];
    int ndev = 0, st, d, f64, si, nfast = 0, exact[2];

    if (argc > 1 && !strcmp(argv[1], "--no-platform"))
        return no_platform();
    if (argc > 1 && !strcmp(argv[1], "--build-fails"))
        return build_fails();
    if (argc > 2 && !strcmp(argv[1], "--block") && parse_block(argv[2])) {
        printf("FAIL: --block wants X,Y[,Z]\n");
        return 1;
    }
    if ((st = open_opencl(&ocl)))
        return st;
    st = ps_backend_probe(ocl, devs, 16, &ndev);
    if (st == PS_ENODEVICE) {
        printf("SKIP: %s\n", ps_error_detail());
        return 77;
    }
    if (st) {
        printf("FAIL: probe: %s\n", ps_error_detail());
        return 1;
    }
    for (d = 0; d < ndev; d++) {
        printf("device %d: %s [%s] %s, %llu MiB, %d CU, caps 0x%x\n", d, devs[d].name,
               devs[d].type, devs[d].detail, (unsigned long long)(devs[d].memory_bytes >> 20),
               devs[d].compute_units, devs[d].caps);
        if (strcmp(devs[d].type, "cpu") && strcmp(devs[d].type, "gpu") &&
            strcmp(devs[d].type, "accelerator") && strcmp(devs[d].type, "custom"))
            FAILF("device %d type '%s'", d, devs[d].type);
        if (!strstr(devs[d].detail, "platform ") || !strstr(devs[d].detail, "index "))
            FAILF("device %d detail lacks platform/index: %s", d, devs[d].detail);
        if (!(devs[d].caps & PS_CAP_FAST))
            FAILF("device %d has no fast mode", d);
    }
    if (ps_backend_open("reference", &ref)) {
        printf("FAIL: open reference: %s\n", ps_error_detail());
        return 1;
    }
    /* the default device is the one exact mode is checked on */
    for (f64 = 0; f64 < 2; f64++) {
        ps_config cfg;
        ps_context *probe_ctx = NULL;
        ps_config_init(&cfg, (ps_grid){3, 3, 3}, f64 ? PS_FLOAT64 : PS_FLOAT32);
        st = ps_context_create(ocl, &cfg, &probe_ctx);
        ps_context_destroy(probe_ctx);
        ps_params_free(&cfg.params);
        exact[f64] = st == PS_OK;
        if (st == PS_EUNSUPPORTED)
            printf("SKIP (%s exact): %s\n", f64 ? "float64" : "float32", ps_error_detail());
        else if (st)
            FAILF("create: %s", ps_error_detail());
    }
    /* every stencil of the registry; a listed fast path and its generic kernels both */
    for (si = 0; si < ps_stencil_count(); si++) {
        const ps_stencil *s = ps_stencil_at(si);
        int listed = fast_listed(ocl, s->name);
        nfast += listed;
        for (f64 = 0; f64 < 2; f64++) {
            check_stencil(ocl, ref, s, f64 ? PS_FLOAT64 : PS_FLOAT32, 0, exact[f64]);
            if (listed)
                check_stencil(ocl, ref, s, f64 ? PS_FLOAT64 : PS_FLOAT32, 1, exact[f64]);
        }
    }
    /* the plugin has a fast path (diffusion7's tuned kernels): it must be checked */
    if (!nfast)
        FAILF("the opencl plugin lists no fast path among the %d stencils", ps_stencil_count());
    check_regions(ocl);
    check_land_sum(ocl, ref);
    check_profile(ocl, ref);
    check_errors(ocl, ndev);
    ps_backend_close(ocl);
    ps_backend_close(ref);
    if (ps_test_failures) {
        printf("%d failure(s)\n", ps_test_failures);
        return 1;
    }
    printf("opencl backend: ok\n");
    return 0;
}
