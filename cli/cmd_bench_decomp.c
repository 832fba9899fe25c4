/*
 * pstencil bench --memory | --decomp: the decomposition engine's experiments
 * (bench/ps_bench_decomp.c): memory footprint against grid size per backend,
 * and split and out-of-core timings on openmp.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_bench.h"

#include <stdlib.h>
#include <string.h>

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
            "Common: --threads N, --precision float|double.\n");
}

int ps_cmd_bench_decomp(int argc, char **argv)
{
    ps_bench_memory_options mo;
    ps_bench_decomp_options dop;
    const char *names[16];
    char *list = NULL;
    int memory = 0, decomp = 0, i, st, n = 0;
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
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--memory")) {
            memory = 1;
            continue;
        }
        if (!strcmp(a, "--decomp")) {
            decomp = 1;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(list);
            return PS_EXIT_OK;
        }
        if (!val) {
            free(list);
            return ps_cli_error("bench: '%s' needs a value or is unknown (try 'pstencil bench "
                                "--memory --help')", a);
        }
        i++;
        if (!strcmp(a, "--backend")) {
            char *save = NULL, *tok;
            free(list);
            list = strdup(val);
            n = 0;
            for (tok = strtok_r(list, ",", &save); tok && n < 16; tok = strtok_r(NULL, ",", &save))
                names[n++] = tok;
            dop.backend = n ? names[0] : dop.backend;
        } else if (!strcmp(a, "--scale")) {
            if (ps_cli_parse_double("--scale", val, &d) || !(d > 0 && d <= 16)) {
                free(list);
                return ps_cli_error("--scale: %s is out of range (0 < scale <= 16)", val);
            }
            mo.max_scale = (long)d < 1 ? 1 : (long)d;
            dop.scale = d;
        } else if (!strcmp(a, "--steps")) {
            if (ps_cli_parse_long("--steps", val, 1, 100000, &v))
                return free(list), PS_EXIT_USAGE;
            mo.steps = dop.steps = v;
        } else if (!strcmp(a, "--repeat")) {
            if (ps_cli_parse_long("--repeat", val, 1, 64, &v))
                return free(list), PS_EXIT_USAGE;
            dop.repeat = v;
        } else if (!strcmp(a, "--threads")) {
            if (ps_cli_parse_long("--threads", val, 0, 1024, &v))
                return free(list), PS_EXIT_USAGE;
            mo.threads = dop.threads = (int)v;
        } else if (!strcmp(a, "--precision")) {
            if (ps_precision_parse(val, &mo.precision)) {
                free(list);
                return ps_cli_error("--precision: '%s' (float or double)", val);
            }
            dop.precision = mo.precision;
        } else if (!strcmp(a, "--max-device-memory")) {
            if (ps_cli_parse_size("--max-device-memory", val, &mo.budget))
                return free(list), PS_EXIT_USAGE;
        } else if (!strcmp(a, "--csv")) {
            mo.csv = val;
        } else if (!strcmp(a, "--plot")) {
            mo.plot = val;
        } else {
            free(list);
            return ps_cli_error("bench --memory/--decomp: unknown option '%s'", a);
        }
    }
    if (memory == decomp) {
        free(list);
        return ps_cli_error("bench: --memory and --decomp are separate experiments: one at a time");
    }
    if (mo.csv && (st = ps_outfile_check(mo.csv, NULL, 1, "--csv")))
        return free(list), ps_cli_status_error(st, mo.csv);
    if (mo.plot && (st = ps_outfile_check(mo.plot, NULL, 1, "--plot")))
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
