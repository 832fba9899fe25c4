/*
 * A job's input: an earlier run's output to continue, a CF netCDF file, the
 * built-in ocean, or a field in the caller's memory; and the check every
 * command applies to it: it has ocean, and its ocean is finite (NaN is land).
 */
#include "config.h"
#include "ps_job_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *ps_job_input_name(const ps_job *j)
{
    return j->input      ? j->input
           : j->in_field ? "in-memory field"
           : j->scale > 0 ? j->scale_name
                          : "built-in ocean";
}

/* Open the file (the input, or the output continued) and check the time index. */
int ps_job_open_input(ps_job *j)
{
    int st;
    if (j->cont && !j->input && !(j->input = strdup(j->cont)))
        return ps_error(PS_ENOMEM, "out of memory");
    if (!j->input)
        return PS_OK;
    if ((st = ps_dataset_open(&j->ds, j->input, j->var)))
        return strstr(ps_error_detail(), j->input) ? st
                                                   : ps_error(st, "%s: %s", j->input,
                                                              ps_error_detail());
    j->have_ds = 1;
    if (j->cont && (st = ps_job_continue_from(j)))
        return st;
    if ((size_t)j->time_index >= j->ds.ntime)
        return ps_error(PS_ERANGE, "--time-index %ld is out of range: %s has %zu time record%s "
                        "(0..%zu)", j->time_index, j->input, j->ds.ntime,
                        j->ds.ntime == 1 ? "" : "s", j->ds.ntime - 1);
    /* the output's time axis continues the input's: refused now, not after the run */
    if ((st = ps_dataset_check_time(&j->ds, (size_t)j->time_index)))
        return strstr(ps_error_detail(), j->input) ? st
                                                   : ps_error(st, "%s: %s", j->input,
                                                              ps_error_detail());
    return PS_OK;
}

int ps_job_check_source(const ps_job *j)
{
    if (j->scale > 0 && (j->input || j->in_field || j->cont))
        return ps_error(PS_EINVAL, "--scale applies to the built-in ocean, not to %s",
                        j->input ? j->input : j->cont ? j->cont : "a field in memory");
    if (j->in_field && j->input)
        return ps_error(PS_EINVAL, "give either an input file or a field, not both");
    if (j->in_field && j->in_field->precision != j->precision)
        return ps_error(PS_EINVAL, "the field is %s, the job's precision %s: give the "
                        "precision of the field", ps_precision_name(j->in_field->precision),
                        ps_precision_name(j->precision));
    return PS_OK;
}

/* The built-in ocean at the time index (float32, whole grid) and its dataset. */
int ps_job_ocean(ps_job *j, ps_field *f32)
{
    ps_ocean_options oo;
    int st;
    ps_ocean_defaults(&oo);
    if (j->scale > 0)
        oo.scale = j->scale;
    if ((size_t)j->time_index >= oo.ntime)
        return ps_error(PS_ERANGE, "--time-index %ld is out of range: the built-in ocean has "
                        "%zu time records (0..%zu)", j->time_index, oo.ntime, oo.ntime - 1);
    st = ps_ocean_generate_var(&oo, (size_t)j->time_index, j->var, &j->ds, f32);
    if (!st)
        j->have_ds = 1;
    return st ? ps_error(st, "built-in ocean: %s", ps_error_detail()) : PS_OK;
}

/* A rank's box of the built-in ocean: ps_ocean_generate_var() makes the whole grid in
 * float32, each rank keeps its box. */
int ps_job_box_of(const ps_field *f32, const ps_decomp_box *bx, ps_precision p, ps_field *out)
{
    size_t k, jj, i, c = 0;
    int st = ps_field_alloc(out, bx->box.extent, p);
    for (k = 0; !st && k < bx->box.extent.nz; k++)
        for (jj = 0; jj < bx->box.extent.ny; jj++)
            for (i = 0; i < bx->box.extent.nx; i++, c++) {
                float v = ((const float *)f32->data)[ps_index(
                    &f32->grid, bx->box.origin[0] + k, bx->box.origin[1] + jj,
                    bx->box.origin[2] + i)];
                if (p == PS_FLOAT64)
                    ((double *)out->data)[c] = (double)v;
                else
                    ((float *)out->data)[c] = v;
            }
    return st;
}

/* The whole field into j->field, in the job's precision (one process). */
int ps_job_read_input(ps_job *j)
{
    int st;
    double t = ps_now();
    if (j->in_field) {
        /* its description: the caller's coordinates become the output's axes */
        if ((st = ps_dataset_from_memory(&j->ds, j->in_field->grid, j->in_coords)))
            return st;
        j->have_ds = 1;
        /* the caller's first field is named by "var" (default thetao) */
        snprintf(j->ds.var_name, sizeof j->ds.var_name, "%s", j->var ? j->var : "thetao");
        if (j->result && j->result != j->in_field) {
            /* the caller's result buffer is stepped: the input is copied into it once */
            if (j->result->precision != j->precision ||
                ps_field_cells(j->result) != ps_field_cells(j->in_field) ||
                j->result->grid.nz != j->in_field->grid.nz ||
                j->result->grid.ny != j->in_field->grid.ny)
                return ps_error(PS_EINVAL, "the result field's grid or precision is not the "
                                "input's");
            j->field = *j->result;
            memcpy(j->field.data, j->in_field->data,
                   ps_field_cells(j->in_field) * ps_precision_size(j->precision));
        } else if (j->result) {
            j->field = *j->result; /* stepped in place */
        } else {
            if ((st = ps_field_alloc(&j->field, j->in_field->grid, j->precision)))
                return st;
            j->field_owned = 1;
            memcpy(j->field.data, j->in_field->data,
                   ps_field_cells(j->in_field) * ps_precision_size(j->precision));
        }
    } else if ((st = ps_job_open_input(j))) {
        return st;
    } else if (j->input) {
        /* the field, the backend's two buffers and a kept initial state must fit:
         * refuse before allocating anything */
        st = ps_dataset_check_memory(&j->ds, j->precision,
                                     3 * (size_t)j->nfields + (j->keep_initial ? 1 : 0));
        if (!st)
            st = ps_dataset_read(&j->ds, (size_t)j->time_index, j->precision, &j->field);
        if (st)
            return strstr(ps_error_detail(), j->input) ? st
                                                       : ps_error(st, "%s: %s", j->input,
                                                                  ps_error_detail());
        j->field_owned = 1;
    } else {
        ps_field f32;
        if ((st = ps_job_ocean(j, &f32)))
            return st;
        j->field_owned = 1;
        if (j->precision == PS_FLOAT32) {
            j->field = f32;
        } else {
            st = ps_field_alloc(&j->field, f32.grid, j->precision);
            if (!st)
                st = ps_field_convert(&j->field, &f32);
            ps_field_free(&f32);
            if (st)
                return ps_error(st, "built-in ocean: %s", ps_error_detail());
        }
    }
    if (j->result && j->result->data != j->field.data) {
        /* a file's field goes into the caller's result buffer */
        if (j->result->precision != j->precision ||
            ps_field_cells(j->result) != ps_field_cells(&j->field))
            return ps_error(PS_EINVAL, "the result field's grid or precision is not the "
                            "input's (%zu x %zu x %zu, %s)", j->field.grid.nz, j->field.grid.ny,
                            j->field.grid.nx, ps_precision_name(j->precision));
        memcpy(j->result->data, j->field.data,
               ps_field_cells(&j->field) * ps_precision_size(j->precision));
        ps_field_free(&j->field);
        j->field_owned = 0;
        j->field = *j->result;
    }
    j->rep.read_s = ps_now() - t;
    j->rep.grid = j->field.grid;
    j->rep.input = ps_job_input_name(j);
    return PS_OK;
}

/*
 * The input must have ocean, and its ocean must be finite (NaN is land): the
 * check every command applies (ps_field_check_ocean()); an infinity is
 * refused, or with keep-nonfinite reported and kept. Fills j->land.
 */
int ps_job_check_ocean(ps_job *j, const ps_field *f, size_t ncells)
{
    ps_ocean_count n;
    ps_dataset mem;
    const ps_dataset *ds = &j->ds;
    const ps_grid *g = &f->grid;
    int st;
    if ((st = ps_job_land_alloc(j, ncells)))
        return st;
    if (!j->have_ds) { /* no description: the caller's field */
        memset(&mem, 0, sizeof mem);
        snprintf(mem.path, sizeof mem.path, "in-memory field");
        mem.ncid = -1;
        ds = &mem;
    }
    st = ps_field_check_ocean(ds, (size_t)j->time_index, f, j->keep_nonfinite, NULL, &n);
    if (!st) {
        size_t c;
        if (f->precision == PS_FLOAT64) {
            const double *v = f->data;
            for (c = 0; c < ncells; c++)
                j->land[c >> 6] |= (uint64_t)(v[c] != v[c]) << (c & 63);
        } else {
            const float *v = f->data;
            for (c = 0; c < ncells; c++)
                j->land[c >> 6] |= (uint64_t)(v[c] != v[c]) << (c & 63);
        }
    }
    if (st == PS_ERANGE)
        return ps_error(PS_EINVAL, "%s; refused (give --keep-nonfinite to keep them)",
                        ps_error_detail());
    if (st)
        return ps_error(st, "%s; there is nothing to run", ps_error_detail());
    if (n.inf)
        ps_job_note(j, "warning: %s: %zu ocean cell%s infinite (first at level %zu, row %zu, "
                    "column %zu); kept as asked (--keep-nonfinite)", ps_job_input_name(j),
                    n.inf, n.inf == 1 ? " is" : "s are", n.first_inf / (g->nx * g->ny),
                    n.first_inf / g->nx % g->ny, n.first_inf % g->nx);
    return PS_OK;
}

int ps_job_land_alloc(ps_job *j, size_t n)
{
    free(j->land);
    j->land = calloc(n / 64 + 1, sizeof *j->land);
    return j->land ? PS_OK : ps_error(PS_ENOMEM, "out of memory (land mask of %zu cells)", n);
}

/* The grid's coordinates for a stencil that needs them, then its parameters. */
int ps_job_prepare_stencil(ps_job *j, ps_grid global)
{
    ps_stencil_setup setup;
    const ps_grid_coords *c = &j->coords;
    int st;
    if (j->stencil->flags & PS_STENCIL_COORDS) {
        if (j->in_field) {
            if (!j->in_coords || !j->in_coords->depth || !j->in_coords->lat ||
                !j->in_coords->lon)
                return ps_error(PS_EINVAL, "stencil %s needs the grid's coordinates: give "
                                "depth, latitude and longitude with the field",
                                j->stencil->name);
            c = j->in_coords;
        } else if ((st = ps_dataset_coords(&j->ds, &j->coords))) {
            return ps_error(st, "stencil %s needs the grid's coordinates: %s",
                            j->stencil->name, ps_error_detail());
        }
    }
    memset(&setup, 0, sizeof setup);
    setup.grid = global;
    setup.depth = c->depth;
    setup.lat = c->lat;
    setup.lon = c->lon;
    setup.options = j->options;
    setup.allow_unstable = j->allow_unstable;
    if (j->stencil->ninputs > 0 || j->velocity || j->ncaller) {
        /* the inputs over the global grid, masked by the whole grid's land */
        double *in[PS_JOB_MAX_INPUTS] = {NULL};
        const double *cin[PS_JOB_MAX_INPUTS];
        int q;
        if (!c->depth && !j->in_field && (st = ps_dataset_coords(&j->ds, &j->coords)))
            return ps_error(st, "stencil %s: the grid's coordinates: %s", j->stencil->name,
                            ps_error_detail());
        st = ps_job_read_inputs(j, global, c, j->ranked ? j->gland : j->land, in);
        for (q = 0; q < PS_JOB_MAX_INPUTS; q++)
            cin[q] = in[q];
        setup.inputs = cin;
        if (!st)
            st = ps_stencil_prepare(j->stencil, &setup, &j->params, &j->srep);
        for (q = 0; q < PS_JOB_MAX_INPUTS; q++)
            free(in[q]);
        if (st)
            return st;
    } else if ((st = ps_stencil_prepare(j->stencil, &setup, &j->params, &j->srep))) {
        return st;
    }
    if (j->srep.seconds_per_step > 0)
        j->dt = j->srep.seconds_per_step;
    if (j->srep.note[0])
        ps_job_note(j, "%s", j->srep.note);
    memcpy(j->rep.options, j->options, sizeof j->rep.options);
    j->rep.seconds_per_step = j->dt;
    j->rep.stable_limit = j->srep.stable_limit;
    return ps_job_check_kernel(j);
}

void ps_job_release_arrays(ps_job *j)
{
    free(j->params.arrays);
    j->params.arrays = NULL;
}

/* The backend (by name; auto: the best that can run) and its devices. */
int ps_job_open_backend(ps_job *j)
{
    const char *bname = j->backend ? j->backend : getenv("PSTENCIL_BACKEND");
    char why[4096];
    int st;
    if (!bname || !*bname)
        bname = "auto";
    if (!strcmp(bname, "auto")) {
        if ((st = ps_backend_open_auto(&j->b, why, sizeof why)))
            return ps_error(st, "no backend can run: %s", ps_error_detail());
        ps_job_note(j, "%s", why);
    } else if ((st = ps_backend_open(bname, &j->b))) {
        return strstr(ps_error_detail(), "--backend")
                   ? st : ps_error(st, "--backend: %s", ps_error_detail());
    }
    if ((st = ps_backend_probe(j->b, j->devs, 16, &j->ndev)))
        return ps_error(st, "backend '%s' cannot run: %s", ps_backend_name(j->b),
                        ps_error_detail());
    if (j->ndev < 1)
        return ps_error(PS_ENODEVICE, "backend '%s' has no device", ps_backend_name(j->b));
    j->rep.backend = ps_backend_name(j->b);
    j->rep.backend_path = ps_backend_path(j->b);
    j->rep.backend_origin = ps_backend_origin(j->b);
    j->rep.backend_flags = ps_backend_get_ops(j->b)->flags;
    return ps_job_check_kernel(j);
}

int ps_job_pick_device(ps_job *j)
{
    j->dev = j->device < 0 ? 0 : (int)j->device;
    if (j->dev >= j->ndev)
        return ps_error(PS_EINVAL, "--device %d: backend '%s' has %d device%s (0..%d)", j->dev,
                        ps_backend_name(j->b), j->ndev, j->ndev == 1 ? "" : "s", j->ndev - 1);
    j->rep.device = j->devs[j->dev];
    return PS_OK;
}

void ps_job_config(const ps_job *j, ps_grid g, int device, ps_config *cfg)
{
    ps_config_init(cfg, g, j->precision);
    cfg->mode = j->mode;
    cfg->kernel = j->kernel;
    cfg->stencil = j->stencil;
    cfg->params = j->params;
    cfg->device = device;
    cfg->threads = (int)j->threads;
    memcpy(cfg->block, j->block, sizeof cfg->block);
    cfg->knobs = j->knobs;
}

int ps_job_check_kernel(ps_job *j)
{
    if (!j->b || !j->stencil)
        return PS_OK; /* checked again once both are known */
    return ps_backend_kernel_check(j->b, j->stencil->name, j->kernel);
}
