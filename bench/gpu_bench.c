/*
 * gpu_bench: time steps of any backend through the library API alone
 * (ps_backend_open, ps_context_*), on the built-in ocean or a synthetic
 * ocean-like grid of any size, and optionally
 *   --copy      the copy bound, measured with the first case: the same run
 *               with every step replaced by a copy kernel over the
 *               field (knob gpu_kernel=copy, cuda/hip and the mock), so
 *               "fraction of copy bandwidth" is measured
 *               on the same device, the same buffers and the same launch path;
 *   --validate  a comparison with the reference backend after S steps: bitwise
 *               in exact mode; in fast mode the NaN mask identical, every cell
 *               written and max |got - reference| within the numerical
 *               contract's bound (ps_validate_fast_bound);
 *   --cases     several cases on the one field (generated once): each LABEL
 *               [:key=val,...] with kernel=NAME (knob gpu_kernel: the
 *               kernel variant, docs/gpu.md), graph=N (gpu_graph_steps),
 *               pdl=0|1 (gpu_pdl: programmatic dependent launch; docs/knobs.md),
 *               fuse=1|2|4 (gpu_fuse: the generic kernels' steps per launch),
 *               zl=0|1 (gpu_zero_land: the generic kernels' land-sum form),
 *               block=XxY[xK], mode=exact|fast, generic=1, stencil=NAME (any
 *               stencil of the registry with its default options, on synthetic
 *               coordinates and the built-in gyre's currents where it takes
 *               inputs; default the registry's default); each case is timed (and validated)
 *               on its own.
 * Timing: after --warmup steps, steps run until --warmup-ms have passed (the
 * clocks ramp up), then --repeat batches of --steps steps are timed; the
 * median batch gives ms_per_step (min and max reported too).
 * Prints human-readable lines and one "RESULT key=value ..." line per case
 * for scripts (tests/gpu/run-on-gpu.sh). Exit: 0 ok, 1 validation mismatch, 2 usage,
 * 3 the backend cannot run (reason printed).
 */
#include "config.h"
#include "pstencil.h"
#include "ps_currents.h"
#include "ps_validate.h" /* the fast-mode bound */
#ifndef PS_GPU_BENCH_NO_IO
#include "ps_io.h" /* the built-in ocean (libpstencil-io) */
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench_opts {
    const char *backend;
    int device;
    ps_grid grid;
    int ocean;
    double scale;
    long steps, warmup, validate;
    ps_precision prec;
    ps_mode mode;
    int block[3];
    int profile, copy;
    long repeat;
    double warmup_ms;
    const char *cases;
} bench_opts;

/* One case of --cases: a label and what it changes. */
typedef struct bench_case {
    char label[64];
    char kernel[32]; /* knob gpu_kernel, "" = unset (its variable's, or the rule) */
    char graph[16];  /* knob gpu_graph_steps, "" = unset */
    char pdl[4];     /* knob gpu_pdl, "" = unset */
    char fuse[4];    /* knob gpu_fuse, "" = unset */
    char zl[2];      /* knob gpu_zero_land, "" = unset */
    int block[3];
    int mode;        /* -1: the command line's */
    int generic;
    const ps_stencil *stencil; /* NULL: the default stencil (ps_config_init's) */
} bench_case;

/* Parse one case "LABEL[:key=val,...]"; 0 or -1 (message printed). */
static int parse_case(const char *s, bench_case *c)
{
    char buf[256], *p, *tok, *save = NULL;
    memset(c, 0, sizeof *c);
    c->mode = -1;
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    p = strchr(buf, ':');
    if (p)
        *p++ = 0;
    if (!*buf || strlen(buf) >= sizeof c->label)
        return -1;
    strcpy(c->label, buf);
    for (tok = p ? strtok_r(p, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
        char *v = strchr(tok, '=');
        if (!v)
            goto bad;
        *v++ = 0;
        if (!strcmp(tok, "kernel") && strlen(v) < sizeof c->kernel)
            strcpy(c->kernel, v);
        else if (!strcmp(tok, "graph") && strlen(v) < sizeof c->graph)
            strcpy(c->graph, v);
        else if (!strcmp(tok, "pdl") && (!strcmp(v, "0") || !strcmp(v, "1")))
            strcpy(c->pdl, v);
        else if (!strcmp(tok, "fuse") && strlen(v) < sizeof c->fuse)
            strcpy(c->fuse, v);
        else if (!strcmp(tok, "zl") && (!strcmp(v, "0") || !strcmp(v, "1")))
            strcpy(c->zl, v);
        else if (!strcmp(tok, "block")) {
            if (sscanf(v, "%dx%dx%d", &c->block[0], &c->block[1], &c->block[2]) < 2)
                goto bad;
        } else if (!strcmp(tok, "mode") && !strcmp(v, "exact"))
            c->mode = PS_MODE_EXACT;
        else if (!strcmp(tok, "mode") && !strcmp(v, "fast"))
            c->mode = PS_MODE_FAST;
        else if (!strcmp(tok, "generic"))
            c->generic = atoi(v) != 0;
        else if (!strcmp(tok, "stencil")) {
            if (!(c->stencil = ps_stencil_find(v))) {
                fprintf(stderr, "gpu_bench: stencil '%s' is not in this build's list\n", v);
                return -1;
            }
        } else
            goto bad;
    }
    return 0;
bad:
    fprintf(stderr, "gpu_bench: bad case '%s' (LABEL[:kernel=NAME,graph=N,pdl=0|1,"
                    "fuse=1|2|4,zl=0|1,block=XxY[xK],mode=exact|fast,generic=1,stencil=NAME])\n", s);
    return -1;
}

/* Set knob @p name to @p v ("": leave it to its variable or the rule); -1 if bad. */
static int case_knob(ps_knobs *k, const char *name, const char *v)
{
    char a[96];
    if (!*v)
        return 0;
    snprintf(a, sizeof a, "%s=%s", name, v);
    if (ps_knobs_set(k, a)) {
        fprintf(stderr, "gpu_bench: %s\n", ps_error_detail());
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: gpu_bench [--backend NAME] [--device N] [--grid NZxNYxNX | --ocean "
            "[--scale S]]\n"
            "                 [--steps N] [--warmup N] [--precision float32|float64] "
            "[--mode exact|fast]\n"
            "                 [--block X,Y[,K]] [--profile] [--copy] [--validate STEPS]\n");
}

/* Synthetic ocean: warm surface cooling with depth, a continent and islands
 * (NaN), deterministic. Same shape rules as the course's data. */
static void synth(float *t, ps_grid g)
{
    long k;
    size_t j, i;
#ifdef _OPENMP /* 400M cells: seconds on one core, a fraction with all of them */
#pragma omp parallel for private(j, i) schedule(static)
#endif
    for (k = 0; k < (long)g.nz; k++)
        for (j = 0; j < g.ny; j++) {
            double y = (double)j / (double)(g.ny > 1 ? g.ny - 1 : 1);
            for (i = 0; i < g.nx; i++) {
                double x = (double)i / (double)(g.nx > 1 ? g.nx - 1 : 1);
                double land = 0.55 - 0.4 * sin(6.3 * x) * cos(4.1 * y) - 0.004 * (double)k;
                size_t h = ((size_t)k * 2654435761u) ^ (j * 40503u) ^ (i * 9973u);
                float v = (float)(2.0 + 26.0 * exp(-(double)k / 10.0) * (1.0 - 0.6 * y) +
                                  0.01 * (double)(h % 97));
                t[((size_t)k * g.ny + j) * g.nx + i] = (land < 0.1 || h % 211 == 0) ? NAN : v;
            }
        }
}

static int parse_grid(const char *s, ps_grid *g)
{
    unsigned long a, b, c;
    char tail;
    if (sscanf(s, "%lux%lux%lu%c", &a, &b, &c, &tail) != 3 || !a || !b || !c)
        return -1;
    g->nz = a;
    g->ny = b;
    g->nx = c;
    return 0;
}

/* Upload, warm up (warmup steps, then until warmup_ms have passed), time
 * `repeat` batches of `steps` steps; the median, min and max ms per step
 * (wall time of a batch, device work included, / steps). */
static int timed_run(ps_backend *b, const ps_config *cfg, const void *in, long warmup,
                     double warmup_ms, long steps, long repeat, double ms_step[3],
                     ps_timing *tim, ps_knobs *used)
{
    ps_context *ctx = NULL;
    double t0, t1, *ms = NULL;
    long r, n;
    int st;
    if (!(ms = malloc((size_t)repeat * sizeof *ms)))
        return PS_ENOMEM;
    if ((st = ps_context_create(b, cfg, &ctx)))
        goto done;
    ps_context_knobs(ctx, used); /* all unset where the backend reports none */
    if ((st = ps_context_upload(ctx, in, NULL)) || (st = ps_context_step(ctx, warmup)) ||
        (st = ps_context_finish(ctx)))
        goto done;
    t0 = ps_now();
    for (n = steps; (ps_now() - t0) * 1e3 < warmup_ms; n = n < (1L << 20) ? 2 * n : n)
        if ((st = ps_context_step(ctx, n)) || (st = ps_context_finish(ctx)))
            goto done;
    for (r = 0; r < repeat; r++) {
        t0 = ps_now();
        if ((st = ps_context_step(ctx, steps)) || (st = ps_context_finish(ctx)))
            goto done;
        t1 = ps_now();
        ms[r] = (t1 - t0) * 1e3 / (double)steps;
    }
    qsort(ms, (size_t)repeat, sizeof *ms, cmp_double);
    ms_step[0] = repeat % 2 ? ms[repeat / 2] : 0.5 * (ms[repeat / 2 - 1] + ms[repeat / 2]);
    ms_step[1] = ms[0];
    ms_step[2] = ms[repeat - 1];
    memset(tim, 0, sizeof *tim);
    if (ps_context_timing(ctx, tim))
        memset(tim, 0, sizeof *tim);
done:
    free(ms);
    ps_context_destroy(ctx);
    return st;
}

/* The kernel variant a context used: "default" unless a knob asked for one. */
static const char *kernel_word(const ps_knobs *used)
{
    static char w[32];
    const ps_knob_info *in = ps_knob_find("gpu_kernel");
    if (used->gpu_kernel.source == PS_KNOB_UNSET || used->gpu_kernel.source == PS_KNOB_RULE ||
        !in)
        return "default";
    return ps_knob_format(used, in, w, sizeof w);
}

static int run_steps(ps_backend *b, const ps_config *cfg, const void *in, long steps, void *out)
{
    ps_context *ctx = NULL;
    int st;
    if (!(st = ps_context_create(b, cfg, &ctx)) && !(st = ps_context_upload(ctx, in, NULL)) &&
        !(st = ps_context_step(ctx, steps)))
        st = ps_context_download(ctx, out, NULL);
    ps_context_destroy(ctx);
    return st;
}

/* Parameters of stencil @p s with its default options on @p in's grid:
 * synthetic coordinates (depths 0 to 5000 m, latitudes -70 to 70, longitudes
 * 0 to 360) and the gyre's currents for its inputs (ps_currents_prepare). */
static int case_params(const ps_stencil *s, const ps_field *in, ps_params *out)
{
    const ps_grid g = in->grid;
    double *depth = malloc(g.nz * sizeof *depth), *lat = malloc(g.ny * sizeof *lat),
           *lon = malloc(g.nx * sizeof *lon);
    ps_stencil_report rep;
    size_t q;
    int st = PS_ENOMEM;
    if (depth && lat && lon) {
        for (q = 0; q < g.nz; q++)
            depth[q] = 5000.0 * (double)q / (double)(g.nz > 1 ? g.nz - 1 : 1);
        for (q = 0; q < g.ny; q++)
            lat[q] = -70.0 + 140.0 * (double)q / (double)(g.ny > 1 ? g.ny - 1 : 1);
        for (q = 0; q < g.nx; q++)
            lon[q] = 360.0 * (double)q / (double)g.nx;
        st = ps_currents_prepare(s, in, depth, lat, lon, out, &rep);
    }
    free(depth);
    free(lat);
    free(lon);
    return st;
}

/* The verdict on @p got against the reference's @p want after @p steps: 1
 * (status mismatch) or 0, with its line printed; @p valid gets the table's word. */
static int verdict(const char *backend, const ps_config *cfg, const ps_field *in,
                   const ps_field *want, const ps_field *got, long steps, const char **valid)
{
    ps_validate_diff d;
    double scale, bound;
    if (cfg->mode == PS_MODE_EXACT) {
        if (memcmp(want->data, got->data, ps_field_cells(got) * ps_precision_size(got->precision))) {
            printf("validate: %s differs from the reference after %ld steps "
                   "(checksums %016llx vs %016llx)\n", backend, steps,
                   (unsigned long long)ps_field_checksum(got),
                   (unsigned long long)ps_field_checksum(want));
            *valid = "no";
            return 1;
        }
        printf("validate: bitwise equal to the reference after %ld steps (checksum %016llx)\n",
               steps, (unsigned long long)ps_field_checksum(got));
        *valid = "yes";
        return 0;
    }
    /* fast mode: the numerical contract's bound, the NaN mask, every cell written */
    if (ps_validate_compare(want, got, &d)) {
        printf("validate: %s\n", ps_error_detail());
        *valid = "no";
        return 1;
    }
    scale = ps_validate_scale(in);
    bound = ps_validate_fast_bound(cfg->stencil, got->precision, steps, scale);
    if (!ps_validate_fast_ok(&d, cfg->stencil, got->precision, steps, scale)) {
        printf("validate: fast mode outside its contract after %ld steps: %llu NaN-mask changes, "
               "%llu unwritten, max |fast - reference| %.3g against the bound %.3g\n", steps,
               (unsigned long long)d.stats.nan_mismatch, (unsigned long long)d.stats.unwritten,
               d.stats.max_abs, bound);
        *valid = "no";
        return 1;
    }
    printf("validate: fast mode within its bound after %ld steps: max |fast - reference| %.3g "
           "(bound %.3g), NaN mask identical\n", steps, d.stats.max_abs, bound);
    *valid = "bound";
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts o = {"cuda", -1, {50, 222, 241}, 0, 1.0, 1000, 20, 0, PS_FLOAT32,
                    PS_MODE_EXACT, {0, 0, 0}, 0, 0, 1, 0.0, NULL};
    ps_backend *b = NULL, *ref = NULL;
    ps_device_info dev[16];
    ps_config cfg;
    ps_field f32 = {{0, 0, 0}, PS_FLOAT32, NULL, 0}, work = {{0, 0, 0}, PS_FLOAT32, NULL, 0};
    ps_field want = {{0, 0, 0}, PS_FLOAT32, NULL, 0}, got = {{0, 0, 0}, PS_FLOAT32, NULL, 0};
    ps_timing tim;
    size_t cells, bytes;
    double gb_step;
    bench_case cases[32];
    double copy0 = 0;
    int a, st, ndev = 0, rc = 0, ci, ncases;
    const char *src = "synthetic";
    const ps_stencil *ref_stencil = NULL; /* whose answer `want` holds */

    memset(&cfg, 0, sizeof cfg);

    for (a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
#define NEED() do { if (!v) { usage(); return 2; } a++; } while (0)
        if (!strcmp(argv[a], "--backend")) { NEED(); o.backend = v; }
        else if (!strcmp(argv[a], "--device")) { NEED(); o.device = atoi(v); }
        else if (!strcmp(argv[a], "--grid")) {
            NEED();
            if (parse_grid(v, &o.grid)) {
                fprintf(stderr, "gpu_bench: bad --grid '%s' (want NZxNYxNX)\n", v);
                return 2;
            }
        }
        else if (!strcmp(argv[a], "--ocean")) o.ocean = 1;
        else if (!strcmp(argv[a], "--scale")) { NEED(); o.scale = atof(v); }
        else if (!strcmp(argv[a], "--steps")) { NEED(); o.steps = atol(v); }
        else if (!strcmp(argv[a], "--warmup")) { NEED(); o.warmup = atol(v); }
        else if (!strcmp(argv[a], "--validate")) { NEED(); o.validate = atol(v); }
        else if (!strcmp(argv[a], "--precision")) {
            NEED();
            if (ps_precision_parse(v, &o.prec)) { fprintf(stderr, "gpu_bench: bad --precision '%s'\n", v); return 2; }
        }
        else if (!strcmp(argv[a], "--mode")) {
            NEED();
            if (ps_mode_parse(v, &o.mode)) { fprintf(stderr, "gpu_bench: bad --mode '%s'\n", v); return 2; }
        }
        else if (!strcmp(argv[a], "--block")) {
            NEED();
            if (sscanf(v, "%d,%d,%d", &o.block[0], &o.block[1], &o.block[2]) < 2) {
                fprintf(stderr, "gpu_bench: bad --block '%s' (want X,Y or X,Y,K)\n", v);
                return 2;
            }
        }
        else if (!strcmp(argv[a], "--profile")) o.profile = 1;
        else if (!strcmp(argv[a], "--copy")) o.copy = 1;
        else if (!strcmp(argv[a], "--repeat")) { NEED(); o.repeat = atol(v); }
        else if (!strcmp(argv[a], "--warmup-ms")) { NEED(); o.warmup_ms = atof(v); }
        else if (!strcmp(argv[a], "--cases")) { NEED(); o.cases = v; }
        else if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) { usage(); return 0; }
        else { fprintf(stderr, "gpu_bench: unknown option '%s'\n", argv[a]); usage(); return 2; }
#undef NEED
    }
    if (o.steps < 1 || o.warmup < 0 || o.validate < 0 || o.repeat < 1 || o.warmup_ms < 0) {
        fprintf(stderr, "gpu_bench: --steps and --repeat must be >= 1, --warmup, --warmup-ms "
                        "and --validate >= 0\n");
        return 2;
    }
    {
        /* the cases: --cases, or one unnamed case (the command line alone) */
        const char *p = o.cases ? o.cases : "";
        char one[256];
        ncases = 0;
        while (*p) {
            size_t l;
            p += strspn(p, " \t\n");
            l = strcspn(p, " \t\n");
            if (!l)
                break;
            if (l >= sizeof one || ncases == (int)(sizeof cases / sizeof *cases)) {
                fprintf(stderr, "gpu_bench: too many or too long --cases\n");
                return 2;
            }
            memcpy(one, p, l);
            one[l] = 0;
            if (parse_case(one, &cases[ncases++]))
                return 2;
            p += l;
        }
        if (!ncases) {
            memset(&cases[0], 0, sizeof cases[0]);
            strcpy(cases[0].label, "-");
            cases[0].mode = -1;
            ncases = 1;
        }
    }

    if ((st = ps_backend_open(o.backend, &b)) || (st = ps_backend_probe(b, dev, 16, &ndev))) {
        printf("gpu_bench: backend %s cannot run: %s\n", o.backend, ps_error_detail());
        printf("RESULT backend=%s status=unavailable\n", o.backend);
        ps_backend_close(b); /* opened but not usable: do not leak it */
        return 3;
    }
    printf("backend %s (%s), device %d: %s [%s]\n", o.backend, ps_backend_path(b),
           o.device < 0 ? 0 : o.device, dev[o.device > 0 && o.device < ndev ? o.device : 0].name,
           dev[o.device > 0 && o.device < ndev ? o.device : 0].detail);

    /* the field: the built-in ocean when the library has it, else synthetic */
#ifdef PS_GPU_BENCH_NO_IO /* a build without io/ (tests/gpu/run-on-gpu.sh without netCDF) */
    if (o.ocean) {
        printf("note: built without io/, no built-in ocean; using a synthetic ocean of the "
               "course's shape\n");
        o.grid.nz = 50;
        o.grid.ny = (size_t)(222 * o.scale + 0.5);
        o.grid.nx = (size_t)(241 * o.scale + 0.5);
    }
#else
    if (o.ocean) {
        ps_ocean_options oo;
        ps_dataset ds;
        memset(&ds, 0, sizeof ds);
        ps_ocean_defaults(&oo);
        oo.scale = o.scale;
        st = ps_ocean_generate(&oo, 0, &ds, &f32);
        if (st == PS_OK) {
            src = "built-in ocean";
            o.grid = f32.grid;
            ps_dataset_close(&ds);
        } else {
            printf("note: built-in ocean unavailable (%s); using a synthetic ocean of the "
                   "course's shape\n", ps_error_detail());
            o.grid.nz = 50;
            o.grid.ny = (size_t)(222 * o.scale + 0.5);
            o.grid.nx = (size_t)(241 * o.scale + 0.5);
        }
    }
#endif
    if (!f32.data) {
        if ((st = ps_field_alloc(&f32, o.grid, PS_FLOAT32))) {
            printf("gpu_bench: %s\n", ps_error_detail());
            return 3;
        }
        synth(f32.data, o.grid);
    }
    if (o.prec == PS_FLOAT64) {
        if ((st = ps_field_alloc(&work, o.grid, PS_FLOAT64)) || (st = ps_field_convert(&work, &f32))) {
            printf("gpu_bench: %s\n", ps_error_detail());
            return 3;
        }
    } else {
        work = f32;
        f32.owns = 0;
    }
    ps_grid_size(&o.grid, o.prec, &cells, &bytes);
    gb_step = 2.0 * (double)bytes / 1e9; /* compulsory traffic: read once, write once */
    printf("grid %zux%zux%zu (%s, %.1f M cells, %s, %s mode): %.1f MB moved per step\n",
           o.grid.nz, o.grid.ny, o.grid.nx, src, cells / 1e6, ps_precision_name(o.prec),
           ps_mode_name(o.mode), gb_step * 1e3);

    if (o.validate > 0 && ((st = ps_backend_open_oracle(&ref)) ||
                           (st = ps_field_alloc(&want, o.grid, o.prec)) ||
                           (st = ps_field_alloc(&got, o.grid, o.prec)))) {
        printf("validate: %s\n", ps_error_detail());
        rc = 3;
        goto done;
    }
    for (ci = 0; ci < ncases; ci++) {
        const bench_case *cs = &cases[ci];
        double ms[3] = {0, 0, 0}, copy_ms[3] = {0, 0, 0};
        ps_knobs used;
        const char *valid = "not-run";
        int crc = 0;
        if (ci)
            ps_params_free(&cfg.params); /* the last case's */
        ps_config_init(&cfg, o.grid, o.prec);
        if (cs->stencil && cs->stencil != cfg.stencil) {
            ps_params_free(&cfg.params);
            cfg.stencil = cs->stencil;
            if ((st = case_params(cs->stencil, &work, &cfg.params))) {
                printf("gpu_bench: %s: %s\n", cs->stencil->name, ps_error_detail());
                printf("RESULT backend=%s case=%s status=error\n", o.backend, cs->label);
                rc = rc ? rc : 3;
                continue;
            }
        }
        if (o.validate > 0 && ref_stencil != cfg.stencil) { /* the reference's answer, once a stencil */
            ps_config rc_cfg = cfg;
            rc_cfg.mode = PS_MODE_EXACT;
            memset(&rc_cfg.knobs, 0, sizeof rc_cfg.knobs);
            ref_stencil = NULL;
            if ((st = run_steps(ref, &rc_cfg, work.data, o.validate, want.data))) {
                printf("validate: %s\n", ps_error_detail());
                rc = 3;
                goto done;
            }
            ref_stencil = cfg.stencil;
        }
        cfg.mode = cs->mode >= 0 ? (ps_mode)cs->mode : o.mode;
        cfg.device = o.device;
        cfg.profile = o.profile;
        cfg.kernel = cs->generic ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
        memcpy(cfg.block, cs->block[0] ? cs->block : o.block, sizeof cfg.block);
        if (case_knob(&cfg.knobs, "gpu_kernel", cs->kernel) ||
            case_knob(&cfg.knobs, "gpu_graph_steps", cs->graph) ||
            case_knob(&cfg.knobs, "gpu_pdl", cs->pdl) ||
            case_knob(&cfg.knobs, "gpu_fuse", cs->fuse) ||
            case_knob(&cfg.knobs, "gpu_zero_land", cs->zl)) {
            rc = 2;
            goto done;
        }
        printf("case %s: %s, kernel %s%s, graph steps %s, block %d,%d,%d, %s mode%s%s%s%s\n",
               cs->label, cfg.stencil->name, *cs->kernel ? cs->kernel : "default",
               !strcmp(cs->pdl, "1") ? "+pdl" : "", *cs->graph ? cs->graph : "default",
               cfg.block[0], cfg.block[1], cfg.block[2], ps_mode_name(cfg.mode),
               cs->generic ? ", generic kernel" : "", *cs->fuse ? ", steps per launch " : "",
               cs->fuse, !strcmp(cs->zl, "0") ? ", land-sum form off" : "");
        if ((st = timed_run(b, &cfg, work.data, o.warmup, o.warmup_ms, o.steps, o.repeat, ms,
                            &tim, &used))) {
            printf("gpu_bench: %s\n", ps_error_detail());
            printf("RESULT backend=%s case=%s status=error\n", o.backend, cs->label);
            rc = rc ? rc : 3;
            continue;
        }
        printf("stencil: median %.5f ms/step (min %.5f, max %.5f; %ld x %ld steps): %.2f "
               "Gcell/s, %.1f GB/s\n", ms[0], ms[1], ms[2], o.repeat, o.steps,
               cells / ms[0] / 1e6, gb_step / ms[0] * 1e3);
        if (tim.steps > 0)
            printf("events: %ld steps, min %.4f, median %.4f, max %.4f ms\n", tim.steps,
                   tim.step_ms_min, tim.step_ms_med, tim.step_ms_max);
        if (o.copy && strcmp(o.backend, "cuda") && strcmp(o.backend, "hip") &&
            strcmp(o.backend, "gpumock")) {
            printf("copy bound: only the GPU backends implement gpu_kernel=copy\n");
        } else if (o.copy && ci > 0) {
            copy_ms[0] = copy0; /* measured once, with the first case */
        } else if (o.copy) {
            ps_config copy_cfg = cfg;
            ps_knobs copy_used;
            ps_knobs_set(&copy_cfg.knobs, "gpu_kernel=copy");
            st = timed_run(b, &copy_cfg, work.data, o.warmup, o.warmup_ms, o.steps, o.repeat,
                           copy_ms, &tim, &copy_used);
            if (st) {
                printf("copy bound: %s\n", ps_error_detail());
                copy_ms[0] = 0;
            } else {
                printf("copy bound: median %.5f ms/step: %.1f GB/s; stencil reaches %.1f%% of "
                       "it\n", copy_ms[0], gb_step / copy_ms[0] * 1e3, 100.0 * copy_ms[0] / ms[0]);
            }
            copy0 = copy_ms[0];
        }
        if (o.validate > 0) {
            if ((st = run_steps(b, &cfg, work.data, o.validate, got.data))) {
                printf("validate: %s\n", ps_error_detail());
                crc = 3;
                valid = "error";
            } else {
                crc = verdict(o.backend, &cfg, &work, &want, &got, o.validate, &valid);
            }
        }
        printf("RESULT backend=%s case=%s stencil=%s kernel=%s%s status=%s grid=%zux%zux%zu cells=%zu "
               "precision=%s mode=%s block=%d,%d,%d steps=%ld repeat=%ld ms_per_step=%.5f "
               "ms_min=%.5f ms_max=%.5f gcells_per_s=%.3f gb_per_s=%.1f copy_ms_per_step=%.5f "
               "copy_gb_per_s=%.1f frac_of_copy=%.3f validated=%s\n",
               o.backend, cs->label, cfg.stencil->name, kernel_word(&used),
               !strcmp(cs->pdl, "1") ? "+pdl" : "", crc == 1 ? "mismatch" : crc ? "error" : "ok", o.grid.nz, o.grid.ny, o.grid.nx,
               cells, ps_precision_name(o.prec), ps_mode_name(cfg.mode), cfg.block[0],
               cfg.block[1], cfg.block[2], o.steps, o.repeat, ms[0], ms[1], ms[2],
               cells / ms[0] / 1e6, gb_step / ms[0] * 1e3, copy_ms[0],
               copy_ms[0] > 0 ? gb_step / copy_ms[0] * 1e3 : 0.0,
               copy_ms[0] > 0 ? copy_ms[0] / ms[0] : 0.0, valid);
        fflush(stdout);
        if (crc && (!rc || crc == 1))
            rc = crc;
    }
done:
    ps_params_free(&cfg.params);
    ps_field_free(&want);
    ps_field_free(&got);
    ps_field_free(&work);
    ps_field_free(&f32);
    ps_backend_close(ref);
    ps_backend_close(b);
    return rc;
}
