/* NetCDF reading: not written yet. */
#include "config.h"
#include "ps_io.h"
#include "ps_status.h"
#include <string.h>

int ps_dataset_open(ps_dataset *ds, const char *path, const char *var)
{
    (void)var;
    memset(ds, 0, sizeof *ds);
    ds->ncid = -1;
    return ps_error(PS_ENOTIMPL, "reading %s: not implemented", path);
}

int ps_dataset_read(ps_dataset *ds, size_t t, ps_precision p, ps_field *out)
{
    (void)ds; (void)t; (void)p; (void)out;
    return ps_error(PS_ENOTIMPL, "not implemented");
}

void ps_dataset_close(ps_dataset *ds)
{
    (void)ds;
}

const ps_attr *ps_attr_find(const ps_attr_list *l, const char *name)
{
    int i;
    for (i = 0; l && i < l->count; i++)
        if (!strcmp(l->attrs[i].name, name))
            return &l->attrs[i];
    return NULL;
}
