/**
 * @file ps_io.h
 * @brief CF/COARDS NetCDF input and output (design.md section 4), and the
 *        built-in ocean generator.
 *
 * Reading: ps_dataset_open() discovers the temperature variable and its axes
 * and checks the file; ps_dataset_read() reads one time index as a 3-D
 * (depth, lat, lon) field with land/missing as NaN, unpacked, in the requested
 * precision. Writing: ps_writer_* writes a CF file through a temporary file
 * renamed into place on commit.
 */
#ifndef PS_IO_H
#define PS_IO_H

#include <stddef.h>

#include "ps_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An attribute copied from a file (numeric values as double, or text). */
typedef struct ps_attr {
    char name[256];  /**< attribute name */
    int nc_type;     /**< netCDF type (NC_CHAR, NC_FLOAT, ...) */
    size_t len;      /**< number of values (characters for text) */
    char *text;      /**< NUL-terminated text if nc_type is NC_CHAR or NC_STRING (first string) */
    double *values;  /**< numeric values otherwise */
} ps_attr;

/** A list of attributes. */
typedef struct ps_attr_list {
    int count;       /**< number of attributes */
    ps_attr *attrs;  /**< the attributes */
} ps_attr_list;

/** Axis roles, in the order pstencil permutes dimensions to. */
enum ps_axis_role { PS_AXIS_TIME = 0, PS_AXIS_DEPTH = 1, PS_AXIS_LAT = 2, PS_AXIS_LON = 3 };

/** One axis of the temperature variable. */
typedef struct ps_axis {
    int present;         /**< 0 for a missing time axis (3-D variable) */
    char dim_name[256];  /**< dimension name in the file */
    char var_name[256];  /**< coordinate variable name ("" if none) */
    size_t len;          /**< length */
    double *values;      /**< coordinate values (len), index values if no coordinate variable */
    int nc_type;         /**< type of the coordinate variable (NC_FLOAT, NC_DOUBLE...) */
    ps_attr_list attrs;  /**< the coordinate variable's attributes */
    int file_dim_pos;    /**< position of this dimension in the variable's shape */
    int unlimited;       /**< nonzero if this is the unlimited dimension */
    int reversed;        /**< depth only: the file stores it bottom first; values[] and
                              the fields read are flipped so that k = 0 is the surface */
} ps_axis;

/** An opened input file: what was discovered, not yet the data. */
typedef struct ps_dataset {
    char path[4096];         /**< file path */
    int ncid;                /**< open netCDF id (-1 when closed) */
    int format;              /**< NC_FORMAT_* */
    char var_name[256];      /**< the temperature variable */
    int varid;               /**< its id */
    int var_nc_type;         /**< its stored type */
    int rank;                /**< 3 or 4 */
    ps_axis axes[4];         /**< time, depth, lat, lon */
    ps_attr_list var_attrs;  /**< the variable's attributes */
    ps_attr_list global_attrs; /**< global attributes */
    char units[64];          /**< the variable's units ("" if none) */
    ps_grid grid;            /**< (depth, lat, lon) sizes */
    size_t ntime;            /**< number of time records (1 for 3-D) */
} ps_dataset;

/**
 * Open @p path and discover the temperature variable (@p var, or by CF rules
 * when NULL) and its axes. Checks that a classic file is not truncated.
 * Errors: PS_EIO (missing/unreadable), PS_EFORMAT (not NetCDF), PS_ETRUNC,
 * PS_ENOVAR, PS_EAMBIG (detail lists candidates), PS_EDIM (rank < 3, a
 * dimension < 3, unidentifiable axes).
 */
int ps_dataset_open(ps_dataset *ds, const char *path, const char *var);

/**
 * Read time index @p t as a (depth, lat, lon) field in precision @p p,
 * allocating @p out. Fill/missing/out-of-valid-range values become NaN;
 * packed data is unpacked. Grid size is checked before allocating.
 */
int ps_dataset_read(ps_dataset *ds, size_t t, ps_precision p, ps_field *out);

/**
 * Check, before allocating anything, that @p nfields fields of the dataset's
 * grid in precision @p p can be addressed (overflow-safe) and fit in the
 * machine's physical memory. ps_dataset_read() does this for one field.
 * @return PS_OK or PS_ENOMEM (detail gives the sizes).
 */
int ps_dataset_check_memory(const ps_dataset *ds, ps_precision p, size_t nfields);

/** Close the file and free everything the dataset holds. */
void ps_dataset_close(ps_dataset *ds);

/** Find an attribute by name in a list (NULL if absent). */
const ps_attr *ps_attr_find(const ps_attr_list *l, const char *name);

/** Options for writing. */
typedef struct ps_write_options {
    const char *path;        /**< final output path */
    int force;               /**< overwrite an existing output */
    int compress;            /**< deflate level 0..9 (0 = none) */
    double dt;               /**< model seconds per step (0 = none: time is the step number) */
    const char *history;     /**< line to append to history (timestamp added by the writer) */
    const char *source;      /**< e.g. "pstencil 0.1.0, backend openmp, device ..." */
    ps_precision precision;  /**< precision of the fields passed to ps_writer_append */
    int keep_time;           /**< nonzero: the time coordinate is the source's time axis
                                  (record n gets src time value number `step`, with its
                                  attributes) instead of the step number; used by gen */
    int reproducible;        /**< nonzero: no timestamp in the history line, so the file's
                                  bytes depend only on the data (gen); otherwise the time is
                                  now, or $SOURCE_DATE_EPOCH when set */
} ps_write_options;

/** An output file being written. */
typedef struct ps_writer ps_writer;

/**
 * Start writing: checks the output is not the input (same file), does not
 * exist unless force, and its directory is writable; creates a temporary file
 * in the same directory. @p src supplies coordinates and attributes (NULL
 * axes/attributes allowed for generated data).
 */
int ps_writer_open(ps_writer **w, const ps_dataset *src, const ps_write_options *opt);

/** Append one snapshot taken after @p step steps. */
int ps_writer_append(ps_writer *w, long step, const ps_field *field);

/** Close and rename the temporary file into place. */
int ps_writer_commit(ps_writer *w);

/** Remove the temporary file and free the writer (safe after commit, on NULL). */
void ps_writer_abort(ps_writer *w);

/** Options for the built-in ocean. */
typedef struct ps_ocean_options {
    double scale;       /**< horizontal resolution multiplier (1 = 222x241) */
    unsigned long seed; /**< noise seed */
    size_t ntime;       /**< time records (5 like the course's file) */
    size_t nz;          /**< depth levels (50) */
} ps_ocean_options;

/** Defaults: scale 1, seed 1, 5 times, 50 levels. */
void ps_ocean_defaults(ps_ocean_options *o);

/**
 * Generate the built-in ocean at time index @p t as a float32 field (also
 * fills @p ds with coordinates and CF attributes like a Copernicus file so it
 * can be written or run directly). Deterministic on every platform.
 */
int ps_ocean_generate(const ps_ocean_options *o, size_t t, ps_dataset *ds, ps_field *out);

/** Write the whole built-in ocean (all time records) to @p path. */
int ps_ocean_write(const ps_ocean_options *o, const char *path, int force);

#ifdef __cplusplus
}
#endif
#endif
