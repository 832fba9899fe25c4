/*
 * Several prognostic fields (--tracers A,B): each a variable of the input, of
 * the built-in ocean or of the caller's memory, on field 0's grid and with its
 * land, stepped by the same stencil with the same parameters and inputs (the
 * fields do not interact), written as a variable each, reduced each, and
 * recorded in the output for --continue.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "a,b,c" into j->fname (count in j->nfields); PS_EINVAL naming the problem */
static int parse_list(ps_job *j, const char *list)
{
    const char *p = list;
    int n = 0, q;
    while (1) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!len)
            return ps_error(PS_EINVAL, "--tracers %s: an empty variable name (give names "
                            "separated by commas, e.g. thetao,so)", list);
        if (n >= PS_JOB_MAX_FIELDS)
            return ps_error(PS_EINVAL, "--tracers %s: at most %d fields", list,
                            PS_JOB_MAX_FIELDS);
        if (len >= sizeof j->fname[0])
            return ps_error(PS_EINVAL, "--tracers: the variable name '%.*s...' is too long",
                            40, p);
        memcpy(j->fname[n], p, len);
        j->fname[n][len] = '\0';
        for (q = 0; q < n; q++)
            if (!strcmp(j->fname[q], j->fname[n]))
                return ps_error(PS_EINVAL, "--tracers %s: variable %s is given twice", list,
                                j->fname[n]);
        n++;
        if (!e)
            break;
        p = e + 1;
    }
    j->nfields = n;
    return PS_OK;
}

int ps_job_field_names(ps_job *j)
{
    int st;
    if (!j->tracers) {
        j->nfields = 1 + j->n_in_xf;
        return PS_OK; /* fname[0] once the input is known; the caller's named theirs */
    }
    if (j->n_in_xf)
        return ps_error(PS_EINVAL, "--tracers: the fields are the caller's "
                        "(ps_job_add_input_field()); leave --tracers out");
    if ((st = parse_list(j, j->tracers)))
        return st;
    if (j->var && strcmp(j->var, j->fname[0]))
        return ps_error(PS_EINVAL, "--var %s contradicts --tracers %s, whose first variable "
                        "is the field read (leave --var out)", j->var, j->tracers);
    if (!j->var && !(j->var = strdup(j->fname[0])))
        return ps_error(PS_ENOMEM, "out of memory");
    return PS_OK;
}

/* Field @p f's land must be field 0's: the stencil's parameters and inputs are made
 * over field 0's land. @p own (NULL: every cell) limits the check to a region. */
static int same_land(ps_job *j, int f, const ps_region *own)
{
    const ps_field *a = &j->field, *b = &j->xf[f];
    const ps_grid *g = &a->grid;
    size_t k, jj, i;
    size_t k0 = own ? own->start[0] : 0, j0 = own ? own->start[1] : 0,
           i0 = own ? own->start[2] : 0;
    size_t nk = own ? own->count.nz : g->nz, nj = own ? own->count.ny : g->ny,
           ni = own ? own->count.nx : g->nx;
    for (k = 0; k < nk; k++)
        for (jj = 0; jj < nj; jj++)
            for (i = 0; i < ni; i++) {
                size_t c = ps_index(g, k0 + k, j0 + jj, i0 + i);
                double va = ps_job_value_at(a, c), vb = ps_job_value_at(b, c);
                if (isnan(va) != isnan(vb))
                    return ps_error(PS_EINVAL, "--tracers: %s is %s at level %zu, row %zu, "
                                    "column %zu, where %s is %s: every field needs the same "
                                    "land (NaN) as the first", j->fname[f],
                                    isnan(vb) ? "land (NaN)" : "ocean", k0 + k, j0 + jj,
                                    i0 + i, j->fname[0], isnan(va) ? "land" : "ocean");
                if (isinf(vb) && !j->keep_nonfinite)
                    return ps_error(PS_EINVAL, "%s: %s is infinite at level %zu, row %zu, "
                                    "column %zu; refused (give --keep-nonfinite to keep it)",
                                    ps_job_input_name(j), j->fname[f], k0 + k, j0 + jj, i0 + i);
            }
    return PS_OK;
}

/* Field @p f of the input file or the built-in ocean, whole (bx NULL) or the box. */
static int read_one(ps_job *j, int f, const ps_decomp_box *bx)
{
    ps_field f32;
    int st;
    memset(&f32, 0, sizeof f32);
    if (j->input) {
        ps_dataset *d = &j->xds[f];
        if ((st = ps_dataset_open(d, j->input, j->fname[f])))
            return strstr(ps_error_detail(), j->input)
                       ? st : ps_error(st, "%s: %s", j->input, ps_error_detail());
        j->have_xds[f] = 1;
        if (d->grid.nz != j->ds.grid.nz || d->grid.ny != j->ds.grid.ny ||
            d->grid.nx != j->ds.grid.nx || d->ntime != j->ds.ntime ||
            d->axes[PS_AXIS_DEPTH].reversed != j->ds.axes[PS_AXIS_DEPTH].reversed)
            return ps_error(PS_EINVAL, "%s: --tracers: %s (%zu x %zu x %zu, %zu records) is "
                            "not on the grid of %s (%zu x %zu x %zu, %zu records)", j->input,
                            j->fname[f], d->grid.nz, d->grid.ny, d->grid.nx, d->ntime,
                            j->fname[0], j->ds.grid.nz, j->ds.grid.ny, j->ds.grid.nx,
                            j->ds.ntime);
        if (bx) {
            size_t start[3], count[3];
            int a;
            for (a = 0; a < 3; a++)
                start[a] = bx->box.origin[a];
            count[0] = bx->box.extent.nz;
            count[1] = bx->box.extent.ny;
            count[2] = bx->box.extent.nx;
            st = ps_dataset_read_region(d, (size_t)j->time_index, start, count, j->precision,
                                        &j->xf[f]);
        } else {
            st = ps_dataset_read(d, (size_t)j->time_index, j->precision, &j->xf[f]);
        }
        return st && !strstr(ps_error_detail(), j->input)
                   ? ps_error(st, "%s: %s", j->input, ps_error_detail()) : st;
    }
    /* the built-in ocean */
    {
        ps_ocean_options oo;
        ps_ocean_defaults(&oo);
        st = ps_ocean_generate_var(&oo, (size_t)j->time_index, j->fname[f], &j->xds[f], &f32);
        if (st)
            return ps_error(st, "built-in ocean: --tracers: %s", ps_error_detail());
        j->have_xds[f] = 1;
    }
    if (bx) {
        st = ps_job_box_of(&f32, bx, j->precision, &j->xf[f]);
    } else {
        st = ps_field_alloc(&j->xf[f], f32.grid, j->precision);
        if (!st)
            st = ps_field_convert(&j->xf[f], &f32);
    }
    ps_field_free(&f32);
    return st;
}

/* The caller's field @p f: copied into the job's (the first field may be stepped in
 * place, the others are the job's to step). */
static int take_callers(ps_job *j, int f)
{
    const ps_field *in = j->in_xf[f];
    int st;
    if (in->precision != j->precision || in->grid.nz != j->field.grid.nz ||
        in->grid.ny != j->field.grid.ny || in->grid.nx != j->field.grid.nx)
        return ps_error(PS_EINVAL, "field %s: its grid or precision is not the first "
                        "field's (%zu x %zu x %zu, %s)", j->fname[f], j->field.grid.nz,
                        j->field.grid.ny, j->field.grid.nx, ps_precision_name(j->precision));
    if ((st = ps_field_alloc(&j->xf[f], in->grid, j->precision)))
        return st;
    memcpy(j->xf[f].data, in->data, ps_field_cells(in) * ps_precision_size(j->precision));
    if ((st = ps_dataset_from_memory(&j->xds[f], in->grid, j->in_coords)))
        return st;
    j->have_xds[f] = 1;
    snprintf(j->xds[f].var_name, sizeof j->xds[f].var_name, "%s", j->fname[f]);
    return PS_OK;
}

int ps_job_read_fields(ps_job *j, const ps_decomp_box *bx)
{
    int f, st = PS_OK;
    if (!j->fname[0][0])
        snprintf(j->fname[0], sizeof j->fname[0], "%s",
                 j->have_ds && j->ds.var_name[0] ? j->ds.var_name : "thetao");
    for (f = 1; f < j->nfields; f++)
        if (!strcmp(j->fname[f], j->fname[0]))
            return ps_error(PS_EINVAL, "field %s is given twice", j->fname[f]);
    for (f = 1; f < j->nfields && !st; f++) {
        st = j->in_field ? take_callers(j, f) : read_one(j, f, bx);
        if (!st)
            st = same_land(j, f, bx ? &j->own_r : NULL);
    }
    if (st)
        return st;
    j->rep.fields = j->nfields;
    for (f = 0; f < j->nfields; f++)
        j->rep.field_names[f] = j->fname[f];
    return PS_OK;
}

int ps_job_field_list(ps_job *j, ps_field **out)
{
    int f;
    for (f = 0; f < j->nfields; f++)
        out[f] = ps_job_field_at(j, f);
    return j->nfields;
}

int ps_job_add_output_fields(ps_job *j)
{
    char list[PS_JOB_MAX_FIELDS * 257] = "";
    size_t used = 0;
    int f, st;
    for (f = 1; f < j->nfields; f++)
        if ((st = ps_writer_add_field(j->writer, &j->xds[f])))
            return st;
    if (j->nfields < 2)
        return PS_OK;
    /* the list a continued run steps again */
    for (f = 0; f < j->nfields; f++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", f ? "," : "",
                                 j->fname[f]);
    return ps_writer_put_global(j->writer, "pstencil_tracers", list, 0);
}

int ps_job_add_input_field(ps_job *j, const char *name, const ps_field *field)
{
    int n;
    if (!j || !name || !*name || !field || !field->data)
        return ps_error(PS_EINVAL, "no field or name");
    if (j->prepared)
        return ps_error(PS_EINVAL, "the job is already prepared");
    if (!j->in_field)
        return ps_error(PS_EINVAL, "give the first field with ps_job_set_input_field() "
                        "before adding more");
    n = 1 + j->n_in_xf;
    if (n >= PS_JOB_MAX_FIELDS)
        return ps_error(PS_EINVAL, "at most %d fields", PS_JOB_MAX_FIELDS);
    if (strlen(name) >= sizeof j->fname[0])
        return ps_error(PS_EINVAL, "field name '%.40s...' is too long", name);
    for (int q = 1; q < n; q++)
        if (!strcmp(j->fname[q], name))
            return ps_error(PS_EINVAL, "field %s is given twice", name);
    snprintf(j->fname[n], sizeof j->fname[n], "%s", name);
    j->in_xf[n] = field;
    j->n_in_xf++;
    return PS_OK;
}

const ps_field *ps_job_result_at(const ps_job *j, int i)
{
    if (!j || !j->prepared || i < 0 || i >= j->nfields)
        return NULL;
    return i ? &j->xf[i] : &j->field;
}
