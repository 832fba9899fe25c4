/*
 * Two experiments of `pstencil bench` on the decomposition engine
 * (core/ps_decomp.h, core/ps_ooc.h), on the built-in ocean:
 *
 *  - memory (--memory): host peak RSS and device bytes held against cells,
 *    per backend, at scales 1..N, the runs that went out of core marked;
 *  - decomposition (--decomp): ms/step, the fraction of it in halo
 *    exchanges and bytes exchanged per step for 1, 2, 4 and 8 boxes and
 *    halos 1, 2 and 4, with how many host threads stepped the boxes at once
 *    (a backend with PS_BACKEND_CONCURRENT also gets the same splits one box
 *    after another, "serial", for comparison); then out of core (a budget of a quarter of the grid,
 *    g 1, 4 and the plan's own choice) against in core.
 */
#include "config.h"
#include "ps_bench.h"
#include "pstencil_io.h"
#include "ps_outfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The built-in ocean at @p scale in precision @p p. */
static int ocean(double scale, ps_precision p, ps_field *f)
{
    ps_ocean_options oo;
    ps_field f32;
    int st;
    memset(f, 0, sizeof *f);
    ps_ocean_defaults(&oo);
    oo.scale = scale;
    oo.ntime = 1;
    st = ps_ocean_generate(&oo, 0, NULL, &f32);
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

static int run(ps_backend *b, const ps_field *in, ps_field *work, long steps, int threads,
               const ps_split_options *so, ps_run_stats *st)
{
    ps_config cfg;
    ps_run_options ro;
    int rc;
    ps_config_init(&cfg, in->grid, in->precision);
    cfg.threads = threads;
    memset(&ro, 0, sizeof ro);
    ro.steps = steps;
    memcpy(work->data, in->data, ps_field_cells(in) * ps_precision_size(in->precision));
    rc = ps_run_split(b, &cfg, work, &ro, so, st);
    ps_params_free(&cfg.params);
    return rc;
}

static int open_backend(const char *name, ps_backend **b, ps_device_info *dev)
{
    ps_device_info devs[8];
    int n = 0, st = ps_backend_open(name, b);
    if (!st)
        st = ps_backend_probe(*b, devs, 8, &n);
    if (!st && n > 0)
        *dev = devs[0];
    if (st && *b) {
        ps_backend_close(*b);
        *b = NULL;
    }
    return st;
}

int ps_bench_memory(const ps_bench_memory_options *o, FILE *out)
{
    ps_bench_mem_point *pts = NULL;
    int npts = 0, cap = 0, bi, st = PS_OK;
    long sc;
    fprintf(out, "memory footprint: built-in ocean, %s, %ld step%s, scales 1..%ld; budget %s\n",
            ps_precision_name(o->precision), o->steps, o->steps == 1 ? "" : "s", o->max_scale,
            o->budget ? "given" : "a GPU's memory as reported less 1/8 (none on a CPU device)");
    fprintf(out, "  %-10s %5s %12s %10s %10s %6s %10s\n", "backend", "scale", "cells",
            "host MiB", "device MiB", "slabs", "ms/step");
    for (bi = 0; bi < o->nbackends && !st; bi++) {
        ps_backend *b = NULL;
        ps_device_info dev;
        if (open_backend(o->backends[bi], &b, &dev)) {
            fprintf(out, "  %-10s skipped: %s\n", o->backends[bi], ps_error_detail());
            continue;
        }
        for (sc = 1; sc <= o->max_scale && !st; sc++) {
            ps_field in, work;
            ps_split_options so;
            ps_run_stats rs;
            ps_bench_mem_point *p;
            memset(&work, 0, sizeof work);
            ps_bench_peak_reset();
            st = ocean((double)sc, o->precision, &in);
            if (!st)
                st = ps_field_alloc(&work, in.grid, o->precision);
            memset(&so, 0, sizeof so);
            so.max_device_bytes = o->budget ? o->budget
                                  : dev.memory_bytes && strcmp(dev.type, "cpu")
                                      ? dev.memory_bytes - dev.memory_bytes / 8
                                      : 0;
            memset(&rs, 0, sizeof rs);
            if (!st)
                st = run(b, &in, &work, o->steps, o->threads, &so, &rs);
            if (!st && npts == cap) {
                ps_bench_mem_point *n = realloc(pts, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *n);
                if (!n)
                    st = ps_error(PS_ENOMEM, "out of memory");
                else
                    pts = n;
            }
            if (!st) {
                p = &pts[npts++];
                memset(p, 0, sizeof *p);
                snprintf(p->backend, sizeof p->backend, "%s", o->backends[bi]);
                p->scale = (double)sc;
                p->cells = (double)ps_field_cells(&in);
                p->host_mib = ps_bench_peak_host_mb();
                p->device_mib = (double)rs.device_bytes_held / 1048576.0;
                p->ooc_slabs = rs.ooc_slabs;
                p->ms_per_step = rs.steps ? 1e3 * rs.step_s / (double)rs.steps : 0;
                fprintf(out, "  %-10s %5ld %12.0f %10.1f %10.1f %6d %10.2f%s\n", p->backend, sc,
                        p->cells, p->host_mib, p->device_mib, p->ooc_slabs ? p->ooc_slabs : 1,
                        p->ms_per_step, p->ooc_slabs ? "  out of core" : "");
            }
            ps_field_free(&in);
            ps_field_free(&work);
        }
        ps_backend_close(b);
    }
    if (!st && o->csv) {
        ps_outfile of;
        FILE *f = NULL;
        int i;
        st = ps_outfile_begin(&of, o->csv, o->force);
        if (!st && !(f = fdopen(of.fd, "w")))
            st = ps_error(PS_EIO, "%s: cannot write", o->csv);
        if (f) {
            of.fd = -1;
            fprintf(f, "backend,precision,scale,cells,host_peak_mib,device_mib,ooc_slabs,"
                       "ms_per_step\n");
            for (i = 0; i < npts; i++)
                fprintf(f, "%s,%s,%g,%.0f,%.3f,%.3f,%d,%.4f\n", pts[i].backend,
                        ps_precision_name(o->precision), pts[i].scale, pts[i].cells,
                        pts[i].host_mib, pts[i].device_mib, pts[i].ooc_slabs,
                        pts[i].ms_per_step);
            if (fclose(f))
                st = ps_error(PS_EIO, "%s: write failed", o->csv);
        }
        if (st)
            ps_outfile_abort(&of);
        else if (ps_outfile_publish(&of))
            st = ps_error(PS_EIO, "%s: cannot publish", o->csv);
        if (!st)
            fprintf(out, "  csv   : %s\n", o->csv);
    }
    if (!st && o->plot) {
        st = ps_bench_plot_memory(o->plot, pts, npts, o->force);
        if (st == PS_OK)
            fprintf(out, "  plot  : %s\n", o->plot);
        else if (st == PS_ENOTIMPL) {
            fprintf(out, "  plot  : not drawn (built without PLplot)\n");
            st = PS_OK;
        }
    }
    free(pts);
    return st;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median over repeats of one configuration; fills the columns. */
static int measure(ps_backend *b, const ps_field *in, ps_field *work,
                   const ps_bench_decomp_options *o, const ps_split_options *so, double *ms,
                   double *xfrac, double *bytes, int *slabs, ps_run_stats *last, int *workers)
{
    double t[64], x[64];
    long r, n = o->repeat < 1 ? 1 : o->repeat > 64 ? 64 : o->repeat;
    int st = PS_OK;
    ps_run_stats rs;
    for (r = 0; r < n && !st; r++) {
        memset(&rs, 0, sizeof rs);
        st = run(b, in, work, o->steps, o->threads, so, &rs);
        t[r] = 1e3 * rs.step_s / (double)o->steps;
        x[r] = rs.step_s > 0 ? rs.exchange_s / rs.step_s : 0;
        *bytes = (rs.ooc_slabs ? rs.ooc_bytes : rs.exchange_bytes) / (double)o->steps;
        *slabs = rs.ooc_slabs;
        if (workers)
            *workers = rs.workers;
        if (last)
            *last = rs;
    }
    if (st)
        return st;
    qsort(t, (size_t)n, sizeof t[0], cmp_d);
    qsort(x, (size_t)n, sizeof x[0], cmp_d);
    *ms = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    *xfrac = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    return PS_OK;
}

int ps_bench_decomp(const ps_bench_decomp_options *o, FILE *out)
{
    static const char *const splits[] = {"1x1x1", "2x1x1", "2", "4", "8"};
    static const unsigned halos[] = {1, 2, 4};
    ps_backend *b = NULL;
    ps_device_info dev;
    ps_field in, work;
    double base[3] = {0, 0, 0};
    size_t q, h;
    int st, ser, concurrent;
    memset(&in, 0, sizeof in);
    memset(&work, 0, sizeof work);
    if ((st = open_backend(o->backend, &b, &dev)))
        return st;
    st = ocean(o->scale, o->precision, &in);
    if (!st)
        st = ps_field_alloc(&work, in.grid, o->precision);
    if (st)
        goto done;
    fprintf(out, "decomposition: %s on %s, built-in ocean %zux%zux%zu, %s, %ld steps, "
                 "median of %ld\n", o->backend, dev.name, in.grid.nz, in.grid.ny, in.grid.nx,
            ps_precision_name(o->precision), o->steps, o->repeat);
    concurrent = (ps_backend_get_ops(b)->flags & PS_BACKEND_CONCURRENT) != 0;
    fprintf(out, "  %-14s %-7s %4s %10s %9s %14s %8s %8s\n", "split", "boxes", "g", "ms/step",
            "exchange", "bytes/step", "vs 1 box", "at once");
    for (h = 0; h < sizeof halos / sizeof halos[0] && !st; h++)
        for (q = 0; q < sizeof splits / sizeof splits[0] && !st; q++)
            for (ser = 0; ser < (q > 0 && concurrent ? 2 : 1) && !st; ser++) {
                ps_split_options so;
                double ms, xf, by = 0;
                int slabs = 0, workers = 1;
                char label[32];
                memset(&so, 0, sizeof so);
                if ((st = ps_decomp_parse_split(splits[q], in.grid, so.split)))
                    break;
                so.halo = halos[h];
                so.serial = ser;
                if ((st = measure(b, &in, &work, o, &so, &ms, &xf, &by, &slabs, NULL,
                                  &workers)))
                    break;
                if (q == 0)
                    base[h] = ms;
                snprintf(label, sizeof label, "%s%s", splits[q], ser ? " serial" : "");
                fprintf(out, "  %-14s %dx%dx%d %4u %10.2f %8.1f%% %14.0f %7.2fx %8d\n", label,
                        so.split[0], so.split[1], so.split[2], halos[h], ms, 100 * xf, by,
                        base[h] > 0 ? ms / base[h] : 0, workers);
            }
    /* out of core: a quarter of the grid's footprint, g 1, 4 and the plan's choice */
    for (h = 0; h < 3 && !st; h++) {
        ps_split_options so;
        ps_run_stats rs;
        double ms, xf, by = 0, in_core = base[h < 2 ? 2 * h : 2];
        int slabs = 0;
        unsigned ooc_halo[2] = {1, 4};
        memset(&so, 0, sizeof so);
        memset(&rs, 0, sizeof rs);
        so.halo = h < 2 ? ooc_halo[h] : 0;
        so.max_device_bytes = ps_ooc_footprint(in.grid, o->precision) / 4;
        if ((st = measure(b, &in, &work, o, &so, &ms, &xf, &by, &slabs, &rs, NULL)))
            break;
        fprintf(out, "  out of core, budget 1/4 grid (%.1f MiB), g %u%s: %d slabs along %c, "
                     "%.2f ms/step, %.0f bytes/step, %.2fx in core\n",
                (double)so.max_device_bytes / 1048576.0, rs.ooc_ghost, h < 2 ? "" : " (auto)",
                slabs, "kji"[rs.ooc_axis % 3], ms, by, in_core > 0 ? ms / in_core : 0);
    }
done:
    ps_field_free(&in);
    ps_field_free(&work);
    ps_backend_close(b);
    return st;
}
