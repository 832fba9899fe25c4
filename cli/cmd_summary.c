/* pstencil summary: what the course's summary printed (shape, mean, max,
 * min, standard deviation over ocean cells of every time record, then the
 * dimensions, coordinates and attributes), plus per-depth-level statistics
 * in the style of `cdo infon`. All sums in double with Neumaier compensation. */
#include "config.h"
#include "ps_cli.h"

#include <getopt.h>
#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>

static void summary_usage(FILE *f)
{
    fprintf(f,
            "Usage: pstencil summary FILE.nc [--var NAME[,NAME...]] [--no-levels]\n\n"
            "Print the shape of the temperature variable, the mean, maximum, minimum and\n"
            "(population) standard deviation over the ocean cells (not NaN/fill) of every\n"
            "time record, computed in double with compensated sums; then the dimensions,\n"
            "coordinates and attributes; then per depth level (over all time records) the\n"
            "ocean and land cell counts and min/mean/max, like `cdo infon`; levels are\n"
            "numbered from 0 (the surface), as in `plot --level`, with their depth.\n"
            "An output of `pstencil run` also gets its reductions of every record: the\n"
            "volume-weighted content, the volume, the mean, the minimum and the maximum.\n"
            "An output of several fields (run --tracers) is summarised field by field.\n\n"
            "Options:\n"
            "  --var NAME    the variable (default: found by CF rules; every field of an\n"
            "                output of run --tracers); NAME,NAME,... each in turn\n"
            "  --no-levels   leave out the per-level table\n"
            "  -h, --help    this help\n");
}

/* Neumaier-compensated sum. */
typedef struct ksum {
    double s, c;
} ksum;

static void kadd(ksum *k, double x)
{
    double t = k->s + x;
    if (fabs(k->s) >= fabs(x))
        k->c += (k->s - t) + x;
    else
        k->c += (x - t) + k->s;
    k->s = t;
}

static double kval(const ksum *k)
{
    return k->s + k->c;
}

/* Shortest decimal that reads back as the same double (like Python's repr). */
static void fmt_repr(char *buf, size_t n, double v)
{
    int p;
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return;
    }
    for (p = 1; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (!strchr(buf, '.') && !strchr(buf, 'e') && !strchr(buf, 'n') && !strchr(buf, 'i'))
        strncat(buf, ".0", n - strlen(buf) - 1);
}

static const char *type_name(int t)
{
    switch (t) {
    case NC_BYTE: return "int8";
    case NC_UBYTE: return "uint8";
    case NC_SHORT: return "int16";
    case NC_USHORT: return "uint16";
    case NC_INT: return "int32";
    case NC_UINT: return "uint32";
    case NC_INT64: return "int64";
    case NC_UINT64: return "uint64";
    case NC_FLOAT: return "float32";
    case NC_DOUBLE: return "float64";
    default: return "?";
    }
}

static void print_attr(const ps_attr *a, const char *indent)
{
    size_t i;
    printf("%s%-30s ", indent, a->name);
    if (a->text) {
        const char *s = a->text;
        /* one line: newlines shown as " | " */
        for (; *s; s++) {
            if (*s == '\n')
                fputs(" | ", stdout);
            else
                putchar(*s);
        }
    } else {
        for (i = 0; i < a->len && i < 8; i++) {
            char b[64];
            fmt_repr(b, sizeof b, a->values[i]);
            printf("%s%s", i ? " " : "", b);
        }
        if (a->len > 8)
            printf(" ...");
    }
    putchar('\n');
}

static void print_coord(const ps_axis *ax)
{
    size_t n = ax->len, i;
    printf("  * %-10s (%s) %s", ax->dim_name, ax->dim_name,
           ax->var_name[0] ? type_name(ax->nc_type) : "index");
    if (n <= 6) {
        for (i = 0; i < n; i++)
            printf(" %.*g", ax == NULL ? 4 : (strstr(ax->dim_name, "time") ? 10 : 4), ax->values[i]);
    } else {
        printf(" %.4g %.4g %.4g ... %.4g %.4g", ax->values[0], ax->values[1], ax->values[2],
               ax->values[n - 2], ax->values[n - 1]);
    }
    {
        const ps_attr *u = ps_attr_find(&ax->attrs, "units");
        if (u && u->text)
            printf("  [%s]", u->text);
    }
    if (ax->reversed)
        printf("  (stored bottom first; shown surface first)");
    putchar('\n');
}

/* The reductions a pstencil run wrote (VAR_content, _volume, _mean, _min, _max over
 * time, docs/file-conventions.md), one row per record, every digit; nothing when the
 * file has none. */
static void print_reductions(const ps_dataset *ds)
{
    ps_dataset_reductions r;
    size_t t;
    int i;
    char b[64];
    if (ps_dataset_read_reductions(ds, &r))
        return;
    printf("\nReductions (pstencil run: over the ocean cells, each weighing %s;\n"
           "%s_content = sum of weight x value, %s_mean = content / volume):\n",
           r.unit_weights ? "1" : "its volume", ds->var_name, ds->var_name);
    printf("%6s %8s %24s %24s %24s %24s %24s\n", "record", "step", "content", "volume", "mean",
           "min", "max");
    for (t = 0; t < r.n; t++) {
        printf("%6zu %8.0f", t, r.steps ? r.steps[t] : NAN);
        for (i = 0; i < 5; i++) {
            fmt_repr(b, sizeof b, r.v[i][t]);
            printf(" %24s", b);
        }
        putchar('\n');
    }
    ps_dataset_reductions_free(&r);
}

/* Whether the variable is a temperature (its standard name or units): the course's
 * wording ("Mean temperature") is kept for it. */
static int is_temperature(const ps_dataset *ds)
{
    const ps_attr *a = ps_attr_find(&ds->var_attrs, "standard_name");
    if (a && a->text)
        return strstr(a->text, "temperature") != NULL;
    return !strcmp(ds->units, "degC") || !strcmp(ds->units, "degrees_C") ||
           !strcmp(ds->units, "K") || !strcmp(ds->units, "degree_Celsius") ||
           !ds->units[0];
}

/* The fields of an output of run --tracers (its global attribute pstencil_tracers,
 * read from @p ds, open on any of its variables) into @p list; nonzero when the file
 * has none. */
static int tracers_of(const ps_dataset *ds, char *list, size_t len)
{
    const ps_attr *a = ps_attr_find(&ds->global_attrs, "pstencil_tracers");
    if (!a || !a->text || !a->text[0])
        return 1;
    snprintf(list, len, "%s", a->text);
    return 0;
}

typedef struct level_stats {
    size_t ocean, land;
    double mn, mx;
    ksum sum;
} level_stats;

/* The summary of the variable of the open dataset @p ds, which it closes. */
static int summarise_open(ps_dataset *ds, int levels)
{
    int s, rc = PS_EXIT_USAGE, d, pass, temp;
    ps_field f;
    size_t t, k, n, i, nocean = 0, ncells = 0;
    ksum sum = {0, 0}, sq = {0, 0};
    double mean = NAN, mx = -INFINITY, mn = INFINITY, sd = NAN;
    level_stats *lv = NULL;
    char b1[64];

    memset(&f, 0, sizeof f);
    temp = is_temperature(ds);
    /* bad coordinates are refused at open, as by every command; an all-land file is
     * described */
    lv = calloc(ds->grid.nz, sizeof *lv);
    if (!lv) {
        rc = ps_cli_error("summary: out of memory");
        goto done;
    }
    for (k = 0; k < ds->grid.nz; k++) {
        lv[k].mn = INFINITY;
        lv[k].mx = -INFINITY;
    }
    /* pass 0: sums, extremes, counts; pass 1: squared deviations from the mean.
     * One level at a time (same order of sums as the whole grid): memory is one
     * plane, however deep the file. */
    for (pass = 0; pass < 2; pass++) {
        for (t = 0; t < ds->ntime; t++) {
            for (k = 0; k < ds->grid.nz; k++) {
                const double *v;
                if ((s = ps_dataset_read_level(ds, t, k, PS_FLOAT64, &f))) {
                    rc = ps_cli_status_error(s, "summary");
                    goto done;
                }
                v = f.data;
                n = ps_field_cells(&f);
                for (i = 0; i < n; i++) {
                    double x = v[i];
                    if (pass == 1) {
                        if (!isnan(x))
                            kadd(&sq, (x - mean) * (x - mean));
                        continue;
                    }
                    ncells++;
                    if (isnan(x)) {
                        lv[k].land++;
                        continue;
                    }
                    nocean++;
                    kadd(&sum, x);
                    kadd(&lv[k].sum, x);
                    lv[k].ocean++;
                    if (x > mx)
                        mx = x;
                    if (x < mn)
                        mn = x;
                    if (x > lv[k].mx)
                        lv[k].mx = x;
                    if (x < lv[k].mn)
                        lv[k].mn = x;
                }
                ps_field_free(&f);
            }
        }
        if (pass == 0) {
            if (nocean == 0)
                break;
            mean = kval(&sum) / (double)nocean;
        } else {
            sd = sqrt(kval(&sq) / (double)nocean);
        }
    }

    printf("File: %s\n", ds->path);
    printf("Variable: %s (%s%s%s)\n", ds->var_name, type_name(ds->var_nc_type),
           ds->units[0] ? ", units " : "", ds->units);
    printf("The dimensions of the data is: (");
    {
        int first = 1, pos;
        for (pos = 0; pos < ds->rank; pos++)
            for (d = 0; d < 4; d++)
                if (ds->axes[d].present && ds->axes[d].file_dim_pos == pos) {
                    printf("%s%zu", first ? "" : ", ", ds->axes[d].len);
                    first = 0;
                }
    }
    printf(")\n");
    printf("%s Summary Statistics:\n", temp ? "Temperature" : ds->var_name);
    if (nocean == 0) {
        printf("No ocean cells: every value is land or missing (run, bench and plot "
               "refuse this file).\n");
    } else {
        fmt_repr(b1, sizeof b1, mean);
        printf("Mean%s: %s\n", temp ? " temperature" : "", b1);
        fmt_repr(b1, sizeof b1, mx);
        printf("Max%s: %s\n", temp ? " temperature" : "", b1);
        fmt_repr(b1, sizeof b1, mn);
        printf("Min%s: %s\n", temp ? " temperature" : "", b1);
        fmt_repr(b1, sizeof b1, sd);
        printf("Standard deviation: %s\n", b1);
    }
    printf("Ocean cells: %zu of %zu (%zu land or missing)\n", nocean, ncells, ncells - nocean);

    printf("\nDataset Dimensions and Coordinates:\n");
    printf("Dimensions:    (");
    {
        int first = 1;
        for (d = 0; d < 4; d++)
            if (ds->axes[d].present) {
                printf("%s%s: %zu%s", first ? "" : ", ", ds->axes[d].dim_name, ds->axes[d].len,
                       ds->axes[d].unlimited ? " (unlimited)" : "");
                first = 0;
            }
    }
    printf(")\nCoordinates:\n");
    for (d = 0; d < 4; d++)
        if (ds->axes[d].present)
            print_coord(&ds->axes[d]);
    printf("Data variables:\n    %-10s (", ds->var_name);
    {
        int pos;
        for (pos = 0; pos < ds->rank; pos++)
            for (d = 0; d < 4; d++)
                if (ds->axes[d].present && ds->axes[d].file_dim_pos == pos)
                    printf("%s%s", pos ? ", " : "", ds->axes[d].dim_name);
    }
    printf(") %s\n", type_name(ds->var_nc_type));
    printf("Variable attributes:\n");
    for (i = 0; i < (size_t)ds->var_attrs.count; i++)
        print_attr(&ds->var_attrs.attrs[i], "    ");
    printf("Attributes:\n");
    for (i = 0; i < (size_t)ds->global_attrs.count; i++)
        print_attr(&ds->global_attrs.attrs[i], "    ");

    print_reductions(ds);
    if (levels) {
        printf("\nPer depth level (all %zu time record%s):\n", ds->ntime,
               ds->ntime == 1 ? "" : "s");
        printf("%6s %12s %10s %10s %12s %12s %12s\n", "level", "depth", "ocean", "land",
               "min", "mean", "max");
        for (k = 0; k < ds->grid.nz; k++) {
            if (lv[k].ocean)
                printf("%6zu %12.4f %10zu %10zu %12.5f %12.5f %12.5f\n", k,
                       ds->axes[PS_AXIS_DEPTH].values[k], lv[k].ocean, lv[k].land, lv[k].mn,
                       kval(&lv[k].sum) / (double)lv[k].ocean, lv[k].mx);
            else
                printf("%6zu %12.4f %10zu %10zu %12s %12s %12s\n", k,
                       ds->axes[PS_AXIS_DEPTH].values[k], lv[k].ocean, lv[k].land, "nan", "nan",
                       "nan");
        }
    }
    rc = PS_EXIT_OK;
done:
    free(lv);
    ps_field_free(&f);
    ps_dataset_close(ds);
    return rc;
}

/* The summary of variable @p var (NULL: by CF rules) of @p path. */
static int summarise(const char *path, const char *var, int levels)
{
    ps_dataset ds;
    int s;
    memset(&ds, 0, sizeof ds);
    ds.ncid = -1;
    if ((s = ps_dataset_open(&ds, path, var)))
        return ps_cli_status_error(s, "summary");
    return summarise_open(&ds, levels);
}

int ps_cmd_summary(int argc, char **argv)
{
    static const struct option opts[] = {{"var", required_argument, NULL, 'v'},
                                         {"no-levels", no_argument, NULL, 'L'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *var = NULL;
    char list[4096] = "", *name, *save = NULL;
    int c, s, levels = 1, rc = PS_EXIT_OK, first = 1, open = 0;
    ps_dataset ds;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'v': var = optarg; break;
        case 'L': levels = 0; break;
        case 'h': summary_usage(stdout); return PS_EXIT_OK;
        case ':': return ps_cli_error("option %s needs a value", argv[optind - 1]);
        default:
            return ps_cli_error("unknown option '%s' (see 'pstencil summary --help')",
                                argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return ps_cli_error("summary needs one file: pstencil summary FILE.nc (see --help)");
    if (var) {
        snprintf(list, sizeof list, "%s", var);
    } else {
        /* one open: the variable by CF rules, whose global attributes list the fields */
        memset(&ds, 0, sizeof ds);
        ds.ncid = -1;
        if ((s = ps_dataset_open(&ds, argv[optind], NULL)))
            return ps_cli_status_error(s, "summary");
        if (tracers_of(&ds, list, sizeof list))
            return summarise_open(&ds, levels); /* one field, by CF rules */
        open = 1;
    }
    if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
        if (open)
            ps_dataset_close(&ds);
        return ps_cli_error("summary: --var %s: an empty variable name", list);
    }
    /* every field in turn, a blank line between them; the first is the open one
     * where CF rules chose it */
    name = strtok_r(list, ",", &save);
    if (open && strcmp(ds.var_name, name)) {
        ps_dataset_close(&ds);
        open = 0;
    }
    for (; name && rc == PS_EXIT_OK; name = strtok_r(NULL, ",", &save)) {
        if (!first)
            printf("\n");
        first = 0;
        rc = open ? summarise_open(&ds, levels) : summarise(argv[optind], name, levels);
        open = 0;
    }
    return rc;
}
