/**
 * @file ps_plugin.h
 * @brief Header-only helpers for backends: what every backend would otherwise
 *        copy (region and box checks, the packed parameter block, a clock,
 *        a median). Plugins link nothing from libpstencil, so everything here
 *        is static inline and depends only on the public types.
 */
#ifndef PS_PLUGIN_H
#define PS_PLUGIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ps_backend.h"
#include "ps_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Check that region @p r (NULL = whole box) lies inside a box of extent @p g;
 * on failure write the reason to @p err and return PS_ERANGE.
 */
static inline int ps_plugin_region_check(const ps_grid *g, const ps_region *r, char *err,
                                         size_t errlen)
{
    size_t ext[3];
    int a;
    if (!r)
        return PS_OK;
    ext[0] = g->nz;
    ext[1] = g->ny;
    ext[2] = g->nx;
    for (a = 0; a < 3; a++) {
        size_t n = a == 0 ? r->count.nz : a == 1 ? r->count.ny : r->count.nx;
        if (r->start[a] > ext[a] || n > ext[a] - r->start[a]) {
            snprintf(err, errlen,
                     "region [%zu+%zu, %zu+%zu, %zu+%zu] outside box %zux%zux%zu", r->start[0],
                     r->count.nz, r->start[1], r->count.ny, r->start[2], r->count.nx, g->nz,
                     g->ny, g->nx);
            return PS_ERANGE;
        }
    }
    return PS_OK;
}

/** Cells along the axes @p axes (PS_AXES_* bits) of grid @p g. */
static inline size_t ps_plugin_axes_len(unsigned axes, ps_grid g)
{
    return ((axes & PS_AXES_K) ? g.nz : 1) * ((axes & PS_AXES_J) ? g.ny : 1) *
           ((axes & PS_AXES_I) ? g.nx : 1);
}

/** Elements of the packed parameter block of @p cfg (scalars, then every array). */
static inline size_t ps_params_packed_len(const ps_config *cfg)
{
    size_t n = (size_t)cfg->stencil->nscalars;
    int a;
    for (a = 0; a < cfg->stencil->narrays; a++)
        n += ps_plugin_axes_len(cfg->stencil->arrays[a].axes, cfg->box.global);
    return n;
}

/**
 * Write the packed parameter block of @p cfg to @p out in the working
 * precision (float or double; ps_params_packed_len(cfg) elements): the kernel
 * scalars, then the coefficient arrays, each rounded once from float64. This
 * is the layout kernels/ps_skeleton.h reads.
 */
static inline void ps_params_pack(const ps_config *cfg, void *out)
{
    size_t n = ps_params_packed_len(cfg), ns = (size_t)cfg->stencil->nscalars, q;
    for (q = 0; q < n; q++) {
        double v = q < ns ? cfg->params.scalars[q] : cfg->params.arrays[q - ns];
        if (cfg->precision == PS_FLOAT64)
            ((double *)out)[q] = v;
        else
            ((float *)out)[q] = (float)v;
    }
}

/**
 * Check what every backend's create must check of a config: a stencil, a
 * known kernel choice, a box inside its global grid, ghost layers at least
 * the stencil's radius deep on every face that is not a global boundary and
 * none on a global one, and coefficient arrays of the right size. Writes the
 * reason to @p why.
 */
static inline int ps_plugin_check_config(const ps_config *cfg, char *why, size_t whylen)
{
    const ps_box *b = &cfg->box;
    const ps_stencil *s = cfg->stencil;
    size_t ext[3], glob[3], need = 0;
    int a;
    if (!s) {
        snprintf(why, whylen, "no stencil in the configuration");
        return PS_EINVAL;
    }
    if (cfg->kernel != PS_KERNEL_AUTO && cfg->kernel != PS_KERNEL_GENERIC &&
        cfg->kernel != PS_KERNEL_FAST) {
        snprintf(why, whylen, "unknown kernel choice %d in the configuration", (int)cfg->kernel);
        return PS_EINVAL;
    }
    if (s->nscalars > PS_MAX_SCALARS) {
        snprintf(why, whylen, "stencil '%s' has %d scalars (at most %d)", s->name, s->nscalars,
                 PS_MAX_SCALARS);
        return PS_EINVAL;
    }
    ext[0] = b->extent.nz; ext[1] = b->extent.ny; ext[2] = b->extent.nx;
    glob[0] = b->global.nz; glob[1] = b->global.ny; glob[2] = b->global.nx;
    for (a = 0; a < 3; a++) {
        unsigned lo = 1u << (2 * a), hi = 1u << (2 * a + 1);
        if (b->origin[a] > glob[a] || ext[a] > glob[a] - b->origin[a]) {
            snprintf(why, whylen, "box origin %zu + extent %zu along axis %d is outside the "
                     "global grid (%zu)", b->origin[a], ext[a], a, glob[a]);
            return PS_EINVAL;
        }
        if (((b->global_faces & lo) != 0) != (b->origin[a] == 0) ||
            ((b->global_faces & hi) != 0) != (b->origin[a] + ext[a] == glob[a])) {
            snprintf(why, whylen, "box global-face flags 0x%x disagree with its origin and "
                     "extent along axis %d", b->global_faces, a);
            return PS_EINVAL;
        }
        if ((!(b->global_faces & lo) || !(b->global_faces & hi)) &&
            b->ghost < (unsigned)s->radius) {
            snprintf(why, whylen, "box has %u ghost layers on an inner face; stencil '%s' "
                     "needs at least its radius %d", b->ghost, s->name, s->radius);
            return PS_EINVAL;
        }
    }
    for (a = 0; a < s->narrays; a++)
        need += ps_plugin_axes_len(s->arrays[a].axes, b->global);
    if (s->narrays && (!cfg->params.arrays || cfg->params.array_values != need)) {
        snprintf(why, whylen, "stencil '%s' needs %zu coefficient values for a %zux%zux%zu "
                 "grid; the configuration has %zu", s->name, need, b->global.nz,
                 b->global.ny, b->global.nx, cfg->params.arrays ? cfg->params.array_values : 0);
        return PS_EINVAL;
    }
    return PS_OK;
}

/** Monotonic clock in milliseconds. */
static inline double ps_plugin_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/** qsort() comparison of two doubles, ascending (for step-time medians). */
static inline int ps_plugin_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/** Median of @p n values (sorts @p v in place; 0 for n == 0). */
static inline double ps_plugin_median(double *v, size_t n)
{
    if (!n)
        return 0.0;
    qsort(v, n, sizeof *v, ps_plugin_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/** "float32" or "float64": ps_precision_name() for plugins, which do not link libpstencil. */
static inline const char *ps_plugin_precision_name(ps_precision p)
{
    return p == PS_FLOAT64 ? "float64" : "float32";
}

/** "exact" or "fast": ps_mode_name() for plugins. */
static inline const char *ps_plugin_mode_name(ps_mode m)
{
    return m == PS_MODE_FAST ? "fast" : "exact";
}

/**
 * Position of @p name in a NULL-terminated list of names (a backend's
 * compiled stencils), or -1.
 */
static inline int ps_plugin_name_index(const char *const *names, const char *name)
{
    int i;
    for (i = 0; names && name && names[i]; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

#ifdef __cplusplus
}
#endif
#endif /* PS_PLUGIN_H */
