/* The built-in ocean: not written yet. */
#include "config.h"
#include "ps_io.h"
#include "ps_status.h"

void ps_ocean_defaults(ps_ocean_options *o)
{
    o->scale = 1.0;
    o->seed = 1;
    o->ntime = 5;
    o->nz = 50;
}
int ps_ocean_generate(const ps_ocean_options *o, size_t t, ps_dataset *ds, ps_field *out)
{
    (void)o; (void)t; (void)ds; (void)out;
    return ps_error(PS_ENOTIMPL, "built-in ocean not implemented");
}
int ps_ocean_write(const ps_ocean_options *o, const char *path, int force)
{
    (void)o; (void)path; (void)force;
    return ps_error(PS_ENOTIMPL, "built-in ocean not implemented");
}
