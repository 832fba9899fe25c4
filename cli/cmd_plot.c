/*
 * pstencil plot: pictures of a NetCDF temperature file.
 *
 *   plot slice   FILE.nc  -> static map of one level (PNG/SVG/PDF, PLplot)
 *   plot diff    A.nc B.nc -> map of B - A at one level
 *   plot animate FILE.nc  -> interactive slice over time (plotly.js HTML)
 *   plot cube    FILE.nc  -> 3-D stacked levels over time (plotly.js HTML)
 *
 * The course's option names (--data-file, --target_depth, --animation_speed,
 * --num_depths, --num_time_steps) are accepted as aliases, and the default
 * outputs are the course's: output/<stem>_static.png,
 * output/<stem>_2d_interactive.html, output/<stem>_3d_interactive.html.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_plot.h"
#include "ps_time.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    OPT_VAR = 1000, OPT_TIME, OPT_DEPTH, OPT_LEVEL, OPT_CMAP, OPT_VMIN, OPT_VMAX, OPT_WIDTH,
    OPT_HEIGHT, OPT_DATA, OPT_FRAME_MS, OPT_PLOTLY, OPT_DEPTHS, OPT_TIMES, OPT_MAX_CELLS, OPT_LON,
    OPT_LAT
};

typedef struct plot_args {
    const char *files[2];
    int nfiles;
    const char *var, *out, *cmap;
    long time, level, width, height, frame_ms, depths, times, max_cells;
    int have_time, have_level, have_depth, have_vmin, have_vmax, plotly_cdn, plotly_dir, force, have_lon,
        have_lat;
    double depth, vmin, vmax, lon[2], lat[2];
} plot_args;

static const struct option plot_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, 'f'},
    {"var", required_argument, NULL, OPT_VAR},
    {"time", required_argument, NULL, OPT_TIME},
    {"depth", required_argument, NULL, OPT_DEPTH},
    {"target_depth", required_argument, NULL, OPT_DEPTH},
    {"target-depth", required_argument, NULL, OPT_DEPTH},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"cmap", required_argument, NULL, OPT_CMAP},
    {"vmin", required_argument, NULL, OPT_VMIN},
    {"vmax", required_argument, NULL, OPT_VMAX},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"height", required_argument, NULL, OPT_HEIGHT},
    {"data-file", required_argument, NULL, OPT_DATA},
    {"data_file", required_argument, NULL, OPT_DATA},
    {"frame-ms", required_argument, NULL, OPT_FRAME_MS},
    {"animation_speed", required_argument, NULL, OPT_FRAME_MS},
    {"animation-speed", required_argument, NULL, OPT_FRAME_MS},
    {"plotly", required_argument, NULL, OPT_PLOTLY},
    {"depths", required_argument, NULL, OPT_DEPTHS},
    {"num_depths", required_argument, NULL, OPT_DEPTHS},
    {"num-depths", required_argument, NULL, OPT_DEPTHS},
    {"times", required_argument, NULL, OPT_TIMES},
    {"num_time_steps", required_argument, NULL, OPT_TIMES},
    {"num-time-steps", required_argument, NULL, OPT_TIMES},
    {"max-cells", required_argument, NULL, OPT_MAX_CELLS},
    {"lon", required_argument, NULL, OPT_LON},
    {"lat", required_argument, NULL, OPT_LAT},
    {NULL, 0, NULL, 0},
};

/* Options every subcommand shares; a difference map has its own colour rules. */
/* " UNITS" after a printed value, or nothing for a field without units (no
 * stray space before the next separator). */
static const char *units_after(const char *units)
{
    return units && *units ? " " : "";
}

static void help_common(FILE *f, int diff)
{
    char names[256] = "", one[64];
    const ps_cmap *c;
    int i;
    for (i = 0; (c = ps_cmap_get(i)); i++)
        if (!diff || c->diverging) {
            snprintf(one, sizeof one, "%s%s", names[0] ? ", " : "", c->name);
            strncat(names, one, sizeof names - strlen(names) - 1);
        }
    fprintf(f, "  --var NAME          the variable (default: found by CF rules)\n");
    if (diff)
        fprintf(f, "  --cmap NAME         diverging colour map: %s (default rdbu; any other\n"
                   "                      map is replaced by rdbu, with a warning)\n", names);
    else
        fprintf(f, "  --cmap NAME         colour map: %s (default viridis)\n"
                   "  --vmin V, --vmax V  colour limits (default: 2nd/98th percentiles of the ocean)\n",
                names);
    fprintf(f, "  -o, --output PATH   output file (default below); an existing one is refused\n"
               "  -f, --force         overwrite an existing output file\n"
               "  -h, --help          this help\n");
}

#define HELP_LEVEL                                                                                 \
    "  --depth M           the level nearest to M metres (alias --target_depth)\n"                 \
    "  --level K           level index K (0 = the surface, as in 'pstencil summary')\n"             \
    "                      default: the shallowest level that differs between the first\n"          \
    "                      and last time records (what a model run changed: the models\n"           \
    "                      never change the surface), else the surface\n"
#define HELP_WINDOW                                                                                \
    "  --lon W:E           only longitudes W..E (degrees east; may cross 0 or 180 on a\n"           \
    "                      0..360 or -180..180 grid, e.g. --lon -20:20)\n"                          \
    "  --lat S:N           only latitudes S..N\n"
#define HELP_PLOTLY                                                                                \
    "  --plotly MODE       embed: plotly.js inside the page (works offline); directory:\n"          \
    "                      written once beside the page as plotly.min.js (shared by pages\n"        \
    "                      in that folder); cdn: loaded from the network. Default: embed the\n"     \
    "                      minified copy, or directory when only an unminified one exists\n"

static void help(const char *sub, FILE *f)
{
    if (!strcmp(sub, "slice")) {
        fprintf(f, "Usage: pstencil plot slice FILE.nc [OPTIONS]\n\n"
                   "A map of one depth level: longitude/latitude axes, land in grey, a colour bar in\n"
                   "the variable's units, the map in its geographic proportions at any page size.\n"
                   "PNG, SVG or PDF by the output's extension (PLplot, cairo).\n\n"
                   HELP_LEVEL
                   "  --time I            time record: 0 the first, -1 or 'last' the last, -2 the one\n"
                   "                      before (default: the last, a run's final state)\n"
                   HELP_WINDOW
                   "  --width W, --height H  image size in pixels (default 1000x700)\n"
                   "  --data-file FILE    the input (the course's name for it)\n");
        help_common(f, 0);
        fprintf(f, "\nDefault output: output/<input-stem>_static.png\n");
    } else if (!strcmp(sub, "diff")) {
        fprintf(f, "Usage: pstencil plot diff A.nc B.nc [OPTIONS]\n\n"
                   "A map of B - A at one level with a diverging colour map centred on zero\n"
                   "(symmetric limits), cells where only one of A and B is land in magenta, and the\n"
                   "largest |B - A| in the title (also printed). The grids must match.\n\n"
                   "  --depth M, --level K  the level (default: the shallowest level where A and B\n"
                   "                      differ, else the surface; 0 = the surface)\n"
                   "  --time I            time record in both files, negative from the end, or 'last'\n"
                   "                      (default: the last of each; when B is a run's output and\n"
                   "                      A its input, the record of A the run started from)\n"
                   HELP_WINDOW
                   "  --width W, --height H  image size in pixels (default 1000x700)\n"
                   "  --vmax V            colour limits -V..V (default: 99th percentile of |B - A|);\n"
                   "                      (no lower limit: the limits are symmetric about 0)\n");
        help_common(f, 1);
        fprintf(f, "\nDefault output: output/<B-stem>_minus_<A-stem>_diff.png\n");
    } else if (!strcmp(sub, "animate")) {
        fprintf(f, "Usage: pstencil plot animate FILE.nc [OPTIONS]\n\n"
                   "An interactive page (plotly.js): one heatmap frame per time record of one level,\n"
                   "play/pause and a slider labelled with the records' dates (in the file's\n"
                   "calendar), colour limits fixed over all frames, hover with longitude, latitude\n"
                   "and value; land shown grey.\n\n"
                   HELP_LEVEL
                   "  --frame-ms MS       milliseconds per frame (default 500) (alias --animation_speed)\n"
                   HELP_PLOTLY
                   "  --max-cells N       decimation budget per frame (default %d)\n"
                   "  --data-file FILE    the input (the course's name for it)\n",
                PS_HTML_ANIMATE_MAX_CELLS);
        help_common(f, 0);
        fprintf(f, "\nDefault output: output/<input-stem>_2d_interactive.html\n");
    } else if (!strcmp(sub, "cube")) {
        fprintf(f, "Usage: pstencil plot cube FILE.nc [OPTIONS]\n\n"
                   "An interactive 3-D page (plotly.js): the first N depth levels (from level 0, the\n"
                   "surface) as stacked surfaces at z = -depth coloured by the value, animated over\n"
                   "the first N time records.\n\n"
                   "  --depths N          levels shown (default 5) (alias --num_depths)\n"
                   "  --times N           time records (default: all) (alias --num_time_steps)\n"
                   "  --frame-ms MS       milliseconds per frame (default 500)\n"
                   HELP_PLOTLY
                   "  --max-cells N       decimation budget per surface (default %d)\n"
                   "  --data-file FILE    the input (the course's name for it)\n",
                PS_HTML_CUBE_MAX_CELLS);
        help_common(f, 0);
        fprintf(f, "\nDefault output: output/<input-stem>_3d_interactive.html\n");
    } else {
        fprintf(f, "Usage: pstencil plot slice|diff|animate|cube|bench [OPTIONS] FILE...\n\n"
                   "  slice     static map of one depth level (PNG/SVG/PDF)\n"
                   "  diff      map of B - A at one level\n"
                   "  animate   interactive slice animated over time (HTML)\n"
                   "  cube      interactive 3-D view of the first levels over time (HTML)\n"
                   "  bench     benchmark plots from a 'pstencil bench' CSV\n\n"
                   "'pstencil plot SUBCOMMAND --help' describes each.%s\n",
                ps_plot_have_images() ? "" : "\nThis pstencil was built without PLplot: slice and diff are unavailable.");
    }
}

/* "A:B" with A < B. */
static int parse_range(const char *opt, const char *arg, double r[2])
{
    char *end;
    r[0] = strtod(arg, &end);
    if (end == arg || *end != ':')
        return ps_cli_error("%s: '%s' is not FROM:TO (e.g. -20:20)", opt, arg);
    arg = end + 1;
    r[1] = strtod(arg, &end);
    if (end == arg || *end || !isfinite(r[0]) || !isfinite(r[1]))
        return ps_cli_error("%s: '%s' is not FROM:TO (e.g. -20:20)", opt, arg);
    if (!(r[0] < r[1])) {
        char n0[32], n1[32];
        return ps_cli_error("%s: %s is not below %s", opt, ps_cli_num(r[0], n0, sizeof n0),
                            ps_cli_num(r[1], n1, sizeof n1));
    }
    return 0;
}

static int parse_args(const char *sub, int argc, char **argv, plot_args *a, int *done)
{
    int c;
    *done = 0;
    memset(a, 0, sizeof *a);
    a->width = 1000;
    a->height = 700;
    a->frame_ms = 500;
    a->depths = 5;
    a->times = -1;
    a->plotly_dir = -1;
    optind = 0; /* reinitialise getopt for this argv */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:f", plot_options, NULL)) != -1) {
        switch (c) {
        case 'f':
            a->force = 1;
            break;
        case 'h':
            help(sub, stdout);
            *done = 1;
            return 0;
        case 'o':
            a->out = optarg;
            break;
        case OPT_VAR:
            a->var = optarg;
            break;
        case OPT_TIME:
            /* a record index, negative from the end, or "last" (-1) */
            if (!strcmp(optarg, "last"))
                a->time = -1;
            else if (ps_cli_parse_long("--time", optarg, -LONG_MAX, LONG_MAX, &a->time))
                return PS_EXIT_USAGE;
            a->have_time = 1;
            break;
        case OPT_DEPTH:
            if (ps_cli_parse_double("--depth", optarg, &a->depth))
                return PS_EXIT_USAGE;
            a->have_depth = 1;
            break;
        case OPT_LEVEL:
            if (ps_cli_parse_long("--level", optarg, 0, LONG_MAX, &a->level))
                return PS_EXIT_USAGE;
            a->have_level = 1;
            break;
        case OPT_CMAP:
            if (!ps_cmap_find(optarg)) {
                char names[256];
                ps_cmap_names(names, sizeof names);
                return ps_cli_error("--cmap: unknown colour map '%s' (one of: %s)", optarg, names);
            }
            a->cmap = optarg;
            break;
        case OPT_VMIN:
            if (ps_cli_parse_double("--vmin", optarg, &a->vmin))
                return PS_EXIT_USAGE;
            a->have_vmin = 1;
            break;
        case OPT_VMAX:
            if (ps_cli_parse_double("--vmax", optarg, &a->vmax))
                return PS_EXIT_USAGE;
            a->have_vmax = 1;
            break;
        case OPT_WIDTH:
            if (ps_cli_parse_long("--width", optarg, 200, 10000, &a->width))
                return PS_EXIT_USAGE;
            break;
        case OPT_HEIGHT:
            if (ps_cli_parse_long("--height", optarg, 150, 10000, &a->height))
                return PS_EXIT_USAGE;
            break;
        case OPT_DATA:
            if (a->nfiles >= 2)
                return ps_cli_error("too many input files");
            a->files[a->nfiles++] = optarg;
            break;
        case OPT_FRAME_MS:
            if (ps_cli_parse_long("--frame-ms", optarg, 1, 600000, &a->frame_ms))
                return PS_EXIT_USAGE;
            break;
        case OPT_PLOTLY:
            a->plotly_cdn = 0;
            if (!strcmp(optarg, "cdn"))
                a->plotly_cdn = 1;
            else if (!strcmp(optarg, "embed"))
                a->plotly_dir = 0;
            else if (!strcmp(optarg, "directory"))
                a->plotly_dir = 1;
            else
                return ps_cli_error("--plotly: '%s' is not 'embed', 'directory' or 'cdn'", optarg);
            break;
        case OPT_DEPTHS:
            if (ps_cli_parse_long("--depths", optarg, 1, 1000, &a->depths))
                return PS_EXIT_USAGE;
            break;
        case OPT_TIMES:
            if (ps_cli_parse_long("--times", optarg, 1, 100000, &a->times))
                return PS_EXIT_USAGE;
            break;
        case OPT_LON:
            if (parse_range("--lon", optarg, a->lon))
                return PS_EXIT_USAGE;
            if (a->lon[1] - a->lon[0] > 360)
                return ps_cli_error("--lon %s: more than 360 degrees", optarg);
            a->have_lon = 1;
            break;
        case OPT_LAT:
            if (parse_range("--lat", optarg, a->lat))
                return PS_EXIT_USAGE;
            a->have_lat = 1;
            break;
        case OPT_MAX_CELLS:
            if (ps_cli_parse_long("--max-cells", optarg, 100, 100000000, &a->max_cells))
                return PS_EXIT_USAGE;
            break;
        case ':':
            return ps_cli_error("plot %s: option '%s' needs a value", sub, argv[optind - 1]);
        default:
            return ps_cli_error("plot %s: unknown option '%s' (try 'pstencil plot %s --help')", sub,
                                argv[optind - 1], sub);
        }
    }
    for (; optind < argc; optind++) {
        if (a->nfiles >= 2)
            return ps_cli_error("plot %s: too many input files ('%s')", sub, argv[optind]);
        a->files[a->nfiles++] = argv[optind];
    }
    if (a->have_depth && a->have_level)
        return ps_cli_error("plot %s: give --depth or --level, not both", sub);
    if (a->have_vmin && a->have_vmax && !(a->vmin < a->vmax)) {
        char n0[32], n1[32];
        return ps_cli_error("--vmin (%s) must be below --vmax (%s)",
                            ps_cli_num(a->vmin, n0, sizeof n0), ps_cli_num(a->vmax, n1, sizeof n1));
    }
    return 0;
}

/* "dir/name.nc" -> "name" */
static void file_stem(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/'), *dot;
    size_t len;
    b = b ? b + 1 : path;
    dot = strrchr(b, '.');
    len = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    if (len >= n)
        len = n - 1;
    memcpy(buf, b, len);
    buf[len] = '\0';
}

/* Default output under output/ (created if needed). */
static int default_output(const char *stem, const char *suffix, char *buf, size_t n)
{
    if (mkdir("output", 0777) && errno != EEXIST)
        return ps_cli_error("cannot create the folder 'output': %s", strerror(errno));
    snprintf(buf, n, "output/%s%s", stem, suffix);
    return 0;
}

/* Open an input (its coordinates checked by ps_dataset_open()). */
static int open_input(const char *path, const char *var, ps_dataset *ds)
{
    int rc = ps_dataset_open(ds, path, var);
    if (rc)
        return ps_cli_status_error(rc, path);
    return 0;
}

/* The level to show: --level, the level nearest --depth, or by default the
 * shallowest level at which @p a and @p b differ (what a model run changed;
 * the surface is a boundary the models never change), else the surface. */
static int pick_level(const plot_args *a, const ps_dataset *ds, const ps_field *fa,
                      const ps_field *fb, size_t *k)
{
    const ps_axis *ax = &ds->axes[PS_AXIS_DEPTH];
    if (a->have_level) {
        if ((size_t)a->level >= ds->grid.nz)
            return ps_cli_error("--level %ld is out of range: %s has %zu levels (0..%zu)", a->level,
                                ds->path, ds->grid.nz, ds->grid.nz - 1);
        *k = (size_t)a->level;
    } else if (a->have_depth) {
        double *z = ax->values && ax->len == ds->grid.nz ? malloc(ax->len * sizeof *z) : NULL;
        /* depths in m, positive down, whatever the file's sign and length
         * unit; the raw values for an axis that is not a length */
        if (z && ps_dataset_depths(ds, z) == PS_OK)
            *k = ps_plot_nearest_level(z, ax->len, a->depth);
        else if (ax->values && ax->len == ds->grid.nz)
            *k = ps_plot_nearest_level(ax->values, ax->len, a->depth);
        else if (a->depth != 0.0)
            return ps_cli_error("%s has no depth coordinate: use --level", ds->path);
        else
            *k = 0;
        free(z);
    } else if (!fa || !fb || !ps_plot_changed_level(fa, fb, k)) {
        *k = 0;
    }
    return 0;
}

/* The default level of one file: what changes between its first and last
 * time records (nothing to read when --level or --depth is given). Only
 * compared: the records drawn are checked when they are read for drawing. */
static int pick_level_file(const plot_args *a, ps_dataset *ds, size_t *k)
{
    ps_field f0 = {0}, f1 = {0};
    int rc;
    if (a->have_level || a->have_depth || ds->ntime < 2)
        return pick_level(a, ds, NULL, NULL, k);
    if ((rc = ps_dataset_read(ds, 0, PS_FLOAT32, &f0)) ||
        (rc = ps_dataset_read(ds, ds->ntime - 1, PS_FLOAT32, &f1)))
        rc = ps_cli_status_error(rc, ds->path);
    else
        rc = pick_level(a, ds, &f0, &f1, k);
    ps_field_free(&f0);
    ps_field_free(&f1);
    return rc;
}

/* The record --time names in @p ds (negative: counted from the end, -1 the
 * last), or @p dflt when --time is not given. */
static int resolve_time(const plot_args *a, const ps_dataset *ds, size_t dflt, size_t *t)
{
    long n = (long)ds->ntime;
    if (ds->ntime == 0)
        return ps_cli_error("%s has no time records (its unlimited time dimension is empty)",
                            ds->path);
    if (!a->have_time) {
        *t = dflt < ds->ntime ? dflt : ds->ntime - 1;
        return 0;
    }
    if (a->time >= n || a->time < -n)
        return ps_cli_error("--time %ld is out of range: %s has %zu time record%s (0..%zu, "
                            "or -%zu..-1 counted from the end, or last)",
                            a->time, ds->path, ds->ntime, ds->ntime == 1 ? "" : "s",
                            ds->ntime - 1, ds->ntime);
    *t = (size_t)(a->time < 0 ? n + a->time : a->time);
    return 0;
}

/* Whether @p ds is the output of a pstencil run (its run record). */
static int is_run_output(const ps_dataset *ds)
{
    return ps_attr_find(&ds->global_attrs, "pstencil_stencil") != NULL;
}

/* The record of input @p a that run output @p b started from: the one at
 * the time of b's first record (same units), else a's first record. */
static size_t start_record(const ps_dataset *a, const ps_dataset *b)
{
    const ps_axis *ta = &a->axes[PS_AXIS_TIME], *tb = &b->axes[PS_AXIS_TIME];
    const ps_attr *ua = ps_attr_find(&ta->attrs, "units"), *ub = ps_attr_find(&tb->attrs, "units");
    size_t i;
    if (!ta->values || !tb->values || !tb->len || !ua || !ub || !ua->text || !ub->text ||
        strcmp(ua->text, ub->text))
        return 0;
    for (i = 0; i < ta->len && i < a->ntime; i++)
        if (ta->values[i] == tb->values[0])
            return i;
    return 0;
}

/* Ocean (finite) cells of level k of a float32 field. */
static size_t level_ocean(const ps_field *f, size_t k)
{
    const float *v = (const float *)f->data + k * f->grid.ny * f->grid.nx;
    size_t c, n = f->grid.ny * f->grid.nx, ocean = 0;
    for (c = 0; c < n; c++)
        ocean += isfinite(v[c]) != 0;
    return ocean;
}

/* Time index t as float32, checked as every command checks an input field
 * (ps_field_check_ocean()): a record with no ocean cell (a blank map with
 * exit 0 would hide a broken file) or with an infinite one is refused. */
static int read_checked(ps_dataset *ds, size_t t, ps_field *f)
{
    int rc;
    memset(f, 0, sizeof *f);
    rc = ps_dataset_read(ds, t, PS_FLOAT32, f);
    if (!rc && (rc = ps_field_check_ocean(ds, t, f, 0, NULL, NULL)))
        ps_field_free(f);
    return rc;
}

static int read_field(ps_dataset *ds, size_t t, ps_field *f)
{
    int rc = read_checked(ds, t, f);
    return rc ? ps_cli_status_error(rc, ds->path) : 0;
}

/* A chosen level with no ocean cell draws an empty map: refuse it, naming the
 * levels that have ocean. */
static int check_level_ocean(const ps_dataset *ds, const ps_field *f, size_t k)
{
    size_t last = 0, kk;
    if (level_ocean(f, k))
        return 0;
    for (kk = 0; kk < f->grid.nz; kk++)
        if (level_ocean(f, kk))
            last = kk;
    return ps_cli_error("%s: level %zu of '%s' has no ocean cells (all land or missing): nothing "
                        "to plot; levels with ocean go down to %zu (--level)",
                        ds->path, k, ds->var_name, last);
}

/* The output, checked before anything is drawn: its directory is writable, it is
 * none of the inputs, and it does not exist unless --force was given. */
static int check_out(const plot_args *a)
{
    int st = ps_outfile_check(a->out, a->files[0], a->force, "output");
    if (!st && a->nfiles > 1)
        st = ps_outfile_check(a->out, a->files[1], a->force, "output");
    return st ? ps_cli_status_error(st, a->out) : 0;
}

static void image_options(const plot_args *a, const char *path, ps_image_options *o)
{
    ps_image_options_init(o);
    o->path = path;
    o->width = (int)a->width;
    o->height = (int)a->height;
    o->cmap = a->cmap;
    o->have_vmin = a->have_vmin;
    o->have_vmax = a->have_vmax;
    o->vmin = a->vmin;
    o->vmax = a->vmax;
    o->force = a->force;
    o->have_lon_window = a->have_lon;
    o->lon_w = a->lon[0];
    o->lon_e = a->lon[1];
    o->have_lat_window = a->have_lat;
    o->lat_s = a->lat[0];
    o->lat_n = a->lat[1];
}

static int need_images(void)
{
    if (!ps_plot_have_images())
        return ps_cli_error("pstencil was built without PLplot: images are unavailable "
                            "(install libplplot-dev and plplot-driver-cairo and reconfigure; "
                            "'plot animate' and 'plot cube' still work)");
    return 0;
}

static int plot_slice(int argc, char **argv)
{
    plot_args a;
    ps_dataset ds;
    ps_field f = {0};
    ps_image_options o;
    ps_image_info info;
    char stem[256], out[4200], lev[128];
    size_t k, t = 0;
    int rc, done;

    if ((rc = parse_args("slice", argc, argv, &a, &done)) || done)
        return rc;
    if (a.nfiles != 1)
        return ps_cli_error("plot slice needs one input file (try 'pstencil plot slice --help')");
    if ((rc = need_images()))
        return rc;
    if ((rc = open_input(a.files[0], a.var, &ds)))
        return rc;
    /* default: the last record (a run's final state) */
    if ((rc = resolve_time(&a, &ds, (size_t)-1, &t)) || (rc = pick_level_file(&a, &ds, &k)) ||
        (rc = read_field(&ds, t, &f)) || (rc = check_level_ocean(&ds, &f, k)))
        goto done;
    file_stem(a.files[0], stem, sizeof stem);
    if (!a.out) {
        if ((rc = default_output(stem, "_static.png", out, sizeof out)))
            goto done;
        a.out = out;
    }
    if ((rc = check_out(&a)))
        goto done;
    image_options(&a, a.out, &o);
    if ((rc = ps_plot_field_level(&ds, &f, k, t, NULL, &o, &info))) {
        rc = ps_cli_status_error(rc, a.out);
        goto done;
    }
    ps_plot_level_label(&ds, k, lev, sizeof lev);
    printf("wrote %s: %s at %s, time index %ld; colour limits %.6g .. %.6g%s%s; %zu ocean, %zu land cells\n",
           a.out, ds.var_name, lev, (long)t, info.vmin, info.vmax, units_after(ds.units), ds.units,
           info.ocean, info.land);
    if (a.have_lon || a.have_lat)
        printf("window: %zu longitudes from %g to %g, %zu latitudes\n", info.nx, info.lon0,
               info.lon1, info.ny);
done:
    ps_field_free(&f);
    ps_dataset_close(&ds);
    return rc;
}

static int plot_diff(int argc, char **argv)
{
    plot_args a;
    ps_dataset da, db;
    ps_field fa = {0}, fb = {0};
    ps_image_options o;
    ps_diff_info di;
    char sa[256], sb[256], out[4200], lev[128], what[600], suffix[300];
    size_t k, ta = 0, tb = 0;
    int rc, done, opened = 0;

    if ((rc = parse_args("diff", argc, argv, &a, &done)) || done)
        return rc;
    if (a.nfiles != 2)
        return ps_cli_error("plot diff needs two input files A and B (try 'pstencil plot diff --help')");
    if (a.have_vmin)
        return ps_cli_error("plot diff: the limits are symmetric about 0: give --vmax only");
    if (a.cmap && !ps_cmap_find(a.cmap)->diverging) {
        ps_cli_warn("--cmap %s is not a diverging colour map: using rdbu for the difference", a.cmap);
        a.cmap = "rdbu";
    }
    if ((rc = need_images()))
        return rc;
    if ((rc = open_input(a.files[0], a.var, &da)))
        return rc;
    opened = 1;
    if ((rc = open_input(a.files[1], a.var, &db)))
        goto done;
    opened = 2;
    if (da.grid.nz != db.grid.nz || da.grid.ny != db.grid.ny || da.grid.nx != db.grid.nx) {
        rc = ps_cli_error("plot diff: the grids differ: %s is %zux%zux%zu, %s is %zux%zux%zu "
                          "(depth x latitude x longitude)",
                          a.files[0], da.grid.nz, da.grid.ny, da.grid.nx, a.files[1], db.grid.nz,
                          db.grid.ny, db.grid.nx);
        goto done;
    }
    /* default: B's last record, against A's last, or, when B is a run's
     * output and A is not (its input), the record of A the run started from */
    if ((rc = resolve_time(&a, &db, (size_t)-1, &tb)) ||
        (rc = resolve_time(&a, &da,
                           is_run_output(&db) && !is_run_output(&da) ? start_record(&da, &db)
                                                                     : (size_t)-1,
                           &ta)) ||
        (rc = read_field(&da, ta, &fa)) || (rc = read_field(&db, tb, &fb)) ||
        (rc = pick_level(&a, &da, &fa, &fb, &k)))
        goto done;
    file_stem(a.files[0], sa, sizeof sa);
    file_stem(a.files[1], sb, sizeof sb);
    if (!a.out) {
        snprintf(suffix, sizeof suffix, "_minus_%s_diff.png", sa);
        if ((rc = default_output(sb, suffix, out, sizeof out)))
            goto done;
        a.out = out;
    }
    if ((rc = check_out(&a)))
        goto done;
    image_options(&a, a.out, &o);
    if (a.have_vmax) {
        o.have_vmin = 1;
        o.vmin = -fabs(a.vmax);
        o.vmax = fabs(a.vmax);
        if (o.vmax == 0) {
            rc = ps_cli_error("--vmax must not be 0 for a difference");
            goto done;
        }
    }
    snprintf(what, sizeof what, "%s - %s", sb, sa);
    if ((rc = ps_plot_field_diff(&da, &fa, &fb, k, tb, what, &o, &di))) {
        rc = ps_cli_status_error(rc, a.out);
        goto done;
    }
    ps_plot_level_label(&da, k, lev, sizeof lev);
    if (ta == tb)
        printf("wrote %s: B - A = %s at %s, time index %zu\n", a.out, what, lev, tb);
    else
        printf("wrote %s: B - A = %s at %s, time index %zu of B, %zu of A\n", a.out, what, lev,
               tb, ta);
    printf("max |B - A| = %.9g%s%s", di.max_abs, units_after(da.units), da.units);
    if (di.max_abs > 0)
        printf(" at latitude index %zu, longitude index %zu", di.max_j, di.max_i);
    printf("; %zu of %zu ocean cells differ; %zu land/sea mismatches\n", di.differing, di.compared,
           di.mismatched);
done:
    ps_field_free(&fa);
    ps_field_free(&fb);
    if (opened >= 1)
        ps_dataset_close(&da);
    if (opened >= 2)
        ps_dataset_close(&db);
    return rc;
}

/* Reads time records on demand for the pages, one 3-D field cached. */
typedef struct page_ctx {
    ps_dataset *ds;
    ps_field f;
    long cached;
    int input_failed; /* the error is the input's (ps_error_detail() names it) */
} page_ctx;

static int page_get(void *p, size_t t, size_t k, double *out)
{
    page_ctx *c = p;
    int rc;
    if (c->cached != (long)t) {
        ps_field_free(&c->f);
        memset(&c->f, 0, sizeof c->f);
        c->cached = -1;
        if ((rc = read_checked(c->ds, t, &c->f))) {
            c->input_failed = 1;
            return rc;
        }
        c->cached = (long)t;
    }
    return ps_plot_extract_level(&c->f, k, out);
}

static const char *axis_text(const ps_axis *ax, const char *name)
{
    const ps_attr *at = ps_attr_find(&ax->attrs, name);
    return at && at->text ? at->text : "";
}

/* Slider label of time index t: the date of the time coordinate in its
 * units and calendar (io/ps_time.c), else the coordinate value, else the index. */
static void time_label(const ps_dataset *ds, size_t t, char *buf, size_t n)
{
    const ps_axis *ax = &ds->axes[PS_AXIS_TIME];
    const char *u;
    ps_calendar cal;
    ps_date d;
    if (!ax->present || !ax->values || t >= ax->len) {
        snprintf(buf, n, "%zu", t);
        return;
    }
    u = axis_text(ax, "units");
    if (ps_calendar_parse(axis_text(ax, "calendar"), &cal) == PS_OK &&
        ps_time_decode(ax->values[t], u, cal, &d) == PS_OK) {
        ps_date_format(&d, buf, n);
        return;
    }
    ps_error_clear();
    snprintf(buf, n, "%zu (%.6g%s%s)", t, ax->values[t], *u ? " " : "", u);
}

static int plot_page(const char *sub, int argc, char **argv)
{
    int cube = !strcmp(sub, "cube");
    plot_args a;
    ps_dataset ds;
    ps_html_source src = {0};
    ps_html_options o;
    ps_html_info info;
    page_ctx ctx = {0};
    double *lon = NULL, *lat = NULL, *depths = NULL;
    size_t *levels = NULL, nlev, ntimes, i, k, k2;
    char **labels = NULL, stem[256], out[4200], lev[128], title[1024];
    const ps_axis *dax;
    int rc, done;

    if ((rc = parse_args(sub, argc, argv, &a, &done)) || done)
        return rc;
    if (a.nfiles != 1)
        return ps_cli_error("plot %s needs one input file (try 'pstencil plot %s --help')", sub, sub);
    if (a.have_lon || a.have_lat)
        return ps_cli_error("plot %s: --lon and --lat are options of plot slice and plot diff", sub);
    if ((rc = open_input(a.files[0], a.var, &ds)))
        return rc;
    dax = &ds.axes[PS_AXIS_DEPTH];
    if (a.have_time)
        ps_cli_warn("plot %s shows every time record from the first: --time ignored", sub);
    if (ds.ntime == 0) {
        rc = ps_cli_error("%s has no time records (its unlimited time dimension is empty)",
                          a.files[0]);
        goto done;
    }
    if (cube) {
        if (a.have_depth || a.have_level)
            ps_cli_warn("plot cube shows the first --depths levels: --depth/--level ignored");
        nlev = (size_t)a.depths;
        if (nlev > ds.grid.nz) {
            ps_cli_warn("%s has %zu levels: showing all of them", a.files[0], ds.grid.nz);
            nlev = ds.grid.nz;
        }
        ntimes = a.times < 0 ? ds.ntime : (size_t)a.times;
        if (ntimes > ds.ntime) {
            ps_cli_warn("%s has %zu time records: showing all of them", a.files[0], ds.ntime);
            ntimes = ds.ntime;
        }
        k = 0;
    } else {
        if ((rc = pick_level_file(&a, &ds, &k)))
            goto done;
        nlev = 1;
        ntimes = ds.ntime;
    }
    lon = malloc(ds.grid.nx * sizeof *lon);
    lat = malloc(ds.grid.ny * sizeof *lat);
    depths = malloc(nlev * sizeof *depths);
    levels = malloc(nlev * sizeof *levels);
    labels = calloc(ntimes, sizeof *labels);
    if (!lon || !lat || !depths || !levels || !labels) {
        rc = ps_cli_error("out of memory");
        goto done;
    }
    for (i = 0; i < ds.grid.nx; i++)
        lon[i] = ds.axes[PS_AXIS_LON].values && ds.axes[PS_AXIS_LON].len == ds.grid.nx
                     ? ds.axes[PS_AXIS_LON].values[i] : (double)i;
    for (i = 0; i < ds.grid.ny; i++)
        lat[i] = ds.axes[PS_AXIS_LAT].values && ds.axes[PS_AXIS_LAT].len == ds.grid.ny
                     ? ds.axes[PS_AXIS_LAT].values[i] : (double)i;
    for (i = 0; i < nlev; i++) {
        levels[i] = k + i;
        depths[i] = dax->values && dax->len == ds.grid.nz ? dax->values[k + i] : (double)(k + i);
    }
    for (i = 0; i < ntimes; i++) {
        labels[i] = malloc(64);
        if (!labels[i]) {
            rc = ps_cli_error("out of memory");
            goto done;
        }
        time_label(&ds, i, labels[i], 64);
        /* the labels name the page's frames: keep them distinct */
        for (k2 = 0; k2 < i; k2++)
            if (!strcmp(labels[k2], labels[i])) {
                size_t len = strlen(labels[i]);
                snprintf(labels[i] + len, 64 - len, " #%zu", i);
                break;
            }
    }
    file_stem(a.files[0], stem, sizeof stem);
    if (!a.out) {
        if ((rc = default_output(stem, cube ? "_3d_interactive.html" : "_2d_interactive.html", out,
                                 sizeof out)))
            goto done;
        a.out = out;
    }
    if ((rc = check_out(&a)))
        goto done;
    ps_plot_level_label(&ds, k, lev, sizeof lev);
    if (cube)
        snprintf(title, sizeof title, "%s: %s, first %zu level%s, %zu time%s", stem, ds.var_name, nlev,
                 nlev == 1 ? "" : "s", ntimes, ntimes == 1 ? "" : "s");
    else
        snprintf(title, sizeof title, "%s: %s at %s", stem, ds.var_name, lev);
    ctx.ds = &ds;
    ctx.cached = -1;
    src.nx = ds.grid.nx;
    src.ny = ds.grid.ny;
    src.lon = lon;
    src.lat = lat;
    src.ntimes = ntimes;
    src.time_labels = (const char *const *)labels;
    src.nlevels = nlev;
    src.levels = levels;
    src.depths = depths;
    src.depth_units = "m";
    if (dax->values) {
        const char *u = axis_text(dax, "units");
        if (*u && strcmp(u, "m") && strcmp(u, "meters") && strcmp(u, "metres") && strcmp(u, "meter"))
            src.depth_units = u;
    } else {
        src.depth_units = "level";
    }
    src.get = page_get;
    src.ctx = &ctx;
    src.title = title;
    src.var_name = ds.var_name;
    src.units = ds.units;
    ps_html_options_init(&o);
    o.path = a.out;
    o.plotly_cdn = a.plotly_cdn;
    o.plotly_dir = a.plotly_dir;
    o.cmap = a.cmap;
    o.have_vmin = a.have_vmin;
    o.have_vmax = a.have_vmax;
    o.vmin = a.vmin;
    o.vmax = a.vmax;
    o.frame_ms = (int)a.frame_ms;
    o.max_cells = (size_t)a.max_cells;
    o.force = a.force;
    if (!a.plotly_cdn && !ps_html_plotly_file()[0])
        ps_cli_warn("no plotly.js was found at configure time: the page references the CDN "
                    "and needs the network (configure --with-plotly-js=PATH to embed one)");
    rc = cube ? ps_html_cube(&src, &o, &info) : ps_html_animate(&src, &o, &info);
    if (rc) {
        rc = ps_cli_status_error(rc, ctx.input_failed ? a.files[0] : a.out);
        goto done;
    }
    printf("wrote %s: %zu frame%s of %s", a.out, ntimes, ntimes == 1 ? "" : "s", ds.var_name);
    if (cube)
        printf(", %zu levels", nlev);
    else
        printf(" at %s", lev);
    printf("; colour limits %.6g .. %.6g%s%s; %s; %.1f MB\n", info.vmin, info.vmax,
           units_after(ds.units), ds.units,
           info.stride > 1 ? "decimated" : "full resolution", info.bytes / 1e6);
done:
    if (labels)
        for (i = 0; i < ntimes; i++)
            free(labels[i]);
    free(labels);
    free(lon);
    free(lat);
    free(depths);
    free(levels);
    ps_field_free(&ctx.f);
    ps_dataset_close(&ds);
    return rc;
}

int ps_cmd_plot(int argc, char **argv)
{
    const char *sub;
    if (argc < 2) {
        help("", stderr);
        return PS_EXIT_USAGE;
    }
    sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        help("", stdout);
        return PS_EXIT_OK;
    }
    if (!strcmp(sub, "slice"))
        return plot_slice(argc - 1, argv + 1);
    if (!strcmp(sub, "diff"))
        return plot_diff(argc - 1, argv + 1);
    if (!strcmp(sub, "animate"))
        return plot_page("animate", argc - 1, argv + 1);
    if (!strcmp(sub, "cube"))
        return plot_page("cube", argc - 1, argv + 1);
    if (!strcmp(sub, "bench"))
        return ps_cmd_plot_bench(argc - 1, argv + 1);
    return ps_cli_error("plot: unknown subcommand '%s' (slice, diff, animate, cube or bench)", sub);
}
