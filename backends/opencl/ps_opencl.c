/*
 * The opencl backend plugin: every stencil of kernels/ps_stencils.h on any
 * OpenCL 1.2 device, bitwise identical to the reference in exact mode. Each
 * stencil runs in the generic kernels (ps_opencl_generic.cl: the shared loop
 * skeleton around kernels/ps_skeleton.h); a stencil with an entry in the
 * table of fast/ps_opencl_fast.c has hand-written kernels too, picked by
 * that table unless cfg->kernel asks for the generic ones. Every kernel takes the
 * same arguments, so nothing here depends on the stencil. Two device buffers
 * swapped between steps (two kernel objects with their arguments swapped,
 * so a step is one enqueue and no host round trip) and a read-only buffer of
 * the packed parameters made once per context; one synchronisation in
 * finish/download; per-step device timing from profiling events when
 * cfg->profile is set. On a CPU device a context adopts the caller's field
 * (ocl_adopt): one of the two buffers is made on it with CL_MEM_USE_HOST_PTR,
 * so the field is held once.
 */
#include "config.h"
#include "ps_knobs_env.h"
#include "ps_opencl.h"
#include "fast/ps_opencl_fast.h"
#include "ps_plugin.h"
#include "ps_plugin_land.h"
#include "ps_stencils.h" /* the list only: no PS_REAL, no cell functions */

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The tuning knobs (core/ps_knobs.h), decided in ocl_knobs(): kernel shape
 * (opencl_kernel: "row", a 2-D range over (j, k) with the i loop inside, the
 * CPU default; "ij", a 2-D range over (i, j) with the k loop inside, the
 * default elsewhere; "ijk", one cell per work-item; the generic kernels
 * exist in the three, a fast path in the shapes of its table entry), the
 * land-sum form (opencl_zero_land), fused steps as a wavefront along k
 * (opencl_wave, _tj: on CPU devices by default; docs/performance.md, "OpenCL
 * on PoCL"), the division method, the device and extra build options.
 */
/** Steps the wavefront fuses on CPU devices by default (see wave_setup). */
#define PS_OCL_WAVE_CPU 8
/** A wavefront work-item's intermediate steps at most (default tile height). */
#define PS_OCL_WAVE_BYTES (6u << 20)
/** Steps fused on Intel CPU devices with an L2 of 1 MiB or more (see wave_setup). */
#define PS_OCL_WAVE_CPU_L2 4
/** The most steps one launch may fuse. */
#define PS_OCL_MAX_FUSE 16

/** Launches queued before step() waits for the device (bounds runtime memory). */
#define PS_OCL_MAX_QUEUED 4096

/** The stencils the program has generic kernels for (ps_gen_<NAME>_<shape>). */
#define PS_OCL_NAME(NAME) #NAME,
static const char *const ps_ocl_stencils[] = {PS_STENCIL_LIST(PS_OCL_NAME) NULL};
#undef PS_OCL_NAME

/* the range shapes' kernel suffixes, by PS_OCL_SHAPE_* (opencl_kernel's order) */
static const char *const ps_ocl_shapes[] = {"ij", "ijk", "row"};

typedef struct ocl_ctx {
    ps_config cfg;
    ps_grid g;
    size_t es;              /* element size */
    size_t bytes;           /* one buffer */
    const ps_ocl_dev *dev;
    cl_context clctx;       /* borrowed from the program cache */
    cl_command_queue q;
    cl_mem buf[2];
    cl_mem params;          /* packed kernel parameters (ps_params_pack), read-only */
    size_t params_bytes;
    const ps_ocl_fast_entry *fast; /* the hand-written kernels picked; NULL: generic */
    int shape;              /* PS_OCL_SHAPE_* */
    cl_kernel k[2];         /* k[b] reads buf[b], writes buf[1-b] */
    cl_kernel kf[2];        /* fuse steps per launch as a wavefront (when fuse > 1) */
    cl_uint fuse;           /* steps per fused launch; 0: none */
    size_t fglobal[3], flocal[3];   /* the wavefront's 1-D range (other entries 1) */
    cl_mem wscratch;        /* the wavefront's intermediate steps */
    int fuse_gen;           /* kf is the generic wavefront (else the land-sum one) */
    ps_ocl_variant var;     /* the program's variant */
    cl_kernel kls[2];       /* the generic kernel in land-sum form (when ls_on) */
    int ls_fuse;            /* kf is the land-sum wavefront (ps_glv_NAME_wave; runs while ls_on) */
    char ls_kname[160];     /* kls's name */
    cl_program vprog;       /* the stencil's vector program (vec_setup); NULL: none */
    char vec_why[200];      /* why there is none, for the row shape ("": there is) */
    char choices[640];      /* what describe() says (ocl_choices) */
    int ls_on;              /* the fields hold land as +0.0 for kls (see ls_setup) */
    ps_land ls;             /* its host side: the mask, counts and land's NaNs */
    cl_mem lscnt;           /* the count bytes on the device (a CPU's: ls.cnt itself) */
    int ls_shared;          /* lscnt was made on ls.cnt (CL_MEM_USE_HOST_PTR) */
    cl_mem lsflag;          /* the tag of the first launch that wrote a NaN; 0: none */
    cl_ulong ls_t;          /* steps enqueued since lsflag was last read */
    void *host;             /* the adopted host field (ocl_adopt); NULL: none */
    int adopted;            /* the buffer made on it (CL_MEM_USE_HOST_PTR); -1: none */
    void *mapped;           /* the adopted buffer's mapping while the caller reads it */
    int host_form;          /* land-sum: the mapped adopted field has land's NaN */
    char kname[128];        /* the kernel in use */
    int div;                /* enum ps_ocl_div for exact float32 (opencl_divide) */
    int cur;                /* buffer holding the current field */
    cl_uint dims;
    int row;                /* the row shape: range over (j, k), i loop inside */
    size_t global[3], local[3];
    cl_event *ev;           /* step events not yet read (profiling) */
    cl_uint *evsteps;       /* steps each of them ran */
    size_t nev, evcap;
    double *step_ms;        /* per-step device time (profiling) */
    size_t nstep, stepcap;
    double upload_ms, download_ms;
    ps_knobs knobs;         /* the tuning knobs decided (ocl_knobs) */
    char err[4096];
} ocl_ctx;

/* The caller's (@p asked, may be NULL) or the environment's knobs into @p k;
 * the rest is decided where it is used (ps_knob_rule()). */
static int ocl_knobs(const ps_knobs *asked, ps_knobs *k, char *why, size_t whylen)
{
    static const int ids[] = {PS_KNOB_ID_opencl_kernel,  PS_KNOB_ID_opencl_zero_land,
                              PS_KNOB_ID_opencl_wave,    PS_KNOB_ID_opencl_wave_tj,
                              PS_KNOB_ID_opencl_divide,  PS_KNOB_ID_opencl_device,
                              PS_KNOB_ID_opencl_build_options};
    return ps_knobs_take(ids, sizeof ids / sizeof ids[0], asked, k, why, whylen);
}

/* How messages name a knob: its variable when the environment set it. */
static const char *knob_label(int id, int source)
{
    const ps_knob_info *in = ps_knob_info_of(id);
    return source == PS_KNOB_ENV ? in->env : in->name;
}

static int ocl_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    const ps_ocl_dev *list;
    ps_knobs k; /* the environment's division method (a bad value: the rule's) */
    char bad[256];
    int n, i, st;
    *ndevs = 0;
    if (ocl_knobs(NULL, &k, bad, sizeof bad))
        k.opencl_divide.value = 0;
    st = ps_ocl_devices(&list, &n, why, whylen);
    if (st)
        return st;
    for (i = 0; i < n && i < max; i++) {
        const ps_ocl_dev *x = &list[i];
        ps_device_info *o = &devs[i];
        memset(o, 0, sizeof *o);
        snprintf(o->name, sizeof o->name, "%s", x->name);
        snprintf(o->type, sizeof o->type, "%s", ps_ocl_type_name(x->type));
        snprintf(o->detail, sizeof o->detail,
                 "platform %.60s %.100s, driver %.40s, %.40s, fp64 %s, correctly rounded divide %s, "
                 "index %d:%d%s",
                 x->platform_name, x->platform_version, x->driver, x->clc_version,
                 x->fp64 ? "yes" : "no", x->crdiv ? "yes" : "no", x->p, x->d,
                 !(x->caps & PS_CAP_EXACT_F32)
                     ? ", exact float32 impossible (no IEEE float division or subnormals, no "
                       "fp64): fast mode only"
                     : (ps_ocl_div_for(x, k.opencl_divide.value == 1) == PS_OCL_DIV_DOUBLE
                            ? ", exact float32 divides in double" : ""));
        o->memory_bytes = x->memory;
        o->compute_units = (int)x->compute_units;
        o->caps = x->caps;
    }
    *ndevs = i;
    return PS_OK;
}

/* Read the profiling events queued so far (after the queue finished). */
static int collect_events(ocl_ctx *c)
{
    size_t e;
    int st = PS_OK;
    for (e = 0; e < c->nev; e++) {
        cl_ulong t0 = 0, t1 = 0;
        cl_int r = clGetEventProfilingInfo(c->ev[e], CL_PROFILING_COMMAND_START, sizeof t0, &t0,
                                           NULL);
        if (r == CL_SUCCESS)
            r = clGetEventProfilingInfo(c->ev[e], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        if (r != CL_SUCCESS && !st)
            st = ps_ocl_fail(c->err, sizeof c->err, r, "clGetEventProfilingInfo");
        if (r == CL_SUCCESS) {
            if (c->nstep + PS_OCL_MAX_FUSE > c->stepcap) {
                size_t cap = c->stepcap ? 2 * c->stepcap : 256;
                double *grown = realloc(c->step_ms, cap * sizeof *grown);
                if (!grown) {
                    if (!st)
                        st = PS_ENOMEM;
                    snprintf(c->err, sizeof c->err, "out of memory for step timings");
                } else {
                    c->step_ms = grown;
                    c->stepcap = cap;
                }
            }
            {
                /* a fused launch: its time shared evenly by its steps */
                cl_uint m = c->evsteps[e] ? c->evsteps[e] : 1, q;
                for (q = 0; q < m && c->nstep < c->stepcap; q++)
                    c->step_ms[c->nstep++] = (double)(t1 - t0) * 1e-6 / m;
            }
        }
        clReleaseEvent(c->ev[e]);
    }
    c->nev = 0;
    return st;
}

static int ocl_finish(void *vc)
{
    ocl_ctx *c = vc;
    cl_int e = clFinish(c->q);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clFinish");
    return collect_events(c);
}

static int ocl_ready(ocl_ctx *c);

static int ocl_step(void *vc, long nsteps)
{
    ocl_ctx *c = vc;
    long t, launches = 0;
    int st;
    cl_int e;
    if (nsteps > 0 && (st = ocl_ready(c)))
        return st;
    for (t = 0; t < nsteps;) {
        cl_event *evp = NULL;
        cl_kernel k;
        cl_uint m = 1;
        const size_t *global = c->global, *local = c->local;
        cl_uint dims = c->dims;
        if (c->cfg.profile) {
            if (c->nev == c->evcap) {
                if (c->evcap >= PS_OCL_MAX_QUEUED) {
                    /* bound the events held: read the ones queued so far */
                    st = ocl_finish(c);
                    if (st)
                        return st;
                } else {
                    size_t cap = c->evcap ? 2 * c->evcap : 64;
                    cl_event *grown = realloc(c->ev, cap * sizeof *grown);
                    cl_uint *grown_steps;
                    if (grown)
                        c->ev = grown;
                    grown_steps = grown ? realloc(c->evsteps, cap * sizeof *grown_steps) : NULL;
                    if (!grown_steps) {
                        snprintf(c->err, sizeof c->err, "out of memory for profiling events");
                        return PS_ENOMEM;
                    }
                    c->evsteps = grown_steps;
                    c->evcap = cap;
                }
            }
            evp = &c->ev[c->nev];
        }
        if ((c->fuse_gen || (c->ls_fuse && c->ls_on)) && c->fuse > 1 &&
            nsteps - t >= (long)c->fuse) {
            k = c->kf[c->cur];
            m = c->fuse;
            global = c->fglobal;
            local = c->flocal;
            dims = 1;
        } else
            k = c->ls_on ? c->kls[c->cur] : c->k[c->cur];
        if (c->ls_on) {
            /* the tag: the steps before this launch since the last read, and its input */
            const cl_ulong tag = ((c->ls_t + 1) << 1) | (cl_ulong)c->cur;
            e = clSetKernelArg(k, 14, sizeof tag, &tag);
            if (e != CL_SUCCESS)
                return ps_ocl_fail(c->err, sizeof c->err, e, "clSetKernelArg(land-sum tag)");
            c->ls_t += m;
        }
        e = clEnqueueNDRangeKernel(c->q, k, dims, NULL, global, local, 0, NULL, evp);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e,
                               "clEnqueueNDRangeKernel (step %ld of %ld, %u step%s, global "
                               "%zux%zux%zu, local %zux%zux%zu)",
                               t + 1, nsteps, m, m > 1 ? "s fused" : "", global[0], global[1],
                               global[2], local[0], local[1], local[2]);
        if (evp)
            c->evsteps[c->nev++] = m;
        c->cur = 1 - c->cur; /* Jacobi: the output becomes the current field */
        t += m;
        if (++launches % PS_OCL_MAX_QUEUED == 0 && t < nsteps) {
            /* bound the commands a runtime must hold for a very long step() */
            st = ocl_finish(c);
            if (st)
                return st;
        }
    }
    e = clFlush(c->q);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clFlush");
    return PS_OK;
}

/* Buffer/host origins and region of a rectangular copy (bytes, rows, slices). */
static void rect(ocl_ctx *c, const ps_region *r, size_t bo[3], size_t ho[3], size_t reg[3])
{
    bo[0] = r->start[2] * c->es;
    bo[1] = r->start[1];
    bo[2] = r->start[0];
    ho[0] = ho[1] = ho[2] = 0;
    reg[0] = r->count.nx * c->es;
    reg[1] = r->count.ny;
    reg[2] = r->count.nz;
}

/*
 * Before a command on the fields: the adopted buffer unmapped (a kernel must
 * not write a mapped buffer), its land back to +0.0 first after a download in
 * place.
 */
static int ocl_ready(ocl_ctx *c)
{
    cl_int e;
    if (c->mapped && c->host_form && c->ls_on)
        ps_land_zero(&c->ls, c->mapped); /* land back to +0.0 while the host has it */
    c->host_form = 0;
    if (c->mapped) {
        e = clEnqueueUnmapMemObject(c->q, c->buf[c->adopted], c->mapped, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueUnmapMemObject");
        c->mapped = NULL;
    }
    return PS_OK;
}

/*
 * The land-sum form (ls_setup): the host side of the fields' land
 * (core/ps_plugin_land.h) and the report of a launch that wrote a NaN.
 */

/*
 * The count bytes to the device: a copy, or for a buffer made on them a map
 * and unmap (a runtime that keeps its own copy updates it at the unmap; the
 * mapping is the host's bytes where the runtime uses them in place). No
 * kernel reads them meanwhile: uploads come after ls_check's blocking read.
 */
static int ls_send_counts(ocl_ctx *c)
{
    const size_t cells = c->g.nz * c->g.ny * c->g.nx;
    cl_int e;
    if (c->ls_shared) {
        void *p = clEnqueueMapBuffer(c->q, c->lscnt, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                     cells, 0, NULL, NULL, &e);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueMapBuffer (land-sum counts, "
                               "%zu bytes)", cells);
        if (p != c->ls.cnt)
            memcpy(p, c->ls.cnt, cells);
        e = clEnqueueUnmapMemObject(c->q, c->lscnt, p, 0, NULL, NULL);
    } else {
        e = clEnqueueWriteBuffer(c->q, c->lscnt, CL_TRUE, 0, cells, c->ls.cnt, 0, NULL, NULL);
    }
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "sending the land-sum counts (%zu bytes)",
                           cells);
    return PS_OK;
}

/* Buffer @p b, land as +0.0, to NaN land, and the masked kernels from now on. */
static int ls_leave(ocl_ctx *c, int b)
{
    void *h = malloc(c->bytes);
    cl_int e;
    if (!h) {
        snprintf(c->err, sizeof c->err, "out of memory leaving the land-sum form");
        return PS_ENOMEM;
    }
    e = clEnqueueReadBuffer(c->q, c->buf[b], CL_TRUE, 0, c->bytes, h, 0, NULL, NULL);
    if (e == CL_SUCCESS) {
        ps_land_restore(&c->ls, h, NULL);
        e = clEnqueueWriteBuffer(c->q, c->buf[b], CL_TRUE, 0, c->bytes, h, 0, NULL, NULL);
    }
    free(h);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "leaving the land-sum form");
    c->ls_on = 0; /* unfused masked steps from now on */
    return PS_OK;
}

/*
 * Before the fields are read or written: whether a land-sum launch since the
 * last call wrote a NaN; if one did, its input (in the buffer its tag names;
 * the launches after it did nothing) becomes the state on NaN land, and the
 * steps from it on are redone by the masked kernel: the reference would mask
 * the NaN from then on, which the counts cannot follow.
 */
static int ls_check(ocl_ctx *c)
{
    cl_ulong tag = 0, steps = c->ls_t;
    const cl_ulong zero = 0;
    cl_int e;
    int st;
    if (!c->ls_on || !steps)
        return PS_OK;
    e = clEnqueueReadBuffer(c->q, c->lsflag, CL_TRUE, 0, sizeof tag, &tag, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueReadBuffer (land-sum flag)");
    c->ls_t = 0;
    if (!tag)
        return PS_OK;
    e = clEnqueueWriteBuffer(c->q, c->lsflag, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueWriteBuffer (land-sum flag)");
    c->cur = (int)(tag & 1);
    if ((st = ls_leave(c, c->cur)))
        return st;
    return ocl_step(c, (long)(steps - ((tag >> 1) - 1)));
}

/* the finish of the table: the steps done, and any redone (ls_check) */
static int ocl_finish_op(void *vc)
{
    ocl_ctx *c = vc;
    int st = ls_check(c);
    return st ? st : ocl_finish(c);
}

/*
 * An upload in the land-sum form: the cells converted on the host (in place
 * for the adopted field, else through a copy of the region) and the counts
 * sent where the mask changed. *@p done 0: the caller uploads as usual (the
 * form was left: land brings too many odd NaNs, or a region of the adopted
 * field, which the caller refuses).
 */
static int ls_upload(ocl_ctx *c, const void *host, const ps_region *r, int *done)
{
    const size_t n = r ? r->count.nz * r->count.ny * r->count.nx : c->g.nz * c->g.ny * c->g.nx;
    int st, ch = 0;
    cl_int e;
    *done = 0;
    if ((st = ls_check(c)))
        return st;
    if (!ps_land_fits(&c->ls, host, r)) {
        /* NaN land for good: the device's state first, where a region keeps it */
        if (r && (st = ocl_ready(c)))
            return st;
        if (r)
            return ls_leave(c, c->cur);
        c->ls_on = 0;
        return PS_OK;
    }
    if (c->host && host == c->host) {
        if (r)
            return PS_OK;
        if (ps_land_take(&c->ls, c->host, host, NULL, &ch))
            goto nomem;
        c->host_form = 0; /* converted above */
        if ((st = ocl_ready(c)))
            return st;
        c->cur = c->adopted;
    } else {
        void *tmp;
        if ((st = ocl_ready(c)))
            return st;
        if (!n) {
            *done = 1;
            return PS_OK;
        }
        if (!(tmp = malloc(n * c->es)))
            goto nomem;
        if (ps_land_take(&c->ls, tmp, host, r, &ch)) {
            free(tmp);
            goto nomem;
        }
        if (!r) {
            e = clEnqueueWriteBuffer(c->q, c->buf[c->cur], CL_TRUE, 0, c->bytes, tmp, 0, NULL,
                                     NULL);
        } else {
            size_t bo[3], ho[3], reg[3];
            rect(c, r, bo, ho, reg);
            e = clEnqueueWriteBufferRect(c->q, c->buf[c->cur], CL_TRUE, bo, ho, reg,
                                         c->g.nx * c->es, c->g.ny * c->g.nx * c->es, reg[0],
                                         reg[0] * reg[1], tmp, 0, NULL, NULL);
        }
        free(tmp);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueWriteBuffer (land-sum "
                               "upload)");
    }
    if (ch && (st = ls_send_counts(c)))
        return st;
    *done = 1;
    return PS_OK;
nomem:
    snprintf(c->err, sizeof c->err, "out of memory for the land-sum form's upload");
    return PS_ENOMEM;
}

static int ocl_upload(void *vc, const void *host, const ps_region *r)
{
    ocl_ctx *c = vc;
    double t0 = ps_plugin_now_ms();
    cl_int e;
    int st = ps_plugin_region_check(&c->g, r, c->err, sizeof c->err);
    if (st)
        return st;
    if (c->ls_on) {
        int done;
        if ((st = ls_upload(c, host, r, &done)))
            return st;
        if (done) {
            c->upload_ms += ps_plugin_now_ms() - t0;
            return PS_OK;
        }
    }
    if (c->host && host == c->host) {
        if (r) {
            snprintf(c->err, sizeof c->err, "upload: the adopted field goes in whole");
            return PS_EINVAL;
        }
        /* in place: its cells are the buffer's */
        c->host_form = 0; /* its land is the caller's now */
        if ((st = ocl_ready(c)))
            return st;
        c->cur = c->adopted;
    } else if ((st = ocl_ready(c))) {
        return st;
    } else if (!r) {
        e = clEnqueueWriteBuffer(c->q, c->buf[c->cur], CL_TRUE, 0, c->bytes, host, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueWriteBuffer (%zu bytes)",
                               c->bytes);
    } else if (r->count.nz && r->count.ny && r->count.nx) {
        size_t bo[3], ho[3], reg[3];
        rect(c, r, bo, ho, reg);
        e = clEnqueueWriteBufferRect(c->q, c->buf[c->cur], CL_TRUE, bo, ho, reg, c->g.nx * c->es,
                                     c->g.ny * c->g.nx * c->es, reg[0], reg[0] * reg[1], host, 0,
                                     NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueWriteBufferRect");
    }
    c->upload_ms += ps_plugin_now_ms() - t0;
    return PS_OK;
}

/*
 * A whole download into the adopted field: the state into its buffer (copied
 * from the other buffer where that holds it), which becomes cur and is mapped
 * for the caller until the next command on the fields (ocl_ready); in the
 * land-sum form land's NaN is put back in place.
 */
static int ocl_download_adopted(ocl_ctx *c)
{
    cl_mem a = c->buf[c->adopted];
    cl_int e;
    void *p;
    int st;
    if (c->mapped)
        return PS_OK; /* there already, and mapped */
    if ((st = ls_check(c)))
        return st;
    if (c->cur != c->adopted) {
        e = clEnqueueCopyBuffer(c->q, c->buf[c->cur], a, 0, 0, c->bytes, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueCopyBuffer (%zu bytes)",
                               c->bytes);
    }
    c->cur = c->adopted;
    p = clEnqueueMapBuffer(c->q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, c->bytes, 0, NULL,
                           NULL, &e);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueMapBuffer (%zu bytes)", c->bytes);
    c->mapped = p;
    if (p != c->host) { /* the runtime broke CL_MEM_USE_HOST_PTR's promise */
        snprintf(c->err, sizeof c->err, "download: the adopted field's buffer maps at %p, not "
                 "at the host field %p", p, c->host);
        return PS_EDEVICE;
    }
    if (c->ls_on) {
        ps_land_restore(&c->ls, p, NULL); /* land's NaN, in place */
        c->host_form = 1;
    }
    return PS_OK;
}

static int ocl_download(void *vc, void *host, const ps_region *r)
{
    ocl_ctx *c = vc;
    double t0 = ps_plugin_now_ms();
    cl_int e;
    int st = ps_plugin_region_check(&c->g, r, c->err, sizeof c->err);
    if (st)
        return st;
    if (c->host && host == c->host) {
        if (r && (r->start[0] || r->start[1] || r->start[2] || r->count.nz != c->g.nz ||
                  r->count.ny != c->g.ny || r->count.nx != c->g.nx)) {
            snprintf(c->err, sizeof c->err, "download: the adopted field comes out whole");
            return PS_EINVAL;
        }
        st = ocl_download_adopted(c);
        c->download_ms += ps_plugin_now_ms() - t0;
        return st ? st : collect_events(c);
    }
    if ((st = ls_check(c)) || (st = ocl_ready(c)))
        return st;
    if (!r) {
        e = clEnqueueReadBuffer(c->q, c->buf[c->cur], CL_TRUE, 0, c->bytes, host, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueReadBuffer (%zu bytes)",
                               c->bytes);
    } else if (r->count.nz && r->count.ny && r->count.nx) {
        size_t bo[3], ho[3], reg[3];
        rect(c, r, bo, ho, reg);
        e = clEnqueueReadBufferRect(c->q, c->buf[c->cur], CL_TRUE, bo, ho, reg, c->g.nx * c->es,
                                    c->g.ny * c->g.nx * c->es, reg[0], reg[0] * reg[1], host, 0,
                                    NULL, NULL);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(c->err, sizeof c->err, e, "clEnqueueReadBufferRect");
    }
    if (c->ls_on)
        ps_land_restore(&c->ls, host, r);
    c->download_ms += ps_plugin_now_ms() - t0;
    /* the blocking read waited for every step before it: read their events */
    return collect_events(c);
}

/* Every kernel's field arguments (0: in, 1: out) again, after a buffer changed. */
static int bind_fields(ocl_ctx *c)
{
    cl_kernel *ks[3] = {c->k, c->kf, c->kls};
    cl_int e = CL_SUCCESS;
    int s, b;
    for (s = 0; s < 3; s++)
        for (b = 0; b < 2 && e == CL_SUCCESS; b++) {
            if (!ks[s][b])
                continue;
            e = clSetKernelArg(ks[s][b], 0, sizeof(cl_mem), &c->buf[b]);
            if (e == CL_SUCCESS)
                e = clSetKernelArg(ks[s][b], 1, sizeof(cl_mem), &c->buf[1 - b]);
        }
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clSetKernelArg (the adopted field)");
    return PS_OK;
}

/*
 * ps_backend_ops.adopt, on a CPU device only (a device whose memory is the
 * host's): the buffer cur is replaced by one made on @p host with
 * CL_MEM_USE_HOST_PTR, which the runtime uses as the buffer's storage, then
 * the field is taken as a whole upload would take it. Elsewhere PS_ENOTIMPL:
 * host memory would be a GPU's slow path.
 */
static int ocl_adopt(void *vc, void *host)
{
    ocl_ctx *c = vc;
    cl_mem m;
    cl_int e;
    int st;
    if (!(c->dev->type & CL_DEVICE_TYPE_CPU)) {
        snprintf(c->err, sizeof c->err, "adopt: %s is a %s device: its memory is not the "
                 "host's", c->dev->name, ps_ocl_type_name(c->dev->type));
        return PS_ENOTIMPL;
    }
    if (c->host) {
        snprintf(c->err, sizeof c->err, "adopt: the context steps a host field already");
        return PS_EINVAL;
    }
    if (!host || (uintptr_t)host % c->es) {
        snprintf(c->err, sizeof c->err, "adopt: the host field must be aligned to its "
                 "%zu-byte cells", c->es);
        return PS_EINVAL;
    }
    /* the land-sum launches so far done and checked: the counts change below */
    if ((st = ls_check(c)))
        return st;
    m = clCreateBuffer(c->clctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, c->bytes, host, &e);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(c->err, sizeof c->err, e, "clCreateBuffer (CL_MEM_USE_HOST_PTR, "
                           "%zu bytes) on %s", c->bytes, c->dev->name);
    clReleaseMemObject(c->buf[c->cur]);
    c->buf[c->cur] = m;
    c->adopted = c->cur;
    c->host = host;
    if ((st = bind_fields(c)))
        return st;
    if (c->ls_on) {
        int ch;
        if (!ps_land_fits(&c->ls, host, NULL)) {
            c->ls_on = 0; /* too many odd NaNs on land: NaN land */
            return PS_OK;
        }
        if (ps_land_take(&c->ls, host, host, NULL, &ch)) {
            snprintf(c->err, sizeof c->err, "out of memory for the land-sum form");
            return PS_ENOMEM;
        }
        return ls_send_counts(c);
    }
    return PS_OK;
}

static int ocl_timing(void *vc, ps_timing *t)
{
    ocl_ctx *c = vc;
    double *sorted;
    size_t i;
    int st;
    memset(t, 0, sizeof *t);
    if (!c->cfg.profile) {
        snprintf(c->err, sizeof c->err, "per-step device timing needs profiling (cfg->profile)");
        return PS_ENOTIMPL;
    }
    st = ocl_finish_op(c);
    if (st)
        return st;
    t->upload_ms = c->upload_ms;
    t->download_ms = c->download_ms;
    t->device_bytes = 2 * (uint64_t)c->bytes + (uint64_t)c->params_bytes;
    t->steps = (long)c->nstep;
    if (!c->nstep)
        return PS_OK;
    sorted = malloc(c->nstep * sizeof *sorted);
    if (!sorted) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return PS_ENOMEM;
    }
    memcpy(sorted, c->step_ms, c->nstep * sizeof *sorted);
    t->step_ms_med = ps_plugin_median(sorted, c->nstep); /* sorts the copy */
    for (i = 0; i < c->nstep; i++)
        t->step_ms_sum += sorted[i];
    t->step_ms_min = sorted[0];
    t->step_ms_max = sorted[c->nstep - 1];
    free(sorted);
    return PS_OK;
}

static void ocl_destroy(void *vc)
{
    ocl_ctx *c = vc;
    int b;
    if (!c)
        return;
    if (c->mapped)
        clEnqueueUnmapMemObject(c->q, c->buf[c->adopted], c->mapped, 0, NULL, NULL);
    if (c->q)
        clFinish(c->q);
    if (c->nev)
        collect_events(c);
    for (b = 0; b < 2; b++) {
        if (c->k[b])
            clReleaseKernel(c->k[b]);
        if (c->kf[b])
            clReleaseKernel(c->kf[b]);
        if (c->kls[b])
            clReleaseKernel(c->kls[b]);
        if (c->buf[b])
            clReleaseMemObject(c->buf[b]);
    }
    if (c->vprog)
        clReleaseProgram(c->vprog);
    if (c->params)
        clReleaseMemObject(c->params);
    if (c->wscratch)
        clReleaseMemObject(c->wscratch);
    if (c->lscnt)
        clReleaseMemObject(c->lscnt);
    if (c->lsflag)
        clReleaseMemObject(c->lsflag);
    ps_land_free(&c->ls);
    if (c->q)
        clReleaseCommandQueue(c->q);
    /* the cl_context and program belong to the process-wide cache */
    free(c->ev);
    free(c->evsteps);
    free(c->step_ms);
    free(c);
}

static const char *ocl_last_error(void *vc)
{
    ocl_ctx *c = vc;
    return c ? c->err : "";
}

/* printf @p fmt onto the end of c->choices (cut at its size) */
static void choice_add(ocl_ctx *c, const char *fmt, ...)
{
    const size_t n = strlen(c->choices);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->choices + n, sizeof c->choices - n, fmt, ap);
    va_end(ap);
}

/* c->choices: the kernel a step launches, and the forms and fusion on top */
static void ocl_choices(ocl_ctx *c)
{
    /* auto for a stencil with a fast path, none in this shape */
    const int nofast = !c->fast && c->cfg.kernel == PS_KERNEL_AUTO &&
                       ps_plugin_name_index(ps_ocl_fast_paths, c->cfg.stencil->name) >= 0;
    c->choices[0] = '\0';
    choice_add(c, "%s %s", c->fast ? "fast path" : "generic", c->kname);
    if (c->vprog || nofast) {
        choice_add(c, " (%s", c->vprog ? "explicit vectors" : "");
        if (nofast)
            choice_add(c, "%sno fast-path kernel in the %s shape", c->vprog ? "; " : "",
                       ps_ocl_shapes[c->shape]);
        choice_add(c, ")");
    }
    if (c->ls_on)
        choice_add(c, ", land-sum form %s", c->ls_kname);
    if (c->vec_why[0])
        choice_add(c, " (scalar rows: %s)", c->vec_why);
    if (c->fuse > 1)
        choice_add(c, ", %u steps a launch (%s wavefront)", (unsigned)c->fuse,
                   c->fuse_gen ? "generic" : "land-sum");
}

static const char *ocl_describe(void *vc, int what)
{
    ocl_ctx *c = vc;
    if (c && what == PS_DESCRIBE_KERNEL)
        return c->fast ? "fast" : "generic";
    return c && what == PS_DESCRIBE_CHOICES ? c->choices : "";
}

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/*
 * Work-group shape: cfg->block when given (the OpenCL local size of the
 * kernel's range: (i, j) for ij, (i, j, k) for ijk, (j, k) for row), checked
 * against the device and kernel; otherwise along the first axis a power-of-two
 * multiple of the kernel's preferred multiple (up to 64), and along the
 * second axis up to 256 work-items in all.
 */
static int shape(ocl_ctx *c, cl_kernel k, char *why, size_t whylen)
{
    size_t pref = 1, kwg = 1, total, a;
    const size_t n[3] = {c->row ? c->g.ny : c->g.nx, c->row ? c->g.nz : c->g.ny, c->g.nz};
    cl_int e;
    int user = c->cfg.block[0] > 0 || c->cfg.block[1] > 0 || c->cfg.block[2] > 0;
    const char *axes = c->row ? "jk-" : "ijk"; /* the range's axes */

    e = clGetKernelWorkGroupInfo(k, c->dev->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg,
                                 NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
    e = clGetKernelWorkGroupInfo(k, c->dev->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                 sizeof pref, &pref, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clGetKernelWorkGroupInfo("
                                           "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)");
    if (pref < 1)
        pref = 1;
    if (user) {
        for (a = 0; a < 3; a++) {
            if (c->cfg.block[a] < 0) {
                snprintf(why, whylen, "local size %d on axis %c is negative", c->cfg.block[a],
                         axes[a]);
                return PS_EINVAL;
            }
            c->local[a] = c->cfg.block[a] > 0 ? (size_t)c->cfg.block[a] : 1;
        }
        if (c->dims == 2 && c->local[2] != 1) {
            snprintf(why, whylen, "local size %zu along the third axis: the %s kernel is a 2-D "
                                  "range (knob opencl_kernel=ijk, or PSTENCIL_OPENCL_KERNEL=ijk, "
                                  "for a 3-D range)",
                     c->local[2], c->row ? "row" : "ij");
            return PS_EINVAL;
        }
    } else {
        size_t li = pref, lj = 1, target = kwg < 256 ? kwg : 256;
        while (li < 64 && li < n[0] && 2 * li <= target)
            li *= 2;
        if (li > kwg)
            li = kwg;
        while (lj < n[1] && 2 * lj * li <= target)
            lj *= 2;
        c->local[0] = li;
        c->local[1] = lj;
        c->local[2] = 1;
    }
    total = c->local[0] * c->local[1] * c->local[2];
    for (a = 0; a < 3; a++)
        if (c->local[a] > c->dev->max_item[a]) {
            snprintf(why, whylen, "local size %zu along %c exceeds the device's maximum %zu",
                     c->local[a], axes[a], c->dev->max_item[a]);
            return PS_EINVAL;
        }
    if (total > kwg) {
        snprintf(why, whylen, "local size %zux%zux%zu = %zu work-items exceeds this kernel's "
                              "maximum work-group size %zu on %s",
                 c->local[0], c->local[1], c->local[2], total, kwg, c->dev->name);
        return PS_EINVAL;
    }
    for (a = 0; a < 3; a++)
        c->global[a] = round_up(a < c->dims ? n[a] : 1, c->local[a]);
    return PS_OK;
}

/*
 * The kernel for c->cfg: the hand-written one of the fast-path table
 * (fast/ps_opencl_fast.c) where it has an entry and the config does not ask
 * for the generic skeleton, else the stencil's generic kernel; in the shape
 * of opencl_kernel (rule: row on CPU devices, ij elsewhere).
 */
static int pick_kernel(ocl_ctx *c, char *why, size_t whylen)
{
    const char *name = c->cfg.stencil->name, *kshape;
    int n;
    /*
     * Default shape: on CPUs (PoCL) a work-item per (j, k) row with the i loop
     * inside, which the CPU compiler vectorises (a range over (i, j) or
     * (i, j, k) is several times slower there: docs/performance.md, "OpenCL
     * on PoCL"); elsewhere a range over (i, j),
     * consecutive work-items on consecutive i (coalesced), each walking its
     * column along k.
     */
    ps_knob_rule(&c->knobs.opencl_kernel, (c->dev->type & CL_DEVICE_TYPE_CPU) ? 2 : 0);
    c->shape = (int)c->knobs.opencl_kernel.value;
    kshape = ps_ocl_shapes[c->shape];
    c->dims = c->shape == PS_OCL_SHAPE_IJK ? 3 : 2;
    c->row = c->shape == PS_OCL_SHAPE_ROW;
    c->fast = c->cfg.kernel == PS_KERNEL_GENERIC ? NULL : ps_ocl_fast_find(&c->cfg, c->shape);
    if (!c->fast && c->cfg.kernel == PS_KERNEL_FAST) {
        const unsigned have = ps_ocl_fast_shapes(&c->cfg);
        char list[32] = "";
        int s, first = -1;
        for (s = 0; s < 3; s++)
            if (have >> s & 1u) {
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         list[0] ? ", " : "", ps_ocl_shapes[s]);
                if (first < 0)
                    first = s;
            }
        snprintf(why, whylen, "--kernel fast: the opencl fast path of stencil '%s' has no "
                 "kernel in the %s shape (%s, %s mode; it has: %s); use --kernel generic or "
                 "auto%s%s", name, kshape, ps_plugin_precision_name(c->cfg.precision),
                 ps_plugin_mode_name(c->cfg.mode), list[0] ? list : "none",
                 first >= 0 ? ", or the knob opencl_kernel=" : "",
                 first >= 0 ? ps_ocl_shapes[first] : "");
        return PS_EUNSUPPORTED;
    }
    if (c->fast)
        n = snprintf(c->kname, sizeof c->kname, "%s_%s", c->fast->kernel, kshape);
    else
        n = snprintf(c->kname, sizeof c->kname, "ps_gen_%s_%s", name, kshape);
    if (n < 0 || (size_t)n >= sizeof c->kname) {
        snprintf(why, whylen, "stencil name '%s' is too long for a kernel name", name);
        return PS_EINVAL;
    }
    return PS_OK;
}

/* Kernel arguments: in, out, parameters, box extents, origin, global grid. */
static int set_args(ocl_ctx *c, cl_kernel k, int b, char *why, size_t whylen)
{
    const ps_box *box = &c->cfg.box;
    const cl_uint ext[3] = {(cl_uint)c->g.nz, (cl_uint)c->g.ny, (cl_uint)c->g.nx};
    const cl_long org[3] = {(cl_long)box->origin[0], (cl_long)box->origin[1],
                            (cl_long)box->origin[2]};
    const cl_long glob[3] = {(cl_long)box->global.nz, (cl_long)box->global.ny,
                             (cl_long)box->global.nx};
    cl_int e = CL_SUCCESS;
    cl_uint a = 0, q;
    e = clSetKernelArg(k, a++, sizeof(cl_mem), &c->buf[b]);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, a++, sizeof(cl_mem), &c->buf[1 - b]);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, a++, sizeof(cl_mem), &c->params);
    for (q = 0; q < 3 && e == CL_SUCCESS; q++)
        e = clSetKernelArg(k, a++, sizeof ext[q], &ext[q]);
    for (q = 0; q < 3 && e == CL_SUCCESS; q++)
        e = clSetKernelArg(k, a++, sizeof org[q], &org[q]);
    for (q = 0; q < 3 && e == CL_SUCCESS; q++)
        e = clSetKernelArg(k, a++, sizeof glob[q], &glob[q]);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s, %u)", c->kname, a - 1);
    return PS_OK;
}

/* The host's L2 per core in bytes (0: unknown): a CPU device is the host. */
static size_t host_l2(void)
{
#ifdef _SC_LEVEL2_CACHE_SIZE
    long s = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (s > 0)
        return (size_t)s;
#endif
    return 0;
}

/* the arguments of a wavefront kernel before its own (wave_setup) */
enum {
    WAVE_GEN, /* the generic kernels' (ps_gen_NAME_wave): set_args */
    WAVE_LS   /* the land-sum form's (ps_glv_NAME_wave): set_ls_args */
};

static int set_ls_args(ocl_ctx *c, cl_kernel k, int b, const char *kname, char *why,
                       size_t whylen);

/*
 * Fused steps as a wavefront, T per launch (opencl_wave): @p kname, a generic
 * kernel's (ps_gen_NAME_wave) or the land-sum form's (ps_glv_NAME_wave),
 * @p form saying which, for a stencil of radius @p r. Rule: on CPU devices the
 * rule of the openmp backend: on an Intel CPU (CL_DEVICE_VENDOR) with an L2 of
 * 1 MiB or more, PS_OCL_WAVE_CPU_L2 steps and a work-item's intermediate steps
 * within half that L2; on other CPUs PS_OCL_WAVE_CPU steps within
 * PS_OCL_WAVE_BYTES (their L3 is fast); none elsewhere. Tiles of TJ output
 * rows (opencl_wave_tj; rule: the rows split evenly over the compute units, at
 * most as many as keep a work-item's scratch, (T-1) steps of 2r+1 planes of TJ
 * + 2 (T-1) r rows, within that budget); on a CPU one work-item per compute
 * unit walks its tiles in turn, so the scratch is theirs, not the grid's
 * (elsewhere one per tile); TJ halved until the scratch is one allocation. Not
 * fusing is never an error: it only costs speed. Evidence:
 * docs/performance.md, "OpenCL on PoCL".
 */
static int wave_setup(ocl_ctx *c, cl_program prog, const char *kname, size_t r, int form,
                      char *why, size_t whylen)
{
    const int cpu = (c->dev->type & CL_DEVICE_TYPE_CPU) != 0;
    /* Intel's by the vendor name: PoCL's CPU device says vendor id 0x8086 on
     * any CPU, its vendor name is the CPU's ("GenuineIntel", "AuthenticAMD") */
    const size_t l2 = cpu && strstr(c->dev->vendor, "Intel") ? host_l2() : 0;
    unsigned long t, tj = 0;
    size_t budget = l2 >= (1u << 20) ? l2 / 2 : PS_OCL_WAVE_BYTES;
    size_t groups, bytes, cu = c->dev->compute_units ? c->dev->compute_units : 1;
    const size_t slots = 2 * r + 1; /* rolling planes per intermediate step */
    const int rule_tj = c->knobs.opencl_wave_tj.source == PS_KNOB_UNSET;
    const cl_uint a0 = form == WAVE_LS ? 15 : 12; /* its own ones */
    cl_uint targ[2];
    cl_int e;
    int b;
    ps_knob_rule(&c->knobs.opencl_wave,
                 !cpu ? 0 : l2 >= (1u << 20) ? PS_OCL_WAVE_CPU_L2 : PS_OCL_WAVE_CPU);
    t = (unsigned long)c->knobs.opencl_wave.value;
    if (!rule_tj)
        tj = (unsigned long)c->knobs.opencl_wave_tj.value;
    if (t < 2 || c->g.nz <= 2 * r || c->g.ny <= 2 * r || c->g.nx <= 2 * r)
        return PS_OK;
    if (tj == 0) {
        /* the rows split over the compute units, at most as many as keep a
         * work-item's intermediate steps within the budget */
        size_t fit = budget / ((t - 1) * slots * c->g.nx * c->es);
        tj = (c->g.ny + cu - 1) / cu;
        fit = fit > 2 * (t - 1) * r + 8 ? fit - 2 * (t - 1) * r : 8;
        if (tj > fit)
            tj = fit;
    }
    if (tj > c->g.ny)
        tj = c->g.ny;
    for (;;) {
        /* a work-item per compute unit walks its tiles in turn (the scratch is
         * theirs); a tile per work-item elsewhere */
        groups = (c->g.ny + tj - 1) / tj;
        if (cpu && groups > cu)
            groups = cu;
        bytes = groups * (t - 1) * slots * (tj + 2 * (t - 1) * r) * c->g.nx * c->es;
        if (bytes <= c->dev->max_alloc)
            break;
        if (tj == 1)
            return PS_OK; /* does not fit: unfused steps */
        tj = (tj + 1) / 2;
    }
    if (rule_tj)
        ps_knob_rule(&c->knobs.opencl_wave_tj, (long)tj);
    for (b = 0; b < 2; b++) {
        c->kf[b] = clCreateKernel(prog, kname, &e);
        if (e != CL_SUCCESS) {
            c->kf[b] = NULL;
            return ps_ocl_fail(why, whylen, e, "clCreateKernel(%s)", kname);
        }
    }
    c->wscratch = clCreateBuffer(c->clctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    if (e != CL_SUCCESS) {
        c->wscratch = NULL;
        return PS_OK; /* no room: unfused steps */
    }
    c->flocal[0] = c->flocal[1] = c->flocal[2] = 1;
    c->fglobal[0] = groups;
    c->fglobal[1] = c->fglobal[2] = 1;
    targ[0] = (cl_uint)t;
    targ[1] = (cl_uint)tj;
    for (b = 0; b < 2; b++) {
        int st = form == WAVE_LS ? set_ls_args(c, c->kf[b], b, kname, why, whylen)
                                 : set_args(c, c->kf[b], b, why, whylen);
        if (st)
            return st;
        e = clSetKernelArg(c->kf[b], a0, sizeof c->wscratch, &c->wscratch);
        if (e == CL_SUCCESS)
            e = clSetKernelArg(c->kf[b], a0 + 1, sizeof targ[0], &targ[0]);
        if (e == CL_SUCCESS)
            e = clSetKernelArg(c->kf[b], a0 + 2, sizeof targ[1], &targ[1]);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s)", kname);
    }
    c->fuse = (cl_uint)t;
    return PS_OK;
}

/*
 * The generic kernels' fused steps (ps_gen_NAME_wave, the wavefront of
 * wave_setup) where the generic kernel of the stencil runs and opencl_wave
 * is given (by the caller or the environment), in both modes: each fused
 * row is the unfused kernel's row cells. Opt-in: on PoCL (course grid,
 * float32, 2 cores) it measured 1.4x (4 steps) to 1.6x (8) the time per step
 * of the unfused row kernel, which PoCL vectorises across work-items
 * (docs/opencl.md).
 */
static int gen_wave_setup(ocl_ctx *c, cl_program prog, char *why, size_t whylen)
{
    char kname[128];
    int n;
    if (c->fast || !ps_knob_given(&c->knobs.opencl_wave))
        return PS_OK;
    n = snprintf(kname, sizeof kname, "ps_gen_%s_wave", c->cfg.stencil->name);
    if (n < 0 || (size_t)n >= sizeof kname)
        return PS_OK;
    c->fuse_gen = 1;
    return wave_setup(c, prog, kname, (size_t)c->cfg.stencil->radius, WAVE_GEN, why, whylen);
}

/*
 * The stencil's rows on explicit vectors (ps_opencl_vector.cl, its own
 * program: ps_ocl_program_vector) for the generic kernels in the row shape:
 * the masked row kernel becomes ps_gmv_NAME_row, and c->vprog is kept for
 * the land-sum form (ls_setup). A stencil whose cell functions do not
 * compile on vector types keeps the scalar rows; c->vec_why says why (the
 * build log's first error). Evidence: docs/performance.md, "OpenCL on PoCL".
 */
static int vec_setup(ocl_ctx *c, char *why, size_t whylen)
{
    char vwhy[4096], kname[sizeof c->kname];
    cl_kernel k[2] = {NULL, NULL};
    size_t kwg = 0;
    cl_int e;
    int b, n, st = PS_OK;
    if (c->fast || !c->row)
        return PS_OK;
    if (ps_ocl_program_vector(c->dev, c->var, c->knobs.opencl_build_options.value,
                              knob_label(PS_KNOB_ID_opencl_build_options,
                                         c->knobs.opencl_build_options.source),
                              c->cfg.stencil->name, &c->vprog, vwhy, sizeof vwhy)) {
        const char *r = strstr(vwhy, "error:");
        c->vprog = NULL;
        r = r ? r : vwhy;
        snprintf(c->vec_why, sizeof c->vec_why, "%s%.*s", r != vwhy ? "vector build: " : "",
                 (int)strcspn(r, "\n"), r);
        return PS_OK;
    }
    n = snprintf(kname, sizeof kname, "ps_gmv_%s_row", c->cfg.stencil->name);
    if (n < 0 || (size_t)n >= sizeof kname)
        return PS_OK;
    for (b = 0; b < 2 && !st; b++) {
        k[b] = clCreateKernel(c->vprog, kname, &e);
        if (e != CL_SUCCESS)
            st = ps_ocl_fail(why, whylen, e, "clCreateKernel(%s)", kname);
        else
            st = set_args(c, k[b], b, why, whylen);
    }
    if (!st) {
        e = clGetKernelWorkGroupInfo(k[0], c->dev->device, CL_KERNEL_WORK_GROUP_SIZE,
                                     sizeof kwg, &kwg, NULL);
        if (e != CL_SUCCESS)
            st = ps_ocl_fail(why, whylen, e, "clGetKernelWorkGroupInfo(%s)", kname);
    }
    if (!st && kwg >= c->local[0] * c->local[1] * c->local[2]) {
        for (b = 0; b < 2; b++) { /* the masked rows on vectors from now on */
            clReleaseKernel(c->k[b]);
            c->k[b] = k[b];
            k[b] = NULL;
        }
        snprintf(c->kname, sizeof c->kname, "%s", kname);
    } else if (!st) { /* the work-group shape does not fit: the scalar rows */
        snprintf(c->vec_why, sizeof c->vec_why, "%s allows %zu work-items a group", kname,
                 kwg);
        clReleaseProgram(c->vprog);
        c->vprog = NULL;
    }
    for (b = 0; b < 2; b++)
        if (k[b])
            clReleaseKernel(k[b]);
    return st;
}

/* the land-sum kernels' arguments: the generic ones, the count bytes, the
 * flag and a tag (step() sets it before each launch) */
static int set_ls_args(ocl_ctx *c, cl_kernel k, int b, const char *kname, char *why,
                       size_t whylen)
{
    const cl_ulong zero = 0;
    int st = set_args(c, k, b, why, whylen);
    cl_int e;
    if (st)
        return st;
    e = clSetKernelArg(k, 12, sizeof c->lscnt, &c->lscnt);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, 13, sizeof c->lsflag, &c->lsflag);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, 14, sizeof zero, &zero);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clSetKernelArg(%s)", kname);
    return PS_OK;
}

/*
 * The land-sum form of the generic kernels (ps_gls_NAME_<shape>,
 * ps_opencl_generic.cl) for a stencil flagged PS_STENCIL_LAND_SUM in exact
 * mode: land held as +0.0 in the fields, the count bytes made on the host at
 * upload from the stencil's neighbour list (core/ps_plugin_land.h) and land's
 * NaN put back at download, on the host. With the stencil's vector program
 * (vec_setup), the row on explicit vectors (ps_glv_NAME_row), its steps
 * fused by the wavefront rule (wave_setup,
 * ps_glv_NAME_wave); else the scalar row, which the generic wavefront asked
 * for (opencl_wave given) replaces by the masked one. opencl_zero_land given
 * decides; its rule: on, except on CPU devices without the vector row, where
 * PoCL's masked row kernel measured twice as fast as the scalar land-sum row
 * (docs/performance.md, "OpenCL on PoCL").
 */
static int ls_setup(ocl_ctx *c, cl_program prog, char *why, size_t whylen)
{
    const size_t ext[3] = {c->g.nz, c->g.ny, c->g.nx};
    const size_t cells = ext[0] * ext[1] * ext[2];
    const cl_ulong zero = 0;
    const int given = ps_knob_given(&c->knobs.opencl_zero_land);
    const cl_program vprog = c->vprog;
    char kname[160];
    size_t kwg = 0;
    cl_int e;
    int b, st = PS_OK, n;
    ps_knob_rule(&c->knobs.opencl_zero_land, 1);
    if ((given && !c->knobs.opencl_zero_land.value) || c->cfg.mode != PS_MODE_EXACT ||
        c->fast || !(c->cfg.stencil->flags & PS_STENCIL_LAND_SUM) ||
        c->cfg.stencil->nneighbours > PS_LAND_MAX_NB)
        return PS_OK;
    if (!vprog && (ps_knob_given(&c->knobs.opencl_wave) ||
                   (!given && (c->dev->type & CL_DEVICE_TYPE_CPU))))
        return PS_OK;
    n = snprintf(kname, sizeof kname, "%s_%s_%s", vprog ? "ps_glv" : "ps_gls",
                 c->cfg.stencil->name, ps_ocl_shapes[c->shape]);
    if (n < 0 || (size_t)n >= sizeof kname)
        return PS_OK;
    for (b = 0; b < 2; b++) {
        c->kls[b] = clCreateKernel(vprog ? vprog : prog, kname, &e);
        if (e != CL_SUCCESS) {
            c->kls[b] = NULL;
            return ps_ocl_fail(why, whylen, e, "clCreateKernel(%s)", kname);
        }
    }
    snprintf(c->ls_kname, sizeof c->ls_kname, "%s", kname);
    e = clGetKernelWorkGroupInfo(c->kls[0], c->dev->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof kwg, &kwg, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clGetKernelWorkGroupInfo(%s)", kname);
    if (kwg < c->local[0] * c->local[1] * c->local[2])
        return PS_OK; /* the masked kernel's work-group shape does not fit: stay masked */
    if ((st = ps_land_init(&c->ls, c->cfg.stencil, ext, c->es))) {
        snprintf(why, whylen, "out of memory for the land-sum form's count bytes");
        return st;
    }
    /* a CPU device reads the host's count bytes in place: held once */
    c->ls_shared = (c->dev->type & CL_DEVICE_TYPE_CPU) != 0;
    c->lscnt = clCreateBuffer(c->clctx,
                              CL_MEM_READ_ONLY | (c->ls_shared ? CL_MEM_USE_HOST_PTR : 0), cells,
                              c->ls_shared ? c->ls.cnt : NULL, &e);
    if (e != CL_SUCCESS) {
        c->lscnt = NULL;
        return ps_ocl_fail(why, whylen, e, "clCreateBuffer (land-sum counts, %zu bytes)", cells);
    }
    c->lsflag = clCreateBuffer(c->clctx, CL_MEM_READ_WRITE, sizeof zero, NULL, &e);
    if (e != CL_SUCCESS) {
        c->lsflag = NULL;
        return ps_ocl_fail(why, whylen, e, "clCreateBuffer (land-sum flag)");
    }
    e = clEnqueueWriteBuffer(c->q, c->lsflag, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clEnqueueWriteBuffer (land-sum flag)");
    /* defined counts before the first upload: every cell ocean with none */
    if ((st = ls_send_counts(c))) {
        snprintf(why, whylen, "%s", c->err);
        return st;
    }
    for (b = 0; b < 2; b++)
        if ((st = set_ls_args(c, c->kls[b], b, kname, why, whylen)))
            return st;
    c->ls_on = 1;
    if (vprog) {
        n = snprintf(kname, sizeof kname, "ps_glv_%s_wave", c->cfg.stencil->name);
        if (n > 0 && (size_t)n < sizeof kname)
            st = wave_setup(c, vprog, kname, (size_t)c->cfg.stencil->radius, WAVE_LS, why,
                            whylen);
        c->ls_fuse = !st && c->fuse > 1;
    }
    return st;
}

/* The read-only buffer of packed kernel parameters (at least one element). */
static int make_params(ocl_ctx *c, char *why, size_t whylen)
{
    size_t n = ps_params_packed_len(&c->cfg);
    void *host;
    cl_int e;
    if (n == 0)
        n = 1;
    c->params_bytes = n * c->es;
    if (c->params_bytes > c->dev->max_alloc) {
        snprintf(why, whylen, "the %zu-byte parameter buffer exceeds the device's maximum "
                 "allocation of %llu bytes on %s", c->params_bytes,
                 (unsigned long long)c->dev->max_alloc, c->dev->name);
        return PS_ENOMEM;
    }
    host = calloc(n, c->es);
    if (!host) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    ps_params_pack(&c->cfg, host);
    c->params = clCreateBuffer(c->clctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               c->params_bytes, host, &e);
    free(host);
    if (e != CL_SUCCESS) {
        c->params = NULL;
        return ps_ocl_fail(why, whylen, e, "clCreateBuffer (parameters, %zu bytes) on %s",
                           c->params_bytes, c->dev->name);
    }
    return PS_OK;
}

static int ocl_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    ocl_ctx *c = NULL;
    ps_ocl_variant v;
    cl_program prog = NULL;
    cl_int e;
    int st, b;
    size_t cells;

    *out = NULL;
    if ((st = ps_plugin_check_config(cfg, why, whylen)))
        return st;
    if (ps_plugin_name_index(ps_ocl_stencils, cfg->stencil->name) < 0) {
        snprintf(why, whylen, "stencil '%s' is not in this plugin's program (it was built from "
                 "another kernels/ps_stencils.h)", cfg->stencil->name);
        return PS_EUNSUPPORTED;
    }
    if (cfg->mode != PS_MODE_EXACT && cfg->mode != PS_MODE_FAST) {
        snprintf(why, whylen, "unknown mode %d", (int)cfg->mode);
        return PS_EINVAL;
    }
    c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    c->adopted = -1;
    if ((st = ocl_knobs(&cfg->knobs, &c->knobs, why, whylen)))
        goto done;
    c->cfg = *cfg;
    c->g = cfg->box.extent;
    c->es = cfg->precision == PS_FLOAT64 ? sizeof(double) : sizeof(float);
    if (c->g.nx > UINT_MAX || c->g.ny > UINT_MAX || c->g.nz > UINT_MAX ||
        (c->g.ny && c->g.nx > SIZE_MAX / c->g.ny) ||
        (c->g.nz && c->g.nx * c->g.ny > SIZE_MAX / c->g.nz)) {
        snprintf(why, whylen, "grid %zux%zux%zu is too large", c->g.nz, c->g.ny, c->g.nx);
        st = PS_ENOMEM;
        goto done;
    }
    cells = c->g.nz * c->g.ny * c->g.nx;
    if (cells > SIZE_MAX / c->es) {
        snprintf(why, whylen, "grid %zux%zux%zu is too large", c->g.nz, c->g.ny, c->g.nx);
        st = PS_ENOMEM;
        goto done;
    }
    c->bytes = cells * c->es;
    if (c->bytes == 0) {
        snprintf(why, whylen, "empty box");
        st = PS_EINVAL;
        goto done;
    }
    st = ps_ocl_select(cfg->device, c->knobs.opencl_device.value,
                       knob_label(PS_KNOB_ID_opencl_device, c->knobs.opencl_device.source),
                       &c->dev, why, whylen);
    if (st)
        goto done;
    ps_knob_rule(&c->knobs.opencl_divide, 0);
    c->div = ps_ocl_div_for(c->dev, c->knobs.opencl_divide.value == 1);
    st = pick_kernel(c, why, whylen);
    if (st)
        goto done;
    if (cfg->precision == PS_FLOAT64 && !c->dev->fp64) {
        snprintf(why, whylen, "OpenCL device %d:%d (%s) has no double precision (no cl_khr_fp64): "
                              "float64 is not available on it, use float32",
                 c->dev->p, c->dev->d, c->dev->name);
        st = PS_EUNSUPPORTED;
        goto done;
    }
    if (cfg->mode == PS_MODE_EXACT && cfg->precision == PS_FLOAT64 && !c->dev->f64_exact_ops) {
        snprintf(why, whylen, "OpenCL device %d:%d (%s) lacks IEEE double subnormals, infinities "
                              "or round-to-nearest: exact float64 is impossible, use fast mode",
                 c->dev->p, c->dev->d, c->dev->name);
        st = PS_EUNSUPPORTED;
        goto done;
    }
    if (cfg->mode == PS_MODE_EXACT && cfg->precision == PS_FLOAT32 &&
        c->div == PS_OCL_DIV_NONE) {
        snprintf(why, whylen, "OpenCL device %d:%d (%s) cannot run exact float32: %s; it is "
                              "validated in fast mode only (--mode fast)",
                 c->dev->p, c->dev->d, c->dev->name,
                 c->dev->f32_exact_ops ? "no correctly rounded float division and no fp64"
                                       : "no IEEE float subnormals, infinities or round-to-nearest");
        st = PS_EUNSUPPORTED;
        goto done;
    }
    if (c->bytes > c->dev->max_alloc) {
        snprintf(why, whylen, "a %zu-byte buffer exceeds the device's maximum allocation of %llu "
                              "bytes on %s", c->bytes, (unsigned long long)c->dev->max_alloc,
                 c->dev->name);
        st = PS_ENOMEM;
        goto done;
    }
    v.f64 = cfg->precision == PS_FLOAT64;
    v.fast = cfg->mode == PS_MODE_FAST;
    v.div = (!v.f64 && !v.fast) ? c->div : PS_OCL_DIV_NONE;
    c->var = v;
    st = ps_ocl_program(c->dev, v, c->knobs.opencl_build_options.value,
                        knob_label(PS_KNOB_ID_opencl_build_options,
                                   c->knobs.opencl_build_options.source),
                        &c->clctx, &prog, why, whylen);
    if (st)
        goto done;
    c->q = clCreateCommandQueue(c->clctx, c->dev->device,
                                cfg->profile ? CL_QUEUE_PROFILING_ENABLE : 0, &e);
    if (e != CL_SUCCESS) {
        c->q = NULL;
        st = ps_ocl_fail(why, whylen, e, "clCreateCommandQueue on %s", c->dev->name);
        goto done;
    }
    for (b = 0; b < 2; b++) {
        c->buf[b] = clCreateBuffer(c->clctx, CL_MEM_READ_WRITE, c->bytes, NULL, &e);
        if (e != CL_SUCCESS) {
            c->buf[b] = NULL;
            st = ps_ocl_fail(why, whylen, e, "clCreateBuffer (%zu bytes) on %s", c->bytes,
                             c->dev->name);
            goto done;
        }
    }
    st = make_params(c, why, whylen);
    c->cfg.params.arrays = NULL; /* the caller's memory: read once, above */
    if (st)
        goto done;
    for (b = 0; b < 2; b++) {
        c->k[b] = clCreateKernel(prog, c->kname, &e);
        if (e != CL_SUCCESS) {
            c->k[b] = NULL;
            st = ps_ocl_fail(why, whylen, e, "clCreateKernel(%s)", c->kname);
            goto done;
        }
        st = set_args(c, c->k[b], b, why, whylen);
        if (st)
            goto done;
    }
    st = shape(c, c->k[0], why, whylen);
    if (st)
        goto done;
    st = vec_setup(c, why, whylen);
    if (!st)
        st = ls_setup(c, prog, why, whylen);
    if (!st && !c->ls_on)
        st = gen_wave_setup(c, prog, why, whylen);
    if (st)
        goto done;
    ocl_choices(c);
    *out = c;
    c = NULL;
done:
    if (prog)
        clReleaseProgram(prog);
    if (c)
        ocl_destroy(c);
    return st;
}

static const ps_knobs *ocl_knobs_of(void *vc)
{
    return &((ocl_ctx *)vc)->knobs;
}

/* auto orders this plugin by this declaration before loading it (ps_backend.h) */
#define PS_OPENCL_PRIORITY 200
PS_PLUGIN_DECLARE(PS_OPENCL_PRIORITY);

static const ps_backend_ops ps_opencl_table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "opencl",
    .description = "OpenCL 1.2 devices (GPUs, accelerators, CPUs through PoCL)",
    .priority = PS_OPENCL_PRIORITY,
    .flags = PS_BACKEND_GPU | PS_BACKEND_BLOCK | PS_BACKEND_DESCRIBE | PS_BACKEND_KNOBS |
             PS_BACKEND_ADOPT,
    .fast_paths = ps_ocl_fast_paths,
    .probe = ocl_probe,
    .create = ocl_create,
    .upload = ocl_upload,
    .step = ocl_step,
    .finish = ocl_finish_op,
    .download = ocl_download,
    .timing = ocl_timing,
    .destroy = ocl_destroy,
    .last_error = ocl_last_error,
    .describe = ocl_describe,
    .knobs = ocl_knobs_of,
    .adopt = ocl_adopt,
};

/** The plugin's one exported symbol (PS_PLUGIN_ENTRY). */
const ps_backend_ops *ps_backend_plugin_entry(void);

const ps_backend_ops *ps_backend_plugin_entry(void)
{
    return &ps_opencl_table;
}
