/*
 * A host field stepped in place (ps_context_adopt(), ps_run_options.in_place)
 * gives bitwise what the same calls give through copies on the reference
 * backend (uploads and downloads of a field of the caller's), for every
 * backend here that can adopt (reference, openmp, opencl on a CPU device):
 *  - whole downloads into the adopted field after odd and even step counts
 *    (the state in the context's own buffer, or in the adopted one), two in a
 *    row, then steps again (land back in the backend's form); region uploads
 *    and downloads; a download elsewhere; a whole upload from another field,
 *    and from the adopted one after the caller rewrote it;
 *  - land whose NaNs carry payloads, a few or all distinct (over the bound
 *    of odd ones of openmp and of the land-sum form), in the adopted field
 *    and in the regions; ocean -0.0; a value that rules zero-land out (in
 *    the adopted field, and in a later upload);
 *  - openmp's paths: fused and single-step, zero-land on and off, the generic
 *    path's land-sum form, 1 and 2 threads; opencl's land-sum form on and off,
 *    in the row shape (the generic kernels) and the ij shape (the fast path);
 *  - the driver: one box steps the field in place (stats.in_place), every
 *    snapshot and the final field bitwise the copies'; split boxes do not;
 *  - errors: adopting twice, a field not aligned to its cells.
 * A backend that cannot adopt on its device says PS_ENOTIMPL (checked: then
 * the upload path is taken).
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSNAP 10

static ps_backend *ref;

/* cells of @p f: values with NaN land (about one cell in seven) */
static void fill(ps_field *f, unsigned seed)
{
    size_t n = ps_field_cells(f), q;
    unsigned x = seed * 2654435761u + 1;
    for (q = 0; q < n; q++) {
        double v;
        x = x * 1103515245u + 12345u;
        v = ((x >> 8) % 1000) * 0.0173 - 3.0;
        if ((x >> 20) % 7 == 0)
            v = NAN;
        else if ((x >> 20) % 97 == 1)
            v = -0.0;
        if (f->precision == PS_FLOAT64)
            ((double *)f->data)[q] = v;
        else
            ((float *)f->data)[q] = (float)v;
    }
}

/* the first @p limit land cells of @p f get distinct NaN payloads (sign bit on the odd ones) */
static size_t payloads(ps_field *f, size_t limit)
{
    size_t n = ps_field_cells(f), q, done = 0;
    for (q = 0; q < n && done < limit; q++) {
        if (f->precision == PS_FLOAT64) {
            double *v = (double *)f->data + q;
            uint64_t b = (0x7ff8000000000001ull + q) | (uint64_t)(q & 1) << 63;
            if (*v == *v)
                continue;
            memcpy(v, &b, 8);
        } else {
            float *v = (float *)f->data + q;
            uint32_t b = (0x7fc00001u + (uint32_t)q) | (uint32_t)(q & 1) << 31;
            if (*v == *v)
                continue;
            memcpy(v, &b, 4);
        }
        done++;
    }
    return done;
}

/* an ocean cell of @p f set to a value that could overflow (zero-land's rule out) */
static void huge_value(ps_field *f)
{
    size_t q = (2 * f->grid.ny + 5) * f->grid.nx + 7;
    if (f->precision == PS_FLOAT64)
        ((double *)f->data)[q] = DBL_MAX / 2;
    else
        ((float *)f->data)[q] = FLT_MAX / 2;
}

/*
 * The calls on backend @p b: the field is a copy of @p in, adopted (@p adopt)
 * or uploaded; every whole download into it is copied into snaps[n++] (a
 * region download and a download elsewhere likewise). Returns the status.
 */
static int sequence(ps_backend *b, const ps_config *cfg, const ps_field *in,
                    const ps_field *in2, const ps_field *halo, int adopt, ps_field *snaps,
                    int *nsnap)
{
    const ps_grid *g = &in->grid;
    const size_t es = ps_precision_size(in->precision), bytes = ps_field_cells(in) * es;
    ps_context *c = NULL;
    ps_region face, sub;
    ps_field f;
    void *buf = malloc(bytes);
    int st, n = 0;
    memset(&face, 0, sizeof face);
    face.count = (ps_grid){1, g->ny, g->nx};
    memset(&sub, 0, sizeof sub);
    sub.start[0] = 1, sub.start[1] = 2, sub.start[2] = 3;
    sub.count = (ps_grid){g->nz - 2, g->ny - 3, g->nx - 5};
    ps_field_alloc(&f, *g, in->precision);
    memcpy(f.data, in->data, bytes);
#define SNAP()                                                                           \
    do {                                                                                 \
        if (!st)                                                                         \
            st = ps_context_download(c, f.data, NULL);                                   \
        if (!st)                                                                         \
            memcpy(snaps[n++].data, f.data, bytes);                                      \
    } while (0)
#define STEP(s)                                                                          \
    do {                                                                                 \
        if (!st)                                                                         \
            st = ps_context_step(c, s);                                                  \
    } while (0)
    st = ps_context_create(b, cfg, &c);
    if (!st)
        st = adopt ? ps_context_adopt(c, f.data) : ps_context_upload(c, f.data, NULL);
    SNAP();   /* step 0 */
    STEP(11); /* odd, and long enough for fused launches: the state in the context's buffer */
    SNAP();
    SNAP(); /* twice in a row */
    STEP(2);
    if (!st) { /* a face from the halo field, then a region out */
        ps_region_gather(buf, halo->data, g, &face, es);
        st = ps_context_upload(c, buf, &face);
    }
    STEP(1);
    if (!st)
        st = ps_context_download(c, buf, &sub);
    if (!st) {
        ps_field_poison(&snaps[n]);
        ps_region_scatter(snaps[n++].data, g, buf, &sub, es);
    }
    STEP(4);
    SNAP();
    STEP(1);
    if (!st) /* elsewhere */
        st = ps_context_download(c, snaps[n++].data, NULL);
    STEP(2);
    SNAP();
    if (!st) /* another field, whole */
        st = ps_context_upload(c, in2->data, NULL);
    STEP(3);
    SNAP();
    if (!st) { /* the field rewritten by the caller, then uploaded from it */
        memcpy(f.data, in->data, bytes);
        st = ps_context_upload(c, f.data, NULL);
    }
    STEP(2);
    SNAP();
#undef SNAP
#undef STEP
    ps_context_destroy(c);
    ps_field_free(&f);
    free(buf);
    *nsnap = n;
    return st;
}

/* snapshot by snapshot, bitwise; @p what names the case */
static void compare(const ps_field *e, const ps_field *got, int n, const char *what)
{
    const size_t es = ps_precision_size(e[0].precision), cells = ps_field_cells(&e[0]);
    int s;
    for (s = 0; s < n; s++) {
        size_t q;
        for (q = 0; q < cells; q++)
            if (memcmp((const char *)e[s].data + q * es, (const char *)got[s].data + q * es, es))
                break;
        CHECK(q == cells, "%s: snapshot %d differs first at cell %zu", what, s, q);
    }
}

/* one input case: the reference's copies, then each backend's adoption */
static void check_case(ps_precision p, int kase, ps_backend **bs, const char *const *names,
                       int nb)
{
    const ps_grid g = {8, 37, 45};
    ps_field in, in2, halo, e[NSNAP], got[NSNAP];
    ps_config cfg;
    char what[256];
    int s, ne = 0, ng = 0, q, v, st;
    ps_field_alloc(&in, g, p);
    ps_field_alloc(&in2, g, p);
    ps_field_alloc(&halo, g, p);
    for (s = 0; s < NSNAP; s++) {
        ps_field_alloc(&e[s], g, p);
        ps_field_alloc(&got[s], g, p);
    }
    fill(&in, 3 + (unsigned)kase);
    fill(&in2, 5);
    fill(&halo, 7);
    /* the regions' land: a few payloads (zero-land keeps them), or all distinct */
    payloads(&halo, kase == 2 ? ps_field_cells(&halo) : 5);
    if (kase == 1) /* a few payloads */
        payloads(&in, 10);
    if (kase == 2) /* more than openmp's bound (cells/64 + 1024) */
        payloads(&in, ps_field_cells(&in));
    if (kase == 3) /* zero-land ruled out in the adopted field */
        huge_value(&in);
    if (kase == 4) /* ... and in a later whole upload */
        huge_value(&in2);
    ps_config_init(&cfg, g, p);
    cfg.params.scalars[0] = 0.1;
    st = sequence(ref, &cfg, &in, &in2, &halo, 0, e, &ne);
    CHECK(st == 0 && ne == NSNAP - 1, "reference, copies: %s", ps_error_detail());
    for (q = 0; q < nb; q++) {
        /* variants: openmp 16 (tblock x zero-land x generic x threads), opencl 4
         * (land-sum form x kernel shape) */
        int nv = !strcmp(names[q], "openmp") ? 16 : !strcmp(names[q], "opencl") ? 4 : 1;
        for (v = 0; v < nv; v++) {
            ps_config c = cfg;
            if (!strcmp(names[q], "openmp")) {
                setenv("PSTENCIL_OPENMP_TBLOCK", v & 1 ? "0" : "4", 1);
                setenv("PSTENCIL_OPENMP_ZERO_LAND", v & 2 ? "0" : "1", 1);
                c.kernel = (v & 4) ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
                c.threads = v & 8 ? 1 : 2;
            } else if (!strcmp(names[q], "opencl")) {
                setenv("PSTENCIL_OPENCL_ZERO_LAND", v & 1 ? "0" : "1", 1);
                setenv("PSTENCIL_OPENCL_KERNEL", v & 2 ? "ij" : "row", 1);
            }
            snprintf(what, sizeof what, "%s variant %d, %s, case %d", names[q], v,
                     ps_precision_name(p), kase);
            st = sequence(bs[q], &c, &in, &in2, &halo, 1, got, &ng);
            CHECK(st == 0 && ng == ne, "%s: %s", what, ps_error_detail());
            if (!st)
                compare(e, got, ne, what);
        }
    }
    unsetenv("PSTENCIL_OPENMP_TBLOCK");
    unsetenv("PSTENCIL_OPENMP_ZERO_LAND");
    unsetenv("PSTENCIL_OPENCL_ZERO_LAND");
    unsetenv("PSTENCIL_OPENCL_KERNEL");
    for (s = 0; s < NSNAP; s++) {
        ps_field_free(&e[s]);
        ps_field_free(&got[s]);
    }
    ps_field_free(&in);
    ps_field_free(&in2);
    ps_field_free(&halo);
}

/* the driver's snapshots, kept in order */
typedef struct snaps {
    ps_field f[8];
    int n;
} snaps;

static int keep(void *user, long step, const ps_field *f)
{
    snaps *s = user;
    (void)step;
    if (s->n >= 8)
        return 1;
    ps_field_alloc(&s->f[s->n], f->grid, f->precision);
    memcpy(s->f[s->n++].data, f->data, ps_field_cells(f) * ps_precision_size(f->precision));
    return 0;
}

/*
 * ps_run_split(): in place on one box (stats.in_place), the snapshots and the
 * final field the copies'; split boxes copy (stats.in_place 0), bitwise too.
 */
static void check_driver(ps_backend *b, const char *name, ps_precision p)
{
    const ps_grid g = {8, 37, 45};
    ps_field in, f;
    ps_config cfg;
    ps_run_options ro;
    ps_split_options so;
    ps_run_stats rs;
    snaps want, got;
    char what[128];
    int a, s, st;
    ps_field_alloc(&in, g, p);
    fill(&in, 9);
    payloads(&in, 20);
    ps_config_init(&cfg, g, p);
    cfg.params.scalars[0] = 0.1;
    cfg.threads = 2;
    memset(&want, 0, sizeof want);
    memset(&ro, 0, sizeof ro);
    ro.steps = 7;
    ro.every = 2;
    ro.snapshot = keep;
    ro.user = &want;
    ps_field_alloc(&f, g, p);
    memcpy(f.data, in.data, ps_field_cells(&in) * ps_precision_size(p));
    st = ps_run_split(ref, &cfg, &f, &ro, NULL, &rs);
    CHECK(st == 0 && want.n == 5 && !rs.in_place, "reference, copies: %s", ps_error_detail());
    free(rs.step_times);
    for (a = 0; a < 2; a++) {
        memset(&got, 0, sizeof got);
        memset(&so, 0, sizeof so);
        so.split[1] = a ? 2 : 1;
        ro.user = &got;
        ro.in_place = 1;
        memcpy(f.data, in.data, ps_field_cells(&in) * ps_precision_size(p));
        st = ps_run_split(b, &cfg, &f, &ro, &so, &rs);
        snprintf(what, sizeof what, "%s %s driver, %s", name, ps_precision_name(p),
                 a ? "two boxes" : "one box");
        CHECK(st == 0 && got.n == want.n, "%s: %s", what, ps_error_detail());
        CHECK(rs.in_place == !a, "%s: stats.in_place %d", what, rs.in_place);
        if (!st && got.n == want.n) {
            compare(want.f, got.f, want.n, what);
            compare(&want.f[want.n - 1], &f, 1, what); /* the final field */
        }
        for (s = 0; s < got.n; s++)
            ps_field_free(&got.f[s]);
        free(rs.step_times);
    }
    for (s = 0; s < want.n; s++)
        ps_field_free(&want.f[s]);
    ps_field_free(&f);
    ps_field_free(&in);
}

/* adopting twice, or a field not aligned to its cells: refused, named */
static void check_errors(ps_backend *b, const char *name)
{
    const ps_grid g = {5, 9, 8};
    ps_field f;
    ps_config cfg;
    ps_context *c = NULL;
    int st;
    ps_field_alloc(&f, g, PS_FLOAT32);
    fill(&f, 1);
    ps_config_init(&cfg, g, PS_FLOAT32);
    if ((st = ps_context_create(b, &cfg, &c)) == 0) {
        st = ps_context_adopt(c, (char *)f.data + 1);
        CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "aligned"),
              "%s: a misaligned field: %d %s", name, st, ps_error_detail());
        st = ps_context_adopt(c, f.data);
        CHECK(st == 0, "%s: adopt: %s", name, ps_error_detail());
        st = ps_context_adopt(c, f.data);
        CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "already"),
              "%s: adopting twice: %d %s", name, st, ps_error_detail());
        ps_context_destroy(c);
    }
    CHECK(c != NULL, "%s: create: %s", name, ps_error_detail());
    ps_field_free(&f);
}

int main(void)
{
    static const char *const want[] = {"reference", "openmp", "opencl"};
    enum { NWANT = sizeof want / sizeof want[0] };
    const char *names[NWANT];
    ps_backend *bs[NWANT];
    int nb = 0, q, p, k;
    if (ps_backend_open("reference", &ref)) {
        printf("FAIL: reference: %s\n", ps_error_detail());
        return 1;
    }
    for (q = 0; q < NWANT; q++) {
        ps_backend *b = NULL;
        ps_device_info dev;
        ps_config cfg;
        ps_context *c = NULL;
        ps_field f;
        int n = 0, st;
        if (ps_backend_open(want[q], &b) || ps_backend_probe(b, &dev, 1, &n) || n < 1) {
            printf("%s: not here (%s): not checked\n", want[q], ps_error_detail());
            if (b)
                ps_backend_close(b);
            continue;
        }
        /* a device that cannot work in host memory says so, and is not checked */
        ps_field_alloc(&f, (ps_grid){4, 4, 4}, PS_FLOAT32);
        fill(&f, 2);
        ps_config_init(&cfg, f.grid, PS_FLOAT32);
        st = ps_context_create(b, &cfg, &c);
        if (!st)
            st = ps_context_adopt(c, f.data);
        ps_context_destroy(c);
        ps_field_free(&f);
        if (st == PS_ENOTIMPL && strcmp(dev.type, "cpu")) {
            printf("%s: its %s device cannot adopt (%s): not checked\n", want[q], dev.type,
                   ps_error_detail());
            ps_backend_close(b);
            continue;
        }
        CHECK(st == 0, "%s on a %s device: adopt: %s", want[q], dev.type, ps_error_detail());
        names[nb] = want[q];
        bs[nb++] = b;
    }
    for (p = 0; p < 2; p++)
        for (k = 0; k < 5; k++)
            check_case(p ? PS_FLOAT64 : PS_FLOAT32, k, bs, names, nb);
    for (q = 0; q < nb; q++) {
        for (p = 0; p < 2; p++)
            check_driver(bs[q], names[q], p ? PS_FLOAT64 : PS_FLOAT32);
        check_errors(bs[q], names[q]);
        if (bs[q] != ref)
            ps_backend_close(bs[q]);
    }
    ps_backend_close(ref);
    return ps_test_finish("adopt");
}
