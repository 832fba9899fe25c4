/* Writing a file safely: pre-checks, a mkstemp temporary beside the target,
 * no-clobber publication, and removal of temporaries on failure or signal. */
#define _GNU_SOURCE /* renameat2() and RENAME_NOREPLACE (glibc 2.28, Linux 3.15) */
#include "config.h"
#include "ps_file.h"
#include "ps_outfile.h"
#include "ps_status.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* ------------------------------------------------- signal-time cleanup list */

#define PS_TEMP_SLOTS 64
static char ps_temp_path[PS_TEMP_SLOTS][4096];
static volatile sig_atomic_t ps_temp_used[PS_TEMP_SLOTS];
static char ps_sig_prog[64] = "pstencil";
static volatile sig_atomic_t ps_sig_defer, ps_sig_pending;

int ps_tempfile_register(const char *path)
{
    int i;
    if (!path || !*path || strlen(path) >= sizeof ps_temp_path[0])
        return -1;
    for (i = 0; i < PS_TEMP_SLOTS; i++)
        if (!ps_temp_used[i]) {
            memcpy(ps_temp_path[i], path, strlen(path) + 1);
            ps_temp_used[i] = 1; /* set last: a handler sees a complete path */
            return i;
        }
    return -1;
}

void ps_tempfile_unregister(int slot)
{
    if (slot >= 0 && slot < PS_TEMP_SLOTS)
        ps_temp_used[slot] = 0;
}

void ps_tempfile_forget(const char *path)
{
    int i;
    for (i = 0; path && i < PS_TEMP_SLOTS; i++)
        if (ps_temp_used[i] && !strcmp(ps_temp_path[i], path))
            ps_temp_used[i] = 0;
}

static void put(const char *s)
{
    ssize_t r = write(2, s, strlen(s));
    (void)r;
}

const char *ps_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
}

void ps_signals_defer(int on)
{
    ps_sig_defer = on != 0;
}

int ps_signal_pending(void)
{
    return ps_sig_pending;
}

/* async-signal-safe: unlink, write, _exit only */
static void ps_on_signal(int sig)
{
    int i;
    const char *name = ps_signal_name(sig);
    if (ps_sig_defer && !ps_sig_pending) {
        /* the first signal of a deferring run: it stops at its next step call
         * and keeps its completed records; a second one stops at once */
        ps_sig_pending = sig;
        put(ps_sig_prog);
        put(": ");
        put(name);
        put(": stopping after the current steps, keeping the completed records "
            "(again to stop at once)\n");
        return;
    }
    for (i = 0; i < PS_TEMP_SLOTS; i++)
        if (ps_temp_used[i])
            unlink(ps_temp_path[i]);
    put(ps_sig_prog);
    put(": interrupted by ");
    put(name);
    put(": stopped, temporary files removed, no output written\n");
    _exit(128 + sig);
}

void ps_signals_install(const char *prog)
{
    struct sigaction sa;
    if (prog)
        snprintf(ps_sig_prog, sizeof ps_sig_prog, "%s", prog);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ps_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    {
        static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
        int i;
        for (i = 0; i < 3; i++) {
            struct sigaction old;
            /* a signal ignored by whoever started us (nohup, a background job of a
             * shell) stays ignored */
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
                continue;
            sigaction(sigs[i], &sa, NULL);
        }
    }
    signal(SIGXFSZ, SIG_IGN);
}

/* --------------------------------------------------------------- checking */

static void dir_of(const char *path, char *dir, size_t n)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(dir, n, "%s", dirname(tmp));
}

/*
 * What is at @p path, without following a final symbolic link: PS_OK with
 * *exists 0 (nothing), or *exists 1 and *dangling 1 for a symbolic link that
 * resolves to nothing, or *exists 1 for a regular file or a link to one.
 * Anything else (a directory, FIFO, device or socket, or a link to one) is
 * refused whatever force says: pstencil writes and replaces regular files only.
 */
static int target_kind(const char *path, const char *what, int *exists, int *dangling,
                       struct stat *so)
{
    struct stat lo;
    *exists = *dangling = 0;
    if (lstat(path, &lo) != 0)
        return PS_OK;
    *exists = 1;
    *so = lo;
    if (S_ISLNK(lo.st_mode)) {
        char to[4096];
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = '\0';
        if (stat(path, so) != 0) {
            *dangling = 1;
            return PS_OK;
        }
        if (!S_ISREG(so->st_mode))
            return ps_error(PS_EINVAL, "%s %s is a symbolic link to %s (%s), not a regular "
                                       "file: pstencil writes only regular files and never "
                                       "replaces anything else, with or without --force",
                            what, path, ps_file_kind(so->st_mode), to);
        return PS_OK;
    }
    if (!S_ISREG(lo.st_mode))
        return ps_error(PS_EINVAL, "%s %s is %s, not a regular file: pstencil writes only "
                                   "regular files and never replaces anything else, with or "
                                   "without --force",
                        what, path, ps_file_kind(lo.st_mode));
    return PS_OK;
}

int ps_outfile_check(const char *path, const char *input, int force, const char *what)
{
    struct stat so, si, sd;
    char dir[4096];
    int exists, dangling, st;
    if (!what)
        what = "output";
    if (!path || !*path)
        return ps_error(PS_EINVAL, "%s: no file name given", what);
    if (strlen(path) >= 4000)
        return ps_error(PS_EINVAL, "%s: file name is too long", what);
    st = target_kind(path, what, &exists, &dangling, &so);
    if (exists && !dangling && input && *input && stat(input, &si) == 0 &&
        so.st_dev == si.st_dev && so.st_ino == si.st_ino)
        return ps_error(PS_EINVAL, "%s %s is the input file %s; pstencil never overwrites "
                                   "its input: choose another file",
                        what, path, input);
    if (st)
        return st;
    if (exists && !force) {
        if (dangling)
            return ps_error(PS_EEXIST, "%s %s exists as a dangling symbolic link; use --force "
                                       "to replace the link",
                            what, path);
        return ps_error(PS_EEXIST, "%s %s exists; use --force to overwrite it", what, path);
    }
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &sd) != 0)
        return ps_error(PS_EIO, "cannot write %s %s: directory %s: %s", what, path, dir,
                        strerror(errno));
    if (!S_ISDIR(sd.st_mode))
        return ps_error(PS_EIO, "cannot write %s %s: %s is not a directory", what, path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return ps_error(PS_EIO, "cannot write %s %s: directory %s is not writable: %s", what,
                        path, dir, strerror(errno));
    return PS_OK;
}

long long ps_outfile_free_bytes(const char *path)
{
    struct statvfs v;
    char dir[4096];
    dir_of(path, dir, sizeof dir);
    if (statvfs(dir, &v) != 0)
        return -1;
    return (long long)v.f_bavail * (long long)v.f_frsize;
}

/* ---------------------------------------------------------------- writing */

int ps_outfile_begin(ps_outfile *o, const char *path, int force)
{
    char dir[4096], tmpb[4096];
    mode_t um;
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->slot = -1;
    if (!path || !*path || strlen(path) >= sizeof o->path)
        return ps_error(PS_EINVAL, "output file name missing or too long");
    snprintf(o->path, sizeof o->path, "%s", path);
    o->force = force;
    {
        struct stat so;
        int exists, dangling, st = target_kind(path, "output", &exists, &dangling, &so);
        if (st)
            return st;
    }
    dir_of(path, dir, sizeof dir);
    snprintf(tmpb, sizeof tmpb, "%s", path);
    if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s/.%s.tmp.XXXXXX", dir, basename(tmpb)) >=
        sizeof o->tmp) {
        o->tmp[0] = '\0';
        return ps_error(PS_EINVAL, "output path %s is too long", path);
    }
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        int e = errno;
        o->tmp[0] = '\0';
        return ps_error(PS_EIO, "cannot create a temporary file for %s in %s: %s", path, dir,
                        strerror(e));
    }
    o->slot = ps_tempfile_register(o->tmp);
    um = umask(0);
    umask(um);
    if (fchmod(o->fd, 0666 & ~um))
        (void)0;
    return PS_OK;
}

int ps_outfile_publish_path(const char *tmp, const char *path, int force)
{
    int fd = open(tmp, O_RDONLY);
    ps_tempfile_forget(tmp); /* removed or published below, whatever happens */
    if (fd >= 0) {
        if (fsync(fd) != 0 && errno != EINVAL) {
            int e = errno;
            close(fd);
            unlink(tmp);
            return ps_error(PS_EIO, "writing %s: %s", path, strerror(e));
        }
        close(fd);
    }
    if (!force) {
        /* link() fails if the target exists: nothing is ever clobbered */
        if (link(tmp, path) == 0) {
            unlink(tmp);
            return PS_OK;
        }
        {
            int e = errno;
#ifdef RENAME_NOREPLACE
            /* no hard links here (FAT, some network file systems: EPERM, ENOTSUP...):
             * the kernel's no-replace rename is atomic and never clobbers either */
            if (e != EEXIST) {
                if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
                    return PS_OK;
                if (errno == EEXIST)
                    e = EEXIST;
            }
#endif
            unlink(tmp);
            if (e == EEXIST)
                return ps_error(PS_EEXIST, "%s appeared while pstencil was writing it; it was "
                                           "left alone (use --force to overwrite it)",
                                path);
            return ps_error(PS_EIO, "cannot publish %s: %s (nothing was overwritten)", path,
                            strerror(e));
        }
    }
    {
        /* the same rule as ps_outfile_check(), again just before the replacement:
         * rename() would put the file in place of a FIFO, a device or a socket */
        struct stat so;
        int exists, dangling, st = target_kind(path, "output", &exists, &dangling, &so);
        if (st) {
            unlink(tmp);
            return st;
        }
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return ps_error(PS_EIO, "cannot rename %s to %s: %s", tmp, path, strerror(e));
    }
    return PS_OK;
}

int ps_outfile_publish(ps_outfile *o)
{
    int st;
    if (!o->tmp[0])
        return ps_error(PS_EINVAL, "%s: nothing to publish", o->path);
    if (o->fd >= 0) {
        int bad = close(o->fd);
        o->fd = -1;
        if (bad) {
            int e = errno;
            ps_outfile_abort(o);
            return ps_error(PS_EIO, "writing %s: %s", o->path, strerror(e));
        }
    }
    st = ps_outfile_publish_path(o->tmp, o->path, o->force);
    o->tmp[0] = '\0';
    ps_tempfile_unregister(o->slot);
    o->slot = -1;
    return st;
}

void ps_outfile_abort(ps_outfile *o)
{
    if (!o)
        return;
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    if (o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = '\0';
    ps_tempfile_unregister(o->slot);
    o->slot = -1;
}
