/* pstencil compare: cell-by-cell comparison of two NetCDF files over all
 * time records (what cdo diffn / nccmp do), using core/ps_compare. */
#include "config.h"
#include "ps_cli.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <netcdf.h>
#include <string.h>

static void compare_usage(FILE *f)
{
    fprintf(f,
            "Usage: pstencil compare A.nc B.nc [--var NAME] [--abs TOL] [--rel TOL] [--ulps N]\n\n"
            "Compare the temperature variables of two files cell by cell over every time\n"
            "record: differing cells, NaN-mask (land) mismatches, the largest absolute,\n"
            "relative and ulp differences and where they occur (t, k, j, i).\n"
            "Each file is read in its own precision (float64 if its variable is double,\n"
            "else float32); ulps are counted in float32 unless both are float64.\n\n"
            "A differing cell is within tolerance if any given tolerance accepts it:\n"
            "  --abs TOL    |a-b| <= TOL\n"
            "  --rel TOL    |a-b| <= TOL * max(|a|,|b|)\n"
            "  --ulps N     at most N units in the last place apart\n"
            "A NaN-mask mismatch is never within tolerance.\n\n"
            "Other options:\n"
            "  --var NAME   the variable (default: found by CF rules in each file)\n"
            "  -q, --quiet  print only the verdict line\n"
            "  -h, --help   this help\n\n"
            "Exit status: 0 identical or within tolerance, 1 different (including different\n"
            "shapes), 2 trouble (unreadable file, bad option).\n");
}

static ps_precision file_precision(const ps_dataset *ds)
{
    return ds->var_nc_type == NC_DOUBLE ? PS_FLOAT64 : PS_FLOAT32;
}

int ps_cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"var", required_argument, NULL, 'v'},  {"abs", required_argument, NULL, 'a'},
        {"rel", required_argument, NULL, 'r'},  {"ulps", required_argument, NULL, 'u'},
        {"quiet", no_argument, NULL, 'q'},      {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *var = NULL;
    ps_compare_tol tol = {0, 0, 0};
    ps_compare_stats st;
    ps_dataset a, b;
    ps_field fa, fb;
    int c, rc = PS_EXIT_USAGE, s, quiet = 0;
    long ul;
    size_t t;

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.ncid = b.ncid = -1;
    memset(&fa, 0, sizeof fa);
    memset(&fb, 0, sizeof fb);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hq", opts, NULL)) != -1) {
        switch (c) {
        case 'v': var = optarg; break;
        case 'a':
            if (ps_cli_parse_double("--abs", optarg, &tol.abs))
                return PS_EXIT_USAGE;
            if (tol.abs < 0)
                return ps_cli_error("--abs: %s is negative", optarg);
            break;
        case 'r':
            if (ps_cli_parse_double("--rel", optarg, &tol.rel))
                return PS_EXIT_USAGE;
            if (tol.rel < 0)
                return ps_cli_error("--rel: %s is negative", optarg);
            break;
        case 'u':
            if (ps_cli_parse_long("--ulps", optarg, 0, LONG_MAX, &ul))
                return PS_EXIT_USAGE;
            tol.ulps = (uint64_t)ul;
            break;
        case 'q': quiet = 1; break;
        case 'h': compare_usage(stdout); return PS_EXIT_OK;
        case ':': return ps_cli_error("option %s needs a value", argv[optind - 1]);
        default:
            return ps_cli_error("unknown option '%s' (see 'pstencil compare --help')",
                                argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return ps_cli_error("compare needs two files: pstencil compare A.nc B.nc (see --help)");
    if ((s = ps_dataset_open(&a, argv[optind], var)))
        return ps_cli_status_error(s, "compare");
    if ((s = ps_dataset_open(&b, argv[optind + 1], var))) {
        rc = ps_cli_status_error(s, "compare");
        goto done;
    }
    /* bad coordinates are refused at open, as by every command; all-land records compare */
    if (a.grid.nz != b.grid.nz || a.grid.ny != b.grid.ny || a.grid.nx != b.grid.nx ||
        a.ntime != b.ntime) {
        printf("shapes differ: %s is %zu x %zu x %zu x %zu, %s is %zu x %zu x %zu x %zu "
               "(time, depth, lat, lon)\nverdict: DIFFERENT\n",
               a.path, a.ntime, a.grid.nz, a.grid.ny, a.grid.nx, b.path, b.ntime, b.grid.nz,
               b.grid.ny, b.grid.nx);
        rc = PS_EXIT_DIFFER;
        goto done;
    }
    ps_compare_init(&st, &tol);
    for (t = 0; t < a.ntime; t++) {
        if ((s = ps_dataset_read(&a, t, file_precision(&a), &fa)) ||
            (s = ps_dataset_read(&b, t, file_precision(&b), &fb))) {
            rc = ps_cli_status_error(s, "compare");
            goto done;
        }
        st.time = t;
        if ((s = ps_compare_fields(&fa, &fb, &st))) {
            rc = ps_cli_status_error(s, "compare");
            goto done;
        }
        ps_field_free(&fa);
        ps_field_free(&fb);
    }
    if (!quiet) {
        printf("A: %s (variable %s, %s)\nB: %s (variable %s, %s)\n", a.path, a.var_name,
               ps_precision_name(file_precision(&a)), b.path, b.var_name,
               ps_precision_name(file_precision(&b)));
        printf("shape: %zu x %zu x %zu x %zu (time, depth, lat, lon)\n", a.ntime, a.grid.nz,
               a.grid.ny, a.grid.nx);
        {
            int ax;
            for (ax = 1; ax < 4; ax++) {
                size_t i, n = a.axes[ax].len, bad = 0;
                for (i = 0; i < n; i++)
                    if (a.axes[ax].values[i] != b.axes[ax].values[i])
                        bad++;
                if (bad)
                    printf("note: coordinate %s differs at %zu of %zu points\n",
                           a.axes[ax].dim_name, bad, n);
            }
        }
        ps_compare_print(stdout, &st, "");
    } else {
        printf("%s\n", ps_compare_identical(&st)
                           ? "identical"
                           : ps_compare_within(&st) ? "within tolerance" : "DIFFERENT");
    }
    rc = ps_compare_within(&st) ? PS_EXIT_OK : PS_EXIT_DIFFER;
done:
    ps_field_free(&fa);
    ps_field_free(&fb);
    ps_dataset_close(&a);
    ps_dataset_close(&b);
    return rc;
}
