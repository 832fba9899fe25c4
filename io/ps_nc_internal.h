/* Internal to io/: attribute-list helpers shared by the reader, the writer
 * and the built-in ocean. Not installed. */
#ifndef PS_NC_INTERNAL_H
#define PS_NC_INTERNAL_H

#include "ps_io.h"

/** Free every attribute of @p l (the list becomes empty). */
void ps_attr_list_free(ps_attr_list *l);

/** Add or replace a text attribute. */
/* A present axis of @p n values (zeroed) named @p name (dimension and coordinate
 * variable) of netCDF type @p type; PS_ENOMEM. */
int ps_axis_alloc(ps_axis *ax, const char *name, size_t n, int type);
int ps_attr_set_text(ps_attr_list *l, const char *name, const char *text);

/** Add or replace a numeric attribute of netCDF type @p nc_type. */
int ps_attr_set_values(ps_attr_list *l, const char *name, int nc_type, const double *v,
                       size_t n);

/** Deep copy (dst is overwritten, not freed). */
int ps_attr_list_copy(ps_attr_list *dst, const ps_attr_list *src);

/**
 * The multiple of 360 degrees to subtract from a longitude that follows
 * another by @p step degrees so the step falls within [-180, 180]: 0 for a
 * step already there. Whole turns at once, so a step of 1e30 costs no more
 * than one of 359.
 */
double ps_lon_turns(double step);

/**
 * One read of a variable's values (ps_nc_get()). Every field not set is 0;
 * set @c rank to -1 to accept any rank.
 */
typedef struct {
    const char *path;         /**< the file, for messages */
    int ncid, varid;          /**< what to read */
    int rank;                 /**< the rank the reader expects (-1: any) */
    const int *dimids;        /**< the dimension ids expected, in order, or NULL */
    const char *const *dim_names; /**< their names, for the message, or NULL */
    const size_t *start;      /**< a hyperslab (with @c count), or NULL: the whole variable */
    const size_t *count;
    size_t cap;               /**< how many values @c out holds */
    int as_float;             /**< read as float (else double) */
    int nc_rc;                /**< out: netCDF-C's code when the read itself failed */
} ps_nc_read_spec;

/**
 * Read a variable into @p out after checking, as netCDF-C reports them, its
 * rank, its dimension ids (when given), that the hyperslab lies inside its
 * dimensions and that the values fit the @c cap of @p out. Every read of a
 * variable's values in io/ goes through here: netCDF-C writes as many values
 * as the file's dimensions say, whatever the buffer holds.
 * @return PS_OK; PS_EFORMAT (message names the file, the variable and what
 *         does not fit) before anything is read; PS_ENETCDF when the read
 *         failed (r->nc_rc holds netCDF-C's code).
 */
int ps_nc_get(ps_nc_read_spec *r, void *out);

/**
 * Whether a depth axis holds heights, depth = -value: positive = "up", or
 * no positive = "down" and no value above 0 (depths written as negative
 * numbers). Otherwise depths, depth = value.
 */
int ps_depth_is_height(const ps_axis *ax);

/**
 * ps_dataset_check_memory() of @p nfields fields named @p what in the
 * message (e.g. "fields thetao and so") instead of the run's buffers.
 */
int ps_dataset_check_memory_as(const ps_dataset *ds, ps_precision p, size_t nfields,
                               const char *what);

/** Whether @p units (may be NULL) is a length pstencil converts to metres. */
int ps_units_is_length(const char *units);

/**
 * Define the time series of the reductions of data variable @p data_var
 * (named @p vname) along dimension @p time_dim: @p vname_content, _volume,
 * _mean, _min and _max, float64, with CF attributes (units from the data
 * variable's, times m3 for the content when @p metric; @p why in the comment
 * when not); their ids into @p ids[5]. PS_EIO naming @p path.
 */
int ps_nc_reduce_define(const char *path, int ncid, int time_dim, int data_var,
                        const char *vname, int metric, const char *why, int *ids);

/** Write record @p rec of the reductions @p r into the variables @p ids. */
int ps_nc_reduce_put(const char *path, int ncid, const int *ids, size_t rec,
                     const ps_reduction *r);

#endif
