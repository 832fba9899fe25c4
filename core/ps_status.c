/* Status codes and per-thread error details. */
#include "config.h"
#include "ps_status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char ps_detail[1024];

const char *ps_strerror(int status)
{
    switch (status) {
    case PS_OK: return "success";
    case PS_EINVAL: return "invalid argument";
    case PS_ENOMEM: return "out of memory or grid too large";
    case PS_EIO: return "input/output error";
    case PS_ENETCDF: return "netCDF library error";
    case PS_EFORMAT: return "not a usable NetCDF file";
    case PS_ENOVAR: return "no temperature variable";
    case PS_EAMBIG: return "ambiguous variable";
    case PS_EDIM: return "unusable dimension or axis";
    case PS_ERANGE: return "value out of range";
    case PS_ENOBACKEND: return "no such backend";
    case PS_EUNAVAIL: return "backend unavailable";
    case PS_ENODEVICE: return "no device";
    case PS_EABI: return "plugin ABI version mismatch";
    case PS_EDEVICE: return "device runtime error";
    case PS_EUNSUPPORTED: return "not supported by this backend or device";
    case PS_EEXIST: return "output exists";
    case PS_ETRUNC: return "truncated file";
    case PS_EMISMATCH: return "results differ";
    case PS_EINTERNAL: return "internal error";
    case PS_ENOTIMPL: return "not available in this build";
    case PS_ECANCELED: return "stopped on request";
    default: return "unknown status";
    }
}

const char *ps_error_detail(void)
{
    return ps_detail;
}

void ps_error_clear(void)
{
    ps_detail[0] = '\0';
}

int ps_error(int status, const char *fmt, ...)
{
    /* format into a scratch buffer first: callers may pass ps_error_detail()
     * itself as an argument, and vsnprintf must not overlap its output */
    char tmp[sizeof ps_detail];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    memcpy(ps_detail, tmp, sizeof tmp);
    return status;
}

const char *ps_shortest(double v, char *buf, size_t n)
{
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}
