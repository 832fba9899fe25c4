/*
 * pstencil tune: the command-line caller of ps_job_tune() (job/pstencil_job.h,
 * core/ps_tune.h), which measures the openmp backend's fused steps and tile
 * heights on this machine and grid, for one stencil and kernel path, and
 * stores the fastest in the tuning cache the backend reads. This file parses
 * the options into the job and prints the table.
 */
#include "config.h"
#include "ps_cli.h"
#include "pstencil_job.h"
#include "ps_tunecache.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

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

/* The options into job @p j and @p o; -1 after --help. */
static int parse_args(int argc, char **argv, ps_job *j, ps_tune_options *o)
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
    const char *input = NULL;
    int c, st = PS_OK;
    optind = 1;
    opterr = 0;
    while (!st && (c = getopt_long(argc, argv, ":i:s:p:t:n:r:h", opts, NULL)) != -1) {
        switch (c) {
        case 'i': input = optarg; break;
        case 'v': st = ps_job_set(j, "var", optarg); break;
        case 'T': st = ps_job_set(j, "time-index", optarg); break;
        case 'x': st = ps_job_set(j, "scale", optarg); break;
        case 's': st = ps_job_set(j, "stencil", optarg); break;
        case 'K': st = ps_job_set(j, "kernel", optarg); break;
        case 'p': st = ps_job_set(j, "precision", optarg); break;
        case 't': st = ps_job_set(j, "threads", optarg); break;
        case 'n':
            st = ps_parse_long("--steps", optarg, 1, 1000000, &o->steps);
            break;
        case 'r':
            st = ps_parse_long("--repeat", optarg, 1, PS_TUNE_MAX_ROUNDS, &o->rounds);
            break;
        case 'D': o->dry_run = 1; break;
        case 'h': tune_usage(stdout); return -1;
        default: return ps_cli_getopt_error("tune", c, argv, opts);
        }
    }
    if (st)
        return ps_cli_error("%s", ps_error_detail());
    if (optind < argc && !input)
        input = argv[optind++];
    if (optind < argc)
        return ps_cli_error("unexpected argument '%s' (see 'pstencil tune --help')",
                            argv[optind]);
    if (input && (st = ps_job_set(j, "input", input)))
        return ps_cli_error("%s", ps_error_detail());
    return 0;
}

static void print_table(const ps_tune_result *r, double cells)
{
    const double rule_med = r->candidates[r->rule_index].median_ms;
    int i;
    printf("  %-5s %-9s %12s %10s %9s %9s\n", "fused", "tile rows", "median ms", "best ms",
           "Gcell/s", "vs rule");
    for (i = 0; i < r->ncandidates; i++) {
        const ps_tune_candidate *c = &r->candidates[i];
        char tj[24];
        if (c->fused == 0)
            snprintf(tj, sizeof tj, "-");
        else
            snprintf(tj, sizeof tj, "%ld", c->tile_rows);
        printf("  %-5ld %-9s %12.4f %10.4f %9.3f %8.3fx%s%s\n", c->fused, tj, c->median_ms,
               c->best_ms, cells / (c->median_ms * 1e-3) / 1e9,
               rule_med > 0 ? rule_med / c->median_ms : 0.0, i == 0 ? "  <- chosen" : "",
               c->rule ? "  (rule from cache sizes)" : "");
    }
}

int ps_cmd_tune(int argc, char **argv)
{
    ps_tune_options o;
    ps_tune_result *r = calloc(1, sizeof *r);
    const ps_job_report *rep;
    ps_job *j = NULL;
    int rc, st, threads;
    memset(&o, 0, sizeof o);
    if (!r || ps_job_create(&j)) {
        free(r);
        return ps_cli_error("out of memory");
    }
    if ((rc = parse_args(argc, argv, j, &o))) {
        ps_job_destroy(j);
        free(r);
        return rc < 0 ? PS_EXIT_OK : rc;
    }
    st = ps_job_tune(j, &o, r);
    rep = ps_job_get_report(j);
    if (st == PS_EMISMATCH)
        rc = (ps_cli_error("%s", ps_error_detail()), PS_EXIT_DIFFER);
    else if (st)
        rc = ps_cli_error("%s", ps_error_detail());
    if (rc) {
        ps_job_destroy(j);
        free(r);
        return rc;
    }
    threads = rep->threads > 0 ? rep->threads : rep->device.compute_units;
    printf("pstencil tune: %d candidates x %ld rounds x %ld steps on %zu x %zu x %zu (%s), "
           "%s (%s path), %s, %d thread%s\n", r->ncandidates, r->rounds, r->steps,
           rep->grid.nz, rep->grid.ny, rep->grid.nx, rep->input, rep->stencil->name,
           r->fast_path ? "fast" : "generic", ps_precision_name(rep->precision), threads,
           threads == 1 ? "" : "s");
    print_table(r, (double)rep->grid.nz * (double)rep->grid.ny * (double)rep->grid.nx);
    printf("  results bitwise equal (checksum 0x%016llx); measured in %.1f s\n",
           (unsigned long long)r->checksum, r->seconds);
    printf("  key: %s\n", r->key);
    if (r->stored)
        printf("  stored in %s: %ld steps fused, tiles of %ld rows\n", r->path,
               r->candidates[0].fused, r->candidates[0].tile_rows);
    else
        printf("  not stored (--dry-run)\n");
    ps_job_destroy(j);
    free(r);
    return PS_EXIT_OK;
}
