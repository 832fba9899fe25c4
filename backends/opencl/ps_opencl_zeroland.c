/*
 * The opencl plugin's zero-land representation of diffusion7's fast path
 * (exact mode, row shape): land kept as +0.0 in the working fields, and one
 * count byte a cell (ps_opencl.h, PS_OCL_ZL_*): an ocean cell's number of
 * ocean neighbours, or land's flag and the index of its NaN, payload and all,
 * in a table of land's NaNs (at most PS_OCL_ZL_TMAX distinct ones), so the
 * step kernel (ps_zl_diffusion7_row, ps_opencl_diffusion7.cl, where the
 * bitwise argument is) sums without masking. Uploads are scanned on the host
 * (the range rule below, and land's NaNs into the table), then converted on
 * the device: a whole upload counts from its own NaNs (ps_zl_diffusion7_count)
 * and zeroes its land (ps_zl_diffusion7_convert); a region first marks the
 * land of itself grown by one cell, the cells whose count it can change, in
 * the spare field (ps_zl_diffusion7_mark: no kernel reads a count byte another
 * work-item writes). Downloads restore the NaN into the spare field buffer
 * (ps_zl_diffusion7_restore), which the next step overwrites anyway, and read
 * from there; a download into an adopted host field restores in place.
 *
 * The argument needs the land mask to stay fixed: no ocean cell may turn NaN
 * (the reference would then mask it). That can only happen through overflow,
 * so zero-land is used only for 0 <= D <= 1 (each update is then a convex
 * combination of values, up to rounding) and while every uploaded ocean value
 * is finite with |v| <= PS_REAL_MAX / 64 (intermediates stay below 13 |v|max);
 * an upload breaking that, or one whose land brings more distinct NaNs than
 * the table holds, switches the context back to NaN land for good (the device
 * field restored in place first). The same range rule as the openmp backend's
 * zero-land (backends/openmp/ps_openmp_zeroland.c).
 */
#include "config.h"
#include "ps_opencl.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

/* whether NaN bits @p b are in the table, else added while there is room */
static int zl_tab_has(ps_ocl_zl *z, uint64_t b)
{
    unsigned t;
    for (t = 0; t < z->ntab; t++)
        if (z->tabv[t] == b)
            return 1;
    if (z->ntab == PS_OCL_ZL_TMAX)
        return 0;
    z->tabv[z->ntab++] = b;
    z->tab_dirty = 1;
    return 1;
}

int ps_ocl_zl_scan(ps_ocl_zl *z, const void *host, size_t n)
{
    size_t i;
    if (z->es == sizeof(double)) {
        const double *v = host;
        for (i = 0; i < n; i++) {
            uint64_t b;
            if (v[i] == v[i]) {
                if (!(v[i] >= -DBL_MAX / 64 && v[i] <= DBL_MAX / 64))
                    return 0;
                continue;
            }
            memcpy(&b, &v[i], sizeof b);
            if (!zl_tab_has(z, b))
                return 0;
        }
    } else {
        const float *v = host;
        for (i = 0; i < n; i++) {
            uint32_t b;
            if (v[i] == v[i]) {
                if (!(v[i] >= -FLT_MAX / 64 && v[i] <= FLT_MAX / 64))
                    return 0;
                continue;
            }
            memcpy(&b, &v[i], sizeof b);
            if (!zl_tab_has(z, b))
                return 0;
        }
    }
    return 1;
}

int ps_ocl_zl_create(ps_ocl_zl *z, cl_context ctx, cl_command_queue q, cl_program prog,
                     const size_t ext[3], size_t es, char *why, size_t whylen)
{
    static const char *const names[4] = {"ps_zl_diffusion7_mark", "ps_zl_diffusion7_count",
                                         "ps_zl_diffusion7_convert", "ps_zl_diffusion7_restore"};
    cl_kernel *ks[4];
    const size_t cells = ext[0] * ext[1] * ext[2];
    const cl_uchar zero = 0;
    cl_int e;
    int a;
    ks[0] = &z->mark;
    ks[1] = &z->count;
    ks[2] = &z->convert;
    ks[3] = &z->restore;
    memcpy(z->ext, ext, sizeof z->ext);
    z->es = es;
    z->cnt = clCreateBuffer(ctx, CL_MEM_READ_WRITE, cells, NULL, &e);
    if (e != CL_SUCCESS) {
        z->cnt = NULL;
        return ps_ocl_fail(why, whylen, e, "clCreateBuffer (zero-land counts, %zu bytes)",
                           cells);
    }
    /* defined contents before the first upload: all ocean, no neighbours */
    e = clEnqueueFillBuffer(q, z->cnt, &zero, 1, 0, cells, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clEnqueueFillBuffer (zero-land)");
    z->tab = clCreateBuffer(ctx, CL_MEM_READ_ONLY, PS_OCL_ZL_TMAX * es, NULL, &e);
    if (e != CL_SUCCESS) {
        z->tab = NULL;
        return ps_ocl_fail(why, whylen, e, "clCreateBuffer (zero-land's NaN table)");
    }
    for (a = 0; a < 4; a++) {
        *ks[a] = clCreateKernel(prog, names[a], &e);
        if (e != CL_SUCCESS) {
            *ks[a] = NULL;
            return ps_ocl_fail(why, whylen, e, "clCreateKernel(%s)", names[a]);
        }
    }
    return PS_OK;
}

/* Run kernel k over the block @p start / @p count: buffers bufs[0..nfix-1]
 * as its first arguments, then @p extra (nextra values), the box extents,
 * the block, and the uploaded region @p rs / @p rc. */
static int region_run(const ps_ocl_zl *z, cl_command_queue q, cl_kernel k, const cl_mem *bufs,
                      cl_uint nfix, const cl_uint *extra, cl_uint nextra, const size_t start[3],
                      const size_t count[3], const size_t rs[3], const size_t rc[3],
                      const char *what, char *why, size_t whylen)
{
    cl_uint v[15], a, n;
    size_t global[3];
    cl_int e = CL_SUCCESS;
    for (a = 0; a < nfix && e == CL_SUCCESS; a++)
        e = clSetKernelArg(k, a, sizeof bufs[a], &bufs[a]);
    for (n = 0; n < nextra && e == CL_SUCCESS; n++, a++)
        e = clSetKernelArg(k, a, sizeof extra[n], &extra[n]);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s, %u)", what, a - 1);
    for (n = 0; n < 3; n++) {
        v[n] = (cl_uint)z->ext[n];
        v[3 + n] = (cl_uint)start[n];
        v[6 + n] = (cl_uint)count[n];
        v[9 + n] = (cl_uint)rs[n];
        v[12 + n] = (cl_uint)rc[n];
    }
    for (n = 0; n < 15 && e == CL_SUCCESS; n++, a++)
        e = clSetKernelArg(k, a, sizeof v[n], &v[n]);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s, %u)", what, a - 1);
    global[0] = count[2];
    global[1] = count[1];
    global[2] = count[0];
    e = clEnqueueNDRangeKernel(q, k, 3, NULL, global, NULL, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clEnqueueNDRangeKernel(%s, %zux%zux%zu)", what,
                           global[0], global[1], global[2]);
    return PS_OK;
}

/* The region as start/count arrays (the whole box for NULL). */
static void region_of(const ps_ocl_zl *z, const ps_region *r, size_t start[3], size_t count[3])
{
    if (!r) {
        start[0] = start[1] = start[2] = 0;
        memcpy(count, z->ext, 3 * sizeof *count);
        return;
    }
    memcpy(start, r->start, 3 * sizeof *start);
    count[0] = r->count.nz;
    count[1] = r->count.ny;
    count[2] = r->count.nx;
}

int ps_ocl_zl_convert(ps_ocl_zl *z, cl_command_queue q, cl_mem field, cl_mem spare,
                      const ps_region *r, char *why, size_t whylen)
{
    size_t start[3], count[3], gs[3], gc[3];
    const cl_uint ntab = z->ntab;
    cl_mem mask = r ? spare : field;
    cl_int e;
    int a, st;
    region_of(z, r, start, count);
    if (!count[0] || !count[1] || !count[2])
        return PS_OK;
    if (z->tab_dirty) {
        uint32_t f[PS_OCL_ZL_TMAX]; /* float: the low 32 bits of each */
        unsigned t;
        for (t = 0; t < z->ntab; t++)
            f[t] = (uint32_t)z->tabv[t];
        e = clEnqueueWriteBuffer(q, z->tab, CL_TRUE, 0, z->ntab * z->es,
                                 z->es == sizeof(float) ? (const void *)f
                                                        : (const void *)z->tabv,
                                 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(why, whylen, e, "clEnqueueWriteBuffer (zero-land's NaN table)");
        z->tab_dirty = 0;
    }
    /* the counts that region can change: the region grown by one cell, in the box */
    for (a = 0; a < 3; a++) {
        size_t lo = start[a] > 0 ? start[a] - 1 : 0;
        size_t hi = start[a] + count[a] < z->ext[a] ? start[a] + count[a] + 1 : z->ext[a];
        gs[a] = r ? lo : start[a];
        gc[a] = r ? hi - lo : count[a];
    }
    if (r) {
        const cl_mem bufs[3] = {field, z->cnt, spare};
        st = region_run(z, q, z->mark, bufs, 3, NULL, 0, gs, gc, start, count,
                        "ps_zl_diffusion7_mark", why, whylen);
        if (st)
            return st;
    }
    {
        const cl_mem bufs[4] = {mask, field, z->cnt, z->tab};
        st = region_run(z, q, z->count, bufs, 4, &ntab, 1, gs, gc, start, count,
                        "ps_zl_diffusion7_count", why, whylen);
        if (st)
            return st;
    }
    return region_run(z, q, z->convert, &field, 1, NULL, 0, start, count, start, count,
                      "ps_zl_diffusion7_convert", why, whylen);
}

int ps_ocl_zl_zero(ps_ocl_zl *z, cl_command_queue q, cl_mem field, char *why, size_t whylen)
{
    size_t start[3], count[3];
    region_of(z, NULL, start, count);
    return region_run(z, q, z->convert, &field, 1, NULL, 0, start, count, start, count,
                      "ps_zl_diffusion7_convert", why, whylen);
}

int ps_ocl_zl_restore(ps_ocl_zl *z, cl_command_queue q, cl_mem field, cl_mem out,
                      const ps_region *r, char *why, size_t whylen)
{
    size_t start[3], count[3];
    const cl_mem bufs[4] = {field, z->cnt, z->tab, out};
    region_of(z, r, start, count);
    if (!count[0] || !count[1] || !count[2])
        return PS_OK;
    return region_run(z, q, z->restore, bufs, 4, NULL, 0, start, count, start, count,
                      "ps_zl_diffusion7_restore", why, whylen);
}

void ps_ocl_zl_release(ps_ocl_zl *z)
{
    if (z->mark)
        clReleaseKernel(z->mark);
    if (z->count)
        clReleaseKernel(z->count);
    if (z->convert)
        clReleaseKernel(z->convert);
    if (z->restore)
        clReleaseKernel(z->restore);
    if (z->cnt)
        clReleaseMemObject(z->cnt);
    if (z->tab)
        clReleaseMemObject(z->tab);
    memset(z, 0, sizeof *z);
}
