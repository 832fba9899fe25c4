/*
 * pstencil validate: every backend against the oracle, for every stencil, on
 * generated cases (validate/ps_validate.h). Exit 0 if nothing failed, 1 on
 * any failure, 2 on a usage error.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_validate.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    int i;
    fprintf(f,
            "Usage: pstencil validate [OPTIONS]\n\n"
            "Run every available backend and the reference backend from the same generated\n"
            "inputs, for every stencil, and compare: bitwise in exact mode, within a stated\n"
            "error bound in fast mode; the NaN (land) mask must not change and every cell\n"
            "must be written. A backend with a fast path for a stencil is validated on the\n"
            "fast path and on its generic skeleton.\n\n"
            "Options:\n"
            "  --backend NAME[,NAME]  validate these backends (repeatable; default: all known)\n"
            "  --stencil NAME[,NAME]  only these stencils (repeatable; default: all)\n"
            "  --quick                smaller case set, steps 1,2,7\n"
            "  --precision P          float or double (default: both)\n"
            "  --mode M               exact or fast (default: both)\n"
            "  --kernel K             generic (only the generic paths), fast (only the\n"
            "                         backends' fast paths) or auto (default: both)\n"
            "  --steps LIST           step counts (default 1,2,7,50)\n"
            "  --threads LIST         thread counts, for backends that take one (default 1,2,3)\n"
            "  --case NAME[,NAME]     only these cases (repeatable)\n"
            "  --decomp               the decomposition cases instead: every backend split\n"
            "                         into boxes (1x1x2 1x2x1 2x1x1 2x2x2 3x2x1 5x1x1, halos\n"
            "                         1,2,4) and streamed as out-of-core slabs through a tiny\n"
            "                         budget (halos 1,3), bitwise against one box (exact mode;\n"
            "                         steps default 1,5,13)\n"
            "  --list-cases           list the cases and exit\n"
            "  --verbose              one line per comparison\n"
            "  --help                 this text\n\n"
            "Exit status: 0 nothing failed, 1 a comparison failed, 2 usage error.\n"
            "Backends that cannot run here are listed as skipped with the reason.\n\n"
            "Cases:\n");
    for (i = 0; i < ps_validate_case_count(); i++)
        fprintf(f, "  %-18s %s%s\n", ps_validate_case_name(i), ps_validate_case_description(i),
                ps_validate_case_quick(i) ? "" : " (not in --quick)");
}

/* Split a comma list into @p out (pointers into @p s); returns the new count or -1. */
static int split_names(const char *opt, char *s, const char **out, int have, int max)
{
    char *save = NULL, *tok;
    for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (have >= max) {
            ps_cli_error("%s: more than %d names", opt, max);
            return -1;
        }
        out[have++] = tok;
    }
    return have;
}

/* Long options: one line each; a new option adds a line here and a case below. */
enum {
    OPT_BACKEND = 256,
    OPT_STENCIL,
    OPT_QUICK,
    OPT_DECOMP,
    OPT_PRECISION,
    OPT_MODE,
    OPT_KERNEL,
    OPT_STEPS,
    OPT_THREADS,
    OPT_CASE,
    OPT_LIST_CASES,
};

static const struct option validate_options[] = {
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"stencil", required_argument, NULL, OPT_STENCIL},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"decomp", no_argument, NULL, OPT_DECOMP},
    {"precision", required_argument, NULL, OPT_PRECISION},
    {"mode", required_argument, NULL, OPT_MODE},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"case", required_argument, NULL, OPT_CASE},
    {"list-cases", no_argument, NULL, OPT_LIST_CASES},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int ps_cmd_validate(int argc, char **argv)
{
    ps_validate_options o;
    ps_validate_summary s;
    const char *backends[32], *cases[64], *stencils[64];
    long steps[16], thr_l[16];
    int threads[16];
    int nb = 0, nc = 0, ns = 0, st, c, k, n, li = -1;
    memset(&o, 0, sizeof o);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hv", validate_options, &li)) != -1) {
        if (c >= OPT_BACKEND && optarg && !*optarg)
            return ps_cli_error("--%s needs a value", validate_options[li].name);
        switch (c) {
        case 'h':
            usage(stdout);
            return PS_EXIT_OK;
        case 'v':
            o.verbose = 1;
            break;
        case OPT_QUICK:
            o.quick = 1;
            break;
        case OPT_DECOMP:
            o.decomp = 1;
            break;
        case OPT_LIST_CASES:
            for (k = 0; k < ps_validate_case_count(); k++)
                printf("%-18s %s%s\n", ps_validate_case_name(k), ps_validate_case_description(k),
                       ps_validate_case_quick(k) ? "" : " (not in --quick)");
            return PS_EXIT_OK;
        case OPT_BACKEND:
            if ((nb = split_names("--backend", optarg, backends, nb, 32)) < 0)
                return PS_EXIT_USAGE;
            break;
        case OPT_STENCIL:
            if ((ns = split_names("--stencil", optarg, stencils, ns, 64)) < 0)
                return PS_EXIT_USAGE;
            break;
        case OPT_CASE:
            if ((nc = split_names("--case", optarg, cases, nc, 64)) < 0)
                return PS_EXIT_USAGE;
            break;
        case OPT_PRECISION: {
            ps_precision p;
            if (ps_precision_parse(optarg, &p))
                return ps_cli_error("--precision: %s", ps_error_detail());
            o.precisions = p == PS_FLOAT64 ? 2 : 1;
            break;
        }
        case OPT_MODE: {
            ps_mode m;
            if (ps_mode_parse(optarg, &m))
                return ps_cli_error("--mode: %s", ps_error_detail());
            o.modes = m == PS_MODE_FAST ? 2 : 1;
            break;
        }
        case OPT_KERNEL: {
            ps_kernel kk;
            if (ps_kernel_parse(optarg, &kk))
                return ps_cli_error("--kernel: %s", ps_error_detail());
            o.kernels = (int)kk;
            break;
        }
        case OPT_STEPS:
            if ((n = ps_cli_parse_long_list("--steps", optarg, 0, steps, 16)) < 0)
                return PS_EXIT_USAGE;
            for (k = 0; k < n; k++)
                if (steps[k] > 100000)
                    return ps_cli_error("--steps: %ld is too many for validation (max "
                                        "100000)", steps[k]);
            o.steps = steps;
            o.nsteps = n;
            break;
        case OPT_THREADS:
            if ((n = ps_cli_parse_long_list("--threads", optarg, 1, thr_l, 16)) < 0)
                return PS_EXIT_USAGE;
            for (k = 0; k < n; k++) {
                if (thr_l[k] > 1024)
                    return ps_cli_error("--threads: %ld is out of range (1..1024)", thr_l[k]);
                threads[k] = (int)thr_l[k];
            }
            o.threads = threads;
            o.nthreads = n;
            break;
        default:
            return ps_cli_getopt_error("validate", c, argv, validate_options);
        }
    }
    if (optind < argc)
        return ps_cli_error("validate: unexpected argument '%s' (try 'pstencil validate "
                            "--help')", argv[optind]);
    if (nb > 0) {
        o.backends = backends;
        o.nbackends = nb;
    }
    if (nc > 0) {
        o.cases = cases;
        o.ncases = nc;
    }
    if (ns > 0) {
        o.stencils = stencils;
        o.nstencils = ns;
    }
    o.out = stdout;
    st = ps_validate_suite(&o, &s);
    if (st == PS_OK)
        return PS_EXIT_OK;
    if (st == PS_EMISMATCH)
        return PS_EXIT_DIFFER;
    return ps_cli_status_error(st, "validate");
}
