/*
 * Synthetic coordinates, currents and the kernel parameters of a stencil on
 * a validation case's field (ps_stencil_prepare() with the stencil's default
 * options), so a stencil that needs the grid's coordinates
 * (PS_STENCIL_COORDS) or currents (auxiliary inputs) is validated like any
 * other.
 */
#include "config.h"
#include "ps_validate.h"
#include "ps_status.h"
#include "ps_currents.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PSV_MAX_OPTIONS 64

void ps_validate_coordinates(ps_grid g, double *depth, double *lat, double *lon)
{
    size_t q;
    for (q = 0; depth && q < g.nz; q++)
        depth[q] = 5.0 + 10.0 * (double)q * (double)q;
    for (q = 0; lat && q < g.ny; q++)
        lat[q] = 45.0 + 0.25 * ((double)q - (double)(g.ny ? g.ny - 1 : 0) / 2.0);
    for (q = 0; lon && q < g.nx; q++)
        lon[q] = -10.0 + 0.25 * (double)q;
}

int ps_validate_params(const ps_stencil *s, const ps_field *f, ps_params *out, char *note,
                       size_t len)
{
    double opts[PSV_MAX_OPTIONS], *coords = NULL, *inbuf = NULL;
    const double *inptr[PSV_MAX_OPTIONS];
    const ps_grid g = f->grid;
    ps_stencil_setup in;
    ps_stencil_report rep;
    int st, i, nauto = 0;
    memset(out, 0, sizeof *out);
    if (s->ninputs > PSV_MAX_OPTIONS)
        return ps_error(PS_EINVAL, "stencil %s has more than %d inputs", s->name,
                        PSV_MAX_OPTIONS);
    if (s->noptions > PSV_MAX_OPTIONS)
        return ps_error(PS_EINVAL, "stencil %s has more than %d options", s->name,
                        PSV_MAX_OPTIONS);
    memset(&in, 0, sizeof in);
    in.grid = g;
    ps_stencil_default_options(s, opts);
    in.options = opts;
    if ((s->flags & PS_STENCIL_COORDS) || s->ninputs) {
        coords = malloc((g.nz + g.ny + g.nx + 1) * sizeof *coords);
        if (!coords)
            return ps_error(PS_ENOMEM, "out of memory");
        in.depth = coords;
        in.lat = coords + g.nz;
        in.lon = coords + g.nz + g.ny;
        ps_validate_coordinates(g, coords, coords + g.nz, coords + g.nz + g.ny);
    }
    if (s->ninputs) {
        if ((st = ps_currents_inputs(s, g, f, coords, coords + g.nz, coords + g.nz + g.ny,
                                     PS_GYRE_SPEED, &inbuf, inptr))) {
            free(inbuf);
            free(coords);
            return st;
        }
        in.inputs = inptr;
    }
    st = ps_stencil_prepare(s, &in, out, &rep);
    for (i = 0; i < s->noptions; i++)
        nauto += isnan(opts[i]) && s->options[i].allow_auto;
    if (st == PS_EINVAL && nauto) {
        /* e.g. an auto time step: nothing limits it on a grid without interior cells */
        for (i = 0; i < s->noptions; i++)
            if (isnan(opts[i]) && s->options[i].allow_auto)
                opts[i] = 1.0;
        st = ps_stencil_prepare(s, &in, out, &rep);
        if (!st)
            snprintf(rep.note, sizeof rep.note, "'auto' options set to 1 (nothing limits "
                     "them on this grid)");
    }
    if (!st && note)
        snprintf(note, len, "%s", rep.note);
    free(inbuf);
    free(coords);
    return st;
}
