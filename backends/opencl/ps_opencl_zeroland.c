/*
 * The opencl plugin's zero-land representation of diffusion7's fast path
 * (exact mode, row shape): land kept as +0.0 in the working fields, its NaN
 * in a land buffer, and a per-cell count of ocean neighbours (one byte), so the step
 * kernel (ps_zl_diffusion7_row, ps_opencl_diffusion7.cl, where the bitwise
 * argument is) sums without masking. Uploads are converted on the device
 * (ps_zl_diffusion7_convert over the uploaded region, then
 * ps_zl_diffusion7_count over that region grown by one cell, the cells whose
 * count it can change); downloads restore the NaN into the spare field
 * buffer (ps_zl_diffusion7_restore), which the next step overwrites anyway,
 * and read from there.
 *
 * The argument needs the land mask to stay fixed: no ocean cell may turn NaN
 * (the reference would then mask it). That can only happen through overflow,
 * so zero-land is used only for 0 <= D <= 1 (each update is then a convex
 * combination of values, up to rounding) and while every uploaded ocean value
 * is finite with |v| <= PS_REAL_MAX / 64 (intermediates stay below 13 |v|max);
 * an upload breaking that switches the context back to NaN land for good
 * (the device field restored in place first). The same rule as the openmp
 * backend's zero-land (backends/openmp/ps_openmp_zeroland.c).
 */
#include "config.h"
#include "ps_opencl.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

int ps_ocl_zl_fits(const void *host, size_t n, int f64)
{
    size_t i;
    if (f64) {
        const double *v = host;
        for (i = 0; i < n; i++)
            if (v[i] == v[i] && !(v[i] >= -DBL_MAX / 64 && v[i] <= DBL_MAX / 64))
                return 0;
    } else {
        const float *v = host;
        for (i = 0; i < n; i++)
            if (v[i] == v[i] && !(v[i] >= -FLT_MAX / 64 && v[i] <= FLT_MAX / 64))
                return 0;
    }
    return 1;
}

int ps_ocl_zl_create(ps_ocl_zl *z, cl_context ctx, cl_command_queue q, cl_program prog,
                     const size_t ext[3], size_t es, char *why, size_t whylen)
{
    static const char *const names[3] = {"ps_zl_diffusion7_convert", "ps_zl_diffusion7_count",
                                         "ps_zl_diffusion7_restore"};
    cl_kernel *ks[3];
    const size_t cells = ext[0] * ext[1] * ext[2];
    cl_int e;
    int b, a;
    ks[0] = &z->convert;
    ks[1] = &z->count;
    ks[2] = &z->restore;
    memcpy(z->ext, ext, sizeof z->ext);
    for (b = 0; b < 2; b++) {
        cl_mem *m = b ? &z->cnt : &z->land;
        const cl_uchar zero = 0;
        const size_t bytes = b ? cells : cells * es; /* counts: one byte each */
        *m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
        if (e != CL_SUCCESS) {
            *m = NULL;
            return ps_ocl_fail(why, whylen, e, "clCreateBuffer (zero-land %s, %zu bytes)",
                               b ? "counts" : "land", bytes);
        }
        /* defined contents before the first upload: all ocean, no neighbours */
        e = clEnqueueFillBuffer(q, *m, &zero, 1, 0, bytes, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(why, whylen, e, "clEnqueueFillBuffer (zero-land)");
    }
    for (a = 0; a < 3; a++) {
        *ks[a] = clCreateKernel(prog, names[a], &e);
        if (e != CL_SUCCESS) {
            *ks[a] = NULL;
            return ps_ocl_fail(why, whylen, e, "clCreateKernel(%s)", names[a]);
        }
    }
    return PS_OK;
}

/* Run kernel k over a region: buffers bufs[0..nfix-1] as its first arguments,
 * then the box extents and the region. */
static int region_run(const ps_ocl_zl *z, cl_command_queue q, cl_kernel k, const cl_mem *bufs,
                      cl_uint nfix, const size_t start[3], const size_t count[3],
                      const char *what, char *why, size_t whylen)
{
    cl_uint v[9], a;
    size_t global[3];
    cl_int e = CL_SUCCESS;
    for (a = 0; a < nfix && e == CL_SUCCESS; a++)
        e = clSetKernelArg(k, a, sizeof bufs[a], &bufs[a]);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s, %u)", what, a - 1);
    for (a = 0; a < 3; a++) {
        v[a] = (cl_uint)z->ext[a];
        v[3 + a] = (cl_uint)start[a];
        v[6 + a] = (cl_uint)count[a];
    }
    for (a = 0; a < 9 && e == CL_SUCCESS; a++)
        e = clSetKernelArg(k, nfix + a, sizeof v[a], &v[a]);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s, %u)", what, nfix + a - 1);
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

int ps_ocl_zl_convert(ps_ocl_zl *z, cl_command_queue q, cl_mem field, const ps_region *r,
                      char *why, size_t whylen)
{
    size_t start[3], count[3], gs[3], gc[3];
    const cl_mem conv_bufs[2] = {field, z->land}, count_bufs[2] = {z->land, z->cnt};
    int a, st;
    region_of(z, r, start, count);
    if (!count[0] || !count[1] || !count[2])
        return PS_OK;
    st = region_run(z, q, z->convert, conv_bufs, 2, start, count, "ps_zl_diffusion7_convert",
                    why, whylen);
    if (st)
        return st;
    /* the counts that region can change: the region grown by one cell, in the box */
    for (a = 0; a < 3; a++) {
        size_t lo = start[a] > 0 ? start[a] - 1 : 0;
        size_t hi = start[a] + count[a] < z->ext[a] ? start[a] + count[a] + 1 : z->ext[a];
        gs[a] = lo;
        gc[a] = hi - lo;
    }
    return region_run(z, q, z->count, count_bufs, 2, gs, gc, "ps_zl_diffusion7_count", why,
                      whylen);
}

int ps_ocl_zl_restore(ps_ocl_zl *z, cl_command_queue q, cl_mem field, cl_mem out,
                      const ps_region *r, char *why, size_t whylen)
{
    size_t start[3], count[3];
    const cl_mem bufs[3] = {field, z->land, out};
    region_of(z, r, start, count);
    if (!count[0] || !count[1] || !count[2])
        return PS_OK;
    return region_run(z, q, z->restore, bufs, 3, start, count, "ps_zl_diffusion7_restore", why,
                      whylen);
}

void ps_ocl_zl_release(ps_ocl_zl *z)
{
    if (z->convert)
        clReleaseKernel(z->convert);
    if (z->count)
        clReleaseKernel(z->count);
    if (z->restore)
        clReleaseKernel(z->restore);
    if (z->land)
        clReleaseMemObject(z->land);
    if (z->cnt)
        clReleaseMemObject(z->cnt);
    memset(z, 0, sizeof *z);
}
