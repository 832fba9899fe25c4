/*
 * pstencil bench --memory | --decomp: the decomposition engine's experiments
 * (bench/ps_bench_decomp.c): memory footprint against grid size per backend,
 * and split and out-of-core timings on openmp.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_bench.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* one line per option; --opt VALUE and --opt=VALUE both work (getopt_long) */
enum {
    O_MEMORY = 256, O_DECOMP, O_BACKEND, O_SCALE, O_STEPS, O_REPEAT, O_THREADS, O_PRECISION,
    O_MAXMEM, O_CSV, O_PLOT
};
static const struct option decomp_options[] = {
    {"memory", no_argument, NULL, O_MEMORY},
    {"decomp", no_argument, NULL, O_DECOMP},
    {"backend", required_argument, NULL, O_BACKEND},
    {"scale", required_argument, NULL, O_SCALE},
    {"steps", required_argument, NULL, O_STEPS},
    {"repeat", required_argument, NULL, O_REPEAT},
    {"threads", required_argument, NULL, O_THREADS},
    {"precision", required_argument, NULL, O_PRECISION},
    {"max-device-memory", required_argument, NULL, O_MAXMEM},
    {"csv", required_argument, NULL, O_CSV},
    {"plot", required_argument, NULL, O_PLOT},
    {"force", no_argument, NULL, 'f'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: pstencil bench --memory [--backend LIST] [--scale N] [--steps S]\n"
            "                      [--max-device-memory SIZE] [--csv FILE] [--plot FILE.png]\n"
            "       pstencil bench --decomp [--backend NAME] [--scale X] [--steps S] [--repeat R]\n\n"
            "--memory: host peak RSS and device bytes held against cells, the built-in ocean\n"
            "  at scales 1..N (default 3) per backend (default reference,openmp), 2 steps;\n"
            "  runs over the device budget (--max-device-memory; default a GPU's memory as\n"
            "  reported less 1/8, none on a CPU device) go out of core and are marked.\n"
            "--decomp: openmp (default) on the built-in ocean (scale 1): ms/step, exchange\n"
            "  fraction and bytes/step for 1 box, 2x1x1 and 2, 4, 8 boxes with halos 1 and 4,\n"
            "  then out of core through a quarter of the grid against in core (20 steps,\n"
            "  median of 3).\n"
            "Common: --threads N, --precision float|double, -f/--force (replace an existing\n"
            "  --csv or --plot file; without it such a file is refused before anything runs).\n");
}

int ps_cmd_bench_decomp(int argc, char **argv)
{
    ps_bench_memory_options mo;
    ps_bench_decomp_options dop;
    const char *names[16];
    char *list = NULL;
    int memory = 0, decomp = 0, c, li = -1, st, n = 0;
    long v;
    double d;
    memset(&mo, 0, sizeof mo);
    memset(&dop, 0, sizeof dop);
    mo.max_scale = 3;
    mo.steps = 2;
    mo.precision = PS_FLOAT32;
    dop.backend = "openmp";
    dop.scale = 1;
    dop.steps = 20;
    dop.repeat = 3;
    dop.precision = PS_FLOAT32;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hf", decomp_options, &li)) != -1) {
        const char *val = optarg;
        if (c >= O_MEMORY && val && !*val) {
            free(list);
            return ps_cli_error("--%s needs a value", decomp_options[li].name);
        }
        switch (c) {
        case O_MEMORY:
            memory = 1;
            break;
        case O_DECOMP:
            decomp = 1;
            break;
        case 'h':
            usage(stdout);
            free(list);
            return PS_EXIT_OK;
        case 'f':
            mo.force = 1;
            break;
        case O_BACKEND: {
            char *save = NULL, *tok;
            free(list);
            list = strdup(val);
            n = 0;
            for (tok = strtok_r(list, ",", &save); tok && n < 16; tok = strtok_r(NULL, ",", &save))
                names[n++] = tok;
            dop.backend = n ? names[0] : dop.backend;
            break;
        }
        case O_SCALE:
            if (ps_cli_parse_double("--scale", val, &d) || !(d > 0 && d <= 16)) {
                free(list);
                return ps_cli_error("--scale: %s is out of range (0 < scale <= 16)", val);
            }
            mo.max_scale = (long)d < 1 ? 1 : (long)d;
            dop.scale = d;
            break;
        case O_STEPS:
            if (ps_cli_parse_long("--steps", val, 1, 100000, &v))
                return free(list), PS_EXIT_USAGE;
            mo.steps = dop.steps = v;
            break;
        case O_REPEAT:
            if (ps_cli_parse_long("--repeat", val, 1, 64, &v))
                return free(list), PS_EXIT_USAGE;
            dop.repeat = v;
            break;
        case O_THREADS:
            if (ps_cli_parse_long("--threads", val, 0, 1024, &v))
                return free(list), PS_EXIT_USAGE;
            mo.threads = dop.threads = (int)v;
            break;
        case O_PRECISION:
            if (ps_precision_parse(val, &mo.precision)) {
                free(list);
                return ps_cli_error("--precision: '%s' (float or double)", val);
            }
            dop.precision = mo.precision;
            break;
        case O_MAXMEM:
            if (ps_cli_parse_size("--max-device-memory", val, &mo.budget))
                return free(list), PS_EXIT_USAGE;
            break;
        case O_CSV:
            mo.csv = val;
            break;
        case O_PLOT:
            mo.plot = val;
            break;
        default:
            free(list);
            return ps_cli_getopt_error("bench", c, argv, decomp_options);
        }
    }
    if (optind < argc) {
        free(list);
        return ps_cli_error("bench --memory/--decomp: unexpected argument '%s'", argv[optind]);
    }
    if (memory == decomp) {
        free(list);
        return ps_cli_error("bench: --memory and --decomp are separate experiments: one at a time");
    }
    if (mo.csv && (st = ps_outfile_check(mo.csv, NULL, mo.force, "--csv")))
        return free(list), ps_cli_status_error(st, mo.csv);
    if (mo.plot && (st = ps_outfile_check(mo.plot, NULL, mo.force, "--plot")))
        return free(list), ps_cli_status_error(st, mo.plot);
    if (memory) {
        static const char *const def[] = {"reference", "openmp"};
        mo.backends = n ? names : def;
        mo.nbackends = n ? n : 2;
        st = ps_bench_memory(&mo, stdout);
    } else {
        st = ps_bench_decomp(&dop, stdout);
    }
    free(list);
    if (st)
        return ps_cli_status_error(st, memory ? "bench --memory" : "bench --decomp");
    return PS_EXIT_OK;
}
