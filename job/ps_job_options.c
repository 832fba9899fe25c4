/*
 * The table of a job's options: the job's own (below), their other
 * spellings, and every option of every registered stencil (read from the
 * registry, with the one-letter aliases their files declare). A name two
 * stencils share is one row. The table is built once, on first use.
 */
#include "config.h"
#include "pstencil_job.h"

#include <stdlib.h>
#include <string.h>

#define BOXES_PER_RANK "each rank runs one box of the decomposition: give more ranks, or " \
                       "--decomp PKxPJxPI to lay them out"

/* the job's own options; help texts are what `pstencil run --help` prints */
static const ps_job_option job_own[] = {
    {.name = "input", .takes_value = 1, .metavar = "FILE",
     .help = "the input file (default: the built-in ocean)"},
    {.name = "data-file", .alias_of = "input", .takes_value = 1, .metavar = "FILE",
     .help = "the input file (the course's option name)"},
    {.name = "data_file", .alias_of = "input", .takes_value = 1, .metavar = "FILE"},
    {.name = "scale", .takes_value = 1, .metavar = "S",
     .help = "the built-in ocean at S times its horizontal resolution\n"
             "(0 < S <= 1000, as 'pstencil gen --scale S'; not with an input)"},
    {.name = "output", .short_name = 'o', .takes_value = 1, .metavar = "FILE",
     .help = "output file; an existing one is refused without --force"},
    {.name = "steps", .short_name = 'n', .takes_value = 1, .metavar = "N",
     .help = "time steps (default 100)"},
    {.name = "num_timesteps", .alias_of = "steps", .takes_value = 1, .metavar = "N"},
    {.name = "num-timesteps", .alias_of = "steps", .takes_value = 1, .metavar = "N"},
    {.name = "stencil", .short_name = 's', .takes_value = 1, .metavar = "NAME",
     .help = "the stencil to run (default: the first listed below)"},
    {.name = "precision", .short_name = 'p', .takes_value = 1, .metavar = "P",
     .help = "float (default) or double"},
    {.name = "mode", .takes_value = 1, .metavar = "M",
     .help = "exact (default: bitwise equal to the reference) or fast"},
    {.name = "kernel", .takes_value = 1, .metavar = "K",
     .help = "auto (default: the backend's fast path for the stencil where it has one),\n"
             "generic (the path built from the stencil's description) or fast (refused\n"
             "where the backend has no fast path for the stencil, or none for the run's\n"
             "precision, mode or kernel shape)"},
    {.name = "backend", .short_name = 'b', .takes_value = 1, .metavar = "NAME",
     .help = "a backend of 'pstencil backends' or auto (default: $PSTENCIL_BACKEND, else "
             "auto)"},
    {.name = "device", .short_name = 'd', .takes_value = 1, .metavar = "N",
     .help = "device index of the backend (see 'pstencil backends'); under ranks, every "
             "rank's (default: node-local rank modulo the devices)"},
    {.name = "threads", .short_name = 't', .takes_value = 1, .metavar = "N",
     .help = "CPU threads (openmp; default OMP_NUM_THREADS)"},
    {.name = "block", .takes_value = 1, .metavar = "X,Y[,Z]",
     .help = "GPU block / OpenCL work-group shape"},
    {.name = "local-size", .alias_of = "block", .takes_value = 1, .metavar = "X,Y[,Z]"},
    {.name = "var", .takes_value = 1, .metavar = "NAME",
     .help = "the temperature variable (default: found by CF rules)"},
    {.name = "tracers", .takes_value = 1, .metavar = "A,B",
     .help = "several prognostic fields, each a variable of the input (the first is the\n"
             "field read; the same grid and land), stepped by the same stencil and\n"
             "written beside each other, e.g. thetao,so (the built-in ocean has both)"},
    {.name = "velocity", .takes_value = 1, .metavar = "FILE",
     .help = "the currents of a stencil that takes them (u, v, optionally w; found by\n"
             "CF standard name, on the input's grid, converted to m s-1); default: the\n"
             "input file itself, the gyre for the built-in ocean"},
    {.name = "time-index", .takes_value = 1, .metavar = "I",
     .help = "time record of the input to start from (default 0)"},
    {.name = "continue", .takes_value = 1, .metavar = "FILE",
     .help = "go on from the last record of FILE, an earlier run's output: its stencil,\n"
             "parameters and precision, step count and time; the output starts with the\n"
             "first new step (outputs joined with ncrcat have a monotonic time). Options\n"
             "that contradict the recorded ones are refused"},
    {.name = "output-every", .takes_value = 1, .metavar = "K",
     .help = "write a record every K steps (default: initial and final)"},
    {.name = "dt", .takes_value = 1, .metavar = "SECONDS",
     .help = "model seconds per step: record n is at the input record's time + steps * dt,\n"
             "in the input's time units and calendar. Default for a dimensionless stencil\n"
             "(one without a dt option of its own): 1 s per step, so the output keeps the\n"
             "input's date; a stencil with its own --dt takes it as its physical time step"},
    {.name = "compress", .takes_value = 1, .metavar = "N",
     .help = "netCDF-4 deflate level 1..9 (default 0: none)"},
    {.name = "force", .short_name = 'f', .metavar = "",
     .help = "overwrite existing output files"},
    {.name = "allow-unstable", .metavar = "",
     .help = "run option values outside the stencil's stability rule"},
    {.name = "keep-nonfinite", .metavar = "",
     .help = "report infinite ocean values in the input and keep them (default: refused)"},
    {.name = "split", .takes_value = 1, .metavar = "SPEC", .ranks_refusal = BOXES_PER_RANK,
     .help = "decompose the grid into boxes, one context each: PKxPJxPI (e.g. 2x1x1) or a\n"
             "box count N (split to minimise the halo surface); bitwise the one-box result"},
    {.name = "decomp", .takes_value = 1, .metavar = "PKxPJxPI",
     .help = "ranks: the boxes along depth, latitude and longitude (product = the ranks;\n"
             "default: the split of the ranks with the least halo surface)"},
    {.name = "halo", .takes_value = 1, .metavar = "G",
     .help = "ghost layers between boxes (default: twice the stencil's radius; out of\n"
             "core: chosen from the budget); boxes exchange halos every G/radius steps"},
    {.name = "devices", .takes_value = 1, .metavar = "LIST",
     .ranks_refusal = "each rank takes the device node-local rank modulo the devices; "
                      "--device N gives every rank device N",
     .help = "devices of the backend the boxes go to, round-robin: comma-separated\n"
             "indices or 'all' (default: --device)"},
    {.name = "knob", .takes_value = 1, .metavar = "NAME=VALUE",
     .help = "set a backend's tuning knob (docs/knobs.md lists them), over\n"
             "the tuning cache, the environment and the built-in rule; may be repeated"},
    {.name = "max-device-memory", .takes_value = 1, .metavar = "SIZE",
     .ranks_refusal = "a rank's box is not streamed out of core: give more ranks so that "
                      "each box fits its device",
     .help = "device memory budget per context (512M, 4G, none; default: a GPU's memory\n"
             "less 1/8, none on a CPU device): a grid over it streams through in slabs\n"
             "(out of core), bitwise the in-core result"},
};
#define NOWN (sizeof job_own / sizeof job_own[0])

static ps_job_option *table;
static int ntable;

static const ps_job_option *find_in(const ps_job_option *t, int n, const char *name)
{
    int i;
    for (i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return &t[i];
    return NULL;
}

static void build(void)
{
    int i, o, cap = (int)NOWN;
    ps_job_option *t;
    for (i = 0; i < ps_stencil_count(); i++)
        cap += ps_stencil_at(i)->noptions;
    t = calloc((size_t)cap, sizeof *t);
    if (!t)
        return;
    memcpy(t, job_own, sizeof job_own);
    ntable = (int)NOWN;
    for (i = 0; i < ps_stencil_count(); i++) {
        const ps_stencil *s = ps_stencil_at(i);
        for (o = 0; o < s->noptions; o++) {
            const ps_stencil_option *so = &s->options[o];
            ps_job_option *row = (ps_job_option *)find_in(t, ntable, so->name);
            if (row) {
                /* "dt": the job's own for dimensionless stencils, a stencil's time step
                 * for the others; a name two stencils share is one row */
                if (!row->stencil && strcmp(so->name, "dt"))
                    continue; /* shadowed by a job option: ps_job_option_clash() says so */
                if (!row->stencil)
                    row->stencil = s;
                if (!row->short_name && so->alias)
                    row->short_name = so->alias;
                continue;
            }
            t[ntable++] = (ps_job_option){.name = so->name, .short_name = so->alias,
                                          .takes_value = 1, .metavar = "VALUE",
                                          .help = so->help, .stencil = s};
        }
    }
    table = t;
}

int ps_job_option_count(void)
{
    if (!table)
        build();
    return ntable;
}

const ps_job_option *ps_job_option_at(int i)
{
    if (!table)
        build();
    return table && i >= 0 && i < ntable ? &table[i] : NULL;
}

const ps_job_option *ps_job_option_find(const char *name)
{
    if (!table)
        build();
    return table && name ? find_in(table, ntable, name) : NULL;
}

const ps_job_option *ps_job_option_short(char c)
{
    int i;
    if (!table)
        build();
    for (i = 0; table && c && i < ntable; i++)
        if (table[i].short_name == c)
            return &table[i];
    return NULL;
}
