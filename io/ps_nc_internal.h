/* Internal to io/: attribute-list helpers shared by the reader, the writer
 * and the built-in ocean. Not installed. */
#ifndef PS_NC_INTERNAL_H
#define PS_NC_INTERNAL_H

#include "ps_io.h"

/** Free every attribute of @p l (the list becomes empty). */
void ps_attr_list_free(ps_attr_list *l);

/** Add or replace a text attribute. */
int ps_attr_set_text(ps_attr_list *l, const char *name, const char *text);

/** Add or replace a numeric attribute of netCDF type @p nc_type. */
int ps_attr_set_values(ps_attr_list *l, const char *name, int nc_type, const double *v,
                       size_t n);

/** Deep copy (dst is overwritten, not freed). */
int ps_attr_list_copy(ps_attr_list *dst, const ps_attr_list *src);

#endif
