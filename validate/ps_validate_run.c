/*
 * Running a backend on one input: upload (whole, or through sub-regions
 * that exercise the region code), step, finish, download into a poisoned
 * field.
 */
#include "config.h"
#include "ps_validate_internal.h"
#include "ps_region.h"
#include "ps_status.h"

#include <stdlib.h>
#include <string.h>

/* Upload @p in through sub-regions: k-slabs of 1, 2, 3... levels, each split in j. */
static int upload_regions(ps_context *ctx, const ps_field *in, void *scratch)
{
    const ps_grid *g = &in->grid;
    size_t es = ps_precision_size(in->precision), k0 = 0, th = 1;
    int st;
    while (k0 < g->nz) {
        size_t kc = th < g->nz - k0 ? th : g->nz - k0;
        size_t jsplit = g->ny / 2, part;
        for (part = 0; part < 2; part++) {
            ps_region r;
            memset(&r, 0, sizeof r);
            r.start[0] = k0;
            r.start[1] = part ? jsplit : 0;
            r.count.nz = kc;
            r.count.ny = part ? g->ny - jsplit : jsplit;
            r.count.nx = g->nx;
            if (!r.count.ny)
                continue;
            ps_region_gather(scratch, in->data, g, &r, es);
            st = ps_context_upload(ctx, scratch, &r);
            if (st)
                return st;
        }
        k0 += kc;
        th = th % 3 + 1;
    }
    return PS_OK;
}

/* Download into @p out through sub-regions: i split in three, k in slabs of 2. */
static int download_regions(ps_context *ctx, ps_field *out, void *scratch)
{
    const ps_grid *g = &out->grid;
    size_t es = ps_precision_size(out->precision), k0, part;
    size_t cut[4] = {0, g->nx / 3, (2 * g->nx) / 3, g->nx};
    int st;
    for (k0 = 0; k0 < g->nz; k0 += 2)
        for (part = 0; part < 3; part++) {
            ps_region r;
            memset(&r, 0, sizeof r);
            r.start[0] = k0;
            r.start[2] = cut[part];
            r.count.nz = g->nz - k0 < 2 ? g->nz - k0 : 2;
            r.count.ny = g->ny;
            r.count.nx = cut[part + 1] - cut[part];
            if (!r.count.nx)
                continue;
            st = ps_context_download(ctx, scratch, &r);
            if (st)
                return st;
            ps_region_scatter(out->data, g, scratch, &r, es);
        }
    return PS_OK;
}

/* Upload, step, download on an existing context (out poisoned first). */
int psv_run_on_context(ps_context *ctx, const ps_field *input, long steps, int regions,
                       ps_field *out)
{
    void *scratch = NULL;
    size_t bytes = 0;
    int st;
    ps_field_poison(out);
    if (regions) {
        ps_grid_size(&input->grid, input->precision, NULL, &bytes);
        scratch = malloc(bytes ? bytes : 1);
        if (!scratch)
            return ps_error(PS_ENOMEM, "out of memory");
        st = upload_regions(ctx, input, scratch);
    } else {
        st = ps_context_upload(ctx, input->data, NULL);
    }
    if (!st)
        st = ps_context_step(ctx, steps);
    if (!st)
        st = ps_context_finish(ctx);
    if (!st)
        st = regions ? download_regions(ctx, out, scratch)
                     : ps_context_download(ctx, out->data, NULL);
    free(scratch);
    return st;
}

int ps_validate_run_backend(ps_backend *b, const ps_config *cfg_in, const ps_field *input,
                            long steps, int regions, ps_field *out)
{
    ps_config cfg = *cfg_in;
    ps_context *ctx = NULL;
    int st;
    cfg.box = ps_box_whole(input->grid);
    cfg.precision = input->precision;
    ps_field_poison(out);
    st = ps_context_create(b, &cfg, &ctx);
    if (!st)
        st = psv_run_on_context(ctx, input, steps, regions, out);
    ps_context_destroy(ctx);
    return st;
}
