/*
 * OpenCL programs: the embedded sources (every file of kernels/ named in
 * kernels/local.mk, then the backend's wrappers ps_opencl_generic.cl,
 * ps_opencl_diffusion7.cl and ps_opencl_vector.cl; generated into
 * ps_opencl_source.c at build time, listed in order in ps_ocl_src_list[])
 * behind a short prelude of pragmas, concatenated into one program, built
 * once per device and variant (precision, exact/fast, division method, extra
 * build options) and kept for the process lifetime; and, per stencil, the
 * same with that stencil's rows on explicit vectors appended
 * (ps_ocl_program_vector).
 */
#include "config.h"
#include "ps_knobs.h"
#include "ps_opencl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PS_OCL_NVARIANT 12 /* f64 x fast x div */

/* a stencil's vector program (ps_ocl_program_vector), built or not */
typedef struct ocl_vec_prog {
    int vi;                          /* variant_index */
    char stencil[64];
    char extra[PS_KNOB_TEXT_MAX];    /* the extra options */
    cl_program prog;                 /* NULL: the build failed, why says why */
    char why[4096];
} ocl_vec_prog;

typedef struct ocl_cache {
    cl_device_id device;
    cl_context ctx;
    cl_program prog[PS_OCL_NVARIANT];
    char extra[PS_OCL_NVARIANT][PS_KNOB_TEXT_MAX]; /* the extra options of each */
    ocl_vec_prog *vec;
    int nvec;
} ocl_cache;

static pthread_mutex_t ps_ocl_prog_lock = PTHREAD_MUTEX_INITIALIZER;
static ocl_cache *ps_ocl_cache;
static int ps_ocl_ncache;

static int variant_index(ps_ocl_variant v)
{
    return (v.f64 ? 6 : 0) + (v.fast ? 3 : 0) + (v.div >= 0 && v.div < 3 ? v.div : 0);
}

/* Find or add the cache entry of a device (caller holds the lock). */
static ocl_cache *cache_entry(cl_device_id dev)
{
    ocl_cache *grown;
    int i;
    for (i = 0; i < ps_ocl_ncache; i++)
        if (ps_ocl_cache[i].device == dev)
            return &ps_ocl_cache[i];
    grown = realloc(ps_ocl_cache, (size_t)(ps_ocl_ncache + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    ps_ocl_cache = grown;
    memset(&grown[ps_ocl_ncache], 0, sizeof *grown);
    grown[ps_ocl_ncache].device = dev;
    return &grown[ps_ocl_ncache++];
}

/*
 * The prelude and options of a variant. Exact mode: no contraction
 * (OpenCL's default is FP_CONTRACT ON) and IEEE float division, either by
 * -cl-fp32-correctly-rounded-divide-sqrt or by dividing in double and
 * rounding once (a float quotient computed in double is correctly rounded).
 * Fast mode: contraction and unsafe maths, but not -cl-fast-relaxed-math,
 * which implies -cl-finite-math-only and would let the compiler drop the
 * NaN tests that keep land out of the sum.
 */
static void variant_text(const ps_ocl_dev *dev, ps_ocl_variant v, char *prelude, size_t plen,
                         char *opts, size_t olen)
{
    int need_fp64 = v.f64 || (!v.fast && v.div == PS_OCL_DIV_DOUBLE);
    snprintf(prelude, plen, "/* pstencil opencl prelude: %s %s */\n%s%s%s%s",
             v.f64 ? "float64" : "float32", v.fast ? "fast" : "exact",
             v.f64 ? "#define PS_REAL_IS_DOUBLE 1\n" : "",
             need_fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "",
             v.fast ? "" : "#pragma OPENCL FP_CONTRACT OFF\n",
             (!v.f64 && !v.fast && v.div == PS_OCL_DIV_DOUBLE)
                 ? "#define PS_DIV(a, b) ((float)((double)(a) / (double)(b)))\n"
                   "#define PS_OCL_DIV_IN_DOUBLE 1\n"
                 : "");
    snprintf(opts, olen, "-DPS_REAL=%s -DPS_SUFFIX=%s%s%s%s", v.f64 ? "double" : "float",
             v.f64 ? "_f64" : "_f32",
             (dev->clc_major > 1 || dev->clc_minor >= 2) ? " -cl-std=CL1.2" : "",
             (!v.f64 && !v.fast && v.div == PS_OCL_DIV_CORRECT)
                 ? " -cl-fp32-correctly-rounded-divide-sqrt"
                 : "",
             v.fast ? " -cl-mad-enable -cl-unsafe-math-optimizations" : "");
}

/* Options that would break exact mode's bitwise contract. */
static const char *const ps_ocl_inexact_opts[] = {
    "-cl-mad-enable", "-cl-unsafe-math-optimizations", "-cl-fast-relaxed-math",
    "-cl-finite-math-only", "-cl-denorms-are-zero", "-cl-no-signed-zeros", NULL};

/* The program of variant @p v: the prelude, the embedded files, then the
 * NULL-terminated texts of @p tail (NULL: none). */
static int build(const ps_ocl_dev *dev, cl_context ctx, ps_ocl_variant v, const char *extra,
                 const char *const *tail, const char *label, cl_program *out, char *why,
                 size_t whylen)
{
    char prelude[512], opts[1024];
    const char **src = NULL;
    cl_program prog = NULL;
    cl_int e, be;
    cl_uint nsrc, ntail = 0;
    int st = PS_OK;

    variant_text(dev, v, prelude, sizeof prelude, opts, sizeof opts);
    if (extra && *extra) {
        size_t used = strlen(opts), i;
        if (!v.fast)
            for (i = 0; ps_ocl_inexact_opts[i]; i++)
                if (strstr(extra, ps_ocl_inexact_opts[i])) {
                    snprintf(why, whylen, "%s contains %s, which breaks exact mode (use fast "
                             "mode)", label, ps_ocl_inexact_opts[i]);
                    return PS_EINVAL;
                }
        if (strlen(extra) + 2 > sizeof opts - used) {
            snprintf(why, whylen, "%s is too long (%zu characters)", label, strlen(extra));
            return PS_EINVAL;
        }
        snprintf(opts + used, sizeof opts - used, " %s", extra);
    }
    /* the prelude, then the embedded files in program order, then the tail */
    for (nsrc = 1; ps_ocl_src_list[nsrc - 1]; nsrc++)
        ;
    while (tail && tail[ntail])
        ntail++;
    src = malloc((nsrc + ntail) * sizeof *src);
    if (!src) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    src[0] = prelude;
    memcpy(src + 1, ps_ocl_src_list, (nsrc - 1) * sizeof *src);
    if (ntail)
        memcpy(src + nsrc, tail, ntail * sizeof *src);
    nsrc += ntail;
    prog = clCreateProgramWithSource(ctx, nsrc, src, NULL, &e);
    if (e != CL_SUCCESS) {
        st = ps_ocl_fail(why, whylen, e, "clCreateProgramWithSource on %s", dev->name);
        goto done;
    }
    be = clBuildProgram(prog, 1, &dev->device, opts, NULL, NULL);
    if (be != CL_SUCCESS) {
        size_t loglen = 0, used, i;
        char *log = NULL;
        st = ps_ocl_fail(why, whylen, be, "clBuildProgram on %s with options '%s'", dev->name,
                         opts);
        e = clGetProgramBuildInfo(prog, dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
        if (e == CL_SUCCESS && loglen > 0)
            log = calloc(1, loglen + 1);
        if (log)
            e = clGetProgramBuildInfo(prog, dev->device, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
        used = strlen(why);
        snprintf(why + used, whylen - used, " (program: the prelude, then");
        for (i = 0; ps_ocl_src_names[i]; i++) {
            used = strlen(why);
            snprintf(why + used, whylen - used, " %s", ps_ocl_src_names[i]);
        }
        if (ntail) {
            used = strlen(why);
            snprintf(why + used, whylen - used, ", a stencil's rows on explicit vectors");
        }
        used = strlen(why);
        snprintf(why + used, whylen - used, ")");
        used = strlen(why);
        if (log && e == CL_SUCCESS)
            snprintf(why + used, whylen - used, "; build log:\n%s", log);
        else
            snprintf(why + used, whylen - used, "; no build log (clGetProgramBuildInfo: %s)",
                     ps_ocl_err_name(e));
        free(log);
        goto done;
    }
    *out = prog;
    prog = NULL;
done:
    if (prog)
        clReleaseProgram(prog);
    free(src);
    return st;
}

int ps_ocl_program(const ps_ocl_dev *dev, ps_ocl_variant v, const char *extra,
                   const char *label, cl_context *ctx, cl_program *prog, char *why,
                   size_t whylen)
{
    ocl_cache *c;
    int st = PS_OK, vi = variant_index(v);
    cl_int e;

    *ctx = NULL;
    *prog = NULL;
    pthread_mutex_lock(&ps_ocl_prog_lock);
    c = cache_entry(dev->device);
    if (!c) {
        snprintf(why, whylen, "out of memory");
        st = PS_ENOMEM;
        goto done;
    }
    if (!c->ctx) {
        cl_context_properties props[3] = {CL_CONTEXT_PLATFORM,
                                          (cl_context_properties)dev->platform, 0};
        c->ctx = clCreateContext(props, 1, &dev->device, NULL, NULL, &e);
        if (e != CL_SUCCESS) {
            c->ctx = NULL;
            st = ps_ocl_fail(why, whylen, e, "clCreateContext on %s", dev->name);
            goto done;
        }
    }
    if (!extra)
        extra = "";
    if (c->prog[vi] && strcmp(c->extra[vi], extra)) {
        /* other options: a new program (live kernels keep the old one alive) */
        clReleaseProgram(c->prog[vi]);
        c->prog[vi] = NULL;
    }
    if (!c->prog[vi]) {
        st = build(dev, c->ctx, v, extra, NULL, label, &c->prog[vi], why, whylen);
        if (st)
            goto done;
        snprintf(c->extra[vi], sizeof c->extra[vi], "%s", extra);
    }
    *ctx = c->ctx;
    *prog = c->prog[vi];
    clRetainProgram(*prog);
done:
    pthread_mutex_unlock(&ps_ocl_prog_lock);
    return st;
}

/* the embedded file named @p name; NULL if none */
static const char *embedded(const char *name)
{
    int i;
    for (i = 0; ps_ocl_src_names[i]; i++)
        if (!strcmp(ps_ocl_src_names[i], name))
            return ps_ocl_src_list[i];
    return NULL;
}

/* What comes before the stencil's file in its vector program, after the
 * stencil's name (PS_VEC_NAME): PS_REAL a vector of one AVX-512 register and
 * PS_MASK its comparisons' type, so the file gives its cell functions on
 * vectors (ps_opencl_vector.cl); a division in double converts each lane. */
static const char ps_ocl_vec_head[] =
    "#undef PS_REAL\n"
    "#undef PS_SUFFIX\n"
    "#undef PS_MASK\n"
    "#ifdef PS_REAL_IS_DOUBLE\n"
    "#define PS_VEC_VW 8\n"
    "#define PS_VEC_VT double8\n"
    "#define PS_MASK long8\n"
    "#else\n"
    "#define PS_VEC_VW 16\n"
    "#define PS_VEC_VT float16\n"
    "#define PS_MASK int16\n"
    "#endif\n"
    "#define PS_REAL PS_VEC_VT\n"
    "#define PS_SUFFIX _vec\n"
    "#ifdef PS_OCL_DIV_IN_DOUBLE\n"
    "#undef PS_DIV\n"
    "#define PS_DIV(a, b) convert_float16(convert_double16(a) / convert_double16(b))\n"
    "#endif\n";
/* ... and after it: the scalar type back, for the kernel's arguments */
static const char ps_ocl_vec_tail[] =
    "#undef PS_REAL\n"
    "#undef PS_SUFFIX\n"
    "#undef PS_MASK\n"
    "#define PS_MASK int\n"
    "#ifdef PS_REAL_IS_DOUBLE\n"
    "#define PS_REAL double\n"
    "#define PS_SUFFIX _f64\n"
    "#else\n"
    "#define PS_REAL float\n"
    "#define PS_SUFFIX _f32\n"
    "#endif\n";

int ps_ocl_program_vector(const ps_ocl_dev *dev, ps_ocl_variant v, const char *extra,
                           const char *label, const char *stencil, cl_program *prog,
                           char *why, size_t whylen)
{
    ocl_cache *c;
    ocl_vec_prog *e = NULL, *grown;
    char file[96], name[96];
    const char *tail[6];
    int st = PS_OK, vi = variant_index(v), i;

    *prog = NULL;
    if (!extra)
        extra = "";
    if (strlen(stencil) >= sizeof e->stencil) {
        snprintf(why, whylen, "stencil name too long");
        return PS_EUNSUPPORTED;
    }
    pthread_mutex_lock(&ps_ocl_prog_lock);
    c = cache_entry(dev->device);
    if (!c || !c->ctx) { /* ps_ocl_program made the context first */
        snprintf(why, whylen, "no OpenCL context for %s", dev->name);
        st = PS_EUNSUPPORTED;
        goto done;
    }
    for (i = 0; i < c->nvec; i++)
        if (c->vec[i].vi == vi && !strcmp(c->vec[i].stencil, stencil) &&
            !strcmp(c->vec[i].extra, extra))
            e = &c->vec[i];
    if (!e) {
        grown = realloc(c->vec, (size_t)(c->nvec + 1) * sizeof *grown);
        if (!grown) {
            snprintf(why, whylen, "out of memory");
            st = PS_ENOMEM;
            goto done;
        }
        c->vec = grown;
        e = &c->vec[c->nvec++];
        memset(e, 0, sizeof *e);
        e->vi = vi;
        snprintf(e->stencil, sizeof e->stencil, "%s", stencil);
        snprintf(e->extra, sizeof e->extra, "%s", extra);
        snprintf(file, sizeof file, "kernels/%s.h", stencil);
        snprintf(name, sizeof name, "#define PS_VEC_NAME %s\n", stencil);
        tail[0] = name;
        tail[1] = ps_ocl_vec_head;
        tail[2] = embedded(file);
        tail[3] = ps_ocl_vec_tail;
        tail[4] = embedded("backends/opencl/ps_opencl_vector.cl");
        tail[5] = NULL;
        if (!tail[2] || !tail[4])
            snprintf(e->why, sizeof e->why, "no embedded file %s",
                     !tail[2] ? file : "backends/opencl/ps_opencl_vector.cl");
        else if (build(dev, c->ctx, v, extra, tail, label, &e->prog, e->why, sizeof e->why))
            e->prog = NULL;
    }
    if (!e->prog) {
        snprintf(why, whylen, "%s", e->why);
        st = PS_EUNSUPPORTED;
        goto done;
    }
    *prog = e->prog;
    clRetainProgram(*prog);
done:
    pthread_mutex_unlock(&ps_ocl_prog_lock);
    return st;
}
