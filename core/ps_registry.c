/* The stencil registry: one entry per kernel file in kernels/. */
#include "config.h"
#include "ps_stencil.h"

#include <string.h>

static const ps_stencil ps_stencils[] = {
    {
        .id = PS_STENCIL_DIFFUSION7,
        .name = "diffusion7",
        .description = "masked 7-point ocean temperature diffusion (NaN = land)",
        .kernel_file = "diffusion7.h",
        .radius = 1,
        .arrays_read = 1,
        .arrays_written = 1,
        .default_coeff = 0.1,
    },
};

int ps_stencil_count(void)
{
    return (int)(sizeof ps_stencils / sizeof ps_stencils[0]);
}

const ps_stencil *ps_stencil_at(int i)
{
    return (i >= 0 && i < ps_stencil_count()) ? &ps_stencils[i] : NULL;
}

const ps_stencil *ps_stencil_find(const char *name)
{
    int i;
    for (i = 0; name && i < ps_stencil_count(); i++)
        if (!strcmp(ps_stencils[i].name, name))
            return &ps_stencils[i];
    return NULL;
}

const ps_stencil *ps_stencil_get(ps_stencil_id id)
{
    int i;
    for (i = 0; i < ps_stencil_count(); i++)
        if (ps_stencils[i].id == id)
            return &ps_stencils[i];
    return NULL;
}

const ps_stencil *ps_stencil_default(void)
{
    return &ps_stencils[0];
}
