/*
 * pstencil stencils: every stencil of the registry (core/ps_stencil.h) with
 * what its kernel file says about it (radius, neighbours, kernel scalars,
 * coefficient arrays, user options, flags) and which backends have a
 * hand-tuned fast path for it, read from each built backend's ops table
 * through the loader. Nothing here names a stencil or a backend.
 */
#include "config.h"
#include "ps_cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ST_MAX_BACKENDS 32

/* What the loader says about one backend. */
typedef struct st_backend {
    const char *name;
    int built;                     /* built into the library or configured as a plugin */
    int loaded;                    /* its ops table could be read */
    const char *const *fast_paths; /* from its ops table (NULL = none) */
    char why[512];                 /* why it cannot load */
    ps_backend *b;                 /* kept open while printing (fast_paths lives in it) */
} st_backend;

static void usage(FILE *f)
{
    fprintf(f, "Usage: pstencil stencils [NAME...] [--help]\n\n"
               "Describe every stencil pstencil was built with (or only those named), as its\n"
               "kernel file kernels/NAME.h states it: radius, neighbours in summation order,\n"
               "kernel scalars, coefficient arrays and the axes they vary along, the options\n"
               "'pstencil run --stencil NAME' accepts (--OPTION VALUE), whether it needs the\n"
               "grid's coordinates, whether it is a test stencil, and which backends have a\n"
               "hand-tuned fast path for it (every backend runs every stencil through its\n"
               "generic skeleton). docs/adding-a-stencil.md describes the format.\n\n"
               "Exit status: 0 ok, 2 unknown stencil or bad option.\n");
}

static int has_fast_path(const st_backend *be, const char *stencil)
{
    const char *const *p;
    for (p = be->fast_paths; p && *p; p++)
        if (!strcmp(*p, stencil))
            return 1;
    return 0;
}

/* "[k]", "[j]", "[k,j,i]": the axes a coefficient array varies along */
static void axes_text(unsigned axes, char *buf, size_t len)
{
    snprintf(buf, len, "[%s%s%s%s%s]", (axes & PS_AXES_K) ? "k" : "",
             (axes & PS_AXES_K) && (axes & (PS_AXES_J | PS_AXES_I)) ? "," : "",
             (axes & PS_AXES_J) ? "j" : "", (axes & PS_AXES_J) && (axes & PS_AXES_I) ? "," : "",
             (axes & PS_AXES_I) ? "i" : "");
}

static void print_stencil(const ps_stencil *s, const st_backend *be, int nbe)
{
    int i, any = 0, unknown = 0;
    printf("%s%s: %s\n", s->name, s == ps_stencil_default() ? " (default)" : "",
           s->description);
    printf("  kernel file : kernels/%s\n", s->kernel_file);
    printf("  radius      : %d\n", s->radius);
    printf("  neighbours  : %d, (dk,dj,di) in summation order:", s->nneighbours);
    for (i = 0; i < s->nneighbours; i++)
        printf(" (%d,%d,%d)", s->offsets[i][0], s->offsets[i][1], s->offsets[i][2]);
    printf("\n  scalars     :");
    for (i = 0; i < s->nscalars; i++)
        printf("%s %s", i ? "," : "", s->scalar_names[i]);
    printf("%s\n  arrays      :", s->nscalars ? "" : " none");
    for (i = 0; i < s->narrays; i++) {
        char ax[16];
        axes_text(s->arrays[i].axes, ax, sizeof ax);
        printf("%s %s%s", i ? "," : "", s->arrays[i].name, ax);
    }
    printf("%s\n  options     :%s\n", s->narrays ? "" : " none", s->noptions ? "" : " none");
    for (i = 0; i < s->noptions; i++) {
        const ps_stencil_option *o = &s->options[i];
        char def[64];
        if (isnan(o->def))
            snprintf(def, sizeof def, "auto");
        else
            snprintf(def, sizeof def, "%g%s", o->def, o->allow_auto ? " (or auto)" : "");
        printf("    --%-8s %-6s default %-12s %s\n", o->name, strcmp(o->unit, "1") ? o->unit : "-",
               def, o->help);
    }
    printf("  inputs      :%s\n", s->ninputs ? "" : " none");
    for (i = 0; i < s->ninputs; i++) {
        const ps_stencil_input *in = &s->inputs[i];
        printf("    %-10s %-6s %-9s %s; standard name %s\n", in->name, in->unit,
               in->required ? "required" : "optional", in->help, in->standard_names);
    }
    printf("  coordinates : %s\n", (s->flags & PS_STENCIL_COORDS)
                                       ? "needed (depth, latitude and longitude of the input)"
                                       : "not needed");
    printf("  test stencil: %s\n", (s->flags & PS_STENCIL_TEST) ? "yes" : "no");
    printf("  land-sum    : %s\n", (s->flags & PS_STENCIL_LAND_SUM)
                                       ? "yes (reads neighbours as their ocean sum and count)"
                                       : "no");
    printf("  fast paths  :");
    for (i = 0; i < nbe; i++)
        if (be[i].loaded && has_fast_path(&be[i], s->name)) {
            printf("%s %s", any ? "," : "", be[i].name);
            any = 1;
        }
    if (!any)
        printf(" none");
    for (i = 0; i < nbe; i++)
        if (be[i].built && !be[i].loaded) {
            printf("%s %s", unknown ? "," : "; not known for (cannot load):", be[i].name);
            unknown = 1;
        }
    printf("\n");
}

int ps_cmd_stencils(int argc, char **argv)
{
    st_backend be[ST_MAX_BACKENDS];
    const char *const *names;
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int nbe = 0, i, a, shown = 0, c;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c != 'h')
            return ps_cli_getopt_error("stencils", c, argv, opts);
        usage(stdout);
        return PS_EXIT_OK;
    }
    /* the names (getopt_long moved them after the options) */
    argv += optind - 1;
    argc -= optind - 1;
    for (a = 1; a < argc; a++)
        if (!ps_stencil_find(argv[a]))
            return ps_cli_error("stencils: unknown stencil '%s' (run 'pstencil stencils' for "
                                "the list)", argv[a]);
    memset(be, 0, sizeof be);
    ps_backend_known(&names, &nbe);
    if (nbe > ST_MAX_BACKENDS)
        nbe = ST_MAX_BACKENDS;
    for (i = 0; i < nbe; i++) {
        be[i].name = names[i];
        be[i].built = ps_backend_is_built(names[i]);
        if (!be[i].built)
            continue;
        if (ps_backend_open(names[i], &be[i].b)) {
            snprintf(be[i].why, sizeof be[i].why, "%s", ps_error_detail());
            continue;
        }
        be[i].loaded = 1;
        be[i].fast_paths = ps_backend_get_ops(be[i].b)->fast_paths;
    }

    printf("pstencil %s: %d stencil%s (every backend runs each through its generic "
           "skeleton)\n", PACKAGE_VERSION, ps_stencil_count(), ps_stencil_count() == 1 ? "" : "s");
    for (i = 0; i < ps_stencil_count(); i++) {
        const ps_stencil *s = ps_stencil_at(i);
        int want = argc <= 1;
        for (a = 1; a < argc; a++)
            want |= !strcmp(argv[a], s->name);
        if (!want)
            continue;
        printf("\n");
        print_stencil(s, be, nbe);
        shown++;
    }
    for (i = 0, a = 0; i < nbe; i++)
        if (be[i].built && !be[i].loaded)
            printf("%s  %s: %s\n", a++ ? "" : "\nBuilt backends that cannot load here:\n",
                   be[i].name, be[i].why);
    for (i = 0; i < nbe; i++)
        if (be[i].b)
            ps_backend_close(be[i].b);
    return shown ? PS_EXIT_OK : PS_EXIT_USAGE;
}
