/**
 * @file ps_status.h
 * @brief Status codes returned by every pstencil library call.
 *
 * Every call returns 0 (PS_OK) or a negative PS_E* code. ps_strerror() names
 * the code; ps_error_detail() returns the message recorded by the failing
 * call on this thread (which file, which variable, which device...).
 */
#ifndef PS_STATUS_H
#define PS_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes (0 or negative). */
enum ps_status {
    PS_OK = 0,            /**< success */
    PS_EINVAL = -1,       /**< invalid argument or option value */
    PS_ENOMEM = -2,       /**< out of memory, or the grid is too large */
    PS_EIO = -3,          /**< I/O error (open, read, write, rename) */
    PS_ENETCDF = -4,      /**< the netCDF library reported an error */
    PS_EFORMAT = -5,      /**< the file is not a usable NetCDF file */
    PS_ENOVAR = -6,       /**< no temperature variable found */
    PS_EAMBIG = -7,       /**< several candidate variables */
    PS_EDIM = -8,         /**< a dimension or axis is unusable */
    PS_ERANGE = -9,       /**< an index or value is out of range */
    PS_ENOBACKEND = -10,  /**< no such backend, or it was not built */
    PS_EUNAVAIL = -11,    /**< the backend is built but cannot run here */
    PS_ENODEVICE = -12,   /**< the backend has no (such) device */
    PS_EABI = -13,        /**< a plugin was built for another ABI version */
    PS_EDEVICE = -14,     /**< a device runtime call failed */
    PS_EUNSUPPORTED = -15,/**< the backend cannot do what was asked (e.g. exact float64) */
    PS_EEXIST = -16,      /**< the output exists and --force was not given */
    PS_ETRUNC = -17,      /**< the file is shorter than its header implies */
    PS_EMISMATCH = -18,   /**< two fields differ (validation) */
    PS_EINTERNAL = -19,   /**< an internal invariant failed (a bug) */
    PS_ENOTIMPL = -20,    /**< not available in this build */
    PS_ECANCELED = -21    /**< stopped on request (a signal, a cancel callback) */
};

/** Short, static description of a status code. Never NULL. */
const char *ps_strerror(int status);

/**
 * Detail recorded by the last failing call on this thread (empty string if
 * none). Valid until the next call that records an error on this thread.
 */
const char *ps_error_detail(void);

/**
 * Record a detail message for the current thread and return @p status, so a
 * function can write `return ps_error(PS_EINVAL, "bad %s", x);`.
 */
int ps_error(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Clear the current thread's detail message. */
void ps_error_clear(void);

/**
 * Write @p v into @p buf (@p n bytes) as the shortest decimal that reads back
 * as @p v (at most 17 significant digits); returns @p buf. For messages that
 * must show the exact value given ("1.0000001", not "1").
 */
const char *ps_shortest(double v, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* PS_STATUS_H */
