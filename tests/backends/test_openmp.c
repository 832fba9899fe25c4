/*
 * openmp backend specifics, each checked bitwise against the reference
 * backend doing the same sequence of calls:
 *  - halo-style region uploads between steps (faces and interior blocks,
 *    after odd and even step counts: the backend keeps the outermost layer
 *    in both of its buffers, so this is where that could go wrong);
 *  - region downloads;
 *  - 1, 2 and 3 threads;
 *  - fused steps (PSTENCIL_OPENMP_TBLOCK=0, 1, 2, 3 with 2-row tiles): only
 *    the steps of one step() call are fused, uploads in between are seen;
 *  - repeated upload on one context (no state left from the previous run);
 *  - pitched uploads and downloads (a box inside a larger host array);
 *  - land whose NaNs carry many payloads: zero-land keeps up to a bound of
 *    them beside its count bytes and takes NaN land past it (whole upload or
 *    region), every payload kept;
 *  - the land-sum stencils' generic rows at every row length;
 *  - the kernel choice (ps_config.kernel): fast refused (PS_EUNSUPPORTED),
 *    openmp having no fast path, unknown values refused;
 *  - errors: region outside the box, no such device, negative threads.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_validate.h"
#include "../ps_test.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static ps_backend *ref, *omp;

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
        if (f->precision == PS_FLOAT64)
            ((double *)f->data)[q] = v;
        else
            ((float *)f->data)[q] = (float)v;
    }
}

/* The same call sequence on a backend: returns the final whole field in out. */
static int sequence(ps_backend *b, ps_config *cfg, const ps_field *in, const ps_field *halo,
                    ps_field *out, ps_field *part)
{
    ps_context *c = NULL;
    ps_region face, block, sub;
    size_t es = ps_precision_size(in->precision);
    void *buf = malloc(ps_field_cells(in) * es);
    int st;
    const ps_grid *g = &in->grid;
    memset(&face, 0, sizeof face);
    memset(&block, 0, sizeof block);
    memset(&sub, 0, sizeof sub);
    /* the k = 0 face, the j = ny-1 face, and an interior block */
    face.count.nz = 1;
    face.count.ny = g->ny;
    face.count.nx = g->nx;
    block.start[0] = 1;
    block.start[1] = 2;
    block.start[2] = 3;
    block.count.nz = g->nz - 2;
    block.count.ny = 3;
    block.count.nx = g->nx - 5;
    sub = block;
    sub.start[1] = 0;
    sub.count.ny = g->ny - 1;
    ps_field_poison(out);
    ps_field_poison(part);
    st = ps_context_create(b, cfg, &c);
    if (!st)
        st = ps_context_upload(c, in->data, NULL);
    if (!st)
        st = ps_context_step(c, 3);
    if (!st) { /* odd steps done: refresh the k = 0 face from the halo field */
        ps_region_gather(buf, halo->data, g, &face, es);
        st = ps_context_upload(c, buf, &face);
    }
    if (!st)
        st = ps_context_step(c, 2);
    if (!st) { /* even: the j = ny-1 face */
        ps_region r = face;
        r.count.nz = g->nz;
        r.count.ny = 1;
        r.start[1] = g->ny - 1;
        ps_region_gather(buf, halo->data, g, &r, es);
        st = ps_context_upload(c, buf, &r);
    }
    if (!st) {
        ps_region_gather(buf, halo->data, g, &block, es);
        st = ps_context_upload(c, buf, &block);
    }
    if (!st)
        st = ps_context_step(c, 1);
    if (!st)
        st = ps_context_download(c, buf, &sub);
    if (!st)
        ps_region_scatter(part->data, g, buf, &sub, es);
    if (!st)
        st = ps_context_step(c, 4);
    if (!st)
        st = ps_context_download(c, out->data, NULL);
    /* a second run on the same context must not see the first */
    if (!st)
        st = ps_context_upload(c, in->data, NULL);
    if (!st)
        st = ps_context_step(c, 1);
    if (!st) {
        ps_field again;
        ps_validate_diff d;
        ps_field_alloc(&again, *g, in->precision);
        st = ps_context_download(c, again.data, NULL);
        if (!st && b == omp) {
            ps_field r1;
            ps_config rc = *cfg;
            ps_field_alloc(&r1, *g, in->precision);
            rc.threads = 0;
            rc.block[1] = 0;
            ps_validate_run_backend(ref, &rc, in, 1, 0, &r1);
            ps_validate_compare(&r1, &again, &d);
            CHECK(d.differ == 0, "re-upload on a used context: %zu cells differ", d.differ);
            ps_field_free(&r1);
        }
        ps_field_free(&again);
    }
    ps_context_destroy(c);
    free(buf);
    return st;
}

static void check_sequence(ps_grid g, ps_precision p, int threads)
{
    ps_field in, halo, e, eo, got, go;
    ps_config cfg;
    ps_validate_diff d;
    char desc[600];
    ps_field_alloc(&in, g, p);
    ps_field_alloc(&halo, g, p);
    ps_field_alloc(&e, g, p);
    ps_field_alloc(&eo, g, p);
    ps_field_alloc(&got, g, p);
    ps_field_alloc(&go, g, p);
    fill(&in, (unsigned)(g.nx * 3 + g.ny));
    fill(&halo, 99);
    ps_config_init(&cfg, g, p);
    CHECK(sequence(ref, &cfg, &in, &halo, &e, &eo) == 0, "reference: %s", ps_error_detail());
    cfg.threads = threads;
    CHECK(sequence(omp, &cfg, &in, &halo, &got, &go) == 0, "openmp: %s", ps_error_detail());
    ps_validate_compare(&e, &got, &d);
    ps_validate_diff_describe(&d, desc, sizeof desc);
    CHECK(d.differ == 0, "%zux%zux%zu %s threads %d: final field: %s", g.nz, g.ny, g.nx,
          ps_precision_name(p), threads, desc);
    ps_validate_compare(&eo, &go, &d);
    ps_validate_diff_describe(&d, desc, sizeof desc);
    CHECK(d.differ == 0, "%zux%zux%zu %s threads %d: region download: %s", g.nz, g.ny, g.nx,
          ps_precision_name(p), threads, desc);
    ps_field_free(&in);
    ps_field_free(&halo);
    ps_field_free(&e);
    ps_field_free(&eo);
    ps_field_free(&got);
    ps_field_free(&go);
}

/* one cell of a field, any precision: set to v, or to a NaN with a payload */
static void set_cell(ps_field *f, size_t k, size_t j, size_t i, double v, int payload)
{
    size_t q = (k * f->grid.ny + j) * f->grid.nx + i;
    if (f->precision == PS_FLOAT64) {
        uint64_t b = 0xfff800000000abcdull;
        if (payload)
            memcpy((double *)f->data + q, &b, 8);
        else
            ((double *)f->data)[q] = v;
    } else {
        uint32_t b = 0xffc0abcdu;
        if (payload)
            memcpy((float *)f->data + q, &b, 4);
        else
            ((float *)f->data)[q] = (float)v;
    }
}

/*
 * ps_context_upload_pitched()/download_pitched(): a box stored inside a larger
 * host array (its pitches) gives bitwise what the gathered box gives through
 * ps_context_upload()/download(), whole and as a region; the reference has no
 * pitched copies (PS_ENOTIMPL, the caller gathers).
 */
static void check_pitched(ps_precision p)
{
    const ps_grid big = {7, 13, 29}, box = {5, 9, 20};
    const size_t at[3] = {1, 3, 6}, es = ps_precision_size(p);
    const size_t rp = big.nx * es, pp = big.ny * big.nx * es;
    const size_t off = ((at[0] * big.ny + at[1]) * big.nx + at[2]) * es;
    ps_field host, dense, a, b, back;
    ps_region whole, sub;
    ps_config cfg;
    ps_context *c1 = NULL, *c2 = NULL, *cr = NULL;
    int st;
    ps_field_alloc(&host, big, p);
    ps_field_alloc(&dense, box, p);
    ps_field_alloc(&a, box, p);
    ps_field_alloc(&b, box, p);
    ps_field_alloc(&back, big, p);
    fill(&host, 11);
    memset(&whole, 0, sizeof whole);
    whole.start[0] = at[0], whole.start[1] = at[1], whole.start[2] = at[2];
    whole.count = box;
    ps_region_gather(dense.data, host.data, &big, &whole, es);
    memset(&sub, 0, sizeof sub);
    sub.start[0] = 1, sub.start[1] = 2, sub.start[2] = 3;
    sub.count = (ps_grid){3, 5, 11};
    ps_config_init(&cfg, box, p);
    cfg.threads = 2;
    st = ps_context_create(omp, &cfg, &c1);
    if (!st)
        st = ps_context_create(omp, &cfg, &c2);
    if (!st)
        st = ps_context_upload(c1, dense.data, NULL);
    if (!st)
        st = ps_context_upload_pitched(c2, (char *)host.data + off, rp, pp, NULL);
    if (!st)
        st = ps_context_step(c1, 3);
    if (!st)
        st = ps_context_step(c2, 3);
    if (!st)
        st = ps_context_download(c1, a.data, NULL);
    if (!st) /* the pitched download of the whole box, into a copy of the host array */
        memcpy(back.data, host.data, ps_field_cells(&host) * es);
    if (!st)
        st = ps_context_download_pitched(c2, (char *)back.data + off, rp, pp, NULL);
    CHECK(st == 0, "pitched %s: %s", ps_precision_name(p), ps_error_detail());
    if (!st) {
        ps_region_gather(b.data, back.data, &big, &whole, es);
        CHECK(memcmp(a.data, b.data, ps_field_cells(&a) * es) == 0,
              "pitched %s: whole upload, 3 steps, whole download differ from dense",
              ps_precision_name(p));
        /* a region of the box: in through pitches (its cell (k,j,i) from the
         * host array's (k,j,i)), out through pitches */
        st = ps_context_upload_pitched(c2, (char *)host.data, rp, pp, &sub);
    }
    if (!st) {
        /* c1 gets the region from a dense gather of the same host cells */
        ps_region src = sub;
        src.start[0] = src.start[1] = src.start[2] = 0;
        ps_region_gather(a.data, host.data, &big, &src, es);
        st = ps_context_upload(c1, a.data, &sub);
    }
    if (!st)
        st = ps_context_step(c1, 2);
    if (!st)
        st = ps_context_step(c2, 2);
    if (!st)
        st = ps_context_download(c1, a.data, &sub);
    if (!st)
        st = ps_context_download_pitched(c2, back.data, rp, pp, &sub);
    CHECK(st == 0, "pitched %s region: %s", ps_precision_name(p), ps_error_detail());
    if (!st) {
        ps_region src = sub;
        src.start[0] = src.start[1] = src.start[2] = 0;
        ps_region_gather(b.data, back.data, &big, &src, es);
        CHECK(memcmp(a.data, b.data, sub.count.nz * sub.count.ny * sub.count.nx * es) == 0,
              "pitched %s: region upload, 2 steps, region download differ from dense",
              ps_precision_name(p));
    }
    /* pitches too small for the rows: refused */
    if (c2) {
        st = ps_context_upload_pitched(c2, host.data, es, pp, NULL);
        CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "pitches"),
              "a row pitch of one cell: %d %s", st, ps_error_detail());
    }
    ps_config_init(&cfg, box, p);
    st = ps_context_create(ref, &cfg, &cr);
    CHECK(st == 0, "reference: %s", ps_error_detail());
    if (!st) {
        st = ps_context_upload_pitched(cr, host.data, rp, pp, NULL);
        CHECK(st == PS_ENOTIMPL, "reference pitched upload: %d (expected PS_ENOTIMPL)", st);
    }
    ps_context_destroy(c1);
    ps_context_destroy(c2);
    ps_context_destroy(cr);
    ps_field_free(&host);
    ps_field_free(&dense);
    ps_field_free(&a);
    ps_field_free(&b);
    ps_field_free(&back);
}

/*
 * Zero-land's corners (see ps_openmp_zeroland.c): ocean -0.0 values and
 * neighbours, an isolated ocean cell (n == 0), land NaNs with a sign and
 * payload (in the first upload and in an uploaded region), D outside [0, 1],
 * and a huge value in a region upload (an ocean cell turns NaN: the sweep
 * is redone on NaN land).
 */
static void check_special(ps_precision p, double coeff, int big, int threads)
{
    const ps_grid g = {6, 20, 33};
    ps_field in, halo, e, eo, got, go;
    ps_config cfg;
    ps_validate_diff d;
    char desc[600];
    int a;
    ps_field_alloc(&in, g, p);
    ps_field_alloc(&halo, g, p);
    ps_field_alloc(&e, g, p);
    ps_field_alloc(&eo, g, p);
    ps_field_alloc(&got, g, p);
    ps_field_alloc(&go, g, p);
    fill(&in, 7);
    fill(&halo, 8);
    set_cell(&in, 2, 5, 7, -0.0, 0);
    set_cell(&in, 2, 5, 8, -0.0, 0);
    set_cell(&in, 3, 5, 7, -0.0, 0);
    set_cell(&in, 2, 6, 7, -0.0, 0);
    set_cell(&in, 3, 10, 10, 1.25, 0); /* isolated: all six neighbours land */
    set_cell(&in, 2, 10, 10, 0, 1);
    set_cell(&in, 4, 10, 10, 0, 1);
    set_cell(&in, 3, 9, 10, 0, 1);
    set_cell(&in, 3, 11, 10, 0, 1);
    set_cell(&in, 3, 10, 9, 0, 1);
    set_cell(&in, 3, 10, 11, 0, 1);
    set_cell(&in, 1, 3, 4, 0, 1);
    set_cell(&halo, 2, 3, 5, 0, 1); /* in the uploaded interior block */
    set_cell(&halo, 2, 4, 5, -0.0, 0);
    if (big) {
        /* Y = (2,3,11) overflows to -inf, then inf - inf: NaN, which the
         * reference masks from then on; X = (2,3,10), whose only ocean
         * neighbour is Y, then keeps its value there (n == 0). big 1: in a
         * region upload; 2: in the first, whole upload (the check made as
         * its rows are filled) */
        ps_field *f = big == 2 ? &in : &halo;
        set_cell(f, 2, 3, 11, p == PS_FLOAT64 ? DBL_MAX / 2 : FLT_MAX / 2, 0);
        set_cell(f, 2, 3, 10, 1.5, 0);
        set_cell(f, 2, 3, 9, 0, 1);
        set_cell(f, 2, 2, 10, 0, 1);
        set_cell(f, 2, 4, 10, 0, 1);
        set_cell(f, 1, 3, 10, 0, 1);
        set_cell(f, 3, 3, 10, 0, 1);
        for (a = 0; a < 5; a++) { /* Y's other neighbours: ocean */
            static const size_t nb[5][3] = {{1, 3, 11}, {3, 3, 11}, {2, 2, 11}, {2, 4, 11},
                                            {2, 3, 12}};
            set_cell(f, nb[a][0], nb[a][1], nb[a][2], 2.0, 0);
        }
    }
    ps_config_init(&cfg, g, p);
    cfg.params.scalars[0] = coeff;
    CHECK(sequence(ref, &cfg, &in, &halo, &e, &eo) == 0, "reference: %s", ps_error_detail());
    cfg.threads = threads;
    CHECK(sequence(omp, &cfg, &in, &halo, &got, &go) == 0, "openmp: %s", ps_error_detail());
    for (a = 0; a < 2; a++) {
        ps_validate_compare(a ? &eo : &e, a ? &go : &got, &d);
        ps_validate_diff_describe(&d, desc, sizeof desc);
        CHECK(d.differ == 0, "special values %s D %g%s threads %d: %s: %s",
              ps_precision_name(p), coeff, big ? " huge value" : "", threads,
              a ? "region download" : "final field", desc);
    }
    ps_field_free(&in);
    ps_field_free(&halo);
    ps_field_free(&e);
    ps_field_free(&eo);
    ps_field_free(&got);
    ps_field_free(&go);
}

/* the first @p limit land cells of @p f (from cell @p from) get distinct NaN payloads */
static size_t odd_payloads(ps_field *f, size_t from, size_t limit)
{
    size_t n = ps_field_cells(f), q, done = 0;
    for (q = from; q < n && done < limit; q++) {
        if (f->precision == PS_FLOAT64) {
            double *v = (double *)f->data + q;
            uint64_t b = 0x7ff8000000000001ull + q;
            if (*v == *v)
                continue;
            memcpy(v, &b, 8);
        } else {
            float *v = (float *)f->data + q;
            uint32_t b = 0x7fc00001u + (uint32_t)q;
            if (*v == *v)
                continue;
            memcpy(v, &b, 4);
        }
        done++;
    }
    return done;
}

/*
 * Zero-land keeps land's NaN as one pattern plus a list of the cells whose
 * NaN differs, at most cells/64 + 1024 of them (ps_openmp_zeroland.c): @p odd
 * such cells in the whole upload, and the halo field's land all distinct (its
 * region uploads add theirs): under the bound, at it, over it in the first
 * upload, and pushed over by the regions. Bitwise the reference's, payloads
 * and all.
 */
static void check_odd_nans(ps_precision p, size_t odd, int threads)
{
    const ps_grid g = {20, 40, 40};
    ps_field in, halo, e, eo, got, go;
    ps_config cfg;
    ps_validate_diff d;
    char desc[600];
    int a;
    ps_field_alloc(&in, g, p);
    ps_field_alloc(&halo, g, p);
    ps_field_alloc(&e, g, p);
    ps_field_alloc(&eo, g, p);
    ps_field_alloc(&got, g, p);
    ps_field_alloc(&go, g, p);
    fill(&in, 11);
    fill(&halo, 12);
    CHECK(odd_payloads(&in, 0, odd) == odd, "only %zu land cells for %zu payloads",
          ps_field_cells(&in), odd);
    odd_payloads(&halo, 0, ps_field_cells(&halo));
    ps_config_init(&cfg, g, p);
    cfg.params.scalars[0] = 0.1;
    CHECK(sequence(ref, &cfg, &in, &halo, &e, &eo) == 0, "reference: %s", ps_error_detail());
    cfg.threads = threads;
    CHECK(sequence(omp, &cfg, &in, &halo, &got, &go) == 0, "openmp: %s", ps_error_detail());
    for (a = 0; a < 2; a++) {
        ps_validate_compare(a ? &eo : &e, a ? &go : &got, &d);
        ps_validate_diff_describe(&d, desc, sizeof desc);
        CHECK(d.differ == 0 && !memcmp(a ? eo.data : e.data, a ? go.data : got.data,
                                       ps_field_cells(&e) * ps_precision_size(p)),
              "%zu odd NaNs %s threads %d: %s: %s", odd, ps_precision_name(p), threads,
              a ? "region download" : "final field", desc);
    }
    ps_field_free(&in);
    ps_field_free(&halo);
    ps_field_free(&e);
    ps_field_free(&eo);
    ps_field_free(&got);
    ps_field_free(&go);
}

/* @p steps of stencil @p s on @p b from @p in into @p out (kernel @p k) */
static int steps_on(ps_backend *b, const ps_stencil *s, const ps_field *in, ps_field *out,
                    ps_kernel k, long steps)
{
    ps_config cfg;
    int st;
    ps_config_init(&cfg, in->grid, in->precision);
    ps_params_free(&cfg.params);
    cfg.stencil = s;
    cfg.kernel = k;
    cfg.threads = 2;
    st = ps_stencil_prepare_default(s, in->grid, &cfg.params);
    if (!st)
        st = ps_test_run(b, &cfg, in, out, steps);
    ps_params_free(&cfg.params);
    return st;
}

/*
 * The land-sum stencils' generic rows at every row length from 3 to 75
 * cells and a few longer ones, both precisions, steps fused and not: each
 * row's vectors are cut differently (the first, those at aligned starts
 * with the row's own vectors carried in registers, the last), and every
 * cut must give the reference's bits.
 */
static void check_row_lengths(void)
{
    static const size_t extra[] = {96, 97, 127, 128, 129, 161};
    int si, p, tb;
    size_t nx, e;
    for (si = 0; si < ps_stencil_count(); si++) {
        const ps_stencil *s = ps_stencil_at(si);
        if (!(s->flags & PS_STENCIL_LAND_SUM))
            continue;
        for (tb = 0; tb < 2; tb++) {
            setenv("PSTENCIL_OPENMP_TBLOCK", tb ? "3" : "1", 1);
            for (p = 0; p < 2; p++)
                for (nx = 3, e = 0; nx <= 75 || e < sizeof extra / sizeof extra[0];
                     nx = nx < 75 ? nx + 1 : extra[e++]) {
                    const ps_grid g = {5, 7, nx};
                    const ps_precision pr = p ? PS_FLOAT64 : PS_FLOAT32;
                    ps_field in, want, got;
                    int st;
                    ps_field_alloc(&in, g, pr);
                    ps_field_alloc(&want, g, pr);
                    ps_field_alloc(&got, g, pr);
                    fill(&in, (unsigned)(nx * 7 + (size_t)p));
                    st = steps_on(ref, s, &in, &want, PS_KERNEL_AUTO, 4);
                    st = st ? st : steps_on(omp, s, &in, &got, PS_KERNEL_GENERIC, 4);
                    CHECK(!st && ps_test_same(&want, &got),
                          "%s %s generic rows of %zu cells, %s steps fused: %s", s->name,
                          ps_precision_name(pr), nx, tb ? "3" : "no",
                          st ? ps_error_detail() : "differs from the reference");
                    ps_field_free(&in);
                    ps_field_free(&want);
                    ps_field_free(&got);
                }
        }
    }
    unsetenv("PSTENCIL_OPENMP_TBLOCK");
}

int main(void)
{
    static const ps_grid grids[] = {{6, 20, 33}, {5, 9, 8}, {12, 31, 17}};
    static const char *const tbs[] = {"0", "2", "3", "1"};
    size_t gi, ti;
    int t, p, st;
    ps_config cfg;
    ps_context *c = NULL;
    char buf[64];
    ps_region bad;

    if (ps_backend_open("reference", &ref) || ps_backend_open("openmp", &omp)) {
        printf("FAIL: cannot open backends: %s\n", ps_error_detail());
        return 1;
    }
    /* one step a sweep, then fused steps with tiny tiles (the env is read
     * when a context is created) */
    setenv("PSTENCIL_OPENMP_TJ", "2", 1);
    for (ti = 0; ti < sizeof tbs / sizeof tbs[0]; ti++) {
        setenv("PSTENCIL_OPENMP_TBLOCK", tbs[ti], 1);
        for (gi = 0; gi < sizeof grids / sizeof grids[0]; gi++)
            for (p = 0; p < 2; p++)
                for (t = 1; t <= 3; t++)
                    check_sequence(grids[gi], p ? PS_FLOAT64 : PS_FLOAT32, t);
    }

    /* zero-land's corners, fused and one step a sweep, the land-sum form on
     * and off; a huge value makes an ocean cell NaN, the sweep is redone
     * with NaN land */
    for (ti = 0; ti < 4; ti++) {
        setenv("PSTENCIL_OPENMP_TBLOCK", ti & 1 ? "1" : "4", 1);
        setenv("PSTENCIL_OPENMP_ZERO_LAND", ti & 2 ? "0" : "1", 1);
        for (p = 0; p < 2; p++) {
            ps_precision pr = p ? PS_FLOAT64 : PS_FLOAT32;
            check_special(pr, 0.1, 0, 2);
            check_special(pr, 1.0, 0, 1);
            check_special(pr, 1.5, 0, 2);
            check_special(pr, 0.1, 1, 2);
            check_special(pr, 0.1, 2, 2);
        }
    }

    /* land's NaN payloads: under zero-land's bound, just under it (the regions
     * push it over), and over it in the whole upload; fused and one step a
     * sweep */
    setenv("PSTENCIL_OPENMP_ZERO_LAND", "1", 1);
    for (ti = 0; ti < 2; ti++) {
        setenv("PSTENCIL_OPENMP_TBLOCK", ti ? "1" : "4", 1);
        for (p = 0; p < 2; p++) {
            ps_precision pr = p ? PS_FLOAT64 : PS_FLOAT32;
            check_odd_nans(pr, 10, 2);
            check_odd_nans(pr, 32000 / 64 + 1024 - 50, 2);
            check_odd_nans(pr, 32000 / 64 + 1024 + 1, 1);
        }
    }

    check_row_lengths();

    /* pitched copies: a box of a larger host array, straight in and out */
    for (p = 0; p < 2; p++)
        check_pitched(p ? PS_FLOAT64 : PS_FLOAT32);
    unsetenv("PSTENCIL_OPENMP_ZERO_LAND");

    /* errors */
    ps_config_init(&cfg, grids[0], PS_FLOAT32);
    st = ps_context_create(omp, &cfg, &c);
    CHECK(st == 0, "create: %s", ps_error_detail());
    if (!st) {
        memset(&bad, 0, sizeof bad);
        bad.start[2] = 30;
        bad.count.nz = bad.count.ny = 1;
        bad.count.nx = 4; /* 30 + 4 > 33 */
        st = ps_context_upload(c, buf, &bad);
        CHECK(st == PS_ERANGE && strstr(ps_error_detail(), "outside box"),
              "upload outside the box: %d %s", st, ps_error_detail());
        st = ps_context_download(c, buf, &bad);
        CHECK(st == PS_ERANGE && strstr(ps_error_detail(), "openmp: download"),
              "download outside the box: %d %s", st, ps_error_detail());
        ps_context_destroy(c);
    }
    /* the kernel choice: openmp has no hand-written path, so --kernel fast is
     * refused for every stencil (diffusion7, smooth2), as on the reference,
     * and auto and generic run the generic path; a value outside the enum is
     * refused */
    cfg.kernel = PS_KERNEL_FAST;
    st = ps_context_create(omp, &cfg, &c);
    CHECK(st == PS_EUNSUPPORTED &&
              strstr(ps_error_detail(), "backend 'openmp' has no fast path for stencil "
                                        "'diffusion7' (it has one for: none)"),
          "openmp --kernel fast, diffusion7: %d %s", st, ps_error_detail());
    if (!st)
        ps_context_destroy(c);
    for (t = 0; t < 2; t++) {
        cfg.kernel = t ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
        st = ps_context_create(omp, &cfg, &c);
        CHECK(st == 0 && !strcmp(ps_context_describe(c, PS_DESCRIBE_KERNEL), "generic"),
              "openmp --kernel %s: %s", t ? "generic" : "auto",
              st ? ps_error_detail() : ps_context_describe(c, PS_DESCRIBE_KERNEL));
        if (!st)
            ps_context_destroy(c);
    }
    cfg.kernel = PS_KERNEL_AUTO;
    st = ps_context_create(ref, &cfg, &c);
    CHECK(st == 0 && !strcmp(ps_context_describe(c, PS_DESCRIBE_KERNEL), "generic"),
          "reference runs the generic path: %s",
          st ? ps_error_detail() : ps_context_describe(c, PS_DESCRIBE_KERNEL));
    if (!st)
        ps_context_destroy(c);
    cfg.kernel = PS_KERNEL_FAST;
    CHECK(ps_backend_kernel_check(omp, "hdiff", PS_KERNEL_GENERIC) == PS_OK &&
              ps_backend_kernel_check(omp, "hdiff", PS_KERNEL_AUTO) == PS_OK,
          "kernel check: %s", ps_error_detail());
    CHECK(ps_backend_kernel_check(omp, "hdiff", PS_KERNEL_FAST) == PS_EUNSUPPORTED &&
              strstr(ps_error_detail(), "it has one for: none"),
          "kernel check, hdiff fast: %s", ps_error_detail());
    st = ps_context_create(ref, &cfg, &c);
    CHECK(st == PS_EUNSUPPORTED && strstr(ps_error_detail(), "backend 'reference' has no fast path"),
          "reference --kernel fast: %d %s", st, ps_error_detail());
    {
        ps_config h;
        ps_config_init(&h, grids[0], PS_FLOAT32);
        h.stencil = ps_stencil_find("smooth2");
        h.kernel = PS_KERNEL_FAST;
        ps_params_free(&h.params); /* the default stencil's */
        st = ps_stencil_prepare_default(h.stencil, grids[0], &h.params);
        CHECK(st == 0, "smooth2's parameters: %s", ps_error_detail());
        st = st ? st : ps_context_create(omp, &h, &c);
        CHECK(st == PS_EUNSUPPORTED &&
                  strstr(ps_error_detail(), "no fast path for stencil 'smooth2'"),
              "openmp --kernel fast, smooth2: %d %s", st, ps_error_detail());
        if (!st)
            ps_context_destroy(c);
        h.kernel = PS_KERNEL_AUTO;
        st = ps_context_create(omp, &h, &c);
        CHECK(st == 0, "openmp auto, smooth2: %s", ps_error_detail());
        if (!st)
            ps_context_destroy(c);
        ps_params_free(&h.params);
    }
    cfg.kernel = (ps_kernel)7;
    st = ps_context_create(omp, &cfg, &c);
    CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "unknown kernel choice 7"),
          "kernel 7: %d %s", st, ps_error_detail());
    cfg.kernel = PS_KERNEL_AUTO;
    cfg.device = 1;
    st = ps_context_create(omp, &cfg, &c);
    CHECK(st == PS_ENODEVICE && strstr(ps_error_detail(), "device 1 does not exist"),
          "device 1: %d %s", st, ps_error_detail());
    cfg.device = -1;
    cfg.threads = -2;
    st = ps_context_create(omp, &cfg, &c);
    CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "thread count -2"), "threads -2: %d %s",
          st, ps_error_detail());
    /* every source of the thread count has the same bound, 1..PS_THREADS_MAX */
    cfg.threads = PS_THREADS_MAX + 1;
    st = ps_context_create(omp, &cfg, &c);
    CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "thread count 4097") &&
              strstr(ps_error_detail(), "1..4096"),
          "threads 4097: %d %s", st, ps_error_detail());
    cfg.threads = 0;
    {
        static const char *const bad_env[] = {"100000", "4,100000", "0", "-1", "4097", "abc",
                                              "4,,2", "4;2"};
        size_t e;
        for (e = 0; e < sizeof bad_env / sizeof bad_env[0]; e++) {
            char want[64];
            setenv("OMP_NUM_THREADS", bad_env[e], 1);
            snprintf(want, sizeof want, "OMP_NUM_THREADS=%s:", bad_env[e]);
            st = ps_context_create(omp, &cfg, &c);
            CHECK(st == PS_EINVAL && strstr(ps_error_detail(), want) &&
                      strstr(ps_error_detail(), "1..4096"),
                  "OMP_NUM_THREADS=%s: %d %s", bad_env[e], st, ps_error_detail());
            if (!st)
                ps_context_destroy(c);
        }
        /* an explicit count does not use the environment's */
        cfg.threads = 2;
        st = ps_context_create(omp, &cfg, &c);
        CHECK(st == 0, "threads 2 with OMP_NUM_THREADS=%s: %s", getenv("OMP_NUM_THREADS"),
              ps_error_detail());
        if (!st)
            ps_context_destroy(c);
        cfg.threads = 0;
        setenv("OMP_NUM_THREADS", " 4 , 2 ", 1);
        st = ps_context_create(omp, &cfg, &c);
        CHECK(st == 0, "OMP_NUM_THREADS=' 4 , 2 ': %s", ps_error_detail());
        if (!st)
            ps_context_destroy(c);
        unsetenv("OMP_NUM_THREADS");
    }

    ps_backend_close(ref);
    ps_backend_close(omp);
    if (ps_test_failures)
        printf("%d failure(s)\n", ps_test_failures);
    else
        printf("openmp: region sequences, tiles and threads bitwise equal to the reference\n");
    return ps_test_failures ? 1 : 0;
}
