/*
 * pstencil bench: the course's experiment (runtime vs number of steps, mean
 * and standard deviation over repeats) for every backend that can run here,
 * plus grid scaling on the built-in ocean, the whole-job time, throughput and
 * the fraction of a bandwidth bound the benchmark measures itself.
 *
 * Backends come from ps_backend_known(): any backend that is built and
 * probes a device is measured, without code changes here.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_bench.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LIST 16
#define MAX_BACKENDS 16
#define MAX_REPEAT 50
#define MAX_ROWS 1024

/* Reference backend cost per cell-step used to decide whether a reference
 * grid-scaling run is affordable (7.5 ns in cache, 13-20 ns beyond the L3 on
 * the 2-core build machine; the larger so slower machines skip, not stall). */
#define REF_NS_PER_CELL 20.0
#define REF_BUDGET_S 60.0

typedef struct bench_opts {
    char names[MAX_BACKENDS][32];
    int nnames;
    long steps[MAX_LIST];
    int nsteps;
    long repeat;
    double scales[MAX_LIST];
    int nscales;
    long grid_steps;
    const char *input;
    int precs[2];
    int nprecs;
    int quick, all, log_axes, force;
    const char *csv, *json, *plot, *format, *replot;
    long threads;
    long bound_mb;
    int roofline; /* --roofline: compute ceilings (bench/ps_roofline.c) */
    int stencils; /* --stencils: every stencil, generic and fast (bench/ps_bench_stencils.c) */
    ps_kernel kernel;
    ps_mode mode;
    int have_steps, have_scales;
} bench_opts;

typedef struct bench_backend {
    ps_backend *b;
    char name[32];
    ps_device_info dev;
    int is_cpu;
    unsigned flags; /* PS_BACKEND_* of its ops table */
} bench_backend;

typedef struct bench_samples {
    int n;
    double step_s[MAX_REPEAT];
    double job_s[MAX_REPEAT];
} bench_samples;

typedef struct bench_bound {
    size_t bytes;
    ps_stream_result r;
} bench_bound;

typedef struct bench_state {
    bench_opts o;
    ps_bench_machine m;
    bench_backend be[MAX_BACKENDS];
    int nbe;
    char skipped[MAX_BACKENDS * 2][600];
    int nskipped;
    char notes[64][300];
    int nnotes;
    char gpu_name[128];
    ps_bench_row rows[MAX_ROWS];
    bench_samples samples[MAX_ROWS];
    int nrows;
    bench_bound bounds[64];
    int nbounds;
    double dram_bytes;
    char tmpdir[4096];
    long units_done, units_total;
    double t_start;
    int tty;
} bench_state;

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: pstencil bench [OPTIONS]\n\n"
            "Benchmark every backend that can run here (or those named): step-count\n"
            "scaling (the course's experiment), grid scaling on the built-in ocean,\n"
            "throughput and the fraction of a bandwidth bound measured in the same run.\n\n"
            "Options:\n"
            "  --backend NAME       benchmark NAME (repeatable or comma-separated; default:\n"
            "                       every backend that is built and has a device)\n"
            "  --steps LIST         step counts (default 10,25,50,100)\n"
            "  --repeat N           fresh runs per configuration (default 3)\n"
            "  --scales LIST|none   built-in ocean scales for grid scaling (default 0.5,1,2,4)\n"
            "  --memory, --decomp   the decomposition experiments (see bench --memory --help)\n"
            "  --grid-steps N       steps per grid-scaling run (default 20)\n"
            "  --input FILE         step-count scaling on FILE instead of the built-in ocean\n"
            "  --precision P        float, double or both (default float)\n"
            "  --threads N          CPU threads for backends and the copy bound (default: OpenMP's)\n"
            "  --dram-mb N          MiB per array of the beyond-cache copy bound\n"
            "                       (default: the larger of 256 and 8 x the last-level cache)\n"
            "  --quick              built-in ocean 100 steps and a large grid (scale 4):\n"
            "                       ms/step, cells/s, speedup over reference, bound fraction\n"
            "  --roofline           also measure cache-resident sweeps of the exact update and\n"
            "                       print each CPU kernel as a fraction of them and of the copy\n"
            "                       bounds\n"
            "  --all                also run the reference backend where it would take long\n"
            "  --kernel K           generic, fast or auto (default): the backends' kernel;\n"
            "                       with fast, a backend without a fast path is skipped\n"
            "  --stencils           instead: every stencil on every backend, generic and fast\n"
            "                       path, on the built-in ocean at the first --scales (default\n"
            "                       1), the first --steps (default 50), interleaved repeats:\n"
            "                       median ms/step and Gcell/s, and the time against\n"
            "                       the first stencil's fast path on the same backend\n"
            "  --mode M             exact (default) or fast (with --stencils)\n"
            "  --csv FILE           write the results as CSV (course's columns first)\n"
            "  --json FILE          write everything (machine, bounds, samples) as JSON\n"
            "  --plot DIR           draw the plots into DIR (PLplot)\n"
            "  --format png|svg     plot format (default png)\n"
            "  --log                log axes for runtime vs steps\n"
            "  --replot FILE.csv    no runs: draw the plots of an earlier CSV (with --plot DIR;\n"
            "                       same as 'pstencil plot bench FILE.csv -o DIR')\n"
            "  -f, --force          replace CSV, JSON and plot files that exist (default:\n"
            "                       refuse before measuring anything)\n"
            "  -h, --help           this help\n");
}

static int add_names(bench_opts *o, const char *s)
{
    char buf[512], *save = NULL, *tok;
    snprintf(buf, sizeof buf, "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int i, dup = 0;
        if (o->nnames >= MAX_BACKENDS)
            return ps_cli_error("--backend: too many backends");
        if (strlen(tok) >= sizeof o->names[0])
            return ps_cli_error("--backend: name '%s' too long", tok);
        for (i = 0; i < o->nnames; i++)
            dup |= !strcmp(o->names[i], tok);
        if (!dup)
            snprintf(o->names[o->nnames++], sizeof o->names[0], "%s", tok);
    }
    if (o->nnames == 0)
        return ps_cli_error("--backend needs a name");
    return 0;
}

/*
 * Long options: one line each in the enum and the table, one case in
 * parse_args(); --opt VALUE and --opt=VALUE both work (getopt_long).
 */
enum {
    OPT_BACKEND = 256,
    OPT_STEPS,
    OPT_REPEAT,
    OPT_SCALES,
    OPT_GRID_STEPS,
    OPT_INPUT,
    OPT_PRECISION,
    OPT_THREADS,
    OPT_DRAM_MB,
    OPT_QUICK,
    OPT_ALL,
    OPT_ROOFLINE,
    OPT_STENCILS,
    OPT_KERNEL,
    OPT_MODE,
    OPT_CSV,
    OPT_JSON,
    OPT_PLOT,
    OPT_FORMAT,
    OPT_LOG,
    OPT_REPLOT,
};

static const struct option bench_options[] = {
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"scales", required_argument, NULL, OPT_SCALES},
    {"grid-steps", required_argument, NULL, OPT_GRID_STEPS},
    {"input", required_argument, NULL, OPT_INPUT},
    {"precision", required_argument, NULL, OPT_PRECISION},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"dram-mb", required_argument, NULL, OPT_DRAM_MB},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"all", no_argument, NULL, OPT_ALL},
    {"roofline", no_argument, NULL, OPT_ROOFLINE},
    {"stencils", no_argument, NULL, OPT_STENCILS},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"mode", required_argument, NULL, OPT_MODE},
    {"csv", required_argument, NULL, OPT_CSV},
    {"json", required_argument, NULL, OPT_JSON},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"log", no_argument, NULL, OPT_LOG},
    {"replot", required_argument, NULL, OPT_REPLOT},
    {"force", no_argument, NULL, 'f'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int parse_args(bench_opts *o, int argc, char **argv)
{
    int c, li = -1, have_steps = 0, have_scales = 0, have_repeat = 0, have_prec = 0,
           have_gsteps = 0;
    memset(o, 0, sizeof *o);
    o->steps[0] = 10, o->steps[1] = 25, o->steps[2] = 50, o->steps[3] = 100;
    o->nsteps = 4;
    o->repeat = 3;
    o->scales[0] = 0.5, o->scales[1] = 1, o->scales[2] = 2, o->scales[3] = 4;
    o->nscales = 4;
    o->grid_steps = 20;
    o->precs[0] = PS_FLOAT32;
    o->nprecs = 1;
    o->format = "png";
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hf", bench_options, &li)) != -1) {
        const char *a = c >= OPT_BACKEND ? bench_options[li].name : "";
        const char *v = optarg;
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", a);
        if (v && !*v)
            return ps_cli_error("%s needs a value", opt);
        switch (c) {
        case 'h':
            usage(stdout);
            return 1;
        case OPT_BACKEND:
            if (add_names(o, v))
                return PS_EXIT_USAGE;
            break;
        case OPT_STEPS:
            if ((o->nsteps = ps_cli_parse_long_list(opt, v, 1, o->steps, MAX_LIST)) < 0)
                return PS_EXIT_USAGE;
            have_steps = 1;
            break;
        case OPT_REPEAT:
            if (ps_cli_parse_long(opt, v, 1, MAX_REPEAT, &o->repeat))
                return PS_EXIT_USAGE;
            have_repeat = 1;
            break;
        case OPT_SCALES:
            have_scales = 1;
            if (!strcmp(v, "none")) {
                o->nscales = 0;
                break;
            }
            if ((o->nscales = ps_cli_parse_double_list(opt, v, o->scales, MAX_LIST)) < 0)
                return PS_EXIT_USAGE;
            for (int k = 0; k < o->nscales; k++)
                if (!(o->scales[k] > 0) || o->scales[k] > 64) {
                    char num[32];
                    return ps_cli_error("--scales: %s is out of range (0 < scale <= 64)",
                                        ps_cli_num(o->scales[k], num, sizeof num));
                }
            break;
        case OPT_GRID_STEPS:
            if (ps_cli_parse_long(opt, v, 1, 1000000, &o->grid_steps))
                return PS_EXIT_USAGE;
            have_gsteps = 1;
            break;
        case OPT_INPUT: o->input = v; break;
        case OPT_PRECISION:
            have_prec = 1;
            if (!strcmp(v, "both")) {
                o->precs[0] = PS_FLOAT32, o->precs[1] = PS_FLOAT64, o->nprecs = 2;
            } else {
                ps_precision p;
                if (ps_precision_parse(v, &p))
                    return ps_cli_error("--precision: '%s' is not float, double or both", v);
                o->precs[0] = (int)p, o->nprecs = 1;
            }
            break;
        case OPT_THREADS:
            if (ps_cli_parse_long(opt, v, 1, 4096, &o->threads))
                return PS_EXIT_USAGE;
            break;
        case OPT_DRAM_MB:
            if (ps_cli_parse_long(opt, v, 16, 1 << 20, &o->bound_mb))
                return PS_EXIT_USAGE;
            break;
        case 'f': o->force = 1; break;
        case OPT_QUICK: o->quick = 1; break;
        case OPT_ROOFLINE: o->roofline = 1; break;
        case OPT_STENCILS: o->stencils = 1; break;
        case OPT_KERNEL:
            if (ps_kernel_parse(v, &o->kernel))
                return ps_cli_error("--kernel: %s", ps_error_detail());
            break;
        case OPT_MODE:
            if (ps_mode_parse(v, &o->mode))
                return ps_cli_error("--mode: %s", ps_error_detail());
            break;
        case OPT_ALL: o->all = 1; break;
        case OPT_LOG: o->log_axes = 1; break;
        case OPT_CSV: o->csv = v; break;
        case OPT_JSON: o->json = v; break;
        case OPT_PLOT: o->plot = v; break;
        case OPT_REPLOT: o->replot = v; break;
        case OPT_FORMAT:
            if (strcmp(v, "png") && strcmp(v, "svg"))
                return ps_cli_error("--format: '%s' is not png or svg", v);
            o->format = v;
            break;
        default:
            return ps_cli_getopt_error("bench", c, argv, bench_options);
        }
    }
    if (optind < argc)
        return ps_cli_error("bench: unexpected argument '%s' (try 'pstencil bench --help')",
                            argv[optind]);
    o->have_steps = have_steps;
    o->have_scales = have_scales;
    if (o->stencils && (o->quick || o->roofline || o->csv || o->json || o->plot || o->input))
        return ps_cli_error("bench --stencils takes --backend, --steps N, --repeat, --scales S, "
                            "--precision, --threads and --mode only");
    if (o->quick) {
        /* issue 3 item 7: built-in ocean 100 steps, and a large grid */
        if (!have_steps)
            o->steps[0] = 100, o->nsteps = 1;
        if (!have_scales)
            o->scales[0] = 4, o->nscales = 1;
        if (!have_gsteps)
            o->grid_steps = 10;
        if (!have_repeat)
            o->repeat = 3;
        if (!have_prec)
            o->precs[0] = PS_FLOAT32, o->nprecs = 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */
/* ------------------------------------------------------------------ */

static void progress(bench_state *s, const char *what)
{
    int w = 30, fill, k;
    double el;
    if (!s->tty || s->units_total <= 0)
        return;
    fill = (int)(w * s->units_done / s->units_total);
    el = ps_now() - s->t_start;
    fputc('\r', stderr);
    fputc('[', stderr);
    for (k = 0; k < w; k++)
        fputc(k < fill ? '#' : '.', stderr);
    fprintf(stderr, "] %3ld%% %5.0fs  %-44.44s", 100 * s->units_done / s->units_total, el, what);
    fflush(stderr);
}

static void progress_clear(bench_state *s)
{
    if (s->tty)
        fprintf(stderr, "\r%*s\r", 90, "");
}

static void note(bench_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(bench_state *s, const char *fmt, ...)
{
    va_list ap;
    if (s->nnotes >= 64)
        return;
    va_start(ap, fmt);
    vsnprintf(s->notes[s->nnotes++], sizeof s->notes[0], fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Backends                                                            */
/* ------------------------------------------------------------------ */

static int open_backends(bench_state *s)
{
    const char *const *known;
    int nk, i, j;
    ps_backend_known(&known, &nk);
    for (j = 0; j < s->o.nnames; j++) {
        int found = 0;
        for (i = 0; i < nk; i++)
            found |= !strcmp(known[i], s->o.names[j]);
        if (!found)
            return ps_cli_error("--backend: unknown backend '%s' (try 'pstencil backends')",
                                s->o.names[j]);
    }
    /* reference last in ps_backend_known; keep that order (auto preference) */
    for (i = 0; i < nk; i++) {
        const char *name = known[i];
        int asked = s->o.nnames == 0, st, nd = 0;
        ps_backend *b = NULL;
        ps_device_info devs[16];
        for (j = 0; j < s->o.nnames; j++)
            asked |= !strcmp(s->o.names[j], name);
        if (!asked)
            continue;
        if (!ps_backend_is_built(name)) {
            if (s->o.nnames)
                return ps_cli_error("backend '%s' was not built (configure --enable-%s)", name,
                                    name);
            snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s: not built", name);
            continue;
        }
        st = ps_backend_open(name, &b);
        if (!st)
            st = ps_backend_probe(b, devs, 16, &nd);
        if (st) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", ps_error_detail()[0] ? ps_error_detail()
                                                                 : ps_strerror(st));
            ps_backend_close(b);
            if (s->o.nnames)
                return ps_cli_error("backend '%s' cannot run: %s", name, msg);
            snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s: %s", name, msg);
            continue;
        }
        if (!s->o.stencils) { /* --kernel fast: only backends with a fast path */
            if (ps_backend_kernel_check(b, ps_stencil_default()->name, s->o.kernel)) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", ps_error_detail());
                ps_backend_close(b);
                if (s->o.nnames)
                    return ps_cli_error("%s", msg);
                snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s: no fast path",
                         name);
                continue;
            }
        }
        s->be[s->nbe].b = b;
        snprintf(s->be[s->nbe].name, sizeof s->be[0].name, "%s", name);
        s->be[s->nbe].dev = devs[0];
        s->be[s->nbe].is_cpu = !strcmp(devs[0].type, "cpu");
        s->be[s->nbe].flags = ps_backend_get_ops(b)->flags;
        if (!strcmp(devs[0].type, "gpu") && !s->gpu_name[0])
            snprintf(s->gpu_name, sizeof s->gpu_name, "%s", devs[0].name);
        s->nbe++;
    }
    if (!s->gpu_name[0])
        snprintf(s->gpu_name, sizeof s->gpu_name, "none");
    if (s->nbe == 0)
        return ps_cli_error("no backend can run here");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Bandwidth bounds (measured once per array size)                     */
/* ------------------------------------------------------------------ */

static double bound_gbps(bench_state *s, size_t bytes)
{
    int i;
    ps_stream_result r;
    for (i = 0; i < s->nbounds; i++)
        if (s->bounds[i].bytes == bytes)
            return s->bounds[i].r.best_gbps;
    progress(s, "measuring the copy bound");
    /* best of 100 samples of ~1 ms below 64 MiB, of 10 samples of ~10 ms beyond */
    if (ps_stream_copy(bytes, (int)s->o.threads, bytes < (64u << 20) ? 100 : 10, &r)) {
        ps_cli_warn("copy bound on %zu bytes: %s", bytes, ps_error_detail());
        return NAN;
    }
    if (s->nbounds < 64) {
        s->bounds[s->nbounds].bytes = bytes;
        s->bounds[s->nbounds].r = r;
        s->nbounds++;
    }
    return r.best_gbps;
}

/*
 * Measure every bound a second time after the runs, keep the better of the
 * two, and recompute the rows' fractions: on a shared machine one
 * measurement can land on a moment when another process holds a core.
 */
static void remeasure_bounds(bench_state *s)
{
    int i;
    for (i = 0; i < s->nbounds; i++) {
        ps_stream_result r;
        size_t bytes = s->bounds[i].bytes;
        progress(s, "measuring the copy bound again");
        if (ps_stream_copy(bytes, (int)s->o.threads, bytes < (64u << 20) ? 100 : 10, &r) == 0 &&
            r.best_gbps > s->bounds[i].r.best_gbps)
            s->bounds[i].r = r;
    }
    for (i = 0; i < s->nrows; i++) {
        ps_bench_row *row = &s->rows[i];
        if (isnan(row->bound_gbps))
            continue;
        row->bound_gbps = bound_gbps(s, (size_t)row->cells * ps_precision_size(
                                               strcmp(row->precision, "float64") ? PS_FLOAT32
                                                                                  : PS_FLOAT64));
        row->dram_bound_gbps = bound_gbps(s, (size_t)s->dram_bytes);
        row->bound_fraction = row->gbps / row->bound_gbps;
        row->dram_fraction = row->gbps / row->dram_bound_gbps;
    }
}

/* ------------------------------------------------------------------ */
/* Runs                                                                */
/* ------------------------------------------------------------------ */

/* Obtain the step-scaling input: read --input or generate the ocean (scale 1). */
static int make_input(bench_state *s, ps_precision p, ps_dataset *ds, ps_field *f)
{
    int st;
    memset(ds, 0, sizeof *ds);
    ds->ncid = -1;
    memset(f, 0, sizeof *f);
    if (s->o.input) {
        st = ps_dataset_open(ds, s->o.input, NULL);
        if (!st)
            st = ps_dataset_read(ds, 0, p, f);
        return st;
    } else {
        ps_ocean_options oo;
        ps_field f32;
        memset(&f32, 0, sizeof f32);
        ps_ocean_defaults(&oo);
        st = ps_ocean_generate(&oo, 0, ds, &f32);
        if (st || p == PS_FLOAT32) {
            *f = f32;
            return st;
        }
        st = ps_field_alloc(f, f32.grid, p);
        if (!st)
            st = ps_field_convert(f, &f32);
        ps_field_free(&f32);
        return st;
    }
}

/* One whole job: input, upload, steps, download, write (timed as a whole). */
static int run_job(bench_state *s, bench_backend *bb, ps_precision p, long steps,
                   ps_run_stats *stats, double *job_s, ps_grid *grid)
{
    ps_dataset ds;
    ps_field f;
    ps_config cfg;
    ps_run_options ro;
    ps_writer *w = NULL;
    ps_write_options wo;
    char path[4200], source[400];
    double t0 = ps_now();
    int st;

    memset(stats, 0, sizeof *stats);
    st = make_input(s, p, &ds, &f);
    if (st)
        goto done;
    *grid = f.grid;
    ps_config_init(&cfg, f.grid, p);
    cfg.threads = (int)s->o.threads;
    cfg.kernel = s->o.kernel;
    memset(&ro, 0, sizeof ro);
    ro.steps = steps;
    st = ps_run(bb->b, &cfg, &f, &ro, stats);
    if (st)
        goto done;
    snprintf(path, sizeof path, "%s/bench-%s.nc", s->tmpdir, bb->name);
    snprintf(source, sizeof source, "pstencil %s, backend %s, device %s", PACKAGE_VERSION,
             bb->name, bb->dev.name);
    memset(&wo, 0, sizeof wo);
    wo.path = path;
    wo.force = 1;
    wo.history = ps_cli_cmdline;
    wo.source = source;
    wo.precision = p;
    st = ps_writer_open(&w, &ds, &wo);
    if (!st)
        st = ps_writer_append(w, steps, &f);
    if (!st)
        st = ps_writer_commit(w);
    *job_s = ps_now() - t0;
    if (!st)
        unlink(path);
done:
    ps_writer_abort(w);
    free(stats->step_times);
    stats->step_times = NULL;
    ps_field_free(&f);
    ps_dataset_close(&ds);
    return st;
}

static void fill_row(bench_state *s, ps_bench_row *r, const bench_backend *bb, ps_precision p,
                     const char *experiment, double scale, ps_grid g, long steps,
                     const bench_samples *sm, const ps_run_stats *agg, double peak_mb,
                     double dev_bytes)
{
    const ps_stencil *sten = ps_stencil_default();
    size_t esize = ps_precision_size(p);
    double cells = (double)g.nz * (double)g.ny * (double)g.nx, ms_mean, ms_sd;
    double per_step[MAX_REPEAT];
    int i;

    memset(r, 0, sizeof *r);
    snprintf(r->gpu_name, sizeof r->gpu_name, "%s",
             !strcmp(bb->dev.type, "gpu") ? bb->dev.name : s->gpu_name);
    snprintf(r->cpu_name, sizeof r->cpu_name, "%.127s", s->m.cpu_name);
    snprintf(r->method, sizeof r->method, "pstencil %s %s (%s)", bb->name,
             ps_precision_name(p), bb->is_cpu ? "CPU" : !strcmp(bb->dev.type, "gpu") ? "GPU"
                                                                                    : bb->dev.type);
    r->num_timesteps = steps;
    ps_bench_stats(sm->step_s, sm->n, &r->mean_time_sec, &r->std_dev_sec);
    snprintf(r->experiment, sizeof r->experiment, "%s", experiment);
    snprintf(r->backend, sizeof r->backend, "%s", bb->name);
    snprintf(r->device, sizeof r->device, "%s", bb->dev.name);
    snprintf(r->device_type, sizeof r->device_type, "%s", bb->dev.type);
    snprintf(r->precision, sizeof r->precision, "%s", ps_precision_name(p));
    r->scale = scale;
    r->nz = (long)g.nz, r->ny = (long)g.ny, r->nx = (long)g.nx;
    r->cells = cells;
    r->repeats = sm->n;
    r->threads = (int)s->o.threads;
    for (i = 0; i < sm->n; i++)
        per_step[i] = sm->step_s[i] * 1e3 / (double)steps;
    ps_bench_stats(per_step, sm->n, &ms_mean, &ms_sd);
    r->step_ms = ms_mean;
    r->best_step_ms = per_step[0];
    for (i = 1; i < sm->n; i++)
        if (per_step[i] < r->best_step_ms)
            r->best_step_ms = per_step[i];
    /* one run has no spread to measure: NaN, printed "n/a" */
    r->spread = sm->n >= 2 && ms_mean > 0 ? ms_sd / ms_mean : NAN;
    r->cells_per_s = cells / (ms_mean * 1e-3);
    r->bytes_per_step = (double)(sten->arrays_read + sten->arrays_written) * cells * (double)esize;
    r->gbps = r->bytes_per_step / (ms_mean * 1e-3) / 1e9;
    if (bb->is_cpu) {
        r->bound_gbps = bound_gbps(s, (size_t)cells * esize);
        r->dram_bound_gbps = bound_gbps(s, (size_t)s->dram_bytes);
    } else {
        r->bound_gbps = r->dram_bound_gbps = NAN; /* no device copy hook: n/a */
    }
    r->bound_fraction = r->gbps / r->bound_gbps;
    r->dram_fraction = r->gbps / r->dram_bound_gbps;
    if (sm->job_s[0] > 0) {
        ps_bench_stats(sm->job_s, sm->n, &r->job_mean_s, &r->job_std_s);
        r->best_job_s = sm->job_s[0];
        for (i = 1; i < sm->n; i++)
            if (sm->job_s[i] < r->best_job_s)
                r->best_job_s = sm->job_s[i];
    } else {
        r->job_mean_s = r->job_std_s = r->best_job_s = NAN;
    }
    r->create_ms = agg->create_s * 1e3 / sm->n;
    r->upload_ms = agg->upload_s * 1e3 / sm->n;
    r->download_ms = agg->download_s * 1e3 / sm->n;
    r->peak_host_mb = peak_mb;
    r->peak_device_mb = dev_bytes > 0 ? dev_bytes / 1048576.0 : NAN;
    r->speedup_ref = NAN;
}

static void accumulate(ps_run_stats *agg, const ps_run_stats *st, double *dev_bytes)
{
    agg->create_s += st->create_s;
    agg->upload_s += st->upload_s;
    agg->download_s += st->download_s;
    if (st->have_device_timing && (double)st->device.device_bytes > *dev_bytes)
        *dev_bytes = (double)st->device.device_bytes;
}

/*
 * Step-count scaling. Runs are interleaved (for each step count and repeat,
 * every backend in turn) so that a change of machine load during the
 * benchmark hits every backend alike and the ratios stay fair.
 */
static int step_scaling(bench_state *s)
{
    int pi, bi, si, rep, st;
    for (pi = 0; pi < s->o.nprecs; pi++) {
        ps_precision p = (ps_precision)s->o.precs[pi];
        int skip[MAX_BACKENDS] = {0};
        ps_grid g = {0, 0, 0};
        char what[128];
        for (bi = 0; bi < s->nbe; bi++) {
            bench_backend *bb = &s->be[bi];
            ps_run_stats rs;
            double job;
            snprintf(what, sizeof what, "%s %s warm-up", bb->name, ps_precision_name(p));
            progress(s, what);
            /* warm-up (discarded): plugin first use, page faults, kernel builds */
            st = run_job(s, bb, p, s->o.steps[0] < 5 ? s->o.steps[0] : 5, &rs, &job, &g);
            s->units_done++;
            if (st == PS_EUNSUPPORTED) {
                /* e.g. no float64 on this device: skip this configuration, say why */
                note(s, "%s skipped in %s: %s", bb->name, ps_precision_name(p),
                     ps_error_detail());
                s->units_done += s->o.nsteps * s->o.repeat;
                skip[bi] = 1;
                continue;
            }
            if (st)
                return ps_cli_status_error(st, bb->name);
            if ((bb->flags & PS_BACKEND_ORACLE) && !s->o.all) {
                long total = 0;
                double est;
                for (si = 0; si < s->o.nsteps; si++)
                    total += s->o.steps[si];
                est = REF_NS_PER_CELL * 1e-9 * (double)g.nz * g.ny * g.nx * (double)total *
                      (double)s->o.repeat;
                if (est > 4 * REF_BUDGET_S) {
                    note(s, "reference skipped in step scaling: about %.0f s on this grid "
                            "(use --all)", est);
                    s->units_done += s->o.nsteps * s->o.repeat;
                    skip[bi] = 1;
                }
            }
        }
        for (si = 0; si < s->o.nsteps; si++) {
            bench_samples sm[MAX_BACKENDS];
            ps_run_stats agg[MAX_BACKENDS];
            double dev_bytes[MAX_BACKENDS], peak[MAX_BACKENDS];
            if (s->nrows + s->nbe > MAX_ROWS)
                return ps_cli_error("too many configurations");
            memset(sm, 0, sizeof sm);
            memset(agg, 0, sizeof agg);
            for (bi = 0; bi < s->nbe; bi++)
                dev_bytes[bi] = peak[bi] = 0;
            for (rep = 0; rep < s->o.repeat; rep++)
                for (bi = 0; bi < s->nbe; bi++) {
                    bench_backend *bb = &s->be[bi];
                    ps_run_stats rs;
                    double job, pk;
                    if (skip[bi])
                        continue;
                    snprintf(what, sizeof what, "%s %s %ld steps, run %d/%ld", bb->name,
                             ps_precision_name(p), s->o.steps[si], rep + 1, s->o.repeat);
                    progress(s, what);
                    ps_bench_peak_reset();
                    st = run_job(s, bb, p, s->o.steps[si], &rs, &job, &g);
                    pk = ps_bench_peak_host_mb();
                    s->units_done++;
                    if (st)
                        return ps_cli_status_error(st, bb->name);
                    sm[bi].step_s[sm[bi].n] = rs.step_s;
                    sm[bi].job_s[sm[bi].n] = job;
                    sm[bi].n++;
                    if (pk > peak[bi])
                        peak[bi] = pk;
                    accumulate(&agg[bi], &rs, &dev_bytes[bi]);
                }
            for (bi = 0; bi < s->nbe; bi++) {
                if (skip[bi])
                    continue;
                s->samples[s->nrows] = sm[bi];
                fill_row(s, &s->rows[s->nrows], &s->be[bi], p, "steps",
                         s->o.input ? NAN : 1.0, g, s->o.steps[si], &sm[bi], &agg[bi], peak[bi],
                         dev_bytes[bi]);
                s->nrows++;
            }
        }
    }
    return 0;
}

static int grid_scaling(bench_state *s)
{
    int ci, pi, bi, rep, st;
    for (ci = 0; ci < s->o.nscales; ci++) {
        ps_ocean_options oo;
        ps_dataset ds;
        ps_field f32, in, work;
        char what[128];
        ps_ocean_defaults(&oo);
        oo.scale = s->o.scales[ci];
        memset(&f32, 0, sizeof f32);
        snprintf(what, sizeof what, "generating the ocean at scale %g", oo.scale);
        progress(s, what);
        st = ps_ocean_generate(&oo, 0, &ds, &f32);
        ps_dataset_close(&ds);
        if (st)
            return ps_cli_status_error(st, "built-in ocean");
        for (pi = 0; pi < s->o.nprecs; pi++) {
            ps_precision p = (ps_precision)s->o.precs[pi];
            memset(&in, 0, sizeof in);
            memset(&work, 0, sizeof work);
            st = ps_field_alloc(&in, f32.grid, p);
            if (!st)
                st = ps_field_convert(&in, &f32);
            if (!st)
                st = ps_field_alloc(&work, f32.grid, p);
            if (st) {
                ps_field_free(&in);
                ps_field_free(&f32);
                return ps_cli_status_error(st, "grid scaling input");
            }
            {
                /* interleaved like step scaling: every backend in turn per repeat */
                bench_samples sm[MAX_BACKENDS];
                ps_run_stats agg[MAX_BACKENDS];
                double dev_bytes[MAX_BACKENDS], peak[MAX_BACKENDS];
                int skip[MAX_BACKENDS] = {0};
                double cells = (double)ps_field_cells(&in);
                ps_config cfg;
                ps_run_options ro;
                if (s->nrows + s->nbe > MAX_ROWS) {
                    st = ps_cli_error("too many configurations");
                    goto fail;
                }
                memset(sm, 0, sizeof sm);
                memset(agg, 0, sizeof agg);
                ps_config_init(&cfg, in.grid, p);
                cfg.threads = (int)s->o.threads;
                cfg.kernel = s->o.kernel;
                memset(&ro, 0, sizeof ro);
                for (bi = 0; bi < s->nbe; bi++) {
                    dev_bytes[bi] = peak[bi] = 0;
                    if ((s->be[bi].flags & PS_BACKEND_ORACLE) && !s->o.all) {
                        double est = REF_NS_PER_CELL * 1e-9 * cells *
                                     (double)s->o.grid_steps * (double)(s->o.repeat + 1);
                        if (est > REF_BUDGET_S) {
                            note(s, "reference skipped at scale %g %s (%.0f Mcells): about "
                                    "%.0f s (use --all)",
                                 oo.scale, ps_precision_name(p), cells / 1e6, est);
                            s->units_done += s->o.repeat + 1;
                            skip[bi] = 1;
                        }
                    }
                }
                for (rep = -1; rep < s->o.repeat; rep++)
                    for (bi = 0; bi < s->nbe; bi++) {
                        bench_backend *bb = &s->be[bi];
                        ps_run_stats rs;
                        double pk;
                        if (skip[bi])
                            continue;
                        snprintf(what, sizeof what, "%s %s scale %g, run %d/%ld", bb->name,
                                 ps_precision_name(p), oo.scale, rep + 1, s->o.repeat);
                        progress(s, what);
                        memcpy(work.data, in.data, ps_field_cells(&in) * ps_precision_size(p));
                        /* rep -1: warm-up, one step, discarded */
                        ro.steps = rep < 0 ? 1 : s->o.grid_steps;
                        ps_bench_peak_reset();
                        st = ps_run(bb->b, &cfg, &work, &ro, &rs);
                        pk = ps_bench_peak_host_mb();
                        free(rs.step_times);
                        s->units_done++;
                        if (st == PS_EUNSUPPORTED && rep < 0) {
                            note(s, "%s skipped at scale %g %s: %s", bb->name, oo.scale,
                                 ps_precision_name(p), ps_error_detail());
                            s->units_done += s->o.repeat;
                            skip[bi] = 1;
                            continue;
                        }
                        if (st) {
                            st = ps_cli_status_error(st, bb->name);
                            goto fail;
                        }
                        if (rep < 0)
                            continue;
                        sm[bi].step_s[sm[bi].n++] = rs.step_s;
                        if (pk > peak[bi])
                            peak[bi] = pk;
                        accumulate(&agg[bi], &rs, &dev_bytes[bi]);
                    }
                for (bi = 0; bi < s->nbe; bi++) {
                    if (skip[bi])
                        continue;
                    s->samples[s->nrows] = sm[bi];
                    fill_row(s, &s->rows[s->nrows], &s->be[bi], p, "grid", oo.scale, in.grid,
                             s->o.grid_steps, &sm[bi], &agg[bi], peak[bi], dev_bytes[bi]);
                    s->nrows++;
                }
            }
            ps_field_free(&in);
            ps_field_free(&work);
        }
        ps_field_free(&f32);
        continue;
    fail:
        ps_field_free(&in);
        ps_field_free(&work);
        ps_field_free(&f32);
        return st;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void fmt_pct(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.0f%%", 100 * v);
}

static void print_table(bench_state *s, FILE *f)
{
    int i;
    fprintf(f, "\n%-6s %-34s %-14s %6s %10s %7s %9s %9s %7s %8s %8s %8s %10s\n", "exp",
            "method", "grid", "steps", "ms/step", "spread", "best ms", "Mcell/s", "GB/s",
            "%bound", "%DRAM", "job s", "x ref");
    for (i = 0; i < s->nrows; i++) {
        const ps_bench_row *r = &s->rows[i];
        char grid[32], b1[16], b2[16], job[16], sp[24], spr[16];
        snprintf(grid, sizeof grid, "%ldx%ldx%ld", r->nz, r->ny, r->nx);
        fmt_pct(b1, sizeof b1, r->bound_fraction);
        fmt_pct(b2, sizeof b2, r->dram_fraction);
        if (isnan(r->job_mean_s))
            snprintf(job, sizeof job, "-");
        else
            snprintf(job, sizeof job, "%.3f", r->job_mean_s);
        if (isnan(r->speedup_ref))
            snprintf(sp, sizeof sp, "-");
        else
            snprintf(sp, sizeof sp, "%.1f%s", r->speedup_ref, r->speedup_noise ? " noise" : "");
        if (isnan(r->spread))
            snprintf(spr, sizeof spr, "n/a");
        else
            snprintf(spr, sizeof spr, "%.1f%%", 100 * r->spread);
        fprintf(f, "%-6s %-34s %-14s %6ld %10.3f %7s %9.3f %9.1f %7.2f %8s %8s %8s %10s\n",
                r->experiment, r->method, grid, r->num_timesteps, r->step_ms, spr,
                r->best_step_ms, r->cells_per_s / 1e6, r->gbps, b1, b2, job, sp);
    }
}

/* Repeat-to-repeat spread and which differences are noise. */
static void print_noise(bench_state *s, FILE *f)
{
    int i, j;
    double maxsp = 0;
    int measured = 0;
    for (i = 0; i < s->nrows; i++) {
        measured += !isnan(s->rows[i].spread);
        if (s->rows[i].spread > maxsp)
            maxsp = s->rows[i].spread;
    }
    if (!measured) {
        fprintf(f, "\nRepeat-to-repeat spread: n/a (one run per configuration; --repeat 2 or "
                   "more measures it and tells noise from differences).\n");
        return;
    }
    fprintf(f, "\nRepeat-to-repeat spread (std dev / mean of ms/step): up to %.1f%%.\n",
            100 * maxsp);
    /* per backend: does ms/step change with the step count beyond the spread? */
    for (i = 0; i < s->nrows; i++) {
        const ps_bench_row *a = &s->rows[i];
        double lo = a->step_ms, hi = a->step_ms, sd = a->step_ms * a->spread;
        int first = 1, n = 0;
        if (strcmp(a->experiment, "steps"))
            continue;
        for (j = 0; j < i; j++)
            if (!strcmp(s->rows[j].experiment, "steps") && !strcmp(s->rows[j].method, a->method))
                first = 0;
        if (!first)
            continue;
        for (j = i; j < s->nrows; j++) {
            const ps_bench_row *b = &s->rows[j];
            if (strcmp(b->experiment, "steps") || strcmp(b->method, a->method))
                continue;
            n++;
            if (b->step_ms < lo)
                lo = b->step_ms;
            if (b->step_ms > hi)
                hi = b->step_ms;
            if (b->step_ms * b->spread > sd)
                sd = b->step_ms * b->spread;
        }
        if (n > 1)
            fprintf(f, "  %-30s ms/step %.3f..%.3f over the step counts: %s\n", a->method, lo,
                    hi, hi - lo <= 2 * sd ? "noise (within 2 std dev of the repeats)"
                                          : "differs beyond the spread");
    }
    fprintf(f, "Speedups marked 'noise' differ from the reference by less than the combined "
               "spread.\n");
}

/* Best-run ms/step of the reference row matching @p r (NaN if none). */
static double ref_best(const bench_state *s, const ps_bench_row *r)
{
    int i;
    for (i = 0; i < s->nrows; i++) {
        const ps_bench_row *q = &s->rows[i];
        if (!strcmp(q->backend, ps_bench_oracle_name()) && !strcmp(q->precision, r->precision) &&
            !strcmp(q->experiment, r->experiment) && q->nx == r->nx && q->ny == r->ny &&
            q->nz == r->nz && q->num_timesteps == r->num_timesteps)
            return q->best_step_ms;
    }
    return NAN;
}

/* The threaded CPU backend the goals are about (PS_BACKEND_THREADS, not a GPU). */
static const char *threaded_cpu_backend(const bench_state *s)
{
    int i;
    for (i = 0; i < s->nbe; i++)
        if ((s->be[i].flags & PS_BACKEND_THREADS) && !(s->be[i].flags & PS_BACKEND_GPU))
            return s->be[i].name;
    return NULL;
}

static void print_quick(bench_state *s, FILE *f)
{
    int i;
    const ps_bench_row *omp1 = NULL, *ompL = NULL;
    const char *cpu = threaded_cpu_backend(s);
    for (i = 0; i < s->nrows; i++) {
        const ps_bench_row *r = &s->rows[i];
        if (!cpu || strcmp(r->backend, cpu) || strcmp(r->precision, "float32"))
            continue;
        if (!strcmp(r->experiment, "steps") && r->num_timesteps == 100 && !s->o.input)
            omp1 = r;
        if (!strcmp(r->experiment, "grid") && r->cells >= 40e6)
            ompL = r;
    }
    fprintf(f, "\nGoals (issue 3, this machine):\n");
    if (omp1) {
        fprintf(f, "  %s >= 15x %s on the built-in ocean:  %s (%.1fx mean; "
                   "%.1fx best runs)\n", cpu, ps_bench_oracle_name(),
                omp1->speedup_ref >= 15 ? "reached" : "NOT reached", omp1->speedup_ref,
                ref_best(s, omp1) / omp1->best_step_ms);
        fprintf(f, "  %s >= 1.5 Gcell/s on the built-in ocean:    %s (%.2f Gcell/s mean; "
                   "%.2f best run)\n", cpu,
                omp1->cells_per_s >= 1.5e9 ? "reached" : "NOT reached", omp1->cells_per_s / 1e9,
                omp1->cells / (omp1->best_step_ms * 1e-3) / 1e9);
        fprintf(f, "  whole 100-step job < 1.7 s:                     %s (%.3f s mean; "
                   "%.3f s best run)\n",
                omp1->job_mean_s < 1.7 ? "reached" : "NOT reached", omp1->job_mean_s,
                omp1->best_job_s);
    } else {
        fprintf(f, "  (no %s float32 100-step run on the built-in ocean)\n",
                cpu ? cpu : "threaded CPU backend");
    }
    if (ompL)
        fprintf(f, "  %s >= 85%% of the measured bound, large grid: %s (%.0f%% of %.1f GB/s "
                   "mean; %.0f%% best run)\n", cpu,
                ompL->bound_fraction >= 0.85 ? "reached" : "NOT reached",
                100 * ompL->bound_fraction, ompL->bound_gbps,
                100 * ompL->bytes_per_step / (ompL->best_step_ms * 1e-3) / 1e9 / ompL->bound_gbps);
    else
        fprintf(f, "  (no %s float32 run on a grid >= 40M cells)\n",
                cpu ? cpu : "threaded CPU backend");
}

/* A bench file: written to a private temporary file beside @p path (removed on
 * failure or a signal), published by ps_cmd_bench() once every output is
 * written, never over an existing file without --force. */
static FILE *bench_open(ps_outfile *of, const char *path, int force)
{
    FILE *f;
    if (ps_outfile_begin(of, path, force)) {
        ps_cli_error("cannot write %s: %s", path, ps_error_detail());
        return NULL;
    }
    f = fdopen(of->fd, "w");
    if (!f) {
        ps_cli_error("cannot write %s: %s", path, strerror(errno));
        ps_outfile_abort(of);
        return NULL;
    }
    of->fd = -1;
    return f;
}

/* Close the stream of a bench file; on any failure remove its temporary file. */
static int bench_close(ps_outfile *of, FILE *f, int failed)
{
    int bad = ferror(f) || failed, e = 0;
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        bad = 1, e = errno;
    if (fclose(f) != 0 && !bad)
        bad = 1, e = errno;
    if (bad) {
        ps_outfile_abort(of);
        return ps_cli_error("writing %s failed%s", of->path,
                            e == ENOSPC ? ": no space left on device" : "");
    }
    return 0;
}

static int write_json(bench_state *s, ps_outfile *of, const char *path, double elapsed)
{
    FILE *f = bench_open(of, path, s->o.force);
    ps_json j;
    int i, k, st;
    double la[1] = {NAN};
    if (!f)
        return PS_EXIT_USAGE;
    getloadavg(la, 1);
    ps_json_init(&j, f, PS_JSON_PRETTY);
    ps_json_object_begin(&j);
    ps_json_kstring(&j, "tool", "pstencil bench");
    ps_json_kstring(&j, "command", ps_cli_cmdline);
    ps_json_key(&j, "machine");
    ps_bench_json_machine(&j, &s->m);
    ps_json_knumber_fmt(&j, "loadavg1_at_end", la[0], "%.2f");
    ps_json_knumber_fmt(&j, "elapsed_s", elapsed, "%.3f");
    ps_json_key(&j, "options");
    ps_json_object_begin(&j);
    ps_json_compact(&j);
    ps_json_key(&j, "steps");
    ps_json_array_begin(&j);
    for (i = 0; i < s->o.nsteps; i++)
        ps_json_int(&j, s->o.steps[i]);
    ps_json_array_end(&j);
    ps_json_kint(&j, "repeat", s->o.repeat);
    ps_json_key(&j, "scales");
    ps_json_array_begin(&j);
    for (i = 0; i < s->o.nscales; i++)
        ps_json_number_fmt(&j, s->o.scales[i], "%g");
    ps_json_array_end(&j);
    ps_json_kint(&j, "grid_steps", s->o.grid_steps);
    ps_json_kint(&j, "threads", s->o.threads);
    ps_json_kbool(&j, "quick", s->o.quick);
    ps_json_kbool(&j, "all", s->o.all);
    ps_json_kstring(&j, "input", s->o.input);
    ps_json_object_end(&j);
    ps_json_key(&j, "backends");
    ps_json_array_begin(&j);
    for (i = 0; i < s->nbe; i++) {
        ps_json_object_begin(&j);
        ps_json_compact(&j);
        ps_json_kstring(&j, "name", s->be[i].name);
        ps_json_kstring(&j, "device", s->be[i].dev.name);
        ps_json_kstring(&j, "type", s->be[i].dev.type);
        ps_json_kstring(&j, "detail", s->be[i].dev.detail);
        ps_json_key(&j, "memory_bytes");
        ps_json_uint(&j, (unsigned long long)s->be[i].dev.memory_bytes);
        ps_json_kint(&j, "compute_units", s->be[i].dev.compute_units);
        ps_json_object_end(&j);
    }
    ps_json_array_end(&j);
    ps_json_key(&j, "skipped");
    ps_json_array_begin(&j);
    for (i = 0; i < s->nskipped; i++)
        ps_json_string(&j, s->skipped[i]);
    ps_json_array_end(&j);
    ps_json_key(&j, "notes");
    ps_json_array_begin(&j);
    for (i = 0; i < s->nnotes; i++)
        ps_json_string(&j, s->notes[i]);
    ps_json_array_end(&j);
    ps_json_key(&j, "copy_bounds");
    ps_json_array_begin(&j);
    for (i = 0; i < s->nbounds; i++) {
        const ps_stream_result *b = &s->bounds[i].r;
        ps_json_object_begin(&j);
        ps_json_compact(&j);
        ps_json_key(&j, "array_bytes");
        ps_json_uint(&j, b->array_bytes);
        ps_json_kint(&j, "threads", b->threads);
        ps_json_kint(&j, "samples", b->samples);
        ps_json_knumber_fmt(&j, "best_gbps", b->best_gbps, "%.4f");
        ps_json_knumber_fmt(&j, "mean_gbps", b->mean_gbps, "%.4f");
        ps_json_knumber_fmt(&j, "plain_gbps", b->plain_gbps, "%.4f");
        ps_json_knumber_fmt(&j, "nt_gbps", b->nt_gbps, "%.4f");
        ps_json_object_end(&j);
    }
    ps_json_array_end(&j);
    ps_json_key(&j, "rows");
    ps_json_array_begin(&j);
    for (i = 0; i < s->nrows; i++) {
        const bench_samples *sm = &s->samples[i];
        ps_json_object_begin(&j);
        ps_json_compact(&j);
        ps_bench_json_fields(&j, &s->rows[i]);
        ps_json_key(&j, "step_loop_s");
        ps_json_array_begin(&j);
        for (k = 0; k < sm->n; k++)
            ps_json_number_fmt(&j, sm->step_s[k], "%.9g");
        ps_json_array_end(&j);
        ps_json_key(&j, "job_s");
        ps_json_array_begin(&j);
        for (k = 0; k < sm->n && sm->job_s[0] > 0; k++)
            ps_json_number_fmt(&j, sm->job_s[k], "%.9g");
        ps_json_array_end(&j);
        ps_json_object_end(&j);
    }
    ps_json_array_end(&j);
    ps_json_object_end(&j);
    st = ps_json_finish(&j);
    if (st)
        ps_cli_warn("%s: %s", path, ps_error_detail());
    return bench_close(of, f, st != 0);
}

static int write_csv(bench_state *s, ps_outfile *of, const char *path)
{
    FILE *f = bench_open(of, path, s->o.force);
    int st;
    if (!f)
        return PS_EXIT_USAGE;
    st = ps_bench_csv_write(f, s->rows, s->nrows);
    return bench_close(of, f, st != 0);
}

/* Fail before minutes of measuring if an output cannot be written
 * (core/ps_outfile.h rules: directory writable, not the input, not an
 * existing file without --force). */
static int check_outputs(const bench_opts *o)
{
    if (o->csv && ps_outfile_check(o->csv, o->input, o->force, "--csv"))
        return ps_cli_error("%s", ps_error_detail());
    if (o->json && ps_outfile_check(o->json, o->input, o->force, "--json"))
        return ps_cli_error("%s", ps_error_detail());
    if (o->csv && o->json && !strcmp(o->csv, o->json))
        return ps_cli_error("--csv and --json name the same file %s", o->csv);
    if (o->plot)
        return ps_cli_bench_plots_check(o->plot, o->format, o->force);
    return 0;
}

/* ------------------------------------------------------------------ */

int ps_cmd_bench(int argc, char **argv)
{
    bench_state *s = calloc(1, sizeof *s);
    ps_outfile csv_of, json_of;
    int rc, i, have_csv = 0, have_json = 0;
    double elapsed;
    const char *tmp = getenv("TMPDIR");

    /* the decomposition experiments have their own options (cli/cmd_bench_decomp.c) */
    for (i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--memory") || !strcmp(argv[i], "--decomp")) {
            free(s);
            return ps_cmd_bench_decomp(argc, argv);
        }
    if (!s)
        return ps_cli_error("out of memory");
    rc = parse_args(&s->o, argc, argv);
    if (rc) {
        free(s);
        return rc == 1 ? PS_EXIT_OK : rc;
    }
    if (s->o.replot) {
        char *pargv[8];
        int pargc = 0;
        pargv[pargc++] = "bench";
        pargv[pargc++] = (char *)s->o.replot;
        pargv[pargc++] = "-o";
        pargv[pargc++] = (char *)(s->o.plot ? s->o.plot : ".");
        pargv[pargc++] = "--format";
        pargv[pargc++] = (char *)s->o.format;
        if (s->o.log_axes)
            pargv[pargc++] = "--log";
        if (s->o.force)
            pargv[pargc++] = "--force";
        free(s);
        return ps_cmd_plot_bench(pargc, pargv);
    }
    if ((rc = check_outputs(&s->o))) {
        free(s);
        return rc;
    }
    if (s->o.input) {
        /* the input is checked as run checks it, before any measurement: its
         * coordinates and time axis, and record 0 (the one measured) has finite
         * ocean cells */
        ps_dataset ds;
        ps_field f;
        int st = ps_dataset_open(&ds, s->o.input, NULL);
        memset(&f, 0, sizeof f);
        if (!st)
            st = ps_dataset_check_time(&ds, 0); /* each job writes an output from record 0 */
        if (!st)
            st = ps_dataset_read(&ds, 0, PS_FLOAT32, &f);
        if (!st)
            st = ps_field_check_ocean(&ds, 0, &f, 0, NULL, NULL);
        ps_field_free(&f);
        ps_dataset_close(&ds);
        if (st) {
            free(s);
            return ps_cli_status_error(st, "--input");
        }
    }
    ps_bench_machine_describe(&s->m);
    if (s->o.threads)
        ps_bench_thread_placement((int)s->o.threads, &s->m.placement);
    s->tty = ps_cli_isatty();
    s->t_start = ps_now();
    s->dram_bytes = 256.0 * 1048576.0;
    if (s->m.l3_bytes && 8.0 * (double)s->m.l3_bytes > s->dram_bytes)
        s->dram_bytes = 8.0 * (double)s->m.l3_bytes;
    if (s->o.bound_mb)
        s->dram_bytes = (double)s->o.bound_mb * 1048576.0;
    snprintf(s->tmpdir, sizeof s->tmpdir, "%s/pstencil-bench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->tmpdir)) {
        rc = ps_cli_error("cannot create a temporary directory %s: %s", s->tmpdir,
                          strerror(errno));
        free(s);
        return rc;
    }
    rc = open_backends(s);
    if (rc)
        goto done;
    fprintf(stderr, "pstencil bench: %s, %d CPUs; backends:", s->m.cpu_name, s->m.cpus_online);
    for (i = 0; i < s->nbe; i++)
        fprintf(stderr, " %s (%s)", s->be[i].name, s->be[i].dev.name);
    fputc('\n', stderr);
    for (i = 0; i < s->nskipped; i++)
        fprintf(stderr, "  skipped %s\n", s->skipped[i]);
    if (s->o.stencils) {
        ps_bench_stencils_options so;
        const char *names[32];
        memset(&so, 0, sizeof so);
        for (i = 0; i < s->nbe && i < 32; i++)
            names[i] = s->be[i].name;
        so.backends = names;
        so.nbackends = i;
        so.scale = s->o.have_scales && s->o.nscales ? s->o.scales[0] : 1.0;
        so.steps = s->o.have_steps ? s->o.steps[0] : 50;
        so.repeat = s->o.repeat;
        so.threads = (int)s->o.threads;
        so.precision = (ps_precision)s->o.precs[0];
        so.mode = s->o.mode;
        printf("pstencil bench --stencils on %s (%d CPUs, %s), %s\n", s->m.cpu_name,
               s->m.cpus_online, s->gpu_name, s->m.date);
        rc = ps_bench_stencils(&so, stdout);
        if (rc)
            rc = ps_cli_status_error(rc, "bench --stencils");
        goto done;
    }
    s->units_total = (long)s->o.nprecs * s->nbe *
                     ((long)s->o.nsteps * s->o.repeat + 1 + (long)s->o.nscales * (s->o.repeat + 1));
    rc = step_scaling(s);
    if (!rc)
        rc = grid_scaling(s);
    if (!rc)
        remeasure_bounds(s);
    progress_clear(s);
    if (rc)
        goto done;
    elapsed = ps_now() - s->t_start;
    ps_bench_speedups(s->rows, s->nrows);
    printf("pstencil bench on %s (%d CPUs, %s), %s\n", s->m.cpu_name, s->m.cpus_online,
           s->gpu_name, s->m.date);
    for (i = 0; i < s->nbounds; i++)
        printf("measured copy bound: %8.1f GB/s on 2 x %7.1f MiB (%d threads, best of 2 x %d; "
               "ordinary stores %.1f, streaming stores %.1f)\n",
               s->bounds[i].r.best_gbps, s->bounds[i].r.array_bytes / 1048576.0,
               s->bounds[i].r.threads, s->bounds[i].r.samples, s->bounds[i].r.plain_gbps,
               s->bounds[i].r.nt_gbps);
    {
        char line[1024];
        ps_bench_topology_line(&s->m.topo, line, sizeof line);
        printf("machine: %s\n", line);
        printf("threads: %s\n", s->m.placement.summary);
    }
    print_table(s, stdout);
    print_noise(s, stdout);
    if (s->o.roofline && ps_roofline_print(stdout, s->rows, s->nrows, (int)s->o.threads))
        ps_cli_warn("roofline: %s", ps_error_detail());
    if (s->o.quick)
        print_quick(s, stdout);
    for (i = 0; i < s->nskipped; i++)
        printf("skipped %s\n", s->skipped[i]);
    for (i = 0; i < s->nnotes; i++)
        printf("note: %s\n", s->notes[i]);
    {
        double la[1] = {0};
        getloadavg(la, 1);
        printf("elapsed %.1f s (1-min load average %.2f at start, %.2f at end, %d CPUs)\n",
               elapsed, s->m.loadavg1, la[0], s->m.cpus_online);
        if (s->m.loadavg1 > 0.5 * s->m.cpus_online || la[0] > 0.5 * s->m.cpus_online)
            printf("warning: other processes were running (load average above half the CPUs): "
                   "the figures are noisy; compare ratios measured in the same run\n");
    }
    /* every file written before any is published: a failure leaves none */
    if (s->o.csv && (rc = write_csv(s, &csv_of, s->o.csv)))
        goto done;
    have_csv = s->o.csv != NULL;
    if (s->o.json && (rc = write_json(s, &json_of, s->o.json, elapsed)))
        goto done;
    have_json = s->o.json != NULL;
    if (s->o.plot) {
        char title[300];
        snprintf(title, sizeof title, "%s, %d CPUs", s->m.cpu_name, s->m.cpus_online);
        rc = ps_cli_bench_plots(s->rows, s->nrows, s->o.plot, s->o.format, s->o.log_axes, title,
                                s->o.force);
        if (rc)
            goto done;
    }
    if (have_csv) {
        have_csv = 0; /* published, or removed by the failed publish */
        if (ps_outfile_publish(&csv_of))
            rc = ps_cli_error("%s", ps_error_detail());
    }
    if (!rc && have_json) {
        have_json = 0;
        if (ps_outfile_publish(&json_of))
            rc = ps_cli_error("%s", ps_error_detail());
    }
done:
    if (have_csv)
        ps_outfile_abort(&csv_of);
    if (have_json)
        ps_outfile_abort(&json_of);
    for (i = 0; i < s->nbe; i++)
        ps_backend_close(s->be[i].b);
    rmdir(s->tmpdir);
    free(s);
    return rc;
}
