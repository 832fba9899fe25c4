/*
 * OpenCL devices: every device of every platform in one flattened list
 * (enumerated once per process), what each can do in exact mode, and the
 * choice of a device (index, PSTENCIL_OPENCL_DEVICE=platform:device, or the
 * default: GPUs first, then accelerators, then CPUs).
 */
#include "config.h"
#include "ps_opencl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t ps_ocl_dev_lock = PTHREAD_MUTEX_INITIALIZER;
static int ps_ocl_dev_done;      /* enumeration attempted */
static int ps_ocl_dev_status;    /* its result */
static char ps_ocl_dev_why[1024];
static ps_ocl_dev *ps_ocl_dev_list;
static int ps_ocl_dev_count;

const char *ps_ocl_type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return "gpu";
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    if (t & CL_DEVICE_TYPE_CPU)
        return "cpu";
#ifdef CL_DEVICE_TYPE_CUSTOM
    if (t & CL_DEVICE_TYPE_CUSTOM)
        return "custom";
#endif
    return "default";
}

/*
 * A string query, truncated to @p len (vendors' version strings can be long);
 * on failure the string says so (probe must still list the device).
 */
static void info_str(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj,
                     cl_uint what, char *buf, size_t len)
{
    size_t need = 0;
    char *tmp;
    cl_int e = get(obj, what, 0, NULL, &need);
    if (e == CL_SUCCESS && (tmp = calloc(1, need + 1)) != NULL) {
        e = get(obj, what, need, tmp, NULL);
        if (e == CL_SUCCESS)
            snprintf(buf, len, "%s", tmp);
        free(tmp);
    }
    if (e != CL_SUCCESS)
        snprintf(buf, len, "(unknown: %s)", ps_ocl_err_name(e));
}

static cl_int get_dev(void *o, cl_uint w, size_t n, void *v, size_t *r)
{
    return clGetDeviceInfo((cl_device_id)o, w, n, v, r);
}

static cl_int get_plat(void *o, cl_uint w, size_t n, void *v, size_t *r)
{
    return clGetPlatformInfo((cl_platform_id)o, w, n, v, r);
}

static void dev_str(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    info_str(get_dev, d, what, buf, len);
}

static void plat_str(cl_platform_id p, cl_platform_info what, char *buf, size_t len)
{
    info_str(get_plat, p, what, buf, len);
}

/* Fill one device's properties; PS_OK or a ps_ status with the call that failed in why. */
static int dev_props(ps_ocl_dev *x, char *why, size_t whylen)
{
    cl_device_fp_config sfp = 0, dfp = 0;
    cl_uint dims = 0;
    const cl_device_fp_config need = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;
    size_t extlen = 0;
    char *ext = NULL;
    cl_int e;

    dev_str(x->device, CL_DEVICE_NAME, x->name, sizeof x->name);
    dev_str(x->device, CL_DEVICE_VENDOR, x->vendor, sizeof x->vendor);
    dev_str(x->device, CL_DRIVER_VERSION, x->driver, sizeof x->driver);
    dev_str(x->device, CL_DEVICE_OPENCL_C_VERSION, x->clc_version, sizeof x->clc_version);
    plat_str(x->platform, CL_PLATFORM_NAME, x->platform_name, sizeof x->platform_name);
    plat_str(x->platform, CL_PLATFORM_VERSION, x->platform_version, sizeof x->platform_version);
    if (sscanf(x->clc_version, "OpenCL C %d.%d", &x->clc_major, &x->clc_minor) != 2) {
        x->clc_major = 1; /* every OpenCL device compiles OpenCL C 1.0 */
        x->clc_minor = 0;
    }
#define Q(what, var, label)                                                                 \
    e = clGetDeviceInfo(x->device, what, sizeof(var), &(var), NULL);                        \
    if (e != CL_SUCCESS)                                                                    \
        return ps_ocl_fail(why, whylen, e, "clGetDeviceInfo(" label ") on device %d:%d",     \
                           x->p, x->d)
    Q(CL_DEVICE_TYPE, x->type, "CL_DEVICE_TYPE");
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, x->memory, "CL_DEVICE_GLOBAL_MEM_SIZE");
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, x->max_alloc, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, x->compute_units, "CL_DEVICE_MAX_COMPUTE_UNITS");
    Q(CL_DEVICE_VENDOR_ID, x->vendor_id, "CL_DEVICE_VENDOR_ID");
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, x->max_wg, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, dims, "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS");
    {
        /* the query returns one size per dimension: ask with room for all of them */
        size_t *items = calloc(dims ? dims : 1, sizeof *items);
        cl_uint a;
        if (!items) {
            snprintf(why, whylen, "out of memory");
            return PS_ENOMEM;
        }
        e = clGetDeviceInfo(x->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof *items, items,
                            NULL);
        for (a = 0; a < 3; a++)
            x->max_item[a] = a < dims ? items[a] : 1;
        free(items);
        if (e != CL_SUCCESS)
            return ps_ocl_fail(why, whylen, e, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES) "
                               "on device %d:%d", x->p, x->d);
    }
    Q(CL_DEVICE_SINGLE_FP_CONFIG, sfp, "CL_DEVICE_SINGLE_FP_CONFIG");
#undef Q
    e = clGetDeviceInfo(x->device, CL_DEVICE_EXTENSIONS, 0, NULL, &extlen);
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS) on device %d:%d",
                           x->p, x->d);
    ext = calloc(1, extlen + 1);
    if (!ext) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    e = clGetDeviceInfo(x->device, CL_DEVICE_EXTENSIONS, extlen, ext, NULL);
    if (e != CL_SUCCESS) {
        free(ext);
        return ps_ocl_fail(why, whylen, e, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS) on device %d:%d",
                           x->p, x->d);
    }
    /* A device without doubles may reject the double config query: that just means no fp64. */
    if (clGetDeviceInfo(x->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dfp, &dfp, NULL) !=
        CL_SUCCESS)
        dfp = 0;
    x->fp64 = strstr(ext, "cl_khr_fp64") != NULL || dfp != 0;
    free(ext);
    x->f32_exact_ops = (sfp & need) == need;
    x->f64_exact_ops = x->fp64 && (dfp & need) == need;
    x->crdiv = (sfp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0 &&
               (x->clc_major > 1 || x->clc_minor >= 2);
    x->div = PS_OCL_DIV_NONE;
    if (x->f32_exact_ops)
        x->div = x->crdiv ? PS_OCL_DIV_CORRECT : (x->fp64 ? PS_OCL_DIV_DOUBLE : PS_OCL_DIV_NONE);
    x->caps = PS_CAP_FAST;
    if (x->fp64)
        x->caps |= PS_CAP_FP64;
    if (x->div != PS_OCL_DIV_NONE)
        x->caps |= PS_CAP_EXACT_F32;
    if (x->f64_exact_ops)
        x->caps |= PS_CAP_EXACT_F64;
    return PS_OK;
}

static int enumerate(char *why, size_t whylen)
{
    cl_uint np = 0, p;
    cl_platform_id *plats = NULL;
    int st = PS_OK, total = 0;
    cl_int e;

    e = clGetPlatformIDs(0, NULL, &np);
    if (e == CL_PLATFORM_NOT_FOUND_KHR || (e == CL_SUCCESS && np == 0)) {
        snprintf(why, whylen,
                 "no OpenCL platform (the ICD loader found no vendor driver: clGetPlatformIDs "
                 "returned %s (%d); install one, e.g. pocl-opencl-icd, or check "
                 "/etc/OpenCL/vendors and OCL_ICD_VENDORS)",
                 e == CL_SUCCESS ? "0 platforms" : ps_ocl_err_name(e), (int)e);
        return PS_ENODEVICE;
    }
    if (e != CL_SUCCESS)
        return ps_ocl_fail(why, whylen, e, "no OpenCL platform: clGetPlatformIDs");
    plats = calloc(np, sizeof *plats);
    if (!plats) {
        snprintf(why, whylen, "out of memory");
        return PS_ENOMEM;
    }
    e = clGetPlatformIDs(np, plats, NULL);
    if (e != CL_SUCCESS) {
        st = ps_ocl_fail(why, whylen, e, "clGetPlatformIDs(%u)", np);
        goto done;
    }
    for (p = 0; p < np; p++) {
        cl_uint nd = 0, d;
        cl_device_id *devs;
        ps_ocl_dev *grown;
        e = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (e == CL_DEVICE_NOT_FOUND || nd == 0)
            continue; /* a platform without devices: nothing to list */
        if (e != CL_SUCCESS) {
            st = ps_ocl_fail(why, whylen, e, "clGetDeviceIDs on platform %u", p);
            goto done;
        }
        devs = calloc(nd, sizeof *devs);
        grown = realloc(ps_ocl_dev_list, (size_t)(total + (int)nd) * sizeof *grown);
        if (!devs || !grown) {
            free(devs);
            if (grown)
                ps_ocl_dev_list = grown;
            snprintf(why, whylen, "out of memory");
            st = PS_ENOMEM;
            goto done;
        }
        ps_ocl_dev_list = grown;
        e = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs, NULL);
        if (e != CL_SUCCESS) {
            free(devs);
            st = ps_ocl_fail(why, whylen, e, "clGetDeviceIDs(%u) on platform %u", nd, p);
            goto done;
        }
        for (d = 0; d < nd; d++) {
            ps_ocl_dev *x = &ps_ocl_dev_list[total];
            memset(x, 0, sizeof *x);
            x->platform = plats[p];
            x->device = devs[d];
            x->p = (int)p;
            x->d = (int)d;
            st = dev_props(x, why, whylen);
            if (st) {
                free(devs);
                goto done;
            }
            total++;
        }
        free(devs);
    }
    if (total == 0) {
        snprintf(why, whylen, "%u OpenCL platform(s) but no device on any of them", np);
        st = PS_ENODEVICE;
    }
done:
    free(plats);
    ps_ocl_dev_count = st ? 0 : total;
    return st;
}

int ps_ocl_devices(const ps_ocl_dev **list, int *n, char *why, size_t whylen)
{
    int st;
    pthread_mutex_lock(&ps_ocl_dev_lock);
    if (!ps_ocl_dev_done) {
        ps_ocl_dev_status = enumerate(ps_ocl_dev_why, sizeof ps_ocl_dev_why);
        ps_ocl_dev_done = 1;
    }
    st = ps_ocl_dev_status;
    *list = ps_ocl_dev_list;
    *n = ps_ocl_dev_count;
    if (st)
        snprintf(why, whylen, "%s", ps_ocl_dev_why);
    pthread_mutex_unlock(&ps_ocl_dev_lock);
    return st;
}

int ps_ocl_div_for(const ps_ocl_dev *dev, int in_double)
{
    return in_double && dev->f32_exact_ops && dev->fp64 ? PS_OCL_DIV_DOUBLE : dev->div;
}

int ps_ocl_select(int index, const char *env, const char *label, const ps_ocl_dev **out,
                  char *why, size_t whylen)
{
    const ps_ocl_dev *list;
    int n, st, i;
    *out = NULL;
    st = ps_ocl_devices(&list, &n, why, whylen);
    if (st)
        return st;
    if (env && *env) {
        int p, d, used = 0;
        if (sscanf(env, "%d:%d%n", &p, &d, &used) != 2 || env[used] != '\0' || p < 0 || d < 0) {
            snprintf(why, whylen, "%s='%s' is not platform:device (two indices, e.g. 0:1)",
                     label, env);
            return PS_EINVAL;
        }
        for (i = 0; i < n; i++)
            if (list[i].p == p && list[i].d == d) {
                *out = &list[i];
                return PS_OK;
            }
        snprintf(why, whylen, "%s=%d:%d: no such OpenCL device (%d device(s); see `pstencil "
                 "backends`)", label, p, d, n);
        return PS_ENODEVICE;
    }
    if (index >= 0) {
        if (index >= n) {
            snprintf(why, whylen, "device %d does not exist (the opencl backend has %d device(s), "
                                  "0..%d)", index, n, n - 1);
            return PS_ENODEVICE;
        }
        *out = &list[index];
        return PS_OK;
    }
    {
        static const cl_device_type pref[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                                              CL_DEVICE_TYPE_CPU};
        size_t k;
        for (k = 0; k < sizeof pref / sizeof pref[0]; k++)
            for (i = 0; i < n; i++)
                if (list[i].type & pref[k]) {
                    *out = &list[i];
                    return PS_OK;
                }
    }
    *out = &list[0];
    return PS_OK;
}
