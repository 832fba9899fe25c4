/*
 * pstencil tune: measure the openmp backend's fused steps and tile heights
 * on this machine and grid, for one stencil and kernel path, and store the
 * fastest in the tuning cache (core/ps_tunecache.h) that the backend reads
 * when it creates a context (the generic path's key names the stencil).
 *
 * A candidate reaches the backend as the knobs openmp_tblock and openmp_tj
 * of its config (core/ps_knobs.h), the rule's candidate as those knobs set
 * to PS_KNOB_RULE; the tuning cache is skipped (so tuning never reads the
 * cache it writes); the values the context really uses come back through
 * ps_context_describe().
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_currents.h"
#include "ps_tunecache.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_MAX 64 /* candidates */

static const int tune_steps_fused[] = {0, 2, 3, 4, 5, 6, 8, 12, 16};

typedef struct tune_args {
    const char *input, *var;
    const ps_stencil *stencil;
    ps_kernel kernel;
    long time_index, threads, steps, repeat;
    double scale;
    ps_precision precision;
    int dry_run;
} tune_args;

typedef struct candidate {
    long t, tj;       /* asked for */
    long got_t, got_tj; /* what the context used (PS_DESCRIBE_TUNE_VALUES) */
    int rule;          /* the backend's own choice (no variables, no cache) */
    double ms[32];     /* per repeat, ms per step */
    double med, best;
} candidate;

static void tune_usage(FILE *f)
{
    fprintf(f,
        "Usage: pstencil tune [INPUT.nc] [OPTIONS]\n\n"
        "Measure the openmp backend's fused steps (0 = single-step sweeps, or 1 on the\n"
        "generic path, 2, 3, 4, 5, 6, 8, 12, 16) and tile heights (the backend's rule,\n"
        "16, 32, 64 and the rows per thread) on this machine for one grid, stencil and\n"
        "kernel path, in exact mode, and store the fastest in the tuning cache:\n"
        "$PSTENCIL_TUNE_FILE, else $XDG_CACHE_HOME/pstencil/" PS_TUNE_OPENMP_FILE ",\n"
        "else ~/.cache/pstencil/" PS_TUNE_OPENMP_FILE ". 'pstencil run' on the openmp\n"
        "backend then uses that choice for the same CPU, thread count, grid, precision,\n"
        "row kernels and (generic path) stencil, over PSTENCIL_OPENMP_TBLOCK / _TJ\n"
        "(docs/knobs.md). Every candidate's result must be bitwise equal to the\n"
        "first's, or nothing is stored.\n\n"
        "  -i, --input FILE        the grid of FILE (default: the built-in ocean); alias\n"
        "                          --data-file, or FILE as the only argument\n"
        "      --var NAME          the temperature variable of FILE\n"
        "      --time-index I      time record of FILE (default 0)\n"
        "      --scale S           the built-in ocean at S times its resolution (as\n"
        "                          'pstencil gen --scale S'; not with an input file)\n"
        "  -s, --stencil NAME      the stencil (default: the first of 'pstencil\n"
        "                          stencils'), its default options; currents, where it\n"
        "                          takes them: the built-in gyre\n"
        "      --kernel K          auto (default: the fast path where the backend has\n"
        "                          one for the stencil), generic or fast\n"
        "  -p, --precision P       float (default) or double\n"
        "  -t, --threads N         CPU threads (default OMP_NUM_THREADS): tune with the\n"
        "                          count the runs will use\n"
        "  -n, --steps N           steps per measurement (default 120: a multiple of\n"
        "                          every fused count)\n"
        "  -r, --repeat N          rounds; the candidates take turns in each round and\n"
        "                          are ranked by their median (default 5)\n"
        "      --dry-run           measure and print, store nothing (alias --no-write)\n"
        "  -h, --help              this help\n\n"
        "It takes about (candidates x rounds x steps) steps: some 15 s on the built-in\n"
        "ocean with 2 threads; use fewer --steps on a large grid.\n"
        "Exit status: 0 ok, 1 a candidate's result differed (nothing stored), 2 usage or\n"
        "input error (nothing stored).\n");
}

static int parse_args(int argc, char **argv, tune_args *a)
{
    static const struct option opts[] = {
        {"input", required_argument, NULL, 'i'},     {"data-file", required_argument, NULL, 'i'},
        {"var", required_argument, NULL, 'v'},
        {"time-index", required_argument, NULL, 'T'}, {"scale", required_argument, NULL, 'x'},
        {"stencil", required_argument, NULL, 's'},   {"kernel", required_argument, NULL, 'K'},
        {"precision", required_argument, NULL, 'p'}, {"threads", required_argument, NULL, 't'},
        {"steps", required_argument, NULL, 'n'},     {"repeat", required_argument, NULL, 'r'},
        {"dry-run", no_argument, NULL, 'D'},         {"no-write", no_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0}};
    int c;
    memset(a, 0, sizeof *a);
    a->steps = 120;
    a->repeat = 5;
    a->precision = PS_FLOAT32;
    a->stencil = ps_stencil_default();
    a->kernel = PS_KERNEL_AUTO;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":i:s:p:t:n:r:h", opts, NULL)) != -1) {
        switch (c) {
        case 'i': a->input = optarg; break;
        case 'v': a->var = optarg; break;
        case 'T':
            if (ps_cli_parse_long("--time-index", optarg, 0, LONG_MAX, &a->time_index))
                return PS_EXIT_USAGE;
            break;
        case 's':
            if (!(a->stencil = ps_stencil_find(optarg)))
                return ps_cli_error("--stencil: unknown stencil '%s' (run 'pstencil stencils' "
                                    "for the list)", optarg);
            break;
        case 'K':
            if (ps_kernel_parse(optarg, &a->kernel))
                return ps_cli_error("--kernel: %s", ps_error_detail());
            break;
        case 'x':
            if (ps_cli_parse_double("--scale", optarg, &a->scale))
                return PS_EXIT_USAGE;
            if (!(a->scale > 0) || a->scale > 1000)
                return ps_cli_error("--scale: %s is out of range (0 < S <= 1000)", optarg);
            break;
        case 'p':
            if (ps_precision_parse(optarg, &a->precision))
                return ps_cli_error("--precision: %s", ps_error_detail());
            break;
        case 't':
            if (ps_cli_parse_long("--threads", optarg, 1, PS_THREADS_MAX, &a->threads))
                return PS_EXIT_USAGE;
            break;
        case 'n':
            if (ps_cli_parse_long("--steps", optarg, 1, 1000000, &a->steps))
                return PS_EXIT_USAGE;
            break;
        case 'r':
            if (ps_cli_parse_long("--repeat", optarg, 1, 32, &a->repeat))
                return PS_EXIT_USAGE;
            break;
        case 'D': a->dry_run = 1; break;
        case 'h': tune_usage(stdout); return -1;
        default: return ps_cli_getopt_error("tune", c, argv, opts);
        }
    }
    if (optind < argc && !a->input)
        a->input = argv[optind++];
    if (optind < argc)
        return ps_cli_error("unexpected argument '%s' (see 'pstencil tune --help')",
                            argv[optind]);
    if (a->input && a->scale > 0)
        return ps_cli_error("--scale applies to the built-in ocean, not to %s", a->input);
    if (!a->input && (a->var || a->time_index))
        return ps_cli_error("--var and --time-index need an input file");
    return 0;
}

/* The field to tune on and its coordinates: the input file's record, or the
 * built-in ocean. */
static int load_field(const tune_args *a, ps_field *f, ps_grid_coords *gc, char *what,
                      size_t len)
{
    ps_ocean_options oo;
    ps_dataset ds;
    ps_field f32;
    int st;
    memset(&ds, 0, sizeof ds);
    ds.ncid = -1;
    if (a->input) {
        snprintf(what, len, "%s", a->input);
        st = ps_dataset_open(&ds, a->input, a->var);
        if (!st && (size_t)a->time_index >= ds.ntime)
            st = ps_error(PS_ERANGE, "--time-index %ld: the file has %zu time record%s",
                          a->time_index, ds.ntime, ds.ntime == 1 ? "" : "s");
        if (!st)
            st = ps_dataset_check_memory(&ds, a->precision, 4);
        if (!st)
            st = ps_dataset_read(&ds, (size_t)a->time_index, a->precision, f);
        if (!st && (st = ps_field_check_ocean(&ds, (size_t)a->time_index, f, 0, NULL, NULL)))
            ps_field_free(f);
        if (!st && (st = ps_dataset_coords(&ds, gc)))
            ps_field_free(f);
        ps_dataset_close(&ds);
        return st ? ps_cli_status_error(st, a->input) : 0;
    }
    ps_ocean_defaults(&oo);
    if (a->scale > 0)
        oo.scale = a->scale;
    oo.ntime = 1;
    snprintf(what, len, "built-in ocean, scale %g", oo.scale);
    st = ps_ocean_generate(&oo, 0, &ds, &f32);
    if (!st && (st = ps_dataset_coords(&ds, gc)))
        ps_field_free(&f32);
    ps_dataset_close(&ds);
    if (st)
        return ps_cli_status_error(st, "built-in ocean");
    if (a->precision == PS_FLOAT32) {
        *f = f32;
        return 0;
    }
    st = ps_field_alloc(f, f32.grid, a->precision);
    if (!st)
        st = ps_field_convert(f, &f32);
    ps_field_free(&f32);
    if (st)
        ps_grid_coords_free(gc);
    return st ? ps_cli_status_error(st, "built-in ocean") : 0;
}

/* A knob asked for: @p v (v >= 0), or the backend's rule (v < 0). */
static void ask_knob(ps_knob *k, long v)
{
    k->value = v < 0 ? 0 : v;
    k->source = v < 0 ? PS_KNOB_RULE : PS_KNOB_OPTION;
}

/* A context for (t, tj) (-1: the rule's); fills *gt, *gtj and the key. */
static int open_ctx(ps_backend *b, const ps_config *base, long t, long tj, ps_context **ctx,
                    long *gt, long *gtj, char *key, size_t keylen)
{
    ps_config cfg = *base;
    const char *v;
    int st, rc;
    cfg.knobs.skip |= PS_KNOBS_SKIP_CACHE; /* the rule, not an earlier tuning */
    ask_knob(&cfg.knobs.openmp_tblock, t);
    ask_knob(&cfg.knobs.openmp_tj, tj);
    st = ps_context_create(b, &cfg, ctx);
    if (st)
        return ps_cli_status_error(st, "openmp context");
    v = ps_context_describe(*ctx, PS_DESCRIBE_TUNE_VALUES);
    if (key)
        snprintf(key, keylen, "%s", ps_context_describe(*ctx, PS_DESCRIBE_TUNE_KEY));
    if (sscanf(v, "%ld %ld", gt, gtj) != 2) {
        rc = ps_cli_error("the openmp backend has no fused steps to tune here (%s)",
                          ps_context_describe(*ctx, PS_DESCRIBE_CHOICES));
        ps_context_destroy(*ctx);
        *ctx = NULL;
        return rc;
    }
    return 0;
}

/* One measurement: upload, steps (timed, synchronised), checksum of the result. */
static int measure(ps_backend *b, const ps_config *cfg, const ps_field *in, ps_field *out,
                   candidate *c, long steps, double *ms, uint64_t *sum)
{
    ps_context *ctx = NULL;
    double s;
    int st, rc;
    if ((rc = open_ctx(b, cfg, c->t, c->tj, &ctx, &c->got_t, &c->got_tj, NULL, 0)))
        return rc;
    st = ps_context_time_steps(ctx, in->data, out->data, steps, &s);
    *ms = s * 1e3 / (double)steps;
    ps_context_destroy(ctx);
    if (st)
        return ps_cli_status_error(st, "openmp");
    *sum = ps_field_checksum(out);
    return 0;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int cmp_cand(const void *x, const void *y)
{
    const candidate *a = x, *b = y;
    return (a->med > b->med) - (a->med < b->med);
}

static void add_candidate(candidate *cs, int *n, long t, long tj, int rule)
{
    int i;
    for (i = 0; i < *n; i++)
        if (cs[i].t == t && (t == 0 || cs[i].tj == tj)) {
            cs[i].rule |= rule;
            return;
        }
    if (*n >= TUNE_MAX || tj < 1)
        return;
    memset(&cs[*n], 0, sizeof cs[*n]);
    cs[*n].t = t;
    cs[*n].tj = tj;
    cs[*n].rule = rule;
    (*n)++;
}

/* The candidates: per fused count, the rule's tile height and a few others. */
static int list_candidates(ps_backend *b, const ps_config *cfg, int threads, candidate *cs,
                           int *n, char *key, size_t keylen)
{
    const long nj = cfg->box.extent.ny > 2 ? (long)cfg->box.extent.ny - 2 : 1;
    const long fixed[] = {16, 32, 64, (nj + threads - 1) / threads};
    ps_context *ctx = NULL;
    long gt, gtj;
    size_t i, k;
    int rc;
    /* the backend's own choice: the rule (no variables, no cache) */
    if ((rc = open_ctx(b, cfg, -1, -1, &ctx, &gt, &gtj, key, keylen)))
        return rc;
    ps_context_destroy(ctx);
    *n = 0;
    add_candidate(cs, n, gt, gtj, 1);
    for (i = 0; i < sizeof tune_steps_fused / sizeof tune_steps_fused[0]; i++) {
        long t = tune_steps_fused[i], rt, rtj;
        if ((rc = open_ctx(b, cfg, t, -1, &ctx, &rt, &rtj, NULL, 0)))
            return rc;
        ps_context_destroy(ctx);
        if (t == 0 && rt == 0) { /* single-step sweeps: no tiles */
            add_candidate(cs, n, 0, 1, 0);
            continue;
        }
        if (t == 0) { /* a path with no single-step sweep (generic): one step a sweep */
            t = 1;
            if ((rc = open_ctx(b, cfg, t, -1, &ctx, &rt, &rtj, NULL, 0)))
                return rc;
            ps_context_destroy(ctx);
        }
        add_candidate(cs, n, t, rtj, 0);
        for (k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
            add_candidate(cs, n, t, fixed[k] < nj ? fixed[k] : nj, 0);
    }
    return 0;
}

static void print_table(const candidate *cs, int n, double cells)
{
    double rule_med = 0;
    int i;
    for (i = 0; i < n; i++)
        if (cs[i].rule)
            rule_med = cs[i].med;
    printf("  %-5s %-9s %12s %10s %9s %9s\n", "fused", "tile rows", "median ms", "best ms",
           "Gcell/s", "vs rule");
    for (i = 0; i < n; i++) {
        char tj[24];
        if (cs[i].got_t == 0)
            snprintf(tj, sizeof tj, "-");
        else
            snprintf(tj, sizeof tj, "%ld", cs[i].got_tj);
        printf("  %-5ld %-9s %12.4f %10.4f %9.3f %8.3fx%s%s\n", cs[i].got_t, tj, cs[i].med,
               cs[i].best, cells / (cs[i].med * 1e-3) / 1e9,
               rule_med > 0 ? rule_med / cs[i].med : 0.0, i == 0 ? "  <- chosen" : "",
               cs[i].rule ? "  (rule from cache sizes)" : "");
    }
}

int ps_cmd_tune(int argc, char **argv)
{
    tune_args a;
    ps_field in, out;
    ps_backend *b = NULL;
    ps_config cfg;
    ps_grid_coords gc;
    ps_params params;
    ps_stencil_report srep;
    candidate cs[TUNE_MAX];
    char what[4200], path[4096], key[512], header[256];
    uint64_t first = 0;
    double cells, t0;
    long r;
    int n = 0, i, k, st, rc, threads, fast;

    if ((rc = parse_args(argc, argv, &a)))
        return rc < 0 ? PS_EXIT_OK : rc;
    if (ps_tune_cache_path(PS_TUNE_OPENMP_FILE, path, sizeof path))
        path[0] = '\0';
    if (!a.dry_run && (st = ps_tune_cache_writable(path)))
        return ps_cli_error("%s", ps_error_detail());
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    memset(&gc, 0, sizeof gc);
    memset(&params, 0, sizeof params);
    if ((rc = load_field(&a, &in, &gc, what, sizeof what)))
        return rc;
    ps_config_init(&cfg, in.grid, a.precision);
    /* the stencil's default options; currents: the built-in gyre (ps_currents.h) */
    if ((st = ps_currents_prepare(a.stencil, &in, gc.depth, gc.lat, gc.lon, &params, &srep)))
        rc = ps_cli_status_error(st, a.stencil->name);
    else if ((st = ps_field_alloc(&out, in.grid, in.precision)))
        rc = ps_cli_status_error(st, "tune");
    else if ((st = ps_backend_open("openmp", &b)))
        rc = ps_cli_status_error(st, "openmp backend");
    else if ((st = ps_backend_kernel_generic(b, a.stencil->name, a.kernel, &cfg.generic)))
        rc = ps_cli_status_error(st, "--kernel");
    ps_grid_coords_free(&gc);
    if (rc) {
        ps_backend_close(b);
        ps_params_free(&params);
        ps_field_free(&in);
        ps_field_free(&out);
        return rc;
    }
    {
        int g; /* which path auto takes: the generic one where there is no fast path */
        fast = !cfg.generic && !ps_backend_kernel_generic(b, a.stencil->name, PS_KERNEL_FAST, &g);
    }
    cfg.stencil = a.stencil;
    cfg.params = params;
    cfg.threads = (int)a.threads;
    threads = (int)a.threads;
    if (!threads) { /* the backend's default team (its device's compute units) */
        ps_device_info dev;
        int nd = 0;
        threads = !ps_backend_probe(b, &dev, 1, &nd) && nd > 0 ? dev.compute_units : 1;
    }
    cells = (double)ps_field_cells(&in);

    rc = list_candidates(b, &cfg, threads, cs, &n, key, sizeof key);
    if (!rc)
        printf("pstencil tune: %d candidates x %ld rounds x %ld steps on %zu x %zu x %zu "
               "(%s), %s (%s path), %s, %d thread%s\n", n, a.repeat, a.steps, in.grid.nz,
               in.grid.ny, in.grid.nx, what, a.stencil->name, fast ? "fast" : "generic",
               ps_precision_name(a.precision), threads, threads == 1 ? "" : "s");
    fflush(stdout);
    t0 = ps_now();
    /* rounds: every candidate once per round, so drift in the machine's load
     * falls on all of them; each round starts further along the list, so no
     * candidate always runs first or last in a round */
    for (r = 0; !rc && r < a.repeat; r++)
        for (k = 0; !rc && k < n; k++) {
            uint64_t sum = 0;
            i = (int)((k + r * (n / a.repeat + 1)) % n);
            rc = measure(b, &cfg, &in, &out, &cs[i], a.steps, &cs[i].ms[r], &sum);
            if (!rc && r == 0 && k == 0)
                first = sum;
            else if (!rc && sum != first) {
                ps_cli_error("fused %ld, tiles of %ld rows: checksum 0x%016llx differs from "
                             "the first candidate's 0x%016llx: nothing stored", cs[i].got_t,
                             cs[i].got_tj, (unsigned long long)sum,
                             (unsigned long long)first);
                rc = PS_EXIT_DIFFER;
            }
        }
    ps_backend_close(b);
    ps_params_free(&params);
    ps_field_free(&in);
    ps_field_free(&out);
    if (rc)
        return rc;
    for (i = 0; i < n; i++) {
        double tmp[32];
        memcpy(tmp, cs[i].ms, (size_t)a.repeat * sizeof tmp[0]);
        qsort(tmp, (size_t)a.repeat, sizeof tmp[0], cmp_double);
        cs[i].best = tmp[0];
        cs[i].med = a.repeat % 2 ? tmp[a.repeat / 2]
                                 : 0.5 * (tmp[a.repeat / 2 - 1] + tmp[a.repeat / 2]);
    }
    qsort(cs, (size_t)n, sizeof cs[0], cmp_cand);
    print_table(cs, n, cells);
    printf("  results bitwise equal (checksum 0x%016llx); measured in %.1f s\n",
           (unsigned long long)first, ps_now() - t0);
    printf("  key: %s\n", key);
    if (a.dry_run) {
        printf("  not stored (--dry-run)\n");
        return PS_EXIT_OK;
    }
    {
        ps_tune_entry e;
        e.val[0] = cs[0].got_t;
        e.val[1] = cs[0].got_tj > 0 ? cs[0].got_tj : 1;
        e.ms = cs[0].med;
        snprintf(header, sizeof header,
                 "# pstencil tuning cache of the openmp backend, written by 'pstencil tune'.\n"
                 "# key<TAB>steps fused<TAB>tile rows<TAB>measured ms per step\n");
        if ((st = ps_tune_cache_store(path, key, &e, header)))
            return ps_cli_error("cannot store the tuning: %s", ps_error_detail());
    }
    printf("  stored in %s: %ld steps fused, tiles of %ld rows\n", path, cs[0].got_t,
           cs[0].got_tj);
    return PS_EXIT_OK;
}
