/*
 * pstencil plot bench: the benchmark plots from a CSV written by
 * `pstencil bench --csv` (dispatched by `pstencil plot`), and the plot step
 * `pstencil bench --plot` shares with it.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_bench.h"

#include <stdlib.h>
#include <string.h>

int ps_cli_bench_plots(ps_bench_row *rows, int n, const char *dir, const char *format,
                       int log_axes, const char *title)
{
    ps_bench_plot_options po;
    char written[8][4096];
    int nw = 0, st, i;
    po.dir = dir;
    po.format = format;
    po.log_axes = log_axes;
    po.title = title;
    st = ps_bench_plot(rows, n, &po, written, 8, &nw);
    if (st)
        return ps_cli_status_error(st, "plots");
    for (i = 0; i < nw; i++)
        printf("wrote %s\n", written[i]);
    return 0;
}

/* pstencil plot bench FILE.csv [-o DIR] [--log] [--format png|svg] */
int ps_cmd_plot_bench(int argc, char **argv)
{
    const char *csv = NULL, *dir = ".", *format = "png";
    int log_axes = 0, i, n = 0, st, rc;
    ps_bench_row *rows = NULL;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("Usage: pstencil plot bench FILE.csv [-o DIR] [--log] [--format png|svg]\n"
                   "Draw the benchmark plots from a CSV written by 'pstencil bench --csv'.\n");
            return PS_EXIT_OK;
        } else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
            if (++i >= argc)
                return ps_cli_error("%s needs a directory", argv[i - 1]);
            dir = argv[i];
        } else if (!strcmp(argv[i], "--log")) {
            log_axes = 1;
        } else if (!strcmp(argv[i], "--format")) {
            if (++i >= argc)
                return ps_cli_error("--format needs png or svg");
            if (strcmp(argv[i], "png") && strcmp(argv[i], "svg"))
                return ps_cli_error("--format: '%s' is not png or svg", argv[i]);
            format = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return ps_cli_error("plot bench: unknown option '%s'", argv[i]);
        } else if (!csv) {
            csv = argv[i];
        } else {
            return ps_cli_error("plot bench: more than one CSV file given");
        }
    }
    if (!csv)
        return ps_cli_error("plot bench needs a CSV file (from 'pstencil bench --csv FILE')");
    st = ps_bench_csv_read(csv, &rows, &n);
    if (st)
        return ps_cli_status_error(st, csv);
    ps_bench_speedups(rows, n);
    rc = ps_cli_bench_plots(rows, n, dir, format, log_axes, rows[0].cpu_name);
    free(rows);
    return rc;
}
