/*
 * Internal header of the opencl plugin: device list, error names, program
 * cache. Nothing here is public; the plugin exports only the entry point.
 *
 * The plugin is self-contained: it calls nothing from libpstencil (it may be
 * loaded with RTLD_LOCAL by a host that did not link libpstencil globally),
 * only the OpenCL ICD loader, which only this plugin links.
 */
#ifndef PS_OPENCL_H
#define PS_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#  define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ps_backend.h"
#include "ps_status.h"

/** ocl-icd's "no vendor driver" code (cl_ext.h, cl_khr_icd). */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#  define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/** How exact float32 division is obtained on a device. */
enum ps_ocl_div {
    PS_OCL_DIV_NONE = 0,    /**< neither: fast mode only */
    PS_OCL_DIV_CORRECT = 1, /**< -cl-fp32-correctly-rounded-divide-sqrt */
    PS_OCL_DIV_DOUBLE = 2   /**< float quotient computed in double, rounded once */
};

/** One device of the flattened platform/device list, with what we need of it. */
typedef struct ps_ocl_dev {
    cl_platform_id platform;
    cl_device_id device;
    int p, d;                  /**< platform and device index */
    char name[128];
    char platform_name[128];
    char platform_version[128];
    char driver[64];
    char clc_version[64];      /**< "OpenCL C 1.2 ..." */
    int clc_major, clc_minor;  /**< OpenCL C version numbers */
    cl_device_type type;
    cl_ulong memory;
    cl_ulong max_alloc;
    cl_uint compute_units;
    cl_uint vendor_id;         /**< CL_DEVICE_VENDOR_ID (0x8086 Intel, 0x1022 AMD; PoCL's
                                    CPU device says 0x8086 on any CPU) */
    char vendor[64];           /**< CL_DEVICE_VENDOR (PoCL: the CPU's, "AuthenticAMD") */
    size_t max_wg;
    size_t max_item[3];
    int fp64;                  /**< cl_khr_fp64 (or a double FP config) */
    int f32_exact_ops;         /**< float: denormals, round to nearest, inf/nan */
    int f64_exact_ops;         /**< double: denormals, round to nearest, inf/nan */
    int crdiv;                 /**< CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT (float) */
    int div;                   /**< enum ps_ocl_div for exact float32 */
    unsigned caps;             /**< PS_CAP_* */
} ps_ocl_dev;

/** Name of an OpenCL status code ("CL_OUT_OF_RESOURCES"), or "unknown OpenCL error". */
const char *ps_ocl_err_name(cl_int e);

/** The ps_ status an OpenCL error maps to (PS_ENOMEM, PS_ENODEVICE, PS_EDEVICE...). */
int ps_ocl_status(cl_int e);

/**
 * Write "<what> failed: CL_NAME (code)" into @p buf and return the mapped ps_
 * status. @p fmt describes the call.
 */
int ps_ocl_fail(char *buf, size_t len, cl_int e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/**
 * The flattened device list (enumerated once per process, then cached).
 * Returns PS_OK with n >= 1, or PS_ENODEVICE / PS_EDEVICE with the reason in
 * @p why.
 */
int ps_ocl_devices(const ps_ocl_dev **list, int *n, char *why, size_t whylen);

/** "gpu", "cpu", "accelerator", "custom" or "default". */
const char *ps_ocl_type_name(cl_device_type t);

/**
 * Choose a device: @p pd, "p:d" (the opencl_device knob; NULL or "": none,
 * @p label names it in messages), overrides @p index; index -1 prefers GPUs,
 * then accelerators, then CPUs (first of each kind).
 */
int ps_ocl_select(int index, const char *pd, const char *label, const ps_ocl_dev **dev,
                  char *why, size_t whylen);

/**
 * How exact float32 divides on @p dev: its own method, or in double where
 * @p in_double (the opencl_divide knob) asks and the device can.
 */
int ps_ocl_div_for(const ps_ocl_dev *dev, int in_double);

/** Program variants a context may need. */
typedef struct ps_ocl_variant {
    int f64;  /**< PS_REAL double */
    int fast; /**< fast mode */
    int div;  /**< enum ps_ocl_div (exact float32 only) */
} ps_ocl_variant;

/**
 * The OpenCL context (one per device) and the built program for @p v with
 * @p extra appended to its build options (the opencl_build_options knob;
 * NULL or "": none; @p label names it in messages), created on first use and
 * kept for the process lifetime (PoCL compiles with LLVM: building once per
 * process keeps contexts cheap); a variant asked for with other options is
 * rebuilt. The caller must not release the context, and releases the
 * program (retained for it) once its kernels exist. Build failures carry the
 * build log in @p why.
 */
int ps_ocl_program(const ps_ocl_dev *dev, ps_ocl_variant v, const char *extra,
                   const char *label, cl_context *ctx, cl_program *prog, char *why,
                   size_t whylen);

/**
 * The program of ps_ocl_program() for @p v and @p extra with stencil
 * @p stencil's rows on explicit vectors appended (ps_opencl_vector.cl: the
 * kernel ps_gmv_<stencil>_row, and for a land-sum stencil ps_glv_<stencil>_row
 * and _wave), built once per device, variant, options and stencil and kept
 * like it; ps_ocl_program() must have made the device's context. A stencil
 * whose cell functions do not compile on vector types (its file
 * kernels/<stencil>.h) has none: a failed build is kept too, and every call
 * then returns PS_EUNSUPPORTED with the build log in @p why.
 */
int ps_ocl_program_vector(const ps_ocl_dev *dev, ps_ocl_variant v, const char *extra,
                           const char *label, const char *stencil, cl_program *prog,
                           char *why, size_t whylen);

/*
 * Embedded sources, generated at build time into ps_opencl_source.c
 * (backends/opencl/local.mk): the program's files in order, NULL-terminated,
 * and their names in the source tree.
 */
extern const char *const ps_ocl_src_list[];
extern const char *const ps_ocl_src_names[];

#endif /* PS_OPENCL_H */
