/* The one way io/ reads a variable's values: the destination's capacity and
 * the variable's shape, as netCDF-C reports it, are checked before netCDF-C
 * writes anything (docs/reliability.md, "Reads bounded by their buffer"). */
#include "config.h"
#include "ps_nc_internal.h"
#include "ps_status.h"

#include <netcdf.h>
#include <stdio.h>

int ps_nc_get(ps_nc_read_spec *r, void *out)
{
    int nd = -1, dimids[NC_MAX_VAR_DIMS], d, rc;
    size_t n = 1, len;
    char vname[NC_MAX_NAME + 1] = "?", dname[NC_MAX_NAME + 1];
    const char *path = r->path ? r->path : "input";

    r->nc_rc = NC_NOERR;

    if (nc_inq_varname(r->ncid, r->varid, vname) || nc_inq_varndims(r->ncid, r->varid, &nd) ||
        nd < 0 || nd > NC_MAX_VAR_DIMS || nc_inq_vardimid(r->ncid, r->varid, dimids))
        return ps_error(PS_EFORMAT, "%s: damaged NetCDF header: cannot read the shape of "
                        "variable '%s'", path, vname);
    if (r->rank >= 0 && nd != r->rank)
        return ps_error(PS_EFORMAT, "%s: variable '%s' has %d dimension%s, expected %d", path,
                        vname, nd, nd == 1 ? "" : "s", r->rank);
    for (d = 0; d < nd; d++) {
        dname[0] = '\0';
        if ((rc = nc_inq_dim(r->ncid, dimids[d], dname, &len)))
            return ps_error(PS_EFORMAT, "%s: damaged NetCDF header: dimension %d of variable "
                            "'%s' is not readable (netCDF: %s)", path, d, vname,
                            nc_strerror(rc));
        if (r->dimids && dimids[d] != r->dimids[d])
            return ps_error(PS_EFORMAT,
                            "%s: variable '%s' is over dimension '%s' (id %d) where '%s' "
                            "(id %d) was expected: two dimensions share a name, or the "
                            "header is damaged", path, vname, dname, dimids[d],
                            r->dim_names ? r->dim_names[d] : "?", r->dimids[d]);
        if (r->start && (r->start[d] > len || r->count[d] > len - r->start[d]))
            return ps_error(PS_EFORMAT, "%s: reading '%s': indices %zu..%zu past the length "
                            "%zu of its dimension '%s'", path, vname, r->start[d],
                            r->start[d] + r->count[d] - 1, len, dname);
        len = r->start ? r->count[d] : len;
        if (len && n > r->cap / len)
            return ps_error(PS_EFORMAT, "%s: variable '%s' holds more values than the %zu "
                            "its reader expects (dimension '%s' of length %zu)", path, vname,
                            r->cap, dname, len);
        n *= len;
    }
    if (n > r->cap)
        return ps_error(PS_EFORMAT, "%s: variable '%s' holds %zu values, the reader expects at "
                        "most %zu", path, vname, n, r->cap);
    if (n == 0)
        return PS_OK;
    if (r->as_float)
        rc = r->start ? nc_get_vara_float(r->ncid, r->varid, r->start, r->count, out)
                      : nc_get_var_float(r->ncid, r->varid, out);
    else
        rc = r->start ? nc_get_vara_double(r->ncid, r->varid, r->start, r->count, out)
                      : nc_get_var_double(r->ncid, r->varid, out);
    if (rc) {
        r->nc_rc = rc;
        return ps_error(PS_ENETCDF, "%s: reading '%s': %s", path, vname, nc_strerror(rc));
    }
    return PS_OK;
}
