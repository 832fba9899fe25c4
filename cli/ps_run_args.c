/*
 * The command line of `pstencil run`: a getopt_long table made from the job
 * layer's option table (every option of the job and of every stencil, with
 * the one-letter aliases stencil files declare) and the front end's own rows.
 */
#include "config.h"
#include "ps_run_args.h"
#include "ps_cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { F_PROFILE = 1000, F_PLOT, F_QUIET, F_NOPROGRESS, F_HELP, F_EXPLAIN, F_JOB };

/* the front end's own options, with the reason a run over ranks refuses one */
static const ps_job_option front_rows[] = {
    {.name = "profile", .takes_value = 1, .metavar = "FILE",
     .help = "write per-phase and per-step timings as JSON"},
    {.name = "plot", .takes_value = 1, .metavar = "DIR",
     .ranks_refusal = "the images need the whole field in one process: draw them from the "
                      "output with 'pstencil plot slice' or 'pstencil plot diff'",
     .help = "write before/after/difference slice images into DIR"},
    {.name = "quiet", .short_name = 'q', .metavar = "", .help = "no progress bar and no report"},
    {.name = "no-progress", .metavar = "",
     .help = "no progress bar (it is drawn only on a terminal anyway)"},
    {.name = "explain", .metavar = "",
     .help = "print every tuning knob the run used, its value and what decided it\n"
             "(option, tuning cache, environment or the built-in rule)"},
    {.name = "help", .short_name = 'h', .metavar = "", .help = "this help"},
};
#define NFRONT (int)(sizeof front_rows / sizeof front_rows[0])
static const int front_val[NFRONT] = {F_PROFILE, F_PLOT, F_QUIET, F_NOPROGRESS, F_EXPLAIN, F_HELP};

/* getopt's table and short-option string; row r < NFRONT is front_rows[r], the
 * others the job's options in table order */
static struct option *make_table(char *shorts, size_t len)
{
    int n = ps_job_option_count(), i, k = 0;
    size_t used = 1;
    struct option *t = calloc((size_t)(n + NFRONT + 1), sizeof *t);
    shorts[0] = ':';
    shorts[1] = '\0';
    if (!t)
        return NULL;
    for (i = 0; i < NFRONT; i++, k++) {
        t[k] = (struct option){front_rows[i].name,
                               front_rows[i].takes_value ? required_argument : no_argument,
                               NULL, front_val[i]};
        if (front_rows[i].short_name && used + 3 < len) {
            shorts[used++] = front_rows[i].short_name;
            shorts[used] = '\0';
        }
    }
    for (i = 0; i < n; i++, k++) {
        const ps_job_option *o = ps_job_option_at(i);
        t[k] = (struct option){o->name, o->takes_value ? required_argument : no_argument, NULL,
                               F_JOB + i};
        if (o->short_name && used + 3 < len) {
            shorts[used++] = o->short_name;
            if (o->takes_value)
                shorts[used++] = ':';
            shorts[used] = '\0';
        }
    }
    return t;
}

static int job_row(int c)
{
    int i;
    if (c >= F_JOB)
        return c - F_JOB;
    for (i = 0; i < ps_job_option_count(); i++)
        if (ps_job_option_at(i)->short_name == c)
            return i;
    return -1;
}

/* one option of the job table, as typed */
static int set_job(ps_job *j, ps_run_front *f, const ps_job_option *o, const char *v)
{
    const ps_job_option *canon = o->alias_of ? ps_job_option_find(o->alias_of) : o;
    if (f->ranks && canon->ranks_refusal)
        return ps_error(PS_EINVAL, "--%s is not supported in an MPI run: %s", canon->name,
                        canon->ranks_refusal);
    if (!strcmp(canon->name, "input")) {
        if (f->input)
            return ps_error(PS_EINVAL, "run: give the input once (positional or --data-file)");
        f->input = v;
    }
    if (!strcmp(canon->name, "output"))
        f->output = v;
    if (!strcmp(canon->name, "force"))
        f->force = 1;
    return ps_job_set(j, canon->name, v);
}

int ps_run_args_parse(int argc, char **argv, ps_job *j, ps_run_front *f)
{
    char shorts[128];
    struct option *t;
    int c, li, st = PS_OK;
    int ranks = f->ranks;
    memset(f, 0, sizeof *f);
    f->ranks = ranks;
    f->progress = 1;
    t = make_table(shorts, sizeof shorts);
    if (!t)
        return ps_error(PS_ENOMEM, "out of memory");
    optind = 1;
    opterr = 0;
    while (!st && (c = getopt_long(argc, argv, shorts, t, &li)) != -1) {
        int r = job_row(c);
        if (c == ':') {
            st = ps_error(PS_EINVAL, "run: option %s needs a value", argv[optind - 1]);
        } else if (c == '?') {
            st = ps_error(PS_EINVAL, "run: unknown option '%s' (see 'pstencil run --help')",
                          argv[optind - 1]);
        } else if (c == F_PROFILE || c == F_PLOT) {
            const ps_job_option *o = &front_rows[c == F_PLOT];
            if (f->ranks && o->ranks_refusal)
                st = ps_error(PS_EINVAL, "--%s is not supported in an MPI run: %s", o->name,
                              o->ranks_refusal);
            else if (c == F_PLOT)
                f->plot_dir = optarg;
            else
                f->profile = optarg;
        } else if (c == 'q' || c == F_QUIET) {
            f->quiet = 1;
            f->progress = 0;
        } else if (c == F_EXPLAIN) {
            f->explain = 1;
        } else if (c == F_NOPROGRESS) {
            f->progress = 0;
        } else if (c == 'h' || c == F_HELP) {
            f->help = 1;
            break;
        } else if (r >= 0) {
            st = set_job(j, f, ps_job_option_at(r), ps_job_option_at(r)->takes_value ? optarg
                                                                                     : NULL);
        } else {
            st = ps_error(PS_EINVAL, "run: unknown option '%s' (see 'pstencil run --help')",
                          argv[optind - 1]);
        }
    }
    free(t);
    if (st || f->help)
        return st;
    if (optind < argc) {
        if (f->input)
            return ps_error(PS_EINVAL, "run: give the input once (positional or --data-file)");
        f->input = argv[optind++];
        if ((st = ps_job_set(j, "input", f->input)))
            return st;
    }
    if (optind < argc)
        return ps_error(PS_EINVAL, "run: unexpected argument '%s'", argv[optind]);
    if (f->profile && f->output && !strcmp(f->profile, f->output))
        return ps_error(PS_EINVAL, "--profile and --output name the same file");
    return PS_OK;
}

/* one row of the usage: "  -n, --steps N           text" with continued lines indented */
static void usage_row(FILE *out, const ps_job_option *o)
{
    char head[64];
    const char *h = o->help, *nl;
    int w;
    if (o->short_name)
        w = snprintf(head, sizeof head, "  -%c, --%s%s%s", o->short_name, o->name,
                     o->takes_value ? " " : "", o->takes_value ? o->metavar : "");
    else
        w = snprintf(head, sizeof head, "      --%s%s%s", o->name, o->takes_value ? " " : "",
                     o->takes_value ? o->metavar : "");
    fprintf(out, "%s", head);
    if (w >= 26)
        fprintf(out, "\n%26s", "");
    else
        fprintf(out, "%*s", 26 - w, "");
    while ((nl = strchr(h, '\n'))) {
        fprintf(out, "%.*s\n%26s", (int)(nl - h), h, "");
        h = nl + 1;
    }
    fprintf(out, "%s\n", h);
}

/* Every registered stencil and its options, from the registry. */
static void usage_stencils(FILE *f)
{
    int i, o;
    fprintf(f, "Stencils (--stencil NAME; 'pstencil stencils' describes them) and their "
               "options:\n");
    for (i = 0; i < ps_stencil_count(); i++) {
        const ps_stencil *s = ps_stencil_at(i);
        fprintf(f, "  %s%s%s%s\n", s->name, i == 0 ? " (default)" : "",
                (s->flags & PS_STENCIL_TEST) ? " (test stencil)" : "",
                (s->flags & PS_STENCIL_COORDS) ? " (needs the input's coordinates)" : "");
        for (o = 0; o < s->noptions; o++) {
            const ps_stencil_option *op = &s->options[o];
            char def[64], alias[8] = "";
            if (isnan(op->def))
                snprintf(def, sizeof def, "auto");
            else
                snprintf(def, sizeof def, "%g", op->def);
            if (op->alias)
                snprintf(alias, sizeof alias, "-%c, ", op->alias);
            fprintf(f, "      --%-8s %-6s %s%s (default %s%s)\n", op->name,
                    strcmp(op->unit, "1") ? op->unit : "", alias, op->help, def,
                    op->allow_auto && !isnan(op->def) ? ", or auto" : "");
        }
    }
}

void ps_run_usage(FILE *out)
{
    int i;
    fprintf(out, "Usage: pstencil run [INPUT.nc] [OPTIONS]\n\n"
                 "Run a stencil (default: %s, %s) and write CF NetCDF.\n"
                 "With no INPUT it runs on the built-in ocean (see 'pstencil gen'); with no -o\n"
                 "it writes output/predicted_temperatures_<backend>.nc, replacing it.\n\n",
            ps_stencil_default()->name, ps_stencil_default()->description);
    for (i = 0; i < ps_job_option_count(); i++) {
        const ps_job_option *o = ps_job_option_at(i);
        if (o->stencil && strcmp(o->name, "dt"))
            continue; /* listed with their stencils below */
        if (o->alias_of) {
            if (o->help) /* an alias worth naming */
                fprintf(out, "      --%-18s alias of --%s\n", o->name, o->alias_of);
            continue;
        }
        usage_row(out, o);
    }
    for (i = 0; i < NFRONT; i++)
        usage_row(out, &front_rows[i]);
    fputc('\n', out);
    usage_stencils(out);
#ifdef PS_HAVE_MPI
    fprintf(out, "\nUnder mpirun/mpiexec/srun, or with --decomp PKxPJxPI, run is the MPI run: one\n"
                 "box per rank (default split: the least halo surface), --halo G, parallel netCDF\n"
                 "output (docs/user-guide.md, MPI). Every option works there except:\n");
    for (i = 0; i < ps_job_option_count(); i++)
        if (ps_job_option_at(i)->ranks_refusal)
            fprintf(out, "  --%s: %s\n", ps_job_option_at(i)->name,
                    ps_job_option_at(i)->ranks_refusal);
    for (i = 0; i < NFRONT; i++)
        if (front_rows[i].ranks_refusal)
            fprintf(out, "  --%s: %s\n", front_rows[i].name, front_rows[i].ranks_refusal);
#endif
    fprintf(out, "\nA stencil that needs the input's coordinates reads its depth, latitude and\n"
                 "longitude coordinate variables (docs/user-guide.md).\n\n"
                 "Exit status: 0 ok, 2 usage or input error, full disk, or interrupted output race\n"
                 "(nothing is written), 3 an ocean cell became non-finite during the run (nothing\n"
                 "is written), 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (the records completed\n"
                 "are kept, marked pstencil_interrupted; none: nothing is written).\n");
}
