/*
 * A device backend's generic kernels against the reference, bitwise, on the
 * inputs that tell the land-sum form (land as +0.0, count bytes, land's NaN
 * kept on the host) from the masked one: every stencil of the registry (the
 * land-sum ones and the others, which must be unchanged), float32 and
 * float64, the whole grid and a box at an origin inside a larger global
 * grid; land's NaNs with odd payloads (sign, quiet bits, many distinct ones),
 * an ocean -0.0; region uploads that turn ocean into land and land into ocean
 * between steps, and region downloads; a pair of values near the largest
 * finite one, whose sum overflows (inf in the ocean after one step, then a
 * NaN: the land-sum form must hand over to the masked one inside a step
 * call); and an ocean +inf and -inf (a NaN in the first step).
 *
 *   test_landsum_backend BACKEND   (opencl, gpumock, cuda, hip; exit 77: not here)
 *
 * The land-sum form is the backends' default; tests/backends/landsum.sh and
 * tests/gpu/landsum.sh run this with it off too (opencl_zero_land,
 * gpu_zero_land).
 *
 * Every cell is compared bit for bit, with one exception the numerical
 * contract states: a NaN the arithmetic makes in an ocean cell (inf - inf
 * after the overflow) carries the hardware's default NaN, which IEEE 754
 * leaves open (x86 0xffc00000, NVIDIA float32 0x7fffffff, Arm 0x7fc00000).
 * Such a cell must be NaN on both sides; a NaN the test gave (land) must come
 * back with its payload.
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;
static uint64_t next(void)
{
    rng = rng * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return rng >> 11;
}

/* cell q of f to v (double, converted) or to a NaN with payload bits @p pay */
static void set_val(ps_field *f, size_t q, double v)
{
    if (f->precision == PS_FLOAT32)
        ((float *)f->data)[q] = (float)v;
    else
        ((double *)f->data)[q] = v;
}

static void set_nan(ps_field *f, size_t q, uint64_t pay)
{
    if (f->precision == PS_FLOAT32) {
        uint32_t b = 0x7fc00000u | (uint32_t)(pay & 0x3fffffu) | (pay & 1 << 23 ? 0x80000000u : 0);
        memcpy((float *)f->data + q, &b, sizeof b);
    } else {
        uint64_t b = UINT64_C(0x7ff8000000000000) | (pay & UINT64_C(0x7ffffffffffff)) |
                     (pay & UINT64_C(1) << 52 ? UINT64_C(1) << 63 : 0);
        memcpy((double *)f->data + q, &b, sizeof b);
    }
}

/* ocean values in [-30, 30), 30% land with a NaN of odd payload every other time */
static void fill(ps_field *f, uint64_t seed)
{
    size_t q, n = ps_field_cells(f);
    rng = seed;
    for (q = 0; q < n; q++) {
        uint64_t r = next();
        if (r % 10 < 3)
            set_nan(f, q, r % 2 ? next() : 0);
        else
            set_val(f, q, -30.0 + 60.0 * (double)(next() % 100000) / 100000.0);
    }
    set_val(f, n / 2, -0.0);
}

/* the test's land: 1 where the test put a NaN (payload to keep), a byte a
 * cell of the box's extent given_ext */
static unsigned char *given;
static ps_grid given_ext;

/* the index in given[] of cell (k, j, i) of region @p r (NULL: the whole box,
 * whose q-th cell it is) */
static size_t given_at(const ps_region *r, size_t q, size_t k, size_t j, size_t i)
{
    return r ? ((r->start[0] + k) * given_ext.ny + r->start[1] + j) * given_ext.nx +
                   r->start[2] + i
             : q;
}

static void given_set(const ps_field *f, const ps_region *r)
{
    size_t es = ps_precision_size(f->precision), k, j, i, q = 0;
    const ps_grid g = f->grid;
    for (k = 0; k < g.nz; k++)
        for (j = 0; j < g.ny; j++)
            for (i = 0; i < g.nx; i++, q++) {
                const double v = es == 4 ? (double)((const float *)f->data)[q]
                                         : ((const double *)f->data)[q];
                given[given_at(r, q, k, j, i)] = v != v;
            }
}

static int is_nan(const void *p, size_t es)
{
    return es == 4 ? *(const float *)p != *(const float *)p
                   : *(const double *)p != *(const double *)p;
}

static uint64_t bits(const void *p, size_t es)
{
    uint32_t b32;
    uint64_t b64;
    if (es == 4) {
        memcpy(&b32, p, 4);
        return b32;
    }
    memcpy(&b64, p, 8);
    return b64;
}

/* @p got against @p want, cell by cell (@p r: they hold that region of the
 * box); 0 if every cell is bitwise equal or a NaN both made */
static int compare(const ps_field *got, const ps_field *want, const ps_region *r,
                   const char *label)
{
    size_t es = ps_precision_size(got->precision), n = ps_field_cells(got), q, made = 0;
    const ps_grid g = got->grid;
    for (q = 0; q < n; q++) {
        const char *a = (const char *)got->data + q * es, *b = (const char *)want->data + q * es;
        const size_t k = q / (g.ny * g.nx), j = q / g.nx % g.ny, i = q % g.nx;
        const size_t at = given_at(r, q, k, j, i);
        if (!memcmp(a, b, es))
            continue;
        if (is_nan(a, es) && is_nan(b, es) && !given[at]) {
            made++;
            continue;
        }
        FAILF("%s: differs from the reference at cell %zu (k,j,i)=(%zu,%zu,%zu)%s: got "
              "0x%llx, reference 0x%llx%s", label, q, k, j, i, r ? " of the region" : "",
              (unsigned long long)bits(a, es), (unsigned long long)bits(b, es),
              given[at] ? " (a given NaN: its payload must come back)" : "");
        return 1;
    }
    if (made)
        printf("note: %s: %zu NaN made by the arithmetic with the hardware's payload\n", label,
               made);
    return 0;
}

typedef struct pair {
    ps_context *dev, *ref;
    ps_field got, want;
} pair;

static void pair_close(pair *p)
{
    ps_context_destroy(p->dev);
    ps_context_destroy(p->ref);
    ps_field_free(&p->got);
    ps_field_free(&p->want);
    memset(p, 0, sizeof *p);
}

static int pair_open(pair *p, ps_backend *b, ps_backend *ref, const ps_config *cfg,
                     const ps_field *in)
{
    memset(p, 0, sizeof *p);
    if (ps_context_create(b, cfg, &p->dev) || ps_context_create(ref, cfg, &p->ref) ||
        ps_field_alloc(&p->got, in->grid, in->precision) ||
        ps_field_alloc(&p->want, in->grid, in->precision) ||
        ps_context_upload(p->dev, in->data, NULL) || ps_context_upload(p->ref, in->data, NULL)) {
        FAILF("create/upload %s: %s", cfg->stencil->name, ps_error_detail());
        pair_close(p);
        return 1;
    }
    return 0;
}

/* @p steps on both (in calls of @p per steps), then whole downloads compared */
static int pair_step(pair *p, long steps, long per, const char *label)
{
    long t;
    for (t = 0; t < steps; t += per)
        if (ps_context_step(p->dev, steps - t < per ? steps - t : per) ||
            ps_context_step(p->ref, steps - t < per ? steps - t : per)) {
            FAILF("%s: step: %s", label, ps_error_detail());
            return 1;
        }
    memset(p->got.data, 0x5a, ps_field_cells(&p->got) * ps_precision_size(p->got.precision));
    if (ps_context_download(p->dev, p->got.data, NULL) ||
        ps_context_download(p->ref, p->want.data, NULL)) {
        FAILF("%s: download: %s", label, ps_error_detail());
        return 1;
    }
    return compare(&p->got, &p->want, NULL, label);
}

/* a region of @p r's cells: ocean and odd-payload land, @p big: two cells near the
 * largest finite value next to each other along i */
static void region_fill(ps_field *f, uint64_t seed, int big)
{
    size_t q, n = ps_field_cells(f);
    const double max = f->precision == PS_FLOAT32 ? FLT_MAX : DBL_MAX;
    rng = seed;
    for (q = 0; q < n; q++) {
        uint64_t r = next();
        if (r % 3 == 0)
            set_nan(f, q, next());
        else
            set_val(f, q, 5.0 + (double)(r % 1000) / 100.0);
    }
    if (big) {
        set_val(f, n / 2, 0.75 * max);
        set_val(f, n / 2 + 1, 0.75 * max);
    }
}

/* "LABEL, WHAT": which part of a case a message is about */
static const char *phase(const char *label, const char *what)
{
    static char buf[300];
    snprintf(buf, sizeof buf, "%s, %s", label, what);
    return buf;
}

static void run_case(ps_backend *b, ps_backend *ref, const ps_stencil *s, ps_precision prec,
                     const ps_box *box)
{
    ps_config cfg;
    ps_field in = {0}, reg = {0}, rgot = {0}, rwant = {0};
    pair p = {0};
    const ps_grid ext = box ? box->extent : (ps_grid){9, 11, 23};
    const ps_grid glob = box ? box->global : ext;
    ps_region r = {{2, 3, 4}, {3, 4, 9}};
    char label[200];
    snprintf(label, sizeof label, "%s %s %s", s->name, ps_precision_name(prec),
             box ? "box" : "whole");
    ps_config_init(&cfg, glob, prec);
    ps_params_free(&cfg.params);
    cfg.stencil = s;
    cfg.kernel = PS_KERNEL_GENERIC;
    cfg.mode = PS_MODE_EXACT;
    if (box)
        cfg.box = *box;
    if (ps_test_params(s, glob, &cfg.params))
        return;
    if (ps_field_alloc(&in, ext, prec) || ps_field_alloc(&reg, r.count, prec) ||
        ps_field_alloc(&rgot, r.count, prec) || ps_field_alloc(&rwant, r.count, prec)) {
        FAILF("%s: alloc", label);
        goto done;
    }
    given_ext = ext;
    free(given);
    if (!(given = calloc(ps_field_cells(&in), 1))) {
        FAILF("%s: alloc", label);
        goto done;
    }
    fill(&in, 11 + (uint64_t)s->id);
    given_set(&in, NULL);
    if (pair_open(&p, b, ref, &cfg, &in))
        goto done;
    if (pair_step(&p, 2, 2, phase(label, "the first 2 steps")))
        goto done;
    /* ocean to land and land to ocean, odd payloads, then region downloads */
    region_fill(&reg, 5, 0);
    given_set(&reg, &r);
    if (ps_context_upload(p.dev, reg.data, &r) || ps_context_upload(p.ref, reg.data, &r) ||
        pair_step(&p, 3, 1, phase(label, "3 steps after a region upload")))
        goto done;
    if (ps_context_download(p.dev, rgot.data, &r) || ps_context_download(p.ref, rwant.data, &r)) {
        FAILF("%s: region download: %s", label, ps_error_detail());
        goto done;
    }
    if (compare(&rgot, &rwant, &r, phase(label, "the region download")))
        goto done;
    /* an overflow: inf after one step, NaN after two, in one call of 6 */
    region_fill(&reg, 6, 1);
    given_set(&reg, &r);
    if (ps_context_upload(p.dev, reg.data, &r) || ps_context_upload(p.ref, reg.data, &r) ||
        pair_step(&p, 6, 6, phase(label, "6 steps after the overflow")) ||
        pair_step(&p, 3, 2, phase(label, "3 steps more")))
        goto done;
    pair_close(&p);
    /* +inf and -inf in the ocean, two cells apart along i: a NaN at once */
    fill(&in, 12 + (uint64_t)s->id);
    set_val(&in, ps_field_cells(&in) / 2 + 3, INFINITY);
    set_val(&in, ps_field_cells(&in) / 2 + 5, -INFINITY);
    set_val(&in, ps_field_cells(&in) / 2 + 4, 1.0);
    given_set(&in, NULL);
    if (pair_open(&p, b, ref, &cfg, &in) ||
        pair_step(&p, 4, 4, phase(label, "4 steps from +inf and -inf")))
        goto done;
    printf("ok: %s\n", label);
done:
    pair_close(&p);
    ps_field_free(&in);
    ps_field_free(&reg);
    ps_field_free(&rgot);
    ps_field_free(&rwant);
    ps_params_free(&cfg.params);
}

int main(int argc, char **argv)
{
    ps_backend *b = NULL, *ref = NULL;
    ps_box box;
    int si, f64, n = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: test_landsum_backend BACKEND\n");
        return 2;
    }
    if (ps_backend_open(argv[1], &b)) {
        printf("SKIP: %s: %s\n", argv[1], ps_error_detail());
        return 77;
    }
    {
        ps_device_info devs[4];
        int nd = 0;
        if (ps_backend_probe(b, devs, 4, &nd) || nd < 1) {
            printf("SKIP: %s: %s\n", argv[1], ps_error_detail());
            return 77;
        }
    }
    if (ps_backend_open("reference", &ref)) {
        printf("FAIL: reference: %s\n", ps_error_detail());
        return 1;
    }
    /* a box of a 12x16x30 grid: origin (2,3,4), inner faces with 2 ghost layers */
    memset(&box, 0, sizeof box);
    box.extent = (ps_grid){9, 11, 23};
    box.global = (ps_grid){12, 16, 30};
    box.ghost = 2;
    box.origin[0] = 2;
    box.origin[1] = 3;
    box.origin[2] = 4;
    box.global_faces = 0;
    for (si = 0; si < ps_stencil_count(); si++)
        for (f64 = 0; f64 < 2; f64++) {
            const ps_precision p = f64 ? PS_FLOAT64 : PS_FLOAT32;
            ps_config probe;
            ps_context *ctx = NULL;
            int st;
            ps_config_init(&probe, (ps_grid){3, 3, 3}, p);
            st = ps_context_create(b, &probe, &ctx);
            ps_context_destroy(ctx);
            ps_params_free(&probe.params);
            if (st == PS_EUNSUPPORTED) {
                printf("SKIP (%s): %s\n", ps_precision_name(p), ps_error_detail());
                continue;
            }
            run_case(b, ref, ps_stencil_at(si), p, NULL);
            run_case(b, ref, ps_stencil_at(si), p, &box);
            n++;
        }
    ps_backend_close(b);
    ps_backend_close(ref);
    free(given);
    if (ps_test_failures) {
        printf("%d failure(s)\n", ps_test_failures);
        return 1;
    }
    if (!n) {
        printf("SKIP: no precision runs exactly on %s\n", argv[1]);
        return 77;
    }
    printf("PASS: %s land-sum inputs bitwise equal to the reference\n", argv[1]);
    return 0;
}
