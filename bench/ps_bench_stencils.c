/*
 * `pstencil bench --stencils`: every stencil of the registry on every
 * backend named, through its generic path and, where the backend has one,
 * its fast path, on the built-in ocean (its coordinates for stencils that
 * need them): the median time per step over interleaved repeats (each
 * repeat runs every case once, so a change of load hits them alike) as
 * ms/step and Gcell/s, with the min-max range, the process CPU time per
 * step (with one thread, the figure a loaded machine disturbs least), the
 * time against the base case of its backend (the first stencil of the
 * registry on its fast path, else its generic one: the median of the
 * repeats' ratios, each repeat's pair measured side by side), and each
 * case's checksum against the generic path's (exact mode: they must agree).
 */
#include "config.h"
#include "ps_bench.h"
#include "ps_plugin.h"
#include "pstencil_io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PSB_MAX_CASES 64

typedef struct psb_case {
    ps_backend *b;
    const ps_stencil *s;
    ps_kernel kernel;
    ps_params params;
    double ms[64];
    double cpu[64]; /* process CPU ms per step */
    uint64_t sum;
    int failed;
} psb_case;

/* the base case of case @p c's backend: the registry's first stencil, on its
 * fast path where that ran, else generic; -1 if neither ran */
static int base_case(const psb_case *cases, int nc, const psb_case *c)
{
    int k, base = -1;
    for (k = 0; k < nc; k++)
        if (cases[k].b == c->b && cases[k].s == ps_stencil_at(0) && !cases[k].failed &&
            (base < 0 || cases[k].kernel == PS_KERNEL_FAST))
            base = k;
    return base;
}

/* one timed run of a case: create, upload, one warm-up step, then steps */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run_case(psb_case *c, const ps_bench_stencils_options *o, const ps_field *in,
                    void *out, double *ms, double *cpu)
{
    ps_config cfg;
    ps_context *ctx = NULL;
    double t0, c0;
    int st;
    ps_config_init(&cfg, in->grid, in->precision);
    cfg.mode = o->mode;
    cfg.stencil = c->s;
    cfg.params = c->params;
    cfg.threads = o->threads;
    if ((st = ps_backend_kernel_check(c->b, c->s->name, c->kernel)))
        return st;
    cfg.kernel = c->kernel;
    if ((st = ps_context_create(c->b, &cfg, &ctx)))
        return st;
    st = ps_context_upload(ctx, in->data, NULL);
    if (!st)
        st = ps_context_step(ctx, 1);
    if (!st)
        st = ps_context_finish(ctx);
    t0 = ps_now();
    c0 = cpu_now();
    if (!st)
        st = ps_context_step(ctx, o->steps);
    if (!st)
        st = ps_context_finish(ctx);
    *ms = (ps_now() - t0) * 1e3 / (double)o->steps;
    *cpu = (cpu_now() - c0) * 1e3 / (double)o->steps;
    if (!st)
        st = ps_context_download(ctx, out, NULL);
    ps_context_destroy(ctx);
    return st;
}

int ps_bench_stencils(const ps_bench_stencils_options *o, FILE *f)
{
    ps_ocean_options oo;
    ps_dataset ds;
    ps_grid_coords gc;
    ps_field f32, in, work;
    psb_case cases[PSB_MAX_CASES];
    int nc = 0, i, bi, si, k, r, st;
    size_t cells;
    memset(&ds, 0, sizeof ds);
    memset(&gc, 0, sizeof gc);
    memset(&in, 0, sizeof in);
    memset(&work, 0, sizeof work);
    memset(cases, 0, sizeof cases);
    if (o->repeat < 1 || o->repeat > 64 || o->steps < 1)
        return ps_error(PS_EINVAL, "bench --stencils: --repeat 1..64 and --steps >= 1");
    ps_ocean_defaults(&oo);
    oo.scale = o->scale;
    oo.ntime = 1;
    if ((st = ps_ocean_generate(&oo, 0, &ds, &f32)))
        return st;
    st = ps_dataset_coords(&ds, &gc);
    if (!st && o->precision != PS_FLOAT32) {
        st = ps_field_alloc(&in, f32.grid, o->precision);
        if (!st)
            st = ps_field_convert(&in, &f32);
        ps_field_free(&f32);
    } else {
        in = f32;
    }
    if (!st)
        st = ps_field_alloc(&work, in.grid, in.precision);
    cells = in.grid.nz * in.grid.ny * in.grid.nx;
    /* the cases: backend x stencil x (generic, fast where the backend has one) */
    for (bi = 0; !st && bi < o->nbackends; bi++) {
        ps_backend *b;
        if ((st = ps_backend_open(o->backends[bi], &b)))
            break;
        for (si = 0; !st && si < ps_stencil_count(); si++) {
            const ps_stencil *s = ps_stencil_at(si);
            ps_params p;
            ps_stencil_report rep;
            int g;
            /* default options; currents: the built-in ocean's gyre (ps_currents.h) */
            if ((st = ps_currents_prepare(s, &in, gc.depth, gc.lat, gc.lon, &p, &rep)))
                break;
            for (g = 0; g < 2 && nc < PSB_MAX_CASES; g++) {
                ps_kernel kk = g ? PS_KERNEL_FAST : PS_KERNEL_GENERIC;
                if (g && ps_backend_kernel_check(b, s->name, kk))
                    continue; /* no fast path */
                cases[nc].b = b;
                cases[nc].s = s;
                cases[nc].kernel = kk;
                cases[nc].params = p;
                nc++;
            }
        }
    }
    /* interleaved repeats */
    for (r = 0; !st && r < o->repeat; r++)
        for (i = 0; i < nc; i++) {
            psb_case *c = &cases[i];
            if (c->failed)
                continue;
            if ((k = run_case(c, o, &in, work.data, &c->ms[r], &c->cpu[r]))) {
                /* PS_EUNSUPPORTED: a fast path without a kernel for this config */
                c->failed = 1;
                fprintf(f, "  %s %s %s: %s%s\n", ps_backend_name(c->b), c->s->name,
                        ps_kernel_name(c->kernel), k == PS_EUNSUPPORTED ? "skipped: " : "",
                        ps_error_detail());
                continue;
            }
            c->sum = ps_field_checksum(&work);
        }
    if (!st) {
        fprintf(f, "stencils: built-in ocean %zu x %zu x %zu (%zu cells), %s, %s mode, "
                "%ld steps, %ld interleaved repeats (median, min-max)\n",
                in.grid.nz, in.grid.ny, in.grid.nx, cells, ps_precision_name(in.precision),
                ps_mode_name(o->mode), o->steps, o->repeat);
        fprintf(f, "  x base: time against %s on the backend's fast path (else generic), "
                "the median of the repeats' ratios\n", ps_stencil_at(0)->name);
        fprintf(f, "  %-10s %-11s %-8s %10s %9s %19s %9s %7s  %s\n", "backend", "stencil",
                "kernel", "ms/step", "Gcell/s", "range ms/step", "cpu ms", "x base",
                "checksum");
        for (i = 0; i < nc; i++) {
            psb_case *c = &cases[i];
            double m[64], med, cm;
            char xb[16] = "n/a";
            const char *agree = "";
            const int base = base_case(cases, nc, c);
            if (c->failed)
                continue;
            if (base >= 0) {
                for (r = 0; r < o->repeat; r++)
                    m[r] = c->ms[r] / cases[base].ms[r];
                snprintf(xb, sizeof xb, "%.2fx", ps_plugin_median(m, (size_t)o->repeat));
            }
            memcpy(m, c->cpu, sizeof(double) * (size_t)o->repeat);
            cm = ps_plugin_median(m, (size_t)o->repeat);
            memcpy(m, c->ms, sizeof(double) * (size_t)o->repeat);
            med = ps_plugin_median(m, (size_t)o->repeat);
            for (k = 0; k < nc; k++)
                if (cases[k].b == c->b && cases[k].s == c->s && !cases[k].failed &&
                    c->kernel == PS_KERNEL_FAST && cases[k].kernel == PS_KERNEL_GENERIC) {
                    agree = cases[k].sum == c->sum ? " (= generic)" : " (differs from generic)";
                    if (cases[k].sum != c->sum && o->mode == PS_MODE_EXACT && !st)
                        st = ps_error(PS_EINTERNAL, "%s: the fast path of %s differs from "
                                      "the generic path in exact mode", ps_backend_name(c->b),
                                      c->s->name);
                }
            fprintf(f, "  %-10s %-11s %-8s %10.3f %9.3f %9.3f-%-9.3f %9.3f %7s  %016llx%s\n",
                    ps_backend_name(c->b), c->s->name, ps_kernel_name(c->kernel), med,
                    (double)cells / med * 1e-6, m[0], m[o->repeat - 1], cm, xb,
                    (unsigned long long)c->sum, agree);
        }
    }
    for (i = 0; i < nc; i++)
        if (i == 0 || cases[i].s != cases[i - 1].s || cases[i].b != cases[i - 1].b)
            ps_params_free(&cases[i].params);
    for (i = 0; i < nc; i++)
        if (i == 0 || cases[i].b != cases[i - 1].b)
            ps_backend_close(cases[i].b);
    ps_field_free(&in);
    ps_field_free(&work);
    ps_grid_coords_free(&gc);
    ps_dataset_close(&ds);
    return st;
}
