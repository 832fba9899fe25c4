/*
 * LD_PRELOAD shim for tests/io/publish.sh: link() fails as on a file system
 * without hard links. PS_SHIM_LINK=eperm: fails with EPERM; =race: first
 * creates the target (another process winning the race), then fails with
 * EPERM. Anything else: the real link().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int link(const char *from, const char *to)
{
    const char *mode = getenv("PS_SHIM_LINK");
    if (mode && !strcmp(mode, "race")) {
        int fd = open(to, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            if (write(fd, "intruder\n", 9) != 9)
                (void)0;
            close(fd);
        }
    }
    if (mode && (!strcmp(mode, "eperm") || !strcmp(mode, "race"))) {
        errno = EPERM;
        return -1;
    }
    {
        int (*real)(const char *, const char *) =
            (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "link");
        if (!real) {
            errno = ENOSYS;
            return -1;
        }
        return real(from, to);
    }
}
