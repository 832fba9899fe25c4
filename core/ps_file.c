/* Kinds of files in words (core/ps_file.h). */
#include "config.h"
#include "ps_file.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int ps_file_read_at(int fd, void *buf, size_t len, uint64_t off, uint64_t fsize)
{
    size_t got = 0;
    if (off > fsize || len > fsize - off)
        return -1;
    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

const char *ps_file_kind(mode_t m)
{
    if (S_ISREG(m))
        return "a regular file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISLNK(m))
        return "a symbolic link";
    return "an unknown kind of file";
}
