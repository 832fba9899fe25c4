/*
 * The stencil registry, generated from the list in kernels/ps_stencils.h:
 * every entry is read from the description macros of its kernel file, so
 * adding a stencil touches nothing here.
 */
#include "config.h"
#include "ps_status.h"
#include "ps_stencil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PS_STENCIL_HOST 1
#include "ps_stencils.h"
#include "ps_skeleton.h"

/* per stencil: offsets, scalar names, arrays, options */
#define REG_OFF(dk, dj, di) {dk, dj, di},
#define REG_SC(name) #name,
#define REG_AR(name, axes) {#name, axes},
#define REG_OPT(n_, u_, d_, a_, lo_, hi_, al_, h_)                                      \
    {.name = #n_, .unit = u_, .def = d_, .allow_auto = a_, .help = h_, .min = lo_,      \
     .max = hi_, .alias = al_},
#define REG_IN(n_, sn_, u_, req_, h_)                                                  \
    {.name = #n_, .standard_names = sn_, .unit = u_, .required = req_, .help = h_},
#define REG_TABLES(NAME)                                                                \
    static const int reg_off_##NAME[][3] = {PS_##NAME##_NEIGHBOURS(REG_OFF){0, 0, 0}};  \
    static const char *const reg_sc_##NAME[] = {PS_##NAME##_SCALARS(REG_SC) NULL};      \
    static const ps_stencil_array reg_ar_##NAME[] = {PS_##NAME##_ARRAYS(REG_AR){NULL, 0}}; \
    static const ps_stencil_option reg_opt_##NAME[] = {                                 \
        PS_##NAME##_OPTIONS(REG_OPT){.name = NULL}};                                 \
    static const ps_stencil_input reg_in_##NAME[] = {PS_##NAME##_INPUTS(REG_IN){.name = NULL}};
PS_STENCIL_LIST(REG_TABLES)

#define REG_LAND_SUM(NAME) | PS_STENCIL_LAND_SUM
#define REG_ENTRY(NAME)                                                                 \
    {                                                                                   \
        .name = #NAME,                                                                  \
        .description = PS_##NAME##_DESCRIPTION,                                         \
        .kernel_file = #NAME ".h",                                                      \
        .radius = PS_##NAME##_RADIUS,                                                   \
        .nneighbours = PS_STENCIL_NNB(NAME),                                            \
        .offsets = reg_off_##NAME,                                                      \
        .nscalars = PS_STENCIL_NSC(NAME),                                               \
        .scalar_names = reg_sc_##NAME,                                                  \
        .narrays = PS_STENCIL_NAR(NAME),                                                \
        .arrays = reg_ar_##NAME,                                                        \
        .noptions = PS_STENCIL_NOPT(NAME),                                              \
        .options = reg_opt_##NAME,                                                      \
        .prepare = ps_##NAME##_prepare,                                                 \
        .flags = PS_##NAME##_FLAGS | (0u PS_##NAME##_LAND_SUM(REG_LAND_SUM)),           \
        .ninputs = PS_STENCIL_NIN(NAME),                                                \
        .inputs = reg_in_##NAME,                                                        \
        .arrays_read = 1,                                                               \
        .arrays_written = 1,                                                            \
    },

static ps_stencil ps_stencils[] = {PS_STENCIL_LIST(REG_ENTRY)};
static int ps_ids_done;

int ps_stencil_count(void)
{
    return (int)(sizeof ps_stencils / sizeof ps_stencils[0]);
}

const ps_stencil *ps_stencil_at(int i)
{
    if (!ps_ids_done) {
        int q;
        for (q = 0; q < ps_stencil_count(); q++)
            ps_stencils[q].id = q;
        ps_ids_done = 1;
    }
    return (i >= 0 && i < ps_stencil_count()) ? &ps_stencils[i] : NULL;
}

const ps_stencil *ps_stencil_find(const char *name)
{
    int i;
    for (i = 0; name && i < ps_stencil_count(); i++)
        if (!strcmp(ps_stencils[i].name, name))
            return ps_stencil_at(i);
    return NULL;
}

const ps_stencil *ps_stencil_default(void)
{
    return ps_stencil_at(0);
}

int ps_stencil_option_index(const ps_stencil *s, const char *name)
{
    int i;
    for (i = 0; s && name && i < s->noptions; i++)
        if (!strcmp(s->options[i].name, name))
            return i;
    return -1;
}

int ps_stencil_input_index(const ps_stencil *s, const char *name)
{
    int i;
    for (i = 0; s && name && i < s->ninputs; i++)
        if (!strcmp(s->inputs[i].name, name))
            return i;
    return -1;
}

int ps_stencil_check_option(const ps_stencil *s, int idx, double v)
{
    const ps_stencil_option *o;
    if (!s || idx < 0 || idx >= s->noptions)
        return ps_error(PS_EINVAL, "no such option");
    o = &s->options[idx];
    if (isnan(v)) {
        if (!o->allow_auto)
            return ps_error(PS_EINVAL, "--%s: 'auto' is not a value of %s's option --%s (give "
                            "a number%s%s)", o->name, s->name, o->name,
                            strcmp(o->unit, "1") ? " in " : "", strcmp(o->unit, "1") ? o->unit : "");
        return PS_OK;
    }
    if (!(v >= o->min && v <= o->max)) {
        char lo[32], hi[32], val[32];
        ps_shortest(v, val, sizeof val);
        ps_shortest(o->min, lo, sizeof lo);
        ps_shortest(o->max, hi, sizeof hi);
        if (o->min <= -1.7e308 && o->max >= 1.7e308)
            return ps_error(PS_EINVAL, "--%s %s: %s's option --%s must be a finite number",
                            o->name, val, s->name, o->name);
        return ps_error(PS_EINVAL, "--%s %s is out of range: %s's option --%s takes %s..%s%s%s",
                        o->name, val, s->name, o->name, lo, hi,
                        strcmp(o->unit, "1") ? " " : "", strcmp(o->unit, "1") ? o->unit : "");
    }
    return PS_OK;
}

int ps_stencil_dimensionless(const ps_stencil *s)
{
    return ps_stencil_option_index(s, "dt") < 0;
}

size_t ps_stencil_array_values(const ps_stencil *s, ps_grid g)
{
    size_t n = 0;
    int a;
    for (a = 0; a < s->narrays; a++) {
        unsigned ax = s->arrays[a].axes;
        n += ((ax & PS_AXES_K) ? g.nz : 1) * ((ax & PS_AXES_J) ? g.ny : 1) *
             ((ax & PS_AXES_I) ? g.nx : 1);
    }
    return n;
}

void ps_stencil_default_options(const ps_stencil *s, double *options)
{
    int i;
    for (i = 0; i < s->noptions; i++)
        options[i] = s->options[i].def;
}

int ps_stencil_prepare(const ps_stencil *s, const ps_stencil_setup *in, ps_params *out,
                       ps_stencil_report *rep)
{
    char why[1024] = "";
    size_t n = ps_stencil_array_values(s, in->grid);
    int st;
    memset(out, 0, sizeof *out);
    memset(rep, 0, sizeof *rep);
    if (n) {
        out->arrays = calloc(n, sizeof *out->arrays);
        if (!out->arrays)
            return ps_error(PS_ENOMEM, "stencil %s: cannot allocate %zu coefficients", s->name,
                            n);
        out->array_values = n;
    }
    st = s->prepare(in, out, rep, why, sizeof why);
    if (st) {
        ps_params_free(out);
        return ps_error(st, "stencil %s: %s", s->name, why[0] ? why : ps_strerror(st));
    }
    return PS_OK;
}

int ps_stencil_prepare_default(const ps_stencil *s, ps_grid g, ps_params *out)
{
    double opts[64];
    ps_stencil_setup in;
    ps_stencil_report rep;
    if (s->noptions > 64)
        return ps_error(PS_EINVAL, "stencil %s has too many options", s->name);
    memset(&in, 0, sizeof in);
    in.grid = g;
    ps_stencil_default_options(s, opts);
    in.options = opts;
    return ps_stencil_prepare(s, &in, out, &rep);
}

void ps_params_free(ps_params *p)
{
    if (!p)
        return;
    free(p->arrays);
    p->arrays = NULL;
    p->array_values = 0;
}
