/* pstencil gen: write the built-in ocean as a CF NetCDF file. */
#include "config.h"
#include "ps_cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#define PS_GEN_DEFAULT "output/pstencil_ocean.nc"

static void gen_usage(FILE *f)
{
    fprintf(f,
            "Usage: pstencil gen [-o FILE.nc] [--scale S] [--seed N] [--force]\n\n"
            "Write the built-in ocean: a synthetic stand-in for the course's Copernicus file\n"
            "(time 5, depth 50, latitude 222, longitude 241; thetao float32, NaN land,\n"
            "British Isles at 1/12 degree, the GLO12 depth levels, CF attributes), and its\n"
            "currents uo and vo (a gyre, m s-1, float32, the same every record) for the\n"
            "stencils that take currents.\n"
            "The same options give a bitwise identical file on every platform.\n\n"
            "Options:\n"
            "  -o, --output FILE   output file (default " PS_GEN_DEFAULT ",\n"
            "                      creating output/ if needed)\n"
            "  --scale S           multiply the horizontal resolution by S (> 0): the grid\n"
            "                      is round(222*S) x round(241*S) over the same region\n"
            "  --seed N            noise seed (default 1)\n"
            "  --force             overwrite an existing output\n"
            "  -h, --help          this help\n");
}

int ps_cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"scale", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'S'},   {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    ps_ocean_options o;
    const char *out = NULL;
    int force = 0, c, st;
    long seed;
    ps_ocean_defaults(&o);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 's':
            if (ps_cli_parse_double("--scale", optarg, &o.scale))
                return PS_EXIT_USAGE;
            if (!(o.scale > 0) || o.scale > 1000)
                return ps_cli_error("--scale: %s is out of range (0 < S <= 1000)", optarg);
            break;
        case 'S':
            if (ps_cli_parse_long("--seed", optarg, 0, LONG_MAX, &seed))
                return PS_EXIT_USAGE;
            o.seed = (unsigned long)seed;
            break;
        case 'f': force = 1; break;
        case 'h': gen_usage(stdout); return PS_EXIT_OK;
        case ':': return ps_cli_error("option %s needs a value", argv[optind - 1]);
        default: return ps_cli_error("unknown option '%s' (see 'pstencil gen --help')", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return ps_cli_error("unexpected argument '%s' (see 'pstencil gen --help')", argv[optind]);
    if (!out) {
        out = PS_GEN_DEFAULT;
        if (mkdir("output", 0777) != 0 && errno != EEXIST)
            return ps_cli_error("cannot create directory output/: %s", strerror(errno));
    }
    {
        long long free_before = ps_outfile_free_bytes(out);
        errno = 0;
        st = ps_ocean_write(&o, out, force);
        if (st && st != PS_EEXIST && st != PS_EINVAL)
            /* the temporary file is gone: what was free is what was written */
            return ps_cli_write_error(st, out, errno, free_before, -1);
    }
    if (st)
        return ps_cli_status_error(st, "gen");
    printf("wrote %s (built-in ocean, seed %lu, scale %g)\n", out, o.seed, o.scale);
    return PS_EXIT_OK;
}
