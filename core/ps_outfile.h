/**
 * @file ps_outfile.h
 * @brief One way to write every file pstencil makes: checked before the work
 * starts, written to a private temporary file beside the target, published
 * without clobbering, removed on every failure and on SIGINT/SIGTERM/SIGHUP.
 *
 * The sequence is ps_outfile_check() (before a run), ps_outfile_begin()
 * (mkstemp beside the target, registered for signal cleanup), writing to
 * ps_outfile::fd or ps_outfile::tmp, then ps_outfile_publish() or
 * ps_outfile_abort(). Publishing uses link() + unlink(), which fails when the
 * target exists; only with force does it rename() over it.
 */
#ifndef PS_OUTFILE_H
#define PS_OUTFILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A file being written. */
typedef struct ps_outfile {
    char path[4096]; /**< the target */
    char tmp[4096];  /**< the temporary file beside it ("" once published or removed) */
    int fd;          /**< open descriptor of tmp, or -1 */
    int force;       /**< publishing may replace an existing target */
    int slot;        /**< signal-cleanup slot, or -1 */
} ps_outfile;

/**
 * Check that @p path can be written: its directory exists and is writable,
 * it is not @p input (same device and inode; @p input may be NULL), it is
 * nothing or a regular file (a directory, FIFO, device, socket or a symbolic
 * link to one is refused with PS_EINVAL whatever @p force says) and, without
 * @p force, it does not exist (a dangling symbolic link exists: with @p force
 * the link itself is replaced). @p what names the file in the message
 * ("output", "--profile"). Returns PS_OK, PS_EEXIST, PS_EINVAL or PS_EIO.
 */
int ps_outfile_check(const char *path, const char *input, int force, const char *what);

/**
 * Create the temporary file (".NAME.tmp.XXXXXX" beside @p path, O_EXCL via
 * mkstemp, mode 0666 & ~umask) and register it for removal on a signal.
 * A target that is not a regular file is refused first, as by
 * ps_outfile_check(). On failure nothing is left and @p o is safe to abort.
 */
int ps_outfile_begin(ps_outfile *o, const char *path, int force);

/**
 * Close the descriptor if open, sync, and publish the temporary file at the
 * target: link() then unlink() (never replacing an existing file; where the
 * file system has no hard links, Linux's renameat2(RENAME_NOREPLACE), never a
 * plain rename), or with force rename(), which is refused (PS_EINVAL) when the
 * target is not a regular file or a symbolic link to one or to nothing. On any
 * failure the temporary file is removed.
 */
int ps_outfile_publish(ps_outfile *o);

/** Remove the temporary file if any, close the descriptor; safe to repeat. */
void ps_outfile_abort(ps_outfile *o);

/**
 * Publish an already written, closed temporary file @p tmp at @p path with
 * the rules of ps_outfile_publish(); removes @p tmp on failure. Returns
 * PS_OK, PS_EEXIST (the target appeared meanwhile), PS_EINVAL (with force, a
 * target that is not a regular file) or PS_EIO.
 */
int ps_outfile_publish_path(const char *tmp, const char *path, int force);

/** Register a temporary file for removal on SIGINT/SIGTERM/SIGHUP; returns a slot or -1. */
int ps_tempfile_register(const char *path);
/** Forget a slot of ps_tempfile_register() (the file was published or removed). */
void ps_tempfile_unregister(int slot);
/** Forget every slot registered for @p path. */
void ps_tempfile_forget(const char *path);

/**
 * Install handlers for SIGINT, SIGTERM and SIGHUP that remove every
 * registered temporary file, print one line and exit with 128 + the signal
 * (130, 143, 129). A signal that was ignored when the program started
 * (nohup, a background job) stays ignored. SIGXFSZ is ignored, so a file-size limit is a write
 * error (EFBIG) and not a kill. @p prog prefixes the message.
 */
void ps_signals_install(const char *prog);

/**
 * While @p on, the first SIGINT, SIGTERM or SIGHUP does not stop the
 * process: the handler records it (ps_signal_pending()) and says so, and the
 * program stops where it chooses, keeping what it finished (pstencil run
 * publishes its completed records). A second signal stops at once, as
 * ps_signals_install() says.
 */
void ps_signals_defer(int on);

/** The signal recorded while deferring (SIGINT, SIGTERM, SIGHUP), or 0. */
int ps_signal_pending(void);

/** "SIGINT", "SIGTERM" or "SIGHUP" (async-signal-safe: a string literal). */
const char *ps_signal_name(int sig);

/**
 * Bytes free for an unprivileged writer in the file system holding @p path's
 * directory, or -1 if unknown.
 */
long long ps_outfile_free_bytes(const char *path);

#ifdef __cplusplus
}
#endif
#endif
