/*
 * The built-in ocean: a synthetic stand-in for the course's Copernicus file
 * (GLO12 analysis subset around the British Isles, 5 x 50 x 222 x 241,
 * thetao and so float32, NaN land) so pstencil runs on a machine with no data.
 *
 * Everything is computed with +, -, *, / and sqrt in double (all correctly
 * rounded in IEEE 754, and the build uses -ffp-contract=off) from a
 * splitmix64 PRNG, then rounded to float32: the file is bitwise the same on
 * every platform. No exp/sin/pow from libm.
 */
#include "config.h"
#include "ps_io.h"
#include "ps_currents.h"
#include "ps_nc_internal.h"
#include "ps_status.h"

#include <math.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 50 depth levels of the Copernicus GLO12 (NEMO ORCA) grid, metres. */
static const double glo12_depth[50] = {
    0.494025,  1.541375,  2.645669,  3.819495,  5.078224,  6.440614,  7.92956,   9.572997,
    11.405,    13.46714,  15.81007,  18.49556,  21.59882,  25.21141,  29.44473,  34.43415,
    40.34405,  47.37369,  55.76429,  65.80727,  77.85385,  92.32607,  109.7293,  130.666,
    155.8507,  186.1256,  222.4752,  266.0403,  318.1274,  380.213,   453.9377,  541.0889,
    643.5668,  763.3331,  902.3393,  1062.44,   1245.291,  1452.251,  1684.284,  1941.893,
    2225.078,  2533.336,  2865.703,  3220.82,   3597.032,  3992.484,  4405.224,  4833.291,
    5274.784,  5727.917};

void ps_ocean_defaults(ps_ocean_options *o)
{
    o->scale = 1.0;
    o->seed = 1;
    o->ntime = 5;
    o->nz = 50;
}

/* ------------------------------------------------------------ PRNG, noise */

static uint64_t splitmix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Uniform in [0, 1) from a hash of the arguments (53 random bits). */
static double urand(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = splitmix64(seed ^ splitmix64(a ^ splitmix64(b ^ splitmix64(c))));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

static double smooth01(double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    return x * x * (3.0 - 2.0 * x);
}

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* Smooth value noise in [-1, 1] on a lattice of @p cell degrees. */
static double vnoise(uint64_t seed, uint64_t layer, double lat, double lon, double cell)
{
    double y = (lat + 90.0) / cell, x = (lon + 360.0) / cell;
    double fy = floor(y), fx = floor(x);
    double ty = smooth01(y - fy), tx = smooth01(x - fx);
    uint64_t iy = (uint64_t)fy, ix = (uint64_t)fx;
    double v00 = urand(seed, layer, iy, ix), v01 = urand(seed, layer, iy, ix + 1);
    double v10 = urand(seed, layer, iy + 1, ix), v11 = urand(seed, layer, iy + 1, ix + 1);
    double a = v00 + (v01 - v00) * tx, b = v10 + (v11 - v10) * tx;
    return 2.0 * (a + (b - a) * ty) - 1.0;
}

/* Piecewise-linear interpolation in a table of (x, y) pairs, x increasing. */
static double pwl(const double (*t)[2], int n, double x)
{
    int i;
    if (x <= t[0][0])
        return t[0][1];
    for (i = 1; i < n; i++)
        if (x <= t[i][0])
            return t[i - 1][1] + (t[i][1] - t[i - 1][1]) * (x - t[i - 1][0]) / (t[i][0] - t[i - 1][0]);
    return t[n - 1][1];
}

/* ------------------------------------------------------------- geography */

/* Signed distance-like margin to an ellipse, in degrees (> 0 outside). */
static double ellipse_margin(double lat, double lon, double clat, double clon, double a, double b)
{
    double dy = (lat - clat) / a, dx = (lon - clon) / b;
    double r = sqrt(dx * dx + dy * dy);
    return (r - 1.0) * (a < b ? a : b);
}

/* Land margin in degrees: > 0 sea, <= 0 land. */
static double land_margin(uint64_t seed, double lat, double lon)
{
    static const double france_n[][2] = {{-6.0, 48.5}, {-4.8, 48.6}, {-3.0, 48.9}, {-1.6, 49.7},
                                         {-1.0, 49.4}, {0.2, 49.5},  {1.5, 50.4},  {2.5, 51.05},
                                         {3.5, 51.4},  {4.5, 52.2},  {5.0, 53.0},  {7.0, 53.6}};
    static const double france_w[][2] = {{46.0, -1.6}, {46.8, -2.1}, {47.3, -2.6},
                                         {47.8, -4.2}, {48.4, -4.8}, {49.0, -4.8}};
    double m, t;
    /* Great Britain: England and Wales, Scotland, Wales' bulge, Cornwall */
    m = ellipse_margin(lat, lon, 52.6, -1.6, 2.05, 2.9);
    t = ellipse_margin(lat, lon, 56.9, -4.2, 1.75, 1.35);
    m = t < m ? t : m;
    t = ellipse_margin(lat, lon, 52.3, -3.8, 0.9, 0.85);
    m = t < m ? t : m;
    /* northern England and the Southern Uplands join the two */
    t = ellipse_margin(lat, lon, 55.0, -2.9, 1.35, 1.0);
    m = t < m ? t : m;
    t = ellipse_margin(lat, lon, 50.45, -4.4, 0.3, 1.3);
    m = t < m ? t : m;
    /* Ireland */
    t = ellipse_margin(lat, lon, 53.45, -7.9, 1.6, 1.75);
    m = t < m ? t : m;
    /* Iceland's south-east corner is outside; the Faroes and Shetland */
    t = ellipse_margin(lat, lon, 62.0, -6.9, 0.22, 0.45);
    m = t < m ? t : m;
    t = ellipse_margin(lat, lon, 60.35, -1.25, 0.35, 0.25);
    m = t < m ? t : m;
    /* Norway: land east of a coast that bends away north of 62N */
    if (lat > 57.8) {
        double c = 5.0 + 0.35 * (lat - 61.0) * (lat - 61.0);
        t = c - lon;
        if (lat < 58.4)
            t = t > 58.4 - lat ? t : 58.4 - lat;
        m = t < m ? t : m;
    }
    /* France, Belgium, the Netherlands: south of the north coast, east of the west coast */
    t = lat - pwl(france_n, 12, lon);
    {
        double w = pwl(france_w, 6, lat) - lon;
        t = t > w ? t : w;
    }
    m = t < m ? t : m;
    /* a rougher coastline */
    return m + 0.12 * vnoise(seed, 1, lat, lon, 0.35) + 0.05 * vnoise(seed, 2, lat, lon, 0.13);
}

/* Sea-floor depth (m) at a sea point with land margin @p m. */
static double sea_depth(uint64_t seed, double lat, double lon, double m)
{
    /* shelf edge: west of it the slope, then the basins */
    static const double edge[][2] = {{46.0, -3.0}, {46.8, -3.8}, {47.8, -6.6}, {49.0, -9.3},
                                     {50.5, -10.9}, {52.0, -11.6}, {54.0, -10.9}, {55.5, -9.6},
                                     {57.0, -8.8}, {58.5, -6.8}, {59.5, -4.0}, {60.5, -1.0}};
    double d_w = pwl(edge, 12, lat) - lon;           /* > 0 west of the shelf edge */
    double d_n = lat - (60.8 + 0.22 * (lon + 2.0));  /* > 0 north of the northern shelf */
    double off = d_w > d_n ? d_w : d_n;
    double shelf, basin, h;
    /* shelf: shallow southern North Sea and Channel, deeper to the north */
    shelf = 45.0 + 110.0 * clamp01((lat - 51.5) / 8.0) + 80.0 * clamp01((-3.0 - lon) / 5.0) +
            25.0 * vnoise(seed, 3, lat, lon, 0.8);
    /* Norwegian Trench along the Norwegian coast */
    if (lat > 57.5 && lat < 62.5) {
        double nt = (lon - (3.6 + 0.32 * (lat - 61.0) * (lat - 61.0))) / 0.9;
        shelf += 300.0 * (1.0 - smooth01(nt * nt));
    }
    /* basins: Biscay abyssal plain, Rockall Trough and Iceland Basin, Norwegian Sea */
    basin = 2400.0 + 2500.0 * smooth01((49.0 - lat) / 2.0) + 900.0 * smooth01((lat - 61.5) / 2.5) +
            600.0 * smooth01((-9.0 - lon) / 4.0) * smooth01((lat - 55.0) / 3.0) +
            250.0 * vnoise(seed, 4, lat, lon, 1.0);
    if (basin > 5400.0)
        basin = 5400.0;
    h = shelf + (basin - shelf) * smooth01(off / 1.3);
    /* shallower towards the coast */
    h *= 0.06 + 0.94 * smooth01(m / 0.7);
    return h;
}

/* What a water column's temperature and salinity profiles need (depends on
 * lat, lon, t). */
typedef struct column {
    double m;    /* land margin (degrees, > 0 sea) */
    double h;    /* sea floor depth (m), 0 on land */
    double sst;  /* surface temperature */
    double deep; /* deep-water temperature */
    double mowf; /* Mediterranean outflow water strength */
    double sss;  /* surface salinity (salinity_setup) */
    double scen; /* salinity of the central water below the halocline */
    double sdeep; /* deep-water salinity */
} column;

static void column_setup(uint64_t seed, size_t t, double lat, double lon, column *c)
{
    double m = land_margin(seed, lat, lon), shelf;
    c->m = m;
    c->h = m > 0 ? sea_depth(seed, lat, lon, m) : 0.0;
    shelf = 1.0 - smooth01((c->h - 150.0) / 300.0);
    /* January-like surface: warm Biscay, cooler North Sea and Norwegian Sea */
    c->sst = 13.9 - 0.30 * (lat - 46.8) - 2.2 * shelf * clamp01((lat - 50.0) / 6.0) +
             0.5 * clamp01((-5.0 - lon) / 8.0) + 0.35 * vnoise(seed, 5, lat, lon, 1.5);
    /* the five records: a slow winter cooling and a drifting eddy field */
    c->sst -= 0.03 * (double)t;
    c->sst += 0.08 * vnoise(seed, 100 + t, lat, lon, 0.6);
    /* deep water: ~2.5 C in the south, below 0 in the Norwegian Sea */
    c->deep = 2.6 - 3.4 * smooth01((lat - 60.0) / 3.5) + 0.2 * vnoise(seed, 6, lat, lon, 2.0);
    c->mowf = 1.4 * clamp01((54.0 - lat) / 6.0);
}

/* Temperature (deg C) at depth z (m) in a column; cellnoise in [0, 1). */
static double temperature(const column *c, double z, double cellnoise)
{
    double prof, v, x;
    /* profile: mixed layer, then a thermocline (rational shape) */
    x = z > 60.0 ? (z - 60.0) / 700.0 : 0.0;
    prof = 1.0 / (1.0 + x * x * (1.0 + x));
    v = c->deep + (c->sst - c->deep) * prof;
    /* Mediterranean outflow water near 1000 m in the south */
    x = (z - 1000.0) / 350.0;
    v += c->mowf / (1.0 + x * x);
    /* on the shelf the winter column is nearly mixed to the bottom */
    if (c->h < 250.0)
        v = c->sst - 0.3 * clamp01(z / 200.0);
    /* small deterministic cell noise (+-0.01 C) */
    v += 0.02 * (cellnoise - 0.5);
    return v;
}

/*
 * The salinity of a column set up by column_setup(), from its own noise
 * stream @p sseed (so temperature's bits do not depend on it): Atlantic
 * water of 35.6 at the surface in the south-west, fresher to the north
 * (-0.035 a degree) and on the northern shelf, much fresher in the Norwegian
 * coastal current (to about 33) and near every coast (river runoff, within
 * 0.6 degree); below, central water (35.55, 35.2 at 65N) and deep water
 * (34.95, 34.91 in the Norwegian Sea).
 */
static void salinity_setup(uint64_t sseed, size_t t, double lat, double lon, column *c)
{
    double shelf = 1.0 - smooth01((c->h - 150.0) / 300.0);
    c->sss = 35.6 - 0.035 * (lat - 46.8) - 0.9 * shelf * clamp01((lat - 51.0) / 6.0) -
             1.6 * clamp01((lon - 3.0) / 3.0) * clamp01((lat - 57.5) / 2.0) -
             0.7 * (1.0 - smooth01(c->m / 0.6)) + 0.1 * vnoise(sseed, 1, lat, lon, 1.5);
    /* the five records: a slow freshening and a drifting eddy field */
    c->sss -= 0.01 * (double)t;
    c->sss += 0.03 * vnoise(sseed, 100 + t, lat, lon, 0.6);
    c->scen = 35.55 - 0.02 * (lat - 46.8);
    c->sdeep = 34.95 - 0.04 * smooth01((lat - 60.0) / 3.5) + 0.02 * vnoise(sseed, 2, lat, lon, 2.0);
}

/* Salinity (1e-3) at depth z (m) in a column; cellnoise in [0, 1). */
static double salinity(const column *c, double z, double cellnoise)
{
    double x, v;
    /* the deep transition, shaped like the thermocline: central to deep water */
    x = z > 60.0 ? (z - 60.0) / 700.0 : 0.0;
    v = c->sdeep + (c->scen - c->sdeep) / (1.0 + x * x * (1.0 + x));
    /* the halocline: the surface's departure from the central water fades
     * within about 50 m below a 10 m mixed layer */
    x = z > 10.0 ? (z - 10.0) / 50.0 : 0.0;
    v += (c->sss - c->scen) / (1.0 + x * x);
    /* Mediterranean outflow water near 1000 m in the south: saltier */
    x = (z - 1000.0) / 350.0;
    v += 0.32 * c->mowf / (1.0 + x * x);
    /* on the shelf the winter column is nearly mixed to the bottom */
    if (c->h < 250.0)
        v = c->sss + 0.15 * clamp01(z / 100.0);
    /* small deterministic cell noise (+-0.002) */
    v += 0.004 * (cellnoise - 0.5);
    return v;
}

/* ----------------------------------------------------------- the dataset */

int ps_axis_alloc(ps_axis *ax, const char *name, size_t n, int type)
{
    memset(ax, 0, sizeof *ax);
    ax->present = 1;
    snprintf(ax->dim_name, sizeof ax->dim_name, "%s", name);
    snprintf(ax->var_name, sizeof ax->var_name, "%s", name);
    ax->len = n;
    ax->nc_type = type;
    ax->values = calloc(n ? n : 1, sizeof(double));
    return ax->values ? PS_OK : ps_error(PS_ENOMEM, "out of memory");
}

static int fill_dataset(const ps_ocean_options *o, ps_dataset *ds, size_t ny, size_t nx)
{
    int st;
    size_t i;
    double v;
    ps_attr_list *l;
    memset(ds, 0, sizeof *ds);
    ds->ncid = -1;
    ds->varid = -1;
    ds->format = NC_FORMAT_NETCDF4;
    snprintf(ds->var_name, sizeof ds->var_name, "thetao");
    ds->var_nc_type = NC_FLOAT;
    ds->rank = 4;
    ds->ntime = o->ntime;
    ds->grid.nz = o->nz;
    ds->grid.ny = ny;
    ds->grid.nx = nx;
    snprintf(ds->units, sizeof ds->units, "degrees_C");

    /* time: 6-hourly from 2024-01-01, hours since 1950-01-01 like Copernicus */
    if ((st = ps_axis_alloc(&ds->axes[PS_AXIS_TIME], "time", o->ntime, NC_DOUBLE)))
        return st;
    ds->axes[PS_AXIS_TIME].unlimited = 1;
    ds->axes[PS_AXIS_TIME].file_dim_pos = 0;
    for (i = 0; i < o->ntime; i++)
        ds->axes[PS_AXIS_TIME].values[i] = 648672.0 + 6.0 * (double)i;
    l = &ds->axes[PS_AXIS_TIME].attrs;
    if ((st = ps_attr_set_text(l, "axis", "T")) ||
        (st = ps_attr_set_text(l, "long_name", "Time (hours since 1950-01-01)")) ||
        (st = ps_attr_set_text(l, "standard_name", "time")) ||
        (st = ps_attr_set_text(l, "calendar", "gregorian")) ||
        (st = ps_attr_set_text(l, "units", "hours since 1950-01-01")))
        return st;

    /* depth: the GLO12 levels (extrapolated geometrically beyond 50) */
    if ((st = ps_axis_alloc(&ds->axes[PS_AXIS_DEPTH], "depth", o->nz, NC_FLOAT)))
        return st;
    ds->axes[PS_AXIS_DEPTH].file_dim_pos = 1;
    for (i = 0; i < o->nz; i++) {
        if (i < 50)
            v = glo12_depth[i];
        else
            v = ds->axes[PS_AXIS_DEPTH].values[i - 1] * 1.08;
        ds->axes[PS_AXIS_DEPTH].values[i] = (double)(float)v;
    }
    l = &ds->axes[PS_AXIS_DEPTH].attrs;
    {
        double vr[2] = {ds->axes[PS_AXIS_DEPTH].values[0],
                        ds->axes[PS_AXIS_DEPTH].values[o->nz - 1]};
        if ((st = ps_attr_set_text(l, "axis", "Z")) ||
            (st = ps_attr_set_text(l, "long_name", "Depth")) ||
            (st = ps_attr_set_text(l, "positive", "down")) ||
            (st = ps_attr_set_text(l, "standard_name", "depth")) ||
            (st = ps_attr_set_text(l, "unit_long", "Meters")) ||
            (st = ps_attr_set_text(l, "units", "m")) ||
            (st = ps_attr_set_values(l, "valid_min", NC_FLOAT, &vr[0], 1)) ||
            (st = ps_attr_set_values(l, "valid_max", NC_FLOAT, &vr[1], 1)))
            return st;
    }

    /* latitude 46.8333..65.25, longitude -13.8333..6.1667 (1/12 degree at scale 1) */
    if ((st = ps_axis_alloc(&ds->axes[PS_AXIS_LAT], "latitude", ny, NC_FLOAT)) ||
        (st = ps_axis_alloc(&ds->axes[PS_AXIS_LON], "longitude", nx, NC_FLOAT)))
        return st;
    ds->axes[PS_AXIS_LAT].file_dim_pos = 2;
    ds->axes[PS_AXIS_LON].file_dim_pos = 3;
    for (i = 0; i < ny; i++)
        ds->axes[PS_AXIS_LAT].values[i] =
            (double)(float)((562.0 + (double)i * 221.0 / (double)(ny - 1)) / 12.0);
    for (i = 0; i < nx; i++)
        ds->axes[PS_AXIS_LON].values[i] =
            (double)(float)((-166.0 + (double)i * 240.0 / (double)(nx - 1)) / 12.0);
    {
        static const char *const nm[2] = {"latitude", "longitude"};
        static const char *const un[2] = {"degrees_north", "degrees_east"};
        static const char *const ax[2] = {"Y", "X"};
        static const char *const ln[2] = {"Latitude", "Longitude"};
        int a;
        for (a = 0; a < 2; a++) {
            ps_axis *pa = &ds->axes[PS_AXIS_LAT + a];
            double vr[2] = {pa->values[0], pa->values[pa->len - 1]};
            l = &pa->attrs;
            if ((st = ps_attr_set_text(l, "axis", ax[a])) ||
                (st = ps_attr_set_text(l, "long_name", ln[a])) ||
                (st = ps_attr_set_text(l, "standard_name", nm[a])) ||
                (st = ps_attr_set_text(l, "unit_long", a ? "Degrees East" : "Degrees North")) ||
                (st = ps_attr_set_text(l, "units", un[a])) ||
                (st = ps_attr_set_values(l, "valid_min", NC_FLOAT, &vr[0], 1)) ||
                (st = ps_attr_set_values(l, "valid_max", NC_FLOAT, &vr[1], 1)))
                return st;
            {
                double stepv = (double)(float)((vr[1] - vr[0]) / (double)(pa->len - 1));
                if ((st = ps_attr_set_values(l, "step", NC_FLOAT, &stepv, 1)))
                    return st;
            }
        }
    }

    /* the variable */
    l = &ds->var_attrs;
    {
        double fill = (double)NAN;
        if ((st = ps_attr_set_values(l, "_FillValue", NC_FLOAT, &fill, 1)) ||
            (st = ps_attr_set_text(l, "long_name", "Temperature")) ||
            (st = ps_attr_set_text(l, "standard_name", "sea_water_potential_temperature")) ||
            (st = ps_attr_set_text(l, "units", "degrees_C")) ||
            (st = ps_attr_set_text(l, "unit_long", "Degrees Celsius")) ||
            (st = ps_attr_set_text(l, "cell_methods", "area: mean")))
            return st;
    }
    l = &ds->global_attrs;
    if ((st = ps_attr_set_text(l, "Conventions", "CF-1.6")) ||
        (st = ps_attr_set_text(l, "area", "GLOBAL")) ||
        (st = ps_attr_set_text(l, "contact", "none: synthetic data generated by pstencil")) ||
        (st = ps_attr_set_text(l, "credit",
                               "Synthetic ocean shaped like a E.U. Copernicus Marine Service "
                               "GLO12 subset; not real data")) ||
        (st = ps_attr_set_text(l, "institution", "pstencil (synthetic)")) ||
        (st = ps_attr_set_text(l, "licence", "public domain")) ||
        (st = ps_attr_set_text(l, "product", "pstencil built-in ocean")) ||
        (st = ps_attr_set_text(l, "references", "https://marine.copernicus.eu (file layout)")) ||
        (st = ps_attr_set_text(l, "source", "pstencil built-in ocean (MERCATOR GLO12 layout)")) ||
        (st = ps_attr_set_text(l, "title",
                               "Synthetic instantaneous fields like GLOBAL_ANALYSISFORECAST_PHY "
                               "(British Isles, 1/12 degree)")))
        return st;
    {
        double sd = (double)o->seed, sc = o->scale;
        if ((st = ps_attr_set_values(l, "pstencil_seed", NC_DOUBLE, &sd, 1)) ||
            (st = ps_attr_set_values(l, "pstencil_scale", NC_DOUBLE, &sc, 1)))
            return st;
    }
    return PS_OK;
}

static int ocean_dims(const ps_ocean_options *o, size_t *ny, size_t *nx)
{
    double y, x;
    if (!(o->scale > 0) || !isfinite(o->scale))
        return ps_error(PS_EINVAL, "--scale must be a positive number (got %g)", o->scale);
    if (o->ntime < 1 || o->nz < 3)
        return ps_error(PS_EINVAL, "the built-in ocean needs >= 1 time record and >= 3 levels");
    y = floor(222.0 * o->scale + 0.5);
    x = floor(241.0 * o->scale + 0.5);
    if (y < 3 || x < 3)
        return ps_error(PS_EDIM, "--scale %g gives a %gx%g grid; need at least 3x3", o->scale, y,
                        x);
    if (y > 1e9 || x > 1e9)
        return ps_error(PS_ENOMEM, "--scale %g gives a grid too large to address", o->scale);
    *ny = (size_t)y;
    *nx = (size_t)x;
    return PS_OK;
}

/* The variables of the built-in ocean. */
enum { OCEAN_THETAO = 0, OCEAN_SO = 1, OCEAN_NVARS = 2 };
static const char *const ocean_vars[OCEAN_NVARS] = {"thetao", "so"};

static int ocean_var(const char *var, int *which)
{
    int i;
    if (!var) {
        *which = OCEAN_THETAO;
        return PS_OK;
    }
    for (i = 0; i < OCEAN_NVARS; i++)
        if (!strcmp(var, ocean_vars[i])) {
            *which = i;
            return PS_OK;
        }
    return ps_error(PS_EINVAL, "the built-in ocean has no variable '%s' (it has thetao and so)",
                    var);
}

/* Make @p ds (filled by fill_dataset(), thetao) describe salinity. */
static int describe_so(ps_dataset *ds)
{
    ps_attr_list *l = &ds->var_attrs;
    double fill = (double)NAN;
    int st;
    snprintf(ds->var_name, sizeof ds->var_name, "so");
    snprintf(ds->units, sizeof ds->units, "1e-3");
    ps_attr_list_free(l);
    if ((st = ps_attr_set_values(l, "_FillValue", NC_FLOAT, &fill, 1)) ||
        (st = ps_attr_set_text(l, "long_name", "Sea water salinity")) ||
        (st = ps_attr_set_text(l, "standard_name", "sea_water_salinity")) ||
        (st = ps_attr_set_text(l, "units", "1e-3")) ||
        (st = ps_attr_set_text(l, "unit_long", "Practical Salinity Unit")) ||
        (st = ps_attr_set_text(l, "cell_methods", "area: mean")))
        return st;
    return PS_OK;
}

/*
 * Record @p t of the ocean: @p d (filled, describing variable @p which) and
 * the fields wanted (out[OCEAN_THETAO], out[OCEAN_SO], each may be NULL),
 * from one pass over the columns. Every field allocated, or none.
 */
static int generate(const ps_ocean_options *o, size_t t, int which, ps_dataset *d,
                    ps_field *const out[OCEAN_NVARS])
{
    size_t ny = 0, nx = 0, k, j, i, c, plane, nout = 0;
    int st, v;
    uint64_t seed, sseed;
    column *cols = NULL;

    if ((st = ocean_dims(o, &ny, &nx)))
        return st;
    if (t >= o->ntime)
        return ps_error(PS_ERANGE, "time index %zu is out of range (0..%zu)", t, o->ntime - 1);
    seed = splitmix64((uint64_t)o->seed);
    /* salinity's own noise stream ("salinity" in ASCII) */
    sseed = splitmix64(seed ^ UINT64_C(0x73616c696e697479));
    if ((st = fill_dataset(o, d, ny, nx)))
        return st;
    if (which == OCEAN_SO && (st = describe_so(d)))
        return st;
    for (v = 0; v < OCEAN_NVARS; v++)
        nout += out[v] != NULL;
    if (!nout)
        return PS_OK;
    /* one field, then (gen) both held together */
    if ((st = ps_dataset_check_memory(d, PS_FLOAT32, 1)) ||
        (nout > 1 && (st = ps_dataset_check_memory_as(d, PS_FLOAT32, nout,
                                                      "fields thetao and so"))))
        return st;
    for (v = 0; v < OCEAN_NVARS; v++)
        if (out[v] && (st = ps_field_alloc(out[v], d->grid, PS_FLOAT32)))
            goto done;
    plane = ny * nx;
    cols = malloc(plane * sizeof *cols);
    if (!cols) {
        st = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
            double lat = d->axes[PS_AXIS_LAT].values[j], lon = d->axes[PS_AXIS_LON].values[i];
            column_setup(seed, t, lat, lon, &cols[j * nx + i]);
            if (out[OCEAN_SO])
                salinity_setup(sseed, t, lat, lon, &cols[j * nx + i]);
        }
    for (k = 0; k < d->grid.nz; k++) {
        double z = d->axes[PS_AXIS_DEPTH].values[k];
        float *lev = out[OCEAN_THETAO] ? (float *)out[OCEAN_THETAO]->data + k * plane : NULL;
        float *slev = out[OCEAN_SO] ? (float *)out[OCEAN_SO]->data + k * plane : NULL;
        for (c = 0; c < plane; c++) {
            const column *col = &cols[c];
            int sea = col->h > 0 && z <= col->h;
            if (lev)
                lev[c] = sea ? (float)temperature(col, z, urand(seed, 200 + t, k, c)) : NAN;
            if (slev)
                slev[c] = sea ? (float)salinity(col, z, urand(sseed, 200 + t, k, c)) : NAN;
        }
    }
done:
    free(cols);
    if (st)
        for (v = 0; v < OCEAN_NVARS; v++)
            if (out[v])
                ps_field_free(out[v]);
    return st;
}

int ps_ocean_generate_var(const ps_ocean_options *o, size_t t, const char *var, ps_dataset *ds,
                          ps_field *out)
{
    ps_ocean_options def;
    ps_dataset tmp;
    ps_dataset *d = ds ? ds : &tmp;
    ps_field *outs[OCEAN_NVARS] = {NULL, NULL};
    int which = OCEAN_THETAO, st;
    if ((st = ocean_var(var, &which)))
        return st;
    if (!o) {
        ps_ocean_defaults(&def);
        o = &def;
    }
    outs[which] = out;
    memset(d, 0, sizeof *d);
    d->ncid = -1;
    st = generate(o, t, which, d, outs);
    if (st || !ds)
        ps_dataset_close(d);
    return st;
}

int ps_ocean_generate(const ps_ocean_options *o, size_t t, ps_dataset *ds, ps_field *out)
{
    return ps_ocean_generate_var(o, t, "thetao", ds, out);
}

int ps_ocean_currents(ps_grid g, const ps_grid_coords *c, double *u, double *v)
{
    if (!c)
        return ps_error(PS_EINVAL, "the ocean's currents need the grid's coordinates");
    return ps_currents_gyre(g, c->depth, c->lat, c->lon, PS_OCEAN_GYRE_SPEED, u, v);
}

/* The ocean's currents as uo and vo of @p w, NaN where @p land (record 0) is. */
static int add_currents(ps_writer *w, const ps_dataset *ds, const ps_field *land)
{
    ps_grid_coords c;
    size_t n = ps_field_cells(land), i;
    double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
    int st = u && v ? PS_OK : ps_error(PS_ENOMEM, "out of memory (currents)");
    memset(&c, 0, sizeof c);
    if (!st)
        st = ps_dataset_coords(ds, &c);
    if (!st)
        st = ps_ocean_currents(ds->grid, &c, u, v);
    for (i = 0; !st && i < n; i++)
        if (isnan(((const float *)land->data)[i]))
            u[i] = v[i] = NAN;
    if (!st)
        st = ps_writer_add_variable(w, "uo", "eastward_sea_water_velocity",
                                    "Eastward velocity (gyre)", "m s-1", u, n);
    if (!st)
        st = ps_writer_add_variable(w, "vo", "northward_sea_water_velocity",
                                    "Northward velocity (gyre)", "m s-1", v, n);
    ps_grid_coords_free(&c);
    free(u);
    free(v);
    return st;
}

int ps_ocean_write(const ps_ocean_options *o, const char *path, int force)
{
    ps_ocean_options def;
    ps_dataset ds, ds_so;
    ps_field f, so;
    ps_field *outs[OCEAN_NVARS];
    const ps_field *rec[OCEAN_NVARS];
    ps_writer *w = NULL;
    ps_write_options wo;
    size_t t;
    int st;
    char src[256], hist[512];

    if (!o) {
        ps_ocean_defaults(&def);
        o = &def;
    }
    memset(&f, 0, sizeof f);
    memset(&so, 0, sizeof so);
    if ((st = ps_ocean_generate(o, 0, &ds, NULL)))
        return st;
    if ((st = ps_ocean_generate_var(o, 0, "so", &ds_so, NULL))) {
        ps_dataset_close(&ds);
        return st;
    }
    /* keep_time: the file's time coordinate is the dataset's (hours since
     * 1950), like a Copernicus file, not a step number */
    snprintf(src, sizeof src, "pstencil %s built-in ocean (seed %lu, scale %g)", PACKAGE_VERSION,
             o->seed, o->scale);
    snprintf(hist, sizeof hist, "pstencil gen (built-in ocean, seed %lu, scale %g)", o->seed,
             o->scale);
    memset(&wo, 0, sizeof wo);
    wo.path = path;
    wo.force = force;
    wo.compress = 0;
    wo.dt = 0;
    wo.history = hist;
    wo.source = src;
    wo.precision = PS_FLOAT32;
    wo.keep_time = 1;
    wo.reproducible = 1;
    if ((st = ps_writer_open(&w, &ds, &wo)) || (st = ps_writer_add_field(w, &ds_so)))
        goto done;
    outs[OCEAN_THETAO] = &f;
    outs[OCEAN_SO] = &so;
    rec[OCEAN_THETAO] = &f;
    rec[OCEAN_SO] = &so;
    for (t = 0; t < o->ntime; t++) {
        ps_dataset d;
        memset(&d, 0, sizeof d);
        d.ncid = -1;
        st = generate(o, t, OCEAN_THETAO, &d, outs);
        ps_dataset_close(&d);
        if (st)
            goto done;
        /* the land does not change with time: record 0's masks the currents */
        if (t == 0 && (st = add_currents(w, &ds, &f)))
            goto done;
        if ((st = ps_writer_append_fields(w, (long)t, rec, OCEAN_NVARS)))
            goto done;
        ps_field_free(&f);
        ps_field_free(&so);
    }
    st = ps_writer_commit(w);
done:
    ps_field_free(&f);
    ps_field_free(&so);
    ps_writer_abort(w);
    ps_dataset_close(&ds);
    ps_dataset_close(&ds_so);
    return st;
}
