/**
 * @file ps_region.h
 * @brief Host-side helpers for backends that keep a box in host memory:
 *        validate a region and copy it between a box array and a packed
 *        host array.
 */
#ifndef PS_REGION_H
#define PS_REGION_H

#include "ps_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Check that @p r lies inside a box of extent @p g (NULL means whole box). */
int ps_region_check(const ps_grid *g, const ps_region *r);

/** The whole box as a region. */
ps_region ps_region_whole(ps_grid g);

/**
 * Copy a packed C-order block @p src (r->count shape) into the box array
 * @p box (extent @p g) at r->start. @p es is the element size.
 */
void ps_region_scatter(void *box, const ps_grid *g, const void *src, const ps_region *r,
                       size_t es);

/** The reverse: copy the block at r->start of @p box into packed @p dst. */
void ps_region_gather(void *dst, const void *box, const ps_grid *g, const ps_region *r,
                      size_t es);

#ifdef __cplusplus
}
#endif
#endif
