/*
 * pstencil plot bench: the benchmark plots from a CSV written by
 * `pstencil bench --csv` (dispatched by `pstencil plot`), and the plot step
 * `pstencil bench --plot` shares with it.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_bench.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

int ps_cli_bench_plots_check(const char *dir, const char *format, int force)
{
    ps_bench_plot_options po = {.dir = dir, .format = format, .force = force};
    int st = ps_bench_plot_check(&po);
    return st ? ps_cli_error("%s", ps_error_detail()) : 0;
}

int ps_cli_bench_plots(ps_bench_row *rows, int n, const char *dir, const char *format,
                       int log_axes, const char *title, int force)
{
    ps_bench_plot_options po;
    char written[8][4096];
    int nw = 0, st, i;
    po.dir = dir;
    po.format = format;
    po.log_axes = log_axes;
    po.title = title;
    po.force = force;
    st = ps_bench_plot(rows, n, &po, written, 8, &nw);
    if (st)
        return ps_cli_status_error(st, "plots");
    for (i = 0; i < nw; i++)
        printf("wrote %s\n", written[i]);
    return 0;
}

/* pstencil plot bench FILE.csv [-o DIR] [--log] [--format png|svg] [--force] */
int ps_cmd_plot_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"log", no_argument, NULL, 'l'},
        {"format", required_argument, NULL, 'F'},
        {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *csv = NULL, *dir = ".", *format = "png";
    int log_axes = 0, n = 0, st, rc, c, force = 0;
    ps_bench_row *rows = NULL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:f", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            printf("Usage: pstencil plot bench FILE.csv [OPTIONS]\n\n"
                   "Draw the benchmark plots from a CSV written by 'pstencil bench --csv'.\n\n"
                   "Options:\n"
                   "  -o, --output DIR     directory for the plots (default: .)\n"
                   "      --format png|svg plot format (default png)\n"
                   "      --log            log axes for runtime vs steps\n"
                   "  -f, --force          replace plots that exist (default: refuse)\n"
                   "  -h, --help           this help\n");
            return PS_EXIT_OK;
        case 'o':
            dir = optarg;
            break;
        case 'l':
            log_axes = 1;
            break;
        case 'f':
            force = 1;
            break;
        case 'F':
            if (strcmp(optarg, "png") && strcmp(optarg, "svg"))
                return ps_cli_error("--format: '%s' is not png or svg", optarg);
            format = optarg;
            break;
        default:
            return ps_cli_getopt_error("plot bench", c, argv, opts);
        }
    }
    if (optind < argc)
        csv = argv[optind++];
    if (optind < argc)
        return ps_cli_error("plot bench: more than one CSV file given");
    if (!csv)
        return ps_cli_error("plot bench needs a CSV file (from 'pstencil bench --csv FILE')");
    if ((rc = ps_cli_bench_plots_check(dir, format, force)))
        return rc;
    st = ps_bench_csv_read(csv, &rows, &n);
    if (st)
        return ps_cli_status_error(st, csv);
    ps_bench_speedups(rows, n);
    rc = ps_cli_bench_plots(rows, n, dir, format, log_axes, rows[0].cpu_name, force);
    free(rows);
    return rc;
}
