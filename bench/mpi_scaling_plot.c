/*
 * mpi_scaling_plot: the figure of bench/mpi-scaling.sh from its CSV
 * (kind,ranks,decomp,cells,total_s,step_s,exchange_s,read_s,write_s): left,
 * the strong-scaling speedup and the weak-scaling efficiency of the step loop
 * (stepping + exchange) against the ideal; right, the fraction of the loop in
 * halo exchange and of the whole run in I/O. PLplot (pngcairo), written
 * through core/ps_outfile.h.
 *
 * Usage: mpi_scaling_plot IN.csv OUT.png
 */
#include "config.h"
#include "ps_outfile.h"

#include <plplot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXR 64

typedef struct row {
    char kind[16];
    double p, cells, total, step, exch, rd, wr;
} row;

static int load(const char *path, row *r, int max)
{
    FILE *f = fopen(path, "r");
    char line[512], dec[64];
    int n = 0;
    if (!f)
        return -1;
    while (n < max && fgets(line, sizeof line, f)) {
        row x;
        if (sscanf(line, "%15[^,],%lf,%63[^,],%lf,%lf,%lf,%lf,%lf,%lf", x.kind, &x.p, dec,
                   &x.cells, &x.total, &x.step, &x.exch, &x.rd, &x.wr) == 9)
            r[n++] = x;
    }
    fclose(f);
    return n;
}

/* Series of @p kind: x = ranks, y per @p what (0 speedup/efficiency, 1 exchange %, 2 I/O %). */
static int series(const row *r, int n, const char *kind, int what, PLFLT *x, PLFLT *y)
{
    double base = -1;
    int i, m = 0;
    for (i = 0; i < n; i++)
        if (!strcmp(r[i].kind, kind) && r[i].p == 1)
            base = r[i].step + r[i].exch;
    for (i = 0; i < n; i++) {
        double loop = r[i].step + r[i].exch;
        if (strcmp(r[i].kind, kind))
            continue;
        x[m] = r[i].p;
        if (what == 0)
            y[m] = base > 0 && loop > 0 ? base / loop : 0; /* speedup, or efficiency */
        else if (what == 1)
            y[m] = loop > 0 ? 100.0 * r[i].exch / loop : 0;
        else
            y[m] = r[i].total > 0 ? 100.0 * (r[i].rd + r[i].wr) / r[i].total : 0;
        m++;
    }
    return m;
}

int main(int argc, char **argv)
{
    row r[MAXR];
    PLFLT x[MAXR], y[MAXR], pmax = 1, ideal_x[2], ideal_y[2];
    ps_outfile of;
    int n, i, m;
    if (argc != 3) {
        fprintf(stderr, "usage: mpi_scaling_plot IN.csv OUT.png\n");
        return 2;
    }
    n = load(argv[1], r, MAXR);
    if (n <= 0) {
        fprintf(stderr, "mpi_scaling_plot: no rows in %s\n", argv[1]);
        return 2;
    }
    for (i = 0; i < n; i++)
        if (r[i].p > pmax)
            pmax = r[i].p;
    if (ps_outfile_begin(&of, argv[2], 1)) {
        fprintf(stderr, "mpi_scaling_plot: cannot write beside %s\n", argv[2]);
        return 2;
    }
    close(of.fd);
    of.fd = -1;
    plsdev("pngcairo");
    plsfnam(of.tmp);
    plspage(0, 0, 1100, 460, 0, 0);
    plscolbg(255, 255, 255);
    plscol0(15, 0, 0, 0); /* axes and text black on the white page */
    plssub(2, 1);
    plinit();
    /* left: speedup (strong) and efficiency (weak) of the step loop */
    pladv(1);
    plvsta();
    plwind(0.5, pmax + 0.5, 0, pmax + 0.5);
    plcol0(15);
    plbox("bcnst", 1, 0, "bcnstv", 1, 0);
    pllab("MPI ranks", "speedup / efficiency x P", "step loop: strong speedup, weak P x efficiency");
    ideal_x[0] = 1, ideal_x[1] = pmax, ideal_y[0] = 1, ideal_y[1] = pmax;
    pllsty(2);
    plcol0(15);
    plline(2, ideal_x, ideal_y);
    pllsty(1);
    m = series(r, n, "strong", 0, x, y);
    plcol0(1);
    plline(m, x, y);
    plstring(m, x, y, "#(728)");
    m = series(r, n, "weak", 0, x, y);
    for (i = 0; i < m; i++)
        y[i] *= x[i]; /* weak: P x efficiency, on the same ideal line */
    plcol0(9);
    plline(m, x, y);
    plstring(m, x, y, "#(727)");
    plcol0(15);
    plschr(0, 0.7);
    plmtex("t", -1.5, 0.03, 0.0, "red strong, blue weak, dashed ideal");
    plschr(0, 1.0);
    /* right: fractions */
    pladv(2);
    plvsta();
    plwind(0.5, pmax + 0.5, 0, 100);
    plcol0(15);
    plbox("bcnst", 1, 0, "bcnstv", 0, 0);
    pllab("MPI ranks", "percent", "halo exchange (% of loop), I/O (% of run)");
    m = series(r, n, "strong", 1, x, y);
    plcol0(1);
    plline(m, x, y);
    plstring(m, x, y, "#(728)");
    m = series(r, n, "weak", 1, x, y);
    plcol0(9);
    plline(m, x, y);
    plstring(m, x, y, "#(727)");
    pllsty(2);
    m = series(r, n, "strong", 2, x, y);
    plcol0(1);
    plline(m, x, y);
    m = series(r, n, "weak", 2, x, y);
    plcol0(9);
    plline(m, x, y);
    pllsty(1);
    plcol0(15);
    plschr(0, 0.7);
    plmtex("t", -1.5, 0.03, 0.0, "solid exchange, dashed I/O; red strong, blue weak");
    plschr(0, 1.0);
    plend();
    if (ps_outfile_publish(&of)) {
        fprintf(stderr, "mpi_scaling_plot: cannot publish %s\n", argv[2]);
        return 2;
    }
    printf("wrote %s\n", argv[2]);
    return 0;
}
