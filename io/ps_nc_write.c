/* NetCDF writing: not written yet. */
#include "config.h"
#include "ps_io.h"
#include "ps_status.h"

int ps_writer_open(ps_writer **w, const ps_dataset *src, const ps_write_options *opt)
{
    (void)src;
    *w = NULL;
    return ps_error(PS_ENOTIMPL, "writing %s: not implemented", opt->path);
}
int ps_writer_append(ps_writer *w, long step, const ps_field *field)
{
    (void)w; (void)step; (void)field;
    return PS_ENOTIMPL;
}
int ps_writer_commit(ps_writer *w)
{
    (void)w;
    return PS_ENOTIMPL;
}
void ps_writer_abort(ps_writer *w)
{
    (void)w;
}
