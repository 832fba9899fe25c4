/**
 * @file ps_tunecache.h
 * @brief A tuning cache: a small text file of choices measured once per
 * machine and grid (`pstencil tune`), read by a backend when it creates a
 * context.
 *
 * One entry per line, four fields separated by tabs:
 *
 *     KEY <tab> V0 <tab> V1 <tab> MS
 *
 * KEY says what the entry is for (the backend composes it: its name, the CPU,
 * the thread count, the grid, the precision, the kernel path; printable, no
 * tab), V0 and V1 are the two tuned integers (for the openmp backend: steps
 * fused and tile rows) and MS the measured milliseconds per step (for
 * information). Empty lines and lines starting with '#' are comments.
 *
 * The reader never trusts the file: a line that is too long, holds a control
 * byte, has the wrong number of fields, a value that is not a number or out of
 * the caller's range is ignored (and counted, with the first one described),
 * and at most 1 MiB or 10000 lines are read. A missing file is normal.
 */
#ifndef PS_TUNECACHE_H
#define PS_TUNECACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Environment variable naming the tuning cache file (replaces the default). */
#define PS_TUNE_FILE_ENV "PSTENCIL_TUNE_FILE"

/** The openmp backend's cache file name (under the cache directory). */
#define PS_TUNE_OPENMP_FILE "openmp-tune.txt"

/** Longest line of a tuning cache, its newline included. */
#define PS_TUNE_LINE_MAX 1024

/** The tuned values of one entry. */
typedef struct ps_tune_entry {
    long val[2]; /**< the tuned integers (openmp: steps fused, tile rows) */
    double ms;   /**< measured milliseconds per step (information only) */
} ps_tune_entry;

/**
 * The cache file's path: $PSTENCIL_TUNE_FILE if set and not empty, else
 * $XDG_CACHE_HOME/pstencil/@p name (an absolute XDG_CACHE_HOME only), else
 * $HOME/.cache/pstencil/@p name. Returns 0, or -1 (@p buf empty) when none of
 * them is set or the path does not fit in @p len.
 */
int ps_tune_cache_path(const char *name, char *buf, size_t len);

/**
 * Find @p key in the cache @p path: the last valid entry with that key whose
 * values lie in [@p lo[i], @p hi[i]] and whose MS is finite and not negative.
 * Returns 1 (found, *e filled), 0 (not found, or no file) or -1 (the file
 * exists but cannot be read). @p bad receives the number of lines ignored
 * (plus 1 for an unreadable file), and @p why (when @p bad is nonzero) the
 * first reason, naming the line.
 */
int ps_tune_cache_lookup(const char *path, const char *key, const long lo[2],
                         const long hi[2], ps_tune_entry *e, int *bad, char *why,
                         size_t whylen);

/**
 * Store @p e under @p key in the cache @p path, creating its directory (and
 * parents) where missing: the entries with other keys are kept, those with
 * @p key and the lines that are not valid entries or comments dropped, and
 * the new file is written beside the old and renamed over it, so a reader
 * sees the old file or the new one. @p header (may be NULL) becomes the first
 * comment lines of a new file. Returns PS_OK, or a status with the detail in
 * ps_error_detail() and the old file untouched.
 */
int ps_tune_cache_store(const char *path, const char *key, const ps_tune_entry *e,
                        const char *header);

/**
 * Whether the cache @p path may be written: it does not exist or is a regular
 * file (never a device such as /dev/null, a directory or a FIFO). Returns
 * PS_OK or PS_EINVAL with the detail in ps_error_detail().
 */
int ps_tune_cache_writable(const char *path);

/**
 * Whether @p key can be a key: not empty, shorter than PS_TUNE_LINE_MAX / 2,
 * printable (bytes >= 0x20 other than DEL; UTF-8 allowed), no tab.
 */
int ps_tune_key_ok(const char *key);

#ifdef __cplusplus
}
#endif
#endif /* PS_TUNECACHE_H */
