/**
 * @file ps_plot.h
 * @brief Pictures of temperature fields: static slice maps and difference
 *        maps (PLplot, cairo driver) and interactive plotly.js pages.
 *
 * The drawing layer takes plain arrays (a 2-D slice with its longitude and
 * latitude coordinates, units and titles) so it does not depend on how the
 * data was read; the ps_plot_field_* helpers take a ps_dataset and a
 * ps_field (io/ps_io.h) and compose the titles the command line uses.
 *
 * Every output is written to a temporary file in the destination directory
 * and renamed into place only when complete.
 *
 * @code
 * ps_slice s = {.nx = nx, .ny = ny, .lon = lon, .lat = lat, .values = v,
 *               .title = "thetao at 0.49 m (level 0)", .units = "degC"};
 * ps_image_options o;
 * ps_image_options_init(&o);
 * o.path = "map.png";
 * int rc = ps_plot_slice(&s, &o, NULL);
 * @endcode
 */
#ifndef PS_PLOT_H
#define PS_PLOT_H

#include <stddef.h>

#include "ps_field.h"
#include "ps_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- colour maps */

/** A colour map: control points (position in [0,1], red, green, blue in [0,1]). */
typedef struct ps_cmap {
    const char *name;        /**< "viridis", "thermal", "plasma", "rdbu", "balance" */
    const char *description; /**< one line for --help */
    int diverging;           /**< nonzero for maps centred on 0.5 (differences) */
    int npts;                /**< number of control points */
    const double (*pts)[4];  /**< control points, positions increasing from 0 to 1 */
} ps_cmap;

/** Find a colour map by name (case-insensitive); NULL if unknown. */
const ps_cmap *ps_cmap_find(const char *name);

/** The i-th colour map (for listing); NULL past the last. */
const ps_cmap *ps_cmap_get(int i);

/** Comma-separated list of the colour map names, for messages. */
void ps_cmap_names(char *buf, size_t n);

/** Colour at position @p t in [0,1] (clamped; NaN gives the low end). */
void ps_cmap_eval(const ps_cmap *c, double t, double rgb[3]);

/** Land: a neutral mid grey, distinct from every colour of every map (red). */
#define PS_PLOT_LAND_R 150
/** Land colour, green component. */
#define PS_PLOT_LAND_G 150
/** Land colour, blue component. */
#define PS_PLOT_LAND_B 150
/** Cells whose land/sea masks disagree in a difference map: magenta (red). */
#define PS_PLOT_MARK_R 255
/** Mask-disagreement colour, green component. */
#define PS_PLOT_MARK_G 0
/** Mask-disagreement colour, blue component. */
#define PS_PLOT_MARK_B 255

/* ---------------------------------------------------------------- helpers */

/**
 * Robust colour limits: the @p lo_pct and @p hi_pct percentiles (e.g. 2 and
 * 98) of the finite values of @p v. If the two are equal the range is widened
 * so it is never empty.
 * @return PS_OK, PS_ERANGE if there is no finite value, PS_ENOMEM.
 */
int ps_plot_robust_limits(const double *v, size_t n, double lo_pct, double hi_pct,
                          double *vmin, double *vmax);

/**
 * Symmetric limits for a difference: +-L where L is the 99th percentile of
 * |v| over finite values, or the maximum |v| if that percentile is 0, or 1
 * if every value is 0 (so the map is all the centre colour).
 */
int ps_plot_symmetric_limits(const double *v, size_t n, double *vmin, double *vmax);

/** Index of the level of @p depth (n values) nearest to @p want (0 if n == 0). */
size_t ps_plot_nearest_level(const double *depth, size_t n, double want);

/**
 * Smallest stride s >= 1 such that ceil(nx/s) * ceil(ny/s) <= @p max_cells
 * (the decimation factor for interactive pages).
 */
size_t ps_plot_stride(size_t nx, size_t ny, size_t max_cells);

/**
 * The shallowest level at which @p a and @p b differ: a value changed, or a
 * cell is land in one and ocean in the other. Used to show what a model run
 * changed (the models keep the surface layer, a boundary, unchanged).
 * @return 1 with @p k set; 0 if they are equal at every level, differ in
 * shape, or memory runs out.
 */
int ps_plot_changed_level(const ps_field *a, const ps_field *b, size_t *k);

/** Copy level @p k of @p f into @p out (ny*nx doubles, NaN for land). */
int ps_plot_extract_level(const ps_field *f, size_t k, double *out);

/* ---------------------------------------------------------------- images */

/** One 2-D slice to draw. */
typedef struct ps_slice {
    size_t nx;                  /**< longitudes */
    size_t ny;                  /**< latitudes */
    const double *lon;          /**< nx cell-centre longitudes (monotonic) */
    const double *lat;          /**< ny cell-centre latitudes (monotonic) */
    const double *values;       /**< ny*nx values, longitude fastest; NaN = land */
    const unsigned char *mark;  /**< optional ny*nx flags: nonzero cells drawn in magenta */
    const char *title;          /**< first title line */
    const char *subtitle;       /**< optional second line */
    const char *units;          /**< colour bar label (the variable's units) */
    const char *xlabel;         /**< NULL: "Longitude (degrees east)" */
    const char *ylabel;         /**< NULL: "Latitude (degrees north)" */
} ps_slice;

/** How to draw an image. */
typedef struct ps_image_options {
    const char *path;  /**< output; .png, .svg or .pdf selects the cairo driver */
    int width;         /**< pixels (points for SVG/PDF); default 1000 */
    int height;        /**< default 700 */
    const char *cmap;  /**< colour map name; NULL: viridis, or rdbu if symmetric */
    int have_vmin;     /**< use vmin instead of the automatic lower limit */
    int have_vmax;     /**< use vmax instead of the automatic upper limit */
    double vmin;       /**< lower colour limit */
    double vmax;       /**< upper colour limit */
    int symmetric;     /**< automatic limits symmetric about 0 (differences) */
    int force;         /**< replace an existing file (else an existing path is an error) */
    /** Show only longitudes lon_w..lon_e (degrees east, lon_w < lon_e, at most
     *  360 apart): a window that crosses 0 or 180 degrees on a 0..360 or
     *  -180..180 grid is taken across the seam, its columns reordered. */
    int have_lon_window;
    double lon_w;      /**< western edge of the window */
    double lon_e;      /**< eastern edge of the window */
    int have_lat_window; /**< show only latitudes lat_s..lat_n */
    double lat_s;      /**< southern edge of the window */
    double lat_n;      /**< northern edge of the window */
} ps_image_options;

/** Defaults: 1000x700, automatic limits, default colour map. */
void ps_image_options_init(ps_image_options *o);

/** What was drawn. */
typedef struct ps_image_info {
    size_t nx;      /**< longitudes drawn (after the window) */
    size_t ny;      /**< latitudes drawn */
    double lon0;    /**< first longitude drawn (unwrapped: west of lon1) */
    double lon1;    /**< last longitude drawn */
    double vmin;    /**< colour limits used: low end */
    double vmax;    /**< colour limits used: high end */
    size_t ocean;   /**< finite cells */
    size_t land;    /**< NaN cells (not marked) */
    size_t marked;  /**< marked cells */
} ps_image_info;

/**
 * Draw @p s as a map: longitude/latitude axes with ticks and labels, land in
 * grey, a colour bar labelled with the units, the title(s) on top. The map
 * keeps its geographic proportions (a degree of longitude is cos(mid-latitude)
 * of a degree of latitude) at any page size. Longitudes that jump by more
 * than 180 degrees (a 0..360 grid cut across 0: 350, 355, 0, 5) are
 * unwrapped; a longitude window (o->have_lon_window) is taken across the
 * seam of the grid.
 * @return PS_OK; PS_EINVAL (bad sizes, unknown colour map or extension,
 * vmin >= vmax, a window holding no cell), PS_EIO (cannot write),
 * PS_ENOTIMPL (built without PLplot),
 * PS_EINTERNAL (PLplot failed).
 */
int ps_plot_slice(const ps_slice *s, const ps_image_options *o, ps_image_info *info);

/** Whether this build can draw images (PLplot found at configure time). */
int ps_plot_have_images(void);

/* ---------------------------------------------------------------- fields of a dataset */

/**
 * "0.49 m (level 0)" for level @p k of @p ds (or "level 3" when the depth
 * axis has no coordinate values).
 */
void ps_plot_level_label(const ps_dataset *ds, size_t k, char *buf, size_t n);

/**
 * Map level @p k of @p f (a field on @p ds's grid) with the title
 * "<var> at <depth> (level k), time index t" (or @p title if not NULL).
 */
int ps_plot_field_level(const ps_dataset *ds, const ps_field *f, size_t k, size_t t,
                        const char *title, const ps_image_options *o, ps_image_info *info);

/** Statistics of a difference B - A at one level. */
typedef struct ps_diff_info {
    double max_abs;       /**< max |B - A| over cells that are ocean in both */
    size_t max_j;         /**< where: latitude index */
    size_t max_i;         /**< where: longitude index */
    size_t compared;      /**< cells that are ocean in both */
    size_t differing;     /**< of those, cells with B != A */
    size_t mismatched;    /**< cells that are land in one and ocean in the other */
} ps_diff_info;

/**
 * Difference B - A at level @p k: @p d gets ny*nx values (NaN where either is
 * land) and @p mark (optional) flags the cells whose masks disagree.
 * @return PS_OK or PS_EDIM if the grids differ.
 */
int ps_plot_diff_level(const ps_field *a, const ps_field *b, size_t k, double *d,
                       unsigned char *mark, ps_diff_info *info);

/** Pass as the time index to leave the time out of a title. */
#define PS_PLOT_NO_TIME ((size_t)-1)

/**
 * Map B - A at level @p k with a diverging colour map centred on zero,
 * mismatched cells in magenta and the max |B - A| in the title.
 * @p what names the two inputs in the title (e.g. "B.nc - A.nc"); @p t is
 * the time index stated in the title (PS_PLOT_NO_TIME: none).
 */
int ps_plot_field_diff(const ps_dataset *ds, const ps_field *a, const ps_field *b, size_t k,
                       size_t t, const char *what, const ps_image_options *o,
                       ps_diff_info *info);

/**
 * The pictures of a run: DIR/STEM_before.png, DIR/STEM_after.png (same
 * colour limits) and DIR/STEM_diff.png (after - before). They show the
 * shallowest level the run changed (ps_plot_changed_level(); the surface
 * layer is a boundary the models copy unchanged), or level 0 when nothing
 * changed. Creates DIR if needed (not its parents). An existing image is
 * replaced only with @p force.
 */
int ps_plot_run_images(const char *dir, const ps_dataset *ds, const ps_field *before,
                       const ps_field *after, const char *stem, int force);

/* ---------------------------------------------------------------- interactive pages */

/**
 * Supplies one level of one time record: ny*nx values into @p out (NaN for
 * land). @p t is the time index, @p k the level index (from ps_html_source's
 * levels).
 */
typedef int (*ps_html_get_fn)(void *ctx, size_t t, size_t k, double *out);

/** The data of an interactive page. */
typedef struct ps_html_source {
    size_t nx;                 /**< grid of one level: longitudes */
    size_t ny;                 /**< grid of one level: latitudes */
    const double *lon;         /**< nx longitudes */
    const double *lat;         /**< ny latitudes */
    size_t ntimes;             /**< frames: time indices 0..ntimes-1 */
    const char *const *time_labels; /**< optional ntimes labels for the slider */
    size_t nlevels;            /**< 1 for animate, N for cube */
    const size_t *levels;      /**< nlevels level indices passed to get */
    const double *depths;      /**< nlevels depths (positive down) */
    const char *depth_units;   /**< e.g. "m" */
    ps_html_get_fn get;        /**< data callback */
    void *ctx;                 /**< its context */
    const char *title;         /**< page title */
    const char *var_name;      /**< e.g. "thetao" (hover text) */
    const char *units;         /**< colour bar title */
} ps_html_source;

/** How to write a page. */
typedef struct ps_html_options {
    const char *path;       /**< output .html */
    int plotly_cdn;         /**< reference the CDN instead of embedding plotly.js */
    /** 1: write plotly.js once beside the page and reference it (plotly's
     *  include_plotlyjs='directory'); 0: embed it; -1 (the default): embed
     *  it when it is at most PS_HTML_EMBED_MAX_BYTES (a minified copy), else
     *  write it beside the page. */
    int plotly_dir;
    const char *plotly_js;  /**< file to embed; NULL: ps_html_plotly_file() */
    const char *cmap;       /**< NULL: viridis */
    int have_vmin;          /**< nonzero: vmin is set */
    int have_vmax;          /**< nonzero: vmax is set */
    double vmin;            /**< low colour limit (else robust 2 % over all frames) */
    double vmax;            /**< high colour limit (else robust 98 % over all frames) */
    int frame_ms;           /**< milliseconds per frame (default 500) */
    size_t max_cells;       /**< decimation budget per heatmap frame / per surface (0: default) */
    int quiet;              /**< do not print the decimation note on stderr */
    int force;              /**< replace an existing file (else an existing path is an error) */
} ps_html_options;

/** Defaults: embed (a minified plotly.js), viridis, 500 ms, default budgets. */
void ps_html_options_init(ps_html_options *o);

/** Largest plotly.js embedded by default (4 MiB: a minified one is 3.6 MiB). */
#define PS_HTML_EMBED_MAX_BYTES 4194304L

/**
 * The plotly.js pages use: the minified copy made at build time (in the build
 * tree, else installed in $(pkgdatadir)), else the file configure found, else
 * "" (the pages reference the CDN).
 */
const char *ps_html_plotly_file(void);

/** What was written. */
typedef struct ps_html_info {
    size_t stride;      /**< decimation factor (1 = none) */
    size_t nx;          /**< grid after decimation: longitudes */
    size_t ny;          /**< grid after decimation: latitudes */
    double vmin;        /**< colour limits: low end */
    double vmax;        /**< colour limits: high end */
    size_t bytes;       /**< size of the page */
} ps_html_info;

/** Default decimation budget of an animation: cells per frame. */
#define PS_HTML_ANIMATE_MAX_CELLS 250000
/** Default decimation budget of a cube page: cells per surface. */
#define PS_HTML_CUBE_MAX_CELLS 60000

/**
 * The interactive slice: one plotly heatmap frame per time record of level
 * levels[0], play/pause buttons, a slider, fixed colour limits, hover with
 * longitude, latitude and value; land as gaps.
 */
int ps_html_animate(const ps_html_source *src, const ps_html_options *o, ps_html_info *info);

/**
 * The 3-D view: the levels as stacked plotly surfaces at z = -depth coloured
 * by the value, animated over the time records.
 */
int ps_html_cube(const ps_html_source *src, const ps_html_options *o, ps_html_info *info);

/**
 * The CDN address matching the embedded plotly.js version (read from the
 * file's header), or a fixed 2.x version if that cannot be read.
 */
void ps_html_plotly_cdn(const char *plotly_js, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* PS_PLOT_H */
