/**
 * @file ps_io.h
 * @brief CF/COARDS NetCDF input and output (docs/file-conventions.md), and the
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
#include "ps_reduce.h"
#include "ps_currents.h"

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
 * Open @p path and discover the temperature variable and its axes
 * (docs/file-conventions.md). Nothing is allocated for the data yet.
 *
 * Variable: @p var if not NULL; else the variable whose standard_name is
 * sea_water_potential_temperature, sea_water_temperature or
 * sea_water_conservative_temperature; else one named thetao, votemper, temp,
 * TEMP or t (not a coordinate variable); else the one variable of rank 3 or 4
 * whose units are a temperature (degC, degrees_C, K, ...). Several matches at
 * the first rule that matches anything: PS_EAMBIG, the detail lists them.
 *
 * Axes: each dimension of the variable is classified from its coordinate
 * variable's `axis` (T/Z/Y/X), then `standard_name`, then `units`
 * (degrees_north, degrees_east, "<u> since <date>"), then `positive`, and
 * only if none of these exist, from a well-known dimension name (time,
 * depth, lev, lat, lon, ...). Never by position. Any order is accepted and
 * read as (time, depth, lat, lon); a depth axis stored bottom first (or
 * positive="up", or negative without positive="down", stored deepest first)
 * is flipped so k = 0 is the surface
 * (ps_axis::reversed). A rank-3 variable has no time axis (ntime = 1). The
 * time axis may be the unlimited dimension (ntime may then be 0).
 *
 * Classic, 64-bit-offset and CDF5 files are checked against the size their
 * header implies (netCDF-C reads a truncated file's missing data as zeros).
 *
 * Errors: PS_EINVAL (no path), PS_EIO (missing/unreadable/a directory),
 * PS_EFORMAT (not NetCDF, empty, non-numeric variable), PS_ETRUNC (shorter
 * than its header implies, or cut inside the header), PS_ENOVAR, PS_EAMBIG,
 * PS_EDIM (rank not 3 or 4, a depth/lat/lon dimension < 3, an axis that
 * cannot be identified or two dimensions of the same role). The detail
 * (ps_error_detail()) names the file and the problem. On error @p ds is
 * closed (safe to pass to ps_dataset_close() again).
 */
int ps_dataset_open(ps_dataset *ds, const char *path, const char *var);

/**
 * ps_dataset_open() with the variable chosen by CF standard name: the one whose
 * standard_name is the first of @p standard_names ('|'-separated, the preferred
 * first) that any variable carries (of several, the one of rank 3 or 4). Its
 * axes are discovered, oriented and checked as ps_dataset_open() does.
 * @return as ps_dataset_open(); PS_ENOVAR when no variable has any of the names
 *         (the detail names the file and the names); PS_EAMBIG for several.
 */
int ps_dataset_open_standard(ps_dataset *ds, const char *path, const char *standard_names);

/** What ps_dataset_read_aux() read. */
typedef struct ps_aux_info {
    char var_name[256]; /**< the variable */
    char units[64];     /**< its units, as read (before the conversion) */
    size_t record;      /**< the time record read */
    int converted;      /**< nonzero: its values were converted to the unit asked for */
} ps_aux_info;

/**
 * Read a stencil's auxiliary input (core/ps_stencil.h, ps_stencil_input: e.g.
 * the currents) from file @p path: the variable found by
 * ps_dataset_open_standard(@p standard_names), which must lie on the grid of
 * @p field (the dataset of the field it goes with: the same depth, latitude
 * and longitude sizes, coordinate values equal to 1e-6 relative; its time axis
 * may differ). Levels @p k0 .. @p k0 + @p nk - 1 (k = 0 the surface, the depth
 * flipped as the field's read flips it; latitude and longitude in file order)
 * go to @p out as nk*ny*nx float64 in C order: missing values (fill,
 * missing_value, valid range) NaN, converted to @p unit with UDUNITS-2 (e.g.
 * cm s-1 to m s-1).
 *
 * Record: @p record when >= 0; else the field's time index @p t when the
 * variable has the field's number of records (field->ntime), record 0 when it
 * has one, else PS_EDIM.
 *
 * @p info (may be NULL) gets the variable, its units and the record.
 * @return PS_OK; PS_ENOVAR (no such variable), PS_EAMBIG, PS_EDIM (another
 *         grid, or records that match neither rule), PS_EINVAL (no units, or
 *         units not convertible to @p unit), PS_ERANGE, or ps_dataset_read()'s
 *         errors. The detail names the file and the variable.
 */
int ps_dataset_read_aux(const char *path, const ps_dataset *field, const char *standard_names,
                        const char *unit, long record, size_t t, size_t k0, size_t nk,
                        double *out, ps_aux_info *info);

/** The default of ps_open_options::max_expansion. */
#define PS_MAX_EXPANSION_DEFAULT 256.0

/** What ps_dataset_open_opts() accepts beyond ps_dataset_open()'s defaults. */
typedef struct ps_open_options {
    /**
     * The most a compressed (filtered) variable's field may take, as float32
     * (4 bytes a cell), per byte of the file: 0 is the default,
     * PS_MAX_EXPANSION_DEFAULT (real ocean data, even nearly all land, stays
     * well below it; a few kilobytes of deflated zeros declaring a grid of
     * gigabytes do not); a negative value accepts any expansion. Uncompressed
     * data is always bounded by the file's size.
     */
    double max_expansion;
} ps_open_options;

/**
 * ps_dataset_open() with @p opts (NULL: the defaults). The coordinates are
 * checked (ps_dataset_check_coords()) before it returns PS_OK. A compressed variable
 * whose field would exceed ps_open_options::max_expansion times the file's
 * size is refused (PS_ERANGE), the detail saying the ratio and how to accept
 * it (`--max-expansion` on the command line).
 */
int ps_dataset_open_opts(ps_dataset *ds, const char *path, const char *var,
                         const ps_open_options *opts);

/**
 * Set the options ps_dataset_open() uses (NULL: back to the defaults), for
 * the whole process: a program sets them once, before any thread opens a
 * file (the pstencil program from its common option `--max-expansion`).
 */
void ps_dataset_set_default_options(const ps_open_options *opts);

/**
 * Read time index @p t as a (depth, lat, lon) field in precision @p p,
 * allocating @p out (free with ps_field_free()).
 *
 * Missing data becomes NaN: values equal to `_FillValue` (or, with neither
 * `_FillValue` nor `missing_value`, the netCDF default fill of the type),
 * to any of the `missing_value` values, outside `valid_range` /
 * `valid_min` / `valid_max`, and NaN. Those attributes are compared with the
 * stored (packed) values, or with the unpacked ones if their type differs
 * from a packed variable's (NUG). Packed data (`scale_factor`, `add_offset`;
 * byte, short, int, ubyte, ushort, uint, `_Unsigned`="true") is unpacked in
 * double and rounded once to @p p. Unscaled float data read as float32
 * passes through bit for bit.
 *
 * Integrity: a read that fails the variable's Fletcher32 checksum (a damaged
 * chunk) is PS_EFORMAT, "the file is corrupted"; in a variable with neither a
 * checksum nor valid_min/valid_max/valid_range whose units are a temperature
 * (or absent), a finite value more than 1000 degC (kelvin: from 273.15 K) from
 * 0 is PS_ERANGE, naming the first such cell (damaged data from a file that
 * cannot vouch for it).
 *
 * The memory needed is checked first (overflow-safe, and against the
 * physical memory): PS_ENOMEM. PS_ERANGE if @p t >= ntime. The file is read
 * in slabs along its slowest spatial dimension and scattered into C order,
 * so any dimension order costs one pass.
 */
int ps_dataset_read(ps_dataset *ds, size_t t, ps_precision p, ps_field *out);

/**
 * Read one depth level @p k (0 = the surface) of time index @p t as a field
 * of 1 x ny x nx, converted like ps_dataset_read(): readers that only
 * summarise stream level by level instead of holding the whole grid.
 * @return as ps_dataset_read(); PS_ERANGE also if @p k >= nz.
 */
int ps_dataset_read_level(ps_dataset *ds, size_t t, size_t k, ps_precision p, ps_field *out);

/**
 * Read the block of @p count[0] x count[1] x count[2] cells starting at
 * global cell @p start (k, j, i; k = 0 the surface) of time index @p t,
 * converted like ps_dataset_read(): a process of a distributed run reads
 * only its own part of the grid.
 * @return as ps_dataset_read(); PS_ERANGE also for a block outside the grid.
 */
int ps_dataset_read_region(ps_dataset *ds, size_t t, const size_t start[3],
                           const size_t count[3], ps_precision p, ps_field *out);

/**
 * Check, before allocating anything, that @p nfields fields of the dataset's
 * grid in precision @p p can be addressed (overflow-safe) and fit in the
 * memory this process can really use (the smallest of MemAvailable, the
 * cgroup limit and RLIMIT_AS). The message names the buffers counted: 1
 * input field, 2 + working copy, 3 + output field, 4 + initial-state copy.
 * ps_dataset_read() does this for one field.
 * @return PS_OK or PS_ENOMEM (detail gives the sizes).
 */
int ps_dataset_check_memory(const ps_dataset *ds, ps_precision p, size_t nfields);

/** The reductions a pstencil run wrote beside its field (docs/file-conventions.md). */
typedef struct ps_dataset_reductions {
    size_t n;         /**< records (the dataset's ntime) */
    double *v[5];     /**< per record: content, volume, mean, min, max */
    double *steps;    /**< per record: its step, or NULL when the file has none */
    int unit_weights; /**< nonzero: every cell weighed 1 (no usable coordinates) */
} ps_dataset_reductions;

/**
 * Read VAR_content, _volume, _mean, _min and _max (one value per record) of
 * the dataset's variable into @p out (free with ps_dataset_reductions_free()).
 * @return PS_OK; PS_ENOVAR (no detail set) when the file has no such series
 *         of one value per record; PS_ENOMEM; PS_ENETCDF.
 */
int ps_dataset_read_reductions(const ps_dataset *ds, ps_dataset_reductions *out);

/** Free what ps_dataset_read_reductions() allocated (safe on a zeroed or freed one). */
void ps_dataset_reductions_free(ps_dataset_reductions *r);

/**
 * Check the coordinates of @p ds before any work. ps_dataset_open() calls it,
 * so every command and library caller refuses the same files.
 *
 * For each axis with a coordinate variable (an axis of index values only is
 * not checked): every value finite; depth, latitude and longitude strictly
 * monotonic, as CF requires of a coordinate variable (no repeated or
 * constant value, no change of direction; records may share a time); a
 * latitude whose units are degrees (degrees_north, its CF
 * spellings, or plain "degree(s)") within [-90, 90]; a longitude in degrees
 * is taken as unwrapped (a step of more than 180 degrees is a wrap across
 * 360, as ps_dataset_coords() and the pictures read it) before its order is
 * checked. Indices are the file's (a depth read flipped is reported as
 * stored).
 *
 * @return PS_OK, or PS_EINVAL with a detail naming the input file, the
 *         axis, the coordinate variable, the index and the value.
 */
int ps_dataset_check_coords(const ps_dataset *ds);

/**
 * Check that the time coordinate of @p ds can be continued from time index
 * @p t by an output's time axis (ps_writer_open() does; run and bench call it
 * before any work): its `units` are CF time units "<unit> since <date>"
 * (ps_time_units_parse()) whose reference date exists in its `calendar`, and
 * the value at @p t is finite and can be placed (ps_time_decode(): at most
 * 1e17 s from the reference). Nothing is invented in place of a time axis
 * that fails this.
 *
 * @return PS_OK, also for a dataset with no time coordinate variable (no
 *         time axis, or index values only: an output gets its own);
 *         PS_EINVAL naming the input file and the variable; PS_ERANGE if
 *         @p t is not a record of the time axis.
 */
int ps_dataset_check_time(const ps_dataset *ds, size_t t);

/** What ps_field_check_ocean() counted. */
typedef struct ps_ocean_count {
    size_t ocean;     /**< cells that are not NaN (land and missing values are NaN) */
    size_t inf;       /**< ocean cells that are infinite */
    size_t first_inf; /**< C-order index (k, j, i) of the first infinite cell */
} ps_ocean_count;

/**
 * Check that @p f, time index @p record of @p ds (read with
 * ps_dataset_read(), or generated), has something to compute on: at least one
 * ocean cell (one that is not NaN), and, unless @p keep_inf, no infinite
 * ocean cell. Every command that computes on or draws a field (run, bench
 * --input, plot) calls it, so they refuse the same records with the same
 * message; summary and compare describe such records instead.
 *
 * @p land (may be NULL) gets 1 for each land cell and 0 for each ocean cell;
 * @p count (may be NULL) gets the counts, also on error.
 * @return PS_OK; PS_EINVAL "no ocean cells" (every value land or missing);
 *         PS_ERANGE for infinite ocean cells, naming the count and the first
 *         one as level, row and column. The detail names the input file (or
 *         "built-in ocean"), the variable and the time index.
 */
int ps_field_check_ocean(const ps_dataset *ds, size_t record, const ps_field *f, int keep_inf,
                         unsigned char *land, ps_ocean_count *count);

/** Close the file and free everything the dataset holds. */
void ps_dataset_close(ps_dataset *ds);

/** Find an attribute by name in a list (NULL if absent). */
const ps_attr *ps_attr_find(const ps_attr_list *l, const char *name);

/**
 * A grid's coordinates in the units a physical stencil needs (ps_stencil_setup
 * in core/ps_stencil.h), in the dataset's index order (k = 0 the surface).
 */
typedef struct ps_grid_coords {
    double *depth; /**< nz depths in m, positive down */
    double *lat;   /**< ny latitudes in degrees_north, in the file's order */
    double *lon;   /**< nx longitudes in degrees_east, unwrapped across 360 degrees */
} ps_grid_coords;

/**
 * The coordinates of @p ds (an opened file or the built-in ocean) in SI-like
 * units, allocated in @p c (free with ps_grid_coords_free()).
 *
 * Depth: units m/meter(s)/metre(s), cm/centimeter(s)/centimetre(s) or
 * km/kilometer(s)/kilometre(s), converted to metres (cm divided by 100);
 * positive="up" (heights), or negative values with no positive="down", are
 * negated, so depth grows downwards. Latitude and longitude: units
 * degrees_north / degrees_east (CF spellings) or plain "degrees"; latitudes
 * within [-90, 90]; longitudes unwrapped (a step of more than 180 degrees is
 * taken as a wrap across 360), so a grid crossing 0 or 180 stays uniform.
 * A horizontal dimension without a coordinate variable (NEMO's x and y) takes
 * its values from the 2-D latitude/longitude over (lat, lon) that the
 * variable's `coordinates` attribute names, if the grid is rectilinear
 * (latitude constant along each row, longitude along each column, to 1e-6).
 *
 * Errors (the detail names the file, the axis and the variable): PS_EINVAL
 * for a dimension with no coordinate variable (index values only), a
 * curvilinear 2-D latitude or longitude, a missing
 * or unknown unit (pressure, levels, sigma, metres of a projection), a
 * rotated-pole grid (standard_name grid_latitude/grid_longitude), a
 * non-finite value or a latitude outside [-90, 90]; PS_ENOMEM.
 */
int ps_dataset_coords(const ps_dataset *ds, ps_grid_coords *c);

/**
 * Describe a field held in memory (no file) of grid @p g: depth, latitude and
 * longitude axes from @p c (depth in m positive down, degrees north and east;
 * NULL or a NULL member: index values, no coordinate variable), one time
 * record, path "in-memory field". A writer given it as its source writes
 * those axes. Free with ps_dataset_close().
 */
int ps_dataset_from_memory(ps_dataset *ds, ps_grid g, const ps_grid_coords *c);

/**
 * The depths of @p ds's levels in m, positive down (as ps_dataset_coords():
 * heights and negative depths negated, cm and km converted), into @p z
 * (ds->grid.nz values).
 * @return PS_OK; PS_EINVAL (detail names the file and the axis) for a depth
 *         axis with no coordinate variable, no units or units not a length.
 */
int ps_dataset_depths(const ps_dataset *ds, double *z);

/** Free what ps_dataset_coords() allocated (safe on a zeroed or freed @p c). */
void ps_grid_coords_free(ps_grid_coords *c);

/** Seconds per step of the output's time axis when ps_write_options::dt is 0. */
#define PS_WRITE_DEFAULT_DT 1.0

/**
 * Writing one file from several processes (an MPI run, mpi/): every process
 * opens a writer with the same options and appends its own part of the grid;
 * the callbacks, set by the caller, do what needs the processes' runtime, so
 * the writer itself needs none. One process (@c publisher) creates the
 * temporary file and, once every process closed it, publishes it.
 */
typedef struct ps_write_parallel {
    /** Share @p tmp (the publisher's temporary file name, @p len bytes) with every process. */
    int (*share)(void *user, char *tmp, size_t len);
    /** Create @p path for writing by every process together; the netCDF id in @p ncid. */
    int (*create)(void *user, const char *path, int cmode, int *ncid);
    /** Called after the header is defined (e.g. to make every variable's access collective). */
    int (*defined)(void *user, int ncid);
    /** Combine a status over the processes: PS_OK only if every process had PS_OK. */
    int (*agree)(void *user, int status);
    void *user;          /**< passed to the callbacks */
    int publisher;       /**< nonzero on the one process that creates and publishes the file */
    long long now;       /**< the history's time stamp (seconds since 1970), the same on all */
    ps_grid global;      /**< the whole grid; ps_writer_append() gets this process's part */
    size_t start[3];     /**< first global cell (k, j, i) of this process's part */
} ps_write_parallel;

/** Options for writing. */
typedef struct ps_write_options {
    const char *path;        /**< final output path */
    int force;               /**< overwrite an existing output */
    int compress;            /**< deflate level 0..9 (0 = none) */
    double dt;               /**< model seconds per step: record n is at the input's time
                                  + step * dt (0 = PS_WRITE_DEFAULT_DT, one second) */
    const char *history;     /**< line to put first in history (timestamp added by the writer) */
    const char *source;      /**< e.g. "pstencil 0.1.0, backend openmp, device ..." */
    ps_precision precision;  /**< precision of the fields passed to ps_writer_append */
    int keep_time;           /**< nonzero: the time coordinate is the source's time axis
                                  (record n gets src time value number `step`, with its
                                  attributes) instead of the model time; used by gen */
    int reproducible;        /**< nonzero: no timestamp in the history line, so the file's
                                  bytes depend only on the data (gen); otherwise the time is
                                  now, or $SOURCE_DATE_EPOCH when set */
    long time_index;         /**< the source's time record the model started from: the
                                  time axis starts at its value, and `step` at the source's
                                  own `step` there (a continued run) */
    const ps_write_parallel *parallel; /**< NULL: one process writes the whole grid */
    long last_step;          /**< the last model step that will be appended (0: not
                                  known): ps_writer_open() checks that the time axis
                                  increases at every step up to it (at least step 1) */
} ps_write_options;

/** An output file being written. */
typedef struct ps_writer ps_writer;

/**
 * Start writing @p opt->path. Checks, in this order, before creating
 * anything: the output is not the input file @p src->path (same device and
 * inode, so another spelling or a hard link is caught too; refused even with
 * force: PS_EINVAL "... is the input file ..."), it does not exist unless
 * opt->force (PS_EEXIST), its directory exists, is a directory and is
 * writable (PS_EIO naming the directory). Then creates the temporary file
 * `DIR/.NAME.tmp.XXXXXX` (mkstemp) that ps_writer_commit() renames into
 * place; until then the output path is untouched.
 *
 * The file (netCDF-4, classic model), defined at the first append:
 * - dimensions `time` (unlimited), then depth, latitude, longitude named as
 *   in @p src (or `depth`, `latitude`, `longitude` without a source);
 * - `time(time)` double: the source's time value at opt->time_index plus
 *   step * dt seconds (dt = opt->dt, or PS_WRITE_DEFAULT_DT when 0) in the
 *   source time axis's units, with its attributes (units, calendar,
 *   standard_name...; not `bounds`): see ps_time_units_parse() for the units
 *   accepted. A source time coordinate that ps_dataset_check_time() refuses
 *   at opt->time_index is refused (PS_EINVAL naming the file and the
 *   variable): nothing is invented in its place. A source without a time axis, or whose time axis
 *   has no coordinate variable (index values), gives "seconds since
 *   1970-01-01 00:00:00" (calendar standard), an arbitrary origin said in a
 *   comment. The axis must increase at every step up to opt->last_step
 *   (at least step 1): the times at both ends finite and placeable, one step
 *   more than 4 units in the last place of the largest, else PS_ERANGE before
 *   anything is created; ps_writer_append() refuses a record whose time is
 *   not after the previous one's (PS_ERANGE) as a last guard. With
 *   opt->keep_time, the source's time values and attributes instead;
 * - `step(time)` double, units "1": the model steps since the source's state,
 *   plus the source's own `step` at opt->time_index when it has one (the
 *   output of an earlier run), so a continued run keeps counting; its
 *   `seconds_per_step` attribute is dt, its `time_at_step_0` the time of
 *   step 0 (for a continued run, that of the run continued). When the
 *   source's `step` has the same `seconds_per_step`, the time is its
 *   time_at_step_0 + (source step + step) * dt, so a chain of runs writes
 *   bitwise the times one run would. Listed in the data variable's
 *   `coordinates` (not written with opt->keep_time);
 * - bounds variables of the depth, latitude and longitude coordinates (their
 *   `bounds` attribute) and the variables the source variable's
 *   `coordinates` attribute names whose dimensions are all spatial (NEMO's
 *   2-D nav_lat/nav_lon, scalar coordinates), copied with their attributes,
 *   dimensions and values (depth-dependent ones flipped with a reversed depth
 *   axis; none when the grid differs from the source's);
 * - coordinate variables copied from @p src with their type and attributes
 *   (none for a dimension without one in @p src but with an auxiliary
 *   coordinate carried over, such as NEMO's x and y with nav_lat/nav_lon;
 *   index values, long_name "... index" and units "1", without a source or
 *   when the grid differs from it);
 * - the temperature variable named as in @p src (else `thetao`) (and the
 *   field variables of ps_writer_add_field(), defined alike),
 *   (time, depth, lat, lon), float32 (float64 if opt->precision is
 *   PS_FLOAT64), chunks of one horizontal slab (1, 1, ny, nx), deflate level
 *   opt->compress with shuffle when > 0; its attributes copied from @p src
 *   except packing and missing-data ones (scale_factor, add_offset,
 *   missing_value, valid_*, _Unsigned) and references to variables not
 *   written (grid_mapping, cell_measures, ...; `coordinates` is rewritten as
 *   above); units, long_name and
 *   standard_name added if absent; `_FillValue` = the source's if it was a
 *   float/double fill (NaN included), else 1e20; NaN cells are written as it;
 * - global attributes copied from @p src, then Conventions "CF-1.8",
 *   source = opt->source, history = "YYYY-MM-DDThh:mm:ssZ: <opt->history>"
 *   (UTC now, or $SOURCE_DATE_EPOCH; no timestamp with opt->reproducible),
 *   a newline, then the source's history (newest line first, as NCO and CDO
 *   write it), pstencil_input = the source path, then the attributes given
 *   with ps_writer_put_global();
 * - every variable with an HDF5 Fletcher32 checksum (chunked for it), so
 *   that ps_dataset_read() finds a damaged chunk instead of reading it.
 *
 * @p src may be NULL (generic names, index coordinates); it is copied, so it
 * may be closed once this returns.
 */
int ps_writer_open(ps_writer **w, const ps_dataset *src, const ps_write_options *opt);

/**
 * Append one snapshot taken after @p step steps (any precision: converted to
 * the file's; every append must have the first one's grid, else PS_EINVAL).
 * PS_ERANGE if the record's time is not finite or not after the previous
 * record's (the time axis strictly increases). I/O errors: PS_EIO.
 * ps_writer_append_fields() with one field: PS_EINVAL, naming the count, for
 * a writer given more fields with ps_writer_add_field().
 */
int ps_writer_append(ps_writer *w, long step, const ps_field *field);

/** The most field variables an output holds (the first and those added). */
#define PS_WRITER_MAX_FIELDS 8

/**
 * Add another time-varying field variable beside the first (before the first
 * append), e.g. salinity `so` beside temperature `thetao`: named
 * @p src->var_name, over (time, depth, lat, lon) like the first, with the
 * attributes of @p src's variable by the first field's rules (copied except
 * packing, missing-data and reference ones, units respelled, `coordinates`
 * rewritten, long_name added when it has neither long_name nor
 * standard_name), its own `_FillValue` by the first field's rule (@p src's
 * float fill, else 1e20), and the first field's type, chunks, deflate and
 * checksum. Only the variable is taken from @p src: the axes, time, global
 * attributes and carried variables are the writer's source's.
 *
 * Works for a parallel writer (every process calls it with the same @p src).
 * @return PS_OK; PS_EINVAL, the detail naming the problem: after the first
 *         append; @p src's grid not the writer's source's (without a writer
 *         source: not the file's, found at the first append); a name the
 *         output already uses (a field, time, step, a dimension or
 *         coordinate, a bounds or auxiliary coordinate carried over, a
 *         variable of ps_writer_add_variable(), a reduction variable) or
 *         whose reduction variables would clash; more than
 *         PS_WRITER_MAX_FIELDS fields. PS_ENOMEM.
 */
int ps_writer_add_field(ps_writer *w, const ps_dataset *src);

/** Number of field variables: 1 + those added with ps_writer_add_field() (0 for NULL). */
int ps_writer_fields(const ps_writer *w);

/**
 * Append one record of every field variable, taken after @p step steps:
 * @p fields[0] the first field, then the fields in the order added; @p n
 * must be ps_writer_fields() (PS_EINVAL naming the count otherwise). Every
 * field has the first append's grid (PS_EINVAL otherwise); with a parallel
 * writer each is this process's part. Each field may have either precision,
 * converted to the file's. The time and step are written once per record,
 * after its fields; the record counts (ps_writer_records()) only once every
 * field was written. Errors as ps_writer_append().
 */
int ps_writer_append_fields(ps_writer *w, long step, const ps_field *const *fields, int n);

/**
 * Close, fsync and move the temporary file into place (without force with
 * link(), so an output that appeared meanwhile is not clobbered: PS_EEXIST).
 * Needs at least one append. Still call ps_writer_abort() afterwards to free.
 */
int ps_writer_commit(ps_writer *w);

/**
 * Path of the temporary file being written ("" once committed), e.g. for a
 * signal handler that must unlink it (async-signal-safe to read).
 */
const char *ps_writer_temp_path(const ps_writer *w);

/** Remove the temporary file and free the writer (safe after commit, on NULL). */
void ps_writer_abort(ps_writer *w);

/**
 * Add a global attribute to the output (before the first ps_writer_append()):
 * text if @p text is not NULL, else the double @p value. Written after the
 * attributes copied from the source, so it replaces one of the same name;
 * the source's own `pstencil_*` attributes (an earlier run's record) are not
 * copied. pstencil run records its stencil and parameters this way
 * (docs/user-guide.md, "Restart").
 * @return PS_OK, PS_EINVAL (after the first append), PS_ENOMEM.
 */
int ps_writer_put_global(ps_writer *w, const char *name, const char *text, double value);

/**
 * Add a time-invariant variable beside the field (before the first
 * ps_writer_append(), a writer of one process): @p name over the field's
 * dimensions (time, depth, lat, lon), float32, chunked, deflated and
 * checksummed like the field, with attributes standard_name, long_name and
 * units and the field's _FillValue (NaN cells are written as it); its @p n
 * values (nz*ny*nx float64 in C order, k = 0 the surface, rounded to float32,
 * copied now) are written again at every record. `pstencil gen` writes the
 * built-in ocean's currents this way.
 * @return PS_OK; PS_EINVAL (after the first append, over several processes,
 *         more than 4, a name the output already uses as for
 *         ps_writer_add_field(), or @p n not the grid's cells at the first
 *         append); PS_ENOMEM.
 */
int ps_writer_add_variable(ps_writer *w, const char *name, const char *standard_name,
                           const char *long_name, const char *units, const double *values,
                           size_t n);

/**
 * Write the reductions of every record (core/ps_reduce.h) beside each field
 * variable, before the first ps_writer_append() (before or after
 * ps_writer_add_field()): for each field, five float64 variables over the
 * time dimension, named after its variable NAME (docs/file-conventions.md):
 * `NAME_content` (units: the field's times m3), `NAME_volume` (m3,
 * standard_name sea_water_volume), `NAME_mean`, `NAME_min` and `NAME_max`
 * (the field's units and standard_name), each with a long_name, a comment
 * and cell_methods "area: depth: METHOD where sea" (sum, sum, mean, minimum,
 * maximum). With @p metric 0 every cell weighs 1: the volume is a cell
 * count (units "1", no standard_name), the content has the field's units,
 * and the comment says so with @p why (the reason the input's coordinates
 * could not be used). Every append must then be followed by
 * ps_writer_set_reduction() (ps_writer_set_reductions() with several fields)
 * before the next append or the commit (PS_EINVAL otherwise), so a record's
 * reductions may be computed while its field is written.
 * @return PS_OK, PS_EINVAL (after the first append, or a reduction's name
 *         already used in the output).
 */
int ps_writer_reductions(ps_writer *w, int metric, const char *why);

/**
 * Write the reductions of the record the last ps_writer_append() wrote. With
 * several writing processes, every process calls it with the same values.
 * ps_writer_set_reductions() with one field.
 * @return PS_OK; PS_EINVAL (reductions not asked for with
 *         ps_writer_reductions(), or no record awaiting them, or a writer of
 *         several fields); PS_EIO.
 */
int ps_writer_set_reduction(ps_writer *w, const ps_reduction *r);

/**
 * Write the reductions of the last record, one per field variable in field
 * order (@p r[0] the first field's; @p n must be ps_writer_fields(), else
 * PS_EINVAL naming the count). Otherwise as ps_writer_set_reduction().
 */
int ps_writer_set_reductions(ps_writer *w, const ps_reduction *r, int n);

/**
 * Mark an output whose run was stopped before its last step (after at least
 * one ps_writer_append(), before ps_writer_commit()): the global attribute
 * `pstencil_interrupted` = @p why (for example "SIGINT after step 300 of
 * 3000"). The records appended so far are a valid file to read and to
 * continue from (`run --continue`).
 * @return PS_OK, PS_EINVAL (no record appended, or committed), PS_EIO.
 */
int ps_writer_mark_interrupted(ps_writer *w, const char *why);

/** Records appended so far (the initial state counts when it was appended). */
size_t ps_writer_records(const ps_writer *w);

/**
 * Nonzero once a netCDF close failed in this process (a full disk). HDF5
 * then keeps a broken file object that its exit handler crashes on; a
 * program should leave with _exit() after flushing its streams.
 */
int ps_writer_close_failed(void);

/** The fastest surface current (m/s) of the built-in ocean's gyre (core/ps_currents.h). */
#define PS_OCEAN_GYRE_SPEED PS_GYRE_SPEED

/**
 * The built-in ocean's currents (the currents a run on it uses, and `pstencil
 * gen` writes as uo and vo): ps_currents_gyre() at speed PS_OCEAN_GYRE_SPEED
 * on the coordinates @p c of grid @p g (its values rounded to float32, so a run
 * on a generated file is bitwise a run on the built-in ocean). Land is the
 * caller's to mask.
 */
int ps_ocean_currents(ps_grid g, const ps_grid_coords *c, double *u, double *v);

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
 * Generate the built-in ocean at time index @p t as a float32 field in @p out
 * (allocated; may be NULL to get only the dataset). If @p ds is not NULL it
 * is filled (overwritten, not freed: close it before reusing) like an
 * opened Copernicus file: var_name "thetao", axes time/depth/latitude/
 * longitude with values and CF attributes, variable and global attributes,
 * grid, ntime; ncid is -1 and path is "" (no file), so it can be given to
 * ps_writer_open() directly but not to ps_dataset_read(). Free with
 * ps_dataset_close().
 *
 * Shape: ntime x nz x round(222*scale) x round(241*scale); latitude
 * 46.8333..65.25, longitude -13.8333..6.1667 (1/12 degree at scale 1),
 * depth the 50 GLO12 levels 0.494..5727.917 m. Land and below-seabed cells
 * are NaN. Built from a splitmix64 hash and + - * / sqrt only, in double,
 * rounded to float32: bitwise the same on every IEEE platform (with
 * -ffp-contract=off, as the build uses). Errors: PS_EINVAL (scale <= 0),
 * PS_EDIM (fewer than 3 points), PS_ERANGE (t >= ntime), PS_ENOMEM.
 * ps_ocean_generate_var() of "thetao".
 */
int ps_ocean_generate(const ps_ocean_options *o, size_t t, ps_dataset *ds, ps_field *out);

/**
 * ps_ocean_generate() of variable @p var of the built-in ocean: "thetao"
 * (NULL too), the potential temperature, or "so", the salinity
 * (standard_name sea_water_salinity, units "1e-3", long_name "Sea water
 * salinity"; docs/file-conventions.md gives its profile), NaN on the same
 * land as thetao, from its own noise stream (thetao's bits do not depend on
 * it), built and rounded like thetao. @p ds then describes that variable
 * (var_name, var_attrs, units); the axes are the same.
 * @return as ps_ocean_generate(); PS_EINVAL for another name, the detail
 *         listing thetao and so.
 */
int ps_ocean_generate_var(const ps_ocean_options *o, size_t t, const char *var, ps_dataset *ds,
                          ps_field *out);

/**
 * Write the whole built-in ocean (all time records) to @p path through the
 * writer (temporary file renamed into place; PS_EEXIST without @p force):
 * thetao and so (ps_ocean_generate_var(); so added with
 * ps_writer_add_field(), every record), and its currents (ps_ocean_currents()) as uo and vo (standard names
 * eastward_sea_water_velocity and northward_sea_water_velocity, m s-1, the
 * fill value on land, the same at every record).
 * The time coordinate is "hours since 1950-01-01", 6-hourly from 2024-01-01
 * like the course's file, and history carries no timestamp, so two runs
 * with the same options give byte-identical files.
 */
int ps_ocean_write(const ps_ocean_options *o, const char *path, int force);

#ifdef __cplusplus
}
#endif
#endif
