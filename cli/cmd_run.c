/*
 * pstencil run: read a CF NetCDF file (or generate the built-in ocean), run
 * a registered stencil (--stencil, default diffusion7) on the chosen backend,
 * write CF NetCDF snapshots, and report what ran, how fast, and a checksum of
 * the final field. Every option of every stencil in the registry
 * (core/ps_stencil.h) is accepted as --NAME VALUE; the chosen stencil's own
 * are used, another stencil's are an error naming it.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_run_options.h"
#include "ps_run_report.h"
#include "ps_run_restart.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PS_HAVE_PLPLOT
#include "ps_plot.h"
#endif

#define RUN_DEFAULT_STEPS 100
#define RUN_MAX_OPTS 64 /* stencil options given on one command line, and per stencil */

/* A stencil option as typed (--NAME VALUE), resolved once the stencil is known. */
typedef struct run_opt {
    const char *name;
    const char *value;
} run_opt;

typedef struct run_args {
    const char *input;
    const char *output;
    const char *var;
    const char *backend;
    const char *profile;
    const char *plot_dir;
    long steps;
    long time_index;
    long every;
    long compress;
    long device;
    long threads;
    const char *stencil_name;
    run_opt given[RUN_MAX_OPTS]; /* stencil options as typed, last one of a name wins */
    int ngiven;
    const ps_stencil *stencil;   /* resolved */
    double options[RUN_MAX_OPTS]; /* the stencil's option values (NaN = auto) */
    double dt;                   /* --dt of a stencil without its own: model s per step */
    int force;
    int allow_unstable;          /* --allow-unstable: run a coefficient outside its stable range */
    int keep_nonfinite;          /* --keep-nonfinite: report non-finite ocean input, keep it */
    const char *split;           /* --split PKxPJxPI or N (NULL: one box) */
    long halo;                   /* --halo: ghost layers between boxes (0: twice the radius) */
    const char *devices;         /* --devices LIST|all: boxes placed round-robin */
    const char *max_mem;         /* --max-device-memory SIZE|none (NULL: the device's) */
    int quiet;
    int progress;
    int block[3];
    ps_precision precision;
    ps_mode mode;
    const char *cont;            /* --continue FILE: an earlier run's output to go on from */
    int precision_given;         /* -p was typed (checked against the record) */
    int time_index_given;        /* --time-index was typed */
} run_args;

typedef struct run_state {
    ps_writer *writer;
    int progress;
    double last_draw;
    const unsigned char *land; /* 1 where the input is land (NaN), per cell */
    int keep_nonfinite;
    int blowup;                /* a snapshot had a non-finite ocean cell */
    long last_clean;           /* step of the last snapshot with every ocean cell finite */
    long snapshots;            /* snapshots appended */
    long completed;            /* of those, records after step 0 (what an interrupt keeps) */
    long last_step;            /* the step of the last of those */
    long expect_snapshots;     /* snapshots the run will write */
    int write_failed;          /* appending a snapshot failed */
    int write_errno;           /* errno right after that failure */
    int skip_initial;          /* --continue: the initial state is the last record of the
                                  file continued, not written again */
} run_state;

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
            char def[64];
            if (isnan(op->def))
                snprintf(def, sizeof def, "auto");
            else
                snprintf(def, sizeof def, "%g", op->def);
            fprintf(f, "      --%-8s %-6s %s (default %s%s)\n", op->name,
                    strcmp(op->unit, "1") ? op->unit : "", op->help, def,
                    op->allow_auto && !isnan(op->def) ? ", or auto" : "");
        }
    }
}

static void run_usage(FILE *f)
{
    fprintf(f,
        "Usage: pstencil run [INPUT.nc] [OPTIONS]\n\n"
        "Run a stencil (default: the ocean temperature diffusion model of docs/model.md) and\n"
        "write CF NetCDF. With no INPUT it runs on the built-in ocean (see 'pstencil gen').\n\n"
        "  -o, --output FILE       output file; an existing one is refused without --force\n"
        "                          (default output/predicted_temperatures_<backend>.nc,\n"
        "                          which is replaced: the default command can run again)\n"
        "  -n, --steps N           time steps (default %d); alias --num_timesteps\n"
        "      --data-file FILE    the input file (the course's option name)\n"
        "  -s, --stencil NAME      the stencil to run (default %s; see below)\n"
        "  -D, --coeff D           diffusion7's coefficient (alias of its option --coeff)\n"
        "  -p, --precision P       float (default) or double\n"
        "      --mode M            exact (default: bitwise equal to the reference) or fast\n"
        "  -b, --backend NAME      a backend of 'pstencil backends' or auto (default:\n"
        "                          $PSTENCIL_BACKEND, else auto)\n"
        "  -d, --device N          device index of the backend (see 'pstencil backends')\n"
        "  -t, --threads N         CPU threads (openmp; default OMP_NUM_THREADS)\n"
        "      --block X,Y[,Z]     GPU block / OpenCL work-group shape (alias --local-size)\n"
        "      --var NAME          the temperature variable (default: found by CF rules)\n"
        "      --time-index I      time record of the input to start from (default 0)\n"
        "      --continue FILE     go on from the last record of FILE, an earlier run's output:\n"
        "                          its stencil, parameters and precision, step count and time;\n"
        "                          the output starts with the first new step (so outputs joined\n"
        "                          with ncrcat have a monotonic time). Options that contradict\n"
        "                          the recorded ones are refused\n"
        "      --output-every K    write a snapshot every K steps (default: initial and final)\n"
        "      --dt SECONDS        model seconds per step: record n of the output is at the\n"
        "                          input record's time + steps * dt, in the input's time\n"
        "                          units and calendar. Default for a dimensionless stencil\n"
        "                          (diffusion7, smooth2): 1 s per step, so the output keeps\n"
        "                          the input's date; a stencil with its own --dt option\n"
        "                          (below, e.g. hdiff) takes it as its physical time step\n"
        "                          (seconds, or auto where allowed) and always has one\n"
        "      --compress N        netCDF-4 deflate level 1..9 (default 0: none)\n"
        "  -f, --force             overwrite an existing output file (and --profile, --plot files)\n"
        "      --allow-unstable    run diffusion7 with D outside 0..1 (not a convex combination:\n"
        "                          the field grows without bound)\n"
        "      --keep-nonfinite    report infinite ocean values in the input and keep them\n"
        "                          (default: refused)\n"
        "      --split SPEC        decompose the grid into boxes, one context each: PKxPJxPI\n"
        "                          (e.g. 2x1x1) or a box count N (split to minimise the halo\n"
        "                          surface); the result is bitwise the one-box result\n"
        "      --halo G            ghost layers between boxes (default: twice the stencil's\n"
        "                          radius; out of core: chosen from the budget); boxes\n"
        "                          exchange halos every G/radius steps\n"
        "      --devices LIST      devices of the backend the boxes go to, round-robin:\n"
        "                          comma-separated indices or 'all' (default: --device)\n"
        "      --max-device-memory SIZE  device memory budget per context (512M, 4G, none;\n"
        "                          default: a GPU's memory as reported less 1/8, none on a\n"
        "                          CPU device): a grid over it streams through in slabs\n"
        "                          (out of core), bitwise the in-core result\n"
        "      --profile FILE      write per-phase and per-step timings as JSON\n"
        "      --plot DIR          write before/after/difference slice images into DIR\n"
        "  -q, --quiet             no progress bar and no report\n"
        "      --no-progress       no progress bar (it is drawn only on a terminal anyway)\n"
        "  -h, --help              this help\n\n",
        RUN_DEFAULT_STEPS, ps_stencil_default()->name);
    usage_stencils(f);
#ifdef PS_HAVE_MPI
    fprintf(f, "\nUnder mpirun/mpiexec/srun, or with --decomp PKxPJxPI, run is the MPI run: one\n"
               "box per rank (default split: the least halo surface), --halo G, parallel netCDF\n"
               "output (docs/user-guide.md, MPI).\n");
#endif
    fprintf(f, "\nA stencil that needs the input's coordinates reads its depth, latitude and\n"
               "longitude coordinate variables (docs/user-guide.md).\n\n"
               "Exit status: 0 ok, 2 usage or input error, full disk, or interrupted output race\n"
               "(nothing is written), 3 an ocean cell became non-finite during the run (nothing\n"
               "is written), 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (nothing is written).\n");
}

static int parse_block(const char *opt, const char *s, int block[3])
{
    long v[3] = {0, 0, 0};
    int n = ps_cli_parse_long_list(opt, s, 1, v, 3), i;
    if (n < 0)
        return PS_EXIT_USAGE;
    for (i = 0; i < 3; i++) {
        if (v[i] > 1024)
            return ps_cli_error("%s: %ld is larger than any work-group dimension", opt, v[i]);
        block[i] = (int)v[i];
    }
    return 0;
}

enum {
    O_COMPRESS = PS_RUN_OPT_OWN, O_PROFILE, O_PLOT, O_BLOCK, O_STENCIL_OPT, O_UNSTABLE,
    O_SPLIT, O_DEVICES, O_CONTINUE, O_MAXMEM
};

/* run's own options; every stencil option (and --dt) is added at run time */
static const struct option run_fixed_opts[] = {
    PS_RUN_SHARED_OPTIONS,
    {"block", required_argument, NULL, O_BLOCK},
    {"local-size", required_argument, NULL, O_BLOCK},
    {"continue", required_argument, NULL, O_CONTINUE},
    {"compress", required_argument, NULL, O_COMPRESS},
    {"allow-unstable", no_argument, NULL, O_UNSTABLE},
    {"split", required_argument, NULL, O_SPLIT},
    {"devices", required_argument, NULL, O_DEVICES},
    {"max-device-memory", required_argument, NULL, O_MAXMEM},
    {"profile", required_argument, NULL, O_PROFILE},
    {"plot", required_argument, NULL, O_PLOT},
    {"help", no_argument, NULL, 'h'},
};
#define RUN_NFIXED (sizeof run_fixed_opts / sizeof run_fixed_opts[0])

static int table_has(const struct option *t, size_t n, const char *name)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return 1;
    return 0;
}

/*
 * The getopt table: run's own options, then each distinct option name of
 * every registered stencil, then --dt if no stencil has it. A stencil option
 * named like one of run's own would be shadowed: refused (a stencil-file bug).
 * Returns the table (caller frees) or NULL after printing the error.
 */
static struct option *build_table(void)
{
    size_t cap = RUN_NFIXED + 2, n = RUN_NFIXED;
    struct option *t;
    int i, o;
    for (i = 0; i < ps_stencil_count(); i++)
        cap += (size_t)ps_stencil_at(i)->noptions;
    t = calloc(cap, sizeof *t);
    if (!t) {
        ps_cli_error("out of memory");
        return NULL;
    }
    memcpy(t, run_fixed_opts, sizeof run_fixed_opts);
    for (i = 0; i < ps_stencil_count(); i++) {
        const ps_stencil *s = ps_stencil_at(i);
        for (o = 0; o < s->noptions; o++) {
            const char *name = s->options[o].name;
            if (table_has(t, RUN_NFIXED, name)) {
                ps_cli_error("stencil %s: its option --%s has the name of an option of "
                             "'pstencil run' (rename it in kernels/%s)", s->name, name,
                             s->kernel_file);
                free(t);
                return NULL;
            }
            if (!table_has(t, n, name))
                t[n++] = (struct option){name, required_argument, NULL, O_STENCIL_OPT};
        }
    }
    if (!table_has(t, n, "dt"))
        t[n++] = (struct option){"dt", required_argument, NULL, O_STENCIL_OPT};
    return t;
}

static int remember_option(run_args *a, const char *name, const char *value)
{
    int i;
    for (i = 0; i < a->ngiven; i++)
        if (!strcmp(a->given[i].name, name)) {
            a->given[i].value = value;
            return 0;
        }
    if (a->ngiven >= RUN_MAX_OPTS)
        return ps_cli_error("run: too many stencil options");
    a->given[a->ngiven].name = name;
    a->given[a->ngiven].value = value;
    a->ngiven++;
    return 0;
}

/* "diffusion7, hdiff and smooth2" (the registry's names) */
static void stencil_names(char *buf, size_t len)
{
    int i, n = ps_stencil_count();
    size_t used = 0;
    buf[0] = '\0';
    for (i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0 ? "" : i == n - 1 ? " and " : ", ",
                                 ps_stencil_at(i)->name);
}

/* The stencils other than @p s that have option @p name ("" if none). */
static void option_owners(const ps_stencil *s, const char *name, char *buf, size_t len)
{
    int i;
    size_t used = 0;
    buf[0] = '\0';
    for (i = 0; i < ps_stencil_count() && used < len; i++) {
        const ps_stencil *o = ps_stencil_at(i);
        if (o != s && ps_stencil_option_index(o, name) >= 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     o->name);
    }
}

/* The stencil, and the values of its options from what was typed. */
static int resolve_stencil(run_args *a)
{
    const ps_stencil *s;
    char buf[512];
    int g;
    if (a->stencil_name) {
        s = ps_stencil_find(a->stencil_name);
        if (!s) {
            stencil_names(buf, sizeof buf);
            return ps_cli_error("--stencil: unknown stencil '%s'; the stencils are %s (see "
                                "'pstencil stencils')", a->stencil_name, buf);
        }
    } else {
        s = ps_stencil_default();
    }
    if (s->noptions > RUN_MAX_OPTS)
        return ps_cli_error("stencil %s has more than %d options", s->name, RUN_MAX_OPTS);
    a->stencil = s;
    ps_stencil_default_options(s, a->options);
    for (g = 0; g < a->ngiven; g++) {
        const char *name = a->given[g].name, *v = a->given[g].value;
        char opt[128];
        int idx = ps_stencil_option_index(s, name);
        snprintf(opt, sizeof opt, "--%s", name);
        if (idx >= 0) {
            const ps_stencil_option *o = &s->options[idx];
            if (!strcmp(v, "auto")) {
                if (!o->allow_auto)
                    return ps_cli_error("%s: 'auto' is not a value of %s's option --%s (give "
                                        "a number%s%s)", opt, s->name, name,
                                        strcmp(o->unit, "1") ? " in " : "",
                                        strcmp(o->unit, "1") ? o->unit : "");
                a->options[idx] = PS_OPTION_AUTO;
            } else if (ps_cli_parse_double(opt, v, &a->options[idx])) {
                return PS_EXIT_USAGE;
            }
        } else if (!strcmp(name, "dt")) {
            /* run's own --dt: model seconds per step of a stencil without a time step */
            if (!strcmp(v, "auto"))
                return ps_cli_error("--dt auto: stencil %s has no time step of its own to "
                                    "choose; give model seconds per step", s->name);
            if (ps_cli_parse_double("--dt", v, &a->dt))
                return PS_EXIT_USAGE;
            if (a->dt <= 0)
                return ps_cli_error("--dt: must be positive (seconds per step)");
        } else {
            option_owners(s, name, buf, sizeof buf);
            return ps_cli_error("%s is an option of stencil %s, not of %s (choose the stencil "
                                "with --stencil; 'pstencil stencils' lists them)", opt, buf,
                                s->name);
        }
    }
    return 0;
}

/*
 * diffusion7's update T + D * (sum of neighbours - n T) is a convex combination
 * of the old values only for 0 <= D <= 1; outside it the field grows without
 * bound (D = 2 reaches 1e19 in a few hundred steps). Refused unless asked for.
 */
static int check_stability(const run_args *a)
{
    int idx = ps_stencil_option_index(a->stencil, "coeff");
    double d;
    if (strcmp(a->stencil->name, "diffusion7") || idx < 0 || a->allow_unstable)
        return 0;
    d = a->options[idx];
    if (isnan(d)) /* auto */
        return 0;
    if (!(d >= 0.0 && d <= 1.0)) {
        char num[32];
        return ps_cli_error("-D/--coeff %s: diffusion7 is stable only for 0 <= D <= 1 (its "
                            "update is then a convex combination of the old values); outside "
                            "that the temperatures grow without bound. Give "
                            "--allow-unstable to run it anyway",
                            ps_cli_num(d, num, sizeof num));
    }
    return 0;
}

static int parse_args(int argc, char **argv, run_args *a)
{
    struct option *opts;
    int c, li, rc = 0;
    memset(a, 0, sizeof *a);
    a->steps = RUN_DEFAULT_STEPS;
    a->device = -1;
    a->precision = PS_FLOAT32;
    a->mode = PS_MODE_EXACT;
    a->progress = 1;
    opts = build_table();
    if (!opts)
        return PS_EXIT_USAGE;
    optind = 1;
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, ":o:n:s:D:p:b:d:t:fqh", opts, &li)) != -1) {
        li = c == O_STENCIL_OPT ? li : -1;
        switch (c) {
        case 'o': a->output = optarg; break;
        case 'n':
            if (ps_cli_parse_long("--steps", optarg, 0, LONG_MAX / 2, &a->steps))
                rc = PS_EXIT_USAGE;
            break;
        case PS_RUN_OPT_DATAFILE: a->input = optarg; break;
        case 's': a->stencil_name = optarg; break;
        case 'D': rc = remember_option(a, "coeff", optarg); break;
        case O_STENCIL_OPT: rc = remember_option(a, opts[li].name, optarg); break;
        case 'p':
            if (ps_precision_parse(optarg, &a->precision))
                rc = ps_cli_error("--precision: %s", ps_error_detail());
            a->precision_given = 1;
            break;
        case PS_RUN_OPT_MODE:
            if (ps_mode_parse(optarg, &a->mode))
                rc = ps_cli_error("--mode: %s", ps_error_detail());
            break;
        case 'b': a->backend = optarg; break;
        case 'd':
            if (ps_cli_parse_long("--device", optarg, 0, 1023, &a->device))
                rc = PS_EXIT_USAGE;
            break;
        case 't':
            if (ps_cli_parse_long("--threads", optarg, 1, PS_THREADS_MAX, &a->threads))
                rc = PS_EXIT_USAGE;
            break;
        case O_BLOCK:
            if (parse_block("--block", optarg, a->block))
                rc = PS_EXIT_USAGE;
            break;
        case PS_RUN_OPT_VAR: a->var = optarg; break;
        case PS_RUN_OPT_TIME:
            if (ps_cli_parse_long("--time-index", optarg, 0, LONG_MAX, &a->time_index))
                rc = PS_EXIT_USAGE;
            a->time_index_given = 1;
            break;
        case O_CONTINUE: a->cont = optarg; break;
        case PS_RUN_OPT_EVERY:
            if (ps_cli_parse_long("--output-every", optarg, 0, LONG_MAX, &a->every))
                rc = PS_EXIT_USAGE;
            break;
        case O_COMPRESS:
            if (ps_cli_parse_long("--compress", optarg, 0, 9, &a->compress))
                rc = PS_EXIT_USAGE;
            break;
        case 'f': a->force = 1; break;
        case O_UNSTABLE: a->allow_unstable = 1; break;
        case PS_RUN_OPT_KEEPNF: a->keep_nonfinite = 1; break;
        case O_SPLIT: a->split = optarg; break;
        case PS_RUN_OPT_HALO:
            if (ps_cli_parse_long("--halo", optarg, 1, 1024, &a->halo))
                rc = PS_EXIT_USAGE; /* not return: the option table is freed below */
            break;
        case O_DEVICES: a->devices = optarg; break;
        case O_MAXMEM: a->max_mem = optarg; break;
        case O_PROFILE: a->profile = optarg; break;
        case O_PLOT: a->plot_dir = optarg; break;
        case 'q': a->quiet = 1; a->progress = 0; break;
        case PS_RUN_OPT_NOPROGRESS: a->progress = 0; break;
        case 'h': run_usage(stdout); rc = -1; break;
        case ':': rc = ps_cli_error("run: option %s needs a value", argv[optind - 1]); break;
        default:
            rc = ps_cli_error("run: unknown option '%s' (see 'pstencil run --help')",
                              argv[optind - 1]);
        }
    }
    free(opts);
    if (rc)
        return rc;
    if (optind < argc) {
        if (a->input)
            return ps_cli_error("run: give the input once (positional or --data-file)");
        a->input = argv[optind++];
    }
    if (optind < argc)
        return ps_cli_error("run: unexpected argument '%s'", argv[optind]);
    if (a->profile && a->output && !strcmp(a->profile, a->output))
        return ps_cli_error("--profile and --output name the same file");
    if (a->cont) {
        /* the stencil and its options come from the file: see continue_from() */
        if (a->input)
            return ps_cli_error("run: give either an input or --continue FILE, not both");
        if (a->steps == 0)
            return ps_cli_error("--continue: -n 0 would add no step to %s", a->cont);
        a->input = a->cont;
        return 0;
    }
    if ((rc = resolve_stencil(a)))
        return rc;
    return check_stability(a);
}

static void draw_progress(run_state *s, long done, long total, double elapsed)
{
    const int width = 30;
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    double eta = rate > 0 ? (double)(total - done) / rate : 0;
    int filled = total > 0 ? (int)((double)width * (double)done / (double)total) : width, i;
    char bar[64];
    for (i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld steps  %.1f steps/s  ETA %.1f s   ", bar, done, total, rate,
            eta);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static void on_progress(void *user, long done, long total, double elapsed)
{
    run_state *s = user;
    double now = ps_now();
    if (!s->progress)
        return;
    if (done != total && now - s->last_draw < 0.1)
        return;
    s->last_draw = now;
    draw_progress(s, done, total, elapsed);
}

static double field_at(const ps_field *f, size_t c)
{
    return f->precision == PS_FLOAT64 ? ((const double *)f->data)[c]
                                      : (double)((const float *)f->data)[c];
}

/*
 * Every ocean cell of a snapshot must still be finite: a NaN would be written as
 * the fill value and silently turn ocean into land, an infinity is no temperature.
 * Returns 0, or PS_ERANGE naming the first bad cell and the step.
 */
static int check_finite(run_state *s, long step, const ps_field *f)
{
    const ps_grid *g = &f->grid;
    size_t n = g->nx * g->ny * g->nz, c, bad = 0, first = 0;
    for (c = 0; c < n; c++) {
        double v = field_at(f, c);
        if (!isfinite(v) && !(s->land && s->land[c])) {
            if (!bad++)
                first = c;
        }
    }
    if (!bad) {
        s->last_clean = step;
        return 0;
    }
    if (s->keep_nonfinite) /* asked for: the input had such cells */
        return 0;
    s->blowup = 1;
    {
        char clean[96];
        if (s->last_clean >= 0)
            snprintf(clean, sizeof clean, "the last snapshot with every ocean cell finite was "
                                          "step %ld", s->last_clean);
        else
            snprintf(clean, sizeof clean, "no earlier snapshot was checked");
        return ps_error(PS_ERANGE,
                        "the run blew up: %zu ocean cell%s non-finite at step %ld (first at "
                        "level %zu, row %zu, column %zu: %g); %s. Nothing was written",
                        bad, bad == 1 ? " is" : "s are", step, first / (g->nx * g->ny),
                        first / g->nx % g->ny, first % g->nx, field_at(f, first), clean);
    }
}

static int on_snapshot(void *user, long step, const ps_field *f)
{
    run_state *s = user;
    int st = check_finite(s, step, f);
    if (st)
        return st;
    if (s->skip_initial && step == 0) /* already the last record of the file continued */
        return 0;
    errno = 0;
    st = ps_writer_append(s->writer, step, f);
    if (st) {
        s->write_failed = 1;
        s->write_errno = errno;
        return st;
    }
    s->snapshots++;
    if (step > 0) {
        /* from the first record past step 0 on, a first signal stops the run at its next
         * record and keeps these; before it, a signal stops at once, nothing kept */
        s->completed++;
        s->last_step = step;
        ps_signals_defer(1);
    }
    return st;
}

/* Stop at the next step call once a signal was recorded (ps_signals_defer()). */
static int on_cancel(void *user)
{
    (void)user;
    return ps_signal_pending() != 0;
}

/*
 * The run was stopped by signal @p sig after its snapshot callback had
 * appended s->completed records past step 0: those are published, marked
 * interrupted, and the exit is 128 + sig as for any signal. With none, the
 * temporary file is removed (by the caller) and nothing is written.
 */
static int keep_interrupted(run_state *s, const run_args *a, int sig)
{
    const char *name = ps_signal_name(sig);
    char why[160];
    int st;
    if (s->progress)
        fputc('\n', stderr);
    if (s->completed == 0) {
        ps_run_interrupted_say(sig, a->output, 0, 0, a->steps);
        return 128 + sig;
    }
    snprintf(why, sizeof why, "%s after step %ld of %ld", name, s->last_step, a->steps);
    st = ps_writer_mark_interrupted(s->writer, why);
    if (!st)
        st = ps_writer_commit(s->writer);
    if (st) {
        ps_cli_error("interrupted by %s, and the completed records could not be kept: %s",
                     name, ps_error_detail());
        return 128 + sig;
    }
    ps_run_interrupted_say(sig, a->output, ps_writer_records(s->writer), s->last_step, a->steps);
    return 128 + sig;
}

/*
 * The input must have ocean, and its ocean must be finite (NaN is land): the
 * check every command applies (ps_field_check_ocean()); an infinity is
 * refused, or with --keep-nonfinite reported and kept. Fills land[] (1 where
 * the input is land) for the checks after each snapshot.
 */
static int check_input(const run_args *a, const ps_dataset *ds, const ps_field *f,
                       unsigned char *land)
{
    const ps_grid *g = &f->grid;
    ps_ocean_count n;
    int st = ps_field_check_ocean(ds, (size_t)a->time_index, f, a->keep_nonfinite, land, &n);
    if (st == PS_ERANGE)
        return ps_cli_error("%s; refused (give --keep-nonfinite to keep them)",
                            ps_error_detail());
    if (st)
        return ps_cli_error("%s; there is nothing to run", ps_error_detail());
    if (n.inf && !a->quiet)
        ps_cli_warn("%s: %zu ocean cell%s infinite (first at level %zu, row %zu, column "
                    "%zu); kept as asked (--keep-nonfinite)",
                    a->input ? a->input : "built-in ocean", n.inf, n.inf == 1 ? " is" : "s are",
                    n.first_inf / (g->nx * g->ny), n.first_inf / g->nx % g->ny,
                    n.first_inf % g->nx);
    return 0;
}

/* A write that failed: on a full disk (or a file-size limit) say so, with how much
 * of the expected size was written; otherwise the writer's own message. */
static int write_error(const run_state *s, const ps_field *f, const char *out, int st, int e)
{
    const char *tmp = s->writer ? ps_writer_temp_path(s->writer) : "";
    struct stat sb;
    long long wrote = tmp[0] && stat(tmp, &sb) == 0 ? (long long)sb.st_size : -1;
    long long cell = f->precision == PS_FLOAT64 ? 8 : 4;
    long long want = (long long)(f->grid.nx * f->grid.ny * f->grid.nz) * cell *
                     (s->expect_snapshots > 0 ? s->expect_snapshots : 1);
    return ps_cli_write_error(st, out, e, wrote, want);
}

static long count_snapshots(const run_args *a)
{
    if (a->every > 0)
        return a->steps / a->every + 1 + (a->steps % a->every ? 1 : 0);
    return a->steps > 0 ? 2 : 1;
}

static int make_default_output(char *buf, size_t len, const char *backend)
{
    if (mkdir("output", 0777) && errno != EEXIST)
        return ps_cli_error("cannot create the output folder 'output': %s", strerror(errno));
    snprintf(buf, len, "output/predicted_temperatures_%s.nc", backend);
    return 0;
}

/* The typed value of stencil option @p name (NULL if not typed). */
static const char *typed(const run_args *a, const char *name)
{
    int g;
    for (g = 0; g < a->ngiven; g++)
        if (!strcmp(a->given[g].name, name))
            return a->given[g].value;
    return NULL;
}

/*
 * run --continue FILE: the stencil, its options, the precision and the seconds
 * per step are the ones FILE records; a value typed on the command line must
 * agree with them (a chain that changes them midway is not one run), and the
 * run starts from FILE's last record, whose step and time it goes on from.
 */
static int continue_from(run_args *a, const ps_dataset *ds)
{
    ps_run_record r;
    const ps_stencil *s;
    int i, rc;
    if (ps_run_record_read(ds, a->cont, &r))
        return ps_cli_error("--continue %s", ps_error_detail());
    if (a->stencil_name && strcmp(a->stencil_name, r.stencil->name))
        return ps_cli_error("--continue: --stencil %s contradicts %s, which ran stencil %s "
                            "(leave --stencil out)", a->stencil_name, a->cont, r.stencil->name);
    a->stencil_name = r.stencil->name;
    if ((rc = resolve_stencil(a)))
        return rc;
    s = a->stencil;
    for (i = 0; i < s->noptions; i++) {
        const char *v = typed(a, s->options[i].name);
        double rec = r.options[i], now = a->options[i];
        if (v && (isnan(rec) != isnan(now) || (!isnan(rec) && rec != now))) {
            char shown[32];
            int digits = 15;
            do /* the shortest decimal that reads back as the recorded value */
                snprintf(shown, sizeof shown, "%.*g", digits, rec);
            while (strtod(shown, NULL) != rec && ++digits <= 17);
            return ps_cli_error("--continue: --%s %s contradicts %s, which ran %s with --%s "
                                "%s (a continued run keeps the parameters: leave --%s out)",
                                s->options[i].name, v, a->cont, s->name, s->options[i].name,
                                isnan(rec) ? "auto" : shown, s->options[i].name);
        }
        a->options[i] = rec;
    }
    if (ps_stencil_option_index(s, "dt") < 0) {
        /* run's own --dt: the model seconds per step of a dimensionless stencil */
        if (a->dt > 0 && a->dt != r.seconds_per_step)
            return ps_cli_error("--continue: --dt %g contradicts %s, which took %.17g s per "
                                "step (leave --dt out)", a->dt, a->cont, r.seconds_per_step);
        a->dt = r.seconds_per_step == PS_WRITE_DEFAULT_DT ? 0 : r.seconds_per_step;
    }
    if (a->precision_given && a->precision != r.precision)
        return ps_cli_error("--continue: --precision %s contradicts %s, which ran in %s (leave "
                            "--precision out)", ps_precision_name(a->precision), a->cont,
                            ps_precision_name(r.precision));
    a->precision = r.precision;
    if (ds->ntime == 0)
        return ps_cli_error("--continue: %s has no time records", a->cont);
    if (a->time_index_given && (size_t)a->time_index != ds->ntime - 1)
        return ps_cli_error("--continue: --time-index %ld: a continued run starts from the "
                            "last record of %s (%zu); leave --time-index out", a->time_index,
                            a->cont, ds->ntime - 1);
    a->time_index = (long)(ds->ntime - 1);
    return check_stability(a);
}

/* The run's record in the output: the stencil, its options (an auto time step as
 * the value it resolved to), the precision and the model seconds per step. */
static int record_run(const run_args *a, ps_writer *w)
{
    double opts[RUN_MAX_OPTS];
    int i;
    for (i = 0; i < a->stencil->noptions; i++) {
        opts[i] = a->options[i];
        if (isnan(opts[i]) && !strcmp(a->stencil->options[i].name, "dt") && a->dt > 0)
            opts[i] = a->dt;
    }
    return ps_run_record_write(w, a->stencil, opts, a->precision,
                               a->dt > 0 ? a->dt : PS_WRITE_DEFAULT_DT);
}

/* --plot DIR: a directory (or one that can be made in an existing writable parent)
 * where the three images may be written, checked before the run. */
static int check_plot_dir(const run_args *a, const char *stem)
{
    static const char *const kinds[3] = {"before", "after", "diff"};
    struct stat sb;
    char path[4200];
    int i, st;
    if (stat(a->plot_dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode))
            return ps_cli_error("--plot %s: not a directory", a->plot_dir);
        if (access(a->plot_dir, W_OK | X_OK))
            return ps_cli_error("--plot %s: directory is not writable: %s", a->plot_dir,
                                strerror(errno));
        for (i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s_%s.png", a->plot_dir, stem, kinds[i]);
            if ((st = ps_outfile_check(path, a->input, a->force, "--plot image")))
                return ps_cli_status_error(st, path);
        }
        return 0;
    }
    /* the directory will be made: its parent must be writable */
    if ((st = ps_outfile_check(a->plot_dir, a->input, 0, "--plot directory")))
        return ps_cli_status_error(st, a->plot_dir);
    return 0;
}

int ps_cmd_run(int argc, char **argv)
{
    run_args a;
    ps_dataset ds;
    ps_field field, initial;
    ps_backend *b = NULL;
    ps_device_info devs[16];
    ps_config cfg;
    ps_run_options ro;
    ps_run_stats stats;
    ps_split_options so;
    int devlist[16], ndevlist = 0;
    ps_write_options wo;
    ps_grid_coords coords;
    ps_stencil_setup setup;
    ps_stencil_report srep;
    ps_params params;
    run_state rs;
    run_report rep;
    char outbuf[4096], why[4096], source[1024];
    int default_output = 0;
    unsigned char *land = NULL;
    const char *bname;
    int ndev = 0, st, rc = PS_EXIT_USAGE, dev;
    double t0 = ps_now(), t;

#ifdef PS_HAVE_MPI
    /* started by mpirun (or given --decomp): one box per rank (cli/cmd_run_mpi.c) */
    if (ps_cmd_run_mpi_wanted(argc, argv))
        return ps_cmd_run_mpi(argc, argv);
#endif
    memset(&ds, 0, sizeof ds);
    ds.ncid = -1;
    memset(&coords, 0, sizeof coords);
    memset(&srep, 0, sizeof srep);
    memset(&params, 0, sizeof params);
    memset(&field, 0, sizeof field);
    memset(&initial, 0, sizeof initial);
    memset(&stats, 0, sizeof stats);
    memset(&rs, 0, sizeof rs);
    memset(&rep, 0, sizeof rep);

    st = parse_args(argc, argv, &a);
    if (st < 0)
        return PS_EXIT_OK;
    if (st)
        return st;
    rs.progress = a.progress && ps_cli_isatty();
    rs.last_clean = -1;
    rs.keep_nonfinite = a.keep_nonfinite;
    rs.expect_snapshots = count_snapshots(&a) - (a.cont ? 1 : 0);
    rs.skip_initial = a.cont != NULL;

    /* 0. every file the run writes is checked before anything runs */
    if (a.profile) {
        st = ps_outfile_check(a.profile, a.input, a.force, "--profile");
        if (!st && a.output)
            st = ps_outfile_check(a.profile, a.output, 1, "--profile");
        if (st)
            return ps_cli_status_error(st, a.profile);
    }
    if (a.output) {
        st = ps_outfile_check(a.output, a.input, a.force, "output");
        if (st)
            return ps_cli_status_error(st, a.output);
    }

    /* 1. the input */
    t = ps_now();
    if (a.input) {
        st = ps_dataset_open(&ds, a.input, a.var);
        if (st) {
            rc = ps_cli_status_error(st, a.input);
            goto done;
        }
        if (a.cont && (rc = continue_from(&a, &ds)))
            goto done;
        if ((size_t)a.time_index >= ds.ntime) {
            rc = ps_cli_error("--time-index %ld is out of range: %s has %zu time record%s "
                              "(0..%zu)", a.time_index, a.input, ds.ntime,
                              ds.ntime == 1 ? "" : "s", ds.ntime - 1);
            goto done;
        }
        /* the output's time axis continues the input's: refused now, not after the run */
        if ((st = ps_dataset_check_time(&ds, (size_t)a.time_index))) {
            rc = ps_cli_status_error(st, a.input);
            goto done;
        }
        /* the field, the backend's two buffers and (with --plot) a copy of the
         * initial state must fit: refuse before allocating anything */
        st = ps_dataset_check_memory(&ds, a.precision, a.plot_dir ? 4 : 3);
        if (!st)
            st = ps_dataset_read(&ds, (size_t)a.time_index, a.precision, &field);
        if (st) {
            rc = ps_cli_status_error(st, a.input);
            goto done;
        }
    } else {
        ps_ocean_options oo;
        ps_field f32;
        ps_ocean_defaults(&oo);
        if ((size_t)a.time_index >= oo.ntime) {
            rc = ps_cli_error("--time-index %ld is out of range: the built-in ocean has %zu "
                              "time records (0..%zu)", a.time_index, oo.ntime, oo.ntime - 1);
            goto done;
        }
        st = ps_ocean_generate(&oo, (size_t)a.time_index, &ds, &f32);
        if (st) {
            rc = ps_cli_status_error(st, "built-in ocean");
            goto done;
        }
        if (a.precision == PS_FLOAT32) {
            field = f32;
        } else {
            st = ps_field_alloc(&field, f32.grid, a.precision);
            if (!st)
                st = ps_field_convert(&field, &f32);
            ps_field_free(&f32);
            if (st) {
                rc = ps_cli_status_error(st, "built-in ocean");
                goto done;
            }
        }
    }
    rep.read_s = ps_now() - t;
    land = malloc(field.grid.nx * field.grid.ny * field.grid.nz + 1);
    if (!land) {
        rc = ps_cli_error("out of memory (land mask of %zu cells)",
                          field.grid.nx * field.grid.ny * field.grid.nz);
        goto done;
    }
    if ((rc = check_input(&a, &ds, &field, land)))
        goto done;
    rs.land = land;
    rc = PS_EXIT_USAGE;

    /* 2. the stencil's parameters, before anything is written: a bad option, missing
     * coordinates or an unstable time step is a usage error with no output */
    if (a.stencil->flags & PS_STENCIL_COORDS) {
        st = ps_dataset_coords(&ds, &coords);
        if (st) {
            rc = ps_cli_error("stencil %s needs the grid's coordinates: %s", a.stencil->name,
                              ps_error_detail());
            goto done;
        }
    }
    memset(&setup, 0, sizeof setup);
    setup.grid = field.grid;
    setup.depth = coords.depth;
    setup.lat = coords.lat;
    setup.lon = coords.lon;
    setup.options = a.options;
    st = ps_stencil_prepare(a.stencil, &setup, &params, &srep);
    if (st) {
        rc = ps_cli_error("%s", ps_error_detail());
        goto done;
    }
    if (srep.seconds_per_step > 0)
        a.dt = srep.seconds_per_step;
    if (srep.note[0] && !a.quiet)
        fprintf(stderr, "pstencil: %s\n", srep.note);

    /* 3. the backend: asked for by name it must run, or it is an error */
    bname = a.backend ? a.backend : getenv("PSTENCIL_BACKEND");
    if (!bname || !*bname)
        bname = "auto";
    if (!strcmp(bname, "auto")) {
        st = ps_backend_open_auto(&b, why, sizeof why);
        if (st) {
            rc = ps_cli_error("no backend can run: %s", ps_error_detail());
            goto done;
        }
        if (!a.quiet)
            fprintf(stderr, "pstencil: %s\n", why);
    } else {
        st = ps_backend_open(bname, &b);
        if (st) {
            rc = ps_cli_status_error(st, "--backend");
            goto done;
        }
    }
    st = ps_backend_probe(b, devs, 16, &ndev);
    if (st) {
        rc = ps_cli_error("backend '%s' cannot run: %s", ps_backend_name(b), ps_error_detail());
        goto done;
    }
    /* a device runtime may have set its own signal handlers while loading: ours
     * must remove the temporary files */
    ps_signals_install("pstencil");
    dev = a.device < 0 ? 0 : (int)a.device;
    if (dev >= ndev) {
        rc = ps_cli_error("--device %d: backend '%s' has %d device%s (0..%d)", dev,
                          ps_backend_name(b), ndev, ndev == 1 ? "" : "s", ndev - 1);
        goto done;
    }

    /* the decomposition: parsed against the grid before any output exists */
    memset(&so, 0, sizeof so);
    if (a.split) {
        st = ps_decomp_parse_split(a.split, field.grid, so.split);
        if (!st) {
            ps_decomp probe;
            st = ps_decomp_create(&probe, field.grid, so.split,
                                  a.halo ? (unsigned)a.halo : 2u * (unsigned)a.stencil->radius);
            ps_decomp_free(&probe);
        }
        if (st) {
            rc = ps_cli_error("--split: %s", ps_error_detail());
            goto done;
        }
    }
    if (a.halo && (unsigned)a.halo < (unsigned)a.stencil->radius) {
        rc = ps_cli_error("--halo %ld: stencil %s needs at least its radius %d", a.halo,
                          a.stencil->name, a.stencil->radius);
        goto done;
    }
    so.halo = (unsigned)a.halo;
    if (a.devices) {
        int q;
        if (!strcmp(a.devices, "all")) {
            for (q = 0; q < ndev && q < 16; q++)
                devlist[q] = q;
            ndevlist = q;
        } else {
            long v[16];
            ndevlist = ps_cli_parse_long_list("--devices", a.devices, 0, v, 16);
            if (ndevlist < 1) {
                rc = PS_EXIT_USAGE;
                goto done;
            }
            for (q = 0; q < ndevlist; q++) {
                if (v[q] >= ndev) {
                    rc = ps_cli_error("--devices: backend '%s' has no device %ld (0..%d)",
                                      ps_backend_name(b), v[q], ndev - 1);
                    goto done;
                }
                devlist[q] = (int)v[q];
            }
        }
        so.devices = devlist;
        so.ndevices = ndevlist;
    }
    /* the device memory budget: given, or the device's memory less a margin */
    if (a.max_mem) {
        if (ps_cli_parse_size("--max-device-memory", a.max_mem, &so.max_device_bytes))
            goto done;
    } else if (devs[dev].memory_bytes && strcmp(devs[dev].type, "cpu")) {
        /* a CPU device's memory is the host's: streaming it would not help */
        so.max_device_bytes = devs[dev].memory_bytes - devs[dev].memory_bytes / 8;
    }
    if (so.max_device_bytes) {
        /* a budget no slab fits is a usage error, named before any output exists */
        ps_ooc_plan plan;
        st = ps_ooc_plan_auto(field.grid, a.precision, a.stencil->radius, (unsigned)a.halo, 0,
                              so.max_device_bytes, &plan);
        if (st) {
            rc = ps_cli_error("--max-device-memory%s%s: %s", a.max_mem ? " " : "",
                              a.max_mem ? a.max_mem : " (default)", ps_error_detail());
            goto done;
        }
        if (a.split && (so.split[0] * so.split[1] * so.split[2] > 1)) {
            /* split boxes are not streamed: each must fit */
            ps_decomp probe;
            int q;
            st = ps_decomp_create(&probe, field.grid, so.split,
                                  a.halo ? (unsigned)a.halo : 2u * (unsigned)a.stencil->radius);
            for (q = 0; !st && q < probe.nboxes; q++) {
                uint64_t need = ps_ooc_footprint(probe.boxes[q].box.extent, a.precision);
                if (need > so.max_device_bytes) {
                    rc = ps_cli_error("--split %s: box %d needs about %llu bytes of device "
                                      "memory, over --max-device-memory %s (split boxes are "
                                      "not streamed out of core: use more boxes)", a.split, q,
                                      (unsigned long long)need, a.max_mem ? a.max_mem
                                                                          : "(default)");
                    st = PS_EINVAL;
                }
            }
            ps_decomp_free(&probe);
            if (st)
                goto done;
        }
    }

    /* 4. the output, opened before running so a bad path fails at once */
    if (!a.output) {
        /* the default output is replaced, so README's command runs twice */
        if (make_default_output(outbuf, sizeof outbuf, ps_backend_name(b)))
            goto done;
        a.output = outbuf;
        default_output = 1; /* replaced, so README's command runs twice */
        st = ps_outfile_check(a.output, a.input, 1, "output");
        if (st) {
            rc = ps_cli_status_error(st, a.output);
            goto done;
        }
    }
    if (a.plot_dir && (rc = check_plot_dir(&a, ps_backend_name(b))))
        goto done;
    rc = PS_EXIT_USAGE;
    snprintf(source, sizeof source, "pstencil %s, backend %s, device %s, %s, %s mode",
             PACKAGE_VERSION, ps_backend_name(b), devs[dev].name, ps_precision_name(a.precision),
             ps_mode_name(a.mode));
    memset(&wo, 0, sizeof wo);
    wo.path = a.output;
    wo.force = a.force || default_output;
    wo.compress = (int)a.compress;
    wo.dt = a.dt; /* 0: PS_WRITE_DEFAULT_DT */
    wo.time_index = a.time_index;
    wo.last_step = a.steps; /* the time axis is checked up to it before the run */
    wo.history = ps_cli_cmdline;
    wo.source = source;
    wo.precision = a.precision;
    st = ps_writer_open(&rs.writer, &ds, &wo);
    if (!st)
        st = record_run(&a, rs.writer);
    if (st) {
        /* the input's time axis cannot be continued: the message names the input */
        rc = ps_cli_status_error(st, a.input && strstr(ps_error_detail(), a.input) ? a.input
                                                                                  : a.output);
        goto done;
    }
    if (a.plot_dir) {
        st = ps_field_alloc(&initial, field.grid, field.precision);
        if (!st)
            st = ps_field_convert(&initial, &field);
        if (st) {
            rc = ps_cli_status_error(st, "--plot");
            goto done;
        }
    }

    /* 5. run */
    ps_config_init(&cfg, field.grid, a.precision);
    cfg.mode = a.mode;
    cfg.stencil = a.stencil;
    cfg.params = params;
    cfg.device = (int)a.device;
    cfg.threads = (int)a.threads;
    memcpy(cfg.block, a.block, sizeof cfg.block);
    cfg.profile = a.profile != NULL;
    memset(&ro, 0, sizeof ro);
    ro.steps = a.steps;
    ro.every = a.every;
    ro.snapshot = on_snapshot;
    ro.progress = rs.progress ? on_progress : NULL;
    ro.cancel = on_cancel;
    ro.user = &rs;
    st = ps_run_split(b, &cfg, &field, &ro, &so, &stats);
    ps_signals_defer(0);
    if (st == PS_ECANCELED && ps_signal_pending()) {
        rc = keep_interrupted(&rs, &a, ps_signal_pending());
        goto done;
    }
    if (st) {
        if (rs.progress)
            fputc('\n', stderr);
        if (rs.blowup) {
            ps_cli_error("%s", ps_error_detail());
            rc = PS_EXIT_BLOWUP;
        } else if (rs.write_failed)
            rc = write_error(&rs, &field, a.output, st, rs.write_errno);
        else
            rc = ps_cli_status_error(st, "run");
        goto done;
    }
    t = ps_now();
    errno = 0;
    st = ps_writer_commit(rs.writer);
    rep.commit_s = ps_now() - t;
    if (st) {
        /* the writer is aborted below: its temporary file is removed */
        rc = write_error(&rs, &field, a.output, st, errno);
        goto done;
    }
#ifdef PS_HAVE_PLPLOT
    if (a.plot_dir) {
        st = ps_plot_run_images(a.plot_dir, &ds, &initial, &field, ps_backend_name(b), a.force);
        if (st) {
            rc = ps_cli_status_error(st, "--plot");
            goto done;
        }
    }
#else
    if (a.plot_dir)
        ps_cli_warn("--plot ignored: pstencil was built without PLplot");
#endif

    /* 6. report */
    rep.backend = ps_backend_name(b);
    rep.backend_path = ps_backend_path(b);
    rep.backend_origin = ps_backend_origin(b);
    rep.device = &devs[dev];
    rep.input = a.input ? a.input : "built-in ocean";
    rep.output = a.output;
    rep.field = &field;
    rep.precision = a.precision;
    rep.mode = a.mode;
    rep.stencil = a.stencil;
    rep.options = a.options;
    rep.seconds_per_step = a.dt;
    rep.stable_limit = srep.stable_limit;
    rep.stats = &stats;
    rep.threads = (int)a.threads;
    rep.backend_flags = ps_backend_get_ops(b)->flags;
    rep.total_s = ps_now() - t0;
    if (!a.quiet)
        ps_run_report_print(stdout, &rep);
    if (a.profile) {
        st = ps_run_report_json(a.profile, &rep, a.force);
        if (st) {
            rc = ps_cli_status_error(st, a.profile);
            goto done;
        }
        if (!a.quiet)
            printf("  profile     : %s\n", a.profile);
    }
    rc = PS_EXIT_OK;
done:
    ps_writer_abort(rs.writer);
    free(land);
    free(stats.step_times);
    ps_field_free(&initial);
    ps_field_free(&field);
    ps_dataset_close(&ds);
    ps_grid_coords_free(&coords);
    ps_params_free(&params);
    ps_backend_close(b);
    return rc;
}
