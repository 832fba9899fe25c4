/* Region checks and packed copies for host-memory backends. */
#include "config.h"
#include "ps_region.h"
#include "ps_status.h"

#include <string.h>

ps_region ps_region_whole(ps_grid g)
{
    ps_region r;
    memset(&r, 0, sizeof r);
    r.count = g;
    return r;
}

int ps_region_check(const ps_grid *g, const ps_region *r)
{
    const size_t ext[3] = {g->nz, g->ny, g->nx};
    size_t cnt[3];
    int a;
    if (!r)
        return PS_OK;
    cnt[0] = r->count.nz;
    cnt[1] = r->count.ny;
    cnt[2] = r->count.nx;
    for (a = 0; a < 3; a++)
        if (r->start[a] > ext[a] || cnt[a] > ext[a] - r->start[a])
            return ps_error(PS_ERANGE, "region [%zu+%zu, %zu+%zu, %zu+%zu] outside box %zux%zux%zu",
                            r->start[0], cnt[0], r->start[1], cnt[1], r->start[2], cnt[2],
                            ext[0], ext[1], ext[2]);
    return PS_OK;
}

void ps_region_scatter(void *box, const ps_grid *g, const void *src, const ps_region *r,
                       size_t es)
{
    size_t k, j, row = r->count.nx * es;
    const char *s = src;
    char *d = box;
    for (k = 0; k < r->count.nz; k++)
        for (j = 0; j < r->count.ny; j++) {
            size_t off = ((r->start[0] + k) * g->ny + r->start[1] + j) * g->nx + r->start[2];
            memcpy(d + off * es, s, row);
            s += row;
        }
}

void ps_region_gather(void *dst, const void *box, const ps_grid *g, const ps_region *r,
                      size_t es)
{
    size_t k, j, row = r->count.nx * es;
    const char *s = box;
    char *d = dst;
    for (k = 0; k < r->count.nz; k++)
        for (j = 0; j < r->count.ny; j++) {
            size_t off = ((r->start[0] + k) * g->ny + r->start[1] + j) * g->nx + r->start[2];
            memcpy(d, s + off * es, row);
            d += row;
        }
}
